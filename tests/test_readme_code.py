"""The Python code blocks of the README and the docs/ pages run as they are shown, each in a
fresh Python, in a temporary folder (the statistics block writes ``games.csv`` there) with a
data folder of its own (``MILLIGAN_WIDGET_DATA``), so nothing lands in the checkout or the
user's data."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [
    code
    for page in PAGES
    for code in re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S)
]


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 8


@pytest.mark.parametrize("code", BLOCKS, ids=lambda code: code.splitlines()[0][:40])
def test_a_readme_block_runs(code: str, tmp_path: Path):
    data = tmp_path / "data"
    env = dict(os.environ, MILLIGAN_WIDGET_DATA=str(data), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"this README block failed:\n{code}\n{done.stderr[-3000:]}"
    if "stats.record(" in code:  # it kept the game in its own data folder, and wrote the CSV
        assert (data / "statistics.sqlite3").exists() and (tmp_path / "games.csv").exists()
