"""Every module's docstring examples run, found by walking the package: a new module is
covered without adding it to a list. A module that cannot be imported here (an optional
dependency missing) is skipped with the reason."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import milligan_widget

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(milligan_widget.__path__, prefix="milligan_widget.")
    if not info.name.rsplit(".", 1)[-1].startswith("_")
)


def test_the_walk_finds_the_modules():
    wanted = {"engine.game", "teaching.tutorial", "studies.env", "analysis.words"}
    assert {f"milligan_widget.{name}" for name in wanted} <= set(MODULES)


@pytest.mark.parametrize("name", ["milligan_widget", *MODULES])
def test_the_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        pytest.skip(f"{name} does not import here: {error}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
