"""Solver benchmark: fixed deals, a time limit each, the figures issue 5 asks for.

    python benchmarks/solver.py [--rules classic,single-card,millie] [--deals 1..100]
                                [--time-limit 10] [--workers 2] [--out solver-bench.csv]

Prints per rules: share won, proven unwinnable and unknown, median seconds, positions
expanded per second, and the median length of the solutions. Results go to a CSV that a
second run resumes (delete it for fresh figures).
"""

from __future__ import annotations

import argparse
import csv
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from milligan_widget.study import parse_deals, run_study


def figures(rows: list[dict]) -> str:
    total = len(rows)
    share = lambda status: 100 * sum(r["status"] == status for r in rows) / total  # noqa: E731
    seconds = [float(r["seconds"]) for r in rows]
    rate = sum(int(r["nodes"]) for r in rows) / sum(seconds)
    lengths = [int(r["moves"]) for r in rows if r["status"] == "winnable"]
    length = statistics.median(lengths) if lengths else float("nan")
    return (
        f"won {share('winnable'):5.1f}%  unwinnable {share('unwinnable'):5.1f}%  "
        f"unknown {share('unknown'):5.1f}%  median {statistics.median(seconds):5.2f}s  "
        f"{rate:8,.0f} positions/s  median solution {length:.0f} moves  ({total} deals)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic,single-card,millie")
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1..100"))
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("solver-bench.csv"))
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        for rules in args.rules.split(","):
            run_study(rules, args.deals, args.time_limit, pool, args.out, progress=False)
            with args.out.open(newline="") as handle:
                rows = [
                    r
                    for r in csv.DictReader(handle)
                    if r["rules"] == rules and int(r["deal"]) in set(args.deals)
                ]
            print(f"{rules:12s} {figures(rows)}", flush=True)


if __name__ == "__main__":
    main()
