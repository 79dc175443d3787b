"""Staged positions: any layout a teacher wants to show, checked card by card.

>>> from milligan_widget import Game
>>> kings = ["KC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]
>>> game = Game.from_layout(tableau=[[]] * 8, foundations=kings)
>>> game.status
'won'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from .cards import CARDS, SUITS, Card, CardLike, parse_cards
from .errors import MilliganError
from .position import run_length
from .rules import Rules

#: A foundation as a staged position gives it: its top card, the whole pile (a list, Ace
#: first), or ``None`` for an empty one.
FoundationLike = Card | str | list[CardLike] | tuple[CardLike, ...] | None


class _LayoutData(TypedDict):
    tableau: list[list[str]]
    foundations: list[str | None]
    reserve: list[str]
    cells: list[str | None]
    stock: list[str]


class LayoutData(_LayoutData, total=False):
    """A :class:`Layout` as a saved game holds it (cards as text); ``face_down`` only where
    some card lies face down."""

    face_down: list[int]


@dataclass(frozen=True)
class Layout:
    """A starting position as engine codes: columns, foundation heights, reserve, cells, stock,
    and how many cards at the bottom of each column lie face down (docs/rules.md §3.10)."""

    columns: tuple[tuple[int, ...], ...]
    foundations: tuple[int, ...]
    reserve: tuple[int, ...]
    cells: tuple[int, ...]
    stock: tuple[int, ...]
    face_down: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.face_down:
            object.__setattr__(self, "face_down", (0,) * len(self.columns))

    def to_dict(self, suits: Sequence[int]) -> LayoutData:
        """Plain data for a saved game (foundations as their top cards)."""
        data: LayoutData = {
            "tableau": [[str(CARDS[c]) for c in col] for col in self.columns],
            "foundations": [
                str(CARDS[(h - 1) * 4 + s]) if h else None
                for h, s in zip(self.foundations, suits, strict=True)
            ],
            "reserve": [str(CARDS[c]) for c in self.reserve],
            "cells": [None if c < 0 else str(CARDS[c]) for c in self.cells],
            "stock": [str(CARDS[c]) for c in self.stock],
        }
        if any(self.face_down):
            data["face_down"] = list(self.face_down)
        return data


def build_layout(
    rules: Rules,
    tableau: Sequence[Sequence[CardLike]],
    foundations: Sequence[FoundationLike] | None = None,
    stock: Sequence[CardLike] = (),
    reserve: Sequence[CardLike] = (),
    cells: Sequence[Card | str | None] | None = None,
    face_down: Sequence[int] | None = None,
) -> Layout:
    """Check a staged position and make it a :class:`Layout` (or say what is wrong)."""
    if not _is_list(tableau) or len(tableau) != rules.columns:
        raise MilliganError(
            f"these rules have {rules.columns} columns; give a list of {rules.columns}"
        )
    columns = tuple(tuple(parse_cards(col)) for col in tableau)
    heights = _foundation_heights(rules, foundations)
    reserve_codes = tuple(parse_cards(reserve))
    stock_codes = tuple(parse_cards(stock))
    _check_reserve(rules, reserve_codes, stock_codes)
    cell_codes = _cells(rules, cells)
    suits = [p // rules.decks for p in range(rules.foundation_count)]
    on_foundations = [h * 4 + s for s, top in zip(suits, heights, strict=True) for h in range(top)]
    everything = [c for col in columns for c in col] + on_foundations + list(reserve_codes)
    everything += [c for c in cell_codes if c >= 0] + list(stock_codes)
    _check_counts(rules, everything)
    down = _face_down(rules, columns, face_down)
    return Layout(columns, heights, reserve_codes, cell_codes, stock_codes, down)


def _face_down(
    rules: Rules, columns: tuple[tuple[int, ...], ...], face_down: Sequence[int] | None
) -> tuple[int, ...]:
    """How many cards lie face down at the bottom of each column (docs/rules.md §3.10): a list
    of at most one count per column (the rest are 0); a column's top card is always face up."""
    if face_down is None:
        return (0,) * len(columns)
    if not _is_list(face_down) or len(face_down) > len(columns):
        raise MilliganError(
            f"give face_down as a list of at most {len(columns)} counts, one per column"
        )
    counts = list(face_down) + [0] * (len(columns) - len(face_down))
    for i, (count, col) in enumerate(zip(counts, columns, strict=True)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise MilliganError(f"column {i + 1}'s face-down count must be a whole number >= 0")
        if count and rules.deal != "face-down":
            raise MilliganError("these rules have no face-down cards (they need deal='face-down')")
        if count and count >= len(col):
            raise MilliganError(
                f"the top card of column {i + 1} is always face up: "
                f"at most {max(len(col) - 1, 0)} of its cards may lie face down"
            )
    return tuple(counts)


def _foundation_heights(
    rules: Rules, foundations: Sequence[FoundationLike] | None
) -> tuple[int, ...]:
    count = rules.foundation_count
    if foundations is None:
        return (0,) * count
    if not _is_list(foundations) or len(foundations) != count:
        raise MilliganError(f"give {count} foundations (their top cards, or None for an empty one)")
    heights = []
    for pile, entry in enumerate(foundations):
        suit = pile // rules.decks
        if entry is None or entry == "" or (isinstance(entry, (list, tuple)) and not entry):
            heights.append(0)
            continue
        cards = parse_cards(entry) if isinstance(entry, (list, tuple)) else [Card.parse(entry).code]
        if isinstance(entry, (list, tuple)) and cards != [r * 4 + suit for r in range(len(cards))]:
            raise MilliganError(f"foundation {pile + 1} must run from the Ace up in {SUITS[suit]}")
        top = cards[-1]
        if top & 3 != suit:
            raise MilliganError(
                f"foundation {pile + 1} is for {['clubs', 'spades', 'hearts', 'diamonds'][suit]}, "
                f"not {CARDS[top].unicode}"
            )
        heights.append((top >> 2) + 1)
    return tuple(heights)


def _check_reserve(rules: Rules, reserve: tuple[int, ...], stock: tuple[int, ...]) -> None:
    if not reserve:
        return
    if rules.reserve == "none":
        raise MilliganError("these rules have no reserve")
    if stock and rules.reserve_opens == "stock-empty":
        raise MilliganError("the reserve cannot hold cards while the stock has some left")
    if rules.reserve == "single" and len(reserve) > 1:
        raise MilliganError("in these rules the reserve holds a single card")
    if run_length(reserve) != len(reserve):
        raise MilliganError("the reserve holds one card or one run of alternating colours")


def _is_list(value: object) -> bool:
    return isinstance(value, (list, tuple))


def _cells(rules: Rules, cells: Sequence[Card | str | None] | None) -> tuple[int, ...]:
    if cells is not None and not _is_list(cells):
        raise MilliganError("give the free cells as a list of cards (None for an empty one)")
    given = list(cells or [])
    if len(given) > rules.cells:
        raise MilliganError(f"these rules have {rules.cells} free cells, not {len(given)}")
    given += [None] * (rules.cells - len(given))
    return tuple(-1 if c is None or c == "" else Card.parse(c).code for c in given)


def _check_counts(rules: Rules, codes: list[int]) -> None:
    counts = Counter(codes)
    extra = sorted(c for c, n in counts.items() if n > rules.decks)
    if extra:
        shown = ", ".join(f"{CARDS[c].unicode} ×{counts[c]}" for c in extra)
        raise MilliganError(f"too many copies for {rules.decks} deck(s): {shown}")
    if len(codes) != rules.card_count:
        missing = sorted((Counter({c: rules.decks for c in range(52)}) - counts).elements())
        shown = " ".join(CARDS[c].unicode for c in missing[:12]) + (
            " …" if len(missing) > 12 else ""
        )
        raise MilliganError(
            f"the position holds {len(codes)} cards, not {rules.card_count}: missing {shown}"
        )
