"""The compiled search core agrees with the pure-Python reference, for every preset.

Random legal play drives both cores (and a ``Game``) side by side; at every step they must
agree on the legal moves and their action records, the scores, keys, ranks, safe auto moves,
the state after each move and after its undo, and the children a best-first search expands.
The solver on the compiled core must search exactly as on the Python one, agree with an
exhaustive search on small positions, and its wins must replay through ``Game``.
"""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from milligan_widget import Game
from milligan_widget.core import AVAILABLE, BACKEND, DONE, ENDGAME, WIN, key_set, make_core
from milligan_widget.engine.deadlock import applies as trap_test_applies
from milligan_widget.engine.moves import DEAL
from milligan_widget.engine.rules import PRESETS
from milligan_widget.search.solver import MAX_DEPTH, TRAP_PAYS, TRAP_ROWS, WINNABLE, solve
from tests.test_solver import agree_with_exhaustive, assert_wins, small_endgame

needs_c = pytest.mark.skipif("c" not in AVAILABLE, reason="the C extension is not built")


def test_the_compiled_core_is_built_wherever_it_can_be():
    """The tests above skip without the extension; that is only right where it cannot be
    built (no compiler, or a pure build asked for), never because the build broke."""
    import shutil
    import sysconfig

    linker = (sysconfig.get_config_var("LDSHARED") or "").split()[:1]
    can_build = bool(linker) and shutil.which(linker[0]) is not None
    if can_build and not os.environ.get("MILLIGAN_WIDGET_PURE"):
        assert "c" in AVAILABLE, "a C compiler is here but the search core was not built"


ROOT = Path(__file__).resolve().parent.parent
RULES = list(PRESETS)  # every preset, and any added later
# A game of random play does not shrink to anything smaller worth the minutes it takes: a
# failure is shown as it was found (its seed and the step it failed at are in the report).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def small_endgame_fits(rules: str) -> bool:
    """Can tests.test_solver.small_endgame stage a position under these rules?"""
    r = PRESETS[rules]
    return r.decks == 2 and r.deal == "open"


def records(core, handles):
    """Action records, a deal's without the runs before it (the C core does not keep them)."""
    out = []
    for handle in handles:
        record = core.record(handle)
        if record[0] == 2:
            record = record[:2]
        elif record[0] == 10 and record[1][0] == 2:
            record = (10, record[1][:2], record[2])
        out.append(record)
    return out


def measures(core) -> tuple:
    key = core.key()  # first: the rank reads the position of the last key
    return (
        key,
        core.endgame_rank(),
        core.breaks(),
        core.won(),
        core.cards_home(),
        core.stock_left(),
        core.rows_left(),
        core.state(),
        core.shape(),
    )


def assert_same(c, p) -> None:
    assert measures(c) == measures(p)
    assert c.trapped_cards() == p.trapped_cards() and c.trapped() == p.trapped()
    cm, pm = c.moves(), p.moves()
    assert [c.move_of(h) for h in cm] == [p.move_of(h) for h in pm]
    assert records(c, cm) == records(p, pm)
    for deal_score in (-100, 5):
        cs, ps = c.scored_moves(deal_score), p.scored_moves(deal_score)
        assert [(s, c.move_of(h)) for s, h in cs] == [(s, p.move_of(h)) for s, h in ps]


def assert_moves_play_alike(c, p, game: Game) -> None:
    """Every legal move: the same position after it (as Game.play gives it), then after undo."""
    before = c.state()
    for ch, ph in zip(c.moves(), p.moves(), strict=True):
        c.play(ch)
        p.play(ph)
        after = game.copy(history=False)
        after.play(c.move_of(ch))
        assert c.state() == p.state()
        turned = sum(after.face_down) < sum(game.face_down)
        assert c.turns_up(ch) == p.turns_up(ph) == turned
        assert piles(c.state()) == piles(make_core(after, "python").state())
        assert c.key() == p.key() and c.endgame_rank() == p.endgame_rank()
        c.undo(ch)
        p.undo(ph)
        assert c.state() == p.state() == before


def assert_auto_alike(c, p) -> None:
    before = c.state()
    ca, pa = c.auto_moves(), p.auto_moves()
    assert [c.move_of(h) for h in ca] == [p.move_of(h) for h in pa]
    assert records(c, ca) == records(p, pa)
    assert measures(c) == measures(p)
    c.undo_all(ca)
    p.undo_all(pa)
    assert c.state() == p.state() == before


def piles(state: tuple) -> tuple:
    """Columns, foundations, reserve, cells and stock of a core's state."""
    return state[0], state[1], state[3], state[4], state[6]


def assert_expand_alike(c, p, noise_seed: int | None, weight: int) -> None:
    """The children a best-first search sees: keys, ranks, how each is reached, its state."""
    results = []
    for core in (c, p):
        start = core.snapshot()
        noise = random.Random(noise_seed).random if noise_seed is not None else None
        parents: dict = {("root",): None}
        won, children = core.expand(("root",), parents, set(), -100, noise, weight, True)
        paths = {
            key: tuple(core.move_of(h) for h in value[1])
            for key, value in parents.items()
            if value is not None
        }
        shown = []
        for rank, key, snap in children:
            core.restore(snap)
            shown.append((rank, key, core.state()))
        results.append((won, paths, shown))
        core.restore(start)
    assert results[0] == results[1]


def random_play(start: Game, steps: int, rng: random.Random, dealing: float = 0.12) -> None:
    c, p = make_core(start, "c"), make_core(start, "python")
    game = start.copy(history=False)
    for step in range(steps):
        assert_same(c, p)
        if step % 5 == 0:
            assert_moves_play_alike(c, p, game)
        if step % 3 == 0:
            assert_auto_alike(c, p)
        if step % 7 == 0:
            assert_expand_alike(c, p, step if step % 2 else None, step % 3 * 40)
            assert c.state() == p.state()
        cm, pm = c.moves(), p.moves()
        if not cm:
            break
        deals = [i for i, h in enumerate(cm) if c.is_deal(h)]
        others = [i for i in range(len(cm)) if i not in deals]
        pick = deals[0] if deals and (not others or rng.random() < dealing) else rng.choice(others)
        c.play(cm[pick])
        p.play(pm[pick])
        game.play(c.move_of(cm[pick]))
        if rng.random() < 0.5:
            c.auto_moves()
            for handle in p.auto_moves():
                game.play(p.move_of(handle))
        assert piles(c.state()) == piles(make_core(game, "python").state())


@needs_c
@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=4, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(1, 10**9), moves=st.randoms(use_true_random=False))
def test_random_play_agrees_at_every_step(rules, seed, moves):
    random_play(Game.new(seed, rules), 160, moves)
    random_play(Game.new(seed, rules), 160, moves, dealing=0.6)  # to the endgame sooner


@needs_c
@pytest.mark.parametrize("rules", [r for r in RULES if small_endgame_fits(r)])
@settings(max_examples=6, deadline=None, phases=NO_SHRINK)
@given(moves=st.randoms(use_true_random=False))
def test_random_play_in_small_endgames_agrees(rules, moves):
    """Endgames with the reserve open and a few cards left: setting aside, unloading (all
    or part), a reserve card home, take-backs, cells."""
    random_play(small_endgame(moves, rules, tight=moves.random() < 0.5), 120, moves)


def late_in_the_deal(start: Game, rng: random.Random) -> Game:
    """``start`` after random play (dealing often) until a few rows are left to deal, or
    none: where the depth-first walk reaches endgames and the trapped-card test."""
    game, rows = start.copy(history=False), rng.randint(0, 6)
    while game.stock_left > rows * game.rules.columns and game.legal_moves:
        moves = game.legal_moves
        deals = [m for m in moves if m == DEAL]
        game.play(deals[0] if deals and rng.random() < 0.4 else rng.choice(moves))
    return game


def walk_alike(start: Game, rng: random.Random, steps: int = 40) -> None:
    """The depth-first walks of both cores step alike from ``start`` (the solver's walk, see
    :meth:`PyWalk.step`): the same statuses and positions, endgame entries, lines to a win,
    trapped-card verdicts and statistics, and the same board after every step."""
    cores = make_core(start, "c"), make_core(start, "python")
    noise_seed = rng.choice((None, rng.randrange(100)))
    noises = [None if noise_seed is None else random.Random(noise_seed).random for _ in cores]
    trap_rows = TRAP_ROWS if trap_test_applies(cores[1]) else -1
    limits = trap_rows, rng.choice((2, TRAP_PAYS)), rng.choice((MAX_DEPTH, 5))
    losts = (key_set("c") if rng.random() < 0.5 else set()), set()
    deal_score = rng.choice((-100, 5))
    walks = [
        core.walk(lost, deal_score, noise, *limits)
        for core, lost, noise in zip(cores, losts, noises, strict=True)
    ]
    for _ in range(steps):
        if not step_alike(start, cores, walks, losts, rng):
            break
    assert walks[0].trapped_positions == walks[1].trapped_positions
    assert len(losts[0]) == len(losts[1])


def step_alike(start: Game, cores, walks, losts, rng: random.Random) -> bool:
    """One step of both walks alike; endgames are judged lost at once, some of them joining
    the lost positions the walk skips. False once won."""
    max_ticks = rng.randint(1, 40)
    status = [walk.step(max_ticks) for walk in walks]
    assert status[0] == status[1]
    assert cores[0].state() == cores[1].state()
    if status[1][0] == ENDGAME:
        entry = [walk.entry() for walk in walks]
        assert entry[0] == entry[1] == cores[1].key()
        if rng.random() < 0.3:
            for lost in losts:
                lost.add(entry[1])
        for walk in walks:
            walk.judge()
    elif status[1][0] == WIN:
        lines = [[c.move_of(h) for h in walk.line()] for c, walk in zip(cores, walks, strict=True)]
        assert lines[0] == lines[1]
        assert_wins(start, lines[1])
        return False
    elif status[1][0] == DONE:
        assert walks[0].too_deep == walks[1].too_deep
        for walk in walks:
            walk.start()
    elif rng.random() < 0.2:  # the beam asks the test of the positions it keeps
        key = cores[1].key()
        assert walks[0].trapped(key) == walks[1].trapped(key)
    assert cores[0].state() == cores[1].state()
    return True


@needs_c
@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=5, deadline=None, phases=NO_SHRINK)
@given(seed=st.integers(1, 10**9), moves=st.randoms(use_true_random=False))
def test_the_depth_first_walk_steps_alike_on_both_cores(rules, seed, moves):
    walk_alike(late_in_the_deal(Game.new(seed, rules), moves), moves)


@needs_c
@pytest.mark.parametrize("rules", RULES)
def test_a_snapshot_restores_exactly(rules):
    game = Game.new(5, rules)
    c = make_core(game, "c")
    snap = c.snapshot()
    for handle in c.moves()[:3]:
        c.play(handle)
        c.restore(snap)
    assert c.state() == make_core(game, "python").state()


@needs_c
@pytest.mark.parametrize("rules", RULES)
def test_the_solver_searches_alike_on_both_cores(rules):
    """Same positions, same verdict, same line, same statistics, move for move."""
    for deal in (1, 2):
        game = Game.new(deal, rules)
        c = solve(game, time_limit=600, node_limit=3000, backend="c")
        p = solve(game, time_limit=600, node_limit=3000, backend="python")
        assert (c.status, c.moves, c.nodes, c.stats) == (p.status, p.moves, p.nodes, p.stats)
        if c.status == WINNABLE:
            assert_wins(game, c.moves)


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize(
    "rules", ["classic", "strict", "single-card", "millie", "imperial-guards", "milligan-cell"]
)
def test_verdicts_agree_with_exhaustive_search_on_each_backend(rules, backend):
    rng = random.Random(f"core {rules}")
    agree_with_exhaustive((small_endgame(rng, rules, tight=i % 2 == 0) for i in range(8)), backend)


@needs_c
@pytest.mark.parametrize("rules", RULES)
def test_c_wins_replay_through_game(rules):
    for deal in (8, 3):
        game = Game.new(deal, rules)
        result = solve(game, time_limit=3, backend="c")
        if result.status == WINNABLE:
            assert_wins(game, result.moves)


def test_the_backend_is_named_and_the_environment_can_force_the_fallback():
    from milligan_widget.search import solver

    assert solver.backend == BACKEND and BACKEND in AVAILABLE
    assert AVAILABLE[-1] == "python"  # the fallback is always there
    code = "import milligan_widget.search.solver as s; print(s.backend)"
    env = dict(os.environ, MILLIGAN_WIDGET_BACKEND="python", PYTHONPATH=str(ROOT))
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert shown.stdout.strip() == "python", shown.stderr
    with pytest.raises(ValueError, match="not available"):
        make_core(Game.new(1), "fortran")


def test_without_the_extension_the_pure_core_runs():
    """Where the extension cannot load (Pyodide, no compiler), the package falls back."""
    code = (
        "import sys; sys.modules['milligan_widget.core._ccore'] = None\n"
        "from milligan_widget import Game\nfrom milligan_widget.search import solver\n"
        "from milligan_widget.core import AVAILABLE\n"
        "r = solver.solve(Game.new(8), time_limit=30)\n"
        "print(solver.backend, AVAILABLE, r.status)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("MILLIGAN_WIDGET_BACKEND", None)
    shown = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert shown.stdout.split() == ["python", "('python',)", "winnable"], shown.stderr


@needs_c
def test_the_extension_is_built_from_the_current_source():
    from milligan_widget.core import _ccore

    source = ROOT / "milligan_widget" / "core" / "_ccore.c"
    built = Path(_ccore.__file__)
    if source.exists() and built.parent == source.parent:
        assert built.stat().st_mtime >= source.stat().st_mtime, (
            "the C core is older than its source: run `python hatch_build.py`"
        )


@needs_c
def test_the_compiled_key_set_acts_as_a_set_of_keys():
    from milligan_widget.core import key_set

    lost, reference = key_set("c"), key_set("python")
    keys = [make_core(Game.new(seed, "millie"), "c").key() for seed in range(1, 30)]
    for key in keys[:10]:
        lost.add(key)
        reference.add(key)
    lost.update(keys[5:20])
    reference.update(keys[5:20])
    assert len(lost) == len(reference) == len(set(keys[:20]))
    assert [k in lost for k in keys] == [k in reference for k in keys]
    assert (b"x", 0) not in lost and "not a key" not in lost


def forgeries(handle: int) -> list[int]:
    """Handles no position gives, made from a real one: piles and counts past any board, a
    kind that does not exist, bits past the record, and ints that are no handle at all."""
    return [
        handle | 127 << 5,  # a: pile 127
        handle | 127 << 12,  # b: pile 127
        handle | 127 << 19,  # k: 127 cards
        (handle & ~15) | 10,  # kind 10 is a turn-up's record, never a handle
        handle | 1 << 4,  # a turn-up where nothing is face down
        handle | 1 << 60,
        2**64 - 1,
        0,
    ]


@needs_c
@pytest.mark.parametrize("rules", RULES)
def test_a_forged_handle_is_refused_and_changes_nothing(rules):
    core = make_core(Game.new(3, rules), "c")
    core.play(core.deal_move())
    before, moves = core.state(), core.moves()
    for handle in moves:
        for forged in forgeries(handle):
            if forged in moves:
                continue
            with pytest.raises(ValueError, match="not a move of this position"):
                core.play(forged)
            with pytest.raises(ValueError, match="not the move that led to this position"):
                core.undo(forged)
            assert core.state() == before, (hex(handle), hex(forged))
    for not_a_handle in (-1, -(2**70), 2**64):
        with pytest.raises(ValueError, match="not a move handle"):
            core.play(not_a_handle)


@needs_c
def test_a_stale_handle_is_refused():
    core = make_core(Game.new(3), "c")
    first_row = core.deal_move()
    with pytest.raises(ValueError, match="not the move that led"):
        core.undo(first_row)  # nothing dealt yet
    while core.stock_left():
        core.play(core.deal_move())
    emptied = core.state()
    with pytest.raises(ValueError, match="not a move of this position"):
        core.play(first_row)  # would deal past the end of the stock
    assert core.state() == emptied


@needs_c
def test_undo_all_takes_back_all_or_nothing():
    core = make_core(Game.new(3), "c")
    deal = core.deal_move()
    core.play(deal)
    dealt = core.state()
    with pytest.raises(ValueError, match="not the move that led"):
        core.undo_all([deal | 127 << 19, deal])  # the deal is taken back, then the forgery
    assert core.state() == dealt
    core.undo_all([deal])
    assert core.state() == make_core(Game.new(3), "c").state()


@needs_c
def test_a_key_set_refuses_what_is_not_a_key():
    lost = key_set("c")
    too_long = (b"x" * 501, 0)
    with pytest.raises(ValueError, match="not a key of a position"):
        lost.add(too_long)
    with pytest.raises(ValueError, match="not a key of a position"):
        lost.update([(b"x", 1), too_long])
    with pytest.raises(ValueError, match="not a key of a position"):
        lost.add((b"x", 256))
    assert too_long not in lost and len(lost) == 1  # update adds in order, up to the bad key
    lost.add((b"x" * 500, 0))
    assert (b"x" * 500, 0) in lost
