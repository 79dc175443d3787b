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
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules
from milligan_widget import view as views
from milligan_widget.lessons import Feedback, Lesson, LessonRun

STATIC = Path(__file__).parent / "static"
MAX_SEED = 10**20 - 1
REQUEST_TYPES = (
    "move", "deal", "undo", "redo", "hint", "auto", "restart", "new",  # playing
    "next", "previous",  # lesson mode: the next or previous step
    "seek",  # replay viewer: show the position after ``ply`` moves
    "close",  # leave the lesson or the replay viewer
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

    def __init__(
        self,
        seed: int | None = None,
        rules: str | Rules = "classic",
        *,
        game: Game | None = None,
        lesson: Lesson | LessonRun | None = None,
        replay_viewer: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
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
    def game(self, game: Game) -> None:
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

    def deal(self) -> Move:
        """Deal a row from the stock."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        return self._apply(Move.deal())

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

    def hint(self) -> tuple[Move | None, str] | None:
        """Highlight a good move in the layout and say why; returns it too.

        In a lesson: the step's hint, with the move that does the next part of the task.
        """
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self._run is not None:
            words, move = self._run.hint(), self._run.show()
            self._publish(message=f"Hint: {words}", kind="hint", hint=move)
            return move, words
        found = self.game.hint()
        if found is None:
            self._publish(message="No useful move is left.", kind="hint")
            return None
        move, why = found
        self._publish(message=f"Hint: {self.game.describe(move)} — {why}.", kind="hint", hint=move)
        return found

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

    def new_game(self, seed: int | None = None, rules: str | Rules | None = None) -> Game:
        """Start a new deal (random when ``seed`` is None), with these rules or the same.

        This leaves a lesson or the replay viewer."""
        rules = self.game.rules if rules is None else rules
        self.game = Game.new(_pick_seed(seed), rules)
        return self.game

    def restart(self) -> None:
        """Back to the start of this deal (in a lesson: of this step)."""
        self._forbid_in("replay", NOT_IN_REPLAY)
        if self._run is not None:
            self.restart_step()
            return
        self.game.restart()
        self._started = time.monotonic()
        self._publish(message="Restarted this deal.")

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
        self._replay = None
        self._run = run
        self._publish(message="", panel_changed=True)
        return run

    def stop_lesson(self) -> None:
        """Leave the lesson and show the game that was on show before it."""
        if self._run is None:
            return
        self._run = None
        self._publish(message="Lesson closed: back to the game.", panel_changed=True)

    def attempt(self, move: Move | str) -> Feedback:
        """Try ``move`` on the lesson's step: it is played only if it is (part of) the task.

        Returns the :class:`~milligan_widget.lessons.Feedback` and shows its message."""
        run = self._require_lesson()
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError as exc:
                return self._lesson_feedback(Feedback(False, str(exc), legal=False), None)
        matched = self._implied_count(self._match_legal(move))
        before = run.game.copy()
        feedback = run.attempt(matched)
        last = _last(before, matched) if feedback.correct else None
        return self._lesson_feedback(feedback, last)

    def next_step(self) -> bool:
        """Go on to the lesson's next step (done or not); False after the last one."""
        moved = self._require_lesson().next_step() is not None
        self._show_step("That was the last step." if not moved else "")
        return moved

    def previous_step(self) -> bool:
        """Go back one step; False at the first."""
        moved = self._require_lesson().previous_step() is not None
        self._show_step("This is the first step." if not moved else "")
        return moved

    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        self._require_lesson().restart_step()
        self._show_step("Step restarted.")

    def goto_step(self, index: int) -> None:
        """Go to step ``index`` of the lesson (from 0), freshly staged."""
        self._require_lesson().goto(index)
        self._show_step("")

    # ------------------------------------------------------------------ replay viewer
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

    def stop_replay(self) -> None:
        """Close the replay viewer and play on from the position shown (the later moves
        stay available to redo)."""
        if self._replay is None:
            return
        self._replay = None
        self._publish(message="Play on from here.", panel_changed=True)

    # ------------------------------------------------------------ request handling
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
        if kind == "move":
            self._apply(_parse_move_request(content, _pile_names(self.game)))
        elif kind == "deal":
            self.deal()
        elif kind == "undo":
            self.undo()
        elif kind == "redo":
            self.redo()
        elif kind == "hint":
            self.hint()
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

    def _apply(self, move: Move, comment: str | None = None) -> Move:
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
        self._publish(message=description, last=last)
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

    def _implied_count(self, move: Move) -> Move:
        """An illegal move from the browser (which always names a count) spelled as a
        teacher writes it, without the count the notation implies, so that a lesson's
        listed mistakes (``"3>1"``) match the drop that tries them (``3:1>1``)."""
        if move.count is None or move.source == "stock" or self.game.explain(move) is None:
            return move
        implied = Move(move.source, move.target)
        return implied if views.move_count(self.game, implied) == move.count else move

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
        name = self.game.rules.name or "custom rules"
        seed = f" #{self.game.seed}" if self.game.seed is not None else ""
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
