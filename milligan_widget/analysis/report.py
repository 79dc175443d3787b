"""A review in words and as HTML: the turning point, the named mistakes, the chart beside them;
for a notebook's output (``Review._repr_html_``) and for the game's offline page
(``Review.to_html``, built on :func:`milligan_widget.engine.export.to_html`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

from milligan_widget.engine.export import to_html

from .chart import review_svg
from .words import mistake_words, turning_point_words

if TYPE_CHECKING:
    from milligan_widget.engine.game import Game

    from .review import Review

MISTAKES_LISTED = 20  #: the most mistakes the summary lists one by one


def mistakes_html(review: Review) -> str:
    """The named mistakes as a list (the first :data:`MISTAKES_LISTED` of them)."""
    found = review.mistakes
    if not found:
        return "<p>No move matched a common mistake (docs/rules.md §2.9).</p>"
    items = "".join(f"<li>{escape(mistake_words(entry))}</li>" for entry in found[:MISTAKES_LISTED])
    more = len(found) - MISTAKES_LISTED
    tail = f"<li>and {more} more (in the chart)</li>" if more > 0 else ""
    return f"<p>Common mistakes ({len(found)}):</p><ul>{items}{tail}</ul>"


def summary_html(
    review: Review, *, theme: str = "auto", comments: Mapping[int, str] | None = None
) -> str:
    """The chart, the turning point in words and the mistakes, as one HTML fragment."""
    entries = review.entries
    opening = ""
    if entries and entries[0].chance is not None:
        opening = f" The honest chance at the first move: {escape(str(entries[0].chance))}."
    return (
        '<div class="mm-review">'
        f"{review_svg(review, theme=theme, comments=comments)}"
        f"<p>{len(entries)} moves reviewed.{opening}</p>"
        f"<p><strong>{escape(turning_point_words(review))}</strong></p>"
        f"{mistakes_html(review)}</div>"
    )


def check_matches(review: Review, game: Game) -> None:
    """A ``ValueError`` when ``review`` is not a review of ``game``'s line of play."""
    moves = [str(move) for move in game.history]
    for entry, move in zip(review.entries, moves, strict=False):
        if entry.move != move:
            raise ValueError(
                f"this review is of another game: move {entry.ply + 1} is {move} here and "
                f"{entry.move} in the review"
            )
    if len(review.entries) > len(moves):
        raise ValueError(
            f"this review has {len(review.entries)} moves and the game only {len(moves)}: "
            "it is the review of another game"
        )


def review_page(review: Review, game: Game, path: str | os.PathLike[str] | None = None) -> str:
    """``game``'s offline page (:func:`milligan_widget.engine.export.to_html`) with the review above
    the viewer: clicking a point of the chart shows that move's position."""
    check_matches(review, game)
    extra = summary_html(review, theme="auto", comments=game.comments)
    return to_html(game, path, extra_html=extra)
