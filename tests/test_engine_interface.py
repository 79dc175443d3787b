"""The engine's modules use each other's public interface (issue 11): the piles as card codes,
actions to try a move and take it back, snapshots; and the engine imports no player of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.strategy import greedy, play_game

PACKAGE = Path(__file__).resolve().parent.parent / "milligan_widget"
# modules built on Game (the engine's own order is tests/test_layers.py's)
USERS = ["engine/render", "engine/savefile", "strategy", "search/greedy", "engine/deadlock",
         "studies/study"]
PRIVATE = re.compile(r"\b(?:game|position|after|other|g|step|loaded)\._[a-z]\w*")


@pytest.mark.parametrize("name", USERS)
def test_no_module_reaches_into_a_game(name):
    text = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    assert PRIVATE.findall(text) == []


def test_game_hint_is_gone():
    assert not hasattr(Game, "hint")  # milligan_widget.strategy.hint(game) instead


def positions() -> list[Game]:
    game = play_game(Game.new(7), greedy, max_moves=150)
    return [*[position for _, position in game.replay()][::10], Game.new(5, "milligan-cell")]


def test_the_piles_as_codes_match_the_cards():
    for game in positions():
        assert [[c.code for c in col] for col in game.tableau] == list(
            map(list, game.column_codes)
        )
        assert [len(pile) for pile in game.foundations] == list(game.foundation_heights)
        assert tuple("CSHD"[s] for s in game.foundation_suit_codes) == game.foundation_suits
        assert [c.code for c in game.reserve] == list(game.reserve_codes)
        assert [-1 if c is None else c.code for c in game.cells] == list(game.cell_codes)
        assert len(game.stock_codes) == game.stock_count
        assert game.runs == tuple(game.runs) and len(game.runs) == len(game.tableau)
        assert isinstance(game.column_codes, tuple)  # a copy: nothing to change in the game


def test_actions_try_a_move_and_take_it_back():
    for game in positions():
        before, history = game.copy(), game.history
        for move in game.legal_moves:
            action = game.action(move)
            game.apply_action(action)
            assert game.exact_key() == before.after(move).exact_key()
            game.unapply_action(action)
            assert game == before
        assert game.history == history


def test_snapshots_restore_a_position():
    game = Game.new(12)
    game.deal()
    snapshot, key = game.snapshot(), game.exact_key()
    search = game.copy()
    for move in search.legal_moves[:3]:
        search.apply_action(search.action(move))
    search.restore(snapshot)
    assert search.exact_key() == key and search.runs == game.runs
    assert hash(snapshot) is not None


def test_free_cards_and_safe_homes():
    game = Game.new(1)
    free = dict((card, pile) for pile, card in game.free_cards())
    assert set(free) == {col[-1].code for col in game.tableau}
    assert all(game.safe_to_home(card) == (card >> 2 <= 1) for card in free if card >> 2 <= 1)
