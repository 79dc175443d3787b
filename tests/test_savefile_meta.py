"""A saved game's optional "meta" (issue 24: Save keeps peek): small named values kept with
the game, written only when there are some (older saves and games without any are byte for
byte as before), refused with a reason when malformed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from milligan_widget import Game
from milligan_widget.engine.errors import MilliganError, SaveFileError
from milligan_widget.engine.savefile import MAX_META, MAX_META_TEXT

# played().to_json() as written before "meta" existed (its SHA-256, taken from main then).
OLD_SAVE_SHA256 = "75a2a8df3e765a9b977aa6cb64d17163f0b17fa7ab0f3ce391e9ff8151704e0c"


def played() -> Game:
    game = Game.new(8)
    for move in ["d", "7>f", "7>1"]:
        game.play(move)
    game.set_comment("frees the ace")
    return game


def test_a_game_without_meta_saves_as_before() -> None:
    text = played().to_json()
    assert hashlib.sha256(text.encode()).hexdigest() == OLD_SAVE_SHA256
    assert list(json.loads(text)) == ["format", "version", "rules", "seed", "deck", "moves"]
    assert Game.from_json(text).meta == {}


def test_an_old_save_loads_as_it_did() -> None:
    game = played()
    loaded = Game.from_json(game.to_json())
    assert loaded == game and loaded.history == game.history and loaded.meta == {}


def test_meta_is_saved_and_loaded_back_with_the_game() -> None:
    game = played()
    game.set_meta("peek", True)
    game.set_meta("difficulty", "hard")
    game.set_meta("rating", 1.5)
    document = json.loads(game.to_json())
    assert document["meta"] == {"peek": True, "difficulty": "hard", "rating": 1.5}
    loaded = Game.from_json(game.to_json())
    assert loaded.meta == game.meta and loaded == game and loaded.comments == game.comments
    assert loaded.copy().meta == game.meta  # a copy keeps it
    loaded.restart()
    assert loaded.meta == game.meta  # a restart forgets the moves, not the meta
    loaded.set_meta("peek", None)
    assert "peek" not in loaded.meta and "meta" in json.loads(loaded.to_json())


def with_meta(meta: Any) -> str:
    document = json.loads(played().to_json())
    document["meta"] = meta
    return json.dumps(document)


@pytest.mark.parametrize(
    ("meta", "reason"),
    [
        ([True], "meta must be a set of named values"),
        ("peek", "meta must be a set of named values"),
        ({"peek": {"on": True}}, "meta 'peek' is not a small value"),
        ({"peek": [1]}, "meta 'peek' is not a small value"),
        ({"peek": None}, "meta 'peek' is not a small value"),
        ({"note": "x" * (MAX_META_TEXT + 1)}, "meta 'note' is not a small value"),
        ({"Peek": True}, "cannot name a value in the saved game's meta"),
        ({"": True}, "cannot name a value"),
        ({"p" * 41: True}, "cannot name a value"),
        ({f"k{i}": i for i in range(MAX_META + 1)}, f"at most {MAX_META}"),
    ],
)
def test_a_malformed_meta_is_refused_with_a_reason(meta: Any, reason: str) -> None:
    with pytest.raises(SaveFileError, match=reason):
        Game.from_json(with_meta(meta))


def test_set_meta_refuses_what_a_save_could_not_hold_and_keeps_the_game() -> None:
    game = played()
    for name, value in [("peek", [1]), ("Peek", True), ("note", "x" * 500)]:
        with pytest.raises(MilliganError):
            game.set_meta(name, value)  # type: ignore[arg-type]
    for i in range(MAX_META):
        game.set_meta(f"k{i}", i)
    with pytest.raises(MilliganError, match=f"at most {MAX_META}"):
        game.set_meta("one-more", 1)
    assert len(game.meta) == MAX_META and "Peek" not in game.meta
