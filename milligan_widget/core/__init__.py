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
from collections.abc import Callable, Hashable
from typing import Protocol

from ..game import Game
from ..moves import Move
from ..rules import Rules
from .python import PyCore

try:
    from .compiled import CCore
except ImportError:  # no extension built (Pyodide, no compiler, a pure wheel)
    CCore = None

#: The backends this installation can run, the preferred first.
AVAILABLE: tuple[str, ...] = ("c", "python") if CCore is not None else ("python",)
#: The backend :func:`make_core` uses by default.
BACKEND: str = (
    "python" if os.environ.get("MILLIGAN_WIDGET_BACKEND", "").lower() == "python" else AVAILABLE[0]
)


class SearchCore(Protocol):
    """A private position a search plays on. Handles come from :meth:`moves`,
    :meth:`scored_moves`, :meth:`auto_moves` and :meth:`deal_move`, and are good in the
    position they came from; :meth:`undo` takes back the last :meth:`play`."""

    backend: str
    rules: Rules
    total: int

    def key(self) -> tuple[bytes, int]:
        """A key for the transposition tables: column order counts only while rows are to be
        dealt; the same-suit foundations and the cells in any order."""

    def snapshot(self) -> Hashable:
        """The piles in a compact form, for :meth:`restore`."""

    def restore(self, snapshot: Hashable) -> None:
        """Put back the piles of a snapshot of this core."""

    def moves(self) -> list:
        """Handles of every legal move, in the order of ``Game.legal_moves``."""

    def scored_moves(self, deal_score: int) -> list[tuple[int, object]]:
        """(score, handle) of the moves worth trying, in :meth:`moves`' order; higher first
        (a deal scores ``deal_score``)."""

    def play(self, handle: object) -> None:
        """Play a move on the board."""

    def undo(self, handle: object) -> None:
        """Take back the move just played."""

    def auto_moves(self) -> list:
        """Play safe foundation moves until none is left; their handles."""

    def undo_all(self, handles: list) -> None:
        """Take back handles played in order, last first."""

    def deal_move(self) -> object:
        """The handle of dealing a row (the stock must have cards)."""

    def is_deal(self, handle: object) -> bool:
        """Does the handle deal a row?"""

    def move_of(self, handle: object) -> Move:
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

    def expand(
        self,
        node: object,
        parents: dict,
        lost: set,
        deal_score: int,
        noise: Callable[[], float] | None,
        break_weight: int,
        stop_at_win: bool,
    ) -> tuple[tuple | None, list[tuple]]:
        """The new children of the position on the board (see :meth:`PyCore.expand`)."""


    def search(
        self, lost: set, deal_score: int, noise: Callable[[], float] | None
    ) -> object:
        """A best-first search on this core: the endgame's and the beam's, with a tree of
        the positions reached and a heap (see :class:`~milligan_widget.core.python.PySearch`,
        whose methods the compiled ``Search`` has too)."""

    def walk(
        self,
        lost: set,
        deal_score: int,
        noise: Callable[[], float] | None,
        trap_rows: int,
        trap_pays: int,
        max_depth: int,
    ) -> object:
        """The solver's depth-first search before the last deal on this core, stepped from
        the solver; it skips and adds to ``lost``, and runs the trapped-card test with at most
        ``trap_rows`` rows left to deal (-1: never) (see
        :class:`~milligan_widget.core.python.PyWalk`, whose methods the compiled ``Walk`` has
        too)."""


def key_set(backend: str | None = None):
    """An empty set of search keys for the positions a solve proves lost, in the form the
    backend's searches read fastest (a Python set, or the extension's ``KeySet``: ``add``,
    ``update``, ``in`` and ``len`` alike).

    >>> lost = key_set()
    >>> lost.add((b"key", 0)); ((b"key", 0) in lost, (b"key", 1) in lost, len(lost))
    (True, False, 1)
    """
    backend = BACKEND if backend is None else backend
    return CCore.key_set() if backend == "c" and CCore is not None else set()


def make_core(position: Game, backend: str | None = None) -> SearchCore:
    """A private copy of ``position`` behind the search interface, in ``backend`` (default
    :data:`BACKEND`)."""
    backend = BACKEND if backend is None else backend
    if backend not in AVAILABLE:
        raise ValueError(f"backend {backend!r} is not available here; these are: {AVAILABLE}")
    return CCore(position) if backend == "c" else PyCore(position)
