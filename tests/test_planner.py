"""The planner across the next deal: it plays from what it sees, legally and repeatably."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from milligan_widget import Game, Move
from milligan_widget.analysis.calibrated import LineEnds
from milligan_widget.analysis.evaluate import Chance
from milligan_widget.analysis.hint import candidates
from milligan_widget.analysis.honest import calibrated_plan
from milligan_widget.analysis.planner import HALVINGS, Settings, next_row_plan
from milligan_widget.strategy import honest
from tests.test_analysis import CLASSIC, HARP, _twins
from tests.test_judge import jacks

SMALL = Settings(rows=2, rounds=2, follow=2, leaf_samples=1, leaf_nodes=1_500)


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_the_plan_depends_only_on_what_the_player_sees(case):
    game, twin = _twins(case[1], case[0], case[2], case[3])
    plan = next_row_plan(game, SMALL, seed=3)
    assert plan == next_row_plan(twin, SMALL, seed=3)
    assert len(plan.lines) > 2 and max(plan.rows) == 4  # the survivors met both rounds' rows


def test_the_same_seed_gives_the_same_plan_and_the_best_line_is_legal():
    game = Game.new(40).after("d")
    plan = next_row_plan(game, SMALL, seed=11)
    assert plan == next_row_plan(game, SMALL, seed=11)
    board = game.copy()
    for move in plan.best.all_moves:
        assert board.is_legal(move)
        board.play(move)


def test_the_best_line_has_the_highest_value_among_those_judged_longest():
    plan = next_row_plan(Game.new(27).after("d"), SMALL, seed=5)
    longest = [v for v, r in zip(plan.values, plan.rows, strict=True) if r == max(plan.rows)]
    assert plan.values[0] == max(longest)


@pytest.mark.parametrize("leaf", ["solve", "greedy", "score"])
def test_the_next_row_player_moves_alike_until_a_deal_shows_a_difference(leaf):
    """Rows 1 and 2 of the stock are the same in both games: so are the player's moves up to
    the second deal, and each is legal."""
    game, twin = _twins(12, "classic", [], 24)
    settings = Settings(rows=1, rounds=2, follow=2, leaf_samples=1, leaf_nodes=1_500, leaf=leaf)
    lines = []
    for board in (game, twin):
        player, played = honest(seed=4, planner="next-row", settings=settings), []
        while board.stock_count > 80:
            move = player(board)
            assert move is not None and board.is_legal(move)
            played.append(str(move))
            board.play(move)
        lines.append(played)
    assert lines[0] == lines[1] and lines[0].count("d") == 2


def test_bad_settings_are_refused_in_words():
    with pytest.raises(ValueError, match="leaf must be one of solve, greedy, score"):
        Settings(leaf="oracle")
    with pytest.raises(ValueError, match="must be >= 1"):
        Settings(rows=0)
    with pytest.raises(ValueError, match="halvings must be >= 0"):
        Settings(halvings=-1)
    with pytest.raises(ValueError, match="planner must be one of hop, next-row"):
        honest(planner="uct")


# ------------------------------------------------------------ the calibrated planner
MILLIE = ("millie", 12, ["d"], 16)  # the preset whose honest player plans so by default


@pytest.mark.parametrize("case", [CLASSIC, MILLIE], ids=["classic", "millie"])
def test_the_calibrated_plan_depends_only_on_what_the_player_sees(case):
    rules, deal, moves, keep = case
    game, twin = _twins(deal, rules, moves, keep)
    line = calibrated_plan(game, samples=2, node_limit=2_000)
    assert line == calibrated_plan(twin, samples=2, node_limit=2_000)
    assert line == calibrated_plan(game, samples=2, node_limit=2_000)  # asked twice
    board = game.copy()
    for move in line:
        assert board.is_legal(move)
        board.play(move)
    assert line[-1].is_deal


def _chances_by_line(monkeypatch, value):
    """Make every end of line ``i`` (the ``k``-th stock drawn for it) have the chance
    ``value(i, k)``; the lines and how many stocks each was drawn on are recorded."""
    drawn: dict[int, int] = {}

    def end(self, sample, line):
        i = self.lines.index(line)
        drawn[i] = drawn.get(i, 0) + 1
        return Chance(1, 2, calibrated=(value(i, drawn[i]), 0.0, 1.0))

    monkeypatch.setattr(LineEnds, "_end", end)
    return drawn


def test_the_calibrated_plan_takes_the_line_whose_end_it_likes_best(monkeypatch):
    drawn = _chances_by_line(monkeypatch, lambda i, k: 0.1 * i)
    game = Game.new(27, "millie")
    line = calibrated_plan(game, samples=2, node_limit=2_000, seed=1, halvings=0)
    _, lines, _ = candidates(game, seed=1)
    assert len(lines) > 2 and drawn == {i: 2 for i in range(len(lines))}
    assert line == lines[-1].all_moves  # the last line's end was given the best chance


def test_halving_gives_the_better_half_more_stocks_and_ranks_by_all_of_them(monkeypatch):
    """Line 0 leads on the first two stocks, line 1 on every later one: after two halvings
    the two finalists have met six stocks each, and line 1 is ahead over them."""
    assert HALVINGS == 2
    drawn = _chances_by_line(monkeypatch, lambda i, k: {0: 0.9 if k <= 2 else 0.1,
                                                        1: 0.5}.get(i, 0.01 * i))  # fmt: skip
    game = Game.new(27, "millie")
    _, lines, _ = candidates(game, seed=1)
    assert calibrated_plan(game, 2, 2_000, seed=1, halvings=0) == lines[0].all_moves
    drawn.clear()
    line = calibrated_plan(game, samples=2, node_limit=2_000, seed=1)  # two halvings, the default
    assert line == lines[1].all_moves
    first = max(2, (len(lines) + 1) // 2)  # the lines that met a second round of stocks
    second = max(2, (first + 1) // 2)  # and a third
    counts = sorted(drawn.values())
    assert counts == [2] * (len(lines) - first) + [4] * (first - second) + [6] * second
    assert drawn[0] == drawn[1] == 6
    drawn.clear()  # the honest player halves by default, as its settings say
    honest(samples=2, node_limit=2_000)(game)
    assert max(drawn.values()) == 6
    drawn.clear()
    honest(samples=2, node_limit=2_000, settings=Settings(halvings=0))(game)
    assert max(drawn.values()) == 2


def test_the_calibrated_player_sends_home_the_jacks_a_deal_would_bury():
    move = honest(samples=2, node_limit=2_000, planner="calibrated")(jacks())
    assert move is not None and not move.is_deal and move.target.startswith("f")


def test_the_calibrated_planner_needs_rules_with_a_model():
    with pytest.raises(ValueError, match="needs rules with a calibrated chance"):
        calibrated_plan(Game.new(1, "milligan-harp"), samples=2, node_limit=2_000)


def test_by_default_millie_is_played_by_the_calibrated_planner_and_classic_by_hop(monkeypatch):
    import milligan_widget.analysis.honest as module

    asked: list[str] = []

    def calibrated(game, *args):
        asked.append("calibrated")
        return (Move.deal(),)

    def hop(game, *args):
        asked.append("hop")
        return SimpleNamespace(best=SimpleNamespace(line=SimpleNamespace(all_moves=(Move.deal(),))))

    monkeypatch.setattr(module, "calibrated_plan", calibrated)
    monkeypatch.setattr(module, "honest_plan", hop)
    assert honest()(Game.new(27, "millie")) == Move.deal()
    assert honest()(Game.new(27)) == Move.deal()
    assert honest(planner="hop")(Game.new(28, "millie")) == Move.deal()
    assert asked == ["calibrated", "hop", "hop"]


def test_a_calibrated_decision_out_of_time_still_plays_a_legal_line():
    game = Game.new(27, "millie")
    line = calibrated_plan(game, samples=2, node_limit=20_000, seed=1, time_limit=0.0)
    board = game.copy()
    for move in line:
        assert board.is_legal(move)
        board.play(move)
    assert line[-1].is_deal
