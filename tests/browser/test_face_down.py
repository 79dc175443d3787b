"""Milligan Harp and Yukon in the browser: face-down cards are card backs with no card in
the page, a Yukon group is dragged from any face-up card, and a card turns up in place."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import expect

from .conftest import Notebook
from .gestures import drag, settle
from .test_browser import fresh_game

SHOWN = "[str(c) for col, d in zip(widget.game.tableau, widget.game.face_down) for c in col[d:]]"
DOWN = "list(widget.game.face_down)"
HELPERS = """
def _up(game, i):
    return len(game.tableau[i]) - game.face_down[i]

def _uncovering():  # a move that takes every face-up card off cards face down
    game = widget.game
    return [(m.source, m.target) for m in game.legal_moves
            if m.source.startswith('t') and m.target.startswith('t')
            and game.face_down[int(m.source[1:]) - 1]
            and _up(game, int(m.source[1:]) - 1) == (m.count or 1)][:1]

def _group():  # a Yukon move of several face-up cards
    return [(m.source, m.target, m.count) for m in widget.game.legal_moves
            if m.source.startswith('t') and m.target.startswith('t') and (m.count or 1) > 1][:1]
"""


def _find(nb: Notebook, helper: str) -> list:
    """Deal until ``helper()`` finds a move (at most nine rows)."""
    nb.kernel.run(HELPERS)
    for _ in range(9):
        found = nb.kernel.eval(f"{helper}()")
        if found:
            return found
        nb.kernel.run("widget.deal()")
    raise AssertionError(f"{helper} found no move in the first deals")


def _dom_cards(nb: Notebook) -> Counter:
    codes = nb.widget.locator(".mw-tableau [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    return Counter(codes)


def test_face_down_cards_are_backs_and_never_in_the_page(notebook: Notebook) -> None:
    fresh_game(notebook, seed=1, rules="milligan-harp")
    down = notebook.kernel.eval(DOWN)
    assert down == [0, 1, 2, 3, 4, 5, 6, 7]
    for i, count in enumerate(down, 1):
        backs = notebook.pile(f"t{i}").locator(".mw-down")
        expect(backs).to_have_count(count)
        if count:
            expect(backs.first).to_have_attribute("aria-label", "face-down card")
    # The page holds exactly the face-up cards, as Python has them: nothing of the others.
    assert _dom_cards(notebook) == Counter(notebook.kernel.eval(SHOWN))
    expect(notebook.pile("t8")).to_have_attribute("aria-label", "column 8, 1 cards, 7 face down")
    notebook.screenshot("milligan-harp.png")


def test_a_card_turns_up_when_the_last_card_on_it_leaves(notebook: Notebook) -> None:
    fresh_game(notebook, seed=1, rules="milligan-yukon")
    ((source, target),) = _find(notebook, "_uncovering")
    column = int(source[1:])
    before = notebook.kernel.eval(DOWN)[column - 1]
    settle(notebook.page, notebook.widget)
    cards = notebook.pile(source).locator("[data-card]")
    drag(notebook.page, cards.nth(0), notebook.pile(target))
    expect(notebook.pile(source).locator(".mw-down")).to_have_count(before - 1)
    assert notebook.kernel.eval(DOWN)[column - 1] == before - 1
    turned = notebook.kernel.eval(f"str(widget.game.tableau[{column - 1}][-1])")
    expect(notebook.pile(source).locator("[data-card]")).to_have_count(1)
    expect(notebook.pile(source).locator("[data-card]").first).to_have_attribute(
        "data-card", turned
    )
    assert _dom_cards(notebook) == Counter(notebook.kernel.eval(SHOWN))


def test_a_yukon_group_is_dragged_from_a_card_inside_it(notebook: Notebook) -> None:
    fresh_game(notebook, seed=2, rules="milligan-yukon")
    ((source, target, count),) = _find(notebook, "_group")
    settle(notebook.page, notebook.widget)
    cards = notebook.pile(source).locator("[data-card]")
    shown = cards.count()
    moves = len(notebook.kernel.eval("[str(m) for m in widget.game.history]"))
    drag(notebook.page, cards.nth(shown - count), notebook.pile(target))
    expect(notebook.stat("moves")).to_have_text(str(moves + 1))
    last = notebook.kernel.eval("str(widget.game.history[-1])")
    assert last.startswith(f"{source[1:]}:{count}>") or last.startswith(f"{source[1:]}>")


BURIED = """
from milligan_widget.teaching.lessons import stage
widget.game = stage(["QC KH", "QC KH", "QH KC", "QH KC", "QD KS", "QD KS", "JS KD QS", "QS JS KD"],
                    rules="milligan-harp", rest_in_stock=False, face_down=[1] * 7 + [2])
"""


def test_a_move_that_leaves_no_face_down_card_a_way_up_says_the_game_is_lost(
    notebook: Notebook,
) -> None:
    notebook.kernel.run(BURIED)
    expect(notebook.pile("t7").locator("[data-card]")).to_have_count(2)
    settle(notebook.page, notebook.widget)
    drag(notebook.page, notebook.pile("t7").locator("[data-card]").last, notebook.pile("t8"))
    expect(notebook.stat("moves")).to_have_text("1")
    words = "No face-down card can come up any more: this game can no longer be won."
    expect(notebook.message()).to_contain_text(f"onto K♦ in column 8. {words}")
    assert notebook.kernel.eval("widget.game.status") == "playing"
    notebook.screenshot("harp-buried.png")
    notebook.kernel.run("widget.theme = 'dark'")
    expect(notebook.widget).to_have_attribute("data-theme", "dark")
    notebook.screenshot("harp-buried-dark.png")
    notebook.kernel.run("widget.theme = 'auto'")
