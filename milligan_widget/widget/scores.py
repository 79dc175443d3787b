"""The widget's part in the statistics: each game's clock and counters, and when it counts.

A game counts once (:mod:`milligan_widget.studies.stats`): when it ends, won or lost, or when the
player leaves it in progress for a new game (abandoned). A game that Undo brings back after
it was left is not counted a second time. Statistics never stop play: a game is written in
the background (:meth:`~milligan_widget.studies.stats.Stats.record_later`: a file locked by another
program delays no move), and when it cannot be written, the widget says why once and plays
on; the game waits in memory, counted, and is tried again until it is written (a while
later, with the next game, when the widget closes, at exit; kept for the next session if
it still cannot be).

>>> import tempfile
>>> from milligan_widget import Game
>>> from milligan_widget.studies.stats import Stats
>>> folder = tempfile.TemporaryDirectory()
>>> keeper = Scorekeeper(Stats(folder.name))
>>> game, card = Game.new(8), Scorecard()
>>> game.play("d")
Move('d')
>>> keeper.left(game, card), keeper.left(game, card)  # counted once
(True, False)
>>> keeper.summary()["played"], keeper.stats.flush(), keeper.stats.pending
(1, True, 0)
>>> folder.cleanup()
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from milligan_widget.engine import Game
from milligan_widget.studies.stats import GameRecord, Stats


def _now() -> datetime:
    return datetime.now(timezone.utc)


#: the saved game's meta that says it was played peeking (:attr:`Game.meta`): Save writes it
PEEK_META = "peek"


def played_peeking(game: Game) -> bool:
    """Was ``game`` played peeking before it was saved (its meta says so)?

    >>> game = Game.new(8)
    >>> game.set_meta(PEEK_META, True)
    >>> played_peeking(game), played_peeking(Game.new(8))
    (True, False)
    """
    return game.meta.get(PEEK_META) is True


@dataclass
class Scorecard:
    """What the statistics need of one game beyond the engine's: its clock and counters."""

    started: float = field(default_factory=lambda: time.monotonic())  # for the time played
    began: datetime = field(default_factory=_now)
    undos: int = 0
    hints: int = 0
    solution_used: bool = False
    peek: bool = False  # the help that knows the hidden cards was on at some time
    coached: bool = False  # the live coach judged a move of it
    counted: bool = False
    ended: float | None = None  # when the clock stopped: the game is over

    def seconds(self) -> float:
        """The time played: up to the winning (or last) move once the game is over."""
        end = time.monotonic() if self.ended is None else self.ended
        return round(end - self.started, 1)

    def stop(self) -> None:
        """The game is over: the clock stops (a later view shows the same time)."""
        if self.ended is None:
            self.ended = time.monotonic()

    def go_on(self) -> None:
        """The game is in play again (its last move undone): the clock goes on from where
        it stopped; the time it stood still does not count."""
        if self.ended is not None:
            self.started += time.monotonic() - self.ended
            self.ended = None


class Scorekeeper:
    """Records games in ``stats`` (None: statistics off); ``tell`` says in the status line,
    once, why they cannot be written (called from the statistics' writer thread)."""

    def __init__(
        self, stats: Stats | None, tell: Callable[[str], None] = lambda text: None
    ) -> None:
        self.stats = stats
        self.streak = 0  # the current streak of the game's preset, after the last win
        self._tell = tell
        self._warned = False
        self.retry()  # games an earlier session could not write are written now

    def retry(self) -> None:
        """Try again, in the background, to write the games counted and not written yet
        (when the widget is made and when it closes; see :meth:`Stats.retry`)."""
        if self.stats is not None:
            self.stats.retry()

    def ended(self, game: Game, card: Scorecard) -> bool:
        """Count ``game`` if it is over (won or lost) and not counted yet."""
        return game.status in ("won", "lost") and self._count(game, card)

    def left(self, game: Game, card: Scorecard) -> bool:
        """Count ``game``, left in progress, as abandoned (if a move was played)."""
        return game.status == "playing" and game.ply > 0 and self._count(game, card)

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until the games counted were tried in the file; False on timeout."""
        return self.stats is None or self.stats.flush(timeout)

    def summary(self) -> dict[str, Any]:
        """The statistics for the browser (no deck in them)."""
        if self.stats is None:
            return {"problem": "Statistics are off for this widget.", "played": 0,
                    "presets": [], "recent": []}  # fmt: skip
        return self.stats.summary().to_dict()

    def _count(self, game: Game, card: Scorecard) -> bool:
        if card.counted or self.stats is None:
            return False
        card.counted = True
        record = GameRecord.from_game(
            game,
            seconds=card.seconds(),
            undos=card.undos,
            hints=card.hints,
            solution_used=card.solution_used,
            started=card.began,
            peek=card.peek,
            coached=card.coached,
        )
        self.stats.record_later(record, self._written)
        if game.status == "won":  # the game counts in the summary while it is written
            found = self.stats.summary(record.rules).get(record.rules)
            self.streak = found.current_streak if found is not None else 0
        return True

    def _written(self, written: bool) -> None:
        """After a write: say once why statistics are unavailable (again after a success)."""
        problem = self.stats.problem if self.stats is not None else None
        if written or problem is None:
            self._warned = False
        elif not self._warned:
            self._warned = True
            self._tell(f"{problem} The game is kept and counted; it is written later.")
