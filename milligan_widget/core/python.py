"""The search interface in pure Python, on :class:`~milligan_widget.engine.position.Position`.

This is the reference the compiled core is tested against, and the fallback wherever it
cannot load (Pyodide, no compiler). A move handle is the pair (move, action record).

>>> from milligan_widget import Game
>>> core = PyCore(Game.new(8))
>>> core.key()[1], core.cards_home(), core.rows_left()
(0, 0, 12)
>>> [str(core.move_of(h)) for h in core.moves()][-1]
'd'
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import TYPE_CHECKING

from milligan_widget.engine.deadlock import trapped_cards
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import DEAL, Move
from milligan_widget.engine.position import (
    COLUMN_TO_COLUMN,
    COLUMN_TO_FOUNDATION,
    COLUMN_TO_RESERVE,
    DEAL_ROW,
    GROUP_TO_COLUMN,
    HIDDEN,
    KING,
    RESERVE_TO_COLUMN,
    RESERVE_TO_FOUNDATION,
    TURN_UP,
    Action,
    SearchKey,
    Snapshot,
)
from milligan_widget.engine.rules import Rules

from .interface import DONE, ENDGAME, LOST, OPEN, TICK, WIN, Noise

if TYPE_CHECKING:
    from .interface import Lost

#: A move handle of this backend: the move and its action record.
Handle = tuple[Move, Action]
Codes = tuple[int, ...]
#: (columns, foundations, cards dealt, reserve, cells, runs, stock), as :meth:`PyCore.state`.
State = tuple[tuple[Codes, ...], Codes, int, Codes, Codes, Codes, Codes]
#: A search's tree: each position reached to (its parent, the handles from there); the root
#: to ``None``.
Tree = dict[SearchKey, "tuple[SearchKey, list[Handle]] | None"]
#: A child of an expanded position: (rank, key, snapshot), lowest rank searched first.
Child = tuple[int, SearchKey, Snapshot]


class PyCore:
    """A private copy of a position seen through the search interface (see
    :mod:`milligan_widget.core`)."""

    backend = "python"

    def __init__(self, position: Game) -> None:
        self.position = p = position.copy(history=False)
        rules = p.rules
        self.rules: Rules = rules
        self.total = rules.card_count
        self.ncols = rules.columns
        self.fsuit = p.foundation_suit_codes
        self._apply, self._unapply = p.apply_action, p.unapply_action
        self.snapshot = p.snapshot
        self.restore = p.restore
        self.key = p.search_key  # column order counts only while rows are to be dealt
        self.auto_moves = p.apply_safe_home_moves  # safe foundation moves, until none is left

    # -- the engine interface, for the trapped-card test --------------------------------

    @property
    def column_codes(self) -> tuple[tuple[int, ...], ...]:
        return self.position.column_codes

    @property
    def stock_codes(self) -> tuple[int, ...]:
        return self.position.stock_codes

    @property
    def foundation_heights(self) -> tuple[int, ...]:
        return self.position.foundation_heights

    def shape(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        columns = self.position.live_columns
        return tuple(self.position.foundation_heights), tuple(sorted(map(len, columns)))

    @property
    def foundation_suit_codes(self) -> tuple[int, ...]:
        return self.fsuit

    def state(self) -> State:
        """Every pile as engine codes (face-down cards plus HIDDEN), the runs and the stock:
        (columns, foundations, cards dealt, reserve, cells, runs, stock), for tests."""
        p = self.position
        cols = tuple(map(tuple, p.live_columns))
        found, reserve, cells = p.foundation_heights, p.reserve_codes, p.cell_codes
        return cols, found, p.dealt, reserve, cells, p.runs, p.stock_codes

    # -- measures -----------------------------------------------------------------------

    def trapped_cards(self) -> list[tuple[int, int, int]]:
        """(card, column, epoch it lands) of the cards that can never leave their place (see
        :func:`milligan_widget.engine.deadlock.trapped_cards`)."""
        return trapped_cards(self.position)

    def trapped(self) -> bool:
        """Is any card trapped for good (the position lost, see :mod:`..deadlock`)?"""
        return bool(trapped_cards(self.position))

    def won(self) -> bool:
        return sum(self.position.live_foundations) == self.total

    def cards_home(self) -> int:
        return sum(self.position.live_foundations)

    def stock_left(self) -> int:
        return self.position.stock_left

    def rows_left(self) -> int:
        """Rows still to deal, a short last one too."""
        return -(-self.position.stock_left // self.ncols)

    def endgame_rank(self) -> int:
        """Lower is searched first: cards away from home, then how buried the next ones are
        (after :meth:`key`)."""
        p = self.position
        return (self.total - sum(p.live_foundations)) * 8 + p.buried_next()

    def breaks(self) -> int:
        """Cards that do not fit on the card below them (a column's bottom card counts)."""
        breaks = 0
        for col in self.position.live_columns:
            below = -1
            for card in col:
                if (below >> 1) != ((card >> 1) ^ 1) + 2:
                    breaks += 1
                below = card
        return breaks

    # -- moves --------------------------------------------------------------------------

    def play(self, handle: Handle) -> None:
        """Play a move of :meth:`moves` (or :meth:`deal_move`) on the board."""
        self._apply(handle[1])

    def undo(self, handle: Handle) -> None:
        """Take back the move :meth:`play` just played."""
        self._unapply(handle[1])

    def move_of(self, handle: Handle) -> Move:
        return handle[0]

    def record(self, handle: Handle) -> Action:
        """The action record of a handle (see :meth:`Position.action`)."""
        return handle[1]

    def is_deal(self, handle: Handle) -> bool:
        kind: int = handle[1][0]
        return kind == DEAL_ROW

    def turns_up(self, handle: Handle) -> bool:
        kind: int = handle[1][0]
        return kind == TURN_UP

    def deal_move(self) -> Handle:
        """The handle of dealing a row (the stock must have cards)."""
        return DEAL, self.position.action(DEAL)

    def moves(self) -> list[Handle]:
        """Every legal move, in the order of ``Game.legal_moves``."""
        return self.position.moves_and_actions()

    def scored_moves(self, deal_score: int) -> list[tuple[int, Handle]]:
        """(score, handle) of the legal moves worth trying, in :meth:`moves`' order; higher
        scores are tried first (see :meth:`move_score`)."""
        endgame = not self.position.stock_left
        score = self.move_score
        scored: list[tuple[int, Handle]] = []
        for handle in self.position.moves_and_actions():
            value = score(handle[1], endgame, deal_score)
            if value is not None:
                scored.append((value, handle))
        return scored

    def move_score(self, action: Action, endgame: bool, deal_score: int) -> int | None:
        """Higher is tried first; ``None`` drops a move that cannot help."""
        kind, cols = action[0], self.position.live_columns
        if kind == TURN_UP:  # a face-down card turns up: worth a little more
            score = self.move_score(action[1], endgame, deal_score)
            return None if score is None else score + 15
        if kind == DEAL_ROW:
            return deal_score
        if kind in (COLUMN_TO_FOUNDATION, RESERVE_TO_FOUNDATION):
            return 100
        if kind == RESERVE_TO_COLUMN:
            return 30
        if kind in (COLUMN_TO_COLUMN, GROUP_TO_COLUMN):
            src, dst, k = action[1], action[2], action[3]
            col = cols[src]
            if k == len(col):
                # A whole column into an empty one only renames columns once no row will land.
                return None if endgame and not cols[dst] else 60
            return self.exposure_score(col[-k - 1] & ~HIDDEN) - (10 if not cols[dst] else 0)
        if kind == COLUMN_TO_RESERVE:
            src, k = action[1], action[2]
            col = cols[src]
            if k == len(col):
                return -30 if col[0] >> 2 == KING else -20
            return self.exposure_score(col[-k - 1] & ~HIDDEN) - 10
        return 0

    def exposure_score(self, card: int) -> int:
        """Uncovering ``card``: good if it can go home, better the lower it is."""
        return 20 - (card >> 2) + (40 if self.position.foundation_for(card) is not None else 0)

    def undo_all(self, played: list[Handle]) -> None:
        unapply = self.position.unapply_action
        for handle in reversed(played):
            unapply(handle[1])

    def search(self, lost: Lost, deal_score: int, noise: Noise) -> PySearch:
        """A best-first search on this core (see :class:`PySearch`)."""
        return PySearch(self, lost, deal_score, noise)

    def walk(
        self,
        lost: Lost,
        deal_score: int,
        noise: Noise,
        trap_rows: int,
        trap_pays: int,
        max_depth: int,
    ) -> PyWalk:
        """A depth-first walk on this core (see :class:`PyWalk`)."""
        return PyWalk(self, lost, deal_score, noise, (trap_rows, trap_pays, max_depth))

    def expand(
        self,
        node: SearchKey,
        parents: Tree,
        lost: Lost,
        deal_score: int,
        noise: Noise,
        break_weight: int,
        stop_at_win: bool,
    ) -> tuple[SearchKey | None, list[Child]]:
        """The children of the position on the board, for a best-first search.

        Each move worth trying but a deal is played with its auto moves, most promising
        first; a position new to ``parents`` and not in ``lost`` is recorded there as
        ``parents[key] = (node, [handle, *auto handles])``, and listed as (rank, key,
        snapshot), the rank :meth:`endgame_rank` plus ``break_weight`` times :meth:`breaks`.
        With ``stop_at_win`` the first won child ends it: (its key, the children so far).
        The position is left as it was, except after a win."""
        children: list[Child] = []
        play, undo, auto, key, undo_all = (
            self._apply, self._unapply, self.auto_moves, self.key, self.undo_all
        )
        for handle in ordered(self.scored_moves(deal_score), noise):
            action = handle[1]
            if action[0] == DEAL_ROW:
                continue
            play(action)
            played = auto()
            child = key()
            if child not in parents and child not in lost:
                parents[child] = (node, [handle, *played])
                if stop_at_win and self.won():
                    return child, children
                rank = self.endgame_rank()
                if break_weight:
                    rank += break_weight * self.breaks()
                children.append((rank, child, self.snapshot()))
            undo_all(played)
            undo(action)
        return None, children


def ordered(scored: list[tuple[int, Handle]], noise: Noise) -> list[Handle]:
    """The handles of ``scored``, highest score first (ties in their order), each score
    plus ``noise()`` if given."""
    if noise is not None:
        noisy = [(score + noise(), handle) for score, handle in scored]
        noisy.sort(key=lambda item: -item[0])
        return [handle for _, handle in noisy]
    scored.sort(key=lambda item: -item[0])
    return [handle for _, handle in scored]


_EXPAND = -1  # a walk's verdict on a position: go on down from it
_ARRIVE, _PUSH, _ADVANCE = 0, 1, 2  # where a walk's next step() starts


class PySearch:
    """A best-first search over one core: the tree of positions reached (``parents``, a key
    to (parent key, handles from it)) and a heap of positions to expand, lowest rank first.

    :meth:`endgame` searches for a win; :meth:`spread` (the beam's layers) also deals a row
    at every position it expands, into :meth:`dealt`. Both stop after ``max_ticks``
    positions (``TICK``: the last one is expanded at the next call), so the caller can count
    and pause; the compiled core's ``Search`` does exactly the same, faster."""

    def __init__(self, core: PyCore, lost: Lost, deal_score: int, noise: Noise) -> None:
        self.core, self.lost, self.deal_score, self.noise = core, lost, deal_score, noise
        self.parents: Tree = {}
        self.heap: list[tuple[int, int, SearchKey, Snapshot]] = []  # (rank, order pushed, ...)
        self.pushed = self.left = 0
        self.pending: SearchKey | None = None
        self.won: SearchKey | None = None
        self.reached: list[Child] = []

    def root(self, key: SearchKey) -> None:
        """Start the tree at ``key`` (the position on the board)."""
        self.parents[key] = None

    def seed(self, key: SearchKey, snapshot: Snapshot, left: int) -> None:
        """A new heap holding ``key`` (already in the tree), with ``left`` positions to go."""
        self.heap, self.pushed, self.left = [(0, 0, key, snapshot)], 0, left
        self.pending, self.reached = None, []

    def _next(self, ticks: int, max_ticks: int) -> tuple[SearchKey, bool]:
        """Pop the best position onto the board: (its key, True if the pause is due)."""
        _, _, node, snap = heapq.heappop(self.heap)
        self.core.restore(snap)
        if ticks + 1 == max_ticks:
            self.pending = node
            return node, True
        return node, False

    def _push(self, children: list[Child]) -> None:
        for rank, child, snapshot in children:
            self.pushed += 1
            heapq.heappush(self.heap, (rank, self.pushed, child, snapshot))

    def endgame(self, max_ticks: int) -> tuple[int, int]:
        """Expand up to ``max_ticks`` positions: (status, positions)."""
        ticks, core = 0, self.core
        while True:
            node, self.pending = self.pending, None
            if node is None:
                if not self.heap:
                    return LOST, ticks
                self.left -= 1
                if self.left < 0:
                    return OPEN, ticks
                node, due = self._next(ticks, max_ticks)
                ticks += 1
                if due:
                    return TICK, ticks
            won, children = core.expand(
                node, self.parents, self.lost, self.deal_score, self.noise, 0, True
            )
            if won is not None:
                self.won = won
                return WIN, ticks
            self._push(children)

    def spread(self, max_ticks: int, break_weight: int) -> tuple[int, int]:
        """As :meth:`endgame` without stopping at a win, and each position expanded deals
        a row first (:meth:`dealt`); ``DONE`` when the heap or the positions left run out."""
        ticks, core = 0, self.core
        while True:
            node, self.pending = self.pending, None
            if node is None:
                if not self.heap or self.left <= 0:
                    return DONE, ticks
                self.left -= 1
                node, due = self._next(ticks, max_ticks)
                ticks += 1
                if due:
                    return TICK, ticks
            self._deal_into(node, break_weight)
            _, children = core.expand(
                node, self.parents, self.lost, self.deal_score, self.noise, break_weight, False
            )
            self._push(children)

    def _deal_into(self, node: SearchKey, break_weight: int) -> None:
        core, parents = self.core, self.parents
        deal = core.deal_move()
        core.play(deal)
        played = core.auto_moves()
        child = core.key()
        if child not in parents and child not in self.lost:
            parents[child] = (node, [deal, *played])
            rank = core.endgame_rank() + break_weight * core.breaks()
            self.reached.append((rank, child, core.snapshot()))
        core.undo_all(played)
        core.undo(deal)

    def dealt(self) -> list[Child]:
        """(rank, key, snapshot) of the new positions the last spread dealt, in order."""
        return self.reached

    def heap_size(self) -> int:
        return len(self.heap)

    def won_key(self) -> SearchKey | None:
        return self.won

    def path(self, key: SearchKey) -> list[Handle]:
        """The handles from the root of the tree to ``key``."""
        parts = []
        parents = self.parents
        while (parent := parents[key]) is not None:
            key, handles = parent
            parts.append(handles)
        return [h for handles in reversed(parts) for h in handles]

    def mark_lost(self) -> None:
        """Every position of the tree joins the lost ones."""
        self.lost.update(self.parents)


class PyWalk:
    """The solver's depth-first search over the positions before the last deal, stepped by
    the solver (:meth:`step`); the compiled core's ``Walk`` does exactly the same, faster.

    At each position it reaches it plays the auto moves, then judges it: won, lost (seen
    this round, in ``lost``, or a card trapped for good, see :meth:`trapped`), an endgame
    (the stock is empty: the solver searches it), or a position to go on down from, with its
    moves tried most promising first. ``frames`` holds one for each position on the way
    down: [auto moves played on arrival, the moves left to try, the move being tried]. A
    line longer than ``max_depth`` positions is left open (counted in ``too_deep``).

    The trapped-card test's statistics (:meth:`trapped`) last from round to round, and
    the beam asks it too."""

    def __init__(
        self,
        core: PyCore,
        lost: Lost,
        deal_score: int,
        noise: Noise,
        limits: tuple[int, int, int],
    ) -> None:
        self.core, self.lost, self.deal_score, self.noise = core, lost, deal_score, noise
        self.trap_rows, self.trap_pays, self.max_depth = limits
        self.free: set[SearchKey] = set()  # positions the trapped-card test passed
        self.trap_tries = [[0, 0] for _ in range(self.trap_rows + 1)]  # by rows left
        self.trapped_positions = 0
        self.start()

    def start(self) -> None:
        """A new round from the position on the board: nothing seen yet, no line."""
        self.seen: set[SearchKey] = set()
        self.frames: list[_Frame] = []
        self.too_deep = 0
        self.resume, self.dealt = _ARRIVE, True
        self.played: list[Handle] = []
        self.key: SearchKey | None = None

    def trapped(self, key: SearchKey) -> bool:
        """Is a card trapped for good in the position on the board (of ``key``)? Asked
        only with at most ``trap_rows`` rows left to deal (it is slow), and, after
        ``trap_pays`` tries with so many rows left, only while 1 in ``trap_pays`` is
        trapped. A trapped position joins the lost ones."""
        rows = self.core.rows_left()
        if rows > self.trap_rows or key in self.free:
            return False
        tries, pays = self.trap_tries[rows], self.trap_pays
        if tries[0] >= pays and tries[1] * pays < tries[0]:
            return False
        tries[0] += 1
        if self.core.trapped():
            tries[1] += 1
            self.trapped_positions += 1
            self.lost.add(key)
            return True
        self.free.add(key)
        return False

    def step(self, max_ticks: int) -> tuple[int, int]:
        """Walk on until the ``max_ticks``-th position to go on down from (``TICK``: its
        moves are tried from the next step), a win (``WIN``, the board won: :meth:`line`),
        an endgame (``ENDGAME``, on the board: :meth:`entry`; :meth:`judge` it) or the end
        of every line (``DONE``): (status, positions gone on down from)."""
        ticks = 0
        if self.resume == _PUSH:
            self._push()
        if self.resume != _ARRIVE and not self._advance():
            return DONE, ticks
        while True:
            verdict = self._arrive()
            if verdict == _EXPAND:
                ticks += 1
                if ticks == max_ticks:
                    self.resume = _PUSH
                    return TICK, ticks
                self._push()
            elif verdict != LOST:
                self.resume = _ADVANCE
                return verdict, ticks
            if not self._advance():
                self.resume = _ADVANCE
                return DONE, ticks

    def _arrive(self) -> int:
        """Judge the position just reached; it is left as found unless won, an endgame or
        to go on down from (its auto moves then stay played)."""
        core = self.core
        self.played = []
        if len(self.frames) > self.max_depth:  # a very long line: leave it open
            self.too_deep += 1
            return LOST
        self.played = played = core.auto_moves()
        if core.won():
            return WIN
        self.key = key = core.key()
        if key not in self.seen and key not in self.lost:
            self.seen.add(key)
            if not (self.dealt and self.trapped(key)):
                return _EXPAND if core.stock_left() else ENDGAME
        core.undo_all(played)
        return LOST

    def _push(self) -> None:
        moves = ordered(self.core.scored_moves(self.deal_score), self.noise)
        self.frames.append(_Frame(self.played, iter(moves)))

    def _advance(self) -> bool:
        """Take back the move tried last and play the next one, backing up the line where
        every move is tried; False when the whole line is."""
        core, line = self.core, self.frames
        while line:
            frame = line[-1]
            if frame.tried is not None:
                core.undo(frame.tried)
            frame.tried = tried = next(frame.moves, None)
            if tried is not None:
                core.play(tried)
                self.dealt = core.is_deal(tried)
                return True
            line.pop()
            core.undo_all(frame.played)
        return False

    def judge(self) -> None:
        """The endgame of the last step was not won: the walk goes on from its parent."""
        self.core.undo_all(self.played)
        self.played = []

    def entry(self) -> SearchKey | None:
        """The key of the endgame the last step reached (``None`` before any)."""
        return self.key

    def line(self) -> list[Handle]:
        """The handles from where the round started to the position on the board."""
        return [h for f in self.frames for h in (*f.played, f.tried) if h is not None] + self.played


class _Frame:
    """A position on a walk's way down: the auto moves played on arrival, the moves left to
    try, and the move being tried (``None`` before the first)."""

    __slots__ = ("moves", "played", "tried")

    def __init__(self, played: list[Handle], moves: Iterator[Handle]) -> None:
        self.played, self.moves = played, moves
        self.tried: Handle | None = None
