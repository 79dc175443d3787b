"""How long the widget takes to answer while another program holds the statistics file
locked (``BEGIN EXCLUSIVE`` in another process on a real SQLite file).

Each run starts a fresh deal, deals a row (a deal request), leaves the game for a new one (a
New game request: the game left counts in the statistics) and takes that back (an Undo
request), all through the widget's message handler while the file stays locked; the
figures are milliseconds per request, the median and the slowest of ``--runs`` runs. Once
the lock is let go, the time the games waiting in memory took to be written. The README's
promise: under 50 ms.

Run:  PYTHONPATH=. python benchmarks/stats_lock.py [--runs 7]   (PYTHONPATH: this checkout)
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()  # until the benchmark closes it
db.execute("ROLLBACK")
"""


def timed(widget, request: dict) -> float:
    """Milliseconds the handler takes for ``request``."""
    start = time.perf_counter()
    widget._on_custom_msg(widget, request)
    return 1000 * (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from milligan_widget import MilliganWidget
    from milligan_widget.studies.stats import Stats

    stats = Stats(tempfile.mkdtemp())
    widget = MilliganWidget(seed=27, stats=stats, autosave=False)
    widget.play("d")
    widget.new_game(28)  # the file exists, with one game in it
    widget.wait()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(stats.path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    times: dict[str, list[float]] = {"deal": [], "new": [], "undo": []}
    try:
        for run in range(args.runs):
            widget.new_game(200 + run)  # a game not counted yet
            times["deal"].append(timed(widget, {"type": "deal"}))
            times["new"].append(timed(widget, {"type": "new", "seed": 100 + run}))
            times["undo"].append(timed(widget, {"type": "undo"}))
        waiting = stats.pending
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    start = time.perf_counter()
    widget.wait(60)
    written = time.perf_counter() - start
    widget.close()
    print(f"Requests while another process holds the statistics file locked ({args.runs} runs):")
    for kind, figures in times.items():
        median, slowest = statistics.median(figures), max(figures)
        print(f"  {kind:5} median {median:7.2f} ms, slowest {slowest:7.2f} ms")
    print(f"Games waiting in memory meanwhile: {waiting}; written {written:.2f} s after the lock "
          f"was let go; still waiting: {stats.pending}")  # fmt: skip


if __name__ == "__main__":
    main()
