"""Bets on a multiset of cards that read only its ranks and whether it is one suit.

The card engine (:mod:`analyzer.core.classengine`) counts a bet on the first
``r`` cards as a multiset (a poker bet such as Jackpot Baccarat: ``r = 4``, 52
classes) by one product per multiset of cards: 341,055 for four cards.  When every
event holds on a multiset according to its *ranks* and to whether all its cards
share one suit alone, the same counts follow from the 1,820 rank multisets:

* over every multiset of cards with the rank multiset ``R`` (rank ``r_j`` taken
  ``k_j`` times), the ordered ways are ``r! / prod k_j! * prod_j n_{r_j} (n_{r_j} - 1) ...``
  (Vandermonde: choosing ``k_j`` distinct cards of a rank is choosing them suit by suit);
* the ways with every card of suit ``s`` are ``r! / prod k_j! * prod_j n_{r_j, s} (n_{r_j, s} - 1) ...``,
  one multiset of cards per suit;

and the rest of ``R`` is their difference.  :meth:`RankFlushPlan.detect` builds the
plan only after checking, on the engine's own table of every multiset, that each
event is constant on every (rank multiset, one suit) group, so a count taken this way
equals the engine's product by product.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .blocks import FLOAT_EXACT, one_blas_thread

SUITS = 4
RANKS = 13


def _factorials(k: np.ndarray) -> np.ndarray:
    return np.array([math.factorial(int(x)) for x in range(int(k.max()) + 1)], dtype=np.int64)[k]


class RankFlushPlan:
    """Events on ``r`` cards read through ranks and one-suitedness; see the module docstring.

    ``groups``: per (rank multiset, one suit) group that pays an event, its ranks
    ``(G, r)`` (padded with rank 13, which has no card), multiplicities, orderings,
    whether it is the one-suit part, and the event.
    """

    def __init__(self, r: int, ranks, mults, orderings, one_suit, event, events: int):
        self.r, self.events = r, events
        self.ranks, self.mults = ranks, mults
        self.orderings, self.one_suit, self.event = orderings, one_suit, event
        self._flat = [ranks[:, j] * (r + 1) + mults[:, j] for j in range(r)]  # columns of F[rank, k]
        self._order = np.argsort(event, kind="stable")  # groups by event, for reduceat
        self._present, self._starts = np.unique(event[self._order], return_index=True)

    @classmethod
    def detect(cls, coef: np.ndarray, digits: np.ndarray, card_of_class: np.ndarray):
        """The plan of a symmetric tabulation, or None when an event tells apart two
        multisets of one group.

        ``coef``: (events, M) ways of each multiset of classes in each event (the
        multiset's orderings where it pays, else 0); ``digits``: (M, r) the classes of
        each multiset; ``card_of_class``: the card (0-51, rank-major) of each class,
        one card a class.
        """
        events, m = coef.shape
        r = digits.shape[1]
        if m == 0 or r == 0:
            return None
        cards = card_of_class[digits]
        rank, suit = cards // SUITS, cards % SUITS
        one_suit = (suit == suit[:, :1]).all(axis=1)
        rank_sorted = np.sort(rank, axis=1)
        code = np.zeros(m, dtype=np.int64)
        for col in range(r):
            code = code * RANKS + rank_sorted[:, col]
        group = code * 2 + one_suit
        paying = coef > 0
        counts = np.stack([(digits == digits[:, [c]]).sum(axis=1) for c in range(r)], axis=1)
        # first occurrences only: prod of k_c! over the distinct classes of each multiset
        first = np.ones((m, r), dtype=bool)
        first[:, 1:] = digits[:, 1:] != digits[:, :-1]
        orderings = math.factorial(r) // np.prod(np.where(first, _factorials(counts), 1), axis=1)
        if (paying.sum(axis=0) > 1).any() or (coef.sum(axis=0) != np.where(paying.any(axis=0), orderings, 0)).any():
            return None  # not a plain symmetric count (weights, pins)
        event = np.where(paying.any(axis=0), paying.argmax(axis=0), events)
        # every multiset of a group present, with one event, or none present (pays nothing)
        found: dict[int, tuple[int, int]] = {}
        for g, e in zip(group.tolist(), event.tolist()):
            got = found.get(g)
            if got is None:
                found[g] = (e, 1)
            elif got[0] != e:
                return None
            else:
                found[g] = (e, got[1] + 1)
        rows = []
        for g, (e, n) in found.items():
            ranks = []
            c = g // 2
            for _ in range(r):
                ranks.append(c % RANKS)
                c //= RANKS
            mult = Counter(ranks)
            one = g % 2
            # multisets of cards in the group: suits of each rank chosen with repetition
            size = math.prod(math.comb(SUITS + k - 1, k) for k in mult.values())
            size = SUITS if one else size - SUITS
            if e >= events:
                continue  # pays nothing: nothing to count
            if n != size:
                return None  # part of the group pays nothing: not constant
            distinct = sorted(mult)
            rows.append(
                (
                    distinct + [RANKS] * (r - len(distinct)),
                    [mult[x] for x in distinct] + [0] * (r - len(distinct)),
                    math.factorial(r) // math.prod(math.factorial(k) for k in mult.values()),
                    one,
                    e,
                )
            )
        if not rows:
            return None
        rank_rows, mult_rows, orderings, one_suit, ev = (np.array(x, dtype=np.int64) for x in zip(*rows))
        return cls(r, rank_rows.reshape(-1, r), mult_rows.reshape(-1, r), orderings, one_suit.astype(bool), ev, events)

    def ways(self, card_counts, total: int, rest: int, big: bool = False) -> list[int]:
        """Ordered deals of each event: ``card_counts`` the shoe's 52 card counts
        (rank-major), ``total`` its cards, ``rest`` the ways of the positions not read
        (``(N - r) (N - r - 1) ... (N - 5)``).  In int64 (exact when ``N (N-1) ... (N-r+1)``,
        which bounds every product and sum before ``rest``, is below ``2**63``: the caller
        checks, :mod:`analyzer.core.ways`), or with ``big`` in Python integers."""
        dtype = object if big else np.int64
        n = np.zeros((RANKS + 1, SUITS + 1), dtype=dtype)  # row 13: no card; column 4: the rank
        n[:RANKS, :SUITS] = np.array(list(card_counts), dtype=dtype).reshape(RANKS, SUITS)
        n[:, SUITS] = n[:, :SUITS].sum(axis=1)
        f: np.ndarray = np.empty((RANKS + 1, SUITS + 1, self.r + 1), dtype=dtype)  # n (n-1) ... (n-k+1)
        f[:, :, 0] = 1
        for k in range(1, self.r + 1):
            f[:, :, k] = f[:, :, k - 1] * np.maximum(n - (k - 1), 0)
        f = f.transpose(1, 0, 2).reshape(SUITS + 1, -1)  # rows: the suits, then the rank
        prod = f[:, self._flat[0]]  # (suits + rank, groups)
        for j in range(1, self.r):
            prod = prod * f[:, self._flat[j]]
        one = prod[0] + prod[1] + prod[2] + prod[3]
        term = np.where(self.one_suit, one, prod[SUITS] - one) * self.orderings
        sums: np.ndarray | list[int] = np.add.reduceat(term[self._order], self._starts) if len(term) else []
        out = [0] * self.events
        for e, x in zip(self._present, sums):
            out[e] = int(x) * rest
        return out

    def float_exact(self, cards: int) -> bool:
        """True when :meth:`ways_many` is exact for a shoe of ``cards`` cards: every
        product counts ordered ``r``-card selections, and the sums of the rank
        multisets' parts with their signs stay within twice the ordered selections,
        ``2 N (N-1) ... (N-r+1)``, which must be at most ``2**53``."""
        if getattr(self, "_max_cards", None) is None:
            lo, hi = self.r, FLOAT_EXACT  # the bound holds at lo, fails at hi (r >= 1)
            while hi - lo > 1:  # perm(n, r) grows with n: bisect
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if 2 * math.perm(mid, self.r) <= FLOAT_EXACT else (lo, mid)
            self._max_cards = lo
        return cards <= self._max_cards

    def _batch_tables(self):
        """Per distinct rank multiset ``R``: the columns of ``F`` its product reads, as a
        pair of halves (distinct first halves x distinct second halves), and the weights
        ``(events, R x 5)`` of its products for each suit and for the rank: event ways
        are ``sum_R sum_suits W_one[R] suit(R) + W_rank[R] rank(R)`` (the part of
        several suits is the rank product less the one-suit sum, so ``W_one`` is
        ``-orderings`` there)."""
        if getattr(self, "_tables", None) is None:
            flat = np.stack(self._flat, axis=1)  # (groups, r)
            uniq, of = np.unique(flat, axis=0, return_inverse=True)
            of = of.ravel()
            h = (self.r + 1) // 2
            one_col = RANKS * (self.r + 1)  # rank 13, k 0: 1
            second = uniq[:, h:] if self.r > h else np.full((len(uniq), 1), one_col)
            halves = [np.unique(x, axis=0, return_inverse=True) for x in (uniq[:, :h], second)]
            w_one = np.zeros((len(uniq), self.events))
            w_rank = np.zeros((len(uniq), self.events))
            sign = np.where(self.one_suit, 1, -1)
            np.add.at(w_one, (of, self.event), sign * self.orderings)
            np.add.at(w_rank, (of, self.event), np.where(self.one_suit, 0, self.orderings))
            # one weight per (rank multiset, suit or rank) row of the products: (events, R x 5)
            weights = np.concatenate([np.repeat(w_one[:, None, :], SUITS, axis=1), w_rank[:, None, :]], axis=1)
            self._tables = (
                [(np.ascontiguousarray(u.T), inv.ravel()) for u, inv in halves],
                np.ascontiguousarray(weights.reshape(-1, self.events).T),
            )
        return self._tables

    def ways_many(self, card_counts: np.ndarray, rests) -> list[list[int]]:
        """:meth:`ways` of many shoes: ``card_counts`` ``(B, 52)``, ``rests`` each shoe's
        ways of the positions not read; in float64, every shoe within :meth:`float_exact`
        (checked).  Each rank multiset's product is a product of two halves, for the four
        suits and the rank together; the events' sums are one matrix product."""
        counts = np.asarray(card_counts, dtype=np.int64)
        b_count = counts.shape[0]
        if b_count and not self.float_exact(int(counts.sum(axis=1).max())):
            raise ValueError("a shoe beyond the float64 bound")
        halves, weights = self._batch_tables()
        n = np.zeros((RANKS + 1, SUITS + 1, b_count))  # rank 13: no card; row 4: the rank
        n[:RANKS, :SUITS] = counts.T.reshape(RANKS, SUITS, b_count)
        n[:, SUITS] = n[:, :SUITS].sum(axis=1)
        f: np.ndarray = np.empty((RANKS + 1, self.r + 1, SUITS + 1, b_count))  # F[rank, k] = n (n-1) ... (n-k+1)
        f[:, 0] = 1
        for k in range(1, self.r + 1):
            f[:, k] = f[:, k - 1] * np.maximum(n - (k - 1), 0)
        f = f.reshape((RANKS + 1) * (self.r + 1), SUITS + 1, b_count)
        parts = []
        for cols, of in halves:
            p = f[cols[0]]
            for c in cols[1:]:
                p = p * f[c]
            parts.append(p[of])
        prod = parts[0] * parts[1]  # (rank multisets, suits + rank, B)
        with one_blas_thread():
            sums = (weights @ prod.reshape(-1, b_count)).T.astype(np.int64).tolist()
        return [[x * rest for x in row] for row, rest in zip(sums, rests)]
