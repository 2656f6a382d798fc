"""Runs per shoe, exactly: the longest run of each outcome and the number of runs of at least
``k`` among ``n`` independent coups, and the streaks from a starting point (appendix 4).

Every coup is an independent deal from the full declared shoe (off the top): outcome ``o``
falls in ``w_o`` of ``W = w_P + w_B + w_T`` ways (:class:`CoupWays`: the exact counts of
:func:`analyzer.analyze`, divided by their greatest common divisor).  A sequence of ``n``
coups weighs the product of its coups' ways, so every figure here is an integer number of
ways over the explicit denominator ``W**n``; a ``Fraction`` is built only when a figure is
read (:class:`RunsResult`).

Two conventions for the ties (:data:`CONVENTIONS`), named in every document:

* ``tie-ends`` (the default, that of :mod:`analyzer.simcheck.streaks`): a run is a maximal
  block of consecutive coups with one outcome; a Tie ends a Player or Banker run, and the
  ties have runs of their own;
* ``ties-ignored`` (that of Wizard of Odds' baccarat appendix 4): the ties are removed from
  the sequence, so a Tie neither extends nor ends a Player or Banker run; runs of ties are
  not counted.

For one outcome the other outcomes only end its runs, so each figure is a two-letter
problem: ``a`` ways to extend the run, ``b`` ways to end it.  With ties ignored the ``m``
coups that are not ties are a binomial share of the ``n``: ``sum_m C(n, m) w_T**(n-m) X(m)``
for the two-letter count ``X(m)`` over ``(w_P + w_B)**m``.

* **Longest run.**  ``N_L(m)``, the ways of ``m`` coups with no run of ``L`` or more,
  satisfies ``N_L(m) = b S(m-1) + [m < L] a**m`` with the window
  ``S(m) = N_L(m) + a S(m-1) - a**L N_L(m-L)``: ``O(n)`` per ``L``, ``O(n**2)`` in all.
* **Runs of at least k.**  A forward pass over (length of the current run, capped at ``k``;
  runs counted so far), ``O(n**2)`` integers per ``k``.

>>> w = CoupWays(1, 1, 0)                   # a fair coin: no ties
>>> r = runs(w, coups=3, at_least=(2,))
>>> r.denominator, [str(r.longest_probability("banker", L)) for L in range(4)]
(8, ['1/8', '1/2', '1/4', '1/8'])
>>> [str(p) for _, p in r.count_distribution("player", 2)], str(r.mean_count("player", 2))
(['5/8', '3/8'], '3/8')
>>> [str(p) for _, p in streaks_from_start(w, "banker", top=2)]
['1/2', '1/4', '1/4']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from ..core.errors import BaccaratError
from ..core.frames import data_frame, frame_html

OUTCOMES = ("player", "banker", "tie")
LETTERS = {"player": "P", "banker": "B", "tie": "T"}
CONVENTIONS = ("tie-ends", "ties-ignored")
#: what each convention means, as the documents say it
CONVENTION_TEXT = {
    "tie-ends": "a Tie ends a Player or Banker run; ties have runs of their own",
    "ties-ignored": "ties are removed from the sequence (a Tie neither extends nor ends a Player or "
    "Banker run; runs of ties are not counted): Wizard of Odds' appendix 4",
}
#: the most coups per shoe computed exactly (8 decks deal about 80 a shoe); and the work
#: refused beyond, in estimated seconds (:func:`estimate_seconds`)
MAX_COUPS = 1000
WORK_BUDGET = 5.0
#: the largest run length k asked for "runs of at least k"
MAX_K = 100
#: the streak lengths of the appendix-4 table: 0 .. TOP - 1, then "TOP or more"
TOP = 20


class RunsError(BaccaratError):
    """A runs question that cannot be answered as asked (one-line message)."""


@dataclass(frozen=True)
class CoupWays:
    """The ways of each outcome of one coup, over their sum :attr:`total`, reduced by their gcd.

    >>> CoupWays.reduced(6, 4, 2), CoupWays(3, 2, 1).total
    (CoupWays(player=3, banker=2, tie=1), 6)
    """

    player: int
    banker: int
    tie: int

    @classmethod
    def reduced(cls, player: int, banker: int, tie: int) -> CoupWays:
        g = math.gcd(player, banker, tie) or 1
        return cls(player // g, banker // g, tie // g)

    @classmethod
    def of(cls, analysis) -> CoupWays:
        """The ways of an :class:`analyzer.core.results.Analysis` of the main bets."""
        return cls.reduced(*(int(analysis.ways(o)) for o in OUTCOMES))

    @property
    def total(self) -> int:
        return self.player + self.banker + self.tie

    def __getitem__(self, outcome: str) -> int:
        return int(getattr(self, outcome))

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self[outcome], self.total)


def check_question(ways: CoupWays, coups: int, at_least=(), convention: str = "tie-ends") -> None:
    """Refuse, with one line and before any work, what :func:`runs` cannot answer in bounded time."""
    if convention not in CONVENTIONS:
        raise RunsError(f"unknown ties convention {convention!r} (choose from {', '.join(CONVENTIONS)})")
    if isinstance(coups, bool) or not isinstance(coups, int) or coups < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise RunsError(f"the number of coups must be a whole number >= 1, got {coups!r}")
    if coups > MAX_COUPS:
        raise RunsError(
            f"{coups:,} coups is more than the {MAX_COUPS:,} computed exactly (a shoe of 8 decks "
            f"deals about 80; the exact work grows as the cube of the coups)"
        )
    for k in at_least:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise RunsError(f"a run length k must be a whole number from 1 to {MAX_K}, got {k!r}")
    if min(ways.player, ways.banker, ways.tie) < 0 or ways.total <= 0:
        raise RunsError(f"the ways of a coup must be >= 0 with a positive sum, got {ways}")
    if convention == "ties-ignored" and ways.player + ways.banker == 0:
        raise RunsError("with ties ignored the shoe must be able to deal a Player or Banker win")
    if estimate_seconds(ways, coups, at_least, convention) > WORK_BUDGET:
        fits = max(
            (n for n in range(1, coups) if estimate_seconds(ways, n, at_least, convention) <= WORK_BUDGET), default=0
        )
        raise RunsError(
            f"{coups:,} coups is beyond the work budget of about {WORK_BUDGET:g} s (estimated "
            f"{estimate_seconds(ways, coups, at_least, convention):,.0f} s); at most {fits:,} coups fit"
            + (f" with {len(at_least)} run length{'s' if len(at_least) > 1 else ''} k" if at_least else "")
        )


def _two_letter(ways: CoupWays, outcome: str, convention: str) -> tuple[int, int, int]:
    """``(a, b, t)``: the ways to extend a run of ``outcome``, to end it, and to leave it as it is."""
    a = ways[outcome]
    if convention == "ties-ignored":
        if outcome == "tie":
            raise RunsError("with ties ignored there are no runs of ties")
        return a, ways.player + ways.banker - a, ways.tie
    return a, ways.total - a, 0


def _mixing(t: int, n: int) -> list[int]:
    """``C(n, m) t**(n-m)`` for ``m = 0 .. n``: the weights of :func:`_mix`."""
    return [math.comb(n, m) * t ** (n - m) for m in range(n + 1)]


def _mix(values: list[int], weights: list[int]) -> int:
    """``sum_m C(n, m) t**(n-m) values[m]`` (``weights`` of :func:`_mixing`): ``values[m]`` over
    ``(W - t)**m`` for the ``m`` coups that are not ties, as ways of ``n`` coups over ``W**n``."""
    return sum(w * v for w, v in zip(weights, values))


def _no_run(a: int, b: int, L: int, n: int) -> list[int]:
    """``N_L(m)`` for ``m = 0 .. n``: the ways of ``m`` two-letter coups (``a`` ways to extend a run,
    ``b`` to end it) with no run of ``L`` or more, over ``(a + b)**m``.

    >>> _no_run(1, 1, 2, 4)        # no two heads in a row: Fibonacci
    [1, 2, 3, 5, 8]
    """
    N = [1] + [0] * n
    aL = a**L
    S = 1  # S(0) = N(0)
    am = 1
    for m in range(1, n + 1):
        am *= a
        N[m] = b * S + (am if m < L else 0)
        S = N[m] + a * S - (aL * N[m - L] if m >= L else 0)
    return N


def longest_ways(ways: CoupWays, outcome: str, coups: int, convention: str = "tie-ends") -> tuple[int, ...]:
    """The ways of ``coups`` coups (over ``ways.total ** coups``) whose longest run of ``outcome`` is
    exactly ``L``, for ``L = 0 .. coups``.

    >>> longest_ways(CoupWays(1, 1, 1), "tie", 2)      # 9 sequences: TT, four with one T, four without
    (4, 4, 1)
    """
    check_question(ways, coups, (), convention)
    a, b, t = _two_letter(ways, outcome, convention)
    n = coups
    weights = _mixing(t, n) if t else []
    below = [0]  # below[L]: ways with every run shorter than L
    for L in range(1, n + 1):
        N = _no_run(a, b, L, n)
        below.append(N[n] if not t else _mix(N, weights))
    below.append(ways.total**n)
    return tuple(below[L + 1] - below[L] for L in range(n + 1))


def at_least_ways(ways: CoupWays, outcome: str, coups: int, k: int, convention: str = "tie-ends") -> tuple[int, ...]:
    """The ways of ``coups`` coups (over ``ways.total ** coups``) with exactly ``c`` runs of
    ``outcome`` of length ``k`` or more, for ``c = 0 .. (coups + 1) // (k + 1)``.

    >>> at_least_ways(CoupWays(1, 1, 0), "banker", 3, 1)    # BBB PPP: 0 ... BPB: 2
    (1, 6, 1)
    """
    check_question(ways, coups, (k,), convention)
    a, b, t = _two_letter(ways, outcome, convention)
    n = coups
    most = (n + 1) // (k + 1)
    # state[r, c]: ways ending in a run of r coups of the outcome (r = k: k or more, counted), c counted
    state = np.zeros((k + 1, most + 1), dtype=object)
    state[0, 0] = 1
    totals = [state.sum(axis=0)] if t else []
    for _ in range(n):
        new = np.zeros_like(state)
        new[0] = b * state.sum(axis=0)
        if k > 1:
            new[1:k] = a * state[0 : k - 1]
        new[k] = a * state[k]
        new[k, 1:] += a * state[k - 1, :-1]
        state = new
        if t:
            totals.append(state.sum(axis=0))
    if not t:
        return tuple(int(x) for x in state.sum(axis=0))
    weights = _mixing(t, n)
    return tuple(_mix([int(v[c]) for v in totals], weights) for c in range(most + 1))


def streaks_from_start(
    ways: CoupWays, outcome: str, convention: str = "ties-ignored", top: int = TOP
) -> list[tuple[str, Fraction]]:
    """From a starting point, the probability of exactly ``j`` coups of ``outcome`` in a row and then
    another outcome (``j = 0 .. top - 1``), and of ``top`` or more: ``p**j (1 - p)`` and ``p**top``,
    ``p`` the outcome's probability per coup (per decision, ``w_o / (w_P + w_B)``, with ties ignored).
    Wizard of Odds' appendix 4 is this table at six decks, ties ignored.

    >>> [(j, str(p)) for j, p in streaks_from_start(CoupWays(1, 2, 1), "banker", "tie-ends", top=2)]
    [('0', '1/2'), ('1', '1/4'), ('2+', '1/4')]
    """
    check_question(ways, 1, (), convention)
    a, b, _ = _two_letter(ways, outcome, convention)
    p = Fraction(a, a + b)
    return [(str(j), p**j * (1 - p)) for j in range(top)] + [(f"{top}+", p**top)]


def estimate_seconds(ways: CoupWays, coups: int, at_least=(), convention: str = "tie-ends") -> float:
    """A rough time of :func:`runs` on a laptop (quadratic steps on numbers of ``coups * log2 W`` bits)."""
    bits = coups * max(ways.total.bit_length(), 1)
    outcomes, mixed = (2, 4) if convention == "ties-ignored" else (3, 1)
    steps = outcomes * mixed * (1 + len(at_least)) * coups * coups
    return steps * (5e-7 + bits * 2.5e-10)


@dataclass(frozen=True)
class RunsResult:
    """The exact runs of ``coups`` independent coups of one shoe, as integer ways over
    :attr:`denominator` ``= ways.total ** coups``.

    ``longest[o][L]``: the ways whose longest run of ``o`` is ``L`` (``L = 0 .. coups``);
    ``counts[(o, k)][c]``: the ways with exactly ``c`` runs of ``o`` of ``k`` or more.
    """

    ways: CoupWays
    coups: int
    convention: str
    at_least: tuple[int, ...]
    longest: dict[str, tuple[int, ...]]
    counts: dict[tuple[str, int], tuple[int, ...]]
    shoe: str = ""

    @cached_property
    def denominator(self) -> int:
        return self.ways.total**self.coups

    @property
    def outcomes(self) -> tuple[str, ...]:
        return tuple(self.longest)

    def _p(self, ways: int) -> Fraction:
        return Fraction(ways, self.denominator)

    def longest_probability(self, outcome: str, length: int) -> Fraction:
        """P(the longest run of ``outcome`` is exactly ``length``)."""
        w = self.longest[outcome]
        return self._p(w[length]) if 0 <= length < len(w) else Fraction(0)

    def longest_at_least(self, outcome: str, length: int) -> Fraction:
        """P(some run of ``outcome`` is ``length`` or longer); ``1 -`` it is P(no such run)."""
        w = self.longest[outcome]
        return self._p(sum(w[max(length, 0) :]))

    def mean_longest(self, outcome: str) -> Fraction:
        return self._p(sum(L * x for L, x in enumerate(self.longest[outcome])))

    def count_distribution(self, outcome: str, k: int) -> list[tuple[int, Fraction]]:
        """``(c, P(exactly c runs of outcome of length k or more))``."""
        return [(c, self._p(x)) for c, x in enumerate(self.counts[(outcome, k)])]

    def count_probability(self, outcome: str, k: int, count: int) -> Fraction:
        """P(exactly ``count`` runs of ``outcome`` of length ``k`` or more)."""
        w = self.counts[(outcome, k)]
        return self._p(w[count]) if 0 <= count < len(w) else Fraction(0)

    def mean_count(self, outcome: str, k: int) -> Fraction:
        return self._p(sum(c * x for c, x in enumerate(self.counts[(outcome, k)])))

    def shown_lengths(self, smallest: Fraction = Fraction(1, 10**7)) -> int:
        """The longest length worth a row: up to where every outcome's P(longest >= L) is below
        ``smallest`` (at least 1, at most the coups)."""
        top = 1
        bar = smallest * self.denominator  # compared in integers: no Fraction a row
        for o in self.outcomes:
            tail = 0
            w = self.longest[o]
            for L in range(len(w) - 1, -1, -1):
                tail += w[L]
                if tail >= bar:
                    top = max(top, L)
                    break
        return min(top, self.coups)

    def to_frame(self):
        """One row per figure: ``statistic`` (``longest`` or ``runs_at_least``), ``outcome``, ``k``
        (the run length of ``runs_at_least``), ``value`` (the longest run, or the number of runs)
        and its exact ``probability`` (with ``probability_float``)."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        rows = [
            {"statistic": "longest", "outcome": o, "k": None, "value": L, "probability": self._p(x)}
            for o in self.outcomes
            for L, x in enumerate(self.longest[o])
        ]
        rows += [
            {"statistic": "runs_at_least", "outcome": o, "k": k, "value": c, "probability": self._p(x)}
            for (o, k), w in self.counts.items()
            for c, x in enumerate(w)
        ]
        return rows

    def _repr_html_(self) -> str:
        """A notebook's table: the rows of :meth:`to_frame`."""
        return frame_html(self._rows(), f"Runs of {self.coups} coups ({self.convention}) {self.shoe}".strip())

    def __repr__(self) -> str:
        means = ", ".join(f"{LETTERS[o]} {float(self.mean_longest(o)):.3f}" for o in self.outcomes)
        return f"<RunsResult {self.coups} coups, {self.convention}: mean longest run {means}>"


def runs(ways: CoupWays, coups: int, at_least=(3,), convention: str = "tie-ends", shoe: str = "") -> RunsResult:
    """The exact :class:`RunsResult` of ``coups`` independent coups (see the module)."""
    at_least = tuple(dict.fromkeys(at_least))
    check_question(ways, coups, at_least, convention)
    outcomes = ("player", "banker") if convention == "ties-ignored" else OUTCOMES
    longest = {o: longest_ways(ways, o, coups, convention) for o in outcomes}
    counts = {(o, k): at_least_ways(ways, o, coups, k, convention) for k in at_least for o in outcomes}
    return RunsResult(ways, coups, convention, at_least, longest, counts, shoe)


__all__ = [
    "CONVENTIONS",
    "CoupWays",
    "MAX_COUPS",
    "RunsError",
    "RunsResult",
    "at_least_ways",
    "check_question",
    "estimate_seconds",
    "longest_ways",
    "runs",
    "streaks_from_start",
]
