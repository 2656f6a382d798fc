"""Shoe studies: exact perfect-play and card-counting figures over dealt shoes.

A study deals ``shoes`` shuffled shoes and, before every coup, computes each
selected bet's *exact* EV on the cards still in the shoe.  From those EVs it
reports, per bet, how often the bet is positive, by how much, what a player
who bets one unit exactly when the EV is positive ("perfect play") expects to
win per shoe, how the EV is spread by depth in the shoe, and what a linear
card count captures of it.

Conventions (fixed, and part of every result):

* **Shuffle.**  Shoe number ``i`` (0, 1, 2, ...) is shuffled by
  ``numpy.random.Generator(PCG64(SeedSequence([seed, i])))``: one permutation of
  the shoe's cards (``Generator.permutation``).  Every shoe has its own seed, so
  a shoe's cards do not depend on how shoes are grouped into chunks or on which
  process deals them.  No card is burnt.
* **Coups** are dealt card by card with :func:`analyzer.core.rules.play_coup`.
* **Cut card.**  The cut card sits with ``cut_card`` cards behind it.  A coup is
  started only while at least ``cut_card`` cards remain; the coup during which
  the cut card comes out is played to its end, and the shoe ends there.  So
  the last coup starts with at least ``cut_card`` cards left, and ``cut_card``
  must be at least 6 (a coup can use six cards).
* **EV of a coup** is the exact EV on the remaining shoe (the start shoe minus
  every card dealt before the coup), counted like :func:`analyzer.analyze`.
  For bets on point values it is computed here for all coups of a shoe at once
  (the same polynomial counts as :mod:`analyzer.core.engine`, one integer matrix
  product per shoe); bets that read ranks or suits go through
  :class:`analyzer.core.solver.Solver` coup by coup.
* **Exactness.**  A coup's EV is kept as an integer numerator over
  ``deals(N) * L`` (``deals(N) = N (N-1) ... (N-5)`` for ``N`` cards left, ``L``
  the common denominator of the bet's payouts).  Sums are kept per ``N`` as
  integers, so every total is an exact fraction and chunk results merge to
  the same numbers in any order.
* **True count** of a linear count with tags ``t_r`` is
  ``52 (RC - m * seen) / N``: the running count ``RC`` of the ``seen`` cards,
  centred by the start shoe's average tag ``m`` (0 for a balanced count), per
  deck left (``N`` cards left, exactly).  "Bet at trigger ``T``" means bet when
  the true count is at least ``T`` (``floor(true count) >= T``).

>>> p = StudyParams.create(Shoe.standard(1), shoes=2, seed=7, cut_card=14, bet_ids=("banker", "dragon7"))
>>> res = run_study(p)
>>> res.coups > 0 and res.shoes == 2
True
>>> coups = trace_shoe(p, 0)
>>> coups[0].cards_left, coups[0].evs["banker"] == analyze(Shoe.standard(1), ["banker"]).bet("banker").ev
(52, True)
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..bets.pricing import analyze  # noqa: F401  (doctest)
from ..core.solver import Solver, event_index
from ..bets.catalog import Bet, catalog, parse_catalog
from ..core.cards import POINTS, RANKS
from ..core.engine import POSITIONS, coup_table, falling
from ..core.errors import BaccaratError
from ..io.files import atomic_write
from ..core.rules import play_coup
from ..core.shoe import MIN_CARDS, Shoe

FORMAT_VERSION = 1

#: Shoes per chunk (the unit of parallel work and of checkpointing).  Results do
#: not depend on it (each shoe has its own seed), but chunk files do.
CHUNK_SHOES = 250

#: EV histogram resolution: bins of 1/HIST_BINS_PER_UNIT (0.02 percentage points).
HIST_BINS_PER_UNIT = 5000

CARDS_PER_DECK = 52

#: ``none``: no card is burnt.  ``standard``: the first card is turned face up
#: (seen) and as many cards as its point value (10 for a ten or a face card) are
#: burnt face down, unseen, before the first coup.
BURNS = ("none", "standard")
INT64_MAX = 2**63 - 1

_RANK_POINTS = np.array([POINTS[r] for r in RANKS], dtype=np.int64)


class StudyError(BaccaratError):
    """A study that cannot be run as asked."""


# ----------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class StudyParams:
    """Everything that determines a study's numbers (picklable, hashable)."""

    rank_counts: tuple[int, ...]
    card_counts: tuple[int, ...] | None
    shoes: int
    seed: int
    cut_card: int
    bet_ids: tuple[str, ...]
    bets_toml: str | None = None            # extra bets (a bets file's text), parsed by each worker
    tags: tuple[tuple[str, tuple[int, ...], str], ...] = ()   # (bet id, 13 tags A..K, source)
    depth_step: int = CARDS_PER_DECK
    chunk_shoes: int = CHUNK_SHOES
    burn: str = "none"

    @classmethod
    def create(cls, shoe: Shoe, shoes: int, seed: int, cut_card: int = 14,
               bet_ids: Iterable[str] = ("player", "banker", "tie"), bets_toml: str | None = None,
               tags: dict[str, dict[str, int]] | None = None, count: Iterable[str] | None = None,
               depth_step: int = CARDS_PER_DECK, chunk_shoes: int = CHUNK_SHOES,
               burn: str = "none") -> StudyParams:
        """Check the inputs and fix the count tags.

        ``count``: bets to study with a linear count (default: all of them);
        ``tags``: user tags per bet id (``{"dragon7": {"8": 2, ...}}``); a counted
        bet without user tags gets tags from its effects of removal on ``shoe``.
        """
        for name, v, lo in (("number of shoes", shoes, 1), ("seed", seed, 0), ("cut card", cut_card, 0),
                            ("depth step", depth_step, 1), ("shoes per chunk", chunk_shoes, 1)):
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise StudyError(f"{name} must be a whole number >= {lo}, got {v!r}")
        if cut_card < MIN_CARDS:
            raise StudyError(f"cut card must leave at least {MIN_CARDS} cards behind it "
                             f"(a coup can use {MIN_CARDS} cards), got {cut_card}")
        if cut_card > shoe.cards:
            raise StudyError(f"cut card {cut_card} is deeper than the shoe ({shoe.cards} cards): "
                             "no coup would be dealt")
        if burn not in BURNS:
            raise StudyError(f"unknown burn {burn!r} (choose from {', '.join(BURNS)})")
        bet_ids = tuple(dict.fromkeys(bet_ids))
        if not bet_ids:
            raise StudyError("no bets selected")
        bets = _bets(bet_ids, bets_toml)
        suited = [b.id for b in bets if _level(b) == "card"]
        if suited and not shoe.suited:
            raise StudyError(f"bet {suited[0]!r} reads suits, but the study's shoe is rank-only; "
                             "give the shoe with --decks or per card (As=8,...)")
        count_ids = list(bet_ids if count is None else dict.fromkeys(count))
        for b in count_ids:
            if b not in bet_ids:
                raise StudyError(f"--count names {b!r}, which is not among the selected bets "
                                 f"({', '.join(bet_ids)})")
        tags = dict(tags or {})
        for b in tags:
            if b not in bet_ids:
                raise StudyError(f"tags given for {b!r}, which is not among the selected bets")
            if b not in count_ids:
                count_ids.append(b)
        fixed = []
        need_eor = [b for b in count_ids if b not in tags]
        effects = {}
        if need_eor:
            from ..reports.eor import effects_of_removal
            effects = effects_of_removal(shoe, [b for b in bets if b.id in need_eor]).bets
        for b in count_ids:
            if b in tags:
                fixed.append((b, tuple(int(tags[b].get(r, 0)) for r in RANKS), "user"))
            else:
                t = effects[b].tags()
                fixed.append((b, tuple(t[r] for r in RANKS), "effects of removal"))
        return cls(tuple(shoe.rank_tuple), shoe.card_tuple, shoes, seed, cut_card, bet_ids,
                   bets_toml, tuple(fixed), depth_step, chunk_shoes, burn)

    # -- views ------------------------------------------------------------------------
    def start_shoe(self) -> Shoe:
        return Shoe(self.rank_counts, self.card_counts)

    @property
    def cards(self) -> int:
        return sum(self.rank_counts)

    def bets(self) -> tuple[Bet, ...]:
        return _bets(self.bet_ids, self.bets_toml)

    def tag_map(self) -> dict[str, tuple[tuple[int, ...], str]]:
        return {b: (t, src) for b, t, src in self.tags}

    def chunks(self) -> list[tuple[int, int, int]]:
        """``(index, first shoe, number of shoes)`` of every chunk."""
        c = self.chunk_shoes
        return [(i, i * c, min(c, self.shoes - i * c)) for i in range((self.shoes + c - 1) // c)]

    def identity(self) -> dict:
        """What the chunk files depend on (not the number of shoes: a study can be extended)."""
        return {"format": FORMAT_VERSION, "rank_counts": list(self.rank_counts),
                "card_counts": None if self.card_counts is None else list(self.card_counts),
                "seed": self.seed, "cut_card": self.cut_card, "bets": list(self.bet_ids),
                "bets_toml": self.bets_toml,
                "tags": [[b, list(t), s] for b, t, s in self.tags],
                "depth_step": self.depth_step, "hist_bins_per_unit": HIST_BINS_PER_UNIT,
                "chunk_shoes": self.chunk_shoes, "burn": self.burn}

    def key(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@lru_cache(maxsize=16)
def _bets(bet_ids: tuple[str, ...], bets_toml: str | None) -> tuple[Bet, ...]:
    cat = catalog()
    if bets_toml:
        cat = cat.merged(parse_catalog(bets_toml, "bets file", frozenset(cat.bets)))
    return cat.select(list(bet_ids))


def _level(bet: Bet) -> str:
    used = frozenset().union(*(e.when.card_features for e in bet.events))
    if not used:
        return "value"
    from ..core.cardengine import level_for
    return level_for(used)


def bet_scale(bet: Bet) -> int:
    """``L``: the common denominator of a bet's payouts (EV numerators are over ``deals * L``)."""
    return math.lcm(*(e.pays.denominator for e in bet.events), bet.otherwise.denominator)


# ----------------------------------------------------------------------------- exact EVs
class BatchEV:
    """Exact EV numerators of many bets on many remaining shoes at once.

    For a bet with events ``e`` paying ``p_e`` and ``o`` otherwise,
    ``EV * deals * L = sum_e (p_e - o) L ways_e + o L deals``: one integer row over
    the 5005 value multisets of :mod:`analyzer.core.engine`, so the EVs of all coups of
    a shoe are one integer matrix product.  Bets reading ranks or suits are
    solved coup by coup with :class:`~analyzer.core.solver.Solver`.
    """

    def __init__(self, bets: tuple[Bet, ...], max_cards: int):
        self.bets = bets
        self.scales = [bet_scale(b) for b in bets]
        table = coup_table()
        features = table.features()
        self._table = table
        rows, consts, self.value_index, bound = [], [], [], 0
        self.solver_bets: list[int] = []
        for i, bet in enumerate(bets):
            if _level(bet) != "value":
                self.solver_bets.append(i)
                continue
            L, o = self.scales[i], bet.otherwise
            row = np.zeros(table.multisets, dtype=np.int64)
            paying = event_index(bet, features)
            weights = []
            for j, e in enumerate(bet.events):
                w = (e.pays - o) * L
                assert w.denominator == 1
                weights.append(abs(int(w)))
                row += table.coefficients(paying == j) * int(w)
            const = o * L
            rows.append(row)
            consts.append(int(const))
            self.value_index.append(i)
            bound = max(bound, max(weights, default=0) + abs(int(const)))
        self._rows = np.stack(rows) if rows else np.zeros((0, table.multisets), dtype=np.int64)
        self._consts = consts
        # int64 is exact when every term and partial sum stays below 2**63 (see engine.py).
        self.int64 = bound * falling(max_cards, POSITIONS) <= INT64_MAX
        self._solver = Solver(tuple(bets[i] for i in self.solver_bets)) if self.solver_bets else None

    def monomials(self, value_counts: np.ndarray) -> np.ndarray:
        """``(5005, K)`` products of falling factorials for ``K`` shoes (rows of value counts)."""
        return self._table.batch_monomials(value_counts, np.int64)

    def numerators(self, rank_counts: np.ndarray, card_counts: np.ndarray | None = None) -> list[list[int]]:
        """EV numerators ``[bet][coup]`` (over ``deals(N) * L_bet``) for remaining shoes.

        ``rank_counts``: ``(K, 13)`` counts A..K; ``card_counts``: ``(K, 52)`` when
        suits are tracked (needed only by bets that read suits).
        """
        k = rank_counts.shape[0]
        out: list[list[int]] = [[] for _ in self.bets]
        values = np.concatenate([rank_counts[:, 9:13].sum(axis=1, keepdims=True), rank_counts[:, :9]], axis=1)
        cards = rank_counts.sum(axis=1).tolist()
        deals = [falling(n, POSITIONS) for n in cards]
        if self.value_index:
            if self.int64:
                nums = (self._rows @ self.monomials(values)).tolist()
                for j, i in enumerate(self.value_index):
                    c = self._consts[j]
                    out[i] = [x + c * d for x, d in zip(nums[j], deals)]
            else:
                self._python_numerators(values, deals, out)
        if self._solver is not None:
            for c in range(k):
                if card_counts is not None:
                    shoe = Shoe(None, card_counts[c].tolist())
                else:
                    shoe = Shoe(rank_counts[c].tolist())
                res = self._solver.solve(shoe)
                for i in self.solver_bets:
                    ev = res.bet(self.bets[i].id).ev
                    out[i].append(ev.numerator * (deals[c] * self.scales[i] // ev.denominator))
        return out

    def _python_numerators(self, values, deals, out):
        """Python-integer path for shoes too large for int64."""
        from ..core.engine import Tabulation
        tab = getattr(self, "_tab", None)
        if tab is None:
            tab = self._tab = Tabulation([], coef=self._rows)
        for c in range(values.shape[0]):
            nums = tab.ways_exact(values[c].tolist())
            for j, i in enumerate(self.value_index):
                out[i].append(nums[j] + self._consts[j] * deals[c])


@lru_cache(maxsize=4)
def _engine(bet_ids: tuple[str, ...], bets_toml: str | None, max_cards: int) -> BatchEV:
    """One compiled engine per process and bet set."""
    return BatchEV(_bets(bet_ids, bets_toml), max_cards)


# ----------------------------------------------------------------------------- dealing
def shoe_rng(seed: int, index: int) -> np.random.Generator:
    """The generator that shuffles shoe number ``index`` of a study seeded ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))


@dataclass
class DealtShoe:
    """One shuffled shoe and where its coups start."""

    ranks: np.ndarray              # rank index 0..12 of each card, in dealing order
    cards: np.ndarray | None       # card index 0..51 (rank*4 + suit) when suits are tracked
    starts: list[int]              # position of each coup's first card
    ends: list[int]                # position after each coup's last card
    burnt: int = 0                 # cards burnt face down after the first card (standard burn)


def deal_shoe(params: StudyParams, index: int) -> DealtShoe:
    """Shuffle shoe ``index`` and deal it to the cut card (see the module conventions)."""
    rng = shoe_rng(params.seed, index)
    if params.card_counts is not None:
        deck = np.repeat(np.arange(52, dtype=np.int16), params.card_counts)
        cards = rng.permutation(deck)
        ranks = cards // 4   # same rank sequence as shuffling the rank-only shoe
    else:
        deck = np.repeat(np.arange(13, dtype=np.int16), params.rank_counts)
        cards = None
        ranks = rng.permutation(deck)
    values = _RANK_POINTS[ranks].tolist()
    total, cut = len(values), params.cut_card
    pos, burnt = 0, 0
    if params.burn == "standard" and total - 1 >= cut:
        burnt = values[0] or 10
        if total - 1 - burnt < cut:
            burnt = 0
        pos = 1 + burnt
    starts, ends = [], []
    while total - pos >= cut:
        coup = play_coup(values[pos:pos + POSITIONS])
        starts.append(pos)
        pos += coup.cards_used
        ends.append(pos)
    return DealtShoe(ranks, cards, starts, ends, burnt)


def _remaining(params: StudyParams, dealt: DealtShoe):
    """Rank counts ``(K, 13)`` left before each coup, and card counts ``(K, 52)`` if tracked.

    Cards burnt face down are not seen, so they still count as in the shoe.
    """
    def before(codes, size, start):
        onehot = np.eye(size, dtype=np.int64)[codes]
        if dealt.burnt:
            onehot[1:1 + dealt.burnt] = 0
        seen = np.zeros((len(codes) + 1, size), dtype=np.int64)
        np.cumsum(onehot, axis=0, out=seen[1:])
        return np.asarray(start, dtype=np.int64) - seen[dealt.starts]
    ranks = before(dealt.ranks, 13, params.rank_counts)
    cards = before(dealt.cards, 52, params.card_counts) if dealt.cards is not None else None
    return ranks, cards


@dataclass
class CoupTrace:
    """One coup of a traced shoe."""

    coup: int
    cards_dealt: int
    cards_left: int
    remaining: Shoe
    evs: dict[str, Fraction]
    true_counts: dict[str, Fraction]
    dealt: list[str]


def trace_shoe(params: StudyParams, index: int) -> list[CoupTrace]:
    """Every coup of shoe ``index`` with the exact EVs the study uses (for checking)."""
    engine = _engine(params.bet_ids, params.bets_toml, params.cards)
    dealt = deal_shoe(params, index)
    ranks, cards = _remaining(params, dealt)
    nums = engine.numerators(ranks, cards)
    tags = params.tag_map()
    start = np.asarray(params.rank_counts)
    out = []
    for c, (a, b) in enumerate(zip(dealt.starts, dealt.ends)):
        n = int(ranks[c].sum())
        d = falling(n, POSITIONS)
        shoe = Shoe(None, cards[c].tolist()) if cards is not None else Shoe(ranks[c].tolist())
        evs = {bet.id: Fraction(nums[i][c], d * engine.scales[i]) for i, bet in enumerate(engine.bets)}
        seen = start - ranks[c]
        tcs = {b: true_count(int(np.dot(seen, t)), int(np.dot(start, t)), int(start.sum()), n)
               for b, (t, _) in tags.items()}
        out.append(CoupTrace(c + 1, a, n, shoe, evs, tcs, [RANKS[r] for r in dealt.ranks[a:b].tolist()]))
    return out


def true_count(running: int, tag_total: int, cards: int, left: int) -> Fraction:
    """``52 (RC - m * seen) / left``: the running count per deck left, centred.

    ``m = tag_total / cards`` is the start shoe's average tag (0 for a balanced
    count, which makes this the usual ``RC / decks left``); centring makes an
    unbalanced count comparable: it is ``-52`` times the excess of the remaining
    cards' average tag over the start shoe's.

    >>> true_count(6, 0, 416, 104), true_count(10, 32, 416, 208)
    (Fraction(3, 1), Fraction(-3, 2))
    """
    return Fraction(CARDS_PER_DECK * (running * cards - tag_total * (cards - left)), left * cards)


# ----------------------------------------------------------------------------- one chunk
def run_chunk(params: StudyParams, index: int) -> dict:
    """Deal and solve chunk ``index``; a JSON-ready dict of exact integer sums.

    A pure function of ``(params, index)``: any process or cluster worker gives
    the same dict.
    """
    chunks = params.chunks()
    if not 0 <= index < len(chunks):
        raise StudyError(f"chunk {index} out of range")
    _, first, count = chunks[index]
    engine = _engine(params.bet_ids, params.bets_toml, params.cards)
    total = params.cards
    size = total + 1
    nb = len(engine.bets)
    coups = [0] * size
    pos = [[0] * size for _ in range(nb)]
    pos_sum = [[0] * size for _ in range(nb)]
    ssum = [[0] * size for _ in range(nb)]
    ssq = [[0] * size for _ in range(nb)]
    hist: list[dict[tuple[int, int], int]] = [{} for _ in range(nb)]
    shoe_win = [Fraction(0)] * nb
    shoe_win_sq = [Fraction(0)] * nb
    tags = params.tag_map()
    counted = [(i, np.asarray(tags[b.id][0], dtype=np.int64)) for i, b in enumerate(engine.bets) if b.id in tags]
    tc: dict[int, dict[int, list]] = {i: {} for i, _ in counted}     # bet -> tc -> [n, pos, {N: sum}]
    start = np.asarray(params.rank_counts, dtype=np.int64)
    step = params.depth_step
    hb = HIST_BINS_PER_UNIT
    deals = [falling(n, POSITIONS) for n in range(size)]
    dens = [[d * L for d in deals] for L in engine.scales]
    for shoe_index in range(first, first + count):
        dealt = deal_shoe(params, shoe_index)
        ranks, cards = _remaining(params, dealt)
        nums = engine.numerators(ranks, cards)
        left = ranks.sum(axis=1).tolist()
        for n in left:
            coups[n] += 1
        seen = start - ranks
        for i in range(nb):
            p_i, ps_i, s_i, q_i, h_i, d_i = pos[i], pos_sum[i], ssum[i], ssq[i], hist[i], dens[i]
            win = 0.0
            for x, n in zip(nums[i], left):
                s_i[n] += x
                q_i[n] += x * x
                den = d_i[n]
                key = ((total - n) // step, (x * hb) // den)
                h_i[key] = h_i.get(key, 0) + 1
                if x > 0:
                    p_i[n] += 1
                    ps_i[n] += x
                    win += x / den
            shoe_win[i] += Fraction(win)
            shoe_win_sq[i] += Fraction(win) * Fraction(win)
        for i, t in counted:
            rc = (seen @ t).tolist()
            table = tc[i]
            t_total = int(start @ t)
            for x, n, r in zip(nums[i], left, rc):
                b = (CARDS_PER_DECK * (r * total - t_total * (total - n))) // (n * total)
                cell = table.get(b)
                if cell is None:
                    cell = table[b] = [0, 0, {}]
                cell[0] += 1
                if x > 0:
                    cell[1] += 1
                cell[2][n] = cell[2].get(n, 0) + x

    def sparse(values):
        return {str(n): v for n, v in enumerate(values) if v}

    bets = {}
    for i, bet in enumerate(engine.bets):
        h: dict[str, dict[str, int]] = {}
        for (bucket, b), c in sorted(hist[i].items()):
            h.setdefault(str(bucket), {})[str(b)] = c
        entry = {"scale": engine.scales[i], "positive": sparse(pos[i]), "positive_sum": sparse(pos_sum[i]),
                 "sum": sparse(ssum[i]), "sum_squares": sparse(ssq[i]), "histogram": h,
                 "shoe_win": _frac_text(shoe_win[i]), "shoe_win_squares": _frac_text(shoe_win_sq[i])}
        if i in tc:
            entry["count"] = {str(b): {"coups": cell[0], "positive": cell[1],
                                       "sum": {str(n): v for n, v in sorted(cell[2].items())}}
                              for b, cell in sorted(tc[i].items())}
        bets[bet.id] = entry
    return {"format": FORMAT_VERSION, "key": params.key(), "index": index, "first_shoe": first,
            "shoes": count, "coups": sparse(coups), "bets": bets}


def _frac_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


# ----------------------------------------------------------------------------- merging
def _add_into(target: dict, source: dict) -> None:
    for k, v in source.items():
        target[k] = target.get(k, 0) + v


@dataclass
class Aggregate:
    """Exact sums over chunks.  Adding is associative and commutative."""

    shoes: int = 0
    coups: dict[int, int] = field(default_factory=dict)
    bets: dict[str, dict] = field(default_factory=dict)

    def add(self, chunk: dict) -> None:
        self.shoes += chunk["shoes"]
        _add_into(self.coups, {int(n): c for n, c in chunk["coups"].items()})
        for bet_id, src in chunk["bets"].items():
            dst = self.bets.setdefault(bet_id, {
                "scale": src["scale"], "positive": {}, "positive_sum": {}, "sum": {}, "sum_squares": {},
                "histogram": {}, "shoe_win": Fraction(0), "shoe_win_squares": Fraction(0), "count": None})
            for name in ("positive", "positive_sum", "sum", "sum_squares"):
                _add_into(dst[name], {int(n): v for n, v in src[name].items()})
            for bucket, bins in src["histogram"].items():
                _add_into(dst["histogram"].setdefault(int(bucket), {}), {int(b): c for b, c in bins.items()})
            dst["shoe_win"] += Fraction(src["shoe_win"])
            dst["shoe_win_squares"] += Fraction(src["shoe_win_squares"])
            if "count" in src:
                cnt = dst["count"] if dst["count"] is not None else {}
                dst["count"] = cnt
                for b, cell in src["count"].items():
                    c = cnt.setdefault(int(b), {"coups": 0, "positive": 0, "sum": {}})
                    c["coups"] += cell["coups"]
                    c["positive"] += cell["positive"]
                    _add_into(c["sum"], {int(n): v for n, v in cell["sum"].items()})


class _Exact:
    """Sums of numerators keyed by cards left ``N`` -> one exact fraction (common denominator)."""

    def __init__(self, scale: int, ns: Iterable[int]):
        self.den = {n: falling(n, POSITIONS) * scale for n in ns}
        self.common = math.lcm(*self.den.values()) if self.den else 1
        self.mult = {n: self.common // d for n, d in self.den.items()}

    def numerator(self, sums: dict[int, int]) -> int:
        return sum(v * self.mult[n] for n, v in sums.items())

    def value(self, sums: dict[int, int]) -> Fraction:
        return Fraction(self.numerator(sums), self.common)


# ----------------------------------------------------------------------------- results
def _quantile(bins: dict[int, int], total: int, q: Fraction) -> tuple[Fraction, Fraction]:
    """The histogram bin ``[lo, hi)`` holding the ``q`` quantile."""
    need = q * total
    acc = 0
    for b in sorted(bins):
        acc += bins[b]
        if acc >= need:
            return Fraction(b, HIST_BINS_PER_UNIT), Fraction(b + 1, HIST_BINS_PER_UNIT)
    b = max(bins)
    return Fraction(b, HIST_BINS_PER_UNIT), Fraction(b + 1, HIST_BINS_PER_UNIT)


QUANTILES = (("p05", Fraction(5, 100)), ("p25", Fraction(25, 100)), ("p50", Fraction(50, 100)),
             ("p75", Fraction(75, 100)), ("p95", Fraction(95, 100)))


@dataclass
class StudyResult:
    """Figures of a finished study.  Every ``Fraction`` is exact."""

    params: StudyParams
    shoes: int
    coups: int
    coups_by_left: dict[int, int]
    bets: dict[str, dict]
    run: dict = field(default_factory=dict)   # how it ran: not part of the numbers

    def bet(self, bet_id: str) -> dict:
        return self.bets[bet_id]


def summarize(params: StudyParams, agg: Aggregate) -> StudyResult:
    """Exact figures from merged sums."""
    total_cards = params.cards
    shoes = agg.shoes
    coups = sum(agg.coups.values())
    step = params.depth_step
    start = params.start_shoe()
    bets = params.bets()
    base = Solver(bets).solve(start) if _solvable(start) else None
    tags = params.tag_map()
    correlations = _correlations(params, bets, tags)
    out: dict[str, dict] = {}
    for bet in bets:
        a = agg.bets.get(bet.id)
        if a is None:
            continue
        ex = _Exact(a["scale"], agg.coups)
        npos = sum(a["positive"].values())
        pos_ev = ex.value(a["positive_sum"])
        mean = ex.value(a["sum"]) / coups if coups else Fraction(0)
        win = pos_ev / shoes
        sw, sw2 = a["shoe_win"], a["shoe_win_squares"]
        var = float(sw2 / shoes - (sw / shoes) ** 2) if shoes else 0.0
        sd_shoe = math.sqrt(max(var, 0.0) * shoes / (shoes - 1)) if shoes > 1 else float("nan")
        perfect = {
            "positive_coups": npos,
            "positive_fraction": Fraction(npos, coups) if coups else Fraction(0),
            "avg_edge_when_positive": pos_ev / npos if npos else None,
            "bets_per_shoe": Fraction(npos, shoes),
            "win_per_shoe": win,
            "win_per_shoe_sd": sd_shoe,                     # float: spread of one shoe's expected win
            "win_per_shoe_se": sd_shoe / math.sqrt(shoes) if shoes > 1 else float("nan"),
        }
        depth = []
        buckets = sorted({(total_cards - n) // step for n in agg.coups})
        for k in buckets:
            ns = [n for n in agg.coups if (total_cards - n) // step == k]
            nco = sum(agg.coups[n] for n in ns)
            s = ex.value({n: a["sum"].get(n, 0) for n in ns})
            ssq = sum((Fraction(a["sum_squares"].get(n, 0), (falling(n, POSITIONS) * a["scale"]) ** 2)
                       for n in ns), Fraction(0))
            m = s / nco
            var = ssq / nco - m * m
            bins = a["histogram"].get(k, {})
            depth.append({
                "cards_dealt_from": k * step, "cards_dealt_to": min((k + 1) * step - 1, total_cards),
                "coups": nco, "positive": sum(a["positive"].get(n, 0) for n in ns),
                "mean_ev": m, "sd": math.sqrt(max(float(var), 0.0)),
                "quantiles": {name: _quantile(bins, nco, q) for name, q in QUANTILES},
                "min_bin": Fraction(min(bins), HIST_BINS_PER_UNIT) if bins else None,
                "max_bin": Fraction(max(bins) + 1, HIST_BINS_PER_UNIT) if bins else None,
                "histogram": dict(sorted(bins.items())),
            })
        mean_by_left = {n: Fraction(a["sum"].get(n, 0), falling(n, POSITIONS) * a["scale"] * agg.coups[n])
                        for n in sorted(agg.coups, reverse=True)}
        entry = {"bet": bet, "full_shoe_ev": base.bet(bet.id).ev if base else None,
                 "mean_ev": mean, "perfect_play": perfect, "by_depth": depth,
                 "mean_ev_by_cards_left": mean_by_left, "count": None}
        if bet.id in tags and a["count"] is not None:
            entry["count"] = _count_summary(a, ex, tags[bet.id], correlations.get(bet.id), shoes, win)
        out[bet.id] = entry
    return StudyResult(params, shoes, coups, dict(sorted(agg.coups.items(), reverse=True)), out)


def _solvable(shoe: Shoe) -> bool:
    return shoe.cards >= MIN_CARDS


def _correlations(params: StudyParams, bets, tags) -> dict[str, dict]:
    """Effects of removal of the counted bets on the start shoe, and the tags' correlation."""
    if not tags:
        return {}
    from ..reports.eor import effects_of_removal
    eff = effects_of_removal(params.start_shoe(), [b for b in bets if b.id in tags]).bets
    out = {}
    for b, (t, _) in tags.items():
        e = eff[b]
        tag_map = dict(zip(RANKS, t))
        out[b] = {"vanishes": e.vanishes,
                  "correlation": None if e.vanishes else e.correlation(tag_map),
                  "effects": e.effects}
    return out


def _count_summary(a: dict, ex: _Exact, tag_info, corr, shoes: int, perfect_win: Fraction) -> dict:
    t, source = tag_info
    cells = a["count"]
    curve = []
    num, n_bets, n_pos = 0, 0, 0
    for b in sorted(cells, reverse=True):       # cumulative from the top: bet when TC >= b
        cell = cells[b]
        num += ex.numerator(cell["sum"])
        n_bets += cell["coups"]
        n_pos += cell["positive"]
        total_ev = Fraction(num, ex.common)
        curve.append({"trigger": b, "bets": n_bets, "bets_per_shoe": Fraction(n_bets, shoes),
                      "positive_bets": n_pos,
                      "avg_edge": total_ev / n_bets, "win_per_shoe": total_ev / shoes,
                      "share_of_perfect_play": (total_ev / shoes) / perfect_win if perfect_win > 0 else None})
    curve.reverse()
    best = None
    for row in curve:
        if row["win_per_shoe"] > 0 and (best is None or row["win_per_shoe"] >= best["win_per_shoe"]):
            best = row   # ties go to the higher trigger (fewer bets)
    all_tags = all(x == 0 for x in t)
    return {"tags": dict(zip(RANKS, t)), "source": source,
            "correlation": None if corr is None else corr["correlation"],
            "effects_vanish": bool(corr and corr["vanishes"]) or all_tags,
            "best": best, "curve": curve}


# ----------------------------------------------------------------------------- running
ProgressFn = Callable[[dict], None]


class ChunkStore:
    """Finished chunks as JSON files in a state directory (written atomically)."""

    def __init__(self, directory: Path, params: StudyParams):
        self.dir = Path(directory)
        self.params = params
        self.key = params.key()

    def _path(self, index: int, shoes: int) -> Path:
        return self.dir / f"chunk-{index:07d}-{shoes}.json"

    def prepare(self) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StudyError(f"cannot create state directory {str(self.dir)!r}: {e.strerror or e}") from None
        meta = self.dir / "study.json"
        ident = dict(self.params.identity(), key=self.key)
        if meta.exists():
            try:
                old = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                old = None
            if old is not None and old.get("key") != self.key:
                raise StudyError(f"state directory {str(self.dir)!r} holds another study "
                                 f"(key {old.get('key')}, this one is {self.key}); choose another --state")
        atomic_write(meta, (json.dumps(ident, indent=1, sort_keys=True) + "\n").encode())

    def load(self, index: int, shoes: int) -> dict | None:
        path = self._path(index, shoes)
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None     # damaged: computed again
        if (data.get("format") != FORMAT_VERSION or data.get("key") != self.key
                or data.get("index") != index or data.get("shoes") != shoes):
            return None
        return data

    def save(self, chunk: dict) -> None:
        text = json.dumps(chunk, separators=(",", ":"))
        atomic_write(self._path(chunk["index"], chunk["shoes"]), text.encode())


def default_state_dir(params: StudyParams, root: str | Path = ".baccarat-study") -> Path:
    return Path(root) / params.key()


def _worker_init() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent decides what an interrupt does


def _run_chunk_args(args) -> dict:
    return run_chunk(*args)


def run_study(params: StudyParams, *, jobs: int = 1, cluster: str | None = None,
              scheduler: str | None = None, state_dir: str | Path | None = None,
              progress: ProgressFn | None = None) -> StudyResult:
    """Run (or resume) a study and merge its chunks in chunk order.

    ``jobs``: local processes (``cluster is None``) or workers of a local Dask
    cluster (``cluster == "local"``); ``scheduler``: address of an existing Dask
    scheduler.  With ``state_dir`` every finished chunk is saved there and
    chunks already saved are not computed again.  On ``KeyboardInterrupt`` the
    finished chunks stay saved and the interrupt is raised again.
    """
    import time
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise StudyError(f"jobs must be a whole number >= 1, got {jobs!r}")
    if cluster not in (None, "local"):
        raise StudyError(f"unknown cluster {cluster!r} (use 'local', or --scheduler ADDRESS)")
    if cluster and scheduler:
        raise StudyError("give either a local cluster or a scheduler address, not both")
    t0 = time.perf_counter()
    store = ChunkStore(Path(state_dir), params) if state_dir is not None else None
    if store is not None:
        store.prepare()
    chunks = params.chunks()
    on_disk = {index for index, _, shoes in chunks
               if store is not None and store.load(index, shoes) is not None}
    missing = [c for c in chunks if c[0] not in on_disk]
    status = {"chunks": len(chunks), "reused": len(on_disk), "computed": 0, "shoes_total": params.shoes,
              "shoes_done": sum(c[2] for c in chunks if c[0] in on_disk), "shoes_computed": 0,
              "state_dir": None if store is None else str(store.dir)}
    # Chunks are merged in chunk order as soon as they are contiguous, so memory
    # holds only the chunks that finished ahead of an unfinished one.
    agg = Aggregate()
    pending: dict[int, dict] = {}
    cursor = [0]

    def merge_ready() -> None:
        while cursor[0] < len(chunks):
            index, _, shoes = chunks[cursor[0]]
            if index in pending:
                agg.add(pending.pop(index))
            elif index in on_disk:
                data = store.load(index, shoes)
                if data is None:
                    raise StudyError(f"chunk file {index} of {str(store.dir)!r} became unreadable during the run")
                agg.add(data)
            else:
                return
            cursor[0] += 1

    def finished(chunk: dict) -> None:
        key = chunk.get("key")
        if key != params.key():
            raise StudyError("a worker returned a chunk of another study (is the same version of "
                             "baccarat-analyzer installed on every worker?)")
        if store is not None:
            store.save(chunk)
        pending[chunk["index"]] = chunk
        status["computed"] += 1
        status["shoes_done"] += chunk["shoes"]
        status["shoes_computed"] += chunk["shoes"]
        merge_ready()
        if progress:
            progress(dict(status, elapsed=time.perf_counter() - t0))

    if progress:
        progress(dict(status, elapsed=0.0))
    merge_ready()
    engine = "in-process"
    if missing:
        if scheduler or cluster:
            engine = _run_dask(params, missing, jobs, cluster, scheduler, finished)
        elif jobs > 1 and len(missing) > 1:
            engine = _run_pool(params, missing, jobs, finished)
        else:
            for index, _, _ in missing:
                finished(run_chunk(params, index))
    merge_ready()
    assert cursor[0] == len(chunks) and not pending
    reused = len(on_disk)
    result = summarize(params, agg)
    elapsed = time.perf_counter() - t0
    result.run = {"engine": engine, "jobs": jobs, "chunks": len(chunks), "chunks_reused": reused,
                  "chunks_computed": status["computed"], "shoes_computed": status["shoes_computed"],
                  "elapsed_s": elapsed,
                  "shoes_per_s": status["shoes_computed"] / elapsed if elapsed > 0 else None,
                  "state_dir": status["state_dir"]}
    return result


def _run_pool(params, missing, jobs, finished) -> str:
    import multiprocessing as mp
    ctx = mp.get_context("spawn")
    pool = ctx.Pool(min(jobs, len(missing)), initializer=_worker_init)
    try:
        for chunk in pool.imap_unordered(_run_chunk_args, [(params, i) for i, _, _ in missing]):
            finished(chunk)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return f"{jobs} local processes"


def _run_dask(params, missing, jobs, cluster, scheduler, finished) -> str:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise StudyError("the cluster engine needs Dask distributed: "
                         "python -m pip install 'baccarat-analyzer[cluster]'") from None
    import logging
    local = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as e:
                raise StudyError(f"cannot connect to the Dask scheduler at {scheduler!r}: {e}") from None
            where = f"Dask scheduler {scheduler}"
        else:
            local = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                                 dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(local)
            where = f"Dask LocalCluster ({jobs} workers)"
        key = params.key()
        futures = [client.submit(run_chunk, params, i, key=f"baccarat-study-{key}-{i}-{n}")
                   for i, _, n in missing]
        try:
            for fut in as_completed(futures):
                finished(fut.result())
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            client.close()
    finally:
        if local is not None:
            local.close()
    return where
