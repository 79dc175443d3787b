"""How soon the live coach's judgement of a move lands after the move (issue 34, "Speed").

With the coach on (peek off), every move is judged in the background: the move played and
the first moves of the honest candidate lines, weighed on the same sampled stocks
(:func:`milligan_widget.analysis.judge.judge_move`). This plays moves on classic deals in a
widget with no browser: deals 1, 2, ... (``--deals``), on each the greedy strategy's moves
(a deal from the stock when it has none), judging every ``--every``-th of the first
``--moves`` (so the game reaches its middle, where most choices are), and times each judged
move from the call to ``widget.play`` until its judgement is in ``widget.coach_log``: what
the player waits for. The moves between are played with the coach off. The target: within
3 s (median).

Run:  python benchmarks/coach_latency.py [--deals 6] [--moves 60] [--every 6] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from milligan_widget import Game, Move  # noqa: E402
from milligan_widget.strategy import greedy  # noqa: E402
from milligan_widget.widget import MilliganWidget  # noqa: E402

TARGET = 3.0  # seconds: a judgement after its move, median


def next_move(game: Game) -> Move:
    return greedy(game) or Move.deal()


def judged_in(widget: MilliganWidget, ply: int, timeout: float = 60.0) -> float:
    """Play the next move with the coach on; seconds until its judgement is in."""
    widget.coach = True
    start = time.perf_counter()
    widget.play(next_move(widget.game))
    while not any(j.ply == ply for j in widget.coach_log):
        if time.perf_counter() - start > timeout:
            raise RuntimeError(f"no judgement of move {ply + 1} within {timeout} s")
        time.sleep(0.005)
    seconds = time.perf_counter() - start
    widget.coach = False
    return seconds


def measure(deals: int, moves: int, every: int) -> dict[str, Any]:
    times: list[float] = []
    labels: Counter[str] = Counter()
    for deal in range(1, deals + 1):
        widget = MilliganWidget(seed=deal, stats=False, autosave=False)
        for ply in range(moves):
            if widget.game.status != "playing":
                break
            if ply % every == every - 1:
                times.append(judged_in(widget, ply))
                labels[widget.coach_log[-1].label] += 1
            else:
                widget.play(next_move(widget.game))
        widget.close()
    ordered = sorted(times)
    return {
        "judged": len(times),
        "median": round(statistics.median(ordered), 3),
        "p90": round(ordered[(len(ordered) * 9) // 10], 3),
        "max": round(ordered[-1], 3),
        "labels": dict(labels),
        "target_median": TARGET,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--every", type=int, default=6)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    result = measure(args.deals, args.moves, max(1, args.every))
    print(f"The coach's judgement after a move ({result['judged']} moves judged, classic):")
    print(f"  median {result['median']} s, p90 {result['p90']} s, max {result['max']} s"
          f" (target: median within {TARGET:g} s)")  # fmt: skip
    print(f"  labels: {result['labels']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
