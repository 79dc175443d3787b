"""Statistics: every finished or abandoned game, kept in a small SQLite file.

>>> import tempfile
>>> from milligan_widget import Game
>>> from milligan_widget.stats import GameRecord, Stats
>>> folder = tempfile.TemporaryDirectory()
>>> stats = Stats(folder.name)
>>> game = Game.new(8)
>>> game.play("d")
Move('d')
>>> stats.record(GameRecord.from_game(game, seconds=12.5, hints=1))   # left unfinished
True
>>> stats.games()[0].result, stats.games()[0].moves
('abandoned', 1)
>>> classic = stats.summary().get("classic")
>>> classic.played, classic.won, classic.win_rate
(1, 0, 0.0)
>>> folder.cleanup()

The file is ``statistics.sqlite3`` in :func:`default_folder` (the user's data folder, or the
folder the environment variable ``MILLIGAN_WIDGET_DATA`` names). Several kernels may write to
it at once: it is in WAL mode, every write is one short transaction, and a writer that finds
it locked waits (``busy_timeout``) and tries again.

Statistics never stop play: :meth:`Stats.record` and the reads raise nothing when the file is
damaged, locked or cannot be made; they return ``False`` (or an empty :class:`Summary`) and
keep the reason in player's words in :attr:`Stats.problem` (and :attr:`Summary.problem`).
A file that is not a statistics database is left exactly as it is: never repaired, replaced
or deleted. A game that could not be written stays in memory and is written with the next one.

What a browser may see: :meth:`Summary.to_dict` and :meth:`GameRecord.to_dict` hold no deck
(the dealing order); only :meth:`Stats.export_csv` and the Python objects carry it.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import io
import json
import math
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from .deals import MAX_DEAL
from .errors import MilliganError, shown
from .game import Game
from .rules import PRESETS, Rules
from .savefile import write_atomic
from .study import wilson

ENVIRONMENT_VARIABLE = "MILLIGAN_WIDGET_DATA"  #: names a folder to use instead of the default
FILE_NAME = "statistics.sqlite3"
SCHEMA_VERSION = 1  #: the ``PRAGMA user_version`` of the files this version writes
RESULTS = ("won", "lost", "abandoned")
CUSTOM = "custom"  #: the filter that selects every game played under rules that are no preset
BUSY_TIMEOUT = 2.0  #: seconds SQLite waits for another writer, per attempt
ATTEMPTS = 4  #: attempts at an operation that finds the file locked
RETRY_PAUSE = 0.05  #: seconds before the second attempt (doubled for each later one)
MAX_PENDING = 1_000  #: unwritten games kept in memory; the oldest go first past this

T = TypeVar("T")

# Each entry upgrades the file by one version: entry i takes user_version i to i + 1.
_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            seed TEXT,  -- deal numbers reach 10**20 - 1, past SQLite's 64-bit integers
            deck TEXT,
            rules TEXT NOT NULL,
            result TEXT NOT NULL,
            moves INTEGER NOT NULL,
            seconds REAL NOT NULL,
            undos INTEGER NOT NULL,
            hints INTEGER NOT NULL,
            solution_used INTEGER NOT NULL,
            started TEXT NOT NULL,
            ended TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_end ON games (ended)",
        "CREATE INDEX games_by_rules ON games (rules, ended)",
    ),
)
assert len(_MIGRATIONS) == SCHEMA_VERSION

# SQLite's messages, in a player's words (the first fragment found wins).
_WORDS = (
    ("not a database", "is not a database"),
    ("malformed", "is damaged"),
    ("corrupt", "is damaged"),
    ("locked", "is in use by another program"),
    ("busy", "is in use by another program"),
    ("readonly", "cannot be written"),
    ("disk is full", "cannot grow: the disk is full"),
    ("unable to open", "cannot be opened"),
)
_UNAVAILABLE = "Statistics are unavailable: "


class StatsError(MilliganError):
    """Statistics that cannot be read or written, or a record that makes no sense."""


def default_folder() -> Path:
    """The folder of the statistics file: ``MILLIGAN_WIDGET_DATA`` if set, else the user's
    data folder for milligan-widget (``~/.local/share/milligan-widget`` on Linux)."""
    folder = os.environ.get(ENVIRONMENT_VARIABLE)
    if folder:
        return Path(folder).expanduser()
    return Path(platformdirs.user_data_dir("milligan-widget", appauthor=False))


# ----------------------------------------------------------------------------- rules


def rules_key(rules: Rules | str) -> str:
    """How the statistics name rules: the preset's name, or the options as compact JSON."""
    rules = Rules.coerce(rules).with_preset_name()
    if rules.name is not None:
        return rules.name
    options = {k: v for k, v in rules.to_dict().items() if k != "name"}
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


def rules_from_key(key: str) -> Rules:
    """The rules a :func:`rules_key` names; a :class:`~milligan_widget.RulesError` otherwise."""
    if isinstance(key, str) and key.startswith("{"):
        try:
            options = json.loads(key)
        except ValueError:
            raise StatsError(f"{shown(key)} is not a set of rule options") from None
        return Rules.from_dict(options)
    return Rules.named(key)


def rules_label(key: str) -> str:
    """A preset's name, or ``"custom: "`` and what differs from classic (``cells=2``)."""
    if not key.startswith("{"):
        return key
    classic = PRESETS["classic"].to_dict()
    changed = [f"{k}={v}" for k, v in json.loads(key).items() if classic.get(k) != v]
    return f"{CUSTOM}: {', '.join(changed)}"


# ----------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameRecord:
    """One finished or abandoned game.

    ``seed``: the deal number, or ``None``; then ``deck`` says what was dealt: the cards in
    dealing order as text (``"3D 5H …"``), or a staged position's layout as JSON.
    ``rules``: a :func:`rules_key`. ``result``: ``"won"``, ``"lost"`` or ``"abandoned"``.
    ``moves``: plies from the deal to the last position. ``seconds``: time played.
    ``started``, ``ended``: UTC times in ISO 8601 (``2024-05-01T12:00:00+00:00``).
    Make one with :meth:`from_game`.
    """

    seed: int | None
    deck: str | None
    rules: str
    result: str
    moves: int
    seconds: float
    undos: int
    hints: int
    solution_used: bool
    started: str
    ended: str

    def __post_init__(self) -> None:
        _check_deal(self.seed, self.deck)
        if not _is_key(self.rules):
            raise StatsError(f"{shown(self.rules)} does not name rules as rules_key() does")
        if self.result not in RESULTS:
            raise StatsError(f"a result is one of {', '.join(RESULTS)}, not {shown(self.result)}")
        for name in ("moves", "undos", "hints"):
            _check_count(name, getattr(self, name))
        _check_seconds(self.seconds)
        if type(self.solution_used) is not bool:
            raise StatsError(f"solution_used is True or False, not {shown(self.solution_used)}")
        for name in ("started", "ended"):
            _check_time(name, getattr(self, name))

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        seconds: float,
        undos: int = 0,
        hints: int = 0,
        solution_used: bool = False,
        started: datetime | None = None,
        ended: datetime | None = None,
    ) -> GameRecord:
        """The record of ``game`` as it stands: won, lost, or else abandoned. The widget
        passes what it counted; ``ended`` is now unless given, ``started`` is ``seconds``
        before it unless given (both timezone-aware)."""
        _check_seconds(seconds)
        end = _utc("ended", ended or datetime.now(timezone.utc))
        start = _utc("started", started) if started else end - timedelta(seconds=seconds)
        status = game.status
        return cls(
            seed=game.seed,
            deck=None if game.seed is not None else _deal_text(game),
            rules=rules_key(game.rules),
            result=status if status in RESULTS else "abandoned",
            moves=game.ply,
            seconds=round(float(seconds), 3),
            undos=undos,
            hints=hints,
            solution_used=solution_used,
            started=start.isoformat(timespec="seconds"),
            ended=end.isoformat(timespec="seconds"),
        )

    @property
    def preset(self) -> str:
        """The preset's name, or ``"custom: …"`` (see :func:`rules_label`)."""
        return rules_label(self.rules)

    @property
    def deal(self) -> str:
        """The deal in words that do not give away its cards: ``"deal 8"`` or
        ``"deck 1f3a…"`` (a hash of the deck)."""
        if self.seed is not None:
            return f"deal {self.seed}"
        kind = "position" if (self.deck or "").startswith("{") else "deck"
        return f"{kind} {hashlib.sha256((self.deck or '').encode()).hexdigest()[:10]}"

    def deal_again(self) -> Game:
        """A new game of the same deal under the same rules."""
        rules = rules_from_key(self.rules)
        if self.seed is not None:
            return Game.new(self.seed, rules)
        assert self.deck is not None
        if self.deck.startswith("{"):
            return Game.from_layout(**json.loads(self.deck), rules=rules)
        return Game.from_deck(self.deck, rules)

    def to_dict(self, *, deck: bool = False) -> dict[str, Any]:
        """Plain data (str, int, float, bool, None), with ``preset`` and ``deal`` added;
        without the deck unless ``deck`` (never send it to a browser)."""
        data = asdict(self)
        if not deck:
            del data["deck"]
        data["preset"], data["deal"] = self.preset, self.deal
        return data


def _deal_text(game: Game) -> str:
    if game.layout is not None:
        layout = game.layout.to_dict(game.foundation_suit_codes)
        return json.dumps(layout, separators=(",", ":"))
    return " ".join(str(card) for card in game.deck or ())


def _check_deal(seed: Any, deck: Any) -> None:
    if seed is not None:
        if type(seed) is not int or not 1 <= seed <= MAX_DEAL:
            raise StatsError(f"{shown(seed)} is not a deal number")
        if deck is not None:
            raise StatsError("a numbered deal keeps no deck: its number deals it again")
    elif not isinstance(deck, str) or not deck:
        raise StatsError("a game without a deal number needs its deck")


def _check_count(name: str, value: Any) -> None:
    if type(value) is not int or value < 0:
        raise StatsError(f"{name} is a count (0 or more), not {shown(value)}")


def _check_seconds(value: Any) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise StatsError(f"seconds is a time (0 or more), not {shown(value)}")


def _check_time(name: str, text: Any) -> None:
    """A UTC time as ``datetime.isoformat`` writes it: such times sort as text, as SQL does."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise StatsError(f"{name} is a time in ISO 8601, not {shown(text)}") from None
    if moment.utcoffset() != timedelta(0) or moment.isoformat() != text:
        raise StatsError(
            f"{name} must be a UTC time written like 2024-05-01T12:00:00+00:00, not {shown(text)}"
        )


def _utc(name: str, moment: datetime) -> datetime:
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        raise StatsError(f"{name} is a timezone-aware datetime, not {shown(moment)}")
    return moment.astimezone(timezone.utc)


# ----------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class PresetSummary:
    """The games played under one set of rules. ``win_rate`` and its 95% Wilson interval
    (``win_rate_low``, ``win_rate_high``) are ``None`` before the first game. An abandoned
    game counts as played and not won, and ends a streak. ``best_time`` (seconds) and
    ``fewest_moves`` are over the wins played without the solver's Solution."""

    preset: str
    rules: str
    played: int
    won: int
    lost: int
    abandoned: int
    win_rate: float | None
    win_rate_low: float | None
    win_rate_high: float | None
    current_streak: int
    best_streak: int
    best_time: float | None
    fewest_moves: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Summary:
    """Statistics for each set of rules played (presets in their usual order, then custom
    rules), the newest games, and the reason if the file could not be read."""

    presets: tuple[PresetSummary, ...] = ()
    recent: tuple[GameRecord, ...] = ()
    problem: str | None = None

    @property
    def played(self) -> int:
        return sum(p.played for p in self.presets)

    def get(self, preset: str | Rules) -> PresetSummary | None:
        """The summary for a preset's name, a :func:`rules_key` or rules, if any were played."""
        key = preset if isinstance(preset, str) and preset.startswith("{") else rules_key(preset)
        return next((p for p in self.presets if p.rules == key), None)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a browser: no deck in it."""
        return {
            "problem": self.problem,
            "played": self.played,
            "presets": [p.to_dict() for p in self.presets],
            "recent": [g.to_dict() for g in self.recent],
        }


def _groups(rows: Any) -> dict[str, list[tuple]]:
    """(result, moves, seconds, solution_used) by rules key, leaving out nonsense rows."""
    groups: dict[str, list[tuple]] = {}
    for key, result, moves, seconds, solution_used in rows:
        if (
            _is_key(key)
            and result in RESULTS
            and type(moves) is int
            and isinstance(seconds, (int, float))
        ):
            groups.setdefault(key, []).append((result, moves, seconds, solution_used))
    return groups


@functools.lru_cache(maxsize=256)
def _is_key(key: Any) -> bool:
    try:
        return rules_key(rules_from_key(key)) == key
    except ValueError:
        return False


def _summarise(key: str, rows: list[tuple]) -> PresetSummary:
    """``rows``: (result, moves, seconds, solution_used) of one rules' games, oldest first."""
    results = [row[0] for row in rows]
    played, won = len(results), results.count("won")
    fair_wins = [row for row in rows if row[0] == "won" and not row[3]]
    low, high = wilson(won, played) if played else (None, None)
    current = best = 0
    for result in results:
        current = current + 1 if result == "won" else 0
        best = max(best, current)
    return PresetSummary(
        preset=rules_label(key),
        rules=key,
        played=played,
        won=won,
        lost=results.count("lost"),
        abandoned=results.count("abandoned"),
        win_rate=won / played if played else None,
        win_rate_low=low,
        win_rate_high=high,
        current_streak=current,
        best_streak=best,
        best_time=min((row[2] for row in fair_wins), default=None),
        fewest_moves=min((row[1] for row in fair_wins), default=None),
    )


def _order(key: str) -> tuple:
    names = list(PRESETS)
    return (names.index(key), "") if key in PRESETS else (len(names), rules_label(key))


# ----------------------------------------------------------------------------- the store

_COLUMNS = tuple(f.name for f in fields(GameRecord))
_INSERT = f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM games"


class Stats:
    """The statistics file in ``folder`` (default: :func:`default_folder`).

    Each call opens the file, does its work in one short transaction and closes it, so any
    number of kernels can share it. Safe to use from several threads.
    """

    def __init__(self, folder: str | os.PathLike | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.path = self.folder / FILE_NAME
        self._problem: str | None = None
        self._pending: list[GameRecord] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Stats({str(self.folder)!r})"

    @property
    def problem(self) -> str | None:
        """Why the last operation failed, in a player's words; ``None`` after a success."""
        return self._problem

    @property
    def pending(self) -> int:
        """Games recorded but not yet written (the file was locked or unusable)."""
        return len(self._pending)

    def record(self, record: GameRecord) -> bool:
        """Write ``record`` (and any game kept from an earlier failure); ``True`` if written.

        Raises nothing but a ``TypeError`` for something that is not a :class:`GameRecord`:
        when the file cannot be written, the game is kept in memory for the next call and the
        reason is in :attr:`problem`."""
        if not isinstance(record, GameRecord):
            raise TypeError(f"record() takes a GameRecord, not {type(record).__name__}")
        with self._lock:
            self._pending.append(record)
            del self._pending[:-MAX_PENDING]
            rows = [_to_row(r) for r in self._pending]
            written = self._guarded(lambda: self._write(rows), False)
            if written:
                self._pending.clear()
            return written

    def games(self, preset: str | Rules | None = None, limit: int | None = 100) -> list[GameRecord]:
        """The games recorded, newest first: all, or those of one preset (a name, ``"custom"``
        for every custom rules, a :func:`rules_key` or a ``Rules``); at most ``limit``
        (``None``: no limit). An empty list if the file cannot be read (see :attr:`problem`)."""
        where, params = _where(preset)
        count = _limit(limit)

        def work(db: sqlite3.Connection) -> list[GameRecord]:
            query = f"{_SELECT}{where} ORDER BY ended DESC, id DESC LIMIT ?"
            return _records(db.execute(query, (*params, count)))

        with self._lock:
            return self._guarded(lambda: self._read(work, []), [])

    def summary(self, preset: str | Rules | None = None, recent: int = 10) -> Summary:
        """The :class:`Summary` of all games, or of one preset (as for :meth:`games`), with
        the ``recent`` newest games; empty, with its ``problem``, if the file cannot be read."""
        where, params = _where(preset)
        count = _limit(recent)

        def work(db: sqlite3.Connection) -> Summary:
            query = f"SELECT rules, result, moves, seconds, solution_used FROM games{where}"
            groups = _groups(db.execute(query + " ORDER BY ended, id", params))
            newest = f"{_SELECT}{where} ORDER BY ended DESC, id DESC LIMIT ?"
            presets = [_summarise(key, groups[key]) for key in sorted(groups, key=_order)]
            return Summary(tuple(presets), tuple(_records(db.execute(newest, (*params, count)))))

        with self._lock:
            summary = self._guarded(lambda: self._read(work, Summary()), Summary())
            return Summary(problem=self._problem) if self._problem else summary

    def export_csv(self, path: str | os.PathLike) -> int:
        """Write every game, oldest first, deck included, to a CSV file at ``path``
        (atomically: a failed export leaves any previous file as it was); the number of games
        written. Raises :class:`StatsError` if the statistics cannot be read (and writes
        nothing then), ``OSError`` if ``path`` cannot be written. See :func:`read_csv`."""

        def work(db: sqlite3.Connection) -> list[GameRecord]:
            return _records(db.execute(f"{_SELECT} ORDER BY ended, id"))

        with self._lock:
            records = self._guarded(lambda: self._read(work, []), [])
            if self._problem:
                raise StatsError(self._problem)
        write_atomic(path, records_to_csv(records))
        return len(records)

    # ------------------------------------------------------------------ the file

    def _guarded(self, operation: Callable[[], T], failed: T) -> T:
        """Run ``operation``; on any failure keep its reason and return ``failed``."""
        try:
            value = operation()
        except Exception as error:  # whatever goes wrong with the file, play goes on
            self._problem = self._reason(error)
            return failed
        self._problem = None
        return value

    def _write(self, rows: list[tuple]) -> bool:
        self.folder.mkdir(parents=True, exist_ok=True)

        def work(db: sqlite3.Connection) -> bool:
            with _transaction(db, "BEGIN IMMEDIATE"):
                db.executemany(_INSERT, rows)
            return True

        return self._attempts(work, create=True)

    def _read(self, work: Callable[[sqlite3.Connection], T], empty: T) -> T:
        if not self.path.exists():
            return empty  # nothing recorded yet
        return self._attempts(lambda db: _in_snapshot(db, work), create=False)

    def _attempts(self, work: Callable[[sqlite3.Connection], T], create: bool) -> T:
        """``work`` on a fresh connection, tried again while another writer holds the file
        (SQLite gives up at once, without waiting, in some cases of contention)."""
        for attempt in range(ATTEMPTS - 1):
            try:
                return self._once(work, create)
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
            time.sleep(RETRY_PAUSE * 2**attempt * random.uniform(0.5, 1.5))
        return self._once(work, create)

    def _once(self, work: Callable[[sqlite3.Connection], T], create: bool) -> T:
        uri = f"{self.path.absolute().as_uri()}?mode={'rwc' if create else 'rw'}"
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            _prepare(db)
            return work(db)
        finally:
            db.close()

    def _reason(self, error: Exception) -> str:
        if isinstance(error, StatsError):
            return f"{_UNAVAILABLE}the file {self.path} {error}"
        if isinstance(error, sqlite3.Error):
            text = str(error)
            what = next((w for f, w in _WORDS if f in text.lower()), "cannot be used")
            return f"{_UNAVAILABLE}the file {self.path} {what} ({text})"
        if isinstance(error, OSError):
            where = error.filename or self.folder
            return f"{_UNAVAILABLE}the folder {where} cannot be used ({error.strerror or error})"
        return f"{_UNAVAILABLE}{type(error).__name__}: {error}"


def _prepare(db: sqlite3.Connection) -> None:
    """Check the file is ours and of a version this code reads, make it WAL, bring it up to
    date. Nothing is written to a file that is not ours."""
    version = _version(db)
    if version == 0 and _has_tables(db):
        raise StatsError("is not a statistics file: it holds other tables")
    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        db.execute("PRAGMA journal_mode=WAL")
    if version < SCHEMA_VERSION:
        with _transaction(db, "BEGIN IMMEDIATE"):
            version = _version(db)  # another process may have upgraded it meanwhile
            if version == 0 and _has_tables(db):
                raise StatsError("is not a statistics file: it holds other tables")
            for statements in _MIGRATIONS[version:]:
                for statement in statements:
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _version(db: sqlite3.Connection) -> int:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsError(
            f"was written by a newer version of milligan-widget (statistics version {version}; "
            f"this one reads up to {SCHEMA_VERSION})"
        )
    return version


def _has_tables(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection, begin: str) -> Iterator[None]:
    db.execute(begin)
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _in_snapshot(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    with _transaction(db, "BEGIN"):  # every query of one read sees the same games
        return work(db)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _where(preset: str | Rules | None) -> tuple[str, tuple]:
    if preset is None:
        return "", ()
    if preset == CUSTOM:
        return " WHERE rules LIKE '{%'", ()
    if isinstance(preset, str) and preset.startswith("{"):
        preset = rules_from_key(preset)
    return " WHERE rules = ?", (rules_key(preset),)


def _limit(limit: int | None) -> int:
    if limit is None:
        return -1  # SQLite: no limit
    if type(limit) is not int or limit < 0:
        raise StatsError(f"a limit is a count of games (0 or more) or None, not {shown(limit)}")
    return limit


def _to_row(record: GameRecord) -> tuple:
    row = [getattr(record, name) for name in _COLUMNS]
    row[0] = None if record.seed is None else str(record.seed)
    row[_COLUMNS.index("solution_used")] = int(record.solution_used)
    return tuple(row)


def _records(rows: Any) -> list[GameRecord]:
    """The rows as records; a row that was changed into nonsense is left out."""
    records = []
    for row in rows:
        with contextlib.suppress(ValueError, TypeError):
            values = dict(zip(_COLUMNS, row, strict=True))
            values["seed"] = None if values["seed"] is None else int(values["seed"])
            values["solution_used"] = _flag(values["solution_used"], (1,), (0,))
            values["seconds"] = float(values["seconds"])
            records.append(GameRecord(**values))
    return records


def _flag(value: Any, true: tuple, false: tuple) -> bool:
    if value in true:
        return True
    if value in false:
        return False
    raise StatsError(f"solution_used is yes or no, not {shown(value)}")


# ----------------------------------------------------------------------------- CSV


def records_to_csv(records: list[GameRecord]) -> str:
    """The records as CSV text: a header of the :class:`GameRecord` fields, one game a row
    (``seed`` and ``deck`` empty when absent, ``solution_used`` ``yes`` or ``no``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_COLUMNS)
    for record in records:
        row = ["" if value is None else value for value in _to_row(record)]
        row[_COLUMNS.index("solution_used")] = "yes" if record.solution_used else "no"
        writer.writerow(row)
    return out.getvalue()


def read_csv(path: str | os.PathLike) -> list[GameRecord]:
    """The games in a CSV file written by :meth:`Stats.export_csv`; a :class:`StatsError`
    naming the line if one is not a game."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        if tuple(next(reader, ())) != _COLUMNS:
            raise StatsError(f"{Path(path).name} is not a statistics export: its header differs")
        return [_from_csv(Path(path).name, reader.line_num, row) for row in reader]


def _from_csv(name: str, line: int, row: list[str]) -> GameRecord:
    try:
        values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
        values["seed"] = int(values["seed"]) if values["seed"] else None
        values["deck"] = values["deck"] or None
        for count in ("moves", "undos", "hints"):
            values[count] = int(values[count])
        values["seconds"] = float(values["seconds"])
        values["solution_used"] = _flag(values["solution_used"], ("yes",), ("no",))
        return GameRecord(**values)
    except ValueError as error:  # StatsError and RulesError are ValueErrors too
        raise StatsError(f"{name}, line {line}: not a game ({error})") from None
