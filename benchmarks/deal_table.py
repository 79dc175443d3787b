"""The table of shipped deals (`milligan_widget/data/deals.csv`): per preset and deal, the
thoughtful verdict from the win-rate studies and the honest chance at the opening.

    nice python benchmarks/deal_table.py --jobs 2

For every (rules, deal) of `benchmarks/results/win-rates-10s.csv` it measures the opening's
honest chance (`analysis.win_chance`, 16 samples, 20,000 nodes a sample, seed = the deal
number, so every figure is the same on a rerun) into `benchmarks/results/opening-chance.csv`,
appending row by row: an interrupted run resumes where it stopped. Then it writes the package
table: the verdict is the 10 s study's, or the 60 s study's where the 10 s one was unknown
(`budget` says which), beside the measured chance. `--build-only` skips the measuring and
leaves out deals not yet measured. `--bands` prints, per preset, the terciles of the opening
chance over the solver-won deals of the table: the bands of `milligan_widget.studies.difficulty`.

    python benchmarks/deal_table.py --build-only --bands
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from milligan_widget import Game
from milligan_widget.analysis import win_chance
from milligan_widget.studies.study import UNKNOWN, read_results

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
CHANCE_FIELDS = ["rules", "deal", "wins", "samples", "undecided", "node_limit", "seconds"]
TABLE_FIELDS = ["rules", "deal", "verdict", "budget", "wins", "samples", "undecided"]


def measure(job: tuple[str, int, int, int]) -> dict:
    """One opening's honest chance, seeded by the deal number (reproducible)."""
    rules, deal, samples, node_limit = job
    start = time.process_time()
    chance = win_chance(
        Game.new(deal, rules), samples=samples, time_limit=600.0, node_limit=node_limit, seed=deal
    )
    return {
        "rules": rules,
        "deal": deal,
        "wins": chance.wins,
        "samples": chance.samples,
        "undecided": chance.undecided,
        "node_limit": node_limit,
        "seconds": f"{time.process_time() - start:.3f}",
    }


def measured(path: Path) -> dict[tuple[str, int], dict]:
    """The chances already measured (a cut-off last line is dropped and measured again)."""
    if not path.exists():
        return {}
    lines = path.read_text().split("\n")
    complete = lines[:-1] if lines[-1] else lines
    rows = csv.DictReader(complete)
    return {(r["rules"], int(r["deal"])): r for r in rows if len(r) == len(CHANCE_FIELDS)}


def measure_all(deals: list[tuple[str, int]], out: Path, samples: int, nodes: int, jobs: int):
    """Measure the deals ``out`` lacks, appending each as it comes."""
    done = measured(out)
    todo = [(rules, deal, samples, nodes) for rules, deal in deals if (rules, deal) not in done]
    print(f"{len(done)} measured, {len(todo)} to go", file=sys.stderr)
    fresh = not out.exists() or out.stat().st_size == 0
    with out.open("a", newline="") as handle, ProcessPoolExecutor(jobs) as pool:
        writer = csv.DictWriter(handle, CHANCE_FIELDS, lineterminator="\n")
        if fresh:
            writer.writeheader()
        for count, row in enumerate(pool.map(measure, todo, chunksize=4), start=1):
            writer.writerow(row)
            handle.flush()
            if count % 100 == 0:
                print(f"{count}/{len(todo)}", file=sys.stderr)


def verdicts(first: Path, later: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(verdict, budget) per deal: the first study's, or the later one's where it was unknown."""
    table = {(r["rules"], int(r["deal"])): (r["status"], "10s") for r in read_results(first)}
    for r in read_results(later):
        key = (r["rules"], int(r["deal"]))
        if table.get(key, (UNKNOWN,))[0] == UNKNOWN:
            table[key] = (r["status"], "60s")
    return table


def build(table: dict, chances: dict, out: Path) -> int:
    """Write the package table; the number of deals in it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, TABLE_FIELDS, lineterminator="\n")
        writer.writeheader()
        rows = 0
        for (rules, deal), (verdict, budget) in table.items():
            chance = chances.get((rules, deal))
            if chance is None:
                continue
            writer.writerow(
                {"rules": rules, "deal": deal, "verdict": verdict, "budget": budget}
                | {key: chance[key] for key in ("wins", "samples", "undecided")}
            )
            rows += 1
    return rows


def terciles(out: Path) -> dict[str, tuple[float, float]]:
    """Per preset, the terciles of the opening chance over its solver-won deals in ``out``."""
    chances: dict[str, list[float]] = {}
    with out.open(newline="") as handle:
        for row in csv.DictReader(handle):
            if row["verdict"] == "winnable":
                chance = int(row["wins"]) / int(row["samples"])
                chances.setdefault(row["rules"], []).append(chance)
    return {
        rules: tuple(statistics.quantiles(values, n=3, method="inclusive"))
        for rules, values in chances.items()
        if len(values) >= 2
    }


def print_bands(out: Path) -> None:
    """The bands as the module spells them, and how many won deals fall in each."""
    for rules, (low, high) in terciles(out).items():
        print(f'    "{rules}": ({round(low, 6)!r}, {round(high, 6)!r}),')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=Path, default=RESULTS / "win-rates-10s.csv")
    parser.add_argument("--later", type=Path, default=RESULTS / "win-rates-60s.csv")
    parser.add_argument("--chances", type=Path, default=RESULTS / "opening-chance.csv")
    parser.add_argument("--out", type=Path, default=ROOT / "milligan_widget/data/deals.csv")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--node-limit", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--bands", action="store_true", help="print the bands afterwards")
    args = parser.parse_args()
    table = verdicts(args.first, args.later)
    if not args.build_only:
        measure_all(list(table), args.chances, args.samples, args.node_limit, args.jobs)
    rows = build(table, measured(args.chances), args.out)
    print(f"{rows} deals written to {args.out}", file=sys.stderr)
    if args.bands:
        print_bands(args.out)


if __name__ == "__main__":
    main()
