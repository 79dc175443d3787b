"""Deals chosen by difficulty, from the table of deals shipped with the package.

A player asks for ``"any"`` deal (a random number, as ever), a ``"winnable"`` one (the
thoughtful solver, which knows the stock, won it in the win-rate studies), or an ``"easy"``,
``"medium"`` or ``"hard"`` one: a solver-won deal of that band. Every difficulty but "any" is
a deal the solver has won, so even a hard deal can be won.

A deal's band comes from the whole deal, measured offline when the table was built
(``benchmarks/deal_features.py``, ``benchmarks/deal_table.py``): how many cards a greedy
player brings home on average over games in which it slips (plays a random move one time in
ten; fixed seeds; 16 games a classic or Millie deal, 4 for the other presets). Of the inputs
tried, that figure sorted deals best by how often the honest player (who sees only what a
player sees) wins them, on classic and Millie deals 1..200 (``benchmarks/difficulty_fit.py``).
Per preset, the bands are the terciles of it over that preset's solver-won deals: hard below
the lower one, easy above the upper one, medium between (a figure on a boundary is medium).
docs/difficulty.md gives how well the bands sort deals: the honest player's and greedy's win
rate in each, on deals no fit has seen.

Nothing is solved when a deal is picked: the table (``milligan_widget/data/deals.csv``) is
read once.

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
BANDED = ("easy", "medium", "hard")
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
#: a preset's bands are offered only where each of the three holds at least this many deals
MIN_BAND = 20


@dataclass(frozen=True)
class ShippedDeal:
    """One row of the shipped table: the solver's verdict (``"winnable"``, ``"unwinnable"`` or
    ``"unknown"``) at its ``budget`` ("10s" or "60s"); the cards greedy brings home; the mean
    cards home and the games won by greedy with random slips over ``runs`` seeded games
    (``slips_home`` is what the band is measured by: higher is easier); and the ``band`` it
    falls in among the preset's solver-won deals ("easy", "medium" or "hard")."""

    rules: str
    deal: int
    verdict: str
    budget: str
    greedy_home: int
    slips_home: float
    slips_won: int
    runs: int
    band: str

    @property
    def difficulty(self) -> str | None:
        """ "easy", "medium" or "hard" for a deal the solver won; None for any other."""
        return self.band if self.verdict == WON and self.band in BANDED else None


@functools.cache
def shipped_deals() -> dict[str, dict[int, ShippedDeal]]:
    """The shipped table, per preset name, per deal number (read from the package data)."""
    text = files("milligan_widget").joinpath("data/deals.csv").read_text(encoding="utf-8")
    table: dict[str, dict[int, ShippedDeal]] = {}
    for row in csv.DictReader(text.splitlines()):
        deal = ShippedDeal(
            row["rules"], int(row["deal"]), row["verdict"], row["budget"],
            int(row["greedy_home"]), float(row["slips_home"]), int(row["slips_won"]),
            int(row["runs"]), row["band"],
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


@functools.cache
def band_games(rules: str | Rules) -> tuple[int, int]:
    """(won, played): the games of greedy with slips (what the bands are measured by) on the
    solver-won deals of ``rules``'s bands; (0, 0) where the rules have none.

    >>> won, played = band_games("classic")
    >>> played > 0 and 0 < won < played
    True
    """
    rows = [row for row in shipped_deals().get(Rules.coerce(rules).name or "", {}).values()
            if row.difficulty is not None]  # fmt: skip
    return sum(row.slips_won for row in rows), sum(row.runs for row in rows)


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

    >>> choices("milligan-cell")
    ('any', 'winnable', 'easy', 'medium', 'hard')
    >>> choices(Rules.named("classic").replace(cells=2))
    ('any',)
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
