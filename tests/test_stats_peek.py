"""The ``peek`` column of the statistics: recorded, summed apart, and old files still read."""

from __future__ import annotations

import dataclasses
import sqlite3

from milligan_widget.studies import stats
from milligan_widget.studies.stats import GameRecord, Stats, read_csv
from tests.test_stats import record

VERSION_1 = stats._MIGRATIONS[0]  # the schema as version 1 wrote it


def old_file(folder, rows: list[tuple[str, int, int]]) -> None:
    """A statistics file written by version 1 (no ``peek``): (result, hints, solution) rows."""
    folder.mkdir(exist_ok=True)
    with sqlite3.connect(folder / stats.FILE_NAME) as db:
        for statement in VERSION_1:
            db.execute(statement)
        for n, (result, hints, solution) in enumerate(rows):
            db.execute(
                "INSERT INTO games (seed, deck, rules, result, moves, seconds, undos, hints,"
                " solution_used, started, ended) VALUES (?, NULL, 'classic', ?, 100, 60.0, 0,"
                " ?, ?, ?, ?)",
                (str(n + 1), result, hints, solution, f"2024-05-01T12:0{n}:00+00:00",
                 f"2024-05-01T12:0{n}:30+00:00"),
            )  # fmt: skip
        db.execute("PRAGMA user_version = 1")


def test_peek_is_kept_and_the_summary_tells_peeking_apart(tmp_path):
    store = Stats(tmp_path)
    store.record(dataclasses.replace(record("won", 0), peek=True))
    store.record(record("won", 1))
    store.record(dataclasses.replace(record("lost", 2), peek=True))
    assert [g.peek for g in store.games()] == [True, False, True]
    classic = store.summary().get("classic")
    assert (classic.played, classic.won, classic.peeked, classic.won_peeking) == (3, 2, 2, 1)
    assert store.summary().to_dict()["presets"][0]["peeked"] == 2


def test_an_old_file_reads_as_is_and_is_upgraded_on_the_next_write(tmp_path):
    # Before peek, every hint and every solution knew the hidden cards: those games peeked.
    old_file(tmp_path, [("won", 0, 0), ("won", 2, 0), ("lost", 0, 1)])
    store = Stats(tmp_path)
    assert [g.peek for g in store.games()] == [True, True, False]  # newest first, read-only
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1  # a read changes nothing
    assert store.summary().get("classic").peeked == 2
    assert store.record(record("won", 30))
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION
    assert [g.peek for g in store.games()] == [False, True, True, False]


def test_csv_carries_peek_and_an_export_from_before_peek_still_reads(tmp_path):
    store = Stats(tmp_path)
    store.record(dataclasses.replace(record("won", 0), peek=True))
    path = tmp_path / "games.csv"
    store.export_csv(path)
    assert read_csv(path)[0].peek is True
    lines = path.read_text().splitlines()
    old = [",".join(line.split(",")[:-2]) for line in lines]  # peek and coached cut off
    path.write_text("\n".join(old) + "\n")
    game = read_csv(path)[0]
    assert isinstance(game, GameRecord) and game.peek is False and game.result == "won"
