"""Exact results of one shoe: outcome ways and each bet's payout events.

Every count is a Python ``int`` of ordered six-card deals out of ``deals``
(:mod:`analyzer.core.engine`); probabilities, EVs and variances are
``Fraction`` s derived on request, summing integer numerators over one
common denominator and dividing once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Any

from .frames import data_frame
from .shoe import Shoe

OUTCOMES = ("player", "banker", "tie")


def built(cls, **fields):
    """An instance of the frozen dataclass ``cls`` with these fields, equal to
    ``cls(**fields)`` (the same attributes; none of these classes has a
    ``__post_init__``), without the per-field frozen ``__setattr__``: what a solve
    builds for every event of every shoe."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


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

    bet: Any   # the priced bet (an analyzer.bets.Bet)
    deals: int
    events: tuple[EventResult, ...]

    def _moment(self, power: int) -> Fraction:
        # Sum integer numerators over one common denominator, then divide once.
        lcm = math.lcm(*(e.pays.denominator for e in self.events)) ** power
        total = sum(e.ways * e.pays.numerator ** power * (lcm // e.pays.denominator ** power)
                    for e in self.events)
        return Fraction(total, self.deals * lcm)

    @cached_property
    def ev(self) -> Fraction:
        """Expected net win per unit staked (computed once, kept: the result is immutable)."""
        return self._moment(1)

    @property
    def house_edge(self) -> Fraction:
        """``-ev``: expected loss per unit staked (ties included in the denominator)."""
        return -self.ev

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the net win of one unit staked (computed once, kept)."""
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

    def to_frame(self):
        """The pay table's events: event, pays, ways, deals, probability (pandas)."""
        return data_frame([{"bet": self.bet.id, "event": e.event, "pays": e.pays, "ways": e.ways,
                            "deals": e.deals, "probability": e.probability} for e in self.events])

    def metrics(self) -> dict:
        """EV, house edge, variance, hit frequency (exact) and standard deviation (float)."""
        return {"bet": self.bet.id, "name": self.bet.name, "ev": self.ev, "house_edge": self.house_edge,
                "variance": self.variance, "hit_frequency": self.hit_frequency, "std_dev": self.std_dev}


@dataclass(frozen=True)
class Analysis:
    """Exact results for one shoe: outcome ways and the selected bets."""

    shoe: Shoe
    deals: int
    outcomes: dict[str, int]
    bets: dict[str, BetResult]
    #: the drawing tableau counted (:class:`analyzer.core.rules.Rules`; ``None``: Punto Banco)
    rules: object = field(default=None, compare=False)
    #: the known cards at positions (:class:`analyzer.core.known.Known`) the counts are conditional on
    known: object = field(default=None, compare=False)

    def ways(self, outcome: str) -> int:
        """Deals won by ``"player"`` / ``"banker"`` or tied (``"tie"``)."""
        return self.outcomes[outcome]

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self.outcomes[outcome], self.deals)

    def bet(self, bet_id: str) -> BetResult:
        return self.bets[bet_id]

    def to_frame(self, what: str = "bets"):
        """A pandas DataFrame: ``"bets"`` (one row of metrics per bet), ``"events"`` (every
        bet's pay-table events) or ``"outcomes"`` (player, banker, tie)."""
        if what == "bets":
            return data_frame([r.metrics() for r in self.bets.values()])
        if what == "events":
            return data_frame([{"bet": r.bet.id, "event": e.event, "pays": e.pays, "ways": e.ways,
                                "deals": e.deals, "probability": e.probability}
                               for r in self.bets.values() for e in r.events])
        if what == "outcomes":
            return data_frame([{"outcome": o, "ways": w, "deals": self.deals,
                                "probability": Fraction(w, self.deals)} for o, w in self.outcomes.items()])
        raise ValueError(f"to_frame: unknown table {what!r} (bets, events or outcomes)")
