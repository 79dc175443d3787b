"""The judge of one move: labels by the drop in the chance, the better move on the same
samples, exact where nothing is hidden, honest where something is."""

from __future__ import annotations

import pytest

from milligan_widget import Game
from milligan_widget.analysis import (
    Limit,
    SamplingEvaluator,
    Seen,
    evaluator_for,
    review,
    visible_view,
)
from milligan_widget.analysis.cache import Chances
from milligan_widget.analysis.judge import BEST, BLUNDER, LABELS, judge_move, label_of
from milligan_widget.search.solver import solve
from milligan_widget.teaching.lessons import stage
from tests.test_analysis import CLASSIC, HARP, _twins

FAST = Limit(nodes=3_000, samples=4)  # node-bound: the same answer on any machine
WHOLE = Limit(nodes=50_000, samples=4)  # where nothing is hidden: one solve of 200,000
#: Classic deal 13 played by greedy until nothing is hidden; then 8>r loses the win and the
#: solver's own move is 3>f (found by playing deals with greedy and asking the solver).
LINE = (
    "5>4 d d 6>f 8>f 6>f 4>5 6>1 2>4 d 7>f 4>f 1>6 7>2 6>8 d 1>4 1>4 d 8>5 1>2 d 3>f 2>f "
    "4>3 7>3 5>7 5>7 5>2 4>5 4>1 d 2>f 5>f 7>f d 7>f 8>f 3>5 d 6>f 6>f 5>4 1>7 4>5 6>2 d "
    "7>f 8>f 5>f 5>3 5>3 5>f 1>f 2>f 5>3 d 3>f 7>f 4>8 6>7 d"
)
OPEN = LINE.split()


def _open() -> Game:
    game = Game.new(13)
    for move in OPEN:
        game.play(move)
    assert visible_view(game).hidden == 0 and solve(game).status == "winnable"
    return game


def _judge(game: Game | Seen, move: str, limit: Limit = FAST) -> object:
    return judge_move(game, move, SamplingEvaluator(), limit, ply=7, cache=Chances())


def test_the_labels_follow_the_drop_in_the_chance():
    assert [label_of(d) for d in (0, 0.09, 0.1, 0.19, 0.2, 0.29, 0.3)] == [
        "best", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder"
    ]  # fmt: skip
    assert label_of(0.5, best=True) == BEST and LABELS[-1] == BLUNDER


def test_with_nothing_hidden_the_move_that_loses_the_win_is_a_blunder():
    game = _open()
    judged = _judge(game, "8>r", WHOLE)
    assert (judged.ply, judged.move, judged.label) == (7, "8>r", "blunder")
    assert judged.chance_before.exact and (judged.chance_before.p, judged.chance_after.p) == (1, 0)
    assert judged.better in {str(m) for m in game.legal_moves} and judged.better_chance.p == 1
    after = game.copy()
    after.play(judged.better)
    assert solve(after).status == "winnable"
    assert judged.words() == f"Blunder: 8>r leaves no win; {judged.better} kept the win"


def test_with_nothing_hidden_the_solver_s_own_move_is_never_a_mistake():
    game = _open()
    own = str(solve(game).moves[0])
    judged = _judge(game, own, WHOLE)
    assert judged.label == BEST and judged.better is None and judged.chance_after.p == 1
    for move in game.legal_moves:  # no move that keeps the win is flagged
        after = game.copy()
        after.play(move)
        if after.status == "won" or solve(after).status == "winnable":
            assert not _judge(game, str(move), WHOLE).flagged


def jacks() -> Game:
    """Millie: four Jacks can go home; the last row holds only higher clubs and spades, so
    dealing now buries them on every sampled stock."""
    return stage(
        {1: "JC", 2: "JC", 3: "JS", 4: "JS"},
        stock="QC QC KC KC QS QS KS KS",
        rules="millie",
        foundations={1: "10C", 2: "10C", 3: "10S", 4: "10S"},
        rest_in_stock=False,
    )


def test_dealing_over_jacks_that_could_go_home_is_a_blunder_with_the_better_move():
    judged = _judge(jacks(), "d")
    assert judged.label == BLUNDER and judged.chance_after.wins == 0
    assert judged.better.endswith(">f") and judged.better_chance.p == 1
    assert judged.chance_before == judged.better_chance  # the best move kept it all
    words = "Blunder: dealing a row leaves 0 of 4 sampled stocks winnable"
    assert judged.words() == f"{words}; {judged.better} kept 4"
    sent = _judge(jacks(), "1>f")
    assert sent.label == BEST and sent.better is None


def test_a_deal_is_judged_by_what_could_be_known_before_it():
    """The real last row puts Q♣ Q♣ on the two Jacks (lost), yet dealing was no mistake:
    over the stocks the player could not tell apart, it kept every one winnable."""
    game = stage(
        {1: "JC", 2: "JC"}, stock="QC QC KC KC QS QS KS KS", rules="millie",
        foundations={1: "10C", 2: "10C", 3: "JS", 4: "JS"}, rest_in_stock=False,
    )  # fmt: skip
    dealt = game.copy()
    dealt.play("d")
    assert solve(dealt).status == "unwinnable"
    judged = _judge(game, "d")
    assert judged.label == BEST and judged.chance_after.p == 1 and not judged.chance_after.exact


@pytest.mark.parametrize("case", [CLASSIC, HARP], ids=["classic", "harp"])
def test_games_a_player_cannot_tell_apart_get_identical_judgements(case):
    """With the sampler and with the evaluator the coach uses (calibrated in classic)."""
    game, twin = _twins(case[1], case[0], case[2], case[3])
    for move in game.legal_moves[:3]:
        assert _judge(game, str(move)) == _judge(twin, str(move))
        shown = evaluator_for(game.rules)
        assert judge_move(game, move, shown, FAST, cache=Chances()) == judge_move(
            twin, move, shown, FAST, cache=Chances()
        )


def test_a_judgement_is_kept_in_the_cache_and_the_game_is_not_changed():
    game, cache = jacks(), Chances()
    before = game.to_json()
    first = judge_move(game, "d", SamplingEvaluator(), FAST, ply=3, cache=cache)
    again = judge_move(Seen.of(game), "d", SamplingEvaluator(), FAST, ply=3, cache=cache)
    assert first == again and len(cache) == 1 and game.to_json() == before


# ----------------------------------------------------------------------------- the review


def test_a_review_flags_a_move_by_what_it_cost_with_the_judge_s_better_move():
    game = jacks()
    game.play("d")
    done = review(game, time_limit=2.0, samples=4, node_limit=20_000)
    (entry,) = done.entries
    assert entry.judgement is not None and entry.judgement.label == BLUNDER
    assert entry.better is not None and entry.better.endswith(">f")
    (flag,) = done.flags
    assert (flag.label, flag.better) == (BLUNDER, entry.better)


def test_a_review_of_careful_play_flags_nothing():
    """Three Jacks home, then the deal (while the fourth could go home: a common mistake's
    pattern, which costs nothing here), then the solver's win: not one move is flagged."""
    game = jacks()
    for _ in range(3):
        game.play(next(move for move in game.legal_moves if str(move).endswith(">f")))
    game.play("d")
    for move in solve(game, 10.0).moves:
        game.play(move)
    assert game.status == "won"
    done = review(game, time_limit=2.0, samples=4, node_limit=20_000)
    assert [entry.ply for entry in done.mistakes] == [3]  # named, not flagged
    assert done.flags == [] and all(entry.judgement is None for entry in done.entries)
