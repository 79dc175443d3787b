"""The calibrated chance: how often careful honest play wins from a position, from what its
player sees.

The sampler's figure (:class:`.chance.SamplingEvaluator`) overrates a position: each sample's
solver sees every later row. A :class:`Model` turns what a player sees (:mod:`.features`)
and that figure into the chance the project's honest player actually wins from such
positions: a logistic model fitted by ``benchmarks/calibration.py`` on positions of honest
games of deals 1..1500 (cross-fitted figures: docs/win-rates.md), shipped as
``milligan_widget/data/calibration.json``. :class:`CalibratedEvaluator` is an
:class:`.evaluate.Evaluator` like the sampler, so a caller swaps one for the other.

>>> from milligan_widget import Game
>>> evaluator = CalibratedEvaluator.for_rules("classic")
>>> chance = evaluator.evaluate(Seen.of(Game.new(3), line=False), Limit())
>>> 0.0 < chance.low <= chance.p <= chance.high < 1.0, str(chance).startswith("about ")
(True, True)
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.resources import files
from typing import Any

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.rules import Rules

from .evaluate import Chance, Limit, Seen, Stop
from .features import VisibleFeatures, visible_features
from .sampler import SamplingEvaluator
from .sampling import determinize

#: every input a model may read (each scaled to about 0..1 by :func:`inputs`); a model reads
#: those it names, in its own order
NAMES = (
    "home", "stock", "buried_low", "buried_depth", "reserve", "empty_columns", "legal_moves",
    "sampled", "decided", "sampled_late", "breaks", "self_blocks",
)  # fmt: skip
FIRST_NAMES = NAMES[:10]  #: the inputs of the first models (fitted before the column blocks)
#: the sampler's figure as the model was fitted on it (``benchmarks/calibration_data.py``)
FIGURE = Limit(nodes=2_000, samples=8)
Z95 = 1.959964  #: a 95% interval's half-width, in standard errors


def inputs(seen: VisibleFeatures, figure: Chance) -> dict[str, float]:
    """Every input of :data:`NAMES`, by name: what the player sees, and the sampler's
    figure (its share won, and the share of its samples decided).

    >>> from milligan_widget import Game
    >>> from milligan_widget.analysis.sampling import visible_view
    >>> seen = visible_features(visible_view(Game.new(3)))
    >>> values = inputs(seen, Chance(4, 8, undecided=4))
    >>> values["home"], values["stock"], values["decided"], values["breaks"]
    (0.0, 1.0, 0.5, 0.0)
    """
    stock = seen.stock_left / 96
    sampled = figure.sampled
    return {
        "home": seen.home / 104,
        "stock": stock,
        "buried_low": seen.buried_low / 10,
        "buried_depth": seen.buried_depth / 50,
        "reserve": seen.reserve / 10,
        "empty_columns": seen.empty_columns / 8,
        "legal_moves": seen.legal_moves / 20,
        "sampled": sampled,
        "decided": figure.decided / figure.samples if figure.samples else 0.0,
        "sampled_late": sampled * (1 - stock),  # the figure says more late, when little is hidden
        "breaks": seen.breaks / 40,
        "self_blocks": seen.self_blocks / 40,
    }


@dataclass(frozen=True)
class Model:
    """A fitted logistic chance for one preset: ``weights`` (the intercept first, then one
    for each input it ``names``, of :data:`NAMES`) and their ``covariance`` (for the
    interval), with ``basis``, what it was fitted on, in words."""

    rules: str
    weights: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    basis: str
    names: tuple[str, ...] = FIRST_NAMES

    def __post_init__(self) -> None:
        unknown = [name for name in self.names if name not in NAMES]
        if unknown:
            raise ValueError(f"a {self.rules} model reads an unknown input: {unknown[0]!r}")
        size = len(self.names) + 1
        if len(self.weights) != size or any(len(row) != size for row in self.covariance):
            raise ValueError(f"a {self.rules} model needs {size} weights and their covariance")

    def chance(self, values: Mapping[str, float]) -> tuple[float, float, float]:
        """(chance, low, high) for the inputs ``values`` (by name, as :func:`inputs` gives
        them): the 95% interval from the weights' covariance, on the logit scale."""
        x = (1.0, *(values[name] for name in self.names))
        logit = sum(w * v for w, v in zip(self.weights, x, strict=True))
        spread = sum(x[i] * c * x[j] for i, row in enumerate(self.covariance)
                     for j, c in enumerate(row))  # fmt: skip
        error = Z95 * math.sqrt(max(spread, 0.0))
        return _sigmoid(logit), _sigmoid(logit - error), _sigmoid(logit + error)

    def to_dict(self) -> dict[str, Any]:
        return {"weights": list(self.weights), "covariance": [list(r) for r in self.covariance],
                "basis": self.basis, "names": list(self.names)}  # fmt: skip


def _sigmoid(value: float) -> float:
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, value))))


@functools.cache
def _shipped_entries() -> Mapping[str, Mapping[str, Any]]:
    """The entries of ``calibration.json``, by preset, whose models read known inputs (a
    newer file's models with new inputs are not read)."""
    text = files("milligan_widget.data").joinpath("calibration.json").read_text("utf-8")
    return {
        rules: entry
        for rules, entry in json.loads(text).items()
        if set(entry["names"]) | set(entry.get("planner", entry)["names"]) <= set(NAMES)
    }


@functools.cache
def shipped_models() -> Mapping[str, Model]:
    """The models of the shown chance shipped with the package, by preset (read once)."""
    return {rules: _model(rules, entry) for rules, entry in _shipped_entries().items()}


@functools.cache
def planner_models() -> Mapping[str, Model]:
    """The models the calibrated planner ranks its lines by, by preset: an entry's own
    ``"planner"`` where it has one, else the shown chance's model. A player is its planner
    and the model it reads: when the chance is fitted anew on a player's games, the model
    that player read stays its planner's, so the player whose games were measured is the
    one that plays."""
    return {
        rules: _model(rules, entry.get("planner", entry))
        for rules, entry in _shipped_entries().items()
    }


def _model(rules: str, entry: Mapping[str, Any]) -> Model:
    covariance = tuple(tuple(float(c) for c in row) for row in entry["covariance"])
    weights = tuple(float(w) for w in entry["weights"])
    return Model(rules, weights, covariance, entry["basis"], tuple(entry["names"]))


@dataclass(frozen=True)
class CalibratedEvaluator:
    """The calibrated chance (see the module's docstring): the sampler's figure at
    :data:`FIGURE` and the visible features, through ``model``. Where nothing is hidden the
    answer is the solver's exact verdict, as the sampler's."""

    model: Model
    sampler: SamplingEvaluator = field(default_factory=SamplingEvaluator)

    @classmethod
    def for_rules(cls, rules: str) -> CalibratedEvaluator:
        """The evaluator of the shipped model for the preset ``rules`` (a ``KeyError``
        names the presets that have one)."""
        models = shipped_models()
        if rules not in models:
            raise KeyError(f"no calibrated chance for {rules!r}: there is one for {sorted(models)}")
        return cls(models[rules])

    @property
    def identity(self) -> tuple[Any, ...]:
        return ("calibrated", self.model.rules, self.model.weights, self.sampler.identity)

    def evaluate(self, seen: Seen, limit: Limit, stop: Stop | None = None) -> Chance:
        """The calibrated chance from ``seen``, with the sampler's figure at ``limit`` beside
        it (the model reads its own figure, :data:`FIGURE`; ``limit.time``, if any, bounds
        it too). Where nothing is hidden, the solver's exact verdict."""
        if seen.view.hidden == 0:
            return self.sampler.evaluate(seen, limit, stop)
        figure = self.sampler.evaluate(seen, replace(FIGURE, time=limit.time), stop)
        shown = figure
        if not (figure.stopped or _same_size(limit)):
            shown = self.sampler.evaluate(seen, limit, stop)
        values = inputs(visible_features(seen.view), figure)
        stopped = figure.stopped or shown.stopped
        return replace(shown, calibrated=self.model.chance(values), stopped=stopped)

    def weigh_lines(
        self,
        seen: Seen,
        lines: Sequence[Sequence[Move]],
        limit: Limit,
        stop: Stop | None = None,
    ) -> tuple[Chance, ...]:
        """Each line's chance: the sampler's figure on shared samples, and the calibrated
        chance of where the line ends as its player would then see it, averaged over
        ``limit.samples`` sampled stocks (a line that deals is judged by the rows that could
        come, never by the one that comes)."""
        figures = self.sampler.weigh_lines(seen, lines, limit, stop)
        ends = self.where_lines_end(seen, lines, limit, stop)
        return tuple(
            replace(figure, calibrated=end, stopped=figure.stopped or _stopped(stop))
            for figure, end in zip(figures, ends, strict=True)
        )

    def where_lines_end(
        self,
        seen: Seen,
        lines: Sequence[Sequence[Move]],
        limit: Limit,
        stop: Stop | None = None,
    ) -> list[tuple[float, float, float]]:
        """(chance, low, high) of each line: the calibrated chance where it ends, as its
        player would then see it, averaged over ``limit.samples`` sampled stocks (the same
        for every line)."""
        ends = self.line_ends(seen, lines, limit, stop)
        ends.draw(limit.samples, range(len(lines)))
        return [ends.mean(i) for i in range(len(lines))]

    def line_ends(
        self,
        seen: Seen,
        lines: Sequence[Sequence[Move]],
        limit: Limit,
        stop: Stop | None = None,
    ) -> LineEnds:
        """The chances where ``lines`` end, to be drawn sample by sample (:class:`LineEnds`)."""
        seed = seen.seed("ends") if self.sampler.seed is None else self.sampler.seed
        return LineEnds(self, seen, tuple(lines), limit, stop, random.Random(seed))


@dataclass
class LineEnds:
    """The chances where candidate lines end, as their player would then see them, drawn
    sample by sample: each sampled stock is the same for every line it is drawn for, and the
    stocks come in one order from ``rng``, so more of them can be drawn for the lines still
    in doubt (:func:`.honest.calibrated_plan` halves its lines that way)."""

    evaluator: CalibratedEvaluator
    seen: Seen
    lines: tuple[Sequence[Move], ...]
    limit: Limit
    stop: Stop | None
    rng: random.Random
    known: dict[str, Chance] = field(default_factory=dict)  #: the ends weighed, by what is seen
    chances: dict[int, list[Chance]] = field(default_factory=dict)  #: by line, sample by sample

    def draw(self, count: int, which: Sequence[int]) -> None:
        """``count`` more sampled stocks, each played along the lines numbered ``which``."""
        for _ in range(count):
            sample = determinize(self.seen.view, self.rng)
            for i in which:
                self.chances.setdefault(i, []).append(self._end(sample, self.lines[i]))

    def _end(self, sample: Game, line: Sequence[Move]) -> Chance:
        """The chance where ``line`` ends on ``sample``, as its player would then see it."""
        game = sample.copy(history=False)
        for move in line:
            game.play(move)
        if game.status != "playing":
            return Chance(int(game.status == "won"), 1, exact=True)
        end = Seen.of(game, line=False)
        if end.key not in self.known:  # nothing hidden: the solver's verdict, on the budget
            budget = self.limit if end.view.hidden == 0 else replace(FIGURE, time=self.limit.time)
            self.known[end.key] = self.evaluator.evaluate(end, budget, self.stop)
        return self.known[end.key]

    def mean(self, i: int) -> tuple[float, float, float]:
        """Line ``i``'s average (chance, low, high) over the samples drawn for it."""
        return _mean(self.chances.get(i, []))


def _same_size(limit: Limit) -> bool:
    return (limit.samples, limit.nodes) == (FIGURE.samples, FIGURE.nodes)


def _mean(chances: Sequence[Chance]) -> tuple[float, float, float]:
    """The average (chance, low, high) of ``chances``."""
    n = len(chances) or 1
    return (
        sum(c.p for c in chances) / n,
        sum(c.low for c in chances) / n,
        sum(c.high for c in chances) / n,
    )


def _stopped(stop: Stop | None) -> bool:
    return stop is not None and stop()


@functools.cache
def model_for(rules: Rules) -> Model | None:
    """The shipped model of the chance shown under ``rules`` (a preset's rules), or None
    (custom rules, or a preset without one)."""
    return shipped_models().get(rules.with_preset_name().name or "")


@functools.cache
def planner_model_for(rules: Rules) -> Model | None:
    """The model the calibrated planner reads under ``rules`` (:func:`planner_models`), or
    None where the rules have no model."""
    return planner_models().get(rules.with_preset_name().name or "")
