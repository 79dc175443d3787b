"""Do the difficulty bands sort deals? The honest player, with a seed no fit used, plays
solver-won deals of each band that no fit has seen; this prints its win rate per band
(95% Wilson interval), the chi-square test of independence and the Cochran-Armitage trend
test, and greedy's win rate per band for every preset (the whole shipped table).

    nice -n 19 python benchmarks/difficulty_check.py play --rules classic --per-band 30
    nice -n 19 python benchmarks/difficulty_check.py play --rules millie --per-band 30
    python benchmarks/difficulty_check.py report

``play`` draws ``--per-band`` deals of each of ``--bands`` from the shipped table's
solver-won deals in ``--deals`` (default 201..1500: within the deals fitted on, 1..1500, but
not the honest results the score was fitted to, 1..200), in a fixed order that alternates the
bands, so a run cut short is still balanced. Each game (``strategy.honest(seed=--seed)``, its
default budget) is appended to ``benchmarks/results/difficulty-honest-s7.csv`` when it ends:
an interrupted run resumes where it stopped; ``--part 0/2`` and ``--part 1/2`` in two
processes share a run (a pair of deals each in turn). ``report`` reads it (and greedy's games in
``deal-features.csv``); the honest results of seed 0 on deals 1..200 (``honest-s8.csv``, the
games the score was fitted to) are shown beside them, marked as fitted.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from results_file import appending, rows  # noqa: E402

from milligan_widget import Game  # noqa: E402
from milligan_widget.engine.interval import wilson  # noqa: E402
from milligan_widget.strategy import honest, play_game  # noqa: E402
from milligan_widget.studies.difficulty import BANDED, shipped_deals  # noqa: E402
from milligan_widget.studies.study import parse_deals  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
FIELDS = ["rules", "deal", "band", "player_seed", "won", "foundation_cards", "moves", "seconds"]
FIT_DEALS = range(1, 1501)  #: deals above are kept for checks no one tunes on
ORDER = ("easy", "hard", "medium")  #: a play run alternates the bands in this order


def chosen(rules: str, bands: list[str], per_band: int, deals: set[int]) -> list[int]:
    """``per_band`` solver-won deals of each band in ``deals``, drawn with a fixed seed and
    interleaved band by band."""
    table = shipped_deals()[rules]
    lists = []
    for band in bands:
        pool = sorted(d for d, row in table.items() if row.difficulty == band and d in deals)
        random.Random(f"{rules}/{band}").shuffle(pool)
        lists.append(pool[:per_band])
    return [deal for group in zip(*lists, strict=False) for deal in group]


def played(path: Path) -> list[dict[str, str]]:
    """The games in ``path`` (a cut-off last line is dropped: that game is played again)."""
    return [row for row in rows(path) if row.get("seconds")]


def play(args: argparse.Namespace) -> None:
    deals = set(args.deals) & set(FIT_DEALS)
    done = {(r["rules"], int(r["deal"]), int(r["player_seed"])) for r in played(args.out)}
    bands = args.bands.split(",")
    order = chosen(args.rules, bands, args.per_band, deals)
    part, parts = args.part
    mine = [d for i, d in enumerate(order) if (i // len(bands)) % parts == part]
    todo = [d for d in mine if (args.rules, d, args.seed) not in done]
    print(f"{len(todo)} games to play", file=sys.stderr)
    table = shipped_deals()[args.rules]
    with appending(args.out, FIELDS) as add:  # a row is one short write: parts may share it
        for deal in todo:
            add(played_row(args.rules, deal, args.seed, table[deal].band))


def played_row(rules: str, deal: int, seed: int, band: str) -> dict[str, object]:
    """The honest player's game of ``deal``, as a row (and a line on the terminal)."""
    start = time.process_time()
    game = play_game(Game.new(deal, rules), honest(seed=seed))
    row = {"rules": rules, "deal": deal, "band": band, "player_seed": seed,
           "won": int(game.status == "won"), "foundation_cards": game.foundation_count,
           "moves": game.ply, "seconds": f"{time.process_time() - start:.2f}"}  # fmt: skip
    print(f"{rules} {deal} ({band}): won={row['won']} {row['seconds']} s", flush=True)
    return row


def chi_square(counts: list[tuple[int, int]]) -> tuple[float, float]:
    """Pearson's chi-square of independence for (won, played) per band; (statistic, p).

    >>> round(chi_square([(10, 20), (10, 20)])[1], 3)
    1.0
    """
    won, total = sum(w for w, _ in counts), sum(n for _, n in counts)
    stat = 0.0
    for w, n in counts:
        for observed, share in ((w, won / total), (n - w, 1 - won / total)):
            expected = n * share
            stat += (observed - expected) ** 2 / expected if expected else 0.0
    return stat, chi2_p(stat, len(counts) - 1)


def chi2_p(stat: float, df: int) -> float:
    """The upper tail of the chi-square distribution for 1 or 2 degrees of freedom."""
    return math.erfc(math.sqrt(stat / 2)) if df == 1 else math.exp(-stat / 2)


def trend(counts: list[tuple[int, int]]) -> tuple[float, float]:
    """The Cochran-Armitage test for a trend across ordered bands (scores 0, 1, 2 ...);
    (z, two-sided p)."""
    won, total = sum(w for w, _ in counts), sum(n for _, n in counts)
    p = won / total
    t = sum(i * (w - n * p) for i, (w, n) in enumerate(counts))
    mean = sum(i * n for i, (_, n) in enumerate(counts)) / total
    var = p * (1 - p) * sum(n * (i - mean) ** 2 for i, (_, n) in enumerate(counts))
    z = t / math.sqrt(var) if var else 0.0
    return z, math.erfc(abs(z) / math.sqrt(2))


def rate(won: int, n: int) -> str:
    if not n:
        return "–"
    low, high = wilson(won, n)
    return f"{won}/{n} = {100 * won / n:.0f}% ({100 * low:.0f}–{100 * high:.0f}%)"


def tests(counts: list[tuple[int, int]]) -> str:
    present = [(w, n) for w, n in counts if n]
    if len(present) < 2 or sum(w for w, _ in present) in (0, sum(n for _, n in present)):
        return "–"
    stat, p = chi_square(present)
    z, p_trend = trend(present)
    return f"χ² = {stat:.1f}, p = {p:.2g}; trend z = {z:.1f}, p = {p_trend:.2g}"


def band_counts(games: list[tuple[str, int]]) -> list[tuple[int, int]]:
    """(won, played) per band, easy first, from (band, won) pairs."""
    return [
        (sum(w for b, w in games if b == band), sum(1 for b, _ in games if b == band))
        for band in BANDED
    ]


def row_of(name: str, games: list[tuple[str, int]]) -> str:
    counts = band_counts(games)
    (ew, en), _, (hw, hn) = counts
    ratio = f"{(hw / hn) / (ew / en):.2f}" if en and hn and ew else "–"
    cells = [name, *(rate(w, n) for w, n in counts), ratio, tests(counts)]
    return "| " + " | ".join(cells) + " |"


def report(args: argparse.Namespace) -> None:
    header = "| games | easy | medium | hard | hard ÷ easy | test |\n|---|---|---|---|---|---|"
    print(header)
    for rules in ("classic", "millie"):
        table = shipped_deals()[rules]
        mine = [r for r in played(args.out) if r["rules"] == rules]
        seeds = sorted({r["player_seed"] for r in mine})
        for seed in seeds:
            games = [  # the band in the shipped table now (the file keeps the one at play)
                (table[int(r["deal"])].band, int(r["won"]))
                for r in mine
                if r["player_seed"] == seed
            ]
            span = [int(r["deal"]) for r in mine if r["player_seed"] == seed]
            name = f"{rules}, honest seed {seed}, deals in {min(span)}..{max(span)} (not fitted)"
            print(row_of(name, games))
        fitted = [
            (table[int(r["deal"])].difficulty, int(r["won"]))
            for r in csv.DictReader((RESULTS / "honest-s8.csv").open())
            if r["rules"] == rules and table[int(r["deal"])].difficulty
        ]
        print(row_of(f"{rules}, honest seed 0, deals 1..200 (fitted on)", fitted))
    print("\n" + header)
    with (RESULTS / "deal-features.csv").open(newline="") as handle:
        greedy = {
            (r["rules"], int(r["deal"])): int(r["greedy_won"]) for r in csv.DictReader(handle)
        }
    for rules, table in shipped_deals().items():
        games = [
            (row.difficulty, greedy[(rules, d)])
            for d, row in table.items()
            if row.difficulty and (rules, d) in greedy
        ]
        print(row_of(f"{rules}, greedy, every solver-won shipped deal", games))


def part(text: str) -> tuple[int, int]:
    """ "i/n": the i-th of n parts (0-based), so n processes share one run."""
    i, n = (int(x) for x in text.split("/"))
    if not 0 <= i < n:
        raise argparse.ArgumentTypeError(f"{text}: a part is i/n with 0 <= i < n")
    return i, n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("play", "report"))
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bands", default="easy,hard", help="bands to play, comma-separated")
    parser.add_argument("--per-band", type=int, default=30)
    parser.add_argument("--deals", default="201..1500")
    parser.add_argument("--seed", type=int, default=7, help="the honest player's seed")
    parser.add_argument("--out", type=Path, default=RESULTS / "difficulty-honest-s7.csv")
    parser.add_argument("--part", type=part, default="0/1", help="play part i of n (like 1/2)")
    args = parser.parse_args(argv)
    args.deals = parse_deals(args.deals)
    play(args) if args.command == "play" else report(args)


if __name__ == "__main__":
    main()
