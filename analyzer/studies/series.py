"""Series bets over dealt shoes: placed at every eligible coup, settled across the coups that follow.

The shoe-aware side of :mod:`analyzer.bets.series` (which prices a series bet with
independent coups off the top).  Shoes are shuffled and dealt exactly as every study
deals them (:func:`analyzer.studies.dealing.deal_shoe`: shoe ``i`` seeded by
``SeedSequence([seed, i])``, the cut card, the burn, ``after_cut``).  Conventions:

* **Placed** at every coup where the bet's ``placed`` condition holds, one unit each, and,
  when the bet has ``placed_after_run = N``, after every ``N`` consecutive coups of its run
  condition at the table (skipped coups do not count, any other coup starts the count
  again: Banker Streak may be made after ten Banker wins in a row); several bets may be
  open at once.
* **Settled** on the coups after that one, in dealing order: a coup where ``run`` holds
  extends every open bet's run, a ``skip`` coup changes nothing, any other coup ends the
  runs (the bets are paid by their lengths); a run reaching the cap is paid and over.
* **Across a shuffle.**  The study's shoes are dealt one after the other at the same
  table: a bet still open when its shoe ends is settled on the first coups of the next
  shoe (the study says how many were).  Bets still open after the last shoe are not
  counted (the study says how many).
* **Figures.**  Each bet's net win is an exact payout; the sums per shoe are integers
  (payouts times their common denominator ``L``).  The mean net win per bet is exact;
  its 95% confidence interval treats shoes as independent (a ratio estimator: the sum
  over the shoes of the bets placed in each, over the bets placed; normal approximation).
  The off-the-top value (:func:`analyzer.bets.series.price_series`) is printed beside it.

Only conditions on point values are read (the dealt shoe's values give each coup's
sequence of six values; every coup's class is looked up in the coup table).

>>> from analyzer import Shoe
>>> from analyzer.bets.catalog import catalog
>>> from analyzer.studies.params import StudyParams
>>> p = StudyParams.create(Shoe.standard(8), shoes=20, seed=3, bet_ids=("banker",), count=[])
>>> s, = series_study(p, [catalog().series["banker_streak"]])
>>> s.placed == sum(s.histogram) and s.placed > 600
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..bets.series import SeriesBet, SeriesResult, price_series
from ..core.cards import POINTS, RANKS
from ..core.engine import POSITIONS, coup_table
from ..core.errors import BetError
from ..core.solver import event_index
from .dealing import deal_shoe
from .params import StudyParams

_RANK_POINTS = np.array([POINTS[r] for r in RANKS], dtype=np.int64)
_PLACES = 10 ** np.arange(POSITIONS - 1, -1, -1, dtype=np.int64)  # v1 * 10**5 + ... + v6

#: 1.96: the normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SeriesStudy:
    """One series bet over ``shoes`` dealt shoes: ``placed`` bets counted, ``histogram[k]``
    of them settled at run length ``k``, ``total`` the sum of their net wins times ``scale``
    (an integer; ``scale`` the payouts' common denominator), ``per_shoe`` the bets placed in
    each shoe and their summed net wins times ``scale``, ``crossed`` bets settled in a later
    shoe than their own, ``open_at_end`` bets not counted, ``coups`` coups dealt, and
    ``off_top`` the bet priced off the top of the start shoe."""

    bet: SeriesBet
    shoes: int
    coups: int
    placed: int
    histogram: tuple[int, ...]
    total: int
    scale: int
    per_shoe: tuple[tuple[int, int], ...]
    crossed: int
    open_at_end: int
    off_top: SeriesResult

    @property
    def mean(self) -> Fraction:
        """Mean net win per bet placed (exact); ``0`` when none was."""
        return Fraction(self.total, self.placed * self.scale) if self.placed else Fraction(0)

    @property
    def standard_error(self) -> float | None:
        """Standard error of :attr:`mean`, shoes as independent draws (``None``: fewer than
        two shoes with bets)."""
        if self.placed == 0 or self.shoes < 2:
            return None
        r = Fraction(self.total, self.placed)
        ss = sum((Fraction(s) - r * n) ** 2 for n, s in self.per_shoe)
        var = ss * self.shoes / (self.shoes - 1) / (self.placed * self.scale) ** 2
        return math.sqrt(var)

    @property
    def interval(self) -> tuple[float, float] | None:
        """95% confidence interval of :attr:`mean`."""
        se = self.standard_error
        if se is None:
            return None
        m = float(self.mean)
        return m - Z95 * se, m + Z95 * se


def _check_values_only(bet: SeriesBet) -> None:
    for key, c in (("placed", bet.placed), ("run", bet.run), ("skip", bet.skip)):
        if c is not None and (c.reads_cards or c.card_features):
            raise BetError(
                f"series bet {bet.id!r}: its {key} condition reads ranks or suits; the study "
                "of series bets over dealt shoes reads point values only"
            )


def check_series_study(bets) -> None:
    """Refuse, before any shoe, a series bet the study cannot follow (one line)."""
    for bet in bets:
        _check_values_only(bet)


def series_study(params: StudyParams, bets, progress=None) -> list[SeriesStudy]:
    """Every series bet of ``bets`` over the ``params.shoes`` shoes of ``params`` (see the
    module for the conventions); ``progress(shoes_done)`` after each shoe, if given."""
    bets = tuple(bets)
    check_series_study(bets)
    rules = params.rules()  # None: Punto Banco
    table = coup_table(rules)
    features = table.features()
    classes = [event_index(b.coup_bet, features) for b in bets]  # 0 extends, 1 skipped, last ends
    skips = [1 if b.skip is not None else -1 for b in bets]
    placed_masks = [np.asarray(b.placed.mask(features), dtype=bool) for b in bets]
    scales = [math.lcm(*(p.denominator for _, p in b.pays), b.otherwise.denominator) for b in bets]
    weights = [[int(b.pay_of(k) * s) for k in range(b.cap + 1)] for b, s in zip(bets, scales)]
    state = [_Tally(b.cap, params.shoes) for b in bets]
    table_runs = [0] * len(bets)  # consecutive run coups at the table, for placed_after_run
    coups = 0
    for i in range(params.shoes):
        dealt = deal_shoe(params, i)
        values = _RANK_POINTS[dealt.ranks]
        starts = np.asarray(dealt.starts, dtype=np.int64)
        seqs = values[starts[:, None] + np.arange(POSITIONS)] @ _PLACES
        coups += len(starts)
        for j, bet in enumerate(bets):
            codes = classes[j][seqs].tolist()
            placed = placed_masks[j][seqs].tolist()
            if bet.placed_after_run is not None:
                table_runs[j] = _after_runs(codes, placed, skips[j], bet.placed_after_run, table_runs[j])
            _settle_shoe(bet, i, codes, placed, skips[j], weights[j], state[j])
        if progress is not None:
            progress(i + 1)
    tops = price_series(params.start_shoe(), bets, rules)
    out = []
    for bet, st, scale, w, top in zip(bets, state, scales, weights, tops):
        hist = tuple(st.hist)
        out.append(
            SeriesStudy(
                bet,
                params.shoes,
                coups,
                sum(hist),
                hist,
                sum(n * wk for n, wk in zip(hist, w)),
                scale,
                tuple(zip(st.shoe_n, st.shoe_s)),
                st.crossed,
                sum(len(v) for v in st.open.values()),
                top,
            )
        )
    return out


def _after_runs(codes: list[int], placed: list[bool], skip: int, after: int, run: int) -> int:
    """Mark in ``placed`` the coups that end ``after`` consecutive run coups at the table
    (``run`` of them before this shoe's first coup; the count starts again after each
    ``after``); the count after the shoe's last coup."""
    for c, code in enumerate(codes):
        if code == 0:
            run += 1
            if run == after:
                placed[c] = True
                run = 0
        elif code != skip:
            run = 0
    return run


class _Tally:
    """One bet's running tallies: the open bets (run length -> the shoes they were placed
    in), bets settled at each length, bets and net wins (times the scale) by shoe placed in,
    bets settled in a later shoe."""

    def __init__(self, cap: int, shoes: int):
        self.open: dict[int, list[int]] = {}
        self.hist = [0] * (cap + 1)
        self.shoe_n = [0] * shoes
        self.shoe_s = [0] * shoes
        self.crossed = 0


def _settle_shoe(
    bet: SeriesBet, shoe: int, codes: list[int], placed: list[bool], skip: int, weights: list[int], st: _Tally
) -> None:
    """The coups of one shoe for one bet: settle the open bets, then place a new one where
    the trigger holds (it is settled from the next coup on).  ``codes``: each coup's class
    (0 extends, ``skip`` skipped, any other ends)."""
    open_bets = st.open
    hist, shoe_n, shoe_s = st.hist, st.shoe_n, st.shoe_s
    cap = bet.cap

    def pay(length: int, where: list[int]) -> None:
        hist[length] += len(where)
        for s in where:
            shoe_n[s] += 1
            shoe_s[s] += weights[length]
            if s != shoe:
                st.crossed += 1

    for code, place in zip(codes, placed):
        if open_bets:
            if code == 0:  # extends every open run
                shifted = {k + 1: v for k, v in open_bets.items()}
                if cap in shifted:
                    pay(cap, shifted.pop(cap))
                open_bets = shifted
            elif code != skip:  # ends them all
                for k, v in open_bets.items():
                    pay(k, v)
                open_bets = {}
        if place:
            open_bets.setdefault(0, []).append(shoe)
    st.open = open_bets


# -- the documents ----------------------------------------------------------------------


def _pct(x: float | Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def series_study_markdown(params: StudyParams, studies) -> str:
    from ..bets.series import CONVENTION
    from ..io.tables import md_table

    shoe = params.start_shoe().describe()
    out = [
        f"# Series bets over dealt shoes: {shoe}",
        "",
        f"{params.shoes} shoes (seed {params.seed}), cut card {params.cut_card}, burn {params.burn}, "
        f"{params.after_cut} coup(s) after the cut card; {studies[0].coups if studies else 0} coups dealt. "
        "Each bet is placed (one unit) at every coup where its condition holds and settled on the coups "
        "dealt after it, across a shuffle into the next shoe; bets still open after the last shoe are not "
        "counted. The 95% interval treats shoes as independent.",
        "",
        "Off the top: " + CONVENTION,
        "",
    ]
    rows = []
    for s in studies:
        ci = s.interval
        rows.append(
            [
                s.bet.id,
                str(s.placed),
                f"{s.placed / s.shoes:.2f}",
                _pct(s.mean),
                f"{_pct(ci[0])} .. {_pct(ci[1])}" if ci else "-",
                _pct(s.off_top.ev),
                str(s.crossed),
                str(s.open_at_end),
            ]
        )
    out.append(
        md_table(
            rows,
            [
                "bet",
                "bets",
                "bets per shoe",
                "mean net win per bet",
                "95% interval",
                "off the top (exact)",
                "settled in the next shoe",
                "open at the end",
            ],
            ["left", "right", "right", "right", "right", "right", "right", "right"],
        )
    )
    for s in studies:
        out += ["", f"## {s.bet.name} (`{s.bet.id}`)", ""]
        rows = []
        for k in range(s.bet.cap, -1, -1):
            seen = s.histogram[k]
            rows.append(
                [
                    s.bet.event_name(k),
                    str(seen),
                    f"{seen / s.placed:.6f}" if s.placed else "-",
                    f"{float(s.off_top.length_probability(k)):.6f}",
                ]
            )
        out.append(
            md_table(rows, ["run length", "bets", "share of bets", "off the top"], ["left", "right", "right", "right"])
        )
    out.append("")
    return "\n".join(out)


def series_study_dict(params: StudyParams, studies) -> dict:
    from ..bets.series import CONVENTION
    from ..io.tables import exact, to_float

    doc: dict = {
        "shoe": params.start_shoe().describe(),
        "shoes": params.shoes,
        "seed": params.seed,
        "cut_card": params.cut_card,
        "burn": params.burn,
        "after_cut": params.after_cut,
        "coups": studies[0].coups if studies else 0,
        "conventions": "placed at every coup where its condition holds, one unit; settled on the "
        "coups dealt after it, across a shuffle into the next shoe; bets open after "
        "the last shoe not counted; 95% interval with shoes as independent draws",
        "off_the_top": CONVENTION,
        "series": {},
    }
    for s in studies:
        ci = s.interval
        doc["series"][s.bet.id] = {
            "name": s.bet.name,
            "bets": s.placed,
            "mean": exact(s.mean),
            "mean_float": to_float(s.mean),
            "standard_error": s.standard_error,
            "interval_95": list(ci) if ci else None,
            "off_the_top_ev": exact(s.off_top.ev),
            "off_the_top_ev_float": to_float(s.off_top.ev),
            "settled_in_next_shoe": s.crossed,
            "open_at_end": s.open_at_end,
            "run_lengths": {str(k): s.histogram[k] for k in range(s.bet.cap + 1)},
        }
    return doc


def series_study_csv(params: StudyParams, studies) -> str:
    from ..io.tables import csv_text, exact

    rows = []
    for s in studies:
        ci = s.interval
        rows += [
            [s.bet.id, "bets", "", s.placed],
            [s.bet.id, "mean", exact(s.mean), f"{float(s.mean):.15f}"],
            [s.bet.id, "interval_95_low", "", f"{ci[0]:.15f}" if ci else ""],
            [s.bet.id, "interval_95_high", "", f"{ci[1]:.15f}" if ci else ""],
            [s.bet.id, "off_the_top_ev", exact(s.off_top.ev), f"{float(s.off_top.ev):.15f}"],
            [s.bet.id, "settled_in_next_shoe", "", s.crossed],
            [s.bet.id, "open_at_end", "", s.open_at_end],
        ]
        rows += [[s.bet.id, f"run_length_{k}", "", s.histogram[k]] for k in range(s.bet.cap + 1)]
    return csv_text(rows, ["bet", "metric", "exact", "value"])
