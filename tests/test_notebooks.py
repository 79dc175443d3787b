"""Every notebook in examples/ runs from top to bottom, and is committed without outputs.

Each notebook is executed with nbclient in a kernel running this test's Python, in a copy of
examples/ inside a temporary directory (so files a notebook saves do not litter the checkout),
with this checkout first on PYTHONPATH. ``MILLIGAN_EXAMPLES_QUICK=1`` asks the notebooks to
shrink their long cells (fewer deals, no replay pauses). A notebook that does not finish within
``MILLIGAN_NOTEBOOK_TIMEOUT`` seconds (default 60, kernel start included) fails.
"""

from __future__ import annotations

import json
import os
import shutil
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_committed_without_outputs(path: Path):
    nbformat = pytest.importorskip("nbformat")
    raw = json.loads(path.read_text(encoding="utf-8"))  # plain JSON, not some other format
    assert raw["nbformat"] == 4, f"{path.name}: not nbformat v4"
    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    assert raw["metadata"].get("kernelspec", {}).get("name") == "python3", (
        f"{path.name}: the kernelspec should be python3"
    )
    assert "widgets" not in raw["metadata"], f"{path.name}: saved widget state; clear it"
    dirty = [
        index
        for index, cell in enumerate(raw["cells"])
        if cell["cell_type"] == "code" and (cell["outputs"] or cell["execution_count"] is not None)
    ]
    assert not dirty, f"{path.name}: cells {dirty} have outputs or execution counts; clear them"


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
