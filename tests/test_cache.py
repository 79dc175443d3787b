"""The one cache of chances: a position is weighed once per evaluator and budget, a stopped
answer is not kept, the oldest answers go first, and two threads asking the same question
get one answer."""

from __future__ import annotations

import threading
import time

from milligan_widget import Game
from milligan_widget.analysis import Chance, Limit, SamplingEvaluator, Seen
from milligan_widget.analysis.cache import Chances

LIMIT = Limit(nodes=2_000, samples=2)


class Counting(SamplingEvaluator):
    """The sampler, counting the positions it weighs."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        object.__setattr__(self, "calls", [])

    def evaluate(self, seen, limit, stop=None):  # type: ignore[no-untyped-def]
        self.calls.append(seen.key)
        return super().evaluate(seen, limit, stop)


def test_a_position_is_weighed_once_per_evaluator_and_budget():
    cache, sampler = Chances(), Counting()
    seen = Seen.of(Game.new(5), line=False)
    first = cache.evaluate(seen, sampler, LIMIT)
    assert cache.evaluate(seen, sampler, LIMIT) is first and len(sampler.calls) == 1
    twin = Seen.of(Game.new(5).copy(), line=False)  # another object, the same position
    assert cache.evaluate(twin, sampler, LIMIT) is first and len(sampler.calls) == 1
    cache.evaluate(seen, sampler, Limit(nodes=2_000, samples=3))  # another budget
    cache.evaluate(seen, Counting(seed=4), LIMIT)  # another evaluator
    assert len(sampler.calls) == 2 and len(cache) == 3


def test_a_stopped_answer_is_not_kept():
    cache, sampler = Chances(), Counting()
    seen = Seen.of(Game.new(5), line=False)
    stopped = cache.evaluate(seen, sampler, LIMIT, stop=lambda: True)
    assert stopped.stopped and len(cache) == 0
    assert not cache.evaluate(seen, sampler, LIMIT).stopped and len(sampler.calls) == 2


def test_the_least_recently_used_answer_goes_first():
    cache = Chances(size=2)
    for key in ("a", "b"):
        cache.answer(key, lambda key=key: key, lambda _: True)
    cache.answer("a", lambda: "again", lambda _: True)  # a is used: b is the oldest now
    cache.answer("c", lambda: "c", lambda _: True)
    assert cache.answer("a", lambda: "new", lambda _: True) == "a"
    assert cache.answer("b", lambda: "new", lambda _: True) == "new"


def test_two_threads_asking_the_same_get_one_answer():
    cache, calls, answers = Chances(), [], []

    def slow() -> Chance:
        calls.append(1)
        time.sleep(0.3)
        return Chance(1, 2)

    threads = [
        threading.Thread(target=lambda: answers.append(cache.answer("q", slow, lambda _: True)))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(calls) == 1 and len(answers) == 3 and all(a is answers[0] for a in answers)
