"""The table of shipped deals (`milligan_widget/data/deals.csv`): per preset and deal, the
thoughtful verdict from the win-rate studies and the deal's difficulty band.

    nice -n 19 python benchmarks/deal_features.py --jobs 2     # greedy's figures, resumable
    python benchmarks/deal_table.py --build-only --bands

The verdict is the 10 s study's (`benchmarks/results/win-rates-10s.csv`), or the 60 s study's
where the 10 s one was unknown (`budget` says which). Beside it: greedy's figures on the
whole deal (`benchmarks/results/deal-features.csv`) and the `band`: per preset, hard below
the lower tercile of `slips_home` (the mean cards greedy with random slips brings home; the
input `benchmarks/difficulty_fit.py` found sorts best) over the preset's solver-won deals,
easy above the upper one, medium between. `--bands` prints the terciles (docs/difficulty.md's
table). Deals without greedy's figures are left out.

Without `--build-only` it first measures, into `benchmarks/results/opening-chance.csv`, the
sampler's figure at each opening (`analysis.win_chance`, 16 samples, 20,000 nodes a sample,
seed = the deal number), appending row by row (an interrupted run resumes): the former basis
of the bands, now one of the inputs `difficulty_fit.py` weighs (and finds sorts little).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from deal_features import append_measured

from milligan_widget import Game
from milligan_widget.analysis import win_chance
from milligan_widget.studies.study import UNKNOWN, read_results

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
CHANCE_FIELDS = ["rules", "deal", "wins", "samples", "undecided", "node_limit", "seconds"]
FEATURES = ["greedy_home", "slips_home", "slips_won", "runs"]
TABLE_FIELDS = ["rules", "deal", "verdict", "budget", *FEATURES, "band"]


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
    append_measured(measure, todo, out, CHANCE_FIELDS, jobs, chunksize=4)


def verdicts(first: Path, later: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(verdict, budget) per deal: the first study's, or the later one's where it was unknown."""
    table = {(r["rules"], int(r["deal"])): (r["status"], "10s") for r in read_results(first)}
    for r in read_results(later):
        key = (r["rules"], int(r["deal"]))
        if table.get(key, (UNKNOWN,))[0] == UNKNOWN:
            table[key] = (r["status"], "60s")
    return table


def features(path: Path) -> dict[tuple[str, int], dict]:
    """Greedy's figures per deal."""
    with path.open(newline="") as handle:
        return {
            (r["rules"], int(r["deal"])): {k: r[k] for k in FEATURES}
            for r in csv.DictReader(handle)
        }


def terciles(rows: list[dict]) -> dict[str, tuple[float, float]]:
    """Per preset, the terciles of ``slips_home`` over its solver-won deals."""
    scores: dict[str, list[float]] = {}
    for row in rows:
        if row["verdict"] == "winnable":
            scores.setdefault(row["rules"], []).append(float(row["slips_home"]))
    return {
        rules: tuple(statistics.quantiles(values, n=3, method="inclusive"))
        for rules, values in scores.items()
    }


def band(score: float, low: float, high: float) -> str:
    """ "hard" below ``low``, "easy" above ``high``, "medium" from one to the other."""
    return "hard" if score < low else "easy" if score > high else "medium"


def build(table: dict, found: dict, out: Path) -> dict[str, tuple[float, float]]:
    """Write the package table; the bands per preset."""
    rows = [
        {"rules": rules, "deal": deal, "verdict": verdict, "budget": budget} | found[rules, deal]
        for (rules, deal), (verdict, budget) in table.items()
        if (rules, deal) in found
    ]
    bands = terciles(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, TABLE_FIELDS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row | {"band": band(float(row["slips_home"]), *bands[row["rules"]])})
    print(f"{len(rows)} deals written to {out}", file=sys.stderr)
    return bands


def print_bands(bands: dict[str, tuple[float, float]], out: Path) -> None:
    """Per preset, the bands and how many solver-won deals fall in each (docs' table)."""
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    print("| preset | low | high | deals | solver-won | hard | medium | easy |")
    print("|---|---|---|---|---|---|---|---|")
    for rules, (low, high) in bands.items():
        mine = [r for r in rows if r["rules"] == rules]
        won = [r for r in mine if r["verdict"] == "winnable"]
        counts = [sum(r["band"] == b for r in won) for b in ("hard", "medium", "easy")]
        span = f"{min(int(r['deal']) for r in mine)}..{max(int(r['deal']) for r in mine)}"
        cells = [rules, f"{low:.4f}", f"{high:.4f}", span, str(len(won)), *map(str, counts)]
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=Path, default=RESULTS / "win-rates-10s.csv")
    parser.add_argument("--later", type=Path, default=RESULTS / "win-rates-60s.csv")
    parser.add_argument("--chances", type=Path, default=RESULTS / "opening-chance.csv")
    parser.add_argument("--features", type=Path, default=RESULTS / "deal-features.csv")
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
    bands = build(table, features(args.features), args.out)
    if args.bands:
        print_bands(bands, args.out)


if __name__ == "__main__":
    main()
