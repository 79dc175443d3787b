"""The chance to win from what the player can see: sampled stocks, each solved thoughtfully.

>>> from milligan_widget import Game
>>> chance = win_chance(Game.new(27), samples=4, node_limit=20_000, seed=1)
>>> chance.samples, 0 <= chance.wins <= 4, chance.low <= chance.p <= chance.high
(4, True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from milligan_widget.engine.game import Game
from milligan_widget.engine.interval import wilson
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

from .sampling import determinize, make_rng, visible_view

Stop = Callable[[], bool]


@dataclass(frozen=True)
class Chance:
    """How many of ``samples`` determinizations the solver won, with a 95% Wilson interval.

    A sample the solver did not decide in its budget counts as not won (``undecided`` says how
    many). ``exact`` is true where nothing was hidden: the one "sample" is the position itself,
    and a decided verdict has no interval around it.
    """

    wins: int
    samples: int
    undecided: int = 0
    seed: int | None = None
    seconds: float = field(default=0.0, compare=False)  # equal chances may take unequal times
    exact: bool = False
    stopped: bool = False  # ``stop()`` ended it early: the samples left count as undecided

    @property
    def p(self) -> float:
        """The share of samples won."""
        return self.wins / self.samples

    @property
    def decided(self) -> int:
        return self.samples - self.undecided

    @property
    def low(self) -> float:
        if self.exact:
            return self.p if not self.undecided else 0.0
        return wilson(self.wins, self.samples)[0]

    @property
    def high(self) -> float:
        if self.exact:
            return self.p if not self.undecided else 1.0
        return wilson(self.wins, self.samples)[1]

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data (for the widget)."""
        return {
            "wins": self.wins,
            "samples": self.samples,
            "undecided": self.undecided,
            "p": self.p,
            "low": self.low,
            "high": self.high,
            "exact": self.exact,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "text": str(self),
        }

    def __str__(self) -> str:
        """In a player's words, like "62% of 32 sampled stocks win (45–77%)"."""
        if self.exact:
            verdict = {1: "can be won", 0: "cannot be won"}[self.wins]
            if self.undecided:
                verdict = "is undecided (the solver ran out of time)"
            return f"nothing is hidden: this position {verdict}"
        text = f"{100 * self.p:.0f}% of {self.samples} sampled stocks win"
        text += f" ({100 * self.low:.0f}–{100 * self.high:.0f}%)"
        if self.undecided:
            text += f"; {self.undecided} undecided"
        return text


def check_budget(
    game: Game, samples: int, time_limit: float, node_limit: int | None = None
) -> None:
    """A ``ValueError`` in a player's words for a game that is over or a bad budget."""
    if game.status != "playing":
        raise ValueError(f"the game is over ({game.status}): there is no chance left to weigh")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise ValueError(f"time_limit must be a number of seconds, not {time_limit!r}")
    if not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a number of seconds above 0, not {time_limit!r}")
    bad_nodes = isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 1
    if node_limit is not None and bad_nodes:
        raise ValueError(f"node_limit must be a whole number of at least 1, not {node_limit!r}")


class Budget:
    """A whole call's time shared by its solves: each gets an even share of what is left."""

    def __init__(self, time_limit: float, solves: int, stop: Stop | None = None) -> None:
        self.deadline = time.perf_counter() + time_limit
        self.left = max(1, solves)
        self.stop = stop

    def share(self) -> float:
        """The seconds for the next solve (0 once the time is up or ``stop()`` says so)."""
        if self.stopped:
            return 0.0
        now = time.perf_counter()
        seconds = max(0.0, (self.deadline - now) / max(1, self.left))
        self.left -= 1
        return seconds

    @property
    def stopped(self) -> bool:
        return self.stop is not None and self.stop()


def thoughtful_chance(
    game: Game, time_limit: float, node_limit: int | None, stop: Stop | None
) -> Chance:
    """The verdict where nothing is hidden, as an exact :class:`Chance`."""
    start = time.perf_counter()
    result = solve(game, time_limit, node_limit, stop=stop, shorten_line=False)
    wins = int(result.status == WINNABLE)
    seconds = time.perf_counter() - start
    return Chance(wins, 1, int(result.status == UNKNOWN), None, seconds, exact=True)


def win_chance(
    game: Game,
    samples: int = 32,
    time_limit: float = 2.0,
    node_limit: int | None = None,
    seed: int | None = None,
    stop: Stop | None = None,
) -> Chance:
    """The chance to win ``game`` from what its player can see.

    Each of ``samples`` determinizations (:mod:`.sampling`) is solved by the thoughtful solver;
    ``time_limit`` seconds is the whole call's budget, shared among them, ``node_limit`` the
    positions each solve may expand (with a ``seed``, results are then the same every run).
    ``stop()`` cancels it: the samples not yet solved count as undecided. Where nothing is
    hidden, the answer is the thoughtful verdict itself. The game is not changed.
    """
    check_budget(game, samples, time_limit, node_limit)
    view = visible_view(game)
    if view.hidden == 0:
        return thoughtful_chance(game, time_limit, node_limit, stop)
    rng, seed = make_rng(seed)
    budget, start = Budget(time_limit, samples, stop), time.perf_counter()
    wins = undecided = 0
    for _ in range(samples):
        sample = determinize(view, rng)  # drawn even when out of time: the same draws for a seed
        seconds = budget.share()
        if budget.stopped or seconds <= 0:
            undecided += 1
            continue
        status = solve(sample, seconds, node_limit, stop=stop, shorten_line=False).status
        wins += status == WINNABLE
        undecided += status not in (WINNABLE, UNWINNABLE)
    return Chance(
        wins, samples, undecided, seed, time.perf_counter() - start, False, budget.stopped
    )
