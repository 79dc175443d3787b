"""Peek or fair play: whether the assistant's help may use the hidden cards, and the budget
of the honest analysis when it may not.

With peek off (fair play, the default), hints and the indicator come from
:mod:`milligan_widget.analysis`: they look only at what the player can see (the stock's
order and the face-down cards are sampled, never read). With peek on, they come from the
solver, which knows the stock, and every verdict says so (:func:`peeking`).

>>> peeking("the solver sees a win from here in 12 moves")
'the solver, which knows the stock, sees a win from here in 12 moves'
>>> HonestBudget(samples=8, node_limit=20_000, seed=3).limit(2.0)
Limit(nodes=20000, samples=8, time=None)
>>> HonestBudget(node_limit=None).limit(2.0).time
2.0
"""

from __future__ import annotations

from dataclasses import dataclass

from milligan_widget.analysis import Evaluator, Limit, evaluator_for
from milligan_widget.analysis.evaluate import NODES, SAMPLES
from milligan_widget.engine import Rules

KNOWS = "the solver, which knows the stock,"


@dataclass(frozen=True)
class HonestBudget:
    """What the honest hint and chance may spend: ``samples`` sampled stocks, at most
    ``node_limit`` positions per solve (None: the hint's and the indicator's seconds
    instead), and the ``seed`` of the samples (None: drawn from what the player sees). With
    a node limit no clock is read: the same position gets the same answer on any machine."""

    samples: int = SAMPLES
    node_limit: int | None = NODES
    seed: int | None = None

    def __post_init__(self) -> None:
        Limit(self.node_limit, self.samples, 1.0)  # a ValueError in a player's words if bad

    def limit(self, seconds: float) -> Limit:
        """The budget of one chance: the node limit, or where there is none ``seconds``."""
        return Limit(self.node_limit, self.samples, None if self.node_limit else seconds)

    def hint_limit(self, seconds: float) -> Limit:
        """The budget of one hint: it weighs each of its candidate lines (about ten) on
        half the samples (8 of 20,000 positions: the honest player's own budget), and
        ``seconds`` (Hint's 2 s) stay as a safety net: on an idle machine the node limit
        ends every solve well before (a median 0.3 s), so the hint is the same every time;
        on a busy one the clock keeps Hint within its seconds."""
        return Limit(self.node_limit, max(1, self.samples // 2), seconds)

    def evaluator(self, rules: Rules) -> Evaluator:
        """The evaluator of the chances shown for ``rules`` (:func:`.analysis.evaluator_for`),
        its samples drawn from :attr:`seed`."""
        return evaluator_for(rules, self.seed)


def peeking(words: str) -> str:
    """``words`` of the solver's, saying that it knows the hidden cards."""
    if KNOWS in words:
        return words
    if words.startswith("the solver"):
        return KNOWS + words[len("the solver") :]
    return words.replace("the solver", KNOWS, 1) if "the solver" in words else words
