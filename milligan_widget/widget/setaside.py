"""Games set aside by Restart and New game, which one Undo brings back.

A restart or a new game replaces the player's game; the game it replaced is kept as it was
(its moves, redo list and comments, the win remembered for it, its clock and counters), and
Undo at the start of the game that replaced it brings it back. The newest few are kept.

>>> from milligan_widget import Game
>>> from milligan_widget.widget.assistant.winning_line import NO_LINE
>>> from milligan_widget.widget.scores import Scorecard
>>> old, new = Game.new(5), Game.new(6)
>>> old.play("d")
Move('d')
>>> games = SetAsideGames(20)
>>> games.push(SetAside("new game", old, new, NO_LINE, Scorecard()))
>>> games.replaced_by(new).undone()
'Undone: new game — back to deal #5 after 1 move.'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from milligan_widget.engine import Game
from milligan_widget.widget.assistant.winning_line import WinningLine
from milligan_widget.widget.scores import Scorecard
from milligan_widget.widget.words import moves as _moves


@dataclass(frozen=True)
class SetAside:
    """A game that a restart or a new game replaced, as it was."""

    action: str  # "restart" or "new game": what Undo takes back
    game: Game
    successor: Game  # the game that replaced it
    line: WinningLine  # the win remembered for it
    card: Scorecard  # its clock and counters, for the statistics

    def undone(self) -> str:
        """The message after Undo took back the restart or the new game."""
        game = self.game
        played, redo = len(game.history), len(game.redo_moves)
        if self.action == "restart":
            where = f"move {played}" if played else "the start"
        else:
            deal = f"deal #{game.seed}" if game.seed is not None else "the game you left"
            where = f"{deal} after {_moves(played)}" if played else f"{deal} at its start"
        later = f", with {_moves(redo)} to redo" if redo and not played else ""
        return f"Undone: {self.action} — back to {where}{later}."


class SetAsideGames:
    """The games set aside, newest last (at most ``size``)."""

    def __init__(self, size: int) -> None:
        self._games: deque[SetAside] = deque(maxlen=size)

    def push(self, entry: SetAside) -> None:
        self._games.append(entry)

    def pop(self) -> SetAside:
        return self._games.pop()

    def clear(self) -> None:
        self._games.clear()

    def replaced_by(self, game: Game) -> SetAside | None:
        """The newest game set aside, if ``game`` is the one that replaced it."""
        entry = self._games[-1] if self._games else None
        return entry if entry is not None and entry.successor is game else None
