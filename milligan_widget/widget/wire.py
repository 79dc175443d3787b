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

The solver works in background threads (:mod:`.assistant`), so the kernel keeps handling
clicks: a hint shows "thinking…" at once and answers with one update when done; the "still
winnable?" indicator checks after each move; Think longer gives the solver more time;
:meth:`MilliganWidget.show_solution` plays the solver's line one move at a time (the browser
never gets the list, which would reveal the stock's order).

Restart and New game can be undone: the game they replace is set aside as it was (moves, redo
list, comments, its remembered win), and Undo at the start of the game that replaced it
brings it back (the last :data:`MAX_SET_ASIDE` of them).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules
from milligan_widget.lessons import Feedback, Lesson, LessonRun
from milligan_widget.widget import modes, requests
from milligan_widget.widget import view as views
from milligan_widget.widget.assistant import (
    HINT_TIME,
    NO_ANALYSIS,
    WINNABLE_TIME,
    SolverAssistant,
    _Job,
    _Verdict,
    check_seconds,
)
from milligan_widget.widget.lock import WidgetLock
from milligan_widget.widget.lock import locked as _locked
from milligan_widget.widget.modes import NOT_IN_LESSON, NOT_IN_REPLAY, ModeError
from milligan_widget.widget.setaside import SetAside, SetAsideGames
from milligan_widget.widget.words import moves as _moves
from milligan_widget.widget.words import sentence

STATIC = Path(__file__).parent.parent / "static"
MAX_SET_ASIDE = 20  # restarts and new games that Undo can take back, newest kept

MoveCallback = Callable[[Move], Any]


def _bundle(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise ImportError(
            f"The widget's front end {path} is missing: install the package with "
            "`pip install -e .` (it builds js/ with npm) or run `npm run build` in js/."
        )
    return path


class MilliganWidget(SolverAssistant, anywidget.AnyWidget):
    """A playable Miss Milligan layout bound to an engine :class:`Game`.

    ``MilliganWidget(seed=7, rules="classic")`` or ``MilliganWidget(game=game)``.
    Every change made from Python shows at once; every move made in the browser is
    in :attr:`game` at once.
    """

    # The bundle's text, not its path: anywidget watches a path for changes and so holds
    # every widget shown, which a closed widget could then never leave.
    _esm = _bundle("widget.js").read_text(encoding="utf-8")
    _css = _bundle("widget.css").read_text(encoding="utf-8")
    #: The traits the front end may set; it sends requests for everything else.
    FRONT_END_TRAITS = frozenset({"four_colour", "theme"})

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
        self._lock = WidgetLock()
        self._closed = False
        self.hint_time = hint_time
        self.winnable_time = winnable_time
        self._jobs: dict[str, _Job] = {}  # the hint's and Think longer's solve, by kind
        self._solution_job: _Job | None = None
        self._thought: _Verdict | None = None  # Think longer's newest verdict
        self._undecided: tuple[Any, ...] | None = None  # where a hint's solver had no answer
        # Games a restart or a new game replaced, which Undo brings back (newest last).
        self._set_aside = SetAsideGames(MAX_SET_ASIDE)
        self._check_on = check_winnable
        self._check_gen = 0
        self._checked: tuple[Any, ...] | None = None
        self._pending: tuple[int, Game, _Job] | None = None
        self._wake = threading.Condition(self._lock.rlock)
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
        if not isinstance(game, Game):
            raise TypeError(f"widget.game takes a Game, not {type(game).__name__}")
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
    def hint_time(self) -> float:
        """Seconds the solver has for a hint (0: the greedy heuristic alone, at once)."""
        return self._hint_time

    @hint_time.setter
    def hint_time(self, value: float) -> None:
        self._hint_time = check_seconds(value, "hint_time")

    @property
    def winnable_time(self) -> float:
        """Seconds the solver has to check "still winnable?" after each move."""
        return self._winnable_time

    @winnable_time.setter
    def winnable_time(self, value: float) -> None:
        self._winnable_time = check_seconds(value, "winnable_time")

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """The front end's writes: only to the traits it owns (the view, the panel, the
        analysis and the rules are Python's, whatever a page sends)."""
        super().set_state({k: v for k, v in sync_data.items() if k in self.FRONT_END_TRAITS})

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The live widget, and beside it the position as a static picture (``text/html``,
        no JavaScript): what an exported notebook, GitHub or an email shows."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle  # (data, metadata) or data
        if isinstance(data, dict):
            data["text/html"] = self.game._repr_html_()
        return bundle

    def close(self) -> None:
        """Stop every solver job, wait for their threads, and close the widget."""
        with self._lock:
            self._closed = True
            threads = self._stop_every_job()
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout=10)
        super().close()

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
            parsed = _as_move(move)
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
        self._publish(message=entry.undone())
        return None

    def _taken_back(self) -> SetAside | None:
        """The game that Undo brings back from the start of the game on show, if a restart
        or a new game put this one in its place."""
        return self._set_aside.replaced_by(self._game)

    def _set_aside_for(
        self,
        action: str,
        game: Game,
        line_at: dict[tuple[Any, ...], int] | None = None,
        behind: SetAside | None = None,
    ) -> None:
        """Show ``game`` (not published) in place of the player's game, which Undo brings
        back from its start (``behind``: the game set aside before an untouched one, which
        Undo goes back to instead); ``line_at``: the remembered win, keyed for ``game``."""
        if behind is None:
            behind = SetAside(action, self._game, game, self._line, self._line_at, self._started)
        line = (self._line, line_at) if line_at else ((), {})
        self._switch_to(game, line=line)
        self._set_aside.push(dataclasses.replace(behind, action=action, successor=game))

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
        reachable = len(self.game.history) + len(self.game.redo_moves)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= reachable:
            raise ValueError(f"goto(n) reaches moves 0 to {reachable} of this game, not {n!r}")
        while len(self.game.history) > n:
            self.game.undo()
        while len(self.game.history) < n and self.game.can_redo:
            self.game.redo()
        self._publish(message=f"Position after {_moves(n)}.")

    def replay(self, moves: Game | str | Path | Iterable[Move | str], delay: float = 0.3) -> None:
        """Step visibly through moves, pausing ``delay`` seconds after each.

        A saved game (a :class:`Game`, its JSON text or a path to it) is replayed from
        its deal, with its comments; a list of moves is played on from the current position.
        See :meth:`show_replay` for a viewer that steps both ways.
        """
        saved = _as_saved_game(moves)
        comments = saved.comments if saved is not None else {}
        if saved is None:
            steps = [_as_move(m) for m in moves]  # type: ignore[union-attr]
            _check_line(self.game, steps)  # an illegal move anywhere: nothing is played
        steps = self._replay_steps(saved, moves)
        first = len(self.game.history)
        for ply, move in enumerate(steps, first + 1):
            self._apply(move, comment=comments.get(ply))
            if delay > 0:
                time.sleep(delay)

    def save(self, path: str | Path) -> None:
        """Save the game (deal, rules, history and comments) as JSON, atomically: an
        interrupted save leaves the file as it was (:meth:`Game.save`)."""
        self.game.save(path)

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> MilliganWidget:
        """A widget showing a game saved by :meth:`save` (``replay_viewer=True``: in the
        replay viewer, at the deal)."""
        return cls(game=Game.load(path), **kwargs)

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
        try:
            matched = self._engine_move(move)
        except IllegalMoveError:
            matched = move  # the lesson says why, in its words
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
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(entries):
            raise ValueError(f"ply must be between 0 and {len(entries)}, not {ply!r}")
        self._set_aside.clear()  # a replay is watched: Undo does not go back past it
        self._switch_to(board)
        self._replay = entries
        self._replay_title = f"Replay of deal{seed} ({saved.rules.name or 'custom rules'})"
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
        except requests.RequestError as exc:
            self._refuse(f"Request refused: {exc}")
        except IllegalMoveError:
            pass  # already shown by _apply / undo / redo / _forbid_in
        except ValueError as exc:
            self._refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            self.log.exception("MilliganWidget request %r failed", content)
            self._refuse(f"Internal error: {exc}")

    def _handle(self, content: Any) -> None:
        """Check the request first (a malformed one changes nothing, not even a solution
        playing back), then what the mode allows, then do it."""
        steps = len(self._run.lesson.steps) if self._run is not None else 0
        request = requests.parse(content, self.game, len(self._replay or ()), steps)
        self._check_mode(request.kind)
        if request.kind not in ("stop", "winnable"):
            self._cancel_solution()  # the player takes over from the solution playing back
        self._handlers()[request.kind](request)

    def _check_mode(self, kind: str) -> None:
        """Refuse a request that the mode on show has no use for."""
        reason = modes.refusal(self.mode, kind)
        if reason is not None:
            self._forbid_in(self.mode, reason)

    def _handlers(self) -> dict[str, Callable[[requests.Request], Any]]:
        """What each request type does, given the checked request."""
        return {
            "move": lambda r: self._apply(r.move),
            "deal": lambda _: self.deal(),
            "undo": lambda _: self.undo(),
            "redo": lambda _: self.redo(),
            "hint": lambda _: self.hint(wait=False),
            "think": lambda _: self.think_longer(self._think_budget()),
            "solution": lambda _: self.show_solution(),
            "stop": lambda _: self.stop() or self._publish(message="Nothing to stop."),
            "winnable": lambda r: setattr(self, "check_winnable", r.on),
            "auto": lambda _: self.autoplay(),
            "restart": lambda _: self.restart(),
            "new": lambda r: self.new_game(r.seed, r.rules),
            "next": lambda _: self._next_when_done(),
            "previous": lambda _: self.previous_step(),
            "goto_step": lambda r: self.goto_step(r.number),
            "seek": lambda r: self.step_to(r.number),
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
        try:
            matched = self._engine_move(move)
            last = _last(self.game, matched)
            description = self.game.describe(matched)
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

    def _engine_move(self, move: Move) -> Move:
        """The engine's move for a gesture (:meth:`Game.find_move`); IllegalMoveError with
        the reason if there is none."""
        if move.source == "stock":
            return move
        return self.game.find_move(move.source, move.target, move.count)

    def _notify(self, move: Move) -> None:
        """Call the ``on_move`` callbacks once the lock is let go (they may ask for a hint
        and wait for it); one that fails is reported, and stops nothing."""
        for callback in list(self._callbacks):
            self._lock.later(functools.partial(self._call_back, callback, move))

    def _call_back(self, callback: MoveCallback, move: Move) -> None:
        try:
            callback(move)
        except Exception as exc:
            self.log.exception("MilliganWidget on_move callback %r failed", callback)
            name = getattr(callback, "__name__", "callback")
            self._refuse(f"Your on_move callback {name} failed: {type(exc).__name__}: {exc}")

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
        if self._closed:
            return
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
        new_view["actions"] = modes.actions(mode, new_view)
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

    def _replay_steps(self, saved: Game | None, moves: Any) -> list[Move]:
        if saved is None:
            return [_as_move(m) for m in moves]
        start = saved.copy()
        steps = list(saved.history)
        start.restart()
        self.game = start
        return steps


# ----------------------------------------------------------------- module helpers
def _pick_seed(seed: int | None) -> int:
    return random.randint(1, 10**9) if seed is None else seed


def _last(before: Game, move: Move) -> dict[str, Any]:
    """What the front end needs to animate ``move`` (played on the position ``before``);
    ``turned``: the columns where a face-down card turned up with it (docs/rules.md §3.10)."""
    if move.source == "stock":
        return {"source": "stock", "targets": [], "cards": [], "turned": []}
    return {
        "source": move.source,
        "targets": views.resolve_targets(before, move),
        "cards": [str(c) for c in views.moving_cards(before, move)],
        "turned": views.turned_up(before, before.after(move)) if any(before.face_down) else [],
    }


def _as_saved_game(value: Any) -> Game | None:
    if isinstance(value, Game):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(".json")):
        return Game.load(value)
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return Game.from_json(value)
    return None


def _as_move(move: Any) -> Move:
    """A :class:`Move` from a Move or its notation; a TypeError for anything else."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"a move is a Move or its notation such as '3>5', not {move!r:.40}")


def _check_line(game: Game, moves: list[Move]) -> None:
    """Raise IllegalMoveError, naming the move, unless ``moves`` play in turn from ``game``."""
    trial = game.copy()
    for ply, move in enumerate(moves, 1):
        try:
            trial.play(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {ply} of the line, {move}: {exc}") from None
