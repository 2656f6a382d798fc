"""Exact odds of a shoe: outcome counts and every selected bet's pay-table counts.

All counts are Python integers over ``deals = N (N-1) (N-2) (N-3) (N-4) (N-5)``,
the number of ordered six-card deals from a shoe of ``N`` cards (see
:mod:`analyzer.engine`).  Probabilities, expected values and variances are
``Fraction`` s built from those integers on request.

>>> a = analyze(Shoe.standard(8))
>>> a.deals, a.ways("banker")
(4998398275503360, 2292252566437888)
>>> a.bet("banker").house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .bets import MAIN_BETS, Bet, catalog
from .engine import POSITIONS, Tabulation, coup_table, falling
from .shoe import Shoe

OUTCOMES = ("player", "banker", "tie")


@dataclass(frozen=True)
class EventResult:
    """One payout event of a bet: ``ways`` deals of ``deals`` pay ``pays`` to 1."""

    event: str
    pays: Fraction
    ways: int
    deals: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, self.deals)


@dataclass(frozen=True)
class BetResult:
    """Exact figures of one bet on one shoe.  The events partition all deals."""

    bet: Bet
    deals: int
    events: tuple[EventResult, ...]

    def _moment(self, power: int) -> Fraction:
        # Sum integer numerators over one common denominator, then divide once.
        lcm = math.lcm(*(e.pays.denominator for e in self.events)) ** power
        total = sum(e.ways * e.pays.numerator ** power * (lcm // e.pays.denominator ** power)
                    for e in self.events)
        return Fraction(total, self.deals * lcm)

    @property
    def ev(self) -> Fraction:
        """Expected net win per unit staked."""
        return self._moment(1)

    @property
    def house_edge(self) -> Fraction:
        """``-ev``: expected loss per unit staked (ties included in the denominator)."""
        return -self.ev

    @property
    def variance(self) -> Fraction:
        """Variance of the net win of one unit staked."""
        ev = self.ev
        return self._moment(2) - ev * ev

    @property
    def std_dev(self) -> float:
        """Standard deviation (a float: the square root is generally irrational)."""
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins something (pays more than 0)."""
        return Fraction(sum(e.ways for e in self.events if e.pays > 0), self.deals)

    def event(self, name: str) -> EventResult:
        for e in self.events:
            if e.event == name:
                return e
        raise KeyError(name)


@dataclass(frozen=True)
class Analysis:
    """Exact results for one shoe: outcome ways and the selected bets."""

    shoe: Shoe
    deals: int
    outcomes: dict[str, int]
    bets: dict[str, BetResult]

    def ways(self, outcome: str) -> int:
        """Deals won by ``"player"`` / ``"banker"`` or tied (``"tie"``)."""
        return self.outcomes[outcome]

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self.outcomes[outcome], self.deals)

    def bet(self, bet_id: str) -> BetResult:
        return self.bets[bet_id]


class Solver:
    """A set of bets compiled once; :meth:`solve` then counts any shoe exactly.

    Compiling evaluates each event's condition over all ``10**6`` value
    sequences (milliseconds per event); solving costs tens of microseconds.
    """

    def __init__(self, bets: tuple[Bet, ...] | list[Bet]):
        self.bets = tuple(bets)
        table = coup_table()
        features = table.features()
        masks, rows, index = [], [], {}

        def row_of(mask):
            key = np.packbits(mask).tobytes()  # identical events share one row
            if key not in index:
                index[key] = len(masks)
                masks.append(mask)
            return index[key]

        winner = features["winner"]
        self._outcome_rows = [row_of(winner == code) for code in range(3)]
        for bet in self.bets:
            taken = None
            bet_rows = []
            for e in bet.events:
                m = e.when.mask(features)
                if taken is not None:
                    m = m & ~taken
                bet_rows.append(row_of(m))
                taken = m if taken is None else taken | m
            rows.append(bet_rows)
        self._bet_rows = rows
        self._tab = Tabulation(masks, table)

    def solve(self, shoe: Shoe) -> Analysis:
        """Exact :class:`Analysis` of ``shoe`` for these bets."""
        return self.solve_counts(shoe, shoe.value_counts)

    def solve_counts(self, shoe: Shoe | None, value_counts) -> Analysis:
        ways = self._tab.ways(value_counts)
        deals = falling(sum(value_counts), POSITIONS)
        outcomes = dict(zip(OUTCOMES, (ways[r] for r in self._outcome_rows)))
        results = {}
        for bet, rows in zip(self.bets, self._bet_rows):
            counts = [ways[r] for r in rows]
            events = [EventResult(e.event, e.pays, w, deals) for e, w in zip(bet.events, counts)]
            events.append(EventResult(bet.otherwise_event, bet.otherwise, deals - sum(counts), deals))
            results[bet.id] = BetResult(bet, deals, tuple(events))
        return Analysis(shoe, deals, outcomes, results)


@lru_cache(maxsize=64)
def solver(bet_ids: tuple[str, ...] = MAIN_BETS) -> Solver:
    """A cached :class:`Solver` for catalog bets."""
    return Solver(catalog().select(list(bet_ids)))


def analyze(shoe: Shoe, bets: tuple[str, ...] | list[str] | tuple[Bet, ...] | None = None) -> Analysis:
    """Exact odds of ``shoe`` for ``bets`` (catalog ids or :class:`Bet` s; main bets by default)."""
    if bets is None:
        return solver().solve(shoe)
    bets = tuple(bets)
    if all(isinstance(b, str) for b in bets):
        return solver(bets).solve(shoe)
    return Solver([catalog().bet(b) if isinstance(b, str) else b for b in bets]).solve(shoe)
