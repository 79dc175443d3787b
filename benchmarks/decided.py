"""How often the thoughtful solver decides the positions a player meets (issue 33, item 2).

For each deal, greedy plays 40 moves (dealing when it has no move); the solver then gets the
position with a budget of ``--max-nodes`` positions (time no object) and the CSV keeps its
verdict, the positions it expanded and its seconds. As the solver searches the same way
whatever its budget (its turns are counted in positions), a solve with a budget of N
positions decides exactly where this one decided within N: the table gives the decided share
for several node budgets from one run, and for ``--seconds`` of wall clock (measured: on a
loaded machine that figure is lower than on an idle one, the node figures are not). The
issue's target: solve(game, 2.0) decides >= 95% of classic and >= 90% of Millie positions.
Tune on deals 1..1500 only (the default deals are spread over them).

Run:  nice -n 19 python benchmarks/decided.py [--rules classic,millie] [--deals 40]
          [--offset 0] [--greedy-moves 40] [--max-nodes 1000000] [--deeper 80000000]
          [--out benchmarks/results/decided.csv]

Rows are appended as deals finish, so a second run resumes (delete the CSV for fresh figures).
As a solve is the same on any machine, two versions of the solver search alike on a set of
positions exactly where their CSVs agree on every verdict and every count of positions
(``--greedy-moves 0`` takes the openings).
``--deeper N`` solves again, with N positions, each position still undecided at a smaller
budget, and appends its row: the table then goes on to the budgets every position was given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from results_file import appending, rows  # noqa: E402

from milligan_widget import Game, Move  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.search.greedy import greedy  # noqa: E402
from milligan_widget.search.solver import UNKNOWN, solve  # noqa: E402

FIELDS = ["rules", "deal", "ply", "stock", "status", "nodes", "seconds", "max_nodes"]
BUDGETS = (20_000, 100_000, 250_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000,
           20_000_000, 40_000_000)  # fmt: skip
GREEDY_MOVES = 40


def spread_deals(count: int, last: int = 1500) -> list[int]:
    """``count`` deal numbers spread evenly over 1..``last``.

    >>> spread_deals(4)
    [1, 376, 751, 1126]
    """
    step = last // count
    return [1 + i * step for i in range(count)]


def after_greedy(deal: int, rules: str, moves: int = GREEDY_MOVES) -> Game:
    """The position after ``moves`` greedy moves (a deal where greedy has none)."""
    game = Game.new(deal, rules)
    for _ in range(moves):
        if game.status != "playing":
            break
        move = greedy(game) or (Move.deal() if game.can_deal else None)
        if move is None:
            break
        game.play(move)
    return game


def measure(
    rules: str, deal: int, max_nodes: int, moves: int = GREEDY_MOVES
) -> dict[str, object]:
    game = after_greedy(deal, rules, moves)
    result = solve(game, 3600.0, max_nodes, shorten_line=False)
    return {
        "rules": rules,
        "deal": deal,
        "ply": game.ply,
        "stock": game.stock_count,
        "status": result.status,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "max_nodes": max_nodes,
    }


def deepest(rows: list[dict[str, str]], rules: str) -> dict[int, dict[str, str]]:
    """Each deal's row that says most: a decided one, else the one with the largest budget."""
    best: dict[int, dict[str, str]] = {}
    for row in rows:
        if row["rules"] != rules:
            continue
        deal, known = int(row["deal"]), best.get(int(row["deal"]))
        if known is None or (known["status"] == UNKNOWN and (
            row["status"] != UNKNOWN or int(row["max_nodes"]) > int(known["max_nodes"])
        )):  # fmt: skip
            best[deal] = row
    return best


def decided_within(row: dict[str, str], budget: int) -> bool | None:
    """Did the solver decide the row's position within ``budget`` positions (None: the row
    does not say, its solve had a smaller budget)? It searches alike whatever its budget.

    >>> row = {"status": "unknown", "nodes": "1000001", "max_nodes": "1000000"}
    >>> decided_within(row, 500_000), decided_within(row, 2_000_000)
    (False, None)
    >>> decided_within({"status": "winnable", "nodes": "700000", "max_nodes": "1000000"}, 10**7)
    True
    """
    if row["status"] != UNKNOWN:
        return int(row["nodes"]) <= budget
    return False if budget <= int(row["max_nodes"]) else None


def undecided_at(rows: list[dict[str, str]], rules: str, deal: int, budget: int) -> bool:
    """Is ``deal``'s position still to be solved with ``budget`` positions (undecided with
    fewer)?"""
    return decided_within(deepest(rows, rules)[deal], budget) is None


def report(
    rows: list[dict[str, str]], rules: str, seconds: float, moves: int = GREEDY_MOVES
) -> None:
    mine = list(deepest(rows, rules).values())
    if not mine:
        return
    n = len(mine)

    def line(label: str, decided: int) -> None:
        low, high = wilson(decided, n)
        print(f"  {label:>22}: {decided}/{n} = {decided / n:.0%} ({low:.0%}-{high:.0%})")

    print(f"{rules}: positions after {moves} greedy moves, {n} deals")
    line(
        f"{seconds:g} s (wall, measured)",
        sum(r["status"] != UNKNOWN and float(r["seconds"]) <= seconds for r in mine),
    )
    budgets = sorted({*BUDGETS, *(int(r["max_nodes"]) for r in mine)})
    for budget in budgets:
        verdicts = [decided_within(r, budget) for r in mine]
        if None not in verdicts:
            line(f"{budget:,} nodes", sum(bool(v) for v in verdicts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic,millie")
    parser.add_argument("--deals", type=int, default=40, help="deals per preset (spread)")
    parser.add_argument("--offset", type=int, default=0, help="add this to every deal number")
    parser.add_argument("--greedy-moves", type=int, default=GREEDY_MOVES)
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--deeper", type=int, help="solve the undecided again with so many")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/decided.csv")
    args = parser.parse_args(argv)
    done = rows(args.out)
    seen = {(r["rules"], int(r["deal"])) for r in done}
    with appending(args.out, FIELDS) as add:
        for rules in args.rules.split(","):
            for deal in (d + args.offset for d in spread_deals(args.deals)):
                if (rules, deal) not in seen:
                    row = measure(rules, deal, args.max_nodes, args.greedy_moves)
                elif args.deeper and undecided_at(done, rules, deal, args.deeper):
                    row = measure(rules, deal, args.deeper, args.greedy_moves)
                else:
                    continue
                add(row)
                done.append({k: str(v) for k, v in row.items()})
    for rules in args.rules.split(","):
        report(done, rules, args.seconds, args.greedy_moves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
