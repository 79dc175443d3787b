"""benchmarks/calibration.py: the logistic fit, the cross-fitting by deal and the scores it
prints, on made-up data whose true chances are known."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from milligan_widget.analysis.calibrated import FIRST_NAMES, NAMES
from tests.benchmark_scripts import load

calibration = load("calibration")


def made_up(n: int = 4000, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, outcomes drawn from a known logistic model, and the true chances."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, size=(n, 2))
    truth = 1 / (1 + np.exp(-(-2.0 + 3.0 * x[:, 0] + 1.5 * x[:, 1])))
    return x, (rng.uniform(size=n) < truth).astype(float), truth


def test_the_fit_finds_the_model_the_outcomes_came_from():
    x, won, _ = made_up()
    weights = calibration.fit(x, won, ridge=0.0)
    assert weights == pytest.approx([-2.0, 3.0, 1.5], abs=0.35)


def test_the_true_chance_scores_as_calibrated_and_a_constant_has_no_skill():
    _, won, truth = made_up()
    ece, brier, base, skill = calibration.scores(truth, won)
    assert ece < 0.04 and brier < base and skill > 0.1
    constant = np.full(len(won), won.mean())
    assert calibration.scores(constant, won)[3] == pytest.approx(0.0, abs=1e-9)
    overconfident = np.clip(truth * 2 - 0.5, 0, 1)
    assert calibration.scores(overconfident, won)[0] > 0.1


def write_rows(path: Path, deals: int = 60) -> None:
    """Rows like calibration_data.py's: a game wins where its home count is high."""
    rng = np.random.default_rng(3)
    fields = ["rules", "deal", "ply", "home", "stock_left", "face_down", "buried_low",
              "buried_depth", "reserve", "empty_columns", "cells_used", "legal_moves",
              "sample_wins", "sample_p", "sample_decided", "sample_undecided", "won"]  # fmt: skip
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fields)
        writer.writeheader()
        for deal in range(1, deals + 1):
            won = int(rng.uniform() < 0.5)
            for ply in range(0, 100, 10):
                home = int(ply * (1.0 if won else 0.3))
                writer.writerow({
                    "rules": "classic", "deal": deal, "ply": ply, "home": home,
                    "stock_left": max(0, 96 - ply), "face_down": 0, "buried_low": 0 if won else 3,
                    "buried_depth": 0, "reserve": 0, "empty_columns": 0, "cells_used": 0,
                    "legal_moves": 5, "sample_wins": 0, "sample_p": "", "sample_decided": 0,
                    "sample_undecided": 8, "won": won,
                })  # fmt: skip
        writer.writerow({**dict.fromkeys(fields, 0), "rules": "classic", "deal": 1600,
                         "sample_p": ""})  # a held-out deal: never read  # fmt: skip


def test_cross_fitting_predicts_each_deal_by_a_model_that_never_saw_it(tmp_path: Path):
    write_rows(tmp_path / "rows.csv")
    data = calibration.read(tmp_path / "rows.csv", "classic")
    assert set(data.deal.tolist()) == set(range(1, 61))  # deal 1600 is held out
    out = calibration.cross_fitted(data, folds=5)
    assert ((out > 0.5) == (data.won == 1))[~data.opening].mean() > 0.9
    kept = calibration.predict(calibration.fit(data.features, data.won), data.features)
    assert not np.allclose(out, kept)  # cross-fitted, not fitted on itself


def test_the_column_blocks_are_fitted_only_where_every_row_has_them(tmp_path: Path):
    write_rows(tmp_path / "rows.csv")  # written before the blocks were measured
    before = calibration.read(tmp_path / "rows.csv", "classic")
    assert before.names == FIRST_NAMES and before.features.shape[1] == len(FIRST_NAMES)
    with (tmp_path / "rows.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    with (tmp_path / "blocks.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, [*rows[0], "breaks", "self_blocks"])
        writer.writeheader()
        writer.writerows({**row, "breaks": 4, "self_blocks": 2} for row in rows)
    after = calibration.read(tmp_path / "blocks.csv", "classic")
    assert after.names == NAMES and after.features[0, -2:] == pytest.approx([0.1, 0.05])


def test_a_new_fit_of_the_chance_keeps_the_model_its_player_reads(tmp_path: Path):
    write_rows(tmp_path / "rows.csv")
    data = calibration.read(tmp_path / "rows.csv", "classic")
    models = tmp_path / "calibration.json"
    first = calibration.write_model(data, "millie", "first", models)  # Millie: a model planner
    calibration.write_model(data, "classic", "first", models)  # classic: hindsight optimisation
    refit = calibration.Data(data.names, data.features, 1 - data.won, data.deal, data.opening,
                             data.sampled)  # fmt: skip
    for basis in ("second", "third"):
        calibration.write_model(refit, "millie", basis, models)
        calibration.write_model(refit, "classic", basis, models)
    shipped = json.loads(models.read_text())
    assert shipped["millie"]["basis"] == "third" and shipped["millie"]["planner"] == first.to_dict()
    assert shipped["millie"]["weights"] != list(first.weights)
    assert "planner" not in shipped["classic"]


def test_held_out_rows_are_judged_by_a_model_that_never_saw_their_deals(tmp_path: Path):
    write_rows(tmp_path / "rows.csv")  # deals 1..60
    data = calibration.read(tmp_path / "rows.csv", "classic")
    with (tmp_path / "rows.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if int(row["deal"]) <= 30]
    with (tmp_path / "other.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows({**row, "deal": int(row["deal"]) + 1000} for row in rows)
    check, fitted, today = calibration.held_out(data, tmp_path / "other.csv", "classic")
    assert set(check.deal.tolist()) == set(range(1001, 1031))
    assert len(fitted) == len(today) == len(check.won)
    assert ((fitted > 0.5) == (check.won == 1))[~check.opening].mean() > 0.9
    assert today.min() > 0 and today.max() < 1 and not np.allclose(today, fitted)
    with pytest.raises(SystemExit, match="not held out"):
        calibration.held_out(data, tmp_path / "rows.csv", "classic")


def test_several_seeds_files_are_fitted_as_one_and_a_deal_s_games_share_a_fold(tmp_path: Path):
    write_rows(tmp_path / "seed0.csv")  # deals 1..60
    with (tmp_path / "seed0.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    with (tmp_path / "seed1.csv").open("w", newline="") as handle:  # the same deals again
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    one = calibration.read(tmp_path / "seed0.csv", "classic")
    both = calibration.read([tmp_path / "seed0.csv", tmp_path / "seed1.csv"], "classic")
    assert len(both.won) == 2 * len(one.won) and both.opening.sum() == 2 * one.opening.sum()
    # each deal's positions, whichever file, are predicted by one model that saw neither
    out = calibration.cross_fitted(both, folds=5)
    assert np.array_equal(out[: len(one.won)], out[len(one.won) :])
    with pytest.raises(SystemExit, match="not held out"):  # any file of the check counts
        calibration.held_out(one, [tmp_path / "seed0.csv", tmp_path / "seed1.csv"], "classic")
