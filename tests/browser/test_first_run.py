"""Small faults a new player met on a first run (issue 21, item 13), in real JupyterLab."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import Notebook
from .gestures import focused, settle
from .lab import REPO, LabServer, open_notebook
from .test_browser import fresh_game, set_theme


def test_picking_rules_says_that_new_game_deals_them(notebook: Notebook) -> None:
    fresh_game(notebook)
    preset = notebook.widget.locator('select[data-role="preset"]')
    if not preset.is_visible():  # a narrow widget keeps it in the "⋯" menu
        notebook.widget.locator('button[data-action="more"]').click()
    preset.select_option("milligan-harp")
    expect(notebook.message()).to_have_text(
        "Rules for the next game: milligan harp. Press New game to deal it."
    )
    assert notebook.kernel.eval("widget.game.rules.name") == "classic"  # nothing changed yet
    notebook.widget.locator('.mw-toolbar button[data-action="new"]').first.click()
    expect(notebook.widget).to_have_attribute("data-variant", "milligan-harp")
    fresh_game(notebook)


def _board_top(nb: Notebook) -> float:
    """How far below the widget's top the board starts (the page may scroll meanwhile)."""
    return nb.widget.evaluate(
        "root => root.querySelector('.mw-board').getBoundingClientRect().top"
        " - root.getBoundingClientRect().top"
    )


def test_ticking_winnable_does_not_push_the_board_down(notebook: Notebook) -> None:
    fresh_game(notebook, seed=715)  # no answer within 1 s: "Think longer" shows too
    notebook.kernel.run("widget.winnable_time = 1; widget.peek = True")  # the widest line
    settle(notebook.page, notebook.widget)
    top = _board_top(notebook)
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    box.check()
    try:
        expect(notebook.widget.locator(".mw-verdict")).to_have_text("unknown ?", timeout=20_000)
        expect(notebook.widget.locator('[data-action="think"]')).to_be_visible()
        assert _board_top(notebook) == top, "the verdict's line pushed the board down"
        notebook.screenshot("winnable-ticked.png")
    finally:
        box.uncheck()
        notebook.kernel.run("widget.stop(); widget.winnable_time = 3.0; widget.peek = False")
        assert notebook.kernel.eval("widget.wait(30)") is True
    assert _board_top(notebook) == top


def test_the_honest_chance_reads_as_careful_play_and_leaves_the_board_in_place(
    notebook: Notebook,
) -> None:
    """Peek off, classic: the status bar gives the calibrated chance in a player's words, on
    the line the verdict keeps (the board does not move), in light and dark."""
    fresh_game(notebook, seed=27)
    settle(notebook.page, notebook.widget)
    top = _board_top(notebook)
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    box.check()
    try:
        why = notebook.widget.locator('[data-role="verdict-why"]')
        expect(why).to_contain_text("for careful play from here", timeout=20_000)
        notebook.kernel.run(
            "from milligan_widget.analysis import win_chance as _chance\n"
            "_budget = widget._table.assistant.honest"
        )
        assert notebook.kernel.eval("widget.analysis['why']") == notebook.kernel.eval(
            "str(_chance(widget.game, _budget.samples, node_limit=_budget.node_limit))"
        )
        assert _board_top(notebook) == top, "the chance's words pushed the board down"
        notebook.screenshot("chance-light.png")
        set_theme(notebook, "JupyterLab Dark")
        notebook.screenshot("chance-dark.png")
    finally:
        set_theme(notebook, "JupyterLab Light")
        box.uncheck()
        notebook.kernel.run("widget.stop()")
        assert notebook.kernel.eval("widget.wait(30)") is True


def _stops(nb: Notebook, key: str, count: int) -> list[dict | None]:
    nb.pile("stock").focus()
    seen = [focused(nb.widget)]
    for _ in range(count):
        nb.page.keyboard.press(key)
        seen.append(focused(nb.widget))
    return seen


def test_tab_and_the_arrows_stop_at_the_same_places(notebook: Notebook) -> None:
    """One stop per pile, its top card (the pile itself when empty), in the same order; Up
    reaches the cards of a run below the top card."""
    fresh_game(notebook)
    notebook.kernel.run("widget.deal()")  # columns of two cards: one stop each still
    expect(notebook.stat("moves")).to_have_text("1")
    piles = notebook.widget.evaluate("r => r.querySelectorAll('[data-pile]').length")
    tabbed = _stops(notebook, "Tab", piles - 1)
    arrowed = _stops(notebook, "ArrowRight", piles - 1)
    assert tabbed == arrowed
    assert [stop["pile"] for stop in tabbed][-1] == "t8"
    tops = [s for s in tabbed if s["pile"].startswith("t")]
    assert all(s["card"] for s in tops) and len(tops) == 8


# Every error event of the window (a "ResizeObserver loop" one has no Error object, and may
# not reach Playwright's pageerror).
RECORD_ERRORS = """window.__mwErrors = [];
  window.addEventListener('error', e => window.__mwErrors.push(String(e.message)), true);"""


def test_no_resize_observer_errors_on_load(lab: LabServer, browser: Any, tmp_path: Path) -> None:
    """The cards are fitted to the width in the frame after a resize, not in the observer's
    callback (a resize there is a "ResizeObserver loop" page error), on load and on resizes.
    A copy of play.ipynb, with a kernel of its own: the other tests' ``widget`` stays."""
    copy = tmp_path / "resize-check.ipynb"
    shutil.copy(REPO / "examples" / "play.ipynb", copy)
    lab.add_notebook(copy)
    context = browser.new_context(viewport={"width": 1280, "height": 1500})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script(RECORD_ERRORS)
        open_notebook(page, lab, copy.name, widgets=2)
        widget = page.locator(".mw-root").first
        settle(page, widget)
        for width in (700, 420, 1280):
            page.set_viewport_size({"width": width, "height": 1500})
            settle(page, widget)
        errors += page.evaluate("() => window.__mwErrors")
        assert [e for e in errors if "ResizeObserver" in e] == []
    finally:
        context.close()
