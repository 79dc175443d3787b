"""Behaviour at the edges the strict type hints now spell out (issue 23): what a hint widened
to (cards as codes, a Move where text is read), and what is refused in a player's words."""

import pytest

from milligan_widget import Game, Move
from milligan_widget.engine.cards import Card, CardError, parse_cards
from milligan_widget.engine.errors import RulesError
from milligan_widget.engine.rules import PRESETS, Rules
from milligan_widget.search.greedy import _why
from milligan_widget.search.solver import _reached


def test_cards_may_be_given_as_cards_text_or_codes():
    assert parse_cards([Card.parse("10H"), "QS", 0]) == [38, 45, 0]
    assert parse_cards("10H, QS") == [38, 45]


@pytest.mark.parametrize("bad", [True, False, 52, -1, None, 1.0])
def test_a_card_that_is_no_card_is_refused_in_words(bad):
    with pytest.raises(CardError, match="a card is written like '10H' or 'QS'"):
        parse_cards([bad])


def test_a_staged_position_takes_card_codes_as_the_hint_says():
    kings = ["KC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]
    by_text = Game.from_layout([["KD"], *[[]] * 7], foundations=[*kings[:7], "QD"])
    by_code = Game.from_layout([[51], *[[]] * 7], foundations=[*kings[:7], "QD"])
    assert by_text == by_code


def test_move_parse_takes_a_move_as_it_is():
    move = Move.parse("3:2>5")
    assert Move.parse(move) is move


def test_a_rules_name_that_is_not_text_is_refused_and_a_preset_name_kept():
    with pytest.raises(RulesError, match="a rules name is a preset's name, as text"):
        Rules.from_dict({"name": 5})
    assert Rules.from_dict({"name": "millie", "reserve": "none"}) is not None
    assert Rules.from_dict({"reserve": "none"}).name == "millie"


def test_the_presets_are_the_options_of_docs_rules_md():
    assert PRESETS["strict"] == Rules(reserve_unload="whole", reserve_to_foundation=False)
    assert PRESETS["milligan-yukon"].moves == "groups"
    assert PRESETS["little-milligan"].decks == 1
    assert all(name == rules.name for name, rules in PRESETS.items())


def test_the_greedy_reason_for_a_deal_is_words_not_a_crash():
    assert _why(Game.new(1), Move.deal()) == "deal the next row"


def test_a_search_key_reported_missing_is_a_clear_error():
    assert _reached((b"k", 3)) == (b"k", 3)
    with pytest.raises(RuntimeError, match="without its key"):
        _reached(None)
