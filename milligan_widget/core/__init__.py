"""The search interface: what the solver reads and does in a position, and its two backends.

The solver (:mod:`milligan_widget.search.solver`) sees a position only through a
:class:`SearchCore`: a private copy of the position that plays and takes back moves given as
opaque *handles*, and measures what the search needs (keys, cards home, ranks). Two backends
implement it alike, move for move:

- ``"c"``: :class:`~milligan_widget.core.compiled.CCore`, the compiled extension
  ``milligan_widget.core._ccore`` (packed byte arrays, built by ``pip install`` where a C
  compiler is found);
- ``"python"``: :class:`~milligan_widget.core.python.PyCore` on
  :class:`~milligan_widget.engine.position.Position`: the reference, and the fallback wherever the
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
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from milligan_widget.engine.game import Game

from .interface import (
    DONE,
    ENDGAME,
    LOST,
    OPEN,
    TICK,
    WIN,
    CoreSearch,
    CoreWalk,
    Noise,
    SearchCore,
)
from .python import PyCore

if TYPE_CHECKING:
    from .compiled import CCore as _CCore
    from .interface import Lost

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


def random_noise(seed: int, backend: str | None = None) -> Callable[[], float]:
    """``random.Random(seed).random`` (a seed from 0 to 2**64 - 1), in the form the backend's
    searches draw from fastest: the extension's ``RandomNoise`` draws the very same numbers
    in C, so a compiled search need not take the GIL back to draw them.

    >>> draw, same = random_noise(1), random.Random(1)
    >>> [draw() for _ in range(3)] == [same.random() for _ in range(3)]
    True
    """
    backend = BACKEND if backend is None else backend
    if backend == "c" and CCore is not None:
        return CCore.random_noise(seed)
    return random.Random(seed).random


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


__all__ = [
    "AVAILABLE",
    "BACKEND",
    "DONE",
    "ENDGAME",
    "LOST",
    "OPEN",
    "TICK",
    "WIN",
    "AnyCore",
    "CCore",
    "CoreSearch",
    "CoreWalk",
    "Noise",
    "PyCore",
    "SearchCore",
    "key_set",
    "make_core",
    "random_noise",
]
