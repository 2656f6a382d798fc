"""Expected value as an exact polynomial in the payouts, and break-even payouts (sympy).

The counts of a bet's events do not depend on what they pay, so the EV is
linear in each payout: ``EV = sum_e pays_e * ways_e / deals``.  Leaving one
payout symbolic gives the payout (or, for a win paying "1 to 1 less
commission", the commission) that makes the bet fair.

>>> from analyzer import Shoe, analyze
>>> tie = analyze(Shoe.standard(8)).bet("tie")
>>> b = breakeven(tie)
>>> b.event, b.pays == sympy.Rational(4522770849030144, 475627426473216)
('tie', True)
>>> round(float(b.pays), 4)
9.5091
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from ..core.errors import BetError
from ..core.results import BetResult


def event_symbol(index: int) -> sympy.Symbol:
    return sympy.Symbol(f"x{index + 1}")


def ev_polynomial(result: BetResult) -> tuple[sympy.Expr, dict[sympy.Symbol, str]]:
    """EV per unit staked with every event's payout symbolic: ``(expr, {symbol: event})``.

    The ``otherwise`` event (usually ``loses``) is included as a symbol too.
    """
    symbols = {}
    expr = sympy.Integer(0)
    for i, e in enumerate(result.events):
        x = event_symbol(i)
        symbols[x] = e.event
        expr += x * sympy.Rational(e.ways, result.deals)
    return sympy.expand(expr), symbols


@dataclass(frozen=True)
class Breakeven:
    """EV with one event's payout ``x`` left symbolic, and the ``x`` that makes EV zero."""

    bet: str
    event: str
    symbol: sympy.Symbol
    ev: sympy.Expr  # EV as a function of the symbol
    pays: sympy.Rational | None  # break-even payout (to 1); None if the event never happens
    current: sympy.Rational

    @property
    def commission(self) -> sympy.Rational | None:
        """For an event paying 1 to 1 less commission: the commission that makes it fair."""
        return None if self.pays is None else 1 - self.pays


def breakeven(result: BetResult, event: str | None = None) -> Breakeven:
    """Leave ``event``'s payout symbolic (default: the bet's first paying event)."""
    events = result.events
    if event is None:
        chosen = next((e for e in events if e.pays > 0), events[0])
    else:
        matches = [e for e in events if e.event == event]
        if not matches:
            raise BetError(
                f"bet {result.bet.id!r} has no event {event!r} (events: {', '.join(repr(e.event) for e in events)})"
            )
        chosen = matches[0]
    x = sympy.Symbol("x")
    # EV = (x * ways(chosen) + rest) / deals, rest = sum of the other events' pays x ways: linear
    # in x, so the break-even payout is -rest / ways(chosen), exact on integers (none if it never happens)
    rest = sum((Fraction(e.pays) * e.ways for e in events if e is not chosen), Fraction(0))
    ev = x * sympy.Rational(chosen.ways, result.deals) + sympy.Rational(rest.numerator, rest.denominator * result.deals)
    pays = sympy.Rational(-rest.numerator, rest.denominator * chosen.ways) if chosen.ways else None
    return Breakeven(
        result.bet.id, chosen.event, x, ev, pays, sympy.Rational(chosen.pays.numerator, chosen.pays.denominator)
    )
