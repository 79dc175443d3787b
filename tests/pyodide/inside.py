"""Run inside Pyodide by ``tests/test_pyodide.py`` (through ``run.mjs``); not a test itself.

It installs every wheel in ``/wheels/project`` and ``/wheels/deps`` by unpacking it into
site-packages (micropip needs a network), then deals, plays, solves and uses the widget where
threads cannot start (a solution played back on the event loop and stopped). It reads
``/input/input.json`` (the PySolFC reference deals and a winning line of deal 8) and its last
expression is a JSON report, which the test checks: nothing is asserted here, so that every
answer reaches the test, failures included.
"""

from __future__ import annotations

import asyncio
import glob
import importlib
import json
import os
import site
import sys
import threading
import time
import traceback
import zipfile

WHEEL_FOLDERS = ("/wheels/project", "/wheels/deps")


def install(folders: tuple[str, ...]) -> list[str]:
    """Unpack every wheel in ``folders`` into site-packages; the wheels' file names."""
    target = site.getsitepackages()[0]
    names = []
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.whl"))):
            with zipfile.ZipFile(path) as wheel:
                wheel.extractall(target)
            names.append(os.path.basename(path))
    importlib.invalidate_caches()
    return names


def refusal() -> str | None:
    """What ``threading.Thread.start`` says here, or None if it started a thread."""
    thread = threading.Thread(target=lambda: None)
    try:
        thread.start()
    except RuntimeError as error:
        return str(error)
    thread.join()
    return None


def watch_threads(refused: str | None) -> list[str]:
    """Record every thread the package tries to start (the list returned fills up). Where
    this Pyodide can start threads after all, refuse them as the unit test does."""
    attempts: list[str] = []
    original = threading.Thread.start

    def start(self: threading.Thread) -> None:
        attempts.append(self.name)
        if refused is None:
            raise RuntimeError("can't start new thread (simulated)")
        original(self)

    threading.Thread.start = start  # type: ignore[method-assign]
    return attempts


def deals(reference: list[dict]) -> dict[str, bool]:
    """Each reference deal's number: whether the package deals PySolFC's layout for it."""
    from milligan_widget import deal_order

    return {
        d["number"]: [str(c) for c in deal_order(int(d["number"]))] == d["deal_order"]
        for d in reference
    }


def play(seed: int, line: str) -> dict:
    """Deal ``seed`` and play ``line`` on it; and let the greedy strategy play it through."""
    from milligan_widget import Game
    from milligan_widget.strategy import greedy, play_game

    game = Game.new(seed)
    for move in line.split():
        game.play(move)
    greedy_game = play_game(Game.new(seed), greedy)
    return {
        "status": game.status,
        "foundation_count": game.foundation_count,
        "greedy_moves": [str(m) for m in greedy_game.history],
        "greedy_status": greedy_game.status,
    }


def solve(seed: int, seconds: float) -> dict:
    """Solve deal ``seed``, then replay the solver's moves on a fresh deal."""
    from milligan_widget import Game
    from milligan_widget.search import solver

    result = solver.solve(Game.new(seed), time_limit=seconds)
    replay = Game.new(seed)
    for move in result.moves:
        replay.play(move)
    return {
        "status": result.status,
        "moves": len(result.moves),
        "solver_seconds": result.seconds,
        "replayed": replay.status,
    }


def widget_hint(seed: int, seconds: float) -> dict:
    """A fresh widget's hint (its solver runs in this thread)."""
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=seed, hint_time=seconds, peek=True)  # the solver's hint
    answer = widget.hint()
    move, why = answer if answer is not None else (None, "")
    return {
        "move": None if move is None else str(move),
        "why": why,
        "legal": move is not None and widget.game.is_legal(move),
        "message": widget.view.get("message", ""),
        "shown": widget.view.get("hint"),
    }


def widget_winnable(seed: int, seconds: float, move: str | None) -> dict:
    """Turn on "still winnable?", then play ``move``: the indicator's state each time."""
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=seed, winnable_time=seconds, peek=True)  # the solver's check
    widget.check_winnable = True
    first = dict(widget.analysis)
    if move is not None:
        widget.play(move)
    return {
        "first": first,
        "after_move": dict(widget.analysis),
        "settled": widget.wait(0),
        "message": widget.view.get("message", ""),
    }


def widget_solution(seed: int, seconds: float) -> dict:
    """Play the solution back in a widget."""
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=seed, hint_time=0)
    widget.show_solution(time_limit=seconds, delay=0)
    widget.wait(seconds)
    return {"status": widget.game.status, "kind": widget.view.get("kind")}


async def widget_solution_stopped(seed: int) -> dict:
    """Start "Solution ▶" as the toolbar does, let Pyodide's event loop run, then press Stop
    (the message the button sends): how many moves were played then, and later."""
    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=seed, hint_time=0)
    widget.show_solution(delay=0.02)
    returned_after = len(widget.game.history)
    await asyncio.sleep(0.5)
    at_stop = len(widget.game.history)
    stop = {"method": "custom", "content": {"type": "stop"}}
    widget._handle_msg({"content": {"data": stop}, "buffers": []})  # as the comm delivers it
    message = widget.view.get("message", "")
    await asyncio.sleep(0.5)
    return {
        "returned_after": returned_after,
        "at_stop": at_stop,
        "later": len(widget.game.history),
        "message": message,
        "busy": widget.view.get("busy"),
    }


async def timed_async(report: dict, name: str, call, *args) -> None:
    """``await call(*args)`` into ``report[name]`` (or its traceback), with its time."""
    start = time.perf_counter()
    try:
        report[name] = await call(*args)
    except Exception:
        report[name] = {"error": traceback.format_exc()}
    report["seconds"][name] = round(time.perf_counter() - start, 2)


def timed(report: dict, name: str, call, *args) -> object:
    """``call(*args)`` into ``report[name]`` (or its traceback), with its time."""
    start = time.perf_counter()
    try:
        report[name] = call(*args)
    except Exception:
        report[name] = {"error": traceback.format_exc()}
    report["seconds"][name] = round(time.perf_counter() - start, 2)
    return report[name]


async def main() -> str:
    """Every check, as a JSON report."""
    with open("/input/input.json", encoding="utf-8") as file:
        given = json.load(file)
    seed, seconds = given["seed"], given["seconds"]
    report: dict = {"python": sys.version, "platform": sys.platform, "seconds": {}}
    refused = refusal()
    report["thread_refusal"] = refused
    attempts = watch_threads(refused)
    timed(report, "installed", install, WHEEL_FOLDERS)
    timed(report, "deals", deals, given["deals"])
    timed(report, "play", play, seed, given["line"])
    timed(report, "solve", solve, seed, seconds)
    hint = timed(report, "hint", widget_hint, seed, seconds)
    timed(report, "winnable", widget_winnable, seed, seconds, hint.get("move"))
    timed(report, "solution", widget_solution, seed, seconds)
    await timed_async(report, "solution_stopped", widget_solution_stopped, seed)
    report["thread_attempts"] = len(attempts)
    return json.dumps(report)


await main()  # noqa: F704 (runPythonAsync runs a top-level await)
