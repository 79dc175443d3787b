"""Playing: the Python API, Restart and New game undone, the end of a game, the polish of issue 10.

`Browser` (tests/widget/simulate.py) plays the front end's part.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from milligan_widget import Game, IllegalMoveError
from milligan_widget.teaching.lessons import stage
from milligan_widget.widget import MilliganWidget, sentence
from tests.widget.simulate import (
    MAX_BYTES_PER_MOVE,
    Browser,
    LineSolver,
    _lesson_widget,
    _move,
    _some_line,
    _won_in_one,
    illegal_tableau_move,
    snapshot,
)


# ------------------------------------------------------------------ the Python API
def test_play_from_python_updates_the_view(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)
    widget.play(str(move))
    assert len(browser.sent) == 1
    assert widget.view["stats"]["moves"] == 1


def test_illegal_play_from_python_raises_and_shows_the_reason() -> None:
    widget = MilliganWidget(seed=5)
    move = illegal_tableau_move(widget.game)
    before = snapshot(widget.game)
    with pytest.raises(IllegalMoveError) as info:
        widget.play(move)
    assert snapshot(widget.game) == before
    assert widget.view["kind"] == "error" and widget.view["message"] == sentence(str(info.value))
    with pytest.raises(IllegalMoveError):
        widget.play("not a move at all")


def test_deal_undo_redo_goto_from_python() -> None:
    widget = MilliganWidget(seed=8)
    for _ in range(3):
        widget.deal()
    assert widget.view["stats"]["moves"] == 3
    widget.undo()
    assert widget.view["stats"]["moves"] == 2 and widget.view["can_redo"]
    widget.redo()
    widget.goto(1)
    assert widget.view["stats"]["stock"] == 88
    widget.goto(3)
    assert widget.view["stats"]["stock"] == 72
    widget.goto(1)
    rev = widget.view["rev"]
    for beyond in (9, -1, 1.5, True):  # refused before anything changes
        with pytest.raises(ValueError):
            widget.goto(beyond)
    assert widget.view["stats"]["moves"] == 1 == len(widget.game.history)
    assert widget.view["rev"] == rev and widget.game.can_redo


def test_replay_a_saved_game_steps_through_it(tmp_path) -> None:
    widget = MilliganWidget(seed=13)
    widget.deal()
    widget.deal()
    path = tmp_path / "game.json"
    widget.save(path)
    loaded = MilliganWidget.load(path)
    assert snapshot(loaded.game) == snapshot(widget.game)
    other = MilliganWidget(seed=99)
    browser = Browser(other)
    other.replay(path, delay=0)
    assert snapshot(other.game) == snapshot(widget.game)
    assert len(browser.sent) == 3  # the deal, then one update per move
    other.replay(["d"], delay=0)
    assert other.view["stats"]["moves"] == 3


@pytest.mark.parametrize(
    ("preset", "columns", "foundations", "reserve", "cells"),
    [
        ("classic", 8, 8, [], 0),
        ("millie", 8, 8, None, 0),
        ("little-milligan", 7, 4, None, 0),
        ("milligan-cell", 8, 8, None, 4),
    ],
)
def test_variants_show_their_own_parts(preset, columns, foundations, reserve, cells) -> None:
    widget = MilliganWidget(seed=4, rules=preset)
    view = widget.view
    assert len(view["columns"]) == columns and len(view["foundations"]) == foundations
    assert view["reserve"] == reserve and len(view["cells"]) == cells
    assert widget.rules_info["columns"] == columns and widget.rules_info["cells"] == cells


def test_bytes_per_move_stay_small() -> None:
    widget = MilliganWidget(seed=17)
    browser = Browser(widget)
    for _ in range(12):
        browser.request({"type": "deal"})
    sizes = [len(json.dumps(m)) for m in browser.sent]
    assert max(sizes) <= MAX_BYTES_PER_MOVE, sizes


# ------------------------------------------------------------------ restart and new game, undone
def _played(seed: int = 2024, count: int = 12, rules: str = "classic") -> MilliganWidget:
    """A widget on deal ``seed`` with ``count`` moves played (the first legal move each time),
    a comment on the second, and the last move undone (so there is one to redo)."""
    widget = MilliganWidget(seed=seed, rules=rules, hint_time=0)
    for _ in range(count + 1):
        widget.play(widget.game.legal_moves[0])
    widget.game.set_comment("a comment", 2)
    widget.undo()
    return widget


def _line_of_play(game: Game) -> tuple[Any, ...]:
    """The position, its history, the moves to redo and the comments."""
    return (*snapshot(game), tuple(str(m) for m in game.redo_moves), game.comments)


def test_undo_takes_back_a_restart_exactly() -> None:
    widget = _played(count=19)
    game, before = widget.game, _line_of_play(widget.game)
    played = len(game.history)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["moves"] == 0 and view["stats"]["stock"] == 96
    assert view["message"] == f"Restarted this deal. Undo goes back to move {played}."
    assert view["can_undo"] is True and view["can_redo"] is False
    assert widget.game.comments == {} and not widget.game.can_undo  # a fresh start
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["message"] == f"Undone: restart — back to move {played}."
    assert widget.game is game and _line_of_play(widget.game) == before
    assert view["stats"]["moves"] == played and view["can_redo"] is True
    widget.redo()  # its own redo list, as it was
    assert len(widget.game.history) == played + 1
    widget.restart()  # from Python too
    assert widget.undo() is None and widget.game is game
    assert len(game.history) == played + 1 and game.comments == {2: "a comment"}


def test_moves_after_a_restart_are_undone_first_then_the_restart() -> None:
    widget = _played(count=5)
    before = _line_of_play(widget.game)
    widget.restart()
    widget.deal()
    widget.deal()
    assert widget.view["can_undo"] is True
    widget.undo()
    widget.undo()
    assert widget.view["stats"]["moves"] == 0 and widget.view["can_undo"] is True
    assert widget.view["can_redo"] is True  # the restarted game's own redo
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: restart — back to move 5."


def test_restarts_are_undone_one_at_a_time_back_to_the_first() -> None:
    widget = _played(count=3)
    first = _line_of_play(widget.game)
    widget.restart()
    widget.deal()
    second = _line_of_play(widget.game)
    widget.restart()
    assert widget.undo() is None and _line_of_play(widget.game) == second
    widget.undo()  # the deal
    assert widget.undo() is None and _line_of_play(widget.game) == first


def test_a_restart_keeps_the_moves_to_redo_for_undo() -> None:
    widget = _played(count=3)
    widget.goto(0)
    before = _line_of_play(widget.game)
    widget.restart()
    assert widget.view["message"] == "Restarted this deal. Undo brings back the redo."
    assert widget.view["can_redo"] is False and widget.view["can_undo"] is True
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: restart — back to the start, with 4 moves to redo."


def test_a_restart_with_nothing_to_forget_is_not_an_undo_step() -> None:
    widget = MilliganWidget(seed=4)
    widget.restart()
    assert widget.view["message"] == "Restarted this deal." and widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()


def test_undo_takes_back_a_new_game_started_in_the_middle_of_one() -> None:
    widget = _played(count=12)
    game, before = widget.game, _line_of_play(widget.game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "new", "seed": "5", "rules": None}))
    assert widget.game.seed == 5 and view["stats"]["moves"] == 0
    assert view["message"] == "New game #5 (classic). Undo brings back the game you left."
    assert view["can_undo"] is True
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["message"] == "Undone: new game — back to deal #2024 after 12 moves."
    assert widget.game is game and _line_of_play(game) == before and view["seed"] == 2024
    view = browser.updated_view(browser.request({"type": "undo"}))  # its own undo history
    assert view["stats"]["moves"] == 11 and view["message"].startswith("Undone: ")


def test_a_new_game_in_another_variant_is_undone_with_its_rules() -> None:
    widget = _played(count=4)
    widget.new_game(5, "little-milligan")
    assert widget.rules_info["name"] == "little-milligan" and widget.view["can_undo"]
    browser = Browser(widget)
    (message,) = browser.request({"type": "undo"})
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.rules_info["name"] == "classic" and len(widget.view["columns"]) == 8


def test_a_new_game_comes_back_only_from_its_start() -> None:
    widget = _played(count=3)
    before = _line_of_play(widget.game)
    widget.new_game(5)
    widget.deal()
    assert widget.undo() is not None  # the deal first
    assert widget.undo() is None and _line_of_play(widget.game) == before


def test_each_new_game_is_undone_in_turn_untouched_deals_too() -> None:
    """A deal that had no moves is not skipped: one Undo takes back one New game."""
    widget = _played(count=3)
    before = _line_of_play(widget.game)
    widget.new_game(6)
    widget.new_game(7)  # #6 was never touched
    widget.restart()  # nothing to restart: not a step
    assert widget.undo() is None and widget.game.seed == 6 and widget.game.ply == 0
    assert widget.view["message"] == "Undone: new game — back to deal #6 at its start."
    assert widget.view["can_undo"] is True
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: new game — back to deal #2024 after 3 moves."


def test_a_new_game_from_a_fresh_widget_is_undone_to_its_deal() -> None:
    widget = MilliganWidget(seed=3)
    widget.new_game(5)
    assert widget.view["message"] == "New game #5 (classic). Undo brings back the game you left."
    assert widget.undo() is None and widget.game.seed == 3
    assert widget.view["can_undo"] is False


def test_a_new_game_after_a_won_game_cannot_be_undone() -> None:
    widget = MilliganWidget(game=_won_in_one()[0])
    widget.play(_won_in_one()[1])
    assert widget.game.status == "won"
    widget.new_game(5)
    assert widget.view["message"] == "New game #5 (classic). Good luck!"
    assert widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()
    assert widget.view["message"] == "Nothing to undo." and widget.game.seed == 5


def test_at_most_the_last_20_restarts_are_kept() -> None:
    from milligan_widget.widget import MAX_SET_ASIDE

    widget = MilliganWidget(seed=4, hint_time=0)
    for _ in range(MAX_SET_ASIDE + 5):
        widget.deal()
        widget.restart()
    undone = 0
    with pytest.raises(IllegalMoveError):
        while True:
            widget.undo()
            undone += 1
    assert MAX_SET_ASIDE == 20 and undone == 2 * MAX_SET_ASIDE  # each restart, then its deal


@pytest.mark.parametrize(
    "replace",
    [
        lambda widget: setattr(widget, "game", Game.new(3)),
        lambda widget: (widget.show_replay(), widget.stop_replay()),
        lambda widget: widget.replay(Game.new(3), delay=0),
    ],
    ids=["assigned game", "replay viewer", "animated replay"],
)
def test_undo_does_not_go_back_past_a_game_shown_otherwise(replace) -> None:
    widget = _played(count=3)
    widget.restart()
    replace(widget)
    while widget.game.can_undo:
        widget.undo()
    assert widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()


def test_a_restart_in_a_lesson_restarts_the_step_and_is_not_undone() -> None:
    _, browser = _lesson_widget()
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["message"] == "Step restarted." and view["can_undo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["kind"] == "error" and view["message"] == "Nothing to undo in this step."


def test_a_win_remembered_before_a_restart_still_answers_after_it(monkeypatch) -> None:
    widget = MilliganWidget(seed=8, peek=True)  # the solver's hints: they remember its wins
    fake = LineSolver(monkeypatch, _some_line(widget.game))
    widget.hint()  # the solver's win from the deal
    widget.play(fake.line[0])
    widget.restart()
    assert widget.hint()[0] == fake.line[0] and fake.calls == [()]  # from memory
    widget.undo()  # back to the game restarted: its line too
    assert widget.hint()[0] == fake.line[1] and fake.calls == [()]


# ------------------------------------------------------------------ the end of a game
def test_the_winning_move_shows_won_with_the_time() -> None:
    queens = ["QC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]  # one King still to go home
    game = Game.from_layout(tableau=[["KC"]] + [[]] * 7, foundations=queens)
    widget = MilliganWidget(game=game)
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": "t1", "target": "f", "count": 1})
    )
    assert view["status"] == "won" and view["kind"] == "won"
    assert view["stats"]["foundations"] == 104 and isinstance(view["elapsed"], float)


def test_assigning_a_game_shows_it() -> None:
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    widget.game = Game.new(5, rules="little-milligan")
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert len(widget.view["columns"]) == 7 and widget.view["seed"] == 5


def test_a_lost_position_says_no_useful_move_is_left() -> None:
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
    clubs = [f"{rank}C" for rank in ranks for _ in range(2)]
    columns = [["AC", "2C"], ["AC", "2C"], *[[]] * 5, clubs]  # nothing can move
    foundations = [None, None, "KS", "KS", "KH", "KH", "KD", "KD"]
    widget = MilliganWidget(game=Game.from_layout(columns, foundations, rules="millie"))
    view = widget.view
    assert view["status"] == "lost" and view["kind"] == "lost"
    assert "No useful move is left" in view["message"]
    assert view["can_deal"] is False and view["targets"] == {}


def _harp(last_column: str, face_down: list[int]) -> Game:
    """A Milligan Harp position with nothing left to deal: the Q♠ of column 7 can move onto
    the K♥s (and the K♦ of ``last_column``), and the other face-down cards lie under Kings
    with no empty column to take them."""
    tableau = ["QC KH", "QC KH", "QH KC", "QH KC", "QD KS", "QD KS", "JS KD QS", last_column]
    return stage(tableau, rules="milligan-harp", rest_in_stock=False, face_down=face_down)


def test_a_game_whose_face_down_cards_can_never_come_up_says_it_is_lost() -> None:
    widget = MilliganWidget(game=_harp("QS JS KD", [1] * 7 + [2]))
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": "t7", "target": "t8", "count": 1})
    )
    assert view["status"] == "playing"  # the moves go on, and no card will ever come up
    assert view["message"].endswith(
        "No face-down card can come up any more: this game can no longer be won."
    )
    assert view["kind"] == "info" and view["stats"]["moves"] == 1


def test_a_game_with_a_face_down_card_that_can_still_come_up_says_nothing_of_it() -> None:
    widget = MilliganWidget(game=_harp("QS JS KD JH", [1] * 7 + [3]))  # J♥ on a Q♠ turns K♦
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": "t7", "target": "t1", "count": 1})
    )
    assert view["status"] == "playing" and view["stats"]["moves"] == 1
    assert "face-down" not in view["message"]


# ------------------------------------------------------------------ play polish (issue 10)
def test_a_bad_deal_number_is_refused_in_a_players_words() -> None:
    widget = MilliganWidget(seed=4)
    before = snapshot(widget.game)
    view = Browser.updated_view(Browser(widget).request({"type": "new", "seed": "12abc"}))
    assert view["kind"] == "error"
    assert view["message"].startswith("“12abc” is not a deal number: type a whole number")
    assert "Request refused" not in view["message"]
    assert snapshot(widget.game) == before and widget.game.seed == 4


def test_the_theme_setting_takes_three_values() -> None:
    widget = MilliganWidget(seed=1, theme="dark")
    assert widget.theme == "dark"
    Browser(widget).set_trait(theme="light")
    assert widget.theme == "light"
    with pytest.raises(Exception, match="theme"):
        widget.theme = "purple"
    assert widget.theme == "light"


def test_a_click_on_a_lessons_progress_goes_to_that_step() -> None:
    from milligan_widget.teaching.tutorial import learn_the_rules

    widget = MilliganWidget(lesson=learn_the_rules())
    browser = Browser(widget)
    view = Browser.updated_view(browser.request({"type": "goto_step", "index": 3}))
    assert widget.lesson_run.index == 3 and view["lesson"]["index"] == 3
    steps = len(widget.lesson_run.lesson.steps)
    for bad in (-1, steps, "2", 1.0, True, None):
        view = Browser.updated_view(browser.request({"type": "goto_step", "index": bad}))
        assert view["kind"] == "error" and widget.lesson_run.index == 3
    widget.stop_lesson()
    view = Browser.updated_view(browser.request({"type": "goto_step", "index": 1}))
    assert view["kind"] == "error" and widget.mode == "play"


def test_the_replay_panel_says_why_its_cards_do_not_move() -> None:
    game = Game.new(8)
    game.play("d")
    widget = MilliganWidget(game=game, replay_viewer=True)
    refusal = widget.panel["refusal"]
    assert "replay" in refusal and "Play from here" in refusal
    view = Browser.updated_view(
        Browser(widget).request({"type": "move", "source": "t1", "target": "t2", "count": 1})
    )
    assert view["kind"] == "error" and view["message"] == refusal


def test_the_move_that_loses_and_the_loss_are_said_in_two_sentences() -> None:
    from tests.test_judge import jacks

    widget = MilliganWidget(game=jacks(), stats=False, autosave=False)
    widget.play("d")  # buries the Jacks on every stock: no move is left
    assert widget.view["message"] == "Deal a row of 8 cards. No useful move is left."
