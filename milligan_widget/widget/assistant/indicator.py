"""The "still winnable?" indicator's checks: with peek off, the honest chance to win from
what the player sees (the honest budget's evaluator, through the one cache of chances, state
``"chance"``: "about 46% for careful play from here (41–51%); seeing the next rows, 16 of
16 sampled stocks win"); with peek on, the solver's verdict
(it knows the stock).
Worked out in the background, one position at a time (always the newest).

The assistant asks for a position's :meth:`Indicator.verdict` after each move: "checking"
until the check is done, then its state and why. A check for a position left meanwhile is
stopped and its result dropped.

>>> from milligan_widget.widget import MilliganWidget
>>> widget = MilliganWidget(seed=8, check_winnable=True, winnable_time=20, peek=True)
>>> widget.analysis["state"]
'checking'
>>> widget.wait(30), widget.analysis["state"]
(True, 'winnable')
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from milligan_widget import analysis
from milligan_widget.analysis.cache import CHANCES
from milligan_widget.engine import Game
from milligan_widget.search import solver
from milligan_widget.widget.assistant.honesty import HonestBudget
from milligan_widget.widget.assistant.jobs import (
    Job,
    Key,
    RightOfWay,
    Workers,
    check_seconds,
    run_in_background,
    verdict_words,
)
from milligan_widget.widget.lock import WidgetLock

WINNABLE_TIME = 3.0  # seconds the solver has for each check
CHANCE = "chance"  # the state of an honest verdict: the chance to win, in ``why``
IDLE = 30.0  # seconds an idle checker thread waits for work before it ends


class Indicator:
    """The background checker. ``remember(job, game, moves)`` keeps a win a check found;
    ``changed()`` is called (holding the lock) when a verdict is in; the checker gives ``way``
    to the player's requests."""

    def __init__(
        self,
        lock: WidgetLock,
        remember: Callable[[Job, Game, tuple[Any, ...]], None],
        changed: Callable[[], None],
        log: Any,
        way: RightOfWay,
    ) -> None:
        self.on = False
        self.peek = False  # the solver's verdict (it knows the stock), else the honest chance
        self.honest = HonestBudget()
        self.seconds = WINNABLE_TIME
        self._lock, self._log, self._way = lock, log, way
        self._workers = Workers(lock)  # the checker's thread: apart, as it idles between checks
        self._remember, self._changed = remember, changed
        self._wake = threading.Condition(lock.rlock)
        self._generation = 0  # a check is stale once this moves on
        self._checked: Key | None = None  # the position checked, or being checked
        self._verdict: tuple[str, str] | None = None  # (state, why) for it, once known
        self._pending: tuple[int, Game, Job] | None = None
        self._checker: threading.Thread | None = None
        self._solving = False
        self._closed = False

    @property
    def seconds(self) -> float:
        """The solver's seconds for each check."""
        return self._seconds

    @seconds.setter
    def seconds(self, value: float) -> None:
        self._seconds = check_seconds(value, "winnable_time")

    def verdict(self, position: Key, game: Game) -> tuple[str, str]:
        """(state, why) for ``position`` of ``game``, the game on show: "checking" until
        its check is done (started here if the position is new)."""
        if position != self._checked:
            self._queue(position, game)
        if self._verdict is not None:
            return self._verdict
        if self.peek:
            return "checking", f"the solver has up to {self.seconds:g} s"
        weighs = self.honest.limit(self.seconds).words()
        return "checking", f"sampling stocks you cannot see: {weighs}"

    def drop(self) -> None:
        """Stop the check in progress (its result is dropped) and forget the verdict."""
        self._checked = self._verdict = self._pending = None
        self._generation += 1

    @property
    def busy(self) -> bool:
        """Is a check queued or running?"""
        return self._pending is not None or self._solving

    def close(self) -> None:
        """Stop checking for good (holding the lock)."""
        self._closed, self.on = True, False
        self.drop()
        self._wake.notify_all()

    def join(self, deadline: float) -> None:
        """Wait (until ``deadline``, a monotonic time) for the checker's thread to end."""
        self._workers.join(deadline)

    def _queue(self, position: Key, game: Game) -> None:
        self.drop()
        self._checked = position
        self._pending = (self._generation, game.copy(), Job(position, game))
        if self._checker is None or not self._checker.is_alive():
            self._checker = self._workers.start(self._work, fallback=self._check_next)
        self._wake.notify_all()

    def _work(self) -> None:
        """The checker's thread: check the newest queued position, one at a time, until
        closed or idle for :data:`IDLE` seconds. It yields the processor to the player's
        requests (:func:`.run_in_background`)."""
        run_in_background()
        while self._check_next(wait=True):
            pass

    def _check_next(self, wait: bool = False) -> bool:
        """Check the queued position (``wait``: for one to come); False when there is
        none to check."""
        with self._lock:
            while self._pending is None:
                if self._closed or not wait or not self._wait_for_work():
                    self._checker = None
                    return False
            generation, game, job = self._pending
            self._pending, self._solving, seconds = None, True, self.seconds
            check = self._check if self.peek else self._chance
        verdict = check(generation, game, job, seconds)
        with self._lock:
            self._solving = False
            if generation == self._generation:  # else the position changed: stale
                self._verdict = verdict
                self._changed()
        return True

    def _wait_for_work(self) -> bool:
        """Wait (holding the lock) for a check to be queued or for the end; False if
        none came within :data:`IDLE` seconds."""
        return self._wake.wait(timeout=IDLE) or self._pending is not None

    def _chance(self, generation: int, game: Game, _job: Job, seconds: float) -> tuple[str, str]:
        """The honest chance to win ``game`` from what its player sees (from the one cache of
        chances: a position weighed before is not weighed again), stopped once
        ``generation`` is stale."""
        budget, stale = self.honest, self._stopper(generation)
        if stale():  # the move's frame goes out first
            return solver.UNKNOWN, ""  # dropped: the position changed meanwhile
        try:
            seen, limit = analysis.Seen.of(game, line=False), budget.limit(seconds)
            chance = CHANCES.evaluate(seen, budget.evaluator(game.rules), limit, stop=stale)
        except Exception:
            self._log.exception("MilliganWidget chance to win failed")
            return solver.UNKNOWN, "the chance could not be weighed: see the log"
        return CHANCE, str(chance)

    def _stopper(self, generation: int, seconds: float = math.inf) -> Callable[[], bool]:
        """The solver's ``stop`` for a check of ``generation`` (asked every few hundred
        positions): it gives way to the player's requests, and says if the check is stale
        or has worked ``seconds`` (the time it gave way not counted)."""
        return self._way.working_stop(seconds, lambda: generation != self._generation)

    def _check(self, generation: int, game: Game, job: Job, seconds: float) -> tuple[str, str]:
        """The solver's verdict on ``game`` and why (remembering a win), stopped once
        ``generation`` is stale."""
        try:
            stop = self._stopper(generation, seconds)  # its seconds of work, not of waiting
            result = solver.solve(game, time_limit=math.inf, stop=stop)
        except Exception:
            self._log.exception("MilliganWidget winnable check failed")
            return solver.UNKNOWN, "the solver failed: see the log"
        self._remember(job, game, result.moves)
        return result.status, verdict_words(result, game, seconds)
