"""New game by difficulty in the widget (issue 24, item 3; issue 32, item 6): from Python and
from the toolbar's request, each refusal in a player's words with nothing changed, the status
bar's deal (its band; the solver's verdict only where the player may know it)."""

from __future__ import annotations

from typing import Any

import pytest

from milligan_widget import PRESETS, Game, Rules
from milligan_widget.studies.difficulty import (
    DIFFICULTIES,
    band_games,
    choices,
    deal_info,
    deals_of,
    difficulty_of,
    shipped_deals,
)
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.view import FEW_WON
from tests.widget.simulate import Browser, snapshot

BANDS = ("easy", "medium", "hard")


def widget(**kwargs: Any) -> MilliganWidget:
    kwargs.setdefault("seed", 8)
    return MilliganWidget(stats=False, autosave=False, hint_time=0, **kwargs)


def state(w: MilliganWidget) -> tuple[Any, ...]:
    """What a refused New game must leave as it was: the game, its deal and rules, Undo."""
    return (snapshot(w.game), w.game.seed, w.game.rules, w.view["can_undo"], w.game.meta)


@pytest.mark.parametrize("rules", ["classic", "millie", "milligan-harp", "milligan-yukon"])
@pytest.mark.parametrize("band", BANDS)
def test_a_deal_by_difficulty_is_from_that_band_of_the_shipped_table(rules: str, band: str) -> None:
    w = widget(rules=rules)
    for _ in range(5):
        game = w.new_game(difficulty=band)
        assert game is w.game and game.rules.name == rules
        assert difficulty_of(rules, game.seed) == band
        assert w.view["deal"]["difficulty"] == band
        assert w.view["deal"]["text"].startswith(f"{band.title()} deal")
        assert w.view["deal"]["solver"] == "winnable"  # asked for a band: a deal the solver won


def test_a_winnable_deal_is_one_the_solver_won_and_says_so() -> None:
    w = widget()
    for _ in range(5):
        game = w.new_game(rules="milligan-cell", difficulty="winnable")
        info = deal_info("milligan-cell", game.seed)
        assert info is not None and info.verdict == "winnable"
        about = w.view["deal"]
        assert about["solver"] == "winnable" and "won by the solver" in about["text"]
        assert about["difficulty"] == info.band  # Milligan Cell deals have bands too


def test_any_deal_is_as_ever_and_undo_brings_back_the_game_left() -> None:
    w = widget()
    w.deal()
    game = w.new_game(difficulty="any")
    assert game.seed is not None and not game.meta
    assert w.undo() is None and w.game.seed == 8 and w.game.ply == 1


REFUSALS = [
    ({"difficulty": "impossible"}, "is not a difficulty"),
    ({"difficulty": 3}, "is not a difficulty"),
    ({"seed": 27, "difficulty": "hard"}, "A deal number or a difficulty, not both"),
    ({"rules": Rules.named("classic").replace(cells=2), "difficulty": "medium"}, "custom rules"),
    ({"rules": Rules.named("classic").replace(cells=2), "difficulty": "winnable"}, "custom rules"),
]


@pytest.mark.parametrize(("kwargs", "words"), REFUSALS)
def test_a_difficulty_that_cannot_be_dealt_is_refused_and_changes_nothing(
    kwargs: dict[str, Any], words: str
) -> None:
    w = widget()
    w.deal()
    before = state(w)
    with pytest.raises(ValueError, match=words):
        w.new_game(**kwargs)
    assert state(w) == before
    assert w.view["kind"] == "error" and words in w.view["message"]


def test_the_request_deals_by_difficulty() -> None:
    w = widget()
    browser = Browser(w)
    view = browser.updated_view(
        browser.request({"type": "new", "seed": None, "rules": "millie", "difficulty": "hard"})
    )
    assert w.game.rules.name == "millie" and difficulty_of("millie", w.game.seed) == "hard"
    assert view["seed"] == w.game.seed and view["deal"]["difficulty"] == "hard"
    browser.request({"type": "new", "seed": "", "rules": "classic", "difficulty": None})
    assert w.game.rules.name == "classic" and not w.game.meta  # no difficulty: any deal


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ({"difficulty": "extreme"}, "Request refused: unknown difficulty 'extreme'"),
        ({"difficulty": ["hard"]}, "Request refused: unknown difficulty"),
        ({"difficulty": "hard", "seed": "27"}, "A deal number or a difficulty, not both"),
        ({"difficulty": "medium", "rules": "no-such-game"}, "Request refused: unknown rules"),
    ],
)
def test_a_new_game_request_that_cannot_be_dealt_is_refused(
    request_: dict[str, Any], words: str
) -> None:
    w = widget()
    w.deal()
    before = state(w)
    browser = Browser(w)
    view = browser.updated_view(browser.request({"type": "new", "seed": None} | request_))
    assert view["kind"] == "error" and view["message"].startswith(words)
    assert state(w) == before


def test_the_rules_info_says_what_each_preset_offers() -> None:
    offered = widget().rules_info["difficulties"]
    assert set(offered) == set(PRESETS)
    for name, entries in offered.items():
        assert tuple(entry["value"] for entry in entries) == choices(name)
    assert [e["label"] for e in offered["classic"]] == [
        "Any deal", "Winnable deal", "Easy", "Medium", "Hard",
    ]  # fmt: skip
    assert [e["value"] for e in offered["milligan-yukon"]] == list(DIFFICULTIES)
    assert set(choices("classic")) == set(DIFFICULTIES)


UNDECIDED = 715  # a classic deal of the shipped table the solver did not decide in 60 s


def twin_won_deal(rules: str, deal: int) -> int:
    """A deal the solver won in the same band."""
    other = deal_info(rules, deal)
    assert other is not None
    return next(
        row.deal
        for row in shipped_deals()[rules].values()
        if row.verdict == "winnable" and row.band == other.band
    )


def test_fair_play_shows_the_band_but_not_the_solvers_verdict() -> None:
    assert deal_info("classic", UNDECIDED).verdict == "unknown"
    won = twin_won_deal("classic", UNDECIDED)
    shown = [widget(seed=seed).view["deal"] for seed in (won, UNDECIDED)]
    assert shown[0] == shown[1]  # the band is shown won or not: it tells nothing of the verdict
    assert shown[0]["solver"] is None and "solver" not in shown[0]["text"]
    band = deal_info("classic", UNDECIDED).band
    assert shown[0]["difficulty"] == band and shown[0]["text"] == f"{band.title()} deal"
    assert "greedy" in shown[0]["title"] and "classic deals" in shown[0]["title"]


def test_a_band_of_a_preset_hardly_ever_won_says_it_only_ranks_the_deal() -> None:
    """Milligan Harp's bands hold deals greedy (and the honest player) almost never win: its
    "Easy" is only easier than the other Harp deals, and the why says so with the figures."""
    harp = widget(seed=deals_of("milligan-harp", "easy")[0], rules="milligan-harp").view["deal"]
    classic = widget(seed=deals_of("classic", "easy")[0]).view["deal"]
    assert harp["text"] == classic["text"] == "Easy deal"
    assert "Few milligan harp games are won on any deal" in harp["title"]
    won, played = band_games("milligan-harp")
    assert f"a greedy player won {won} of its {played} games" in harp["title"]
    assert won / played < FEW_WON <= band_games("classic")[0] / band_games("classic")[1]
    assert "Few" not in classic["title"] and "classic deals" in classic["title"]


def test_peek_shows_the_solvers_verdict_on_the_deal() -> None:
    w = widget(seed=UNDECIDED, peek=True)
    assert w.view["deal"]["solver"] == "unknown"
    assert "the solver did not decide it" in w.view["deal"]["text"]
    w.peek = False
    assert w.view["deal"]["solver"] is None


def test_a_deal_the_table_does_not_hold_shows_nothing() -> None:
    assert widget(seed=10**12).view["deal"] is None
    assert MilliganWidget(game=Game.new(8).copy(history=False), stats=False,
                          autosave=False).view["deal"] is None  # fmt: skip
