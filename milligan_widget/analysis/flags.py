"""The moves a review flags, labelled by what they cost, on the scale of :data:`SEVERITY`,
each with the better move where one is known.

>>> Flag(4, "d", BLUNDER, "no win after it", "6>r").to_dict()["label"]
'blunder'
>>> SEVERITY.index(MISTAKE) > SEVERITY.index(INACCURACY)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .evaluate import Chance

INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
SEVERITY = (INACCURACY, MISTAKE, BLUNDER)  #: a flagged move's labels, the least costly first


def chance_dict(chance: Chance | None) -> dict[str, Any] | None:
    """A chance as plain data, or None."""
    return None if chance is None else chance.to_dict()


@dataclass(frozen=True)
class Flag:
    """A move the review flags: its ``label`` (one of :data:`SEVERITY`), ``why`` in a
    player's words, and the ``better`` move where one is known (with its chance where a judge
    measured one)."""

    ply: int
    move: str
    label: str
    why: str
    better: str | None = None
    better_chance: Chance | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move": self.move,
            "label": self.label,
            "why": self.why,
            "better": self.better,
            "better_chance": chance_dict(self.better_chance),
        }
