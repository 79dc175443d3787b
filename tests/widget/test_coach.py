"""The live coach in the widget: each move judged in the background, coach_log, Undo and a
new game, Show, the toggle refused in lessons and replays, and the statistics' column."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from milligan_widget.analysis import Judgement, Limit, evaluator_for, judge_move
from milligan_widget.analysis.cache import Chances
from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant import HonestBudget
from milligan_widget.widget.assistant.jobs import BACKGROUND_NICE, RIGHT_OF_WAY
from milligan_widget.widget.modes import ModeError
from tests.test_judge import jacks
from tests.widget.simulate import Browser, _lesson_widget, _move

HONEST = HonestBudget(samples=4, node_limit=3_000)


def coached(**kwargs) -> MilliganWidget:
    options = {"stats": False, "autosave": False, "honest": HONEST, "coach": True} | kwargs
    return MilliganWidget(game=jacks(), **options)


def logged(widget: MilliganWidget) -> list[tuple[int, str, str, str | None]]:
    return [(j.ply, j.move, j.label, j.better) for j in widget.coach_log]


def test_play_returns_at_once_and_the_judgement_comes_in_the_background() -> None:
    widget = coached()
    widget.play("d")
    assert widget.analysis["coach"] == {"state": "judging", "ply": 0, "move": "d"}
    assert widget.wait(30)
    (judged,) = widget.coach_log
    assert isinstance(judged, Judgement) and judged.label == "blunder"
    assert judged.better is not None and judged.better.endswith(">f")
    assert (judged.chance_after.wins, judged.better_chance.p) == (0, 1.0)
    shown = widget.analysis["coach"]
    assert shown["label"] == "blunder" and shown["words"].startswith("Blunder: dealing a row ")
    with pytest.raises(AttributeError):
        judged.label = "best"  # frozen


def test_the_coach_judges_as_the_judge_does_from_what_was_seen_before_the_move() -> None:
    widget = coached()
    before = widget.game.copy()
    widget.play("d")
    assert widget.wait(30)
    limit = widget._table.assistant.coach.limit
    alone = judge_move(before, "d", evaluator_for(before.rules), limit, 0, cache=Chances())
    assert widget.coach_log == (alone,)


def test_undo_drops_the_judgement_and_a_new_game_clears_the_log() -> None:
    widget = coached()
    widget.play("1>f")
    widget.play("2>f")
    assert widget.wait(30) and logged(widget) == [
        (0, "1>f", "best", None),
        (1, "2>f", "best", None),
    ]
    widget.undo()
    assert logged(widget) == [(0, "1>f", "best", None)]
    widget.play("3>f")  # a new move 1: judged in its turn
    assert widget.wait(30) and [j.move for j in widget.coach_log] == ["1>f", "3>f"]
    widget.new_game(5)
    assert widget.coach_log == () and widget.analysis["coach"] is None


def test_show_takes_the_move_back_and_lights_the_better_one() -> None:
    widget = coached()
    browser = Browser(widget)
    browser.request({"type": "deal"})
    assert widget.wait(30)
    better = widget.coach_log[0].better
    browser.request({"type": "better"})
    assert widget.game.history == [] and widget.view["hint"]["text"] == better
    assert widget.view["message"].startswith("Better than dealing a row: J")
    assert widget.coach_log == ()
    browser.request({"type": "better"})  # nothing to show now
    assert widget.view["kind"] == "error" and "no better move" in widget.view["message"]


def test_the_menu_toggles_the_coach_and_moves_by_gesture_are_judged() -> None:
    widget = coached(coach=False)
    browser = Browser(widget)
    browser.request(_move("t1", "f"))
    assert widget.wait(30) and widget.coach_log == ()  # off: nothing judged
    browser.request({"type": "coach", "on": True})
    assert widget.coach is True and "coach is on" in widget.view["message"]
    browser.request(_move("t2", "f"))
    assert widget.wait(30) and logged(widget) == [(1, "2>f", "best", None)]
    browser.request({"type": "coach", "on": "yes"})
    assert widget.coach is True and widget.view["kind"] == "error"
    with pytest.raises(TypeError, match="coach is True or False"):
        widget.coach = 1


def test_turning_the_coach_off_drops_the_moves_still_to_judge() -> None:
    widget = coached()
    with widget._lock:  # the move is queued, not judged yet
        widget.play("1>f")
        widget.coach = False
    assert widget.wait(30) and widget.coach_log == () and widget.analysis.get("coach") is None


def test_a_lesson_and_the_replay_viewer_refuse_the_coach() -> None:
    widget, browser = _lesson_widget()
    with pytest.raises(ModeError, match="The coach is for a game"):
        widget.coach = True
    browser.request({"type": "coach", "on": True})
    assert widget.coach is False and widget.view["kind"] == "error"
    assert "coach" not in widget.view["actions"]
    played = coached(coach=False)
    played.play("1>f")
    played.show_replay()
    with pytest.raises(ModeError, match="This is a replay"):
        played.coach = True
    Browser(played).request({"type": "better"})
    assert played.view["kind"] == "error" and played.view["message"].startswith("This is a replay")
    assert played.mode == "replay" and played.coach is False


def test_a_coached_game_counts_as_coached_never_as_peeked(tmp_path: Path) -> None:
    store = Stats(tmp_path)
    widget = MilliganWidget(game=jacks(), stats=store, autosave=False, honest=HONEST, coach=True)
    widget.play("1>f")
    widget.new_game(9)  # the staged game is left: counted, coached
    widget.coach = False
    widget.deal()
    widget.new_game(10)  # deal 9, not coached
    assert widget.wait(30)
    assert [(g.seed, g.coached, g.peek) for g in store.games()] == [
        (9, False, False),
        (None, True, False),
    ]
    assert store.summary().get("millie").coached == 1


def test_the_coach_budget_is_the_honest_one() -> None:
    widget = coached(honest=HonestBudget(samples=6, node_limit=2_000))
    assert widget._table.assistant.coach.honest.samples == 6
    limit = widget._table.assistant.coach.honest.hint_limit(2.5)
    assert limit == Limit(2_000, 3, 2.5)


def test_a_review_of_a_coached_game_takes_the_coach_s_judgements(monkeypatch) -> None:
    """The review judges the dealt Jacks as the coach did, from the one cache of chances: the
    judge does not weigh the move's lines again."""
    from milligan_widget.analysis import judge as judge_module
    from milligan_widget.widget.assistant.review import ReviewSettings

    widget = coached()
    widget.play("d")
    assert widget.wait(30)
    (judged,) = widget.coach_log
    weighed = []
    sampled = judge_module._judge_sampled
    monkeypatch.setattr(
        judge_module, "_judge_sampled", lambda *a, **k: weighed.append(a) or sampled(*a, **k)
    )
    widget.review_settings = ReviewSettings(time_limit=1.0, samples=4, node_limit=3_000)
    done = widget.review(wait=True)
    assert done is not None and weighed == []
    (entry,) = done.entries
    assert entry.judgement == judged and (entry.better, done.flags[0].label) == (
        judged.better,
        "blunder",
    )


def test_one_thread_judges_move_after_move_and_ends_at_close() -> None:
    """No thread is started for each move (its start would hold up the move's request)."""
    widget = coached()
    coach = widget._table.assistant.coach
    widget.play("1>f")
    assert widget.wait(30)
    first = coach._thread
    widget.play("2>f")
    assert widget.wait(30) and len(widget.coach_log) == 2
    assert first is not None and coach._thread is first and first.is_alive()
    widget.close()
    first.join(5)
    assert not first.is_alive()


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own niceness is Linux's")
def test_the_coach_judges_at_a_lower_priority_than_the_kernel_s_thread(monkeypatch) -> None:
    """Play is never held up: where the cores are busy, the kernel's thread (and the server,
    the browser) go before the coach's search (measured: benchmarks/widget.py --coach)."""
    import milligan_widget.widget.assistant.coach as coach_module

    niceness: list[int] = []
    real = coach_module.judge_move

    def judge_and_look(*args, **kwargs):
        niceness.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return real(*args, **kwargs)

    monkeypatch.setattr(coach_module, "judge_move", judge_and_look)
    kernel = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    if kernel >= BACKGROUND_NICE:
        pytest.skip("the tests run at a niceness the background threads cannot go below")
    widget = coached()
    widget.play("1>f")
    assert widget.wait(30) and len(widget.coach_log) == 1
    assert niceness == [BACKGROUND_NICE]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == kernel
    widget.close()


def slow_judge(
    monkeypatch, seconds: float, said: list[bool] | None = None
) -> tuple[list[float], threading.Event]:
    """The coach's judgement replaced by a search that looks at ``stop()`` for ``seconds``
    of its own work (the time ``stop()`` takes not counted), until ``stop()`` says so: the
    times of its looks, and an event set when it starts; ``said`` gets what ``stop()`` said."""
    import milligan_widget.widget.assistant.coach as coach_module

    looks: list[float] = []
    searching = threading.Event()

    def search(before, move, evaluator, limit, ply, stop):
        searching.set()
        worked = 0.0
        while worked < seconds:
            answer = stop()
            looks.append(time.monotonic())
            if said is not None:
                said.append(answer)
            if answer:
                return
            time.sleep(0.005)
            worked += 0.005

    monkeypatch.setattr(coach_module, "judge_move", search)
    return looks, searching


def test_the_coach_s_search_gives_way_to_the_player_s_requests(monkeypatch) -> None:
    """While a request is handled and its frame goes out, and a moment after, the coach's
    search waits at its next look at ``stop`` (measured: benchmarks/widget.py --coach)."""
    monkeypatch.setattr(RIGHT_OF_WAY, "seconds", 0.4)
    looks, searching = slow_judge(monkeypatch, 1.2)
    widget = coached()
    started = time.monotonic()
    widget.play("1>f")
    assert searching.wait(10) and looks[0] - started >= 0.35  # the move's frame went first
    time.sleep(0.2)
    asked = time.monotonic()
    Browser(widget).request({"type": "move", "source": "c1", "target": "f", "count": 1})
    assert widget.wait(10)
    after = [look for look in looks if look > asked]
    assert after and after[0] - asked >= 0.35
    assert any(look < asked for look in looks[1:])  # it searched between the two


def test_a_card_held_holds_the_coach_s_search_until_its_move(monkeypatch) -> None:
    """The front end asks for a hold when it picks a card up while the kernel searches: the
    coach's search waits past a claim's length, and the next request (the move) ends it.
    The hold itself changes nothing and sends nothing."""
    monkeypatch.setattr(RIGHT_OF_WAY, "seconds", 0.1)
    monkeypatch.setattr(RIGHT_OF_WAY, "longest_hold", 30.0)
    looks, searching = slow_judge(monkeypatch, 2.5)
    widget = coached()
    browser = Browser(widget)
    widget.play("1>f")
    assert searching.wait(10)
    history = list(widget.game.history)
    held = time.monotonic()
    assert browser.request({"type": "hold"}) == []  # no frame
    assert widget.game.history == history
    time.sleep(0.8)
    assert not [look for look in looks if held + 0.2 < look]  # held past the claim
    played = time.monotonic()
    browser.request({"type": "move", "source": "c1", "target": "f", "count": 1})
    assert widget.wait(30)
    after = [look for look in looks if look > played]
    assert after and after[0] - played < 1.0  # the move ended the hold, not its 30 s


def test_the_coach_s_safety_net_counts_its_work_not_the_time_it_gave_way(monkeypatch) -> None:
    """A card held longer than the coach's seconds does not cut its judgement short; a
    judgement that works longer than them is stopped."""
    monkeypatch.setattr(RIGHT_OF_WAY, "seconds", 0.05)
    said: list[bool] = []
    looks, searching = slow_judge(monkeypatch, 0.4, said)
    widget = coached()
    widget._table.assistant.coach.seconds = 0.6
    assert widget._table.assistant.coach.limit.time is None  # counted in positions
    widget.play("1>f")
    assert searching.wait(10)
    Browser(widget).request({"type": "hold"})
    time.sleep(1.0)
    refused = {"type": "move", "source": "c1", "target": "f", "count": 1}
    Browser(widget).request(refused)  # the hold ends; nothing changes
    assert widget.wait(30)
    assert said and not any(said) and looks[-1] - looks[0] > 1.0  # paused, not cut short
    said.clear()
    slow_judge(monkeypatch, 5.0, said)
    widget.play("2>f")
    assert widget.wait(30)
    assert said[-1] is True and len(said) < 5 / 0.005  # stopped after its 0.6 s of work


def test_a_request_claims_the_right_of_way_before_it_is_handled(monkeypatch) -> None:
    from milligan_widget.widget import requests

    claimed: list[bool] = []
    parse = requests.parse

    def parse_and_look(*args, **kwargs):
        claimed.append(RIGHT_OF_WAY._until > time.monotonic())
        return parse(*args, **kwargs)

    monkeypatch.setattr(requests, "parse", parse_and_look)
    widget = coached(coach=False)
    monkeypatch.setattr(RIGHT_OF_WAY, "_until", 0.0)  # the welcome's frame claimed it
    Browser(widget).request({"type": "undo"})
    assert claimed == [True]
