"""Event ways of many shoes at once, as matrix products that are exact by their bounds.

The value engine counts an event as ``sum_m coef[m] * ff(n, m)`` over the 5005
multisets ``m`` of six point values (:mod:`analyzer.core.engine`).  Split each
multiset into its *low* part (values 0-4, ``k`` cards) and its *high* part
(values 5-9, ``6 - k`` cards): the monomial ``ff(n, m)`` is the product of a low and
a high monomial (the ordered selections of ``k`` distinct low cards, and of ``6 - k``
high ones, showing those values), and for each ``k`` every low part meets every high
part, so the 5005 coefficients form seven dense blocks ``C_k`` (low parts x high parts).
In each block one side, the *big* one, has ``j >= 3`` cards (the low side for
``k >= 3``, else the high side) and the other, the *small* one, ``6 - j <= 3``.
For a batch of shoes the ways are

    ways(event) = sum_k  sum_s  small_k[s] * (sum_b big_k[b] * C_k[b, s])

the inner sum one matrix product a block (a large inner dimension, a small output),
the outer sum one product and sum over the 77 small parts of all blocks.  Residues of
tables of many events (:data:`MONOMIAL_EVENTS` or more) instead form the monomials of
each block, a small part times a big part, and take one matrix product with the block's
coefficients: the same arithmetic, with fewer reductions.

Every coefficient counts sequences of six values: it is at most the orderings of its
multiset (checked when a plan is built), so an event's ways are at most the deals
``ff(N, 6)`` and its coefficients sum to at most ``10**6``.

Float64 (:meth:`BlockPlan.exact_float_ways`)
    Exact while every intermediate value is an integer at most ``2**53``.  For a shoe
    of ``N`` cards (``ff(N, c) = N (N-1) ... (N-c+1)``):

    * every partial product of a monomial, and every monomial, counts ordered
      selections of ``c <= 6`` distinct cards: at most ``ff(N, c)``;
    * an inner sum over a big side of ``j`` cards: ``C_k[b, s]`` is at most the orderings
      of the six values, ``C(6, j) ord(b) ord(s)`` (``ord``: the orderings of a part), and
      ``sum_b ord(b) big[b]`` is ``ff(N_side, j)``, the ordered selections of ``j`` cards
      of that side; so the sum, and each of its partial sums (non-negative terms), is at
      most ``6!/j! * ff(N, j)`` (``j`` = 3 .. 6);
    * every term of the outer sum, and every partial sum, is part of the event's ways
      (non-negative terms): at most the deals ``ff(N, 6)``.

    :meth:`BlockPlan.float_exact` checks the largest of these bounds (up to 458 cards,
    :attr:`BlockPlan.float_cards`: every shoe of 8 decks or fewer).

Residues (:meth:`BlockPlan.modular_ways`), for shoes of any size
    The same sums modulo primes ``2**30 < p < 2**31``, in ``int64`` and float64: a
    residue is below ``2**31``, every product of two residues below ``2**62`` (int64),
    reduced at once; an inner sum, in float64, is at most :attr:`BlockPlan.stage1` (the
    largest sum of a block's coefficients over a big side: at most ``6!/j! * 5**j <=
    18,750``, checked below ``2**22``) times ``p - 1``, below ``2**46``; the monomial
    products (float64), summed over the blocks, at most ``10**6`` times ``p - 1``, below
    ``2**51``; an outer sum of 77 reduced products (int64) below ``2**38``.  Enough primes that
    their product exceeds the deals (three up to 46,343 cards, four up to 1,664,513:
    10,000 decks), and the Chinese remainder theorem (:func:`crt_rows`: Garner's digits
    in ``int64``, each product below ``2**62`` plus a digit, then Python integers)
    gives the exact integers back.

Modulo ``2**64`` (:meth:`BlockPlan.wrapped_ways`), for shoes of any size
    The same blocks in ``uint64``, whose arithmetic wraps modulo ``2**64`` by definition
    (the counts taken modulo ``2**64`` first): no bound to keep, no reduction.  With
    these, ``2**64`` stands in for two primes (:func:`moduli_for` with ``wrapped``), and
    one more Garner step puts the counts together.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import lru_cache
from math import factorial, perm, prod

import numpy as np

#: point values and dealt positions (as in :mod:`analyzer.core.engine`, which imports this module)
VALUES = 10
POSITIONS = 6
SIDE = VALUES // 2
FLOAT_EXACT = 2**53
#: Largest coefficient of any event for one multiset: its six values in any order.
MAX_COEF = 720
#: Sequences of six values: no event's coefficients sum to more.
SEQUENCES = VALUES**POSITIONS
#: Primes for :meth:`BlockPlan.modular_ways` (each below 2**31: see the module docstring).
PRIME_BITS = 31
#: Residues of tables with this many events or more form the 5005 monomials (measured:
#: faster from about 40 events; the float64 inner sums were faster up to all 61 rows of
#: the catalog).
MONOMIAL_EVENTS = 40


@lru_cache(maxsize=4)
def primes_below(bits: int, count: int = 20) -> tuple[int, ...]:
    """The ``count`` largest primes below ``2**bits``, largest first.

    >>> primes_below(5, 3)
    (31, 29, 23)
    """
    from sympy import prevprime

    out: list[int] = []
    p = 2**bits
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
def one_blas_thread(work: int | None = None):
    """A context in which BLAS runs on one thread: these products are small, and two
    threads spinning on a shared machine made them several times slower (measured).
    Nested contexts cost nothing (a batch enters it once for all its products); nor
    does one for at most ``2**16`` multiply-adds (``work``): BLAS runs products that
    small on one thread, and the limit costs more than such a product."""
    if getattr(_LIMITED, "on", False) or (work is not None and work <= 2**16):
        yield
        return
    with _controller().limit(limits=1, user_api="blas"):
        _LIMITED.on = True
        try:
            yield
        finally:
            _LIMITED.on = False


def unique_rows(rows: np.ndarray):
    """``np.unique(rows, axis=0, return_inverse=True)`` (sorted rows, inverse), through
    one int64 key a row when the columns' distinct values allow it (many times faster
    than sorting the rows themselves).

    >>> u, inv = unique_rows(np.array([[3, -1], [0, 5], [3, -1]]))
    >>> u.tolist(), inv.tolist()
    ([[0, 5], [3, -1]], [1, 0, 1])
    """
    lo, hi = (int(rows.min()), int(rows.max())) if rows.size else (0, 0)
    if rows.dtype.kind in "iu" and hi - lo < 1 << 16:
        # the distinct values by a table of the range, not a sort of every element
        present = np.zeros(hi - lo + 1, dtype=bool)
        present[(rows - lo).ravel()] = True
        codes = (np.cumsum(present) - 1)[rows - lo]
        base = int(present.sum())
    else:
        values, codes = np.unique(rows, return_inverse=True)
        codes = codes.reshape(rows.shape)
        base = len(values)
    width = rows.shape[1]
    if base**width >= 2**63:
        u, inv = np.unique(rows, axis=0, return_inverse=True)
        return u, inv.ravel()
    key = np.zeros(rows.shape[0], dtype=np.int64)
    for col in range(width):  # first column most significant: rows' order
        key = key * base + codes[:, col]
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    return rows[first], inv.ravel()


class _Parts:
    """The 462 parts (value counts of five values, at most six cards) of a side, ordered
    by their number of cards, and how to form their monomials: a product of a pair (the
    first two values) and a triple (the last three), gathered from a side's falling
    factorials ``F[v * 7 + c]`` (``v`` = 0..4, ``c`` = 0..6; one row each, a column a shoe)."""

    def __init__(self, parts: np.ndarray):
        self.parts = parts
        step = POSITIONS + 1
        pairs, self.pair_of = unique_rows(parts[:, :2])
        triples, self.triple_of = unique_rows(parts[:, 2:])
        self.pair_rows = [v * step + pairs[:, v] for v in range(2)]
        self.triple_rows = [(2 + v) * step + triples[:, v] for v in range(3)]

    def monomials(self, f: np.ndarray, reduce) -> np.ndarray:
        """``(462, columns)`` monomials from ``f`` (``(35, columns)``): float64 as they are
        (``reduce`` doing nothing), or ``int64`` residues, each product of two residues
        reduced at once by ``reduce`` (:class:`_Residues`).  Gathers copy whole rows."""
        a = reduce(f[self.pair_rows[0]] * f[self.pair_rows[1]])
        b = reduce(f[self.triple_rows[0]] * f[self.triple_rows[1]])
        b = reduce(b * f[self.triple_rows[2]])
        return reduce(a[self.pair_of] * b[self.triple_of])


def _same(x):
    return x


class _Residues:
    """Reduction, in place, of non-negative ``int64`` values below ``2**63`` modulo the
    primes of a batch whose last axis is ``(sides, prime, shoe)`` (C order)."""

    def __init__(self, primes: list[int], shoes: int):
        self.primes, self.shoes = primes, shoes
        self.column = np.array(primes, dtype=np.int64)[:, None]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if not x.flags.c_contiguous:  # then the reshape is a view of x
            raise ValueError("residues reduced in place must be C-contiguous")
        v = x.reshape(x.shape[:-1] + (-1, len(self.primes), self.shoes))
        if self.shoes < 8:
            # few shoes: one call (x % column); else each prime's part divided by that
            # prime, a scalar, which numpy does about twice as fast
            np.remainder(v, self.column, out=v)
            return x
        q = np.empty_like(v[..., 0, :])
        for i, p in enumerate(self.primes):
            part = v[..., i, :]
            np.floor_divide(part, p, out=q)
            q *= p
            part -= q
        return x


class BlockPlan:
    """The seven blocks of a coefficient table ``coef`` (events x 5005 multisets, rows
    of ``exponents`` the multisets' value counts).

    A side's monomials are rows ``(462, shoes)`` (parts ordered by cards), both sides
    side by side ``(462, 2, shoes)``.  ``blocks``: per ``k``, ``(big parts, big side,
    layout)``: the slice of the big side's parts and the float64 coefficients ``(small
    parts x events, big parts)``, whose product fills the block's rows of the ``(small
    part, event)`` table; :attr:`small` and :attr:`small_side` gather the 77 small parts
    in that order; :attr:`coef_blocks` is ``coef`` cut into the seven blocks.
    """

    def __init__(self, coef: np.ndarray, exponents: np.ndarray):
        orderings = factorial(POSITIONS) // np.array([factorial(int(k)) for k in range(POSITIONS + 1)])[exponents].prod(
            axis=1
        )
        if coef.size and (int(coef.min()) < 0 or (coef > orderings).any()):
            # the bounds of the module docstring count sequences: at most a multiset's orderings
            raise ValueError("coefficients outside 0 .. the orderings of their multiset")
        self.events = events = coef.shape[0]
        parts, inverse = unique_rows(np.vstack([exponents[:, :SIDE], exponents[:, SIDE:]]))
        by_cards = np.argsort(parts.sum(axis=1), kind="stable")
        parts = parts[by_cards]
        self.side = _Parts(parts)
        place = np.empty(len(by_cards), dtype=np.int64)
        place[by_cards] = np.arange(len(by_cards))  # a sorted part's place among the parts
        inverse = place[inverse.ravel()]
        of = [inverse[: len(exponents)], inverse[len(exponents) :]]
        k_of = exponents[:, :SIDE].sum(axis=1)
        self.blocks, small, small_side, order = [], [], [], []
        self.stage1 = 0
        for k in range(POSITIONS + 1):
            ms = np.nonzero(k_of == k)[0]
            big, sm = (0, 1) if k >= 3 else (1, 0)  # the side of at least three cards
            big_u, bi = np.unique(of[big][ms], return_inverse=True)
            small_u, si = np.unique(of[sm][ms], return_inverse=True)
            assert len(ms) == len(big_u) * len(small_u)  # every low part meets every high part
            assert (np.diff(big_u) == 1).all()  # one card count: a contiguous range
            c = np.zeros((len(small_u), events, len(big_u)), dtype=np.int64)
            c[si.ravel(), :, bi.ravel()] = coef[:, ms].T
            self.stage1 = max(self.stage1, int(c.sum(axis=2).max()) if c.size else 0)
            layout = np.ascontiguousarray(c.reshape(-1, len(big_u)), dtype=np.float64)
            self.blocks.append((slice(int(big_u[0]), int(big_u[-1]) + 1), big, layout))
            small.append(small_u)
            small_side.append(np.full(len(small_u), sm))
            # the 5005 monomials block by block, big part major (for the monomial product)
            at = np.empty((len(big_u), len(small_u)), dtype=np.int64)
            at[bi.ravel(), si.ravel()] = ms
            order.append(at.ravel())
        self.small, self.small_side = np.concatenate(small), np.concatenate(small_side)
        self.n_small = len(self.small)
        self.multisets = len(exponents)
        #: ``coef`` with the 5005 multisets block by block, each block's columns big part major
        self.coef_blocks = [np.ascontiguousarray(coef[:, o], dtype=np.float64) for o in order]
        if self.stage1 >= 2**22 or int(coef.sum(axis=1).max(initial=0)) > SEQUENCES:
            raise ValueError("coefficients beyond the residues' bounds")
        #: the largest shoe :meth:`float_exact` takes (every bound grows with the cards)
        lo, hi = POSITIONS, 10**4  # float_exact(lo) holds, float_exact(hi + 1) does not
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if self.float_exact(mid) else (lo, mid - 1)
        self.float_cards = lo

    def float_exact(self, cards: int) -> bool:
        """True when :meth:`exact_float_ways` is exact for a shoe of ``cards`` cards: the
        module docstring's bounds, partial monomials, inner sums and deals, all at most ``2**53``."""
        largest = getattr(self, "float_cards", None)
        if largest is not None:  # every bound grows with the cards
            return cards <= largest
        inner = max(factorial(POSITIONS) // factorial(j) * perm(cards, j) for j in range(3, POSITIONS + 1))
        partial = max(perm(cards, c) for c in range(POSITIONS + 1))
        return max(inner, partial) <= FLOAT_EXACT

    def _inner(self, x: np.ndarray) -> np.ndarray:
        """``(77, events, columns)`` inner sums from float64 monomials ``x`` (``(462, 2, columns)``)."""
        t = np.empty((self.n_small * self.events, x.shape[2]))
        at = 0
        for rows, side, layout in self.blocks:
            np.matmul(layout, x[rows, side], out=t[at : at + layout.shape[0]])
            at += layout.shape[0]
        return t.reshape(self.n_small, self.events, x.shape[2])

    def _monomial_sums(self, x: np.ndarray, small: np.ndarray, reduce) -> np.ndarray:
        """``(events, columns)`` residues of ``sum coef * monomial``, a block at a time: the
        block's monomials (a big part times a small part, reduced) in one buffer, then one
        float64 matrix product with the block's :attr:`coef_blocks`, added up (at most the
        coefficients' sum, ``10**6``, times ``p - 1``: below ``2**51``)."""
        columns = x.shape[2]
        out = np.zeros((self.events, columns))
        buf = np.empty(max(c.shape[1] for c in self.coef_blocks) * columns, dtype=x.dtype)
        s = 0
        for (rows, side, _), coef in zip(self.blocks, self.coef_blocks):
            n_big = rows.stop - rows.start
            n_small = coef.shape[1] // n_big
            o = buf[: coef.shape[1] * columns].reshape(n_big, n_small, columns)
            np.multiply(x[rows, side, None], small[None, s : s + n_small], out=o)
            s += n_small
            out += coef @ reduce(o.reshape(-1, columns)).astype(np.float64)
        return reduce(out.astype(np.int64))

    def _sums(self, f: np.ndarray, reduce=_same) -> np.ndarray:
        """``(events, columns)`` ways (or residues) from side falling factorials ``f``
        (``(35, 2 x columns)``, low side first)."""
        x = self.side.monomials(f, reduce)
        x = x.reshape(x.shape[0], 2, -1)
        small = x[self.small, self.small_side]
        xf = x if reduce is _same else x.astype(np.float64)
        with one_blas_thread(self.events * self.multisets * x.shape[2]):
            if reduce is _same:
                return np.einsum("seb,sb->eb", self._inner(xf), small)
            if self.events >= MONOMIAL_EVENTS:
                return self._monomial_sums(x, small, reduce)
            t = reduce(self._inner(xf).astype(np.int64))
            t *= small[:, None]
            return reduce(reduce(t).sum(axis=0))

    def exact_float_ways(self, value_counts: np.ndarray) -> np.ndarray:
        """``(B, events)`` int64 ways of shoes with these ``(B, 10)`` value counts; every
        shoe must pass :meth:`float_exact` (checked)."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.size and int(vc.sum(axis=1).max()) > self.float_cards:
            raise ValueError("a shoe beyond the float64 bound")
        n = vc.T.astype(np.float64).reshape(2, SIDE, -1).transpose(1, 0, 2)  # (value, side, shoe)
        f = np.empty((SIDE, POSITIONS + 1) + n.shape[1:])
        f[:, 0] = 1
        for c in range(1, POSITIONS + 1):
            f[:, c] = f[:, c - 1] * np.maximum(n - (c - 1), 0)
        return self._sums(f.reshape(SIDE * (POSITIONS + 1), -1)).T.astype(np.int64)

    def wrapped_ways(self, value_counts) -> np.ndarray:
        """``(B, events)`` ways modulo ``2**64`` of shoes of any size, as ``uint64`` (unsigned
        arithmetic wraps by definition): the blocks of :meth:`exact_float_ways`, in integers."""
        # counts modulo 2**64: every factor n - c, and so every product, exact modulo 2**64
        vc = np.array([[int(x) % 2**64 for x in r] for r in value_counts], dtype=np.uint64).reshape(-1, VALUES)
        n = vc.T.reshape(2, SIDE, -1).transpose(1, 0, 2)  # (value, side, shoe)
        f = np.empty((SIDE, POSITIONS + 1) + n.shape[1:], dtype=np.uint64)
        f[:, 0] = 1
        for c in range(1, POSITIONS + 1):
            f[:, c] = f[:, c - 1] * (n - np.uint64(c - 1))
        x = self.side.monomials(f.reshape(SIDE * (POSITIONS + 1), -1), _same)
        x = x.reshape(x.shape[0], 2, -1)
        if getattr(self, "_layouts_u64", None) is None:
            self._layouts_u64 = [layout.astype(np.uint64) for _, _, layout in self.blocks]
        t = np.empty((self.n_small * self.events, x.shape[2]), dtype=np.uint64)
        at = 0
        for (rows, side, _), layout in zip(self.blocks, self._layouts_u64):
            np.matmul(layout, x[rows, side], out=t[at : at + layout.shape[0]])
            at += layout.shape[0]
        t = t.reshape(self.n_small, self.events, x.shape[2])
        return np.einsum("seb,sb->be", t, x[self.small, self.small_side])

    def modular_ways(self, value_counts, bound: int, wrapped: np.ndarray | None = None) -> list[list[int]]:
        """Exact ways (Python integers, each at most ``bound``) of shoes with these value
        counts, any size: the sums modulo primes below ``2**31`` (module docstring) and
        the Chinese remainder theorem.  ``wrapped``: the same ways modulo ``2**64``
        (``(B, events)`` ``uint64``, e.g. from wrapping unsigned products), which saves
        the primes that ``2**64`` replaces."""
        rows = [[int(x) for x in vc] for vc in value_counts]
        primes = moduli_for(max(bound, 1), wrapped=wrapped is not None)
        if wrapped is not None:
            return _with_wrapped(
                self.modular_ways(rows, prod(primes) - 1) if primes else [[0] * self.events for _ in rows],
                primes,
                wrapped,
            )
        n_p, n_b = len(primes), len(rows)
        if not n_b or not self.events:
            return [[] for _ in rows]
        # residues of n (value, side, prime, shoe), then of n (n-1) ... (n-c+1): 0 once n - i is
        if max(max(r) for r in rows) < 2**62:
            nm = np.array(rows, dtype=np.int64).T[:, None, :] % np.array(primes, dtype=np.int64)[:, None]
        else:
            nm = np.array([[[x % p for x in r] for p in primes] for r in zip(*rows)], dtype=np.int64)
        nm = nm.reshape(2, SIDE, n_p, n_b).transpose(1, 0, 2, 3)
        mod = _Residues(primes, n_b)
        factors = (nm[:, None] - np.arange(POSITIONS).reshape(-1, 1, 1, 1)) % mod.column
        f = np.empty((SIDE, POSITIONS + 1) + nm.shape[1:], dtype=np.int64)
        f[:, 0] = 1
        f[:, 1] = factors[:, 0]
        for c in range(2, POSITIONS + 1):
            np.multiply(f[:, c - 1], factors[:, c - 1], out=f[:, c])
            f[:, c] %= mod.column
        res = self._sums(f.reshape(SIDE * (POSITIONS + 1), -1), mod)  # (events, primes x shoes)
        return crt_rows(res.reshape(self.events, n_p, n_b).transpose(1, 2, 0), primes)


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


def crt_rows(residues: np.ndarray, primes: list[int]) -> list[list[int]]:
    """The integers in ``[0, prod(primes))`` with these residues (``(primes, B, E)`` int64,
    primes below ``2**31``), as ``B`` lists of ``E`` Python integers.

    Garner's mixed-radix digits ``x = d0 + p0 (d1 + p1 (d2 + ...))`` in ``int64``: each
    digit below its prime, every product of a value below ``2**31`` and one below ``2**31``
    (below ``2**62``, plus a digit, below ``2**63``); then Horner in Python integers.

    >>> crt_rows(np.array([[[3, 0]], [[4, 6]]]), [5, 7])
    [[18, 20]]
    """
    if residues.shape[1] * residues.shape[2] < 32:  # a few values: Python's Garner is faster
        lists = residues.tolist()
        return [crt([r[b] for r in lists], primes) for b in range(residues.shape[1])]
    digits = [residues[0]]
    for i in range(1, len(primes)):
        p = primes[i]
        y = digits[-1] % p  # x_{<i} modulo p, by Horner
        for j in range(i - 2, -1, -1):
            y = (y * (primes[j] % p) + digits[j]) % p
        inv = pow(prod(primes[:i]) % p, -1, p)
        digits.append((residues[i] - y) % p * inv % p)
    lists = [d.reshape(-1).tolist() for d in digits]
    out = lists[-1]
    for d, p in zip(lists[-2::-1], primes[-2::-1]):
        out = [a + p * b for a, b in zip(d, out)]
    b_count, events = residues.shape[1], residues.shape[2]
    return [out[b * events : (b + 1) * events] for b in range(b_count)]


def _with_wrapped(low: list[list[int]], primes: list[int], wrapped: np.ndarray) -> list[list[int]]:
    """The integers ``x`` with ``x = low (mod P)`` (``P`` the product of ``primes``, odd;
    ``0 <= low < P``) and ``x = wrapped (mod 2**64)``, in ``[0, P 2**64)``:
    ``x = low + P t`` with ``t = (wrapped - low) / P`` modulo ``2**64`` (wrapping ``uint64``)."""
    big = prod(primes)
    inv = np.uint64(pow(big, -1, 2**64))
    lo = np.array([[x % 2**64 for x in r] for r in low], dtype=np.uint64).reshape(np.shape(wrapped))
    t = ((np.asarray(wrapped, dtype=np.uint64) - lo) * inv).tolist()
    return [[a + big * b for a, b in zip(ra, rb)] for ra, rb in zip(low, t)]


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
