"""The rules and one game: cards, rules and their presets, moves, positions, deals, the
:class:`Game` with its history, and its formats (text and HTML pictures, save files, the
offline page). It knows nothing of solvers, players or the widget.

>>> from milligan_widget.engine import Game
>>> Game.new(1).stock_count
96
"""

from .cards import Card, CardError
from .deals import deal_order
from .errors import IllegalMoveError, InvalidMoveError, MilliganError, RulesError, SaveFileError
from .game import Game
from .moves import Move
from .rules import PRESETS, Rules
from .version import __version__

__all__ = [
    "PRESETS",
    "Card",
    "CardError",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "MilliganError",
    "Move",
    "Rules",
    "RulesError",
    "SaveFileError",
    "__version__",
    "deal_order",
]
