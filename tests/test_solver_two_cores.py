"""A solve on two cores (``solve(..., workers=2)``): the beam in a second thread, the other
runs in the caller's, each with the whole budget; where no second thread can help, one core."""

from __future__ import annotations

import threading

import pytest

from milligan_widget import Game
from milligan_widget.search import solver
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve
from tests.benchmark_scripts import load

after_greedy = load("decided").after_greedy  # the positions benchmarks/decided.py measures

# Millie deal 112 after 40 greedy moves: the beam alone wins it within 20,000 positions, the
# five runs taking turns need about 28,000 between them.
HARD_FOR_ONE = (112, "millie", 20_000)


def test_the_second_cores_beam_wins_where_one_core_runs_out_and_the_line_wins():
    deal, rules, budget = HARD_FOR_ONE
    game = after_greedy(deal, rules)
    alone = solve(game, 600, budget)
    assert alone.status == UNKNOWN and alone.stats["workers"] == 1
    for _ in range(3):  # the same verdict every time, whichever side ends first
        both = solve(game, 600, budget, workers=2)
        assert both.status == WINNABLE and both.stats["workers"] == 2
        assert both.stats["decided_by"] == 1 and both.stats["runs"] == 5  # the beam
        assert budget < both.nodes <= 2 * budget + 2  # both searched, each within budget
    for move in both.moves:
        game.play(move)
    assert game.status == "won"


def test_a_verdict_found_in_the_callers_thread_agrees_with_one_core():
    easy = Game.new(8)  # the fifth run (shuffled), which stays in the caller's thread, wins it
    one = solve(easy, 600, 200_000)
    two = solve(easy, 600, 200_000, workers=2)
    assert one.status == two.status == WINNABLE and one.moves == two.moves
    assert one.stats["decided_by"] == two.stats["decided_by"] == 4
    assert solve(after_greedy(1007, "millie"), 600, 200_000, workers=2).status == UNWINNABLE


def test_stop_cancels_both_sides():
    """Without the stop reaching the second thread, its beam would win this position (about a
    million positions) and the solve would wait for it."""
    result = solve(after_greedy(38, "millie"), 600, stop=lambda: True, workers=2)
    assert result.status == UNKNOWN and result.stats["workers"] == 2
    assert result.nodes <= 2 * 256 + 2


def test_progress_counts_the_positions_of_both_sides():
    reports: list[tuple[int, float]] = []
    budget = 100_000  # a side; deal 38 needs about a million
    result = solve(after_greedy(38, "millie"), 600, budget, workers=2,
                   progress=lambda nodes, seconds: reports.append((nodes, seconds)))  # fmt: skip
    assert result.status == UNKNOWN and result.nodes > 1.9 * budget
    counted = [nodes for nodes, _ in reports]
    assert counted == sorted(counted) and 1.5 * budget < counted[-1] <= result.nodes
    assert [seconds for _, seconds in reports] == sorted(seconds for _, seconds in reports)


def test_without_threads_or_the_compiled_core_it_runs_on_one_core(monkeypatch):
    deal, rules, budget = HARD_FOR_ONE
    game = after_greedy(deal, rules)
    one = solve(game, 600, budget)
    python = solve(game, 600, 2_000, workers=2, backend="python")  # it holds the GIL
    assert python.stats["workers"] == 1

    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_threads)
    two = solve(game, 600, budget, workers=2)
    assert (two.status, two.nodes, two.stats) == (one.status, one.nodes, one.stats)


def test_an_error_in_the_second_thread_reaches_the_caller(monkeypatch):
    search = solver._search

    def failing(game, clock, styles, backend):
        if list(styles) == list(solver.SECOND_THREAD_STYLES):
            raise MemoryError("the beam's layer")
        return search(game, clock, styles, backend)

    monkeypatch.setattr(solver, "_search", failing)
    with pytest.raises(MemoryError, match="the beam's layer"):
        solve(after_greedy(38, "millie"), 600, 200_000, workers=2)


@pytest.mark.parametrize("bad", [0, 3, -1])
def test_workers_other_than_one_or_two_are_refused(bad):
    with pytest.raises(ValueError, match="workers must be 1 or 2"):
        solve(Game.new(8), workers=bad)
