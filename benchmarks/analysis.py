"""Speed of the honest analysis on the compiled core.

    python benchmarks/analysis.py [--deals 1..10] [--games 3]

Prints, for classic and Millie: win_chance with 32 samples (2 s budget) at the opening and
mid-game (after six deals of greedy play), median and p95 seconds and the samples decided;
honest_hint's latency (16 samples, 2 s) at the same positions and the share within the
widget's 2 s hint budget; and the honest player's seconds a classic game at its default.
"""

from __future__ import annotations

import argparse
import statistics
import time

from milligan_widget import Game
from milligan_widget.analysis import honest_hint, win_chance
from milligan_widget.strategy import greedy, honest, play_game
from milligan_widget.studies.study import parse_deals


def mid_game(deal: int, rules: str, deals: int = 6) -> Game:
    game = Game.new(deal, rules)
    while game.stock_count > game.rules.card_count - len(game.tableau) * (deals + 1):
        move = greedy(game)
        if move is None or game.status != "playing":
            break
        game.play(move)
    return game


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def figures(label: str, seconds: list[float], decided: list[int] | None = None) -> str:
    text = f"{label}: median {statistics.median(seconds):.3f} s, p95 {p95(seconds):.3f} s"
    if decided is not None:
        text += f", samples decided {sum(decided)}/{32 * len(decided)}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=parse_deals, default="1..10")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    for rules in ("classic", "millie"):
        for where, make in (("opening", Game.new), ("mid-game", mid_game)):
            positions = [make(deal, rules) for deal in args.deals]
            positions = [g for g in positions if g.status == "playing"]
            chances = [win_chance(g, samples=32, time_limit=2.0, seed=1) for g in positions]
            print(
                figures(
                    f"{rules} {where} win_chance(32)",
                    [c.seconds for c in chances],
                    [c.decided for c in chances],
                )
            )
            hint_seconds = []
            for game in positions:
                start = time.perf_counter()
                honest_hint(game, samples=16, time_limit=2.0, seed=1)
                hint_seconds.append(time.perf_counter() - start)
            within = sum(s <= 2.05 for s in hint_seconds) / len(hint_seconds)
            print(
                figures(f"{rules} {where} honest_hint(16, 2 s)", hint_seconds)
                + f", within 2 s: {100 * within:.0f}%"
            )
    seconds = []
    for deal in list(args.deals)[: args.games]:
        start = time.perf_counter()
        play_game(Game.new(deal), honest())
        seconds.append(time.perf_counter() - start)
    print(figures("classic honest player, default setting, a game", seconds))


if __name__ == "__main__":
    main()
