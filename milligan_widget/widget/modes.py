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

from collections.abc import Callable
from typing import Any

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
    "solution": "The solution is for a game: finish or close the lesson first.",
    "think": "Think longer is for a game: finish or close the lesson first.",
    "winnable": "The solver's check is for a game: finish or close the lesson first.",
}
NOT_IN_REPLAY = (
    "This is a replay: the cards move with its controls. Press Play from here to play on."
)
NOT_IN_PLAY = "That control belongs to a lesson or a replay."
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


# The toolbar's actions, each with what makes it do something in the view on show.
TOOLBAR: dict[str, Callable[[dict[str, Any]], bool]] = {
    "new": lambda view: True,
    "undo": lambda view: view["can_undo"],
    "redo": lambda view: view["can_redo"],
    "deal": lambda view: view["can_deal"],
    "restart": lambda view: view["stats"]["moves"] > 0 or view["can_redo"],
    "hint": lambda view: view["status"] == "playing",
    "auto": lambda view: True,
    "solution": lambda view: view["status"] == "playing" and view["busy"] != "solution",
    "winnable": lambda view: True,
}


def actions(mode: str, view: dict[str, Any]) -> list[str]:
    """The toolbar's actions that do something now in ``mode`` (the front end enables just
    these: it derives nothing itself).

    >>> view = {"can_undo": True, "can_redo": False, "can_deal": True, "status": "playing",
    ...         "stats": {"moves": 3}, "busy": None}
    >>> actions("lesson", view)
    ['undo', 'deal', 'restart', 'hint']
    >>> actions("replay", view)
    []
    """
    return [name for name, does in TOOLBAR.items() if refusal(mode, name) is None and does(view)]
