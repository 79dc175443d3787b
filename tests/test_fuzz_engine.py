"""A fuzz suite for the engine: save files, move text and odd inputs (issue 11).

Each test feeds the engine random input and asserts one thing: it either works, or it is
refused with one of our errors (a :class:`MilliganError`, a ``ValueError``) in a player's
words, the game unchanged, and no other exception escapes. Hypothesis keeps it quick: a few
hundred examples per test, the whole file well under 30 s.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from milligan_widget import Card, Game, Move, Rules, SaveFileError
from milligan_widget.engine.errors import IllegalMoveError, InvalidMoveError, MilliganError
from milligan_widget.strategy import greedy, play_game

FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)

#: Words from Python's own messages, never to reach a player.
INTERNALS = (
    "invalid literal",
    "Exceeds the limit",
    "unexpected keyword",
    "required positional",
    "unhashable",
    "recursion",
    "codec",
    "object is not",
    "object has no",
    "NoneType",
    "Traceback",
    "not supported between",
)


def player_words(error: BaseException) -> None:
    message = str(error)
    assert message, f"{type(error).__name__} without a message"
    for words in INTERNALS:
        assert words not in message, message


def _real_games() -> list[Game]:
    played = play_game(Game.new(3), greedy, max_moves=60)
    played.set_comment("a comment", 1)
    staged = Game.new(5, "milligan-cell")
    staged.deal()
    staged = staged.copy(history=False)
    staged.play(staged.legal_moves[0])
    custom = Game.from_deck([str(c) for c in Game.new(9, "little-milligan").deck][::-1],
                            "little-milligan")
    custom.deal()
    return [played, staged, custom, Game.new(11, "easy")]


GAMES = _real_games()
DOCUMENTS = [json.loads(game.to_json()) for game in GAMES]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["3D", "KH", "10C", "d", "3>5", "1>f", "classic", "sequence", ""]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=12,
)


def _paths(value, path=()):
    """Every (path, value) inside a document."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(document, data) -> object:
    document = json.loads(json.dumps(document))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = list(_paths(document))
        path, _value = data.draw(st.sampled_from(places), label="where")
        kind = data.draw(st.sampled_from(["replace", "delete", "insert", "swap"]), label="kind")
        if not path:
            if kind == "replace":
                document = data.draw(json_values, label="document")
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if kind == "replace":
            parent[last] = data.draw(json_values, label="value")
        elif kind == "delete":
            del parent[last]
        elif kind == "insert" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8), label="key")] = data.draw(json_values)
        elif kind == "insert":
            parent.insert(last, data.draw(json_values, label="item"))
        elif isinstance(parent, list) and len(parent) > 1:
            other = data.draw(st.integers(0, len(parent) - 1), label="other")
            parent[last], parent[other] = parent[other], parent[last]
    return document


def _load(text) -> Game | None:
    try:
        game = Game.from_json(text)
    except SaveFileError as error:
        player_words(error)
        return None
    assert isinstance(game, Game)
    Game.from_json(game.to_json())  # what loads, saves and loads again
    return game


# ----------------------------------------------------------------------------- save files


@FUZZ
@given(st.sampled_from(range(len(DOCUMENTS))), st.data())
def test_mutated_saves_load_or_are_refused_with_a_reason(which, data):
    _load(json.dumps(_mutate(DOCUMENTS[which], data)))


@FUZZ
@given(st.sampled_from(range(len(DOCUMENTS))), st.data())
def test_damaged_save_text_loads_or_is_refused(which, data):
    text = json.dumps(DOCUMENTS[which], ensure_ascii=False).encode("utf-8")
    cut = data.draw(st.integers(0, len(text)), label="cut")
    noise = data.draw(st.binary(max_size=20), label="noise")
    keep = data.draw(st.booleans(), label="keep the rest")
    damaged = text[:cut] + noise + (text[cut + len(noise):] if keep else b"")
    _load(damaged)
    with contextlib.suppress(UnicodeDecodeError):
        _load(damaged.decode("utf-8"))


@FUZZ
@given(json_values)
def test_any_json_at_all_is_refused_or_loads(value):
    _load(json.dumps(value))


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(1, 60_000), st.sampled_from("[{"))
def test_deep_nesting_is_refused(depth, bracket):
    closing = "]" if bracket == "[" else "}"
    body = (bracket if bracket == "[" else '{"a":') * depth
    _load(body + ("0" if bracket == "{" else "") + closing * depth)


# ----------------------------------------------------------------------------- move text

notation = st.text(alphabet="0123456789:>dfrcDFRC t-+ ", max_size=12)
move_text = notation | st.text(max_size=20) | st.from_regex(
    r"\A(?:\d{1,3}|r|f\d{0,2}|c\d{0,2})(?::\d{1,6})?>(?:\d{1,3}|r|f\d{0,2}|c\d{0,2})\Z"
)


@FUZZ
@given(move_text)
def test_move_text_parses_or_is_refused(text):
    try:
        move = Move.parse(text)
    except InvalidMoveError as error:
        player_words(error)
        return
    assert Move.parse(str(move)) == move  # what parses round-trips


@FUZZ
@given(st.sampled_from(range(len(GAMES))), move_text)
def test_playing_any_text_plays_or_changes_nothing(which, text):
    game = GAMES[which].copy()
    before, history, comments = game.copy(), game.history, game.comments
    try:
        reason = game.explain(text)
    except InvalidMoveError as error:
        player_words(error)
        reason = "not a move"
    try:
        game.play(text)
    except (IllegalMoveError, InvalidMoveError) as error:
        player_words(error)
        assert reason is not None
        assert game == before and game.history == history and game.comments == comments
        return
    assert reason is None
    game.undo()
    assert game == before


# ----------------------------------------------------------------------------- odd inputs

odd = json_values | st.sampled_from(
    [10**5000, -1, 0, 1.5, float("nan"), b"3>5", object(), [], {}, (), "t3", "f", "reserve"]
)


def _ours(call, *args, **kwargs):
    """Call it: it works, or raises one of our errors in player words."""
    try:
        return call(*args, **kwargs)
    except MilliganError as error:
        player_words(error)
        return None


@FUZZ
@given(odd, odd)
def test_odd_values_for_creation_and_rules(first, second):
    _ours(Game.new, first)
    _ours(Game.new, 1, first)
    _ours(Game.from_deck, first)
    _ours(Rules.coerce, first)
    _ours(Rules.from_dict, {"reserve": first, "name": second})
    _ours(Card.parse, first)
    _ours(Move, first, second)
    _ours(Move, "t3", "t5", first)
    _ours(Game.from_layout, first)
    _ours(Game.from_layout, [first] * 8, foundations=second)
    _ours(Game.from_layout, [[]] * 8, stock=first, reserve=second)


@FUZZ
@given(st.sampled_from(range(len(GAMES))), odd, odd)
def test_odd_values_for_a_game_change_nothing(which, first, second):
    game = GAMES[which].copy()
    before, history, comments = game.copy(), game.history, game.comments
    for call in (game.play, game.explain, game.resolve, game.describe, game.is_legal,
                 game.position_after, game.after):
        _ours(call, first)
    _ours(game.set_comment, first, second)
    if isinstance(first, str) or first is None:
        return  # a move may have been played, a comment set or removed: changes asked for
    assert game == before and game.history == history and game.comments == comments


def test_the_suite_knows_what_refusals_look_like():
    with pytest.raises(AssertionError):
        player_words(ValueError("invalid literal for int() with base 10: 'x'"))
