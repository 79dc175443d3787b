"""Staged positions (Game.from_layout): every card once per deck, piles that make sense."""

import pytest

from milligan_widget import Game, MilliganError

KINGS = ["KC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]


def staged(**changes):
    """A position with every card home but two Q♣ and two K♣."""
    layout = {
        "tableau": [["QC"], ["KC"], [], [], [], [], [], ["QC", "KC"]],
        "foundations": ["JC", "JC", *KINGS[2:]],
    }
    layout.update(changes)
    return Game.from_layout(**layout)


def test_a_staged_position_plays():
    game = staged()
    assert game.stock_count == 0 and game.foundation_count == 100
    game.play("1>f")
    game.play("2>f")
    assert [str(p[-1]) for p in game.foundations[:2]] == ["KC", "JC"]
    game.restart()
    assert game == staged()


def test_foundations_as_whole_piles_or_top_cards():
    piles = [["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"]] * 2
    assert staged(foundations=[*piles, *KINGS[2:]]) == staged()


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"tableau": [["QC", "QC"], ["KC"], [], [], [], [], [], ["QC", "KC"]]},
         "too many copies for 2 deck"),
        ({"tableau": [[], ["KC"], [], [], [], [], [], ["QC", "KC"]]},
         "holds 103 cards, not 104: missing Q♣"),
        ({"foundations": ["JC", "JH", *KINGS[2:]]}, "foundation 2 is for clubs, not J♥"),
        ({"foundations": [["AC", "3C"], "JC", *KINGS[2:]]}, "must run from the Ace up"),
        ({"foundations": KINGS[:7]}, "give 8 foundations"),
        ({"tableau": [["QC"], ["KC"], [], [], [], [], ["QC", "KC"]]}, "these rules have 8 columns"),
        ({"reserve": ["QC", "KC"]}, "one card or one run"),
        ({"stock": ["KC"], "reserve": ["QC"]}, "while the stock has some left"),
        ({"cells": ["QC"]}, "these rules have 0 free cells"),
    ],
)
def test_impossible_positions_are_refused_with_a_reason(changes, reason):
    with pytest.raises(MilliganError, match=reason):
        staged(**changes)
