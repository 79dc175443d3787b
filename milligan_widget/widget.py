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
solve's result is never shown. The newest win any of them finds is remembered for the
game on show, position by position along its line (keyed as ``_position()`` keys them): a
hint, the indicator or the solution at a position on it answers at once, without a solve.
A new game, a lesson or the replay viewer forgets it (a restart keeps it: the same deal).
When the solver found no answer in the time it had, Think longer
(:meth:`MilliganWidget.think_longer`) gives it 30 s more for the position, in one more
background thread that shows its progress in ``analysis`` and can be stopped like the
solution.

Restart and New game can be undone: the game they replace is set aside as it was (moves, redo
list, comments, its remembered win), and Undo at the start of the game that replaced it
brings it back (the last :data:`MAX_SET_ASIDE` of them).

The solver is pure Python, so a thread shares the interpreter with the kernel; Python
switches threads every few milliseconds, so a click waits milliseconds, not seconds.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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
    "next", "previous", "goto_step",  # lesson mode: the next or previous step, or step i
    "seek",  # replay viewer: show the position after ``ply`` moves
    "close",  # leave the lesson or the replay viewer
    "solution", "stop",  # play the solver's solution back; stop it (or Think longer)
    "think",  # Think longer: give the solver more time for the position on show
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
    "This is a replay: the cards move with its controls. Press Play from here to play on."
)
NOT_IN_PLAY = "That control belongs to a lesson or a replay."
NOT_IN_LESSON["solution"] = "The solution is for a game: finish or close the lesson first."
NOT_IN_LESSON["think"] = "Think longer is for a game: finish or close the lesson first."
HINT_TIME = 2.0  # seconds the solver has for a hint
WINNABLE_TIME = 3.0  # seconds the solver has for the "still winnable?" indicator
THINK_TIME = 30.0  # seconds Think longer gives the solver, doubled on each press without an answer
MAX_THINK_TIME = 480.0  # ... up to this
PROGRESS_SHOWN = 0.5  # seconds between two progress updates of Think longer
MAX_SET_ASIDE = 20  # restarts and new games that Undo can take back, newest kept
NO_ANALYSIS = {"enabled": False, "state": None, "why": "", "can_think": False}
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


@dataclass(frozen=True)
class _SetAside:
    """A game that a restart or a new game replaced, kept as it was (its moves, redo list
    and comments, the win remembered for it, its clock) so that Undo brings it back from the
    start of the game that replaced it."""

    action: str  # "restart" or "new game": what Undo takes back
    game: Game
    successor: Game  # the game that replaced it
    line: tuple[Move, ...]
    line_at: dict[tuple[Any, ...], int]
    started: float


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
    #: ``"auto"`` follows the host's theme (JupyterLab, Notebook 7, VS Code, marimo, else the
    #: browser's preference); ``"light"`` or ``"dark"`` choose one.
    theme = traitlets.Enum(("auto", "light", "dark"), "auto").tag(sync=True, echo_update=False)
    # The solver's verdict on the position on show, from the "still winnable?" indicator or
    # Think longer: {"enabled": the indicator is on, "state": None (nothing to show) |
    # "checking" | "winnable" | "unwinnable" | "unknown" | "won", "why": the reason in a
    # player's words ("" with no state), "can_think": Think longer is offered}.
    analysis = traitlets.Dict(NO_ANALYSIS).tag(sync=True)

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
        self._jobs: dict[str, _Job] = {}  # the hint's and Think longer's solve, by kind
        self._solution_job: _Job | None = None
        self._thought: _Verdict | None = None  # Think longer's newest verdict
        self._undecided: tuple[Any, ...] | None = None  # where a hint's solver had no answer
        # Games a restart or a new game replaced, which Undo brings back (newest last).
        self._set_aside: deque[_SetAside] = deque(maxlen=MAX_SET_ASIDE)
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
        self._set_aside.clear()  # Undo does not go back past a game assigned
        self._switch_to(game)
        self._publish(message=self._welcome(), rules_changed=True, panel_changed=True)

    def _switch_to(
        self,
        game: Game,
        started: float | None = None,
        line: tuple[tuple[Move, ...], dict[tuple[Any, ...], int]] = ((), {}),
    ) -> None:
        """Put ``game`` on show in play mode (leaving a lesson or the replay viewer), with
        the winning ``line`` remembered for it and the clock ``started``; not published."""
        self._cancel_solution()
        self._line, self._line_at = line
        self._thought = self._undecided = None
        self._game, self._run, self._replay = game, None, None
        self._started = time.monotonic() if started is None else started

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
    def undo(self) -> Move | None:
        """Take back the last move (in a lesson: the last move of this step) and return it.

        At the start of a game that :meth:`restart` or :meth:`new_game` put in place of
        another, Undo takes that back: the game before comes back as it was (its moves, redo
        list and comments), and this returns None.
        """
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self.game.can_undo:
            move = self._run.undo() if self._run is not None else self.game.undo()
            self._publish(message=f"Undone: {self.game.describe(move)}")
            return move
        entry = self._taken_back() if self._run is None else None
        if entry is None:
            reason = "Nothing to undo in this step." if self._run else "Nothing to undo."
            self._refuse(reason)
            raise IllegalMoveError(reason)
        self._set_aside.pop()
        self._switch_to(entry.game, entry.started, (entry.line, entry.line_at))
        self._publish(message=_undone(entry))
        return None

    def _taken_back(self) -> _SetAside | None:
        """The game that Undo brings back from the start of the game on show, if a restart
        or a new game put this one in its place."""
        entry = self._set_aside[-1] if self._set_aside else None
        return entry if entry is not None and entry.successor is self._game else None

    def _set_aside_for(
        self,
        action: str,
        game: Game,
        line_at: dict[tuple[Any, ...], int] | None = None,
        behind: _SetAside | None = None,
    ) -> None:
        """Show ``game`` (not published) in place of the player's game, which Undo brings
        back from its start (``behind``: the game set aside before an untouched one, which
        Undo goes back to instead); ``line_at``: the remembered win, keyed for ``game``."""
        if behind is None:
            behind = _SetAside(action, self._game, game, self._line, self._line_at, self._started)
        line = (self._line, line_at) if line_at else ((), {})
        self._switch_to(game, line=line)
        self._set_aside.append(dataclasses.replace(behind, action=action, successor=game))

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
                    if not self._wake.wait(timeout=30) and self._pending is None:
                        self._checker = None
                        return  # idle: the next check starts a new worker
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
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["think"])
        job = self._start_think(seconds)
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

        When the game it replaces is in progress (a move played or one to redo, and not
        won), Undo at the start of the new game brings it back as it was; from a game not
        yet touched that a restart or new game brought, Undo goes back past it to the game
        before. This leaves a lesson or the replay viewer."""
        rules = self.game.rules if rules is None else rules
        game = Game.new(_pick_seed(seed), rules)
        untouched = not (self._game.history or self._game.can_redo)
        behind = self._taken_back() if untouched else None
        if behind is not None:  # Undo goes back past the untouched game on show
            self._set_aside.pop()
            self._set_aside_for("new game", game, behind=behind)
        elif self._in_progress():
            self._set_aside_for("new game", game)
        else:
            self.game = game
            return game
        greeting = "Undo brings back the game you left."
        self._publish(message=self._welcome(greeting), panel_changed=True)
        return game

    def _in_progress(self) -> bool:
        """Is the player's game one that Undo should bring back after a new game?"""
        game = self._game
        if self._replay is not None or game.status == "won":
            return False
        return bool(game.history or game.can_redo)

    @_locked
    def restart(self) -> None:
        """Back to the start of this deal (in a lesson: of this step).

        Undo at the start takes the restart back: the game comes back as it was, with its
        moves, redo list and comments (so do the restarts before it, one Undo each)."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self._run is not None:
            self.restart_step()
            return
        old = self._game
        if not old.history and not old.can_redo:
            self._started = time.monotonic()
            self._publish(message="Restarted this deal.")  # nothing to take back
            return
        fresh = old.copy()
        fresh.restart()
        self._set_aside_for("restart", fresh, self._line_keyed_for(fresh))
        back = f"goes back to move {len(old.history)}" if old.history else "brings back the redo"
        self._publish(message=f"Restarted this deal. Undo {back}.")

    def _line_keyed_for(self, fresh: Game) -> dict[tuple[Any, ...], int]:
        """The remembered win's positions keyed for ``fresh``, a restart of the game on show:
        the same deal, so the same moves from it lead to the same positions."""
        return {(mode, id(fresh), moves): ply for (mode, _, moves), ply in self._line_at.items()}

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
        self._set_aside.clear()  # a replay is watched: Undo does not go back past it
        self._switch_to(board)
        self._replay = entries
        self._replay_title = f"Replay of deal{seed} ({saved.rules.name or 'custom rules'})"
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
        self._check_mode(kind)
        if kind not in ("stop", "winnable"):
            self._cancel_solution()  # the player takes over from the solution playing back
        self._handlers()[kind](content)

    def _check_mode(self, kind: str) -> None:
        """Refuse a request that the mode on show has no use for."""
        mode = self.mode
        if mode == "replay" and kind not in ("seek", "close"):
            self._forbid_in("replay", NOT_IN_REPLAY)
        if mode == "lesson" and kind in NOT_IN_LESSON:
            self._forbid_in("lesson", NOT_IN_LESSON[kind])
        if mode == "play" and kind in ("next", "previous", "goto_step", "seek", "close"):
            self._forbid_in("play", NOT_IN_PLAY)

    def _handlers(self) -> dict[str, Callable[[dict[str, Any]], Any]]:
        """What each request type does, given the request (checked by :func:`_request_type`
        and the mode already)."""
        return {
            "move": lambda content: self._apply(_parse_move_request(content, self.game)),
            "deal": lambda _: self.deal(),
            "undo": lambda _: self.undo(),
            "redo": lambda _: self.redo(),
            "hint": lambda _: self.hint(wait=False),
            "think": lambda _: self.think_longer(self._think_budget()),
            "solution": lambda _: self.show_solution(),
            "stop": lambda _: self.stop() or self._publish(message="Nothing to stop."),
            "winnable": lambda content: setattr(self, "check_winnable", _parse_on(content)),
            "auto": lambda _: self.autoplay(),
            "restart": lambda _: self.restart(),
            "new": lambda content: self.new_game(
                _parse_seed(content.get("seed")), _parse_rules(content.get("rules"))
            ),
            "next": lambda _: self._next_when_done(),
            "previous": lambda _: self.previous_step(),
            "goto_step": lambda content: self.goto_step(
                _parse_index(content.get("index"), len(self._require_lesson().lesson.steps))
            ),
            "seek": lambda content: self.step_to(
                _parse_ply(content.get("ply"), len(self._replay or ()))
            ),
            "close": lambda _: self.stop_lesson() if self._run is not None else self.stop_replay(),
        }

    def _next_when_done(self) -> None:
        if not self._require_lesson().step_done:
            self._forbid_in("lesson", "Finish this step first: Hint shows the way.")
        self.next_step()

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
        new_view["busy"] = self._busy()
        if mode == "play" and not game.can_undo and self._taken_back() is not None:
            new_view["can_undo"] = True  # Undo takes back the restart or the new game
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
            return {
                "mode": "replay",
                "title": self._replay_title,
                "moves": self._replay,
                "refusal": NOT_IN_REPLAY,
            }
        return {"mode": "play"}

    def _welcome(self, greeting: str = "Good luck!") -> str:
        game = self.game
        name = game.rules.name or "custom rules"
        seed = f" #{game.seed}" if game.seed is not None else ""
        if game.history:
            played = len(game.history)
            return f"Game{seed} ({name}) after {played} move{'s' * (played != 1)}."
        if game.layout is not None:
            return f"A staged position ({name})."
        return f"New game{seed} ({name}). {greeting}"

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


def _undone(entry: _SetAside) -> str:
    """The message after Undo took back a restart or a new game."""
    game = entry.game
    played, redo = len(game.history), len(game.redo_moves)
    if entry.action == "restart":
        where = f"move {played}" if played else "the start"
    else:
        deal = f"deal #{game.seed}" if game.seed is not None else "the game you left"
        where = f"{deal} after {_moves(played)}" if played else f"{deal} at its start"
    later = f", with {_moves(redo)} to redo" if redo and not played else ""
    return f"Undone: {entry.action} — back to {where}{later}."


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


def _valid_pile(name: Any, role: str) -> str:
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError(f"the {role} must be a pile name such as 't3'")
    return name


def _parse_move_request(content: dict[str, Any], game: Game) -> Move:
    source = _valid_pile(content.get("source"), "source")
    target = _valid_pile(content.get("target"), "target")
    count = content.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 104:
        raise RequestError("count must be a whole number of cards from 1 to 104")
    piles = _pile_names(game)
    if source not in piles - {"f", "c"}:
        _refuse_pile(game, source, "source")
    if target not in piles:
        _refuse_pile(game, target, "target")
    if source == target:
        raise MoveRefused("A card cannot move onto its own pile.")
    return Move(source, target, count)


class MoveRefused(ValueError):
    """A move request our front end can send (a drop on the stock, or on a pile of another
    variant left on the page) that names no pile of this game: refused in a player's words."""


_NUMBERED_PILE = re.compile(r"([tfc])([1-9][0-9]?)")
_PILE_KINDS = {"t": "column", "f": "foundation", "c": "free cell"}


def _refuse_pile(game: Game, name: str, role: str) -> None:
    """Refuse ``name``, a pile this game does not have: in a player's words when the front
    end can send it, else as a malformed request."""
    numbered = _NUMBERED_PILE.fullmatch(name)
    if name == "stock" and role == "target":
        raise MoveRefused("Cards cannot go back to the stock.")
    if name == "reserve":
        raise MoveRefused("This game has no reserve.")
    if (name == "c" and role == "target") or (numbered and numbered[1] == "c" and not game.cells):
        raise MoveRefused("This game has no free cells.")
    if numbered:
        kind = _PILE_KINDS[numbered[1]]
        count = {"t": len(game.tableau), "f": len(game.foundations), "c": len(game.cells)}
        have = count[numbered[1]]
        raise MoveRefused(f"There is no {kind} {numbered[2]}: this game has {have} {kind}s.")
    raise RequestError(f"there is no pile {name!r} in this game")


def _parse_on(content: dict[str, Any]) -> bool:
    on = content.get("on")
    if not isinstance(on, bool):
        raise RequestError("'on' must be true or false")
    return on


def _parse_ply(value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= count:
        raise RequestError(f"ply must be a whole number from 0 to {count}")
    return value


def _parse_index(value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise RequestError(f"index must be a whole number from 0 to {count - 1}")
    return value


def _parse_seed(value: Any) -> int | None:
    """The deal number a player typed (None: a random deal); a ValueError in their words."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEED:
        shown = str(value)[:24]
        raise ValueError(
            f"“{shown}” is not a deal number: type a whole number from 1 to {MAX_SEED:,}, "
            "or leave the box empty for a random deal."
        )
    return value


def _parse_rules(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PRESETS:
        raise RequestError(f"unknown rules preset {str(value)[:40]!r}")
    return value
