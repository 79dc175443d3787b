"""Staging positions for tests: name the cards that matter, the rest is filled in."""

from __future__ import annotations

from milligan_widget import Card, Game, Move
from milligan_widget.search.greedy import greedy
from milligan_widget.teaching.lessons import leftovers


def stage(
    columns: dict[int, str],
    *,
    rules: str = "classic",
    reserve: str = "",
    foundations: dict[int, str] | None = None,
    stock_empty: bool = True,
    cells: list[str | None] | None = None,
    face_down: list[int] | None = None,
) -> Game:
    """A position with the given columns (1-based number -> cards bottom to top).

    Foundations start at the given top cards (1-based pile -> card, "" for empty) and are
    otherwise filled as high as the unused cards allow (see ``lessons.leftovers``). Cards
    left over go to the stock, or, with ``stock_empty``, into the last column, which the test
    must leave free. ``face_down``: per column, how many of its lowest cards lie face down
    (Milligan Harp and Yukon).
    """
    caps = {pile: card or None for pile, card in (foundations or {}).items()}
    tops, rest = leftovers(
        columns, foundations=caps, reserve=reserve, cells=cells or (), rules=rules
    )
    rest.sort(key=lambda c: Card.parse(c).code, reverse=True)  # high ranks at the bottom
    tableau = [columns.get(i + 1, "").split() for i in range(len(Game.new(1, rules).tableau))]
    stock: list[str] = []
    if stock_empty:
        if rest and tableau[-1]:
            raise AssertionError("leftover cards need the last column free")
        tableau[-1] += rest
    else:
        stock = rest
    return Game.from_layout(
        tableau=tableau, foundations=tops, stock=stock, reserve=reserve.split(),
        cells=cells, rules=rules, face_down=face_down,
    )


def greedy_to_the_stock_s_end(deal: int, rules: str = "classic") -> Game:
    """``deal`` played by greedy (dealing where it has no move) until the stock is out: an
    endgame a player could meet, its last move the last deal."""
    game = Game.new(deal, rules)
    while game.stock_count:
        game.play(greedy(game) or Move.deal())
    return game
