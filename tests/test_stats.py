"""The statistics store: real games in a real SQLite file (tmp_path), several writers at once,
and files that are damaged, foreign, locked or cannot be made, none of which stops play."""

from __future__ import annotations

import dataclasses
import doctest
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import platformdirs
import pytest

from milligan_widget import Game, Rules
from milligan_widget.strategy import greedy, play_game
from milligan_widget.studies import stats
from milligan_widget.studies.stats import (
    GameRecord,
    Stats,
    StatsError,
    default_folder,
    read_csv,
    rules_key,
)
from tests.lines import WIN_8

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def won_game() -> Game:
    game = Game.new(8)
    for move in WIN_8.split():
        game.play(move)
    assert game.status == "won"
    return game


def lost_game(seed: int = 1) -> Game:
    game = play_game(Game.new(seed), greedy)
    assert game.status == "lost"
    return game


def record(
    result: str,
    minute: int,
    *,
    seconds: float = 60.0,
    moves: int = 200,
    solution: bool = False,
    rules: str = "classic",
    seed: int = 1,
) -> GameRecord:
    """A game that ended ``minute`` minutes after START."""
    ended = START + timedelta(minutes=minute)
    return GameRecord(
        seed=seed,
        deck=None,
        rules=rules,
        result=result,
        moves=moves,
        seconds=seconds,
        undos=0,
        hints=0,
        solution_used=solution,
        started=(ended - timedelta(seconds=seconds)).isoformat(),
        ended=ended.isoformat(),
    )


def plain(value) -> bool:
    """Only dicts, lists, str, int, float, bool and None, all the way down."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


# ----------------------------------------------------------------------------- real games


def test_real_games_are_recorded_and_summarised(tmp_path):
    store = Stats(tmp_path)
    abandoned = Game.new(2)
    abandoned.play("d")
    played = [
        (lost_game(), START),
        (won_game(), START + timedelta(hours=1)),
        (abandoned, START + timedelta(hours=2)),
    ]
    for game, ended in played:
        made = GameRecord.from_game(game, seconds=95.5, undos=3, hints=2, ended=ended)
        assert store.record(made) and store.problem is None
    games = store.games()
    assert [g.result for g in games] == ["abandoned", "won", "lost"]  # newest first
    won = games[1]
    assert (won.seed, won.deck, won.rules, won.moves) == (8, None, "classic", 207)
    assert (won.undos, won.hints, won.solution_used, won.seconds) == (3, 2, False, 95.5)
    assert won.ended == "2024-05-01T13:00:00+00:00"
    assert won.started == "2024-05-01T12:58:24+00:00"  # 95.5 s before, to the second
    assert won.deal_again() == Game.new(8)
    assert games[0].moves == 1 and games[2].moves == lost_game().ply
    classic = store.summary().get("classic")
    assert (classic.played, classic.won, classic.lost, classic.abandoned) == (3, 1, 1, 1)
    assert (classic.current_streak, classic.best_streak) == (0, 1)
    assert (classic.best_time, classic.fewest_moves) == (95.5, 207)


def test_a_deal_without_a_number_keeps_its_deck_and_deals_again(tmp_path):
    store = Stats(tmp_path)
    rules = Rules.named("classic").replace(cells=2)
    deck = [str(card) for card in Game.new(3).deck]
    layout = {
        "tableau": [["KH"], *[[]] * 7],
        "foundations": ["KC", "KC", "KS", "KS", "KH", "QH", "KD", "KD"],
    }
    dealt, staged = Game.from_deck(deck, rules), Game.from_layout(**layout)
    for game in (dealt, staged):
        game.play(game.legal_moves[0])
        assert store.record(GameRecord.from_game(game, seconds=1))
    from_staged, from_deck = store.games()
    assert from_deck.seed is None and from_deck.deck == " ".join(str(c) for c in dealt.deck)
    assert from_deck.deal_again() == Game.from_deck(deck, rules)
    assert from_deck.preset == "custom: cells=2" and from_deck.deal.startswith("deck ")
    assert from_staged.result == "won" and from_staged.deal.startswith("position ")
    assert from_staged.deal_again() == Game.from_layout(**layout)


def test_a_deal_number_past_64_bits_is_kept_exactly(tmp_path):
    store = Stats(tmp_path)
    seed = 10**20 - 1
    assert store.record(GameRecord.from_game(Game.new(seed), seconds=0))
    assert store.games()[0].seed == seed


# ----------------------------------------------------------------------------- summaries


def test_streaks_and_the_wilson_interval_match_hand_computed_values(tmp_path):
    store = Stats(tmp_path)
    results = ["won", "won", "lost", "won", "won", "won", "abandoned", "won", "won"]
    # Recorded out of order: streaks follow the end times, not the order of writing.
    for minute in (8, 0, 3, 1, 2, 7, 4, 6, 5):
        assert store.record(record(results[minute], minute))
    for minute in range(3):
        assert store.record(record("lost", minute, rules="millie"))
    summary = store.summary()
    classic, millie = summary.presets
    assert (classic.preset, millie.preset) == ("classic", "millie")
    assert (classic.played, classic.won, classic.lost, classic.abandoned) == (9, 7, 1, 1)
    assert (classic.current_streak, classic.best_streak) == (2, 3)
    # 7 of 9, z = 1.96: centre (7/9 + z²/18) / (1 + z²/9) = 0.69469,
    # half-width z·√(7/9·2/9/9 + z²/324) / (1 + z²/9) = 0.24210.
    assert classic.win_rate == pytest.approx(7 / 9)
    assert classic.win_rate_low == pytest.approx(0.4526, abs=1e-4)
    assert classic.win_rate_high == pytest.approx(0.9368, abs=1e-4)
    # 0 of 3: the interval is 0 .. z²/(3 + z²) = 3.8416 / 6.8416 = 0.56151.
    assert (millie.won, millie.win_rate, millie.win_rate_low) == (0, 0.0, 0.0)
    assert millie.win_rate_high == pytest.approx(0.56151, abs=1e-5)
    assert (millie.current_streak, millie.best_streak, millie.best_time) == (0, 0, None)
    assert summary.played == 12
    assert store.summary("millie").presets == (millie,)


def test_a_summary_of_nothing_has_no_rate(tmp_path):
    store = Stats(tmp_path / "never-written")
    summary = store.summary()
    assert summary.presets == () and summary.problem is None and store.games() == []
    assert summary.get("classic") is None
    assert not (tmp_path / "never-written").exists(), "reading creates nothing"
    assert store.record(record("won", 0, rules="easy"))
    only = store.summary().get("easy")
    assert (only.win_rate, only.win_rate_low, only.win_rate_high) == (
        1.0,
        pytest.approx(0.20654, abs=1e-5),
        1.0,
    )  # 1 of 1: z²/(1 + z²) below
    assert store.summary("classic").presets == ()


def test_best_time_and_fewest_moves_are_the_players_own_wins(tmp_path):
    store = Stats(tmp_path)
    store.record(record("won", 0, seconds=300, moves=250))
    store.record(record("won", 1, seconds=200, moves=260))
    store.record(record("won", 2, seconds=5, moves=150, solution=True))  # the solver played
    store.record(record("lost", 3, seconds=1, moves=10))
    classic = store.summary().get("classic")
    assert (classic.best_time, classic.fewest_moves, classic.won) == (200, 250, 3)


def test_games_are_newest_first_filtered_and_limited(tmp_path):
    store = Stats(tmp_path)
    custom = rules_key(Rules.named("millie").replace(cells=1))
    for minute in range(6):
        rules = ("classic", "millie", custom)[minute % 3]
        store.record(record("won", minute, rules=rules, seed=minute + 1))
    assert [g.seed for g in store.games()] == [6, 5, 4, 3, 2, 1]
    assert [g.seed for g in store.games("millie")] == [5, 2]
    assert [g.seed for g in store.games(Rules.named("millie"))] == [5, 2]
    assert [g.seed for g in store.games("custom")] == [6, 3]
    assert [g.seed for g in store.games(custom, limit=1)] == [6]
    assert len(store.games(limit=None)) == 6 and store.games(limit=0) == []
    with pytest.raises(ValueError, match="not a rules preset"):
        store.games("clasic")


def test_the_summary_for_a_browser_is_plain_data_without_any_deck(tmp_path):
    store = Stats(tmp_path)
    game = Game.from_deck([str(card) for card in Game.new(5).deck])
    game.play("d")
    store.record(GameRecord.from_game(game, seconds=12, solution_used=True))
    store.record(GameRecord.from_game(won_game(), seconds=300))
    data = store.summary().to_dict()
    assert plain(data) and json.loads(json.dumps(data)) == data
    text = json.dumps(data)
    assert "deck" not in {key for game in data["recent"] for key in game}
    assert str(game.deck[0]) + " " + str(game.deck[1]) not in text
    newest, older = data["recent"]  # the same second: newest by the order of writing
    assert newest["deal"] == "deal 8" and older["deal"].startswith("deck ")
    assert data["presets"][0]["won"] == 1 and data["presets"][0]["abandoned"] == 1
    assert "deck" in store.games()[1].to_dict(deck=True)


# ----------------------------------------------------------------------------- the file


def test_the_file_is_wal_with_a_schema_version(tmp_path):
    store = Stats(tmp_path)
    store.record(record("won", 0))
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == stats.SCHEMA_VERSION == 4
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.path == tmp_path / "statistics.sqlite3"


WRITER = """
import sys, time
from pathlib import Path
from milligan_widget import Game
from milligan_widget.studies.stats import GameRecord, Stats
folder, first, go = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
store = Stats(folder)
games = [GameRecord.from_game(Game.new(seed), seconds=1) for seed in range(first, first + 200)]
while not go.exists():
    time.sleep(0.001)
failed = sum(not store.record(game) for game in games)
print(failed, store.pending, store.problem)
"""


def test_two_processes_writing_200_games_each_lose_none(tmp_path):
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path / "data"), str(first), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for first in (1, 201)
    ]
    go.touch()  # both start on a file that does not exist yet: they race to create it too
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        assert out.split() == ["0", "0", "None"], out
    with sqlite3.connect(tmp_path / "data" / stats.FILE_NAME) as db:
        seeds = [int(row[0]) for row in db.execute("SELECT seed FROM games")]
    assert sorted(seeds) == list(range(1, 401))


def test_a_corrupt_file_never_stops_play(tmp_path):
    store = Stats(tmp_path)
    garbage = bytes(range(256)) * 40
    store.path.write_bytes(garbage)
    before = files_in(tmp_path)
    game = won_game()
    assert store.record(GameRecord.from_game(game, seconds=10)) is False
    assert store.problem.startswith("Statistics are unavailable: the file ")
    assert f"{store.path} is not a database (file is not a database)" in store.problem
    assert store.pending == 1
    summary = store.summary()  # the game waiting to be written counts, and the reason stays
    assert summary.problem == store.problem and summary.pending == 1
    assert [(p.played, p.won) for p in summary.presets] == [(1, 1)]
    assert summary.to_dict()["problem"] == store.problem and summary.to_dict()["pending"] == 1
    assert store.problem is not None and store.games() == []
    with pytest.raises(StatsError, match="is not a database"):
        store.export_csv(tmp_path / "out.csv")
    game.undo()  # play goes on
    assert files_in(tmp_path) == before, "the file is left exactly as it was"


def test_files_of_another_program_or_a_newer_version_are_left_alone(tmp_path):
    other, newer = Stats(tmp_path / "other"), Stats(tmp_path / "newer")
    for store in (other, newer):
        store.folder.mkdir()
        with sqlite3.connect(store.path) as db:
            db.execute("CREATE TABLE notes (text TEXT)")
        if store is newer:
            with sqlite3.connect(store.path) as db:
                db.execute("PRAGMA user_version = 7")
    before = {s: files_in(s.folder) for s in (other, newer)}
    assert not other.record(record("won", 0)) and not newer.record(record("won", 0))
    assert "is not a statistics file: it holds other tables" in other.problem
    assert "newer version of milligan-widget (statistics version 7" in newer.problem
    assert newer.summary().problem == newer.problem
    assert {s: files_in(s.folder) for s in (other, newer)} == before


def test_a_locked_file_keeps_the_game_until_it_can_be_written(tmp_path, monkeypatch):
    monkeypatch.setattr(stats, "BUSY_TIMEOUT", 0.05)
    monkeypatch.setattr(stats, "RETRY_PAUSE", 0.001)
    store = Stats(tmp_path)
    store.record(record("won", 0))
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert store.record(record("lost", 1)) is False
        assert "is in use by another program (database is locked)" in store.problem
        assert store.pending == 1
        summary = store.summary()  # read while locked: the reason stays, the game counts
        assert summary.problem == store.problem and "in use" in (store.problem or "")
        assert summary.pending == 1 and summary.get("classic").played == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.record(record("won", 2)) and store.pending == 0 and store.problem is None
    assert [g.result for g in store.games()] == ["won", "lost", "won"]


def test_a_folder_under_a_regular_file_gives_a_reason(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    store = Stats(tmp_path / "file" / "statistics")
    assert store.record(record("won", 0)) is False
    assert store.problem.startswith("Statistics are unavailable: ")
    assert str(tmp_path / "file") in store.problem and "Not a directory" in store.problem
    assert store.summary().pending == store.summary().played == 1 and store.games() == []
    assert store.summary().problem == store.problem
    assert (tmp_path / "file").read_text() == "not a folder"


READ_ONLY = """
import sys
import threading
from pathlib import Path
from milligan_widget import Game
from milligan_widget.studies.stats import GameRecord, Stats
folder = Path(sys.argv[1])
try:
    (folder / "probe").touch()
except PermissionError:
    pass
else:
    sys.exit(77)  # chmod does not stop this process's writes
store = Stats(folder)
assert not store.record(GameRecord.from_game(Game.new(1), seconds=1)), "recorded"
print(store.problem)
assert f"the file {store.path} cannot be opened" in store.problem, store.problem
summary = store.summary()  # the game waits in memory, counted, and the reason stays
assert (summary.problem, summary.pending, summary.played) == (store.problem, 1, 1), summary
"""
# Root writes through chmod; without these capabilities it obeys it like anyone.
NO_OVERRIDE = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
]


def test_a_read_only_folder_gives_a_reason(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root and not shutil.which("setpriv"):
        pytest.skip(
            "running as root, where chmod does not stop writes, and without setpriv "
            "to drop that power (test_a_folder_under_a_regular_file still runs)"
        )
    command = [*(NO_OVERRIDE if as_root else []), sys.executable, "-c", READ_ONLY, str(folder)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    finally:
        folder.chmod(0o700)
    if done.returncode == 77:
        pytest.skip("chmod does not stop writes here, even without CAP_DAC_OVERRIDE")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Statistics are unavailable: the file ")


def test_nonsense_rows_are_left_out(tmp_path):
    store = Stats(tmp_path)
    for minute in range(3):
        store.record(record("won", minute))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE games SET result = 'maybe' WHERE id = 1")
        db.execute("UPDATE games SET rules = '{nonsense' WHERE id = 2")
    assert len(store.games()) == 1 and store.summary().get("classic").played == 1


# ----------------------------------------------------------------------------- where it is


def test_the_environment_variable_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(tmp_path / "here"))
    assert default_folder() == tmp_path / "here"
    store = Stats()
    assert store.path == tmp_path / "here" / "statistics.sqlite3"
    assert store.record(record("won", 0)) and store.path.exists()
    monkeypatch.delenv("MILLIGAN_WIDGET_DATA")
    assert default_folder() == Path(platformdirs.user_data_dir("milligan-widget", appauthor=False))


# ----------------------------------------------------------------------------- CSV


def test_the_csv_export_round_trips(tmp_path, monkeypatch):
    store = Stats(tmp_path)
    custom = Game.from_deck(
        [str(c) for c in Game.new(4).deck], Rules.named("easy").replace(cells=3)
    )
    for game, minute in ((won_game(), 0), (lost_game(2), 1), (custom, 2), (Game.new(10**19), 3)):
        ended = START + timedelta(minutes=minute)
        store.record(
            GameRecord.from_game(
                game, seconds=61.25, hints=1, ended=ended, solution_used=minute == 0
            )
        )
    target = tmp_path / "games.csv"
    assert store.export_csv(target) == 4
    again = read_csv(target)
    assert again == store.games()[::-1]
    assert again[2].deal_again() == custom
    # Atomic: an export that fails on the way leaves the previous file as it was.
    before = target.read_bytes()
    store.record(record("won", 9))

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        store.export_csv(target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if "games" in p.name) == ["games.csv"]


def test_a_damaged_csv_is_refused_with_its_line(tmp_path):
    store = Stats(tmp_path)
    store.record(record("won", 0))
    target = tmp_path / "games.csv"
    store.export_csv(target)
    target.write_text(target.read_text().replace(",won,", ",maybe,"))
    with pytest.raises(StatsError, match=r"games\.csv, line 2: not a game"):
        read_csv(target)


# ----------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"result": "drawn"}, "a result is one of"),
        ({"undos": -1}, "undos is a count"),
        ({"moves": True}, "moves is a count"),
        ({"seconds": float("nan")}, "seconds is a time"),
        ({"rules": "classic-ish"}, "does not name rules"),
        ({"seed": None}, "needs its deck"),
        ({"deck": "AS 2S"}, "keeps no deck"),
        ({"ended": "2024-05-01T12:00:00"}, "ended must be a UTC time"),
        ({"ended": "2024-05-01T14:00:00+02:00"}, "ended must be a UTC time"),
        ({"ended": "2024-05-01 12:00:00+00:00"}, "ended must be a UTC time written like"),
        ({"started": "yesterday"}, "started is a time in ISO 8601"),
        ({"solution_used": 1}, "solution_used is True or False"),
    ],
)
def test_a_record_that_makes_no_sense_is_refused(change, words):
    with pytest.raises(StatsError, match=words):
        dataclasses.replace(record("won", 0), **change)


def test_from_game_wants_times_with_a_zone():
    with pytest.raises(StatsError, match="timezone-aware"):
        GameRecord.from_game(Game.new(1), seconds=1, ended=datetime(2024, 5, 1))
    with pytest.raises(TypeError, match="GameRecord"):
        Stats("unused").record({"result": "won"})


def test_the_docstring_example_runs():
    result = doctest.testmod(stats)
    assert result.failed == 0 and result.attempted > 0


def test_record_later_returns_while_another_program_holds_the_file_locked(tmp_path):
    store = Stats(tmp_path)
    store.record(record("won", 0))
    written, threads = threading.Event(), []

    def done(ok: bool) -> None:
        threads.append((threading.current_thread().name, ok))
        written.set()

    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store.record_later(record("lost", 1), done)
        # Back at once: the file is still locked, so nothing can have been written yet.
        assert not written.is_set() and store.pending == 1
        summary = store.summary()  # the game waiting counts already
        assert summary.pending == 1 and summary.get("classic").played == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert written.wait(30) and store.flush(30)
    assert threads == [(stats.WRITER, True)]
    assert [g.result for g in store.games()] == ["lost", "won"] and store.pending == 0
    assert store.summary().get("classic").played == 2  # counted once, now from the file


READ_ONLY_MOUNT = """
mkdir -p "$2" && mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" || exit 77
exec "$3" -c '
import sys
import threading
from milligan_widget import Game
from milligan_widget.studies.stats import GameRecord, Stats
store = Stats(sys.argv[1])
summary = store.summary()
print(summary.played, len(store.games()), summary.problem)
print(store.record(GameRecord.from_game(Game.new(1), seconds=1)), store.problem)
' "$2"
"""


def test_a_statistics_file_on_a_read_only_mount_can_be_read(tmp_path):
    source = Stats(tmp_path / "data")
    for minute in range(3):
        source.record(record("won", minute))
    if not shutil.which("unshare"):
        pytest.skip("no unshare to make a read-only mount")
    command = ["unshare", "-rm", "sh", "-c", READ_ONLY_MOUNT, "sh", str(source.folder),
               str(tmp_path / "mounted"), sys.executable]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    if done.returncode == 77 or "unshare:" in done.stderr:
        pytest.skip(f"cannot make a read-only mount here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    read, wrote = done.stdout.splitlines()
    assert read == "3 3 None"
    assert wrote.startswith("False Statistics are unavailable: the file ")
    assert len(source.games()) == 3


EXIT_RIGHT_AFTER_A_GAME = """
import sys
from milligan_widget import Game
from milligan_widget.studies.stats import GameRecord, Stats
Stats(sys.argv[1]).record_later(GameRecord.from_game(Game.new(5), seconds=3))
"""


def test_a_game_recorded_in_the_background_just_before_a_normal_exit_counts(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", EXIT_RIGHT_AFTER_A_GAME, str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [g.seed for g in Stats(tmp_path).games()] == [5]


def test_a_file_another_writer_makes_between_two_reads_is_ours(tmp_path, monkeypatch):
    # the race two new writers run: one reads no version, the other then makes the file
    store, other = Stats(tmp_path), Stats(tmp_path)
    first_read = stats._version
    calls = []

    def version_then_the_other_writes(db):
        version = first_read(db)
        if not calls:
            calls.append(version)
            with monkeypatch.context() as inner:
                inner.setattr(stats, "_version", first_read)
                assert other.record(record("won", 0))
        return version

    monkeypatch.setattr(stats, "_version", version_then_the_other_writes)
    assert store.record(record("lost", 1)), store.problem
    assert calls == [0] and store.problem is None
    assert len(store.games()) == 2
