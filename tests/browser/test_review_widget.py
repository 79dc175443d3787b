"""The game review in the widget, in real JupyterLab: the Review button after a lost game, the
review running in the background into the replay viewer, its chart drawn with one point per
move, a click on a point moving the viewer (the board and Python's game), and screenshots in
light and dark (docs/widget-review.png, docs/widget-review-dark.png)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Notebook
from .hosts import HostPage, expect_python, open_marimo, start_marimo, stop_server
from .lab import LabError
from .test_browser import fresh_game, set_theme
from .test_looks import OVERFLOWING, _narrow, _wide

SETUP = """
from milligan_widget import Game, strategy
from milligan_widget.widget.assistant.review import ReviewSettings
widget.review_settings = ReviewSettings(time_limit=0.3, samples=3, node_limit=3_000, seed=1)
_lost = strategy.play_game(Game.new(2), strategy.greedy, max_moves=400)
widget.game = _lost
"""


def test_a_lost_game_is_reviewed_and_its_chart_moves_the_viewer(notebook: Notebook) -> None:
    nb = notebook
    nb.kernel.run(SETUP)
    moves = nb.kernel.eval("len(_lost.history)")
    try:
        banner = nb.widget.locator(".mw-banner")
        expect(banner).to_be_visible()
        banner.locator('button[data-action="review"]').click()
        replay = nb.widget.locator(".mw-replay")
        expect(nb.widget).to_have_attribute("data-mode", "replay")
        expect(replay).to_have_attribute("data-review", "done", timeout=120_000)
        chart = replay.locator("svg.mw-review-chart")
        expect(chart).to_have_attribute("data-points", str(moves))
        assert chart.locator(".mm-point").count() == moves
        caption = replay.locator('[data-role="review-caption"]').inner_text()
        assert "which knows the stock" in caption
        assert chart.get_attribute("role") == "img"
        assert chart.get_attribute("aria-label").startswith("The honest chance to win")
        # Beside each move in the list: its verdict and chance.
        assert replay.locator(".mw-move-review").count() == moves
        chart.locator('.mm-point[data-ply="10"] .mm-hit').click()
        expect(replay.locator(".mw-replay-count")).to_have_text(f"Move 10 of {moves}")
        assert nb.kernel.eval("len(widget.game.history)") == 10
        expect(chart).to_have_attribute("data-ply", "10")
        chart.focus()
        nb.page.keyboard.press("ArrowRight")
        expect(replay.locator(".mw-replay-count")).to_have_text(f"Move 11 of {moves}")
        assert nb.kernel.eval("len(widget.game.history)") == 11
        chart.evaluate("el => el.blur()")  # the pictures without the focus ring
        nb.screenshot("widget-review-light.png")  # docs/ with MILLIGAN_DOCS=1
        set_theme(nb, "JupyterLab Dark")
        expect(nb.widget).to_have_attribute("data-theme", "dark")
        nb.screenshot("widget-review-dark.png")
        assert not [e for e in nb.errors if "mw-" in e or "chart" in e]
        set_theme(nb, "JupyterLab Light")
        _narrow(nb)  # about 330 px: the review's bar, chart and list stay inside the widget
        expect(nb.widget).to_have_class(re.compile("mw-narrow"))
        assert nb.widget.evaluate(OVERFLOWING) == []
        nb.screenshot("widget-review-narrow.png")
    finally:
        _wide(nb)
        set_theme(nb, "JupyterLab Light")
        nb.kernel.run("widget.stop_replay()")
        fresh_game(nb)


# Moves 1, 2, 5, 6, ... flagged as made-up inaccuracies (the review's judge stood in for, in
# the kernel): on a 71-move chart, flags 4 moves (36 px) apart have room, and each pair
# shares a mark.
CROWDED = """
import dataclasses, importlib
from milligan_widget.analysis import Chance, Judgement
_review_module = importlib.import_module("milligan_widget.analysis.review")  # not the function
_real_entry = _review_module.Judge.entry
def _made_up(self, entry, *args):
    entry = _real_entry(self, entry, *args)
    if entry.ply % 4 not in (1, 2):
        return entry
    judged = Judgement(entry.ply, entry.move, "inaccuracy", Chance(3, 4), Chance(1, 4))
    return dataclasses.replace(entry, judgement=judged)
_review_module.Judge.entry = _made_up
widget.review(wait=True, time_limit=0.1, samples=2, node_limit=1_000, seed=1)
_review_module.Judge.entry = _real_entry
"""


def test_crowded_flags_share_a_mark_and_each_is_reached(notebook: Notebook) -> None:
    nb = notebook
    nb.kernel.run(SETUP)
    nb.kernel.run(CROWDED)
    try:
        replay = nb.widget.locator(".mw-replay")
        expect(replay).to_have_attribute("data-review", "done")
        flags = nb.kernel.eval("[f['ply'] for f in widget.game_review['flags']]")
        chart = replay.locator("svg.mw-review-chart")
        marks = chart.locator(".mm-flag")
        groups = [[int(p) for p in m.split()] for m in marks.evaluate_all(
            "marks => marks.map(m => m.getAttribute('data-plies'))")]  # fmt: skip
        assert sorted(p for group in groups for p in group) == flags
        assert len(groups) < len(flags) and max(len(g) for g in groups) == 2
        xs = [box["x"] for box in (marks.nth(i).bounding_box() for i in range(marks.count()))]
        width = marks.first.bounding_box()["width"]
        assert all(b - a > width for a, b in itertools.pairwise(xs)), "flag marks overlap"
        pair = next(g for g in groups if len(g) == 2)
        mark = chart.locator(f'.mm-flag[data-ply="{pair[0]}"]')
        expect(mark.locator(".mm-count")).to_have_text("2")
        count = replay.locator(".mw-replay-count")
        total = nb.kernel.eval("len(_lost.history)")
        mark.click()  # the first of the two, then the second
        expect(count).to_have_text(f"Move {pair[0]} of {total}")
        mark.click()
        expect(count).to_have_text(f"Move {pair[1]} of {total}")
        # Shift+→ and Shift+←: the next and previous flagged moves, wherever the viewer is.
        chart.focus()
        nb.page.keyboard.press("Shift+ArrowRight")
        after = next(p for p in flags if p > pair[1])
        expect(count).to_have_text(f"Move {after} of {total}")
        nb.page.keyboard.press("Shift+ArrowLeft")
        expect(count).to_have_text(f"Move {pair[1]} of {total}")
        assert nb.kernel.eval("len(widget.game.history)") == pair[1]
        # The list says each flag; the move that lost the win names the better move.
        said = replay.locator(f'li[data-ply="{pair[0] + 1}"] .mw-move-flag')
        expect(said).to_have_text(re.compile(r"^Inaccuracy: .+ leaves 1 of 4 sampled stocks "))
        turn = nb.kernel.eval("widget.game_review['turning_point']")
        if turn is not None:
            blunder = replay.locator(f'li[data-ply="{turn + 1}"] .mw-move-flag')
            expect(blunder).to_contain_text("Blunder: ")
            expect(blunder).to_contain_text("Better: ")
        nb.screenshot("review-crowded-flags.png")
    finally:
        nb.kernel.run("_review_module.Judge.entry = _real_entry; widget.stop_replay()")
        fresh_game(nb)


# ------------------------------------------------------------------ marimo
MARIMO_REVIEW_APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from milligan_widget import Game, MilliganWidget, strategy

    lost = strategy.play_game(Game.new(2), strategy.greedy, max_moves=400)
    widget = MilliganWidget(game=lost, stats=False, autosave=False)
    widget.review(wait=True, time_limit=0.2, samples=2, node_limit=2_000, seed=1)
    board = mo.ui.anywidget(widget)
    get_rev, set_rev = mo.state(widget.view["rev"])
    widget.observe(lambda change: set_rev(change["new"]["rev"]), names="view")
    board
    return board, get_rev, mo, widget


@app.cell
def _(get_rev, mo, widget):
    mo.Html(
        '<pre data-python-state="">'
        f"rev {get_rev()}\\n"
        f"moves {len(widget.game.history)}\\n"
        f"reviewed {len(widget.last_review.entries)}"
        "</pre>"
    )
    return


if __name__ == "__main__":
    app.run()
"""


@pytest.fixture(scope="module")
def marimo_review(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[HostPage]:
    base = tmp_path_factory.mktemp("marimo-review")
    app = base / "review_app.py"
    app.write_text(MARIMO_REVIEW_APP, encoding="utf-8")
    try:
        server = start_marimo(base, app)
        host = open_marimo(browser, server)
    except LabError as error:
        pytest.fail(str(error))
    yield host
    host.close()
    stop_server(server)


def test_the_review_chart_draws_in_marimo(marimo_review: HostPage) -> None:
    host = marimo_review
    text = host.page.locator("[data-python-state]").first.inner_text()
    moves = int(text.split("reviewed ")[1].split()[0])
    replay = host.widget.locator(".mw-replay")
    expect(replay).to_have_attribute("data-review", "done")
    chart = replay.locator("svg.mw-review-chart")
    expect(chart).to_have_attribute("data-points", str(moves))  # the shadow root pierced
    chart.locator('.mm-point[data-ply="7"] .mm-hit').click()
    expect(replay.locator(".mw-replay-count")).to_have_text(f"Move 7 of {moves}")
    expect_python(host, "moves", "7")
    assert not [e for e in host.errors if "mw-" in e or "chart" in e]


# ------------------------------------------------------------------ Notebook 7
def test_the_review_chart_draws_in_notebook7(notebook7: Notebook) -> None:
    nb = notebook7
    nb.kernel.run(SETUP)
    moves = nb.kernel.eval("len(_lost.history)")
    try:
        nb.widget.locator('.mw-banner button[data-action="review"]').click()
        replay = nb.widget.locator(".mw-replay")
        expect(replay).to_have_attribute("data-review", "done", timeout=120_000)
        chart = replay.locator("svg.mw-review-chart")
        expect(chart).to_have_attribute("data-points", str(moves))
        chart.locator('.mm-point[data-ply="5"] .mm-hit').click()
        expect(replay.locator(".mw-replay-count")).to_have_text(f"Move 5 of {moves}")
        assert nb.kernel.eval("len(widget.game.history)") == 5
    finally:
        nb.kernel.run("widget.stop_replay()")
        fresh_game(nb)
