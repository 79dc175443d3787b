"""The README's play command installs everything the example notebooks import: each
notebook's imports are the standard library, the package, or distributions that the
package's own requirements and the extras of that command bring (followed through what each
installed distribution requires in turn)."""

from __future__ import annotations

import importlib.metadata as metadata
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
tomllib = pytest.importorskip("tomllib")
#: modules of the package that need an extra, and the distribution each needs
NEEDS = {"milligan_widget.studies.env": "gymnasium"}


def play_extras() -> list[str]:
    line = next(x for x in (ROOT / "README.md").read_text().splitlines() if "jupyter lab" in x)
    found = re.search(r'pip install -e "\.\[([\w,-]+)\]"', line)
    assert found, f"the README's play command installs no extras: {line}"
    return found.group(1).split(",")


def name_of(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def installed_closure(names: set[str]) -> set[str]:
    """``names`` and every distribution they require, as installed here (extras left out)."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [name_of(r) for r in requires if "extra ==" not in r]
    return seen


def notebook_imports(path: Path) -> set[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return set(re.findall(r"^\s*(?:from|import)\s+([\w.]+)", code, flags=re.MULTILINE))


def test_the_play_command_brings_what_every_example_imports():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {name_of(r) for r in project["dependencies"]}
    for extra in play_extras():
        wanted |= {name_of(r) for r in project["optional-dependencies"][extra]}
    installed = installed_closure(wanted)
    owners = metadata.packages_distributions()
    missing = {}
    for path in sorted((ROOT / "examples").glob("*.ipynb")):
        for module in notebook_imports(path):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            if top == "milligan_widget":
                needed = {NEEDS[m] for m in NEEDS if module.startswith(m)}
            else:
                needed = {d.lower() for d in owners.get(top, [top])}
                needed = needed if not needed & installed else set()
            if needed - installed:
                missing.setdefault(path.name, []).append(module)
    assert not missing, f"the README's play command does not install these imports: {missing}"
