"""What a player expects to keep, in real JupyterLab: Save and Open from the toolbar, and a
game that survives a kernel restart (auto-save, then Resume)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Notebook
from .gestures import drag
from .lab import Kernel, LabServer, open_notebook, wait_idle

NOTEBOOK = "keep.ipynb"
CELLS = [
    "from milligan_widget import MilliganWidget\n\nfirst = MilliganWidget(seed=8)\nfirst",
    "second = MilliganWidget(seed=5)\nsecond",
]


def _write_notebook(lab: LabServer) -> None:
    cells = [
        {"cell_type": "code", "id": f"keep-{n}", "metadata": {}, "source": source,
         "outputs": [], "execution_count": None}
        for n, source in enumerate(CELLS)
    ]  # fmt: skip
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.root / NOTEBOOK).write_text(json.dumps(notebook), encoding="utf-8")


@pytest.fixture(scope="module")
def keep(lab: LabServer, browser: Any) -> Iterator[Notebook]:
    """keep.ipynb (two games) open in JupyterLab, with a client of its kernel."""
    _write_notebook(lab)
    context = browser.new_context(viewport={"width": 1280, "height": 1500})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_notebook(page, lab, NOTEBOOK, widgets=2)
    kernel = Kernel(lab.kernel_connection_file(NOTEBOOK))
    yield Notebook(page, kernel, lab, errors, [], [])
    kernel.close()
    context.close()


def _second(nb: Notebook) -> Any:
    return nb.page.locator(".mw-root").nth(1)


def _from_menu(widget: Any, action: str) -> None:
    """Open the "⋯" menu and press its item ``action`` (Save, Open…, Statistics)."""
    widget.locator('button[data-action="more"]').click()
    widget.locator(f'.mw-menu button[data-action="{action}"]').click()


def test_save_in_one_game_and_open_it_in_another(keep: Notebook) -> None:
    keep.pile("stock").click()
    keep.pile("stock").click()
    expect(keep.stat("moves")).to_have_text("2")
    _from_menu(keep.widget, "save")
    expect(keep.message()).to_contain_text("Saved as milligan-deal-8-")
    name = keep.kernel.eval("sorted(p.name for p in __import__('pathlib').Path().glob('*.json'))")
    assert len(name) == 1 and (keep.lab.root / name[0]).exists()

    second = _second(keep)
    _from_menu(second, "files")
    sheet = second.locator(".mw-files-sheet")
    expect(sheet).to_be_visible()
    entry = sheet.locator(f'button[data-name="{name[0]}"]')
    expect(entry).to_be_visible()
    expect(sheet).to_contain_text("deal #8 · classic · 2 moves · playing")
    assert "stock" not in (sheet.inner_html()).lower()
    entry.click()
    expect(sheet).to_be_hidden()
    expect(second.locator('[data-stat="moves"]')).to_have_text("2")
    assert keep.kernel.eval("second.game == first.game and second.game.seed == 8")
    assert keep.errors == []


def test_a_game_survives_a_kernel_restart_and_comes_back_on_resume(keep: Notebook) -> None:
    keep.kernel.run("first.new_game(27)")
    expect(keep.stat("moves")).to_have_text("0")
    keep.pile("stock").click()
    expect(keep.stat("moves")).to_have_text("1")
    move = keep.kernel.eval(
        "[(m.source, m.target) for m in first.game.legal_moves"
        " if m.source.startswith('t') and m.target.startswith('t')][:1]"
    )
    if move:
        (source, target), = move
        drag(keep.page, keep.pile(f"t{source[1:]}").locator("[data-card]").last,
             keep.pile(f"t{target[1:]}"))  # fmt: skip
    # The page shows a move once the kernel has played it: read the history after that (a
    # kernel client's question may overtake the drop's message on its way to the kernel).
    expect(keep.stat("moves")).to_have_text(str(1 + len(move)))
    played = keep.kernel.eval("[str(m) for m in first.game.history]")
    assert len(played) == 1 + len(move)

    # Restart the kernel and run every cell again, as a player would after a crash.
    # (Not awaited: the command waits for the dialog's answer.)
    keep.page.evaluate("() => { window.jupyterapp.commands.execute('notebook:restart-run-all'); }")
    keep.page.locator(".jp-Dialog-button.jp-mod-accept").click()
    wait_idle(keep.page)
    offer = keep.widget.locator('[data-role="resume"]')
    expect(offer).to_be_visible(timeout=30_000)
    expect(offer).to_contain_text(f"deal #27 (classic) after {len(played)} move")
    expect(keep.stat("moves")).to_have_text("0")  # the cell dealt deal 8 afresh
    offer.locator('[data-role="resume-yes"]').click()
    expect(offer).to_be_hidden()
    expect(keep.stat("moves")).to_have_text(str(len(played)))
    kernel = Kernel(keep.lab.kernel_connection_file(NOTEBOOK))
    try:
        assert kernel.eval("[str(m) for m in first.game.history]") == played
        assert kernel.eval("first.game.seed") == 27
    finally:
        kernel.close()
