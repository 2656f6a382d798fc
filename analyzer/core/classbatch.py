"""The card engine's counts for many shoes at once, as float64 matrix products exact by their bounds.

:class:`analyzer.core.classengine.ClassTabulation` counts event ``e`` on a shoe as
``sum_m coef[e, m] * mono(m)``, where the monomial of a multiset of classes ``m``
is a product of six factors ``n_ext[idx[m, j]] - off[m, j]`` (class counts, value
counts less the classes of that value already drawn, and ``N - d ...`` for the
positions the bet does not read).  Split the classes in two *sides* (low and
high: by point value, colour, suit...) so that every factor run stays on one side
(a class's factors on its side; a value read only as a value, with the classes of
that value).  Then the monomial is ``low(a) * high(b) * rest(r)``, the products of
the factors of each side and of the unread positions, and ``m`` is the triple
``(a, b, r)``.  Grouped by ``r`` and by the number of low cards, the multisets
form *blocks* in which most low parts meet most high parts, and a batch of shoes
costs per block two matrix products:

    ways(e) = sum_blocks rest(r) * sum_a low(a) * (sum_b C[e, a, b] * high(b))

contracting first one side (:class:`ClassBatchPlan` chooses the split among
candidates by the flops it needs, and per block the side with the tighter bound).

Exact.  With float64 every intermediate value must be an integer at most
``2**53``.  For a shoe of ``N >= 6`` cards:

* a side's or the rest's product counts ordered selections of distinct cards
  (each class's run of factors reaches 0 before it could go negative, and the
  factors of a value read as a value follow the classes of that value on the same
  side), so it lies in ``0 .. N (N-1) ... (N-j+1)`` for its ``j`` factors; and a
  low product times the rest is at most ``N (N-1) ... (N-5)``, the shoe's deals;
* the first contraction over a side of ``j`` cards is at most the block's largest
  coefficient sum over that side (:attr:`ClassBatchPlan.bounds`) times
  ``N (N-1) ... (N-j+1)``; when the other side reads no card of the block (its
  product is 1) it is the block's sum itself, at most the deals;
* every term of the second contraction is part of an event's ways (non-negative
  terms), so every partial sum is at most the deals.

:meth:`ClassBatchPlan.float_exact` holds for the shoes where all of these are at most
``2**53`` (every shoe of 8 decks or fewer, for the catalog's bets: tested); the
engine counts the others one at a time.
"""

from __future__ import annotations

from math import perm

import numpy as np

from .blocks import FLOAT_EXACT, POSITIONS, one_blas_thread, unique_rows

#: Shoes a tabulation counts in batches before it builds its plan (building Contrast
#: Bonus's takes about 0.13 s, and saves about 0.5 ms a shoe: it pays for itself after
#: about as many shoes).
PLAN_AFTER = 256

#: a factor column with no card: ``n_ext[ONE] - 0 == 1`` (index relative to the end)
_PAD = -1


def _parts(idx: np.ndarray, off: np.ndarray, mask: np.ndarray):
    """Distinct parts (the factors of ``mask``'s columns, in column order, padded) of
    each multiset: ``(part idx (P, 6), part off (P, 6), part of each multiset, factors)``."""
    _m, width = idx.shape
    key_idx = np.where(mask, idx, _PAD)
    key_off = np.where(mask, off, 0)
    # factors of one part in a canonical order: taken columns first, in column order
    order = np.argsort(~mask, axis=1, kind="stable")
    key_idx = np.take_along_axis(key_idx, order, axis=1)
    key_off = np.take_along_axis(key_off, order, axis=1)
    u, inv = unique_rows(np.concatenate([key_idx, key_off], axis=1))
    return u[:, :width], u[:, width:], inv, mask.sum(axis=1)


def splits(class_value: np.ndarray, rep_cards: np.ndarray, table: dict, coarse: bool) -> list[np.ndarray]:
    """Candidate high sides for a tabulation's classes (``class_value``, and one card
    ``rep_cards`` of each, rows of the card ``table``): by point value (the classes and
    values 5-9), always valid; with no value read as a value (``coarse`` False), also by
    colour, by suit, by rank and with every class on the low side."""
    values = np.arange(10) >= 5
    out = [np.append(class_value >= 5, values)]
    if not coarse:
        for hi in (
            table["colour"][rep_cards] == 1,
            table["suit"][rep_cards] >= 2,
            table["rank"][rep_cards] >= 7,
            np.zeros(len(rep_cards), dtype=bool),
        ):
            out.append(np.append(hi, values))
    return out


def _halves(p_idx: np.ndarray, p_off: np.ndarray, factors: int):
    """A side's parts, as ``(halves, cost)``: ``halves`` ``[(idx (f, H), off (f, H), half of
    each part or None)]``, either the parts themselves or, when cheaper, the products of
    two halves (the first three factors, the rest); ``cost`` its element operations per
    shoe (a gather and a product per factor).  Exact: a half is a product of at most
    three factors, each at most ``N + 6`` in size; a factor is negative only after an
    earlier factor of the part (of its class, or of a class of its value) reached 0,
    so the two halves' product is the part's, 0 or a count of ordered selections."""
    factors = max(factors, 1)

    def half(i, o, of):
        return np.ascontiguousarray(i.T), np.ascontiguousarray(o.T).astype(np.float64), of

    whole = [half(p_idx[:, :factors], p_off[:, :factors], None)]
    cost = 2 * p_idx.shape[0] * factors
    if factors > 3:
        halves = []
        for a, b in ((0, 3), (3, factors)):
            u, of = unique_rows(np.concatenate([p_idx[:, a:b], p_off[:, a:b]], axis=1))
            halves.append(half(u[:, : b - a], u[:, b - a :], of))
        split = sum(2 * h[0].size + h[0].shape[1] for h in halves) + p_idx.shape[0]
        if split < cost:
            return halves, split
    return whole, cost


class ClassBatchPlan:
    """The blocks of a card-engine table for batches of shoes; see the module docstring.

    ``idx``, ``off``: ``(M, 6)`` factor columns of each multiset (indices into the
    extended counts ``(K classes, 10 values, N)``; ``idx == K + 10`` is ``N``);
    ``coef``: ``(E, M)`` class sequences of each multiset in each event; ``k``: the
    number of classes; ``splits``: candidate high sides, each ``K + 10`` booleans
    (the classes, then the values read as values), every factor run on one side.
    """

    def __init__(self, idx: np.ndarray, off: np.ndarray, coef: np.ndarray, k: int, splits):
        self.k, self.events = k, coef.shape[0]
        self.width = k + 12  # classes, values, N, one
        idx = np.where(idx < 0, self.width - 1, idx)
        best: tuple | None = None
        rest = self._side(idx, off, idx == k + 10)  # the same for every split
        for hi in splits:
            plan = self._blocks(idx, off, coef, np.asarray(hi, dtype=bool), rest)
            if best is None or plan[0] < best[0]:
                best = plan
        assert best is not None  # splits() gives one candidate at least
        _, self.sides, self.blocks, self.bounds = best

    @staticmethod
    def _side(idx, off, mask):
        """A side's ``(halves, cost, part of each multiset, factors of each multiset)``."""
        p_idx, p_off, of, size = _parts(idx, off, mask)
        return _halves(p_idx, p_off, int(mask.sum(axis=1).max(initial=0))) + (of, size)

    def _blocks(self, idx, off, coef, hi, rest_side):
        k = self.k
        rest = idx == k + 10
        high = ~rest & np.append(hi, [False, False])[np.minimum(idx, k + 11)]
        low = ~rest & ~high
        sides = [self._side(idx, off, low), self._side(idx, off, high), rest_side]
        (_, _, low_of, low_size), (_, _, high_of, high_size), (_, _, rest_of, _) = sides
        # element operations per shoe (a BLAS flop about a tenth of one); a block's calls
        # cost about as much as 300
        cost = sum(s[1] for s in sides)
        blocks, bounds = [], []
        group = rest_of * (POSITIONS + 1) + low_size
        for g in np.unique(group):
            ms = np.flatnonzero(group == g)
            events = np.flatnonzero(coef[:, ms].any(axis=1))
            if not len(events):
                continue
            lo_u, li = np.unique(low_of[ms], return_inverse=True)
            hi_u, hj = np.unique(high_of[ms], return_inverse=True)
            c = np.zeros((len(events), len(lo_u), len(hi_u)), dtype=np.int64)
            c[:, li.ravel(), hj.ravel()] = coef[np.ix_(events, ms)]
            cards = {0: int(low_size[ms[0]]), 1: int(high_size[ms[0]])}
            # contract first the side whose bound (coefficient sum x its ordered selections) is
            # lower; against a side of no card (its one part is 1), the first contraction is the
            # block's sum itself, at most the deals
            sums = {0: int(c.sum(axis=1).max()), 1: int(c.sum(axis=2).max())}
            for s in (0, 1):
                if cards[1 - s] == 0:
                    sums[s], cards[s] = 1, POSITIONS
            first = min((0, 1), key=lambda s: (sums[s] * perm(500, cards[s]), -c.shape[1 + s]))
            if first == 1:
                c = c.transpose(0, 2, 1)
                parts = (hi_u, lo_u)
            else:
                parts = (lo_u, hi_u)
            n_first, n_second = c.shape[1], c.shape[2]
            layout_t = np.ascontiguousarray(c.transpose(0, 2, 1).reshape(len(events) * n_second, n_first))
            blocks.append(
                (
                    first,
                    parts[0],
                    1 - first,
                    parts[1],
                    int(rest_of[ms[0]]),
                    events,
                    layout_t.astype(np.float64),
                    n_second,
                )
            )
            bounds.append((sums[first], cards[first]))
            cost += c.size // 5 + n_first + 3 * c.shape[0] * n_second + 300
        return cost, [s[0] for s in sides], blocks, bounds

    def arrays(self) -> dict[str, np.ndarray]:
        """The plan as a few flat arrays (:meth:`from_arrays` gives it back), for a store
        (:class:`analyzer.io.cache.TableCache`): building one costs up to a few tenths of a
        second, loading it a millisecond."""
        halves = [h for side in self.sides for h in side]
        blocks = self.blocks
        return {
            "meta": np.array([self.k, self.events], dtype=np.int64),
            "side_halves": np.array([len(side) for side in self.sides], dtype=np.int64),
            "half_shape": np.array(
                [(*h[0].shape, -1 if h[2] is None else len(h[2])) for h in halves], dtype=np.int64
            ).reshape(-1, 3),
            "half_idx": _joined([h[0] for h in halves], np.int64),
            "half_off": _joined([h[1] for h in halves], np.float64),
            "half_of": _joined([h[2] for h in halves if h[2] is not None], np.int64),
            "block_ints": np.array(
                [(b[0], b[2], b[4], b[7], len(b[1]), len(b[3]), len(b[5])) for b in blocks], dtype=np.int64
            ).reshape(-1, 7),
            "block_i1": _joined([b[1] for b in blocks], np.int64),
            "block_i2": _joined([b[3] for b in blocks], np.int64),
            "block_events": _joined([b[5] for b in blocks], np.int64),
            "block_layout": _joined([b[6] for b in blocks], np.float64),
            "bounds": np.array(self.bounds, dtype=np.int64).reshape(-1, 2),
        }

    @classmethod
    def from_arrays(cls, arrays, coef: np.ndarray, k: int) -> ClassBatchPlan:
        """The plan of :meth:`arrays`, for the table of ``coef`` (``(E, M)``) over ``k``
        classes, checked: arrays of the wrong kind, shape or range, or blocks whose
        coefficients do not add up to ``coef``'s for every event (a damaged or foreign
        store) raise ``ValueError``, so that a store is never trusted."""

        def get(name, dtype, ndim=1):
            a = np.asarray(arrays[name])
            if a.dtype != dtype or a.ndim != ndim:
                raise ValueError(f"a stored batch plan's {name} is not a {ndim}-d {np.dtype(dtype)} array")
            return a

        meta, side_halves, half_shape = (
            get("meta", np.int64),
            get("side_halves", np.int64),
            get("half_shape", np.int64, 2),
        )
        block_ints, bounds = get("block_ints", np.int64, 2), get("bounds", np.int64, 2)
        events = coef.shape[0]
        width = k + 12
        if meta.tolist() != [k, events] or side_halves.shape != (3,) or side_halves.min() < 1:
            raise ValueError("a stored batch plan is of another table")
        if half_shape.shape[1:] != (3,) or len(half_shape) != side_halves.sum() or half_shape.min(initial=0) < -1:
            raise ValueError("a stored batch plan's halves are malformed")
        if block_ints.shape[1:] != (7,) or bounds.shape != (len(block_ints), 2) or block_ints.min(initial=0) < 0:
            raise ValueError("a stored batch plan's blocks are malformed")
        idx = _split(get("half_idx", np.int64), [int(f * h) for f, h, _ in half_shape])
        off = _split(get("half_off", np.float64), [int(f * h) for f, h, _ in half_shape])
        of = _split(get("half_of", np.int64), [int(n) for _, _, n in half_shape if n >= 0])
        halves, of_iter, parts = [], iter(of), []
        for (f, h, n), i, o in zip(half_shape.tolist(), idx, off):
            if f < 1 or i.min(initial=0) < _PAD or i.max(initial=0) >= width or not np.isfinite(o).all():
                raise ValueError("a stored batch plan's factors index no count")
            this_of = None if n < 0 else next(of_iter)
            if this_of is not None and (this_of.min(initial=0) < 0 or this_of.max(initial=0) >= h):
                raise ValueError("a stored batch plan's halves are malformed")
            halves.append((i.reshape(f, h), o.reshape(f, h), this_of))
            parts.append(h if this_of is None else n)
        sides, at = [], 0
        for count in side_halves.tolist():
            side = halves[at : at + count]
            side_parts = parts[at : at + count]
            if count > 2 or len(set(side_parts)) != 1:
                raise ValueError("a stored batch plan's halves are malformed")
            sides.append((side, side_parts[0]))
            at += count
        lens = block_ints[:, 4:]
        i1s = _split(get("block_i1", np.int64), lens[:, 0].tolist())
        i2s = _split(get("block_i2", np.int64), lens[:, 1].tolist())
        evs = _split(get("block_events", np.int64), lens[:, 2].tolist())
        sizes = [int(e * n2 * n1) for (_, _, _, n2, n1, _, e) in block_ints.tolist()]
        layouts = _split(get("block_layout", np.float64), sizes)
        blocks, total = [], np.zeros(events, dtype=np.int64)
        for (first, second, r, n_second, n1, n2, e), (s, c), i1, i2, ev, lay in zip(
            block_ints.tolist(), bounds.tolist(), i1s, i2s, evs, layouts
        ):
            if (
                {first, second} != {0, 1}
                or n_second != n2
                or r >= sides[2][1]
                or min(i1.min(initial=0), i2.min(initial=0), ev.min(initial=0)) < 0
                or i1.max(initial=0) >= sides[first][1]
                or i2.max(initial=0) >= sides[second][1]
                or ev.max(initial=0) >= events
                or len(set(ev.tolist())) != e
                or not (np.isfinite(lay).all() and (lay >= 0).all() and (lay == np.round(lay)).all())
            ):
                raise ValueError("a stored batch plan's blocks index no part")
            layout_t = lay.reshape(e * n_second, n1)
            rows = layout_t.astype(np.int64).sum(axis=1)  # the first contraction's coefficient sums
            # a bound is their largest, or the deals' (1, POSITIONS)
            if not (0 <= c <= POSITIONS and ((s, c) == (1, POSITIONS) or s >= rows.max(initial=0))):
                raise ValueError("a stored batch plan's bounds are not its blocks'")
            total[ev] += rows.reshape(e, -1).sum(axis=1)
            blocks.append((first, i1, second, i2, r, ev, layout_t, n_second))
        if not np.array_equal(total, coef.sum(axis=1)):
            raise ValueError("a stored batch plan's coefficients are not its table's")
        self = cls.__new__(cls)
        self.k, self.events, self.width = k, events, width
        self.sides = [side for side, _ in sides]
        self.blocks = blocks
        self.bounds = [tuple(b) for b in bounds.tolist()]
        return self

    def float_exact(self, cards: int) -> bool:
        """True when :meth:`ways` is exact for a shoe of ``cards`` cards."""
        if getattr(self, "_max_cards", None) is None:
            # every bound grows with N: the last N for which all hold (at most 458)
            n = POSITIONS - 1
            while perm(n + 1, POSITIONS) <= FLOAT_EXACT and all(
                s * perm(n + 1, j) <= FLOAT_EXACT for s, j in self.bounds
            ):
                n += 1
            self._max_cards = n
        return POSITIONS <= cards <= self._max_cards

    def ways(self, counts: np.ndarray) -> np.ndarray:
        """``(B, E)`` int64 ways of shoes with these extended counts ``(B, K + 11)``
        (classes, values, N); every shoe must pass :meth:`float_exact` (checked)."""
        counts = np.asarray(counts, dtype=np.int64)
        b_count = counts.shape[0]
        n_col = counts[:, self.k + 10]
        if b_count and not (self.float_exact(int(n_col.min())) and self.float_exact(int(n_col.max()))):
            raise ValueError("a shoe beyond the float64 bound")
        n_ext = np.ones((self.width, b_count))
        n_ext[:-1] = counts.T
        values = []  # (parts, B) of each side
        for halves in self.sides:
            prods = []
            for p_idx, p_off, of in halves:
                v = n_ext[p_idx[0]] - p_off[0][:, None]
                for j in range(1, len(p_idx)):
                    v *= n_ext[p_idx[j]] - p_off[j][:, None]
                prods.append(v if of is None else v[of])
            values.append(prods[0] if len(prods) == 1 else prods[0] * prods[1])
        out = np.zeros((self.events, b_count))
        with one_blas_thread():
            for first, i1, second, i2, r, events, layout_t, n_second in self.blocks:
                t = (layout_t @ values[first][i1]).reshape(len(events), n_second, b_count)
                s = np.einsum("ejb,jb->eb", t, values[second][i2])
                out[events] += s * values[2][r]
        return out.T.astype(np.int64)


def _joined(arrays, dtype) -> np.ndarray:
    """Arrays as one flat array of ``dtype`` (:func:`_split` gives them back, by sizes)."""
    return np.concatenate([np.asarray(a, dtype=dtype).ravel() for a in arrays] or [np.zeros(0, dtype=dtype)])


def _split(flat: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    """:func:`_joined`'s arrays (flat) back from their ``sizes``; ``ValueError`` when they do
    not add up."""
    if any(n < 0 for n in sizes) or sum(sizes) != len(flat):
        raise ValueError("a stored batch plan's arrays are not their stated sizes")
    return np.split(flat, np.cumsum(sizes)[:-1]) if sizes else []


def shoe_rows(shoes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a batch reads of each shoe, as arrays: its 52 card counts (zeros when its
    suits are unknown), its value counts followed by its number of cards, and whether
    its suits are known."""
    zeros = (0,) * 52
    suited = np.array([s.suited for s in shoes], dtype=bool)
    cards = np.array([s.card_tuple if s.suited else zeros for s in shoes], dtype=np.int64).reshape(len(shoes), 52)
    tail = np.array([s.value_counts + (s.cards,) for s in shoes], dtype=np.int64).reshape(len(shoes), 11)
    return cards, tail, suited
