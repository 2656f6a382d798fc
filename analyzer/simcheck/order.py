"""Card order: is the shoe shuffled?  ``baccarat check --card-order``.

A shoe shuffled too little (a few riffles of a shoe in new-deck order, a shoe
built rank by rank and barely mixed) deals legal coups with about the right
frequencies; what gives it away is the order of the cards, as a shuffler test
would see it.  The dealt cards of each shoe are put back in the order they left
the shoe (Player 1, Banker 1, Player 2, Banker 2, then Player's and Banker's third
cards; ``seen`` cards left out), and for every two consecutive ones the *step*
``(rank of the second - rank of the first) mod 13`` is counted (point values, mod
10, for a value-level log).  In a uniformly shuffled shoe any two positions hold a
uniformly random ordered pair of distinct cards, whatever was burned or skipped
between them, so each step ``d`` has the exact probability

    P(d) = sum_r n_r (n_{r+d} - [d = 0]) / (N (N - 1))

with ``n_r`` the declared shoe's counts and ``N`` its size (minus the shoe's ``seen`` cards, which
are known, so that what is left is what is uniformly shuffled).  The 13 (or 10) counts
are tested by a chi-square with the multinomial covariance: consecutive pairs that
share a card are treated as independent, an approximation whose error is of
order ``1/N`` per pair (and the dealt prefix depends slightly on the cards).

>>> from analyzer.core.shoe import Shoe
>>> p = step_probabilities(Shoe.standard(1).rank_tuple)
>>> p[0], p[1], sum(p)
(Fraction(1, 17), Fraction(4, 51), Fraction(1, 1))
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..core.shoe import Shoe
from .families import Family
from .logs import CARD_POINT, HandLog
from .reference import FamilyReference

TITLE = "Card order: step between consecutive dealt cards (second minus first, mod 13)"


def step_probabilities(counts) -> list[Fraction]:
    """Exact law of ``(symbol of the second - symbol of the first) mod M`` for two distinct random cards."""
    n = list(counts)
    M, N = len(n), sum(n)
    return [Fraction(sum(n[r] * (n[(r + d) % M] - (d == 0)) for r in range(M)), N * (N - 1)) for d in range(M)]


def dealt_order(log: HandLog) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the dealt cards in the order they left the shoe, and the shoe index of each."""
    n = log.coups
    P, B = log.player.astype(np.int16), log.banker.astype(np.int16)
    seq = np.full((n, 6), -1, dtype=np.int16)
    seq[:, 0], seq[:, 1], seq[:, 2], seq[:, 3] = P[:, 0], B[:, 0], P[:, 1], B[:, 1]
    p3 = log.player_len >= 3
    b3 = log.banker_len >= 3
    seq[:, 4] = np.where(p3, P[:, 2], np.where(b3, B[:, 2], -1))
    seq[:, 5] = np.where(p3 & b3, B[:, 2], -1)
    shoe = np.repeat(log.shoe.astype(np.int64), 6)
    flat = seq.reshape(-1)
    keep = flat >= 0
    return flat[keep].astype(np.int64), shoe[keep]


def card_order(log: HandLog, shoe: Shoe) -> tuple[FamilyReference, np.ndarray] | None:
    """The reference and the observed step counts (``None`` when no two cards of a shoe follow each other)."""
    acc = CardOrder(shoe, log.value_level)
    acc.add(log)
    return acc.result()


class CardOrder:
    """:func:`card_order` over a log read in chunks: :meth:`add` each chunk in order, then :meth:`result`.
    A shoe may run on from one chunk into the next (its last card and its seen cards are carried)."""

    def __init__(self, shoe: Shoe, value_level: bool):
        self.value_level = value_level
        self.counts = shoe.value_counts if value_level else shoe.rank_tuple
        self.M = len(self.counts)
        self.steps = np.zeros(self.M, dtype=np.int64)
        self.groups: dict[tuple[int, ...], int] = {}
        self.open: tuple[int, int, list[int]] | None = None  # (shoe, pairs, seen symbols) still dealing
        self.last: tuple[int, int] | None = None  # (shoe, symbol) of the last dealt card
        self.bad = False

    def add(self, log: HandLog) -> None:
        codes, shoe_of = dealt_order(log)
        sym = np.array(CARD_POINT, dtype=np.int64)[codes] if self.value_level else codes // 5
        if self.last is not None and sym.size and shoe_of[0] == self.last[0]:
            sym = np.r_[self.last[1], sym]
            shoe_of = np.r_[self.last[0], shoe_of]
        if sym.size:
            self.last = (int(shoe_of[-1]), int(sym[-1]))
        same = shoe_of[1:] == shoe_of[:-1]
        self.steps += np.bincount(((sym[1:] - sym[:-1]) % self.M)[same], minlength=self.M)
        # pairs per shoe and the shoe's seen cards (known, so taken out of the shoe)
        shoes, pairs = np.unique(shoe_of[1:][same], return_counts=True)
        info: dict[int, list] = {}
        if self.open is not None:
            info[self.open[0]] = [self.open[1], list(self.open[2])]
        for s_idx, k in zip(shoes.tolist(), pairs.tolist()):
            info.setdefault(s_idx, [0, []])[0] += k
        for k, cs in log.seen.items():
            info.setdefault(int(log.shoe[k]), [0, []])[1].extend(
                CARD_POINT[c] if self.value_level else c // 5 for c in cs
            )
        last_shoe = int(log.shoe[-1]) if log.coups else None
        self.open = None
        for s_idx, (k, seen) in info.items():
            if s_idx == last_shoe:
                self.open = (s_idx, k, seen)
            else:
                self._close(k, seen)

    def _close(self, pairs: int, seen: list[int]) -> None:
        if pairs:
            key = tuple(sorted(seen))
            self.groups[key] = self.groups.get(key, 0) + pairs

    def result(self) -> tuple[FamilyReference, np.ndarray] | None:
        if self.open is not None:
            self._close(self.open[1], self.open[2])
            self.open = None
        M = self.M
        if self.steps.sum() == 0:
            return None
        expected = [Fraction(0)] * M
        variance = [Fraction(0)] * M
        cov = np.zeros((M, M))
        for key, L in self.groups.items():
            left = list(self.counts)
            for r in key:
                left[r] -= 1
            if min(left) < 0 or sum(left) < 2:
                return None
            p = step_probabilities(left)
            pf = np.array([float(x) for x in p])
            expected = [e + L * x for e, x in zip(expected, p)]
            variance = [v + L * x * (1 - x) for v, x in zip(variance, p)]
            cov += L * (np.diag(pf) - np.outer(pf, pf))
        if self.value_level:
            labels, title = tuple(f"+{d}" for d in range(10)), TITLE.replace("13", "10") + ", point values"
        else:
            labels, title = tuple(f"+{d}" for d in range(13)), TITLE
        fam = Family("order", title, labels, np.zeros(1, dtype=np.int16))
        return FamilyReference(fam, expected, variance, cov), self.steps.copy()


__all__ = ["CardOrder", "card_order", "dealt_order", "step_probabilities"]
