"""Honest analysis: what a player can know from what they see.

The honesty invariant: every answer here depends only on the *visible* position (the face-up
cards, how many lie face down, the foundations, the reserve, the cells, how many cards are
left in the stock, the rules and the line of play) and the caller's ``seed``; never on the
stock's order, the face-down cards or the deal number. Two games that look the same give the
same answers for the same seed. The unseen cards are sampled (:mod:`.sampling`) and each
sample is solved by the thoughtful solver: perfect-information Monte Carlo, which overrates
positions that need luck (each sample's solver knows every later row).

>>> from milligan_widget import Game
>>> "of 8 sampled stocks win" in str(win_chance(Game.new(27), samples=8, node_limit=20_000, seed=3))
True
"""

from .chance import Chance, win_chance
from .chart import review_svg
from .hint import Plan, honest_hint, honest_plan
from .review import Flag, Review, ReviewEntry, final_verdict, mistake, review, review_steps
from .sampling import VisibleView, determinize, visible_view

__all__ = [
    "Chance",
    "Flag",
    "Plan",
    "Review",
    "ReviewEntry",
    "VisibleView",
    "determinize",
    "final_verdict",
    "honest_hint",
    "honest_plan",
    "mistake",
    "review",
    "review_steps",
    "review_svg",
    "visible_view",
    "win_chance",
]
