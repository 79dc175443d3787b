"""Moves and their text notation.

=========  ==========================================================
``d``      deal a row from the stock
``3>f``    top card of column 3 to a foundation (``3>f5``: foundation 5)
``3>5``    column 3 onto column 5, moving the only run that fits
``3:4>5``  the same with an explicit number of cards
``3:2>r``  set the last 2 cards of column 3 aside into the reserve
``r>5``    reserve onto column 5 (``r:1>5``, ``r>f`` likewise)
``f5>3``   top card of foundation 5 back onto column 3
``3>c``    top card of column 3 to a free cell (``c2>5``, ``c2>f`` out of one)
=========  ==========================================================

Columns, foundations and cells are numbered from 1, left to right. Where the number of
cards is left out it is implied: the run that fits on a non-empty column, the whole
movable run for an empty column, one card for the reserve, a cell or a foundation.

>>> Move.parse("3:2>5")
Move('3:2>5')
>>> Move("t3", "t5", 2) == Move.parse("3:2>5")
True
>>> Move.parse("3>f").target
'f'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .errors import InvalidMoveError
from .errors import shown as _shown

# Pile codes used inside the engine.
RESERVE = 8
FOUNDATION = 9  # foundations 1..8 are 9..16
ANY_FOUNDATION = 17
CELL = 18  # cells 1..4 are 18..21
ANY_CELL = 22
STOCK = 23
MAX_COLUMNS = 8
MAX_FOUNDATIONS = 8
MAX_CELLS = 4
#: The most cards one move may name (a two-deck game has 104). Larger counts are refused
#: when a move is read, so odd input such as ``"3:99999>5"`` never reaches the engine.
MAX_COUNT = 104

_NOTATION = re.compile(  # ASCII digits only: int() would read "٣" as 3
    r"^(?:(?P<deal>d)|(?P<src>\d+|r|f\d+|c\d+)(?::(?P<count>\d+))?>(?P<dst>\d+|r|f\d*|c\d*))$",
    re.ASCII,
)


def pile_code(name: str) -> int:
    """The engine code of a pile name: ``"t3"``, ``"f5"``, ``"f"``, ``"reserve"``, ``"c2"``,
    ``"c"`` or ``"stock"``."""
    code = _PILE_CODES.get(name) if isinstance(name, str) else None
    if code is None:
        raise InvalidMoveError(
            f"{_shown(name)} is not a pile: "
            "use t1..t8, f1..f8 (or f), reserve, c1..c4 (or c), stock"
        )
    return code


def pile_name(code: int) -> str:
    """The pile name of an engine code (inverse of :func:`pile_code`)."""
    return _PILE_NAMES[code]


def _short(code: int) -> str:
    """A pile as written in the notation: ``3``, ``r``, ``f5``, ``f``, ``c2``, ``c``."""
    if code < RESERVE:
        return str(code + 1)
    return (
        _PILE_NAMES[code][0] if code in (RESERVE, ANY_FOUNDATION, ANY_CELL) else _PILE_NAMES[code]
    )


_PILE_NAMES: dict[int, str] = {i: f"t{i + 1}" for i in range(MAX_COLUMNS)}
_PILE_NAMES.update({FOUNDATION + i: f"f{i + 1}" for i in range(MAX_FOUNDATIONS)})
_PILE_NAMES.update({CELL + i: f"c{i + 1}" for i in range(MAX_CELLS)})
_PILE_NAMES.update({RESERVE: "reserve", ANY_FOUNDATION: "f", ANY_CELL: "c", STOCK: "stock"})
_PILE_CODES = {name: code for code, name in _PILE_NAMES.items()}
_SHORT_CODES = {_short(code): code for code in _PILE_NAMES if code != STOCK}


class Move:
    """One move: a source pile, a target pile and, where it matters, a number of cards.

    ``Move(source, target, count)`` takes pile names (``"t1"``..``"t8"``, ``"f1"``..``"f8"``
    or ``"f"`` for any fitting foundation, ``"reserve"``, ``"c1"``..``"c4"`` or ``"c"``);
    ``Move.deal()`` is the deal of a row and :meth:`parse` reads the text notation.
    Moves are immutable values, equal when their text is equal (and equal to that text).

    >>> str(Move("t3", "f"))
    '3>f'
    >>> Move.deal()
    Move('d')
    """

    __slots__ = ("_dst", "_key", "_src", "count")
    _src: int
    _dst: int
    _key: str
    count: int | None

    def __new__(cls, source: str, target: str | None = None, count: int | None = None) -> Move:
        src = pile_code(source)
        if src == STOCK:
            if target not in (None, "tableau") or count is not None:
                raise InvalidMoveError("a deal from the stock takes no target and no count")
            return DEAL
        if target is None:
            raise InvalidMoveError(f"a move from {_shown(source)} needs a target pile")
        dst = pile_code(target)
        return make_move(src, dst, _check_count(count))

    @classmethod
    def deal(cls) -> Move:
        """The deal of one row from the stock."""
        return DEAL

    @classmethod
    def parse(cls, text: Move | str) -> Move:
        """Read a move in the text notation (see the module docstring); a :class:`Move` is
        taken as it is."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is written like '3>5' or 'd', not {_shown(text)}")
        match = _NOTATION.match(text.strip().lower())
        if match is None:
            raise InvalidMoveError(
                f"{_shown(text)} is not a move: write it like '3>5', '3:2>5', '3>f', '3:2>r', "
                "'r>5', 'f5>3', '3>c', 'c2>f' or 'd'"
            )
        if match["deal"]:
            return DEAL
        src, dst = (_SHORT_CODES.get(match[part]) for part in ("src", "dst"))
        if src is None or dst is None:
            raise InvalidMoveError(f"{_shown(text)} names a pile that does not exist")
        digits = match["count"]
        if digits and len(digits.lstrip("0")) > len(str(MAX_COUNT)):
            raise InvalidMoveError(
                f"{_shown(text)} moves more cards than a game has (at most {MAX_COUNT})"
            )
        return make_move(src, dst, _check_count(int(digits) if digits else None))

    @property
    def source(self) -> str:
        """The pile the cards leave: ``"t3"``, ``"reserve"``, ``"f5"``, ``"c2"`` or ``"stock"``."""
        return _PILE_NAMES[self._src]

    @property
    def target(self) -> str | None:
        """The pile the cards go to (``"f"``/``"c"``: any fitting one); ``None`` for a deal."""
        return None if self._src == STOCK else _PILE_NAMES[self._dst]

    @property
    def is_deal(self) -> bool:
        return self._src == STOCK

    def __str__(self) -> str:
        return self._key

    def __repr__(self) -> str:
        return f"Move('{self._key}')"

    def __eq__(self, other: object) -> bool:
        """Moves are equal to moves, and to their text: ``"3>5" in game.legal_moves`` works."""
        if isinstance(other, Move):
            return other._key == self._key
        if isinstance(other, str):
            return other == self._key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[Callable[[str], Move], tuple[str]]:
        return (Move.parse, (self._key,))


def _check_count(count: int | None) -> int | None:
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidMoveError(
            f"the number of cards must be a positive whole number, not {_shown(count)}"
        )
    if count > MAX_COUNT:
        raise InvalidMoveError(f"a move takes at most {MAX_COUNT} cards, not {_shown(count)}")
    return count


#: Every move the engine made, by (source, target, count). It stays bounded: counts above
#: :data:`MAX_COUNT` are refused, and :func:`make_move` does not keep a move outside that.
_INTERNED: dict[tuple[int, int, int | None], Move] = {}


def make_move(src: int, dst: int, count: int | None) -> Move:
    """The (interned) move for engine codes; the engine's move generator uses this."""
    key = (src, dst, count)
    move = _INTERNED.get(key)
    if move is None:
        if dst == STOCK or src in (ANY_FOUNDATION, ANY_CELL):
            raise InvalidMoveError("cards cannot go to the stock, and a move starts from one pile")
        move = object.__new__(Move)
        setattr_ = object.__setattr__
        setattr_(move, "_src", src)
        setattr_(move, "_dst", dst)
        setattr_(move, "count", count)
        text = (
            "d"
            if src == STOCK
            else (_short(src) + ("" if count is None else f":{count}") + ">" + _short(dst))
        )
        setattr_(move, "_key", text)
        if count is None or 0 < count <= MAX_COUNT:
            _INTERNED[key] = move
    return move


DEAL = object.__new__(Move)
for _name, _value in (("_src", STOCK), ("_dst", STOCK), ("count", None), ("_key", "d")):
    object.__setattr__(DEAL, _name, _value)
_INTERNED[(STOCK, STOCK, None)] = DEAL
del _name, _value
