"""``check``'s counter is the core's evaluator: its ways of every cell
equal the core's Python-integer reference, compiled independently from the cells' masks, and a
brute-force walk of the deals, on seeded random shoes of every size (small shoes, 8-deck shoes, shoes
between the float64 and int64 bounds, a 10,000-deck shoe beyond the int64 bound), under every back
end that can count them exactly; the others refuse."""

import numpy as np
import pytest

import oracle
from analyzer import Shoe
from analyzer.core.backend import BACKENDS
from analyzer.core.engine import POSITIONS, Tabulation, coup_table, falling
from analyzer.core.errors import BetError
from analyzer.core.rules import GOLD
from analyzer.simcheck.check import _select_bets
from analyzer.simcheck.families import build_families, counter_for

FAMILY_SETS = [
    (None, ("player", "banker", "tie"), ("outcome", "cards", "totals")),
    (None, ("dragon7", "panda8", "ez_banker"), ("outcome", "cards", "totals")),
    (None, ("dragon7",), ("outcome",)),
    (GOLD.with_player_option("draw"), ("player", "banker", "tie"), ("outcome", "cards", "totals")),
]


def _families(rules, bets, cats):
    return build_families(_select_bets(bets, None), cats, rules)


def _reference(fams, rows):
    """The core's Python-integer ways of every cell, compiled from one mask per cell (not
    ``Tabulation.grouped``, which the counter uses)."""
    table = coup_table(fams[0].rules)
    masks = [fam.code == j for fam in fams for j in range(fam.cells)]
    return Tabulation(masks, table).ways_many([list(map(int, r)) for r in rows], backend="python")


def _shoes(rng, decks: int, count: int) -> np.ndarray:
    """``count`` value counts of ``decks``-deck shoes, some cards dealt (the first the full shoe)."""
    full = np.array(Shoe.standard(decks).value_counts, dtype=np.int64)
    vc = np.maximum(full - rng.integers(0, 4 * decks + 1, (count, 10)), 0)
    vc[0] = full
    return vc


def _small(rng, count: int) -> np.ndarray:
    """Small shoes: a few cards of each value, values missing, fewer cards than positions."""
    vc = rng.integers(0, 4, (count, 10))
    vc[0] = [0, 0, 1, 0, 2, 0, 0, 1, 0, 1]               # 5 cards: no deal of six
    vc[1] = [0] * 9 + [6]                                # one value only
    return vc


SIZES = {"small": lambda rng: _small(rng, 12), "8 decks": lambda rng: _shoes(rng, 8, 10),
         "20 decks": lambda rng: _shoes(rng, 20, 4), "10,000 decks": lambda rng: _shoes(rng, 10_000, 2)}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("case", range(len(FAMILY_SETS)))
def test_counter_ways_equal_the_core_python_reference(case, size):
    rules, bets, cats = FAMILY_SETS[case]
    fams = _families(rules, bets, cats)
    counter = counter_for(fams)
    rng = np.random.default_rng(1000 * case + list(SIZES).index(size))
    vc = SIZES[size](rng)
    want = _reference(fams, vc)
    deals_max = max(falling(int(n), POSITIONS) for n in vc.sum(axis=1))
    for backend in BACKENDS:
        try:
            got = counter.ways(vc, backend=backend)
        except BetError as e:                            # a named back end beyond its bound refuses
            assert "cannot count a shoe" in str(e)
            assert (backend == "int64" and deals_max > 2**63 - 1) or \
                (backend == "float64" and size in ("20 decks", "10,000 decks")), (size, backend)
            continue
        assert got.shape == (len(vc), counter.E)
        assert got.dtype == (object if deals_max > 2**63 - 1 else np.int64), backend
        assert got.tolist() == want, (size, backend)
    assert counter.ways_exact(vc).dtype == object and counter.ways_exact(vc).tolist() == want
    # every family partitions the deals
    for row, n in zip(want, vc.sum(axis=1)):
        for fam in fams:
            assert sum(row[fam.rows]) == falling(int(n), POSITIONS)


def test_counter_plans_go_through_the_core_rule():
    """The prefix sums count the shoes within their float64 bound (458 cards) under ``auto`` and
    ``float64``; every other shoe and back end takes the evaluator's other plans; ``python`` is the
    reference; an unknown back end is refused."""
    counter = counter_for(_families(*FAMILY_SETS[0]))
    # beyond: residues, even under the int64 bound (114 rows: cheaper than int64 products)
    assert [counter.plan(n) for n in (6, 416, 458, 459, 520_000)] == ["prefix"] * 3 + ["residues"] * 2
    assert counter.plan(416, "float64") == "prefix"
    with pytest.raises(BetError, match="float64"):
        counter.plan(459, "float64")
    assert [counter.plan(416, b) for b in ("int64", "residues")] == ["int64", "residues"]
    assert counter.plan(416, "python") == "python"
    with pytest.raises(BetError, match="unknown back end"):
        counter.ways([[32] * 10], backend="gpu")


def test_a_batch_mixing_shoe_sizes_is_counted_by_each_size_plan():
    """Shoes within and beyond the float64 and int64 bounds in one batch, in any order: each row is its
    shoe's exact ways (Python integers for the whole batch once one shoe passes the int64 bound)."""
    fams = _families(*FAMILY_SETS[0])
    counter = counter_for(fams)
    rng = np.random.default_rng(7)
    vc = np.concatenate([_shoes(rng, 8, 3), _shoes(rng, 10_000, 1), _small(rng, 3), _shoes(rng, 20, 2)])
    vc = vc[rng.permutation(len(vc))]
    got = counter.ways(vc)
    assert got.dtype == object and got.tolist() == _reference(fams, vc)
    within = vc[vc.sum(axis=1) <= 1040]                  # up to 20 decks: int64
    got = counter.ways(within)
    assert got.dtype == np.int64 and got.tolist() == _reference(fams, within)


KEYS = {"outcome": lambda c: c["winner"], "cards": lambda c: len(c["player_cards"]) + len(c["banker_cards"]),
        "totals": lambda c: (c["player_total"], c["banker_total"])}


def _brute(vc) -> dict:
    """The outcome, cards and totals cells' ways by the oracle's walk of the deals (prose rules)."""
    t = oracle.value_tally([int(x) for x in vc], KEYS)
    return {"outcome": [t["outcome"][o] for o in ("player", "banker", "tie")],
            "cards": [t["cards"][k] for k in (4, 5, 6)],
            "totals": [t["totals"][(p, b)] for p in range(10) for b in range(10)]}


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_counter_ways_equal_a_brute_force_walk_of_the_deals():
    """Small shoes, an 8-deck shoe with cards dealt and a 10,000-deck shoe: the outcome, cards and
    totals cells are the deals the oracle counts coup by coup (no engine code)."""
    fams = _families(*FAMILY_SETS[0])
    counter = counter_for(fams)
    rng = np.random.default_rng(23)
    vc = np.concatenate([_small(rng, 6), _shoes(rng, 8, 2)[1:], _shoes(rng, 10_000, 2)[1:]])
    got = counter.ways(vc)
    for row, shoe in zip(got.tolist(), vc):
        want = _brute(shoe)
        for fam in fams:
            if fam.key in want:
                assert row[fam.rows] == want[fam.key], (fam.key, shoe.tolist())
