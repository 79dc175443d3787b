"""The widget's lock: the solver's threads publish too, so every change holds it.

What the player's own code is called with (the ``on_move`` callbacks) waits until the lock is
let go: a callback may then do anything, ask for a hint and wait for it included, without
deadlocking the kernel.

>>> lock = WidgetLock()
>>> with lock:
...     lock.later(lambda: print("after"))
...     print("inside")
inside
after
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar


class WidgetLock:
    """A re-entrant lock; :meth:`later` runs a call once this thread lets the lock go."""

    def __init__(self) -> None:
        self.rlock = threading.RLock()  # for a Condition that waits on this lock
        self._held = threading.local()
        self._due: deque[Callable[[], None]] = deque()
        self._due_lock = threading.Lock()

    def _depth(self) -> int:
        return getattr(self._held, "depth", 0)

    def __enter__(self) -> WidgetLock:
        self.rlock.acquire()
        self._held.depth = self._depth() + 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._held.depth -= 1
        outermost = self._held.depth == 0
        self.rlock.release()
        if outermost:
            self.run_due()

    def later(self, call: Callable[[], None]) -> None:
        """Run ``call`` once this thread holds the lock no more (at once if it does not)."""
        with self._due_lock:
            self._due.append(call)
        if self._depth() == 0:
            self.run_due()

    def run_due(self) -> None:
        while True:
            with self._due_lock:
                if not self._due:
                    return
                call = self._due.popleft()
            call()


class HasLock(Protocol):
    """An object whose methods may be :func:`locked`."""

    _lock: WidgetLock


Self = TypeVar("Self", bound=HasLock)
Params = ParamSpec("Params")
Result = TypeVar("Result")


def locked(
    method: Callable[Concatenate[Self, Params], Result],
) -> Callable[Concatenate[Self, Params], Result]:
    """Run ``method`` holding its object's ``_lock`` (a :class:`WidgetLock`); the signature
    stays the method's, for type checkers too."""

    def wrapper(self: Self, /, *args: Params.args, **kwargs: Params.kwargs) -> Result:
        with self._lock:
            return method(self, *args, **kwargs)

    functools.update_wrapper(wrapper, method)
    return wrapper
