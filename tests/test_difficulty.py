"""Deals by difficulty (issue 24, item 3): the shipped table of deals, its bands, pick_deal."""

from __future__ import annotations

import csv
import doctest
import itertools
import random
import re
import statistics
from pathlib import Path

import pytest

import milligan_widget.studies.difficulty as difficulty
from milligan_widget import Game
from milligan_widget.analysis import win_chance
from milligan_widget.engine.rules import PRESETS, Rules
from milligan_widget.studies.difficulty import (
    BANDS,
    deal_info,
    deals_of,
    difficulty_of,
    pick_deal,
    shipped_deals,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
BANDED = ("easy", "medium", "hard")


def study(name: str) -> dict[tuple[str, int], str]:
    with (RESULTS / name).open(newline="") as handle:
        return {(r["rules"], int(r["deal"])): r["status"] for r in csv.DictReader(handle)}


def in_band(rules: str, chance: float, band: str) -> bool:
    low, high = BANDS[rules]
    return {"hard": chance < low, "medium": low <= chance <= high, "easy": chance > high}[band]


def test_the_table_loads_from_the_package_data():
    table = shipped_deals()
    assert set(table) == set(PRESETS)  # every preset has shipped deals
    assert len(table["classic"]) == 1000 and len(table["millie"]) == 1000
    info = deal_info("classic", 2)
    assert info is not None and info.samples == 16 and 0 <= info.wins <= 16


def test_the_table_holds_the_studies_verdicts():
    """Each deal's verdict is the 10 s study's, or the 60 s study's where that was unknown."""
    first, later = study("win-rates-10s.csv"), study("win-rates-60s.csv")
    for (rules, deal), status in first.items():
        info = deal_info(rules, deal)
        if info is None:
            continue  # not measured (the table is built from what was measured)
        expected = later.get((rules, deal), status) if status == "unknown" else status
        assert info.verdict == expected, (rules, deal)
        assert info.budget == ("60s" if status == "unknown" and (rules, deal) in later else "10s")


@pytest.mark.parametrize(("rules", "deal"), [("classic", 5), ("millie", 7)])
def test_the_opening_chance_is_reproducible(rules, deal):
    """The shipped chance is what win_chance gives with the table's seed and node limit."""
    info = deal_info(rules, deal)
    assert info is not None
    chance = win_chance(Game.new(deal, rules), samples=16, time_limit=600, node_limit=20_000,
                        seed=deal)  # fmt: skip
    assert (chance.wins, chance.undecided) == (info.wins, info.undecided)


@pytest.mark.parametrize("rules", sorted(PRESETS))
@pytest.mark.parametrize("band", BANDED)
def test_every_pick_is_in_its_band(rules, band):
    rng = random.Random(7)
    if not deals_of(rules, band):
        with pytest.raises(ValueError, match=f"no shipped {rules} deal is {band}"):
            pick_deal(rules, band, rng)
        return
    for _ in range(50):
        info = deal_info(rules, pick_deal(rules, band, rng))
        assert info is not None and info.verdict == "winnable"
        assert in_band(rules, info.wins / info.samples, band)
        assert difficulty_of(rules, info.deal) == band


def test_the_bands_split_each_presets_won_deals():
    """Each won deal is in exactly one band, and picks reach more than one deal."""
    for rules in PRESETS:
        won = deals_of(rules, "winnable")
        banded = [deals_of(rules, band) for band in BANDED]
        assert sorted(itertools.chain(*banded)) == won
    assert len({pick_deal("classic", "hard", random.Random(n)) for n in range(20)}) > 5


def test_winnable_picks_only_solver_won_deals():
    first, later = study("win-rates-10s.csv"), study("win-rates-60s.csv")
    rng = random.Random(3)
    for rules in ("classic", "millie", "milligan-harp"):
        for _ in range(100):
            deal = pick_deal(rules, "winnable", rng)
            assert "winnable" in (first.get((rules, deal)), later.get((rules, deal)))
    unwon = [d for d, info in shipped_deals()["classic"].items() if info.verdict != "winnable"]
    assert unwon and all(difficulty_of("classic", deal) is None for deal in unwon)


def test_any_is_any_numbered_deal_for_any_rules():
    custom = Rules(cells=2, empty_column="any")
    deal = pick_deal(custom, "any", random.Random(1))
    assert 1 <= deal <= 10**9 and pick_deal(custom, "any", random.Random(1)) == deal
    assert Game.new(pick_deal("classic", "any", random.Random(2))).status == "playing"


@pytest.mark.parametrize("bad", ["impossible", "Hard", "", None, 3])
def test_an_unknown_difficulty_is_refused_naming_the_choices(bad):
    with pytest.raises(ValueError, match="choose one of any, winnable, easy, medium, hard"):
        pick_deal("classic", bad, random.Random(1))


def test_rules_without_shipped_deals_are_refused_naming_the_presets():
    custom = Rules(cells=2, empty_column="any")
    assert custom.name is None
    with pytest.raises(ValueError, match=r"no deals are shipped for these custom rules.*classic"):
        pick_deal(custom, "hard", random.Random(1))
    assert difficulty_of(custom, 2) is None


def test_the_bands_are_the_terciles_of_the_won_deals():
    for rules, deals in shipped_deals().items():
        won = [info.wins / info.samples for info in deals.values() if info.verdict == "winnable"]
        low, high = statistics.quantiles(won, n=3, method="inclusive")
        assert BANDS[rules] == pytest.approx((low, high), abs=1e-6), rules


def test_the_docs_give_the_modules_bands():
    text = (ROOT / "docs" / "difficulty.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z-]+) \| ([\d.]+) \| ([\d.]+) \|", text, re.MULTILINE)
    documented = {rules: (float(low), float(high)) for rules, low, high in rows}
    assert set(documented) == set(BANDS)
    for rules, band in BANDS.items():
        assert documented[rules] == pytest.approx(band, abs=5e-4), rules


def test_docstring_examples():
    result = doctest.testmod(difficulty)
    assert result.failed == 0 and result.attempted > 0
