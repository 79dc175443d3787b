"""The honest player: a strategy that plays from what it can see, never reading the stock
or the face-down cards.
"""

from __future__ import annotations

import math
import random
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.rules import Rules
from milligan_widget.search.greedy import greedy
from milligan_widget.search.solver import UNKNOWN, WINNABLE, SolveResult, solve

from .buried import last_cards_home
from .calibrated import CalibratedEvaluator, planner_model_for
from .evaluate import Seen
from .hint import candidates, fallback_line, honest_plan
from .planner import HALVINGS, Settings, next_row_plan
from .sampler import SamplingEvaluator, check_budget
from .sampling import visible_view

#: hindsight optimisation, across the deal, by the calibrated chance
PLANNERS = ("hop", "next-row", "calibrated")
#: the planner :func:`honest` plays where none is named: the one measured strongest for the
#: preset (docs/win-rates.md), hindsight optimisation for the others
DEFAULT_PLANNERS = {"millie": "calibrated"}
ENDGAME_NODES = 1_000_000  #: the solver's positions once nothing is hidden (about a second)
#: the first endgame of a game that a solve of ENDGAME_NODES leaves open is searched once more
#: with this many times the budget (a few seconds, once a game)
ENDGAME_GROWTH = 8
RETEST = 20  #: moves before the buried test runs again where it proved nothing


def honest(
    samples: int = 8,
    time_limit: float | None = None,
    node_limit: int | None = 20_000,
    seed: int | None = 0,
    planner: str | None = None,
    settings: Settings | None = None,
) -> Callable[[Game], Move | None]:
    """A strategy that plays from what it can see: before each revealing move (a deal, or a
    move turning up a face-down card) it plays the line its planner judges best (``samples``
    sampled stocks, ``node_limit`` positions a solve and, if given, ``time_limit`` seconds
    for each decision), then that move. Once nothing is hidden it follows the thoughtful
    solver's line (the player sees all it knows: :data:`ENDGAME_NODES` positions, or
    ``time_limit`` seconds; the first endgame of a game that solve leaves open gets
    :data:`ENDGAME_GROWTH` times as much), or greedy where it finds none. Where no face-down
    card can turn up any more (:mod:`.buried`), it sees the game is lost: it takes home the
    cards that still go (:func:`.buried.last_cards_home`), then gives up (None).
    Each decision's samples come from ``seed`` and the move number, never from the deal.

    Without ``time_limit`` (the default) the player counts positions, not seconds: the same
    deal and seed give the same game on any machine, however loaded.

    ``planner`` says how the lines are judged; by default, as :func:`default_planner` says
    for the game's rules. ``planner="hop"`` is hindsight optimisation: each line judged by
    the samples its solver wins (:func:`.analysis.honest_plan`).
    ``planner="next-row"`` judges the candidate lines across the next deal instead
    (:func:`.planner.next_row_plan` with ``settings``; ``samples`` and the budgets then only
    apply once nothing is hidden). ``planner="calibrated"`` ranks them by the calibrated
    chance where each ends (:func:`calibrated_plan`; ``settings.halvings`` times, the better
    half of the lines gets as many samples again), in the presets with a model.

    >>> from milligan_widget import Game
    >>> player = honest(samples=2, node_limit=5_000)
    >>> player(Game.new(27)) in Game.new(27).legal_moves
    True
    """
    check_budget(Game.new(1), samples, time_limit, node_limit)
    if planner is not None and planner not in PLANNERS:
        raise ValueError(f"planner must be one of {', '.join(PLANNERS)}, not {planner!r}")
    return _HonestPlayer(samples, time_limit, node_limit, seed, planner, settings or Settings())


@dataclass
class _GameNotes:
    """What the player keeps of one game between its moves."""

    planned: dict[int, Move] = field(default_factory=dict)  # ply -> the move planned there
    tested: int = -RETEST  # the ply where a buried test last proved nothing
    grown: bool = False  # its endgame had the larger budget


class _HonestPlayer:
    """The strategy :func:`honest` makes: called with a game, its next move (None: it stops).
    One player may play many games, one after another or in turn: what it notes of a game
    is kept for that game alone, and ends with it."""

    __name__ = "honest_player"  # what a progress bar calls it

    def __init__(
        self,
        samples: int,
        time_limit: float | None,
        node_limit: int | None,
        seed: int | None,
        planner: str | None,
        settings: Settings,
    ) -> None:
        self.samples, self.time_limit, self.node_limit = samples, time_limit, node_limit
        self.seed, self.planner, self.settings = seed, planner, settings
        self.games: dict[int, _GameNotes] = {}  # by the id of a game still alive

    def notes(self, game: Game) -> _GameNotes:
        """What the player keeps of ``game`` (dropped when the game is: an id can be reused)."""
        found = self.games.get(id(game))
        if found is None:
            found = self.games[id(game)] = _GameNotes()
            weakref.finalize(game, self.games.pop, id(game), None)
        return found

    def __call__(self, game: Game) -> Move | None:
        ending = self.lost_ending(game)
        if ending is not None:  # it sees that no card can turn up any more: the game is lost
            return self.queue(game, ending)
        move = self.notes(game).planned.get(game.ply)
        if move is not None and game.is_legal(move):
            return move
        return self.decide(game) if game.status == "playing" else None

    def queue(self, game: Game, moves: tuple[Move, ...]) -> Move | None:
        """Plan ``moves`` from this position on; the first of them, if any."""
        planned = self.notes(game).planned
        planned.clear()
        for i, move in enumerate(moves):
            planned[game.ply + i] = move
        return moves[0] if moves else None

    def lost_ending(self, game: Game) -> tuple[Move, ...] | None:
        """The cards still to take home where no face-down card can turn up any more (the
        test runs before every move once the stock is out, or every :data:`RETEST` moves
        while it proves nothing: it may search a while); else None."""
        if game.stock_count or not any(game.face_down):
            return None
        notes = self.notes(game)
        if game.ply - notes.tested < RETEST:
            return None
        ending = last_cards_home(game)
        if ending is None:
            notes.tested = game.ply
        return ending

    def decision_seed(self, game: Game) -> int | None:
        """The seed of this move's samples: from the player's seed and the move number."""
        if self.seed is None:
            return None
        return random.Random(f"{self.seed}/{game.ply}").getrandbits(63)

    def decide(self, game: Game) -> Move | None:
        """A new decision: the planner's line, or the solver's once nothing is hidden."""
        decision_seed = self.decision_seed(game)
        if visible_view(game).hidden == 0:
            return self.endgame(game)
        chosen = self.planner or default_planner(game.rules)
        if chosen == "next-row":
            row_seed = Seen.of(game).seed("next-row") if decision_seed is None else decision_seed
            best = next_row_plan(game, self.settings, row_seed).best
            return self.queue(game, best.all_moves or fallback_line(game, decision_seed))
        samples, nodes, seconds = self.samples, self.node_limit, self.time_limit
        if chosen == "calibrated":
            halvings = self.settings.halvings
            line = calibrated_plan(game, samples, nodes, decision_seed, seconds, halvings)
            return self.queue(game, line or fallback_line(game, decision_seed))
        plan = honest_plan(game, samples, seconds, nodes, decision_seed)
        return self.queue(game, plan.best.line.all_moves or fallback_line(game, decision_seed))

    def endgame(self, game: Game) -> Move | None:
        """Nothing is hidden: the solver's line, or greedy's move where it finds none. The
        first position of a game that the solve leaves open is solved again, with
        :data:`ENDGAME_GROWTH` times the budget (a deal's endgame is often won just beyond
        the first budget, and greedy's moves would spoil it)."""
        result, notes = endgame_solve(game, self.time_limit), self.notes(game)
        if result.status == UNKNOWN and not notes.grown:
            notes.grown = True
            result = endgame_solve(game, self.time_limit, ENDGAME_GROWTH)
        return self.queue(game, result.moves) if result.status == WINNABLE else greedy(game)


__all__ = ["DEFAULT_PLANNERS", "PLANNERS", "calibrated_plan", "default_planner", "honest"]


def default_planner(rules: Rules) -> str:
    """The planner :func:`honest` plays under ``rules`` where none is named
    (:data:`DEFAULT_PLANNERS`; "hop" for rules not named there, custom rules too).

    >>> default_planner(Rules.named("millie")), default_planner(Rules.named("classic"))
    ('calibrated', 'hop')
    """
    return DEFAULT_PLANNERS.get(rules.with_preset_name().name or "", "hop")


def calibrated_plan(
    game: Game,
    samples: int,
    node_limit: int | None,
    seed: int | None = None,
    time_limit: float | None = None,
    halvings: int = HALVINGS,
) -> tuple[Move, ...]:
    """The candidate line (:func:`.hint.candidate_lines`) whose end the calibrated chance
    likes best, by the model the planner reads (:func:`.calibrated.planner_models`): each
    line played on ``samples`` sampled stocks, the same for every line, up to its revealing
    move, and the chance of careful play where it ends, as its player would then see it,
    averaged (:class:`.calibrated.LineEnds`; an end with nothing hidden gets the solver's
    verdict at ``node_limit`` positions a sample). Then, ``halvings`` times, the better half
    of the lines (at least two) goes on to ``samples`` more stocks, and the lines are ranked
    again over all their samples: the close decisions get the samples. Ties keep the
    candidates' order, greedy's line first. ``time_limit`` seconds, if given, bound the
    whole decision (the ends weighed after it read what is seen alone). Without a model for
    the rules, a ValueError.

    >>> from milligan_widget import Game
    >>> calibrated_plan(Game.new(27, "millie"), samples=2, node_limit=2_000, seed=1)[-1]
    Move('d')
    """
    model = planner_model_for(game.rules)
    if model is None:
        raise ValueError("the calibrated planner needs rules with a calibrated chance")
    limit = check_budget(game, samples, None, node_limit)
    seen, lines, samples_seed = candidates(game, seed)
    evaluator = CalibratedEvaluator(model, SamplingEvaluator(samples_seed))
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    stop = None if deadline is None else (lambda: time.perf_counter() > deadline)
    ends = evaluator.line_ends(seen, [line.all_moves for line in lines], limit, stop)
    alive = list(range(len(lines)))
    for round_ in range(halvings + 1):
        if round_ and (len(alive) < 2 or (stop is not None and stop())):
            break
        ends.draw(samples, alive)
        alive.sort(key=lambda i: (-ends.mean(i)[0], i))
        alive = alive[: max(2, (len(alive) + 1) // 2)]
    return lines[alive[0]].all_moves


def endgame_solve(game: Game, time_limit: float | None, growth: int = 1) -> SolveResult:
    """The thoughtful solve of a position with nothing hidden: ``growth`` times
    ``time_limit`` seconds, or ``growth`` times :data:`ENDGAME_NODES` positions without one."""
    if time_limit is None:
        return solve(game, math.inf, ENDGAME_NODES * growth)
    return solve(game, time_limit * growth)
