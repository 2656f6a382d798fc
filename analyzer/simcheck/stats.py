"""The statistics of a simulator check, against the exact reference of :mod:`.reference`.

z-scores per cell and per bet, chi-squares of whole families (small cells
pooled), the depletion statistic of a shoe-aware check, Holm's correction and
the power statement, and the data classes they fill.  p-values come from
mpmath (shipped with sympy), imported when a check runs, so a p-value far in
the tail never underflows to zero.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..bets.catalog import Bet
from ..core.frames import data_frame, frame_html
from ..core.shoe import Shoe
from .reference import FamilyReference, Reference

MIN_EXPECTED = 5  # cells below this are pooled / not z-tested
#: a p-value: an mpmath ``mpf`` (mpmath ships no types)
PValue = Any


def _mp():
    import mpmath  # shipped with sympy; imported lazily to keep start-up fast

    mpmath.mp.dps = 40
    return mpmath


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


@functools.lru_cache(maxsize=1024)
def normal_quantile(upper: float) -> float:
    """``z`` with ``P(Z > z) = upper`` (kept: a check's power rows ask for the same few)."""
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


def exact_p(holds: bool):
    """The "p-value" of an exact check: 1 when it holds, 0 when it fails (an mpmath number)."""
    return _mp().mpf(1 if holds else 0)


def _z_and_p(deviation: Fraction, variance: Fraction):
    """z of an exact deviation and its two-sided p; with no variance z is infinite (p 0), or
    ``None`` (no p) when there is no deviation either."""
    z: float | None
    if variance > 0:
        z = float(deviation) / math.sqrt(variance)
    else:
        z = None if deviation == 0 else math.copysign(math.inf, deviation)
    p = normal_p(z) if z is not None and math.isfinite(z) else (exact_p(False) if z is not None else None)
    return z, p


@dataclass
class CellStat:
    label: str
    observed: int
    expected: Fraction
    variance: Fraction
    z: float | None  # None when the variance is zero
    p: PValue = None
    tested: bool = False


@dataclass
class ChiSquare:
    family: str
    title: str
    statistic: float
    df: int
    p: PValue
    groups: list[str]
    pooled: int  # cells pooled into others


@dataclass
class BetStat:
    bet: Bet
    coups: int
    observed: Fraction
    expected: Fraction
    variance: Fraction
    z: float | None
    p: PValue = None
    tested: bool = False
    note: str = ""


@dataclass
class Finding:
    name: str
    kind: str  # "chi-square", "z", "exact"
    statistic: str
    p: PValue
    threshold: float | None = None
    adjusted: PValue = None
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
    """Everything a check found, for :mod:`.check_format` to print."""

    source: str
    input_kind: str  # "hand log" or "tallies"
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
    engine: str | None = None  # where the shoe-aware sums were computed, when not in this process
    if TYPE_CHECKING:
        # Set after construction by some checks only, and read with getattr: attributes, not
        # fields (the fields, the equality and the output of the other checks stay as they are).
        procedure: str = ""  # the declared shoe procedure (the coups-per-shoe test)
        set_aside: dict[str, int] = field(default_factory=dict)  # --skip-invalid: coups set aside by rule
        sections: list[tuple[str, str, list[str], list[list[str]]]] = field(default_factory=list)  # more tables

    @property
    def failed(self) -> bool:
        return any(t.rejected for t in self.tests) or any(t.rejected for t in self.exact)

    @property
    def verdict(self) -> str:
        return "FAIL" if self.failed else "PASS"

    def __repr__(self) -> str:
        """Short: what was checked against what, and the verdict (the findings are its fields)."""
        shoes = "" if self.shoes is None else f" in {self.shoes} shoes"
        return (
            f"<Report {self.verdict}: {self.source!r} ({self.input_kind}), {self.coups} coups{shoes} "
            f"of {self.shoe.describe()} against the {self.reference} odds; {len(self.tests)} tests, "
            f"{sum(t.rejected for t in self.tests + self.exact)} rejected>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table of the tests (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), repr(self)[1:-1])

    @property
    def m(self) -> int:
        return len(self.tests)

    def to_frame(self):
        """One row per test: name, kind, statistic, p, Holm threshold, adjusted p, rejected."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        return [
            {
                "test": t.name,
                "kind": t.kind,
                "statistic": t.statistic,
                "p": None if t.p is None else float(t.p),
                "holm_threshold": t.threshold,
                "adjusted_p": None if t.adjusted is None else float(t.adjusted),
                "rejected": t.rejected,
            }
            for t in self.tests + self.exact
        ]


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
        z, p = _z_and_p(o - e, v)
        s = CellStat(label, int(o), e, v, z, p)
        s.tested = v > 0 and e >= MIN_EXPECTED and total - e >= MIN_EXPECTED
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


def bet_stat(
    bet: Bet, coups: int, observed: Fraction, expected: Fraction, variance: Fraction, enough: bool, note: str = ""
) -> BetStat:
    z, p = _z_and_p(observed - expected, variance)
    s = BetStat(bet, coups, observed, expected, variance, z, p, note=note)
    s.tested = enough and variance > 0
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


def power_rows(
    report_cells, bets: list[BetStat], n: int, m: int, alpha: float, power: float, detect: Fraction
) -> list[PowerRow]:
    """Hands needed to detect ``detect``, and what ``n`` hands detect, per outcome and bet."""
    rows = []
    each = alpha / max(m, 1)
    for s in report_cells:
        if n and s.variance > 0:
            sd = math.sqrt(float(s.variance) / n)
            rows.append(
                PowerRow(
                    f"{s.label} frequency",
                    sd,
                    detect,
                    hands_needed(sd, float(detect), each, power),
                    detectable(sd, n, each, power),
                )
            )
    for b in bets:
        if b.coups and b.variance > 0:
            sd = math.sqrt(float(b.variance) / b.coups)
            rows.append(
                PowerRow(
                    f"{b.bet.id} bet mean return",
                    sd,
                    detect,
                    hands_needed(sd, float(detect), each, power),
                    detectable(sd, b.coups, each, power),
                )
            )
    return rows


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


def reading_notes(log, skipped_tail: str = "") -> list[str]:
    """The report's notes on how a log was read: its shape, and the rows --skip-invalid left out."""
    notes = []
    if getattr(log, "shape", None):
        notes.append(log.shape[0].upper() + log.shape[1:] + ".")
    if getattr(log, "skipped", None):
        k = sum(log.skipped.values())
        reasons = "; ".join(f"{r}: {c}" for r, c in sorted(log.skipped.items(), key=lambda kv: -kv[1])[:5])
        notes.append(
            f"--skip-invalid: {k} unreadable row{'s' if k != 1 else ''} skipped ({reasons})" + skipped_tail + "."
        )
    return notes
