"""Cards, the move notation, numbered deals, and the docstring examples."""

import json
from pathlib import Path

import pytest

from milligan_widget import (
    Card,
    CardError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    MilliganError,
    Move,
    deal_order,
)

DEALS = json.loads((Path(__file__).parent / "data" / "pysolfc-deals.json").read_text())


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10h", "10♥", " 10H "])
def test_card_parse_accepts_every_spelling(text):
    assert Card.parse(text) == Card(10, "H") == Card.parse("10H")


def test_card_formats():
    queen = Card.parse("qs")
    assert (str(queen), queen.unicode, f"{queen:u}", queen.name) == (
        "QS",
        "Q♠",
        "Q♠",
        "Queen of spades",
    )
    assert (queen.rank, queen.suit, queen.red) == (12, "S", False)
    assert Card.parse("AD").red and Card.parse("AD").rank == 1


@pytest.mark.parametrize("bad", ["11H", "QX", "", "1", "H10", None, 5])
def test_card_parse_refuses_nonsense(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


NOTATION = [
    "d",
    "3>f",
    "3>f5",
    "3>5",
    "3:4>5",
    "3:2>r",
    "r>5",
    "r:1>5",
    "r>f",
    "f5>3",
    "3>c",
    "c2>5",
    "c2>f",
]


@pytest.mark.parametrize("text", NOTATION)
def test_notation_round_trips(text):
    move = Move.parse(text)
    assert str(move) == text and Move.parse(str(move)) is move
    if not move.is_deal:
        assert Move(move.source, move.target, move.count) == move


def test_move_fields():
    move = Move.parse("3:2>r")
    assert (move.source, move.target, move.count) == ("t3", "reserve", 2)
    assert Move.parse("c2>f").source == "c2" and Move.parse("D") == Move.deal()


@pytest.mark.parametrize(
    "bad", ["3>>5", "3>", ">5", "3:0>5", "9>5", "f9>3", "c5>1", "x", "3-5", 35]
)
def test_notation_refuses_nonsense(bad):
    with pytest.raises(InvalidMoveError):
        Move.parse(bad)


@pytest.mark.parametrize("deal", DEALS["deals"], ids=lambda d: d["number"])
def test_numbered_deals_match_pysolfc(deal):
    number = int(deal["number"])
    assert [str(c) for c in deal_order(number)] == deal["deal_order"]
    game = Game.new(number)
    assert [str(col[-1]) for col in game.tableau] == deal["deal_order"][:8]
    assert [str(c) for c in game.deck] == deal["deal_order"]


def test_deal_numbers_outside_the_range_are_refused():
    for bad in (0, -1, 10**20, "12", 1.5):
        with pytest.raises(MilliganError, match="deal numbers run from 1"):
            Game.new(bad)


def test_deal_32000_uses_the_mersenne_twister():
    """pysol-cards' module-level shuffle() treats 32000 as an LCG deal; PySolFC does not."""
    from pysol_cards.random import LCRandom31, MTRandom

    from milligan_widget.engine.cards import CARDS, full_deck

    def dealt(generator):
        cards = full_deck()
        generator.shuffle(cards)
        return [CARDS[c] for c in reversed(cards)]

    assert deal_order(32000) == dealt(MTRandom(32000)) != dealt(LCRandom31(32000))
    assert deal_order(31999) == dealt(LCRandom31(31999))


def test_from_deck_checks_the_cards():
    deck = [str(c) for c in Game.new(9).deck]
    assert Game.from_deck(deck) == Game.new(9)
    with pytest.raises(MilliganError, match="104 cards, not 103"):
        Game.from_deck(deck[:-1])
    with pytest.raises(MilliganError, match="too many 3♦; missing"):
        Game.from_deck(["3D", *deck[1:]] if deck[0] != "3D" else ["4D", *deck[1:]])


def test_moves_compare_equal_to_their_text():
    move = Move.parse("3:2>5")
    assert move == "3:2>5" and move != "3>5" and "3:2>5" in [move]
    assert {move: 1}["3:2>5"] == 1
    assert "2>6" in Game.new(5).legal_moves


def test_find_move_finds_every_legal_move_from_its_gesture():
    """Each legal move, as a gesture (its source, where it lands, its count), is found again,
    spelled without a count where the engine needs none; a refused gesture between columns
    raises the engine's reason."""
    for seed in range(1, 40):
        game = Game.new(seed)
        for _ in range(seed % 5):
            game.play("d")
        for move in game.legal_moves:
            if move.source == "stock":
                continue
            explicit = game.resolve(move)
            found = game.find_move(explicit.source, explicit.target, explicit.count)
            assert game.resolve(found) == explicit
            assert game.find_move(move.source, move.target) == move
        legal = {(m.source, m.target) for m in game.legal_moves}
        for a, b in ((a, b) for a in range(1, 9) for b in range(1, 9) if a != b):
            if (f"t{a}", f"t{b}") in legal or not game.tableau[a - 1]:
                continue
            with pytest.raises(IllegalMoveError) as refused:
                game.find_move(f"t{a}", f"t{b}", 1)
            assert str(refused.value) == game.explain(Move(f"t{a}", f"t{b}", 1))
