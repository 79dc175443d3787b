"""A review in words and as HTML: the turning point, the named mistakes, the chart beside them;
for a notebook's output (``Review._repr_html_``) and for the game's offline page
(``Review.to_html``, built on :func:`milligan_widget.export.to_html`).

>>> from milligan_widget.analysis import Chance, Review, ReviewEntry
>>> entries = (ReviewEntry(0, "7>2", "winnable", Chance(5, 8)),
...            ReviewEntry(1, "d", "unwinnable", Chance(1, 8), "dealt a row too soon"))
>>> words = turning_point_words(Review(entries, "unwinnable"))
>>> print(words.split(":")[0])
Until move 1 this deal could still be won; move 1 (7>2) lost it
>>> print(words.split(". ")[1])
The honest chance before it: 62% of 8 sampled stocks win (31–86%).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING

from ..solver import UNKNOWN, WINNABLE
from .chart import move_name, review_svg

if TYPE_CHECKING:
    from ..game import Game
    from .review import Flag, Review, ReviewEntry

MISTAKES_LISTED = 20  #: the most mistakes the summary lists one by one


def turning_point_words(review: Review) -> str:
    """Where the deal was lost, in a player's words (or why no move is named)."""
    entries = review.entries
    if not entries:
        return "No move was reviewed."
    turn = review.turning_point
    if turn is not None:
        entry = entries[turn]
        words = (
            f"Until move {turn + 1} this deal could still be won; move {turn + 1} "
            f"({move_name(entry.move)}) lost it: after it the solver, which knows the stock, "
            "finds no win."
        )
        if entry.chance is not None:
            words += f" The honest chance before it: {entry.chance}."
        if entry.mistake:
            words += f" It is a common mistake: {entry.mistake}."
        better = next((flag.better for flag in review.flags if flag.ply == turn), None)
        if better:
            words += f" Better: {move_name(better)}, with which the solver wins."
        return words
    verdicts = [entry.verdict for entry in entries] + [review.final_verdict]
    if verdicts[-1] == WINNABLE:
        return "No move lost the deal: it could still be won after the last move."
    if WINNABLE not in verdicts and UNKNOWN not in verdicts:
        return "This deal could not be won from the first position reviewed: no move lost it."
    return (
        "No turning point was found: the solver could not decide every position in its time "
        "(the positions marked unknown)."
    )


def mistake_words(entry: ReviewEntry) -> str:
    """A named mistake in a player's words, with the move it was (the widget's review and
    :func:`mistakes_html` both say it so).

    >>> from milligan_widget.analysis.review import ReviewEntry
    >>> mistake_words(ReviewEntry(58, "7>f", "unknown", None, "broke the run 5♠ 4♥"))
    'move 59 (7>f): broke the run 5♠ 4♥'
    """
    return f"move {entry.ply + 1} ({move_name(entry.move)}): {entry.mistake or ''}"


def flag_words(flag: Flag, described: str | None = None) -> str:
    """A flagged move in a player's words: its label, why, and the better move where known
    (``described``: that move in words, as ``Game.describe`` says it), with its chance.

    >>> from milligan_widget.analysis.review import Flag
    >>> flag_words(Flag(4, "d", "blunder", "after it the solver finds no win", "6>r"))
    'Blunder: after it the solver finds no win. Better: 6>r.'
    >>> flag_words(Flag(4, "d", "blunder", "no win after it", "6>r"), "7♥ into the reserve")
    'Blunder: no win after it. Better: 6>r (7♥ into the reserve).'
    """
    words = f"{flag.label.capitalize()}: {flag.why}."
    if flag.better:
        about = f" ({described})" if described else ""
        chance = f", {flag.better_chance}" if flag.better_chance is not None else ""
        words += f" Better: {move_name(flag.better)}{about}{chance}."
    return words


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
    """``game``'s offline page (:func:`milligan_widget.export.to_html`) with the review above
    the viewer: clicking a point of the chart shows that move's position."""
    from ..export import to_html

    check_matches(review, game)
    extra = summary_html(review, theme="auto", comments=game.comments)
    return to_html(game, path, extra_html=extra)
