"""Which measure of the real deal sorts deals by how often the honest player wins them: the
AUC of each input against the honest outcome, alone and in small logistic models.

    python benchmarks/difficulty_fit.py

Only deals 1..1500 are read (the deals above are kept for checks no fit has seen). The honest
outcomes: ``benchmarks/results/honest-s8.csv`` (classic and Millie deals 1..200, seed 0) and,
where given with ``--calibration``, the ``won`` column of a calibration data file (classic,
seed 0; one outcome per deal). The inputs: ``benchmarks/results/deal-features.csv``
(``deal_features.py``), the sampler's opening figure (``opening-chance.csv``) and the solver's
effort (nodes to its verdict in ``win-rates-10s.csv``). It prints each input's AUC per preset
(the chance that a deal the honest player won scores above one it lost; 0.5 sorts nothing),
and a 5-fold cross-validated AUC of small logistic models on several of them.

What it found (docs/difficulty.md): the mean cards home of greedy with slips (``slips_home``)
sorts best, 0.82 classic and 0.86 Millie, and no model of several inputs beats it out of
fold; so the bands are the terciles of ``slips_home`` alone (``deal_table.py``).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
FIT_DEALS = range(1, 1501)  #: the only deals fitted on
Row = dict[str, float]


def auc(scores: Sequence[float], won: Sequence[int]) -> float:
    """The Mann-Whitney AUC of ``scores`` for ``won`` (ties count a half).

    >>> auc([1, 2, 3, 4], [0, 0, 1, 1]), auc([1, 1], [0, 1])
    (1.0, 0.5)
    """
    pos = [s for s, w in zip(scores, won, strict=True) if w]
    neg = [s for s, w in zip(scores, won, strict=True) if not w]
    if not pos or not neg:
        return math.nan
    better = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return better / (len(pos) * len(neg))


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def outcomes(calibration: Path | None) -> dict[tuple[str, int], int]:
    """(rules, deal) -> 1 if the honest player won it, for deals 1..1500 only."""
    found = {(r["rules"], int(r["deal"])): int(r["won"]) for r in read(RESULTS / "honest-s8.csv")}
    if calibration is not None and calibration.exists():
        for r in read(calibration):
            if r["player_seed"] == "0" and r["ply"] == "0":
                found.setdefault((r["rules"], int(r["deal"])), int(r["won"]))
    return {key: won for key, won in found.items() if key[1] in FIT_DEALS}


def inputs() -> dict[tuple[str, int], Row]:
    """(rules, deal) -> every candidate input of the deal."""
    table: dict[tuple[str, int], Row] = {}
    for r in read(RESULTS / "deal-features.csv"):
        runs = float(r["runs"])
        table[(r["rules"], int(r["deal"]))] = {
            "greedy_home": float(r["greedy_home"]),
            "greedy_won": float(r["greedy_won"]),
            "slips_home": float(r["slips_home"]),
            "slips_won": float(r["slips_won"]) / runs,
        }
    for r in read(RESULTS / "opening-chance.csv"):
        row = table.get((r["rules"], int(r["deal"])))
        if row is not None:
            row["sampler"] = int(r["wins"]) / int(r["samples"])
    for r in read(RESULTS / "win-rates-10s.csv"):
        row = table.get((r["rules"], int(r["deal"])))
        if row is not None:  # fewer nodes to a verdict: an easier deal
            row["solver_nodes"] = -math.log10(1 + float(r["nodes"]))
    return table


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Logistic regression weights (intercept first) by Newton's method, a small L2 penalty
    on the non-intercept weights (the inputs are on their own scales: standardise first)."""
    design = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(design.shape[1])
    penalty = l2 * np.eye(len(w))
    penalty[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ w))
        gradient = design.T @ (y - p) - penalty @ w
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def cross_validated_auc(x: np.ndarray, y: np.ndarray, folds: int = 5, seed: int = 0) -> float:
    """The AUC of out-of-fold predictions (each deal scored by a model fitted without it)."""
    if len(y) < 4 * folds or y.min() == y.max():
        return math.nan
    order = list(range(len(y)))
    random.Random(seed).shuffle(order)
    scores = np.zeros(len(y))
    for k in range(folds):
        held = np.array(order[k::folds])
        kept = np.setdiff1d(np.arange(len(y)), held)
        mean, sd = x[kept].mean(0), x[kept].std(0) + 1e-12
        w = fit((x[kept] - mean) / sd, y[kept])
        scores[held] = np.column_stack([np.ones(len(held)), (x[held] - mean) / sd]) @ w
    return auc(list(scores), list(y))


def table_of(keys: list[tuple[str, int]], table: dict, names: Sequence[str]) -> np.ndarray:
    return np.array([[table[key][name] for name in names] for key in keys])


def report(known: dict[tuple[str, int], int], table: dict[tuple[str, int], Row]) -> None:
    names = ["greedy_home", "greedy_won", "slips_home", "slips_won", "sampler", "solver_nodes"]
    presets = sorted({rules for rules, _ in known})
    keys = {rules: [k for k in known if k[0] == rules and k in table] for rules in presets}
    print("| input | " + " | ".join(f"{r} AUC (n={len(keys[r])})" for r in presets) + " |")
    print("|---|" + "---|" * len(presets))
    for name in names:
        cells = [
            f"{auc([table[k][name] for k in keys[r]], [known[k] for k in keys[r]]):.3f}"
            for r in presets
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    models: dict[str, list[str]] = {
        "slips_home + solver_nodes": ["slips_home", "solver_nodes"],
        "slips_home + sampler": ["slips_home", "sampler"],
        "greedy_home + slips_home": ["greedy_home", "slips_home"],
        "greedy_home + slips_home + slips_won": ["greedy_home", "slips_home", "slips_won"],
        "the three + solver_nodes": ["greedy_home", "slips_home", "slips_won", "solver_nodes"],
        "the three + sampler": ["greedy_home", "slips_home", "slips_won", "sampler"],
    }
    for label, cols in models.items():
        cells = []
        for r in presets:
            y = np.array([known[k] for k in keys[r]], dtype=float)
            cells.append(f"{cross_validated_auc(table_of(keys[r], table, cols), y):.3f}")
        print(f"| model: {label} (5-fold) | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", type=Path, help="a calibration-classic.csv to add")
    args = parser.parse_args()
    report(outcomes(args.calibration), inputs())


if __name__ == "__main__":
    main()
