"""Streaks and serial dependence of outcome sequences: the check of an outcome-only log.

Within each shoe, a *run* is a maximal block of consecutive coups with one outcome
(a Tie ends a Player or Banker run and starts a run of ties; runs never cross a
shoe boundary).  The reference treats the coups of a shoe as independent, each
distributed as the first coup of the declared shoe (``p`` = exact off-the-top
probabilities), which is exact for a simulator that reshuffles before every coup and
an approximation for a shoe dealt to a cut card (see docs/simcheck.md).  Under it:

* the expected number of runs of outcome ``o`` (probability ``p``, ``q = 1 - p``)
  of length exactly ``k`` in a shoe of ``n`` coups is ``p^n`` when ``k = n`` and
  ``p^k (2q + (n - k - 1) q^2)`` when ``k < n``; of length at least ``k`` it is
  ``p^k (1 + (n - k) q)`` (``n >= k``).  These are exact fractions
  (:func:`expected_runs`);
* the covariance of all run counts of a shoe comes from a forward recursion over
  (outcome, current run length) carrying the first and second moments
  (:func:`run_moments`, floats);
* the number of *repeats* (consecutive coups of a shoe with the same outcome) has mean
  ``(n - 1) s2`` (exact, ``s2 = sum p^2``) and variance
  ``m s2 (1 - s2) + 2 (m - 1)(s3 - s2^2)``, ``m = n - 1``, ``s3 = sum p^3``.

>>> from fractions import Fraction as F
>>> expected_runs(F(1, 2), 3, 1), expected_runs(F(1, 2), 3, 3), expected_runs(F(1, 2), 3, 2, at_least=True)
(Fraction(5, 8), Fraction(1, 8), Fraction(3, 8))
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np

from ..core.shoe import Shoe
from .families import build_families
from .outcomes import OutcomeLog
from .reference import off_the_top
from .stats import (
    MIN_EXPECTED,
    Finding,
    PowerRow,
    Report,
    cell_stats,
    chi2_p,
    chi_square,
    detectable,
    hands_needed,
    holm,
    normal_p,
    power_rows,
    reading_notes,
)

#: run lengths tracked exactly; longer runs fall in the class "at least MAX_RUN"
MAX_RUN = 20
LETTERS = ("P", "B", "T")


def expected_runs(p: Fraction, n: int, k: int, at_least: bool = False) -> Fraction:
    """Expected number of runs of an outcome of probability ``p`` of length ``k`` (or at least
    ``k``) among ``n`` independent coups (exact)."""
    q = 1 - p
    if k > n:
        return Fraction(0)
    if at_least:
        return p**k * (1 + (n - k) * q)
    if k == n:
        return p**n
    return p**k * (2 * q + (n - k - 1) * q * q)


def run_moments(p, n_max: int, K: int = MAX_RUN):
    """Mean and covariance of the run counts of ``n`` independent coups, for every ``n`` up to
    ``n_max``: lists ``mean[n]`` (3K,) and ``cov[n]`` (3K, 3K); category ``o * K + k - 1`` counts runs
    of outcome ``o`` of length ``k`` (``k = K``: at least ``K``)."""
    p = [float(x) for x in p]
    S = 3 * K
    dest = np.zeros((S, 3), dtype=np.int64)
    inc = np.full((S, 3), -1, dtype=np.int64)
    for o in range(3):
        for r in range(1, K + 1):
            s = o * K + r - 1
            for o2 in range(3):
                if o2 == o:
                    dest[s, o2] = o * K + min(r + 1, K) - 1
                else:
                    dest[s, o2] = o2 * K
                    inc[s, o2] = s
    f = np.zeros(S)
    g = np.zeros((S, S))
    h = np.zeros((S, S, S))
    for o in range(3):
        f[o * K] = p[o]
    means, covs = [None], [None]
    for n in range(1, n_max + 1):
        # close the sequence at length n: every state ends its run
        mean = g.sum(axis=0) + f  # e_s adds 1 to category s
        second = h.sum(axis=0) + g.T + g + np.diag(f)
        means.append(mean)
        covs.append(second - np.outer(mean, mean))
        if n == n_max:
            break
        f2 = np.zeros(S)
        g2 = np.zeros((S, S))
        h2 = np.zeros((S, S, S))
        for o2 in range(3):
            w = p[o2]
            d = dest[:, o2]
            np.add.at(f2, d, w * f)
            grow = g.copy()
            hh = h.copy()
            for state in np.flatnonzero(inc[:, o2] >= 0):
                c = inc[state, o2]
                hh[state, c, :] += g[state]
                hh[state, :, c] += g[state]
                hh[state, c, c] += f[state]
                grow[state, c] += f[state]
            np.add.at(g2, d, w * grow)
            np.add.at(h2, d, w * hh)
        f, g, h = f2, g2, h2
    return means, covs


#: beyond this many coups in a shoe the run-count covariance grows exactly linearly (every run
#: indicator depends on at most MAX_RUN + 1 consecutive coups), so it is extrapolated
AFFINE_FROM = 4 * MAX_RUN + 10


def run_cov(p, n: int) -> np.ndarray:
    """Covariance of the run counts of one shoe of ``n`` coups (cached per ``p``)."""
    key = tuple(p)
    covs = _COVS.get(key)
    if covs is None:
        covs = _COVS[key] = run_moments(p, AFFINE_FROM)[1]
        if len(_COVS) > 8:
            _COVS.pop(next(iter(_COVS)))
    if n <= AFFINE_FROM:
        return covs[n]
    return covs[AFFINE_FROM] + (n - AFFINE_FROM) * (covs[AFFINE_FROM] - covs[AFFINE_FROM - 1])


_COVS: dict = {}


def _groups(expected_all: list[list[Fraction]]) -> list[tuple[int, int, bool]]:
    """Run classes tested: per outcome the lengths 1.. and a last class "at least K" where each class
    expects at least MIN_EXPECTED runs.  ``(outcome, k, at_least)``."""
    out: list[tuple[int, int, bool]] = []
    for o in range(3):
        e = expected_all[o]  # e[k-1]: exact length k (k < MAX_RUN), e[-1]: >= MAX_RUN
        tail = [sum(e[k:], Fraction(0)) for k in range(MAX_RUN)]  # tail[k]: at least k + 1
        K = max((k + 1 for k in range(MAX_RUN) if tail[k] >= MIN_EXPECTED), default=0)
        if K == 0:
            continue
        out.extend((o, k, False) for k in range(1, K))
        out.append((o, K, True))
    return out


def run_lengths(outcome: np.ndarray, shoe: np.ndarray) -> list[tuple[int, int]]:
    """``(outcome, length)`` of every run (runs end at shoe boundaries)."""
    if outcome.size == 0:
        return []
    cut = np.flatnonzero((outcome[1:] != outcome[:-1]) | (shoe[1:] != shoe[:-1])) + 1
    starts = np.r_[0, cut]
    ends = np.r_[cut, outcome.size]
    return list(zip(outcome[starts].tolist(), (ends - starts).tolist()))


class OutcomeCounts:
    """What :func:`check_outcomes` counts in an outcome-only log, gathered chunk by chunk
    (:meth:`add` each :class:`~.outcomes.OutcomeLog` chunk in order; shoe indices are the file's, a
    shoe and a run may go on from one chunk into the next): the outcome counts, the coups of each
    shoe, the runs by outcome and length (up to :data:`MAX_RUN`) and the repeats."""

    def __init__(self):
        self.coups = 0
        self.observed = np.zeros(3, dtype=np.int64)
        self.per_shoe = np.zeros(0, dtype=np.int64)
        self.runs = np.zeros(3 * MAX_RUN, dtype=np.int64)
        self.repeats = 0
        self.open: tuple[int, int, int] | None = None  # (outcome, shoe, length) of the last run

    def add(self, log: OutcomeLog) -> None:
        outcome, shoe = log.outcome, log.shoe
        if outcome.size == 0:
            return
        self.coups += int(outcome.size)
        self.observed += np.bincount(outcome, minlength=3)
        got = np.bincount(shoe)
        if got.size > self.per_shoe.size:
            self.per_shoe = np.r_[self.per_shoe, np.zeros(got.size - self.per_shoe.size, dtype=np.int64)]
        self.per_shoe[: got.size] += got
        self.repeats += int(((outcome[1:] == outcome[:-1]) & (shoe[1:] == shoe[:-1])).sum())
        cut = np.flatnonzero((outcome[1:] != outcome[:-1]) | (shoe[1:] != shoe[:-1])) + 1
        starts = np.r_[0, cut]
        run_o = outcome[starts].astype(np.int64)
        run_k = np.diff(np.r_[starts, outcome.size]).astype(np.int64)
        if self.open is not None:
            o, sh, k = self.open
            if o == int(outcome[0]) and sh == int(shoe[0]):  # the run goes on from the last chunk
                self.repeats += 1
                run_k[0] += k
            else:
                self._count(o, k)
        self.runs += np.bincount(run_o[:-1] * MAX_RUN + np.minimum(run_k[:-1], MAX_RUN) - 1, minlength=3 * MAX_RUN)
        self.open = (int(run_o[-1]), int(shoe[-1]), int(run_k[-1]))

    def _count(self, o: int, k: int) -> None:
        self.runs[o * MAX_RUN + min(k, MAX_RUN) - 1] += 1

    def close(self) -> None:
        """Count the last run (after the last chunk)."""
        if self.open is not None:
            self._count(self.open[0], self.open[2])
            self.open = None


def check_outcomes(log, shoe: Shoe, alpha: Fraction, power: Fraction, detect: Fraction, procedure=None) -> Report:
    """Frequencies, run lengths and repeats of an outcome-only log against the exact off-the-top law;
    with ``procedure`` (:class:`analyzer.core.procedure.Procedure`) also the coups per shoe
    (:mod:`.shoecount`).  ``log``: an :class:`~.outcomes.OutcomeLog`, or an
    :class:`~.outcomes.OutcomeStream`, read chunk by chunk (the same report, in memory bounded by
    a chunk and the number of shoes)."""
    counts = OutcomeCounts()
    for chunk in log.chunks() if hasattr(log, "chunks") else [log]:
        counts.add(chunk)
    counts.close()
    n = counts.coups
    fams = build_families((), ("outcome",))
    ref = off_the_top(shoe, fams, n)
    p = [e / n for e in ref.families["outcome"].expected]
    observed = counts.observed
    report = Report(
        log.path,
        "outcome-only log",
        shoe,
        "off-the-top",
        n,
        log.shoes,
        0,
        alpha,
        power,
        detect,
        {},
        {},
        [],
        [],
        [],
        [],
        [],
    )
    report.cells["outcome"] = cell_stats(ref.families["outcome"], observed)
    report.titles["outcome"] = "Outcomes"
    c = chi_square(ref.families["outcome"], observed)
    if c is not None:
        report.chisq.append(c)
    lengths = Counter(counts.per_shoe.tolist())
    # exact expected run counts per class, summed over the shoes
    expected_all = [
        [
            sum((cnt * expected_runs(p[o], m, k, at_least=(k == MAX_RUN)) for m, cnt in lengths.items()), Fraction(0))
            for k in range(1, MAX_RUN + 1)
        ]
        for o in range(3)
    ]
    groups = _groups(expected_all)
    cov = sum(cnt * run_cov(p, m) for m, cnt in lengths.items())
    obs = counts.runs
    A = np.zeros((len(groups), 3 * MAX_RUN))
    rows, exp_g, obs_g = [], [], []
    for i, (o, k, tail) in enumerate(groups):
        cols = [o * MAX_RUN + j - 1 for j in (range(k, MAX_RUN + 1) if tail else [k])]
        A[i, cols] = 1
        e = sum((expected_all[o][j - 1] for j in (range(k, MAX_RUN + 1) if tail else [k])), Fraction(0))
        x = int(obs[cols].sum())
        exp_g.append(e)
        obs_g.append(x)
    S = A @ cov @ A.T
    d = np.array(obs_g, dtype=float) - np.array([float(e) for e in exp_g])
    for i, (o, k, tail) in enumerate(groups):
        sd = math.sqrt(S[i, i]) if S[i, i] > 0 else 0.0
        rows.append(
            [
                f"{LETTERS[o]} {'≥' if tail else ''}{k}",
                f"{obs_g[i]:,}",
                f"{float(exp_g[i]):,.2f}",
                f"{sd:,.2f}",
                f"{d[i] / sd:+.3f}" if sd else "-",
            ]
        )
    if len(groups) >= 2:
        w, V = np.linalg.eigh(S)
        keep = w > 1e-9 * w.max()
        y = V[:, keep].T @ d
        stat = float(np.sum(y * y / w[keep]))
        df = int(keep.sum())
        report.tests.append(Finding(f"chi-square run lengths ({df} df)", "chi-square", f"{stat:.3f}", chi2_p(stat, df)))
    # repeats: consecutive coups of a shoe with the same outcome
    R = counts.repeats
    s2 = sum((x * x for x in p), Fraction(0))
    s3 = sum((x**3 for x in p), Fraction(0))
    ER = sum(((m - 1) * cnt for m, cnt in lengths.items()), 0) * s2
    var = sum(
        cnt * (max(m - 1, 0) * float(s2 * (1 - s2)) + 2 * max(m - 2, 0) * float(s3 - s2 * s2))
        for m, cnt in lengths.items()
    )
    pairs = n - log.shoes
    if var > 0:
        z = (R - float(ER)) / math.sqrt(var)
        report.tests.append(Finding("z serial repeats", "z", f"{z:+.3f}", normal_p(z)))
    section = None
    if procedure is not None:
        from .shoecount import shoe_count_test

        section = shoe_count_test(report, lengths, shoe.value_counts, procedure)
    for cs in report.chisq:
        report.tests.insert(
            0, Finding(f"chi-square {cs.family} ({cs.df} df)", "chi-square", f"{cs.statistic:.3f}", cs.p)
        )
    for s in report.cells["outcome"]:
        if s.tested:
            report.tests.append(Finding(f"z outcome {s.label}", "z", f"{s.z:+.3f}", s.p))
    holm(report.tests, float(alpha))
    report.power_rows = power_rows(
        report.cells["outcome"], [], n, len(report.tests), float(alpha), float(power), detect
    )
    if pairs > 0 and var > 0:
        sd = math.sqrt(var / pairs)
        each = float(alpha) / max(report.m, 1)
        report.power_rows.append(
            PowerRow(
                "repeat rate (same outcome as the coup before)",
                sd,
                detect,
                hands_needed(sd, float(detect), each, float(power)),
                detectable(sd, pairs, each, float(power)),
            )
        )
    report.sections = [
        (
            "Runs",
            "Runs of one outcome within a shoe (a tie ends a Player or Banker run), against their "
            "exact expectation for independent coups off the top:",
            ["run", "observed", "expected", "sd", "z"],
            rows,
        ),
        (
            "Serial dependence",
            f"Repeats (a coup with the outcome of the coup before, same shoe): "
            f"{R:,} of {pairs:,} pairs, expected {float(ER):,.2f}, sd {math.sqrt(var):,.2f}; rate "
            f"{R / pairs if pairs else 0:.5f} against {float(s2):.5f}.",
            [],
            [],
        ),
    ]
    if section is not None:
        report.sections.append(section)
    report.notes += reading_notes(log)
    report.notes.append(
        "Outcome-only log: every coup is compared with the off-the-top distribution and the "
        "coups of a shoe are taken as independent (exact when the simulator reshuffles "
        "before every coup; an approximation for shoes dealt to a cut card, whose coups are "
        "weakly dependent through the cards)."
    )
    return report


__all__ = ["OutcomeCounts", "check_outcomes", "expected_runs", "run_moments", "run_lengths", "MAX_RUN"]
