"""Trapped cards: a dead-position test for the rules where nothing can be set aside.

Without a reserve, free cells or foundation take-backs, a card leaves its place in only a few
ways: home onto a foundation (the lower cards of its suit must be home first), onto a card one
rank higher of the other colour that is the top of its column, carried along on the run of a
card below it, or, a King, into an empty column. A card buried under cards that can never
leave, or whose lower cards and higher cards are all buried under it, never leaves its place,
so it never gets home: the position is lost, whatever is dealt later.

:func:`trapped_cards` finds such cards with a fixed point over every card in play and in the
stock. It starts from "no card can ever leave" and adds each card whose way out needs only
cards already added, until nothing changes; what stays out is trapped. Every condition it uses
is implied by a real move, so it never calls a winnable position lost. The stock is taken into
account by *epochs*: epoch ``e`` is the time after ``e`` more rows are dealt, a card of the
``e``-th row exists from epoch ``e`` on, and it covers every card of its column that has not
left by then.

>>> from milligan_widget.engine.cards import CARDS
>>> from milligan_widget.teaching.lessons import stage
>>> game = stage({1: "AC 2C", 2: "AC 2C"}, rules="millie")  # no A♣ can get home
>>> [(str(CARDS[card]), column + 1) for card, column, epoch in trapped_cards(game) if not epoch]
[('AC', 1), ('2C', 1), ('AC', 2), ('2C', 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .cards import CARDS
from .position import KING, fits
from .rules import Rules

NEVER = 1 << 30  # the epoch of a card that cannot leave


class Ruled(Protocol):
    """Anything played under rules: a position, a game, a search core."""

    @property
    def rules(self) -> Rules: ...


class Piles(Ruled, Protocol):
    """What the test reads of a position (a :class:`~milligan_widget.engine.position.Position`, or a
    search core's view of one)."""

    @property
    def column_codes(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def stock_codes(self) -> tuple[int, ...]: ...
    @property
    def foundation_heights(self) -> tuple[int, ...]: ...
    @property
    def foundation_suit_codes(self) -> tuple[int, ...]: ...


def applies(position: Ruled) -> bool:
    """Does the test hold for these rules (no reserve, cells or take-back; King-only spaces;
    an open deal and run moves, as its reasoning about what covers a card assumes)?"""
    rules = position.rules
    return (
        rules.deal == "open"
        and rules.moves == "runs"
        and rules.reserve == "none"
        and not rules.cells
        and rules.foundation_takeback == "never"
        and rules.empty_column == "king"
    )


def _may_chain(lower: int, upper: int) -> bool:
    """Could ``upper`` lie somewhere on a run that starts with ``lower``: lower rank, and the
    colour the alternation asks for at that distance."""
    gap = (lower >> 2) - (upper >> 2)
    return gap > 0 and ((upper >> 1) & 1) == ((lower >> 1) & 1) ^ (gap & 1)


class _Cards:
    """Every card not yet home, with where and when it lands, and what its ways out need.

    Cards are numbered: the columns' cards bottom to top, column by column, then the stock in
    dealing order. Lists of card numbers say what each one waits for."""

    def __init__(self, position: Piles) -> None:
        self.card: list[int] = []
        self.column: list[int] = []
        self.epoch: list[int] = []
        self.beneath: list[range] = []  # cards certainly under it until it leaves
        self.above: list[range] = []  # cards on it now that are not on its run
        self.on_top: list[range] = []  # every card on it now
        self.carriers: list[Sequence[int]] = []  # cards whose move may carry it along
        columns = position.column_codes
        for i, col in enumerate(columns):
            self._add_column(i, col)
        self.dealt_from = len(self.card)
        ncols = len(columns)
        # Rows are dealt from the first column on, and every row but a last short one is
        # whole, so the k-th card still to deal lands on column k % ncols, in row k // ncols.
        for k, card in enumerate(position.stock_codes):
            self.card.append(card)
            self.column.append(k % ncols)
            self.epoch.append(k // ncols + 1)
            self.beneath.append(range(0))  # what it lands on is not known yet
            self.above.append(range(0))
            self.on_top.append(range(0))
        self.epochs = max(self.epoch, default=0)
        self.in_column = [[t for t, c in enumerate(self.column) if c == i] for i in range(ncols)]
        self.copies: dict[int, list[int]] = {}
        for t, card in enumerate(self.card):
            self.copies.setdefault(card, []).append(t)
        self._stock_relations()
        self._needs_and_parents(position)

    def _add_column(self, i: int, col: Sequence[int]) -> None:
        start, end = len(self.card), len(self.card) + len(col)
        breaks = [end] * len(col)  # where the run that starts at each card ends
        for j in range(len(col) - 2, -1, -1):
            breaks[j] = breaks[j + 1] if fits(col[j + 1], col[j]) else start + j + 1
        base = start
        for j, card in enumerate(col):
            t = start + j
            if j and not fits(card, col[j - 1]):
                base = t
            self.card.append(card)
            self.column.append(i)
            self.epoch.append(0)
            self.beneath.append(range(start, t))
            self.above.append(range(breaks[j], end))
            self.on_top.append(range(t + 1, end))
            self.carriers.append(range(base, t))

    def _stock_relations(self) -> None:
        """What the rows to come do: cover the cards in their columns, and, landing on a card
        of a run, get carried along with it."""
        card, epoch, n = self.card, self.epoch, len(self.card)
        self.later: list[list[int]] = [[] for _ in range(n)]  # cards of later rows on it
        for on_it in self.in_column:
            dealt = [u for u in on_it if u >= self.dealt_from]
            for q, t in enumerate(on_it):
                self.later[t] = dealt[max(0, q - len(on_it) + len(dealt) + 1) :]
        self.later_breaking = [
            [u for u in self.later[t] if not _may_chain(card[t], card[u])] for t in range(n)
        ]
        for t in range(self.dealt_from, n):
            self.carriers.append(
                [
                    w
                    for code in _chain_bases(card[t])
                    for w in self.copies.get(code, ())
                    if epoch[w] < epoch[t]
                ]
            )

    def _needs_and_parents(self, position: Piles) -> None:
        """For each card, the copies of every lower card of its suit not yet home (one copy of
        each must get home first), and the cards it may be put on; none of them under it."""
        copies = self.copies
        home = [0] * 4  # the highest foundation of each suit
        for height, suit in zip(
            position.foundation_heights, position.foundation_suit_codes, strict=True
        ):
            home[suit] = max(home[suit], height)
        by_code: dict[int, tuple[list[list[int]], list[int]]] = {}
        for code in copies:
            rank, suit = code >> 2, code & 3
            needs = [copies.get(r * 4 + suit, []) for r in range(home[suit], rank)]
            parents: list[int] = []
            if rank != KING:
                for other in (0, 1) if code & 2 else (2, 3):
                    parents += copies.get((rank + 1) * 4 + other, ())
            by_code[code] = needs, parents
        self.needs: list[list[list[int]]] = []
        self.parents: list[list[int]] = []
        for t, code in enumerate(self.card):
            needs, parents = by_code[code]
            beneath = self.beneath[t]
            if beneath:  # copies under it cannot help it
                needs = [[u for u in need if u not in beneath] for need in needs]
                parents = [u for u in parents if u not in beneath]
            self.needs.append(needs)
            self.parents.append(parents)


def _chain_bases(card: int) -> list[int]:
    """The cards a run through ``card`` may start from (see :func:`_may_chain`)."""
    rank, colour = card >> 2, (card >> 1) & 1
    return [
        (rank + gap) * 4 + suit
        for gap in range(1, KING - rank + 1)
        for suit in ((2, 3) if colour ^ (gap & 1) else (0, 1))
    ]


def first_epochs(position: Piles) -> tuple[_Cards, list[int]]:
    """For every card not home, the first epoch by which it might leave its place (``NEVER``
    if it cannot)."""
    cards = _Cards(position)
    epoch, first = cards.epoch, [NEVER] * len(cards.card)
    above, later, later_breaking = cards.above, cards.later, cards.later_breaking
    on_top, needs, parents, carriers = cards.on_top, cards.needs, cards.parents, cards.carriers

    def clear(t: int, e: int) -> bool:  # nothing is left on t by epoch e
        return all(first[u] <= e for u in on_top[t]) and all(
            first[u] <= e for u in later[t] if epoch[u] <= e
        )

    def way_out(t: int, e: int) -> bool:
        if any(first[u] > e for u in above[t]):
            return False
        if any(epoch[u] <= e < first[u] for u in later_breaking[t]):
            return False
        if clear(t, e) and all(any(first[u] <= e for u in need) for need in needs[t]):
            return True  # home: nothing on it, and a copy of each lower card of its suit home
        if any(epoch[p] <= e and (first[p] <= e or clear(p, e)) for p in parents[t]):
            return True
        if any(first[w] <= e for w in carriers[t]):
            return True
        return cards.card[t] >> 2 == KING and any(
            column != cards.column[t] and all(first[u] <= e for u in on_it if epoch[u] <= e)
            for column, on_it in enumerate(cards.in_column)
        )

    top_down = range(len(first) - 1, -1, -1)  # cards on top first: they free those below
    for e in range(cards.epochs + 1):
        changed = True
        while changed:
            changed = False
            for t in top_down:
                if first[t] > e >= epoch[t] and way_out(t, e):
                    first[t] = e
                    changed = True
    return cards, first


def trapped_cards(position: Piles) -> list[tuple[int, int, int]]:
    """(card, column, epoch it lands) of every card that can never leave its place; any at
    all means the position is lost. Empty where the test does not apply (see :func:`applies`)."""
    if not applies(position):
        return []
    cards, first = first_epochs(position)
    return [
        (cards.card[t], cards.column[t], cards.epoch[t])
        for t in range(len(first))
        if first[t] == NEVER
    ]


def explain(position: Piles) -> str | None:
    """Why the position is lost, naming the trapped card nearest the player, or ``None``
    when no card is trapped (the position may still be lost, for reasons the test misses).

    >>> from milligan_widget.teaching.lessons import stage
    >>> explain(stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    'Q♣ in column 1 can never move or go home'
    """
    if not applies(position):
        return None
    cards, first = first_epochs(position)
    in_columns = [t for t in range(cards.dealt_from) if first[t] == NEVER]
    if not in_columns:
        return None
    t = max(in_columns, key=lambda t: (len(cards.beneath[t]), -t))  # the top one, leftmost
    card = CARDS[cards.card[t]].unicode
    return f"{card} in column {cards.column[t] + 1} can never move or go home"
