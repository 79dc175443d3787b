"""Studies of a player (greedy, honest): one game a deal, in a file of their own."""

import csv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from milligan_widget.studies.study import (
    FIELDS,
    PLAYED_FIELDS,
    Player,
    main,
    read_results,
    run_study,
)

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"


def test_a_player_study_writes_its_own_file_and_resumes(tmp_path):
    out = tmp_path / "greedy.csv"
    greedy = Player("greedy")
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = run_study("classic", [3, 8], 10, pool, out, False, player=greedy)
        again = run_study("classic", [3, 8, 12], 10, pool, out, False, player=greedy)
    rows = list(csv.DictReader(out.open()))
    assert out.read_text().splitlines()[0] == ",".join(PLAYED_FIELDS)
    assert sorted(int(r["deal"]) for r in rows) == [3, 8, 12]  # only 12 was new
    assert (first.deals, again.deals) == (2, 3) and {r["player"] for r in rows} == {"greedy"}
    assert all(r["won"] == str(int(r["status"] == "won")) for r in rows)


def test_the_honest_player_is_studied_with_its_setting(tmp_path, capsys):
    out = tmp_path / "honest.csv"
    options = "--player honest --samples 2 --node-limit 2000 --deals 27 --time-limit 30"
    assert main([*options.split(), "--workers", "1", "--out", str(out), "--quiet"]) == 0
    (row,) = read_results(out)
    assert row["player"] == "honest s=2 n=2000 t=30 e=8" and row["deal"] == "27"
    assert "classic, honest s=2 n=2000 t=30 e=8: 1 deals" in capsys.readouterr().out


def test_the_honest_player_s_seed_is_chosen_named_and_plays_that_seed_s_game(tmp_path):
    # classic deal 64 at the default: seed 1's game (deals 1..200's study of seed 1) ends
    # lost after 39 moves, seed 0's after 58
    published = RESULTS / "calibration-classic-e8-seed1-games.csv"
    (game,) = [r for r in csv.DictReader(published.open()) if r["deal"] == "64"]
    out = tmp_path / "honest-seed1.csv"
    argv = ["--player", "honest", "--seed", "1", "--deals", "64", "--workers", "1"]
    assert main([*argv, "--out", str(out), "--quiet"]) == 0
    (row,) = read_results(out)
    assert row["player"] == "honest s=8 n=20000 e=8 seed=1"
    assert (row["won"], int(row["moves"])) == (game["won"], len(game["moves"].split()))
    assert Player("honest", None).label == "honest s=8 n=20000 e=8"  # seed 0, as before


@pytest.mark.parametrize("seed", ["-1", "one", "1.5", str(2**63)])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed, tmp_path, capsys):
    out = tmp_path / "honest.csv"
    with pytest.raises(SystemExit) as stop:
        main(["--player", "honest", "--seed", seed, "--out", str(out), "--quiet"])
    assert stop.value.code == 2 and "is not a seed" in capsys.readouterr().err
    assert not out.exists()


def test_a_solver_study_file_is_not_mixed_with_a_players(tmp_path, capsys):
    out = tmp_path / "study.csv"
    out.write_text(",".join(FIELDS) + "\nclassic,8,winnable,0.1,10,5,0\n")
    with pytest.raises(SystemExit) as stop:
        main(["--player", "greedy", "--deals", "8", "--out", str(out), "--quiet"])
    assert stop.value.code == 2 and "holds the solver's verdicts" in capsys.readouterr().err
    assert read_results(out)[0]["status"] == "winnable"  # the old file still reads, untouched


def test_the_study_plays_the_chosen_planner_and_names_it_in_the_file(tmp_path, monkeypatch):
    import milligan_widget.strategy as strategy

    out = tmp_path / "honest.csv"
    asked = []

    def recording_honest(*args, **kwargs):
        asked.append(kwargs["planner"])
        return strategy.greedy  # the planner's own games are tested in tests/test_planner.py

    monkeypatch.setattr(strategy, "honest", recording_honest)
    with ThreadPoolExecutor(max_workers=1) as pool:
        player = Player("honest", 30.0, 2, 2_000, "next-row")
        run_study("classic", [27], 30.0, pool, out, False, player=player)
    (row,) = read_results(out)
    assert row["player"] == "honest s=2 n=2000 t=30 next-row e=8" and asked == ["next-row"]
    with pytest.raises(SystemExit) as stop:
        main(["--player", "honest", "--planner", "uct", "--out", str(out), "--quiet"])
    assert stop.value.code == 2


def test_an_honest_study_plays_each_preset_s_own_planner_unless_told(tmp_path, monkeypatch):
    import milligan_widget.strategy as strategy

    asked = []

    def recording_honest(*args, **kwargs):
        asked.append(kwargs["planner"])
        return strategy.greedy

    monkeypatch.setattr(strategy, "honest", recording_honest)
    with ThreadPoolExecutor(max_workers=1) as pool:
        for rules in ("millie", "classic"):
            run_study(rules, [27], None, pool, tmp_path / "honest.csv", False,
                      player=Player("honest", None, 2, 2_000))  # fmt: skip
    assert [row["player"] for row in read_results(tmp_path / "honest.csv")] == [
        "honest s=2 n=2000 calibrated h=2 e=8",
        "honest s=2 n=2000 e=8",
    ]
    assert asked == ["calibrated", "hop"]
