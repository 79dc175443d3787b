"""Save keeps peek (issue 24): the toolbar's Save and ``widget.save`` write ``{"peek": true}``
in the saved game's meta when the game was played peeking, and Open and ``load`` read it
back, so a game played peeking still counts as peeked when it is finished elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from milligan_widget import Game
from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget
from tests.widget.simulate import Browser


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The notebook's folder (Save and Open use it) with its own statistics."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MILLIGAN_WIDGET_DATA", str(tmp_path / "data"))
    return tmp_path


def played(peek: bool, **kwargs: object) -> MilliganWidget:
    widget = MilliganWidget(seed=8, stats=False, autosave=False, hint_time=0, peek=peek, **kwargs)
    widget.deal()
    return widget


def peeked_games(store: Stats) -> list[bool]:
    return [game.peek for game in store.games()]


def test_a_game_saved_peeking_opens_in_a_new_widget_and_counts_as_peeked(folder: Path) -> None:
    widget = played(peek=True)
    widget.peek = False  # peek once on is enough
    path = widget.quick_save()
    assert json.loads(path.read_text())["meta"] == {"peek": True}
    store = Stats(folder / "stats")
    fresh = MilliganWidget(seed=5, stats=store, autosave=False, hint_time=0)
    assert fresh.peek is False
    Browser(fresh).request({"type": "open", "name": path.name})
    assert fresh.game == widget.game and fresh.peek is True  # it goes on as it was played
    assert "played peeking" in fresh.view["message"]
    fresh.new_game(9)  # the opened game is left: counted, and counted as peeked
    assert fresh.wait(10) and peeked_games(store) == [True]


def test_load_of_a_game_saved_peeking_counts_it_as_peeked(folder: Path) -> None:
    widget = played(peek=True)
    widget.save(folder / "mine.json")
    assert Game.load(folder / "mine.json").meta == {"peek": True}
    store = Stats(folder / "stats")
    loaded = MilliganWidget.load(folder / "mine.json", stats=store, autosave=False)
    assert loaded.peek is True
    loaded.new_game(9)
    assert loaded.wait(10) and peeked_games(store) == [True]
    # asked for fair help, it is still counted as played peeking: it was
    again = MilliganWidget(game=Game.load(folder / "mine.json"), stats=store, autosave=False)
    assert again.peek is False
    again.new_game(9)
    assert again.wait(10) and peeked_games(store) == [True, True]


def test_a_fair_game_saves_as_before_and_opens_fair(folder: Path) -> None:
    widget = played(peek=False)
    path = widget.quick_save()
    assert path.read_text() == widget.game.to_json()  # no meta: as Save always wrote it
    assert "meta" not in json.loads(path.read_text())
    store = Stats(folder / "stats")
    fresh = MilliganWidget(seed=5, stats=store, autosave=False, hint_time=0)
    fresh.open_saved(path.name)
    assert fresh.peek is False
    fresh.new_game(9)
    assert fresh.wait(10) and peeked_games(store) == [False]


def test_a_save_with_a_malformed_meta_is_refused_with_the_reason(folder: Path) -> None:
    document = json.loads(played(peek=False).game.to_json())
    document["meta"] = {"peek": "yes please" * 30}
    (folder / "bad.json").write_text(json.dumps(document))
    fresh = MilliganWidget(seed=5, stats=False, autosave=False, hint_time=0)
    before = fresh.game.copy()
    view = Browser(fresh).updated_view(
        Browser(fresh).request({"type": "open", "name": "bad.json"})
    )
    assert view["kind"] == "error" and "meta 'peek' is not a small value" in view["message"]
    assert fresh.game == before and fresh.game.seed == 5
