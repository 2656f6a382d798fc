"""The solver: a set of bets compiled once, then counted exactly on any shoe.

A bet here is anything shaped like :class:`analyzer.bets.Bet`: an ``id``,
``events`` (each with ``event``, ``pays`` and a condition ``when`` offering
``mask(features)`` and ``card_features``), ``otherwise`` and
``otherwise_event``.  The core does not parse bets; :mod:`analyzer.bets` does.

Bets on point values only are counted by the value engine
(:mod:`analyzer.core.engine`); bets reading ranks or suits of the first two
cards of each hand by the card engine (:mod:`analyzer.core.cardengine`).  All
counts are over ``deals = N (N-1) ... (N-5)``.

>>> from analyzer.bets import catalog
>>> s = Solver(catalog().select(["banker", "player", "tie"]))
>>> a = s.solve(Shoe.standard(8))
>>> a.deals, a.ways("banker")
(4998398275503360, 2292252566437888)
>>> a.bet("banker").house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

import gc
import hashlib
import threading
from contextlib import nullcontext
from functools import lru_cache
from operator import itemgetter

import numpy as np

from .backend import check_backend
from .blocks import one_blas_thread
from .cardengine import CARD_LEVEL, MAX_EVALUATIONS, CardTabulation, evaluations, level_for
from .classbatch import shoe_rows
from .classengine import ClassTabulation, first_four_reads, reads_drawing
from .engine import POSITIONS, Tabulation, coup_table, falling
from .errors import BetError
from .features import DEAL_SLOTS, POSITION_FEATURES
from .results import OUTCOMES, Analysis, BetLayout, BetResult, BetResults, EventResult, built
from .rules import Rules
from .shoe import Shoe

#: Most distinct payout events (of point values) one solver holds.
MAX_EVENTS = 2_000

#: First-two-card features the pair engine (:mod:`analyzer.core.cardengine`) counts
#: fastest; bets reading other ranks or suits go to the card engine of every card.
PAIR_FEATURES = frozenset({"player_pair", "banker_pair", "player_suited_pair", "banker_suited_pair"})

#: Card-engine tabulations kept for reuse, by the conditions' texts, rules, known
#: cards and budget (a pay table read again compiles once; the least recently used
#: goes first), at most this many and this many bytes of arrays.
MAX_CACHED_TABS = 128
MAX_CACHED_BYTES = 400 * 2**20
_CLASS_TABS: dict = {}
#: The value engine's coefficients of each bet on point values, by its conditions' texts,
#: the rules and the known values (and of the three outcomes, by ``"outcomes"``), kept in
#: this process (the oldest dropped beyond :data:`MAX_VALUE_ROWS_BYTES`): evaluating a
#: bet's conditions over the 10**6 value sequences costs tens of milliseconds, and a
#: process's solvers share most bets.
_VALUE_ROWS: dict = {}
MAX_VALUE_ROWS_BYTES = 64 * 2**20
#: Most class sequences the card bets of one solver enumerate together by default (about
#: a minute and a half): a set beyond it is refused before any of them is compiled.
MAX_SET_SEQUENCES = 200_000_000


def forget_tabulations() -> None:
    """Empty the cache of card-engine tabulations (a solver keeps its own): for a long run
    that compiled bets it will not compile again (a hold band's joint bets), before it goes on."""
    _CLASS_TABS.clear()


__all__ = ["Solver", "SolverCache", "solve_each", "event_index", "Analysis", "BetResult", "EventResult", "OUTCOMES"]


#: Changes whenever what a stored tabulation holds changes meaning.
STORE_FORMAT = 1
#: ``store=DEFAULT``: the store given to :func:`set_store` (none unless one was).
DEFAULT = object()
_STORE: list = [None]


def set_store(store):
    """Make ``store`` the one every :class:`Solver` built without ``store=`` keeps its
    compiled tables in (``None``: none); returns the previous one.  The command line
    sets :class:`analyzer.io.cache.TableCache` for the run; a library caller chooses."""
    previous, _STORE[0] = _STORE[0], store
    return previous


def stored_key(cache_key) -> str:
    """The name a compiled table is stored under: a digest of ``cache_key`` (what
    decides it: the conditions' texts, the rules, the known cards, for a card-engine
    table the budget).  The store adds the rest (the package and its code).

    The text digested is the ``repr`` of plain values only (:func:`_plain`: the rules
    by :meth:`~analyzer.core.rules.Rules.key`, never by their short ``repr``), so two
    different keys never share a stored table."""
    text = repr((STORE_FORMAT, _plain(cache_key)))
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(value):
    """``value`` with every :class:`Rules` replaced by ``("Rules", rules.key())``; anything
    but tuples, lists and the plain scalars (whose ``repr`` is injective) is refused.

    >>> _plain(("a", None, 3, (True,)))
    ('a', None, 3, (True,))
    >>> _plain((object(),))
    Traceback (most recent call last):
    ...
    TypeError: no injective stored key for object
    """
    if value is None or isinstance(value, (str, int, float, bytes)):  # bool is an int
        return value
    if isinstance(value, Rules):
        return ("Rules", _plain(value.key()))
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    raise TypeError(f"no injective stored key for {type(value).__name__}")


def event_index(bet, features: dict | None = None) -> np.ndarray:
    """For each of the ``10**6`` value sequences, the index of the event of ``bet``
    that pays (the first whose condition holds), or ``len(bet.events)`` for the
    ``otherwise`` event.  Bets that read ranks or suits need the card engine."""
    features = features if features is not None else coup_table().features()
    return _first_match_index([e.when for e in bet.events], features)


def _first_match_index(conditions, features: dict) -> np.ndarray:
    index = np.full(features["winner"].shape, len(conditions), dtype=np.int16)
    taken = np.zeros(features["winner"].shape, dtype=bool)
    for i, c in enumerate(conditions):
        m = c.mask(features) & ~taken
        index[m] = i
        taken |= m
    return index


def needs_class_engine(conditions) -> bool:
    """True when conditions read cards beyond the ranks and suits of the first two
    cards of each hand (any dealt card, colours, faces, group functions)."""
    for c in conditions:
        if c.features & POSITION_FEATURES.keys() or any(k[0] == "pred" for k in c.card_keys):
            return True
        legacy = {f"{f.split('_')[0]}_card{d}" for f in c.card_features for d in "12"}
        if not c.positions <= legacy:
            return True
    return False


def _symmetric(conditions) -> bool:
    """True when conditions read the cards only through functions of one group:
    the order of those cards does not matter.  Any feature read beside the group
    functions (a position's rank, ``player_natural``, a two-card total) reads
    positions in order, so the conditions are not symmetric."""
    groups = set()
    for c in conditions:
        if c.features:
            return False
        groups |= {frozenset(DEAL_SLOTS[p][0] for p in g) for g in c.groups}
    return len(groups) == 1


def _first_match(conditions: list, i: int):
    """Event ``i`` of a pay table: its condition holds and no earlier one does."""

    def mask(features):
        m = conditions[i].mask(features)
        for earlier in conditions[:i]:
            m = m & ~earlier.mask(features)
        return m

    return mask


class Solver:
    """A set of bets compiled once; :meth:`solve` then counts any shoe exactly.

    Compiling evaluates each event's condition over all ``10**6`` value
    sequences (milliseconds per event).  Solving a shoe costs tens of
    microseconds for bets on point values, and about a millisecond more for
    bets that read ranks or suits (see :mod:`analyzer.core.cardengine`).
    ``rules``: the drawing tableau (:class:`analyzer.core.rules.Rules`), Punto
    Banco by default; each :class:`Analysis` carries it as ``rules``.
    ``known``: cards pinned at dealing positions (:class:`analyzer.core.known.Known`).
    ``budget`` and ``progress``: for bets the card engine counts
    (:class:`analyzer.core.classengine.ClassTabulation`); ``fallback``: a bet on
    the first two cards beyond that budget is counted by the pair engine instead
    (slower to compile; False: refused).  ``backend``: the arithmetic of every count
    (:mod:`analyzer.core.backend`: ``"auto"`` by default, the fastest exact one;
    ``"python"`` the Python-integer reference; ``"int64"``, ``"float64"``, ``"residues"``),
    the same integers from each.  ``store``: where compiled card-engine tables are kept
    between processes (by default the one given to :func:`set_store`, if any), any
    object with ``load(key) -> dict of arrays or None`` and ``save(key, arrays)``
    (:class:`analyzer.io.cache.TableCache` keeps them on disk);
    what it loads is checked (:meth:`ClassTabulation.from_arrays`), a table it cannot
    give back is compiled again, and the counts are the same either way.

    >>> from analyzer.bets import catalog
    >>> bets = catalog().select(["banker", "dragon7", "lucky_nines"])
    >>> shoe = Shoe.standard(2)
    >>> Solver(bets, backend="python").solve(shoe) == Solver(bets, backend="residues").solve(shoe)
    True
    """

    def __init__(
        self,
        bets,
        rules=None,
        known=None,
        budget=None,
        progress=None,
        fallback=True,
        backend: str | None = None,
        store=DEFAULT,
    ):
        self.backend = check_backend(backend)
        self._store = _STORE[0] if store is DEFAULT else store
        self.bets = tuple(bets)
        self._card_tabs: dict[str, CardTabulation | tuple[ClassTabulation, str]] = {}
        table = coup_table(rules)
        self.rules = table.rules
        self.known = known if known else None
        pin = self.known.mask(table) if self.known else None
        rows: list[np.ndarray] = []
        index: dict[bytes, int] = {}

        def row_of(coef):
            # events of the same coefficients (the same ways on every shoe) share one row
            key = hashlib.blake2b(coef.tobytes(), digest_size=20).digest()
            if key not in index:
                if len(rows) >= MAX_EVENTS:
                    raise BetError(
                        f"more than {MAX_EVENTS:,} distinct payout events in one solve; "
                        "price the bets in smaller groups"
                    )
                index[key] = len(rows)
                rows.append(coef)
            return index[key]

        # Where each bet event's count comes from: ("value", row) or (level, row).
        self._sources: list[list[tuple[str, int]]] = []
        card_events: dict[str, list] = {}
        card_names: dict[str, list[str]] = {}
        card_features: dict[str, frozenset[str]] = {}
        value_bets: list[tuple[int, list]] = []  # (index into _sources, conditions)
        self.suited_bets: list[str] = []
        self._class_tabs: list[ClassTabulation] = []
        self._to_compile: dict = {}
        for bet in self.bets:
            conds = [e.when for e in bet.events]
            used = frozenset().union(*(c.card_features for c in conds))
            tab = None
            if needs_class_engine(conds) or (used and (self.known or not used <= PAIR_FEATURES)):
                try:
                    tab = self._class_tab(bet, conds, table, budget, progress)
                except BetError:
                    # beyond the budget: the first-two-card engine may count it without enumerating
                    if (
                        not fallback
                        or needs_class_engine(conds)
                        or self.known
                        or evaluations(used, level_for(used), len(conds)) > MAX_EVALUATIONS
                    ):
                        raise
            if tab is not None:
                level = f"class{len(self._class_tabs)}"
                self._class_tabs.append(tab)
                self._card_tabs[level] = (tab, bet.id)
                sources = [(level, i) for i in range(len(conds))]
            elif not used:
                value_bets.append((len(self._sources), conds))
                sources = []  # filled below, from the rows of every such bet at once
            else:
                base = level = level_for(used)
                if level == CARD_LEVEL:
                    self.suited_bets.append(bet.id)
                # bets share a tabulation while their signatures stay within the engine's
                # evaluations; beyond, the next bet starts another ("card#1", ...)
                n = 0
                while (
                    level in card_events
                    and evaluations(card_features[level] | used, base, len(card_events[level]) + len(conds))
                    > MAX_EVALUATIONS
                ):
                    n += 1
                    level = f"{base}#{n}"
                card_names.setdefault(level, []).append(bet.id)
                evs = card_events.setdefault(level, [])
                card_features[level] = card_features.get(level, frozenset()) | used
                sources = []
                for i in range(len(conds)):
                    sources.append((level, len(evs)))
                    evs.append(_first_match(conds, i))
            self._sources.append(sources)
        outcomes, got = self._value_rows([conds for _, conds in value_bets], table, pin)
        self._outcome_rows = [row_of(c) for c in outcomes]
        for (at, _conds), coef in zip(value_bets, got):
            self._sources[at] = [("value", row_of(c)) for c in coef]
        self._compile_class_tabs(budget, progress)
        self._tab = Tabulation([], table, np.stack(rows))
        for level, evs in card_events.items():
            what = "bet " + ", ".join(repr(n) for n in card_names[level])
            self._card_tabs[level] = CardTabulation(evs, card_features[level], level.split("#")[0], table, what)

    def _class_tab(self, bet, conds, table, budget, progress) -> ClassTabulation:
        """The card engine's tabulation of one bet (compiled, or reused from the cache)."""
        keys = frozenset().union(*(c.card_keys for c in conds))
        positions = frozenset().union(*(c.positions for c in conds))
        drawing = any(reads_drawing(c.features, c.positions) for c in conds)
        if not drawing:
            extra_keys, extra_positions = first_four_reads(frozenset().union(*(c.features for c in conds)))
            keys, positions = keys | extra_keys, positions | extra_positions
        pins = self.known.pins() if self.known else None
        cache_key = (tuple(c.text for c in conds), self.rules, repr(pins), budget)
        tab = _CLASS_TABS.get(cache_key) or self._to_compile.get(cache_key) or self._stored(cache_key)
        if tab is None:
            # estimated only: the set's sequences are checked together, then compiled
            tab = ClassTabulation(
                [c.mask for c in conds],
                keys,
                positions,
                drawing,
                table,
                f"bet {bet.id!r}",
                budget=budget,
                progress=progress,
                requires=[c.requires for c in conds],
                symmetric=_symmetric(conds),
                pins=pins,
                defer=True,
            )
            self._to_compile[cache_key] = tab
        elif cache_key in _CLASS_TABS:
            _CLASS_TABS[cache_key] = _CLASS_TABS.pop(cache_key)  # most recently used last
        return tab

    def _value_rows(self, bets, table, pin) -> tuple[np.ndarray, list[np.ndarray]]:
        """The value engine's coefficients, known cards pinned: of the three outcomes
        (Player, Banker, Tie win: a ``(3, 5005)`` array), and of each event of each bet on
        point values (``bets``: each bet's conditions; one ``(events, 5005)`` array a bet, its
        events first-match); from :attr:`store` when it holds them for these conditions,
        rules and known values (one entry for the set), so that a run whose tables are all
        stored deals no coup table."""
        known = self.known.values if self.known else None
        key = stored_key(("value", tuple(tuple(c.text for c in conds) for conds in bets), self.rules, known))
        sizes = [len(conds) for conds in bets]
        at = np.cumsum([3] + sizes)[:-1]  # where each bet's rows start
        if self._store is not None:
            got = (self._store.load(key) or {}).get("rows")
            if (
                got is not None
                and got.dtype == np.int64
                and got.shape == (3 + sum(sizes), table.multisets)
                and (got >= 0).all()
            ):
                outcomes, *bet_rows = np.split(got, at)
                return outcomes, bet_rows

        def kept(memo_key, events: int, masks) -> np.ndarray:
            # kept in this process (a report's or a test's solvers share most bets); ``masks()``:
            # the events' masks over the value sequences, evaluated only when not kept
            got = _VALUE_ROWS.pop(memo_key, None)  # put back last: most recently used
            if got is None or got.shape != (events, table.multisets):
                got = np.stack([table.coefficients(m if pin is None else m & pin) for m in masks()])
                got.flags.writeable = False
                while _VALUE_ROWS and sum(a.nbytes for a in _VALUE_ROWS.values()) + got.nbytes > MAX_VALUE_ROWS_BYTES:
                    _VALUE_ROWS.pop(next(iter(_VALUE_ROWS)))  # the least recently used
            _VALUE_ROWS[memo_key] = got
            return got

        def outcome_masks():
            winner = table.features()["winner"]
            return [winner == code for code in range(3)]

        def event_masks(conds):
            index = _first_match_index(conds, table.features())
            return [index == i for i in range(len(conds))]

        outcomes = kept(("outcomes", self.rules, known), 3, outcome_masks)
        out = [
            kept((tuple(c.text for c in conds), self.rules, known), len(conds), lambda conds=conds: event_masks(conds))
            for conds in bets
        ]
        rows = np.concatenate([outcomes, *out])
        if self._store is not None:
            self._store.save(key, {"rows": rows})
        outcomes, *bet_rows = np.split(rows, at)
        return outcomes, bet_rows

    def _stored(self, cache_key) -> ClassTabulation | None:
        """The compiled tabulation of ``cache_key`` from :attr:`store` (kept in memory
        too), or ``None``: nothing stored, or what is stored does not check."""
        if self._store is None:
            return None
        arrays = self._store.load(stored_key(("class",) + cache_key))
        if arrays is None:
            return None
        try:
            tab = ClassTabulation.from_arrays(arrays)
        except (KeyError, ValueError, TypeError):
            return None
        self._keep(cache_key, tab)
        return tab

    def _keep(self, cache_key, tab) -> None:
        if self._store is not None:
            # its float64 batch plan is kept beside it (built after some shoes in batches)
            tab.ways_table.keep_plans_in(self._store, stored_key(("class_batch",) + cache_key))
        _CLASS_TABS[cache_key] = tab
        while len(_CLASS_TABS) > 1 and (
            len(_CLASS_TABS) > MAX_CACHED_TABS or sum(t.nbytes for t in _CLASS_TABS.values()) > MAX_CACHED_BYTES
        ):
            _CLASS_TABS.pop(next(iter(_CLASS_TABS)))

    def _compile_class_tabs(self, budget, progress) -> None:
        """Enumerate the card bets estimated by :meth:`_class_tab`, after checking that
        together they stay within the set's budget (:data:`MAX_SET_SEQUENCES`, or the
        per-bet budget when it is larger), under one progress bar; then cache them."""
        pending, self._to_compile = list(self._to_compile.items()), {}
        total = sum(tab.sequences for _, tab in pending)
        limit = max(MAX_SET_SEQUENCES, budget or 0)
        if total > limit:
            raise BetError(
                f"these {len(pending):,} card bets need {total:,} sequences of card classes together, "
                f"more than the {limit:,} one run enumerates; price them in smaller groups"
            )
        bar = progress(total, f"{len(pending)} card bets") if progress is not None and pending else None
        for key, tab in pending:
            tab.compile(bar)
            self._keep(key, tab)
            if self._store is not None:
                self._store.save(stored_key(("class",) + key), tab.arrays())
        if bar is not None:
            bar.close()

    def solve(self, shoe: Shoe) -> Analysis:
        """Exact :class:`Analysis` of ``shoe`` for these bets."""
        return self.solve_many([shoe], _single=True)[0]

    def solve_many(self, shoes, _single: bool = False) -> list[Analysis]:
        """Exact :class:`Analysis` of each shoe, equal to ``[solve(s) for s in shoes]``.

        The value engine counts the shoes under the int64 bound together
        (:meth:`analyzer.core.engine.Tabulation.ways_many`: batched monomials, one
        integer matrix product), larger ones with Python integers; the card engine
        counts pair-like bets from the class counts alone
        (:meth:`analyzer.core.cardengine.CardTabulation.ways_many`).  The first shoe
        :meth:`solve` would refuse raises the same error, before any work.
        """
        shoes = list(shoes)
        if not shoes:
            return []
        if len(shoes) > 1 and gc.isenabled():
            # a batch allocates a dozen acyclic objects a shoe: with the collector paused the
            # batch triggers one young collection, not one every 700 allocations (and the
            # full collections those cascade into, tens of ms with a catalog loaded)
            gc.disable()
            try:
                return self.solve_many(shoes, _single)
            finally:
                gc.enable()
        for level, tab in self._card_tabs.items():
            if level.split("#")[0] == CARD_LEVEL and not isinstance(tab, tuple):
                for shoe in shoes:
                    if not shoe.suited:
                        raise BetError(
                            f"bet {self.suited_bets[0]!r} reads suits, but this shoe's suits are unknown "
                            "(it was given per rank, or a card was removed without its suit); "
                            "give the shoe per card (As=8,...) or remove cards with their suits"
                        )
        value_counts = [shoe.value_counts for shoe in shoes]
        # a batch's matrix products on one BLAS thread, the limit set once for all of them
        with nullcontext() if _single else one_blas_thread():
            ways = self._ways(shoes, value_counts, _single)
        return [self._analysis(shoe, vc, w) for shoe, vc, w in zip(shoes, value_counts, ways)]

    def _ways(self, shoes, value_counts, _single: bool) -> list[dict]:
        """Each shoe's counts: ``{"value": value-engine rows, level: card-engine rows}``."""
        if _single:
            value_ways = [self._tab.ways(value_counts[0], self.backend)]
        else:
            value_ways = self._tab.ways_many(value_counts, backend=self.backend)
        ways = [{"value": w} for w in value_ways]
        if self.known:
            # pinned positions: W_V(E) / V * R over R * (N - k) ... (N - 5) deals (core/known.py)
            for shoe, vc, w in zip(shoes, value_counts, ways):
                physical, v = self.known.physical_ways(shoe), self.known.value_ways(vc)
                assert all(x % v == 0 for x in w["value"])
                w["value"] = [x // v * physical for x in w["value"]]
        rows = shoe_rows(shoes) if self._class_tabs and not _single else None
        for level, tab in self._card_tabs.items():
            if isinstance(tab, tuple):
                class_tab, bet_id = tab
                what = f"bet {bet_id!r}"
                got = (
                    [class_tab.ways(shoes[0], what, self.backend)]
                    if _single
                    else class_tab.ways_many(shoes, what, rows=rows, backend=self.backend)
                )
                for w, lw in zip(ways, got):
                    w[level] = lw
                continue
            counts = [shoe.card_tuple if level.split("#")[0] == CARD_LEVEL else shoe.rank_tuple for shoe in shoes]
            if _single:
                level_ways = [tab.ways(counts[0], value_counts[0], self.backend)]
            else:
                level_ways = tab.ways_many(counts, value_counts, backend=self.backend)
            for w, lw in zip(ways, level_ways):
                w[level] = lw
        return ways

    def _analysis(self, shoe: Shoe, value_counts, ways: dict) -> Analysis:
        # the counts of every bet event are gathered into one tuple of exact integers; the
        # BetResult and EventResult objects are built on first reading (core/results.py)
        deals = self.known.deals(shoe) if self.known else falling(sum(value_counts), POSITIONS)
        gather = getattr(self, "_gather", None)
        if gather is None:
            gather = self._gather = self._gathering()
        results, layout, pick, order = gather
        got = []
        for level, rows in pick:
            got += rows(ways[level])
        value_ways = ways["value"]
        outcomes = dict(zip(OUTCOMES, map(value_ways.__getitem__, self._outcome_rows)))
        bets = results(layout, deals, order(got) if order else tuple(got))
        return built(Analysis, shoe=shoe, deals=deals, outcomes=outcomes, bets=bets, rules=self.rules, known=self.known)

    def _gathering(self):
        """For :meth:`_analysis`, once: :class:`BetResults`; the bets' :class:`BetLayout`;
        for each level, an ``itemgetter`` of the rows its events read (a slice when they
        are consecutive); and the ``itemgetter`` putting the rows read in the bets' order
        (``None``: they are)."""
        entries = []
        flat: list[tuple[str, int]] = []
        for bet, sources in zip(self.bets, self._sources):
            entries.append(
                (
                    bet,
                    tuple((e.event, e.pays) for e in bet.events),
                    (bet.otherwise_event, bet.otherwise),
                    len(flat),
                    len(flat) + len(sources),
                )
            )
            flat += sources
        by_level: dict[str, list[tuple[int, int]]] = {}
        for at, (level, row) in enumerate(flat):
            by_level.setdefault(level, []).append((at, row))
        pick, read = [], []
        for level, places in by_level.items():
            rows = [row for _, row in places]
            consecutive = rows == list(range(rows[0], rows[0] + len(rows)))
            pick.append((level, itemgetter(slice(rows[0], rows[-1] + 1)) if consecutive else itemgetter(*rows)))
            read += [at for at, _ in places]
        # got[j] is the count of flat event read[j]: the bets' order takes got[read.index(at)]
        where = {at: j for j, at in enumerate(read)}
        order = None if read == sorted(read) else itemgetter(*(where[at] for at in range(len(flat))))
        return BetResults, BetLayout(entries), pick, order


#: Compiled solvers a :class:`SolverCache` keeps by default: bets on point values only take
#: about 0.25 MB a solver; bets reading ranks or suits about 8 MB (the whole catalog).
SOLVER_CACHE = 128
CARD_SOLVER_CACHE = 8


class _Bets:
    """A tuple of bets as a cache key, hashed once (hashing a bet hashes each event's
    condition and pays: 6 µs for the three main bets, 170 µs for the catalog)."""

    __slots__ = ("_hash", "bets")

    def __init__(self, bets: tuple):
        self.bets, self._hash = bets, hash(bets)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Bets) and self._hash == other._hash and self.bets == other.bets


class SolverCache:
    """Compiled solvers by ``(bets, known cards, rules)``, the least recently used dropped
    (a :func:`functools.lru_cache` of ``size``; by default :data:`CARD_SOLVER_CACHE` when a
    bet reads ranks or suits, else :data:`SOLVER_CACHE`); ``bets`` of :meth:`get` defaults to
    the set given here, ``options`` are passed to every :class:`Solver` (``budget``,
    ``progress``).  Threads may share it: one compiles at a time, and a solver is never
    compiled twice while it is kept.

    >>> from analyzer.bets import catalog
    >>> from analyzer.core.rules import PUNTO_BANCO
    >>> cache = SolverCache(catalog().select(["tie"]))
    >>> cache.get(None, PUNTO_BANCO) is cache.get(None, PUNTO_BANCO), cache.compiled
    (True, 1)
    """

    def __init__(self, bets=(), size: int | None = None, options: dict | None = None):
        self.options = options or {}
        if size is None:
            cards = any(e.when.reads_cards for b in bets for e in b.events)
            size = CARD_SOLVER_CACHE if cards else SOLVER_CACHE
        self.bets, self.size = tuple(bets), size
        self.lock = threading.Lock()
        self.compile = lru_cache(maxsize=size)(lambda key, known, rules: self.new_solver(key.bets, known, rules))
        # the key of the bets asked for last (a batch asks for the same list on every line)
        self._last: tuple = (None, _Bets(self.bets))

    def new_solver(self, bets, known, rules) -> Solver:
        """A new :class:`Solver` (uncached: :meth:`get` caches it)."""
        return Solver(bets, rules=None if rules.is_default else rules, known=known, **self.options)

    def get(self, known, rules, bets=None) -> Solver:
        """The solver of ``bets`` (default: the cache's) with ``known`` cards under ``rules``."""
        with self.lock:
            given, key = self._last
            if bets is not given:
                key = _Bets(self.bets if bets is None else tuple(bets))
                self._last = (bets, key)
            return self.compile(key, known or None, rules)

    @property
    def compiled(self) -> int:
        """Solvers compiled so far (cache misses)."""
        return self.compile.cache_info().misses

    def cache_info(self):
        return self.compile.cache_info()


def solve_each(jobs) -> list[Analysis]:
    """The analysis of each ``(solver, shoe)`` of ``jobs``, in order, equal to
    ``[solver.solve(shoe) for solver, shoe in jobs]``: the shoes of one solver are solved
    together (:meth:`Solver.solve_many`).

    >>> from analyzer.bets import catalog
    >>> s, t = Solver(catalog().select(["tie"])), Solver(catalog().select(["banker"]))
    >>> shoes = [Shoe.standard(1), Shoe.standard(2), Shoe.standard(1)]
    >>> [a.bets.keys() == {"tie"} for a in solve_each([(s, shoes[0]), (t, shoes[1]), (s, shoes[2])])]
    [True, False, True]
    """
    jobs = list(jobs)
    groups: dict = {}
    for i, (solver, _) in enumerate(jobs):
        groups.setdefault(id(solver), (solver, []))[1].append(i)
    results: list = [None] * len(jobs)
    for solver, members in groups.values():
        for i, result in zip(members, solver.solve_many([jobs[i][1] for i in members]), strict=True):
            results[i] = result
    return results
