"""Approval figures of a par sheet: award frequencies, the largest win, the table's win to drop.

Pure, from a :class:`~analyzer.reports.parsheet.ParSheet`: every count is the sheet's, an
integer number of ordered six-card deals over the sheet's ``deals``; figures are
``Fraction`` s built at the edge; only the standard deviations and the bands (square roots
of exact variances) are floats.

* **award frequencies**: every event of every wager that pays more than 0, its probability
  ``ways / deals`` and "1 in N" (``deals / ways``), flagged when it is rarer than one in
  :data:`GLI_GAMES` coups (GLI-11 v3.0 §4.8.2 asks that an advertised award of a game of
  chance can be expected at least once in every 100 million games, unless its actual odds
  are displayed) or rarer than a stated limit ``one in rarest``;
* **largest win** of each wager: its largest pay and the probability of being paid it;
* **win to drop** of a stated bet mix (amounts staked on each wager every hand): the hold
  ``E[house win] / amount staked`` (exact), the variance of the house's result per hand
  (exact, the wagers' covariances from the exact joint counts of
  :func:`~analyzer.reports.parsheet.covariances`: they are settled on the same coup), the
  95% band of the win to drop over a day, a month (:data:`DAYS` ``"month"`` days) and a year
  of hands at a stated number of hands per hour and hours per day (normal approximation:
  ``hold +- 1.96 sd / (staked sqrt(n))``), and the theoretical win per hour.

>>> from analyzer import Shoe, catalog
>>> from analyzer.reports.parsheet import parsheet
>>> sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player", "tie"]), by_decks=(8,))
>>> a = approval(sheet, {"banker": 100, "player": 50, "tie": 5}, hands_per_hour=70, hours_per_day=16)
>>> [(w.bet, w.event, f"{float(w.one_in):.2f}") for w in a.awards]
[('banker', 'banker wins', '2.18'), ('player', 'player wins', '2.24'), ('tie', 'tie', '10.51')]
>>> w = a.win_to_drop      # win per hand 100 x 1.0579% + 50 x 1.2351% + 5 x 14.3596%, over 155 staked
>>> f"{float(w.win):.4f}", f"{float(w.hold):.4%}", f"{float(w.win_per_hour):.2f}"
('2.3934', '1.5441%', '167.54')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from ..core.errors import BaccaratError
from ..core.frames import frame_html, percent_text
from .parsheet import MAX_HOLD_WAGERS, ParSheet, covariances, z_value

#: GLI-11 §4.8.2: an advertised award should be expected at least once in this many games.
GLI_GAMES = 100_000_000
#: Days of each period of the win-to-drop bands.
DAYS = {"day": 1, "month": 30, "year": 365}
#: Confidence (percent) of the win-to-drop bands (COMAR 36.05.03.25 B(2): a 95 percent interval).
BAND_LEVEL = 95


class ApprovalError(BaccaratError):
    pass


class Appendix(Protocol):
    """A section a higher layer adds to the approval figures (the verification appendix of
    :mod:`analyzer.simcheck.confirm`): it renders itself."""

    def markdown(self, h: str) -> list[str]: ...
    def to_dict(self) -> dict: ...
    def csv_rows(self) -> list[list]: ...


@dataclass(frozen=True)
class Award:
    """One paying event of one wager: ``ways`` ordered deals of ``deals`` pay ``pays`` to 1."""

    bet: str
    event: str
    pays: Fraction
    ways: int
    deals: int
    rarest: int  # the stated limit: one in ``rarest`` coups

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, self.deals)

    @property
    def one_in(self) -> Fraction | None:
        """``deals / ways``; None when the award never happens."""
        return Fraction(self.deals, self.ways) if self.ways else None

    @property
    def below_gli(self) -> bool:
        """Rarer than one in :data:`GLI_GAMES` (``ways * GLI_GAMES < deals``; never happening counts)."""
        return self.ways * GLI_GAMES < self.deals

    @property
    def below_limit(self) -> bool:
        """Rarer than one in ``rarest`` (``ways * rarest < deals``)."""
        return self.ways * self.rarest < self.deals


@dataclass(frozen=True)
class MaxWin:
    """The largest pay of one wager and how often it is paid (``ways`` of ``deals``)."""

    bet: str
    pays: Fraction
    events: tuple[str, ...]  # the events paying it
    ways: int
    deals: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, self.deals)

    @property
    def one_in(self) -> Fraction | None:
        return Fraction(self.deals, self.ways) if self.ways else None


@dataclass(frozen=True)
class PeriodBand:
    """The win to drop after ``hands`` hands: its mean (exact) and the band's half width."""

    period: str
    hands: int
    mean: Fraction
    half_width: float

    def interval(self) -> tuple[float, float]:
        m = float(self.mean)
        return (m - self.half_width, m + self.half_width)


@dataclass(frozen=True)
class WinToDrop:
    """The house's win per amount staked, ``amounts`` on the wagers every hand."""

    amounts: tuple[tuple[str, Fraction], ...]
    staked: Fraction  # per hand (the drop, taken as the handle)
    win: Fraction  # expected house win per hand
    variance: Fraction | None  # of the house's result per hand; None when not exact
    hands_per_hour: int
    hours_per_day: int
    bands: tuple[PeriodBand, ...]  # empty when the variance is not known
    note: str = ""

    @property
    def hold(self) -> Fraction:
        """Expected win / amount staked."""
        return self.win / self.staked

    @property
    def win_per_hour(self) -> Fraction:
        return self.win * self.hands_per_hour

    @property
    def std_dev(self) -> float | None:
        """Standard deviation of the house's result in one hand (money, not per unit)."""
        return None if self.variance is None else math.sqrt(self.variance)


@dataclass
class Approval:
    """The approval figures of one par sheet (``appendix``: a verification, when run)."""

    sheet: ParSheet
    rarest: int
    awards: tuple[Award, ...]
    max_wins: tuple[MaxWin, ...]
    win_to_drop: WinToDrop
    appendix: Any = field(default=None)  # an :class:`Appendix`

    @property
    def flagged(self) -> tuple[Award, ...]:
        return tuple(a for a in self.awards if a.below_gli or a.below_limit)

    def __repr__(self) -> str:
        """Short: the sheet, its awards, those flagged and the expected win to drop.

        >>> from analyzer import Shoe, catalog
        >>> from analyzer.reports.parsheet import parsheet
        >>> approval(parsheet(Shoe.standard(8), catalog().select(["banker", "tie"]), title="Main", by_decks=(8,)))
        ... # doctest: +NORMALIZE_WHITESPACE
        <Approval of 'Main' (8 decks (416 cards), 2 wagers): 2 awards, 0 flagged
         (rarer than 1 in 100,000,000); win to drop 7.7088%>
        """
        appendix = getattr(self.appendix, "verdict", None)
        return (
            f"<Approval of {self.sheet.title!r} ({self.sheet.shoe.describe()}, {len(self.sheet.wagers)} wager"
            f"{'' if len(self.sheet.wagers) == 1 else 's'}): {len(self.awards)} award"
            f"{'' if len(self.awards) == 1 else 's'}, {len(self.flagged)} flagged (rarer than 1 in "
            f"{min(self.rarest, GLI_GAMES):,}); win to drop {percent_text(self.win_to_drop.hold)}"
            + (f"; verification {appendix}" if appendix else "")
            + ">"
        )

    def _repr_html_(self) -> str:
        """A notebook's table of every award: its pay, how often, and whether it is flagged."""
        rows = [
            {
                "wager": a.bet,
                "event": a.event,
                "pays": a.pays,
                "ways": a.ways,
                "deals": a.deals,
                "one_in": a.one_in,
                "below_gli": a.below_gli,
                "below_limit": a.below_limit,
            }
            for a in self.awards
        ]
        return frame_html(rows, repr(self)[1:-1])


def awards(sheet: ParSheet, rarest: int = GLI_GAMES) -> tuple[Award, ...]:
    """Every event paying more than 0 of every wager of ``sheet``, in the sheet's order.

    >>> from analyzer import Shoe, catalog
    >>> from analyzer.reports.parsheet import parsheet
    >>> sheet = parsheet(Shoe.standard(8), catalog().select(["tie"]), by_decks=(8,))
    >>> [(a.event, a.ways, a.deals, a.below_gli) for a in awards(sheet)]
    [('tie', 475627426473216, 4998398275503360, False)]
    """
    return tuple(
        Award(w.id, r.event, r.pays, r.ways, sheet.deals, rarest) for w in sheet.wagers for r in w.rows if r.pays > 0
    )


def max_wins(sheet: ParSheet) -> tuple[MaxWin, ...]:
    """Per wager, its largest pay and the deals paying it (every event with that pay).

    >>> from analyzer import Shoe, catalog
    >>> from analyzer.reports.parsheet import parsheet
    >>> sheet = parsheet(Shoe.standard(8), catalog().select(["banker"]), by_decks=(8,))
    >>> m = max_wins(sheet)[0]
    >>> m.pays, m.events, f"{float(m.probability):.6f}"
    (Fraction(19, 20), ('banker wins',), '0.458597')
    """
    out = []
    for w in sheet.wagers:
        top = w.max_payout
        rows = [r for r in w.rows if r.pays == top]
        out.append(MaxWin(w.id, top, tuple(r.event for r in rows), sum(r.ways for r in rows), sheet.deals))
    return tuple(out)


def win_to_drop(
    sheet: ParSheet, amounts: dict[str, Fraction] | None, hands_per_hour: int, hours_per_day: int
) -> WinToDrop:
    """The win to drop of ``amounts`` (wager id -> amount staked each hand; default one unit on
    each wager of the sheet), with its :data:`BAND_LEVEL` % bands over the periods of :data:`DAYS`.

    With amounts ``a_i`` and net results ``X_i`` per unit, the house's result is ``H = -sum a_i
    X_i``: ``E[H] = -sum a_i EV_i`` and ``Var H = sum_i sum_j a_i a_j Cov(X_i, X_j)``, each
    covariance exact (:func:`~analyzer.reports.parsheet.covariances`).  Over ``n`` independent
    hands the win to drop ``sum H / (n sum a_i)`` has mean ``E[H] / sum a_i`` and standard
    deviation ``sd(H) / (sum a_i sqrt(n))``.
    """
    if amounts is None:
        amounts = {w.id: Fraction(1) for w in sheet.wagers}
    ids = [w.id for w in sheet.wagers]
    for b in amounts:
        if b not in ids:
            raise ApprovalError(f"--mix names {b!r}, which is not a wager of the sheet ({', '.join(ids)})")
    mix = tuple((w.id, Fraction(amounts[w.id])) for w in sheet.wagers if amounts.get(w.id, 0))
    if not mix:
        raise ApprovalError("--mix stakes nothing: give at least one wager a positive amount")
    staked = sum((a for _, a in mix), Fraction(0))
    wagers = {w.id: w for w in sheet.wagers}
    win = -sum((a * wagers[b].ev for b, a in mix), Fraction(0))
    own = sum((a * a * wagers[b].variance for b, a in mix), Fraction(0))
    variance: Fraction | None = own
    note = ""
    if len(mix) > MAX_HOLD_WAGERS:
        variance, note = (
            None,
            (
                f"the variance is not computed for more than {MAX_HOLD_WAGERS} wagers in the "
                f"mix (it needs the joint counts of every pair)"
            ),
        )
    elif len(mix) > 1:
        bets = tuple(wagers[b].bet for b, _ in mix)
        try:
            cov = covariances(sheet.shoe, bets, {b: wagers[b].ev for b, _ in mix}, sheet.rules)
        except BaccaratError as e:
            variance, note = None, f"the variance is not computed exactly (so no bands): {e}"
        else:
            amount = dict(mix)
            variance = own + sum((2 * amount[x] * amount[y] * c for (x, y), c in cov.items()), Fraction(0))
    per_day = hands_per_hour * hours_per_day
    bands: tuple[PeriodBand, ...] = ()
    if variance is not None:
        z = z_value(BAND_LEVEL)
        bands = tuple(
            PeriodBand(p, d * per_day, win / staked, z * math.sqrt(variance / (d * per_day)) / float(staked))
            for p, d in DAYS.items()
        )
    return WinToDrop(mix, staked, win, variance, hands_per_hour, hours_per_day, bands, note)


def approval(
    sheet: ParSheet,
    amounts: dict[str, Fraction] | None = None,
    hands_per_hour: int = 70,
    hours_per_day: int = 24,
    rarest: int = GLI_GAMES,
) -> Approval:
    """Every approval figure of ``sheet`` (see the module's docstring)."""
    for name, v, lo in (
        ("hands per hour", hands_per_hour, 1),
        ("hours per day", hours_per_day, 1),
        ("the rarest award's odds", rarest, 1),
    ):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:  # type: ignore[redundant-expr]  # checked at run time
            raise ApprovalError(f"{name} must be a whole number of at least {lo}, got {v!r}")
    if hours_per_day > 24:
        raise ApprovalError(f"hours per day must be at most 24, got {hours_per_day}")
    return Approval(
        sheet,
        rarest,
        awards(sheet, rarest),
        max_wins(sheet),
        win_to_drop(sheet, amounts, hands_per_hour, hours_per_day),
    )
