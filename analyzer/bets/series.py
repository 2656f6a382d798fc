"""Series bets: placed on a coup, settled on the run of coups that follow.

A series bet is data, like a pay table (``[[series]]`` in a bets file, see
docs/bets.md): it is *placed* on a coup where the ``placed`` condition holds;
from the next coup on, each coup either *extends* the run (its ``run``
condition holds), is *skipped* (its ``skip`` condition holds: it neither
extends nor ends the run; no skip unless one is given) or *ends* it (any other
coup).  The bet is settled on the run's length: when the run ends, or when it
reaches ``cap`` (the top award is paid and the bet is over).  ``pays`` maps
run lengths 0..cap to payouts "to 1"; a length not listed pays ``otherwise``
(-1 unless stated: the stake is lost).

Pricing (the published convention): every coup after the one the bet is
placed on is dealt independently off the top of the declared shoe.  One coup
of the shoe then extends the run in ``e`` of its ``D`` ordered deals, is
skipped in ``s`` and ends the run in ``n = D - e - s`` (exact integers counted
by the solver, :class:`analyzer.core.solver.Solver`).  Skipped coups change
nothing, so each coup that counts extends with probability ``e / (e + n)``:
with ``a = e / g``, ``b = n / g`` (``g = gcd(e, n)``) and ``t = a + b``, the run
has length ``k < cap`` in ``a**k * b * t**(cap - 1 - k)`` and reaches the cap in
``a**cap`` of ``t**cap`` equally weighted cases.  The trigger plays no part in
that price (independent coups); it says where a dealt shoe places the bet.

>>> length_weights(1, 1, 0, 3)           # e = n: each length halves, the cap keeps the rest
((4, 2, 1, 1), 8)
>>> length_weights(0, 5, 7, 2), length_weights(5, 0, 7, 2)     # never extends; never ends
(((1, 0, 0), 1), ((0, 0, 1), 1))
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from ..core.errors import BetError
from ..core.results import BetResult, EventResult
from .catalog import Bet, Event, parse_pays
from .conditions import Condition

if TYPE_CHECKING:
    from ..core.results import Analysis

#: Largest cap of a series bet: the exact weights are integers of ``cap`` times a
#: coup's denominator's digits (about 1,600 digits at 100 on eight decks).
MAX_CAP = 100

#: The sentence every output prints beside series bets.
CONVENTION = ("Series bets are priced with independent coups off the top of the declared shoe "
              "(the published convention): every coup after the one the bet is placed on is "
              "dealt from the full declared shoe, so a run's length is counted from one coup's "
              "exact odds; the cards a real shoe has already dealt are not taken into account.")

_SERIES_KEYS = {"id", "name", "description", "source", "placed", "placed_after_run", "run", "skip", "cap", "pays",
                "otherwise", "otherwise_event"}

#: the event names of the per-coup classes, in the order of :meth:`SeriesBet.coup_bet`
CLASSES = ("extends", "skipped", "ends")


@dataclass(frozen=True)
class SeriesBet:
    """A series bet (see the module): when it is placed, what extends, skips and ends the
    run, the cap and the pay table by run length (``pays``: ``(length, pays)`` pairs, the
    longest first; lengths not listed pay ``otherwise``)."""

    id: str
    name: str
    description: str
    placed: Condition
    run: Condition
    skip: Condition | None
    cap: int
    pays: tuple[tuple[int, Fraction], ...]
    otherwise: Fraction = Fraction(-1)
    otherwise_event: str = "other lengths"
    source: str = ""
    #: also placed after this many consecutive coups of the run condition at the table (skipped
    #: coups do not count, any other coup starts the count again; ``None``: not), a condition
    #: on the shoe's history that only a dealt shoe follows (Banker Streak: after ten Banker wins)
    placed_after_run: int | None = None

    def event_name(self, length: int) -> str:
        """How the pay table prints a length: the cap as ``"10 or more"`` (the run stops
        there: the top award is paid), the others as the number."""
        return f"{length} or more" if length == self.cap else str(length)

    @cached_property
    def coup_bet(self) -> Bet:
        """One coup's classes as a per-coup :class:`Bet` the solver counts: ``extends``
        (the run condition), ``skipped`` (the skip condition, when there is one, and not
        the run condition), ``ends`` (the rest).  Its payouts are placeholders (0)."""
        events = [Event("extends", Fraction(0), self.run)]
        if self.skip is not None:
            events.append(Event("skipped", Fraction(0), self.skip))
        return Bet(id=self.id, name=self.name, description="the coup classes of a series bet",
                   events=tuple(events), otherwise=Fraction(0), otherwise_event="ends")

    @property
    def features(self) -> frozenset[str]:
        out = self.placed.features | self.run.features
        return out | self.skip.features if self.skip is not None else out

    def pay_of(self, length: int) -> Fraction:
        return dict(self.pays).get(length, self.otherwise)


def length_weights(extends: int, ends: int, skipped: int, cap: int) -> tuple[tuple[int, ...], int]:
    """``(w, T)``: the run has length ``k`` (0..cap) in ``w[k]`` of ``T`` equally likely
    cases, when one independent coup extends it in ``extends`` ways, ends it in ``ends``
    and is skipped in ``skipped`` (skips drop out; the ways are reduced by their gcd
    first, so ``T = t**cap`` with ``t = (extends + ends) / gcd``).

    >>> length_weights(2, 1, 0, 2)       # extends 2/3: 1/3, 2/9, then 4/9 reach the cap
    ((3, 2, 4), 9)
    >>> length_weights(0, 0, 3, 4)
    Traceback (most recent call last):
    ...
    analyzer.core.errors.BetError: the run never ends on this shoe: every coup is skipped
    """
    if extends + ends == 0:
        raise BetError("the run never ends on this shoe: every coup is skipped")
    g = math.gcd(extends, ends)
    a, b = extends // g, ends // g
    t = a + b
    w = [a ** k * b * t ** (cap - 1 - k) for k in range(cap)] + [a ** cap]
    return tuple(w), t ** cap


@dataclass(frozen=True)
class SeriesResult:
    """A series bet priced off the top of one shoe: one coup's classes (``extends``,
    ``skipped`` and ``ends`` ways of ``deals`` ordered deals) and the bet's result
    (``result``, a :class:`BetResult` whose events are the paying lengths, the longest
    first, then ``otherwise``, counted over the ``t**cap`` cases of :func:`length_weights`)."""

    bet: SeriesBet
    deals: int
    extends: int
    skipped: int
    ends: int
    lengths: tuple[int, ...]
    cases: int

    @cached_property
    def result(self) -> BetResult:
        paid = dict(self.bet.pays)
        events = [EventResult(self.bet.event_name(k), p, self.lengths[k], self.cases)
                  for k, p in self.bet.pays]
        rest = sum(w for k, w in enumerate(self.lengths) if k not in paid)
        events.append(EventResult(self.bet.otherwise_event, self.bet.otherwise, rest, self.cases))
        return BetResult(self.bet, self.cases, tuple(events))

    def length_probability(self, length: int) -> Fraction:
        """P(the run's length is ``length``; at the cap: reaches it)."""
        return Fraction(self.lengths[length], self.cases)

    @property
    def ev(self) -> Fraction:
        return self.result.ev

    @property
    def house_edge(self) -> Fraction:
        return self.result.house_edge

    @property
    def variance(self) -> Fraction:
        return self.result.variance

    @property
    def std_dev(self) -> float:
        return self.result.std_dev

    @property
    def hit_frequency(self) -> Fraction:
        return self.result.hit_frequency

    @property
    def coups(self) -> Fraction:
        """Expected number of coups dealt until the bet is settled (skipped ones included):
        each counted coup takes ``D / (e + n)`` coups on average, and ``sum_k P(L >= k)`` of
        them are counted, ``k = 0..cap-1`` (the one that ends the run included)."""
        tail, counted = 0, 0                # tail: cases of L >= k, for k = cap down to 0
        for k in range(self.bet.cap, -1, -1):
            tail += self.lengths[k]
            if k < self.bet.cap:
                counted += tail
        return Fraction(counted * self.deals, self.cases * (self.extends + self.ends))


def price(bet: SeriesBet, classes: Analysis) -> SeriesResult:
    """``bet`` priced from ``classes``, a solve that counted :attr:`SeriesBet.coup_bet`."""
    r = classes.bet(bet.id)
    extends = r.event("extends").ways
    skipped = r.event("skipped").ways if bet.skip is not None else 0
    ends = r.event("ends").ways
    lengths, cases = length_weights(extends, ends, skipped, bet.cap)
    return SeriesResult(bet, r.deals, extends, skipped, ends, lengths, cases)


def price_series(shoe, bets, rules=None) -> list[SeriesResult]:
    """Every series bet of ``bets`` priced off the top of ``shoe`` under ``rules`` (one solve
    of their coup classes).

    >>> from analyzer import Shoe
    >>> from analyzer.bets.catalog import catalog
    >>> r, = price_series(Shoe.standard(8), [catalog().series["banker_streak"]])
    >>> f"{float(r.house_edge):.6f}", f"{float(r.length_probability(10)):.6f}", f"{float(r.coups):.4f}"
    ('0.094006', '0.000411', '1.8463')
    """
    from .pricing import _solver_for
    bets = tuple(bets)
    if not bets:
        return []
    classes = _solver_for(tuple(b.coup_bet for b in bets), rules).solve(shoe)
    return [price(b, classes) for b in bets]


# -- reading [[series]] -----------------------------------------------------------------

def parse_series(raw: dict, source: str, lines, index: int) -> SeriesBet:
    """The ``index``-th ``[[series]]`` table of the bets file ``source`` (``lines``: its
    :class:`analyzer.bets.catalog._Lines`, for the line numbers of messages).  Refused with one line: a
    missing or bad cap, a pay table with lengths outside 0..cap, a condition that does not
    parse, a skip that holds on every coup (the run would never end)."""
    from .catalog import _require_id, _require_str
    where = f"{source}: {lines.block('series', index)}series {raw.get('id', '?')!r}"
    extra = set(raw) - _SERIES_KEYS
    if extra:
        raise BetError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_SERIES_KEYS))})")
    bet_id = _require_id(raw, where)
    conditions: dict[str, Condition | None] = {}
    for key in ("placed", "run", "skip"):
        if key == "skip" and key not in raw:
            conditions[key] = None
            continue
        text = _require_str(raw, key, where)
        try:
            conditions[key] = Condition.parse(text)
        except BetError as e:
            line = lines.containing("series", index, text)
            raise BetError(f"{source}: {line}series {bet_id!r}, {key}: {e}") from None
    if "cap" not in raw:
        raise BetError(f"{where}: 'cap' is missing: a series bet needs the run length at which it is "
                       f"paid and over (a whole number from 1 to {MAX_CAP})")
    cap = raw["cap"]
    at_key = {key: f"{source}: {_line_of_key(lines, index, key)}series {bet_id!r}"
              for key in ("cap", "pays", "otherwise")}
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP:
        raise BetError(f"{at_key['cap']}: cap {_cut(cap)} must be a whole number from 1 to {MAX_CAP}")
    table = raw.get("pays")
    if not isinstance(table, dict) or not table:
        raise BetError(f"{at_key['pays']}: 'pays' must be a non-empty table of run length = payout, "
                       "e.g. pays = { 4 = 10, 10 = 250 }")
    where = at_key["pays"]
    pays: dict[int, Fraction] = {}
    for key, value in table.items():
        if not re.fullmatch(r"[0-9]{1,4}", key) or not 0 <= int(key) <= cap:
            raise BetError(f"{where}: pays: run length {_cut(key)} must be a whole number from 0 to the "
                           f"cap ({cap})")
        if int(key) in pays:
            raise BetError(f"{where}: pays: run length {int(key)} is given twice")
        pays[int(key)] = parse_pays(value, f"{where}: pays {key}")
    otherwise = parse_pays(raw.get("otherwise", -1), f"{at_key['otherwise']}: otherwise")
    where = f"{source}: {lines.block('series', index)}series {bet_id!r}"
    for key in ("name", "description", "source", "otherwise_event"):
        if key in raw and not isinstance(raw[key], str):
            raise BetError(f"{where}: '{key}' must be a string")
    for key in ("name", "otherwise_event"):
        if isinstance(raw.get(key), str) and not raw[key].isprintable():
            raise BetError(f"{where}: {key} must be one line of printable text")
    after = raw.get("placed_after_run")
    if after is not None and (isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= MAX_CAP):
        raise BetError(f"{_line_of_key_where(source, lines, index, bet_id, 'placed_after_run')}: placed_after_run "
                       f"{_cut(after)} must be a whole number from 1 to {MAX_CAP}")
    skip = conditions["skip"]
    if skip is not None:
        _check_ends(skip, where)
    run, placed = conditions["run"], conditions["placed"]
    assert run is not None and placed is not None
    listed = sorted(pays, reverse=True)
    rest = [k for k in range(cap + 1) if k not in pays]
    default_other = (f"{rest[-1]} or less" if rest and rest == list(range(rest[-1] + 1)) else "other lengths")
    return SeriesBet(id=bet_id, name=str(raw.get("name", bet_id)), description=str(raw.get("description", "")),
                     placed=placed, run=run, skip=skip, cap=cap,
                     pays=tuple((k, pays[k]) for k in listed), otherwise=otherwise,
                     otherwise_event=str(raw.get("otherwise_event", default_other)),
                     source=str(raw.get("source", "")).strip(), placed_after_run=after)


def _line_of_key_where(source: str, lines, index: int, bet_id: str, key: str) -> str:
    return f"{source}: {_line_of_key(lines, index, key)}series {bet_id!r}"


def _line_of_key(lines, index: int, key: str) -> str:
    """``"line N: "`` of ``key = ...`` in the ``index``-th ``[[series]]`` block (else its header)."""
    return lines._find("series", index, r"\s*" + key + r"\s*=", None)


def _check_ends(skip: Condition, where: str) -> None:
    """Refuse a skip condition that holds on every coup a full shoe deals (point-value
    conditions: checked over the ``10**6`` value sequences, tens of milliseconds); one that
    reads cards is checked on the shoe priced (:func:`length_weights`)."""
    if skip.reads_cards:
        return
    from ..core.engine import coup_table
    if bool(skip.mask(coup_table().features()).all()):
        raise BetError(f"{where}: the run never ends: skip {skip.text!r} holds on every coup")


def _cut(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."
