"""Event ways of many shoes at once, as float64 matrix products that are exact by their bounds.

The value engine counts an event as ``sum_m coef[m] * ff(n, m)`` over the 5005
multisets ``m`` of six point values (:mod:`analyzer.core.engine`).  Split each
multiset into its *low* part (values 0-4, ``k`` cards) and its *high* part
(values 5-9, ``6 - k`` cards): the monomial is the product of a low and a high
monomial, and for each ``k`` every low part meets every high part, so the 5005
coefficients form seven dense blocks ``C_k`` (low multisets x high multisets).
For a batch of shoes each block is two small matrix products:

    ways(event) = sum_k  sum_j  hi_k[j] * (sum_i lo_k[i] * C_k[i, j])

contracting first the side of at most three cards.  With float64 and BLAS that is
several times faster than numpy's integer loops, and it is *exact* as long as
every intermediate value is an integer below ``2**53``:

* a partial monomial (ordered selections of distinct cards) is at most
  ``N (N-1) ... (N-5)``, the deals of the shoe;
* the first contraction is at most the largest sum of a block's coefficients over
  the contracted side (:attr:`BlockPlan.stage1`) times ``N (N-1) (N-2)`` (three
  cards at most on that side);
* every term of the second contraction, and every partial sum, is part of the
  event's ways (non-negative terms), so at most the deals.

So :meth:`BlockPlan.exact_float_ways` takes only shoes whose deals, and that first
bound, are at most ``2**53`` (:meth:`BlockPlan.float_exact`: up to 458 cards, every
shoe of 8 decks or fewer).

Beyond ``2**63`` (about 28 decks), :meth:`BlockPlan.modular_ways` runs the same
products modulo primes below ``2**16``: a residue is below ``2**16``, a product of two
below ``2**32``, of three below ``2**48``, and a block's sum of a coefficient (at most
720) times a low and a high monomial's residues, over at most 1,225 multisets, below
``2**52``; so every value stays below ``2**53`` with a reduction only after a side's
monomials and after each block.  The Chinese remainder theorem gives the exact integers back.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import lru_cache
from math import perm

import numpy as np

#: point values and dealt positions (as in :mod:`analyzer.core.engine`, which imports this module)
VALUES = 10
POSITIONS = 6
FLOAT_EXACT = 2**53
#: Largest coefficient of any event for one multiset: its six values in any order.
MAX_COEF = 720
#: Primes for :meth:`BlockPlan.modular_ways` (each below 2**16: see the module docstring).
PRIME_BITS = 16


@lru_cache(maxsize=4)
def primes_below(bits: int, count: int = 20) -> tuple[int, ...]:
    """The ``count`` largest primes below ``2**bits``, largest first.

    >>> primes_below(5, 3)
    (31, 29, 23)
    """
    from sympy import prevprime
    out, p = [], 2**bits
    while len(out) < count:
        p = prevprime(p)
        out.append(p)
    return tuple(out)


@lru_cache(maxsize=1)
def _controller():
    from threadpoolctl import ThreadpoolController
    return ThreadpoolController()


_LIMITED = threading.local()


@contextmanager
def one_blas_thread():
    """A context in which BLAS runs on one thread: these products are small, and two
    threads spinning on a shared machine made them several times slower (measured).
    Nested contexts cost nothing (a batch enters it once for all its products)."""
    if getattr(_LIMITED, "on", False):
        yield
        return
    with _controller().limit(limits=1, user_api="blas"):
        _LIMITED.on = True
        try:
            yield
        finally:
            _LIMITED.on = False


def _unique_rows(rows: np.ndarray):
    u, inv = np.unique(rows, axis=0, return_inverse=True)
    return u, inv.ravel()


class _Side:
    """The monomials of every low (values 0-4) or high (values 5-9) part of a multiset:
    a product of a pair (first two values) and a triple (last three), each gathered
    from the flattened falling-factorial table ``F[v, k]`` (column ``v * 7 + k``)."""

    def __init__(self, rows: np.ndarray, first_value: int):
        step = POSITIONS + 1
        pairs, self.pair_of = _unique_rows(rows[:, :2])
        triples, self.triple_of = _unique_rows(rows[:, 2:])
        self.pair_cols = [(first_value + v) * step + pairs[:, v] for v in range(2)]
        self.triple_cols = [(first_value + 2 + v) * step + triples[:, v] for v in range(3)]

    def monomials(self, f: np.ndarray, reduce) -> np.ndarray:
        """``(B, rows)`` monomials from ``f`` (``(B, 70)``).  With residues below ``2**16``,
        ``reduce`` after the triple (below ``2**48``) and after the pair times it."""
        a = f[:, self.pair_cols[0]] * f[:, self.pair_cols[1]]
        b = reduce(f[:, self.triple_cols[0]] * f[:, self.triple_cols[1]] * f[:, self.triple_cols[2]])
        return reduce(a[:, self.pair_of] * b[:, self.triple_of])


def _same(x):
    return x


class BlockPlan:
    """The seven blocks of a coefficient table ``coef`` (events x 5005 multisets).

    ``blocks``: per ``k``, ``(first, second, layout, n_second)``: the low or high parts
    (indices into :attr:`low` / :attr:`high`) of the contracted side (at most three
    cards) and of the other side, and the float64 coefficients laid out
    ``(first, events x second)``.
    """

    def __init__(self, coef: np.ndarray, exponents: np.ndarray):
        if coef.size and (int(coef.min()) < 0 or int(coef.max()) > MAX_COEF):
            raise ValueError("coefficients outside 0..720")
        self.events = events = coef.shape[0]
        low_rows, low_of = _unique_rows(exponents[:, :5])
        high_rows, high_of = _unique_rows(exponents[:, 5:])
        self.low, self.high = _Side(low_rows, 0), _Side(high_rows, 5)
        k_of = exponents[:, :5].sum(axis=1)
        self.blocks = []
        self.stage1 = 0
        for k in range(POSITIONS + 1):
            ms = np.nonzero(k_of == k)[0]
            lo_u, li = np.unique(low_of[ms], return_inverse=True)
            hi_u, hj = np.unique(high_of[ms], return_inverse=True)
            assert len(ms) == len(lo_u) * len(hi_u)          # every low part meets every high part
            c = np.zeros((events, len(lo_u), len(hi_u)), dtype=np.int64)
            c[:, li.ravel(), hj.ravel()] = coef[:, ms]
            first, second = ("low", lo_u), ("high", hi_u)
            if k > 3:                                        # contract the high side (<= 3 cards)
                c = c.transpose(0, 2, 1)
                first, second = second, first
            # the first contraction's largest coefficient sum, times at most N (N-1) (N-2)
            self.stage1 = max(self.stage1, int(c.sum(axis=1).max()) if c.size else 0)
            n_first, n_second = c.shape[1], c.shape[2]
            layout = np.ascontiguousarray(c.transpose(1, 0, 2).reshape(n_first, events * n_second))
            self.blocks.append((first, second, layout.astype(np.float64), n_second))

    def float_exact(self, cards: int) -> bool:
        """True when :func:`exact_float_ways` is exact for a shoe of ``cards`` cards."""
        return perm(cards, POSITIONS) <= FLOAT_EXACT and self.stage1 * perm(cards, 3) <= FLOAT_EXACT

    def _sum(self, f: np.ndarray, reduce=_same) -> np.ndarray:
        """``(B, events)`` sums from ``f`` (``(B, 70)`` float64 falling factorials, or their
        residues with ``reduce`` taking each product and sum back below the modulus)."""
        b_count = f.shape[0]
        sides = {"low": self.low.monomials(f, reduce), "high": self.high.monomials(f, reduce)}
        out = np.zeros((b_count, self.events))
        for (s1, i1), (s2, i2), layout, n_second in self.blocks:
            t = (sides[s1][:, i1] @ layout).reshape(b_count, self.events, n_second)
            out = reduce(out + np.einsum("bej,bj->be", t, sides[s2][:, i2]))
        return out

    def exact_float_ways(self, value_counts: np.ndarray) -> np.ndarray:
        """``(B, events)`` int64 ways of shoes with these ``(B, 10)`` value counts; every
        shoe must pass :meth:`float_exact` (checked)."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.size and not self.float_exact(int(vc.sum(axis=1).max())):
            raise ValueError("a shoe beyond the float64 bound")
        vf = vc.astype(np.float64)
        f = np.empty((vc.shape[0], VALUES, POSITIONS + 1))
        f[:, :, 0] = 1
        for k in range(1, POSITIONS + 1):
            f[:, :, k] = f[:, :, k - 1] * np.maximum(vf - (k - 1), 0)
        with one_blas_thread():
            return self._sum(f.reshape(vc.shape[0], -1)).astype(np.int64)

    def modular_ways(self, value_counts, bound: int, wrapped: np.ndarray | None = None) -> list[list[int]]:
        """Exact ways (Python integers, each at most ``bound``) of shoes with these value
        counts, any size: the sums modulo primes below ``2**16`` and the Chinese remainder
        theorem.  ``wrapped``: the same ways modulo ``2**64`` (``(B, events)`` uint64, e.g.
        the integer path computed in wrapping unsigned arithmetic), which saves the primes
        that ``2**64`` replaces."""
        rows = [[int(x) for x in vc] for vc in value_counts]
        primes = moduli_for(bound, wrapped is not None)
        n_p, n_b = len(primes), len(rows)
        start = [[0] * self.events] * n_b if wrapped is None else np.asarray(wrapped, dtype=np.uint64).tolist()
        if not primes:
            return start
        # one batch row per (prime, shoe): residues of n - i (0 where n - i <= 0)
        mod = np.repeat(np.array(primes, dtype=np.int64), n_b)[:, None]
        vc = np.array(rows * n_p, dtype=np.int64).reshape(n_p * n_b, VALUES)
        f = np.empty((n_p * n_b, VALUES, POSITIONS + 1), dtype=np.int64)
        f[:, :, 0] = 1
        for k in range(1, POSITIONS + 1):
            f[:, :, k] = f[:, :, k - 1] * (np.maximum(vc - (k - 1), 0) % mod) % mod
        def reduce(x):
            # x: (rows, columns) integers below 2**53; int64 % is many times faster than fmod
            return (x.astype(np.int64) % mod).astype(np.float64)

        with one_blas_thread():
            res = self._sum(f.reshape(n_p * n_b, -1).astype(np.float64), reduce).astype(np.int64)
        res = res.reshape(n_p, n_b, self.events).tolist()
        moduli = ([] if wrapped is None else [2**64]) + primes
        return [crt(([start[b]] if wrapped is not None else []) + [res[pi][b] for pi in range(n_p)], moduli)
                for b in range(n_b)]


def moduli_for(bound: int, wrapped: bool, bits: int = PRIME_BITS) -> list[int]:
    """The primes below ``2**bits`` (after ``2**64`` when ``wrapped``) whose product exceeds ``bound``."""
    primes, product = [], 2**64 if wrapped else 1
    for p in primes_below(bits):
        if product > bound:
            break
        primes.append(p)
        product *= p
    if product <= bound:
        raise ValueError("bound beyond the primes kept")
    return primes


def crt(residues: list[list[int]], moduli: list[int]) -> list[int]:
    """The integers in ``[0, prod(moduli))`` with these residues (one list per modulus,
    pairwise coprime moduli), by Garner's algorithm in Python integers.

    >>> crt([[3, 0], [4, 6]], [5, 7])
    [18, 20]
    """
    x = [int(r) for r in residues[0]]
    m = moduli[0]
    for res, p in zip(residues[1:], moduli[1:]):
        inv = pow(m % p, -1, p)
        x = [xe + m * (((int(r) - xe) * inv) % p) for xe, r in zip(x, res)]
        m *= p
    return x
