"""Numbered deals, identical to PySolFC's Miss Milligan deals of the same number.

PySolFC builds the cards deck by deck (clubs, spades, hearts, diamonds; Ace to King),
shuffles them with one of two generators, and deals from the end of the list:

* deals 1 .. 31999: the linear congruential generator of Microsoft's C library
  (``LCRandom31``): ``state = state * 214013 + 2531011``, each draw being bits 16..30 of
  the new state, and a position ``draw % (n + 1)``;
* deals 32000 .. 10**20 - 1: the Mersenne Twister MT19937 seeded with the deal number
  (``MTRandom``, a subclass of :class:`random.Random`), a position being
  ``int(random() * (n + 1))``.

Both shuffles are the same backward walk: for ``n`` from the last index down to 1, swap
item ``n`` with the item at a drawn position ``0 .. n``. This is PySolFC's own shuffle, not
:meth:`random.Random.shuffle` (which draws positions differently). The code here needs
nothing outside the standard library, so it runs under Pyodide; the tests check it
against the ``pysol-cards`` package.

>>> [str(c) for c in deal_order(1)[:8]]
['3D', '5H', 'JC', 'KH', '5S', '5H', 'KC', 'KC']
"""

from __future__ import annotations

import random
from typing import TypeVar

from .cards import CARDS, Card, full_deck
from .errors import MilliganError, shown

MAX_DEAL = 10**20 - 1
_LCG_LIMIT = 32000
_LCG_MASK = 0x7FFFFFFF  # only bits 16..30 are ever read, so 31 bits of state suffice
T = TypeVar("T")


def deal_number(text: str) -> int:
    """The deal number written in ``text``: ASCII digits only (``int()`` would also read
    other scripts' digits, "٣" or "０７"), from 1 to 10**20 - 1; a :class:`MilliganError`
    in a player's words otherwise.

    >>> deal_number(" 27 ")
    27
    >>> deal_number("٣")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    milligan_widget.engine.errors.MilliganError: '٣' is not a deal number: write it in the ...
    """
    digits = text.strip() if isinstance(text, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits) <= 20 and int(digits) >= 1:
        return int(digits)
    raise MilliganError(
        f"{shown(text)} is not a deal number: write it in the digits 0 to 9, from 1 to 10**20 - 1"
    )


def deal_order(number: int, decks: int = 2) -> list[Card]:
    """The cards of deal ``number`` (1 .. 10**20 - 1) in dealing order."""
    return [CARDS[code] for code in deal_codes(number, decks)]


def deal_codes(number: int, decks: int = 2) -> list[int]:
    """Like :func:`deal_order`, as engine card codes."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEAL:
        raise MilliganError(f"deal numbers run from 1 to 10**20 - 1, not {shown(number)}")
    cards = full_deck(decks)
    if number < _LCG_LIMIT:
        lcg_shuffle(cards, number)
    else:
        mt_shuffle(cards, number)
    cards.reverse()
    return cards


def lcg_shuffle(items: list[T], seed: int) -> list[T]:
    """Shuffle ``items`` in place as PySolFC's ``LCRandom31(seed)`` does (1 <= seed < 2**31)."""
    if not 1 <= seed <= _LCG_MASK:
        raise ValueError(f"the LCG shuffle takes seeds 1 .. 2**31 - 1, not {seed}")
    state = seed
    for n in range(len(items) - 1, 0, -1):
        state = (state * 214013 + 2531011) & _LCG_MASK
        j = (state >> 16) % (n + 1)
        items[n], items[j] = items[j], items[n]
    return items


def mt_shuffle(items: list[T], seed: int) -> list[T]:
    """Shuffle ``items`` in place as PySolFC's ``MTRandom(seed)`` does (seed >= 0).

    The generator is the standard library's MT19937, seeded from the 32-bit words of the
    integer (``init_by_array``), exactly the generator ``MTRandom`` inherits; each
    ``random()`` is the usual 53-bit float made from two 32-bit outputs.
    """
    draw = random.Random(seed).random
    for n in range(len(items) - 1, 0, -1):
        j = int(draw() * (n + 1))
        items[n], items[j] = items[j], items[n]
    return items
