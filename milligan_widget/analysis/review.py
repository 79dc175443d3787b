"""A review of a game: for every move, the thoughtful verdict, the honest chance, the mistake.

The verdict before each move is the thoughtful solver's (it knows the hidden cards: a review
looks back at a game once it is played); the chance is honest (:func:`.chance.evaluator_for`:
calibrated where the rules have a model, from what the player saw, through the one cache of
chances: a position the widget's indicator, the coach or an earlier review weighed is not
weighed again). The turning point is the move after which the deal could no longer be won.
A move is flagged by what it cost (:attr:`Review.flags`): where its chance, as its player
could know it before playing it, is at least :data:`.judge.INACCURACY_DROP` below the
position's, the judge (:func:`.judge.judge_move`) labels it on the scale of
:data:`.flags.SEVERITY` and names the better move. A move that matches one of the common
mistakes of docs/rules.md §2.9 is named, as the explanation of a flag.

>>> from milligan_widget import Game
>>> game = Game.new(27)
>>> _ = game.play("d")
>>> done = review(game, time_limit=0.5, samples=2, node_limit=5_000, seed=1)
>>> [entry.move for entry in done.entries], done.entries[0].verdict
(['d'], 'winnable')
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from milligan_widget.engine.cards import CARDS
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

from .cache import CHANCES
from .chance import evaluator_for
from .chart import review_svg
from .evaluate import NODES, Chance, Evaluator, Limit, Seen, Stop
from .flags import BLUNDER, SEVERITY, Flag, chance_dict
from .judge import INACCURACY_DROP, Judgement, chance_after, judge_move
from .report import review_page, summary_html
from .sampler import check_budget
from .words import turning_point_words

Progress = Callable[[int, int], None]
FAR_AHEAD = 5  #: ranks between the two piles of a suit that count as "far ahead"


@dataclass(frozen=True)
class ReviewEntry:
    """The position before move ``ply`` of the game: its move, the thoughtful verdict there,
    the honest chance (``None`` where the solver was stopped first) and the mistake, if any.

    ``solver_move`` is the first move of the win the solver found here (verdict winnable, else
    ``None``); ``judgement`` is the judge's (:func:`.judge.judge_move`) where the move's chance
    dropped by an inaccuracy or more, and ``better`` and ``better_chance`` the move it found
    better and its chance (``None`` elsewhere; :attr:`Review.flags` names the solver's move at
    the turning point)."""

    ply: int
    move: str
    verdict: str
    chance: Chance | None
    mistake: str | None = None
    solver_move: str | None = None
    better: str | None = None
    better_chance: Chance | None = None
    judgement: Judgement | None = None

    def to_dict(self) -> dict[str, Any]:
        judgement = None if self.judgement is None else self.judgement.to_dict()
        return {
            "ply": self.ply,
            "move": self.move,
            "verdict": self.verdict,
            "chance": chance_dict(self.chance),
            "mistake": self.mistake,
            "solver_move": self.solver_move,
            "better": self.better,
            "better_chance": chance_dict(self.better_chance),
            "judgement": judgement,
        }


LOST_THE_WIN = "after it the solver, which knows the stock, finds no win"


def flag_of(entry: ReviewEntry, turning: bool) -> Flag | None:
    """How the review flags ``entry`` (``turning``: it is the turning point), or ``None``.

    The turning point is a blunder (it lost the win, the solver's own move kept it); another
    move is flagged by what it cost, as its judge labelled it (an inaccuracy, a mistake or a
    blunder), with the better move. A common mistake the move matched (docs/rules.md §2.9) is
    the explanation of a flag, never a flag of its own.

    >>> flag_of(ReviewEntry(4, "d", "winnable", None, solver_move="6>r"), turning=True).better
    '6>r'
    >>> flag_of(ReviewEntry(9, "7>f", "winnable", None, "broke the run 5♠ 4♥"), False) is None
    True
    """
    better, chance = entry.better, entry.better_chance
    if turning:
        why = LOST_THE_WIN + (f" (it {entry.mistake})" if entry.mistake else "")
        if better is None and entry.solver_move != entry.move:
            better = entry.solver_move
        return Flag(entry.ply, entry.move, BLUNDER, why, better, chance)
    judged = entry.judgement
    if judged is None or judged.label not in SEVERITY:
        return None
    why = judged.cost() + (f" (it {entry.mistake})" if entry.mistake else "")
    return Flag(entry.ply, entry.move, judged.label, why, better, chance)


@dataclass(frozen=True)
class Review:
    """Every move's :class:`ReviewEntry`, the verdict after the last move, and the turning
    point: the index of the move after which the deal was no longer winnable, or ``None``."""

    entries: tuple[ReviewEntry, ...]
    final_verdict: str

    @property
    def turning_point(self) -> int | None:
        verdicts = [entry.verdict for entry in self.entries] + [self.final_verdict]
        winnable = [i for i, verdict in enumerate(verdicts) if verdict == WINNABLE]
        if not winnable or winnable[-1] == len(self.entries):
            return None
        last = winnable[-1]  # the solver's "unknown" later on is no proof: one is needed
        return last if UNWINNABLE in verdicts[last + 1 :] else None

    @property
    def mistakes(self) -> list[ReviewEntry]:
        return [entry for entry in self.entries if entry.mistake]

    @property
    def flags(self) -> list[Flag]:
        """The flagged moves in the order played (see :func:`flag_of`)."""
        turn = self.turning_point
        flags = (flag_of(entry, entry.ply == turn) for entry in self.entries)
        return [flag for flag in flags if flag is not None]

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data (for the widget)."""
        return {
            "entries": [entry.to_dict() for entry in self.entries],
            "final_verdict": self.final_verdict,
            "turning_point": self.turning_point,
            "flags": [flag.to_dict() for flag in self.flags],
        }

    def summary(self) -> str:
        """The turning point in a player's words (or why there is none)."""
        return turning_point_words(self)

    def svg(self, theme: str = "auto", width: int = 720) -> str:
        """The chart of the chance over the moves (:func:`.chart.review_svg`)."""
        return review_svg(self, theme=theme, width=width)

    def _repr_html_(self) -> str:
        """A notebook's output: the chart, the turning point in words, the named mistakes."""
        return summary_html(self)

    def to_html(self, game: Game, path: str | os.PathLike[str] | None = None) -> str:
        """``game``'s offline page (``Game.to_html``) with this review and its chart above
        the viewer, written to ``path`` too when given; a ``ValueError`` if the review is
        not of ``game``'s moves."""
        return review_page(self, game, path)


# ----------------------------------------------------------------------------- mistakes


def mistake(game: Game, move: Move) -> str | None:
    """The common mistake (docs/rules.md §2.9) that playing ``move`` in ``game`` makes, in a
    player's words, or ``None``. It reads only what the player sees."""
    for check in (_dealt_with_a_card_for_home, _broke_a_run, _harmless_aside, _suit_far_ahead):
        found = check(game, move)
        if found:
            return found
    return None


def _dealt_with_a_card_for_home(game: Game, move: Move) -> str | None:
    if not move.is_deal:
        return None
    home = [m for m in game.legal_moves if _goes_home(m)]
    if not home:
        return None
    card = _card_of(game, home[0])
    return f"dealt a row while {card} could go home"


def _broke_a_run(game: Game, move: Move) -> str | None:
    """A card sent home off a run it tops, when it was not safe there (a landing place lost)."""
    if not (_goes_home(move) and move.source.startswith("t")):
        return None
    column = int(move.source[1:]) - 1
    codes = game.column_codes[column]
    if game.runs[column] < 2 or game.safe_to_home(codes[-1]):
        return None
    return (
        f"broke the run {CARDS[codes[-2]].unicode} {CARDS[codes[-1]].unicode} for a foundation "
        "move that was not needed yet"
    )


def _harmless_aside(game: Game, move: Move) -> str | None:
    """Cards set aside into the reserve that uncover nothing useful: no new move opens."""
    if move.target != "reserve" or not move.source.startswith("t"):
        return None
    column = int(move.source[1:]) - 1
    after = game.after(move)
    if not after.column_codes[column] or after.face_down[column] < game.face_down[column]:
        return None
    before = _move_keys(game)
    opened = [m for m in after.legal_moves if _move_key(after, m) not in before]
    if any(move.source in (m.source, m.target) for m in opened if m.source != "reserve"):
        return None
    return "set aside cards that uncover nothing useful (keep the reserve for a blocker)"


def _suit_far_ahead(game: Game, move: Move) -> str | None:
    """A foundation move that takes one pile of a suit FAR_AHEAD ranks past its twin."""
    if not _goes_home(move) or game.rules.decks < 2:
        return None
    before = game.foundation_heights
    after = game.after(move).foundation_heights
    for pile, (old, new) in enumerate(zip(before, after, strict=True)):
        if new > old:
            twins = [
                after[p]
                for p in range(len(after))
                if p != pile and game.foundation_suit_codes[p] == game.foundation_suit_codes[pile]
            ]
            if twins and new - max(twins) >= FAR_AHEAD:
                suit = "♣♠♥♦"[game.foundation_suit_codes[pile]]
                return f"let one {suit} pile run {new - max(twins)} ranks ahead of the other"
    return None


def _move_key(game: Game, move: Move) -> tuple[str, str]:
    """A move and the card it lifts: "2>f" is another move once another card tops column 2."""
    lifts = move.source.startswith(("t", "c")) or move.source == "reserve"
    return str(move), _card_of(game, move) if lifts else ""


def _move_keys(game: Game) -> set[tuple[str, str]]:
    return {_move_key(game, move) for move in game.legal_moves}


def _goes_home(move: Move) -> bool:
    return (move.target or "").startswith("f")


def _card_of(game: Game, move: Move) -> str:
    source = move.source
    if source.startswith("t"):
        return CARDS[game.column_codes[int(source[1:]) - 1][-1]].unicode
    if source == "reserve":
        return CARDS[game.reserve_codes[-1]].unicode
    return CARDS[game.cell_codes[int(source[1:]) - 1]].unicode


# ----------------------------------------------------------------------------- the review


def _verdict(
    game: Game,
    time_limit: float,
    node_limit: int | None,
    stop: Stop | None,
    status: str | None = None,
) -> tuple[str, str | None]:
    """The thoughtful verdict on ``game`` (``status``: its status in the line of play, when
    ``game`` is a copy without the line, which cannot tell a loss by repetition), and the
    first move of the win the solver found (``None`` if none)."""
    status = game.status if status is None else status
    if status != "playing":
        return (WINNABLE if status == "won" else UNWINNABLE), None
    found = solve(game, time_limit, node_limit, stop=stop, shorten_line=False)
    return found.status, str(found.moves[0]) if found.moves else None


def final_verdict(
    game: Game, time_limit: float = 1.0, node_limit: int | None = None, stop: Stop | None = None
) -> str:
    """The thoughtful verdict after the last move of ``game`` (half of ``time_limit``, as
    each move of :func:`review_steps` gets): a review's ``final_verdict``."""
    return _verdict(game, time_limit / 2, node_limit, stop)[0]


def review_steps(
    game: Game,
    time_limit: float = 1.0,
    samples: int = 16,
    node_limit: int | None = None,
    seed: int | None = None,
    stop: Stop | None = None,
    judge_limit: Limit | None = None,
) -> Iterator[ReviewEntry]:
    """The entries of :func:`review`, one at a time (a caller can do one move's work at a
    time and stop between them). Each move's verdict gets half of ``time_limit`` seconds (and
    ``node_limit`` positions); its chance ``samples`` sampled stocks of ``node_limit``
    (default :data:`.evaluate.NODES`) positions each and no clock, as the widget's indicator
    weighs it: the same position, the same chance. A move whose chance fell is judged within
    ``judge_limit`` (default: the chance's), as the live coach judges it: a coached game's
    judgements are taken from the one cache of chances, not made again."""
    _check(game, time_limit, samples, node_limit)
    limit = Limit(NODES if node_limit is None else node_limit, samples)
    base = random.Random(seed).getrandbits(63) if seed is not None else None
    for ply, (before, seen, status, move) in enumerate(_positions(game)):
        if stop is not None and stop():
            return
        verdict, first = _verdict(before, time_limit / 2, node_limit, stop, status)
        entry = ReviewEntry(ply, str(move), verdict, None, mistake(before, move), first)
        if status == "playing" and not (stop is not None and stop()):
            evaluator = evaluator_for(before.rules, None if base is None else base + ply)
            judge = Judge(evaluator, limit, judge_limit or limit)
            entry = judge.entry(entry, before, seen, move, stop)
        yield entry


@dataclass(frozen=True)
class Judge:
    """How a review weighs a move: ``evaluator``, the ``limit`` of a chance, and the
    ``judge_limit`` of a judgement."""

    evaluator: Evaluator
    limit: Limit
    judge_limit: Limit

    def entry(
        self, entry: ReviewEntry, before: Game, seen: Seen, move: Move, stop: Stop | None
    ) -> ReviewEntry:
        """``entry`` with the chance before its move and, where the move's own chance (as
        seen before it) is at least :data:`.judge.INACCURACY_DROP` lower, the judge's label
        and better move (``seen``: the position before it with its line of play)."""
        evaluator, limit = self.evaluator, self.limit
        chance = CHANCES.evaluate(Seen(seen.view), evaluator, limit, stop)
        entry = replace(entry, chance=chance)
        after = chance_after(before, move, evaluator, limit, stop)
        if chance.p - after.p < INACCURACY_DROP or (stop is not None and stop()):
            return entry
        judged = judge_move(seen, move, evaluator, self.judge_limit, entry.ply, stop)
        if not judged.flagged:
            return entry
        return replace(entry, judgement=judged, better=judged.better,
                       better_chance=judged.better_chance)  # fmt: skip


def _positions(game: Game) -> Iterator[tuple[Game, Seen, str, Move]]:
    """(the position before it, what its player saw there, its status in the line of play,
    the move) for each move of the game's line of play. The position is a copy without the
    line (its cost does not grow with the moves before it: a long game's review is not
    quadratic); what was seen and the status are read from the line, which they need (the
    positions since the last deal; a loss by repetition)."""
    step = game.position_after(0)
    for move in game.history:
        yield step.copy(history=False), Seen.of(step), step.status, move
        step.play(move)


def _check(game: Game, time_limit: float, samples: int, node_limit: int | None) -> None:
    if not isinstance(game, Game):
        raise ValueError(f"review takes a Game (or Game.load(path)), not {type(game).__name__}")
    if not game.history:
        raise ValueError("the game has no moves yet: there is nothing to review")
    playing = game.copy(history=False) if game.status == "playing" else game.position_after(0)
    check_budget(playing, samples, time_limit, node_limit)


def review(
    game: Game,
    time_limit: float = 1.0,
    samples: int = 16,
    node_limit: int | None = None,
    seed: int | None = None,
    stop: Stop | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review every move of ``game.history`` (a game in play, finished or loaded with
    ``Game.load``): see :class:`Review`. ``progress(done, total)`` is called after each move;
    ``stop()`` ends the review early (the moves not reached are left out). The game is not
    changed."""
    entries = []
    total = len(game.history) if isinstance(game, Game) else 0
    for entry in review_steps(game, time_limit, samples, node_limit, seed, stop):
        entries.append(entry)
        if progress is not None:
            progress(len(entries), total)
    stopped = len(entries) < total
    final = UNKNOWN if stopped else final_verdict(game, time_limit, node_limit, stop)
    return Review(tuple(entries), final)
