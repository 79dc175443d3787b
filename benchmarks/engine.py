"""Engine speed through the public API, classic rules, fixed deals.

    python benchmarks/engine.py [--repeats 5]

Prints the median of several runs for: legal-move generations per second, play+undo pairs
per second, and random full games per second (a random player that never walks back into a
position it has reached since the last deal, so every game ends: won or lost).
It also times numbered deals (the package's own PySolFC shuffles), side by side with the
same deals through pysol-cards when that is installed: microseconds per deal, deals
1..2000 (the LCG) and 32000..33999 (the Mersenne Twister).
The positions are every position of greedy games on deals 1..20: openings, middle games
and endgames after the stock has run out, where the reserve comes into play.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time

from milligan_widget import Game
from milligan_widget.engine.cards import full_deck
from milligan_widget.engine.deals import deal_codes
from milligan_widget.strategy import greedy, play_game, random_player

SEEDS = range(1, 21)


def sample_positions() -> list[Game]:
    positions = []
    for seed in SEEDS:
        finished = play_game(Game.new(seed), greedy)
        for _, position in finished.replay():
            positions.append(position)
    return positions


def rate(work, count: int, repeats: int) -> float:
    """Median operations per second over ``repeats`` runs of ``work`` (``count`` operations)."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


DEAL_RANGES = {"LCG": range(1, 2001), "MT": range(32000, 34000)}


def pysol_cards_dealer():
    """Deal through pysol-cards as deals.py did before it had its own shuffles, or None."""
    try:
        from pysol_cards.random import LCRandom31, MTRandom
    except ImportError:
        return None

    def deal(number: int, decks: int = 2) -> list[int]:
        cards = full_deck(decks)
        (LCRandom31(number) if number < 32000 else MTRandom(number)).shuffle(cards)
        cards.reverse()
        return cards

    return deal


def deal_all(dealer, numbers) -> None:
    for number in numbers:
        dealer(number)


def deal_costs(repeats: int) -> None:
    """Print the median microseconds per deal, ours and pysol-cards', for each generator."""
    dealers = {"milligan_widget": deal_codes, "pysol-cards": pysol_cards_dealer()}
    for name, numbers in DEAL_RANGES.items():
        cells = []
        for label, dealer in dealers.items():
            if dealer is None:
                cells.append(f"{label} (not installed)")
                continue
            per_second = rate(functools.partial(deal_all, dealer, numbers), len(numbers), repeats)
            cells.append(f"{label} {1e6 / per_second:6.1f} µs")
        print(f"deal ({name}, {len(numbers)} deals): " + "   ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    positions = sample_positions()
    endgame = sum(1 for p in positions if p.stock_count == 0)
    moves = [(p, p.legal_moves) for p in positions]
    pairs = sum(len(ms) for _, ms in moves)
    print(f"{len(positions)} positions from greedy games on deals 1..20 "
          f"({endgame} after the stock ran out), {pairs} legal moves in all; "
          f"median of {args.repeats} runs")

    def generate():
        for position in positions:
            _ = position.legal_moves

    def play_undo():
        for position, legal in moves:
            for move in legal:
                position.play(move)
                position.undo()

    games = 40

    def random_games():
        rng = random.Random(1)
        player = random_player(rng)
        for seed in range(1, games + 1):
            play_game(Game.new(seed), player)

    print(f"legal-move generations/s: {rate(generate, len(positions), args.repeats):12,.0f}"
          "   (target >= 100,000)")
    print(f"play+undo pairs/s:        {rate(play_undo, pairs, args.repeats):12,.0f}"
          "   (target >= 500,000)")
    print(f"random full games/s:      {rate(random_games, games, args.repeats):12,.1f}")
    deal_costs(args.repeats)


if __name__ == "__main__":
    main()
