"""What a player sees of a position, as numbers: the inputs of the calibrated chance.

Every feature comes from a :class:`.sampling.VisibleView` (the face-up cards, how many lie
face down, the foundations, the reserve, the cells, how many cards are left in the stock), so
two positions a player cannot tell apart have the same features. The data a chance is fitted
on (``benchmarks/calibration_data.py``) and the chance shown to a player
(:mod:`.calibrated`) both take them from here.

>>> from milligan_widget import Game
>>> from milligan_widget.analysis.sampling import visible_view
>>> seen = visible_features(visible_view(Game.new(3)))
>>> seen.home, seen.stock_left, seen.legal_moves
(0, 96, 5)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import pairwise

from milligan_widget.engine.position import fits

from .sampling import VisibleView, determinize

LOW = 3  #: ranks up to this one (Ace, 2, 3) count as low cards when buried


@dataclass(frozen=True)
class VisibleFeatures:
    """A position's visible features."""

    home: int  # cards on the foundations
    stock_left: int
    face_down: int
    buried_low: int  # face-up low cards with another card on them
    buried_depth: int  # the cards lying on those low cards, in all
    reserve: int
    empty_columns: int
    cells_used: int
    legal_moves: int
    breaks: int = 0  # face-up cards that do not fit on the card under them
    self_blocks: int = 0  # face-up cards lying over a lower card of their own suit


def buried_low(view: VisibleView) -> tuple[int, int]:
    """How many low face-up cards lie under another card in the tableau, and how many cards
    lie on them in all (face-down cards are not seen, so not counted)."""
    count = depth = 0
    for column in view.face_up:
        for i, code in enumerate(column[:-1]):
            if code // 4 + 1 <= LOW:
                count, depth = count + 1, depth + len(column) - 1 - i
    return count, depth


def column_blocks(view: VisibleView) -> tuple[int, int]:
    """The face-up cards that do not fit on the card under them (a card there must move
    before the one under it can), and those lying over a lower card of their own suit (it
    must move before that suit's foundation can take it). Face-down cards are not seen, so
    not counted.

    >>> from milligan_widget.teaching.lessons import stage
    >>> from milligan_widget.analysis.sampling import visible_view
    >>> column_blocks(visible_view(stage({1: "3C 9D 8C", 2: "QH JC"}, rules="millie")))
    (1, 1)
    """
    breaks = blocks = 0
    for column in view.face_up:
        breaks += sum(not fits(card, under) for under, card in pairwise(column))
        lowest: dict[int, int] = {}  # suit -> the lowest rank seen so far, from the bottom
        for card in column:
            suit, rank = card & 3, card >> 2
            blocks += lowest.get(suit, rank) < rank
            lowest[suit] = min(lowest.get(suit, rank), rank)
    return breaks, blocks


def legal_move_count(view: VisibleView) -> int:
    """How many moves are legal in ``view``, counted on a determinization: which moves are
    legal never depends on the unseen cards (a face-down card cannot move, and a deal is
    legal whatever the stock holds)."""
    return len(determinize(view, random.Random(0)).legal_moves)


def visible_features(view: VisibleView) -> VisibleFeatures:
    """The features of ``view``."""
    low, depth = buried_low(view)
    breaks, blocks = column_blocks(view)
    columns = zip(view.face_up, view.face_down, strict=True)
    return VisibleFeatures(
        home=sum(view.foundations),
        stock_left=view.stock_count,
        face_down=sum(view.face_down),
        buried_low=low,
        buried_depth=depth,
        reserve=len(view.reserve),
        empty_columns=sum(1 for up, down in columns if not up and not down),
        cells_used=sum(1 for cell in view.cells if cell >= 0),
        legal_moves=legal_move_count(view),
        breaks=breaks,
        self_blocks=blocks,
    )
