"""Exact EVs: every selected bet's EV numerator before every coup of a shoe.

An EV is an integer numerator over ``deals(N) * L`` (see :mod:`analyzer.studies`,
"Exactness"); :class:`ExactSums` turns sums of such numerators, kept per ``N``,
into one exact fraction.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, cast

import numpy as np

from ..bets.catalog import Bet
from ..core.engine import POSITIONS, Tabulation, coup_table, falling
from ..core.shoe import Shoe
from ..core.solver import Solver, event_index
from .params import bet_level, bet_scale, select_bets

if TYPE_CHECKING:
    from ..core.results import BetResults

#: Coups priced by one :meth:`Solver.solve_many` call at most (the analyses of a call are
#: held until their numerators are read: this bounds the memory, not the arithmetic).
SOLVE_COUPS = 1024
#: Remaining shoes priced by one pass of :meth:`BatchEV.numerators` at most (a progress
#: tick after each: one shoe of 10,000 decks has ~100,000 coups).
PRICE_BLOCK = 4096


class BatchEV:
    """Exact EV numerators of many bets on many remaining shoes at once.

    The counting is the core's; this class only multiplies counts by payouts.
    For a bet with events ``e`` paying ``p_e`` and ``o`` otherwise,
    ``EV * deals * L = sum_e (p_e - o) L ways_e + o L deals``.

    * Bets on point values: the ways of every distinct event of these bets (one
      non-negative coefficient row each, shared by the bets that pay on it) are
      counted for all coups by one :class:`~analyzer.core.engine.Tabulation` and its
      :meth:`~analyzer.core.engine.Tabulation.ways_many` (the core picks the exact
      arithmetic per shoe size), then combined with the scaled payouts in Python
      integers.
    * Bets reading ranks or suits: one :class:`~analyzer.core.solver.Solver`, compiled
      once, prices all coups with :meth:`~analyzer.core.solver.Solver.solve_many`;
      a coup's numerator is ``sum_e p_e L ways_e`` over the bet's events (the
      ``otherwise`` event included), Python integers.
    """

    def __init__(self, bets: tuple[Bet, ...], rules=None):
        self.bets = bets
        self.scales = [bet_scale(b) for b in bets]
        table = coup_table(rules)
        features = table.features()
        rows: list[np.ndarray] = []
        row_of: dict[bytes, int] = {}
        #: per bet on point values: (bet index, [(event row, (p_e - o) L)], o L)
        self._value_terms: list[tuple[int, list[tuple[int, int]], int]] = []
        #: per bet read by the solver: (bet index, p_e L of its events, otherwise last)
        self._card_terms: list[tuple[int, tuple[int, ...]]] = []
        for i, bet in enumerate(bets):
            L, o = self.scales[i], bet.otherwise
            if bet_level(bet) != "value":
                scaled = [e.pays * L for e in bet.events] + [o * L]
                assert all(x.denominator == 1 for x in scaled)
                self._card_terms.append((i, tuple(int(x) for x in scaled)))
                continue
            paying = event_index(bet, features)
            terms = []
            for j, e in enumerate(bet.events):
                w = (e.pays - o) * L
                assert w.denominator == 1
                if w == 0:
                    continue  # pays what "otherwise" pays: only the constant counts
                coef = table.coefficients(paying == j)
                key = coef.tobytes()
                if key not in row_of:
                    row_of[key] = len(rows)
                    rows.append(coef)
                terms.append((row_of[key], int(w)))
            const = o * L
            assert const.denominator == 1
            self._value_terms.append((i, terms, int(const)))
        self.value_index = [i for i, _, _ in self._value_terms]
        self.solver_bets = [i for i, _ in self._card_terms]
        self._tab = Tabulation([], table, np.stack(rows)) if rows else None
        self._solver = Solver(tuple(bets[i] for i in self.solver_bets), rules=rules) if self.solver_bets else None

    def numerators(self, rank_counts: np.ndarray, card_counts: np.ndarray | None = None, tick=None) -> list[list[int]]:
        """EV numerators ``[bet][coup]`` (over ``deals(N) * L_bet``) for remaining shoes.

        ``rank_counts``: ``(K, 13)`` counts A..K; ``card_counts``: ``(K, 52)`` when
        suits are tracked (needed only by bets that read suits).  The ``K`` shoes
        may be the coups of one shoe or of many: they are counted together.
        ``tick(done)``: called with the share (0 to 1) of the ``K`` shoes priced so far,
        after each block of :data:`PRICE_BLOCK` (each shoe is priced alone: the blocks
        change no number).
        """
        rank_counts = np.asarray(rank_counts, dtype=np.int64)
        out: list[list[int]] = [[] for _ in self.bets]
        k = len(rank_counts)
        if k > PRICE_BLOCK:
            for start in range(0, k, PRICE_BLOCK):
                part = self.numerators(
                    rank_counts[start : start + PRICE_BLOCK],
                    None if card_counts is None else card_counts[start : start + PRICE_BLOCK],
                )
                for row, more in zip(out, part):
                    row.extend(more)
                if tick is not None:
                    tick(min(start + PRICE_BLOCK, k) / k)
            return out
        deals = [falling(n, POSITIONS) for n in rank_counts.sum(axis=1).tolist()]
        if self._value_terms:
            self._value_numerators(rank_counts, deals, out)
        if self._solver is not None:
            self._card_numerators(rank_counts, card_counts, out)
        if tick is not None:
            tick(1.0)
        return out

    def _value_numerators(self, rank_counts, deals, out) -> None:
        values = np.concatenate([rank_counts[:, 9:13].sum(axis=1, keepdims=True), rank_counts[:, :9]], axis=1)
        # the ways of every event row, per row (a column of the (coups, rows) table)
        ways = list(zip(*self._tab.ways_many(values))) if self._tab is not None and len(values) else []
        for i, terms, const in self._value_terms:
            acc = [const * d for d in deals]
            for r, w in terms:
                acc = [a + w * x for a, x in zip(acc, ways[r])]
            out[i] = acc

    def _card_numerators(self, rank_counts, card_counts, out) -> None:
        if card_counts is not None:
            card_rows = np.asarray(card_counts, dtype=np.int64).tolist()
            shoes = [Shoe(None, c) for c in card_rows]
        else:
            shoes = [Shoe(r) for r in rank_counts.tolist()]
        ids = [self.bets[i].id for i, _ in self._card_terms]
        # A solve's counts are read without building its results (BetResults.event_ways);
        # with the collector paused its objects cost no passes over the caller's (large) heap.
        assert self._solver is not None  # bets read by the solver
        paused = gc.isenabled()
        gc.disable()
        try:
            for start in range(0, len(shoes), SOLVE_COUPS):
                analyses = self._solver.solve_many(shoes[start : start + SOLVE_COUPS])
                assert list(analyses[0].bets) == ids  # the solver's order is the bets' order
                for a in analyses:
                    event_ways = cast("BetResults", a.bets).event_ways  # a solve's bets
                    for (i, scaled), bet_id in zip(self._card_terms, ids):
                        out[i].append(sum(w * x for w, x in zip(event_ways(bet_id), scaled)))
        finally:
            if paused:
                gc.enable()


@lru_cache(maxsize=4)
def batch_ev(bet_ids: tuple[str, ...], bets_toml: str | None, rules=None) -> BatchEV:
    """The :class:`BatchEV` of these bets: one compiled per process, bet set and rule set (cached)."""
    return BatchEV(select_bets(bet_ids, bets_toml), rules)


def exact_sum(terms: Iterable[Fraction]) -> Fraction:
    """The exact sum of fractions, added in pairs (a balanced tree), so each partial sum's
    denominator is the lcm of neighbouring terms only: one left-to-right sum, or one common
    denominator of every term, of ~10^5 depths' fractions whose lcm has ~10^6 bits takes time
    quadratic in the terms (minutes, gigabytes).

    >>> exact_sum([Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)])
    Fraction(1, 1)
    >>> exact_sum([])
    Fraction(0, 1)
    """
    level = list(terms)
    if not level:
        return Fraction(0)
    while len(level) > 1:
        paired = [a + b for a, b in zip(level[::2], level[1::2])]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


class ExactSums:
    """Sums of numerators keyed by cards left ``N``, each over ``deals(N) * scale``, as one
    exact fraction (:func:`exact_sum` of the depths in order of ``N``).

    >>> ExactSums(1, [6, 7]).value({6: 360, 7: 2520})
    Fraction(1, 1)
    """

    def __init__(self, scale: int, ns: Iterable[int]):
        self.den = {n: falling(n, POSITIONS) * scale for n in ns}

    def value(self, sums: dict[int, int]) -> Fraction:
        return exact_sum(Fraction(sums[n], self.den[n]) for n in sorted(sums) if sums[n])
