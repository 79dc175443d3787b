"""Every notebook in examples/ runs from top to bottom, and is committed without outputs.

Each notebook is executed with nbclient in a kernel running this test's Python, in a copy of
examples/ inside a temporary directory (so files a notebook saves do not litter the checkout),
with this checkout first on PYTHONPATH.

"Committed without outputs" reads each notebook as git's index has it (what the next commit
records, the same as the last commit until something is staged), not the working copy:
playing ``examples/play.ipynb`` in JupyterLab, as the README's first command does, saves the
game's outputs into the working copy, and that must not make the test command fail. Outside a
git checkout (an sdist) the file itself is read. ``MILLIGAN_EXAMPLES_QUICK=1`` asks the notebooks to
shrink their long cells (fewer deals, no replay pauses). A notebook that does not finish within
``MILLIGAN_NOTEBOOK_TIMEOUT`` seconds (default 60, kernel start included) fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
TIMEOUT = float(os.environ.get("MILLIGAN_NOTEBOOK_TIMEOUT", "60"))
KERNEL = "milligan-notebook-test"


def test_the_examples_are_there():
    names = {path.name for path in NOTEBOOKS}
    assert {"scripting.ipynb", "variants.ipynb"} <= names


def committed_text(path: Path) -> str:
    """The notebook as git's index holds it, or the file's text outside a git checkout."""
    try:
        shown = subprocess.run(
            ["git", "show", f":./{path.name}"],
            cwd=path.parent,
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return path.read_text(encoding="utf-8")  # not in git (an sdist), or not tracked yet
    return shown.stdout.decode("utf-8")


def check_clean(name: str, text: str) -> None:
    """A notebook fit to commit: nbformat v4, a python3 kernelspec, no outputs or widgets."""
    nbformat = pytest.importorskip("nbformat")
    raw = json.loads(text)  # plain JSON, not some other format
    assert raw["nbformat"] == 4, f"{name}: not nbformat v4"
    nbformat.validate(nbformat.reads(text, as_version=4))
    assert raw["metadata"].get("kernelspec", {}).get("name") == "python3", (
        f"{name}: the kernelspec should be python3"
    )
    assert "widgets" not in raw["metadata"], f"{name}: saved widget state; clear it"
    dirty = [
        index
        for index, cell in enumerate(raw["cells"])
        if cell["cell_type"] == "code" and (cell["outputs"] or cell["execution_count"] is not None)
    ]
    assert not dirty, f"{name}: cells {dirty} have outputs or execution counts; clear them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_committed_without_outputs(path: Path):
    check_clean(path.name, committed_text(path))


def _played_in_lab(path: Path) -> None:
    """What JupyterLab writes after the README's first command: outputs, counts, widgets."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    for count, cell in enumerate((c for c in raw["cells"] if c["cell_type"] == "code"), 1):
        cell["execution_count"] = count
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["played\n"]}]
    raw["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    path.write_text(json.dumps(raw), encoding="utf-8")


def test_a_notebook_played_but_not_staged_still_counts_as_clean(tmp_path: Path):
    """Play first, then run the tests: outputs in the working copy alone fail nothing, and
    staging them does."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    shutil.copy(EXAMPLES / "play.ipynb", tmp_path / "play.ipynb")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "play.ipynb"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "clean"], cwd=tmp_path, check=True)
    _played_in_lab(tmp_path / "play.ipynb")
    check_clean("play.ipynb", committed_text(tmp_path / "play.ipynb"))
    subprocess.run(["git", "add", "play.ipynb"], cwd=tmp_path, check=True)
    with pytest.raises(AssertionError, match="saved widget state"):
        check_clean("play.ipynb", committed_text(tmp_path / "play.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")

    # A kernel spec of our own, so the notebook runs in this Python whatever "python3" means
    # on this machine.
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"}),
        encoding="utf-8",
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))

    # Run in a copy of examples/, so relative paths work and saved files go away afterwards.
    work = tmp_path / "examples"
    shutil.copytree(EXAMPLES, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    notebook = nbformat.read(work / path.name, as_version=4)

    env = dict(os.environ, MILLIGAN_EXAMPLES_QUICK="1", PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    deadline = time.monotonic() + TIMEOUT

    def time_left(_cell) -> int:
        # nbclient asks before each cell: the whole notebook shares one budget.
        return max(1, int(deadline - time.monotonic()))

    client = nbclient.NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout_func=time_left,
        startup_timeout=int(TIMEOUT),
        resources={"metadata": {"path": str(work)}},
    )
    started = time.monotonic()
    try:
        client.execute(env=env)  # raises CellExecutionError on the first cell that fails
    except nbclient.exceptions.CellTimeoutError:
        pytest.fail(f"{path.name} did not finish within its budget of {TIMEOUT:.0f} s")
    seconds = time.monotonic() - started
    assert seconds < TIMEOUT, f"{path.name} took {seconds:.0f} s; the budget is {TIMEOUT:.0f} s"
