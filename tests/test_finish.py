"""Finish: once the stock is empty and free cards going home win, the engine plays them."""

from __future__ import annotations

from milligan_widget import Game
from tests.lines import WIN_8


def _along_win_8():
    game = Game.new(8)
    for move in WIN_8.split():
        yield game
        game.play(move)


def test_finish_is_offered_only_with_the_stock_empty_and_it_wins() -> None:
    offered = []
    for game in _along_win_8():
        moves = game.finish_moves()
        if game.stock_count:
            assert moves is None
        if moves is not None:
            trial = game.copy()
            assert trial.finish() == moves and trial.status == "won"
            assert all(str(move).endswith(">f") for move in moves)
            offered.append(game.ply)
    assert offered, "the end of a won game can always be finished"
    # Once offered it stays offered to the end (each home move keeps the rest free).
    assert offered == list(range(offered[0], offered[0] + len(offered)))


def test_with_the_stock_empty_but_a_move_still_needed_finish_plays_nothing() -> None:
    needed = [g.copy() for g in _along_win_8() if not g.stock_count and g.finish_moves() is None]
    assert needed, "deal 8's win needs moves after the last deal"
    game = needed[-1]  # the last position before Finish is offered
    before = game.copy()
    assert game.finish() == [] and game == before


def test_finish_can_be_undone_move_by_move() -> None:
    game = Game.new(8)
    for move in WIN_8.split():
        if game.finish_moves() is not None:
            break
        game.play(move)
    before, played = game.copy(), game.finish()
    assert game.status == "won"
    for _ in played:
        game.undo()
    assert game == before
