"""Exact bankroll questions for one bet: ruin, doubling first, coups played, the final bankroll.

A session starts with a bankroll ``B`` and plays at most N coups of one bet with a
betting system (:mod:`.bankroll_systems`).  Every coup is an independent deal from
the full declared shoe (off the top: the outcomes of coups are independent and
identically distributed with the bet's exact payout distribution).  Conventions:

* before each coup the system asks for a stake (capped by the table limit); the
  bet is placed only if the bankroll covers it.  Otherwise the session ends in
  **ruin**, keeping what is left (less than the stake).  Ruin is also declared
  after coup N when the bankroll no longer covers the next stake, so "ruin within
  N coups" counts every session that cannot go on; for flat one-unit bets this is
  the gambler's ruin of the textbooks;
* the coup pays ``stake * pays`` (``pays`` to 1; ``-1`` loses the stake, ``0`` is a push);
* **doubling first**: the bankroll reaches ``2 B`` or more (after some coup) before
  the session is ruined, within the N coups; the session does not stop there;
* **coups played**: the number of bets placed (N, or fewer after a ruin).

The computation is a dynamic programme over the states (bankroll, system state,
doubled yet), not a simulation.  Bankrolls are integers of one *tick* (the
greatest common divisor of the start, the unit, the limit and every stake times
every payout), so a fractional payout such as Banker's 19/20 keeps every
bankroll exact.  Probabilities are integers over ``D**t`` (``D`` the reduced
common denominator of the bet's events), so every result is an exact
``Fraction``.  The work is estimated before it starts (:func:`estimate`);
beyond :data:`WORK_BUDGET` it is refused with the largest N that fits.

>>> r = bankroll_session([(Fraction(1, 2), Fraction(1)), (Fraction(1, 2), Fraction(-1))],
...                      bankroll=1, unit=1, coups=2)
>>> r.ruin_probability, r.double_first_probability, r.expected_coups
(Fraction(1, 2), Fraction(1, 2), Fraction(3, 2))
>>> [(str(b), str(p)) for b, p in r.distribution()]
[('0', '1/2'), ('1', '1/4'), ('3', '1/4')]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..core.bigint import big, fraction
from ..core.frames import data_frame, fraction_text, short_float
from .bankroll_systems import SYSTEMS, BankrollError, System, make_system
from .sessions import FlatTrip, SessionError, flat_trip

#: The work refused beyond: about this many seconds on a laptop (see :func:`estimate`).
WORK_BUDGET = 5.0
#: Memory refused beyond, in bytes.
MEMORY_BUDGET = 1 << 30
#: Seconds per cell of the state array per event, and per extra 64-bit limb of its numbers
#: (measured on numpy object arrays of Python integers; see ``tests/test_bankroll.py``).
_CELL_SECONDS = 5.0e-8
_LIMB_SECONDS = 4.5e-9
_CALL_SECONDS = 2.0e-6
#: Most steps a progression is built with.  Step k is live only on bankrolls of k + 1 ticks or
#: more, so k rows of at least k ticks each pass the memory budget long before this binds.
STEP_CAP = 8192
QUANTILES = tuple(Fraction(n, 100) for n in (1, 5, 10, 25, 50, 75, 90, 95, 99))


def _fgcd(values) -> Fraction:
    g = Fraction(0)
    for v in values:
        v = Fraction(v)
        if v:
            den = g.denominator * v.denominator // math.gcd(g.denominator, v.denominator)
            g = Fraction(math.gcd(g.numerator * (den // g.denominator), v.numerator * (den // v.denominator)), den)
    return g


def _positive(name: str, value) -> Fraction:
    try:
        v = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise BankrollError(f"the {name} must be a positive number, got {value!r}") from None
    if v <= 0:
        raise BankrollError(f"the {name} must be positive, got {v}")
    return v


@dataclass(frozen=True)
class Plan:
    """What a session needs before any work: exact weights, ticks, the system, the cost."""

    unit: Fraction
    limit: Fraction | None
    weights: tuple[tuple[int, Fraction], ...]  # (numerator over D, pays to 1), equal pays merged
    denominator: int  # D
    tick: Fraction
    system: System
    start: int  # the bankroll in ticks
    stakes: tuple[int, ...]  # each state's stake in ticks
    moves: tuple  # see _moves
    coups: int
    span: tuple[int, int]  # lowest and highest bankroll reachable, in ticks
    rows: int  # system states ever holding a live bankroll, + 1
    seconds: float  # estimated work
    memory: int  # estimated peak bytes
    fits: int  # the largest number of coups within the budgets


def _weights(events) -> tuple[tuple[tuple[int, Fraction], ...], int]:
    merged: dict[Fraction, Fraction] = {}
    for p, pays in events:
        p, pays = Fraction(p), Fraction(pays)
        if p < 0 or pays < -1:
            raise BankrollError(f"an event of probability {p} paying {pays} cannot be bet")
        if p:
            merged[pays] = merged.get(pays, Fraction(0)) + p
    if sum(merged.values()) != 1:
        raise BankrollError(f"the event probabilities sum to {sum(merged.values())}, not 1")
    den = math.lcm(*(p.denominator for p in merged.values()))
    return tuple((int(p * den), pays) for pays, p in sorted(merged.items())), den


def plan(events, bankroll, unit, coups: int, system: str = "flat", limit=None) -> Plan:
    """Check the question and estimate its work; :func:`bankroll_session` refuses what does not fit."""
    if system not in SYSTEMS:
        raise BankrollError(f"unknown system {system!r} (choose from {', '.join(SYSTEMS)})")
    start, unit = _positive("bankroll", bankroll), _positive("unit", unit)
    limit = None if limit is None else _positive("table limit", limit)
    if limit is not None and limit < unit:
        raise BankrollError(f"the table limit {limit} is below the unit {unit}")
    if start < unit:
        raise BankrollError(f"the bankroll {start} does not cover one unit ({unit})")
    if not isinstance(coups, int) or coups < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise BankrollError(f"the number of coups must be a whole number of at least 1, got {coups!r}")
    weights, den = _weights(events)
    sysm = make_system(system, unit, limit, min(coups + 1, STEP_CAP))
    pays = [p for _, p in weights]
    tick = _fgcd([start, unit] + ([limit] if limit else []) + [s * p for s in (unit, limit) if s for p in pays])
    stakes = tuple(int(s / tick) for s in sysm.stakes)
    moves = _moves(sysm, stakes, weights)
    bits = max(den.bit_length(), 1)
    seconds, memory, span, rows, fits = _cost(int(start / tick), stakes, moves, coups, bits)
    return Plan(
        unit,
        limit,
        weights,
        den,
        tick,
        sysm,
        int(start / tick),
        stakes,
        moves,
        coups,
        span,
        rows,
        seconds,
        memory,
        fits,
    )


def _moves(sysm: System, stakes, weights):
    """Per state: (next state, change of bankroll in ticks, weight) of every event."""
    return tuple(
        tuple((sysm.next(s, (w > 0) - (w < 0)), int(stakes[s] * w), m) for m, w in weights) for s in range(len(stakes))
    )


def _advance(windows: dict, stakes, moves) -> dict:
    """The windows ``[lo, hi)`` of bankrolls each state may hold after one more coup.

    ``windows`` maps a state to ``(lo, hi)``; a state's live part starts at its stake
    (below it the session is ruined).  Shared by the estimate and the programme, so the
    estimate counts exactly the cells the programme visits.
    """
    new: dict[int, tuple[int, int]] = {}
    for s, (lo, hi) in sorted(windows.items()):
        a = max(lo, stakes[s])
        if a >= hi:
            continue
        for dest, delta, _ in moves[s]:
            old = new.get(dest)
            new[dest] = (a + delta, hi + delta) if old is None else (min(old[0], a + delta), max(old[1], hi + delta))
    return new


def _cost(start, stakes, moves, coups, bits):
    """Walk the windows of the programme: (seconds, bytes, (lowest, highest) bankroll, rows,
    largest N within budget)."""
    windows = {0: (start, start + 1)}
    events = len(moves[0])
    seconds, memory, top, bottom, rows = 0.0, 0, start, start, 1
    for t in range(coups + 1):
        cells = 2 * sum(hi - lo for lo, hi in windows.values())
        calls = len(windows)
        limbs = 1 + t * bits // 64
        step = cells * (events + 3) * (_CELL_SECONDS + limbs * _LIMB_SECONDS) + calls * (events + 3) * _CALL_SECONDS
        rows = max([rows] + [s + 1 for s in windows])
        mem = cells * (8 * limbs + 32) * 2 + rows * 2 * (top - bottom + 1) * 16
        if seconds + step > WORK_BUDGET or mem > MEMORY_BUDGET or rows == STEP_CAP:
            return seconds + step, max(memory, mem), (bottom, top), rows, max(t - 1, 0)
        seconds, memory = seconds + step, max(memory, mem)
        if t < coups:
            windows = _advance(windows, stakes, moves)
            top = max([top] + [hi - 1 for _, hi in windows.values()])
            bottom = min([bottom] + [lo for lo, _ in windows.values()])
    return seconds, memory, (bottom, top), rows, coups


@dataclass(frozen=True)
class BankrollResult:
    """The exact answers of one session (every probability a ``Fraction``)."""

    system: str
    bankroll: Fraction
    unit: Fraction
    limit: Fraction | None
    coups: int
    tick: Fraction
    ruin_probability: Fraction
    double_first_probability: Fraction
    undecided_probability: Fraction  # neither ruined nor doubled after N coups
    expected_coups: Fraction
    mean_final: Fraction
    ahead_probability: Fraction  # final bankroll above the start
    final_quantiles: tuple[tuple[Fraction, Fraction], ...]  # (q, smallest bankroll b with P(final <= b) >= q)
    final_ticks: tuple[tuple[int, int], ...]  # (bankroll in ticks, numerator over denominator)
    denominator: int
    states: int  # most cells (bankroll x system state x doubled) of one coup
    plan: Plan
    #: A long flat session (:mod:`.sessions`): no ruin and no doubling can happen within its
    #: coups, so the final bankroll is the start plus the net of a flat trip; its exact figures
    #: are kept, not its whole distribution (``final_ticks`` is empty).
    trip: FlatTrip | None = None

    def __repr__(self) -> str:
        """Short: the session and its headline figures (exact where short, else a float
        marked ``~``; every figure is an exact ``Fraction`` field).

        >>> even = [(Fraction(1, 2), 1), (Fraction(1, 2), -1)]
        >>> bankroll_session(even, bankroll=2, unit=1, coups=3)  # doctest: +NORMALIZE_WHITESPACE
        <BankrollResult flat from 2 (unit 1), 3 coups: ruin 1/4, doubled first 1/4, ahead 1/2,
         mean final 2, expected coups 11/4>
        """
        limit = "" if self.limit is None else f", limit {self.limit}"
        return (
            f"<BankrollResult {self.system} from {self.bankroll} (unit {self.unit}{limit}), {self.coups} coups: "
            f"ruin {_short(self.ruin_probability)}, doubled first {_short(self.double_first_probability)}, "
            f"ahead {_short(self.ahead_probability)}, mean final {_short(self.mean_final)}, "
            f"expected coups {_short(self.expected_coups)}>"
        )

    @property
    def method(self) -> str:
        """``"dynamic programme"`` or ``"convolution"`` (a long flat session)."""
        return "dynamic programme" if self.trip is None else "convolution"

    def distribution(self) -> list[tuple[Fraction, Fraction]]:
        """The exact distribution of the final bankroll: ``[(bankroll, probability), ...]``.

        A long flat session keeps only exact figures: this raises :class:`BankrollError`
        (its floats are :meth:`float_distribution`)."""
        if self.trip is not None:
            raise BankrollError(
                "a long flat session keeps its exact figures, not its whole distribution (see float_distribution())"
            )
        return [(b * self.tick, Fraction(m, self.denominator)) for b, m in self.final_ticks]

    def to_frame(self):
        """The exact distribution of the final bankroll: bankroll, probability (pandas);
        for a long flat session, the floats of :meth:`float_distribution`."""
        if self.trip is not None:
            xs, ps = self.float_distribution()
            return data_frame([{"bankroll_float": x, "probability_float": q} for x, q in zip(xs, ps)])
        return data_frame([{"bankroll": b, "probability": q} for b, q in self.distribution()])

    def float_distribution(self) -> tuple[list[float], list[float]]:
        """Bankrolls and probabilities as floats (each correctly rounded; for a long flat
        session within a relative error of about N * 1e-14), for a chart."""
        if self.trip is not None:
            start = float(self.bankroll)
            return [start + x for x, _ in self.trip.points], [q for _, q in self.trip.points]
        tick = float(self.tick)
        return ([b * tick for b, _ in self.final_ticks], [m / self.denominator for _, m in self.final_ticks])


def _short(x: Fraction) -> str:
    """An exact figure for a ``repr``: ``p/q`` when short, else ``~`` and 6 significant digits."""
    return fraction_text(x, 24, ".6g") if abs(x) <= 10**300 else short_float(x)


def bankroll_session(
    events, bankroll, unit, coups: int, system: str = "flat", limit=None, progress=None
) -> BankrollResult:
    """The exact session of ``coups`` coups on a bet whose coups pay ``pays`` with probability ``p``.

    ``events`` is a sequence of ``(p, pays)`` (or a :class:`~analyzer.core.results.BetResult`).
    Raises :class:`BankrollError` for bad input or work beyond the budgets (naming the largest N).
    ``progress(1)`` is called after every coup.
    """
    if hasattr(events, "events") and hasattr(events, "deals"):
        events = [(Fraction(e.ways, e.deals), e.pays) for e in events.events]
    return run(plan(events, bankroll, unit, coups, system, limit), progress)


def long_flat(p: Plan) -> bool:
    """Whether a flat session can neither be ruined nor double within its coups, so that its
    final bankroll is the start plus the net of a flat trip (:mod:`.sessions`).

    >>> even = [(Fraction(1, 2), 1), (Fraction(1, 2), -1)]
    >>> long_flat(plan(even, 101, 1, 100)), long_flat(plan(even, 100, 1, 100))
    (True, False)
    """
    if p.system.name != "flat":
        return False
    pays: list[Fraction] = [w for _, w in p.weights] + [Fraction(0)]
    start, stake = p.start * p.tick, p.system.stakes[0]
    lowest = start + p.coups * stake * min(pays)
    highest = start + p.coups * stake * max(pays)
    return lowest >= stake and highest < 2 * start


def run(p: Plan, progress=None) -> BankrollResult:
    """The session of a :func:`plan`, or :class:`BankrollError` when it is beyond the budgets.

    A flat session beyond the programme's budget that can neither be ruined nor double
    within its coups (:func:`long_flat`) is computed as a flat trip (:func:`.sessions.flat_trip`)."""
    system, coups = p.system.name, p.coups
    if p.fits < coups and long_flat(p):
        return _long(p, progress)
    if p.fits < coups:
        if p.fits == 0:
            raise BankrollError(
                f"even one coup of {system} is more exact work than the budget of {WORK_BUDGET:g} s and "
                f"{MEMORY_BUDGET >> 20:,} MiB: use a larger unit, a smaller bankroll or a lower table limit"
            )
        raise BankrollError(
            f"{coups:,} coups of {system} are more exact work than the budget of {WORK_BUDGET:g} s and "
            f"{MEMORY_BUDGET >> 20:,} MiB (about {p.seconds:.1f} s and {p.memory / 2**20:,.0f} MiB by coup "
            f"{p.fits + 1:,} already); at most {p.fits:,} coups fit (--coups {p.fits}), or use a larger unit, "
            "a smaller bankroll or a lower table limit"
        )
    return _run(p, system, progress)


def _long(p: Plan, progress=None) -> BankrollResult:
    events = [(Fraction(m, p.denominator), w) for m, w in p.weights]
    try:
        trip = flat_trip(events, p.coups, p.system.stakes[0])
    except SessionError as e:
        raise BankrollError(f"{e} (flat betting, where neither ruin nor doubling can happen)") from None
    if progress is not None:
        progress(p.coups)
    start = p.start * p.tick
    return BankrollResult(
        system="flat",
        bankroll=start,
        unit=p.unit,
        limit=p.limit,
        coups=p.coups,
        tick=p.tick,
        ruin_probability=Fraction(0),
        double_first_probability=Fraction(0),
        undecided_probability=Fraction(1),
        expected_coups=Fraction(p.coups),
        mean_final=start + trip.mean,
        ahead_probability=trip.ahead,
        final_quantiles=tuple((q, start + v) for q, v in trip.quantiles),
        final_ticks=(),
        denominator=p.denominator**p.coups,
        states=len(trip.points),
        plan=p,
        trip=trip,
    )


def _run(p: Plan, system: str, progress=None) -> BankrollResult:
    import numpy as np

    # Bankrolls are counted from ``base``, the lowest the session can reach.
    n, D, moves, (base, top) = p.coups, p.denominator, p.moves, p.span
    stakes = tuple(s - base for s in p.stakes)
    start, twice = p.start - base, 2 * p.start - base
    mass = np.zeros((p.rows, 2, top - base + 1), dtype=object)
    spare = np.zeros_like(mass)
    mass[0, 0, start] = big(1)  # GMP's integers: the masses grow to coups x log2 D bits
    windows = {0: (start, start + 1)}
    ruined: list[tuple[int, int, int, int]] = []  # (coup, bankroll, flag, numerator over D**coup)
    alive_acc, states = 0, 0
    for t in range(n + 1):
        alive = 0
        states = max(states, 2 * sum(hi - lo for lo, hi in windows.values()))
        for s, w in sorted(windows.items()):  # ruin: the stake is not covered
            if w is None:
                continue
            # (a stake below the lowest bankroll reachable is a negative index here: clamp it)
            cut = min(max(stakes[s], w[0]), w[1])
            if cut > w[0]:
                block = mass[s, :, w[0] : cut]
                for f, i in zip(*np.nonzero(block)):
                    ruined.append((t, base + w[0] + int(i), int(f), block[f, i]))
                block[...] = 0
            if cut < w[1]:
                live = mass[s, :, cut : w[1]]
                alive += sum(live.ravel().tolist())
        if t == n:
            break
        alive_acc = alive_acc * D + alive
        new = spare
        for s, w in sorted(windows.items()):
            if max(w[0], stakes[s]) >= w[1]:  # (_advance's windows are never None)
                continue
            a, hi = max(w[0], stakes[s]), w[1]
            src = mass[s, :, a:hi]
            for dest, delta, m in moves[s]:
                new[dest, :, a + delta : hi + delta] += src * m
        for s, w in sorted(windows.items()):
            if w is not None:
                mass[s, :, w[0] : w[1]] = 0
        spare, mass = mass, new
        windows = _advance(windows, stakes, moves)
        for s, w in sorted(windows.items()):  # doubled: move the mass to the flag
            if w[1] > twice:
                a = max(w[0], twice)
                mass[s, 1, a : w[1]] += mass[s, 0, a : w[1]]
                mass[s, 0, a : w[1]] = 0
        if progress is not None:
            progress(1)
    return _summarise(p, system, mass, windows, base, ruined, alive_acc, states)


def _summarise(p, system, mass, windows, base, ruined, alive_acc, states) -> BankrollResult:
    n, D = p.coups, p.denominator
    total = D**n
    final: dict[int, int] = {}
    ruin = ruin_doubled = 0
    for t, b, f, m in ruined:
        m = m * D ** (n - t)
        final[b] = final.get(b, 0) + m
        ruin += m
        ruin_doubled += m if f else 0
    doubled = ruin_doubled
    for s, w in sorted(windows.items()):
        if w is not None:
            doubled += sum(mass[s, 1, w[0] : w[1]].tolist())
            for i, m in enumerate(mass[s, :, w[0] : w[1]].sum(axis=0).tolist()):
                if m:
                    final[base + w[0] + i] = final.get(base + w[0] + i, 0) + m
    ticks = tuple(sorted((b, int(m)) for b, m in final.items()))  # Python's integers from here (GMP's above)
    ruin, ruin_doubled, doubled, alive_acc = int(ruin), int(ruin_doubled), int(doubled), int(alive_acc)
    assert sum(m for _, m in ticks) == total
    quantiles, cum, k = [], 0, 0
    for b, m in ticks:
        cum += m
        while k < len(QUANTILES) and cum * QUANTILES[k].denominator >= QUANTILES[k].numerator * total:
            quantiles.append((QUANTILES[k], b * p.tick))
            k += 1
    mean = fraction(sum(b * m for b, m in ticks) * p.tick.numerator, total * p.tick.denominator)
    ahead = fraction(sum(m for b, m in ticks if b > p.start), total)
    return BankrollResult(
        system=system,
        bankroll=p.start * p.tick,
        unit=p.unit,
        limit=p.limit,
        coups=n,
        tick=p.tick,
        ruin_probability=fraction(ruin, total),
        double_first_probability=fraction(doubled, total),
        undecided_probability=fraction(total - (ruin - ruin_doubled + doubled), total),
        expected_coups=fraction(alive_acc, D ** (n - 1)),
        mean_final=mean,
        ahead_probability=ahead,
        final_quantiles=tuple(quantiles),
        final_ticks=ticks,
        denominator=total,
        states=states,
        plan=p,
    )
