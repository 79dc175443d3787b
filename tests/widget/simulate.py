"""MilliganWidget without a browser: the front end played by the tests.

`Browser` records exactly what the widget would send over its comm and injects the
messages the front end would send (custom requests and trait updates).
"""

from __future__ import annotations

from typing import Any

import pytest

from milligan_widget import Game, Move
from milligan_widget.widget import MilliganWidget

MAX_BYTES_PER_MOVE = 4096


class Browser:
    """Stands in for the front end of one widget."""

    def __init__(self, widget: MilliganWidget) -> None:
        self.widget = widget
        self.sent: list[dict[str, Any]] = []
        original = widget.comm.send

        def record(data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
            self.sent.append(data)
            original(data=data, metadata=metadata, buffers=buffers)

        widget.comm.send = record

    def request(self, content: Any) -> list[dict[str, Any]]:
        """Send a custom message as `model.send(content)` does; return what came back."""
        return self._inject({"method": "custom", "content": content})

    def set_trait(self, **state: Any) -> list[dict[str, Any]]:
        """Update traits as `model.set(...); model.save_changes()` does."""
        return self._inject({"method": "update", "state": state, "buffer_paths": []})

    def _inject(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        start = len(self.sent)
        self.widget._handle_msg({"content": {"data": data}, "buffers": []})
        return self.sent[start:]

    @staticmethod
    def updated_view(messages: list[dict[str, Any]]) -> dict[str, Any]:
        (message,) = messages
        assert message["method"] == "update"
        return message["state"]["view"]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything that defines a position and its history."""
    return (
        game.tableau,
        game.foundations,
        game.stock_count,
        game.reserve,
        game.cells,
        tuple(str(m) for m in game.history),
    )


def first_legal(game: Game, predicate) -> Move | None:
    return next((m for m in game.legal_moves if predicate(m)), None)


def is_tableau_move(move: Move) -> bool:
    return move.source.startswith("t") and (move.target or "").startswith("t")


def illegal_tableau_move(game: Game) -> Move:
    legal = {(m.source, m.target) for m in game.legal_moves}
    for a in range(1, 9):
        for b in range(1, 9):
            if a != b and (f"t{a}", f"t{b}") not in legal and game.tableau[a - 1]:
                return Move(f"t{a}", f"t{b}", 1)
    raise AssertionError("every tableau pair is legal?")


def _some_line(game: Game, count: int = 6) -> tuple[Move, ...]:
    """``count`` legal moves played one after another from the position of ``game``."""
    board, line = game.copy(), []
    for _ in range(count):
        line.append(board.play(board.legal_moves[0]))
    return tuple(line)


class LineSolver:
    """Stands in for ``solver.solve``: a win along ``line`` for the position whose history is
    ``start`` (the widget takes a line on trust), "unknown" elsewhere; records each call's
    history (``solver.hint`` asks it too)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, line=(), start=()) -> None:
        from milligan_widget.search import solver

        self.line, self.start = tuple(line), tuple(start)
        self.calls: list[tuple[str, ...]] = []

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None, progress=None,
                  workers=1):  # fmt: skip
            history = tuple(str(m) for m in game.history)
            self.calls.append(history)
            if self.line and history == self.start:
                return solver.SolveResult("winnable", self.line)
            return solver.SolveResult("unknown")

        monkeypatch.setattr(solver, "solve", solve)


def _history(widget: MilliganWidget) -> tuple[str, ...]:
    return tuple(str(m) for m in widget.game.history)


def _move(source: str, target: str, count: int = 1) -> dict[str, Any]:
    return {"type": "move", "source": source, "target": target, "count": count}


def _lesson_widget(start: int = 0) -> tuple[MilliganWidget, Browser]:
    from milligan_widget.teaching.lessons import LessonRun
    from milligan_widget.teaching.tutorial import learn_the_rules

    widget = MilliganWidget(seed=3, lesson=LessonRun(learn_the_rules(), start))
    return widget, Browser(widget)


def _commented_game() -> Game:
    game = Game.new(8)
    for move in ["d", "7>f", "7>1", "8>6", "5>4", "6>1", "1>4", "1>7", "3>1", "d"]:
        game.play(move)
    game.set_comment("the A♥ goes home at once", 2)
    game.set_comment("a second row", 10)
    return game


def _won_in_one() -> tuple[Game, Move]:
    queens = ["QC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]  # one King still to go home
    return Game.from_layout(tableau=[["KC"]] + [[]] * 7, foundations=queens), Move("t1", "f")
