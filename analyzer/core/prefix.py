"""A plan of the evaluator for partitions of the coups: the ways of every cell from the
cards a coup deals, value 0 factored out.

A point-value table compiled from *partitions* of the ``10**6`` value sequences (each
sequence in one cell of each: the outcome, the cards dealt, the final totals, a bet's
pay-table events; :meth:`analyzer.core.engine.Tabulation.partitions`; the shoe-aware check
of :mod:`analyzer.simcheck` counts every coup so) keeps the partitions' codes, and
:class:`analyzer.core.ways.WaysTable` counts its shoes within the float64 bound by this
plan (about three times as fast as the value blocks on the check's 114 cells).  A coup
that deals ``L`` cards (4, 5 or 6) is in
the same cell whatever the undealt positions hold, so its ways are the ways of
its ``L``-value prefix times ``(N-L)(N-L-1)...``.  The ways of a prefix are a
falling-factorial monomial ``prod_v (n_v)_{e_v}``; this module writes it as
``(n_0)_{e_0} * y``, where ``y`` is the monomial of the non-zero values (1-9):

* value 0 adds nothing to a total, so the cell's residue ``P + B = sum of the
  dealt values (mod 10)`` is the residue of ``y``: a totals cell meets only the
  ``y`` of its residue (ten small products instead of one dense one);
* one ``y`` (at most 5,005 of them: the multisets of at most 6 values among
  1-9) serves every ``L``: for a ``y`` of ``s`` values, ``e_0 = L - s``, so the
  products ``Z[L, s] = coef[L, s] @ y_s`` are scaled by ``(n_0)_{L-s}`` after
  the product, on the few cells rather than on the thousands of monomials
  (the previous basis built 6,958 monomials a coup, one per ``(e_0, y)``).

Each ``y`` is (values 1-4 part) x (values 5-9 part), gathered from two small
tables; the gathers and products go a few residues at a time so that they stay
in cache.  Partitions whose cell is a function of the totals cell (outcome, the
main bets) are sums of totals ways (the *totals* partition: cell ``10 P + B`` of the
final totals, found by its codes); a partition whose cell is, for each ``L``, a
function of the totals cell (cards dealt) is summed per ``L``; any other partition
(a bet on how many cards a hand drew, say) gets its own rows in every residue.  A
partition whose cell reads an undealt position has no such plan (:meth:`PrefixPlan.build`).

Exactness (the ``"prefix"`` plan, shoes of at most
:data:`FLOAT_CARDS` = 458 cards, so that ``N (N-1) ... (N-5) < 2**53``): every quantity is a
nonnegative integer below ``2**53``, hence exact in double precision.  A ``y``
of ``s`` values is at most ``(N)_s``; ``Z[L, s]`` counts (value sequences of
the cell with ``L - s`` zeros) x (ordered choices of ``s`` non-zero cards), at
most ``C(6, 3) (N)_s <= 20 * 458**5 < 2**49`` for ``s <= 5`` and at most the
cell's ways for ``s = 6``; every partial sum of a product is a sub-sum of such
a total; ``(n_0)_{L-s} Z[L, s]`` and their sums are terms and partial sums of
the cell's ways.  Padding entries multiply a finite value by a zero
coefficient.  Tested equal to the core's tabulation of the same cells (its int64 and Python-integer
back ends, ``tests/test_check_speed.py``, ``tests/test_check_core.py``).
"""

from __future__ import annotations

import numpy as np

from .backend import falling

POSITIONS = 6

#: The largest shoe whose ways :class:`PrefixPlan` counts exactly: ``N (N-1) ... (N-5) < 2**53``
#: (458 cards; every shoe of 8 decks or fewer).
FLOAT_CARDS = next(n for n in range(POSITIONS, 10**4) if falling(n + 1, POSITIONS) >= 2**53)
MAX_ROWS = 600  # y gathered per product (a few residues): two such blocks stay in cache
SUB = 128  # coups per pass


def _function_of(x: np.ndarray, y: np.ndarray, cells_x: int, cells_y: int):
    """The 0/1 ``(cells_y, cells_x)`` matrix of ``y`` as a function of ``x``, or None."""
    seen = np.bincount(x.astype(np.int64) * cells_y + y, minlength=cells_x * cells_y).reshape(cells_x, cells_y) > 0
    if (seen.sum(axis=1) > 1).any():
        return None
    return seen.T.astype(np.float64)


def _parts(exps: np.ndarray):
    """Distinct first-two and remaining columns of exponent rows, and the index of each row in both."""
    pu, pi = np.unique(exps[:, :2], axis=0, return_inverse=True)
    tu, ti = np.unique(exps[:, 2:], axis=0, return_inverse=True)
    return pu, pi.ravel(), tu, ti.ravel()


class _Part:
    """One partition: its cells' codes over the value sequences, its number of cells, its rows."""

    def __init__(self, code: np.ndarray, cells: int, offset: int):
        self.code, self.cells, self.rows = code, cells, slice(offset, offset + cells)


class PrefixPlan:
    """The exact ways of every cell of ``partitions`` (``[(codes, cells), ...]``, rows one
    partition after the other) over the coup table ``table``; see the module docstring."""

    @classmethod
    def build(cls, partitions, table):
        """The plan, or ``None`` when a partition's cell reads an undealt position."""
        try:
            return cls(partitions, table)
        except ValueError:
            return None

    def __init__(self, partitions, table):
        families, offset = [], 0
        for code, cells in partitions:
            families.append(_Part(code, cells, offset))
            offset += cells
        seq = np.indices((10,) * POSITIONS, dtype=np.int8).reshape(POSITIONS, -1)
        cards = table.cards_dealt
        self.E = offset
        totals = table.player_total.astype(np.int64) * 10 + table.banker_total
        tot = next((f for f in families if f.cells == 100 and np.array_equal(f.code, totals)), None)
        self.tot_rows = tot.rows if tot is not None else None
        self.derived = []  # (rows, matrix): a function of the totals cell
        others = []
        for fam in families:
            m = _function_of(tot.code, fam.code, tot.cells, fam.cells) if tot is not None and fam is not tot else None
            if m is not None:
                self.derived.append((fam.rows, m))
            elif fam is not tot:
                others.append(fam)
        pow7 = np.int64(7) ** np.arange(10, dtype=np.int64)
        Ls = (6, 5, 4)  # rows of L = 6 first: the products of s = 6, 5 use a prefix of them
        prefix, keys = {}, []
        for L in Ls:
            sel = np.flatnonzero(cards == L)
            step = 10 ** (POSITIONS - L)
            for fam in families:
                if not np.array_equal(fam.code[sel], fam.code[(sel // step) * step]):
                    raise ValueError(
                        f"partition at rows {fam.rows.start}-{fam.rows.stop - 1}: the cell reads undealt positions"
                    )
            first = sel[sel % step == 0]
            digits = seq[:L, first].astype(np.int64)
            ycode = pow7[digits].sum(axis=0) - (digits == 0).sum(axis=0)  # value 0 left out (7**0 = 1)
            prefix[L] = (first, ycode)
            keys.append(ycode)
        yu = np.unique(np.concatenate(keys))
        prefix = {L: (first, np.searchsorted(yu, ycode)) for L, (first, ycode) in prefix.items()}
        yexp = (yu[:, None] // pow7[None, :]) % 7
        ys = yexp.sum(axis=1)
        yg = (yexp @ np.arange(10)) % 10
        h1u, h1i = np.unique(yexp[:, 1:5], axis=0, return_inverse=True)
        h2u, h2i = np.unique(yexp[:, 5:10], axis=0, return_inverse=True)
        h1i, h2i = h1i.ravel(), h2i.ravel()
        self.plan = [((1, 2, 3, 4),) + _parts(h1u), ((5, 6, 7, 8, 9),) + _parts(h2u)]
        # rows of each L: its totals cells (slot j of residue g -> cell tgt[g, j]), then rows of every residue
        self.lay, slot_of, off = {}, {}, 0
        for L in Ls:
            first = prefix[L][0]
            shared_rows: list[int] = []
            per_l = []
            tc = tot.code[first] if tot is not None else None
            for fam in others:
                m = (
                    _function_of(tc, fam.code[first], tot.cells, fam.cells)
                    if tot is not None and tc is not None
                    else None
                )
                if m is not None:
                    per_l.append((fam.rows, m))
                else:
                    shared_rows.extend(range(fam.rows.start, fam.rows.stop))
            cells = np.unique(tc) if tc is not None else np.zeros(0, dtype=np.int64)
            res = (cells // 10 + cells % 10) % 10
            nt = int(np.bincount(res, minlength=10).max())
            tgt = np.full((10, nt), tot.cells if tot is not None else 0, dtype=np.int64)  # padding: a spare row
            slot_of[L] = np.zeros(tot.cells if tot is not None else 0, dtype=np.int64)
            for g in range(10):
                tgt[g, : (res == g).sum()] = cells[res == g]
                slot_of[L][cells[res == g]] = np.arange((res == g).sum())
            self.lay[L] = (off, nt, np.array(shared_rows, dtype=np.int64), tgt.ravel(), per_l)
            off += nt + len(shared_rows)
        self.R = off
        self.blocks = []
        col = np.empty(len(yu), dtype=np.int64)
        for s in range(POSITIONS + 1):
            idx = np.flatnonzero(ys == s)
            if not len(idx):
                continue
            use = [L for L in Ls if L >= s]
            rows = sum(self.lay[L][1] + len(self.lay[L][2]) for L in use)
            width = max(2, int(np.bincount(yg[idx], minlength=10).max()))  # one y: a slow product
            i1 = np.zeros((10, width), dtype=np.int64)
            i2 = np.zeros((10, width), dtype=np.int64)
            for g in range(10):
                ig = idx[yg[idx] == g]
                col[ig] = np.arange(len(ig))
                i1[g, : len(ig)], i2[g, : len(ig)] = h1i[ig], h2i[ig]
            coef = np.zeros((10, rows, width))
            for L in use:
                o, nt, shared, _, _ = self.lay[L]
                first, yi = prefix[L]
                keep = ys[yi] == s
                first, yi = first[keep], yi[keep]
                if tot is not None:
                    np.add.at(coef, (yg[yi], o + slot_of[L][tot.code[first]], col[yi]), 1.0)
                for j, r in enumerate(shared.tolist()):
                    fam = next(f for f in others if f.rows.start <= r < f.rows.stop)
                    hit = fam.code[first].astype(np.int64) == r - fam.rows.start
                    np.add.at(coef, (yg[yi][hit], o + nt + j, col[yi][hit]), 1.0)
            step = max(1, min(10, MAX_ROWS // width))
            for g0 in range(0, 10, step):
                g1 = min(10, g0 + step)
                self.blocks.append(
                    (s, g0, g1, i1[g0:g1].ravel(), i2[g0:g1].ravel(), np.ascontiguousarray(coef[g0:g1]), width, rows)
                )
        # the factor (n_0)_{L-s} of row r for s < 6; index POSITIONS + 1 (a zero row of f) for L < s
        self.e0 = np.full((POSITIONS, self.R), POSITIONS + 1, dtype=np.int64)
        for L in Ls:
            o, nt, shared = self.lay[L][:3]
            for s in range(min(L + 1, POSITIONS)):
                self.e0[s, o : o + nt + len(shared)] = L - s
        self._size = max(len(b[3]) for b in self.blocks)
        self._buf = (np.empty((self._size, SUB)), np.empty((self._size, SUB)))
        self.blocks.sort(key=lambda b: -b[0])
        self._rows6 = self.blocks[0][7] if self.blocks[0][0] == POSITIONS else 0
        self._acc = np.empty((10, self.R, SUB))
        self._out = np.empty((max(b[2] - b[1] for b in self.blocks), self.R, SUB))
        self._cells = tot.cells if tot is not None else 0

    def ways(self, vc: np.ndarray) -> np.ndarray:
        """``(B, E)`` int64 exact ways for the value counts ``vc`` (``(B, 10)``)."""
        if vc.shape[0] <= SUB:
            return self._ways(vc)
        return np.concatenate([self._ways(vc[i : i + SUB]) for i in range(0, vc.shape[0], SUB)])

    def _ways(self, vc: np.ndarray) -> np.ndarray:
        B = vc.shape[0]
        N = vc.sum(axis=1).astype(np.float64)
        v = vc.T
        f = np.zeros((10, POSITIONS + 2, B))  # f[v, k] = (n_v)_k; f[v, 7] = 0
        f[:, 0, :] = 1
        for k in range(1, POSITIONS + 1):
            np.multiply(f[:, k - 1, :], np.maximum(v - (k - 1), 0), out=f[:, k, :])
        halves = []
        for cols, pu, pi, tu, ti in self.plan:
            pair = f[cols[0], pu[:, 0]] * f[cols[1], pu[:, 1]]
            rest = f[cols[2], tu[:, 0]] * f[cols[3], tu[:, 1]]
            if len(cols) == 5:
                rest *= f[cols[4], tu[:, 2]]
            h = pair[pi]
            h *= rest[ti]
            halves.append(h)
        y1, y2 = halves
        mb, tb = self._buf if B == SUB else (np.empty((self._size, B)), np.empty((self._size, B)))
        acc = self._acc if B == SUB else np.empty((10, self.R, B))
        out = self._out if B == SUB else np.empty(self._out.shape[:-1] + (B,))
        F = f[0][self.e0]  # (n_0)_{L-s} of each row, s < 6
        acc[:, self._rows6 :] = 0
        for s, g0, g1, i1, i2, coef, width, rows in self.blocks:  # s = 6 first: it fills acc[:, :rows6]
            n = len(i1)
            m = y1.take(i1, axis=0, out=mb[:n], mode="clip")
            m *= y2.take(i2, axis=0, out=tb[:n], mode="clip")
            if s == POSITIONS:
                np.matmul(coef, m.reshape(g1 - g0, width, B), out=acc[g0:g1, :rows])
            else:
                part = out[: g1 - g0, :rows]
                np.matmul(coef, m.reshape(g1 - g0, width, B), out=part)
                part *= F[s, :rows]
                acc[g0:g1, :rows] += part
        W = np.zeros((self.E, B))
        for L, (o, nt, shared, tgt, per_l) in self.lay.items():
            a = acc[:, o : o + nt + len(shared)]
            if L < POSITIONS:
                rest = np.maximum(N - L, 0)
                for j in range(1, POSITIONS - L):
                    rest *= np.maximum(N - L - j, 0)
                a *= rest
            if nt:
                wt = np.zeros((self._cells + 1, B))  # the last row takes the padding
                wt[tgt] = a[:, :nt].reshape(-1, B)
                wt = wt[:-1]
                W[self.tot_rows] += wt
                for fam_rows, m in per_l:
                    W[fam_rows] += m @ wt
            if len(shared):
                W[shared] += a[:, nt:].sum(axis=0)
        for fam_rows, m in self.derived:
            W[fam_rows] = m @ W[self.tot_rows]
        return W.T.astype(np.int64)
