"""Benchmark the widget in real JupyterLab + Debian chromium (issue 3, "Speed").

Measures in one page, with one kernel:

* the floor: a no-op trait round trip (JS sets ``ping``, a Python observer answers in
  ``pong``, JS sees it), on a tiny widget displayed beside the game;
* drop -> DOM: from the real mouse's ``pointerup`` on a legal pile to the moved card being
  in that pile's DOM (Python validates and answers first: nothing moves before that);
* the time to rebuild and draw a full 104-card position from scratch;
* what crosses the websocket per move: widget messages each way and their bytes.

With ``--honest`` the game's "Winnable?" indicator is on with peek off (the default help):
after every drop the honest chance is estimated in the background (16 sampled stocks, up to
3 s of the kernel's CPU), and the drop is timed while it runs, as a player meets it; each
undo's check is left to finish before the next drop.

With ``--coach`` the drops are timed with the live coach off and on, alternately, in one page
(issue 34: a move's frame goes out first, the coach never holds play up). Each drop is made
right after the second row is dealt from Python, so with the coach on it lands while the deal
is being judged (the one cache of chances is emptied first, so every deal is judged afresh):
the card picked up asks the kernel to hold the search until its move (one more message up);
then both moves are taken back and the judgements waited for. The figures are side by side, with the
drops' ratio round by round.

Run:  python benchmarks/widget.py [--rounds 40] [--honest | --coach]
      [--json test-artifacts/widget-benchmark.json]
Needs the built bundle (``pip install -e .``) and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.lab import (  # noqa: E402
    FIRST_TABLEAU_MOVE,
    Kernel,
    check_prerequisites,
    launch_chromium,
    message_type,
    open_notebook,
    start_lab,
    stop_lab,
)

# Rounds are spaced so no delayed ACK of the previous exchange is pending: the Jupyter
# server's websocket does not set TCP_NODELAY, so a message sent while one is pending
# waits up to 40 ms (measured: back-to-back rounds take ~45 ms instead of ~10 ms).
GAP_MS = 300

PING_ESM = """
export default {
  render({ model, el }) {
    el.textContent = "round-trip probe";
    window.__mmPing = (n) => new Promise((resolve) => {
      const times = [];
      let t0 = 0;
      const onPong = () => {
        times.push(performance.now() - t0);
        if (times.length >= n) { model.off("change:pong", onPong); resolve(times); }
        else setTimeout(next, GAP_MS);  // quiet line between rounds, as between drops
      };
      const next = () => {
        t0 = performance.now();
        model.set("ping", model.get("ping") + 1);
        model.save_changes();
      };
      model.on("change:pong", onPong);
      next();
    });
  },
};
""".replace("GAP_MS", str(GAP_MS))

SETUP = f"""
import anywidget
import traitlets
from IPython.display import display
from milligan_widget.widget import MilliganWidget


class Ping(anywidget.AnyWidget):
    _esm = {PING_ESM!r}
    ping = traitlets.Int(0).tag(sync=True, echo_update=False)  # one message back, as the game
    pong = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("ping")
    def _answer(self, change):
        self.pong = change["new"]


ping = Ping()
from milligan_widget.analysis.cache import CHANCES
widget = MilliganWidget(seed=1, check_winnable=CHECK_WINNABLE)
display(ping, widget)
"""

ARM_DROP = """
([target, card]) => {
  const pile = document.querySelector(`.mw-root [data-pile="${target}"]`);
  const count = () => pile.querySelectorAll(`[data-card="${card}"]`).length;
  const before = count();
  window.__mmDrop = new Promise((resolve) => {
    let t0 = null;
    const stamp = () => { t0 = performance.now(); };
    window.addEventListener("pointerup", stamp, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (t0 !== null && count() > before) {
        observer.disconnect();
        resolve(performance.now() - t0);
      }
    });
    observer.observe(pile, { childList: true, subtree: true, attributes: true });
    setTimeout(() => resolve(null), 5000);
  });
}
"""

FULL_RENDER = """
(n) => {
  const root = document.querySelector(".mw-root");
  const times = [];
  for (let i = 0; i < n; i++) times.push(root.mmFullRender());
  return { times, cards: root.querySelectorAll(".mw-board [data-card]").length };
}
"""


def write_notebook(folder: Path, honest: bool = False) -> Path:
    setup = SETUP.replace("CHECK_WINNABLE", str(honest))
    source = setup.strip().splitlines(keepends=True)
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "bench", "metadata": {},
                   "outputs": [], "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    path = folder / "bench.ipynb"
    path.write_text(json.dumps(notebook))
    return path


def find_move(kernel: Kernel, after: str = "") -> dict[str, Any]:
    """A deal whose opening (after the moves ``after``, notation played from Python) has a
    column-to-column move; the move and its leading card."""
    for seed in range(1, 500):
        found = kernel.eval(
            f"(widget.new_game(seed={seed}), [widget.play(m) for m in {after.split()!r}],"
            f" {FIRST_TABLEAU_MOVE})[2]"
        )
        if found:
            source, target, card = found[0]
            return {"seed": seed, "source": source, "target": target, "card": card}
    raise RuntimeError("no deal with an opening tableau move")


class Frames:
    """Every websocket frame the page sends and receives (bytes kept as latin-1 text)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.received: list[str] = []

    def watch(self, ws: Any) -> None:
        ws.on("framesent", lambda payload: self.sent.append(_text(payload)))
        ws.on("framereceived", lambda payload: self.received.append(_text(payload)))


def _text(payload: str | bytes) -> str:
    return payload if isinstance(payload, str) else payload.decode("latin-1")


class Bench:
    def __init__(self, page: Any, kernel: Kernel, frames: Frames) -> None:
        self.page = page
        self.kernel = kernel
        self.sent = frames.sent
        self.received = frames.received
        self.render_ms: list[float] = []

    def floor(self, rounds: int) -> list[float]:
        return self.page.evaluate("(n) => window.__mmPing(n)", rounds)

    def drop(self, move: dict[str, Any]) -> tuple[float, list[int], list[int]]:
        """One real drag and drop; its time and the comm message sizes each way."""
        page = self.page
        page.evaluate(ARM_DROP, [move["target"], move["card"]])
        source = page.locator(f'.mw-root [data-pile="{move["source"]}"] [data-card]').last
        target = page.locator(f'.mw-root [data-pile="{move["target"]}"]')
        box, dest = source.bounding_box(), target.bounding_box()
        sent, received = len(self.sent), len(self.received)
        x, y = box["x"] + box["width"] / 2, box["y"] + 12
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 10, y + 8, steps=2)
        page.mouse.move(dest["x"] + dest["width"] / 2, dest["y"] + 30, steps=4)
        page.mouse.up()
        time.sleep(0.1)  # stay off the 2 cores while the page, server and kernel work
        elapsed = page.evaluate("window.__mmDrop")
        if elapsed is None:
            raise RuntimeError(f"the drop of {move} did not show in the DOM within 5 s")
        page.wait_for_timeout(150)  # let the tail of the exchange (idle status) arrive
        up = [len(f) for f in self.sent[sent:] if message_type(f) == "comm_msg"]
        down = [len(f) for f in self.received[received:] if message_type(f) == "comm_msg"]
        self.render_ms.append(float(page.locator(".mw-root").first.get_attribute("data-render-ms")))
        return elapsed, up, down

    def undo(self, moves: int = 1) -> None:
        """Take the last ``moves`` back from Python and wait until the layout shows it (and
        until the indicator's checks and the coach are done: the next drop starts from a
        quiet kernel)."""
        undo = ", ".join(["widget.undo()"] * moves)
        rev = self.kernel.eval(f"({undo}, widget.wait(60), widget.view['rev'])[-1]")
        self.page.locator(f'.mw-root[data-rev="{rev}"]').wait_for()
        self.page.wait_for_function("() => !document.querySelector('.mw-ghost')")
        self.page.wait_for_timeout(GAP_MS)  # quiet line before the next drop, as for the floor

    def full_render(self, rounds: int) -> dict[str, Any]:
        self.kernel.run("widget.new_game(seed=3)\nfor _ in range(12):\n    widget.deal()")
        self.page.wait_for_function(
            "() => document.querySelectorAll('.mw-root .mw-board [data-card]').length === 104"
        )
        return self.page.evaluate(FULL_RENDER, rounds)


def coached_drops(bench: Bench, rounds: int) -> dict[str, Any]:
    """Drops with the coach off and on, alternately, each made while a deal just played
    (from Python) is being judged when the coach is on."""
    move = find_move(bench.kernel, after="d d")  # the opening's deal is judged at once
    bench.kernel.eval(f"(widget.new_game(seed={move['seed']}), widget.play('d'), None)[-1]")
    bench.page.locator(".mw-root .mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    drops: dict[bool, list[float]] = {False: [], True: []}
    messages: dict[bool, set[int]] = {False: set(), True: set()}  # up per drop
    busy = 0  # rounds whose deal was still being judged once the drop had shown
    for i in range(2 * rounds + 2):  # the first pair warms up both paths
        coach = bool(i % 2)
        rev = bench.kernel.eval(
            f"(CHANCES.clear(), setattr(widget, 'coach', {coach}), widget.play('d'),"
            " widget.view['rev'])[-1]"
        )
        bench.page.locator(f'.mw-root[data-rev="{rev}"]').wait_for()
        bench.page.wait_for_timeout(GAP_MS)  # the dealt row has landed, as a player sees it
        elapsed, up, _ = bench.drop(move)
        if i >= 2:
            drops[coach].append(elapsed)
            messages[coach].add(len(up))
            busy += coach and not bench.kernel.eval("len(widget.coach_log)")
        bench.undo(moves=2)
    off, on = summary(drops[False]), summary(drops[True])
    ratios = [b / a for a, b in zip(drops[False], drops[True], strict=True)]
    return {
        "drop_to_dom_ms_coach_off": off,
        "drop_to_dom_ms_coach_on": on,
        "ratio_on_over_off": round(on["median"] / off["median"], 2),
        "deal_still_judged_after_the_drop": f"{busy} of {rounds}",
        "ratio_round_by_round": summary(ratios),
        # With the coach judging, a card picked up asks the kernel to hold the search.
        "messages_up_per_drop_coach_off": sorted(messages[False]),
        "messages_up_per_drop_coach_on": sorted(messages[True]),
    }


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 2),
        "p10": round(ordered[len(ordered) // 10], 2),
        "p90": round(ordered[(len(ordered) * 9) // 10], 2),
        "n": len(ordered),
    }


def run(rounds: int, honest: bool = False, coach: bool = False) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    check_prerequisites()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        server = start_lab(base / "lab", write_notebook(base, honest))
        try:
            with sync_playwright() as playwright:
                chromium = launch_chromium(playwright)
                page = chromium.new_page(viewport={"width": 1280, "height": 1400})
                frames = Frames()
                page.on("websocket", frames.watch)
                open_notebook(page, server, "bench.ipynb")
                kernel = Kernel(server.kernel_connection_file())
                bench = Bench(page, kernel, frames)
                result = coached_drops(bench, rounds) if coach else measure(bench, rounds)
                result["honest_indicator"] = honest
                kernel.close()
                chromium.close()
        finally:
            stop_lab(server)
    return result


def measure(bench: Bench, rounds: int) -> dict[str, Any]:
    move = find_move(bench.kernel)
    bench.page.locator(".mw-root .mw-board").evaluate("el => el.scrollIntoView({block: 'center'})")
    bench.floor(5)  # warm up both paths
    bench.drop(move)
    bench.undo()
    floors: list[float] = []
    drops: list[float] = []
    up: list[int] = []
    down: list[int] = []
    for _ in range(rounds):  # alternate, so load and drift hit both alike
        floors += bench.floor(1)
        time.sleep(GAP_MS / 1000)
        elapsed, sent, received = bench.drop(move)
        drops.append(elapsed)
        up.append(len(sent))
        down += received
        bench.undo()
    render = bench.full_render(30)
    floor, drop = summary(floors), summary(drops)
    return {
        "floor_ms": floor,
        "drop_to_dom_ms": drop,
        "ratio_drop_over_floor": round(drop["median"] / floor["median"], 2),
        "update_render_ms": summary(bench.render_ms),
        "full_render_104_cards_ms": summary(render["times"]) | {"cards": render["cards"]},
        "messages_up_per_drop": sorted(set(up)),
        "bytes_down_per_move": {"max": max(down), "median": statistics.median(down),
                                "messages": len(down), "drops": len(drops)},
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="drops (and round trips) to time")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--honest", action="store_true",
                        help='"Winnable?" on with peek off: the honest chance after each drop')
    parser.add_argument("--coach", action="store_true",
                        help="drops with the live coach off and on, side by side")
    args = parser.parse_args()
    result = run(max(5, args.rounds), args.honest, args.coach)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
