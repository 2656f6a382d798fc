"""Par sheets: per wager, the return table and every figure a game approval asks for.

Pure: a :class:`ParSheet` is built from exact :class:`~analyzer.core.solver.Solver`
results.  Counts stay integers over the one denominator (ordered six-card
deals); the figures are ``Fraction`` s; only what involves a square root (the
standard deviation, the volatility index, the confidence bands) is a float,
computed from the exact variance.

* **return table**: each payout event with its pays, ways, probability, return
  (pays x probability) and "1 in N" (deals / ways); the returns add up to the EV;
* **element of risk**: the house edge per *resolved* bet, ``house edge / (1 - P(push))``;
* **volatility index** at confidence ``c``: ``z * sd`` with ``z`` the two-sided normal
  quantile (1.645 at 90%, 1.960 at 95%);
* **bands** after ``N`` rounds of one unit: ``N * EV +- z * sd * sqrt(N)`` (the player's
  net result, by the normal approximation);
* **hold band** of a table: the house's win divided by the amount staked, with one unit
  on every wager each round; its variance counts the covariances between the wagers
  (they are settled on the same coup), from exact joint counts.

>>> from analyzer.bets.catalog import catalog
>>> sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player"]), by_decks=(8,))
>>> banker = sheet.wager("banker")
>>> sum(row.ret for row in banker.rows) == banker.ev
True
>>> f"{float(banker.element_of_risk):.4%}", f"{float(sheet.hold.mean):.4%}"
('1.1692%', '1.1465%')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, overload

from ..bets.breakeven import breakeven
from ..bets.catalog import Bet, Event
from ..bets.conditions import Condition
from ..core.cards import RANKS
from ..core.errors import BaccaratError
from ..core.frames import bet_list, data_frame, frame_html, percent_text
from ..core.results import BetResult
from ..core.shoe import Shoe
from ..core.solver import Solver
from .eor import effects_of_removal

if TYPE_CHECKING:
    import sympy

    from ..core.rules import Rules

#: Rounds of the confidence bands.
ROUNDS = (100, 1_000, 10_000, 100_000, 1_000_000)
#: Confidence levels (percent) of the bands, and of the volatility index.
BAND_LEVELS = (90, 95, 99)
VI_LEVELS = (90, 95)
#: Numbers of decks of the house-edge-by-decks table.
BY_DECKS = (1, 2, 4, 6, 8)
#: Most wagers of a hold band: it needs the joint counts of every pair of wagers
#: (16 wagers: 120 pairs, a few seconds; every named table has at most 13).
MAX_HOLD_WAGERS = 16


def z_value(level: int) -> float:
    """Two-sided standard normal quantile for a confidence of ``level`` percent."""
    return NormalDist().inv_cdf(0.5 + level / 200)


@dataclass(frozen=True)
class ReturnRow:
    """One line of a return table."""

    event: str
    pays: Fraction
    ways: int
    probability: Fraction
    ret: Fraction  # pays x probability
    one_in: Fraction | None  # deals / ways; None when the event never happens


@dataclass(frozen=True)
class Band:
    """Expected result after ``rounds`` and its half widths by confidence level."""

    rounds: int
    mean: Fraction
    half_width: dict[int, float]

    def interval(self, level: int) -> tuple[float, float]:
        m = float(self.mean)
        return (m - self.half_width[level], m + self.half_width[level])


@dataclass(frozen=True)
class Wager:
    """The par sheet of one wager on one shoe."""

    bet: Bet
    rows: tuple[ReturnRow, ...]
    ev: Fraction
    variance: Fraction
    hit_frequency: Fraction
    push_probability: Fraction
    house_edge_by_decks: dict[int, Fraction]
    breakeven_event: str
    breakeven_pays: Fraction | None
    breakeven_current: Fraction
    effects: dict[str, Fraction | None]
    tags: dict[str, int]
    tags_correlation: float | None  # None when no linear count can help
    bands: tuple[Band, ...]

    @property
    def id(self) -> str:
        return self.bet.id

    def __repr__(self) -> str:
        return (
            f"<Wager {self.id!r}: house edge {percent_text(self.house_edge)}, "
            f"hit frequency {percent_text(self.hit_frequency)}, {len(self.rows)} events>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table of the wager's return table (the sheet's rows of this wager)."""
        return frame_html(self._rows(), repr(self)[1:-1])

    def _rows(self) -> list[dict]:
        return [
            {
                "wager": self.bet.id,
                "event": r.event,
                "pays": r.pays,
                "ways": r.ways,
                "probability": r.probability,
                "return": r.ret,
                "one_in": r.one_in,
            }
            for r in self.rows
        ]

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def rtp(self) -> Fraction:
        """Return to player: what a unit staked returns on average, stake included."""
        return 1 + self.ev

    @property
    def element_of_risk(self) -> Fraction | None:
        """House edge per resolved bet (pushes left out); None if the bet always pushes."""
        resolved = 1 - self.push_probability
        return None if resolved == 0 else self.house_edge / resolved

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def volatility_index(self) -> dict[int, float]:
        return {c: z_value(c) * self.std_dev for c in VI_LEVELS}

    @property
    def max_payout(self) -> Fraction:
        return max(r.pays for r in self.rows)

    @property
    def breakeven_commission(self) -> Fraction | None:
        """For a win paying less than 1 to 1 (a commission): the commission that makes it fair."""
        if self.breakeven_pays is None or not 0 < self.breakeven_current < 1:
            return None
        return 1 - self.breakeven_pays


@dataclass(frozen=True)
class Hold:
    """The house's win per unit staked, one unit on each of ``wagers`` every round."""

    wagers: tuple[str, ...]
    mean: Fraction  # expected hold: -(sum of EVs) / number of wagers
    variance: Fraction  # of the house's win per unit staked, one round
    bands: tuple[Band, ...]  # of the hold (win / amount staked) after N rounds


@dataclass(frozen=True)
class ParSheet:
    """Par sheets of the wagers of one shoe; ``hold`` for two wagers or more."""

    shoe: Shoe
    deals: int
    title: str
    wagers: tuple[Wager, ...]
    hold: Hold | None
    hold_note: str = ""
    rules: Rules | None = None  # the Rules played (None: Punto Banco)

    def __repr__(self) -> str:
        """Short: the title, the shoe and the wagers (the sheet's figures are its fields).

        >>> from analyzer import Shoe, catalog
        >>> parsheet(Shoe.standard(8), catalog().select(["banker", "player"]), title="Main")
        <ParSheet 'Main' of 8 decks (416 cards): 2 wagers: banker, player; expected hold 1.1465%>
        """
        hold = f"; expected hold {percent_text(self.hold.mean)}" if self.hold else ""
        return (
            f"<ParSheet {self.title!r} of {self.shoe.describe()}: "
            f"{bet_list([w.id for w in self.wagers]).replace('bet', 'wager', 1)}{hold}>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table of every wager's return table (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), repr(self)[1:-1])

    def wager(self, bet_id: str) -> Wager:
        for w in self.wagers:
            if w.id == bet_id:
                return w
        raise KeyError(bet_id)

    def to_frame(self):
        """The return tables of every wager: wager, event, pays, ways, probability, return, one_in."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        return [row for w in self.wagers for row in w._rows()]


def return_rows(r: BetResult) -> tuple[ReturnRow, ...]:
    return tuple(
        ReturnRow(
            e.event,
            e.pays,
            e.ways,
            e.probability,
            e.pays * e.probability,
            Fraction(r.deals, e.ways) if e.ways else None,
        )
        for e in r.events
    )


def bands(mean: Fraction, variance: Fraction, rounds=ROUNDS) -> tuple[Band, ...]:
    """Bands of the sum of ``n`` rounds of mean ``mean`` and variance ``variance``."""
    return tuple(Band(n, n * mean, {c: z_value(c) * math.sqrt(n * variance) for c in BAND_LEVELS}) for n in rounds)


@overload
def _fraction(x: None) -> None: ...
@overload
def _fraction(x: sympy.Rational) -> Fraction: ...
def _fraction(x):
    """A sympy rational as a ``Fraction`` (``None`` stays ``None``)."""
    return None if x is None else Fraction(int(x.p), int(x.q))


def rules_at(rules, shoe: Shoe, best: bool = False):
    """The :class:`~analyzer.core.rules.Rules` played on ``shoe`` (None for Punto Banco): ``rules``,
    or with ``best`` the Player's exact best play of ``rules``' option for that shoe."""
    if best:
        from ..core.choice import best_rules

        rules = best_rules(rules, shoe.value_counts)[0]
    return None if rules is None or rules.is_default else rules


def parsheet(
    shoe: Shoe,
    bets: tuple[Bet, ...],
    by_decks=BY_DECKS,
    rounds=ROUNDS,
    title: str = "Selected bets",
    solver: Solver | None = None,
    rules=None,
    best: bool = False,
    effects=None,
) -> ParSheet:
    """The par sheet of ``bets`` dealt from ``shoe`` under ``rules`` (Punto Banco by default;
    ``best``: the Player plays ``rules``' option best, for each shoe, :func:`rules_at`).

    ``solver`` (holding at least ``bets``, under the rules played on ``shoe``) saves compiling
    them again; ``effects`` (:func:`~analyzer.reports.eor.effects_of_removal` of one card of
    each rank from ``shoe``, for at least ``bets``, by that solver) saves counting them again.
    """
    bets = tuple(bets)
    solver = solver or Solver(bets, rules=rules_at(rules, shoe, best))
    result = solver.solve(shoe)
    played = None if result.rules is None or result.rules.is_default else result.rules

    def other(d: int):
        s = Shoe.standard(d)
        if s == shoe:
            return result
        if best:  # the best play depends on the shoe
            r = rules_at(rules, s, best)
            return (solver if r == played else Solver(bets, rules=r)).solve(s)
        return solver.solve(s)

    by = {d: other(d) for d in by_decks}
    if (
        effects is None
        or effects.shoe != shoe
        or effects.cards != 1
        or effects.rules != played
        or not all(b.id in effects.bets for b in bets)
    ):
        effects = effects_of_removal(shoe, bets, solver=solver)
    effects = effects.bets
    wagers = []
    for b in bets:
        r = result.bet(b.id)
        be = breakeven(r)
        eff = effects[b.id]
        tags = eff.tags()
        wagers.append(
            Wager(
                bet=b,
                rows=return_rows(r),
                ev=r.ev,
                variance=r.variance,
                hit_frequency=r.hit_frequency,
                push_probability=sum((e.probability for e in r.events if e.pays == 0), Fraction(0)),
                house_edge_by_decks={d: by[d].bet(b.id).house_edge for d in by_decks},
                breakeven_event=be.event,
                breakeven_pays=_fraction(be.pays),
                breakeven_current=_fraction(be.current),
                effects={rk: eff.effect(rk) for rk in RANKS},
                tags=tags,
                tags_correlation=None if eff.vanishes else eff.correlation(tags),
                bands=bands(r.ev, r.variance, rounds),
            )
        )
    hold, note = None, ""
    if len(bets) > MAX_HOLD_WAGERS:
        note = (
            f"the hold band is not computed for more than {MAX_HOLD_WAGERS} wagers (it needs the joint "
            f"counts of all {len(bets) * (len(bets) - 1) // 2:,} pairs); name fewer bets"
        )
    elif len(bets) > 1:
        try:
            hold = table_hold(shoe, bets, result, rounds, played)
        except BaccaratError as e:
            note = f"the hold band is not computed: {e}"
    return ParSheet(shoe, result.deals, title, tuple(wagers), hold, note, played)


# -- the table's hold: covariances from exact joint counts ----------------------------


def _both(a: Condition | None, b: Condition | None) -> Condition:
    parts = [c for c in (a, b) if c is not None]
    if len(parts) == 1:
        return parts[0]
    x, y = parts
    return x & y  # keeps what the card engine must know of both


def joint_bet(i: Bet, j: Bet, bet_id: str = "joint") -> Bet:
    """A bet whose events are the pairs (event of ``i``, event of ``j``) of a coup.

    Events are tried in order, so ``(a, b)`` is the first pair whose raw conditions
    both hold exactly when ``a`` pays ``i`` and ``b`` pays ``j`` (an ``otherwise`` side
    reads no condition); the last pair, both ``otherwise``, is the joint bet's own.
    Its ``pays`` are ``pays_a * pays_b``: its EV is ``E[X_i X_j]``.
    """
    side_i = [(e.event, e.pays, e.when) for e in i.events] + [(i.otherwise_event, i.otherwise, None)]
    side_j = [(e.event, e.pays, e.when) for e in j.events] + [(j.otherwise_event, j.otherwise, None)]
    events = tuple(
        Event(f"{ea} / {eb}", pa * pb, _both(ca, cb))
        for ea, pa, ca in side_i
        for eb, pb, cb in side_j
        if ca is not None or cb is not None
    )
    return Bet(
        bet_id,
        f"{i.name} with {j.name}",
        "",
        events,
        i.otherwise * j.otherwise,
        f"{i.otherwise_event} / {j.otherwise_event}",
    )


#: Most class sequences the card engine enumerates for one joint bet of a hold band.
HOLD_BUDGET = 8_000_000


def covariances(
    shoe: Shoe, bets: tuple[Bet, ...], evs: dict[str, Fraction], rules=None
) -> dict[tuple[str, str], Fraction]:
    """Exact covariance of the net results of one unit on each of two wagers settled on the
    same coup, for every pair ``(a, b)`` of ``bets`` in order (``a`` before ``b``).

    ``Cov = E[X_a X_b] - E[X_a] E[X_b]``, the first term the EV of :func:`joint_bet` counted
    over the ordered six-card deals of ``shoe`` (under ``rules``), ``evs`` the wagers' EVs.  A joint of two
    bets on different cards can need far more card classes than either: beyond
    :data:`HOLD_BUDGET` sequences this raises :class:`~analyzer.core.errors.BaccaratError`.

    >>> from analyzer.bets.catalog import catalog
    >>> bets = catalog().select(["banker", "player"])
    >>> shoe = Shoe.standard(8)
    >>> r = Solver(bets).solve(shoe)
    >>> cov = covariances(shoe, bets, {b.id: r.bet(b.id).ev for b in bets})
    >>> f"{float(cov['banker', 'player']):.6f}"   # -0.95 P(B) - P(P) - EV_B EV_P
    '-0.882045'
    """
    pairs = {
        (i.id, j.id): joint_bet(i, j, f"joint_{n}_{m}") for n, i in enumerate(bets) for m, j in enumerate(bets) if m > n
    }
    if not pairs:
        return {}
    joint = Solver(tuple(pairs.values()), rules=rules, budget=HOLD_BUDGET, fallback=False).solve(shoe)
    return {(a, b): joint.bet(p.id).ev - evs[a] * evs[b] for (a, b), p in pairs.items()}


def table_hold(shoe: Shoe, bets: tuple[Bet, ...], result, rounds=ROUNDS, rules=None) -> Hold:
    """Expected hold and its bands, one unit on each wager per round (under ``rules``)."""
    # beyond HOLD_BUDGET sequences the band is not computed (said in the sheet)
    evs = {b.id: result.bet(b.id).ev for b in bets}
    cov = covariances(shoe, bets, evs, rules)
    variance = sum((result.bet(b.id).variance for b in bets), Fraction(0))
    for c in cov.values():
        variance += 2 * c
    k = len(bets)
    mean_win = -sum(evs.values(), Fraction(0))
    per_unit = variance / (k * k)
    return Hold(
        tuple(b.id for b in bets),
        mean_win / k,
        per_unit,
        tuple(Band(n, mean_win / k, {c: z_value(c) * math.sqrt(per_unit / n) for c in BAND_LEVELS}) for n in rounds),
    )
