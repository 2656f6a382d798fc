"""Pay-table design: the pay tables of a bet's events that meet a house edge band, exactly.

A bet's events are priced once (:func:`analyzer.bets.pricing.analyze`: each
event's ``ways`` out of ``deals`` ordered six-card deals; the events are
disjoint, the first that holds decides the payout).  What they pay does not
change the counts, so with every free event paying ``k_e * step`` to 1 the EV is
linear in the integers ``k_e``::

    EV * deals = step * S + C,     S = sum_e k_e * ways_e

(``C``: the events whose pays are fixed, the losing ``otherwise`` event among
them).  A house edge band ``lo <= -EV <= hi`` is then an integer band
``s_min <= S <= s_max``, and a hit frequency band (the ways of the events that pay
more than 0, over ``deals``) an integer band on the ways of the events with
``k_e > 0``.  :func:`search` walks the free events commonest first, each pay
bounded by what the rest can still add (the linear bounds), counts every
integer pay vector in the bands (the last event's feasible pays are an
interval, counted at once) and keeps the ``limit`` tables closest to the band's
centre.  Every table listed is then priced again as a :class:`~analyzer.bets.catalog.Bet`
through :func:`~analyzer.bets.pricing.analyze` (the path of ``baccarat odds``) and its
figures checked against the bands, exactly.

Figures of a table, over ``deals``: the house edge, the hit frequency, the
variance (exact) of the net win of one unit, its standard deviation and the
**volatility index** ``z * sd`` at 90% and 95% (the par sheet's convention,
:mod:`analyzer.reports.parsheet`: ``z`` the two-sided normal quantile), the top
award (the largest pay) and its frequency (the ways of the events paying it).

With the three smallest pays of Lucky Nines fixed as Red Rock prints them, 42 tables of
pays at most 1000 to 1, non-decreasing with rarity, have exactly Red Rock's house edge;
Red Rock's own table (the catalog's ``lucky_nines``, from the Wizard of Odds) is one:

>>> from analyzer.core.shoe import Shoe
>>> from analyzer.bets.catalog import catalog
>>> red_rock = catalog().bet("lucky_nines")
>>> edge = analyze(Shoe.standard(8), [red_rock]).bet("lucky_nines").house_edge
>>> d = design(Shoe.standard(8), red_rock, edge=(edge, edge), max_pay=1000, limit=50,
...            fixed={"2 nines, mixed suits": 5, "1 nine of diamonds": 2, "1 nine": 1})
>>> d.count, d.complete, len(d.tables)
(42, True, 42)
>>> published = {e.event: e.pays for e in red_rock.events} | {"loses": -1}
>>> [t.house_edge == edge for t in d.tables].count(True), published in [t.pays for t in d.tables]
(42, True)
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..bets.catalog import Bet, SeriesBet
from ..bets.pricing import analyze
from ..core.errors import BaccaratError
from ..core.results import BetResult

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..core.shoe import Shoe

#: Most tables a search lists (``limit``).
MAX_LIMIT = 1000
#: Nodes of the search by default and at most (each a partial pay table; 2-6 µs apiece).
DEFAULT_BUDGET = 1_000_000
MAX_BUDGET = 50_000_000
#: Most pay steps of one event (``max_pay / step``).
MAX_STEPS = 1_000_000
#: Most free events.
MAX_EVENTS = 40


class DesignError(BaccaratError):
    """Constraints no pay table can meet, or a bad constraint: one line."""


# --- the integer search ----------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """What :func:`search` found: ``count`` integer pay vectors in the bands (all of them when
    ``complete``, else at least that many: the node budget ran out), and the ``best`` ones,
    ``(distance, k)`` sorted by distance to the target then by ``k``; ``distance`` is
    ``|S * den - num|`` for the target ``num / den``."""

    count: int
    complete: bool
    nodes: int
    best: tuple[tuple[int, tuple[int, ...]], ...]


def search(
    weights: Sequence[int],
    k_min: Sequence[int],
    k_max: Sequence[int],
    s_min: int,
    s_max: int,
    target: tuple[int, int],
    limit: int = 20,
    budget: int = DEFAULT_BUDGET,
    hits: tuple[int, int] | None = None,
    monotone: bool = True,
    counting: bool = True,
) -> Found:
    """The integer vectors ``k`` with ``k_min[i] <= k[i] <= k_max[i]`` and
    ``s_min <= S = sum(k[i] * weights[i]) <= s_max``, counted exactly, and the ``limit`` of them
    whose ``S`` is closest to ``target = (num, den)`` (i.e. ``num / den``).

    ``weights``: positive integers, in non-increasing order (commonest event first).
    ``monotone``: ``k[i] <= k[j]`` whenever ``weights[i] > weights[j]`` (a rarer event pays at
    least as much). ``hits``: ``(lo, hi)``, the sum of ``weights[i]`` over ``k[i] > 0`` must be
    within it. ``budget``: the most nodes (partial vectors) visited; past it the search stops
    (``complete`` False, ``count`` a lower bound).  ``counting`` False: only the ``limit``
    closest are wanted, and a branch that cannot come closer than those kept is cut (``count``
    then counts the vectors met, not all).

    >>> f = search([3, 2, 1], [0, 0, 0], [2, 2, 2], 5, 6, (11, 2), limit=2)
    >>> f.count, f.complete, f.best
    (2, True, ((1, (0, 2, 2)), (1, (1, 1, 1))))
    >>> search([3, 2, 1], [0, 0, 0], [2, 2, 2], 5, 6, (11, 2), monotone=False).count
    6
    """
    n = len(weights)
    if (
        not (n == len(k_min) == len(k_max))
        or any(w <= 0 for w in weights)
        or any(weights[i] < weights[i + 1] for i in range(n - 1))
    ):
        raise ValueError("search: weights must be positive, non-increasing, one bound pair each")
    num, den = target
    if n == 0:
        ok = s_min <= 0 <= s_max and (hits is None or hits[0] <= 0 <= hits[1])
        return Found(int(ok), True, 0, ((abs(num), ()),) if ok and limit else ())
    # suffix sums: the most and least the events from i on can add, their ways, the ways that must
    # hit (k_min > 0) and that may (k_max > 0); the ways of the later groups (strictly rarer)
    mx, mn, w_all, w_must, w_may = ([0] * (n + 1) for _ in range(5))
    for i in range(n - 1, -1, -1):
        mx[i] = mx[i + 1] + k_max[i] * weights[i]
        mn[i] = mn[i + 1] + k_min[i] * weights[i]
        w_all[i] = w_all[i + 1] + weights[i]
        w_must[i] = w_must[i + 1] + (weights[i] if k_min[i] > 0 else 0)
        w_may[i] = w_may[i + 1] + (weights[i] if k_max[i] > 0 else 0)
    group_end = [0] * n  # first index of a strictly rarer event
    for i in range(n - 1, -1, -1):
        group_end[i] = n if i == n - 1 else (group_end[i + 1] if weights[i + 1] == weights[i] else i + 1)
    h_lo, h_hi = hits if hits is not None else (0, 0)

    heap: list[tuple[int, tuple[int, ...]]] = []  # (-distance, negated k): the worst kept on top
    k = [0] * n
    state = {"count": 0, "nodes": 0, "stopped": False}

    def offer(dist: int, vec: tuple[int, ...]) -> bool:
        """Keep ``vec`` if it is among the ``limit`` closest; False when it is not (nor any farther)."""
        if limit == 0:
            return False
        key = (-dist, tuple(-x for x in vec))
        if len(heap) < limit:
            heapq.heappush(heap, key)
            return True
        if key > heap[0]:
            heapq.heapreplace(heap, key)
            return True
        return False

    def bounds(i: int, s: int, floor_k: int) -> tuple[int, int]:
        """The pays of event ``i`` that leave the band reachable by the events after it."""
        w = weights[i]
        lo = max(k_min[i], floor_k if monotone else k_min[i])
        hi = k_max[i]
        # S + x w + mx[i+1] >= s_min
        need = s_min - s - mx[i + 1]
        if need > 0:
            lo = max(lo, -(-need // w))
        # S + x w + rest_min(x) <= s_max, rest_min(x) >= mn[i+1] and (monotone) >= x * later +
        # floor_k * (same group after i)
        room = s_max - s
        hi = min(hi, (room - mn[i + 1]) // w)
        if monotone:
            later = w_all[group_end[i]]
            same = w_all[i + 1] - later
            hi = min(hi, (room - floor_k * same) // (w + later))
        return lo, hi

    def visit(i: int, s: int, h: int, floor_k: int, group_max: int) -> None:
        # floor_k: the largest pay of the strictly commoner events (monotone: event i pays at least it)
        if state["stopped"]:
            return
        state["nodes"] += 1
        if state["nodes"] > budget:
            state["stopped"] = True
            return
        w = weights[i]
        lo, hi = bounds(i, s, floor_k)
        if lo > hi:
            return
        if not counting and limit and len(heap) == limit:
            a, b = (s + lo * w + mn[i + 1]) * den, (s + hi * w + mx[i + 1]) * den
            if max(a - num, num - b, 0) > -heap[0][0]:
                return  # nothing below comes closer than the tables kept
        last = i == n - 1
        if last:
            _leaf(i, s, h, lo, hi)
            return
        nxt_group = group_end[i] == i + 1
        if hits is not None:  # whether the event may push (pay 0), and may pay: the hit band's say
            zero_ok = h + w_may[i + 1] >= h_lo and h + w_must[i + 1] <= h_hi
            rest_min = max(w_must[i + 1], w_all[group_end[i]]) if monotone else w_must[i + 1]
            pay_ok = h + w + w_may[i + 1] >= h_lo and h + w + rest_min <= h_hi
            if not pay_ok:
                hi = min(hi, 0)
            if not zero_ok:
                lo = max(lo, 1)
            if lo > hi:
                return
        # the pays from the one aiming at the target (the rest at mid-range) outward
        aim = (num - den * (s + (mx[i + 1] + mn[i + 1]) // 2)) // (den * w)
        start = min(max(aim, lo), hi)
        for x in _outward(start, lo, hi):
            if state["stopped"]:
                return
            h2 = h + (w if x > 0 else 0)
            k[i] = x
            gm = max(group_max, x)
            if nxt_group:  # the next event is strictly rarer: it pays at least this group's most
                visit(i + 1, s + x * w, h2, max(floor_k, gm), 0)
            else:
                visit(i + 1, s + x * w, h2, floor_k, gm)

    def _leaf(i: int, s: int, h: int, lo: int, hi: int) -> None:
        w = weights[i]
        ranges = []
        if hits is None:
            ranges.append((lo, hi))
        else:
            if lo <= 0 <= hi and h_lo <= h <= h_hi:
                ranges.append((0, 0))
            if h_lo <= h + w <= h_hi and max(lo, 1) <= hi:
                ranges.append((max(lo, 1), hi))
        # the distance to the target falls up to the real-valued best pay, then rises: from its
        # floor down, and from the next pay up, each side's tables are offered until one is not kept
        best_floor = (num - den * s) // (den * w)
        for a, b in ranges:
            state["count"] += b - a + 1
            for side in (range(min(best_floor, b), a - 1, -1), range(max(best_floor + 1, a), b + 1)):
                for x in side:
                    dist = abs((s + x * w) * den - num)
                    if limit == 0 or (len(heap) == limit and dist > -heap[0][0]):
                        break  # farther than every table kept: so is the rest
                    k[i] = x
                    if not offer(dist, tuple(k)):
                        break

    visit(0, 0, 0, 0, 0)
    best = sorted(((-d, tuple(-x for x in v)) for d, v in heap))
    return Found(state["count"], not state["stopped"], min(state["nodes"], budget), tuple(best))


def _outward(start: int, lo: int, hi: int):
    """``start``, then alternately above and below it, within ``lo .. hi``.

    >>> list(_outward(3, 1, 5)), list(_outward(1, 1, 3))
    ([3, 4, 2, 5, 1], [1, 2, 3])
    """
    yield start
    up, down = start + 1, start - 1
    while up <= hi or down >= lo:
        if up <= hi:
            yield up
            up += 1
        if down >= lo:
            yield down
            down -= 1


# --- pay tables ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayTable:
    """One pay table found, priced again through :func:`~analyzer.bets.pricing.analyze`: its
    pays by event name (the ``otherwise`` event last), and its exact figures over ``deals``."""

    pays: dict[str, Fraction]
    result: BetResult

    @property
    def house_edge(self) -> Fraction:
        return self.result.house_edge

    @property
    def hit_frequency(self) -> Fraction:
        return self.result.hit_frequency

    @property
    def variance(self) -> Fraction:
        return self.result.variance

    @property
    def std_dev(self) -> float:
        return self.result.std_dev

    @property
    def volatility_index(self) -> dict[int, float]:
        """``z * sd`` at 90% and 95% (:data:`analyzer.reports.parsheet.VI_LEVELS`)."""
        from .parsheet import VI_LEVELS, z_value  # here: `baccarat` reads this module's budgets at start-up

        return {c: z_value(c) * self.std_dev for c in VI_LEVELS}

    @property
    def top_award(self) -> Fraction:
        return max(self.pays.values())

    @property
    def top_award_frequency(self) -> Fraction:
        """The probability of the events paying :attr:`top_award`."""
        top = self.top_award
        return Fraction(sum(e.ways for e in self.result.events if e.pays == top), self.result.deals)


@dataclass(frozen=True)
class Design:
    """The tables of one edge band: ``count`` tables meet the constraints (exactly that many when
    ``complete``, else at least), the ``tables`` listed are the closest to the band's centre."""

    bet: Bet | SeriesBet
    edge: tuple[Fraction, Fraction]
    hit: tuple[Fraction, Fraction] | None
    count: int
    complete: bool
    nodes: int
    tables: tuple[PayTable, ...]
    free: tuple[str, ...]
    fixed: dict[str, Fraction]
    #: the ordered six-card deals the ways are counted over (a series bet: the ``t**cap``
    #: equally weighted cases of :func:`analyzer.bets.series.length_weights`)
    deals: int
    #: why nothing fits (the constraint that binds), when ``count`` is 0
    reason: str = ""

    @property
    def centre(self) -> Fraction:
        return (self.edge[0] + self.edge[1]) / 2


def _pct(x: Fraction, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


def _fraction(value, what: str) -> Fraction:
    try:
        return value if isinstance(value, Fraction) else Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError):
        raise DesignError(f"{what} must be a number, got {value!r}") from None


def event_names(bet: Bet | SeriesBet) -> list[str]:
    """The events of ``bet`` a design may set, in pay-table order (a series bet: its paid run
    lengths, longest first, as :meth:`~analyzer.bets.catalog.SeriesBet.event_name` prints them)."""
    if isinstance(bet, SeriesBet):
        return [bet.event_name(k) for k, _ in bet.pays]
    return [e.event for e in bet.events]


def price(shoe: Shoe, bet: Bet | SeriesBet, rules: Rules | None = None) -> BetResult:
    """``bet`` priced on ``shoe``: a coup bet through :func:`~analyzer.bets.pricing.analyze` (the
    path of ``baccarat odds``), a series bet through :func:`analyzer.bets.series.price_series`
    (each run length's exact probability, independent coups off the top of ``shoe``)."""
    if isinstance(bet, SeriesBet):
        from ..bets.series import price_series

        return price_series(shoe, [bet], rules)[0].result
    return analyze(shoe, (bet,), rules=rules).bet(bet.id)


def design(
    shoe: Shoe,
    bet: Bet | SeriesBet,
    edge: tuple,
    *,
    hit: tuple | None = None,
    max_pay=100,
    min_pay=1,
    step=1,
    fixed: Mapping[str, object] | None = None,
    monotone: bool = True,
    limit: int = 20,
    budget: int = DEFAULT_BUDGET,
    rules: Rules | None = None,
    result: BetResult | None = None,
) -> Design:
    """The pay tables of ``bet``'s events on ``shoe`` with a house edge in ``edge = (lo, hi)``
    (fractions: ``Fraction(2, 100)`` is 2%), closest to the band's centre first.

    Each free event pays a multiple of ``step`` (1: whole pays; ``1/2``: half units) from
    ``min_pay`` to ``max_pay`` to 1; ``fixed`` pins events' pays by name; events that pay 0
    or less in ``bet`` (pushes) keep their pays, and so does the ``otherwise`` event.
    ``monotone``: an event with fewer ways pays at least as much as one with more (fixed
    events with positive pays included). ``hit``: a band on the hit frequency (the
    probability of a pay above 0). ``limit`` tables are listed (at most :data:`MAX_LIMIT`),
    ``budget`` nodes searched. ``result``: ``bet`` already priced on ``shoe`` (else priced here).

    A series bet (:class:`~analyzer.bets.catalog.SeriesBet`, Banker Streak) is designed the same
    way: its events are the paid run lengths, each with its exact probability off the top of
    ``shoe`` (:mod:`analyzer.bets.series`), and the lengths it does not list keep ``otherwise``.

    Raises :class:`DesignError` (one line) for a bad constraint or a band the pays cannot
    reach, naming the constraint that binds.
    """
    lo, hi = (_fraction(x, "the house edge") for x in edge)
    if lo > hi:
        raise DesignError(f"the house edge band {_pct(lo)}..{_pct(hi)} is empty (low above high)")
    hit_band = None if hit is None else (_fraction(hit[0], "the hit frequency"), _fraction(hit[1], "the hit frequency"))
    if hit_band is not None and not (0 <= hit_band[0] <= hit_band[1] <= 1):
        raise DesignError("the hit frequency band must be within 0..1, low before high")
    step_f, top, bottom = (
        _fraction(step, "the pay step"),
        _fraction(max_pay, "--max-pay"),
        _fraction(min_pay, "--min-pay"),
    )
    if step_f <= 0:
        raise DesignError(f"the pay step must be positive, got {step_f}")
    if bottom < 0 or top < bottom:
        raise DesignError(f"pays must run from a minimum of at least 0 up to the maximum, got {bottom}..{top}")
    k_top, k_bottom = math.floor(top / step_f), math.ceil(bottom / step_f)
    if k_top > MAX_STEPS:
        raise DesignError(f"--max-pay {top} in steps of {step_f} is {k_top:,} pays per event: at most {MAX_STEPS:,}")
    if k_top < k_bottom:
        raise DesignError(f"no multiple of {step_f} lies between the minimum pay {bottom} and the maximum {top}")
    if not 0 <= limit <= MAX_LIMIT:
        raise DesignError(f"the number of tables listed must be 0..{MAX_LIMIT}, got {limit}")
    if not 1 <= budget <= MAX_BUDGET:
        raise DesignError(f"the search budget must be 1..{MAX_BUDGET:,} nodes, got {budget:,}")
    names = event_names(bet)
    pinned = {}
    for name, value in (fixed or {}).items():
        if name not in names:
            raise DesignError(
                f"bet {bet.id!r} has no event {name!r} to fix (events: {', '.join(repr(n) for n in names)})"
            )
        pay = _fraction(value, f"the pay of {name!r}")
        if pay < -1:
            raise DesignError(f"the pay of {name!r} would lose more than the stake: {pay}")
        pinned[name] = pay
    if result is None:
        result = price(shoe, bet, rules)
    deals = result.deals
    evs = result.events[:-1]
    other = result.events[-1]
    for e in evs:  # pushes keep their pays; so does an event that never happens
        if e.event not in pinned and (e.pays <= 0 or e.ways == 0):
            pinned[e.event] = e.pays
    if monotone:  # the pays pinned must themselves rise with rarity
        paying = [e for e in evs if (fixed or {}).get(e.event) is not None and pinned[e.event] > 0]
        for common in paying:
            for rare in paying:
                if common.ways > rare.ways and pinned[common.event] > pinned[rare.event]:
                    raise DesignError(
                        f"the fixed pays fall with rarity: {common.event!r} pays {pinned[common.event]} "
                        f"but the rarer {rare.event!r} pays {pinned[rare.event]} (give --any-order to "
                        "allow it)"
                    )
    free = [e for e in evs if e.event not in pinned]
    if not free:
        raise DesignError(f"bet {bet.id!r} has no event left to design: every one is fixed or a push")
    if len(free) > MAX_EVENTS:
        raise DesignError(f"bet {bet.id!r} has {len(free)} free events: at most {MAX_EVENTS}")
    order = sorted(free, key=lambda e: -e.ways)  # commonest first; stable for equal ways
    # the bounds of each free event: the pay range, and (monotone) the fixed positive pays of
    # commoner events below it and of rarer events above it
    k_min, k_max = [], []
    for e in order:
        a, b = k_bottom, k_top
        if monotone:
            for f in evs:
                p = pinned.get(f.event)
                if p is None or p <= 0:
                    continue
                if f.ways > e.ways:
                    a = max(a, math.ceil(p / step_f))
                elif f.ways < e.ways:
                    b = min(b, math.floor(p / step_f))
        k_min.append(a)
        k_max.append(b)
    c = sum((pinned[e.event] * e.ways for e in evs if e.event in pinned), Fraction(0)) + other.pays * other.ways
    # -hi <= (step S + c) / deals <= -lo
    s_min = math.ceil((-hi * deals - c) / step_f)
    s_max = math.floor((-lo * deals - c) / step_f)
    centre = (-(lo + hi) / 2 * deals - c) / step_f
    hits = None
    fixed_hits = sum(e.ways for e in evs if e.event in pinned and pinned[e.event] > 0) + (
        other.ways if other.pays > 0 else 0
    )
    if hit_band is not None:
        hits = (math.ceil(hit_band[0] * deals) - fixed_hits, math.floor(hit_band[1] * deals) - fixed_hits)
    weights = [e.ways for e in order]
    reason = _binding(
        weights, k_min, k_max, s_min, s_max, hits, step_f, c, deals, (lo, hi), hit_band, fixed_hits, top, bottom
    )
    if reason:
        raise DesignError(reason)
    found = search(
        weights, k_min, k_max, s_min, s_max, (centre.numerator, centre.denominator), limit, budget, hits, monotone
    )
    tables = tuple(_priced(shoe, bet, rules, order, ks, step_f, pinned, (lo, hi), hit_band) for _, ks in found.best)
    why = ""
    if found.count == 0:
        why = (
            f"no table of pays in steps of {step_f} has a house edge in {_pct(lo)}..{_pct(hi)}"
            + ("" if hit_band is None else f" and a hit frequency in {_pct(hit_band[0])}..{_pct(hit_band[1])}")
            + (
                " (the pays' steps miss the band: widen it, or use a smaller step"
                if found.complete
                else f" among the {found.nodes:,} partial tables searched (raise the budget"
            )
        )
        why += (
            _nearest(
                weights,
                k_min,
                k_max,
                s_min,
                s_max,
                hits,
                monotone,
                min(budget, NEAREST_BUDGET),
                lambda s_: -(step_f * s_ + c) / deals,
            )
            + ")"
        )
    return Design(
        bet,
        (lo, hi),
        hit_band,
        found.count,
        found.complete,
        found.nodes,
        tables,
        tuple(e.event for e in order),
        dict(pinned),
        deals,
        why,
    )


#: Nodes of each search for the nearest tables when none fits.
NEAREST_BUDGET = 200_000


def _nearest(weights, k_min, k_max, s_min, s_max, hits, monotone, budget, edge_of) -> str:
    """'; the nearest tables: edge X (below the band) and Y (above)', from a search on each side
    of the band for the one table closest to it ('' when neither side has one)."""
    s_lo = sum(a * w for a, w in zip(k_min, weights))
    s_hi = sum(b * w for b, w in zip(k_max, weights))
    found = []
    for a, b, target in ((s_max + 1, s_hi, s_max + 1), (s_lo, s_min - 1, s_min - 1)):
        if a > b:
            continue
        f = search(weights, k_min, k_max, a, b, (target, 1), 1, budget, hits, monotone, counting=False)
        if f.best:
            s_ = sum(k * w for k, w in zip(f.best[0][1], weights))
            found.append((edge_of(s_), f.complete))
    if not found:
        return ""
    words = " and ".join(_pct(e, 6) for e, _ in found)
    exact = all(done for _, done in found)
    return f"; the nearest tables{'' if exact else ' found'} have edges {words}"


def _binding(weights, k_min, k_max, s_min, s_max, hits, step, c, deals, edge, hit_band, fixed_hits, top, bottom) -> str:
    """Why no table can fit, from the linear bounds alone ('' when the bands may be met)."""
    for a, b in zip(k_min, k_max):
        if a > b:
            return (
                "the fixed pays leave no room: an event must pay between "
                f"{a * step} and {b * step} (pays non-decreasing with rarity)"
            )
    s_lo = sum(a * w for a, w in zip(k_min, weights))
    s_hi = sum(b * w for b, w in zip(k_max, weights))
    edge_low = -(step * s_hi + c) / deals  # every event at its most
    edge_high = -(step * s_lo + c) / deals
    lo, hi = edge
    if s_hi < s_min:
        return (
            f"no table reaches a house edge in {_pct(lo)}..{_pct(hi)}: with pays at most {top} "
            f"the lowest edge is {_pct(edge_low)}"
        )
    if s_lo > s_max:
        return (
            f"no table reaches a house edge in {_pct(lo)}..{_pct(hi)}: with pays at least {bottom} "
            f"the highest edge is {_pct(edge_high)}"
        )
    if hits is not None:
        may = sum(w for w, b in zip(weights, k_max) if b > 0)
        must = sum(w for w, a in zip(weights, k_min) if a > 0)
        if hits[0] > hits[1] or may < hits[0] or must > hits[1]:
            h_low, h_high = Fraction(fixed_hits + must, deals), Fraction(fixed_hits + may, deals)
            return (
                f"no table has a hit frequency in {_pct(hit_band[0])}..{_pct(hit_band[1])}: "
                f"its events hit {_pct(h_low)}..{_pct(h_high)} of coups"
            )
    return ""


def table_bet(bet: Bet | SeriesBet, pays: Mapping[str, Fraction]) -> Bet | SeriesBet:
    """``bet`` with its events paying ``pays`` (by event name; others unchanged)."""
    if isinstance(bet, SeriesBet):
        return dataclasses.replace(bet, pays=tuple((k, Fraction(pays.get(bet.event_name(k), p))) for k, p in bet.pays))
    return dataclasses.replace(
        bet, events=tuple(dataclasses.replace(e, pays=Fraction(pays.get(e.event, e.pays))) for e in bet.events)
    )


def _priced(shoe, bet, rules, order, ks, step, pinned, edge, hit_band) -> PayTable:
    """The table of pays ``ks`` (the free events in ``order``) priced again (:func:`price`),
    its bands checked exactly."""
    chosen = {e.event: k * step for e, k in zip(order, ks)}
    current = dict(zip(event_names(bet), _pays_of(bet)))
    pays = {n: chosen.get(n, pinned.get(n, p)) for n, p in current.items()}
    r = price(shoe, table_bet(bet, pays), rules)
    if not edge[0] <= r.house_edge <= edge[1] or (hit_band and not hit_band[0] <= r.hit_frequency <= hit_band[1]):
        raise AssertionError(f"design: table {pays} re-priced outside its bands")  # pragma: no cover
    return PayTable({**pays, bet.otherwise_event: bet.otherwise}, r)


def _pays_of(bet: Bet | SeriesBet) -> list[Fraction]:
    """What each event of :func:`event_names` pays in ``bet``."""
    if isinstance(bet, SeriesBet):
        return [p for _, p in bet.pays]
    return [e.pays for e in bet.events]


def menu(shoe: Shoe, bet: Bet | SeriesBet, targets: Sequence, tolerance=Fraction(1, 1000), **options) -> list[Design]:
    """:func:`design` for each target edge, the band ``target +- tolerance`` (0.1 points by
    default); the bet is priced once."""
    tol = _fraction(tolerance, "the tolerance")
    if tol < 0:
        raise DesignError(f"the tolerance must be at least 0, got {tol}")
    if options.get("result") is None:
        options["result"] = price(shoe, bet, options.get("rules"))
    out = []
    for t in targets:
        t = _fraction(t, "a target edge")
        out.append(design(shoe, bet, (t - tol, t + tol), **options))
    return out
