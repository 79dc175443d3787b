"""The widget's house (issue 23): one gate in (the mode decides what it takes), one door out
(everything a change shows in one update), typed public methods."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from milligan_widget.widget import MilliganWidget, ModeError
from tests.widget.simulate import Browser

WIDGET = Path(__file__).resolve().parents[2] / "milligan_widget" / "widget"
MODE_NAMES = {"play", "lesson", "replay"}


def _compared_mode_names(tree: ast.AST) -> list[int]:
    """Lines where a mode's name is compared (``== "replay"``, ``in ("play", ...)``)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in [node.left, *node.comparators]:
            values = (
                operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            )
            if any(isinstance(v, ast.Constant) and v.value in MODE_NAMES for v in values):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "path", sorted(p for p in WIDGET.rglob("*.py") if p.name != "modes.py"), ids=lambda p: p.name
)
def test_no_mode_name_is_compared_outside_modes(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _compared_mode_names(tree) == []
    names = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert "forbid_in" not in names  # the gate is Table.require, which asks the mode


def test_python_and_the_browser_are_refused_by_the_same_gate_in_the_same_words() -> None:
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    widget.deal()
    widget.show_replay()
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "undo"}))
    with pytest.raises(ModeError) as refused:
        widget.undo()
    assert view["kind"] == "error" and str(refused.value) == view["message"]
    assert widget.view["message"] == view["message"] and widget.game.ply == 0


@pytest.mark.parametrize(("request_type", "trait"), [("files", "files"), ("stats", "statistics")])
def test_a_panel_comes_with_its_view_in_one_update(request_type: str, trait: str) -> None:
    widget = MilliganWidget(seed=8, stats=False, autosave=False)
    browser = Browser(widget)
    sent = browser.request({"type": request_type})
    assert len(sent) == 1  # one update: the panel's list and the message about it together
    state = sent[0]["state"]
    assert trait in state and state["view"]["message"].startswith(("Open:", "Statistics:"))
