"""Property tests over random play, for every preset of docs/rules.md §4.

Each test walks a random line of legal play (a numbered deal, moves chosen by a seeded
``random.Random``) and checks the engine against the rules as written in docs/rules.md, using
only the public API: the checks here do not reuse the engine's own move logic.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from milligan_widget import (
    PRESETS,
    Card,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)

ALL_PRESETS = list(PRESETS)
SUIT_ORDER = "CSHD"

# Deal numbers: both of PySolFC's generators (LCG below 32000, Mersenne Twister above).
deal_numbers = st.one_of(st.integers(1, 31999), st.integers(32000, 10**20 - 1))
walk_seeds = st.integers(0, 2**32 - 1)
deal_bias = st.sampled_from([0.05, 0.15, 0.4, 1.0])

PROPERTY_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ----------------------------------------------------------------------------- helpers


def choose(game: Game, rng: random.Random, bias: float) -> Move:
    """A random legal move; a deal with probability ``bias`` when one is possible.

    Choosing deals less often than other moves lets a walk reach the end of the stock
    (and the weaving reserve) while still spending time between deals.
    """
    moves = game.legal_moves
    others = [m for m in moves if not m.is_deal]
    if game.can_deal and (not others or rng.random() < bias):
        return Move.deal()
    return rng.choice(others)


def walk(game: Game, rng: random.Random, steps: int, bias: float, check=None) -> list[Game]:
    """Play up to ``steps`` random legal moves; return the position (a copy) after each ply."""
    positions = [game.copy(history=False)]
    for _ in range(steps):
        if not game.legal_moves:
            break
        move = choose(game, rng, bias)
        before = snapshot(game) if check else None
        game.play(move)
        if check:
            check(game, move, before)
        positions.append(game.copy(history=False))
    return positions


def snapshot(game: Game) -> dict:
    """Everything a player can see, as plain strings (Cards compared by their text)."""
    return {
        "tableau": [[str(c) for c in col] for col in game.tableau],
        "foundations": [[str(c) for c in pile] for pile in game.foundations],
        "reserve": [str(c) for c in game.reserve],
        "cells": [None if c is None else str(c) for c in game.cells],
        "stock": game.stock_count,
        "face_down": list(game.face_down),
        "groups": game.rules.moves == "groups",  # Yukon moves: see signature()
    }


def face_up(state: dict, col: int) -> list[str]:
    """Column ``col``'s face-up cards in ``state`` (docs/rules.md §3.10): the ones that move."""
    return state["tableau"][col][state["face_down"][col] :]


def player_key(game: Game) -> tuple:
    """docs/rules.md §2.8's notion of "the same position", computed independently of the engine:
    column order, the order of same-suit foundations and of cells do not matter; face-down
    cards count by the column they lie in, not by what they are."""
    heights: dict[str, list[int]] = {s: [] for s in SUIT_ORDER}
    for suit, pile in zip(game.foundation_suits, game.foundations, strict=True):
        heights[suit].append(len(pile))
    return (
        tuple(
            sorted(
                (tuple(str(c) for c in col[down:]), down, i if down else -1)
                for i, (col, down) in enumerate(zip(game.tableau, game.face_down, strict=True))
            )
        ),
        tuple(tuple(sorted(heights[s])) for s in SUIT_ORDER),
        game.stock_count,
        tuple(str(c) for c in game.reserve),
        tuple(sorted("" if c is None else str(c) for c in game.cells)),
    )


def rank(code: str) -> int:
    return Card.parse(code).rank


def red(code: str) -> bool:
    return Card.parse(code).red


def fits_on(card: str, onto: str) -> bool:
    """Tableau building: one rank lower and the other colour."""
    return rank(card) + 1 == rank(onto) and red(card) != red(onto)


def is_run(cards: list[str]) -> bool:
    return all(fits_on(upper, lower) for lower, upper in pairwise(cards))


def column_number(pile: str) -> int:
    assert pile.startswith("t"), pile
    return int(pile[1:]) - 1


def check_conservation(game: Game) -> None:
    """Every card of the deck is somewhere, exactly once: 104 cards (52 for one deck)."""
    total = game.rules.card_count
    stock = list(game.deck)[total - game.stock_count :]
    places = [c for col in game.tableau for c in col]
    places += [c for pile in game.foundations for c in pile]
    places += list(game.reserve) + [c for c in game.cells if c is not None] + stock
    assert len(places) == total == len(game.deck)
    assert (
        sum(len(col) for col in game.tableau)
        + game.foundation_count
        + game.stock_count
        + len(game.reserve)
        + sum(c is not None for c in game.cells)
        == total
    )
    assert Counter(map(str, places)) == Counter(map(str, game.deck))
    assert Counter(map(str, game.deck)) == Counter(
        f"{r}{s}"
        for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")
        for s in SUIT_ORDER
        for _ in range(game.rules.decks)
    )
    # Foundations hold Ace upwards, in their own suit.
    for suit, pile in zip(game.foundation_suits, game.foundations, strict=True):
        assert [c.rank for c in pile] == list(range(1, len(pile) + 1))
        assert all(c.suit == suit for c in pile)


def check_effect(game: Game, move: Move, before: dict) -> None:
    """The position after ``move`` is what docs/rules.md §2 says that move does, and the move
    was allowed by docs/rules.md §2 in the position ``before``."""
    effect = _Effect(game, move, before)
    getattr(effect, _kind(move))()
    effect.nothing_else_changed()


def _kind(move: Move) -> str:
    """The name of the :class:`_Effect` method that checks this kind of move."""
    source, target = move.source, move.target
    if move.is_deal:
        return "deal"
    if source.startswith("t"):
        return {"t": "column_to_column", "f": "column_to_foundation", "r": "column_to_reserve",
                "c": "column_to_cell"}[target[0]]
    return {"r": "from_reserve", "f": "from_foundation", "c": "from_cell"}[source[0]]


class _Effect:
    """The checks of :func:`check_effect`, one method per kind of move."""

    def __init__(self, game: Game, move: Move, before: dict) -> None:
        self.game, self.move, self.rules = game, move, game.rules
        self.before, self.after = before, snapshot(game)
        self.tab0, self.tab1 = before["tableau"], self.after["tableau"]
        self.touched: set[str] = set()

    def onto(self, cards: list[str], col: int) -> None:
        """``cards`` were put on column ``col``: they must be a run that fits there (with Yukon
        moves any face-up group whose first card fits, docs/rules.md §3.11)."""
        move, tab0 = self.move, self.tab0
        assert self.rules.moves == "groups" or is_run(cards), (move, cards)
        if tab0[col]:
            assert fits_on(cards[0], tab0[col][-1]), (move, cards, tab0[col])
        elif self.rules.empty_column == "king":
            assert rank(cards[0]) == 13, (move, cards)
        assert self.tab1[col] == tab0[col] + cards, move
        self.touched.add(f"t{col}")

    def taken(self, col: int, k: int) -> list[str]:
        """The top ``k`` cards left column ``col``: they must be an available run (with Yukon
        moves, to a column: any face-up group), never a face-down card; if that uncovered a
        face-down card it turned up, and nothing else turned (docs/rules.md §3.10)."""
        move, tab0 = self.move, self.tab0
        assert k >= 1, move
        cards = tab0[col][-k:]
        down = self.before["face_down"][col]
        assert len(cards) == k and k <= len(tab0[col]) - down, (move, tab0[col], down, k)
        group = self.rules.moves == "groups" and move.target.startswith("t")
        assert group or is_run(cards), (move, tab0[col], k)
        assert self.tab1[col] == tab0[col][:-k], move
        left = len(tab0[col]) - k
        assert self.after["face_down"][col] == (down - 1 if down and left == down else down)
        self.touched.add(f"t{col}")
        return cards

    def home(self, card: str) -> None:
        before, after, move = self.before["foundations"], self.after["foundations"], self.move
        grown = [i for i, (p0, p1) in enumerate(zip(before, after, strict=True)) if p1 != p0]
        assert len(grown) == 1, move
        pile = grown[0]
        assert after[pile] == before[pile] + [card], move
        if move.target != "f":
            assert move.target == f"f{pile + 1}", move
        self.touched.add("foundations")

    def deal(self) -> None:
        before, after, tab0 = self.before, self.after, self.tab0
        n = min(len(tab0), before["stock"])
        assert n > 0 and after["stock"] == before["stock"] - n
        dealt = [str(c) for c in self.game.deck][self.rules.card_count - before["stock"] :][:n]
        for i in range(len(tab0)):
            assert self.tab1[i] == tab0[i] + ([dealt[i]] if i < n else []), self.move
        assert after["face_down"] == before["face_down"], "a deal never turns a card up"
        self.touched.update(f"t{i}" for i in range(len(tab0)))

    def column_to_column(self) -> None:
        src, dst = column_number(self.move.source), column_number(self.move.target)
        k = len(self.tab0[src]) - len(self.tab1[src])
        if self.move.count is not None:
            assert k == self.move.count, self.move
        # The top k cards of the source are now the top k cards of the target.
        self.onto(self.taken(src, k), dst)

    def column_to_foundation(self) -> None:
        self.home(self.taken(column_number(self.move.source), 1)[0])

    def column_to_reserve(self) -> None:
        rules, before, move = self.rules, self.before, self.move
        assert rules.reserve != "none" and not before["reserve"]
        if rules.reserve_opens == "stock-empty":
            assert before["stock"] == 0, "the reserve opens when the stock is empty"
        k = move.count or 1
        assert k == 1 or rules.reserve == "sequence"
        assert self.after["reserve"] == self.taken(column_number(move.source), k), move
        self.touched.add("reserve")

    def from_reserve(self) -> None:
        res0, res1, move = self.before["reserve"], self.after["reserve"], self.move
        k = len(res0) - len(res1)
        assert k >= 1 and res1 == res0[:-k], move
        self.touched.add("reserve")
        if self.rules.reserve_unload == "whole":
            assert k == len(res0), "the reserve gives back only its whole unit"
        if move.target.startswith("t"):
            self.onto(res0[-k:], column_number(move.target))
        else:
            assert move.target.startswith("f") and k == 1 and self.rules.reserve_to_foundation
            self.home(res0[-1])

    def from_foundation(self) -> None:
        move, takeback = self.move, self.rules.foundation_takeback
        pile = int(move.source[1:]) - 1
        stock_empty = self.before["stock"] == 0
        assert takeback == "always" or (takeback == "stock-empty" and stock_empty), move
        card = self.before["foundations"][pile][-1]
        assert self.after["foundations"][pile] == self.before["foundations"][pile][:-1]
        self.touched.add("foundations")
        self.onto([card], column_number(move.target))

    def column_to_cell(self) -> None:
        move, before, after = self.move, self.before["cells"], self.after["cells"]
        card = self.taken(column_number(move.source), 1)[0]
        filled = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(filled) == 1 and before[filled[0]] is None, move
        assert after[filled[0]] == card
        if move.target != "c":
            assert move.target == f"c{filled[0] + 1}"
        self.touched.add("cells")

    def from_cell(self) -> None:
        move = self.move
        cell = int(move.source[1:]) - 1
        card = self.before["cells"][cell]
        assert card is not None and self.after["cells"][cell] is None, move
        self.touched.add("cells")
        if move.target.startswith("t"):
            self.onto([card], column_number(move.target))
        else:
            self.home(card)

    def nothing_else_changed(self) -> None:
        move, before, after = self.move, self.before, self.after
        for i in range(len(self.tab0)):
            if f"t{i}" not in self.touched:
                assert self.tab1[i] == self.tab0[i], (move, i)
                assert after["face_down"][i] == before["face_down"][i], (move, i)
        for part in ("foundations", "reserve", "cells"):
            if part not in self.touched:
                assert after[part] == before[part], (move, part)
        if not move.is_deal:
            assert after["stock"] == before["stock"]


def run_length(cards: list[str]) -> int:
    """Cards in the alternating descending run at the end of ``cards``."""
    n = 1 if cards else 0
    while n < len(cards) and fits_on(cards[-n], cards[-n - 1]):
        n += 1
    return n


def signature(state: dict, move: Move) -> tuple:
    """(source, target, number of cards) for a move, any foundation written "f" and any
    cell "c"; a left-out count is read as the notation says: the run that fits on a
    non-empty column, the whole movable run for an empty one, one card elsewhere."""
    if move.is_deal:
        return ("stock", "tableau", 1)
    source, target = move.source, move.target
    target = "f" if target.startswith("f") else "c" if target.startswith("c") else target
    count = move.count
    if count is None and target.startswith("t"):
        onto = state["tableau"][column_number(target)]
        if source.startswith("t"):
            cards = face_up(state, column_number(source))
            count = run_length(cards)
            if state["groups"]:  # every face-up card, or the only one that fits
                if not onto:
                    return (source, target, len(cards))
                fits = [k for k in range(1, len(cards) + 1) if fits_on(cards[-k], onto[-1])]
                return (source, target, fits[0])
        elif source == "reserve":
            cards = state["reserve"]
            count = len(cards)
        else:
            cards, count = ["?"], 1
        if onto and count > 1:
            count = rank(onto[-1]) - rank(cards[-1])
    return (source, target, count or 1)


def expected_signatures(game: Game, state: dict) -> set[tuple]:
    """Every legal move by docs/rules.md §2 and the rule options (§3), worked out from scratch."""
    rules = _RulesAt(game, state)
    moves: set[tuple] = set()
    if state["stock"]:
        moves.add(("stock", "tableau", 1))
    for i in rules.columns:
        moves |= rules.column_moves(i)
    moves |= rules.reserve_moves()
    moves |= rules.takeback_and_cell_moves()
    return moves


class _RulesAt:
    """The rules, worked out from scratch, in the position ``state`` of ``game``."""

    def __init__(self, game: Game, state: dict) -> None:
        self.rules, self.state = game.rules, state
        self.tableau = state["tableau"]
        self.columns = range(len(self.tableau))
        self.found_tops: dict[str, list[int]] = {}
        for suit, pile in zip(game.foundation_suits, state["foundations"], strict=True):
            self.found_tops.setdefault(suit, []).append(len(pile))
        rules = self.rules
        self.reserve_open = (
            rules.reserve != "none"
            and not state["reserve"]
            and (rules.reserve_opens == "any-time" or state["stock"] == 0)
        )

    def goes_home(self, card: str) -> bool:
        return rank(card) - 1 in self.found_tops[Card.parse(card).suit]

    def can_take(self, cards: list[str], j: int) -> bool:
        """May column ``j`` take ``cards`` (a run, bottom card first)?"""
        if self.tableau[j]:
            return fits_on(cards[0], self.tableau[j][-1])
        return self.rules.empty_column == "any" or rank(cards[0]) == 13

    def column_moves(self, i: int) -> set[tuple]:
        col, moves, source = face_up(self.state, i), set(), f"t{i + 1}"
        if not col:
            return moves
        if self.goes_home(col[-1]):
            moves.add((source, "f", 1))
        groups = self.rules.moves == "groups"
        for k in range(1, (len(col) if groups else run_length(col)) + 1):
            moves.update(
                (source, f"t{j + 1}", k)
                for j in self.columns
                if j != i and self.can_take(col[-k:], j)
            )
        for k in range(1, run_length(col) + 1):
            if self.reserve_open and (k == 1 or self.rules.reserve == "sequence"):
                moves.add((source, "reserve", k))
        if None in self.state["cells"]:
            moves.add((source, "c", 1))
        return moves

    def reserve_moves(self) -> set[tuple]:
        reserve, rules, moves = self.state["reserve"], self.rules, set()
        if not reserve:
            return moves
        any_part = rules.reserve_unload == "any-part"
        for k in range(1, len(reserve) + 1) if any_part else [len(reserve)]:
            moves.update(
                ("reserve", f"t{j + 1}", k) for j in self.columns
                if self.can_take(reserve[-k:], j)
            )
        whole_or_single = any_part or len(reserve) == 1
        if rules.reserve_to_foundation and whole_or_single and self.goes_home(reserve[-1]):
            moves.add(("reserve", "f", 1))
        return moves

    def takeback_and_cell_moves(self) -> set[tuple]:
        takeback, moves = self.rules.foundation_takeback, set()
        if takeback == "always" or (takeback == "stock-empty" and self.state["stock"] == 0):
            for p, pile in enumerate(self.state["foundations"]):
                if pile:
                    moves.update(
                        (f"f{p + 1}", f"t{j + 1}", 1) for j in self.columns
                        if self.can_take(pile[-1:], j)
                    )
        for n, card in enumerate(self.state["cells"]):
            if card is not None:
                moves.update(
                    (f"c{n + 1}", f"t{j + 1}", 1) for j in self.columns
                    if self.can_take([card], j)
                )
                if self.goes_home(card):
                    moves.add((f"c{n + 1}", "f", 1))
        return moves


def step_check(game: Game, move: Move, before: dict) -> None:
    check_effect(game, move, before)
    check_conservation(game)


# ----------------------------------------------------------------------------- properties


@pytest.mark.parametrize("preset", ALL_PRESETS)
@PROPERTY_SETTINGS
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 150), bias=deal_bias)
def test_random_legal_play(preset, seed, walk_seed, steps, bias):
    """Cards are conserved; every generated move is accepted, explained as legal, unique,
    round-trips through its notation, is allowed by docs/rules.md §2 and does what it says."""
    game = Game.new(seed, preset)
    assert game.rules.name == preset
    rng = random.Random(walk_seed)
    check_conservation(game)
    assert len(game.tableau) == game.rules.columns
    assert len(game.foundations) == game.rules.foundation_count
    for step in range(steps):
        moves = game.legal_moves
        assert len(moves) == len(set(moves)), f"duplicate moves in {moves}"
        assert (Move.deal() in moves) == (game.stock_count > 0) == game.can_deal
        state = snapshot(game)
        generated = {signature(state, m) for m in moves}
        expected = expected_signatures(game, state)
        assert generated == expected, (
            f"generated but not legal: {generated - expected}; "
            f"legal but not generated: {expected - generated}"
        )
        for move in moves:
            assert Move.parse(str(move)) == move
            assert game.explain(move) is None, (move, game.explain(move))
            assert game.is_legal(move)
        if step % 5 == 0:  # now and then, play every legal move (and take it back)
            here, history, state = game.copy(), game.history, snapshot(game)
            for move in moves:
                game.play(move)
                step_check(game, move, state)
                assert game.undo() == move
                assert game == here and game.history == history
        if not moves:
            break
        move = choose(game, rng, bias)
        before = snapshot(game)
        assert game.play(move) == move
        assert game.history[-1] == move
        step_check(game, move, before)
        if game.status == "won":
            assert game.foundation_count == game.rules.card_count


@pytest.mark.parametrize("preset", ALL_PRESETS)
@PROPERTY_SETTINGS
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 150), bias=deal_bias)
def test_undo_and_redo_restore_every_position(preset, seed, walk_seed, steps, bias):
    game = Game.new(seed, preset)
    start = game.copy()
    positions = walk(game, random.Random(walk_seed), steps, bias)
    end, line = game.copy(), game.history
    assert len(line) == len(positions) - 1

    # replay() steps through exactly the positions that were reached.
    replayed = list(game.replay())
    assert [m for m, _ in replayed] == [None, *line]
    assert [p for _, p in replayed] == positions

    for ply in range(len(line), 0, -1):
        assert game.undo() == line[ply - 1]
        assert game == positions[ply - 1], f"undo to ply {ply - 1}"
        assert game.history == line[: ply - 1]
    assert game == start
    assert game.history == [] and not game.can_undo
    assert game.redo_moves == line
    with pytest.raises(IllegalMoveError):
        game.undo()

    for ply, move in enumerate(line, start=1):
        assert game.redo() == move
        assert game == positions[ply]
    assert game == end and game.history == line and not game.can_redo
    with pytest.raises(IllegalMoveError):
        game.redo()


@pytest.mark.parametrize("preset", ALL_PRESETS)
@PROPERTY_SETTINGS
@given(
    seed=deal_numbers,
    walk_seed=walk_seeds,
    steps=st.integers(0, 150),
    bias=deal_bias,
    back=st.integers(0, 20),
)
def test_json_round_trip(preset, seed, walk_seed, steps, bias, back):
    game = Game.new(seed, preset)
    rng = random.Random(walk_seed)
    walk(game, rng, steps, bias)
    for _ in range(min(back, len(game.history))):  # leave some moves to redo: not saved
        game.undo()
    if game.history:
        game.set_comment(f"comment on the last move, {len(game.history)}")
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded == game
    assert loaded.history == game.history
    assert loaded.comments == game.comments
    assert loaded.seed == game.seed == seed
    assert loaded.rules == game.rules and loaded.rules.name == preset
    assert [str(c) for c in loaded.deck] == [str(c) for c in game.deck]
    assert loaded.status == game.status
    assert sorted(map(str, loaded.legal_moves)) == sorted(map(str, game.legal_moves))
    assert loaded.position_key() == game.position_key()
    assert loaded.to_json() == text
    # The loaded game is fully alive: its moves can be undone to the deal.
    while loaded.can_undo:
        loaded.undo()
    assert loaded == Game.new(seed, preset)


@pytest.mark.parametrize("preset", ALL_PRESETS)
@PROPERTY_SETTINGS
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 120), bias=deal_bias)
def test_copy_is_independent(preset, seed, walk_seed, steps, bias):
    game = Game.new(seed, preset)
    rng = random.Random(walk_seed)
    walk(game, rng, steps // 2, bias)
    frozen, frozen_history, frozen_json = game.copy(), game.history, game.to_json()
    copy = game.copy()
    assert copy == game and copy.history == game.history
    assert copy.position_key() == game.position_key()

    # Playing and undoing on the copy leaves the original alone...
    walk(copy, rng, steps - steps // 2, bias)
    while copy.can_undo and len(copy.history) > len(frozen_history) // 2:
        copy.undo()
    assert game == frozen and game.history == frozen_history and game.to_json() == frozen_json
    assert not game.redo_moves

    # ... and the other way round.
    copied, copied_history = copy.copy(history=False), copy.history
    walk(game, rng, 20, bias)
    while game.can_undo:
        game.undo()
    assert copy == copied and copy.history == copied_history

    bare = frozen.copy(history=False)
    assert bare == frozen and bare.history == [] and not bare.can_undo


@pytest.mark.parametrize("preset", ALL_PRESETS)
@PROPERTY_SETTINGS
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 150), bias=deal_bias)
def test_position_key_is_the_players_notion_of_a_position(preset, seed, walk_seed, steps, bias):
    """Equal games have equal keys, and position_key() groups the positions of a line of
    play exactly as docs/rules.md §2.8's definition of "the same position" does."""
    game = Game.new(seed, preset)
    positions = walk(game, random.Random(walk_seed), steps, bias)
    for ply in range(0, len(positions), max(1, len(positions) // 8)):
        position = game.position_after(ply)
        assert position == positions[ply]
        assert position.position_key() == positions[ply].position_key()
        assert position.copy().position_key() == position.position_key()
        assert Game.from_json(position.to_json()).position_key() == position.position_key()

    by_engine: dict[tuple, set[int]] = {}
    by_rules: dict[tuple, set[int]] = {}
    for i, position in enumerate(positions):
        by_engine.setdefault(position.position_key(), set()).add(i)
        by_rules.setdefault(player_key(position), set()).add(i)
    assert sorted(map(sorted, by_engine.values())) == sorted(map(sorted, by_rules.values()))


def permuted_deck(deck: list[str], order: list[int]) -> list[str]:
    """The deck that deals column ``order[i]``'s cards to column ``i``."""
    rows = [deck[i : i + len(order)] for i in range(0, len(deck), len(order))]
    return [row[j] for row in rows for j in order]


def move_to_permuted(move: Move, inverse: list[int]) -> Move:
    def pile(name):
        return f"t{inverse[column_number(name)] + 1}" if name.startswith("t") else name

    if move.is_deal:
        return move
    return Move(pile(move.source), pile(move.target), move.count)


# A face-down deal gives column j j cards: its columns cannot be dealt in another order.
@pytest.mark.parametrize(
    "preset", [p for p in ALL_PRESETS if PRESETS[p].decks == 2 and PRESETS[p].deal == "open"]
)
@settings(max_examples=15, deadline=None)
@given(
    seed=deal_numbers,
    walk_seed=walk_seeds,
    steps=st.integers(0, 150),
    bias=deal_bias,
    order=st.permutations(range(8)),
)
def test_column_order_does_not_matter(preset, seed, walk_seed, steps, bias, order):
    """The same deal with its columns shuffled is the same game to a player: the same
    positions (position_key), the same moves (renumbered) and the same status."""
    game = Game.new(seed, preset)
    order = list(order)
    inverse = [order.index(i) for i in range(8)]
    twin = Game.from_deck(permuted_deck([str(c) for c in game.deck], order), preset)
    rng = random.Random(walk_seed)
    for _ in range(steps):
        assert twin.position_key() == game.position_key()
        assert sorted(str(move_to_permuted(m, inverse)) for m in game.legal_moves) == sorted(
            map(str, twin.legal_moves)
        )
        if not game.legal_moves:
            break
        move = choose(game, rng, bias)
        game.play(move)
        twin.play(move_to_permuted(move, inverse))
    assert twin.position_key() == game.position_key()
    assert twin.status == game.status


@pytest.mark.parametrize("preset", ALL_PRESETS)
@settings(max_examples=10, deadline=None)
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 150), bias=deal_bias)
def test_status_follows_the_rules(preset, seed, walk_seed, steps, bias):
    """won = every card home; lost = stock empty and no legal move reaches a position not
    already reached in the current line of play; otherwise playing."""
    game = Game.new(seed, preset)
    walk(game, random.Random(walk_seed), steps, bias)
    reached = {player_key(position) for _, position in game.replay()}
    if game.foundation_count == game.rules.card_count:
        expected = "won"
    elif game.stock_count:
        expected = "playing"
    else:
        new = []
        for move in game.legal_moves:
            after = game.copy()
            after.play(move)
            if player_key(after) not in reached:
                new.append(move)
        expected = "playing" if new else "lost"
        assert sorted(map(str, game.new_position_moves())) == sorted(map(str, new))
    assert game.status == expected
    assert game.is_over == (expected != "playing")


# ----------------------------------------------------------------------------- illegal moves

SOURCES = [
    *map(str, range(0, 10)),
    "r",
    "f",
    *(f"f{i}" for i in range(0, 10)),
    "c",
    *(f"c{i}" for i in range(0, 6)),
    "d",
    "x",
]
TARGETS = [
    *map(str, range(0, 10)),
    "r",
    "f",
    *(f"f{i}" for i in range(0, 10)),
    "c",
    *(f"c{i}" for i in range(0, 6)),
    "d",
    "",
]

structured_notation = st.builds(
    lambda src, count, dst: f"{src}{'' if count is None else f':{count}'}>{dst}",
    st.sampled_from(SOURCES),
    st.one_of(st.none(), st.integers(0, 15)),
    st.sampled_from(TARGETS),
)
loose_notation = st.text(alphabet="0123456789rfcdRFCD:> ", max_size=8)
notation = st.one_of(structured_notation, structured_notation, loose_notation, st.just("d"))


def assert_refused_cleanly(game: Game, text: str) -> None:
    """``text`` is either a legal move (played) or refused with a ValueError subclass,
    leaving the game exactly as it was."""
    before, before_history = game.copy(), game.history
    before_json, before_redo = game.to_json(), game.redo_moves
    try:
        move = Move.parse(text)
    except InvalidMoveError:
        with pytest.raises(InvalidMoveError):
            game.play(text)
        assert game == before and game.history == before_history
        return
    reason = game.explain(move)
    if reason is None:
        state = snapshot(game)
        game.play(text)
        step_check(game, move, state)
        return
    assert isinstance(reason, str) and reason
    with pytest.raises(IllegalMoveError) as refused:
        game.play(move)
    assert isinstance(refused.value, ValueError)
    assert str(refused.value) == reason
    assert game == before
    assert game.history == before_history
    assert game.redo_moves == before_redo
    assert game.to_json() == before_json
    with pytest.raises(IllegalMoveError):
        game.play(text)
    assert game == before and game.history == before_history


@pytest.mark.parametrize("preset", ALL_PRESETS)
@settings(max_examples=40, deadline=None)
@given(
    seed=deal_numbers,
    walk_seed=walk_seeds,
    steps=st.integers(0, 150),
    bias=deal_bias,
    tries=st.lists(notation, min_size=1, max_size=25),
)
def test_random_moves_are_played_or_refused_cleanly(preset, seed, walk_seed, steps, bias, tries):
    game = Game.new(seed, preset)
    walk(game, random.Random(walk_seed), steps, bias)
    if game.can_undo and walk_seed % 3 == 0:
        game.undo()  # a pending redo must survive a refused move
    for text in tries:
        assert_refused_cleanly(game, text)
        check_conservation(game)


def every_notation(game: Game) -> list[str]:
    """Every move text naming existing-looking piles, with and without a count."""
    cols = [str(i) for i in range(1, len(game.tableau) + 2)]
    founds = [f"f{i}" for i in range(1, len(game.foundations) + 2)]
    cells = [f"c{i}" for i in range(1, 6)]
    sources = [*cols, "r", *founds, *cells]
    targets = [*cols, "r", "f", *founds, "c", *cells]
    longest = max([len(c) for c in game.tableau] + [len(game.reserve)]) + 1
    counts = ["", *(f":{n}" for n in range(1, longest + 1))]
    return ["d"] + [f"{s}{n}>{t}" for s in sources for n in counts for t in targets]


@pytest.mark.parametrize("preset", ALL_PRESETS)
@settings(max_examples=6, deadline=None)
@given(seed=deal_numbers, walk_seed=walk_seeds, steps=st.integers(0, 150), bias=deal_bias)
def test_explain_agrees_with_play_and_legal_moves(preset, seed, walk_seed, steps, bias):
    """In a reached position, every move text is either refused (with explain's reason) or
    does what one of the generated legal moves does: legal_moves misses nothing."""
    game = Game.new(seed, preset)
    walk(game, random.Random(walk_seed), steps, bias)
    reachable = set()
    for move in game.legal_moves:
        after = game.copy(history=False)
        after.play(move)
        reachable.add(player_key(after))
    for text in every_notation(game):
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            continue
        reason = game.explain(move)
        if reason is None:
            after = game.copy(history=False)
            after.play(move)
            # "3>f8" and "3>f", or "1>c2" and "1>c", reach the same position to a player.
            assert player_key(after) in reachable, (
                f"{text} is legal but no generated move does the same"
            )
        else:
            with pytest.raises(IllegalMoveError, match=r".+"):
                game.copy().play(move)
