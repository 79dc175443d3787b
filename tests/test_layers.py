"""The package's layers (issue 30): one table, bottom up; each module imports only modules of
the layers below its own, inside functions too, so the folders read bottom up and no import
circle can form. A new module has to be given its place here.

Imports under ``if TYPE_CHECKING:`` are not run: they name a type for the checker. They may
name a type from a higher layer of the same folder only (a format names the :class:`Game`
it formats, the chart the ``Review`` it draws); a value object that needs a presentation
(``Game.to_html``, ``Review.svg``) imports it at run time, one way. The widget's own order
inside ``widget/`` is ``tests/widget/test_layers.py``'s.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "milligan_widget"
NAME = "milligan_widget"
LAYERS = [
    # engine/: the rules and one game
    ["engine.errors", "engine.interval", "engine.version", "data"],
    ["engine.cards", "engine.rules", "engine.moves"],
    ["engine.position", "engine.deals"],
    ["engine.layout", "engine.deadlock"],
    ["engine.render", "engine.savefile"],  # formats: the Game only as a type
    ["engine.export"],
    ["engine.game"],
    ["engine"],
    # core/: the search core
    ["core._ccore", "core.interface"],
    ["core.python", "core.compiled"],
    ["core"],
    # search/: what sees the whole deal
    ["search.solver", "search.greedy"],
    ["search"],
    # analysis/: what a player may know
    ["analysis.sampling"],
    ["analysis.buried"],  # face-down cards that can never turn up, seen from the board
    ["analysis.features"],  # what a player sees, as numbers
    ["analysis.evaluate"],  # the seam: a seen position, a limit, a chance
    ["analysis.cache"],  # one cache of chances per visible position
    ["analysis.sampler", "analysis.advice"],  # the sampler's figure; the solver's hint
    ["analysis.calibrated"],  # the chance careful honest play has, from what is seen
    ["analysis.chance"],  # which evaluator answers for the rules: the chance a player is shown
    ["analysis.hint"],
    ["analysis.planner"],  # the honest player's plan across the next deal
    ["analysis.honest", "analysis.flags"],
    ["analysis.words"],
    ["analysis.judge"],  # one move judged as it is played: the live coach's
    ["analysis.chart"],  # the review's presentation: the Review only as a type
    ["analysis.report"],
    ["analysis.review"],
    ["analysis"],
    ["strategy"],  # the catalogue of players
    # teaching/: lessons
    ["teaching.lessons"],
    ["teaching.tutorial"],
    ["teaching"],
    # studies/: many games at once
    ["studies.stats", "studies.difficulty", "studies.env"],
    ["studies.study"],
    ["studies"],
    ["widget"],  # the notebook widget, a layer of its own (its inside: tests/widget)
    [""],  # the package: the public names
]
RANK = {name: rank for rank, layer in enumerate(LAYERS) for name in layer}
FOLDERS = {"engine", "core", "search", "analysis", "teaching", "studies", "widget", "data"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    """The table's name for a module: the widget's modules are one layer."""
    return "widget" if module.startswith("widget") else module


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def resolve(path: Path, node: ast.ImportFrom) -> list[str]:
    """The package's modules an import statement loads: ``from milligan_widget.engine import
    game`` loads ``engine.game``; ``from .game import Game`` loads ``engine.game``."""
    if node.level:
        base = package_of(path).split(".") if package_of(path) else []
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    elif node.module == NAME or (node.module or "").startswith(NAME + "."):
        target = (node.module or "")[len(NAME) + 1 :]
    else:
        return []
    found = []
    for alias in node.names:
        sub = f"{target}.{alias.name}" if target else alias.name
        found.append(sub if layer_of(sub) in RANK else target)
    return [layer_of(name) for name in found]


def type_only(tree: ast.Module) -> set[ast.AST]:
    """The statements under ``if TYPE_CHECKING:``."""
    nodes: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for statement in node.body:
                nodes.update(ast.walk(statement))
    return nodes


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, only for types?) for every import of the package's modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for_types = type_only(tree)
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name[len(NAME) + 1 :] for a in node.names if a.name.startswith(NAME + ".")]
            found += [(layer_of(name), node in for_types) for name in names]
        elif isinstance(node, ast.ImportFrom):
            found += [(name, node in for_types) for name in resolve(path, node)]
    return found


MODULES = sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi")])  # the C core's stub too


def test_every_module_has_its_layer() -> None:
    named = {layer_of(module_name(p)) for p in MODULES}
    assert named == set(RANK)


def folder(name: str) -> str:
    return name.split(".")[0] if "." in name or name in FOLDERS else ""


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_a_module_imports_only_the_layers_below_it(path: Path) -> None:
    here = layer_of(module_name(path))
    if here == "widget":
        return  # its inside is tests/widget/test_layers.py's; its imports down are checked below
    up = [
        name
        for name, for_types in imports(path)
        if RANK[name] >= RANK[here] and not (for_types and folder(name) == folder(here) != "")
    ]
    assert up == []


def test_the_widget_imports_nothing_above_it() -> None:
    up = {
        (module_name(path), name)
        for path in MODULES
        if layer_of(module_name(path)) == "widget"
        for name, _ in imports(path)
        if name != "widget" and RANK[name] >= RANK["widget"]
    }
    assert up == set()


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "milligan_widget" / "engine").mkdir(parents=True)
    module = tmp_path / "milligan_widget" / "engine" / "game.py"
    module.write_text("def f():\n    from ..search.solver import solve\n    return solve\n")
    global PACKAGE
    kept, PACKAGE = PACKAGE, tmp_path / "milligan_widget"
    try:
        assert imports(module) == [("search.solver", False)]
    finally:
        PACKAGE = kept
