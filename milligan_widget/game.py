"""The game: a position, its legal moves, play, undo and redo.

>>> game = Game.new(1)
>>> game.stock_count, len(game.tableau)
(96, 8)
>>> game.play("d")
Move('d')
>>> game.undo()
Move('d')

Inside, cards are small integers (see :mod:`milligan_widget.cards`), each column keeps
the length of the movable run at its end, moves are interned objects and undo reverses
an action record instead of restoring a snapshot: a solver sits on this.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .cards import CARDS, SUIT_NAMES, Card, full_deck, parse_cards
from .deals import deal_codes
from .errors import IllegalMoveError, InvalidMoveError, MilliganError
from .moves import (
    ANY_CELL,
    ANY_FOUNDATION,
    CELL,
    DEAL,
    FOUNDATION,
    RESERVE,
    STOCK,
    Move,
    make_move,
)
from .rules import Rules

if TYPE_CHECKING:
    from .layout import Layout

KING = 12  # rank index (rank - 1) of a King

# Kinds of action record (the resolved form of a move, enough to undo it).
COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DEAL_ROW = 0, 1, 2
COLUMN_TO_RESERVE, RESERVE_TO_COLUMN, RESERVE_TO_FOUNDATION = 3, 4, 5
FOUNDATION_TO_COLUMN, COLUMN_TO_CELL, CELL_TO_COLUMN, CELL_TO_FOUNDATION = 6, 7, 8, 9

Status = str  # "playing" | "won" | "lost"


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


def _unicode(code: int) -> str:
    return CARDS[code].unicode


def _cards_text(codes: Iterable[int]) -> str:
    return " ".join(_unicode(c) for c in codes)


class Game:
    """A game of Miss Milligan (or one of its variants) with its whole line of play.

    Make one with :meth:`new` (a numbered deal, as in PySolFC), :meth:`random`,
    :meth:`from_deck` (an explicit dealing order) or :meth:`from_json`.
    """

    __slots__ = (
        "_any_part",
        "_cells",
        "_cols",
        "_comments",
        "_deck",
        "_found",
        "_fpiles",
        "_fsuit",
        "_history",
        "_keys_cache",
        "_king_only",
        "_layout",
        "_ncells",
        "_ncols",
        "_nfound",
        "_pos",
        "_redo",
        "_reserve",
        "_reserve_mode",
        "_rules",
        "_runs",
        "_seed",
        "_undo",
    )

    # ------------------------------------------------------------------ creation

    def __init__(
        self,
        deck: Sequence[int],
        rules: Rules,
        seed: int | None = None,
        layout: Layout | None = None,
    ) -> None:
        self._rules = rules
        self._seed = seed
        self._deck = tuple(deck)
        self._layout = layout
        self._ncols = rules.columns
        self._nfound = rules.foundation_count
        self._ncells = rules.cells
        self._king_only = rules.empty_column == "king"
        self._reserve_mode = ("none", "single", "sequence").index(rules.reserve)
        self._any_part = rules.reserve_unload == "any-part"
        per_suit = rules.decks
        self._fsuit = tuple(p // per_suit for p in range(self._nfound))
        self._fpiles = tuple(tuple(range(s * per_suit, (s + 1) * per_suit)) for s in range(4))
        self._history: list[Move] = []
        self._redo: list[Move] = []
        self._comments: dict[int, str] = {}
        self._set_up()

    def _set_up(self) -> None:
        layout = self._layout
        if layout is None:
            self._cols = [[card] for card in self._deck[: self._ncols]]
            self._pos = self._ncols
            self._found = [0] * self._nfound
            self._reserve: list[int] = []
            self._cells = [-1] * self._ncells
        else:
            self._cols = [list(col) for col in layout.columns]
            self._pos = 0
            self._found = list(layout.foundations)
            self._reserve = list(layout.reserve)
            self._cells = list(layout.cells)
        self._runs = [run_length(col) for col in self._cols]
        self._undo: list[tuple] = []
        self._keys_cache: tuple | None = None

    @classmethod
    def new(cls, seed: int, rules: str | Rules = "classic") -> Game:
        """Deal number ``seed`` (1 .. 10**20 - 1): the same layout PySolFC deals for that number.

        >>> str(Game.new(1).tableau[0][-1])
        '3D'
        """
        rules = Rules.coerce(rules)
        return cls(deal_codes(seed, rules.decks), rules, seed)

    @classmethod
    def random(cls, rules: str | Rules = "classic", rng: random.Random | None = None) -> Game:
        """A random numbered deal (its number is kept, so the game can be dealt again)."""
        return cls.new((rng or random).randint(1, 10**9), rules)

    @classmethod
    def from_deck(
        cls, cards: Iterable[Card | str | int] | str, rules: str | Rules = "classic"
    ) -> Game:
        """A game dealt from an explicit order: the opening row, then each stock row.

        >>> deck = [str(c) for c in Game.new(2).deck]
        >>> Game.from_deck(deck) == Game.new(2)
        True
        """
        rules = Rules.coerce(rules)
        codes = parse_cards(cards)
        if sorted(codes) != sorted(full_deck(rules.decks)):
            raise MilliganError(_deck_problem(codes, rules.decks))
        return cls(codes, rules)

    @classmethod
    def from_layout(
        cls,
        tableau: Sequence[Sequence[Card | str]],
        foundations: Sequence[Card | str | Sequence[Card | str] | None] | None = None,
        stock: Sequence[Card | str] = (),
        reserve: Sequence[Card | str] = (),
        cells: Sequence[Card | str | None] | None = None,
        rules: str | Rules = "classic",
    ) -> Game:
        """A staged position, for teaching. Every card must be somewhere, once per deck.

        ``tableau``: each column bottom to top; ``foundations``: per pile its top card (or the
        whole pile, or ``None``), piles in suit order C C S S H H D D; ``stock``: the cards still
        to deal, in dealing order (a last short row goes onto the first columns);
        ``reserve``: the run set aside; ``cells``: free cells. :meth:`restart` comes back here.
        """
        from .layout import build_layout

        rules = Rules.coerce(rules)
        layout = build_layout(rules, tableau, foundations, stock, reserve, cells)
        return cls(layout.stock, rules, None, layout)

    # ------------------------------------------------------------------ looking at it

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int | None:
        """The deal number, or ``None`` for a game made from an explicit deck."""
        return self._seed

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The full dealing order (opening row, then the stock rows); ``None`` for a staged
        position (see :meth:`from_layout`). This reveals the stock."""
        return None if self._layout else tuple(CARDS[c] for c in self._deck)

    @property
    def layout(self) -> Layout | None:
        """The staged starting position of a game made by :meth:`from_layout`, else ``None``."""
        return self._layout

    @property
    def tableau(self) -> tuple[tuple[Card, ...], ...]:
        """Each column bottom to top (index -1 is the top card)."""
        return tuple(tuple(CARDS[c] for c in col) for col in self._cols)

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        """Each foundation pile, Ace first."""
        return tuple(
            tuple(CARDS[rank * 4 + suit] for rank in range(height))
            for suit, height in zip(self._fsuit, self._found, strict=True)
        )

    @property
    def foundation_suits(self) -> tuple[str, ...]:
        """The suit of each foundation pile, left to right: C C S S H H D D."""
        return tuple("CSHD"[s] for s in self._fsuit)

    @property
    def stock_count(self) -> int:
        return len(self._deck) - self._pos

    @property
    def reserve(self) -> tuple[Card, ...]:
        """The cards set aside by weaving, in the order they lay in their column."""
        return tuple(CARDS[c] for c in self._reserve)

    @property
    def cells(self) -> tuple[Card | None, ...]:
        """The free cells (Milligan Cell); empty ones are ``None``."""
        return tuple(None if c < 0 else CARDS[c] for c in self._cells)

    @property
    def reserve_open(self) -> bool:
        """May cards be set aside into the reserve now (it exists, is open and is empty)?"""
        return self._reserve_mode != 0 and not self._reserve and self._reserve_is_open()

    @property
    def can_deal(self) -> bool:
        return self._pos < len(self._deck)

    @property
    def history(self) -> list[Move]:
        """The moves played from the deal to this position (a copy)."""
        return list(self._history)

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def redo_moves(self) -> list[Move]:
        """The undone moves that :meth:`redo` would play again, next first."""
        return self._redo[::-1]

    @property
    def comments(self) -> dict[int, str]:
        """Comments on moves, keyed by ply (1 = the first move)."""
        return dict(self._comments)

    def set_comment(self, text: str | None, ply: int | None = None) -> None:
        """Attach a comment to move ``ply`` (default: the last move); ``None`` removes it."""
        ply = len(self._history) if ply is None else ply
        if not 1 <= ply <= len(self._history):
            raise MilliganError(f"there is no move {ply} to comment on")
        if text:
            self._comments[ply] = str(text)
        else:
            self._comments.pop(ply, None)

    @property
    def foundation_count(self) -> int:
        """Cards on the foundations."""
        return sum(self._found)

    @property
    def status(self) -> Status:
        """``"won"``, ``"lost"`` (stock empty, no move reaches a new position) or ``"playing"``."""
        if sum(self._found) == self._rules.card_count:
            return "won"
        if self._pos < len(self._deck):
            return "playing"
        return "playing" if self.new_position_moves(first_only=True) else "lost"

    def new_position_moves(self, first_only: bool = False) -> list[Move]:
        """Legal moves that reach a position not yet reached since the last deal (positions
        compared as by :meth:`position_key`): the useful moves. With ``first_only``, stop at
        the first one found."""
        seen, useful = self._line_keys(), []
        for move in self._generate():
            action = self._resolve(move)
            self._apply(action)
            key = self.position_key()
            self._unapply(action)
            if key not in seen:
                useful.append(move)
                if first_only:
                    break
        return useful

    @property
    def is_over(self) -> bool:
        return self.status != "playing"

    # ------------------------------------------------------------------ moves

    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move in this position (a fresh list)."""
        return self._generate()

    def is_legal(self, move: Move | str) -> bool:
        return self.explain(move) is None

    def explain(self, move: Move | str) -> str | None:
        """Why ``move`` is illegal here, in words; ``None`` if it is legal.

        >>> Game.from_deck(_example_deck("KD QH")).explain("2>1")
        'Q♥ cannot go on K♦: both are red'
        """
        try:
            self._resolve(self._as_move(move))
        except IllegalMoveError as error:
            return str(error)
        return None

    def play(self, move: Move | str) -> Move:
        """Play a legal move and return it; an illegal one raises :class:`IllegalMoveError`.

        The game is unchanged when the move is refused.
        """
        if move.__class__ is not Move:
            move = self._as_move(move)
        # Fast path for the common case, a run onto a non-empty column with an implied
        # count; anything else (or anything illegal) takes the general path below.
        src, dst, ncols, action = move._src, move._dst, self._ncols, None
        if src < ncols and dst < ncols and move.count is None:
            cols = self._cols
            col, target = cols[src], cols[dst]
            if col and target:
                onto, runs = target[-1], self._runs
                run = runs[src]
                k = (onto >> 2) - (col[-1] >> 2)
                if 0 < k <= run and (onto >> 1) == ((col[-k] >> 1) ^ 1) + 2:
                    runs[dst] += k
                    target += col[-k:]
                    del col[-k:]
                    runs[src] = run - k if run > k else run_length(col)
                    action = (COLUMN_TO_COLUMN, src, dst, k, run)
        if action is None:
            action = self._resolve(move)
            self._apply(action)
        self._undo.append(action)
        self._history.append(move)
        redo = self._redo
        if redo:
            if redo[-1] is move:
                redo.pop()
            else:
                redo.clear()
                self._forget_comments_after(len(self._history) - 1)
        return move

    def push(self, move: Move | str) -> Move:
        """Alias of :meth:`play` (python-chess style)."""
        return self.play(move)

    def deal(self) -> Move:
        """Deal a row from the stock."""
        return self.play(DEAL)

    def undo(self) -> Move:
        """Take back the last move and return it (it can be redone)."""
        if not self._undo:
            raise IllegalMoveError("there is no move to undo")
        action = self._undo.pop()
        if action[0] == COLUMN_TO_COLUMN:
            _, src, dst, k, run = action
            cols, runs = self._cols, self._runs
            target = cols[dst]
            cols[src] += target[-k:]
            del target[-k:]
            runs[dst] -= k
            runs[src] = run
        else:
            self._unapply(action)
        move = self._history.pop()
        self._redo.append(move)
        return move

    pop = undo

    def redo(self) -> Move:
        """Play again the last undone move."""
        if not self._redo:
            raise IllegalMoveError("there is no move to redo")
        return self.play(self._redo[-1])

    def restart(self) -> None:
        """Back to the opening deal; the whole line of play is forgotten."""
        self._set_up()
        self._history.clear()
        self._redo.clear()
        self._comments.clear()

    def _forget_comments_after(self, ply: int) -> None:
        for later in [p for p in self._comments if p > ply]:
            del self._comments[later]

    def safe_foundation_moves(self) -> list[Move]:
        """Moves to the foundations that can never hurt (for an "auto" button).

        A card is safe once every card that could be built on it in the tableau (the next
        lower rank of the other colour) is on the foundations; Aces and 2s always are.
        """
        found, moves = self._found, []
        for src, card in self._free_cards():
            rank = card >> 2
            if self._foundation_pile(card) is None:
                continue
            other = (1, 0) if card & 2 else (2, 3)  # suits of the other colour
            if rank <= 1 or all(found[p] >= rank for s in other for p in self._fpiles[s]):
                moves.append(make_move(src, ANY_FOUNDATION, None))
        return moves

    def autoplay(self) -> list[Move]:
        """Play safe foundation moves until there are none; return what was played."""
        played = []
        while moves := self.safe_foundation_moves():
            played.append(self.play(moves[0]))
        return played

    def hint(self) -> tuple[Move, str] | None:
        """A good move by a simple heuristic, and why; ``None`` if no move is left."""
        from .strategy import hint

        return hint(self)

    # ------------------------------------------------------------------ comparing and copying

    def copy(self, *, history: bool = True) -> Game:
        """An independent copy (with the line of play, unless ``history=False``)."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other._cols = [list(col) for col in self._cols]
        other._runs = list(self._runs)
        other._found = list(self._found)
        other._reserve = list(self._reserve)
        other._cells = list(self._cells)
        other._undo = list(self._undo) if history else []
        other._history = list(self._history) if history else []
        other._redo = list(self._redo) if history else []
        other._comments = dict(self._comments) if history else {}
        other._keys_cache = None
        return other

    def __copy__(self) -> Game:
        return self.copy()

    def _exact_key(self) -> tuple:
        return (
            tuple(map(tuple, self._cols)),
            tuple(self._found),
            self._deck[self._pos :],
            tuple(self._reserve),
            tuple(self._cells),
            self._rules,
        )

    def position_key(self) -> tuple:
        """A key equal for positions a player cannot tell apart: column order, the order of
        same-suit foundations and of cells do not matter."""
        found = self._found
        return (
            tuple(sorted(map(tuple, self._cols))),
            tuple(tuple(sorted(found[p] for p in piles)) for piles in self._fpiles),
            self._pos,
            tuple(self._reserve),
            tuple(sorted(self._cells)),
        )

    def __eq__(self, other: object) -> bool:
        """Same rules and the same position, pile for pile (the history is not compared)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._exact_key() == other._exact_key()

    __hash__ = None  # mutable

    # ------------------------------------------------------------------ text, pictures, files

    def __str__(self) -> str:
        from .render import text_layout

        return text_layout(self)

    def __repr__(self) -> str:
        name = self._rules.name or "custom"
        deal = f"seed={self._seed}" if self._seed is not None else "custom deck"
        return f"<Game {name} {deal}, {len(self._history)} moves, {self.status}>"

    def _repr_html_(self) -> str:
        from .render import html_layout

        return html_layout(self)

    def describe(self, move: Move | str) -> str:
        """What ``move`` does in this position, in words (it must be legal here)."""
        from .render import describe_action

        return describe_action(self, self._resolve(self._as_move(move)))

    def to_json(self, indent: int | None = 1) -> str:
        """The game as a versioned JSON document (rules, deck, seed, moves, comments)."""
        from .savefile import dumps

        return dumps(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load :meth:`to_json` output, replaying and checking every move."""
        from .savefile import loads

        return loads(text)

    def save(self, path) -> None:
        """Write :meth:`to_json` to a file."""
        from pathlib import Path

        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path) -> Game:
        """Read a game written by :meth:`save`."""
        from pathlib import Path

        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def replay(self) -> Iterator[tuple[Move | None, Game]]:
        """Step through this game's line of play from the deal.

        Yields ``(None, start)`` and then ``(move, position after it)`` for each move; every
        position is a fresh copy without history.
        """
        step = self.copy(history=False)
        step._set_up()
        yield None, step.copy(history=False)
        for move in self._history:
            step.play(move)
            yield move, step.copy(history=False)

    def position_after(self, ply: int) -> Game:
        """A copy of this game showing the position after ``ply`` moves (0 = the deal);
        the later moves are kept for redo."""
        if not 0 <= ply <= len(self._history):
            raise MilliganError(f"ply must be between 0 and {len(self._history)}, not {ply}")
        game = self.copy()
        while len(game._history) > ply:
            game.undo()
        return game

    # ------------------------------------------------------------------ internals: checks

    def _as_move(self, move: Move | str) -> Move:
        if isinstance(move, Move):
            return move
        if isinstance(move, str):
            return Move.parse(move)
        raise InvalidMoveError(f"a move is a Move or text like '3>5', not {move!r}")

    def _reserve_is_open(self) -> bool:
        return self._rules.reserve_opens == "any-time" or self._pos >= len(self._deck)

    def _column_index(self, code: int) -> int:
        if code >= self._ncols:
            raise IllegalMoveError(f"there is no column {code + 1}: these rules have {self._ncols}")
        return code

    def _foundation_pile(self, card: int) -> int | None:
        found, rank = self._found, card >> 2
        for p in self._fpiles[card & 3]:
            if found[p] == rank:
                return p
        return None

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

    def _resolve(self, move: Move) -> tuple:
        """The action record for ``move``, or :class:`IllegalMoveError` with the reason."""
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

    def _resolve_from_column(self, src: int, dst: int, count: int | None) -> tuple:
        col = self._cols[src]
        if not col:
            raise IllegalMoveError(f"column {src + 1} is empty")
        run = self._runs[src]
        if count is not None and count > run:
            raise IllegalMoveError(_not_available(col, count, f"column {src + 1}"))
        if dst < RESERVE:
            dst = self._column_index(dst)
            if dst == src:
                raise IllegalMoveError("cards cannot move onto their own column")
            k = self._count_onto_column(col, run, count, dst, f"column {src + 1}")
            return (COLUMN_TO_COLUMN, src, dst, k, run)
        if dst == RESERVE:
            self._check_reserve_takes(count or 1)
            return (COLUMN_TO_RESERVE, src, count or 1, run)
        if dst < CELL:
            self._check_single(count, "a foundation")
            return (COLUMN_TO_FOUNDATION, src, self._target_pile(col[-1], dst), run)
        self._check_single(count, "a free cell")
        return (COLUMN_TO_CELL, src, self._target_cell(dst), run)

    def _resolve_from_reserve(self, dst: int, count: int | None) -> tuple:
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

    def _resolve_from_foundation(self, pile: int, dst: int, count: int | None) -> tuple:
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

    def _resolve_from_cell(self, cell: int, dst: int, count: int | None) -> tuple:
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
                f"the reserve already holds {_cards_text(self._reserve)}: "
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

    def _apply(self, action: tuple) -> None:
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

    def _apply_rare(self, action: tuple) -> None:
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

    def _push_card(self, dst: int, card: int) -> None:
        col = self._cols[dst]
        self._runs[dst] = self._runs[dst] + 1 if col and fits(card, col[-1]) else 1
        col.append(card)

    def _pop_card(self, src: int) -> int:
        col = self._cols[src]
        card = col.pop()
        self._runs[src] = self._runs[src] - 1 if self._runs[src] > 1 else run_length(col)
        return card

    def _unapply(self, action: tuple) -> None:
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

    def _unapply_rare(self, action: tuple) -> None:
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

    # ------------------------------------------------------------------ internals: generation

    def _generate(self) -> list[Move]:
        cols, runs, found, fpiles = self._cols, self._runs, self._found, self._fpiles
        ncols = self._ncols
        moves: list[Move] = []
        add = moves.append
        accepts: dict[int, list[int]] = {}  # shape (card >> 1) a column takes -> columns
        empty = []
        for i in range(ncols):
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
        to_column, to_foundation = _TO_COLUMN, _TO_FOUNDATION
        for i in range(ncols):
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
        if self._reserve_mode or self._ncells or self._rules.foundation_takeback != "never":
            self._generate_rare(accepts, empty, add)
        return moves

    def _moves_to_empty(self, cards, run: int, src: int, empty: list[int], add) -> None:
        if self._king_only:
            if cards[-run] >> 2 == KING:
                for d in empty:
                    add(make_move(src, d, None))
        else:
            for d in empty:
                for k in range(1, run + 1):
                    add(make_move(src, d, None if k == run else k))

    def _generate_rare(self, accepts: dict[int, list[int]], empty: list[int], add) -> None:
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

    def _generate_from_reserve(self, accepts, empty, add) -> None:
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

    def _generate_cells(self, accepts, empty, add) -> None:
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

    def _columns_taking(self, card: int, accepts, empty) -> list[int]:
        """Columns a single ``card`` may go onto."""
        targets = list(accepts.get(card >> 1, ()))
        if not self._king_only or card >> 2 == KING:
            targets += empty
        return targets

    def _line_keys(self) -> set[tuple]:
        """Position keys of the current line of play since the last deal (positions before
        it cannot come back). Cached: extended by one key when one move was played since."""
        undo, cache = self._undo, self._keys_cache
        top = undo[-1] if undo else None
        if cache is not None:
            length, last, keys = cache
            if length == len(undo) and last is top:
                return keys
            if (
                length == len(undo) - 1
                and top[0] != DEAL_ROW
                and (undo[-2] if length else None) is last
            ):
                keys.add(self.position_key())
                self._keys_cache = (len(undo), top, keys)
                return keys
        keys = self._collect_line_keys()
        self._keys_cache = (len(undo), top, keys)
        return keys

    def _collect_line_keys(self) -> set[tuple]:
        keys = {self.position_key()}
        undone = []
        while self._undo and self._undo[-1][0] != DEAL_ROW:
            action = self._undo.pop()
            self._unapply(action)
            undone.append(action)
            keys.add(self.position_key())
        for action in reversed(undone):
            self._apply(action)
            self._undo.append(action)
        return keys


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


def _deck_problem(codes: list[int], decks: int) -> str:
    expected = 52 * decks
    if len(codes) != expected:
        return f"a deck for these rules has {expected} cards, not {len(codes)}"
    counts: dict[int, int] = {}
    for code in codes:
        counts[code] = counts.get(code, 0) + 1
    extra = sorted(c for c, n in counts.items() if n > decks)
    missing = sorted(set(range(52)) - set(counts))
    return (
        f"a {decks}-deck game needs each card {decks} time(s): "
        f"too many {_cards_text(extra)}; missing {_cards_text(missing)}"
    )


def _example_deck(first: str, rules: str | Rules = "classic") -> list[int]:
    """A full deck whose dealing order starts with the cards in ``first`` (for examples)."""
    head = parse_cards(first)
    rest = full_deck(Rules.coerce(rules).decks)
    for code in head:
        rest.remove(code)
    return head + rest
