"""Pictures of a position: plain text for ``str(game)``, static HTML for notebooks, and moves
described in words."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from .cards import CARDS, SUIT_NAMES, SUIT_SYMBOLS, cards_text

if TYPE_CHECKING:
    from .cards import Card
    from .game import Game
    from .position import Action

_EMPTY = "  · "
_BACK = "  ░░"  #: a face-down card in the text layout: its back, never its face


def text_layout(game: Game) -> str:
    """The position as text: a header, foundations, reserve or cells, and the columns; a
    face-down card shows its back (``░░``), never its face.

    >>> from milligan_widget import Game
    >>> print(str(Game.new(1)).splitlines()[0])
    Miss Milligan (classic), deal 1 · move 0 · stock 96 · foundations 0/104 · playing
    """
    rules = game.rules
    deal = f"deal {game.seed}" if game.seed is not None else "custom deck"
    lines = [
        f"Miss Milligan ({rules.name or 'custom rules'}), {deal} · move {len(game.history)} · "
        f"stock {game.stock_count} · foundations {game.foundation_count}/{rules.card_count} · "
        f"{game.status}"
        + (f" · face down {sum(game.face_down)}" if rules.deal == "face-down" else "")
    ]
    piles = [
        pile[-1].unicode.rjust(4) if pile else f"  {SUIT_SYMBOLS['CSHD'.index(suit)]}·"
        for pile, suit in zip(game.foundations, game.foundation_suits, strict=True)
    ]
    lines.append("Foundations:" + "".join(piles))
    if rules.reserve != "none":
        state = "open" if game.reserve_open else "closed" if not game.reserve else ""
        held = " ".join(c.unicode for c in game.reserve) or "empty"
        lines.append(f"Reserve: {held}" + (f" ({state})" if state else ""))
    if rules.cells:
        lines.append("Cells:" + "".join(c.unicode.rjust(4) if c else _EMPTY for c in game.cells))
    columns = _faces(game)
    lines.append("".join(str(i + 1).rjust(4) for i in range(len(columns))))
    for row in range(max(1, *(len(col) for col in columns))):
        lines.append(
            "".join(
                col[row].rjust(4) if row < len(col) else (_EMPTY if row == 0 else "    ")
                for col in columns
            ).rstrip()
        )
    return "\n".join(lines)


def _faces(game: Game) -> list[list[str]]:
    """Each column as a player sees it: a back for each face-down card, then the faces."""
    return [
        [_BACK] * down + [card.unicode for card in col[down:]]
        for col, down in zip(game.tableau, game.face_down, strict=True)
    ]


_CSS = """
.mm-board{font-family:var(--jp-ui-font-family,system-ui,sans-serif);background:#1d6b3a;
  color:#f4f4f4;padding:8px;border-radius:8px;display:inline-block;min-width:min(100%,560px)}
.mm-row{display:flex;gap:6px;margin:4px 0;align-items:flex-start}
.mm-label{font-size:12px;opacity:.85;margin:2px 0}
.mm-card,.mm-slot{width:44px;height:62px;border-radius:5px;box-sizing:border-box;flex:none}
.mm-card{background:#fff;border:1px solid #777;font-weight:600;font-size:14px;padding:2px 3px;
  line-height:1.1;color:#111}
.mm-red{color:#c0152f}
.mm-slot{border:1px dashed rgba(255,255,255,.55);display:flex;align-items:center;
  justify-content:center;font-size:20px;color:rgba(255,255,255,.6)}
.mm-col{display:flex;flex-direction:column;width:44px}
.mm-col .mm-card:not(:first-child){margin-top:-44px}
.mm-stock,.mm-back{
  background:repeating-linear-gradient(45deg,#23418f,#23418f 4px,#2c52b0 4px,#2c52b0 8px);
  border:1px solid #eee;color:#fff;display:flex;align-items:center;justify-content:center}
"""


def _card_html(code: int) -> str:
    card = CARDS[code]
    red = " mm-red" if card.red else ""
    return f'<div class="mm-card{red}" title="{escape(card.name)}">{escape(card.unicode)}</div>'


_BACK_HTML = '<div class="mm-card mm-back" title="face-down card"></div>'
_SLOT_HTML = '<div class="mm-slot"></div>'


def _column_html(column: Sequence[Card], down: int) -> str:
    """A column's cards: a plain back for each face-down card (no trace of its face)."""
    cards = _BACK_HTML * down + "".join(_card_html(c.code) for c in column[down:])
    return f'<div class="mm-col">{cards or _SLOT_HTML}</div>'


def html_layout(game: Game) -> str:
    """A static picture of the position (HTML and CSS, no JavaScript); a face-down card is
    drawn as a card back, and its identity is nowhere in the HTML."""
    foundations = "".join(
        _card_html(pile[-1].code)
        if pile
        else f'<div class="mm-slot">{SUIT_SYMBOLS["CSHD".index(suit)]}</div>'
        for pile, suit in zip(game.foundations, game.foundation_suits, strict=True)
    )
    stock = (
        f'<div class="mm-card mm-stock" title="stock">{game.stock_count}</div>'
        if game.stock_count
        else '<div class="mm-slot">·</div>'
    )
    extra = ""
    if game.rules.reserve != "none":
        held = "".join(_card_html(c.code) for c in game.reserve) or '<div class="mm-slot">R</div>'
        extra = f'<div class="mm-col" title="reserve">{held}</div>'
    if game.rules.cells:
        extra += "".join(
            f'<div class="mm-col" title="cell {i}">'
            + (_card_html(c.code) if c else '<div class="mm-slot">·</div>')
            + "</div>"
            for i, c in enumerate(game.cells, start=1)
        )
    columns = "".join(
        _column_html(col, down) for col, down in zip(game.tableau, game.face_down, strict=True)
    )
    header = escape(text_layout(game).splitlines()[0])
    return (
        f'<style>{_CSS}</style><div class="mm-board"><div class="mm-label">{header}</div>'
        f'<div class="mm-row">{foundations}</div>'
        f'<div class="mm-row">{stock}{extra}</div>'
        f'<div class="mm-row">{columns}</div></div>'
    )


def describe_action(game: Game, action: Action) -> str:
    """Words for a resolved action in the position ``game`` is in (before it is played)."""
    from . import position as p

    kind, cols = action[0], game.column_codes
    if kind == p.TURN_UP:  # never name the card that turns up: it is face down until then
        return describe_action(game, action[1]) + ", and the card under it turns face up"
    if kind == p.DEAL_ROW:
        return f"deal a row of {action[1]} cards"
    if kind in (
        p.COLUMN_TO_COLUMN,
        p.GROUP_TO_COLUMN,
        p.COLUMN_TO_FOUNDATION,
        p.COLUMN_TO_RESERVE,
        p.COLUMN_TO_CELL,
    ):
        return _from_column(game, cols, action)
    if kind == p.RESERVE_TO_COLUMN:
        dst, k = action[1], action[2]
        moved = cards_text(game.reserve_codes[-k:])
        return f"{moved} from the reserve {_column_words(cols[dst], dst)}"
    if kind == p.RESERVE_TO_FOUNDATION:
        return f"{cards_text(game.reserve_codes[-1:])} from the reserve {_home(game, action[1])}"
    if kind == p.FOUNDATION_TO_COLUMN:
        pile, dst = action[1], action[2]
        card = (game.foundation_heights[pile] - 1) * 4 + game.foundation_suit_codes[pile]
        return (
            f"{cards_text([card])} back from foundation {pile + 1} {_column_words(cols[dst], dst)}"
        )
    cell, held = action[1], cards_text([game.cell_codes[action[1]]])
    if kind == p.CELL_TO_COLUMN:
        return f"{held} from cell {cell + 1} {_column_words(cols[action[2]], action[2])}"
    return f"{held} from cell {cell + 1} {_home(game, action[2])}"


def _from_column(game: Game, cols: tuple[tuple[int, ...], ...], action: Action) -> str:
    from . import position as p

    kind, src = action[0], action[1]
    where = f"from column {src + 1}"
    if kind in (p.COLUMN_TO_COLUMN, p.GROUP_TO_COLUMN):
        dst, k = action[2], action[3]
        return f"{cards_text(cols[src][-k:])} {where} {_column_words(cols[dst], dst)}"
    if kind == p.COLUMN_TO_FOUNDATION:
        return f"{cards_text(cols[src][-1:])} {where} {_home(game, action[2])}"
    if kind == p.COLUMN_TO_RESERVE:
        return f"set {cards_text(cols[src][-action[2]:])} {where} aside into the reserve"
    return f"{cards_text(cols[src][-1:])} {where} into cell {action[2] + 1}"


def _column_words(column: Sequence[int], index: int) -> str:
    if column:
        return f"onto {CARDS[column[-1]].unicode} in column {index + 1}"
    return f"into empty column {index + 1}"


def _home(game: Game, pile: int) -> str:
    suit = SUIT_NAMES[game.foundation_suit_codes[pile]]
    return f"to the {suit} foundation ({pile + 1})"
