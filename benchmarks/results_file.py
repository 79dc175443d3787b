"""The results files the benchmarks append to as they go, so that a stopped run resumes where
it stopped: the rows a file holds already (:func:`rows`) say what is done, and
:func:`appending` adds the new ones.

Each row is flushed as it is written, so a killed run loses at most the row it was writing;
a last line cut off by a kill is not a row (:func:`rows` leaves it out, and the next
:func:`appending` drops it before it writes). Every line ends in a bare newline, whichever
script wrote it.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "rows.csv"
>>> with appending(path, ["deal", "won"]) as add:
...     add({"deal": 1, "won": 0})
>>> _ = path.open("a").write("2,1")  # a row a kill cut off
>>> [row["deal"] for row in rows(path)]
['1']
>>> with appending(path, ["deal", "won"]) as add:
...     add({"deal": 2, "won": 1}, {"deal": 3, "won": 0})
>>> path.read_text()
'deal,won\\n1,0\\n2,1\\n3,0\\n'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

Row = Mapping[str, Any]


def rows(path: Path) -> list[dict[str, str]]:
    """The whole rows of ``path``: none if it does not exist; a last line cut off is not one."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text[: text.rfind("\n") + 1])))


@contextmanager
def appending(path: Path, fields: Sequence[str]) -> Iterator[Callable[..., None]]:
    """``add(*rows)``, which appends ``rows`` (of ``fields``) to ``path`` and flushes them at
    once. The file is made with its header if it is new or empty; a last line cut off by a
    kill is dropped first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _drop_cut_line(path)
    with path.open("a", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(fields), lineterminator="\n")
        if handle.tell() == 0:
            writer.writeheader()
            handle.flush()

        def add(*new: Row) -> None:
            writer.writerows(new)
            handle.flush()

        yield add


def _drop_cut_line(path: Path) -> None:
    if not path.exists():
        return
    with path.open("rb+") as handle:
        data = handle.read()
        if data and not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)
