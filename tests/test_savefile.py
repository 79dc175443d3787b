"""Saving and loading games through real files, and corrupt saves refused with a reason."""

from __future__ import annotations

import copy
import json
import re

import pytest

from milligan_widget import PRESETS, Game, Move, SaveFileError
from milligan_widget.strategy import greedy, play_game

# ----------------------------------------------------------------------------- helpers


def played_game(seed: int = 1, preset: str = "classic") -> Game:
    """Deal ``seed`` played by the greedy strategy to its end (a long, real line of play)."""
    return play_game(Game.new(seed, preset), greedy)


def short_game() -> Game:
    """Deal 1 (PySolFC: 3♦ 5♥ J♣ K♥ 5♠ 5♥ K♣ K♣ ...), two rows dealt and two moves played."""
    game = Game.new(1)
    game.deal()
    game.deal()
    game.play("3>5")  # Q♣ onto K♦
    game.set_comment("frees A♠")
    game.play("3>f")  # A♠ home
    game.play("7>2")  # 10♦ onto J♠
    return game


def document(game: Game) -> dict:
    return json.loads(game.to_json())


def write(tmp_path, content, name="game.json"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(
            content if isinstance(content, str) else json.dumps(content), encoding="utf-8"
        )
    return path


def refused(tmp_path, content, *fragments: str) -> str:
    """Loading ``content`` from a file raises SaveFileError naming every fragment."""
    path = write(tmp_path, content)
    result = None
    with pytest.raises(SaveFileError) as error:
        result = Game.load(path)
    assert result is None  # nothing half-built comes back
    assert isinstance(error.value, ValueError)
    message = str(error.value)
    for fragment in fragments:
        assert re.search(fragment, message, re.IGNORECASE), (fragment, message)
    # The same text through from_json gives the same refusal.
    if not isinstance(content, bytes):
        with pytest.raises(SaveFileError):
            Game.from_json(path.read_text(encoding="utf-8"))
    return message


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("preset", list(PRESETS))
def test_save_and_load_a_whole_game(tmp_path, preset):
    game = played_game(3, preset)
    assert len(game.history) > 20
    path = tmp_path / f"{preset}.json"
    game.save(path)
    assert path.exists()
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    assert on_disk["format"] == "milligan-widget/game" and on_disk["version"] == 1
    assert on_disk["seed"] == 3 and on_disk["rules"]["name"] == preset
    assert len(on_disk["deck"]) == game.rules.card_count
    assert on_disk["moves"] == [str(m) for m in game.history]

    loaded = Game.load(path)
    assert loaded == game
    assert loaded.history == game.history
    assert loaded.seed == 3 and loaded.rules == game.rules and loaded.rules.name == preset
    assert loaded.status == game.status
    # Saving the loaded game again writes the same document.
    again = tmp_path / "again.json"
    loaded.save(again)
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_load_accepts_str_and_pathlike(tmp_path):
    game = short_game()
    path = tmp_path / "sub dir" / "ünïcode name.json"
    path.parent.mkdir()
    game.save(str(path))
    assert Game.load(str(path)) == game
    assert Game.load(path).history == game.history


def test_comments_survive_the_round_trip(tmp_path):
    game = short_game()
    game.set_comment('10♦ onto J♠ – «quotes» and "escapes"\nsecond line')
    game.set_comment("the first deal", ply=1)
    assert game.comments == {
        1: "the first deal",
        3: "frees A♠",
        5: '10♦ onto J♠ – «quotes» and "escapes"\nsecond line',
    }
    path = tmp_path / "commented.json"
    game.save(path)
    raw = path.read_bytes().decode("utf-8")  # the file is UTF-8
    assert "frees A♠" in json.loads(raw)["moves"][2]["comment"]
    loaded = Game.load(path)
    assert loaded.comments == game.comments
    assert loaded.history == game.history
    assert loaded == game


def test_removed_comment_is_not_saved(tmp_path):
    game = short_game()
    game.set_comment(None, ply=3)
    path = write(tmp_path, game.to_json())
    assert Game.load(path).comments == {}
    assert all(isinstance(entry, str) for entry in json.loads(path.read_text())["moves"])


def test_a_save_with_only_a_seed_loads(tmp_path):
    doc = document(short_game())
    del doc["deck"]
    loaded = Game.load(write(tmp_path, doc))
    expected = short_game()
    assert loaded == expected
    assert loaded.history == expected.history
    assert loaded.seed == 1
    assert str(loaded.tableau[0][0]) == "3D"  # deal 1 starts with 3♦ in PySolFC
    assert loaded.comments == {3: "frees A♠"}


def test_a_seed_only_save_with_no_moves_is_the_deal(tmp_path):
    doc = {
        "format": "milligan-widget/game",
        "version": 1,
        "rules": PRESETS["little-milligan"].to_dict(),
        "seed": 12345,
        "moves": [],
    }
    loaded = Game.load(write(tmp_path, doc))
    assert loaded == Game.new(12345, "little-milligan")
    assert loaded.stock_count == 52 - 7 and len(loaded.tableau) == 7


def test_a_seed_that_does_not_deal_the_deck_is_refused(tmp_path):
    """D10: the seed must deal the saved deck under the saved rules."""
    doc = document(Game.new(2))
    doc["seed"] = 1
    refused(tmp_path, doc, "deck is not the one deal 1 deals", "changed or is damaged")
    doc = document(Game.new(2, "little-milligan"))
    doc["rules"] = Game.new(2).rules.to_dict()  # a one-deck deck under two-deck rules
    refused(tmp_path, doc, "deck")
    doc = document(Game.new(2))
    doc["seed"] = None  # the same deck as a custom deck: fine
    assert Game.load(write(tmp_path, doc)) == Game.new(2)


def test_custom_deck_game_round_trips(tmp_path):
    deck = [str(c) for c in Game.new(7).deck][::-1]
    game = Game.from_deck(deck)
    game.deal()
    path = tmp_path / "custom.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.seed is None
    assert loaded == game and [str(c) for c in loaded.deck] == deck


def test_pending_redo_moves_are_not_saved(tmp_path):
    game = short_game()
    game.undo()
    game.undo()
    loaded = Game.load(write(tmp_path, game.to_json()))
    assert loaded.history == game.history and len(loaded.history) == 3
    assert not loaded.can_redo


# ----------------------------------------------------------------------------- corrupt saves


def test_not_json(tmp_path):
    refused(tmp_path, "this is { not json", "JSON")
    refused(tmp_path, "", "JSON")


def test_binary_garbage(tmp_path):
    """A file that is not even text (say, a picture saved under the wrong name)."""
    refused(tmp_path, b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary", "saved game|JSON|UTF|text")


def test_json_array(tmp_path):
    refused(tmp_path, "[1, 2, 3]", "not a saved game", "format")


@pytest.mark.parametrize("value", ["milligan-widget/other", None, 1])
def test_wrong_format(tmp_path, value):
    doc = document(short_game())
    doc["format"] = value
    refused(tmp_path, doc, "format")


def test_missing_format(tmp_path):
    doc = document(short_game())
    del doc["format"]
    refused(tmp_path, doc, "format")


@pytest.mark.parametrize("version", [2, 0, "1", None])
def test_wrong_version(tmp_path, version):
    doc = document(short_game())
    doc["version"] = version
    refused(tmp_path, doc, "version", re.escape(repr(version)))


def test_missing_version(tmp_path):
    doc = document(short_game())
    del doc["version"]
    refused(tmp_path, doc, "version")


def test_unknown_rule_option(tmp_path):
    doc = document(short_game())
    doc["rules"]["jokers_wild"] = True
    refused(tmp_path, doc, "rule", "jokers_wild")


@pytest.mark.parametrize(
    ("option", "value"),
    [("reserve", "lots"), ("decks", 3), ("cells", 9), ("empty_column", None), ("decks", True)],
)
def test_bad_rules_value(tmp_path, option, value):
    doc = document(short_game())
    doc["rules"][option] = value
    refused(tmp_path, doc, "rules", option)


def test_rules_that_contradict_their_preset_name(tmp_path):
    doc = document(short_game())
    doc["rules"]["reserve"] = "none"  # still named "classic"
    refused(tmp_path, doc, "rules", "classic")


def test_missing_rules(tmp_path):
    doc = document(short_game())
    del doc["rules"]
    refused(tmp_path, doc, "rules")


def test_deck_with_a_card_missing(tmp_path):
    doc = document(short_game())
    doc["deck"].pop()
    refused(tmp_path, doc, "deck", "104", "103")


def test_deck_too_long(tmp_path):
    doc = document(short_game())
    doc["deck"].append("AS")
    refused(tmp_path, doc, "deck", "104", "105")


def test_deck_with_a_card_duplicated(tmp_path):
    """Deal 1 starts 3♦ 5♥ J♣ ...: a third J♣ in place of the 3♦ (which then is missing)."""
    doc = document(short_game())
    assert doc["deck"][:3] == ["3D", "5H", "JC"]
    doc["deck"][0] = "JC"
    message = refused(tmp_path, doc, "deck", "J♣|JC")
    assert re.search("missing.*(3♦|3D)", message), message


def test_deck_with_an_unknown_card_code(tmp_path):
    doc = document(short_game())
    doc["deck"][10] = "ZZ"
    refused(tmp_path, doc, "deck", "ZZ")


@pytest.mark.parametrize("entry", [None, True, ["3D"], 5.5])
def test_deck_with_a_non_text_card(tmp_path, entry):
    doc = document(short_game())
    doc["deck"][10] = entry
    refused(tmp_path, doc, "deck")


def test_deck_not_a_list(tmp_path):
    doc = document(short_game())
    doc["deck"] = " ".join(doc["deck"])
    refused(tmp_path, doc, "deck")


def test_one_deck_where_the_rules_need_two(tmp_path):
    doc = document(short_game())
    doc["deck"] = [str(c) for c in Game.new(5, "little-milligan").deck]
    refused(tmp_path, doc, "deck", "104", "52")


def test_bad_seed_without_a_deck(tmp_path):
    for seed in (None, 0, -3, "1", 10**20, 1.5):
        doc = document(short_game())
        del doc["deck"]
        doc["seed"] = seed
        refused(tmp_path, doc, "seed")


def test_an_illegal_move_names_its_number(tmp_path):
    game = played_game(2)
    doc = document(game)
    ply = 17
    position = game.position_after(ply - 1)
    illegal = next(
        text for text in ("1>2", "2>1", "3>4", "1>f", "5>6", "8>r") if position.explain(text)
    )
    reason = position.explain(illegal)
    doc["moves"][ply - 1] = illegal
    message = refused(tmp_path, doc, rf"\bmove {ply}\b", re.escape(illegal))
    assert reason in message  # the rule that the move breaks


def test_an_illegal_first_move(tmp_path):
    doc = document(short_game())
    doc["moves"][0] = "1>f"  # 3♦ cannot go home on an empty foundation
    refused(tmp_path, doc, r"\bmove 1\b", "3♦")


def test_a_move_after_the_stock_is_empty(tmp_path):
    """A deal beyond the 12 rows of the stock is refused at its own number."""
    game = Game.new(4)
    for _ in range(12):
        game.deal()
    doc = document(game)
    doc["moves"].append("d")
    refused(tmp_path, doc, r"\bmove 13\b", "stock")


@pytest.mark.parametrize("bad", ["3>>5", "9>1", "x", "", "3:0>5", 35, None, ["d"]])
def test_a_syntactically_invalid_move(tmp_path, bad):
    doc = document(short_game())
    doc["moves"][3] = bad
    refused(tmp_path, doc, r"\bmove 4\b")


def test_a_move_entry_without_a_move(tmp_path):
    doc = document(short_game())
    doc["moves"][2] = {"comment": "where is the move?"}
    refused(tmp_path, doc, r"\bmove 3\b")


@pytest.mark.parametrize("comment", [5, ["frees A♠"], {"text": "x"}, True])
def test_a_comment_that_is_not_text(tmp_path, comment):
    doc = document(short_game())
    doc["moves"][2] = {"move": "3>5", "comment": comment}
    refused(tmp_path, doc, r"\bmove 3\b", "comment")


def test_moves_not_a_list(tmp_path):
    doc = document(short_game())
    doc["moves"] = "d d 3>5"
    refused(tmp_path, doc, "moves")


def test_a_tampered_deck_breaks_the_replay(tmp_path):
    """Swapping two cards of the third row (K♦ and 2♥ in columns 5 and 6) makes move 3,
    Q♣ onto K♦, illegal: the file is refused rather than loaded as a different game."""
    doc = document(short_game())
    assert doc["deck"][20:22] == ["KD", "2H"]
    doc["deck"][20], doc["deck"][21] = "2H", "KD"
    doc["seed"] = None  # else the seed, which deals another deck, is refused first
    refused(tmp_path, doc, r"\bmove 3\b", "Q♣", "2♥")


def test_refusal_leaves_no_game_behind(tmp_path):
    """Loading into a name that already holds a game keeps the old game untouched."""
    game = short_game()
    before = copy.copy(game)
    doc = document(game)
    doc["moves"].append("1>1")
    path = write(tmp_path, doc)
    with pytest.raises(SaveFileError):
        game = Game.load(path)
    assert game == before and game.history == before.history


def test_move_text_round_trips_in_the_file(tmp_path):
    """Moves are stored in the canonical notation, and that notation parses back."""
    game = played_game(5, "easy")
    doc = document(game)
    texts = [entry if isinstance(entry, str) else entry["move"] for entry in doc["moves"]]
    assert [Move.parse(t) for t in texts] == game.history
    assert texts == [str(m) for m in game.history]


def test_comments_follow_the_line_of_play(tmp_path):
    game = short_game()  # comment on move 3 ("3>5")
    game.undo()
    game.undo()
    game.undo()
    saved = Game.load(write(tmp_path, game.to_json(), "undone.json"))
    assert saved.comments == {}  # move 3 is not in the saved line
    game.redo()
    assert Game.load(write(tmp_path, game.to_json(), "redone.json")).comments == {3: "frees A♠"}
    game.undo()
    game.play("7>2")  # a different third move: the old comment does not belong to it
    loaded = Game.load(write(tmp_path, game.to_json(), "branched.json"))
    assert loaded.history[-1] == Move.parse("7>2")
    assert loaded.comments == {}


def test_a_position_without_history_saves_as_itself(tmp_path):
    game = Game.new(5)
    for move in ("2>6", "d", "d"):
        game.play(move)
    *_, (_, position) = game.replay()
    assert position.history == [] and position.seed is None and position.deck is None
    path = tmp_path / "position.json"
    position.save(path)
    loaded = Game.load(path)
    assert loaded == position == game
    loaded.deal()  # the stock kept its order
    game.deal()
    assert loaded == game
