"""Honest analysis: answers from the visible position only, the interval, bad input, review."""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import subprocess
import sys

import pytest

import milligan_widget.analysis.honest as honest_module
from milligan_widget import Game, Move
from milligan_widget.analysis import (
    Chance,
    Seen,
    determinize,
    honest_hint,
    honest_plan,
    mistake,
    review,
    review_steps,
    visible_view,
    win_chance,
)
from milligan_widget.analysis.buried import buried_for_good, last_cards_home
from milligan_widget.analysis.evaluate import SEEING
from milligan_widget.search.solver import SolveResult, solve
from milligan_widget.strategy import honest, play_game
from milligan_widget.teaching.lessons import stage
from tests.staging import greedy_to_the_stock_s_end
from tests.staging import stage as staged

FAST = {"node_limit": 3_000, "time_limit": 30.0}  # node-bound, so the same on any machine


def _twins(deal: int, rules: str, moves: list[str], keep: int) -> tuple[Game, Game]:
    """The same deal and line of play twice, but the cards dealt after the first ``keep`` of
    the deck (and, with a face-down deal, the face-down cards) in another order: two games a
    player cannot tell apart."""
    deck = [str(card) for card in Game.new(deal, rules).deck]
    game = Game.new(deal, rules)
    down = sum(game.face_down)
    hidden = list(range(down)) + list(range(max(keep, down + len(game.tableau)), len(deck)))
    shuffled = [deck[i] for i in hidden]
    random.Random(7).shuffle(shuffled)
    other = list(deck)
    for i, card in zip(hidden, shuffled, strict=True):
        other[i] = card
    assert other != deck
    twin = Game.from_deck(other, rules)
    for move in moves:
        game.play(move)
        twin.play(move)
    assert visible_view(game) == visible_view(twin)
    assert game.column_codes != twin.column_codes or game.stock_codes != twin.stock_codes
    return game, twin


def _still_hidden_twins(deal: int, rules: str, moves: list[str]) -> tuple[Game, Game]:
    """The same deal and line of play twice, with two face-down cards that are still face
    down after ``moves`` swapped: the line's positions look alike, the cards under them do not."""
    deck = [str(card) for card in Game.new(deal, rules).deck]
    game = Game.new(deal, rules)
    for move in moves:
        game.play(move)
    down = sum(Game.new(deal, rules).face_down)
    for a, b in itertools.combinations(range(down), 2):
        other = list(deck)
        other[a], other[b] = deck[b], deck[a]
        twin = Game.from_deck(other, rules)
        try:
            for move in moves:
                twin.play(move)
        except ValueError:  # a swapped card was turned up and cannot take the move
            continue
        if deck[a] != deck[b] and visible_view(twin) == visible_view(game):
            return game, twin
    raise AssertionError("no two face-down cards stay hidden through these moves")


CLASSIC = ("classic", 12, ["d"], 16)  # one row dealt; everything after the next row differs
HARP = ("milligan-harp", 4, [], 0)  # the face-down cards and the stock differ


# ----------------------------------------------------------------------------- the invariant


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_win_chance_depends_only_on_what_the_player_sees(case):
    game, twin = _twins(case[1], case[0], case[2], case[3])
    first = win_chance(game, samples=6, seed=5, **FAST)
    assert first == win_chance(twin, samples=6, seed=5, **FAST)
    assert first.wins > 0 and first.samples == 6  # these positions are far from lost


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_honest_hints_depend_only_on_what_the_player_sees(case):
    game, twin = _twins(case[1], case[0], case[2], case[3])
    plan = honest_plan(game, samples=4, seed=9, **FAST)
    assert plan == honest_plan(twin, samples=4, seed=9, **FAST)
    assert honest_hint(game, samples=4, seed=9, **FAST) == honest_hint(
        twin, samples=4, seed=9, **FAST
    )
    assert len(plan.judged) > 2  # dealing now, the greedy line and others were judged


def test_the_line_of_play_counts_under_face_down_cards_without_reading_them():
    """Where cards lie face down the line of play is seen too (a hint must not lead back into
    it; the honest player shuffled Yukon groups back and forth without it), and its positions
    are compared without reading a face-down card: swapping two still hidden, the answers stay."""
    game, twin = _still_hidden_twins(1, "milligan-yukon", ["5>4", "6>5", "4>6"])
    assert game.column_codes != twin.column_codes
    assert len(Seen.of(game).line) == 4 and Seen.of(game) == Seen.of(twin)
    assert honest_hint(game, samples=4, seed=9, **FAST) == honest_hint(
        twin, samples=4, seed=9, **FAST
    )


def test_a_review_s_honest_part_depends_only_on_what_the_player_sees():
    game, twin = _twins(12, "classic", ["d", "d"], 24)
    mine, theirs = (review(g, samples=3, seed=2, **FAST) for g in (game, twin))
    assert [(e.move, e.chance, e.mistake, e.judgement) for e in mine.entries] == [
        (e.move, e.chance, e.mistake, e.judgement) for e in theirs.entries
    ]


def test_the_honest_player_moves_alike_until_a_deal_shows_a_difference():
    """Rows 1 and 2 of the stock are the same in both games: the honest player's moves are
    the same up to the second deal (and so are its plans there)."""
    game, twin = _twins(12, "classic", [], 24)
    lines = []
    for board in (game, twin):
        player, played = honest(samples=3, time_limit=30.0, node_limit=3_000), []
        while board.stock_count > 80:  # until two rows are dealt
            move = player(board)
            played.append(str(move))
            board.play(move)
        lines.append(played)
    assert lines[0] == lines[1] and lines[0].count("d") == 2


def test_the_sampler_sees_only_the_view():
    """A determinization keeps the visible position and deals the unseen multiset."""
    game = Game.new(3, "milligan-yukon")
    view = visible_view(game)
    sample = determinize(view, random.Random(1))
    assert visible_view(sample) == view
    assert sorted(sample.stock_codes) != sorted(game.stock_codes)  # another split, here
    unseen = sorted(game.stock_codes) + sorted(
        c for col, d in zip(game.column_codes, game.face_down, strict=True) for c in col[:d]
    )
    assert view.hidden_cards() == sorted(unseen)


# ----------------------------------------------------------------------------- the interval


def test_the_interval_is_wilson_s():
    """Hand-checked: 8 of 10 is 49.0-94.3%; 0 of 10 is 0-27.8%; 10 of 10 is 72.2-100%."""
    assert (round(Chance(8, 10).low, 3), round(Chance(8, 10).high, 3)) == (0.490, 0.943)
    assert (Chance(0, 10).low, round(Chance(0, 10).high, 3)) == (0.0, 0.278)
    assert (round(Chance(10, 10).low, 3), Chance(10, 10).high) == (0.722, 1.0)
    assert str(Chance(20, 32)) == f"62% of 32 sampled stocks win (45–77%) {SEEING}"


def test_a_chance_is_plain_data():
    data = json.loads(json.dumps(Chance(3, 5, 1, seed=5).to_dict()))
    assert data["wins"] == 3 and data["undecided"] == 1 and data["p"] == 0.75
    assert data["text"] == (
        f"75% of 4 sampled stocks win (30–95%) {SEEING}; 1 more undecided, not counted"
    )


# ----------------------------------------------------------------------------- undecided


def test_an_undecided_sample_is_not_a_loss():
    """3 won, 1 lost, 12 undecided: the chance is 3 of the 4 decided, not 3 of 16."""
    chance = Chance(3, 16, 12)
    assert (chance.decided, chance.p) == (4, 0.75)
    assert (chance.low, chance.high) == (Chance(3, 4).low, Chance(3, 4).high)


def test_where_nothing_was_decided_the_chance_says_it_cannot_tell():
    """One node a solve: no sample of an opening is decided; no 0% is shown. (Harp has no
    calibrated model: its chance is the sampler's figure.)"""
    chance = win_chance(Game.new(8, "milligan-harp"), samples=6, node_limit=1)
    assert (chance.wins, chance.undecided, chance.known) == (0, 6, False)
    assert (chance.low, chance.high) == (0.0, 1.0) and chance.p == 0.5
    assert str(chance) == "cannot tell: the solver decided none of 6 sampled stocks"
    assert "0%" not in str(chance) and not chance.to_dict()["known"]
    exact = Chance(0, 1, 1, exact=True)
    assert (exact.low, exact.high, exact.known) == (0.0, 1.0, False)
    assert "undecided" in str(exact) and "cannot be won" not in str(exact)


def test_the_calibrated_chance_is_not_pulled_down_by_undecided_samples():
    """Classic's chance is calibrated: its model reads a figure of its own, so a budget too
    small for the caller's samples to decide anything leaves the chance as it is, and its
    words leave out the figure that says nothing."""
    starved = win_chance(Game.new(8), samples=6, node_limit=1)
    fed = win_chance(Game.new(8), samples=6, node_limit=20_000)
    assert (starved.undecided, fed.calibrated is not None) == (6, True)
    assert starved.known and starved.to_dict()["known"]  # the chart draws it
    assert starved.p == fed.p and 0.05 < starved.p < 0.95
    assert str(starved).startswith("about ") and "sampled stocks" not in str(starved)
    assert "sampled stocks win" in str(fed)


# ----------------------------------------------------------------------------- same answer


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_without_a_seed_the_same_position_gets_the_same_answer(case):
    """No seed, no clock (the defaults): asking twice, or about a game with the hidden cards
    in another order, gives the identical chance, plan and hint."""
    game, twin = _twins(case[1], case[0], case[2], case[3])
    options = {"samples": 4, "node_limit": 3_000}
    chance = win_chance(game, **options)
    assert chance == win_chance(game, **options) == win_chance(twin, **options)
    plan = honest_plan(game, **options)
    assert plan == honest_plan(game, **options) == honest_plan(twin, **options)
    hint = honest_hint(game, **options)
    assert hint == honest_hint(game, **options) == honest_hint(twin, **options)


def test_the_samples_seed_follows_the_visible_position():
    """Another visible position draws other samples; the position's key is the same in a
    process with another string hash (it is a digest of what is seen, not ``hash()``)."""
    game = Game.new(12)
    moved = game.after(game.legal_moves[0])
    assert (
        win_chance(game, samples=2, node_limit=50).seed
        != win_chance(moved, samples=2, node_limit=50).seed
    )
    code = (
        "from milligan_widget import Game; from milligan_widget.analysis import Seen;"
        "print(Seen.of(Game.new(12)).key)"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
        ).stdout.strip()
        for hash_seed in (1, 2)
    }  # fmt: skip
    assert keys == {Seen.of(game).key}


# ----------------------------------------------------------------------------- nothing hidden


def _trap() -> Game:
    """Millie, two rows to go home: J♣ J♣ can go home now, and the last row brings Q♣ Q♣
    onto them (with the other cards black, nothing can lift them off: lost)."""
    return stage(
        {1: "JC", 2: "JC"},
        stock="QC QC KC KC QS QS KS KS",
        rules="millie",
        foundations={1: "10C", 2: "10C", 3: "JS", 4: "JS"},
        rest_in_stock=False,
    )


@pytest.mark.parametrize("moves", [["1>f", "2>f", "d"], ["d"]], ids=["won", "lost"])
def test_with_nothing_hidden_the_chance_is_the_thoughtful_verdict(moves):
    game = _trap()
    for move in moves:
        game.play(move)
    assert visible_view(game).hidden == 0
    chance = win_chance(game, samples=5, seed=1)
    won = solve(game).status == "winnable"
    assert chance.exact and (chance.samples, chance.wins) == (1, int(won))
    assert chance.low == chance.high == chance.p
    assert won == (moves != ["d"])


def test_an_honest_hint_sends_the_jacks_home_before_the_deal_buries_them():
    """Four Jacks can go home; the last row holds only higher clubs and spades, so any of them
    dealt onto a Jack traps it (nothing else can move in Millie here)."""
    jacks = stage(
        {1: "JC", 2: "JC", 3: "JS", 4: "JS"},
        stock="QC QC KC KC QS QS KS KS",
        rules="millie",
        foundations={1: "10C", 2: "10C", 3: "10S", 4: "10S"},
        rest_in_stock=False,
    )
    plan = honest_plan(jacks, samples=4, seed=1, **FAST)
    wins = [judged.chance.wins for judged in plan.judged]
    assert wins == sorted(wins, reverse=True) and wins[0] == 4 and 0 in wins
    hint = honest_hint(jacks, samples=4, seed=1, **FAST)
    assert (hint.source, hint.move, hint.status) == ("honest", "1>f", "unknown")
    assert hint.reason == (
        "dealing now keeps 0 of 4; 1>f 2>f 3>f 4>f, then dealing keeps 4 of 4 sampled stocks "
        "winnable; careful play keeps about 100% after it"  # nothing is hidden after it: won
    )


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"samples": 0}, "samples must be a whole number of at least 1"),
        ({"samples": True}, "samples must be a whole number"),
        ({"time_limit": 0}, "time_limit must be a number of seconds above 0"),
        ({"time_limit": -1.0}, "above 0"),
        ({"time_limit": math.nan}, "above 0, not nan"),
        ({"time_limit": math.inf}, "above 0"),
        ({"node_limit": 0}, "node_limit must be a whole number of at least 1"),
    ],
)
def test_bad_budgets_are_refused_and_change_nothing(options, words):
    game = Game.new(8)
    game.play("d")
    before = game.to_json()
    for call in (win_chance, honest_hint, honest_plan, review):
        with pytest.raises(ValueError, match=words):
            call(game, **options)
    with pytest.raises(ValueError, match=words):
        honest(**options)
    assert game.to_json() == before


def test_a_game_that_is_over_is_refused():
    kings = ["KC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]
    won = Game.from_layout(tableau=[[]] * 8, foundations=kings)
    for call in (win_chance, honest_hint, honest_plan):
        with pytest.raises(ValueError, match=r"the game is over \(won\)"):
            call(won)
    with pytest.raises(ValueError, match="no moves yet"):
        review(Game.new(1))


# ----------------------------------------------------------------------------- review


def test_the_turning_point_is_the_deal_that_buried_the_jacks():
    game = _trap()
    game.play("d")
    done = review(game, samples=2, seed=1, **FAST)
    assert done.turning_point == 0 and done.final_verdict == "unwinnable"
    assert done.entries[0].verdict == "winnable"
    assert done.entries[0].mistake == "dealt a row while J♣ could go home"
    assert json.loads(json.dumps(done.to_dict()))["turning_point"] == 0


def test_a_game_played_well_has_no_turning_point(tmp_path):
    game = _trap()
    for move in ("1>f", "2>f", "d"):
        game.play(move)
    game.save(tmp_path / "good.json")
    done = review(Game.load(tmp_path / "good.json"), samples=2, seed=1, **FAST)
    assert done.turning_point is None and [e.mistake for e in done.entries] == [None] * 3


def test_review_steps_come_one_at_a_time_and_stop_on_request():
    game = _trap()
    game.play("1>f")
    game.play("2>f")
    calls = []
    steps = review_steps(game, samples=2, seed=1, **FAST)
    assert next(steps).move == "1>f"
    done = review(game, samples=2, seed=1, progress=lambda i, n: calls.append((i, n)), **FAST)
    assert calls == [(1, 2), (2, 2)] and len(done.entries) == 2
    stopped = review(game, samples=2, seed=1, stop=lambda: True, **FAST)
    assert stopped.entries == () and stopped.final_verdict == "unknown"


def test_the_common_mistakes_are_named():
    # 7♣ could go home, but the red sixes are not up yet: taking it off 8♥ loses a place.
    run = stage({1: "8H 7C"}, foundations={1: "6C", 5: "3H", 6: "3H", 7: "3D", 8: "3D"})
    assert mistake(run, run.resolve("1>f")) == (
        "broke the run 8♥ 7♣ for a foundation move that was not needed yet"
    )
    safe = stage({1: "8H 7C"}, foundations={1: "6C", 5: "6H", 6: "6H", 7: "6D", 8: "6D"})
    assert mistake(safe, safe.resolve("1>f")) is None  # both red sixes are home: no loss
    # K♠ aside uncovers 5♦, which goes nowhere; Q♥ aside uncovers A♣, which goes home.
    aside = staged({1: "5D KS", 2: "AC QH"}, foundations={1: "", 7: "3D", 8: "3D"})
    assert "uncover nothing useful" in mistake(aside, aside.resolve("1>r"))
    assert mistake(aside, aside.resolve("2>r")) is None
    ahead = stage({1: "6C"}, foundations={1: "5C", 2: None})
    assert mistake(ahead, ahead.resolve("1>f")) == "let one ♣ pile run 6 ranks ahead of the other"


def test_stop_cancels_a_chance_and_a_plan_at_once():
    game = Game.new(8)
    chance = win_chance(game, samples=8, seed=1, stop=lambda: True)
    assert chance.stopped and (chance.wins, chance.undecided) == (0, 8)
    plan = honest_plan(game, samples=4, seed=1, stop=lambda: True)
    assert all(j.chance.stopped and j.chance.undecided == 4 for j in plan.judged)


def test_the_hint_says_what_careful_play_keeps_where_the_rules_have_a_calibrated_chance():
    options = {"samples": 4, "node_limit": 3_000}
    classic = honest_hint(Game.new(98), **options).reason
    assert re.search(r"; careful play keeps about \d+% after it$", classic)
    assert "careful play" not in honest_hint(Game.new(98, "milligan-harp"), **options).reason


def test_the_careful_words_of_a_seeded_hint_draw_on_the_hint_s_seed(monkeypatch):
    """``seed`` fixes everything the hint samples: its plan and its closing words."""
    from milligan_widget.analysis import hint as hint_module

    seeds: list[int | None] = []
    real = hint_module.evaluator_for

    def evaluator_for(rules, seed=None):
        seeds.append(seed)
        return real(rules, seed)

    monkeypatch.setattr(hint_module, "evaluator_for", evaluator_for)
    honest_hint(Game.new(98), samples=4, node_limit=3_000, seed=5)
    assert seeds == [5]


# ----------------------------------------------------------------------------- buried for good

# Milligan Harp deal 122 as the honest player (seed 2) played it: the stock is out, 14 cards
# lie face down, and the 1,152 positions the quiet moves reach turn none of them up. Before
# the player could see it, it moved runs to and fro for about a thousand moves.
LINE_122 = (
    "2>f 5>f 6>8 7>f 5>f d 4>f 7>f 8>2 6>4 7>1 6>4 7>3 4>5 7>4 5>4 4>3 d 4>f 4>8 6>4 6>4 d "
    "2>f 6>7 6>3 4>3 3>2 4>5 8>1 d 8>5 3>7 3>4 4>3 4>1 d 3>f 4>f 8>5 3>6 6>3 d 3>f 4>f 8>f "
    "1>6 2>5 7>2 5>7 d 7>2 1>4 d 8>f 3>1 2>1 5>4 1>5 5>4 4>7 d 3>7 8>2 1>2 1>2 1>6 2>6 2>1 "
    "3>4 1>2 3>8 2>1 4>8 1>2"
)
# Deal 188 (seed 2) after its last deal: nothing can turn up, but one more card can go home.
LINE_188 = (
    "3>8 d 6>1 2>3 d d 5>f 5>7 6>5 6>1 d 3>f 5>3 8>7 6>4 d 4>1 1>2 5>3 4>3 7>4 4>6 5>3 5>2 "
    "5>f 3>f 6>5 d 6>f 8>f 7>f 5>f 6>f 8>f 8>3 4>5 2>3 2>8 2>f d 4>f 8>f 3>8 7>f 7>5 d 2>f "
    "7>f 1>4 1>f 6>5 6>4 d"
)
SHUTTLE = ["QC KH", "QC KH", "QH KC", "QH KC", "QD KS", "QD KS", "JS KD QS", "QS JS KD"]


def _shuttle(**changes: str) -> Game:
    """Face-down cards under Kings, and a Q♠ that can only go to and fro between two K♦s."""
    tableau = {i + 1: cards for i, cards in enumerate(SHUTTLE)} | {
        int(column): cards for column, cards in changes.items()
    }
    down = [1] * 7 + [len(tableau[8].split()) - 1]
    return stage(tableau, rules="milligan-harp", rest_in_stock=False, face_down=down)


def test_cards_that_can_never_turn_up_are_seen_to_be_lost():
    game = _shuttle()
    assert game.status == "playing" and buried_for_good(game)
    game.play("7>8")  # the Q♠ goes over; the K♦ it leaves is face up already
    assert buried_for_good(game) and game.status == "playing"


def test_a_card_that_can_still_turn_up_is_not_called_lost():
    # a J♠ home instead of face down: the Q♠ can go home, then a K♠, which turns a card up
    assert not buried_for_good(_shuttle(**{"8": "QS KD"}))
    assert not buried_for_good(Game.new(122, "milligan-harp"))  # the stock is still there
    assert not buried_for_good(stage({1: "KH", 2: "QC"}, rules="millie"))  # nothing face down


def test_the_buried_test_reads_no_hidden_card_and_proves_only_what_it_searched():
    game, twin = _still_hidden_twins(122, "milligan-harp", LINE_122.split())
    assert game.stock_count == 0 and game.status == "playing"
    assert buried_for_good(game) and buried_for_good(twin)
    assert not buried_for_good(game, reach=1_000)  # not all of its 1,152 positions: unproven
    assert " ".join(map(str, game.history)) == LINE_122  # the game is not changed


def test_the_honest_player_gives_up_a_game_it_sees_is_lost():
    game, twin = _still_hidden_twins(122, "milligan-harp", LINE_122.split())
    player = honest(**FAST)
    assert last_cards_home(game) == () and player(game) is None and player(twin) is None
    assert play_game(game, player).ply == len(LINE_122.split())
    hint, other = honest_hint(game, **FAST), honest_hint(twin, **FAST)
    assert hint == other and hint.status == "unwinnable"
    assert hint.reason.startswith("no face-down card can turn up any more")
    assert hint.move in game.legal_moves


def test_before_giving_up_the_honest_player_takes_home_what_still_goes():
    game, twin = _still_hidden_twins(188, "milligan-harp", LINE_188.split())
    assert game.foundation_count == 17
    assert last_cards_home(game) == last_cards_home(twin) == (Move.parse("2>f"),)
    play_game(game, honest(**FAST))
    assert game.foundation_count == 18 and [str(m) for m in game.history[-1:]] == ["2>f"]
    assert game.status == "playing" and last_cards_home(game) == ()


def test_in_a_buried_game_the_hint_takes_home_what_still_goes_as_the_player_does():
    game, twin = _still_hidden_twins(188, "milligan-harp", LINE_188.split())
    hint = honest_hint(game, **FAST)
    assert hint == honest_hint(twin, **FAST) and hint.status == "unwinnable"
    assert str(hint.move) == "2>f" == str(honest(**FAST)(game))
    assert hint.reason.endswith("1 more card can still go home, in 1 move")
    game.play(hint.move)
    assert "no more cards can go home" in honest_hint(game, **FAST).reason


# ----------------------------------------------------------------------------- the endgame


@pytest.fixture
def endgame_budgets(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The node budgets of the honest player's endgame solves, the first of them 2,000."""
    budgets: list[int | None] = []

    def counted(game: Game, time_limit: float, node_limit: int | None = None) -> SolveResult:
        budgets.append(node_limit)
        return solve(game, time_limit, node_limit)

    monkeypatch.setattr(honest_module, "ENDGAME_NODES", 2_000)
    monkeypatch.setattr(honest_module, "solve", counted)
    return budgets


def test_a_game_s_first_open_endgame_is_solved_again_with_more_and_won(endgame_budgets):
    """Classic deal 22 after greedy's game to the stock's end: the solver wins it with about
    11,000 positions. A solve of 2,000 leaves it open; the player solves it again with 8
    times that and plays the win it finds, solving nothing more."""
    game = greedy_to_the_stock_s_end(22)
    assert solve(game, math.inf, 2_000).status == "unknown"
    play_game(game, honest(node_limit=3_000))
    assert game.status == "won"
    assert endgame_budgets == [2_000, 2_000 * honest_module.ENDGAME_GROWTH]


def test_one_player_gives_each_of_its_games_their_own_second_look(endgame_budgets):
    """``play_games`` plays every deal with one player. A game dropped frees its id for the
    next game (CPython reuses it at once), and what the player noted of the first (its
    second look taken) must not pass to the next: each game is played as by a fresh player."""
    player, ids = honest(node_limit=3_000), set()
    for _ in range(3):
        game = greedy_to_the_stock_s_end(22)
        ids.add(id(game))
        assert play_game(game, player).status == "won"
        del game
    assert endgame_budgets == [2_000, 2_000 * honest_module.ENDGAME_GROWTH] * 3
    assert len(ids) < 3, "no id was reused: this test proved nothing"


def test_the_larger_endgame_solve_comes_once_a_game(endgame_budgets, monkeypatch):
    monkeypatch.setattr(honest_module, "ENDGAME_GROWTH", 2)  # 4,000: still open
    game = greedy_to_the_stock_s_end(22)
    play_game(game, honest(node_limit=3_000), max_moves=game.ply + 4)
    assert endgame_budgets[:2] == [2_000, 4_000] and set(endgame_budgets[2:]) == {2_000}
    assert len(endgame_budgets) == 5  # greedy moved between the solves
