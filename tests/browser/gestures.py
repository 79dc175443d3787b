"""What a player does with the real mouse and keys, and what they see meanwhile.

Shared by the browser tests of every host (JupyterLab, Notebook 7, marimo, Voilà): each
takes a Playwright page and locators, never a host's own objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .lab import ARTIFACTS, publish

GHOST_CARD = '[data-role="ghost"] .mw-card'
# True once no animation of the widget is running (the thinking spinner's endless one aside).
ANIMATIONS_DONE = """root => root.getAnimations({subtree: true})
  .every(a => a.playState !== 'running' || a.effect.getTiming().iterations > 1)"""
# Resolves after two frames: a ResizeObserver has then re-fitted the cards to a new width.
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Records every Web Animation a card starts: where the card was asked to slide from.
RECORD_ANIMATIONS = """
() => {
  if (window.__mwAnimations) { window.__mwAnimations.length = 0; return; }
  window.__mwAnimations = [];
  const original = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    if (this.dataset && this.dataset.card) {
      const box = this.getBoundingClientRect();
      window.__mwAnimations.push({
        card: this.dataset.card,
        pile: this.closest("[data-pile]")?.dataset.pile ?? null,
        x: box.x, y: box.y,
        from: Array.isArray(keyframes) ? String(keyframes[0].transform) : null,
      });
    }
    return original.call(this, keyframes, options);
  };
}
"""


class GameOnPage:
    """Locators for the first game on a page; a host's test object (JupyterLab, Notebook 7,
    marimo, Voilà) gives ``page``."""

    page: Any

    @property
    def widget(self) -> Any:
        """The first game on the page (the one the tests drive)."""
        return self.page.locator(".mw-root").first

    def pile(self, name: str) -> Any:
        return self.widget.locator(f'[data-pile="{name}"]')

    def stat(self, name: str) -> Any:
        return self.widget.locator(f'[data-stat="{name}"]')

    def message(self) -> Any:
        return self.widget.locator('[data-role="message"]')

    def screenshot(self, name: str) -> Path:
        return screenshot(self.page, self.widget, name)


def settle(page: Any, widget: Any) -> None:
    """Wait until the widget has re-fitted itself to its width and no card is in flight."""
    page.evaluate(NEXT_FRAMES)
    page.wait_for_function(ANIMATIONS_DONE, arg=widget.element_handle())


def screenshot(page: Any, widget: Any, name: str) -> Path:
    """The widget alone, once its animations are over (inside a shadow root too), saved in
    test-artifacts/ (and in docs/ for the README's pictures, with MILLIGAN_DOCS=1)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    widget.evaluate("el => el.scrollIntoView({block: 'start'})")
    settle(page, widget)
    widget.screenshot(path=str(path))
    publish(path)
    return path


@dataclass
class GhostReading:
    """Where the pointer was and where the dragged copy was drawn, mid-drag."""

    pointer: tuple[float, float]
    ghost: tuple[float, float]
    grip: tuple[float, float]  # where on the card the player took hold of it

    @property
    def error(self) -> tuple[float, float]:
        """How far the copy is from where the player holds it (0, 0 is perfect)."""
        return (
            self.ghost[0] + self.grip[0] - self.pointer[0],
            self.ghost[1] + self.grip[1] - self.pointer[1],
        )


def centre(box: dict[str, float], dy: float | None = None) -> tuple[float, float]:
    y = box["y"] + (box["height"] / 2 if dy is None else dy)
    return box["x"] + box["width"] / 2, y


def settled_box(card: Any) -> Any:
    """``card``'s box once the layout holds still (alike in two frames running): a panel of
    the host collapsing, or a scroll, may still be moving it when a test goes on."""
    box = card.bounding_box()
    for _ in range(30):
        card.page.evaluate(NEXT_FRAMES)
        again = card.bounding_box()
        if again == box:
            break
        box = again
    return box


def press(page: Any, card: Any, grip: tuple[float, float] = (0.5, 12)) -> tuple[float, float]:
    """Press the mouse on ``card`` where it is once the layout holds still: ``grip`` is
    (fraction of its width, px from its top)."""
    box = settled_box(card)
    x, y = box["x"] + box["width"] * grip[0], box["y"] + grip[1]
    page.mouse.move(x, y)
    page.mouse.down()
    return x - box["x"], y - box["y"]


def read_ghost(page: Any, pointer: tuple[float, float], grip: tuple[float, float]) -> GhostReading:
    box = page.locator(GHOST_CARD).first.bounding_box()
    assert box is not None, "no dragged copy (data-role=ghost) on screen mid-drag"
    return GhostReading(pointer, (box["x"], box["y"]), grip)


def drag_and_read(page: Any, card: Any, to: tuple[float, float], steps: int = 8) -> GhostReading:
    """Start a real drag of ``card`` towards ``to`` and read the copy; the button stays down."""
    grip = press(page, card)
    box = card.bounding_box()
    start = (box["x"] + grip[0], box["y"] + grip[1])
    page.mouse.move(start[0] + 12, start[1] + 9, steps=3)
    page.mouse.move(*to, steps=steps)
    return read_ghost(page, to, grip)


def drag(page: Any, card: Any, target: Any) -> None:
    """Drag ``card`` (and what lies on it) with the real mouse onto ``target``."""
    card.evaluate("el => el.scrollIntoView({block: 'center', inline: 'nearest'})")
    dest = target.bounding_box()
    to = dest["x"] + dest["width"] / 2, dest["y"] + min(dest["height"] - 10, 40)
    grip = press(page, card)
    box = card.bounding_box()
    page.mouse.move(box["x"] + grip[0] + 10, box["y"] + grip[1] + 8, steps=3)
    page.mouse.move(*to, steps=8)
    page.mouse.up()


def click_click(card: Any, target: Any) -> None:
    """Click a card, then the pile it should go to."""
    card.click()
    target.click(position={"x": 20, "y": 20})


def focused(widget: Any) -> dict[str, Any] | None:
    """The element with the keyboard focus inside ``widget`` (a shadow root too): its pile,
    card and tag."""
    return widget.evaluate(
        """root => {
          const el = root.getRootNode().activeElement;
          if (!el || !root.contains(el)) return null;
          return {pile: el.closest('[data-pile]')?.dataset.pile ?? null,
                  card: el.dataset.card ?? null, tag: el.tagName};
        }"""
    )


def recorded_animations(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.__mwAnimations ?? []")


def parse_translate(text: str) -> tuple[float, float]:
    """(dx, dy) of a CSS ``translate(12px, -3.5px)``."""
    inner = text[text.index("(") + 1 : text.index(")")]
    dx, dy = (float(part.strip().removesuffix("px")) for part in inner.split(","))
    return dx, dy


BACKGROUND = "el => getComputedStyle(el).backgroundColor"


def rgb(colour: str) -> tuple[int, ...]:
    """(r, g, b) of a CSS colour as the browser computes it, or of ``#rrggbb``."""
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", colour)[:3])


def luminance(colour: str) -> float:
    r, g, b = rgb(colour)
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
