"""The honest player: a strategy that plays from what it can see, never reading the stock
or the face-down cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.search.greedy import greedy
from milligan_widget.search.solver import WINNABLE, SolveResult, solve

from .evaluate import Seen
from .hint import fallback_line, honest_plan
from .planner import Settings, next_row_plan
from .sampler import check_budget
from .sampling import visible_view

PLANNERS = ("hop", "next-row")  #: hindsight optimisation (today's default), across the deal
ENDGAME_NODES = 1_000_000  #: the solver's positions once nothing is hidden (about a second)


def honest(
    samples: int = 8,
    time_limit: float | None = None,
    node_limit: int | None = 20_000,
    seed: int | None = 0,
    planner: str = "hop",
    settings: Settings | None = None,
) -> Callable[[Game], Move | None]:
    """A strategy that plays from what it can see: before each revealing move (a deal, or a
    move turning up a face-down card) it plays the line :func:`.analysis.honest_plan` judges
    best on ``samples`` sampled stocks (``node_limit`` positions a solve and, if given,
    ``time_limit`` seconds for each decision), then that move. Once nothing is hidden it
    follows the thoughtful solver's line (the player sees all it knows: :data:`ENDGAME_NODES`
    positions, or ``time_limit`` seconds), or greedy where it finds none. Each decision's
    samples come from ``seed`` and the move number, never from the deal.

    Without ``time_limit`` (the default) the player counts positions, not seconds: the same
    deal and seed give the same game on any machine, however loaded.

    ``planner="next-row"`` judges the candidate lines across the next deal instead
    (:func:`.planner.next_row_plan` with ``settings``; ``samples`` and the budgets then only
    apply once nothing is hidden).

    >>> from milligan_widget import Game
    >>> player = honest(samples=2, node_limit=5_000)
    >>> player(Game.new(27)) in Game.new(27).legal_moves
    True
    """
    check_budget(Game.new(1), samples, time_limit, node_limit)
    if planner not in PLANNERS:
        raise ValueError(f"planner must be one of {', '.join(PLANNERS)}, not {planner!r}")
    settings = settings or Settings()
    planned: dict[tuple[int, int], Move] = {}  # (id of the game, ply) -> the planned move

    def queue(game: Game, moves: tuple[Move, ...]) -> Move | None:
        planned.clear()
        for i, move in enumerate(moves):
            planned[(id(game), game.ply + i)] = move
        return moves[0] if moves else None

    def honest_player(game: Game) -> Move | None:
        move = planned.get((id(game), game.ply))
        if move is not None and game.is_legal(move):
            return move
        if game.status != "playing":
            return None
        decision_seed = (
            None if seed is None else random.Random(f"{seed}/{game.ply}").getrandbits(63)
        )
        if visible_view(game).hidden == 0:
            result = endgame_solve(game, time_limit)
            return queue(game, result.moves) if result.status == WINNABLE else greedy(game)
        if planner == "next-row":
            row_seed = Seen.of(game).seed("next-row") if decision_seed is None else decision_seed
            best = next_row_plan(game, settings, row_seed).best
            return queue(game, best.all_moves or fallback_line(game, decision_seed))
        plan = honest_plan(game, samples, time_limit, node_limit, decision_seed)
        return queue(game, plan.best.line.all_moves or fallback_line(game, decision_seed))

    return honest_player


__all__ = ["PLANNERS", "honest"]


def endgame_solve(game: Game, time_limit: float | None) -> SolveResult:
    """The thoughtful solve of a position with nothing hidden: ``time_limit`` seconds, or
    :data:`ENDGAME_NODES` positions without one."""
    if time_limit is None:
        return solve(game, math.inf, ENDGAME_NODES)
    return solve(game, time_limit)
