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

    def snapshot(self) -> Hashable: ...
    def restore(self, snapshot: Hashable) -> None: ...
    def moves(self) -> list: ...
    def scored_moves(self, deal_score: int) -> list[tuple[int, object]]: ...
    def play(self, handle: object) -> None: ...
    def undo(self, handle: object) -> None: ...
    def auto_moves(self) -> list: ...
    def undo_all(self, handles: list) -> None: ...
    def deal_move(self) -> object: ...
    def is_deal(self, handle: object) -> bool: ...
    def move_of(self, handle: object) -> Move: ...
    def won(self) -> bool: ...
    def cards_home(self) -> int: ...
    def stock_left(self) -> int: ...
    def rows_left(self) -> int: ...
    def endgame_rank(self) -> int: ...
    def breaks(self) -> int: ...
    def trapped(self) -> bool: ...

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


def make_core(position: Game, backend: str | None = None) -> SearchCore:
    """A private copy of ``position`` behind the search interface, in ``backend`` (default
    :data:`BACKEND`)."""
    backend = BACKEND if backend is None else backend
    if backend not in AVAILABLE:
        raise ValueError(f"backend {backend!r} is not available here; these are: {AVAILABLE}")
    return CCore(position) if backend == "c" else PyCore(position)
