"""The engine's position as a small, JSON-serialisable *view* for the front end.

The browser only ever sees what a player at the table sees: the face-up cards, the
foundation tops, the *number* of cards in the stock (never their order), the reserve,
the cells, and the legal destinations the engine allows for each card that can be
picked up. Everything here is derived from the engine's public API; the front end
never applies a rule of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from milligan_widget import Card, Game, Move, Rules

View = dict[str, Any]


def card_code(card: Card | None) -> str | None:
    """The card's short code (``"10H"``), or None for an empty slot."""
    return None if card is None else str(card)


def move_count(game: Game, move: Move) -> int:
    """How many cards a move carries in this position (0 for a deal).

    The notation may leave the count implied (see ``milligan_widget.moves``): the run that
    fits on a non-empty column, the whole movable run for an empty column, else one card.
    """
    if move.source == "stock":
        return 0
    if move.count is not None:
        return move.count
    target = move.target or ""
    if not (target.startswith("t") and move.source in _RUN_SOURCES):
        return 1
    cards = pile_cards(game, move.source)
    onto = pile_cards(game, target)
    if not cards:
        return 1
    if onto:
        return max(1, onto[-1].rank - cards[-1].rank)
    return len(cards) if move.source == "reserve" else len(cards) - run_start(cards)


_RUN_SOURCES = {"reserve", *(f"t{i}" for i in range(1, 9))}


def source_key(source: str, count: int) -> str:
    """The key under which the view lists the destinations of a pick-up."""
    return f"{source}:{count}"


def pile_cards(game: Game, pile: str) -> tuple[Card, ...]:
    """The cards of a named pile, bottom to top (a cell gives zero or one card)."""
    if pile.startswith("t"):
        return game.tableau[int(pile[1:]) - 1]
    if pile.startswith("f"):
        return game.foundations[int(pile[1:]) - 1]
    if pile.startswith("c"):
        cell = game.cells[int(pile[1:]) - 1]
        return () if cell is None else (cell,)
    if pile == "reserve":
        return game.reserve
    return ()


def moving_cards(game: Game, move: Move) -> tuple[Card, ...]:
    """The cards a move would carry, read from the current position."""
    if move.source == "stock":
        return ()
    return pile_cards(game, move.source)[-move_count(game, move) :]


def resolve_targets(game: Game, move: Move) -> list[str]:
    """Concrete pile names for a move's target: ``"f"`` and ``"c"`` mean any fitting pile."""
    target = move.target or ""
    if target == "f":
        cards = moving_cards(game, move)
        if not cards:
            return []
        card = cards[-1]
        piles = zip(game.foundation_suits, game.foundations, strict=True)
        return [
            f"f{i + 1}"
            for i, (suit, pile) in enumerate(piles)
            if suit == card.suit and len(pile) == card.rank - 1
        ]
    if target == "c":
        return [f"c{i + 1}" for i, cell in enumerate(game.cells) if cell is None]
    return [target] if target else []


def legal_targets(game: Game, moves: Iterable[Move]) -> dict[str, list[str]]:
    """Map ``"source:count"`` to the piles the engine allows that pick-up to go to."""
    targets: dict[str, list[str]] = {}
    for move in moves:
        if move.source == "stock":
            continue
        dests = targets.setdefault(source_key(move.source, move_count(game, move)), [])
        dests.extend(t for t in resolve_targets(game, move) if t not in dests)
    return targets


def run_start(cards: Sequence[Card]) -> int:
    """Index of the first card of the alternating-colour descending run at a pile's end.

    Only a card from here on may be picked up (RULES.md: "available" cards). This is a
    display hint for the drag; whether a move is legal is always the engine's decision.
    """
    i = len(cards) - 1
    while i > 0 and _builds_on(cards[i], cards[i - 1]):
        i -= 1
    return max(i, 0)


def _builds_on(card: Card, below: Card) -> bool:
    return below.rank == card.rank + 1 and below.red != card.red


def move_dict(game: Game, move: Move | None) -> dict[str, Any] | None:
    """A move as plain data, with its concrete destinations for highlighting."""
    if move is None:
        return None
    if move.source == "stock":
        return {"source": "stock", "target": None, "count": 0, "targets": ["stock"], "text": "d"}
    return {
        "source": move.source,
        "target": move.target,
        "count": move_count(game, move),
        "targets": resolve_targets(game, move),
        "text": str(move),
    }


def stats(game: Game) -> dict[str, int]:
    """The five status-bar figures (Moves is the length of the history)."""
    return {
        "foundations": sum(len(pile) for pile in game.foundations),
        "stock": game.stock_count,
        "reserve": len(game.reserve),
        "tableau": sum(len(col) for col in game.tableau),
        "moves": len(game.history),
    }


def foundations(game: Game) -> list[dict[str, Any]]:
    """Each foundation's suit, top card and size (the cards below the top stay hidden)."""
    return [
        {"suit": suit, "top": card_code(pile[-1]) if pile else None, "n": len(pile)}
        for suit, pile in zip(game.foundation_suits, game.foundations, strict=True)
    ]


def build_view(
    game: Game,
    *,
    rev: int = 0,
    message: str = "",
    kind: str = "info",
    last: dict[str, Any] | None = None,
    hint: Move | None = None,
    elapsed: float | None = None,
) -> View:
    """Everything the front end draws, as JSON-ready data (a few KB at most)."""
    legal = list(game.legal_moves)
    rules = game.rules
    return {
        "rev": rev,
        "columns": [[str(card) for card in col] for col in game.tableau],
        "runs": [run_start(col) for col in game.tableau],
        "foundations": foundations(game),
        "stock": game.stock_count,
        "can_deal": bool(game.can_deal),
        "reserve": None if rules.reserve == "none" else [str(c) for c in game.reserve],
        "reserve_open": bool(game.reserve_open),
        "reserve_run": run_start(game.reserve),
        "cells": [card_code(c) for c in game.cells],
        "targets": legal_targets(game, legal),
        "stats": stats(game),
        "status": game.status,
        "can_undo": bool(game.can_undo),
        "can_redo": bool(game.can_redo),
        "seed": game.seed,
        "message": message,
        "kind": kind,
        "last": last,
        "hint": move_dict(game, hint),
        "elapsed": elapsed,
    }


def rules_info(rules: Rules, presets: Iterable[str]) -> dict[str, Any]:
    """The active variant's plain-language rules and shape, for the Rules panel."""
    return {
        "name": rules.name,
        "title": (rules.name or "custom rules").replace("-", " ").title(),
        "lines": list(rules.describe()),
        "columns": rules.columns,
        "foundations": rules.foundation_count,
        "reserve": rules.reserve,
        "cells": rules.cells,
        "presets": list(presets),
    }
