"""Betting systems of ``baccarat bankroll``: the stake of each state and the next state.

A system is a finite machine over states ``0 .. n-1``; state 0 is the start.
Each state asks for one stake (a positive ``Fraction``, already capped by the
table limit), and the outcome of the coup (a loss when the bet pays less than
0, a push when it pays 0, a win when it pays more) moves it to the next state:

* ``flat``: always one unit;
* ``martingale``: ``unit * 2**k`` after ``k`` losses in a row; a win resets to one
  unit, a push keeps the stake;
* ``paroli``: ``unit * 2**w`` after ``w`` wins in a row, at most 3 wins: after the
  third win (or any loss) back to one unit; a push keeps the stake;
* ``dalembert``: ``d`` units, one more after a loss, one fewer after a win (never
  below one unit); a push keeps the stake.

The table limit caps every stake.  The progression's count stops at the first
step whose stake reaches the limit (for Martingale and Paroli this changes
nothing; for D'Alembert, a win at the limit steps down one unit from it).  A
session of N coups uses at most N + 1 steps, so a system is built with that many.

>>> m = make_system("martingale", Fraction(1), Fraction(5), 100)
>>> [str(s) for s in m.stakes], m.next(0, -1), m.next(3, -1), m.next(3, 1), m.next(2, 0)
(['1', '2', '4', '5'], 1, 3, 0, 2)
>>> d = make_system("dalembert", Fraction(2), None, 4)
>>> [str(s) for s in d.stakes], d.next(0, 1), d.next(1, 1), d.next(0, -1)
(['2', '4', '6', '8'], 0, 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..core.errors import BaccaratError

SYSTEMS = ("flat", "martingale", "paroli", "dalembert")
PAROLI_WINS = 3


class BankrollError(BaccaratError):
    """A bankroll question that cannot be answered as asked (bad input, or too much work)."""


@dataclass(frozen=True)
class System:
    name: str
    stakes: tuple[Fraction, ...]  # stake of each state, capped by the limit
    moves: tuple[tuple[int, int, int], ...]  # per state: next state after a loss, a push, a win

    def next(self, state: int, sign: int) -> int:
        """The state after a coup whose payout has this sign (-1 loss, 0 push, 1 win)."""
        return self.moves[state][sign + 1]

    def reach(self, coups: int) -> int:
        """How many states can be in use after ``coups`` coups (states are entered in order)."""
        return min(len(self.stakes), coups + 1)


def _steps(first_stake, limit: Fraction | None, steps: int) -> list[Fraction]:
    """Stakes ``first_stake(0), first_stake(1), ...``: at most ``steps``, up to the first at the limit."""
    out: list[Fraction] = []
    for k in range(steps):
        s = first_stake(k)
        if limit is not None and s >= limit:
            out.append(limit)
            break
        out.append(s)
    return out


def system_name(name: str) -> str:
    """``name`` if it is one of :data:`SYSTEMS`, else a one-line :class:`BankrollError`
    (``bankroll --system`` is read by it).

    >>> system_name("paroli")
    'paroli'
    """
    if name not in SYSTEMS:
        raise BankrollError(f"unknown system {name!r} (choose from {', '.join(SYSTEMS)})")
    return name


def make_system(name: str, unit: Fraction, limit: Fraction | None, steps: int) -> System:
    """The machine of system ``name`` for this unit and table limit (``None``: none), with at
    most ``steps`` states (a session of N coups enters at most N + 1)."""
    system_name(name)
    if limit is not None and limit < unit:
        raise BankrollError(f"the table limit {limit} is below the unit {unit}")
    if name == "flat":
        return System(name, (unit,), ((0, 0, 0),))
    if name == "paroli":
        doubled = tuple(unit * 2**w if limit is None else min(unit * 2**w, limit) for w in range(PAROLI_WINS))
        moves = tuple((0, w, (w + 1) % PAROLI_WINS) for w in range(PAROLI_WINS))
        return System(name, doubled, moves)
    if name == "martingale":
        stakes = _steps(lambda k: unit * 2**k, limit, steps)
        last = len(stakes) - 1
        return System(name, tuple(stakes), tuple((min(k + 1, last), k, 0) for k in range(last + 1)))
    stakes = _steps(lambda k: unit * (k + 1), limit, steps)
    last = len(stakes) - 1
    return System(name, tuple(stakes), tuple((min(k + 1, last), k, max(k - 1, 0)) for k in range(last + 1)))
