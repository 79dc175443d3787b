"""How sharp can an honest chance be? The Brier skill no model of the visible position can
beat, measured on positions of the honest player's own games (issue 32).

Where cards are hidden, how a game ends depends on cards nobody sees and on the player's own
sampling: the best any chance can do is the honest player's true win rate from what is
visible, p. Its Brier score is the mean of p(1 - p) (the part of the outcome no one can
foresee), and its skill against the base rate is the ceiling of every calibrated chance's.

For ``--positions`` positions with cards hidden, drawn (fixed seed) from the games whose moves
``benchmarks/calibration_data.py`` kept, the honest player (``strategy.honest()``, its defaults,
a new seed each time) plays on from the visible position ``--rollouts`` times, each with the
hidden cards dealt afresh (:func:`.analysis.sampling.determinize`). With w wins in K games,
w(K - w) / (K(K - 1)) is an unbiased estimate of p(1 - p); their mean over the positions is
the floor of the Brier score, and 1 - floor / base (the base rate's p(1 - p) over the same
positions' games) the ceiling of the skill, with a bootstrap interval over the positions.

The rollouts start from the position alone: the player does not know the line that led there
(it only keeps it from walking back into a position already reached).

Run:  nice -n 19 python benchmarks/calibration_ceiling.py [--rules classic] [--positions 80]
          [--rollouts 6] [--out benchmarks/results/calibration-ceiling-classic.csv]
      python benchmarks/calibration_ceiling.py --report [--rules classic]

Rows are appended as positions finish, so a second run resumes.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import calibration_data  # noqa: E402
from results_file import appending, rows  # noqa: E402

from milligan_widget import Game, strategy  # noqa: E402
from milligan_widget.analysis.sampling import determinize, visible_view  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
FIELDS = ["rules", "deal", "ply", "hidden", "won", "rollouts", "rollout_wins"]
MOVES = 1_000  #: a game ends long before (it cannot walk back)


def positions(rules: str, count: int, seed: int = 32) -> list[tuple[int, int, bool, Game]]:
    """``count`` positions with cards hidden, (deal, ply, won, position), drawn evenly at random
    from the kept games' positions."""
    path = RESULTS / f"calibration-{rules}-games.csv"
    found = [
        (deal, ply, won, game.copy())
        for deal, won, ply, game in calibration_data.replayed(path, rules)
        if visible_view(game).hidden
    ]
    random.Random(seed).shuffle(found)
    return found[:count]


def rollouts(position: Game, count: int, seed: int) -> int:
    """Games won of ``count`` honest games from ``position``, each on freshly dealt hidden
    cards and with a sampler seed of its own."""
    rng, wins = random.Random(seed), 0
    view = visible_view(position)
    for k in range(count):
        game = determinize(view, rng)
        player = strategy.honest(seed=seed + k)
        for _ in range(MOVES):
            move = player(game) if game.status == "playing" else None
            if move is None:
                break
            game.play(move)
        wins += game.status == "won"
    return wins


def ceiling(rollouts: np.ndarray, wins: np.ndarray, won: np.ndarray) -> tuple[float, float]:
    """The floor of the Brier score (the unbiased mean of p(1 - p) from ``wins`` of
    ``rollouts`` games at each position) and the ceiling of the Brier skill against the base
    rate of ``won`` (how the positions' own games ended).

    >>> ceiling(np.array([4, 4]), np.array([0, 4]), np.array([0, 1]))  # outcomes foreseeable
    (0.0, 1.0)
    >>> ceiling(np.array([2, 2]), np.array([1, 1]), np.array([0, 1]))  # a coin each time
    (0.5, -1.0)
    """
    floor = float(np.mean(wins * (rollouts - wins) / (rollouts * (rollouts - 1))))
    base = float(won.mean() * (1 - won.mean()))
    return floor, 1 - floor / base


def report(path: Path, draws: int = 2_000) -> None:
    measured = rows(path)
    k = np.array([int(r["rollouts"]) for r in measured])
    w = np.array([int(r["rollout_wins"]) for r in measured])
    won = np.array([int(r["won"]) for r in measured])
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(measured), (draws, len(measured)))
    boots = [ceiling(k[i], w[i], won[i])[1] for i in picks]
    low, high = np.percentile(boots, [2.5, 97.5])
    floor, skill = ceiling(k, w, won)
    print(f"{path.name}: {len(measured)} positions with cards hidden, {int(k.sum())} honest games")
    print(f"  games won from them (the players' own): {won.mean():.3f}; rollouts won: "
          f"{w.sum() / k.sum():.3f}")
    print(f"  Brier floor (mean p(1-p)): {floor:.4f}; base rate's: "
          f"{won.mean() * (1 - won.mean()):.4f}")
    print(f"  ceiling of the Brier skill: {skill:.3f} (95% bootstrap {low:.3f}-{high:.3f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--positions", type=int, default=80)
    parser.add_argument("--rollouts", type=int, default=6)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--report", action="store_true", help="only print the figures")
    args = parser.parse_args(argv)
    out = args.out or RESULTS / f"calibration-ceiling-{args.rules}.csv"
    if not args.report:
        measure(args.rules, args.positions, args.rollouts, out)
    report(out)
    return 0


def measure(rules: str, count: int, rollout_count: int, out: Path) -> None:
    done = {(int(r["deal"]), int(r["ply"])) for r in rows(out)}
    with appending(out, FIELDS) as add:
        for deal, ply, won, game in positions(rules, count):
            if (deal, ply) in done:
                continue
            wins = rollouts(game, rollout_count, seed=1_000 * deal + ply)
            add({"rules": rules, "deal": deal, "ply": ply, "hidden": visible_view(game).hidden,
                 "won": int(won), "rollouts": rollout_count, "rollout_wins": wins})  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
