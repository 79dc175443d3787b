"""The honest player's planners side by side, paired on the same deals (issue 33).

Play deals with one setting of :func:`milligan_widget.strategy.honest` and append a row per
game (the columns of ``milligan-study --player honest``'s CSV, so today's published results,
benchmarks/results/honest-s8.csv, pair with them):

    nice -n 19 python benchmarks/planner_compare.py play --rules classic --deals 1..40 \\
        --planner next-row --leaf solve --rows 4 --rounds 2 --follow 3 \\
        --leaf-samples 2 --leaf-nodes 4000 --out benchmarks/results/planner-nr.csv

Every budget is counted in positions or samples, so the games do not depend on the machine's
load (the seconds do: they are measured as they came). A second run resumes. Tune only on
deals 1..1500. Then compare two CSVs on the deals both played (win rates with 95% Wilson
intervals, exact McNemar p on the discordant deals, median seconds a game; a run kept in
several files is given as a.csv,b.csv):

    python benchmarks/planner_compare.py compare benchmarks/results/honest-s8.csv \\
        benchmarks/results/planner-nr.csv --rules classic
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.analysis.calibrated import FIRST_NAMES, planner_model_for  # noqa: E402
from milligan_widget.analysis.honest import ENDGAME_GROWTH, PLANNERS  # noqa: E402
from milligan_widget.analysis.planner import HALVINGS, LEAVES, Settings  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.engine.rules import Rules  # noqa: E402
from milligan_widget.strategy import honest, play_game  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

FIELDS = ["rules", "deal", "player", "won", "status", "foundation_cards", "moves", "seconds"]


def mcnemar(b: int, c: int) -> float:
    """The exact two-sided McNemar p for ``b`` and ``c`` discordant pairs.

    >>> round(mcnemar(10, 2), 4)
    0.0386
    """
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def label(args: argparse.Namespace) -> str:
    """The ``player`` column: the planner, its settings, the endgame's growth and the seed."""
    return f"{setting(args)} e={ENDGAME_GROWTH} seed={args.seed}"


def setting(args: argparse.Namespace) -> str:
    if args.planner == "hop":
        clock = "" if args.time_limit is None else f" t={args.time_limit:g}"
        return f"honest s={args.samples} n={args.node_limit}{clock}"
    if args.planner == "calibrated":
        model = planner_model_for(Rules.named(args.rules))
        inputs = "" if model is None or model.names == FIRST_NAMES else f" i={len(model.names)}"
        halvings = f" h={args.halvings}" if args.halvings else ""
        return f"honest calibrated{inputs} s={args.samples}{halvings} n={args.node_limit}"
    return (
        f"next-row {args.leaf} r={args.rows}x{args.rounds} f={args.follow} "
        f"m={args.leaf_samples} n={args.leaf_nodes}"
    )


def play(args: argparse.Namespace) -> None:
    settings = Settings(
        args.rows, args.rounds, args.follow, args.leaf_samples, args.leaf_nodes, args.leaf,
        args.halvings,
    )
    player_name = label(args)
    done = {(r["rules"], int(r["deal"])) for r in results_file.rows(args.out)}
    with results_file.appending(args.out, FIELDS) as add:
        for deal in parse_deals(args.deals):
            if (args.rules, deal) in done:
                continue
            player = honest(
                args.samples,
                args.time_limit,
                args.node_limit,
                seed=args.seed,
                planner=args.planner,
                settings=settings,
            )
            start = time.perf_counter()
            game = play_game(Game.new(deal, args.rules), player)
            add(
                {
                    "rules": args.rules,
                    "deal": deal,
                    "player": player_name,
                    "won": int(game.status == "won"),
                    "status": game.status,
                    "foundation_cards": game.foundation_count,
                    "moves": game.ply,
                    "seconds": round(time.perf_counter() - start, 3),
                }
            )


def read(paths: str, rules: str) -> dict[int, dict[str, str]]:
    """The rows of ``rules`` in one CSV or several (``a.csv,b.csv``: parts of one run)."""
    return {
        int(r["deal"]): r
        for path in paths.split(",")
        for r in results_file.rows(Path(path))
        if r["rules"] == rules
    }


def _name(paths: str) -> str:
    return "+".join(Path(path).stem for path in paths.split(","))


def compare(args: argparse.Namespace) -> None:
    old, new = read(args.old, args.rules), read(args.new, args.rules)
    deals = sorted(set(old) & set(new))
    if not deals:
        print("no deal played by both")
        return
    n = len(deals)
    print(f"{args.rules}: {n} deals played by both ({deals[0]}..{deals[-1]})")
    for name, rows in ((_name(args.old), old), (_name(args.new), new)):
        won = sum(int(rows[d]["won"]) for d in deals)
        low, high = wilson(won, n)
        secs = statistics.median(float(rows[d]["seconds"]) for d in deals)
        cards = statistics.mean(int(rows[d]["foundation_cards"]) for d in deals)
        print(
            f"  {name:>28}: won {won}/{n} = {won / n:.1%} ({low:.1%}-{high:.1%}), "
            f"mean cards home {cards:.1f}, median {secs:.1f} s a game"
        )
    b = sum(int(old[d]["won"]) > int(new[d]["won"]) for d in deals)
    c = sum(int(old[d]["won"]) < int(new[d]["won"]) for d in deals)
    print(f"  only the first won {b}, only the second won {c}: McNemar p = {mcnemar(b, c):.3g}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--rules", default="classic")
    p.add_argument("--deals", default="1..40")
    p.add_argument("--planner", default="next-row", choices=PLANNERS)
    p.add_argument("--samples", type=int, default=8)
    p.add_argument("--time-limit", type=float, default=None)
    p.add_argument("--node-limit", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rows", type=int, default=4)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--follow", type=int, default=3)
    p.add_argument("--leaf-samples", type=int, default=2)
    p.add_argument("--leaf-nodes", type=int, default=4_000)
    p.add_argument("--leaf", default="solve", choices=LEAVES)
    p.add_argument("--halvings", type=int, default=HALVINGS,
                   help="calibrated planner: times the better half of its lines gets more "
                   f"samples (default {HALVINGS}; 0 for the planner before 2026-12-05's)")
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("old", help="a results CSV, or several parts of one run: a.csv,b.csv")
    c.add_argument("new")
    c.add_argument("--rules", default="classic")
    args = parser.parse_args(argv)
    play(args) if args.command == "play" else compare(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
