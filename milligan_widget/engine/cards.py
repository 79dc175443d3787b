"""Playing cards: parsing, formatting and the small-integer codes the engine runs on.

A card is a value, not a physical object: the two 7♥ of a double deck are equal.
Inside the engine a card is a small integer ``code = (rank - 1) * 4 + suit`` with the
suits in PySolFC's order (clubs, spades, hearts, diamonds), so that ``code >> 1`` is
``(rank - 1) * 2 + colour`` with colour 0 for black and 1 for red.

>>> Card.parse("th")
Card('10H')
>>> str(Card.parse("QS")), Card.parse("QS").unicode
('QS', 'Q♠')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import total_ordering

from .errors import MilliganError, shown

SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = (
    "Ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "Jack",
    "Queen",
    "King",
)
_RANK_ALIASES = {"T": 10, "1": 1}


class CardError(MilliganError):
    """A card code that cannot be read, such as ``"11H"`` or ``"Q?"``."""


@total_ordering
class Card:
    """One playing card, Ace low. Build one with :meth:`parse` or ``Card(rank, suit)``.

    >>> c = Card(7, "H")
    >>> c, c.red, c.code
    (Card('7H'), True, 26)
    """

    __slots__ = ("code",)
    code: int

    def __new__(cls, rank: int, suit: str) -> Card:
        if not isinstance(rank, int) or not 1 <= rank <= 13:
            raise CardError(f"a rank is 1 (Ace) to 13 (King), not {shown(rank)}")
        if not isinstance(suit, str) or len(suit) != 1 or suit.upper() not in SUITS:
            raise CardError(f"a suit is one of C, S, H, D, not {shown(suit)}")
        return CARDS[(rank - 1) * 4 + SUITS.index(suit.upper())]

    @classmethod
    def _make(cls, code: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with the engine's integer code (0..51)."""
        return CARDS[code]

    @classmethod
    def parse(cls, text: Card | str) -> Card:
        """Read ``"10H"``, ``"TH"``, ``"th"``, ``"QS"``, ``"AD"`` or ``"10♥"``."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card is written like '10H' or 'QS', not {shown(text)}")
        code = _PARSE.get(text.strip().upper())
        if code is None:
            raise CardError(f"{shown(text)} is not a card (write it like '10H', 'QS' or 'AD')")
        return CARDS[code]

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King)."""
        return (self.code >> 2) + 1

    @property
    def suit(self) -> str:
        """One of ``"C"``, ``"S"``, ``"H"``, ``"D"``."""
        return SUITS[self.code & 3]

    @property
    def red(self) -> bool:
        """True for hearts and diamonds."""
        return bool(self.code & 2)

    @property
    def unicode(self) -> str:
        """The card with a suit symbol, such as ``"10♥"``."""
        return RANKS[self.code >> 2] + SUIT_SYMBOLS[self.code & 3]

    @property
    def name(self) -> str:
        """The card in words, such as ``"10 of hearts"``."""
        return f"{RANK_NAMES[self.code >> 2]} of {SUIT_NAMES[self.code & 3]}"

    def __str__(self) -> str:
        return RANKS[self.code >> 2] + SUITS[self.code & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __format__(self, spec: str) -> str:
        return self.unicode if spec == "u" else format(str(self), spec)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.code == self.code

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.code & 3) < (other.rank, other.code & 3)

    def __hash__(self) -> int:
        return hash(("Card", self.code))

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return (Card.from_code, (self.code,))


CARDS: tuple[Card, ...] = tuple(Card._make(code) for code in range(52))

_PARSE: dict[str, int] = {}
for _code in range(52):
    _rank, _suit = _code >> 2, _code & 3
    for _r in {RANKS[_rank], *(k for k, v in _RANK_ALIASES.items() if v == _rank + 1)}:
        for _s in (SUITS[_suit], SUIT_SYMBOLS[_suit]):
            _PARSE[_r + _s] = _code
del _code, _rank, _suit, _r, _s


#: A card as the public API takes it: a :class:`Card`, its text (``"10H"``) or its code (0..51).
CardLike = Card | str | int


def parse_cards(cards: str | Iterable[CardLike]) -> list[int]:
    """Codes for a sequence of cards given as :class:`Card`, text or integer codes.

    A single string may hold several cards separated by spaces or commas.

    >>> parse_cards("10H, QS") == parse_cards([Card.parse("10H"), 45])
    True
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    elif not isinstance(cards, Iterable) or isinstance(cards, (bytes, dict, Card)):
        raise CardError(f"give the cards as a list, like ['10H', 'QS'], not {shown(cards)}")
    return [_code_of(card) for card in cards]


def _code_of(card: CardLike) -> int:
    if isinstance(card, int):  # a code; a bool is refused as not a card
        if 0 <= card < 52 and not isinstance(card, bool):
            return card
        raise CardError(f"a card is written like '10H' or 'QS', not {shown(card)}")
    return Card.parse(card).code


def cards_text(codes: Iterable[int]) -> str:
    """Engine codes as Unicode cards separated by spaces, such as ``"5♦ 4♣"``."""
    return " ".join(CARDS[code].unicode for code in codes)


def full_deck(decks: int = 2) -> list[int]:
    """Codes of ``decks`` standard decks, deck by deck, clubs, spades, hearts, diamonds, A..K."""
    return [rank * 4 + suit for _ in range(decks) for suit in range(4) for rank in range(13)]
