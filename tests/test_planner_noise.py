"""benchmarks/planner_noise.py: how much of the calibrated planner's choice is its samples' luck."""

from __future__ import annotations

import pytest

from milligan_widget import Game
from milligan_widget.analysis.hint import candidates
from tests.benchmark_scripts import load

noise = load("planner_noise")


def _row(first: str, second: str, larger: str) -> dict[str, str]:
    return {"lines": str(len(first.split())), "first": first, "second": second, "larger": larger}


def test_the_report_counts_agreements_and_what_a_draw_s_choice_costs():
    rows = [
        _row("0.3 0.1", "0.4 0.2", "0.5 0.1"),  # all three take line 0
        _row("0.3 0.1", "0.3 0.1", "0.2 0.4"),  # the draws agree; the larger draw prefers line 1
        _row("0.5", "0.5", "0.5"),  # one line: no decision
    ]
    figures = noise.summary(rows)
    assert figures["decisions"] == 2
    assert figures["same line, two draws"] == 1.0
    assert figures["the larger draw's first line"] == 0.5
    assert figures["a draw's choice costs, by the larger draw"] == pytest.approx(0.1)
    assert figures["lines' spread, larger draw"] == pytest.approx(0.3)


def test_a_draw_judges_every_candidate_line_and_draws_apart_differ():
    game = Game.new(12, "millie").after("d")
    _, lines, _ = candidates(game, 5)
    first = noise.line_means(game, 5, 2, 2_000, draw=1)
    assert len(first) == len(lines) > 2 and all(0.0 <= m <= 1.0 for m in first)
    assert first == noise.line_means(game, 5, 2, 2_000, draw=1)  # the same draw, the same means
    assert first != noise.line_means(game, 5, 2, 2_000, draw=2)
