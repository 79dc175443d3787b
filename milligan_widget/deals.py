"""Numbered deals, identical to PySolFC's Miss Milligan deals of the same number.

PySolFC builds the cards deck by deck (clubs, spades, hearts, diamonds; Ace to King),
shuffles them with ``LCRandom31(n)`` for n < 32000 and ``MTRandom(n)`` above, using the
generator's own ``shuffle``, and deals from the end of the list.

>>> [str(c) for c in deal_order(1)[:8]]
['3D', '5H', 'JC', 'KH', '5S', '5H', 'KC', 'KC']
"""

from __future__ import annotations

from pysol_cards.random import LCRandom31, MTRandom

from .cards import CARDS, Card, full_deck
from .errors import MilliganError, shown

MAX_DEAL = 10**20 - 1
_LCG_LIMIT = 32000


def deal_order(number: int, decks: int = 2) -> list[Card]:
    """The cards of deal ``number`` (1 .. 10**20 - 1) in dealing order."""
    return [CARDS[code] for code in deal_codes(number, decks)]


def deal_codes(number: int, decks: int = 2) -> list[int]:
    """Like :func:`deal_order`, as engine card codes."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEAL:
        raise MilliganError(f"deal numbers run from 1 to 10**20 - 1, not {shown(number)}")
    cards = full_deck(decks)
    generator = LCRandom31(number) if number < _LCG_LIMIT else MTRandom(number)
    generator.shuffle(cards)
    cards.reverse()
    return cards
