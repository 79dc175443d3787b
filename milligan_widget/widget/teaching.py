"""Lesson mode and the replay viewer: the widget's two modes besides play.

In a lesson (:class:`Lessons`) the layout shows each step's position and a lesson panel;
every move goes through :meth:`LessonRun.attempt` and a wrong one is refused like an illegal
one. The replay viewer (:class:`Viewer`) steps through a game's moves with the engine's
undo/redo, and shows the game review (:meth:`Viewer.review`: the review job runs in
:mod:`.assistant.review`, its data goes in the ``game_review`` trait). A mode's fixed data
(the step titles, the move list) goes in the ``panel`` trait once, when the mode starts; each
view carries only where it is (:mod:`.modes`).

>>> from milligan_widget import Game, Move
>>> from milligan_widget.widget.table import Table
>>> table = Table(Game.new(5).after("d"), lambda frame: None, stats=None)
>>> viewer = Viewer(table)
>>> viewer.show_replay(); viewer.step_to(1); table.mode.message()
'Move 1 of 1: Deal a row of 8 cards'
"""

from __future__ import annotations

from pathlib import Path

from milligan_widget.engine import Game, Move
from milligan_widget.teaching.lessons import Feedback, Lesson, LessonRun
from milligan_widget.widget import modes, requests
from milligan_widget.widget import view as views
from milligan_widget.widget.assistant.review import (
    ReviewJob,
    ReviewSettings,
    check_review_game,
    review_source,
)
from milligan_widget.widget.modes import ModeError
from milligan_widget.widget.scores import Scorecard
from milligan_widget.widget.table import Table
from milligan_widget.widget.words import moves as _moves

PEEKED = (
    "This game counts as peeked: the review's verdicts come from the solver, which knows the stock."
)


class Lessons:
    """Lesson mode on a :class:`~.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def start_lesson(self, lesson: Lesson | LessonRun, start: int = 0) -> LessonRun:
        """Show ``lesson`` (a Lesson, run from step ``start``, or a LessonRun) in lesson mode."""
        if isinstance(lesson, LessonRun):
            run = lesson
        elif isinstance(lesson, Lesson):
            run = LessonRun(lesson, start)
        else:
            raise TypeError(f"start_lesson needs a Lesson or a LessonRun, not {lesson!r}")
        self.table.assistant.switch()
        self.table.show_mode(modes.Lesson(run))
        return run

    def stop_lesson(self) -> None:
        """Leave the lesson and show the game that was on show before it."""
        if self.table.lesson_run is not None:
            self.table.show_mode(modes.Play(self.table.player), "Lesson closed: back to the game.")

    def attempt(self, move: Move | str) -> Feedback:
        """The table's lesson check of ``move``."""
        return self.table.attempt(move)

    def next_step(self) -> bool:
        """Go on to the lesson's next step (done or not); False after the last one."""
        moved = self._run().next_step() is not None
        self.table.publish(message="That was the last step." if not moved else "")
        return moved

    def next_when_done(self) -> None:
        """The lesson panel's Next: only once the step is done."""
        if not self._run().step_done:
            self.table.forbid("Finish this step first: Hint shows the way.")
        self.next_step()

    def previous_step(self) -> bool:
        """Go back one step; False at the first."""
        moved = self._run().previous_step() is not None
        self.table.publish(message="This is the first step." if not moved else "")
        return moved

    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        self._run().restart_step()
        self.table.publish(message="Step restarted.")

    def goto_step(self, index: int) -> None:
        """Go to step ``index`` of the lesson (from 0), freshly staged."""
        self._run().goto(index)
        self.table.publish(message="")

    def _run(self) -> LessonRun:
        run = self.table.lesson_run
        if run is None:
            raise ModeError("No lesson is running: start one with start_lesson(lesson).")
        return run


class Viewer:
    """The replay viewer on a :class:`~.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def show_replay(
        self,
        game: Game | str | Path | None = None,
        ply: int = 0,
        card: Scorecard | None = None,
        message: str = "",
    ) -> None:
        """Show ``game`` (default: the one on show) in the replay viewer at ``ply``
        (``card``: the scorecard Play from here goes on with; None: a new one)."""
        table = self.table
        saved = table.game if game is None else requests.saved_game(game)
        if saved is None:
            raise TypeError("show_replay needs a Game, its saved JSON text or a path to it")
        replay = modes.Replay.of(saved, ply)
        table.set_aside.clear()  # a replay is watched: Undo does not go back past it
        table.switch_to(replay.game, card)
        table.show_mode(replay, message or replay.message(), rules_changed=True)

    def review(self, game: Game | str | Path | None, settings: ReviewSettings) -> ReviewJob:
        """Review ``game`` (default: the game on show, the replay's whole line in the
        viewer) in the background, shown in the replay viewer. A game still in play counts
        as peeked (the verdicts know the stock). Refused in words (nothing changed) with no
        moves or too many."""
        table = self.table
        try:
            line = self._line() if game is None else review_source(game)
        except ValueError as exc:
            table.forbid(str(exc))
        except OSError as exc:
            table.forbid(f"That saved game cannot be read: {exc.strerror or exc}.")
        peeked = line.status == "playing" and not table.assistant.peek
        words = f"Reviewing {_moves(len(line.history))} in the background (Stop stops it)."
        words = f"{words} {PEEKED}" if peeked else words
        if game is not None or not table.mode.watched:
            self._open_for_review(line, game is None, peeked, words)
        elif peeked:
            table.card.peek = True
        job = table.assistant.reviewer.start(line, settings, table.assistant.coach.limit)
        table.publish(message=words)
        return job

    def _line(self) -> Game:
        """The game on show with its whole line (the replay's later moves too)."""
        line = self.table.game.copy()
        while self.table.mode.watched and line.can_redo:
            line.redo()
        return check_review_game(line)

    def _open_for_review(self, line: Game, own: bool, peeked: bool, words: str) -> None:
        """Show ``line`` in the viewer at its last move; the player's own game (``own``)
        keeps its scorecard (peeked, and so auto-saved at once, if ``peeked``)."""
        table = self.table
        card = table.card if own and table.mode.own_game else None
        if card is not None and peeked:
            card.peek = True
            if table.autosave is not None:
                table.autosave.write(table.player, True)
        self.show_replay(line, len(line.history), card, words)
        if peeked:
            table.card.peek = True

    def step_to(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the replay (0: the deal)."""
        replay = self.table.mode
        if not isinstance(replay, modes.Replay):
            raise ModeError("step_to(n) is for the replay viewer: use goto(n) in a game.")
        step = replay.seek(n)
        last = views.last_move(*step) if step is not None else None
        self.table.publish(message=replay.message(), last=last)

    def stop_replay(self) -> None:
        """Back to play, on the replay's game at the position shown."""
        if self.table.mode.watched:
            self.table.assistant.reviewer.cancel()
            self.table.show_mode(modes.Play(self.table.player), "Play on from here.")
