"""The solver's tools as a player asks for them: Hint, "Winnable?", Think longer, Solution,
Finish and Stop.

The widget has checked that the mode on show takes it (a lesson has its own hints; the replay
viewer is watched); each counts what the statistics count (hints, a solution used) and hands
the work to the table's :class:`~.assistant.Assistant`, which runs it in the background.

>>> from milligan_widget import Game
>>> from milligan_widget.widget.table import Table
>>> shown = []
>>> table = Table(Game.new(8), shown.append, stats=None,
...               hint_time=0)
>>> move, why = Helping(table).hint()  # 0 s: the greedy heuristic, at once
>>> shown[-1].view["message"].startswith("Heuristic:"), table.game.is_legal(move), table.card.hints
(True, True, 1)
"""

from __future__ import annotations

from milligan_widget.engine import Move
from milligan_widget.search import solver
from milligan_widget.widget.assistant import THINK_TIME
from milligan_widget.widget.assistant.jobs import check_seconds
from milligan_widget.widget.table import Table

#: Think longer in fair play: refused, as it would read the stock the player cannot see.
THINK_PEEKS = (
    "Think longer asks the solver, which knows the stock, so it is not for fair play: "
    "tick “Peek at hidden cards” in the ⋯ menu to use it (the game then counts as peeked)."
)


class Helping:
    """The solver's tools for a :class:`~.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def hint(self, wait: bool = True) -> tuple[Move | None, str] | None:
        """The hint: the lesson's, or the assistant's (counted on the scorecard)."""
        table = self.table
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
        """Give the assistant ``seconds`` for the position on show; refused in fair play
        (:data:`THINK_PEEKS`): the solver reads the stock."""
        budget = check_seconds(seconds, "seconds")
        if not self.table.assistant.peek:
            self.table.forbid(THINK_PEEKS)
        return self.table.assistant.think_longer(budget, wait)

    def show_solution(
        self, time_limit: float = 10.0, delay: float = 0.4, wait: bool = False
    ) -> None:
        """Start the solution's playback: the scorecard says a solution was used, and, as
        the solver read the stock, that the game peeked."""
        time_limit = check_seconds(time_limit, "time_limit")
        card = self.table.card
        card.solution_used = card.peek = True
        job = self.table.assistant.show_solution(time_limit, delay)
        if wait:
            job.join()

    def finish(self, delay: float = 0.12, wait: bool = False) -> list[Move]:
        """Play the finishing moves back, or say why there are none."""
        table = self.table
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
        """Wait for the assistant's jobs, the auto-save and the statistics' writes; False
        on timeout."""
        done = self.table.assistant.wait(timeout)
        autosave = self.table.autosave
        saved = autosave is None or autosave.flush(timeout)
        return self.table.keeper.flush(timeout) and saved and done
