"""What tells each preset of docs/rules.md §4 apart."""

import pytest

from milligan_widget import PRESETS, Game, IllegalMoveError, Rules, RulesError
from tests.staging import stage


def refused(game: Game, move: str, reason: str) -> None:
    before = game.copy()
    with pytest.raises(IllegalMoveError, match=reason):
        game.play(move)
    assert game == before


def test_every_preset_has_its_name_and_deals():
    for name, rules in PRESETS.items():
        game = Game.new(7, name)
        assert game.rules is rules and rules.name == name
        assert len(game.tableau) == rules.columns
        assert len(game.foundations) == rules.foundation_count
        down = sum(game.face_down)  # 1 + 2 + ... + 7 in Milligan Harp and Yukon, else none
        assert down == (28 if rules.deal == "face-down" else 0)
        assert game.stock_count == rules.card_count - rules.columns - down


def test_classic_reserve_gives_back_any_part_that_fits():
    staged = dict(reserve="9D 8C 7H", foundations={5: "6H", 6: "5H"})
    game = stage({1: "8S", 2: "10C"}, **staged)
    game.play("r>1")  # only 7♥ fits on 8♠
    assert [str(c) for c in game.tableau[0]] == ["8S", "7H"]
    assert [str(c) for c in game.reserve] == ["9D", "8C"]
    game.play("r>2")  # the rest fits on 10♣
    assert [str(c) for c in game.tableau[1]] == ["10C", "9D", "8C"] and not game.reserve
    assert game.reserve_open


def test_classic_reserve_end_card_goes_to_a_foundation():
    game = stage({1: "8S"}, reserve="9D 8C 7H", foundations={5: "6H", 6: "5H"})
    game.play("r>f")
    assert str(game.foundations[4][-1]) == "7H"
    assert [str(c) for c in game.reserve] == ["9D", "8C"]


@pytest.mark.parametrize("name", ["strict", "easy"])
def test_whole_unit_reserves_refuse_a_part(name):
    game = stage({1: "8S"}, reserve="9D 8C 7H", rules=name, foundations={5: "6H", 6: "5H"})
    refused(game, "r>1", "whole unit")
    refused(game, "r:1>1", "whole unit")


def test_strict_reserve_never_goes_to_a_foundation():
    game = stage({1: "8S"}, reserve="7H", rules="strict", foundations={5: "6H", 6: "5H"})
    refused(game, "r>f", "back to the tableau before a foundation")
    game.play("r>1")
    game.play("1>f")
    assert str(game.foundations[4][-1]) == "7H"


def test_easy_reserve_opens_while_stock_remains_and_single_card_goes_home():
    game = stage({1: "QS 7H"}, rules="easy", foundations={5: "6H", 6: "5H"}, stock_empty=False)
    assert game.stock_count > 0 and game.reserve_open
    game.play("1>r")
    game.play("r>f")
    assert str(game.foundations[4][-1]) == "7H"


def test_easy_and_always_take_back_from_a_foundation():
    game = stage({1: "8S"}, rules="easy", foundations={5: "7H", 6: "5H"}, stock_empty=False)
    game.play("f5>1")
    assert str(game.tableau[0][-1]) == "7H" and str(game.foundations[4][-1]) == "6H"
    refused(stage({1: "8S"}, foundations={5: "7H"}, stock_empty=False), "f5>1", "never")


def test_single_card_reserve():
    game = stage({1: "9D 8C", 2: "2C"}, rules="single-card")
    refused(game, "1:2>r", "holds a single card")
    game.play("1>r")
    assert [str(c) for c in game.reserve] == ["8C"]


@pytest.mark.parametrize("name", ["millie", "giant", "little-milligan", "milligan-cell"])
def test_no_reserve(name):
    game = stage({1: "9D 8C"}, rules=name)
    refused(game, "1>r", "no reserve")
    assert not any(m.target == "reserve" for m in game.legal_moves)


@pytest.mark.parametrize("name", ["giant", "imperial-guards"])
def test_any_card_or_run_fills_an_empty_column(name):
    game = stage({1: "2C QH JS"}, rules=name, stock_empty=False)
    game.play("1>2")
    assert [str(c) for c in game.tableau[1]] == ["QH", "JS"]
    game.play("2:1>3")
    assert [str(c) for c in game.tableau[2]] == ["JS"]


def test_giant_takes_back_only_once_the_stock_is_empty():
    game = stage({1: "8S"}, rules="giant", foundations={5: "7H"}, stock_empty=False)
    refused(game, "f5>1", "only once the stock is empty")
    emptied = stage({1: "8S"}, rules="giant", foundations={5: "7H"})
    emptied.play("f5>1")
    assert str(emptied.tableau[0][-1]) == "7H"


def test_little_milligan_deals_six_rows_of_seven_and_a_short_row():
    game = Game.new(4, "little-milligan")
    assert game.stock_count == 45
    for _ in range(6):
        game.deal()
    assert game.stock_count == 3 and all(len(col) == 7 for col in game.tableau)
    last_row = [str(c) for c in game.deck[-3:]]
    game.deal()
    assert [len(col) for col in game.tableau] == [8, 8, 8, 7, 7, 7, 7]
    assert [str(col[-1]) for col in game.tableau[:3]] == last_row
    game.undo()
    assert game.stock_count == 3


def test_milligan_cell():
    game = stage({1: "9D 8C 7H 6S 5D", 2: "KH"}, rules="milligan-cell", stock_empty=False)
    for _ in range(4):
        game.play("1>c")
    refused(game, "1>c", "all free cells are full")
    assert [str(c) for c in game.cells] == ["5D", "6S", "7H", "8C"]
    refused(game, "c1>3", "only a King")
    game.play("c4>1")
    game.play("c3>1")
    assert [str(c) for c in game.tableau[0]] == ["9D", "8C", "7H"]
    assert game.cells[2] is None and game.cells[3] is None
    game.play("1>c")
    assert str(game.cells[2]) == "7H"


def test_custom_rules_and_nonsense():
    rules = Rules.named("classic").replace(cells=2)
    assert rules.name is None and Game.new(1, rules).cells == (None, None)
    with pytest.raises(RulesError, match="no sense without a reserve"):
        Rules(reserve="none", reserve_unload="whole")
    with pytest.raises(RulesError, match="decks must be one of"):
        Rules(decks=3)
    with pytest.raises(RulesError, match="not a rules preset"):
        Game.new(1, "spider")
