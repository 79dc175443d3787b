"""MilliganWidget: play Miss Milligan in JupyterLab, in sync with the Python engine.

Python is the single source of truth. The front end sends one custom message per
player action (a *request*, :mod:`.requests`); the widget checks it, applies it to
:attr:`game` through the engine, and answers with one ``hold_sync`` update of the ``view``
trait. A malformed or illegal request is refused with a reason and changes nothing.

This module is the wire: the traits, the bundle, and the public API, which hands each call
to the room that does it, on one :class:`~.table.Table` (the game on show and its
publishing): :class:`~.playing.Playing` (moves, undo, New game, Restart),
:class:`~.teaching.Lessons` and :class:`~.teaching.Viewer` (lesson mode, the replay viewer),
:class:`~.advice.Advice` (the solver's tools) and :class:`~.keeping.Keeping` (Save, Open,
Resume, Statistics). A delegated method's signature and docstring are its room's.

>>> widget = MilliganWidget(seed=8, stats=False, autosave=False)
>>> widget.deal(), widget.view["stats"]["moves"], widget.undo.__doc__.split(" (")[0]
(Move('d'), 1, 'Take back the last move')
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import Game, IllegalMoveError, Move, Rules
from milligan_widget.lessons import Lesson, LessonRun
from milligan_widget.stats import Stats, default_folder
from milligan_widget.widget import modes, requests
from milligan_widget.widget.advice import Advice
from milligan_widget.widget.assistant import HINT_TIME, NO_ANALYSIS, WINNABLE_TIME
from milligan_widget.widget.files import Autosave, FileRefused, SaveFolder, notebook_key
from milligan_widget.widget.keeping import Keeping
from milligan_widget.widget.lock import locked as _locked
from milligan_widget.widget.playing import Playing, pick_seed
from milligan_widget.widget.table import MAX_SET_ASIDE, MoveCallback, Table
from milligan_widget.widget.teaching import Lessons, Viewer
from milligan_widget.widget.words import sentence

__all__ = ["MAX_SET_ASIDE", "MilliganWidget", "sentence"]

STATIC = Path(__file__).parent.parent / "static"


def _bundle(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise ImportError(
            f"The widget's front end {path} is missing: install the package with "
            "`pip install -e .` (it builds js/ with npm) or run `npm run build` in js/."
        )
    return path


def _delegate(room: str, method: Callable[..., Any], lock: bool = True) -> Callable[..., Any]:
    """A widget method that calls ``method`` on the widget's room ``room`` (holding the
    widget's lock unless ``lock`` is False); its name, signature and docstring are the
    room's, so ``help(widget.undo)`` reads as the room wrote it."""

    @functools.wraps(method)
    def call(self: MilliganWidget, *args: Any, **kwargs: Any) -> Any:
        if not lock:
            return method(getattr(self, room), *args, **kwargs)
        with self._lock:
            return method(getattr(self, room), *args, **kwargs)

    return call


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
        # Every game that ends or is left counts in the statistics (``stats=False``: none);
        # the game in progress is kept after every move, for Resume after a kernel restart.
        key = autosave if isinstance(autosave, str) else (notebook_key() if autosave else None)
        self._table = table = Table(
            game if game is not None else Game.new(pick_seed(seed), rules),
            self._show_table,
            stats=Stats() if stats is True else stats or None,
            autosave=key,
            hint_time=hint_time,
            show_analysis=functools.partial(setattr, self, "analysis"),
            log=self.log,
        )
        self._lock = table.lock
        self.winnable_time = winnable_time
        table.assistant.indicator.on = bool(check_winnable)
        self._playing, self._lessons = Playing(table), Lessons(table)
        self._viewer, self._advice = Viewer(table), Advice(table)
        self._keeping = Keeping(
            table, SaveFolder(), functools.partial(setattr, self, "files"),
            functools.partial(setattr, self, "statistics"),
        )  # fmt: skip
        self.on_msg(self._on_custom_msg)
        with self._lock:
            table.publish(message=table.welcome(), rules_changed=True, panel_changed=True)
            if lesson is not None:
                self.start_lesson(lesson)
            elif replay_viewer:
                self.show_replay()
            self._keeping.offer_resume()

    def _show_table(
        self, view: dict[str, Any], rules: dict[str, Any] | None, panel: dict[str, Any] | None
    ) -> None:
        """The table's new view (and rules, panel), with the analysis, in one update."""
        with self.hold_sync():
            if rules is not None:
                self.rules_info = rules
            if panel is not None:
                self.panel = panel
            self.view = view
            self._table.assistant.update_analysis()

    @property
    def game(self) -> Game:
        """The engine's game on show (in a lesson: the step's position); assigning another
        game leaves the lesson or the replay viewer and shows it at once."""
        return self._table.game

    @game.setter
    @_locked
    def game(self, game: Game) -> None:
        self._playing.show(game)

    @property
    def mode(self) -> str:
        """``"play"``, ``"lesson"`` (see :meth:`start_lesson`) or ``"replay"`` (see
        :meth:`show_replay`)."""
        return self._table.mode.name

    @property
    def lesson_run(self) -> LessonRun | None:
        """The lesson in progress (a :class:`~milligan_widget.lessons.LessonRun`), if any."""
        return self._table.lesson_run

    @property
    def hint_time(self) -> float:
        """Seconds the solver has for a hint (0: the greedy heuristic alone, at once)."""
        return self._table.assistant.hint_time

    @hint_time.setter
    def hint_time(self, value: float) -> None:
        self._table.assistant.hint_time = value

    @property
    def winnable_time(self) -> float:
        """Seconds the solver has to check "still winnable?" after each move."""
        return self._table.assistant.winnable_time

    @winnable_time.setter
    def winnable_time(self, value: float) -> None:
        self._table.assistant.winnable_time = value

    @property
    def check_winnable(self) -> bool:
        """Whether the "still winnable?" indicator is on: after each move the solver checks
        the position in the background for :attr:`winnable_time` seconds and the toolbar
        shows "checking…", then "winnable ✓", "lost for good ✗" or "unknown ?" ("winnable"
        at once on a winning line found before; a check for a position left meanwhile is
        stopped)."""
        return self._table.assistant.check_winnable

    @check_winnable.setter
    def check_winnable(self, on: bool) -> None:
        self._table.assistant.check_winnable = on

    @property
    def known_win(self) -> tuple[Move, ...] | None:
        """The moves of a win the solver found (a hint, the indicator, Think longer or the
        solution) from the position on show, if it is on one; else None."""
        return self._table.assistant.known_win()

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
        table = getattr(self, "_table", None)  # None when __init__ failed
        if table is not None:
            table.close()
        super().close()

    # ------------------------------------------------------------ the player's game
    play = _delegate("_playing", Playing.play)
    deal = _delegate("_playing", Playing.deal)
    undo = _delegate("_playing", Playing.undo)
    redo = _delegate("_playing", Playing.redo)
    autoplay = _delegate("_playing", Playing.autoplay)
    new_game = _delegate("_playing", Playing.new_game)
    restart = _delegate("_playing", Playing.restart)
    replay = _delegate("_playing", Playing.replay, lock=False)  # it pauses between moves

    @_locked
    def goto(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the game (by undo and redo), or
        in the replay viewer of the replay (0: the deal)."""
        if self.mode == "replay":
            self._viewer.step_to(n)
        else:
            self._playing.goto(n)

    step_to = goto

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

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> MilliganWidget:
        """A widget showing a game saved by :meth:`save` (``replay_viewer=True``: in the
        replay viewer, at the deal)."""
        return cls(game=Game.load(path), **kwargs)

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

    def on_move(self, callback: MoveCallback, remove: bool = False) -> None:
        """Call ``callback(move)`` after every move played (browser or Python)."""
        if remove:
            self._table.callbacks.remove(callback)
        else:
            self._table.callbacks.append(callback)

    # ------------------------------------------------------ Save, Open, Statistics
    quick_save = _delegate("_keeping", Keeping.quick_save)
    saved_games = _delegate("_keeping", Keeping.saved_games)
    open_saved = _delegate("_keeping", Keeping.open_saved)
    take_up_offer = _delegate("_keeping", Keeping.take_up_offer)
    show_statistics = _delegate("_keeping", Keeping.show_statistics)

    # --------------------------------------------------- lessons and the replay viewer
    start_lesson = _delegate("_lessons", Lessons.start_lesson)
    stop_lesson = _delegate("_lessons", Lessons.stop_lesson)
    attempt = _delegate("_lessons", Lessons.attempt)
    next_step = _delegate("_lessons", Lessons.next_step)
    previous_step = _delegate("_lessons", Lessons.previous_step)
    restart_step = _delegate("_lessons", Lessons.restart_step)
    goto_step = _delegate("_lessons", Lessons.goto_step)
    show_replay = _delegate("_viewer", Viewer.show_replay)
    stop_replay = _delegate("_viewer", Viewer.stop_replay)

    # -------------------------------------------------------------- the solver's tools
    # Not under the lock: a hint or a solution may wait for the solver's thread.
    hint = _delegate("_advice", Advice.hint, lock=False)
    think_longer = _delegate("_advice", Advice.think_longer, lock=False)
    show_solution = _delegate("_advice", Advice.show_solution, lock=False)
    finish = _delegate("_advice", Advice.finish, lock=False)
    stop = _delegate("_advice", Advice.stop, lock=False)
    wait = _delegate("_advice", Advice.wait, lock=False)

    # ------------------------------------------------------------ request handling
    @_locked
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one request from the front end; never raises."""
        try:
            self._handle(content)
        except requests.RequestError as exc:
            self._table.refuse(f"Request refused: {exc}")
        except (IllegalMoveError, FileRefused):
            pass  # already shown by the room that refused it
        except ValueError as exc:
            self._table.refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            self.log.exception("MilliganWidget request %r failed", content)
            self._table.refuse(f"Internal error: {exc}")

    def _handle(self, content: Any) -> None:
        """Check the request first (a malformed one changes nothing, not even a solution
        playing back), then what the mode allows, then do it."""
        table = self._table
        mode, run = table.mode, table.lesson_run
        steps = len(run.lesson.steps) if run is not None else 0
        count = len(mode.moves) if isinstance(mode, modes.Replay) else 0
        request = requests.parse(content, self.game, count, steps)
        reason = mode.refusal(request.kind)
        if reason is not None:
            table.forbid_in(mode.name, reason)
        if request.kind not in ("stop", "winnable", "stats"):
            table.assistant.cancel_solution()  # the player takes over from the solution
        self._handlers()[request.kind](request)

    def _handlers(self) -> dict[str, Callable[[requests.Request], Any]]:
        """What each request type does, given the checked request."""
        return {
            "move": lambda r: self._table.apply(r.move),
            "deal": lambda _: self.deal(),
            "undo": lambda _: self.undo(),
            "redo": lambda _: self.redo(),
            "hint": lambda _: self.hint(wait=False),
            "think": lambda _: self.think_longer(self._table.assistant.think_budget()),
            "solution": lambda _: self.show_solution(),
            "stop": lambda _: self.stop() or self._table.publish(message="Nothing to stop."),
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
            "next": lambda _: self._lessons.next_when_done(),
            "previous": lambda _: self.previous_step(),
            "goto_step": lambda r: self.goto_step(r.number),
            "seek": lambda r: self.step_to(r.number),
            "close": lambda _: self.stop_lesson() if self.lesson_run else self.stop_replay(),
        }
