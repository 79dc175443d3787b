"""Save and Open from the toolbar, and the game kept for Resume after a kernel restart.

:class:`SaveFolder` is the kernel's working folder as the toolbar sees it: Save writes the
game there (``milligan-deal-8-2026-12-01-1154.json``), Open lists the saves there with
their deal, rules, moves and date, and opens one by name. The list and the summaries reach
the browser; the deck never does (a save names its deal, and its cards stay in Python).

:class:`Autosave` keeps the game in progress under the user's data folder, after every
move, atomically (:func:`milligan_widget.engine.savefile.write_atomic`): a kernel restart or a
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

import atexit
import contextlib
import hashlib
import itertools
import json
import logging
import os
import re
import sys
import tempfile
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from milligan_widget.engine import Game, SaveFileError
from milligan_widget.engine.savefile import (
    MAX_SAVE_BYTES,
    from_document,
    parse,
    read_text,
    to_document,
    write_atomic,
)

PREFIX = "milligan-"
MAX_LISTED = 50  # the newest saves Open lists
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,150}\.json")


def notebook_key() -> str | None:
    """The auto-save key of the widget being made: one player's, so that no one is ever
    offered another's game; None outside a notebook (a script keeps its games itself).

    * JupyterLab, Notebook 7, VS Code: the notebook (``JPY_SESSION_NAME``,
      ``__vsc_ipynb_file__``) and the cell's id, which stay the same across kernel
      restarts: after a restart the game comes back.
    * Voilà, and any host that sends no cell id: the kernel's id. Voilà gives each visitor
      a kernel of its own, and every page load is a new visitor.
    * marimo: ``marimo edit`` (one person editing one notebook), the notebook's file and
      the cell; ``marimo run`` (an app served to visitors, sessions sharing one process),
      the session.
    """
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    if shell is not None and type(shell).__name__ == "ZMQInteractiveShell":
        notebook = os.environ.get("JPY_SESSION_NAME") or shell.user_ns.get("__vsc_ipynb_file__")
        return jupyter_key(notebook, _cell_id(shell), _kernel_id(), _in_voila())
    marimo = sys.modules.get("marimo")
    if marimo is not None and marimo.running_in_notebook():
        return _marimo_key()
    return None


def jupyter_key(notebook: str | None, cell: str | None, kernel: str, voila: bool) -> str:
    """The key in a Jupyter kernel (see :func:`notebook_key`): the notebook and the cell
    where the front end names the cell, else the kernel (always in Voilà).

    >>> jupyter_key("play.ipynb", "4f1c", "kernel-77ab", voila=False)
    'play.ipynb#4f1c'
    >>> jupyter_key(None, None, "kernel-77ab", voila=True)
    'voila#kernel-77ab'
    """
    if voila:
        return f"voila#{kernel}"
    if cell:
        return f"{notebook or 'notebook'}#{cell}"
    return f"{notebook or 'notebook'}#{kernel}"


def _cell_id(shell: Any) -> str | None:
    """The id of the cell being run (the front end sends it with the execute request)."""
    try:
        parent = shell.kernel.get_parent()
    except (AttributeError, TypeError):
        return None
    cell = (parent or {}).get("metadata", {}).get("cellId")
    return cell if isinstance(cell, str) else None


def _in_voila() -> bool:
    """Is this kernel one of Voilà's (it sets these in each visitor's kernel)?"""
    software = os.environ.get("SERVER_SOFTWARE", "")
    return software.startswith("voila/") or any(name in os.environ for name in _VOILA)


_VOILA = ("VOILA_KERNEL_ID", "VOILA_BASE_URL", "VOILA_PREHEAT")


def _kernel_id() -> str:
    """This kernel's id, from its connection file (``kernel-<id>.json``: the same after a
    restart); where there is none, an id of this process's own."""
    try:
        from ipykernel.connect import get_connection_file

        name = Path(get_connection_file()).stem
    except Exception:  # not an ipykernel started with a connection file
        name = ""
    return name or _PROCESS


_PROCESS = f"process-{uuid.uuid4().hex}"


def _marimo_key() -> str:
    """The key in marimo (see :func:`notebook_key`): in ``marimo edit`` the notebook's file
    and the cell; otherwise (``marimo run``) the session, never shared with another one."""
    try:
        import marimo
        from marimo._runtime.context import get_context

        context: Any = get_context()
        notebook = Path(context.filename or "notebook").name
        if marimo.app_meta().mode == "edit":
            running = context.execution_context
            return f"marimo:{notebook}#{running.cell_id if running is not None else ''}"
        return f"marimo:{notebook}#session-{_session_token(context)}"
    except Exception:  # a marimo that names these otherwise: a key of this widget's own
        return f"marimo#{uuid.uuid4().hex}"


_SESSIONS: dict[int, tuple[weakref.ref[Any], str]] = {}
_SESSIONS_LOCK = threading.Lock()


def _session_token(session: Any) -> str:
    """A token of its own for each live ``session`` object: a new one for a new session,
    even one made where a closed one was in memory."""
    with _SESSIONS_LOCK:
        for number in [n for n, (ref, _) in _SESSIONS.items() if ref() is None]:
            del _SESSIONS[number]
        found = _SESSIONS.get(id(session))
        if found is not None and found[0]() is session:
            return found[1]
        token = uuid.uuid4().hex[:16]
        _SESSIONS[id(session)] = (weakref.ref(session), token)
        return token


class FileRefused(ValueError):
    """A save or an open that cannot be done, in a player's words."""


class SaveFolder:
    """The folder the toolbar's Save writes to and Open lists (default: the working folder)."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None

    @property
    def path(self) -> Path:
        return self.folder if self.folder is not None else Path.cwd()

    def save(self, game: Game) -> Path:
        """Write ``game`` under a new name (its deal and the time, then ``-2``, ``-3``…:
        never over a file already there); the path written."""
        deal = f"deal-{game.seed}" if game.seed is not None else "game"
        try:
            return _write_new(self.path, f"{PREFIX}{deal}-{_stamp()}", game.to_json())
        except SaveFileError as exc:
            raise FileRefused(f"The game could not be saved: {exc}.") from exc
        except OSError as exc:
            reason = f"The game could not be saved in {self.path}: {exc.strerror or exc}."
            raise FileRefused(reason) from exc

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
            entry = _summary(self.path, path)
            if entry is not None:
                found.append(entry)
            if len(found) == MAX_LISTED:
                break
        return found

    def open(self, name: Any) -> Game:
        """The game saved as ``name`` (a file name in the folder, as :meth:`entries` lists)."""
        if not isinstance(name, str) or not SAFE_NAME.fullmatch(name):
            raise FileRefused("Open takes the name of a save file in the notebook's folder.")
        try:
            return _load_inside(self.path, self.path / name)
        except FileNotFoundError:
            raise FileRefused(f"There is no save named {name} any more.") from None
        except (SaveFileError, OSError) as exc:
            raise FileRefused(f"The save {name} could not be opened: {exc}.") from None


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _stamp() -> str:
    """The time in a save's name: ``2026-12-01-1154``."""
    return datetime.now().strftime("%Y-%m-%d-%H%M")


def _write_new(folder: Path, stem: str, text: str) -> Path:
    """Write ``text`` into a new file ``stem.json`` in ``folder`` (else ``stem-2.json``,
    ``stem-3.json``…), never over an existing one, whole or not at all: written and synced
    under a temporary name, then linked to the first free name (a link, unlike a rename,
    fails if the name is taken, however many kernels save at once)."""
    data = text.encode("utf-8")
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # the permissions open() would give
        for n in itertools.count(1):
            path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
            if _take_name(Path(temporary), path, data):
                return path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    raise AssertionError("unreachable")  # pragma: no cover


def _take_name(temporary: Path, path: Path, data: bytes) -> bool:
    """Give the file written at ``temporary`` the name ``path`` if no file has it."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        return False
    except OSError:  # a folder without hard links (FAT, some network drives)
        try:
            with open(path, "xb") as handle:  # "x": only a new file
                handle.write(data)
        except FileExistsError:
            return False
    return True


def _load_inside(folder: Path, path: Path) -> Game:
    """The game saved at ``path``, a file inside ``folder`` (a link may lead to one): a link
    out of the folder is refused, and so is a pipe, device or folder named ``*.json``
    (:func:`~milligan_widget.engine.savefile.read_text`)."""
    real = path.resolve()
    if not real.is_relative_to(folder.resolve()):
        raise FileRefused(
            f"Only a save in the notebook's folder can be opened, and {path.name} leads outside it."
        )
    return Game.from_json(read_text(real, follow=False))


def _summary(folder: Path, path: Path) -> dict[str, Any] | None:
    """What Open shows of one save, or None if it is no save (or too big to be one)."""
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:  # a big data file: not read to be left out
            return None
        game = _load_inside(folder, path)
    except (FileRefused, SaveFileError, OSError):
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
    a move, while the browser draws the move) and ends once it has been idle a while. At
    the interpreter's normal exit the request still waiting is written (:func:`_at_exit`)."""

    def __init__(self) -> None:
        self._wake = threading.Condition()
        self._pending: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        self._running = threading.Lock()  # one job at a time, the exit's included

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
                self.write_now()

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until every request is written; False on timeout."""
        return self._idle.wait(timeout)

    def write_now(self) -> None:
        """Write the request waiting, if any, in this thread, without the settling pause."""
        with self._running:
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

    def _serve(self) -> None:
        while self._wait_for_work():
            time.sleep(SETTLE)  # moves in quick succession: one write for the newest
            self.write_now()

    def _wait_for_work(self) -> bool:
        """True once a request is pending; False (the thread ends) after IDLE_EXIT idle."""
        with self._wake:
            if self._pending is None:
                self._wake.wait(IDLE_EXIT)
            if self._pending is None:
                self._thread = None
                return False
            return True


_WRITERS: dict[Path, _Writer] = {}
_WRITERS_LOCK = threading.Lock()


def _writer(path: Path) -> _Writer:
    """The one writer of ``path`` in this process (several widgets may share a key)."""
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(path, _Writer())


@atexit.register
def _at_exit() -> None:
    """The moves of the last moment before a normal exit are kept: a writer's daemon
    thread would be stopped in its settling pause."""
    with _WRITERS_LOCK:
        writers = list(_WRITERS.values())
    for writer in writers:
        writer.write_now()


_NOTHING = object()  # no change to write
#: The auto-save's envelope: the saved game (its own format, unchanged) and what the widget
#: keeps about it beside the game: ``peek``, was the help that knows the hidden cards on.
AUTOSAVE_FORMAT = "milligan-widget/autosave"
ENVELOPE_BYTES = MAX_SAVE_BYTES + 1_000  # the largest auto-save read: a saved game and its envelope


def envelope(game: Game, peek: bool) -> str:
    """The auto-save's text for ``game``.

    >>> json.loads(envelope(Game.new(8), True))["peek"]
    True
    """
    document = {"format": AUTOSAVE_FORMAT, "version": 1, "peek": peek, "game": to_document(game)}
    return json.dumps(document, separators=(",", ":"))


def open_envelope(path: Path) -> tuple[Game, bool]:
    """The game kept in ``path`` and its ``peek``; a plain saved game (an auto-save from
    before the envelope) has peek off. SaveFileError if it cannot be read, whatever the file
    holds (read as every save is, :func:`~milligan_widget.engine.savefile.read_text` and
    :func:`~milligan_widget.engine.savefile.parse`: bounded in size and depth, and never a
    wait on a pipe)."""
    document = parse(read_text(path, ENVELOPE_BYTES), ENVELOPE_BYTES)
    if not isinstance(document, dict) or document.get("format") != AUTOSAVE_FORMAT:
        return from_document(document, Game), False  # says why in the saved game's words
    peek = document.get("peek")
    if (
        document.get("version") != 1
        or not isinstance(peek, bool)
        or set(document) != {"format", "version", "peek", "game"}
    ):
        raise SaveFileError("the auto-save's envelope is not one this version reads")
    return from_document(document["game"], Game), peek


Tell = Callable[[str], None]  # says something to the player, in the status line


class Autosave:
    """The game in progress kept under ``folder`` (the statistics' data folder) for
    ``key``: written after each move, read back by Resume, cleared once the game is over.

    A game offered to resume (:meth:`take_offer`) is set aside under a name of its own
    until the player answers (:meth:`answer_offer`), so that the game on show is kept
    meanwhile, and the one offered is lost neither way. ``tell`` says in the status line,
    once, that auto-save started failing, and when it works again."""

    def __init__(self, folder: Path, key: str, tell: Tell = lambda text: None) -> None:
        digest = hashlib.sha1(key.encode("utf-8")).hexdigest()[:12]
        readable = re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-")[-40:] or "game"
        self.key = key
        self.path = folder / "autosave" / f"{readable}-{digest}.json"
        self.offered_path = folder / "autosave" / f"{readable}-{digest}.offered.json"
        self._written: tuple[Any, ...] | None = None
        self.problem: str | None = None
        self._blocked = False  # the file kept cannot be read: it is never written over
        self._failing = False  # the last write failed (and the player was told)
        self._tell = tell
        self._state = threading.Lock()
        self._next: Any = _NOTHING  # the game to keep (None: none), for the writer
        self._drop_offer = False  # the offer was answered: its file goes
        self.kept_peek = False  # the peek of the game read last (:meth:`read`, the offer)

    def write(self, game: Game, peek: bool = False) -> None:
        """Keep ``game`` if it is in progress (else forget the one kept), with ``peek``
        (the help knew the hidden cards); never raises."""
        if self._blocked:
            return
        if game.status != "playing" or not game.ply:
            self.clear()
            return
        key = (id(game), game.seed, game.ply, str(game.history[-1]), len(game.redo_moves), peek)
        if key == self._written:
            return
        self._written = key
        self._stage((game.copy(), peek))

    def clear(self) -> None:
        if self._blocked or (self._written is None and not self.path.exists()):
            return
        self._written = None
        self._stage(None)

    def take_offer(self, showing: Game) -> Game | None:
        """The game kept before, to offer instead of ``showing``, set aside under its own
        name until answered; None if there is none (or it is ``showing``: resumed)."""
        self.flush()
        kept, path = self._newest()
        if kept is None or path is None or kept.status != "playing":
            return None
        try:
            if kept == showing:  # MilliganWidget.resume(): it goes on as the game kept
                if path == self.offered_path:
                    os.replace(self.offered_path, self.path)
                return None
            if path == self.path:
                os.replace(self.path, self.offered_path)
        except OSError as exc:
            self._blocked = True
            self.problem = f"Auto-save is off: your last game could not be set aside ({exc})."
        return kept

    def answer_offer(self) -> None:
        """The player took up the offer or refused it: its file goes, once the game on
        show is kept."""
        with self._state:
            self._drop_offer = True
        _writer(self.path).submit(self._sync)

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until the game kept is on disk; False on timeout."""
        return _writer(self.path).flush(timeout)

    def read(self) -> Game | None:
        """The game kept, the newest: the one on show last, else one offered and not
        answered; None if none (or one that cannot be read: it is left as it is, and
        :attr:`problem` says why)."""
        self.flush()
        return self._newest()[0]

    # ------------------------------------------------------------------ the files
    def _newest(self) -> tuple[Game | None, Path | None]:
        for path in (self.path, self.offered_path):
            try:
                game, self.kept_peek = open_envelope(path)
                return game, path
            except FileNotFoundError:
                continue
            except SaveFileError as exc:  # damaged, or no file at all: set aside, not lost
                if self._set_aside(path, exc):
                    continue
                break
            except OSError as exc:  # a file that may be good, that cannot be read now
                self._blocked = True
                self.problem = (
                    f"Your last game could not be read back ({exc.strerror or exc}); auto-save "
                    f"is off until {path} can be read or is moved away."
                )
                break
        return None, None

    def _set_aside(self, path: Path, why: SaveFileError) -> bool:
        """Rename the unreadable ``path`` out of the way (kept, never deleted, whatever it is:
        a damaged file, a pipe, a folder) and say so; False if it cannot be moved (then
        auto-save is off, and :attr:`problem` says why)."""
        stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
        aside = path.with_name(f"{path.stem}.unreadable-{stamp}-{os.urandom(3).hex()}.json")
        try:
            os.rename(path, aside)
        except OSError as exc:
            self._blocked = True
            self.problem = (
                f"Your last game could not be read back ({why}); auto-save is off until "
                f"{path} is moved away (it could not be: {exc.strerror or exc})."
            )
            return False
        self.problem = (
            f"Your last game could not be read back ({why}): it is kept as {aside}, and "
            "auto-save goes on."
        )
        return True

    def _stage(self, game: tuple[Game, bool] | None) -> None:
        with self._state:
            self._next = game
        _writer(self.path).submit(self._sync)

    def _sync(self) -> None:
        """The writer's job: the newest game staged, then the offer's file if answered."""
        with self._state:
            game, self._next = self._next, _NOTHING
            drop = self._drop_offer
        if game is None:
            _unlink(self.path)
        elif game is not _NOTHING and not self._save(game):
            return  # the offer's file stays until the game on show is kept
        if drop:
            _unlink(self.offered_path)
            with self._state:
                self._drop_offer = False

    def _save(self, kept: tuple[Game, bool]) -> bool:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, envelope(*kept))
        except (OSError, SaveFileError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            self.problem = (
                f"Auto-save is failing: {reason} ({self.path.parent}). Your moves are not "
                "kept for Resume until it works again."
            )
            self._written = None
            if not self._failing:
                self._failing = True
                self._tell(self.problem)
            return False
        self.problem = None
        if self._failing:
            self._failing = False
            self._tell("Auto-save works again: your game is kept.")
        return True


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
