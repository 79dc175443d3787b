"""No visitor sees another's game, and no file or request can break or hang the widget: the
faults a second reliability probe found (issue 31, N2-N10; N1 is in tests/test_stats_retry.py),
each checked the way it bit."""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import pytest

from milligan_widget import Game, Move, Rules, RulesError, SaveFileError
from milligan_widget.engine.rules import MAX_NAME
from milligan_widget.search import solver
from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget, requests, storage
from tests.lines import WIN_8
from tests.widget.simulate import Browser, LineSolver, snapshot

DEEP = 10_000  # lists nested this deep: past Python's recursion limit


def _in_a_thread(call: Any, timeout: float = 10.0) -> Any:
    """``call()`` in a thread; fail if it does not return within ``timeout`` (it hangs)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "it hangs"
    return out[0] if out else None


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's data folder (statistics, auto-saves), and the working folder."""
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data"


# ------------------------------------------------------------------ N10: one player, one key
def _kernel(monkeypatch: pytest.MonkeyPatch, kernel: str, cell: str | None = None) -> None:
    """Make the widgets made next believe they run in a Jupyter kernel with id ``kernel``,
    in the cell ``cell`` (None: the front end names no cell, as Voilà)."""

    class ZMQInteractiveShell:
        def __init__(self) -> None:
            self.user_ns: dict[str, Any] = {}
            self.kernel = types.SimpleNamespace(
                get_parent=lambda: {"metadata": {"cellId": cell} if cell else {}}
            )

    shell = ZMQInteractiveShell()
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setattr(storage, "_kernel_id", lambda: kernel)


def _visit(monkeypatch: pytest.MonkeyPatch, kernel: str, cell: str | None = None) -> MilliganWidget:
    _kernel(monkeypatch, kernel, cell)
    return MilliganWidget(seed=27, stats=False)


def _played(widget: MilliganWidget) -> MilliganWidget:
    widget.deal()
    widget.deal()
    assert widget.wait(10)  # auto-saved
    return widget


@pytest.mark.parametrize("cell", [None, "same-cell-for-everyone"])
def test_a_voila_visitor_is_never_offered_another_visitors_game(
    data: Path, monkeypatch: pytest.MonkeyPatch, cell: str | None
) -> None:
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setenv("SERVER_SOFTWARE", "voila/0.5.13")  # set in each visitor's kernel
    first = _played(_visit(monkeypatch, "kernel-1f0c", cell))
    second = _visit(monkeypatch, "kernel-77ab", cell)  # another page: another kernel
    assert second.view["resume"] is None and second.game.ply == 0
    _played(second)
    kept = sorted(storage.open_envelope(p)[0].seed for p in (data / "autosave").glob("*.json"))
    assert kept == [27, 27] and first.game.ply == 2  # one auto-save each, none written over
    assert _visit(monkeypatch, "kernel-9d3e", cell).view["resume"] is None  # a reload: new


def test_a_jupyterlab_notebook_offers_its_game_after_a_restart_and_no_other(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.setenv("JPY_SESSION_NAME", "play.ipynb")
    _played(_visit(monkeypatch, "kernel-1f0c", "cell-1"))
    monkeypatch.setenv("JPY_SESSION_NAME", "other.ipynb")  # another notebook, same cell id
    assert _visit(monkeypatch, "kernel-2b2b", "cell-1").view["resume"] is None
    monkeypatch.setenv("JPY_SESSION_NAME", "play.ipynb")  # the same notebook restarted
    back = _visit(monkeypatch, "kernel-1f0c", "cell-1")
    assert back.view["resume"] == "Resume your last game: deal #27 (classic) after 2 moves?"


def test_without_a_cell_id_each_kernel_keeps_its_own(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SERVER_SOFTWARE", raising=False)
    monkeypatch.setenv("JPY_SESSION_NAME", "play.ipynb")
    _played(_visit(monkeypatch, "kernel-1f0c"))  # a console: no cell id
    assert _visit(monkeypatch, "kernel-2b2b").view["resume"] is None
    assert _visit(monkeypatch, "kernel-1f0c").view["resume"] is not None


def test_a_session_token_is_never_handed_on_to_a_new_session() -> None:
    class Session:
        pass

    first = Session()
    token, address = storage._session_token(first), id(first)
    assert storage._session_token(first) == token
    del first  # freed at once (no gc pass: it could hand the memory to something else)
    later = [Session() for _ in range(50)]
    assert any(id(s) == address for s in later)  # a new session where the first one was
    assert all(storage._session_token(s) != token for s in later)


# ------------------------------------------------------------------ N8, N9: the auto-save read
def _autosave_path(data: Path, key: str) -> Path:
    path = storage.Autosave(data, key).path
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("depth", [1_000, DEEP, 100_000])
def test_an_auto_save_nested_deep_is_set_aside_and_a_widget_is_made(data: Path, depth: int) -> None:
    path = _autosave_path(data, "k")
    hostile = "[" * depth + "]" * depth
    path.write_text(hostile)
    widget = MilliganWidget(seed=8, autosave="k")  # raised RecursionError
    assert widget.game.seed == 8 and widget.view["resume"] is None
    assert (
        "could not be read back" in widget.view["message"]
        and "nested too deep" in widget.view["message"]
    )
    (aside,) = path.parent.glob("*.unreadable-*.json")
    assert aside.read_text() == hostile  # kept, never deleted
    with pytest.raises(ValueError, match="No game is kept"):
        MilliganWidget.resume("k")  # raised RecursionError


def test_an_offered_auto_save_nested_deep_is_set_aside_too(data: Path) -> None:
    path = storage.Autosave(data, "k").offered_path
    path.parent.mkdir(parents=True)
    path.write_text('{"game": ' * DEEP + "}" * DEEP)
    with pytest.raises(ValueError, match="nested too deep"):
        MilliganWidget.resume("k")
    assert not path.exists() and len(list(path.parent.glob("*.unreadable-*.json"))) == 1


@pytest.mark.parametrize("kind", ["pipe", "folder"])
def test_a_pipe_or_folder_at_the_auto_save_path_blocks_nothing(data: Path, kind: str) -> None:
    path = _autosave_path(data, "k")
    os.mkfifo(path) if kind == "pipe" else path.mkdir()
    widget = _in_a_thread(lambda: MilliganWidget(seed=8, autosave="k"))  # waited forever
    assert widget is not None and widget.view["resume"] is None
    assert f"it is a {kind}, not a file" in widget.view["message"]
    (aside,) = path.parent.glob("*.unreadable-*.json")
    assert aside.is_fifo() if kind == "pipe" else aside.is_dir()  # moved, as it was
    widget.deal()
    assert widget.wait(10) and MilliganWidget.resume("k").game == widget.game  # it goes on


def test_an_auto_save_that_cannot_be_moved_aside_turns_auto_save_off_in_words(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _autosave_path(data, "k")
    path.write_text("[" * DEEP)

    def refused(*args: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(storage.os, "rename", refused)
    widget = MilliganWidget(seed=8, autosave="k")
    assert (
        "auto-save is off until" in widget.view["message"]
        and "Permission denied" in widget.view["message"]
    )
    widget.deal()
    assert widget.wait(10) and path.read_text() == "[" * DEEP  # never written over


# ------------------------------------------------------------------ N3: every other file read
def _deep_file(folder: Path) -> Path:
    path = folder / "deep.json"
    path.write_text("[" * DEEP + "]" * DEEP)
    return path


def test_review_show_replay_and_load_of_a_deep_file_are_refused_in_words(tmp_path: Path) -> None:
    path = _deep_file(tmp_path)
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    widget.deal()
    before = snapshot(widget.game)
    with pytest.raises(ValueError, match="nested too deep"):
        widget.review(path)  # raised RecursionError
    assert widget.view["kind"] == "error" and "nested too deep" in widget.view["message"]
    with pytest.raises(ValueError, match="nested too deep"):
        widget.review('{"moves": ' + "[" * DEEP + "]" * DEEP + "}")  # the saved text
    with pytest.raises(SaveFileError, match="nested too deep"):
        widget.show_replay(path)
    with pytest.raises(SaveFileError, match="nested too deep"):
        MilliganWidget.load(path)
    assert widget.mode == "play" and snapshot(widget.game) == before


def test_review_show_replay_and_load_of_a_pipe_answer_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "game.json"
    os.mkfifo(pipe)
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    widget.deal()
    for call in (widget.review, widget.show_replay, MilliganWidget.load, Game.load):

        def attempt(call: Any = call) -> str:
            try:
                call(pipe)
            except ValueError as exc:
                return str(exc)
            return "opened"

        assert "it is a pipe, not a file" in _in_a_thread(attempt)


# ------------------------------------------------------------------ N2: peeking is recorded
def test_think_longer_in_fair_play_is_refused_in_words_and_reads_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    solver_calls: list[int] = []

    def solve(game: Game, **limits: Any) -> solver.SolveResult:
        solver_calls.append(game.ply)
        return solver.SolveResult("unknown")

    monkeypatch.setattr(solver, "solve", solve)
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=8, stats=stats, autosave=False)
    widget.deal()
    with pytest.raises(ValueError, match="not for fair play"):
        widget.think_longer(5, wait=True)
    view = Browser(widget).updated_view(Browser(widget).request({"type": "think"}))
    assert view["kind"] == "error" and "tick “Peek at hidden cards”" in view["message"]
    assert solver_calls == [] and widget.analysis["can_think"] is False
    widget.new_game(9)
    assert widget.wait(10) and [g.peek for g in stats.games()] == [False]
    widget.peek = True  # with peek on it thinks, and the game counts as peeked
    widget.deal()
    assert widget.think_longer(5, wait=True) is not None and len(solver_calls) == 1
    widget.new_game(10)
    assert widget.wait(10) and [g.peek for g in stats.games()] == [True, False]


def test_a_game_the_solution_played_counts_as_peeked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    LineSolver(monkeypatch, tuple(Move.parse(m) for m in WIN_8.split()))
    stats = Stats(tmp_path)
    widget = MilliganWidget(seed=8, stats=stats, autosave=False)
    assert widget.peek is False
    widget.show_solution(delay=0, wait=True)
    assert widget.game.status == "won" and widget.wait(10)
    (won,) = stats.games()
    assert (won.result, won.solution_used, won.peek) == ("won", True, True)  # peek was False
    assert stats.summary().get("classic").won_peeking == 1


# ------------------------------------------------------------------ N4: wait after close
@pytest.mark.parametrize("job", ["honest chance", "think longer"])
def test_wait_returns_at_once_after_close(monkeypatch: pytest.MonkeyPatch, job: str) -> None:
    if job == "think longer":

        def solve(game: Game, stop: Any = None, **limits: Any) -> solver.SolveResult:
            while not stop():
                time.sleep(0.01)
            return solver.SolveResult("unknown")

        monkeypatch.setattr(solver, "solve", solve)
        widget = MilliganWidget(seed=8, peek=True, stats=False, autosave=False)
        widget.think_longer(60)
    else:
        widget = MilliganWidget(seed=8, check_winnable=True, stats=False, autosave=False)
        widget.deal()
    assert widget.analysis["state"] == "checking"
    widget.close()
    start = time.monotonic()
    assert widget.wait(5) is True  # was False, after the whole 5 s
    assert time.monotonic() - start < 1


# ------------------------------------------------------------------ N5: a rules name
def test_a_rules_name_is_bounded_like_other_saved_text() -> None:
    classic = Rules.named("classic").to_dict()
    custom = {**Rules.named("classic").replace(cells=2).to_dict(), "name": "x" * MAX_NAME}
    assert Rules.from_dict(custom).name == "x" * MAX_NAME
    for name in ("x" * (MAX_NAME + 1), "x" * 100_000, "two\nlines"):
        with pytest.raises(RulesError, match=f"one line of at most {MAX_NAME} characters"):
            Rules.from_dict({**custom, "name": name})
    document = json.loads(Game.new(8).to_json())
    document["rules"] = {**classic, "name": "x" * 100_000}
    with pytest.raises(SaveFileError, match=f"at most {MAX_NAME} characters"):
        Game.from_json(json.dumps(document))


def test_open_refuses_a_save_with_a_long_rules_name_in_words(data: Path) -> None:
    document = json.loads(Game.new(8).to_json())
    document["rules"] = {**Rules.named("classic").replace(cells=2).to_dict(), "name": "x" * 100_000}
    Path("milligan-long.json").write_text(json.dumps(document))
    widget = MilliganWidget(seed=5, stats=False)
    assert widget.saved_games() == []  # no such save is listed
    view = Browser(widget).updated_view(
        Browser(widget).request({"type": "open", "name": "milligan-long.json"})
    )
    assert view["kind"] == "error" and f"at most {MAX_NAME} characters" in view["message"]
    assert len(view["message"]) < 300 and widget.game.seed == 5


# ------------------------------------------------------------------ N6: the last resort
def _nested(depth: int) -> Any:
    value: Any = "t3"
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "content",
    [
        {"type": _nested(DEEP)},
        {"type": "new", "seed": _nested(DEEP)},
        {"type": "new", "rules": _nested(DEEP)},
        {"type": "new", "difficulty": _nested(DEEP)},
        {"type": "move", "source": _nested(DEEP), "target": "t5"},
        {"type": "open", "name": _nested(DEEP)},
        _nested(DEEP),
    ],
    ids=["type", "seed", "rules", "difficulty", "source", "name", "no object"],
)
def test_a_request_nested_deep_is_refused_in_words(content: Any) -> None:
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    before = snapshot(widget.game)
    view = Browser(widget).updated_view(Browser(widget).request(content))
    assert view["kind"] == "error" and "Internal error" not in view["message"]
    assert len(view["message"]) < 300 and snapshot(widget.game) == before


def test_the_last_resort_logs_a_bounded_summary_and_answers(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    widget = MilliganWidget(seed=8, stats=False, autosave=False)

    def broken(*args: Any) -> None:
        raise RuntimeError("boom " * 10_000)

    monkeypatch.setattr(requests, "parse", broken)
    content = {"type": "deal", "payload": _nested(DEEP), **{f"k{n}": n for n in range(1_000)}}
    with caplog.at_level(logging.ERROR):
        widget._on_custom_msg(widget, content)  # escaped through the log's own %r
    (record,) = [r for r in caplog.records if "request failed" in r.getMessage()]
    said = record.getMessage()
    assert said.startswith("MilliganWidget request failed: a 'deal' request with type, payload")
    assert said.endswith("and 994 more") and len(said) < 300
    assert widget.view["kind"] == "error" and widget.view["message"].startswith(
        "Internal error: boom"
    )
    assert len(widget.view["message"]) < 300


# ------------------------------------------------------------------ N7: deal numbers
@pytest.mark.parametrize("typed", ["²", "٣", "０７", "1²", "7\u0663"])
def test_a_deal_number_takes_the_digits_0_to_9_only(typed: str) -> None:
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    view = Browser(widget).updated_view(Browser(widget).request({"type": "new", "seed": typed}))
    assert view["kind"] == "error" and view["message"].startswith(f"“{typed}” is not a deal number")
    assert "invalid literal" not in view["message"] and widget.game.seed == 8


def test_python_that_reads_deal_or_move_text_takes_ascii_digits_only(tmp_path: Path) -> None:
    from milligan_widget.engine.deals import deal_number
    from milligan_widget.engine.errors import MilliganError
    from milligan_widget.studies.stats import GameRecord, StatsError, read_csv

    assert deal_number(" 27 ") == 27
    for text in ("٣", "０７", "²", "0", "", "1" * 21):
        with pytest.raises(MilliganError, match="is not a deal number"):
            deal_number(text)
    with pytest.raises(MilliganError):
        Move.parse("٣>٥")
    store = Stats(tmp_path)
    game = Game.new(3)
    game.deal()
    store.record(GameRecord.from_game(game, seconds=1))
    store.export_csv(tmp_path / "games.csv")
    text = (tmp_path / "games.csv").read_text(encoding="utf-8")
    (tmp_path / "games.csv").write_text(text.replace("\n3,", "\n٣,"), encoding="utf-8")
    with pytest.raises(StatsError, match="line 2: not a game"):
        read_csv(tmp_path / "games.csv")
