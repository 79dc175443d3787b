"""One cache of chances per visible position, shared by whoever asks.

The indicator, the honest hint and the review weigh the same positions: the position on show
is weighed after the move, Hint weighs it again, the review weighs every position of the
game. :class:`Chances` keeps each answer under what it depends on (the :attr:`.Seen.key`
of what the player sees, the evaluator's :attr:`~.Evaluator.identity`, the :class:`.Limit`),
so a position is weighed once. It is small (least recently used answers go first) and
thread-safe; a question being answered in one thread is waited for by another asking the
same, not answered twice. An answer cut short by ``stop()`` is not kept.

>>> from milligan_widget import Game
>>> from milligan_widget.analysis import Limit, SamplingEvaluator, Seen
>>> cache, seen = Chances(size=8), Seen.of(Game.new(27), line=False)
>>> first = cache.evaluate(seen, SamplingEvaluator(), Limit(nodes=2_000, samples=2))
>>> first is cache.evaluate(seen, SamplingEvaluator(), Limit(nodes=2_000, samples=2)), len(cache)
(True, 1)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .evaluate import Chance, Evaluator, Limit, Seen, Stop

T = TypeVar("T")
SIZE = 4_096  #: answers kept (a long game's review is a few hundred positions)
WAIT = 0.05  #: seconds between two looks at ``stop()`` while another thread answers


class Chances:
    """A least-recently-used map of answers, safe to share between threads."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._answers: OrderedDict[Hashable, Any] = OrderedDict()
        self._asked: dict[Hashable, threading.Event] = {}  # being answered, by another thread
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._answers)

    def clear(self) -> None:
        """Forget every answer."""
        with self._lock:
            self._answers.clear()

    def evaluate(
        self, seen: Seen, evaluator: Evaluator, limit: Limit, stop: Stop | None = None
    ) -> Chance:
        """``evaluator``'s chance from ``seen`` within ``limit``, weighed once."""
        key = ("chance", seen.key, evaluator.identity, limit)
        return self.answer(
            key, lambda: evaluator.evaluate(seen, limit, stop), lambda c: not c.stopped, stop
        )

    def answer(
        self,
        key: Hashable,
        compute: Callable[[], T],
        keep: Callable[[T], bool],
        stop: Stop | None = None,
    ) -> T:
        """The answer kept under ``key``, else ``compute()``'s, kept if ``keep(answer)``.
        Where another thread is computing it, wait for that (until ``stop()``)."""
        while True:
            with self._lock:
                if key in self._answers:
                    self._answers.move_to_end(key)
                    found: T = self._answers[key]
                    return found
                asked = self._asked.get(key)
                if asked is None:
                    self._asked[key] = threading.Event()
                    break
            while not asked.wait(WAIT):
                if stop is not None and stop():
                    return compute()  # stopped at once: an answer marked as such
        try:
            value = compute()
            if keep(value):
                self._keep(key, value)
            return value
        finally:
            with self._lock:
                self._asked.pop(key).set()

    def _keep(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._answers[key] = value
            self._answers.move_to_end(key)
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)


#: The process's one cache: the widget's indicator, Hint and review, and :func:`.review`.
CHANCES = Chances()
