"""The package under real Pyodide (the npm package ``pyodide``, run by node; no browser).

The project's wheel and its dependencies' pure-Python wheels are installed from local files,
then ``tests/pyodide/inside.py`` deals, plays, solves, and asks a widget for a hint, a
winnability check and the solution where ``threading.Thread.start`` raises: the widget's
fallback (``milligan_widget.widget.assistant.jobs.Workers.start``) for real.

Then the recipe of ``docs/jupyterlite.md`` builds a JupyterLite site, as it is written there;
the site is served on 127.0.0.1 and ``tests/pyodide/lite_kernel.py`` boots the Pyodide
kernel's packages from it as the kernel does, every other address refused, and runs the
site's notebook through that kernel.

The one-off setup (``npm install pyodide``, ``pip download`` of the dependencies, the wheel,
the build tools' venv, the site) is cached in ``.pyodide-cache/`` at the repository's root
(git-ignored); the wheel and the site are built again when a file they are built from
changes. Without node, npm or the registries the tests are skipped, except in CI (``CI``
set), where they fail.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.strategy import greedy, play_game
from tests.lines import WIN_8

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "pyodide"
CACHE = ROOT / ".pyodide-cache"
DOC = ROOT / "docs" / "jupyterlite.md"
RECIPE_MARKER = "<!-- recipe:"
PYODIDE_VERSION = "314.0.6"  # the npm package (jupyterlite-pyodide-kernel 0.8.6's Pyodide)
SEED = 8
SECONDS = 30.0  # each solver budget inside (deal 8 takes well under a second)
SETUP_TIMEOUT = 600
RECIPE_TIMEOUT = 1200  # the first run installs the build tools
RUN_TIMEOUT = 300
#: pip's options for wheels that Pyodide can install as they are: pure Python, no binaries.
PURE_PYTHON = ["--only-binary=:all:", "--platform=any", "--implementation=py", "--abi=none"]


def unavailable(reason: str) -> None:
    """Skip for want of a tool or a registry; in CI, fail instead."""
    if os.environ.get("CI"):
        pytest.fail(f"Pyodide test cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def run(command: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    """Run a setup step, quietly; a skip (in CI a failure) with its output if it fails."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=SETUP_TIMEOUT, **kwargs
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        unavailable(f"{what} failed: {error}")
    if done.returncode != 0:
        unavailable(f"{what} failed ({' '.join(command)}):\n{done.stdout}\n{done.stderr}")
    return done


def fresh_folder(final: Path) -> Path:
    """An empty folder beside ``final``, to be renamed to it when complete."""
    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=final.name + ".", dir=final.parent))


def publish(folder: Path, final: Path) -> Path:
    """Move the completed ``folder`` to ``final`` (another run may have got there first)."""
    try:
        folder.rename(final)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
    return final


def need_node() -> str:
    """npm's path, once node and npm are known to be there."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        unavailable("node and npm are needed to run Pyodide (apt-get install nodejs npm)")
    return str(npm)


def prune(kind: str, final: Path) -> None:
    """Remove the cached ``kind-DIGEST`` folders other than ``final`` (built from older
    sources)."""
    for stale in CACHE.iterdir():
        if re.fullmatch(rf"{kind}-[0-9a-f]{{16}}", stale.name) and stale != final:
            shutil.rmtree(stale, ignore_errors=True)


def pyodide_package() -> Path:
    """The npm package's folder, installed into the cache if need be."""
    npm = need_node()
    final = CACHE / f"npm-{PYODIDE_VERSION}"
    package = final / "node_modules" / "pyodide"
    if not (package / "pyodide.mjs").exists():
        folder = fresh_folder(final)
        command = [npm, "install", "--prefix", str(folder), "--no-save", "--no-package-lock"]
        run(
            [*command, "--no-audit", "--no-fund", f"pyodide@{PYODIDE_VERSION}"],
            f"npm install pyodide@{PYODIDE_VERSION}",
        )
        publish(folder, final)
    if not (package / "pyodide.mjs").exists():
        unavailable(f"npm installed no {package / 'pyodide.mjs'}")
    return package


def pyodide_python(package: Path) -> str:
    """The Python version (major.minor) of this Pyodide: the wheels must suit it."""
    info = json.loads((package / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    return ".".join(info["python"].split(".")[:2])


def bundle_env() -> dict[str, str]:
    """The environment for building the wheel: the npm build hook is skipped where the front
    end is already built (``milligan_widget/static``, as after ``pip install -e .``), and the
    wheel ships the bundle as it is. The C search core is not compiled: Pyodide installs
    only pure-Python wheels (``py3-none-any``), and runs the pure-Python core."""
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", MILLIGAN_WIDGET_PURE="1")
    if (ROOT / "milligan_widget" / "static" / "widget.js").exists():
        env["SKIP_JUPYTER_BUILDER"] = "1"
    return env


def source_digest() -> str:
    """A digest of every file the wheel is built from."""
    digest = hashlib.sha256()
    files = [ROOT / "pyproject.toml", ROOT / "README.md"]
    files += sorted(p for p in (ROOT / "milligan_widget").rglob("*") if p.is_file())
    for path in files:
        if "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def project_wheel() -> Path:
    """The project's wheel (``pip wheel --no-deps``), built again when its sources change."""
    final = CACHE / f"wheel-{source_digest()}"
    if not list(final.glob("*.whl")):
        folder = fresh_folder(final)
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder)]
        done = subprocess.run(
            [*command, str(ROOT)],
            capture_output=True,
            text=True,
            timeout=SETUP_TIMEOUT,
            env=bundle_env(),
        )
        if done.returncode != 0:  # the project's own build: never a skip
            pytest.fail(f"building the wheel failed:\n{done.stdout}\n{done.stderr}")
        prune("wheel", final)
        publish(folder, final)
    (wheel,) = final.glob("*.whl")
    return wheel


def requirements(wheel: Path) -> list[str]:
    """The wheel's own dependencies (no extras), from its METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    found = re.findall(r"^Requires-Dist: (.+)$", metadata, flags=re.MULTILINE)
    return sorted(r.strip() for r in found if "extra ==" not in r)


def dependency_wheels(needed: list[str], python: str) -> Path:
    """Pure-Python wheels of ``needed`` and everything they need, for Pyodide's Python."""
    key = hashlib.sha256(json.dumps([needed, python]).encode()).hexdigest()[:16]
    final = CACHE / f"deps-{key}"
    if not (final / "requirements.json").exists():
        folder = fresh_folder(final)
        download = [sys.executable, "-m", "pip", "download", "-q", *PURE_PYTHON, "-d", str(folder)]
        run(
            [*download, "--python-version", python, *needed],
            f"pip download of the dependencies' wheels for Python {python}",
            env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        )
        (folder / "requirements.json").write_text(json.dumps(needed))
        publish(folder, final)
    return final


def given_input(folder: Path) -> Path:
    """What ``inside.py`` reads: the reference deals and a winning line of deal 8."""
    reference = json.loads((ROOT / "tests" / "data" / "pysolfc-deals.json").read_text())
    given = {"seed": SEED, "seconds": SECONDS, "line": WIN_8, "deals": reference["deals"]}
    (folder / "input.json").write_text(json.dumps(given))
    return folder


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Run ``inside.py`` under Pyodide once; its JSON report."""
    package = pyodide_package()
    wheel = project_wheel()
    deps = dependency_wheels(requirements(wheel), pyodide_python(package))
    mounts = {
        "/wheels/project": wheel.parent,
        "/wheels/deps": deps,
        "/input": given_input(tmp_path_factory.mktemp("pyodide-input")),
    }
    command = ["node", str(HERE / "run.mjs"), str(package), str(HERE / "inside.py")]
    command += [f"{target}={host}" for target, host in mounts.items()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    lines = [line for line in done.stdout.splitlines() if line.startswith("PYODIDE-RESULT ")]
    assert done.returncode == 0 and lines, f"Pyodide run failed:\n{done.stdout}\n{done.stderr}"
    result = json.loads(lines[-1].removeprefix("PYODIDE-RESULT "))
    print("Pyodide's seconds per step:", result["seconds"])
    return result


def no_error(part: dict) -> dict:
    """``part`` of the report, failing with its traceback if it raised."""
    assert "error" not in part, part.get("error")
    return part


def test_it_is_pyodide_and_threads_cannot_start(report: dict) -> None:
    assert report["platform"] == "emscripten"
    assert report["python"].startswith(pyodide_python(pyodide_package()))
    if report["thread_refusal"] is None:
        warnings.warn(
            f"threads start in Pyodide {PYODIDE_VERSION}: their refusal was simulated",
            stacklevel=1,
        )
    else:
        assert "can't start new thread" in report["thread_refusal"]
    installed = report["installed"]
    assert any(name.startswith("milligan_widget-") for name in installed), installed
    assert any(name.startswith("anywidget-") for name in installed), installed


def test_deals_are_pysolfc_deals(report: dict) -> None:
    deals = no_error(report["deals"])
    assert deals and all(deals.values()), deals


def test_play_as_natively(report: dict) -> None:
    played = no_error(report["play"])
    assert played["status"] == "won" and played["foundation_count"] == 104
    native = play_game(Game.new(SEED), greedy)
    assert played["greedy_moves"] == [str(m) for m in native.history]
    assert played["greedy_status"] == native.status


def test_the_solver_wins_deal_8(report: dict) -> None:
    solved = no_error(report["solve"])
    assert solved["status"] == "winnable" and solved["moves"] > 100
    assert solved["replayed"] == "won"


def test_the_widget_hints_without_threads(report: dict) -> None:
    hint = no_error(report["hint"])
    assert hint["move"] and hint["legal"], hint
    assert hint["message"].startswith("Solver:"), hint["message"]
    assert report["thread_attempts"] > 0  # the widget tried a thread, and fell back


def test_the_widget_checks_winnability_without_threads(report: dict) -> None:
    checked = no_error(report["winnable"])
    assert checked["first"]["enabled"] and checked["first"]["state"] == "winnable", checked
    assert checked["after_move"]["state"] in ("winnable", "unwinnable"), checked
    assert checked["settled"], checked
    assert "Internal error" not in checked["message"]


def test_the_widget_plays_the_solution_without_threads(report: dict) -> None:
    solution = no_error(report["solution"])
    assert solution == {"status": "won", "kind": "won"}


def test_stop_stops_the_solution_on_pyodides_event_loop(report: dict) -> None:
    """JupyterLite: Stop, handled between two moves, stops "Solution ▶" where it is."""
    stopped = no_error(report["solution_stopped"])
    assert stopped["returned_after"] < 10, stopped  # the moves come from the event loop
    assert 1 < stopped["at_stop"] < len(WIN_8.split()), stopped
    assert stopped["later"] == stopped["at_stop"], stopped
    assert stopped["message"] == f"Solution stopped after {stopped['at_stop']} moves.", stopped
    assert stopped["busy"] is None, stopped


# ---------------------------------------------------------------- the JupyterLite recipe


def recipe() -> str:
    """The shell block of docs/jupyterlite.md that follows its recipe marker."""
    text = DOC.read_text(encoding="utf-8")
    assert RECIPE_MARKER in text, f"{DOC} has no {RECIPE_MARKER!r} line"
    block = re.search(r"```bash\n(.*?)```", text[text.index(RECIPE_MARKER) :], flags=re.DOTALL)
    assert block, f"no ```bash block after {RECIPE_MARKER!r} in {DOC}"
    return block.group(1)


def lite_site() -> Path:
    """The site the recipe builds (with this checkout), built again when the recipe or the
    package changes; its build tools' venv is kept across builds."""
    script = recipe()
    key = hashlib.sha256((script + source_digest()).encode()).hexdigest()[:16]
    final = CACHE / f"lite-{key}"
    if not (final / "site" / "jupyter-lite.json").exists():
        folder = fresh_folder(final)
        env = dict(bundle_env(), MILLIGAN=str(ROOT), LITE_ENV=str(CACHE / "lite-env"))
        del env["MILLIGAN_WIDGET_PURE"]  # the recipe must ask for a pure wheel itself
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=RECIPE_TIMEOUT,
            env=env,
        )
        log = f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        (folder / "recipe.log").write_text(log)
        if done.returncode != 0:
            pytest.fail(f"the recipe of {DOC.name} failed (in {folder}):\n{log}")
        prune("lite", final)
        publish(folder, final)
    return final / "site"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder, logging nothing."""

    def log_message(self, format: str, *args: object) -> None:
        """Nothing: the test's output is its report."""


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 while in the block; its base URL."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def site() -> Path:
    """The site the recipe builds."""
    need_node()
    return lite_site()


@pytest.fixture(scope="module")
def site_report(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Boot the site's kernel packages and run its notebook under Pyodide, from the site's
    own Pyodide; the JSON report, with the URLs fetched and refused."""
    folder = tmp_path_factory.mktemp("lite-input")
    with serve(site) as base:
        (folder / "input.json").write_text(json.dumps({"base": base, "notebook": "play.ipynb"}))
        command = ["node", str(HERE / "run.mjs"), str(site / "static" / "pyodide")]
        command += [str(HERE / "lite_kernel.py"), f"/site={site}", f"/input={folder}"]
        env = dict(os.environ, PYODIDE_FETCH_ONLY=base)
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("PYODIDE-RESULT ")]
    assert done.returncode == 0 and lines, f"Pyodide run failed:\n{done.stdout}\n{done.stderr}"
    result = json.loads(lines[-1].removeprefix("PYODIDE-RESULT "))
    urls = [line.split(" ", 1) for line in done.stderr.splitlines() if line.startswith("FETCH")]
    result["fetched"] = [url.removeprefix(base) for kind, url in urls if kind == "FETCHED"]
    result["refused"] = [url for kind, url in urls if kind == "FETCH-REFUSED"]
    return result


def test_the_recipe_builds_a_site_with_its_own_pyodide(site: Path) -> None:
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())
    assert list(lock["packages"]) == ["micropip"]
    micropip = lock["packages"]["micropip"]
    wheel = site / "static" / "pyodide" / micropip["file_name"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == micropip["sha256"]
    (game_wheel,) = (site / "pypi").glob("milligan_widget-*.whl")
    assert game_wheel.name.endswith("-py3-none-any.whl"), game_wheel.name
    assert (site / "files" / "play.ipynb").exists()


def test_the_sites_kernel_boots_from_the_site_alone(site_report: dict) -> None:
    assert "boot_error" not in site_report, site_report["boot_error"]
    assert site_report["refused"] == []
    assert any(url.startswith("pypi/milligan_widget-") for url in site_report["fetched"])
    version = re.search(r'^version = "(.+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version and site_report["versions"]["milligan-widget"] == version.group(1)


def test_the_sites_notebook_plays(site_report: dict) -> None:
    cells = site_report["cells"]
    assert cells and cells[0]["source"] == "%pip install milligan-widget"
    failed = [c for c in cells if c["status"] != "ok"]
    assert not failed, failed
    shown = next(c for c in cells if "MilliganWidget(seed=" in c["source"])
    kinds = {kind for result in shown["results"] for kind in result}
    assert "application/vnd.jupyter.widget-view+json" in kinds, shown
    opened = [m for m in shown["comms"] if m["type"] == "comm_open" and m["model"] == "AnyModel"]
    assert opened and opened[0]["esm"] > 1000, shown["comms"]  # the front end goes with it
    assert site_report["widget"]["seed"] == 27
    assert site_report["widget"]["message"].startswith("Honest hint:"), site_report["widget"]
