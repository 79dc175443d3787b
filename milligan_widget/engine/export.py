"""A game as one self-contained HTML page that works offline: the position as a picture, the
moves in words with their comments, and a replay viewer (first / back / next / last, a slider,
the arrow keys) in plain inline JavaScript, with no server, no CDN and no request at all.

>>> from milligan_widget import Game
>>> game = Game.new(27)
>>> _ = game.play("d")
>>> page = to_html(game)
>>> page.startswith("<!DOCTYPE html>"), "Deal a row of 8 cards" in page
(True, True)

Every position along the line of play is drawn by :func:`~milligan_widget.engine.render.html_layout`
(the notebook's static picture). The pictures share most of their markup, so the page keeps
each distinct piece of it once and every position as a list of pieces: the first 200 moves of
the solver's win of deal 7 make a page of 128 kB (11 kB gzipped), where the 201 pictures side
by side would take 1 MB.

Only what the player saw is in the page: each picture shows the stock as a count, never its
order (two games that differ only in the cards still to deal give the same page). Every text
is escaped, comments included; the data sits in a JSON block that cannot close its
``<script>``, and a Content-Security-Policy lets only the viewer's own script run and forbids
every fetch.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from html import escape
from typing import TYPE_CHECKING

from .render import html_layout
from .version import __version__

if TYPE_CHECKING:
    from .game import Game

#: The page's markup is split before each ``<div``: the pieces join back to the very picture.
_PIECE = re.compile(r"(?=<div[\s>])")
_STYLE = re.compile(r"<style>.*?</style>", re.S)

_PAGE_CSS = """
body{font-family:system-ui,sans-serif;margin:16px;color:#1b1b1b;background:#fafafa}
h1{font-size:1.25rem;margin:0 0 8px}
.mm-page{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.mm-controls{display:flex;gap:6px;align-items:center;margin:8px 0;flex-wrap:wrap}
.mm-controls[hidden]{display:none}
.mm-controls button{font-size:.95rem;padding:4px 10px}
.mm-controls input{width:min(240px,50vw)}
#mm-caption{margin:6px 0;max-width:560px;min-height:1.4em}
#mm-moves{position:relative;max-height:80vh;overflow:auto;margin:0;padding:4px;list-style:none;
  flex:1 1 280px;max-width:460px;background:#fff;border:1px solid #ccc;border-radius:6px}
#mm-moves li{padding:2px 4px;border-radius:4px}
#mm-moves li.mm-current{background:#ffe9a8}
.mm-js #mm-moves li{cursor:pointer}
.mm-note{display:block;color:#5a4a00;font-style:italic;white-space:pre-wrap}
#mm-extra{max-width:1000px;margin:0 0 12px}
"""

# The viewer: plain JavaScript, no library. It reads the pieces from the JSON block and shows
# a position by joining its pieces (markup made and escaped by render.py).
_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mm-data").textContent);
  var pieces = data.pieces, plies = data.plies, last = plies.length - 1;
  var board = document.getElementById("mm-board");
  var slider = document.getElementById("mm-slider");
  var where = document.getElementById("mm-where");
  var caption = document.getElementById("mm-caption");
  var list = document.getElementById("mm-moves");
  var items = list.querySelectorAll("li");
  var extra = document.getElementById("mm-extra");
  var buttons = {};
  var shown = -1;
  ["first", "back", "next", "last"].forEach(function (name) {
    buttons[name] = document.getElementById("mm-" + name);
  });

  function words(n) {
    var item = items[n], note = item.querySelector(".mm-note");
    var text = item.querySelector(".mm-words").textContent;
    return note ? text + " \\u2014 " + note.textContent : text;
  }

  function keepInView(item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) {
      list.scrollTop = top;
    } else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }

  function show(n) {
    n = Math.max(0, Math.min(last, n));
    if (n === shown) return;
    board.innerHTML = plies[n].map(function (i) { return pieces[i]; }).join("");
    if (shown >= 0) {
      items[shown].classList.remove("mm-current");
      items[shown].removeAttribute("aria-current");
    }
    items[n].classList.add("mm-current");
    items[n].setAttribute("aria-current", "step");
    shown = n;
    slider.value = String(n);
    where.textContent = "move " + n + " of " + last;
    caption.textContent = words(n);
    buttons.first.disabled = buttons.back.disabled = n === 0;
    buttons.next.disabled = buttons.last.disabled = n === last;
    keepInView(items[n]);  // last: the caption above may change the list's width
    try { history.replaceState(null, "", "#ply=" + n); } catch (e) { /* not allowed here */ }
  }

  buttons.first.addEventListener("click", function () { show(0); });
  buttons.back.addEventListener("click", function () { show(shown - 1); });
  buttons.next.addEventListener("click", function () { show(shown + 1); });
  buttons.last.addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  list.addEventListener("click", function (event) {
    var item = event.target.closest("li[data-ply]");
    if (item) show(Number(item.getAttribute("data-ply")));
  });
  if (extra) {
    extra.addEventListener("click", function (event) {  // e.g. a point of a review's chart
      var mark = event.target.closest("[data-ply]");
      if (!mark) return;
      // A mark standing for several moves (data-plies) goes to each in turn.
      var plies = (mark.getAttribute("data-plies") || "").split(" ").filter(Boolean).map(Number);
      if (plies.length < 2) return show(Number(mark.getAttribute("data-ply")));
      show(plies[(plies.indexOf(shown) + 1) % plies.length]);
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target === slider) return;
    var step = {ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: last}[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(step);
  });

  slider.max = String(last);
  document.getElementById("mm-controls").hidden = false;
  document.documentElement.classList.add("mm-js");
  var asked = /^#ply=(\\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) : data.start);
}());
"""


def to_html(
    game: Game,
    path: str | os.PathLike[str] | None = None,
    *,
    extra_html: str | None = None,
) -> str:
    """One self-contained HTML page of ``game``: its position after every move, the moves in
    words with their comments, and a replay viewer that needs no server and no network. It
    holds the moves played to the position the game is in (not the undone ones to redo) and
    opens on that position; ``#ply=N`` at the end of its address opens it on move N. With
    ``path``, the page is also written there (atomically, as UTF-8). :meth:`Game.to_html`
    calls this.

    ``extra_html`` is markup put above the viewer as it is (the caller escapes its texts; no
    script in it runs, the page's policy forbids it): the analysis puts a review's chart
    there (``Review.to_html``). Clicking an element of it with ``data-ply="N"`` shows move N.

    >>> from milligan_widget import Game
    >>> game = Game.new(5)
    >>> _ = game.play("d"); game.set_comment("<b>bold?</b>")
    >>> page = to_html(game)
    >>> "<b>bold?" in page, "&lt;b&gt;bold?&lt;/b&gt;" in page
    (False, True)
    """
    steps = _steps(game)
    style, pieces, plies = _pictures([picture for _, picture in steps])
    page = _page(game, steps, style, pieces, plies, extra_html)
    if path is not None:
        from .savefile import write_atomic

        write_atomic(path, page)
    return page


def _steps(game: Game) -> list[tuple[str, str]]:
    """For the deal and then each move: the words for it, and the picture after it."""
    step = game.copy()  # walked from the deal, so that each picture names the deal and move
    step.restart()
    steps = [("The deal", html_layout(step))]
    for move in game.history:
        text = step.describe(move)
        step.play(move)
        steps.append((text[:1].upper() + text[1:], html_layout(step)))
    return steps


def _pictures(pictures: list[str]) -> tuple[str, list[str], list[list[int]]]:
    """The style block the pictures share (once), every distinct piece of their markup, and
    each picture as the indices of its pieces."""
    first = _STYLE.match(pictures[0])
    style = first.group(0) if first else ""
    if not all(picture.startswith(style) for picture in pictures):
        style = ""
    index: dict[str, int] = {}
    plies = [
        [
            index.setdefault(piece, len(index))
            for piece in _PIECE.split(picture[len(style) :])
            if piece
        ]
        for picture in pictures
    ]
    return style, list(index), plies


def _json_for_script(value: object) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` at all (so no
    ``</script>`` or ``<!--``), and ASCII only (so no line separators either)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _moves_list(game: Game, steps: list[tuple[str, str]]) -> str:
    comments, current = game.comments, len(steps) - 1
    items = []
    for ply, (words, _) in enumerate(steps):
        label = escape(_label(ply, words))
        note = comments.get(ply)
        extra = f'<span class="mm-note">{escape(note)}</span>' if note else ""
        mark = ' class="mm-current" aria-current="step"' if ply == current else ""
        items.append(
            f'<li data-ply="{ply}"{mark}><span class="mm-words">{label}</span>{extra}</li>'
        )
    return f'<ol id="mm-moves" start="0" aria-label="Moves">{"".join(items)}</ol>'


def _label(ply: int, words: str) -> str:
    return words if ply == 0 else f"{ply}. {words}"


def _title(game: Game) -> str:
    rules = game.rules.name or "custom rules"
    deal = f"deal {game.seed}" if game.seed is not None else "a custom deal"
    return f"Miss Milligan, {deal} ({rules}), {game.ply} moves, {game.status}"


def _page(
    game: Game,
    steps: list[tuple[str, str]],
    style: str,
    pieces: list[str],
    plies: list[list[int]],
    extra_html: str | None = None,
) -> str:
    script_hash = base64.b64encode(hashlib.sha256(_SCRIPT.encode("utf-8")).digest()).decode()
    policy = (
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
        f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'"
    )
    data = _json_for_script({"pieces": pieces, "plies": plies, "start": len(plies) - 1})
    last, last_picture = len(steps) - 1, steps[-1][1]
    caption = _label(last, steps[-1][0])
    if game.comments.get(last):
        caption = f"{caption} — {game.comments[last]}"
    title = escape(_title(game))
    extra = f'<section id="mm-extra">{extra_html}</section>' if extra_html else ""
    controls = (
        '<div class="mm-controls" id="mm-controls" hidden>'
        '<button type="button" id="mm-first" title="The deal (Home)">« First</button>'
        '<button type="button" id="mm-back" title="One move back (←)">‹ Back</button>'
        '<input type="range" id="mm-slider" min="0" value="0" aria-label="Move">'
        '<button type="button" id="mm-next" title="One move on (→)">Next ›</button>'
        '<button type="button" id="mm-last" title="The last move (End)">Last »</button>'
        '<span id="mm-where"></span></div>'
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="milligan-widget {escape(__version__)}">'
        f'<link rel="icon" href="data:,"><title>{title}</title>'
        f"<style>{_PAGE_CSS}</style>{style}</head>\n<body><h1>{title}</h1>"
        f"{extra}"
        f'<div class="mm-page"><div class="mm-viewer">{controls}'
        f'<div id="mm-board">{last_picture[len(style) :]}</div>'
        f'<p id="mm-caption" aria-live="polite">{escape(caption)}</p></div>'
        f"{_moves_list(game, steps)}</div>\n"
        f'<script type="application/json" id="mm-data">{data}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body></html>\n"
    )
