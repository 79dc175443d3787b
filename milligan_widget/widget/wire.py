"""MilliganWidget: play Miss Milligan in JupyterLab, in sync with the Python engine.

Python is the single source of truth. The front end sends one custom message per
player action (a *request*, :mod:`.requests`); the widget checks it, applies it to
:attr:`game` through the engine, and answers with one ``hold_sync`` update of the ``view``
trait. A malformed or illegal request is refused with a reason and changes nothing.

Three modes (:mod:`.modes`) share that path: play; a *lesson*
(:meth:`MilliganWidget.start_lesson`), where every move goes through
:meth:`LessonRun.attempt` and a wrong one is refused like an illegal one; and the *replay
viewer* (:meth:`MilliganWidget.show_replay`), which steps through a game's moves with the
engine's undo/redo. A mode's fixed data (the lesson's step titles, the replay's move list)
goes in the ``panel`` trait once, when the mode starts; each view carries only where it is.

The solver's work (hints, "still winnable?", Think longer, the solution) belongs to the
widget's :class:`~.assistant.Assistant`, which runs it in the background and shows what it
finds through the widget's publishing. Restart and New game can be undone: the game they
replace is set aside as it was (:mod:`.setaside`).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules, solver
from milligan_widget.lessons import Feedback, Lesson, LessonRun
from milligan_widget.stats import Stats, default_folder
from milligan_widget.widget import modes, requests
from milligan_widget.widget import view as views
from milligan_widget.widget.assistant import (
    HINT_TIME,
    NO_ANALYSIS,
    THINK_TIME,
    WINNABLE_TIME,
    Assistant,
    Host,
)
from milligan_widget.widget.files import Autosave, FileRefused, SaveFolder, notebook_key
from milligan_widget.widget.jobs import Key, check_seconds
from milligan_widget.widget.lock import WidgetLock
from milligan_widget.widget.lock import locked as _locked
from milligan_widget.widget.memory import NO_LINE, WinningLine
from milligan_widget.widget.modes import NOT_IN_LESSON, NOT_IN_REPLAY, ModeError
from milligan_widget.widget.records import Scorecard, Scorekeeper
from milligan_widget.widget.setaside import SetAside, SetAsideGames
from milligan_widget.widget.words import about, sentence
from milligan_widget.widget.words import moves as _moves

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


class MilliganWidget(anywidget.AnyWidget):
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
    #: What the Statistics panel shows, set when it is opened (:meth:`show_statistics`).
    statistics = traitlets.Dict({}).tag(sync=True)
    #: What the Open panel lists (:meth:`saved_games`): names and summaries, no deck.
    files = traitlets.Dict({}).tag(sync=True)

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
        stats: bool | Stats = True,
        autosave: bool | str = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._lock = WidgetLock()
        self._closed = False
        self._assistant = Assistant(self._host(), hint_time)
        self.winnable_time = winnable_time
        self._assistant.indicator.on = bool(check_winnable)
        # Games a restart or a new game replaced, which Undo brings back (newest last).
        self._set_aside = SetAsideGames(MAX_SET_ASIDE)
        self._callbacks: list[MoveCallback] = []
        self._rev = 0
        self._shown_rules: Rules | None = None
        # Every game that ends or is left counts in the statistics (``stats=False``: none).
        self._keeper = Scorekeeper(Stats() if stats is True else stats or None)
        self._card: Scorecard | None = None
        self._saves = SaveFolder()
        # The game in progress is kept after every move, for Resume after a kernel restart.
        key = autosave if isinstance(autosave, str) else (notebook_key() if autosave else None)
        self._autosave = Autosave(default_folder(), key) if key else None
        # The game auto-saved before on this key, offered to resume (read before this
        # widget's own first move can replace it).
        self._offer = self._autosave.read() if self._autosave is not None else None
        self.on_msg(self._on_custom_msg)
        self.game = game if game is not None else Game.new(_pick_seed(seed), rules)
        if lesson is not None:
            self.start_lesson(lesson)
        elif replay_viewer:
            self.show_replay()
        self._offer_resume()

    def _host(self) -> Host:
        """What the assistant may read and do."""
        return Host(
            lock=self._lock,
            game=lambda: self.game,
            player_game=lambda: self._game,
            position=self._position,
            publish=self._publish,
            play=lambda move, prefix: self._apply(move, prefix=prefix),
            show_analysis=functools.partial(setattr, self, "analysis"),
            log=self.log,
        )

    @property
    def game(self) -> Game:
        """The engine's game on show (in a lesson: the step's position); assigning another
        game leaves the lesson or the replay viewer and shows it at once."""
        return self._mode.game

    @game.setter
    @_locked
    def game(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"widget.game takes a Game, not {type(game).__name__}")
        self._set_aside.clear()  # Undo does not go back past a game assigned
        self._leave()
        self._switch_to(game)
        self._publish(message=self._welcome(), rules_changed=True, panel_changed=True)

    def _switch_to(
        self, game: Game, card: Scorecard | None = None, line: WinningLine = NO_LINE
    ) -> None:
        """Put ``game`` on show in play mode (leaving a lesson or the replay viewer), with
        the winning ``line`` remembered for it and its scorecard (its clock and counters:
        a new one if None); not published."""
        self._assistant.switch(line)
        self._game, self._mode = game, modes.Play(game)
        self._card = Scorecard() if card is None else card

    def _leave(self) -> None:
        """The player's game is left for another deal: it counts as abandoned if in play."""
        if self._card is not None and self.mode != "replay":
            self._keeper.left(self._game, self._card)

    @property
    def hint_time(self) -> float:
        """Seconds the solver has for a hint (0: the greedy heuristic alone, at once)."""
        return self._assistant.hint_time

    @hint_time.setter
    def hint_time(self, value: float) -> None:
        self._assistant.hint_time = value

    @property
    def winnable_time(self) -> float:
        """Seconds the solver has to check "still winnable?" after each move."""
        return self._assistant.winnable_time

    @winnable_time.setter
    def winnable_time(self, value: float) -> None:
        self._assistant.winnable_time = value

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
            self._assistant.close()
        self._assistant.join(timeout=10)
        super().close()

    @property
    def mode(self) -> str:
        """``"play"``, ``"lesson"`` (see :meth:`start_lesson`) or ``"replay"`` (see
        :meth:`show_replay`)."""
        return self._mode.name

    @property
    def lesson_run(self) -> LessonRun | None:
        """The lesson in progress (a :class:`~milligan_widget.lessons.LessonRun`), if any."""
        return self._mode.run if isinstance(self._mode, modes.Lesson) else None

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
            parsed = requests.as_move(move)
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
        run = self.lesson_run
        if self.game.can_undo:
            move = run.undo() if run is not None else self.game.undo()
            if run is None and self._card is not None:
                self._card.undos += 1
            self._publish(message=f"Undone: {self.game.describe(move)}")
            return move
        entry = self._set_aside.replaced_by(self._game) if run is None else None
        if entry is None:
            reason = "Nothing to undo in this step." if run else "Nothing to undo."
            self._refuse(reason)
            raise IllegalMoveError(reason)
        self._set_aside.pop()
        self._switch_to(entry.game, entry.card, entry.line)
        self._publish(message=entry.undone())
        return None

    def _set_aside_for(
        self, action: str, game: Game, line: WinningLine = NO_LINE, behind: SetAside | None = None
    ) -> None:
        """Show ``game`` (not published) in place of the player's game, which Undo brings
        back from its start (``behind``: the game set aside before an untouched one, which
        Undo goes back to instead); ``line``: the remembered win, for ``game``."""
        if behind is None:
            line_now = self._assistant.line
            behind = SetAside(action, self._game, game, line_now, self._card)
        self._switch_to(game, self._card if action == "restart" else None, line)
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
        last = views.last_move(before, move)
        self._publish(message=f"Redone: {before.describe(move)}", last=last)
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
        last = views.last_move(before, moves[0]) if len(moves) == 1 else None
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
        self._leave()
        untouched = not (self._game.history or self._game.can_redo)
        behind = self._set_aside.replaced_by(self._game) if untouched else None
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
        if self.mode == "replay" or game.status == "won":
            return False
        return bool(game.history or game.can_redo)

    @_locked
    def restart(self) -> None:
        """Back to the start of this deal (in a lesson: of this step).

        Undo at the start takes the restart back: the game comes back as it was, with its
        moves, redo list and comments (so do the restarts before it, one Undo each)."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self.lesson_run is not None:
            self.restart_step()
            return
        old = self._game
        if not old.history and not old.can_redo:
            self._card = Scorecard()
            self._publish(message="Restarted this deal.")  # nothing to take back
            return
        fresh = old.copy()
        fresh.restart()
        self._set_aside_for("restart", fresh, self._assistant.line.keyed_for(fresh))
        back = f"goes back to move {len(old.history)}" if old.history else "brings back the redo"
        self._publish(message=f"Restarted this deal. Undo {back}.")

    @_locked
    def goto(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the history (undo/redo).

        In the replay viewer this is :meth:`step_to`."""
        if self.mode == "replay":
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
        its deal, with its comments; a list of moves is played on from the current position
        (checked first: with an illegal move anywhere, nothing is played).
        See :meth:`show_replay` for a viewer that steps both ways.
        """
        saved = requests.saved_game(moves)
        if saved is None:
            steps, comments = requests.as_line(self.game, moves), {}  # type: ignore[arg-type]
        else:
            steps, comments = list(saved.history), saved.comments
            start = saved.copy()
            start.restart()
            self.game = start
        first = len(self.game.history)
        for ply, move in enumerate(steps, first + 1):
            self._apply(move, comment=comments.get(ply))
            if delay > 0:
                time.sleep(delay)

    def save(self, path: str | Path) -> None:
        """Save the game (deal, rules, history and comments) as JSON, atomically: an
        interrupted save leaves the file as it was (:meth:`Game.save`)."""
        self.game.save(path)

    def to_html(self, path: str | Path | None = None) -> str:
        """The game on show as one self-contained page that works offline, with a replay
        viewer (:meth:`Game.to_html`), written to ``path`` too when given; in the replay
        viewer, the whole line being replayed."""
        game = self.game
        if self.mode == "replay":
            game = game.copy()
            while game.can_redo:
                game.redo()
        return game.to_html(path)

    @_locked
    def quick_save(self) -> Path:
        """The toolbar's Save: write the game in the notebook's folder under a name of its
        own (its deal and the time, ``milligan-deal-8-2026-12-01-1154.json``); the path."""
        try:
            path = self._saves.save(self.game)
        except FileRefused as exc:
            self._refuse(str(exc))
            raise
        self._publish(message=f"Saved as {path.name} (Open lists it).")
        return path

    @_locked
    def saved_games(self) -> list[dict[str, Any]]:
        """The toolbar's Open: the saved games in the notebook's folder, newest first, each
        with its name, deal, rules, moves, status and date (the panel lists them)."""
        entries = self._saves.entries()
        self.files = {"rev": self._rev, "folder": str(self._saves.path), "entries": entries}
        count = len(entries)
        self._publish(message=f"Open: {count} saved game{'s' * (count != 1)} in this folder.")
        return entries

    @_locked
    def open_saved(self, name: str) -> Game:
        """Open the save ``name`` (a file name :meth:`saved_games` lists) in place of the
        game on show, which Undo brings back if it was in progress (as after New game)."""
        try:
            game = self._saves.open(name)
        except FileRefused as exc:
            self._refuse(str(exc))
            raise
        self._take_up(game, f"Opened {name}")
        return game

    @classmethod
    def resume(cls, autosave: str | None = None, **kwargs: Any) -> MilliganWidget:
        """A widget with the game auto-saved under ``autosave`` (default: this notebook's
        key), where it was: after a kernel restart or a re-run cell, nothing is lost."""
        key = autosave or notebook_key() or "notebook"
        keeper = Autosave(default_folder(), key)
        game = keeper.read()
        if game is None:
            raise ValueError(keeper.problem or f"No game is kept for {key!r} to resume.")
        return cls(game=game, autosave=key, **kwargs)

    def _offer_resume(self) -> None:
        """Offer the game auto-saved on this key before, if it is in progress (and this
        widget plays); say why if it could not be read."""
        kept = self._offer
        if kept is None or kept.status != "playing" or kept == self._game or self.mode != "play":
            self._offer = None
        if self._autosave is not None and self._autosave.problem:
            self._refuse(self._autosave.problem)
        elif self._offer is not None:
            self._publish(message=self._welcome())

    @_locked
    def take_up_offer(self, accept: bool = True) -> None:
        """Resume the game auto-saved before (``accept``), or forget the offer."""
        kept, self._offer = self._offer, None
        if kept is None or not accept:
            self._publish(message="" if kept is None else "A fresh game then. Good luck!")
            return
        self._take_up(kept, "Resumed your last game")

    def _take_up(self, game: Game, words: str) -> None:
        """Show ``game`` in place of the player's, which Undo brings back if in progress."""
        self._leave()
        if self._in_progress():
            self._set_aside_for("open", game)
        else:
            self._set_aside.clear()
            self._switch_to(game)
        self._publish(message=f"{words}: {self._welcome()}", rules_changed=True,
                      panel_changed=True)  # fmt: skip

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
        self._assistant.switch()
        self._mode = modes.Lesson(run)
        self._publish(message="", panel_changed=True)
        return run

    @_locked
    def stop_lesson(self) -> None:
        """Leave the lesson and show the game that was on show before it."""
        if self.mode != "lesson":
            return
        self._mode = modes.Play(self._game)
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
        last = views.last_move(before, matched) if feedback.correct else None
        return self._lesson_feedback(feedback, last)

    @_locked
    def next_step(self) -> bool:
        """Go on to the lesson's next step (done or not); False after the last one."""
        moved = self._require_lesson().next_step() is not None
        self._publish(message="That was the last step." if not moved else "")
        return moved

    @_locked
    def previous_step(self) -> bool:
        """Go back one step; False at the first."""
        moved = self._require_lesson().previous_step() is not None
        self._publish(message="This is the first step." if not moved else "")
        return moved

    @_locked
    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        self._require_lesson().restart_step()
        self._publish(message="Step restarted.")

    @_locked
    def goto_step(self, index: int) -> None:
        """Go to step ``index`` of the lesson (from 0), freshly staged."""
        self._require_lesson().goto(index)
        self._publish(message="")

    def _require_lesson(self) -> LessonRun:
        run = self.lesson_run
        if run is None:
            raise ModeError("No lesson is running: start one with start_lesson(lesson).")
        return run

    def _lesson_feedback(self, feedback: Feedback, last: dict[str, Any] | None) -> Feedback:
        kind = feedback.kind if feedback.correct or not feedback.step_done else "wrong"
        self._publish(message=feedback.message, kind=kind, last=last)
        if feedback.correct and feedback.move is not None:
            self._notify(feedback.move)
        return feedback

    # ------------------------------------------------------------------ replay viewer
    @_locked
    def show_replay(self, game: Game | str | Path | None = None, ply: int = 0) -> None:
        """Show a game's moves one at a time, with a move list, first / previous / next /
        last buttons and a slider. ``game``: a :class:`Game`, saved JSON text or a path to a
        saved game (default: the game on show). :meth:`step_to` moves from Python;
        :meth:`stop_replay` plays on from the position shown."""
        saved = self.game if game is None else requests.saved_game(game)
        if saved is None:
            raise TypeError("show_replay needs a Game, its saved JSON text or a path to it")
        replay = modes.Replay.of(saved, ply)
        self._set_aside.clear()  # a replay is watched: Undo does not go back past it
        self._switch_to(replay.game)
        self._mode = replay
        self._publish(message=replay.message(), rules_changed=True, panel_changed=True)

    @_locked
    def step_to(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the replay (0: the deal)."""
        replay = self._mode
        if not isinstance(replay, modes.Replay):
            self.goto(n)
            return
        step = replay.seek(n)
        last = views.last_move(*step) if step is not None else None
        self._publish(message=replay.message(), last=last)

    @_locked
    def stop_replay(self) -> None:
        """Close the replay viewer and play on from the position shown (the later moves
        stay available to redo)."""
        if self.mode != "replay":
            return
        self._mode = modes.Play(self._game)
        self._publish(message="Play on from here.", panel_changed=True)

    # ------------------------------------------------------------------ the solver
    def hint(self, wait: bool = True) -> tuple[Move | None, str] | None:
        """Highlight a good move in the layout and say why; returns it too (with ``wait``).

        The solver has :attr:`hint_time` seconds (default 2): when it finds a win, its first
        move (so following the hint never throws away a win), else the greedy heuristic's
        move; the message begins with which one ("Solver: …" or "Heuristic: …"). The layout
        shows "thinking…" at once; the solver works in the background, and is stopped when
        the player leaves the position meanwhile (that hint is dropped). On a winning line
        the solver found before (a hint, the indicator or the solution), the answer is its
        next move, at once. ``wait=False`` returns at once (None), as a click in the browser
        does.

        In a lesson: the step's hint, with the move that does the next part of the task.
        """
        self._forbid_in("replay", NOT_IN_REPLAY)
        run = self.lesson_run
        if run is None:
            if self._card is not None and self.mode == "play":
                self._card.hints += 1
            return self._assistant.hint(wait)
        with self._lock:
            words, move = run.hint(), run.show()
            self._publish(message=f"Hint: {words}", kind="hint", hint=move)
        return move, words

    @property
    def check_winnable(self) -> bool:
        """Whether the "still winnable?" indicator is on: after each move the solver checks
        the position in the background for :attr:`winnable_time` seconds and the toolbar
        shows "checking…", then "winnable ✓", "lost for good ✗" or "unknown ?" ("winnable"
        at once on a winning line found before; a check for a position left meanwhile is
        stopped)."""
        return self._assistant.check_winnable

    @check_winnable.setter
    def check_winnable(self, on: bool) -> None:
        self._assistant.check_winnable = on

    def think_longer(
        self, seconds: float = THINK_TIME, wait: bool = False
    ) -> solver.SolveResult | None:
        """Give the solver ``seconds`` for the position on show, when a hint or the
        indicator found no answer in the time they had.

        It searches in the background; :attr:`analysis` shows "checking" with its progress
        ("thinking… 12 s, 130,000 positions", about every 0.5 s), then its verdict and why.
        A win is remembered: hints, the indicator and the solution answer at once on it.
        :meth:`stop` (the Stop button) stops it, and so does leaving the position. Returns
        at once (None) unless ``wait``: then the solver's result (None if it was stopped).
        The toolbar's Think longer gives 30 s, doubled on each press that ran out of time
        at the same position (up to 8 minutes).
        """
        budget = check_seconds(seconds, "seconds")
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["think"])
        return self._assistant.think_longer(budget, wait)

    def show_solution(
        self, time_limit: float = 10.0, delay: float = 0.4, wait: bool = False
    ) -> None:
        """Play the solver's solution back in the widget, from the position on show.

        The solver has ``time_limit`` seconds; then its moves are played one at a time, one
        every ``delay`` seconds, in the background (so the Stop button, :meth:`stop` and
        other clicks still work; any move by the player stops it too, the solver as well if
        it is still searching). On a winning line found before (by a hint, the indicator or
        a solution) it starts playing at once. Returns at once unless ``wait``. The browser
        sees each move only as it is played.
        """
        time_limit = check_seconds(time_limit, "time_limit")
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["solution"])
        self._card.solution_used = True
        job = self._assistant.show_solution(time_limit, delay)
        if wait:
            job.join()

    def finish(self, delay: float = 0.12, wait: bool = False) -> list[Move]:
        """Play every card left home, one every ``delay`` seconds, when the stock is empty
        and nothing else is needed (:meth:`Game.finish_moves`); the toolbar's Finish. Returns
        the moves (none when there is more to do: the message says so). Stop stops it."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        self._forbid_in("lesson", NOT_IN_LESSON["finish"])
        with self._lock:
            moves = self.game.finish_moves() or []
            if not moves:
                self._refuse("Finish is for the end: the stock is empty and only cards "
                             "going home are left.")  # fmt: skip
                return []
            job = self._assistant.play_back(moves, delay, "Finish")
        if wait:
            job.join()
        return moves

    @_locked
    def show_statistics(self) -> dict[str, Any]:
        """Open the Statistics panel: per preset, games played and won, the win rate with
        its 95% interval, streaks, best time and fewest moves, and the latest games (see
        :mod:`milligan_widget.stats`). Returns what it shows."""
        summary = self._keeper.summary()
        self.statistics = {**summary, "rev": self._rev}
        played = summary["played"]
        words = summary["problem"] or f"{played} game{'s' * (played != 1)} counted."
        self._publish(message=f"Statistics: {words}")
        return summary

    def stop(self) -> bool:
        """Stop :meth:`think_longer` or the solution playing back (:meth:`show_solution`);
        False if neither was running."""
        return self._assistant.stop()

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until the hint, Think longer, the solution playback and the indicator's
        checks are done, stopped ones too, and the game is auto-saved (for scripts and tests);
        False on timeout."""
        done = self._assistant.wait(timeout)
        return (self._autosave is None or self._autosave.flush(timeout)) and done

    @property
    def known_win(self) -> tuple[Move, ...] | None:
        """The moves of a win the solver found (a hint, the indicator, Think longer or the
        solution) from the position on show, if it is on one; else None."""
        return self._assistant.known_win()

    # ------------------------------------------------------------ request handling
    @_locked
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one request from the front end; never raises."""
        try:
            self._handle(content)
        except requests.RequestError as exc:
            self._refuse(f"Request refused: {exc}")
        except (IllegalMoveError, FileRefused):
            pass  # already shown by _apply / undo / redo / _forbid_in / the file room
        except ValueError as exc:
            self._refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            self.log.exception("MilliganWidget request %r failed", content)
            self._refuse(f"Internal error: {exc}")

    def _handle(self, content: Any) -> None:
        """Check the request first (a malformed one changes nothing, not even a solution
        playing back), then what the mode allows, then do it."""
        run, mode = self.lesson_run, self._mode
        steps = len(run.lesson.steps) if run is not None else 0
        count = len(mode.moves) if isinstance(mode, modes.Replay) else 0
        request = requests.parse(content, self.game, count, steps)
        reason = mode.refusal(request.kind)
        if reason is not None:
            self._forbid_in(mode.name, reason)
        if request.kind not in ("stop", "winnable", "stats"):
            self._assistant.cancel_solution()  # the player takes over from the solution
        self._handlers()[request.kind](request)

    def _handlers(self) -> dict[str, Callable[[requests.Request], Any]]:
        """What each request type does, given the checked request."""
        return {
            "move": lambda r: self._apply(r.move),
            "deal": lambda _: self.deal(),
            "undo": lambda _: self.undo(),
            "redo": lambda _: self.redo(),
            "hint": lambda _: self.hint(wait=False),
            "think": lambda _: self.think_longer(self._assistant.think_budget()),
            "solution": lambda _: self.show_solution(),
            "stop": lambda _: self.stop() or self._publish(message="Nothing to stop."),
            "winnable": lambda r: setattr(self, "check_winnable", r.on),
            "auto": lambda _: self.autoplay(),
            "finish": lambda _: self.finish(),
            "stats": lambda _: self.show_statistics(),
            "save": lambda _: self.quick_save(),
            "files": lambda _: self.saved_games(),
            "open": lambda r: self.open_saved(r.name),
            "resume": lambda r: self.take_up_offer(r.on),
            "restart": lambda _: self.restart(),
            "new": lambda r: self.new_game(r.seed, r.rules),
            "next": lambda _: self._next_when_done(),
            "previous": lambda _: self.previous_step(),
            "goto_step": lambda r: self.goto_step(r.number),
            "seek": lambda r: self.step_to(r.number),
            "close": lambda _: self.stop_lesson() if self.lesson_run else self.stop_replay(),
        }

    def _next_when_done(self) -> None:
        if not self._require_lesson().step_done:
            self._forbid_in("lesson", "Finish this step first: Hint shows the way.")
        self.next_step()

    def _apply(self, move: Move, comment: str | None = None, prefix: str = "") -> Move:
        """Play ``move`` through the engine and publish, or refuse with the reason.

        In a lesson the move goes through the lesson's check instead (:meth:`attempt`)."""
        if self.lesson_run is not None:
            feedback = self.attempt(move)
            if not feedback.correct or feedback.move is None:
                raise IllegalMoveError(feedback.message)
            return feedback.move
        game = self.game
        try:
            matched = self._engine_move(move)
            last = views.last_move(game, matched)
            description = game.describe(matched)
            played = game.play(matched)
        except IllegalMoveError as exc:
            self._refuse(str(exc))
            raise
        if comment:
            game.set_comment(comment)
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

    # ----------------------------------------------------------------- publishing
    def _position(self) -> Key:
        """What identifies the position on show (and the game it belongs to)."""
        # The moves themselves, not their text: a move hashes and compares as its text
        # does, and the key is built several times a move.
        return (self.mode, id(self.game), tuple(self.game.history))

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
        self._assistant.position_changed()
        self._rev += 1
        game = self.game
        message, kind, elapsed = self._outcome(sentence(message), kind)
        new_view = views.build_view(
            game, rev=self._rev, message=message, kind=kind, last=last, hint=hint, elapsed=elapsed
        )
        new_view["busy"] = self._assistant.busy
        if self.mode == "play":
            self._add_play_state(new_view)
            if self._autosave is not None and self._offer is None:
                # In the background (the player waits for the view, not for the disk); not
                # over the game offered to resume, until the player answers.
                self._autosave.write(self._game)
        self._mode.add_to(new_view)
        rules_changed = rules_changed or game.rules != self._shown_rules
        with self.hold_sync():
            if rules_changed:
                self._shown_rules = game.rules
                self.rules_info = views.rules_info(game.rules, PRESETS)
            if panel_changed:
                self.panel = self._mode.panel()
            self.view = new_view
            self._assistant.update_analysis()

    def _add_play_state(self, view: dict[str, Any]) -> None:
        """What play mode adds to the view: Undo of a restart or a new game, Finish, and
        the streak a win extends."""
        if not view["can_undo"] and self._set_aside.replaced_by(self.game):
            view["can_undo"] = True  # Undo takes back the restart or the new game
        view["can_finish"] = self.game.finish_moves() is not None
        view["streak"] = self._keeper.streak if view["status"] == "won" else None
        offer = self._offer
        view["resume"] = None if offer is None else f"Resume your last game: {about(offer)}?"

    def _outcome(self, message: str, kind: str) -> tuple[str, str, float | None]:
        """The message, its kind and the time played, once a game in play is won or lost
        (then it counts in the statistics)."""
        status = self.game.status
        if self.mode != "play" or status == "playing":
            return message, kind, None
        self._keeper.ended(self._game, self._card)
        problem = self._keeper.problem()
        if problem is not None:
            message = f"{message} ({problem})".strip()
        if status == "won":
            return message, "won", self._card.seconds()
        if kind == "info":
            return f"{message} No useful move is left.".strip(), "lost", None
        return message, kind, None

    def _welcome(self, greeting: str = "Good luck!") -> str:
        game = self.game
        name = game.rules.name or "custom rules"
        seed = f" #{game.seed}" if game.seed is not None else ""
        if game.history:
            return f"Game{seed} ({name}) after {_moves(len(game.history))}."
        if game.layout is not None:
            return f"A staged position ({name})."
        return f"New game{seed} ({name}). {greeting}"


def _pick_seed(seed: int | None) -> int:
    return random.randint(1, 10**9) if seed is None else seed
