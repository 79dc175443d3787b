"""What a player can see, and determinizations: the unseen cards dealt at random.

A player sees the face-up cards of the tableau, how many cards lie face down in each column,
the foundations, the reserve, the cells and how many cards are left in the stock.
:func:`visible_view` copies exactly that out of a game and nothing else; :func:`determinize`
takes only such a :class:`VisibleView` and a random generator, and fills the unseen places
(the stock, then the face-down cards of Milligan Harp and Yukon) with a uniformly random order
of the unseen multiset: every card of the decks minus every visible card. It never sees the
game, so it cannot read the real stock, face-down cards or deal number.

>>> import random
>>> from milligan_widget import Game
>>> view = visible_view(Game.new(5))
>>> view.stock_count, len(view.hidden_cards())
(96, 96)
>>> sample = determinize(view, random.Random(1))
>>> visible_view(sample) == view
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from milligan_widget.engine.cards import CARDS, Card, full_deck
from milligan_widget.engine.game import Game
from milligan_widget.engine.rules import Rules


@dataclass(frozen=True)
class VisibleView:
    """A position as a player sees it: card codes, with face-down cards only counted."""

    rules: Rules
    face_up: tuple[tuple[int, ...], ...]  # each column's face-up cards, bottom to top
    face_down: tuple[int, ...]  # how many cards lie face down under them, per column
    foundations: tuple[int, ...]  # each pile's height
    reserve: tuple[int, ...]
    cells: tuple[int, ...]  # -1 for an empty cell
    stock_count: int

    def visible_cards(self) -> list[int]:
        """Every card code in sight (each copy once)."""
        suits = [pile // self.rules.decks for pile in range(self.rules.foundation_count)]
        homed = [r * 4 + s for s, h in zip(suits, self.foundations, strict=True) for r in range(h)]
        cards = [c for col in self.face_up for c in col] + homed + list(self.reserve)
        return cards + [c for c in self.cells if c >= 0]

    def hidden_cards(self) -> list[int]:
        """The unseen multiset (the stock and the face-down cards), sorted: the decks minus
        every visible card."""
        unseen = Counter(full_deck(self.rules.decks))
        unseen.subtract(self.visible_cards())
        return sorted(unseen.elements())

    @property
    def hidden(self) -> int:
        """How many cards are unseen."""
        return self.stock_count + sum(self.face_down)


def visible_view(game: Game) -> VisibleView:
    """What a player sees of ``game`` (see the module's docstring)."""
    down = game.face_down
    return VisibleView(
        rules=game.rules,
        face_up=tuple(col[d:] for col, d in zip(game.column_codes, down, strict=True)),
        face_down=down,
        foundations=game.foundation_heights,
        reserve=game.reserve_codes,
        cells=game.cell_codes,
        stock_count=game.stock_count,
    )


def determinize(view: VisibleView, rng: random.Random) -> Game:
    """A game with ``view``'s visible position and the unseen cards in a random order drawn
    from ``rng`` (the first go to the stock, in dealing order, the rest face down)."""
    hidden = view.hidden_cards()
    rng.shuffle(hidden)
    stock, rest = hidden[: view.stock_count], hidden[view.stock_count :]
    tableau: list[list[Card]] = []
    for up, down in zip(view.face_up, view.face_down, strict=True):
        tableau.append([CARDS[c] for c in (*rest[:down], *up)])
        rest = rest[down:]
    suits = [pile // view.rules.decks for pile in range(view.rules.foundation_count)]
    tops = [
        CARDS[(h - 1) * 4 + s] if h else None for s, h in zip(suits, view.foundations, strict=True)
    ]
    return Game.from_layout(
        tableau=tableau,
        foundations=tops,
        stock=[CARDS[c] for c in stock],
        reserve=[CARDS[c] for c in view.reserve],
        cells=[None if c < 0 else CARDS[c] for c in view.cells],
        rules=view.rules,
        face_down=view.face_down,
    )

