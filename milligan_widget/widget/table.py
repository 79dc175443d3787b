"""The table: the game on show in its mode, the one gate in and the one door out.

The gate: :meth:`Table.require` asks the mode on show (:mod:`.modes`) whether it takes an
action, and refuses it in the player's words if not; no other module decides what a mode
allows. The door: :meth:`Table.publish` sends everything the front end shows (the view,
built by :mod:`.view` with what the mode and play add, the analysis, and the rules, the
panel, the saved files and the statistics when they changed) as one :class:`Frame`, through
the one ``send`` the widget gave, in one update. Before the frame, :meth:`Table.bookkeeping`
does what a change entails (stops the solver for positions no longer on show, counts a game
that ended); after it, the game in play is auto-saved. :meth:`Table.apply` is the one path of a
move (checked by the engine, or by the lesson in a lesson). The table also keeps the player's
game while a lesson or the replay viewer is on show, the games Restart and New game set aside
(:mod:`.setaside`), the game's scorecard, and the ``on_move`` callbacks, which run once the
lock is let go.

>>> from milligan_widget import Game
>>> sent = []
>>> table = Table(Game.new(8), sent.append, stats=None)
>>> table.apply(table.game.legal_moves[0]).is_deal, sent[-1].view["stats"]["moves"]
(True, 1)
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from milligan_widget.analysis.buried import buried_for_good
from milligan_widget.engine import PRESETS, Game, IllegalMoveError, Move, Rules
from milligan_widget.studies.stats import Stats, default_folder
from milligan_widget.teaching.lessons import Feedback, LessonRun
from milligan_widget.widget import modes
from milligan_widget.widget import view as views
from milligan_widget.widget.assistant import HINT_TIME, Assistant
from milligan_widget.widget.assistant.jobs import Host, Key
from milligan_widget.widget.assistant.winning_line import NO_LINE, WinningLine
from milligan_widget.widget.lock import WidgetLock, locked
from milligan_widget.widget.modes import ModeError
from milligan_widget.widget.scores import Scorecard, Scorekeeper, played_peeking
from milligan_widget.widget.setaside import SetAside, SetAsideGames
from milligan_widget.widget.storage import Autosave
from milligan_widget.widget.words import about, sentence
from milligan_widget.widget.words import moves as _moves

MAX_SET_ASIDE = 20  # restarts and new games that Undo can take back, newest kept
#: positions the test that no face-down card can come up any more may visit after a move
#: (about 50 a millisecond; beyond them it proves nothing and says nothing)
BURIED_REACH = 2_000
BURIED_WORDS = "No face-down card can come up any more: this game can no longer be won."

MoveCallback = Callable[[Move], Any]
Data = dict[str, Any]


@dataclass(frozen=True)
class Frame:
    """What the front end is sent at once: each of the widget's traits of that name, or None
    where it did not change (an analysis alone comes when a solver's verdict comes in)."""

    view: Data | None = None
    rules_info: Data | None = None
    panel: Data | None = None
    files: Data | None = None
    statistics: Data | None = None
    analysis: Data | None = None
    game_review: Data | None = None  # the game review in the replay viewer

    def changes(self) -> list[tuple[str, Data]]:
        """(trait, value) for each part sent, in the order the front end takes them.

        >>> Frame(view={"rev": 1}, analysis={"state": None}).changes()
        [('view', {'rev': 1}), ('analysis', {'state': None})]
        """
        parts = (("rules_info", self.rules_info), ("panel", self.panel), ("files", self.files),
                 ("statistics", self.statistics), ("game_review", self.game_review),
                 ("view", self.view), ("analysis", self.analysis))  # fmt: skip
        return [(name, value) for name, value in parts if value is not None]


#: send(frame): the widget's traits set from one frame, in one update.
Send = Callable[[Frame], None]


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
        log: logging.Logger | logging.LoggerAdapter[logging.Logger] | None = None,
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
        self.assistant = Assistant(self._host(), hint_time)
        self._rev = 0
        self._number = 0  # of the game on show, for the position's key
        self._shown_rules: Rules | None = None
        self._buried: tuple[Key, bool] | None = None  # the last position tested, and if buried
        self.switch_to(game)

    def _host(self) -> Host:
        """What the assistant may read and do."""
        return Host(
            lock=self.lock,
            game=lambda: self.game,
            player_game=lambda: self.player,
            own_game=lambda: self.mode.own_game,
            position=self.position,
            publish=self.publish,
            play=lambda move, prefix: self.apply(move, prefix=prefix),
            show_analysis=self.show_analysis,
            show_review=self.show_review,
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
        """Put ``game`` on show in play mode (leaving a lesson or the replay viewer, and
        its review), with the winning ``line`` remembered for it and its scorecard (its
        clock and counters: a new one if None); not published."""
        self.assistant.switch(line)
        self.player, self.mode = game, modes.Play(game)
        self._number += 1
        if card is None:  # a game saved after peeking counts as peeked, whatever Peek says now
            card = Scorecard(peek=self.assistant.peek or played_peeking(game))
        self.card = card

    def show_mode(self, mode: modes.Play, message: str = "", rules_changed: bool = False) -> None:
        """Put ``mode`` on show (a lesson, the replay viewer, or play again) and publish."""
        self.mode = mode
        self.publish(message=message, rules_changed=rules_changed, panel_changed=True)

    def leave(self) -> None:
        """The player's game is left for another deal: it counts as abandoned if in play."""
        if not self.mode.watched:
            self.keeper.left(self.player, self.card)

    def in_progress(self) -> bool:
        """Is the player's game one that Undo should bring back after a new game?"""
        game = self.player
        if self.mode.watched or game.status == "won":
            return False
        return bool(game.history or game.can_redo)

    def can_come_back(self) -> bool:
        """May Undo bring the player's game back after a new game (any game in play, even
        untouched; not a won one, nor the replay viewer's)?"""
        return not self.mode.watched and self.player.status != "won"

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

    def set_peek(self, on: bool) -> None:
        """Peek on (hints and verdicts from the solver, which knows the stock) or off (from
        what the player sees): the game in play counts as peeked once peek was on in it."""
        self.assistant.set_peek(on)
        if on:
            self.card.peek = True
            words = "Peek is on: hints and verdicts come from the solver, which knows the stock."
        else:
            words = "Fair play: hints and the chance to win look only at what you can see."
        self.publish(message=words)

    def position(self) -> Key:
        """What identifies the position on show: the number of the game on show (another
        game of the same deal is another game), its mode, and its piles, pile for pile
        (:meth:`Game.exact_key`, the rules included)."""
        return (self._number, self.mode.name, self.game.exact_key())

    # ------------------------------------------------------------------ the gate in
    def require(self, action: str) -> None:
        """Refuse ``action`` (a request's type, :data:`.requests.REQUEST_TYPES`, or
        ``"goto"``) with the mode's reason, shown and raised as :class:`ModeError`, unless
        the mode on show takes it."""
        reason = self.mode.refusal(action)
        if reason is not None:
            self.forbid(reason)

    def forbid(self, reason: str) -> NoReturn:
        """Refuse an action: show ``reason`` and raise it as :class:`ModeError`."""
        self.refuse(reason)
        raise ModeError(reason)

    # ------------------------------------------------------------------------ moves

    def apply(self, move: Move, comment: str | None = None, prefix: str = "") -> Move:
        """Play ``move`` through the engine and publish, or refuse with the reason.

        In a lesson the move goes through the lesson's check instead (:meth:`attempt`)."""
        if self.lesson_run is not None:
            feedback = self.attempt(move)
            if not feedback.correct or feedback.move is None:
                raise IllegalMoveError(feedback.message)
            return feedback.move
        game = self.game
        coached = self.assistant.coach.on and self.mode.own_game
        try:
            matched = self.engine_move(move)
            last = views.last_move(game, matched)
            description = game.describe(matched)
            before = game.copy() if coached else None
            played = game.play(matched)
        except IllegalMoveError as exc:
            self.refuse(str(exc))
            raise
        if before is not None:
            self.coach(before, played)
        if comment:
            game.set_comment(comment)
            description = f"{description} — {comment}"
        self.publish(message=prefix + description, last=last)
        self.notify(played)
        return played

    def coach(self, before: Game, move: Move) -> None:
        """The coach judges ``move``, just played from ``before`` (a copy), in the
        background (the frame that shows the move goes out first); the game counts as
        coached."""
        if self.assistant.coach.on and self.mode.own_game:
            self.card.coached = True
            self.assistant.coach.played(self.game, before, move)

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
        if move.source == "stock" or move.target is None:  # a deal: no target
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
        last: Data | None = None,
        hint: Move | None = None,
        rules_changed: bool = False,
        panel_changed: bool = False,
        files: Data | None = None,
        statistics: Data | None = None,
    ) -> None:
        """Send what is on show after a change as one :class:`Frame`: the new view, the
        analysis if it changed, the rules and the panel (if they changed or
        ``rules_changed``, ``panel_changed``) and the ``files`` or ``statistics`` given."""
        if self.closed:
            return
        message, kind, elapsed = self.bookkeeping(sentence(message), kind)
        game = self.game
        if self.mode.own_game:
            self.assistant.coach.follow(game)  # an undone move's judgement goes
        self._rev += 1
        view = views.build_view(
            game, rev=self._rev, message=message, kind=kind, last=last, hint=hint, elapsed=elapsed
        )
        view["busy"] = self.assistant.busy
        view["peek"] = self.assistant.peek
        view["coach"] = self.assistant.coach.on
        if self.mode.own_game:
            self._add_play_state(view)
        self.mode.add_to(view)
        rules = None
        if rules_changed or game.rules != self._shown_rules:
            self._shown_rules = game.rules
            rules = views.rules_info(game.rules, PRESETS)
        panel = self.mode.panel() if panel_changed else None
        analysis = self.assistant.fresh_analysis()
        review = self.assistant.reviewer.fresh()
        self._out(Frame(view, rules, panel, files, statistics, analysis, review))
        self._keep()

    def show_analysis(self, analysis: Data) -> None:
        """Send a new analysis alone (a solver's verdict came in, nothing else changed)."""
        if not self.closed:
            self._out(Frame(analysis=analysis))

    def show_review(self, review: Data) -> None:
        """Send the review's progress alone (one more move reviewed)."""
        if not self.closed:
            self._out(Frame(game_review=review))

    def _out(self, frame: Frame) -> None:
        """Send ``frame``: the background jobs give way while it goes out."""
        self.assistant.way.claim()
        self._send(frame)

    def bookkeeping(self, message: str, kind: str) -> tuple[str, str, float | None]:
        """What a change entails before it is shown: the solver stops working on positions
        no longer on show, and a game in play that ended counts in the statistics. Returns
        the message and its kind as the ending makes them, and the time played of a win."""
        self.assistant.position_changed()
        return self._outcome(message, kind)

    def _keep(self) -> None:
        """Auto-save the game in play: after the frame (the player waits for the view, not
        for the disk), written in the background."""
        if self.mode.own_game and self.autosave is not None:
            self.autosave.write(self.player, self.card.peek)

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
        if not self.mode.own_game:
            return message, kind, None
        if status == "playing":
            self.card.go_on()
            return (self._buried_words(message) if kind == "info" else message), kind, None
        self.card.stop()
        self.keeper.ended(self.player, self.card)
        if status == "won":
            return message, "won", self.card.seconds()
        if kind == "info":
            return _then(message, "No useful move is left."), "lost", None
        return message, kind, None

    def _buried_words(self, message: str) -> str:
        """``message`` (a move's, an undo's, the game's first), and where no face-down card
        can come up any more (:mod:`.buried`: the test reads no hidden card), that the game can
        no longer be won (a hint says so in its own words)."""
        key = self.position()
        if self._buried is None or self._buried[0] != key:
            self._buried = key, buried_for_good(self.game, BURIED_REACH)
        return _then(message, BURIED_WORDS) if self._buried[1] else message

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
        """Stop every solver job and publish no more; wait for the jobs' threads. The
        games counted and not written yet are tried again."""
        with self.lock:
            self.closed = True
            self.assistant.close()
        self.keeper.retry()  # a game counted while the file was locked is tried once more
        self.assistant.join(timeout=10)


def _then(message: str, words: str) -> str:
    """``message`` as a sentence, then ``words``.

    >>> _then("4♠ home", "No useful move is left.")
    '4♠ home. No useful move is left.'
    """
    said = message if not message or message.endswith((".", "!", "?")) else f"{message}."
    return f"{said} {words}".strip()
