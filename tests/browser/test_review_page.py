"""The page of `Review.to_html` in headless chromium with the network off: the chart draws,
clicking a point or the turning point shows that move in the viewer, a comment made to look
like a script stays text in a tooltip, and the "auto" chart follows the system's light or dark
colour scheme. Screenshots of both go to test-artifacts/.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from milligan_widget import Game
from milligan_widget.analysis import Chance, Judgement, Review, review
from milligan_widget.strategy import greedy, play_game

from .lab import ARTIFACTS
from .test_offline_page import OfflinePage, open_offline

NASTY = "</title></svg><script>alert(1)</script><img src=x onerror=alert(2)>"


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, Any, Path]:
    game = play_game(Game.new(2), greedy, max_moves=400)
    game.set_comment(NASTY, 3)
    done = review(game, time_limit=5.0, samples=3, node_limit=3_000, seed=1)
    assert done.turning_point is not None
    path = tmp_path_factory.mktemp("review") / "review.html"
    done.to_html(game, path)
    return game, done, path


def _made_up(ply: int, move: str) -> Judgement:
    """A judge's made-up inaccuracy of move ``ply``."""
    return Judgement(ply, move, "inaccuracy", Chance(3, 4), Chance(1, 4))


def chart_background(seen: OfflinePage) -> str:
    return seen.page.evaluate(
        "() => getComputedStyle(document.querySelector('#mm-extra .mm-bg')).fill"
    )


@pytest.mark.parametrize(
    ("scheme", "fill"), [("light", "rgb(255, 255, 255)"), ("dark", "rgb(29, 31, 33)")]
)
def test_the_chart_draws_and_its_points_move_the_viewer(browser: Any, reviewed, scheme, fill):
    game, done, path = reviewed
    seen = open_offline(browser, game, path, color_scheme=scheme)
    page = seen.page
    page.locator("#mm-controls").wait_for(state="visible")
    points = page.locator("#mm-extra .mm-point")
    assert points.count() == len(done.entries)
    assert page.locator("#mm-extra .mm-point circle").first.bounding_box()["width"] > 0
    assert chart_background(seen) == fill
    points.nth(10).locator(".mm-hit").click()  # the point's band, wherever its dot sits
    assert seen.ply() == 10
    assert page.locator("#mm-moves li.mm-current").get_attribute("data-ply") == "10"
    page.locator("#mm-extra .mm-turn text").click()
    assert seen.ply() == done.turning_point
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#mm-extra").screenshot(path=str(ARTIFACTS / f"review-page-{scheme}.png"))
    assert seen.errors == [] and seen.blocked == [] and seen.dialogs == []
    page.context.close()


def test_a_comment_in_a_tooltip_stays_text(browser: Any, reviewed):
    game, _, path = reviewed
    seen = open_offline(browser, game, path)
    page = seen.page
    page.locator("#mm-controls").wait_for(state="visible")
    title = page.locator('#mm-extra .mm-point[data-ply="2"] > title').text_content()
    assert title.endswith("; comment: " + NASTY)
    assert page.locator("img").count() == 0 and page.locator("script").count() == 2
    page.wait_for_timeout(200)
    assert seen.dialogs == [] and seen.errors == [] and seen.blocked == []
    page.context.close()


def test_a_mark_for_several_flagged_moves_goes_to_each_in_turn(browser: Any, reviewed, tmp_path):
    """Moves flagged one after another share a mark (their count beside it): a click shows
    the first, the next click the second, and round again."""
    game, done, _ = reviewed
    entries = tuple(
        replace(entry, judgement=_made_up(entry.ply, entry.move) if entry.ply in (20, 21) else None)
        for entry in done.entries
    )
    path = tmp_path / "crowded.html"
    Review(entries, done.final_verdict).to_html(game, path)
    seen = open_offline(browser, game, path)
    page = seen.page
    page.locator("#mm-controls").wait_for(state="visible")
    mark = page.locator('#mm-extra .mm-flag[data-plies="20 21"]')
    assert mark.locator(".mm-count").text_content() == "2"
    for ply in (20, 21, 20):
        mark.locator("path").click()
        assert seen.ply() == ply
    assert seen.errors == [] and seen.blocked == []
    page.context.close()
