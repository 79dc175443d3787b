"""Every hand, in real JupyterLab: the arrow keys in two dimensions (Left and Right from pile
to pile, Up and Down along a run and on to the row above or below), a pick-up said to a screen
reader and marked pressed, Esc said too, and a whole game won by the keyboard alone (no mouse
event reaches the widget; Python's game is checked after each move)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from milligan_widget.teaching.lessons import stage

from .conftest import Notebook
from .gestures import focused
from .test_browser import fresh_game, history, set_theme

# A late position (stock empty, reserve open) the solver wins in 18 moves: a run of two moved
# onto a King, a card set aside in the reserve and played home from it, foundations of every
# suit. Staged from the cards that matter (lessons.stage fills the foundations).
COLUMNS = {
    1: "9S QH JC", 2: "KS", 3: "10D 8S", 4: "JD", 5: "9D JS", 6: "QC", 7: "KH",
    8: "KD KC QD QS 10S",
}  # fmt: skip
LINE = "1>2 5>r 3>f 1>f 5>f 3>f 2>f 8>f 4>f 6>f r>f 2>f 8>f 7>f 8>f 2>f 8>f 8>f"
STAGE = (
    "from milligan_widget.teaching.lessons import stage as _stage\n"
    f"widget.game = _stage({COLUMNS!r}, rest_in_stock=False)"
)
# What one move of LINE asks of the player: the card to pick up, the pile to drop it on.
PLAN = """
from milligan_widget import Move as _Move
from milligan_widget.widget import view as _views

def _plan(text):
    move = _Move.parse(text)
    count = _views.move_count(widget.game, move)
    view = widget.view
    source = move.source
    cards = view["reserve"] if source == "reserve" else view["columns"][int(source[1:]) - 1]
    target = (_views.resolve_targets(widget.game, move) or [move.target])[0]
    return {"source": move.source, "count": count, "card": cards[-count], "target": target}
"""
# Counts every pointer and mouse event that reaches the widget (the keyboard game has none).
COUNT_POINTER = """root => { root.__pointer = 0;
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'click', 'dblclick'])
    root.addEventListener(type, () => root.__pointer++, true); }"""
ROWS = """root => [...root.querySelectorAll('.mw-board > .mw-row')]
  .map(row => [...row.querySelectorAll(':scope > [data-pile]')].map(p => p.dataset.pile))"""
NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card_name(code: str) -> str:
    return f"{RANKS.get(code[:-1], code[:-1])} of {NAMES[code[-1]]}"


def pile_name(pile: str) -> str:
    """A pile as the words say it: "column 2", "foundation 7", "reserve"."""
    kinds = {"t": "column", "f": "foundation"}
    return f"{kinds[pile[0]]} {pile[1:]}" if pile[0] in kinds and pile[1:].isdigit() else pile


class Keys:
    """The player's hands on the keyboard: presses keys and reads where the focus went."""

    def __init__(self, nb: Notebook) -> None:
        self.nb = nb
        self.rows: list[list[str]] = nb.widget.evaluate(ROWS)
        self.presses = 0

    def press(self, key: str) -> None:
        self.nb.page.keyboard.press(key)
        self.presses += 1

    def at(self) -> dict[str, Any] | None:
        return focused(self.nb.widget)

    def row(self, pile: str) -> int:
        return next(i for i, row in enumerate(self.rows) if pile in row)

    def go(self, pile: str, card: str | None = None) -> None:
        """Bring the focus to ``pile`` (its ``card``) with the arrow keys alone: Up or Down
        to its row, Left or Right along it, Up into the run."""
        for _ in range(30):
            now = self.at()
            if now is None or now["pile"] is None:
                self.press("ArrowRight")
            elif now["pile"] != pile:
                here, there = self.row(now["pile"]), self.row(pile)
                if here != there:
                    self.press("ArrowDown" if there > here else "ArrowUp")
                else:
                    row = self.rows[here]
                    right = row.index(pile) > row.index(now["pile"])
                    self.press("ArrowRight" if right else "ArrowLeft")
            elif card is not None and now["card"] != card:
                self.press("ArrowUp")
            else:
                return
        raise AssertionError(f"30 presses did not reach {pile} {card or ''}: at {self.at()}")


def announced(nb: Notebook) -> Any:
    return nb.widget.locator('[data-role="announce"]')


def test_up_and_down_cross_the_rows_and_walk_a_run(notebook: Notebook) -> None:
    nb = notebook
    nb.kernel.run(STAGE)
    expect(nb.stat("foundations")).to_have_text("88/104")
    keys = Keys(nb)
    nb.pile("stock").focus()

    def walk(*presses: str) -> list[tuple[str, str | None]]:
        seen = []
        for key in presses:
            keys.press(key)
            now = keys.at()
            seen.append((now["pile"], now["card"]))
        return seen

    # The stock to column 8 in two keys (the row above the stock's is the columns', round the
    # board), and back along the rows: columns, the stock's row, foundations, columns.
    assert walk("ArrowUp", "End") == [("t1", "JC"), ("t8", "10S")]
    assert walk("Home", "ArrowDown", "ArrowDown", "ArrowDown") == [
        ("t1", "JC"), ("stock", None), ("f1", "KC"), ("t1", "JC"),
    ]  # fmt: skip
    # Up walks column 1's run (Q♥ J♣) from its top card down, then goes to the row above.
    assert walk("ArrowUp", "ArrowUp", "ArrowUp") == [("t1", "QH"), ("f1", "KC"), ("stock", None)]
    # Down from inside the run comes back up it to the top card first.
    nb.pile("t1").locator('[data-card="QH"]').focus()
    assert walk("ArrowDown", "ArrowDown") == [("t1", "JC"), ("stock", None)]
    assert walk("ArrowRight", "ArrowLeft") == [("reserve", None), ("stock", None)]  # as before


def test_a_pick_up_is_said_and_marked_and_so_is_putting_it_back(notebook: Notebook) -> None:
    nb = notebook
    nb.kernel.run(STAGE)
    expect(nb.stat("foundations")).to_have_text("88/104")
    keys = Keys(nb)
    nb.pile("t1").locator('[data-card="JC"]').focus()
    keys.press("ArrowUp")  # Q♥, with J♣ on it
    queen = nb.pile("t1").locator('[data-card="QH"]')
    expect(queen).to_be_focused()
    expect(queen).to_have_attribute("aria-label", "Queen of hearts, column 1, movable")
    expect(queen).to_have_attribute("role", "button")
    expect(queen).to_have_attribute("aria-pressed", "false")
    expect(nb.pile("t1").locator('[data-card="9S"]')).to_have_attribute(
        "aria-label", "9 of spades, column 1, covered"
    )
    keys.press("Enter")
    expect(announced(nb)).to_have_text(
        "Picked up the Queen of hearts and the card on it from column 1: it can go to "
        "column 2 or the reserve. Enter to drop, Escape to cancel."
    )
    for code in ("QH", "JC"):
        held = nb.pile("t1").locator(f'[data-card="{code}"]')
        expect(held).to_have_attribute("aria-pressed", "true")
    expect(nb.pile("t1").locator('[data-card="9S"]')).not_to_have_attribute("aria-pressed", "true")
    nb.screenshot("keyboard-picked-up.png")
    keys.press("Escape")
    expect(announced(nb)).to_have_text("Put back the Queen of hearts and the card on it.")
    expect(nb.widget.locator('[aria-pressed="true"]')).to_have_count(0)
    assert history(nb) == []
    # Picked up and dropped with keys: the move is said, and the focus went with the cards.
    keys.press("Enter")
    keys.go("t2")
    keys.press("Enter")
    expect(nb.stat("moves")).to_have_text("1")
    expect(announced(nb)).to_have_text("Moved the Queen of hearts and the card on it to column 2.")
    expect(nb.pile("t2").locator('[data-card="QH"]')).to_be_focused()
    assert history(nb) == ["1>2"]


def test_a_whole_game_won_by_the_keyboard_alone(notebook: Notebook) -> None:
    """The staged late game, from its first move to the celebration, every move by keys
    (arrows to the card, Enter, arrows to the pile the pick-up named, Enter); Python's game is
    the reference's after each move, and no pointer event ever reached the widget."""
    nb = notebook
    fresh_game(nb)
    nb.kernel.run(STAGE)
    nb.kernel.run(PLAN)
    expect(nb.stat("foundations")).to_have_text("88/104")
    reference = stage(COLUMNS, rest_in_stock=False)
    nb.widget.evaluate(COUNT_POINTER)
    keys = Keys(nb)
    nb.widget.focus()  # as Tab would bring it: the game, nothing in it yet
    for turn, text in enumerate(LINE.split()):
        plan = nb.kernel.eval(f"_plan({text!r})")
        keys.go(plan["source"], plan["card"])
        keys.press("Enter")
        expect(announced(nb)).to_contain_text(f"Picked up the {card_name(plan['card'])}")
        said = announced(nb).text_content() or ""
        where = pile_name(plan["target"])
        assert where in said, f"move {turn + 1} ({text}): {where} is not named in {said!r}"
        keys.go(plan["target"])
        keys.press("Enter")
        expect(nb.stat("moves")).to_have_text(str(turn + 1))
        reference.play(text)
        assert nb.kernel.eval("str(widget.game)") == str(reference), f"move {turn + 1}, {text}"
    banner = nb.widget.locator(".mw-banner")
    expect(banner).to_contain_text("You won!")
    assert nb.kernel.eval("widget.game.status") == "won"
    assert nb.widget.evaluate("root => root.__pointer") == 0, "a pointer event reached the game"
    moves = len(LINE.split())
    print(f"{moves} moves in {keys.presses} key presses")
    assert keys.presses <= 12 * moves
    nb.screenshot("won-by-keyboard.png")
    set_theme(nb, "JupyterLab Dark")
    try:
        nb.screenshot("won-by-keyboard-dark.png")
    finally:
        set_theme(nb, "JupyterLab Light")
        fresh_game(nb)
