"""A `Review` as a plain notebook output in real JupyterLab: the chart draws (JupyterLab keeps
its style), one point per move, and its "auto" colours follow JupyterLab's light and dark
themes. Screenshots: test-artifacts/review-output-*.png."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import expect

from .lab import ARTIFACTS, TOKEN, LabServer, wait_idle

NAME = "review-output.ipynb"
CELL = """\
from milligan_widget import Game
from milligan_widget.analysis import review
from milligan_widget.strategy import greedy, play_game
game = play_game(Game.new(2), greedy, max_moves=400)
done = review(game, time_limit=5.0, samples=3, node_limit=3_000, seed=1)
done
"""
CHANGE_THEME = "window.jupyterapp.commands.execute('apputils:change-theme', {theme: %r})"
COLOURS = """chart => {
  const probe = document.createElement('div');
  probe.style.background = 'var(--jp-layout-color1)';
  document.body.append(probe);
  const jupyter = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return [getComputedStyle(chart.querySelector('.mm-bg')).fill, jupyter];
}"""


def shut_down(lab: LabServer, name: str) -> None:
    """End the notebook's kernel: the other tests find theirs by name among the sessions."""
    for session in sessions_of(lab, name):
        url = lab.api(f"sessions/{session['id']}")
        urllib.request.urlopen(urllib.request.Request(url, method="DELETE"), timeout=5).close()
    assert sessions_of(lab, name) == []


def sessions_of(lab: LabServer, name: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(lab.api("sessions"), timeout=5) as response:
        return [s for s in json.loads(response.read()) if s["path"].endswith(name)]


def set_theme(page: Any, theme: str) -> None:
    page.evaluate(CHANGE_THEME % theme)
    light = "true" if "Light" in theme else "false"
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", light)
    expect(page.locator("#jupyterlab-splash")).to_have_count(0, timeout=15_000)


def test_a_review_shows_its_chart_in_jupyterlab(lab: LabServer, browser: Any, tmp_path: Path):
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernel}
    )
    nbformat.write(notebook, tmp_path / NAME)
    lab.add_notebook(tmp_path / NAME)
    context = browser.new_context(viewport={"width": 1280, "height": 1200})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{lab.url}/lab/tree/{NAME}?token={TOKEN}")
        wait_idle(page)
        page.evaluate(f"window.jupyterapp.commands.execute('docmanager:open', {{path: {NAME!r}}})")
        wait_idle(page)
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        chart = page.locator(".jp-OutputArea .mm-review-chart")
        chart.wait_for(timeout=60_000)
        output = page.locator(".jp-OutputArea-output .mm-review")
        expect(output).to_contain_text("Until move 5 this deal could still be won")
        assert chart.locator(".mm-point").count() == 71  # the greedy game's 71 moves
        ARTIFACTS.mkdir(exist_ok=True)
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            set_theme(page, theme)
            fill, jupyter = chart.evaluate(COLOURS)
            assert fill == jupyter, f"the chart should take {theme}'s background"
            tag = "light" if "Light" in theme else "dark"
            output.screenshot(path=str(ARTIFACTS / f"review-output-{tag}.png"))
        assert errors == []
    finally:
        set_theme(page, "JupyterLab Light")
        context.close()
        shut_down(lab, NAME)
