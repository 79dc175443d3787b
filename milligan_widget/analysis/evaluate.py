"""The evaluation seam: a position as its player sees it, a budget, a chance, and the
:class:`Evaluator` protocol that turns the first two into the third.

An evaluator is given a :class:`Seen` position (what the player sees, never the hidden
cards) and a :class:`Limit` (the budget, like python-chess's ``engine.Limit``), and answers
with a :class:`Chance`. Today's evaluator is the sampler
(:class:`.chance.SamplingEvaluator`: sampled stocks, each solved); another can be plugged in
without touching its callers, as OpenSpiel's ``MCTSBot`` takes any ``Evaluator``.

The same position gives the same answer: by default a budget counts nodes, not seconds, and
a :class:`Seen` position has a stable :attr:`~Seen.key`, from which the sampler's seed is
drawn, so two games a player cannot tell apart are weighed alike.

>>> from milligan_widget import Game
>>> Limit(), Limit(nodes=5_000, samples=8).nodes
(Limit(nodes=20000, samples=16, time=None), 5000)
>>> Seen.of(Game.new(3)).key == Seen.of(Game.new(3)).key != Seen.of(Game.new(4)).key
True
>>> str(Chance(9, 12))
'75% of 12 sampled stocks win (47–91%) for a player who could see the hidden cards'
>>> str(Chance(0, 16, undecided=16))
'cannot tell: the solver decided none of 16 sampled stocks'
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from milligan_widget.engine.errors import shown
from milligan_widget.engine.game import Game
from milligan_widget.engine.interval import wilson
from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import PositionKey

from .sampling import VisibleView, visible_view

Stop = Callable[[], bool]
NODES = 20_000  #: positions a solve may expand, by default
SAMPLES = 16  #: sampled stocks, by default
#: What the sampler's figure is: each sample is solved by a solver that sees its hidden cards.
SEEING = "for a player who could see the hidden cards"


# ----------------------------------------------------------------------------- the budget


@dataclass(frozen=True)
class Limit:
    """What one evaluation may spend: ``nodes`` positions per solve, ``samples`` sampled
    stocks, and ``time`` seconds for the whole call (None: no clock, so the answer is the same
    on any machine). At least one of ``nodes`` and ``time`` is needed."""

    nodes: int | None = NODES
    samples: int = SAMPLES
    time: float | None = None

    def __post_init__(self) -> None:
        for name, value in (("samples", self.samples), ("node_limit", self.nodes)):
            if (value is not None or name == "samples") and not _whole(value):
                raise ValueError(f"{name} must be a whole number of at least 1, not {shown(value)}")
        if self.time is not None:
            _check_seconds(self.time)
        elif self.nodes is None:
            raise ValueError("give a node_limit or a time_limit: without either a solve never ends")

    @property
    def whole(self) -> int | None:
        """Every sample's nodes together: what one solve may spend where nothing is hidden
        (the position is the only sample)."""
        return None if self.nodes is None else self.nodes * self.samples

    @property
    def seconds(self) -> float:
        """The time for the whole call (infinite without a clock)."""
        return math.inf if self.time is None else float(self.time)

    def words(self) -> str:
        """What it weighs, in a player's words: "16 sampled stocks, 20,000 positions each"."""
        if self.nodes is None:
            return f"{self.samples} sampled stocks, up to {self.seconds:g} s"
        text = f"{self.samples} sampled stocks, {self.nodes:,} positions each"
        return text if self.time is None else f"{text}, up to {self.seconds:g} s"

    @classmethod
    def of(cls, samples: int, time_limit: float | None, node_limit: int | None) -> Limit:
        """A limit from the parameters ``win_chance`` and its kin take."""
        return cls(node_limit, samples, time_limit)


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= 1


def _check_seconds(value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"time_limit must be a number of seconds, not {shown(value)}")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"time_limit must be a number of seconds above 0, not {shown(value)}")


# ----------------------------------------------------------------------------- the position


@dataclass(frozen=True)
class Seen:
    """A position as its player sees it: the :class:`.sampling.VisibleView` and the positions
    of the line of play since the last deal, as a player tells them apart (a hint must not
    lead back to one: the honesty invariant counts the line as seen). Built by :meth:`of`."""

    view: VisibleView
    line: tuple[PositionKey, ...] = ()

    @classmethod
    def of(cls, game: Game, line: bool = True) -> Seen:
        """What ``game``'s player sees (``line=False``: the position alone, for a chance,
        which the line does not change)."""
        view = visible_view(game)
        if not line:
            return cls(view)
        return cls(view, tuple(sorted(game.line_keys())))

    @functools.cached_property
    def key(self) -> str:
        """A stable digest of what the player sees: the same in every run and process."""
        v = self.view
        text = repr((v.rules, v.face_up, v.face_down, v.foundations, v.reserve, v.cells,
                     v.stock_count, self.line))  # fmt: skip
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def seed(self, salt: str = "") -> int:
        """A sampler's seed drawn from :attr:`key` (and ``salt``: another use, another seed)."""
        digest = hashlib.blake2b(f"{self.key}/{salt}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") >> 1


# ----------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class Chance:
    """``wins`` of the ``samples`` sampled stocks the solver won, with a 95% Wilson interval.

    The chance is over the samples the solver *decided*: one it did not finish in its budget
    (``undecided`` of them) is not a loss, it says nothing. Where none was decided and no
    calibrated chance was given, :attr:`known` is false, :attr:`p` is 0.5 in the interval 0–1,
    and the words say that nothing can be told. ``exact`` is true where nothing was hidden:
    the one "sample" is the position itself, and a decided verdict has no interval around it.
    """

    wins: int
    samples: int
    undecided: int = 0
    seed: int | None = None
    seconds: float = field(default=0.0, compare=False)  # equal chances may take unequal times
    exact: bool = False
    stopped: bool = False  # ``stop()`` ended it early: the samples left count as undecided
    #: (chance, low, high) of a calibrated evaluator (:mod:`.calibrated`): how often careful
    #: honest play wins from here; ``None`` for the sampler's figure alone
    calibrated: tuple[float, float, float] | None = None

    @property
    def decided(self) -> int:
        """The samples the solver won or proved lost."""
        return self.samples - self.undecided

    @property
    def known(self) -> bool:
        """Can anything be told: a calibrated chance, or a sample decided?"""
        return (self.calibrated is not None and not self.exact) or self.decided > 0

    @property
    def sampled(self) -> float:
        """The sampler's figure: the share of the decided samples won (0.5 where none was
        decided). Each sample's solver sees every later row, so it is what a player who could
        see the next rows would win, not what careful play wins."""
        return self.wins / self.decided if self.decided else 0.5

    @property
    def p(self) -> float:
        """The chance: the calibrated one where there is one, else the sampler's figure."""
        if self.calibrated is not None and not self.exact:
            return self.calibrated[0]
        return self.sampled

    @property
    def low(self) -> float:
        if self.exact:
            return self.p if self.known else 0.0
        if self.calibrated is not None:
            return self.calibrated[1]
        return wilson(self.wins, self.decided)[0]

    @property
    def high(self) -> float:
        if self.exact:
            return self.p if self.known else 1.0
        if self.calibrated is not None:
            return self.calibrated[2]
        return wilson(self.wins, self.decided)[1]

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data (for the widget)."""
        return {
            "wins": self.wins, "samples": self.samples, "undecided": self.undecided,
            "known": self.known, "p": self.p, "low": self.low, "high": self.high,
            "exact": self.exact, "seed": self.seed, "seconds": round(self.seconds, 3),
            "sampled": self.sampled, "calibrated": self.calibrated is not None,
            "stopped": self.stopped, "text": str(self),
        }  # fmt: skip

    def __str__(self) -> str:
        """In a player's words, like "62% of 32 sampled stocks win (45–77%) for a player who
        could see the hidden cards" (the sampler's figure, where no calibrated chance says how
        often careful play wins)."""
        if self.exact:
            verdict = {1: "can be won", 0: "cannot be won"}[self.wins]
            if not self.known:
                verdict = "is undecided (the solver ran out of its budget)"
            return f"nothing is hidden: this position {verdict}"
        if self.calibrated is not None:
            return self._calibrated_words()
        if not self.known:
            return f"cannot tell: the solver decided none of {self.samples} sampled stocks"
        text = f"{100 * self.p:.0f}% of {self.decided} sampled stocks win"
        text += f" ({100 * self.low:.0f}–{100 * self.high:.0f}%) {SEEING}"
        if self.undecided:
            text += f"; {self.undecided} more undecided, not counted"
        return text

    def _calibrated_words(self) -> str:
        """Like "about 46% for careful play from here (41–51%); seeing the next rows, 8 of 8
        sampled stocks win"."""
        text = f"about {100 * self.p:.0f}% for careful play from here"
        text += f" ({100 * self.low:.0f}–{100 * self.high:.0f}%)"
        if self.decided:
            text += f"; seeing the next rows, {self.wins} of {self.decided} sampled stocks win"
        return text


# ----------------------------------------------------------------------------- the protocol


class Evaluator(Protocol):
    """Weighs a position from what its player sees.

    :attr:`identity` names the evaluator and its settings (a cache of chances keeps the
    answers of different evaluators apart). :meth:`evaluate` is the chance to win from
    ``seen``; :meth:`weigh_lines` the chance of each line of moves played from ``seen`` (the
    last move may reveal cards: a deal), judged alike so they can be compared. Both stop early
    when ``stop()`` says so, their answers then marked ``stopped``.
    """

    @property
    def identity(self) -> tuple[Any, ...]: ...

    def evaluate(self, seen: Seen, limit: Limit, stop: Stop | None = None) -> Chance: ...

    def weigh_lines(
        self,
        seen: Seen,
        lines: Sequence[Sequence[Move]],
        limit: Limit,
        stop: Stop | None = None,
    ) -> tuple[Chance, ...]: ...
