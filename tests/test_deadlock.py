"""The trapped-card test: it never calls a winnable position lost, and it catches lost ones."""

import random

import pytest

from milligan_widget import Game
from milligan_widget.engine.cards import CARDS
from milligan_widget.engine.deadlock import trapped_cards
from milligan_widget.search.solver import UNWINNABLE, solve
from milligan_widget.teaching.lessons import stage
from tests.test_solver import exhaustive


def small_position(rng: random.Random, rules: str) -> Game:
    """A few high cards of a few suits, some in the columns and the rest in the stock, dealt
    in rows onto the columns later; the lower cards are home."""
    blank = Game.new(1, rules)
    columns = len(blank.tableau)
    suits = rng.choice(["HD", "HDC", "SH", "CSH", "S", "HDS"])
    ranks = rng.choice(["TJQK", "JQK", "9TJQK", "89TJQK" if len(suits) < 3 else "TJQK"])
    cards = [rank + suit for rank in ranks for suit in suits] * blank.rules.decks
    rng.shuffle(cards)
    placed = rng.randint(len(cards) // 3, len(cards))
    tableau: dict[int, list[str]] = {}
    spread = rng.choice([3, columns])  # all in a few columns, or over all of them
    for card in cards[:placed]:
        tableau.setdefault(rng.randint(1, spread), []).append(card)
    return stage(
        {i: " ".join(pile) for i, pile in tableau.items()},
        stock=" ".join(cards[placed:]),
        rules=rules,
    )


@pytest.mark.parametrize("rules", ["millie", "little-milligan"])
def test_a_trapped_card_means_the_position_is_lost(rules):
    rng = random.Random(rules)
    trapped = lost = 0
    for _ in range(150):
        game = small_position(rng, rules)
        won = exhaustive(game)
        if trapped_cards(game):
            assert not won, game
            trapped += 1
        lost += not won
    assert trapped >= lost // 3 > 0, "the test should catch many of the lost samples"


def test_cards_on_their_own_lower_cards_are_trapped():
    # Each Q♣ covers a J♣ the other one needs, and no red King is left to take one.
    game = stage({1: "JC QC", 2: "JC QC"}, rules="millie")
    in_columns = [
        (str(CARDS[card]), column) for card, column, epoch in trapped_cards(game) if not epoch
    ]
    assert in_columns == [("JC", 0), ("QC", 0), ("JC", 1), ("QC", 1)]
    assert not exhaustive(game)


def test_a_row_still_to_come_can_free_a_card():
    game = stage({1: "JC QC", 2: "JC QC"}, stock="KH", rules="millie")  # a red King comes
    assert trapped_cards(game) == [] and exhaustive(game)


def test_weaving_rules_are_left_alone():
    game = stage({1: "JC QC", 2: "JC QC"}, rules="classic")  # the reserve frees a J♣
    assert trapped_cards(game) == [] and exhaustive(game)


def test_the_solver_proves_a_loss_with_it_in_a_few_positions():
    result = solve(Game.new(52, "little-milligan"), time_limit=30, node_limit=1000)
    assert result.status == UNWINNABLE and result.nodes < 1000
