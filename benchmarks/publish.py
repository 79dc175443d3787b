"""The widget's Python side of one move: a front-end request handled and the new view
published, without a browser (what ``benchmarks/widget.py`` measures adds the websocket and
the DOM on top).

A game of deal 27 is driven through the widget's message handler, 300 requests (the first
legal move each time, a deal when nothing else is legal), with auto-save on; the figure is
milliseconds per request, the median of ``--runs`` games, for the first and the second half
of the game (costs that grow with the history show there).

Run:  python benchmarks/publish.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def drive(widget, requests: int = 300) -> tuple[float, float]:
    """Play ``requests`` moves through the handler; ms per request in each half."""
    widget.new_game(27)
    times = []
    for _ in range(requests):
        legal = widget.game.legal_moves
        if not legal:
            break
        move = legal[0] if len(legal) == 1 or not legal[0].is_deal else legal[-1]
        message = (
            {"type": "deal"}
            if move.is_deal
            else {"type": "move", "source": move.source, "target": move.target,
                  "count": move.count or 1}
        )
        start = time.perf_counter()
        widget._on_custom_msg(widget, message)
        times.append(time.perf_counter() - start)
    half = len(times) // 2
    return 1000 * statistics.mean(times[:half]), 1000 * statistics.mean(times[half:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    os.environ.setdefault("MILLIGAN_WIDGET_DATA", tempfile.mkdtemp())
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=27, autosave="benchmark", stats=False)
    runs = [drive(widget) for _ in range(args.runs)]
    widget.wait()
    widget.close()
    first, second = (statistics.median(half) for half in zip(*runs, strict=True))
    print(f"Python per request (median of {args.runs} games of deal 27, auto-save on):")
    print(f"  moves 1-150:   {first:.3f} ms")
    print(f"  moves 151-300: {second:.3f} ms")


if __name__ == "__main__":
    main()
