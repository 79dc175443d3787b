"""The thoughtful solver on the clock, on one core and on two (issue 33: ``solve(game, 2.0)``
decides >= 95% of classic and >= 90% of Millie positions after 40 greedy moves).

The positions are :mod:`decided`'s (greedy plays 40 moves on deals spread over 1..1500,
shifted by each ``--offsets``); each is solved with ``--seconds`` of wall clock by
``solve(..., workers=W)`` for each W of ``--workers``, the two side by side (in turns, the
order swapped from one position to the next), so that a load on the machine falls on both.
Seconds are wall clock: run it on an idle machine (a second process beside it takes the
second core away from ``workers=2``, whose second thread searches beside the first). With
``--nodes N`` the solves have no clock but N positions (a side): a figure any machine
repeats, as each side searches alike whatever its budget.

Run:  python benchmarks/solve_clock.py [--rules millie] [--offsets 0,7,19,29] [--seconds 2]
          [--nodes N] [--workers 1,2] [--open-in FILE]
          [--out benchmarks/results/solve-clock-millie.csv]

With ``--open-in FILE`` only the positions that FILE's run left unknown with the largest of
``--workers`` are solved: how many of them a bigger budget decides (``--seconds 30 --workers 2
--open-in benchmarks/results/solve-nodes-2000000-millie.csv``).

Rows are appended as positions finish, so a second run resumes.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from decided import after_greedy, spread_deals  # noqa: E402
from results_file import appending, rows  # noqa: E402

from benchmarks.planner_compare import mcnemar  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.search.solver import UNKNOWN, solve  # noqa: E402

FIELDS = ["rules", "deal", "workers", "status", "nodes", "seconds", "time_limit", "node_limit"]


def measure(
    rules: str, deal: int, workers: list[int], seconds: float, nodes: int | None
) -> list[dict[str, object]]:
    """One position solved once per number of workers, the order swapped by the deal."""
    game = after_greedy(deal, rules)
    order = workers if deal % 2 else workers[::-1]
    out = []
    for count in order:
        result = solve(game, seconds, nodes, workers=count, shorten_line=False)
        out.append({"rules": rules, "deal": deal, "workers": count, "status": result.status,
                    "nodes": result.nodes, "seconds": round(result.seconds, 3),
                    "time_limit": seconds, "node_limit": nodes or ""})  # fmt: skip
    return out


def report(done: list[dict[str, str]], rules: str, workers: list[int]) -> None:
    """Each number of workers' decided share, and the pairs where they differ."""
    decided: dict[str, dict[int, bool]] = {}
    for row in done:
        if row["rules"] == rules:
            decided.setdefault(row["workers"], {})[int(row["deal"])] = row["status"] != UNKNOWN
    deals = sorted(set.intersection(*(set(decided.get(str(w), {})) for w in workers)))
    if not deals:
        return
    budget = f"{int(done[0]['node_limit']):,} positions a side" if done[0]["node_limit"] else (
        f"{done[0]['time_limit']} s of wall clock")
    print(f"{rules}: {len(deals)} positions after 40 greedy moves, {budget}")
    for count in workers:
        won = sum(decided[str(count)][d] for d in deals)
        low, high = wilson(won, len(deals))
        print(f"  workers={count}: decided {won}/{len(deals)} = {won / len(deals):.1%} "
              f"({low:.1%}-{high:.1%})")  # fmt: skip
    if len(workers) == 2:
        a, b = (decided[str(w)] for w in workers)
        only_a = sum(a[d] and not b[d] for d in deals)
        only_b = sum(b[d] and not a[d] for d in deals)
        print(f"  only workers={workers[0]}: {only_a}, only workers={workers[1]}: {only_b}, "
              f"McNemar p = {mcnemar(only_a, only_b):.2g}")  # fmt: skip


def left_open(earlier: list[dict[str, str]], rules: str, workers: int) -> set[int]:
    """The deals whose positions an earlier run left unknown with ``workers`` workers.

    >>> left_open([{"rules": "millie", "deal": "8", "workers": "2", "status": "unknown"},
    ...            {"rules": "millie", "deal": "8", "workers": "1", "status": "unknown"},
    ...            {"rules": "millie", "deal": "9", "workers": "2", "status": "winnable"}],
    ...           "millie", 2)
    {8}
    """
    return {
        int(r["deal"])
        for r in earlier
        if (r["rules"], r["workers"], r["status"]) == (rules, str(workers), UNKNOWN)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="millie")
    parser.add_argument("--deals", type=int, default=40, help="deals per set (spread)")
    parser.add_argument("--offsets", default="0", help="the sets: shifts of the deal numbers")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--nodes", type=int, help="no clock: so many positions a side")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--open-in", type=Path, help="only the positions this run left open")
    args = parser.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",")]
    wanted = left_open(rows(args.open_in), args.rules, max(workers)) if args.open_in else None
    kind = f"nodes-{args.nodes}" if args.nodes else "clock"
    out = args.out or REPO / f"benchmarks/results/solve-{kind}-{args.rules}.csv"
    seconds = math.inf if args.nodes else args.seconds
    budget = (str(seconds), str(args.nodes or ""))
    done = [r for r in rows(out) if (r["time_limit"], r["node_limit"]) == budget]
    seen = {(r["rules"], int(r["deal"])) for r in done}
    with appending(out, FIELDS) as add:
        for offset in (int(o) for o in args.offsets.split(",")):
            for deal in (d + offset for d in spread_deals(args.deals)):
                if (args.rules, deal) in seen or (wanted is not None and deal not in wanted):
                    continue
                new = measure(args.rules, deal, workers, seconds, args.nodes)
                add(*new)
                done.extend({k: str(v) for k, v in row.items()} for row in new)
    report(done, args.rules, workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
