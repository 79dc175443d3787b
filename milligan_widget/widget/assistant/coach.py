"""The live coach: each move of the player's game judged in the background as it is played
(:func:`.analysis.judge.judge_move`: honest, through the one cache of chances), with the
better move for an inaccuracy or worse.

The table hands each move over with a copy of the position before it (:meth:`Coach.played`)
once the move's frame is out, and the move is judged in a thread of the coach's own, one at a
time, oldest first, so the player never waits. The judgements of the game on show are kept in
:attr:`Coach.log`, by ply; :meth:`Coach.follow` drops those of moves undone (and all of them
for another game). A judgement for a move no longer in the game is stopped and dropped.

>>> from milligan_widget.widget import MilliganWidget
>>> widget = MilliganWidget(seed=8, coach=True, stats=False, autosave=False)
>>> _ = widget.play("d")
>>> widget.wait(60), [(j.ply, j.move, j.label) for j in widget.coach_log]
(True, [(0, 'd', 'best')])
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from milligan_widget.analysis import Limit
from milligan_widget.analysis.judge import Judgement, judge_move
from milligan_widget.engine import Game, Move
from milligan_widget.widget.assistant.honesty import HonestBudget
from milligan_widget.widget.assistant.jobs import RightOfWay, Workers, run_in_background
from milligan_widget.widget.lock import WidgetLock

#: Seconds of work a judgement may take at most (a safety net, as Hint's: the node limit
#: ends it well before on an idle machine, so the same move gets the same judgement; the
#: time it gives way to the player does not count).
COACH_TIME = 2.5
#: Seconds the coach's thread waits for the next move before it ends: a thread started for
#: each move would hold up the move's request while it starts (a few ms on a busy machine).
IDLE = 30.0
JUDGING = "judging"  #: the coach's state while the last move is judged

#: (the game's generation, the ply, the position before the move, the move)
Task = tuple[int, int, Game, Move]


class Coach:
    """The coach of one widget. ``changed()`` is called (holding the lock) when a judgement
    comes in; the coach gives ``way`` to the player's requests."""

    def __init__(
        self, lock: WidgetLock, changed: Callable[[], None], log: Any, way: RightOfWay
    ) -> None:
        self.on = False
        self.honest = HonestBudget()
        self.seconds = COACH_TIME
        self.log: list[Judgement] = []  # the judgements of the game followed, by ply
        self._lock, self._changed, self._logger, self._way = lock, changed, log, way
        self._workers = Workers(lock)
        self._tasks: deque[Task] = deque()
        self._game: Game | None = None  # the game whose moves are judged
        self._generation = 0  # moves on with each game followed: older tasks are dropped
        self._judging: Task | None = None
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()  # set when a move is queued (or the coach closed)
        self._closed = False

    # ------------------------------------------------------------ what the table says
    def follow(self, game: Game) -> None:
        """``game`` (the player's) is on show: another game clears the log; judgements of
        moves no longer in it (undone) are dropped."""
        if game is not self._game:
            self._game, self.log = game, []
            self._generation += 1
            self._tasks.clear()
            return
        self.log = [j for j in self.log if _still_played(game, j.ply, j.move)]

    def switch(self, on: bool) -> None:
        """The coach on or off (holding the lock); off, the moves still to judge are dropped
        (the judgements in stay)."""
        self.on = on
        if not on:
            self._tasks.clear()
            self._generation += 1  # the move being judged is stopped

    def played(self, game: Game, before: Game, move: Move) -> None:
        """``move`` was played in ``game`` from ``before`` (a copy of the position before it):
        judge it in the background (holding the lock)."""
        if not self.on or self._closed:
            return
        self.follow(game)
        self._tasks.append((self._generation, len(before.history), before, move))
        self._wake.set()
        if self._thread is None or not self._thread.is_alive():
            self._thread = self._workers.start(self._work, fallback=self._judge_next)

    def shown(self, game: Game) -> dict[str, Any] | None:
        """What the status bar shows of the last move of ``game``: its judgement, or that it
        is being judged; None with the coach off or before the first move."""
        if not self.on or game is not self._game or not game.history:
            return None
        ply = len(game.history) - 1
        judged = self.last(game)
        if judged is not None:
            return judged.to_dict()
        waiting = [task[1] for task in (*self._tasks, self._judging) if task is not None]
        move = str(game.history[-1])
        return {"state": JUDGING, "ply": ply, "move": move} if ply in waiting else None

    def last(self, game: Game) -> Judgement | None:
        """The judgement of the last move of ``game`` (the game followed), if it is in."""
        if game is not self._game or not game.history:
            return None
        return next((j for j in self.log if j.ply == len(game.history) - 1), None)

    @property
    def busy(self) -> bool:
        """Is a move queued or being judged?"""
        return bool(self._tasks) or self._judging is not None

    def close(self) -> None:
        """Judge no more (holding the lock): the queue is dropped, the move judged stopped."""
        self._closed, self.on = True, False
        self._tasks.clear()
        self._generation += 1
        self._wake.set()  # the waiting thread ends

    def join(self, deadline: float) -> None:
        self._workers.join(deadline)

    @property
    def limit(self) -> Limit:
        """The budget of one judgement (a review judges within it too: what the coach
        judged, it finds in the one cache of chances): the honest hint's, in positions; its
        :attr:`seconds` are a safety net of the search's own work, kept by its ``stop``
        (the time it gives way to the player does not count), not a clock of the limit."""
        limit = self.honest.hint_limit(self.seconds)
        return limit if limit.nodes is None else replace(limit, time=None)

    # ------------------------------------------------------------------ the judging
    def _work(self) -> None:
        """The coach's thread: judge the moves as they come, and end once none came for
        :data:`IDLE` seconds (or the coach closed). It yields the processor to the player's
        requests (:func:`.run_in_background`)."""
        run_in_background()
        while True:
            while self._judge_next() or self._wake.wait(IDLE):
                if self._closed:
                    return
            with self._lock:  # a move queued meanwhile found this thread alive: judge it
                if self._tasks and not self._closed:
                    continue
                if self._thread is threading.current_thread():
                    self._thread = None
                return

    def _judge_next(self) -> bool:
        """Judge the oldest move queued; False when none is left."""
        with self._lock:
            if not self._tasks or self._closed:
                self._wake.clear()  # under the lock: a move queued after this sets it again
                return False
            task = self._judging = self._tasks.popleft()
            limit = self.limit
        _, ply, before, move = task
        self._way.give_way()  # the move's frame goes out first
        judged = None
        if not self._stale_now(task):
            try:
                evaluator = self.honest.evaluator(before.rules)
                judged = judge_move(before, move, evaluator, limit, ply, self._stopper(task))
            except Exception:
                self._logger.exception("MilliganWidget coach failed to judge %s", move)
        with self._lock:
            self._judging = None
            if judged is not None and not self._stale(task):
                self.log = sorted([*self.log, judged], key=lambda j: j.ply)
                self._changed()
        return True

    def _stale_now(self, task: Task) -> bool:
        with self._lock:
            return self._stale(task)

    def _stopper(self, task: Task) -> Callable[[], bool]:
        """The solver's ``stop`` for ``task`` (asked every few hundred positions): it gives way
        to the player's requests and takes the widget's lock, so a judgement waits while a
        move is being handled and shown (the player's request is never slowed by the coach's
        work), and says if it is stale or has worked its :attr:`seconds`."""
        return self._way.working_stop(self.seconds, lambda: self._stale_now(task))

    def _stale(self, task: Task) -> bool:
        """Is ``task``'s move no longer in the game followed (undone, another game)?"""
        generation, ply, _, move = task
        game = self._game
        if generation != self._generation or game is None or self._closed:
            return True
        return not _still_played(game, ply, str(move)) or any(j.ply == ply for j in self.log)


def _still_played(game: Game, ply: int, move: str) -> bool:
    """Is ``move`` move ``ply`` of ``game``'s history?"""
    history = game.history
    return ply < len(history) and str(history[ply]) == move
