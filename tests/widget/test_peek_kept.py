"""Peek is kept with the game in play: in the auto-save's envelope (the saved-game format
itself has no place for it), so that Resume goes on as the game was played, and counts so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.storage import AUTOSAVE_FORMAT, Autosave


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(tmp_path))
    return tmp_path


def kept_file(data: Path, key: str) -> Path:
    return Autosave(data, key).path


def test_a_game_played_peeking_resumes_peeking_and_counts_so(data: Path) -> None:
    widget = MilliganWidget(seed=8, autosave="peeking", stats=False, peek=True)
    widget.deal()
    assert widget.wait(10)
    kept = json.loads(kept_file(data, "peeking").read_text())
    assert kept["format"] == AUTOSAVE_FORMAT and kept["peek"] is True
    assert Game.from_json(json.dumps(kept["game"])) == widget.game  # the saved game, whole
    widget.close()
    store = Stats(data / "stats")
    again = MilliganWidget.resume("peeking", stats=store)
    assert again.peek is True and again.game == widget.game
    again.new_game(9)  # deal 8 is left: counted, peeked
    assert again.wait(10) and [g.peek for g in store.games()] == [True]


def test_peek_once_on_is_kept_though_it_is_off_now(data: Path) -> None:
    widget = MilliganWidget(seed=8, autosave="once", stats=False)
    widget.peek = True
    widget.peek = False
    widget.deal()
    assert widget.wait(10)
    assert json.loads(kept_file(data, "once").read_text())["peek"] is True


def test_a_fair_game_is_kept_fair_and_an_old_plain_auto_save_still_resumes(data: Path) -> None:
    widget = MilliganWidget(seed=8, autosave="fair", stats=False)
    widget.deal()
    assert widget.wait(10)
    assert json.loads(kept_file(data, "fair").read_text())["peek"] is False
    path = kept_file(data, "old")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(widget.game.to_json())  # as auto-save wrote before the envelope
    resumed = MilliganWidget.resume("old", stats=False)
    assert resumed.game == widget.game and resumed.peek is False


def test_the_offer_to_resume_brings_peek_back(data: Path) -> None:
    widget = MilliganWidget(seed=8, autosave="offer", stats=False, peek=True)
    widget.deal()
    assert widget.wait(10)
    widget.close()
    fresh = MilliganWidget(seed=5, autosave="offer", stats=False)
    assert fresh.peek is False and fresh.view["resume"]
    fresh.take_up_offer(True)
    assert fresh.game.seed == 8 and fresh.peek is True


def test_a_damaged_envelope_is_refused_with_a_reason_and_set_aside(data: Path) -> None:
    path = kept_file(data, "bad")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": AUTOSAVE_FORMAT, "version": 1, "peek": "yes", "game": {}})
    path.write_text(text)
    with pytest.raises(ValueError, match="envelope is not one this version reads"):
        MilliganWidget.resume("bad", stats=False)
    (aside,) = path.parent.glob(f"{path.stem}.unreadable-*.json")
    assert aside.read_text() == text and not path.exists()
