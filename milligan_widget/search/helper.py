"""A second process for the solver: a solve with ``workers=2`` runs part of its portfolio
there while the rest runs here (:func:`.solver.solve`), and stops it once either decides.

The helper is a plain Python process running :func:`main`, started on first use and
kept: calls go to it pickled on its standard input, answers come back on its standard
output. No :mod:`multiprocessing` start method is involved, so no main module is imported
again (a script without ``if __name__ == "__main__"`` is safe) and no process with threads
(a notebook kernel's) is forked. The helper ends when this process does (its input closes).
Where no program can be started (Pyodide), or the helper dies, :func:`borrow` gives None and
the solve runs on one core. One solve uses the helper at a time; another, meanwhile, runs
on one core.

>>> with borrow() as helper:
...     pending = helper.call(pow, 2, 10) if helper else None
...     pending.result(timeout=30) if pending else 1024
1024
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

_STOP = threading.Event()  # in the helper: the call running should stop


def stop_asked() -> bool:
    """In the helper: has the caller asked the call running to stop? (Elsewhere: False.)"""
    return _STOP.is_set()


class HelperGone(RuntimeError):
    """The helper process ended (killed, or it could not start): its call has no answer."""


class Helper:
    """The helper process, seen from the caller: :meth:`call`, then :meth:`stop` if the
    answer is no longer wanted."""

    def __init__(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [root, *filter(None, [os.environ.get("PYTHONPATH")])])}  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"from {__name__} import main; main()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self.answers: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()
        threading.Thread(target=self._read_answers, daemon=True).start()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def call(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run ``function(*args)`` in the helper (both pickled: a module-level function);
        its answer comes in the future (:class:`HelperGone` if the helper dies first)."""
        answer: Future[Any] = Future()
        self.answers.put(answer)
        self._send(("call", function, args), answer)
        return answer

    def stop(self) -> None:
        """Ask the call running to stop: its function sees :func:`stop_asked` true."""
        self._send(("stop",), None)

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=5)

    def _send(self, message: tuple[Any, ...], answer: Future[Any] | None) -> None:
        try:
            pipe = self.process.stdin
            assert pipe is not None
            pickle.dump(message, pipe)
            pipe.flush()
        except (OSError, ValueError) as gone:  # a broken pipe, or closed
            if answer is not None and not answer.done():
                answer.set_exception(HelperGone(str(gone)))

    def _read_answers(self) -> None:
        pipe = self.process.stdout
        assert pipe is not None
        while True:
            try:
                ok, value = pickle.load(pipe)
            except (EOFError, OSError, pickle.UnpicklingError):
                break
            answer = self.answers.get()
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)
        while not self.answers.empty():
            answer = self.answers.get()
            if not answer.done():
                answer.set_exception(HelperGone("the solver's helper process ended"))


_helper: Helper | None = None
_in_use = threading.Lock()


@contextmanager
def borrow() -> Iterator[Helper | None]:
    """The helper, started if need be, for one solve; None where it is in use by another
    solve or no process can be started."""
    if not _in_use.acquire(blocking=False):
        yield None
        return
    try:
        yield _started()
    finally:
        _in_use.release()


def warm_up(timeout: float = 30.0) -> bool:
    """Start the helper now rather than at the first solve that wants it, and wait until it
    answers (its imports done); True if it did."""
    with borrow() as helper:
        if helper is None:
            return False
        try:
            helper.call(int).result(timeout)
        except (HelperGone, TimeoutError):
            return False
        return True


def _started() -> Helper | None:
    global _helper
    if _helper is None or not _helper.alive:
        if sys.platform == "emscripten":
            return None
        try:
            _helper = Helper()
        except OSError:
            return None
    return _helper


@atexit.register
def _close() -> None:
    if _helper is not None and _helper.alive:
        _helper.close()


def _serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """The helper's loop: run each call and send back (True, value) or (False, error); a
    stop sets :data:`_STOP` for the call running (a call arriving clears it)."""
    calls: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()

    def read() -> None:
        while True:
            try:
                message = pickle.load(source)
            except (EOFError, OSError):
                calls.put(None)
                return
            if message[0] == "stop":
                _STOP.set()
            else:
                _STOP.clear()
                calls.put(message)

    threading.Thread(target=read, daemon=True).start()
    while (message := calls.get()) is not None:
        _, function, args = message
        try:
            reply: tuple[bool, Any] = (True, function(*args))
        except Exception as error:  # the caller gets it
            reply = (False, error)
        pickle.dump(reply, sink)
        sink.flush()


def main() -> None:
    """The helper process: serve calls until the caller's end of the pipe closes."""
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print cannot corrupt the answers
    _serve(sys.stdin.buffer, channel)
