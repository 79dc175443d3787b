"""The solver: wins replay to a won game, and proofs agree with an exhaustive search."""

import itertools
import random

import pytest

from milligan_widget import Game
from milligan_widget.search import solver
from milligan_widget.search.greedy import greedy
from milligan_widget.search.solver import (
    PORTFOLIO,
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    _Beam,
    _Clock,
    _run_alone,
    shorten,
    solve,
)
from tests.staging import stage

BEAM = next(style for style in PORTFOLIO if style.break_weights)


def exhaustive(game: Game, limit: int = 200_000) -> bool:
    """Can ``game`` be won? Every reachable position is visited (no pruning at all)."""
    seen, stack = {game.position_key()}, [game.copy()]
    while stack:
        position = stack.pop()
        if position.foundation_count == position.rules.card_count:
            return True
        for move in position.legal_moves:
            position.play(move)
            key = position.position_key()
            if key not in seen:
                seen.add(key)
                stack.append(position.copy())
            position.undo()
        assert len(seen) < limit, "position too big for an exhaustive check"
    return False


def small_endgame(rng: random.Random, rules: str, tight: bool) -> Game:
    """A random position with the stock empty and a few high cards left to place; ``tight``
    ones hold only red cards, which cannot build on each other, and are often lost."""
    suits, ranks, columns = ("HD", "89TJQK", 6) if tight else ("HDC", "TJQK", 7)
    cards = [rank + suit for rank in ranks for suit in suits] * 2
    rng.shuffle(cards)
    placed: dict[int, list[str]] = {}
    for card in cards:
        placed.setdefault(rng.randint(1, columns), []).append(card)
    return stage({i: " ".join(c) for i, c in placed.items()}, rules=rules)


def assert_wins(game: Game, moves) -> None:
    """``moves`` are legal one after the other from ``game`` and win it."""
    game = game.copy()
    for move in moves:
        assert game.explain(move) is None, move
        game.play(move)
    assert game.status == "won"


def agree_with_exhaustive(games, backend: str | None = None) -> set[bool]:
    """The solver's verdict (on ``backend``'s search core) on each game is the exhaustive
    search's, and its wins replay; the set of verdicts seen."""
    outcomes = set()
    for game in games:
        truth = exhaustive(game)
        result = solve(game, time_limit=20, backend=backend)
        assert result.status == (WINNABLE if truth else UNWINNABLE), game
        if truth:
            assert_wins(game, result.moves)
        outcomes.add(truth)
    return outcomes


def test_a_numbered_deal_is_solved_with_a_line_a_person_can_follow():
    game = Game.new(8)
    result = solve(game, time_limit=30)
    assert result.status == WINNABLE and result.decided
    assert_wins(game, result.moves)
    assert len(result.moves) < 400 and result.nodes > 0
    assert game.history == []  # the game itself is untouched


@pytest.mark.parametrize(
    "rules",
    # (easy and giant take cards back from the foundations: too big to search exhaustively)
    ["classic", "strict", "single-card", "millie", "imperial-guards", "milligan-cell"],
)
def test_small_positions_agree_with_exhaustive_search(rules):
    rng = random.Random(rules)
    games = (small_endgame(rng, rules, tight=i % 2 == 0) for i in range(16))
    outcomes = agree_with_exhaustive(games)
    if rules not in ("imperial-guards", "milligan-cell"):  # these two win every sample
        assert outcomes == {True, False}, "the sample should hold both kinds"


def test_a_lost_position_is_proven_unwinnable():
    stuck = stage({1: "AC 2C", 2: "AC 2C"}, foundations={1: "", 2: ""}, rules="millie")
    assert solve(stuck, time_limit=5).status == UNWINNABLE


def test_the_budget_is_respected():
    result = solve(Game.new(2), time_limit=60, node_limit=300)
    assert result.status == UNKNOWN and result.nodes <= 301 and not result.moves


def test_shorten_cuts_loops_and_keeps_a_win():
    game = stage({1: "KS QH JC", 2: "QD"})
    line = solve(game, time_limit=5).moves
    wandering = ["1>2", "2>1", *line]
    short = shorten(game, wandering)
    assert len(short) <= len(line)
    assert_wins(game, short)


def test_hint_prefers_the_solver_and_says_which_it_used():
    from milligan_widget.analysis.advice import hint

    winnable = hint(Game.new(8), time_limit=10)
    assert winnable.source == "solver" and winnable.status == WINNABLE
    assert Game.new(8).explain(winnable.move) is None
    rng = random.Random(3)
    doomed = next(
        game for game in (small_endgame(rng, "classic", tight=True) for _ in range(50))
        if game.status == "playing" and not exhaustive(game)
    )
    guess = hint(doomed, time_limit=5)
    assert guess.source == "heuristic" and guess.status == UNWINNABLE
    assert "can no longer be won" in guess.reason and doomed.explain(guess.move) is None
    undecided = hint(Game.new(19), time_limit=0.01)
    assert undecided.source == "heuristic" and "could not decide" in undecided.reason


@pytest.mark.parametrize("rules", ["classic", "single-card", "millie"])
def test_the_beam_alone_agrees_with_exhaustive_search(rules):
    """The beam search proves a loss only when it cut nothing; its wins replay."""
    rng = random.Random(f"beam {rules}")
    verdicts = set()
    for i in range(10):
        game = small_endgame(rng, rules, tight=i % 2 == 0)
        truth = exhaustive(game)
        beam = _Beam(game, BEAM, set(), _Clock(20))
        won = _run_alone(beam)
        assert won == truth, game
        if won:
            assert_wins(game, beam.path)
        verdicts.add(won)
    assert verdicts == {True, False}


def test_the_beam_wins_a_whole_deal_and_its_line_replays():
    game = Game.new(11)  # a deal the depth-first runs did not win in 60 s
    beam = _Beam(game, BEAM, set(), _Clock(60))
    assert _run_alone(beam)
    assert_wins(game, beam.path)


def _two_moves_on(game: Game) -> tuple[_Beam, list]:
    """A beam on ``game`` and the positions two moves away (no deal), as a layer's
    candidates (rank, key, snapshot), ranked in the order they are reached."""
    beam = _Beam(game, BEAM, set(), _Clock(20))
    core, dealt, seen = beam.core, [], set()
    for first in core.moves():
        if core.is_deal(first):
            continue
        core.play(first)
        for second in core.moves():
            if not core.is_deal(second):
                core.play(second)
                if core.key() not in seen:
                    seen.add(core.key())
                    dealt.append((len(dealt), core.key(), core.snapshot()))
                core.undo(second)
        core.undo(first)
    return beam, dealt


def test_a_wide_beam_layer_keeps_one_position_of_each_shape_first(monkeypatch):
    game = Game.new(1, "millie")
    for _ in range(17):
        game.play(greedy(game) or "d")
    beam, dealt = _two_moves_on(game)  # 14 positions of 11 shapes
    shapes = []
    for _, _, snap in dealt:
        beam.core.restore(snap)
        shapes.append(beam.core.shape())
    # a shape's only position ranked last: the layer fills just as the candidates run out
    alone = next(i for i, shape in enumerate(shapes) if shapes.count(shape) == 1)
    order = [*(i for i in range(len(dealt)) if i != alone), alone]
    dealt = [(rank, dealt[i][1], dealt[i][2]) for rank, i in enumerate(order)]
    first_of_shape: dict[tuple, object] = {}
    for i, (_, key, _) in zip(order, dealt, strict=True):
        first_of_shape.setdefault(shapes[i], key)
    width = len(first_of_shape)
    assert 1 < width < len(dealt)  # some moves reach positions of one shape
    monkeypatch.setattr(solver, "DIVERSE_WIDTH", width)
    beam.complete = True
    kept = [key for key, _ in beam.best_live(list(dealt), width)]
    assert kept == list(first_of_shape.values())  # the best of each shape, best first
    assert not beam.complete  # the near-copies were cut: no proof of a loss from this layer
    beam.complete = True  # room for all: the near-copies fill the layer, and nothing is cut
    assert len(beam.best_live(list(dealt), len(dealt))) == len(dealt) and beam.complete
    monkeypatch.setattr(solver, "DIVERSE_WIDTH", width + 1)  # a narrower beam: by rank alone
    narrow = [key for key, _ in beam.best_live(list(dealt), width)]
    assert narrow == [key for _, key, _ in dealt[:width]] and narrow != kept


def test_the_beam_does_not_search_again_an_endgame_it_left_open_at_this_width(monkeypatch):
    game = Game.new(1148, "millie")
    for _ in range(40):  # a position where two break weights make the same last layer
        game.play(greedy(game) or "d")
    searched = []
    endgame = solver._Search.endgame

    def recording(self, entry):
        outcome = yield from endgame(self, entry)
        if isinstance(self, _Beam):
            searched.append((entry, self.budget))
        return outcome

    monkeypatch.setattr(solver._Search, "endgame", recording)
    solve(game, 60, node_limit=60_000)
    assert len(set(searched)) < len(searched)  # narrower than DIVERSE_WIDTH: as measured
    searched.clear()
    monkeypatch.setattr(solver, "DIVERSE_WIDTH", 4)
    solve(game, 60, node_limit=60_000)
    assert len(set(searched)) == len(searched)  # never twice with one budget
    assert len({entry for entry, _ in searched}) < len(searched)  # again with a larger one


def test_stop_cancels_a_solve_at_once():
    asked = []

    def stop() -> bool:
        asked.append(True)
        return True

    result = solve(Game.new(19), time_limit=60, stop=stop)
    assert result.status == UNKNOWN and asked and result.nodes <= 256


def test_progress_is_reported_with_growing_counts_and_changes_nothing_else():
    from milligan_widget.search.solver import PROGRESS_EVERY

    reports = []

    def report(positions: int, seconds: float) -> None:
        reports.append((positions, seconds))

    result = solve(Game.new(19), time_limit=60, node_limit=20_000, progress=report)
    counts = [positions for positions, _ in reports]
    seconds = [spent for _, spent in reports]
    assert len(reports) >= 5 and counts == sorted(set(counts))  # strictly growing
    assert all(b - a >= PROGRESS_EVERY for a, b in itertools.pairwise(counts))
    assert counts[-1] <= result.nodes and seconds == sorted(seconds)
    assert 0 < seconds[-1] <= result.seconds
    quiet = solve(Game.new(19), time_limit=60, node_limit=20_000)
    assert (quiet.status, quiet.moves, quiet.nodes) == (result.status, result.moves, result.nodes)
    won = solve(Game.new(8), time_limit=60, progress=lambda positions, seconds: None)
    assert won.status == WINNABLE and won.moves == solve(Game.new(8), time_limit=60).moves


@pytest.mark.parametrize("bad", [float("nan"), -1, -0.5, float("-inf")])
def test_a_time_limit_that_is_not_a_number_of_seconds_is_refused(bad):
    with pytest.raises(ValueError, match="time_limit"):
        solve(Game.new(8), time_limit=bad)


def test_the_runs_take_turns_so_the_search_does_not_depend_on_the_time_limit():
    """The turns are counted in positions, so a deal is won by the same run after the same
    positions whatever the limit, and a run that wins early is not kept waiting."""
    for deal, rules in [(27, "classic"), (3, "classic"), (3, "millie")]:
        short = solve(Game.new(deal, rules), time_limit=20)
        long = solve(Game.new(deal, rules), time_limit=600)
        assert short.status == long.status == WINNABLE
        assert (short.nodes, short.moves, short.stats) == (long.nodes, long.moves, long.stats)
    by_beam = solve(Game.new(3), time_limit=600)  # the beam, the second run, wins this one
    assert by_beam.stats["decided_by"] == 1 and by_beam.nodes < 5_000


def test_every_run_has_a_turn_before_any_has_a_second():
    from milligan_widget.search.solver import TURN, _Search, _take_turns

    turns = []
    real_tick = _Search.tick

    def tick(self):
        if not turns or turns[-1] != self.style:
            turns.append(self.style)
        return real_tick(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Search, "tick", tick)
        budget = sum(round(TURN * style.weight) for style in PORTFOLIO) + 10
        status, run, runs = _take_turns(Game.new(2024), _Clock(60, budget), PORTFOLIO)
    assert status == UNKNOWN and run is None and len(runs) == len(PORTFOLIO)
    assert turns[: len(PORTFOLIO) + 1] == [*PORTFOLIO, PORTFOLIO[0]]
