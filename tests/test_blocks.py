"""The value engine's fast paths (float64 blocks under 2**53, int64 under 2**63, residues
modulo primes below 2**31 beyond) against its Python-integer path, which is itself checked
against the permutation oracle and the published counts (tests/test_engine.py).

Every switch is crossed: the card counts of each bound, int64 or residues between the
float64 and int64 bounds (MAIN: 2 counted rows, VALUE_BETS: 15), the two forms of the
residue sums (inner sums of each block; each block's monomials), the reductions of few
and of many shoes, Garner's digits in numpy and in Python, the derived rows' completion
in int64 and in Python integers, and shoe counts beyond int64."""

import math
import random
from functools import lru_cache
from math import perm, prod

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from analyzer import Shoe, Solver, catalog
from analyzer.core import blocks
from analyzer.core.blocks import PRIME_BITS, BlockPlan, crt, crt_rows, moduli_for, primes_below
from analyzer.core.backend import INT64_LIMIT
from analyzer.core.engine import POSITIONS, Tabulation, coup_table, falling

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
    three, four and five primes below 2**31 (46,343/46,344 and 1,664,513/1,664,514 cards),
    10,000 decks, and lopsided shoes."""
    rng = random.Random(seed)
    rows = []
    for n in (6, 7, 52, 416, 457, 458, 459, 1000, 1450, 1451, 3000, 46_343, 46_344, 52 * 1000,
              520_000, 1_664_513, 1_664_514):
        rows += [composition(rng, n) for _ in range(3)]
        rows += [[n] + [0] * 9, [0] * 9 + [n], [0] * 4 + [n] + [0] * 5, [n - 5] + [1] * 5 + [0] * 4]
    return rows


def test_boundaries_are_where_the_docstrings_say():
    assert perm(458, 6) <= 2**53 < perm(459, 6)
    assert falling(1450, POSITIONS) <= INT64_LIMIT < falling(1451, POSITIONS)
    plan = tabulation(MAIN).ways_table.blocks
    assert plan.float_exact(458) and not plan.float_exact(459) and plan.float_cards == 458
    assert len(moduli_for(falling(1451, POSITIONS), wrapped=False)) == 3
    assert len(moduli_for(falling(46_343, POSITIONS), wrapped=False)) == 3
    assert len(moduli_for(falling(46_344, POSITIONS), wrapped=False)) == 4
    assert len(moduli_for(falling(520_000, POSITIONS), wrapped=False)) == 4            # 10,000 decks
    assert len(moduli_for(falling(1_664_514, POSITIONS), wrapped=False)) == 5
    assert all(2**30 < p < 2**PRIME_BITS for p in primes_below(PRIME_BITS))


@pytest.fixture(params=["inner", "monomials"])
def residue_form(request, monkeypatch):
    """Both forms of the residue sums on every table: inner sums of each block, or the
    monomials of each block (the tables of MONOMIAL_EVENTS events or more)."""
    monkeypatch.setattr(blocks, "MONOMIAL_EVENTS", 10**9 if request.param == "inner" else 0)
    return request.param


def test_residue_bounds_of_the_docstring():
    """Inner sums: a block's coefficients over a big side sum to at most 6!/j! * 5**j <= 18,750,
    so an inner sum of residues below 2**31 stays below 2**46; an event's coefficients sum
    to at most 10**6 (monomial products below 2**51); and a plan refuses coefficients above
    their multiset's orderings, on which these bounds rest."""
    assert max(math.factorial(6) // math.factorial(j) * 5**j for j in range(3, 7)) == 18_750
    everything = Solver(tuple(catalog().bets.values()))._tab
    for tab in (tabulation(MAIN), tabulation(VALUE_BETS), everything):
        plan = tab.ways_table.blocks
        assert plan.stage1 <= 18_750 and plan.stage1 * 2**PRIME_BITS < 2**46
        assert tab.ways_table.counted[0].sum(axis=1).max() <= 10**6
    coef = tabulation(MAIN).ways_table.counted[0].copy()
    exponents = coup_table().exponents
    one_value = int(np.nonzero(exponents.max(axis=1) == POSITIONS)[0][0])     # six equal values: 1 ordering
    coef[0, one_value] = 2
    with pytest.raises(ValueError, match="orderings"):
        BlockPlan(coef, exponents)


@pytest.mark.parametrize("ids", [MAIN, VALUE_BETS])
def test_every_path_equals_python_integers(ids, residue_form):
    tab = tabulation(ids)
    rows = boundary_shoes(len(ids))
    exact = [tab.ways_exact(r) for r in rows]
    assert tab.ways_many(rows) == exact
    assert tab.ways_many(rows, chunk=5) == exact
    assert [tab.ways(r) for r in rows] == exact


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 45), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6),
                min_size=1, max_size=12), st.booleans())                # at most 450 cards
def test_float_blocks_exact_on_small_shoes(shoes, many):
    tab = tabulation(VALUE_BETS if many else MAIN)
    got = tab.ways_table.blocks.exact_float_ways(np.array(shoes)).tolist()
    deals = [falling(sum(c), POSITIONS) for c in shoes]
    assert [tab.ways_table.complete(w, d) for w, d in zip(got, deals)] == [tab.ways_exact(c) for c in shoes]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.integers(0, 60_000), min_size=10, max_size=10).filter(lambda c: sum(c) >= 6),
                min_size=1, max_size=12), st.booleans())
def test_modular_blocks_exact_on_big_shoes(residue_form, shoes, many):
    """1..12 shoes: the reductions of few shoes (one remainder) and of many (by each prime)."""
    tab = tabulation(VALUE_BETS if many else MAIN)
    plan = tab.ways_table.blocks
    coef = tab.ways_table.counted[0]
    want = _oracle_ways(coef, shoes)
    bound = max(falling(sum(c), POSITIONS) for c in shoes)
    assert plan.modular_ways(shoes, bound) == want


@pytest.mark.parametrize("shoes", [1, 9])
def test_modular_blocks_beyond_int64_counts(shoes, residue_form):
    """Value counts of 2**62 cards and more: residues taken in Python integers; a dozen primes."""
    rng = random.Random(shoes)
    rows = [[rng.choice([0, 3, 2**62 + rng.randint(0, 2**70)]) for _ in range(10)] for _ in range(shoes)]
    rows[0][0] = 2**66 + 1
    for ids in (MAIN, VALUE_BETS):
        tab = tabulation(ids)
        want = [tab.ways_exact(r) for r in rows]
        assert tab.ways_many(rows) == want
        assert tab.ways(rows[0]) == want[0]


def test_the_whole_catalog_on_big_shoes():
    """The catalog's 61 counted rows: residues in the monomial form (its default), and
    float64 inner sums, against Python integers."""
    tab = Solver(tuple(catalog().bets.values()))._tab
    assert tab.ways_table.blocks.events >= blocks.MONOMIAL_EVENTS
    rng = random.Random(61)
    rows = [composition(rng, n) for n in (416, 458, 2080, 46_344, 520_000, 520_000)]
    assert tab.ways_many(rows) == [tab.ways_exact(r) for r in rows]


def test_derived_rows_in_int64_and_python_integers():
    """The derived rows (the tie: every deal less the Player's and Banker's wins) in int64
    while (|c_all| + sum |c|) * deals fits, else in Python integers: both equal."""
    tab = tabulation(MAIN)
    assert tab.ways_table.derived_weight == 3
    for n in (458, 1450):                    # 3 * deals below, then beyond the int64 bound
        rows = [composition(random.Random(n), n) for _ in range(4)]
        counted = np.array([[tab.ways_exact(r)[i] for i in tab.ways_table.counted[1]] for r in rows], dtype=np.int64)
        deals = [falling(n, POSITIONS)] * 4
        assert (tab.ways_table.derived_weight * deals[0] > INT64_LIMIT) == (n == 1450)
        got = tab.ways_table.complete_many(counted, deals)
        assert (n == 1450) == isinstance(got, list)                         # beyond: Python integers
        assert (got if n == 1450 else got.tolist()) == [tab.ways_exact(r) for r in rows]


@lru_cache(maxsize=None)
def _exponents() -> list[tuple[tuple[int, int], ...]]:
    """Each of the 5005 multisets as its (value, multiplicity) pairs, multiplicity > 0."""
    return [tuple((v, int(k)) for v, k in enumerate(e) if k) for e in coup_table().exponents]


def _monomials(counts):
    """Python-integer falling-factorial products of the 5005 multisets (the definition;
    each value's falling factorials taken once)."""
    f = [[falling(int(c), k) for k in range(POSITIONS + 1)] for c in counts]
    return [prod(f[v][k] for v, k in e) for e in _exponents()]


def _oracle_ways(coef, shoes) -> list[list[int]]:
    """Each counted row of ``coef`` summed against each shoe's monomials, in Python integers."""
    rows = np.asarray(coef).tolist()
    out = []
    for counts in shoes:
        m = _monomials(counts)
        out.append([sum(c * x for c, x in zip(row, m)) for row in rows])
    return out


def test_float_path_refuses_a_shoe_beyond_its_bound():
    plan = tabulation(MAIN).ways_table.blocks
    with pytest.raises(ValueError, match="float64 bound"):
        plan.exact_float_ways(np.array([[46] * 10]))


def test_crt_and_primes():
    ps = primes_below(16, 5)
    assert all(p < 2**16 for p in ps) and len(set(ps)) == 5
    x = [0, 1, 2**100 + 12345, 3**60]
    moduli = [2**64] + list(ps[:3])
    assert crt([[v % m for v in x] for m in moduli], moduli) == x


@pytest.mark.parametrize("shape", [(1, 2), (3, 5), (16, 61)])      # Python's Garner, then numpy's digits
def test_crt_rows_equals_crt(shape):
    rng = random.Random(shape[0])
    primes = list(primes_below(PRIME_BITS, 5))
    product = math.prod(primes)
    x = [[rng.choice([0, 1, product - 1, rng.randrange(product)]) for _ in range(shape[1])] for _ in range(shape[0])]
    residues = np.array([[[v % p for v in row] for row in x] for p in primes], dtype=np.int64)
    assert crt_rows(residues, primes) == x


def test_solver_results_equal_python_integers_on_every_path():
    """A whole solve (main bets and Dragon 7) equals the Python-integer counts, one shoe and batched."""
    s = Solver(catalog().select(MAIN + ["dragon7"]))
    shoes = [Shoe.standard(d) for d in (1, 8, 9, 27, 28, 30, 40, 1000, 10_000)]
    for shoe in shoes:
        w = s._tab.ways_exact(shoe.value_counts)
        a = s.solve(shoe)
        assert [a.ways(o) for o in MAIN] == [w[r] for r in s._outcome_rows]
    assert s.solve_many(shoes) == [s.solve(x) for x in shoes]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.integers(0, 60_000), st.integers(0, 2**70)), min_size=10, max_size=10)
                .filter(lambda c: sum(c) >= 6), min_size=1, max_size=12))
@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_wrapped_sums_and_their_primes(shoes):
    """The sums modulo 2**64 in wrapping uint64 (counts beyond 2**64 too), and the primes
    they stand in for: every count against Python integers."""
    tab = tabulation(MAIN)
    plan = tab.ways_table.blocks
    coef = tab.ways_table.counted[0]
    want = _oracle_ways(coef, shoes)
    assert plan.wrapped_ways(shoes).tolist() == [[w % 2**64 for w in row] for row in want]
    bound = max(falling(sum(c), POSITIONS) for c in shoes)
    assert plan.modular_ways(shoes, bound, plan.wrapped_ways(shoes)) == want
    assert len(moduli_for(bound, wrapped=True)) <= max(0, len(moduli_for(bound, wrapped=False)) - 2)


def test_wrapped_path_at_the_int64_bound():
    """Batches of main bets beyond the int64 bound take 2**64 and fewer primes (8 shoes or
    more); 61 rows, and one shoe at a time, keep the primes."""
    for ids in (MAIN, VALUE_BETS):
        tab = tabulation(ids)
        rows = [[145] * 10, [146] * 9 + [137], [0] * 9 + [1451], [1451] + [0] * 9, [5200] * 10] * 2
        assert [falling(sum(r), POSITIONS) > INT64_LIMIT for r in rows] == [False, True, True, True, True] * 2
        want = [tab.ways_exact(r) for r in rows]
        assert tab.ways_many(rows) == want and [tab.ways(r) for r in rows] == want
