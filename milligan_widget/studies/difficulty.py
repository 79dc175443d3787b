"""Deals chosen by difficulty, from the table of deals shipped with the package.

A player asks for ``"any"`` deal (a random number, as ever), a ``"winnable"`` one (the
thoughtful solver, which knows the stock, won it in the win-rate studies), or an ``"easy"``,
``"medium"`` or ``"hard"`` one: a solver-won deal whose *honest* chance at the opening (the
share of 16 sampled stocks the solver wins from what the player sees, 20,000 nodes a sample,
:func:`milligan_widget.analysis.win_chance`) lies in the band. Every difficulty but "any" is
a deal the solver has won, so even a hard deal can be won.

The bands are per preset, :data:`BANDS` ``= {preset: (low, high)}``: the terciles of the
honest opening chance over that preset's solver-won shipped deals (docs/difficulty.md gives
the numbers and why). A deal is hard if its chance is below ``low``, easy above ``high``,
medium from ``low`` to ``high`` (a chance on a boundary is medium). Per preset, because the
presets differ: a Millie opening's chance is lower than a classic one's, and one scale would
make nearly every Millie deal hard.

Nothing is solved when a deal is picked: the table (``milligan_widget/data/deals.csv``, built
by ``benchmarks/deal_table.py``) is read once.

>>> import random
>>> deal = pick_deal("classic", "hard", random.Random(1))
>>> difficulty_of("classic", deal)
'hard'
>>> deal_info("classic", deal).verdict
'winnable'
"""

from __future__ import annotations

import csv
import functools
import random
from dataclasses import dataclass
from importlib.resources import files

from milligan_widget.engine.rules import Rules

DIFFICULTIES = ("any", "winnable", "easy", "medium", "hard")
#: per preset, (low, high): the terciles of the honest opening chance of its solver-won deals
#: in the shipped table (printed by ``benchmarks/deal_table.py --bands``)
BANDS: dict[str, tuple[float, float]] = {
    "classic": (0.6875, 0.75),
    "strict": (0.625, 0.75),
    "single-card": (0.625, 0.6875),
    "easy": (0.9375, 0.9375),
    "millie": (0.375, 0.5),
    "giant": (0.6875, 0.75),
    "imperial-guards": (0.8125, 0.875),
    "little-milligan": (0.75, 0.8125),
    "milligan-cell": (1.0, 1.0),
    "milligan-harp": (0.229167, 0.333333),
    "milligan-yukon": (1.0, 1.0),
}
#: the number of a random "any" deal lies in 1 .. ANY_DEALS, as :meth:`Game.random`'s does
ANY_DEALS = 10**9
WON = "winnable"
#: what a player is offered for each difficulty (the widget's New game choice)
LABELS = {
    "any": "Any deal",
    "winnable": "Winnable deal",
    "easy": "Easy",
    "medium": "Medium",
    "hard": "Hard",
}
#: a preset's bands are offered only where each of the three holds at least this many deals:
#: Milligan Cell's and Milligan Yukon's openings are nearly all won at 16 samples (chance 1),
#: so their bands would sort nothing (all 200 "medium"), and they offer "winnable" alone
MIN_BAND = 20


@dataclass(frozen=True)
class ShippedDeal:
    """One row of the shipped table: the solver's verdict (``"winnable"``, ``"unwinnable"`` or
    ``"unknown"``) at its ``budget`` ("10s" or "60s"), and the honest opening chance as
    ``wins`` of ``samples`` sampled stocks (``undecided`` of them ran out of nodes)."""

    rules: str
    deal: int
    verdict: str
    budget: str
    wins: int
    samples: int
    undecided: int

    @property
    def chance(self) -> float:
        """The honest chance at the opening: the share of sampled stocks won."""
        return self.wins / self.samples

    @property
    def difficulty(self) -> str | None:
        """ "easy", "medium" or "hard" for a deal the solver won; None for any other."""
        if self.verdict != WON or self.rules not in BANDS:
            return None
        return band(self.rules, self.chance)


def band(rules: str, chance: float) -> str:
    """The band of an honest opening chance under the preset ``rules``.

    >>> band("classic", 1.0), band("classic", 0.0)
    ('easy', 'hard')
    """
    low, high = BANDS[rules]
    if chance > high:
        return "easy"
    return "hard" if chance < low else "medium"


@functools.cache
def shipped_deals() -> dict[str, dict[int, ShippedDeal]]:
    """The shipped table, per preset name, per deal number (read from the package data)."""
    text = files("milligan_widget").joinpath("data/deals.csv").read_text(encoding="utf-8")
    table: dict[str, dict[int, ShippedDeal]] = {}
    for row in csv.DictReader(text.splitlines()):
        deal = ShippedDeal(
            row["rules"], int(row["deal"]), row["verdict"], row["budget"],
            int(row["wins"]), int(row["samples"]), int(row["undecided"]),
        )  # fmt: skip
        table.setdefault(deal.rules, {})[deal.deal] = deal
    return table


def _preset_table(rules: str | Rules) -> dict[int, ShippedDeal]:
    """The shipped deals of ``rules``; a ValueError naming the presets that have some."""
    name = Rules.coerce(rules).name
    table = shipped_deals()
    if name not in table:
        shown = repr(name) if name else "these custom rules"
        raise ValueError(
            f"no deals are shipped for {shown}; deals by difficulty exist for {', '.join(table)}"
        )
    return table[name]


def deal_info(rules: str | Rules, deal: int) -> ShippedDeal | None:
    """The shipped row of ``deal`` under ``rules``, or None if it is not in the table."""
    name = Rules.coerce(rules).name
    return shipped_deals().get(name or "", {}).get(deal)


def difficulty_of(rules: str | Rules, deal: int) -> str | None:
    """ "easy", "medium" or "hard" for a shipped deal the solver won; None otherwise (a deal
    not in the table, or one the solver lost or did not decide).

    >>> difficulty_of("classic", 10**9 + 7) is None
    True
    """
    info = deal_info(rules, deal)
    return None if info is None else info.difficulty


def deals_of(rules: str | Rules, difficulty: str) -> list[int]:
    """The shipped deals of ``rules`` with ``difficulty`` (not "any"), in number order."""
    check_difficulty(difficulty)
    if difficulty == "any":
        raise ValueError('"any" deal is any number, not a list: use pick_deal')
    rows = _preset_table(rules).values()
    if difficulty == WON:
        return sorted(row.deal for row in rows if row.verdict == WON)
    return sorted(row.deal for row in rows if row.difficulty == difficulty)


def choices(rules: str | Rules) -> tuple[str, ...]:
    """The difficulties a player may ask for under ``rules``: "any" always; "winnable" where
    the table holds solver-won deals; "easy", "medium" and "hard" where each of the three
    bands holds at least :data:`MIN_BAND` of them.

    >>> choices("classic"), choices("milligan-cell")
    (('any', 'winnable', 'easy', 'medium', 'hard'), ('any', 'winnable'))
    """
    name = Rules.coerce(rules).name
    return _choices(name) if name else ("any",)


@functools.cache
def _choices(name: str) -> tuple[str, ...]:
    rows = shipped_deals().get(name, {}).values()
    found: dict[str, int] = {}
    for row in rows:
        if row.verdict == WON:
            found[WON] = found.get(WON, 0) + 1
        if row.difficulty is not None:
            found[row.difficulty] = found.get(row.difficulty, 0) + 1
    banded = all(found.get(band, 0) >= MIN_BAND for band in ("easy", "medium", "hard"))
    won = (WON,) if found.get(WON) else ()
    return ("any", *won, *(("easy", "medium", "hard") if banded else ()))


def check_difficulty(difficulty: object) -> None:
    """A ValueError naming the choices for anything but one of :data:`DIFFICULTIES`."""
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
        raise ValueError(
            f"{difficulty!r} is not a difficulty; choose one of {', '.join(DIFFICULTIES)}"
        )


def pick_deal(rules: str | Rules, difficulty: str = "any", rng: random.Random | None = None) -> int:
    """A deal number of ``difficulty`` under ``rules``, drawn with ``rng`` (the ``random``
    module if None). "any" is any number in 1 .. :data:`ANY_DEALS` (every rules); the others
    come from the shipped table (never a solve), and a ValueError says why where there is
    none: an unknown difficulty, or rules without shipped deals.

    >>> pick_deal("classic", "impossible")
    Traceback (most recent call last):
    ...
    ValueError: 'impossible' is not a difficulty; choose one of any, winnable, easy, medium, hard
    """
    check_difficulty(difficulty)
    rng = rng or random.Random()
    if difficulty == "any":
        Rules.coerce(rules)
        return rng.randint(1, ANY_DEALS)
    choices = deals_of(rules, difficulty)
    if not choices:
        raise ValueError(
            f"no shipped {Rules.coerce(rules).name} deal is {difficulty}; choose another difficulty"
        )
    return rng.choice(choices)
