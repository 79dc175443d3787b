"""Saves that survive interruption, and every bad save refused as a SaveFileError in a
player's words (issue 11: D2, D3, D10, D11, D13, D15)."""

from __future__ import annotations

import contextlib
import json
import os

import pytest

from milligan_widget import Game, Move, SaveFileError
from milligan_widget.engine import moves as moves_module
from milligan_widget.engine import savefile
from milligan_widget.engine.errors import IllegalMoveError, MilliganError
from milligan_widget.engine.game import MAX_COMMENT
from milligan_widget.engine.savefile import MAX_MOVES, MAX_SAVE_BYTES, write_atomic

#: Words of Python's own messages that must never reach a player (D15).
INTERNALS = (
    "invalid literal",
    "Exceeds the limit",
    "digits",
    "got an unexpected keyword",
    "missing 1 required",
    "unhashable",
    "maximum recursion",
    "codec can't decode",
    "Traceback",
    "object is not",
    "NoneType",
)


def no_internals(message: str) -> None:
    for words in INTERNALS:
        if words == "digits" and "digits (at most" in message:
            continue  # our own words for a long number
        assert words not in message, message


def a_game() -> Game:
    game = Game.new(1)
    game.deal()
    game.deal()
    game.play("3>5")  # Q♣ onto K♦
    game.set_comment("frees A♠")
    return game


def document(game: Game | None = None) -> dict:
    return json.loads((game or a_game()).to_json())


def refused(text: str | bytes, *fragments: str) -> str:
    with pytest.raises(SaveFileError) as error:
        Game.from_json(text)
    message = str(error.value)
    no_internals(message)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (fragment, message)
    return message


# ----------------------------------------------------------------------------- D2: atomic


def test_an_interrupted_save_keeps_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    good = a_game()
    good.save(path)
    before = path.read_bytes()
    later = good.copy()
    later.deal()

    def broken_fsync(fd):  # the disk fills up after part of the file is written
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savefile.os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        later.save(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary file
    assert Game.load(path) == good


def test_a_failing_rename_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("interrupted")

    monkeypatch.setattr(savefile.os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_atomic(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_save_that_cannot_be_made_touches_nothing(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    a_game().save(path)
    before = path.read_bytes()
    monkeypatch.setattr(savefile.json, "dumps", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        Game.new(2).save(path)
    assert path.read_bytes() == before
    assert len(list(tmp_path.iterdir())) == 1


def test_write_atomic_keeps_permissions_and_writes_utf8(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text("x", encoding="utf-8")
    os.chmod(path, 0o640)
    write_atomic(path, "7♥ on 8♣")
    assert path.read_text(encoding="utf-8") == "7♥ on 8♣"
    assert path.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "fresh.json"
    write_atomic(fresh, "{}")
    assert fresh.stat().st_mode & 0o777 != 0o600  # not mkstemp's private mode


# ----------------------------------------------------------------------------- D3 / D15


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d["layout"].update(extra=1), "unknown entries: 'extra'"),
        (lambda d: d["layout"].pop("tableau"), "no tableau"),
        (lambda d: d["layout"].update(tableau=5), "tableau"),
        (lambda d: d["layout"].update(tableau=[[1, 2]] * 8), "tableau"),
        (lambda d: d["layout"].update(stock={"a": 1}), "stock"),
        (lambda d: d["layout"].update(foundations=[[5]] * 8), "foundations"),
        (lambda d: d["layout"].update(cells=7), "cells"),
        (lambda d: d.update(layout=[1, 2]), "layout"),
        (lambda d: d.update(seed=3), "staged position"),
    ],
)
def test_bad_layouts(change, fragment):
    doc = document(_staged())
    change(doc)
    refused(json.dumps(doc), fragment)


def _staged() -> Game:
    game = Game.new(4)
    game.deal()
    return game.copy(history=False)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d["rules"].update(name=["classic"]), "rules"),
        (lambda d: d["rules"].update(name={"a": 1}), "rules"),
        (lambda d: d["rules"].update(decks=[2]), "decks"),
        (lambda d: d.update(rules=[1]), "rules"),
        (lambda d: d.update(version=1.0), "version"),
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.update(extra=1), "unknown entries"),
        (lambda d: d.update(seed=[1]), "seed"),
        (lambda d: d.update(seed=True), "seed"),
        (lambda d: d.update(deck="3D 5H"), "deck"),
        (lambda d: d.update(moves={"a": 1}), "moves"),
        (lambda d: d["moves"].append({"move": "d", "why": "x"}), "unknown entries"),
        (lambda d: d["moves"].append({"move": ["d"]}), "move 4"),
        (lambda d: d["moves"].append(None), "move 4"),
        (lambda d: d["moves"].append(7), "move 4"),
        (lambda d: d["moves"].append({"move": "3>f", "comment": "x" * (MAX_COMMENT + 1)}),
         "at most 2,000 characters"),
    ],
)
def test_wrong_types_anywhere(change, fragment):
    doc = document()
    change(doc)
    refused(json.dumps(doc), fragment)


def test_deep_nesting():
    refused('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deep")
    doc = document()
    text = json.dumps(doc)[:-1] + ', "moves": ' + "[" * 50_000 + "]" * 50_000 + "}"
    refused(text)


def test_a_five_thousand_digit_number():
    doc = json.dumps(document())
    refused(doc.replace('"seed": 1', '"seed": ' + "7" * 5000), "number of 5,000 digits")
    refused(doc.replace('"version": 1', '"version": ' + "1" * 5000), "5,000 digits")
    message = refused(doc.replace('"seed": 1', '"seed": 1e99999'), "too large")
    assert "inf" not in message
    refused(doc.replace('"seed": 1', '"seed": NaN'), "NaN")


def test_a_long_move_count_in_player_words():
    doc = document()
    doc["moves"].append("3:" + "9" * 5000 + ">5")
    message = refused(json.dumps(doc), "move 4", "more cards than a game has")
    assert len(message) < 300


def test_not_json_says_where_in_player_words():
    message = refused('{"format": "milligan-widget/game",\n "version": 1,,}', "line 2")
    assert "Expecting" not in message or "expecting" in message  # lower-cased, no class names


def test_load_of_a_non_utf8_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(SaveFileError, match="not text"):
        Game.load(path)
    with pytest.raises(SaveFileError, match="not text"):
        Game.from_json(b"\xff\xfe\x00garbage\x80")
    with pytest.raises(SaveFileError):
        Game.from_json(12)


def test_load_of_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        Game.load(tmp_path / "nothing.json")


# ----------------------------------------------------------------------------- D10


def test_the_seed_must_deal_the_deck():
    doc = document()
    doc["seed"] = 2
    refused(json.dumps(doc), "not the one deal 2 deals")
    doc["seed"] = 1
    doc["rules"] = Game.new(1, "strict").rules.to_dict()  # same deck order under strict rules
    assert Game.from_json(json.dumps(doc)).rules.name == "strict"
    little = document(Game.new(1, "little-milligan"))
    little["seed"] = 3
    refused(json.dumps(little), "not the one deal 3 deals")


# ----------------------------------------------------------------------------- D11


def test_refused_move_counts_are_not_kept_forever():
    game = Game.new(1)
    before = len(moves_module._INTERNED)
    for n in range(1, 300_001):
        with contextlib.suppress(MilliganError):
            game.play(f"3:{n}>5")
    grown = len(moves_module._INTERNED) - before
    assert grown <= 105  # at most the counts 1..104 of this one (source, target)
    assert game.history == []
    assert Move.parse("3:104>5").count == 104
    with pytest.raises(MilliganError, match="at most 104"):
        Move("t3", "t5", 105)
    assert moves_module.make_move(2, 4, 10**6) is not moves_module.make_move(2, 4, 10**6)


# ----------------------------------------------------------------------------- D13


def test_a_long_comment_is_refused_and_changes_nothing():
    game = a_game()
    game.set_comment("x" * MAX_COMMENT)
    with pytest.raises(MilliganError, match="at most 2,000 characters"):
        game.set_comment("y" * (MAX_COMMENT + 1))
    assert game.comments[game.ply] == "x" * MAX_COMMENT
    with pytest.raises(MilliganError, match="no move"):
        game.set_comment("x", ply="2")


def test_too_many_moves_is_refused_before_any_is_replayed(monkeypatch):
    doc = document()
    doc["moves"] = ["d"] * (MAX_MOVES + 1)
    replayed = []
    monkeypatch.setattr(savefile, "_replay_entry", lambda *args: replayed.append(args))
    refused(json.dumps(doc), "20,000")
    assert replayed == []


def test_a_file_too_large_is_refused_unread(tmp_path, monkeypatch):
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.write(b'{"format": "milligan-widget/game", "padding": "')
        handle.write(b"x" * MAX_SAVE_BYTES)
        handle.write(b'"}')
    parsed = []
    monkeypatch.setattr(savefile, "parse", lambda text: parsed.append(text))
    with pytest.raises(SaveFileError, match="larger than 5 MB"):
        Game.load(path)
    assert parsed == []
    monkeypatch.undo()
    with pytest.raises(SaveFileError, match="larger than 5 MB"):
        Game.from_json("[" + " " * MAX_SAVE_BYTES + "]")


def test_a_game_too_long_to_save_is_refused_at_save_time(tmp_path, monkeypatch):
    """A file that could not be read back is not written (the old one stays)."""
    path = tmp_path / "game.json"
    a_game().save(path)
    before = path.read_bytes()
    monkeypatch.setattr(savefile, "MAX_MOVES", 1)
    with pytest.raises(SaveFileError, match="at most 1"):
        a_game().save(path)
    assert path.read_bytes() == before


def test_errors_are_ours():
    assert issubclass(SaveFileError, ValueError) and issubclass(IllegalMoveError, ValueError)
