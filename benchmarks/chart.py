"""The review chart's size and drawing time by game length, and the README's pictures.

    python benchmarks/chart.py              # the table: moves, points drawn, kB, gzipped, ms
    python benchmarks/chart.py --pictures   # also docs/review-light.png and review-dark.png

The table draws made-up reviews (no solver: the chart alone); the pictures review a real
game (greedy on classic deal 3, 16 samples, 1 s a move: about a minute) and screenshot the
chart with Debian's chromium in both themes.
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from milligan_widget import Game
from milligan_widget.analysis import Chance, Review, ReviewEntry, review
from milligan_widget.analysis.chart import review_svg, thinned
from milligan_widget.strategy import greedy, play_game

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def made_up(moves: int) -> Review:
    """A review of ``moves`` moves: a deal every 20, a mistake every 10, lost halfway."""
    entries = tuple(
        ReviewEntry(
            ply,
            "d" if ply % 20 == 0 else "7>2",
            "winnable" if ply <= moves // 2 else "unwinnable",
            Chance(16 - ply % 17, 16),
            "set aside cards that uncover nothing useful" if ply % 10 == 3 else None,
        )
        for ply in range(moves)
    )
    return Review(entries, "unwinnable")


def table(runs: int = 5) -> None:
    print(f"{'moves':>7} {'points':>7} {'kB':>7} {'gzip kB':>8} {'ms (median)':>12}")
    for moves in (75, 400, 2_000, 20_000):
        done = made_up(moves)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            svg = review_svg(done)
            times.append(time.perf_counter() - start)
        packed = len(gzip.compress(svg.encode()))
        points = len(thinned(moves, done.turning_point))
        print(
            f"{moves:>7} {points:>7} {len(svg) / 1000:>7.1f} {packed / 1000:>8.1f} "
            f"{1000 * statistics.median(times):>12.1f}"
        )


def pictures() -> None:
    game = play_game(Game.new(3), greedy, max_moves=400)
    done = review(game, time_limit=1.0, samples=16, node_limit=200_000, seed=1)
    for theme, background in (("light", "#fff"), ("dark", "#1d1f21")):
        svg = review_svg(done, theme=theme)
        height = re.search(r'height="([\d.]+)"', svg).group(1)
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder) / "chart.html"
            page.write_text(
                f'<!DOCTYPE html><meta charset="utf-8"><body style="margin:0;'
                f'background:{background}">{svg}</body>',
                encoding="utf-8",
            )
            target = REPO / "docs" / f"review-{theme}.png"
            command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu"]
            command += ["--hide-scrollbars", f"--screenshot={target}"]
            command += [f"--window-size=720,{height}", page.as_uri()]
            subprocess.run(command, check=True, capture_output=True)
            print(f"wrote {target.relative_to(REPO)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", action="store_true", help="write docs/review-*.png too")
    options = parser.parse_args(argv)
    table()
    if options.pictures:
        pictures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
