"""The winning line remembered for the game on show, position by position.

A win that a hint, the "still winnable?" check, Think longer or the solution finds is kept
with every position along it, so that at any of them the next move is known at once, with no
solve.

>>> from milligan_widget import Game, Move
>>> game = Game.new(5)
>>> line = WinningLine.along(("play", id(game), ()), game, (Move.deal(),))
>>> line.rest(("play", id(game), ()))
(Move('d'),)
>>> line.rest(("play", id(game), ("d",))) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from milligan_widget import Game, IllegalMoveError, Move
from milligan_widget.widget.jobs import Key


@dataclass(frozen=True)
class WinningLine:
    """A winning line's moves, and for each position along it (by its :data:`Key`) how
    many of them lead there."""

    moves: tuple[Move, ...] = ()
    at: dict[Key, int] = field(default_factory=dict)

    @classmethod
    def along(cls, position: Key, game: Game, moves: tuple[Move, ...]) -> WinningLine:
        """The line ``moves`` played from ``game``, whose position is keyed ``position``."""
        mode, ident, history = position
        board, history = game.copy(), list(history)
        at = {}
        for ply, move in enumerate(moves):
            at[(mode, ident, tuple(history))] = ply
            try:
                history.append(board.play(move))
            except IllegalMoveError:
                break
        return cls(tuple(moves), at)

    def rest(self, position: Key) -> tuple[Move, ...] | None:
        """The rest of the line from ``position``, if it is on it."""
        if not self.at:  # no line: skip hashing the position's whole history
            return None
        played = self.at.get(position)
        return None if played is None else self.moves[played:]

    def keyed_for(self, fresh: Game) -> WinningLine:
        """The same line for ``fresh``, a restart of its game: the same deal, so the same
        moves from it lead to the same positions."""
        at = {(mode, id(fresh), moves): ply for (mode, _, moves), ply in self.at.items()}
        return WinningLine(self.moves, at) if at else NO_LINE


NO_LINE = WinningLine()
