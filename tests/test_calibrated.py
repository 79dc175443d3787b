"""The calibrated chance (analysis/calibrated.py): honest, the same answer twice, within its
interval, the exact verdict where nothing is hidden, and the shipped model's shape; the
visible features it reads (analysis/features.py) never change with the hidden cards."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from milligan_widget import Game
from milligan_widget.analysis.calibrated import (
    NAMES,
    CalibratedEvaluator,
    Model,
    inputs,
    model_for,
    planner_model_for,
    planner_models,
    shipped_models,
)
from milligan_widget.analysis.evaluate import Chance, Limit, Seen
from milligan_widget.analysis.features import visible_features
from milligan_widget.analysis.sampling import visible_view
from milligan_widget.engine.rules import Rules
from milligan_widget.search.solver import solve
from milligan_widget.strategy import greedy, play_game
from milligan_widget.teaching.lessons import stage
from tests.test_analysis import CLASSIC, HARP, _trap, _twins


@pytest.fixture(scope="module")
def evaluator() -> CalibratedEvaluator:
    return CalibratedEvaluator.for_rules("classic")


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_the_features_depend_only_on_what_the_player_sees(case):
    game, twin = _twins(case[1], case[0], case[2], case[3])
    assert visible_features(visible_view(game)) == visible_features(visible_view(twin))


@pytest.mark.parametrize("case", [CLASSIC, ("millie", 12, ["d"], 16)], ids=["classic", "millie"])
def test_the_calibrated_chance_depends_only_on_what_the_player_sees(case):
    evaluator = CalibratedEvaluator.for_rules(case[0])
    game, twin = _twins(case[1], case[0], case[2], case[3])
    first = evaluator.evaluate(Seen.of(game, line=False), Limit())
    assert first == evaluator.evaluate(Seen.of(twin, line=False), Limit())
    assert first == evaluator.evaluate(Seen.of(game, line=False), Limit())  # asked twice


def test_a_chance_lies_in_its_interval_and_says_what_it_is(evaluator):
    game = play_game(Game.new(5), greedy, max_moves=30)
    chance = evaluator.evaluate(Seen.of(game, line=False), Limit())
    assert chance.calibrated is not None
    assert 0 < chance.low <= chance.p <= chance.high < 1
    assert str(chance).startswith(f"about {100 * chance.p:.0f}% for careful play from here")
    assert chance.p != chance.sampled  # the sampler's figure is kept beside it, by its name
    assert chance.to_dict()["calibrated"] is True


def test_late_and_well_placed_is_likelier_than_the_opening(evaluator):
    opening = evaluator.evaluate(Seen.of(Game.new(8), line=False), Limit())
    line = solve(Game.new(8), time_limit=10).moves
    game = Game.new(8)
    for move in line[: len(line) * 3 // 4]:  # three quarters of a winning line played
        game.play(move)
    late = evaluator.evaluate(Seen.of(game, line=False), Limit())
    assert late.p > opening.p + 0.2


def test_with_nothing_hidden_the_answer_is_the_exact_verdict(evaluator):
    game = _trap()  # Millie: the model is classic's, but nothing is left to estimate
    for move in ["1>f", "2>f", "d"]:
        game.play(move)
    assert visible_view(game).hidden == 0
    chance = evaluator.evaluate(Seen.of(game, line=False), Limit())
    assert chance.exact and chance.calibrated is None and chance.p == 1.0


def test_the_inputs_are_named_and_a_model_reads_those_it_names_in_its_order():
    seen = visible_features(visible_view(Game.new(3)))
    values = inputs(seen, Chance(6, 8, undecided=2))
    assert set(values) == set(NAMES)
    assert values["stock"] == 1.0 and values["sampled"] == 1.0 and values["decided"] == 0.75
    reads_stock = Model("classic", (0.0, 2.0), ((0.0, 0.0), (0.0, 0.0)), "-", ("stock",))
    reads_home = Model("classic", (0.0, 2.0), ((0.0, 0.0), (0.0, 0.0)), "-", ("home",))
    assert reads_stock.chance(values)[0] > 0.8 and reads_home.chance(values)[0] == 0.5


def test_the_column_blocks_count_what_must_move_before_a_card_can_go_home():
    game = stage({1: "3C 9D 8C 7H", 2: "QH 5S JC", 3: "AD 2D"}, rules="millie")
    seen = visible_features(visible_view(game))
    # breaks: 9D on 3C, 5S on QH, JC on 5S, 2D on AD; over their own suit: 8C, 2D
    assert (seen.breaks, seen.self_blocks) == (4, 2)


def test_the_shipped_model_is_whole_and_says_what_it_was_fitted_on():
    shipped = json.loads(files("milligan_widget.data").joinpath("calibration.json").read_text())
    assert "classic" in shipped_models()
    for rules, entry in shipped.items():
        assert set(entry["names"]) <= set(NAMES), rules
        assert shipped_models()[rules].names == tuple(entry["names"]), rules
        assert "honest player" in entry["basis"] and "deals 1.." in entry["basis"]


def test_the_planner_reads_the_model_its_games_were_played_with():
    shipped = json.loads(files("milligan_widget.data").joinpath("calibration.json").read_text())
    for rules, entry in shipped.items():
        planner = entry.get("planner", entry)
        assert planner_models()[rules].weights == tuple(planner["weights"]), rules
        assert planner_models()[rules].names == tuple(planner["names"]), rules
        assert planner_model_for(Rules.named(rules)) == planner_models()[rules]
        assert model_for(Rules.named(rules)) == shipped_models()[rules]
    assert planner_model_for(Rules.named("giant")) is None


def test_a_model_of_the_wrong_shape_or_rules_is_refused():
    with pytest.raises(ValueError, match="needs 11 weights"):
        Model("classic", (0.0,), ((0.0,),), "nothing")
    with pytest.raises(ValueError, match="reads an unknown input: 'luck'"):
        Model("classic", (0.0, 1.0), ((0.0, 0.0), (0.0, 0.0)), "nothing", ("luck",))
    with pytest.raises(KeyError, match="no calibrated chance for 'giant'"):
        CalibratedEvaluator.for_rules("giant")


def test_the_calibrated_evaluator_is_cached_apart_from_the_sampler(evaluator):
    assert evaluator.identity != evaluator.sampler.identity
