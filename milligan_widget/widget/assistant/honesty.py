"""Peek or fair play: whether the assistant's help may use the hidden cards, and the budget
of the honest analysis when it may not.

With peek off (fair play, the default), hints and the indicator come from
:mod:`milligan_widget.analysis`: they look only at what the player can see (the stock's
order and the face-down cards are sampled, never read). With peek on, they come from the
solver, which knows the stock, and every verdict says so (:func:`peeking`).

>>> peeking("the solver sees a win from here in 12 moves")
'the solver, which knows the stock, sees a win from here in 12 moves'
>>> HonestBudget(samples=8, node_limit=20_000, seed=3).samples
8
"""

from __future__ import annotations

from dataclasses import dataclass

from milligan_widget.engine.errors import shown

KNOWS = "the solver, which knows the stock,"


@dataclass(frozen=True)
class HonestBudget:
    """What the honest hint and chance may spend: ``samples`` sampled stocks, at most
    ``node_limit`` positions per solve (None: only the time limit), and the ``seed`` of the
    samples (None: fresh ones each time; a seed and a node limit make every answer the
    same run after run)."""

    samples: int = 16
    node_limit: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise ValueError(
                f"samples must be a whole number of at least 1, not {shown(self.samples)}"
            )
        limit = self.node_limit
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or limit < 1
        ):
            raise ValueError(f"node_limit must be a whole number of at least 1, not {shown(limit)}")


def peeking(words: str) -> str:
    """``words`` of the solver's, saying that it knows the hidden cards."""
    if KNOWS in words:
        return words
    if words.startswith("the solver"):
        return KNOWS + words[len("the solver") :]
    return words.replace("the solver", KNOWS, 1) if "the solver" in words else words
