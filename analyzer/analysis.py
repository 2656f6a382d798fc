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
from .cardengine import CARD_LEVEL, CardTabulation, level_for
from .errors import BetError
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


def event_index(bet: Bet, features: dict | None = None) -> np.ndarray:
    """For each of the ``10**6`` value sequences, the index of the event of ``bet``
    that pays (the first whose condition holds), or ``len(bet.events)`` for the
    ``otherwise`` event.  Bets that read ranks or suits need the card engine."""
    features = features if features is not None else coup_table().features()
    index = np.full(features["winner"].shape, len(bet.events), dtype=np.int16)
    taken = np.zeros(features["winner"].shape, dtype=bool)
    for i, e in enumerate(bet.events):
        m = e.when.mask(features) & ~taken
        index[m] = i
        taken |= m
    return index


def _first_match(conditions: list, i: int):
    """Event ``i`` of a pay table: its condition holds and no earlier one does."""
    def mask(features):
        m = conditions[i].mask(features)
        for earlier in conditions[:i]:
            m = m & ~earlier.mask(features)
        return m
    return mask


class Solver:
    """A set of bets compiled once; :meth:`solve` then counts any shoe exactly.

    Compiling evaluates each event's condition over all ``10**6`` value
    sequences (milliseconds per event).  Solving a shoe costs tens of
    microseconds for bets on point values, and about a millisecond more for
    bets that read ranks or suits (see :mod:`analyzer.cardengine`).
    """

    def __init__(self, bets: tuple[Bet, ...] | list[Bet]):
        self.bets = tuple(bets)
        table = coup_table()
        features = table.features()
        masks, index = [], {}

        def row_of(mask):
            key = np.packbits(mask).tobytes()  # identical events share one row
            if key not in index:
                index[key] = len(masks)
                masks.append(mask)
            return index[key]

        winner = features["winner"]
        self._outcome_rows = [row_of(winner == code) for code in range(3)]
        # Where each bet event's count comes from: ("value", row) or (level, row).
        self._sources: list[list[tuple[str, int]]] = []
        card_events: dict[str, list] = {}
        card_features: dict[str, frozenset[str]] = {}
        self.suited_bets: list[str] = []
        for bet in self.bets:
            conds = [e.when for e in bet.events]
            used = frozenset().union(*(c.card_features for c in conds))
            if not used:
                paying = event_index(bet, features)
                sources = [("value", row_of(paying == i)) for i in range(len(conds))]
            else:
                level = level_for(used)
                if level == CARD_LEVEL:
                    self.suited_bets.append(bet.id)
                evs = card_events.setdefault(level, [])
                card_features[level] = card_features.get(level, frozenset()) | used
                sources = []
                for i in range(len(conds)):
                    sources.append((level, len(evs)))
                    evs.append(_first_match(conds, i))
            self._sources.append(sources)
        self._tab = Tabulation(masks, table)
        self._card_tabs = {level: CardTabulation(evs, card_features[level], level, table)
                           for level, evs in card_events.items()}

    def solve(self, shoe: Shoe) -> Analysis:
        """Exact :class:`Analysis` of ``shoe`` for these bets."""
        value_counts = shoe.value_counts
        ways = {"value": self._tab.ways(value_counts)}
        for level, tab in self._card_tabs.items():
            if level == CARD_LEVEL:
                if not shoe.suited:
                    raise BetError(
                        f"bet {self.suited_bets[0]!r} reads suits, but this shoe's suits are unknown "
                        "(it was given per rank, or a card was removed without its suit); "
                        "give the shoe per card (As=8,...) or remove cards with their suits")
                counts = shoe.card_tuple
            else:
                counts = shoe.rank_tuple
            ways[level] = tab.ways(counts, value_counts)
        deals = falling(sum(value_counts), POSITIONS)
        value_ways = ways["value"]
        outcomes = dict(zip(OUTCOMES, (value_ways[r] for r in self._outcome_rows)))
        results = {}
        for bet, sources in zip(self.bets, self._sources):
            counts = [ways[level][r] for level, r in sources]
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
    return _solver_for(tuple(catalog().bet(b) if isinstance(b, str) else b for b in bets)).solve(shoe)


@lru_cache(maxsize=64)
def _solver_for(bets: tuple[Bet, ...]) -> Solver:
    return Solver(bets)
