"""Requests from the front end: parsed and checked in one place, refused in a player's words.

`Browser` (tests/widget/simulate.py) plays the front end's part.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from milligan_widget import Game, Move, strategy
from milligan_widget.widget import MilliganWidget, sentence
from tests.widget.simulate import (
    MAX_BYTES_PER_MOVE,
    Browser,
    _move,
    first_legal,
    illegal_tableau_move,
    snapshot,
)


# ------------------------------------------------------------------ requests from the browser
def test_a_legal_drop_is_played_with_one_update_back(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)
    played: list[Move] = []
    widget.on_move(played.append)
    sent = browser.request(
        {"type": "move", "source": move.source, "target": move.target, "count": move.count or 1}
    )
    view = browser.updated_view(sent)
    assert [str(m) for m in widget.game.history] == [str(move)]
    assert played and str(played[0]) == str(move)
    assert view["stats"]["moves"] == 1
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]
    assert view["kind"] == "info" and view["message"]
    assert view["last"]["source"] == move.source and move.target in view["last"]["targets"]
    assert len(json.dumps(sent[0])) <= MAX_BYTES_PER_MOVE


def test_an_illegal_drop_is_refused_with_the_reason_and_nothing_changes() -> None:
    widget = MilliganWidget(seed=5)
    move = illegal_tableau_move(widget.game)
    before = snapshot(widget.game)
    reason = widget.game.explain(move)
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": move.source, "target": move.target, "count": 1})
    )
    assert snapshot(widget.game) == before
    assert view["kind"] == "error"
    assert reason and view["message"] == sentence(reason)


@pytest.mark.parametrize(
    "request_",
    [
        None,
        "3>5",
        [1, 2],
        {},
        {"type": "fly"},
        {"type": "move"},
        {"type": "move", "source": "t1"},
        {"type": "move", "source": "t1", "target": "t99", "count": 1},
        {"type": "move", "source": "x1", "target": "t2", "count": 1},
        {"type": "move", "source": "t1", "target": "t2", "count": "1"},
        {"type": "move", "source": "t1", "target": "t2", "count": True},
        {"type": "move", "source": "t1", "target": "t2", "count": 0},
        {"type": "move", "source": "t1", "target": "t2", "count": 10**9},
        {"type": "move", "source": "t1", "target": "t1", "count": 1},
        {"type": "move", "source": "stock", "target": "t1", "count": 1},
        {"type": "move", "source": "t1" * 1000, "target": "t2", "count": 1},
        {"type": "move", "source": 3, "target": 5, "count": 1},
        {"type": "new", "seed": -4, "rules": "classic"},
        {"type": "new", "seed": 0},
        {"type": "new", "seed": 10**20},
        {"type": "new", "seed": "12abc"},
        {"type": "new", "seed": 1.5},
        {"type": "new", "seed": 3, "rules": "poker"},
        {"type": "new", "seed": 3, "rules": ["classic"]},
    ],
)
def test_malformed_requests_are_refused_and_change_nothing(request_: Any) -> None:
    widget = MilliganWidget(seed=9)
    game = widget.game
    before = snapshot(game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(request_))
    assert widget.game is game and snapshot(game) == before
    assert view["kind"] == "error" and view["message"]
    assert view["columns"] == [[str(c) for c in col] for col in game.tableau]


@pytest.mark.parametrize(
    ("preset", "source", "target", "words"),
    [
        ("classic", "t3", "stock", "Cards cannot go back to the stock."),
        ("classic", "reserve", "stock", "Cards cannot go back to the stock."),
        ("little-milligan", "t8", "t1", "There is no column 8: this game has 7 columns."),
        ("little-milligan", "t1", "t8", "There is no column 8: this game has 7 columns."),
        ("little-milligan", "t1", "f5", "There is no foundation 5: this game has 4 foundations."),
        ("classic", "t1", "f9", "There is no foundation 9: this game has 8 foundations."),
        ("classic", "t1", "c1", "This game has no free cells."),
        ("classic", "t1", "c", "This game has no free cells."),
        ("classic", "c2", "t1", "This game has no free cells."),
        ("milligan-cell", "t1", "c5", "There is no free cell 5: this game has 4 free cells."),
        ("millie", "t1", "reserve", "This game has no reserve."),
        ("millie", "reserve", "t1", "This game has no reserve."),
        ("milligan-cell", "t1", "reserve", "This game has no reserve."),
    ],
)
def test_a_drop_on_a_pile_the_game_does_not_have_is_refused_in_a_players_words(
    preset, source, target, words
) -> None:
    """Every pile name the front end can send: the stock, and the piles of another variant
    (a page not yet redrawn)."""
    widget = MilliganWidget(seed=9, rules=preset)
    before = snapshot(widget.game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(_move(source, target)))
    assert (view["kind"], view["message"]) == ("error", words)
    assert snapshot(widget.game) == before


@pytest.mark.parametrize(
    ("source", "target"),
    [("f", "t1"), ("c", "t1"), ("stock", "t1"), ("x1", "t2"), ("t1", "col3"), ("t0", "t1")],
)
def test_pile_names_our_front_end_never_sends_are_malformed(source, target) -> None:
    widget = MilliganWidget(seed=9)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(_move(source, target)))
    assert view["kind"] == "error" and view["message"].startswith("Request refused: ")


def test_every_refusal_of_a_drop_is_in_a_players_words() -> None:
    """Drops from every pile onto every pile the front end shows, in a few variants and
    positions: a refusal names no internal pile ("t3", "f", "stock") and is never a
    "Request refused"."""
    internal = re.compile(r"'\w+'|\b[tfc]\d+\b|Request refused")
    for preset in ("classic", "little-milligan", "milligan-cell", "millie"):
        game = Game.new(9, preset)
        for _ in range(3):
            game.deal()
        widget = MilliganWidget(game=game, hint_time=0)
        browser = Browser(widget)
        sources = [*_shown_piles(widget), "stock"]
        for source in sources[:-1]:
            for target in sources:
                if source == target:
                    continue
                view = browser.updated_view(browser.request(_move(source, target)))
                if view["kind"] == "error":
                    assert not internal.search(view["message"]), (preset, source, target)
                    assert not view["message"][:1].islower(), view["message"]
                elif widget.game.can_undo:
                    widget.undo()


def _shown_piles(widget: MilliganWidget) -> list[str]:
    """The piles the front end draws for the game on show (as board.ts names them)."""
    view = widget.view
    piles = [f"t{i + 1}" for i in range(len(view["columns"]))]
    piles += [f"f{i + 1}" for i in range(len(view["foundations"]))]
    piles += [f"c{i + 1}" for i in range(len(view["cells"]))]
    return piles + (["reserve"] if view["reserve"] is not None else [])


def test_a_failing_move_callback_does_not_hide_the_move(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)

    def broken(_move: Move) -> None:
        raise RuntimeError("boom")

    widget.on_move(broken)
    sent = browser.request(
        {"type": "move", "source": move.source, "target": move.target, "count": move.count or 1}
    )
    assert len(widget.game.history) == 1
    assert sent[0]["state"]["view"]["stats"]["moves"] == 1
    assert "boom" in widget.view["message"]
    widget.on_move(broken, remove=True)


def test_refusals_are_sent_even_when_the_message_repeats() -> None:
    widget = MilliganWidget(seed=9)
    browser = Browser(widget)
    first = browser.updated_view(browser.request({"type": "fly"}))
    second = browser.updated_view(browser.request({"type": "fly"}))
    assert second["rev"] > first["rev"] and second["message"] == first["message"]


def test_deal_undo_redo_restart_requests() -> None:
    widget = MilliganWidget(seed=21)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "deal"}))
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    assert view["stats"]["tableau"] == 16 and view["last"]["source"] == "stock"
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["stats"]["stock"] == 96 and view["can_redo"] is True
    view = browser.updated_view(browser.request({"type": "redo"}))
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["stock"] == 96 and view["stats"]["moves"] == 0
    assert view["can_undo"] is True and view["can_redo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))  # the restart
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    view = browser.updated_view(browser.request({"type": "undo"}))  # the deal
    assert view["stats"]["stock"] == 96 and view["can_undo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["kind"] == "error" and view["message"] == "Nothing to undo."


def test_hint_highlights_a_move_and_says_why() -> None:
    widget = MilliganWidget(seed=2, hint_time=0)  # the greedy heuristic alone, at once
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "hint"}))
    move, why = strategy.hint(widget.game)
    assert view["kind"] == "hint" and why in view["message"]
    assert view["message"].startswith("Heuristic: ")
    assert view["hint"]["text"] == str(move)
    assert snapshot(widget.game)[-1] == ()


def test_double_click_sends_to_any_fitting_foundation() -> None:
    widget = _widget_with_foundation_move()
    move = first_legal(widget.game, lambda m: (m.target or "").startswith("f"))
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": move.source, "target": "f", "count": 1})
    )
    assert view["kind"] != "error", view["message"]
    assert view["stats"]["foundations"] == 1


def _widget_with_foundation_move() -> MilliganWidget:
    for seed in range(1, 500):
        widget = MilliganWidget(seed=seed)
        if first_legal(widget.game, lambda m: (m.target or "").startswith("f")):
            return widget
    raise AssertionError("no opening with an ace in 1..499")


def test_new_game_request_with_number_and_preset() -> None:
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    sent = browser.request({"type": "new", "seed": "123456789012345678", "rules": "millie"})
    (message,) = sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.game.seed == 123456789012345678
    assert widget.view["reserve"] is None and widget.rules_info["name"] == "millie"
    browser.request({"type": "new", "seed": None, "rules": None})
    assert widget.game.rules.name == "millie" and widget.game.seed is not None


def test_four_colour_setting_from_the_browser() -> None:
    widget = MilliganWidget(seed=1)
    Browser(widget).set_trait(four_colour=True)
    assert widget.four_colour is True
