"""A widget that never loses a game: the faults a reliability probe found (issue 11, D1-D14),
each checked the way it bit."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from milligan_widget import Game, IllegalMoveError, Move
from milligan_widget.widget import MilliganWidget
from tests.lines import WIN_8
from tests.widget.simulate import Browser, LineSolver, snapshot


def _in_a_thread(call, timeout: float = 20.0) -> None:
    """Run ``call`` in a thread and fail if it does not finish (a deadlock)."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "deadlocked"
    if errors:
        raise errors[0]


# ------------------------------------------------------------------ D1: callbacks
def test_a_move_callback_may_ask_for_a_hint_and_wait_for_it(monkeypatch) -> None:
    widget = MilliganWidget(seed=27, hint_time=0.5)
    LineSolver(monkeypatch)  # every solve answers "unknown" at once: the heuristic hints
    hints = []
    widget.on_move(lambda move: hints.append(widget.hint()))
    browser = Browser(widget)
    _in_a_thread(lambda: browser.request({"type": "deal"}))
    assert len(widget.game.history) == 1 and len(hints) == 1
    assert hints[0] is not None and widget.view["kind"] == "hint"
    _in_a_thread(lambda: widget.play("d"))  # from Python too
    assert len(hints) == 2
    _in_a_thread(lambda: widget.wait(5))


def test_a_failing_callback_stops_no_solution_playing_back(monkeypatch) -> None:
    widget = MilliganWidget(seed=8)
    line = tuple(Move.parse(m) for m in WIN_8.split()[:6])
    LineSolver(monkeypatch, line)

    def broken(_move: Move) -> None:
        raise RuntimeError("boom")

    widget.on_move(broken)
    widget.show_solution(delay=0, wait=True)
    assert [str(m) for m in widget.game.history] == [str(m) for m in line]
    assert widget.view["busy"] is None
    assert "on_move callback broken failed: RuntimeError: boom" in widget.view["message"]


# ------------------------------------------------------------------ D4: checked before changed
def test_show_replay_past_the_end_changes_nothing() -> None:
    widget = MilliganWidget(seed=8)
    widget.play("d")
    before, rev = snapshot(widget.game), widget.view["rev"]
    saved = Game.new(8)
    saved.play("d")
    for ply in (99, -1, 1.5):
        with pytest.raises(ValueError):
            widget.show_replay(saved, ply=ply)
    assert widget.mode == "play" and snapshot(widget.game) == before
    assert widget.view["rev"] == rev and Browser(widget).request({"type": "deal"})
    assert len(widget.game.history) == 2  # still playing


def test_replay_with_an_illegal_move_plays_none_of_it() -> None:
    widget = MilliganWidget(seed=8)
    before = snapshot(widget.game)
    with pytest.raises(IllegalMoveError, match="move 3 of the line"):
        widget.replay(["d", "7>f", "1>1", "d"], delay=0)
    assert snapshot(widget.game) == before


# ------------------------------------------------------------------ D5, D6: closing
def test_close_stops_the_solution_playing_back(monkeypatch) -> None:
    widget = MilliganWidget(seed=8, peek=True)
    LineSolver(monkeypatch, tuple(Move.parse(m) for m in WIN_8.split()))
    widget.check_winnable = True
    widget.show_solution(delay=0.05)
    threading.Event().wait(0.2)
    widget.close()
    played = len(widget.game.history)
    threading.Event().wait(0.5)
    assert len(widget.game.history) == played < len(WIN_8.split())
    assert widget.wait(timeout=0)  # every solver thread has ended


def test_closed_widgets_are_freed() -> None:
    refs = []
    for seed in range(1, 31):
        widget = MilliganWidget(seed=seed, check_winnable=True, winnable_time=0.01)
        widget.play("d")
        widget.close()
        refs.append(weakref.ref(widget))
        del widget
    gc.collect()
    alive = sum(ref() is not None for ref in refs)
    assert alive == 0, f"{alive} of 30 closed widgets are still held"


# ------------------------------------------------------------------ D8, D9: the front end
def test_the_front_end_writes_only_its_own_traits() -> None:
    widget = MilliganWidget(seed=8)
    view, panel, analysis = dict(widget.view), dict(widget.panel), dict(widget.analysis)
    Browser(widget).set_trait(
        view={"columns": [["AS"]] * 8}, panel={"mode": "replay"}, analysis={"state": "won"},
        four_colour=True, theme="dark",
    )  # fmt: skip
    assert widget.view == view and widget.panel == panel and widget.analysis == analysis
    assert widget.four_colour is True and widget.theme == "dark"


def test_a_malformed_request_stops_no_solution_playing_back(monkeypatch) -> None:
    widget = MilliganWidget(seed=8)
    LineSolver(monkeypatch, tuple(Move.parse(m) for m in WIN_8.split()))
    widget.show_solution(delay=0.05)
    threading.Event().wait(0.15)
    browser = Browser(widget)
    for junk in ({"type": "move", "source": 3}, {"type": "new", "seed": "x"}, {"type": "nope"}):
        browser.request(junk)
    assert widget.view["busy"] == "solution", "a malformed request stopped the solution"
    widget.stop()
    assert widget.wait(10)


# ------------------------------------------------------------------ D12, D14: odd values
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1, "2", None, True])
def test_solver_budgets_are_finite_seconds(bad) -> None:
    with pytest.raises(ValueError, match="seconds"):
        MilliganWidget(seed=1, hint_time=bad)
    widget = MilliganWidget(seed=1)
    for name in ("hint_time", "winnable_time"):
        with pytest.raises(ValueError, match="seconds"):
            setattr(widget, name, bad)
    with pytest.raises(ValueError, match="seconds"):
        widget.show_solution(time_limit=bad)
    with pytest.raises(ValueError, match="seconds"):
        widget.think_longer(bad)
    assert widget.hint_time == 2.0 and widget.view["busy"] is None


@pytest.mark.parametrize("odd", [None, 42, 3.5, ["3>5"], b"3>5"])
def test_play_with_something_that_is_no_move_is_refused(odd) -> None:
    widget = MilliganWidget(seed=8)
    before = snapshot(widget.game)
    with pytest.raises((TypeError, IllegalMoveError)):
        widget.play(odd)
    assert snapshot(widget.game) == before


def test_assigning_something_that_is_no_game_changes_nothing() -> None:
    widget = MilliganWidget(seed=8)
    widget.play("d")
    before = snapshot(widget.game)
    with pytest.raises(TypeError, match="takes a Game"):
        widget.game = "x"
    assert snapshot(widget.game) == before
    assert Browser(widget).request({"type": "undo"})  # still answers
    assert widget.game.history == []


# ------------------------------------------------------------------ D2, D3: files
def test_an_interrupted_save_keeps_the_file_before_it(tmp_path, monkeypatch) -> None:
    import os

    path = tmp_path / "game.json"
    widget = MilliganWidget(seed=8)
    widget.play("d")
    widget.save(path)
    good = path.read_bytes()
    widget.play("d")

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(OSError):
        widget.save(path)
    assert path.read_bytes() == good and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_loading_a_file_that_is_not_text_is_a_save_file_error(tmp_path) -> None:
    from milligan_widget import SaveFileError

    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{not utf-8")
    with pytest.raises(SaveFileError):
        MilliganWidget.load(path)
    widget = MilliganWidget(seed=8)
    with pytest.raises(SaveFileError):
        widget.show_replay(path)
    assert widget.mode == "play"
