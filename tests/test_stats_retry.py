"""Nothing counted is lost (issue 31, N1): a game counted while another program holds the
statistics file locked longer than the writer waits is tried again until it is written (a
while later, when the widget closes, at exit; kept for the next session if the file is still
locked then), and it counts once however many attempts write it."""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.studies import stats
from milligan_widget.studies.stats import SPOOL, GameRecord, Stats
from milligan_widget.widget import MilliganWidget
from tests.test_stats import record

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that gives up on a locked file in a moment, and tries again soon."""
    monkeypatch.setattr(stats, "BUSY_TIMEOUT", 0.05)
    monkeypatch.setattr(stats, "RETRY_PAUSE", 0.001)
    monkeypatch.setattr(stats, "RETRY_FIRST", 0.2)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another program holds the statistics file, made first if need be, locked."""
    if not path.exists():
        Stats(path.parent).record(record("won", 0))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _until(condition, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_game_counted_during_a_long_lock_is_written_once_the_lock_goes(tmp_path: Path) -> None:
    store = Stats(tmp_path)
    with locked(store.path):
        store.record_later(record("lost", 1))
        assert store.flush(10) and store.pending == 1  # tried, and given up, while locked
        assert "in use by another program" in (store.problem or "")
    # No other game is counted: the writer tries again by itself.
    assert _until(lambda: store.pending == 0), "the game waits forever"
    assert [g.result for g in store.games()] == ["lost", "won"] and store.problem is None


def test_the_writer_waits_longer_after_each_failure(tmp_path: Path, monkeypatch) -> None:
    store = Stats(tmp_path)
    attempts: list[float] = []
    write = store._write

    def counted(*args) -> None:
        attempts.append(time.monotonic())
        write(*args)

    monkeypatch.setattr(store, "_write", counted)
    with locked(store.path):
        store.record_later(record("lost", 1))
        time.sleep(2.0)
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert 3 <= len(attempts) <= 6 and gaps[-1] > gaps[0] + 0.1  # paused 0.2 s, 0.4 s, ...
    assert _until(lambda: store.pending == 0)


def test_closing_the_widget_tries_the_game_again(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(stats, "RETRY_FIRST", 600.0)  # only the close can write it in time
    store = Stats(tmp_path)
    widget = MilliganWidget(seed=5, stats=store, autosave=False)
    with locked(store.path):
        widget.deal()
        widget.new_game(6)  # deal 5 left: counted
        assert store.flush(10) and store.pending == 1
    widget.close()
    assert _until(lambda: store.pending == 0)
    assert [(g.seed, g.result) for g in store.games()] == [(5, "abandoned"), (1, "won")]


EXIT = """
import sys
from milligan_widget import Game
from milligan_widget.studies import stats
from milligan_widget.studies.stats import GameRecord, Stats
stats.BUSY_TIMEOUT, stats.RETRY_PAUSE, stats.EXIT_WAIT = 0.05, 0.001, 0.5
game = Game.new(7)
game.play("d")
store = Stats(sys.argv[1])
store.record_later(GameRecord.from_game(game, seconds=3))
store.flush(10)
print(store.pending, flush=True)
"""


def _exit_while_locked(folder: Path) -> str:
    """A session that counts a game while the file is locked, and exits."""
    with locked(folder / stats.FILE_NAME):
        run = subprocess.run(
            [sys.executable, "-c", EXIT, str(folder)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )
    return run.stdout.strip()


def test_a_game_still_locked_out_at_exit_is_written_by_the_next_session(tmp_path: Path) -> None:
    assert _exit_while_locked(tmp_path) == "1"  # unwritten when the session ended
    (kept,) = (tmp_path / SPOOL).glob("*.json")
    assert json.loads(kept.read_text())["seed"] == 7
    store = Stats(tmp_path)
    assert [g.seed for g in store.games()] == [1]  # not yet: the next session writes it
    MilliganWidget(seed=8, stats=store, autosave=False)  # a widget made: it is written
    assert _until(lambda: [g.seed for g in store.games()] == [7, 1])
    assert _until(lambda: not kept.exists())  # removed once written, a moment after
    assert [g.seed for g in store.games()] == [7, 1]  # and counted once


def test_a_game_written_twice_counts_once(tmp_path: Path) -> None:
    """At exit a game may be kept for the next session while the writer, a moment later,
    writes it after all: the next session writes it again, and it still counts once."""
    store = Stats(tmp_path)
    with locked(store.path):
        store.record_later(record("lost", 1))
        assert store.flush(10) and store.keep_at_exit() == 1  # the exit keeps it...
    assert _until(lambda: store.pending == 0)  # ... and the writer writes it
    later = Stats(tmp_path)
    later.record(record("won", 2))  # writes the kept game again, with this one
    assert not list((tmp_path / SPOOL).glob("*.json"))
    assert sorted(g.result for g in later.games()) == ["lost", "won", "won"]
    assert later.summary().get("classic").played == 3


def test_a_kept_file_that_is_no_game_is_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / SPOOL
    folder.mkdir()
    odd = {"deep.json": "[" * 100_000, "0" * 32 + ".json": '{"seed": 1}', "notes.json": "{}"}
    for name, text in odd.items():
        (folder / name).write_text(text)
    store = Stats(tmp_path)
    assert store.record(GameRecord.from_game(Game.new(3).after("d"), seconds=1))
    assert [g.seed for g in store.games()] == [3]
    assert {p.name: p.read_text() for p in folder.iterdir()} == odd
