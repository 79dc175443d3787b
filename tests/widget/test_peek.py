"""Peek or fair play: the toggle, what Hint says under each, and what the statistics keep."""

from __future__ import annotations

from pathlib import Path

from milligan_widget.studies.stats import Stats
from milligan_widget.widget import MilliganWidget
from milligan_widget.widget.assistant import HonestBudget
from tests.widget.simulate import Browser

HONEST = HonestBudget(samples=4, node_limit=20_000, seed=1)


def widget(**kwargs) -> MilliganWidget:
    return MilliganWidget(seed=8, stats=False, autosave=False, honest=HONEST, **kwargs)


def test_fair_play_is_the_default_and_the_menu_toggles_peek() -> None:
    shown = widget()
    browser = Browser(shown)
    assert shown.peek is False and shown.view["peek"] is False
    browser.request({"type": "peek", "on": True})
    assert shown.peek is True and shown.view["peek"] is True
    assert "the solver, which knows the stock" in shown.view["message"]
    browser.request({"type": "peek", "on": False})
    assert shown.peek is False and shown.view["peek"] is False
    assert "only at what you can see" in shown.view["message"]


def test_a_bad_peek_request_is_refused_and_changes_nothing() -> None:
    shown = widget(peek=True)
    browser = Browser(shown)
    browser.request({"type": "peek", "on": "yes"})
    assert shown.peek is True and shown.view["kind"] == "error"
    assert "'on' must be true or false" in shown.view["message"]


def test_the_replay_viewer_and_a_lesson_take_the_toggle_too() -> None:
    shown = widget()
    shown.deal()
    shown.show_replay()
    Browser(shown).request({"type": "peek", "on": True})
    assert shown.peek is True and shown.mode == "replay"


def test_the_honest_hint_says_it_looks_only_at_what_is_visible() -> None:
    shown = widget(hint_time=5)
    move, why = shown.hint()
    assert why.startswith("looking only at what you can see, ")
    assert "sampled stocks" in why and "knows the stock" not in why
    assert shown.view["message"].startswith("Honest hint: ") and shown.game.is_legal(move)


def test_with_peek_on_the_hint_says_the_solver_knows_the_stock() -> None:
    shown = widget(peek=True, hint_time=10)
    _, why = shown.hint()
    assert why.startswith("the solver, which knows the stock, sees a win")
    assert shown.view["message"].startswith("Solver: ")


def test_a_game_played_with_peek_on_at_any_time_counts_as_peeked(tmp_path: Path) -> None:
    store = Stats(tmp_path)
    shown = MilliganWidget(seed=8, stats=store, autosave=False)
    shown.deal()
    shown.peek = True
    shown.peek = False  # on once is enough
    shown.new_game(9)  # deal 8 is left: counted, peeked
    shown.deal()
    shown.new_game(10)  # deal 9, played fair
    assert shown.wait(10)
    assert [(g.seed, g.peek) for g in store.games()] == [(9, False), (8, True)]
    assert store.summary().get("classic").peeked == 1


def test_a_widget_made_with_peek_on_counts_its_games_as_peeked(tmp_path: Path) -> None:
    store = Stats(tmp_path)
    shown = MilliganWidget(seed=8, stats=store, autosave=False, peek=True)
    shown.deal()
    shown.new_game(9)
    assert shown.wait(10) and [g.peek for g in store.games()] == [True]


class SlowChance:
    """Stands in for the sampler's ``evaluate``: each call waits until stopped (or 10 s)."""

    def __init__(self, monkeypatch) -> None:
        import threading

        from milligan_widget.analysis import SamplingEvaluator

        self.started, self.stopped = threading.Semaphore(0), []
        real = SamplingEvaluator.evaluate

        def slow(evaluator, seen, limit, stop=None):
            import time

            self.started.release()
            deadline = time.monotonic() + 10
            while not self.stopped and not stop() and time.monotonic() < deadline:
                time.sleep(0.005)
            self.stopped.append(stop())
            return real(evaluator, seen, limit, stop)

        monkeypatch.setattr(SamplingEvaluator, "evaluate", slow)


def test_the_honest_chance_is_weighed_after_each_move_and_stopped_by_the_next(
    monkeypatch,
) -> None:
    import time

    shown = widget(check_winnable=True, winnable_time=30)
    assert shown.wait(30) and shown.analysis["state"] == "chance"
    assert "sampled stocks win" in shown.analysis["why"]
    opening = shown.analysis
    slow = SlowChance(monkeypatch)
    shown.deal()
    assert slow.started.acquire(timeout=10)
    assert shown.analysis["state"] == "checking"
    assert shown.analysis["why"].startswith("sampling stocks you cannot see")
    start = time.perf_counter()
    shown.undo()  # the position changes: the chance being weighed is stopped
    assert time.perf_counter() - start < 0.5  # never blocking a move
    assert shown.wait(30) and slow.stopped[0] is True
    assert shown.analysis == opening  # weighed before: from the cache, not weighed again
    assert not slow.started.acquire(timeout=0.2)
    shown.deal()  # the stopped chance was not kept: the position is weighed afresh
    assert slow.started.acquire(timeout=10) and shown.wait(30)
    assert shown.analysis["state"] == "chance"
    shown.undo()
    assert shown.wait(30) and shown.analysis == opening
    assert shown.view["stats"]["moves"] == 0


def test_the_indicator_hint_and_review_weigh_each_position_once(monkeypatch) -> None:
    """The indicator weighs each position after a move (the calibrated chance samples it
    twice: the model's own figure and the one shown beside it); Hint asked twice and a review
    of the game take what was weighed from the one cache of chances, never sampling it again."""
    from milligan_widget import analysis
    from milligan_widget.analysis import SamplingEvaluator
    from milligan_widget.analysis.cache import CHANCES
    from milligan_widget.widget.assistant.review import ReviewSettings

    CHANCES.clear()
    weighed, hints = [], []
    evaluate, honest_hint = SamplingEvaluator.evaluate, analysis.honest_hint

    def counting(evaluator, seen, limit, stop=None):
        weighed.append((seen.key, limit))
        return evaluate(evaluator, seen, limit, stop)

    def hint(*args, **kwargs):
        hints.append(args[0].ply)
        return honest_hint(*args, **kwargs)

    monkeypatch.setattr(SamplingEvaluator, "evaluate", counting)
    monkeypatch.setattr(analysis, "honest_hint", hint)
    budget = HonestBudget(samples=4, node_limit=20_000)  # the samples drawn from the position
    shown = MilliganWidget(seed=8, stats=False, autosave=False, honest=budget,
                           check_winnable=True, winnable_time=30)  # fmt: skip
    chances = []
    for _ in range(2):
        assert shown.wait(30) and shown.analysis["state"] == "chance"
        chances.append(shown.analysis["why"])
        shown.deal()
    assert shown.wait(30) and len(weighed) == len(set(weighed)) == 3 * 2
    assert shown.hint() == shown.hint() and hints == [2]
    shown.review_settings = ReviewSettings(time_limit=0.5, samples=4, node_limit=20_000)
    done = shown.review(wait=True)
    assert done is not None and [str(e.chance) for e in done.entries] == chances
    assert len(weighed) == len(set(weighed))
