"""The ``coached`` column of the statistics: recorded, summed apart from peeking, and files
and exports from before it still read."""

from __future__ import annotations

import dataclasses
import sqlite3

from milligan_widget.studies import stats
from milligan_widget.studies.stats import Stats, read_csv
from tests.test_stats import record
from tests.test_stats_peek import old_file


def test_coached_is_kept_and_the_summary_counts_it_apart_from_peeking(tmp_path):
    store = Stats(tmp_path)
    store.record(dataclasses.replace(record("won", 0), coached=True))
    store.record(record("won", 1))
    store.record(dataclasses.replace(record("lost", 2), coached=True, peek=True))
    assert [(g.coached, g.peek) for g in store.games()] == [
        (True, True),
        (False, False),
        (True, False),
    ]
    classic = store.summary().get("classic")
    assert (classic.coached, classic.won_coached, classic.peeked) == (2, 1, 1)
    assert store.summary().to_dict()["presets"][0]["coached"] == 2


def test_a_file_from_before_the_coach_reads_uncoached_and_is_upgraded_on_a_write(tmp_path):
    old_file(tmp_path, [("won", 0, 0), ("lost", 2, 0)])
    store = Stats(tmp_path)
    assert [g.coached for g in store.games()] == [False, False]  # read as is
    assert store.summary().get("classic").coached == 0
    assert store.record(dataclasses.replace(record("won", 30), coached=True))
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION == 4
        columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    assert "coached" in columns
    assert [g.coached for g in store.games()] == [True, False, False]


def test_csv_carries_coached_and_an_export_from_before_it_still_reads(tmp_path):
    store = Stats(tmp_path)
    store.record(dataclasses.replace(record("won", 0), coached=True))
    path = tmp_path / "games.csv"
    store.export_csv(path)
    assert path.read_text().splitlines()[0].endswith(",peek,coached")
    assert read_csv(path)[0].coached is True
    lines = path.read_text().splitlines()
    path.write_text("\n".join(",".join(line.split(",")[:-1]) for line in lines) + "\n")
    assert read_csv(path)[0].coached is False
