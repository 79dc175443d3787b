"""The solver's tools as a player asks for them: Hint, "Winnable?", Think longer, Solution,
Finish and Stop.

Each checks that the mode on show takes it (a lesson has its own hints; the replay viewer is
watched), counts what the statistics count (hints, a solution used), and hands the work to
the table's :class:`~.assistant.Assistant`, which runs it in the background.

>>> from milligan_widget import Game
>>> from milligan_widget.widget.table import Table
>>> shown = []
>>> table = Table(Game.new(8), lambda view, rules, panel: shown.append(view), stats=None,
...               hint_time=0)
>>> move, why = Advice(table).hint()  # 0 s: the greedy heuristic, at once
>>> shown[-1]["message"].startswith("Heuristic:"), table.game.is_legal(move), table.card.hints
(True, True, 1)
"""

from __future__ import annotations

from milligan_widget import Move, solver
from milligan_widget.widget.assistant import THINK_TIME
from milligan_widget.widget.jobs import check_seconds
from milligan_widget.widget.modes import NOT_IN_LESSON, NOT_IN_REPLAY
from milligan_widget.widget.table import Table


class Advice:
    """The solver's tools for a :class:`~.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table

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
        table = self.table
        table.forbid_in("replay", NOT_IN_REPLAY)
        run = table.lesson_run
        if run is None:
            table.card.hints += 1
            return table.assistant.hint(wait)
        with table.lock:
            words, move = run.hint(), run.show()
            table.publish(message=f"Hint: {words}", kind="hint", hint=move)
        return move, words

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
        self.table.forbid_in("replay", NOT_IN_REPLAY)
        self.table.forbid_in("lesson", NOT_IN_LESSON["think"])
        return self.table.assistant.think_longer(budget, wait)

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
        self.table.forbid_in("replay", NOT_IN_REPLAY)
        self.table.forbid_in("lesson", NOT_IN_LESSON["solution"])
        self.table.card.solution_used = True
        job = self.table.assistant.show_solution(time_limit, delay)
        if wait:
            job.join()

    def finish(self, delay: float = 0.12, wait: bool = False) -> list[Move]:
        """Play every card left home, one every ``delay`` seconds, when the stock is empty
        and nothing else is needed (:meth:`Game.finish_moves`); the toolbar's Finish. Returns
        the moves (none when there is more to do: the message says so). Stop stops it."""
        table = self.table
        table.forbid_in("replay", NOT_IN_REPLAY)
        table.forbid_in("lesson", NOT_IN_LESSON["finish"])
        with table.lock:
            moves = table.game.finish_moves() or []
            if not moves:
                table.refuse("Finish is for the end: the stock is empty and only cards "
                             "going home are left.")  # fmt: skip
                return []
            job = table.assistant.play_back(moves, delay, "Finish")
        if wait:
            job.join()
        return moves

    def stop(self) -> bool:
        """Stop :meth:`think_longer` or the solution playing back (:meth:`show_solution`);
        False if neither was running."""
        return self.table.assistant.stop()

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until the hint, Think longer, the solution playback and the indicator's
        checks are done, stopped ones too, the game is auto-saved and the games counted are
        written in the statistics (for scripts and tests); False on timeout."""
        done = self.table.assistant.wait(timeout)
        autosave = self.table.autosave
        saved = autosave is None or autosave.flush(timeout)
        return self.table.keeper.flush(timeout) and saved and done
