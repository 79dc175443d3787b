"""Solver benchmark: fixed deals, a time limit each, the figures issue 5 asks for.

    python benchmarks/solver.py [--rules classic,single-card,millie] [--deals 1..100]
                                [--time-limit 10] [--workers 2] [--out solver-bench.csv]

Prints per rules: share won, proven unwinnable and unknown, median seconds, positions
expanded per second, and the median length of the solutions. Results go to a CSV that a
second run resumes (delete it for fresh figures).

Side by side with another version of the solver (issue 14), the same deals, interleaved
deal by deal so that both share the machine alike:

    git show HEAD:milligan_widget/search/solver.py > /tmp/old_solver.py
    python benchmarks/solver.py --against /tmp/old_solver.py --rules classic,millie \\
        --deals 1..60 --time-limits 2,10 --out solver-compare.csv

prints for each solver, rules and limit the share decided, the median time to a win (on the
deals both won, and on the deals each won at every limit) and positions/s.

The search cores side by side (the compiled one and the pure-Python reference), the same
deals interleaved deal by deal, positions/s of the search alone (shortening a line found is
left out) and their ratio:

    python benchmarks/solver.py --backends c,python --rules classic,millie --deals 1..20 \
        --time-limit 2
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

import results_file

from milligan_widget.studies.study import parse_deals, run_study

COMPARE_FIELDS = ("solver", "rules", "deal", "limit", "status", "seconds", "nodes", "moves")


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


@cache
def _solver(path: str):
    """The ``solve`` of the solver module at ``path`` ("new": the installed one)."""
    if path == "new":
        from milligan_widget.search.solver import solve

        return solve
    import milligan_widget  # noqa: F401  (the old module's relative imports resolve in it)

    spec = importlib.util.spec_from_file_location("milligan_widget._compared_solver", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.solve


def compare_one(solver: str, path: str, rules: str, deal: int, limit: float) -> dict:
    from milligan_widget import Game

    result = _solver(path)(Game.new(deal, rules), time_limit=limit)
    return {
        "solver": solver,
        "rules": rules,
        "deal": deal,
        "limit": limit,
        "status": result.status,
        "seconds": round(result.seconds, 3),
        "nodes": result.nodes,
        "moves": len(result.moves),
    }


def backend_one(backend: str, rules: str, deal: int, limit: float) -> dict:
    from milligan_widget import Game
    from milligan_widget.search.solver import solve

    result = solve(Game.new(deal, rules), time_limit=limit, backend=backend)
    return {
        "backend": backend,
        "rules": rules,
        "deal": deal,
        "status": result.status,
        "seconds": result.search_seconds,
        "nodes": result.nodes,
    }


def backend_figures(rows: list[dict], rules: str, backends: list[str]) -> list[str]:
    """Per backend: decided (won, proven lost), positions/s; then each rate over the last."""
    rates, lines = {}, []
    for backend in backends:
        mine = [r for r in rows if r["backend"] == backend and r["rules"] == rules]
        won = sum(r["status"] == "winnable" for r in mine)
        lost = sum(r["status"] == "unwinnable" for r in mine)
        rates[backend] = sum(r["nodes"] for r in mine) / sum(r["seconds"] for r in mine)
        lines.append(
            f"{rules:16s} {backend:6s}: decided {won + lost:3d}/{len(mine)} (won {won}, "
            f"proven lost {lost})  {rates[backend]:10,.0f} positions/s"
        )
    base = backends[-1]
    ratios = "  ".join(f"{b}/{base} {rates[b] / rates[base]:5.1f}x" for b in backends[:-1])
    return [*lines, f"{rules:16s} positions/s ratio: {ratios}"]


def compare_backends(args: argparse.Namespace) -> None:
    backends = args.backends.split(",")
    for rules in args.rules.split(","):
        tasks = [(b, rules, deal, args.time_limit) for deal in args.deals for b in backends]
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(backend_one, *zip(*tasks, strict=True)))
        print("\n".join(backend_figures(rows, rules, backends)), flush=True)


def _median(table: dict, solver: str, limit: float, deals) -> str:
    seconds = [float(table[solver, limit, d]["seconds"]) for d in deals]
    return f"{statistics.median(seconds):5.2f}s" if seconds else "   - "


def _won(table: dict, solver: str, limit: float) -> set[int]:
    return {
        d
        for (s, t, d), r in table.items()
        if (s, t) == (solver, limit) and r["status"] == "winnable"
    }


def compare_figures(rows: list[dict], rules: str, limits: list[float]) -> list[str]:
    """Per limit and solver: decided, won, median seconds to a win (on the deals it won and
    on the deals both solvers won), positions/s; then per solver the median time to a win on
    the deals it won at every limit, limit by limit."""
    table = {
        (r["solver"], float(r["limit"]), int(r["deal"])): r for r in rows if r["rules"] == rules
    }
    pairs = {(s, t) for s, t, _ in table}
    complete = {d for d in {d for *_, d in table} if all((*p, d) in table for p in pairs)}
    table = {key: r for key, r in table.items() if key[2] in complete}  # an interrupted run
    solvers = sorted({key[0] for key in table}, reverse=True)  # "old" first
    lines = []
    for limit in limits:
        deals = sorted({d for s, t, d in table if t == limit})
        both = set.intersection(*(_won(table, s, limit) for s in solvers))
        for s in solvers:
            mine = [table[s, limit, d] for d in deals]
            decided = sum(r["status"] != "unknown" for r in mine)
            rate = sum(int(r["nodes"]) for r in mine) / sum(float(r["seconds"]) for r in mine)
            won = _won(table, s, limit)
            lines.append(
                f"{rules:8s} {limit:4g}s {s}: decided {decided:3d}/{len(deals)} (won {len(won):3d})"
                f"  median to a win {_median(table, s, limit, won)}"
                f" (on the {len(both)} both won: {_median(table, s, limit, both)})"
                f"  {rate:7,.0f} positions/s"
            )
    for s in solvers:
        always = set.intersection(*(_won(table, s, limit) for limit in limits))
        medians = "  ".join(f"{t:g}s {_median(table, s, t, always)}" for t in limits)
        lines.append(
            f"{rules:8s} {s}: median to a win on the {len(always)} won at every limit: {medians}"
        )
    return lines


def compare(args: argparse.Namespace) -> None:
    limits = [float(x) for x in args.time_limits.split(",")]
    rules_list = args.rules.split(",")
    done = {
        (r["solver"], r["rules"], int(r["deal"]), float(r["limit"]))
        for r in results_file.rows(args.out)
    }
    tasks = [
        (solver, path, rules, deal, limit)
        for deal in args.deals
        for rules in rules_list
        for limit in limits
        for solver, path in (("old", str(args.against)), ("new", "new"))
        if (solver, rules, deal, limit) not in done
    ]
    with ProcessPoolExecutor(args.workers) as pool, results_file.appending(
        args.out, COMPARE_FIELDS
    ) as add:
        for row in pool.map(compare_one, *zip(*tasks, strict=True)) if tasks else ():
            add(row)
    wanted = set(args.deals)
    rows = [
        r
        for r in results_file.rows(args.out)
        if int(r["deal"]) in wanted and float(r["limit"]) in limits
    ]
    for rules in rules_list:
        print("\n".join(compare_figures(rows, rules, limits)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic,single-card,millie")
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1..100"))
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("solver-bench.csv"))
    parser.add_argument("--against", type=Path, help="another solver.py to compare side by side")
    parser.add_argument("--time-limits", default="2,10", help="with --against: limits to try")
    parser.add_argument(
        "--backends", help="search cores side by side, e.g. c,python (the last is the base)"
    )
    args = parser.parse_args()
    if args.backends:
        compare_backends(args)
        return
    if args.against:
        compare(args)
        return
    with ProcessPoolExecutor(args.workers) as pool:
        for rules in args.rules.split(","):
            run_study(rules, args.deals, args.time_limit, pool, args.out, progress=False)
            rows = [
                r
                for r in results_file.rows(args.out)
                if r["rules"] == rules and int(r["deal"]) in set(args.deals)
            ]
            print(f"{rules:12s} {figures(rows)}", flush=True)


if __name__ == "__main__":
    main()
