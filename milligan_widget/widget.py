"""MilliganWidget: play Miss Milligan in JupyterLab, in sync with the Python engine.

Python is the single source of truth. The front end sends one custom message per
player action (a *request*); the widget validates it, applies it to :attr:`game`
through the engine, and answers with one ``hold_sync`` update of the ``view`` trait.
A malformed or illegal request is refused with a reason and changes nothing.

Three modes share that path: play; a *lesson* (:meth:`MilliganWidget.start_lesson`), where
every move goes through :meth:`LessonRun.attempt` and a wrong one is refused like an
illegal one; and the *replay viewer* (:meth:`MilliganWidget.show_replay`), which steps
through a game's moves with the engine's undo/redo (about 0.5 ms a step, view included).
A mode's fixed data (the lesson's step titles, the replay's move list) goes in the
``panel`` trait once, when the mode starts; each view carries only where it is.

The solver works in background threads so that the kernel keeps handling clicks: a hint
(:mod:`milligan_widget.solver`, ``hint_time`` seconds, else the greedy heuristic) shows
"thinking…" at once and answers with one update when done; the optional "still winnable?"
indicator (``check_winnable=True`` or the toolbar's box) is checked after each move in one
worker thread, which always takes the newest position and whose stale results are dropped;
:meth:`MilliganWidget.show_solution` plays the solver's line one move at a time (the browser
never gets the list, which would reveal the stock's order) until it ends or is stopped.
No solve goes on for a position nobody needs any more: each gets the solver's ``stop``
callable, which turns true once the player leaves its position (for the solution: while it
is still searching), the indicator is switched off, or the solution is stopped; a stopped
solve's result is never shown. The newest win any of the three finds is remembered for the
game on show, position by position along its line (keyed as ``_position()`` keys them): a
hint, the indicator or the solution at a position on it answers at once, without a solve.
A new game, a lesson or the replay viewer forgets it.
The solver is pure Python, so a thread shares the interpreter with the kernel; Python
switches threads every few milliseconds, so a click waits milliseconds, not seconds.
"""

from __future__ import annotations

import functools
import random
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules, solver
from milligan_widget import view as views
from milligan_widget.deadlock import explain
from milligan_widget.lessons import Feedback, Lesson, LessonRun

STATIC = Path(__file__).parent / "static"
MAX_SEED = 10**20 - 1
REQUEST_TYPES = (
    "move", "deal", "undo", "redo", "hint", "auto", "restart", "new",  # playing
    "next", "previous",  # lesson mode: the next or previous step
    "seek",  # replay viewer: show the position after ``ply`` moves
    "close",  # leave the lesson or the replay viewer
    "solution", "stop",  # play the solver's solution back; stop it
    "winnable",  # the "still winnable?" indicator on or off ({"on": true})
)  # fmt: skip
MODES = ("play", "lesson", "replay")
# What each mode refuses from the browser, and why.
NOT_IN_LESSON = {
    "redo": "There is no redo in a lesson: play the move again.",
    "auto": "Auto is off in a lesson: play each card yourself.",
    "new": "Finish or close the lesson to start a new game.",
    "seek": "Stepping through moves is for the replay viewer.",
}
NOT_IN_REPLAY = (
    "This is a replay: step through it with the controls, or close the viewer to play on."
)
NOT_IN_PLAY = "That control belongs to a lesson or a replay."
NOT_IN_LESSON["solution"] = "The solution is for a game: finish or close the lesson first."
HINT_TIME = 2.0  # seconds the solver has for a hint
WINNABLE_TIME = 3.0  # seconds the solver has for the "still winnable?" indicator
THREAD_STACK = 256 * 1024 * 1024  # the solver's depth-first search recurses deeply
_spawn_lock = threading.Lock()

MoveCallback = Callable[[Move], Any]


def _bundle(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise ImportError(
            f"The widget's front end {path} is missing: install the package with "
            "`pip install -e .` (it builds js/ with npm) or run `npm run build` in js/."
        )
    return path


class RequestError(ValueError):
    """A request from the front end that is not well formed."""


class ModeError(IllegalMoveError):
    """An action that makes no sense in the widget's mode (a lesson, the replay viewer)."""


def _locked(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``method`` holding the widget's lock: the solver's threads publish too."""

    @functools.wraps(method)
    def wrapper(self: MilliganWidget, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class _Job:
    """One background task (a hint, a check or a solution playback) for one position of
    ``origin``, the game on show when it started (a win found belongs to that game)."""

    def __init__(self, position: tuple[Any, ...], origin: Game) -> None:
        self.position = position
        self.origin = origin
        self.stop = threading.Event()  # set: the solver is no longer needed for this job
        self.thread: threading.Thread | None = None
        self.result: Any = None
        self.played = 0


class MilliganWidget(anywidget.AnyWidget):
    """A playable Miss Milligan layout bound to an engine :class:`Game`.

    ``MilliganWidget(seed=7, rules="classic")`` or ``MilliganWidget(game=game)``.
    Every change made from Python shows at once; every move made in the browser is
    in :attr:`game` at once.
    """

    _esm = _bundle("widget.js")
    _css = _bundle("widget.css")

    view = traitlets.Dict().tag(sync=True)
    rules_info = traitlets.Dict().tag(sync=True)
    panel = traitlets.Dict({"mode": "play"}).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True, echo_update=False)
    # The "still winnable?" indicator: {"enabled": bool, "state": None | "checking" |
    # "winnable" | "unwinnable" | "unknown"} (None: nothing to show in this mode), and "why" for
    # a loss with a card trapped for good.
    analysis = traitlets.Dict({"enabled": False, "state": None}).tag(sync=True)

    def __init__(
        self,
        seed: int | None = None,
        rules: str | Rules = "classic",
        *,
        game: Game | None = None,
        lesson: Lesson | LessonRun | None = None,
        replay_viewer: bool = False,
        hint_time: float = HINT_TIME,
        check_winnable: bool = False,
        winnable_time: float = WINNABLE_TIME,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._lock = threading.RLock()
        #: Seconds the solver has for a hint (0: the greedy heuristic alone, at once).
        self.hint_time = hint_time
        #: Seconds the solver has to check "still winnable?" after each move.
        self.winnable_time = winnable_time
        self._hint_job: _Job | None = None
        self._solution_job: _Job | None = None
        self._check_on = check_winnable
        self._check_gen = 0
        self._checked: tuple[Any, ...] | None = None
        self._pending: tuple[int, Game, _Job] | None = None
        self._wake = threading.Condition(self._lock)
        self._checker: threading.Thread | None = None
        self._solving = False  # the indicator's worker is checking a position
        # The newest winning line found for the game on show: its moves, and for each
        # position along it (keyed as _position() keys it) how many of them are played.
        self._line: tuple[Move, ...] = ()
        self._line_at: dict[tuple[Any, ...], int] = {}
        self._workers: list[threading.Thread] = []  # hint and solution threads, maybe done
        self._callbacks: list[MoveCallback] = []
        self._rev = 0
        self._run: LessonRun | None = None
        self._replay: list[dict[str, Any]] | None = None
        self._replay_title = ""
        self._shown_rules: Rules | None = None
        self.on_msg(self._on_custom_msg)
        self.game = game if game is not None else Game.new(_pick_seed(seed), rules)
        if lesson is not None:
            self.start_lesson(lesson)
        elif replay_viewer:
            self.show_replay()

    @property
    def game(self) -> Game:
        """The engine's game on show (in a lesson: the step's position); assigning another
        game leaves the lesson or the replay viewer and shows it at once."""
        return self._run.game if self._run is not None else self._game

    @game.setter
    @_locked
    def game(self, game: Game) -> None:
        self._cancel_solution()
        self._forget_line()
        self._game = game
        self._run = None
        self._replay = None
        self._started = time.monotonic()
        self._publish(message=self._welcome(), rules_changed=True, panel_changed=True)

    @property
    def mode(self) -> str:
        """``"play"``, ``"lesson"`` (see :meth:`start_lesson`) or ``"replay"`` (see
        :meth:`show_replay`)."""
        if self._run is not None:
            return "lesson"
        return "replay" if self._replay is not None else "play"

    @property
    def lesson_run(self) -> LessonRun | None:
        """The lesson in progress (a :class:`~milligan_widget.lessons.LessonRun`), if any."""
        return self._run

    # ----------------------------------------------------------------- Python API
    @_locked
    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its notation such as ``"3>5"``).

        Raises :class:`IllegalMoveError` (and shows the reason) when the engine refuses. In
        a lesson the move is checked against the task (see :meth:`attempt`): a move that is
        not the task is refused the same way.
        """
        self._forbid_in("replay", NOT_IN_REPLAY)
        try:
            parsed = Move.parse(move) if isinstance(move, str) else move
        except ValueError as exc:
            self._refuse(str(exc))
            raise IllegalMoveError(str(exc)) from exc
        return self._apply(parsed)

    @_locked
    def deal(self) -> Move:
        """Deal a row from the stock."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        return self._apply(Move.deal())

    @_locked
    def undo(self) -> Move:
        """Take back the last move (in a lesson: the last move of this step)."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        if not self.game.can_undo:
            reason = "Nothing to undo in this step." if self._run else "Nothing to undo."
            self._refuse(reason)
            raise IllegalMoveError(reason)
        move = self._run.undo() if self._run is not None else self.game.undo()
        self._publish(message=f"Undone: {self.game.describe(move)}")
        return move

    @_locked
    def redo(self) -> Move:
        """Play again the last undone move."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["redo"])
        if not self.game.can_redo:
            self._refuse("Nothing to redo.")
            raise IllegalMoveError("Nothing to redo.")
        before = self.game.copy()
        move = self.game.redo()
        self._publish(message=f"Redone: {before.describe(move)}", last=_last(before, move))
        return move

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
        found = self.game.hint()
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
        job = self._hint_job
        rest = self._remembered(position)
        if rest is None and job is not None and job.position == position and not job.stop.is_set():
            return job  # the same question: the same answer
        if job is not None:
            job.stop.set()
        job = _Job(position, self.game)
        if rest is not None:
            self._hint_job = None
            job.result = solver.Hint.on_line(rest)
            self._show_hint(job.result)
            return job
        self._hint_job = job
        seconds = f"{self.hint_time:g}"
        self._publish(message=f"Thinking… (the solver has up to {seconds} s)", kind="thinking")
        job.thread = self._spawn_worker(self._hint_worker, job, self.game.copy(), self.hint_time)
        return job

    def _hint_worker(self, job: _Job, game: Game, time_limit: float) -> None:
        try:
            found = self._solver_hint(job, game, time_limit)
        except Exception as exc:  # never leave the player thinking forever
            self.log.exception("MilliganWidget hint failed")
            with self._lock:
                if self._hint_job is job:
                    self._hint_job = None
                    if self._position() == job.position:
                        self._refuse(f"Internal error: {exc}")
            return
        with self._lock:
            if self._hint_job is not job:
                return  # replaced by another hint: dropped
            self._hint_job = None
            if job.stop.is_set() or self._position() != job.position:
                return  # the player moved on: this hint is for a position no longer shown
            job.result = found
            self._show_hint(found)

    def _solver_hint(self, job: _Job, game: Game, time_limit: float) -> solver.Hint | None:
        """:func:`solver.hint` for ``job`` (``job.stop`` cancels it); a win is remembered."""
        found = solver.hint(game, time_limit=time_limit, stop=job.stop.is_set)
        if found is not None and found.line:
            self._remember(job, game, found.line)
        return found

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
        """Set :attr:`analysis` for the position on show, queueing a check when it is new."""
        if not self._check_on or self.mode != "play":
            self._checked = None
            self._check_gen += 1
            self._pending = None
            self._set_analysis(None)
            return
        position = self._position()
        if position == self._checked:
            return
        self._checked = position
        self._check_gen += 1
        status = self.game.status
        if status != "playing" or self._remembered(position) is not None:
            self._pending = None
            self._set_analysis(
                solver.UNWINNABLE if status == "lost" else solver.WINNABLE, self.game
            )
            return
        self._pending = (self._check_gen, self.game.copy(), _Job(position, self.game))
        self._set_analysis("checking")
        if self._checker is None or not self._checker.is_alive():
            self._checker = self._spawn(self._check_worker)
        self._wake.notify_all()

    def _set_analysis(self, state: str | None, game: Game | None = None) -> None:
        """Show ``state``; a loss of ``game`` says why when a card is trapped for good."""
        value = {"enabled": self._check_on, "state": state}
        why = explain(game) if state == solver.UNWINNABLE and game is not None else None
        if why:
            value["why"] = why
        if self.analysis != value:
            self.analysis = value

    def _check_worker(self) -> None:
        """Check the newest queued position, one at a time; a check whose position is
        stale (or the indicator off) is stopped and its result dropped."""
        while True:
            with self._lock:
                while self._pending is None:
                    if not self._wake.wait(timeout=30) and self._pending is None:
                        self._checker = None
                        return  # idle: the next check starts a new worker
                gen, game, job = self._pending
                self._pending = None
                self._solving = True
                time_limit = self.winnable_time
            status = self._check(gen, game, job, time_limit)
            with self._lock:
                self._solving = False
                if gen == self._check_gen:  # else the position changed: a stale result
                    self._set_analysis(status, game)

    def _check(self, gen: int, game: Game, job: _Job, time_limit: float) -> str:
        """The solver's verdict on ``game`` (remembering a win), stopped once ``gen`` is
        stale."""
        try:
            result = solver.solve(game, time_limit=time_limit, stop=lambda: gen != self._check_gen)
        except Exception:
            self.log.exception("MilliganWidget winnable check failed")
            return solver.UNKNOWN
        self._remember(job, game, result.moves)
        return result.status

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
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["solution"])
        with self._lock:
            self._cancel_solution()
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
        """Stop the solution playing back (:meth:`show_solution`); False if none was."""
        job = self._solution_job
        if job is None:
            return False
        self._cancel_solution()
        moves = f"{job.played} move{'s' if job.played != 1 else ''}"
        self._publish(message=f"Solution stopped after {moves}.")
        return True

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until the hint, the solution playback and the indicator's checks are done,
        stopped ones too (for scripts and tests); False on timeout."""
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
        """Stop the solver for a position no longer on show: a hint's, and a solution's
        that is still searching (its playback notices a change by itself)."""
        if self._hint_job is None and self._solution_job is None:
            return
        position = self._position()
        job = self._hint_job
        if job is not None and job.position != position:
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
        _deep_recursion()
        with _spawn_lock:  # a big stack for the solver's recursion, for this thread only
            size = threading.stack_size()
            threading.stack_size(THREAD_STACK)
            try:
                thread = threading.Thread(target=target, args=args, daemon=True)
                thread.start()
            finally:
                threading.stack_size(size)
        return thread

    @_locked
    def autoplay(self) -> list[Move]:
        """Play every safe card to the foundations."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["auto"])
        before = self.game.copy()
        moves = self.game.autoplay()
        if not moves:
            message = "No card can safely go to the foundations."
        else:
            message = f"Auto: {len(moves)} card{'s' if len(moves) > 1 else ''} to the foundations."
        last = _last(before, moves[0]) if len(moves) == 1 else None
        self._publish(message=message, last=last)
        for move in moves:
            self._notify(move)
        return moves

    @_locked
    def new_game(self, seed: int | None = None, rules: str | Rules | None = None) -> Game:
        """Start a new deal (random when ``seed`` is None), with these rules or the same.

        This leaves a lesson or the replay viewer."""
        rules = self.game.rules if rules is None else rules
        self.game = Game.new(_pick_seed(seed), rules)
        return self.game

    @_locked
    def restart(self) -> None:
        """Back to the start of this deal (in a lesson: of this step)."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self._run is not None:
            self.restart_step()
            return
        self.game.restart()
        self._started = time.monotonic()
        self._publish(message="Restarted this deal.")

    @_locked
    def goto(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the history (undo/redo).

        In the replay viewer this is :meth:`step_to`."""
        if self._replay is not None:
            self.step_to(n)
            return
        self._forbid_in("lesson", "goto(n) steps through a game's moves: use goto_step(i).")
        if n < 0:
            raise ValueError("goto(n) needs n >= 0")
        while len(self.game.history) > n:
            self.game.undo()
        while len(self.game.history) < n and self.game.can_redo:
            self.game.redo()
        reached = len(self.game.history)
        self._publish(message=f"Position after {reached} move{'s' if reached != 1 else ''}.")
        if reached != n:
            raise ValueError(f"only {reached} moves can be reached, not {n}")

    def replay(self, moves: Game | str | Path | Iterable[Move | str], delay: float = 0.3) -> None:
        """Step visibly through moves, pausing ``delay`` seconds after each.

        A saved game (a :class:`Game`, its JSON text or a path to it) is replayed from
        its deal, with its comments; a list of moves is played on from the current position.
        See :meth:`show_replay` for a viewer that steps both ways.
        """
        saved = _as_saved_game(moves)
        comments = saved.comments if saved is not None else {}
        steps = self._replay_steps(moves)
        first = len(self.game.history)
        for ply, move in enumerate(steps, first + 1):
            self._apply(move, comment=comments.get(ply))
            if delay > 0:
                time.sleep(delay)

    def save(self, path: str | Path) -> None:
        """Save the game (deal, rules, history and comments) as JSON."""
        Path(path).write_text(self.game.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> MilliganWidget:
        """A widget showing a game saved by :meth:`save` (``replay_viewer=True``: in the
        replay viewer, at the deal)."""
        return cls(game=Game.from_json(Path(path).read_text(encoding="utf-8")), **kwargs)

    def on_move(self, callback: MoveCallback, remove: bool = False) -> None:
        """Call ``callback(move)`` after every move played (browser or Python)."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------------ lesson mode
    @_locked
    def start_lesson(self, lesson: Lesson | LessonRun, start: int = 0) -> LessonRun:
        """Teach ``lesson`` (e.g. :func:`~milligan_widget.tutorial.learn_the_rules`): the
        layout shows each step's position and a lesson panel; every move is checked against
        the step's task and explained. :meth:`stop_lesson` brings the game back."""
        if isinstance(lesson, LessonRun):
            run = lesson
        elif isinstance(lesson, Lesson):
            run = LessonRun(lesson, start)
        else:
            raise TypeError(f"start_lesson needs a Lesson or a LessonRun, not {lesson!r}")
        self._cancel_solution()
        self._forget_line()
        self._replay = None
        self._run = run
        self._publish(message="", panel_changed=True)
        return run

    @_locked
    def stop_lesson(self) -> None:
        """Leave the lesson and show the game that was on show before it."""
        if self._run is None:
            return
        self._run = None
        self._publish(message="Lesson closed: back to the game.", panel_changed=True)

    @_locked
    def attempt(self, move: Move | str) -> Feedback:
        """Try ``move`` on the lesson's step: it is played only if it is (part of) the task.

        Returns the :class:`~milligan_widget.lessons.Feedback` and shows its message."""
        run = self._require_lesson()
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError as exc:
                return self._lesson_feedback(Feedback(False, str(exc), legal=False), None)
        matched = self._match_legal(move)
        before = run.game.copy()
        feedback = run.attempt(matched)
        last = _last(before, matched) if feedback.correct else None
        return self._lesson_feedback(feedback, last)

    @_locked
    def next_step(self) -> bool:
        """Go on to the lesson's next step (done or not); False after the last one."""
        moved = self._require_lesson().next_step() is not None
        self._show_step("That was the last step." if not moved else "")
        return moved

    @_locked
    def previous_step(self) -> bool:
        """Go back one step; False at the first."""
        moved = self._require_lesson().previous_step() is not None
        self._show_step("This is the first step." if not moved else "")
        return moved

    @_locked
    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        self._require_lesson().restart_step()
        self._show_step("Step restarted.")

    @_locked
    def goto_step(self, index: int) -> None:
        """Go to step ``index`` of the lesson (from 0), freshly staged."""
        self._require_lesson().goto(index)
        self._show_step("")

    # ------------------------------------------------------------------ replay viewer
    @_locked
    def show_replay(self, game: Game | str | Path | None = None, ply: int = 0) -> None:
        """Show a game's moves one at a time, with a move list, first / previous / next /
        last buttons and a slider. ``game``: a :class:`Game`, saved JSON text or a path to a
        saved game (default: the game on show). :meth:`step_to` moves from Python;
        :meth:`stop_replay` plays on from the position shown."""
        if game is None:
            saved = self.game
        else:
            saved = _as_saved_game(game)
            if saved is None:
                raise TypeError("show_replay needs a Game, its saved JSON text or a path to it")
        self._cancel_solution()
        self._forget_line()
        line, comments = saved.history, saved.comments
        board = saved.copy()
        board.restart()
        entries = []
        for n, move in enumerate(line, 1):
            entries.append({"text": sentence(board.describe(move)), "comment": comments.get(n)})
            board.play(move)
            if n in comments:
                board.set_comment(comments[n])
        while board.can_undo:  # back to the deal: the line stays for redo, with its comments
            board.undo()
        seed = f" #{saved.seed}" if saved.seed is not None else ""
        self._run = None
        self._game = board
        self._replay = entries
        self._replay_title = f"Replay of deal{seed} ({saved.rules.name or 'custom rules'})"
        self._started = time.monotonic()
        if not 0 <= ply <= len(entries):
            raise ValueError(f"ply must be between 0 and {len(entries)}, not {ply}")
        while len(board.history) < ply:
            board.redo()
        self._publish(message=self._replay_message(), rules_changed=True, panel_changed=True)

    @_locked
    def step_to(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the replay (0: the deal)."""
        if self._replay is None:
            self.goto(n)
            return
        count = len(self._replay)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= count:
            raise ValueError(f"the replay has moves 0 to {count}, not {n!r}")
        game = self._game
        last = None
        if n == len(game.history) + 1:
            before = game.copy()
            last = _last(before, game.redo())
        while len(game.history) > n:
            game.undo()
        while len(game.history) < n:
            game.redo()
        self._publish(message=self._replay_message(), last=last)

    @_locked
    def stop_replay(self) -> None:
        """Close the replay viewer and play on from the position shown (the later moves
        stay available to redo)."""
        if self._replay is None:
            return
        self._replay = None
        self._publish(message="Play on from here.", panel_changed=True)

    # ------------------------------------------------------------ request handling
    @_locked
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one request from the front end; never raises."""
        try:
            self._handle(content)
        except RequestError as exc:
            self._refuse(f"Request refused: {exc}")
        except IllegalMoveError:
            pass  # already shown by _apply / undo / redo / _forbid_in
        except ValueError as exc:
            self._refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            self.log.exception("MilliganWidget request %r failed", content)
            self._refuse(f"Internal error: {exc}")

    def _handle(self, content: Any) -> None:
        kind = _request_type(content)
        mode = self.mode
        if mode == "replay" and kind not in ("seek", "close"):
            self._forbid_in("replay", NOT_IN_REPLAY)
        if mode == "lesson" and kind in NOT_IN_LESSON:
            self._forbid_in("lesson", NOT_IN_LESSON[kind])
        if mode == "play" and kind in ("next", "previous", "seek", "close"):
            self._forbid_in("play", NOT_IN_PLAY)
        if kind not in ("stop", "winnable"):
            self._cancel_solution()  # the player takes over from the solution playing back
        if kind == "move":
            self._apply(_parse_move_request(content, _pile_names(self.game)))
        elif kind == "deal":
            self.deal()
        elif kind == "undo":
            self.undo()
        elif kind == "redo":
            self.redo()
        elif kind == "hint":
            self.hint(wait=False)
        elif kind == "solution":
            self.show_solution()
        elif kind == "stop":
            if not self.stop():
                self._publish(message="Nothing to stop.")
        elif kind == "winnable":
            on = content.get("on")
            if not isinstance(on, bool):
                raise RequestError("'on' must be true or false")
            self.check_winnable = on
        elif kind == "auto":
            self.autoplay()
        elif kind == "restart":
            self.restart()
        elif kind == "new":
            self.new_game(_parse_seed(content.get("seed")), _parse_rules(content.get("rules")))
        elif kind == "next":
            if not self._run.step_done:  # type: ignore[union-attr]
                self._forbid_in("lesson", "Finish this step first: Hint shows the way.")
            self.next_step()
        elif kind == "previous":
            self.previous_step()
        elif kind == "seek":
            self.step_to(_parse_ply(content.get("ply"), len(self._replay or ())))
        elif kind == "close":
            self.stop_lesson() if mode == "lesson" else self.stop_replay()

    def _apply(self, move: Move, comment: str | None = None, prefix: str = "") -> Move:
        """Play ``move`` through the engine and publish, or refuse with the reason.

        In a lesson the move goes through the lesson's check instead (:meth:`attempt`)."""
        if self._run is not None:
            feedback = self.attempt(move)
            if not feedback.correct or feedback.move is None:
                raise IllegalMoveError(feedback.message)
            return feedback.move
        matched = self._match_legal(move)
        last = _last(self.game, matched)
        try:
            description = self.game.describe(matched)
        except (ValueError, IndexError, KeyError):
            description = str(matched)
        try:
            played = self.game.play(matched)
        except IllegalMoveError as exc:
            self._refuse(str(exc))
            raise
        if comment:
            self.game.set_comment(comment)
            description = f"{description} — {comment}"
        self._publish(message=prefix + description, last=last)
        self._notify(played)
        return played

    def _match_legal(self, move: Move) -> Move:
        """The engine's own spelling of ``move`` when it is legal, else ``move`` itself."""
        if move.source == "stock":
            return move
        count = views.move_count(self.game, move)
        for legal in self.game.legal_moves:
            if legal.source != move.source or views.move_count(self.game, legal) != count:
                continue
            if legal.target == move.target:
                return legal
            targets = views.resolve_targets(self.game, legal)
            if move.target in targets:
                return Move(legal.source, move.target, legal.count)
            if move.target in ("f", "c") and any(t[0] == move.target for t in targets):
                return legal
        return move

    def _notify(self, move: Move) -> None:
        for callback in list(self._callbacks):
            callback(move)

    def _forbid_in(self, mode: str, reason: str) -> None:
        """Refuse (show and raise) an action that makes no sense in ``mode``."""
        if self.mode == mode:
            self._refuse(reason)
            raise ModeError(reason)

    def _require_lesson(self) -> LessonRun:
        if self._run is None:
            raise ModeError("No lesson is running: start one with start_lesson(lesson).")
        return self._run

    def _lesson_feedback(self, feedback: Feedback, last: dict[str, Any] | None) -> Feedback:
        kind = feedback.kind if feedback.correct or not feedback.step_done else "wrong"
        self._publish(message=feedback.message, kind=kind, last=last)
        if feedback.correct and feedback.move is not None:
            self._notify(feedback.move)
        return feedback

    def _show_step(self, message: str) -> None:
        self._publish(message=message)

    def _replay_message(self) -> str:
        ply, entries = len(self._game.history), self._replay or []
        if ply == 0:
            moves = f"{len(entries)} move{'s' if len(entries) != 1 else ''}"
            return f"The deal. {moves} to step through."
        entry = entries[ply - 1]
        text = f"Move {ply} of {len(entries)}: {entry['text']}"
        if entry["comment"]:
            text = f"{text} — {entry['comment']}"
        if ply == len(entries) and self._game.status == "won":
            text = f"{text}. All cards are home: won."
        return text

    # ----------------------------------------------------------------- publishing
    def _refuse(self, reason: str) -> None:
        self._publish(message=reason, kind="error")

    @_locked
    def _publish(
        self,
        message: str = "",
        kind: str = "info",
        last: dict[str, Any] | None = None,
        hint: Move | None = None,
        rules_changed: bool = False,
        panel_changed: bool = False,
    ) -> None:
        """Send the new view (and rules, panel, if changed) in one ``hold_sync`` update."""
        self._stop_stale_jobs()
        self._rev += 1
        message = sentence(message)
        game, mode = self.game, self.mode
        status = game.status
        elapsed = None
        if mode == "play":
            elapsed = round(time.monotonic() - self._started, 1) if status == "won" else None
            if status == "lost" and kind == "info":
                message, kind = f"{message} No useful move is left.".strip(), "lost"
            if status == "won":
                kind = "won"
        new_view = views.build_view(
            game,
            rev=self._rev,
            message=message,
            kind=kind,
            last=last,
            hint=hint,
            elapsed=elapsed,
        )
        new_view["mode"] = mode
        new_view["busy"] = "solution" if self._solution_job is not None else None
        if self._run is not None:
            new_view["lesson"] = self._run.summary()
        elif self._replay is not None:
            new_view["replay"] = {"ply": len(game.history), "count": len(self._replay)}
            new_view["targets"] = {}  # a replay is watched, not played
        rules_changed = rules_changed or game.rules != self._shown_rules
        with self.hold_sync():
            if rules_changed:
                self._shown_rules = game.rules
                self.rules_info = views.rules_info(game.rules, PRESETS)
            if panel_changed:
                self.panel = self._panel()
            self.view = new_view
            self._update_analysis()

    def _panel(self) -> dict[str, Any]:
        """What a mode's panel shows that does not change from one move to the next."""
        if self._run is not None:
            lesson = self._run.lesson
            return {
                "mode": "lesson",
                "title": lesson.title,
                "intro": lesson.intro,
                "steps": [step.title for step in lesson.steps],
            }
        if self._replay is not None:
            return {"mode": "replay", "title": self._replay_title, "moves": self._replay}
        return {"mode": "play"}

    def _welcome(self) -> str:
        game = self.game
        name = game.rules.name or "custom rules"
        seed = f" #{game.seed}" if game.seed is not None else ""
        if game.history:
            played = len(game.history)
            return f"Game{seed} ({name}) after {played} move{'s' * (played != 1)}."
        if game.layout is not None:
            return f"A staged position ({name})."
        return f"New game{seed} ({name}). Good luck!"

    def _replay_steps(self, moves: Game | str | Path | Iterable[Move | str]) -> list[Move]:
        saved = _as_saved_game(moves)
        if saved is None:
            return [Move.parse(m) if isinstance(m, str) else m for m in moves]  # type: ignore[union-attr]
        start = saved.copy()
        steps = list(saved.history)
        start.restart()
        self.game = start
        return steps


# ----------------------------------------------------------------- module helpers
def sentence(text: str) -> str:
    """The engine's plain words as a sentence on the message line (capital first letter)."""
    return text[:1].upper() + text[1:]


def _deep_recursion() -> None:
    """Let the solver recurse as deep as it needs in any thread, once and for good.

    :func:`solver.solve` raises the recursion limit and restores it when done; two solves
    running at once (a hint while the indicator checks) could restore it under each other,
    so the limit is raised once, here, before any background solve starts.
    """
    needed = 4 * solver.MAX_DEPTH + 1000
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def _moves(count: int) -> str:
    return f"{count} move{'s' * (count != 1)}"


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


def _pick_seed(seed: int | None) -> int:
    return random.randint(1, 10**9) if seed is None else seed


def _last(before: Game, move: Move) -> dict[str, Any]:
    """What the front end needs to animate ``move`` (played on the position ``before``)."""
    if move.source == "stock":
        return {"source": "stock", "targets": [], "cards": []}
    return {
        "source": move.source,
        "targets": views.resolve_targets(before, move),
        "cards": [str(c) for c in views.moving_cards(before, move)],
    }


def _as_saved_game(value: Any) -> Game | None:
    if isinstance(value, Game):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(".json")):
        return Game.from_json(Path(value).read_text(encoding="utf-8"))
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return Game.from_json(value)
    return None


def _request_type(content: Any) -> str:
    if not isinstance(content, dict):
        raise RequestError("expected an object")
    kind = content.get("type")
    if kind not in REQUEST_TYPES:
        raise RequestError(f"unknown request type {str(kind)[:40]!r}")
    return kind


def _pile_names(game: Game) -> frozenset[str]:
    """Every pile a request may name in this game (``f``/``c``: any fitting one)."""
    names = {f"t{i + 1}" for i in range(len(game.tableau))}
    names |= {f"f{i + 1}" for i in range(len(game.foundations))} | {"f"}
    if game.cells:
        names |= {f"c{i + 1}" for i in range(len(game.cells))} | {"c"}
    if game.rules.reserve != "none":
        names.add("reserve")
    return frozenset(names)


def _valid_pile(name: Any, piles: frozenset[str], role: str) -> str:
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError(f"the {role} must be a pile name such as 't3'")
    if name not in piles:
        raise RequestError(f"there is no pile {name!r} in this game")
    return name


def _parse_move_request(content: dict[str, Any], piles: frozenset[str]) -> Move:
    source = _valid_pile(content.get("source"), piles - {"f", "c"}, "source")
    target = _valid_pile(content.get("target"), piles, "target")
    count = content.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 104:
        raise RequestError("count must be a whole number of cards from 1 to 104")
    if source == target:
        raise RequestError("a card cannot move onto its own pile")
    return Move(source, target, count)


def _parse_ply(value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= count:
        raise RequestError(f"ply must be a whole number from 0 to {count}")
    return value


def _parse_seed(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEED:
        raise RequestError("a deal number is a whole number from 1 to 10^20 - 1")
    return value


def _parse_rules(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PRESETS:
        raise RequestError(f"unknown rules preset {str(value)[:40]!r}")
    return value
