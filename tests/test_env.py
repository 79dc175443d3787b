"""The Gymnasium environment (milligan_widget.studies.env): its action table covers every legal
move of every preset, observations never show the stock, rewards, ends, illegal actions,
check_env."""

from __future__ import annotations

import doctest
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from milligan_widget import PRESETS, Card, Game, Move  # noqa: E402
from milligan_widget.studies import env as env_module  # noqa: E402
from milligan_widget.studies.env import (  # noqa: E402
    ACTION_MOVES,
    ENV_ID,
    FACE_DOWN,
    NO_CARD,
    MilliganEnv,
    action_to_move,
    move_to_action,
)
from tests.staging import stage  # noqa: E402

PACKAGE = Path(__file__).resolve().parent.parent / "milligan_widget"
RUN = "KC QH JC 10H 9C 8H 7C 6H 5C 4H 3C 2H AC"  # the longest run there is


def masked_random(info: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


# ------------------------------------------------------------------ the action table


def test_the_table_is_fixed_and_round_trips():
    assert len(ACTION_MOVES) == len(set(ACTION_MOVES)) == 6150
    assert MilliganEnv().action_space == gym.spaces.Discrete(6150)
    assert MilliganEnv("little-milligan").action_space == gym.spaces.Discrete(6150)
    assert ACTION_MOVES[0] == "d" and ACTION_MOVES[1] == "1>f" and ACTION_MOVES[-1] == "c4>f"
    for index, move in enumerate(ACTION_MOVES):
        assert move_to_action(move) == index and action_to_move(index) is move
        assert move_to_action(str(move)) == index


def test_moves_outside_the_table_are_refused():
    with pytest.raises(IndexError):
        action_to_move(6150)
    with pytest.raises(IndexError):
        action_to_move(-1)
    with pytest.raises(KeyError):
        move_to_action("3>f5")  # the engine never names the foundation pile itself


def kind(move: Move) -> str:
    """A move's shape with the numbers taken out: '3:2>5' -> 'n:n>n'."""
    return re.sub(r"\d+", "n", str(move))


def expected_kinds(rules) -> set[str]:
    kinds = {"d", "n>f", "n>n"}
    if rules.reserve != "none":
        kinds |= {"n>r", "r>n"} | ({"n:n>r"} if rules.reserve == "sequence" else set())
    if rules.cells:
        kinds |= {"n>c", "cn>n", "cn>f"}
    if rules.foundation_takeback != "never":
        kinds.add("fn>n")
    if rules.empty_column == "any":
        kinds.add("n:n>n")
    return kinds


def check_covered(game: Game) -> list[Move]:
    """Assert every legal move has its own action, which plays that very move."""
    moves = game.legal_moves
    actions = [move_to_action(move) for move in moves]
    assert len(set(actions)) == len(actions), moves
    assert all(0 <= a < len(ACTION_MOVES) for a in actions)
    assert [action_to_move(a) for a in actions] == moves
    return moves


@pytest.mark.parametrize("name", PRESETS)
def test_every_legal_move_of_random_play_has_an_action(name):
    rng, seen = random.Random(name), set()
    for seed in range(1, 31):
        game = Game.new(seed, name)
        for _ in range(300):
            moves = check_covered(game)
            seen.update(map(kind, moves))
            if not moves:
                break
            # Mostly moves that are not deals, so the games get to the stock-empty endgame.
            others = [m for m in moves if not m.is_deal]
            game.play(rng.choice(others if others and rng.random() < 0.9 else moves))
    assert expected_kinds(PRESETS[name]) <= seen, "random play missed the rarer moves"


def test_the_longest_runs_and_reserves_have_actions():
    # Any card fills an empty column: every part of a 13-card run, and of a 13-card reserve.
    runs = stage({1: RUN}, rules="imperial-guards")
    assert {f"1:{k}>2" for k in range(1, 13)} | {"1>2", "1:13>r"} <= set(check_covered(runs))
    reserve = stage({1: "5D"}, rules="imperial-guards", reserve=RUN)
    assert {f"r:{k}>2" for k in range(1, 13)} | {"r>2", "r>f"} <= set(check_covered(reserve))
    cells = stage({1: "9D"}, rules="milligan-cell", cells=["AC", None, None, "8S"])
    assert {"c1>f", "c4>1", "1>c"} <= set(check_covered(cells))


# ------------------------------------------------------------------ the gymnasium API


@pytest.mark.parametrize("name", ["classic", "milligan-cell", "little-milligan", "easy"])
def test_check_env_passes(name):
    env = gym.make(ENV_ID, rules=name, render_mode="ansi").unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert [str(w.message) for w in caught] == []


def test_reset_deals_the_numbered_deal_the_deck_or_a_game():
    env = MilliganEnv("millie")
    obs, _ = env.reset(seed=27)
    assert env.game == Game.new(27, "millie") and env.game.seed == 27
    assert obs["columns"][:, 0].tolist() == [c.code for c in Game.new(27, "millie").deck[:8]]
    deck = [str(card) for card in Game.new(5, "millie").deck]
    env.reset(options={"deck": deck})
    assert env.game == Game.from_deck(deck, "millie")
    staged = stage({1: "9D", 2: "AS"}, rules="millie")
    env.reset(options={"game": staged})
    assert env.game == staged and env.game is not staged
    with pytest.raises(ValueError):
        env.reset(options={"game": Game.new(1)})  # classic rules, not Millie


def test_an_unseeded_reset_deals_from_np_random():
    first, second = MilliganEnv(), MilliganEnv()
    first.reset(seed=5)
    second.reset(seed=5)
    first.reset()
    second.reset()
    assert first.game == second.game and first.game.seed != 5
    first.reset()
    assert first.game != second.game


def observations_equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("rules", ["milligan-harp", "milligan-yukon"])
def test_the_observation_never_shows_a_face_down_card(rules: str) -> None:
    deck = [str(card) for card in Game.new(7, rules).deck]
    other = [deck[1], deck[0], *deck[2:]]  # two face-down cards (columns 2 and 3) swapped
    assert other != deck
    (obs_a, info_a), (obs_b, info_b) = (
        MilliganEnv(rules).reset(options={"deck": d}) for d in (deck, other)
    )
    assert observations_equal(obs_a, obs_b)
    assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
    top = Game.new(7, rules).tableau[7][-1].code
    assert obs_a["columns"][7, :8].tolist() == [FACE_DOWN] * 7 + [top]


def test_the_observation_never_shows_the_stock():
    # Two decks alike for the opening row and the first four rows of the stock, then not.
    deck = [str(card) for card in Game.new(7).deck]
    other = deck[:40] + deck[40:][::-1]
    assert other[40:48] != deck[40:48]
    envs = [MilliganEnv(), MilliganEnv()]
    (obs_a, info_a), (obs_b, info_b) = (
        e.reset(options={"deck": d}) for e, d in zip(envs, (deck, other), strict=True)
    )
    rng = np.random.default_rng(1)
    while obs_a["stock"] >= 104 - 40:
        assert observations_equal(obs_a, obs_b)
        assert np.array_equal(info_a["action_mask"], info_b["action_mask"])
        action = masked_random(info_a, rng)
        obs_a, _, done, _, info_a = envs[0].step(action)
        obs_b, _, _, _, info_b = envs[1].step(action)
        assert not done
    assert not observations_equal(obs_a, obs_b)  # the row that differs is dealt


def test_the_observation_shows_each_pile():
    game = stage({1: "9D", 2: "AS 5H"}, rules="milligan-cell", cells=[None, "8S", None, None])
    env = MilliganEnv("milligan-cell")
    obs, _ = env.reset(options={"game": game})
    assert obs["columns"][1, :3].tolist() == [*game.column_codes[1], NO_CARD]
    assert obs["cells"].tolist() == [NO_CARD, game.cell_codes[1], NO_CARD, NO_CARD]
    assert obs["foundations"].tolist() == list(game.foundation_heights)
    assert obs["reserve"].tolist() == [NO_CARD] * 13 and obs["stock"] == 0
    assert obs in env.observation_space


# ------------------------------------------------------------------ rewards and ends


def test_cards_home_score_and_taking_one_back_costs():
    env = MilliganEnv("easy")  # easy rules let a foundation card come back
    rest = [str(c) for c in Game.new(1).deck if str(c) not in ("AC", "2H")]
    env.reset(options={"deck": ["AC", "2H", *rest, "AC", "2H"]})
    obs, reward, *_ = env.step(move_to_action("1>f"))
    assert reward == 1.0 and obs["foundations"].tolist() == [1] + [0] * 7
    obs, reward, *_ = env.step(move_to_action("f1>2"))
    assert reward == -1.0 and obs["foundations"].tolist() == [0] * 8
    two, ace = Card.parse("2H").code, Card.parse("AC").code
    assert obs["columns"][1, :3].tolist() == [two, ace, NO_CARD]


def test_a_win_scores_the_bonus_and_ends_the_episode():
    game = stage({1: "KD"}, foundations={8: "QD"})
    env = MilliganEnv(win_bonus=5.0)
    env.reset(options={"game": game})
    _, reward, terminated, truncated, info = env.step(move_to_action("1>f"))
    assert (reward, terminated, truncated, info["status"]) == (6.0, True, False, "won")


def test_a_lost_game_ends_the_episode():
    # A King may leave for an empty column, and then no move reaches a new position.
    clubs = ["AC", "2C", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
    game = Game.from_layout(
        tableau=[clubs, ["QC", "KC"], [], [], [], [], []],
        foundations=[None, "KS", "KH", "KD"],
        rules="little-milligan",
    )
    env = MilliganEnv("little-milligan")
    _, info = env.reset(options={"game": game})
    assert info["status"] == "playing" and info["action_mask"].sum() == 5
    _, reward, terminated, truncated, info = env.step(move_to_action("2>3"))
    assert (reward, terminated, truncated, info["status"]) == (0.0, True, False, "lost")
    assert info["action_mask"].sum() == 4  # legal moves are left, but none leads anywhere new


def test_illegal_actions_change_nothing():
    env = MilliganEnv(illegal_penalty=0.5)
    obs, info = env.reset(seed=1)  # only the deal is legal
    for action in (move_to_action("1>2"), 6149, np.int64(5), np.array(7, dtype=np.uint16)):
        after, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated, info["illegal"]) == (-0.5, False, False, True)
        assert observations_equal(after, obs) and env.game.ply == 0
    _, reward, *_, info = env.step(np.int64(0))  # numpy integers are fine actions
    assert (reward, info["illegal"], env.game.ply) == (0.0, False, 1)


NOT_ACTIONS = [
    0.9,
    0.0,
    np.float32(0.7),
    np.float64(0),
    "0",
    "d",
    False,
    True,
    np.bool_(False),
    None,
    6150,
    -3,
    10**30,
    [0],
    np.array([0]),
    np.array(0.0),
    1 + 0j,
]


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_what_is_not_an_action_of_the_space_is_refused(action):
    """As a Gymnasium environment does, naming the space; the game and the step count stay."""
    env = MilliganEnv(max_steps=1)
    env.reset(seed=1)  # only the deal, action 0, is legal
    with pytest.raises(ValueError, match=r"is not an action of the action space Discrete\(6150\)"):
        env.step(action)
    assert env.game.ply == 0
    assert env.step(0)[3] is True  # the refused step did not count: this one is the first


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ("x", TypeError, "reset's options are a dict"),
        ([("deck", None)], TypeError, "reset's options are a dict"),
        ({"game": "x"}, TypeError, r"options\['game'\] is a milligan_widget.Game"),
        ({"game": 27}, TypeError, r"options\['game'\] is a milligan_widget.Game"),
        ({"seed": 27}, ValueError, "does not know the option 'seed'"),
        ({"deck": None, "games": 1}, ValueError, "does not know the option 'games'"),
        ({"deck": [], "game": Game.new(1)}, ValueError, "give one, not both"),
    ],
    ids=repr,
)
def test_reset_says_what_is_wrong_with_its_options(options, error, words):
    env = MilliganEnv()
    env.reset(seed=5)
    with pytest.raises(error, match=words):
        env.reset(options=options)
    assert env.game == Game.new(5)  # the game before is still there


def test_reset_takes_no_options_or_empty_ones():
    env = MilliganEnv()
    assert env.reset(seed=4, options={})[0]["stock"] == env.reset(seed=4, options=None)[0]["stock"]
    assert env.game == Game.new(4)
    env.reset(options={"deck": None, "game": None})  # as if not given: a random deal
    assert env.game.ply == 0


def test_another_spelling_of_a_legal_move_is_not_offered():
    env = MilliganEnv()
    _, info = env.reset(seed=5)
    assert info["action_mask"][move_to_action("2>6")] == 1  # as the engine generates it
    assert info["action_mask"][move_to_action("2:1>6")] == 0  # the same move, spelled out
    assert env.step(move_to_action("2:1>6"))[4]["illegal"] and env.game.ply == 0


def test_the_step_cap_truncates():
    env = MilliganEnv(max_steps=3)
    env.reset(seed=1)
    ends = [env.step(move_to_action("1>2"))[2:4] for _ in range(3)]
    assert ends == [(False, False), (False, False), (False, True)]
    env.reset(seed=1)
    assert env.step(0)[3] is False  # reset starts the count again
    with pytest.raises(ValueError):
        MilliganEnv(max_steps=0)


def test_a_masked_random_agent_plays_100_episodes():
    env, rng = MilliganEnv(max_steps=300), np.random.default_rng(2024)
    ends = {"won": 0, "lost": 0, "truncated": 0}
    for episode in range(100):
        _, info = env.reset(seed=episode + 1)
        total, done = 0.0, False
        while not done:
            assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            _, reward, terminated, truncated, info = env.step(masked_random(info, rng))
            assert not info["illegal"]
            total += reward
            done = terminated or truncated
        status = env.game.status
        assert terminated == (status != "playing") and info["status"] == status
        ends["truncated" if truncated else status] += 1
        assert total == env.game.foundation_count + (10.0 if status == "won" else 0.0)
    assert ends["lost"] > 50, ends


def test_the_mask_of_new_positions_only():
    env, rng = MilliganEnv("milligan-cell", new_positions_only=True), np.random.default_rng(3)
    _, info = env.reset(seed=9)
    fewer = 0
    for _ in range(200):
        offered = {move_to_action(m) for m in env.game.new_position_moves()}
        assert set(np.flatnonzero(info["action_mask"])) == offered
        fewer += len(offered) < len(env.game.legal_moves)
        _, _, terminated, truncated, info = env.step(masked_random(info, rng))
        if terminated or truncated:
            break
    assert fewer > 0  # some legal moves were kept out: those that walk back


def test_render():
    env = MilliganEnv("giant", render_mode="ansi")
    env.reset(seed=3)
    env.step(0)
    assert env.render() == str(env.game) and "giant" in env.render()
    assert MilliganEnv().render() is None
    with pytest.raises(ValueError):
        MilliganEnv(render_mode="human")


def test_the_docstring_examples():
    result = doctest.testmod(env_module)
    assert result.failed == 0 and result.attempted > 0


# ------------------------------------------------------------------ where it sits


def test_the_package_works_without_gymnasium():
    script = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "import milligan_widget, milligan_widget.strategy\n"
        "assert milligan_widget.Game.new(1).legal_moves == ['d']\n"
        "try:\n    import milligan_widget.studies.env\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
        check=True,
    ).stdout
    assert "milligan-widget[gym]" in out


def test_the_env_reads_only_the_public_interface():
    text = (PACKAGE / "studies" / "env.py").read_text(encoding="utf-8")
    reached = re.findall(r"(\w+|\))\._[a-z]\w*", text)
    assert set(reached) <= {"self"}, reached
