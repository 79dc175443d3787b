"""Every test, and every kernel and server the tests start, keeps its statistics and saves in
a folder of its own: never in the user's data folder."""

from __future__ import annotations

import os
import tempfile

os.environ["MILLIGAN_WIDGET_DATA"] = tempfile.mkdtemp(prefix="milligan-test-data-")


def pytest_collection_modifyitems(config, items):
    """The browser tests run last: Playwright's sync API keeps an event loop running in this
    thread for the rest of the session, which tests of the kernel without threads (that look
    for a running loop, as Pyodide's kernel has) must not see. The fast tests fail fast too."""
    items.sort(key=lambda item: item.path.parent.name == "browser")  # a stable sort
