"""The solver's background jobs for the widget, and the threads they run in.

A job is one question to the solver (a hint, Think longer, a check, the solution) about one
position. It runs in a thread of its own, so the kernel keeps handling clicks; where threads
cannot start (Pyodide, JupyterLite), it runs in the kernel's thread instead, once the
request that asked for it has been answered (the player sees "thinking…" first).

>>> workers = Workers(WidgetLock())
>>> answers = []
>>> workers.start(answers.append, 42).join()
>>> answers
[42]
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from milligan_widget.engine import Game, Move
from milligan_widget.engine.deadlock import explain
from milligan_widget.search import solver
from milligan_widget.widget.assistant.honesty import peeking
from milligan_widget.widget.lock import WidgetLock
from milligan_widget.widget.words import moves as _moves

#: What identifies a position on show: (the number of the game on show, which changes
#: whenever another game is put on show, its mode's name, :meth:`Game.exact_key`).
Key = tuple[int, str, tuple[Any, ...]]

#: The solves a player asks for and waits on (Think longer, the solution) search on two cores
#: where the machine has them (``solve(..., workers=2)``); a move or Stop stops them.
ASKED_WORKERS = min(2, os.cpu_count() or 1)


class Publish(Protocol):
    """The table's ``publish``: a new view with this message (and the hint highlighted)."""

    def __call__(
        self, message: str = "", kind: str = "info", *, hint: Move | None = None
    ) -> None: ...


@dataclass(frozen=True)
class Host:
    """What the solver's jobs may do with the widget: read the position on show, and show."""

    lock: WidgetLock
    game: Callable[[], Game]  # the game on show
    player_game: Callable[[], Game]  # the player's own game (a lesson has its own)
    own_game: Callable[[], bool]  # is the player's own game on show (not a lesson, a replay)?
    position: Callable[[], Key]  # the key of the position on show
    publish: Publish  # a new view
    play: Callable[[Move, str], Move]  # play a move of the solution (its words prefixed)
    show_analysis: Callable[[dict[str, Any]], None]  # a new analysis alone
    show_review: Callable[[dict[str, Any]], None]  # the review's progress alone
    log: logging.Logger | logging.LoggerAdapter[logging.Logger]


class Job:
    """One question to the solver about one position of ``origin`` (the game on show when
    it was asked: a win found belongs to that game)."""

    def __init__(self, position: Key, origin: Game, kind: str = "", seconds: float = 0.0) -> None:
        self.position = position
        self.origin = origin
        self.kind = kind  # "hint", "think", ...: what it is, for the log
        self.seconds = seconds  # the solver's budget
        self.stop = threading.Event()  # set: the solver is no longer needed for this job
        self.thread: threading.Thread | None = None  # None: it runs (or ran) in the kernel's
        self.result: Any = None
        self.played = 0  # the solution's moves played back so far
        self.progress = (0, 0.0)  # positions searched and seconds spent (Think longer)
        self.shown = 0.0  # the seconds of the progress shown last
        # A playback on the event loop (no threads): the next move's timer and its call.
        self.next: tuple[asyncio.TimerHandle, Callable[[], None]] | None = None

    def join(self) -> None:
        """Wait until the job is done: its thread ends, or what is left of its playback on
        the event loop is played now (the loop cannot run it while this waits)."""
        if self.thread is not None:
            self.thread.join()
        while self.next is not None:
            handle, step = self.next
            handle.cancel()
            step()


@dataclass(frozen=True)
class Verdict:
    """What Think longer found for one position: a state of the widget's ``analysis``, why
    in a player's words, and the budget it ran out of without an answer (0: it decided,
    or was stopped), which the next press doubles."""

    position: Key
    state: str
    why: str
    ran_out: float = 0.0


def answer(
    host: Host,
    job: Job,
    compute: Callable[[], Any],
    take: Callable[[Job], bool],
    show: Callable[[Job], None],
) -> None:
    """A hint's or Think longer's work, in its thread: ``compute()`` the answer, then,
    holding ``host.lock``, ``show(job)`` with it in ``job.result``. Not when ``take(job)``
    says the job was replaced meanwhile (``take`` lets go of a job still current), nor when
    the job was stopped or the player left its position; an error is shown, never left
    unanswered."""
    try:
        result, error = compute(), None
    except Exception as exc:
        host.log.exception("MilliganWidget %s failed", job.kind)
        result, error = None, exc
    with host.lock:
        if not take(job):
            return  # replaced by another one: dropped
        if job.stop.is_set() or host.position() != job.position:
            return  # the player moved on: this answer is for a position no longer shown
        if error is not None:
            host.publish(message=f"Internal error: {error}", kind="error")
            return
        job.result = result
        show(job)


class Workers:
    """Starts the jobs' threads and remembers them, so that :meth:`join` can wait."""

    def __init__(self, lock: WidgetLock) -> None:
        self._lock = lock
        self._threads: list[threading.Thread] = []

    def start(
        self,
        target: Callable[..., Any],
        *args: Any,
        fallback: Callable[[], Any] | None = None,
    ) -> threading.Thread | None:
        """Run ``target(*args)`` in a new thread; where no thread can start, run it (or
        ``fallback``) in this thread once the lock is let go, and return None."""
        thread = threading.Thread(target=target, args=args, daemon=True)
        try:
            thread.start()
        except RuntimeError:  # "can't start new thread": Pyodide has none
            self._lock.later(fallback or functools.partial(target, *args))
            return None
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        return thread

    def join(self, deadline: float | None) -> bool:
        """Wait for every thread started (until ``deadline``, a monotonic time); False if
        one still runs then."""
        for thread in list(self._threads):
            if thread is threading.current_thread():
                continue
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                return False
        return True


#: The niceness a background thread takes (Linux counts it per thread): the kernel's own
#: thread, the Jupyter server and the browser go first when the cores are busy.
BACKGROUND_NICE = 10


def run_in_background() -> bool:
    """Let the calling thread (a job no player waits for) yield the processor to the rest
    of the kernel and the machine; True where the system could be told (Linux), False where
    it cannot (elsewhere, Pyodide), and the thread runs as before.

    >>> import threading
    >>> answers = []
    >>> thread = threading.Thread(target=lambda: answers.append(run_in_background()))
    >>> thread.start(); thread.join()
    >>> answers == [sys.platform == "linux"]
    True
    """
    setpriority = getattr(os, "setpriority", None)
    if setpriority is None or sys.platform != "linux":
        return False  # elsewhere the niceness is the whole process's, the kernel's too
    try:
        thread = threading.get_native_id()
        nice = max(os.getpriority(os.PRIO_PROCESS, thread), BACKGROUND_NICE)
        setpriority(os.PRIO_PROCESS, thread, nice)
    except OSError:
        return False
    return True


#: Seconds the background jobs give way after each request and each frame sent: the move's
#: round trip (the kernel's answer, the Jupyter server, the browser drawing it) has the
#: processor to itself (on two cores, a search beside it made a drop take 1.66x as long at
#: niceness 10, and about 1.2x with this pause: benchmarks/widget.py --coach).
GIVE_WAY = 0.05
#: The longest a card held (picked up in the front end, not yet played) keeps them waiting:
#: the front end asks for it when it picks a card up while the kernel searches, so the
#: move's round trip starts on a free processor; the next request ends it.
HOLD = 2.0


class RightOfWay:
    """The player's requests go first: the widget claims the processor when a request comes
    in (:meth:`request`) and when a frame goes out (:meth:`claim`), and a background job (the
    coach, the indicator) :meth:`give_way` s at each of its solver's checks (every few hundred
    positions) until :data:`GIVE_WAY` seconds have passed since. A card picked up
    :meth:`hold` s them until the next request (its move) or :data:`HOLD` seconds. A search
    with a node limit finds the same answer, a little later.

    >>> way = RightOfWay(seconds=0.01)
    >>> way.claim()
    >>> way.give_way() >= 0.009  # the seconds it waited
    True
    """

    def __init__(self, seconds: float = GIVE_WAY, hold: float = HOLD) -> None:
        self.seconds = seconds
        self.longest_hold = hold
        self._until = 0.0  # the monotonic time the last claim runs out
        self._held = 0.0  # the monotonic time the card held stops holding them up

    def claim(self) -> None:
        """A frame goes out (or a request came in): background jobs wait for it."""
        self._until = time.monotonic() + self.seconds

    def request(self) -> None:
        """A request came in: claim, and end the hold (the card held was played, refused or
        put back; a "hold" request holds again once it is checked)."""
        self.claim()
        self._held = 0.0

    def hold(self) -> None:
        """A card was picked up: background jobs wait until the next request."""
        self._held = time.monotonic() + self.longest_hold

    def give_way(self) -> float:
        """In a background job: wait while a claim or a hold runs (a hold ended is noticed
        within a claim's length); the seconds it waited."""
        start = now = time.monotonic()
        while (wait := max(self._until, self._held) - now) > 0:
            time.sleep(min(wait, self.seconds))
            now = time.monotonic()
        return now - start

    def working_stop(self, seconds: float, stale: Callable[[], bool]) -> Callable[[], bool]:
        """A background search's ``stop``: it gives way, says whether ``stale()``, and ends
        the search once it has *worked* ``seconds``: the time it gave way (a card held
        while the player drags it, say) is not counted, so a pause never cuts a search
        short.

        >>> way = RightOfWay(seconds=0.05, hold=0.3)
        >>> stop = way.working_stop(0.2, stale=lambda: False)
        >>> way.hold(); stop()  # it waits while the card is held: 0.3 s, not counted
        False
        >>> time.sleep(0.25); stop()  # 0.25 s of work, more than its 0.2
        True
        """
        start, waited = time.monotonic(), 0.0

        def stop() -> bool:
            nonlocal waited
            waited += self.give_way()
            return stale() or time.monotonic() - start - waited > seconds

        return stop


#: The kernel's one right of way: every widget claims it, every background job gives way (a
#: second board's coach waits for the first board's moves too).
RIGHT_OF_WAY = RightOfWay()


def check_seconds(value: Any, name: str) -> float:
    """A solver budget in seconds: a finite number, 0 or more (a NaN would search forever).

    >>> check_seconds(2, "hint_time")
    2.0
    >>> check_seconds(float("nan"), "hint_time")
    Traceback (most recent call last):
    ...
    ValueError: hint_time must be a number of seconds, 0 or more, not nan
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a number of seconds, 0 or more, not {value!r}")
    return float(value)


def win_words(count: int) -> str:
    return peeking(f"the solver found a win in {_moves(count)}")


def verdict_words(result: solver.SolveResult, game: Game, seconds: float) -> str:
    """Why the solver says what it says about ``game``, in a player's words."""
    if result.status == solver.WINNABLE:
        return win_words(len(result.moves))
    if result.status == solver.UNWINNABLE:
        return explain(game) or peeking("the solver searched every line")
    return f"no answer within {seconds:g} s"


def progress_words(job: Job) -> str:
    """How far Think longer has got."""
    positions, seconds = job.progress
    if not positions:
        return f"thinking… the solver has up to {job.seconds:g} s"
    return f"thinking… {seconds:.0f} s, {positions:,} positions"
