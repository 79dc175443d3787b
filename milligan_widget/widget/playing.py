"""What a player does to their game from Python or the toolbar: play, deal, undo and redo,
Auto, New game, Restart, going to a move, and replaying moves visibly.

Restart and New game can be taken back: the game they replace is set aside as it was
(:mod:`.setaside`), and Undo at the start of the game that replaced it brings it back.

>>> from milligan_widget import Game
>>> from milligan_widget.widget.table import Table
>>> table = Table(Game.new(8), lambda frame: None, stats=None)
>>> playing = Playing(table)
>>> playing.deal(); playing.restart(); playing.undo() is None  # Undo takes back the restart
Move('d')
True
>>> table.game.ply
1
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from pathlib import Path

from milligan_widget.analysis.words import move_name
from milligan_widget.engine import Game, IllegalMoveError, Move, Rules
from milligan_widget.studies import difficulty as difficulties
from milligan_widget.widget import requests
from milligan_widget.widget import view as views
from milligan_widget.widget.scores import Scorecard
from milligan_widget.widget.table import Table
from milligan_widget.widget.words import moves as _moves


def pick_seed(seed: int | None) -> int:
    """``seed``, or a random deal number when it is None."""
    return random.randint(1, 10**9) if seed is None else seed


class DealRefused(ValueError):
    """A New game that cannot be dealt as asked (a difficulty these rules do not have, a
    deal number and a difficulty together), in a player's words: shown, nothing changed."""


def pick_deal(seed: int | None, rules: Rules, difficulty: str | None) -> int:
    """The deal number of a New game: ``seed``, else one of ``difficulty`` from the shipped
    table of deals (:func:`milligan_widget.studies.difficulty.pick_deal`: never a solve), else a
    random one. A deal number and a difficulty together are refused: the number names one
    deal, the difficulty asks the widget to choose, and a player who typed a number and
    left "Hard" chosen from before should hear which wins rather than get a surprise.

    >>> pick_deal(None, Rules.coerce("classic").replace(cells=2), "hard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    milligan_widget.widget.playing.DealRefused: Deals by difficulty come from the deals shipped ...
    """
    if difficulty is None or difficulty == "any":
        return pick_seed(seed)
    try:
        difficulties.check_difficulty(difficulty)
    except ValueError as exc:
        raise DealRefused(f"{str(exc).capitalize()}.") from None
    label = difficulties.LABELS[difficulty]
    if seed is not None:
        raise DealRefused(
            f"A deal number or a difficulty, not both: clear the deal number for a deal "
            f"chosen as {label}, or choose Any deal to play deal #{seed}."
        )
    offered = difficulties.choices(rules)
    if difficulty not in offered:
        raise DealRefused(_not_offered(rules, offered))
    return difficulties.pick_deal(rules, difficulty)


def _not_offered(rules: Rules, offered: tuple[str, ...]) -> str:
    """Why these rules offer no deal of the difficulty asked for, and what they offer."""
    choices = " or ".join(difficulties.LABELS[d] for d in offered)
    if rules.name is None:
        return (
            "Deals by difficulty come from the deals shipped with the game, and none are "
            f"shipped for custom rules: choose {choices}."
        )
    title = rules.name.replace("-", " ").title()
    return f"{title} deals are not sorted into easy, medium and hard: choose {choices}."


class Playing:
    """The play actions on a :class:`~.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def play(self, move: Move | str) -> Move:
        """The player's move (a Move or its notation), applied by the table; a bad notation is
        refused like an illegal move."""
        try:
            parsed = requests.as_move(move)
        except ValueError as exc:
            self.table.refuse(str(exc))
            raise IllegalMoveError(str(exc)) from exc
        return self.table.apply(parsed)

    def deal(self) -> Move:
        """Deal a row from the stock."""
        return self.table.apply(Move.deal())

    def undo(self) -> Move | None:
        """Undo the last move, or take back the restart or new game that replaced the game set aside
        (None then)."""
        table = self.table
        run = table.lesson_run
        move = None
        if table.game.can_undo:
            move = run.undo() if run is not None else table.game.undo()
        if move is not None:
            if run is None:
                table.card.undos += 1
            table.publish(message=f"Undone: {table.game.describe(move)}")
            return move
        entry = table.set_aside.replaced_by(table.player) if run is None else None
        if entry is None:
            reason = "Nothing to undo in this step." if run else "Nothing to undo."
            table.refuse(reason)
            raise IllegalMoveError(reason)
        table.set_aside.pop()
        table.switch_to(entry.game, entry.card, entry.line)
        table.publish(message=entry.undone())
        return None

    def redo(self) -> Move:
        """Play again the last undone move."""
        table = self.table
        if not table.game.can_redo:
            table.refuse("Nothing to redo.")
            raise IllegalMoveError("Nothing to redo.")
        before = table.game.copy()
        move = table.game.redo()
        table.coach(before, move)
        table.publish(message=f"Redone: {before.describe(move)}",
                      last=views.last_move(before, move))  # fmt: skip
        return move

    def show_better(self) -> Move:
        """Take back the last move and light the better move the coach found in its place
        (as Hint lights its move); refused where the coach found none."""
        table = self.table
        judged = table.assistant.coach.last(table.game)
        if judged is None or judged.better is None:
            reason = "The coach found no better move for the last move."
            table.refuse(reason)
            raise IllegalMoveError(reason)
        table.game.undo()
        table.card.undos += 1
        better = Move.parse(judged.better)
        words = f"Better than {move_name(judged.move)}: {table.game.describe(better)}"
        table.publish(message=f"{words} (lit; your move is taken back)", hint=better)
        return better

    def autoplay(self) -> list[Move]:
        """Play every safe card to the foundations."""
        table = self.table
        before = table.game.copy()
        moves = table.game.autoplay()
        if not moves:
            message = "No card can safely go to the foundations."
        else:
            message = f"Auto: {len(moves)} card{'s' if len(moves) > 1 else ''} to the foundations."
        last = views.last_move(before, moves[0]) if len(moves) == 1 else None
        table.publish(message=message, last=last)
        for move in moves:
            table.notify(move)
        return moves

    def show(self, game: Game) -> None:
        """Put ``game`` on show in play mode in place of everything (Undo does not go back
        past it), and publish."""
        table = self.table
        if not isinstance(game, Game):
            raise TypeError(f"widget.game takes a Game, not {type(game).__name__}")
        table.set_aside.clear()
        table.leave()
        table.switch_to(game)
        table.publish(message=table.welcome(), rules_changed=True, panel_changed=True)

    def new_game(
        self,
        seed: int | None = None,
        rules: str | Rules | None = None,
        difficulty: str | None = None,
    ) -> Game:
        """Show a new deal in play (of ``difficulty``: :func:`pick_deal`), setting the game it
        replaces aside when Undo should bring it back; a deal that cannot be dealt as asked
        is refused in words (:class:`DealRefused`) and nothing changes."""
        table = self.table
        rules = Rules.coerce(table.game.rules if rules is None else rules)
        try:
            number = pick_deal(seed, rules, difficulty)
        except DealRefused as exc:
            table.refuse(str(exc))
            raise
        game = Game.new(number, rules)
        if difficulty not in (None, "any"):
            game.set_meta(views.ASKED_FOR, difficulty)  # the player knows the solver won it
        table.leave()
        if table.can_come_back():
            table.set_aside_for("new game", game)
        else:
            table.set_aside.clear()
            table.switch_to(game)
            table.publish(message=table.welcome(), rules_changed=True, panel_changed=True)
            return game
        greeting = "Undo brings back the game you left."
        table.publish(message=table.welcome(greeting), panel_changed=True)
        return game

    def restart(self) -> None:
        """Back to the deal (in a lesson: the step), the game before set aside for Undo."""
        table = self.table
        if table.lesson_run is not None:
            table.lesson_run.restart_step()
            table.publish(message="Step restarted.")
            return
        old = table.player
        if not old.history and not old.can_redo:
            table.card = Scorecard(peek=table.card.peek)
            table.publish(message="Restarted this deal.")  # nothing to take back
            return
        fresh = old.copy()
        fresh.restart()
        table.set_aside_for("restart", fresh, table.assistant.line)  # the same positions
        back = f"goes back to move {len(old.history)}" if old.history else "brings back the redo"
        table.publish(message=f"Restarted this deal. Undo {back}.")

    def goto(self, n: int) -> None:
        """Undo or redo to the position after ``n`` moves."""
        table = self.table
        game = table.game
        reachable = len(game.history) + len(game.redo_moves)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= reachable:
            raise ValueError(f"goto(n) reaches moves 0 to {reachable} of this game, not {n!r}")
        while len(game.history) > n:
            game.undo()
        while len(game.history) < n and game.can_redo:
            game.redo()
        table.publish(message=f"Position after {_moves(n)}.")

    def replay(self, moves: Game | str | Path | Iterable[Move | str], delay: float = 0.3) -> None:
        """Play ``moves`` (or a saved game from its deal) one at a time, taking the lock for each
        move only."""
        table = self.table
        saved = requests.saved_game(moves)
        if saved is None:
            steps, comments = requests.as_line(table.game, moves), {}  # type: ignore[arg-type]
        else:
            steps, comments = list(saved.history), saved.comments
            start = saved.copy()
            start.restart()
            with table.lock:
                self.show(start)
        first = len(table.game.history)
        for ply, move in enumerate(steps, first + 1):
            with table.lock:
                table.apply(move, comment=comments.get(ply))
            if delay > 0:
                time.sleep(delay)
