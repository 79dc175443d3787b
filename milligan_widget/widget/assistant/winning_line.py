"""The winning line remembered for the game on show, position by position.

A win that a hint, the "still winnable?" check, Think longer or the solution finds is kept
with every position along it, so that at any of them the next move is known at once, with no
solve.

>>> from milligan_widget import Game, Move
>>> game = Game.new(5)
>>> line = WinningLine.along("play", game, (Move.deal(),))
>>> line.rest((1, "play", game.exact_key()))
(Move('d'),)
>>> line.rest((1, "play", game.after("d").exact_key())) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from milligan_widget.engine import Game, IllegalMoveError, Move
from milligan_widget.widget.assistant.jobs import Key


@dataclass(frozen=True)
class WinningLine:
    """A winning line's moves, and for each position along it (by its mode and piles: the
    line is the game's, whichever number the game has on show) how many of them lead there."""

    moves: tuple[Move, ...] = ()
    at: dict[tuple[str, tuple[Any, ...]], int] = field(default_factory=dict)

    @classmethod
    def along(cls, mode: str, game: Game, moves: tuple[Move, ...]) -> WinningLine:
        """The line ``moves`` played from ``game``, shown in the mode named ``mode``."""
        board = game.copy(history=False)
        at: dict[tuple[str, tuple[Any, ...]], int] = {}
        for ply, move in enumerate(moves):
            at[(mode, board.exact_key())] = ply  # a position met twice: the shorter rest
            try:
                board.play(move)
            except IllegalMoveError:
                break
        return cls(tuple(moves), at)

    def rest(self, position: Key) -> tuple[Move, ...] | None:
        """The rest of the line from ``position``, if it is on it."""
        if not self.at:  # no line: skip hashing the position's whole history
            return None
        played = self.at.get(position[1:])
        return None if played is None else self.moves[played:]


NO_LINE = WinningLine()
