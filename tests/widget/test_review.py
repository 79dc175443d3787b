"""The game review in the widget: the request and its refusals, the background job (progress,
Stop, the lock let go during each solve), and its honesty (the caption, a game in play counts
as peeked). The solver is stood in for, so that each test controls when a move is done."""

from __future__ import annotations

import dataclasses
import importlib
import json
import threading
import time
from typing import Any

import pytest

from milligan_widget import Game, strategy
from milligan_widget.analysis import Chance, ReviewEntry
from milligan_widget.analysis.evaluate import SEEING
from milligan_widget.search.solver import SolveResult
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant import review as review_job
from tests.widget.simulate import Browser, _lesson_widget

review_module = importlib.import_module("milligan_widget.analysis.review")  # not the function
QUICK = {"time_limit": 0.05, "samples": 2, "node_limit": 300, "seed": 1}
HALF = Chance(1, 2)  # the stand-in's chance: 1 of 2 sampled stocks


class Solver:
    """Stands in for the review's solver and chance: each verdict "winnable", each chance
    1 of 2; the solve number ``block_at`` (and later ones) waits until ``release`` is set."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        block_at: int | None = None,
        chance: Chance = HALF,
    ) -> None:
        self.calls = 0
        self.entered = threading.Event()
        self.release = threading.Event()

        def solve(game: Game, *args: Any, stop: Any = None, **kwargs: Any) -> SolveResult:
            self.calls += 1
            if block_at is not None and self.calls >= block_at:
                self.entered.set()
                while not self.release.wait(0.01):
                    if stop is not None and stop():
                        break
            return SolveResult("winnable")

        monkeypatch.setattr(review_module, "solve", solve)
        def judged(_: Any, entry: ReviewEntry, *args: Any, **kwargs: Any) -> ReviewEntry:
            return dataclasses.replace(entry, chance=chance)

        monkeypatch.setattr(review_module.Judge, "entry", judged)


def played(moves: int = 4) -> Game:
    game = Game.new(8)
    for _ in range(moves):
        game.play("d")
    return game


def shown(game: Game | None = None, **kwargs: Any) -> tuple[MilliganWidget, Browser]:
    widget = MilliganWidget(game=game or played(), stats=False, autosave=False, **kwargs)
    widget.review_settings = review_job.ReviewSettings(**QUICK)
    return widget, Browser(widget)


def reviews(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game_review values in what the widget sent."""
    return [
        m["state"]["game_review"]
        for m in messages
        if m.get("method") == "update" and "game_review" in m.get("state", {})
    ]


def test_a_review_request_in_a_lesson_is_refused_in_words() -> None:
    widget, browser = _lesson_widget()
    before = widget.game.copy()
    browser.request({"type": "review"})
    assert widget.view["kind"] == "error" and widget.mode == "lesson"
    assert widget.view["message"] == "The review is for a game: finish or close the lesson first."
    assert widget.game == before and widget.game_review["state"] is None
    assert "review" not in widget.view["actions"]


def test_a_game_with_no_moves_is_not_reviewed_and_nothing_changes() -> None:
    widget, browser = shown(Game.new(8))
    browser.request({"type": "review"})
    assert widget.view["kind"] == "error" and widget.mode == "play"
    assert "nothing to review yet" in widget.view["message"]
    assert widget.game_review["state"] is None and widget.last_review is None
    with pytest.raises(ValueError, match="nothing to review yet"):
        widget.review()


def test_a_20000_move_save_is_refused_up_front(tmp_path) -> None:
    document = json.loads(played(1).to_json())
    document["moves"] = ["d"] * 20_000  # never replayed: the count refuses it first
    path = tmp_path / "long.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    widget, _ = shown()
    before = widget.game.copy()
    start = time.perf_counter()
    for source in (path, json.dumps(document)):
        with pytest.raises(ValueError, match="20,000 moves: a review takes at most 2,000"):
            widget.review(source)
        assert widget.view["kind"] == "error" and "at most 2,000" in widget.view["message"]
    assert time.perf_counter() - start < 2.0
    assert widget.mode == "play" and widget.game == before and widget.last_review is None


def test_progress_frames_arrive_one_move_at_a_time(monkeypatch) -> None:
    Solver(monkeypatch)
    widget, browser = shown()
    widget._table.assistant.reviewer.every = 0.0  # every move's progress is sent
    start = len(browser.sent)
    review = widget.review(wait=True)
    assert review is not None and len(review.entries) == 4
    sent = reviews(browser.sent[start:])
    running = [data for data in sent if data["state"] == "running"]
    assert [data["done"] for data in running] == [0, 1, 2, 3, 4]  # the start, then each move
    assert running[0]["progress"] == "Reviewing move 1 of 4…"
    assert running[2]["progress"] == "Reviewing move 3 of 4…"
    assert [len(data["entries"]) for data in running] == [0, 1, 2, 3, 4]
    # Done: the progress line is empty (nothing stale till the next review); the message
    # line says it once, and goes with the next view.
    assert sent[-1]["state"] == "done" and sent[-1]["progress"] == ""
    assert widget.view["message"] == "Review done: 4 moves."
    assert widget.mode == "replay" and len(widget.game.history) == 4


def test_stop_ends_the_review_and_keeps_the_moves_done(monkeypatch) -> None:
    solver = Solver(monkeypatch, block_at=3)  # moves 1 and 2 done, the third one solving
    widget, browser = shown()
    widget.review()
    assert solver.entered.wait(10)
    assert widget.view["busy"] == "review"
    browser.request({"type": "stop"})
    job = widget._table.assistant.reviewer.job
    assert job is not None
    solver.release.set()
    assert job.join(10)
    assert widget.game_review["state"] == "stopped" and widget.game_review["done"] == 2
    assert [entry.ply for entry in widget.last_review.entries] == [0, 1]
    assert "Review stopped after 2 of 4 moves" in widget.view["message"]
    assert widget.view["busy"] is None and widget.stop() is False


def test_a_request_is_answered_while_a_move_is_being_solved(monkeypatch) -> None:
    solver = Solver(monkeypatch, block_at=1)
    widget, browser = shown()
    widget.review()
    assert solver.entered.wait(10)  # the review's thread is inside a solve
    answered = threading.Thread(target=browser.request, args=({"type": "seek", "ply": 1},))
    answered.start()
    answered.join(5)
    try:
        assert not answered.is_alive(), "the seek waited for the solve: the lock was held"
        assert widget.view["replay"]["ply"] == 1 and len(widget.game.history) == 1
    finally:
        solver.release.set()
        widget.wait(10)


def test_leaving_the_viewer_drops_the_review(monkeypatch) -> None:
    solver = Solver(monkeypatch, block_at=2)
    widget, browser = shown()
    widget.review()
    assert solver.entered.wait(10)
    job = widget._table.assistant.reviewer.job
    browser.request({"type": "close"})
    assert job is not None and job.stop.is_set()
    assert widget.mode == "play" and widget.game_review["state"] is None
    solver.release.set()
    assert job.join(10) and widget.game_review["state"] is None


def test_the_caption_says_where_the_verdicts_and_the_chances_come_from(monkeypatch) -> None:
    Solver(monkeypatch)
    widget, _ = shown()
    widget.review(wait=True)
    caption = widget.game_review["caption"]
    assert "the solver, which knows the stock" in caption
    assert "from what you could see" in caption
    entry = widget.game_review["entries"][0]
    assert entry["chance"]["text"] == f"50% of 2 sampled stocks win (9–91%) {SEEING}"
    assert "the solver (which knows the stock): winnable" in entry["words"]


def test_a_chance_nothing_was_decided_in_is_no_point_and_its_words_say_so(monkeypatch) -> None:
    Solver(monkeypatch, chance=Chance(0, 2, 2))
    widget, _ = shown()
    widget.review(wait=True)
    entry = widget.game_review["entries"][0]
    assert entry["chance"] is None  # the chart draws no 0% there
    assert "cannot tell: the solver decided none of 2 sampled stocks" in entry["words"]


def test_reviewing_a_game_in_play_counts_it_as_peeked(monkeypatch) -> None:
    Solver(monkeypatch)
    widget, browser = shown()
    assert widget.peek is False and widget._table.card.peek is False
    browser.request({"type": "review"})
    assert widget._table.card.peek is True
    assert "This game counts as peeked" in widget.view["message"]
    widget.wait(10)
    browser.request({"type": "close"})  # Play from here goes on with the same scorecard
    assert widget.mode == "play" and widget._table.card.peek is True


def test_a_lost_game_is_reviewed_from_its_banner_without_peeking() -> None:
    game = strategy.play_game(Game.new(8), strategy.greedy)
    assert game.status == "lost"
    widget, browser = shown(game)
    assert "review" in widget.view["actions"]  # the banner's Review button
    browser.request({"type": "review"})
    assert widget._table.card.peek is False
    assert "peeked" not in widget.view["message"]
    assert widget.wait(60)
    data = widget.game_review
    assert data["state"] == "done" and len(data["entries"]) == len(game.history)
    assert [entry["ply"] for entry in data["entries"]] == list(range(len(game.history)))
    assert "review" in widget.view["actions"]  # and again from the viewer's bar


def test_a_new_game_drops_the_review(monkeypatch) -> None:
    solver = Solver(monkeypatch, block_at=2)
    widget, _ = shown()
    widget.review()
    assert solver.entered.wait(10)
    job = widget._table.assistant.reviewer.job
    widget.new_game(9)  # from Python: the viewer's page has no New game
    assert job is not None and job.stop.is_set()
    assert widget.game_review["state"] is None and widget.last_review is None
    solver.release.set()
    assert job.join(10) and widget.game_review["state"] is None


def test_in_the_viewer_the_whole_line_is_reviewed_wherever_it_stands(monkeypatch) -> None:
    Solver(monkeypatch)
    widget, _ = shown(peek=True)  # peek on: nothing new to count
    widget.show_replay(ply=1)
    review = widget.review(wait=True)
    assert review is not None and [e.ply for e in review.entries] == [0, 1, 2, 3]
    assert widget.mode == "replay" and len(widget.game.history) == 1  # the viewer stays put
    assert "peeked" not in widget.view["message"]


def test_the_move_that_lost_the_win_is_a_blunder_with_the_better_move_in_words(monkeypatch) -> None:
    """The solver wins before the second deal and not after it: that deal is the blunder,
    and the better move is the solver's own first move there, described in that position."""

    def solve(game: Game, *args: Any, **kwargs: Any) -> SolveResult:
        if game.stock_count < 88:  # two rows dealt: lost
            return SolveResult("unwinnable")
        return SolveResult("winnable", (game.legal_moves[0],))

    monkeypatch.setattr(review_module, "solve", solve)
    monkeypatch.setattr(
        review_module.Judge, "entry", lambda _, entry, *__: dataclasses.replace(entry, chance=HALF)
    )
    game = Game.new(1)  # after its first row: 3>f, 7>2 and a deal
    for _ in range(4):
        game.play("d")
    widget, _ = shown(game)
    widget.review(wait=True)
    data = widget.game_review
    assert data["turning_point"] == 1
    (blunder,) = [flag for flag in data["flags"] if flag["label"] == "blunder"]
    better = widget.game.position_after(1).legal_moves[0]
    assert not better.is_deal
    described = widget.game.position_after(1).describe(better)
    assert (blunder["ply"], blunder["move"], blunder["better"]) == (1, "d", str(better))
    assert blunder["words"] == (
        "Blunder: after it the solver, which knows the stock, finds no win (it dealt a row "
        f"while A♠ could go home). Better: {better} ({described})."
    )
    assert sorted(p for group in data["flag_groups"] for p in group) == [
        flag["ply"] for flag in data["flags"]
    ]
