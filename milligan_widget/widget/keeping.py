"""What a player keeps, as the toolbar offers it: Save and Open in the notebook's folder,
Resume of the game auto-saved before, and the Statistics panel.

The files themselves are :mod:`.files`' (the folder, the auto-save); what counts in the
statistics is :mod:`.records`'. This room is what the player asks of them, with the answer
in words on the table.

>>> import tempfile
>>> from milligan_widget import Game
>>> from milligan_widget.widget.table import Table
>>> table = Table(Game.new(8).after("d"), lambda view, rules, panel: None, stats=None)
>>> keeping = Keeping(table, SaveFolder(tempfile.mkdtemp()), lambda files: None,
...                   lambda statistics: None)
>>> name = keeping.quick_save().name
>>> [entry["moves"] for entry in keeping.saved_games()], keeping.open_saved(name).ply
([1], 1)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from milligan_widget import Game
from milligan_widget.widget.files import FileRefused, SaveFolder
from milligan_widget.widget.table import Table

Show = Callable[[dict[str, Any]], None]  # sets one of the wire widget's traits


class Keeping:
    """Save, Open, Resume and Statistics for a :class:`~.table.Table`; ``show_files`` and
    ``show_statistics`` set what the Open and Statistics panels list."""

    def __init__(
        self, table: Table, saves: SaveFolder, show_files: Show, show_statistics: Show
    ) -> None:
        self.table, self.saves = table, saves
        self._show_files, self._show_statistics = show_files, show_statistics

    def quick_save(self) -> Path:
        """The toolbar's Save: write the game in the notebook's folder under a name of its
        own (its deal and the time, ``milligan-deal-8-2026-12-01-1154.json``); the path."""
        try:
            path = self.saves.save(self.table.game)
        except FileRefused as exc:
            self.table.refuse(str(exc))
            raise
        self.table.publish(message=f"Saved as {path.name} (Open lists it).")
        return path

    def saved_games(self) -> list[dict[str, Any]]:
        """The toolbar's Open: the saved games in the notebook's folder, newest first, each
        with its name, deal, rules, moves, status and date (the panel lists them)."""
        entries = self.saves.entries()
        self._show_files({"rev": self.table.rev, "folder": str(self.saves.path),
                          "entries": entries})  # fmt: skip
        count = len(entries)
        self.table.publish(message=f"Open: {count} saved game{'s' * (count != 1)} in this folder.")
        return entries

    def open_saved(self, name: str) -> Game:
        """Open the save ``name`` (a file name :meth:`saved_games` lists) in place of the
        game on show, which Undo brings back if it was in progress (as after New game)."""
        try:
            game = self.saves.open(name)
        except FileRefused as exc:
            self.table.refuse(str(exc))
            raise
        self.table.take_up(game, f"Opened {name}")
        return game

    def offer_resume(self) -> None:
        """Offer the game auto-saved on this key before, if it is in progress (and the
        table plays); say why if it could not be read."""
        table = self.table
        kept = table.offer
        playing = kept is not None and kept.status == "playing" and kept != table.player
        if not playing or table.mode.name != "play":
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
        if kept is not None and table.autosave is not None:
            table.autosave.answer_offer()

    def show_statistics(self) -> dict[str, Any]:
        """Open the Statistics panel: per preset, games played and won, the win rate with
        its 95% interval, streaks, best time and fewest moves, and the latest games (see
        :mod:`milligan_widget.stats`). Returns what it shows."""
        summary = self.table.keeper.summary()
        self._show_statistics({**summary, "rev": self.table.rev})
        played, pending = summary["played"], summary.get("pending", 0)
        words = f"{played} game{'s' * (played != 1)} counted."
        if pending:
            waiting = summary["problem"] or "being written"
            words += f" {pending} of them not written yet ({waiting})."
        elif summary["problem"]:
            words = summary["problem"]
        self.table.publish(message=f"Statistics: {words}")
        return summary
