"""Long sessions of any betting system in floating point, every figure with a certified bound.

The exact programme of :mod:`.bankroll` grows with its numbers; past its budget this one
runs the same programme over (system state, doubled yet, bankroll) in binary64 floats and
bounds its error rigorously:

* every mass is a sum of products of nonnegative numbers: an event's probability (one
  rounding, from the exact fraction), times the mass it comes from, added into its cell
  (at most ``E * S`` terms a cell, ``E`` events and ``S`` system states).  By the standard
  forward analysis of such sums (Higham, *Accuracy and Stability of Numerical Algorithms*,
  §3.1 and §4.2) each mass after ``t`` coups is within a relative ``gamma(t * R)`` of its
  exact value, ``gamma(k) = k u / (1 - k u)``, ``u = 2**-53``, ``R = E * S + 2``;
* every figure is a sum of such masses (no subtraction anywhere: ruin, doubling, what is
  still open, the expected coups, the mean final bankroll and the chance of ending ahead are
  each summed directly from their own nonnegative terms), so it is within ``gamma(K)`` of its
  exact value for ``K`` the roundings of its longest chain, counted below;
* the bankrolls above a ceiling (three times the start, more than any figure reads) are not
  kept: the mass that would go there is summed and added to every bound as an absolute
  error, as is the mass below ``2**-1000`` a cell, dropped so that nothing is subnormal.

So each figure is printed as ``value ± bound`` with ``|value - exact| <= bound`` proved, never
an unbounded float.  Tests check the bound against the exact programme where both run.

>>> from fractions import Fraction
>>> from analyzer.reports.bankroll import plan
>>> r = bounded_session(plan([(Fraction(1, 2), 1), (Fraction(1, 2), -1)], 3, 1, 40))
>>> r.ruin.value < 1 and r.ruin.bound < 1e-12 and r.dropped == 0
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

from .bankroll import QUANTILES, Plan
from .bankroll_systems import BankrollError

U = 2.0**-53
#: Masses below this are dropped (their sum is added to the bounds) and no event is rarer than
#: :data:`RAREST`, so no product is subnormal (the relative bounds hold for normal numbers).
TINY = 2.0**-900
RAREST = 2.0**-100
#: Most coups of a bounded session.
MAX_COUPS = 1_000_000
#: Seconds of a bounded session refused beyond (estimated from the cells and the coups).
BUDGET = 60.0
_CELL_SECONDS = 2.2e-9
_COUP_SECONDS = 2.5e-5


def gamma(k: int) -> float:
    """Higham's ``gamma_k = k u / (1 - k u)``, rounded up (a bound on ``k`` roundings).

    >>> 1.1e-16 < gamma(1) < 1.2e-16, gamma(2**52)
    (True, inf)
    """
    if k * U >= 0.5:
        return math.inf
    return math.nextafter(k * U / (1 - k * U) * (1 + 4 * U), math.inf)


@dataclass(frozen=True)
class Bounded:
    """A float ``value`` and a ``bound`` with ``|value - exact| <= bound`` (certified)."""

    value: float
    bound: float

    def __str__(self) -> str:
        return f"{self.value:.10g} ± {self.bound:.2g}"

    def contains(self, exact: Fraction) -> bool:
        """Whether the exact value is within the bound (rationals compared exactly)."""
        return abs(Fraction(self.value) - Fraction(exact)) <= Fraction(self.bound)


@dataclass(frozen=True)
class BoundedResult:
    """The figures of a session in floating point, each with its certified bound."""

    system: str
    bankroll: Fraction
    unit: Fraction
    limit: Fraction | None
    coups: int
    tick: Fraction
    ruin: Bounded
    double_first: Bounded
    undecided: Bounded
    expected_coups: Bounded
    mean_final: Bounded
    ahead: Bounded
    quantiles: tuple[tuple[Fraction, Fraction, Fraction], ...]  # (q, lowest, highest): the quantile is within
    dropped: float  # mass not kept (above the ceiling or below TINY), a bound
    ceiling: Fraction  # the highest bankroll kept
    cells: int
    stopped: int  # the coup after which no mass was left alive (or coups)
    seconds: float

    def __repr__(self) -> str:
        """Short: the session and its headline figures, each a float with its certified bound
        (the fields hold every figure)."""
        limit = "" if self.limit is None else f", limit {self.limit}"
        return (
            f"<BoundedResult {self.system} from {self.bankroll} (unit {self.unit}{limit}), {self.coups} coups: "
            f"ruin {self.ruin}, doubled first {self.double_first}, ahead {self.ahead}, "
            f"mean final {self.mean_final}>"
        )

    def figures(self) -> list[tuple[str, str, Bounded]]:
        return [
            ("ruin_probability", "probability of ruin", self.ruin),
            ("double_first_probability", "probability of doubling first", self.double_first),
            ("undecided_probability", "neither ruined nor doubled after the last coup", self.undecided),
            ("expected_coups", "expected coups played", self.expected_coups),
            ("mean_final_bankroll", "expected final bankroll", self.mean_final),
            ("ahead_probability", "probability of ending above the start", self.ahead),
        ]

    def to_frame(self):
        """The figures with their bounds (pandas)."""
        from ..core.frames import data_frame

        return data_frame([{"figure": k, "value_float": b.value, "bound_float": b.bound} for k, _, b in self.figures()])


def _layout(p: Plan, H: int):
    """Cells (state, flag, bankroll 0..H in ticks) and the flat index of every event's target."""
    import numpy as np

    start = p.start
    stakes = list(p.stakes)
    # the states a bankroll of at most H can be live in, and one more (it only ever ruins)
    rows = next((i + 1 for i, s in enumerate(stakes) if s > H), len(stakes))
    width = H + 1
    cells = rows * 2 * width
    b = np.tile(np.arange(width), rows * 2)
    row = np.repeat(np.arange(rows), 2 * width)
    flag = np.tile(np.repeat(np.arange(2), width), rows)
    stake = np.array(stakes[:rows], dtype=np.int64)[row]
    live = b >= stake
    targets, probs = [], []
    for e in range(len(p.weights)):
        dest = np.array([min(p.moves[s][e][0], rows - 1) for s in range(rows)], dtype=np.int64)[row]
        delta = np.array([p.moves[s][e][1] for s in range(rows)], dtype=np.int64)[row]
        nb = b + delta
        nflag = np.where(nb >= 2 * start, 1, flag)
        t = dest * 2 * width + nflag * width + nb
        t = np.where(nb > H, cells, t)  # above the ceiling: the dump cell
        targets.append(t[live])
        probs.append(p.weights[e][0] / p.denominator)  # int / int: correctly rounded
    return H, rows, width, cells, b, flag, live, targets, probs


def _reach(p: Plan) -> int:
    return max(p.start + p.coups * max(max(d for _, d, _ in m) for m in p.moves), p.start)


def _ceiling(p: Plan) -> int:
    """The highest bankroll kept, in ticks: three times the start, two first stakes and eight
    times the spread of N coups of the first stake (its mass above is measured, not assumed);
    never more than N coups of the best move can reach."""
    best = max(d for _, d, _ in p.moves[0])
    return min(3 * p.start + 2 * p.stakes[0] + math.ceil(8 * math.sqrt(p.coups) * max(best, 1)), _reach(p))


def estimate(p: Plan, H: int | None = None) -> float:
    """Seconds of one run of :func:`bounded_session` with the ceiling ``H`` (the cells times the coups)."""
    stakes = list(p.stakes)
    H = _ceiling(p) if H is None else H
    rows = next((i + 1 for i, s in enumerate(stakes) if s > H), len(stakes))
    cells = rows * 2 * (H + 1) * len(p.weights)
    return p.coups * (cells * _CELL_SECONDS + _COUP_SECONDS)


#: A run whose mass not kept is above this is run again with a ceiling four times higher, while
#: the budget allows.
DROPPED = 1e-12


def bounded_session(p: Plan, budget: float = BUDGET, progress=None) -> BoundedResult:
    """The session of a :func:`~analyzer.reports.bankroll.plan` in floats with certified bounds.

    Raises :class:`BankrollError` when the estimate is beyond ``budget`` seconds.  When more
    than :data:`DROPPED` of the mass went above the ceiling, runs again with a ceiling four
    times higher while the estimate stays within the budget; every run's bound is certified.
    """
    H = _ceiling(p)
    r = _session(p, H, budget, progress)
    spent, reach = r.seconds, _reach(p)
    while r.dropped > DROPPED and H < reach:
        H = min(4 * H, reach)
        if spent + estimate(p, H) > budget:
            break
        r = _session(p, H, budget - spent, None)
        spent += r.seconds
    return r


def _session(p: Plan, H: int, budget: float, progress) -> BoundedResult:
    import numpy as np

    if p.coups > MAX_COUPS:
        raise BankrollError(f"{p.coups:,} coups are beyond the most a bounded session computes ({MAX_COUPS:,})")
    seconds = estimate(p, H)
    if seconds > budget:
        per = seconds / p.coups
        raise BankrollError(
            f"{p.coups:,} coups of {p.system.name} in floating point are about {seconds:.0f} s, "
            f"beyond the budget of {budget:g} s: at most {int(budget / per):,} coups fit, or use a "
            "larger unit or a smaller bankroll"
        )
    if min(m for m, _ in p.weights) / p.denominator < RAREST:
        raise BankrollError(
            "an event of this bet is rarer than 2**-100: its products could leave the range where the bound holds"
        )
    clock = time.process_time()
    H, rows, width, cells, b, flag, live, targets, probs = _layout(p, H)
    start, n = p.start, p.coups
    target = np.concatenate(targets)
    src = np.concatenate([np.flatnonzero(live)] * len(targets))
    prob = np.concatenate([np.full(len(t), q) for t, q in zip(targets, probs)])
    mass = np.zeros(cells)
    mass[start] = 1.0  # state 0, not doubled, the start
    dead = ~live
    dead_b, dead_flag = b[dead], flag[dead]
    ruin = ruin_doubled = coups_sum = dropped = 0.0
    final = np.zeros(width)
    stopped = n
    for t in range(n + 1):
        gone = mass[dead]  # ruin: the stake is not covered
        if gone.any():
            ruin += float(gone.sum())
            ruin_doubled += float(gone[dead_flag == 1].sum())
            final += np.bincount(dead_b, weights=gone, minlength=width)
            mass[dead] = 0.0
        alive = float(mass.sum())
        if t == n:
            break
        if alive == 0.0:
            stopped = t
            break
        coups_sum += alive
        new = np.bincount(target, weights=mass[src] * prob, minlength=cells + 1)
        dropped += float(new[cells]) * (1 + 2 * U * cells)
        mass = new[:cells]
        small = (mass > 0) & (mass < TINY)
        if small.any():
            dropped += float(mass[small].sum()) * (1 + 2 * U * cells)
            mass[small] = 0.0
        if progress is not None:
            progress(1)
    if progress is not None and stopped < n:
        progress(n - stopped)
    # the roundings of the longest chain: each coup a mass is multiplied by a rounded probability
    # (2 roundings) and added into its cell with at most 2 E S others; a sum of the cells (any
    # order: at most cells - 1 additions a term) and a sum over the coups (ruin, expected coups)
    # add their own
    R = 2 * len(probs) * rows + 2
    chain = n * R + cells + n + 2
    g = gamma(chain)
    mass2 = mass.reshape(rows, 2, width)
    finals = final + mass2.sum(axis=(0, 1))  # every cell: final bankroll b
    doubled_alive = float(mass2[:, 1, :].sum())
    undecided = float(mass2[:, 0, :].sum())
    tick = p.tick
    ahead = float(finals[start + 1 :].sum())
    mean = float((finals * np.arange(width)).sum())
    g = gamma(chain + width + 2)  # finals, their sums and the products by b

    def bounded(v: float, scale: float = 1.0) -> Bounded:
        """Relative gamma, plus the mass not kept (which could have ended anywhere)."""
        return Bounded(v, math.nextafter(g * v + dropped * scale * (1 + g), math.inf))

    # a mass not kept may have gone on to the best bankroll reachable
    best = start + n * max(max(d for _, d, _ in moves) for moves in p.moves[:rows])
    # quantiles: F(k) lies between the running sum shrunk and grown by gamma, plus the mass not kept
    g2 = gamma(chain + 1 + width)
    lo_k: dict[Fraction, int] = {}
    hi_k: dict[Fraction, int] = {}
    cum = 0.0
    for k, m in enumerate(finals.tolist()):
        cum += m
        for q in QUANTILES:
            if q not in lo_k and cum * (1 + g2) + dropped >= q:
                lo_k[q] = k  # F(k) >= q is possible from here
            if q not in hi_k and cum * (1 - g2) >= q:
                hi_k[q] = k  # F(k) >= q is certain from here
    quantiles = tuple((q, lo_k.get(q, 0) * tick, hi_k[q] * tick if q in hi_k else best * tick) for q in QUANTILES)
    return BoundedResult(
        system=p.system.name,
        bankroll=p.start * tick,
        unit=p.unit,
        limit=p.limit,
        coups=n,
        tick=tick,
        ruin=bounded(ruin),
        double_first=bounded(ruin_doubled + doubled_alive),
        undecided=bounded(undecided),
        expected_coups=bounded(coups_sum, float(n)),
        mean_final=Bounded(
            mean * float(tick),
            math.nextafter(
                (g * mean + dropped * best * (1 + g)) * float(tick) * (1 + 2 * U) + 2 * U * mean * float(tick), math.inf
            ),
        ),
        ahead=bounded(ahead),
        quantiles=quantiles,
        dropped=dropped,
        ceiling=H * tick,
        cells=cells,
        stopped=stopped,
        seconds=time.process_time() - clock,
    )
