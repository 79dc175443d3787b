"""A review in a player's words: the turning point, a named mistake, a move's name. The
chart and the HTML report both say it so.

>>> from milligan_widget.analysis import Chance, Review, ReviewEntry
>>> entries = (ReviewEntry(0, "7>2", "winnable", Chance(5, 8)),
...            ReviewEntry(1, "d", "unwinnable", Chance(1, 8), "dealt a row too soon"))
>>> words = turning_point_words(Review(entries, "unwinnable"))
>>> print(words.split(":")[0])
Until move 1 this deal could still be won; move 1 (7>2) lost it
>>> words.split(". ")[1].startswith("The honest chance before it: 62% of 8 sampled stocks win")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from milligan_widget.search.solver import UNKNOWN, WINNABLE

if TYPE_CHECKING:
    from .flags import Flag
    from .review import Review, ReviewEntry


def move_name(move: str) -> str:
    """A move as the chart and the summary name it: "3>5", or "dealing a row" for "d"."""
    return "dealing a row" if move == "d" else move


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

    >>> from milligan_widget.analysis.flags import Flag
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
