"""What sees the whole deal: the thoughtful solver, which knows the stock
(:mod:`.solver`), and the greedy heuristics it falls back on (:mod:`.greedy`). Nothing here
is honest: a player's view is :mod:`milligan_widget.analysis`'s.

>>> from milligan_widget import Game
>>> solve(Game.new(8), time_limit=10).status
'winnable'
"""

from .greedy import greedy, greedy_hint, position_score
from .solver import UNKNOWN, UNWINNABLE, WINNABLE, SolveResult, no_win_left, shorten, solve

__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "SolveResult",
    "greedy",
    "greedy_hint",
    "no_win_left",
    "position_score",
    "shorten",
    "solve",
]
