"""The benchmarks' results files: a killed run keeps every row it wrote, and the next run
resumes on whole rows."""

from __future__ import annotations

import doctest
import signal
import subprocess
import sys
import textwrap

from tests.benchmark_scripts import BENCHMARKS, load

results_file = load("results_file")


def test_the_docstring_examples_run():
    assert doctest.testmod(results_file).failed == 0


def test_a_run_killed_between_rows_keeps_every_row_it_wrote(tmp_path):
    path = tmp_path / "rows.csv"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(BENCHMARKS)!r})
        from pathlib import Path
        from results_file import appending
        with appending(Path({str(path)!r}), ["deal", "won"]) as add:
            for deal in (1, 2, 3):
                add({{"deal": deal, "won": deal % 2}})
            print("written", flush=True)
            time.sleep(60)
    """)
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert run.stdout is not None and run.stdout.readline() == "written\n"
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    assert [row["deal"] for row in results_file.rows(path)] == ["1", "2", "3"]


def test_the_next_run_writes_on_whole_rows_under_one_header(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("deal,won\n1,0\n2,")  # the second row cut off by a kill
    with results_file.appending(path, ["deal", "won"]) as add:
        add({"deal": 2, "won": 1})
    assert path.read_text() == "deal,won\n1,0\n2,1\n"
    assert results_file.rows(tmp_path / "none.csv") == []
