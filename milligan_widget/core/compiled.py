"""The search interface on the compiled core (``milligan_widget.core._ccore``, C).

:class:`CCore` adds to the extension's type what is not worth doing in C: reading a position
in, the views the trapped-card test reads, and turning handles back into moves. A handle is
an int packing the action record and the move (see ``_ccore.c``).

>>> from milligan_widget import Game
>>> core = CCore(Game.new(8))
>>> core.key()[1], core.cards_home(), core.rows_left()
(0, 0, 12)
>>> [str(core.move_of(h)) for h in core.moves()][-1]
'd'
"""

from __future__ import annotations

from collections.abc import Callable

from milligan_widget.engine.moves import Move, make_move
from milligan_widget.engine.position import DEAL_ROW, HIDDEN, TURN_UP, Action, Position, SearchKey

from ._ccore import CoreBase, KeySet, RandomNoise, Search, Walk

_TAKEBACK = ("never", "always", "stock-empty")
# The fields of each kind of action record, in the order Position.action gives them.
_FIELDS = {
    0: "a b k run",  # COLUMN_TO_COLUMN: src, dst, k, run
    1: "a b run",  # COLUMN_TO_FOUNDATION: src, pile, run
    2: "a",  # DEAL_ROW: cards dealt (the runs before are not kept)
    3: "a k run",  # COLUMN_TO_RESERVE: src, k, run
    4: "a k",  # RESERVE_TO_COLUMN: dst, k
    5: "a",  # RESERVE_TO_FOUNDATION: pile
    6: "a b",  # FOUNDATION_TO_COLUMN: pile, dst
    7: "a b run",  # COLUMN_TO_CELL: src, cell, run
    8: "a b",  # CELL_TO_COLUMN: cell, dst
    9: "a b",  # CELL_TO_FOUNDATION: cell, pile
    11: "a b k run drun",  # GROUP_TO_COLUMN: src, dst, k, run, dst's run
}
_SHIFTS = {"a": 5, "b": 12, "k": 19, "run": 26, "drun": 33}


class CCore(CoreBase):
    """A private copy of a position in the compiled core (see :mod:`milligan_widget.core`)."""

    backend = "c"

    def __init__(self, position: Position) -> None:
        r = position.rules
        flags = (
            r.columns,
            r.decks,
            r.cells,
            r.empty_column == "king",
            ("none", "single", "sequence").index(r.reserve),
            r.reserve_unload == "any-part",
            r.moves == "groups",
            r.deal == "face-down",
            bool(r.reserve_to_foundation),
            r.reserve_opens == "any-time",
            _TAKEBACK.index(r.foundation_takeback),
        )
        cols = tuple(
            bytes([c + HIDDEN for c in col[:down]] + list(col[down:]))
            for col, down in zip(position.column_codes, position.face_down, strict=True)
        )
        super().__init__(
            flags,
            cols,
            bytes(position.foundation_heights),
            bytes(position.stock_codes),
            bytes(position.reserve_codes),
            tuple(position.cell_codes),
            r,
        )
        self.rules = r
        self.total = r.card_count
        self.fsuit = position.foundation_suit_codes

    @property
    def column_codes(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(c & ~HIDDEN for c in col) for col in self.state()[0])

    @property
    def stock_codes(self) -> tuple[int, ...]:
        return self.state()[6]

    @property
    def foundation_heights(self) -> tuple[int, ...]:
        return self.state()[1]

    @property
    def foundation_suit_codes(self) -> tuple[int, ...]:
        return self.fsuit

    def shape(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        columns, foundations = self.state()[:2]
        return tuple(foundations), tuple(sorted(map(len, columns)))

    def search(
        self, lost: set[SearchKey] | KeySet, deal_score: int, noise: Callable[[], float] | None
    ) -> Search:
        """A best-first search on this core (as :class:`~milligan_widget.core.python.PySearch`,
        in C)."""
        return Search(self, lost, deal_score, noise)

    def walk(
        self,
        lost: set[SearchKey] | KeySet,
        deal_score: int,
        noise: Callable[[], float] | None,
        trap_rows: int,
        trap_pays: int,
        max_depth: int,
    ) -> Walk:
        """The depth-first walk on this core (as :class:`~milligan_widget.core.python.PyWalk`,
        in C)."""
        return Walk(self, lost, deal_score, noise, trap_rows, trap_pays, max_depth)

    @staticmethod
    def key_set() -> KeySet:
        """An empty set of keys the compiled searches read without making Python keys."""
        return KeySet()

    @staticmethod
    def random_noise(seed: int) -> RandomNoise:
        """``random.Random(seed).random``'s numbers, drawn in C by the compiled searches
        (without the GIL, as they search)."""
        return RandomNoise(seed)

    def move_of(self, handle: int) -> Move:
        count = (handle >> 50) & 127
        return make_move((handle >> 40) & 31, (handle >> 45) & 31, count or None)

    def is_deal(self, handle: int) -> bool:
        return handle & 15 == DEAL_ROW

    def turns_up(self, handle: int) -> bool:
        return bool(handle & 16)

    def record(self, handle: int) -> Action:
        """The action record of a handle, as :meth:`Position.action` gives it (a deal
        without the runs before it)."""
        kind = handle & 15
        record: tuple[int | None, ...] = (
            kind,
            *((handle >> _SHIFTS[f]) & 127 for f in _FIELDS[kind].split()),
        )
        if kind == DEAL_ROW:
            record += (None,)
        return (TURN_UP, record, record[1]) if handle & 16 else record
