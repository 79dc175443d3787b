"""The worked examples of docs/rules.md §5, each with the reason a player is told."""

import pytest

from milligan_widget import Game, IllegalMoveError, Move
from tests.staging import stage


def assert_refused(game: Game, move: str, reason: str) -> None:
    """The move is refused with a reason containing ``reason``, and nothing changes."""
    before, history = game.copy(), game.history
    assert reason in (game.explain(move) or "")
    with pytest.raises(IllegalMoveError, match=reason.replace("(", r"\(")):
        game.play(move)
    assert game == before and game.history == history


# -- legal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("pile", [5, 6])
def test_ace_of_hearts_starts_either_heart_foundation(pile):
    game = stage({1: "AH", 2: "AH"}, foundations={5: "", 6: ""}, stock_empty=False)
    game.play(f"1>f{pile}")
    assert [len(p) for p in game.foundations[4:6]] == ([1, 0] if pile == 5 else [0, 1])
    game.play("2>f")  # the other Ace takes the other heart pile
    assert [str(p[-1]) for p in game.foundations[4:6]] == ["AH", "AH"]


def test_six_of_clubs_onto_five_of_clubs():
    game = stage({1: "6C"}, foundations={1: "5C", 2: "3C"}, stock_empty=False)
    game.play("1>f")
    assert str(game.foundations[0][-1]) == "6C" and not game.tableau[0]
    assert_refused(
        stage({1: "6C"}, foundations={1: "5C", 2: "3C"}, stock_empty=False),
        "1>f2",
        "6♣ cannot go on 3♣: foundations build up one rank at a time",
    )


def test_nine_of_spades_onto_ten_of_diamonds():
    game = stage({1: "10D", 2: "9S"}, stock_empty=False)
    assert Move.parse("2>1") in game.legal_moves
    game.play("2>1")
    assert [str(c) for c in game.tableau[0]] == ["10D", "9S"] and not game.tableau[1]


def test_king_led_run_into_an_empty_column():
    game = stage({1: "5H KC QH JS"}, stock_empty=False)
    assert game.explain("1>2") is None
    game.play("1>2")
    assert [str(c) for c in game.tableau[1]] == ["KC", "QH", "JS"]
    assert [str(c) for c in game.tableau[0]] == ["5H"]


def test_weaving_frees_the_three_of_diamonds():
    """After the stock is empty: 5♦ 4♣ aside, 3♦ home, then 5♦ 4♣ onto a black 6."""
    game = stage({1: "3D 5D 4C", 2: "6S"}, foundations={7: "2D", 8: "2D"})
    assert game.stock_count == 0 and game.reserve_open
    game.play("1:2>r")
    assert [str(c) for c in game.reserve] == ["5D", "4C"] and not game.reserve_open
    game.play("1>f")
    assert str(game.foundations[6][-1]) == "3D"
    game.play("r>2")
    assert [str(c) for c in game.tableau[1]] == ["6S", "5D", "4C"] and not game.reserve


def test_deal_a_row_while_stock_remains():
    game = Game.new(1)
    first_row = [str(c) for c in game.deck[8:16]]
    game.deal()
    assert game.stock_count == 88
    assert [str(col[-1]) for col in game.tableau] == first_row
    for _ in range(11):
        game.deal()
    assert game.stock_count == 0 and not game.can_deal
    assert_refused(game, "d", "the stock is empty")


# -- illegal -------------------------------------------------------------------------------


def test_queen_of_hearts_onto_king_of_diamonds():
    assert_refused(
        stage({1: "KD", 2: "QH"}, stock_empty=False), "2>1", "Q♥ cannot go on K♦: both are red"
    )


def test_seven_of_hearts_onto_nine_of_clubs():
    assert_refused(
        stage({1: "9C", 2: "7H"}, stock_empty=False),
        "2>1",
        "7♥ cannot go on 9♣: the rank must be exactly one lower",
    )


def test_queen_led_run_into_an_empty_column():
    game = stage({1: "2C QH JS"}, stock_empty=False)
    assert_refused(game, "1>2", "only a King or a King-led run may fill an empty column")
    assert_refused(game, "1:2>2", "only a King or a King-led run may fill an empty column")


def test_reserve_closed_while_stock_remains():
    game = Game.new(1)
    assert not game.reserve_open
    assert_refused(game, "1>r", "the reserve opens when the stock is empty")


def test_second_unit_into_an_occupied_reserve():
    game = stage({1: "9D", 2: "8C"}, reserve="5D 4C")
    assert_refused(game, "2>r", "the reserve already holds 5♦ 4♣")


def test_card_from_the_middle_of_a_column():
    game = stage({1: "10D 4C 9S", 2: "10H"}, stock_empty=False)
    assert_refused(
        game, "1:2>2", "4♣ cannot move: it does not start a sequence running to the end of column 1"
    )


def test_five_of_clubs_onto_four_of_spades_foundation():
    game = stage({1: "5C"}, foundations={1: "3C", 2: "3C", 3: "4S"}, stock_empty=False)
    assert_refused(game, "1>f3", "5♣ cannot go on the 4♠ foundation: that pile is for spades")
    assert_refused(game, "1>f", "the clubs foundations need the 4♣ first")


# -- more reasons, and the implied count --------------------------------------------------


def test_nothing_fits_names_what_the_column_takes():
    game = stage({1: "KS", 2: "9H 8C"}, stock_empty=False)
    assert_refused(game, "2>1", "nothing at the end of column 2 fits on K♠: it takes a red Queen")


def test_explicit_count_and_implied_count_move_the_same_run():
    staged = {1: "JC 10D 9S 8H", 2: "10H"}
    implied, explicit = stage(staged, stock_empty=False), stage(staged, stock_empty=False)
    implied.play("1>2")
    explicit.play("1:2>2")
    assert implied == explicit
    assert [str(c) for c in implied.tableau[1]] == ["10H", "9S", "8H"]


def test_undo_and_redo_walk_the_line():
    game = Game.new(3)
    moves = []
    for _ in range(6):
        moves.append(game.play(game.legal_moves[0]))
    end = game.copy()
    for move in reversed(moves):
        assert game.undo() == move
    assert game == Game.new(3) and game.redo_moves == moves
    while game.can_redo:
        game.redo()
    assert game == end and game.history == moves
    with pytest.raises(IllegalMoveError, match="no move to redo"):
        game.redo()


def test_playing_a_new_move_drops_the_redo_line():
    game = Game.new(5)  # 8♣ (column 2) fits on 9♦ (column 6) at once
    game.deal()
    game.undo()
    assert game.redo_moves == [Move.deal()]
    game.play("2>6")
    assert not game.can_redo


def test_replaying_the_undone_move_keeps_the_rest_of_the_redo_line():
    game = Game.new(5)
    game.play("2>6")
    game.deal()
    game.undo()
    game.undo()
    game.play("2>6")
    assert game.redo_moves == [Move.deal()]


def test_status_won_and_lost():
    kings = ["KC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]
    assert Game.from_layout(tableau=[[]] * 8, foundations=kings).status == "won"
    stuck = stage({1: "AC 2C", 2: "AC 2C"}, foundations={1: "", 2: ""}, rules="millie")
    assert stuck.legal_moves == [] and stuck.status == "lost"


def test_lost_when_every_move_only_mirrors_the_position():
    """9♠ may hop between two 10♦: the positions differ only in column order, so no move is
    useful and the game is lost."""
    game = stage(
        {1: "10D 9S", 2: "10D", 3: "AS 2S", 4: "AS 2S"},
        rules="millie",
        foundations={3: "", 4: "", 7: "8D", 8: "8D"},
    )
    assert "2>1" not in map(str, game.legal_moves)
    assert game.legal_moves == [Move.parse("1>2")]
    assert game.status == "lost"
    game.play("1>2")
    assert game.status == "lost"


def test_resolve_makes_counts_and_piles_explicit():
    game = stage({1: "JC 10D 9S 8H", 2: "10H", 3: "AH"}, foundations={5: "", 6: ""},
                 stock_empty=False)
    assert game.resolve("1>2") == "1:2>2"
    assert game.resolve("3>f") == "3>f5"
    assert game.resolve("d") == "d"
    assert game.runs[:3] == (4, 1, 1)
    after = game.after("1>2")
    assert str(after.tableau[1][-1]) == "8H" and not game.history  # the game is untouched
    with pytest.raises(IllegalMoveError, match="both are red"):
        stage({1: "KD", 2: "QH"}, stock_empty=False).resolve("2>1")
