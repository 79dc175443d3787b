"""The compiled core's searches let other threads run while they search.

A step of a compiled search (``Search.endgame``, ``Search.spread``, ``Walk.step``) lets go
of the GIL for its whole loop, so that a widget's ``play()`` in the main thread never waits
for the coach's or a hint's solve in another (issue 34). While it searches, the objects it
works on (its search or walk, the core, the lost keys, the noise) refuse Python; two solves
in two threads search exactly as one after the other; the noise it draws in C is
``random.Random``'s; and running out of memory in the loop is a ``MemoryError``.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.core import AVAILABLE, OPEN, TICK, key_set, make_core, random_noise
from milligan_widget.search.solver import solve
from milligan_widget.teaching.lessons import stage

pytestmark = pytest.mark.skipif("c" not in AVAILABLE, reason="the C extension is not built")

ROOT = Path(__file__).resolve().parent.parent
MARGIN = 0.1  # seconds at each end of a step not counted (thread start, the GIL handed back)
LONG = 300_000  # positions in one step: about half a second on a 2-core machine


def endgame_step(noise_seed: int | None) -> Callable[[], tuple[int, int]]:
    """One endgame search of LONG positions in one step (Milligan Cell's endgames are huge)."""
    game = Game.new(1, "milligan-cell")
    while game.stock_left:
        game.play("d")
    return seeded(game, noise_seed, lambda search: search.endgame(10**9))


def spread_step(noise_seed: int | None) -> Callable[[], tuple[int, int]]:
    """One beam spread of LONG positions in one step, four rows into the deal."""
    game = Game.new(1, "milligan-cell")
    for _ in range(4):
        game.play("d")
    return seeded(game, noise_seed, lambda search: search.spread(10**9, 40))


def seeded(game: Game, noise_seed: int | None, step: Callable) -> Callable[[], tuple[int, int]]:
    core = make_core(game, "c")
    noise = None if noise_seed is None else random_noise(noise_seed, "c")
    search = core.search(key_set("c"), -100, noise)
    search.root(core.key())
    search.seed(core.key(), core.snapshot(), LONG)
    return lambda: step(search)


def progress_during(step: Callable[[], tuple[int, int]]) -> tuple[int, float]:
    """Run ``step`` in a thread while this one counts the milliseconds in which it runs
    Python; the count inside the step (less MARGIN at each end), and the step's seconds."""
    times: dict[str, float] = {}
    done = threading.Event()

    def work() -> None:
        times["start"] = time.perf_counter()
        step()
        times["end"] = time.perf_counter()
        done.set()

    thread = threading.Thread(target=work)
    stamps, last = [], 0.0
    thread.start()
    while not done.is_set():
        now = time.perf_counter()
        if now - last > 0.001:
            stamps.append(now)
            last = now
    thread.join()
    start, end = times["start"] + MARGIN, times["end"] - MARGIN
    return sum(start < t < end for t in stamps), times["end"] - times["start"]


@pytest.mark.parametrize("noise_seed", [None, 1])
@pytest.mark.parametrize("make_step", [endgame_step, spread_step])
def test_python_runs_in_another_thread_while_one_step_searches(make_step, noise_seed):
    """With the GIL held through the step, this thread could not run one line of Python
    between the step's start and its end: no millisecond of it would be counted."""
    ran, seconds = progress_during(make_step(noise_seed))
    assert seconds > 3 * MARGIN, "the step was too short to tell: make LONG larger"
    assert ran > 0, f"no Python ran in this thread during a step of {seconds:.2f} s"


def test_what_a_step_works_on_refuses_python_while_it_searches():
    game = Game.new(1, "milligan-cell")
    while game.stock_left:
        game.play("d")
    core, lost, noise = make_core(game, "c"), key_set("c"), random_noise(1, "c")
    search = core.search(lost, -100, noise)
    search.root(core.key())
    search.seed(core.key(), core.snapshot(), LONG)
    other = make_core(game, "c").search(lost, -100, None)  # shares the lost keys
    other.root(core.key())
    other.seed(core.key(), core.snapshot(), 10)
    result: list[tuple[int, int]] = []
    thread = threading.Thread(target=lambda: result.append(search.endgame(10**9)))
    thread.start()
    while thread.is_alive():  # until the step is seen running
        try:
            core.key()
        except RuntimeError as e:
            assert "in use by a search running in another thread" in str(e)
            break
    else:
        pytest.fail("the core never refused Python while the step ran")
    refused = {
        "its search": lambda: search.size(),
        "its core": lambda: core.snapshot(),
        "its noise": lambda: noise(),
        "its lost keys' length": lambda: len(lost),
        "a key in its lost keys": lambda: (b"key", 0) in lost,
        "another search's step on its lost keys": lambda: other.endgame(5),
    }
    for what, call in refused.items():
        with pytest.raises(RuntimeError, match="in use"):
            call()
            pytest.fail(f"{what} did not refuse Python")
    thread.join()
    assert result == [(OPEN, LONG)]  # the step ran its course
    assert other.endgame(5) == (TICK, 5)  # all is free again


def trapped_verdicts(game: Game, times: int) -> set[int]:
    """The trapped positions a fresh walk finds from ``game`` (its only one: 0 or 1), each
    of ``times`` times."""
    core, found = make_core(game, "c"), set()
    for _ in range(times):
        walk = core.walk(key_set("c"), -100, None, 4, 10**6, 100)
        walk.step(10**6)  # the trapped-card test of the position, without the GIL
        found.add(walk.trapped_positions)
    return found


def test_two_walks_at_once_test_trapped_cards_each_on_its_own():
    """A trapped position and a free one, tested over and over in two threads at once: each
    walk's verdict is its own (a work space shared by the two would mix them up)."""
    games = [
        stage({1: "JC QC", 2: "JC QC"}, rules="millie"),  # the Q♣ can never move
        stage({1: "JC QC", 2: "JC QC"}, stock="KH", rules="millie"),  # a red King comes
    ]
    assert [trapped_verdicts(game, 1) for game in games] == [{1}, {0}]
    found: list[set[int]] = [set(), set()]
    threads = [
        threading.Thread(target=lambda i=i: found[i].update(trapped_verdicts(games[i], 200_000)))
        for i in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [{1}, {0}]


def solves(deals: list[tuple[int, str]]) -> list[tuple]:
    return [
        (r.status, r.moves, r.nodes, r.stats)
        for r in (solve(Game.new(d, rules), 1e9, 15_000, backend="c") for d, rules in deals)
    ]


def test_two_solves_at_once_search_as_one_after_the_other():
    """Each solve has its own core, searches, lost keys and noise."""
    deals = [
        [(1, "classic"), (2, "milligan-cell"), (3, "classic")],
        [(4, "classic"), (5, "classic"), (1, "milligan-yukon")],
    ]
    alone = [solves(d) for d in deals]
    together: list[list[tuple]] = [[], []]
    threads = [
        threading.Thread(target=lambda i=i: together[i].extend(solves(deals[i]))) for i in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert together == alone


@pytest.mark.parametrize("seed", [0, 1, 5, 2**32 - 1, 2**32, 2**32 + 7, 2**63, 2**64 - 1])
def test_the_compiled_noise_draws_what_random_draws(seed):
    draw, same = random_noise(seed, "c"), random.Random(seed)
    assert type(draw).__name__ == "RandomNoise"
    assert [draw() for _ in range(2000)] == [same.random() for _ in range(2000)]


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_noise_seed_out_of_range_is_refused(seed):
    with pytest.raises(ValueError, match="seed is an int from 0 to 2"):
        random_noise(seed, "c")


MEMORY_OUT = """
import resource
from milligan_widget import Game
from milligan_widget.core import key_set, make_core
game = Game.new(1, "milligan-cell")
while game.stock_left:
    game.play("d")
core = make_core(game, "c")
search = core.search(key_set("c"), -100, None)
search.root(core.key())
search.seed(core.key(), core.snapshot(), 10**9)
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (used + 300 * 2**20, hard))
try:
    search.endgame(10**9)
except MemoryError:
    del search
    again = core.search(key_set("c"), -100, None)
    again.root(core.key())
    again.seed(core.key(), core.snapshot(), 10)
    print("MemoryError", *again.endgame(5))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc, sets RLIMIT_AS")
def test_running_out_of_memory_while_searching_is_a_memory_error():
    """The loop runs without the GIL, so it cannot raise; it stops, and the MemoryError
    comes once the GIL is back (and the process goes on)."""
    done = subprocess.run(
        [sys.executable, "-c", MEMORY_OUT], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["MemoryError", str(TICK), "5"]
