"""The widget's modes: play, a lesson, and the replay viewer, and what each refuses.

A mode takes every request but the ones it has no use for, which it refuses in words
(:func:`refusal`); Python's API refuses the same actions with the same words
(:class:`ModeError`).

>>> refusal("replay", "move").startswith("This is a replay")
True
>>> refusal("play", "move") is None
True
"""

from __future__ import annotations

from milligan_widget import IllegalMoveError


class ModeError(IllegalMoveError):
    """An action that makes no sense in the widget's mode (a lesson, the replay viewer)."""


MODES = ("play", "lesson", "replay")
# What each mode refuses from the browser, and why.
NOT_IN_LESSON = {
    "redo": "There is no redo in a lesson: play the move again.",
    "auto": "Auto is off in a lesson: play each card yourself.",
    "new": "Finish or close the lesson to start a new game.",
    "seek": "Stepping through moves is for the replay viewer.",
}
NOT_IN_REPLAY = (
    "This is a replay: the cards move with its controls. Press Play from here to play on."
)
NOT_IN_PLAY = "That control belongs to a lesson or a replay."
NOT_IN_LESSON["solution"] = "The solution is for a game: finish or close the lesson first."
NOT_IN_LESSON["think"] = "Think longer is for a game: finish or close the lesson first."
# The requests that belong to a lesson or the replay viewer, which play refuses.
NOT_PLAY = ("next", "previous", "goto_step", "seek", "close")
# All the replay viewer takes: it is watched, not played.
REPLAY_ONLY = ("seek", "close")


def refusal(mode: str, kind: str) -> str | None:
    """Why ``mode`` refuses a request of ``kind``, or None if it takes it."""
    if mode == "replay":
        return None if kind in REPLAY_ONLY else NOT_IN_REPLAY
    if mode == "lesson":
        return NOT_IN_LESSON.get(kind)
    return NOT_IN_PLAY if kind in NOT_PLAY else None
