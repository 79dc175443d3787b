"""The win-rate study: results land in a CSV as they come, and a study resumes."""

import csv
from concurrent.futures import ThreadPoolExecutor

import pytest

from milligan_widget.study import main, parse_deals, run_study, wilson


def test_deal_ranges():
    assert parse_deals("1..3,7") == [1, 2, 3, 7]
    with pytest.raises(Exception, match="not a deal range"):
        parse_deals("one..two")


def test_wilson_interval_holds_the_share():
    low, high = wilson(14, 30)
    assert 0.28 < low < 14 / 30 < high < 0.65
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_a_study_writes_as_it_goes_and_resumes(tmp_path):
    out = tmp_path / "study.csv"
    with ThreadPoolExecutor(max_workers=2) as pool:
        summary = run_study("classic", [8, 12], 10, pool, out, progress=False)
    rows = list(csv.DictReader(out.open()))
    assert sorted(int(r["deal"]) for r in rows) == [8, 12]
    assert summary.deals == 2 and summary.winnable == 2  # both are quick wins
    with ThreadPoolExecutor(max_workers=1) as pool:
        again = run_study("classic", [8, 12, 16], 10, pool, out, progress=False)
    rows = list(csv.DictReader(out.open()))
    assert sorted(int(r["deal"]) for r in rows) == [8, 12, 16]  # only 16 was new
    assert again.deals == 3


def test_command_line(tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["--rules", "classic", "--deals", "8", "--time-limit", "10", "--workers", "1",
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "classic: 1 deals" in printed and "winnable" in printed
