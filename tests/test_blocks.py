"""The value engine's fast paths (float64 blocks under 2**53, wrapping uint64 and primes
beyond 2**63) against its Python-integer path, which is itself checked against the
permutation oracle and the published counts (tests/test_engine.py)."""

import random
from functools import lru_cache
from math import perm, prod

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Shoe, Solver, catalog
from analyzer.core.blocks import BlockPlan, crt, moduli_for, primes_below
from analyzer.core.engine import INT64_LIMIT, POSITIONS, Tabulation, coup_table, falling

MAIN = ["player", "banker", "tie"]
#: bets on point values with many distinct events: every coefficient pattern of the table
VALUE_BETS = MAIN + ["dragon7", "panda8", "big", "small", "tie_max_high"] + [f"egalite_{t}" for t in range(10)]


def tabulation(ids) -> Tabulation:
    return _tabulation(tuple(ids))


@lru_cache(maxsize=None)
def _tabulation(ids) -> Tabulation:
    return Solver(catalog().select(list(ids)))._tab


def composition(rng: random.Random, cards: int, values: int = 10) -> list[int]:
    cuts = sorted(rng.randint(0, cards) for _ in range(values - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [cards])]


def boundary_shoes(seed: int) -> list[list[int]]:
    """Value counts around every switch of path: 2**53 (458/459 cards), 2**63 (1450/1451),
    2**64 (1627/1628), 2**64 times one, two, three primes, and lopsided shoes."""
    rng = random.Random(seed)
    rows = []
    for n in (6, 7, 52, 416, 457, 458, 459, 1000, 1450, 1451, 1456, 1627, 1628, 3000, 9000, 52 * 1000,
              520_000):
        rows += [composition(rng, n) for _ in range(3)]
        rows += [[n] + [0] * 9, [0] * 9 + [n], [0] * 4 + [n] + [0] * 5, [n - 5] + [1] * 5 + [0] * 4]
    return rows


def test_boundaries_are_where_the_docstrings_say():
    assert perm(458, 6) <= 2**53 < perm(459, 6)
    assert falling(1450, POSITIONS) <= INT64_LIMIT < falling(1451, POSITIONS)
    plan = tabulation(MAIN)._block_plan()
    assert plan.float_exact(458) and not plan.float_exact(459)
    assert moduli_for(falling(1627, POSITIONS), wrapped=True) == []          # 2**64 alone suffices
    assert len(moduli_for(falling(1628, POSITIONS), wrapped=True)) == 1


@pytest.mark.parametrize("ids", [MAIN, VALUE_BETS])
def test_every_path_equals_python_integers(ids):
    tab = tabulation(ids)
    rows = boundary_shoes(len(ids))
    exact = [tab.ways_exact(r) for r in rows]
    assert tab.ways_many(rows) == exact
    assert tab.ways_many(rows, chunk=5) == exact
    assert [tab.ways(r) for r in rows] == exact


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 45), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6))   # at most 450 cards
def test_float_blocks_exact_on_small_shoes(counts):
    tab = tabulation(VALUE_BETS)
    got = tab._block_plan().exact_float_ways(np.array([counts]))[0].tolist()
    assert tab._complete(got, falling(sum(counts), POSITIONS)) == tab.ways_exact(counts)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 60_000), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6),
       st.booleans())
def test_modular_blocks_exact_on_big_shoes(counts, wrapped):
    tab = tabulation(MAIN)
    plan = tab._block_plan()
    coef = tab._counted()[0]
    want = [sum(int(c) * m for c, m in zip(row, _monomials(counts))) for row in coef]
    bound = falling(sum(counts), POSITIONS)
    w = None
    if wrapped:
        w = np.array([[x % 2**64 for x in want]], dtype=np.uint64)
    assert plan.modular_ways([counts], bound, w)[0] == want


def _monomials(counts):
    """Python-integer falling-factorial products of the 5005 multisets (the definition)."""
    return [prod(falling(counts[v], int(k)) for v, k in enumerate(e)) for e in coup_table().exponents]


def test_float_path_refuses_a_shoe_beyond_its_bound():
    plan = tabulation(MAIN)._block_plan()
    with pytest.raises(ValueError, match="float64 bound"):
        plan.exact_float_ways(np.array([[46] * 10]))


def test_crt_and_primes():
    ps = primes_below(16, 5)
    assert all(p < 2**16 for p in ps) and len(set(ps)) == 5
    x = [0, 1, 2**100 + 12345, 3**60]
    moduli = [2**64] + list(ps[:3])
    assert crt([[v % m for v in x] for m in moduli], moduli) == x


def test_solver_results_unchanged_on_every_path():
    """A whole solve (main bets and Dragon 7) equals the Python-integer counts, one shoe and batched."""
    s = Solver(catalog().select(MAIN + ["dragon7"]))
    shoes = [Shoe.standard(d) for d in (1, 8, 9, 27, 28, 30, 40, 1000)]
    for shoe in shoes:
        w = s._tab.ways_exact(shoe.value_counts)
        a = s.solve(shoe)
        assert [a.ways(o) for o in MAIN] == [w[r] for r in s._outcome_rows]
    assert s.solve_many(shoes) == [s.solve(x) for x in shoes]
