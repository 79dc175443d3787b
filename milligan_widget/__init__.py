"""Miss Milligan, the two-deck patience, as a Python library and a Jupyter widget.

>>> from milligan_widget import Game
>>> game = Game.new(1)
>>> game.play("d")
Move('d')
>>> game.stock_count
88
"""

from importlib import metadata as _metadata
from typing import Any

from .cards import Card, CardError
from .deals import deal_order
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    MilliganError,
    RulesError,
    SaveFileError,
)
from .game import Game
from .moves import Move
from .rules import PRESETS, Rules

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
    "deal_order",
]
try:  # the installed distribution's version (pyproject.toml's, at install time)
    __version__: str = _metadata.version("milligan-widget")
except _metadata.PackageNotFoundError:  # not installed: a source tree on sys.path
    __version__ = "0+unknown"


def __getattr__(name: str) -> Any:
    # The widget needs anywidget and the built front end: import it only when asked for,
    # so the engine works without either.
    if name == "MilliganWidget":
        from .widget import MilliganWidget

        return MilliganWidget
    raise AttributeError(f"module 'milligan_widget' has no attribute {name!r}")
