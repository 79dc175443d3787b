"""What a player keeps, as the toolbar offers it: Save and Open in the notebook's folder,
Resume of the game auto-saved before, and the Statistics panel.

The files themselves are :mod:`.storage`' (the folder, the auto-save); what counts in the
statistics is :mod:`.scores`'. This room is what the player asks of them, with the answer
in words on the table.

>>> import tempfile
>>> from milligan_widget import Game
>>> from milligan_widget.widget.table import Table
>>> table = Table(Game.new(8).after("d"), lambda frame: None, stats=None)
>>> keeping = Keeping(table, SaveFolder(tempfile.mkdtemp()))
>>> name = keeping.quick_save().name
>>> [entry["moves"] for entry in keeping.saved_games()], keeping.open_saved(name).ply
([1], 1)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from milligan_widget.engine import Game
from milligan_widget.widget.scores import PEEK_META, played_peeking
from milligan_widget.widget.storage import FileRefused, SaveFolder
from milligan_widget.widget.table import Table


class Keeping:
    """Save, Open, Resume and Statistics for a :class:`~.table.Table`, which sends what the
    Open and Statistics panels list with the view."""

    def __init__(self, table: Table, saves: SaveFolder) -> None:
        self.table, self.saves = table, saves

    def kept_game(self) -> Game:
        """The game on show as Save writes it: a game played peeking carries
        ``{"peek": true}`` in its meta (:data:`.scores.PEEK_META`), so Open counts it so."""
        game = self.table.game
        if self.table.card.peek and not played_peeking(game):
            game = game.copy()
            game.set_meta(PEEK_META, True)
        return game

    def quick_save(self) -> Path:
        """Save the game on show in the save folder; the path."""
        try:
            path = self.saves.save(self.kept_game())
        except FileRefused as exc:
            self.table.refuse(str(exc))
            raise
        self.table.publish(message=f"Saved as {path.name} (Open lists it).")
        return path

    def saved_games(self) -> list[dict[str, Any]]:
        """List the save folder's games, sent with the view for the Open panel."""
        entries = self.saves.entries()
        files = {"rev": self.table.rev, "folder": str(self.saves.path), "entries": entries}
        count = len(entries)
        message = f"Open: {count} saved game{'s' * (count != 1)} in this folder."
        self.table.publish(message=message, files=files)
        return entries

    def open_saved(self, name: str) -> Game:
        """Show the save ``name`` in place of the player's game."""
        try:
            game = self.saves.open(name)
        except FileRefused as exc:
            self.table.refuse(str(exc))
            raise
        if played_peeking(game):  # it goes on peeking, as Resume does, and counts so
            self.table.assistant.set_peek(True)
            name = f"{name}, played peeking (Peek stays on)"
        self.table.take_up(game, f"Opened {name}")
        return game

    def offer_resume(self) -> None:
        """Offer the game auto-saved on this key before, if it is in progress (and the
        table plays); say why if it could not be read."""
        table = self.table
        kept = table.offer
        playing = kept is not None and kept.status == "playing" and kept != table.player
        if not playing or not table.mode.own_game:
            table.offer = None
        if table.autosave is not None and table.autosave.problem:
            table.refuse(table.autosave.problem)
        elif table.offer is not None:
            table.publish(message=table.welcome())

    def take_up_offer(self, accept: bool = True) -> None:
        """Resume the game auto-saved before (``accept``), or forget the offer."""
        table = self.table
        kept, table.offer = table.offer, None
        if kept is None or not accept:
            table.publish(message="" if kept is None else "A fresh game then. Good luck!")
        else:
            table.take_up(kept, "Resumed your last game")
            if table.autosave is not None and table.autosave.kept_peek:
                table.set_peek(True)  # it was played peeking: it goes on so, and counts so
        if kept is not None and table.autosave is not None:
            table.autosave.answer_offer()

    def show_statistics(self) -> dict[str, Any]:
        """The statistics' summary, sent with the view for the Statistics panel."""
        summary = self.table.keeper.summary()
        played, pending = summary["played"], summary.get("pending", 0)
        words = f"{played} game{'s' * (played != 1)} counted."
        if pending:
            waiting = summary["problem"] or "being written"
            words += f" {pending} of them not written yet ({waiting})."
        elif summary["problem"]:
            words = summary["problem"]
        statistics = {**summary, "rev": self.table.rev}
        self.table.publish(message=f"Statistics: {words}", statistics=statistics)
        return summary
