"""How a game looks: str(game), the static HTML picture, and moves described in words."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest

from milligan_widget import PRESETS, Card, Game, IllegalMoveError
from milligan_widget.strategy import greedy, play_game

RANKS = ["A", *map(str, range(2, 11)), "J", "Q", "K"]

# ----------------------------------------------------------------------------- helpers


def deck_with(placed: dict[int, str], rules: str = "classic") -> list[str]:
    """A full dealing order with ``placed[i]`` at position ``i``; the rest filled in.

    Position ``row * columns + column`` (0-based) is the card dealt to that column in that
    row (row 0 is the opening row).
    """
    decks = PRESETS[rules].decks
    rest = Counter(f"{r}{s}" for r in RANKS for s in "CSHD" for _ in range(decks))
    rest.subtract(Counter(placed.values()))
    assert all(n >= 0 for n in rest.values()), "more copies placed than the deck holds"
    filler = sorted(rest.elements(), key=lambda c: Card.parse(c).code)
    return [placed[i] if i in placed else filler.pop() for i in range(52 * decks)]


def opening(row: str, rules: str = "classic") -> Game:
    """A game whose opening row is ``row`` (cards separated by spaces)."""
    return Game.from_deck(deck_with(dict(enumerate(row.split())), rules), rules)


def weaving_game(rules: str = "classic") -> Game:
    """Stock dealt out; column 1 ends 3♦ 5♦ 4♣, column 2 A♣, column 3 6♠, column 4 5♥."""
    placed = {80: "3D", 88: "5D", 96: "4C", 97: "AC", 98: "6S", 99: "5H"}
    game = Game.from_deck(deck_with(placed, rules), rules)
    while game.can_deal:
        game.deal()
    assert [str(c) for c in game.tableau[0][-3:]] == ["3D", "5D", "4C"]
    return game


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None]):
        self.tag, self.attrs, self.children, self.text = tag, attrs, [], ""

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def all_text(self) -> str:
        return self.text + "".join(child.all_text() for child in self.children)


VOID = {"br", "img", "hr", "meta", "input", "link", "col", "area", "source", "wbr"}


class TreeBuilder(HTMLParser):
    """A strict little parser: every element must be closed, in order."""

    def __init__(self):
        super().__init__()
        self.root = Element("root", {})
        self.stack = [self.root]
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.tags.append(tag)
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].text += data


def parse_html(html: str) -> Element:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], "unclosed elements"
    return builder.root


def columns_in(root: Element) -> list[Element]:
    """The tableau columns of the picture: the elements in the last row of the board."""
    rows = [e for e in root.walk() if "mm-row" in e.classes]
    return rows[-1].children


def text_columns(game: Game) -> list[list[str]]:
    """Read the columns back out of str(game): the cards printed under each column number."""
    lines = str(game).splitlines()
    numbers = "".join(str(i + 1).rjust(4) for i in range(len(game.tableau)))
    header = next(i for i, line in enumerate(lines) if line.rstrip() == numbers.rstrip())
    ends = [numbers.index(str(i + 1)) + len(str(i + 1)) for i in range(len(game.tableau))]
    width = ends[1] - ends[0]
    columns: list[list[str]] = [[] for _ in ends]
    for line in lines[header + 1 :]:
        for i, end in enumerate(ends):
            cell = line[max(0, end - width) : end].strip()
            if cell and cell != "·":
                columns[i].append(cell)
    return columns


# ----------------------------------------------------------------------------- text


def test_text_header_line():
    game = Game.new(1)
    header = str(game).splitlines()[0]
    for part in ("Miss Milligan", "classic", "deal 1", "move 0", "stock 96", "0/104", "playing"):
        assert part in header, (part, header)
    game.deal()
    game.deal()
    game.play("3>5")
    game.play("3>f")  # A♠ home
    header = str(game).splitlines()[0]
    for part in ("deal 1", "move 4", "stock 80", "1/104", "playing"):
        assert part in header, (part, header)


def test_text_header_names_variant_and_custom_deck():
    game = opening("KS QH JS 10H 9S 8H 7S 6H", "little-milligan")
    header = str(game).splitlines()[0]
    assert "little-milligan" in header and "custom deck" in header and "/52" in header
    assert "stock 45" in header


@pytest.mark.parametrize("seed", [1, 2, 77777])
def test_text_shows_every_column_in_unicode(seed):
    game = play_game(Game.new(seed), greedy, max_moves=40)
    expected = [[c.unicode for c in col] for col in game.tableau]
    assert any(len(col) > 3 for col in expected)
    assert text_columns(game) == expected


def test_text_opening_row_of_deal_1():
    """PySolFC deal 1 opens 3♦ 5♥ J♣ K♥ 5♠ 5♥ K♣ K♣."""
    assert text_columns(Game.new(1)) == [
        ["3♦"],
        ["5♥"],
        ["J♣"],
        ["K♥"],
        ["5♠"],
        ["5♥"],
        ["K♣"],
        ["K♣"],
    ]


def test_text_shows_ten_as_10():
    game = opening("10H 9S 10D 10C 10S AH AD AC")
    assert text_columns(game)[:4] == [["10♥"], ["9♠"], ["10♦"], ["10♣"]]
    assert "T" not in "".join(str(game).splitlines()[1:])


def test_text_foundations_line():
    game = opening("AH AH 2H AC 5S 6S 7S 8S")
    game.play("1>f")
    game.play("3>f")
    game.play("2>f")
    game.play("4>f")
    line = next(li for li in str(game).splitlines() if li.startswith("Foundations"))
    assert line.count("2♥") == 1 and line.count("A♥") == 1 and line.count("A♣") == 1
    # Piles in order: clubs, clubs, spades, spades, hearts, hearts, diamonds, diamonds.
    assert line.index("A♣") < line.index("2♥") < line.index("A♥")
    assert line.count("♠") == 2 and line.count("♦") == 2  # the empty piles' suit marks


def test_text_reserve_and_cells_lines():
    assert "Reserve" not in str(Game.new(3, "millie"))
    assert "Cells" not in str(Game.new(3, "classic"))
    game = weaving_game()
    game.play("1:2>r")
    reserve = next(li for li in str(game).splitlines() if li.startswith("Reserve"))
    assert "5♦ 4♣" in reserve
    assert "Reserve" in str(Game.new(3, "classic"))

    cells = opening("8D 7S 6H 9S AH KS 2C AH", "milligan-cell")
    cells.play("1>c")
    cells.play("7>c")
    line = next(li for li in str(cells).splitlines() if li.startswith("Cells"))
    assert "8♦" in line and "2♣" in line
    assert text_columns(cells)[0] == [] and text_columns(cells)[6] == []


def test_text_says_when_the_reserve_opens():
    game = Game.new(9)
    line = next(li for li in str(game).splitlines() if li.startswith("Reserve"))
    assert "closed" in line
    while game.can_deal:
        game.deal()
    line = next(li for li in str(game).splitlines() if li.startswith("Reserve"))
    assert "closed" not in line and "open" in line


def test_text_shows_status_when_lost():
    game = play_game(Game.new(1), greedy)
    assert game.status == "lost"
    assert str(game).splitlines()[0].endswith("lost")


# ----------------------------------------------------------------------------- HTML


@pytest.mark.parametrize("preset", list(PRESETS))
def test_html_is_static_and_well_formed(preset):
    game = play_game(Game.new(11, preset), greedy, max_moves=60)
    html = game._repr_html_()
    assert isinstance(html, str) and html
    lowered = html.lower()
    assert "<script" not in lowered and "javascript:" not in lowered
    root = parse_html(html)
    for element in root.walk():
        assert not any(name.startswith("on") for name in element.attrs), element.attrs
    assert not any(e.tag == "script" for e in root.walk())


@pytest.mark.parametrize("preset", list(PRESETS))
def test_html_shows_every_card_of_the_position(preset):
    game = play_game(Game.new(4, preset), greedy, max_moves=50)
    root = parse_html(game._repr_html_())
    shown = Counter(
        e.all_text().strip() for e in root.walk() if e.tag == "div" and "mm-card" in e.classes
    )
    faces = [col[down:] for col, down in zip(game.tableau, game.face_down, strict=True)]
    expected = Counter(c.unicode for col in faces for c in col)
    expected += Counter(c.unicode for c in game.reserve)
    expected += Counter(c.unicode for c in game.cells if c is not None)
    expected += Counter(pile[-1].unicode for pile in game.foundations if pile)
    for card, n in expected.items():
        assert shown[card] >= n, (card, n, shown[card])
    # Each tableau column, in order, bottom to top: a blank back for each face-down card.
    columns = columns_in(root)
    assert len(columns) == game.rules.columns
    for element, col, down in zip(columns, game.tableau, game.face_down, strict=True):
        cards = [e.all_text().strip() for e in element.children if "mm-card" in e.classes]
        assert cards == [""] * down + [c.unicode for c in col[down:]]
        backs = [e for e in element.children if "mm-back" in e.classes]
        assert len(backs) == down
        assert all(e.attrs.get("title") == "face-down card" for e in backs)


def test_html_column_count():
    assert len(columns_in(parse_html(Game.new(5, "little-milligan")._repr_html_()))) == 7
    assert len(columns_in(parse_html(Game.new(5)._repr_html_()))) == 8


def test_html_reserve_only_with_a_reserve():
    for preset, rules in PRESETS.items():
        html = Game.new(6, preset)._repr_html_()
        has_reserve = 'title="reserve"' in html
        assert has_reserve == (rules.reserve != "none"), preset


def test_html_reserve_shows_its_cards():
    game = weaving_game()
    game.play("1:2>r")
    root = parse_html(game._repr_html_())
    reserve = next(e for e in root.walk() if e.attrs.get("title") == "reserve")
    assert [e.all_text().strip() for e in reserve.children] == ["5♦", "4♣"]


def cells_row(game: Game) -> list[Element]:
    """The elements after the stock in the stock's row: the reserve or the free cells."""
    root = parse_html(game._repr_html_())
    row = next(
        e
        for e in root.walk()
        if "mm-row" in e.classes and any(c.attrs.get("title") == "stock" for c in e.children)
    )
    return row.children[1:]


def test_html_four_cells_for_milligan_cell():
    game = opening("8D 7S 6H 9S AH KS 2C AH", "milligan-cell")
    assert len(cells_row(game)) == 4
    game.play("1>c")
    game.play("3>c")
    slots = cells_row(game)
    assert len(slots) == 4
    assert [e.all_text().strip() for e in slots[:2]] == ["8♦", "6♥"]
    assert cells_row(Game.new(6, "millie")) == []


def test_html_escapes_nothing_it_should_not():
    html = Game.new(1)._repr_html_()
    assert "&lt;" not in html and "&amp;amp;" not in html
    assert "10" in Game.from_deck(deck_with({0: "10H"}))._repr_html_()


# ----------------------------------------------------------------------------- describe


def test_describe_column_moves():
    game = opening("8D 7S 6H 9S AH KS 2C AH")
    assert game.describe("2>1") == "7♠ from column 2 onto 8♦ in column 1"
    game.play("2>1")
    game.play("3>1")
    assert game.describe("1>4") == "8♦ 7♠ 6♥ from column 1 onto 9♠ in column 4"
    assert game.describe("1:3>4") == game.describe("1>4")
    assert game.describe("6>2") == "K♠ from column 6 into empty column 2"


def test_describe_changes_nothing():
    game = opening("8D 7S 6H 9S AH KS 2C AH")
    before = game.copy()
    game.describe("2>1")
    game.describe("d")
    assert game == before and game.history == []


def test_describe_foundation_moves():
    game = opening("8D 7S 6H 9S AH KS 2C AH")
    assert game.describe("5>f") == "A♥ from column 5 to the hearts foundation (5)"
    assert game.describe("5>f6") == "A♥ from column 5 to the hearts foundation (6)"
    game.play("5>f")
    # The other A♥ can only start the other hearts pile, number 6.
    assert game.describe("8>f") == "A♥ from column 8 to the hearts foundation (6)"


def test_describe_deals():
    assert Game.new(1).describe("d") == "deal a row of 8 cards"
    little = Game.new(1, "little-milligan")
    assert little.describe("d") == "deal a row of 7 cards"
    for _ in range(6):
        little.deal()
    # 52 = 7 + 6 rows of 7 + a last short row of 3 (docs/rules.md §2.6).
    assert little.stock_count == 3
    assert little.describe("d") == "deal a row of 3 cards"


def test_describe_reserve_moves():
    game = weaving_game()
    assert game.describe("1:2>r") == "set 5♦ 4♣ from column 1 aside into the reserve"
    assert game.describe("2>r") == "set A♣ from column 2 aside into the reserve"
    game.play("1:2>r")
    assert game.describe("r>3") == "5♦ 4♣ from the reserve onto 6♠ in column 3"
    assert game.describe("r>4") == "4♣ from the reserve onto 5♥ in column 4"  # any part

    other = weaving_game()
    other.play("2>r")
    assert other.describe("r>f") == "A♣ from the reserve to the clubs foundation (1)"


def test_describe_foundation_takeback_and_cells():
    easy = opening("8D 7S 6H 9S AH KS 2C AH", "easy")
    easy.play("5>f")
    assert easy.describe("f5>7") == "A♥ back from foundation 5 onto 2♣ in column 7"

    cells = opening("8D 7S 6H 9S AH KS 2C AH", "milligan-cell")
    assert cells.describe("1>c") == "8♦ from column 1 into cell 1"
    cells.play("1>c")
    cells.play("5>c")
    assert cells.describe("c1>4") == "8♦ from cell 1 onto 9♠ in column 4"
    assert cells.describe("c2>f") == "A♥ from cell 2 to the hearts foundation (5)"


@pytest.mark.parametrize("move", ["4>2", "1>f", "1:2>r", "9>1", "c1>2"])
def test_describe_refuses_an_illegal_move(move):
    game = opening("8D 7S 6H 9S AH KS 2C AH")
    with pytest.raises(ValueError):
        game.describe(move)
    if move == "4>2":
        with pytest.raises(IllegalMoveError, match="9♠ cannot go on 7♠"):
            game.describe(move)
