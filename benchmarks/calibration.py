"""How well a chance fitted on the visible position says how honest play ends (issue 32).

    python benchmarks/calibration.py [--rules classic] [--data CSV ...] [--folds 5]
                                     [--picture docs/calibration-classic.png]
                                     [--held-out CSV ...] [--first-inputs] [--write-model]

Reads the rows ``benchmarks/calibration_data.py`` wrote (positions of the honest player's
games on deals 1..1500, what a player sees there, and how the game ended) and fits a small
logistic model of "the honest player wins from here" on the visible features and the
sampler's figure. Every figure is *cross-fitted by deal*: the deals are split into
``--folds`` groups, and each position is predicted by a model fitted on the other groups
only, so no position is judged by a model that saw its deal. It prints:

- the reliability table: per tenth of the predicted chance, the positions, the mean
  prediction and how often the honest player won from them;
- the expected calibration error (ECE, the table's weighted gap), the Brier score against
  the base rate's and the Brier skill (1 - Brier / base);
- at the openings: the mean predicted chance against the honest player's win rate on the
  same deals (Wilson interval);
- the sampler's figure alone (wins of decided samples), for comparison.

With ``--picture`` it also draws the reliability diagram (matplotlib). Several ``--data``
files (the same deals played with several seeds) are fitted as one: a deal's games, whatever
their seed, fall in one group, so cross-fitting never sees another seed's game of the deal.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from milligan_widget.analysis.calibrated import (  # noqa: E402
    FIRST_NAMES,
    NAMES,
    Model,
    inputs,
    planner_models,
    shipped_models,
)
from milligan_widget.analysis.evaluate import Chance  # noqa: E402
from milligan_widget.analysis.features import VisibleFeatures  # noqa: E402
from milligan_widget.analysis.honest import default_planner  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.engine.rules import Rules  # noqa: E402

FIT_DEALS = range(1, 1501)  #: the only deals fitted on; those above are kept for checks
MODELS = REPO / "milligan_widget" / "data" / "calibration.json"
RIDGE = 1.0  #: the L2 penalty on the weights (not the intercept)


#: inputs read from a column of the rows that older data does not have
OWN_COLUMNS = ("breaks", "self_blocks")


@dataclass(frozen=True)
class Data:
    names: tuple[str, ...]  # the inputs fitted on (of NAMES)
    features: np.ndarray  # one row a position, one column an input of ``names``
    won: np.ndarray  # 1 where the honest player went on to win
    deal: np.ndarray
    opening: np.ndarray  # True for a game's first position
    sampled: np.ndarray  # the sampler's figure alone (0.5 where it decided nothing)


def row_features(row: dict[str, str], names: tuple[str, ...]) -> tuple[float, ...]:
    """A CSV row's model inputs ``names``, as the package computes them (:func:`inputs`)."""
    seen = VisibleFeatures(**{
        column.name: int(row.get(column.name) or 0) if column.name in OWN_COLUMNS
        else int(row[column.name])
        for column in fields(VisibleFeatures)
    })  # fmt: skip
    decided, undecided = int(row["sample_decided"]), int(row["sample_undecided"])
    figure = Chance(int(row["sample_wins"]), decided + undecided, undecided)
    values = inputs(seen, figure)
    return tuple(values[name] for name in names)


def names_in(rows: list[dict[str, str]]) -> tuple[str, ...]:
    """The inputs the rows can give: every one of :data:`NAMES` but those whose own column
    some row lacks (data written before that input was measured)."""
    missing = {name for name in OWN_COLUMNS if any(not row.get(name) for row in rows)}
    return tuple(name for name in NAMES if name not in missing)


def hidden(row: dict[str, str]) -> bool:
    """Is something hidden in the row's position? Where nothing is, the chance is the
    solver's exact verdict, never the model's: such rows are neither fitted nor scored."""
    return int(row["stock_left"]) > 0 or int(row["face_down"]) > 0


def read(paths: Path | Sequence[Path], rules: str, names: tuple[str, ...] | None = None) -> Data:
    """The rows of ``rules`` in ``paths`` (one file or several, as one) with cards hidden, as
    the inputs ``names`` (default: every input the rows can give)."""
    paths = [paths] if isinstance(paths, Path) else list(paths)
    rows = []
    for path in paths:
        with path.open(newline="") as handle:
            rows += [r for r in csv.DictReader(handle) if r["rules"] == rules]
    rows = [r for r in rows if int(r["deal"]) in FIT_DEALS and hidden(r)]
    if not rows:
        where = ", ".join(str(path) for path in paths)
        raise SystemExit(f"no {rules} rows in {where}: run benchmarks/calibration_data.py first")
    names = names_in(rows) if names is None else names
    return Data(
        names,
        np.array([row_features(r, names) for r in rows]),
        np.array([int(r["won"]) for r in rows]),
        np.array([int(r["deal"]) for r in rows]),
        np.array([r["ply"] == "0" for r in rows]),
        np.array([float(r["sample_p"]) if r["sample_p"] else 0.5 for r in rows]),
    )


def _design(x: np.ndarray, ridge: float) -> tuple[np.ndarray, np.ndarray]:
    """The inputs with a column of ones for the intercept, and the L2 penalty (none on the
    intercept)."""
    design = np.hstack([np.ones((len(x), 1)), x])
    penalty = np.eye(design.shape[1]) * ridge
    penalty[0, 0] = 0.0
    return design, penalty


def _hessian(design: np.ndarray, penalty: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The penalised negative log-likelihood's Hessian at the chances ``p``."""
    return design.T @ (design * (p * (1 - p))[:, None]) + penalty


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Logistic regression by Newton's method (intercept first), L2 on the weights."""
    design, penalty = _design(x, ridge)
    weights = np.zeros(design.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ weights))
        gradient = design.T @ (p - y) + penalty @ weights
        step = np.linalg.solve(_hessian(design, penalty, p), gradient)
        weights -= step
        if np.abs(step).max() < 1e-8:
            break
    return weights


def covariance(x: np.ndarray, weights: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """The weights' covariance: the inverse of the penalised log-likelihood's Hessian."""
    design, penalty = _design(x, ridge)
    return np.linalg.inv(_hessian(design, penalty, 1 / (1 + np.exp(-design @ weights))))


def write_model(data: Data, rules: str, basis: str, path: Path = MODELS) -> Model:
    """Fit on every row and keep the model for ``rules`` in ``path`` (the others stay).

    Where the preset's honest player ranks its lines by a model (its default planner is
    "calibrated"), the model it reads stays its own: the entry's ``"planner"``, else the model
    replaced, kept as the entry's ``"planner"``. Refitting the chance never changes the
    player whose games it was fitted on."""
    weights = fit(data.features, data.won)
    cov = covariance(data.features, weights)
    rows = tuple(tuple(float(c) for c in row) for row in cov)
    model = Model(rules, tuple(float(w) for w in weights), rows, basis, data.names)
    models = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    entry, old = model.to_dict(), models.get(rules)
    if old is not None and default_planner(Rules.named(rules)) == "calibrated":
        entry["planner"] = old.get("planner", old)
    models[rules] = entry
    path.write_text(json.dumps(models, indent=1) + "\n", encoding="utf-8")
    return model


def predict(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(weights[0] + x @ weights[1:])))


def cross_fitted(data: Data, folds: int) -> np.ndarray:
    """Each position's chance from a model fitted without its deal's group."""
    group = data.deal % folds
    out = np.zeros(len(data.won))
    for k in range(folds):
        held = group == k
        out[held] = predict(fit(data.features[~held], data.won[~held]), data.features[held])
    return out


def reliability(pred: np.ndarray, won: np.ndarray) -> list[tuple[int, int, float, float]]:
    """(tenth, positions, mean prediction, share won) for each non-empty tenth."""
    tenth = np.minimum((pred * 10).astype(int), 9)
    return [
        (k, int((tenth == k).sum()), float(pred[tenth == k].mean()), float(won[tenth == k].mean()))
        for k in range(10)
        if (tenth == k).any()
    ]


def scores(pred: np.ndarray, won: np.ndarray) -> tuple[float, float, float, float]:
    """(ECE, Brier, the base rate's Brier, Brier skill)."""
    table = reliability(pred, won)
    ece = sum(n * abs(p - w) for _, n, p, w in table) / len(won)
    brier = float(np.mean((pred - won) ** 2))
    base = float(np.mean((won.mean() - won) ** 2))
    return ece, brier, base, 1 - brier / base


def report(name: str, pred: np.ndarray, data: Data) -> None:
    ece, brier, base, skill = scores(pred, data.won)
    print(f"\n{name}: ECE {ece:.3f}, Brier {brier:.4f} (base rate's {base:.4f}), "
          f"Brier skill {skill:.3f}")  # fmt: skip
    print("  predicted   positions   mean predicted   honest player won")
    for k, n, p, w in reliability(pred, data.won):
        print(f"  {k / 10:.1f}-{(k + 1) / 10:.1f}   {n:9d}   {p:14.3f}   {w:17.3f}")
    games = int(data.opening.sum())
    wins = int(data.won[data.opening].sum())
    low, high = wilson(wins, games)
    print(f"  openings: mean predicted {pred[data.opening].mean():.3f}; the honest player won "
          f"{wins} of {games} ({wins / games:.3f}, {low:.3f}-{high:.3f})")  # fmt: skip


def held_out(
    data: Data, paths: Path | Sequence[Path], rules: str
) -> tuple[Data, np.ndarray, np.ndarray]:
    """The rows of ``paths`` (deals ``data`` does not have), the chance a model fitted on all
    of ``data`` gives them, and the chance of the model shipped today."""
    check = read(paths, rules, data.names)
    shared = set(check.deal.tolist()) & set(data.deal.tolist())
    if shared:
        raise SystemExit(f"the held-out rows have deals the fit has too ({min(shared)}...): "
                         "not held out")  # fmt: skip
    fitted = predict(fit(data.features, data.won), check.features)
    return check, fitted, model_chances(shipped_models()[rules], paths, rules)


def model_chances(model: Model, paths: Path | Sequence[Path], rules: str) -> np.ndarray:
    """The chance ``model`` gives each row of ``paths`` (as :func:`read` keeps them)."""
    rows = read(paths, rules, model.names).features
    return np.array([model.chance(dict(zip(model.names, row, strict=True)))[0] for row in rows])


def draw(path: Path, curves: dict[str, np.ndarray], data: Data, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5.2, 5.2), dpi=120)
    axes.plot([0, 1], [0, 1], color="0.6", linestyle="--", linewidth=1, label="perfect")
    for (label, pred), marker in zip(curves.items(), "os", strict=False):
        table = reliability(pred, data.won)
        ece = scores(pred, data.won)[0]
        axes.plot([p for _, _, p, _ in table], [w for _, _, _, w in table], marker=marker,
                  label=f"{label} (ECE {ece:.3f})")  # fmt: skip
    axes.set_xlabel("predicted chance (cross-fitted by deal)")
    axes.set_ylabel("share of positions the honest player went on to win")
    axes.set_title(title, fontsize=10)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    print(f"\nreliability diagram: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--data", type=Path, nargs="+",
                        help="the rows (results/calibration-RULES.csv); several files are "
                             "fitted as one (the same deals, other seeds)")  # fmt: skip
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--picture", type=Path, help="write the reliability diagram here (PNG)")
    parser.add_argument("--held-out", type=Path, nargs="+",
                        help="rows of other deals: judged by the model fitted on every row of "
                             "--data, and by the model shipped today")  # fmt: skip
    parser.add_argument("--first-inputs", action="store_true",
                        help="fit on the ten first inputs alone (not the column blocks)")
    parser.add_argument("--write-model", action="store_true",
                        help="fit on every row and ship it in milligan_widget/data/")  # fmt: skip
    args = parser.parse_args()
    paths = args.data or [REPO / "benchmarks" / "results" / f"calibration-{args.rules}.csv"]
    data = read(paths, args.rules, FIRST_NAMES if args.first_inputs else None)
    games, deals = int(data.opening.sum()), len(set(data.deal.tolist()))
    span = f"deals {data.deal.min()}..{data.deal.max()}"
    print(f"{args.rules}: {len(data.won)} positions of {games} honest games ({deals} deals, "
          f"{span}), base rate {data.won.mean():.3f}")  # fmt: skip
    model = cross_fitted(data, args.folds)
    report("the fitted chance", model, data)
    report("the sampler's figure alone", data.sampled, data)
    planner_model = planner_models().get(args.rules)
    if planner_model is not None and planner_model != shipped_models()[args.rules]:
        report("the model the planner reads (fitted on other games)",
               model_chances(planner_model, paths, args.rules), data)  # fmt: skip
    weights = fit(data.features, data.won)
    print("\nweights on all rows (intercept first):")
    for name, weight in zip(["intercept", *data.names], weights, strict=True):
        print(f"  {name:14s} {weight:+.3f}")
    if args.held_out:
        check, fitted, today = held_out(data, args.held_out, args.rules)
        print(f"\nheld out: {len(check.won)} positions of {int(check.opening.sum())} games "
              f"(deals {check.deal.min()}..{check.deal.max()}), never fitted on")  # fmt: skip
        report("the chance fitted on every row above", fitted, check)
        if np.allclose(fitted, today):
            print("  (it is the chance shipped today)")
        else:
            report("the chance shipped today", today, check)
    if args.write_model:
        planner_name = default_planner(Rules.named(args.rules))
        basis = (f"{len(data.won)} positions with cards hidden, of {games} games of the "
                 f"honest player at its defaults (its {planner_name} planner), counting positions "
                 f"({args.rules}, {span}; benchmarks/calibration.py)")  # fmt: skip
        write_model(data, args.rules, basis)
        print(f"\nthe model for {args.rules} is in {MODELS.relative_to(REPO)}")
    if args.picture:
        curves = {"fitted chance": model, "sampler's figure": data.sampled}
        title = f"{args.rules}: {len(data.won)} positions, {games} honest games"
        draw(args.picture, curves, data, title)


if __name__ == "__main__":
    main()
