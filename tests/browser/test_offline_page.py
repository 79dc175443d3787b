"""The page of `Game.to_html` in headless chromium with the network off: the replay viewer
steps through the game with its buttons, the slider, the move list and the keys, no request
leaves the page, and a comment made to look like a script stays text.

Only the `browser` fixture of conftest.py is used (chromium as the other browser tests launch
it); no JupyterLab is started.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from milligan_widget import Game
from milligan_widget.strategy import greedy, play_game

from .lab import ARTIFACTS

NASTY = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
MOVES = 40


@dataclass
class OfflinePage:
    page: Any
    game: Game
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def header(self) -> str:
        """The picture's own first line ("... · move 12 · stock 40 · ...")."""
        return self.page.locator("#mm-board .mm-label").inner_text()

    def ply(self) -> int:
        found = re.search(r"· move (\d+) ·", self.header())
        assert found, self.header()
        return int(found.group(1))

    def cards(self) -> int:
        return self.page.locator("#mm-board .mm-card:not(.mm-stock)").count()

    def click(self, name: str) -> None:
        self.page.locator(f"#mm-{name}").click()

    def current_move_in_view(self) -> bool:
        """Is the highlighted move wholly inside the move list's scrolled view?"""
        return self.page.evaluate(
            """() => {
              const list = document.getElementById("mm-moves").getBoundingClientRect();
              const item = document.querySelector("#mm-moves li.mm-current")
                .getBoundingClientRect();
              return item.top >= list.top - 1 && item.bottom <= list.bottom + 1;
            }"""
        )


def expected_cards(game: Game, ply: int) -> int:
    position = game.position_after(ply)
    shown = sum(map(len, position.tableau)) + len(position.reserve)
    return shown + sum(1 for pile in position.foundations if pile)


@pytest.fixture
def page_file(tmp_path: Path) -> tuple[Game, Path]:
    game = play_game(Game.new(7), greedy, max_moves=MOVES)
    assert game.ply == MOVES
    game.set_comment(NASTY, 2)
    game.set_comment("the last move", MOVES)
    path = tmp_path / "game.html"
    game.to_html(path)
    return game, path


def open_offline(
    browser: Any, game: Game, path: Path, fragment: str = "", **options: Any
) -> OfflinePage:
    context = browser.new_context(offline=True, viewport={"width": 1100, "height": 900}, **options)
    page = context.new_page()
    seen = OfflinePage(page, game)

    def route(route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            seen.blocked.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    page.on("request", lambda request: seen.requests.append(request.url))
    page.on("dialog", lambda dialog: (seen.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.on("console", lambda msg: seen.errors.append(msg.text) if msg.type == "error" else None)
    page.goto(path.as_uri() + fragment)
    return seen


@pytest.fixture
def offline(browser: Any, page_file: tuple[Game, Path]) -> Iterator[OfflinePage]:
    game, path = page_file
    seen = open_offline(browser, game, path)
    yield seen
    seen.page.context.close()


def test_the_viewer_steps_through_the_game_offline(offline: OfflinePage):
    page, game = offline.page, offline.game
    page.locator("#mm-controls").wait_for(state="visible")
    assert offline.ply() == MOVES and offline.cards() == expected_cards(game, MOVES)
    assert offline.current_move_in_view()
    offline.click("first")
    assert offline.ply() == 0 and offline.cards() == expected_cards(game, 0)
    assert offline.current_move_in_view()
    assert page.locator("#mm-caption").inner_text() == "The deal"
    offline.click("next")
    offline.click("next")
    assert offline.ply() == 2 and offline.cards() == expected_cards(game, 2)
    offline.click("back")
    assert offline.ply() == 1 and page.locator("#mm-caption").inner_text().startswith("1. ")
    offline.click("last")
    assert offline.ply() == MOVES
    assert page.locator("#mm-caption").inner_text().endswith("— the last move")
    assert offline.current_move_in_view()
    assert page.locator("#mm-next").is_disabled() and not page.locator("#mm-back").is_disabled()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-page.png"), full_page=True)
    assert offline.requests == [page.url.split("#")[0]]  # the file itself, nothing else
    assert offline.blocked == [] and offline.errors == [] and offline.dialogs == []


def test_the_slider_the_move_list_and_the_keys(offline: OfflinePage):
    page, game = offline.page, offline.game
    page.locator("#mm-controls").wait_for(state="visible")
    page.locator("#mm-slider").fill("5")
    assert offline.ply() == 5 and offline.cards() == expected_cards(game, 5)
    page.locator('#mm-moves li[data-ply="9"]').click()
    assert offline.ply() == 9
    assert page.locator("#mm-moves li.mm-current").get_attribute("data-ply") == "9"
    assert page.locator("#mm-slider").input_value() == "9"
    page.locator("h1").click()  # the focus off the slider: the keys are the page's
    page.keyboard.press("ArrowLeft")
    assert offline.ply() == 8
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert offline.ply() == 10
    page.keyboard.press("Home")
    assert offline.ply() == 0
    page.keyboard.press("ArrowLeft")  # nothing before the deal
    assert offline.ply() == 0
    page.keyboard.press("End")
    assert offline.ply() == MOVES
    assert offline.errors == [] and offline.blocked == []


def test_a_comment_that_looks_like_a_script_stays_text(offline: OfflinePage):
    page = offline.page
    page.locator("#mm-controls").wait_for(state="visible")
    page.locator('#mm-moves li[data-ply="2"]').click()
    assert page.locator("#mm-caption").inner_text().endswith("— " + NASTY)
    assert page.locator('#mm-moves li[data-ply="2"] .mm-note').inner_text() == NASTY
    assert page.locator("img").count() == 0 and page.locator("script").count() == 2
    page.wait_for_timeout(200)
    assert offline.dialogs == [] and offline.errors == [] and offline.blocked == []


def test_the_page_opens_on_the_ply_in_its_address(browser: Any, page_file: tuple[Game, Path]):
    game, path = page_file
    seen = open_offline(browser, game, path, "#ply=3")
    assert seen.ply() == 3
    seen.click("next")
    assert seen.page.url.endswith("#ply=4")
    seen.page.context.close()


def test_without_javascript_the_page_still_shows_the_game(
    browser: Any, page_file: tuple[Game, Path]
):
    game, path = page_file
    seen = open_offline(browser, game, path, java_script_enabled=False)
    page = seen.page
    assert seen.ply() == MOVES and seen.cards() == expected_cards(game, MOVES)
    assert not page.locator("#mm-controls").is_visible()
    assert page.locator("#mm-moves li").count() == MOVES + 1
    assert page.locator("#mm-caption").inner_text().endswith("— the last move")
    page.context.close()
