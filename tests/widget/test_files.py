"""Save and Open from the toolbar, auto-save and Resume: nothing is lost, no deck is sent."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.widget import MilliganWidget, storage
from tests.lines import WIN_8
from tests.widget.simulate import Browser


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The notebook's folder (the working folder) and the user's data folder."""
    notebook, data = tmp_path / "notebook", tmp_path / "data"
    notebook.mkdir()
    monkeypatch.chdir(notebook)
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(data))
    return notebook, data


def _played(widget: MilliganWidget, count: int) -> None:
    for move in WIN_8.split()[:count]:
        widget.play(move)


def test_save_then_open_in_a_new_widget(folders: tuple[Path, Path]) -> None:
    notebook, _ = folders
    widget = MilliganWidget(seed=8)
    _played(widget, 12)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "save"}))
    (path,) = notebook.glob("milligan-deal-8-*.json")
    assert view["message"] == f"Saved as {path.name} (Open lists it)."
    other = MilliganWidget(seed=5)
    _played_other = other.game.copy()
    browser = Browser(other)
    sent = browser.request({"type": "files"})
    (files,) = [m["state"]["files"] for m in sent if "files" in m["state"]]
    assert [(e["name"], e["deal"], e["moves"], e["status"]) for e in files["entries"]] == [
        (path.name, 8, 12, "playing")
    ]
    assert "deck" not in json.dumps(files) and str(WIN_8.split()[20]) not in json.dumps(files)
    browser.request({"type": "open", "name": path.name})
    assert other.game == widget.game and other.view["stats"]["moves"] == 12
    assert other.view["message"].startswith(f"Opened {path.name}")
    assert _played_other.ply == 0  # the untouched deal 5 is simply replaced


def test_open_refuses_what_is_not_a_save_here_and_changes_nothing(
    folders: tuple[Path, Path],
) -> None:
    notebook, _ = folders
    (notebook / "broken.json").write_text("{not json", encoding="utf-8")
    (notebook.parent / "outside.json").write_text(Game.new(3).to_json(), encoding="utf-8")
    widget = MilliganWidget(seed=8)
    _played(widget, 3)
    before = widget.game.copy()
    assert widget.saved_games() == []  # the broken file is no save: not listed
    browser = Browser(widget)
    for name in ["../outside.json", "/etc/passwd", "broken.json", "missing.json", "x" * 300]:
        view = browser.updated_view(browser.request({"type": "open", "name": name}))
        assert view["kind"] == "error" and "Internal error" not in view["message"]
        assert widget.game == before
    with pytest.raises(ValueError, match="the name of a save file"):
        widget.open_saved("../outside.json")
    assert widget.game == before


def test_opening_a_save_over_a_game_in_progress_is_undone(folders: tuple[Path, Path]) -> None:
    widget = MilliganWidget(seed=8)
    _played(widget, 5)
    name = widget.quick_save().name
    _played_more = widget.game.copy()
    widget.new_game(11)
    widget.play("d")
    progress = widget.game.copy()
    widget.open_saved(name)
    assert widget.game.seed == 8 and widget.game.ply == 5
    for _ in range(5):
        widget.undo()
    assert widget.game.seed == 8 and widget.undo() is None  # past its start: the game left
    assert widget.game == progress
    assert _played_more.ply == 5


def test_the_game_is_kept_after_each_move_and_a_new_widget_offers_it(
    folders: tuple[Path, Path],
) -> None:
    first = MilliganWidget(seed=8, autosave="cell-1")
    _played(first, 9)
    kept = first.game.copy()
    # The kernel restarts: a new widget on the same key offers the game, where it was.
    second = MilliganWidget(seed=5, autosave="cell-1")
    assert second.view["resume"] == "Resume your last game: deal #8 (classic) after 9 moves?"
    assert second.game.seed == 5
    browser = Browser(second)
    browser.request({"type": "resume", "on": True})
    assert second.game == kept and second.view["resume"] is None
    assert MilliganWidget.resume("cell-1").game == kept
    assert MilliganWidget(seed=6, autosave="cell-2").view["resume"] is None  # another key


def test_no_thanks_plays_the_new_deal_and_a_win_leaves_nothing_to_resume(
    folders: tuple[Path, Path],
) -> None:
    first = MilliganWidget(seed=8, autosave="k")
    _played(first, 4)
    second = MilliganWidget(seed=5, autosave="k")
    Browser(second).request({"type": "resume", "on": False})
    assert second.game.seed == 5 and second.view["resume"] is None
    winner = MilliganWidget(seed=8, autosave="won")
    _played(winner, len(WIN_8.split()))
    assert winner.game.status == "won"
    assert MilliganWidget(seed=9, autosave="won").view["resume"] is None


def test_a_damaged_auto_save_is_set_aside_and_said(folders: tuple[Path, Path]) -> None:
    _, data = folders
    first = MilliganWidget(seed=8, autosave="k")
    _played(first, 3)
    assert first.wait(10)  # the auto-save is written in the background
    (path,) = (data / "autosave").glob("*.json")
    path.write_bytes(b"\x00garbage")
    widget = MilliganWidget(seed=5, autosave="k")
    assert widget.view["resume"] is None and widget.game.seed == 5
    assert widget.view["kind"] == "error" and "could not be read back" in widget.view["message"]
    (aside,) = (data / "autosave").glob("*.unreadable-*.json")
    assert aside.read_bytes() == b"\x00garbage" and f"kept as {aside}" in widget.view["message"]
    widget.deal()  # auto-save goes on
    assert widget.wait(10) and MilliganWidget.resume("k").game == widget.game


def test_outside_a_notebook_nothing_is_auto_saved(folders: tuple[Path, Path]) -> None:
    _, data = folders
    widget = MilliganWidget(seed=8)
    _played(widget, 3)
    assert not (data / "autosave").exists()


# ------------------------------------------------------------------ the auto-save writer
def _writer_threads() -> int:
    return sum(t.name == storage.WRITER for t in threading.enumerate())


def test_moves_in_quick_succession_are_written_once_the_newest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(storage, "SETTLE", 0.05)
    writer, written = storage._Writer(), []
    for n in range(5):
        writer.submit(lambda n=n: written.append(n))
    assert writer.flush(5)
    assert written == [4]


def test_one_writer_thread_serves_move_after_move_and_ends_when_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Starting a thread a move cost the kernel about a millisecond a move: the thread
    waits for the next one, and ends only after IDLE_EXIT without any."""
    monkeypatch.setattr(storage, "SETTLE", 0.01)
    monkeypatch.setattr(storage, "IDLE_EXIT", 0.5)
    before = _writer_threads()
    writer, written = storage._Writer(), []
    for n in range(3):
        writer.submit(lambda n=n: written.append(n))
        assert writer.flush(5)
        time.sleep(0.05)  # a pause between moves, longer than SETTLE
        assert _writer_threads() == before + 1
    deadline = time.monotonic() + 5
    while _writer_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _writer_threads() == before, "the idle writer's thread did not end"
    writer.submit(lambda: written.append(3))  # and a later move starts one again
    assert writer.flush(5)
    assert written == [0, 1, 2, 3]


def test_a_write_that_fails_does_not_stop_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "SETTLE", 0.01)
    writer, written = storage._Writer(), []

    def broken() -> None:
        raise TypeError("a bug")

    writer.submit(broken)
    assert writer.flush(5)
    writer.submit(lambda: written.append("next"))
    assert writer.flush(5)
    assert written == ["next"]


# ------------------------------------------------------------------ the offer to resume
def _moves_on(widget: MilliganWidget, count: int) -> None:
    for _ in range(count):
        widget.play(widget.game.legal_moves[-1])


def test_a_game_played_on_past_the_offer_is_kept_and_comes_back_after_a_crash(
    folders: tuple[Path, Path],
) -> None:
    first = MilliganWidget(seed=8, autosave="k")
    _played(first, 4)
    assert first.wait(10)
    second = MilliganWidget(seed=5, autosave="k")
    assert second.view["resume"] is not None
    _moves_on(second, 3)  # the offer is not answered: the player plays on
    assert second.wait(10)
    assert second.view["resume"] is not None  # still offered
    # The kernel dies: what comes back is the game on show last.
    assert MilliganWidget.resume("k").game == second.game
    third = MilliganWidget(seed=6, autosave="k")
    assert third.view["resume"] == "Resume your last game: deal #5 (classic) after 3 moves?"


def test_the_offered_game_is_kept_until_answered_and_taken_up_after_playing_on(
    folders: tuple[Path, Path],
) -> None:
    _, data = folders
    first = MilliganWidget(seed=8, autosave="k")
    _played(first, 4)
    offered = first.game.copy()
    second = MilliganWidget(seed=5, autosave="k")
    second.new_game(6)  # no move played: a crash now still offers the game of before
    assert MilliganWidget(seed=7, autosave="k").view["resume"].endswith("after 4 moves?")
    second = MilliganWidget(seed=5, autosave="k")
    _moves_on(second, 2)
    Browser(second).request({"type": "resume", "on": True})
    assert second.game == offered and second.view["resume"] is None
    assert second.wait(10)
    assert sorted(p.name.endswith(".offered.json") for p in (data / "autosave").iterdir()) == [
        False
    ]  # answered: only the game on show is kept


# ------------------------------------------------------------------ exit, failures
EXIT_RIGHT_AFTER_A_MOVE = """
from milligan_widget.widget import MilliganWidget
widget = MilliganWidget(seed=8, autosave="script", stats=False)
widget.play("d")
"""


def test_the_last_move_before_a_normal_exit_is_kept(folders: tuple[Path, Path]) -> None:
    _, data = folders
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "MILLIGAN_WIDGET_DATA": str(data)}
    done = subprocess.run([sys.executable, "-c", EXIT_RIGHT_AFTER_A_MOVE], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    kept = storage.Autosave(data, "script").read()
    assert kept is not None and [str(m) for m in kept.history] == ["d"]


def test_an_auto_save_that_fails_mid_game_says_so_once_and_when_it_works_again(
    folders: tuple[Path, Path],
) -> None:
    _, data = folders
    moves = WIN_8.split()
    widget = MilliganWidget(seed=8, autosave="k")
    _played(widget, 2)
    assert widget.wait(10)
    shutil.rmtree(data / "autosave")
    (data / "autosave").write_text("a file where the folder was")
    widget.play(moves[2])
    assert widget.wait(10)
    assert widget.view["message"].startswith("Auto-save is failing: File exists (")
    widget.play(moves[3])
    assert widget.wait(10)
    assert "Auto-save" not in widget.view["message"] and widget.view["stats"]["moves"] == 4  # once
    (data / "autosave").unlink()
    widget.play(moves[4])
    assert widget.wait(10)
    assert widget.view["message"] == "Auto-save works again: your game is kept."
    assert MilliganWidget.resume("k").game == widget.game


# ------------------------------------------------------------------ Save and Open
def test_save_never_writes_over_a_file_whatever_the_count(
    folders: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    notebook, _ = folders
    monkeypatch.setattr(storage, "_stamp", lambda: "2026-12-01-1154")
    stem = "milligan-deal-8-2026-12-01-1154"
    taken = [notebook / f"{stem}.json"] + [notebook / f"{stem}-{n}.json" for n in range(2, 1000)]
    for path in taken:
        path.write_text("someone's file")
    widget = MilliganWidget(seed=8)
    _played(widget, 3)
    names = [widget.quick_save().name for _ in range(2)]
    assert names == [f"{stem}-1000.json", f"{stem}-1001.json"]
    assert widget.view["message"] == f"Saved as {stem}-1001.json (Open lists it)."
    assert all(path.read_text() == "someone's file" for path in taken)
    assert storage.SaveFolder().open(names[1]) == widget.game
    assert not list(notebook.glob(".*.tmp"))


def test_open_refuses_a_pipe_or_folder_named_json_at_once(folders: tuple[Path, Path]) -> None:
    notebook, _ = folders
    pipe = notebook / "pipe.json"
    os.mkfifo(pipe)
    (notebook / "folder.json").mkdir()
    widget = MilliganWidget(seed=8)
    _played(widget, 3)
    before = widget.game.copy()
    browser, views = Browser(widget), []

    def open_them() -> None:
        for name in ("pipe.json", "folder.json"):
            views.append(browser.updated_view(browser.request({"type": "open", "name": name})))

    opener = threading.Thread(target=open_them, daemon=True)
    opener.start()
    opener.join(10)
    try:
        assert not opener.is_alive(), "Open waits for a writer to the pipe"
    finally:  # a reader waiting on the pipe goes on once a writer opens it
        with contextlib.suppress(OSError):
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
    kinds = (("pipe.json", "a pipe"), ("folder.json", "a folder"))
    assert [(v["kind"], v["message"]) for v in views] == [
        (
            "error",
            f"The save {name} could not be opened: not a saved game: it is {kind}, not a file.",
        )
        for name, kind in kinds
    ]
    assert widget.game == before and widget.saved_games() == []


def test_open_refuses_a_link_out_of_the_folder_and_does_not_list_it(
    folders: tuple[Path, Path],
) -> None:
    notebook, _ = folders
    elsewhere = notebook.parent / "elsewhere"
    elsewhere.mkdir()
    Game.new(3).after("d").save(elsewhere / "secret.json")
    (notebook / "out.json").symlink_to(elsewhere / "secret.json")
    Game.new(4).after("d").save(notebook / "mine.json")
    (notebook / "alias.json").symlink_to("mine.json")  # a link within the folder is fine
    widget = MilliganWidget(seed=8)
    assert sorted(entry["name"] for entry in widget.saved_games()) == ["alias.json", "mine.json"]
    with pytest.raises(ValueError, match=r"and out\.json leads outside it"):
        widget.open_saved("out.json")
    assert widget.game.seed == 8 and widget.view["kind"] == "error"
    assert widget.open_saved("alias.json").seed == 4
