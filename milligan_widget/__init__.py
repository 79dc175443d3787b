"""Miss Milligan, the two-deck patience, as a Python library and a Jupyter widget.

>>> from milligan_widget import Game
>>> game = Game.new(1)
>>> game.play("d")
Move('d')
>>> game.stock_count
88

The package is in layers, bottom up; each folder imports only the folders before it
(``tests/test_layers.py`` holds the order):

- ``engine/``: the rules and one game (cards, rules, moves, positions, deals, :class:`Game`),
  its formats (text and HTML pictures, save files, the offline page) and the trapped-card
  test. It knows nothing of solvers, players or the widget.
- ``core/``: the search core, the compiled extension and its pure-Python twin, behind one
  interface.
- ``search/``: what sees the whole deal: the thoughtful solver, and the greedy heuristics it
  falls back on.
- ``analysis/``: what a player may know: sampling the hidden cards, the chance to win, the
  honest hints (and the solver's advice beside them), the honest player, the game review.
- ``strategy``: the catalogue of players and playing many deals with one.
- ``teaching/``: lessons, the built-in lessons and staged positions.
- ``studies/``: many games at once: statistics, solver studies, deals by difficulty, the
  Gymnasium environment.
- ``widget/``: the notebook widget (its own layers: ``tests/widget/test_layers.py``).
"""

from typing import Any

from .engine import (
    PRESETS,
    Card,
    CardError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    MilliganError,
    Move,
    Rules,
    RulesError,
    SaveFileError,
    __version__,
    deal_order,
)

__all__ = [
    "PRESETS",
    "Card",
    "CardError",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "MilliganError",
    "MilliganWidget",
    "Move",
    "Rules",
    "RulesError",
    "SaveFileError",
    "__version__",
    "deal_order",
]


def __getattr__(name: str) -> Any:
    # The widget needs anywidget and the built front end: import it only when asked for,
    # so the engine works without either.
    if name == "MilliganWidget":
        from .widget import MilliganWidget

        return MilliganWidget
    raise AttributeError(f"module 'milligan_widget' has no attribute {name!r}")
