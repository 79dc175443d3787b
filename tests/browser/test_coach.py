"""The live coach in real JupyterLab: turned on from the "⋯" menu, a move played by mouse is
judged beside the status bar; Show lights the better move, Undo takes the move back. The
pictures in light and dark."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Notebook
from .test_browser import fresh_game, history, set_theme

#: Millie: four Jacks can go home; the last row buries them on every sampled stock, so
#: dealing now is a blunder and sending a Jack home the better move.
STAGE = """
from milligan_widget.teaching.lessons import stage as _stage
widget.game = _stage({1: "JC", 2: "JC", 3: "JS", 4: "JS"}, stock="QC QC KC KC QS QS KS KS",
    rules="millie", foundations={1: "10C", 2: "10C", 3: "10S", 4: "10S"}, rest_in_stock=False)
"""


def test_the_coach_judges_a_move_by_mouse_shows_the_better_one_and_undoes(
    notebook: Notebook,
) -> None:
    nb, widget = notebook, notebook.widget
    nb.kernel.run(STAGE)
    expect(nb.stat("stock")).to_have_text("8")
    line = widget.locator('[data-role="coach-line"]')
    try:
        widget.locator('button[data-action="more"]').click()
        box = widget.locator('.mw-menu input[data-role="coach"]')
        box.check()
        expect(nb.message()).to_contain_text("The coach is on")
        widget.locator('button[data-action="more"]').click()  # the menu closed again
        expect(widget.locator(".mw-menu")).to_be_hidden()
        assert nb.kernel.eval("widget.coach") is True
        nb.pile("stock").click()  # deals the last row over the Jacks
        expect(line).to_be_visible()
        expect(line).to_contain_text("Blunder: dealing a row leaves about 0%", timeout=30_000)
        expect(line).to_have_attribute("data-label", "blunder")
        better = nb.kernel.eval("widget.coach_log[0].better")
        assert better.endswith(">f") and better in line.inner_text()
        show, undo = (
            line.locator('[data-role="coach-show"]'),
            line.locator('[data-role="coach-undo"]'),
        )
        expect(show).to_be_visible()
        expect(undo).to_be_visible()
        nb.screenshot("coach-light.png")
        set_theme(nb, "JupyterLab Dark")
        expect(widget).to_have_attribute("data-theme", "dark")
        nb.screenshot("coach-dark.png")
        set_theme(nb, "JupyterLab Light")
        show.click()  # the deal taken back, the better move lit
        expect(nb.stat("stock")).to_have_text("8")
        expect(nb.message()).to_contain_text("Better than dealing a row")
        expect(widget.locator(".mw-hint-target")).not_to_have_count(0)
        assert history(nb) == [] and nb.kernel.eval("len(widget.coach_log)") == 0
        expect(line).to_be_hidden()
        nb.screenshot("coach-show.png")
        nb.pile("stock").click()  # the same blunder again: judged at once (kept in the cache)
        expect(line).to_contain_text("Blunder", timeout=30_000)
        undo.click()
        expect(nb.stat("stock")).to_have_text("8")
        assert history(nb) == [] and nb.kernel.eval("len(widget.coach_log)") == 0
    finally:
        nb.kernel.run("widget.coach = False")
        set_theme(nb, "JupyterLab Light")
        fresh_game(nb)
