"""Exact results of one shoe: outcome ways and each bet's payout events.

Every count is a Python ``int`` of ordered six-card deals out of ``deals``
(:mod:`analyzer.core.engine`); probabilities, EVs and variances are
``Fraction`` s derived on request, summing integer numerators over one
common denominator and dividing once.

A solve keeps each bet's counts in one tuple of exact integers
(:class:`BetResults`, the ``bets`` of an :class:`Analysis`) and wraps a bet's
counts in a :class:`BetResult` the first time it is read.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from operator import mul
from typing import TYPE_CHECKING, Any

from .frames import bet_list, data_frame, fraction_text, frame_html, percent_text, short_float
from .shoe import Shoe

if TYPE_CHECKING:
    from .known import Known
    from .rules import Rules

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


def pay_weights(pays: tuple[Fraction, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For the first and second moments of a pay table: ``(L, w)`` with ``L`` the common
    denominator of the pays' powers and ``w[i] = pays[i] ** power * L`` (integers), so that
    ``sum(ways[i] * pays[i] ** power) / deals == sum(ways[i] * w[i]) / (deals * L)``.

    >>> pay_weights((Fraction(19, 20), Fraction(-1)))
    ((20, (19, -20)), (400, (361, 400)))
    """
    out = []
    for power in (1, 2):
        lcm = math.lcm(*(p.denominator for p in pays)) ** power
        out.append((lcm, tuple(p.numerator**power * (lcm // p.denominator**power) for p in pays)))
    return tuple(out)


def _sqrt(x: Fraction) -> float:
    """``math.sqrt(x)``, and for ``x`` beyond a float's range the square root of its integer
    part (an error below one in a number above 1e154)."""
    try:
        return math.sqrt(x)
    except OverflowError:
        return float(math.isqrt(x.numerator // x.denominator))


@dataclass(frozen=True)
class BetResult:
    """Exact figures of one bet on one shoe.  The events partition all deals."""

    bet: Any  # the priced bet (an analyzer.bets.Bet)
    deals: int
    events: tuple[EventResult, ...]

    @cached_property
    def _sums(self) -> tuple[int, int, int]:
        # Sum integer numerators over one common denominator L (the pays' weights are the
        # solver's, shared by every shoe: ``pay_weights``): sum ways * pays**k = S_k / L**k
        weights = self.__dict__.get("_pay_weights") or pay_weights(tuple(e.pays for e in self.events))
        (lcm, w1), (_, w2) = weights
        ways = [e.ways for e in self.events]
        return sum(map(mul, ways, w1)), sum(map(mul, ways, w2)), lcm

    @cached_property
    def ev(self) -> Fraction:
        """Expected net win per unit staked (computed once, kept: the result is immutable)."""
        s1, _, lcm = self._sums
        return Fraction(s1, self.deals * lcm)

    @property
    def house_edge(self) -> Fraction:
        """``-ev``: expected loss per unit staked (ties included in the denominator)."""
        return -self.ev

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the net win of one unit staked (computed once, kept)."""
        # E[X**2] - E[X]**2 = (S2 D - S1**2) / (D L)**2, divided once
        s1, s2, lcm = self._sums
        d = self.deals * lcm
        return Fraction(s2 * self.deals - s1 * s1, d * self.deals * lcm)

    @property
    def std_dev(self) -> float:
        """Standard deviation (a float: the square root is generally irrational); finite
        even when the variance is beyond a float's range (pays above about 1e154).

        >>> from fractions import Fraction
        >>> f"{_sqrt(Fraction(10**340, 3)):.6e}"
        '5.773503e+169'
        """
        return _sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet wins something (pays more than 0)."""
        return Fraction(sum(e.ways for e in self.events if e.pays > 0), self.deals)

    def event(self, name: str) -> EventResult:
        for e in self.events:
            if e.event == name:
                return e
        raise KeyError(name)

    def __repr__(self) -> str:
        """Short: the bet, its house edge and what it is counted over (not every event).

        >>> from analyzer import Shoe, analyze
        >>> analyze(Shoe.standard(8)).bet("banker")
        <BetResult 'banker': house edge 1.0579% (EV -114753351728/10847218479825), 3 events over 4998398275503360 deals>
        """
        return (
            f"<BetResult {self.bet.id!r}: house edge {percent_text(self.house_edge)} "
            f"(EV {fraction_text(self.ev)}), {len(self.events)} events over {self.deals} deals>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table of the pay table's events (the rows of :meth:`to_frame`)."""
        return frame_html(
            self._rows(), f"{self.bet.id}: house edge {percent_text(self.house_edge)} over {self.deals} deals"
        )

    def to_frame(self):
        """The pay table's events: event, pays, ways, deals, probability (pandas)."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        return [
            {
                "bet": self.bet.id,
                "event": e.event,
                "pays": e.pays,
                "ways": e.ways,
                "deals": e.deals,
                "probability": e.probability,
            }
            for e in self.events
        ]

    def metrics(self) -> dict:
        """EV, house edge, variance, hit frequency (exact) and standard deviation (float)."""
        return {
            "bet": self.bet.id,
            "name": self.bet.name,
            "ev": self.ev,
            "house_edge": self.house_edge,
            "variance": self.variance,
            "hit_frequency": self.hit_frequency,
            "std_dev": self.std_dev,
        }


@dataclass(frozen=True)
class Analysis:
    """Exact results for one shoe: outcome ways and the selected bets."""

    shoe: Shoe
    deals: int
    outcomes: dict[str, int]
    #: bet id -> :class:`BetResult` in the solver's order (a solve gives a :class:`BetResults`)
    bets: Mapping[str, BetResult]
    #: the drawing tableau counted (:class:`analyzer.core.rules.Rules`; ``None``: Punto Banco)
    rules: Rules | None = field(default=None, compare=False)
    #: the known cards at positions (:class:`analyzer.core.known.Known`) the counts are conditional on
    known: Known | None = field(default=None, compare=False)

    def ways(self, outcome: str) -> int:
        """Deals won by ``"player"`` / ``"banker"`` or tied (``"tie"``)."""
        return self.outcomes[outcome]

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self.outcomes[outcome], self.deals)

    def bet(self, bet_id: str) -> BetResult:
        return self.bets[bet_id]

    def __repr__(self) -> str:
        """Short: the shoe, the deals, the outcome probabilities and the bets' ids.

        >>> from analyzer import Shoe, analyze
        >>> analyze(Shoe.standard(8))  # doctest: +NORMALIZE_WHITESPACE
        <Analysis of 8 decks (416 cards): 4998398275503360 deals;
         player 0.446247, banker 0.458597, tie 0.095156; 3 bets: player, banker, tie>
        """
        odds = (
            ", ".join(f"{o} {short_float(Fraction(w, self.deals))}" for o, w in self.outcomes.items())
            if self.deals
            else "no deals"
        )
        return f"<{self._heading()}; {odds}; {bet_list(self.bets)}>"

    def _heading(self) -> str:
        """``Analysis of <shoe>[; rules <name>][; known <cards>]: <deals> deals``."""
        shoe = self.shoe.describe()
        if len(shoe) > 100:
            shoe = f"{self.shoe.cards} cards"
        extra = ""
        if self.rules and not self.rules.is_default:
            extra += f"; rules {self.rules.name}"
        if self.known:  # a Known has no is_default
            extra += f"; known {self.known.describe()}"
        return f"Analysis of {shoe}{extra}: {self.deals} deals"

    def _repr_html_(self) -> str:
        """A notebook's table: one row of metrics per bet, under the shoe, the rules and the
        known cards (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), self._heading())

    def to_frame(self, what: str = "bets"):
        """A pandas DataFrame: ``"bets"`` (one row of metrics per bet), ``"events"`` (every
        bet's pay-table events) or ``"outcomes"`` (player, banker, tie)."""
        return data_frame(self._rows(what))

    def _rows(self, what: str = "bets") -> list[dict]:
        if what == "bets":
            return [r.metrics() for r in self.bets.values()]
        if what == "events":
            return [row for r in self.bets.values() for row in r._rows()]
        if what == "outcomes":
            return [
                {"outcome": o, "ways": w, "deals": self.deals, "probability": Fraction(w, self.deals)}
                for o, w in self.outcomes.items()
            ]
        raise ValueError(f"to_frame: unknown table {what!r} (bets, events or outcomes)")


class BetLayout:
    """Where the bets of a solver find their counts in a :class:`BetResults`: for each
    bet (in order) the bet, its events' ``(event, pays)``, its ``otherwise`` event's
    ``(event, pays)`` and the slice ``start:stop`` of its events' ways.  One per solver,
    shared by its analyses."""

    __slots__ = ("entries", "ids", "index", "weights")

    def __init__(self, entries):
        self.entries = tuple(entries)
        self.ids = tuple(bet.id for bet, *_ in self.entries)
        self.index = {bet_id: i for i, bet_id in enumerate(self.ids)}
        #: each bet's :func:`pay_weights`, its ``otherwise`` pays last
        self.weights = tuple(
            pay_weights(tuple(p for _, p in events) + (other[1],)) for _, events, other, _, _ in self.entries
        )

    def __reduce__(self):
        return BetLayout, (self.entries,)

    def __eq__(self, other):
        if not isinstance(other, BetLayout):
            return NotImplemented
        return self is other or self.entries == other.entries

    __hash__ = None  # type: ignore[assignment]  # unhashable: equality compares the entries


class BetResults(Mapping):
    """The ``bets`` of a solved :class:`Analysis`: a read-only mapping of bet id to
    :class:`BetResult`, in the solver's order.

    It holds the exact ways of every payout event but the ``otherwise`` one (Python
    integers, counted by the solve) in one tuple; a bet's :class:`BetResult` (its
    ``otherwise`` ways: ``deals`` less the others) is built the first time it is read,
    then kept.  Equal to a ``dict`` with the same items; the ``repr`` names the bets
    only; pickles as its layout, ``deals`` and ways."""

    __slots__ = ("_deals", "_layout", "_made", "_ways")

    def __init__(self, layout: BetLayout, deals: int, ways: tuple):
        self._made: dict[str, BetResult] = {}
        self._layout, self._deals, self._ways = layout, deals, ways

    def __getitem__(self, bet_id: str) -> BetResult:
        r = self._made.get(bet_id)
        if r is None:
            i = self._layout.index[bet_id]
            r = self._made[bet_id] = self._build(i, i + 1)[0]
        return r

    @property
    def layout(self) -> BetLayout:
        """Where each bet finds its counts (shared by every analysis of one solver)."""
        return self._layout

    @property
    def ways(self) -> tuple[int, ...]:
        """The ways of every payout event but the ``otherwise`` ones, bet after bet in the
        layout's order (each bet's ``start:stop``), over the analysis's deals."""
        return self._ways

    def event_ways(self, bet_id: str) -> tuple[int, ...]:
        """The ways of each payout event of bet ``bet_id``, its ``otherwise`` event last (over
        the analysis's deals), without building its :class:`BetResult`: what a caller that
        prices many shoes reads.

        >>> from analyzer import Shoe, Solver, catalog
        >>> a = Solver(catalog().select(["dragon7"])).solve(Shoe.standard(8))
        >>> a.bets.event_ways("dragon7") == tuple(e.ways for e in a.bet("dragon7").events)
        True
        """
        _, _, _, start, stop = self._layout.entries[self._layout.index[bet_id]]
        ways = self._ways[start:stop]
        return ways + (self._deals - sum(ways),)

    def _build(self, first: int, last: int) -> list[BetResult]:
        """The BetResults of bets ``first`` to ``last - 1``: one EventResult an event (built
        as :func:`built` does, inline: reading every bet costs what building them eagerly did)."""
        new, deals, all_ways, out = object.__new__, self._deals, self._ways, []
        weights = self._layout.weights
        for i, (bet, events, (other, other_pays), start, stop) in enumerate(self._layout.entries[first:last], first):
            evs, rest = [], deals
            for (name, pays), w in zip(events, all_ways[start:stop]):
                rest -= w
                e = new(EventResult)
                e.__dict__.update(event=name, pays=pays, ways=w, deals=deals)
                evs.append(e)
            e = new(EventResult)
            e.__dict__.update(event=other, pays=other_pays, ways=rest, deals=deals)
            evs.append(e)
            r = new(BetResult)
            r.__dict__.update(bet=bet, deals=deals, events=tuple(evs), _pay_weights=weights[i])
            out.append(r)
        return out

    def _all(self) -> dict[str, BetResult]:
        """Every BetResult, in order (those read before kept): the mapping's dict, whose
        views :meth:`values` and :meth:`items` return."""
        made, ids = self._made, self._layout.ids
        if len(made) < len(ids):
            if not made:
                # a few hundred acyclic objects: without the collector's passes over them
                paused = gc.isenabled()
                gc.disable()
                try:
                    made = dict(zip(ids, self._build(0, len(ids))))
                finally:
                    if paused:
                        gc.enable()
            else:
                made = {bet_id: self[bet_id] for bet_id in ids}
            self._made = made
        return made

    def values(self):
        return self._all().values()

    def items(self):
        return self._all().items()

    def __iter__(self):
        return iter(self._layout.ids)

    def __len__(self) -> int:
        return len(self._layout.ids)

    def __contains__(self, bet_id) -> bool:
        return bet_id in self._layout.index

    def __eq__(self, other):
        if isinstance(other, BetResults) and self._layout == other._layout:
            # the same bets and events: equal results exactly when the counts are equal
            return not self._layout.ids or (self._deals == other._deals and self._ways == other._ways)
        return self._all() == other if isinstance(other, Mapping) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a dict it equals

    def __repr__(self) -> str:
        """Short: the bets' ids (``dict(self)`` shows every result).

        >>> from analyzer import Shoe, analyze
        >>> analyze(Shoe.standard(8)).bets
        <BetResults of 3 bets: player, banker, tie>
        """
        return f"<BetResults of {bet_list(self)}>"

    def __reduce__(self):
        return BetResults, (self._layout, self._deals, self._ways)
