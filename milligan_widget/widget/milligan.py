"""MilliganWidget: play Miss Milligan in JupyterLab, in sync with the Python engine.

Python is the single source of truth. The front end sends one custom message per
player action (a *request*, :mod:`.requests`); the widget checks it, applies it to
:attr:`game` through the engine, and answers with one ``hold_sync`` update of the ``view``
trait. A malformed or illegal request is refused with a reason and changes nothing.

This module is the widget class: the traits, the bundle, the public API and the request
path. Each public method, and each request once parsed, passes the one gate,
:meth:`~.table.Table.require` (does the mode on show take it?), and is done by one room on
the :class:`~.table.Table`: :class:`~.playing.Playing` (moves, undo, New game, Restart),
:class:`~.teaching.Lessons` and :class:`~.teaching.Viewer` (lesson mode, the replay viewer),
:class:`~.helping.Helping` (the solver's tools) or :class:`~.keeping.Keeping` (Save, Open,
Resume, Statistics). What it changes comes back through the one door, :meth:`_send_frame`.

>>> widget = MilliganWidget(seed=8, stats=False, autosave=False)
>>> widget.deal(), widget.view["stats"]["moves"], widget.undo.__doc__.split(" (")[0]
(Move('d'), 1, 'Take back the last move')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget.analysis import Judgement, Review
from milligan_widget.engine import Game, IllegalMoveError, Move, Rules
from milligan_widget.search import solver
from milligan_widget.studies.stats import Stats, default_folder
from milligan_widget.teaching.lessons import Feedback, Lesson, LessonRun
from milligan_widget.widget import modes, requests
from milligan_widget.widget.assistant import (
    HINT_TIME,
    NO_ANALYSIS,
    THINK_TIME,
    WINNABLE_TIME,
    HonestBudget,
)
from milligan_widget.widget.assistant.jobs import check_seconds
from milligan_widget.widget.assistant.review import NO_REVIEW, ReviewSettings
from milligan_widget.widget.helping import Helping
from milligan_widget.widget.keeping import Keeping
from milligan_widget.widget.lock import locked as _locked
from milligan_widget.widget.playing import DealRefused, Playing, pick_seed
from milligan_widget.widget.scores import played_peeking
from milligan_widget.widget.storage import Autosave, FileRefused, SaveFolder, notebook_key
from milligan_widget.widget.table import MAX_SET_ASIDE, Frame, MoveCallback, Table
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


def _checked_bool(value: Any, name: str) -> bool:
    """``value`` if it is True or False; a TypeError in a player's words if not."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} is True or False, not {value!r:.40}")
    return value


def _said(error: Exception, limit: int = 200) -> str:
    """What ``error`` says, cut to ``limit`` characters (or its type, if it cannot say)."""
    try:
        text = str(error)
    except Exception:
        text = ""
    text = text or type(error).__name__
    return text if len(text) <= limit else text[:limit] + "…"


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
    #: The game review in the replay viewer (:meth:`review`): its progress, each move's
    #: verdict and honest chance, the turning point and the mistakes ({"state": None}: none).
    game_review: traitlets.Dict[str, Any] = traitlets.Dict(NO_REVIEW).tag(sync=True)

    def __init__(
        self,
        seed: int | None = None,
        rules: str | Rules = "classic",
        *,
        game: Game | None = None,
        lesson: Lesson | LessonRun | None = None,
        replay_viewer: bool = False,
        peek: bool = False,
        honest: HonestBudget | None = None,
        hint_time: float = HINT_TIME,
        check_winnable: bool = False,
        coach: bool = False,
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
            self._send_frame,
            stats=Stats() if stats is True else stats or None,
            autosave=key,
            hint_time=hint_time,
            log=self.log,
        )
        self._lock = table.lock
        if honest is not None:
            table.assistant.honest = honest
        table.assistant.set_peek(bool(peek))
        table.card.peek = table.card.peek or bool(peek)  # a game saved peeking stays so
        self.winnable_time = winnable_time
        table.assistant.indicator.on = bool(check_winnable)
        table.assistant.coach.switch(_checked_bool(coach, "coach"))
        self._playing, self._lessons = Playing(table), Lessons(table)
        self._viewer, self._helping = Viewer(table), Helping(table)
        self._keeping = Keeping(table, SaveFolder())
        #: What each move of a review started from the browser (the Review button) spends.
        self.review_settings = ReviewSettings()
        self.on_msg(self._on_custom_msg)
        with self._lock:
            table.publish(message=table.welcome(), rules_changed=True, panel_changed=True)
            if lesson is not None:
                self.start_lesson(lesson)
            elif replay_viewer:
                self.show_replay()
            self._keeping.offer_resume()

    def _send_frame(self, frame: Frame) -> None:
        """The one door out: the traits of the table's frame, set in one update."""
        with self.hold_sync():
            for name, value in frame.changes():
                setattr(self, name, value)

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
        """The lesson in progress (a :class:`~.teaching.lessons.LessonRun`), if any."""
        return self._table.lesson_run

    @property
    def hint_time(self) -> float:
        """Seconds the solver has for a hint (0: the greedy heuristic alone, at once)."""
        return self._table.assistant.hints.seconds

    @hint_time.setter
    def hint_time(self, value: float) -> None:
        self._table.assistant.hints.seconds = value

    @property
    def winnable_time(self) -> float:
        """Seconds the solver has to check "still winnable?" after each move."""
        return self._table.assistant.indicator.seconds

    @winnable_time.setter
    def winnable_time(self, value: float) -> None:
        self._table.assistant.indicator.seconds = value

    @property
    def peek(self) -> bool:
        """Whether the help may use the hidden cards. Off (the default, fair play): Hint
        and the indicator look only at what the player can see (the stock's order and the
        face-down cards are sampled: :mod:`milligan_widget.analysis`). On: they come from
        the solver, which knows the stock, and say so; a game played with peek on at any
        time counts as peeked in the statistics. The toolbar's "⋯" menu toggles it."""
        return self._table.assistant.peek

    @peek.setter
    @_locked
    def peek(self, on: bool) -> None:
        if not isinstance(on, bool):
            raise TypeError(f"peek is True or False, not {on!r:.40}")
        self._table.set_peek(on)

    @property
    def check_winnable(self) -> bool:
        """Whether the "still winnable?" indicator is on: after each move the solver checks
        the position in the background for :attr:`winnable_time` seconds and the toolbar
        shows "checking…", then "winnable ✓", "lost for good ✗" or "unknown ?" ("winnable"
        at once on a winning line found before; a check for a position left meanwhile is
        stopped)."""
        return self._table.assistant.indicator.on

    @check_winnable.setter
    def check_winnable(self, on: bool) -> None:
        self._table.assistant.check_winnable(on)

    @property
    def coach(self) -> bool:
        """Whether the live coach is on: after each move of the player's game (by gesture,
        keyboard or :meth:`play`) it judges the move in the background, honestly (from what
        the player saw before it, on the scale best, good, inaccuracy, mistake, blunder),
        and the status bar says it, with the better move for an inaccuracy or worse (Show
        lights it; Undo takes the move back). :attr:`coach_log` keeps the judgements. The
        "⋯" menu's Coach toggles it; refused in a lesson or the replay viewer. A game played
        with it counts as coached in the statistics (not as peeked: it reads no hidden card)."""
        return self._table.assistant.coach.on

    @coach.setter
    @_locked
    def coach(self, on: bool) -> None:
        on = _checked_bool(on, "coach")
        self._table.require("coach")
        self._table.assistant.coach.switch(on)
        words = "The coach is on: each move is judged as you play it." if on else "Coach off."
        self._table.publish(message=words)

    @property
    def coach_log(self) -> tuple[Judgement, ...]:
        """The coach's judgements of the moves of the game on show, one per judged move in
        the order played: each a frozen :class:`~.analysis.judge.Judgement` with ``ply``
        (the move's index in the game's history), ``move`` (notation), ``label``,
        ``chance_before``, ``chance_after``, ``better`` (notation or None) and
        ``better_chance``. Undo drops the judgement of the move undone; a new game clears
        it. :meth:`wait` waits for the judgements still to come."""
        return tuple(self._table.assistant.coach.log)

    @property
    def known_win(self) -> tuple[Move, ...] | None:
        """The moves of a win the solver found (a hint, the indicator, Think longer or the
        solution) from the position on show, if it is on one; else None."""
        return self._table.assistant.known_win()

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """The front end's writes: only to the traits it owns (the view, the panel, the
        analysis and the rules are Python's, whatever a page sends)."""
        super().set_state({k: v for k, v in sync_data.items() if k in self.FRONT_END_TRAITS})

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
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
    # Each public method holds the widget's lock (but those that may wait for the solver or
    # pause), passes the gate (Table.require: does the mode on show take it?) and hands the
    # call to the room that does it.
    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its notation such as ``"3>5"``).

        Raises :class:`IllegalMoveError` (and shows the reason) when the engine refuses. In
        a lesson the move is checked against the task (see :meth:`attempt`): a move that is
        not the task is refused the same way.
        """
        with self._lock:
            self._table.require("move")
            return self._playing.play(move)

    def deal(self) -> Move:
        """Deal a row from the stock."""
        with self._lock:
            self._table.require("deal")
            return self._playing.deal()

    def undo(self) -> Move | None:
        """Take back the last move (in a lesson: the last move of this step) and return it.

        At the start of a game that :meth:`restart` or :meth:`new_game` put in place of
        another, Undo takes that back: the game before comes back as it was (its moves, redo
        list and comments), and this returns None.
        """
        with self._lock:
            self._table.require("undo")
            return self._playing.undo()

    def redo(self) -> Move:
        """Play again the last undone move."""
        with self._lock:
            self._table.require("redo")
            return self._playing.redo()

    def autoplay(self) -> list[Move]:
        """Play every safe card to the foundations."""
        with self._lock:
            self._table.require("auto")
            return self._playing.autoplay()

    def new_game(
        self,
        seed: int | None = None,
        rules: str | Rules | None = None,
        difficulty: str | None = None,
    ) -> Game:
        """Start a new deal (random when ``seed`` is None), with these rules or the same.

        ``difficulty``: ``"any"`` (or None: a random deal), ``"winnable"`` (a deal the
        solver, which knows the stock, won), or ``"easy"``, ``"medium"`` or ``"hard"`` (a
        deal the solver won, banded by how far a greedy player gets on the whole deal):
        picked from the table of deals shipped with the package
        (:mod:`milligan_widget.studies.difficulty`), never solved while you wait. The status
        bar then says the deal's difficulty. A difficulty these rules do not have (custom rules
        have none), or a ``seed`` with a difficulty, is refused with a ValueError that the
        panel shows too, and nothing changes.

        Undo at the start of the new game brings back the game it replaced, as it was: one
        Undo for each New game, an untouched deal too (a player who asks for deal after deal
        gets each back in turn), but not a won game (it is over). This leaves a lesson or the
        replay viewer."""
        with self._lock:
            return self._playing.new_game(seed, rules, difficulty)

    def restart(self) -> None:
        """Back to the start of this deal (in a lesson: of this step).

        Undo at the start takes the restart back: the game comes back as it was, with its
        moves, redo list and comments (so do the restarts before it, one Undo each)."""
        with self._lock:
            self._table.require("restart")
            self._playing.restart()

    def replay(self, moves: Game | str | Path | Iterable[Move | str], delay: float = 0.3) -> None:
        """Step visibly through moves, pausing ``delay`` seconds after each.

        A saved game (a :class:`Game`, its JSON text or a path to it) is replayed from
        its deal, with its comments; a list of moves is played on from the current position
        (checked first: with an illegal move anywhere, nothing is played).
        See :meth:`show_replay` for a viewer that steps both ways.
        """
        self._playing.replay(moves, delay)  # not under the lock: it pauses between moves

    def goto(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the game (by undo and redo), or
        in the replay viewer of the replay (0: the deal)."""
        with self._lock:
            if self._table.mode.watched:
                self._viewer.step_to(n)
                return
            self._table.require("goto")
            self._playing.goto(n)

    step_to = goto

    def save(self, path: str | Path) -> None:
        """Save the game (deal, rules, history and comments) as JSON, atomically: an
        interrupted save leaves the file as it was (:meth:`Game.save`). A game played
        peeking is saved with ``{"peek": true}`` in its meta, so it still counts as peeked
        when it is opened again."""
        with self._lock:
            game = self._keeping.kept_game()
        game.save(path)

    def to_html(self, path: str | Path | None = None) -> str:
        """The game on show as one self-contained page that works offline, with a replay
        viewer (:meth:`Game.to_html`), written to ``path`` too when given; in the replay
        viewer, the whole line being replayed."""
        game = self.game
        if self._table.mode.watched:
            game = game.copy()
            while game.can_redo:
                game.redo()
        return game.to_html(path)

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> MilliganWidget:
        """A widget showing a game saved by :meth:`save` (``replay_viewer=True``: in the
        replay viewer, at the deal)."""
        game = Game.load(path)
        kwargs.setdefault("peek", played_peeking(game))  # it goes on as it was played
        return cls(game=game, **kwargs)

    @classmethod
    def resume(cls, autosave: str | None = None, **kwargs: Any) -> MilliganWidget:
        """A widget with the game auto-saved under ``autosave`` (default: this notebook's
        key), where it was: after a kernel restart or a re-run cell, nothing is lost."""
        key = autosave or notebook_key() or "notebook"
        keeper = Autosave(default_folder(), key)
        game = keeper.read()
        if game is None:
            raise ValueError(keeper.problem or f"No game is kept for {key!r} to resume.")
        kwargs.setdefault("peek", keeper.kept_peek)  # as it was played
        return cls(game=game, autosave=key, **kwargs)

    def on_move(self, callback: MoveCallback, remove: bool = False) -> None:
        """Call ``callback(move)`` after every move played (browser or Python)."""
        if remove:
            self._table.callbacks.remove(callback)
        else:
            self._table.callbacks.append(callback)

    # ------------------------------------------------------ Save, Open, Statistics
    def quick_save(self) -> Path:
        """The toolbar's Save: write the game in the notebook's folder under a name of its
        own (its deal and the time, ``milligan-deal-8-2026-12-01-1154.json``); the path."""
        with self._lock:
            return self._keeping.quick_save()

    def saved_games(self) -> list[dict[str, Any]]:
        """The toolbar's Open: the saved games in the notebook's folder, newest first, each
        with its name, deal, rules, moves, status and date (the panel lists them)."""
        with self._lock:
            return self._keeping.saved_games()

    def open_saved(self, name: str) -> Game:
        """Open the save ``name`` (a file name :meth:`saved_games` lists) in place of the
        game on show, which Undo brings back if it was in progress (as after New game)."""
        with self._lock:
            return self._keeping.open_saved(name)

    def take_up_offer(self, accept: bool = True) -> None:
        """Resume the game auto-saved before (``accept``), or forget the offer."""
        with self._lock:
            self._keeping.take_up_offer(accept)

    def show_statistics(self) -> dict[str, Any]:
        """Open the Statistics panel: per preset, games played and won, the win rate with
        its 95% interval, streaks, best time and fewest moves, and the latest games (see
        :mod:`milligan_widget.studies.stats`). Returns what it shows."""
        with self._lock:
            return self._keeping.show_statistics()

    # --------------------------------------------------- lessons and the replay viewer
    def start_lesson(self, lesson: Lesson | LessonRun, start: int = 0) -> LessonRun:
        """Teach ``lesson`` (e.g. :func:`~milligan_widget.teaching.tutorial.learn_the_rules`): the
        layout shows each step's position and a lesson panel; every move is checked against
        the step's task and explained. :meth:`stop_lesson` brings the game back."""
        with self._lock:
            return self._lessons.start_lesson(lesson, start)

    def stop_lesson(self) -> None:
        """Leave the lesson and show the game that was on show before it."""
        with self._lock:
            self._lessons.stop_lesson()

    def attempt(self, move: Move | str) -> Feedback:
        """Try ``move`` on the lesson's step: it is played only if it is (part of) the task.

        Returns the :class:`~milligan_widget.teaching.lessons.Feedback` and shows its message."""
        with self._lock:
            return self._lessons.attempt(move)

    def next_step(self) -> bool:
        """Go on to the lesson's next step (done or not); False after the last one."""
        with self._lock:
            return self._lessons.next_step()

    def previous_step(self) -> bool:
        """Go back one step; False at the first."""
        with self._lock:
            return self._lessons.previous_step()

    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        with self._lock:
            self._lessons.restart_step()

    def goto_step(self, index: int) -> None:
        """Go to step ``index`` of the lesson (from 0), freshly staged."""
        with self._lock:
            self._lessons.goto_step(index)

    def show_replay(self, game: Game | str | Path | None = None, ply: int = 0) -> None:
        """Show a game's moves one at a time, with a move list, first / previous / next /
        last buttons and a slider. ``game``: a :class:`Game`, saved JSON text or a path to a
        saved game (default: the game on show). :meth:`step_to` moves from Python;
        :meth:`stop_replay` plays on from the position shown."""
        with self._lock:
            self._viewer.show_replay(game, ply)

    def review(
        self,
        game: Game | str | Path | None = None,
        *,
        wait: bool = False,
        time_limit: float | None = None,
        samples: int | None = None,
        node_limit: int | None = None,
        seed: int | None = None,
    ) -> Review | None:
        """Review a game move by move and show it in the replay viewer: beside each move
        the verdict of the solver, which knows the stock, and the honest chance to win from
        what you could see; the turning point (the move after which the deal could no longer
        be won), the common mistakes, and a chart of the chance over the moves (click a
        point to go to that move).

        ``game``: a :class:`Game`, its saved JSON text or a path to a save (default: the
        game on show; in the replay viewer, the whole game being replayed). The review runs
        in the background, with its progress shown; Stop (or :meth:`stop`) ends it and keeps
        the moves done, leaving the viewer or a new game drops it. Each move gets
        ``time_limit`` seconds, ``samples`` sampled stocks and ``node_limit`` positions per
        solve (default: :attr:`review_settings`). Reviewing a game still in play with Peek
        off counts it as peeked. Returns at once (None), or with ``wait`` the
        :class:`~milligan_widget.Review` once done. A game with no moves, or
        with more than 2,000, is refused (shown, and raised as a ValueError).

        >>> widget = MilliganWidget(game=Game.new(8).after("d"), stats=False, autosave=False)
        >>> done = widget.review(wait=True, time_limit=0.1, samples=2, node_limit=500, seed=1)
        >>> widget.mode, len(done.entries), widget.game_review["state"]
        ('replay', 1, 'done')
        """
        base = self.review_settings
        settings = ReviewSettings(
            base.time_limit if time_limit is None else time_limit,
            base.samples if samples is None else samples,
            base.node_limit if node_limit is None else node_limit,
            base.seed if seed is None else seed,
        )
        with self._lock:
            self._table.require("review")
            job = self._viewer.review(game, settings)
        if not wait:
            return None
        job.join()
        return job.review()

    @property
    def last_review(self) -> Review | None:
        """The review shown in the replay viewer (the moves done so far), or None."""
        job = self._table.assistant.reviewer.job
        return None if job is None else job.review()

    def stop_replay(self) -> None:
        """Close the replay viewer and play on from the position shown (the later moves
        stay available to redo)."""
        with self._lock:
            self._viewer.stop_replay()

    # -------------------------------------------------------------- the solver's tools
    # Not under the lock: a hint or a solution may wait for the solver's thread.
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
        self._table.require("hint")
        return self._helping.hint(wait)

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
        self._table.require("think")
        return self._helping.think_longer(budget, wait)

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
        self._table.require("solution")
        self._helping.show_solution(time_limit, delay, wait)

    def finish(self, delay: float = 0.12, wait: bool = False) -> list[Move]:
        """Play every card left home, one every ``delay`` seconds, when the stock is empty
        and nothing else is needed (:meth:`Game.finish_moves`); the toolbar's Finish. Returns
        the moves (none when there is more to do: the message says so). Stop stops it."""
        self._table.require("finish")
        return self._helping.finish(delay, wait)

    def stop(self) -> bool:
        """Stop :meth:`think_longer`, the solution playing back (:meth:`show_solution`) or
        the :meth:`review` (keeping the moves reviewed); False if none was running."""
        return self._helping.stop()

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until the hint, Think longer, the solution playback and the indicator's
        checks are done, stopped ones too, the game is auto-saved and the games counted are
        written in the statistics (for scripts and tests); False on timeout."""
        return self._helping.wait(timeout)

    # ------------------------------------------------------------ request handling
    @_locked
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one request from the front end; never raises."""
        self._table.assistant.way.request()  # the background jobs give way to it
        try:
            self._handle(content)
        except requests.RequestError as exc:
            self._table.refuse(f"Request refused: {exc}")
        except (IllegalMoveError, FileRefused, DealRefused):
            pass  # already shown by the room that refused it
        except ValueError as exc:
            self._table.refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            # A bounded summary, never the content: its repr may be huge or fail itself.
            self.log.exception("MilliganWidget request failed: %s", requests.summary(content))
            self._table.refuse(f"Internal error: {_said(exc)}")

    def _handle(self, content: Any) -> None:
        """The request path: parse the request (a malformed one changes nothing, not even a
        solution playing back), pass the gate (does the mode on show take it?), then the
        room does it."""
        table = self._table
        mode, run = table.mode, table.lesson_run
        steps = len(run.lesson.steps) if run is not None else 0
        count = len(mode.moves) if isinstance(mode, modes.Replay) else 0
        request = requests.parse(content, self.game, count, steps)
        table.require(request.kind)
        if request.kind not in ("stop", "winnable", "peek", "coach", "stats", "review", "hold"):
            table.assistant.cancel_solution()  # the player takes over from the solution
        self._handlers()[request.kind](request)

    def _handlers(self) -> dict[str, Callable[[requests.Request], object]]:
        """What each request type does, given the checked request (the gate passed)."""
        playing, lessons, viewer = self._playing, self._lessons, self._viewer
        helping, keeping = self._helping, self._keeping
        return {
            "move": lambda r: self._table.apply(r.the_move()),
            "deal": lambda _: playing.deal(),
            "undo": lambda _: playing.undo(),
            "redo": lambda _: playing.redo(),
            "hint": lambda _: helping.hint(wait=False),
            "think": lambda _: helping.think_longer(self._table.assistant.think_budget()),
            "solution": lambda _: helping.show_solution(),
            "stop": lambda _: helping.stop() or self._table.publish(message="Nothing to stop."),
            "winnable": lambda r: setattr(self, "check_winnable", r.on),
            "peek": lambda r: setattr(self, "peek", r.on),
            "coach": lambda r: setattr(self, "coach", r.on),
            "better": lambda _: playing.show_better(),
            "auto": lambda _: playing.autoplay(),
            "finish": lambda _: helping.finish(),
            "stats": lambda _: keeping.show_statistics(),
            "save": lambda _: keeping.quick_save(),
            "files": lambda _: keeping.saved_games(),
            "open": lambda r: keeping.open_saved(r.name),
            "resume": lambda r: keeping.take_up_offer(r.on),
            "review": lambda _: viewer.review(None, self.review_settings),
            "restart": lambda _: playing.restart(),
            "new": lambda r: playing.new_game(r.seed, r.rules, r.difficulty),
            "next": lambda _: lessons.next_when_done(),
            "previous": lambda _: lessons.previous_step(),
            "goto_step": lambda r: lessons.goto_step(r.number),
            "seek": lambda r: viewer.step_to(r.number),
            "close": lambda _: lessons.stop_lesson() if self.lesson_run else viewer.stop_replay(),
            "hold": lambda _: self._table.assistant.way.hold(),
        }
