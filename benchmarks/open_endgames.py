"""Lost games the honest player could have won once nothing was hidden (issue 33).

For each game of a ``-games.csv`` (the honest player's games with their moves, as
``benchmarks/calibration_data.py`` keeps them) that dealt its last row, the position just
after that deal is solved with ``--nodes`` positions: everything is visible there, so a game
lost from a won position was lost in its endgame, where the player solves with
``analysis.honest.ENDGAME_NODES`` positions. A row per game goes to ``--out`` (resumable: the
deals already in it are skipped); ``report`` prints how the lost games' endgames stand.

Run:  python benchmarks/open_endgames.py play
          --games benchmarks/results/calibration-millie-calibrated-games.csv
          --nodes 10000000 --out benchmarks/results/open-endgames-millie.csv
      python benchmarks/open_endgames.py report benchmarks/results/open-endgames-millie.csv
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.analysis.honest import ENDGAME_NODES  # noqa: E402
from milligan_widget.search.solver import WINNABLE, solve  # noqa: E402

FIELDS = ["rules", "deal", "won", "last_deal", "moves", "status", "nodes", "seconds"]


def after_last_deal(rules: str, deal: int, moves: list[str]) -> Game | None:
    """The game just after its last row was dealt, or None if the stock was never dealt out.

    >>> after_last_deal("millie", 1, ["d", "3>f"]) is None  # eleven rows left
    True
    """
    if "d" not in moves:
        return None
    game = Game.new(deal, rules)
    for move in moves[: len(moves) - moves[::-1].index("d")]:
        game.play(move)
    return None if game.stock_count else game


def endgames(games: Path, done: set[str]) -> Iterator[tuple[dict[str, str], Game]]:
    """(the game's row, its position after the last deal), each new deal."""
    for row in results_file.rows(games):
        if row["deal"] in done:
            continue
        game = after_last_deal(row["rules"], int(row["deal"]), row["moves"].split())
        if game is not None:
            yield row, game


def play(games: Path, out: Path, nodes: int) -> None:
    done = {row["deal"] for row in results_file.rows(out)}
    with results_file.appending(out, FIELDS) as add:
        for row, game in endgames(games, done):
            start = time.perf_counter()
            result = solve(game, math.inf, nodes)
            add({
                "rules": row["rules"], "deal": row["deal"], "won": row["won"],
                "last_deal": game.ply, "moves": len(row["moves"].split()), "status": result.status,
                "nodes": result.nodes, "seconds": round(time.perf_counter() - start, 1),
            })  # fmt: skip


def summary(rows: list[dict[str, str]], first_budget: int = ENDGAME_NODES) -> dict[str, object]:
    """How the endgames of the lost games stand: won by the solver, and within how many
    positions past the player's first budget; proven lost; left open.

    >>> rows = [{"won": "0", "status": "winnable", "nodes": "3000000"},
    ...         {"won": "0", "status": "unwinnable", "nodes": "5"},
    ...         {"won": "1", "status": "winnable", "nodes": "40"}]
    >>> summary(rows)["lost, won beyond the first budget"]
    [3000000]
    """
    lost = [row for row in rows if row["won"] == "0"]
    won = [int(row["nodes"]) for row in lost if row["status"] == WINNABLE]
    return {
        "games that dealt their last row": len(rows),
        "lost": len(lost),
        "lost, proven lost after the last deal": sum(r["status"] == "unwinnable" for r in lost),
        "lost, won within the first budget": sum(n <= first_budget for n in won),
        "lost, won beyond the first budget": sorted(n for n in won if n > first_budget),
        "lost, left open": sum(r["status"] == "unknown" for r in lost),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play", help="solve each game's position after its last deal")
    p.add_argument("--games", type=Path, required=True, help="a -games.csv with the moves")
    p.add_argument("--nodes", type=int, default=10_000_000)
    p.add_argument("--out", type=Path, required=True)
    r = commands.add_parser("report", help="how the lost games' endgames stand")
    r.add_argument("file", type=Path)
    args = parser.parse_args()
    if args.command == "play":
        play(args.games, args.out, args.nodes)
        return
    for name, value in summary(results_file.rows(args.file)).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
