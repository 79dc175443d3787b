"""The widget in real JupyterLab: real mouse and keys in chromium, Python checked in the kernel."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from milligan_widget.widget import sentence
from tests.lines import WIN_8

from .conftest import Notebook
from .gestures import drag, screenshot
from .lab import (
    FIRST_TABLEAU_MOVE,
    REPO,
    Kernel,
    LabServer,
    open_notebook,
)

SEED = 2024
CHANGE_THEME = "window.jupyterapp.commands.execute('apputils:change-theme', {theme: %r})"


# ------------------------------------------------------------------ helpers
def columns(nb: Notebook) -> list[list[str]]:
    return nb.kernel.eval("[[str(c) for c in col] for col in widget.game.tableau]")


def history(nb: Notebook) -> list[str]:
    return nb.kernel.eval("[str(m) for m in widget.game.history]")


def fresh_game(nb: Notebook, seed: int = SEED, rules: str = "classic") -> None:
    """A new deal from Python, and wait until the layout shows that view (or a later one of
    the same game: a background job may publish once more, as the indicator does)."""
    rev = nb.kernel.eval(f"(widget.new_game(seed={seed}, rules={rules!r}), widget.view['rev'])[1]")
    nb.widget.evaluate(
        """(root, rev) => new Promise((done, fail) => {
             const start = performance.now();
             const check = () => Number(root.dataset.rev) >= rev ? done()
               : performance.now() - start > 10000 ? fail(`data-rev ${root.dataset.rev} < ${rev}`)
               : requestAnimationFrame(check);
             check();
           })""",
        rev,
    )
    expect(nb.widget).to_have_attribute("data-variant", rules)
    expect(nb.stat("moves")).to_have_text("0")


def find_tableau_move(nb: Notebook) -> dict[str, Any]:
    """A fresh deal with a legal column-to-column move, and the card that leads it."""
    for seed in range(SEED, SEED + 200):
        fresh_game(nb, seed)
        found = nb.kernel.eval(FIRST_TABLEAU_MOVE)
        if found:
            source, target, card = found[0]
            return {"seed": seed, "source": source, "target": target, "card": card}
    raise AssertionError("no opening with a tableau move")


def find_illegal_pair(nb: Notebook) -> tuple[str, str]:
    legal = {
        tuple(pair)
        for pair in nb.kernel.eval("[(m.source, m.target) for m in widget.game.legal_moves]")
    }
    return next(
        (f"t{a}", f"t{b}")
        for a in range(1, 9)
        for b in range(1, 9)
        if a != b and (f"t{a}", f"t{b}") not in legal
    )


def set_theme(nb: Notebook, theme: str) -> None:
    nb.page.evaluate(CHANGE_THEME % theme)
    light = "true" if "Light" in theme else "false"
    expect(nb.page.locator("body")).to_have_attribute("data-jp-theme-light", light)
    # JupyterLab covers the page with its splash while it swaps themes: wait it out.
    expect(nb.page.locator("#jupyterlab-splash")).to_have_count(0, timeout=15_000)


# ------------------------------------------------------------------ the layout
def test_layout_has_every_pile_and_figure(notebook: Notebook) -> None:
    fresh_game(notebook)
    piles = [*(f"t{i}" for i in range(1, 9)), *(f"f{i}" for i in range(1, 9)), "stock", "reserve"]
    for pile in piles:
        expect(notebook.pile(pile)).to_have_count(1)
    expect(notebook.stat("foundations")).to_have_text("0/104")
    expect(notebook.stat("tableau")).to_have_text("8")
    expect(notebook.stat("reserve")).to_have_text("0")
    expect(notebook.pile("reserve")).to_have_class(re.compile("mw-closed"))
    for i, col in enumerate(columns(notebook), start=1):
        expect(notebook.pile(f"t{i}").locator("[data-card]")).to_have_count(len(col))
        expect(notebook.pile(f"t{i}").locator(f'[data-card="{col[-1]}"]')).to_have_count(1)
    expect(notebook.widget).to_have_attribute("data-lm-suppress-shortcuts", "true")
    expect(notebook.message()).to_have_attribute("aria-live", "polite")
    label = notebook.pile("t1").locator("[data-card]").first.get_attribute("aria-label")
    assert "column 1" in label and " of " in label


def test_variants_show_their_own_parts(notebook: Notebook) -> None:
    cell_game = notebook.page.locator(".mw-root").nth(1)
    expect(cell_game.locator('[data-pile^="c"]')).to_have_count(4)
    expect(cell_game.locator('[data-pile="reserve"]')).to_have_count(0)
    fresh_game(notebook, rules="little-milligan")
    expect(notebook.widget.locator('[data-pile^="t"]')).to_have_count(7)
    expect(notebook.widget.locator('[data-pile^="f"]')).to_have_count(4)
    expect(notebook.widget.locator('[data-pile="reserve"]')).to_have_count(0)
    expect(notebook.stat("foundations")).to_have_text("0/52")
    fresh_game(notebook, rules="millie")
    expect(notebook.widget.locator('[data-pile="reserve"]')).to_have_count(0)
    fresh_game(notebook)
    expect(notebook.widget.locator('[data-pile^="t"]')).to_have_count(8)


def test_rules_panel_explains_the_active_variant(notebook: Notebook) -> None:
    fresh_game(notebook, rules="millie")
    notebook.widget.locator('button[data-action="rules"]').click()
    panel = notebook.widget.locator(".mw-rules")
    expect(panel).to_be_visible()
    for line in notebook.kernel.eval("widget.game.rules.describe()"):
        expect(panel).to_contain_text(line)
    notebook.widget.locator('button[data-action="rules"]').click()
    expect(panel).to_be_hidden()
    fresh_game(notebook)


# ------------------------------------------------------------------ the mouse
def test_drag_to_a_legal_place_plays_the_move_in_python(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    target = notebook.pile(move["target"])
    card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    sent, received = len(notebook.sent), len(notebook.received)
    drag(notebook.page, card, target)
    expect(target.locator(f'[data-card="{move["card"]}"]')).to_have_count(1)
    expect(notebook.stat("moves")).to_have_text("1")
    assert len(history(notebook)) == 1
    assert notebook.kernel.eval("widget.game.history[0].source") == move["source"]
    top = notebook.kernel.eval(f"str(widget.game.tableau[{int(move['target'][1:]) - 1}][-1])")
    assert top == move["card"]
    expect(notebook.message()).not_to_have_attribute("data-kind", "error")
    assert len(notebook.comm_frames(notebook.sent, sent)) == 1, "one message per drop"
    assert len(notebook.comm_frames(notebook.received, received)) == 1, "one update back"


def test_illegal_drop_springs_back_with_the_reason(notebook: Notebook) -> None:
    fresh_game(notebook)
    before = columns(notebook)
    source, target = find_illegal_pair(notebook)
    reason = notebook.kernel.eval(f"widget.game.explain(Move({source!r}, {target!r}))")
    card = notebook.pile(source).locator("[data-card]").last
    drag(notebook.page, card, notebook.pile(target))
    expect(notebook.message()).to_have_text(sentence(reason))
    expect(notebook.message()).to_have_attribute("data-kind", "error")
    expect(notebook.page.locator(".mw-ghost")).to_have_count(0)
    expect(card).to_be_visible()
    assert columns(notebook) == before and history(notebook) == []
    expect(notebook.stat("moves")).to_have_text("0")


def test_clicking_the_stock_deals_a_row(notebook: Notebook) -> None:
    fresh_game(notebook)
    notebook.pile("stock").click()
    expect(notebook.stat("stock")).to_have_text("88")
    expect(notebook.stat("tableau")).to_have_text("16")
    expect(notebook.stat("moves")).to_have_text("1")
    assert notebook.kernel.eval("widget.game.stock_count") == 88
    for i in range(1, 9):
        expect(notebook.pile(f"t{i}").locator("[data-card]")).to_have_count(2)


def test_click_card_then_destination(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    card = notebook.pile(move["source"]).locator(f'[data-card="{move["card"]}"]').last
    card.click()
    expect(card).to_have_class(re.compile("mw-selected"))
    expect(notebook.pile(move["target"])).to_have_class(re.compile("mw-legal"))
    notebook.pile(move["target"]).click()
    expect(notebook.pile(move["target"]).locator(f'[data-card="{move["card"]}"]')).to_have_count(1)
    assert len(history(notebook)) == 1
    notebook.page.keyboard.press("u")  # the click left the keyboard with the game
    expect(notebook.stat("moves")).to_have_text("0")


def test_double_click_sends_a_card_to_its_foundation(notebook: Notebook) -> None:
    for seed in range(1, 300):
        fresh_game(notebook, seed)
        aces = notebook.kernel.eval(
            "[m.source for m in widget.game.legal_moves if (m.target or '').startswith('f')]"
        )
        if aces:
            break
    card = notebook.pile(aces[0]).locator("[data-card]").last
    code = card.get_attribute("data-card")
    card.dblclick()
    expect(notebook.stat("foundations")).to_have_text("1/104")
    expect(notebook.widget.locator(f'.mw-found [data-card="{code}"]')).to_have_count(1)
    assert notebook.kernel.eval("sum(len(f) for f in widget.game.foundations)") == 1


def test_keyboard_deal_undo_redo_and_pick_up(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    cells = notebook.page.locator(".jp-Notebook .jp-Cell").count()
    notebook.pile("stock").focus()
    for key, stock in [("d", "88"), ("u", "96"), ("y", "88"), ("z", "96")]:
        notebook.page.keyboard.press(key)
        expect(notebook.stat("stock")).to_have_text(stock)
    for key in ["b", "x"]:  # JupyterLab command keys (add, cut a cell) must not fire
        notebook.page.keyboard.press(key)
    expect(notebook.page.locator(".jp-Notebook .jp-Cell")).to_have_count(cells)
    notebook.pile(move["source"]).locator("[data-card]").last.focus()
    notebook.page.keyboard.press("Enter")
    expect(notebook.pile(move["target"])).to_have_class(re.compile("mw-legal"))
    notebook.page.keyboard.press("Escape")
    expect(notebook.pile(move["target"])).not_to_have_class(re.compile("mw-legal"))
    notebook.page.keyboard.press("Enter")
    notebook.pile(move["target"]).focus()
    notebook.page.keyboard.press("Enter")
    expect(notebook.stat("moves")).to_have_text("1")
    assert len(history(notebook)) == 1


def test_hint_highlights_and_explains(notebook: Notebook) -> None:
    fresh_game(notebook)
    notebook.kernel.run("widget.hint_time = 0")  # the greedy heuristic alone
    try:
        notebook.widget.locator('button[data-action="hint"]').click()
        expect(notebook.message()).to_have_attribute("data-kind", "hint")
        notebook.kernel.run("from milligan_widget import strategy")
        why = notebook.kernel.eval("strategy.hint(widget.game)[1]")
        expect(notebook.message()).to_contain_text(why)
        expect(notebook.message()).to_contain_text("Heuristic: ")
        expect(notebook.widget.locator(".mw-hint-target")).not_to_have_count(0)
        assert history(notebook) == []
    finally:
        notebook.kernel.run("widget.hint_time = 2.0")


def test_the_peek_toggle_changes_what_hint_says(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8)
    notebook.kernel.run("widget.hint_time = 10")  # a margin on a loaded machine (~1 s quiet)
    hint = notebook.widget.locator('button[data-action="hint"]')
    hint.click()  # fair play, the default: the honest hint
    expect(notebook.message()).to_have_attribute("data-kind", "hint", timeout=20_000)
    expect(notebook.message()).to_contain_text("Honest hint: ")
    expect(notebook.message()).to_contain_text("looking only at what you can see")
    expect(notebook.message()).not_to_contain_text("knows the stock")
    assert notebook.kernel.eval("widget.wait(30)") is True
    notebook.widget.locator('button[data-action="more"]').click()
    peek = notebook.widget.locator('.mw-menu input[data-role="peek"]')
    expect(peek).not_to_be_checked()
    peek.check()
    try:
        expect(notebook.message()).to_contain_text("Peek is on")
        assert notebook.kernel.eval("widget.peek") is True
        notebook.page.keyboard.press("Escape")
        hint.click()
        expect(notebook.message()).to_contain_text("Solver: ", timeout=20_000)
        expect(notebook.message()).to_contain_text("the solver, which knows the stock, sees a win")
        expect(notebook.widget.locator(".mw-hint, .mw-hint-target")).not_to_have_count(0)
        assert history(notebook) == []
        assert notebook.kernel.eval("widget.wait(30)") is True
    finally:
        notebook.kernel.run("widget.peek = False; widget.hint_time = 2.0")
    expect(peek).not_to_be_checked()


def test_the_winnable_indicator_and_the_solution_with_stop(notebook: Notebook) -> None:
    fresh_game(notebook, seed=8)
    notebook.kernel.run("widget.peek = True")  # the solver's verdict
    notebook.kernel.run("widget.winnable_time = 10")  # a margin on a loaded machine
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    verdict = notebook.widget.locator(".mw-verdict")
    box.check()
    try:
        expect(verdict).to_be_visible()
        expect(verdict).to_have_text("winnable ✓", timeout=20_000)
        assert notebook.kernel.eval("widget.check_winnable") is True
        notebook.screenshot("widget-winnable.png")
        # Show the solution, then stop it with the button.
        notebook.widget.locator('button[data-action="solution"]').click()
        stop = notebook.widget.locator('button[data-action="stop"]')
        expect(stop).to_be_enabled(timeout=20_000)
        expect(notebook.message()).to_contain_text("Solution 3/", timeout=20_000)
        stop.click()
        expect(notebook.message()).to_contain_text("Solution stopped after")
        expect(stop).to_be_disabled()
        played = len(history(notebook))
        assert played >= 3
        expect(verdict).to_have_text(re.compile("winnable ✓|checking…"))
        notebook.page.wait_for_timeout(800)
        assert len(history(notebook)) == played
        expect(verdict).to_have_text("winnable ✓", timeout=20_000)  # the solver's own line
    finally:
        box.uncheck()
        expect(verdict).to_be_hidden()
        notebook.kernel.run("widget.stop()\nassert widget.wait(30)")  # no solver left running
        notebook.kernel.run("widget.winnable_time = 3.0; widget.peek = False")


# ------------------------------------------------------------------ Python drives the layout
def test_python_play_undo_and_replay_show_in_the_layout(notebook: Notebook) -> None:
    move = find_tableau_move(notebook)
    moved = notebook.pile(move["target"]).locator(f'[data-card="{move["card"]}"]')
    notebook.kernel.run(f"widget.play(Move({move['source']!r}, {move['target']!r}))")
    expect(moved).to_have_count(1)
    expect(notebook.stat("moves")).to_have_text("1")
    notebook.kernel.run("widget.undo()")
    expect(moved).to_have_count(0)
    expect(notebook.stat("moves")).to_have_text("0")
    notebook.kernel.run("widget.replay(['d', 'd', 'd'], delay=0.05)")
    expect(notebook.stat("stock")).to_have_text("72")
    expect(notebook.stat("moves")).to_have_text("3")
    notebook.kernel.run("widget.goto(1)")
    expect(notebook.stat("stock")).to_have_text("88")
    reason = notebook.kernel.run(
        "try:\n    widget.play('1>1')\nexcept ValueError as error:\n    print(error)"
    ).strip()
    expect(notebook.message()).to_have_text(sentence(reason))
    expect(notebook.message()).to_have_attribute("data-kind", "error")


# ------------------------------------------------------------------ themes and screenshots
def _mid_game(nb: Notebook) -> None:
    nb.kernel.run(
        "from milligan_widget import strategy\n"
        "widget.new_game(seed=7)\n"
        "for _ in range(60):\n"
        "    found = strategy.hint(widget.game)\n"
        "    if found is None:\n"
        "        break\n"
        "    widget.play(found[0])\n"
    )


def test_light_and_dark_theme_screenshots(notebook: Notebook) -> None:
    _mid_game(notebook)
    set_theme(notebook, "JupyterLab Light")
    light_bg = notebook.widget.evaluate("el => getComputedStyle(el).backgroundColor")
    notebook.screenshot("widget-light.png")
    set_theme(notebook, "JupyterLab Dark")
    expect(notebook.widget).not_to_have_css("background-color", light_bg)
    notebook.screenshot("widget-dark.png")
    set_theme(notebook, "JupyterLab Light")


LOST = """
from milligan_widget import Game
_ranks = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
_columns = [["AC", "2C"], ["AC", "2C"], *[[]] * 5, [f"{r}C" for r in _ranks for _ in range(2)]]
_found = [None, None, "KS", "KS", "KH", "KH", "KD", "KD"]
widget.game = Game.from_layout(_columns, _found, rules="millie")
"""


def test_a_lost_game_says_so_and_offers_a_way_on(notebook: Notebook) -> None:
    notebook.kernel.run(LOST)
    banner = notebook.widget.locator(".mw-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No useful move is left.")
    for action in ("undo", "restart", "new"):
        expect(banner.locator(f'button[data-action="{action}"]')).to_have_count(1)
    expect(notebook.message()).to_have_attribute("data-kind", "lost")
    notebook.screenshot("widget-lost.png")
    banner.locator('button[data-action="new"]').click()
    expect(banner).to_be_hidden()
    expect(notebook.widget).to_have_attribute("data-variant", "millie")
    fresh_game(notebook)


TRAPPED = """
from milligan_widget import Game
_columns = [["JC", "QC"], ["JC", "QC"], *[[]] * 5, ["KC", "KC"]]
_found = ["10C", "10C", "KS", "KS", "KH", "KH", "KD", "KD"]
widget.game = Game.from_layout(_columns, _found, rules="millie")
"""


def test_the_indicator_names_the_card_trapped_for_good(notebook: Notebook) -> None:
    notebook.kernel.run(TRAPPED)
    notebook.kernel.run("widget.peek = True")  # the solver's verdict names the trapped card
    assert notebook.kernel.eval("widget.game.status") == "playing"  # moves are left
    box = notebook.widget.locator("label.mw-check", has_text="Winnable?").locator("input")
    verdict = notebook.widget.locator(".mw-verdict")
    box.check()
    try:
        expect(verdict).to_have_text("lost for good ✗", timeout=20_000)
        expect(verdict).to_have_attribute("title", "Q♣ in column 1 can never move or go home")
        notebook.screenshot("widget-trapped.png")
    finally:
        box.uncheck()
        expect(verdict).to_be_hidden()
        notebook.kernel.run("widget.peek = False")
        fresh_game(notebook)


def test_reduced_motion_plays_without_animation(notebook: Notebook) -> None:
    fresh_game(notebook)
    notebook.page.emulate_media(reduced_motion="reduce")
    try:
        notebook.pile("stock").click()
        expect(notebook.stat("stock")).to_have_text("88")
        notebook.page.wait_for_timeout(50)  # past the frame where a slide would start
        running = notebook.widget.evaluate("el => el.getAnimations({subtree: true}).length")
        assert running == 0
    finally:
        notebook.page.emulate_media(reduced_motion="no-preference")


def test_no_errors_in_the_browser_console(notebook: Notebook) -> None:
    ours = [e for e in notebook.errors if re.search("mw-|milligan|widget|state", e, re.I)]
    assert ours == []


# ------------------------------------------------------------------ learn-the-rules.ipynb
REPLAY_GAME = """
from milligan_widget import Game
_game = Game.new(8)
for _move in {moves!r}:
    _game.play(_move)
_game.set_comment("The A♥ goes home at once: Aces never need to wait.", 2)
_game.set_comment("Column 1 is empty: only a King may fill it.", 8)
_game.set_comment("Nothing useful is left: deal the next row.", 10)
mistakes.show_replay(_game.to_json())
mistakes.step_to(9)
"""


def test_learn_the_rules_notebook_a_lesson_step_by_drag(lab: LabServer, browser: Any) -> None:
    """The tutorial notebook runs in JupyterLab; the first step is done with the real mouse."""
    lab.add_notebook(REPO / "examples" / "learn-the-rules.ipynb")
    context = browser.new_context(viewport={"width": 1280, "height": 1500})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_notebook(page, lab, "learn-the-rules.ipynb", widgets=4)
    kernel = Kernel(lab.kernel_connection_file("learn-the-rules.ipynb"))
    try:
        nb = Notebook(page, kernel, lab, errors, [], [])
        panel = nb.widget.locator(".mw-lesson")
        feedback = panel.locator('[data-role="feedback"]')
        next_button = panel.locator('button[data-lesson="next"]')
        expect(nb.widget).to_have_attribute("data-mode", "lesson")
        expect(panel.locator(".mw-lesson-title")).to_have_text("The deal")
        expect(panel.locator(".mw-lesson-count")).to_contain_text("Step 1 of 16")
        expect(next_button).to_be_disabled()
        assert kernel.eval("widget.lesson_run.index") == 0

        # Wrong first: the 2♣ before the A♣ springs back, with the engine's reason.
        reason = kernel.eval("widget.game.explain('2>f1')")
        drag(nb.page, nb.pile("t2").locator('[data-card="2C"]'), nb.pile("f1"))
        expect(feedback).to_have_attribute("data-kind", "illegal")
        expect(feedback).to_have_text(sentence(reason))
        expect(page.locator(".mw-ghost")).to_have_count(0)
        expect(nb.pile("t2").locator('[data-card="2C"]')).to_be_visible()
        assert kernel.eval("widget.lesson_run.moves_done") == 0
        screenshot(page, nb.widget, "lesson-refused.png")

        # Then the task, by real drags: the A♣ home, then the 2♣ on it.
        drag(nb.page, nb.pile("t1").locator('[data-card="AC"]'), nb.pile("f1"))
        expect(feedback).to_have_attribute("data-kind", "correct")
        expect(nb.pile("f1").locator('[data-card="AC"]')).to_have_count(1)
        drag(nb.page, nb.pile("t2").locator('[data-card="2C"]'), nb.pile("f1"))
        expect(feedback).to_have_attribute("data-kind", "done")
        expect(next_button).to_be_enabled()
        assert kernel.eval("widget.lesson_run.step_done") is True
        assert kernel.eval("widget.lesson_run.summary()['completed']") == [0]
        assert kernel.eval("[str(m) for m in widget.game.history]") == ["1>f1", "2>f1"]

        set_theme(nb, "JupyterLab Light")
        screenshot(page, nb.widget, "lesson-light.png")
        set_theme(nb, "JupyterLab Dark")
        screenshot(page, nb.widget, "lesson-dark.png")

        # The lesson has its own Hint, Undo and Restart: the toolbar does not repeat them.
        for action in ("hint", "undo", "restart", "deal"):
            expect(nb.widget.locator(f'.mw-toolbar [data-action="{action}"]')).to_be_hidden()
        # A click on the progress bar goes to that step.
        panel.locator('button[data-step="3"]').click()
        expect(panel.locator(".mw-lesson-count")).to_contain_text("Step 4 of 16")
        title = kernel.eval("widget.lesson_run.lesson.steps[3].title")
        expect(panel.locator(".mw-lesson-title")).to_have_text(title)
        assert kernel.eval("widget.lesson_run.index") == 3

        # The replay viewer, in the second widget: stepped by its buttons and a key.
        viewer = page.locator(".mw-root").nth(1)
        kernel.run(REPLAY_GAME.format(moves=WIN_8.split()[:10]))
        expect(viewer).to_have_attribute("data-mode", "replay")
        counter = viewer.locator(".mw-replay-count")
        expect(counter).to_have_text("Move 9 of 10")
        viewer.locator('.mw-replay button[data-replay="forward"]').click()
        expect(counter).to_have_text("Move 10 of 10")
        assert kernel.eval("len(mistakes.game.history)") == 10
        viewer.locator('.mw-replay button[data-replay="back"]').click()
        viewer.locator('.mw-replay button[data-replay="back"]').click()
        expect(counter).to_have_text("Move 8 of 10")
        expect(viewer.locator(".mw-move.mw-current")).to_contain_text("only a King may fill it")
        assert kernel.eval("len(mistakes.game.history)") == 8
        assert kernel.eval("mistakes.game.comments[8]").startswith("Column 1 is empty")
        # The cards of a replay do not move: a press on one says why.
        viewer.locator('[data-pile="t2"] [data-card]').last.click()
        expect(viewer.locator('[data-role="message"]')).to_have_text(
            kernel.eval("mistakes.panel['refusal']")
        )
        assert kernel.eval("len(mistakes.game.history)") == 8
        screenshot(page, viewer, "replay-dark.png")
        # No key pressed on the lesson's or the replay's controls reaches the notebook.
        from .test_play import _press_notebook_keys

        lesson_hint = panel.locator('button[data-lesson="hint"]')
        _press_notebook_keys(nb, lambda: lesson_hint.focus(), "the lesson's Hint button")
        segment = panel.locator('button[data-step="5"]')
        _press_notebook_keys(nb, lambda: segment.focus(), "a step of the lesson's progress bar")
        forward = viewer.locator('.mw-replay button[data-replay="forward"]')
        _press_notebook_keys(nb, lambda: forward.focus(), "the replay's Next button")
        slider = viewer.locator(".mw-replay .mw-slider")
        _press_notebook_keys(nb, lambda: slider.focus(), "the replay's slider")
        assert kernel.eval("len(mistakes.game.history)") == 8
        set_theme(nb, "JupyterLab Light")
        screenshot(page, viewer, "replay-light.png")
        assert [e for e in errors if re.search("mw-|milligan|widget", e, re.I)] == []
    finally:
        kernel.close()
        context.close()
