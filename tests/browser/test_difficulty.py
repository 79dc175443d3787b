"""New game by difficulty in real JupyterLab (issue 24, item 3): the toolbar's difficulty
choice, kept for the next New game, and the status bar agreeing with Python's game and the
shipped table of deals."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import Notebook
from .test_browser import fresh_game


def _toolbar_select(nb: Notebook, role: str) -> Any:
    select = nb.widget.locator(f'select[data-role="{role}"]')
    if not select.is_visible():  # a narrow widget keeps it in the "⋯" menu
        nb.widget.locator('button[data-action="more"]').click()
    return select


def _new_game(nb: Notebook) -> int:
    """Press New game; wait for the new deal on screen; its number, from Python."""
    rev = nb.kernel.eval("widget.view['rev']")
    nb.widget.locator('.mw-toolbar button[data-action="new"]').first.click()
    expect(nb.widget).not_to_have_attribute("data-rev", str(rev))
    nb.kernel.eval("widget.wait(10)")
    seed = nb.kernel.eval("widget.game.seed")
    expect(nb.widget.locator('[data-role="game-name"]')).to_have_text(f"Deal #{seed} · classic")
    return seed


def test_choosing_hard_deals_a_hard_deal_and_says_so(notebook: Notebook) -> None:
    nb = notebook
    nb.kernel.run("from milligan_widget.studies.difficulty import deal_info, difficulty_of")
    fresh_game(nb, seed=27)  # deal 27 is in the shipped table (classic deals 1..1000)
    about = nb.widget.locator('[data-role="deal-about"]')
    band = nb.kernel.eval("deal_info('classic', 27).band")
    expect(about).to_have_text(f"{band.title()} deal")  # fair play: no verdict
    choice = _toolbar_select(nb, "difficulty")
    values = choice.locator("option").evaluate_all("options => options.map(o => o.value)")
    assert values == ["any", "winnable", "easy", "medium", "hard"]
    choice.select_option("hard")
    expect(nb.message()).to_have_text("Next game: Hard. Press New game to deal it.")
    try:
        for _ in range(2):  # the choice is kept for the next New game
            seed = _new_game(nb)
            assert nb.kernel.eval(f"difficulty_of('classic', {seed})") == "hard"
            expect(about).to_have_text("Hard deal · won by the solver")
            assert nb.kernel.eval("widget.view['deal']['difficulty']") == "hard"
        # Milligan Cell offers the bands too: Hard stays chosen
        preset = _toolbar_select(nb, "preset")
        preset.select_option("milligan-cell")
        options = choice.locator("option").evaluate_all("options => options.map(o => o.value)")
        assert options == values and choice.input_value() == "hard"
        preset.select_option("classic")
        assert choice.input_value() == "hard"
        nb.screenshot("difficulty-hard.png")
    finally:
        _toolbar_select(nb, "difficulty").select_option("any")
        if nb.widget.locator(".mw-menu").is_visible():
            nb.widget.locator('button[data-action="more"]').click()  # leave the menu closed
        fresh_game(nb)


def test_why_a_deal_is_in_its_band_opens_from_the_keyboard(notebook: Notebook) -> None:
    """The band's why was a tooltip alone: out of reach of a keyboard, a touch or a screen
    reader. Its words open below the status bar from the deal's own button."""
    nb = notebook
    nb.kernel.run("from milligan_widget.studies.difficulty import deal_info")
    fresh_game(nb, seed=27)
    about = nb.widget.locator('[data-role="deal-about"]')
    why = nb.widget.locator('[data-role="deal-why"]')
    title = nb.kernel.eval("widget.view['deal']['title']")
    assert title.startswith(nb.kernel.eval("deal_info('classic', 27).band").title())
    expect(why).to_be_hidden()
    nb.widget.locator('[data-role="game-name"]').focus()
    nb.page.keyboard.press("Tab")  # the next stop after the deal's name
    expect(about).to_be_focused()
    expect(about).to_have_accessible_description(title)  # read out on focus
    nb.page.keyboard.press("Enter")
    expect(why).to_be_visible()
    expect(why).to_have_text(title)
    expect(about).to_have_attribute("aria-expanded", "true")
    nb.screenshot("deal-why.png")
    nb.page.keyboard.press("Escape")
    expect(why).to_be_hidden()
    expect(about).to_have_attribute("aria-expanded", "false")
    about.click()  # a click (or a tap) opens it too, and a second one closes it
    expect(why).to_have_text(title)
    about.click()
    expect(why).to_be_hidden()
