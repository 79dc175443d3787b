"""Statistics: every finished or abandoned game, kept in a small SQLite file.

>>> import tempfile
>>> from milligan_widget import Game
>>> from milligan_widget.studies.stats import GameRecord, Stats
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
or deleted. A game that could not be written stays in memory, counts in :meth:`Stats.summary`
(``Summary.pending`` says how many wait) and is tried again until it is written: by the
background writer a while later (:data:`RETRY_FIRST`, doubled after each failure up to
:data:`RETRY_MOST`), with the next game, when the widget closes and at a normal exit. A game
still unwritten at exit is kept in a file of its own in :data:`SPOOL` beside the statistics,
and the next session writes it. Each game has an id of its own (the file's ``uid``), so a
game written twice (an attempt that seemed to fail, a kept file written again) counts once.
:meth:`Stats.record_later` writes in a background thread, so that a player never waits for a
file another program holds locked; the reads open the file read-only (a file on a read-only
mount can be read).

What a browser may see: :meth:`Summary.to_dict` and :meth:`GameRecord.to_dict` hold no deck
(the dealing order); only :meth:`Stats.export_csv` and the Python objects carry it.
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import functools
import hashlib
import io
import json
import logging
import math
import os
import random
import re
import sqlite3
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from milligan_widget.engine.deals import MAX_DEAL, deal_number
from milligan_widget.engine.errors import MilliganError, SaveFileError, shown
from milligan_widget.engine.game import Game
from milligan_widget.engine.interval import wilson
from milligan_widget.engine.rules import PRESETS, Rules
from milligan_widget.engine.savefile import parse, read_text, write_atomic

ENVIRONMENT_VARIABLE = "MILLIGAN_WIDGET_DATA"  #: names a folder to use instead of the default
FILE_NAME = "statistics.sqlite3"
SCHEMA_VERSION = 4  #: the ``PRAGMA user_version`` of the files this version writes
RESULTS = ("won", "lost", "abandoned")
CUSTOM = "custom"  #: the filter that selects every game played under rules that are no preset
BUSY_TIMEOUT = 2.0  #: seconds SQLite waits for another writer, per attempt
ATTEMPTS = 4  #: attempts at an operation that finds the file locked
RETRY_PAUSE = 0.05  #: seconds before the second attempt (doubled for each later one)
MAX_PENDING = 1_000  #: unwritten games kept in memory; the oldest go first past this
IDLE_EXIT = 30.0  #: seconds the background writer's thread waits for work before it ends
WRITER = "milligan-widget statistics"  #: the background writer's thread name
EXIT_WAIT = 3.0  #: seconds a normal exit waits for the background writer to finish
RETRY_FIRST = 5.0  #: seconds before the background writer tries again the games left unwritten
RETRY_MOST = 300.0  #: ... doubled after each failure, up to this
SPOOL = "statistics-pending"  #: the folder, beside the file, of the games left unwritten at exit
SPOOL_BYTES = 100_000  #: the largest file of one game kept there that is read

T = TypeVar("T")
#: A row as sqlite3 gives it (or as it is written): the file's values, checked before use.
DbRow = tuple[Any, ...]
#: A game as a summary counts it: (result, moves, seconds, solution used, peeked, coached).
Counted = tuple[str, int, float, int, int, int]

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
    # 2: was the game played with peek on (the solver's help that knows the hidden cards)?
    # Games from before were, as peeking was all the widget had: 1 for them.
    (
        "ALTER TABLE games ADD COLUMN peek INTEGER NOT NULL DEFAULT 0",
        "UPDATE games SET peek = 1 WHERE hints > 0 OR solution_used",
    ),
    # 3: each game's id of its own: a game written again (after an attempt that seemed to
    # fail, or kept at exit and written by the next session) counts once.
    (
        "ALTER TABLE games ADD COLUMN uid TEXT",
        "CREATE UNIQUE INDEX games_by_uid ON games (uid)",
    ),
    # 4: was the game played with the live coach on (each move judged as it was played)?
    # Games from before were not: there was no coach.
    ("ALTER TABLE games ADD COLUMN coached INTEGER NOT NULL DEFAULT 0",),
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
            options = parse(key)  # a key read from the file may be anything: bounded
        except SaveFileError:
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
    ``peek``: the player had the all-seeing help on (hints and verdicts that know the
    hidden cards) at some time in the game. ``coached``: the live coach judged its moves
    (honest help: it reads no hidden card, so a coached game is not peeked). Make one with
    :meth:`from_game`.
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
    peek: bool = False
    coached: bool = False

    def __post_init__(self) -> None:
        _check_deal(self.seed, self.deck)
        if not _is_key(self.rules):
            raise StatsError(f"{shown(self.rules)} does not name rules as rules_key() does")
        if self.result not in RESULTS:
            raise StatsError(f"a result is one of {', '.join(RESULTS)}, not {shown(self.result)}")
        for name in ("moves", "undos", "hints"):
            _check_count(name, getattr(self, name))
        _check_seconds(self.seconds)
        for name in ("solution_used", "peek", "coached"):
            if type(getattr(self, name)) is not bool:
                raise StatsError(f"{name} is True or False, not {shown(getattr(self, name))}")
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
        peek: bool = False,
        coached: bool = False,
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
            peek=peek,
            coached=coached,
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
            return Game.from_layout(**parse(self.deck), rules=rules)
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
    ``fewest_moves`` are over the wins played without the solver's Solution. ``peeked``
    and ``won_peeking``: the games played, and won, with peek on (the help that knows the
    hidden cards), so that fair play and peeking can be told apart; ``coached`` and
    ``won_coached``: those played, and won, with the live coach on."""

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
    peeked: int = 0
    won_peeking: int = 0
    coached: int = 0
    won_coached: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Summary:
    """Statistics for each set of rules played (presets in their usual order, then custom
    rules), the newest games, the reason if the file could not be read or written, and the
    games counted that wait to be written (``pending``)."""

    presets: tuple[PresetSummary, ...] = ()
    recent: tuple[GameRecord, ...] = ()
    problem: str | None = None
    pending: int = 0

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
            "pending": self.pending,
            "presets": [p.to_dict() for p in self.presets],
            "recent": [g.to_dict() for g in self.recent],
        }


def _groups(rows: Iterable[DbRow]) -> dict[str, list[Counted]]:
    """(result, moves, seconds, solution_used, peek, coached) by rules key, leaving out
    nonsense rows."""
    groups: dict[str, list[Counted]] = {}
    for key, result, moves, seconds, solution_used, peek, coached in rows:
        if (
            _is_key(key)
            and result in RESULTS
            and type(moves) is int
            and isinstance(seconds, (int, float))
        ):
            counted = (result, moves, seconds, solution_used, peek, coached)
            groups.setdefault(key, []).append(counted)
    return groups


@functools.lru_cache(maxsize=256)
def _is_key(key: Any) -> bool:
    try:
        same: bool = rules_key(rules_from_key(key)) == key
    except ValueError:
        return False
    return same


def _summarise(key: str, rows: list[Counted]) -> PresetSummary:
    """``rows``: (result, moves, seconds, solution_used, peek, coached) of one rules' games,
    oldest first."""
    results = [row[0] for row in rows]
    played, won = len(results), results.count("won")
    peeked = [row[0] for row in rows if row[4]]
    coached = [row[0] for row in rows if row[5]]
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
        peeked=len(peeked),
        won_peeking=peeked.count("won"),
        coached=len(coached),
        won_coached=coached.count("won"),
    )


def _order(key: str) -> tuple[int, str]:
    names = list(PRESETS)
    return (names.index(key), "") if key in PRESETS else (len(names), rules_label(key))


# ----------------------------------------------------------------------------- the store

_COLUMNS = tuple(f.name for f in fields(GameRecord))
#: A game counted and not written yet: its id (the same on every attempt) and its record.
Waiting = tuple[str, GameRecord]
_UID = re.compile(r"[0-9a-f]{32}")  # a game's id: uuid4().hex
_SUMMARY_COLUMNS = ("rules", "result", "moves", "seconds", "solution_used", "peek", "coached")
_INSERT = (  # a game already written (the same uid) is left as it is: it counts once
    f"INSERT INTO games ({', '.join(_COLUMNS)}, uid) VALUES ({', '.join('?' * len(_COLUMNS))}, ?)"
    " ON CONFLICT (uid) DO NOTHING"
)
#: What a file older than a column says instead (what its migration sets): the column's
#: name -> (the version that added it, the value before).
_BEFORE = {"peek": (2, "(hints > 0 OR solution_used)"), "coached": (4, "0")}


def _select(db: sqlite3.Connection, columns: tuple[str, ...] = _COLUMNS) -> str:
    """SELECT ``columns`` FROM games, for a file of any version this code reads (a file
    read without writing is not upgraded: an older one gets the values its upgrade sets)."""
    version = _version(db)
    names = [_BEFORE[c][1] if version < _BEFORE.get(c, (0, c))[0] else c for c in columns]
    return f"SELECT {', '.join(names)} FROM games"


class Stats:
    """The statistics file in ``folder`` (default: :func:`default_folder`).

    Each call opens the file, does its work in one short transaction and closes it, so any
    number of kernels can share it. Safe to use from several threads.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.path = self.folder / FILE_NAME
        self._write_problem: str | None = None
        self._read_problem: str | None = None
        self._pending: list[Waiting] = []
        self._lock = threading.Lock()  # the pending games, the problems, a write's commit
        self._writing = threading.Lock()  # one write at a time
        self._background = _Background(self._write_pending)
        _STORES.add(self)

    def __repr__(self) -> str:
        return f"Stats({str(self.folder)!r})"

    @property
    def problem(self) -> str | None:
        """Why statistics are unavailable, in a player's words: the last write's failure
        while games wait to be written, else the last read's; ``None`` when all is well."""
        return self._write_problem or self._read_problem

    @property
    def pending(self) -> int:
        """Games recorded but not yet written (the file was locked or unusable)."""
        return len(self._pending)

    def record(self, record: GameRecord) -> bool:
        """Write ``record`` (and any game kept from an earlier failure); ``True`` if written.

        Raises nothing but a ``TypeError`` for something that is not a :class:`GameRecord`:
        when the file cannot be written, the game is kept in memory for the next call and the
        reason is in :attr:`problem`."""
        self._keep(record)
        return self._write_pending()

    def record_later(self, record: GameRecord, done: Callable[[bool], None] | None = None) -> None:
        """Keep ``record`` and write it in this object's background thread (with any game
        kept from an earlier failure): the caller never waits for the file, even one locked
        by another program. ``done(written)`` is called from that thread after the attempt.
        The game counts in :meth:`summary` at once. See :meth:`flush`."""
        self._keep(record)
        self._background.request(done)

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until the background writer has tried every game given to
        :meth:`record_later`; False on timeout (whether they were written: :attr:`pending`)."""
        return self._background.wait(timeout)

    def retry(self) -> None:
        """Try again at once, in the background, to write the games waiting: this
        session's, and those an earlier one kept at exit (:data:`SPOOL`); nothing to do when
        none waits. The widget asks when it is made and when it closes."""
        if self._pending or _has_files(self.folder / SPOOL):
            self._background.request(None)

    def games(self, preset: str | Rules | None = None, limit: int | None = 100) -> list[GameRecord]:
        """The games recorded, newest first: all, or those of one preset (a name, ``"custom"``
        for every custom rules, a :func:`rules_key` or a ``Rules``); at most ``limit``
        (``None``: no limit). An empty list if the file cannot be read (see :attr:`problem`).
        Games not written yet are not in it (:meth:`summary` counts them)."""
        where, params = _where(preset)
        count = _limit(limit)

        def work(db: sqlite3.Connection) -> list[GameRecord]:
            query = f"{_select(db)}{where} ORDER BY ended DESC, id DESC LIMIT ?"
            return _records(db.execute(query, (*params, count)))

        with self._lock:
            return self._guarded(lambda: self._read(work, []), [])

    def summary(self, preset: str | Rules | None = None, recent: int = 10) -> Summary:
        """The :class:`Summary` of all games, or of one preset (as for :meth:`games`), with
        the ``recent`` newest games; the games not written yet count too. Only those, with
        the ``problem``, if the file cannot be read."""
        where, params = _where(preset)
        count = _limit(recent)

        def work(db: sqlite3.Connection) -> tuple[list[DbRow], list[GameRecord]]:
            query = _select(db, _SUMMARY_COLUMNS) + where
            rows = list(db.execute(query + " ORDER BY ended, id", params))
            newest = f"{_select(db)}{where} ORDER BY ended DESC, id DESC LIMIT ?"
            return rows, _records(db.execute(newest, (*params, count)))

        with self._lock:  # the file and the pending games at one moment (see _write)
            nothing: tuple[list[DbRow], list[GameRecord]] = ([], [])
            rows, newest = self._guarded(lambda: self._read(work, nothing), nothing)
            waiting = [r for _, r in self._pending if _selects(preset, r)]
            problem = self.problem
        rows += [tuple(getattr(r, name) for name in _SUMMARY_COLUMNS) for r in waiting]
        groups = _groups(rows)
        presets = [_summarise(key, groups[key]) for key in sorted(groups, key=_order)]
        latest = sorted(newest + waiting, key=lambda r: r.ended, reverse=True)
        latest = latest if count < 0 else latest[:count]
        return Summary(tuple(presets), tuple(latest), problem, len(waiting))

    def export_csv(self, path: str | os.PathLike[str]) -> int:
        """Write every game, oldest first, deck included, to a CSV file at ``path``
        (atomically: a failed export leaves any previous file as it was); the number of games
        written. Raises :class:`StatsError` if the statistics cannot be read (and writes
        nothing then), ``OSError`` if ``path`` cannot be written. See :func:`read_csv`."""

        def work(db: sqlite3.Connection) -> list[GameRecord]:
            return _records(db.execute(f"{_select(db)} ORDER BY ended, id"))

        with self._lock:
            none: list[GameRecord] = []
            records = self._guarded(lambda: self._read(work, none), none)
            if self._read_problem:
                raise StatsError(self._read_problem)
        write_atomic(path, records_to_csv(records))
        return len(records)

    # ------------------------------------------------------------------ the file

    def _keep(self, record: GameRecord) -> None:
        if not isinstance(record, GameRecord):
            raise TypeError(f"record() takes a GameRecord, not {type(record).__name__}")
        with self._lock:
            self._pending.append((uuid.uuid4().hex, record))
            del self._pending[:-MAX_PENDING]

    def _write_pending(self) -> bool:
        """Write the games kept, and those an earlier session kept at exit; True if none
        is left unwritten."""
        with self._writing:
            with self._lock:
                batch = list(self._pending)
            kept = self._kept_at_exit({uid for uid, _ in batch})
            if not batch and not kept:
                return True
            rows = [(*_to_row(r), uid) for uid, r in batch + [(uid, r) for uid, r, _ in kept]]
            try:
                self._write(rows, lambda: self._forget(batch))
            except Exception as error:  # whatever goes wrong with the file, play goes on
                with self._lock:
                    self._write_problem = self._reason(error)
                return False
            for _, _, path in kept:  # written: the next write must not read them again
                with contextlib.suppress(OSError):
                    path.unlink(missing_ok=True)
            return True

    def _forget(self, written: list[Waiting]) -> None:
        """Drop the games just written from the pending ones, and the write's problem
        (``_lock`` held: a summary sees them written and all well at once)."""
        uids = {uid for uid, _ in written}
        self._pending = [w for w in self._pending if w[0] not in uids]
        self._write_problem = None

    def keep_at_exit(self) -> int:
        """Keep each game still waiting in a file of its own in :data:`SPOOL`, named by its
        id, for the next session to write (at a normal exit, when the file is still locked
        or cannot be written); how many were kept."""
        with self._lock:
            waiting = list(self._pending)
        kept = 0
        for uid, record in waiting:
            with contextlib.suppress(OSError):
                (self.folder / SPOOL).mkdir(parents=True, exist_ok=True)
                write_atomic(self.folder / SPOOL / f"{uid}.json", json.dumps(asdict(record)))
                kept += 1
        return kept

    def _kept_at_exit(self, mine: set[str]) -> list[tuple[str, GameRecord, Path]]:
        """The games kept at exit by an earlier session (:meth:`keep_at_exit`), each with
        its id and file, but those of this one (``mine``); a file that cannot be read as
        a game is left as it is."""
        try:
            paths = sorted((self.folder / SPOOL).glob("*.json"))[:MAX_PENDING]
        except OSError:
            return []
        found = []
        for path in paths:
            if not _UID.fullmatch(path.stem) or path.stem in mine:
                continue
            with contextlib.suppress(OSError, ValueError, TypeError):
                values = parse(read_text(path, SPOOL_BYTES), SPOOL_BYTES)
                found.append((path.stem, GameRecord(**values), path))
        return found

    def _guarded(self, read: Callable[[], T], failed: T) -> T:
        """Run ``read``; on any failure keep its reason and return ``failed``."""
        try:
            value = read()
        except Exception as error:  # whatever goes wrong with the file, play goes on
            self._read_problem = self._reason(error)
            return failed
        self._read_problem = None
        return value

    def _write(self, rows: list[DbRow], written: Callable[[], None]) -> None:
        """Insert ``rows``; ``written`` is called as they are committed, under ``_lock``,
        so that a summary sees each game once: in the file or pending. The wait for
        another writer happens before, without the lock."""
        self.folder.mkdir(parents=True, exist_ok=True)

        def work(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(_INSERT, rows)
                with self._lock:
                    db.execute("COMMIT")
                    written()
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

        self._attempts(work, create=True)

    def _read(self, work: Callable[[sqlite3.Connection], T], empty: T) -> T:
        if not self.path.exists():
            return empty  # nothing recorded yet
        return self._attempts(lambda db: _in_snapshot(db, work, empty), create=False)

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
        if create:
            return self._connected(work, "rwc", _prepare)
        try:
            return self._connected(work, "ro", _check)
        except sqlite3.OperationalError as error:
            if "unable to open" not in str(error) or _writable(self.folder):
                raise
        # A read-only mount: no other program can change the file, and SQLite cannot make
        # the shared-memory file WAL mode needs to read it, unless told so.
        return self._connected(work, "ro&immutable=1", _check)

    def _connected(
        self,
        work: Callable[[sqlite3.Connection], T],
        mode: str,
        prepare: Callable[[sqlite3.Connection], None],
    ) -> T:
        uri = f"{self.path.absolute().as_uri()}?mode={mode}"
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            prepare(db)
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


class _Background:
    """One thread that runs ``write`` when asked (several requests meanwhile: once), then
    calls each request's ``done(result)``. When ``write`` leaves games unwritten it runs
    again after :data:`RETRY_FIRST` seconds (doubled each time, up to :data:`RETRY_MOST`),
    or at once when asked; otherwise the thread ends after :data:`IDLE_EXIT` idle and starts
    again with the next request. Where no thread can start (Pyodide), the caller writes."""

    def __init__(self, write: Callable[[], bool]) -> None:
        self._write = write
        self._wake = threading.Condition()
        self._asked: list[Callable[[bool], None] | None] = []
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    def request(self, done: Callable[[bool], None] | None) -> None:
        with self._wake:
            self._asked.append(done)
            self._idle.clear()
            self._wake.notify()
            thread = None
            if self._thread is None:
                thread = self._thread = threading.Thread(
                    target=self._serve, name=WRITER, daemon=True
                )
        if thread is None:
            return
        try:
            thread.start()
        except RuntimeError:  # "can't start new thread"
            with self._wake:
                self._thread = None
            self._run_once()

    def wait(self, timeout: float | None) -> bool:
        return self._idle.wait(timeout)

    def _serve(self) -> None:
        retry: float | None = None  # seconds before the next attempt at what is left
        while self._has_work(retry):
            if self._run_once():
                retry = None
            else:
                retry = RETRY_FIRST if retry is None else min(RETRY_MOST, 2 * retry)

    def _has_work(self, retry: float | None) -> bool:
        """True once asked, or once ``retry`` seconds have passed (games are left to
        write); False (the thread ends) after :data:`IDLE_EXIT` idle with none left."""
        with self._wake:
            if not self._asked:
                self._wake.wait(IDLE_EXIT if retry is None else retry)
            if not self._asked and retry is None:
                self._thread = None
                return False
            return True

    def _run_once(self) -> bool:
        with self._wake:
            asked, self._asked = self._asked, []
            self._idle.clear()
        written = self._write()
        for done in asked:
            if done is not None:
                try:
                    done(written)
                except Exception:  # a caller's bug stops no later write
                    logging.getLogger(__name__).exception("statistics callback failed")
        with self._wake:
            if not self._asked:
                self._idle.set()
        return written


_STORES: weakref.WeakSet[Stats] = weakref.WeakSet()


@atexit.register
def _at_exit() -> None:
    """A normal exit: the games waiting are tried once more (a game that ended just before
    still counts), for a moment (:data:`EXIT_WAIT`); those still unwritten are kept for the
    next session (:meth:`Stats.keep_at_exit`)."""
    stores = list(_STORES)
    for store in stores:
        if store.pending:
            store.retry()
    deadline = time.monotonic() + EXIT_WAIT
    for store in stores:
        store.flush(max(0.0, deadline - time.monotonic()))
    for store in stores:
        store.keep_at_exit()


def _has_files(folder: Path) -> bool:
    """Does ``folder`` exist and hold a file (without listing it all)?"""
    try:
        with os.scandir(folder) as entries:
            return any(True for _ in entries)
    except OSError:
        return False


def _writable(folder: Path) -> bool:
    """Can files be made in ``folder`` (False on a read-only mount)?"""
    return os.access(folder, os.W_OK)


def _selects(preset: str | Rules | None, record: GameRecord) -> bool:
    """Is ``record`` one of the games :func:`_where` selects for ``preset``?"""
    if preset is None:
        return True
    if preset == CUSTOM:
        return record.rules.startswith("{")
    if isinstance(preset, str) and preset.startswith("{"):
        preset = rules_from_key(preset)
    return record.rules == rules_key(preset)


def _check(db: sqlite3.Connection) -> None:
    """Check, without writing anything, that the file is ours and of a version this code
    reads (for a read: a file that is not in WAL mode or not up to date yet is read as is)."""
    if _version(db) == 0 and _has_tables(db):
        raise StatsError("is not a statistics file: it holds other tables")


def _prepare(db: sqlite3.Connection) -> None:
    """Check the file is ours and of a version this code reads, make it WAL, bring it up to
    date. Nothing is written to a file that is not ours."""
    version = _version(db)
    # tables but no version: another program's file, unless another writer made ours
    # between the two reads (its tables and version come in one transaction): read again
    if version == 0 and _has_tables(db) and (version := _version(db)) == 0:
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
    version: int = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsError(
            f"was written by a newer version of milligan-widget (statistics version {version}; "
            f"this one reads up to {SCHEMA_VERSION})"
        )
    return version


def _has_tables(db: sqlite3.Connection) -> bool:
    tables: int = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return tables > 0


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection, begin: str) -> Iterator[None]:
    db.execute(begin)
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _in_snapshot(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T], empty: T) -> T:
    with _transaction(db, "BEGIN"):  # every query of one read sees the same games
        if _version(db) == 0:
            return empty  # made, and nothing recorded yet (an older version reads as is)
        return work(db)


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _where(preset: str | Rules | None) -> tuple[str, tuple[str, ...]]:
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


def _to_row(record: GameRecord) -> DbRow:
    row = [getattr(record, name) for name in _COLUMNS]
    row[0] = None if record.seed is None else str(record.seed)
    row[_COLUMNS.index("solution_used")] = int(record.solution_used)
    row[_COLUMNS.index("peek")] = int(record.peek)
    return tuple(row)


def _records(rows: Any) -> list[GameRecord]:
    """The rows as records; a row that was changed into nonsense is left out."""
    records = []
    for row in rows:
        with contextlib.suppress(ValueError, TypeError):
            values = dict(zip(_COLUMNS, row, strict=True))
            values["seed"] = None if values["seed"] is None else deal_number(values["seed"])
            values["solution_used"] = _flag(values["solution_used"], (1,), (0,))
            values["peek"] = _flag(values["peek"], (1,), (0,))
            values["coached"] = _flag(values["coached"], (1,), (0,))
            values["seconds"] = float(values["seconds"])
            records.append(GameRecord(**values))
    return records


def _flag(value: Any, true: tuple[object, ...], false: tuple[object, ...]) -> bool:
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
        row[_COLUMNS.index("peek")] = "yes" if record.peek else "no"
        row[_COLUMNS.index("coached")] = "yes" if record.coached else "no"
        writer.writerow(row)
    return out.getvalue()


def read_csv(path: str | os.PathLike[str]) -> list[GameRecord]:
    """The games in a CSV file written by :meth:`Stats.export_csv`; a :class:`StatsError`
    naming the line if one is not a game."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = tuple(next(reader, ()))
        if header not in (_COLUMNS, _COLUMNS[:-1], _COLUMNS[:-2]):  # before coached, peek
            raise StatsError(f"{Path(path).name} is not a statistics export: its header differs")
        return [_from_csv(Path(path).name, reader.line_num, header, row) for row in reader]


def _from_csv(name: str, line: int, header: tuple[str, ...], row: list[str]) -> GameRecord:
    try:
        values: dict[str, Any] = dict(zip(header, row, strict=True))
        values["seed"] = deal_number(values["seed"]) if values["seed"] else None
        values["deck"] = values["deck"] or None
        for count in ("moves", "undos", "hints"):
            values[count] = int(values[count])
        values["seconds"] = float(values["seconds"])
        values["solution_used"] = _flag(values["solution_used"], ("yes",), ("no",))
        for flag in ("peek", "coached"):
            if flag in values:
                values[flag] = _flag(values[flag], ("yes",), ("no",))
        return GameRecord(**values)
    except ValueError as error:  # StatsError and RulesError are ValueErrors too
        raise StatsError(f"{name}, line {line}: not a game ({error})") from None
