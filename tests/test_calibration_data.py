"""benchmarks/calibration_data.py: the features it reads, the deals it refuses, and how an
interrupted run resumes."""

from __future__ import annotations

import csv
import sys

import pytest

from milligan_widget import Game, Move
from milligan_widget.analysis.features import buried_low
from milligan_widget.analysis.sampling import visible_view
from milligan_widget.search.greedy import greedy
from tests.benchmark_scripts import load
from tests.staging import stage

data = load("calibration_data")


def test_buried_low_cards_are_counted_with_the_cards_on_them():
    """Column 1 gets A♣ under 9♥ 8♠ (two on it); the top card of a column is not buried."""
    game = stage({1: "AC 9H 8S", 2: "2D"}, stock_empty=False)
    assert buried_low(visible_view(game)) == (1, 2)


def test_a_row_holds_what_a_player_sees_and_the_sampler_s_figure():
    row = data.features(Game.new(3), samples=2, nodes=500)
    assert (row["ply"], row["home"], row["stock_left"]) == (0, 0, 96)
    assert row["sample_decided"] + row["sample_undecided"] == 2


def test_deals_above_1500_are_refused(monkeypatch, tmp_path, capsys):
    out = tmp_path / "rows.csv"
    monkeypatch.setattr(sys, "argv", ["x", "--deals", "1500..1501", "--out", str(out)])
    with pytest.raises(SystemExit):
        data.main()
    assert "1501 is not in 1..1500" in capsys.readouterr().err and not out.exists()


def test_an_interrupted_run_resumes_after_the_deals_it_wrote(monkeypatch, tmp_path):
    """Each game's rows go out when it ends: a second run plays only the deals missing."""
    played = []

    def play(rules, deal, seed, every, samples, nodes):
        played.append(deal)
        game = {"rules": rules, "deal": deal, "player_seed": seed, "won": 0, "moves": "d d"}
        return [{field: 0 for field in data.FIELDS} | {"rules": rules, "deal": deal}], game

    monkeypatch.setattr(data, "play", play)
    out = tmp_path / "rows.csv"
    data.append(out, play("classic", 1, 0, 10, 8, 2000)[0])  # the run before stopped after 1
    monkeypatch.setattr(sys, "argv", ["x", "--deals", "1..3", "--out", str(out)])
    data.main()
    assert played == [1, 2, 3]  # deal 1 by the run before; 2 and 3 now
    with out.open(newline="") as handle:
        assert [int(row["deal"]) for row in csv.DictReader(handle)] == [1, 2, 3]
    with (tmp_path / "rows-games.csv").open(newline="") as handle:  # each game's moves beside
        assert [(row["deal"], row["moves"]) for row in csv.DictReader(handle)] == [
            ("2", "d d"),
            ("3", "d d"),
        ]


def test_a_refresh_measures_what_a_player_sees_again_and_keeps_the_rest(tmp_path):
    """Rows written before a feature existed get it from their game's moves; the sampler's
    columns and the outcome stay; a row whose game was not kept is left as it was."""
    game, moves = Game.new(3, "millie"), []
    for _ in range(12):
        move = greedy(game) or Move.deal()
        moves.append(str(move))
        game.play(move)
    out = tmp_path / "rows.csv"
    old = [f for f in data.FIELDS if f not in ("breaks", "self_blocks")]
    rows = [{**dict.fromkeys(old, 7), "rules": "millie", "deal": deal, "player_seed": 0,
             "ply": ply} for deal, ply in ((3, 0), (3, 12), (4, 0))]  # fmt: skip
    data.append(out, rows, old)
    data.append(tmp_path / "rows-games.csv", [{"rules": "millie", "deal": 3, "player_seed": 0,
                                               "won": 0, "moves": " ".join(moves)}],
                data.GAME_FIELDS)  # fmt: skip
    assert data.refresh(out, "millie") == 2
    with out.open(newline="") as handle:
        fresh = list(csv.DictReader(handle))
    assert {k: int(v) for k, v in fresh[1].items() if k in data.VISIBLE} == data.visible(game)
    assert fresh[0]["stock_left"] == "96" and fresh[1]["sample_wins"] == "7"  # the rest stays
    assert fresh[2]["home"] == "7" and fresh[2]["breaks"] == ""  # no game kept: as it was
