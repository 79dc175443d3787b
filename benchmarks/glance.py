"""docs/win-rates.md's table "At a glance: today's defaults", made from benchmarks/results/.

    python benchmarks/glance.py

Per preset: the honest player at today's default on deals 1..200 (the mean over its sampler
seeds, each seed's rate, their standard deviation), on the held-out deals 1301..1500 where
they were played, the thoughtful solver at 10 s and the greedy strategy on deals 1..200, each
rate with its 95% Wilson interval. Which results files are today's default is :data:`TODAY`;
a run replaced by a new default is named there, and the page's table is this script's output
(a test checks that they agree).
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from pathlib import Path

import honest_rates
import results_file
from win_table import share

from milligan_widget.engine.interval import wilson
from milligan_widget.studies.study import WINNABLE, parse_deals

RESULTS = Path(__file__).resolve().parent / "results"
TUNED, HELD_OUT = parse_deals("1..200"), parse_deals("1301..1500")
HEADER = (
    "| preset | honest, deals 1..200: mean of three seeds (each seed) | seed-to-seed SD "
    "| honest, held out (1301..1500) | thoughtful, 10 s (1..200) | greedy (1..200) |\n"
    "|---|---|---|---|---|---|"
)
NUMBERS = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class Runs:
    """A preset's runs of the honest player at today's default: one file a sampler seed."""

    tuned: tuple[str, ...]
    held_out: tuple[str, ...] = ()


TODAY = {
    "classic": Runs(
        (
            "calibration-classic-e8-seed0.csv",
            "calibration-classic-e8-seed1.csv",
            "calibration-classic-e8-seed2.csv",
        ),
        ("calibration-classic-e8-1301..1500.csv", "calibration-classic-e8-seed1-1301..1500.csv"),
    ),
    "millie": Runs(
        (
            "honest-endgame-millie-seed0.csv",
            "calibration-millie-seed1.csv",
            "calibration-millie-seed2.csv",
        ),
        (
            "heldout-honest-millie-endgame-seed0-1301..1500.csv",
            "calibration-millie-seed1-1301..1500.csv",
        ),
    ),
    "milligan-harp": Runs(
        (
            "honest-endgame-harp-seed0.csv",
            "honest-endgame-harp-seed1.csv",
            "honest-endgame-harp-seed2.csv",
        ),
    ),
}


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def interval(won: int, total: int) -> str:
    """A rate's 95% Wilson interval (the rate with it: :func:`win_table.share`).

    >>> interval(120, 200)
    '53.1–66.5%'
    """
    low, high = wilson(won, total)
    return f"{100 * low:.1f}–{percent(high)}"


def rates(files: tuple[str, ...], rules: str, deals: list[int]) -> list[tuple[int, int]]:
    """Each file's (games won, games) on ``deals``; every file must have played them all."""
    counts = []
    for name in files:
        run = honest_rates.read_run(RESULTS / name, rules)
        missing = [d for d in deals if d not in run]
        if missing:
            raise SystemExit(f"{name} has not played {rules} deals {missing[:5]}...")
        counts.append((sum(run[d][0] for d in deals), len(deals)))
    return counts


def tuned_cells(counts: list[tuple[int, int]]) -> list[str]:
    """The mean with each seed's rate, and the seed-to-seed spread.

    >>> tuned_cells([(135, 200), (121, 200), (118, 200)])
    ['**62.3%** (67.5%, 60.5%, 59.0%)', '4.5 points']
    >>> tuned_cells([(0, 200), (0, 200), (0, 200)])
    ['**0.0%** (0.0%, 0.0%, 0.0%; 0.0–1.9% each)', '0.0 points']
    """
    shares = [won / total for won, total in counts]
    each = ", ".join(percent(s) for s in shares)
    if len(set(counts)) == 1:  # every seed the same: its interval once
        each += f"; {interval(*counts[0])} each"
    spread = statistics.stdev(shares) if len(shares) > 1 else 0.0
    return [f"**{percent(statistics.mean(shares))}** ({each})", f"{100 * spread:.1f} points"]


def held_out_cell(counts: list[tuple[int, int]]) -> str:
    """The mean over the held-out seeds, each with its interval; a dash where none ran.

    >>> held_out_cell([(114, 200), (120, 200)])
    '**58.5%** over two seeds (57.0%, 50.1–63.7%; 60.0%, 53.1–66.5%)'
    """
    if not counts:
        return "—"
    mean = statistics.mean(won / total for won, total in counts)
    each = "; ".join(f"{percent(won / total)}, {interval(won, total)}" for won, total in counts)
    seeds = NUMBERS.get(len(counts), str(len(counts)))
    return f"**{percent(mean)}** over {seeds} seeds ({each})"


def study_cells(rules: str) -> list[str]:
    """The thoughtful solver's and the greedy strategy's shares of deals 1..200, from the
    10 s study (each row: the solver's status, and whether greedy play won the deal)."""
    deals = set(TUNED)
    rows = [
        r
        for r in results_file.rows(RESULTS / "win-rates-10s.csv")
        if r["rules"] == rules and int(r["deal"]) in deals
    ]
    solved = sum(r["status"] == WINNABLE for r in rows)
    greedy = sum(r["greedy_won"] == "1" for r in rows)
    return [share(solved, len(rows)), share(greedy, len(rows))]


def row(rules: str, runs: Runs) -> str:
    cells = [
        rules,
        *tuned_cells(rates(runs.tuned, rules, TUNED)),
        held_out_cell(rates(runs.held_out, rules, HELD_OUT)),
        *study_cells(rules),
    ]
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    """The whole table, as the page shows it."""
    return "\n".join([HEADER, *(row(rules, runs) for rules, runs in TODAY.items())])


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    print(table())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
