"""The one counting model of the core, and its one evaluator.

Every count the core makes is one quantity.  For a shoe whose *extended counts* are

    n_ext = (n[0], ..., n[K-1], v[0], ..., v[9], N)

(the shoe's cards of each of the ``K`` card classes a bet set tells apart, its cards of
each point value, its number of cards), the ordered six-card deals of event ``e`` are

    ways[e] = sum_m  coef[e, m] * prod_j (n_ext[idx[m, j]] - off[m, j])

a fixed integer combination of products of falling factorials: multiset ``m`` of
classes and values takes its cards class by class (``n - 0``, ``n - 1``, ...), a value
read only as a value takes what that value has left, and a position read not at all
takes from the rest of the shoe (``N - d``, ``N - d - 1``, ...).  Every product counts
ordered selections of distinct cards (each run of factors reaches 0 before it could go
negative), so every monomial, and every partial sum of non-negative coefficients times
monomials, is at most the shoe's deals ``N (N-1) ... (N-5)``.

:class:`WaysTable` is that table, a frozen value: the point-value engine
(:mod:`analyzer.core.engine`, ``K = 0``, the 5005 multisets of six values) and the
card engine (:mod:`analyzer.core.classengine`, any classes) compile bets into one.
:meth:`WaysTable.ways` and :meth:`WaysTable.ways_many` are the one evaluator: they
choose, per table and per size of shoe, the plan and the arithmetic
(:func:`analyzer.core.backend.choose`) among

``"python"``
    Python integers, term by term: the reference.
``"int64"``
    one shoe: a gather and five products per multiset; many: each monomial as the
    product of two halves of three factors (distinct halves computed once a shoe);
    exact while ``N (N-1) ... (N-5) <= 2**63 - 1`` (the bound above).
``"float64"``
    blocks of matrix products exact while every intermediate is an integer at most
    ``2**53``: :class:`~analyzer.core.blocks.BlockPlan` for point-value tables (low and
    high values), :class:`~analyzer.core.classbatch.ClassBatchPlan` for class tables (a
    side split chosen by cost), :class:`~analyzer.core.rankflush.RankFlushPlan` for a
    table of 52 classes that reads its cards only through their ranks and whether they
    are one suit (detected on the table itself); each checks its bound per shoe size.
``"residues"``
    the sums modulo primes below ``2**31`` and the Chinese remainder theorem
    (:meth:`~analyzer.core.blocks.BlockPlan.modular_ways`, :func:`~analyzer.core.modular.exact_dot`): any size.

and rows that are integer combinations of others and of the row of every sequence
(the tie: every deal less the Player's and the Banker's wins) are derived, not counted
(:attr:`WaysTable.counted`), when the table knows that row.

>>> import numpy as np
>>> t = WaysTable(coef=np.array([[1, 2]]), idx=np.array([[0, 0], [0, 1]]), off=np.array([[0, 1], [0, 0]]), k=2)
>>> t.ways([3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7])      # 3*2 + 2*3*4
[30]
>>> row = [3, 4] + [0] * 10 + [7]
>>> t.ways(row, backend="python") == t.ways_many([row])[0] == t.ways_many([row], backend="int64")[0] == [30]
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import classbatch
from .backend import INT64_BOUND, INT64_LIMIT, choose, falling
from .blocks import BlockPlan, unique_rows
from .classbatch import ClassBatchPlan, splits
from .features import CARD_TABLE
from .modular import exact_dot, usable
from .prefix import FLOAT_CARDS, PrefixPlan
from .rankflush import RankFlushPlan

POSITIONS = 6
VALUES = 10
#: Shoes counted together by :meth:`WaysTable.ways_many` (arrays of a few MB at most).
BATCH_CHUNK = 64
#: Most int64 monomials (shoes x multisets) one batch step holds (16 MB).
BATCH_ELEMENTS = 2**21
#: Most multisets whose int64 batches go by halves (beyond, shoe by shoe: the halves' tables
#: of a table of millions of multisets take more memory than they save time).
HALVES_MAX = 2**20
#: Counted rows from which a point-value table counts shoes beyond the float64 bound by
#: residues even under the int64 bound (measured on 20-deck shoes: numpy's integer
#: products cost about as much with 4 rows, 15% more with 15, 3.4x with 61).
RESIDUE_EVENTS = 8
#: Largest table whose rows are searched for integer combinations of others.
MAX_DERIVED_EVENTS = 256
#: Single shoes a table counts in plain int64 (every row, no plan built) before it builds
#: the plans that pay off over many shoes (derived rows, per rank multiset): a command
#: that counts one shoe should not spend 0.1 s building what it uses once.
SINGLE_PLAN_AFTER = 1
#: Most class multisets whose float64 batch plan (:class:`~analyzer.core.classbatch.ClassBatchPlan`)
#: is built: its build grows faster than the multisets (0.6 s for the catalog's largest table,
#: 81,279 multisets; 80 s and 4.4 GB for one of 3,991,044), so a bigger table has no float64
#: batch plan: ``"auto"`` counts it in int64 and ``"float64"`` refuses it, in one line.
CLASS_BATCH_MAX = 400_000

__all__ = ["WaysTable", "falling", "integer_arithmetic"]


def integer_arithmetic(backend: str, cards: int) -> str:
    """``"int64"`` or ``"python"``: the arithmetic of an engine with no table of this
    kind (the pair engine's closed form, :mod:`analyzer.core.cardengine`) for a shoe of
    ``cards`` cards: int64 under its bound (refused beyond when asked for by name),
    else Python integers."""
    return choose(backend, cards, (("int64", "int64", falling(cards, POSITIONS) <= INT64_LIMIT, True, INT64_BOUND),))


def _orderings(exponents: np.ndarray) -> np.ndarray:
    """Sequences of each multiset of six values: ``6! / prod_v k_v!``."""
    fact = np.array([math.factorial(k) for k in range(POSITIONS + 1)], dtype=np.int64)
    return math.factorial(POSITIONS) // fact[exponents].prod(axis=1)


@dataclass(frozen=True, eq=False)
class WaysTable:
    """Exact integer coefficients over multisets of card classes; see the module docstring.

    ``coef`` ``(events, M)`` non-negative int64 (class sequences of each multiset in each
    event); ``idx``, ``off`` ``(M, 6)`` the factors of each multiset, indices into the
    extended counts ``(K classes, 10 values, N)`` (``idx == K + 10`` is ``N``); ``k`` the
    number of classes; ``classes`` the class of each of the 52 cards (rank-major; ``None``
    for a point-value table, ``k == 0``); ``every`` the row of every sequence (its ways
    are the deals), when known; ``partitions`` ``(((codes, cells), ...), coup table)`` of a
    point-value table compiled from partitions of the value sequences (its rows the cells,
    one partition after the other), for :class:`~analyzer.core.prefix.PrefixPlan`.  The
    plans are built when first needed and kept.
    """

    coef: np.ndarray
    idx: np.ndarray
    off: np.ndarray
    k: int = 0
    classes: np.ndarray | None = None
    every: np.ndarray | None = None
    partitions: tuple | None = None
    _state: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        if self.coef.size and int(self.coef.min()) < 0:
            raise ValueError("a ways table counts sequences: its coefficients are non-negative")

    @classmethod
    def of_values(cls, coef: np.ndarray, exponents: np.ndarray, partitions=None) -> WaysTable:
        """The point-value table of ``coef`` over multisets of six values (``exponents``
        ``(M, 10)``: each multiset's count of each value), the row of every sequence known
        (``partitions``: as the class says)."""
        m = exponents.shape[0]
        idx = np.zeros((m, POSITIONS), dtype=np.int64)
        off = np.zeros((m, POSITIONS), dtype=np.int64)
        col = np.zeros(m, dtype=np.int64)
        rows = np.arange(m)
        for v in range(VALUES):
            for j in range(POSITIONS):
                take = exponents[:, v] > j
                idx[rows[take], col[take]] = v
                off[rows[take], col[take]] = j
                col[take] += 1
        return cls(np.ascontiguousarray(coef, dtype=np.int64), idx, off, 0, None, _orderings(exponents), partitions)

    # -- what the table is -------------------------------------------------------
    @property
    def events(self) -> int:
        return self.coef.shape[0]

    @property
    def multisets(self) -> int:
        return self.coef.shape[1]

    @property
    def width(self) -> int:
        """Length of an extended counts row: the classes, the ten values, ``N``."""
        return self.k + VALUES + 1

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays a shoe's count reads (what keeping the table costs)."""
        return self.coef.nbytes + 2 * (self.idx.nbytes + self.off.nbytes)

    @cached_property
    def exponents(self) -> np.ndarray | None:
        """A point-value table's count of each value in each multiset (else ``None``)."""
        if self.k or (self.idx >= VALUES).any():
            return None
        return np.stack([(self.idx == v).sum(axis=1) for v in range(VALUES)], axis=1)

    # -- plans ---------------------------------------------------------------------
    def built(self) -> tuple[str, ...]:
        """The plans built so far (each is built when first needed, then kept)."""
        names = ("counted", "blocks", "prefix", "rank_flush", "_halves", "class_batch", "python")
        return tuple(n.lstrip("_") for n in names if n in self.__dict__ or n in self._state)

    @cached_property
    def counted(self):
        """``(coef of the counted rows, their rows, derived)``: with :attr:`every` known,
        the rows that are integer combinations of the rows before them and of every
        sequence's row are derived, ``(row, [(counted row, c), ...], c_every)`` each; a
        combination is found in floating point but kept only if it reproduces the row
        exactly in integers, so a derived count is exact."""
        coef, events = self.coef, self.events
        if self.every is None or events > MAX_DERIVED_EVENTS or not events:
            return coef, list(range(events)), []
        basis: list[int] = []
        derived = []
        rows = np.vstack([coef, self.every])  # the last row: every sequence
        floats = rows.astype(float)
        gram = floats @ floats.T  # proposals by the normal equations
        for r in range(events):
            use = basis + [events]
            q = np.linalg.lstsq(gram[np.ix_(use, use)], gram[use, r], rcond=None)[0]
            qi = np.rint(q).astype(np.int64)
            if np.abs(q - qi).max() < 1e-6 and np.abs(qi).max() < 2**20 and (qi @ rows[use] == rows[r]).all():
                derived.append((r, [(basis[i], int(c)) for i, c in enumerate(qi[:-1]) if c], int(qi[-1])))
            else:
                basis.append(r)
        return np.ascontiguousarray(coef[basis]), basis, derived

    @cached_property
    def derived_weight(self) -> int:
        """The largest ``|c_every| + sum |c|`` of a derived row (0 with none): a derived
        row's partial sums are at most this many deals."""
        return max((abs(c_all) + sum(abs(c) for _, c in terms) for _, terms, c_all in self.counted[2]), default=0)

    @cached_property
    def blocks(self) -> BlockPlan | None:
        """The float64 (and residue) blocks of a point-value table's counted rows
        (:class:`~analyzer.core.blocks.BlockPlan`), or ``None`` for other tables."""
        if self.exponents is None:
            return None
        try:
            return BlockPlan(self.counted[0], self.exponents)
        except ValueError:  # coefficients beyond the blocks' bounds
            return None

    @cached_property
    def prefix(self) -> PrefixPlan | None:
        """The plan of a table compiled from partitions of the coups
        (:class:`~analyzer.core.prefix.PrefixPlan`), or ``None``."""
        if self.partitions is None:
            return None
        parts, coup_table = self.partitions
        return PrefixPlan.build(parts, coup_table)

    @cached_property
    def rank_flush(self) -> RankFlushPlan | None:
        """The plan per rank multiset of a table of the 52 cards that reads its first
        ``r`` cards only through their ranks and whether they share a suit
        (:class:`~analyzer.core.rankflush.RankFlushPlan`, checked on the table), or ``None``."""
        if self.k != 52 or self.classes is None or not self.multisets:
            return None
        fine = self.idx < self.k
        r = int(fine[0].sum())
        if not (fine[:, :r].all() and (self.idx[:, r:] == self.k + VALUES).all()):
            return None  # a value read, or not the first r columns
        card_of_class = np.empty(52, dtype=np.int64)
        card_of_class[self.classes] = np.arange(52)
        return RankFlushPlan.detect(self.coef, self.idx[:, :r], card_of_class)

    def class_batch(self) -> ClassBatchPlan | None:
        """The float64 blocks of a class table (:class:`~analyzer.core.classbatch.ClassBatchPlan`,
        built on this call and kept), or ``None`` for a point-value table."""
        if self.k == 0 or self.classes is None:
            return None
        if "class_batch" not in self._state and not self._stored_plan():
            rep = np.zeros(self.k, dtype=np.int64)
            rep[self.classes[::-1]] = np.arange(51, -1, -1)  # lowest card of each class
            coarse = bool(((self.idx >= self.k) & (self.idx < self.k + VALUES)).any())
            plan = ClassBatchPlan(
                self.idx, self.off, self.coef, self.k, splits(CARD_TABLE["value"][:52][rep], rep, CARD_TABLE, coarse)
            )
            self._state["class_batch"] = plan
            if "store" in self._state:
                store, key = self._state["store"]
                store.save(key, plan.arrays())
        return self._state["class_batch"]

    def keep_plans_in(self, store, key: str) -> None:
        """Keep this class table's float64 batch plan (:meth:`class_batch`) in ``store``
        under ``key`` (an object with ``load(key)`` and ``save(key, arrays)``, such as
        :class:`analyzer.io.cache.TableCache`): saved when built, and loaded instead of
        built, so that a later process batches with it from its first shoe."""
        self._state["store"] = (store, key)

    def _stored_plan(self) -> bool:
        """Whether the float64 batch plan is loaded from the store of :meth:`keep_plans_in`
        (tried once).  A stored plan is checked (:meth:`ClassBatchPlan.from_arrays`, and
        its ways of one shoe against the int64 count's); one that fails is built again."""
        if "class_batch" in self._state:
            return True
        if "store" not in self._state or "plan_tried" in self._state:
            return False
        self._state["plan_tried"] = True
        store, key = self._state["store"]
        arrays = store.load(key)
        if arrays is None:
            return False
        try:
            plan = ClassBatchPlan.from_arrays(arrays, self.coef, self.k)
            row = self._check_row()
            ok = plan.float_exact(row[-1]) and plan.ways(np.array([row]))[0].tolist() == self._int64_one(
                row, falling(row[-1], POSITIONS), plain=True
            )
        except (KeyError, ValueError, TypeError, IndexError):
            return False
        if ok:
            self._state["class_batch"] = plan
        return ok

    def _check_row(self) -> list[int]:
        """The extended counts of a shoe of 1 to 5 of each card (uneven, so every class and
        value is counted differently): the shoe a stored plan is checked on."""
        assert self.classes is not None  # a class table
        cards = np.arange(52) * 7 % 5 + 1
        classes = np.bincount(self.classes, weights=cards, minlength=self.k).astype(np.int64)
        values = np.bincount(CARD_TABLE["value"][:52], weights=cards, minlength=VALUES).astype(np.int64)
        return classes.tolist() + values.tolist() + [int(cards.sum())]

    @cached_property
    def _modular(self) -> bool:
        """Whether :func:`~analyzer.core.modular.exact_dot` takes these coefficients."""
        return usable(self.coef)

    @cached_property
    def _columns(self):
        """Each factor as one index into a shoe's table of ``n_ext[c] - o`` (``o`` up to the
        largest offset), factor-major: a factor is one gather, no subtraction."""
        width = int(self.off.max(initial=0)) + 1
        return np.ascontiguousarray((self.idx * width + self.off).T), width

    @cached_property
    def _halves(self):
        """Each multiset's factors as two halves of three: ``[(idx (3, H), off (3, H), half of
        each multiset)]`` for the int64 batches.  A half is at most ``(N + 6)**3`` in size; a
        factor is negative only after an earlier factor of its run reached 0, so the two
        halves' product is the multiset's, 0 or a count of ordered selections."""
        out = []
        width = self.idx.shape[1]
        for cols in (slice(0, min(3, width)), slice(min(3, width), width)):
            if cols.start == cols.stop:  # no factor: a half of 1
                out.append(
                    (
                        np.zeros((0, 1), dtype=np.int64),
                        np.zeros((0, 1), dtype=np.int64),
                        np.zeros(self.multisets, dtype=np.int64),
                    )
                )
                continue
            u, of = unique_rows(np.concatenate([self.idx[:, cols], self.off[:, cols]], axis=1))
            w = u.shape[1] // 2
            out.append((np.ascontiguousarray(u[:, :w].T), np.ascontiguousarray(u[:, w:].T), of))
        return out

    # -- the evaluator -------------------------------------------------------------
    def ways(self, counts, backend: str = "auto") -> list[int]:
        """Exact ordered six-card deals of each event for one shoe's extended counts
        (``K`` class counts, 10 value counts, ``N``), in the arithmetic of ``backend``
        (:mod:`analyzer.core.backend`): ``"auto"`` the fastest exact plan, a named back
        end its plan (a shoe beyond its bound refused), ``"python"`` the reference."""
        counts = [int(x) for x in counts]
        if backend == "float64":
            return self.ways_many([counts], backend=backend)[0]
        n = counts[-1]
        deals = falling(n, POSITIONS)
        plan = choose(backend, n, self._single_plans(n, backend))
        self._state["single"] = self._state.get("single", 0) + 1
        if plan == "int64_plain":
            return self._int64_one(counts, deals, plain=True)
        if plan == "python":
            return self._python(counts)
        if plan in ("rank_flush", "rank_flush_big"):
            return self._rank_flush([counts], plan == "rank_flush_big")[0]
        if plan == "residues":
            return self._residues([counts])[0]
        return self._int64_one(counts, deals)

    def _int64_one(self, counts: list[int], deals: int, plain: bool = False) -> list[int]:
        """One shoe in int64: a gather per factor, five products, one integer dot product
        (``plain``: of every row, none derived)."""
        coef = self.coef if plain else self.counted[0]
        flat, width = self._columns
        fac = (np.array(counts, dtype=np.int64)[:, None] - np.arange(width)).take(flat)
        mono = fac[0].copy()
        for col in range(1, fac.shape[0]):
            mono *= fac[col]
        # numpy's integer einsum loops run several times faster than its integer matmul
        got = np.einsum("em,m->e", coef, mono).tolist()
        return got if plain else self.complete(got, deals)

    def _single_plans(self, n: int, backend: str = "auto"):
        """This table's plans for one shoe of ``n`` cards, in the order ``"auto"`` prefers:
        for the first :data:`SINGLE_PLAN_AFTER` shoes under ``"auto"``, plain int64 when it
        is exact (no plan is built for them)."""
        int64 = falling(n, POSITIONS) <= INT64_LIMIT
        if (
            backend == "auto"
            and int64
            and self._state.get("single", 0) < SINGLE_PLAN_AFTER
            and "counted" not in self.__dict__
            and "rank_flush" not in self.__dict__
        ):
            return [("int64_plain", "int64", True, True, INT64_BOUND)]
        plans = []
        rf = self.rank_flush
        if rf is not None:
            plans += [
                ("rank_flush", "int64", math.perm(n, rf.r) < 2**63, True, INT64_BOUND),
                ("rank_flush_big", "python", True, True, ""),
            ]
        plans.append(("int64", "int64", int64, True, INT64_BOUND))
        if (not int64 or backend == "residues") and (self.blocks is not None or self._modular):
            plans.append(("residues", "residues", True, True, ""))  # needed beyond int64 only
        return plans

    def ways_many(self, rows, backend: str = "auto", chunk: int = BATCH_CHUNK) -> list[list[int]]:
        """:meth:`ways` of many shoes (rows of extended counts), equal list for list.

        Shoes of one size share a plan (:func:`~analyzer.core.backend.choose`, once per
        size) and are counted together, ``chunk`` at a time: float64 blocks within their
        bounds; int64 batches under the int64 bound (a point-value table with fewer than
        :data:`RESIDUE_EVENTS` counted rows; beyond, residues, which cost less); residues
        beyond.  A class table builds its float64 blocks once it has been asked for
        :data:`~analyzer.core.classbatch.PLAN_AFTER` shoes in batches (building one costs
        more than a few shoes save), at once under ``backend="float64"``.  ``rows``: a
        sequence of rows of integers, or an ``(B, width)`` int64 array."""
        return self._many(rows, backend, chunk, False)

    def ways_array(self, rows, backend: str = "auto", chunk: int = BATCH_CHUNK) -> np.ndarray:
        """:meth:`ways_many` as one ``(B, events)`` array: ``int64`` when every shoe's deals
        fit in it (no count passes its deals), else Python integers (``object``)."""
        return self._many(rows, backend, chunk, True)

    def _many(self, rows, backend: str, chunk: int, as_array: bool):
        ext: np.ndarray | None  # the rows as int64, when they fit
        lists: list[list[int]] | None  # as Python integers, unless given as int64
        if isinstance(rows, np.ndarray) and rows.dtype == np.int64 and rows.ndim == 2:
            ext, lists = rows, None
        else:
            lists = [[int(x) for x in r] for r in rows]
            # counts beyond int64 (no int64 or float64 plan is exact for them) stay Python integers
            fits = all(-(2**62) < x < 2**62 for r in lists for x in r)
            ext = np.array(lists, dtype=np.int64).reshape(len(lists), self.width) if fits else None
        if ext is None:
            assert lists is not None
            b_count, sizes = len(lists), [r[-1] for r in lists]
        else:
            b_count, sizes = ext.shape[0], ext[:, -1].tolist()
        # the deals grow with the shoe: int64 holds every count when the largest shoe's deals fit
        dtype = np.int64 if falling(max(sizes, default=0), POSITIONS) <= INT64_LIMIT else object

        def shaped(got):
            if not as_array:
                return got.tolist() if isinstance(got, np.ndarray) else got
            if isinstance(got, np.ndarray) and got.dtype == dtype:
                return got
            return np.array(got, dtype=dtype).reshape(-1, self.events)

        if not b_count:
            return shaped([])
        if backend == "python":
            py_rows = lists if ext is None else ext.tolist()
            assert py_rows is not None
            return shaped([self._python(r) for r in py_rows])
        self._state["batched"] = self._state.get("batched", 0) + b_count
        chosen = {n: self._chosen(n, backend) for n in set(sizes)}
        if len(set(chosen.values())) == 1:
            plan = next(iter(chosen.values()))
            groups: list[tuple[str, list[int] | None]] = [(plan, None)]  # every shoe: contiguous slices
        else:
            by: dict[str, list[int]] = {}
            for i, n in enumerate(sizes):
                by.setdefault(chosen[n], []).append(i)
            groups = list(by.items())
        out = (
            None
            if len(groups) == 1
            else np.empty((b_count, self.events), dtype=dtype)
            if as_array
            else [None] * b_count
        )
        for plan, members in groups:
            count = b_count if members is None else len(members)
            step = count if plan == "prefix" else chunk  # the prefix plan takes its own passes
            if plan == "int64":
                step = max(1, min(chunk, BATCH_ELEMENTS // max(1, self.multisets)))
            parts = []
            part: slice | list[int]
            for start in range(0, count, step):
                if members is None:
                    part = slice(start, start + step)
                    got = self._run(plan, None if ext is None else ext[part], None if lists is None else lists[part])
                else:
                    part = members[start : start + step]
                    got = self._run(
                        plan, None if ext is None else ext[part], None if lists is None else [lists[i] for i in part]
                    )
                if out is None:
                    parts.append(shaped(got))
                elif as_array:
                    assert isinstance(out, np.ndarray)
                    out[part] = shaped(got)
                else:
                    assert isinstance(part, list)  # several plans: the members of each
                    for i, w in zip(part, shaped(got)):
                        out[i] = w
            if out is None:  # one plan for every shoe, in order
                if len(parts) == 1:
                    return parts[0]
                return np.concatenate(parts) if as_array else [w for got in parts for w in got]
        return out

    def _chosen(self, n: int, backend: str) -> str:
        """The plan of a batch of shoes of ``n`` cards (:func:`~analyzer.core.backend.choose`,
        kept per size and back end once no plan is still to be built)."""
        pending = (
            self.k
            and self.rank_flush is None
            and "class_batch" not in self._state
            and self.coef.shape[1] <= CLASS_BATCH_MAX
        )
        cache = self._state.setdefault("chosen", {})
        plan = cache.get((n, backend))
        if plan is None:
            plan = choose(backend, n, self._batch_plans(n, backend))
            if not pending:
                cache[n, backend] = plan
        return plan

    def plan(self, n: int, backend: str = "auto", batch: bool = True) -> str:
        """The plan :meth:`ways_many` (``batch``) or :meth:`ways` takes for a shoe of ``n``
        cards under ``backend`` (a one-line refusal when that back end cannot count it)."""
        if not batch and backend != "float64":
            return choose(backend, n, self._single_plans(n, backend))
        return "python" if backend == "python" else self._chosen(n, backend)

    def _batch_plans(self, n: int, backend: str):
        """This table's plans for a batch of shoes of ``n`` cards, in the order ``"auto"`` prefers."""
        deals = falling(n, POSITIONS)
        int64 = deals <= INT64_LIMIT
        if self.blocks is not None:
            few = len(self.counted[1]) < RESIDUE_EVENTS
            first: tuple[tuple[str, str, bool, bool, str], ...] = ()
            if self.partitions is not None and self.prefix is not None:
                first = (
                    (
                        "prefix",
                        "float64",
                        POSITIONS <= n <= FLOAT_CARDS,
                        True,
                        f"the prefix sums are exact up to {FLOAT_CARDS} cards",
                    ),
                )
            return first + (
                (
                    "blocks",
                    "float64",
                    n <= self.blocks.float_cards,
                    True,
                    f"this table's float64 blocks are exact up to {self.blocks.float_cards} cards",
                ),
                ("int64", "int64", int64, few, INT64_BOUND),
                ("residues", "residues", True, True, ""),
            )
        plans = []
        rf = self.rank_flush
        if rf is not None:
            plans += [
                (
                    "rank_flush_float",
                    "float64",
                    rf.float_exact(n),
                    True,
                    "beyond the float64 bound of this bet's batch plan",
                ),
                ("rank_flush", "int64", math.perm(n, rf.r) < 2**63, True, INT64_BOUND),
                ("rank_flush_big", "python", True, True, ""),
            ]
        elif self.k:
            ready = (
                "class_batch" in self._state
                or backend == "float64"
                or self._state.get("batched", 0) >= classbatch.PLAN_AFTER
                or (self.coef.shape[1] <= CLASS_BATCH_MAX and self._stored_plan())
            )
            multisets = self.coef.shape[1]
            if multisets > CLASS_BATCH_MAX:
                plans.append(
                    (
                        "class_batch",
                        "float64",
                        False,
                        True,
                        f"this bet's table of {multisets:,} class multisets is beyond the "
                        f"float64 batch plan's {CLASS_BATCH_MAX:,}",
                    )
                )
            elif ready:
                class_batch = self.class_batch()
                assert class_batch is not None  # a class table (self.k) has one
                plans.append(
                    (
                        "class_batch",
                        "float64",
                        class_batch.float_exact(n),
                        True,
                        "beyond the float64 bound of this bet's batch plan",
                    )
                )
        plans.append(("int64", "int64", int64, True, INT64_BOUND))
        if self._modular:
            plans.append(("residues", "residues", True, True, ""))
        return plans

    def _run(self, plan: str, ext: np.ndarray | None, rows: list[list[int]] | None):
        """Ways of these shoes (of sizes ``plan`` is exact for) by ``plan``, as ``(B, events)``
        int64 or lists of Python integers: their rows as an int64 array ``ext`` and/or as
        lists of Python integers ``rows`` (either may be ``None``; the array is there
        whenever the counts fit int64)."""
        if plan in ("python", "residues", "rank_flush", "rank_flush_big"):
            if rows is None:
                assert ext is not None  # one of them is given
                rows = ext.tolist()
            if plan == "python":
                return [self._python(r) for r in rows]
            if plan == "residues":
                return self._residues(rows)
            return self._rank_flush(rows, plan == "rank_flush_big")
        assert ext is not None  # the other plans are chosen when the counts fit int64
        if plan == "rank_flush_float":
            rf = self.rank_flush
            assert rf is not None  # the plan exists: it was chosen
            rests = [falling(n - rf.r, POSITIONS - rf.r) for n in ext[:, -1].tolist()]
            return rf.ways_many(ext[:, self.classes], rests)
        if plan == "prefix":
            assert self.prefix is not None
            return self.prefix.ways(ext[:, :VALUES])
        if plan == "class_batch":
            class_batch = self.class_batch()
            assert class_batch is not None
            return class_batch.ways(ext)
        # the deals, for the rows derived from others (none: not needed)
        deals = [falling(n, POSITIONS) for n in ext[:, -1].tolist()] if self.counted[2] else None
        if plan == "blocks":
            assert self.blocks is not None
            return self.complete_many(self.blocks.exact_float_ways(ext[:, :VALUES]), deals)
        if self.multisets > HALVES_MAX:  # the halves' tables would cost more memory than they save
            return [self._int64_one(r, falling(r[-1], POSITIONS)) for r in ext.tolist()]
        # int64: every monomial the product of its two halves
        (i1, o1, of1), (i2, o2, of2) = self._halves
        halves = []
        for idx_t, off_t in ((i1, o1), (i2, o2)):
            if not idx_t.shape[0]:
                halves.append(np.ones((ext.shape[0], 1), dtype=np.int64))
                continue
            h = ext[:, idx_t[0]] - off_t[0]
            for j in range(1, idx_t.shape[0]):
                h *= ext[:, idx_t[j]] - off_t[j]
            halves.append(h)
        mono = halves[0][:, of1]
        mono *= halves[1][:, of2]
        return self.complete_many(np.einsum("bm,em->be", mono, self.counted[0]), deals)

    def _python(self, counts: list[int]) -> list[int]:
        """The reference: Python integers, term by term, every row counted."""
        if "python" not in self._state:
            self._state["python"] = [(np.flatnonzero(row), row[row != 0].astype(object)) for row in self.coef]
        idx_t, off_t = self.idx.T, self.off.T
        n_ext = np.array(counts, dtype=object)  # Python integers of any size
        mono = n_ext[idx_t[0]] - off_t[0]
        for col in range(1, idx_t.shape[0]):
            mono = mono * (n_ext[idx_t[col]] - off_t[col])
        return [int(c.dot(mono[at])) if len(at) else 0 for at, c in self._state["python"]]

    def _rank_flush(self, rows, big: bool) -> list[list[int]]:
        """Shoe by shoe per rank multiset, in int64 or (``big``) Python integers."""
        rf = self.rank_flush
        assert rf is not None  # the plan was chosen: the table has it
        r = rf.r
        assert self.classes is not None  # a class table
        out = []
        for row in rows:
            cards = [row[c] for c in self.classes.tolist()]  # one card a class
            out.append(rf.ways(cards, row[-1], falling(row[-1] - r, POSITIONS - r), big))
        return out

    def _residues(self, rows: list[list[int]]) -> list[list[int]]:
        """Ways modulo a few primes below ``2**31`` and the Chinese remainder theorem: a
        point-value table by its blocks (8 shoes or more beyond the int64 bound with few
        rows, modulo ``2**64`` too, for two primes), a class table shoe by shoe."""
        deals = [falling(r[-1], POSITIONS) for r in rows]
        plan = self.blocks
        if plan is None:
            return [exact_dot(self.coef, self.idx, self.off, r, max(d, 1)) for r, d in zip(rows, deals)]
        values = [r[:VALUES] for r in rows]
        wrapped = None
        if max(deals) > INT64_LIMIT and len(self.counted[1]) < RESIDUE_EVENTS and len(rows) >= 8:
            wrapped = plan.wrapped_ways(values)
        ways = plan.modular_ways(values, max(deals), wrapped)
        return [self.complete(w, d) for w, d in zip(ways, deals)]

    def complete(self, counted: list[int], deals: int) -> list[int]:
        """All rows' ways from the counted rows' (Python integers: no overflow)."""
        _, basis, derived = self.counted
        if not derived:
            return counted
        out = [0] * self.events
        for i, w in zip(basis, counted):
            out[i] = w
        for r, terms, c_all in derived:
            out[r] = c_all * deals + sum(c * out[i] for i, c in terms)
        return out

    def complete_many(self, counted: np.ndarray, deals: list[int] | None):
        """:meth:`complete` of many shoes: ``counted`` ``(B, counted rows)`` int64 ways; all
        rows' ways as ``(B, events)`` int64, or lists of Python integers.

        In ``int64`` when no value can pass the int64 bound: a derived row is
        ``c_all * deals + sum c * w`` with every ``w`` (a count of ways) at most the deals,
        so each partial sum is at most :attr:`derived_weight` times the largest deals;
        beyond that, Python integers."""
        _, basis, derived = self.counted
        if not derived:
            return counted
        assert deals is not None  # rows derived: the caller gives the deals
        if self.derived_weight * max(deals) > INT64_LIMIT:
            return [self.complete(w, d) for w, d in zip(counted.tolist(), deals)]
        out = np.empty((self.events, counted.shape[0]), dtype=np.int64)
        out[basis] = counted.T
        d = np.array(deals, dtype=np.int64)
        for r, terms, c_all in derived:
            row = d * c_all
            for i, c in terms:
                row += out[i] * c
            out[r] = row
        return out.T
