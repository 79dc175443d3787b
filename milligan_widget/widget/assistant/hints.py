"""Hints: with peek off, the honest hint (:func:`milligan_widget.analysis.honest_hint`: the
line that keeps the best chance on sampled stocks, from what the player can see); with peek
on, the solver's move (it knows the stock, and says so), or the greedy heuristic's when the
solver sees no win in the time it has. Either is found in the background.

One hint is worked out at a time: asking again for the same position waits for the same
answer, and a hint for a position the player has left is stopped and dropped. On a winning
line found before, the answer is its next move, at once.

>>> from milligan_widget.widget import MilliganWidget
>>> widget = MilliganWidget(seed=8, hint_time=0)  # 0 s: the greedy heuristic, at once
>>> move, why = widget.hint()
>>> widget.view["message"].startswith("Heuristic:") and widget.game.is_legal(move)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from milligan_widget import analysis
from milligan_widget.analysis import advice
from milligan_widget.analysis.cache import CHANCES
from milligan_widget.engine import Game, Move
from milligan_widget.search.greedy import greedy_hint
from milligan_widget.search.solver import UNKNOWN
from milligan_widget.widget.assistant.honesty import HonestBudget, peeking
from milligan_widget.widget.assistant.jobs import Job, Key, Workers, answer, check_seconds
from milligan_widget.widget.assistant.winning_line import WinningLine
from milligan_widget.widget.lock import locked

HINT_TIME = 2.0  # seconds the solver has for a hint
SOURCES = {"solver": "Solver", "heuristic": "Heuristic", "honest": "Honest hint"}


class Hints:
    """The hints of one assistant: ``host`` is its :class:`~.assistant.jobs.Host`;
    ``remember(job, game, moves)`` keeps a win the solver found."""

    def __init__(
        self,
        host: Any,
        workers: Workers,
        remember: Callable[[Job, Game, tuple[Move, ...]], None],
        seconds: float = HINT_TIME,
    ) -> None:
        self.host, self._workers, self._remember = host, workers, remember
        self._lock = host.lock  # for @locked
        self.seconds = seconds
        self.job: Job | None = None  # the hint being worked out
        self.undecided: Key | None = None  # where the solver had no answer
        self.peek = False  # may the hint use the hidden cards (the solver's), or not (honest)?
        self.honest = HonestBudget()

    @property
    def seconds(self) -> float:
        """The solver's seconds for a hint (0: the heuristic alone, at once)."""
        return self._seconds

    @seconds.setter
    def seconds(self, value: float) -> None:
        self._seconds = check_seconds(value, "hint_time")

    def ask(self, line: WinningLine, wait: bool = True) -> tuple[Move | None, str] | None:
        """The hint for the position on show (``line``: the win remembered), shown; with
        ``wait``, returned as (move, why) too."""
        if self.seconds <= 0:
            with self._lock:
                return self._heuristic()
        job = self._start(line)
        if not wait:
            return None
        job.join()
        found = job.result
        return (found.move, reason_words(found)) if found is not None else None

    def _heuristic(self) -> tuple[Move, str] | None:
        game = self.host.game()
        found = greedy_hint(game)
        if found is None:
            self.host.publish(message="No useful move is left.", kind="hint")
            return None
        move, why = found
        self.host.publish(message=f"Heuristic: {game.describe(move)} — {why}.", kind="hint",
                          hint=move)  # fmt: skip
        return found

    @locked
    def _start(self, line: WinningLine) -> Job:
        """Answer from the remembered line, or show "thinking…" and ask the solver in the
        background (one job at a time: asking again for the same position waits for the
        same answer; a job for another position is stopped)."""
        position, game = self.host.position(), self.host.game()
        job, rest = self.job, line.rest(position) if self.peek else None
        if rest is None and job is not None and job.position == position and not job.stop.is_set():
            return job  # the same question: the same answer
        if job is not None:
            job.stop.set()
        job = Job(position, game, "hint", self.seconds)
        if rest is not None:
            self.job = None
            job.result = advice.Hint.on_line(rest)
            self._show(job.result)
            return job
        self.job = job
        who = f"the solver has up to {self.seconds:g} s"
        if not self.peek:
            who = f"the honest hint weighs {self.honest.hint_limit(self.seconds).words()}"
        self.host.publish(message=f"Thinking… ({who})", kind="thinking")
        solve = functools.partial(self._solve, job, game.copy())
        job.thread = self._workers.start(answer, self.host, job, solve, self._take, self._done)
        return job

    def _take(self, job: Job) -> bool:
        """Is ``job`` still the hint being worked out? Then it is let go of."""
        if self.job is not job:
            return False
        self.job = None
        return True

    def _solve(self, job: Job, game: Game) -> advice.Hint | None:
        """:func:`advice.hint` for ``job``, or with peek off the honest hint (``job.stop``
        cancels either); a win is remembered."""
        found = self._peeking(job, game) if self.peek else self._honest(job, game)
        if found is not None and found.line:
            self._remember(job, game, found.line)
        return found

    @staticmethod
    def _peeking(job: Job, game: Game) -> advice.Hint | None:
        return advice.hint(game, time_limit=job.seconds, stop=job.stop.is_set)

    def _honest(self, job: Job, game: Game) -> advice.Hint | None:
        """The honest hint: it reads only what the player sees (its samples stand in for
        the rest). Kept in the one cache of chances: asked again, the same position gets
        the same hint at once."""
        if game.status != "playing":
            return None
        budget, stop = self.honest, job.stop.is_set
        limit = budget.hint_limit(job.seconds)
        key = ("hint", analysis.Seen.of(game).key, budget.evaluator(game.rules).identity, limit)

        def hint() -> advice.Hint:
            return analysis.honest_hint(game, limit.samples, limit.time, limit.nodes,
                                        budget.seed, stop=stop)  # fmt: skip

        return CHANCES.answer(key, hint, lambda _: not stop(), stop)

    def _done(self, job: Job) -> None:
        found = job.result
        if found is not None and found.status == UNKNOWN and found.source != "honest":
            self.undecided = job.position  # Think longer is offered here
        self._show(found)

    def _show(self, found: advice.Hint | None) -> None:
        if found is None:
            self.host.publish(message="No useful move is left.", kind="hint")
            return
        name, reason = SOURCES.get(found.source, found.source), reason_words(found)
        message = f"{name}: {self.host.game().describe(found.move)} — {reason}."
        self.host.publish(message=message, kind="hint", hint=found.move)

    def position_changed(self, position: Key) -> None:
        """Stop the solver of a hint for another position than ``position`` (its answer
        is dropped)."""
        if self.job is not None and self.job.position != position:
            self.job.stop.set()

    def close(self) -> None:
        """Stop the hint being worked out for good."""
        if self.job is not None:
            self.job.stop.set()
            self.job = None


def reason_words(found: advice.Hint) -> str:
    """Why the hint, saying what it looked at: only what the player sees (honest), or the
    hidden cards too (the solver's).

    >>> reason_words(advice.Hint(Move.deal(), "dealing now keeps 9 of 16", "honest", "unknown"))
    'looking only at what you can see, dealing now keeps 9 of 16'
    """
    if found.source == "honest":
        return f"looking only at what you can see, {found.reason}"
    return peeking(found.reason)
