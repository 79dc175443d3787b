"""Planning across the next deal: each candidate line judged by the rows it might meet.

Hindsight optimisation (:func:`.hint.honest_plan`) solves each sampled stock with every row
known, so a line that needs luck looks as safe as one that does not ("strategy fusion"). Here
the next row is sampled *explicitly*: for each candidate line before the revealing move, and
for each sampled row (the same rows for every candidate: common random numbers), the player
then sees the row and picks the best of a few continuation lines, each judged by a cheap leaf
estimate from what it would see: a few stocks resampled *after* the row, each solved with a
small node budget (``leaf="solve"``), or greedy's play on them (``leaf="greedy"``: won, or
the share of cards it brought home, halved), or no stock at all: the greedy evaluation
(:func:`.search.greedy.position_score`) of where each continuation would deal
(``leaf="score"``; where the row leaves nothing hidden, the solver's verdict). A line's
value is the mean over rows of that best continuation. The rows come in rounds; after each
round only the better half of the candidates gets more rows (the close decisions get them).

Everything starts from :func:`.sampling.visible_view`: the real stock and face-down cards are
never read, and every budget is counted in positions, so a decision depends only on what the
player sees and the seed.

>>> from milligan_widget import Game
>>> plan = next_row_plan(Game.new(27), Settings(rows=2, rounds=1, follow=2), seed=1)
>>> plan.best.all_moves[-1].is_deal, len(plan.values) == len(plan.lines)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.search.greedy import greedy, position_score
from milligan_widget.search.solver import WINNABLE, solve

from .hint import Line, candidate_lines
from .sampling import VisibleView, determinize, visible_view

LEAVES = ("solve", "greedy", "score")
#: the calibrated planner's halvings (:func:`.honest.calibrated_plan`): measured on Millie
#: deals 1..200 against none (docs/win-rates.md)
HALVINGS = 2


@dataclass(frozen=True)
class Settings:
    """How hard a planner looks (every budget in positions or samples, never seconds)."""

    rows: int = 4  #: sampled next rows per round
    rounds: int = 2  #: rounds; after each, the better half of the candidates goes on
    follow: int = 3  #: continuation lines judged after each row
    leaf_samples: int = 2  #: stocks resampled after the row for each continuation
    leaf_nodes: int = 4_000  #: positions each leaf solve may expand
    leaf: str = "solve"  #: "solve", "greedy" or "score"
    #: the calibrated planner's (:func:`.honest.calibrated_plan`): times the better half of
    #: its lines goes on to more sampled stocks
    halvings: int = HALVINGS

    def __post_init__(self) -> None:
        if self.leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, not {self.leaf!r}")
        counts = (self.rows, self.rounds, self.follow, self.leaf_samples, self.leaf_nodes)
        if min(counts) < 1:
            raise ValueError("the planner's rows, rounds, follow, samples and nodes must be >= 1")
        if self.halvings < 0:
            raise ValueError("the planner's halvings must be >= 0")


@dataclass(frozen=True)
class RowPlan:
    """Every candidate line with its value (mean best continuation over the rows it met)."""

    lines: tuple[Line, ...]
    values: tuple[float, ...]
    rows: tuple[int, ...]  #: how many rows each line was judged on

    @property
    def best(self) -> Line:
        return self.lines[0]


def _played(sample: Game, moves: Sequence[Move]) -> Game:
    game = sample.copy(history=False)
    for move in moves:
        game.play(move)
    return game


def _greedy_value(game: Game) -> float:
    """1 if greedy wins from ``game``, else half the share of cards it brings home."""
    total = 13 * game.rules.foundation_count
    for _ in range(2000):
        move = greedy(game) if game.status == "playing" or game.can_deal else None
        if move is None:
            break
        game.play(move)
    return 1.0 if game.status == "won" else 0.5 * game.foundation_count / total


def _leaf(game: Game, settings: Settings) -> float:
    """The leaf estimate of a sampled position: 1 won, 0 lost, else the leaf's judgement."""
    if game.status != "playing" and not game.can_deal:
        return 1.0 if game.status == "won" else 0.0
    if settings.leaf == "greedy":
        return _greedy_value(game)
    result = solve(game, 3600.0, settings.leaf_nodes, shorten_line=False)
    return 1.0 if result.status == WINNABLE else 0.0


def _continuation_value(after: Game, settings: Settings, rng: random.Random) -> float:
    """The best continuation's leaf estimate from ``after`` (a sample just past the
    revealing move): its lines are found on it, judged on stocks resampled from its view."""
    view = visible_view(after)
    if view.hidden == 0:
        return _leaf(after, settings)
    lines = candidate_lines(after, set(), width=max(1, settings.follow - 2), explore=16)
    lines = lines[: settings.follow]
    if settings.leaf == "score":  # the greedy evaluation where each line would deal
        return max(position_score(_played(after, line.moves)) for line in lines)
    stocks = [determinize(view, rng) for _ in range(settings.leaf_samples)]
    best = 0.0
    for line in lines:
        value = sum(_leaf(_played(s, line.all_moves), settings) for s in stocks)
        best = max(best, value / len(stocks))
        if best >= 1.0:
            break
    return best


def _row_values(
    view: VisibleView, lines: Sequence[Line], row: int, settings: Settings, seed: int
) -> list[float]:
    """Each line's best continuation after sampled row ``row`` (the same row for all)."""
    sample = determinize(view, random.Random(f"{seed}/row/{row}"))
    values = []
    for line in lines:
        after = _played(sample, line.all_moves)
        rng = random.Random(f"{seed}/leaf/{row}")  # the same leaf draws for every line
        values.append(_continuation_value(after, settings, rng))
    return values


def next_row_plan(game: Game, settings: Settings = Settings(), seed: int = 0) -> RowPlan:
    """Every candidate line from ``game`` judged across the next deal (see the module's
    docstring), best first; ties keep the candidates' order (greedy's line first)."""
    view = visible_view(game)
    probe = determinize(view, random.Random(f"{seed}/probe"))
    seen = set(game.line_keys()) if not any(view.face_down) else set()
    lines = candidate_lines(probe, seen)
    if len(lines) < 2:
        return RowPlan(tuple(lines), (0.0,) * len(lines), (0,) * len(lines))
    totals, counts = [0.0] * len(lines), [0] * len(lines)
    alive = list(range(len(lines)))
    for round_ in range(settings.rounds):
        for row in range(round_ * settings.rows, (round_ + 1) * settings.rows):
            values = _row_values(view, [lines[i] for i in alive], row, settings, seed)
            for i, value in zip(alive, values, strict=True):
                totals[i] += value
                counts[i] += 1
        alive.sort(key=lambda i: -totals[i] / counts[i])
        alive = alive[: max(2, (len(alive) + 1) // 2)]
        if len(alive) < 2:
            break
    order = sorted(range(len(lines)), key=lambda i: (-counts[i], -totals[i] / counts[i], i))
    return RowPlan(
        tuple(lines[i] for i in order),
        tuple(totals[i] / counts[i] for i in order),
        tuple(counts[i] for i in order),
    )


__all__ = ["HALVINGS", "LEAVES", "RowPlan", "Settings", "next_row_plan"]
