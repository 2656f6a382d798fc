"""Chunks of shoes to figures: exact integer sums per chunk, merged, then summarized.

:func:`run_chunk` deals and solves one chunk into a JSON-ready dict of exact
integer sums (kept per number of cards left); :class:`Aggregate` adds chunks
in any order to the same sums; :func:`summarize` turns them into the exact
figures of a :class:`StudyResult`.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import repeat
from operator import floordiv, mul

import numpy as np

from ..core.engine import POSITIONS, falling
from ..core.frames import bet_list, data_frame, frame_html
from ..core.shoe import MIN_CARDS, Shoe
from ..core.solver import Solver
from ..io.tables import exact
from .counting import count_correlations, count_summary
from .dealing import deal_shoe, remaining_counts
from .evs import BatchEV, ExactSums, batch_ev, exact_sum
from .params import CARDS_PER_DECK, FORMAT_VERSION, HIST_BINS_PER_UNIT, StudyError, StudyParams

#: Shoes whose coups :func:`priced_shoes` prices in one :meth:`BatchEV.numerators` call
#: (the numbers do not depend on it: every coup is counted exactly, and summed shoe by shoe).
BATCH_SHOES = 16


def priced_shoes(params: StudyParams, engine: BatchEV, first: int, count: int, tick=None):
    """Shoes ``first .. first + count - 1`` in order, each as ``(rank counts (K, 13) before
    each coup, EV numerators [bet][coup])``: the coups of :data:`BATCH_SHOES` shoes at a
    time go to the core together, in one :meth:`BatchEV.numerators` call.  ``tick(shoes)``:
    called as the pricing goes with the shoes of this range priced so far (a fraction
    within a batch: a shoe of 10,000 decks has ~100,000 coups)."""
    for group in range(first, first + count, BATCH_SHOES):
        left = [
            remaining_counts(params, deal_shoe(params, i))
            for i in range(group, min(group + BATCH_SHOES, first + count))
        ]
        cards = None if left[0][1] is None else np.concatenate([c for _, c in left])
        done, size = group - first, len(left)
        report = None if tick is None else (lambda share, done=done, size=size: tick(done + share * size))
        nums = engine.numerators(np.concatenate([r for r, _ in left]), cards, report)
        at = 0
        for ranks, _ in left:
            k = ranks.shape[0]
            yield ranks, [row[at : at + k] for row in nums]
            at += k


def run_chunk(params: StudyParams, index: int, tick=None) -> dict:
    """Deal and solve chunk ``index``; a JSON-ready dict of exact integer sums.

    A pure function of ``(params, index)``: any process or cluster worker gives
    the same dict.  ``tick(shoes)``: the chunk's shoes priced so far, as the work goes.
    """
    chunks = params.chunks()
    if not 0 <= index < len(chunks):
        raise StudyError(f"chunk {index} out of range")
    _, first, count = chunks[index]
    engine = batch_ev(params.bet_ids, params.bets_toml, params.rules())
    total = params.cards
    size = total + 1
    nb = len(engine.bets)
    coups = [0] * size
    pos = [[0] * size for _ in range(nb)]
    pos_sum = [[0] * size for _ in range(nb)]
    ssum = [[0] * size for _ in range(nb)]
    ssq = [[0] * size for _ in range(nb)]
    hist: list[Counter[tuple[int, int]]] = [Counter() for _ in range(nb)]
    shoe_win = [Fraction(0)] * nb
    shoe_win_sq = [Fraction(0)] * nb
    tags = params.tag_map()
    counted = [(i, np.asarray(tags[b.id][0], dtype=np.int64)) for i, b in enumerate(engine.bets) if b.id in tags]
    tc: dict[int, dict[int, list]] = {i: {} for i, _ in counted}  # bet -> tc -> [n, pos, {N: sum}]
    start = np.asarray(params.rank_counts, dtype=np.int64)
    step = params.depth_step
    hb = HIST_BINS_PER_UNIT
    deals = [falling(n, POSITIONS) for n in range(size)]
    # per counted bet: its index, the start shoe's total tag, its table; and all tags as one matrix
    count_tables = [(i, int(start @ t), tc[i]) for i, t in counted]
    tag_matrix = np.stack([t for _, t in counted], axis=1) if counted else None
    for ranks, nums in priced_shoes(params, engine, first, count, tick):
        left = ranks.sum(axis=1).tolist()
        for n in left:
            coups[n] += 1
        buckets = [(total - n) // step for n in left]
        dens_left: dict[int, list[int]] = {}  # scale -> each coup's deals(N) * scale
        for i in range(nb):
            p_i, ps_i, s_i, q_i, h_i = pos[i], pos_sum[i], ssum[i], ssq[i], hist[i]
            L = engine.scales[i]
            d_i = dens_left.get(L)
            if d_i is None:
                d_i = dens_left[L] = [deals[n] * L for n in left]
            x_i = nums[i]
            for x, n in zip(x_i, left):
                s_i[n] += x
                q_i[n] += x * x
            # each coup's (depth bucket, EV bin), counted by the Counter (in C)
            h_i.update(zip(buckets, map(floordiv, map(mul, x_i, repeat(hb)), d_i)))
            win = 0.0
            if x_i and max(x_i) > 0:
                for x, n, den in zip(x_i, left, d_i):
                    if x > 0:
                        p_i[n] += 1
                        ps_i[n] += x
                        win += x / den
            shoe_win[i] += Fraction(win)
            shoe_win_sq[i] += Fraction(win) * Fraction(win)
        if counted:
            running = ((start - ranks) @ tag_matrix).T.tolist()  # running count of each counted bet
            dealt = [total - n for n in left]
            per_deck = [n * total for n in left]
        for (i, t_total, table), rc in zip(count_tables, running if counted else ()):
            for x, n, r, d, nd in zip(nums[i], left, rc, dealt, per_deck):
                b = (CARDS_PER_DECK * (r * total - t_total * d)) // nd
                cell = table.get(b)
                if cell is None:
                    cell = table[b] = [0, 0, {}]
                cell[0] += 1
                if x > 0:
                    cell[1] += 1
                sums = cell[2]
                sums[n] = sums.get(n, 0) + x

    def sparse(values):
        return {str(n): v for n, v in enumerate(values) if v}

    bets = {}
    for i, bet in enumerate(engine.bets):
        h: dict[str, dict[str, int]] = {}
        for (bucket, b), c in sorted(hist[i].items()):
            h.setdefault(str(bucket), {})[str(b)] = c
        entry = {
            "scale": engine.scales[i],
            "positive": sparse(pos[i]),
            "positive_sum": sparse(pos_sum[i]),
            "sum": sparse(ssum[i]),
            "sum_squares": sparse(ssq[i]),
            "histogram": h,
            "shoe_win": exact(shoe_win[i]),
            "shoe_win_squares": exact(shoe_win_sq[i]),
        }
        if i in tc:
            entry["count"] = {
                str(b): {"coups": cell[0], "positive": cell[1], "sum": {str(n): v for n, v in sorted(cell[2].items())}}
                for b, cell in sorted(tc[i].items())
            }
        bets[bet.id] = entry
    return {
        "format": FORMAT_VERSION,
        "key": params.key(),
        "index": index,
        "first_shoe": first,
        "shoes": count,
        "coups": sparse(coups),
        "bets": bets,
    }


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
            dst = self.bets.setdefault(
                bet_id,
                {
                    "scale": src["scale"],
                    "positive": {},
                    "positive_sum": {},
                    "sum": {},
                    "sum_squares": {},
                    "histogram": {},
                    "shoe_win": Fraction(0),
                    "shoe_win_squares": Fraction(0),
                    "count": None,
                },
            )
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


QUANTILES = (
    ("p05", Fraction(5, 100)),
    ("p25", Fraction(25, 100)),
    ("p50", Fraction(50, 100)),
    ("p75", Fraction(75, 100)),
    ("p95", Fraction(95, 100)),
)


@dataclass
class StudyResult:
    """Figures of a finished study.  Every ``Fraction`` is exact."""

    params: StudyParams
    shoes: int
    coups: int
    coups_by_left: dict[int, int]
    bets: dict[str, dict]
    run: dict = field(default_factory=dict)  # how it ran: not part of the numbers

    def bet(self, bet_id: str) -> dict:
        return self.bets[bet_id]

    def __repr__(self) -> str:
        return f"<StudyResult of {self.shoes} shoes, {self.coups} coups: {bet_list(self.bets)}>"

    def _repr_html_(self) -> str:
        """A notebook's table: one row per bet (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), repr(self)[1:-1])

    def to_frame(self):
        """One row per bet: the full-shoe and mean EV and the perfect-play figures."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        rows = []
        for bet_id, b in self.bets.items():
            row = {"bet": bet_id, "full_shoe_ev": b["full_shoe_ev"], "mean_ev": b["mean_ev"]}
            row.update(b["perfect_play"])
            rows.append(row)
        return rows


def summarize(params: StudyParams, agg: Aggregate, tick=None) -> StudyResult:
    """Exact figures from merged sums; ``tick(done, bets)`` after each bet's figures."""
    total_cards = params.cards
    shoes = agg.shoes
    coups = sum(agg.coups.values())
    step = params.depth_step
    start = params.start_shoe()
    bets = params.bets()
    base = Solver(bets, rules=params.rules()).solve(start) if _solvable(start) else None
    tags = params.tag_map()
    correlations = count_correlations(params, bets, tags)
    out: dict[str, dict] = {}
    by_bucket: dict[int, list[int]] = {}  # depth bucket -> the cards-left counts in it
    for n in sorted(agg.coups):
        by_bucket.setdefault((total_cards - n) // step, []).append(n)
    for bet in bets:
        a = agg.bets.get(bet.id)
        if a is None:
            continue
        ex = ExactSums(a["scale"], agg.coups)
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
            "win_per_shoe_sd": sd_shoe,  # float: spread of one shoe's expected win
            "win_per_shoe_se": sd_shoe / math.sqrt(shoes) if shoes > 1 else float("nan"),
        }
        depth = []
        for k in sorted(by_bucket):
            ns = by_bucket[k]
            nco = sum(agg.coups[n] for n in ns)
            s = ex.value({n: a["sum"].get(n, 0) for n in ns})
            ssq = exact_sum(Fraction(a["sum_squares"].get(n, 0), ex.den[n] ** 2) for n in ns)
            m = s / nco
            depth_var = ssq / nco - m * m
            bins = a["histogram"].get(k, {})
            depth.append(
                {
                    "cards_dealt_from": k * step,
                    "cards_dealt_to": min((k + 1) * step - 1, total_cards),
                    "coups": nco,
                    "positive": sum(a["positive"].get(n, 0) for n in ns),
                    "mean_ev": m,
                    "sd": math.sqrt(max(float(depth_var), 0.0)),
                    "quantiles": {name: _quantile(bins, nco, q) for name, q in QUANTILES},
                    "min_bin": Fraction(min(bins), HIST_BINS_PER_UNIT) if bins else None,
                    "max_bin": Fraction(max(bins) + 1, HIST_BINS_PER_UNIT) if bins else None,
                    "histogram": dict(sorted(bins.items())),
                }
            )
        mean_by_left = {
            n: Fraction(a["sum"].get(n, 0), falling(n, POSITIONS) * a["scale"] * agg.coups[n])
            for n in sorted(agg.coups, reverse=True)
        }
        entry = {
            "bet": bet,
            "full_shoe_ev": base.bet(bet.id).ev if base else None,
            "mean_ev": mean,
            "perfect_play": perfect,
            "by_depth": depth,
            "mean_ev_by_cards_left": mean_by_left,
            "count": None,
        }
        if bet.id in tags and a["count"] is not None:
            entry["count"] = count_summary(a, ex, tags[bet.id], correlations.get(bet.id), shoes, win)
        out[bet.id] = entry
        if tick is not None:
            tick(len(out), len(bets))
    return StudyResult(params, shoes, coups, dict(sorted(agg.coups.items(), reverse=True)), out)


def _solvable(shoe: Shoe) -> bool:
    return shoe.cards >= MIN_CARDS
