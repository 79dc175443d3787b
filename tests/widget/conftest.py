"""Fixtures of the widget's tests (the front end's part is played by tests/widget/simulate.py)."""

from __future__ import annotations

import pytest

from milligan_widget import Move
from milligan_widget.widget import MilliganWidget
from tests.widget.simulate import first_legal, is_tableau_move


@pytest.fixture
def widget_with_move() -> tuple[MilliganWidget, Move]:
    """A classic widget whose opening has a tableau-to-tableau move."""
    for seed in range(1, 500):
        widget = MilliganWidget(seed=seed)
        move = first_legal(widget.game, is_tableau_move)
        if move is not None:
            return widget, move
    raise AssertionError("no seed in 1..499 opens with a tableau move")
