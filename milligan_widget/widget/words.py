"""The widget's own words around the engine's."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from milligan_widget.engine import Game


def sentence(text: str) -> str:
    """The engine's plain words as a sentence on the message line (capital first letter)."""
    return text[:1].upper() + text[1:]


def moves(count: int) -> str:
    """Words for a count of moves.

    >>> moves(1), moves(12)
    ('1 move', '12 moves')
    """
    return f"{count} move{'s' * (count != 1)}"


def about(game: Game) -> str:
    """A game in a few words.

    >>> from milligan_widget import Game
    >>> about(Game.new(8).after("d"))
    'deal #8 (classic) after 1 move'
    """
    seed = f"deal #{game.seed}" if game.seed is not None else "a game"
    return f"{seed} ({game.rules.name or 'custom rules'}) after {moves(game.ply)}"
