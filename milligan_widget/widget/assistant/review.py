"""The game review as a background job: :func:`milligan_widget.analysis.review_steps` on a
copy of the game, one move at a time, for the replay viewer.

The solver's work (each move's thoughtful verdict and honest chance) happens in the job's
thread *outside* the widget's lock; the lock is held only to add one move's entry and publish
the progress, so a click waits for at most one publish, never for a solve. Stop (the review
panel's button, the "stop" request, ``widget.stop()``) ends it and keeps the entries done so
far; leaving the replay viewer or a new game cancels it (its entries are dropped).

What the front end gets (:meth:`Reviewer.fresh`, the ``review`` trait) is plain data: the
progress (while the review runs; when it ends the message line says so, once), the caption
that says where the verdicts come from, each move's verdict, chance and words
(:func:`milligan_widget.analysis.chart.point_words`), the turning point in words, the named
mistakes, and the flagged moves with their label, words and better move (described in the
position it was better in), grouped as the chart draws them.

>>> from milligan_widget import Game
>>> data = review_data(None)
>>> data["state"] is None, data["entries"]
(True, [])
>>> check_review_game(Game.new(3))
Traceback (most recent call last):
...
ValueError: There is nothing to review yet: the game has no moves.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from milligan_widget import analysis
from milligan_widget.analysis.chart import drawn, flag_groups, point_words
from milligan_widget.analysis.words import flag_words, mistake_words, turning_point_words
from milligan_widget.engine import Game, savefile
from milligan_widget.search import solver
from milligan_widget.widget.assistant.jobs import Host, Workers
from milligan_widget.widget.lock import locked

MAX_REVIEW_MOVES = 2_000  #: the longest game reviewed (a longer one is refused up front)
PROGRESS_EVERY = 0.25  #: seconds between two progress frames (the first and last always go)
CAPTION = (
    "Verdicts: the solver, which knows the stock. Chances: from what you could see "
    "(how often careful play wins from such positions)."
)
DONE, RUNNING, STOPPED, FAILED = "done", "running", "stopped", "failed"
NO_REVIEW: dict[str, Any] = {"state": None, "entries": []}  #: what the front end gets: none


@dataclass(frozen=True)
class ReviewSettings:
    """What each move of a review may spend: ``time_limit`` seconds (half for the verdict,
    half for the chance), ``samples`` sampled stocks, ``node_limit`` positions per solve
    (None: only the time), and the samples' ``seed`` (None: fresh ones)."""

    time_limit: float = 1.0
    samples: int = 16
    node_limit: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        game = Game.new(1)  # a game in play: only the budget is checked
        analysis.sampler.check_budget(game, self.samples, self.time_limit, self.node_limit)


class ReviewJob:
    """One review: the game (a copy with its whole line), the entries done so far, and its
    state ("running", "done", "stopped" by the player, "failed")."""

    def __init__(
        self, game: Game, settings: ReviewSettings, judge_limit: analysis.Limit | None = None
    ) -> None:
        self.game = game
        self.settings = settings
        self.judge_limit = judge_limit  # the coach's: its judgements are reused
        self.total = len(game.history)
        self.entries: list[analysis.ReviewEntry] = []
        self.final = solver.UNKNOWN
        self.state = RUNNING
        self.stop = threading.Event()  # set: no more solving for this review
        self.finished = threading.Event()  # set: the thread is done with it
        self.version = 0  # moves on with each change the front end should see
        self._described: dict[tuple[int, str], str | None] = {}

    def describe(self, ply: int, move: str) -> str | None:
        """``move`` in words in the position before move ``ply + 1`` ("7♥ from column 6
        into the reserve"), or None if it is not a move there (kept: a review's data is
        made again for each progress frame)."""
        key = (ply, move)
        if key not in self._described:
            try:
                self._described[key] = self.game.position_after(ply).describe(move)
            except ValueError:
                self._described[key] = None
        return self._described[key]

    def review(self) -> analysis.Review:
        """The review so far (its final verdict "unknown" until every move is done)."""
        return analysis.Review(tuple(self.entries), self.final)

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the review's thread to be done with it; False on timeout."""
        return self.finished.wait(timeout)


def check_review_game(game: Game) -> Game:
    """``game`` if a review can take it; a ValueError in a player's words if not."""
    moves = len(game.history)
    if not moves:
        raise ValueError("There is nothing to review yet: the game has no moves.")
    if moves > MAX_REVIEW_MOVES:
        raise ValueError(_too_long(moves))
    return game


def _too_long(moves: int) -> str:
    return (
        f"This game has {moves:,} moves: a review takes at most {MAX_REVIEW_MOVES:,} "
        "(each move is solved), so it is not reviewed."
    )


def review_source(value: Any) -> Game:
    """The game to review in ``value`` (a Game, its saved JSON text or a path to a save),
    refused up front (before its moves are replayed) when it is longer than
    :data:`MAX_REVIEW_MOVES`; a ValueError (or TypeError) in a player's words otherwise. A
    file is read as every save is (:func:`milligan_widget.engine.savefile.read_text`: bounded,
    never a wait on a pipe), and parsed once."""
    if isinstance(value, Game):
        return check_review_game(value)
    if isinstance(value, (str, Path)):
        is_text = isinstance(value, str) and value.lstrip().startswith("{")
        document = savefile.parse(str(value) if is_text else savefile.read_text(value))
        moves = document.get("moves") if isinstance(document, dict) else None
        if isinstance(moves, list) and len(moves) > MAX_REVIEW_MOVES:
            raise ValueError(_too_long(len(moves)))  # no move replayed
        return check_review_game(savefile.from_document(document, Game))
    raise TypeError(f"review takes a Game, its saved JSON text or a path to it, not {value!r:.40}")


def _chance(entry: analysis.ReviewEntry) -> dict[str, Any] | None:
    """The chance the front end draws: none where none was measured or nothing could be
    told (the entry's words say which)."""
    chance = drawn(entry)
    if chance is None:
        return None
    return {"p": chance.p, "low": chance.low, "high": chance.high, "text": str(chance)}


def _entry(entry: analysis.ReviewEntry) -> dict[str, Any]:
    return {
        "ply": entry.ply,
        "move": entry.move,
        "verdict": entry.verdict,
        "chance": _chance(entry),
        "mistake": entry.mistake,
        "words": point_words(entry),
    }


def progress_words(job: ReviewJob) -> str:
    """Where the review is, in words ("Reviewing move 12 of 140…")."""
    done, total = len(job.entries), job.total
    if job.state == RUNNING:
        return f"Reviewing move {min(done + 1, total)} of {total}…"
    if job.state == STOPPED:
        return f"Review stopped after {done} of {total} moves: those are kept."
    if job.state == FAILED:
        return f"The review failed after {done} of {total} moves: see the log."
    return f"Review done: {total} moves."


def _flag(job: ReviewJob, flag: analysis.Flag) -> dict[str, Any]:
    described = job.describe(flag.ply, flag.better) if flag.better else None
    return {
        "ply": flag.ply,
        "move": flag.move,
        "label": flag.label,
        "words": flag_words(flag, described),
        "better": flag.better,
    }


def review_data(job: ReviewJob | None) -> dict[str, Any]:
    """The review as the front end shows it (``state`` None: no review). The progress line
    is empty once the review is done (the message line said so)."""
    if job is None:
        return dict(NO_REVIEW)
    done = job.review()
    flags = done.flags
    return {
        "state": job.state,
        "done": len(job.entries),
        "total": job.total,
        "progress": "" if job.state == DONE else progress_words(job),
        "caption": CAPTION,
        "entries": [_entry(entry) for entry in job.entries],
        "final_verdict": done.final_verdict,
        "turning_point": done.turning_point,
        "turning_words": turning_point_words(done),
        "mistakes": [{"ply": e.ply, "words": mistake_words(e)} for e in done.mistakes],
        "flags": [_flag(job, flag) for flag in flags],
        "flag_groups": flag_groups([flag.ply for flag in flags], job.total + 1),
        "deals": [entry.ply for entry in job.entries if entry.move == "d"],
    }


class Reviewer:
    """The review job of one widget (at most one at a time)."""

    def __init__(self, host: Host, workers: Workers) -> None:
        self.host = host
        self._lock = host.lock  # for @locked
        self._workers = workers
        self.job: ReviewJob | None = None
        self.every = PROGRESS_EVERY
        self._shown: tuple[int, int] | None = (0, 0)  # (id, version) of the data sent last
        self._cancelled = 0  # moves on when a review is dropped: the front end clears it

    @property
    def running(self) -> bool:
        return self.job is not None and self.job.state == RUNNING

    @locked
    def start(
        self, game: Game, settings: ReviewSettings, judge_limit: analysis.Limit | None = None
    ) -> ReviewJob:
        """Review ``game`` (checked by :func:`check_review_game`) in the background, in
        place of any review before; a flagged move judged within ``judge_limit``."""
        self.cancel()
        job = ReviewJob(game.copy(), settings, judge_limit)
        self.job = job
        self._workers.start(self._work, job)
        return job

    @locked
    def cancel(self) -> None:
        """Drop the review (the viewer closed, another game): its solving stops."""
        if self.job is not None:
            self.job.stop.set()
            self.job = None
            self._cancelled += 1

    @locked
    def stop(self) -> bool:
        """Stop the review in progress, keeping its entries; False if none runs."""
        job = self.job
        if job is None or job.state != RUNNING:
            return False
        job.stop.set()
        job.state = STOPPED
        job.version += 1
        self.host.publish(message=progress_words(job))
        return True

    @locked
    def fresh(self) -> dict[str, Any] | None:
        """The review's data if it changed since it was last sent, else None."""
        job = self.job
        key = (id(job), job.version) if job is not None else (0, -self._cancelled)
        if key == self._shown:
            return None
        self._shown = key
        return review_data(job)

    def _work(self, job: ReviewJob) -> None:
        """The job's thread: each move solved outside the lock, added and shown inside."""
        state, shown = DONE, 0.0
        try:
            for entry in self._steps(job):  # the solving happens here, unlocked
                with self._lock:
                    if job.stop.is_set():
                        break
                    job.entries.append(entry)
                    shown = self._progress(job, shown)
            if not job.stop.is_set():
                s = job.settings
                job.final = analysis.final_verdict(
                    job.game, s.time_limit, s.node_limit, job.stop.is_set
                )
        except Exception:
            self.host.log.exception("MilliganWidget review failed")
            state = FAILED
        finally:
            self._finish(job, state)

    @staticmethod
    def _steps(job: ReviewJob) -> Any:
        s = job.settings
        return analysis.review_steps(
            job.game, s.time_limit, s.samples, s.node_limit, s.seed, job.stop.is_set,
            job.judge_limit,
        )  # fmt: skip

    def _progress(self, job: ReviewJob, shown: float) -> float:
        """Show the progress (holding the lock), at most every :attr:`every` seconds."""
        job.version += 1
        now = time.monotonic()
        if self.job is job and (now - shown >= self.every or len(job.entries) == 1):
            self.host.show_review(review_data(job))
            self._shown = (id(job), job.version)
            return now
        return shown

    def _finish(self, job: ReviewJob, state: str) -> None:
        with self._lock:
            if job.state == RUNNING:  # not stopped by the player meanwhile
                job.state = state if not job.stop.is_set() else STOPPED
                job.version += 1
                if self.job is job:
                    self.host.publish(message=progress_words(job))
        job.finished.set()
