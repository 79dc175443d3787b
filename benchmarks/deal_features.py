"""What the real deal says about its difficulty: per (rules, deal) of the shipped table (the
deals of ``benchmarks/results/win-rates-10s.csv``), how far greedy gets, and how far greedy
with random slips gets over several fixed seeds: inputs the bands of
``milligan_widget/data/deals.csv`` are chosen from (``difficulty_fit.py`` compares them with
the solver's effort and the sampler's opening figure; ``deal_table.py`` bands by one).

    nice -n 19 python benchmarks/deal_features.py --jobs 2

Appends one row a deal to ``benchmarks/results/deal-features.csv``: an interrupted run
resumes where it stopped. The columns: ``greedy_home`` (cards greedy brings home),
``greedy_won``; ``slips_home`` (the mean cards home over ``--runs`` games of greedy that
plays a random new-position move with chance ``--epsilon``, seeds 0 .. runs-1, at most
600 moves) and ``slips_won`` (how many of them were won). ``--rules``, ``--deals`` and
``--out`` measure a part (the table reads ``deal-features.csv``: append a part's rows to it).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import results_file  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.engine.moves import Move  # noqa: E402
from milligan_widget.search.greedy import greedy  # noqa: E402
from milligan_widget.strategy import Strategy, play_game  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
#: a slipping game stops here: past it, a game whose stock is out only wanders (Yukon's do)
SLIP_MOVES = 600
FIELDS = ["rules", "deal", "greedy_home", "greedy_won", "slips_home", "slips_won", "runs"]


def slipping_greedy(seed: int, epsilon: float) -> Strategy:
    """Greedy that, with chance ``epsilon`` a move, plays a random new-position move."""
    rng = random.Random(seed)

    def player(game: Game) -> Move | None:
        if rng.random() < epsilon:
            moves = game.new_position_moves()
            if moves:
                return rng.choice(moves)
        return greedy(game)

    return player


def measure(job: tuple[str, int, int, float]) -> dict:
    """One deal's greedy figures."""
    rules, deal, runs, epsilon = job
    plain = play_game(Game.new(deal, rules), greedy)
    slips = [
        play_game(Game.new(deal, rules), slipping_greedy(s, epsilon), SLIP_MOVES)
        for s in range(runs)
    ]
    return {
        "rules": rules,
        "deal": deal,
        "greedy_home": plain.foundation_count,
        "greedy_won": int(plain.status == "won"),
        "slips_home": round(sum(g.foundation_count for g in slips) / runs, 4),
        "slips_won": sum(g.status == "won" for g in slips),
        "runs": runs,
    }


def table_deals() -> list[tuple[str, int]]:
    """The (rules, deal) of the shipped table: those of the 10 s win-rate study."""
    with (RESULTS / "win-rates-10s.csv").open(newline="") as handle:
        return sorted((r["rules"], int(r["deal"])) for r in csv.DictReader(handle))


def done(path: Path) -> set[tuple[str, int]]:
    """The deals already measured (a cut-off last line is measured again)."""
    return {(r["rules"], int(r["deal"])) for r in results_file.rows(path) if r.get("runs")}


def append_measured(
    measure: Callable[[Any], dict], todo: list, out: Path, fields: list[str], jobs: int,
    chunksize: int,
) -> None:
    """Measure each job of ``todo`` in ``jobs`` processes and append its row to ``out`` (with
    the header if the file is new), flushed as it comes, so a stopped run resumes."""
    with results_file.appending(out, fields) as add, ProcessPoolExecutor(jobs) as pool:
        every = max(1, 25 * chunksize)
        for count, row in enumerate(pool.map(measure, todo, chunksize=chunksize), start=1):
            add(row)
            if count % every == 0:
                print(f"{count}/{len(todo)}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "deal-features.csv")
    parser.add_argument("--runs", type=int, default=16)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--rules", default="", help="only these presets (comma-separated)")
    parser.add_argument("--deals", type=parse_deals, help="only these deals (like 1..200)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    wanted = set(args.rules.split(",")) - {""}
    only = set(args.deals or [])
    measured = done(args.out)
    todo = [
        (rules, deal, args.runs, args.epsilon)
        for rules, deal in table_deals()
        if (not wanted or rules in wanted) and (not only or deal in only)
        if (rules, deal) not in measured
    ]
    print(f"{len(measured)} measured, {len(todo)} to go", file=sys.stderr)
    append_measured(measure, todo, args.out, FIELDS, args.jobs, chunksize=8)


if __name__ == "__main__":
    main()
