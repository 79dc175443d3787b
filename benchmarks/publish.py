"""The widget's Python side of one move: a front-end request handled and the new view
published, without a browser (what ``benchmarks/widget.py`` measures adds the websocket and
the DOM on top).

A game of deal 27 is driven through the widget's message handler, 300 requests (the first
legal move each time, a deal when nothing else is legal), with auto-save on; the figure is
milliseconds per request, the median of ``--runs`` games, for the first and the second half
of the game (costs that grow with the history show there).

With ``--coach`` the same games are played with the live coach off and on, side by side
(``--requests`` moves each, ``--pause`` seconds between two moves, as a player takes): with
it on, each move is judged in the background and the figure says whether the request waits.
A second figure counts from the end of each pause, as a kernel woken by a message: a thread
that wakes while another holds Python's lock (the GIL) waits for it, up to the 5 ms switch
interval and more.

Run:  python benchmarks/publish.py [--runs 7] [--coach [--requests 60] [--pause 0.5]]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def drive(widget, requests: int = 300, pause: float = 0.0) -> tuple[float, float, float]:
    """Play ``requests`` moves through the handler (``pause`` seconds between two); ms per
    request in each half, and per request from the end of the pause (the moment a kernel's
    message would wake it: what a thread waits for the interpreter then counts too)."""
    widget.new_game(27)
    times, woken = [], []
    for i in range(requests):
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
        due = time.perf_counter() + (pause if i else 0.0)
        if i:
            time.sleep(pause)
        start = time.perf_counter()
        widget._on_custom_msg(widget, message)
        end = time.perf_counter()
        times.append(end - start)
        woken.append(end - due)
    half = len(times) // 2
    return (
        1000 * statistics.mean(times[:half]),
        1000 * statistics.mean(times[half:]),
        1000 * statistics.mean(woken),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--coach", action="store_true", help="the coach off and on, side by side")
    parser.add_argument("--requests", type=int, default=60, help="moves per game with --coach")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between moves (--coach)")
    args = parser.parse_args()
    if args.coach:
        return coach_side_by_side(args.runs, args.requests, args.pause)
    os.environ.setdefault("MILLIGAN_WIDGET_DATA", tempfile.mkdtemp())
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=27, autosave="benchmark", stats=False)
    runs = [drive(widget)[:2] for _ in range(args.runs)]
    widget.wait()
    widget.close()
    first, second = (statistics.median(half) for half in zip(*runs, strict=True))
    print(f"Python per request (median of {args.runs} games of deal 27, auto-save on):")
    print(f"  moves 1-150:   {first:.3f} ms")
    print(f"  moves 151-300: {second:.3f} ms")


def coach_side_by_side(runs: int, requests: int, pause: float) -> None:
    """The same games with the coach off and on, alternately; ms per request."""
    os.environ.setdefault("MILLIGAN_WIDGET_DATA", tempfile.mkdtemp())
    from milligan_widget import MilliganWidget

    figures: dict[bool, list[float]] = {False: [], True: []}
    woken: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(runs):
        for coach in (False, True):
            widget = MilliganWidget(seed=27, autosave="benchmark", stats=False, coach=coach)
            first, second, wake = drive(widget, requests, pause)
            figures[coach].append(statistics.mean((first, second)))
            woken[coach].append(wake)
            judged = len(widget.coach_log)
            widget.close()
    off, on = (statistics.median(figures[coach]) for coach in (False, True))
    print(f"Python per request, deal 27, {requests} moves {pause:g} s apart, median of {runs}:")
    print(f"  coach off: {off:.3f} ms")
    print(f"  coach on:  {on:.3f} ms ({on / off:.2f}x; {judged} moves judged in the last game)")
    print(f"  on/off, game by game: {spread(figures)}; off/off, one game to the next: "
          f"{spread({False: figures[False][:-1], True: figures[False][1:]})}")
    off, on = (statistics.median(woken[coach]) for coach in (False, True))
    print("From the end of the pause (the wake-up and the interpreter's lock counted too):")
    print(f"  coach off: {off:.3f} ms")
    print(f"  coach on:  {on:.3f} ms ({on / off:.2f}x)")


def spread(figures: dict[bool, list[float]]) -> str:
    """The ratios of the paired games (on over off), smallest to largest: the noise beside
    the effect."""
    ratios = sorted(b / a for a, b in zip(figures[False], figures[True], strict=False))
    return " ".join(f"{r:.2f}" for r in ratios)


if __name__ == "__main__":
    main()
