"""The review's walk along a long game: each position copied without its line (what
``review_steps`` does now) against a copy with the whole line (before: quadratic).

A long legal game is built cheaply: Imperial Guards lets any card fill an empty column, so
a lone card moved to an empty column and back makes moves for ever. Only the walk is timed
(no solving): ``python benchmarks/review_steps.py [moves ...]``. Then the widget's answer to a
click in the replay viewer (a seek) while a review solves in the background, against none:
the review holds the lock only to publish one move, so a click does not wait for a solve.
"""

from __future__ import annotations

import statistics
import sys
import time

from milligan_widget import Game, strategy
from milligan_widget.analysis.review import _positions
from milligan_widget.widget import MilliganWidget


def long_game(moves: int) -> Game:
    """A legal game of at least ``moves`` moves: a lone card shuttled between two columns."""
    for seed in range(1, 500):
        game = Game.new(seed, "imperial-guards")
        tableau = [
            m
            for m in game.legal_moves
            if m.source.startswith("t") and (m.target or "").startswith("t")
        ]
        if not tableau:
            continue
        game.play(tableau[0])  # a column is empty now
        empty = next(i for i, column in enumerate(game.column_codes) if not column)
        lone = next((i for i, column in enumerate(game.column_codes) if len(column) == 1), None)
        if lone is None:
            continue
        a, b = lone + 1, empty + 1
        while len(game.history) < moves:
            game.play(f"{a}>{b}")
            a, b = b, a
        return game
    raise RuntimeError("no deal found")


def walk(game: Game, with_line: bool) -> float:
    start = time.perf_counter()
    if with_line:  # the old walk: each position copied with its whole line
        step = game.position_after(0)
        for move in game.history:
            step.copy()
            _ = step.status
            step.play(move)
    else:
        for _ in _positions(game):
            pass
    return time.perf_counter() - start


def seeks(widget: MilliganWidget, count: int = 60) -> list[float]:
    """Milliseconds each of ``count`` seek requests takes to be answered."""
    moves, took = widget.view["replay"]["count"] + 1, []
    for n in range(count):
        start = time.perf_counter()
        widget._on_custom_msg(widget, {"type": "seek", "ply": (n * 7) % moves})
        took.append((time.perf_counter() - start) * 1000)
        time.sleep(0.02)
    return took


def seek_while_reviewing() -> None:
    lost = strategy.play_game(Game.new(2), strategy.greedy, max_moves=400)
    widget = MilliganWidget(game=lost, stats=False, autosave=False, replay_viewer=True)
    idle = seeks(widget)
    widget.review(time_limit=2.0, samples=8)  # real solving, in the background
    busy = seeks(widget)
    widget.stop()
    widget.wait(30)
    for name, took in (("no review", idle), ("review solving", busy)):
        print(f"seek answered, {name:>14}: median {statistics.median(took):5.2f} ms, "
              f"max {max(took):6.2f} ms")  # fmt: skip


def main() -> None:
    for moves in [int(a) for a in sys.argv[1:]] or [500, 2_000, 8_000]:
        game = long_game(moves)
        old, new = walk(game, True), walk(game, False)
        print(f"{moves:>6} moves: with the line {old * 1000:8.1f} ms, without {new * 1000:8.1f} ms")
    seek_while_reviewing()


if __name__ == "__main__":
    main()
