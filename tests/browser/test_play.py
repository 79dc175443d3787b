"""Play as a player meets it, in real JupyterLab: the dragged card under the pointer, keys
that never reach the notebook, fast clicks on the stock, focus that stays where it belongs."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.lines import WIN_8

from .conftest import Notebook
from .gestures import (
    GHOST_CARD,
    RECORD_ANIMATIONS,
    centre,
    drag,
    drag_and_read,
    focused,
    parse_translate,
    read_ghost,
    recorded_animations,
    settle,
)
from .hosts import notebook_cells
from .test_browser import find_tableau_move, fresh_game, history

TOLERANCE = 2.0  # px: the copy stays where the player took hold of the card
# Keys that do something to a notebook in command mode (none is a key of the game).
NOTEBOOK_KEYS = [
    "Escape", "x", "m", "r", "b", "c", "v", "k", "j", "o", "l", "1", "Shift+M", "Shift+L",
    "0", "0", "i", "i", "Shift+Enter", "Control+Enter", "Alt+Enter",
]  # fmt: skip


def _shell(nb: Notebook, layout: str) -> None:
    """The file browser open or closed beside the notebook."""
    if layout == "side panel open":
        nb.page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
        expect(nb.page.locator("#filebrowser")).to_be_visible()
    else:
        nb.page.evaluate("window.jupyterapp.shell.collapseLeft()")
        expect(nb.page.locator("#filebrowser")).to_be_hidden()


def _assert_on_pointer(reading: Any) -> None:
    dx, dy = reading.error
    assert abs(dx) <= TOLERANCE and abs(dy) <= TOLERANCE, (
        f"the dragged card is drawn {dx:+.0f} px, {dy:+.0f} px away from where the player "
        f"holds it (pointer {reading.pointer}, copy at {reading.ghost})"
    )


# ------------------------------------------------------------------ the dragged card
@pytest.mark.parametrize("layout", ["side panel open", "side panel closed"])
def test_the_dragged_card_stays_under_the_pointer(notebook: Notebook, layout: str) -> None:
    page = notebook.page
    move = find_tableau_move(notebook)
    _shell(notebook, layout)
    try:
        card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
        notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
        target = notebook.pile(move["target"]).bounding_box()
        reading = drag_and_read(page, card, centre(target, dy=30))
        _assert_on_pointer(reading)
        # The notebook scrolls under the held card (the wheel): the copy stays on the pointer.
        page.mouse.wheel(0, 90)
        page.wait_for_timeout(100)
        _assert_on_pointer(read_ghost(page, reading.pointer, reading.grip))
        page.mouse.move(reading.pointer[0] + 25, reading.pointer[1] - 15, steps=2)
        pointer = (reading.pointer[0] + 25, reading.pointer[1] - 15)
        _assert_on_pointer(read_ghost(page, pointer, reading.grip))
        page.mouse.move(*reading.pointer, steps=2)
        page.mouse.up()
        # The drop is played before the next test deals afresh (else it lands in that deal).
        expect(notebook.stat("moves")).to_have_text("1")
    finally:
        page.evaluate("window.jupyterapp.shell.collapseLeft()")


# The target pile has moved on screen: scrolled up by the wheel, or re-fitted to the window.
MOVED = """([el, x, y, w]) => { const r = el.getBoundingClientRect();
  return Math.abs(r.x - x) > 20 || Math.abs(r.y - y) > 100 || Math.abs(r.width - w) > 4; }"""


@pytest.mark.parametrize("disturbance", ["the page scrolled", "the window narrowed"])
def test_a_drop_after_the_board_moved_lands_on_the_pile_under_the_pointer(
    notebook: Notebook, disturbance: str
) -> None:
    page = notebook.page
    size = page.viewport_size
    move = find_tableau_move(notebook)
    card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    target = notebook.pile(move["target"])
    before = target.bounding_box()
    try:
        drag_and_read(page, card, centre(before, dy=30))
        if disturbance == "the page scrolled":
            page.mouse.wheel(0, 160)  # the notebook scrolls under the held card
        else:
            page.set_viewport_size({"width": size["width"] - 300, "height": size["height"]})
        page.wait_for_function(
            MOVED, arg=[target.element_handle(), before["x"], before["y"], before["width"]]
        )
        page.mouse.move(*centre(target.bounding_box(), dy=30), steps=3)  # onto where it is now
        page.mouse.up()
        expect(notebook.stat("moves")).to_have_text("1")
        assert history(notebook) == [f"{move['source'][1:]}>{move['target'][1:]}"]
    finally:
        page.set_viewport_size(size)


def test_the_card_lands_from_where_the_copy_was_dropped(notebook: Notebook) -> None:
    page = notebook.page
    move = find_tableau_move(notebook)
    page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")  # the worst offset
    try:
        card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
        notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
        to = centre(notebook.pile(move["target"]).bounding_box(), dy=30)
        reading = drag_and_read(page, card, to)
        page.evaluate(RECORD_ANIMATIONS)
        page.mouse.up()
        expect(notebook.stat("moves")).to_have_text("1")
        page.wait_for_function(
            "([card, pile]) => (window.__mwAnimations ?? [])"
            ".some(a => a.card === card && a.pile === pile)",
            arg=[move["card"], move["target"]],
        )
        slide = next(
            a
            for a in recorded_animations(page)
            if a["card"] == move["card"] and a["pile"] == move["target"]
        )
        dx, dy = parse_translate(slide["from"])
        start = (slide["x"] + dx, slide["y"] + dy)
        gap = (start[0] - reading.ghost[0], start[1] - reading.ghost[1])
        assert abs(gap[0]) <= TOLERANCE and abs(gap[1]) <= TOLERANCE, (
            f"the landing slide starts {gap} px away from where the dropped copy was"
        )
        assert history(notebook) == [f"{move['source'][1:]}>{move['target'][1:]}"]
    finally:
        page.evaluate("window.jupyterapp.shell.collapseLeft()")


def test_while_a_card_is_dragged_the_card_under_it_shows_its_face(notebook: Notebook) -> None:
    page = notebook.page
    fresh_game(notebook)
    notebook.kernel.run("widget.deal()")  # a card under each top card
    expect(notebook.stat("moves")).to_have_text("1")
    cards = notebook.pile("t1").locator("[data-card]")
    under = cards.first
    expect(under).to_have_attribute("data-full", "0")  # covered: only its index is drawn
    expect(notebook.widget.locator("[data-flying]")).to_have_count(0)  # the row has landed
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    box = cards.last.bounding_box()
    drag_and_read(page, cards.last, (box["x"] + 200, box["y"] + 60))
    try:
        expect(under).to_have_attribute("data-full", "1")
        expect(under.locator(".mw-br")).to_be_visible()  # the whole face, both indices
    finally:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 12, steps=4)  # back home
        page.mouse.up()
    expect(page.locator(GHOST_CARD)).to_have_count(0)
    expect(under).to_have_attribute("data-full", "0")  # covered again: only its index shows
    expect(under.locator(".mw-br")).to_be_hidden()
    assert history(notebook) == ["d"]


# ------------------------------------------------------------------ keys stay in the game
def _cells(nb: Notebook) -> list[str]:
    return notebook_cells(nb.page)


def _press_notebook_keys(nb: Notebook, focus: Any, what: str) -> None:
    """Press every notebook key with the focus on ``focus``; nothing may change."""
    cells, moves, ident = _cells(nb), history(nb), nb.kernel.eval("id(widget)")
    for key in NOTEBOOK_KEYS:
        focus()
        nb.page.keyboard.press(key)
    expect(nb.page.locator(".jp-Dialog")).to_have_count(0)  # "0 0" asks to restart the kernel
    assert _cells(nb) == cells, f"a key pressed with the focus on {what} changed the notebook"
    assert history(nb) == moves, f"a key pressed with the focus on {what} changed the game"
    assert nb.kernel.eval("id(widget)") == ident, "the game's cell ran again"
    expect(nb.widget).to_be_visible()


TOOLBAR_UNDO = '.mw-toolbar button[data-action="undo"]'  # the coach line has an Undo too


def _focus_targets(nb: Notebook) -> dict[str, Any]:
    top = nb.pile("t3").locator("[data-card]").last
    covered = nb.pile("t3").locator("[data-card]").first
    rules = nb.widget.locator('button[data-action="rules"]')
    return {
        "a card (clicked, then Esc)": lambda: (top.click(), nb.page.keyboard.press("Escape")),
        "a covered card": lambda: covered.focus(),
        "a foundation": lambda: nb.pile("f1").focus(),
        "the stock": lambda: nb.pile("stock").focus(),
        "a toolbar button": lambda: nb.widget.locator(TOOLBAR_UNDO).focus(),
        "the rules menu": lambda: nb.widget.locator("select[data-role='preset']").focus(),
        "the deal-number box": lambda: nb.widget.locator("input.mw-seed").focus(),
        "the widget": lambda: nb.widget.focus(),
        "the deal's why": lambda: nb.widget.locator('[data-role="deal-about"]').focus(),
        "the Rules panel": lambda: (
            rules.get_attribute("aria-pressed") == "true" or rules.click(),
            nb.widget.locator(".mw-rules").click(position={"x": 5, "y": 5}),
        ),
    }


def test_no_key_reaches_the_notebook_whatever_has_the_focus(notebook: Notebook) -> None:
    fresh_game(notebook, seed=27)  # a shipped deal: its band's why is a button to focus
    notebook.kernel.run("widget.deal(); widget.deal()")  # covered cards to focus
    expect(notebook.stat("moves")).to_have_text("2")
    try:
        for what, focus in _focus_targets(notebook).items():
            _press_notebook_keys(notebook, focus, what)
    finally:
        notebook.widget.locator("input.mw-seed").fill("")
        notebook.widget.locator("select[data-role='preset']").select_option("classic")
        rules = notebook.widget.locator('button[data-action="rules"]')
        if rules.get_attribute("aria-pressed") == "true":
            rules.click()


def test_the_games_keys_still_work_and_stay_in_the_game(notebook: Notebook) -> None:
    fresh_game(notebook)
    cells = _cells(notebook)
    for focus in ('button[data-action="rules"]', '[data-pile="f2"]', '[data-pile="stock"]'):
        notebook.widget.locator(focus).focus()
        for key in ("d", "d", "u"):  # deal, not "delete the cell" (d d); undo
            notebook.page.keyboard.press(key)
    expect(notebook.stat("stock")).to_have_text("72")
    expect(notebook.stat("moves")).to_have_text("3")  # also on the way (d d u d d: 3 too)
    deadline = time.monotonic() + 10
    while history(notebook) != ["d", "d", "d"] and time.monotonic() < deadline:
        time.sleep(0.1)  # the last keys may still be on their way
    assert history(notebook) == ["d", "d", "d"]
    notebook.page.keyboard.press("a")  # auto, not "insert a cell above"
    expect(notebook.message()).to_contain_text(re.compile("Auto|No card can safely go"))
    assert _cells(notebook) == cells
    # The deal-number box keeps its own Enter: a new game by number.
    box = notebook.widget.locator("input.mw-seed")
    box.fill("31")
    box.press("Enter")
    expect(notebook.stat("moves")).to_have_text("0")
    assert notebook.kernel.eval("widget.game.seed") == 31
    assert _cells(notebook) == cells


# ------------------------------------------------------------------ the stock
def test_quick_clicks_on_the_stock_deal_a_row_each(notebook: Notebook) -> None:
    fresh_game(notebook)
    page = notebook.page
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    x, y = centre(notebook.pile("stock").bounding_box())
    for gap in (30, 60, 90, 120, 150, 200, 300):  # ms between clicks, as a quick player's
        page.mouse.click(x, y)
        page.wait_for_timeout(gap)
    expect(notebook.stat("moves")).to_have_text("7")
    expect(notebook.stat("stock")).to_have_text("40")
    assert history(notebook) == ["d"] * 7
    expect(notebook.widget.locator(".mw-selected")).to_have_count(0)
    expect(notebook.message()).not_to_have_attribute("data-kind", "error")


def test_a_card_dropped_on_the_stock_is_refused_in_plain_words(notebook: Notebook) -> None:
    fresh_game(notebook)
    card = notebook.pile("t4").locator("[data-card]").last
    drag(notebook.page, card, notebook.pile("stock"))
    expect(notebook.message()).to_have_text("Cards cannot go back to the stock.")
    expect(notebook.message()).to_have_attribute("data-kind", "error")
    expect(notebook.page.locator('[data-role="ghost"]')).to_have_count(0)
    assert history(notebook) == []


# ------------------------------------------------------------------ focus
def test_a_focused_covered_card_stays_under_the_cards_on_it(notebook: Notebook) -> None:
    fresh_game(notebook)
    notebook.kernel.run("widget.deal(); widget.deal(); widget.deal()")
    expect(notebook.stat("moves")).to_have_text("3")
    settle(notebook.page, notebook.widget)  # the rows have landed
    cards = notebook.pile("t5").locator("[data-card]")
    covered = cards.nth(1)
    covered.focus()
    notebook.page.keyboard.press("ArrowDown")  # a key press: the focus ring is on show
    notebook.page.keyboard.press("ArrowUp")
    assert focused(notebook.widget)["card"] == covered.get_attribute("data-card")
    notebook.pile("t5").evaluate("el => el.scrollIntoView({block: 'center'})")
    box, on_it = covered.bounding_box(), cards.nth(2).bounding_box()
    strip = on_it["y"] - box["y"]
    # Below its strip the card on it is still what the player sees (and clicks).
    x = box["x"] + box["width"] / 2
    seen = notebook.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('[data-card]')?.dataset.index",
        [x, box["y"] + strip + 10],
    )
    assert seen == "2", "the focused covered card jumped above the cards on it"
    ring = covered.evaluate(
        "el => { const s = getComputedStyle(el, '::after');"
        " return {content: s.content, height: parseFloat(s.height), width: parseFloat(s.width)}; }"
    )
    assert ring["content"] != "none", "no focus ring"
    assert abs(ring["height"] - strip) <= 1.5, "the ring is not on the card's visible strip"
    assert ring["width"] <= box["width"] + 0.5, "the ring leaves the card's slot"


# Browsers without Element.moveBefore (Firefox, Safari today) move a focused card by taking
# it out and putting it back, which drops the focus.
WITHOUT_MOVE_BEFORE = """on => { if (on) { window.__moveBefore = Element.prototype.moveBefore;
  delete Element.prototype.moveBefore; } else if (window.__moveBefore) {
  Element.prototype.moveBefore = window.__moveBefore; } }"""


@pytest.mark.parametrize("dom", ["with moveBefore", "without moveBefore"])
def test_the_keyboard_stays_with_the_game_through_a_drag(notebook: Notebook, dom: str) -> None:
    """Mid-drag the focus is still in the game (Esc puts the card back); after the drop it
    is on the card that moved, so the game's keys (u: Undo) work at once."""
    page = notebook.page
    move = find_tableau_move(notebook)
    page.evaluate(WITHOUT_MOVE_BEFORE, dom == "without moveBefore")
    try:
        _drag_cancel_drop_undo(notebook, move)
    finally:
        page.evaluate(WITHOUT_MOVE_BEFORE, False)


def _drag_cancel_drop_undo(notebook: Notebook, move: dict[str, Any]) -> None:
    page = notebook.page
    card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    to = centre(notebook.pile(move["target"]).bounding_box(), dy=30)
    drag_and_read(page, card, to)
    assert focused(notebook.widget) is not None, "the focus left the game when the drag began"
    page.keyboard.press("Escape")
    expect(page.locator(GHOST_CARD)).to_have_count(0)  # the card went back
    page.mouse.up()  # and letting go afterwards does nothing
    expect(card).to_be_visible()
    assert history(notebook) == []
    drag_and_read(page, card, to)
    page.mouse.up()
    expect(notebook.stat("moves")).to_have_text("1")
    moved = notebook.pile(move["target"]).locator(f'[data-card="{move["card"]}"]')
    expect(moved).to_be_focused()
    assert not moved.evaluate("el => el.matches(':focus-visible')"), "a ring after a mouse drop"
    page.keyboard.press("u")
    expect(notebook.stat("moves")).to_have_text("0")
    assert history(notebook) == []


# Card flights 30 times longer (on) or as they were (off), so a view can come mid-flight.
SLOW_FLIGHTS = """on => { const proto = Element.prototype;
  if (on && !window.__animate) { window.__animate = proto.animate;
    proto.animate = function (frames, options) { const slow = typeof options === "object"
      ? {...options, duration: options.duration * 30} : options * 30;
      return window.__animate.call(this, frames, slow); }; }
  if (!on && window.__animate) { proto.animate = window.__animate; delete window.__animate; } }"""


# How many cards are in flight the moment the next view is drawn (before the frame in which
# that view's own move starts to slide).
FLYING_AT_NEXT_VIEW = """root => { window.__flyingAtView = null;
  const seen = new MutationObserver(() => { seen.disconnect();
    window.__flyingAtView = {n: root.querySelectorAll('[data-flying]').length}; });
  seen.observe(root, {attributes: true, attributeFilter: ['data-rev']}); }"""


def test_a_card_in_flight_lands_when_the_next_view_moves_it(notebook: Notebook) -> None:
    """Undo while the dropped card still slides in: it is back in its pile at once, and the
    player can pick it up again (a card in flight takes no clicks)."""
    page = notebook.page
    move = find_tableau_move(notebook)
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.evaluate(SLOW_FLIGHTS, True)
    try:
        drag(
            page,
            notebook.pile(move["source"]).locator("[data-card]").last,
            notebook.pile(move["target"]),
        )
        moved = notebook.pile(move["target"]).locator(f'[data-card="{move["card"]}"]').last
        expect(moved).to_have_attribute("data-flying", "1")
        notebook.widget.evaluate(FLYING_AT_NEXT_VIEW)
        notebook.kernel.run("widget.undo()")
        flying = page.wait_for_function("() => window.__flyingAtView").json_value()
        assert flying == {"n": 0}, "the card went back to its pile still in flight"
        card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
        drag_and_read(page, card, centre(notebook.pile(move["target"]).bounding_box(), dy=30))
        page.mouse.up()
        expect(notebook.stat("moves")).to_have_text("1")
    finally:
        page.evaluate(SLOW_FLIGHTS, False)


# After a deal: a single card that the dealt row's top card of a column can play onto another.
DEALT_MOVE = """[(m.source, m.target, str(_g.tableau[int(m.source[1:]) - 1][-1]))
  for _g in [widget.game.copy()] if _g.play('d')
  for m in _g.legal_moves if m.source.startswith('t') and (m.target or '').startswith('t')
  and __import__('milligan_widget.widget.view').widget.view.move_count(_g, m) == 1][:1]"""
# Where a card will be once it has landed: its box less the transform of its flight.
LANDING_BOX = """el => { const r = el.getBoundingClientRect();
  const m = new DOMMatrix(getComputedStyle(el).transform);
  return {x: r.x - m.e, y: r.y - m.f, width: r.width, height: r.height}; }"""


def _deal_with_a_dealt_move(nb: Notebook) -> dict[str, Any]:
    """A fresh deal where, after the first deal, a dealt card can go onto another column."""
    for seed in range(2024, 2224):
        fresh_game(nb, seed)
        found = nb.kernel.eval(DEALT_MOVE)
        if found:
            source, target, card = found[0]
            return {"seed": seed, "source": source, "target": target, "card": card}
    raise AssertionError("no deal whose first row brings a card that can move")


def test_a_card_still_flying_in_from_the_stock_can_be_dragged(notebook: Notebook) -> None:
    """The card just dealt is picked up where it is going, mid-flight: it lands at once,
    and the drop plays the move (it took no press until it landed, about 0.3 s)."""
    page = notebook.page
    move = _deal_with_a_dealt_move(notebook)
    notebook.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    page.evaluate(SLOW_FLIGHTS, True)
    try:
        notebook.pile("stock").click()
        card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]')
        expect(card).to_have_attribute("data-flying", "1")
        box = card.evaluate(LANDING_BOX)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 12)
        page.mouse.down()
        expect(card).not_to_have_attribute("data-flying", "1")  # landed at the touch
        page.mouse.move(box["x"] + box["width"] / 2 + 12, box["y"] + 20, steps=3)
        to = centre(notebook.pile(move["target"]).bounding_box(), dy=30)
        page.mouse.move(*to, steps=8)
        page.mouse.up()
        expect(notebook.stat("moves")).to_have_text("2")
        assert history(notebook) == ["d", f"{move['source'][1:]}>{move['target'][1:]}"]
    finally:
        page.evaluate(SLOW_FLIGHTS, False)


def test_a_drag_that_picked_nothing_up_leaves_nothing_selected(notebook: Notebook) -> None:
    """A press on a covered card, dragged onto another column: no move, and the card where
    the button was let go is not left selected (the next click would move it)."""
    page = notebook.page
    move = find_tableau_move(notebook)
    notebook.kernel.run("widget.deal()")  # every column has a covered card now
    expect(notebook.stat("moves")).to_have_text("1")
    covered = notebook.pile(move["source"]).locator("[data-card]:not(.mw-movable)").first
    covered.evaluate("el => el.scrollIntoView({block: 'center'})")
    settle(page, notebook.widget)  # the row dealt has landed: the release finds its card
    box = covered.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 6)
    page.mouse.down()
    target = notebook.pile(move["target"]).locator("[data-card]").last
    page.mouse.move(*centre(target.bounding_box()), steps=8)
    page.mouse.up()
    expect(notebook.widget.locator(".mw-selected")).to_have_count(0)
    page.wait_for_timeout(200)  # a selection would be drawn by now
    expect(notebook.widget.locator(".mw-selected")).to_have_count(0)
    assert history(notebook) == ["d"]


def test_after_a_keyboard_move_the_focus_follows_the_card(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    source = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    source.focus()
    notebook.page.keyboard.press("Enter")
    expect(notebook.pile(move["target"])).to_have_class(re.compile("mw-legal"))
    notebook.pile(move["target"]).focus()
    notebook.page.keyboard.press("Enter")
    expect(notebook.stat("moves")).to_have_text("1")
    expect(notebook.pile(move["target"]).locator(f'[data-card="{move["card"]}"]')).to_be_focused()
    assert focused(notebook.widget) == {"pile": move["target"], "card": move["card"], "tag": "DIV"}


# ------------------------------------------------------------------ a whole game by hand
PLAN = """
from milligan_widget import Game as _Game, Move as _Move
from milligan_widget.widget import view as _views
_reference = _Game.new({seed})

def _plan(text):
    move = _Move.parse(text)
    if move.source == "stock":
        return {{"source": "stock", "count": 0, "target": None}}
    return {{"source": move.source, "count": _views.move_count(widget.game, move),
             "target": (_views.resolve_targets(widget.game, move) or [move.target])[0]}}

def _same_after(text):
    _reference.play(text)
    same_length = len(widget.game.history) == len(_reference.history)
    return str(widget.game) == str(_reference) and same_length
"""


def _gesture(nb: Notebook, plan: dict[str, Any], turn: int) -> str:
    """Perform one planned move with the mouse; which gesture varies from turn to turn."""
    if plan["source"] == "stock":
        nb.pile("stock").click()
        return "click on the stock"
    cards = nb.pile(plan["source"]).locator("[data-card]")
    card = cards.nth(cards.count() - plan["count"])
    target = nb.pile(plan["target"])
    card.scroll_into_view_if_needed()
    if plan["target"].startswith("f") and plan["count"] == 1 and turn % 2:
        card.dblclick()
        return "double-click"
    if turn % 3 == 1:
        card.click(position={"x": 10, "y": 6})  # on its visible strip, if it is covered
        target.click(position={"x": 12, "y": 12})
        return "click, click"
    drag(nb.page, card, target)
    return "drag"


def test_a_whole_game_won_by_real_mouse_gestures(notebook: Notebook) -> None:
    """Deal 8 from the deal to the celebration, every move by the mouse (drags, click-click,
    double-clicks, reserve moves too), the kernel's game checked after each one."""
    fresh_game(notebook, seed=8)
    notebook.kernel.run(PLAN.format(seed=8))
    gestures: set[str] = set()
    for turn, text in enumerate(WIN_8.split()):
        expect(notebook.widget.locator("[data-flying]")).to_have_count(0)  # nothing in flight
        plan = notebook.kernel.eval(f"_plan({text!r})")
        gestures.add(_gesture(notebook, plan, turn))
        expect(notebook.stat("moves")).to_have_text(str(turn + 1))
        assert notebook.kernel.eval(f"_same_after({text!r})"), f"move {turn + 1}, {text}"
    assert gestures == {"click on the stock", "double-click", "click, click", "drag"}
    banner = notebook.widget.locator(".mw-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You won!")
    assert notebook.kernel.eval("widget.game.status") == "won"
    expect(banner.locator(".mw-streak")).to_be_visible()  # a win starts or extends a streak
    notebook.screenshot("won-by-hand.png")
    # The win counts: the Statistics sheet (in the "⋯" menu) shows it as Python has it.
    won, peeked, won_peeking = notebook.kernel.eval(
        "(lambda p: (p.won, p.peeked, p.won_peeking))"
        "(__import__('milligan_widget.studies.stats').studies.stats.Stats().summary().get('classic'))"
    )
    assert won >= 1
    notebook.widget.locator('button[data-action="more"]').click()
    notebook.widget.locator('.mw-menu button[data-action="stats"]').click()
    sheet = notebook.widget.locator(".mw-stats-sheet")
    expect(sheet).to_be_visible()
    row = sheet.locator('tr[data-preset="classic"] td')
    expect(row.nth(2)).to_have_text(str(won))
    expect(row.nth(4)).to_have_text(f"{peeked} ({won_peeking})")  # fair play and peeking apart
    newest = sheet.locator(".mw-recent li").first
    expect(newest).to_contain_text("deal 8 (classic): won, 207 moves")
    expect(newest).not_to_contain_text("peeked")  # played fair, the default
    notebook.screenshot("statistics.png")
    notebook.page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()


# ------------------------------------------------------------------ nothing is lost
def test_restart_and_new_game_can_be_taken_back(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8)
    line = WIN_8.split()[:12]
    notebook.kernel.run(f"widget.replay({line!r}, delay=0)")
    expect(notebook.stat("moves")).to_have_text("12")
    undo = notebook.widget.locator('.mw-toolbar button[data-action="undo"]')
    notebook.widget.locator('.mw-toolbar button[data-action="restart"]').click()
    expect(notebook.stat("moves")).to_have_text("0")
    expect(undo).to_be_enabled()
    undo.click()  # one Undo: back where the player was
    expect(notebook.stat("moves")).to_have_text("12")
    assert history(notebook) == line
    notebook.widget.locator("input.mw-seed").fill("31")
    notebook.widget.locator('.mw-toolbar button[data-action="new"]').click()
    expect(notebook.stat("moves")).to_have_text("0")
    assert notebook.kernel.eval("widget.game.seed") == 31
    expect(notebook.message()).to_contain_text("Undo brings back the game you left")
    undo.click()
    expect(notebook.stat("moves")).to_have_text("12")
    assert notebook.kernel.eval("widget.game.seed") == 8 and history(notebook) == line


def test_a_message_clears_when_the_next_card_is_picked_up(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    notebook.kernel.run("widget.deal(); widget.undo()")
    expect(notebook.message()).to_contain_text("Undone")
    card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    card.click()
    expect(card).to_have_class(re.compile("mw-selected"))
    expect(notebook.message()).to_have_text("")
    notebook.page.keyboard.press("Escape")


# ------------------------------------------------------------------ the solver's tools
def test_winnable_says_why_and_think_longer_shows_progress_and_stops(notebook: Notebook) -> None:
    fresh_game(notebook, seed=715)  # no answer within 60 s (49 million positions, compiled core)
    notebook.kernel.run("widget.winnable_time = 1; widget.peek = True")  # the solver's verdict
    why = notebook.widget.locator('[data-role="verdict-why"]')
    think = notebook.widget.locator('[data-action="think"]')
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    box.check()
    try:
        expect(notebook.widget.locator(".mw-verdict")).to_have_text("unknown ?", timeout=20_000)
        expect(why).to_have_text("no answer within 1 s")
        expect(think).to_be_visible()
        think.click()
        expect(why).to_have_text(re.compile(r"thinking… \d+ s, [\d,]+ positions"), timeout=10_000)
        expect(think).to_be_disabled()
        notebook.widget.locator('button[data-action="stop"]').click()
        expect(notebook.message()).to_contain_text("Thinking stopped after")
        assert notebook.kernel.eval("widget.wait(30)") is True
        assert history(notebook) == []
    finally:
        box.uncheck()
        notebook.kernel.run("widget.stop(); widget.winnable_time = 3.0; widget.peek = False")


def test_winnable_reads_won_once_the_game_is_won(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8)
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    box.check()
    try:
        notebook.kernel.run(f"widget.replay({WIN_8.split()!r}, delay=0)")
        expect(notebook.widget.locator(".mw-verdict")).to_have_text("won ✓", timeout=20_000)
        expect(notebook.widget.locator('[data-role="verdict-why"]')).to_have_text(
            "all cards are home"
        )
    finally:
        box.uncheck()
        assert notebook.kernel.eval("widget.wait(30)") is True
