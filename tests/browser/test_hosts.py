"""The widget in Voilà, Notebook 7 and marimo: what the player sees and what Python sees.

Voilà has no kernel client (its kernel is private to the page); in marimo the app's second
cell prints what Python sees; in Notebook 7 the test talks to the notebook's kernel.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Notebook
from .gestures import BACKGROUND, centre, drag, drag_and_read, focused, luminance
from .hosts import (
    MARIMO_SEED,
    HostPage,
    expect_python,
    first_tableau_move,
    new_game_from_toolbar,
    notebook_cells,
    open_marimo,
    page_errors,
    top_card,
)
from .lab import NOTEBOOK
from .test_browser import fresh_game, set_theme

SEED = 2024  # the deal of examples/play.ipynb: 2>5, 3>6 and 4>1 are legal at once


def assert_full_layout(host: Any) -> None:
    """The classic layout: 8 columns of one card, 8 foundations, the stock and the reserve."""
    expect(host.widget.locator('[data-pile^="t"]')).to_have_count(8)
    expect(host.widget.locator('[data-pile^="f"]')).to_have_count(8)
    expect(host.pile("stock")).to_have_count(1)
    expect(host.pile("reserve")).to_have_count(1)
    for i in range(1, 9):
        expect(host.pile(f"t{i}").locator("[data-card]")).to_have_count(1)
    expect(host.stat("tableau")).to_have_text("8")


def play_by_drag(host: Any, seed: int = SEED) -> tuple[str, str, str]:
    """A fresh deal, then its first column move dragged with the mouse; checked on screen."""
    new_game_from_toolbar(host, seed)
    source, target, card = first_tableau_move(seed)
    moving = top_card(host, source)
    expect(moving).to_have_attribute("data-card", card)
    expect(moving).to_have_class(re.compile(r"\bmw-movable\b"))
    drag(host.page, moving, host.pile(target))
    expect(host.stat("moves")).to_have_text("1")
    expect(top_card(host, target)).to_have_attribute("data-card", card)
    expect(host.pile(source).locator("[data-card]")).to_have_count(0)
    return source, target, card


def deal_by_click(host: Any, seed: int) -> None:
    new_game_from_toolbar(host, seed)
    host.pile("stock").click()
    expect(host.stat("stock")).to_have_text("88")
    expect(host.stat("moves")).to_have_text("1")
    expect(host.pile("t1").locator("[data-card]")).to_have_count(2)


def body_theme(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => ({
          bodyClass: document.body.className,
          bodyTheme: document.body.dataset.theme ?? null,
          htmlClass: document.documentElement.className,
          scheme: getComputedStyle(document.documentElement).colorScheme,
        })"""
    )


# ------------------------------------------------------------------ Voilà
def test_voila_shows_the_game(voila_page: HostPage) -> None:
    expect(voila_page.page.locator(".mw-root")).to_have_count(2)
    assert_full_layout(voila_page)
    voila_page.screenshot("voila.png")


def test_voila_a_click_on_the_stock_deals_a_row(voila_page: HostPage) -> None:
    deal_by_click(voila_page, SEED)


def test_voila_a_drag_plays_a_legal_move(voila_page: HostPage) -> None:
    play_by_drag(voila_page)


def test_voila_page_has_no_errors(voila_page: HostPage) -> None:
    assert page_errors(voila_page, "voila") == []


# ------------------------------------------------------------------ Notebook 7
def test_notebook7_shows_the_game(notebook7: Notebook) -> None:
    expect(notebook7.page.locator(".mw-root")).to_have_count(2)
    assert_full_layout(notebook7)
    expect(notebook7.widget).to_have_attribute("data-lm-suppress-shortcuts", "true")
    # play.ipynb run from the top leaves the game as its cells say: the hint of deal 27 (its
    # demo cells try their moves on a copy, and leave no "Undone: …" behind), fair by default.
    expect(notebook7.message()).to_contain_text("Honest hint: ")
    expect(notebook7.widget.locator('[data-role="game-name"]')).to_contain_text("Deal #27")
    notebook7.screenshot("notebook7.png")


def test_notebook7_dark_theme(notebook7: Notebook) -> None:
    set_theme(notebook7, "JupyterLab Dark")
    try:
        expect(notebook7.widget).to_have_attribute("data-theme", "dark")
        assert luminance(notebook7.widget.evaluate(BACKGROUND)) < 0.2
        notebook7.screenshot("notebook7-dark.png")
    finally:
        set_theme(notebook7, "JupyterLab Light")
    expect(notebook7.widget).to_have_attribute("data-theme", "light")


def test_notebook7_a_click_on_the_stock_deals_a_row_in_python(notebook7: Notebook) -> None:
    rev = notebook7.kernel.eval(f"(widget.new_game(seed={SEED}), widget.view['rev'])[1]")
    expect(notebook7.widget).to_have_attribute("data-rev", str(rev))
    expect(notebook7.stat("stock")).to_have_text("96")
    notebook7.pile("stock").click()
    expect(notebook7.stat("stock")).to_have_text("88")
    assert notebook7.kernel.eval("widget.game.stock_count") == 88
    assert notebook7.kernel.eval("[str(m) for m in widget.game.history]") == ["d"]


def test_notebook7_cells_as_the_page_shows_them(notebook7: Notebook) -> None:
    saved = [cell["cell_type"] for cell in json.loads(NOTEBOOK.read_text())["cells"]]
    assert saved == [
        *("markdown", "code", "markdown", "code", "code", "code"),
        *("markdown", "code", "markdown", "code"),
    ]
    assert notebook_cells(notebook7.page) == saved
    assert notebook_cells(notebook7.widget) == saved


def test_notebook7_page_has_no_errors(notebook7: Notebook) -> None:
    assert page_errors(notebook7, "notebook7") == []


# ------------------------------------------------------------------ marimo
def test_marimo_shows_the_game_in_a_shadow_root(marimo_page: HostPage) -> None:
    assert_full_layout(marimo_page)
    root = marimo_page.widget.evaluate(
        "el => [el.getRootNode().constructor.name, el.getRootNode().host?.localName]"
    )
    assert root == ["ShadowRoot", "marimo-anywidget"]
    expect_python(marimo_page, "moves", "0")
    expect_python(marimo_page, "stock", "96")


def test_marimo_a_drag_plays_the_move_in_python(marimo_page: HostPage) -> None:
    source, target, _card = play_by_drag(marimo_page)
    expect_python(marimo_page, "moves", "1")
    expect_python(marimo_page, "history", f"{source[1:]}>{target[1:]}")


def test_marimo_a_click_on_the_stock_deals_a_row(marimo_page: HostPage) -> None:
    deal_by_click(marimo_page, MARIMO_SEED)
    expect_python(marimo_page, "stock", "88")
    expect_python(marimo_page, "history", "d")


def test_marimo_click_a_card_then_a_pile_plays_the_move(marimo_page: HostPage) -> None:
    new_game_from_toolbar(marimo_page, SEED)
    source, target, card = first_tableau_move(SEED)
    top_card(marimo_page, source).click()
    expect(marimo_page.pile(target)).to_have_class(re.compile(r"\bmw-legal\b"))
    marimo_page.pile(target).click()
    expect(top_card(marimo_page, target)).to_have_attribute("data-card", card)
    expect_python(marimo_page, "history", f"{source[1:]}>{target[1:]}")


def test_marimo_arrow_keys_move_the_focus_between_piles(marimo_page: HostPage) -> None:
    new_game_from_toolbar(marimo_page, SEED)
    top_card(marimo_page, "t3").click()
    assert (focused(marimo_page.widget) or {}).get("pile") == "t3"
    marimo_page.page.keyboard.press("ArrowRight")
    assert (focused(marimo_page.widget) or {}).get("pile") == "t4"
    marimo_page.page.keyboard.press("ArrowLeft")
    marimo_page.page.keyboard.press("ArrowLeft")
    assert (focused(marimo_page.widget) or {}).get("pile") == "t2"
    marimo_page.page.keyboard.press("Escape")


def test_marimo_light_and_dark(marimo_page: HostPage) -> None:
    """marimo follows the browser's colour scheme here (its config says theme "system") and
    marks the page's body; the widget follows the body."""
    page = marimo_page.page
    new_game_from_toolbar(marimo_page, MARIMO_SEED)
    page.emulate_media(color_scheme="light")
    expect(page.locator("body")).to_have_attribute("data-theme", "light")
    expect(marimo_page.widget).to_have_attribute("data-theme", "light")
    assert luminance(marimo_page.widget.evaluate(BACKGROUND)) > 0.8
    marimo_page.screenshot("marimo-light.png")
    try:
        page.emulate_media(color_scheme="dark")
        expect(page.locator("body")).to_have_attribute("data-theme", "dark")
        assert body_theme(page)["bodyClass"] == "dark dark-theme"
        expect(marimo_page.widget).to_have_attribute("data-theme", "dark")
        assert luminance(marimo_page.widget.evaluate(BACKGROUND)) < 0.2
        marimo_page.screenshot("marimo-dark.png")
    finally:
        page.emulate_media(color_scheme="light")
    expect(marimo_page.widget).to_have_attribute("data-theme", "light")


def test_marimo_dark_by_its_own_setting_in_a_light_browser(
    browser: Any, marimo_server: Any
) -> None:
    """marimo's dark theme chosen in marimo (not by the browser): the widget reads the body."""
    host = open_marimo(browser, marimo_server, query="?theme=dark")
    try:
        host.page.emulate_media(color_scheme="light")
        expect(host.page.locator("body")).to_have_class(re.compile(r"\bdark\b"))
        expect(host.widget).to_have_attribute("data-theme", "dark")
        assert luminance(host.widget.evaluate(BACKGROUND)) < 0.2
    finally:
        host.close()


def test_marimo_page_has_no_errors(marimo_page: HostPage) -> None:
    assert page_errors(marimo_page) == []


# ------------------------------------------------------------------ every host: what a player meets
HOSTS = ["notebook7", "marimo_page", "voila_page"]


@pytest.mark.parametrize("host_name", HOSTS)
def test_the_dragged_card_stays_under_the_pointer_in_every_host(
    request: pytest.FixtureRequest, host_name: str
) -> None:
    host = request.getfixturevalue(host_name)
    page = host.page
    new_game_from_toolbar(host, SEED)
    source, target, card = first_tableau_move(SEED)
    host.widget.locator(".mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    reading = drag_and_read(page, top_card(host, source), centre(host.pile(target).bounding_box()))
    try:
        dx, dy = reading.error
        assert abs(dx) <= 2 and abs(dy) <= 2, (
            f"{host_name}: the dragged card is drawn {dx:+.0f}, {dy:+.0f} px from the pointer"
        )
    finally:
        page.mouse.up()
    expect(host.stat("moves")).to_have_text("1")
    expect(top_card(host, target)).to_have_attribute("data-card", card)


def test_no_key_reaches_notebook7_whatever_has_the_focus(notebook7: Notebook) -> None:
    from .test_play import _focus_targets, _press_notebook_keys

    fresh_game(notebook7)
    notebook7.kernel.run("widget.deal(); widget.deal()")
    expect(notebook7.stat("moves")).to_have_text("2")
    for what, focus in _focus_targets(notebook7).items():
        _press_notebook_keys(notebook7, focus, what)
