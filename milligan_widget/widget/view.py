"""The engine's position as a small, JSON-serialisable *view* for the front end.

The browser only ever sees what a player at the table sees: the face-up cards, the
foundation tops, the *number* of cards in the stock (never their order), the *number* of
face-down cards in each column (never what they are: docs/rules.md §3.10), the reserve,
the cells, and the legal destinations the engine allows for each card that can be
picked up. Everything here is derived from the engine's public API; the front end
never applies a rule of its own.

A column is sent as two fields: ``columns[i]``, its face-up cards bottom to top, and
``down[i]``, how many face-down cards lie under them (0 in the open-deal presets). The
front end draws ``down[i]`` card backs, then ``columns[i]``. ``runs[i]`` is the index in
``columns[i]`` of the lowest card that may be picked up (with Yukon moves, 0: every face-up
card). Two games that differ only in their face-down cards give the same view.

>>> from milligan_widget import Game
>>> view = build_view(Game.new(1, "milligan-harp"))
>>> view["down"], view["columns"][1], view["runs"][1]
([0, 1, 2, 3, 4, 5, 6, 7], ['8S'], 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from milligan_widget.studies import difficulty as difficulties

if TYPE_CHECKING:  # pragma: no cover - typing only
    from milligan_widget.engine import Card, Game, Move, Rules

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
        column = int(pile[1:]) - 1
        return game.tableau[column][game.face_down[column] :]
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
    """What the front end needs to animate ``move`` (played on the position ``before``);
    ``turned``: the columns where a face-down card turned up with it (docs/rules.md §3.10)."""
    if move.source == "stock":
        return {"source": "stock", "targets": [], "cards": [], "turned": []}
    cards = [str(card) for card in moving_cards(before, move)]
    turned = turned_up(before, before.after(move)) if any(before.face_down) else []
    return {
        "source": move.source,
        "targets": resolve_targets(before, move),
        "cards": cards,
        "turned": turned,
    }


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


def face_up_columns(game: Game) -> list[list[str]]:
    """Each column's face-up cards, bottom to top, as codes: never a face-down card."""
    return [
        [str(card) for card in col[down:]]
        for col, down in zip(game.tableau, game.face_down, strict=True)
    ]


def pick_up_from(game: Game) -> list[int]:
    """For each column, the index in its face-up cards of the lowest card that may be picked
    up (with the cards on it): the start of the run, or with Yukon moves 0."""
    return [
        len(col) - down - movable
        for col, down, movable in zip(game.tableau, game.face_down, game.movable, strict=True)
    ]


def turned_up(before: Game, after: Game) -> list[str]:
    """The columns (``"t3"``) where a face-down card turned up from ``before`` to ``after``."""
    return [
        f"t{i + 1}"
        for i, (was, now) in enumerate(zip(before.face_down, after.face_down, strict=True))
        if now < was
    ]


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
        "columns": face_up_columns(game),
        "down": list(game.face_down),
        "runs": pick_up_from(game),
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
        "deal": rules.deal,
        "moves": rules.moves,
        "presets": list(presets),
        "difficulties": difficulty_choices(presets),
    }


def difficulty_choices(presets: Iterable[str]) -> dict[str, list[dict[str, str]]]:
    """For each preset, the difficulties New game offers (:func:`.difficulty.choices`), each
    with its label: the toolbar lists those of the preset chosen for the next game.

    >>> [c["label"] for c in difficulty_choices(["milligan-cell"])["milligan-cell"]]
    ['Any deal', 'Winnable deal', 'Easy', 'Medium', 'Hard']
    """
    return {
        name: [{"value": d, "label": difficulties.LABELS[d]} for d in difficulties.choices(name)]
        for name in presets
    }


#: the solver's verdict on a shipped deal, in words (shown only where the player may know it)
SOLVER_SAID = {
    "winnable": "won by the solver",
    "unwinnable": "the solver proved it cannot be won",
    "unknown": "the solver did not decide it",
}
#: the meta a game dealt by difficulty keeps: the difficulty the player asked for
ASKED_FOR = "difficulty"


#: why a deal is in its band, in a player's words (the status bar's "why")
BAND_WHY = {
    "easy": "among {preset} deals, in the third where a greedy player gets furthest",
    "medium": "among {preset} deals, in the middle third by how far a greedy player gets",
    "hard": "among {preset} deals, in the third where a greedy player gets least far",
}
#: below this share of the games the bands are measured by won, the why says few are won
FEW_WON = 0.01


def deal_about(game: Game, peek: bool) -> dict[str, Any] | None:
    """What the status bar says of the deal on show, from the shipped table of deals
    (:mod:`milligan_widget.studies.difficulty`), or None for a deal the table does not hold.

    ``difficulty`` is the deal's band, measured offline on the whole deal (how far a greedy
    player gets on it): like a puzzle book's rating, it says how hard the deal is as a
    whole, never where a card lies. The band is shown for every shipped deal of a preset
    that offers bands, won by the solver or not: were it shown for won deals alone, seeing a
    band would tell that the solver won the deal. ``solver``, the verdict of the solver that
    knows the stock, is sent only with ``peek`` on or when the player asked for a deal the
    solver won (a "winnable", "easy", "medium" or "hard" deal: they know it).

    >>> from milligan_widget import Game
    >>> about = deal_about(Game.new(2), peek=False)
    >>> about["text"], about["solver"]
    ('Hard deal', None)
    """
    info = difficulties.deal_info(game.rules, game.seed) if game.seed is not None else None
    if info is None:
        return None
    rules = game.rules.name or ""
    banded = "hard" in difficulties.choices(rules) and info.band in difficulties.BANDED
    band = info.band if banded else None
    words, why = [], []
    if band:
        label, preset = difficulties.LABELS[band], rules.replace("-", " ")
        words.append(f"{label} deal")
        why.append(f"{label}: {BAND_WHY[band].format(preset=preset)} (the cards it brings "
                   "home, judged from the whole deal).")  # fmt: skip
        why.extend(_few_won(rules, preset))
    solver = None
    if peek or game.meta.get(ASKED_FOR) in difficulties.DIFFICULTIES[1:]:
        solver = info.verdict
        words.append(SOLVER_SAID[solver])
        why.append(f"The solver, which knows the stock, {_verdict_words(info)}.")
    if not words:
        return None
    return {"difficulty": band, "solver": solver, "text": " · ".join(words),
            "title": " ".join(why)}  # fmt: skip


def _few_won(rules: str, preset: str) -> list[str]:
    """Where hardly a game of the preset is won (Milligan Harp), a band is only relative:
    say so, with the games it is measured by."""
    won, played = difficulties.band_games(rules)
    if not played or won / played >= FEW_WON:
        return []
    return [f"Few {preset} games are won on any deal: on the deals of all three bands a greedy "
            f"player won {won} of its {played} games."]  # fmt: skip


def _verdict_words(info: difficulties.ShippedDeal) -> str:
    budget = f"{info.budget[:-1]} s"
    if info.verdict == "winnable":
        return f"won this deal in {budget}"
    if info.verdict == "unwinnable":
        return "proved this deal cannot be won"
    return f"did not decide this deal in {budget}"
