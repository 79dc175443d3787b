"""Win-rate studies: solve many numbered deals and summarise, resumably.

    python -m milligan_widget.study --rules classic --deals 1..1000 --time-limit 10 --workers 2

Each deal is solved in a worker (local processes by default; a Dask cluster with
``--scheduler tcp://host:8786`` when ``dask[distributed]`` is installed). Results are
appended to a CSV file as they arrive, so an interrupted study resumes where it stopped,
and a summary gives the share of winnable, unwinnable and unknown deals with 95% intervals.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from .game import Game
from .rules import PRESETS
from .solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

FIELDS = ("rules", "deal", "status", "seconds", "nodes", "moves", "greedy_won")


def solve_deal(rules: str, deal: int, time_limit: float) -> dict:
    """One row of a study: the solver's verdict on a deal, and whether greedy play wins it."""
    from .strategy import greedy, play_game

    result = solve(Game.new(deal, rules), time_limit=time_limit)
    greedy_game = play_game(Game.new(deal, rules), greedy)
    return {
        "rules": rules,
        "deal": deal,
        "status": result.status,
        "seconds": round(result.seconds, 3),
        "nodes": result.nodes,
        "moves": len(result.moves),
        "greedy_won": int(greedy_game.status == "won"),
    }


def parse_deals(text: str) -> list[int]:
    """``"1..1000"``, ``"5"`` or ``"1..10,20..30"`` as a list of deal numbers."""
    deals: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("..")
        try:
            deals.extend(range(int(first), int(last or first) + 1))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not a deal range like 1..1000") from None
    return deals


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval for a proportion."""
    if total == 0:
        return (0.0, 1.0)
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Summary:
    """Counts of a study's results, with intervals."""

    rules: str
    deals: int
    winnable: int
    unwinnable: int
    unknown: int
    greedy_won: int

    def lines(self) -> list[str]:
        def share(count: int) -> str:
            low, high = wilson(count, self.deals)
            interval = f"95% CI {100 * low:.1f}–{100 * high:.1f}%"
            return f"{count:5d}  {100 * count / self.deals:5.1f}%  ({interval})"

        return [
            f"{self.rules}: {self.deals} deals",
            f"  winnable   {share(self.winnable)}",
            f"  unwinnable {share(self.unwinnable)}",
            f"  unknown    {share(self.unknown)}",
            f"  greedy won {share(self.greedy_won)}",
        ]


def summarise(rows: Iterable[dict], rules: str) -> Summary:
    rows = [r for r in rows if r["rules"] == rules]
    count = lambda status: sum(1 for r in rows if r["status"] == status)  # noqa: E731
    greedy = sum(int(r["greedy_won"]) for r in rows)
    return Summary(rules, len(rows), count(WINNABLE), count(UNWINNABLE), count(UNKNOWN), greedy)


def read_results(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def run_study(
    rules: str,
    deals: list[int],
    time_limit: float,
    executor: Executor,
    path: Path,
    progress: bool = True,
) -> Summary:
    """Solve every deal not yet in ``path`` and append each result as it arrives."""
    done = {int(r["deal"]) for r in read_results(path) if r["rules"] == rules}
    todo = [deal for deal in deals if deal not in done]
    new_file = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        if new_file:
            writer.writeheader()
        for row in _as_they_come(executor, rules, todo, time_limit, progress):
            writer.writerow(row)
            handle.flush()
    wanted = set(deals)
    return summarise((r for r in read_results(path) if int(r["deal"]) in wanted), rules)


def _as_they_come(executor, rules, deals, time_limit, progress) -> Iterator[dict]:
    futures = [executor.submit(solve_deal, rules, deal, time_limit) for deal in deals]
    finished = as_completed(futures)
    if progress:
        from tqdm.auto import tqdm

        finished = tqdm(finished, total=len(futures), desc=rules, unit="deal")
    for future in finished:
        yield future.result()


def make_executor(workers: int, scheduler: str | None) -> Executor:
    if scheduler:
        try:
            from dask.distributed import Client
        except ImportError:
            raise SystemExit(
                "--scheduler needs Dask: pip install 'milligan-widget[dask]'"
            ) from None
        return Client(scheduler).get_executor()
    return ProcessPoolExecutor(max_workers=workers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m milligan_widget.study", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--rules", default="classic", help=f"a preset, or 'all' ({', '.join(PRESETS)})"
    )
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1..100"))
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", help="address of a Dask scheduler")
    parser.add_argument("--out", type=Path, default=Path("study.csv"), help="results CSV (resumed)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    presets = list(PRESETS) if args.rules == "all" else [args.rules]
    for name in presets:
        if name not in PRESETS:
            parser.error(f"{name!r} is not a preset")
    with make_executor(args.workers, args.scheduler) as executor:
        for name in presets:
            summary = run_study(
                name, args.deals, args.time_limit, executor, args.out, not args.quiet
            )
            print("\n".join(summary.lines()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
