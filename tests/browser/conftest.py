"""Real JupyterLab + Debian chromium (driven by Playwright) for the widget's browser tests.

These fixtures FAIL, never skip, when chromium, the bundle or the server is missing: the
browser tests are part of CI (`.ci/run` installs chromium first).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from .gestures import GameOnPage
from .hosts import (
    HostPage,
    HostServer,
    new_page,
    open_marimo,
    open_notebook7,
    open_voila,
    start_marimo,
    start_notebook7,
    start_voila,
    stop_notebook7,
    stop_server,
    watch_websockets,
)
from .lab import (
    Kernel,
    LabError,
    LabServer,
    check_prerequisites,
    launch_chromium,
    message_type,
    open_notebook,
    start_lab,
    stop_lab,
)


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    try:
        check_prerequisites()
        server = start_lab(tmp_path_factory.mktemp("lab"))
    except LabError as error:
        pytest.fail(str(error))
    yield server
    stop_lab(server)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@dataclass
class Notebook(GameOnPage):
    """A notebook open in JupyterLab or Notebook 7, with a client of its kernel."""

    page: Any
    kernel: Kernel
    lab: LabServer
    errors: list[str]
    sent: list[str]
    received: list[str]

    def comm_frames(self, frames: list[str], since: int) -> list[str]:
        """Widget messages (comm_msg) among the websocket frames from index ``since``."""
        return [f for f in frames[since:] if message_type(f) == "comm_msg"]


@pytest.fixture(scope="session")
def notebook(lab: LabServer, browser: Any) -> Iterator[Notebook]:
    """examples/play.ipynb open in JupyterLab, every cell run, the game on screen."""
    context = browser.new_context(viewport={"width": 1280, "height": 1500})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    sent: list[str] = []
    received: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(_text(payload)))
        ws.on("framereceived", lambda payload: received.append(_text(payload)))

    page.on("websocket", watch)
    open_notebook(page, lab, "play.ipynb", widgets=2)
    kernel = Kernel(lab.kernel_connection_file("play.ipynb"))
    kernel.run("from milligan_widget import Move")
    yield Notebook(page, kernel, lab, errors, sent, received)
    kernel.close()
    context.close()


def _text(payload: str | bytes) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", "replace")


# ------------------------------------------------------------------ hosts beyond JupyterLab
@pytest.fixture(scope="session")
def notebook7_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    try:
        check_prerequisites()
        server = start_notebook7(tmp_path_factory.mktemp("notebook7"))
    except LabError as error:
        pytest.fail(str(error))
    yield server
    stop_notebook7(server)


@pytest.fixture(scope="session")
def notebook7(notebook7_server: LabServer, browser: Any) -> Iterator[Notebook]:
    """examples/play.ipynb open in Notebook 7, every cell run: the same API as `notebook`."""
    context, page, errors = new_page(browser)
    sent, received = watch_websockets(page)
    try:
        open_notebook7(page, notebook7_server, "play.ipynb", widgets=2)
        kernel = Kernel(notebook7_server.kernel_connection_file("play.ipynb"))
    except Exception as error:
        context.close()
        pytest.fail(f"Notebook 7 did not show the game: {error}")
    kernel.run("from milligan_widget import Move")
    yield Notebook(page, kernel, notebook7_server, errors, sent, received)
    kernel.close()
    context.close()


@pytest.fixture(scope="session")
def marimo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    try:
        check_prerequisites()
        server = start_marimo(tmp_path_factory.mktemp("marimo"))
    except LabError as error:
        pytest.fail(str(error))
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def marimo_page(marimo_server: HostServer, browser: Any) -> Iterator[HostPage]:
    """examples/marimo_app.py in `marimo run`: the game (in a shadow root) and Python's view."""
    try:
        host = open_marimo(browser, marimo_server)
    except LabError as error:
        pytest.fail(str(error))
    yield host
    host.close()


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HostServer]:
    try:
        check_prerequisites()
        server = start_voila(tmp_path_factory.mktemp("voila"))
    except LabError as error:
        pytest.fail(str(error))
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def voila_page(voila_server: HostServer, browser: Any) -> Iterator[HostPage]:
    """examples/play.ipynb rendered by Voilà: both of its games on screen."""
    try:
        host = open_voila(browser, voila_server)
    except LabError as error:
        pytest.fail(str(error))
    yield host
    host.close()
