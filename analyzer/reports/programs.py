"""Casino programs, exact: rolling (non-negotiable) chips, loss rebates, and the tail of a result.

**Rolling chips.**  A non-negotiable chip is bet hand after hand until it is lost;
its winnings are paid in cash and a push leaves it in play.  With ``l`` the
probability that a hand loses the chip (the bet pays below 0) and ``w`` the cash a
hand pays per chip (``sum p * pays`` over the events paying above 0, plus ``1 +
pays`` of a partial loss), the number of hands a chip is played is geometric:

* plays per chip ``1 / l``; cash won per chip ``w / l``;
* the house's edge per chip ``1 - w / l`` (the chip is kept by the house, the
  cash paid out), which is the edge per hand times the plays per chip;
* the hands to wash (lose) ``C`` chips bet one at a time: the sum of ``C``
  geometric plays, a negative binomial, ``P(H = h) = C(h-1, C-1) l**C (1-l)**(h-C)``,
  mean ``C / l``, variance ``C (1 - l) / l**2``; its quantiles are exact.

**Loss rebates.**  After a trip of N hands of flat stakes the casino returns a
rate ``r`` of the net loss ``L = max(0, -net)``.  From the exact figures of the
trip (:mod:`.sessions`): the rebate's value ``r E[L; L >= T]`` (a threshold
``T``: nothing is returned below it), or with tiers (the rate of the highest
tier reached applies to the whole loss); the break-even rate at which the value
equals the house's expected win ``-E[net]``.

**The tail.**  P(net >= X) exactly, with the normal approximation of the same
mean and variance beside it (what casinos answer the surveillance question
with).

>>> even = [(Fraction(9, 20), Fraction(1)), (Fraction(1, 10), Fraction(0)), (Fraction(9, 20), Fraction(-1))]
>>> chips = rolling_chips(even, chips=2)
>>> chips.plays_per_chip, chips.cash_per_chip, chips.edge_per_chip
(Fraction(20, 9), Fraction(1, 1), Fraction(0, 1))
>>> chips.wash_mean, [str(h) for _, h in chips.wash_quantiles][:3]
(Fraction(40, 9), ['2', '2', '2'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.bigint import big, fraction
from ..core.errors import BaccaratError
from ..core.frames import data_frame, fraction_text, percent_text
from .sessions import QUANTILES, FlatTrip, TripPlan, flat_trip, trip_plan

#: Most chips washed (the negative binomial's exact quantiles walk its hands one by one).
MAX_CHIPS = 1_000_000
#: Seconds of the walk refused beyond (see :func:`wash_seconds`).
WASH_BUDGET = 5.0
_BIT_SECONDS = 7.0e-11


class ProgramError(BaccaratError):
    """A program question that cannot be answered: bad input or beyond the budget."""


def _events(bet):
    if hasattr(bet, "events") and hasattr(bet, "deals"):
        return [(Fraction(e.ways, e.deals), Fraction(e.pays)) for e in bet.events]
    return [(Fraction(p), Fraction(y)) for p, y in bet]


@dataclass(frozen=True)
class RollingChips:
    """The exact figures of a non-negotiable chip bet on one bet until it is lost."""

    loss: Fraction  # P(a hand loses the chip)
    cash: Fraction  # E[cash paid per hand, per chip]
    chips: int
    wash_quantiles: tuple[tuple[Fraction, int], ...]  # (q, smallest h with P(H <= h) >= q)

    @property
    def plays_per_chip(self) -> Fraction:
        """Expected hands a chip is bet: ``1 / loss``."""
        return 1 / self.loss

    @property
    def cash_per_chip(self) -> Fraction:
        """Expected cash a chip wins before it is lost: ``cash / loss``."""
        return self.cash / self.loss

    @property
    def edge_per_chip(self) -> Fraction:
        """The house's expected win per chip, as a fraction of the chip: ``1 - cash / loss``."""
        return 1 - self.cash / self.loss

    @property
    def edge_per_hand(self) -> Fraction:
        """The house's expected win per hand bet: ``loss - cash``."""
        return self.loss - self.cash

    @property
    def wash_mean(self) -> Fraction:
        """Expected hands to wash the chips: ``chips / loss``."""
        return self.chips / self.loss

    @property
    def wash_variance(self) -> Fraction:
        return self.chips * (1 - self.loss) / self.loss**2

    def __repr__(self) -> str:
        """Short: the chips and the headline figures (every figure is exact: the properties).

        >>> rolling_chips([(Fraction(1, 2), 1), (Fraction(1, 2), -1)], chips=2)  # doctest: +NORMALIZE_WHITESPACE
        <RollingChips 2 chips: lost on a hand 1/2, 2 hands a chip, house edge per chip 0.0000%,
         per hand 0.0000%; median 3 hands to wash>
        """
        median = dict(self.wash_quantiles).get(Fraction(1, 2))
        return (
            f"<RollingChips {self.chips} chip{'' if self.chips == 1 else 's'}: lost on a hand "
            f"{fraction_text(self.loss, 40, '.6g')}, {fraction_text(self.plays_per_chip, 24, '.6g')} hands a chip, "
            f"house edge per chip {percent_text(self.edge_per_chip)}, per hand {percent_text(self.edge_per_hand)}"
            + (f"; median {median} hands to wash>" if median is not None else ">")
        )

    def theoretical_win(self, chip_value=1) -> Fraction:
        """The house's expected win on the chips washed, in money."""
        return self.chips * Fraction(chip_value) * self.edge_per_chip

    def to_frame(self):
        """The figures, one row each (pandas)."""
        rows = [
            ("plays_per_chip", self.plays_per_chip),
            ("cash_per_chip", self.cash_per_chip),
            ("edge_per_chip", self.edge_per_chip),
            ("edge_per_hand", self.edge_per_hand),
            ("hands_to_wash_mean", self.wash_mean),
            ("hands_to_wash_variance", self.wash_variance),
        ]
        rows += [(f"hands_to_wash_{q * 100}%", Fraction(h)) for q, h in self.wash_quantiles]
        return data_frame([{"figure": k, "value": v} for k, v in rows])


def rolling_chips(bet, chips: int = 1) -> RollingChips:
    """Rolling-chip figures of a bet, with the exact quantiles of the hands to wash ``chips``.

    Counted over the bet's exact event probabilities; the quantiles walk the negative
    binomial's probabilities as integers over ``D**h`` (``D`` the denominator of the
    loss probability).
    """
    if not isinstance(chips, int) or isinstance(chips, bool) or not 1 <= chips <= MAX_CHIPS:  # type: ignore[redundant-expr]  # checked at run time
        raise ProgramError(f"the chips must be a whole number from 1 to {MAX_CHIPS:,}, got {chips!r}")
    events = _events(bet)
    loss = sum((p for p, y in events if y < 0), Fraction(0))
    cash = sum((p * y for p, y in events if y > 0), Fraction(0)) + sum(
        (p * (1 + y) for p, y in events if -1 < y < 0), Fraction(0)
    )
    if loss == 0:
        raise ProgramError("this bet never loses: a rolling chip on it is never washed")
    if wash_seconds(loss, chips) > WASH_BUDGET:
        lo, hi = 1, chips
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if wash_seconds(loss, mid) <= WASH_BUDGET else (lo, mid - 1)
        raise ProgramError(
            f"the exact hands to wash {chips:,} chips are more work than the budget of "
            f"{WASH_BUDGET:g} s (about {wash_seconds(loss, chips):.0f} s); at most {lo:,} chips fit"
        )
    return RollingChips(loss, cash, chips, _wash_quantiles(loss, chips))


def wash_seconds(loss: Fraction, chips: int) -> float:
    """The estimated seconds of the exact quantiles: the walk goes to about the mean plus 3
    standard deviations, each hand a few operations on integers of ``h log2 D`` bits."""
    mean = chips / float(loss)
    hands = mean + 3 * math.sqrt(chips * (1 - float(loss))) / float(loss) + 10
    return 2.0 * hands * hands * max(loss.denominator.bit_length(), 1) * _BIT_SECONDS


def _wash_quantiles(loss: Fraction, chips: int) -> tuple[tuple[Fraction, int], ...]:
    """The exact quantiles of the hands to lose ``chips`` chips: P(H = h) = t_h / D**h with
    ``t_h = C(h-1, C-1) L**C (D-L)**(h-C)``; the running mass is kept over ``D**h``."""
    L, D = loss.numerator, loss.denominator
    if L == D:
        return tuple((q, chips) for q in QUANTILES)
    t = L**chips  # t_C
    h, cum = chips, t  # cum = sum_{j<=h} t_j D**(h-j), over D**h
    den = D**chips
    out = []
    for q in QUANTILES:
        while cum * q.denominator < q.numerator * den:
            t = t * h * (D - L) // (h - chips + 1)
            h += 1
            cum = cum * D + t
            den *= D
        out.append((q, h))
    return tuple(out)


@dataclass(frozen=True)
class Tier:
    """A rebate tier: the rate returned of the whole net loss when it reaches ``threshold``."""

    threshold: Fraction
    rate: Fraction


@dataclass(frozen=True)
class Rebate:
    """A loss rebate on a trip: the rate(s), its exact value and the break-even rate."""

    tiers: tuple[Tier, ...]
    value: Fraction  # expected money returned
    house_win: Fraction  # -E[net]: the house's expected win before the rebate
    covered_loss: Fraction  # E[L; L >= lowest threshold]
    reach: Fraction  # P(L >= lowest threshold) (above 0 for a threshold of 0): any rebate at all

    @property
    def player_expectation(self) -> Fraction:
        """E[net] plus the rebate's value."""
        return self.value - self.house_win

    @property
    def break_even_rate(self) -> Fraction | None:
        """The single rate (at the lowest threshold) whose value equals the house's win."""
        return None if self.covered_loss == 0 else self.house_win / self.covered_loss


@dataclass(frozen=True)
class Program:
    """A trip under a program: N flat hands of a stake, its rebate and its tail probabilities."""

    trip: FlatTrip
    rebate: Rebate | None
    wins: tuple[tuple[Fraction, Fraction, float], ...]  # (X, P(net >= X) exact, normal approximation)

    def __repr__(self) -> str:
        """Short: the trip, its net, the rebate's value and the first tail probabilities
        (every figure is exact: the fields).

        >>> even = [(Fraction(1, 2), 1), (Fraction(1, 2), -1)]
        >>> program(even, 4, rebate=tiers_of(Fraction(1, 2)), wins=[2])  # doctest: +NORMALIZE_WHITESPACE
        <Program 4 hands of 1: mean net 0, sd 2, ahead 5/16; rebate 50% of losses from 0: value 3/8,
         player expectation 3/8; P(net >= 2) 5/16>
        """
        t = self.trip
        out = (
            f"<Program {t.coups} hands of {t.stake}: mean net {fraction_text(t.mean, 24, '.6g')}, "
            f"sd {math.sqrt(t.variance):.6g}, ahead {fraction_text(t.ahead, 24, '.6g')}"
        )
        r = self.rebate
        if r is not None:
            tiers = (
                f"{float(r.tiers[0].rate) * 100:g}% of losses from {r.tiers[0].threshold}"
                if len(r.tiers) == 1
                else f"{len(r.tiers)} tiers"
            )
            out += (
                f"; rebate {tiers}: value {fraction_text(r.value, 24, '.6g')}, "
                f"player expectation {fraction_text(r.player_expectation, 24, '.6g')}"
            )
        wins = [f"P(net >= {x}) {fraction_text(p, 24, '.6g')}" for x, p, _ in self.wins[:3]]
        more = f" ({len(self.wins) - 3} more)" if len(self.wins) > 3 else ""
        return out + ("; " + ", ".join(wins) + more if wins else "") + ">"

    def to_frame(self):
        """P(net >= X) exact and by the normal approximation, one row per X (pandas)."""
        return data_frame([{"win_at_least": x, "probability": p, "normal_float": n} for x, p, n in self.wins])


def plan_trip(bet, hands: int, stake=1, budget: float | None = None) -> TripPlan:
    """The flat trip's plan (:func:`.sessions.trip_plan`): check it fits before any work."""
    return trip_plan(_events(bet), hands, stake) if budget is None else trip_plan(_events(bet), hands, stake, budget)


def tiers_of(rate=None, threshold=0, tiers=None) -> tuple[Tier, ...]:
    """The rebate's tiers: one rate at one threshold, or ``tiers`` ``[(threshold, rate), ...]``.

    >>> [(str(t.threshold), str(t.rate)) for t in tiers_of(tiers=[(100, Fraction(1, 10)), (0, Fraction(1, 20))])]
    [('0', '1/20'), ('100', '1/10')]
    """
    pairs = [(Fraction(threshold), Fraction(rate))] if tiers is None else [(Fraction(t), Fraction(r)) for t, r in tiers]
    for t, r in pairs:
        if not 0 <= r <= 1:
            raise ProgramError(f"a rebate rate must be from 0 to 100%, got {float(r) * 100:g}%")
        if t < 0:
            raise ProgramError(f"a rebate threshold must be 0 or more, got {t}")
    pairs.sort()
    if len({t for t, _ in pairs}) < len(pairs):
        raise ProgramError("two rebate tiers have the same threshold")
    return tuple(Tier(t, r) for t, r in pairs)


def program(
    bet,
    hands: int,
    stake=1,
    rebate: tuple[Tier, ...] | None = None,
    wins=(),
    plan: TripPlan | None = None,
    progress=None,
) -> Program:
    """The exact trip of ``hands`` flat hands of ``stake``: the rebate's value and P(net >= X).

    ``progress`` is the trip's (:func:`.sessions.flat_trip`).

    >>> even = [(Fraction(1, 2), 1), (Fraction(1, 2), -1)]
    >>> pr = program(even, 4, rebate=tiers_of(Fraction(1, 2)), wins=[2])
    >>> pr.rebate.value, pr.rebate.break_even_rate, pr.wins[0][:2]
    (Fraction(3, 8), Fraction(0, 1), (Fraction(2, 1), Fraction(5, 16)))
    """
    p = plan or plan_trip(bet, hands, stake)
    cuts = [] if rebate is None else [-t.threshold for t in rebate]
    trip = flat_trip(p, hands, stake, cuts=cuts, tails=list(wins), progress=progress)
    reb = None
    if rebate is not None:
        # E[L; L >= T] = -E[net; net <= -T] and the rate of the highest tier reached
        covered = [trip.loss_beyond(t.threshold) for t in rebate]
        value = Fraction(0)
        for i, t in enumerate(rebate):
            upper = covered[i + 1] if i + 1 < len(rebate) else Fraction(0)
            value += t.rate * (covered[i] - upper)
        reach = trip.loss_mass(rebate[0].threshold)
        reb = Rebate(rebate, value, -trip.mean, covered[0], reach)
    tails = tuple((Fraction(x), trip.at_least(x), trip.normal_at_least(x)) for x in wins)
    return Program(trip, reb, tails)


def normal_quantile_note(trip: FlatTrip) -> str:
    """The mean and standard deviation of the net, as text."""
    return f"mean {float(trip.mean):.4f}, sd {math.sqrt(trip.variance):.4f}"


# -- the best exits -------------------------------------------------------------------------------

#: Seconds per cell per operation of the exits' programme, and per 64-bit limb of its numbers
#: (numpy object arrays of Python integers, as :mod:`.bankroll`'s programme).
_CELL_SECONDS = 6.0e-8
_LIMB_SECONDS = 5.0e-9


@dataclass(frozen=True)
class Exits:
    """The best exits of a trip of at most ``hands`` hands under a loss rebate, exactly.

    The player may stop after any hand; at the end the rebate of :func:`tiers_of` is paid on
    the net loss.  ``value`` is the largest expected (net + rebate) of any stopping rule
    (optimal stopping, by dynamic programming over (hands played, net)), ``full`` that of
    playing every hand.  ``bands`` gives, for hands played ``t``, the nets (money) at which
    going on is strictly better than stopping: ``(t, lowest, highest, contiguous)``, or
    ``None`` for both where stopping is best everywhere; a player stops as soon as the net
    leaves the band (its ends are the stop-loss and the stop-win).
    """

    hands: int
    stake: Fraction
    tiers: tuple[Tier, ...]
    value: Fraction
    full: Fraction
    expected_hands: Fraction  # hands played under the best rule
    bands: tuple[tuple[int, Fraction | None, Fraction | None, bool], ...]
    seconds: float

    @property
    def stop_loss(self) -> Fraction | None:
        """Stop once the net is below this (the band's low end before the first hand's)."""
        return self.bands[0][1]

    @property
    def stop_win(self) -> Fraction | None:
        return self.bands[0][2]

    def __repr__(self) -> str:
        """Short: the best stopping rule's value against playing every hand (its bands: :meth:`to_frame`)."""
        return (
            f"<Exits of at most {self.hands} hands of {self.stake}: best value {fraction_text(self.value, 24, '.6g')} "
            f"(every hand {fraction_text(self.full, 24, '.6g')}), "
            f"{fraction_text(self.expected_hands, 24, '.6g')} hands expected>"
        )

    def to_frame(self):
        """The band of going on after each number of hands played (pandas)."""
        return data_frame(
            [{"hands_played": t, "go_on_from": lo, "go_on_to": hi, "contiguous": c} for t, lo, hi, c in self.bands]
        )


def exits_seconds(plan: TripPlan, hands: int) -> float:
    """The estimated seconds of :func:`best_exits` on a trip plan's ticks."""
    ticks = [int(plan.stake * y / plan.tick) for _, y in plan.weights]
    spread = max(ticks) - min(ticks)
    bits = max(plan.denominator.bit_length(), 1)
    ops = len(ticks) * 2 + 4
    return sum(
        (t * spread + 1) * ops * (_CELL_SECONDS + (1 + (hands - t) * bits // 64) * _LIMB_SECONDS)
        for t in range(hands + 1)
    )


def best_exits(bet, hands: int, stake=1, tiers: tuple[Tier, ...] | None = None, budget: float = 5.0) -> Exits:
    """The best stopping rule of a trip of at most ``hands`` hands under a loss rebate.

    Exact: with ``D`` the bet's denominator and ``Q`` a common denominator of the stop
    values, ``A_t(b) * D**(hands - t) * Q`` is the best expected value from net ``b`` after
    ``t`` hands, an integer; ``A_t = max(stop, sum_i w_i A_(t+1)(b + s_i))``.

    >>> even = [(Fraction(1, 2), 1), (Fraction(1, 2), -1)]
    >>> e = best_exits(even, 2, tiers=tiers_of(Fraction(1, 2)))
    >>> e.value, e.full, e.stop_loss, e.stop_win, e.expected_hands
    (Fraction(1, 4), Fraction(1, 4), Fraction(0, 1), Fraction(0, 1), Fraction(1, 1))
    """
    import numpy as np

    tiers = tiers if tiers is not None else tiers_of(Fraction(0))
    if not isinstance(hands, int) or isinstance(hands, bool) or hands < 1:  # type: ignore[redundant-expr]
        raise ProgramError(f"the hands of the exits must be a whole number of at least 1, got {hands!r}")
    plan = trip_plan(_events(bet), min(hands, 1), stake)
    seconds = exits_seconds(plan, hands)
    if seconds > budget:
        lo, hi = 1, hands
        while lo < hi:
            mid = (lo + hi + 1) // 2
            lo, hi = (mid, hi) if exits_seconds(plan, mid) <= budget else (lo, mid - 1)
        raise ProgramError(
            f"the best exits of {hands:,} hands are more exact work than the budget of {budget:g} s "
            f"(about {seconds:.0f} s); at most {lo:,} hands fit"
        )
    tick, D = plan.tick, plan.denominator
    steps = [(w, int(plan.stake * y / tick)) for w, y in plan.weights]
    worst, best = min(s for _, s in steps), max(s for _, s in steps)
    n = hands
    # stop values g(b) = b tick + rate(L) L, L = max(0, -b tick), as integers over Q
    Q = tick.denominator * math.lcm(*(t.rate.denominator for t in tiers))
    lo_b, hi_b = min(0, n * worst), max(0, n * best)
    size = hi_b - lo_b + 1

    def stop_value(b: int) -> int:
        money = b * tick
        loss = -money if money < 0 else Fraction(0)
        reached = [t for t in tiers if loss >= t.threshold and loss > 0]  # tiers are sorted by threshold
        rate = reached[-1].rate if reached else Fraction(0)
        v = (money + rate * loss) * Q
        assert v.denominator == 1
        return v.numerator

    # GMP's integers (analyzer.core.bigint): the numbers grow to n log2 D bits
    G = np.array([big(stop_value(lo_b + i)) for i in range(size)], dtype=object)
    A = G.copy()  # after n hands: stop
    B = G.copy()  # playing every hand
    H = np.full(size, big(0), dtype=object)  # expected hands still to play under the best rule, times D**(n-t)
    bands: list[tuple[int, Fraction | None, Fraction | None, bool]] = []
    scale = big(1)
    for t in range(n - 1, -1, -1):
        a, z = t * worst - lo_b, t * best - lo_b + 1  # nets reachable after t hands
        cont = np.zeros(z - a, dtype=object)
        full = np.zeros(z - a, dtype=object)
        hands_on = np.zeros(z - a, dtype=object)
        for w, s in steps:
            cont += A[a + s : z + s] * w
            full += B[a + s : z + s] * w
            hands_on += H[a + s : z + s] * w
        scale *= D  # D ** (n - t)
        stop = G[a:z] * scale
        go = cont > stop
        A[a:z] = np.where(go, cont, stop)
        B[a:z] = full
        H[a:z] = np.where(go, hands_on + scale, 0)
        on = np.nonzero(go)[0]
        if len(on):
            first, last = int(on[0]), int(on[-1])
            bands.append((t, (lo_b + a + first) * tick, (lo_b + a + last) * tick, len(on) == last - first + 1))
        else:
            bands.append((t, None, None, True))
        # outside the reachable nets the arrays keep values no one reads
    total = D**n * Q
    zero = -lo_b
    return Exits(
        n,
        plan.stake,
        tiers,
        fraction(A[zero], total),
        fraction(B[zero], total),
        fraction(H[zero], D**n),
        tuple(reversed(bands)),
        seconds,
    )
