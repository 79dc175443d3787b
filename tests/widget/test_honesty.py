"""Fair play shows nothing derived from the hidden cards: two deals that differ only in the
order of the stock's undealt cards give byte for byte the same widget state (view, analysis,
panel) through a series of honest hints and chance updates."""

from __future__ import annotations

import json
import random

import pytest

from milligan_widget import Game
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant import HonestBudget

# A seed and a node limit make every honest answer the same run after run; the time limits
# are far above what those nodes take, so that a busy machine changes nothing.
HONEST = HonestBudget(samples=4, node_limit=3_000, seed=11)
ROUNDS = 4  # honest hints followed, in both widgets


def twins() -> tuple[Game, Game]:
    """Deal 8, and deal 8 with the last two cards of its stock swapped (they come out only
    with the last row): the same position in sight until that row is dealt."""
    game = Game.new(8)
    deck = list(game.deck)
    other = [*deck[:-2], deck[-1], deck[-2]]
    assert other != deck
    return Game.from_deck(deck, game.rules), Game.from_deck(other, game.rules)


def state(widget: MilliganWidget) -> str:
    """Everything the browser is sent, as JSON bytes."""
    return json.dumps(
        {"view": widget.view, "analysis": widget.analysis, "panel": widget.panel},
        sort_keys=True,
        ensure_ascii=False,
    )


def widget_for(game: Game) -> MilliganWidget:
    return MilliganWidget(game=game, stats=False, autosave=False, honest=HONEST,
                          hint_time=60, winnable_time=60, check_winnable=True)  # fmt: skip


def test_two_stocks_that_look_the_same_get_the_same_honest_help() -> None:
    games = twins()
    assert games[0].exact_key() != games[1].exact_key()  # they are different deals
    widgets = [widget_for(game) for game in games]
    for widget in widgets:
        assert widget.wait(60)
    assert state(widgets[0]) == state(widgets[1])
    assert widgets[0].analysis["state"] == "chance"
    for _ in range(ROUNDS):
        answers = [widget.hint() for widget in widgets]
        assert answers[0] == answers[1] and answers[0] is not None
        assert state(widgets[0]) == state(widgets[1])
        for widget in widgets:
            widget.play(answers[0][0])
            assert widget.wait(60)
        assert state(widgets[0]) == state(widgets[1])
        assert "sampled stocks win" in widgets[0].analysis["why"]
        assert "for careful play" in widgets[0].analysis["why"]  # the calibrated chance
    assert widgets[0].game.stock_count > 0  # the swapped cards are still unseen
    for widget in widgets:
        widget.close()


def test_with_peek_on_the_two_stocks_are_told_apart() -> None:
    """The control: the all-seeing solver does read the stock (so the test above could fail)."""
    games = twins()
    widgets = [widget_for(game) for game in games]
    for widget in widgets:
        widget.peek = True
        widget.winnable_time = 30
        assert widget.wait(60)
    lines = [widget.known_win for widget in widgets]
    assert lines[0] is not None and lines[0] != lines[1]
    for widget in widgets:
        widget.close()


def face_down_twins() -> tuple[Game, Game]:
    """Two Milligan Harp games that look the same (the same face-up cards, as many face down,
    as many in the stock) with their unseen cards in different places."""
    from milligan_widget.analysis import determinize, visible_view

    view = visible_view(Game.new(8, "milligan-harp"))
    games = determinize(view, random.Random(1)), determinize(view, random.Random(2))
    assert visible_view(games[0]) == visible_view(games[1])
    assert games[0].exact_key() != games[1].exact_key()
    return games


@pytest.mark.parametrize("hint_time", [0, 60], ids=["heuristic", "honest hint"])
def test_face_down_cards_that_differ_change_nothing_shown(hint_time: float) -> None:
    widgets = [widget_for(game) for game in face_down_twins()]
    for widget in widgets:
        widget.hint_time = hint_time
        assert widget.wait(60)
    assert state(widgets[0]) == state(widgets[1])
    for _ in range(ROUNDS):
        answers = [widget.hint() for widget in widgets]
        assert answers[0] == answers[1] and answers[0] is not None
        assert state(widgets[0]) == state(widgets[1])
        down = sum(widgets[0].game.face_down)
        for widget in widgets:
            widget.play(answers[0][0])
            assert widget.wait(60)
        if sum(widgets[0].game.face_down) < down or answers[0][0].is_deal:
            break  # a card came to light: from here the two look different, as they should
        assert state(widgets[0]) == state(widgets[1])
    for widget in widgets:
        widget.close()
