"""The solver's work for the widget, in background threads: hints, the "still winnable?"
indicator, Think longer, the solution playing back, and the winning line remembered.

The solver is pure Python, so a thread shares the interpreter with the kernel; Python
switches threads every few milliseconds, so a click waits milliseconds, not seconds. No
solve goes on for a position nobody needs any more: each gets the solver's ``stop``
callable, which turns true once the player leaves its position (for the solution: while it
is still searching), the indicator is switched off, or the solution is stopped; a stopped
solve's result is never shown. The newest win any of them finds is remembered for the game
on show, position by position along its line: a hint, the indicator or the solution at a
position on it answers at once, without a solve.

:class:`SolverAssistant` is the widget's part that does this; it shows what it finds only
through the widget's publishing (``_publish``, ``_set_analysis``).
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from milligan_widget import Game, IllegalMoveError, Move, solver, strategy
from milligan_widget.deadlock import explain
from milligan_widget.widget.lock import locked as _locked
from milligan_widget.widget.modes import NOT_IN_LESSON, NOT_IN_REPLAY
from milligan_widget.widget.words import moves as _moves

HINT_TIME = 2.0  # seconds the solver has for a hint
WINNABLE_TIME = 3.0  # seconds the solver has for the "still winnable?" indicator
THINK_TIME = 30.0  # seconds Think longer gives the solver, doubled on each press without an answer
MAX_THINK_TIME = 480.0  # ... up to this
PROGRESS_SHOWN = 0.5  # seconds between two progress updates of Think longer
NO_ANALYSIS = {"enabled": False, "state": None, "why": "", "can_think": False}


class _Job:
    """One background task (a hint, a check, Think longer or a solution playback) for one
    position of ``origin``, the game on show when it started (a win found belongs to that
    game)."""

    def __init__(
        self, position: tuple[Any, ...], origin: Game, kind: str = "", seconds: float = 0.0
    ) -> None:
        self.position = position
        self.origin = origin
        self.kind = kind  # "hint" or "think": its slot in MilliganWidget._jobs
        self.seconds = seconds  # the solver's budget
        self.stop = threading.Event()  # set: the solver is no longer needed for this job
        self.thread: threading.Thread | None = None
        self.result: Any = None
        self.played = 0
        self.progress = (0, 0.0)  # positions searched and seconds spent so far (Think longer)
        self.shown = 0.0  # the seconds of the progress shown last


@dataclass(frozen=True)
class _Verdict:
    """What Think longer found for one position: a state of :attr:`MilliganWidget.analysis`,
    why in a player's words, and the budget it ran out of without an answer (0: it
    decided, or was stopped), which the next press doubles."""

    position: tuple[Any, ...]
    state: str
    why: str
    ran_out: float = 0.0


class SolverAssistant:
    """The solver's background jobs of :class:`~milligan_widget.widget.MilliganWidget`
    (a part of it: it works on the game on show and publishes through the widget)."""

    def hint(self, wait: bool = True) -> tuple[Move | None, str] | None:
        """Highlight a good move in the layout and say why; returns it too (with ``wait``).

        The solver has :attr:`hint_time` seconds (default 2): when it finds a win, its first
        move (so following the hint never throws away a win), else the greedy heuristic's
        move; the message begins with which one ("Solver: …" or "Heuristic: …"). The layout
        shows "thinking…" at once; the solver works in a background thread, and is stopped
        when the player leaves the position meanwhile (that hint is dropped). On a winning
        line the solver found before (a hint, the indicator or the solution), the answer is
        its next move, at once. ``wait=False`` returns at once (None), as a click in the
        browser does.

        In a lesson: the step's hint, with the move that does the next part of the task.
        """
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self._run is not None:
            with self._lock:
                words, move = self._run.hint(), self._run.show()
                self._publish(message=f"Hint: {words}", kind="hint", hint=move)
            return move, words
        if self.hint_time <= 0:
            with self._lock:
                return self._heuristic_hint()
        job = self._start_hint()
        if not wait:
            return None
        if job.thread is not None:
            job.thread.join()
        found = job.result
        return (found.move, found.reason) if found is not None else None

    def _heuristic_hint(self) -> tuple[Move, str] | None:
        found = strategy.hint(self.game)
        if found is None:
            self._publish(message="No useful move is left.", kind="hint")
            return None
        move, why = found
        message = f"Heuristic: {self.game.describe(move)} — {why}."
        self._publish(message=message, kind="hint", hint=move)
        return found

    @_locked
    def _start_hint(self) -> _Job:
        """Answer from the remembered line, or show "thinking…" and ask the solver in a
        background thread (one job at a time: asking again for the same position waits for
        the same answer; a job for another position is stopped)."""
        position = self._position()
        job = self._jobs.get("hint")
        rest = self._remembered(position)
        if rest is None and job is not None and job.position == position and not job.stop.is_set():
            return job  # the same question: the same answer
        if job is not None:
            job.stop.set()
        job = _Job(position, self.game, "hint", self.hint_time)
        if rest is not None:
            self._jobs.pop("hint", None)
            job.result = solver.Hint.on_line(rest)
            self._show_hint(job.result)
            return job
        self._jobs["hint"] = job
        seconds = f"{self.hint_time:g}"
        self._publish(message=f"Thinking… (the solver has up to {seconds} s)", kind="thinking")
        solve = functools.partial(self._solver_hint, job, self.game.copy())
        job.thread = self._spawn_worker(self._job_worker, job, solve, self._hint_done)
        return job

    def _job_worker(
        self, job: _Job, compute: Callable[[], Any], show: Callable[[_Job], None]
    ) -> None:
        """The thread of a hint or of Think longer: ``compute()`` the answer, then ``show``
        the job with it (holding the lock), unless the job was replaced or stopped, or the
        player left its position; an error is shown too, never left unanswered."""
        try:
            result, error = compute(), None
        except Exception as exc:
            self.log.exception("MilliganWidget %s failed", job.kind)
            result, error = None, exc
        with self._lock:
            if self._jobs.get(job.kind) is not job:
                return  # replaced by another one: dropped
            del self._jobs[job.kind]
            if job.stop.is_set() or self._position() != job.position:
                return  # the player moved on: this answer is for a position no longer shown
            if error is not None:
                self._refuse(f"Internal error: {error}")
                return
            job.result = result
            show(job)

    def _solver_hint(self, job: _Job, game: Game) -> solver.Hint | None:
        """:func:`solver.hint` for ``job`` (``job.stop`` cancels it); a win is remembered."""
        found = solver.hint(game, time_limit=job.seconds, stop=job.stop.is_set)
        if found is not None and found.line:
            self._remember(job, game, found.line)
        return found

    def _hint_done(self, job: _Job) -> None:
        found = job.result
        if found is not None and found.status == solver.UNKNOWN:
            self._undecided = job.position  # Think longer is offered here
        self._show_hint(found)

    def _show_hint(self, found: solver.Hint | None) -> None:
        if found is None:
            self._publish(message="No useful move is left.", kind="hint")
            return
        name = "Solver" if found.source == "solver" else "Heuristic"
        message = f"{name}: {self.game.describe(found.move)} — {found.reason}."
        self._publish(message=message, kind="hint", hint=found.move)

    # ------------------------------------------------------------- remembered wins
    def _remembered(self, position: tuple[Any, ...]) -> tuple[Move, ...] | None:
        """The rest of the remembered winning line at ``position``, if it is on it."""
        played = self._line_at.get(position)
        return None if played is None else self._line[played:]

    def _remember(self, job: _Job, game: Game, line: tuple[Move, ...]) -> None:
        """Remember a winning ``line`` found for ``job`` (``game``: a copy of its position),
        position by position, in place of the line remembered before (and the indicator
        shows it); not if the game on show is another one by now."""
        if not line:
            return
        line_at = _line_positions(job.position, game, line)
        with self._lock:
            if job.origin is not self._game or self.mode != "play":
                return
            self._line, self._line_at = line, line_at
            if self._check_on and self._remembered(self._position()) is not None:
                self._checked = None  # the indicator: "winnable" now, its check stopped
                self._update_analysis()

    def _forget_line(self) -> None:
        self._line, self._line_at = (), {}

    # ------------------------------------------------------- still winnable? / solution
    @property
    def check_winnable(self) -> bool:
        """Whether the "still winnable?" indicator is on: after each move the solver checks
        the position in a background thread for :attr:`winnable_time` seconds and the
        toolbar shows "checking…", then "winnable ✓", "lost for good ✗" or "unknown ?"
        ("winnable" at once on a winning line found before; a check for a position left
        meanwhile is stopped)."""
        return self._check_on

    @check_winnable.setter
    @_locked
    def check_winnable(self, on: bool) -> None:
        self._check_on = bool(on)
        self._checked = None
        with self.hold_sync():
            self._update_analysis()

    @_locked
    def _update_analysis(self) -> None:
        """Set :attr:`analysis` for the position on show: Think longer's progress or verdict;
        else, with the indicator on, what is known already (the game is over, a win is
        remembered) or its check, queued when the position is new."""
        position = self._position() if self.mode == "play" else None
        known = None if position is None else self._thought_of(position)
        if known is None and position is not None and self._check_on:
            if position == self._checked:  # checked or being checked: the verdict stays
                self._set_analysis(self.analysis["state"], self.analysis["why"])
                return
            known = self._settled(position)
            if known is None:
                self._queue_check(position)
                return
        self._stop_checks(None if known is None else position)  # nothing left to check
        self._set_analysis(*(known or (None, "")))

    def _thought_of(self, position: tuple[Any, ...]) -> tuple[str, str] | None:
        """(state, why) of Think longer for ``position``: its progress, or its verdict."""
        job = self._thinking()
        if job is not None and job.position == position:
            return "checking", _progress_words(job)
        thought = self._thought
        if thought is not None and thought.position == position:
            return thought.state, thought.why
        return None

    def _settled(self, position: tuple[Any, ...]) -> tuple[str, str] | None:
        """(state, why) for ``position`` that needs no solve: the game is over, or it is on
        a winning line remembered."""
        status = self.game.status
        if status == "won":
            return "won", "all cards are home"
        if status == "lost":
            return solver.UNWINNABLE, explain(self.game) or "no useful move is left"
        rest = self._remembered(position)
        return None if rest is None else (solver.WINNABLE, _win_words(len(rest)))

    def _stop_checks(self, checked: tuple[Any, ...] | None) -> None:
        """Stop the indicator's check (its result is dropped); ``checked``: the position it
        need not check any more."""
        self._checked = checked
        self._check_gen += 1
        self._pending = None

    def _queue_check(self, position: tuple[Any, ...]) -> None:
        """Show "checking…" and hand ``position`` to the indicator's worker thread."""
        self._stop_checks(position)
        self._pending = (self._check_gen, self.game.copy(), _Job(position, self.game))
        self._set_analysis("checking", f"the solver has up to {self.winnable_time:g} s")
        if self._checker is None or not self._checker.is_alive():
            self._checker = self._spawn(self._check_worker)
        self._wake.notify_all()

    def _set_analysis(self, state: str | None, why: str = "") -> None:
        value = {
            "enabled": self._check_on,
            "state": state,
            "why": why if state is not None else "",
            "can_think": self._can_think(state),
        }
        if self.analysis != value:
            self.analysis = value

    def _can_think(self, state: str | None) -> bool:
        """Is Think longer offered: the solver found no answer for the position on show in
        the time it had (the indicator's, Think longer's or a hint's), and none is running?"""
        if self.mode != "play" or self._thinking() is not None:
            return False
        if state != solver.UNKNOWN:
            position = self._position()
            if state not in (None, "checking") or self._undecided != position:
                return False
            if self._remembered(position) is not None:
                return False
        return self.game.status == "playing"

    def _check_worker(self) -> None:
        """Check the newest queued position, one at a time; a check whose position is
        stale (or the indicator off) is stopped and its result dropped."""
        while True:
            with self._lock:
                while self._pending is None:
                    if self._closed or (not self._wake.wait(timeout=30) and self._pending is None):
                        self._checker = None
                        return  # closed, or idle: the next check starts a new worker
                gen, game, job = self._pending
                self._pending = None
                self._solving = True
                time_limit = self.winnable_time
            status, why = self._check(gen, game, job, time_limit)
            with self._lock:
                self._solving = False
                if gen == self._check_gen:  # else the position changed: a stale result
                    self._set_analysis(status, why)

    def _check(self, gen: int, game: Game, job: _Job, time_limit: float) -> tuple[str, str]:
        """The solver's verdict on ``game`` and why (remembering a win), stopped once
        ``gen`` is stale."""
        try:
            result = solver.solve(game, time_limit=time_limit, stop=lambda: gen != self._check_gen)
        except Exception:
            self.log.exception("MilliganWidget winnable check failed")
            return solver.UNKNOWN, "the solver failed: see the log"
        self._remember(job, game, result.moves)
        return result.status, _verdict_words(result, game, time_limit)

    # -------------------------------------------------------------------- think longer
    def think_longer(
        self, seconds: float = THINK_TIME, wait: bool = False
    ) -> solver.SolveResult | None:
        """Give the solver ``seconds`` for the position on show, when a hint or the
        indicator found no answer in the time they had.

        It searches in a background thread; :attr:`analysis` shows "checking" with its
        progress ("thinking… 12 s, 130,000 positions", about every 0.5 s), then its verdict
        and why. A win is remembered: hints, the indicator and the solution answer at once
        on it. :meth:`stop` (the Stop button) stops it, and so does leaving the position.
        Returns at once (None) unless ``wait``: then the solver's result (None if it was
        stopped). The toolbar's Think longer gives 30 s, doubled on each press that ran out
        of time at the same position (up to 8 minutes).
        """
        budget = check_seconds(seconds, "seconds")
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["think"])
        job = self._start_think(budget)
        if wait and job.thread is not None:
            job.thread.join()
        return job.result if wait else None

    @_locked
    def _start_think(self, seconds: float) -> _Job:
        """Think longer for the position on show (the same job if one already is), or say
        at once what is known."""
        position = self._position()
        running = self._thinking()
        if running is not None and running.position == position:
            return running
        self._cancel_solution()
        self._stop_thinking(quiet=True)
        job = _Job(position, self.game, "think", seconds)
        rest = self._remembered(position)
        if rest is not None or self.game.status != "playing":
            job.result = solver.SolveResult(solver.WINNABLE, rest) if rest else None
            self._think_done(job)
            return job
        self._jobs["think"] = job
        message = f"Thinking longer… (the solver has up to {seconds:g} s; Stop stops it)"
        self._publish(message=message, kind="thinking")
        solve = functools.partial(self._think, job, self.game.copy())
        job.thread = self._spawn_worker(self._job_worker, job, solve, self._think_done)
        return job

    def _think(self, job: _Job, game: Game) -> solver.SolveResult:
        """Think longer's solve (in its thread); a win is remembered."""
        report = functools.partial(self._think_progress, job)
        result = solver.solve(game, time_limit=job.seconds, stop=job.stop.is_set, progress=report)
        self._remember(job, game, result.moves)
        return result

    def _think_progress(self, job: _Job, positions: int, seconds: float) -> None:
        """The solver's progress callback: shown about every :data:`PROGRESS_SHOWN` s."""
        job.progress = (positions, seconds)
        if seconds - job.shown < PROGRESS_SHOWN:
            return
        job.shown = seconds
        with self._lock:
            if self._jobs.get("think") is job and not job.stop.is_set():
                self._update_analysis()

    def _think_done(self, job: _Job) -> None:
        """Show what Think longer found, in the message line and :attr:`analysis`."""
        result: solver.SolveResult | None = job.result
        if result is None:  # the game is over: nothing to think about
            self._publish(message="The game is over: there is nothing left to think about.")
            return
        words = _verdict_words(result, self.game, job.seconds)
        ran_out = job.seconds if result.status == solver.UNKNOWN else 0.0
        self._thought = _Verdict(job.position, result.status, words, ran_out)
        if result.status == solver.WINNABLE:
            found = _moves(len(result.moves))
            message = f"Solver: a win in {found} from here. Hint and Solution ▶ follow it."
        elif result.status == solver.UNWINNABLE:
            message = f"Solver: {solver.no_win_left(self.game)}."
        else:
            message = f"Solver: {words}. Think longer gives it {self._think_budget():g} s."
        self._publish(message=message, kind="hint")

    def _think_budget(self) -> float:
        """The seconds the toolbar's Think longer gives: :data:`THINK_TIME`, doubled after
        each press that ran out of time at this position, up to :data:`MAX_THINK_TIME`."""
        thought = self._thought
        if thought is None or thought.position != self._position():
            return THINK_TIME
        return min(MAX_THINK_TIME, max(THINK_TIME, 2 * thought.ran_out))

    def _thinking(self) -> _Job | None:
        """Think longer's job while it searches."""
        job = self._jobs.get("think")
        return job if job is not None and not job.stop.is_set() else None

    def _stop_thinking(self, quiet: bool = False) -> bool:
        """Stop Think longer and say how far it got (``quiet``: drop it without a word);
        False if it was not running."""
        job = self._thinking()
        if job is None:
            return False
        job.stop.set()
        del self._jobs["think"]
        if quiet:
            return True
        positions, seconds = job.progress
        words = f"stopped after {seconds:.0f} s and {positions:,} positions"
        self._thought = _Verdict(job.position, solver.UNKNOWN, words)
        self._publish(message=f"Thinking {words}.")
        return True

    def _stop_every_job(self) -> list[threading.Thread]:
        """Stop every solver job and the indicator (the widget is closing); their threads."""
        for job in self._jobs.values():
            job.stop.set()
        self._jobs.clear()
        self._cancel_solution()
        self._check_on = False
        self._stop_checks(None)
        self._wake.notify_all()
        return [t for t in (*self._workers, self._checker) if t is not None]

    def show_solution(
        self, time_limit: float = 10.0, delay: float = 0.4, wait: bool = False
    ) -> None:
        """Play the solver's solution back in the widget, from the position on show.

        The solver has ``time_limit`` seconds; then its moves are played one at a time, one
        every ``delay`` seconds, in a background thread (so the Stop button, :meth:`stop`
        and other clicks still work; any move by the player stops it too, the solver as
        well if it is still searching). On a winning line found before (by a hint, the
        indicator or a solution) it starts playing at once. Returns at once unless ``wait``.
        The browser sees each move only as it is played.
        """
        time_limit = check_seconds(time_limit, "time_limit")
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["solution"])
        with self._lock:
            self._cancel_solution()
            self._stop_thinking(quiet=True)  # the solution's solve takes over
            job = self._solution_job = _Job(self._position(), self.game)
            rest = self._remembered(job.position)
            if rest is not None:
                job.result = solver.SolveResult(solver.WINNABLE, rest)
                message, kind = f"Solution: the solver's win in {_moves(len(rest))}", "hint"
            else:
                message = f"Thinking… the solver looks for a win (up to {time_limit:g} s)"
                kind = "thinking"
            self._publish(message=message, kind=kind)
            game = self.game.copy()
            job.thread = self._spawn_worker(self._solution_worker, job, game, time_limit, delay)
        if wait:
            job.thread.join()

    @_locked
    def stop(self) -> bool:
        """Stop :meth:`think_longer` or the solution playing back (:meth:`show_solution`);
        False if neither was running."""
        if self._stop_thinking():
            return True
        job = self._solution_job
        if job is None:
            return False
        self._cancel_solution()
        moves = f"{job.played} move{'s' if job.played != 1 else ''}"
        self._publish(message=f"Solution stopped after {moves}.")
        return True

    def _busy(self) -> str | None:
        """What the Stop button would stop: "solution", "think" or None."""
        if self._solution_job is not None:
            return "solution"
        return "think" if self._thinking() is not None else None

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until the hint, Think longer, the solution playback and the indicator's
        checks are done, stopped ones too (for scripts and tests); False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in list(self._workers):
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                return False
        while self.analysis.get("state") == "checking" or self._pending or self._solving:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def _stop_stale_jobs(self) -> None:
        """Stop the solver for a position no longer on show: a hint's, Think longer's, and
        a solution's that is still searching (its playback notices a change by itself)."""
        if not self._jobs and self._solution_job is None:
            return
        position = self._position()
        for job in self._jobs.values():
            if job.position != position:
                job.stop.set()
        job = self._solution_job
        if job is not None and job.result is None and job.position != position:
            self._cancel_solution()

    def _cancel_solution(self) -> None:
        job = self._solution_job
        if job is not None:
            job.stop.set()
            self._solution_job = None

    def _solution_worker(self, job: _Job, game: Game, time_limit: float, delay: float) -> None:
        """Find the solution (unless remembered), then play it back; say why if none."""
        result, error = job.result, ""
        if result is None:
            try:
                result = solver.solve(game, time_limit=time_limit, stop=job.stop.is_set)
            except Exception as exc:
                self.log.exception("MilliganWidget solution failed")
                result, error = solver.SolveResult(solver.UNKNOWN), str(exc)
            job.result = result
            self._remember(job, game, result.moves)
        if result.moves:
            self._play_back(job, result.moves, delay)
            return
        with self._lock:
            if job.stop.is_set() or self._solution_job is not job:
                return
            self._solution_job = None
            if error:
                self._refuse(f"Internal error: {error}")
            elif result.status == solver.UNWINNABLE:
                lost = solver.no_win_left(game)
                self._publish(message=f"Solver: {lost}.", kind="hint")
            elif game.status == "won":
                self._publish(message="All cards are home already.")
            else:
                self._publish(message=f"Solver: no win found within {time_limit:g} s.", kind="hint")

    def _play_back(self, job: _Job, moves: tuple[Move, ...], delay: float) -> None:
        """Play ``moves`` one every ``delay`` seconds until done, stopped or the position
        changes under it."""
        count = len(moves)
        for ply, move in enumerate(moves, 1):
            with self._lock:
                if job.stop.is_set() or self._solution_job is not job:
                    return
                if self._position() != job.position:
                    self._solution_job = None
                    self._publish(message="Solution stopped: the position changed.")
                    return
                if ply == count:
                    self._solution_job = None  # the last move's view has no Stop button
                try:
                    self._apply(move, prefix=f"Solution {ply}/{count}: ")
                except IllegalMoveError:
                    self._solution_job = None
                    return
                job.played = ply
                job.position = self._position()
            if ply < count and job.stop.wait(delay):
                return

    def _position(self) -> tuple[Any, ...]:
        """What identifies the position on show (and the game it belongs to)."""
        return (self.mode, id(self.game), tuple(str(m) for m in self.game.history))

    def _spawn_worker(self, target: Callable[..., Any], *args: Any) -> threading.Thread:
        """Start a hint's or a solution's thread, which :meth:`wait` waits for."""
        thread = self._spawn(target, *args)
        self._workers = [t for t in self._workers if t.is_alive()] + [thread]
        return thread

    def _spawn(self, target: Callable[..., Any], *args: Any) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        return thread


def _win_words(count: int) -> str:
    return f"the solver found a win in {_moves(count)}"


def _verdict_words(result: solver.SolveResult, game: Game, seconds: float) -> str:
    """Why the solver says what it says about ``game``, in a player's words."""
    if result.status == solver.WINNABLE:
        return _win_words(len(result.moves))
    if result.status == solver.UNWINNABLE:
        return explain(game) or "the solver searched every line"
    return f"no answer within {seconds:g} s"


def _progress_words(job: _Job) -> str:
    """How far Think longer has got."""
    positions, seconds = job.progress
    if not positions:
        return f"thinking… the solver has up to {job.seconds:g} s"
    return f"thinking… {seconds:.0f} s, {positions:,} positions"


def _line_positions(
    position: tuple[Any, ...], game: Game, moves: tuple[Move, ...]
) -> dict[tuple[Any, ...], int]:
    """For each position along ``moves`` played from ``game`` (whose key is ``position``,
    see ``MilliganWidget._position``): how many of them lead there."""
    mode, ident, history = position
    board, history = game.copy(), list(history)
    line_at = {}
    for ply, move in enumerate(moves):
        line_at[(mode, ident, tuple(history))] = ply
        try:
            history.append(str(board.play(move)))
        except IllegalMoveError:
            break
    return line_at


def check_seconds(value: Any, name: str) -> float:
    """A solver budget in seconds: a finite number, 0 or more (a NaN would search forever).

    >>> check_seconds(2, "hint_time")
    2.0
    >>> check_seconds(float("nan"), "hint_time")
    Traceback (most recent call last):
    ...
    ValueError: hint_time must be a number of seconds, 0 or more, not nan
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a number of seconds, 0 or more, not {value!r}")
    return float(value)
