"""Hints along winning lines, and the memory of a solve: two figures of issue 14.

    python benchmarks/hints.py [--deals 1..20] [--every 20] [--hint-time 2] [--workers 2]

For each classic deal the solver is given ``--line-time`` seconds (default 10) for a winning
line; every ``--every``-th position along the line then asks :func:`advice.hint` with the
widget's hint budget (``--hint-time``, default 2 s), and the figure is the share of those
hints that come from the solver rather than the heuristic. Positions are spread over the
workers; each worker is a fresh process, so its peak RSS (``ru_maxrss``) is also the memory
a solve of that length needs: the largest is printed, and a 10 s solve of deal 1 is measured
alone too.
"""

from __future__ import annotations

import argparse
import resource
import statistics
from concurrent.futures import ProcessPoolExecutor

from milligan_widget.studies.study import parse_deals


def _line(deal: int, seconds: float) -> list[str]:
    from milligan_widget import Game
    from milligan_widget.search import solver

    result = solver.solve(Game.new(deal), time_limit=seconds)
    return [str(move) for move in result.moves] if result.status == solver.WINNABLE else []


def _hint_at(deal: int, moves: list[str], seconds: float) -> tuple[str, float]:
    """The hint's source at the position after ``moves`` of ``deal``, and its seconds."""
    import time

    from milligan_widget import Game
    from milligan_widget.analysis import advice

    game = Game.new(deal)
    for move in moves:
        game.play(move)
    start = time.perf_counter()
    found = advice.hint(game, time_limit=seconds)
    return (found.source if found else "none"), time.perf_counter() - start


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _solve_peak(deal: int, seconds: float) -> tuple[str, float]:
    from milligan_widget import Game
    from milligan_widget.search import solver

    status = solver.solve(Game.new(deal), time_limit=seconds).status
    return status, _peak_mb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1..20"))
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--line-time", type=float, default=10.0)
    parser.add_argument("--hint-time", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    with ProcessPoolExecutor(1, max_tasks_per_child=1) as alone:
        status, peak = alone.submit(_solve_peak, 1, args.line_time).result()
    print(f"peak RSS of a {args.line_time:g} s classic solve (deal 1, {status}): {peak:.0f} MB")

    with ProcessPoolExecutor(args.workers) as pool:
        limits = [args.line_time] * len(args.deals)
        lines = dict(zip(args.deals, pool.map(_line, args.deals, limits), strict=True))
        jobs = [
            pool.submit(_hint_at, deal, line[:ply], args.hint_time)
            for deal, line in lines.items()
            for ply in range(0, len(line), args.every)
        ]
        answers = [job.result() for job in jobs]
        peaks = list(pool.map(_peak_mb_of_worker, range(args.workers)))
    won = [deal for deal, line in lines.items() if line]
    from_solver = sum(source == "solver" for source, _ in answers)
    seconds = [spent for _, spent in answers]
    print(f"classic deals {args.deals[0]}..{args.deals[-1]}: {len(won)} won in "
          f"{args.line_time:g} s; {len(answers)} positions along their lines (every "
          f"{args.every}th)")  # fmt: skip
    print(f"hints from the solver at {args.hint_time:g} s: {from_solver}/{len(answers)} "
          f"({100 * from_solver / max(1, len(answers)):.1f}%); median hint "
          f"{statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s")  # fmt: skip
    print(f"largest worker peak RSS: {max(peaks):.0f} MB")


def _peak_mb_of_worker(_: int) -> float:
    return _peak_mb()


if __name__ == "__main__":
    main()
