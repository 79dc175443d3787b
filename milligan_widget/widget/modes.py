"""The widget's modes: play, a lesson, and the replay viewer.

Each mode is an object that owns the game it shows, what it refuses (in words: Python's API
refuses the same actions with the same words, as :class:`ModeError`), its panel (what does
not change from one move to the next) and what it adds to each view, the toolbar's actions
that do something included (the front end enables just those).

>>> from milligan_widget import Game
>>> mode = Replay.of(Game.new(5).after("d"))
>>> mode.name, mode.refusal("move").startswith("This is a replay"), mode.message()
('replay', True, 'The deal. 1 move to step through.')
>>> Play(Game.new(5)).refusal("move") is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from milligan_widget.engine import Game, IllegalMoveError, Move
from milligan_widget.teaching.lessons import LessonRun
from milligan_widget.widget.view import deal_about
from milligan_widget.widget.words import moves as _moves
from milligan_widget.widget.words import sentence


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
    "finish": "Play each card home yourself in a lesson.",
    "save": "A lesson's position is not saved: close the lesson to save your game.",
    "files": "Close the lesson to open a saved game.",
    "open": "Close the lesson to open a saved game.",
    "winnable": "The solver's check is for a game: finish or close the lesson first.",
    "coach": "The coach is for a game: the lesson checks each move itself.",
    "better": "The coach is for a game: the lesson checks each move itself.",
    "review": "The review is for a game: finish or close the lesson first.",
    "goto": "goto(n) steps through a game's moves: use goto_step(i).",  # Python's API only
}
NOT_IN_REPLAY = (
    "This is a replay: the cards move with its controls. Press Play from here to play on."
)
NOT_IN_PLAY = "That control belongs to a lesson or a replay."
# The requests that belong to a lesson or the replay viewer, which play refuses.
NOT_PLAY = ("next", "previous", "goto_step", "seek", "close")
# All the replay viewer takes: it is watched, not played (and reviewed: Stop stops that).
REPLAY_ONLY = ("seek", "close", "stats", "peek", "review", "stop", "hold")


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
    "auto": lambda view: view["status"] == "playing",
    "finish": lambda view: view.get("can_finish", False),
    "solution": lambda view: view["status"] == "playing" and view["busy"] != "solution",
    "save": lambda view: True,
    "files": lambda view: True,
    "stats": lambda view: True,
    "winnable": lambda view: True,
    "peek": lambda view: True,
    "coach": lambda view: True,
    # A game with moves (the replay's whole line in the viewer): play once it is over.
    "review": lambda view: (
        _moves_to_review(view) > 0 and (view["mode"] == "replay" or view["status"] != "playing")
    ),
}


def _moves_to_review(view: dict[str, Any]) -> int:
    replay = view.get("replay")
    return int(replay["count"]) if replay else int(view["stats"]["moves"])


def actions(mode: str, view: dict[str, Any]) -> list[str]:
    """The toolbar's actions that do something now in ``mode`` (the front end enables just
    these: it derives nothing itself).

    >>> view = {"can_undo": True, "can_redo": False, "can_deal": True, "status": "playing",
    ...         "stats": {"moves": 3}, "busy": None, "mode": "replay"}
    >>> actions("lesson", view)
    ['undo', 'deal', 'restart', 'hint', 'stats', 'peek']
    >>> "coach" in actions("play", view), "coach" in actions("replay", view)
    (True, False)
    >>> actions("replay", view)
    ['stats', 'peek', 'review']
    """
    return [name for name, does in TOOLBAR.items() if refusal(mode, name) is None and does(view)]


class Play:
    """Play: the player's own game."""

    name = "play"
    #: The player's own game is on show: it is scored, auto-saved and the solver helps.
    own_game = True
    #: A replay is on show: watched, not played (the moves are its steps).
    watched = False

    def __init__(self, game: Game) -> None:
        self.game = game

    def refusal(self, kind: str) -> str | None:
        return refusal(self.name, kind)

    def panel(self) -> dict[str, Any]:
        return {"mode": self.name}

    def add_to(self, view: dict[str, Any]) -> None:
        """What the mode adds to ``view``: the actions that do something now, and what the
        shipped table of deals says of the deal on show (:func:`.view.deal_about`: with
        ``view["peek"]`` off, nothing the hidden cards decide)."""
        view["mode"] = self.name
        view["actions"] = actions(self.name, view)
        view["deal"] = deal_about(self.game, view["peek"])


class Lesson(Play):
    """A lesson: each step's position, every move checked against its task."""

    name = "lesson"
    own_game = False

    def __init__(self, run: LessonRun) -> None:
        self.run = run

    @property
    def game(self) -> Game:  # type: ignore[override]
        return self.run.game

    def panel(self) -> dict[str, Any]:
        lesson = self.run.lesson
        steps = [step.title for step in lesson.steps]
        return {"mode": self.name, "title": lesson.title, "intro": lesson.intro, "steps": steps}

    def add_to(self, view: dict[str, Any]) -> None:
        view["lesson"] = self.run.summary()
        super().add_to(view)


class Replay(Play):
    """The replay viewer: a game's moves shown one at a time, watched, not played.

    ``game`` is at the deal with the game's moves to redo; each entry of ``moves`` says one
    of them in words, with its comment."""

    name = "replay"
    own_game, watched = False, True

    def __init__(self, game: Game, moves: list[dict[str, Any]], title: str) -> None:
        super().__init__(game)
        self.moves, self.title = moves, title

    @classmethod
    def of(cls, saved: Game, ply: int = 0) -> Replay:
        """The replay of ``saved``'s moves, at move ``ply`` (0: the deal); ``saved`` is
        left as it is."""
        board, entries = saved.copy(), []
        board.restart()
        for move in saved.history:
            entries.append({"text": sentence(board.describe(move)), "comment": None})
            board.play(move)
        for n, text in saved.comments.items():
            if 0 < n <= len(entries):
                entries[n - 1]["comment"] = text
                board.set_comment(text, n)
        while board.can_undo:  # back to the deal: the line stays for redo, with its comments
            board.undo()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(entries):
            raise ValueError(f"ply must be between 0 and {len(entries)}, not {ply!r}")
        while len(board.history) < ply:
            board.redo()
        seed = f" #{saved.seed}" if saved.seed is not None else ""
        return cls(board, entries, f"Replay of deal{seed} ({saved.rules.name or 'custom rules'})")

    def seek(self, n: int) -> tuple[Game, Move] | None:
        """Show the position after the first ``n`` moves; if that is one step on, the
        position before it and the move (to animate), else None."""
        count = len(self.moves)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= count:
            raise ValueError(f"the replay has moves 0 to {count}, not {n!r}")
        game, step = self.game, None
        if n == len(game.history) + 1:
            before = game.copy()
            step = (before, game.redo())
        while len(game.history) > n:
            game.undo()
        while len(game.history) < n:
            game.redo()
        return step

    def message(self) -> str:
        """Where the replay is, in words."""
        ply, entries = len(self.game.history), self.moves
        if ply == 0:
            return f"The deal. {_moves(len(entries))} to step through."
        entry = entries[ply - 1]
        text = f"Move {ply} of {len(entries)}: {entry['text']}"
        if entry["comment"]:
            text = f"{text} — {entry['comment']}"
        if ply == len(entries) and self.game.status == "won":
            text = f"{text}. All cards are home: won."
        return text

    def panel(self) -> dict[str, Any]:
        return {"mode": self.name, "title": self.title, "moves": self.moves,
                "refusal": NOT_IN_REPLAY}  # fmt: skip

    def add_to(self, view: dict[str, Any]) -> None:
        view["replay"] = {"ply": len(self.game.history), "count": len(self.moves)}
        view["targets"] = {}  # a replay is watched, not played
        super().add_to(view)
