"""Every test, and every kernel and server the tests start, keeps its statistics and saves in
a folder of its own: never in the user's data folder."""

from __future__ import annotations

import os
import tempfile

os.environ["MILLIGAN_WIDGET_DATA"] = tempfile.mkdtemp(prefix="milligan-test-data-")
