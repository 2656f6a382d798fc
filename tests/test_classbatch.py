"""The card engine's batch path (analyzer.core.classbatch: float64 blocks, and the
per-rank-multiset plan's batch) against the Python-integer product path shoe by shoe,
at its bounds, for every split it can choose, and against every ordered deal."""

from __future__ import annotations

import random
from math import perm

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Shoe, Solver, catalog
from analyzer.bets.catalog import parse_catalog
from analyzer.core.blocks import FLOAT_EXACT
from analyzer.core.errors import BetError
from analyzer.core import classbatch
from analyzer.core.classbatch import ClassBatchPlan, splits
from analyzer.core.reads import CARD_TABLE as _TABLE
from analyzer.core.ways import WaysTable

from helpers import CARD_CASES, product_path, varied_shoes

CARDS = [r + s for r in "A23456789TJQK" for s in "shdc"]
#: every catalog bet the card engine counts
CLASS_BETS = ["perfect9", "majestic_match_player", "majestic_match_banker", "monkey6", "monkey_tie",
              "grand_monkey", "all_red", "all_black", "contrast_bonus", "lucky_nines", "lucky_nines_binions",
              "jackpot", "lucky_match"]


@pytest.fixture(autouse=True)
def plans_at_once(monkeypatch):
    """Every batch here takes the plans, however few its shoes (see the last test)."""
    monkeypatch.setattr(classbatch, "PLAN_AFTER", 0)


def tab_for(bet_id):
    tabs = Solver(catalog().select([bet_id]))._class_tabs
    assert len(tabs) == 1
    return tabs[0]


def shoes(seed: int) -> list[Shoe]:
    """The per-rank-multiset tests' shoes (depleted, one suit, 10,000 decks), and shoes
    around the float64 bound."""
    return varied_shoes(seed) + [
        Shoe.from_counts({"Ah": 3, "Kh": 2, "Qh": 1, "Jh": 1, "9h": 2}),    # one suit, two nines
        Shoe.standard(6).remove("As Ah Ad Ac Ks Kh 9d 9d"),
        Shoe.from_counts({"9d": 20, "9s": 3, "Kd": 30, "5c": 1}),          # four ranks
        Shoe.from_counts({c: 9 for c in CARDS[:50]}),                     # 450 cards
        Shoe.from_counts({c: 9 for c in CARDS[:51]})]                     # 459: beyond the float bound


@pytest.fixture(scope="module")
def shoe_list():
    return shoes(7)


@pytest.mark.parametrize("bet_id", CLASS_BETS)
def test_batch_equals_the_python_integer_path(bet_id, shoe_list):
    tab = tab_for(bet_id)
    got = tab.ways_many(shoe_list, chunk=4)              # several chunks
    assert got == [product_path(tab, s) for s in shoe_list]
    by_rank = Shoe.from_counts({"9": 8, "K": 20, "5": 30})      # suits unknown: one at a time
    if tab._rank_uniform:
        assert tab.ways_many([by_rank, shoe_list[0]]) == [product_path(tab, by_rank), got[0]]
    else:
        with pytest.raises(BetError, match="suits are unknown"):
            tab.ways_many([shoe_list[0], by_rank])


@pytest.mark.parametrize("bet_id", CLASS_BETS)
def test_eight_decks_take_the_batch_path(bet_id):
    """The speed of a batch rests on every catalog bet's plan holding an 8-deck shoe;
    the plan's own bounds stop at 458 cards, where N (N-1) ... (N-5) passes 2**53."""
    tab = tab_for(bet_id)
    tab.ways_many([Shoe.standard(1)])                     # builds the plan
    table = tab.ways_table
    exact = table.rank_flush.float_exact if table.rank_flush is not None else table.class_batch().float_exact
    assert exact(416) and exact(458)
    if table.rank_flush is None:
        assert perm(459, 6) > FLOAT_EXACT and not exact(459) and not exact(5)


@pytest.mark.parametrize("bet_id", ["contrast_bonus", "all_red", "lucky_match", "majestic_match_player",
                                    "monkey6", "lucky_nines", "perfect9"])
def test_every_candidate_split_gives_the_same_counts(bet_id, shoe_list):
    """Whichever sides the plan chooses, the counts are the same: each candidate alone."""
    tab = tab_for(bet_id)
    coarse = bool(((tab.idx >= tab.k) & (tab.idx < tab.k + 10)).any())
    candidates = splits(tab.class_value, tab.rep[:-1], _TABLE, coarse)
    assert len(candidates) == (1 if coarse else 5)
    small = [s for s in shoe_list if s.suited and 6 <= s.cards <= 458]
    want = [product_path(tab, s) for s in small]
    onehot = (tab.classes[:, None] == np.arange(tab.k)[None, :]).astype(np.int64)
    ext = np.concatenate([np.array([s.card_tuple for s in small]) @ onehot,
                          np.array([s.value_counts + (s.cards,) for s in small])], axis=1)
    for hi in candidates:
        plan = ClassBatchPlan(tab.idx, tab.off, tab.coef, tab.k, [hi])
        assert all(plan.float_exact(s.cards) for s in small)
        assert plan.ways(ext).tolist() == want
        with pytest.raises(ValueError):
            plan.ways(ext[:1] * 10)                        # 10 times the cards: beyond the bound


#: the card cases whose oracle takes seconds, with the slow tests (.ci/run runs them)
SLOW_CARD_CASES = {"cards == 6 and not player_card3_face and banker_card3_face", "all(all, colour == red)",
                   "card5_rank == 8 or card6_suit == spades", "any(banker, colour == black) and winner == player"}


@pytest.mark.parametrize("text", [pytest.param(t, marks=pytest.mark.slow) if t in SLOW_CARD_CASES else t
                                  for t in CARD_CASES])
def test_batch_against_every_deal_of_a_small_shoe(small_tally, text):
    shoe, tally, deals = small_tally
    bet = parse_catalog(f'[[bet]]\nid = "x"\nevents = [{{ event = "e", when = "{text}", pays = 1 }}]\n', "t").bets["x"]
    solver = Solver([bet])
    many = solver.solve_many([shoe, Shoe.standard(1), shoe])
    assert many[0].bet("x").events[0].ways == many[2].bet("x").events[0].ways == tally[text][True], text
    assert many[0].deals == deals


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=52, max_size=52), st.sampled_from(CLASS_BETS))
def test_batch_ways_of_random_compositions_are_the_product_paths(counts, bet_id):
    """Random suited compositions (missing cards, ranks and suits; 0 to 156 cards)."""
    shoe_counts = {c: n for c, n in zip(CARDS, counts) if n}
    if sum(counts) < 6:
        return
    shoe = Shoe.from_counts(shoe_counts)
    tab = _TABS.get(bet_id) or _TABS.setdefault(bet_id, tab_for(bet_id))
    assert tab.ways_many([shoe, shoe]) == [product_path(tab, shoe)] * 2


_TABS: dict = {}


@pytest.mark.slow  # 8 s of CPU: in .ci/run's slow run (known cards and Gold batched: tests/test_fuzz_cells_known_groups.py in the default run)
@pytest.mark.parametrize("known", [None, {"1": "9h"}, {"2": "K", "5": "9d"}])
@pytest.mark.parametrize("rules", [None, "gold"])
def test_batches_with_known_cards_and_other_rules(known, rules):
    """Known cards change the card engine's classes and sequences (no per-rank-multiset
    plan), other rules its sequences: the batch equals one solve at a time."""
    from analyzer.core.known import parse_known
    from analyzer.core.rules import GOLD
    rng = random.Random(5)
    full = [c for c in CARDS for _ in range(8)]
    many = [Shoe.standard(8).remove(rng.sample(full, rng.randint(0, 300))) for _ in range(6)] + [Shoe.standard(9)]
    s = Solver(catalog().select(["all_red", "monkey6", "lucky_nines", "jackpot", "contrast_bonus", "lucky_match"]),
               rules=GOLD if rules else None, known=parse_known(known) if known else None)
    assert s.solve_many(many) == [s.solve(x) for x in many]


def test_a_plan_is_built_once_enough_shoes_were_batched(monkeypatch):
    monkeypatch.setattr(classbatch, "PLAN_AFTER", 10)
    tab = tab_for("all_red")
    t = tab.ways_table
    table = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)       # the tabulation is cached: a new table
    shoes_ = [Shoe.standard(8).remove(c) for c in CARDS[:12]]
    rows = [tab.class_counts(s) + list(s.value_counts) + [s.cards] for s in shoes_]
    first = table.ways_many(rows[:6])
    assert "class_batch" not in table.built()                     # 6 shoes: one at a time
    assert table.ways_many(rows[6:]) == [product_path(tab, s) for s in shoes_[6:]]
    assert "class_batch" in table.built()                         # 12: the plan
    assert first == [product_path(tab, s) for s in shoes_[:6]]


def test_a_table_beyond_the_plans_multisets_is_batched_in_int64_and_refused_in_float64(monkeypatch):
    """A float64 batch plan's build grows faster than the table (80 s and 4.4 GB for a
    table of 4 million multisets, found by tests/test_differential.py): beyond
    ``CLASS_BATCH_MAX`` multisets none is built; ``"auto"`` counts in int64, and
    ``"float64"`` refuses in one line rather than build it."""
    from analyzer.core import ways
    tab = tab_for("all_red")
    t = tab.ways_table
    monkeypatch.setattr(ways, "CLASS_BATCH_MAX", t.coef.shape[1] - 1)
    table = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)
    shoes_ = [Shoe.standard(8).remove(c) for c in CARDS[:6]]
    rows = [tab.class_counts(s) + list(s.value_counts) + [s.cards] for s in shoes_]
    assert table.ways_many(rows) == [product_path(tab, s) for s in shoes_]
    assert "class_batch" not in table.built()
    with pytest.raises(BetError, match=f"table of {t.coef.shape[1]:,} class multisets is beyond the float64 batch plan"):
        table.ways_many(rows, backend="float64")
    monkeypatch.setattr(ways, "CLASS_BATCH_MAX", t.coef.shape[1])      # at the limit: built
    assert table.ways_many(rows, backend="float64") == [product_path(tab, s) for s in shoes_]
    assert "class_batch" in table.built()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 8), st.integers(-70_000, 70_000), st.integers(1, 70_000),
       st.integers(0, 2**32))
def test_unique_rows_is_numpys_unique_of_rows(n, width, lo, spread, seed):
    # unique_rows maps a small range of values by a table (no sort of every element) and
    # a wide one by np.unique: both must be np.unique(rows, axis=0, return_inverse=True)
    from analyzer.core.blocks import unique_rows

    rows = np.random.default_rng(seed).integers(lo, lo + spread, size=(n, width))
    rows[n // 2:] = rows[: n - n // 2]  # repeated rows
    u, inv = unique_rows(rows)
    eu, einv = np.unique(rows, axis=0, return_inverse=True)
    assert u.tolist() == eu.tolist() and inv.tolist() == einv.ravel().tolist()


class DictStore:
    """A store of arrays in memory (the interface of analyzer.io.cache.TableCache)."""

    def __init__(self):
        self.saved: dict = {}

    def load(self, key):
        return dict(self.saved[key]) if key in self.saved else None

    def save(self, key, arrays):
        self.saved[key] = {n: np.array(a) for n, a in arrays.items()}


@pytest.mark.parametrize("bet_id", ["contrast_bonus", "all_red", "monkey6"])
def test_a_kept_plan_is_loaded_by_a_new_table_and_counts_from_its_first_shoe(monkeypatch, bet_id):
    """A plan saved by one table is loaded by another (a later process) before any shoe was
    batched, and counts as the built one does."""
    monkeypatch.setattr(classbatch, "PLAN_AFTER", 10**9)                 # never built for its shoes
    tab = tab_for(bet_id)
    t, store = tab.ways_table, DictStore()
    shoes_ = [Shoe.standard(8).remove(c) for c in CARDS[:5]] + [Shoe.standard(1)]
    rows = [tab.class_counts(s) + list(s.value_counts) + [s.cards] for s in shoes_]
    first = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)
    first.keep_plans_in(store, "plan")
    first.class_batch()                                                 # built, and saved
    assert list(store.saved) == ["plan"]
    later = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)
    later.keep_plans_in(store, "plan")
    assert later.ways_many(rows) == [product_path(tab, s) for s in shoes_]
    assert "class_batch" in later.built()                               # loaded, not counted one by one
    plan = later.class_batch()
    assert ClassBatchPlan.from_arrays(plan.arrays(), t.coef, t.k).arrays().keys() == plan.arrays().keys()


def _damaged(arrays, name, change):
    out = {n: np.array(a) for n, a in arrays.items()}
    out[name] = change(out[name])
    return out


def _one_more(a):
    a = a.copy()
    a.flat[len(a.flat) // 2] += 1
    return a


@pytest.mark.parametrize("name, change", [
    ("block_layout", _one_more),                                       # a coefficient
    ("half_off", _one_more),                                           # a factor's offset
    ("half_idx", _one_more),                                           # a factor's count
    ("block_i1", lambda a: a[::-1].copy()),                            # parts swapped
    ("block_i2", lambda a: a - 1),                                     # a part before the first
    ("bounds", lambda a: a // 2),                                      # a bound too low
    ("meta", lambda a: a + 1),                                         # another table's
    ("block_events", lambda a: a[:-1]),                                # an array cut short
    ("block_layout", lambda a: a.astype(np.float32)),                  # another type
])
def test_a_damaged_kept_plan_is_built_again(name, change):
    """A stored plan is checked (its arrays, its coefficients' sums, its count of one shoe)
    before use; a damaged one is ignored, built again and saved over."""
    tab = tab_for("all_red")
    t, store = tab.ways_table, DictStore()
    first = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)
    first.keep_plans_in(store, "plan")
    good = first.class_batch().arrays()
    store.saved["plan"] = _damaged(good, name, change)
    later = WaysTable(t.coef, t.idx, t.off, t.k, t.classes)
    later.keep_plans_in(store, "plan")
    shoes_ = [Shoe.standard(8).remove(c) for c in CARDS[:3]]
    rows = [tab.class_counts(s) + list(s.value_counts) + [s.cards] for s in shoes_]
    assert later.ways_many(rows, backend="float64") == [product_path(tab, s) for s in shoes_]
    assert all(np.array_equal(store.saved["plan"][n], good[n]) for n in good)   # rebuilt and saved
