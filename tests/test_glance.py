"""benchmarks/glance.py: docs/win-rates.md's "at a glance" table is the script's output from
benchmarks/results/, so the page cannot drift from the games it reports."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from tests.benchmark_scripts import load

glance = load("glance")
PAGE = Path(__file__).resolve().parents[1] / "docs" / "win-rates.md"


def test_the_examples_run():
    assert doctest.testmod(glance).failed == 0


def test_the_page_shows_the_table_the_results_make():
    made = glance.table()
    assert made.count("\n") == 1 + len(glance.TODAY)
    assert made in PAGE.read_text(encoding="utf-8"), (
        "docs/win-rates.md's table differs from `python benchmarks/glance.py`'s:\n" + made
    )


def test_the_rates_come_from_the_files_named(tmp_path, monkeypatch):
    header = "rules,deal,player,won,status,foundation_cards,moves,seconds\n"
    for seed, wins in enumerate([(1, 2), (1,), ()]):
        lines = [f"classic,{d},honest,{int(d in wins)},x,0,0,1.0\n" for d in (1, 2, 3, 4)]
        (tmp_path / f"s{seed}.csv").write_text(header + "".join(lines))
    monkeypatch.setattr(glance, "RESULTS", tmp_path)
    counts = glance.rates(("s0.csv", "s1.csv", "s2.csv"), "classic", [1, 2, 3, 4])
    assert counts == [(2, 4), (1, 4), (0, 4)]
    assert glance.tuned_cells(counts) == ["**25.0%** (50.0%, 25.0%, 0.0%)", "25.0 points"]
    with pytest.raises(SystemExit, match=r"s0\.csv has not played classic deals \[5\]"):
        glance.rates(("s0.csv",), "classic", [4, 5])
