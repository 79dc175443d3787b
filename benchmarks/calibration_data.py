"""Positions from the honest player's games, with what a player sees there and how the game
ended: the data a calibrated chance is fitted on (issue 32, "the chance is how often careful
honest play wins from here").

The honest player (``strategy.honest()``, its default budget and ``--seed``) plays each deal
of ``--deals`` (only deals 1..1500: the deals above are kept for checks no fit has seen).
Every ``--every``-th position of a game, and its opening, gives one row: the visible
features (cards home, stock left, cards face down, low cards buried under others and how
deep, reserve size, empty columns, cells in use, legal moves, the sampler's figure at a
small node budget: won, decided and undecided samples) and, once the game is over, its
outcome. A game's rows are appended to ``--out`` when it ends, so an interrupted run resumes
where it stopped (the deals in the file are skipped; a game cut off midway is played again).
Each game's moves go to ``--out``'s ``-games.csv`` beside it (written just before its rows),
so its positions can be measured again without playing it: ``--refresh`` measures what a
player sees again in every row (after a new visible feature), and plays nothing.

Run:  python benchmarks/calibration_data.py --rules classic --deals 1..1500 --every 10
      [--out benchmarks/results/calibration-classic.csv] [--samples 8] [--nodes 2000]
      python benchmarks/calibration_data.py --rules millie --refresh
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.analysis import Limit, SamplingEvaluator, Seen  # noqa: E402
from milligan_widget.analysis.features import VisibleFeatures, visible_features  # noqa: E402
from milligan_widget.analysis.sampling import visible_view  # noqa: E402
from milligan_widget.strategy import honest  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

Row = dict[str, Any]
FIT_DEALS = range(1, 1501)  #: the only deals fitted on; those above are kept for checks
MAX_MOVES = 2_000
GAME_FIELDS = ["rules", "deal", "player_seed", "won", "moves"]  #: the games' own file
FIELDS = [
    "rules", "deal", "player_seed", "ply", "home", "stock_left", "face_down", "buried_low",
    "buried_depth", "reserve", "empty_columns", "cells_used", "legal_moves", "sample_wins",
    "sample_decided", "sample_undecided", "sample_p", "won", "final_home", "game_moves",
    "breaks", "self_blocks",
]  # fmt: skip
#: the columns a player sees, measured again by --refresh (the sampler's and the outcome stay)
VISIBLE = [column.name for column in fields(VisibleFeatures)]


def visible(game: Game) -> dict[str, int]:
    """The columns of :data:`VISIBLE` at ``game``'s position."""
    seen = visible_features(visible_view(game))
    return {name: getattr(seen, name) for name in VISIBLE}


def features(game: Game, samples: int, nodes: int) -> dict[str, Any]:
    """What a player sees of ``game``'s position, as numbers."""
    chance = SamplingEvaluator().evaluate(Seen.of(game, line=False), Limit(nodes, samples))
    return {
        "ply": game.ply,
        **visible(game),
        "sample_wins": chance.wins,
        "sample_decided": chance.decided,
        "sample_undecided": chance.undecided,
        "sample_p": round(chance.p, 4) if chance.known else "",
    }


def play(
    rules: str, deal: int, seed: int, every: int, samples: int, nodes: int
) -> tuple[list[Row], Row]:
    """One honest game of ``deal``: a row for its opening and every ``every``-th position, and
    the game's own row (its moves, so that a new feature can be measured on its positions
    without playing it again)."""
    game, player, rows = Game.new(deal, rules), honest(seed=seed), list[Row]()
    while game.ply < MAX_MOVES and game.status == "playing":
        if game.ply % every == 0:
            rows.append({"rules": rules, "deal": deal, "player_seed": seed}
                        | features(game, samples, nodes))  # fmt: skip
        move = player(game)
        if move is None:
            break
        game.play(move)
    ending = {"won": int(game.status == "won"), "final_home": sum(game.foundation_heights),
              "game_moves": game.ply}  # fmt: skip
    line = " ".join(str(move) for move in game.history)
    return [row | ending for row in rows], {"rules": rules, "deal": deal, "player_seed": seed,
                                            "won": ending["won"], "moves": line}  # fmt: skip


def done_deals(path: Path, rules: str, seed: int) -> set[int]:
    """The deals whose rows are in ``path`` already (a resumed run skips them)."""
    return {
        int(row["deal"])
        for row in results_file.rows(path)
        if row["rules"] == rules and int(row["player_seed"]) == seed
    }


def to_play(deals: list[int], path: Path, rules: str, seed: int) -> Iterator[int]:
    done = done_deals(path, rules, seed)
    return (deal for deal in deals if deal not in done)


def append(path: Path, rows: list[Row], fields: list[str] = FIELDS) -> None:
    """Add one game's rows (with the header if the file is new), flushed at once."""
    with results_file.appending(path, fields) as add:
        add(*rows)


def replayed(path: Path, rules: str) -> Iterator[tuple[int, bool, int, Game]]:
    """Every position of the games of ``rules`` kept in ``path`` (a ``-games.csv``), before
    each move: (deal, won, ply, the game there). The game is one object per game, played on
    after each yield: copy it to keep it."""
    for row in results_file.rows(path):
        if row["rules"] != rules:
            continue
        deal, won = int(row["deal"]), row["won"] == "1"
        game = Game.new(deal, rules)
        for ply, move in enumerate(row["moves"].split()):
            yield deal, won, ply, game
            game.play(move)


def refresh(path: Path, rules: str) -> int:
    """Measure the :data:`VISIBLE` columns of every ``rules`` row of ``path`` again, at its
    position replayed from its game's moves (the ``-games.csv`` beside it); the sampler's
    columns and the outcome stay. The file is replaced whole once all is measured (a killed
    run leaves it as it was). Returns the rows measured; a row whose game was not kept is
    left as it is (a column it never had stays empty)."""
    rows: list[dict[str, Any]] = list(results_file.rows(path))
    kept = results_file.rows(path.with_name(path.stem + "-games.csv"))
    moves = {(r["rules"], r["deal"], r["player_seed"]): r["moves"].split() for r in kept}
    measured, games = 0, dict[tuple[str, str, str], Game]()  # each game played on once
    for row in rows:
        key = (row["rules"], row["deal"], row["player_seed"])
        line = moves.get(key)
        if row["rules"] != rules or line is None:
            continue
        game = games.get(key)
        if game is None or game.ply > int(row["ply"]):
            game = games[key] = Game.new(int(row["deal"]), rules)
        for move in line[game.ply : int(row["ply"])]:
            game.play(move)
        row.update(visible(game))
        measured += 1
    fresh = path.with_name(path.name + ".part")
    with fresh.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(fresh, path)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", default="1..200", help="like 1..1500 (within 1..1500)")
    parser.add_argument("--every", type=int, default=10, help="a row every this many moves")
    parser.add_argument("--seed", type=int, default=0, help="the honest player's seed")
    parser.add_argument("--samples", type=int, default=8, help="the sampler's figure: samples")
    parser.add_argument("--nodes", type=int, default=2_000, help="... and positions a solve")
    parser.add_argument("--out", type=Path, help="default benchmarks/results/calibration-RULES.csv")
    parser.add_argument("--refresh", action="store_true",
                        help="measure what a player sees again in --out's rows, from the "
                             "games' moves (after a new feature), and play nothing")  # fmt: skip
    args = parser.parse_args()
    try:
        deals = parse_deals(args.deals)
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    outside = [deal for deal in deals if deal not in FIT_DEALS]
    if outside:
        parser.error(f"deal {outside[0]} is not in 1..1500: the deals above are kept for checks")
    if args.every < 1:
        parser.error("--every must be at least 1")
    out = args.out or REPO / "benchmarks" / "results" / f"calibration-{args.rules}.csv"
    if args.refresh:
        print(f"{refresh(out, args.rules)} {args.rules} rows of {out.name} measured again")
        return
    for deal in to_play(deals, out, args.rules, args.seed):
        start = time.perf_counter()
        rows, played = play(args.rules, deal, args.seed, args.every, args.samples, args.nodes)
        append(out.with_name(out.stem + "-games.csv"), [played], GAME_FIELDS)
        append(out, rows)
        won = "won" if rows and rows[0]["won"] else "lost"
        print(f"{args.rules} deal {deal}: {won}, {len(rows)} rows, "
              f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
