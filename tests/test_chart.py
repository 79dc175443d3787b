"""The review's chart (analysis/chart.py) and the review in words and HTML (analysis/report.py):
the SVG is XML, one point per move (or the thinned count), the deals, the turning point and
the flagged moves where they belong (by what they cost, grouped where they would touch), every
text escaped, the themes; `_repr_html_` and the page.
tests/browser/test_review_page.py clicks the chart in a real browser."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from html import escape

import pytest

from milligan_widget import Game
from milligan_widget.analysis import Chance, Judgement, Review, ReviewEntry, review
from milligan_widget.analysis import chart as chart_module
from milligan_widget.analysis.chart import (
    MARK_GAP,
    MAX_DEALS,
    MAX_POINTS,
    flag_groups,
    move_name,
    review_svg,
)
from milligan_widget.analysis.words import flag_words, turning_point_words
from milligan_widget.strategy import greedy, play_game

SVG = "{http://www.w3.org/2000/svg}"
NASTY = "</title><script>alert(1)</script> & <!-- \"q\" 'single' <b>bold</b>"
FAST = {"time_limit": 5.0, "samples": 3, "node_limit": 3_000, "seed": 1}  # node-bound: repeatable


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element) -> list[str]:
    return (element.get("class") or "").split()


def marks(root: ET.Element, css_class: str) -> list[ET.Element]:
    """The chart's elements of ``css_class``, outside its legend."""
    found = []
    for child in root:
        if "mm-legend" not in classes(child):
            found += [child] if css_class in classes(child) else []
            found += marks(child, css_class)
    return found


def strip_cells(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-verdict")]


def point_x(root: ET.Element, ply: int) -> float:
    """The middle of a point's column (its dot, where the chance is known, sits there)."""
    (point,) = [p for p in marks(root, "mm-point") if p.get("data-ply") == str(ply)]
    hit = point.find(f"{SVG}rect")
    middle = float(hit.get("x")) + float(hit.get("width")) / 2
    dot = point.find(f"{SVG}circle")
    assert dot is None or float(dot.get("cx")) == pytest.approx(middle)
    return middle


def made_up(
    count: int,
    deals: tuple[int, ...] = (),
    lost_after: int | None = None,
    stopped_at: int | None = None,
    moves: dict[int, str] | None = None,
) -> Review:
    """A review of ``count`` moves with chances going down, without running the solver."""
    entries = []
    for ply in range(count):
        move = "d" if ply in deals else (moves or {}).get(ply, "7>2")
        verdict = "winnable" if lost_after is None or ply <= lost_after else "unwinnable"
        chance = None if stopped_at is not None and ply >= stopped_at else Chance(16 - ply % 17, 16)
        mistake, judged = None, None
        if ply % 10 == 3:  # judged an inaccuracy, and a named habit explains it
            mistake = "set aside a card"
            judged = Judgement(ply, move, "inaccuracy", Chance(12, 16), Chance(10, 16))
        entries.append(ReviewEntry(ply, move, verdict, chance, mistake, judgement=judged))
    final = "winnable" if lost_after is None else "unwinnable"
    return Review(tuple(entries), final)


@pytest.fixture(scope="module")
def played() -> tuple[Game, Review]:
    """A greedy game of deal 2 (lost at its fifth move) with a comment that looks like markup."""
    game = play_game(Game.new(2), greedy, max_moves=400)
    game.set_comment(NASTY, 3)
    return game, review(game, **FAST)


# ----------------------------------------------------------------------------- the chart


def test_a_real_review_has_a_point_per_move_and_deal_ticks_at_the_deals(played):
    game, done = played
    root = parse(review_svg(done))
    plies = [int(p.get("data-ply")) for p in marks(root, "mm-point")]
    assert plies == list(range(len(game.history)))
    deals = [ply for ply, move in enumerate(game.history) if move.is_deal]
    assert deals and [int(t.get("data-deal")) for t in marks(root, "mm-deal")] == deals
    for tick in marks(root, "mm-deal"):
        assert float(tick.get("x1")) == pytest.approx(point_x(root, int(tick.get("data-deal"))))


def test_the_turning_point_is_marked_at_its_move(played):
    _, done = played
    assert done.turning_point is not None
    root = parse(review_svg(done))
    (turn,) = marks(root, "mm-turn")
    ply = done.turning_point
    assert turn.get("data-ply") == str(ply)
    x = float(turn.find(f"{SVG}line").get("x1"))
    assert point_x(root, ply) < x < point_x(root, ply + 1)
    label = turn.find(f"{SVG}text").text
    assert label == f"move {ply + 1}: {move_name(done.entries[ply].move)} — no win after it"
    cells = {float(cell.get("x")): cell.get("data-verdict") for cell in strip_cells(root)}
    after = [verdict for left, verdict in cells.items() if left == pytest.approx(x, abs=0.1)]
    assert after and after[0] != "winnable"  # the strip turns where the line is


def test_a_deal_is_named_in_words():
    root = parse(review_svg(made_up(3, deals=(1,))))
    title = marks(root, "mm-point")[1].find(f"{SVG}title").text
    assert title.startswith("move 2: dealing a row — ")


def test_no_turning_point_no_mark():
    root = parse(review_svg(made_up(12)))
    assert marks(root, "mm-turn") == [] and len(marks(root, "mm-point")) == 12


def test_the_line_and_band_follow_the_chances():
    done = made_up(5)
    root = parse(review_svg(done, width=500))
    (line,) = marks(root, "mm-line")[:1]
    ys = [float(pair.split(",")[1]) for pair in line.get("points").split()]
    assert ys == sorted(ys)  # the chance goes down: the line goes down the picture
    frame = chart_module.Frame(500, 6)
    assert ys == pytest.approx([frame.y(e.chance.p) for e in done.entries], abs=0.06)
    (band,) = marks(root, "mm-band")
    assert len(band.get("points").split()) == 10  # the highs forth, the lows back


def test_the_flagged_moves_are_marked_by_what_they_cost_with_their_words():
    done = made_up(30)
    root = parse(review_svg(done))
    found = marks(root, "mm-flag")
    assert [int(m.get("data-ply")) for m in found] == [3, 13, 23]
    assert {m.get("data-label") for m in found} == {"inaccuracy"}
    assert found[0].find(f"{SVG}title").text == (
        "move 4: 7>2 — Inaccuracy: 7>2 keeps 10 of 16 sampled stocks winnable"
        " (it set aside a card)."
    )
    lost = review_svg(made_up(30, lost_after=13))  # move 14 lost the win: a blunder
    (blunder,) = [m for m in marks(parse(lost), "mm-flag") if m.get("data-label") == "blunder"]
    assert blunder.get("data-ply") == "13"
    width = [float(n) for n in re.findall(r"h([\d.]+)", blunder.find(f"{SVG}path").get("d"))]
    assert width == [11]  # larger than the others' 8


def test_the_turning_point_names_the_solver_s_better_move():
    entries = list(made_up(6, lost_after=2).entries)
    entries[2] = ReviewEntry(2, "d", "winnable", Chance(8, 16), None, solver_move="4>7")
    done = Review(tuple(entries), "unwinnable")
    (flag,) = [f for f in done.flags if f.label == "blunder"]
    assert (flag.ply, flag.better, flag.better_chance) == (2, "4>7", None)
    assert "Better: 4>7, with which the solver wins." in turning_point_words(done)
    root = parse(review_svg(done))
    (mark,) = [m for m in marks(root, "mm-flag") if m.get("data-label") == "blunder"]
    assert "Better: 4>7." in mark.find(f"{SVG}title").text
    # A judge's better move and its chance come first, and are said.
    judged = ReviewEntry(2, "d", "winnable", None, solver_move="4>7", better="6>r",
                         better_chance=Chance(12, 16))  # fmt: skip
    judged_review = Review((*entries[:2], judged, *entries[3:]), "unwinnable")
    (flag,) = [f for f in judged_review.flags if f.ply == 2]
    assert (flag.better, flag.better_chance) == ("6>r", Chance(12, 16))
    assert "Better: 6>r, 75% of 16 sampled stocks win" in flag_words(flag)


def test_flags_that_would_touch_are_one_mark_and_each_stays_reachable():
    done = made_up(2_000)  # a flag every 10 moves: 200 of them, 3.2 px apart
    root = parse(review_svg(done))
    found = marks(root, "mm-flag")
    plies = [int(p) for mark in found for p in mark.get("data-plies").split()]
    assert plies == [f.ply for f in done.flags]  # every flagged move is in one mark
    xs = [float(re.match(r"M([\d.]+)", m.find(f"{SVG}path").get("d")).group(1)) for m in found]
    assert min(b - a for a, b in itertools.pairwise(xs)) >= MARK_GAP - 8  # no overlap
    assert len(found) <= (720 - 72) / MARK_GAP + 1
    several = next(m for m in found if len(m.get("data-plies").split()) > 1)
    count = several.find(f"{SVG}text").text
    assert count == str(len(several.get("data-plies").split()))
    assert several.find(f"{SVG}title").text.count("\n") == int(count) - 1
    assert flag_groups([3, 5, 90], positions=31) == [[3], [5], [90]]  # a short game: apart


def test_a_point_s_tooltip_says_the_move_the_chance_and_the_verdict():
    root = parse(review_svg(made_up(60, lost_after=56)))
    point = next(p for p in marks(root, "mm-point") if p.get("data-ply") == "56")
    assert point.find(f"{SVG}title").text == (
        "move 57: 7>2 — 69% of 16 sampled stocks win (44–86%)"
        " for a player who could see the hidden cards; "
        "the solver (which knows the stock): winnable"
    )


def test_every_text_is_escaped_comments_and_moves_too(played):
    game, done = played
    svg = review_svg(done, comments=game.comments)
    root = parse(svg)  # a stray "<" or "&" would not parse
    assert not [e for e in root.iter() if e.tag.endswith("script") or e.tag.endswith("b")]
    point = next(p for p in marks(root, "mm-point") if p.get("data-ply") == "2")
    assert point.find(f"{SVG}title").text.endswith("; comment: " + NASTY)
    odd = made_up(3, moves={1: "<script>x</script>"})
    title = [p for p in marks(parse(review_svg(odd)), "mm-point")][1].find(f"{SVG}title")
    assert title.text.startswith("move 2: <script>x</script> — ")


def theme_colours(svg: str) -> dict[str, str]:
    first_rule = re.search(r"<style>\.mmr\w+\{([^}]*)\}", svg).group(1)
    return dict(item.split(":", 1) for item in first_rule.split(";"))


def test_light_and_dark_differ_and_auto_follows_the_host():
    done = made_up(10)
    light, dark, auto = (review_svg(done, theme=t) for t in ("light", "dark", "auto"))
    assert theme_colours(light)["--mmr-bg"] == "#ffffff"
    assert theme_colours(dark)["--mmr-bg"] == "#1d1f21"
    assert theme_colours(light)["--mmr-fg"] != theme_colours(dark)["--mmr-fg"]
    assert theme_colours(auto)["--mmr-bg"] == "var(--jp-layout-color1,#ffffff)"
    assert "@media (prefers-color-scheme: dark)" in auto
    assert "prefers-color-scheme" not in light + dark
    assert [parse(s).get("data-theme") for s in (light, dark, auto)] == ["light", "dark", "auto"]


def test_two_charts_on_a_page_keep_their_own_patterns():
    one, two = review_svg(made_up(10), theme="dark"), review_svg(made_up(11), theme="dark")
    ids = [re.search(r'<pattern id="(\w+)-hatch"', svg).group(1) for svg in (one, two)]
    assert ids[0] != ids[1]
    assert f"url(#{ids[0]}-hatch)" in one and f"url(#{ids[1]}-hatch)" in two


def test_a_review_stopped_early_draws_what_it_has():
    done = Review(made_up(10, stopped_at=7).entries, "unknown")
    root = parse(review_svg(done))
    points = marks(root, "mm-point")
    assert len(points) == 10
    assert [p.find(f"{SVG}circle") is not None for p in points] == [True] * 7 + [False] * 3
    assert "not measured (the review stopped first)" in points[8].find(f"{SVG}title").text
    assert len(marks(root, "mm-line")[0].get("points").split()) == 7
    empty = parse(review_svg(Review((), "unknown")))
    assert marks(empty, "mm-point") == []
    assert "no move reviewed yet" in ET.tostring(empty, "unicode")


def test_a_chart_of_any_length_stays_small():
    done = made_up(20_000, deals=tuple(range(0, 20_000, 10)), lost_after=9_000)
    svg = review_svg(done)
    assert len(marks(parse(svg), "mm-deal")) == MAX_DEALS
    assert len(svg) < 200_000, len(svg)  # flags grouped: every flagged ply kept, for clicks


def test_the_line_breaks_where_a_chance_is_missing():
    entries = list(made_up(9).entries)
    entries[4] = ReviewEntry(4, "d", "winnable", None)
    root = parse(review_svg(Review(tuple(entries), "winnable")))
    pieces = [len(line.get("points").split()) for line in marks(root, "mm-line")]
    assert pieces == [4, 4] and len(marks(root, "mm-band")) == 2


def test_a_chance_nothing_was_decided_in_is_not_drawn_at_0_percent():
    """16 of 16 samples undecided: no point, the line breaks there; the tooltip says why."""
    entries = list(made_up(9).entries)
    entries[4] = ReviewEntry(4, "d", "winnable", Chance(0, 16, 16))
    root = parse(review_svg(Review(tuple(entries), "winnable")))
    pieces = [len(line.get("points").split()) for line in marks(root, "mm-line")]
    assert pieces == [4, 4]
    point = next(p for p in marks(root, "mm-point") if p.get("data-ply") == "4")
    assert point.find(f"{SVG}circle") is None
    assert "cannot tell: the solver decided none of 16" in point.find(f"{SVG}title").text


def test_a_long_review_is_thinned_and_keeps_the_turning_point():
    done = made_up(2_000, deals=(0, 700, 1500), lost_after=1_234)
    svg = review_svg(done)
    root = parse(svg)
    plies = {int(p.get("data-ply")) for p in marks(root, "mm-point")}
    assert len(plies) <= MAX_POINTS and {0, 1_234, 1_235, 1_999} <= plies
    assert len(marks(root, "mm-flag")) <= (720 - 72) / MARK_GAP + 1
    assert [t.get("data-deal") for t in marks(root, "mm-deal")] == ["0", "700", "1500"]
    assert len(svg) < 170_000, len(svg)
    turn_x = float(marks(root, "mm-turn")[0].find(f"{SVG}line").get("x1"))
    cells = marks(root, "mm-unwinnable")
    assert cells and float(cells[0].get("x")) == pytest.approx(turn_x, abs=0.1)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"theme": "blue"}, "theme must be 'light', 'dark' or 'auto'"),
        ({"width": 100}, "width must be a whole number of pixels from 320 to 4000"),
        ({"width": 720.5}, "width must be a whole number"),
    ],
)
def test_bad_options_are_refused_in_words(options, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        review_svg(made_up(3), **options)


def test_only_a_review_is_drawn():
    with pytest.raises(ValueError, match="review_svg draws a Review"):
        review_svg(Game.new(1))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- words, html


def test_the_turning_point_in_words():
    words = turning_point_words(made_up(60, lost_after=56))
    assert words.startswith("Until move 57 this deal could still be won; move 57 (7>2) lost it")
    assert (
        "The honest chance before it: 69% of 16 sampled stocks win (44–86%)"
        " for a player who could see the hidden cards." in words
    )
    assert turning_point_words(made_up(5)) == (
        "No move lost the deal: it could still be won after the last move."
    )
    never = Review(tuple(ReviewEntry(i, "d", "unwinnable", None) for i in range(3)), "unwinnable")
    assert "could not be won from the first position reviewed" in turning_point_words(never)
    unsure = Review((ReviewEntry(0, "d", "unknown", None),), "unwinnable")
    assert turning_point_words(unsure).startswith("No turning point was found")


def test_repr_html_holds_the_chart_the_turning_point_and_the_mistakes(played):
    _, done = played
    html = done._repr_html_()
    assert review_svg(done) in html
    assert escape(turning_point_words(done)) in html
    for entry in done.mistakes:
        assert (
            f"move {entry.ply + 1} ({escape(move_name(entry.move))}): {escape(entry.mistake)}"
            in html
        )
    assert done.svg(theme="dark") == review_svg(done, theme="dark")
    assert done.summary() == turning_point_words(done)


def test_the_page_of_the_review_carries_the_chart_and_writes_it(played, tmp_path):
    game, done = played
    page = done.to_html(game, tmp_path / "review.html")
    assert (tmp_path / "review.html").read_text(encoding="utf-8") == page
    chart = review_svg(done, comments=game.comments)
    assert f'<section id="mm-extra"><div class="mm-review">{chart}' in page
    section = re.search(r'<section id="mm-extra">.*?</section>', page, re.S).group(0)
    assert page.replace(section, "") == game.to_html()  # the game's own page around it


def test_a_review_of_another_game_is_refused(played):
    _, done = played
    other = play_game(Game.new(5), greedy, max_moves=20)
    with pytest.raises(ValueError, match="this review is of another game: move 1 is"):
        done.to_html(other)
    short = Game.new(2)
    short.play(str(done.entries[0].move))
    with pytest.raises(ValueError, match="it is the review of another game"):
        done.to_html(short)


def test_the_engine_s_page_takes_extra_markup_without_the_analysis():
    game = play_game(Game.new(7), greedy, max_moves=10)
    plain, extra = game.to_html(), game.to_html(extra_html='<p id="x">chart</p>')
    assert '<section id="mm-extra"><p id="x">chart</p></section>' in extra
    assert "mm-extra" not in plain.split("<body>")[1].split("<script")[0]
    assert extra.replace('<section id="mm-extra"><p id="x">chart</p></section>', "") == plain
