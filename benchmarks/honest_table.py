"""The README's table of players on the same deals: greedy, honest and thoughtful.

    python benchmarks/honest_table.py --deals 1..200

Reads benchmarks/results/greedy.csv, honest-*.csv (one row per player setting) and the
thoughtful study benchmarks/results/win-rates-10s.csv, keeps the deals every player has
played, and prints per preset: the win rate with its 95% Wilson interval, the seconds a
game, and McNemar's exact test of honest against greedy on the discordant deals.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from milligan_widget.engine.interval import wilson
from milligan_widget.studies.study import WINNABLE, parse_deals, read_results

RESULTS = Path(__file__).parent / "results"


def share(won: int, total: int) -> str:
    low, high = wilson(won, total)
    return f"{100 * won / total:.1f}% ({100 * low:.1f}–{100 * high:.1f}%)"


def mcnemar(only_a: int, only_b: int) -> float:
    """The two-sided exact (binomial) McNemar p-value for the discordant counts."""
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def players(rules: str, deals: set[int]) -> dict[str, dict[int, tuple[bool, float]]]:
    """player -> deal -> (won, seconds), for the deals of ``deals``."""
    table: dict[str, dict[int, tuple[bool, float]]] = {}
    for path in [RESULTS / "greedy.csv", *sorted(RESULTS.glob("honest-*.csv"))]:
        for r in read_results(path):
            if r["rules"] == rules and int(r["deal"]) in deals:
                table.setdefault(r["player"], {})[int(r["deal"])] = (
                    r["won"] == "1",
                    float(r["seconds"]),
                )
    for r in read_results(RESULTS / "win-rates-10s.csv"):
        if r["rules"] == rules and int(r["deal"]) in deals:
            table.setdefault("thoughtful (solver, 10 s)", {})[int(r["deal"])] = (
                r["status"] == WINNABLE,
                float(r["seconds"]),
            )
    return table


def rows(rules: str, deals: set[int]) -> list[str]:
    table = players(rules, deals)
    greedy = table.get("greedy", {})
    lines = []
    for name, games in table.items():
        won = sum(w for w, _ in games.values())
        seconds = sum(s for _, s in games.values()) / len(games)
        test = "—"
        common = games.keys() & greedy.keys()
        if name.startswith("honest") and common:
            only_h = sum(games[d][0] and not greedy[d][0] for d in common)
            only_g = sum(greedy[d][0] and not games[d][0] for d in common)
            test = f"{only_h} vs {only_g}, p = {mcnemar(only_h, only_g):.2g}"
        cells = [rules, name, str(len(games)), share(won, len(games)), f"{seconds:.2f}", test]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=parse_deals, default="1..200")
    parser.add_argument("--rules", default="classic,millie,milligan-harp")
    args = parser.parse_args()
    print("| rules | player | deals | won | s a game | honest-only vs greedy-only wins, McNemar |")
    print("|---|---|---|---|---|---|")
    for rules in args.rules.split(","):
        print("\n".join(rows(rules, set(args.deals))))


if __name__ == "__main__":
    main()
