"""The package's own PySolFC shuffles against pysol-cards and PySolFC's dealt layouts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from milligan_widget import Game, deal_order
from milligan_widget.engine.cards import CARDS, full_deck
from milligan_widget.engine.deals import deal_codes, lcg_shuffle, mt_shuffle

pysol_random = pytest.importorskip("pysol_cards.random")

LAYOUT_FILES = [
    Path(__file__).parent / "data" / "pysolfc-deals.json",
    Path(__file__).parents[2] / "shared" / "pysolfc-deals.json",
]
LAYOUTS = [
    pytest.param(deal, id=f"{path.parent.name}-{deal['number']}")
    for path in LAYOUT_FILES
    if path.exists()
    for deal in json.loads(path.read_text())["deals"]
]
LARGE = [31999, 32000, 32001, 10**6, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 10**12, 10**20 - 1]
DECKS = [pytest.param(2, id="two-decks"), pytest.param(1, id="one-deck")]


def pysol_cards_codes(number: int, decks: int) -> list[int]:
    """Deal ``number`` as PySolFC deals it, through pysol-cards' generators."""
    cards = full_deck(decks)
    generator = pysol_random.LCRandom31 if number < 32000 else pysol_random.MTRandom
    generator(number).shuffle(cards)
    cards.reverse()
    return cards


@pytest.mark.parametrize("decks", DECKS)
def test_deals_1_to_2000_match_pysol_cards(decks):
    mismatched = [n for n in range(1, 2001) if deal_codes(n, decks) != pysol_cards_codes(n, decks)]
    assert mismatched == []


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("number", LARGE)
def test_large_deals_match_pysol_cards(number, decks):
    assert deal_codes(number, decks) == pysol_cards_codes(number, decks)


@pytest.mark.skipif(not LAYOUTS, reason="no PySolFC layout files")
@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("deal", LAYOUTS)
def test_pysolfc_layouts(deal, decks):
    number = int(deal["number"])
    assert (number < 32000) == (deal["rng"] == "LCRandom31")
    codes = deal_codes(number, decks)
    assert codes == pysol_cards_codes(number, decks)
    if decks == 2:
        assert [str(c) for c in deal_order(number)] == deal["deal_order"]
    rules = "classic" if decks == 2 else "little-milligan"
    assert list(Game.new(number, rules).deck) == [CARDS[c] for c in codes]


def test_every_deal_is_a_permutation_of_the_decks():
    for decks in (1, 2):
        for number in (1, 31999, 32000, 10**20 - 1):
            assert sorted(deal_codes(number, decks)) == sorted(full_deck(decks))


def test_lcg_is_microsoft_rand():
    """The first draws of MS rand() seeded with 1 are 41, 18467, 6334, 26500 (mod n + 1)."""
    items = list(range(5))
    # n = 4: 41 % 5 = 1; n = 3: 18467 % 4 = 3; n = 2: 6334 % 3 = 1; n = 1: 26500 % 2 = 0
    expected = [0, 1, 2, 3, 4]
    for n, j in ((4, 1), (3, 3), (2, 1), (1, 0)):
        expected[n], expected[j] = expected[j], expected[n]
    assert lcg_shuffle(items, 1) == expected


def test_lcg_refuses_seeds_it_does_not_model():
    for bad in (0, 2**31):
        with pytest.raises(ValueError):
            lcg_shuffle([1, 2, 3], bad)


def _mt19937_floats(seed: int, count: int) -> list[float]:
    """MT19937 (Matsumoto & Nishimura, init_by_array, genrand_res53) written from the paper."""
    mask = 0xFFFFFFFF
    state = [19650218]
    for i in range(1, 624):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & mask)
    key = []
    seed = abs(seed)
    while True:
        key.append(seed & mask)
        seed >>= 32
        if not seed:
            break
    i, j = 1, 0
    for _ in range(max(624, len(key))):
        prev = state[i - 1]
        state[i] = ((state[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & mask
        i, j = i + 1, (j + 1) % len(key)
        if i == 624:
            state[0], i = state[623], 1
    for _ in range(623):
        prev = state[i - 1]
        state[i] = ((state[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & mask
        i += 1
        if i == 624:
            state[0], i = state[623], 1
    state[0] = 0x80000000
    words = []
    index = 624
    while len(words) < 2 * count:
        if index == 624:
            for k in range(624):
                y = (state[k] & 0x80000000) | (state[(k + 1) % 624] & 0x7FFFFFFF)
                state[k] = state[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            index = 0
        y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        words.append(y ^ (y >> 18))
    return [((a >> 5) * 67108864 + (b >> 6)) / 9007199254740992.0
            for a, b in zip(words[::2], words[1::2], strict=True)]


@pytest.mark.parametrize("seed", [32000, 2**32 - 1, 2**32, 10**20 - 1])
def test_mt_shuffle_is_mt19937(seed):
    """The standard library's generator is the published MT19937, so the MT deals do not
    depend on pysol-cards' or PySolFC's code (an independent check of mt_shuffle)."""
    floats = _mt19937_floats(seed, 103)
    generator = random.Random(seed)
    assert [generator.random() for _ in range(103)] == floats
    expected = list(range(104))
    for n, x in zip(range(103, 0, -1), floats, strict=True):
        j = int(x * (n + 1))
        expected[n], expected[j] = expected[j], expected[n]
    assert mt_shuffle(list(range(104)), seed) == expected


def test_the_package_deals_without_pysol_cards():
    code = (
        "import sys; sys.modules['pysol_cards'] = None\n"
        "import milligan_widget\n"
        "print(milligan_widget.Game.new(123456789).deck[0], milligan_widget.deal_order(1)[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2S", "3D"]
