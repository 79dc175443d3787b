"""Save and Open from the toolbar, and the game kept for Resume after a kernel restart.

:class:`SaveFolder` is the kernel's working folder as the toolbar sees it: Save writes the
game there (``milligan-deal-8-2026-12-01-1154.json``), Open lists the saves there with
their deal, rules, moves and date, and opens one by name. The list and the summaries reach
the browser; the deck never does (a save names its deal, and its cards stay in Python).

:class:`Autosave` keeps the game in progress under the user's data folder, after every
move, atomically (:func:`milligan_widget.savefile.write_atomic`): a kernel restart or a
re-run cell loses nothing, and the next widget on the same key offers to resume it.

>>> import tempfile
>>> from milligan_widget import Game
>>> folder = SaveFolder(tempfile.mkdtemp())
>>> game = Game.new(8).after("d")
>>> name = folder.save(game).name
>>> [(entry["name"] == name, entry["deal"], entry["moves"]) for entry in folder.entries()]
[(True, 8, 1)]
>>> folder.open(name) == game
True
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from milligan_widget import Game, SaveFileError
from milligan_widget.savefile import MAX_SAVE_BYTES

PREFIX = "milligan-"
MAX_LISTED = 50  # the newest saves Open lists
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,150}\.json")


def notebook_key() -> str | None:
    """The auto-save key of the cell this widget is made in: its notebook (JupyterLab and
    Notebook 7 name it in ``JPY_SESSION_NAME``, VS Code in ``__vsc_ipynb_file__``) and the
    cell's id (which stays the same across kernel restarts); None outside a notebook (a
    script keeps its games itself)."""
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    if shell is not None and type(shell).__name__ == "ZMQInteractiveShell":
        notebook = os.environ.get("JPY_SESSION_NAME") or shell.user_ns.get("__vsc_ipynb_file__")
        return f"{notebook or 'notebook'}#{_cell_id(shell) or ''}"
    marimo = sys.modules.get("marimo")
    if marimo is not None and marimo.running_in_notebook():
        return "marimo"
    return None


def _cell_id(shell: Any) -> str | None:
    """The id of the cell being run (the front end sends it with the execute request)."""
    try:
        parent = shell.kernel.get_parent()
    except (AttributeError, TypeError):
        return None
    return (parent or {}).get("metadata", {}).get("cellId")


class FileRefused(ValueError):
    """A save or an open that cannot be done, in a player's words."""


class SaveFolder:
    """The folder the toolbar's Save writes to and Open lists (default: the working folder)."""

    def __init__(self, folder: str | os.PathLike | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None

    @property
    def path(self) -> Path:
        return self.folder if self.folder is not None else Path.cwd()

    def save(self, game: Game) -> Path:
        """Write ``game`` under a new name (its deal and the time); the path written."""
        deal = f"deal-{game.seed}" if game.seed is not None else "game"
        stamp = datetime.now().strftime("%Y-%m-%d-%H%M")
        path = self.path / f"{PREFIX}{deal}-{stamp}.json"
        for n in range(2, 1000):
            if not path.exists():
                break
            path = self.path / f"{PREFIX}{deal}-{stamp}-{n}.json"
        try:
            game.save(path)
        except OSError as exc:
            reason = f"The game could not be saved in {self.path}: {exc.strerror}."
            raise FileRefused(reason) from exc
        return path

    def entries(self) -> list[dict[str, Any]]:
        """The saved games in the folder, newest first (at most :data:`MAX_LISTED`): name,
        deal, rules, moves, status and date; files that are no save are left out."""
        try:
            paths = [p for p in self.path.glob("*.json") if p.is_file()]
        except OSError:
            return []
        paths.sort(key=_modified, reverse=True)
        found = []
        for path in paths:
            entry = _summary(path)
            if entry is not None:
                found.append(entry)
            if len(found) == MAX_LISTED:
                break
        return found

    def open(self, name: Any) -> Game:
        """The game saved as ``name`` (a file name in the folder, as :meth:`entries` lists)."""
        if not isinstance(name, str) or not SAFE_NAME.fullmatch(name):
            raise FileRefused("Open takes the name of a save file in the notebook's folder.")
        path = self.path / name
        try:
            return Game.load(path)
        except FileNotFoundError:
            raise FileRefused(f"There is no save named {name} any more.") from None
        except (SaveFileError, OSError) as exc:
            raise FileRefused(f"{name} could not be opened: {exc}") from None


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _summary(path: Path) -> dict[str, Any] | None:
    """What Open shows of one save, or None if it is no save (or too big to be one)."""
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            return None
        game = Game.load(path)
    except (SaveFileError, OSError):
        return None
    return {
        "name": path.name,
        "deal": game.seed,
        "rules": game.rules.name or "custom rules",
        "moves": game.ply,
        "status": game.status,
        "date": datetime.fromtimestamp(_modified(path)).strftime("%Y-%m-%d %H:%M"),
    }


SETTLE = 0.25  # seconds an auto-save waits for the next move before it writes
IDLE_EXIT = 30.0  # seconds a writer's thread waits for work before it ends
WRITER = "milligan-widget auto-save"  # its threads' name


class _Writer:
    """Writes one file in the background: the newest request only, in order, so that the
    player never waits for the disk (where no thread can start, in the caller's thread).

    Its thread lives on between moves (starting one costs the kernel about a millisecond
    a move, while the browser draws the move) and ends once it has been idle a while."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._pending: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    def submit(self, job: Callable[[], None]) -> None:
        with self._wake:
            self._pending = job
            self._idle.clear()
            self._wake.notify()
            thread = None
            if self._thread is None:
                thread = threading.Thread(target=self._serve, name=WRITER, daemon=True)
                self._thread = thread
        if thread is not None:
            try:
                thread.start()
            except RuntimeError:  # "can't start new thread" (Pyodide)
                with self._wake:
                    self._thread = None
                self._write_pending()

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until every request is written; False on timeout."""
        return self._idle.wait(timeout)

    def _serve(self) -> None:
        while self._wait_for_work():
            time.sleep(SETTLE)  # moves in quick succession: one write for the newest
            self._write_pending()

    def _wait_for_work(self) -> bool:
        """True once a request is pending; False (the thread ends) after IDLE_EXIT idle."""
        with self._wake:
            if self._pending is None:
                self._wake.wait(IDLE_EXIT)
            if self._pending is None:
                self._thread = None
                return False
            return True

    def _write_pending(self) -> None:
        with self._wake:
            job, self._pending = self._pending, None
        try:
            if job is not None:
                job()
        except Exception:  # a bug in one write must not stop the next ones
            logging.getLogger(__name__).exception("auto-save failed")
        finally:
            with self._wake:
                if self._pending is None:
                    self._idle.set()


_WRITERS: dict[Path, _Writer] = {}
_WRITERS_LOCK = threading.Lock()


def _writer(path: Path) -> _Writer:
    """The one writer of ``path`` in this process (several widgets may share a key)."""
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(path, _Writer())


class Autosave:
    """The game in progress kept under ``folder`` (the statistics' data folder) for
    ``key``: written after each move, read back by Resume, cleared once the game is over."""

    def __init__(self, folder: Path, key: str) -> None:
        digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]
        readable = re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-")[-40:] or "game"
        self.key = key
        self.path = folder / "autosave" / f"{readable}-{digest}.json"
        self._written: tuple[Any, ...] | None = None
        self.problem: str | None = None
        self._blocked = False  # the file kept cannot be read: it is never written over

    def write(self, game: Game) -> None:
        """Keep ``game`` if it is in progress (else forget the one kept); never raises."""
        if self._blocked:
            return
        if game.status != "playing" or not game.ply:
            self.clear()
            return
        key = (id(game), game.seed, game.ply, str(game.history[-1]), len(game.redo_moves))
        if key == self._written:
            return
        self._written = key
        _writer(self.path).submit(functools.partial(self._save, game.copy()))

    def _save(self, game: Game) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            game.save(self.path)
        except OSError as exc:
            self.problem = f"Auto-save is unavailable: {exc.strerror} ({self.path.parent})."
            self._written = None
            return
        self.problem = None

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until the game kept is on disk; False on timeout."""
        return _writer(self.path).flush(timeout)

    def read(self) -> Game | None:
        """The game kept, or None (none kept, or one that cannot be read: it is left as
        it is, and :attr:`problem` says why)."""
        self.flush()
        try:
            return Game.load(self.path)
        except FileNotFoundError:
            return None
        except (SaveFileError, OSError) as exc:
            self._blocked = True
            self.problem = (
                f"Your last game could not be read back ({exc}); auto-save is off until "
                f"{self.path} is moved away."
            )
            return None

    def clear(self) -> None:
        if self._blocked or (self._written is None and not self.path.exists()):
            return
        self._written = None
        _writer(self.path).submit(self._unlink)

    def _unlink(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)
