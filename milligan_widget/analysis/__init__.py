"""Honest analysis: what a player can know from what they see.

The honesty invariant: every answer here depends only on the *visible* position (the face-up
cards, how many lie face down, the foundations, the reserve, the cells, how many cards are
left in the stock, the rules and the line of play) and the caller's ``seed``; never on the
stock's order, the face-down cards or the deal number. Two games that look the same give the
same answers; without a seed, the samples' seed is drawn from the visible position itself.
:mod:`.evaluate` is the seam: an :class:`Evaluator` weighs a :class:`Seen` position within a
:class:`Limit` and answers with a :class:`Chance`. Today's evaluator samples the unseen cards
(:mod:`.sampling`) and lets the thoughtful solver try each sample
(:class:`SamplingEvaluator`): perfect-information Monte Carlo, which overrates positions that
need luck (each sample's solver knows every later row). The chance a player is shown
(:func:`win_chance`, :func:`evaluator_for`) is calibrated (:class:`CalibratedEvaluator`): how
often careful honest play wins from such positions.

>>> from milligan_widget import Game
>>> chance = win_chance(Game.new(27), samples=8, node_limit=20_000)
>>> chance == win_chance(Game.new(27), samples=8, node_limit=20_000), chance.samples
(True, 8)
"""

from .calibrated import CalibratedEvaluator
from .chance import evaluator_for, win_chance
from .chart import review_svg
from .evaluate import Chance, Evaluator, Limit, Seen
from .flags import Flag
from .hint import Plan, honest_hint, honest_plan
from .judge import Judgement, judge_move
from .review import Review, ReviewEntry, final_verdict, mistake, review, review_steps
from .sampler import SamplingEvaluator
from .sampling import VisibleView, determinize, visible_view

__all__ = [
    "CalibratedEvaluator",
    "Chance",
    "Evaluator",
    "Flag",
    "Judgement",
    "Limit",
    "Plan",
    "Review",
    "ReviewEntry",
    "SamplingEvaluator",
    "Seen",
    "VisibleView",
    "determinize",
    "evaluator_for",
    "final_verdict",
    "honest_hint",
    "honest_plan",
    "judge_move",
    "mistake",
    "review",
    "review_steps",
    "review_svg",
    "visible_view",
    "win_chance",
]
