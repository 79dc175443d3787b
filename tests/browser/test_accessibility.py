"""An accessibility audit of the widget in real JupyterLab: axe-core (the npm package, a
devDependency of js/, its axe.min.js put into the page) run on the widget's own element, never
the host page around it, in light and dark, on the board, the open "⋯" menu and the review
panel: no serious or critical violation. Also the "⋯" menu readable in a 350 px widget."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Notebook
from .lab import REPO
from .test_browser import fresh_game, set_theme
from .test_looks import OVERFLOWING

AXE = REPO / "js" / "node_modules" / "axe-core" / "axe.min.js"
# The violations axe finds in the widget's element, as plain data.
AUDIT = """async root => {
  const found = await axe.run(root, {resultTypes: ['violations']});
  return found.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
}"""
SERIOUS = ("serious", "critical")
# How wide the select is drawn, and how wide it would be with room for all its words.
SELECT_WIDTHS = """select => {
  const copy = select.cloneNode(true);
  copy.style.maxWidth = 'none';
  copy.style.width = 'auto';
  copy.style.position = 'absolute';
  select.parentElement.append(copy);
  const natural = copy.getBoundingClientRect().width;
  copy.remove();
  return [select.getBoundingClientRect().width, natural];
}"""
REVIEWED = """
from milligan_widget import Game, strategy
_lost = strategy.play_game(Game.new(2), strategy.greedy, max_moves=400)
widget.game = _lost
widget.review(wait=True, time_limit=0.1, samples=2, node_limit=1_000, seed=1)
"""


def audit(nb: Notebook, where: str) -> list[str]:
    """The serious and critical violations axe finds in the widget, in words."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm install` in js/ (axe-core is a devDependency)")
    if nb.page.evaluate("typeof window.axe") == "undefined":
        nb.page.add_script_tag(path=str(AXE))
    found = nb.widget.evaluate(AUDIT)
    return [
        f"{where}: {v['impact']} {v['id']} ({v['help']}): {'; '.join(v['nodes'])}"
        for v in found
        if v["impact"] in SERIOUS
    ]


@pytest.fixture(params=["JupyterLab Light", "JupyterLab Dark"])
def theme(notebook: Notebook, request: pytest.FixtureRequest) -> Iterator[str]:
    set_theme(notebook, request.param)
    yield "light" if "Light" in request.param else "dark"
    set_theme(notebook, "JupyterLab Light")


def test_the_board_and_the_menu_pass_an_accessibility_audit(notebook: Notebook, theme: str) -> None:
    nb = notebook
    fresh_game(nb)
    nb.kernel.run("widget.deal(); widget.deal()")  # covered cards, runs
    expect(nb.stat("moves")).to_have_text("2")
    problems = audit(nb, f"the board ({theme})")
    card = nb.pile("t1").locator("[data-card]").last
    card.focus()
    nb.page.keyboard.press("Enter")  # a card held: pressed, and the targets lit
    expect(card).to_have_attribute("aria-pressed", "true")
    problems += audit(nb, f"a card held ({theme})")
    nb.page.keyboard.press("Escape")
    more = nb.widget.locator('button[data-action="more"]')
    more.click()
    expect(nb.widget.locator(".mw-menu")).to_be_visible()
    expect(more).to_have_attribute("aria-expanded", "true")
    try:
        problems += audit(nb, f'the "⋯" menu ({theme})')
        nb.screenshot(f"audit-menu-{theme}.png")
    finally:
        nb.page.keyboard.press("Escape")
    expect(nb.widget.locator(".mw-menu")).to_be_hidden()
    assert problems == []


def test_the_review_passes_an_accessibility_audit(notebook: Notebook, theme: str) -> None:
    nb = notebook
    nb.kernel.run(REVIEWED)
    try:
        replay = nb.widget.locator(".mw-replay")
        expect(replay).to_have_attribute("data-review", "done")
        expect(replay.locator('[data-role="review-progress"]')).to_be_hidden()
        flagged = replay.locator(".mw-move.mw-flagged")
        expect(flagged.first).to_be_visible()
        problems = audit(nb, f"the review ({theme})")
        nb.screenshot(f"audit-review-{theme}.png")
        assert problems == []
    finally:
        nb.kernel.run("widget.stop_replay()")
        fresh_game(nb)


def test_the_menu_reads_whole_in_a_350_px_widget(notebook: Notebook) -> None:
    nb = notebook
    fresh_game(nb)
    nb.widget.evaluate("el => { el.style.width = '350px'; }")
    try:
        expect(nb.widget).to_have_class(re.compile("mw-narrow"))
        nb.widget.locator('button[data-action="more"]').click()
        theme_choice = nb.widget.locator('.mw-menu select[data-role="theme"]')
        expect(theme_choice).to_be_visible()
        for choice in ("auto", "light", "dark"):  # the longest is "as the notebook"
            theme_choice.select_option(choice)
            drawn, natural = theme_choice.evaluate(SELECT_WIDTHS)
            assert drawn >= natural - 0.5, f"the theme choice is cut: {drawn} of {natural} px"
        assert nb.widget.evaluate(OVERFLOWING) == []
        theme_choice.select_option("auto")
        nb.screenshot("menu-350.png")
        problems = audit(nb, "the menu at 350 px")
        nb.page.keyboard.press("Escape")
        assert problems == []
    finally:
        nb.widget.evaluate("el => { el.style.width = ''; }")
        nb.kernel.run("widget.theme = 'auto'")


def test_every_card_has_a_name_and_hidden_cards_none_of_their_own(notebook: Notebook) -> None:
    """A face-up card is named with its pile and whether it can be picked up; a face-down card
    is only "face-down card" (Python never sent which it is)."""
    nb = notebook
    fresh_game(nb, seed=5, rules="milligan-harp")
    try:
        names: list[dict[str, Any]] = nb.widget.evaluate(
            """root => [...root.querySelectorAll('.mw-board .mw-card, .mw-board .mw-down')]
              .map(el => ({name: el.getAttribute('aria-label'), role: el.getAttribute('role'),
                           down: el.classList.contains('mw-down')}))"""
        )
        down = [n for n in names if n["down"]]
        up = [n for n in names if not n["down"]]
        hidden = {"name": "face-down card", "role": "img", "down": True}
        assert down and all(n == hidden for n in down)
        pattern = re.compile(r"^(Ace|King|Queen|Jack|\d+) of \w+, column \d, (movable|covered)$")
        assert up and all(pattern.match(n["name"]) for n in up), up
        assert {n["role"] for n in up} <= {"button", "img"}
        assert audit(nb, "a face-down deal") == []
    finally:
        fresh_game(nb)
