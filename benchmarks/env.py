"""The Gymnasium environment's speed against the raw engine, random masked play, fixed deals.

    python benchmarks/env.py [--repeats 5] [--rules classic] [--deals 30] [--max-steps 1000]

Both play the same deals the same way: each step a uniformly random legal move (through
``info["action_mask"]`` in the environment, from ``game.legal_moves`` on the engine), and
``game.status`` after it, until the game is over or ``--max-steps`` steps were played. Prints
the median steps per second of several runs of each, taken in turns so that both see the same
machine, and the ratio: what the observations, masks and the Gymnasium API cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from milligan_widget import Game
from milligan_widget.studies.env import MilliganEnv


def engine_steps(rules: str, deals: range, max_steps: int) -> int:
    """Random play on :class:`Game` directly; the number of moves played."""
    rng, steps = random.Random(1), 0
    for number in deals:
        game = Game.new(number, rules)
        for _ in range(max_steps):
            moves = game.legal_moves
            game.play(moves[rng.randrange(len(moves))])
            steps += 1
            if game.status != "playing":
                break
    return steps


def env_steps(rules: str, deals: range, max_steps: int) -> int:
    """The same play through :class:`MilliganEnv`; the number of steps taken."""
    rng, steps = random.Random(1), 0
    env = MilliganEnv(rules, max_steps=max_steps)
    for number in deals:
        _, info = env.reset(seed=number)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, terminated, truncated, info = env.step(legal[rng.randrange(len(legal))])
            steps += 1
            done = terminated or truncated
    return steps


def timed(play, *args) -> tuple[float, int]:
    """(steps per second, steps) of one run of ``play``."""
    start = time.perf_counter()
    steps = play(*args)
    return steps / (time.perf_counter() - start), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--max-steps", type=int, default=1000)
    args = parser.parse_args()

    deals = range(1, args.deals + 1)
    runs: dict[str, list[tuple[float, int]]] = {"raw engine (Game)": [], "MilliganEnv": []}
    for _ in range(args.repeats):
        for label, play in zip(runs, (engine_steps, env_steps), strict=True):
            runs[label].append(timed(play, args.rules, deals, args.max_steps))
    print(f"random masked play, {args.rules} rules, deals 1..{args.deals}, "
          f"at most {args.max_steps} steps a game; median of {args.repeats} runs")
    rates = {}
    for label, results in runs.items():
        rates[label] = statistics.median(rate for rate, _ in results)
        print(f"{label + ':':20} {rates[label]:10,.0f} steps/s   ({results[0][1]:,} steps a run)")
    engine, env = rates.values()
    print(f"{'ratio env/engine:':20} {env / engine:10.2f}   "
          f"(the environment adds {1e6 / env - 1e6 / engine:.1f} µs a step)")


if __name__ == "__main__":
    main()
