"""The game: a position, its legal moves, play, undo and redo.

>>> game = Game.new(1)
>>> game.stock_count, len(game.tableau)
(96, 8)
>>> game.play("d")
Move('d')
>>> game.undo()
Move('d')

The piles and the rules of play live in :class:`~milligan_widget.engine.position.Position`; a game
adds the line of play (history, undo, redo, comments), creation and saving.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .cards import CARDS, Card, cards_text, full_deck, parse_cards
from .deals import deal_codes
from .errors import IllegalMoveError, InvalidMoveError, MilliganError, shown
from .export import to_html
from .layout import Layout, build_layout
from .moves import ANY_FOUNDATION, CELL, DEAL, FOUNDATION, RESERVE, Move, make_move
from .position import (
    CELL_TO_FOUNDATION,
    COLUMN_TO_CELL,
    COLUMN_TO_COLUMN,
    COLUMN_TO_FOUNDATION,
    COLUMN_TO_RESERVE,
    DEAL_ROW,
    GROUP_TO_COLUMN,
    HIDDEN,
    RESERVE_TO_COLUMN,
    RESERVE_TO_FOUNDATION,
    TURN_UP,
    Position,
    run_length,
)
from .render import describe_action, html_layout, text_layout
from .rules import Rules
from .savefile import MAX_META, check_meta_value, dumps, load, loads, write_atomic

if TYPE_CHECKING:
    from os import PathLike

    from .cards import CardLike
    from .layout import FoundationLike
    from .position import Action, PositionKey

Status = str  # "playing" | "won" | "lost"

MAX_COMMENT = 2_000  #: the longest comment on a move, in characters


class Game(Position):
    """A game of Miss Milligan (or one of its variants) with its whole line of play.

    Make one with :meth:`new` (a numbered deal, as in PySolFC), :meth:`random`,
    :meth:`from_deck` (an explicit dealing order) or :meth:`from_json`.
    """

    # __weakref__: what a player notes of a game (its plan) can end with the game itself
    __slots__ = (
        "__weakref__", "_comments", "_history", "_keys_cache", "_layout", "_meta", "_redo",
        "_seed", "_undo",
    )  # fmt: skip

    # ------------------------------------------------------------------ creation

    def __init__(
        self,
        deck: Sequence[int],
        rules: Rules,
        seed: int | None = None,
        layout: Layout | None = None,
    ) -> None:
        self._configure(rules)
        self._seed = seed
        self._deck = tuple(deck)
        self._layout = layout
        self._history: list[Move] = []
        self._redo: list[Move] = []
        self._comments: dict[int, str] = {}
        self._meta: dict[str, bool | int | float | str] = {}
        self._set_up()

    def _set_up(self) -> None:
        layout = self._layout
        if layout is None:
            self._deal_opening()
            self._found = [0] * self._nfound
            self._reserve: list[int] = []
            self._cells = [-1] * self._ncells
        else:
            self._cols = [
                [c + HIDDEN for c in col[:down]] + list(col[down:])
                for col, down in zip(layout.columns, layout.face_down, strict=True)
            ]
            self._pos = 0
            self._found = list(layout.foundations)
            self._reserve = list(layout.reserve)
            self._cells = list(layout.cells)
        self._runs = [run_length(col) for col in self._cols]
        self._undo: list[Action] = []
        # (moves in the line, the last action, the keys of the line since the last deal)
        self._keys_cache: tuple[int, Action | None, set[PositionKey]] | None = None

    def _deal_opening(self) -> None:
        """The opening deal from the deck: one face-up card per column, or with a face-down
        deal (docs/rules.md §3.10) first one face-down card on each of columns i+1.. for
        i = 1 .. columns-1, as PySolFC deals Milligan Harp."""
        deck, n = self._deck, self._ncols
        cols: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        if self._flips:
            for i in range(1, n):
                for j in range(i, n):
                    cols[j].append(deck[pos] + HIDDEN)
                    pos += 1
        for j in range(n):
            cols[j].append(deck[pos])
            pos += 1
        self._cols, self._pos = cols, pos

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
        """A game dealt from an explicit order: the opening row, then each stock row (with a
        face-down deal, the face-down cards come first, as :meth:`new` deals them).

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
        tableau: Sequence[Sequence[CardLike]],
        foundations: Sequence[FoundationLike] | None = None,
        stock: Sequence[CardLike] = (),
        reserve: Sequence[CardLike] = (),
        cells: Sequence[Card | str | None] | None = None,
        rules: str | Rules = "classic",
        face_down: Sequence[int] | None = None,
    ) -> Game:
        """A staged position, for teaching. Every card must be somewhere, once per deck.

        ``tableau``: each column bottom to top; ``foundations``: per pile its top card (or the
        whole pile, or ``None``), piles in suit order C C S S H H D D; ``stock``: the cards still
        to deal, in dealing order (a last short row goes onto the first columns);
        ``reserve``: the run set aside; ``cells``: free cells; ``face_down``: per column, how
        many of its lowest cards lie face down (rules with a face-down deal only; the top card
        of a column is always face up). :meth:`restart` comes back here.

        >>> tops = ["KC", "KC", "QS", "KS", "KH", "QH", "KD", "KD"]
        >>> game = Game.from_layout([["KH", "KS"], *[[]] * 7], foundations=tops,
        ...                         rules="milligan-harp", face_down=[1])
        >>> game.face_down[0], game.play("1>f"), game.face_down[0]
        (1, Move('1>f'), 0)
        """
        rules = Rules.coerce(rules)
        layout = build_layout(rules, tableau, foundations, stock, reserve, cells, face_down)
        return cls(layout.stock, rules, None, layout)

    # ------------------------------------------------------------------ looking at it

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
        """Each column bottom to top (index -1 is the top card), face-down cards included
        (see :attr:`face_down`: what a player cannot see)."""
        if self._flips:
            return tuple(tuple(CARDS[c & ~HIDDEN] for c in col) for col in self._cols)
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
    def ply(self) -> int:
        """How many moves were played from the deal to this position."""
        return len(self._history)

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
        """Attach a comment to move ``ply`` (default: the last move); ``None`` removes it.

        A comment is at most :data:`MAX_COMMENT` (2,000) characters; a longer one is refused
        with a :class:`~milligan_widget.engine.errors.MilliganError` and the game is unchanged."""
        ply = len(self._history) if ply is None else ply
        if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= len(self._history):
            raise MilliganError(f"there is no move {shown(ply)} to comment on")
        if text is not None and not isinstance(text, str):
            raise MilliganError(f"a comment is text, not {shown(text)}")
        if text:
            if len(text) > MAX_COMMENT:
                raise MilliganError(
                    f"a comment is at most {MAX_COMMENT:,} characters; this one has {len(text):,}"
                )
            self._comments[ply] = text
        else:
            self._comments.pop(ply, None)

    @property
    def meta(self) -> dict[str, bool | int | float | str]:
        """Small named values kept with the game and saved with it (``"meta"`` in the saved
        game, :mod:`milligan_widget.engine.savefile`): whoever sets them gives them their meaning;
        the game only keeps them (a copy keeps them too, a restart does not forget them).

        >>> game = Game.new(8)
        >>> game.set_meta("peek", True)
        >>> Game.from_json(game.to_json()).meta
        {'peek': True}
        """
        return dict(self._meta)

    def set_meta(self, name: str, value: bool | int | float | str | None) -> None:
        """Keep ``value`` under ``name`` in :attr:`meta` (``None`` removes it); a name or value
        a saved game could not hold is refused with a
        :class:`~milligan_widget.engine.errors.MilliganError`, and the game is unchanged."""
        if value is None:
            self._meta.pop(name, None)
            return
        check_meta_value(name, value)
        if name not in self._meta and len(self._meta) >= MAX_META:
            raise MilliganError(f"a game keeps at most {MAX_META} values in its meta")
        self._meta[name] = value

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
        if src < ncols and dst < ncols and move.count is None and self._plain:
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
        if action[0] == COLUMN_TO_COLUMN:  # the common case inline, as in play()
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

        A card is safe when (1) every card that could be built on it in the tableau (the next
        lower rank of the other colour) is on the foundations, which Aces and 2s never need,
        and (2) every foundation of its suit is ready for it or past it. Without (2), with two
        decks, the first J♥ home can take the pile the other J♥ needed to free a Q♥ under it.
        With Yukon moves nothing is safe until the stock is empty (docs/rules.md §3.11): a card
        dealt onto the one sent home would have left with it in a group.
        """
        return [
            make_move(src, ANY_FOUNDATION, None)
            for src, card in self._free_cards()
            if self._foundation_pile(card) is not None and self._safe_home(card)
        ]

    def autoplay(self) -> list[Move]:
        """Play safe foundation moves until there are none; return what was played."""
        played = []
        while moves := self.safe_foundation_moves():
            played.append(self.play(moves[0]))
        return played

    def finish_moves(self) -> list[Move] | None:
        """The moves that take every card left home, when nothing else is left to do: the
        stock is empty, and sending a free card to a foundation, again and again, wins. None
        otherwise (or when the game is over). The widget's Finish plays them.

        >>> Game.new(8).finish_moves() is None  # 96 cards in the stock: a game to play
        True
        """
        if self.stock_count or self.status != "playing":
            return None
        trial, moves = self.copy(history=False), []
        while (move := trial._first_home_move()) is not None:
            moves.append(trial.play(move))
        return moves if trial.status == "won" else None

    def finish(self) -> list[Move]:
        """Play :meth:`finish_moves` (nothing if there are none) and return them."""
        return [self.play(move) for move in self.finish_moves() or ()]

    def _first_home_move(self) -> Move | None:
        for src, card in self._free_cards():
            if self._foundation_pile(card) is not None:
                return make_move(src, ANY_FOUNDATION, None)
        return None

    # ------------------------------------------------------------------ comparing and copying

    def copy(self, *, history: bool = True) -> Game:
        """An independent copy with the line of play; with ``history=False``, a game that
        starts at this position (as if staged with :meth:`from_layout`)."""
        other = Game.__new__(Game)
        for name in _COPIED_SLOTS:
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
        other._meta = dict(self._meta)
        other._keys_cache = None
        if not history:
            other._start_here()
        return other

    def _start_here(self) -> None:
        """Make the current position this game's start (the stock keeps its order)."""
        self._layout = Layout(
            self.column_codes,
            tuple(self._found),
            tuple(self._reserve),
            tuple(self._cells),
            self._deck[self._pos :],
            self.face_down,
        )
        self._deck, self._pos, self._seed = self._layout.stock, 0, None

    def __copy__(self) -> Game:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        """Same rules and the same position, pile for pile (the history is not compared)."""
        if not isinstance(other, Game):
            return NotImplemented
        return self._exact_key() == other._exact_key()

    # Mutable, so unhashable; typeshed declares object.__hash__ a method, hence the ignore.
    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ text, pictures, files

    def __str__(self) -> str:
        return text_layout(self)

    def __repr__(self) -> str:
        name = self._rules.name or "custom"
        deal = f"seed={self._seed}" if self._seed is not None else "custom deck"
        return f"<Game {name} {deal}, {len(self._history)} moves, {self.status}>"

    def _repr_html_(self) -> str:
        return html_layout(self)

    def resolve(self, move: Move | str) -> Move:
        """The same move with everything made explicit: the number of cards and the very
        foundation or cell it goes to (an illegal move raises :class:`IllegalMoveError`).

        >>> Game.new(5).resolve("2>6")
        Move('2:1>6')
        """
        move = self._as_move(move)
        action = self._resolve(move)
        if action[0] == TURN_UP:
            action = action[1]
        explicit = {
            COLUMN_TO_COLUMN: lambda: make_move(action[1], action[2], action[3]),
            GROUP_TO_COLUMN: lambda: make_move(action[1], action[2], action[3]),
            COLUMN_TO_FOUNDATION: lambda: make_move(action[1], FOUNDATION + action[2], None),
            COLUMN_TO_RESERVE: lambda: make_move(action[1], RESERVE, action[2]),
            RESERVE_TO_COLUMN: lambda: make_move(RESERVE, action[1], action[2]),
            RESERVE_TO_FOUNDATION: lambda: make_move(RESERVE, FOUNDATION + action[1], None),
            COLUMN_TO_CELL: lambda: make_move(action[1], CELL + action[2], None),
            CELL_TO_FOUNDATION: lambda: make_move(CELL + action[1], FOUNDATION + action[2], None),
        }.get(action[0])
        return explicit() if explicit else move

    def find_move(self, source: str, target: str, count: int | None = None) -> Move:
        """The move a gesture means: ``count`` cards (None: the run that fits) from pile
        ``source`` dropped on pile ``target`` ("f" or "c": any that fits), as python-chess's
        ``Board.find_move`` finds a move from two squares. It is spelled as the gesture names
        it, with the count only where the engine needs one to know the move; an illegal
        gesture raises :class:`IllegalMoveError` with the reason.

        >>> game = Game.new(5)
        >>> game.find_move("t2", "t6", 1)
        Move('2>6')
        >>> game.find_move("t2", "t5", 1)
        Traceback (most recent call last):
        ...
        milligan_widget.engine.errors.IllegalMoveError: 8♣ cannot go on 9♣: both are black
        """
        gesture = Move(source, target, count)
        explicit = self.resolve(gesture)  # the reason, if there is no such move
        if count is None:
            return gesture
        implied = Move(source, target, None)
        try:
            same = self.resolve(implied) == explicit
        except IllegalMoveError:
            same = False
        return implied if same else gesture

    def after(self, move: Move | str) -> Game:
        """A copy of this game with ``move`` played (this game is untouched)."""
        game = self.copy()
        game.play(move)
        return game

    def describe(self, move: Move | str) -> str:
        """What ``move`` does in this position, in words (it must be legal here)."""
        return describe_action(self, self._resolve(self._as_move(move)))

    def to_json(self, indent: int | None = 1) -> str:
        """The game as a versioned JSON document (rules, deck, seed, moves, comments)."""
        return dumps(self, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load :meth:`to_json` output, replaying and checking every move."""
        return loads(text, cls)

    def save(self, path: str | PathLike[str]) -> None:
        """Write :meth:`to_json` to a file, atomically: an interrupted save leaves the
        previous file as it was (see :func:`milligan_widget.engine.savefile.write_atomic`)."""
        write_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Game:
        """Read a game written by :meth:`save`. Anything but a good saved game (not UTF-8
        text, too large, not JSON, an illegal move...) raises :class:`SaveFileError`; a
        missing file raises :class:`OSError` as usual."""
        return load(path, cls)

    def replay(self) -> Iterator[tuple[Move | None, Game]]:
        """Step through this game's line of play from the deal.

        Yields ``(None, start)`` and then ``(move, position after it)`` for each move; every
        position is a fresh copy without history.
        """
        step = self.copy()
        step.restart()
        yield None, step.copy(history=False)
        for move in self._history:
            step.play(move)
            yield move, step.copy(history=False)

    def position_after(self, ply: int) -> Game:
        """A copy of this game showing the position after ``ply`` moves (0 = the deal);
        the later moves are kept for redo."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self._history):
            raise MilliganError(
                f"ply must be a whole number between 0 and {len(self._history)}, not {shown(ply)}"
            )
        game = self.copy()
        while len(game._history) > ply:
            game.undo()
        return game

    # ------------------------------------------------------------------ internals

    def _as_move(self, move: Move | str) -> Move:
        if isinstance(move, Move):
            return move
        if isinstance(move, str):
            return Move.parse(move)
        raise InvalidMoveError(f"a move is a Move or text like '3>5', not {shown(move)}")

    def line_keys(self) -> set[PositionKey]:
        """The :meth:`position_key` of every position of the current line of play since the
        last deal (earlier positions cannot come back): what "a new position" is measured
        against. The set is the game's own cache: read it, do not change it."""
        return self._line_keys()

    def _line_keys(self) -> set[PositionKey]:
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
                and top is not None
                and top[0] != DEAL_ROW
                and (undo[-2] if length else None) is last
            ):
                keys.add(self.position_key())
                self._keys_cache = (len(undo), top, keys)
                return keys
        keys = self._collect_line_keys()
        self._keys_cache = (len(undo), top, keys)
        return keys

    def _collect_line_keys(self) -> set[PositionKey]:
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

    # ------------------------------------------------------------------ a page to share

    def to_html(
        self, path: str | PathLike[str] | None = None, *, extra_html: str | None = None
    ) -> str:
        """This game as one self-contained HTML page that works offline: the position after
        every move, the moves in words with their comments, and a replay viewer; written to
        ``path`` too when given. The stock's order is not in it. ``extra_html`` (markup, such
        as a review's chart: ``Review.to_html``) goes above the viewer. See
        :func:`milligan_widget.engine.export.to_html`.

        >>> Game.new(3).to_html().startswith("<!DOCTYPE html>")
        True
        """
        return to_html(self, path, extra_html=extra_html)


#: what :meth:`Game.copy` takes over, slot by slot (a copy's weak references are its own)
_COPIED_SLOTS = tuple(name for name in Position.__slots__ + Game.__slots__ if name != "__weakref__")


def _deck_problem(codes: list[int], decks: int) -> str:
    expected = 52 * decks
    if len(codes) != expected:
        return f"a deck for these rules has {expected} cards, not {len(codes)}"
    counts = Counter(codes)
    extra = sorted(c for c, n in counts.items() if n > decks)
    missing = sorted((Counter(dict.fromkeys(range(52), decks)) - counts).elements())
    return (
        f"a {decks}-deck game needs each card {decks} time(s): "
        f"too many {cards_text(extra)}; missing {cards_text(missing)}"
    )


def _example_deck(first: str, rules: str | Rules = "classic") -> list[int]:
    """A full deck whose dealing order starts with the cards in ``first`` (for examples)."""
    head = parse_cards(first)
    rest = full_deck(Rules.coerce(rules).decks)
    for code in head:
        rest.remove(code)
    return head + rest
