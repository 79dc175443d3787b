"""Play a built JupyterLite site in headless Chromium with no network: a check by hand.

    python tests/pyodide/browse_site.py SITE [NOTEBOOK] [--shots DIR]

It serves SITE (the output folder of ``jupyter lite build``, as docs/jupyterlite.md builds it)
on 127.0.0.1, opens NOTEBOOK (``play.ipynb``) in Debian's Chromium with every request to
another address refused, runs all cells, waits for the game, presses Hint, clicks the stock,
turns on "Winnable?" and waits for its verdict, and prints what it saw; screenshots go to
DIR. It exits 1 if the game did not answer or a request was refused. Not run by the test
suite (it takes a browser and a minute).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.browser.lab import CHROMIUM, CHROMIUM_ARGS
from tests.test_pyodide import serve

IDLE = re.compile(r"Python \(Pyodide\) \| Idle")
ANSWERED = (  # the hint's answer is in the game's message line
    "() => /Honest hint:|Solver:|Heuristic:/.test("
    "document.querySelector('.mw-root .mw-message')?.textContent || '')"
)


DECIDED = (  # the "still winnable?" indicator has a verdict
    "() => /winnable ✓|lost for good|unknown/.test("
    "document.querySelector('.mw-root .mw-verdict')?.textContent || '')"
)


def play(page, shots: Path, start: float) -> None:
    """Run all cells, then Hint and a click on the stock, with screenshots."""
    page.get_by_text(IDLE).first.wait_for(timeout=180_000)
    print(f"kernel idle after {time.monotonic() - start:.1f} s")
    page.locator(".jp-Notebook").first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    root = page.locator(".mw-root").first
    root.wait_for(timeout=180_000)
    print(f"game shown after {time.monotonic() - start:.1f} s")
    page.get_by_text(IDLE).first.wait_for(timeout=180_000)
    root.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "1-shown.png"))
    root.locator("[data-action=hint]").first.click()
    page.wait_for_function(ANSWERED, timeout=60_000)
    print("hint:", root.locator(".mw-message").first.text_content())
    page.screenshot(path=str(shots / "2-hint.png"))
    stock = root.locator("[data-pile=stock]")
    if stock.count():
        stock.first.click()
        page.wait_for_timeout(2000)
    root.get_by_label("Winnable?").check()
    page.wait_for_function(DECIDED, timeout=60_000)
    print("status:", " ".join((root.locator(".mw-status").first.text_content() or "").split()))
    page.screenshot(path=str(shots / "3-played.png"))


def main(argv: list[str] | None = None) -> int:
    """Check the site; 0 when the game answered and nothing left the machine."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("notebook", nargs="?", default="play.ipynb")
    parser.add_argument("--shots", type=Path, default=Path("."))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    refused: list[str] = []
    args.shots.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with serve(args.site.resolve()) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": 1400, "height": 1000})

        def route(request_route) -> None:
            url = request_route.request.url
            if url.startswith((base, "data:", "blob:")):
                request_route.continue_()
            else:
                refused.append(url)
                request_route.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.goto(f"{base}/lab/index.html?path={args.notebook}")
        try:
            play(page, args.shots, start)
        finally:
            browser.close()
    print(f"requests refused: {len(refused)}", *refused[:20], sep="\n  ")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
