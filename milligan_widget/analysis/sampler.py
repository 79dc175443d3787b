"""The sampler's figure: sampled stocks, each solved thoughtfully.

:class:`SamplingEvaluator` is an :class:`.evaluate.Evaluator`: it deals the unseen cards at
random (:mod:`.sampling`) ``limit.samples`` times and lets the thoughtful solver try each
sample, after each line of moves it is asked about. Each sample's solver sees every later
row, so its figure is what a player who could see the next rows would win; the calibrated
chance (:mod:`.calibrated`) turns it into what careful play wins.

>>> from milligan_widget import Game
>>> chance = SamplingEvaluator(1).evaluate(Seen.of(Game.new(27)), Limit(20_000, samples=4))
>>> chance.samples, 0 <= chance.wins <= 4, chance.low <= chance.p <= chance.high
(4, True, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

from .evaluate import Chance, Limit, Seen, Stop
from .sampling import determinize

__all__ = ["Budget", "SamplingEvaluator", "check_budget"]


def check_budget(
    game: Game, samples: int, time_limit: float | None, node_limit: int | None = None
) -> Limit:
    """The :class:`.evaluate.Limit` of these parameters; a ``ValueError`` in a player's words
    for a game that is over or a bad budget."""
    if game.status != "playing":
        raise ValueError(f"the game is over ({game.status}): there is no chance left to weigh")
    return Limit.of(samples, time_limit, node_limit)


class Budget:
    """A whole call's time shared by its solves: each gets an even share of what is left
    (without a clock, each gets all the time it wants: the node limit bounds it)."""

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


@dataclass(frozen=True)
class SamplingEvaluator:
    """Sampled stocks, each solved (perfect-information Monte Carlo, which overrates positions
    that need luck: each sample's solver knows every later row). The samples come from
    ``seed``, or where it is None from the position itself (:meth:`.evaluate.Seen.seed`):
    the same position, the same samples, the same answer."""

    seed: int | None = None

    @property
    def identity(self) -> tuple[Any, ...]:
        return ("sampler", self.seed)

    def evaluate(self, seen: Seen, limit: Limit, stop: Stop | None = None) -> Chance:
        """The chance to win from ``seen``: where nothing is hidden, the solver's verdict."""
        if seen.view.hidden == 0:
            return _exact(seen, limit, stop)
        return self.weigh_lines(seen, [()], limit, stop)[0]

    def weigh_lines(
        self,
        seen: Seen,
        lines: Sequence[Sequence[Move]],
        limit: Limit,
        stop: Stop | None = None,
    ) -> tuple[Chance, ...]:
        """Each line's chance on the *same* samples (common random numbers): on each sample
        the line is played, then the solver tries what follows. ``limit.time`` is the whole
        call's, shared by every solve; ``stop()`` ends it (the solves left are undecided)."""
        seed = seen.seed() if self.seed is None else self.seed
        rng, start = random.Random(seed), time.perf_counter()
        budget = Budget(limit.seconds, limit.samples * len(lines), stop)
        wins, undecided = [0] * len(lines), [0] * len(lines)
        for _ in range(limit.samples):
            sample = determinize(seen.view, rng)  # drawn even when out of time: the same draws
            for i, line in enumerate(lines):
                status = _outcome(sample, line, budget.share(), limit.nodes, stop)
                wins[i] += status == WINNABLE
                undecided[i] += status == UNKNOWN
        seconds, stopped = time.perf_counter() - start, budget.stopped
        return tuple(
            Chance(w, limit.samples, u, seed, seconds, stopped=stopped)
            for w, u in zip(wins, undecided, strict=True)
        )


def _outcome(
    sample: Game, line: Sequence[Move], seconds: float, nodes: int | None, stop: Stop | None
) -> str:
    """The solver's verdict on ``sample`` after ``line`` (UNKNOWN without time left)."""
    game = sample.copy(history=False)
    for move in line:
        game.play(move)
    if game.status != "playing":
        return WINNABLE if game.status == "won" else UNWINNABLE
    if seconds <= 0:
        return UNKNOWN
    return solve(game, seconds, nodes, stop=stop, shorten_line=False).status


def _exact(seen: Seen, limit: Limit, stop: Stop | None) -> Chance:
    """The verdict where nothing is hidden, as an exact :class:`Chance` (the position is the
    only "sample": its solve gets every sample's nodes)."""
    start = time.perf_counter()
    game = determinize(seen.view, random.Random(0))  # nothing to draw: the position itself
    status = _outcome(game, (), limit.seconds, limit.whole, stop)
    seconds = time.perf_counter() - start
    return Chance(int(status == WINNABLE), 1, int(status == UNKNOWN), None, seconds, exact=True)
