"""The solver's solution, played back in the widget one move at a time.

The solver looks for a win from the position on show (unless one is remembered); then its
moves are played one every ``delay`` seconds in the background, so Stop and other clicks
still work. Where no thread can start (Pyodide, JupyterLite) each move is a callback of the
kernel's event loop, ``delay`` seconds after the last: the kernel handles Stop between two
moves. Any move by the player stops it; so does a change of position under it. The
browser sees each move only as it is played, never the line.

>>> from milligan_widget.widget import MilliganWidget
>>> widget = MilliganWidget(seed=8)
>>> widget.show_solution(time_limit=20, delay=0, wait=True)
>>> widget.game.status
'won'
"""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Callable
from typing import Any

from milligan_widget.engine import Game, IllegalMoveError, Move
from milligan_widget.search import solver
from milligan_widget.widget.assistant.honesty import KNOWS
from milligan_widget.widget.assistant.jobs import ASKED_WORKERS, Job, Key, Workers
from milligan_widget.widget.lock import locked
from milligan_widget.widget.words import moves as _moves


class Solution:
    """The playback of one solution at a time, through the assistant's host."""

    def __init__(
        self, host: Any, workers: Workers, remember: Callable[[Job, Game, Any], None]
    ) -> None:
        self.host = host
        self._lock = host.lock  # for @locked
        self._workers, self._remember = workers, remember
        self._job: Job | None = None

    @property
    def running(self) -> bool:
        """Is a solution being looked for or played back?"""
        return self._job is not None

    @locked
    def start(
        self, known: tuple[Move, ...] | None, time_limit: float, delay: float, name: str = ""
    ) -> Job:
        """Look for a win (``known``: the remembered one, played at once) and play it;
        ``name``: what the moves are, when not the solver's solution (the Finish)."""
        self.cancel()
        game = self.host.game()
        job = self._job = Job(self.host.position(), game)
        job.kind = name or "Solution"
        if known is not None:
            job.result = solver.SolveResult(solver.WINNABLE, known)
            message = (
                f"Solution: a win of the solver, which knows the stock, in {_moves(len(known))}"
            )
            kind = "hint"
            if name:
                message, kind = f"{name}: {_moves(len(known))} to play", "info"
        else:
            message = f"Thinking… {KNOWS} looks for a win (up to {time_limit:g} s)"
            kind = "thinking"
        self.host.publish(message=message, kind=kind)
        args = (job, game.copy(), time_limit, delay)
        in_kernel = functools.partial(self._work, *args, on_loop=True)
        job.thread = self._workers.start(self._work, *args, fallback=in_kernel)
        return job

    def drain(self) -> None:
        """Play at once what is left of a playback on the event loop (to wait for it)."""
        job = self._job
        if job is not None and job.thread is None:
            job.join()

    def cancel(self) -> None:
        """Stop it, without a word."""
        job = self._job
        if job is not None:
            job.stop.set()
            if job.next is not None:
                job.next[0].cancel()
                job.next = None
            self._job = None

    @locked
    def stop(self) -> bool:
        """Stop it and say how far it got; False if none was running."""
        job = self._job
        if job is None:
            return False
        self.cancel()
        self.host.publish(message=f"{job.kind} stopped after {_moves(job.played)}.")
        return True

    def position_changed(self, position: Key) -> None:
        """The player left the position: a solution still searching is no longer needed
        (one playing back notices by itself)."""
        job = self._job
        if job is not None and job.result is None and job.position != position:
            self.cancel()

    def _work(
        self, job: Job, game: Game, time_limit: float, delay: float, on_loop: bool = False
    ) -> None:
        """Find the solution (unless known), then play it back (``on_loop``: by callbacks of
        the event loop, in the kernel's thread); say why if none."""
        result, error = job.result, ""
        if result is None:
            try:
                result = solver.solve(
                    game, time_limit=time_limit, stop=job.stop.is_set, workers=ASKED_WORKERS
                )
            except Exception as exc:
                self.host.log.exception("MilliganWidget solution failed")
                result, error = solver.SolveResult(solver.UNKNOWN), str(exc)
            job.result = result
            self._remember(job, game, result.moves)
        if result.moves:
            loop = _event_loop() if on_loop else None
            if loop is None:
                self._play_back(job, result.moves, delay)
            else:
                self._play_back_on_loop(loop, job, result.moves, delay)
            return
        with self._lock:
            if job.stop.is_set() or self._job is not job:
                return
            self._job = None
            self.host.publish(**_no_solution(game, result, time_limit, error))

    def _play_back(self, job: Job, moves: tuple[Move, ...], delay: float) -> None:
        """Play ``moves`` one every ``delay`` seconds until done, stopped or the position
        changes under it."""
        count = len(moves)
        for ply, move in enumerate(moves, 1):
            with self._lock:
                if not self._play_one(job, move, ply, count):
                    return
            if ply < count and job.stop.wait(delay):
                return

    def _play_back_on_loop(
        self, loop: asyncio.AbstractEventLoop, job: Job, moves: tuple[Move, ...], delay: float
    ) -> None:
        """Play ``moves`` from the event loop, one callback each, ``delay`` seconds apart:
        the kernel's thread is free between two moves (Stop is a message it handles)."""
        count = len(moves)

        def step(ply: int) -> None:
            job.next = None
            with self._lock:
                if not self._play_one(job, moves[ply - 1], ply, count):
                    return
            if ply < count and not job.stop.is_set():
                after = functools.partial(step, ply + 1)
                job.next = (loop.call_later(delay, after), after)

        step(1)

    def _play_one(self, job: Job, move: Move, ply: int, count: int) -> bool:
        """Play move ``ply`` of ``count``; False when the playback ends here."""
        if job.stop.is_set() or self._job is not job:
            return False
        if self.host.position() != job.position:
            self._job = None
            self.host.publish(message="Solution stopped: the position changed.")
            return False
        if ply == count:
            self._job = None  # the last move's view has no Stop button
        try:
            self.host.play(move, f"{job.kind} {ply}/{count}: ")
        except IllegalMoveError:
            self._job = None
            return False
        job.played = ply
        job.position = self.host.position()
        return True


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The loop running this thread's kernel, or None (then playback holds the thread).
    Pyodide's loop is the browser's own: it runs between two calls into Python, though no
    Python code sees it running."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop() if sys.platform == "emscripten" else None


def _no_solution(
    game: Game, result: solver.SolveResult, seconds: float, error: str
) -> dict[str, Any]:
    """What to say when the solver found no line to play back."""
    if error:
        return {"message": f"Internal error: {error}", "kind": "error"}
    if result.status == solver.UNWINNABLE:
        return {"message": f"Solver: {solver.no_win_left(game)}.", "kind": "hint"}
    if game.status == "won":
        return {"message": "All cards are home already."}
    return {"message": f"Solver: no win found within {seconds:g} s.", "kind": "hint"}
