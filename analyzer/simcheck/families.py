"""The tested cells, and their exact ways for many shoes at once.

A *family* partitions every coup into cells: the outcome, the cards dealt,
the final totals, or a bet's pay-table events.  Each family maps the
``10**6`` value sequences of the coup table to a cell, so the cells of the
families are one tabulation of the core, counted for many shoes at once
(:class:`Counter`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..bets.catalog import Bet
from ..core.backend import check_backend
from ..core.engine import VALUES
from ..core.errors import BetError
from .logs import OUTCOME_NAMES

if TYPE_CHECKING:
    from ..core.rules import Rules


def cached(fn):
    """``lru_cache`` that falls back to a plain call for unhashable arguments."""
    memo = lru_cache(maxsize=64)(fn)

    def call(*args):
        try:
            return memo(*args)
        except TypeError:
            return fn(*args)

    call.__doc__ = fn.__doc__
    return call


@dataclass(frozen=True)
class Family:
    """A partition of all coups into cells (outcome, cards, final totals, a bet's events)."""

    key: str
    title: str
    labels: tuple[str, ...]
    code: np.ndarray  # cell of each of the 10**6 value sequences
    bet: Bet | None = None
    pays: tuple[Fraction, ...] = ()
    offset: int = 0
    rules: Rules | None = None  # the drawing rules of ``code`` (None: Punto Banco)

    @property
    def cells(self) -> int:
        return len(self.labels)

    @property
    def rows(self) -> slice:
        return slice(self.offset, self.offset + self.cells)


def _card_features(bet: Bet) -> frozenset:
    out: frozenset = frozenset()
    for e in bet.events:
        out |= getattr(e.when, "card_features", frozenset())
    return out


def value_only(bet: Bet) -> bool:
    """True when the bet's pay table reads point values only (no ranks, suits, colours,
    faces or dealt positions of any card)."""
    return not _card_features(bet) and not any(getattr(e.when, "reads_cards", False) for e in bet.events)


@lru_cache(maxsize=8)
def base_families(rules=None):
    """``(key, title, labels, code)`` of the outcome, cards and totals partitions under ``rules``."""
    from ..core.engine import coup_table

    table = coup_table(rules)
    f = table.features()
    winner = f["winner"].astype(np.int16)
    cards = (f["cards"] - 4).astype(np.int16)
    totals = (f["player_total"].astype(np.int16) * 10 + f["banker_total"]).astype(np.int16)
    return (
        ("outcome", "Outcomes", OUTCOME_NAMES, winner),
        ("cards", "Cards dealt per coup", ("4", "5", "6"), cards),
        ("totals", "Final totals (Player-Banker)", tuple(f"{p}-{b}" for p in range(10) for b in range(10)), totals),
    )


@cached
def bet_family(bet: Bet, rules=None) -> Family:
    """The bet's pay table as cells: its events in order, then ``otherwise``."""
    from ..core.engine import coup_table
    from ..core.solver import event_index

    if not value_only(bet):
        raise BetError(
            f"bet {bet.id!r} reads ranks or suits: a hand-log check covers bets on point "
            f"values only (check it from tallies against the off-the-top reference)"
        )
    code = event_index(bet, coup_table(rules).features())
    labels = tuple(e.event for e in bet.events) + (bet.otherwise_event,)
    pays = tuple(e.pays for e in bet.events) + (bet.otherwise,)
    return Family(f"bet:{bet.id}", bet.name, labels, code, bet, pays, 0, rules)


@cached
def build_families(
    bets: tuple[Bet, ...] = (), categories=("outcome", "cards", "totals"), rules=None
) -> tuple[Family, ...]:
    """The tested families: outcome, cards and totals cells, then each bet's pay-table events,
    under the drawing ``rules`` (default Punto Banco)."""
    rules = None if rules is None or rules.is_default else rules
    fams = []
    for key, title, labels, code in base_families(rules):
        if key in categories:
            fams.append(Family(key, title, labels, code))
    fams.extend(bet_family(b, rules) for b in bets)
    out, offset = [], 0
    for fam in fams:
        out.append(Family(fam.key, fam.title, fam.labels, fam.code, fam.bet, fam.pays, offset, rules))
        offset += fam.cells
    return tuple(out)


_COUNTERS: dict = {}


def counter_for(families: tuple[Family, ...]) -> Counter:
    """A cached :class:`Counter` (compiling one takes a few tenths of a second)."""
    key = tuple((f.key, f.bet, f.rules) for f in families)
    if key not in _COUNTERS:
        if len(_COUNTERS) > 8:
            _COUNTERS.clear()
        _COUNTERS[key] = Counter(list(families))
    return _COUNTERS[key]


class Counter:
    """Exact ways of every cell of ``families`` for many shoes (value counts) at once.

    A thin layer over the core: the families are compiled once as one
    :class:`analyzer.core.engine.Tabulation` of partitions
    (:meth:`~analyzer.core.engine.Tabulation.partitions`: one event per cell, the families'
    rows one after the other at their offsets), which its evaluator counts: within the
    float64 bound from the cards each coup deals (:mod:`analyzer.core.prefix`), beyond by
    the value engine's plans, in the arithmetic of ``backend`` (:mod:`analyzer.core.backend`).
    """

    def __init__(self, families: list[Family]):
        from ..core.engine import Tabulation, coup_table

        table = coup_table(families[0].rules if families else None)
        self.families = families
        self.E = sum(f.cells for f in families)
        #: the cells as one core tabulation (rows ``fam.rows`` of each family)
        self.tabulation = Tabulation.partitions([(f.code, f.cells) for f in families], table)

    def plan(self, cards: int, backend: str = "auto") -> str:
        """The evaluator's plan for a batch of shoes of ``cards`` cards
        (:meth:`analyzer.core.ways.WaysTable.plan`): ``"prefix"`` within the float64 bound."""
        return self.tabulation.ways_table.plan(int(cards), check_backend(backend))

    def ways(self, value_counts, backend: str = "auto") -> np.ndarray:
        """``(B, E)`` exact ways for ``B`` shoes given by value counts: ``int64`` when every
        shoe's ``N (N-1) ... (N-5)`` fits in it, else Python integers (``object``), counted
        in the arithmetic of ``backend``.

        Column-major whatever the plan (the layout of the prefix sums): numpy's float sums
        along an axis add in an order that follows the layout, so the check's float
        statistics come out the same bits on every back end."""
        vc = np.asarray(value_counts, dtype=np.int64).reshape(-1, VALUES)
        return np.asfortranarray(self.tabulation.ways_array(vc, check_backend(backend)))

    def ways_exact(self, value_counts) -> np.ndarray:
        """:meth:`ways` in Python integers (``backend="python"``, the core's reference): a
        ``(B, E)`` ``object`` array, whatever the shoes' size."""
        vc = np.asarray(value_counts, dtype=np.int64).reshape(-1, VALUES)
        rows = self.tabulation.ways_many(vc, backend="python")
        return np.array(rows, dtype=object).reshape(vc.shape[0], self.E)
