"""Series bets: placed on a coup, settled on the run of coups that follow.

A series bet is data, like a pay table (``[[series]]`` in a bets file, see
docs/bets.md): it is *placed* on a coup where the ``placed`` condition holds;
from the next coup on, each coup either *extends* the run (its ``run``
condition holds), is *skipped* (its ``skip`` condition holds: it neither
extends nor ends the run; no skip unless one is given) or *ends* it (any other
coup).  The bet is settled on the run's length: when the run ends, or when it
reaches ``cap`` (the top award is paid and the bet is over).  ``pays`` maps
run lengths 0..cap to payouts "to 1"; a length not listed pays ``otherwise``
(-1 unless stated: the stake is lost).

Pricing (the published convention): every coup after the one the bet is
placed on is dealt independently off the top of the declared shoe.  One coup
of the shoe then extends the run in ``e`` of its ``D`` ordered deals, is
skipped in ``s`` and ends the run in ``n = D - e - s`` (exact integers counted
by the solver, :class:`analyzer.core.solver.Solver`).  Skipped coups change
nothing, so each coup that counts extends with probability ``e / (e + n)``:
with ``a = e / g``, ``b = n / g`` (``g = gcd(e, n)``) and ``t = a + b``, the run
has length ``k < cap`` in ``a**k * b * t**(cap - 1 - k)`` and reaches the cap in
``a**cap`` of ``t**cap`` equally weighted cases.  The trigger plays no part in
that price (independent coups); it says where a dealt shoe places the bet.

The bet itself (:class:`analyzer.bets.catalog.SeriesBet`) is read with the catalog
(``[[series]]``); this module prices it.

>>> length_weights(1, 1, 0, 3)           # e = n: each length halves, the cap keeps the rest
((4, 2, 1, 1), 8)
>>> length_weights(0, 5, 7, 2), length_weights(5, 0, 7, 2)     # never extends; never ends
(((1, 0, 0), 1), ((0, 0, 1), 1))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from ..core.errors import BetError
from ..core.frames import fraction_text, percent_text
from ..core.results import BetResult, EventResult
from .catalog import MAX_SERIES_CAP, SeriesBet

if TYPE_CHECKING:
    from ..core.results import Analysis

#: Largest cap of a series bet (:data:`analyzer.bets.catalog.MAX_SERIES_CAP`).
MAX_CAP = MAX_SERIES_CAP

#: The sentence every output prints beside series bets.
CONVENTION = (
    "Series bets are priced with independent coups off the top of the declared shoe "
    "(the published convention): every coup after the one the bet is placed on is "
    "dealt from the full declared shoe, so a run's length is counted from one coup's "
    "exact odds; the cards a real shoe has already dealt are not taken into account."
)


def length_weights(extends: int, ends: int, skipped: int, cap: int) -> tuple[tuple[int, ...], int]:
    """``(w, T)``: the run has length ``k`` (0..cap) in ``w[k]`` of ``T`` equally likely
    cases, when one independent coup extends it in ``extends`` ways, ends it in ``ends``
    and is skipped in ``skipped`` (skips drop out; the ways are reduced by their gcd
    first, so ``T = t**cap`` with ``t = (extends + ends) / gcd``).

    >>> length_weights(2, 1, 0, 2)       # extends 2/3: 1/3, 2/9, then 4/9 reach the cap
    ((3, 2, 4), 9)
    >>> length_weights(0, 0, 3, 4)
    Traceback (most recent call last):
    ...
    analyzer.core.errors.BetError: the run never ends on this shoe: every coup is skipped
    """
    if extends + ends == 0:
        raise BetError("the run never ends on this shoe: every coup is skipped")
    g = math.gcd(extends, ends)
    a, b = extends // g, ends // g
    t = a + b
    w = [a**k * b * t ** (cap - 1 - k) for k in range(cap)] + [a**cap]
    return tuple(w), t**cap


@dataclass(frozen=True)
class SeriesResult:
    """A series bet priced off the top of one shoe: one coup's classes (``extends``,
    ``skipped`` and ``ends`` ways of ``deals`` ordered deals) and the bet's result
    (``result``, a :class:`BetResult` whose events are the paying lengths, the longest
    first, then ``otherwise``, counted over the ``t**cap`` cases of :func:`length_weights`)."""

    bet: SeriesBet
    deals: int
    extends: int
    skipped: int
    ends: int
    lengths: tuple[int, ...]
    cases: int

    @cached_property
    def result(self) -> BetResult:
        paid = dict(self.bet.pays)
        events = [EventResult(self.bet.event_name(k), p, self.lengths[k], self.cases) for k, p in self.bet.pays]
        rest = sum(w for k, w in enumerate(self.lengths) if k not in paid)
        events.append(EventResult(self.bet.otherwise_event, self.bet.otherwise, rest, self.cases))
        return BetResult(self.bet, self.cases, tuple(events))

    def __repr__(self) -> str:
        """Short: the bet, its house edge and the coups it takes (the counts are the fields).

        >>> from analyzer import Shoe
        >>> from analyzer.bets.catalog import catalog
        >>> price_series(Shoe.standard(8), [catalog().series["banker_streak"]])[0]
        <SeriesResult 'banker_streak': house edge 9.4006% (EV ~-0.094), runs capped at 10, ~1.84629 coups a bet>
        """
        return (
            f"<SeriesResult {self.bet.id!r}: house edge {percent_text(self.house_edge)} "
            f"(EV {fraction_text(self.ev)}), runs capped at {self.bet.cap}, "
            f"{fraction_text(self.coups, 24, '.6g')} coups a bet>"
        )

    def length_probability(self, length: int) -> Fraction:
        """P(the run's length is ``length``; at the cap: reaches it)."""
        return Fraction(self.lengths[length], self.cases)

    @property
    def ev(self) -> Fraction:
        return self.result.ev

    @property
    def house_edge(self) -> Fraction:
        return self.result.house_edge

    @property
    def variance(self) -> Fraction:
        return self.result.variance

    @property
    def std_dev(self) -> float:
        return self.result.std_dev

    @property
    def hit_frequency(self) -> Fraction:
        return self.result.hit_frequency

    @property
    def coups(self) -> Fraction:
        """Expected number of coups dealt until the bet is settled (skipped ones included):
        each counted coup takes ``D / (e + n)`` coups on average, and ``sum_k P(L >= k)`` of
        them are counted, ``k = 0..cap-1`` (the one that ends the run included)."""
        tail, counted = 0, 0  # tail: cases of L >= k, for k = cap down to 0
        for k in range(self.bet.cap, -1, -1):
            tail += self.lengths[k]
            if k < self.bet.cap:
                counted += tail
        return Fraction(counted * self.deals, self.cases * (self.extends + self.ends))


def price(bet: SeriesBet, classes: Analysis) -> SeriesResult:
    """``bet`` priced from ``classes``, a solve that counted :attr:`SeriesBet.coup_bet`."""
    r = classes.bet(bet.id)
    extends = r.event("extends").ways
    skipped = r.event("skipped").ways if bet.skip is not None else 0
    ends = r.event("ends").ways
    lengths, cases = length_weights(extends, ends, skipped, bet.cap)
    return SeriesResult(bet, r.deals, extends, skipped, ends, lengths, cases)


def price_series(shoe, bets, rules=None) -> list[SeriesResult]:
    """Every series bet of ``bets`` priced off the top of ``shoe`` under ``rules`` (one solve
    of their coup classes).

    >>> from analyzer import Shoe
    >>> from analyzer.bets.catalog import catalog
    >>> r, = price_series(Shoe.standard(8), [catalog().series["banker_streak"]])
    >>> f"{float(r.house_edge):.6f}", f"{float(r.length_probability(10)):.6f}", f"{float(r.coups):.4f}"
    ('0.094006', '0.000411', '1.8463')
    """
    from .pricing import analyze

    bets = tuple(bets)
    if not bets:
        return []
    classes = analyze(shoe, tuple(b.coup_bet for b in bets), rules)
    return [price(b, classes) for b in bets]
