"""The table: the game on show, its mode, and how each change reaches the front end.

Every change to what is on show goes through :meth:`Table.publish`, which builds one view
(:mod:`.view`, with what the mode and play add) and hands it to the wire widget's ``send``
in one ``hold_sync`` update; :meth:`Table.apply` is the one path of a move (checked by the
engine, or by the lesson in a lesson). The table also keeps the player's game while a lesson
or the replay viewer is on show, the games Restart and New game set aside
(:mod:`.setaside`), the game's scorecard and its auto-save, and the ``on_move`` callbacks,
which run once the lock is let go.

>>> from milligan_widget import Game
>>> sent = []
>>> table = Table(Game.new(8), lambda view, rules, panel: sent.append(view), stats=None)
>>> table.apply(table.game.legal_moves[0]).is_deal, sent[-1]["stats"]["moves"]
(True, 1)
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules
from milligan_widget.lessons import Feedback, LessonRun
from milligan_widget.stats import Stats, default_folder
from milligan_widget.widget import modes
from milligan_widget.widget import view as views
from milligan_widget.widget.assistant import HINT_TIME, Assistant, Host
from milligan_widget.widget.files import Autosave
from milligan_widget.widget.jobs import Key
from milligan_widget.widget.lock import WidgetLock, locked
from milligan_widget.widget.memory import NO_LINE, WinningLine
from milligan_widget.widget.modes import ModeError
from milligan_widget.widget.records import Scorecard, Scorekeeper
from milligan_widget.widget.setaside import SetAside, SetAsideGames
from milligan_widget.widget.words import about, sentence
from milligan_widget.widget.words import moves as _moves

MAX_SET_ASIDE = 20  # restarts and new games that Undo can take back, newest kept

MoveCallback = Callable[[Move], Any]
#: send(view, rules_info or None, panel or None): the wire widget's traits, in one update.
Send = Callable[[dict[str, Any], "dict[str, Any] | None", "dict[str, Any] | None"], None]


class Table:
    """The game on show (``game``) in its mode, the player's own game (``player``), and
    publishing. ``stats``: where games are counted (None: nowhere); ``autosave``: the key
    the game in progress is kept under (None: not kept)."""

    def __init__(
        self,
        game: Game,
        send: Send,
        *,
        stats: Stats | None,
        autosave: str | None = None,
        hint_time: float = HINT_TIME,
        show_analysis: Callable[[dict[str, Any]], None] = lambda analysis: None,
        log: logging.Logger | logging.LoggerAdapter | None = None,
    ) -> None:
        self._lock = self.lock = WidgetLock()
        self._send = send
        self.log = log or logging.getLogger(__name__)
        self.closed = False
        self.callbacks: list[MoveCallback] = []
        self.set_aside = SetAsideGames(MAX_SET_ASIDE)
        self.keeper = Scorekeeper(stats, tell=self.tell)
        self.autosave = Autosave(default_folder(), autosave, self.tell) if autosave else None
        # The game auto-saved before on this key, offered to resume: set aside under a name
        # of its own until the player answers, while the game on show is kept as usual.
        self.offer = self.autosave.take_offer(game) if self.autosave is not None else None
        self.assistant = Assistant(self._host(show_analysis), hint_time)
        self._rev = 0
        self._shown_rules: Rules | None = None
        self.switch_to(game)

    def _host(self, show_analysis: Callable[[dict[str, Any]], None]) -> Host:
        """What the assistant may read and do."""
        return Host(
            lock=self.lock,
            game=lambda: self.game,
            player_game=lambda: self.player,
            position=self.position,
            publish=self.publish,
            play=lambda move, prefix: self.apply(move, prefix=prefix),
            show_analysis=show_analysis,
            log=self.log,
        )

    # ------------------------------------------------------------------ what is on show
    @property
    def game(self) -> Game:
        """The game on show (in a lesson: the step's position)."""
        return self.mode.game

    @property
    def rev(self) -> int:
        """The number of the newest view (each publish sends the next)."""
        return self._rev

    @property
    def lesson_run(self) -> LessonRun | None:
        return self.mode.run if isinstance(self.mode, modes.Lesson) else None

    def switch_to(
        self, game: Game, card: Scorecard | None = None, line: WinningLine = NO_LINE
    ) -> None:
        """Put ``game`` on show in play mode (leaving a lesson or the replay viewer), with
        the winning ``line`` remembered for it and its scorecard (its clock and counters:
        a new one if None); not published."""
        self.assistant.switch(line)
        self.player, self.mode = game, modes.Play(game)
        self.card = Scorecard() if card is None else card

    def show_mode(self, mode: modes.Play, message: str = "", **changes: bool) -> None:
        """Put ``mode`` on show (a lesson, the replay viewer, or play again) and publish."""
        self.mode = mode
        self.publish(message=message, panel_changed=True, **changes)

    def leave(self) -> None:
        """The player's game is left for another deal: it counts as abandoned if in play."""
        if self.mode.name != "replay":
            self.keeper.left(self.player, self.card)

    def in_progress(self) -> bool:
        """Is the player's game one that Undo should bring back after a new game?"""
        game = self.player
        if self.mode.name == "replay" or game.status == "won":
            return False
        return bool(game.history or game.can_redo)

    def can_come_back(self) -> bool:
        """May Undo bring the player's game back after a new game (any game in play, even
        untouched; not a won one, nor the replay viewer's)?"""
        return self.mode.name != "replay" and self.player.status != "won"

    def set_aside_for(self, action: str, game: Game, line: WinningLine = NO_LINE) -> None:
        """Show ``game`` (not published) in place of the player's game, which Undo brings
        back from its start; ``line``: the remembered win, for ``game``."""
        behind = SetAside(action, self.player, game, self.assistant.line, self.card)
        self.switch_to(game, self.card if action == "restart" else None, line)
        self.set_aside.push(behind)

    def take_up(self, game: Game, words: str) -> None:
        """Show ``game`` in place of the player's, which Undo brings back if in progress."""
        self.leave()
        if self.in_progress():
            self.set_aside_for("open", game)
        else:
            self.set_aside.clear()
            self.switch_to(game)
        self.publish(message=f"{words}: {self.welcome()}", rules_changed=True,
                     panel_changed=True)  # fmt: skip

    def position(self) -> Key:
        """What identifies the position on show (and the game it belongs to)."""
        # The moves themselves, not their text: a move hashes and compares as its text
        # does, and the key is built several times a move.
        return (self.mode.name, id(self.game), tuple(self.game.history))

    # ------------------------------------------------------------------------ moves
    def forbid_in(self, mode: str, reason: str) -> None:
        """Refuse (show and raise) an action that makes no sense in ``mode``."""
        if self.mode.name == mode:
            self.refuse(reason)
            raise ModeError(reason)

    def apply(self, move: Move, comment: str | None = None, prefix: str = "") -> Move:
        """Play ``move`` through the engine and publish, or refuse with the reason.

        In a lesson the move goes through the lesson's check instead (:meth:`attempt`)."""
        if self.lesson_run is not None:
            feedback = self.attempt(move)
            if not feedback.correct or feedback.move is None:
                raise IllegalMoveError(feedback.message)
            return feedback.move
        game = self.game
        try:
            matched = self.engine_move(move)
            last = views.last_move(game, matched)
            description = game.describe(matched)
            played = game.play(matched)
        except IllegalMoveError as exc:
            self.refuse(str(exc))
            raise
        if comment:
            game.set_comment(comment)
            description = f"{description} — {comment}"
        self.publish(message=prefix + description, last=last)
        self.notify(played)
        return played

    def attempt(self, move: Move | str) -> Feedback:
        """Try ``move`` on the lesson's step, show the feedback and return it."""
        run = self.lesson_run
        if run is None:
            raise ModeError("No lesson is running: start one with start_lesson(lesson).")
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError as exc:
                return self._lesson_feedback(Feedback(False, str(exc), legal=False), None)
        try:
            matched = self.engine_move(move)
        except IllegalMoveError:
            matched = move  # the lesson says why, in its words
        before = run.game.copy()
        feedback = run.attempt(matched)
        last = views.last_move(before, matched) if feedback.correct else None
        return self._lesson_feedback(feedback, last)

    def _lesson_feedback(self, feedback: Feedback, last: dict[str, Any] | None) -> Feedback:
        kind = feedback.kind if feedback.correct or not feedback.step_done else "wrong"
        self.publish(message=feedback.message, kind=kind, last=last)
        if feedback.correct and feedback.move is not None:
            self.notify(feedback.move)
        return feedback

    def engine_move(self, move: Move) -> Move:
        """The engine's move for a gesture (:meth:`Game.find_move`); IllegalMoveError with
        the reason if there is none."""
        if move.source == "stock":
            return move
        return self.game.find_move(move.source, move.target, move.count)

    def notify(self, move: Move) -> None:
        """Call the ``on_move`` callbacks once the lock is let go (they may ask for a hint
        and wait for it); one that fails is reported, and stops nothing."""
        for callback in list(self.callbacks):
            self.lock.later(functools.partial(self._call_back, callback, move))

    def _call_back(self, callback: MoveCallback, move: Move) -> None:
        try:
            callback(move)
        except Exception as exc:
            self.log.exception("MilliganWidget on_move callback %r failed", callback)
            name = getattr(callback, "__name__", "callback")
            self.refuse(f"Your on_move callback {name} failed: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------- publishing
    def refuse(self, reason: str) -> None:
        self.publish(message=reason, kind="error")

    @locked
    def publish(
        self,
        message: str = "",
        kind: str = "info",
        last: dict[str, Any] | None = None,
        hint: Move | None = None,
        rules_changed: bool = False,
        panel_changed: bool = False,
    ) -> None:
        """Send the new view (and rules, panel, if changed) in one update."""
        if self.closed:
            return
        self.assistant.position_changed()
        self._rev += 1
        game = self.game
        message, kind, elapsed = self._outcome(sentence(message), kind)
        view = views.build_view(
            game, rev=self._rev, message=message, kind=kind, last=last, hint=hint, elapsed=elapsed
        )
        view["busy"] = self.assistant.busy
        playing = self.mode.name == "play"
        if playing:
            self._add_play_state(view)
        self.mode.add_to(view)
        rules = None
        if rules_changed or game.rules != self._shown_rules:
            self._shown_rules = game.rules
            rules = views.rules_info(game.rules, PRESETS)
        self._send(view, rules, self.mode.panel() if panel_changed else None)
        if playing and self.autosave is not None:
            # After the view (the player waits for it, not for the disk), in the background.
            self.autosave.write(self.player)

    def tell(self, text: str) -> None:
        """Say ``text`` in the status line, from any thread (the auto-save's and the
        statistics' writers say so when they fail), once this thread lets the lock go."""
        self.lock.later(lambda: self.publish(message=text))

    def _add_play_state(self, view: dict[str, Any]) -> None:
        """What play mode adds to the view: Undo of a restart or a new game, Finish, the
        streak a win extends, and the game offered to resume."""
        if not view["can_undo"] and self.set_aside.replaced_by(self.game):
            view["can_undo"] = True  # Undo takes back the restart or the new game
        view["can_finish"] = self.game.finish_moves() is not None
        view["streak"] = self.keeper.streak if view["status"] == "won" else None
        offer = self.offer
        view["resume"] = None if offer is None else f"Resume your last game: {about(offer)}?"

    def _outcome(self, message: str, kind: str) -> tuple[str, str, float | None]:
        """The message, its kind and the time played, once a game in play is won or lost
        (then it counts in the statistics)."""
        status = self.game.status
        if self.mode.name != "play":
            return message, kind, None
        if status == "playing":
            self.card.go_on()
            return message, kind, None
        self.card.stop()
        self.keeper.ended(self.player, self.card)
        if status == "won":
            return message, "won", self.card.seconds()
        if kind == "info":
            return f"{message} No useful move is left.".strip(), "lost", None
        return message, kind, None

    def welcome(self, greeting: str = "Good luck!") -> str:
        """The first message for the game on show."""
        game = self.game
        name = game.rules.name or "custom rules"
        seed = f" #{game.seed}" if game.seed is not None else ""
        if game.history:
            return f"Game{seed} ({name}) after {_moves(len(game.history))}."
        if game.layout is not None:
            return f"A staged position ({name})."
        return f"New game{seed} ({name}). {greeting}"

    def close(self) -> None:
        """Stop every solver job and publish no more; wait for the jobs' threads."""
        with self.lock:
            self.closed = True
            self.assistant.close()
        self.assistant.join(timeout=10)
