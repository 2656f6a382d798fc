"""Exact counts of events that read ranks and suits of the first two cards of each hand.

The value engine (:mod:`analyzer.core.engine`) counts by point value only.  Pair and
suit bets need to know *which* cards the first four positions hold.  Every
count is still over the same ``N (N-1) ... (N-5)`` ordered six-card deals.

Method.  Write the first four cards as the Player pair ``a = (P1, P2)`` and the
Banker pair ``b = (B1, B2)``, each a *class* of card: a rank (13 classes) when
only ranks matter, a rank and suit (52 classes) when suits matter.  For ordered
draws of distinct physical cards the weight factorises exactly:

    w(a, b) = w_P(a) * w_B(b | shoe - a),    w_P(a) = n[P1] (n[P2] - [P1 == P2])

and ``w_B(b | shoe - a)`` differs from ``w_B(b | shoe)`` only through the (at
most two) classes that ``a`` removed, so the sum over all ``b`` of one Banker
*signature* (the values of the Banker card features a bet reads) and one pair of
point values is a constant minus a few corrections looked up per ``a``::

    sum_b M(b) (n[B1] - A[B1]) (n[B2] - A[B2] - [B1 == B2])
      = T0 - sum_c A[c] (rowR[c] + colR[c]) + sum_{c, c'} A[c] A[c'] M(c, c')

with ``A`` the class multiplicities in ``a``.  This gives ``W(sig, v1..v4)``,
the weight of the first four cards for each Player/Banker signature and each
four point values.  The fifth and sixth cards only matter by point value:

    ways(E) = sum_{sig, v1..v4} W(sig, v1..v4) * sum_{v5, v6} [E | sig] (n'_{v5}) (n'_{v6} - [v5 == v6])

with ``n'`` the value counts left after the first four cards and ``[E | sig]``
the event with its card features fixed, a mask over the ``10**6`` value
sequences (shoe independent).  Integer arithmetic throughout: numpy ``int64``
under the same ``N (N-1) ... (N-5) < 2**63`` bound as the value engine, Python
integers (object arrays) above it.
"""

from __future__ import annotations

import numpy as np

from .cards import POINTS, RANKS
from .engine import CoupTable
from .errors import BetError
from .features import SUIT_FEATURES, View
from .ways import integer_arithmetic

RANK_LEVEL = "rank"
CARD_LEVEL = "card"


def _int64(backend: str, cards: int) -> bool:
    """Whether a shoe of ``cards`` cards is counted in int64 (else Python integers), as
    the evaluator decides (:func:`analyzer.core.ways.integer_arithmetic`)."""
    return integer_arithmetic(backend, cards) == "int64"


def level_for(features: frozenset[str]) -> str:
    """The coarsest card classes that can tell these features apart."""
    return CARD_LEVEL if features & SUIT_FEATURES else RANK_LEVEL


def _classes(level: str):
    """(rank number 1..13, suit 0..3 or -1, point value) of each class."""
    if level == RANK_LEVEL:
        ranks = np.arange(1, 14)
        suits = np.full(13, -1)
    else:
        ranks = np.repeat(np.arange(1, 14), 4)
        suits = np.tile(np.arange(4), 13)
    values = np.array([POINTS[RANKS[r - 1]] for r in ranks])
    return ranks, suits, values


class _Hand(View):
    """One hand's first two cards as a :class:`~analyzer.core.features.View`: the rank
    and suit of each card, over pairs of classes."""

    def __init__(self, hand: str, r1, s1, r2, s2):
        super().__init__()
        self._attrs = {
            (f"{hand}_card1", "rank"): r1,
            (f"{hand}_card1", "suit"): s1,
            (f"{hand}_card2", "rank"): r2,
            (f"{hand}_card2", "suit"): s2,
        }

    def attr(self, position: str, attribute: str) -> np.ndarray:
        return self._attrs[position, attribute]


class _Fixed(dict):
    """Feature arrays of ``base`` with some features fixed (a signature's values)."""

    def __init__(self, base, fixed):
        super().__init__(fixed)
        self._base = base

    def __missing__(self, name):
        return self._base[name]


class _Reducer:
    """Sum rows of an array over a fixed grouping (exact for any dtype)."""

    def __init__(self, keys: np.ndarray, size: int):
        self.order = np.argsort(keys, kind="stable")
        sorted_keys = keys[self.order]
        self.starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
        self.present = sorted_keys[self.starts]
        self.size = size

    def __call__(self, values: np.ndarray) -> np.ndarray:
        out = np.zeros((self.size,) + values.shape[1:], dtype=values.dtype)
        if values.dtype == object:
            out[...] = 0
        out[self.present] = np.add.reduceat(values[self.order], self.starts, axis=0)
        return out


class _PairSums:
    """Weights of the first four cards by (Player group, Banker group) of ordered class pairs.

    ``W[gp, gb] = sum over a in gp, b in gb of n[P1] (n[P2] - [P1 == P2]) (n[B1] - A[B1])
    (n[B2] - A[B2] - [B1 == B2])`` (``A``: the classes ``a`` took), by the correction
    formula of the module text; ``n`` is ``(k,)`` or ``(k, B)`` (one column a shoe),
    ``int64`` or Python integers (``object``).
    """

    def __init__(self, group_p, group_b, size_p: int, size_b: int, first, second, k: int):
        self.k, self.gb, self.first, self.second = k, size_b, first, second
        self.same = (first == second).astype(np.int64)
        self.sum_p = _Reducer(group_p, size_p)
        self.sum_b = _Reducer(group_b, size_b)
        self.row = _Reducer(group_b * k + first, size_b * k)
        self.col = _Reducer(group_b * k + second, size_b * k)
        # Shoe-independent correction: for a = (x, y), sum over (c, c') in {x, y}^2 of M(c, c').
        corr = np.zeros((k * k, size_b), dtype=np.int64)
        rows = np.arange(k * k)
        for u, v in ((first, first), (first, second), (second, first), (second, second)):
            np.add.at(corr, (rows, group_b[u * k + v]), 1)
        self.corr = corr

    def __call__(self, n: np.ndarray) -> np.ndarray:
        first, second, k, gb = self.first, self.second, self.k, self.gb
        tail = n.shape[1:]
        same = self.same.reshape((-1,) + (1,) * len(tail))
        n1, n2 = n[first], n[second]
        w_pair = n1 * (n2 - same)  # ordered draws of a hand's two cards
        t0 = self.sum_b(w_pair)  # (gb, ...)
        rc = self.row(n2 - same).reshape((gb, k) + tail) + self.col(n1).reshape((gb, k) + tail)
        rc = np.moveaxis(rc, 1, 0)  # (k, gb, ...)
        corr = self.corr if n.dtype != object else self.corr.astype(object)
        banker = t0[None] - rc[first] - rc[second] + corr.reshape(corr.shape + (1,) * len(tail))
        return self.sum_p(w_pair[:, None] * banker)  # (size_p, gb, ...)


def _by_equality(sig: np.ndarray, k: int):
    """``(signature of an unequal pair, of an equal pair)`` when a hand's signature only
    tells whether its two classes are equal (a pair, a suited pair), else ``None``."""
    same = np.eye(k, dtype=bool).ravel()
    on, off = np.unique(sig[same]), np.unique(sig[~same])
    return (int(off[0]), int(on[0])) if len(on) == 1 and len(off) == 1 else None


class _EqualityPairs:
    """:class:`_PairSums` of signatures that only tell equal from unequal classes, in
    closed form (``O(k)`` a shoe).  With ``f_j(c) = n_c (n_c - 1) ... (n_c - j + 1)``,
    ``S = sum_c f_2(c)`` and ``N`` the cards, the first four cards weigh

        both hands pairs:     sum_c f_4(c) + S**2 - sum_c f_2(c)**2
        Player pair (any B):  S (N-2) (N-3)   (the same for Banker: deals are exchangeable)

    and the other cells by difference from ``N (N-1) (N-2) (N-3)``.
    """

    def __init__(self, p_eq, b_eq, size_p: int, size_b: int):
        self.p_eq, self.b_eq, self.size_p, self.size_b = p_eq, b_eq, size_p, size_b

    def __call__(self, n: np.ndarray) -> np.ndarray:
        f2 = n * (n - 1)
        s, total = f2.sum(axis=0), n.sum(axis=0)
        both = (f2 * ((n - 2) * (n - 3))).sum(axis=0) + s * s - (f2 * f2).sum(axis=0)
        one = s * ((total - 2) * (total - 3)) - both  # this hand a pair, the other not
        four = total * (total - 1) * (total - 2) * (total - 3)
        cells = {(1, 1): both, (1, 0): one, (0, 1): one, (0, 0): four - both - 2 * one}
        out = np.zeros((self.size_p, self.size_b) + np.shape(s), dtype=n.dtype)
        if n.dtype == object:
            out[...] = 0
        for (ep, eb), w in cells.items():
            out[self.p_eq[ep], self.b_eq[eb]] += w
        return out


#: Most (Player signature, Banker signature, event) triples one tabulation
#: evaluates, and most distinct value masks it keeps (1 MB each): beyond these a
#: bet is refused before the work instead of running for minutes.
MAX_EVALUATIONS = 5_000
MAX_MASKS = 256


def _signatures(features: frozenset[str], prefix: str, level: str):
    """The distinct values of one hand's card features over every ordered pair of classes."""
    ranks, suits, _ = _classes(level)
    k = len(ranks)
    first, second = np.repeat(np.arange(k), k), np.tile(np.arange(k), k)
    r1, s1, r2, s2 = ranks[first], suits[first], ranks[second], suits[second]
    names = sorted(f for f in features if f.startswith(prefix))
    if not names:
        return names, np.zeros(k * k, dtype=np.int64), [()]
    hand = _Hand(prefix[:-1], r1, s1, r2, s2)
    cols = np.stack([np.asarray(hand[n]).astype(np.int64) for n in names], axis=1)
    uniq, inv = np.unique(cols, axis=0, return_inverse=True)
    return names, inv.ravel(), [tuple(int(x) for x in row) for row in uniq]


def evaluations(features: frozenset[str], level: str, events: int) -> int:
    """How many masks a tabulation of ``events`` reading ``features`` evaluates."""
    return len(_signatures(features, "player_", level)[2]) * len(_signatures(features, "banker_", level)[2]) * events


class CardTabulation:
    """Events reading card features, compiled once and counted on any shoe.

    ``events`` is a list of conditions already made mutually exclusive where
    needed (see :class:`analyzer.core.solver.Solver`): each is a callable taking a
    feature dict and returning a mask.
    """

    def __init__(self, events: list, features: frozenset[str], level: str, table: CoupTable, what: str = "these bets"):
        cost = evaluations(features, level, len(events))
        if cost > MAX_EVALUATIONS:
            raise BetError(
                f"{what}: the card features read ({', '.join(sorted(features))}) need about "
                f"{cost:,} evaluations of the coups, more than the {MAX_EVALUATIONS:,} this engine "
                "does in reasonable time; read fewer card features"
            )
        self.level = level
        self.events = len(events)
        ranks, _suits, values = _classes(level)
        k = len(ranks)
        self.k = k
        first = np.repeat(np.arange(k), k)  # first card of a hand's pair
        second = np.tile(np.arange(k), k)  # second card
        self._same = (first == second).astype(np.int64)
        p_names, sig_p, p_values = _signatures(features, "player_", level)
        b_names, sig_b, b_values = _signatures(features, "banker_", level)
        self.sp, self.sb = len(p_values), len(b_values)
        hand_values = values[first] * 10 + values[second]
        # (Player signature, v(P1), v(P2)) and (Banker signature, v(B1), v(B2))
        self._full = _PairSums(
            sig_p * 100 + hand_values, sig_b * 100 + hand_values, self.sp * 100, self.sb * 100, first, second, k
        )
        # signatures only: the events that read no point value (see ways_many)
        p_eq, b_eq = _by_equality(sig_p, k), _by_equality(sig_b, k)
        self._free: _EqualityPairs | _PairSums
        if p_eq and b_eq:
            self._free = _EqualityPairs(p_eq, b_eq, self.sp, self.sb)
        else:
            self._free = _PairSums(sig_p, sig_b, self.sp, self.sb, first, second, k)

        # Events with their card features fixed, for every signature pair: masks
        # over the value sequences, deduplicated.  ALL means "every sequence".
        base = table.features()
        shape = (10**4, 100)
        self._masks: list[np.ndarray] = []
        mask_index: dict[bytes, int] = {}
        self._terms: list[list[tuple[int, int, int]]] = [[] for _ in events]
        for ip, pv in enumerate(p_values):
            for ib, bv in enumerate(b_values):
                feats = _Fixed(base, {**dict(zip(p_names, pv)), **dict(zip(b_names, bv))})
                for e, fn in enumerate(events):
                    m = fn(feats)
                    if not m.any():
                        continue
                    if m.all():
                        j = -1
                    else:
                        key = np.packbits(m).tobytes()
                        got = mask_index.get(key)
                        if got is None:
                            if len(self._masks) >= MAX_MASKS:
                                raise BetError(
                                    f"{what}: the card features split the coups into more than "
                                    f"{MAX_MASKS} distinct events of point values, more than "
                                    "this engine holds in memory; read fewer card features"
                                )
                            got = mask_index[key] = len(self._masks)
                            self._masks.append(m.reshape(shape))
                        j = got
                    self._terms[e].append((ip, ib, j))
        # Point-value multiplicities of the first four cards, for each v1 v2 v3 v4.
        four = np.indices((10,) * 4).reshape(4, -1)
        self._used = np.stack([(four == v).sum(axis=0) for v in range(10)], axis=1)  # (10**4, 10)
        self._v5 = np.repeat(np.arange(10), 10)
        self._v6 = np.tile(np.arange(10), 10)
        self._same56 = (self._v5 == self._v6).astype(np.int64)
        #: no event reads a point value once its card signatures are fixed (pair bets):
        #: counted from the class counts alone, without the 10**4 value sequences
        self.value_free = not self._masks

    def ways_many(self, class_counts, value_counts, chunk: int = 64, backend: str = "auto") -> list[list[int]]:
        """:meth:`ways` of many shoes (rows of class counts and of value counts), equal
        list for list.  Events that read no point value (``value_free``) under the int64
        bound are counted ``chunk`` shoes at a time from the class counts alone:

            ways(E) = (N-4)(N-5) * sum over its signature pairs of W(sig_P, sig_B)

        with ``W`` the weight of the first four cards by signature (the sum over point
        values of what :meth:`ways` crosses with the fifth and sixth cards, whose values
        are then free).  Other shoes and tabulations take :meth:`ways`, one by one
        (``backend``: as there).
        """
        out: list = [None] * len(class_counts)
        small = []
        for i, vc in enumerate(value_counts):
            if self.value_free and _int64(backend, sum(vc)):
                small.append(i)
            else:
                out[i] = self.ways(class_counts[i], vc, backend)
        for start in range(0, len(small), chunk):
            part = small[start : start + chunk]
            n = np.array([class_counts[i] for i in part], dtype=np.int64).T  # (k, B)
            w = self._free(n).reshape(self.sp, self.sb, len(part)).tolist()
            for col, i in enumerate(part):
                total = sum(value_counts[i])
                full = (total - 4) * (total - 5)
                out[i] = [sum(w[ip][ib][col] for ip, ib, _ in terms) * full for terms in self._terms]
        assert all(o is not None for o in out)
        return out

    def ways(self, class_counts, value_counts, backend: str = "auto") -> list[int]:
        """Exact ways of each event; ``class_counts`` per rank (13) or per card (52).
        ``backend`` (:mod:`analyzer.core.backend`): ``"int64"`` under its bound (refused
        beyond); ``"auto"`` int64 under the bound, else Python integers; any other,
        Python integers (this engine has no float64 or residue plan)."""
        if not self.value_free:
            return self.ways_by_values(class_counts, value_counts, backend)
        total = sum(value_counts)
        dtype = np.int64 if _int64(backend, total) else object
        w = self._free(np.array(class_counts, dtype=dtype)).tolist()
        full = (total - 4) * (total - 5)
        return [sum(int(w[ip][ib]) for ip, ib, _ in terms) * full for terms in self._terms]

    def ways_by_values(self, class_counts, value_counts, backend: str = "auto") -> list[int]:
        """:meth:`ways` through the ``10**4`` point values of the first four cards (every
        tabulation; the only path for events that read point values)."""
        total = sum(value_counts)
        dtype = np.int64 if _int64(backend, total) else object
        n = np.array(class_counts, dtype=dtype)
        w = self._full(n)  # (sp*100, sb*100)
        w = w.reshape(self.sp, 10, 10, self.sb, 10, 10).transpose(0, 3, 1, 4, 2, 5)
        w = w.reshape(self.sp, self.sb, 10**4)  # index v1 v2 v3 v4 = shoe order P1 B1 P2 B2
        full = (total - 4) * (total - 5)
        rest = []
        if self._masks:
            left = np.array(value_counts, dtype=dtype)[None, :] - (
                self._used if dtype is np.int64 else self._used.astype(object)
            )
            fill = left[:, self._v5] * (left[:, self._v6] - self._same56)  # (10**4, 100)
            rest = [(fill * m).sum(axis=1) for m in self._masks]
        out = []
        for terms in self._terms:
            acc = 0
            for ip, ib, j in terms:
                wv = w[ip, ib]
                acc += int(wv.sum()) * full if j < 0 else int(wv @ rest[j])
            out.append(acc)
        return out
