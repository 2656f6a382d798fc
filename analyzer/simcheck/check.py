"""Check a simulator's output against the exact values.

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
a floating-point statistic).  p-values come from mpmath (shipped with sympy),
imported when a check runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..bets.catalog import MAIN_BETS, Bet
from ..core.engine import POSITIONS
from ..core.engine import falling as _falling
from ..core.errors import BaccaratError, BetError
from .logs import OUTCOME_NAMES, HandLog, Tallies
from ..core.shoe import Shoe

DEFAULT_ALPHA = Fraction(1, 100)
DEFAULT_POWER = Fraction(9, 10)
DEFAULT_DETECT = Fraction(1, 1000)   # 0.1 percentage point
MIN_EXPECTED = 5                     # cells below this are pooled / not z-tested
BATCH = 128


class CheckError(BaccaratError):
    """Input the check cannot use (names file and row where it can)."""


def _mp():
    import mpmath  # shipped with sympy; imported lazily to keep start-up fast
    mpmath.mp.dps = 40
    return mpmath


def falling(n: int, k: int = POSITIONS) -> int:
    """``n (n-1) ... (n-k+1)``; six cards by default."""
    return _falling(n, k)


class single_blas_thread:
    """Run BLAS on one thread inside the block (restored afterwards).

    The shoe-aware loop does thousands of mid-sized matrix products; with
    OpenBLAS threads spinning against other busy processes they can run twenty
    times slower than on one thread.  Found like threadpoolctl does, through
    the OpenBLAS C API of the loaded library; a no-op when there is none."""

    _api = None

    @classmethod
    def _find(cls):
        if cls._api is None:
            cls._api = ()
            try:
                import ctypes
                with open("/proc/self/maps") as f:
                    paths = sorted({line.split()[-1] for line in f
                                    if "openblas" in line.lower() and line.split()[-1].startswith("/")})
                for path in paths:
                    lib = ctypes.CDLL(path)
                    for pre, post in (("", ""), ("scipy_", "64_"), ("", "64_")):
                        get = getattr(lib, f"{pre}openblas_get_num_threads{post}", None)
                        put = getattr(lib, f"{pre}openblas_set_num_threads{post}", None)
                        if get is not None and put is not None:
                            put.argtypes = [ctypes.c_int]
                            cls._api = (get, put)
                            return cls._api
            except (OSError, ValueError):
                pass
        return cls._api

    def __enter__(self):
        api = self._find()
        self._old = api[0]() if api else None
        if api:
            api[1](1)
        return self

    def __exit__(self, *exc):
        api = self._find()
        if api and self._old:
            api[1](int(self._old))
        return False


# -- families of cells --------------------------------------------------------------

@dataclass(frozen=True)
class Family:
    """A partition of all coups into cells (outcome, cards, final totals, a bet's events)."""

    key: str
    title: str
    labels: tuple[str, ...]
    code: np.ndarray                     # cell of each of the 10**6 value sequences
    bet: Bet | None = None
    pays: tuple[Fraction, ...] = ()
    offset: int = 0

    @property
    def cells(self) -> int:
        return len(self.labels)

    @property
    def rows(self) -> slice:
        return slice(self.offset, self.offset + self.cells)


def _card_features(bet: Bet) -> frozenset:
    out: frozenset = frozenset()
    for e in bet.events:
        out |= getattr(e.when, "card_features", frozenset())
    return out


def value_only(bet: Bet) -> bool:
    """True when the bet's pay table reads point values only (no ranks, no suits)."""
    return not _card_features(bet)


@lru_cache(maxsize=8)
def _base_families():
    from ..core.engine import coup_table

    table = coup_table()
    f = table.features()
    winner = f["winner"].astype(np.int16)
    cards = (f["cards"] - 4).astype(np.int16)
    totals = (f["player_total"].astype(np.int16) * 10 + f["banker_total"]).astype(np.int16)
    return (
        ("outcome", "Outcomes", OUTCOME_NAMES, winner),
        ("cards", "Cards dealt per coup", ("4", "5", "6"), cards),
        ("totals", "Final totals (Player-Banker)", tuple(f"{p}-{b}" for p in range(10) for b in range(10)),
         totals),
    )


def _cached(fn):
    """``lru_cache`` that falls back to a plain call for unhashable arguments."""
    cached = lru_cache(maxsize=64)(fn)

    def call(*args):
        try:
            return cached(*args)
        except TypeError:
            return fn(*args)
    call.__doc__ = fn.__doc__
    return call


@_cached
def bet_family(bet: Bet) -> Family:
    """The bet's pay table as cells: its events in order, then ``otherwise``."""
    from ..core.solver import event_index
    from ..core.engine import coup_table

    if not value_only(bet):
        raise BetError(f"bet {bet.id!r} reads ranks or suits: a hand-log check covers bets on point "
                       f"values only (check it from tallies against the off-the-top reference)")
    code = event_index(bet, coup_table().features())
    labels = tuple(e.event for e in bet.events) + (bet.otherwise_event,)
    pays = tuple(e.pays for e in bet.events) + (bet.otherwise,)
    return Family(f"bet:{bet.id}", bet.name, labels, code, bet, pays)


@_cached
def build_families(bets: tuple[Bet, ...] = (), categories=("outcome", "cards", "totals")) -> tuple[Family, ...]:
    """The tested families: outcome, cards and totals cells, then each bet's pay-table events."""
    fams = []
    for key, title, labels, code in _base_families():
        if key in categories:
            fams.append(Family(key, title, labels, code))
    fams.extend(bet_family(b) for b in bets)
    out, offset = [], 0
    for fam in fams:
        out.append(Family(fam.key, fam.title, fam.labels, fam.code, fam.bet, fam.pays, offset))
        offset += fam.cells
    return tuple(out)


_COUNTERS: dict = {}


def counter_for(families: tuple[Family, ...]) -> Counter:
    """A cached :class:`Counter` (compiling one takes a few tenths of a second)."""
    key = tuple((f.key, f.bet) for f in families)
    if key not in _COUNTERS:
        if len(_COUNTERS) > 8:
            _COUNTERS.clear()
        _COUNTERS[key] = Counter(list(families))
    return _COUNTERS[key]


# -- exact counting of many shoes at once ----------------------------------------------

class Counter:
    """Exact ways of every cell of ``families`` for many shoes (value counts) at once.

    For a shoe with ``n_v`` cards of value ``v``, the ordered six-card deals
    showing a value multiset ``m`` number ``prod_v n_v (n_v-1)...``
    (:meth:`analyzer.core.engine.CoupTable.batch_monomials`, for a batch of shoes at
    once), and the cells' counts are one matrix product.  While ``N (N-1) ... (N-5) <
    2**53`` (shoes of at most 458 cards) every monomial, product and partial sum
    is an integer below ``2**53``, so double precision is exact; larger shoes
    use int64 (below ``2**63``) or Python integers.
    """

    def __init__(self, families: list[Family]):
        from ..core.engine import coup_table

        table = coup_table()
        self.families = families
        M = table.multisets
        self.M = M
        blocks = [np.bincount(fam.code.astype(np.int64) * M + table.multiset,
                              minlength=fam.cells * M).reshape(fam.cells, M) for fam in families]
        self.coef = np.concatenate(blocks).astype(np.int64)          # (E, 5005)
        self.E = self.coef.shape[0]
        self._coef_f = self.coef.astype(np.float64)
        self._coef_obj = None
        self._exact_cache: dict = {}
        self._exps = table.exponents
        self._table = table

    def ways(self, value_counts: np.ndarray) -> np.ndarray:
        """``(B, E)`` int64 (or object) exact ways for ``B`` shoes given by value counts."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.ndim == 1:
            vc = vc[None, :]
        n_max = int(vc.sum(axis=1).max()) if vc.shape[0] else 0
        bound = falling(n_max)
        if bound < 2**53:
            dtype = np.float64
        elif bound < 2**63:
            dtype = np.int64
        else:
            return self.ways_exact(vc)
        mono = self._table.batch_monomials(vc, dtype)
        if dtype is np.float64:
            return (self._coef_f @ mono).T.astype(np.int64)
        return (self.coef @ mono).T

    def ways_exact(self, value_counts) -> np.ndarray:
        """Python-integer version (any shoe size); ``(B, E)`` object array."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.ndim == 1:
            vc = vc[None, :]
        out = np.empty((vc.shape[0], self.E), dtype=object)
        if self._coef_obj is None:
            self._coef_obj = self.coef.astype(object)
            self._exp_terms = [[(v, int(k)) for v, k in enumerate(e) if k] for e in self._exps.tolist()]
        for b, row in enumerate(vc.tolist()):
            key = tuple(row)
            if key not in self._exact_cache:
                ff = [[falling(n, k) for k in range(POSITIONS + 1)] for n in row]
                mono = np.array([math.prod(ff[v][k] for v, k in terms) for terms in self._exp_terms],
                                dtype=object)
                if len(self._exact_cache) > 64:
                    self._exact_cache.clear()
                self._exact_cache[key] = self._coef_obj @ mono
            out[b] = self._exact_cache[key]
        return out


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
        return [int(i) for i in np.flatnonzero(self.count)]

    def totals(self, keys: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Exact ``(sum x, sum x**2)`` per key and column: two ``(len(keys), columns)`` object arrays."""
        lin = self.lin[keys].astype(object)
        sq = self.sq[keys].astype(object)
        s1 = sum(lin[:, i, :] * (1 << (self.lb * i)) for i in range(self.nl))
        s2 = sum(sq[:, j, :] * ((1 if a == b else 2) << (self.lb * (a + b)))
                 for j, (a, b) in enumerate(self.pairs))
        return s1, s2


@dataclass
class FamilyReference:
    """Expected counts and covariance of one family over the tested coups."""

    family: Family
    expected: list[Fraction]
    variance: list[Fraction]
    cov: np.ndarray                     # float (cells x cells)
    # bets only: expected total return and its variance
    expected_return: Fraction | None = None
    return_variance: Fraction | None = None


@dataclass
class Reference:
    kind: str                           # "shoe-aware" or "off-the-top"
    coups: int
    families: dict[str, FamilyReference]
    excluded: int = 0                   # coups left out (fewer than 6 unseen cards)
    depletion: dict[str, tuple[float, float]] = field(default_factory=dict)


def _bet_scale(fam: Family) -> tuple[int, list[int]]:
    L = math.lcm(*(p.denominator for p in fam.pays))
    return L, [int(p * L) for p in fam.pays]


def off_the_top(shoe: Shoe, families, coups: int) -> Reference:
    """Every coup dealt off the top of a full ``shoe``."""
    counter = counter_for(tuple(families))
    w = [int(v) for v in counter.ways_exact(shoe.value_counts)[0]]
    deals = falling(shoe.cards)
    out = {}
    for fam in families:
        p = [Fraction(v, deals) for v in w[fam.rows]]
        pf = np.array([float(x) for x in p])
        ref = FamilyReference(fam, [coups * x for x in p], [coups * x * (1 - x) for x in p],
                              coups * (np.diag(pf) - np.outer(pf, pf)))
        if fam.bet is not None:
            ev = sum((x * a for x, a in zip(p, fam.pays)), Fraction(0))
            var = sum((x * a * a for x, a in zip(p, fam.pays)), Fraction(0)) - ev * ev
            ref.expected_return, ref.return_variance = coups * ev, coups * var
        out[fam.key] = ref
    return Reference("off-the-top", coups, out)


def shoe_aware(shoe: Shoe, families, remaining: np.ndarray,
               observed_cells: dict[str, np.ndarray] | None = None, jobs: int = 1) -> Reference:
    """Sum the exact per-coup distributions of ``remaining`` (``(n, 10)`` unseen value counts).

    ``observed_cells`` (family key -> observed cell of each coup) feeds the
    depletion statistics (see :func:`depletion_test`).  ``jobs`` > 1 shares the
    coups among that many forked processes (where ``fork`` exists); the sums,
    and so the result, are the same."""
    families = tuple(families)
    counter = counter_for(families)
    E = counter.E
    n = remaining.shape[0]
    N = remaining.sum(axis=1).astype(np.int64)
    max_n = int(N.max())
    bet_fams = [f for f in families if f.bet is not None]
    scales = [_bet_scale(f) for f in bet_fams]
    deals_max = falling(max_n)
    ubits = max([(deals_max * max(abs(a) for a in s[1])).bit_length() for s in scales] or [1])
    wbits = deals_max.bit_length()
    outcome = next((f for f in families if f.key == "outcome"), None)
    p0 = obs = None
    if outcome is not None and observed_cells is not None and "outcome" in observed_cells:
        w0 = counter.ways_exact(shoe.value_counts)[0][outcome.rows]
        p0 = np.array([float(Fraction(int(v), falling(shoe.cards))) for v in w0])
        obs = observed_cells["outcome"]
    # Sums do not depend on the order of the coups: taking them by number of unseen cards makes
    # each batch share one or two denominators, so the exact per-key sums reduce to a few rows.
    order = np.argsort(N, kind="stable")
    state = _LoopState(counter, remaining[order], N[order], bet_fams, scales, wbits, ubits, max_n,
                       outcome, p0, obs[order] if obs is not None else None)
    ranges = _split(n, jobs)
    if len(ranges) > 1:
        parts = _run_forked(state, ranges)
    else:
        parts = [_accumulate(state, 0, n)]
    sums, usums, pp, dep = parts[0]
    for s2, u2, pp2, dep2 in parts[1:]:
        sums.merge(s2)
        usums.merge(u2)
        pp += pp2
        if dep is not None:
            dep += dep2
    # exact totals: sum over keys of S / D_key with one common denominator
    keys = sums.keys()
    D = [falling(k) for k in keys]
    L = 1
    for d in D:
        L = math.lcm(L, d)
    L2 = L * L
    s1, s2 = sums.totals(keys)
    m1 = np.array([[L // d] for d in D], dtype=object)
    m2 = m1 * m1
    Dk = np.array([[d] for d in D], dtype=object)
    lin_num = list((s1 * m1).sum(axis=0))
    var_num = list(((Dk * s1 - s2) * m2).sum(axis=0))
    if bet_fams:
        _, u2 = usums.totals(keys)
        # minus sum over coups of u**2 / D**2, one entry per bet
        var_num.extend(-(u2 * m2).sum(axis=0))
    expected = [Fraction(v, L) for v in lin_num[:E]]
    variance = [Fraction(v, L2) for v in var_num[:E]]
    out = {}
    for fam in families:
        rows = fam.rows
        e = expected[rows]
        cov = np.diag([float(x) for x in e]) - pp[rows, rows]
        out[fam.key] = FamilyReference(fam, e, variance[rows], cov)
    for j, (fam, (Ls, a)) in enumerate(zip(bet_fams, scales)):
        # sum_k EV_k = sum_e a_e * E_e / Ls ;  sum_k Var_k = sum_e a_e^2 E_e / Ls^2 - sum_k u_k^2/(Ls D_k)^2
        e = expected[fam.rows]
        ev = sum((x * ai for x, ai in zip(e, a)), Fraction(0)) / Ls
        second = sum((x * ai * ai for x, ai in zip(e, a)), Fraction(0)) / (Ls * Ls)
        var = second + Fraction(var_num[E + j], L2 * Ls * Ls)
        out[fam.key].expected_return = ev
        out[fam.key].return_variance = var
    ref = Reference("shoe-aware", n, out)
    if dep is not None:
        for i, label in enumerate(outcome.labels):
            ref.depletion[label] = (float(dep[0, i]), float(dep[1, i]))
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


def _split(n: int, jobs: int) -> list[tuple[int, int]]:
    """Contiguous ranges of whole batches, one per job (one range when forking is not worth it)."""
    import multiprocessing as mp
    if jobs <= 1 or n < 64 * BATCH or "fork" not in mp.get_all_start_methods():
        return [(0, n)]
    batches = -(-n // BATCH)
    jobs = min(jobs, batches)
    cuts = [round(i * batches / jobs) * BATCH for i in range(jobs + 1)]
    cuts[-1] = n
    return [(cuts[i], cuts[i + 1]) for i in range(jobs) if cuts[i] < cuts[i + 1]]


_FORKED: _LoopState | None = None


def _forked_part(bounds):
    return _accumulate(_FORKED, *bounds)


def _run_forked(state: _LoopState, ranges):
    global _FORKED
    import multiprocessing as mp
    _FORKED = state
    try:
        with mp.get_context("fork").Pool(len(ranges)) as pool:
            return pool.map(_forked_part, ranges)
    finally:
        _FORKED = None


def _accumulate(st: _LoopState, lo: int, hi: int):
    """Exact and float sums over coups ``lo:hi`` (sorted by unseen cards)."""
    E = st.counter.E
    n = st.remaining.shape[0]
    sums = _GroupSums(E, st.max_n, st.wbits, n)                  # cells: sum w, sum w**2 per key
    usums = _GroupSums(len(st.bet_fams), st.max_n, st.ubits, n)  # bets: sum u**2 per key, u = L D EV
    u_exact = st.ubits > 62
    pp = np.zeros((E, E))
    dep = np.zeros((2, st.outcome.cells)) if st.p0 is not None else None
    with single_blas_thread():
        for start in range(lo, hi, BATCH):
            stop = min(start + BATCH, hi)
            keys = st.N[start:stop]
            W = st.counter.ways(st.remaining[start:stop])
            if W.dtype == object:
                _add_object(sums, keys, W)
            else:
                sums.add(keys, W)
            if st.bet_fams:
                kind = object if (u_exact or W.dtype == object) else np.int64
                Wb = W.astype(object) if kind is object and W.dtype != object else W
                U = np.stack([np.abs(Wb[:, f.rows] @ np.array(sc[1], dtype=kind))
                              for f, sc in zip(st.bet_fams, st.scales)], axis=1)
                if kind is object:
                    _add_object(usums, keys, U)
                else:
                    usums.add(keys, U)
            if W.dtype == object:
                D = np.array([float(falling(int(k))) for k in keys])
            else:
                D = (keys * (keys - 1) * (keys - 2) * (keys - 3) * (keys - 4) * (keys - 5)).astype(np.float64)
            P = W.astype(np.float64) / D[:, None]
            pp += P.T @ P
            if dep is not None:
                po = P[:, st.outcome.rows]
                x = np.zeros_like(po)
                x[np.arange(po.shape[0]), st.obs[start:stop]] = 1.0
                d = po - st.p0
                dep[0] += (d * (x - po)).sum(axis=0)
                dep[1] += (d * d * po * (1 - po)).sum(axis=0)
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


# -- statistics -----------------------------------------------------------------------

def normal_p(z: float):
    """Two-sided p-value of a standard normal z (an mpmath number, never underflows)."""
    mp = _mp()
    return mp.erfc(mp.mpf(abs(z)) / mp.sqrt(2))


def chi2_p(x: float, df: int):
    """Upper tail of the chi-square distribution with ``df`` degrees of freedom."""
    mp = _mp()
    if x <= 0:
        return mp.mpf(1)
    return mp.gammainc(mp.mpf(df) / 2, mp.mpf(x) / 2, mp.inf, regularized=True)


def normal_quantile(upper: float) -> float:
    """``z`` with ``P(Z > z) = upper``."""
    mp = _mp()
    return float(mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf(upper)))


def p_text(p) -> str:
    """A p-value for reading: 4 decimals, or 3 significant digits when small."""
    mp = _mp()
    p = mp.mpf(p)
    if p == 0:
        return "0"
    if p >= mp.mpf("0.001"):
        return f"{float(p):.4f}"
    return mp.nstr(p, 3, min_fixed=1, max_fixed=0)


@dataclass
class CellStat:
    label: str
    observed: int
    expected: Fraction
    variance: Fraction
    z: float | None             # None when the variance is zero
    p: object = None
    tested: bool = False


@dataclass
class ChiSquare:
    family: str
    title: str
    statistic: float
    df: int
    p: object
    groups: list[str]
    pooled: int                 # cells pooled into others


@dataclass
class BetStat:
    bet: Bet
    coups: int
    observed: Fraction
    expected: Fraction
    variance: Fraction
    z: float | None
    p: object = None
    tested: bool = False
    note: str = ""


@dataclass
class Finding:
    name: str
    kind: str                   # "chi-square", "z", "exact"
    statistic: str
    p: object
    threshold: float | None = None
    adjusted: object = None
    rejected: bool = False


@dataclass
class PowerRow:
    what: str
    sd: float
    detect: Fraction
    hands: int
    detectable_now: float | None


@dataclass
class Report:
    source: str
    input_kind: str             # "hand log" or "tallies"
    shoe: Shoe
    reference: str
    coups: int
    shoes: int | None
    excluded: int
    alpha: Fraction
    power: Fraction
    detect: Fraction
    cells: dict[str, list[CellStat]]
    titles: dict[str, str]
    chisq: list[ChiSquare]
    bets: list[BetStat]
    tests: list[Finding]
    exact: list[Finding]
    power_rows: list[PowerRow]
    depletion: list[tuple[str, float, object]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(t.rejected for t in self.tests) or any(t.rejected for t in self.exact)

    @property
    def verdict(self) -> str:
        return "FAIL" if self.failed else "PASS"

    @property
    def m(self) -> int:
        return len(self.tests)


def holm(tests: list[Finding], alpha: float) -> None:
    """Holm's step-down correction: sets ``threshold``, ``adjusted`` and ``rejected``."""
    mp = _mp()
    m = len(tests)
    order = sorted(range(m), key=lambda i: mp.mpf(tests[i].p))
    running = mp.mpf(0)
    going = True
    for rank, i in enumerate(order):
        t = tests[i]
        t.threshold = alpha / (m - rank)
        running = max(running, min(mp.mpf(1), (m - rank) * mp.mpf(t.p)))
        t.adjusted = running
        if going and mp.mpf(t.p) <= t.threshold:
            t.rejected = True
        else:
            going = False


def cell_stats(ref: FamilyReference, observed: np.ndarray) -> list[CellStat]:
    total = sum(ref.expected)
    out = []
    for label, o, e, v in zip(ref.family.labels, observed.tolist(), ref.expected, ref.variance):
        if v > 0:
            z = float(o - e) / math.sqrt(v)
        else:
            z = None if o == e else math.copysign(math.inf, o - e)
        s = CellStat(label, int(o), e, v, z)
        s.tested = v > 0 and e >= MIN_EXPECTED and total - e >= MIN_EXPECTED
        s.p = normal_p(z) if z is not None and math.isfinite(z) else (_mp().mpf(0) if z is not None else None)
        out.append(s)
    return out


def chi_square(ref: FamilyReference, observed: np.ndarray) -> ChiSquare | None:
    """The quadratic form ``d' S^-1 d`` of the deviations, small cells pooled.

    With a constant distribution this is Pearson's statistic; with per-coup
    distributions ``S`` is the sum of the per-coup covariances."""
    fam = ref.family
    e = np.array([float(x) for x in ref.expected])
    k = len(e)
    small = [i for i in range(k) if e[i] < MIN_EXPECTED]
    groups = [[i] for i in range(k) if e[i] >= MIN_EXPECTED]
    pooled = 0
    if small:
        pooled = len(small)
        pool = small
        if sum(e[i] for i in pool) < MIN_EXPECTED and groups:
            smallest = min(range(len(groups)), key=lambda g: sum(e[i] for i in groups[g]))
            pool = pool + groups.pop(smallest)
            pooled += 1
        groups.append(sorted(pool))
    groups = [g for g in groups if sum(e[i] for i in g) > 0]
    if len(groups) < 2:
        return None
    A = np.zeros((len(groups), k))
    for gi, g in enumerate(groups):
        A[gi, g] = 1.0
    d = A @ (observed.astype(np.float64) - e)
    S = A @ ref.cov @ A.T
    d, S = d[:-1], S[:-1, :-1]
    try:
        x = float(d @ np.linalg.solve(S, d))
    except np.linalg.LinAlgError:
        x = float(d @ np.linalg.pinv(S) @ d)
    df = len(groups) - 1
    names = ["+".join(fam.labels[i] for i in g) for g in groups]
    return ChiSquare(fam.key, fam.title, x, df, chi2_p(x, df), names, pooled)


def bet_stat(bet: Bet, coups: int, observed: Fraction, expected: Fraction, variance: Fraction,
             enough: bool, note: str = "") -> BetStat:
    if variance > 0:
        z = float(observed - expected) / math.sqrt(variance)
    else:
        z = None if observed == expected else math.copysign(math.inf, observed - expected)
    s = BetStat(bet, coups, observed, expected, variance, z, note=note)
    s.tested = enough and variance > 0
    s.p = normal_p(z) if z is not None and math.isfinite(z) else (_mp().mpf(0) if z is not None else None)
    return s


def hands_needed(sd: float, detect: float, alpha_each: float, power: float) -> int:
    """Hands for a two-sided z test at level ``alpha_each`` to see ``detect`` with ``power``."""
    za = normal_quantile(alpha_each / 2)
    zb = normal_quantile(1 - power)
    return math.ceil(((za + zb) * sd / detect) ** 2)


def detectable(sd: float, n: int, alpha_each: float, power: float) -> float:
    za = normal_quantile(alpha_each / 2)
    zb = normal_quantile(1 - power)
    return (za + zb) * sd / math.sqrt(n)


def depletion_test(ref: Reference) -> list[tuple[str, float, object]]:
    """Does each coup follow its own shoe's depletion?  One z per outcome.

    ``T = sum_k (p_k - p_0)(x_k - p_k) / sqrt(sum_k (p_k - p_0)^2 p_k (1 - p_k))``
    weighs every coup by how far its shoe-aware probability ``p_k`` is from the
    off-the-top ``p_0``: a martingale whose terms have mean 0 for a correct
    simulator, and whose mean is ``-sum (p_k - p_0)^2`` for one that ignores
    depletion (cards drawn with replacement, a shoe that is not what it seems)."""
    out = []
    for label, (num, var) in ref.depletion.items():
        if var > 0:
            z = num / math.sqrt(var)
            out.append((label, z, normal_p(z)))
    return out


# -- assembling a report ---------------------------------------------------------------

def _select_bets(ids, catalog_obj) -> tuple[Bet, ...]:
    from ..bets.catalog import catalog as builtin
    cat = catalog_obj or builtin()
    return tuple(cat.bet(i) for i in dict.fromkeys(ids))


def _power_rows(report_cells, bets: list[BetStat], n: int, m: int, alpha: float, power: float,
                detect: Fraction) -> list[PowerRow]:
    rows = []
    each = alpha / max(m, 1)
    for s in report_cells:
        if n and s.variance > 0:
            sd = math.sqrt(float(s.variance) / n)
            rows.append(PowerRow(f"{s.label} frequency", sd, detect,
                                 hands_needed(sd, float(detect), each, power),
                                 detectable(sd, n, each, power)))
    for b in bets:
        if b.coups and b.variance > 0:
            sd = math.sqrt(float(b.variance) / b.coups)
            rows.append(PowerRow(f"{b.bet.id} bet mean return", sd, detect,
                                 hands_needed(sd, float(detect), each, power),
                                 detectable(sd, b.coups, each, power)))
    return rows


def _finish(report: Report, outcome_cells: list[CellStat], other_cells: list[list[CellStat]]) -> Report:
    tests = report.tests
    for c in report.chisq:
        tests.append(Finding(f"chi-square {c.family} ({c.df} df)", "chi-square", f"{c.statistic:.3f}", c.p))
    for cells in [outcome_cells] + other_cells:
        for s in cells:
            if s.tested:
                fam = "outcome" if cells is outcome_cells else "cards"
                tests.append(Finding(f"z {fam} {s.label}", "z", f"{s.z:+.3f}", s.p))
    for b in report.bets:
        if b.tested:
            tests.append(Finding(f"z bet {b.bet.id}", "z", f"{b.z:+.3f}", b.p))
    for label, z, p in report.depletion:
        tests.append(Finding(f"z depletion {label}", "z", f"{z:+.3f}", p))
    if tests:
        holm(tests, float(report.alpha))
    report.power_rows = _power_rows(outcome_cells, report.bets, report.coups, len(tests),
                                    float(report.alpha), float(report.power), report.detect)
    return report


def check_tallies(tallies: Tallies, shoe: Shoe, bets: tuple[str, ...] | None = None, catalog_obj=None,
                  alpha: Fraction = DEFAULT_ALPHA, power: Fraction = DEFAULT_POWER,
                  detect: Fraction = DEFAULT_DETECT) -> Report:
    """Off-the-top check of tallies: chi-squares, z-scores, per-bet z and exact consistency."""
    n = tallies.coups
    cats = ["outcome"] + (["cards"] if tallies.cards else []) + (["totals"] if tallies.totals else [])
    fams = build_families((), tuple(cats))
    ref = off_the_top(shoe, fams, n)
    observed = {"outcome": np.array([tallies.outcomes[o] for o in OUTCOME_NAMES])}
    if tallies.cards:
        observed["cards"] = np.array([tallies.cards.get(c, 0) for c in (4, 5, 6)])
    if tallies.totals:
        observed["totals"] = np.array([tallies.totals.get((p, b), 0) for p in range(10) for b in range(10)])
    ids = list(tallies.bets) if bets is None else list(bets)
    for i in ids:
        if i not in tallies.bets:
            raise CheckError(f"{tallies.path}: no row bet:{i} (the tallies have "
                             f"{', '.join('bet:' + b for b in tallies.bets) or 'no bet rows'})")
    bet_objs = []
    for i in ids:
        try:
            bet_objs.append(_select_bets([i], catalog_obj)[0])
        except BetError as e:
            raise CheckError(f"{tallies.path}: row {tallies.bets[i].row}: {e}") from None
    report = Report(tallies.path, "tallies", shoe, "off-the-top", n, None, 0, alpha, power, detect,
                    {}, {}, [], [], [], [], [])
    for fam in fams:
        report.cells[fam.key] = cell_stats(ref.families[fam.key], observed[fam.key])
        report.titles[fam.key] = fam.title
        c = chi_square(ref.families[fam.key], observed[fam.key])
        if c is not None:
            report.chisq.append(c)
    # exact consistency of the tallies with themselves
    if tallies.totals:
        by = [0, 0, 0]
        for (p, b), k in tallies.totals.items():
            by[0 if p > b else 1 if b > p else 2] += k
        for i, o in enumerate(OUTCOME_NAMES):
            if by[i] != tallies.outcomes[o]:
                report.exact.append(Finding(f"totals rows agree with the {o} row", "exact",
                                         f"{by[i]} vs {tallies.outcomes[o]}", _mp().mpf(0), rejected=True))
    if bet_objs:
        try:
            analysis = _solver_for(tuple(bet_objs)).solve(shoe)
        except BetError as e:
            raise CheckError(f"{tallies.path}: {e}") from None
        for bet in bet_objs:
            t = tallies.bets[bet.id]
            r = analysis.bet(bet.id)
            if t.count > n:
                raise CheckError(f"{tallies.path}: row {t.row}: bet:{bet.id} counts {t.count} coups bet, "
                                 f"more than the {n} coups of the tallies")
            top = max(e.pays for e in r.events if e.ways)
            low = min(e.pays for e in r.events if e.ways)
            if not t.count * low <= t.total_return <= t.count * top:
                raise CheckError(f"{tallies.path}: row {t.row}: bet:{bet.id} returns {_amount(t.total_return)} "
                                 f"over {t.count} coups, outside what its pay table allows "
                                 f"({_amount(t.count * low)} to {_amount(t.count * top)})")
            enough = all(t.count * ev.probability >= MIN_EXPECTED for ev in r.events if ev.ways)
            s = bet_stat(bet, t.count, t.total_return, t.count * r.ev, t.count * r.variance, enough,
                         "" if enough else f"fewer than {MIN_EXPECTED} expected coups in some event: not tested")
            report.bets.append(s)
            determined = _return_from_counts(bet, tallies)
            if determined is not None and t.count == n:
                ok = determined == t.total_return
                report.exact.append(Finding(f"bet {bet.id} return agrees with the counts", "exact",
                                         f"{_amount(t.total_return)} vs {_amount(determined)}",
                                         _mp().mpf(1 if ok else 0), rejected=not ok))
    outcome_cells = report.cells["outcome"]
    others = [report.cells["cards"]] if "cards" in report.cells else []
    report.notes.append("Tallies have no shoe boundaries: every coup is compared with the off-the-top "
                        "distribution (right for a simulator that reshuffles before every coup; for "
                        "shoes dealt to a cut card, check the hand log instead).")
    return _finish(report, outcome_cells, others)


@_cached
def _solver_for(bets: tuple[Bet, ...]):
    from ..core.solver import Solver
    return Solver(list(bets))


def _amount(x: Fraction) -> str:
    from .logs import exact_amount
    return exact_amount(x)


@_cached
def _pays_by_cell(bet: Bet) -> dict[str, list[Fraction]]:
    """For each tallied partition (outcome, totals) that decides the bet's payout: the pay of each cell."""
    if not value_only(bet):
        return {}
    fam = bet_family(bet)
    out = {}
    for key, _, labels, code in _base_families():
        if key == "cards":
            continue
        pairs = np.unique(code.astype(np.int64) * 64 + fam.code)
        cell_of = pairs // 64
        if len(np.unique(cell_of)) != len(pairs):
            continue  # some cell holds coups paid differently
        pay = [Fraction(0)] * len(labels)
        for c, ev in zip(cell_of.tolist(), (pairs % 64).tolist()):
            pay[c] = fam.pays[ev]
        out[key] = pay
    return out


def _return_from_counts(bet: Bet, tallies: Tallies) -> Fraction | None:
    """The bet's exact total return when its pay table is a function of tallied cells."""
    pays = _pays_by_cell(bet)
    counts = {"outcome": [tallies.outcomes[o] for o in OUTCOME_NAMES]}
    if tallies.totals:
        counts["totals"] = [tallies.totals.get((p, b), 0) for p in range(10) for b in range(10)]
    for key in ("outcome", "totals"):
        if key in pays and key in counts:
            return sum((k * x for k, x in zip(counts[key], pays[key]) if k), Fraction(0))
    return None


def check_log(log: HandLog, shoe: Shoe, reference: str = "shoe-aware", bets: tuple[str, ...] = MAIN_BETS,
              catalog_obj=None, alpha: Fraction = DEFAULT_ALPHA, power: Fraction = DEFAULT_POWER,
              detect: Fraction = DEFAULT_DETECT, depletion: bool = True, jobs: int = 1) -> Report:
    """Check a hand log (replayed first: any violation is an error).

    ``jobs`` > 1 shares the shoe-aware solves among that many forked processes."""
    from .verify import replay

    rep = replay(log, shoe, limit=1)
    if rep.violations:
        v = rep.violations[0]
        total = rep.counts["violations"]
        more = f" and {total - 1} more" if total > 1 else ""
        raise CheckError(f"{log.path}: row {v.row}: {v.message}{more}; the check needs a log that "
                         f"follows the drawing rules and the declared shoe (run 'baccarat verify' "
                         f"to list every violation)")
    try:
        bet_objs = _select_bets(bets, catalog_obj)
        fams = build_families(bet_objs)
    except BetError as e:
        raise CheckError(str(e)) from None
    seq = rep.sequence
    excluded = 0
    shoes = log.shoes
    if reference == "shoe-aware":
        keep = rep.unseen >= POSITIONS
        excluded = int((~keep).sum())
        if not keep.any():
            raise CheckError(f"{log.path}: no coup starts with 6 or more unseen cards: nothing to check")
        seq = seq[keep]
        remaining = rep.remaining[keep]
    elif reference != "off-the-top":
        raise CheckError(f"unknown reference {reference!r} (shoe-aware or off-the-top)")
    n = int(seq.shape[0])
    observed = {fam.key: np.bincount(fam.code[seq], minlength=fam.cells) for fam in fams}
    if reference == "shoe-aware":
        ref = shoe_aware(shoe, fams, remaining,
                         {"outcome": fams[0].code[seq]} if depletion else None, jobs=jobs)
    else:
        ref = off_the_top(shoe, fams, n)
    report = Report(log.path, "hand log", shoe, reference, n, shoes, excluded, alpha, power, detect,
                    {}, {}, [], [], [], [], [])
    for fam in fams:
        fr = ref.families[fam.key]
        if fam.bet is None:
            report.cells[fam.key] = cell_stats(fr, observed[fam.key])
            report.titles[fam.key] = fam.title
            c = chi_square(fr, observed[fam.key])
            if c is not None:
                report.chisq.append(c)
        else:
            got = sum((int(k) * p for k, p in zip(observed[fam.key], fam.pays)), Fraction(0))
            enough = all(e >= MIN_EXPECTED for e, v in zip(fr.expected, fr.variance) if v > 0)
            report.bets.append(bet_stat(fam.bet, n, got, fr.expected_return, fr.return_variance, enough,
                                        "" if enough else f"fewer than {MIN_EXPECTED} expected coups in "
                                                          f"some event: not tested"))
    if reference == "shoe-aware" and depletion:
        report.depletion = depletion_test(ref)
    if excluded:
        report.notes.append(f"{excluded} coup{'s' if excluded != 1 else ''} started with fewer than 6 "
                            f"unseen cards and {'were' if excluded != 1 else 'was'} left out.")
    if reference == "off-the-top" and log.shoes < log.coups:
        report.notes.append("Off-the-top reference on a log dealt from shoes: coups within a shoe are "
                            "neither independent nor, after the first, distributed as off the top; "
                            "use the shoe-aware reference (the default) to test such a simulator.")
    return _finish(report, report.cells["outcome"], [report.cells["cards"]])


# -- rendering ---------------------------------------------------------------------------

def _num(x: float, digits: int = 2) -> str:
    return f"{x:,.{digits}f}"


def _z(z: float | None) -> str:
    if z is None:
        return "-"
    if not math.isfinite(z):
        return "+inf" if z > 0 else "-inf"
    return f"{z:+.3f}"


def _pct(x: float) -> str:
    return f"{x * 100:.4g} pp"


def _reference_text(r: Report) -> str:
    if r.reference == "shoe-aware":
        return ("shoe-aware: each coup's exact distribution given every card seen before it in its "
                "shoe (cards burned face down are unseen and exchangeable with the rest)")
    return "off-the-top: every coup distributed as the first coup of a freshly shuffled declared shoe"


def _md_table(rows, headers, align) -> str:
    from tabulate import tabulate
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True, colalign=align)


def report_markdown(r: Report) -> str:
    out = [f"# Simulator check: {r.source}", ""]
    what = f"{r.coups:,} coups" + (f" in {r.shoes:,} shoes" if r.shoes is not None else "")
    out.append(f"- Input: {r.input_kind}, {what}, read completely; declared shoe {r.shoe.describe()}.")
    out.append(f"- Reference: {_reference_text(r)}.")
    out.append(f"- Level: alpha = {float(r.alpha):g}, family-wise over {r.m} statistical test"
               f"{'s' if r.m != 1 else ''} (Holm); cells expecting fewer than {MIN_EXPECTED} coups are "
               f"pooled in chi-squares and not z-tested.")
    for note in r.notes:
        out.append(f"- {note}")
    out.append("")
    for key, cells in r.cells.items():
        out.append(f"## {r.titles[key]}")
        out.append("")
        shown = cells
        if key == "totals":
            shown = sorted(cells, key=lambda s: -abs(s.z) if s.z is not None else 0)[:8]
            out.append("The 8 cells furthest from expectation (all 100 cells enter the chi-square):")
            out.append("")
        rows = [[s.label, f"{s.observed:,}", _num(float(s.expected)), _num(math.sqrt(s.variance)),
                 _z(s.z), p_text(s.p) if s.p is not None else "-"] for s in shown]
        out.append(_md_table(rows, ["cell", "observed", "expected", "sd", "z", "p (two-sided)"],
                             ["left", "right", "right", "right", "right", "right"]))
        for c in r.chisq:
            if c.family == key:
                pooled = f", {c.pooled} small cell{'s' if c.pooled != 1 else ''} pooled" if c.pooled else ""
                out.append("")
                out.append(f"Chi-square {c.statistic:.3f} on {c.df} df{pooled}: p = {p_text(c.p)}.")
        out.append("")
    if r.bets:
        out.append("## Bets (net units won, one unit per coup)")
        out.append("")
        rows = [[b.bet.id, f"{b.coups:,}", _num(float(b.observed)), _num(float(b.expected)),
                 _num(math.sqrt(b.variance)), _z(b.z), p_text(b.p) if b.p is not None else "-",
                 f"{float(b.observed) / b.coups:+.5f}" if b.coups else "-",
                 f"{float(b.expected) / b.coups:+.5f}" if b.coups else "-"] for b in r.bets]
        out.append(_md_table(rows, ["bet", "coups", "return", "expected", "sd", "z", "p", "mean", "EV"],
                             ["left"] + ["right"] * 8))
        for b in r.bets:
            if b.note:
                out.append("")
                out.append(f"`{b.bet.id}`: {b.note}.")
        out.append("")
    if r.depletion:
        out.append("## Depletion (shoe-aware)")
        out.append("")
        out.append("Does each coup follow its own shoe's composition?  z of the sum over coups of "
                   "(p_k - p_0)(x_k - p_k), p_k shoe-aware, p_0 off the top; a simulator that ignores "
                   "depletion drives it negative.")
        out.append("")
        rows = [[label, _z(z), p_text(p)] for label, z, p in r.depletion]
        out.append(_md_table(rows, ["outcome", "z", "p"], ["left", "right", "right"]))
        out.append("")
    out.append("## Tests")
    out.append("")
    rows = []
    for i, t in enumerate(r.tests, 1):
        rows.append([str(i), t.name, t.statistic, p_text(t.p), f"{t.threshold:.3g}",
                     p_text(t.adjusted), "REJECT" if t.rejected else "pass"])
    for t in r.exact:
        rows.append(["-", t.name, t.statistic, "exact", "-", "-", "FAIL" if t.rejected else "pass"])
    out.append(_md_table(rows, ["#", "test", "statistic", "p", "Holm threshold", "adjusted p", "result"],
                         ["right", "left", "right", "right", "right", "right", "left"]))
    out.append("")
    out.append("## Verdict")
    out.append("")
    rejected = [t.name for t in r.tests if t.rejected] + [t.name for t in r.exact if t.rejected]
    if r.failed:
        out.append(f"**FAIL** at alpha = {float(r.alpha):g} (family-wise, Holm over {r.m} tests): "
                   + "; ".join(rejected) + ".")
    elif r.m == 0:
        out.append("**PASS**, but vacuously: no category or bet expects enough coups to be tested "
                   "(see the power statement for how many hands are needed).")
    else:
        out.append(f"**PASS**: no test rejects the exact reference at alpha = {float(r.alpha):g} "
                   f"(family-wise, Holm over {r.m} tests).")
    out.append("")
    if r.power_rows:
        out.append("## Power")
        out.append("")
        each = float(r.alpha) / max(r.m, 1)
        out.append(f"Hands a single two-sided z test at level alpha/m = {each:.3g} (Bonferroni, so the "
                   f"Holm procedure above does at least as well) needs to detect a deviation of "
                   f"{_pct(float(r.detect))} with {float(r.power):.0%} power, and the smallest deviation "
                   f"these {r.coups:,} hands detect with that power (normal approximation, per-hand sd "
                   f"of the reference):")
        out.append("")
        rows = [[p.what, f"{p.sd:.5f}", _pct(float(p.detect)), f"{p.hands:,}",
                 _pct(p.detectable_now) if p.detectable_now is not None else "-"] for p in r.power_rows]
        out.append(_md_table(rows, ["quantity", "sd per hand", "deviation", "hands needed", "detectable now"],
                             ["left", "right", "right", "right", "right"]))
        out.append("")
    return "\n".join(out)


def _exact(x: Fraction) -> str:
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _pfloat(p) -> float:
    return float(p) if p is not None else None


def report_dict(r: Report) -> dict:
    return {
        "source": r.source, "input": r.input_kind, "shoe": r.shoe.spec(), "reference": r.reference,
        "coups": r.coups, "shoes": r.shoes, "excluded_coups": r.excluded,
        "alpha": _exact(r.alpha), "tests_in_family": r.m, "verdict": r.verdict,
        "cells": {key: [{"cell": s.label, "observed": s.observed, "expected": _exact(s.expected),
                         "expected_float": float(s.expected), "variance": _exact(s.variance),
                         "variance_float": float(s.variance), "z": s.z, "p": _pfloat(s.p),
                         "tested": s.tested} for s in cells] for key, cells in r.cells.items()},
        "chi_square": [{"family": c.family, "statistic": c.statistic, "df": c.df, "p": _pfloat(c.p),
                        "groups": c.groups, "pooled": c.pooled} for c in r.chisq],
        "bets": [{"bet": b.bet.id, "coups": b.coups, "return": _exact(b.observed),
                  "expected_return": _exact(b.expected), "expected_return_float": float(b.expected),
                  "variance": _exact(b.variance), "variance_float": float(b.variance),
                  "z": b.z, "p": _pfloat(b.p), "tested": b.tested} for b in r.bets],
        "depletion": [{"outcome": label, "z": z, "p": _pfloat(p)} for label, z, p in r.depletion],
        "tests": [{"test": t.name, "kind": t.kind, "statistic": t.statistic, "p": _pfloat(t.p),
                   "p_text": p_text(t.p), "holm_threshold": t.threshold, "adjusted_p": _pfloat(t.adjusted),
                   "rejected": t.rejected} for t in r.tests],
        "exact_checks": [{"test": t.name, "detail": t.statistic, "failed": t.rejected} for t in r.exact],
        "power": [{"quantity": p.what, "sd_per_hand": p.sd, "deviation": float(p.detect),
                   "hands_needed": p.hands, "detectable_now": p.detectable_now} for p in r.power_rows],
        "notes": r.notes,
    }


def report_json(r: Report) -> str:
    import json
    return json.dumps(report_dict(r), indent=2) + "\n"


def report_csv(r: Report) -> str:
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["test", "kind", "statistic", "p", "holm_threshold", "adjusted_p", "result"])
    for t in r.tests:
        w.writerow([t.name, t.kind, t.statistic, p_text(t.p), f"{t.threshold:.6g}", p_text(t.adjusted),
                    "reject" if t.rejected else "pass"])
    for t in r.exact:
        w.writerow([t.name, t.kind, t.statistic, "", "", "", "fail" if t.rejected else "pass"])
    w.writerow(["verdict", "", r.verdict, "", f"{float(r.alpha):g}", "", ""])
    return buf.getvalue()
