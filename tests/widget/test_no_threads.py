"""Where no thread can start (Pyodide, JupyterLite), every solver tool still answers.

``threading.Thread.start`` raises "can't start new thread" there; the widget then does the
solver's work in the kernel's thread, after the request's first answer ("thinking…").
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant import HonestBudget
from tests.lines import WIN_8
from tests.widget.simulate import Browser


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)


def _messages(sent: list[dict]) -> list[str]:
    return [m["state"]["view"]["message"] for m in sent if "view" in m.get("state", {})]


@pytest.mark.parametrize(("peek", "source"), [(True, "Solver:"), (False, "Honest hint:")])
def test_a_hint_answers_after_thinking(no_threads: None, peek: bool, source: str) -> None:
    honest = HonestBudget(samples=4, node_limit=20_000, seed=1)
    widget = MilliganWidget(seed=8, hint_time=20, peek=peek, honest=honest)
    browser = Browser(widget)
    sent = browser.request({"type": "hint"})
    messages = _messages(sent)
    assert messages[0].startswith("Thinking…") and messages[-1].startswith(source)
    assert widget.view["hint"] is not None and widget.view["kind"] == "hint"
    move, why = widget.hint()  # from Python too, on the win now remembered
    assert widget.game.is_legal(move) and why


@pytest.mark.parametrize(("peek", "verdict"), [(True, "winnable"), (False, "chance")])
def test_the_indicator_checks_each_position(no_threads: None, peek: bool, verdict: str) -> None:
    honest = HonestBudget(samples=4, node_limit=20_000, seed=1)
    widget = MilliganWidget(seed=8, winnable_time=20, peek=peek, honest=honest)
    browser = Browser(widget)
    sent = browser.request({"type": "winnable", "on": True})
    states = [m["state"]["analysis"]["state"] for m in sent if "analysis" in m["state"]]
    assert states == ["checking", verdict]
    assert widget.wait(0)


def test_think_longer_and_the_solution_answer(no_threads: None) -> None:
    widget = MilliganWidget(seed=8, hint_time=0, peek=True)
    result = widget.think_longer(20, wait=True)
    assert result is not None and result.status == "winnable"
    widget.show_solution(delay=0)
    assert widget.game.status == "won" and widget.view["kind"] == "won"
    assert len(widget.game.history) <= len(WIN_8.split()) * 2


def test_stop_stops_the_solution_between_two_moves(no_threads: None) -> None:
    """JupyterLite's kernel has one thread: the playback is a callback of its event loop per
    move, so the Stop button's message is handled between two moves, and nothing is played
    after it."""

    async def play_then_stop() -> tuple[int, int, dict]:
        widget = MilliganWidget(seed=8, hint_time=0)
        browser = Browser(widget)
        widget.show_solution(delay=0.01)  # returns with a move or so played
        assert len(widget.game.history) < 10 and widget.view["busy"] == "solution"
        await asyncio.sleep(0.3)
        played = len(widget.game.history)
        view = browser.updated_view(browser.request({"type": "stop"}))
        await asyncio.sleep(0.3)
        return played, len(widget.game.history), view

    played, later, view = asyncio.run(play_then_stop())
    assert 1 < played < len(WIN_8.split()) and later == played
    assert view["message"] == f"Solution stopped after {played} moves."
    assert view["busy"] is None


def test_waiting_for_the_solution_on_the_event_loop_plays_it_out(no_threads: None) -> None:
    async def wait_for_it() -> str:
        widget = MilliganWidget(seed=8, hint_time=0)
        widget.show_solution(delay=0.01, wait=True)
        return widget.game.status

    assert asyncio.run(wait_for_it()) == "won"
