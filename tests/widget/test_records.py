"""The widget's statistics and Finish: each game counts once, and play never stops for them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from milligan_widget import Move
from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget
from tests.lines import WIN_8
from tests.widget.simulate import Browser


def _to_finish(widget: MilliganWidget) -> int:
    """Play deal 8's win until Finish is offered; the moves played."""
    for ply, move in enumerate(WIN_8.split()):
        if "finish" in widget.view["actions"]:
            return ply
        widget.play(move)
    raise AssertionError("Finish was never offered along deal 8's win")


def test_a_won_game_counts_with_its_undos_hints_and_streak(tmp_path: Path) -> None:
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=8, stats=stats, hint_time=0)
    widget.play("d")
    widget.undo()
    widget.hint()
    for move in WIN_8.split():
        widget.play(move)
    assert widget.view["kind"] == "won" and widget.view["streak"] == 1
    assert widget.wait(10)  # the game is written in the background
    (game,) = stats.games()
    assert (game.result, game.seed, game.moves, game.undos, game.hints) == ("won", 8, 207, 1, 1)
    assert not game.solution_used
    shown = widget.show_statistics()
    assert shown["presets"][0]["won"] == 1 and widget.statistics["played"] == 1
    assert "deck" not in str(widget.statistics)
    widget.undo()  # a step back from the win and forward again: still one game
    widget.redo()
    assert widget.wait(10) and len(stats.games()) == 1


def test_a_game_left_for_a_new_one_counts_once_as_abandoned(tmp_path: Path) -> None:
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=5, stats=stats)
    widget.new_game(6)  # not a move played: nothing to count
    assert stats.games() == []
    widget.play("d")
    widget.new_game(7)
    assert widget.wait(10)
    assert [(g.seed, g.result) for g in stats.games()] == [(6, "abandoned")]
    widget.undo()  # deal 6 comes back; leaving it again does not count it twice
    assert widget.game.seed == 6
    widget.new_game(9)
    widget.restart()  # a restart is the same deal going on: not a game left
    assert widget.wait(10)
    assert [(g.seed, g.result) for g in stats.games()] == [(6, "abandoned")]


def test_a_broken_statistics_file_says_why_once_and_play_goes_on(tmp_path: Path) -> None:
    (tmp_path / "statistics.sqlite3").write_bytes(b"not a database at all" * 100)
    widget = MilliganWidget(seed=5, stats=Stats(tmp_path))
    widget.play("d")
    widget.new_game(6)
    assert widget.wait(10)  # the write failed in the background: the status line says so
    assert widget.view["message"].startswith("Statistics are unavailable: the file ")
    assert "not a database" in widget.view["message"] and widget.view["kind"] != "error"
    widget.play("d")
    widget.new_game(7)
    assert widget.wait(10) and widget.view["message"].startswith("New game #7 (classic).")
    assert widget.game.seed == 7  # said once; play went on
    shown = widget.show_statistics()  # the two games wait in memory, counted
    assert (shown["played"], shown["pending"]) == (2, 2) and "not a database" in shown["problem"]
    words = "Statistics: 2 games counted. 2 of them not written yet (Statistics are unavailable"
    assert widget.view["message"].startswith(words)
    assert (tmp_path / "statistics.sqlite3").read_bytes() == b"not a database at all" * 100


def test_statistics_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(tmp_path))
    widget = MilliganWidget(seed=8, stats=False)
    for move in WIN_8.split():
        widget.play(move)
    assert widget.view["kind"] == "won" and list(tmp_path.iterdir()) == []
    assert widget.show_statistics()["problem"] == "Statistics are off for this widget."


def test_finish_plays_every_card_home_and_the_game_counts(tmp_path: Path) -> None:
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=8, stats=stats)
    played = _to_finish(widget)
    assert widget.view["can_finish"] and widget.game.stock_count == 0
    moves = widget.finish(delay=0, wait=True)
    assert 0 < len(moves) <= len(WIN_8.split()) - played
    assert all(isinstance(m, Move) and str(m).endswith(">f") for m in moves)
    assert widget.game.status == "won" and widget.view["kind"] == "won"
    assert widget.view["message"].startswith(f"Finish {len(moves)}/{len(moves)}:")
    assert widget.wait(10) and [g.result for g in stats.games()] == ["won"]


def test_finish_from_the_browser_and_when_there_is_more_to_do(tmp_path: Path) -> None:
    widget = MilliganWidget(seed=8, stats=Stats(tmp_path))
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "finish"}))
    assert view["kind"] == "error" and "Finish is for the end" in view["message"]
    assert "finish" not in view["actions"] and widget.game.ply == 0
    _to_finish(widget)
    widget.finish(delay=0.01)
    assert widget.wait(10) and widget.game.status == "won"


def test_a_statistics_file_locked_by_another_program_delays_no_request(tmp_path: Path) -> None:
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=5, stats=stats)
    widget.play("d")
    widget.new_game(6)  # one game written: the file exists
    assert widget.wait(10) and len(stats.games()) == 1
    holder = sqlite3.connect(stats.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        browser = Browser(widget)
        browser.request({"type": "deal"})
        view = browser.updated_view(browser.request({"type": "new", "seed": 9}))
        assert view["message"].startswith("New game #9") and widget.game.seed == 9
        browser.request({"type": "undo"})  # answered at once too: deal 6 comes back
        assert widget.game.seed == 6
        # Still locked: the game left waits in memory, counted, not tried on this thread
        # (where a locked file is retried for seconds, and its reason kept).
        assert stats.pending == 1 and stats.problem is None
        assert widget.show_statistics()["played"] == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert widget.wait(30) and stats.pending == 0
    assert [(g.seed, g.result) for g in stats.games()] == [(6, "abandoned"), (5, "abandoned")]


def test_a_won_games_time_stays_at_the_winning_move(monkeypatch, tmp_path: Path) -> None:
    """The "You won! … in 1:48" says the same after Statistics, Save and Open; undoing the win
    starts the clock again from 1:48, the time it stood still not counted."""
    from types import SimpleNamespace

    from milligan_widget.widget import scores

    now = [1000.0]
    monkeypatch.setattr(scores, "time", SimpleNamespace(monotonic=lambda: now[0]))
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=8, stats=stats, hint_time=0)
    moves = WIN_8.split()
    for move in moves[:-1]:
        widget.play(move)
    now[0] += 108
    widget.play(moves[-1])
    assert widget.view["kind"] == "won" and widget.view["elapsed"] == 108.0
    now[0] += 74
    widget.show_statistics()
    widget.save(tmp_path / "won.json")
    widget.goto(len(moves))
    assert widget.view["elapsed"] == 108.0
    assert widget.wait(10) and [game.seconds for game in stats.games()] == [108.0]
    widget.undo()
    now[0] += 5
    widget.redo()
    assert widget.view["elapsed"] == 113.0
