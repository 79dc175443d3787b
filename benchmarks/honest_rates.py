"""The honest player's win rate over several sampler seeds, with its spread, paired against
another player on the same deals (issue 33: "win rates you can cite").

    cd benchmarks/results && python ../honest_rates.py --rules classic --deals 1..200 \\
        --runs honest-nodes-classic-seed0.csv,calibration-classic.csv \\
        --against calibration-classic-timed.csv

Each file of ``--runs`` (comma-separated) is one seed's run: a study CSV (a row per game,
``benchmarks/planner_compare.py play`` or ``milligan-study --player honest``) or a
calibration CSV (``benchmarks/calibration_data.py``: a row per position, each with the
game's outcome). Only the deals every run played are counted, so the runs are paired.
Prints, per run, the wins, the rate and its 95% Wilson interval, the median seconds a game
where the file has them; then the mean rate over the runs and the seed-to-seed standard
deviation; and for each run, the exact McNemar test against ``--against`` on the same
deals (discordant deals: only one of the two players won).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from benchmarks.planner_compare import mcnemar  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

Run = dict[int, tuple[int, float | None]]  # deal -> (won, seconds a game or None)


def read_run(path: Path, rules: str) -> Run:
    """A run's outcome per deal, from either kind of CSV.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = Path(folder) / "r.csv"
    ...     _ = p.write_text("rules,deal,ply,won\\nclassic,4,0,1\\nclassic,4,10,1\\n")
    ...     read_run(p, "classic")
    {4: (1, None)}
    """
    run: Run = {}
    for row in results_file.rows(path):
        if row["rules"] != rules or row.get("won", "") == "":
            continue
        seconds = float(row["seconds"]) if row.get("seconds") else None
        run[int(row["deal"])] = (int(row["won"]), seconds)
    return run


def summary(name: str, run: Run, deals: list[int]) -> float:
    """Print one run's line; its win rate."""
    won = sum(run[d][0] for d in deals)
    low, high = wilson(won, len(deals))
    line = f"  {name:>34}: won {won}/{len(deals)} = {won / len(deals):.1%} ({low:.1%}-{high:.1%})"
    seconds = [s for d in deals if (s := run[d][1]) is not None]
    if seconds:
        line += f", median {statistics.median(seconds):.1f} s a game"
    print(line)
    return won / len(deals)


def paired(name: str, run: Run, against: Run, deals: list[int]) -> None:
    """Print the McNemar test of ``run`` against ``against`` on ``deals``."""
    b = sum(against[d][0] > run[d][0] for d in deals)
    c = sum(against[d][0] < run[d][0] for d in deals)
    print(f"  {name:>34}: only it won {c}, only the other won {b}: McNemar p = {mcnemar(b, c):.2g}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", default="1..200")
    parser.add_argument("--runs", required=True, help="one CSV per seed, comma-separated")
    parser.add_argument("--against", type=Path, help="another player's CSV, paired")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.runs.split(",")]
    runs = {p.stem: read_run(p, args.rules) for p in paths}
    against = read_run(args.against, args.rules) if args.against else None
    deals = set(parse_deals(args.deals))
    for run in [*runs.values(), *([against] if against else [])]:
        deals &= set(run)
    if not deals:
        print("no deal played by every run")
        return 1
    ordered = sorted(deals)
    print(f"{args.rules}: {len(ordered)} deals every run played ({ordered[0]}..{ordered[-1]})")
    rates = [summary(name, run, ordered) for name, run in runs.items()]
    spread = statistics.stdev(rates) if len(rates) > 1 else 0.0
    mean = statistics.mean(rates)
    print(f"  mean over {len(rates)} seeds {mean:.1%}, seed-to-seed SD {spread:.1%}")
    if against is not None and args.against is not None:
        summary(args.against.stem, against, ordered)
        for name, run in runs.items():
            paired(name, run, against, ordered)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
