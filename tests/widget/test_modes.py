"""The lesson and the replay viewer.

`Browser` (tests/widget/simulate.py) plays the front end's part.
"""

from __future__ import annotations

import pytest

from milligan_widget import Game, IllegalMoveError, Move
from milligan_widget.widget import MilliganWidget
from tests.widget.simulate import (
    Browser,
    _commented_game,
    _lesson_widget,
    _move,
    _won_in_one,
    snapshot,
)


# ------------------------------------------------------------------ lesson mode
def test_a_lesson_shows_its_step_and_panel() -> None:
    widget, _ = _lesson_widget()
    run = widget.lesson_run
    assert widget.mode == "lesson" and widget.game is run.game
    assert widget.panel["mode"] == "lesson" and len(widget.panel["steps"]) == 16
    view = widget.view
    assert view["mode"] == "lesson" and view["lesson"] == run.summary()
    assert view["columns"] == [[str(c) for c in col] for col in run.game.tableau]
    assert view["lesson"]["title"] == "The deal" and view["lesson"]["step_done"] is False


def test_a_right_drop_in_a_lesson_is_played_and_finishes_the_step() -> None:
    widget, browser = _lesson_widget()
    played: list[Move] = []
    widget.on_move(played.append)
    view = browser.updated_view(browser.request(_move("t1", "f1")))
    assert view["kind"] == "correct" and view["message"].startswith("Right: A♣")
    assert view["last"]["source"] == "t1" and view["stats"]["foundations"] == 1
    assert view["lesson"]["moves_done"] == 1 and not view["lesson"]["step_done"]
    view = browser.updated_view(browser.request(_move("t2", "f")))
    assert view["kind"] == "done" and view["lesson"]["step_done"] is True
    assert widget.lesson_run.step_done and [str(m) for m in played] == ["1>f1", "2>f"]
    view = browser.updated_view(browser.request({"type": "next"}))
    assert view["lesson"]["index"] == 1 and view["lesson"]["title"] == "An Ace starts a foundation"
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]


@pytest.mark.parametrize(
    ("request_", "kind"),
    [
        ({"type": "deal"}, "wrong"),  # legal, but not the task
        (_move("t2", "f"), "illegal"),  # the 2♣ before the A♣
        (_move("t1", "t2"), "illegal"),
    ],
)
def test_a_wrong_or_illegal_drop_in_a_lesson_changes_nothing(request_, kind) -> None:
    widget, browser = _lesson_widget()
    before = snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == kind and view["message"] and view["last"] is None
    assert snapshot(widget.game) == before and not widget.lesson_run.step_done
    assert view["lesson"]["moves_done"] == 0


def test_a_listed_mistake_is_explained() -> None:
    widget, browser = _lesson_widget(start=10)  # "Mistake: building by suit"
    view = browser.updated_view(browser.request(_move("t3", "t1")))
    assert view["kind"] == "illegal" and "Same suit does not help" in view["message"]
    view = browser.updated_view(browser.request(_move("t3", "t2")))
    assert view["kind"] == "done" and widget.lesson_run.step_done


@pytest.mark.parametrize(
    "request_",
    [
        {"type": "redo"},
        {"type": "auto"},
        {"type": "new", "seed": 4},
        {"type": "seek", "ply": 1},
        {"type": "next"},  # the step is not done yet
        _move("t1", "t99"),
        _move("t1", "reserve", 0),
        {"type": "move", "source": "f", "target": "t1", "count": 1},
        {"type": "fly"},
    ],
)
def test_requests_that_make_no_sense_in_a_lesson_are_refused(request_) -> None:
    widget, browser = _lesson_widget()
    game, before = widget.game, snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and view["message"]
    assert widget.mode == "lesson" and widget.game is game and snapshot(game) == before
    assert view["lesson"]["index"] == 0


def test_lesson_hint_undo_restart_previous_and_close() -> None:
    from milligan_widget.teaching.lessons import LessonRun
    from milligan_widget.teaching.tutorial import learn_the_rules

    widget = MilliganWidget(seed=3)
    game_before = widget.game
    widget.start_lesson(LessonRun(learn_the_rules()))
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "hint"}))
    assert view["kind"] == "hint" and view["hint"]["source"] == "t1"
    assert "A♣" in view["message"]
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["stats"]["foundations"] == 0 and view["lesson"]["moves_done"] == 0
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["foundations"] == 0 and view["message"] == "Step restarted."
    view = browser.updated_view(browser.request({"type": "previous"}))
    assert view["kind"] == "info" and view["lesson"]["index"] == 0
    (message,) = browser.request({"type": "close"})
    assert set(message["state"]) == {"view", "panel"}
    assert widget.mode == "play" and widget.game is game_before
    assert widget.panel == {"mode": "play"} and "lesson" not in widget.view


def test_a_step_in_another_variant_resends_the_rules() -> None:
    from milligan_widget.teaching.tutorial import variants_tour

    widget = MilliganWidget(seed=3)
    browser = Browser(widget)
    widget.start_lesson(variants_tour(), start=2)  # single-card: same piles as classic
    assert widget.rules_info["name"] == "single-card"
    browser.sent.clear()
    widget.goto_step(3)  # Milligan Cell: four free cells, no reserve
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.rules_info["cells"] == 4 and widget.view["reserve"] is None
    assert len(widget.view["cells"]) == 4


def test_lesson_from_python_play_raises_on_a_wrong_move() -> None:
    widget, _ = _lesson_widget()
    with pytest.raises(IllegalMoveError):
        widget.play("2>f")
    assert widget.view["kind"] == "illegal"
    assert str(widget.play("1>f")) == "1>f"
    feedback = widget.attempt("2>f")
    assert feedback.step_done and widget.view["kind"] == "done"
    assert widget.next_step() and widget.lesson_run.index == 1


# ------------------------------------------------------------------ replay viewer
def test_replay_viewer_lists_the_moves_in_words_with_comments(tmp_path) -> None:
    saved = _commented_game()
    path = tmp_path / "game.json"
    saved.save(path)
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    widget.show_replay(path)
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "panel"}  # same rules: no rules_info
    moves = widget.panel["moves"]
    assert widget.mode == "replay" and len(moves) == 10
    assert moves[1] == {"text": "A♥ from column 7 to the hearts foundation (5)",
                        "comment": "the A♥ goes home at once"}  # fmt: skip
    assert moves[0]["comment"] is None
    view = widget.view
    assert view["replay"] == {"ply": 0, "count": 10} and view["targets"] == {}
    assert view["stats"]["stock"] == 96


def test_replay_viewer_steps_both_ways_with_one_update_each() -> None:
    saved = _commented_game()
    widget = MilliganWidget(game=saved.copy(), replay_viewer=True)
    browser = Browser(widget)
    positions = [position for _, position in saved.replay()]
    for ply in [1, 2, 3, 10, 9, 0, 5]:
        view = browser.updated_view(browser.request({"type": "seek", "ply": ply}))
        assert view["replay"]["ply"] == ply and len(widget.game.history) == ply
        assert view["columns"] == [[str(c) for c in col] for col in positions[ply].tableau]
    view = browser.updated_view(browser.request({"type": "seek", "ply": 2}))
    assert view["message"].endswith("— the A♥ goes home at once")
    widget.step_to(3)
    assert widget.view["last"]["source"] == "t7"  # one step on: the move is animated
    assert widget.game.comments == saved.comments


@pytest.mark.parametrize(
    "request_",
    [
        {"type": "seek", "ply": -1},
        {"type": "seek", "ply": 11},
        {"type": "seek", "ply": "3"},
        {"type": "seek", "ply": True},
        {"type": "seek"},
        {"type": "deal"},
        {"type": "undo"},
        {"type": "hint"},
        {"type": "next"},
        _move("t1", "t2"),
    ],
)
def test_replay_viewer_refuses_moves_and_bad_seeks(request_) -> None:
    widget = MilliganWidget(game=_commented_game(), replay_viewer=True)
    widget.step_to(4)
    browser = Browser(widget)
    before = snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and view["message"]
    assert snapshot(widget.game) == before and view["replay"]["ply"] == 4


def test_closing_the_replay_plays_on_from_the_position_shown() -> None:
    widget = MilliganWidget(game=_commented_game(), replay_viewer=True)
    widget.step_to(6)
    browser = Browser(widget)
    browser.request({"type": "close"})
    assert widget.mode == "play" and widget.panel == {"mode": "play"}
    assert len(widget.game.history) == 6 and widget.game.can_redo
    widget.redo()
    assert widget.game.comments == _commented_game().comments  # the line is kept for redo


def test_replay_stepping_is_instant() -> None:
    import time

    from tests.lines import WIN_8

    game = Game.new(8)
    for move in WIN_8.split():
        game.play(move)
    widget = MilliganWidget(game=game, replay_viewer=True)
    count = len(game.history)
    start = time.perf_counter()
    for ply in [*range(count + 1), *range(count, -1, -1), count, 0]:
        widget.step_to(ply)
    per_step = (time.perf_counter() - start) / (2 * count + 4)
    assert per_step < 0.01, f"{per_step * 1000:.1f} ms per step"
    assert widget.view["replay"] == {"ply": 0, "count": count}


def test_the_animated_replay_keeps_the_comments(tmp_path) -> None:
    saved = _commented_game()
    path = tmp_path / "game.json"
    saved.save(path)
    widget = MilliganWidget(seed=99)
    widget.replay(path, delay=0)
    assert widget.game.comments == saved.comments
    assert [str(m) for m in widget.game.history] == [str(m) for m in saved.history]
    assert widget.view["message"].endswith("— a second row")
    widget.save(tmp_path / "again.json")
    assert Game.load(tmp_path / "again.json").comments == saved.comments


def test_the_view_says_which_toolbar_actions_do_something_in_each_mode() -> None:
    widget = MilliganWidget(seed=8)
    assert widget.view["actions"] == [
        "new", "deal", "hint", "auto", "solution", "save", "files", "stats", "winnable", "peek",
        "coach",
    ]  # fmt: skip
    widget.play("d")
    assert {"undo", "restart"} <= set(widget.view["actions"])
    widget.undo()
    assert "redo" in widget.view["actions"]
    widget.show_replay()
    assert widget.view["actions"] == ["stats", "peek"]  # a replay is watched
    lesson, _ = _lesson_widget()
    assert set(lesson.view["actions"]) <= {"undo", "deal", "restart", "hint", "stats", "peek"}
    assert "hint" in lesson.view["actions"] and "new" not in lesson.view["actions"]


def test_a_won_game_offers_no_hint_auto_or_solution() -> None:
    """Once every card is home, Auto (like Hint and the solution) has nothing to do."""
    game, last = _won_in_one()
    widget = MilliganWidget(game=game)
    assert "auto" in widget.view["actions"]
    widget.play(last)
    assert widget.game.status == "won"
    assert not {"auto", "hint", "solution"} & set(widget.view["actions"])
    assert {"new", "undo", "stats"} <= set(widget.view["actions"])
