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

The coefficients form one :class:`analyzer.core.ways.WaysTable` (no card
classes, the ten value counts and ``N``); its evaluator chooses the arithmetic and
states the bound that makes each exact (int64 under ``N (N-1) ... (N-5) < 2**63``,
float64 blocks up to 458 cards, residues beyond; Python integers the reference).
Nothing is ever rounded.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .features import View
from .rules import PUNTO_BANCO, Rules, deal
from .ways import BATCH_CHUNK, WaysTable, falling  # noqa: F401 (the engine's API)

VALUES = 10
POSITIONS = 6


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

    def __init__(self, table: CoupTable):
        super().__init__()
        self.naturals = table.rules.naturals
        self._values = {
            "player_card1": table.p1,
            "player_card2": table.p2,
            "player_card3": table.p3,
            "banker_card1": table.b1,
            "banker_card2": table.b2,
            "banker_card3": table.b3,
        }

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

    #: The arrays of the coups dealt (:meth:`_deal`): dealt when one is first read, as a run
    #: whose tables all come from the cache reads none of them.
    DEALT = (
        "p1",
        "b1",
        "p2",
        "b2",
        "p3",
        "b3",
        "player_two",
        "banker_two",
        "player_total",
        "banker_total",
        "player_cards",
        "banker_cards",
        "player_natural",
        "banker_natural",
        "natural",
        "winner",
        "cards_dealt",
    )

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or PUNTO_BANCO
        self.multiset, self.exponents = _multisets()

    def __getattr__(self, name: str):
        if name in CoupTable.DEALT:  # not dealt yet (once dealt, each is an attribute)
            self._deal()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _deal(self) -> None:
        rules = self.rules
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

    def features(self) -> CoupValues:
        """Every point-value feature of :data:`analyzer.core.features.REGISTRY` over the
        ``10**6`` sequences, computed from the registry when first read (one
        :class:`CoupValues` per table, shared: read only)."""
        if getattr(self, "_features", None) is None:
            self._features = CoupValues(self)
        return self._features

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


class Tabulation:
    """A fixed list of events on point values, compiled once, counted exactly on any shoe.

    ``Tabulation(masks).ways(value_counts)`` returns, for each event, the number
    of ordered six-card deals (over ``N (N-1) ... (N-5)``) that fall in it.  The
    events compile to one :class:`analyzer.core.ways.WaysTable` over the 5005
    multisets of six values (:attr:`ways_table`), whose evaluator counts them.
    """

    def __init__(
        self, masks: list[np.ndarray], table: CoupTable | None = None, coef: np.ndarray | None = None, partitions=None
    ):
        table = table or coup_table()
        if coef is None:
            coef = (
                np.stack([table.coefficients(m) for m in masks])
                if masks
                else np.zeros((0, table.multisets), dtype=np.int64)
            )
        self.coef = coef
        self.events = coef.shape[0]
        self._table = table
        self.ways_table = WaysTable.of_values(
            coef, table.exponents, None if partitions is None else (tuple(partitions), table)
        )

    @staticmethod
    def _cells(groups: np.ndarray, size: int, table: CoupTable) -> np.ndarray:
        keep = groups >= 0
        key = groups[keep].astype(np.int64) * table.multisets + table.multiset[keep]
        return np.bincount(key, minlength=size * table.multisets).reshape(size, table.multisets).astype(np.int64)

    @classmethod
    def grouped(cls, groups: np.ndarray, size: int, table: CoupTable | None = None) -> Tabulation:
        """One event per group id ``0 .. size-1`` of a partition of the value sequences
        (sequences with a negative id belong to no event); compiled in one pass."""
        table = table or coup_table()
        return cls([], table, cls._cells(groups, size, table))

    @classmethod
    def partitions(cls, parts, table: CoupTable | None = None) -> Tabulation:
        """One event per cell of each partition of ``parts`` (``[(codes, cells), ...]``: every
        value sequence in cell ``codes[i]``, ``0 .. cells-1``, of each), the partitions' rows one
        after the other; the table keeps the codes, so that its evaluator can count the cells
        from the cards each coup deals (:mod:`analyzer.core.prefix`)."""
        table = table or coup_table()
        parts = [(np.asarray(code), int(cells)) for code, cells in parts]
        coef = (
            np.concatenate([cls._cells(code, cells, table) for code, cells in parts])
            if parts
            else np.zeros((0, table.multisets), dtype=np.int64)
        )
        return cls([], table, coef, parts)

    def ways(self, value_counts, backend: str = "auto") -> list[int]:
        """Exact ways of each event for a shoe with these counts of values 0..9, in the
        arithmetic of ``backend`` (:mod:`analyzer.core.backend`; ``"auto"``: int64 under
        its bound, residues beyond; :meth:`analyzer.core.ways.WaysTable.ways`)."""
        vc = [int(x) for x in value_counts]
        return self.ways_table.ways(vc + [sum(vc)], backend)

    def ways_many(self, value_counts, chunk: int = BATCH_CHUNK, backend: str = "auto") -> list[list[int]]:
        """:meth:`ways` of many shoes (a sequence of value-count rows), equal list for list
        (:meth:`analyzer.core.ways.WaysTable.ways_many`: float64 blocks up to 458 cards,
        every shoe of 8 decks or fewer; int64 or residues beyond; rows that are integer
        combinations of others derived, not counted)."""
        return self.ways_table.ways_many(self._extended(value_counts), backend, chunk)

    @staticmethod
    def _extended(value_counts):
        """Value-count rows with ``N`` appended: an int64 array when the counts fit it, else
        lists of Python integers (the table's evaluator takes either)."""
        try:
            vc = np.array(value_counts, dtype=np.int64).reshape(-1, VALUES)
        except OverflowError:
            vc = None
        if vc is not None and (vc.size == 0 or int(vc.max()) < 2**52):  # the sums fit int64
            return np.concatenate([vc, vc.sum(axis=1, keepdims=True)], axis=1)
        rows = [[int(x) for x in v] for v in value_counts]
        return [r + [sum(r)] for r in rows]

    def ways_array(self, value_counts, backend: str = "auto") -> np.ndarray:
        """:meth:`ways_many` as one ``(B, events)`` array (``int64`` where every shoe's deals fit
        in it, else Python integers: :meth:`analyzer.core.ways.WaysTable.ways_array`)."""
        return self.ways_table.ways_array(self._extended(value_counts), backend)

    def ways_exact(self, value_counts) -> list[int]:
        """Same as :meth:`ways`, with Python integers only (any shoe size): the reference."""
        return self.ways(value_counts, "python")
