"""The search interface: what the solver reads and does in a position, and its two backends.

The solver (:mod:`milligan_widget.solver`) sees a position only through a
:class:`SearchCore`: a private copy of the position that plays and takes back moves given as
opaque *handles*, and measures what the search needs (keys, cards home, ranks). Two backends
implement it alike, move for move:

- ``"c"``: :class:`~milligan_widget.core.compiled.CCore`, the compiled extension
  ``milligan_widget.core._ccore`` (packed byte arrays, built by ``pip install`` where a C
  compiler is found);
- ``"python"``: :class:`~milligan_widget.core.python.PyCore` on
  :class:`~milligan_widget.position.Position`: the reference, and the fallback wherever the
  extension does not load (Pyodide, no compiler).

:data:`BACKEND` is the one that runs; ``MILLIGAN_WIDGET_BACKEND=python`` in the environment
forces the fallback.

>>> from milligan_widget import Game
>>> core = make_core(Game.new(8))
>>> core.backend in ("c", "python"), core.stock_left()
(True, 96)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..game import Game
from ..moves import Move
from ..position import SearchKey
from ..rules import Rules
from .python import PyCore

if TYPE_CHECKING:
    from ._ccore import KeySet
    from .compiled import CCore as _CCore

    #: The positions a solve proves lost, as :func:`key_set` makes them.
    Lost = set[SearchKey] | KeySet

_compiled: type[_CCore] | None
try:
    from .compiled import CCore as _compiled
except ImportError:  # no extension built (Pyodide, no compiler, a pure wheel)
    _compiled = None
#: The compiled backend's class, or ``None`` where the extension does not load.
CCore = _compiled

#: The backends this installation can run, the preferred first.
AVAILABLE: tuple[str, ...] = ("c", "python") if CCore is not None else ("python",)
#: The backend :func:`make_core` uses by default.
BACKEND: str = (
    "python" if os.environ.get("MILLIGAN_WIDGET_BACKEND", "").lower() == "python" else AVAILABLE[0]
)

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

    def breaks(self) -> int:
        """Cards that do not fit on the card below them."""

    def trapped(self) -> bool:
        """Is a card trapped for good (:mod:`milligan_widget.deadlock`)?"""

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


def key_set(backend: str | None = None) -> Lost:
    """An empty set of search keys for the positions a solve proves lost, in the form the
    backend's searches read fastest (a Python set, or the extension's ``KeySet``: ``add``,
    ``update``, ``in`` and ``len`` alike).

    >>> lost = key_set()
    >>> lost.add((b"key", 0)); ((b"key", 0) in lost, (b"key", 1) in lost, len(lost))
    (True, False, 1)
    """
    backend = BACKEND if backend is None else backend
    return CCore.key_set() if backend == "c" and CCore is not None else set()


#: A core of the backend chosen at run time. Its handles and snapshots are opaque tokens the
#: solver only passes back to the core that made them, so their types stay open here.
AnyCore = SearchCore[Any, Any]


def make_core(position: Game, backend: str | None = None) -> AnyCore:
    """A private copy of ``position`` behind the search interface, in ``backend`` (default
    :data:`BACKEND`)."""
    backend = BACKEND if backend is None else backend
    if backend not in AVAILABLE:
        raise ValueError(f"backend {backend!r} is not available here; these are: {AVAILABLE}")
    if backend == "c" and CCore is not None:
        return CCore(position)
    return PyCore(position)
