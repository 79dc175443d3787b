"""A judge of one move, as a coach judges it the moment it is played: the chance the best
play kept, the chance the move kept, a label from the drop, and the better move.

Honest and fair to luck: the judge sees the position *before* the move as its player saw it
(a :class:`.Seen`), never the hidden cards, and weighs the move as it could be known then.
Every move it compares is weighed on the *same* sampled stocks (common random numbers), as
the honest hint weighs its lines: the move played and the first moves of the honest
candidate lines. A move is weighed with the best line that follows it up to the next move
that reveals cards, and a move that reveals cards (a deal, a face-down card turned up) by the
chance of dealing there over the sampled stocks, never by the row that really came. Where
nothing is hidden the chances are the solver's exact verdicts: a move after which the deal
cannot be won, where it could before, is a blunder, and the better move is one after which
the solver wins. A move that was the only legal one is the best, with the position's chance.

The labels, from the drop in the chance (the best move's chance minus the move's, both on
the shared samples; lichess judges by drops in winning chance of about 0.1, 0.2 and 0.3):

>>> [label_of(drop) for drop in (0.0, 0.05, 0.1, 0.2, 0.3, 1.0)]
['best', 'good', 'inaccuracy', 'mistake', 'blunder', 'blunder']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move

from .cache import CHANCES, Chances
from .evaluate import Chance, Evaluator, Limit, Seen, Stop
from .features import legal_move_count
from .flags import BLUNDER, INACCURACY, MISTAKE, chance_dict
from .hint import Line, candidate_lines
from .sampling import determinize
from .words import move_name

BEST, GOOD = "best", "good"
LABELS = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)  #: the scale, the best first
#: The least drop in the chance to win (0 to 1) for each label worse than "good". One sampled
#: stock of the default 16 is 0.0625: a move is an inaccuracy once it loses two of them.
INACCURACY_DROP, MISTAKE_DROP, BLUNDER_DROP = 0.1, 0.2, 0.3
AFTER = 2  #: quiet candidate lines weighed after the move played (besides greedy's, dealing)


def label_of(drop: float, best: bool = False) -> str:
    """The label of a move that lost ``drop`` of the chance to win (``best``: no move
    compared kept more)."""
    if best or drop <= 0:
        return BEST
    for label, least in ((BLUNDER, BLUNDER_DROP), (MISTAKE, MISTAKE_DROP)):
        if drop >= least:
            return label
    return INACCURACY if drop >= INACCURACY_DROP else GOOD


@dataclass(frozen=True)
class Judgement:
    """The judgement of move ``ply`` of a game (its index in the game's history): ``move``
    in notation, its ``label`` (one of :data:`LABELS`), ``chance_before`` (what the best move
    compared kept), ``chance_after`` (what the move kept, as seen before it), and for an
    inaccuracy or worse the ``better`` move and its ``better_chance``."""

    ply: int
    move: str
    label: str
    chance_before: Chance
    chance_after: Chance
    better: str | None = None
    better_chance: Chance | None = None

    @property
    def drop(self) -> float:
        """The chance the move lost (0 to 1)."""
        return max(0.0, self.chance_before.p - self.chance_after.p)

    @property
    def flagged(self) -> bool:
        """Is it an inaccuracy or worse?"""
        return LABELS.index(self.label) >= LABELS.index(INACCURACY)

    def words(self) -> str:
        """In a player's words: "Mistake: dealing a row leaves about 18%; 6>r kept about 41%"
        (with the sampler's figure alone: "... leaves 2 of 16 sampled stocks winnable")."""
        text = f"{self.label.capitalize()}: {self.cost()}"
        if self.better is not None and self.better_chance is not None:
            text += f"; {move_name(self.better)} {_kept(self.better_chance, self.chance_after)}"
        return text

    def cost(self) -> str:
        """What the move kept, in a player's words: "dealing a row leaves about 18%"."""
        return f"{move_name(self.move)} {_keeps(self.chance_after)}"

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data (for the widget)."""
        return {
            "ply": self.ply, "move": self.move, "label": self.label,
            "chance_before": chance_dict(self.chance_before),
            "chance_after": chance_dict(self.chance_after), "better": self.better,
            "better_chance": chance_dict(self.better_chance), "words": self.words(),
        }  # fmt: skip


def _keeps(chance: Chance) -> str:
    if chance.exact and not chance.known:
        return "leaves the solver undecided"
    if chance.exact:
        return "keeps the win" if chance.wins else "leaves no win"
    if chance.calibrated is not None:
        return f"{'keeps' if chance.p >= 0.5 else 'leaves'} about {_percent(chance)}"
    if not chance.known:
        return "cannot be weighed (the solver decided no sampled stock)"
    verb = "keeps" if chance.wins * 2 >= chance.decided else "leaves"
    return f"{verb} {chance.wins} of {chance.decided} sampled stocks winnable"


def _kept(chance: Chance, played: Chance) -> str:
    if chance.exact:
        return "kept the win"
    if chance.calibrated is not None:
        return f"kept about {_percent(chance)}"
    return f"kept {chance.wins}" if chance.decided == played.decided else f"kept {_keeps(chance)}"


def _percent(chance: Chance) -> str:
    return f"{100 * chance.p:.0f}%"


# ----------------------------------------------------------------------------- judging


def judge_move(
    before: Game | Seen,
    move: Move | str,
    evaluator: Evaluator,
    limit: Limit,
    ply: int = 0,
    stop: Stop | None = None,
    cache: Chances = CHANCES,
) -> Judgement:
    """The judgement of ``move`` played from ``before`` (a game: what its player sees; it is
    not changed), within ``limit`` by ``evaluator``, kept in ``cache`` (the one cache of
    chances by default: judged once, a position and move are not weighed again)."""
    seen = before if isinstance(before, Seen) else Seen.of(before)
    move = Move.parse(move)
    key = ("judge", seen.key, str(move), evaluator.identity, limit)

    def compute() -> Judgement:
        if legal_move_count(seen.view) == 1:
            chance = cache.evaluate(Seen(seen.view), evaluator, limit, stop)
            return Judgement(ply, str(move), BEST, chance, chance)  # nothing else to play
        if seen.view.hidden == 0:
            return _judge_open(seen, move, (evaluator, limit, cache), stop)
        return _judge_sampled(seen, move, evaluator, limit, stop)

    def whole(judgement: Judgement) -> bool:
        return not (judgement.chance_before.stopped or judgement.chance_after.stopped)

    return replace(cache.answer(key, compute, whole, stop), ply=ply)


def _judge_sampled(
    seen: Seen, move: Move, evaluator: Evaluator, limit: Limit, stop: Stop | None
) -> Judgement:
    """Every first move of the candidate lines and the move played, each with its best line
    up to the next reveal, weighed on the same samples."""
    probe = determinize(seen.view, random.Random(seen.seed("judge")))
    lines = [line for line in candidate_lines(probe, set(seen.line)) if line.all_moves]
    lines += _lines_after(probe, move, seen)
    chances = evaluator.weigh_lines(seen, [line.all_moves for line in lines], limit, stop)
    best: dict[str, Chance] = {}
    for line, chance in zip(lines, chances, strict=True):
        first = str(line.all_moves[0])
        if first not in best or chance.p > best[first].p:
            best[first] = chance
    return _verdict(str(move), best)


def _lines_after(probe: Game, move: Move, seen: Seen) -> list[Line]:
    """The move played, then (unless it reveals cards) each candidate line after it."""
    if reveals(probe, move):
        return [Line((), move)]
    game = probe.copy(history=False)
    game.play(move)
    if game.status != "playing":
        return [Line((), move)]
    after = candidate_lines(game, set(seen.line) | {game.position_key()}, width=AFTER)
    return [Line((move, *line.moves), line.reveal) for line in after]


def reveals(game: Game, move: Move) -> bool:
    """Does ``move`` turn up hidden cards (a deal, a face-down card turned)? ``game`` is not
    changed.

    >>> from milligan_widget import Game
    >>> reveals(Game.new(3), Move.parse("d"))
    True
    """
    child = game.copy(history=False)
    child.play(move)
    return _revealed(game, child)


def _revealed(before: Game, after: Game) -> bool:
    """Did the move from ``before`` to ``after`` turn up hidden cards?"""
    down = sum(after.face_down) < sum(before.face_down)
    return down or len(after.stock_codes) < len(before.stock_codes)


def _verdict(played: str, chances: dict[str, Chance]) -> Judgement:
    """The judgement of ``played`` among the first moves' ``chances`` (first found, first
    preferred on a tie)."""
    after = chances[played]
    top = max(chances, key=lambda first: chances[first].p)
    before = chances[top]
    if not (before.known and after.known):
        return Judgement(0, played, GOOD, before, after)  # nothing to tell them apart by
    label = label_of(before.p - after.p, best=after.p >= before.p)
    if LABELS.index(label) < LABELS.index(INACCURACY):
        return Judgement(0, played, label, before, after)
    return Judgement(0, played, label, before, after, top, before)


Weigher = tuple[Evaluator, Limit, Chances]


def _judge_open(seen: Seen, move: Move, weigher: Weigher, stop: Stop | None) -> Judgement:
    """Nothing is hidden: the solver's exact verdicts before and after the move; where the
    move lost the win, the first legal move after which the solver wins is the better one."""
    evaluator, limit, cache = weigher
    game = determinize(seen.view, random.Random(0))  # nothing to draw: the position itself
    before = cache.evaluate(Seen.of(game, line=False), evaluator, limit, stop)
    after, played = _after(game, move, weigher, stop), str(move)
    if not (before.known and after.known):
        return Judgement(0, played, GOOD, before, after)  # the solver ran out of its budget
    if after.p >= before.p:
        return Judgement(0, played, BEST, before, after)
    label = label_of(before.p - after.p)
    for other in _others(game, move):
        chance = _after(game, other, weigher, stop)
        if chance.known and chance.p >= before.p:
            return Judgement(0, played, label, before, after, str(other), chance)
    return Judgement(0, played, label, before, after)


def _after(game: Game, move: Move, weigher: Weigher, stop: Stop | None) -> Chance:
    """The exact chance after ``move`` from the open position ``game`` (through the cache)."""
    evaluator, limit, cache = weigher
    return chance_after(game, move, evaluator, limit, stop, cache)


def chance_after(
    before: Game,
    move: Move,
    evaluator: Evaluator,
    limit: Limit,
    stop: Stop | None = None,
    cache: Chances = CHANCES,
) -> Chance:
    """The chance of ``move`` from ``before`` as its player could know it: the chance of the
    position it leads to or, for a move that reveals cards, the chance of the move over the
    sampled stocks (never the luck of the cards that came). Kept in ``cache``."""
    child = before.copy(history=False)
    child.play(move)
    if _revealed(before, child):
        seen = Seen.of(before, line=False)
        key = ("after", seen.key, str(move), evaluator.identity, limit)
        return cache.answer(
            key, lambda: evaluator.weigh_lines(seen, [(move,)], limit, stop)[0],
            lambda chance: not chance.stopped, stop,
        )  # fmt: skip
    if child.status != "playing":
        return Chance(int(child.status == "won"), 1, exact=True)
    return cache.evaluate(Seen.of(child, line=False), evaluator, limit, stop)


def _others(game: Game, move: Move) -> Sequence[Move]:
    """The legal moves but ``move``, those that send a card home first."""
    moves = [other for other in game.legal_moves if other != move]
    return sorted(moves, key=lambda other: not str(other).endswith(">f"))
