"""The widget package's layers (issue 23), as tests/test_engine_interface.py checks the
engine's: each module imports only modules of the layers below its own, so the folder reads
bottom up, and a new module has to be given its place here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WIDGET = Path(__file__).resolve().parents[2] / "milligan_widget" / "widget"
PREFIX = "milligan_widget.widget"
LAYERS = [
    ["words", "lock", "view", "requests", "scores", "storage", "assistant.honesty"],  # basics
    ["modes", "assistant.jobs"],
    ["assistant.winning_line", "assistant.coach"],
    [
        "assistant.hints",
        "assistant.indicator",
        "assistant.review",
        "assistant.solution",
        "setaside",
    ],
    ["assistant"],  # the solver's jobs, shown only through a Host
    ["table"],  # the gate in and the door out
    ["playing", "teaching", "helping", "keeping"],  # what the player does, one room each
    ["milligan"],  # the widget class: traits, public methods, the request path
    [""],  # the package
]
RANK = {name: rank for rank, layer in enumerate(LAYERS) for name in layer}


def module_name(path: Path) -> str:
    parts = path.relative_to(WIDGET).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def widget_imports(path: Path) -> set[str]:
    """The widget's modules ``path`` imports (``from milligan_widget.widget import view`` too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PREFIX):
            name = (node.module or "")[len(PREFIX) :].lstrip(".")
            for alias in node.names:
                sub = f"{name}.{alias.name}" if name else alias.name
                found.add(sub if sub in RANK else name)
    return found


MODULES = sorted(WIDGET.rglob("*.py"))


def test_every_module_has_its_layer() -> None:
    assert sorted(module_name(p) for p in MODULES) == sorted(RANK)


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_a_module_imports_only_the_layers_below_it(path: Path) -> None:
    rank = RANK[module_name(path)]
    above = {name for name in widget_imports(path) if RANK[name] >= rank}
    assert above == set()
