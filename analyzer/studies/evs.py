"""Exact EVs: every selected bet's EV numerator before every coup of a shoe.

An EV is an integer numerator over ``deals(N) * L`` (see :mod:`analyzer.studies`,
"Exactness"); :class:`ExactSums` turns sums of such numerators, kept per ``N``,
into one exact fraction.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..bets.catalog import Bet
from ..core.engine import POSITIONS, coup_table, falling
from ..core.shoe import Shoe
from ..core.solver import Solver, event_index
from .params import bet_level, bet_scale, select_bets

INT64_MAX = 2**63 - 1


class BatchEV:
    """Exact EV numerators of many bets on many remaining shoes at once.

    For a bet with events ``e`` paying ``p_e`` and ``o`` otherwise,
    ``EV * deals * L = sum_e (p_e - o) L ways_e + o L deals``: one integer row over
    the 5005 value multisets of :mod:`analyzer.core.engine`, so the EVs of all coups of
    a shoe are one integer matrix product.  Bets reading ranks or suits are
    solved coup by coup with :class:`~analyzer.core.solver.Solver`.
    """

    def __init__(self, bets: tuple[Bet, ...], max_cards: int, rules=None):
        self.bets = bets
        self.scales = [bet_scale(b) for b in bets]
        table = coup_table(rules)
        features = table.features()
        self._table = table
        rows, consts, self.value_index, bound = [], [], [], 0
        self.solver_bets: list[int] = []
        for i, bet in enumerate(bets):
            if bet_level(bet) != "value":
                self.solver_bets.append(i)
                continue
            L, o = self.scales[i], bet.otherwise
            row = np.zeros(table.multisets, dtype=np.int64)
            paying = event_index(bet, features)
            weights = []
            for j, e in enumerate(bet.events):
                w = (e.pays - o) * L
                assert w.denominator == 1
                weights.append(abs(int(w)))
                row += table.coefficients(paying == j) * int(w)
            const = o * L
            rows.append(row)
            consts.append(int(const))
            self.value_index.append(i)
            bound = max(bound, max(weights, default=0) + abs(int(const)))
        self._rows = np.stack(rows) if rows else np.zeros((0, table.multisets), dtype=np.int64)
        self._consts = consts
        # int64 is exact when every term and partial sum stays below 2**63 (see engine.py).
        self.int64 = bound * falling(max_cards, POSITIONS) <= INT64_MAX
        self._solver = Solver(tuple(bets[i] for i in self.solver_bets), rules=rules) if self.solver_bets else None

    def monomials(self, value_counts: np.ndarray) -> np.ndarray:
        """``(5005, K)`` products of falling factorials for ``K`` shoes (rows of value counts)."""
        return self._table.batch_monomials(value_counts, np.int64)

    def numerators(self, rank_counts: np.ndarray, card_counts: np.ndarray | None = None) -> list[list[int]]:
        """EV numerators ``[bet][coup]`` (over ``deals(N) * L_bet``) for remaining shoes.

        ``rank_counts``: ``(K, 13)`` counts A..K; ``card_counts``: ``(K, 52)`` when
        suits are tracked (needed only by bets that read suits).
        """
        k = rank_counts.shape[0]
        out: list[list[int]] = [[] for _ in self.bets]
        values = np.concatenate([rank_counts[:, 9:13].sum(axis=1, keepdims=True), rank_counts[:, :9]], axis=1)
        cards = rank_counts.sum(axis=1).tolist()
        deals = [falling(n, POSITIONS) for n in cards]
        if self.value_index:
            if self.int64:
                nums = (self._rows @ self.monomials(values)).tolist()
                for j, i in enumerate(self.value_index):
                    c = self._consts[j]
                    out[i] = [x + c * d for x, d in zip(nums[j], deals)]
            else:
                self._python_numerators(values, deals, out)
        if self._solver is not None:
            for c in range(k):
                if card_counts is not None:
                    shoe = Shoe(None, card_counts[c].tolist())
                else:
                    shoe = Shoe(rank_counts[c].tolist())
                res = self._solver.solve(shoe)
                for i in self.solver_bets:
                    ev = res.bet(self.bets[i].id).ev
                    out[i].append(ev.numerator * (deals[c] * self.scales[i] // ev.denominator))
        return out

    def _python_numerators(self, values, deals, out):
        """Python-integer path for shoes too large for int64."""
        from ..core.engine import Tabulation
        tab = getattr(self, "_tab", None)
        if tab is None:
            tab = self._tab = Tabulation([], coef=self._rows)
        for c in range(values.shape[0]):
            nums = tab.ways_exact(values[c].tolist())
            for j, i in enumerate(self.value_index):
                out[i].append(nums[j] + self._consts[j] * deals[c])


@lru_cache(maxsize=4)
def batch_ev(bet_ids: tuple[str, ...], bets_toml: str | None, max_cards: int, rules=None) -> BatchEV:
    """The :class:`BatchEV` of these bets: one compiled per process, bet set and rule set (cached)."""
    return BatchEV(select_bets(bet_ids, bets_toml), max_cards, rules)


class ExactSums:
    """Sums of numerators keyed by cards left ``N`` -> one exact fraction (common denominator)."""

    def __init__(self, scale: int, ns: Iterable[int]):
        self.den = {n: falling(n, POSITIONS) * scale for n in ns}
        self.common = math.lcm(*self.den.values()) if self.den else 1
        self.mult = {n: self.common // d for n, d in self.den.items()}

    def numerator(self, sums: dict[int, int]) -> int:
        return sum(v * self.mult[n] for n, v in sums.items())

    def value(self, sums: dict[int, int]) -> Fraction:
        return Fraction(self.numerator(sums), self.common)
