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
        self._prefix = None                 # built on first use (see :class:`_PrefixWays`)
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
                self._prefix = _PrefixWays.build(self.families, self._table)
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


def _halves(exps: np.ndarray):
    """Monomial plan for exponent rows ``exps`` (any number of blocks stacked).

    Each monomial is (values 0-4 part) x (values 5-9 part); each part is
    (first two values) x (last three).  Returns, per half, the columns, the
    distinct pairs and triples, the pair and triple of each distinct half, and
    the half of each row."""
    plan = []
    for cols in ([0, 1, 2, 3, 4], [5, 6, 7, 8, 9]):
        u, inv = np.unique(exps[:, cols], axis=0, return_inverse=True)
        pu, pi = np.unique(u[:, :2], axis=0, return_inverse=True)
        tu, ti = np.unique(u[:, 2:], axis=0, return_inverse=True)
        plan.append((cols, pu, pi.ravel(), tu, ti.ravel(), inv.ravel()))
    return plan


class _PrefixWays:
    """The same exact ways as :class:`Counter`, from the cards a coup actually deals.

    A coup dealing ``L`` cards (4, 5 or 6) is in the same cell whatever the
    undealt positions hold, so its ways are (ways of its ``L``-value prefix) x
    ``(N-L)(N-L-1)...``: one product per ``L`` over the ``L``-value multisets.
    The final totals satisfy ``P + B = sum of the dealt values (mod 10)``, so
    in that basis a totals cell meets only the multisets of its residue: ten
    small products instead of one dense one.  Families whose cell is a function
    of the totals cell (outcome, the main bets) are sums of totals ways.  Used
    while every value is below ``2**53`` (the float path of :meth:`Counter.ways`):
    all entries, products and partial sums are nonnegative integers bounded by
    the ways of a cell, so double precision is exact."""

    @classmethod
    def build(cls, families, table):
        try:
            return cls(families, table)
        except ValueError:
            return False

    def __init__(self, families, table):
        seq = np.indices((10,) * POSITIONS, dtype=np.int8).reshape(POSITIONS, -1)
        cards = table.cards_dealt
        pow7 = np.int64(7) ** np.arange(10, dtype=np.int64)
        self.E = E = sum(f.cells for f in families)
        tot = next((f for f in families if f.key == "totals"), None)
        self.derived = []
        live = np.ones(E, dtype=bool)
        for fam in families if tot is not None else ():
            pairs = np.unique(tot.code.astype(np.int64) * 4096 + fam.code) if fam is not tot else []
            if len(pairs) and len(np.unique(pairs // 4096)) == len(pairs):
                m = np.zeros((fam.cells, tot.cells))
                m[pairs % 4096, pairs // 4096] = 1.0
                self.derived.append((fam.rows, m))
                live[fam.rows] = False
        self.tot_rows = tot.rows if tot is not None else None
        live_rows = np.flatnonzero(live)
        self.blocks, stacked = [], []
        for L in (4, 5, 6):
            sel = np.flatnonzero(cards == L)
            step = 10 ** (POSITIONS - L)
            for fam in families:
                if not np.array_equal(fam.code[sel], fam.code[(sel // step) * step]):
                    raise ValueError(f"{fam.key}: the cell reads undealt positions")
            first = sel[sel % step == 0]
            digits = seq[:L, first].astype(np.int64)
            ucode, inv = np.unique(pow7[digits].sum(axis=0), return_inverse=True)
            exps = (ucode[:, None] // pow7[None, :]) % 7
            res = exps @ np.arange(10) % 10
            order = np.argsort(res, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            exps, res, M = exps[order], res[order], len(ucode)
            coef = np.zeros((E, M), dtype=np.int64)
            for fam in families:
                cnt = np.bincount(fam.code[first].astype(np.int64) * M + rank[inv.ravel()],
                                  minlength=fam.cells * M)
                coef[fam.rows] = cnt.reshape(fam.cells, M)
            parts = []
            for g in np.unique(res).tolist():
                cs = np.flatnonzero(res == g)
                sl = slice(int(cs[0]), int(cs[-1]) + 1)
                rows = live_rows[coef[live_rows, sl].any(axis=1)]
                if len(rows):
                    parts.append((rows, sl, np.ascontiguousarray(coef[rows, sl], dtype=np.float64)))
            self.blocks.append((L, len(stacked) and sum(len(e) for e in stacked), parts))
            stacked.append(exps)
        # one plan for the three blocks (their halves overlap): block columns index its rows
        self.plan = _halves(np.concatenate(stacked))
        self.blocks = [(L, [(rows, self.plan[0][5][off + sl.start:off + sl.stop],
                             self.plan[1][5][off + sl.start:off + sl.stop], c) for rows, sl, c in parts])
                       for L, off, parts in self.blocks]


    def ways(self, vc: np.ndarray) -> np.ndarray:
        B = vc.shape[0]
        N = vc.sum(axis=1).astype(np.float64)
        v = vc.T
        f = np.empty((10, POSITIONS + 1, B))
        f[:, 0, :] = 1
        for k in range(1, POSITIONS + 1):
            f[:, k, :] = f[:, k - 1, :] * np.maximum(v - (k - 1), 0)
        W = np.zeros((self.E, B))
        halves = []
        for cols, pu, pi, tu, ti, _ in self.plan:
            pair = f[cols[0], pu[:, 0]] * f[cols[1], pu[:, 1]]
            triple = f[cols[2], tu[:, 0]] * f[cols[3], tu[:, 1]]
            triple *= f[cols[4], tu[:, 2]]
            half = pair[pi]
            half *= triple[ti]
            halves.append(half)
        a, b = halves
        for L, parts in self.blocks:
            acc = W if L == POSITIONS else np.zeros((self.E, B))
            for rows, ai, bi, c in parts:
                # one residue's monomials at a time: a few hundred rows stay in cache
                m = a[ai]
                m *= b[bi]
                acc[rows] += c @ m
            if L < POSITIONS:
                rest = np.maximum(N - L, 0)
                for j in range(1, POSITIONS - L):
                    rest *= np.maximum(N - L - j, 0)
                W += acc * rest
        for rows, m in self.derived:
            W[rows] = m @ W[self.tot_rows]
        return W.T.astype(np.int64)
