"""The widget in hosts beyond JupyterLab: Notebook 7, marimo and Voilà, in Debian's chromium.

Like lab.py, every problem raises LabError: the tests turn it into a failure, never a skip.
Each server gets a free port on 127.0.0.1, the same isolated Jupyter folders as JupyterLab
(lab.py's `_isolated_env`), and a log file in its temporary folder; the log's tail goes into
the error when a server exits or does not answer within START_TIMEOUT.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .gestures import GameOnPage
from .lab import (
    NOTEBOOK,
    REPO,
    START_TIMEOUT,
    TOKEN,
    LabError,
    LabServer,
    _free_port,
    _get,
    _isolated_env,
    jupyter_command,
    serve_folder,
    stop_lab,
)

MARIMO_APP = REPO / "examples" / "marimo_app.py"
MARIMO_SEED = 8
VIEWPORT = {"width": 1280, "height": 1500}
WIDGET_TIMEOUT = 60_000

# The notebook on screen (JupyterLab or Notebook 7): its session's kernel is connected and idle.
KERNEL_IDLE = """() => {
  const s = window.jupyterapp?.shell?.currentWidget?.sessionContext;
  const k = s?.session?.kernel;
  return !!k && s.isReady && k.connectionStatus === 'connected' && k.status === 'idle';
}"""
# Every code cell of that notebook has run: a number in its prompt, none queued ([*]).
CELLS_RUN = """() => {
  const nb = window.jupyterapp.shell.currentWidget.node;
  return Array.from(nb.querySelectorAll('.jp-CodeCell .jp-InputPrompt'))
    .every(p => /\\[\\d+\\]/.test(p.textContent));
}"""
# The kinds of the cells of a `.jp-Notebook` element, top to bottom.
CELL_TYPES = """nb => Array.from(nb.querySelectorAll('.jp-Cell')).map(c =>
  c.classList.contains('jp-CodeCell') ? 'code'
  : c.classList.contains('jp-MarkdownCell') ? 'markdown'
  : c.classList.contains('jp-RawCell') ? 'raw' : 'unknown')"""
# Only visible notebooks: JupyterLab keeps background tabs in the DOM, hidden.
VISIBLE_NOTEBOOKS = """() => Array.from(document.querySelectorAll('.jp-Notebook'))
  .filter(nb => nb.checkVisibility())"""
STDERR_OUTPUT = (
    '[data-mime-type="application/vnd.jupyter.stderr"], '
    '[data-mime-type="application/vnd.jupyter.error"], .jp-OutputArea-output pre.error'
)
# ------------------------------------------------------------------ servers
@dataclass
class HostServer:
    """A running marimo or Voilà server (Notebook 7 is a LabServer: same API as JupyterLab)."""

    name: str
    url: str
    process: subprocess.Popen
    log: Path
    started_in: float = 0.0

    def log_tail(self, chars: int = 3000) -> str:
        return _tail(self.log, chars)


def _tail(log: Path, chars: int = 3000) -> str:
    try:
        return log.read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"


def _answers(url: str) -> bool:
    """Whether an HTTP server answers at ``url`` (any status counts: it is up)."""
    try:
        urllib.request.urlopen(url, timeout=5).close()
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def _launch(name: str, command: list[str], base: Path, env: dict[str, str], cwd: Path) -> Any:
    log = base / f"{name}.log"
    with log.open("w") as out:
        # A session of its own: stop_server can then end the server's children too.
        process = subprocess.Popen(
            command, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return process, log


def _wait_up(name: str, process: subprocess.Popen, log: Path, up: Callable[[], bool]) -> float:
    """Poll until ``up()``; the seconds it took. Raise LabError if the server exits or hangs."""
    start = time.monotonic()
    while time.monotonic() - start < START_TIMEOUT:
        if process.poll() is not None:
            raise LabError(f"{name} exited early (code {process.returncode}):\n{_tail(log)}")
        if up():
            return time.monotonic() - start
        time.sleep(0.2)
    _end(process)
    raise LabError(f"{name} did not answer within {START_TIMEOUT} s:\n{_tail(log)}")


def _end(process: subprocess.Popen) -> None:
    """Terminate, then kill; then whatever is left in the server's own process group."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def stop_server(server: HostServer) -> None:
    _end(server.process)


def start_notebook7(base: Path, notebook: Path = NOTEBOOK) -> LabServer:
    """Jupyter Notebook 7 serving ``notebook``, with `window.jupyterapp` exposed."""
    root, env, port = serve_folder(base, notebook)
    command = jupyter_command("notebook", "JupyterNotebookApp", port, root)
    process, log = _launch("notebook7", command, base, env, root)
    server = LabServer(f"http://127.0.0.1:{port}", root, base / "runtime", process)

    def up() -> bool:
        try:
            _get(server.api("status"))
        except OSError:
            return False
        return True

    _wait_up("Notebook 7", process, log, up)
    return server


def stop_notebook7(server: LabServer) -> None:
    stop_lab(server)  # POST /api/shutdown: the server ends its kernels itself
    _end(server.process)


def start_marimo(base: Path, app: Path = MARIMO_APP, theme: str = "system") -> HostServer:
    """`marimo run app` (headless, no token); its config in ``base`` sets the theme.

    With theme "system" the page follows the browser's `prefers-color-scheme`, so a test can
    switch it with `page.emulate_media(color_scheme=...)`.
    """
    config = base / "xdg" / "marimo"
    config.mkdir(parents=True)
    (config / "marimo.toml").write_text(f'[display]\ntheme = "{theme}"\n')
    env = _isolated_env(base)
    env.update(XDG_CONFIG_HOME=str(base / "xdg"), MARIMO_SKIP_UPDATE_CHECK="1")
    port = _free_port()
    command = [
        sys.executable, "-m", "marimo", "run", str(app), "--headless",
        "--host", "127.0.0.1", "--port", str(port), "--no-token",
        "--no-sandbox", "--no-skew-protection", "--session-ttl", "5",
    ]  # fmt: skip
    # cwd: marimo looks for a `.marimo.toml` from the working folder upwards, before XDG's.
    process, log = _launch("marimo", command, base, env, base)
    url = f"http://127.0.0.1:{port}"
    took = _wait_up("marimo", process, log, lambda: _answers(f"{url}/health"))
    return HostServer("marimo", url, process, log, took)


def start_voila(base: Path, notebook: Path = NOTEBOOK) -> HostServer:
    """Voilà serving ``notebook`` at its root URL."""
    root, env, port = serve_folder(base, notebook)
    command = [
        sys.executable, "-m", "voila", str(root / notebook.name), "--no-browser",
        f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
        "--show_tracebacks=True",
    ]  # fmt: skip
    process, log = _launch("voila", command, base, env, root)
    url = f"http://127.0.0.1:{port}"
    # Not `/`: a GET there runs the notebook.
    took = _wait_up("Voilà", process, log, lambda: _answers(f"{url}/voila/static/no-such-file"))
    return HostServer("voila", url, process, log, took)


# ------------------------------------------------------------------ pages
def new_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context and page; console errors and page errors collected in a list."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(_error_text(error)))
    page.on(
        "console", lambda msg: errors.append(_console_text(msg)) if msg.type == "error" else None
    )
    return context, page, errors


def _error_text(error: Any) -> str:
    """An uncaught error, and the script it came from (the first frame of its stack)."""
    frames = [line.strip() for line in (error.stack or "").splitlines() if "at " in line]
    return f"{error} [{frames[0]}]" if frames else str(error)


def _console_text(msg: Any) -> str:
    """The message, and where it was logged from (a host's script or the widget's)."""
    where = msg.location or {}
    url = where.get("url") or ""
    return f"{msg.text} [{url.rsplit('/', 1)[-1]}:{where.get('lineNumber')}]" if url else msg.text


@dataclass
class HostPage(GameOnPage):
    """The game on a page of marimo or Voilà: the same helpers as conftest's Notebook."""

    page: Any
    context: Any
    errors: list[str]
    server: HostServer
    opened_in: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        self.context.close()


def open_notebook7(page: Any, server: LabServer, name: str, widgets: int = 1) -> float:
    """Open a notebook in Notebook 7, run every cell, wait for ``widgets`` games on screen."""
    start = time.monotonic()
    try:
        page.goto(f"{server.url}/notebooks/{name}?token={TOKEN}")
        page.wait_for_function(KERNEL_IDLE, timeout=WIDGET_TIMEOUT)
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(".mw-root").nth(widgets - 1).wait_for(timeout=WIDGET_TIMEOUT)
        page.wait_for_function(CELLS_RUN, timeout=WIDGET_TIMEOUT)
        page.wait_for_function(KERNEL_IDLE, timeout=WIDGET_TIMEOUT)
    except Exception as error:
        log = _tail(server.root.parent / "notebook7.log")
        raise LabError(
            f"Notebook 7 did not show the game: {error}{trouble(page)}\n{log}"
        ) from error
    return time.monotonic() - start


def trouble(page: Any) -> str:
    """What the page shows that may explain a missing game: error outputs of cells."""
    try:
        texts = page.locator(STDERR_OUTPUT).all_inner_texts()
    except Exception:
        return ""
    text = "\n".join(texts)[-2000:]
    return f"\nerror output on the page:\n{text}" if text else ""


def open_marimo(browser: Any, server: HostServer, query: str = "") -> HostPage:
    """The marimo app on a new page: its game and the cell that shows what Python sees."""
    context, page, errors = new_page(browser)
    start = time.monotonic()
    try:
        page.goto(f"{server.url}/{query}")
        page.locator(".mw-root").first.wait_for(timeout=WIDGET_TIMEOUT)
        page.locator("[data-python-state]").first.wait_for(timeout=WIDGET_TIMEOUT)
    except Exception as error:
        shown = page.locator("body").inner_text()[-1500:]
        why = f"{error}\npage text: {shown}\nconsole: {errors[-5:]}\n{server.log_tail()}"
        context.close()
        raise LabError(f"marimo app did not show the game: {why}") from error
    return HostPage(page, context, errors, server, time.monotonic() - start)


def open_voila(browser: Any, server: HostServer, widgets: int = 2) -> HostPage:
    """The notebook rendered by Voilà on a new page, ``widgets`` games on screen."""
    context, page, errors = new_page(browser)
    start = time.monotonic()
    try:
        page.goto(f"{server.url}/")
        page.locator(".mw-root").nth(widgets - 1).wait_for(timeout=WIDGET_TIMEOUT)
    except Exception as error:
        why = f"{error}{trouble(page)}\nconsole: {errors[-5:]}\n{server.log_tail()}"
        context.close()
        raise LabError(f"Voilà did not show the game: {why}") from error
    return HostPage(page, context, errors, server, time.monotonic() - start)


# ------------------------------------------------------------------ what the page shows
def notebook_cells(where: Any) -> list[str]:
    """The kinds of the notebook's cells as the page shows them: "code", "markdown", "raw".

    ``where`` is a page (JupyterLab or Notebook 7: the one visible notebook) or a locator
    inside a notebook (a widget: the notebook that holds it).
    """
    if hasattr(where, "goto"):
        notebooks = where.evaluate_handle(VISIBLE_NOTEBOOKS)
        count = notebooks.evaluate("list => list.length")
        if count != 1:
            raise LabError(f"expected one visible notebook, found {count}")
        return notebooks.evaluate(f"list => ({CELL_TYPES})(list[0])")
    return where.evaluate(f"el => ({CELL_TYPES})(el.closest('.jp-Notebook'))")


def python_state(host: HostPage) -> dict[str, str]:
    """What the marimo app's second cell shows: rev, moves, stock, history (as text)."""
    text = host.page.locator("[data-python-state]").first.inner_text()
    return dict(line.partition(" ")[::2] for line in text.splitlines() if line.strip())


def expect_python(host: HostPage, key: str, pattern: str) -> None:
    """Wait until the marimo cell's line ``key`` reads ``pattern`` (a regular expression)."""
    line = re.compile(rf"^{key} {pattern}$", re.MULTILINE)
    expect(host.page.locator("[data-python-state]").first).to_have_text(line)


def watch_websockets(page: Any) -> tuple[list[str], list[str]]:
    """Every websocket frame the page sends and receives, as text (for conftest's Notebook)."""
    sent: list[str] = []
    received: list[str] = []

    def text(payload: str | bytes) -> str:
        return payload if isinstance(payload, str) else payload.decode("utf-8", "replace")

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(text(payload)))
        ws.on("framereceived", lambda payload: received.append(text(payload)))

    page.on("websocket", watch)
    return sent, received


# Console errors that come from the host page, not from the widget: each seen by hand with no
# widget on the page (patterns, matched with re.search).
HOST_NOISE = {
    "voila": (
        # Voilà's template links Font Awesome from jsdelivr: offline, the request fails.
        r"^Failed to load resource: net::ERR_NAME_NOT_RESOLVED",
        # Notebook 7's own lab extension, which Voilà 0.5 loads too, cannot find its host libs.
        r'"shareKey":"@jupyterlab/docregistry".*remoteEntry',
    ),
    "notebook7": (
        # Notebook 7.6's shortcuts plugin at start-up (on /tree and a plain notebook too).
        r"^Cannot read properties of undefined \(reading 'schema'\) \[.*/notebook_core\.",
    ),
}


def page_errors(host: Any, kind: str = "") -> list[str]:
    """The page's console errors, without the host's known noise (HOST_NOISE[kind])."""
    noise = HOST_NOISE.get(kind, ())
    return [e for e in host.errors if not any(re.search(n, e, re.DOTALL) for n in noise)]


# ------------------------------------------------------------------ playing, from the page alone
def first_tableau_move(seed: int, deals: int = 0) -> tuple[str, str, str]:
    """(source, target, card) of the first column-to-column move of deal ``seed`` (classic
    rules) after ``deals`` rows dealt, from the engine in the test process: the same deal as
    in the browser, with no kernel to ask."""
    from milligan_widget import Game

    game = Game.new(seed)
    for _ in range(deals):
        game.play("d")
    for move in game.legal_moves:
        if move.source.startswith("t") and (move.target or "").startswith("t"):
            return move.source, move.target, str(game.tableau[int(move.source[1:]) - 1][-1])
    raise LabError(f"deal {seed} has no column-to-column move after {deals} deals")


def top_card(host: Any, pile: str) -> Any:
    return host.pile(pile).locator("[data-card]").last


def new_game_from_toolbar(host: Any, seed: int) -> None:
    """A new deal typed into the toolbar, as a player does; wait for exactly that view."""
    from milligan_widget import Game

    before = host.widget.get_attribute("data-rev")
    host.widget.locator(".mw-seed").fill(str(seed))
    host.widget.locator('.mw-toolbar button[data-action="new"]').click()
    expect(host.widget).not_to_have_attribute("data-rev", before or "")
    expect(host.stat("moves")).to_have_text("0")
    expect(host.stat("stock")).to_have_text("96")
    first = str(Game.new(seed).tableau[0][-1])
    expect(top_card(host, "t1")).to_have_attribute("data-card", first)
