"""How much of the calibrated planner's choice is the luck of its samples (issue 33).

The calibrated planner (:func:`milligan_widget.analysis.honest.calibrated_plan`) ranks its
candidate lines by the calibrated chance where each ends, averaged over a few sampled stocks.
Here the honest player without halving (``Settings(halvings=0)``, the planner as it was before
2026-12-05) plays each deal, and each of its decisions is judged again three ways: two
independent draws of ``--samples`` stocks and one of four times as many. A row per decision
keeps each line's mean chance under the three; ``report`` prints how often two draws pick the
same line, how often a draw picks the line the larger one ranks first, the spread of a line's
chance between two draws, and what a draw's choice costs by the larger draw's ranking.
Only deals 1..1500.

Run:  nice -n 19 python benchmarks/planner_noise.py play --rules millie --deals 1..4
      python benchmarks/planner_noise.py report [--out benchmarks/results/planner-noise.csv]

Rows are appended as games end; a second ``play`` skips the deals in the file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from milligan_widget import Game, Move  # noqa: E402
from milligan_widget.analysis import honest as honest_module  # noqa: E402
from milligan_widget.analysis.calibrated import (  # noqa: E402
    CalibratedEvaluator,
    planner_model_for,
)
from milligan_widget.analysis.hint import candidates  # noqa: E402
from milligan_widget.analysis.planner import Settings  # noqa: E402
from milligan_widget.analysis.sampler import SamplingEvaluator, check_budget  # noqa: E402
from milligan_widget.strategy import honest, play_game  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

OUT = REPO / "benchmarks" / "results" / "planner-noise.csv"
FIELDS = ["rules", "deal", "ply", "stock", "lines", "first", "second", "larger"]
#: the three judgements' sampler seeds, drawn apart from the planner's own
DRAWS = {"first": 1, "second": 2, "larger": 3}


def decisions(rules: str, deal: int, samples: int, nodes: int) -> list[tuple[Game, int]]:
    """The positions where the player without halving decided by its planner, and each
    decision's seed."""
    found: list[tuple[Game, int]] = []
    plan = honest_module.calibrated_plan

    def recording(game: Game, *args: Any) -> tuple[Move, ...]:
        found.append((game.copy(history=True), args[2]))  # (samples, nodes, seed, ...)
        return plan(game, *args)

    setattr(honest_module, "calibrated_plan", recording)  # noqa: B010
    try:
        player = honest(samples, None, nodes, seed=0, planner="calibrated",
                        settings=Settings(halvings=0))  # fmt: skip
        play_game(Game.new(deal, rules), player)
    finally:
        setattr(honest_module, "calibrated_plan", plan)  # noqa: B010
    return found


def line_means(game: Game, seed: int, samples: int, nodes: int, draw: int) -> list[float]:
    """Each candidate line's mean chance where it ends over ``samples`` stocks of draw
    ``draw`` (the lines are the planner's own for this decision)."""
    model = planner_model_for(game.rules)
    assert model is not None
    seen, lines, samples_seed = candidates(game, seed)
    evaluator = CalibratedEvaluator(model, SamplingEvaluator(samples_seed ^ draw))
    limit = check_budget(game, samples, None, nodes)
    ends = evaluator.where_lines_end(seen, [line.all_moves for line in lines], limit)
    return [end[0] for end in ends]


def play(args: argparse.Namespace) -> None:
    done = {int(r["deal"]) for r in results_file.rows(args.out) if r["rules"] == args.rules}
    with results_file.appending(args.out, FIELDS) as add:
        for deal in parse_deals(args.deals):
            if deal in done or deal > 1500:
                continue
            rows = []
            for game, seed in decisions(args.rules, deal, args.samples, args.nodes):
                row: dict[str, object] = {"rules": args.rules, "deal": deal, "ply": game.ply,
                                          "stock": game.stock_count}  # fmt: skip
                for name, draw in DRAWS.items():
                    count = args.samples * (4 if name == "larger" else 1)
                    means = line_means(game, seed, count, args.nodes, draw)
                    row[name], row["lines"] = " ".join(f"{m:.4f}" for m in means), len(means)
                rows.append(row)
            add(*rows)


def first_choice(means: Sequence[float]) -> int:
    """The line a planner takes: the highest mean, the first one on a tie.

    >>> first_choice([0.1, 0.3, 0.3])
    1
    """
    return max(range(len(means)), key=lambda i: (means[i], -i))


def summary(rows: Sequence[dict[str, str]]) -> dict[str, float]:
    """The report's figures over the decisions with two lines or more."""
    agree = agree_larger = 0
    costs, spreads, differences = [], [], []
    chosen = [r for r in rows if int(r["lines"]) >= 2]
    for r in chosen:
        first, second, larger = ([float(x) for x in r[k].split()] for k in DRAWS)
        agree += first_choice(first) == first_choice(second)
        agree_larger += first_choice(first) == first_choice(larger)
        costs.append(max(larger) - larger[first_choice(first)])
        spreads.append(max(larger) - min(larger))
        differences += [a - b for a, b in zip(first, second, strict=True)]
    n = len(chosen)
    return {
        "decisions": n,
        "same line, two draws": agree / n,
        "the larger draw's first line": agree_larger / n,
        "a line's chance, SD between two draws": statistics.pstdev(differences) / 2**0.5,
        "lines' spread, larger draw": statistics.mean(spreads),
        "a draw's choice costs, by the larger draw": statistics.mean(costs),
    }


def report(args: argparse.Namespace) -> None:
    for name, value in summary(results_file.rows(args.out)).items():
        print(f"{name}: {value:.4g}" if isinstance(value, float) else f"{name}: {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--rules", default="millie")
    p.add_argument("--deals", default="1..4")
    p.add_argument("--samples", type=int, default=8)
    p.add_argument("--nodes", type=int, default=20_000)
    p.add_argument("--out", type=Path, default=OUT)
    r = sub.add_parser("report")
    r.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    (play if args.command == "play" else report)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
