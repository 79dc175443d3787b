"""benchmarks/open_endgames.py: the honest player's lost games, solved from just after their
last deal."""

from __future__ import annotations

import csv
import doctest

from tests.benchmark_scripts import load
from tests.staging import greedy_to_the_stock_s_end

endgames = load("open_endgames")


def test_each_game_that_dealt_out_is_solved_from_its_last_deal_once(tmp_path):
    line = [str(move) for move in greedy_to_the_stock_s_end(3, "millie").history]
    played = [*line, "1>2"]  # and a move after it (only counted)
    games, out = tmp_path / "games.csv", tmp_path / "endgames.csv"
    with games.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["rules", "deal", "won", "moves"])
        writer.writeheader()
        writer.writerow({"rules": "millie", "deal": 3, "won": 0, "moves": " ".join(played)})
        writer.writerow({"rules": "millie", "deal": 4, "won": 0, "moves": "d 3>f"})  # rows left
    endgames.play(games, out, 20_000)
    endgames.play(games, out, 20_000)  # resumed: nothing new
    rows = list(csv.DictReader(out.open()))
    last = len(line) - line[::-1].index("d")
    assert [(r["deal"], r["last_deal"], r["moves"]) for r in rows] == [
        ("3", str(last), str(len(played)))
    ]
    assert rows[0]["status"] in ("winnable", "unwinnable", "unknown") and int(rows[0]["nodes"]) > 0
    assert endgames.after_last_deal("millie", 3, line).stock_count == 0


def test_the_report_sorts_the_lost_games_by_their_endgame():
    rows = [
        {"won": "0", "status": "winnable", "nodes": "900000"},
        {"won": "0", "status": "winnable", "nodes": "2500000"},
        {"won": "0", "status": "unknown", "nodes": "10000001"},
        {"won": "0", "status": "unwinnable", "nodes": "12"},
        {"won": "1", "status": "winnable", "nodes": "3000000"},  # won by the player: not counted
    ]
    figures = endgames.summary(rows, first_budget=1_000_000)
    assert figures["lost"] == 4 and figures["lost, left open"] == 1
    assert figures["lost, won within the first budget"] == 1
    assert figures["lost, won beyond the first budget"] == [2_500_000]
    assert figures["lost, proven lost after the last deal"] == 1


def test_the_script_s_examples():
    assert doctest.testmod(endgames).failed == 0
