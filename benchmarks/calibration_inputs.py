"""Would another input sharpen the calibrated chance? Measured on the honest games whose moves
``benchmarks/calibration_data.py`` kept (``calibration-RULES-games.csv``), without playing them
again (issue 32: the Brier skill).

Every ``--every``-th position with cards hidden is rebuilt from its game's moves; beside the
shipped model's inputs (:func:`milligan_widget.analysis.calibrated.inputs`) it measures

- ``rollout``: greedy play to the end on 4 sampled stocks (mean cards home, share won);
- ``sampler20k``: the sampler's figure at 8 samples of 20,000 positions (share won, decided);

then prints the cross-fitted ECE and Brier skill (``benchmarks/calibration.py``'s, folds by
deal) of the model with each added.

Run:  python benchmarks/calibration_inputs.py [--rules classic] [--every 10]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import calibration  # noqa: E402
import calibration_data  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.analysis import Limit, SamplingEvaluator, Seen  # noqa: E402
from milligan_widget.analysis.calibrated import FIGURE, FIRST_NAMES, inputs  # noqa: E402
from milligan_widget.analysis.features import visible_features  # noqa: E402
from milligan_widget.analysis.sampling import determinize, visible_view  # noqa: E402
from milligan_widget.search.greedy import greedy  # noqa: E402

ROLLOUTS = 4


def rollout(game: Game, seed: int) -> tuple[float, float]:
    """Greedy play to the end on :data:`ROLLOUTS` sampled stocks: mean share of the cards
    home, share won."""
    rng, view, homes, wins = random.Random(seed), visible_view(game), 0.0, 0
    for _ in range(ROLLOUTS):
        sample = determinize(view, rng)
        for _ in range(600):
            move = greedy(sample) if sample.status == "playing" else None
            if move is None:
                break
            sample.play(move)
        homes += sample.foundation_count / 104
        wins += sample.status == "won"
    return homes / ROLLOUTS, wins / ROLLOUTS


def measured(game: Game) -> tuple[tuple[float, ...], tuple[float, float], tuple[float, float]]:
    """The model's inputs, the rollout's and the larger sampler's, at ``game``."""
    seen = Seen.of(game, line=False)
    figure = SamplingEvaluator().evaluate(seen, FIGURE)
    larger = SamplingEvaluator().evaluate(seen, Limit(20_000, 8))
    values = inputs(visible_features(seen.view), figure)
    base = tuple(values[name] for name in FIRST_NAMES)  # the inputs it was written for
    return base, rollout(game, seen.seed("rollout")), (larger.sampled, larger.decided / 8)


def rows(path: Path, rules: str, every: int) -> list[tuple[int, int, bool, tuple]]:
    """(deal, won, opening, measured) for each position kept."""
    return [
        (deal, int(won), ply == 0, measured(game))
        for deal, won, ply, game in calibration_data.replayed(path, rules)
        if ply % every == 0 and visible_view(game).hidden
    ]


def scored(x: np.ndarray, won: np.ndarray, deal: np.ndarray, opening: np.ndarray) -> str:
    names = tuple(f"input {i}" for i in range(x.shape[1]))  # read by no fit here
    data = calibration.Data(names, x, won, deal, opening, x[:, 7])
    ece, _, _, skill = calibration.scores(calibration.cross_fitted(data, 5), won)
    return f"ECE {ece:.3f}, Brier skill {skill:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args(argv)
    path = REPO / "benchmarks" / "results" / f"calibration-{args.rules}-games.csv"
    found = rows(path, args.rules, args.every)
    deals = sorted({r[0] for r in found})
    print(f"{args.rules}: {len(found)} positions of {len(deals)} games ({deals[0]}..{deals[-1]})")
    won, deal = np.array([r[1] for r in found]), np.array([r[0] for r in found])
    opening = np.array([r[2] for r in found])
    base = np.array([r[3][0] for r in found])
    more = {"rollout": np.array([r[3][1] for r in found]),
            "sampler20k": np.array([r[3][2] for r in found])}  # fmt: skip
    print(f"  the model's inputs: {scored(base, won, deal, opening)}")
    for name, extra in more.items():
        print(f"  + {name}: {scored(np.hstack([base, extra]), won, deal, opening)}")
    both = np.hstack([base, *more.values()])
    print(f"  + both: {scored(both, won, deal, opening)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
