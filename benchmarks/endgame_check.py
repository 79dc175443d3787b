"""Where do the honest player's lost games go wrong: before the last card is seen, or after?

For each lost game kept by ``benchmarks/calibration_data.py`` (``calibration-RULES-games.csv``,
its moves), the position where nothing is hidden any more (the stock dealt, every card face
up) is solved again with a larger budget than the player's (``--nodes``, default 5,000,000
against its 1,000,000). A lost game whose endgame was winnable was lost by the endgame's
budget; one whose endgame was already lost, before it (issue 33: where to make the player
stronger).

Run:  python benchmarks/endgame_check.py [--rules classic] [--games 25] [--nodes 5000000]
"""

from __future__ import annotations

import argparse
import collections
import csv
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from milligan_widget import Game  # noqa: E402
from milligan_widget.analysis.sampling import visible_view  # noqa: E402
from milligan_widget.search.solver import solve  # noqa: E402


def endgame(deal: int, rules: str, moves: list[str]) -> Game | None:
    """The first position of the game where nothing is hidden, or None."""
    game = Game.new(deal, rules)
    for move in [*moves, None]:
        if visible_view(game).hidden == 0:
            return game
        if move is None:
            return None
        game.play(move)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=25, help="the first N lost games")
    parser.add_argument("--nodes", type=int, default=5_000_000)
    args = parser.parse_args(argv)
    path = REPO / "benchmarks" / "results" / f"calibration-{args.rules}-games.csv"
    with path.open(newline="") as handle:
        lost = [r for r in csv.DictReader(handle) if r["rules"] == args.rules and r["won"] == "0"]
    counts: collections.Counter[str] = collections.Counter()
    for row in lost[: args.games]:
        position = endgame(int(row["deal"]), args.rules, row["moves"].split())
        if position is None:
            counts["lost before nothing was hidden"] += 1
            continue
        counts[f"endgame {solve(position, 600.0, args.nodes).status}"] += 1
    print(f"{args.rules}: {sum(counts.values())} lost games ({args.nodes:,} positions a solve)")
    for what, count in counts.most_common():
        print(f"  {what}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
