"""What the solver reads and does in a position: the search interface both backends implement
(:class:`SearchCore`, its searches :class:`CoreSearch` and :class:`CoreWalk`) and the codes
their steps answer. It names no backend, so each backend can import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import SearchKey
from milligan_widget.engine.rules import Rules

if TYPE_CHECKING:
    from ._ccore import KeySet

    #: The positions a solve proves lost, as :func:`milligan_widget.core.key_set` makes them.
    Lost = set[SearchKey] | KeySet

# What a best-first search's run() answers: paused on its n-th position (expand it next
# time), won, proven lost (searched to the end), out of budget, or a spread done; a
# depth-first walk's step() answers TICK, WIN, DONE (every line tried) or ENDGAME.
TICK, WIN, LOST, OPEN, DONE, ENDGAME = 0, 1, 2, 3, 4, 5

#: A move handle: an int in C, (move, action record) in Python; opaque to the solver.
H = TypeVar("H")
#: A snapshot of the piles: bytes in C, a tuple in Python; opaque to the solver too.
S = TypeVar("S")
Noise = Callable[[], float] | None


class CoreSearch(Protocol[H, S]):
    """A best-first search on a core (see :class:`~milligan_widget.core.python.PySearch`,
    whose methods the compiled ``Search`` has too)."""

    def root(self, key: SearchKey, /) -> None: ...
    def seed(self, key: SearchKey, snapshot: S, left: int, /) -> None: ...
    def endgame(self, max_ticks: int, /) -> tuple[int, int]: ...
    def spread(self, max_ticks: int, break_weight: int, /) -> tuple[int, int]: ...
    def path(self, key: SearchKey, /) -> list[H]: ...
    def won_key(self) -> SearchKey | None: ...
    def dealt(self) -> list[tuple[int, SearchKey, S]]: ...
    def heap_size(self) -> int: ...
    def mark_lost(self) -> None: ...


class CoreWalk(Protocol[H]):
    """The solver's depth-first walk on a core (see
    :class:`~milligan_widget.core.python.PyWalk`, whose methods the compiled ``Walk`` has
    too)."""

    @property
    def too_deep(self) -> int: ...
    def start(self) -> None: ...
    def step(self, max_ticks: int, /) -> tuple[int, int]: ...
    def judge(self) -> None: ...
    def entry(self) -> SearchKey | None: ...
    def line(self) -> list[H]: ...
    def trapped(self, key: SearchKey, /) -> bool: ...


class SearchCore(Protocol[H, S]):
    """A private position a search plays on. Handles (``H``) come from :meth:`moves`,
    :meth:`scored_moves`, :meth:`auto_moves` and :meth:`deal_move`, and are good in the
    position they came from; :meth:`undo` takes back the last :meth:`play`. Snapshots
    (``S``) come from :meth:`snapshot`."""

    backend: str
    rules: Rules
    total: int

    def key(self) -> SearchKey:
        """A key for the transposition tables: column order counts only while rows are to be
        dealt; the same-suit foundations and the cells in any order."""

    def snapshot(self) -> S:
        """The piles in a compact form, for :meth:`restore`."""

    def restore(self, snapshot: S, /) -> None:
        """Put back the piles of a snapshot of this core."""

    def moves(self) -> list[H]:
        """Handles of every legal move, in the order of ``Game.legal_moves``."""

    def scored_moves(self, deal_score: int, /) -> list[tuple[int, H]]:
        """(score, handle) of the moves worth trying, in :meth:`moves`' order; higher first
        (a deal scores ``deal_score``)."""

    def play(self, handle: H, /) -> None:
        """Play a move on the board."""

    def undo(self, handle: H, /) -> None:
        """Take back the move just played."""

    def auto_moves(self) -> list[H]:
        """Play safe foundation moves until none is left; their handles."""

    def undo_all(self, handles: list[H], /) -> None:
        """Take back handles played in order, last first."""

    def deal_move(self) -> H:
        """The handle of dealing a row (the stock must have cards)."""

    def is_deal(self, handle: H, /) -> bool:
        """Does the handle deal a row?"""

    def turns_up(self, handle: H, /) -> bool:
        """Does the handle's move turn up a face-down card?"""

    def move_of(self, handle: H, /) -> Move:
        """The move a handle plays, to replay through ``Game.play``."""

    def won(self) -> bool:
        """Are all cards home?"""

    def cards_home(self) -> int:
        """Cards on the foundations."""

    def stock_left(self) -> int:
        """Cards still in the stock."""

    def rows_left(self) -> int:
        """Rows still to deal, a short last one too."""

    def endgame_rank(self) -> int:
        """Lower is searched first: cards away from home, then how buried the next ones are
        (in the position of the last :meth:`key`)."""

    def shape(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The foundations' heights and the columns' lengths, sorted: a position's rough
        shape, which near-copies of it share."""

    def breaks(self) -> int:
        """Cards that do not fit on the card below them."""

    def trapped(self) -> bool:
        """Is a card trapped for good (:mod:`milligan_widget.engine.deadlock`)?"""

    def search(self, lost: Lost, deal_score: int, noise: Noise, /) -> CoreSearch[H, S]:
        """A best-first search on this core: the endgame's and the beam's, with a tree of
        the positions reached and a heap (see :class:`~milligan_widget.core.python.PySearch`,
        whose methods the compiled ``Search`` has too)."""

    def walk(
        self,
        lost: Lost,
        deal_score: int,
        noise: Noise,
        trap_rows: int,
        trap_pays: int,
        max_depth: int,
        /,
    ) -> CoreWalk[H]:
        """The solver's depth-first search before the last deal on this core, stepped from
        the solver; it skips and adds to ``lost``, and runs the trapped-card test with at most
        ``trap_rows`` rows left to deal (-1: never) (see
        :class:`~milligan_widget.core.python.PyWalk`, whose methods the compiled ``Walk`` has
        too)."""
