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
from .test_looks import OVERFLOWING, _inside

AXE = REPO / "js" / "node_modules" / "axe-core" / "axe.min.js"
# The violations axe finds in the widget's element, as plain data. JupyterLab's body is 0 px
# high (its shell is placed absolutely) and clips what overflows it: axe then takes all it
# holds for hidden and checks no colour contrast at all. For the audit's time the body is as
# high as the window (the host page's style, not the widget's).
AUDIT = """async root => {
  const body = document.body, was = body.style.minHeight;
  body.style.minHeight = '100vh';
  try {
    const found = await axe.run(root, {resultTypes: ['violations']});
    return found.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
  } finally { body.style.minHeight = was; }
}"""
# How many of the widget's elements axe checked the contrast of (none: the audit is blind).
CONTRAST_CHECKED = """async root => {
  const body = document.body, was = body.style.minHeight;
  body.style.minHeight = '100vh';
  try {
    const found = await axe.run(root, {runOnly: ['color-contrast']});
    return found.passes.concat(found.violations).reduce((n, v) => n + v.nodes.length, 0);
  } finally { body.style.minHeight = was; }
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
# A lost greedy game reviewed on a small budget, every tenth move from the fourth flagged as a
# made-up inaccuracy (the review's judge stood in for, in the kernel): flags to go to.
REVIEWED = """
import dataclasses, importlib
from milligan_widget import Game, strategy
from milligan_widget.analysis import Chance, Judgement
_review_module = importlib.import_module("milligan_widget.analysis.review")  # not the function
_real_entry = _review_module.Judge.entry
def _made_up(self, entry, *args):
    entry = _real_entry(self, entry, *args)
    if entry.ply % 10 != 3:
        return entry
    judged = Judgement(entry.ply, entry.move, "inaccuracy", Chance(3, 4), Chance(1, 4))
    return dataclasses.replace(entry, judgement=judged)
_review_module.Judge.entry = _made_up
_lost = strategy.play_game(Game.new(2), strategy.greedy, max_moves=400)
widget.game = _lost
try:
    widget.review(wait=True, time_limit=0.1, samples=2, node_limit=1_000, seed=1)
finally:
    _review_module.Judge.entry = _real_entry
"""


def audit(nb: Notebook, where: str) -> list[str]:
    """The serious and critical violations axe finds in the widget, in words."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm install` in js/ (axe-core is a devDependency)")
    if nb.page.evaluate("typeof window.axe") == "undefined":
        nb.page.add_script_tag(path=str(AXE))
    found = nb.widget.evaluate(AUDIT)
    assert nb.widget.evaluate(CONTRAST_CHECKED) >= 10, "axe checked no colour contrast"
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
    fresh_game(nb, seed=27)  # a shipped deal: the status bar says its band
    nb.kernel.run("widget.deal(); widget.deal()")  # covered cards, runs
    expect(nb.stat("moves")).to_have_text("2")
    problems = audit(nb, f"the board ({theme})")
    card = nb.pile("t1").locator("[data-card]").last
    card.focus()
    nb.page.keyboard.press("Enter")  # a card held: pressed, and the targets lit
    expect(card).to_have_attribute("aria-pressed", "true")
    problems += audit(nb, f"a card held ({theme})")
    nb.page.keyboard.press("Escape")
    nb.widget.locator('[data-role="deal-about"]').click()  # the deal's why, open
    expect(nb.widget.locator('[data-role="deal-why"]')).to_be_visible()
    problems += audit(nb, f"the deal's why ({theme})")
    nb.screenshot(f"audit-deal-why-{theme}.png")
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
        replay.locator(".mw-movelist").focus()
        nb.page.keyboard.press("Home")
        nb.page.keyboard.press("Shift+ArrowRight")  # to the first flagged move: in sight
        first = nb.kernel.eval("widget.game_review['flags'][0]['ply']")
        expect(replay.locator(".mw-replay-count")).to_have_text(re.compile(f"^Move {first} of"))
        flagged = replay.locator(f'.mw-move.mw-flagged[data-ply="{first + 1}"]')
        expect(flagged).to_be_visible()
        assert _inside(flagged.bounding_box(), replay.locator(".mw-movelist").bounding_box())
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
