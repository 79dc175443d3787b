"""The chart of a review as one self-contained SVG: the honest chance over the moves.

The honest chance before each move is a line with its 95% interval as a band; under it, a
strip gives the thoughtful verdict (winnable: solid, unwinnable: hatched, unknown: dotted, so
it reads without colour too); the deals are ticks on the move axis, the turning point a
dashed line with its label, the flagged moves triangles along the top (by how much they cost:
a blunder large and red, a mistake filled, an inaccuracy hollow; marks that would touch are
drawn as one, with their count). Every point is a
``<g class="mm-point" data-ply="N">`` (N moves played: the position the point is about, the
export page's ``#ply=N``) with a ``<title>`` tooltip, so a front end can make it clickable.
No plotting library, no script; every text is escaped.

A long review is thinned: at most :data:`MAX_POINTS` points (every k-th move, the first and
last, and both sides of the turning point), flag marks at least :data:`MARK_GAP` pixels apart
(:func:`flag_groups`) and at most :data:`MAX_DEALS` deal ticks: a review of any length makes a
chart of at most about 180 kB (23 kB gzipped; ``python benchmarks/chart.py`` measures it).

>>> from milligan_widget.analysis import Chance, Review, ReviewEntry
>>> done = Review((ReviewEntry(0, "d", "winnable", Chance(5, 8)),), "unwinnable")
>>> svg = review_svg(done, theme="dark")
>>> svg.startswith("<svg"), 'data-ply="0"' in svg, "62% of 8 sampled stocks win" in svg
(True, True, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from milligan_widget.search.solver import UNWINNABLE, WINNABLE

from .flags import SEVERITY
from .words import flag_words, move_name, turning_point_words

if TYPE_CHECKING:
    from .evaluate import Chance
    from .flags import Flag
    from .review import Review, ReviewEntry

MAX_POINTS = 400  #: the most points a chart draws (a longer review is thinned)
MARK_GAP = 16  #: the least room (px) between two flag marks: nearer ones make one mark
TITLE_FLAGS = 4  #: the most flagged moves a mark's tooltip lists one by one
MAX_DEALS = 100  #: the most deal ticks a chart draws (a classic game deals 12 rows)
THEMES = ("light", "dark", "auto")

_LIGHT = {
    "bg": "#ffffff", "fg": "#1f1f1f", "dim": "#5c5c5c", "grid": "#e2e2e2",
    "line": "#1976d2", "band": "rgba(25,118,210,0.18)", "win": "#2e7d32",
    "lose": "#c62828", "unknown": "#8d8d8d", "mistake": "#b26a00",
}  # fmt: skip
_DARK = {
    "bg": "#1d1f21", "fg": "#e4e4e4", "dim": "#a9a9a9", "grid": "#3a3d42",
    "line": "#64b5f6", "band": "rgba(100,181,246,0.25)", "win": "#66bb6a",
    "lose": "#ef5350", "unknown": "#8a8a8a", "mistake": "#ffb74d",
}  # fmt: skip
#: In "auto", JupyterLab's own colours where they exist (its theme, whatever the system's).
_JUPYTER = {
    "bg": "--jp-layout-color1", "fg": "--jp-ui-font-color1", "dim": "--jp-ui-font-color2",
    "grid": "--jp-border-color2", "line": "--jp-brand-color1", "win": "--jp-success-color1",
    "lose": "--jp-error-color1", "mistake": "--jp-warn-color1",
}  # fmt: skip
_VERDICT_WORDS = {WINNABLE: "winnable", UNWINNABLE: "unwinnable"}

_CSS = """
.{u}{{font:11px system-ui,-apple-system,"Segoe UI",sans-serif;max-width:100%;height:auto}}
.{u} .mm-bg{{fill:var(--mmr-bg)}}
.{u} text{{fill:var(--mmr-fg)}}
.{u} .mm-dim{{fill:var(--mmr-dim)}}
.{u} .mm-grid{{stroke:var(--mmr-grid);stroke-width:1}}
.{u} .mm-axis{{stroke:var(--mmr-dim);stroke-width:1}}
.{u} .mm-band{{fill:var(--mmr-band);stroke:none}}
.{u} .mm-line{{fill:none;stroke:var(--mmr-line);stroke-width:1.8;stroke-linejoin:round}}
.{u} .mm-point circle{{fill:var(--mmr-line);stroke:var(--mmr-bg);stroke-width:.8}}
.{u} .mm-point circle{{pointer-events:none}}
.{u} .mm-point .mm-hit{{fill:transparent}}
.{u} .mm-point:hover circle{{stroke:var(--mmr-fg);stroke-width:1.5}}
.{u} .mm-point:hover .mm-hit{{fill:var(--mmr-grid);fill-opacity:.5}}
.{u} [data-ply]{{cursor:pointer}}
.{u} .mm-deal{{stroke:var(--mmr-dim);stroke-width:1.5}}
.{u} .mm-deal-grid{{stroke:var(--mmr-dim);stroke-width:1;stroke-dasharray:1 3}}
.{u} .mm-turn line{{stroke:var(--mmr-lose);stroke-width:1.5;stroke-dasharray:5 3}}
.{u} .mm-turn circle{{fill:none;stroke:var(--mmr-lose);stroke-width:2}}
.{u} .mm-turn text{{fill:var(--mmr-lose);font-weight:600}}
.{u} .mm-flag path{{fill:var(--mmr-mistake);stroke:var(--mmr-bg);stroke-width:.6}}
.{u} .mm-flag[data-label="blunder"] path{{fill:var(--mmr-lose)}}
.{u} .mm-flag[data-label="inaccuracy"] path{{fill:var(--mmr-bg);stroke:var(--mmr-mistake);
stroke-width:1.4}}
.{u} .mm-count{{font-size:9px;font-weight:600}}
.{u} .mm-winnable{{fill:var(--mmr-win)}}
.{u} .mm-unwinnable{{fill:url(#{u}-hatch)}}
.{u} .mm-unknown{{fill:url(#{u}-dots)}}
.{u} .mm-hatch-bg{{fill:var(--mmr-lose)}}
.{u} .mm-hatch-line{{stroke:var(--mmr-bg);stroke-width:1.6}}
.{u} .mm-dots-bg{{fill:var(--mmr-bg)}}
.{u} .mm-dot{{fill:var(--mmr-unknown)}}
.{u} .mm-cell-edge{{fill:none;stroke:var(--mmr-unknown);stroke-width:.6}}
"""


@dataclass(frozen=True)
class Frame:
    """Where things go: the plot's box, the verdict strip and the axis below it."""

    width: int
    count: int  # the positions on the move axis: every entry and the one after the last move
    left: float = 56
    right: float = 16
    top: float = 30
    plot_height: float = 150

    @property
    def bottom(self) -> float:
        return self.top + self.plot_height

    @property
    def strip(self) -> float:
        return self.bottom + 6

    @property
    def axis(self) -> float:
        return self.strip + 14

    @property
    def legend(self) -> float:
        return self.axis + 50

    @property
    def cell(self) -> float:
        return (self.width - self.left - self.right) / max(1, self.count)

    def x(self, ply: float) -> float:
        return self.left + (ply + 0.5) * self.cell

    def y(self, p: float) -> float:
        return self.bottom - p * self.plot_height


def review_svg(
    review: Review,
    *,
    theme: str = "auto",
    width: int = 720,
    comments: Mapping[int, str] | None = None,
) -> str:
    """The chart of ``review`` as an SVG string that needs nothing else (see the module).

    ``theme`` is "light", "dark" or "auto" (JupyterLab's colours where they exist, else the
    system's light or dark preference); ``width`` is in pixels (320 to 4,000; the chart
    scales down to its container). ``comments`` (``Game.comments``: ply 1 = the first move)
    are added to the tooltips."""
    _check(review, theme, width)
    entries = review.entries
    frame = Frame(width, len(entries) + 1)
    kept = thinned(len(entries), review.turning_point)
    legend, height = _legend(frame)
    parts = [
        f'<rect class="mm-bg" width="{width}" height="{height:g}"/>',
        _grid(frame),
        _deals(frame, entries),
        _band_and_line(frame, entries, kept),
        _strip(frame, review, kept),
        _axis(frame, len(entries)),
        _turning_point(frame, review),
        _points(frame, entries, kept, comments or {}),
        _flags(frame, review),  # above the points' hit areas: a click on a flag is the flag's
        legend,
        "" if entries else _empty_note(frame),
    ]
    body = "".join(parts)
    uid = _uid(body, theme)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mm-review-chart {uid}" '
        f'data-theme="{theme}" viewBox="0 0 {width} {height:g}" width="{width}" '
        f'height="{height:g}" role="img" aria-labelledby="{uid}-title">'
        f'<title id="{uid}-title">{escape(_chart_title(review))}</title>'
        f"{_style(uid, theme)}{_defs(uid)}{body}</svg>"
    )


def thinned(count: int, turning_point: int | None = None) -> list[int]:
    """The entries a chart of ``count`` entries draws: all of them up to :data:`MAX_POINTS`,
    else every k-th one with the first, the last and both sides of the turning point.

    >>> len(thinned(2000)), thinned(2000)[:3], [p for p in thinned(2000, 57) if 50 < p < 62]
    (398, [0, 5, 10], [51, 56, 57, 58, 61])
    """
    if count <= MAX_POINTS:
        return list(range(count))
    must = {0, count - 1}
    if turning_point is not None:
        must |= {turning_point, min(count - 1, turning_point + 1)}
    room = MAX_POINTS - len(must)
    spaced = {round(k * (count - 1) / (room - 1)) for k in range(room)}
    return sorted(spaced | must)


# ----------------------------------------------------------------------------- checks, style


def _check(review: Review, theme: str, width: int) -> None:
    if not all(hasattr(review, name) for name in ("entries", "turning_point", "final_verdict")):
        raise ValueError(
            f"review_svg draws a Review (analysis.review), not {type(review).__name__}"
        )
    if theme not in THEMES:
        raise ValueError(f"theme must be 'light', 'dark' or 'auto', not {theme!r}")
    if isinstance(width, bool) or not isinstance(width, int) or not 320 <= width <= 4000:
        raise ValueError(f"width must be a whole number of pixels from 320 to 4000, not {width!r}")


def _uid(body: str, theme: str) -> str:
    """An id of the chart's own, so that two charts on one page keep their own patterns (the
    same chart drawn twice gets the same id: its patterns are the same too)."""
    digest = hashlib.sha1(f"{theme}{body}".encode(), usedforsecurity=False)
    return "mmr" + digest.hexdigest()[:10]


def _variables(colours: Mapping[str, str], jupyter: bool) -> str:
    def value(name: str, colour: str) -> str:
        return f"var({_JUPYTER[name]},{colour})" if jupyter and name in _JUPYTER else colour

    return ";".join(f"--mmr-{name}:{value(name, colour)}" for name, colour in colours.items())


def _style(uid: str, theme: str) -> str:
    if theme == "auto":
        colours = (
            f".{uid}{{{_variables(_LIGHT, True)}}}"
            f"@media (prefers-color-scheme: dark){{.{uid}{{{_variables(_DARK, True)}}}}}"
        )
    else:
        colours = f".{uid}{{{_variables(_LIGHT if theme == 'light' else _DARK, False)}}}"
    css = _CSS.format(u=uid).replace("\n", "")
    return f"<style>{colours}{css}</style>"


def _defs(uid: str) -> str:
    return (
        "<defs>"
        f'<pattern id="{uid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect class="mm-hatch-bg" width="6" height="6"/>'
        '<line class="mm-hatch-line" x1="0" y1="0" x2="0" y2="6"/></pattern>'
        f'<pattern id="{uid}-dots" width="5" height="5" patternUnits="userSpaceOnUse">'
        '<rect class="mm-dots-bg" width="5" height="5"/>'
        '<circle class="mm-dot" cx="2.5" cy="2.5" r="1.1"/></pattern>'
        "</defs>"
    )


# ----------------------------------------------------------------------------- the parts


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _grid(frame: Frame) -> str:
    lines, x0, x1 = [], _f(frame.left), _f(frame.width - frame.right)
    for percent in (0, 25, 50, 75, 100):
        y = _f(frame.y(percent / 100))
        lines.append(f'<line class="mm-grid" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>')
        lines.append(
            f'<text class="mm-dim" x="{_f(frame.left - 6)}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle">{percent}%</text>'
        )
    middle = _f(frame.y(0.5))
    lines.append(
        f'<text x="14" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">honest chance to win</text>'
    )
    return "".join(lines)


def _deals(frame: Frame, entries: Sequence[ReviewEntry]) -> str:
    """A tick on the move axis (and a faint line up the plot) at each deal."""
    marks = []
    for entry in [entry for entry in entries if entry.move == "d"][:MAX_DEALS]:
        x = _f(frame.x(entry.ply))
        marks.append(
            f'<line class="mm-deal-grid" x1="{x}" y1="{_f(frame.top)}" x2="{x}" '
            f'y2="{_f(frame.bottom)}"/><line class="mm-deal" data-deal="{entry.ply}" '
            f'x1="{x}" y1="{_f(frame.axis)}" x2="{x}" y2="{_f(frame.axis + 7)}">'
            f"<title>move {entry.ply + 1}: a row dealt</title></line>"
        )
    return "".join(marks)


def _runs(values: Sequence[int], present: Sequence[bool]) -> list[list[int]]:
    """``values`` split where ``present`` is false: the stretches to join with a line."""
    runs: list[list[int]] = [[]]
    for value, here in zip(values, present, strict=True):
        if here:
            runs[-1].append(value)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def drawn(entry: ReviewEntry) -> Chance | None:
    """The chance a chart draws for ``entry``: none where it was not measured or where the
    solver decided no sample (a point there would say a chance nobody knows)."""
    return entry.chance if entry.chance is not None and entry.chance.known else None


def _band_and_line(frame: Frame, entries: Sequence[ReviewEntry], kept: Sequence[int]) -> str:
    """The interval as a band and the chance as a line, broken where a chance is missing."""
    parts = []
    for run in _runs(kept, [drawn(entries[i]) is not None for i in kept]):
        chances = [(i, drawn(entries[i])) for i in run]
        tops = [f"{_f(frame.x(i))},{_f(frame.y(c.high))}" for i, c in chances if c]
        lows = [f"{_f(frame.x(i))},{_f(frame.y(c.low))}" for i, c in reversed(chances) if c]
        line = [f"{_f(frame.x(i))},{_f(frame.y(c.p))}" for i, c in chances if c]
        if len(run) == 1:  # one point: its interval as a bar
            parts.append(f'<polyline class="mm-line" points="{tops[0]} {lows[0]}"/>')
            continue
        parts.append(f'<polygon class="mm-band" points="{" ".join(tops + lows)}"/>')
        parts.append(f'<polyline class="mm-line" points="{" ".join(line)}"/>')
    return "".join(parts)


def _strip(frame: Frame, review: Review, kept: Sequence[int]) -> str:
    """The thoughtful verdict along the moves: one cell per run of equal verdicts."""
    verdicts = [entry.verdict for entry in review.entries] + [review.final_verdict]
    starts = [*kept, len(review.entries)]
    cells, first = [], 0
    for k, start in enumerate(starts):
        last = k + 1 == len(starts)
        if last or verdicts[starts[k + 1]] != verdicts[start]:
            end = len(verdicts) if last else starts[k + 1]
            cells.append(_cell(frame, starts[first], end, verdicts[start], len(review.entries)))
            first = k + 1
    return "".join(cells)


def _cell(frame: Frame, start: int, end: int, verdict: str, moves: int) -> str:
    x0, x1 = frame.x(start - 0.5), frame.x(end - 0.5)
    word = _VERDICT_WORDS.get(verdict, "unknown")
    if start >= moves:
        where = "after the last move"
    elif end - 1 >= moves:
        where = f"from move {start + 1} to the end"
    else:
        where = f"move {start + 1}" if end - start == 1 else f"moves {start + 1}–{end}"
    return (
        f'<rect class="mm-{word}" data-verdict="{word}" x="{_f(x0)}" y="{_f(frame.strip)}" '
        f'width="{_f(x1 - x0)}" height="10"><title>{where}: {word} (the solver, which knows '
        f"the stock)</title></rect>"
    )


def _axis(frame: Frame, moves: int) -> str:
    x0, x1, y = _f(frame.left), _f(frame.width - frame.right), _f(frame.axis)
    parts = [f'<line class="mm-axis" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>']
    for move in _move_ticks(moves, frame.width):
        x = _f(frame.x(move - 1))
        parts.append(
            f'<text class="mm-dim" x="{x}" y="{_f(frame.axis + 18)}" '
            f'text-anchor="middle">{move}</text>'
        )
    parts.append(
        f'<text x="{x1}" y="{_f(frame.axis + 32)}" text-anchor="end">'
        "move (the chance before it)</text>"
    )
    return "".join(parts)


def _move_ticks(moves: int, width: int) -> list[int]:
    """Move numbers to label: 1 and round steps, no more than one per ~70 pixels."""
    most = max(2, width // 70)
    step = next(
        (s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
         if moves / s <= most),
        10_000,
    )  # fmt: skip
    ticks = [1] + [m for m in range(step, moves + 1, step) if m - 1 >= step / 2]
    return ticks if moves else []


def _turning_point(frame: Frame, review: Review) -> str:
    turn = review.turning_point
    if turn is None:
        return ""
    entry = review.entries[turn]
    x = frame.x(turn + 0.5)  # between the last winnable position and the first lost one
    label = f"move {turn + 1}: {move_name(entry.move)} — no win after it"
    fits = x + 4 + 6.6 * len(label) <= frame.width - 2  # ~6.6 px a character, bold
    anchor, dx = ("start", 4) if fits else ("end", -4)
    chance = drawn(entry)
    ring = ""
    if chance is not None:
        ring = f'<circle cx="{_f(frame.x(turn))}" cy="{_f(frame.y(chance.p))}" r="5"/>'
    return (
        f'<g class="mm-turn" data-ply="{turn}"><title>{escape(turning_point_words(review))}</title>'
        f'<line x1="{_f(x)}" y1="{_f(frame.top - 4)}" x2="{_f(x)}" y2="{_f(frame.strip + 10)}"/>'
        f'{ring}<text x="{_f(x + dx)}" y="{_f(frame.top - 8)}" text-anchor="{anchor}">'
        f"{escape(label)}</text></g>"
    )


def flag_groups(plies: Sequence[int], positions: int, width: int = 720) -> list[list[int]]:
    """The flagged ``plies`` in groups drawn as one mark each: a group holds the plies less
    than :data:`MARK_GAP` pixels right of its first one, on a chart ``width`` wide of
    ``positions`` positions (every move and the one after the last). The widget's chart
    (js/src/chart.ts) draws the groups this makes for its 720 units.

    >>> flag_groups([40, 3, 4, 90], positions=101)
    [[3, 4], [40], [90]]
    """
    frame = Frame(width, positions)
    groups: list[list[int]] = []
    for ply in sorted(plies):
        if groups and frame.x(ply) - frame.x(groups[-1][0]) < MARK_GAP:
            groups[-1].append(ply)
        else:
            groups.append([ply])
    return groups


def _flag_path(label: str, x: float, top: float) -> str:
    """A flag mark's triangle, pointing down at the move: a blunder's larger."""
    if label == "blunder":
        return f"M{_f(x - 5.5)} {_f(top - 4)}h11l-5.5 10z"
    return f"M{_f(x - 4)} {_f(top - 2)}h8l-4 7z"


def _flags(frame: Frame, review: Review) -> str:
    """A mark per group of flagged moves (:func:`flag_groups`): the shape of the costliest,
    every move of the group in its tooltip, and their count beside it."""
    flags = {flag.ply: flag for flag in review.flags}
    marks = []
    for group in flag_groups(list(flags), frame.count, frame.width):
        members = [flags[ply] for ply in group]
        label = max((flag.label for flag in members), key=SEVERITY.index)
        x = (frame.x(group[0]) + frame.x(group[-1])) / 2
        title = "\n".join(_flag_title(flag, flag_words(flag)) for flag in members[:TITLE_FLAGS])
        if len(members) > TITLE_FLAGS:
            title += f"\nand {len(members) - TITLE_FLAGS} more (a click goes to each in turn)"
        count = ""
        if len(group) > 1:
            at = f'x="{_f(x + 6)}" y="{_f(frame.top + 4)}"'
            count = f'<text class="mm-count" {at}>{len(group)}</text>'
        plies = " ".join(str(ply) for ply in group)
        marks.append(
            f'<g class="mm-flag" data-label="{label}" data-ply="{group[0]}" data-plies="{plies}">'
            f"<title>{escape(title)}</title>"
            f'<path d="{_flag_path(label, x, frame.top)}"/>{count}</g>'
        )
    return "".join(marks)


def _flag_title(flag: Flag, words: str) -> str:
    """A flagged move's line in a mark's tooltip: "move 5: dealing a row — Blunder: …"."""
    return f"move {flag.ply + 1}: {move_name(flag.move)} — {words}"


def point_words(entry: ReviewEntry, comment: str | None = None) -> str:
    """A point's tooltip: "move 57: 3>5 — 41% of 16 sampled stocks win (22–63%) for a player
    who could see the hidden cards; …".

    >>> from milligan_widget.analysis import Chance, ReviewEntry
    >>> words = point_words(ReviewEntry(56, "3>5", "unknown", Chance(7, 16))).split("; ")
    >>> words[0].removesuffix(" for a player who could see the hidden cards")
    'move 57: 3>5 — 44% of 16 sampled stocks win (23–67%)'
    >>> words[1]
    'the solver (which knows the stock): unknown'
    """
    chance = "not measured (the review stopped first)" if entry.chance is None else entry.chance
    verdict = _VERDICT_WORDS.get(entry.verdict, "unknown")
    words = f"move {entry.ply + 1}: {move_name(entry.move)} — {chance}"
    words += f"; the solver (which knows the stock): {verdict}"
    if entry.mistake:
        words += f"; mistake: {entry.mistake}"
    if comment:
        words += f"; comment: {comment}"
    return words


def _points(
    frame: Frame,
    entries: Sequence[ReviewEntry],
    kept: Sequence[int],
    comments: Mapping[int, str],
) -> str:
    radius = 3 if len(kept) <= 120 else 2
    hit_width = max(frame.cell, frame.cell * len(entries) / max(1, len(kept)))
    top, height = _f(frame.top), _f(frame.plot_height)
    points = []
    for i in kept:
        entry = entries[i]
        x = frame.x(i)
        dot, chance = "", drawn(entry)
        if chance is not None:
            dot = f'<circle cx="{_f(x)}" cy="{_f(frame.y(chance.p))}" r="{radius}"/>'
        points.append(
            f'<g class="mm-point" data-ply="{entry.ply}">'
            f"<title>{escape(point_words(entry, comments.get(entry.ply + 1)))}</title>"
            f'<rect class="mm-hit" x="{_f(x - hit_width / 2)}" y="{top}" '
            f'width="{_f(hit_width)}" height="{height}"/>{dot}</g>'
        )
    return "".join(points)


def _legend(frame: Frame) -> tuple[str, float]:
    """The key, laid out in rows that fit the width; and the chart's height below it."""
    items = [
        ('<line class="mm-line" x1="0" y1="0" x2="14" y2="0"/>', "honest chance, 95% band"),
        ('<rect class="mm-winnable" x="0" y="-5" width="14" height="10"/>', "winnable"),
        ('<rect class="mm-unwinnable" x="0" y="-5" width="14" height="10"/>', "unwinnable"),
        ('<rect class="mm-unknown" x="0" y="-5" width="14" height="10"/>', "unknown"),
        ('<line class="mm-deal" x1="7" y1="-5" x2="7" y2="4"/>', "deal"),
        ('<g class="mm-flag" data-label="blunder"><path d="M1.5 -6h11l-5.5 10z"/></g>', "blunder"),
        ('<g class="mm-flag" data-label="mistake"><path d="M3 -4h8l-4 7z"/></g>', "mistake"),
        ('<g class="mm-flag" data-label="inaccuracy"><path d="M3 -4h8l-4 7z"/></g>', "inaccuracy"),
        ('<g class="mm-turn"><line x1="7" y1="-6" x2="7" y2="6"/></g>', "turning point"),
    ]
    parts, x, y = [], frame.left, frame.legend
    for swatch, words in items:
        size = 19 + 5.9 * len(words) + 12
        if x + size > frame.width - frame.right and x > frame.left:
            x, y = frame.left, y + 18
        parts.append(
            f'<g transform="translate({_f(x)} {_f(y)})">{swatch}'
            f'<text x="19" y="0" dominant-baseline="middle">{words}</text></g>'
        )
        x += size
    verdicts = f'<text class="mm-dim" x="{_f(frame.left)}" y="{_f(y + 20)}">'
    verdicts += "the strip: the solver's verdict, which knows the stock</text>"
    return f'<g class="mm-legend">{"".join(parts)}{verdicts}</g>', y + 30


def _empty_note(frame: Frame) -> str:
    return (
        f'<text x="{_f(frame.width / 2)}" y="{_f(frame.y(0.5))}" text-anchor="middle">'
        "no move reviewed yet</text>"
    )


def _chart_title(review: Review) -> str:
    moves = len(review.entries)
    title = f"The honest chance to win before each of {moves} moves"
    if review.turning_point is not None:
        title += f"; the deal was lost at move {review.turning_point + 1}"
    return title
