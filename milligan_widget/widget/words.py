"""The widget's own words around the engine's."""

from __future__ import annotations


def sentence(text: str) -> str:
    """The engine's plain words as a sentence on the message line (capital first letter)."""
    return text[:1].upper() + text[1:]


def moves(count: int) -> str:
    """Words for a count of moves.

    >>> moves(1), moves(12)
    ('1 move', '12 moves')
    """
    return f"{count} move{'s' * (count != 1)}"
