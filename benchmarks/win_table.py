"""The README's win-rate table from study results: a first study of every deal, and a later
one that gave the first's unknown deals more time.

    python benchmarks/win_table.py benchmarks/results/win-rates-10s.csv \\
        benchmarks/results/win-rates-60s.csv

Prints a Markdown table: per preset the deals, the share won and proven lost at the first
limit, then with the unknowns given the second limit (95% Wilson intervals), what is still
unknown, and the solving time each study took. A deal the first study decided keeps its
result; an unknown one takes the second study's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from milligan_widget.engine.rules import PRESETS
from milligan_widget.studies.study import UNKNOWN, UNWINNABLE, WINNABLE, read_results, wilson


def share(count: int, total: int) -> str:
    """A share with its 95% interval, in percent to a tenth."""
    low, high = wilson(count, total)
    return f"{100 * count / total:.1f}% ({100 * low:.1f}–{100 * high:.1f}%)"


def deal_range(deals: list[int]) -> str:
    low, high = min(deals), max(deals)
    return f"{low}..{high}" if len(deals) == high - low + 1 else f"{len(deals)} deals"


def row(rules: str, first: list[dict], later: dict[tuple[str, int], dict]) -> str:
    """One preset's line of the table."""
    deals = [int(r["deal"]) for r in first]
    total = len(first)
    merged = [
        later.get((rules, int(r["deal"])), r) if r["status"] == UNKNOWN else r for r in first
    ]
    count = lambda rows, status: sum(r["status"] == status for r in rows)  # noqa: E731
    retried = [later[(rules, int(r["deal"]))] for r in first if (rules, int(r["deal"])) in later]
    seconds = sum(float(r["seconds"]) for r in first), sum(float(r["seconds"]) for r in retried)
    return (
        f"| {rules} | {deal_range(deals)} | {share(count(first, WINNABLE), total)} "
        f"| {share(count(first, UNWINNABLE), total)} | {share(count(merged, WINNABLE), total)} "
        f"| {share(count(merged, UNWINNABLE), total)} | {count(merged, UNKNOWN)} "
        f"| {seconds[0]:,.0f} + {seconds[1]:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="the study of every deal")
    parser.add_argument("later", type=Path, help="the study of the first's unknown deals")
    parser.add_argument("--limits", default="10 s,60 s", help="the two time limits' names")
    args = parser.parse_args()
    first_limit, later_limit = args.limits.split(",")
    first = read_results(args.first)
    later = {(r["rules"], int(r["deal"])): r for r in read_results(args.later)}
    print(
        f"| rules | deals | won at {first_limit} | proven lost at {first_limit} "
        f"| won at {later_limit} | proven lost at {later_limit} | unknown at {later_limit} "
        "| solving s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for rules in PRESETS:
        rows = [r for r in first if r["rules"] == rules]
        if rows:
            print(row(rules, rows, later))
    missing = [
        f"{r['rules']} {r['deal']}"
        for r in first
        if r["status"] == UNKNOWN and (r["rules"], int(r["deal"])) not in later
    ]
    if missing:
        print(f"not yet retried at {later_limit}: {', '.join(missing)}", file=sys.stderr)


if __name__ == "__main__":
    main()
