"""Long flat sessions, exact: the distribution of the net result of N coups of one bet.

Every coup is an independent deal from the full declared shoe (off the top) and the
same stake is placed on the same bet each coup, with no bankroll to run out.  The
bet's events are counted as integers over one common denominator ``D`` (``w_i`` ways
of paying ``pays_i`` to 1), so after N coups the net result is distributed as the
coefficients of the integer polynomial ``P(x)**N`` over ``D**N``, where
``P(x) = sum w_i x**(s_i)`` and ``s_i`` is the net of the event in *ticks* (the
greatest common divisor of the stake times every payout, shifted so that the worst
event is 0).

The coefficients are computed exactly, one after another, by J. C. P. Miller's
recurrence for the powers of a polynomial (from ``P y' = N P' y`` for ``y = P**N``)::

    k p_0 c_k = sum_i p_i ((N + 1) i - k) c_(k-i)

It needs only the last ``max s_i`` coefficients, so the memory stays small; the
work is one multiplication by a small integer per term of ``P`` and one exact
division per coefficient.  Two devices keep it fast: each coefficient is kept
divided by the power of ``p_0`` that it provably contains (``c_k`` is a sum of
products of N weights of which at least ``N - k // s_1`` are ``p_0``), which leaves
a division by ``k`` alone (one machine digit); and the upper half is computed from
the other end (the reversed polynomial), where the same holds for the best event.
The two halves meet in the middle, and their masses must add up to ``D**N``
exactly (checked on every run).  Only the mass is summed as the coefficients go by;
the first moment at a cut comes from the same relation summed up to the cut,
``D M_K = N sum_i i p_i S_(K-i) + sum_i p_i sum_(K-i<j<=K) j c_j`` (``S`` the mass,
``M`` the moment), and must come out a whole number.  The numbers are GMP's
(:mod:`analyzer.core.bigint`: about 3.5 times as fast on numbers of 450,000 bits)
and the figures are Fractions of Python's integers.  A Banker trip of 10,000 coups
on 8 decks is almost all GMP's own work: of the two multiplications, the addition,
the exact division and the mass's addition that each coefficient costs, the
division is about 40%.

What is kept is what the figures need, all exact integers over ``D**N``: the mass
and first moment of the net at or below each requested cut (for tail probabilities
and loss rebates), the quantiles, and the mean and variance (closed forms).  The
probabilities of single values are kept only as floats, for charts (each within a
relative error of about ``N * 1e-14``: 1e-10 at 10,000 coups).  The work grows as
``N**2`` times the spread of the ticks; it is estimated before it starts and refused beyond :data:`WORK_BUDGET`
with the largest N that fits (:func:`trip_plan`).

>>> trip = flat_trip([(Fraction(1, 2), 1), (Fraction(1, 2), -1)], 4, cuts=[-2], tails=[2])
>>> trip.at_most(-2), trip.at_most(0), trip.at_least(2)     # P(net <= -2), P(net <= 0), P(net >= 2)
(Fraction(5, 16), Fraction(11, 16), Fraction(5, 16))
>>> trip.loss_beyond(0), trip.mean, trip.variance           # E[max(0, -net)]
(Fraction(3, 4), Fraction(0, 1), Fraction(4, 1))
>>> [(str(q), str(v)) for q, v in trip.quantiles][:3]
[('1/100', '-4'), ('1/20', '-4'), ('1/10', '-2')]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.bigint import accumulator, fraction, gmp, kernel
from ..core.errors import BaccaratError
from ..core.frames import data_frame, fraction_text

#: Work refused beyond, in estimated seconds (see :func:`trip_plan`): a Banker trip of
#: 10,000 coups on 8 decks is estimated at 12 s and takes about 7 s.
WORK_BUDGET = 15.0
#: Most coups ever asked (far beyond anything the budget allows; refused before any work).
MAX_COUPS = 1_000_000
#: Seconds per coefficient per bit of ``D**N`` (measured on one core: with GMP, at most 0.16
#: of the estimate for runs over a second, 0.34 for the shortest; Python's integers, 3.5 times slower).
_BIT_SECONDS = {True: 6.8e-11, False: 3.4e-10}  # by gmp()
#: Coefficients between two calls of a trip's ``progress``.
_PROGRESS_EVERY = 4096
QUANTILES = tuple(Fraction(n, 100) for n in (1, 5, 10, 25, 50, 75, 90, 95, 99))
_LOG_WINDOW = 1e-6  # an exact comparison is made when the float shadow is this close (log2)


class SessionError(BaccaratError):
    """A long session that cannot be computed: bad input or beyond the budget."""


def _fgcd(values) -> Fraction:
    g = Fraction(0)
    for v in values:
        v = Fraction(v)
        if v:
            g = Fraction(
                math.gcd(g.numerator * v.denominator, v.numerator * g.denominator), g.denominator * v.denominator
            )
    return g


@dataclass(frozen=True)
class TripPlan:
    """A flat trip before any work: exact weights, ticks, the polynomial, the cost.

    ``terms`` maps an exponent (the net of a coup in steps of ``step`` ticks above the
    worst coup's) to its weight over ``denominator``; the net of the trip is
    ``coups * worst + step * k`` ticks for the coefficient ``c_k`` of ``P**coups``.
    """

    stake: Fraction
    coups: int
    weights: tuple[tuple[int, Fraction], ...]  # (ways over D, pays to 1), equal pays merged
    denominator: int  # D
    tick: Fraction  # money of one tick
    worst: int  # the worst coup's net, in ticks
    step: int  # ticks between exponents
    terms: tuple[tuple[int, int], ...]  # (exponent, weight), exponent 0 first
    seconds: float
    fits: int
    budget: float = WORK_BUDGET

    @property
    def degree(self) -> int:
        return self.terms[-1][0]


def _weights(events):
    merged: dict[Fraction, Fraction] = {}
    for p, pays in events:
        p, pays = Fraction(p), Fraction(pays)
        if p < 0 or pays < -1:
            raise SessionError(f"an event of probability {p} paying {pays} cannot be bet")
        if p:
            merged[pays] = merged.get(pays, Fraction(0)) + p
    if sum(merged.values()) != 1:
        raise SessionError(f"the event probabilities sum to {sum(merged.values())}, not 1")
    den = math.lcm(*(p.denominator for p in merged.values()))
    return tuple((int(p * den), pays) for pays, p in sorted(merged.items())), den


def _events(bet):
    if hasattr(bet, "events") and hasattr(bet, "deals"):
        return [(Fraction(e.ways, e.deals), e.pays) for e in bet.events]
    return bet


def _estimate(coups: int, terms, den: int) -> float:
    """Seconds of the two passes: each coefficient costs about the same few operations on
    numbers of ``N log2 D`` bits, more with more than three terms (measured on 8 decks: Player
    and Tie take 60-100% of it, Banker about half)."""
    top, n = terms[-1][0], coups
    if top == 0:
        return 0.0
    return (n * top + 1) * n * max(den.bit_length(), 1) * max(len(terms), 3) / 3 * _BIT_SECONDS[gmp()]


def _meet(n: int, top: int, lo: int, hi: int) -> int:
    """The last exponent of the lower pass: both passes stay in their fast range if they can."""
    k = n * top
    return max(0, min(max(k // 2, k - n * hi), n * lo - 1))


def trip_plan(events, coups: int, stake=1, budget: float = WORK_BUDGET) -> TripPlan:
    """Check a flat trip of ``coups`` coups of ``stake`` on a bet and estimate its work.

    ``events`` is a sequence of ``(probability, pays)`` or a
    :class:`~analyzer.core.results.BetResult`.  Raises :class:`SessionError` for bad
    input; :func:`flat_trip` refuses a plan whose ``fits`` is below its coups (the most
    coups whose estimated work is within ``budget`` seconds).

    >>> p = trip_plan([(Fraction(1, 2), Fraction(19, 20)), (Fraction(1, 2), -1)], 10)
    >>> p.tick, p.worst, p.step, p.terms, p.fits
    (Fraction(1, 20), -20, 39, ((0, 1), (1, 1)), 10)
    """
    if not isinstance(coups, int) or isinstance(coups, bool) or coups < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise SessionError(f"the number of coups must be a whole number of at least 1, got {coups!r}")
    if coups > MAX_COUPS:
        raise SessionError(f"{coups:,} coups are beyond the most this computes ({MAX_COUPS:,})")
    try:
        stake = Fraction(stake)
    except (TypeError, ValueError, ZeroDivisionError):
        raise SessionError(f"the stake must be a positive number, got {stake!r}") from None
    if stake <= 0:
        raise SessionError(f"the stake must be positive, got {stake}")
    weights, den = _weights(_events(events))
    tick = _fgcd([stake * pays for _, pays in weights]) or stake
    ticks = [int(stake * pays / tick) for _, pays in weights]
    worst = min(ticks)
    step = math.gcd(*(t - worst for t in ticks)) or 1
    terms = tuple(sorted(((t - worst) // step, w) for t, (w, _) in zip(ticks, weights)))
    seconds = _estimate(coups, terms, den)
    fits = coups
    if seconds > budget:
        lo, hi = 0, coups  # the cost grows with the coups: the largest that fits
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _estimate(mid, terms, den) <= budget:
                lo = mid
            else:
                hi = mid - 1
        fits = lo
    return TripPlan(stake, coups, weights, den, tick, worst, step, terms, seconds, fits, budget)


def _log2(x: int) -> float:
    b = x.bit_length()
    if b <= 1000:
        return math.log2(x) if x > 0 else -math.inf
    return b - 64 + math.log2(x >> (b - 64))


def _pass(terms, n: int, last: int, cuts, targets, points, progress=None):
    """The coefficients ``c_0 .. c_last`` of ``P**n`` (exponent 0 first), in scaled form.

    ``c_k = f_k * p0**e(k)`` with ``e(k) = max(0, n - k // s_1)``; keeps the running
    mass ``S`` of ``c_0 .. c_k`` in the same scale.  Returns the exact (mass, first moment)
    at each exponent in ``cuts`` (a sorted list), the smallest ``k`` whose mass reaches
    each target (``(key, den, rhs, log2 of rhs / den)``: ``S * den >= rhs``, compared
    exactly when a float shadow comes near), and the mass at ``last``.  ``points``
    (a list, or None) receives ``(k, log2 c_k)`` for every nonzero coefficient, and
    ``progress(count)`` the number of coefficients done since its last call.

    The moment is not summed: Miller's relation summed over ``k <= K`` gives
    ``sum_i p_i (M_(K-i) - n i S_(K-i)) = 0`` for the mass ``S_j`` and first moment
    ``M_j`` of ``c_0 .. c_j``, so ``D M_K = n sum_i i p_i S_(K-i) + sum_i p_i sum_(K-i<j<=K) j c_j``
    (``D`` the sum of the weights): the masses a few exponents before the cut and the last
    ``top`` coefficients, which the ring still holds.
    """
    big, divexact = kernel()
    p0 = big(terms[0][1])
    others = [(i, w, w * (n + 1) * i) for i, w in terms[1:]]  # w_i ((N + 1) i - k) = base_i - w_i k
    s1 = others[0][0] if others else 1
    top = terms[-1][0]
    size = top + 1
    zero = big(0)
    ring: list = [zero] * size
    lp0 = math.log2(p0)
    log2 = math.log2
    powers: dict[int, int] = {}

    def pw(d):
        if d > 64:
            return p0**d
        if d not in powers:
            powers[d] = p0**d
        return powers[d]

    def e(k):
        return max(0, n - k // s1)

    # Between ``fast`` and ``stop`` every c_(k-i) exists and carries at least p0**(e(k) + 1):
    # the sum is kept in units of p0**(e(k) + 1), the term i multiplied by p0**d_i with d_i
    # depending on k mod s_1 only, and c_k is that sum over k.  Elsewhere the general step.
    fast, stop = max(top, 1), min(last + 1, n * s1)
    steps = []
    for r in range(s1):
        row = []
        for i, w, base in others:
            d = -((r - i) // s1) - 1
            row.append((i, w * pw(d), base * pw(d)))
        steps.append(tuple(row))

    f = big(1)
    ring[0] = f
    S = accumulator(1)  # added into in place
    found: dict = {}
    got: dict = {}
    pending = list(targets)
    cut_set = set(cuts)
    need = {c - i for c in cuts for i, _, _ in others if c - i >= 0}  # S_(K-i) for a cut K
    events = sorted(cut_set | need)
    ev_i = 0
    next_ev = events[0] if events else -1
    saved: dict = {}
    weight_sum = sum(w for _, w in terms)

    def moment(K):
        """The exact first moment at the cut ``K`` (the ring holds c_(K-top) .. c_K)."""
        eK = e(K)
        acc = 0
        for i, w, _ in others:
            if K - i >= 0:
                acc += n * i * w * saved[K - i]
        win = 0
        for j in range(max(0, K - top + 1), K + 1):
            c = ring[j % size]
            if c:
                wj = sum(w for i, w, _ in others if i > K - j)
                win += c * (j * wj * pw(e(j) - eK))
        acc += win * pw(eK)
        m, rest = divmod(acc, weight_sum)
        if rest:
            raise AssertionError("the first moment at a cut is not a whole number")  # pragma: no cover
        return m

    near = min((lt for _, _, _, lt in pending), default=math.inf) - _LOG_WINDOW
    ek = e(0)
    for k in range(last + 1):
        if k:
            prev_e, ek = ek, e(k)
            if fast <= k < stop:
                (i, w, base), *more = steps[k % s1]
                s = ring[(k - i) % size] * (base - w * k)
                for i, w, base in more:
                    s += ring[(k - i) % size] * (base - w * k)
                f = divexact(s, k)
            else:
                # c_(k-i) carries p0**e(k-i), at least p0**e(k); the sum is kept in units of p0**lo
                lo = ek + 1
                for i, _, _ in others:
                    if i > k:
                        break
                    if ring[(k - i) % size] and e(k - i) == ek:
                        lo = ek
                        break
                s = zero
                for i, w, base in others:
                    if i > k:
                        break
                    prev = ring[(k - i) % size]
                    if prev:
                        d = e(k - i) - lo
                        s += prev * (base - w * k) if not d else prev * ((base - w * k) * pw(d))
                f = (divexact(s, k) if lo > ek else divexact(s, k * p0)) if s else zero
            ring[k % size] = f
            if prev_e != ek:
                S *= pw(prev_e - ek)
            S += f
        if f:
            scale = ek * lp0
            if points is not None:
                b = f.bit_length()
                points.append((k, (b - 64 + log2(f >> (b - 64)) if b > 1000 else log2(f)) + scale))
            if pending and S.bit_length() + scale >= near - 1:
                shadow = _log2(S) + scale
                if shadow >= near:  # a float shadow of log2 S near a target: compared exactly
                    keep = []
                    for key, den, rhs, lt in pending:
                        if shadow >= lt - _LOG_WINDOW and big(S) * pw(ek) * den >= rhs:
                            found[key] = k
                        else:
                            keep.append((key, den, rhs, lt))
                    pending = keep
                    near = min((lt for _, _, _, lt in pending), default=math.inf) - _LOG_WINDOW
        if k == next_ev:
            exact = big(S) * pw(ek)
            if k in need:
                saved[k] = exact
            if k in cut_set:
                got[k] = (exact, moment(k))
            ev_i += 1
            next_ev = events[ev_i] if ev_i < len(events) else -1
        if progress is not None and k % _PROGRESS_EVERY == _PROGRESS_EVERY - 1:
            progress(_PROGRESS_EVERY)
    if progress is not None and (last + 1) % _PROGRESS_EVERY:
        progress((last + 1) % _PROGRESS_EVERY)
    return got, found, big(S) * pw(e(last))


@dataclass(frozen=True)
class FlatTrip:
    """The exact figures of a flat trip: N coups of one stake on one bet, no bankroll limit.

    Probabilities are exact ``Fraction`` s (numerators over ``D**N``); the net result
    is money won (negative: lost).  ``cut_figures`` holds, for each cut ``c`` (money),
    ``(P(net <= c), E[net; net <= c])``; :meth:`at_most`, :meth:`at_least` and
    :meth:`loss_beyond` read them.  ``quantiles`` are exact values of the net: the
    smallest ``v`` with ``P(net <= v) >= q``.
    """

    plan: TripPlan
    coups: int
    stake: Fraction
    tick: Fraction
    mean: Fraction
    variance: Fraction
    lowest: Fraction
    highest: Fraction
    quantiles: tuple[tuple[Fraction, Fraction], ...]
    cut_figures: tuple[tuple[Fraction, Fraction, Fraction], ...]  # (cut, P(net <= cut), E[net; net <= cut])
    points: tuple[tuple[float, float], ...]  # (net, probability) as floats
    ahead: Fraction  # P(net > 0)

    def __repr__(self) -> str:
        """Short: the trip and its net's headline figures (every figure exact: the fields)."""
        return (
            f"<FlatTrip {self.coups} coups of {self.stake}: mean net {fraction_text(self.mean, 24, '.6g')}, "
            f"sd {math.sqrt(self.variance):.6g}, from {self.lowest} to {self.highest}, "
            f"ahead {fraction_text(self.ahead, 24, '.6g')}>"
        )

    def _cut(self, c) -> tuple[Fraction, Fraction]:
        c = Fraction(c)
        for cut, p, m in self.cut_figures:
            if cut == c:
                return p, m
        raise SessionError(
            f"the cut {c} was not asked for (cuts: {', '.join(str(x) for x, _, _ in self.cut_figures) or 'none'})"
        )

    def at_most(self, x) -> Fraction:
        """P(net <= x), for a cut ``x`` asked for."""
        return self._cut(x)[0]

    def at_least(self, x) -> Fraction:
        """P(net >= x): the cut just below ``x`` must have been asked for (``tails`` of
        :func:`flat_trip` asks for it)."""
        return 1 - self.at_most(below(x, self.tick))

    def loss_beyond(self, threshold=0) -> Fraction:
        """E[L; L >= threshold] for the net loss L = max(0, -net): a cut at ``-threshold``
        must have been asked for (the cut at 0, for ``E[L]``, always is)."""
        t = Fraction(threshold)
        if t < 0:
            raise SessionError(f"a loss threshold must be 0 or more, got {t}")
        return -self._cut(-t)[1]

    def loss_mass(self, threshold) -> Fraction:
        """P(L >= threshold); for a threshold of 0, P(L > 0) (a loss at all)."""
        t = Fraction(threshold)
        return self.at_most(-self.tick if t <= 0 else -t)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    def normal_at_least(self, x) -> float:
        """The normal approximation of P(net >= x) (same mean and variance), a float."""
        if self.variance == 0:
            return 1.0 if self.mean >= x else 0.0
        z = (float(Fraction(x) - self.mean)) / self.sd
        return 0.5 * math.erfc(z / math.sqrt(2))

    def to_frame(self):
        """The exact figures at the cuts: cut, P(net <= cut), E[net; net <= cut] (pandas)."""
        return data_frame([{"cut": c, "at_most": p, "moment_below": m} for c, p, m in self.cut_figures])


def below(x, tick: Fraction) -> Fraction:
    """The largest multiple of ``tick`` below ``x``: P(net >= x) = 1 - P(net <= below(x)).

    >>> below(Fraction(3), Fraction(1, 20)), below(Fraction(-1, 7), Fraction(1))
    (Fraction(59, 20), Fraction(-1, 1))
    """
    x = Fraction(x)
    return (-((-x.numerator * tick.denominator) // (x.denominator * tick.numerator)) - 1) * tick


def flat_trip(events, coups: int, stake=1, cuts=(), tails=(), points: bool = True, progress=None) -> FlatTrip:
    """The exact distribution figures of ``coups`` flat coups of ``stake`` on a bet.

    ``cuts`` are amounts of money ``c`` for which ``P(net <= c)`` and ``E[net; net <= c]``
    are kept exactly (a cut between two reachable nets means the lower one); cuts at
    ``-tick`` (the loss) and ``0`` are always kept, and for each amount ``x`` of ``tails``
    the cut that gives ``P(net >= x)``.  Raises :class:`SessionError` beyond
    the budget, naming the largest number of coups that fits.  ``progress(count)``, if
    given, is called as the values of the net are computed (:func:`trip_size` in all).
    """
    p = events if isinstance(events, TripPlan) else trip_plan(events, coups, stake)
    if p.fits < p.coups:
        raise SessionError(
            f"{p.coups:,} flat coups of this bet are more exact work than the budget of {p.budget:g} s "
            f"(about {p.seconds:.0f} s); at most {p.fits:,} coups fit"
        )
    return _run(p, list(cuts) + [below(x, p.tick) for x in tails], points, progress)


def trip_size(p: TripPlan) -> int:
    """The number of values of the net a trip's two passes compute (its progress total)."""
    return p.coups * p.degree + 1 if p.degree else 0


def _run(p: TripPlan, cuts, keep_points: bool, progress=None) -> FlatTrip:
    n, D, tick, step = p.coups, p.denominator, p.tick, p.step
    terms, top = p.terms, p.degree
    total = D**n
    base = n * p.worst  # the net of c_0, in ticks
    # exponent of a money cut c: the largest k with base + step k <= c / tick
    asked = sorted({Fraction(c) for c in cuts} | {Fraction(0), -tick})

    def expo(c: Fraction) -> int:
        return (math.floor(c / tick) - base) // step

    mean_tick = Fraction(sum(w * (p.worst + step * i) for i, w in terms), D)
    second = Fraction(sum(w * (p.worst + step * i) ** 2 for i, w in terms), D)
    mean, var = n * mean_tick * tick, n * (second - mean_tick**2) * tick * tick
    total_moment = n * sum(w * i for i, w in terms) * D ** (n - 1)  # sum k c_k
    log_total = _log2(total)
    pts: list[tuple[int, float]] = []
    quantiles: dict[Fraction, int] = {}
    exps = {c: expo(c) for c in asked}
    if top == 0:
        cut_fig = {c: ((total, 0) if exps[c] >= 0 else (0, 0)) for c in asked}
        quantiles = dict.fromkeys(QUANTILES, 0)
        if keep_points:
            pts.append((0, log_total))
        lower_mass = total
    else:
        lo_s, hi_s = terms[1][0], top - terms[-2][0]
        m = _meet(n, top, lo_s, hi_s)
        low_cuts = sorted(k for k in exps.values() if 0 <= k <= m)
        targets = [(q, q.denominator, q.numerator * total, math.log2(q) + log_total) for q in QUANTILES]
        got, found, lower_mass = _pass(terms, n, m, low_cuts, targets, pts if keep_points else None, progress)
        quantiles.update(found)
        # the upper pass, on the reversed polynomial: exponent j there is top*n - j here
        rev = tuple(sorted((top - i, w) for i, w in terms))
        K = top * n
        high_cuts = sorted(K - k - 1 for k in exps.values() if m < k < K)  # tails above the cut
        rest = [q for q in QUANTILES if q not in quantiles]
        # the quantile is the first k (going down) whose tail mass exceeds (1 - q) total
        rtargets = [(q, (1 - q).denominator, (1 - q).numerator * total + 1, math.log2(1 - q) + log_total) for q in rest]
        rpts: list[tuple[int, float]] = []
        rout = rpts if keep_points else None
        rgot, rfound, upper_mass = _pass(rev, n, K - m - 1, high_cuts, rtargets, rout, progress)
        if lower_mass + upper_mass != total:
            raise AssertionError("the two passes do not add up to D**N")  # pragma: no cover
        for q, j in rfound.items():
            quantiles[q] = K - j
        pts += [(K - j, lg) for j, lg in reversed(rpts)]
        cut_fig = {}
        for c in asked:
            k = exps[c]
            if k < 0:
                cut_fig[c] = (0, 0)
            elif k >= K:
                cut_fig[c] = (total, total_moment)
            elif k <= m:
                cut_fig[c] = got[k]
            else:
                tm, tmom = rgot[K - k - 1]  # sum over j <= K-k-1 of c'_j: the tail above k
                cut_fig[c] = (total - tm, total_moment - (K * tm - tmom))
    figures = []
    for c in asked:
        mass, mom = cut_fig[c]
        # E[net; net <= c] = sum (base + step k) tick c_k
        moment = fraction((base * mass + step * mom) * tick.numerator, total * tick.denominator)
        figures.append((c, fraction(mass, total), moment))
    qs = tuple((q, (base + step * quantiles[q]) * tick) for q in QUANTILES)
    ahead = 1 - figures[[c for c, _, _ in figures].index(Fraction(0))][1]
    tn, td, lt = tick.numerator, tick.denominator, log_total
    points = tuple(((base + step * k) * tn / td, 2.0 ** (lg - lt)) for k, lg in pts)  # nets correctly rounded
    return FlatTrip(
        p, n, p.stake, tick, mean, var, base * tick, (base + step * top * n) * tick, qs, tuple(figures), points, ahead
    )
