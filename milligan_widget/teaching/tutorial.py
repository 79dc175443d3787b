"""The built-in lessons: every rule of docs/rules.md §2 in order, the common mistakes, the variants.

Each step is a full staged position (all 104 cards, or 52 for Little Milligan) built with
:func:`~milligan_widget.teaching.lessons.stage`: the foundations hold most cards, the tableau shows
the cards that matter, and the rest waits face down in the stock, or, once the stock must be
empty, lies in tidy King-led runs.

>>> [len(learn_the_rules().steps), len(variants_tour().steps)]
[16, 10]
"""

from __future__ import annotations

from milligan_widget.engine.cards import CARDS, parse_cards
from milligan_widget.engine.game import Game

from .lessons import Lesson, Step, all_of, ends_with, home, reserve_empty, stage, won

# Leftover cards of the weaving positions, laid out as two tidy King-led runs.
_DIAMOND_RUN = "KD QC JD 10C 9D 8C 7D"
_CLUB_RUN = "KC QD JC 10D 9C 8D 7C 6D 5C 4D"
_HEART_RUN = "KH QC JH 10C 9H 8C 7H 6C 5H 4C"
_SPADE_RUN = "KC QH JC 10H 9C 8H 7C"
_NOT_NOW = "Not yet: a deal covers every column. Finish the task first."


def _staged(
    columns: dict[int, str], stock: str = "", rules: str = "classic", **tops: str | None
) -> Game:
    """:func:`stage` with :func:`_caps`: the named cards stay in play, the rest is in stock."""
    return stage(columns, stock=stock, foundations=_caps(columns, stock, **tops), rules=rules)


def _caps(columns: dict[int, str], stock: str = "", **tops: str | None) -> dict[int, str | None]:
    """Foundation caps that keep the named cards in play: for each suit, its second pile stops
    two ranks below the lowest named card (the first pile takes all it can); ``p6="7H"``
    sets pile 6 (piles are C C S S H H D D).

    >>> _caps({1: "5S 9H"}, p1="KC")
    {4: '3S', 6: '7H', 1: 'KC'}
    """
    lowest: dict[int, int] = {}
    for card in parse_cards(" ".join([*columns.values(), stock])):
        lowest[card & 3] = min(lowest.get(card & 3, 13), card >> 2)
    caps: dict[int, str | None] = {
        2 * suit + 2: str(CARDS[(rank - 2) * 4 + suit]) if rank >= 2 else None
        for suit, rank in lowest.items()
        if rank >= 1
    }
    caps.update({int(name[1:]): top for name, top in tops.items()})
    return caps


# ---------------------------------------------------------------------------- the rules


def _setup() -> Step:
    return Step(
        "The deal",
        "A game starts with one face-up card on each of the eight columns; the other 96 cards "
        "are the stock (this is deal 52). Aces go up to the foundations: play the A♣ home, "
        "then the 2♣ on it.",
        Game.new(52),
        moves=["1>f", "2>f"],
        hint="Drag the A♣ onto a club foundation (the ♣ places), then the 2♣ onto it.",
        success="The foundations are the goal: all 104 cards, Ace to King in suit.",
    )


def _aces() -> Step:
    return Step(
        "An Ace starts a foundation",
        "There are two foundation piles per suit, one per deck. Both heart piles are empty: "
        "play the A♥ in column 1 to a foundation.",
        _staged({1: "AH", 4: "9C", 6: "5S"}, p5=None, p6=None),
        moves=["1>f"],
        hint="Drag the A♥ onto a heart foundation: either one will do.",
        success="The A♥ starts a heart pile. It could have gone on either heart pile: a card "
        "that fits either pile of its suit may go on either.",
    )


def _in_suit() -> Step:
    return Step(
        "Foundations build up in suit",
        "A heart pile holds the A♥. Build it up: the 2♥, then the 3♥.",
        _staged({1: "2H", 3: "3H", 5: "2D", 7: "5C"}, p4="4S", p6="AH"),
        moves=["1>f", "3>f"],
        hint="Same suit, one rank up: 2♥ on A♥, then 3♥ on 2♥.",
        mistakes={
            "5>f6": "A foundation takes only its own suit: the 2♦ needs a diamond pile.",
            "7>f4": "The 5♣ is one rank above the 4♠, but foundations build in suit.",
        },
        success="Each foundation climbs one rank at a time in its own suit, up to the King.",
    )


def _colours() -> Step:
    return Step(
        "Columns build down in alternating colours",
        "In the tableau a card goes on a card one rank higher of the other colour. "
        "Put the 9♠ on the 10♦, then the 8♥ on the 9♠.",
        _staged({1: "10D", 2: "9S", 3: "9H", 4: "8H"}),
        goal=ends_with("10D 9S 8H"),
        solution=["2>1", "4>1"],
        hint="Black on red, red on black, each one rank lower: 10♦, 9♠, 8♥.",
        mistakes={"3>1": "The 9♥ is the right rank, but red never goes on red.", "d": _NOT_NOW},
        success="10♦ 9♠ 8♥: down one rank at a time, red and black in turn. Suits do not "
        "matter in the tableau; colours do.",
    )


def _runs() -> Step:
    return Step(
        "A run moves as a unit",
        "The columns end with 10♣, 9♦, 5♠ and 8♠. Build 10♣ 9♦ 8♠, then move the whole "
        "run onto the J♥ in one go.",
        _staged({1: "10C", 2: "9D", 3: "9H 5S", 4: "8S", 5: "JH"}),
        goal=ends_with("JH 10C 9D 8S"),
        solution=["2>1", "4>1", "1>5"],
        hint="9♦ onto 10♣, 8♠ onto 9♦; then drag the 10♣ and its run follows.",
        mistakes={
            "d": _NOT_NOW,
            "3:2>1": "The 9♥ is covered by the 5♠: a card moves only if it starts a run that "
            "goes to the end of its column.",
        },
        success="A run of alternating colours moves whole or in part, however long, onto any "
        "card it fits. A card inside a column moves only if it starts a run to the end.",
    )


def _empty_column() -> Step:
    return Step(
        "Only a King fills an empty column",
        "The A♠ lies under K♣ Q♥ J♠, and column 2 is empty. Move the King's run into it, "
        "then play the A♠ home.",
        _staged({1: "AS KC QH JS", 3: "2S QD JC", 4: "8D"}),
        moves=["1>2", "1>f"],
        hint="Drag the K♣: its run goes with it into the empty column.",
        mistakes={
            "3>2": "An empty column takes only a King or a King-led run; the Q♦ J♣ must wait "
            "for a black King."
        },
        success="An empty column takes a King, alone or leading a run, and nothing else. You "
        "may also leave it empty.",
    )


def _dealing() -> Step:
    return Step(
        "Dealing a row",
        "When you choose, deal a row: one card onto every column, empty ones included. "
        "Deal, then play the Ace the row brings.",
        _staged(
            {1: "9C", 2: "4H", 3: "QS", 5: "7D", 6: "JC", 7: "5H", 8: "KS"},
            stock="6C 10S 8H AD 3H 6H 9H 2D",
        ),
        moves=["d", "4>f"],
        hint="Press the stock to deal; the A♦ lands in the empty column 4.",
        success="There are 12 deals after the first row, 13 rows in all, and no redeal.",
    )


def _last_row() -> Step:
    return Step(
        "The last row",
        "Eight cards are left: one last row. Deal it. (The reserve is still closed.)",
        stage(
            {i: king for i, king in enumerate(["KC", "KS", "KH", "KD"] * 2, 1)},
            stock="QD QH QC QS QD QH QC QS",
            foundations=dict.fromkeys(range(1, 9), "JC"),
        ),
        moves=["d"],
        mistakes={"1>r": "Weaving starts only when the stock is empty."},
        success="The stock is empty: no redeal. Now the reserve opens for weaving.",
    )


def _weaving() -> Step:
    return Step(
        "Weaving: the reserve",
        "The stock is empty, so the reserve is open: it holds one card or one run at a "
        "time. The 3♦ is hidden under 5♦ 4♣. Set 5♦ 4♣ aside, play the 3♦ home, then put "
        "5♦ 4♣ back on the black 6.",
        _weaving_position(),
        moves=["1:2>r", "1>f", "r>1"],
        hint="Drag the 5♦ (the 4♣ comes with it) into the reserve.",
        mistakes={
            "1>r": "The 5♦ would still cover the 3♦: set 5♦ and 4♣ aside together.",
            "1>f": "The 4♣ may go home, but the 5♦ would still cover the 3♦.",
        },
        success="Weaving: set a card or run aside, use what it uncovered, then bring it back "
        "onto the tableau (or its end card to a foundation). Then the reserve is free again.",
    )


def _weaving_position(rules: str = "classic") -> Game:
    columns = {1: "6C 3D 5D 4C", 2: _DIAMOND_RUN, 3: _CLUB_RUN}
    return stage(columns, rules=rules, rest_in_stock=False)


def _winning() -> Step:
    return Step(
        "Winning",
        "All 104 cards on the foundations wins. Play the last six cards home.",
        stage({1: "KH QS", 2: "KS QH", 3: "KC", 4: "KD"}, rest_in_stock=False),
        goal=won,
        solution=["1>f", "2>f", "1>f", "2>f", "3>f", "4>f"],
        hint="Queens first: they cover the Kings.",
        mistakes={"1:2>f": "Foundations take single top cards, one at a time."},
        success="Won! (A game is lost when no useful move is left: none reaches a new position.)",
    )


# ---------------------------------------------------------------------------- mistakes


def _colour_not_suit() -> Step:
    return Step(
        "Mistake: building by suit",
        "Put the 8♥ on a 9.",
        _staged({1: "9H", 2: "9C", 3: "8H"}),
        moves=["3>2"],
        hint="Look for a black 9.",
        mistakes={"3>1": "Same suit does not help in the tableau: a red 8 needs a black 9."},
        success="Columns build by colour, not by suit: suits matter only on the foundations.",
    )


def _queen_in_space() -> Step:
    return Step(
        "Mistake: a Queen into an empty column",
        "The 3♣ is under Q♦ J♠. Free it and play it home.",
        _staged({1: "3C QD JS", 3: "KC", 5: "6H"}, p2="2C"),
        moves=["1>3", "1>f"],
        hint="The Q♦ goes on a black King.",
        mistakes={
            "1>2": "An empty column takes only a King or a King-led run. The Q♦ J♠ fits on the "
            "K♣ instead."
        },
        success="Empty columns are for Kings. A Queen-led run needs a black King to go on.",
    )


def _dealing_too_soon() -> Step:
    return Step(
        "Mistake: dealing too soon",
        "Before the next deal, make the two useful moves: the A♦ home and the 7♠ onto the 8♥.",
        _staged({1: "QC AD", 2: "8H", 3: "7S", 5: "4C"}),
        moves=["1>f", "3>2"],
        any_order=True,
        hint="Play the A♦ to a foundation and the 7♠ onto the 8♥, in either order.",
        mistakes={"d": "Dealing now would bury the A♦ and the 7♠ under new cards."},
        success="Now a deal can only cover cards you could not use anyway.",
    )


def _breaking_a_run() -> Step:
    return Step(
        "Mistake: breaking a run for a quick foundation move",
        "The A♣ is under the 7♠. Free it and play it home.",
        _staged({1: "10H 9C 8H", 2: "AC 7S", 4: "JD"}, p6="7H"),
        moves=["2>1", "2>f"],
        hint="The 7♠ needs a red 8.",
        mistakes={
            "1>f": "The 8♥ may go home, but it ends the run 10♥ 9♣ 8♥, the only place the 7♠ "
            "could go. The A♣ would stay buried."
        },
        success="A run is a landing place: keep it until the card it would take has moved.",
    )


def _harmless_reserve() -> Step:
    return Step(
        "Mistake: spending the reserve on a harmless card",
        "The stock is empty and the reserve holds one unit at a time. Use it to get the 3♣ "
        "home, and bring the reserve back to the tableau.",
        stage({1: "6H 3C 5C 4H", 2: _SPADE_RUN, 3: _HEART_RUN}, rest_in_stock=False),
        moves=["1:2>r", "1>f", "r>1"],
        hint="Set aside the run that covers the 3♣: 5♣ 4♥.",
        explain="Set aside the blocker that changes the board.",
        mistakes={
            "2>r": "The 7♣ covers nothing you need: the reserve would be stuck with it.",
            "3>r": "The 4♣ covers nothing you need: the reserve would be stuck with it.",
        },
        success="The reserve is your one spare hand: spend it on the card that frees another.",
    )


def _second_pile() -> Step:
    return Step(
        "Mistake: one foundation pile running ahead",
        "One heart pile is at 9♥, the other still at the A♥. Feed the short pile: the 2♥ is "
        "under the 9♣.",
        _staged({1: "JS 10H", 2: "3H 2H 9C"}, p5="9H", p6="AH"),
        moves=["2>1", "2>f", "2>f"],
        hint="The 9♣ needs a red 10, and the 10♥ is right there.",
        mistakes={
            "1>f": "The 10♥ fits the tall pile, but it is the only place for the 9♣ that hides "
            "the 2♥. The short pile would stay stuck."
        },
        success="Two piles per suit give two chances for each card: keep both growing.",
    )


def learn_the_rules() -> Lesson:
    """Every rule of docs/rules.md §2 in order, then the common mistakes players make.

    >>> [step.title for step in learn_the_rules().steps][:3]
    ['The deal', 'An Ace starts a foundation', 'Foundations build up in suit']
    """
    steps = [_setup(), _aces(), _in_suit(), _colours(), _runs(), _empty_column(), _dealing()]
    steps += [_last_row(), _weaving(), _winning()]
    steps += [_colour_not_suit(), _queen_in_space(), _dealing_too_soon(), _breaking_a_run()]
    steps += [_harmless_reserve(), _second_pile()]
    return Lesson(
        "Learn the rules of Miss Milligan",
        steps,
        intro="Two decks, eight columns, eight foundations: sort all 104 cards onto the "
        "foundations, Ace to King in suit. Each step shows a position and a task.",
    )


# ---------------------------------------------------------------------------- variants


def _millie() -> Step:
    return Step(
        "Millie: no reserve",
        "Millie has no weaving. The 3♦ is under 5♦ 4♣: find another way to play it home.",
        stage(
            {1: "3D 5D 4C", 2: _DIAMOND_RUN + " 6C", 3: _CLUB_RUN},
            rules="millie",
            rest_in_stock=False,
        ),
        moves=["1>2", "1>f"],
        hint="5♦ 4♣ fits on the black 6.",
        mistakes={"1:2>r": "Millie has no reserve: the tableau must do it all."},
        success="Without a reserve every blocker needs a place in the tableau: Millie is harder.",
    )


def _imperial_guards() -> Step:
    return Step(
        "Imperial Guards: any card fills a space",
        "In Imperial Guards an empty column takes any card or run. Move Q♦ J♣ into an empty "
        "column and play the A♠ home.",
        _staged({1: "AS QD JC", 3: "6H"}, rules="imperial-guards"),
        moves=["1>2", "1>f"],
        mistakes={"d": _NOT_NOW},
        success="In classic rules that Queen would have had to wait for a King.",
    )


def _single_card() -> Step:
    return Step(
        "Single-card weaving",
        "Here the reserve holds one card only, so 5♦ 4♣ cannot go aside together. Get the 3♦ "
        "home and leave the reserve empty.",
        _weaving_position("single-card"),
        goal=all_of(home("3D 3D"), reserve_empty),
        solution=["1>f", "1>r", "1>f", "r>1"],
        hint="The 4♣ can go home first; then only the 5♦ needs the reserve.",
        mistakes={"1:2>r": "The reserve takes a single card in this variant."},
        success="One card at a time: weaving needs more planning.",
    )


def _milligan_cell() -> Step:
    return Step(
        "Milligan Cell: four free cells",
        "Instead of weaving, four cells hold one card each, at any time (even with a stock). "
        "Get the 3♦ home and empty the cells again.",
        _staged({1: "6C 3D 5D 4C", 3: "9H"}, rules="milligan-cell", p8="2D"),
        goal=all_of(home("3D 3D"), reserve_empty),
        solution=["1>c", "1>c", "1>f", "c2>1", "c1>1"],
        hint="Put the 4♣ and then the 5♦ in cells.",
        mistakes={"d": _NOT_NOW},
        success="Cells take single cards only, but there are four of them.",
    )


def _little_milligan() -> Step:
    return Step(
        "Little Milligan: one deck, a short last row",
        "One deck, seven columns, four foundations. The 45 stock cards make six rows of seven "
        "and a last row of three, dealt onto columns 1–3. Deal it, then play the Q♠ home.",
        stage({2: "KS"}, stock="KH QS KD", rules="little-milligan"),
        moves=["d", "2>f"],
        success="Little Milligan has no reserve and keeps the King-only rule.",
    )


def _giant() -> Step:
    return Step(
        "Giant: cards come back from the foundations",
        "Giant has no reserve, any card fills a space, and once the stock is empty a "
        "foundation's top card may come back. Take the Q♠ back onto the K♦, put the J♦ on it, "
        "and play the 9♦ home.",
        stage(
            {1: "9D JD", 2: "KD", 3: "KS QD", 4: "10D"},
            foundations={3: "QS"},
            rules="giant",
            rest_in_stock=False,
        ),
        moves=["f3>2", "1>2", "1>f"],
        mistakes={
            "1>5": "In Giant that works too: any card may fill a space. But try the other "
            "Giant rule here: take the Q♠ back from its foundation."
        },
        success="Taking a card back is a last resort: it must climb home again later.",
    )


def _strict() -> Step:
    return Step(
        "Strict: the reserve comes back whole, to the tableau",
        "Seed 000's site rules: the reserve gives back only its whole unit, and only to a "
        "column. Weave the 3♦ home.",
        _weaving_position("strict"),
        moves=["1:2>r", "1>f", "r>1"],
        mistakes={
            "1>r": "The 5♦ would still cover the 3♦: set 5♦ and 4♣ aside together.",
            "r>f": "In strict rules reserve cards never go straight to a foundation.",
        },
        success="In strict rules a reserve card reaches a foundation only through the tableau.",
    )


def _easy() -> Step:
    return Step(
        "Easy: weaving at any time",
        "In the easy rules (Solitaire Till Dawn's) the reserve is open from the start, "
        "even with a stock. "
        "Set 5♦ 4♣ aside, play the 3♦ home, and bring them back.",
        _staged({1: "6C 3D 5D 4C", 3: "9H"}, rules="easy", p8="2D"),
        moves=["1:2>r", "1>f", "r>1"],
        mistakes={"d": _NOT_NOW},
        success="Easy rules also let foundation cards come back to the tableau.",
    )


def _face_down(columns: dict[int, str], down: dict[int, int], rules: str) -> Game:
    """A staged position with ``down[i]`` face-down cards at the bottom of column ``i``."""
    face_down = [down.get(i, 0) for i in range(1, 9)]
    return stage(columns, foundations=_caps(columns), rules=rules, face_down=face_down)


def _harp() -> Step:
    return Step(
        "Milligan Harp: cards turn face up",
        "In Milligan Harp the columns start with cards face down under one face-up card. Move "
        "the 5♥ onto the 6♠: the card under it turns face up. Then play it home.",
        _face_down({1: "AC 5H", 2: "6S"}, {1: 1}, "milligan-harp"),
        moves=["1>2", "1>f"],
        mistakes={"d": _NOT_NOW},
        success="A face-down card turns up as soon as the last card on it leaves: no move "
        "needed, and one Undo puts both back.",
    )


def _yukon() -> Step:
    return Step(
        "Milligan Yukon: any face-up group moves",
        "In Milligan Yukon any face-up card moves with all the cards on it, in order or not: "
        "only the first must fit. Move 7♥ 2♣ 5♠ onto the 8♠ together, then play the A♦ "
        "that turns up.",
        _face_down({1: "AD 7H 2C 5S", 2: "8S"}, {1: 1}, "milligan-yukon"),
        moves=["1:3>2", "1>f"],
        mistakes={"d": _NOT_NOW},
        success="In Milligan Harp only a run in alternating colours could have moved.",
    )


def variants_tour() -> Lesson:
    """One step for each variant preset of docs/rules.md §4."""
    steps = [_millie(), _imperial_guards(), _single_card(), _milligan_cell()]
    steps += [_little_milligan(), _giant(), _strict(), _easy(), _harp(), _yukon()]
    return Lesson(
        "The variants",
        steps,
        intro="The same game with one rule changed: each step shows what the change allows.",
    )
