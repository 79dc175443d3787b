"""Deals by difficulty (issue 24, item 3; issue 32, item 6): the shipped table of deals, its
bands from how far greedy with slips gets on the whole deal, pick_deal."""

from __future__ import annotations

import csv
import doctest
import itertools
import random
import re
import statistics
import sys
from pathlib import Path

import pytest

import milligan_widget.studies.difficulty as difficulty
from milligan_widget import Game
from milligan_widget.engine.rules import PRESETS, Rules
from milligan_widget.studies.difficulty import (
    BANDED,
    choices,
    deal_info,
    deals_of,
    difficulty_of,
    pick_deal,
    shipped_deals,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
sys.path.insert(0, str(ROOT / "benchmarks"))
import deal_features  # noqa: E402
import difficulty_check  # noqa: E402


def study(name: str) -> dict[tuple[str, int], str]:
    with (RESULTS / name).open(newline="") as handle:
        return {(r["rules"], int(r["deal"])): r["status"] for r in csv.DictReader(handle)}


def terciles(rules: str) -> tuple[float, float]:
    won = [row.slips_home for row in shipped_deals()[rules].values() if row.verdict == "winnable"]
    low, high = statistics.quantiles(won, n=3, method="inclusive")
    return low, high


def in_band(rules: str, score: float, band: str) -> bool:
    low, high = terciles(rules)
    return {"hard": score < low, "medium": low <= score <= high, "easy": score > high}[band]


def test_the_table_loads_from_the_package_data():
    table = shipped_deals()
    assert set(table) == set(PRESETS)  # every preset has shipped deals
    assert len(table["classic"]) == 1000 and len(table["millie"]) == 1000
    info = deal_info("classic", 2)
    assert info is not None and info.runs == 16 and 0 <= info.greedy_home <= 104


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


@pytest.mark.parametrize(("rules", "deal"), [("classic", 5), ("millie", 7), ("giant", 3)])
def test_greedys_figures_are_reproducible(rules, deal):
    """The shipped figures are what greedy, plain and with its seeded slips, gets again."""
    info = deal_info(rules, deal)
    assert info is not None
    again = deal_features.measure((rules, deal, info.runs, 0.1))
    shipped = (info.greedy_home, info.slips_home, info.slips_won)
    assert (again["greedy_home"], again["slips_home"], again["slips_won"]) == shipped


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
        assert in_band(rules, info.slips_home, band)
        assert difficulty_of(rules, info.deal) == band


def test_the_bands_split_each_presets_won_deals():
    """Every preset offers the bands; each won deal is in exactly one, the three near thirds;
    picks reach more than one deal."""
    for rules in PRESETS:
        assert choices(rules) == difficulty.DIFFICULTIES  # every preset offers the bands
        won = deals_of(rules, "winnable")
        banded = [deals_of(rules, band) for band in BANDED]
        assert sorted(itertools.chain(*banded)) == won
        assert min(map(len, banded)) >= len(won) // 4, rules  # near thirds
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
    """Every shipped deal, won or not, is banded by the terciles of its preset's won deals."""
    for rules, deals in shipped_deals().items():
        for info in deals.values():
            assert in_band(rules, info.slips_home, info.band), (rules, info.deal)


def test_the_docs_give_the_bands():
    text = (ROOT / "docs" / "difficulty.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([a-z-]+) \| (-?[\d.]+) \| (-?[\d.]+) \|", text, re.MULTILINE)
    documented = {rules: (float(low), float(high)) for rules, low, high in rows}
    assert set(documented) == set(PRESETS)
    for rules in PRESETS:
        assert documented[rules] == pytest.approx(terciles(rules), abs=5e-4), rules


def test_the_docs_give_the_measured_win_rates_per_band(capsys):
    """docs/difficulty.md's win rates per band are what difficulty_check.py reports now."""
    difficulty_check.main(["report"])
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    text = (ROOT / "docs" / "difficulty.md").read_text(encoding="utf-8")
    shown = text.split("<!-- check -->")[1].split("<!-- /check -->")[0]
    assert len(printed) > len(PRESETS) + 2 and all(line in shown for line in printed)


def test_docstring_examples():
    result = doctest.testmod(difficulty)
    assert result.failed == 0 and result.attempted > 0
