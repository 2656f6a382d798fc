"""The exact reference of a simulator check: expected counts, variances, covariances.

Two references
--------------
*Off the top*: every coup has the distribution of the first coup of a freshly
shuffled declared shoe (exact, from one solve).  This is right for a simulator
that reshuffles before every coup, and it is the only reference for tallies,
which have no shoe boundaries.

*Shoe-aware*: a simulator that deals a shoe down to a cut card deals each coup
from what is left of the shoe, so coup ``k`` has the exact distribution of the
declared shoe minus every card seen before it in that shoe (cards burned face
down are unseen: they are exchangeable with the rest of the shoe, so
conditioning on the seen cards alone is exact).  Summing these per-coup
distributions gives the expected counts and variances of the test.  Because
``X_k - p_k`` (the coup's outcome minus its conditional probability) is a
martingale difference, the sum of the conditional covariances is the right
normaliser whatever rule decides when a shoe ends (cut card, burn), and the
statistics below are asymptotically chi-square / normal.

Arithmetic
----------
Per-coup counts are exact integers; expected counts, variances, expected
returns and their variances are summed exactly (integer sums grouped by the
number of unseen cards, which fixes the denominator, then one fraction per
total).  The covariance that combines categories in a chi-square statistic is
accumulated in double precision (relative error far below 1e-9; it only feeds
a floating-point statistic).

The cells come from :mod:`.families`; the statistics that compare them with
the observed counts are in :mod:`.stats`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from threadpoolctl import threadpool_limits

from ..core.backend import check_backend
from ..core.engine import POSITIONS, falling
from ..core.shoe import Shoe
from .distributed import ForkRunner, Runner, can_fork
from .families import Counter, Family, counter_for

BATCH = 128  # coups per matrix product in the shoe-aware loop
BLOCK = 16 * BATCH  # coups whose float sums are taken together (see ShoeAwareSums.add)


class _GroupSums:
    """Exact per-key sums of ``x`` and ``x**2`` for nonnegative integer columns.

    Values are split into limbs so that every product and partial sum fits in
    int64; keys are the number of unseen cards (which fixes the denominator)."""

    def __init__(self, columns: int, max_key: int, value_bits: int, max_rows: int):
        count_bits = max(1, int(max_rows).bit_length())
        self.lb = max(8, (62 - count_bits) // 2)
        self.nl = max(1, -(-value_bits // self.lb))
        self.pairs = [(a, b) for a in range(self.nl) for b in range(a, self.nl)]
        self.lin = np.zeros((max_key + 1, self.nl, columns), dtype=np.int64)
        self.sq = np.zeros((max_key + 1, len(self.pairs), columns), dtype=np.int64)
        self.count = np.zeros(max_key + 1, dtype=np.int64)
        self.base = 0  # keys are added less ``base`` (see _accumulate), reported with it

    def add(self, keys: np.ndarray, x: np.ndarray) -> None:
        order = np.argsort(keys, kind="stable")
        k = keys[order]
        x = x[order]
        starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
        uk = k[starts]
        mask = (1 << self.lb) - 1
        limbs = [(x >> (self.lb * i)) & mask for i in range(self.nl)]
        for i, limb in enumerate(limbs):
            self.lin[uk, i] += np.add.reduceat(limb, starts, axis=0)
        for j, (a, b) in enumerate(self.pairs):
            self.sq[uk, j] += np.add.reduceat(limbs[a] * limbs[b], starts, axis=0)
        self.count[uk] += np.diff(np.r_[starts, len(k)])

    def merge(self, other: _GroupSums) -> None:
        """Add another accumulator's sums (same shape and limbs)."""
        self.lin += other.lin
        self.sq += other.sq
        self.count += other.count

    def keys(self) -> list[int]:
        return [int(i) + self.base for i in np.flatnonzero(self.count)]

    def totals(self, keys: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Exact ``(sum x, sum x**2)`` per key and column: two ``(len(keys), columns)`` object arrays."""
        local = [k - self.base for k in keys]
        lin = self.lin[local].astype(object)
        sq = self.sq[local].astype(object)
        s1 = sum(lin[:, i, :] * (1 << (self.lb * i)) for i in range(self.nl))
        s2 = sum(sq[:, j, :] * ((1 if a == b else 2) << (self.lb * (a + b))) for j, (a, b) in enumerate(self.pairs))
        return s1, s2  # type: ignore[return-value]  # sums of one array at least (nl >= 1): never sum()'s 0


class _BatchSums:
    """Exact per-key sums of ``x`` (optional) and ``x**2`` for nonnegative int64 columns below
    ``2**value_bits`` (at most 63), added a batch of at most 128 rows sorted by key at a time (the
    float path: the coups come sorted by unseen cards, one or two keys a batch).

    ``x`` is split into limbs of 27 bits: a limb product is below ``2**54`` and its sum over a batch
    below ``2**61``, as is the batch sum of ``x`` when ``x < 2**53`` (the linear sum is only kept
    then).  Each batch sum is added to the key's int64 accumulators as its low 32 bits and the rest
    (below ``2**32`` and ``2**29`` a batch), so ``2**31`` batches of one key cannot overflow; the
    accumulators are moved to Python integers every ``2**30`` batches of a key.  No Python integer
    is touched per batch.  Same results as :class:`_GroupSums`."""

    LB = 27
    FLUSH = 1 << 30

    def __init__(self, columns: int, max_key: int, value_bits: int, linear: bool = True):
        if value_bits > 63 or (linear and value_bits > 53):
            raise ValueError("values too large for the batch sums")
        self.columns, self.linear = columns, linear
        self.nl = max(1, -(-value_bits // self.LB))
        self.pairs = [(a, b) for a in range(self.nl) for b in range(a, self.nl)]
        self.terms = len(self.pairs) + linear
        self.acc = np.zeros((max_key + 1, 2, self.terms, columns), dtype=np.int64)
        self.batches = np.zeros(max_key + 1, dtype=np.int64)
        self.big: dict[int, np.ndarray] = {}  # key -> flushed sums (object array)
        self._t: np.ndarray | None = None
        self._limbs: np.ndarray | None = None
        self.base = 0  # keys are added less ``base`` (see _accumulate), reported with it

    def add(self, keys: np.ndarray, x: np.ndarray) -> None:
        if keys.size == 0:
            return
        if keys.size > 128:
            for i in range(0, keys.size, 128):
                self.add(keys[i : i + 128], x[i : i + 128])
            return
        B = x.shape[0]
        if self._t is None or self._limbs is None or self._t.shape[0] < B:  # work arrays, reused (fresh pages slow)
            self._t = np.empty((128, self.terms, self.columns), dtype=np.int64)
            self._limbs = np.empty((self.nl, 128, self.columns), dtype=np.int64)
        t, limbs = self._t[:B], self._limbs[:, :B]
        for i in range(self.nl):
            np.right_shift(x, self.LB * i, out=limbs[i])
            np.bitwise_and(limbs[i], (1 << self.LB) - 1, out=limbs[i])
        if self.linear:
            t[:, 0] = x
        for j, (a, b) in enumerate(self.pairs):
            np.multiply(limbs[a], limbs[b], out=t[:, j + self.linear])
        if keys[0] == keys[-1]:
            uk, S = keys[:1], t.sum(axis=0)[None]
        else:
            starts = np.concatenate(([0], np.flatnonzero(keys[1:] != keys[:-1]) + 1))
            uk, S = keys[starts], np.add.reduceat(t, starts, axis=0)
        self.acc[uk, 0] += S & 0xFFFFFFFF
        self.acc[uk, 1] += S >> 32
        self.batches[uk] += 1
        if self.batches[uk].max() >= self.FLUSH:
            self._flush()

    def _flush(self) -> None:
        keys = np.flatnonzero(self.batches)
        for key in keys.tolist():
            got = self.acc[key, 0].astype(object) + (self.acc[key, 1].astype(object) << 32)
            self.big[key] = got if key not in self.big else self.big[key] + got
        self.acc[keys] = 0
        self.batches[keys] = 0

    def keys(self) -> list[int]:
        return [k + self.base for k in sorted(set(np.flatnonzero(self.batches).tolist()) | set(self.big))]

    def totals(self, keys: list[int]) -> tuple[np.ndarray | None, np.ndarray]:
        """Exact ``(sum x, sum x**2)`` per key and column (``sum x`` is None without ``linear``)."""
        self._flush()
        tot = np.array([self.big[k - self.base] for k in keys], dtype=object).reshape(
            len(keys), self.terms, self.columns
        )
        s1 = tot[:, 0, :] if self.linear else None
        s2 = sum(
            tot[:, j + self.linear, :] * ((1 if a == b else 2) << (self.LB * (a + b)))
            for j, (a, b) in enumerate(self.pairs)
        )
        return s1, s2  # type: ignore[return-value]  # a sum of one array at least: never sum()'s 0


@dataclass
class FamilyReference:
    """Expected counts and covariance of one family over the tested coups."""

    family: Family
    expected: list[Fraction]
    variance: list[Fraction]
    cov: np.ndarray  # float (cells x cells)
    # bets only: expected total return and its variance
    expected_return: Fraction | None = None
    return_variance: Fraction | None = None


@dataclass
class Reference:
    kind: str  # "shoe-aware" or "off-the-top"
    coups: int
    families: dict[str, FamilyReference]
    excluded: int = 0  # coups left out (fewer than 6 unseen cards)
    depletion: dict[str, tuple[float, float]] = field(default_factory=dict)


def _bet_scale(fam: Family) -> tuple[int, list[int]]:
    L = math.lcm(*(p.denominator for p in fam.pays))
    return L, [int(p * L) for p in fam.pays]


def off_the_top(shoe: Shoe, families, coups: int) -> Reference:
    """Every coup dealt off the top of a full ``shoe``."""
    counter = counter_for(tuple(families))
    w = [int(v) for v in counter.ways_exact(shoe.value_counts)[0]]
    deals = falling(shoe.cards, POSITIONS)
    out = {}
    for fam in families:
        p = [Fraction(v, deals) for v in w[fam.rows]]
        pf = np.array([float(x) for x in p])
        ref = FamilyReference(
            fam, [coups * x for x in p], [coups * x * (1 - x) for x in p], coups * (np.diag(pf) - np.outer(pf, pf))
        )
        if fam.bet is not None:
            ev = sum((x * a for x, a in zip(p, fam.pays)), Fraction(0))
            var = sum((x * a * a for x, a in zip(p, fam.pays)), Fraction(0)) - ev * ev
            ref.expected_return, ref.return_variance = coups * ev, coups * var
        out[fam.key] = ref
    return Reference("off-the-top", coups, out)


def shoe_aware(
    shoe: Shoe,
    families,
    remaining: np.ndarray,
    observed_cells: dict[str, np.ndarray] | None = None,
    jobs: int | Runner = 1,
    progress=None,
    backend: str = "auto",
) -> Reference:
    """Sum the exact per-coup distributions of ``remaining`` (``(n, 10)`` unseen value counts).

    ``observed_cells`` (family key -> observed cell of each coup) feeds the
    depletion statistics (see :func:`depletion_test`).  ``jobs`` > 1 shares the
    coups among that many forked processes (where ``fork`` exists); the sums,
    and so the result, are the same, as they are in every ``backend`` (the arithmetic of the
    per-coup counts, :meth:`.families.Counter.ways`).  :class:`ShoeAwareSums` does the same a
    chunk of coups at a time."""
    sums = ShoeAwareSums(shoe, families, observed_cells is not None and "outcome" in observed_cells, backend)
    sums.add(
        remaining, observed_cells["outcome"] if sums.depletion and observed_cells is not None else None, jobs, progress
    )
    return sums.reference()


class ShoeAwareSums:
    """The shoe-aware reference summed chunk by chunk: :meth:`add` the coups of each chunk (any
    order, any split), then :meth:`reference`.  Exact sums are kept as Python integers per number of
    unseen cards (a few hundred keys at most), so memory does not grow with the coups."""

    def __init__(self, shoe: Shoe, families, depletion: bool = True, backend: str = "auto"):
        self.shoe = shoe
        self.backend = check_backend(backend)
        self.families = tuple(families)
        self.counter = counter_for(self.families)
        self.bet_fams = [f for f in self.families if f.bet is not None]
        self.scales = [_bet_scale(f) for f in self.bet_fams]
        self.outcome = next((f for f in self.families if f.key == "outcome"), None)
        self.depletion = depletion and self.outcome is not None
        self.p0 = None
        if self.depletion:
            assert self.outcome is not None
            w0 = self.counter.ways_exact(shoe.value_counts)[0][self.outcome.rows]
            self.p0 = np.array([float(Fraction(int(v), falling(shoe.cards, POSITIONS))) for v in w0])
        E = self.counter.E
        self.n = 0
        self.exact: dict[int, list] = {}  # unseen cards -> [sum w, sum w**2, sum u**2] (object arrays)
        self.pp = np.zeros((E, E))
        self.dep = np.zeros((2, self.outcome.cells)) if self.depletion and self.outcome is not None else None

    def add(
        self, remaining: np.ndarray, outcome_cells: np.ndarray | None = None, jobs: int | Runner = 1, progress=None
    ) -> None:
        """Add the coups of ``remaining`` (``(n, 10)``); ``outcome_cells``: the outcome of each (depletion)."""
        n = remaining.shape[0]
        if n == 0:
            return
        N = remaining.sum(axis=1).astype(np.int64)
        max_n = int(N.max())
        deals_max = falling(max_n, POSITIONS)
        ubits = max([(deals_max * max(abs(a) for a in s[1])).bit_length() for s in self.scales] or [1])
        wbits = deals_max.bit_length()
        obs = outcome_cells if self.depletion else None
        # Sums do not depend on the order of the coups: taking them by number of unseen cards makes
        # each batch share one or two denominators, so the exact per-key sums reduce to a few rows.
        order = np.argsort(N, kind="stable")
        state = _LoopState(
            self.counter,
            remaining[order],
            N[order],
            self.bet_fams,
            self.scales,
            wbits,
            ubits,
            max_n,
            self.outcome if obs is not None else None,
            self.p0 if obs is not None else None,
            obs[order] if obs is not None else None,
            backend=self.backend,
        )
        # Fixed blocks, merged in order whoever computes them: the float sums (covariance,
        # depletion) come out the same bits on one job, forked jobs or a cluster (jobs.run).
        blocks = _blocks(n)
        groups = _groups(blocks, jobs if isinstance(jobs, int) else jobs.tasks)
        if hasattr(jobs, "run"):  # a ForkRunner or DaskRunner open for the whole check
            parts = jobs.run(state, groups, _accumulate)
        elif len(groups) > 1 and can_fork():
            with ForkRunner(len(groups)) as runner:  # for this call only; children report no progress
                parts = runner.run(state, groups, _accumulate)
        else:
            state.progress = progress
            parts = (_accumulate(state, lo, hi) for lo, hi in blocks)
        if progress and state.progress is None:
            progress(n)
        for sums, usums, pp, dep in parts:
            keys = sums.keys()
            s1, s2 = sums.totals(keys)
            u2 = usums.totals(keys)[1] if self.bet_fams else None
            for i, key in enumerate(keys):
                got = self.exact.get(key)
                row = [s1[i], s2[i], u2[i] if u2 is not None else None]
                if got is None:
                    self.exact[key] = row
                else:
                    got[0] = got[0] + row[0]
                    got[1] = got[1] + row[1]
                    if u2 is not None:
                        got[2] = got[2] + row[2]
            self.pp += pp
            if dep is not None:
                self.dep += dep
        self.n += n

    def reference(self) -> Reference:
        """The exact expected counts and variances (and float covariances) of the coups added."""
        E = self.counter.E
        keys = sorted(self.exact)
        if not keys:
            raise ValueError("no coups")
        # exact totals: sum over keys of S / D_key with one common denominator
        D = [falling(k, POSITIONS) for k in keys]
        L = 1
        for d in D:
            L = math.lcm(L, d)
        L2 = L * L
        s1 = np.array([self.exact[k][0] for k in keys], dtype=object).reshape(len(keys), E)
        s2 = np.array([self.exact[k][1] for k in keys], dtype=object).reshape(len(keys), E)
        m1 = np.array([[L // d] for d in D], dtype=object)
        m2 = m1 * m1
        Dk = np.array([[d] for d in D], dtype=object)
        lin_num = list((s1 * m1).sum(axis=0))
        var_num = list(((Dk * s1 - s2) * m2).sum(axis=0))
        bet_fams, scales = self.bet_fams, self.scales
        if bet_fams:
            u2 = np.array([self.exact[k][2] for k in keys], dtype=object).reshape(len(keys), len(bet_fams))
            # minus sum over coups of u**2 / D**2, one entry per bet
            var_num.extend(-(u2 * m2).sum(axis=0))
        expected = [Fraction(int(v), L) for v in lin_num[:E]]
        variance = [Fraction(int(v), L2) for v in var_num[:E]]
        out = {}
        for fam in self.families:
            rows = fam.rows
            e = expected[rows]
            cov = np.diag([float(x) for x in e]) - self.pp[rows, rows]
            out[fam.key] = FamilyReference(fam, e, variance[rows], cov)
        for j, (fam, (Ls, a)) in enumerate(zip(bet_fams, scales)):
            # sum_k EV_k = sum_e a_e * E_e / Ls ;  sum_k Var_k = sum_e a_e^2 E_e / Ls^2 - sum_k u_k^2/(Ls D_k)^2
            e = expected[fam.rows]
            ev = sum((x * ai for x, ai in zip(e, a)), Fraction(0)) / Ls
            second = sum((x * ai * ai for x, ai in zip(e, a)), Fraction(0)) / (Ls * Ls)
            var = second + Fraction(int(var_num[E + j]), L2 * Ls * Ls)
            out[fam.key].expected_return = ev
            out[fam.key].return_variance = var
        ref = Reference("shoe-aware", self.n, out)
        if self.dep is not None:
            assert self.outcome is not None  # depletion
            for i, label in enumerate(self.outcome.labels):
                ref.depletion[label] = (float(self.dep[0, i]), float(self.dep[1, i]))
        return ref


@dataclass
class _LoopState:
    counter: Counter
    remaining: np.ndarray
    N: np.ndarray
    bet_fams: list
    scales: list
    wbits: int
    ubits: int
    max_n: int
    outcome: Family | None
    p0: np.ndarray | None
    obs: np.ndarray | None
    progress: Callable[[int], object] | None = None  # called with the number of coups done, batch by batch
    backend: str = "auto"  # the arithmetic of the counts (Counter.ways)


def _blocks(n: int) -> list[tuple[int, int]]:
    """The coups ``0:n`` of a chunk in blocks of :data:`BLOCK` (whole batches), whatever the jobs."""
    return [(lo, min(lo + BLOCK, n)) for lo in range(0, n, BLOCK)]


def _groups(blocks: list, jobs: int) -> list[list[tuple[int, int]]]:
    """Contiguous groups of blocks, one per job (one group when sharing is not worth it)."""
    n = blocks[-1][1] if blocks else 0
    if jobs <= 1 or n < 64 * BATCH:
        return [blocks]
    jobs = min(jobs, len(blocks))
    cuts = [round(i * len(blocks) / jobs) for i in range(jobs + 1)]
    return [blocks[cuts[i] : cuts[i + 1]] for i in range(jobs) if cuts[i] < cuts[i + 1]]


def _accumulate(st: _LoopState, lo: int, hi: int):
    """Exact and float sums over coups ``lo:hi`` (sorted by unseen cards)."""
    E = st.counter.E
    n = st.remaining.shape[0]
    # keys (unseen cards) of these coups, sorted: the accumulators span base..base+span only (a
    # 10,000-deck shoe would otherwise ask for arrays of 520,001 keys)
    base = int(st.N[lo]) if hi > lo else 0
    span = int(st.N[hi - 1]) - base if hi > lo else 0
    # cells: sum w, sum w**2 per key; bets: sum u**2 per key, u = L D EV
    sums = _BatchSums(E, span, st.wbits) if st.wbits <= 53 else _GroupSums(E, span, st.wbits, n)
    u_exact = st.ubits > 62
    usums = (
        _BatchSums(len(st.bet_fams), span, st.ubits, linear=False)
        if not u_exact and st.wbits <= 53
        else _GroupSums(len(st.bet_fams), span, st.ubits, n)
    )
    sums.base = usums.base = base
    if st.bet_fams:
        # U = |W[:, bet rows] @ A|: partial sums are at most max|a| D < 2**ubits (int64 unless u_exact)
        bet_rows = np.concatenate([np.arange(f.rows.start, f.rows.stop) for f in st.bet_fams])
        A = np.zeros((len(bet_rows), len(st.bet_fams)), dtype=np.int64)
        i = 0
        for j, (f, sc) in enumerate(zip(st.bet_fams, st.scales)):
            A[i : i + f.cells, j] = sc[1]
            i += f.cells
    pp = np.zeros((E, E))
    dep = np.zeros((2, st.outcome.cells)) if st.p0 is not None and st.outcome is not None else None
    # Thousands of mid-sized products: BLAS threads spinning against other busy processes
    # can make them twenty times slower than one thread.
    with threadpool_limits(limits=1, user_api="blas"):
        for start in range(lo, hi, BATCH):
            stop = min(start + BATCH, hi)
            keys = st.N[start:stop]
            local = keys - base
            W = st.counter.ways(st.remaining[start:stop], backend=st.backend)
            if W.dtype == object:
                assert isinstance(sums, _GroupSums)  # object ways: more than 53 bits, so _GroupSums
                _add_object(sums, local, W)
            else:
                sums.add(local, W)
            if st.bet_fams and not u_exact and W.dtype != object:
                usums.add(local, np.abs(W[:, bet_rows] @ A))
            elif st.bet_fams:
                kind = object if (u_exact or W.dtype == object) else np.int64
                Wb = W.astype(object) if kind is object and W.dtype != object else W
                U = np.stack(
                    [np.abs(Wb[:, f.rows] @ np.array(sc[1], dtype=kind)) for f, sc in zip(st.bet_fams, st.scales)],
                    axis=1,
                )
                if kind is object:
                    assert isinstance(usums, _GroupSums)  # u_exact or object ways: _GroupSums
                    _add_object(usums, local, U)
                else:
                    usums.add(local, U)
            if W.dtype == object:
                D = np.array([float(falling(int(k), POSITIONS)) for k in keys])
            else:
                D = (keys * (keys - 1) * (keys - 2) * (keys - 3) * (keys - 4) * (keys - 5)).astype(np.float64)
            P = W.astype(np.float64) / D[:, None]
            pp += P.T @ P
            if dep is not None:
                assert st.outcome is not None and st.obs is not None and st.p0 is not None  # depletion
                po = P[:, st.outcome.rows]
                x = np.zeros_like(po)
                x[np.arange(po.shape[0]), st.obs[start:stop]] = 1.0
                d = po - st.p0
                dep[0] += (d * (x - po)).sum(axis=0)
                dep[1] += (d * d * po * (1 - po)).sum(axis=0)
            if st.progress is not None:
                st.progress(stop - start)
    return sums, usums, pp, dep


def _add_object(sums: _GroupSums, keys, X) -> None:
    """Slow exact path (huge shoes): accumulate Python integers into the limb arrays."""
    mask = (1 << sums.lb) - 1
    for key, row in zip(keys.tolist(), X.tolist()):
        for c, v in enumerate(row):
            v = int(v)
            limbs = [(v >> (sums.lb * i)) & mask for i in range(sums.nl)]
            for i, limb in enumerate(limbs):
                sums.lin[key, i, c] += limb
            for j, (a, b) in enumerate(sums.pairs):
                sums.sq[key, j, c] += limbs[a] * limbs[b]
        sums.count[key] += 1
