"""A solve on two cores (``solve(..., workers=2)``): the beam in a helper process, the other
runs here, each with the whole budget; the helper's failures cost a core, never an answer."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from milligan_widget import Game, Move
from milligan_widget.search import helper
from milligan_widget.search.greedy import greedy
from milligan_widget.search.solver import UNKNOWN, WINNABLE, solve


def after_greedy(deal: int, rules: str, moves: int = 40) -> Game:
    game = Game.new(deal, rules)
    for _ in range(moves):
        move = greedy(game) or (Move.deal() if game.can_deal else None)
        if move is None:
            break
        game.play(move)
    return game


# Millie deal 112 after 40 greedy moves: the beam alone wins it within 20,000 positions, the
# five runs taking turns need about 28,000 between them.
HARD_FOR_ONE = (112, "millie", 20_000)


def test_the_helpers_beam_wins_where_one_core_runs_out_and_the_line_wins():
    deal, rules, budget = HARD_FOR_ONE
    game = after_greedy(deal, rules)
    alone = solve(game, 600, budget)
    both = solve(game, 600, budget, workers=2)
    assert alone.status == UNKNOWN and alone.stats["workers"] == 1
    assert both.status == WINNABLE and both.stats["workers"] == 2
    assert both.stats["decided_by"] == 1  # the beam, the portfolio's second run
    assert budget < both.nodes <= 2 * budget + 2  # both sides searched, each within budget
    for move in both.moves:
        game.play(move)
    assert game.status == "won"


def test_a_win_found_here_stops_the_helper_and_the_answers_agree_with_one_core():
    easy = Game.new(8)  # the fifth run (shuffled), which stays here, wins it
    one = solve(easy, 600, 200_000)
    two = solve(easy, 600, 200_000, workers=2)
    assert one.status == two.status == WINNABLE and one.moves == two.moves
    assert one.stats["decided_by"] == two.stats["decided_by"] == 4
    lost = solve(after_greedy(1007, "millie"), 600, 200_000, workers=2)  # lost at once
    assert lost.status == "unwinnable"
    # the helper was stopped and serves the next solve at once
    deal, rules, budget = HARD_FOR_ONE
    assert solve(after_greedy(deal, rules), 600, budget, workers=2).status == WINNABLE


def test_stop_cancels_both_sides():
    """Here at once; the helper once the word reaches it (without it, it would search on for
    ten minutes, and the solve would wait for it)."""
    result = solve(after_greedy(38, "millie"), 600, stop=lambda: True, workers=2)
    assert result.status == UNKNOWN and result.stats["workers"] == 2
    assert result.nodes < 200_000 and result.seconds < 60
    deal, rules, budget = HARD_FOR_ONE
    assert solve(after_greedy(deal, rules), 600, budget, workers=2).status == WINNABLE


def test_a_killed_helper_costs_a_core_not_the_answer():
    assert helper.warm_up()
    game = after_greedy(38, "millie")  # the beam needs about a million positions
    spent: list[int] = []

    def kill_the_helper_once_under_way(positions: int, seconds: float) -> None:
        if positions >= 50_000 and not spent:
            spent.append(positions)
            os.kill(helper._helper.process.pid, signal.SIGKILL)

    result = solve(game, 600, 200_000, workers=2, progress=kill_the_helper_once_under_way)
    assert spent and result.status == UNKNOWN and result.stats["workers"] == 1
    deal, rules, budget = HARD_FOR_ONE  # a fresh helper starts for the next solve
    assert solve(after_greedy(deal, rules), 600, budget, workers=2).status == WINNABLE


def test_a_second_solve_at_the_same_time_runs_on_one_core():
    deal, rules, budget = HARD_FOR_ONE
    game = after_greedy(deal, rules)
    inside: list[object] = []
    with helper.borrow() as held:  # another solve has the helper
        inside.append(held)
        thread = threading.Thread(target=lambda: inside.append(solve(game, 600, budget, workers=2)))
        thread.start()
        thread.join(120)
    assert inside[0] is not None and inside[1].stats["workers"] == 1  # type: ignore[attr-defined]
    assert inside[1].status == UNKNOWN  # type: ignore[attr-defined]


def test_the_helper_passes_errors_back_and_keeps_serving():
    with helper.borrow() as held:
        assert held is not None
        with pytest.raises(ValueError, match="invalid literal"):
            held.call(int, "seven").result(30)
        assert held.call(int, "7").result(30) == 7


@pytest.mark.parametrize("bad", [0, 3, -1])
def test_workers_other_than_one_or_two_are_refused(bad):
    with pytest.raises(ValueError, match="workers must be 1 or 2"):
        solve(Game.new(8), workers=bad)
