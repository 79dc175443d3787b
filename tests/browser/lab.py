"""Start a real JupyterLab, open a notebook in Debian's chromium, talk to its kernel.

Shared by the browser tests (tests/browser/conftest.py) and benchmarks/widget.py. Every
problem raises LabError: the tests turn it into a failure, never a skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "examples" / "play.ipynb"
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("MILLIGAN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Screenshots the README shows: with MILLIGAN_DOCS=1 the browser tests copy them into docs/.
DOCS_PICTURES = {
    "widget-light.png": "widget.png",
    "lesson-light.png": "lesson.png",
    "replay-light.png": "replay.png",
    "widget-review-light.png": "widget-review.png",
    "widget-review-dark.png": "widget-review-dark.png",
}
TOKEN = "milligan-test-token"
START_TIMEOUT = 60.0
# A kernel expression: the first column-to-column move of `widget` and the card leading it.
FIRST_TABLEAU_MOVE = (
    "[(m.source, m.target, str(widget.game.tableau[int(m.source[1:]) - 1][-1]))"
    " for m in widget.game.legal_moves"
    " if m.source.startswith('t') and (m.target or '').startswith('t')][:1]"
)


def publish(screenshot: Path) -> None:
    """Copy a screenshot the README shows into docs/ (only with MILLIGAN_DOCS=1)."""
    name = DOCS_PICTURES.get(screenshot.name)
    if name and os.environ.get("MILLIGAN_DOCS") == "1":
        shutil.copy(screenshot, REPO / "docs" / name)


class LabError(RuntimeError):
    """The server, the browser or the notebook could not be brought up."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read() or b"null")


def _post(url: str) -> None:
    request = urllib.request.Request(url, method="POST", data=b"")
    urllib.request.urlopen(request, timeout=5).close()


@dataclass
class LabServer:
    """A running JupyterLab with the example notebook in its root folder."""

    url: str
    root: Path
    runtime_dir: Path
    process: subprocess.Popen

    def api(self, path: str) -> str:
        return f"{self.url}/api/{path}?token={TOKEN}"

    def kernel_connection_file(self, notebook: str | None = None) -> Path:
        """The connection file of the kernel of ``notebook`` (by default: the only one)."""
        sessions = _get(self.api("sessions"))
        if notebook is not None:
            sessions = [s for s in sessions if s["path"].endswith(notebook)]
        (session,) = sessions
        return self.runtime_dir / f"kernel-{session['kernel']['id']}.json"

    def add_notebook(self, notebook: Path) -> None:
        """Put another notebook in the server's root folder."""
        shutil.copy(notebook, self.root / notebook.name)


def _isolated_env(base: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("config", "data", "runtime", "ipython"):
        (base / name).mkdir(parents=True, exist_ok=True)
    env.update(
        JUPYTER_CONFIG_DIR=str(base / "config"),
        JUPYTER_DATA_DIR=str(base / "data"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        IPYTHONDIR=str(base / "ipython"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
    )
    env.pop("ANYWIDGET_HMR", None)
    labconfig = base / "config" / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    return env


def serve_folder(base: Path, notebook: Path) -> tuple[Path, dict[str, str], int]:
    """A server's root folder holding a copy of ``notebook``, its environment and a port."""
    root = base / "notebooks"
    root.mkdir(parents=True)
    shutil.copy(notebook, root / notebook.name)
    return root, _isolated_env(base), _free_port()


def jupyter_command(module: str, app: str, port: int, root: Path) -> list[str]:
    """The command line of a Jupyter server (JupyterLab, Notebook 7) for the tests:
    loopback only, our token, ``window.jupyterapp`` exposed (``app``: its config class)."""
    return [
        sys.executable, "-m", module, "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}",
        f"--{app}.expose_app_in_browser=True",
    ]  # fmt: skip


def start_lab(base: Path, notebook: Path = NOTEBOOK) -> LabServer:
    root, env, port = serve_folder(base, notebook)
    command = jupyter_command("jupyterlab", "LabApp", port, root)
    log = (base / "lab.log").open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    server = LabServer(f"http://127.0.0.1:{port}", root, base / "runtime", process)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise LabError(f"JupyterLab exited early:\n{(base / 'lab.log').read_text()[-3000:]}")
        try:
            _get(server.api("status"))
            return server
        except OSError:
            time.sleep(0.25)
    process.kill()
    raise LabError(f"JupyterLab did not answer within {START_TIMEOUT} s")


def check_prerequisites() -> None:
    """The bundle and chromium must be there (CI installs both)."""
    bundle = REPO / "milligan_widget" / "static" / "widget.js"
    if not bundle.exists():
        raise LabError(f"{bundle} is missing: run `pip install -e .` or `npm run build` in js/")
    if not Path(CHROMIUM).exists():
        raise LabError(f"{CHROMIUM} is missing: `apt-get install -y chromium` (the tests need it)")


def launch_chromium(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def wait_idle(page: Any, timeout: float = 60_000) -> None:
    """Wait until the status bar says the kernel is really idle."""
    page.get_by_text(re.compile(r"\(ipykernel\) \| Idle")).first.wait_for(timeout=timeout)


def open_notebook(page: Any, server: LabServer, name: str, widgets: int = 1) -> None:
    """Open a notebook, run every cell and wait for ``widgets`` games on screen."""
    # reset: the workspace would restore the tabs an earlier test left open, whose widgets
    # (hidden) the locators below would count as this notebook's.
    page.goto(f"{server.url}/lab/tree/{name}?reset&token={TOKEN}")
    wait_idle(page)
    # The workspace may restore another notebook as the current tab: run this one's cells.
    page.evaluate(f"window.jupyterapp.commands.execute('docmanager:open', {{path: {name!r}}})")
    page.wait_for_function(
        f"() => window.jupyterapp.shell.currentWidget?.context?.path?.endsWith({name!r})"
    )
    wait_idle(page)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.locator(".mw-root").nth(widgets - 1).wait_for(timeout=60_000)
    wait_idle(page)


def stop_lab(server: LabServer) -> None:
    try:
        _post(server.api("shutdown"))
        server.process.wait(timeout=15)
    except (OSError, subprocess.TimeoutExpired):
        server.process.kill()
        server.process.wait()


class Kernel:
    """A second client of the notebook's kernel, to drive and check Python from the test."""

    def __init__(self, connection_file: Path) -> None:
        from jupyter_client import BlockingKernelClient

        self.client = BlockingKernelClient(connection_file=str(connection_file))
        self.client.load_connection_file()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=30)

    def run(self, code: str, timeout: float = 30) -> str:
        """Execute code in the notebook's namespace; return its stdout, raise on error."""
        out: list[str] = []
        errors: list[str] = []

        def hook(msg: dict[str, Any]) -> None:
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                out.append(content["text"])
            elif kind == "error":
                errors.append("\n".join(content["traceback"]))

        reply = self.client.execute_interactive(code, timeout=timeout, output_hook=hook)
        if reply["content"]["status"] != "ok" or errors:
            trace = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(errors))
            raise AssertionError(f"kernel error in {code!r}:\n{trace}")
        return "".join(out)

    def eval(self, expression: str) -> Any:
        """The JSON value of a Python expression evaluated in the notebook."""
        text = self.run(f"import json as _json\nprint(_json.dumps({expression}))")
        return json.loads(text.strip().splitlines()[-1])

    def close(self) -> None:
        self.client.stop_channels()


def message_type(frame: str) -> str | None:
    """The msg_type of a kernel websocket frame (JSON or the v1 binary framing)."""
    start = frame.find("{")
    if start < 0:
        return None
    try:
        first, _ = json.JSONDecoder().raw_decode(frame, start)
    except ValueError:
        return None
    header = first.get("header", first)
    return header.get("msg_type") if isinstance(header, dict) else None
