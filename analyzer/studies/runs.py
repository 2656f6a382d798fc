"""Runs over dealt shoes: the longest run and the runs of at least ``k`` of shoes shuffled and
dealt to the cut card, beside the exact figure for independent coups.

The shoes are those of ``baccarat study`` with the same shoe, seed, cut card, burn and rules
(:func:`analyzer.studies.dealing.deal_shoe`: shoe ``i`` shuffled by ``SeedSequence([seed, i])``,
dealt to the cut card); each coup's winner is read from the coup table of every six point
values (:func:`analyzer.core.engine.coup_table`).  A run never crosses a shoe boundary; the
ties follow the convention of :mod:`analyzer.reports.runs` (``tie-ends`` or ``ties-ignored``).

Dealt shoes are a sample: their figures are means with 95% confidence intervals (normal
for means, Wilson for shares), never called exact.  The *independent-coups* figure beside
each is exact: the figure of :mod:`analyzer.reports.runs` for each number of coups a dealt
shoe had, averaged over the dealt shoes (so the two columns differ only by the dependence
of the coups of a real shoe through its cards, and by sampling).

>>> from analyzer import Shoe
>>> d = deal_runs(Shoe.standard(1), shoes=3, seed=1, cut_card=14, at_least=(2,))
>>> d.shoes, len(d.coups), int(d.longest["banker"].max()) <= int(d.coups.max())
(3, 3, True)
>>> run_lengths([0, 0, 2, 0, 1, 1, 1], "tie-ends"), run_lengths([0, 0, 2, 0, 1], "ties-ignored")
([(0, 2), (2, 1), (0, 1), (1, 3)], [(0, 3), (1, 1)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.cards import POINTS, RANKS
from ..core.engine import POSITIONS, coup_table
from ..core.shoe import Shoe
from ..reports.runs import CONVENTIONS, OUTCOMES, CoupWays, RunsError, RunsResult, runs
from .dealing import deal_shoe
from .params import StudyParams

#: the most shoes dealt (about 0.3 ms a shoe of 8 decks, with a progress bar)
MAX_SHOES = 1_000_000
#: the normal quantile of the 95% confidence intervals
Z95 = 1.959963984540054
_RANK_POINTS = np.array([POINTS[r] for r in RANKS], dtype=np.int64)
_PLACE = 10 ** np.arange(POSITIONS - 1, -1, -1, dtype=np.int64)


def run_lengths(winners, convention: str = "tie-ends") -> list[tuple[int, int]]:
    """``(outcome code, length)`` of every run of one shoe's winners (0 Player, 1 Banker, 2 Tie);
    with ``ties-ignored`` the ties are removed first."""
    seq = [w for w in winners if w != 2] if convention == "ties-ignored" else list(winners)
    out: list[tuple[int, int]] = []
    for w in seq:
        if out and out[-1][0] == w:
            out[-1] = (w, out[-1][1] + 1)
        else:
            out.append((w, 1))
    return out


@dataclass(frozen=True)
class Estimate:
    """A sample mean (or share) with its 95% confidence interval."""

    mean: float
    low: float
    high: float


def mean_ci(values: np.ndarray) -> Estimate:
    """Mean and normal 95% interval (``Z95`` sample standard errors)."""
    n = len(values)
    m = float(values.mean())
    se = float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else float("inf")
    return Estimate(m, m - Z95 * se, m + Z95 * se)


def share_ci(hits: int, n: int) -> Estimate:
    """A share and its Wilson 95% interval (sensible at 0 and at n)."""
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class DealtRuns:
    """Per dealt shoe: its coups, the longest run of each outcome, the runs of at least ``k``."""

    shoes: int
    seed: int
    procedure: str
    convention: str
    at_least: tuple[int, ...]
    coups: np.ndarray  # (shoes,)
    longest: dict[str, np.ndarray]  # outcome -> (shoes,)
    counts: dict[tuple[str, int], np.ndarray]  # (outcome, k) -> (shoes,)

    def __repr__(self) -> str:
        """Short: what was dealt and the mean longest run of each outcome (the arrays hold
        every shoe's counts)."""
        means = ", ".join(f"{o} {float(self.longest[o].mean()):.4g}" for o in self.outcomes)
        return (
            f"<DealtRuns {self.shoes:,} shoes (seed {self.seed}, {self.convention}), "
            f"mean coups {float(self.coups.mean()):.4g}; mean longest run: {means}>"
        )

    @property
    def outcomes(self) -> tuple[str, ...]:
        return tuple(self.longest)

    def mean_longest(self, outcome: str) -> Estimate:
        return mean_ci(self.longest[outcome])

    def mean_count(self, outcome: str, k: int) -> Estimate:
        return mean_ci(self.counts[(outcome, k)])

    def share_with_run(self, outcome: str, k: int) -> Estimate:
        """The share of shoes with a run of ``outcome`` of ``k`` or more."""
        return share_ci(int((self.longest[outcome] >= k).sum()), self.shoes)

    def share_equal(self, values: np.ndarray, value: int) -> Estimate:
        """The share of shoes whose figure ``values`` is ``value``, with its Wilson interval."""
        return share_ci(int((values == value).sum()), self.shoes)

    def longest_shares(self, outcome: str) -> np.ndarray:
        """The share of shoes whose longest run of ``outcome`` is ``L``, ``L = 0 .. max``."""
        return np.bincount(self.longest[outcome]) / self.shoes

    def to_frame(self):
        """One row per dealt shoe: ``shoe`` (its index), ``coups``, ``longest_<outcome>`` and
        ``runs_<outcome>_<k>`` (its runs of ``k`` or more)."""
        from ..core.frames import data_frame

        rows = []
        for i in range(self.shoes):
            row: dict[str, int] = {"shoe": i, "coups": int(self.coups[i])}
            row |= {f"longest_{o}": int(v[i]) for o, v in self.longest.items()}
            row |= {f"runs_{o}_{k}": int(v[i]) for (o, k), v in self.counts.items()}
            rows.append(row)
        return data_frame(rows)

    def coups_law(self) -> dict[int, int]:
        """``{coups: shoes}`` of the dealt shoes."""
        values, counts = np.unique(self.coups, return_counts=True)
        return dict(zip(values.tolist(), counts.tolist()))


def deal_runs(
    shoe: Shoe,
    shoes: int,
    seed: int,
    cut_card: int = 14,
    burn: str = "none",
    after_cut: int = 0,
    rules_toml: str | None = None,
    at_least=(3,),
    convention: str = "tie-ends",
    progress=None,
) -> DealtRuns:
    """Deal ``shoes`` shoes as ``baccarat study`` does and count their runs (see the module).
    ``progress(n)`` is called with each dealt shoe's count of 1."""
    if convention not in CONVENTIONS:
        raise RunsError(f"unknown ties convention {convention!r} (choose from {', '.join(CONVENTIONS)})")
    if isinstance(shoes, bool) or not isinstance(shoes, int) or not 1 <= shoes <= MAX_SHOES:  # type: ignore[redundant-expr]  # checked at run time
        raise RunsError(f"the number of shoes must be a whole number from 1 to {MAX_SHOES:,}, got {shoes!r}")
    at_least = tuple(dict.fromkeys(at_least))
    params = StudyParams.create(
        shoe,
        shoes=shoes,
        seed=seed,
        cut_card=cut_card,
        bet_ids=("banker",),
        count=(),
        burn=burn,
        rules_toml=rules_toml,
        after_cut=after_cut,
    )
    winner = coup_table(params.rules()).winner
    outcomes = ("player", "banker") if convention == "ties-ignored" else OUTCOMES
    coups = np.zeros(shoes, dtype=np.int64)
    longest = {o: np.zeros(shoes, dtype=np.int64) for o in outcomes}
    counts = {(o, k): np.zeros(shoes, dtype=np.int64) for k in at_least for o in outcomes}
    code_of = {o: OUTCOMES.index(o) for o in outcomes}
    for i in range(shoes):
        dealt = deal_shoe(params, i)
        values = np.concatenate([_RANK_POINTS[dealt.ranks], np.zeros(POSITIONS, dtype=np.int64)])
        starts = np.asarray(dealt.starts, dtype=np.int64)
        window = values[starts[:, None] + np.arange(POSITIONS)]
        winners = winner[window @ _PLACE].tolist()
        coups[i] = len(winners)
        lengths = run_lengths(winners, convention)
        for o in outcomes:
            c = code_of[o]
            mine = [n for w, n in lengths if w == c]
            longest[o][i] = max(mine, default=0)
            for k in at_least:
                counts[(o, k)][i] = sum(1 for n in mine if n >= k)
        if progress is not None:
            progress(1)
    return DealtRuns(shoes, seed, params.procedure().describe(), convention, at_least, coups, longest, counts)


@dataclass(frozen=True)
class Independent:
    """The exact figures of independent coups averaged over the dealt shoes' numbers of coups:
    ``sum_n (shoes with n coups / shoes) * figure(n)``."""

    by_coups: dict[int, RunsResult]
    weights: dict[int, Fraction]

    def _mix(self, figure) -> Fraction:
        return sum((w * figure(self.by_coups[n]) for n, w in self.weights.items()), Fraction(0))

    def mean_longest(self, outcome: str) -> Fraction:
        return self._mix(lambda r: r.mean_longest(outcome))

    def mean_count(self, outcome: str, k: int) -> Fraction:
        return self._mix(lambda r: r.mean_count(outcome, k))

    def share_with_run(self, outcome: str, k: int) -> Fraction:
        return self._mix(lambda r: r.longest_at_least(outcome, k))

    def longest_probability(self, outcome: str, length: int) -> Fraction:
        return self._mix(lambda r: r.longest_probability(outcome, length))

    def count_probability(self, outcome: str, k: int, count: int) -> Fraction:
        return self._mix(lambda r: r.count_probability(outcome, k, count))


def independent_for(dealt: DealtRuns, ways: CoupWays) -> Independent:
    """The exact :class:`Independent` figures for the coups per shoe of ``dealt``."""
    law = {n: c for n, c in dealt.coups_law().items() if n > 0}
    total = sum(law.values())
    by = {n: runs(ways, n, dealt.at_least, dealt.convention) for n in law}
    return Independent(by, {n: Fraction(c, total) for n, c in law.items()})


def comparison_rows(dealt: DealtRuns, exact: Independent) -> list[dict]:
    """One row per figure: its ``name``, ``outcome``, ``k``, the exact ``independent`` value and the
    dealt shoes' :class:`Estimate` ``dealt``."""
    rows: list[dict[str, Any]] = []
    for o in dealt.outcomes:
        rows.append(
            {
                "name": "mean longest run",
                "outcome": o,
                "k": None,
                "independent": exact.mean_longest(o),
                "dealt": dealt.mean_longest(o),
            }
        )
        for k in dealt.at_least:
            rows.append(
                {
                    "name": f"share of shoes with a run of {k} or more",
                    "outcome": o,
                    "k": k,
                    "independent": exact.share_with_run(o, k),
                    "dealt": dealt.share_with_run(o, k),
                }
            )
            rows.append(
                {
                    "name": f"mean runs of {k} or more",
                    "outcome": o,
                    "k": k,
                    "independent": exact.mean_count(o, k),
                    "dealt": dealt.mean_count(o, k),
                }
            )
    return rows


def distribution_rows(dealt: DealtRuns, exact: Independent) -> list[dict]:
    """The distributions, value by value (0 to one more than the largest dealt): ``statistic``
    (``longest`` or ``runs_at_least``), ``outcome``, ``k``, ``value``, the exact ``independent``
    probability and the dealt shoes' share (:class:`Estimate`, Wilson) ``dealt``."""
    rows: list[dict[str, Any]] = []
    for o in dealt.outcomes:
        values = dealt.longest[o]
        for L in range(int(values.max()) + 2):
            rows.append(
                {
                    "statistic": "longest",
                    "outcome": o,
                    "k": None,
                    "value": L,
                    "independent": exact.longest_probability(o, L),
                    "dealt": dealt.share_equal(values, L),
                }
            )
    for k in dealt.at_least:
        for o in dealt.outcomes:
            values = dealt.counts[(o, k)]
            for c in range(int(values.max()) + 2):
                rows.append(
                    {
                        "statistic": "runs_at_least",
                        "outcome": o,
                        "k": k,
                        "value": c,
                        "independent": exact.count_probability(o, k, c),
                        "dealt": dealt.share_equal(values, c),
                    }
                )
    return rows


def dealt_summary(dealt: DealtRuns, exact: Independent) -> dict:
    """What the documents of :mod:`analyzer.reports.runs_tables` show of the dealt shoes."""
    return {
        "shoes": dealt.shoes,
        "seed": dealt.seed,
        "procedure": dealt.procedure,
        "coups_law": dealt.coups_law(),
        "rows": comparison_rows(dealt, exact),
        "distributions": distribution_rows(dealt, exact),
        "longest_shares": {o: dealt.longest_shares(o).tolist() for o in dealt.outcomes},
    }


__all__ = [
    "DealtRuns",
    "Estimate",
    "Independent",
    "MAX_SHOES",
    "comparison_rows",
    "deal_runs",
    "dealt_summary",
    "distribution_rows",
    "independent_for",
    "mean_ci",
    "run_lengths",
    "share_ci",
]
