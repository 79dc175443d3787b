"""Advice from the thoughtful solver, which knows the stock: its first winning move, or the
greedy heuristic's guess where it finds no win. The honest hints, from what a player can
see, are in :mod:`.hint`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.search import solver
from milligan_widget.search.greedy import greedy_hint
from milligan_widget.search.solver import UNWINNABLE, WINNABLE, no_win_left


@dataclass(frozen=True)
class Hint:
    """A suggested move, why, and whether the solver or the heuristic chose it."""

    move: Move
    reason: str
    source: str  # "solver" or "heuristic"
    status: str  # the solver's verdict on the position: winnable, unwinnable or unknown
    line: tuple[Move, ...] = ()  # the solver's whole winning line from here, if it found one

    @classmethod
    def on_line(cls, line: Sequence[Move]) -> Hint:
        """The hint at the start of a winning ``line``: its first move."""
        left = len(line)
        reason = f"the solver sees a win from here in {left} move{'s' * (left != 1)}"
        return cls(line[0], reason, "solver", WINNABLE, tuple(line))


def hint(
    game: Game, time_limit: float = 2.0, stop: Callable[[], bool] | None = None
) -> Hint | None:
    """The solver's first move if it finds a win within ``time_limit`` seconds (so following
    it never throws away a win), else the greedy heuristic's move; ``None`` if no move is left.
    ``stop`` cancels the solver as in :func:`~milligan_widget.search.solver.solve`.

    >>> from milligan_widget import Game
    >>> hint(Game.new(8), time_limit=10).source
    'solver'
    """
    if game.status != "playing":
        return None
    result = solver.solve(game, time_limit=time_limit, stop=stop)
    if result.status == WINNABLE:
        return Hint.on_line(result.moves)
    guess = greedy_hint(game)
    if guess is None:
        return None
    move, why = guess
    verdict = (
        f"the solver proved {no_win_left(game)}"
        if result.status == UNWINNABLE
        else f"the solver could not decide in {time_limit:g} s"
    )
    return Hint(move, f"{why} ({verdict}; this is a heuristic guess)", "heuristic", result.status)


__all__ = ["Hint", "hint"]
