"""Milligan Harp and Milligan Yukon (docs/rules.md §3.10, §3.11, §4.10, §4.11): PySolFC's deals,
face-down cards and their turning up, Yukon groups, hidden information, saves and the solver."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from milligan_widget import Game, MilliganError, Rules, RulesError
from milligan_widget.search.solver import WINNABLE, solve
from milligan_widget.strategy import greedy
from milligan_widget.teaching.lessons import stage as stage_with_stock
from tests.staging import stage
from tests.test_solver import agree_with_exhaustive, assert_wins, exhaustive

DEALS = json.loads((Path(__file__).parent / "data" / "harp-yukon-deals.json").read_text("utf-8"))
BOTH = ["milligan-harp", "milligan-yukon"]


def cards(column) -> list[str]:
    return [str(c) for c in column]


# ----------------------------------------------------------------------------- the deals


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("deal", DEALS["deals"], ids=lambda d: f"deal {d['number']}")
def test_the_layout_and_every_row_are_pysolfcs(preset, deal):
    game = Game.new(deal["number"], preset)
    shown = [
        [[str(card), i < down] for i, card in enumerate(col)]
        for col, down in zip(game.tableau, game.face_down, strict=True)
    ]
    assert shown == deal["columns"]
    assert list(game.face_down) == deal["face_down"]
    assert cards(game.deck) == deal["deal_order"]
    assert game.stock_count == len(deal["stock"]) == 68
    rows = []
    while game.can_deal:
        heights = [len(col) for col in game.tableau]
        game.deal()
        rows.append([str(col[-1]) for col, h in zip(game.tableau, heights, strict=True)
                     if len(col) > h])
        assert list(game.face_down) == deal["face_down"], "a deal never turns a card up"
    assert rows == deal["stock_rows"]
    assert [len(row) for row in rows] == [8] * 8 + [4]


@pytest.mark.parametrize("preset", BOTH)
def test_from_deck_deals_the_same_way(preset):
    game = Game.new(2, preset)
    assert Game.from_deck(game.deck, preset) == game
    assert Game.from_deck(cards(game.deck), preset).face_down == tuple(range(8))


# ----------------------------------------------------------------------------- the rules


def test_the_presets_and_their_options():
    harp, yukon = Rules.named("milligan-harp"), Rules.named("milligan-yukon")
    assert (harp.deal, harp.moves, harp.reserve, harp.empty_column) == (
        "face-down", "runs", "none", "any"
    )
    assert harp.foundation_takeback == "never" and harp.cells == 0
    assert harp.replace(moves="groups") is yukon
    assert yukon.replace(moves="runs").name == "milligan-harp"
    assert harp.stock_size == 68 and harp.face_down_count == 28
    lines = " ".join(yukon.describe())
    assert "the lowest j−1 face down" in lines and "in sequence or not" in lines
    assert "the last row of 4 onto columns 1–4" in lines and "turns face up" in lines
    assert "in sequence or not" not in " ".join(harp.describe())


def test_classic_saves_its_rules_as_before_and_old_rules_load():
    data = Rules.named("classic").to_dict()
    assert "deal" not in data and "moves" not in data  # the document of older versions
    assert Rules.from_dict(data) == Rules.named("classic")
    assert Rules.from_dict(data).name == "classic"
    harp = Rules.named("milligan-harp").to_dict()
    assert harp["deal"] == "face-down" and "moves" not in harp
    assert Rules.from_dict(harp) == Rules.named("milligan-harp")
    assert Rules.from_dict(Rules.named("milligan-yukon").to_dict()).name == "milligan-yukon"


@pytest.mark.parametrize(
    "options, words",
    [({"deal": "upside-down"}, "deal must be one of"), ({"moves": "yukon"}, "moves must be one of"),
     ({"deal": True}, "deal must be one of")],
)
def test_nonsense_options_are_refused(options, words):
    with pytest.raises(RulesError, match=words):
        Rules(**options)


@pytest.mark.parametrize(
    "rules",
    [
        Rules.named("classic").replace(deal="face-down"),  # weaving over face-down cards
        Rules.named("milligan-cell").replace(deal="face-down", moves="groups"),
        Rules.named("little-milligan").replace(deal="face-down"),  # one deck, King spaces
        Rules.named("easy").replace(moves="groups"),
    ],
    ids=["classic-face-down", "cell-yukon", "little-harp", "easy-yukon"],
)
def test_custom_combinations_play(rules):
    game = Game.new(3, rules)
    assert game.rules.name is None
    assert sum(game.face_down) == rules.face_down_count
    assert game.stock_count == rules.stock_size
    rng = random.Random(3)
    for _ in range(300):
        moves = game.legal_moves
        if not moves:
            break
        move = rng.choice(moves)
        before = game.copy()
        game.play(move)
        assert all(a >= b for a, b in zip(before.face_down, game.face_down, strict=True))
        game.undo()
        assert game == before
        game.play(move)
    assert sum(len(c) for c in game.tableau) + game.foundation_count + game.stock_count + len(
        game.reserve
    ) + sum(c is not None for c in game.cells) == rules.card_count


def test_one_deck_face_down_deal_ends_with_a_row_of_three():
    game = Game.new(3, Rules.named("little-milligan").replace(deal="face-down"))
    assert game.face_down == tuple(range(7)) and game.stock_count == 24
    for _ in range(3):
        game.deal()
    heights = [len(col) for col in game.tableau]
    game.deal()
    assert [len(col) - h for col, h in zip(game.tableau, heights, strict=True)] == [1] * 3 + [0] * 4


# ----------------------------------------------------------------------------- face-down cards


def test_a_face_down_card_turns_up_with_the_move_and_one_undo_turns_it_back():
    game = stage({1: "9H", 2: "5D 8S"}, rules="milligan-harp", face_down=[0, 1])
    start = game.copy()
    assert game.face_down[:2] == (0, 1)
    assert game.describe("2>1") == (
        "8♠ from column 2 onto 9♥ in column 1, and the card under it turns face up"
    )
    game.play("2>1")
    assert game.face_down[:2] == (0, 0) and cards(game.tableau[1]) == ["5D"]
    assert game.ply == 1 and game.runs[1] == 1
    game.undo()
    assert game == start and game.face_down[1] == 1 and cards(game.tableau[1]) == ["5D", "8S"]
    game.redo()
    assert game.face_down[1] == 0
    game.restart()
    assert game == start


def test_a_card_going_home_turns_up_the_card_under_it():
    game = stage({1: "5D AH"}, rules="milligan-harp", face_down=[1],
                 foundations={5: "", 6: ""})
    game.play("1>f")
    assert game.face_down[0] == 0 and cards(game.tableau[0]) == ["5D"]
    game.undo()
    assert game.face_down[0] == 1


@pytest.mark.parametrize("preset", BOTH)
def test_a_face_down_card_never_moves(preset):
    game = stage({1: "9H", 2: "5D 8S"}, rules=preset, face_down=[0, 1])
    assert game.explain("2:2>1") == "that card is face down: face-down cards in column 2 never move"
    assert game.explain("2:2>3") == game.explain("2:2>1")  # not into an empty column either
    assert all(m.count in (None, 1) for m in game.legal_moves if m.source == "t2")
    assert game.explain("2:3>1") == "column 2 has only 2 card(s)"


def test_harp_moves_runs_only():
    game = stage({1: "10D 3C 9S"}, rules="milligan-harp")
    assert game.explain("1:2>3") == (
        "3♣ cannot move: only a run in alternating colours moves together in Milligan Harp"
    )
    custom = stage({1: "10D 3C 9S"}, rules=Rules.named("classic").replace(deal="face-down"))
    assert "only a run in alternating colours moves together in these rules" in custom.explain(
        "1:2>3"
    )


def test_harp_empty_columns_take_any_card_or_part_of_a_run():
    game = stage({1: "10S 9H 8C"}, rules="milligan-harp")
    assert game.after("1:2>2").tableau[1] == game.tableau[0][1:]
    assert len(game.after("1>2").tableau[1]) == 3
    queen = stage({1: "5D QH"}, rules="milligan-harp")
    assert queen.explain("1>2") is None
    assert stage({1: "5D QH"}, rules="millie").explain("1>2") == (
        "only a King or a King-led run may fill an empty column"
    )


def test_yukon_moves_any_face_up_group_if_its_first_card_fits():
    game = stage({1: "10S", 2: "4C 9H 3C QD"}, rules="milligan-yukon", face_down=[0, 1])
    assert game.movable[1] == 3 and game.runs[1] == 1
    assert game.explain("2>1") is None
    game.play("2>1")
    assert cards(game.tableau[0]) == ["10S", "9H", "3C", "QD"]
    assert cards(game.tableau[1]) == ["4C"] and game.face_down[1] == 0
    assert game.runs[0] == 1  # the group is not a run: only Q♦ is
    game.undo()
    assert game.face_down[1] == 1 and game.runs[0] == 1 and game.runs[1] == 1
    harp = stage({1: "10S", 2: "4C 9H 3C QD"}, rules="milligan-harp", face_down=[0, 1])
    assert harp.explain("2>1") == "Q♦ cannot go on 10♠: the rank must be exactly one lower"


def test_yukon_asks_for_a_count_when_two_groups_fit():
    game = stage({1: "9H", 2: "8S 5D 8C"}, rules="milligan-yukon")
    assert game.explain("2>1") == (
        "8♣ and 8♠ of column 2 both fit on 9♥: say how many cards move, as in 2:1>1"
    )
    assert {"2:1>1", "2:3>1"} <= set(map(str, game.legal_moves))
    assert "2>1" not in game.legal_moves
    assert cards(game.after("2:3>1").tableau[0]) == ["9H", "8S", "5D", "8C"]
    assert game.explain("2:2>1") == "5♦ cannot go on 9♥: the rank must be exactly one lower"
    assert game.find_move("t2", "t1", 3) == "2:3>1"


def test_yukon_groups_fill_an_empty_column_whole_or_in_part():
    game = stage({1: "5D", 2: "4C KS 2H"}, rules="milligan-yukon", face_down=[0, 1])
    assert cards(game.after("2>3").tableau[2]) == ["KS", "2H"]
    assert game.after("2>3").face_down[1] == 0
    assert cards(game.after("2:1>3").tableau[2]) == ["2H"]
    kings = stage({1: "5D", 2: "KS 2H"}, rules=Rules.named("milligan-yukon").replace(
        empty_column="king"))
    assert kings.explain("2:1>3") == "only a King or a King-led run may fill an empty column"
    assert kings.explain("2>3") is None


def test_yukon_sets_aside_only_runs():
    rules = Rules.named("classic").replace(moves="groups", reserve_opens="any-time")
    game = stage({1: "9H", 2: "8S 5D 8C"}, rules=rules)
    assert game.explain("2:1>r") is None
    assert "only a run in alternating colours goes anywhere but a column" in game.explain("2:3>r")


@pytest.mark.parametrize(
    "face_down, rules, words",
    [
        ([0, 2], "milligan-harp", "the top card of column 2 is always face up"),
        ([0, 0, 1], "milligan-harp", "the top card of column 3 is always face up"),
        ([1], "classic", "these rules have no face-down cards"),
        ([-1], "milligan-harp", "must be a whole number"),
        ([True], "milligan-harp", "must be a whole number"),
        ([0] * 9, "milligan-harp", "at most 8 counts"),
        ("1", "milligan-harp", "at most 8 counts"),
    ],
)
def test_staged_face_down_cards_are_checked(face_down, rules, words):
    with pytest.raises(MilliganError, match=words):
        stage({1: "9H", 2: "5D 8S"}, rules=rules, face_down=face_down)


def test_the_text_picture_shows_backs():
    text = str(Game.new(1, "milligan-harp"))
    assert text.splitlines()[0].endswith("· face down 28")
    assert text.splitlines()[3] == "  9♥  ░░  ░░  ░░  ░░  ░░  ░░  ░░"
    assert text.count("░░") == 28
    assert "face down" not in str(Game.new(1))


# ----------------------------------------------------------------------------- hidden information


def twins(preset: str) -> tuple[Game, Game]:
    """Two games whose decks differ only in two face-down cards (3♦ in column 2, 5♥ in 3)."""
    deck = cards(Game.new(1, preset).deck)
    other = [deck[1], deck[0], *deck[2:]]
    assert deck[:2] == ["3D", "5H"]
    return Game.from_deck(deck, preset), Game.from_deck(other, preset)


def widget_state(game: Game) -> str:
    from milligan_widget.widget import MilliganWidget

    state = MilliganWidget(game=game).get_state()
    return json.dumps({k: state[k] for k in ("view", "rules_info", "panel", "analysis")},
                      sort_keys=True)


@pytest.mark.parametrize("preset", BOTH)
def test_decks_that_differ_only_face_down_look_the_same(preset):
    one, two = twins(preset)
    assert one != two
    assert widget_state(one) == widget_state(two)
    assert str(one) == str(two) and one._repr_html_() == two._repr_html_()
    assert one.legal_moves == two.legal_moves
    for move in one.legal_moves:
        assert one.describe(move) == two.describe(move)
    for text in ("2:2>1", "3:2>1", "3:3>4", "2>f"):
        assert one.explain(text) == two.explain(text)
    for game in (one, two):  # after moves that turn up neither card, still the same
        for move in ("d", "d"):
            game.play(move)
    assert widget_state(one) == widget_state(two)


def test_the_view_sends_counts_not_cards():
    from milligan_widget.widget.view import build_view

    game = Game.new(1, "milligan-yukon")
    view = build_view(game)
    assert view["down"] == list(range(8))
    assert view["columns"] == [[str(col[-1])] for col in game.tableau]
    assert view["runs"] == [0] * 8 and view["stats"]["tableau"] == 36
    game.play("2>1")  # 8♠ onto 9♥ turns up column 2's card
    view = build_view(game)
    assert view["down"][1] == 0 and view["columns"][1] == ["3D"]


def test_the_widget_tells_which_column_turned_a_card_up():
    from milligan_widget.widget import MilliganWidget

    widget = MilliganWidget(game=Game.new(1, "milligan-harp"))
    widget.play("2>1")
    assert widget.view["last"]["turned"] == ["t2"] and widget.view["down"][1] == 0
    widget.play("d")
    assert widget.view["last"]["turned"] == []


# ----------------------------------------------------------------------------- saves


@pytest.mark.parametrize("preset", BOTH)
def test_a_game_with_turned_cards_saves_and_loads(preset):
    game = Game.new(1, preset)
    for move in ("2>1", "d", "d"):
        game.play(move)
    loaded = Game.from_json(game.to_json())
    assert loaded == game and loaded.face_down == game.face_down and loaded.history == game.history
    while loaded.can_undo:
        loaded.undo()
    assert loaded.face_down == tuple(range(8))


def test_a_staged_position_keeps_its_face_down_cards():
    game = stage({1: "9H", 2: "5D 8S"}, rules="milligan-harp", face_down=[0, 1])
    document = json.loads(game.to_json())
    assert document["layout"]["face_down"] == [0, 1, 0, 0, 0, 0, 0, 0]
    loaded = Game.from_json(game.to_json())
    assert loaded == game and loaded.face_down[1] == 1
    bare = game.after("2>1").copy(history=False)  # a staged start after a turn-up
    assert Game.from_json(bare.to_json()) == bare
    assert "face_down" not in json.loads(stage({1: "9H"}).to_json())["layout"]  # as before


# ----------------------------------------------------------------------------- the solver


@pytest.mark.parametrize(
    "preset, deal", [("milligan-harp", 2), ("milligan-harp", 24), ("milligan-yukon", 1),
                     ("milligan-yukon", 3)]
)
def test_the_solver_wins_whole_deals_in_a_few_seconds(preset, deal):
    game = Game.new(deal, preset)
    result = solve(game, time_limit=10)
    assert result.status == WINNABLE and result.seconds < 5
    assert_wins(game, result.moves)


def small_position(rng: random.Random, preset: str, stock: bool) -> Game:
    """A few high cards of a few suits in four columns, or (``tight``, half the time) red
    cards only, which cannot build on each other, over all eight; some face down, the rest
    (if ``stock``) in the stock; the lower cards are home."""
    tight = rng.random() < 0.5
    suits, ranks, spread = (
        ("HD", "789TJQK", 8)
        if tight
        else (rng.choice(["HD", "HDC", "SH", "CS"]), rng.choice(["JQK", "TJQK"]), 4)
    )
    deck = [rank + suit for rank in ranks for suit in suits] * 2
    rng.shuffle(deck)
    placed = rng.randint(len(deck) * 2 // 3, len(deck)) if stock else len(deck)
    columns: dict[int, list[str]] = {}
    for card in deck[:placed]:
        columns.setdefault(rng.randint(1, spread), []).append(card)
    down = [rng.randint(0, max(len(columns.get(i, [])) - 1, 0)) for i in range(1, spread + 1)]
    return stage_with_stock(
        {i: " ".join(col) for i, col in columns.items()},
        stock=" ".join(deck[placed:]), rules=preset, face_down=down,
    )


@pytest.mark.parametrize("preset", BOTH)
def test_small_positions_agree_with_exhaustive_search(preset):
    rng = random.Random(preset)
    games = (small_position(rng, preset, stock=i % 2 == 1) for i in range(16))
    verdicts = agree_with_exhaustive(games)
    assert verdicts == {True, False}, "the sample should hold both kinds"


@pytest.mark.parametrize("preset", BOTH)
def test_safe_foundation_moves_never_lose_a_win(preset):
    rng = random.Random(f"safe {preset}")
    checked = 0
    for i in range(40):
        game = small_position(rng, preset, stock=i % 2 == 1)
        for move in game.safe_foundation_moves():
            assert exhaustive(game) == exhaustive(game.after(move)), (game, move)
            checked += 1
    assert checked >= 5


# The classic safe rule (J♠'s piles ready, both red 10s home: nothing can ever be built on it)
# with Yukon moves and a card left in the stock. The K♦ dealt onto J♠ can leave column 1 only
# in a group led by J♠ (onto Q♥); Q♣ then goes onto the K♦ and column 1 is empty, the one empty
# column that unlocks the clubs (5♣ lies face down under 6♣). Send J♠ home first and the K♦
# lands on Q♣ itself: no group can carry it, no column ever empties, and the game is lost.
HANDLE = {
    "tableau": [
        ["QC", "JS"], ["KH", "5C", "6C"], ["7C"], ["8C"], ["9C"], ["10C", "JC"],
        ["KS", "QH"], ["QS", "KC"],
    ],
    "foundations": ["KC", "4C", "KS", "10S", "KH", "JH", "KD", "QD"],
    "stock": ["KD"],
    "face_down": [0, 2, 0, 0, 0, 0, 0, 1],
}


def test_the_classic_safe_rule_would_lose_a_win_with_yukon_moves():
    """docs/rules.md §3.11: with Yukon moves and cards in the stock no card is safe to send
    home, not even one the classic rule calls safe. Exhaustive search proves this position won
    before J♠ goes home and lost after; the engine and its solver keep J♠ back."""
    game = Game.from_layout(rules="milligan-yukon", **HANDLE)
    classic = Game.from_layout(rules="milligan-harp", **HANDLE)  # the same rule, run moves
    assert [str(m) for m in classic.safe_foundation_moves()] == ["1>f"]
    assert exhaustive(game) and not exhaustive(game.after("1>f"))
    assert game.safe_foundation_moves() == []
    result = solve(game, time_limit=10)
    assert result.status == WINNABLE
    assert_wins(game, result.moves)


def _face_up(game: Game) -> list[list]:
    return [column[down:] for column, down in zip(game.tableau, game.face_down, strict=True)]


@pytest.mark.parametrize("preset", BOTH)
def test_the_greedy_player_does_not_see_face_down_cards(preset):
    """Greedy is the player who sees only what is face up: with two face-down cards swapped,
    it plays the same moves until a card turns up (and the face-up cards then differ), here
    over each game's first 40 moves."""
    rng, compared = random.Random(13), 0
    for deal in range(1, 21):
        game = Game.new(deal, preset)
        deck = list(game.deck)
        for _ in range(2):
            swapped = deck[:]
            i, j = rng.sample(range(28), 2)  # the first 28 cards dealt go face down
            swapped[i], swapped[j] = swapped[j], swapped[i]
            twin = Game.from_deck(swapped, rules=preset)
            if twin == game or _face_up(twin) != _face_up(game):
                continue
            compared += 1
            one, two = game.copy(), twin.copy()
            while _face_up(one) == _face_up(two) and one.status == "playing" and one.ply < 40:
                move = greedy(one)
                assert move == greedy(two), f"deal {deal}: greedy saw a face-down card"
                if move is None:
                    break
                one.play(move)
                two.play(move)
    assert compared >= 30
