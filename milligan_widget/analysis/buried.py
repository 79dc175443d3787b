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
from collections import deque

from milligan_widget.core import make_core
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import TURN_UP, SearchKey

from .sampling import determinize, visible_view

REACH = 100_000  #: positions the test may visit before it gives up proving anything


def quiet_moves(game: Game) -> list[tuple[Move, bool]]:
    """The moves that do not deal, each with whether it turns up a face-down card (its
    action is a TURN_UP, as the search cores' ``turns_up`` reads it)."""
    moves = [move for move in game.legal_moves if not move.is_deal]
    return [(move, game.action(move)[0] == TURN_UP) for move in moves]


def buried_for_good(game: Game, reach: int = REACH) -> bool:
    """True when ``game`` has a face-down card, nothing left to deal, and no line of quiet
    moves leads to a move that turns a card up: proven from what the player sees, within
    ``reach`` positions (beyond them, False: not proven). The game is not changed."""
    return last_cards_home(game, reach) is not None


def last_cards_home(game: Game, reach: int = REACH) -> tuple[Move, ...] | None:
    """Where ``game`` is buried for good (:func:`buried_for_good`), the shortest line to the
    position with the most cards home the quiet moves reach (empty where it is this one);
    else None. What a player does who sees the game is lost: take home what still goes.

    >>> from milligan_widget.teaching.lessons import stage
    >>> tableau = ["QC KH", "QC KH", "QH KC", "QH KC", "QD KS", "QD KS", "JS KD QS", "QS JS KD"]
    >>> last_cards_home(stage(tableau, rules="milligan-harp", rest_in_stock=False,
    ...                       face_down=[1] * 7 + [2]))
    ()
    """
    if game.stock_count or not any(game.face_down):
        return None  # something still turns up (or nothing is down): asked before any copy
    view = visible_view(game)
    core = make_core(determinize(view, random.Random(0)))  # what is hidden never matters here
    root = core.key()
    came_from: dict[SearchKey, tuple[SearchKey, Move] | None] = {root: None}
    best, todo = (core.cards_home(), root), deque([(root, core.snapshot())])
    while todo:
        here, snapshot = todo.popleft()
        core.restore(snapshot)
        for handle in core.moves():
            if core.turns_up(handle):
                return None
            core.play(handle)
            key = core.key()
            if key not in came_from:
                if len(came_from) >= reach:
                    return None
                came_from[key] = (here, core.move_of(handle))
                best = max(best, (core.cards_home(), key), key=lambda b: b[0])
                todo.append((key, core.snapshot()))
            core.undo(handle)
    return _line_to(best[1], came_from)


def _line_to(
    key: SearchKey, came_from: dict[SearchKey, tuple[SearchKey, Move] | None]
) -> tuple[Move, ...]:
    line: list[Move] = []
    step = came_from[key]
    while step is not None:
        key, move = step
        line.append(move)
        step = came_from[key]
    return tuple(reversed(line))
