"""MilliganWidget without a browser: these tests play the front end's part.

`Browser` records exactly what the widget would send over its comm and injects the
messages the front end would send (custom requests and trait updates).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from milligan_widget import PRESETS, Game, IllegalMoveError, Move
from milligan_widget.widget import MilliganWidget, sentence

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


@pytest.fixture
def widget_with_move() -> tuple[MilliganWidget, Move]:
    """A classic widget whose opening has a tableau-to-tableau move."""
    for seed in range(1, 500):
        widget = MilliganWidget(seed=seed)
        move = first_legal(widget.game, is_tableau_move)
        if move is not None:
            return widget, move
    raise AssertionError("no seed in 1..499 opens with a tableau move")


def illegal_tableau_move(game: Game) -> Move:
    legal = {(m.source, m.target) for m in game.legal_moves}
    for a in range(1, 9):
        for b in range(1, 9):
            if a != b and (f"t{a}", f"t{b}") not in legal and game.tableau[a - 1]:
                return Move(f"t{a}", f"t{b}", 1)
    raise AssertionError("every tableau pair is legal?")


# ------------------------------------------------------------------ the module
def test_importing_the_engine_does_not_import_the_widget() -> None:
    code = (
        "import sys, milligan_widget; "
        "assert 'milligan_widget.widget' not in sys.modules; "
        "assert 'anywidget' not in sys.modules; "
        "from milligan_widget import MilliganWidget; "
        "assert MilliganWidget.__name__ == 'MilliganWidget'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bundle_is_built_and_referenced() -> None:
    assert "render" in str(MilliganWidget._esm)
    assert ".mw-card" in str(MilliganWidget._css)
    assert 'from"http' not in str(MilliganWidget._esm).replace(" ", ""), "bundle everything"


# ------------------------------------------------------------------ the initial view
def test_initial_view_shows_the_deal() -> None:
    widget = MilliganWidget(seed=7)
    view = widget.view
    assert [len(col) for col in view["columns"]] == [1] * 8
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]
    assert view["stats"] == {"foundations": 0, "stock": 96, "reserve": 0, "tableau": 8, "moves": 0}
    assert view["stock"] == 96 and view["can_deal"] is True
    assert view["reserve"] == [] and view["reserve_open"] is False
    assert [f["suit"] for f in view["foundations"]] == list(widget.game.foundation_suits)
    assert view["status"] == "playing" and view["seed"] == 7
    assert widget.rules_info["name"] == "classic"
    assert widget.rules_info["lines"] == list(widget.game.rules.describe())
    assert set(widget.rules_info["presets"]) == set(PRESETS)
    json.dumps(view)
    json.dumps(widget.rules_info)


def test_targets_list_every_legal_move_of_the_engine() -> None:
    widget = MilliganWidget(seed=11)
    for _ in range(4):
        widget.deal()
    targets = widget.view["targets"]
    for move in widget.game.legal_moves:
        if move.source == "stock":
            continue
        key = f"{move.source}:{move.count or 1}"
        assert key in targets, move
        if (move.target or "")[:1] in "tr" and move.target not in ("f", "c"):
            assert move.target in targets[key], move


def test_stock_order_never_reaches_the_browser() -> None:
    """Two deals that differ only in the stock's order look the same to the browser."""
    cards = _full_deck()
    middle = cards[20:84]
    shuffled = middle[::-1]
    deck_a = cards
    deck_b = cards[:20] + shuffled + cards[84:]
    a = MilliganWidget(game=Game.from_deck(deck_a), hint_time=0)
    b = MilliganWidget(game=Game.from_deck(deck_b), hint_time=0)
    assert a.game.tableau == b.game.tableau
    assert json.dumps(a.view, sort_keys=True) == json.dumps(b.view, sort_keys=True)
    browser_a, browser_b = Browser(a), Browser(b)
    browser_a.request({"type": "hint"})
    browser_b.request({"type": "hint"})
    assert browser_a.sent == browser_b.sent
    # The solver sees the stock, so its hint may differ, but it is one move, never a line.
    for widget in (a, b):
        widget.hint_time = 0.5
        widget.hint()
        assert isinstance(widget.view["hint"], dict) and "moves" not in widget.view


def _full_deck() -> list[Any]:
    from milligan_widget import Card

    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [Card.parse(r + s) for _ in range(2) for s in "CSHD" for r in ranks]


# ------------------------------------------------------------------ requests from the browser
def test_a_legal_drop_is_played_with_one_update_back(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)
    played: list[Move] = []
    widget.on_move(played.append)
    sent = browser.request(
        {"type": "move", "source": move.source, "target": move.target, "count": move.count or 1}
    )
    view = browser.updated_view(sent)
    assert [str(m) for m in widget.game.history] == [str(move)]
    assert played and str(played[0]) == str(move)
    assert view["stats"]["moves"] == 1
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]
    assert view["kind"] == "info" and view["message"]
    assert view["last"]["source"] == move.source and move.target in view["last"]["targets"]
    assert len(json.dumps(sent[0])) <= MAX_BYTES_PER_MOVE


def test_an_illegal_drop_is_refused_with_the_reason_and_nothing_changes() -> None:
    widget = MilliganWidget(seed=5)
    move = illegal_tableau_move(widget.game)
    before = snapshot(widget.game)
    reason = widget.game.explain(move)
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": move.source, "target": move.target, "count": 1})
    )
    assert snapshot(widget.game) == before
    assert view["kind"] == "error"
    assert reason and view["message"] == sentence(reason)


@pytest.mark.parametrize(
    "request_",
    [
        None,
        "3>5",
        [1, 2],
        {},
        {"type": "fly"},
        {"type": "move"},
        {"type": "move", "source": "t1"},
        {"type": "move", "source": "t1", "target": "t99", "count": 1},
        {"type": "move", "source": "x1", "target": "t2", "count": 1},
        {"type": "move", "source": "t1", "target": "t2", "count": "1"},
        {"type": "move", "source": "t1", "target": "t2", "count": True},
        {"type": "move", "source": "t1", "target": "t2", "count": 0},
        {"type": "move", "source": "t1", "target": "t2", "count": 10**9},
        {"type": "move", "source": "t1", "target": "t1", "count": 1},
        {"type": "move", "source": "stock", "target": "t1", "count": 1},
        {"type": "move", "source": "t1" * 1000, "target": "t2", "count": 1},
        {"type": "move", "source": 3, "target": 5, "count": 1},
        {"type": "new", "seed": -4, "rules": "classic"},
        {"type": "new", "seed": 0},
        {"type": "new", "seed": 10**20},
        {"type": "new", "seed": "12abc"},
        {"type": "new", "seed": 1.5},
        {"type": "new", "seed": 3, "rules": "poker"},
        {"type": "new", "seed": 3, "rules": ["classic"]},
    ],
)
def test_malformed_requests_are_refused_and_change_nothing(request_: Any) -> None:
    widget = MilliganWidget(seed=9)
    game = widget.game
    before = snapshot(game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(request_))
    assert widget.game is game and snapshot(game) == before
    assert view["kind"] == "error" and view["message"]
    assert view["columns"] == [[str(c) for c in col] for col in game.tableau]


@pytest.mark.parametrize(
    ("preset", "source", "target", "words"),
    [
        ("classic", "t3", "stock", "Cards cannot go back to the stock."),
        ("classic", "reserve", "stock", "Cards cannot go back to the stock."),
        ("little-milligan", "t8", "t1", "There is no column 8: this game has 7 columns."),
        ("little-milligan", "t1", "t8", "There is no column 8: this game has 7 columns."),
        ("little-milligan", "t1", "f5", "There is no foundation 5: this game has 4 foundations."),
        ("classic", "t1", "f9", "There is no foundation 9: this game has 8 foundations."),
        ("classic", "t1", "c1", "This game has no free cells."),
        ("classic", "t1", "c", "This game has no free cells."),
        ("classic", "c2", "t1", "This game has no free cells."),
        ("milligan-cell", "t1", "c5", "There is no free cell 5: this game has 4 free cells."),
        ("millie", "t1", "reserve", "This game has no reserve."),
        ("millie", "reserve", "t1", "This game has no reserve."),
        ("milligan-cell", "t1", "reserve", "This game has no reserve."),
    ],
)
def test_a_drop_on_a_pile_the_game_does_not_have_is_refused_in_a_players_words(
    preset, source, target, words
) -> None:
    """Every pile name the front end can send: the stock, and the piles of another variant
    (a page not yet redrawn)."""
    widget = MilliganWidget(seed=9, rules=preset)
    before = snapshot(widget.game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(_move(source, target)))
    assert (view["kind"], view["message"]) == ("error", words)
    assert snapshot(widget.game) == before


@pytest.mark.parametrize(
    ("source", "target"),
    [("f", "t1"), ("c", "t1"), ("stock", "t1"), ("x1", "t2"), ("t1", "col3"), ("t0", "t1")],
)
def test_pile_names_our_front_end_never_sends_are_malformed(source, target) -> None:
    widget = MilliganWidget(seed=9)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(_move(source, target)))
    assert view["kind"] == "error" and view["message"].startswith("Request refused: ")


def test_every_refusal_of_a_drop_is_in_a_players_words() -> None:
    """Drops from every pile onto every pile the front end shows, in a few variants and
    positions: a refusal names no internal pile ("t3", "f", "stock") and is never a
    "Request refused"."""
    internal = re.compile(r"'\w+'|\b[tfc]\d+\b|Request refused")
    for preset in ("classic", "little-milligan", "milligan-cell", "millie"):
        game = Game.new(9, preset)
        for _ in range(3):
            game.deal()
        widget = MilliganWidget(game=game, hint_time=0)
        browser = Browser(widget)
        sources = [*_shown_piles(widget), "stock"]
        for source in sources[:-1]:
            for target in sources:
                if source == target:
                    continue
                view = browser.updated_view(browser.request(_move(source, target)))
                if view["kind"] == "error":
                    assert not internal.search(view["message"]), (preset, source, target)
                    assert not view["message"][:1].islower(), view["message"]
                elif widget.game.can_undo:
                    widget.undo()


def _shown_piles(widget: MilliganWidget) -> list[str]:
    """The piles the front end draws for the game on show (as board.ts names them)."""
    view = widget.view
    piles = [f"t{i + 1}" for i in range(len(view["columns"]))]
    piles += [f"f{i + 1}" for i in range(len(view["foundations"]))]
    piles += [f"c{i + 1}" for i in range(len(view["cells"]))]
    return piles + (["reserve"] if view["reserve"] is not None else [])


def test_a_failing_move_callback_does_not_hide_the_move(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)

    def broken(_move: Move) -> None:
        raise RuntimeError("boom")

    widget.on_move(broken)
    sent = browser.request(
        {"type": "move", "source": move.source, "target": move.target, "count": move.count or 1}
    )
    assert len(widget.game.history) == 1
    assert sent[0]["state"]["view"]["stats"]["moves"] == 1
    assert "boom" in widget.view["message"]
    widget.on_move(broken, remove=True)


def test_refusals_are_sent_even_when_the_message_repeats() -> None:
    widget = MilliganWidget(seed=9)
    browser = Browser(widget)
    first = browser.updated_view(browser.request({"type": "fly"}))
    second = browser.updated_view(browser.request({"type": "fly"}))
    assert second["rev"] > first["rev"] and second["message"] == first["message"]


def test_deal_undo_redo_restart_requests() -> None:
    widget = MilliganWidget(seed=21)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "deal"}))
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    assert view["stats"]["tableau"] == 16 and view["last"]["source"] == "stock"
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["stats"]["stock"] == 96 and view["can_redo"] is True
    view = browser.updated_view(browser.request({"type": "redo"}))
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["stock"] == 96 and view["stats"]["moves"] == 0
    assert view["can_undo"] is True and view["can_redo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))  # the restart
    assert view["stats"]["stock"] == 88 and view["stats"]["moves"] == 1
    view = browser.updated_view(browser.request({"type": "undo"}))  # the deal
    assert view["stats"]["stock"] == 96 and view["can_undo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["kind"] == "error" and view["message"] == "Nothing to undo."


def test_hint_highlights_a_move_and_says_why() -> None:
    widget = MilliganWidget(seed=2, hint_time=0)  # the greedy heuristic alone, at once
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "hint"}))
    move, why = widget.game.hint()
    assert view["kind"] == "hint" and why in view["message"]
    assert view["message"].startswith("Heuristic: ")
    assert view["hint"]["text"] == str(move)
    assert snapshot(widget.game)[-1] == ()


def test_double_click_sends_to_any_fitting_foundation() -> None:
    widget = _widget_with_foundation_move()
    move = first_legal(widget.game, lambda m: (m.target or "").startswith("f"))
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": move.source, "target": "f", "count": 1})
    )
    assert view["kind"] != "error", view["message"]
    assert view["stats"]["foundations"] == 1


def _widget_with_foundation_move() -> MilliganWidget:
    for seed in range(1, 500):
        widget = MilliganWidget(seed=seed)
        if first_legal(widget.game, lambda m: (m.target or "").startswith("f")):
            return widget
    raise AssertionError("no opening with an ace in 1..499")


def test_new_game_request_with_number_and_preset() -> None:
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    sent = browser.request({"type": "new", "seed": "123456789012345678", "rules": "millie"})
    (message,) = sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.game.seed == 123456789012345678
    assert widget.view["reserve"] is None and widget.rules_info["name"] == "millie"
    browser.request({"type": "new", "seed": None, "rules": None})
    assert widget.game.rules.name == "millie" and widget.game.seed is not None


def test_four_colour_setting_from_the_browser() -> None:
    widget = MilliganWidget(seed=1)
    Browser(widget).set_trait(four_colour=True)
    assert widget.four_colour is True


# ------------------------------------------------------------------ the Python API
def test_play_from_python_updates_the_view(widget_with_move) -> None:
    widget, move = widget_with_move
    browser = Browser(widget)
    widget.play(str(move))
    assert len(browser.sent) == 1
    assert widget.view["stats"]["moves"] == 1


def test_illegal_play_from_python_raises_and_shows_the_reason() -> None:
    widget = MilliganWidget(seed=5)
    move = illegal_tableau_move(widget.game)
    before = snapshot(widget.game)
    with pytest.raises(IllegalMoveError) as info:
        widget.play(move)
    assert snapshot(widget.game) == before
    assert widget.view["kind"] == "error" and widget.view["message"] == sentence(str(info.value))
    with pytest.raises(IllegalMoveError):
        widget.play("not a move at all")


def test_deal_undo_redo_goto_from_python() -> None:
    widget = MilliganWidget(seed=8)
    for _ in range(3):
        widget.deal()
    assert widget.view["stats"]["moves"] == 3
    widget.undo()
    assert widget.view["stats"]["moves"] == 2 and widget.view["can_redo"]
    widget.redo()
    widget.goto(1)
    assert widget.view["stats"]["stock"] == 88
    widget.goto(3)
    assert widget.view["stats"]["stock"] == 72
    widget.goto(1)
    with pytest.raises(ValueError):
        widget.goto(9)
    assert widget.view["stats"]["moves"] == 3 == len(widget.game.history)


def test_replay_a_saved_game_steps_through_it(tmp_path) -> None:
    widget = MilliganWidget(seed=13)
    widget.deal()
    widget.deal()
    path = tmp_path / "game.json"
    widget.save(path)
    loaded = MilliganWidget.load(path)
    assert snapshot(loaded.game) == snapshot(widget.game)
    other = MilliganWidget(seed=99)
    browser = Browser(other)
    other.replay(path, delay=0)
    assert snapshot(other.game) == snapshot(widget.game)
    assert len(browser.sent) == 3  # the deal, then one update per move
    other.replay(["d"], delay=0)
    assert other.view["stats"]["moves"] == 3


@pytest.mark.parametrize(
    ("preset", "columns", "foundations", "reserve", "cells"),
    [
        ("classic", 8, 8, [], 0),
        ("millie", 8, 8, None, 0),
        ("little-milligan", 7, 4, None, 0),
        ("milligan-cell", 8, 8, None, 4),
    ],
)
def test_variants_show_their_own_parts(preset, columns, foundations, reserve, cells) -> None:
    widget = MilliganWidget(seed=4, rules=preset)
    view = widget.view
    assert len(view["columns"]) == columns and len(view["foundations"]) == foundations
    assert view["reserve"] == reserve and len(view["cells"]) == cells
    assert widget.rules_info["columns"] == columns and widget.rules_info["cells"] == cells


def test_bytes_per_move_stay_small() -> None:
    widget = MilliganWidget(seed=17)
    browser = Browser(widget)
    for _ in range(12):
        browser.request({"type": "deal"})
    sizes = [len(json.dumps(m)) for m in browser.sent]
    assert max(sizes) <= MAX_BYTES_PER_MOVE, sizes


# ------------------------------------------------------------------ restart and new game, undone
def _played(seed: int = 2024, count: int = 12, rules: str = "classic") -> MilliganWidget:
    """A widget on deal ``seed`` with ``count`` moves played (the first legal move each time),
    a comment on the second, and the last move undone (so there is one to redo)."""
    widget = MilliganWidget(seed=seed, rules=rules, hint_time=0)
    for _ in range(count + 1):
        widget.play(widget.game.legal_moves[0])
    widget.game.set_comment("a comment", 2)
    widget.undo()
    return widget


def _line_of_play(game: Game) -> tuple[Any, ...]:
    """The position, its history, the moves to redo and the comments."""
    return (*snapshot(game), tuple(str(m) for m in game.redo_moves), game.comments)


def test_undo_takes_back_a_restart_exactly() -> None:
    widget = _played(count=19)
    game, before = widget.game, _line_of_play(widget.game)
    played = len(game.history)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["moves"] == 0 and view["stats"]["stock"] == 96
    assert view["message"] == f"Restarted this deal. Undo goes back to move {played}."
    assert view["can_undo"] is True and view["can_redo"] is False
    assert widget.game.comments == {} and not widget.game.can_undo  # a fresh start
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["message"] == f"Undone: restart — back to move {played}."
    assert widget.game is game and _line_of_play(widget.game) == before
    assert view["stats"]["moves"] == played and view["can_redo"] is True
    widget.redo()  # its own redo list, as it was
    assert len(widget.game.history) == played + 1
    widget.restart()  # from Python too
    assert widget.undo() is None and widget.game is game
    assert len(game.history) == played + 1 and game.comments == {2: "a comment"}


def test_moves_after_a_restart_are_undone_first_then_the_restart() -> None:
    widget = _played(count=5)
    before = _line_of_play(widget.game)
    widget.restart()
    widget.deal()
    widget.deal()
    assert widget.view["can_undo"] is True
    widget.undo()
    widget.undo()
    assert widget.view["stats"]["moves"] == 0 and widget.view["can_undo"] is True
    assert widget.view["can_redo"] is True  # the restarted game's own redo
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: restart — back to move 5."


def test_restarts_are_undone_one_at_a_time_back_to_the_first() -> None:
    widget = _played(count=3)
    first = _line_of_play(widget.game)
    widget.restart()
    widget.deal()
    second = _line_of_play(widget.game)
    widget.restart()
    assert widget.undo() is None and _line_of_play(widget.game) == second
    widget.undo()  # the deal
    assert widget.undo() is None and _line_of_play(widget.game) == first


def test_a_restart_keeps_the_moves_to_redo_for_undo() -> None:
    widget = _played(count=3)
    widget.goto(0)
    before = _line_of_play(widget.game)
    widget.restart()
    assert widget.view["message"] == "Restarted this deal. Undo brings back the redo."
    assert widget.view["can_redo"] is False and widget.view["can_undo"] is True
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: restart — back to the start, with 4 moves to redo."


def test_a_restart_with_nothing_to_forget_is_not_an_undo_step() -> None:
    widget = MilliganWidget(seed=4)
    widget.restart()
    assert widget.view["message"] == "Restarted this deal." and widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()


def test_undo_takes_back_a_new_game_started_in_the_middle_of_one() -> None:
    widget = _played(count=12)
    game, before = widget.game, _line_of_play(widget.game)
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "new", "seed": "5", "rules": None}))
    assert widget.game.seed == 5 and view["stats"]["moves"] == 0
    assert view["message"] == "New game #5 (classic). Undo brings back the game you left."
    assert view["can_undo"] is True
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["message"] == "Undone: new game — back to deal #2024 after 12 moves."
    assert widget.game is game and _line_of_play(game) == before and view["seed"] == 2024
    view = browser.updated_view(browser.request({"type": "undo"}))  # its own undo history
    assert view["stats"]["moves"] == 11 and view["message"].startswith("Undone: ")


def test_a_new_game_in_another_variant_is_undone_with_its_rules() -> None:
    widget = _played(count=4)
    widget.new_game(5, "little-milligan")
    assert widget.rules_info["name"] == "little-milligan" and widget.view["can_undo"]
    browser = Browser(widget)
    (message,) = browser.request({"type": "undo"})
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.rules_info["name"] == "classic" and len(widget.view["columns"]) == 8


def test_a_new_game_comes_back_only_from_its_start() -> None:
    widget = _played(count=3)
    before = _line_of_play(widget.game)
    widget.new_game(5)
    widget.deal()
    assert widget.undo() is not None  # the deal first
    assert widget.undo() is None and _line_of_play(widget.game) == before


def test_undo_goes_back_past_new_games_not_played() -> None:
    widget = _played(count=3)
    before = _line_of_play(widget.game)
    widget.new_game(6)
    widget.new_game(7)  # #6 was never touched
    widget.restart()  # nothing to restart: not a step either
    assert widget.undo() is None and _line_of_play(widget.game) == before
    assert widget.view["message"] == "Undone: new game — back to deal #2024 after 3 moves."
    widget.restart()
    widget.new_game(8)  # the restart's untouched game is skipped too
    assert widget.view["message"] == "New game #8 (classic). Undo brings back the game you left."
    assert widget.undo() is None and _line_of_play(widget.game) == before


@pytest.mark.parametrize("won", [False, True], ids=["untouched", "won"])
def test_a_new_game_after_a_game_not_in_progress_cannot_be_undone(won) -> None:
    if won:
        widget = MilliganWidget(game=_won_in_one()[0])
        widget.play(_won_in_one()[1])
        assert widget.game.status == "won"
    else:
        widget = MilliganWidget(seed=3)
    widget.new_game(5)
    assert widget.view["message"] == "New game #5 (classic). Good luck!"
    assert widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()
    assert widget.view["message"] == "Nothing to undo." and widget.game.seed == 5


def _won_in_one() -> tuple[Game, Move]:
    queens = ["QC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]  # one King still to go home
    return Game.from_layout(tableau=[["KC"]] + [[]] * 7, foundations=queens), Move("t1", "f")


def test_at_most_the_last_20_restarts_are_kept() -> None:
    from milligan_widget.widget import MAX_SET_ASIDE

    widget = MilliganWidget(seed=4, hint_time=0)
    for _ in range(MAX_SET_ASIDE + 5):
        widget.deal()
        widget.restart()
    undone = 0
    with pytest.raises(IllegalMoveError):
        while True:
            widget.undo()
            undone += 1
    assert MAX_SET_ASIDE == 20 and undone == 2 * MAX_SET_ASIDE  # each restart, then its deal


@pytest.mark.parametrize(
    "replace",
    [
        lambda widget: setattr(widget, "game", Game.new(3)),
        lambda widget: (widget.show_replay(), widget.stop_replay()),
        lambda widget: widget.replay(Game.new(3), delay=0),
    ],
    ids=["assigned game", "replay viewer", "animated replay"],
)
def test_undo_does_not_go_back_past_a_game_shown_otherwise(replace) -> None:
    widget = _played(count=3)
    widget.restart()
    replace(widget)
    while widget.game.can_undo:
        widget.undo()
    assert widget.view["can_undo"] is False
    with pytest.raises(IllegalMoveError):
        widget.undo()


def test_a_restart_in_a_lesson_restarts_the_step_and_is_not_undone() -> None:
    _, browser = _lesson_widget()
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["message"] == "Step restarted." and view["can_undo"] is False
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["kind"] == "error" and view["message"] == "Nothing to undo in this step."


def test_a_win_remembered_before_a_restart_still_answers_after_it(monkeypatch) -> None:
    widget = MilliganWidget(seed=8)
    fake = LineSolver(monkeypatch, _some_line(widget.game))
    widget.hint()  # the solver's win from the deal
    widget.play(fake.line[0])
    widget.restart()
    assert widget.hint()[0] == fake.line[0] and fake.calls == [()]  # from memory
    widget.undo()  # back to the game restarted: its line too
    assert widget.hint()[0] == fake.line[1] and fake.calls == [()]


# ------------------------------------------------------------------ the end of a game
def test_the_winning_move_shows_won_with_the_time() -> None:
    queens = ["QC", "KC", "KS", "KS", "KH", "KH", "KD", "KD"]  # one King still to go home
    game = Game.from_layout(tableau=[["KC"]] + [[]] * 7, foundations=queens)
    widget = MilliganWidget(game=game)
    browser = Browser(widget)
    view = browser.updated_view(
        browser.request({"type": "move", "source": "t1", "target": "f", "count": 1})
    )
    assert view["status"] == "won" and view["kind"] == "won"
    assert view["stats"]["foundations"] == 104 and isinstance(view["elapsed"], float)


def test_assigning_a_game_shows_it() -> None:
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    widget.game = Game.new(5, rules="little-milligan")
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert len(widget.view["columns"]) == 7 and widget.view["seed"] == 5


def test_a_lost_position_says_no_useful_move_is_left() -> None:
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
    clubs = [f"{rank}C" for rank in ranks for _ in range(2)]
    columns = [["AC", "2C"], ["AC", "2C"], *[[]] * 5, clubs]  # nothing can move
    foundations = [None, None, "KS", "KS", "KH", "KH", "KD", "KD"]
    widget = MilliganWidget(game=Game.from_layout(columns, foundations, rules="millie"))
    view = widget.view
    assert view["status"] == "lost" and view["kind"] == "lost"
    assert "No useful move is left" in view["message"]
    assert view["can_deal"] is False and view["targets"] == {}


# ------------------------------------------------------------------ lesson mode
def _lesson_widget(start: int = 0) -> tuple[MilliganWidget, Browser]:
    from milligan_widget.lessons import LessonRun
    from milligan_widget.tutorial import learn_the_rules

    widget = MilliganWidget(seed=3, lesson=LessonRun(learn_the_rules(), start))
    return widget, Browser(widget)


def _move(source: str, target: str, count: int = 1) -> dict[str, Any]:
    return {"type": "move", "source": source, "target": target, "count": count}


def test_a_lesson_shows_its_step_and_panel() -> None:
    widget, _ = _lesson_widget()
    run = widget.lesson_run
    assert widget.mode == "lesson" and widget.game is run.game
    assert widget.panel["mode"] == "lesson" and len(widget.panel["steps"]) == 16
    view = widget.view
    assert view["mode"] == "lesson" and view["lesson"] == run.summary()
    assert view["columns"] == [[str(c) for c in col] for col in run.game.tableau]
    assert view["lesson"]["title"] == "The deal" and view["lesson"]["step_done"] is False


def test_a_right_drop_in_a_lesson_is_played_and_finishes_the_step() -> None:
    widget, browser = _lesson_widget()
    played: list[Move] = []
    widget.on_move(played.append)
    view = browser.updated_view(browser.request(_move("t1", "f1")))
    assert view["kind"] == "correct" and view["message"].startswith("Right: A♣")
    assert view["last"]["source"] == "t1" and view["stats"]["foundations"] == 1
    assert view["lesson"]["moves_done"] == 1 and not view["lesson"]["step_done"]
    view = browser.updated_view(browser.request(_move("t2", "f")))
    assert view["kind"] == "done" and view["lesson"]["step_done"] is True
    assert widget.lesson_run.step_done and [str(m) for m in played] == ["1>f1", "2>f"]
    view = browser.updated_view(browser.request({"type": "next"}))
    assert view["lesson"]["index"] == 1 and view["lesson"]["title"] == "An Ace starts a foundation"
    assert view["columns"] == [[str(c) for c in col] for col in widget.game.tableau]


@pytest.mark.parametrize(
    ("request_", "kind"),
    [
        ({"type": "deal"}, "wrong"),  # legal, but not the task
        (_move("t2", "f"), "illegal"),  # the 2♣ before the A♣
        (_move("t1", "t2"), "illegal"),
    ],
)
def test_a_wrong_or_illegal_drop_in_a_lesson_changes_nothing(request_, kind) -> None:
    widget, browser = _lesson_widget()
    before = snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == kind and view["message"] and view["last"] is None
    assert snapshot(widget.game) == before and not widget.lesson_run.step_done
    assert view["lesson"]["moves_done"] == 0


def test_a_listed_mistake_is_explained() -> None:
    widget, browser = _lesson_widget(start=10)  # "Mistake: building by suit"
    view = browser.updated_view(browser.request(_move("t3", "t1")))
    assert view["kind"] == "illegal" and "Same suit does not help" in view["message"]
    view = browser.updated_view(browser.request(_move("t3", "t2")))
    assert view["kind"] == "done" and widget.lesson_run.step_done


@pytest.mark.parametrize(
    "request_",
    [
        {"type": "redo"},
        {"type": "auto"},
        {"type": "new", "seed": 4},
        {"type": "seek", "ply": 1},
        {"type": "next"},  # the step is not done yet
        _move("t1", "t99"),
        _move("t1", "reserve", 0),
        {"type": "move", "source": "f", "target": "t1", "count": 1},
        {"type": "fly"},
    ],
)
def test_requests_that_make_no_sense_in_a_lesson_are_refused(request_) -> None:
    widget, browser = _lesson_widget()
    game, before = widget.game, snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and view["message"]
    assert widget.mode == "lesson" and widget.game is game and snapshot(game) == before
    assert view["lesson"]["index"] == 0


def test_lesson_hint_undo_restart_previous_and_close() -> None:
    widget, browser = _lesson_widget()
    game_before = widget._game
    view = browser.updated_view(browser.request({"type": "hint"}))
    assert view["kind"] == "hint" and view["hint"]["source"] == "t1"
    assert "A♣" in view["message"]
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "undo"}))
    assert view["stats"]["foundations"] == 0 and view["lesson"]["moves_done"] == 0
    browser.request(_move("t1", "f"))
    view = browser.updated_view(browser.request({"type": "restart"}))
    assert view["stats"]["foundations"] == 0 and view["message"] == "Step restarted."
    view = browser.updated_view(browser.request({"type": "previous"}))
    assert view["kind"] == "info" and view["lesson"]["index"] == 0
    (message,) = browser.request({"type": "close"})
    assert set(message["state"]) == {"view", "panel"}
    assert widget.mode == "play" and widget.game is game_before
    assert widget.panel == {"mode": "play"} and "lesson" not in widget.view


def test_a_step_in_another_variant_resends_the_rules() -> None:
    from milligan_widget.tutorial import variants_tour

    widget = MilliganWidget(seed=3)
    browser = Browser(widget)
    widget.start_lesson(variants_tour(), start=2)  # single-card: same piles as classic
    assert widget.rules_info["name"] == "single-card"
    browser.sent.clear()
    widget.goto_step(3)  # Milligan Cell: four free cells, no reserve
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "rules_info"}
    assert widget.rules_info["cells"] == 4 and widget.view["reserve"] is None
    assert len(widget.view["cells"]) == 4


def test_lesson_from_python_play_raises_on_a_wrong_move() -> None:
    widget, _ = _lesson_widget()
    with pytest.raises(IllegalMoveError):
        widget.play("2>f")
    assert widget.view["kind"] == "illegal"
    assert str(widget.play("1>f")) == "1>f"
    feedback = widget.attempt("2>f")
    assert feedback.step_done and widget.view["kind"] == "done"
    assert widget.next_step() and widget.lesson_run.index == 1


# ------------------------------------------------------------------ replay viewer
def _commented_game() -> Game:
    game = Game.new(8)
    for move in ["d", "7>f", "7>1", "8>6", "5>4", "6>1", "1>4", "1>7", "3>1", "d"]:
        game.play(move)
    game.set_comment("the A♥ goes home at once", 2)
    game.set_comment("a second row", 10)
    return game


def test_replay_viewer_lists_the_moves_in_words_with_comments(tmp_path) -> None:
    saved = _commented_game()
    path = tmp_path / "game.json"
    saved.save(path)
    widget = MilliganWidget(seed=1)
    browser = Browser(widget)
    widget.show_replay(path)
    (message,) = browser.sent
    assert set(message["state"]) == {"view", "panel"}  # same rules: no rules_info
    moves = widget.panel["moves"]
    assert widget.mode == "replay" and len(moves) == 10
    assert moves[1] == {"text": "A♥ from column 7 to the hearts foundation (5)",
                        "comment": "the A♥ goes home at once"}  # fmt: skip
    assert moves[0]["comment"] is None
    view = widget.view
    assert view["replay"] == {"ply": 0, "count": 10} and view["targets"] == {}
    assert view["stats"]["stock"] == 96


def test_replay_viewer_steps_both_ways_with_one_update_each() -> None:
    saved = _commented_game()
    widget = MilliganWidget(game=saved.copy(), replay_viewer=True)
    browser = Browser(widget)
    positions = [position for _, position in saved.replay()]
    for ply in [1, 2, 3, 10, 9, 0, 5]:
        view = browser.updated_view(browser.request({"type": "seek", "ply": ply}))
        assert view["replay"]["ply"] == ply and len(widget.game.history) == ply
        assert view["columns"] == [[str(c) for c in col] for col in positions[ply].tableau]
    view = browser.updated_view(browser.request({"type": "seek", "ply": 2}))
    assert view["message"].endswith("— the A♥ goes home at once")
    widget.step_to(3)
    assert widget.view["last"]["source"] == "t7"  # one step on: the move is animated
    assert widget.game.comments == saved.comments


@pytest.mark.parametrize(
    "request_",
    [
        {"type": "seek", "ply": -1},
        {"type": "seek", "ply": 11},
        {"type": "seek", "ply": "3"},
        {"type": "seek", "ply": True},
        {"type": "seek"},
        {"type": "deal"},
        {"type": "undo"},
        {"type": "hint"},
        {"type": "next"},
        _move("t1", "t2"),
    ],
)
def test_replay_viewer_refuses_moves_and_bad_seeks(request_) -> None:
    widget = MilliganWidget(game=_commented_game(), replay_viewer=True)
    widget.step_to(4)
    browser = Browser(widget)
    before = snapshot(widget.game)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and view["message"]
    assert snapshot(widget.game) == before and view["replay"]["ply"] == 4


def test_closing_the_replay_plays_on_from_the_position_shown() -> None:
    widget = MilliganWidget(game=_commented_game(), replay_viewer=True)
    widget.step_to(6)
    browser = Browser(widget)
    browser.request({"type": "close"})
    assert widget.mode == "play" and widget.panel == {"mode": "play"}
    assert len(widget.game.history) == 6 and widget.game.can_redo
    widget.redo()
    assert widget.game.comments == _commented_game().comments  # the line is kept for redo


def test_replay_stepping_is_instant() -> None:
    import time

    from tests.browser.test_browser import WIN_8

    game = Game.new(8)
    for move in WIN_8.split():
        game.play(move)
    widget = MilliganWidget(game=game, replay_viewer=True)
    count = len(game.history)
    start = time.perf_counter()
    for ply in [*range(count + 1), *range(count, -1, -1), count, 0]:
        widget.step_to(ply)
    per_step = (time.perf_counter() - start) / (2 * count + 4)
    assert per_step < 0.01, f"{per_step * 1000:.1f} ms per step"
    assert widget.view["replay"] == {"ply": 0, "count": count}


def test_the_animated_replay_keeps_the_comments(tmp_path) -> None:
    saved = _commented_game()
    path = tmp_path / "game.json"
    saved.save(path)
    widget = MilliganWidget(seed=99)
    widget.replay(path, delay=0)
    assert widget.game.comments == saved.comments
    assert [str(m) for m in widget.game.history] == [str(m) for m in saved.history]
    assert widget.view["message"].endswith("— a second row")
    widget.save(tmp_path / "again.json")
    assert Game.load(tmp_path / "again.json").comments == saved.comments


# ------------------------------------------------------------------ the solver in the widget
def shown(
    state: str | None, why: str = "", *, enabled: bool = True, can_think: bool = False
) -> dict[str, Any]:
    """The analysis trait showing ``state`` and why."""
    return {"enabled": enabled, "state": state, "why": why, "can_think": can_think}


class SlowSolver:
    """Stands in for ``solver.solve`` / ``solver.hint``: each call waits to be released."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "winnable") -> None:
        import threading

        from milligan_widget import solver

        self.status = status
        self.calls: list[Game] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Semaphore(0)

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
            self.calls.append(game)
            self.started.release()
            assert self.release.acquire(timeout=10), "never released"
            return solver.SolveResult(self.status)  # a verdict without a line to remember

        monkeypatch.setattr(solver, "solve", solve)

    def wait_started(self) -> None:
        assert self.started.acquire(timeout=10), "the solver was never called"


def test_solver_hints_are_legal_and_keep_deal_8_winnable() -> None:
    from milligan_widget.solver import solve

    widget = MilliganWidget(seed=8)
    assert widget.hint_time == 2.0
    widget.hint_time = 10  # a margin for a loaded machine: the solver wins deal 8 in ~1 s
    browser = Browser(widget)
    for ply in range(3):
        view = browser.updated_view(browser.request({"type": "hint"}))
        if ply == 0:
            assert view["kind"] == "thinking" and "thinking" in view["message"].lower()
            assert view["hint"] is None
            assert widget.wait(10)
            view = browser.updated_view(browser.sent[-1:])
        # The next hints answer at once: the first hint's win is remembered.
        assert view["kind"] == "hint" and view["message"].startswith("Solver: ")
        move = Move.parse(view["hint"]["text"])
        assert move in widget.game.legal_moves or widget.game.explain(move) is None
        widget.play(move)
    assert solve(widget.game, time_limit=10).status == "winnable"


def test_a_hint_that_finds_no_win_says_heuristic(monkeypatch) -> None:
    from milligan_widget import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unknown"))
    widget = MilliganWidget(seed=2)
    move, why = widget.hint()
    assert widget.view["message"].startswith("Heuristic: ") and "could not decide" in why
    assert (move, why.split(" (")[0]) == widget.game.hint()


def test_the_kernel_handles_clicks_while_the_solver_thinks(monkeypatch, widget_with_move) -> None:
    import time

    widget, move = widget_with_move
    slow = SlowSolver(monkeypatch, status="unknown")
    browser = Browser(widget)
    browser.request({"type": "hint"})
    slow.wait_started()
    start = time.perf_counter()
    view = browser.updated_view(browser.request(_move(move.source, move.target, 1)))
    assert time.perf_counter() - start < 0.5 and view["stats"]["moves"] == 1
    count = len(browser.sent)
    slow.release.release()
    assert widget.wait(10)
    assert len(browser.sent) == count  # the hint was for the position before: dropped
    assert widget.view["kind"] != "hint"


def test_the_indicator_checks_in_the_background_and_drops_stale_results(
    monkeypatch, widget_with_move
) -> None:
    widget, move = widget_with_move
    slow = SlowSolver(monkeypatch, status="unknown")
    browser = Browser(widget)
    assert widget.analysis == shown(None, enabled=False)
    sent = browser.request({"type": "winnable", "on": True})
    checking = shown("checking", "the solver has up to 3 s")
    assert [m["state"] for m in sent] == [{"analysis": checking}]
    slow.wait_started()  # the deal's check is running
    (message,) = browser.request(_move(move.source, move.target, 1))
    assert "analysis" not in message["state"]  # still "checking", now the new position
    assert widget.analysis["state"] == "checking"
    assert message["state"]["view"]["stats"]["moves"] == 1
    slow.status = "winnable"  # would be the answer for the deal: it must not show
    slow.release.release()
    slow.wait_started()  # the worker went on to the newest position
    assert widget.analysis["state"] == "checking"
    slow.status = "unknown"
    slow.release.release()
    assert widget.wait(10)
    assert widget.analysis == shown("unknown", "no answer within 3 s", can_think=True)
    assert [str(m) for m in slow.calls[1].history] == [str(m) for m in widget.game.history]
    sent = browser.request({"type": "winnable", "on": False})
    assert [m["state"] for m in sent] == [{"analysis": shown(None, enabled=False)}]


def test_the_indicator_on_deal_8_says_winnable() -> None:
    widget = MilliganWidget(seed=8, check_winnable=True)
    assert widget.analysis == shown("checking", "the solver has up to 3 s")
    assert widget.wait(10)
    moves = len(widget._line)
    assert widget.analysis == shown("winnable", f"the solver found a win in {moves} moves")
    widget.start_lesson(__import__("milligan_widget.tutorial").tutorial.learn_the_rules())
    assert widget.analysis["state"] is None  # nothing to check in a lesson


@pytest.mark.parametrize("request_", [{"type": "winnable"}, {"type": "winnable", "on": 1}])
def test_a_bad_indicator_request_is_refused(request_) -> None:
    widget = MilliganWidget(seed=3)
    browser = Browser(widget)
    view = browser.updated_view(browser.request(request_))
    assert view["kind"] == "error" and widget.check_winnable is False


def test_show_solution_plays_deal_8_to_a_win_move_by_move() -> None:
    widget = MilliganWidget(seed=8)
    browser = Browser(widget)
    widget.show_solution(time_limit=10, delay=0, wait=True)
    assert widget.game.status == "won" and widget.view["busy"] is None
    views_sent = [m["state"]["view"] for m in browser.sent if "view" in m["state"]]
    assert views_sent[0]["kind"] == "thinking" and views_sent[0]["busy"] == "solution"
    played = views_sent[1:]
    assert len(played) == len(widget.game.history)  # one update per move, never the list
    assert all(len(json.dumps(v)) < MAX_BYTES_PER_MOVE for v in played)
    assert played[0]["message"].startswith("Solution 1/")
    assert played[-1]["kind"] == "won"


def test_stop_stops_the_solution(monkeypatch) -> None:
    import time

    widget = MilliganWidget(seed=8)
    browser = Browser(widget)
    widget.show_solution(time_limit=10, delay=0.2)
    deadline = time.monotonic() + 20
    while len(widget.game.history) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    view = browser.updated_view(browser.request({"type": "stop"})[-1:])
    played = len(widget.game.history)
    assert view["busy"] is None and view["message"].startswith("Solution stopped after")
    time.sleep(0.5)
    assert len(widget.game.history) == played and widget.game.status == "playing"
    assert widget.stop() is False
    view = browser.updated_view(browser.request({"type": "stop"}))
    assert view["message"] == "Nothing to stop."
    # From Python, and a move by the player stops it too.
    widget.show_solution(time_limit=10, delay=0.2)
    while len(widget.game.history) < played + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert widget.stop() is True
    played = len(widget.game.history)
    widget.show_solution(time_limit=10, delay=0.2)
    while len(widget.game.history) < played + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    browser.request({"type": "undo"})
    assert widget.view["busy"] is None
    after = len(widget.game.history)
    time.sleep(0.5)
    assert len(widget.game.history) == after


def test_the_solution_refuses_in_a_lesson_and_says_when_there_is_no_win(monkeypatch) -> None:
    from milligan_widget import solver
    from milligan_widget.tutorial import learn_the_rules

    widget = MilliganWidget(seed=4, lesson=learn_the_rules())
    browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "solution"}))
    assert view["kind"] == "error"
    widget.stop_lesson()
    lost = solver.SolveResult("unwinnable")
    monkeypatch.setattr(solver, "solve", lambda game, **limits: lost)
    widget.show_solution(wait=True)
    assert widget.view["message"] == "Solver: this position can no longer be won."
    assert widget.view["busy"] is None and not widget.game.history


def test_a_lost_position_names_the_card_that_is_trapped_for_good() -> None:
    from tests.staging import stage

    widget = MilliganWidget(game=stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    widget.show_solution(wait=True)
    assert widget.view["message"] == (
        "Solver: this position can no longer be won: Q♣ in column 1 can never move or go home."
    )
    widget.check_winnable = True
    assert widget.wait() and widget.analysis == shown(
        "unwinnable", "Q♣ in column 1 can never move or go home"
    )


def test_the_first_message_fits_the_game_on_show() -> None:
    assert "Good luck" in MilliganWidget(seed=5).view["message"]
    played = Game.new(5)
    played.play("2>6")
    assert MilliganWidget(game=played).view["message"].startswith("Game #5 (classic) after 1 move")
    staged = Game.new(5).copy(history=False)
    assert MilliganWidget(game=staged).view["message"].startswith("A staged position")


# ------------------------------------------------------------------ remembered wins, stopping
class LineSolver:
    """Stands in for ``solver.solve``: a win along ``line`` for the position whose history is
    ``start`` (the widget takes a line on trust), "unknown" elsewhere; records each call's
    history (``solver.hint`` asks it too)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, line=(), start=()) -> None:
        from milligan_widget import solver

        self.line, self.start = tuple(line), tuple(start)
        self.calls: list[tuple[str, ...]] = []

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
            history = tuple(str(m) for m in game.history)
            self.calls.append(history)
            if self.line and history == self.start:
                return solver.SolveResult("winnable", self.line)
            return solver.SolveResult("unknown")

        monkeypatch.setattr(solver, "solve", solve)


class StoppableSolver:
    """Stands in for ``solver.solve``: each call searches until ``stop()`` is true (then
    answers "unknown", as the real one does) or until released (then answers ``status``),
    and records its history and whether it was stopped."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "unwinnable") -> None:
        import threading
        import time

        from milligan_widget import solver

        self.status, self.obey = status, True
        self.calls: list[tuple[str, ...]] = []
        self.stopped: list[bool] = []
        self.started = threading.Semaphore(0)
        self.release = threading.Event()

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
            index = len(self.calls)
            self.calls.append(tuple(str(m) for m in game.history))
            self.stopped.append(False)
            self.started.release()
            deadline = time.monotonic() + 20
            while not self.release.is_set() and time.monotonic() < deadline:
                if self.obey and stop is not None and stop():
                    self.stopped[index] = True
                    return solver.SolveResult("unknown")
                time.sleep(0.002)
            self.release.clear()
            return solver.SolveResult(self.status, self.moves(game))

        monkeypatch.setattr(solver, "solve", solve)

    def moves(self, game: Game) -> tuple[Move, ...]:
        return _some_line(game) if self.status == "winnable" else ()

    def wait_started(self) -> None:
        assert self.started.acquire(timeout=10), "the solver was never called"


def _some_line(game: Game, count: int = 6) -> tuple[Move, ...]:
    """``count`` legal moves played one after another from the position of ``game``."""
    board, line = game.copy(), []
    for _ in range(count):
        line.append(board.play(board.legal_moves[0]))
    return tuple(line)


def _history(widget: MilliganWidget) -> tuple[str, ...]:
    return tuple(str(m) for m in widget.game.history)


def test_a_win_the_indicator_finds_answers_hints_from_memory(monkeypatch) -> None:
    from milligan_widget import solver

    found: list[solver.SolveResult] = []
    real_solve = solver.solve

    def recording(game: Game, **limits: Any) -> solver.SolveResult:
        found.append(real_solve(game, **limits))
        return found[-1]

    monkeypatch.setattr(solver, "solve", recording)
    widget = MilliganWidget(seed=8, check_winnable=True, winnable_time=10)
    assert widget.wait(60)
    assert widget.analysis["state"] == "winnable"  # the solver wins deal 8 in a few seconds
    line = found[-1].moves
    fake = LineSolver(monkeypatch)  # from here on, every solve is counted
    browser = Browser(widget)
    for ply in range(3):  # following the hints keeps answering from memory
        view = browser.updated_view(browser.request({"type": "hint"}))
        left = len(line) - ply
        assert view["kind"] == "hint" and view["message"].startswith("Solver: ")
        assert view["message"].endswith(f"the solver sees a win from here in {left} moves.")
        assert view["hint"]["text"] == str(line[ply])
        move, why = widget.hint()
        assert move == line[ply] and why == f"the solver sees a win from here in {left} moves"
        widget.play(move)
        assert widget.analysis["state"] == "winnable"  # at once, no check
    assert fake.calls == []
    off = first_legal(widget.game, lambda m: str(m) != str(line[3]))
    widget.play(off)  # leaving the line: fresh solves again
    assert widget.analysis["state"] == "checking"
    move, why = widget.hint()
    assert widget.wait(10) and widget.analysis["state"] == "unknown"
    assert fake.calls == [_history(widget)] * 2
    assert "heuristic guess" in why
    widget.undo()  # back on the line
    assert widget.analysis["state"] == "winnable"
    assert widget.hint()[0] == line[3] and len(fake.calls) == 2
    widget.show_solution(delay=0, wait=True)  # plays at once, the line it remembers
    assert widget.game.status == "won" and len(fake.calls) == 2
    assert [str(m) for m in widget.game.history] == [str(m) for m in line]


def test_a_win_a_hint_finds_serves_the_indicator_and_the_solution(monkeypatch) -> None:
    widget = MilliganWidget(seed=8)
    line = _some_line(widget.game)
    fake = LineSolver(monkeypatch, line)
    browser = Browser(widget)
    move, why = widget.hint()
    assert move == line[0] and why == f"the solver sees a win from here in {len(line)} moves"
    assert widget.view["message"].startswith("Solver: ") and fake.calls == [()]
    widget.play(move)
    widget.check_winnable = True
    assert widget.analysis == shown("winnable", f"the solver found a win in {len(line) - 1} moves")
    widget.check_winnable = False
    sent = browser.request({"type": "solution"})  # the first move may follow at once
    view = next(m["state"]["view"] for m in sent if "view" in m["state"])
    assert view["busy"] == "solution" and view["kind"] != "thinking"
    assert view["message"] == f"Solution: the solver's win in {len(line) - 1} moves"
    assert widget.wait(10) and fake.calls == [()]
    assert [str(m) for m in widget.game.history] == [str(m) for m in line]


def test_a_win_a_hint_finds_ends_the_indicators_check_at_once(monkeypatch) -> None:
    import threading

    from milligan_widget import solver

    widget = MilliganWidget(seed=8, winnable_time=7)
    line = _some_line(widget.game)
    checking, stopped = threading.Event(), []

    def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None):
        if time_limit != 7:  # the hint's solve: a win
            return solver.SolveResult("winnable", line)
        checking.set()  # the indicator's check: searches until stopped
        while not stop():
            threading.Event().wait(0.002)
        stopped.append(True)
        return solver.SolveResult("unknown")

    monkeypatch.setattr(solver, "solve", solve)
    widget.check_winnable = True
    assert checking.wait(10)
    assert widget.hint()[0] == line[0]
    assert widget.analysis["state"] == "winnable"
    assert widget.wait(10) and stopped == [True]
    assert widget.analysis["state"] == "winnable"


@pytest.mark.parametrize(
    "replace",
    [
        lambda widget: widget.new_game(8),
        lambda widget: setattr(widget, "game", widget.game.copy()),
        lambda widget: (widget.start_lesson(_tutorial()), widget.stop_lesson()),
        lambda widget: (widget.show_replay(), widget.stop_replay()),
    ],
    ids=["new deal", "assigned game", "lesson", "replay"],
)
def test_a_new_game_or_mode_forgets_the_win(monkeypatch, replace) -> None:
    widget = MilliganWidget(seed=8)
    fake = LineSolver(monkeypatch, _some_line(widget.game))
    widget.hint()
    widget.hint()  # remembered
    assert fake.calls == [()]
    replace(widget)
    widget.hint()
    assert fake.calls == [(), ()]


def _tutorial() -> Any:
    from milligan_widget.tutorial import learn_the_rules

    return learn_the_rules()


def test_a_win_found_for_a_game_no_longer_on_show_is_not_remembered(monkeypatch) -> None:
    widget = MilliganWidget(seed=8)
    slow = StoppableSolver(monkeypatch, status="winnable")
    slow.obey = False  # a solve that does not notice it was stopped
    widget.hint(wait=False)
    slow.wait_started()
    widget.new_game(8)  # the same deal, another game
    slow.release.set()
    assert widget.wait(10) and widget.view["kind"] == "info"  # the old hint is dropped
    slow.status = "unknown"
    widget.hint(wait=False)
    slow.wait_started()  # asked again: the old game's win was not kept for this one
    slow.release.set()
    assert widget.wait(10) and widget.view["message"].startswith("Heuristic: ")


def test_a_check_for_a_position_left_is_stopped(monkeypatch, widget_with_move) -> None:
    widget, move = widget_with_move
    slow = StoppableSolver(monkeypatch)
    browser = Browser(widget)
    browser.request({"type": "winnable", "on": True})
    slow.wait_started()  # the deal's check is running
    browser.request(_move(move.source, move.target, 1))
    slow.wait_started()  # the deal's check ended: it was stopped
    assert slow.stopped == [True, False]
    assert slow.calls == [(), _history(widget)]
    assert widget.analysis["state"] == "checking"  # the stopped check showed nothing
    slow.release.set()
    assert widget.wait(10) and widget.analysis["state"] == "unwinnable"
    widget.undo()
    slow.wait_started()
    widget.check_winnable = False  # switching the indicator off stops its check
    assert widget.wait(10) and slow.stopped == [True, False, True]
    assert widget.analysis == shown(None, enabled=False)


def test_a_hint_for_a_position_left_is_stopped(monkeypatch, widget_with_move) -> None:
    widget, move = widget_with_move
    slow = StoppableSolver(monkeypatch, status="winnable")
    browser = Browser(widget)
    browser.request({"type": "hint"})
    slow.wait_started()
    widget.play(move)
    assert widget.wait(10) and slow.stopped == [True]
    assert widget.view["kind"] != "hint" and widget.view["hint"] is None
    widget.undo()  # back where the hint was asked: it is asked afresh, not the stopped one
    assert widget.hint(wait=False) is None
    slow.wait_started()
    slow.release.set()
    assert widget.wait(10) and widget.view["message"].startswith("Solver: ")
    assert slow.stopped == [True, False]


def test_a_solution_stopped_while_the_solver_searches_stops_the_solver(
    monkeypatch, widget_with_move
) -> None:
    widget, move = widget_with_move
    slow = StoppableSolver(monkeypatch, status="winnable")
    widget.show_solution()
    slow.wait_started()
    assert widget.stop() is True
    assert widget.wait(10) and slow.stopped == [True]
    assert widget.view["message"] == "Solution stopped after 0 moves."
    widget.show_solution()
    slow.wait_started()
    widget.play(move)  # a move by the player
    assert widget.view["busy"] is None
    assert widget.wait(10) and slow.stopped == [True, True]
    assert len(widget.game.history) == 1 and widget.view["kind"] == "info"


# ------------------------------------------------------------------ the verdict says why
def test_the_verdict_says_why_for_a_loss_without_a_trapped_card(monkeypatch) -> None:
    from milligan_widget import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unwinnable"))
    widget = MilliganWidget(seed=5, check_winnable=True)
    assert widget.wait(10)
    assert widget.analysis == shown("unwinnable", "the solver searched every line")


def test_the_verdict_says_won_once_all_cards_are_home() -> None:
    game, move = _won_in_one()
    widget = MilliganWidget(game=game, check_winnable=True)
    assert widget.wait(10)
    widget.play(move)
    assert widget.analysis == shown("won", "all cards are home")
    widget.check_winnable = False
    assert widget.analysis == shown(None, enabled=False)


def test_the_verdict_on_a_game_with_no_useful_move_left_says_why() -> None:
    ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
    clubs = [f"{rank}C" for rank in ranks for _ in range(2)]
    columns = [["AC", "2C"], ["AC", "2C"], *[[]] * 5, clubs]
    foundations = [None, None, "KS", "KS", "KH", "KH", "KD", "KD"]
    game = Game.from_layout(columns, foundations, rules="millie")
    widget = MilliganWidget(game=game, check_winnable=True)
    assert widget.analysis["state"] == "unwinnable" and widget.analysis["why"]
    assert widget.analysis["can_think"] is False


# ------------------------------------------------------------------ think longer
class ThinkingSolver:
    """Stands in for ``solver.solve``: reports ``progress`` as given, then searches until
    released (answering ``status``) or stopped (answering "unknown"); records each call's
    history and time limit."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, status: str = "winnable",
                 progress=((1_000, 0.2), (2_000, 0.6), (130_000, 12.4))) -> None:  # fmt: skip
        import threading

        from milligan_widget import solver

        self.status, self.steps = status, progress
        self.calls: list[tuple[tuple[str, ...], float]] = []
        self.stopped: list[bool] = []
        self.reported = threading.Semaphore(0)
        self.release = threading.Event()

        def solve(game: Game, time_limit: float = 10.0, node_limit=None, stop=None,
                  progress=None):  # fmt: skip
            self.calls.append((tuple(str(m) for m in game.history), time_limit))
            for positions, seconds in self.steps:
                if progress is not None:
                    progress(positions, seconds)
            self.reported.release()
            while not self.release.wait(0.002):
                if stop is not None and stop():
                    self.stopped.append(True)
                    return solver.SolveResult("unknown")
            self.release.clear()
            self.stopped.append(False)
            moves = _some_line(game) if self.status == "winnable" else ()
            return solver.SolveResult(self.status, moves)

        monkeypatch.setattr(solver, "solve", solve)

    def wait_reported(self) -> None:
        assert self.reported.acquire(timeout=10), "the solver was never called"


def _undecided_widget(monkeypatch) -> MilliganWidget:
    """A widget whose hint fell back on the heuristic: the solver found no answer."""
    from milligan_widget import solver

    monkeypatch.setattr(solver, "solve", lambda game, **limits: solver.SolveResult("unknown"))
    widget = MilliganWidget(seed=8)
    widget.hint()
    return widget


def test_think_longer_is_offered_once_the_solver_had_no_answer(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    assert widget.view["message"].startswith("Heuristic: ")
    assert widget.analysis == shown(None, enabled=False, can_think=True)  # the indicator is off
    widget.play(widget.game.legal_moves[0])
    assert widget.analysis["can_think"] is False  # nothing was asked about this position
    widget.check_winnable = True
    assert widget.wait(10)
    assert widget.analysis == shown("unknown", "no answer within 3 s", can_think=True)


def test_think_longer_shows_progress_then_the_verdict_and_remembers_the_win(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    browser = Browser(widget)
    sent = browser.request({"type": "think"})
    view = next(m["state"]["view"] for m in sent if "view" in m["state"])
    assert view["kind"] == "thinking" and view["busy"] == "think"
    assert view["message"] == "Thinking longer… (the solver has up to 30 s; Stop stops it)"
    fake.wait_reported()
    analyses = [m["state"]["analysis"] for m in browser.sent if "analysis" in m["state"]]
    assert [a["why"] for a in analyses] == [
        "thinking… the solver has up to 30 s",
        "thinking… 1 s, 2,000 positions",  # 0.2 s was too soon after the start to show
        "thinking… 12 s, 130,000 positions",
    ]
    assert {(a["state"], a["can_think"]) for a in analyses} == {("checking", False)}
    assert fake.calls == [((), 30.0)]
    fake.release.set()
    assert widget.wait(10)
    line = len(widget._line)
    assert widget.analysis == shown("winnable", f"the solver found a win in {line} moves",
                                    enabled=False)  # fmt: skip
    assert widget.view["message"] == (
        f"Solver: a win in {line} moves from here. Hint and Solution ▶ follow it."
    )
    assert widget.view["busy"] is None
    move, why = widget.hint()  # from memory: no new solve
    assert why.startswith("the solver sees a win") and len(fake.calls) == 1
    widget.play(move)
    assert widget.analysis["state"] is None  # another position: the indicator is off


def test_stop_stops_think_longer_and_says_how_far_it_got(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    browser = Browser(widget)
    browser.request({"type": "think"})
    fake.wait_reported()
    view = browser.updated_view(browser.request({"type": "stop"})[-1:])
    assert view["message"] == "Thinking stopped after 12 s and 130,000 positions."
    assert view["busy"] is None
    assert widget.wait(10) and fake.stopped == [True]
    assert widget.analysis == shown(
        "unknown", "stopped after 12 s and 130,000 positions", enabled=False, can_think=True
    )
    assert widget.stop() is False


def test_think_longer_doubles_its_time_on_each_press_that_found_nothing(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch, status="unknown", progress=())
    fake.release.set()
    browser = Browser(widget)
    for seconds in (30, 60, 120):
        browser.request({"type": "think"})
        assert widget.wait(10)
        fake.release.set()
        next_time = seconds * 2
        assert widget.view["message"] == (
            f"Solver: no answer within {seconds} s. Think longer gives it {next_time} s."
        )
        assert widget.analysis == shown(
            "unknown", f"no answer within {seconds} s", enabled=False, can_think=True
        )
    assert [limit for _, limit in fake.calls] == [30, 60, 120]
    widget.play(widget.game.legal_moves[0])  # another position: 30 s again
    browser.request({"type": "think"})
    assert widget.wait(10) and fake.calls[-1] == (_history(widget), 30)


def test_think_longer_is_stopped_when_the_player_moves_on(monkeypatch) -> None:
    widget = _undecided_widget(monkeypatch)
    fake = ThinkingSolver(monkeypatch)
    widget.think_longer(5)
    fake.wait_reported()
    widget.play(widget.game.legal_moves[0])
    assert widget.view["busy"] is None
    assert widget.wait(10) and fake.stopped == [True]
    assert widget.analysis == shown(None, enabled=False)
    assert "Solver" not in widget.view["message"]


def test_think_longer_from_python_waits_for_the_verdict(monkeypatch) -> None:
    from tests.staging import stage

    widget = MilliganWidget(game=stage({1: "JC QC", 2: "JC QC"}, rules="millie"))
    result = widget.think_longer(5, wait=True)
    assert result.status == "unwinnable"
    assert widget.analysis == shown(
        "unwinnable", "Q♣ in column 1 can never move or go home", enabled=False
    )
    assert widget.view["message"] == (
        "Solver: this position can no longer be won: Q♣ in column 1 can never move or go home."
    )


def test_think_longer_with_the_real_solver_reports_growing_progress() -> None:
    widget = MilliganWidget(seed=19)  # not decided in 10 s
    browser = Browser(widget)
    result = widget.think_longer(1.6, wait=True)
    assert result.status == "unknown" and widget.wait(10)
    whys = [m["state"]["analysis"]["why"] for m in browser.sent if "analysis" in m["state"]]
    counts = [int(re.sub(r"\D", "", why.split(", ")[1])) for why in whys if "positions" in why]
    assert len(counts) >= 2 and counts == sorted(counts) and counts[0] < counts[-1]
    assert whys[-1] == "no answer within 1.6 s"


@pytest.mark.parametrize("where", ["lesson", "replay"])
def test_think_longer_is_for_a_game(where) -> None:
    if where == "lesson":
        widget, browser = _lesson_widget()
    else:
        widget = MilliganWidget(game=_commented_game(), replay_viewer=True)
        browser = Browser(widget)
    view = browser.updated_view(browser.request({"type": "think"}))
    assert view["kind"] == "error" and view["busy"] is None
    with pytest.raises(IllegalMoveError):
        widget.think_longer()


# ------------------------------------------------------------------ play polish (issue 10)
def test_a_bad_deal_number_is_refused_in_a_players_words() -> None:
    widget = MilliganWidget(seed=4)
    before = snapshot(widget.game)
    view = Browser.updated_view(Browser(widget).request({"type": "new", "seed": "12abc"}))
    assert view["kind"] == "error"
    assert view["message"].startswith("“12abc” is not a deal number: type a whole number")
    assert "Request refused" not in view["message"]
    assert snapshot(widget.game) == before and widget.game.seed == 4


def test_the_theme_setting_takes_three_values() -> None:
    widget = MilliganWidget(seed=1, theme="dark")
    assert widget.theme == "dark"
    Browser(widget).set_trait(theme="light")
    assert widget.theme == "light"
    with pytest.raises(Exception, match="theme"):
        widget.theme = "purple"
    assert widget.theme == "light"


def test_a_click_on_a_lessons_progress_goes_to_that_step() -> None:
    from milligan_widget.tutorial import learn_the_rules

    widget = MilliganWidget(lesson=learn_the_rules())
    browser = Browser(widget)
    view = Browser.updated_view(browser.request({"type": "goto_step", "index": 3}))
    assert widget.lesson_run.index == 3 and view["lesson"]["index"] == 3
    steps = len(widget.lesson_run.lesson.steps)
    for bad in (-1, steps, "2", 1.0, True, None):
        view = Browser.updated_view(browser.request({"type": "goto_step", "index": bad}))
        assert view["kind"] == "error" and widget.lesson_run.index == 3
    widget.stop_lesson()
    view = Browser.updated_view(browser.request({"type": "goto_step", "index": 1}))
    assert view["kind"] == "error" and widget.mode == "play"


def test_the_replay_panel_says_why_its_cards_do_not_move() -> None:
    game = Game.new(8)
    game.play("d")
    widget = MilliganWidget(game=game, replay_viewer=True)
    refusal = widget.panel["refusal"]
    assert "replay" in refusal and "Play from here" in refusal
    view = Browser.updated_view(
        Browser(widget).request({"type": "move", "source": "t1", "target": "t2", "count": 1})
    )
    assert view["kind"] == "error" and view["message"] == refusal
