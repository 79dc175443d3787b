"""Staging positions for tests: name the cards that matter, the rest is filled in."""

from __future__ import annotations

from collections import Counter

from milligan_widget import Game, Rules
from milligan_widget.cards import CARDS, parse_cards


def stage(
    columns: dict[int, str],
    *,
    rules: str = "classic",
    reserve: str = "",
    foundations: dict[int, str] | None = None,
    stock_empty: bool = True,
    cells: list[str | None] | None = None,
) -> Game:
    """A position with the given columns (1-based number -> cards bottom to top).

    Foundations start at the given top cards (1-based pile -> card, "" for empty) and are
    otherwise filled as high as the unused cards allow. Cards left over go to the stock, or, with
    ``stock_empty``, into the last column, which the test must leave free.
    """
    rules_ = Rules.coerce(rules)
    ncols, decks = rules_.columns, rules_.decks
    tableau = [parse_cards(columns.get(i + 1, "")) for i in range(ncols)]
    reserve_codes = parse_cards(reserve)
    cell_codes = [CARDS[parse_cards(c)[0]] if c else None for c in (cells or [])]
    unused = Counter({code: decks for code in range(52)})
    unused.subtract([c for col in tableau for c in col] + reserve_codes)
    unused.subtract(c.code for c in cell_codes if c)
    tops: list[int] = []
    for pile in range(rules_.foundation_count):
        suit = pile // decks
        given = (foundations or {}).get(pile + 1)
        height = 0
        limit = 13 if given is None else 0 if given == "" else parse_cards(given)[0] // 4 + 1
        while height < limit and unused[height * 4 + suit] > 0:
            unused[height * 4 + suit] -= 1
            height += 1
        if given is not None and height != limit:
            raise AssertionError(f"foundation {pile + 1} cannot reach {given}")
        tops.append(height)
    leftover = sorted(unused.elements(), reverse=True)  # high ranks at the bottom
    stock: list[int] = []
    if stock_empty:
        if leftover and tableau[-1]:
            raise AssertionError("leftover cards need the last column free")
        tableau[-1] += leftover
    else:
        stock = leftover
    found = [str(CARDS[(h - 1) * 4 + pile // decks]) if h else None for pile, h in enumerate(tops)]
    return Game.from_layout(
        tableau=[[str(CARDS[c]) for c in col] for col in tableau],
        foundations=found,
        stock=[str(CARDS[c]) for c in stock],
        reserve=[str(CARDS[c]) for c in reserve_codes],
        cells=[str(c) if c else None for c in cell_codes] or None,
        rules=rules,
    )
