"""A position and the rules of play: legal moves, checking a move, doing and undoing it.

:class:`Position` is the fast core that :class:`~milligan_widget.engine.game.Game` (and a solver)
builds on. Cards are small integers (see :mod:`milligan_widget.engine.cards`); each column keeps the
length of the movable run at its end; a move is checked once and turned into an *action
record*, a tuple with all it takes to do and undo it, so undo reverses the action instead of
restoring a snapshot.

Face-down cards (docs/rules.md §3.10) lie in their columns as their code plus
:data:`HIDDEN`: such a code never fits on or under another card, so a run stops at a face-down
card by itself, and position keys and snapshots tell them apart from face-up cards for free.
The engine interface (:attr:`Position.column_codes`) gives the plain codes, and
:attr:`Position.face_down` the number of face-down cards at the bottom of each column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .cards import CARDS, SUIT_NAMES, cards_text
from .errors import IllegalMoveError
from .moves import ANY_CELL, ANY_FOUNDATION, CELL, DEAL, FOUNDATION, RESERVE, STOCK, Move, make_move
from .rules import Rules

KING = 12  # rank index (rank - 1) of a King
HIDDEN = 64  #: added to a card's code while it lies face down in a column

# Kinds of action record (the resolved form of a move, enough to undo it).
COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DEAL_ROW = 0, 1, 2
COLUMN_TO_RESERVE, RESERVE_TO_COLUMN, RESERVE_TO_FOUNDATION = 3, 4, 5
FOUNDATION_TO_COLUMN, COLUMN_TO_CELL, CELL_TO_COLUMN, CELL_TO_FOUNDATION = 6, 7, 8, 9
# A move that uncovers a face-down card, which turns up as part of it: (TURN_UP, the move's
# own action, the column); and a Yukon group that is not a run (docs/rules.md §3.11):
# (GROUP_TO_COLUMN, src, dst, k, src's run before, dst's run before).
TURN_UP, GROUP_TO_COLUMN = 10, 11

#: An action record: (kind, fields...), the fields depending on the kind (ints, the runs
#: before a deal, or for ``TURN_UP`` the move's own record). The engine reads a field by its
#: place once it knows the kind, which a type checker cannot follow through a union of tuple
#: shapes without casts in the hot loops; so the fields are typed loosely here, and only here.
Action = tuple[Any, ...]
#: A search key (see :meth:`Position.search_key`): the packed piles and the cards dealt.
SearchKey = tuple[bytes, int]
#: The piles in the compact form of :meth:`Position.snapshot`: columns, foundation heights,
#: cards dealt, reserve, cells.
Snapshot = tuple[tuple[bytes, ...], tuple[int, ...], int, bytes, tuple[int, ...]]
#: A position as :meth:`Position.position_key` sees it: columns, foundations by suit, stock
#: left, reserve, cells.
PositionKey = tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int, tuple[int, ...], tuple[int, ...]
]
#: Every pile exactly, and the rules (see :meth:`Position.exact_key`).
ExactKey = tuple[
    tuple[tuple[int, ...], ...],  # columns
    tuple[int, ...],  # foundation heights
    tuple[int, ...],  # stock
    tuple[int, ...],  # reserve
    tuple[int, ...],  # cells
    Rules,
]
#: Where the move generator puts the moves it finds (``list.append``).
AddMove = Callable[[Move], None]


def fits(card: int, onto: int) -> bool:
    """Does ``card`` go on ``onto`` in the tableau: one rank lower, the other colour."""
    return (onto >> 1) == ((card >> 1) ^ 1) + 2


def run_length(column: Sequence[int]) -> int:
    """Number of cards in the alternating descending run at the end of ``column``."""
    i = len(column) - 1
    if i < 0:
        return 0
    card = column[i]
    while i > 0:
        below = column[i - 1]
        if (below >> 1) != ((card >> 1) ^ 1) + 2:
            break
        card = below
        i -= 1
    return len(column) - i


def face_down_count(column: Sequence[int]) -> int:
    """How many cards at the bottom of ``column`` (engine codes) lie face down."""
    n = 0
    for card in column:
        if card < HIDDEN:
            break
        n += 1
    return n


def _unicode(code: int) -> str:
    return CARDS[code].unicode


class Position:
    """The piles of one position under one set of rules, without any history."""

    __slots__ = (
        "_any_part",
        "_cells",
        "_cols",
        "_deck",
        "_flips",
        "_found",
        "_fpiles",
        "_fsuit",
        "_groups",
        "_king_only",
        "_ncells",
        "_ncols",
        "_nfound",
        "_plain",
        "_pos",
        "_rare",
        "_reserve",
        "_reserve_mode",
        "_rules",
        "_runs",
        "_tableau",
    )
    # The piles, set up by the subclass that deals them (Game) and changed by moves.
    _deck: tuple[int, ...]  # the dealing order; the stock is _deck[_pos:]
    _pos: int
    _cols: list[list[int]]  # face-down cards plus HIDDEN
    _runs: list[int]
    _found: list[int]
    _reserve: list[int]
    _cells: list[int]  # -1 for an empty cell

    def _configure(self, rules: Rules) -> None:
        """Derive the rule flags the hot paths read."""
        self._rules = rules
        self._ncols = rules.columns
        self._nfound = rules.foundation_count
        self._ncells = rules.cells
        self._king_only = rules.empty_column == "king"
        self._reserve_mode = ("none", "single", "sequence").index(rules.reserve)
        self._any_part = rules.reserve_unload == "any-part"
        self._groups = rules.moves == "groups"  # Yukon moves (docs/rules.md §3.11)
        self._flips = rules.deal == "face-down"  # face-down cards (docs/rules.md §3.10)
        self._plain = not (self._groups or self._flips)  # the fast paths of Game.play hold
        # Moves beyond columns and foundations exist (the reserve, cells or take-backs).
        takeback = rules.foundation_takeback != "never"
        self._rare = bool(self._reserve_mode or self._ncells or takeback)
        per_suit = rules.decks
        self._fsuit = tuple(p // per_suit for p in range(self._nfound))
        self._fpiles = tuple(tuple(range(s * per_suit, (s + 1) * per_suit)) for s in range(4))
        self._tableau = b""  # the columns of the last search_key, for buried_next

    def _exact_key(self) -> ExactKey:
        return (
            tuple(map(tuple, self._cols)),
            tuple(self._found),
            self._deck[self._pos :],
            tuple(self._reserve),
            tuple(self._cells),
            self._rules,
        )

    def position_key(self) -> PositionKey:
        """A key equal for positions a player cannot tell apart: column order, the order of
        same-suit foundations and of cells do not matter. Face-down cards are told apart by
        the column they lie in, never by what they are (they never move, so within a game
        that is the same, and the key reads nothing hidden)."""
        found = self._found
        cols: Iterable[Sequence[int]] = self._cols
        if self._flips:
            cols = ([c if c < HIDDEN else -1 - i for c in col] for i, col in enumerate(cols))
        return (
            tuple(sorted(map(tuple, cols))),
            tuple(tuple(sorted(found[p] for p in piles)) for piles in self._fpiles),
            len(self._deck) - self._pos,
            tuple(self._reserve),
            tuple(sorted(self._cells)),
        )

    # ------------------------------------------------------------------ the engine interface
    # What the package's other modules (render, savefile, strategy, deadlock, a solver) read
    # and do: the piles as card codes (see milligan_widget.engine.cards: rank * 4 + suit), copied so
    # that nothing outside changes a position behind its back, and actions, the resolved
    # form of a move, to try a move and take it back without touching a game's history.

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def column_codes(self) -> tuple[tuple[int, ...], ...]:
        """Each column bottom to top, as card codes (face-down cards too: see
        :attr:`face_down`; their identity is hidden information, like the stock's)."""
        if self._flips:
            return tuple(tuple(c & ~HIDDEN for c in col) for col in self._cols)
        return tuple(map(tuple, self._cols))

    @property
    def face_down(self) -> tuple[int, ...]:
        """For each column, how many cards at its bottom lie face down (docs/rules.md §3.10);
        0 everywhere without a face-down deal."""
        return tuple(map(face_down_count, self._cols))

    @property
    def runs(self) -> tuple[int, ...]:
        """For each column, how many cards at its end form the alternating run (never a
        face-down card)."""
        return tuple(self._runs)

    @property
    def movable(self) -> tuple[int, ...]:
        """For each column, how many cards at its end may be picked up together to go onto a
        column: the run, or with Yukon moves every face-up card (docs/rules.md §3.11)."""
        if self._groups:
            return tuple(len(col) - face_down_count(col) for col in self._cols)
        return tuple(self._runs)

    @property
    def foundation_heights(self) -> tuple[int, ...]:
        """How many cards each foundation pile holds (its top card's rank, 0 for none)."""
        return tuple(self._found)

    @property
    def foundation_suit_codes(self) -> tuple[int, ...]:
        """The suit code (0 clubs, 1 spades, 2 hearts, 3 diamonds) of each foundation pile."""
        return self._fsuit

    @property
    def reserve_codes(self) -> tuple[int, ...]:
        """The reserve's cards, in the order they lay in their column."""
        return tuple(self._reserve)

    @property
    def cell_codes(self) -> tuple[int, ...]:
        """The free cells' cards, -1 for an empty cell."""
        return tuple(self._cells)

    @property
    def stock_codes(self) -> tuple[int, ...]:
        """The cards still to deal, in dealing order. This reveals the stock."""
        return tuple(self._deck[self._pos :])


    def foundation_for(self, card: int) -> int | None:
        """The foundation pile (0-based) the card ``card`` may go on now, or ``None``."""
        found, rank = self._found, card >> 2
        for p in self._fpiles[card & 3]:
            if found[p] == rank:
                return p
        return None

    def safe_to_home(self, card: int) -> bool:
        """Can ``card`` go home without ever hurting (the rule of
        ``Game.safe_foundation_moves``)? It does not check that it is free to go.

        Every pile of the card's suit is ready for it or past it, and (from the 3s up) every
        card of the other colour one rank lower is home. With Yukon moves no card is safe
        while the stock has cards: a row dealt onto it could leave again only in a group led
        by it (docs/rules.md §3.11)."""
        if self._groups and self._pos < len(self._deck):
            return False
        found, fpiles, rank = self._found, self._fpiles, card >> 2
        if any(found[p] < rank for p in fpiles[card & 3]):
            return False
        other = (0, 1) if card & 2 else (2, 3)
        return rank <= 1 or all(found[p] >= rank for s in other for p in fpiles[s])

    def moves_and_actions(self) -> list[tuple[Move, Action]]:
        """Every legal move, in the order of ``Game.legal_moves``, with its action record.

        >>> from milligan_widget import Game
        >>> Game.new(8).moves_and_actions()[0][0]
        Move('d')
        """
        resolve = self._resolve
        return [(move, resolve(move)) for move in self._generate()]

    def search_key(self) -> SearchKey:
        """A compact key for a search's tables: (bytes, cards dealt). Column order counts
        only while rows are still to be dealt (each lands on given columns); the two piles of
        a suit count in either order, and so do the cells.

        >>> from milligan_widget import Game
        >>> Game.new(8).search_key()[1]  # the opening row came from the deck too
        8
        """
        cols = list(map(bytes, self._cols))
        if self._pos >= len(self._deck):
            cols.sort()
        self._tableau = tableau = b"\xff".join(cols)
        f = self._found
        if len(f) == 8:  # the two piles of a suit in either order: sum and difference
            a, b, c, d, e, h, i, j = f
            heights = bytes(
                (a + b, abs(a - b), c + d, abs(c - d), e + h, abs(e - h), i + j, abs(i - j))
            )
        else:
            heights = bytes(f)
        key = tableau + b"|" + heights + bytes(self._reserve)
        if self._ncells:
            key += b"|" + bytes(sorted(c & 0xFF for c in self._cells))
        return key, self._pos

    def buried_next(self) -> int:
        """How deep the cards the foundations need next are buried, summed over the piles
        (0: all free; 99 for a card not in the columns or the reserve), in the position of
        the last :meth:`search_key`."""
        tableau, reserve = self._tableau, self._reserve
        total = 0
        depths: dict[int, int] = {}
        for height, suit in zip(self._found, self._fsuit, strict=True):
            if height < 13:
                card = height * 4 + suit
                depth = depths.get(card)
                if depth is None:
                    depth = 99
                    for code in (card, card + HIDDEN) if self._flips else (card,):
                        at = tableau.find(code)
                        while at >= 0:  # each copy: the cards above it, up to the separator
                            end = tableau.find(255, at)
                            depth = min(depth, (len(tableau) if end < 0 else end) - at - 1)
                            at = tableau.find(code, at + 1)
                    if card in reserve:
                        depth = min(depth, reserve[::-1].index(card))
                    depths[card] = depth
                total += depth
        return total

    def apply_safe_home_moves(self) -> list[tuple[Move, Action]]:
        """Play safe foundation moves (the rule of :meth:`safe_to_home`) until none is left,
        without a game's history; return (move, action) for each, to undo them with
        :meth:`unapply_action`, last first.

        >>> from milligan_widget.teaching.lessons import stage
        >>> game = stage({1: "AC", 2: "AC 2C"}, rules="millie")  # 2♣ waits for the other A♣
        >>> [str(move) for move, _ in game.apply_safe_home_moves()]
        ['1>f']
        """
        found, fsuit, safe, cols = self._found, self._fsuit, self._safe_home, self._cols
        played: list[tuple[Move, Action]] = []
        while True:
            ready = {h * 4 + s for h, s in zip(found, fsuit, strict=True) if h < 13}
            move: Move | None
            for i, col in enumerate(cols):  # the common case, without the generator
                if col and col[-1] in ready and safe(col[-1]):
                    move = _TO_FOUNDATION[i]
                    break
            else:
                move = self._safe_elsewhere(ready) if self._reserve or self._ncells else None
                if move is None:
                    return played
            action = self._resolve(move)
            self._apply(action)
            played.append((move, action))

    def _safe_elsewhere(self, ready: set[int]) -> Move | None:
        """A move sending a safe card home from the reserve or a cell, or ``None``."""
        for source, card in self._free_cards():
            if card in ready and self._safe_home(card):
                return make_move(source, ANY_FOUNDATION, None)
        return None

    # ------------------------------------------------------------------ for searches
    # Live views for a search's hot loop (milligan_widget.search_core): the position's own
    # lists, not copies, for speed. Read them, never change them, and read them again after
    # any change of position (a move may put new lists in their place).

    @property
    def live_columns(self) -> list[list[int]]:
        """The columns bottom to top as engine codes, face-down cards plus :data:`HIDDEN`."""
        return self._cols

    @property
    def live_foundations(self) -> list[int]:
        """The foundation heights (as :attr:`foundation_heights`)."""
        return self._found

    @property
    def live_reserve(self) -> list[int]:
        """The reserve's cards (as :attr:`reserve_codes`)."""
        return self._reserve

    @property
    def live_cells(self) -> list[int]:
        """The cells' cards, -1 for an empty one (as :attr:`cell_codes`)."""
        return self._cells

    @property
    def stock_left(self) -> int:
        """Cards still in the stock."""
        return len(self._deck) - self._pos

    @property
    def dealt(self) -> int:
        """Cards taken from this position's deck so far, the opening deal's too (0 for a copy
        made with ``Game.copy(history=False)``); part of a search key."""
        return self._pos

    def free_cards(self) -> list[tuple[int, int]]:
        """(pile code, card) for every card that may leave its pile for a foundation: the
        columns' top cards, the reserve's end card where the rules allow, the cells' cards."""
        return list(self._free_cards())

    def exact_key(self) -> ExactKey:
        """A key equal for exactly the same position, pile for pile (and the same rules)."""
        return self._exact_key()

    def snapshot(self) -> Snapshot:
        """The piles in a compact, hashable form, for :meth:`restore` (a solver's undo)."""
        return (
            tuple(map(bytes, self._cols)),
            tuple(self._found),
            self._pos,
            bytes(self._reserve),
            tuple(self._cells),
        )

    def restore(self, snapshot: Snapshot) -> None:
        """Put back the piles of a :meth:`snapshot` of this position or one reached from it.
        For search on a private copy: a game's history does not follow (``Game.copy(history=
        False)`` makes such a copy)."""
        cols, found, self._pos, reserve, cells = snapshot
        self._cols = [list(col) for col in cols]
        self._runs = [run_length(col) for col in self._cols]
        self._found = list(found)
        self._reserve = list(reserve)
        self._cells = list(cells)

    def _reserve_is_open(self) -> bool:
        return self._rules.reserve_opens == "any-time" or self._pos >= len(self._deck)

    def _column_index(self, code: int) -> int:
        if code >= self._ncols:
            raise IllegalMoveError(f"there is no column {code + 1}: these rules have {self._ncols}")
        return code

    _foundation_pile = foundation_for
    _safe_home = safe_to_home

    def _free_cards(self) -> Iterator[tuple[int, int]]:
        """(source code, card) for every card that may leave for a foundation."""
        for i, col in enumerate(self._cols):
            if col:
                yield i, col[-1]
        if self._reserve and (
            self._rules.reserve_to_foundation and (self._any_part or len(self._reserve) == 1)
        ):
            yield RESERVE, self._reserve[-1]
        for i, card in enumerate(self._cells):
            if card >= 0:
                yield CELL + i, card

    def action(self, move: Move) -> Action:
        """The action record of a legal ``move`` (:class:`IllegalMoveError` with the reason
        otherwise); its first item is the kind (``COLUMN_TO_COLUMN``...), the rest depends on
        the kind.

        >>> from milligan_widget import Game
        >>> Game.new(8).action(Move.deal())[:2]
        (2, 8)
        """
        src, dst = move._src, move._dst
        if src < RESERVE:
            col_index = self._column_index(src)
            return self._resolve_from_column(col_index, dst, move.count)
        if src == STOCK:
            if self._pos >= len(self._deck):
                raise IllegalMoveError("the stock is empty: there is no row left to deal")
            return (DEAL_ROW, min(self._ncols, len(self._deck) - self._pos), tuple(self._runs))
        if src == RESERVE:
            return self._resolve_from_reserve(dst, move.count)
        if src < ANY_FOUNDATION:
            return self._resolve_from_foundation(src - FOUNDATION, dst, move.count)
        return self._resolve_from_cell(src - CELL, dst, move.count)

    _resolve = action

    def _resolve_from_column(self, src: int, dst: int, count: int | None) -> Action:
        col = self._cols[src]
        if not col:
            raise IllegalMoveError(f"column {src + 1} is empty")
        run = self._runs[src]
        if count is not None and count > run:
            self._check_beyond_run(col, count, src, dst)
        if dst < RESERVE:
            dst = self._column_index(dst)
            if dst == src:
                raise IllegalMoveError("cards cannot move onto their own column")
            if self._groups:
                action = self._group_onto_column(src, dst, count)
            else:
                k = self._count_onto_column(col, run, count, dst, f"column {src + 1}")
                action = (COLUMN_TO_COLUMN, src, dst, k, run)
        elif dst == RESERVE:
            self._check_reserve_takes(count or 1)
            action = (COLUMN_TO_RESERVE, src, count or 1, run)
        elif dst < CELL:
            self._check_single(count, "a foundation")
            action = (COLUMN_TO_FOUNDATION, src, self._target_pile(col[-1], dst), run)
        else:
            self._check_single(count, "a free cell")
            action = (COLUMN_TO_CELL, src, self._target_cell(dst), run)
        return self._turning_up(action) if self._flips else action

    def _check_beyond_run(self, col: list[int], count: int, src: int, dst: int) -> None:
        """``count`` cards from column ``src`` reach past its run: only a Yukon group onto a
        column may (docs/rules.md §3.11), and never a face-down card (§3.10)."""
        where = f"column {src + 1}"
        if count > len(col):
            raise IllegalMoveError(f"{where} has only {len(col)} card(s)")
        if col[-count] >= HIDDEN:
            raise IllegalMoveError(
                f"that card is face down: face-down cards in {where} never move"
            )
        if self._groups and dst < RESERVE:
            return
        if self._groups:
            raise IllegalMoveError(
                f"{_unicode(col[-count])} cannot go there with the cards on it: only a run "
                "in alternating colours goes anywhere but a column"
            )
        if self._flips:
            game = "Milligan Harp" if self._rules.name == "milligan-harp" else "these rules"
            raise IllegalMoveError(
                f"{_unicode(col[-count])} cannot move: only a run in alternating colours "
                f"moves together in {game}"
            )
        raise IllegalMoveError(_not_available(col, count, where))

    def _group_onto_column(self, src: int, dst: int, count: int | None) -> Action:
        """The action of a Yukon group from column ``src`` onto column ``dst``: ``count``
        face-up cards, or with no count the only group whose first card fits (docs/rules.md
        §3.11), or every face-up card for an empty column."""
        col, target, run = self._cols[src], self._cols[dst], self._runs[src]
        up = len(col) - face_down_count(col)
        if count is None and target:
            fitting = [k for k in range(1, up + 1) if fits(col[-k], target[-1])]
            if not fitting:
                self._count_onto_column(col, run, None, dst, f"column {src + 1}")  # the reason
            if len(fitting) > 1:
                names = [_unicode(col[-k]) for k in fitting]
                raise IllegalMoveError(
                    f"{', '.join(names[:-1])} and {names[-1]} of column {src + 1} "
                    f"{'both' if len(names) == 2 else 'all'} fit on {_unicode(target[-1])}: "
                    f"say how many cards move, as in {src + 1}:{fitting[0]}>{dst + 1}"
                )
            count = fitting[0]
        k = self._count_onto_column(col, up, count, dst, f"column {src + 1}")
        if k <= run:
            return (COLUMN_TO_COLUMN, src, dst, k, run)
        return (GROUP_TO_COLUMN, src, dst, k, run, self._runs[dst])

    def _turning_up(self, action: Action) -> Action:
        """``action`` wrapped in a TURN_UP if it uncovers a face-down card (docs/rules.md
        §3.10): the card turns face up as part of the same move."""
        kind, src = action[0], action[1]
        if kind in (COLUMN_TO_COLUMN, GROUP_TO_COLUMN):
            k = action[3]
        else:
            k = action[2] if kind == COLUMN_TO_RESERVE else 1
        col = self._cols[src]
        if len(col) > k and col[-k - 1] >= HIDDEN:
            return (TURN_UP, action, src)
        return action

    def _resolve_from_reserve(self, dst: int, count: int | None) -> Action:
        reserve = self._reserve
        if self._reserve_mode == 0:
            raise IllegalMoveError("these rules have no reserve")
        if not reserve:
            raise IllegalMoveError("the reserve is empty")
        if count is not None and count > len(reserve):
            raise IllegalMoveError(f"the reserve holds only {len(reserve)} card(s)")
        whole = not self._any_part
        if whole and count is not None and count != len(reserve):
            raise IllegalMoveError("in these rules the reserve gives back only its whole unit")
        if dst < RESERVE:
            dst = self._column_index(dst)
            k = self._count_onto_column(reserve, len(reserve), count, dst, "the reserve")
            if whole and k != len(reserve):
                raise IllegalMoveError("in these rules the reserve gives back only its whole unit")
            return (RESERVE_TO_COLUMN, dst, k)
        if FOUNDATION <= dst <= ANY_FOUNDATION:
            if not self._rules.reserve_to_foundation:
                raise IllegalMoveError(
                    "in these rules reserve cards go back to the tableau before a foundation"
                )
            if whole and len(reserve) > 1:
                raise IllegalMoveError(
                    "the reserve gives back only its whole unit, and a foundation takes one card"
                )
            self._check_single(count, "a foundation")
            return (RESERVE_TO_FOUNDATION, self._target_pile(reserve[-1], dst))
        raise IllegalMoveError("cards leave the reserve for a column or a foundation")

    def _resolve_from_foundation(self, pile: int, dst: int, count: int | None) -> Action:
        if pile >= self._nfound:
            raise IllegalMoveError(f"there is no foundation {pile + 1}")
        takeback = self._rules.foundation_takeback
        if takeback == "never":
            raise IllegalMoveError("in these rules cards never come back from the foundations")
        if takeback == "stock-empty" and self._pos < len(self._deck):
            raise IllegalMoveError("foundation cards come back only once the stock is empty")
        if not self._found[pile]:
            raise IllegalMoveError(f"foundation {pile + 1} is empty")
        if dst >= RESERVE:
            raise IllegalMoveError("a foundation card may only come back onto a column")
        self._check_single(count, "a move from a foundation")
        card = (self._found[pile] - 1) * 4 + self._fsuit[pile]
        self._count_onto_column([card], 1, None, self._column_index(dst), f"foundation {pile + 1}")
        return (FOUNDATION_TO_COLUMN, pile, dst)

    def _resolve_from_cell(self, cell: int, dst: int, count: int | None) -> Action:
        if cell >= self._ncells:
            raise IllegalMoveError(
                f"there is no cell {cell + 1}" if self._ncells else "these rules have no free cells"
            )
        card = self._cells[cell]
        if card < 0:
            raise IllegalMoveError(f"cell {cell + 1} is empty")
        self._check_single(count, "a free cell")
        if dst < RESERVE:
            dst = self._column_index(dst)
            self._count_onto_column([card], 1, None, dst, f"cell {cell + 1}")
            return (CELL_TO_COLUMN, cell, dst)
        if FOUNDATION <= dst <= ANY_FOUNDATION:
            return (CELL_TO_FOUNDATION, cell, self._target_pile(card, dst))
        raise IllegalMoveError("a card in a cell moves to a column or a foundation")

    def _count_onto_column(
        self, cards: Sequence[int], run: int, count: int | None, dst: int, where: str
    ) -> int:
        """How many cards from the end of ``cards`` go onto column ``dst`` (or the reason not)."""
        target = self._cols[dst]
        if not target:
            k = run if count is None else count
            if self._king_only and cards[-k] >> 2 != KING:
                raise IllegalMoveError("only a King or a King-led run may fill an empty column")
            return k
        onto = target[-1]
        if count is not None:
            _check_fit(cards[-count], onto)
            return count
        k = (onto >> 2) - (cards[-1] >> 2)
        if 1 <= k <= run:
            _check_fit(cards[-k], onto)
            return k
        if run == 1:
            _check_fit(cards[-1], onto)
        raise IllegalMoveError(
            f"nothing at the end of {where} fits on {_unicode(onto)}: "
            f"it takes a {'black' if onto & 2 else 'red'} {CARDS[onto - 4].name.split()[0]}"
            if onto >> 2
            else f"nothing goes on {_unicode(onto)} in the tableau: it is an Ace"
        )

    def _check_reserve_takes(self, count: int) -> None:
        if self._reserve_mode == 0:
            raise IllegalMoveError("these rules have no reserve")
        if not self._reserve_is_open():
            raise IllegalMoveError("the reserve opens when the stock is empty")
        if self._reserve:
            raise IllegalMoveError(
                f"the reserve already holds {cards_text(self._reserve)}: "
                "it takes one card or one sequence at a time"
            )
        if self._reserve_mode == 1 and count > 1:
            raise IllegalMoveError("in these rules the reserve holds a single card")

    def _check_single(self, count: int | None, what: str) -> None:
        if count not in (None, 1):
            raise IllegalMoveError(f"only one card at a time goes to {what}")

    def _target_pile(self, card: int, dst: int) -> int:
        rank, suit = card >> 2, card & 3
        if dst == ANY_FOUNDATION:
            pile = self._foundation_pile(card)
            if pile is None:
                need = _unicode(card - 4)
                raise IllegalMoveError(
                    f"{_unicode(card)} cannot go to a foundation yet: "
                    f"the {SUIT_NAMES[suit]} foundations need the {need} first"
                )
            return pile
        pile = dst - FOUNDATION
        if pile >= self._nfound:
            raise IllegalMoveError(f"there is no foundation {pile + 1}")
        height, pile_suit = self._found[pile], self._fsuit[pile]
        if pile_suit != suit:
            top = f"the {_unicode(pile_suit + 4 * (height - 1))}" if height else "an empty"
            raise IllegalMoveError(
                f"{_unicode(card)} cannot go on {top} foundation: "
                f"that pile is for {SUIT_NAMES[pile_suit]}, and foundations build up in suit"
            )
        if height != rank:
            if height == 0:
                raise IllegalMoveError(
                    f"{_unicode(card)} cannot start a foundation: only an Ace can"
                )
            top = _unicode((height - 1) * 4 + suit)
            raise IllegalMoveError(
                f"{_unicode(card)} cannot go on {top}: foundations build up one rank at a time"
            )
        return pile

    def _target_cell(self, dst: int) -> int:
        if not self._ncells:
            raise IllegalMoveError("these rules have no free cells")
        if dst == ANY_CELL:
            for i, card in enumerate(self._cells):
                if card < 0:
                    return i
            raise IllegalMoveError("all free cells are full")
        cell = dst - CELL
        if cell >= self._ncells:
            raise IllegalMoveError(f"there is no cell {cell + 1}")
        if self._cells[cell] >= 0:
            raise IllegalMoveError(f"cell {cell + 1} is taken by {_unicode(self._cells[cell])}")
        return cell

    # ------------------------------------------------------------------ internals: doing

    def apply_action(self, action: Action) -> None:
        """Do an action from :meth:`action` in this position. For trying moves: undo it
        with :meth:`unapply_action` before anything else (a game's history is not told)."""
        kind = action[0]
        cols, runs = self._cols, self._runs
        if kind == COLUMN_TO_COLUMN:
            _, src, dst, k, run = action
            col, target = cols[src], cols[dst]
            runs[dst] = runs[dst] + k if target else k
            target += col[-k:]
            del col[-k:]
            runs[src] = run - k if run > k else run_length(col)
        elif kind == COLUMN_TO_FOUNDATION:
            _, src, pile, run = action
            cols[src].pop()
            self._found[pile] += 1
            runs[src] = run - 1 if run > 1 else run_length(cols[src])
        elif kind == DEAL_ROW:
            pos, deck = self._pos, self._deck
            for i in range(action[1]):
                col, card = cols[i], deck[pos + i]
                if col and (col[-1] >> 1) == ((card >> 1) ^ 1) + 2:
                    runs[i] += 1
                else:
                    runs[i] = 1
                col.append(card)
            self._pos = pos + action[1]
        else:
            self._apply_rare(action)

    _apply = apply_action

    def _apply_rare(self, action: Action) -> None:
        kind, cols, runs = action[0], self._cols, self._runs
        if kind == COLUMN_TO_RESERVE:
            _, src, k, run = action
            col = cols[src]
            self._reserve = col[-k:]
            del col[-k:]
            runs[src] = run - k if run > k else run_length(col)
        elif kind == RESERVE_TO_COLUMN:
            _, dst, k = action
            target = cols[dst]
            runs[dst] = runs[dst] + k if target else k
            target += self._reserve[-k:]
            del self._reserve[-k:]
        elif kind == RESERVE_TO_FOUNDATION:
            self._reserve.pop()
            self._found[action[1]] += 1
        elif kind == FOUNDATION_TO_COLUMN:
            _, pile, dst = action
            self._found[pile] -= 1
            self._push_card(dst, self._found[pile] * 4 + self._fsuit[pile])
        elif kind == COLUMN_TO_CELL:
            _, src, cell, run = action
            self._cells[cell] = cols[src].pop()
            runs[src] = run - 1 if run > 1 else run_length(cols[src])
        elif kind == CELL_TO_COLUMN:
            _, cell, dst = action
            self._push_card(dst, self._cells[cell])
            self._cells[cell] = -1
        elif kind == CELL_TO_FOUNDATION:
            _, cell, pile = action
            self._cells[cell] = -1
            self._found[pile] += 1
        elif kind == GROUP_TO_COLUMN:
            src, dst, k = action[1], action[2], action[3]
            col, target = cols[src], cols[dst]
            target += col[-k:]
            del col[-k:]
            runs[dst] = run_length(target)
            runs[src] = run_length(col)
        elif kind == TURN_UP:
            _, inner, src = action
            self._apply(inner)
            cols[src][-1] -= HIDDEN
            runs[src] = 1

    def _push_card(self, dst: int, card: int) -> None:
        col = self._cols[dst]
        self._runs[dst] = self._runs[dst] + 1 if col and fits(card, col[-1]) else 1
        col.append(card)

    def _pop_card(self, src: int) -> int:
        col = self._cols[src]
        card = col.pop()
        self._runs[src] = self._runs[src] - 1 if self._runs[src] > 1 else run_length(col)
        return card

    def unapply_action(self, action: Action) -> None:
        """Take back the action :meth:`apply_action` just did."""
        kind = action[0]
        cols, runs = self._cols, self._runs
        if kind == COLUMN_TO_COLUMN:
            _, src, dst, k, run = action
            target = cols[dst]
            cols[src] += target[-k:]
            del target[-k:]
            runs[dst] -= k
            runs[src] = run
        elif kind == COLUMN_TO_FOUNDATION:
            _, src, pile, run = action
            self._found[pile] -= 1
            cols[src].append(self._found[pile] * 4 + self._fsuit[pile])
            runs[src] = run
        elif kind == DEAL_ROW:
            for i in range(action[1]):
                cols[i].pop()
            self._pos -= action[1]
            self._runs = list(action[2])
        else:
            self._unapply_rare(action)

    _unapply = unapply_action

    def _unapply_rare(self, action: Action) -> None:
        kind, cols, runs = action[0], self._cols, self._runs
        if kind == COLUMN_TO_RESERVE:
            _, src, k, run = action
            cols[src] += self._reserve
            self._reserve = []
            runs[src] = run
        elif kind == RESERVE_TO_COLUMN:
            _, dst, k = action
            target = cols[dst]
            self._reserve += target[-k:]
            del target[-k:]
            runs[dst] -= k
        elif kind == RESERVE_TO_FOUNDATION:
            pile = action[1]
            self._found[pile] -= 1
            self._reserve.append(self._found[pile] * 4 + self._fsuit[pile])
        elif kind == FOUNDATION_TO_COLUMN:
            _, pile, dst = action
            self._pop_card(dst)
            self._found[pile] += 1
        elif kind == COLUMN_TO_CELL:
            _, src, cell, run = action
            cols[src].append(self._cells[cell])
            self._cells[cell] = -1
            runs[src] = run
        elif kind == CELL_TO_COLUMN:
            _, cell, dst = action
            self._cells[cell] = self._pop_card(dst)
        elif kind == CELL_TO_FOUNDATION:
            _, cell, pile = action
            self._found[pile] -= 1
            self._cells[cell] = self._found[pile] * 4 + self._fsuit[pile]
        elif kind == GROUP_TO_COLUMN:
            _, src, dst, k, run, dst_run = action
            target = cols[dst]
            cols[src] += target[-k:]
            del target[-k:]
            runs[src], runs[dst] = run, dst_run
        elif kind == TURN_UP:
            _, inner, src = action
            cols[src][-1] += HIDDEN
            self._unapply(inner)

    # ------------------------------------------------------------------ internals: generation

    def _generate(self) -> list[Move]:
        if self._groups:
            return self._generate_groups()
        cols, runs, found, fpiles = self._cols, self._runs, self._found, self._fpiles
        moves: list[Move] = []
        add = moves.append
        accepts, empty = self._targets()
        to_column, to_foundation = _TO_COLUMN, _TO_FOUNDATION
        for i in range(self._ncols):
            run = runs[i]
            if not run:
                continue
            col = cols[i]
            top = col[-1]
            for p in fpiles[top & 3]:
                if found[p] == top >> 2:
                    add(to_foundation[i])
                    break
            row = to_column[i]
            for k in range(1, run + 1):
                targets = accepts.get(col[-k] >> 1)
                if targets:
                    for d in targets:
                        add(row[d])
            if empty:
                self._moves_to_empty(col, run, i, empty, add)
        if self._pos < len(self._deck):
            add(DEAL)
        if self._rare:
            self._generate_rare(accepts, empty, add)
        return moves

    def _generate_groups(self) -> list[Move]:
        """:meth:`_generate` for Yukon moves (docs/rules.md §3.11): every face-up card with
        the cards on it, onto a column whose top it fits (with a count where several groups
        of a column fit the same column) or into an empty column."""
        moves: list[Move] = []
        add = moves.append
        accepts, empty = self._targets()
        for i, col in enumerate(self._cols):
            if not col:
                continue
            if self._foundation_pile(col[-1]) is not None:
                add(_TO_FOUNDATION[i])
            self._groups_from(i, accepts, empty, add)
        if self._pos < len(self._deck):
            add(DEAL)
        if self._rare:
            self._generate_rare(accepts, empty, add)
        return moves

    def _groups_from(
        self, i: int, accepts: dict[int, list[int]], empty: list[int], add: AddMove
    ) -> None:
        """The Yukon group moves of column ``i`` onto the other columns."""
        col = self._cols[i]
        up = len(col) - face_down_count(col)
        fitting: dict[int, list[int]] = {}
        for k in range(1, up + 1):
            for d in accepts.get(col[-k] >> 1, ()):
                if d != i:
                    fitting.setdefault(d, []).append(k)
        for d, counts in fitting.items():
            for k in counts:
                add(make_move(i, d, None if len(counts) == 1 else k))
        for d in empty:
            for k in range(1, up + 1):
                if not self._king_only or col[-k] >> 2 == KING:
                    add(make_move(i, d, None if k == up else k))

    def _targets(self) -> tuple[dict[int, list[int]], list[int]]:
        """The columns that take a card, by its shape (``card >> 1``), and the empty ones."""
        accepts: dict[int, list[int]] = {}
        empty = []
        cols = self._cols
        for i in range(self._ncols):
            col = cols[i]
            if col:
                shape = (col[-1] >> 1) - 2
                if shape >= 0:
                    shape ^= 1
                    if shape in accepts:
                        accepts[shape].append(i)
                    else:
                        accepts[shape] = [i]
            else:
                empty.append(i)
        return accepts, empty

    def _moves_to_empty(
        self, cards: Sequence[int], run: int, src: int, empty: list[int], add: AddMove
    ) -> None:
        if self._king_only:
            if cards[-run] >> 2 == KING:
                for d in empty:
                    add(make_move(src, d, None))
        else:
            for d in empty:
                for k in range(1, run + 1):
                    add(make_move(src, d, None if k == run else k))

    def _generate_rare(
        self, accepts: dict[int, list[int]], empty: list[int], add: AddMove
    ) -> None:
        reserve = self._reserve
        if reserve:
            self._generate_from_reserve(accepts, empty, add)
        elif self._reserve_mode and self._reserve_is_open():
            most = 1 if self._reserve_mode == 1 else 99
            for i, run in enumerate(self._runs):
                for k in range(1, min(run, most) + 1):
                    add(make_move(i, RESERVE, None if k == 1 else k))
        if self._ncells:
            self._generate_cells(accepts, empty, add)
        takeback = self._rules.foundation_takeback
        if takeback == "always" or (takeback == "stock-empty" and self._pos >= len(self._deck)):
            for p, height in enumerate(self._found):
                if height:
                    card = (height - 1) * 4 + self._fsuit[p]
                    for d in self._columns_taking(card, accepts, empty):
                        add(make_move(FOUNDATION + p, d, None))

    def _generate_from_reserve(
        self, accepts: dict[int, list[int]], empty: list[int], add: AddMove
    ) -> None:
        reserve, size = self._reserve, len(self._reserve)
        lowest = 1 if self._any_part else size
        for k in range(lowest, size + 1):
            for d in accepts.get(reserve[-k] >> 1, ()):
                add(make_move(RESERVE, d, None))
        if empty:
            if self._any_part:
                self._moves_to_empty(reserve, size, RESERVE, empty, add)
            elif not self._king_only or reserve[0] >> 2 == KING:
                for d in empty:
                    add(make_move(RESERVE, d, None))
        if (
            self._rules.reserve_to_foundation
            and (self._any_part or size == 1)
            and self._foundation_pile(reserve[-1]) is not None
        ):
            add(make_move(RESERVE, ANY_FOUNDATION, None))

    def _generate_cells(
        self, accepts: dict[int, list[int]], empty: list[int], add: AddMove
    ) -> None:
        cells = self._cells
        if -1 in cells:
            for i, col in enumerate(self._cols):
                if col:
                    add(make_move(i, ANY_CELL, None))
        for c, card in enumerate(cells):
            if card >= 0:
                for d in self._columns_taking(card, accepts, empty):
                    add(make_move(CELL + c, d, None))
                if self._foundation_pile(card) is not None:
                    add(make_move(CELL + c, ANY_FOUNDATION, None))

    def _columns_taking(
        self, card: int, accepts: dict[int, list[int]], empty: list[int]
    ) -> list[int]:
        """Columns a single ``card`` may go onto."""
        targets = list(accepts.get(card >> 1, ()))
        if not self._king_only or card >> 2 == KING:
            targets += empty
        return targets


_TO_COLUMN = [[make_move(s, d, None) for d in range(8)] for s in range(8)]
_TO_FOUNDATION = [make_move(s, ANY_FOUNDATION, None) for s in range(8)]


def _check_fit(card: int, onto: int) -> None:
    if fits(card, onto):
        return
    if (card >> 2) + 1 == onto >> 2:
        colour = "red" if card & 2 else "black"
        raise IllegalMoveError(f"{_unicode(card)} cannot go on {_unicode(onto)}: both are {colour}")
    raise IllegalMoveError(
        f"{_unicode(card)} cannot go on {_unicode(onto)}: the rank must be exactly one lower"
    )


def _not_available(cards: Sequence[int], count: int, where: str) -> str:
    if count > len(cards):
        return f"{where} has only {len(cards)} card(s)"
    return (
        f"{_unicode(cards[-count])} cannot move: it does not start a sequence "
        f"running to the end of {where}"
    )
