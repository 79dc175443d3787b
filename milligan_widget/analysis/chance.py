"""The chance a player is shown: which evaluator answers for a game's rules, and
:func:`win_chance`.

Where a calibrated model is shipped for the rules (:mod:`.calibrated`), the chance is how often
careful honest play wins from what the player sees; elsewhere (custom rules) it is the
sampler's figure (:mod:`.sampler`), named as such in its words.

>>> from milligan_widget import Game
>>> chance = win_chance(Game.new(27), samples=4, node_limit=20_000)
>>> chance == win_chance(Game.new(27), samples=4, node_limit=20_000), chance.samples
(True, 4)
>>> 0 < chance.low <= chance.p <= chance.high < 1, str(chance).startswith("about ")
(True, True)
"""

from __future__ import annotations

from milligan_widget.engine.game import Game
from milligan_widget.engine.rules import Rules

from .calibrated import CalibratedEvaluator, model_for
from .evaluate import NODES, Chance, Evaluator, Seen, Stop
from .sampler import SamplingEvaluator, check_budget

__all__ = ["evaluator_for", "win_chance"]


def evaluator_for(rules: Rules, seed: int | None = None) -> Evaluator:
    """The evaluator of the chance shown for ``rules``: calibrated where a model is shipped,
    else the sampler; its samples come from ``seed``, or by default from what is seen."""
    model = model_for(rules)
    sampler = SamplingEvaluator(seed)
    return sampler if model is None else CalibratedEvaluator(model, sampler)


def win_chance(
    game: Game,
    samples: int = 32,
    time_limit: float | None = None,
    node_limit: int | None = NODES,
    seed: int | None = None,
    stop: Stop | None = None,
) -> Chance:
    """The chance to win ``game`` from what its player can see.

    ``p``, ``low`` and ``high`` are the calibrated chance and its 95% interval where a model
    is shipped for the rules (:func:`evaluator_for`): how often careful honest play wins from
    such positions. Beside it, ``wins`` of ``samples`` determinizations (:mod:`.sampling`)
    were won by the thoughtful solver, each solve expanding at most ``node_limit``
    positions, ``undecided`` of them unfinished (never counted as lost): the sampler's
    figure, what a player who could see the next rows would win (:attr:`.Chance.sampled`).
    ``time_limit`` seconds (None: no clock) is the whole call's budget. The samples come from
    ``seed``, or by default from the visible position: asking twice, or about a game the
    player cannot tell apart, gives the same chance. ``stop()`` cancels it: the samples not
    yet solved are undecided. Where nothing is hidden, the answer is the thoughtful verdict
    itself. The game is not changed.
    """
    limit = check_budget(game, samples, time_limit, node_limit)
    return evaluator_for(game.rules, seed).evaluate(Seen.of(game, line=False), limit, stop)
