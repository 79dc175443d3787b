"""The greedy heuristics: how promising a position looks to a player who cannot see the
stock, and the player that always takes the move that looks best. The solver falls back on
them, and so do the honest hints when no sample finds a line.

>>> from milligan_widget import Game
>>> greedy(Game.new(1)) in Game.new(1).legal_moves
True
"""

from __future__ import annotations

from milligan_widget.engine.cards import CARDS
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move


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
    """Play the move that most improves :func:`position_score`; deal when nothing improves it;
    once the stock is empty, take the best move to a new position."""
    choice = _greedy_choice(game)
    return None if choice is None else choice[0]


def greedy_hint(game: Game) -> tuple[Move, str] | None:
    """A move greedy would play here, and why in words, or ``None`` when it has none.

    >>> from milligan_widget import Game
    >>> greedy_hint(Game.new(1).after("d")) is not None
    True
    """
    if game.status != "playing":
        return None
    return _greedy_choice(game)


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


__all__ = ["greedy", "greedy_hint", "position_score"]
