"""Exact counts of events that read any card of the coup: ranks, suits, colours, faces.

The value engine (:mod:`analyzer.core.engine`) counts by point value only.  This
engine counts events on the rank, suit, colour or face of any dealt card, on
counts over groups of cards, on pairs, flushes and straights.  Every count is
over the same ``N (N-1) ... (N-5)`` ordered six-card deals.

Classes.  A bet tells cards apart only through what it reads: the attributes
of single cards (``rank``, ``suit``...), the card predicates of its counting
functions (``face``, ``colour == red``...), and, when the drawing matters, the
point value.  Cards alike in all of these form one *class*; the engine counts
sequences of classes, not of cards.  Lucky Nines (nines and their suits, first
four cards) has 5 classes; All Red (colour and value) 20; a four-card poker bet
52.

Counting.  The weight of an ordered deal of classes ``c1 .. cd`` is
``prod_i (n[c_i] - j_i)``, with ``j_i`` the number of earlier cards of the same
class, times ``(N - d) (N - d - 1) ... (N - 5)`` for the positions the bet does
not read.  That weight depends only on the *multiset* of classes, so for every
event the engine keeps ``coef(event, m)``, the number of class sequences of
multiset ``m`` in the event (shoe independent, built once), and a shoe costs
one product per multiset and one integer matrix-vector product.

Which sequences.  A bet that reads only cards among the first four, and no
total or outcome, is counted over those positions alone (``K**r`` sequences
for ``K`` classes and ``r`` positions; as multisets when it reads them so, and
per rank multiset when only ranks and one-suitedness matter: :mod:`.rankflush`).
Otherwise every dealt sequence of point values expands into its sequences of
classes, estimated first: beyond the budget a bet is refused with the estimate.
Exact: ``int64`` under ``2**63``, beyond it residues (:mod:`.modular`).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from .classbatch import shoe_rows
from .engine import POSITIONS, CoupTable
from .errors import BetError
from .features import CARD_TABLE as _TABLE, DEAL_POSITIONS, DEAL_SLOTS, DEAL_SLOTS_BY_DRAW, FIRST_FOUR, REGISTRY, Cards
from .reads import FIRST_FOUR_VALUES, classes_for, first_four_reads, reads_drawing  # noqa: F401 (the engine's API)
from .ways import WaysTable

#: Most class sequences one tabulation enumerates by default (in chunks of
#: :data:`CHUNK`, about 15 s): beyond it a bet is refused before the work.
MAX_SEQUENCES = 40_000_000
#: Most a user may raise that budget to (``--card-budget``): about a minute per 10**8.
MAX_BUDGET = 1_000_000_000
#: Most distinct class multisets one tabulation keeps.  Chunks are merged as they go, so
#: its working memory grows with these, not with the sequences: about 450 bytes each
#: (1.9 GB for a bet of 3,991,044 within the default budget); the catalog's largest
#: table has 81,279.  Beyond it a compile stops with a one-line refusal.
MAX_MULTISETS = 1_000_000
CHUNK = 1 << 20
#: Chunks of per-multiset counts kept before they are merged into one.
MERGE_EVERY = 8


def _merge(pairs, counts):
    """Chunks of (pair code, count) as one: the distinct codes, ascending, their counts
    summed (a pair code is ``multiset code * events + event``)."""
    if not pairs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    pairs, counts = np.concatenate(pairs), np.concatenate(counts)
    if not len(pairs):
        return pairs, counts
    order = np.argsort(pairs)
    pairs, counts = pairs[order], counts[order]
    starts = np.flatnonzero(np.r_[True, pairs[1:] != pairs[:-1]])
    return pairs[starts], np.add.reduceat(counts, starts)


def _sorting_network(n: int) -> list[tuple[int, int]]:
    """Compare-exchange pairs ``(i, j)``, ``i < j``, that sort any ``n`` values (n <= 6;
    Knuth's optimal networks): after each, ``v[i] <= v[j]``."""
    return {
        0: [],
        1: [],
        2: [(0, 1)],
        3: [(1, 2), (0, 2), (0, 1)],
        4: [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)],
        5: [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)],
        6: [(1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4), (2, 5), (0, 3), (1, 4), (2, 4), (1, 3), (2, 3)],
    }[n]


def sort_columns(columns) -> list[np.ndarray]:
    """The rows of ``columns`` (a sequence of up to 6 equal-length arrays) sorted, as columns:
    a sorting network of elementwise minima and maxima (a row sort of six values costs
    more than these twelve passes)."""
    out = list(columns)
    for i, j in _sorting_network(len(out)):
        out[i], out[j] = np.minimum(out[i], out[j]), np.maximum(out[i], out[j])
    return out


class _Computed(dict):
    """A mapping whose values are computed from their key when first read, and kept."""

    def __init__(self, compute):
        super().__init__()
        self._compute = compute

    def __missing__(self, key):
        out = self[key] = self._compute(key)
        return out


class _Features(Cards):
    """Feature arrays of a chunk of class sequences, computed when first read: from the
    registry (:data:`analyzer.core.features.REGISTRY`) over the sequences' cards
    (``card(position)``: the cards at a position, ``KeyError`` for one the chunk does
    not hold), and a point-value feature of the drawing from the coup table's row of
    each sequence (``index()``; ``None`` when the events read the first four cards only)."""

    def __init__(self, table_features, index, card, naturals=(8, 9)):
        super().__init__({}, naturals)
        self._cards = _Computed(card)
        self._table, self._index, self._rows = table_features, index, None

    def __missing__(self, name):
        feature = REGISTRY.get(name)
        if self._index is not None and feature is not None and feature.level == "value":
            if self._rows is None:
                self._rows = self._index()
            out = self[name] = self._table[name].take(self._rows)
            return out
        return super().__missing__(name)


_SLOT_NAMES = {
    0: ("player_card1", "card1"),
    1: ("banker_card1", "card2"),
    2: ("player_card2", "card3"),
    3: ("banker_card2", "card4"),
}


def _holds(branch, f) -> np.ndarray:
    """Rows where every ``all(GROUP, TEST)`` of ``branch`` holds (dealt cards only)."""
    out = None
    for group, pred in branch:
        test = np.append(np.asarray(pred, dtype=bool), True)  # no card: nothing to test
        for name in group:
            m = test[f["card:" + name]]
            out = m if out is None else out & m
    assert out is not None  # a branch of requires holds at least one test
    return out


#: The code of a position where no card is drawn (:func:`_dealt_sequences`): a drawn card's
#: code is ``10 * drew + value`` (``drew``: 1 when the Player drew), 0 to 19.
NOT_DRAWN = 20
#: The coarse digit of each code: the point value drawn, 10 for no card.
_COARSE_OF_CODE = np.array(list(range(10)) * 2 + [10], dtype=np.int64)


def _nondecreasing(k: int, r: int) -> list[np.ndarray]:
    """Every nondecreasing ``r``-tuple of ``0 .. k-1`` (the multisets of ``r`` of ``k``
    classes), as ``r`` columns, in lexicographic order.

    >>> [c.tolist() for c in _nondecreasing(3, 2)]
    [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    """
    cols = [np.arange(k, dtype=np.int64)]
    for _ in range(1, r):
        last = cols[-1]
        fan = k - last  # a row ending in v goes on with v .. k-1
        starts = np.cumsum(fan) - fan
        nxt = np.arange(int(fan.sum()), dtype=np.int64) - np.repeat(starts - last, fan)
        cols = [np.repeat(c, fan) for c in cols] + [nxt]
    return cols


@functools.lru_cache(maxsize=8)
def _dealt_sequences(table: CoupTable, forced: tuple[int, ...]):
    """The dealt sequences of point values of ``table`` (one row per coup, its unused
    positions left out; ``forced`` positions 4 and 5 drawn whether used or not):
    ``(index into the table, codes (6, rows), used (rows, 6))``, ``codes[p]`` the code
    of the card drawn at position ``p`` of each (``10 * drew + value``, ``drew`` 1 when
    the Player drew; :data:`NOT_DRAWN` where none is), one contiguous row a position.
    Shared by every tabulation of the rule set (read only)."""
    d = table.cards_dealt
    idx = np.arange(table.size)
    c5, c6 = (idx // 10) % 10, idx % 10
    drawn = [d >= 5, d >= 6]
    for p in forced:
        drawn[p - 4] = np.ones_like(drawn[p - 4])
    rows = np.flatnonzero((drawn[0] | (c5 == 0)) & (drawn[1] | (c6 == 0)))
    values = np.stack([table.p1[rows], table.b1[rows], table.p2[rows], table.b2[rows], c5[rows], c6[rows]]).astype(
        np.int64
    )
    used = np.arange(POSITIONS)[None, :] < d[rows][:, None]
    drew = (table.player_cards[rows] == 3).astype(np.int64)
    dealt = used.T.copy()
    for p in forced:
        dealt[p] = True
    codes = np.ascontiguousarray(np.where(dealt, 10 * drew[None, :] + values, NOT_DRAWN))
    for a in (rows, codes, used):
        a.flags.writeable = False
    return rows, codes, used


class ClassTabulation:
    """Events on any card of the coup, compiled once, counted exactly on any shoe.

    ``events``: the conditions' evaluators ``fn(features) -> bool array``, in pay
    table order (the first that holds pays); ``card_keys`` and ``positions`` as
    the conditions report them; ``drawing``: whether the events read the drawing
    (see :func:`reads_drawing`); ``requires``: each event's ``all(...)`` tests;
    ``symmetric``: the events read the first four cards only as a multiset;
    ``pins``: known cards (dealing position 0-5 -> the 52 cards it may hold);
    ``budget``: most class sequences to enumerate; ``progress(total, what)``:
    a bar with ``update(n)`` and ``close()``; ``chunk``: sequences enumerated at a
    time (memory is bounded by the chunk and the distinct multisets, whatever the
    number of sequences); ``defer``: estimate the sequences (:attr:`sequences`, the
    budget checked) and wait for :meth:`compile` to enumerate them.  :meth:`ways`
    returns the ordered
    six-card deals of each event.
    """

    def __init__(
        self,
        events,
        card_keys,
        positions,
        drawing: bool,
        table: CoupTable,
        what: str = "bet",
        budget: int | None = None,
        progress=None,
        requires=None,
        symmetric: bool = False,
        pins=None,
        chunk: int = CHUNK,
        defer: bool = False,
    ):
        self.events = len(events)
        self._chunk = chunk
        self._naturals = table.rules.naturals
        self._onehot = None  # the classes' one-hot, for batches of suited shoes
        # pins: {dealing position 0-5: 52 booleans}, the cards a known position may hold;
        # a pinned fifth or sixth card is drawn whether or not the coup uses it
        pins = dict(pins or {})
        self._pins = pins
        if pins:
            card_keys = set(card_keys) | {("pred", tuple(bool(x) for x in m)) for m in pins.values()}
            positions = set(positions) | {DEAL_POSITIONS[p] for p in pins}
            drawing = drawing or any(p >= 4 for p in pins)
            symmetric = False
        self.classes = classes_for(card_keys, drawing)
        k = self.k = int(self.classes.max()) + 1
        rep = np.zeros(k, dtype=np.int64)
        rep[self.classes[::-1]] = np.arange(51, -1, -1)  # lowest card of each class
        self.rep = np.append(rep, -1)  # class k: no card
        self._rank_uniform = all(len(set(self.classes[4 * r : 4 * r + 4])) == 1 for r in range(13))
        self.class_value = _TABLE["value"][:52][rep]
        budget = MAX_SEQUENCES if budget is None else budget
        self.what = what
        # One pass over every sequence; or, when every event requires all the cards
        # of some group to pass a test (all(GROUP, ...)), one pass per alternative of
        # those tests over the sequences that can hold it, for the events that share
        # those alternatives (their first-match test still decides).
        passes: list[tuple[Any, tuple[int, ...] | None, tuple | None]] = [(self._allowed(()), None, None)]
        if requires and all(requires):
            sharing: dict[tuple, list[int]] = {}
            for i, alternatives in enumerate(requires):
                sharing.setdefault(tuple(alternatives), []).append(i)
            passes = [
                (self._allowed(branch), tuple(only), (branch, alternatives[:j]))
                for alternatives, only in sharing.items()
                for j, branch in enumerate(alternatives)
            ]

        def plan_of(allowed):
            return (
                self._drawn_plan(table, positions, allowed)
                if drawing
                else self._first_four_plan(positions, allowed, symmetric)
            )

        # a drawing pass's plan holds arrays over every dealt sequence of values (tens of MB):
        # with several passes, each is counted first, then built again when its turn comes
        plans: list[Any]  # a plan, or None: built when its pass comes
        if drawing and len(passes) > 1:
            totals, plans = [plan_of(allowed)["total"] for allowed, _, _ in passes], [None] * len(passes)
        else:
            plans = [plan_of(allowed) for allowed, _, _ in passes]
            totals = [p["total"] for p in plans]
        self.sequences = sum(totals)
        if self.sequences > budget:
            raise BetError(
                f"{what}: {self.sequences:,} sequences of {k} card classes over the cards it reads, "
                f"more than the budget of {budget:,}; read fewer card features"
            )
        self._pending: tuple | None = (events, table, plans, plan_of, passes, drawing)
        if not defer:
            bar = progress(self.sequences, what) if progress is not None else None
            self.compile(bar)
            if bar is not None:
                bar.close()

    def compile(self, bar=None) -> None:
        """Enumerate the sequences estimated at construction (``bar.update(n)`` as they go)
        and build :attr:`ways_table`; nothing to do once compiled."""
        if self._pending is None:
            return
        events, table, plans, plan_of, passes, drawing = self._pending
        pairs, counts = [], []
        for plan, (allowed, only, earlier) in zip(plans, passes):
            plan = plan_of(allowed) if plan is None else plan
            chunks = self._drawn_chunks(table, plan) if drawing else self._first_four_chunks(plan)
            for fine, high, f, weight in chunks:
                n = fine.shape[1]
                index = self._event_index(events, only, earlier, f, n)
                # the sequences in an event, as (multiset, event) pair codes: a dense
                # (multisets x events) array per chunk would hold mostly zeros
                inside = np.flatnonzero(index < self.events)
                code = self._encode(fine[:, inside], high(inside)) * self.events + index[inside]
                if weight is None:
                    pair, c = np.unique(code, return_counts=True)
                else:
                    pair, where = np.unique(code, return_inverse=True)
                    c = np.zeros(len(pair), dtype=np.int64)
                    np.add.at(c, where.ravel(), weight[inside])
                pairs.append(pair)
                counts.append(c.astype(np.int64, copy=False))
                del index, inside, code, pair, c
                if len(pairs) >= MERGE_EVERY:
                    # memory bounded by the distinct (multiset, event) pairs, not by the sequences
                    merged = _merge(pairs, counts)
                    pairs, counts = [merged[0]], [merged[1]]
                    self._check_multisets(merged[0] // self.events)
                if bar is not None:
                    bar.update(n)
            plan = chunks = fine = high = f = weight = None  # this pass's arrays, before the next
        pair, summed = _merge(pairs, counts)
        keys, columns = pair // self.events, pair % self.events
        # the multisets in some event (none when an impossible card test admits no sequence)
        uniq, inv = np.unique(keys, return_inverse=True)
        self._check_multisets(uniq)
        coef = np.zeros((self.events, len(uniq)), dtype=np.int64)  # (events, multisets)
        coef[columns, inv.ravel()] = summed  # distinct pairs
        del keys, inv, columns, summed
        self.coef = coef
        self._plan(uniq)
        self.multisets = len(uniq)
        #: the compiled table (:class:`analyzer.core.ways.WaysTable`), whose evaluator counts
        #: every shoe (a poker-like bet on the first cards as a multiset per rank multiset,
        #: batches in float64 blocks: plans of that evaluator)
        self.ways_table = WaysTable(self.coef, self.idx, self.off, self.k, self.classes)
        self._pending = None

    def _event_index(self, events, only, earlier, f, n: int) -> np.ndarray:
        """Each sequence's event, the first whose condition holds (:attr:`events` for
        none); in a pass for the events ``only``, those events alone, on the sequences
        where the pass's alternative (``earlier``: it and the alternatives before it)
        is the first to hold."""
        index = np.full(n, self.events, dtype=np.int64)
        taken = np.zeros(n, dtype=bool)
        for i, fn in enumerate(events[: None if only is None else max(only) + 1]):
            m = np.broadcast_to(np.asarray(fn(f), dtype=bool), taken.shape) & ~taken
            index[m] = i
            taken |= m
        if only is not None:
            index[~np.isin(index, only)] = self.events
            # a row counts in the pass of the first alternative that holds on it
            own, before = earlier
            index[~_holds(own, f)] = self.events
            for branch in before:
                index[_holds(branch, f)] = self.events
        return index

    def _check_multisets(self, keys: np.ndarray) -> None:
        """Refuse, in one line, a tabulation beyond :data:`MAX_MULTISETS` distinct multisets
        (``keys``: the sorted multiset codes of merged (multiset, event) pairs)."""
        if len(keys) > MAX_MULTISETS and np.count_nonzero(np.diff(keys)) + 1 > MAX_MULTISETS:
            raise BetError(
                f"{self.what}: more than {MAX_MULTISETS:,} distinct multisets of {self.k} card "
                f"classes over the cards it reads, beyond the memory budget; "
                f"read fewer card features"
            )

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays a shoe's count reads (what keeping this tabulation costs)."""
        return self.ways_table.nbytes

    # -- a compiled tabulation as arrays (what a persistent store keeps) ----------------
    def arrays(self) -> dict[str, np.ndarray]:
        """The compiled tabulation as plain integer arrays (:meth:`from_arrays` gives it back)."""
        self.compile()
        return {
            "coef": self.coef,
            "idx": self.idx,
            "off": self.off,
            "classes": self.classes,
            "sequences": np.array([self.sequences], dtype=np.int64),
        }

    @classmethod
    def from_arrays(cls, arrays) -> ClassTabulation:
        """A compiled tabulation from :meth:`arrays`, checked: arrays of the wrong kind,
        shape or range (a damaged or foreign store) raise ``ValueError``, so that a store
        is never trusted."""
        coef, idx, off, classes = (np.asarray(arrays[n]) for n in ("coef", "idx", "off", "classes"))
        sequences = np.asarray(arrays["sequences"])
        if any(a.dtype != np.int64 for a in (coef, idx, off, classes, sequences)):
            raise ValueError("a compiled tabulation holds int64 arrays")
        if classes.shape != (52,) or classes.min() < 0 or sequences.shape != (1,) or sequences[0] < 0:
            raise ValueError("a compiled tabulation's classes are one per card")
        k = int(classes.max()) + 1
        if sorted(set(classes.tolist())) != list(range(k)):
            raise ValueError("a compiled tabulation's classes are numbered 0 .. k-1")
        m = coef.shape[1] if coef.ndim == 2 else -1
        if m < 0 or idx.shape != (m, POSITIONS) or off.shape != (m, POSITIONS):
            raise ValueError("a compiled tabulation's factors are six per multiset")
        if m and (idx.min() < 0 or idx.max() > k + 10 or off.min() < 0 or off.max() >= POSITIONS or coef.min() < 0):
            raise ValueError("a compiled tabulation's factors index its extended counts")
        self = cls.__new__(cls)
        self.events = coef.shape[0]
        self._onehot = None
        self._pending = None
        self.classes, self.k = classes, k
        self._rank_uniform = all(len(set(classes[4 * r : 4 * r + 4].tolist())) == 1 for r in range(13))
        self.coef, self.idx, self.off = coef, idx, off
        self.multisets, self.sequences = m, int(sequences[0])
        self.ways_table = WaysTable(coef, idx, off, k, classes)
        return self

    def _allowed(self, requirements):
        """Per dealing position 0-5, the classes an event admits there: a pair of
        masks (when the Player stood, when the Player drew; None: any class)."""
        allowed = [[None, None] for _ in range(POSITIONS)]

        def restrict(p, drew, ok):
            cur = allowed[p][drew]
            allowed[p][drew] = ok if cur is None else cur & ok

        for p, cards in self._pins.items():
            for drew in (0, 1):
                restrict(p, drew, np.asarray(cards, dtype=bool)[self.rep[:-1]])
        for group, pred in requirements:
            ok = np.asarray(pred, dtype=bool)[self.rep[:-1]]
            for name in group:
                # a hand's third card is the fifth card if the Player drew it, the
                # Banker's is the sixth then, else the fifth (features.DEAL_SLOTS_BY_DRAW)
                for p, drew in DEAL_SLOTS_BY_DRAW[name]:
                    if p >= 4 and p in self._pins:
                        continue  # drawn whether or not the coup uses it
                    restrict(p, drew, ok)
        return allowed

    def _encode(self, fine, high):
        """One integer per multiset, a column of ``fine`` (its classes) with ``high`` (the
        code of its sorted coarse values): the sorted classes as digits in base ``k + 1``,
        the smallest the lowest, below ``high``."""
        key = np.array(high, dtype=np.int64)
        for col in reversed(sort_columns(fine)):
            key *= self.k + 1
            key += col
        return key

    def _plan(self, keys):
        """For each multiset, the six factors ``n_ext[idx] - off`` of its weight, where
        ``n_ext`` is (class counts, value counts, N): fine cards draw from their class,
        coarse cards from what their value has left, unread positions from the rest."""
        k, nf, nc = self.k, self.fine_width, self.coarse_width
        m = len(keys)
        digits = np.zeros((m, POSITIONS), dtype=np.int64)
        rest = keys.copy()
        for col in range(POSITIONS):
            base = k + 1 if col < nf else 11
            digits[:, col] = rest % base if col < nf + nc else (k if col < nf else 10)
            rest //= base
        fine = digits[:, :nf]
        coarse = digits[:, nf:]
        idx = np.zeros((m, POSITIONS), dtype=np.int64)
        off = np.zeros((m, POSITIONS), dtype=np.int64)
        value_of = np.append(self.class_value, -1)
        fine_of_value = np.stack([(value_of[fine] == v).sum(axis=1) for v in range(10)], axis=1)
        dealt = np.concatenate([fine < k, coarse < 10], axis=1)
        for col in range(POSITIONS):
            prev = [c for c in range(col) if (c < nf) == (col < nf)]
            if col < nf:
                d = digits[:, col]
                idx[:, col] = d
                off[:, col] = sum((digits[:, c] == d).astype(np.int64) for c in prev) if prev else 0
            else:
                v = digits[:, col]
                idx[:, col] = k + v
                same = sum((digits[:, c] == v).astype(np.int64) for c in prev) if prev else 0
                off[:, col] = same + fine_of_value[np.arange(m), np.minimum(v, 9)]
        # positions with no card read: the rest of the shoe, N - d, N - d - 1, ...
        ndealt = dealt.sum(axis=1)
        order = np.cumsum(~dealt, axis=1) - 1
        idx = np.where(dealt, idx, k + 10)
        off = np.where(dealt, off, ndealt[:, None] + order)
        self.idx, self.off = idx, off

    # -- enumeration ---------------------------------------------------------
    def _first_four_plan(self, positions, allowed, symmetric):
        """The sequences of classes at the first-four positions the events read."""
        slots = sorted({FIRST_FOUR[p] for p in positions if p in FIRST_FOUR})
        self.fine_width, self.coarse_width = len(slots), 0
        alphabets = [
            np.arange(self.k) if allowed is None or allowed[s][0] is None else np.flatnonzero(allowed[s][0])
            for s in slots
        ]
        symmetric = symmetric and all(len(a) == self.k for a in alphabets)
        total = int(np.prod([len(a) for a in alphabets])) if slots else 1
        if symmetric and slots:
            total = math.comb(self.k + len(slots) - 1, len(slots))
        return {"slots": slots, "alphabets": alphabets, "symmetric": symmetric, "total": total}

    def _first_four_chunks(self, plan):
        """The plan's class sequences in chunks of about :attr:`_chunk`: ``(classes,
        high, features, weight)``, ``classes`` one row a slot (``int8``), ``high(sel)``
        the coarse part of the selected sequences' multiset codes (none here: 0),
        ``weight`` the sequences each stands for (``None``: one)."""
        slots, alphabets = plan["slots"], plan["alphabets"]

        def high(sel):
            return np.zeros(len(sel), dtype=np.int64)

        if not slots:
            f = _Features({}, None, {}.__getitem__, self._naturals)
            f["winner"] = np.zeros(1, dtype=np.int8)
            yield np.zeros((0, 1), dtype=np.int8), high, f, None
            return
        pieces: list[tuple[np.ndarray, np.ndarray | None]] = []
        if plan["symmetric"]:
            # the events read the cards only as a multiset: one row per multiset,
            # weighted by its number of orderings
            combos = np.stack(_nondecreasing(self.k, len(slots)))
            mult = np.ones(combos.shape[1], dtype=np.int64)
            run = np.ones(combos.shape[1], dtype=np.int64)
            for col in range(1, len(slots)):
                run = np.where(combos[col] == combos[col - 1], run + 1, 1)
                mult *= run
            weights = math.factorial(len(slots)) // mult
            chunk = self._chunk
            pieces = [(combos[:, i : i + chunk], weights[i : i + chunk]) for i in range(0, combos.shape[1], chunk)]
        else:
            sizes = [len(a) for a in alphabets]
            step = max(1, self._chunk // max(1, int(np.prod(sizes[1:]))))
            for start in range(0, sizes[0], step):
                head = alphabets[0][start : start + step]
                grid = np.indices((len(head),) + tuple(sizes[1:])).reshape(len(slots), -1)
                pieces.append((np.stack([head[grid[0]]] + [alphabets[j][grid[j]] for j in range(1, len(slots))]), None))
        slot_of = {name: j for j, slot in enumerate(slots) for name in _SLOT_NAMES[slot]}
        for fine, weight in pieces:
            fine = fine.astype(np.int8)
            f = _Features({}, None, lambda name, fine=fine: self.rep.take(fine[slot_of[name]]), self._naturals)
            f["winner"] = np.zeros(fine.shape[1], dtype=np.int8)
            yield fine, high, f, weight

    def _drawn_plan(self, table: CoupTable, positions, allowed):
        """Every dealt sequence of point values and how many class sequences it expands to."""
        k = self.k
        fine_slots = sorted({s for p in positions for s in DEAL_SLOTS[p]})
        coarse_slots = [p for p in range(POSITIONS) if p not in fine_slots]
        self.fine_width, self.coarse_width = len(fine_slots), len(coarse_slots)
        value52 = _TABLE["value"][:52]
        width = 7 if k < 7 else k
        # by code (_dealt_sequences): the classes a card of that value may be there, and how many
        by_value, size = {}, {}
        for p in fine_slots:
            by_value[p] = np.full((NOT_DRAWN + 1, width), k, dtype=np.int64)  # no card: class k
            size[p] = np.ones(NOT_DRAWN + 1, dtype=np.int64)  # ... one way
            for drew in (0, 1):
                ok = (
                    allowed[p][drew] if allowed is not None and allowed[p][drew] is not None else np.ones(k, dtype=bool)
                )
                for v in range(10):
                    c = np.unique(self.classes[(value52 == v) & ok[self.classes]])
                    size[p][10 * drew + v] = len(c)
                    by_value[p][10 * drew + v, : len(c)] = c
        rows, codes, used = _dealt_sequences(table, tuple(p for p in (4, 5) if p in self._pins))
        fan = {p: size[p].take(codes[p]) for p in fine_slots}
        expand = np.ones(len(rows), dtype=np.int64)
        for p in fine_slots:
            expand *= fan[p]
        if not expand.all():
            keep = np.flatnonzero(expand)
            rows, codes, used, expand = rows[keep], codes[:, keep], used[keep], expand[keep]
            fan = {p: f[keep] for p, f in fan.items()}
        # the coarse part of each row's multiset codes: its sorted coarse values in base 11
        # (10: no card), the fine digits below them (_encode)
        high = np.zeros(len(rows), dtype=np.int64)
        for col in reversed(sort_columns([_COARSE_OF_CODE.take(codes[p]) for p in coarse_slots])):
            high = high * 11 + col
        return {
            "fine": fine_slots,
            "by_value": by_value,
            "rows": rows,
            "codes": codes,
            "used": used,
            "fan": fan,
            "high": high,
            "total": int(expand.sum()),
        }

    def _drawn_chunks(self, table: CoupTable, plan):
        """The plan's class sequences in chunks of about :attr:`_chunk`, as
        :meth:`_first_four_chunks` gives them: every value row expands into each choice
        of a class at each fine slot (``fan[p]`` classes at slot ``p``).  Rows are taken
        by *shape*, their fans at the fine slots, so that rows of one shape expand by
        broadcasting over the same choices."""
        fine_slots, rows, fan = plan["fine"], plan["rows"], plan["fan"]
        shape = np.zeros(len(rows), dtype=np.int64)
        for p in fine_slots:
            shape = shape * (self.k + 1) + fan[p]  # a fan is at most k
        order = np.argsort(shape, kind="stable")
        bounds = np.flatnonzero(np.diff(shape[order])) + 1
        pieces, size = [], 0
        for a, b in zip(np.r_[0, bounds].tolist(), np.r_[bounds, len(rows)].tolist()) if len(rows) else ():
            fans = [int(fan[p][order[a]]) for p in fine_slots]
            per_row = math.prod(fans)
            choice = np.indices(fans).reshape(len(fans), per_row)  # each slot's choice
            while a < b:
                take = min(b - a, max(1, (self._chunk - size) // per_row))
                pieces.append((order[a : a + take], fans, choice))
                size += take * per_row
                a += take
                if size >= self._chunk:
                    yield self._drawn_chunk(table, plan, pieces, size)
                    pieces, size = [], 0
        if pieces:
            yield self._drawn_chunk(table, plan, pieces, size)

    def _drawn_chunk(self, table: CoupTable, plan, pieces, n: int):
        """One chunk of :meth:`_drawn_chunks`: ``pieces`` of rows of one shape (``(rows,
        fans, choice)``, ``choice[j]`` the class chosen at fine slot ``j`` by each of a
        row's ``prod(fans)`` sequences), ``n`` sequences in all.  The cards at each
        position are computed when the events first read them."""
        fine_slots, by_value = plan["fine"], plan["by_value"]
        rows, codes, used = plan["rows"], plan["codes"], plan["used"]
        width = by_value[fine_slots[0]].shape[1] if fine_slots else 1
        spans, start = [], 0
        origin = np.empty(n, dtype=np.int64)  # the plan row each sequence expands
        for at, fans, _ in pieces:
            spans.append((start, start + len(at) * math.prod(fans)))
            origin[start : spans[-1][1]].reshape(len(at), -1)[:] = at[:, None]
            start = spans[-1][1]

        # each sequence's class at each fine slot, by_value[p][code, choice]: its row's code
        # there and its choice
        fine = np.empty((len(fine_slots), n), dtype=np.int8)
        for j, p in enumerate(fine_slots):
            classes = by_value[p].astype(np.int8).ravel()
            for (at, fans, choice), (a, b) in zip(pieces, spans):
                base = codes[p].take(at) * width
                cell = classes.take(base[:, None] + choice[j] if fans[j] > 1 else base[:, None])
                fine[j, a:b].reshape(len(at), -1)[:] = cell
        # the positions a fine slot holds for every coup: its dealing name, and its hand's
        slot_of = {name: j for j, p in enumerate(fine_slots) for name in (f"card{p + 1}",) + _SLOT_NAMES.get(p, ())}

        made: dict = {}  # each slot's cards and whether the Player drew, computed once a chunk

        def dealt(j):
            """The cards at fine slot ``j`` (-1: none dealt there; a pinned fifth or sixth
            card the coup does not use is drawn, but not dealt to a hand)."""
            if j not in made:
                out = made[j] = self.rep.take(fine[j])  # class k, no card drawn: -1
                if fine_slots[j] in self._pins:
                    out[~used[:, fine_slots[j]].take(origin)] = -1
            return made[j]

        def card(name):
            """The cards at a position (no reference to the features: no cycle to collect)."""
            if name in ("player_card3", "banker_card3") and "card5" in slot_of:
                if "drew" not in made:
                    made["drew"] = (table.player_cards.take(rows) == 3).take(origin)
                drew = made["drew"]
                five, six = dealt(slot_of["card5"]), dealt(slot_of["card6"]) if "card6" in slot_of else -1
                return np.where(drew, five, -1) if name == "player_card3" else np.where(drew, six, five)
            return dealt(slot_of[name])

        features = _Features(table.features(), lambda: rows.take(origin), card)
        return fine, lambda sel: plan["high"].take(origin.take(sel)), features, None

    # -- counting --------------------------------------------------------------
    def class_counts(self, shoe, what: str = "bet") -> list[int]:
        """The shoe's number of cards of each class."""
        if shoe.suited:
            out = [0] * self.k
            for card, n in zip(self.classes.tolist(), shoe.card_tuple):
                out[card] += n
            return out
        if not self._rank_uniform:
            raise BetError(
                f"{what} reads suits, but this shoe's suits are unknown (it was given per rank, or a "
                "card was removed without its suit); give the shoe per card (As=8,...) or remove "
                "cards with their suits"
            )
        out = [0] * self.k
        for r, n in enumerate(shoe.rank_tuple):
            out[int(self.classes[4 * r])] += n
        return out

    def ways_many(self, shoes, what: str = "bet", chunk: int = 64, rows=None, backend: str = "auto") -> list[list[int]]:
        """:meth:`ways` of many shoes, equal list for list, by the table's evaluator
        (:meth:`analyzer.core.ways.WaysTable.ways_many`: float64 blocks within their
        bounds, per rank multiset for a poker-like bet, int64 or residues beyond).
        ``rows``: :func:`~analyzer.core.classbatch.shoe_rows` of ``shoes``, when the
        caller has them."""
        if not shoes:
            return []
        cards, tail, suited = rows if rows is not None else shoe_rows(shoes)
        if self._onehot is None:
            self._onehot = (self.classes[:, None] == np.arange(self.k)[None, :]).astype(np.int64)
        counts = (
            np.concatenate([cards @ self._onehot, tail], axis=1)
            if suited.all()
            else [self.class_counts(s, what) + list(s.value_counts) + [s.cards] for s in shoes]
        )
        return self.ways_table.ways_many(counts, backend, chunk)

    def ways(self, shoe, what: str = "bet", backend: str = "auto") -> list[int]:
        """Exact ordered six-card deals of each event on ``shoe``, in the arithmetic of
        ``backend`` (:mod:`analyzer.core.backend`; :meth:`analyzer.core.ways.WaysTable.ways`):
        ``"auto"`` counts per rank multiset when the bet allows it (:mod:`.rankflush`),
        else in int64 under its bound and by residues beyond; ``"python"`` is the
        reference (Python integers, term by term)."""
        counts = self.class_counts(shoe, what) + list(shoe.value_counts) + [shoe.cards]
        return self.ways_table.ways(counts, backend)
