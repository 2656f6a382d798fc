"""Exhaustive exact enumeration of coups, as polynomials in the shoe's value counts.

What is counted
---------------
Six cards come off the shoe in order: P1 B1 P2 B2, then the fifth and sixth
cards, which go to whichever hand draws (Player first).  The engine counts
*ordered deals of six distinct physical cards*: the denominator for a shoe of
``N`` cards is ``N (N-1) (N-2) (N-3) (N-4) (N-5)``.  A coup that ends after
four or five cards is counted once for every way the unused positions could be
filled, so every count shares that one denominator and a probability is
``ways / deals``.

How it is counted
-----------------
Only point values drive the game, so the engine walks all ``10**6`` sequences
of six point values once (vectorised, shoe independent) and records what each
coup looks like.  The number of ordered deals of six physical cards showing
the value sequence ``v1..v6`` is ``prod_v n_v (n_v - 1) ... (n_v - k_v + 1)``,
where ``n_v`` is the shoe's count of value ``v`` and ``k_v`` how often ``v``
occurs in the sequence.  That product depends only on the *multiset* of the six
values, so for any event (a set of sequences) the count is

    ways(event) = sum over the 5005 multisets m of  coef(event, m) * ff(n, m)

with ``coef(event, m)`` the number of sequences of ``m`` in the event (shoe
independent, built once) and ``ff(n, m)`` a product of falling factorials of the
shoe's counts.  A solve for a new shoe is then 5005 small products and one
integer matrix-vector product.

Exactness: with numpy ``int64`` every monomial and every partial sum is at most
``N (N-1) ... (N-5)`` (each counts ordered selections of distinct cards), so
int64 is used only when that bound is below ``2**63``.  Batches of shoes under
``2**53`` are counted in float64 matrix products whose every intermediate is an
integer at most ``2**53`` (:mod:`analyzer.core.blocks`); shoes beyond ``2**63`` are
counted modulo a few primes below ``2**31`` (the same products, every intermediate
below ``2**53`` or in int64 below ``2**63``; in batches also modulo ``2**64``, in
wrapping ``uint64``), and the Chinese remainder theorem gives the integers back.  :meth:`Tabulation.ways_exact` (Python integers only) is the
reference every path is tested against.  Nothing is ever rounded.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .backend import INT64_BOUND, INT64_LIMIT, choose
from .features import View
from .rules import PUNTO_BANCO, Rules, deal

VALUES = 10
POSITIONS = 6
#: Shoes counted together by :meth:`Tabulation.ways_many` (arrays of a few MB at most).
BATCH_CHUNK = 64
#: Counted rows from which :meth:`Tabulation.ways_many` counts shoes beyond the float64
#: bound by residues even under the int64 bound (measured on 20-deck shoes: numpy's
#: integer products cost about as much with 4 rows, 15% more with 15, 3.4x with 61).
RESIDUE_EVENTS = 8

WINNER_CODES = {"player": 0, "banker": 1, "tie": 2}


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``: ordered ways to take ``k`` of ``n`` distinct cards.

    >>> falling(416, 6), falling(3, 4)
    (4998398275503360, 0)
    """
    out = 1
    for i in range(k):
        out *= n - i
    return out


@lru_cache(maxsize=1)
def _multisets():
    """Multiset of the six values of each sequence, and its value counts (rules independent)."""
    # Multiset of the six values of each sequence.  A multiset is coded by its
    # value counts in base 7 (counts <= 6).  Sequence index = 1000*i + j where
    # i, j index the first and last three positions, so the code is
    # code3[i] + code3[j]: built from two 1000-entry tables, not 10**6 rows.
    pow7 = np.int64(7) ** np.arange(VALUES, dtype=np.int64)
    three = np.indices((VALUES,) * 3).reshape(3, -1)
    code3 = pow7[three].sum(axis=0)
    u3, m3 = np.unique(code3, return_inverse=True)
    pair_codes = u3[:, None] + u3[None, :]
    codes, pair_index = np.unique(pair_codes, return_inverse=True)
    pair_index = pair_index.reshape(pair_codes.shape).astype(np.int32)
    m3 = m3.ravel()
    multiset = pair_index[np.ix_(m3, m3)].ravel()
    exps = np.zeros((len(codes), VALUES), dtype=np.int64)
    rest = codes.copy()
    for v in range(VALUES):
        exps[:, v] = rest % 7
        rest //= 7
    return multiset, exps  # exps (5005, 10): multiplicity of each value in multiset m


class CoupValues(View):
    """The coup table as a :class:`~analyzer.core.features.View`: the point value of the
    card at each hand position (-1 where the tableau deals none) over every sequence;
    the table knows no rank or suit."""

    def __init__(self, table: "CoupTable"):
        super().__init__()
        self.naturals = table.rules.naturals
        self._values = {"player_card1": table.p1, "player_card2": table.p2, "player_card3": table.p3,
                        "banker_card1": table.b1, "banker_card2": table.b2, "banker_card3": table.b3}

    def attr(self, position: str, attribute: str) -> np.ndarray:
        if attribute == "value":
            return self._values[position]
        if attribute == "dealt":
            return self._values[position] >= 0
        raise KeyError(f"{position}_{attribute}")


class CoupTable:
    """Every sequence of six point values and the coup it deals.

    Each attribute is a numpy array over the ``10**6`` sequences (index
    ``v1*10**5 + ... + v6``), as :func:`analyzer.core.rules.deal` deals them.  Cards
    not dealt are ``-1``.  ``rules``: the drawing tableau
    (:class:`analyzer.core.rules.Rules`, Punto Banco by default).
    """

    def __init__(self, rules: Rules | None = None) -> None:
        rules = self.rules = rules or PUNTO_BANCO
        seq = np.indices((VALUES,) * POSITIONS, dtype=np.int8).reshape(POSITIONS, -1)
        p1, b1, p2, b2, c5, c6 = seq
        d = deal(rules, p1, b1, p2, b2, c5, c6)
        self.p1, self.b1, self.p2, self.b2 = p1, b1, p2, b2
        self.p3 = d.player_third
        self.b3 = d.banker_third
        self.player_two = d.player_two
        self.banker_two = d.banker_two
        self.player_total = d.player_total
        self.banker_total = d.banker_total
        self.player_cards = (2 + d.player_drew).astype(np.int8)
        self.banker_cards = (2 + d.banker_drew).astype(np.int8)
        self.player_natural = d.player_natural
        self.banker_natural = d.banker_natural
        self.natural = d.natural
        self.winner = d.winner
        self.cards_dealt = d.cards
        dealt = np.stack([p1, b1, p2, b2, self.p3, self.b3])
        self.max_value = dealt.max(axis=0)

        self.multiset, self.exponents = _multisets()

    def features(self) -> "CoupValues":
        """Every point-value feature of :data:`analyzer.core.features.REGISTRY` over the
        ``10**6`` sequences, computed from the registry when first read (one
        :class:`CoupValues` per table, shared: read only)."""
        if getattr(self, "_features", None) is None:
            self._features = CoupValues(self)
        return self._features

    def monomial_plan(self):
        """How to build each multiset's product of falling factorials (cached).

        Returns ``(gather, terms)``: ``gather`` indexes a flattened table
        ``F[v, k] = n_v (n_v - 1) ... (n_v - k + 1)`` (k = 0..6), one row per
        distinct value of the multiset, padded with ``F[0, 0] == 1`` and laid out
        factor-major so the product is five vectorised multiplications;
        ``terms`` lists ``(v, k)`` per multiset for the Python-integer path.
        """
        if getattr(self, "_plan", None) is None:
            exps = self.exponents
            gather = np.zeros((POSITIONS, exps.shape[0]), dtype=np.intp)
            terms = []
            for m, row in enumerate(exps):
                nz = [(v, int(k)) for v, k in enumerate(row) if k]
                gather[:len(nz), m] = [v * (POSITIONS + 1) + k for v, k in nz]
                terms.append(nz)
            self._plan = (gather, terms)
        return self._plan

    def batch_monomials(self, value_counts: np.ndarray, dtype=np.int64) -> np.ndarray:
        """``(5005, B)`` products of falling factorials for ``B`` shoes at once.

        ``value_counts`` is ``(B, 10)``.  Each product is split into the values
        0-4 and 5-9 (462 distinct partial products each), so a batch costs two
        small gathers and one multiplication.  The caller chooses ``dtype``:
        every entry is at most ``N (N-1) ... (N-5)`` for the largest shoe, so
        ``int64`` is exact below ``2**63`` and ``float64`` below ``2**53``.
        """
        self._half_plan()
        vc = np.asarray(value_counts, dtype=np.int64).T        # (10, B)
        f = np.empty((VALUES, POSITIONS + 1, vc.shape[1]), dtype=dtype)
        f[:, 0, :] = 1
        for k in range(1, POSITIONS + 1):
            f[:, k, :] = f[:, k - 1, :] * np.maximum(vc - (k - 1), 0)
        mono = None
        for idx, (cols, a_u, a_i, b_u, b_i) in self._halves:
            # f[v, k] is a row over the B shoes: every gather copies whole rows.
            a = f[cols[0], a_u[:, 0]] * f[cols[1], a_u[:, 1]]
            b = f[cols[2], b_u[:, 0]] * f[cols[3], b_u[:, 1]]
            b *= f[cols[4], b_u[:, 2]]
            part = a[a_i]
            part *= b[b_i]
            if mono is None:
                mono = part[idx]
            else:
                mono *= part[idx]
        return mono

    def _half_plan(self):
        if getattr(self, "_halves", None) is None:
            exps = self.exponents

            def uniq(rows):
                u, inv = np.unique(rows, axis=0, return_inverse=True)
                return u, inv.ravel()

            def half(cols):
                u, idx = uniq(exps[:, cols])
                a_u, a_i = uniq(u[:, :2])
                b_u, b_i = uniq(u[:, 2:])
                return idx, (cols, a_u, a_i, b_u, b_i)

            self._halves = (half([0, 1, 2, 3, 4]), half([5, 6, 7, 8, 9]))
            step = POSITIONS + 1
            # the same plan as flat column indices of F[v, k] (for batch_monomial_rows)
            self._half_columns = [
                (idx, a_i, b_i, cols[0] * step + a_u[:, 0], cols[1] * step + a_u[:, 1],
                 cols[2] * step + b_u[:, 0], cols[3] * step + b_u[:, 1], cols[4] * step + b_u[:, 2])
                for idx, (cols, a_u, a_i, b_u, b_i) in self._halves]
        return self._halves

    def batch_monomial_rows(self, value_counts: np.ndarray) -> np.ndarray:
        """:meth:`batch_monomials` as ``(B, 5005)`` ``int64`` (one row a shoe, the layout
        of a batched matrix product), under the same bound: exact when every shoe's
        ``N (N-1) ... (N-5)`` is below ``2**63``."""
        self._half_plan()
        vc = np.asarray(value_counts, dtype=np.int64)            # (B, 10)
        f = np.empty((vc.shape[0], VALUES, POSITIONS + 1), dtype=np.int64)
        f[:, :, 0] = 1
        for k in range(1, POSITIONS + 1):
            f[:, :, k] = f[:, :, k - 1] * np.maximum(vc - (k - 1), 0)
        f = f.reshape(vc.shape[0], -1)
        mono = None
        for idx, a_i, b_i, a0, a1, b0, b1, b2 in self._half_columns:
            a = f[:, a0] * f[:, a1]
            b = f[:, b0] * f[:, b1]
            b *= f[:, b2]
            part = a[:, a_i]
            part *= b[:, b_i]
            if mono is None:
                mono = part[:, idx]
            else:
                mono *= part[:, idx]
        return mono

    @property
    def size(self) -> int:
        return self.multiset.shape[0]

    @property
    def multisets(self) -> int:
        return self.exponents.shape[0]

    def coefficients(self, mask: np.ndarray) -> np.ndarray:
        """Number of sequences in ``mask`` for each multiset (shoe independent)."""
        return np.bincount(self.multiset[mask], minlength=self.multisets).astype(np.int64)


def coup_table(rules: Rules | None = None) -> CoupTable:
    """The shared :class:`CoupTable` of ``rules`` (Punto Banco by default; built on
    first use, about 50 ms, and cached per rule set)."""
    return _coup_table(rules or PUNTO_BANCO)


@lru_cache(maxsize=8)
def _coup_table(rules: Rules) -> CoupTable:
    return CoupTable(rules)


#: Largest tabulation whose rows are searched for integer combinations of others.
MAX_DERIVED_EVENTS = 256


def _derive_rows(coef: np.ndarray, table: CoupTable):
    """Rows of ``coef`` that are integer combinations of the rows before them and of the
    row of every sequence (whose ways are ``N (N-1) ... (N-5)``, no count needed).

    Returns ``(basis, derived)``: the rows to count, and ``(row, [(basis row, c), ...],
    c_all)`` for each other row.  A combination is found in floating point but kept
    only if it reproduces the row exactly in integers, so a derived count is exact.
    """
    events = coef.shape[0]
    if events > MAX_DERIVED_EVENTS:          # the search is quadratic: big tables count every row
        return list(range(events)), []
    fact = np.array([math.factorial(k) for k in range(POSITIONS + 1)], dtype=np.int64)
    every = math.factorial(POSITIONS) // fact[table.exponents].prod(axis=1)
    basis, derived = [], []
    rows = np.vstack([coef, every])                      # the last row: every sequence
    exact = rows.astype(np.int64)
    floats = rows.astype(float)
    gram = floats @ floats.T                             # proposals by the normal equations
    for r in range(events):
        use = basis + [events]
        q = np.linalg.lstsq(gram[np.ix_(use, use)], gram[use, r], rcond=None)[0]
        qi = np.rint(q).astype(np.int64)
        if np.abs(q - qi).max() < 1e-6 and np.abs(qi).max() < 2**20 and (qi @ exact[use] == exact[r]).all():
            derived.append((r, [(basis[i], int(c)) for i, c in enumerate(qi[:-1]) if c], int(qi[-1])))
        else:
            basis.append(r)
    return basis, derived


class Tabulation:
    """A fixed list of events, compiled once, counted exactly on any shoe.

    ``Tabulation(masks).ways(value_counts)`` returns, for each event, the number
    of ordered six-card deals (over ``N (N-1) ... (N-5)``) that fall in it.
    """

    def __init__(self, masks: list[np.ndarray], table: CoupTable | None = None,
                 coef: np.ndarray | None = None):
        table = table or coup_table()
        if coef is None:
            coef = np.stack([table.coefficients(m) for m in masks]) if masks else \
                np.zeros((0, table.multisets), dtype=np.int64)
        self.coef = coef
        self.events = coef.shape[0]
        self._table = table
        self._gather, self._exps = table.monomial_plan()
        self._sparse = None  # Python-integer form of coef, built when first needed
        self._rows = None    # (basis coef, basis rows, derived rows): see _derive_rows
        self._blocks = None  # the counted rows as float64 blocks (core/blocks.py)

    def _counted(self):
        """The rows the int64 paths count, and how the others follow (built once)."""
        if self._rows is None:
            basis, derived = _derive_rows(self.coef, self._table)
            self._rows = (np.ascontiguousarray(self.coef[basis]), basis, derived)
            self._weight = max((abs(c_all) + sum(abs(c) for _, c in terms) for _, terms, c_all in derived),
                               default=0)
        return self._rows

    def _block_plan(self):
        """The counted rows as :class:`analyzer.core.blocks.BlockPlan` (built once)."""
        if self._blocks is None:
            from .blocks import BlockPlan
            self._blocks = BlockPlan(self._counted()[0], self._table.exponents)
        return self._blocks

    def _complete(self, counted: list[int], deals: int) -> list[int]:
        """All rows' ways from the counted rows' (Python integers: no overflow)."""
        _, basis, derived = self._rows
        if not derived:
            return counted
        out = [0] * self.events
        for i, w in zip(basis, counted):
            out[i] = w
        for r, terms, c_all in derived:
            out[r] = c_all * deals + sum(c * out[i] for i, c in terms)
        return out

    def _complete_many(self, counted: np.ndarray, deals: list[int]) -> list[list[int]]:
        """:meth:`_complete` of many shoes: ``counted`` ``(B, counted rows)`` int64 ways.

        In ``int64`` when no value can pass the int64 bound: a derived row is
        ``c_all * deals + sum c * w`` with every ``w`` (a count of ways) at most the deals,
        so each partial sum is at most ``(|c_all| + sum |c|) * deals``
        (:attr:`_weight`, the largest over the derived rows) times the largest deals;
        beyond that, Python integers."""
        _, basis, derived = self._rows
        if not derived:
            return counted.tolist()
        if self._weight * max(deals) > INT64_LIMIT:
            return [self._complete(w, d) for w, d in zip(counted.tolist(), deals)]
        out = np.empty((self.events, counted.shape[0]), dtype=np.int64)
        out[basis] = counted.T
        d = np.array(deals, dtype=np.int64)
        for r, terms, c_all in derived:
            row = d * c_all
            for i, c in terms:
                row += out[i] * c
            out[r] = row
        return out.T.tolist()

    @classmethod
    def grouped(cls, groups: np.ndarray, size: int, table: CoupTable | None = None) -> Tabulation:
        """One event per group id ``0 .. size-1`` of a partition of the value sequences
        (sequences with a negative id belong to no event); compiled in one pass."""
        table = table or coup_table()
        keep = groups >= 0
        key = groups[keep].astype(np.int64) * table.multisets + table.multiset[keep]
        coef = np.bincount(key, minlength=size * table.multisets).reshape(size, table.multisets)
        return cls([], table, coef.astype(np.int64))

    @staticmethod
    def _falling_table(value_counts) -> list[int]:
        flat = []
        for n in value_counts:
            f = 1
            flat.append(1)
            for i in range(POSITIONS):
                f *= n - i
                flat.append(f if f > 0 else 0)
        return flat

    def ways(self, value_counts, backend: str = "auto") -> list[int]:
        """Exact ways of each event for a shoe with these counts of values 0..9, in the
        arithmetic of ``backend`` (:mod:`analyzer.core.backend`; ``"auto"``: int64 under
        its bound, residues beyond)."""
        n = sum(value_counts)
        # one shoe: int64 without the batches' blocks where it is exact; else as a batch of one
        single = (("int64", "int64", falling(n, POSITIONS) <= INT64_LIMIT, True, INT64_BOUND),)
        if backend in ("auto", "int64") and choose(backend, n, single) == "int64":
            g = np.array(self._falling_table(value_counts), dtype=np.int64).take(self._gather)
            mono = g[0] * g[1]
            for row in g[2:]:
                mono *= row
            coef = self._counted()[0]
            return self._complete(np.einsum("em,m->e", coef, mono).tolist(), falling(n, POSITIONS))
        if backend == "auto":      # beyond the int64 bound: residues, as a batch of one would
            return self._big_ways([tuple(int(x) for x in value_counts)])[0]
        return self.ways_many([value_counts], backend=backend)[0]

    def ways_many(self, value_counts, chunk: int = BATCH_CHUNK, backend: str = "auto") -> list[list[int]]:
        """:meth:`ways` of many shoes (a sequence of value-count rows), equal list for list.

        Shoes are counted together, ``chunk`` at a time.  Up to 458 cards (every shoe of
        8 decks or fewer; :attr:`analyzer.core.blocks.BlockPlan.float_cards`): float64
        block products, exact by their bounds
        (:meth:`analyzer.core.blocks.BlockPlan.exact_float_ways`).  Under the int64 bound
        (:data:`INT64_LIMIT`, the same test as :meth:`ways`) with fewer than
        :data:`RESIDUE_EVENTS` counted rows: one :meth:`CoupTable.batch_monomial_rows`
        and one integer matrix product per chunk (every entry and partial sum at most that
        shoe's ``N (N-1) ... (N-5)``).  Beyond, or with more rows: :meth:`_big_ways`.
        Rows that are integer combinations of others (the tie: every deal less the
        Player's and Banker's wins) are derived, not counted (:func:`_derive_rows`;
        :meth:`_complete_many`).  ``backend`` other than ``"auto"``: every shoe by that
        arithmetic (:mod:`analyzer.core.backend`), a shoe beyond its bound refused.
        """
        rows = [tuple(int(x) for x in vc) for vc in value_counts]
        out: list = [None] * len(rows)
        if not rows:
            return out
        if backend == "python":
            return [self.ways_exact(vc) for vc in rows]
        cards = [sum(vc) for vc in rows]
        deals = [falling(n, POSITIONS) for n in cards]
        plan = self._block_plan()
        few = len(self._counted()[0]) < RESIDUE_EVENTS
        chosen = {}
        for n, d in zip(cards, deals):
            if n not in chosen:          # one choice per size of shoe (core/backend.py)
                chosen[n] = choose(backend, n, (
                    ("blocks", "float64", n <= plan.float_cards, True,
                     f"this table's float64 blocks are exact up to {plan.float_cards} cards"),
                    ("int64", "int64", d <= INT64_LIMIT, few, INT64_BOUND),
                    ("residues", "residues", True, True, "")))
        by = {"blocks": [], "int64": [], "residues": [], "python": []}
        for i, n in enumerate(cards):
            by[chosen[n]].append(i)
        exact_float, small, big = by["blocks"], by["int64"], by["residues"]
        coef = self._counted()[0]
        for start in range(0, len(exact_float), chunk):
            part = exact_float[start:start + chunk]
            ways = plan.exact_float_ways(np.array([rows[i] for i in part], dtype=np.int64))
            for i, w in zip(part, self._complete_many(ways, [deals[i] for i in part])):
                out[i] = w
        for start in range(0, len(small), chunk):
            part = small[start:start + chunk]
            mono = self._table.batch_monomial_rows(np.array([rows[i] for i in part], dtype=np.int64))
            # numpy's integer einsum loops run several times faster than its integer matmul
            ways = np.einsum("bm,em->be", mono, coef)                            # (B, counted rows)
            for i, w in zip(part, self._complete_many(ways, [deals[i] for i in part])):
                out[i] = w
        for start in range(0, len(big), chunk):
            part = big[start:start + chunk]
            for i, w in zip(part, self._big_ways([rows[i] for i in part])):
                out[i] = w
        return out

    def _big_ways(self, rows) -> list[list[int]]:
        """:meth:`ways` of shoes beyond the float64 bound: the sums modulo a few primes below
        ``2**31`` and the Chinese remainder theorem
        (:meth:`analyzer.core.blocks.BlockPlan.modular_ways`); 8 shoes or more beyond the int64
        bound with few rows, modulo ``2**64`` too (``BlockPlan.wrapped_ways``) for two primes."""
        deals = [falling(sum(vc), POSITIONS) for vc in rows]
        wrapped = None
        if max(deals) > INT64_LIMIT and len(self._counted()[0]) < RESIDUE_EVENTS and len(rows) >= 8:
            wrapped = self._block_plan().wrapped_ways(rows)
        ways = self._block_plan().modular_ways(rows, max(deals), wrapped)
        return [self._complete(w, d) for w, d in zip(ways, deals)]

    def ways_exact(self, value_counts) -> list[int]:
        """Same as :meth:`ways`, with Python integers only (any shoe size)."""
        ff = self._falling_table(value_counts)
        step = POSITIONS + 1
        mono = []
        for terms in self._exps:
            p = 1
            for v, k in terms:
                p *= ff[v * step + k]
            mono.append(p)
        if self._sparse is None:
            self._sparse = [[(m, int(c)) for m, c in enumerate(row) if c] for row in self.coef]
        return [sum(c * mono[m] for m, c in row) for row in self._sparse]
