"""A solver for Miss Milligan and its variants.

It plays *thoughtful* solitaire: it knows the order of the stock, and what the face-down cards
are where the rules deal some (Milligan Harp and Yukon), like a player who could see through
the deck. "winnable" comes with a full list of moves that wins; "unwinnable" is a
proof that no sequence of moves wins, whatever the player knew; "unknown" means the budget
ran out first.

How it searches. Almost all of the work lies after the last deal, where weaving opens and the
space of positions is large; a plain depth-first search commits to the first line of deals
and drowns in that line's endgame. So a few runs in different styles (:data:`PORTFOLIO`) take
turns, each resumed where it paused: round ``r`` gives each run ``TURN * weight * 2**r``
positions (the growth stops at :data:`MAX_GROWTH`), the depth-first run first. An easy deal
is won in its first turn, and a deal one style wins is won after about the same time whatever
the time limit, as no run waits for another's share of it to run out. A run is a generator
that pauses at the end of its turn (no threads: it runs in Pyodide too), and the turns are
counted in positions, so a solve searches the same way whatever its time limit. The styles:

- Depth first over the positions before the last deal (column order matters there: each deal
  lands on given columns), and every endgame it reaches searched best-first (fewest cards
  away from home, then the cards the foundations need next buried least deep) with a node
  budget; when it is spent the search backs out and tries other deal lines, and each round
  doubles the budget. It wins many deals in a few thousand positions, and it is the run that
  proves losses: if a round finishes without an open endgame, the deal is unwinnable.
- A layered beam search (:class:`_Beam`): the positions with the same rows dealt form a
  layer, and only the best few of each layer (fewest breaks in the columns' order, then
  cards home and buried cards) go on to the next deal. It wins the deals where depth first
  keeps trying near-identical deal lines; when it cut nothing it is a proof too.

An endgame searched to the end without a win is proven lost, with every position it reached,
and every run skips it from then on. Where nothing can be set aside (no reserve, no cells), a
position late in the deal with a card that can never leave its place is lost at once (see
:mod:`.deadlock`). Safe foundation moves are made automatically, positions are compared
with columns in any order once the stock is empty, and a whole column never moves into an
empty one after the stock is gone.

>>> from milligan_widget import Game
>>> result = solve(Game.new(8), time_limit=10)
>>> result.status, len(result.moves) > 100
('winnable', True)
"""

from __future__ import annotations

import heapq
import math
import random
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field

from .deadlock import applies as trap_test_applies
from .deadlock import explain, trapped_cards
from .game import Game
from .moves import ANY_FOUNDATION, DEAL, Move, make_move
from .position import (
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
)

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
MAX_DEPTH = 2000  # moves before the last deal in one line of the depth-first search
TRAP_ROWS = 4  # the trapped-card test runs once this few rows are left to deal (it is slow),
TRAP_PAYS = 20  # and, after TRAP_PAYS tries with so many rows left, while 1 in TRAP_PAYS is trapped
PROGRESS_EVERY = 1024  # positions between two calls of solve()'s progress callback
TURN = 512  # positions in a run's first turn, per unit of its style's weight,
MAX_GROWTH = 8  # doubled each round up to this many times that
_WIN, _LOST, _OPEN = "win", "lost", "open"


@dataclass(frozen=True)
class SolveResult:
    """What the solver found: a status, the winning moves if any, and statistics."""

    status: str
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    stats: dict = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        return self.status != UNKNOWN


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class _Style:
    """How one run of the search orders its work; runs in several styles find different wins."""

    first_budget: int = 256  # nodes for each endgame in the first round (a beam: its width)
    deal_score: int = -100  # dealing last (-100) or between the other moves
    shuffle: int | None = None  # a seed for random tie-breaks
    break_weights: tuple[int, ...] = ()  # a layered beam search with these weights (_Beam)
    weight: float = 1.0  # its share of each round of turns (see TURN)


PORTFOLIO = (
    _Style(256, weight=1.5),  # depth first wins many deals in a few thousand positions
    _Style(1, break_weights=(1000, 40, 2), weight=5),  # breaks first, or nearly, or lightly
    _Style(2048),
    _Style(256, deal_score=5),
    _Style(1024, shuffle=1),
)


class _Clock:
    """What the runs of one solve share besides the lost positions: the positions expanded by
    all of them, the limits, ``stop`` and ``progress``."""

    def __init__(
        self,
        time_limit: float = math.inf,
        node_limit: float | None = None,
        stop: Callable[[], bool] | None = None,
        progress: Callable[[int, float], None] | None = None,
    ) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + time_limit
        self.node_limit = math.inf if node_limit is None else node_limit
        self.stop, self.progress = stop, progress
        self.nodes = 0

    def checkpoint(self) -> bool:
        """Every 256 positions: is the time up or the solve stopped? Every 1024, progress is
        reported too (:data:`PROGRESS_EVERY`)."""
        now = time.perf_counter()
        if self.progress is not None and self.nodes % PROGRESS_EVERY == 0:
            self.progress(self.nodes, now - self.start)
        return now > self.deadline or (self.stop is not None and self.stop())


Steps = Generator[None, None, bool]  # a run's search: it pauses (yields) at the end of a turn


class _Search:
    """One solving run on a private copy of the game.

    :meth:`run` is a generator that pauses at the end of each turn (when the run has expanded
    ``turn_end`` positions) and returns True if won (the moves in ``path``), False if proven
    lost; :class:`_OutOfBudget` comes out of it when the shared ``clock`` runs out."""

    growth = 2

    def __init__(self, game: Game, style: _Style, lost: set, clock: _Clock | None = None) -> None:
        self.game = game.copy(history=False)
        self.clock = _Clock() if clock is None else clock
        self.turn_end = math.inf
        self.style = style
        self.noise = random.Random(style.shuffle).random if style.shuffle is not None else None
        self.nodes = 0
        self.total = game.rules.card_count
        self.lost = lost
        self.seen: set = set()
        self.path: list[Move] = []
        self.rounds = 0
        self.endgames = 0
        self.open_endgames = 0
        self.trap_test = trap_test_applies(self.game)
        self.trapped_positions = 0
        self.free: set = set()  # positions the trapped-card test passed
        self.trap_tries = [[0, 0] for _ in range(TRAP_ROWS + 1)]  # [tried, trapped] by rows left

    # -- the position -------------------------------------------------------------------

    def key(self) -> tuple[bytes, int]:
        """A compact key: column order counts only while rows are still to be dealt. The
        columns' bytes stay in ``self.tableau`` for :meth:`cover_score`."""
        g = self.game
        cols = list(map(bytes, g._cols))
        if g._pos >= len(g._deck):
            cols.sort()
        self.tableau = tableau = b"\xff".join(cols)
        f = g._found
        if g._rules.decks == 2:  # the two piles of a suit in either order: sum and difference
            a, b, c, d, e, h, i, j = f
            heights = bytes(
                (a + b, abs(a - b), c + d, abs(c - d), e + h, abs(e - h), i + j, abs(i - j))
            )
        else:
            heights = bytes(f)
        key = tableau + b"|" + heights + bytes(g._reserve)
        if g._ncells:
            key += b"|" + bytes(sorted(c & 0xFF for c in g._cells))
        return key, g._pos

    def endgame_rank(self) -> int:
        """Lower is searched first: cards away from home, then how buried the next ones are."""
        return (self.total - sum(self.game._found)) * 8 + self.cover_score()

    def cover_score(self) -> int:
        """How deep the cards the foundations need next are buried (0: all free), in the
        position :meth:`key` was last called on."""
        g, tableau = self.game, self.tableau
        total, depths = 0, {}
        for height, suit in zip(g._found, g._fsuit, strict=True):
            if height < 13:
                card = height * 4 + suit
                depth = depths.get(card)
                if depth is None:
                    depth = 99
                    for code in (card, card + HIDDEN) if g._flips else (card,):
                        at = tableau.find(code)
                        while at >= 0:  # each copy: the cards above it, up to the separator
                            end = tableau.find(255, at)
                            depth = min(depth, (len(tableau) if end < 0 else end) - at - 1)
                            at = tableau.find(code, at + 1)
                    if card in g._reserve:
                        depth = min(depth, g._reserve[::-1].index(card))
                    depths[card] = depth
                total += depth
        return total

    def snapshot(self) -> tuple:
        return self.game.snapshot()

    def load(self, snap: tuple) -> None:
        self.game.restore(snap)

    def won(self) -> bool:
        return sum(self.game._found) == self.total

    def trapped(self, key: tuple) -> bool:
        """Is a card trapped for good in the position of ``key`` (see :mod:`.deadlock`)?
        Asked only late in the deal; a trapped position joins the lost ones."""
        if not self.trap_test:
            return False
        g = self.game
        rows = -((g._pos - len(g._deck)) // g._ncols)  # rows left to deal, a short one too
        if rows > TRAP_ROWS or key in self.free:
            return False
        tries = self.trap_tries[rows]
        if tries[0] >= TRAP_PAYS and tries[1] * TRAP_PAYS < tries[0]:
            return False
        tries[0] += 1
        if trapped_cards(g):
            tries[1] += 1
            self.trapped_positions += 1
            self.lost.add(key)
            return True
        self.free.add(key)
        return False

    def tick(self) -> bool:
        """Count a position expanded; true when this run's turn is over (the caller yields)."""
        self.nodes += 1
        clock = self.clock
        clock.nodes += 1
        if clock.nodes > clock.node_limit or (clock.nodes & 255 == 0 and clock.checkpoint()):
            raise _OutOfBudget
        return self.nodes >= self.turn_end

    # -- moves --------------------------------------------------------------------------

    def auto_moves(self) -> list[tuple[Move, tuple]]:
        """Play safe foundation moves until none is left; return (move, action) pairs.

        The rule is :meth:`Game.safe_foundation_moves`'s: every pile of the card's suit ready
        for it or past it, and every card of the other colour one rank lower home."""
        g = self.game
        found, fsuit, cols = g._found, g._fsuit, g._cols
        played = []
        while True:
            ready = {h * 4 + s for h, s in zip(found, fsuit, strict=True) if h < 13}
            for i, col in enumerate(cols):  # the common case, without the generator
                if col and col[-1] in ready and g._safe_home(col[-1]):
                    move = make_move(i, ANY_FOUNDATION, None)
                    break
            else:
                move = self.safe_source(ready) if g._reserve or g._ncells else None
                if move is None:
                    return played
            action = g._resolve(move)
            g._apply(action)
            played.append((move, action))

    def safe_source(self, ready: set[int]) -> Move | None:
        """A move sending a safe card home, or ``None``."""
        g = self.game
        for source, card in g._free_cards():
            if card in ready and g._safe_home(card):
                return make_move(source, ANY_FOUNDATION, None)
        return None

    def undo_all(self, played: list[tuple[Move, tuple]]) -> None:
        for _, action in reversed(played):
            self.game._unapply(action)

    def ordered_moves(self) -> list[tuple[Move, tuple]]:
        """The legal moves worth trying, most promising first, with their actions."""
        g = self.game
        endgame = g._pos >= len(g._deck)
        scored = []
        for move in g._generate():
            action = g._resolve(move)
            score = self.move_score(action, endgame)
            if score is not None:
                if self.noise:
                    score += self.noise()
                scored.append((score, move, action))
        scored.sort(key=lambda item: -item[0])
        return [(move, action) for _, move, action in scored]

    def move_score(self, action: tuple, endgame: bool) -> int | None:
        """Higher is tried first; ``None`` drops a move that cannot help."""
        g = self.game
        kind, cols = action[0], g._cols
        if kind == TURN_UP:  # a face-down card turns up: worth a little more
            score = self.move_score(action[1], endgame)
            return None if score is None else score + 15
        if kind == DEAL_ROW:
            return self.style.deal_score
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
        return 20 - (card >> 2) + (40 if self.game._foundation_pile(card) is not None else 0)

    # -- the search ---------------------------------------------------------------------

    def run(self) -> Steps:
        """Rounds of the staged search with a growing endgame budget: True if won, False if
        proven lost (a round without an open endgame)."""
        self.budget = self.style.first_budget
        while True:
            self.rounds += 1
            self.seen = set()
            self.open_endgames = 0
            if (yield from self.before_last_deal()) == _WIN:
                return True
            if self.open_endgames == 0:
                return False
            self.budget *= self.growth

    def before_last_deal(self) -> Generator[None, None, str]:
        """Depth first over the deal timing, from the position on the board; each endgame
        reached is searched best-first. ``line`` holds a frame for each position on the way
        down: [auto moves played on arrival, the moves left to try, the move being tried]."""
        g = self.game
        line: list[list] = []
        outcome = yield from self.arrive(line, True)
        while line:
            frame = line[-1]
            if frame[2] is not None:  # back from the move being tried
                if outcome == _WIN:
                    self.path[:0] = [m for f in line for m in (*(p for p, _ in f[0]), f[2][0])]
                    return _WIN
                g._unapply(frame[2][1])
            frame[2] = next(frame[1], None)
            if frame[2] is None:  # every move tried: back up
                line.pop()
                self.undo_all(frame[0])
                outcome = _LOST
                continue
            g._apply(frame[2][1])
            outcome = yield from self.arrive(line, frame[2][1][0] == DEAL_ROW)
        return outcome

    def arrive(self, line: list[list], dealt: bool) -> Generator[None, None, str | None]:
        """Play the auto moves at a new position on the line and judge it: won, lost (seen,
        known lost or trapped), an endgame (searched), or None: a frame for it is pushed on
        ``line`` and the search goes on down. What is judged is left as it was found."""
        g = self.game
        if len(line) > MAX_DEPTH:  # a very long line: leave it open rather than go on
            self.open_endgames += 1
            return _OPEN
        played = self.auto_moves()
        if self.won():
            self.path[:0] = [m for m, _ in played]
            return _WIN
        key = self.key()
        if key in self.seen or key in self.lost:
            outcome = _LOST
        else:
            self.seen.add(key)
            if dealt and self.trapped(key):
                outcome = _LOST
            elif g._pos >= len(g._deck):
                outcome = yield from self.endgame(key)
            else:
                if self.tick():
                    yield
                line.append([played, iter(self.ordered_moves()), None])
                return None
        if outcome == _WIN:
            self.path[:0] = [m for m, _ in played]
        else:
            self.undo_all(played)
        return outcome

    def children(self, node: tuple, parents: dict) -> Iterator[tuple]:
        """Play each move worth trying from ``node`` but a deal, with its auto moves; for
        each position new to ``parents`` (and not known lost), record how it was reached and
        yield its key while it is on the board. Dealing is the layers' business, and an
        endgame has nothing left to deal."""
        g = self.game
        for move, action in self.ordered_moves():
            if action[0] == DEAL_ROW:
                continue
            g._apply(action)
            played = self.auto_moves()
            child = self.key()
            if child not in parents and child not in self.lost:
                parents[child] = (node, [move] + [m for m, _ in played])
                yield child
            self.undo_all(played)
            g._unapply(action)

    def endgame(self, entry: tuple) -> Generator[None, None, str]:
        """Best-first search from an endgame entry with ``self.budget`` nodes."""
        self.endgames += 1
        start = self.snapshot()
        parents: dict = {entry: None}
        heap = [(0, 0, entry, start)]
        pushed, left = 0, self.budget
        try:
            while heap:
                left -= 1
                if left < 0:
                    self.open_endgames += 1
                    return _OPEN
                _, _, node, snap = heapq.heappop(heap)
                self.load(snap)
                if self.tick():
                    yield
                for child in self.children(node, parents):
                    if self.won():
                        self.path[:0] = _path_to(parents, child)
                        return _WIN
                    pushed += 1
                    rank = self.endgame_rank()
                    heapq.heappush(heap, (rank, pushed, child, self.snapshot()))
            self.lost.update(parents)  # searched to the end: every position in it is lost
            return _LOST
        finally:
            self.load(start)


class _Beam(_Search):
    """A layered beam search: it finds wins where the depth-first run drowns in near-identical
    deal lines, and proves a loss only when it had to cut nothing.

    Positions with the same number of rows dealt form a layer. From each position kept in a
    layer, a short best-first search over the moves that do not deal reaches other positions;
    each of them deals the next row, and the ``width`` best results make the next layer. The
    positions of the last layer are the endgame entries, searched as in :class:`_Search`.
    "Best" weighs the breaks in the columns (a card that does not fit on the one below it),
    cards away from home and buried cards the foundations need next; each round tries a few
    weights for the breaks (they win different deals; heavy ones win most) and doubles the
    width and the budgets.
    """

    def run(self) -> Steps:
        width = self.style.first_budget
        start = self.snapshot()
        while True:
            self.rounds += 1
            self.budget = 64 * width
            for weight in self.style.break_weights:
                self.break_weight, self.complete = weight, True
                if (yield from self.sweep(width)):
                    return True
                if self.complete:  # nothing was cut: every line was searched to its end
                    return False
                self.load(start)
            width *= 2

    def spread_limit(self, width: int) -> int:
        """Positions expanded in a layer from each position kept."""
        return 16 + 4 * width

    def rank(self) -> int:
        """Lower is better: cards away from home, buried next cards, broken columns."""
        g, breaks = self.game, 0
        for col in g._cols:
            below = -1
            for card in col:
                if (below >> 1) != ((card >> 1) ^ 1) + 2:
                    breaks += 1
                below = card
        return self.endgame_rank() + self.break_weight * breaks

    def sweep(self, width: int) -> Steps:
        g = self.game
        played = [m for m, _ in self.auto_moves()]
        root = self.key()
        parents: dict = {root: None}
        layer = [(root, self.snapshot())]
        while g._pos < len(g._deck) and layer:
            dealt: dict = {}
            for key, snap in layer:
                self.load(snap)
                yield from self.spread(key, parents, dealt, self.spread_limit(width))
            layer = self.best_live(dealt, width)
            if layer:
                self.load(layer[0][1])
        for key, snap in layer:
            self.load(snap)
            outcome = _WIN if self.won() else (yield from self.endgame(key))
            if outcome == _WIN:
                self.path[:0] = played + _path_to(parents, key)
                return True
            self.complete &= outcome == _LOST
        return False

    def best_live(self, dealt: dict, width: int) -> list[tuple]:
        """The ``width`` best positions of a layer that hold no trapped card, as (key,
        snapshot); what is cut leaves the sweep incomplete, what is trapped is proven lost."""
        layer, candidates = [], list(dealt.values())
        heapq.heapify(candidates)
        while candidates and len(layer) < width:
            _, key, snap = heapq.heappop(candidates)
            self.load(snap)
            if not self.trapped(key):
                layer.append((key, snap))
        if candidates:
            self.complete = False
        return layer

    def spread(
        self, seed: tuple, parents: dict, dealt: dict, limit: int
    ) -> Generator[None, None, None]:
        """Best-first over the moves that do not deal, from ``seed``; every position reached
        deals the next row into ``dealt`` (key -> (rank, key, snapshot))."""
        heap = [(0, 0, seed, self.snapshot())]
        pushed = 0
        while heap and limit > 0:
            limit -= 1
            _, _, node, snap = heapq.heappop(heap)
            self.load(snap)
            if self.tick():
                yield
            self.deal_into(node, parents, dealt)
            for child in self.children(node, parents):
                pushed += 1
                heapq.heappush(heap, (self.rank(), pushed, child, self.snapshot()))
        if heap:
            self.complete = False

    def deal_into(self, node: tuple, parents: dict, dealt: dict) -> None:
        g = self.game
        action = g._resolve(DEAL)
        g._apply(action)
        played = self.auto_moves()
        child = self.key()
        if child not in parents and child not in self.lost:
            parents[child] = (node, [DEAL] + [m for m, _ in played])
            dealt[child] = (self.rank(), child, self.snapshot())
        self.undo_all(played)
        g._unapply(action)


def _path_to(parents: dict, key) -> list[Move]:
    parts = []
    while parents[key] is not None:
        key, moves = parents[key]
        parts.append(moves)
    return [m for moves in reversed(parts) for m in moves]


def shorten(game: Game, moves: list[Move]) -> list[Move]:
    """A shorter winning line from ``game``: loops back to a position already reached are cut,
    and where one legal move reaches a position further down the line, the line jumps there."""
    line, changed = list(moves), True
    while changed:
        position = game.copy(history=False)
        keys = [position._exact_key()]
        for move in line:
            position.play(move)
            keys.append(position._exact_key())
        last = {key: i for i, key in enumerate(keys)}
        position = game.copy(history=False)
        shorter, i, changed = [], 0, False
        while i < len(line):
            if last[keys[i]] > i:
                i, changed = last[keys[i]], True
                continue
            target, via = i + 1, line[i]
            for move in position.legal_moves:
                position.play(move)
                reach = last.get(position._exact_key(), -1)
                position.undo()
                if reach > target:
                    target, via, changed = reach, move, True
            position.play(via)
            shorter.append(via)
            i = target
        line = shorter
    return line


def solve(
    game: Game,
    time_limit: float = 10.0,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> SolveResult:
    """Decide whether ``game`` can still be won from its current position.

    Returns ``winnable`` with a full move list (each move playable with ``game.play``, in
    order), ``unwinnable`` (proven: nothing is left unsearched), or ``unknown`` when
    ``time_limit`` seconds or ``node_limit`` expanded positions are spent, or when ``stop()``
    returns true (it is asked every few hundred positions: a thread's way to cancel). The
    budget is shared by a few runs that order the search differently and take turns; what one
    run proves lost, the others skip. ``progress(positions, seconds)``, if given, is called
    every :data:`PROGRESS_EVERY` positions with the positions expanded and the seconds spent
    so far (from the solver's thread: keep it quick).
    """
    if not time_limit >= 0:  # NaN too
        raise ValueError(f"time_limit must be a number of seconds >= 0, not {time_limit!r}")
    clock = _Clock(time_limit, node_limit, stop, progress)
    status, search, runs = _take_turns(game, clock, PORTFOLIO)
    path = search.path if search is not None else []
    moves = tuple(shorten(game, path)) if status == WINNABLE else ()
    stats = {
        "rounds": sum(run.rounds for run in runs),
        "endgames": sum(run.endgames for run in runs),
        "runs": len(runs),
        "decided_by": runs.index(search) if search is not None else None,
        "raw_length": len(path),
    }
    return SolveResult(status, moves, clock.nodes, time.perf_counter() - clock.start, stats)


def _take_turns(
    game: Game, clock: _Clock, styles: Sequence[_Style]
) -> tuple[str, _Search | None, list[_Search]]:
    """The runs of ``styles`` take turns, each resumed where it paused, until one wins or
    proves a loss (it is returned with the status) or the clock runs out (``unknown``)."""
    lost: set = set()
    runs = [
        (_Beam if style.break_weights else _Search)(game, style, lost, clock) for style in styles
    ]
    steps = [run.run() for run in runs]
    try:
        for round_ in range(sys.maxsize):
            growth = 2 ** min(round_, MAX_GROWTH)
            for run, step in zip(runs, steps, strict=True):
                run.turn_end = run.nodes + max(1, round(TURN * run.style.weight * growth))
                try:
                    next(step)
                except StopIteration as done:
                    return (WINNABLE if done.value else UNWINNABLE), run, runs
    except _OutOfBudget:
        pass
    finally:
        for step in steps:
            step.close()
    return UNKNOWN, None, runs


def _run_alone(search: _Search) -> bool:
    """Run one search to its end without pauses (its clock still applies): True if won."""
    search.turn_end = math.inf
    step = search.run()
    try:
        while True:
            next(step)
    except StopIteration as done:
        return done.value


def no_win_left(game: Game) -> str:
    """The words for a proven loss, with the trapped card that shows it when there is one.

    >>> from milligan_widget.lessons import stage
    >>> no_win_left(stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    'this position can no longer be won: Q♣ in column 1 can never move or go home'
    """
    why = explain(game)
    return "this position can no longer be won" + (f": {why}" if why else "")


@dataclass(frozen=True)
class Hint:
    """A suggested move, why, and whether the solver or the heuristic chose it."""

    move: Move
    reason: str
    source: str  # "solver" or "heuristic"
    status: str  # the solver's verdict on the position: winnable, unwinnable or unknown
    line: tuple[Move, ...] = ()  # the solver's whole winning line from here, if it found one

    @classmethod
    def on_line(cls, line: Sequence[Move]) -> Hint:
        """The hint at the start of a winning ``line``: its first move."""
        left = len(line)
        reason = f"the solver sees a win from here in {left} move{'s' * (left != 1)}"
        return cls(line[0], reason, "solver", WINNABLE, tuple(line))


def hint(
    game: Game, time_limit: float = 2.0, stop: Callable[[], bool] | None = None
) -> Hint | None:
    """The solver's first move if it finds a win within ``time_limit`` seconds (so following
    it never throws away a win), else the greedy heuristic's move; ``None`` if no move is left.
    ``stop`` cancels the solver as in :func:`solve`.

    >>> from milligan_widget import Game
    >>> hint(Game.new(8), time_limit=10).source
    'solver'
    """
    from .strategy import hint as heuristic

    if game.status != "playing":
        return None
    result = solve(game, time_limit=time_limit, stop=stop)
    if result.status == WINNABLE:
        return Hint.on_line(result.moves)
    guess = heuristic(game)
    if guess is None:
        return None
    move, why = guess
    verdict = (
        f"the solver proved {no_win_left(game)}"
        if result.status == UNWINNABLE
        else f"the solver could not decide in {time_limit:g} s"
    )
    return Hint(move, f"{why} ({verdict}; this is a heuristic guess)", "heuristic", result.status)
