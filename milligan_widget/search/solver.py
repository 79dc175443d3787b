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
  cards home and buried cards) go on to the next deal, once it is :data:`DIVERSE_WIDTH`
  wide one of each shape first (foundations and column lengths: near-copies of one position
  would fill it), and an endgame another weight's sweep of that width left open is not
  searched again. It wins the deals where depth first keeps trying near-identical deal
  lines; when it cut nothing it is a proof too.

An endgame searched to the end without a win is proven lost, with every position it reached,
and every run skips it from then on. Where nothing can be set aside (no reserve, no cells), a
position late in the deal with a card that can never leave its place is lost at once (see
:mod:`.deadlock`). Safe foundation moves are made automatically, positions are compared
with columns in any order once the stock is empty, and a whole column never moves into an
empty one after the stock is gone.

The solver sees a position only through the search interface of :mod:`milligan_widget.core`:
a compiled core where the extension is built (:data:`backend` ``"c"``), else the pure-Python
one (``"python"``); both search alike, position for position.

>>> from milligan_widget import Game
>>> result = solve(Game.new(8), time_limit=10)
>>> result.status, len(result.moves) > 100
('winnable', True)
"""

from __future__ import annotations

import heapq
import math
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from milligan_widget.core import (
    BACKEND,
    DONE,
    ENDGAME,
    LOST,
    OPEN,
    TICK,
    WIN,
    CoreSearch,
    key_set,
    make_core,
    random_noise,
)
from milligan_widget.engine.deadlock import applies as trap_test_applies
from milligan_widget.engine.deadlock import explain
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import SearchKey

if TYPE_CHECKING:
    from milligan_widget.core.interface import Lost

#: The search core that runs: "c" (the compiled extension) or "python" (see
#: :mod:`milligan_widget.core`).
backend = BACKEND
WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
MAX_DEPTH = 2000  # moves before the last deal in one line of the depth-first search
TRAP_ROWS = 4  # the trapped-card test runs once this few rows are left to deal (it is slow),
TRAP_PAYS = 20  # and, after TRAP_PAYS tries with so many rows left, while 1 in TRAP_PAYS is trapped
PROGRESS_EVERY = 1024  # positions between two calls of solve()'s progress callback
TURN = 512  # positions in a run's first turn, per unit of its style's weight,
MAX_GROWTH = 8  # doubled each round up to this many times that
DIVERSE_WIDTH = 32  # a beam this wide keeps one position of each shape first (_Beam.best_live)
ENTRY_BUDGET = 64  # positions for each endgame entry of a beam, per unit of its width
_WIN, _LOST, _OPEN = "win", "lost", "open"


class SolveStats(TypedDict, total=False):
    """How a solve went (all of it where :func:`solve` made the result)."""

    rounds: int  # rounds of the staged search, over all runs
    endgames: int  # endgames searched best-first
    runs: int  # runs in the portfolio
    decided_by: int | None  # the run that decided, by its place in the portfolio
    raw_length: int  # the winning line's length before it was shortened
    workers: int  # threads that searched: 2 where a second core took part


@dataclass(frozen=True)
class SolveResult:
    """What the solver found: a status, the winning moves if any, and statistics."""

    status: str
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    stats: SolveStats = field(default_factory=lambda: SolveStats())
    search_seconds: float = 0.0  # the search alone, without shortening the line found

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
#: With ``workers=2`` the beam searches in a second thread, the other styles in the caller's:
#: each side gets the whole budget. (On Millie positions after 40 greedy moves the beam
#: finds the late wins and depth first the late proofs: apart, each gets about twice the
#: positions it gets in turns; see docs/win-rates.md.)
SECOND_THREAD_STYLES = (1,)


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

    def __init__(
        self,
        game: Game,
        style: _Style,
        lost: Lost,
        clock: _Clock | None = None,
        backend: str | None = None,
    ) -> None:
        self.core = make_core(game, backend)
        self.clock = _Clock() if clock is None else clock
        self.turn_end = math.inf
        self.style = style
        self.noise = None if style.shuffle is None else random_noise(style.shuffle, backend)
        self.nodes = 0
        self.lost = lost
        self.path: list[Move] = []
        self.rounds = 0
        self.endgames = 0
        self.open_endgames = 0
        # The depth-first search before the last deal, with the trapped-card test's statistics.
        trap_rows = TRAP_ROWS if trap_test_applies(self.core) else -1
        self.walk = self.core.walk(
            lost, style.deal_score, self.noise, trap_rows, TRAP_PAYS, MAX_DEPTH
        )

    def trapped(self, key: SearchKey) -> bool:
        """Is a card trapped for good in the position of ``key`` (see :mod:`.deadlock`)?
        Asked only late in the deal; a trapped position joins the lost ones."""
        return self.walk.trapped(key)

    def tick(self) -> bool:
        """Count a position expanded; true when this run's turn is over (the caller yields)."""
        self.nodes += 1
        clock = self.clock
        clock.nodes += 1
        if clock.nodes > clock.node_limit or (clock.nodes & 255 == 0 and clock.checkpoint()):
            raise _OutOfBudget
        return self.nodes >= self.turn_end

    def moves_of(self, handles: Iterable[Any]) -> list[Move]:
        move_of = self.core.move_of
        return [move_of(h) for h in handles]

    # -- the search ---------------------------------------------------------------------

    def run(self) -> Steps:
        """Rounds of the staged search with a growing endgame budget: True if won, False if
        proven lost (a round without an open endgame)."""
        self.budget = self.style.first_budget
        while True:
            self.rounds += 1
            self.open_endgames = 0
            if (yield from self.before_last_deal()) == _WIN:
                return True
            if self.open_endgames == 0:
                return False
            self.budget *= self.growth

    def before_last_deal(self) -> Generator[None, None, str]:
        """Depth first over the deal timing, from the position on the board (the core's
        walk: it stops where the solver must act); each endgame reached is searched
        best-first."""
        walk = self.walk
        walk.start()
        while True:
            status, ticks = walk.step(self.ticks_allowed())
            yield from self.count(ticks, status == TICK)
            if status == ENDGAME:
                if (yield from self.endgame(_reached(walk.entry()))) != _WIN:
                    walk.judge()
                    continue
                status = WIN
            if status == WIN:
                self.path[:0] = self.moves_of(walk.line())
                return _WIN
            if status == DONE:
                self.open_endgames += walk.too_deep
                return _LOST

    def ticks_allowed(self) -> int:
        """Positions a search may expand before one of them needs :meth:`tick`'s attention:
        the end of the turn, a checkpoint of the clock, or the node limit."""
        clock = self.clock
        return int(
            max(
                1,
                min(
                    self.turn_end - self.nodes,
                    256 - (clock.nodes & 255),
                    clock.node_limit - clock.nodes + 1,
                ),
            )
        )

    def count(self, ticks: int, due: bool) -> Generator[None, None, None]:
        """Count the positions a search expanded; the last one is :meth:`tick`'s if it was
        ``due`` (the search paused there), and the turn may end on it."""
        quiet = ticks - 1 if due else ticks
        self.nodes += quiet
        self.clock.nodes += quiet
        if due and self.tick():
            yield

    def endgame(self, entry: SearchKey) -> Generator[None, None, str]:
        """Best-first search from an endgame entry with ``self.budget`` nodes."""
        self.endgames += 1
        core = self.core
        start = core.snapshot()
        search = core.search(self.lost, self.style.deal_score, self.noise)
        search.root(entry)
        search.seed(entry, start, self.budget)
        try:
            while True:
                status, ticks = search.endgame(self.ticks_allowed())
                yield from self.count(ticks, status == TICK)
                if status == WIN:
                    self.path[:0] = self.moves_of(search.path(_reached(search.won_key())))
                    return _WIN
                if status == LOST:
                    search.mark_lost()  # searched to the end: every position in it is lost
                    return _LOST
                if status == OPEN:
                    self.open_endgames += 1
                    return _OPEN
        finally:
            core.restore(start)


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
        self.left_open: dict[SearchKey, int] = {}  # entries left open -> the largest budget
        width = self.style.first_budget
        start = self.core.snapshot()
        while True:
            self.rounds += 1
            self.budget = ENTRY_BUDGET * width
            for weight in self.style.break_weights:
                self.break_weight, self.complete = weight, True
                if (yield from self.sweep(width)):
                    return True
                if self.complete:  # nothing was cut: every line was searched to its end
                    return False
                self.core.restore(start)
            width *= 2

    def spread_limit(self, width: int) -> int:
        """Positions expanded in a layer from each position kept."""
        return 16 + 4 * width

    def rank(self) -> int:
        """Lower is better: cards away from home, buried next cards, broken columns (in the
        position of the last key)."""
        core = self.core
        return core.endgame_rank() + self.break_weight * core.breaks()

    def sweep(self, width: int) -> Steps:
        core = self.core
        played = self.moves_of(core.auto_moves())
        root = core.key()
        tree = core.search(self.lost, self.style.deal_score, self.noise)
        tree.root(root)
        layer = [(root, core.snapshot())]
        while core.stock_left() and layer:
            dealt: list[tuple[int, SearchKey, Any]] = []
            for key, snap in layer:
                core.restore(snap)
                yield from self.spread(tree, key, snap, dealt, self.spread_limit(width))
            layer = self.best_live(dealt, width)
            if layer:
                core.restore(layer[0][1])
        for key, snap in layer:
            core.restore(snap)
            outcome = yield from self.judge_entry(key)
            if outcome == _WIN:
                self.path[:0] = played + self.moves_of(tree.path(key))
                return True
            self.complete &= outcome == _LOST
        return False

    def judge_entry(self, key: SearchKey) -> Generator[None, None, str]:
        """The endgame from ``key`` (the position on the board) searched with the sweep's
        budget. From :data:`DIVERSE_WIDTH` on, an entry another break weight's sweep of this
        width left open is not searched again (it stays open): the same search would end the
        same way but for positions proven lost meanwhile, and two weights often make the very
        same last layer. (Below that width the beam searches as the honest players' studies
        measured it.)"""
        if self.core.won():
            return _WIN
        if self.left_open.get(key, 0) >= self.budget:
            return _OPEN
        outcome = yield from self.endgame(key)
        if outcome == _OPEN and self.budget >= ENTRY_BUDGET * DIVERSE_WIDTH:
            self.left_open[key] = self.budget
        return outcome

    def best_live(
        self, dealt: list[tuple[int, SearchKey, Any]], width: int
    ) -> list[tuple[SearchKey, Any]]:
        """The ``width`` best positions of a layer that hold no trapped card, as (key,
        snapshot). A layer :data:`DIVERSE_WIDTH` wide or more takes one of each shape first
        (the foundations and the columns' lengths in any order): near-copies of a position
        kept, the same cards shuffled a little, fill the layer only where too few others are
        left, so that it does not try one line many times over. What is cut leaves the sweep
        incomplete, what is trapped is proven lost."""
        layer: list[tuple[SearchKey, Any]] = []
        shapes: set[object] = set()
        copies: list[tuple[SearchKey, Any]] = []  # best first, as they leave the heap
        candidates = list(dealt)
        heapq.heapify(candidates)
        while candidates and len(layer) < width:
            _, key, snap = heapq.heappop(candidates)
            self.core.restore(snap)
            shape = self.core.shape() if width >= DIVERSE_WIDTH else key
            if shape in shapes:
                copies.append((key, snap))
            elif not self.trapped(key):
                shapes.add(shape)
                layer.append((key, snap))
        for key, snap in copies:
            if len(layer) == width:
                self.complete = False
                break
            self.core.restore(snap)
            if not self.trapped(key):
                layer.append((key, snap))
        if candidates:
            self.complete = False
        return layer

    def spread(
        self,
        tree: CoreSearch[Any, Any],
        seed: SearchKey,
        snap: object,
        dealt: list[tuple[int, SearchKey, Any]],
        limit: int,
    ) -> Generator[None, None, None]:
        """Best-first over the moves that do not deal, from ``seed`` (in ``tree``); every
        position reached deals the next row into ``dealt`` ((rank, key, snapshot))."""
        tree.seed(seed, snap, limit)
        while True:
            status, ticks = tree.spread(self.ticks_allowed(), self.break_weight)
            yield from self.count(ticks, status == TICK)
            if status != TICK:
                break
        dealt += tree.dealt()
        if tree.heap_size():
            self.complete = False


def shorten(game: Game, moves: list[Move]) -> list[Move]:
    """A shorter winning line from ``game``: loops back to a position already reached are cut,
    and where one legal move reaches a position further down the line, the line jumps there."""
    line, changed = list(moves), True
    while changed:
        position = game.copy(history=False)
        keys = [position.exact_key()]
        for move in line:
            position.play(move)
            keys.append(position.exact_key())
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
                reach = last.get(position.exact_key(), -1)
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
    backend: str | None = None,
    shorten_line: bool = True,
    workers: int = 1,
) -> SolveResult:
    """Decide whether ``game`` can still be won from its current position.

    Returns ``winnable`` with a full move list (each move playable with ``game.play``, in
    order), ``unwinnable`` (proven: nothing is left unsearched), or ``unknown`` when
    ``time_limit`` seconds or ``node_limit`` expanded positions are spent, or when ``stop()``
    returns true (it is asked every few hundred positions: a thread's way to cancel). The
    budget is shared by a few runs that order the search differently and take turns; what one
    run proves lost, the others skip. ``progress(positions, seconds)``, if given, is called
    every :data:`PROGRESS_EVERY` positions with the positions expanded and the seconds spent
    so far (from the solver's thread: keep it quick). ``backend`` picks the search core
    ("c" or "python", default :data:`backend`); both search alike, move for move. With
    ``shorten_line=False`` a winning line is returned as found, not shortened (about 10 ms
    saved on a classic deal: for callers that want the verdict, like :mod:`.analysis`).

    ``workers=2`` uses a second core: the beam searches in a second thread while the other
    runs search in this one, each with the whole budget (so ``node_limit`` positions each;
    ``result.nodes`` and ``progress`` count both), and the first to decide stops the other.
    The compiled core lets go of the GIL while it searches, so the two run at once. The
    verdict is as repeatable as the node limit makes it (decided where either side decides
    within it); which winning line comes back may vary. Where no thread can start (Pyodide) or the
    pure-Python core runs (it holds the GIL), the solve runs on one core.
    """
    if not time_limit >= 0:  # NaN too
        raise ValueError(f"time_limit must be a number of seconds >= 0, not {time_limit!r}")
    if workers not in (1, 2):
        raise ValueError(f"workers must be 1 or 2 (cores), not {workers!r}")
    clock = _Clock(time_limit, node_limit, stop, progress)
    outcome = _outcome(game, clock, backend, workers)
    searched = time.perf_counter() - clock.start
    moves: tuple[Move, ...] = ()
    if outcome.status == WINNABLE:
        moves = tuple(shorten(game, outcome.path) if shorten_line else outcome.path)
    seconds = time.perf_counter() - clock.start
    return SolveResult(outcome.status, moves, outcome.nodes, seconds, outcome.stats, searched)


@dataclass
class _Outcome:
    """What one side's runs found: the status, the winning line, how, and the positions
    expanded."""

    status: str
    path: list[Move]
    stats: SolveStats
    nodes: int


def _outcome(game: Game, clock: _Clock, backend: str | None, workers: int) -> _Outcome:
    if workers == 2 and (BACKEND if backend is None else backend) == "c":
        return _on_two_cores(game, clock, backend)
    return _search(game, clock, range(len(PORTFOLIO)), backend)


def _search(
    game: Game, clock: _Clock, styles: Sequence[int], backend: str | None
) -> _Outcome:
    """The runs of the :data:`PORTFOLIO` styles at ``styles`` taking turns on ``clock``."""
    status, search, runs = _take_turns(game, clock, [PORTFOLIO[i] for i in styles], backend)
    stats: SolveStats = {
        "rounds": sum(run.rounds for run in runs),
        "endgames": sum(run.endgames for run in runs),
        "runs": len(runs),
        "decided_by": styles[runs.index(search)] if search is not None else None,
        "raw_length": len(search.path) if search is not None else 0,
        "workers": 1,
    }
    return _Outcome(status, search.path if search is not None else [], stats, clock.nodes)


def _on_two_cores(game: Game, clock: _Clock, backend: str | None) -> _Outcome:
    """The beam in a second thread, the other runs in this one, each on a clock of its own
    (the same deadline and node limit); the first verdict stops the other side, and a side
    that runs out of budget leaves the other to finish its own. Progress is reported from
    this thread, with the positions of both."""
    decided = threading.Event()
    asked, told = clock.stop, clock.progress

    def stop() -> bool:
        return decided.is_set() or (asked is not None and asked())

    there = _Clock(clock.deadline - time.perf_counter(), clock.node_limit, stop)
    found: list[_Outcome] = []
    failed: list[BaseException] = []

    def search(on: _Clock, styles: Sequence[int]) -> None:
        try:
            outcome = _search(game, on, styles, backend)
        except BaseException as error:  # the caller raises it
            failed.append(error)
            outcome = _Outcome(UNKNOWN, [], SolveStats(), on.nodes)
        if outcome.status != UNKNOWN or failed:
            decided.set()
        found.append(outcome)

    helper = threading.Thread(target=search, args=(there, SECOND_THREAD_STYLES), daemon=True)
    try:
        helper.start()
    except RuntimeError:  # no threads here (Pyodide)
        return _search(game, clock, range(len(PORTFOLIO)), backend)
    clock.stop = stop
    if told is not None:
        clock.progress = lambda nodes, seconds: told(nodes + there.nodes, seconds)
    try:
        search(clock, [i for i in range(len(PORTFOLIO)) if i not in SECOND_THREAD_STYLES])
    finally:
        helper.join()
        clock.stop, clock.progress = asked, told
    if failed:
        raise failed[0]
    return _joined(found)


def _joined(found: list[_Outcome]) -> _Outcome:
    """The two sides' outcomes as one: the first verdict found, the work of both."""
    best = next((outcome for outcome in found if outcome.status != UNKNOWN), found[0])
    stats: SolveStats = {
        **best.stats,
        "rounds": sum(outcome.stats["rounds"] for outcome in found),
        "endgames": sum(outcome.stats["endgames"] for outcome in found),
        "runs": sum(outcome.stats["runs"] for outcome in found),
        "workers": len(found),
    }
    return _Outcome(best.status, best.path, stats, sum(outcome.nodes for outcome in found))


def _take_turns(
    game: Game, clock: _Clock, styles: Sequence[_Style], backend: str | None = None
) -> tuple[str, _Search | None, list[_Search]]:
    """The runs of ``styles`` take turns, each resumed where it paused, until one wins or
    proves a loss (it is returned with the status) or the clock runs out (``unknown``)."""
    lost = key_set(backend)  # what one run proves lost, the others skip
    runs = [
        (_Beam if style.break_weights else _Search)(game, style, lost, clock, backend)
        for style in styles
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
        won: bool = done.value
        return won


def _reached(key: SearchKey | None) -> SearchKey:
    """The key a search reported reaching (a win, an endgame): it has one by then."""
    if key is None:
        raise RuntimeError("the search core reported a position without its key")
    return key


def no_win_left(game: Game) -> str:
    """The words for a proven loss, with the trapped card that shows it when there is one.

    >>> from milligan_widget.teaching.lessons import stage
    >>> no_win_left(stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    'this position can no longer be won: Q♣ in column 1 can never move or go home'
    """
    why = explain(game)
    return "this position can no longer be won" + (f": {why}" if why else "")


