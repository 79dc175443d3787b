"""One player, one auto-save (issue 31, N10): each visitor of a Voilà app (a kernel each) and
each session of a `marimo run` app (sessions share one process) keeps a game of its own, and
is never offered another's. JupyterLab's resume after a restart is tests/browser/test_keeping.py's.

Each host here is a server of its own with a data folder of its own, so the auto-saves the
test counts are its visitors' alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from milligan_widget.widget.storage import open_envelope

from .hosts import HostPage, HostServer, open_marimo, open_voila, start_marimo, start_voila
from .hosts import stop_server as stop
from .lab import LabError, check_prerequisites


def _server(start: Callable[[Path], HostServer], base: Path) -> Iterator[tuple[HostServer, Path]]:
    """A server started with its own data folder (its kernels inherit the variable)."""
    data = base / "data"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("MILLIGAN_WIDGET_DATA", str(data))
        try:
            check_prerequisites()
            server = start(base)
        except LabError as error:
            pytest.fail(str(error))
    yield server, data
    stop(server)


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HostServer, Path]]:
    yield from _server(start_voila, tmp_path_factory.mktemp("voila-visitors"))


@pytest.fixture(scope="module")
def marimo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[HostServer, Path]]:
    yield from _server(start_marimo, tmp_path_factory.mktemp("marimo-sessions"))


def _kept(data: Path) -> list[int]:
    """The moves of each game auto-saved in ``data``, fewest first."""
    return sorted(open_envelope(path)[0].ply for path in (data / "autosave").glob("*.json"))


def _until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:g} s")
        time.sleep(0.1)


def _deal(host: HostPage, times: int) -> None:
    for n in range(1, times + 1):
        host.pile("stock").click()
        expect(host.stat("moves")).to_have_text(str(n))


def _offered_nothing(host: HostPage) -> None:
    """No game on the page offers to resume a game (each shows its deal, untouched)."""
    games = host.page.locator(".mw-root")
    for n in range(games.count()):
        expect(games.nth(n).locator('[data-stat="moves"]')).to_have_text("0")
        expect(games.nth(n).locator('[data-role="resume"]')).to_be_hidden()


def _visitors(open_page: Callable[[], HostPage], data: Path, word: str) -> None:
    """The first visitor plays and leaves; the second, and a third after both left, are
    offered nothing, and no one's auto-save is written over."""
    first = open_page()
    try:
        _deal(first, 1)
        _until(lambda: _kept(data) == [1], f"the first {word}'s game was not auto-saved")
        second = open_page()
        try:
            _offered_nothing(second)  # was: "Resume your last game: … after 1 move?"
            _deal(second, 2)
            _until(lambda: _kept(data) == [1, 2], f"the second {word}'s game was not kept apart")
        finally:
            second.close()
    finally:
        first.close()
    third = open_page()
    try:
        _offered_nothing(third)
        assert _kept(data) == [1, 2]
    finally:
        third.close()


def test_each_voila_visitor_keeps_a_game_of_its_own(
    voila: tuple[HostServer, Path], browser: Any
) -> None:
    server, data = voila
    _visitors(lambda: open_voila(browser, server), data, "visitor")


def test_each_marimo_session_keeps_a_game_of_its_own(
    marimo: tuple[HostServer, Path], browser: Any
) -> None:
    server, data = marimo
    _visitors(lambda: open_marimo(browser, server), data, "session")
