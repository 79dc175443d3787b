"""The live coach in real JupyterLab: turned on from the "⋯" menu, a move played by mouse is
judged beside the status bar; Show lights the better move, Undo takes the move back. The
pictures in light and dark."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Notebook
from .gestures import press, settle
from .lab import FIRST_TABLEAU_MOVE
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


#: The coach's judgement made slow in the kernel: it looks at ``stop()`` for 8 s first.
SLOW_JUDGE = """
import time as _time
import milligan_widget.widget.assistant.coach as _coach_module
_quick_judge = _coach_module.judge_move
def _slow_judge(before, move, evaluator, limit, ply, stop):
    end = _time.monotonic() + 8
    while _time.monotonic() < end and not stop():
        _time.sleep(0.005)
    return _quick_judge(before, move, evaluator, limit, ply, stop)
_coach_module.judge_move = _slow_judge
from milligan_widget.widget.assistant.jobs import RIGHT_OF_WAY
"""


def _a_deal_with_a_tableau_move_after_its_first_row(nb: Notebook) -> dict[str, str]:
    for seed in range(1, 200):
        fresh_game(nb, seed)
        found = nb.kernel.eval(f"(widget.play('d'), {FIRST_TABLEAU_MOVE})[1]")
        if found:
            source, target, card = found[0]
            return {"seed": str(seed), "source": source, "target": target, "card": card}
    raise AssertionError("no deal with a tableau move after its first row")


def test_a_card_picked_up_while_the_coach_judges_holds_its_search_until_the_drop(
    notebook: Notebook,
) -> None:
    """The move's round trip gets the processor to itself: the front end asks the kernel to
    hold its search from the moment a card is picked up (benchmarks/widget.py --coach)."""
    nb, widget = notebook, notebook.widget
    move = _a_deal_with_a_tableau_move_after_its_first_row(nb)
    nb.kernel.run(SLOW_JUDGE)
    line = widget.locator('[data-role="coach-line"]')
    try:
        fresh_game(nb, int(move["seed"]))
        nb.kernel.eval("(setattr(widget, 'coach', True), widget.play('d'), None)[-1]")
        expect(line).to_have_attribute("data-label", "judging")
        card = nb.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
        card.evaluate("el => el.scrollIntoView({block: 'center', inline: 'nearest'})")
        settle(nb.page, widget)  # the row dealt has landed
        sent = len(nb.sent)
        press(nb.page, card)
        for _ in range(40):  # the websocket reports the frame it sent a moment later
            holds = [f for f in nb.comm_frames(nb.sent, sent) if '"hold"' in f]
            if holds:
                break
            nb.page.wait_for_timeout(50)
        assert len(holds) == 1, "picking a card up asked for a hold"
        assert nb.kernel.eval("RIGHT_OF_WAY._held > _time.monotonic() + 1")
        dest = nb.pile(move["target"]).bounding_box()
        nb.page.mouse.move(dest["x"] + dest["width"] / 2, dest["y"] + 30, steps=6)
        nb.page.mouse.up()
        target = nb.pile(move["target"])
        expect(target.locator(f'[data-card="{move["card"]}"]')).to_have_count(1)
        assert nb.kernel.eval("RIGHT_OF_WAY._held") == 0.0  # the drop ended the hold
        assert nb.kernel.eval("widget.game.history[-1].source") == move["source"]
    finally:
        nb.kernel.run("_coach_module.judge_move = _quick_judge\nwidget.coach = False")
        fresh_game(nb)
