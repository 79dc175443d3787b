"""The win-rate study: results land in a CSV as they come, and a study resumes."""

import argparse
import csv
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from milligan_widget.studies.study import (
    FIELDS,
    main,
    parse_deals,
    read_results,
    run_study,
    summarise,
    wilson,
)


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


# ----------------------------------------------------------------------------- D7: damage


def test_deal_specs_are_checked_and_deduplicated():
    assert parse_deals("1..3,2..4") == [1, 2, 3, 4]
    assert parse_deals("5, 3, 5") == [5, 3]
    for bad, words in [
        ("0..3", "no deal 0"),
        ("5..1", "empty range"),
        ("1..", "not a deal range"),
        ("..4", "not a deal range"),
        ("1...3", "not a deal range"),
        ("", "not a deal range"),
        ("1..1" + "0" * 30, "not a deal range"),
        ("١..٣", "not a deal range"),  # Arabic-Indic digits: int() takes them, we do not
        ("1..100000000000000000000", "not a deal range"),
        ("1..99999999999999999999", "more than"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            parse_deals(bad)


@pytest.mark.parametrize("spec", ["0..3", "5..1", "x"])
def test_bad_deal_specs_are_usage_errors_not_tracebacks(tmp_path, capsys, spec):
    with pytest.raises(SystemExit) as stop:
        main(["--deals", spec, "--out", str(tmp_path / "s.csv"), "--quiet"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--deals" in err and "Traceback" not in err
    assert not (tmp_path / "s.csv").exists()


def test_an_empty_file_from_a_kill_before_the_first_row_resumes(tmp_path):
    out = tmp_path / "study.csv"
    out.write_text("")  # what the old code left after a SIGTERM before the first row
    with ThreadPoolExecutor(max_workers=1) as pool:
        summary = run_study("classic", [8], 10, pool, out, progress=False)
    assert summary.deals == 1
    assert out.read_text().splitlines()[0] == ",".join(FIELDS)


def test_a_truncated_last_line_is_cut_off_not_merged(tmp_path):
    out = tmp_path / "study.csv"
    out.write_text(",".join(FIELDS) + "\nclassic,8,winnable,0.1,10,5,0\nclassic,12,winn")
    messages = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        summary = run_study("classic", [8, 12], 10, pool, out, False, messages.append)
    assert any("cut off" in m for m in messages)
    rows = list(csv.DictReader(out.open()))
    assert [int(r["deal"]) for r in rows] == [8, 12] and rows[1]["status"] == "winnable"
    assert summary.deals == 2 and summary.winnable == 2


def test_garbage_rows_are_skipped_and_reported(tmp_path):
    out = tmp_path / "study.csv"
    out.write_text(
        ",".join(FIELDS) + "\r\n"
        "classic,8,winnable,0.1,10,5,0\r\n"
        "garbage\n"
        "classic,x,winnable,0.1,10,5,0\n"
        "classic,9,maybe,0.1,10,5,0\n"
        "classic,8,unknown,0.1,10,5,0\n"  # deal 8 twice: the first row counts
        "nosuch,3,winnable,0.1,10,5,0\n"
        "\x00\x00\x00\n"
    )
    messages = []
    rows = read_results(out, messages.append)
    assert [(r["rules"], r["deal"], r["status"]) for r in rows] == [("classic", "8", "winnable")]
    assert sum("damaged row" in m for m in messages) == 5
    with ThreadPoolExecutor(max_workers=1) as pool:
        summary = run_study("classic", [8, 12], 10, pool, out, False, messages.append)
    assert summary.deals == 2 and summary.winnable == 2
    assert summary.lines()[0] == "classic: 2 deals"


def test_a_file_that_is_not_a_study_is_refused_untouched(tmp_path, capsys):
    out = tmp_path / "notes.csv"
    out.write_text("my,own,data\n1,2,3\n")
    with pytest.raises(SystemExit) as stop:
        main(["--deals", "8", "--out", str(out), "--quiet"])
    assert stop.value.code == 2 and "not a study's results file" in capsys.readouterr().err
    assert out.read_text() == "my,own,data\n1,2,3\n"


def test_a_summary_of_nothing_does_not_divide_by_zero():
    assert summarise([], "classic").lines() == ["classic: no deals solved yet"]


def test_a_failing_deal_does_not_lose_the_others(tmp_path, monkeypatch):
    import milligan_widget.studies.study as study

    real = study.solve_deal

    def flaky(rules, deal, time_limit):
        if deal == 12:
            raise RuntimeError("worker lost")
        return real(rules, deal, time_limit)

    monkeypatch.setattr(study, "solve_deal", flaky)
    out, messages = tmp_path / "s.csv", []
    with ThreadPoolExecutor(max_workers=2) as pool:
        summary = run_study("classic", [8, 12, 16], 10, pool, out, False, messages.append)
    assert summary.deals == 2 and any("deal 12 failed" in m for m in messages)


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("kill", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_study_leaves_no_worker_and_resumes_without_double_counting(tmp_path, kill):
    out = tmp_path / "study.csv"
    command = [sys.executable, "-m", "milligan_widget.studies.study", "--rules", "classic",
               "--deals", "1..12", "--time-limit", "0.3", "--workers", "2",
               "--out", str(out), "--quiet"]
    # The pure-Python search core: on the compiled one the twelve deals can be done before
    # the kill lands (what is tested is the kill, not the speed).
    env = dict(os.environ, MILLIGAN_WIDGET_BACKEND="python")
    study = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and study.poll() is None:
        workers |= _descendants(study.pid)
        if len(workers) >= 2 and out.exists():
            break
        time.sleep(0.02)
    assert study.poll() is None and workers, "the study ended before it could be killed"
    time.sleep(0.3)
    workers |= _descendants(study.pid)
    study.send_signal(kill)
    study.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived the study"
    if kill == signal.SIGTERM:
        assert study.returncode == 128 + signal.SIGTERM
    assert out.read_text().startswith(",".join(FIELDS) + "\n")  # never an empty file
    again = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert again.returncode == 0, again.stderr
    deals = [int(r["deal"]) for r in csv.DictReader(out.open())]
    assert sorted(deals) == list(range(1, 13))  # each deal once
    assert "classic: 12 deals" in again.stdout

