"""What the player sees, in real JupyterLab: nothing overflows a narrow widget, panels open
in view, the board never jumps, a tall column stays legible, both themes, and the
screenshots the README shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.lines import WIN_8

from .conftest import Notebook
from .gestures import BACKGROUND, luminance, rgb, settle
from .test_browser import fresh_game, set_theme

# Every visible element of the widget whose box leaves the widget's box (1 px of slack).
OVERFLOWING = """root => {
  const outer = root.getBoundingClientRect();
  const out = [];
  for (const el of root.querySelectorAll('*')) {
    if (el.closest('[hidden]') || el.closest('[data-role="ghost"]')) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (box.left < outer.left - 1 || box.right > outer.right + 1) {
      out.push(`${el.tagName}.${el.className} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return out;
}"""
# The distinct rows the toolbar's visible controls sit on.
TOOLBAR_ROWS = """bar => {
  const tops = new Set();
  for (const el of bar.querySelectorAll('button, input, select, label, .mw-verdict')) {
    if (el.closest('.mw-menu')) continue;
    const box = el.getBoundingClientRect();
    if (box.width && box.height) tops.add(Math.round(box.top + box.height / 2) >> 3);
  }
  return tops.size;
}"""
# Is ``inner`` wholly inside ``outer`` (boxes as Playwright gives them)?


def _inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def _narrow(nb: Notebook) -> None:
    """A 700 px window with the file browser open: about 330 px for the widget."""
    nb.page.set_viewport_size({"width": 700, "height": 1200})
    nb.page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
    expect(nb.page.locator("#filebrowser")).to_be_visible()


def _wide(nb: Notebook) -> None:
    nb.page.evaluate("window.jupyterapp.shell.collapseLeft()")
    nb.page.set_viewport_size({"width": 1280, "height": 1500})


# ------------------------------------------------------------------ widths
def test_a_narrow_widget_has_no_overflow(notebook: Notebook) -> None:
    fresh_game(notebook)
    _narrow(notebook)
    try:
        expect(notebook.widget).to_have_class(re.compile("mw-narrow"))
        width = notebook.widget.evaluate("el => el.getBoundingClientRect().width")
        assert 300 <= width <= 360, f"the narrow case should be about 330 px wide, not {width}"
        assert notebook.widget.evaluate(OVERFLOWING) == []
        assert notebook.widget.locator(".mw-toolbar").evaluate(TOOLBAR_ROWS) <= 2
        reserve = notebook.pile("reserve").bounding_box()
        label = notebook.pile("reserve").locator(".mw-pile-label")
        for part in (label.locator(".mw-label-name"), label.locator(".mw-label-state")):
            assert _inside(part.bounding_box(), reserve), "the reserve's label leaves its frame"
        board = notebook.widget.locator(".mw-board").bounding_box()
        assert _inside(notebook.message().bounding_box(), board), "the message leaves the felt"
        notebook.screenshot("widget-narrow.png")
        # Everything the toolbar had is still within reach, in its menu.
        notebook.widget.locator('button[data-action="more"]').click()
        menu = notebook.widget.locator(".mw-menu")
        expect(menu).to_be_visible()
        expect(menu.locator('[data-action="restart"]')).to_be_visible()
        assert notebook.widget.evaluate(OVERFLOWING) == []
        notebook.widget.locator('button[data-action="more"]').click()
        expect(menu).to_be_hidden()
    finally:
        _wide(notebook)


@pytest.mark.parametrize("width", [850, 900, 1000])
def test_at_normal_width_the_toolbar_is_one_row(notebook: Notebook, width: int) -> None:
    fresh_game(notebook)
    notebook.widget.evaluate(f"el => {{ el.style.width = '{width}px'; }}")
    try:
        expect(notebook.widget).not_to_have_class(re.compile("mw-narrow"))
        settle(notebook.page, notebook.widget)  # the difficulty choice finds its place
        assert notebook.widget.locator(".mw-toolbar").evaluate(TOOLBAR_ROWS) == 1
        assert notebook.widget.evaluate(OVERFLOWING) == []
    finally:
        notebook.widget.evaluate("el => { el.style.width = ''; }")


@pytest.mark.parametrize("viewport", [560, 900, 1280])
def test_the_reserve_frame_is_at_least_a_card_high(notebook: Notebook, viewport: int) -> None:
    fresh_game(notebook)
    notebook.kernel.run("widget.deal()")
    notebook.page.set_viewport_size({"width": viewport, "height": 1200})
    try:
        settle(notebook.page, notebook.widget)
        card = notebook.pile("t1").locator("[data-card]").last.bounding_box()
        reserve = notebook.pile("reserve").bounding_box()
        assert reserve["height"] >= card["height"] - 0.5
    finally:
        _wide(notebook)


# ------------------------------------------------------------------ panels and the board
def test_the_rules_panel_opens_in_view(notebook: Notebook) -> None:
    fresh_game(notebook)
    page = notebook.page
    page.set_viewport_size({"width": 1280, "height": 900})
    try:
        notebook.widget.evaluate("el => el.scrollIntoView({block: 'start'})")
        notebook.widget.locator('button[data-action="rules"]').click()
        panel = notebook.widget.locator(".mw-rules")
        expect(panel).to_be_visible()
        box = panel.bounding_box()
        assert box["y"] >= 0 and box["y"] + 60 <= 900, "the Rules panel opened out of sight"
        expect(panel.locator("h3")).to_be_in_viewport()
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
    finally:
        _wide(notebook)


def test_winning_is_a_moment_that_does_not_move_the_board(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8)
    board = notebook.widget.locator(".mw-board")
    before = board.bounding_box()
    notebook.kernel.run(f"widget.replay({WIN_8.split()!r}, delay=0)")
    banner = notebook.widget.locator(".mw-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You won!")
    expect(banner).to_contain_text(re.compile(r"in \d+:\d\d"))  # the time
    expect(banner).to_contain_text(f"{len(WIN_8.split())} moves")
    expect(banner.locator('button[data-action="new"]')).to_be_visible()
    after = board.bounding_box()
    assert abs(after["y"] - before["y"]) < 1 and abs(after["height"] - before["height"]) < 1
    assert _inside(banner.bounding_box(), after), "the celebration is drawn over the felt"
    expect(notebook.message()).to_have_attribute("data-kind", "won")
    assert notebook.kernel.eval("widget.game.status") == "won"
    notebook.screenshot("widget-won.png")
    banner.locator('button[data-action="new"]').click()
    expect(banner).to_be_hidden()
    expect(notebook.stat("moves")).to_have_text("0")


TALL = (
    "from milligan_widget.teaching.lessons import stage\n"
    "widget.game = stage({1: 'KS QH JC 10D 9S 8H 7C 6D 5S 4H 3C 2D KH QC JD 10S 9H 8C 7D 6S"
    " 5H 4C 3D 2S AH', 2: 'QS QD JS'})"
)


def test_a_tall_column_keeps_every_index_readable(notebook: Notebook) -> None:
    notebook.kernel.run(TALL)
    cards = notebook.pile("t1").locator("[data-card]")
    expect(cards).to_have_count(25)
    boxes = cards.evaluate_all(
        """cards => cards.slice(0, -1).map((card, i) => {
          const index = card.querySelector('.mw-tl b').getBoundingClientRect();
          const next = cards[i + 1].getBoundingClientRect();
          return {card: card.dataset.card, bottom: index.bottom, next: next.top,
                  height: index.height};
        })"""
    )
    for box in boxes:  # the rank's glyph ends above the card that covers the rest
        assert box["bottom"] <= box["next"] + 0.5, f"{box['card']}'s index is cut off"
        assert box["height"] >= 9, f"{box['card']}'s index is too small to read"
    notebook.screenshot("widget-tall-column.png")


# ------------------------------------------------------------------ themes
@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
def test_the_widget_follows_jupyterlabs_theme(notebook: Notebook, theme: str) -> None:
    set_theme(notebook, theme)
    try:
        want = "light" if "Light" in theme else "dark"
        expect(notebook.widget).to_have_attribute("data-theme", want)
        colours = notebook.widget.evaluate(
            """el => {
              const probe = document.createElement('div');
              probe.style.background = 'var(--jp-layout-color1)';
              document.body.append(probe);
              const jupyter = getComputedStyle(probe).backgroundColor;
              probe.remove();
              return [getComputedStyle(el).backgroundColor, jupyter];
            }"""
        )
        assert rgb(colours[0]) == rgb(colours[1]), "the widget should take JupyterLab's colours"
    finally:
        set_theme(notebook, "JupyterLab Light")


def test_the_theme_setting_overrides_the_host(notebook: Notebook) -> None:
    set_theme(notebook, "JupyterLab Light")
    try:
        notebook.kernel.run("widget.theme = 'dark'")
        expect(notebook.widget).to_have_attribute("data-theme", "dark")
        assert luminance(notebook.widget.evaluate(BACKGROUND)) < 0.2
        notebook.screenshot("widget-forced-dark.png")
        set_theme(notebook, "JupyterLab Dark")
        notebook.kernel.run("widget.theme = 'light'")
        expect(notebook.widget).to_have_attribute("data-theme", "light")
        assert luminance(notebook.widget.evaluate(BACKGROUND)) > 0.8
    finally:
        notebook.kernel.run("widget.theme = 'auto'")
        set_theme(notebook, "JupyterLab Light")
        expect(notebook.widget).to_have_attribute("data-theme", "light")


# ------------------------------------------------------------------ what stays on show
def test_the_deal_and_the_rules_stay_on_show(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8, rules="millie")
    game = notebook.widget.locator('[data-role="game-name"]')
    expect(game).to_have_text(re.compile(r"#8.*millie", re.I))
    notebook.kernel.run("widget.deal()")
    expect(game).to_have_text(re.compile(r"#8.*millie", re.I))
    fresh_game(notebook)


def test_a_bad_deal_number_keeps_what_was_typed_and_says_why(notebook: Notebook) -> None:
    fresh_game(notebook)
    box = notebook.widget.locator("input.mw-seed")
    box.fill("12abc")
    box.press("Enter")
    expect(notebook.message()).to_have_attribute("data-kind", "error")
    expect(notebook.message()).to_contain_text("deal number")
    expect(notebook.message()).not_to_contain_text("Request refused")
    expect(box).to_have_value("12abc")
    assert notebook.kernel.eval("widget.game.seed") == 2024
    box.fill("")


# For each card of a column, the rank's font size and whether the
# rank is wholly in sight (inside the card, and not under the next card).
RANKS = """pile => [...pile.querySelectorAll('.mw-card')].map((card, i, cards) => {
  const rank = card.querySelector('.mw-tl b'), r = rank.getBoundingClientRect();
  const box = card.getBoundingClientRect(), next = cards[i + 1]?.getBoundingClientRect();
  return {width: box.width, font: parseFloat(getComputedStyle(rank).fontSize),
          seen: r.left >= box.left && r.right <= box.right && r.top >= box.top
                && r.bottom <= (next ? next.top : box.bottom) + 0.5}; })"""


def test_in_a_narrow_notebook_every_rank_stays_readable(notebook: Notebook) -> None:
    """About 330 px, cards about 36 px wide: the ranks of the top cards and of the covered
    strips are drawn at 11 px or more, in sight (no pips, too small to read); a long column
    grows taller rather than squeezing its strips below that."""
    fresh_game(notebook)
    notebook.kernel.run("widget.deal(); widget.deal(); widget.deal()")
    expect(notebook.stat("moves")).to_have_text("3")
    _narrow(notebook)
    try:
        expect(notebook.widget).to_have_class(re.compile("mw-small-cards"))
        settle(notebook.page, notebook.widget)
        for pile in ("t1", "t8"):
            cards = notebook.pile(pile).evaluate(RANKS)
            assert len(cards) == 4, cards
            assert all(card["font"] >= 11 and card["seen"] for card in cards), (pile, cards)
        assert notebook.widget.evaluate(OVERFLOWING) == []
        notebook.screenshot("narrow-cards.png")
        set_theme(notebook, "JupyterLab Dark")
        notebook.screenshot("narrow-cards-dark.png")
    finally:
        set_theme(notebook, "JupyterLab Light")
        _wide(notebook)
