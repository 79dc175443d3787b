"""benchmarks/solve_clock.py: one position solved with one and two workers side by side, the
rows kept and resumed, and the shares read from them."""

from __future__ import annotations

import doctest

from tests.benchmark_scripts import load

solve_clock = load("solve_clock")
results_file = load("results_file")


def test_a_node_budget_run_keeps_both_workers_rows_resumes_and_reports(tmp_path, capsys):
    out = tmp_path / "nodes.csv"
    # Millie deal 112 after 40 greedy moves: the beam alone wins it within 20,000 positions
    argv = ["--rules", "millie", "--deals", "1", "--offsets", "111", "--nodes", "20000",
            "--out", str(out)]  # fmt: skip
    assert solve_clock.main(argv) == 0
    rows = results_file.rows(out)
    assert [(r["deal"], r["workers"], r["status"]) for r in rows] == [
        ("112", "2", "winnable"), ("112", "1", "unknown")]  # an even deal: two workers first
    assert {(r["node_limit"], r["time_limit"]) for r in rows} == {("20000", "inf")}
    printed = capsys.readouterr().out
    assert "1 positions after 40 greedy moves, 20,000 positions a side" in printed
    assert "workers=1: decided 0/1" in printed and "workers=2: decided 1/1" in printed
    assert "only workers=1: 0, only workers=2: 1" in printed
    solve_clock.main(argv)  # done already: nothing is solved again
    assert results_file.rows(out) == rows


def test_open_in_solves_only_what_an_earlier_run_left_open(tmp_path, capsys):
    earlier = tmp_path / "earlier.csv"
    with results_file.appending(earlier, solve_clock.FIELDS) as add:
        add({"rules": "millie", "deal": 1, "workers": 1, "status": "winnable"},
            {"rules": "millie", "deal": 112, "workers": 1, "status": "unknown"})  # fmt: skip
    out = tmp_path / "bigger.csv"
    argv = ["--rules", "millie", "--deals", "1", "--offsets", "0,111", "--nodes", "20000",
            "--workers", "1", "--open-in", str(earlier), "--out", str(out)]  # fmt: skip
    assert solve_clock.main(argv) == 0
    assert [(r["deal"], r["workers"]) for r in results_file.rows(out)] == [("112", "1")]
    assert "1 positions after 40 greedy moves" in capsys.readouterr().out
    assert doctest.testmod(solve_clock).failed == 0
