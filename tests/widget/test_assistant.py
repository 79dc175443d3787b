"""The solver assistant: hints, the indicator, Think longer, the solution, wins remembered.

`Browser` (tests/widget/simulate.py) plays the front end's part.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import time
from typing import Any

import pytest

from milligan_widget import Game, IllegalMoveError, Move, strategy
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant.jobs import BACKGROUND_NICE, RIGHT_OF_WAY
from tests.widget.simulate import (
    MAX_BYTES_PER_MOVE,
    Browser,
    LineSolver,
    _commented_game,
    _history,
    _lesson_widget,
    _move,
    _some_line,
    _won_in_one,
    first_legal,
)


# ------------------------------------------------------------------ the solver in the widget
def shown(
    state: str | None, why: str = "", *, enabled: bool = True, can_think: bool = False
) -> dict[str, Any]:
    """The analysis trait showing ``state`` and why."""
    return {"enabled": enabled, "state": state, "why": why, "can_think": can_think}


class SlowSolver:
    """Stands in for ``solver.solve`` / ``solver.hint``: each call waits to be released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "winnable") -> None:
        import threading

        from milligan_widget.search import solver

        self.status = status
        self.calls: list[Game] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Semaphore(0)

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
            self.calls.append(game)
            self.started.release()
            assert self.release.acquire(timeout=10), "never released"
            return solver.SolveResult(self.status)  # a verdict without a line to remember

        monkeypatch.setattr(solver, "solve", solve)

    def wait_started(self) -> None:
        assert self.started.acquire(timeout=10), "the solver was never called"


def test_solver_hints_are_legal_and_keep_deal_8_winnable() -> None:
    from milligan_widget.search.solver import solve

    widget = MilliganWidget(peek=True, seed=8)
    assert widget.hint_time == 2.0
    widget.hint_time = 10  # a margin for a loaded machine: the solver wins deal 8 in ~1 s
    browser = Browser(widget)
    for ply in range(3):
        view = browser.updated_view(browser.request({"type": "hint"}))
        if ply == 0:
            assert view["kind"] == "thinking" and "thinking" in view["message"].lower()
            assert view["hint"] is None
            assert widget.wait(10)
            view = browser.updated_view(browser.sent[-1:])
        # The next hints answer at once: the first hint's win is remembered.
        assert view["kind"] == "hint" and view["message"].startswith("Solver: ")
        move = Move.parse(view["hint"]["text"])
        assert move in widget.game.legal_moves or widget.game.explain(move) is None
        widget.play(move)
    assert solve(widget.game, time_limit=10).status == "winnable"


def test_a_hint_that_finds_no_win_says_heuristic(monkeypatch) -> None:
    from milligan_widget.search import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unknown"))
    widget = MilliganWidget(peek=True, seed=2)
    move, why = widget.hint()
    assert widget.view["message"].startswith("Heuristic: ") and "could not decide" in why
    assert (move, why.split(" (")[0]) == strategy.hint(widget.game)


def test_the_kernel_handles_clicks_while_the_solver_thinks(monkeypatch, widget_with_move) -> None:
    import time

    widget, move = widget_with_move
    widget.peek = True  # the solver's hint (it is stood in for here)
    slow = SlowSolver(monkeypatch, status="unknown")
    browser = Browser(widget)
    browser.request({"type": "hint"})
    slow.wait_started()
    start = time.perf_counter()
    view = browser.updated_view(browser.request(_move(move.source, move.target, 1)))
    assert time.perf_counter() - start < 0.5 and view["stats"]["moves"] == 1
    count = len(browser.sent)
    slow.release.release()
    assert widget.wait(10)
    assert len(browser.sent) == count  # the hint was for the position before: dropped
    assert widget.view["kind"] != "hint"


def test_the_indicator_checks_in_the_background_and_drops_stale_results(
    monkeypatch, widget_with_move
) -> None:
    widget, move = widget_with_move
    widget.peek = True  # the solver's check (it is stood in for here)
    slow = SlowSolver(monkeypatch, status="unknown")
    browser = Browser(widget)
    assert widget.analysis == shown(None, enabled=False)
    sent = browser.request({"type": "winnable", "on": True})
    checking = shown("checking", "the solver has up to 3 s")
    assert [m["state"] for m in sent] == [{"analysis": checking}]
    slow.wait_started()  # the deal's check is running
    (message,) = browser.request(_move(move.source, move.target, 1))
    assert "analysis" not in message["state"]  # still "checking", now the new position
    assert widget.analysis["state"] == "checking"
    assert message["state"]["view"]["stats"]["moves"] == 1
    slow.status = "winnable"  # would be the answer for the deal: it must not show
    slow.release.release()
    slow.wait_started()  # the worker went on to the newest position
    assert widget.analysis["state"] == "checking"
    slow.status = "unknown"
    slow.release.release()
    assert widget.wait(10)
    assert widget.analysis == shown("unknown", "no answer within 3 s", can_think=True)
    assert [str(m) for m in slow.calls[1].history] == [str(m) for m in widget.game.history]
    sent = browser.request({"type": "winnable", "on": False})
    assert [m["state"] for m in sent] == [{"analysis": shown(None, enabled=False)}]


def test_the_indicator_on_deal_8_says_winnable() -> None:
    widget = MilliganWidget(peek=True, seed=8, check_winnable=True)
    assert widget.analysis == shown("checking", "the solver has up to 3 s")
    assert widget.wait(10)
    moves = len(widget.known_win)
    assert widget.analysis == shown(
        "winnable", f"the solver, which knows the stock, found a win in {moves} moves"
    )
    from milligan_widget.teaching import learn_the_rules

    widget.start_lesson(learn_the_rules())
    assert widget.analysis["state"] is None  # nothing to check in a lesson


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own niceness is Linux's")
def test_the_indicator_checks_at_a_lower_priority_than_the_kernel_s_thread(monkeypatch) -> None:
    from milligan_widget.search import solver

    niceness: list[int] = []

    def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
        niceness.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return solver.SolveResult("unknown")

    monkeypatch.setattr(solver, "solve", solve)
    kernel = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    if kernel >= BACKGROUND_NICE:
        pytest.skip("the tests run at a niceness the background threads cannot go below")
    widget = MilliganWidget(peek=True, seed=8, check_winnable=True)
    assert widget.wait(10) and widget.analysis["state"] == "unknown"
    assert niceness == [BACKGROUND_NICE]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == kernel


def test_the_indicator_s_search_gives_way_to_the_player_s_requests(monkeypatch) -> None:
    """With peek off and on, the checker's solver waits at its next look at ``stop`` while a
    request is handled and its frame goes out (measured: benchmarks/widget.py --honest)."""
    from milligan_widget.search import solver

    monkeypatch.setattr(RIGHT_OF_WAY, "seconds", 0.3)
    waited: list[float] = []

    def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
        RIGHT_OF_WAY.claim()  # a request came in meanwhile
        start = time.monotonic()
        stop()
        waited.append(time.monotonic() - start)
        return solver.SolveResult("unknown")

    monkeypatch.setattr(solver, "solve", solve)
    widget = MilliganWidget(peek=True, seed=8, check_winnable=True)
    assert widget.wait(10) and widget.analysis["state"] == "unknown"
    assert len(waited) == 1 and waited[0] >= 0.25


@pytest.mark.parametrize("request_", [{"type": "winnable"}, {"type": "winnable", "on": 1}])
def test_a_bad_indicator_request_is_refused(request_) -> None:
    widget = MilliganWidget(peek=True, seed=3)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and widget.check_winnable is False


def test_show_solution_plays_deal_8_to_a_win_move_by_move() -> None:
    widget = MilliganWidget(peek=True, seed=8)
    browser = Browser(widget)
    widget.show_solution(time_limit=10, delay=0, wait=True)
    assert widget.game.status == "won" and widget.view["busy"] is None
    views_sent = [m["state"]["view"] for m in browser.sent if "view" in m["state"]]
    assert views_sent[0]["kind"] == "thinking" and views_sent[0]["busy"] == "solution"
    played = views_sent[1:]
    assert len(played) == len(widget.game.history)  # one update per move, never the list
    assert all(len(json.dumps(v)) < MAX_BYTES_PER_MOVE for v in played)
    assert played[0]["message"].startswith("Solution 1/")
    assert played[-1]["kind"] == "won"


def test_the_solves_a_player_asks_for_and_waits_on_take_two_cores(monkeypatch) -> None:
    from milligan_widget.search import solver

    asked: list[int] = []
    real = solver.solve

    def spy(game: Game, *args: Any, workers: int = 1, **kwargs: Any) -> solver.SolveResult:
        asked.append(workers)
        return real(game, *args, workers=workers, **kwargs)

    monkeypatch.setattr(solver, "solve", spy)
    widget = MilliganWidget(peek=True, seed=8)
    widget.think_longer(5, wait=True)
    widget.game = Game.new(8)  # Think longer's win is remembered: the solution would not solve
    widget.show_solution(time_limit=10, delay=0, wait=True)
    assert widget.game.status == "won"
    assert asked == [min(2, os.cpu_count() or 1)] * 2  # the machine's two cores, if it has them


def test_stop_stops_the_solution(monkeypatch) -> None:
    import time

    widget = MilliganWidget(peek=True, seed=8)
    browser = Browser(widget)
    widget.show_solution(time_limit=10, delay=0.2)
    deadline = time.monotonic() + 20
    while len(widget.game.history) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    view = browser.updated_view(browser.request({"type": "stop"})[-1:])
    played = len(widget.game.history)
    assert view["busy"] is None and view["message"].startswith("Solution stopped after")
    time.sleep(0.5)
    assert len(widget.game.history) == played and widget.game.status == "playing"
    assert widget.stop() is False
    view = browser.updated_view(browser.request({"type": "stop"}))
    assert view["message"] == "Nothing to stop."
    # From Python, and a move by the player stops it too.
    widget.show_solution(time_limit=10, delay=0.2)
    while len(widget.game.history) < played + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert widget.stop() is True
    played = len(widget.game.history)
    widget.show_solution(time_limit=10, delay=0.2)
    while len(widget.game.history) < played + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    browser.request({"type": "undo"})
    assert widget.view["busy"] is None
    after = len(widget.game.history)
    time.sleep(0.5)
    assert len(widget.game.history) == after


def test_the_solution_refuses_in_a_lesson_and_says_when_there_is_no_win(monkeypatch) -> None:
    from milligan_widget.search import solver
    from milligan_widget.teaching.tutorial import learn_the_rules

    widget = MilliganWidget(peek=True, seed=4, lesson=learn_the_rules())
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "solution"}))
    assert view["kind"] == "error"
    widget.stop_lesson()
    lost = solver.SolveResult("unwinnable")
    monkeypatch.setattr(solver, "solve", lambda game, **limits: lost)
    widget.show_solution(wait=True)
    assert widget.view["message"] == "Solver: this position can no longer be won."
    assert widget.view["busy"] is None and not widget.game.history


def test_a_lost_position_names_the_card_that_is_trapped_for_good() -> None:
    from tests.staging import stage

    widget = MilliganWidget(peek=True, game=stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    widget.show_solution(wait=True)
    assert widget.view["message"] == (
        "Solver: this position can no longer be won: Q♣ in column 1 can never move or go home."
    )
    widget.check_winnable = True
    assert widget.wait() and widget.analysis == shown(
        "unwinnable", "Q♣ in column 1 can never move or go home"
    )


def test_the_first_message_fits_the_game_on_show() -> None:
    assert "Good luck" in MilliganWidget(peek=True, seed=5).view["message"]
    played = Game.new(5)
    played.play("2>6")
    assert (
        MilliganWidget(peek=True, game=played)
        .view["message"]
        .startswith("Game #5 (classic) after 1 move")
    )
    staged = Game.new(5).copy(history=False)
    assert MilliganWidget(peek=True, game=staged).view["message"].startswith("A staged position")


# ------------------------------------------------------------------ remembered wins, stopping
class StoppableSolver:
    """Stands in for ``solver.solve``: each call searches until ``stop()`` is true (then
    answers "unknown", as the real one does) or until released (then answers ``status``),
    and records its history and whether it was stopped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "unwinnable") -> None:
        import threading
        import time

        from milligan_widget.search import solver

        self.status, self.obey = status, True
        self.calls: list[tuple[str, ...]] = []
        self.stopped: list[bool] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None, workers=1):
            index = len(self.calls)
            self.calls.append(tuple(str(m) for m in game.history))
            self.stopped.append(False)
            self.started.release()
            deadline = time.monotonic() + 20
            while not self.release.is_set() and time.monotonic() < deadline:
                if self.obey and stop is not None and stop():
                    self.stopped[index] = True
                    return solver.SolveResult("unknown")
                time.sleep(0.002)
            self.release.clear()
            return solver.SolveResult(self.status, self.moves(game))

        monkeypatch.setattr(solver, "solve", solve)

    def moves(self, game: Game) -> tuple[Move, ...]:
        return _some_line(game) if self.status == "winnable" else ()

    def wait_started(self) -> None:
        assert self.started.acquire(timeout=10), "the solver was never called"


def test_a_win_the_indicator_finds_answers_hints_from_memory(monkeypatch) -> None:
    from milligan_widget.search import solver

    found: list[solver.SolveResult] = []
    real_solve = solver.solve

    def recording(game: Game, **limits: Any) -> solver.SolveResult:
        found.append(real_solve(game, **limits))
        return found[-1]

    monkeypatch.setattr(solver, "solve", recording)
    widget = MilliganWidget(peek=True, seed=8, check_winnable=True, winnable_time=10)
    assert widget.wait(60)
    assert widget.analysis["state"] == "winnable"  # the solver wins deal 8 in a few seconds
    line = found[-1].moves
    fake = LineSolver(monkeypatch)  # from here on, every solve is counted
    browser = Browser(widget)
    for ply in range(3):  # following the hints keeps answering from memory
        view = browser.updated_view(browser.request({"type": "hint"}))
        left = len(line) - ply
        assert view["kind"] == "hint" and view["message"].startswith("Solver: ")
        assert view["message"].endswith(
            f"the solver, which knows the stock, sees a win from here in {left} moves."
        )
        assert view["hint"]["text"] == str(line[ply])
        move, why = widget.hint()
        assert (
            move == line[ply]
            and why == f"the solver, which knows the stock, sees a win from here in {left} moves"
        )
        widget.play(move)
        assert widget.analysis["state"] == "winnable"  # at once, no check
    assert fake.calls == []
    off = first_legal(widget.game, lambda m: str(m) != str(line[3]))
    widget.play(off)  # leaving the line: fresh solves again
    assert widget.analysis["state"] == "checking"
    move, why = widget.hint()
    assert widget.wait(10) and widget.analysis["state"] == "unknown"
    assert fake.calls == [_history(widget)] * 2
    assert "heuristic guess" in why
    widget.undo()  # back on the line
    assert widget.analysis["state"] == "winnable"
    assert widget.hint()[0] == line[3] and len(fake.calls) == 2
    widget.show_solution(delay=0, wait=True)  # plays at once, the line it remembers
    assert widget.game.status == "won" and len(fake.calls) == 2
    assert [str(m) for m in widget.game.history] == [str(m) for m in line]


def test_a_win_a_hint_finds_serves_the_indicator_and_the_solution(monkeypatch) -> None:
    widget = MilliganWidget(peek=True, seed=8)
    line = _some_line(widget.game)
    fake = LineSolver(monkeypatch, line)
    browser = Browser(widget)
    move, why = widget.hint()
    assert (
        move == line[0]
        and why == f"the solver, which knows the stock, sees a win from here in {len(line)} moves"
    )
    assert widget.view["message"].startswith("Solver: ") and fake.calls == [()]
    widget.play(move)
    widget.check_winnable = True
    assert widget.analysis == shown(
        "winnable", f"the solver, which knows the stock, found a win in {len(line) - 1} moves"
    )
    widget.check_winnable = False
    sent = browser.request({"type": "solution"})  # the first move may follow at once
    view = next(m["state"]["view"] for m in sent if "view" in m["state"])
    assert view["busy"] == "solution" and view["kind"] != "thinking"
    assert (
        view["message"]
        == f"Solution: a win of the solver, which knows the stock, in {len(line) - 1} moves"
    )
    assert widget.wait(10) and fake.calls == [()]
    assert [str(m) for m in widget.game.history] == [str(m) for m in line]


def test_a_win_a_hint_finds_ends_the_indicators_check_at_once(monkeypatch) -> None:
    import threading

    from milligan_widget.search import solver

    widget = MilliganWidget(peek=True, seed=8, winnable_time=7)
    line = _some_line(widget.game)
    checking, stopped = threading.Event(), []

    def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
        if time_limit != math.inf:  # the hint's solve (the check counts its 7 s in stop)
            return solver.SolveResult("winnable", line)
        checking.set()  # the indicator's check: searches until stopped
        while not stop():
            threading.Event().wait(0.002)
        stopped.append(True)
        return solver.SolveResult("unknown")

    monkeypatch.setattr(solver, "solve", solve)
    widget.check_winnable = True
    assert checking.wait(10)
    assert widget.hint()[0] == line[0]
    assert widget.analysis["state"] == "winnable"
    assert widget.wait(10) and stopped == [True]
    assert widget.analysis["state"] == "winnable"


@pytest.mark.parametrize(
    "replace",
    [
        lambda widget: widget.new_game(8),
        lambda widget: setattr(widget, "game", widget.game.copy()),
        lambda widget: (widget.start_lesson(_tutorial()), widget.stop_lesson()),
        lambda widget: (widget.show_replay(), widget.stop_replay()),
    ],
    ids=["new deal", "assigned game", "lesson", "replay"],
)
def test_a_new_game_or_mode_forgets_the_win(monkeypatch, replace) -> None:
    widget = MilliganWidget(peek=True, seed=8)
    fake = LineSolver(monkeypatch, _some_line(widget.game))
    widget.hint()
    widget.hint()  # remembered
    assert fake.calls == [()]
    replace(widget)
    widget.hint()
    assert fake.calls == [(), ()]


def _tutorial() -> Any:
    from milligan_widget.teaching.tutorial import learn_the_rules

    return learn_the_rules()


def test_a_win_found_for_a_game_no_longer_on_show_is_not_remembered(monkeypatch) -> None:
    widget = MilliganWidget(peek=True, seed=8)
    slow = StoppableSolver(monkeypatch, status="winnable")
    slow.obey = False  # a solve that does not notice it was stopped
    widget.hint(wait=False)
    slow.wait_started()
    widget.new_game(8)  # the same deal, another game
    slow.release.set()
    assert widget.wait(10) and widget.view["kind"] == "info"  # the old hint is dropped
    slow.status = "unknown"
    widget.hint(wait=False)
    slow.wait_started()  # asked again: the old game's win was not kept for this one
    slow.release.set()
    assert widget.wait(10) and widget.view["message"].startswith("Heuristic: ")


def test_a_check_for_a_position_left_is_stopped(monkeypatch, widget_with_move) -> None:
    widget, move = widget_with_move
    widget.peek = True  # the solver's check (it is stood in for here)
    slow = StoppableSolver(monkeypatch)
    browser = Browser(widget)
    browser.request({"type": "winnable", "on": True})
    slow.wait_started()  # the deal's check is running
    browser.request(_move(move.source, move.target, 1))
    slow.wait_started()  # the deal's check ended: it was stopped
    assert slow.stopped == [True, False]
    assert slow.calls == [(), _history(widget)]
    assert widget.analysis["state"] == "checking"  # the stopped check showed nothing
    slow.release.set()
    assert widget.wait(10) and widget.analysis["state"] == "unwinnable"
    widget.undo()
    slow.wait_started()
    widget.check_winnable = False  # switching the indicator off stops its check
    assert widget.wait(10) and slow.stopped == [True, False, True]
    assert widget.analysis == shown(None, enabled=False)


def test_a_hint_for_a_position_left_is_stopped(monkeypatch, widget_with_move) -> None:
    widget, move = widget_with_move
    widget.peek = True  # the solver's hint (it is stood in for here)
    slow = StoppableSolver(monkeypatch, status="winnable")
    browser = Browser(widget)
    browser.request({"type": "hint"})
    slow.wait_started()
    widget.play(move)
    assert widget.wait(10) and slow.stopped == [True]
    assert widget.view["kind"] != "hint" and widget.view["hint"] is None
    widget.undo()  # back where the hint was asked: it is asked afresh, not the stopped one
    assert widget.hint(wait=False) is None
    slow.wait_started()
    slow.release.set()
    assert widget.wait(10) and widget.view["message"].startswith("Solver: ")
    assert slow.stopped == [True, False]


def test_a_solution_stopped_while_the_solver_searches_stops_the_solver(
    monkeypatch, widget_with_move
) -> None:
    widget, move = widget_with_move
    slow = StoppableSolver(monkeypatch, status="winnable")
    widget.show_solution()
    slow.wait_started()
    assert widget.stop() is True
    assert widget.wait(10) and slow.stopped == [True]
    assert widget.view["message"] == "Solution stopped after 0 moves."
    widget.show_solution()
    slow.wait_started()
    widget.play(move)  # a move by the player
    assert widget.view["busy"] is None
    assert widget.wait(10) and slow.stopped == [True, True]
    assert len(widget.game.history) == 1 and widget.view["kind"] == "info"


# ------------------------------------------------------------------ the verdict says why
def test_the_verdict_says_why_for_a_loss_without_a_trapped_card(monkeypatch) -> None:
    from milligan_widget.search import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unwinnable"))
    widget = MilliganWidget(peek=True, seed=5, check_winnable=True)
    assert widget.wait(10)
    assert widget.analysis == shown(
        "unwinnable", "the solver, which knows the stock, searched every line"
    )


def test_the_verdict_says_won_once_all_cards_are_home() -> None:
    game, move = _won_in_one()
    widget = MilliganWidget(peek=True, game=game, check_winnable=True)
    assert widget.wait(10)
    widget.play(move)
    assert widget.analysis == shown("won", "all cards are home")
    widget.check_winnable = False
    assert widget.analysis == shown(None, enabled=False)


def test_the_verdict_on_a_game_with_no_useful_move_left_says_why() -> None:
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
    clubs = [f"{rank}C" for rank in ranks for _ in range(2)]
    columns = [["AC", "2C"], ["AC", "2C"], *[[]] * 5, clubs]
    foundations = [None, None, "KS", "KS", "KH", "KH", "KD", "KD"]
    game = Game.from_layout(columns, foundations, rules="millie")
    widget = MilliganWidget(peek=True, game=game, check_winnable=True)
    assert widget.analysis["state"] == "unwinnable" and widget.analysis["why"]
    assert widget.analysis["can_think"] is False


# ------------------------------------------------------------------ think longer
class ThinkingSolver:
    """Stands in for ``solver.solve``: reports ``progress`` as given, then searches until
    released (answering ``status``) or stopped (answering "unknown"); records each call's
    history and time limit."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "winnable",
                 progress=((1_000, 0.2), (2_000, 0.6), (130_000, 12.4))) -> None:  # fmt: skip
        import threading

        from milligan_widget.search import solver

        self.status, self.steps = status, progress
        self.calls: list[tuple[tuple[str, ...], float]] = []
        self.stopped: list[bool] = []
        self.reported = threading.Semaphore(0)
        self.release = threading.Event()

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None,
                  progress=None, workers=1):  # fmt: skip
            self.calls.append((tuple(str(m) for m in game.history), time_limit))
            for positions, seconds in self.steps:
                if progress is not None:
                    progress(positions, seconds)
            self.reported.release()
            while not self.release.wait(0.002):
                if stop is not None and stop():
                    self.stopped.append(True)
                    return solver.SolveResult("unknown")
            self.release.clear()
            self.stopped.append(False)
            moves = _some_line(game) if self.status == "winnable" else ()
            return solver.SolveResult(self.status, moves)

        monkeypatch.setattr(solver, "solve", solve)

    def wait_reported(self) -> None:
        assert self.reported.acquire(timeout=10), "the solver was never called"


def _undecided_widget(monkeypatch) -> MilliganWidget:
    """A widget whose hint fell back on the heuristic: the solver found no answer."""
    from milligan_widget.search import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unknown"))
    widget = MilliganWidget(peek=True, seed=8)
    widget.hint()
    return widget


def test_think_longer_is_offered_once_the_solver_had_no_answer(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    assert widget.view["message"].startswith("Heuristic: ")
    assert widget.analysis == shown(None, enabled=False, can_think=True)  # the indicator is off
    widget.play(widget.game.legal_moves[0])
    assert widget.analysis["can_think"] is False  # nothing was asked about this position
    widget.check_winnable = True
    assert widget.wait(10)
    assert widget.analysis == shown("unknown", "no answer within 3 s", can_think=True)


def test_think_longer_shows_progress_then_the_verdict_and_remembers_the_win(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    browser = Browser(widget)
    sent = browser.request({"type": "think"})
    view = next(m["state"]["view"] for m in sent if "view" in m["state"])
    assert view["kind"] == "thinking" and view["busy"] == "think"
    assert view["message"] == "Thinking longer… (the solver has up to 30 s; Stop stops it)"
    fake.wait_reported()
    analyses = [m["state"]["analysis"] for m in browser.sent if "analysis" in m["state"]]
    assert [a["why"] for a in analyses] == [
        "thinking… the solver has up to 30 s",
        "thinking… 1 s, 2,000 positions",  # 0.2 s was too soon after the start to show
        "thinking… 12 s, 130,000 positions",
    ]
    assert {(a["state"], a["can_think"]) for a in analyses} == {("checking", False)}
    assert fake.calls == [((), 30.0)]
    fake.release.set()
    assert widget.wait(10)
    line = len(widget.known_win)
    found = f"the solver, which knows the stock, found a win in {line} moves"
    assert widget.analysis == shown("winnable", found, enabled=False)
    assert widget.view["message"] == (
        f"Solver, which knows the stock: a win in {line} moves from here. "
        "Hint and Solution ▶ follow it."
    )
    assert widget.view["busy"] is None
    move, why = widget.hint()  # from memory: no new solve
    assert why.startswith("the solver, which knows the stock, sees a win") and len(fake.calls) == 1
    widget.play(move)
    assert widget.analysis["state"] is None  # another position: the indicator is off


def test_stop_stops_think_longer_and_says_how_far_it_got(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    browser = Browser(widget)
    browser.request({"type": "think"})
    fake.wait_reported()
    view = browser.updated_view(browser.request({"type": "stop"})[-1:])
    assert view["message"] == "Thinking stopped after 12 s and 130,000 positions."
    assert view["busy"] is None
    assert widget.wait(10) and fake.stopped == [True]
    assert widget.analysis == shown(
        "unknown", "stopped after 12 s and 130,000 positions", enabled=False, can_think=True
    )
    assert widget.stop() is False


def test_think_longer_doubles_its_time_on_each_press_that_found_nothing(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch, status="unknown", progress=())
    fake.release.set()
    browser = Browser(widget)
    for seconds in (30, 60, 120):
        browser.request({"type": "think"})
        assert widget.wait(10)
        fake.release.set()
        next_time = seconds * 2
        assert widget.view["message"] == (
            f"Solver: no answer within {seconds} s. Think longer gives it {next_time} s."
        )
        assert widget.analysis == shown(
            "unknown", f"no answer within {seconds} s", enabled=False, can_think=True
        )
    assert [limit for _, limit in fake.calls] == [30, 60, 120]
    widget.play(widget.game.legal_moves[0])  # another position: 30 s again
    browser.request({"type": "think"})
    assert widget.wait(10) and fake.calls[-1] == (_history(widget), 30)


def test_think_longer_is_stopped_when_the_player_moves_on(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    widget.think_longer(5)
    fake.wait_reported()
    widget.play(widget.game.legal_moves[0])
    assert widget.view["busy"] is None
    assert widget.wait(10) and fake.stopped == [True]
    assert widget.analysis == shown(None, enabled=False)
    assert "Solver" not in widget.view["message"]


def test_think_longer_from_python_waits_for_the_verdict(monkeypatch) -> None:
    from tests.staging import stage

    widget = MilliganWidget(peek=True, game=stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    result = widget.think_longer(5, wait=True)
    assert result.status == "unwinnable"
    assert widget.analysis == shown(
        "unwinnable", "Q♣ in column 1 can never move or go home", enabled=False
    )
    assert widget.view["message"] == (
        "Solver: this position can no longer be won: Q♣ in column 1 can never move or go home."
    )


def test_think_longer_with_the_real_solver_reports_growing_progress() -> None:
    widget = MilliganWidget(peek=True, seed=715)  # not decided in 60 s
    browser = Browser(widget)
    result = widget.think_longer(1.6, wait=True)
    assert result.status == "unknown" and widget.wait(10)
    assert result.stats["workers"] == min(2, os.cpu_count() or 1)  # two cores, where there are
    whys = [m["state"]["analysis"]["why"] for m in browser.sent if "analysis" in m["state"]]
    counts = [int(re.sub(r"\D", "", why.split(", ")[1])) for why in whys if "positions" in why]
    assert len(counts) >= 2 and counts == sorted(counts) and counts[0] < counts[-1]
    assert counts[-1] <= result.nodes  # the positions of both cores
    assert whys[-1] == "no answer within 1.6 s"


@pytest.mark.parametrize("where", ["lesson", "replay"])
def test_think_longer_is_for_a_game(where) -> None:
    if where == "lesson":
        widget, browser = _lesson_widget()
    else:
        widget = MilliganWidget(peek=True, game=_commented_game(), replay_viewer=True)
        browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "think"}))
    assert view["kind"] == "error" and view["busy"] is None
    with pytest.raises(IllegalMoveError):
        widget.think_longer()
