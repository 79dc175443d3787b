"""The catalogue of players (strategies: functions from a position to a move), and playing
many deals with one.

A strategy is any callable ``strategy(game) -> Move | None``; ``None`` gives up. The built-in
ones live with what they know: :func:`greedy` and its :func:`hint` with the search
(:mod:`milligan_widget.search.greedy`), :func:`honest` with the analysis
(:mod:`milligan_widget.analysis.honest`). They never walk back into a position already reached
since the last deal, so a game they play always ends: won, or lost as docs/rules.md §2.8
defines it.

>>> from milligan_widget import Game
>>> results = play_games(greedy, seeds=range(1, 3), progress=False)
>>> [r.seed for r in results]
[1, 2]
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .analysis.honest import honest
from .engine.game import Game
from .engine.moves import Move
from .engine.rules import Rules
from .search.greedy import greedy, position_score
from .search.greedy import greedy_hint as hint

Strategy = Callable[[Game], "Move | None"]


def random_player(rng: _random.Random | None = None) -> Strategy:
    """A strategy playing a uniformly random move that reaches a new position."""
    rng = rng or _random.Random()

    def random_player(game: Game) -> Move | None:
        moves = game.new_position_moves()
        return rng.choice(moves) if moves else None

    return random_player


@dataclass(frozen=True)
class GameResult:
    """How one deal went under a strategy."""

    seed: int
    won: bool
    status: str
    foundation_cards: int
    moves: int


def play_game(game: Game, strategy: Strategy, max_moves: int = 2000) -> Game:
    """Let ``strategy`` play ``game`` until it is over, gives up or ``max_moves`` are played."""
    while game.ply < max_moves:
        if not game.can_deal and game.status != "playing":
            break
        move = strategy(game)
        if move is None:
            break
        game.play(move)
    return game


def play_games(
    strategy: Strategy,
    seeds: Iterable[int] = range(1, 101),
    rules: str | Rules = "classic",
    max_moves: int = 2000,
    progress: bool = True,
) -> list[GameResult]:
    """Play every numbered deal in ``seeds`` with ``strategy``; with ``progress``, a progress
    bar named after the strategy."""
    seeds = list(seeds)
    if progress:
        from tqdm.auto import tqdm  # no type hints: Any (see pyproject.toml)

        name = getattr(strategy, "__name__", "strategy").replace("_", " ")
        seeds = tqdm(seeds, desc=name, unit="deal")
    results = []
    for seed in seeds:
        game = play_game(Game.new(seed, rules), strategy, max_moves)
        status = game.status
        results.append(GameResult(seed, status == "won", status, game.foundation_count, game.ply))
    return results


__all__ = [
    "GameResult",
    "greedy",
    "hint",
    "honest",
    "play_game",
    "play_games",
    "position_score",
    "random_player",
]
