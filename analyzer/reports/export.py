"""A bet's exact outcome distribution as a weighted lookup table, for an online game server.

One row per distinct payout: the events paying the same merged, an integer
``weight`` (their ways, over the ordered six-card deals, divided by the gcd of
all the weights) and the payout, both "to 1" (``pays``: the net win) and "for 1"
(``multiplier = pays + 1``: what the server returns per unit staked; 0 for a
loss, 1 for a push).  The weights add up to ``total``; drawing a row with
probability ``weight / total`` deals the bet's exact distribution, and
``sum(weight * pays) / total`` is its exact EV (checked when the table is built).

A weight fits a ``uint64`` when ``total <= 2**64 - 1`` (the ordered deals of
every shoe of up to 31 decks do, before the gcd); :attr:`Lookup.uint64` says so.

>>> from analyzer import Shoe, analyze
>>> banker = analyze(Shoe.standard(8)).bet("banker")
>>> t = lookup(banker)
>>> [(str(r.pays), str(r.multiplier), r.weight) for r in t.rows]
[('-1', '0', 8712962041376), ('0', '1', 1857919634661), ('19/20', '39/20', 8954111587648)]
>>> t.total, t.gcd, t.uint64, t.ev == banker.ev
(19524993263685, 256, True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.results import BetResult

#: The largest value of a uint64.
UINT64_MAX = 2**64 - 1


@dataclass(frozen=True)
class Row:
    """One payout: ``weight`` of ``total``, paying ``pays`` to 1 (``multiplier`` for 1)."""

    pays: Fraction
    weight: int
    events: tuple[str, ...]

    @property
    def multiplier(self) -> Fraction:
        return self.pays + 1


@dataclass(frozen=True)
class Lookup:
    """The weighted table of one bet: ``rows`` by pays, ascending; the weights are the events'
    ways over ``deals`` divided by ``gcd``, and add up to ``total = deals / gcd``."""

    bet: str
    deals: int
    gcd: int
    rows: tuple[Row, ...]
    #: events that never happen on this shoe (left out of the rows)
    impossible: tuple[str, ...]

    @property
    def total(self) -> int:
        return self.deals // self.gcd

    @property
    def uint64(self) -> bool:
        """Every weight and the total fit an unsigned 64-bit integer."""
        return self.total <= UINT64_MAX

    @property
    def ev(self) -> Fraction:
        """``sum(weight * pays) / total``, exact."""
        return sum((r.pays * r.weight for r in self.rows), Fraction(0)) / self.total


def lookup(result: BetResult) -> Lookup:
    """The lookup table of a priced bet; checks that the weights add up to the total and that
    the table's EV is the bet's, exactly."""
    merged: dict[Fraction, tuple[int, list[str]]] = {}
    impossible = []
    for e in result.events:
        if e.ways == 0:
            impossible.append(e.event)
            continue
        ways, names = merged.get(e.pays, (0, []))
        merged[e.pays] = (ways + e.ways, names + [e.event])
    g = math.gcd(result.deals, *(w for w, _ in merged.values())) or 1
    rows = tuple(Row(p, w // g, tuple(names)) for p, (w, names) in sorted(merged.items()))
    out = Lookup(result.bet.id, result.deals, g, rows, tuple(impossible))
    if sum(r.weight for r in rows) != out.total or out.ev != result.ev:  # pragma: no cover
        raise AssertionError(f"lookup {result.bet.id}: the weights do not give the bet's distribution")
    return out
