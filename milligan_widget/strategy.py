"""Strategies (functions from a position to a move), hints, and playing many deals.

A strategy is any callable ``strategy(game) -> Move | None``; ``None`` gives up. The two
built in never walk back into a position already reached since the last deal, so a game they
play always ends: won, or lost as docs/rules.md §2.8 defines it.

>>> from milligan_widget import Game
>>> results = play_games(greedy, seeds=range(1, 3), progress=False)
>>> [r.seed for r in results]
[1, 2]
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .cards import CARDS
from .game import Game
from .moves import Move
from .rules import Rules

Strategy = Callable[[Game], "Move | None"]


def _evaluate(game: Game) -> float:
    """How promising a position looks to a player who cannot see the stock (higher is better)."""
    score = 100.0 * game.foundation_count
    columns = zip(game.column_codes, game.runs, game.face_down, strict=True)
    for col, run, down in columns:
        if not col:
            score += 12.0
            continue
        # Cards under the movable run are buried: low ones hurt most. A face-down card is
        # unknown to this player: it weighs as an average card.
        buried = col[: len(col) - run]
        for depth, card in enumerate(reversed(buried)):
            weight = 7 if depth >= len(buried) - down else 14 - (card >> 2)
            score -= weight * (1.0 + 0.25 * depth)
        score += 2.0 * run
    score -= 6.0 * len(game.reserve_codes) + 4.0 * sum(1 for c in game.cell_codes if c >= 0)
    return score


def position_score(game: Game) -> float:
    """The greedy evaluation of ``game``'s position (higher is better): what a player who
    cannot see the stock or the face-down cards may judge it by.

    >>> from milligan_widget import Game
    >>> position_score(Game.new(1)) < position_score(Game.new(1).after("d"))
    False
    """
    return _evaluate(game)


def _scored_moves(game: Game) -> list[tuple[float, Move]]:
    """(score of the position after, move) for every non-deal move to a new position."""
    seen, scored = game.line_keys(), []
    for move in game.legal_moves:
        if move.is_deal:
            continue
        action = game.action(move)
        game.apply_action(action)
        if game.position_key() not in seen:
            scored.append((_evaluate(game), move))
        game.unapply_action(action)
    return scored


def greedy(game: Game) -> Move | None:
    """Play the move that most improves :func:`_evaluate`; deal when nothing improves it;
    once the stock is empty, take the best move to a new position."""
    choice = _greedy_choice(game)
    return None if choice is None else choice[0]


def _greedy_choice(game: Game) -> tuple[Move, str] | None:
    safe = game.safe_foundation_moves()
    if safe:
        return safe[0], "it is always safe to play this card to its foundation"
    scored = _scored_moves(game)
    best = max(scored, key=lambda pair: pair[0], default=None)
    here = _evaluate(game)
    if best is not None and best[0] > here:
        return best[1], _why(game, best[1])
    if game.can_deal:
        return Move.deal(), "no move improves the position: deal the next row"
    if best is not None:
        return best[1], "the stock is empty: this is the most promising move left"
    return None


def _why(game: Game, move: Move) -> str:
    """Why a move helps, in words."""
    if move.target is None:
        return "deal the next row"
    if move.target.startswith("f"):
        return "it builds a foundation"
    after = game.after(move)
    if move.source.startswith("t"):
        src = int(move.source[1:]) - 1
        col = after.column_codes[src]
        if after.face_down[src] < game.face_down[src]:  # never name it before it turns up
            return "it turns up a face-down card"
        if not col:
            return "it empties a column, a space for a King"
        uncovered = CARDS[col[-1]].unicode
        if after.foundation_for(col[-1]) is not None:
            return f"it frees {uncovered} for a foundation"
        return f"it uncovers {uncovered}"
    if move.target == "reserve":
        return "setting these cards aside uncovers a card you need"
    return "it tidies the tableau"


def honest(
    samples: int = 8,
    time_limit: float = 5.0,
    node_limit: int | None = 20_000,
    seed: int | None = 0,
) -> Strategy:
    """A strategy that plays from what it can see: before each revealing move (a deal, or a
    move turning up a face-down card) it plays the line :func:`.analysis.honest_plan` judges
    best on ``samples`` sampled stocks (``time_limit`` seconds and ``node_limit`` positions a
    solve for each decision), then that move. Once nothing is hidden it follows the
    thoughtful solver's line (the player sees all it knows), or greedy where it finds none.
    Each decision's samples come from ``seed`` and the move number, never from the deal.

    >>> from milligan_widget import Game
    >>> player = honest(samples=2, node_limit=5_000)
    >>> player(Game.new(27)) in Game.new(27).legal_moves
    True
    """
    from .analysis.chance import check_budget
    from .analysis.hint import fallback_line, honest_plan
    from .analysis.sampling import visible_view
    from .solver import WINNABLE, solve

    check_budget(Game.new(1), samples, time_limit, node_limit)
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
            None if seed is None else _random.Random(f"{seed}/{game.ply}").getrandbits(63)
        )
        if visible_view(game).hidden == 0:
            result = solve(game, time_limit, node_limit)
            return queue(game, result.moves) if result.status == WINNABLE else greedy(game)
        plan = honest_plan(game, samples, time_limit, node_limit, decision_seed)
        return queue(game, plan.best.line.all_moves or fallback_line(game, decision_seed))

    return honest_player


def random_player(rng: _random.Random | None = None) -> Strategy:
    """A strategy playing a uniformly random move that reaches a new position."""
    rng = rng or _random.Random()

    def random_player(game: Game) -> Move | None:
        moves = game.new_position_moves()
        return rng.choice(moves) if moves else None

    return random_player


def hint(game: Game) -> tuple[Move, str] | None:
    """A move the greedy strategy would play here, and why, or ``None``."""
    if game.status != "playing":
        return None
    return _greedy_choice(game)


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
