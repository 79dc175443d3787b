"""The offline page of a game (milligan_widget/export.py): what is in it, that every text is
escaped, and that the stock's order never is. tests/browser/test_offline_page.py opens it."""

from __future__ import annotations

import base64
import doctest
import hashlib
import json
import random
import re
from html import unescape

import pytest

from milligan_widget import Game
from milligan_widget.engine.render import html_layout
from milligan_widget.strategy import greedy, play_game

NASTY = "</script><script>alert(1)</script> & <!-- \"quoted\" 'single' \u2028 <b>bold</b>"


def page_data(page: str) -> dict:
    """The viewer's data: the JSON block between its script tags."""
    found = re.search(r'<script type="application/json" id="mm-data">(.*?)</script>', page, re.S)
    assert found, "the page has no data block"
    return json.loads(found.group(1))


def pictures(page: str) -> list[str]:
    data = page_data(page)
    return ["".join(data["pieces"][i] for i in ply) for ply in data["plies"]]


def style_of(picture: str) -> str:
    return re.match(r"<style>.*?</style>", picture, re.S).group(0)


def played(seed: int = 7, moves: int = 30) -> Game:
    return play_game(Game.new(seed), greedy, max_moves=moves)


def random_line(seed: int, moves: int) -> Game:
    """A game of ``moves`` random legal moves (back and forth included): a long line."""
    rng, game = random.Random(seed), Game.new(seed)
    while game.ply < moves:
        game.play(rng.choice(game.legal_moves))
    return game


# ----------------------------------------------------------------------------- content


def test_every_position_is_the_static_picture_of_render():
    game = played()
    expected = [html_layout(game.position_after(ply)) for ply in range(game.ply + 1)]
    style = style_of(expected[0])
    assert pictures(game.to_html()) == [picture.removeprefix(style) for picture in expected]
    assert "deal 7 · move 12 · stock" in pictures(game.to_html())[12]


def test_the_page_opens_on_the_position_the_game_is_in():
    game = played()
    page = game.to_html()
    assert page_data(page)["start"] == game.ply
    board = re.search(r'<div id="mm-board">(.*?)</div><p id="mm-caption"', page, re.S).group(1)
    picture = html_layout(game)
    assert board == picture.removeprefix(style_of(picture))
    assert page.count(style_of(picture)) == 1  # the pictures' style, once


def test_the_moves_are_in_words_with_their_comments():
    game = played()
    game.set_comment("a fine move", 3)
    page = game.to_html()
    words = []
    for ply, move in enumerate(game.history):
        text = game.position_after(ply).describe(move)
        words.append(text[:1].upper() + text[1:])
    items = re.findall(r'<li data-ply="(\d+)"[^>]*><span class="mm-words">(.*?)</span>', page)
    assert [int(ply) for ply, _ in items] == list(range(game.ply + 1))
    assert [unescape(text) for _, text in items] == [
        "The deal",
        *(f"{n}. {text}" for n, text in enumerate(words, start=1)),
    ]
    assert '<li data-ply="3"><span class="mm-words">' in page
    assert '<span class="mm-note">a fine move</span></li>' in page
    assert "Deal a row of 8 cards" in page


def test_the_title_names_the_deal_the_rules_and_the_outcome():
    page = played().to_html()
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    assert title.startswith("Miss Milligan, deal 7 (classic), 30 moves, ")
    assert Game.from_deck([str(c) for c in Game.new(2).deck]).to_html().count("a custom deal")


def test_a_game_without_moves_still_makes_a_page():
    page = Game.new(1, "milligan-cell").to_html()
    data = page_data(page)
    assert len(data["plies"]) == 1 and data["start"] == 0
    assert '<li data-ply="0" class="mm-current" aria-current="step">' in page


def test_the_page_loads_nothing_from_anywhere():
    page = played().to_html()
    assert not re.search(r"\b(?:src|href)\s*=\s*\"(?!data:)", page)  # only data: URLs
    assert "http://" not in page and "https://" not in page and "//cdn" not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert "default-src 'none'" in policy  # so no fetch, image or frame from anywhere


def test_the_policy_lets_the_viewer_script_run():
    page = played().to_html()
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(scripts) == 1
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page


def test_to_html_writes_the_page_to_a_file(tmp_path):
    game = played()
    path = tmp_path / "game.html"
    page = game.to_html(path)
    assert path.read_text(encoding="utf-8") == page
    assert game.to_html(str(path)) == page  # a str path too, and the same page again


def test_a_200_move_game_makes_a_page_of_reasonable_size():
    game = random_line(3, 200)
    size = len(game.to_html().encode("utf-8"))
    raw = sum(len(html_layout(position).encode()) for _, position in game.replay())
    assert size < 200_000, f"{size:,} bytes for 200 moves"
    assert size < raw / 4  # the shared pieces are kept once


# ----------------------------------------------------------------------------- escaping


def test_a_comment_cannot_close_the_script_or_add_markup():
    game = played()
    game.set_comment(NASTY, 2)
    page = game.to_html()
    assert page.count("<script") == 2 and page.count("</script>") == 2  # data and viewer
    assert "alert(1)</script>" not in page and "<b>bold</b>" not in page
    assert "<!--" not in page
    note = re.search(r'<li data-ply="2"><span class="mm-words">.*?</span>'
                     r'<span class="mm-note">(.*?)</span></li>', page).group(1)
    assert unescape(note) == NASTY


def test_the_data_block_has_no_markup_characters():
    game = played()
    game.set_comment(NASTY, 1)
    data = re.search(r'id="mm-data">(.*?)</script>', page := game.to_html(), re.S).group(1)
    assert not set("<>&") & set(data)
    assert data.isascii()
    assert "alert" not in data  # comments live in the escaped move list only
    assert pictures(page)[0].startswith('<div class="mm-board">')


def test_the_last_comment_is_in_the_caption_escaped():
    game = played(moves=5)
    game.set_comment("<i>end</i>")
    caption = re.search(r'<p id="mm-caption"[^>]*>(.*?)</p>', game.to_html()).group(1)
    assert "<i>" not in caption and unescape(caption).endswith("— <i>end</i>")


# ----------------------------------------------------------------------------- hidden stock


def twin_games(moves: int = 400) -> tuple[Game, Game]:
    """Two games whose decks differ only in the last two rows, with the same moves played
    while those rows are still in the stock."""
    deck = [str(card) for card in Game.new(11).deck]
    other = list(deck)
    first = next(i for i in range(-16, -8) if deck[i] != deck[-1])
    other[first], other[-1] = other[-1], other[first]
    one, two = Game.from_deck(deck), Game.from_deck(other)
    while one.ply < moves and one.stock_count > 16:
        move = greedy(one)
        if move is None:
            break
        one.play(move)
        two.play(move)
    return one, two


def test_two_games_that_differ_only_in_the_undealt_stock_give_the_same_page():
    one, two = twin_games()
    assert one.deck != two.deck and one.stock_count == 16
    assert one.to_html() == two.to_html()


def test_the_pages_differ_once_the_differing_row_is_dealt():
    one, two = twin_games()
    while one.can_deal:  # the check above can fail: the dealt cards are in the page
        one.deal()
        two.deal()
    assert one.to_html() != two.to_html()


def test_a_staged_position_keeps_its_stock_hidden_too():
    tableau = [["KS", "QH"], ["KC"], ["2C"], [], [], [], [], []]
    deck = [str(c) for c in Game.new(3).deck]
    for card in ["KS", "QH", "KC", "2C"]:
        deck.remove(card)
    stock = [c for c in deck if c not in ("AC",)]
    stock = stock[:8] + sorted(stock[8:])
    shuffled = stock[:8] + sorted(stock[8:], reverse=True)
    pages = []
    for order in (stock, shuffled):
        game = Game.from_layout(tableau, foundations=["AC", "AC", *[None] * 6], stock=order)
        game.play("1>2")
        game.play("3>f")
        game.deal()
        pages.append(game.to_html())
    assert pages[0] == pages[1]


# ----------------------------------------------------------------------------- the widget


@pytest.fixture
def widget():
    from milligan_widget.widget import MilliganWidget

    widget = MilliganWidget(game=played(moves=12), stats=False)
    yield widget
    widget.close()


def test_the_widget_writes_the_game_on_show(widget, tmp_path):
    path = tmp_path / "widget.html"
    assert widget.to_html(path) == widget.game.to_html() == path.read_text(encoding="utf-8")


def test_the_widget_in_the_replay_viewer_writes_the_whole_line(widget):
    whole = widget.game.to_html()
    widget.show_replay(ply=3)
    assert widget.game.ply == 3
    assert widget.to_html() == whole
    assert widget.game.ply == 3  # the viewer stays where it was


def test_the_docstring_examples():
    import milligan_widget.engine.export

    result = doctest.testmod(milligan_widget.engine.export)
    assert result.failed == 0 and result.attempted > 0
