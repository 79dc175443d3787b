"""Rule options and the named presets of docs/rules.md §3 and §4.

>>> Rules.named("millie").reserve
'none'
>>> Rules.named("classic").replace(cells=2).name is None
True
>>> Rules.named("classic").replace(reserve="single").name
'single-card'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from .errors import RulesError, shown

#: The value of one rule option: a choice word, a number (decks, cells) or a yes/no.
Option = str | int | bool
#: Rules as plain data (:meth:`Rules.to_dict`): the options by name, and the preset's name.
RulesData = dict[str, Option | None]

_CHOICES: dict[str, tuple[Option, ...]] = {
    "decks": (2, 1),
    "reserve": ("sequence", "single", "none"),
    "reserve_opens": ("stock-empty", "any-time"),
    "reserve_to_foundation": (True, False),
    "reserve_unload": ("any-part", "whole"),
    "empty_column": ("king", "any"),
    "foundation_takeback": ("never", "always", "stock-empty"),
    "cells": (0, 1, 2, 3, 4),
    "deal": ("open", "face-down"),
    "moves": ("runs", "groups"),
}
#: Options newer than the first saved games: :meth:`Rules.to_dict` leaves them out at their
#: defaults, so a game under the older presets saves exactly as it always did.
_LATER_OPTIONS = ("deal", "moves")
MAX_NAME = 60  #: the longest rules name, in characters (a preset's has 15 at most)
_RESERVE_OPTIONS = ("reserve_opens", "reserve_to_foundation", "reserve_unload")


@dataclass(frozen=True)
class Rules:
    """One set of rules. Every field is an option of docs/rules.md §3; :meth:`named` gives the
    presets (docs/rules.md §4).

    ``decks``: 2 (8 columns, 8 foundations) or 1 (Little Milligan: 7 columns, 4 foundations).
    ``reserve``: what the weaving reserve holds: ``"sequence"``, ``"single"`` card or ``"none"``.
    ``reserve_opens``: ``"stock-empty"`` or ``"any-time"``.
    ``reserve_to_foundation``: may the reserve's end card go to a foundation directly.
    ``reserve_unload``: ``"any-part"`` that fits, or only the ``"whole"`` unit.
    ``empty_column``: ``"king"`` (a King or King-led run only) or ``"any"`` card or run.
    ``foundation_takeback``: ``"never"``, ``"always"`` or ``"stock-empty"`` (once it is empty).
    ``cells``: number of free cells (one card each, usable at any time).
    ``deal``: ``"open"`` (one face-up card per column) or ``"face-down"`` (column j gets j
    cards, the lowest j-1 face down, as in Milligan Harp; docs/rules.md §3.10).
    ``moves``: ``"runs"`` (a run in alternating colours moves, whole or in part) or
    ``"groups"`` (Yukon: any face-up card moves with every card on it; docs/rules.md §3.11).

    >>> Rules.named("milligan-yukon").moves
    'groups'
    """

    decks: int = 2
    reserve: str = "sequence"
    reserve_opens: str = "stock-empty"
    reserve_to_foundation: bool = True
    reserve_unload: str = "any-part"
    empty_column: str = "king"
    foundation_takeback: str = "never"
    cells: int = 0
    deal: str = "open"
    moves: str = "runs"
    name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for option, choices in _CHOICES.items():
            value = getattr(self, option)
            if value not in choices or type(value) is not type(choices[0]):
                raise RulesError(
                    f"{option} must be one of {', '.join(map(repr, choices))}, not {shown(value)}"
                )
        if self.reserve == "none":
            for option in _RESERVE_OPTIONS:
                if getattr(self, option) != _DEFAULTS[option]:
                    raise RulesError(
                        f"{option}={shown(getattr(self, option))} makes no sense without a reserve"
                    )
        if self.name is not None:
            _check_name(self.name)
        if self.name is not None and PRESETS.get(self.name, self) != self:
            raise RulesError(f"{shown(self.name)} names a preset whose rules differ from these")

    @classmethod
    def named(cls, name: str) -> Rules:
        """The preset with this name (see :data:`PRESETS`)."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(
                f"{shown(name)} is not a rules preset; the presets are {', '.join(PRESETS)}"
            ) from None

    @classmethod
    def coerce(cls, rules: str | Rules | Mapping[str, object] | None) -> Rules:
        """Rules from a preset name, a ``Rules``, a dict of options, or ``None`` (classic)."""
        if rules is None:
            return PRESETS["classic"]
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str):
            return cls.named(rules)
        if isinstance(rules, dict):
            return cls.from_dict(rules)
        raise RulesError(f"rules are a preset name or a Rules value, not {shown(rules)}")

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Rules from :meth:`to_dict` output; unknown keys are refused."""
        if not isinstance(data, dict):
            raise RulesError(f"rules are a set of named options, not {shown(data)}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(map(shown, set(data) - known))
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown[:5])}")
        name = data.get("name")
        # Read data: each option is checked against its choices in __post_init__, and so
        # is the name.
        options: dict[str, Any] = {k: v for k, v in data.items() if k != "name"}
        rules = cls(**options)
        return rules.with_preset_name() if name is None else replace(rules, name=name)

    def to_dict(self) -> RulesData:
        """All options as plain JSON-ready data (``deal`` and ``moves`` only when they are not
        at their defaults, so older saves and older readers stay as they were).

        >>> Rules.named("milligan-harp").to_dict()["deal"]
        'face-down'
        """
        data = asdict(self)
        for option in _LATER_OPTIONS:
            if data[option] == _DEFAULTS[option]:
                del data[option]
        return data

    def replace(self, **changes: Option) -> Rules:
        """A copy with some options changed; it keeps a preset's name only if it still equals it."""
        options: dict[str, Any] = changes  # each is checked against its choices
        return replace(self, name=None, **options).with_preset_name()

    def with_preset_name(self) -> Rules:
        """These rules named after the preset they equal, if any."""
        for preset in PRESETS.values():
            if preset == self:
                return preset
        return self if self.name is None else replace(self, name=None)

    @property
    def columns(self) -> int:
        return 8 if self.decks == 2 else 7

    @property
    def foundation_count(self) -> int:
        return 4 * self.decks

    @property
    def card_count(self) -> int:
        return 52 * self.decks

    @property
    def face_down_count(self) -> int:
        """Cards dealt face down at the start: 0, or 1 + 2 + ... + (columns - 1)."""
        return self.columns * (self.columns - 1) // 2 if self.deal == "face-down" else 0

    @property
    def stock_size(self) -> int:
        """Cards in the stock after the opening deal (96 classic, 68 in Milligan Harp)."""
        return self.card_count - self.columns - self.face_down_count

    def describe(self) -> list[str]:
        """The rules in plain words, one line each, for a rules panel.

        >>> Rules.named("milligan-harp").describe()[0][:57]
        'Two decks, 104 cards. Column j starts with j cards, the l'
        """
        lines = [
            self._describe_deal(),
            f"{self.foundation_count} foundations, {self.decks} per suit, "
            "build up in suit from Ace to King.",
            "Columns build down in alternating colours (a red 9 on a black 10).",
            *self._describe_moves(),
            self._describe_empty_column(),
            "Deal whenever you like: one card onto every column, empty ones included"
            + self._describe_short_row(),
        ]
        lines += self._describe_reserve()
        if self.cells:
            lines.append(f"{self.cells} free cells each hold one card, at any time.")
        if self.foundation_takeback != "never":
            when = (
                "at any time" if self.foundation_takeback == "always" else "once the stock is empty"
            )
            lines.append(f"A foundation's top card may come back onto a column {when}.")
        lines.append(f"You win when all {self.card_count} cards are on the foundations.")
        return lines

    def _describe_deal(self) -> str:
        cards = f"{'Two decks, 104' if self.decks == 2 else 'One deck, 52'} cards."
        if self.deal == "open":
            return (
                f"{cards} {self.columns} columns start with one face-up card each; "
                "the rest is the stock."
            )
        return (
            f"{cards} Column j starts with j cards, the lowest j−1 face down "
            f"({self.face_down_count} face down, {self.columns} face up); "
            f"the other {self.stock_size} are the stock."
        )

    def _describe_moves(self) -> list[str]:
        lines = [
            "Any card that starts a run of alternating colours to the end of its column moves "
            "with all the cards on it."
            if self.moves == "runs"
            else "Any face-up card moves with all the cards on it, in sequence or not, "
            "if that first card fits where it goes."
        ]
        if self.deal == "face-down":
            lines.append(
                "Face-down cards never move, and a deal never turns one up; when the last card "
                "on one leaves, it turns face up at once, as part of that move."
            )
        return lines

    def _describe_empty_column(self) -> str:
        what = "run" if self.moves == "runs" else "face-up group"
        if self.empty_column == "king":
            return f"An empty column takes only a King, alone or leading a {what}."
        return f"An empty column takes any card or {what}."

    def _describe_short_row(self) -> str:
        short = self.stock_size % self.columns
        return f" (the last row of {short} onto columns 1–{short})." if short else "."

    def _describe_reserve(self) -> list[str]:
        if self.reserve == "none":
            return []
        what = "one card or one run" if self.reserve == "sequence" else "one single card"
        when = "once the stock is empty" if self.reserve_opens == "stock-empty" else "at any time"
        lines = [f"Weaving: {when}, set {what} aside in the reserve; it holds one unit at a time."]
        if self.reserve == "sequence":
            lines.append(
                "Any part of the reserve that fits may go back onto a column."
                if self.reserve_unload == "any-part"
                else "The reserve goes back only as a whole unit."
            )
        lines.append(
            "The reserve's end card may go straight to a foundation."
            if self.reserve_to_foundation and self.reserve_unload == "any-part"
            else "A single card in the reserve may go straight to a foundation."
            if self.reserve_to_foundation
            else "Reserve cards must go back to the tableau before reaching a foundation."
        )
        return lines


def _check_name(name: object) -> None:
    """A rules name is shown in messages, titles and saved pages: short text on one line."""
    if not isinstance(name, str):
        raise RulesError("a rules name is a preset's name, as text")
    if len(name) > MAX_NAME or not name.isprintable():
        raise RulesError(
            f"a rules name is one line of at most {MAX_NAME} characters, not {shown(name)}"
        )


_DEFAULTS = {f.name: f.default for f in fields(Rules)}

PRESETS: dict[str, Rules] = {}
for _name, _rules in {
    "classic": Rules(),
    "strict": Rules(reserve_unload="whole", reserve_to_foundation=False),
    "single-card": Rules(reserve="single"),
    "easy": Rules(
        reserve_opens="any-time",
        reserve_unload="whole",
        foundation_takeback="always",
    ),
    "millie": Rules(reserve="none"),
    "giant": Rules(reserve="none", empty_column="any", foundation_takeback="stock-empty"),
    "imperial-guards": Rules(empty_column="any"),
    "little-milligan": Rules(decks=1, reserve="none"),
    "milligan-cell": Rules(reserve="none", cells=4),
    "milligan-harp": Rules(reserve="none", empty_column="any", deal="face-down"),
    "milligan-yukon": Rules(
        reserve="none",
        empty_column="any",
        deal="face-down",
        moves="groups",
    ),
}.items():
    PRESETS[_name] = replace(_rules, name=_name)
del _name, _rules
