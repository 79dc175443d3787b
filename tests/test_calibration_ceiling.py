"""benchmarks/calibration_ceiling.py: the floor of the Brier score from a few games per
position is unbiased, so the ceiling of the skill it prints is the true chance's skill."""

from __future__ import annotations

import numpy as np

from tests.benchmark_scripts import load

ceiling_module = load("calibration_ceiling")


def test_six_games_a_position_estimate_the_true_chance_s_brier_score_and_skill():
    rng = np.random.default_rng(3)
    truth = rng.beta(0.7, 0.5, size=20_000)  # the true chances, many near 0 or 1
    won = (rng.uniform(size=truth.size) < truth).astype(int)
    wins = rng.binomial(6, truth)
    floor, skill = ceiling_module.ceiling(np.full(truth.size, 6), wins, won)
    true_floor = float(np.mean(truth * (1 - truth)))
    true_skill = 1 - true_floor / (won.mean() * (1 - won.mean()))
    assert abs(floor - true_floor) < 0.003 and abs(skill - true_skill) < 0.015
    naive = float(np.mean(wins / 6 * (1 - wins / 6)))  # the plug-in estimate is biased low
    assert true_floor - naive > 0.02


def test_foreseeable_outcomes_have_no_floor_and_coins_no_skill():
    k = np.full(4, 8)
    assert ceiling_module.ceiling(k, np.array([0, 8, 0, 8]), np.array([0, 1, 0, 1])) == (0.0, 1.0)
    floor, skill = ceiling_module.ceiling(k, np.array([4, 4, 4, 4]), np.array([0, 1, 0, 1]))
    assert abs(floor - 4 * 4 / 56) < 1e-12 and skill < 0
