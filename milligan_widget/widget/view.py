"""The engine's position as a small, JSON-serialisable *view* for the front end.

The browser only ever sees what a player at the table sees: the face-up cards, the
foundation tops, the *number* of cards in the stock (never their order), the reserve,
the cells, and the legal destinations the engine allows for each card that can be
picked up. Everything here is derived from the engine's public API; the front end
never applies a rule of its own.

>>> from milligan_widget import Game
>>> view = build_view(Game.new(1), rev=1)
>>> view["columns"][0], view["stock"], "deck" in view
(['3D'], 96, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - typing only
    from milligan_widget import Card, Game, Move, Rules

View = dict[str, Any]


def card_code(card: Card | None) -> str | None:
    """The card's short code (``"10H"``), or None for an empty slot."""
    return None if card is None else str(card)


def move_count(game: Game, move: Move) -> int:
    """How many cards a move carries in this position (0 for a deal): the engine's own
    count (see ``Game.resolve``); for a move the engine refuses, the count it names or 1."""
    if move.source == "stock":
        return 0
    if move.count is not None:
        return move.count
    try:
        return game.resolve(move).count or 1
    except ValueError:
        return 1


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


def last_move(before: Game, move: Move) -> dict[str, Any]:
    """What the front end needs to animate ``move`` (played on the position ``before``)."""
    if move.source == "stock":
        return {"source": "stock", "targets": [], "cards": []}
    cards = [str(card) for card in moving_cards(before, move)]
    return {"source": move.source, "targets": resolve_targets(before, move), "cards": cards}


def legal_targets(game: Game, moves: Iterable[Move]) -> dict[str, list[str]]:
    """Map ``"source:count"`` to the piles the engine allows that pick-up to go to."""
    targets: dict[str, list[str]] = {}
    for move in moves:
        if move.source == "stock":
            continue
        dests = targets.setdefault(source_key(move.source, move_count(game, move)), [])
        dests.extend(t for t in resolve_targets(game, move) if t not in dests)
    return targets


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
        "runs": [len(col) - run for col, run in zip(game.tableau, game.runs, strict=True)],
        "foundations": foundations(game),
        "stock": game.stock_count,
        "can_deal": bool(game.can_deal),
        "reserve": None if rules.reserve == "none" else [str(c) for c in game.reserve],
        "reserve_open": bool(game.reserve_open),
        "reserve_run": 0,  # the reserve always holds one run
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
