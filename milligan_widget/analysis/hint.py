"""Honest hints: the line of play that keeps the best chance, judged on sampled stocks.

Between two deals everything in the open-deal presets is visible, so what matters is *which
position to deal from*. The candidates are a few positions reachable before the next deal
(found best-first by the greedy evaluation, the greedy line among them, and dealing at once),
each ending with the move that reveals something: the deal, or in Milligan Harp and Yukon a
move that turns up a face-down card. Every candidate is judged on the *same* determinizations
(common random numbers): after its line and its revealing move, the thoughtful solver tries
each sample. The candidates are found on a determinization too, never on the game itself.

>>> from milligan_widget import Game
>>> advice = honest_hint(Game.new(27), samples=4, node_limit=20_000, seed=1)
>>> advice.source, advice.move.is_deal or not advice.move.is_deal
('honest', True)
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import PositionKey
from milligan_widget.search.greedy import greedy, position_score
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

from .advice import Hint
from .buried import last_cards_home, quiet_moves
from .calibrated import CalibratedEvaluator
from .chance import evaluator_for
from .evaluate import NODES, SAMPLES, Chance, Evaluator, Limit, Seen, Stop
from .sampler import SamplingEvaluator, check_budget
from .sampling import determinize, visible_view

WIDTH = 6  #: quiet candidate positions judged besides dealing at once and the greedy line
REVEALS = 3  #: candidate lines ending in a move that turns up a face-down card
EXPLORE = 48  #: positions expanded to find the candidates
BURIED = "no face-down card can turn up any more, so this game can no longer be won"


@dataclass(frozen=True)
class Line:
    """A candidate: the moves to play, then (if any) the move that reveals something."""

    moves: tuple[Move, ...]
    reveal: Move | None

    @property
    def all_moves(self) -> tuple[Move, ...]:
        return self.moves + ((self.reveal,) if self.reveal is not None else ())

    def words(self) -> str:
        """Like "dealing now", "3>5 1>f, then dealing" or "2>6 (turns up a card)"."""
        first = " ".join(map(str, self.moves))
        if self.reveal is None:
            return first or "staying put"
        if self.reveal.is_deal:
            return f"{first}, then dealing" if first else "dealing now"
        return f"{first} {self.reveal} (turns up a card)".strip()


@dataclass(frozen=True)
class Judged:
    """A candidate line and its :class:`Chance` on the shared samples."""

    line: Line
    chance: Chance


@dataclass(frozen=True)
class Plan:
    """An honest decision: every candidate judged, best first."""

    judged: tuple[Judged, ...]
    seed: int | None

    @property
    def best(self) -> Judged:
        return self.judged[0]

    def reason(self) -> str:
        best, samples = self.best, self.best.chance.samples
        text = f"{best.line.words()} keeps {best.chance.wins} of {samples} sampled stocks winnable"
        now = next((j for j in self.judged if not j.line.moves), None)
        if now is not None and now is not best:
            return f"{now.line.words()} keeps {now.chance.wins} of {samples}; " + text
        runner = self.judged[1] if len(self.judged) > 1 else None
        if runner is not None:
            text += f" (next best: {runner.line.words()}, {runner.chance.wins})"
        return text


# ----------------------------------------------------------------------------- candidates


def candidate_lines(
    probe: Game, seen: set[PositionKey], width: int = WIDTH, explore: int = EXPLORE
) -> list[Line]:
    """Candidate lines from ``probe`` (a determinization: never the game itself), the greedy
    line first, then dealing at once, then the best positions found best-first."""
    reveal_end = Move.deal() if probe.can_deal else None
    quiet: list[tuple[float, int, tuple[Move, ...]]] = []
    reveals: list[Line] = []
    start: tuple[Move, ...] = ()
    frontier = [(-position_score(probe), 0, start, probe)]
    seen, count = set(seen) | {probe.position_key()}, 1
    greedy_line = _greedy_line(probe, reveal_end, frozenset(seen))
    for _ in range(explore):
        if not frontier:
            break
        _, _, line, game = heapq.heappop(frontier)
        for move, turns_up in quiet_moves(game):
            if turns_up:
                reveals.append(Line(line, move))
                continue
            child = game.copy(history=False)
            child.play(move)
            key = child.position_key()
            if key in seen:
                continue
            seen.add(key)
            score, count = position_score(child), count + 1
            quiet.append((score, count, (*line, move)))
            heapq.heappush(frontier, (-score, count, (*line, move), child))
    best = [Line(moves, reveal_end) for _, _, moves in heapq.nlargest(width, quiet)]
    return _unique(
        [greedy_line, Line((), reveal_end), *best, *reveals[:REVEALS]]
    )


def _greedy_line(probe: Game, reveal_end: Move | None, seen: frozenset[PositionKey]) -> Line:
    """The moves greedy plays from ``probe`` until it would deal, turn up a card or go back
    to a position ``seen`` (the line of play's: greedy on a sampled stock does not know it)."""
    game, moves = probe.copy(), list[Move]()
    for _ in range(200):
        move = greedy(game) if game.status == "playing" else None
        if move is None or move.is_deal:
            break
        down = sum(game.face_down)
        game.play(move)
        if sum(game.face_down) < down:
            return Line(tuple(moves), move)
        if game.position_key() in seen:
            break
        moves.append(move)
    return Line(tuple(moves), reveal_end if game.can_deal else None)


def _unique(lines: Sequence[Line]) -> list[Line]:
    """Each line once, where it first comes (the order breaks ties: greedy's line first)."""
    first: dict[tuple[Move, ...], Line] = {}
    for line in lines:
        first.setdefault(line.all_moves, line)
    return list(first.values())


# ----------------------------------------------------------------------------- judging


def judge(
    seen: Seen,
    lines: Sequence[Line],
    limit: Limit,
    evaluator: Evaluator,
    stop: Stop | None = None,
) -> Plan:
    """Each line's chance from ``seen`` by ``evaluator`` (on the same samples, for the
    sampler), best first (ties keep the order of ``lines``)."""
    chances = evaluator.weigh_lines(seen, [line.all_moves for line in lines], limit, stop)
    judged = [Judged(line, chance) for line, chance in zip(lines, chances, strict=True)]
    order = sorted(range(len(judged)), key=lambda i: -judged[i].chance.wins)
    return Plan(tuple(judged[i] for i in order), chances[0].seed if chances else None)


def honest_plan(
    game: Game,
    samples: int = SAMPLES,
    time_limit: float | None = None,
    node_limit: int | None = NODES,
    seed: int | None = None,
    stop: Stop | None = None,
) -> Plan:
    """Every candidate line from ``game`` judged on shared samples (see the module's docstring);
    ``time_limit`` (None: no clock) is the whole call's budget, ``node_limit`` each solve's.
    The samples come from ``seed``, or by default from what the player sees (the position and
    its line of play): the same position, the same plan. The game is not changed."""
    limit = check_budget(game, samples, time_limit, node_limit)
    seen, lines, samples_seed = candidates(game, seed)
    return judge(seen, lines, limit, SamplingEvaluator(samples_seed), stop)


def candidates(game: Game, seed: int | None = None) -> tuple[Seen, list[Line], int]:
    """What ``game``'s player sees, the candidate lines from it (found on a determinization
    drawn from ``seed``, or by default from what is seen) and the seed of the samples that
    judge them, drawn after it."""
    seen = Seen.of(game)
    rng = random.Random(seen.seed("plan") if seed is None else seed)
    lines = candidate_lines(determinize(seen.view, rng), set(seen.line))
    return seen, lines, rng.randrange(2**63)


def honest_hint(
    game: Game,
    samples: int = SAMPLES,
    time_limit: float | None = None,
    node_limit: int | None = NODES,
    seed: int | None = None,
    stop: Stop | None = None,
) -> Hint:
    """The first move of the line that keeps the best chance, with ``source="honest"`` and a
    reason in a player's words. Where nothing is hidden it is the thoughtful solver's hint
    (everything it knows, the player sees). ``status`` is the thoughtful verdict only then, or
    "unwinnable" where no face-down card can turn up any more (:mod:`.buried`: the hint then
    takes home the cards that still go, as the honest player does); otherwise
    "unknown" (the real hidden cards are never read)."""
    limit = check_budget(game, samples, time_limit, node_limit)
    if visible_view(game).hidden == 0:
        return _open_hint(game, limit, stop)
    ending = last_cards_home(game)
    if ending is not None:
        return _buried_hint(game, ending, seed)
    plan = honest_plan(game, samples, time_limit, node_limit, seed, stop)
    moves = plan.best.line.all_moves or fallback_line(game, plan.seed)
    careful = _careful(game, moves, limit, seed, stop)
    return Hint(moves[0], plan.reason() + careful, "honest", UNKNOWN)


def _buried_hint(game: Game, ending: Sequence[Move], seed: int | None) -> Hint:
    """The hint in a game buried for good: the first move of ``ending``, the shortest line
    that takes home the cards that still go (as the honest player plays it), else a greedy
    move."""
    if not ending:
        reason = f"{BURIED}, and no more cards can go home: a greedy move"
        return Hint(fallback_line(game, seed)[0], reason, "honest", UNWINNABLE)
    after = game.copy(history=False)
    for move in ending:
        after.play(move)
    more, steps = after.foundation_count - game.foundation_count, len(ending)
    reason = (
        f"{BURIED}; {more} more card{'s' * (more != 1)} can still go home, "
        f"in {steps} move{'s' * (steps != 1)}"
    )
    return Hint(ending[0], reason, "honest", UNWINNABLE)


def _careful(
    game: Game, line: Sequence[Move], limit: Limit, seed: int | None, stop: Stop | None
) -> str:
    """Where the rules have a calibrated chance, what careful play keeps after ``line``
    (weighed on the sampled rows its deal could bring, from ``seed`` as the plan's), in
    words; else nothing."""
    evaluator = evaluator_for(game.rules, seed)
    if not isinstance(evaluator, CalibratedEvaluator):
        return ""
    p = evaluator.where_lines_end(Seen.of(game), [line], limit, stop)[0][0]
    return f"; careful play keeps about {100 * p:.0f}% after it"


def fallback_line(game: Game, seed: int | None = None) -> tuple[Move, ...]:
    """Greedy's move where no candidate moves at all (the stock is empty, nothing can turn
    up): chosen on a determinization (from ``seed``, else from what the player sees), as
    greedy would weigh a card it turns up, and never back into the line of play."""
    seen = Seen.of(game)
    rng = random.Random(seen.seed("fallback") if seed is None else seed)
    probe = determinize(seen.view, rng) if seen.view.hidden else game
    move = greedy(probe)
    # Greedy on the sampled stock does not know the line of play: never back into it (the
    # positions are compared without reading a hidden card).
    useful = game.new_position_moves()
    if move is not None and (move.is_deal or str(move) in map(str, useful)):
        return (move,)
    return tuple(useful[:1]) or tuple(game.legal_moves[:1])


def _open_hint(game: Game, limit: Limit, stop: Stop | None) -> Hint:
    result = solve(game, limit.seconds, limit.whole, stop=stop)
    if result.status == WINNABLE:
        hint = Hint.on_line(result.moves)
        return Hint(hint.move, hint.reason + " (nothing is hidden)", "honest", WINNABLE, hint.line)
    move = fallback_line(game)[0]
    why = "cannot be won" if result.status == UNWINNABLE else "is undecided"
    return Hint(
        move, f"nothing is hidden and this position {why}: a greedy move", "honest", result.status
    )
