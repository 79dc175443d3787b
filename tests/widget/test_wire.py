"""The wire widget: its module, its bundle, the first view it sends.

`Browser` (tests/widget/simulate.py) plays the front end's part.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from milligan_widget import PRESETS, Game
from milligan_widget.widget import MilliganWidget
from tests.widget.simulate import Browser


# ------------------------------------------------------------------ the module
def test_importing_the_engine_does_not_import_the_widget() -> None:
    code = (
        "import sys, milligan_widget; "
        "assert 'milligan_widget.widget' not in sys.modules; "
        "assert 'anywidget' not in sys.modules; "
        "from milligan_widget import MilliganWidget; "
        "assert MilliganWidget.__name__ == 'MilliganWidget'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bundle_is_built_and_referenced() -> None:
    assert "render" in str(MilliganWidget._esm)
    assert ".mw-card" in str(MilliganWidget._css)
    assert 'from"http' not in str(MilliganWidget._esm).replace(" ", ""), "bundle everything"


# ------------------------------------------------------------------ the initial view
def test_initial_view_shows_the_deal() -> None:
    widget = MilliganWidget(seed=7)
    view = widget.view
    assert [len(col) for col in view["columns"]] == [1] * 8
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]
    assert view["stats"] == {"foundations": 0, "stock": 96, "reserve": 0, "tableau": 8, "moves": 0}
    assert view["stock"] == 96 and view["can_deal"] is True
    assert view["reserve"] == [] and view["reserve_open"] is False
    assert [f["suit"] for f in view["foundations"]] == list(widget.game.foundation_suits)
    assert view["status"] == "playing" and view["seed"] == 7
    assert widget.rules_info["name"] == "classic"
    assert widget.rules_info["lines"] == list(widget.game.rules.describe())
    assert set(widget.rules_info["presets"]) == set(PRESETS)
    json.dumps(view)
    json.dumps(widget.rules_info)


def test_targets_list_every_legal_move_of_the_engine() -> None:
    widget = MilliganWidget(seed=11)
    for _ in range(4):
        widget.deal()
    targets = widget.view["targets"]
    for move in widget.game.legal_moves:
        if move.source == "stock":
            continue
        key = f"{move.source}:{move.count or 1}"
        assert key in targets, move
        if (move.target or "")[:1] in "tr" and move.target not in ("f", "c"):
            assert move.target in targets[key], move


def test_stock_order_never_reaches_the_browser() -> None:
    """Two deals that differ only in the stock's order look the same to the browser."""
    cards = _full_deck()
    middle = cards[20:84]
    shuffled = middle[::-1]
    deck_a = cards
    deck_b = cards[:20] + shuffled + cards[84:]
    a = MilliganWidget(game=Game.from_deck(deck_a), hint_time=0)
    b = MilliganWidget(game=Game.from_deck(deck_b), hint_time=0)
    assert a.game.tableau == b.game.tableau
    assert json.dumps(a.view, sort_keys=True) == json.dumps(b.view, sort_keys=True)
    browser_a, browser_b = Browser(a), Browser(b)
    browser_a.request({"type": "hint"})
    browser_b.request({"type": "hint"})
    assert browser_a.sent == browser_b.sent
    # The solver sees the stock, so its hint may differ, but it is one move, never a line.
    for widget in (a, b):
        widget.hint_time = 0.5
        widget.hint()
        assert isinstance(widget.view["hint"], dict) and "moves" not in widget.view


def _full_deck() -> list[Any]:
    from milligan_widget import Card

    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [Card.parse(r + s) for _ in range(2) for s in "CSHD" for r in ranks]


def _widget_modules() -> list[str]:
    import pkgutil

    import milligan_widget.widget as package

    return ["widget"] + [f"widget.{info.name}" for info in pkgutil.iter_modules(package.__path__)]


@pytest.mark.parametrize("module", _widget_modules())
def test_the_widget_modules_docstring_examples(module: str) -> None:
    """Every room of the widget shows how it is used, and its example runs."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"milligan_widget.{module}"))
    assert result.failed == 0 and result.attempted > 0


def test_the_display_data_carries_a_static_picture_of_the_position() -> None:
    widget = MilliganWidget(seed=27)
    widget.play("d")
    data, _metadata = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert html == widget.game._repr_html_() and "<script" not in html.lower()
    widget.play("d")
    assert widget._repr_mimebundle_()[0]["text/html"] != html  # the position as it is now
