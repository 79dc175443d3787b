"""The solver's work for the widget: hints, the "still winnable?" indicator, the live coach,
Think longer, the solution playing back, and the winning line remembered.

The solver is pure Python, so its threads share the interpreter with the kernel; Python
switches threads every few milliseconds, so a click waits milliseconds, not seconds. No
solve goes on for a position nobody needs any more: each gets the solver's ``stop``
callable, which turns true once the player leaves its position (for the solution: while it
is still searching), the indicator is switched off, or the solution is stopped; a stopped
solve's result is never shown. The newest win any of them finds is remembered for the game
on show (:class:`~.winning_line.WinningLine`): a hint, the indicator or the solution at a
position on it answers at once, without a solve.

:class:`Assistant` owns every job; it reads the position on show and shows what it finds only
through its :class:`~.jobs.Host` (the table's publishing), and its jobs run in
:mod:`.jobs`' threads.

The hints are :mod:`.hints`', the checks :mod:`.indicator`'s, the judgements
:mod:`.coach`'s, the playback
:mod:`.solution`'s and the game review :mod:`.review`'s; Think longer, the analysis on show
and stopping are the assistant's own.

>>> from milligan_widget.widget import MilliganWidget
>>> widget = MilliganWidget(seed=8, stats=False, autosave=False)
>>> widget.show_solution(time_limit=20, delay=0, wait=True)
>>> widget.game.status, widget.view["busy"]
('won', None)
"""

from __future__ import annotations

import functools
import time
from typing import Any

from milligan_widget.engine import Game, Move
from milligan_widget.engine.deadlock import explain
from milligan_widget.search import solver
from milligan_widget.widget.assistant.coach import Coach
from milligan_widget.widget.assistant.hints import HINT_TIME, Hints
from milligan_widget.widget.assistant.honesty import HonestBudget
from milligan_widget.widget.assistant.indicator import WINNABLE_TIME, Indicator
from milligan_widget.widget.assistant.jobs import (
    ASKED_WORKERS,
    RIGHT_OF_WAY,
    Host,
    Job,
    Key,
    Verdict,
    Workers,
    answer,
    check_seconds,
    progress_words,
    verdict_words,
    win_words,
)
from milligan_widget.widget.assistant.review import Reviewer
from milligan_widget.widget.assistant.solution import Solution
from milligan_widget.widget.assistant.winning_line import NO_LINE, WinningLine
from milligan_widget.widget.lock import locked
from milligan_widget.widget.words import moves as _moves

THINK_TIME = 30.0  # seconds Think longer gives the solver, doubled on each press without an answer
MAX_THINK_TIME = 480.0  # ... up to this
PROGRESS_SHOWN = 0.5  # seconds between two progress updates of Think longer
NO_ANALYSIS = {"enabled": False, "state": None, "why": "", "can_think": False}

__all__ = [
    "HINT_TIME", "NO_ANALYSIS", "THINK_TIME", "WINNABLE_TIME", "Assistant", "HonestBudget", "Host"
]  # fmt: skip


class Assistant:
    """The solver's jobs for one widget."""

    def __init__(self, host: Host, hint_time: float = HINT_TIME) -> None:
        self.host = host
        self._lock = host.lock  # for @locked
        self.workers = Workers(host.lock)
        #: The player's requests first: the coach and the indicator give way to them.
        self.way = RIGHT_OF_WAY
        self.indicator = Indicator(
            host.lock, self._remember, self.update_analysis, host.log, self.way
        )
        self.coach = Coach(host.lock, self.update_analysis, host.log, self.way)
        self.line = NO_LINE  # the win remembered for the game on show
        self.analysis: dict[str, Any] = dict(NO_ANALYSIS)
        self.hints = Hints(host, self.workers, self._remember, hint_time)
        self._think: Job | None = None  # Think longer's solve
        self.solution = Solution(host, self.workers, self._remember)
        self._thought: Verdict | None = None  # Think longer's newest verdict
        self.reviewer = Reviewer(host, self.workers)  # the game review, for the replay viewer
        self.closed = False  # the widget closed: no verdict will come in any more

    # ----------------------------------------------------------------- the game on show
    @locked
    def switch(self, line: WinningLine = NO_LINE) -> None:
        """Another game (or mode) is on show: stop the solution and the review, forget what
        was found for the one before; ``line``: the win remembered for the new one."""
        self.cancel_solution()
        self.reviewer.cancel()
        self.line = line
        self._thought = self.hints.undecided = None

    # ------------------------------------------------------------- peek or fair play
    @property
    def peek(self) -> bool:
        """May hints and the indicator use the hidden cards (the solver's, which knows the
        stock), or only what the player sees (honest: the default)?"""
        return self.hints.peek

    @locked
    def set_peek(self, on: bool) -> None:
        """Peek on or off: a hint or check in progress is stopped (it was for the other
        kind of help) and the analysis says the new kind's verdict."""
        self.hints.peek = self.indicator.peek = bool(on)
        self.hints.close()
        self.hints.undecided = None
        self.indicator.drop()
        self.update_analysis()

    @property
    def honest(self) -> HonestBudget:
        """The budget of the honest hint and chance."""
        return self.hints.honest

    @honest.setter
    def honest(self, budget: HonestBudget) -> None:
        if not isinstance(budget, HonestBudget):
            raise TypeError(f"the honest budget is a HonestBudget, not {budget!r:.40}")
        self.hints.honest = self.indicator.honest = self.coach.honest = budget

    def known_win(self) -> tuple[Move, ...] | None:
        """The remembered win's moves from the position on show, if it is on it."""
        return self.line.rest(self.host.position())

    def _playing(self) -> bool:
        return self.host.own_game()

    # ------------------------------------------------------------------------- hints
    def hint(self, wait: bool = True) -> tuple[Move | None, str] | None:
        """The hint for the position on show (see ``MilliganWidget.hint``)."""
        return self.hints.ask(self.line, wait)

    def _remember(self, job: Job, game: Game, moves: tuple[Move, ...]) -> None:
        """Remember a win found for ``job`` (``game``: a copy of its position) in place of
        the one before, and the indicator shows it; not if the game on show is another one
        by now."""
        if not moves:
            return
        found = WinningLine.along(job.position[1], game, moves)
        with self._lock:
            if job.origin is not self.host.player_game() or not self._playing():
                return
            self.line = found
            if self.indicator.on and found.rest(self.host.position()) is not None:
                self.update_analysis()

    # ------------------------------------------------------------ still winnable?
    @locked
    def check_winnable(self, on: bool) -> None:
        """Turn the "still winnable?" indicator on or off, and show what it says now."""
        self.indicator.on = bool(on)
        self.indicator.drop()
        self.update_analysis()

    @locked
    def update_analysis(self) -> None:
        """Show the analysis of the position on show, if it changed (a verdict came in)."""
        analysis = self.fresh_analysis()
        if analysis is not None:
            self.host.show_analysis(analysis)

    @locked
    def fresh_analysis(self) -> dict[str, Any] | None:
        """The analysis of the position on show if it changed, else None: Think longer's
        progress or verdict; else, with the indicator on, what is known already (the game
        is over, a win is remembered) or the indicator's verdict."""
        position = self.host.position()
        known = self._thought_of(position) if self._playing() else None
        if known is None and self._playing() and self.indicator.on:
            known = self._settled(position)
            if known is None:
                return self._new_analysis(*self.indicator.verdict(position, self.host.game()))
        self.indicator.drop()  # nothing left to check
        return self._new_analysis(*(known or (None, "")))

    def _thought_of(self, position: Key) -> tuple[str, str] | None:
        """(state, why) of Think longer for ``position``: its progress, or its verdict."""
        job = self._thinking()
        if job is not None and job.position == position:
            return "checking", progress_words(job)
        thought = self._thought
        if thought is not None and thought.position == position:
            return thought.state, thought.why
        return None

    def _settled(self, position: Key) -> tuple[str, str] | None:
        """(state, why) for ``position`` that needs no solve: the game is over, or it is on
        the winning line remembered."""
        game = self.host.game()
        if game.status == "won":
            return "won", "all cards are home"
        if game.status == "lost":
            return solver.UNWINNABLE, explain(game) or "no useful move is left"
        if not self.peek:
            return None  # a win the solver found knows the stock: the chance is weighed
        rest = self.line.rest(position)
        return None if rest is None else (solver.WINNABLE, win_words(len(rest)))

    def _new_analysis(self, state: str | None, why: str = "") -> dict[str, Any] | None:
        """The analysis with this state and why, if it is not the one shown (else None)."""
        value: dict[str, Any] = {
            "enabled": self.indicator.on,
            "state": state,
            "why": why if state is not None else "",
            "can_think": self._can_think(state),
        }
        if self.coach.on:  # the coach's word on the last move (None: nothing to say yet)
            value["coach"] = self.coach.shown(self.host.game()) if self._playing() else None
        if self.analysis == value:
            return None
        self.analysis = value
        return value

    def _can_think(self, state: str | None) -> bool:
        """Is Think longer offered: peek is on (the solver reads the stock), the solver found
        no answer for the position on show in the time it had (the indicator's, Think
        longer's or a hint's), and none is running?"""
        if not self.peek or not self._playing() or self._thinking() is not None:
            return False
        if state != solver.UNKNOWN:
            position = self.host.position()
            if state not in (None, "checking") or self.hints.undecided != position:
                return False
            if self.line.rest(position) is not None:
                return False
        return self.host.game().status == "playing"

    # -------------------------------------------------------------------- think longer
    def think_longer(self, seconds: float, wait: bool = False) -> solver.SolveResult | None:
        """Think longer about the position on show (see ``MilliganWidget.think_longer``)."""
        job = self._start_think(check_seconds(seconds, "seconds"))
        if wait:
            job.join()
        return job.result if wait else None

    @locked
    def _start_think(self, seconds: float) -> Job:
        """Think longer for the position on show (the same job if one already is), or say
        at once what is known."""
        position, game = self.host.position(), self.host.game()
        running = self._thinking()
        if running is not None and running.position == position:
            return running
        self.cancel_solution()
        self._stop_thinking(quiet=True)
        job = Job(position, game, "think", seconds)
        rest = self.line.rest(position)
        if rest is not None or game.status != "playing":
            job.result = solver.SolveResult(solver.WINNABLE, rest) if rest else None
            self._think_done(job)
            return job
        self._think = job
        message = f"Thinking longer… (the solver has up to {seconds:g} s; Stop stops it)"
        self.host.publish(message=message, kind="thinking")
        solve = functools.partial(self._solve_longer, job, game.copy())
        job.thread = self.workers.start(answer, self.host, job, solve, self._take, self._think_done)
        return job

    def _take(self, job: Job) -> bool:
        """Is ``job`` still Think longer's solve? Then it is let go of."""
        if self._think is not job:
            return False
        self._think = None
        return True

    def _solve_longer(self, job: Job, game: Game) -> solver.SolveResult:
        """Think longer's solve; a win is remembered."""
        report = functools.partial(self._think_progress, job)
        result = solver.solve(game, time_limit=job.seconds, stop=job.stop.is_set, progress=report,
                              workers=ASKED_WORKERS)  # fmt: skip
        self._remember(job, game, result.moves)
        return result

    def _think_progress(self, job: Job, positions: int, seconds: float) -> None:
        """The solver's progress callback: shown about every :data:`PROGRESS_SHOWN` s."""
        job.progress = (positions, seconds)
        if seconds - job.shown < PROGRESS_SHOWN:
            return
        job.shown = seconds
        with self._lock:
            if self._think is job and not job.stop.is_set():
                self.update_analysis()

    def _think_done(self, job: Job) -> None:
        """Show what Think longer found, in the message line and the analysis."""
        result: solver.SolveResult | None = job.result
        if result is None:  # the game is over: nothing to think about
            self.host.publish(message="The game is over: there is nothing left to think about.")
            return
        game = self.host.game()
        words = verdict_words(result, game, job.seconds)
        ran_out = job.seconds if result.status == solver.UNKNOWN else 0.0
        self._thought = Verdict(job.position, result.status, words, ran_out)
        if result.status == solver.WINNABLE:
            found = _moves(len(result.moves))
            follow = "Hint and Solution ▶ follow it" if self.peek else "Solution ▶ follows it"
            message = f"Solver, which knows the stock: a win in {found} from here. {follow}."
        elif result.status == solver.UNWINNABLE:
            message = f"Solver: {solver.no_win_left(game)}."
        else:
            message = f"Solver: {words}. Think longer gives it {self.think_budget():g} s."
        self.host.publish(message=message, kind="hint")

    def think_budget(self) -> float:
        """The seconds the toolbar's Think longer gives: :data:`THINK_TIME`, doubled after
        each press that ran out of time at this position, up to :data:`MAX_THINK_TIME`."""
        thought = self._thought
        if thought is None or thought.position != self.host.position():
            return THINK_TIME
        return min(MAX_THINK_TIME, max(THINK_TIME, 2 * thought.ran_out))

    def _thinking(self) -> Job | None:
        """Think longer's job while it searches."""
        job = self._think
        return job if job is not None and not job.stop.is_set() else None

    def _stop_thinking(self, quiet: bool = False) -> bool:
        """Stop Think longer and say how far it got (``quiet``: drop it without a word);
        False if it was not running."""
        job = self._thinking()
        if job is None:
            return False
        job.stop.set()
        self._think = None
        if quiet:
            return True
        positions, seconds = job.progress
        words = f"stopped after {seconds:.0f} s and {positions:,} positions"
        self._thought = Verdict(job.position, solver.UNKNOWN, words)
        self.host.publish(message=f"Thinking {words}.")
        return True

    # --------------------------------------------------------------------- the solution
    @locked
    def show_solution(self, time_limit: float, delay: float) -> Job:
        """Find the solution and play it back (see ``MilliganWidget.show_solution``)."""
        self._stop_thinking(quiet=True)  # the solution's solve takes over
        return self.solution.start(self.line.rest(self.host.position()), time_limit, delay)

    def play_back(self, moves: list[Move], delay: float, name: str) -> Job:
        """Play ``moves`` (known to the player: the Finish) back like a solution."""
        self._stop_thinking(quiet=True)
        return self.solution.start(tuple(moves), 0.0, delay, name)

    def cancel_solution(self) -> None:
        self.solution.cancel()

    # ------------------------------------------------------------------- all of them
    @locked
    def stop(self) -> bool:
        """Stop Think longer, the solution playing back or the review (its moves done are
        kept); False if none was running."""
        if self._stop_thinking():
            return True
        return self.solution.stop() or self.reviewer.stop()

    @property
    def busy(self) -> str | None:
        """What the Stop button would stop: "solution", "think", "review" or None."""
        if self.solution.running:
            return "solution"
        if self._thinking() is not None:
            return "think"
        return "review" if self.reviewer.running else None

    def wait(self, timeout: float | None = 30.0) -> bool:
        """Wait until every job is done, stopped ones too; False on timeout. Once closed,
        only for their threads: a verdict shown as "checking" then never comes."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self.solution.drain()  # a playback on the event loop cannot go on while this waits
        if not self.workers.join(deadline):
            return False
        while not self.closed and (
            self.analysis.get("state") == "checking" or self.indicator.busy or self.coach.busy
        ):
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def position_changed(self) -> None:
        """Stop the solver for a position no longer on show: a hint's, Think longer's, and
        a solution's that is still searching (its playback notices a change by itself)."""
        position = self.host.position()
        self.hints.position_changed(position)
        if self._think is not None and self._think.position != position:
            self._think.stop.set()
        self.solution.position_changed(position)

    @locked
    def close(self) -> None:
        """Stop every job and the indicator for good (the widget is closing)."""
        self.closed = True
        self.hints.close()
        if self._think is not None:
            self._think.stop.set()
            self._think = None
        self.cancel_solution()
        self.reviewer.cancel()
        self.indicator.close()
        self.coach.close()

    def join(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) for the threads of a closed assistant."""
        deadline = time.monotonic() + timeout
        self.workers.join(deadline)
        self.indicator.join(deadline)
        self.coach.join(deadline)
