"""Face-down cards that can never turn up: a lost position a player can see is lost.

In Milligan Harp and Yukon some cards lie face down until the cards above them move away.
Once the stock is out, nothing else reveals a card, and the moves that turn up no card (the
*quiet* moves) reach the same positions whatever the face-down cards are. If none of those
positions has a move that turns one up, they stay down for good, and as a card goes home only
face up, the game cannot be won. A player who sees the board can know that: the test reads no
hidden card (it runs on a determinization), so every honest answer may use it.

>>> from milligan_widget.teaching.lessons import stage
>>> tableau = ["QC KH", "QC KH", "QH KC", "QH KC", "QD KS", "QD KS", "JS KD QS", "QS JS KD"]
>>> game = stage(tableau, rules="milligan-harp", rest_in_stock=False, face_down=[1] * 7 + [2])
>>> game.status, [str(move) for move in game.legal_moves], buried_for_good(game)
('playing', ['7>1', '7>2', '7>8'], True)

The Q♠ can go back and forth between the K♦s, but no card ever turns up.
"""

from __future__ import annotations

import random

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move

from .sampling import determinize, visible_view

REACH = 4_000  #: positions the test may visit before it gives up proving anything


def quiet_moves(game: Game) -> list[tuple[Move, bool]]:
    """The moves that do not deal, each with whether it turns up a face-down card."""
    down = sum(game.face_down)
    moves = []
    for move in game.legal_moves:
        if move.is_deal:
            continue
        action = game.action(move)
        game.apply_action(action)
        turns_up = sum(game.face_down) < down
        game.unapply_action(action)
        moves.append((move, turns_up))
    return moves


def buried_for_good(game: Game, reach: int = REACH) -> bool:
    """True when ``game`` has a face-down card, nothing left to deal, and no line of quiet
    moves leads to a move that turns a card up: proven from what the player sees, within
    ``reach`` positions (beyond them, False: not proven). The game is not changed."""
    view = visible_view(game)
    if view.stock_count or not any(view.face_down):
        return False
    probe = determinize(view, random.Random(0))  # what is hidden never matters here
    seen, todo = {probe.position_key()}, [probe]
    while todo:
        position = todo.pop()
        for move, turns_up in quiet_moves(position):
            if turns_up:
                return False
            child = position.copy(history=False)
            child.play(move)
            key = child.position_key()
            if key not in seen:
                if len(seen) >= reach:
                    return False
                seen.add(key)
                todo.append(child)
    return True
