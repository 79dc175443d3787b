"""Fuzzing the front end's messages, in every mode: whatever a page sends, the widget
answers with a reason or does what was asked, and no exception escapes.

Messages are drawn from the shapes our front end sends (``js/src/types.ts``: ``Request``)
with every field replaced by odd values, and from plain junk. For each one: the widget
answers (one update, unless the request was a no-op such as "winnable" with the same
value), an error answer leaves the game as it was, and the answer's message never carries
Python's own words.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from milligan_widget import Game
from milligan_widget.search import solver
from milligan_widget.widget import MilliganWidget
from tests.widget.simulate import Browser, _lesson_widget, snapshot

KINDS = [
    "move", "deal", "undo", "redo", "hint", "auto", "restart", "new", "next", "previous",
    "goto_step", "seek", "close", "solution", "stop", "think", "winnable",
]  # fmt: skip
PILES = ["t1", "t8", "t9", "f1", "f8", "f", "c", "c1", "reserve", "stock", "x", "", "t01"]
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=True),
    st.text(max_size=30), st.sampled_from(["1", "007", "9" * 5000, "1e3", " 5 ", "-1"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)  # fmt: skip
# Python's words that must never reach a player.
INTERNALS = (
    "Traceback", "invalid literal", "Exceeds the limit", "object has no attribute", "NoneType",
    "KeyError", "TypeError", "not subscriptable", "Internal error",
)  # fmt: skip


def _request() -> st.SearchStrategy[Any]:
    shaped = st.fixed_dictionaries(
        {"type": st.sampled_from(KINDS)},
        optional={
            "source": st.one_of(st.sampled_from(PILES), ODD),
            "target": st.one_of(st.sampled_from(PILES), ODD),
            "count": st.one_of(st.integers(-2, 110), ODD),
            "seed": st.one_of(st.integers(-5, 10**21), ODD),
            "rules": st.one_of(st.sampled_from(["classic", "millie", "poker"]), ODD),
            "difficulty": st.one_of(st.sampled_from(["any", "winnable", "hard", "extreme"]), ODD),
            "on": ODD,
            "ply": st.one_of(st.integers(-2, 12), ODD),
            "index": st.one_of(st.integers(-2, 20), ODD),
        },
    )
    return st.one_of(shaped, ODD, st.fixed_dictionaries({"type": ODD}))


def _widget(mode: str) -> MilliganWidget:
    if mode == "lesson":
        return _lesson_widget()[0]
    game = Game.new(8)
    for move in ["d", "7>f", "7>1", "8>6", "5>4", "d"]:
        game.play(move)
    widget = MilliganWidget(game=game, hint_time=0)  # the heuristic: no solver thread
    if mode == "replay":
        widget.show_replay()
    return widget


def _unknown(game: Game, *args: Any, **kwargs: Any) -> solver.SolveResult:
    """The solver, as fast as can be: it never knows (the fuzz is about the messages)."""
    return solver.SolveResult(solver.UNKNOWN)


def _check(widget: MilliganWidget, request: Any) -> None:
    browser = Browser(widget)
    before = snapshot(widget.game)
    with mock.patch.object(solver, "solve", _unknown):
        sent = browser.request(request)
        assert widget.wait(10)
    views = [m["state"]["view"] for m in sent if "view" in m.get("state", {})]
    for view in views:
        assert not any(word in view["message"] for word in INTERNALS), view["message"]
    if views and views[-1]["kind"] == "error":
        assert snapshot(widget.game) == before, f"refused, yet the game changed: {request!r}"


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(request=_request())
def test_any_message_in_play(request: Any) -> None:
    _check(_widget("play"), request)


@SETTINGS
@given(request=_request())
def test_any_message_in_a_lesson(request: Any) -> None:
    _check(_widget("lesson"), request)


@SETTINGS
@given(request=_request())
def test_any_message_in_the_replay_viewer(request: Any) -> None:
    _check(_widget("replay"), request)


@settings(max_examples=25, deadline=None)
@given(requests=st.lists(_request(), min_size=2, max_size=8))
def test_a_run_of_messages_leaves_a_widget_that_still_answers(requests: list[Any]) -> None:
    widget = _widget("play")
    for request in requests:
        _check(widget, request)
    sent = Browser(widget).request({"type": "deal"})
    assert sent, "the widget stopped answering"
