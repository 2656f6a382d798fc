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
    codes, shoe_of = dealt_order(log)
    if log.value_level:
        sym = np.array(CARD_POINT, dtype=np.int64)[codes]
        counts = shoe.value_counts
        labels = tuple(f"+{d}" for d in range(10))
        title = TITLE.replace("13", "10") + ", point values"
    else:
        sym = codes // 5
        counts = shoe.rank_tuple
        labels = tuple(f"+{d}" for d in range(13))
        title = TITLE
    M = len(counts)
    same = shoe_of[1:] == shoe_of[:-1]
    steps = ((sym[1:] - sym[:-1]) % M)[same]
    if steps.size == 0:
        return None
    # pairs per shoe, grouped by the shoe's seen cards (known, so taken out of the shoe)
    per_shoe = np.bincount(shoe_of[1:][same], minlength=log.shoes)
    seen_of: dict[int, list[int]] = {}
    for k, cs in log.seen.items():
        seen_of.setdefault(int(log.shoe[k]), []).extend(
            CARD_POINT[c] if log.value_level else c // 5 for c in cs)
    groups: dict[tuple[int, ...], int] = {}
    for s_idx in np.flatnonzero(per_shoe).tolist():
        key = tuple(sorted(seen_of.get(s_idx, ())))
        groups[key] = groups.get(key, 0) + int(per_shoe[s_idx])
    expected = [Fraction(0)] * M
    variance = [Fraction(0)] * M
    cov = np.zeros((M, M))
    for key, L in groups.items():
        left = list(counts)
        for r in key:
            left[r] -= 1
        if min(left) < 0 or sum(left) < 2:
            return None
        p = step_probabilities(left)
        pf = np.array([float(x) for x in p])
        expected = [e + L * x for e, x in zip(expected, p)]
        variance = [v + L * x * (1 - x) for v, x in zip(variance, p)]
        cov += L * (np.diag(pf) - np.outer(pf, pf))
    fam = Family("order", title, labels, np.zeros(1, dtype=np.int16))
    return FamilyReference(fam, expected, variance, cov), np.bincount(steps, minlength=M)


__all__ = ["card_order", "dealt_order", "step_probabilities"]
