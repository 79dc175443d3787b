"""Packaging (issue 12, "Installing"): the archives build and install without Node.js.

`python -m build` makes the sdist from this tree and then the wheel from that sdist, with
nothing but a virtual environment's scripts on the PATH (no node, no npm): the build hook
finds the bundle already built and skips npm. Both archives carry LICENSE; the wheel carries
the bundle, the metadata and the `milligan-study` command. The wheel is then installed into a
fresh virtual environment, still without Node, and the installed package (not this tree)
deals, plays, solves, exports a page and runs `milligan-study`.

It needs the package registry (for `build`, hatchling and the wheel's dependencies) and
takes about half a minute. Without the registry or the built bundle it is skipped, except in
CI (`CI` set), where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ("milligan_widget/static/widget.js", "milligan_widget/static/widget.css")
NODE_TOOLS = ("node", "nodejs", "npm", "npx")
TIMEOUT = 600


def unavailable(reason: str) -> None:
    """Skip for want of the registry or the bundle; in CI, fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"the packaging test cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


@dataclass(frozen=True)
class Venv:
    """A virtual environment run with its own scripts alone on the PATH."""

    root: Path

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def python(self) -> str:
        return str(self.bin / "python")

    def env(self) -> dict[str, str]:
        """This process's environment (the registry settings included) with a PATH that has
        this venv's scripts and nothing else: no Node.js."""
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
        }
        env["PATH"] = str(self.bin)
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        return env

    def run(self, *command: str, what: str, cwd: Path | None = None) -> str:
        """Run ``command`` here; its output, or a failure that shows it."""
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT, env=self.env(), cwd=cwd
        )
        if done.returncode != 0:
            pytest.fail(f"{what} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done.stdout


def make_venv(folder: Path) -> Venv:
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", str(folder)],
            check=True, capture_output=True, timeout=TIMEOUT,
        )
    except (OSError, subprocess.SubprocessError) as error:
        unavailable(f"cannot make a virtual environment: {error}")
    venv = Venv(folder)
    path = venv.env()["PATH"]
    assert all(shutil.which(tool, path=path) is None for tool in NODE_TOOLS), path
    return venv


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path
    installed: Venv
    work: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    if not all((ROOT / name).exists() for name in BUNDLE):
        unavailable(f"the front end is not built ({BUNDLE[0]}): `npm run build` in js/")
    base = tmp_path_factory.mktemp("packaging")
    tools = make_venv(base / "tools")
    got = subprocess.run(
        [tools.python, "-m", "pip", "install", "-q", "build"],
        capture_output=True, text=True, timeout=TIMEOUT, env=tools.env(),
    )
    if got.returncode != 0:
        unavailable(f"cannot install `build` from the registry:\n{got.stderr[-2000:]}")
    dist = base / "dist"
    # No --sdist/--wheel: the sdist from this tree, then the wheel from the sdist.
    tools.run(tools.python, "-m", "build", "--outdir", str(dist), str(ROOT),
              what="building the sdist and the wheel without Node")
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    installed = make_venv(base / "installed")
    installed.run(installed.python, "-m", "pip", "install", "-q", str(wheel),
                  what="installing the wheel into a fresh venv without Node")
    work = base / "work"  # run from here: nothing of this tree on sys.path
    work.mkdir()
    yield Built(sdist, wheel, installed, work)


def version_of(built: Built) -> str:
    """The version built, from the wheel's name (milligan_widget-VERSION-py3-none-any.whl)."""
    return built.wheel.name.split("-")[1]


# ----------------------------------------------------------------------------- the archives


def test_the_wheel_carries_the_bundle_the_license_and_the_metadata(built: Built):
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(f"{info}/METADATA").decode()
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
        license_text = wheel.read(f"{info}/licenses/LICENSE").decode()
    assert set(BUNDLE) <= names
    assert "milligan_widget/engine/export.py" in names
    assert "milligan_widget/data/deals.csv" in names  # the shipped deals by difficulty
    assert license_text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in license_text and "the milligan-widget developers" in license_text
    assert "License-Expression: MIT" in metadata
    assert "Author: the milligan-widget developers" in metadata
    for classifier in (
        "Framework :: Jupyter :: JupyterLab",
        "Topic :: Games/Entertainment",
        *(f"Programming Language :: Python :: 3.{minor}" for minor in range(10, 14)),
    ):
        assert f"Classifier: {classifier}\n" in metadata
    assert "Framework :: Jupyter :: JupyterLab :: Extensions" not in metadata  # not for a widget
    for name in ("Homepage", "Source", "Issues"):
        assert f"Project-URL: {name}, https://github.com/milligan-widget/milligan-widget" in (
            metadata
        )
    assert "milligan-study = milligan_widget.studies.study:main" in entry_points
    # The long description is the README; its picture by absolute URL, so PyPI shows it.
    assert "](https://raw.githubusercontent.com/milligan-widget/milligan-widget/main/docs/" in (
        metadata
    )
    assert "](docs/widget.png)" not in metadata


def test_the_sdist_carries_the_license_and_the_built_bundle(built: Built):
    top = f"milligan_widget-{version_of(built)}"
    with tarfile.open(built.sdist) as sdist:
        names = set(sdist.getnames())
        license_file = sdist.extractfile(f"{top}/LICENSE")
        assert license_file is not None
        assert license_file.read().decode() == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert {f"{top}/{name}" for name in BUNDLE} <= names  # so installing it needs no npm
    assert f"{top}/pyproject.toml" in names
    assert not any("/node_modules/" in name for name in names)


# ----------------------------------------------------------------------------- installed

ENGINE_CHECKS = textwrap.dedent(
    """
    import doctest, importlib, json, sys
    from pathlib import Path

    import milligan_widget
    from milligan_widget import Game
    from milligan_widget.search.solver import solve
    from milligan_widget.strategy import greedy, play_game

    prefix = Path(sys.prefix).resolve()
    assert Path(milligan_widget.__file__).resolve().is_relative_to(prefix), (
        milligan_widget.__file__
    )
    game = Game.new(1)
    assert game.legal_moves == ["d"]
    game.play("d")
    again = Game.from_json(game.to_json())
    assert again == game and again.history == game.history
    assert game.explain("1>1") is not None
    greedy_game = play_game(Game.new(8), greedy, max_moves=300)
    result = solve(Game.new(8), time_limit=20)
    assert result.status == "winnable", result.status
    won = Game.new(8)
    for move in result.moves:
        won.play(move)
    assert won.status == "won"
    page = won.to_html()
    assert page.startswith("<!DOCTYPE html>")
    failed = 0
    from milligan_widget.studies.difficulty import difficulty_of, pick_deal

    hard = pick_deal("classic", "hard")  # from the installed package's table of deals
    assert difficulty_of("classic", hard) == "hard", hard
    for name in ("engine.cards", "engine.moves", "engine.rules", "engine.deals", "engine.game",
                 "engine.layout", "engine.render", "engine.export", "studies.difficulty"):
        failed += doctest.testmod(importlib.import_module("milligan_widget." + name)).failed
    assert failed == 0, failed
    from milligan_widget.widget import MilliganWidget

    widget = MilliganWidget(seed=8, stats=False, hint_time=0)
    widget.deal()
    bundle = widget._repr_mimebundle_()
    assert widget.game.ply == 1
    assert "text/html" in (bundle[0] if isinstance(bundle, tuple) else bundle)
    widget.close()
    print(json.dumps({"version": milligan_widget.__version__, "greedy": greedy_game.ply,
                      "solution": len(result.moves), "page": len(page)}))
    """
)


def test_the_installed_wheel_plays_solves_and_exports(built: Built):
    venv = built.installed
    out = venv.run(venv.python, "-I", "-c", ENGINE_CHECKS, cwd=built.work,
                   what="the engine's checks against the installed wheel")
    report = json.loads(out.strip().splitlines()[-1])
    assert report["version"] == version_of(built)  # __version__ from the metadata
    assert report["solution"] > 0 and report["page"] > 10_000


def test_the_installed_milligan_study_command(built: Built):
    venv = built.installed
    script = venv.bin / "milligan-study"
    assert script.exists(), "the console script is not installed"
    shown = venv.run(str(script), "--help", cwd=built.work, what="milligan-study --help")
    assert shown.startswith("usage: milligan-study")
    for words in ("(default: 1..100)", "(default: classic)", "(default: 2)", "examples:",
                  "ignored with --scheduler", "every worker's environment"):
        assert words in " ".join(shown.split()), words
    module = venv.run(venv.python, "-I", "-m", "milligan_widget.studies.study", "--help",
                      cwd=built.work, what="python -m milligan_widget.studies.study --help")
    assert module.startswith("usage: python -m milligan_widget.studies.study")
    out = built.work / "study.csv"
    summary = venv.run(str(script), "--deals", "8", "--time-limit", "20", "--workers", "1",
                       "--quiet", "--out", str(out), cwd=built.work, what="a one-deal study")
    assert "classic: 1 deals" in summary
    assert out.read_text(encoding="utf-8").splitlines()[1].startswith("classic,8,winnable,")


ENGINE_SUITE = [
    "test_basics.py", "test_rules.py", "test_layout.py", "test_savefile.py", "test_finish.py",
    "test_variants.py", "lines.py", "staging.py", "conftest.py",
]  # fmt: skip
WHICH = """
def test_the_package_under_test_is_the_installed_wheel():
    import milligan_widget
    assert "site-packages" in milligan_widget.__file__, milligan_widget.__file__
"""


def test_the_engine_tests_pass_against_the_installed_wheel(built: Built):
    """The engine's own test files, copied away from this tree, run on the installed wheel."""
    venv = built.installed
    venv.run(venv.python, "-m", "pip", "install", "-q", "pytest", "hypothesis", "pysol-cards",
             what="installing pytest into the venv")  # fmt: skip
    suite = built.work / "suite"
    tests = suite / "tests"
    shutil.copytree(ROOT / "tests" / "data", tests / "data", dirs_exist_ok=True)
    for name in ENGINE_SUITE:
        shutil.copy(ROOT / "tests" / name, tests / name)
    (tests / "test_which_package.py").write_text(WHICH, encoding="utf-8")
    out = venv.run(venv.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                   "--rootdir", str(suite), "-o", "pythonpath=.", "tests",
                   cwd=suite, what="the engine tests against the installed wheel")  # fmt: skip
    assert " passed" in out and "failed" not in out
