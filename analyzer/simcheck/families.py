"""The tested cells, and their exact ways for many shoes at once.

A *family* partitions every coup into cells: the outcome, the cards dealt,
the final totals, or a bet's pay-table events.  Each family maps the
``10**6`` value sequences of the coup table to a cell, so the ways of every
cell for a shoe are one matrix product (:class:`Counter`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..bets.catalog import Bet
from ..core.engine import POSITIONS, falling
from ..core.errors import BetError
from .logs import OUTCOME_NAMES


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
    code: np.ndarray                     # cell of each of the 10**6 value sequences
    bet: Bet | None = None
    pays: tuple[Fraction, ...] = ()
    offset: int = 0
    rules: object = None                 # the drawing rules of ``code`` (None: Punto Banco)

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
        ("totals", "Final totals (Player-Banker)", tuple(f"{p}-{b}" for p in range(10) for b in range(10)),
         totals),
    )


@cached
def bet_family(bet: Bet, rules=None) -> Family:
    """The bet's pay table as cells: its events in order, then ``otherwise``."""
    from ..core.solver import event_index
    from ..core.engine import coup_table

    if not value_only(bet):
        raise BetError(f"bet {bet.id!r} reads ranks or suits: a hand-log check covers bets on point "
                       f"values only (check it from tallies against the off-the-top reference)")
    code = event_index(bet, coup_table(rules).features())
    labels = tuple(e.event for e in bet.events) + (bet.otherwise_event,)
    pays = tuple(e.pays for e in bet.events) + (bet.otherwise,)
    return Family(f"bet:{bet.id}", bet.name, labels, code, bet, pays, 0, rules)


@cached
def build_families(bets: tuple[Bet, ...] = (), categories=("outcome", "cards", "totals"),
                   rules=None) -> tuple[Family, ...]:
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

    For a shoe with ``n_v`` cards of value ``v``, the ordered six-card deals
    showing a value multiset ``m`` number ``prod_v n_v (n_v-1)...``
    (:meth:`analyzer.core.engine.CoupTable.batch_monomials`, for a batch of shoes at
    once), and the cells' counts are one matrix product.  While ``N (N-1) ... (N-5) <
    2**53`` (shoes of at most 458 cards) every monomial, product and partial sum
    is an integer below ``2**53``, so double precision is exact; larger shoes
    use int64 (below ``2**63``) or Python integers.
    """

    def __init__(self, families: list[Family]):
        from ..core.engine import coup_table

        table = coup_table(families[0].rules if families else None)
        self.families = families
        M = table.multisets
        self.M = M
        blocks = [np.bincount(fam.code.astype(np.int64) * M + table.multiset,
                              minlength=fam.cells * M).reshape(fam.cells, M) for fam in families]
        self.coef = np.concatenate(blocks).astype(np.int64)          # (E, 5005)
        self.E = self.coef.shape[0]
        self._coef_f = self.coef.astype(np.float64)
        self._coef_obj = None
        self._exact_cache: dict = {}
        self._exps = table.exponents
        self._table = table
        self._prefix = None                 # built on first use (see :class:`.prefix.PrefixWays`)
        self.prefix = True                  # False: the plain (cells x 5005) product

    def ways(self, value_counts: np.ndarray) -> np.ndarray:
        """``(B, E)`` int64 (or object) exact ways for ``B`` shoes given by value counts."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.ndim == 1:
            vc = vc[None, :]
        n_max = int(vc.sum(axis=1).max()) if vc.shape[0] else 0
        bound = falling(n_max, POSITIONS)
        if bound < 2**53:
            dtype = np.float64
        elif bound < 2**63:
            dtype = np.int64
        else:
            return self.ways_exact(vc)
        if dtype is np.float64 and self.prefix and vc.shape[0]:
            if self._prefix is None:
                from .prefix import PrefixWays
                self._prefix = PrefixWays.build(self.families, self._table)
            if self._prefix is not False:
                return self._prefix.ways(vc)
        mono = self._table.batch_monomials(vc, dtype)
        if dtype is np.float64:
            return (self._coef_f @ mono).T.astype(np.int64)
        return (self.coef @ mono).T

    def ways_exact(self, value_counts) -> np.ndarray:
        """Python-integer version (any shoe size); ``(B, E)`` object array."""
        vc = np.asarray(value_counts, dtype=np.int64)
        if vc.ndim == 1:
            vc = vc[None, :]
        out = np.empty((vc.shape[0], self.E), dtype=object)
        if self._coef_obj is None:
            self._coef_obj = self.coef.astype(object)
            self._exp_terms = [[(v, int(k)) for v, k in enumerate(e) if k] for e in self._exps.tolist()]
        for b, row in enumerate(vc.tolist()):
            key = tuple(row)
            if key not in self._exact_cache:
                ff = [[falling(n, k) for k in range(POSITIONS + 1)] for n in row]
                mono = np.array([math.prod(ff[v][k] for v, k in terms) for terms in self._exp_terms],
                                dtype=object)
                if len(self._exact_cache) > 64:
                    self._exact_cache.clear()
                self._exact_cache[key] = self._coef_obj @ mono
            out[b] = self._exact_cache[key]
        return out
