"""Strategies, play_games, hints, safe foundation moves and autoplay."""

from __future__ import annotations

import random

import pytest

from milligan_widget import PRESETS, Card, Game
from milligan_widget.strategy import (
    GameResult,
    greedy,
    hint,
    honest,
    play_game,
    play_games,
    random_player,
)

SEEDS = range(1, 6)


def player_key(game: Game) -> tuple:
    """docs/rules.md §2.8's "same position": column, same-suit foundation and cell order ignored."""
    heights: dict[str, list[int]] = {s: [] for s in "CSHD"}
    for suit, pile in zip(game.foundation_suits, game.foundations, strict=True):
        heights[suit].append(len(pile))
    return (
        tuple(sorted(tuple(map(str, col)) for col in game.tableau)),
        tuple(tuple(sorted(heights[s])) for s in "CSHD"),
        game.stock_count,
        tuple(map(str, game.reserve)),
        tuple(sorted("" if c is None else str(c) for c in game.cells)),
    )


def really_lost(game: Game) -> bool:
    """Lost by docs/rules.md §2.8, checked from scratch: stock empty, not won, and no legal move
    leads to a position not already reached in the current line of play."""
    if game.stock_count or game.foundation_count == game.rules.card_count:
        return False
    reached = {player_key(position) for _, position in game.replay()}
    for move in game.legal_moves:
        after = game.copy()
        after.play(move)
        if player_key(after) not in reached:
            return False
    return True


def check_results(results: list[GameResult], strategy_factory, rules="classic", max_moves=2000):
    assert [r.seed for r in results] == list(SEEDS)
    for result in results:
        game = play_game(Game.new(result.seed, rules), strategy_factory(), max_moves)
        assert result.moves == len(game.history)
        assert result.foundation_cards == game.foundation_count
        assert result.status == game.status
        assert result.won == (game.status == "won")
        # The game really ended: won, lost, or stopped at the move limit.
        if result.status == "won":
            assert game.foundation_count == game.rules.card_count
        elif result.status == "lost":
            assert really_lost(game), result
        else:
            assert result.moves == max_moves, result
        # The recorded line is a legal game: it replays from the deal.
        assert Game.from_json(game.to_json()) == game


@pytest.mark.parametrize(
    "preset", ["classic", "easy", "millie", "little-milligan", "milligan-cell", "giant"]
)
def test_greedy_games_really_end(preset):
    results = play_games(greedy, seeds=SEEDS, rules=preset, progress=False)
    check_results(results, lambda: greedy, preset)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_player_games_really_end(preset):
    results = play_games(
        random_player(random.Random(42)), seeds=SEEDS, rules=preset, progress=False
    )
    # Replaying needs the same random sequence: one generator across the deals, as above.
    rng = random.Random(42)
    check_results(results, lambda: random_player(rng), preset)


def test_move_limit_stops_a_game():
    results = play_games(greedy, seeds=SEEDS, max_moves=15, progress=False)
    for result in results:
        assert result.moves == 15 and result.status == "playing" and not result.won


def test_random_player_is_deterministic_for_a_seed():
    first = play_games(random_player(random.Random(7)), seeds=SEEDS, progress=False)
    second = play_games(random_player(random.Random(7)), seeds=SEEDS, progress=False)
    assert first == second
    others = [
        play_games(random_player(random.Random(s)), seeds=SEEDS, progress=False) for s in (8, 9, 10)
    ]
    assert any(other != first for other in others)  # the generator matters


def test_greedy_is_deterministic():
    assert play_games(greedy, seeds=SEEDS, progress=False) == play_games(
        greedy, seeds=SEEDS, progress=False
    )
    one = play_game(Game.new(3), greedy)
    two = play_game(Game.new(3), greedy)
    assert one.history == two.history


def play_forward(game: Game, strategy, moves: int) -> None:
    """Play ``strategy`` up to ``moves`` moves, checking that each is legal and that it never
    walks back into a position of the current line."""
    seen = {player_key(game)}
    while not game.is_over and len(game.history) < moves:
        move = strategy(game)
        if move is None:
            break
        assert game.explain(move) is None
        game.play(move)
        if move.is_deal:
            seen = set()
        key = player_key(game)
        assert key not in seen, f"{move} returns to an earlier position (ply {game.ply})"
        seen.add(key)


def test_strategies_only_play_legal_moves_and_never_repeat_a_position():
    """The built-in strategies never walk back into a position of the current line."""
    for strategy in (greedy, random_player(random.Random(3))):
        play_forward(Game.new(8), strategy, 500)


@pytest.mark.parametrize("deal", [1, 4])
def test_the_honest_player_never_walks_back_where_cards_lie_face_down(deal):
    """In Milligan Yukon the honest player used to shuffle a group back and forth until the
    move cap: its samples' greedy did not know the line of play, which was left out where
    cards lie face down (the positions' keys read them). Keys now tell face-down cards apart
    by their column, so the line is seen, and the player goes forward."""
    play_forward(Game.new(deal, "milligan-yukon"), honest(samples=2, node_limit=2_000), 150)


# ----------------------------------------------------------------------------- hints


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hint_is_a_legal_move_with_a_reason(preset):
    rng = random.Random(5)
    for seed in (1, 2, 3):
        game = Game.new(seed, preset)
        while True:
            before, history = game.copy(), game.history
            found = hint(game)
            assert game == before and game.history == history  # hinting changes nothing
            if game.status != "playing":
                assert found is None
                break
            assert found is not None, "a game still being played has a hint"
            move, reason = found
            assert move in game.legal_moves
            assert game.explain(move) is None
            assert isinstance(reason, str) and reason.strip()
            # Follow the hint most of the time, wander off now and then.
            game.play(move if rng.random() < 0.8 else rng.choice(game.new_position_moves()))
            if len(game.history) > 400:
                break


def sorted_deck(preset: str) -> list[str]:
    """Every card in rank order (Aces first): each card can go home as soon as it is dealt."""
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    return [f"{r}{s}" for r in ranks for s in "CSHD" for _ in range(PRESETS[preset].decks)]


@pytest.mark.parametrize("preset", ["classic", "little-milligan", "milligan-cell"])
def test_autoplay_wins_a_sorted_deck_and_a_won_game_has_no_hint(preset):
    game = Game.from_deck(sorted_deck(preset), preset)
    while True:
        game.autoplay()
        if not game.can_deal:
            break
        game.deal()
    assert game.status == "won" and game.is_over
    assert game.foundation_count == game.rules.card_count
    assert all(not col for col in game.tableau)
    assert hint(game) is None
    assert game.safe_foundation_moves() == []
    assert really_lost(game) is False


def test_hint_on_a_lost_game_is_none():
    lost = play_game(Game.new(1), greedy)
    assert lost.status == "lost" and really_lost(lost)
    assert hint(lost) is None


def test_hint_deals_when_nothing_else_can_be_done():
    game = Game.new(1)  # the opening row of deal 1 has no move but the deal
    assert [str(m) for m in game.legal_moves] == ["d"]
    move, reason = hint(game)
    assert move.is_deal and reason


# ----------------------------------------------------------------------------- safe moves


def is_safe_by_the_docstring(game: Game, card: Card) -> bool:
    """Game.safe_foundation_moves: a card is safe when every card that could be built on it
    in the tableau (the next lower rank of the other colour) is on the foundations, which
    Aces and 2s never need, and every foundation of its suit is ready for it or past it;
    with Yukon moves, nothing is safe while the stock has cards (docs/rules.md §3.11)."""
    if game.rules.moves == "groups" and game.stock_count:
        return False
    own_piles = [
        len(pile) for suit, pile in zip(game.foundation_suits, game.foundations, strict=True)
        if suit == card.suit
    ]
    if min(own_piles) < card.rank - 1:
        return False
    if card.rank <= 2:
        return True
    other = "CS" if card.red else "HD"
    lower_home = sum(
        1
        for suit, pile in zip(game.foundation_suits, game.foundations, strict=True)
        if suit in other and len(pile) >= card.rank - 1
    )
    # Every copy of both lower cards of the other colour: two per suit with two decks.
    return lower_home == 2 * game.rules.decks


def source_card(game: Game, source: str) -> Card:
    if source.startswith("t"):
        return game.tableau[int(source[1:]) - 1][-1]
    if source == "reserve":
        return game.reserve[-1]
    assert source.startswith("c")
    return game.cells[int(source[1:]) - 1]


def fits_a_foundation(game: Game, card: Card) -> bool:
    return any(
        suit == card.suit and len(pile) == card.rank - 1
        for suit, pile in zip(game.foundation_suits, game.foundations, strict=True)
    )


def positions_along_greedy_play(seed: int, preset: str):
    game = Game.new(seed, preset)
    yield game.copy()
    while not game.is_over and len(game.history) < 300:
        move = greedy(game)
        if move is None:
            break
        game.play(move)
        yield game.copy()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_safe_foundation_moves_follow_the_documented_rule(preset):
    checked = 0
    for seed in (1, 2, 3, 4):
        for game in positions_along_greedy_play(seed, preset):
            safe = game.safe_foundation_moves()
            assert len(safe) == len(set(safe))
            sources = []
            for move in safe:
                assert game.explain(move) is None, move
                assert move.target.startswith("f")
                card = source_card(game, move.source)
                assert is_safe_by_the_docstring(game, card), (move, card)
                sources.append(move.source)
                checked += 1
            # Complete for the tableau: every safe top card that fits a foundation is offered.
            for i, col in enumerate(game.tableau):
                if (
                    col
                    and fits_a_foundation(game, col[-1])
                    and is_safe_by_the_docstring(game, col[-1])
                ):
                    assert f"t{i + 1}" in sources, (i + 1, col[-1])
    assert checked > 0


def test_safe_moves_wait_for_both_lower_cards_of_the_other_colour():
    """5♥ is not safe while a black 4 could still want to sit on it."""
    game = Game.new(1)
    # Deal 1's opening row: 3♦ 5♥ J♣ K♥ 5♠ 5♥ K♣ K♣; nothing is safe, nothing fits home.
    assert game.safe_foundation_moves() == []
    deck = ["AH", "2H", "3H", "4H", "5H", "AC", "AS", "2C"]
    rest = [str(c) for c in Game.new(1).deck]
    for card in deck:
        rest.remove(card)
    game = Game.from_deck(deck + rest)
    assert sorted(str(m) for m in game.safe_foundation_moves()) == ["1>f", "6>f", "7>f"]
    game.play("1>f")
    # 2♥ would take the only started heart pile; the other 2♥ may need it first.
    assert "2>f" not in [str(m) for m in game.safe_foundation_moves()]
    game.play("2>f")
    # 3♥ needs every black 2 home: one 2♣ still in column 8, and no 2♠ at all.
    assert "3>f" not in [str(m) for m in game.safe_foundation_moves()]
    assert game.explain("3>f") is None  # legal, just not safe


@pytest.mark.parametrize("preset", list(PRESETS))
def test_autoplay_plays_the_safe_moves(preset):
    for seed in (1, 2, 3):
        game = Game.new(seed, preset)
        rng = random.Random(seed)
        for _ in range(120):
            moves = game.legal_moves
            if not moves:
                break
            game.play(rng.choice(moves))
        before = game.copy()
        start = len(game.history)
        played = game.autoplay()
        assert game.history[start:] == played
        assert game.foundation_count == before.foundation_count + len(played)
        assert game.safe_foundation_moves() == []
        # Each was safe when played.
        step = before.copy()
        for move in played:
            assert move in step.safe_foundation_moves()
            step.play(move)
        assert step == game
        # Undo takes autoplay back move by move.
        for _ in played:
            game.undo()
        assert game == before


def test_autoplay_sends_home_aces_and_twos():
    deck = ["AH", "AH", "2H", "2H", "AC", "AC", "2C", "3D"]
    rest = [str(c) for c in Game.new(1).deck]
    for card in deck:
        rest.remove(card)
    game = Game.from_deck(deck + rest)
    played = game.autoplay()
    assert len(played) == 7
    assert [str(c) for col in game.tableau for c in col] == ["3D"]
    assert game.foundation_count == 7
