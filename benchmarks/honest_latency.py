"""How soon the honest indicator shows its first chance after a move (issue 24, "Speed").

With peek off and "Winnable?" on, every move starts a background estimate of the chance to
win from what the player sees (:func:`milligan_widget.analysis.win_chance`, 16 sampled
stocks, within the indicator's 3 s). This plays ``--moves`` moves on each of ``--deals``
classic deals (a deal from the shipped table, deals 1, 2, ...; each move the greedy
strategy's, a deal from the stock when it has none) in a widget with no browser, and times
each move from the call to ``widget.play`` until the ``analysis`` trait says "chance" for
the new position: what the player waits for; then it times Hint (``widget.hint()``, the
honest hint, asked once a position) there. The targets: the chance within 1 s of a move
(median), Hint within 2 s (p95).

Run:  python benchmarks/honest_latency.py [--deals 8] [--moves 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from milligan_widget import Game, Move  # noqa: E402
from milligan_widget.strategy import greedy  # noqa: E402
from milligan_widget.widget import MilliganWidget  # noqa: E402

TARGET = 1.0  # seconds: the chance after a move, median
HINT_TARGET = 2.0  # seconds: a hint, p95


class FirstChance:
    """Waits for the widget's first "chance" analysis after a mark."""

    def __init__(self, widget: MilliganWidget) -> None:
        self.arrived = threading.Event()
        widget.observe(self._seen, names="analysis")

    def _seen(self, change: dict[str, Any]) -> None:
        if change["new"].get("state") == "chance":
            self.arrived.set()

    def time(self, act: Any, timeout: float = 30.0) -> float:
        self.arrived.clear()
        start = time.perf_counter()
        act()
        if not self.arrived.wait(timeout):
            raise RuntimeError(f"no honest chance within {timeout} s")
        return time.perf_counter() - start


def next_move(game: Game) -> Move:
    return greedy(game) or Move.deal()


def figures(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median": round(statistics.median(ordered), 3),
        "p10": round(ordered[len(ordered) // 10], 3),
        "p90": round(ordered[(len(ordered) * 9) // 10], 3),
        "p95": round(ordered[(len(ordered) * 19) // 20], 3),
        "max": round(ordered[-1], 3),
    }


def time_hint(widget: MilliganWidget) -> float:
    start = time.perf_counter()
    widget.hint()
    return time.perf_counter() - start


def measure(deals: int, moves: int) -> dict[str, Any]:
    times: list[float] = []
    hints: list[float] = []
    for deal in range(1, deals + 1):
        widget = MilliganWidget(seed=deal, check_winnable=True, stats=False, autosave=False)
        waiter = FirstChance(widget)
        widget.wait(30)  # the opening's own chance first: it is not a move's
        for _ in range(moves):
            if widget.game.status != "playing":
                break
            move = next_move(widget.game)
            times.append(waiter.time(functools.partial(widget.play, move)))
            widget.wait(30)
            if widget.game.status == "playing":
                hints.append(time_hint(widget))
        widget.close()
    return {
        "deals": deals,
        "moves_timed": len(times),
        "first_chance_s": figures(times),
        "target_s": TARGET,
        "within_target": statistics.median(times) <= TARGET,
        "hint_s": figures(hints),
        "hint_target_p95_s": HINT_TARGET,
        "hint_within_target": figures(hints)["p95"] <= HINT_TARGET,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=8, help="classic deals 1..N")
    parser.add_argument("--moves", type=int, default=5, help="moves timed on each deal")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    text = json.dumps(measure(max(1, args.deals), max(1, args.moves)), indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
