"""The documents of ``baccarat odds`` and ``baccarat bets``: Markdown, CSV and JSON.

Nothing here computes odds; every exact value is printed exactly (a reduced
``p/q``) with a decimal beside it for reading.

>>> exact(Fraction(-1, 2)), exact(Fraction(0)), decimal(Fraction(1, 3), 4)
('-1/2', '0/1', '0.3333')
"""

from __future__ import annotations

import functools
import json
import math
import threading
from fractions import Fraction
from itertools import chain, compress
from math import gcd
from operator import itemgetter, mul
from typing import TYPE_CHECKING, Protocol, cast

from ..core.cards import CARD_NAMES, RANKS
from ..core.engine import POSITIONS
from ..core.results import OUTCOMES, Analysis, BetResult
from ..io.tables import csv_text, decimal, exact, json_numbers, json_text, md_table, percent, ratio, to_float

if TYPE_CHECKING:
    from ..core.results import BetResults
    from ..core.shoe import Shoe


def pays_text(p: Fraction) -> str:
    """A payout as a table prints it: ``8:1``, ``19/20:1``, ``push``, ``loses``."""
    if p == -1:
        return "loses"
    if p == 0:
        return "push"
    return f"{p}:1"


def deals_formula(cards: int) -> str:
    return " x ".join(str(cards - i) for i in range(POSITIONS))


def bet_summary_rows(results: list[BetResult]) -> list[list[str]]:
    rows = []
    for r in results:
        rows.append(
            [
                r.bet.id,
                r.bet.name,
                exact(r.ev),
                percent(r.ev, 6),
                percent(r.house_edge, 6),
                exact(r.variance),
                f"{r.std_dev:.6f}",
                percent(r.hit_frequency, 4),
            ]
        )
    return rows


BET_SUMMARY_HEADERS = ["bet", "name", "EV (exact)", "EV", "house edge", "variance (exact)", "std dev", "hit frequency"]


def breakeven_rows(be) -> list[list[str]]:
    rows = [
        ["bet", be.bet],
        ["event left symbolic", be.event],
        ["current payout", f"{be.current}:1"],
        ["EV(x)", str(be.ev)],
    ]
    if be.pays is None:
        rows.append(["break-even payout", "none (the event never happens on this shoe)"])
    else:
        rows.append(["break-even payout x", f"{be.pays} = {float(be.pays):.10f} to 1"])
        if 0 < be.current < 1:
            rows.append(["break-even commission (1 - x)", f"{be.commission} = {float(be.commission):.6%}"])
    return rows


def breakeven_dict(be) -> dict:
    d = {
        "bet": be.bet,
        "event": be.event,
        "symbol": str(be.symbol),
        "ev": str(be.ev),
        "current": exact(Fraction(int(be.current.p), int(be.current.q))),
    }
    if be.pays is not None:
        pays = Fraction(int(be.pays.p), int(be.pays.q))
        d.update({"pays": exact(pays), "pays_float": to_float(pays)})
        if 0 < be.current < 1:  # a win paying 1 to 1 less commission
            d.update({"commission": exact(1 - pays), "commission_float": to_float(1 - pays)})
    else:
        d.update({"pays": None})
    return d


def odds_markdown(a: Analysis, title: str | None = None, breakeven=None, command: str | None = None, series=()) -> str:
    """The ``baccarat odds`` report in Markdown; ``series``: priced series bets
    (:class:`analyzer.bets.series.SeriesResult`), in a section of their own after the bets."""
    out = [f"# {title or 'Exact odds'}: {a.shoe.describe()}", ""]
    out.append(
        (
            f"Counted over all {a.deals} ordered six-card deals ({deals_formula(a.shoe.cards)})"
            if not a.known
            else f"Conditional on the known cards {a.known.describe()}: counted over the {a.deals} ordered "
            "six-card deals of this shoe with those cards at those positions"
        )
        + "; a coup that ends after four or five cards is "
        "counted once for every way the unused positions could be filled. "
        + (
            "Rules: standard Punto Banco (analyzer/core/RULES.md)."
            if a.rules is None or a.rules.is_default
            else f"Rules: {a.rules.describe()}."
        )
    )
    out.append("")
    if command:
        out += [f"Reproduce: `{command}`", ""]
    out.append("## Outcomes")
    out.append("")
    rows = [[o, str(a.ways(o)), exact(a.probability(o)), decimal(a.probability(o))] for o in OUTCOMES]
    rows.append(
        ["total", str(sum(a.outcomes.values())), exact(Fraction(sum(a.outcomes.values()), a.deals)), decimal(1)]
    )
    out.append(md_table(rows, ["outcome", "ways", "probability", "decimal"], ["left", "right", "right", "right"]))
    out.append("")
    if a.bets or not series:
        out.append("## Bets")
        out.append("")
        out.append(
            md_table(
                bet_summary_rows(list(a.bets.values())),
                BET_SUMMARY_HEADERS,
                ["left", "left", "right", "right", "right", "right", "right", "right"],
            )
        )
        out.append("")
        out.append(
            "EV is the expected net win per unit staked; house edge = -EV (ties count as "
            "hands played). Variance is that of the net win of one unit."
        )
    for r in a.bets.values():
        out.append("")
        out.append(f"### {r.bet.name} (`{r.bet.id}`)")
        out.append("")
        if r.bet.description:
            out.append(r.bet.description)
            out.append("")
        rows = [
            [e.event, pays_text(e.pays), str(e.ways), exact(e.probability), decimal(e.probability)] for e in r.events
        ]
        out.append(
            md_table(
                rows, ["event", "pays", "ways", "probability", "decimal"], ["left", "left", "right", "right", "right"]
            )
        )
    if series:
        if out[-1] != "":
            out.append("")
        out += series_markdown(series)
    if breakeven is not None:
        out.append("")
        out.append("## Break-even")
        out.append("")
        out.append(md_table(breakeven_rows(breakeven), ["", "exact"]))
    out.append("")
    return "\n".join(out)


# -- series bets ----------------------------------------------------------------------

SERIES_HEADERS = ["bet", "name", "EV", "house edge", "std dev", "hit frequency", "coups to settle"]


def series_rule_text(bet) -> str:
    """How a series bet is placed and settled, in one sentence of its conditions."""
    skip = f"a coup where `{bet.skip.text}` is skipped (neither extends nor ends it); " if bet.skip is not None else ""
    after = (
        f" (or after {bet.placed_after_run} consecutive coups where `{bet.run.text}`: followed over dealt shoes only)"
        if bet.placed_after_run is not None
        else ""
    )
    return (
        f"Placed on a coup where `{bet.placed.text}`{after}; from the next coup, a coup where "
        f"`{bet.run.text}` extends the run, {skip}any other coup ends it; at a run of {bet.cap} "
        "the top award is paid and the bet is over."
    )


def series_markdown(results) -> list[str]:
    """The ``## Series bets`` section of the odds report: the convention, one summary row
    per bet, then each bet's classes of one coup (exact ways) and its pay table by run length
    (decimals: the exact values, fractions over ``t**cap``, are in the JSON and CSV)."""
    from ..bets.series import CONVENTION

    out = ["## Series bets", "", CONVENTION, ""]
    rows = [
        [
            r.bet.id,
            r.bet.name,
            percent(r.ev, 6),
            percent(r.house_edge, 6),
            f"{r.std_dev:.6f}",
            percent(r.hit_frequency, 4),
            decimal(r.coups, 4),
        ]
        for r in results
    ]
    out.append(md_table(rows, SERIES_HEADERS, ["left", "left", "right", "right", "right", "right", "right"]))
    out += [
        "",
        "Coups to settle: the expected number of coups dealt after the one the bet is placed on "
        "until it is settled. The exact EVs and probabilities are in `--format json` and `--format csv`.",
    ]
    for r in results:
        out += ["", f"### {r.bet.name} (`{r.bet.id}`)", ""]
        if r.bet.description:
            out += [r.bet.description, ""]
        out += [series_rule_text(r.bet), ""]
        if r.bet.source:
            out += [f"Source: {r.bet.source}", ""]
        rows = [
            [name, str(w), exact(Fraction(w, r.deals)), decimal(Fraction(w, r.deals))]
            for name, w in zip(("extends the run", "skipped", "ends the run"), (r.extends, r.skipped, r.ends))
            if name != "skipped" or r.bet.skip is not None
        ]
        out.append(md_table(rows, ["one coup", "ways", "probability", "decimal"], ["left", "right", "right", "right"]))
        out.append("")
        rows = [
            [e.event, pays_text(e.pays), decimal(e.probability), decimal(e.pays * e.probability, 6)]
            for e in r.result.events
        ]
        rows.append(["total", "", decimal(1), decimal(r.ev, 6)])
        out.append(md_table(rows, ["run length", "pays", "probability", "return"], ["left", "left", "right", "right"]))
    return out


def series_json(r) -> dict:
    """One priced series bet as the odds document writes it: its rule, one coup's classes
    (ways of ``deals``), and every figure exact (``p/q``, reduced once) with its float."""
    bet = r.bet
    ev_text, ev_float = ratio(r.ev.numerator, r.ev.denominator)
    he_text, he_float = ratio(-r.ev.numerator, r.ev.denominator)
    var_text, var_float = ratio(r.variance.numerator, r.variance.denominator)
    hit_text, hit_float = ratio(r.hit_frequency.numerator, r.hit_frequency.denominator)
    coups_text, coups_float = ratio(r.coups.numerator, r.coups.denominator)
    events = []
    for e in r.result.events:
        p_text, p_float = ratio(e.ways, e.deals)
        events.append(
            {
                "event": e.event,
                "pays": f"{e.pays.numerator}/{e.pays.denominator}",
                "probability": p_text,
                "probability_float": p_float,
            }
        )
    return {
        "name": bet.name,
        "placed": bet.placed.text,
        "placed_after_run": bet.placed_after_run,
        "run": bet.run.text,
        "skip": bet.skip.text if bet.skip is not None else None,
        "cap": bet.cap,
        "coup": {"deals": r.deals, "extends": r.extends, "skipped": r.skipped, "ends": r.ends},
        "ev": ev_text,
        "ev_float": ev_float,
        "house_edge": he_text,
        "house_edge_float": he_float,
        "variance": var_text,
        "variance_float": var_float,
        "std_dev_float": to_float(r.std_dev) if var_float is not None else None,
        "hit_frequency": hit_text,
        "hit_frequency_float": hit_float,
        "coups_to_settle": coups_text,
        "coups_to_settle_float": coups_float,
        "events": events,
    }


def series_document(results) -> dict:
    """The keys the odds document ends with when series bets are priced: the convention
    they are priced by, then ``"series"`` (bet id -> :func:`series_json`)."""
    from ..bets.series import CONVENTION

    return {"series_pricing": CONVENTION, "series": {r.bet.id: series_json(r) for r in results}}


def series_csv_rows(results) -> list[list]:
    """The CSV rows of series bets (the columns of :data:`CSV_HEADERS`): how they are
    priced, one coup's classes (ways of its deals), each run length's probability, the metrics."""
    rows: list[list] = []
    for r in results:
        rows.append([r.bet.id, "pricing", "independent coups off the top of the declared shoe", "", "", "", "", ""])
        for name, w in (("extends", r.extends), ("skipped", r.skipped), ("ends", r.ends)):
            rows.append(
                [r.bet.id, "coup", name, "", w, r.deals, exact(Fraction(w, r.deals)), decimal(Fraction(w, r.deals), 15)]
            )
        for e in r.result.events:
            rows.append(
                [
                    r.bet.id,
                    "run_length",
                    e.event,
                    exact(e.pays),
                    "",
                    "",
                    exact(e.probability),
                    decimal(e.probability, 15),
                ]
            )
        for metric, value in (
            ("ev", r.ev),
            ("house_edge", r.house_edge),
            ("variance", r.variance),
            ("hit_frequency", r.hit_frequency),
            ("coups_to_settle", r.coups),
        ):
            rows.append([r.bet.id, metric, "", "", "", "", exact(value), decimal(value, 15)])
        rows.append([r.bet.id, "std_dev", "", "", "", "", "", f"{r.std_dev:.15f}"])
    return rows


CSV_HEADERS = ["bet", "metric", "event", "pays", "ways", "deals", "exact", "decimal"]


def odds_csv(a: Analysis, breakeven=None, series=()) -> str:
    """Long-format CSV: outcome rows, one row per bet event, then each bet's summary metrics
    (then the rows of the series bets priced, :func:`series_csv_rows`)."""
    rows = []
    for o in OUTCOMES:
        rows.append(["", "outcome", o, "", a.ways(o), a.deals, exact(a.probability(o)), decimal(a.probability(o), 15)])
    for r in a.bets.values():
        for e in r.events:
            rows.append(
                [
                    r.bet.id,
                    "event",
                    e.event,
                    exact(e.pays),
                    e.ways,
                    a.deals,
                    exact(e.probability),
                    decimal(e.probability, 15),
                ]
            )
        for metric, value in (
            ("ev", r.ev),
            ("house_edge", r.house_edge),
            ("variance", r.variance),
            ("hit_frequency", r.hit_frequency),
        ):
            rows.append([r.bet.id, metric, "", "", "", "", exact(value), decimal(value, 15)])
        rows.append([r.bet.id, "std_dev", "", "", "", "", "", f"{r.std_dev:.15f}"])
    if breakeven is not None:
        d = breakeven_dict(breakeven)
        if d["pays"] is not None:
            rows.append(
                [
                    d["bet"],
                    "breakeven_pays",
                    d["event"],
                    d["current"],
                    "",
                    "",
                    d["pays"],
                    decimal(Fraction(d["pays"]), 15),
                ]
            )
    if series:
        rows += series_csv_rows(series)
    return csv_text(rows, CSV_HEADERS)


class _WithShoe(Protocol):
    """What :func:`shoe_json` reads: an :class:`Analysis`, a par sheet, ..."""

    @property
    def shoe(self) -> Shoe: ...


def shoe_json(a: _WithShoe) -> dict:
    shoe = a.shoe
    d = {"cards": shoe.cards, "counts": shoe.rank_counts, "suited": shoe.suited}
    if shoe.suited:
        d["card_counts"] = shoe.card_counts
    if shoe.decks is not None:
        d["decks"] = shoe.decks
    return d


_RANK_KEYS = tuple(f'"{r}":' for r in RANKS)
_CARD_KEYS = tuple(f'"{c}":' for c in CARD_NAMES)


def _counts_template(keys: tuple[str, ...]) -> str:
    return "{" + ",".join(k + "%d" for k in keys) + "}"


#: ``shoe_line`` of a suited shoe and of a rank-only one, as ``%`` templates of the counts
_SUITED_LINE = '{"cards":%d,"counts":' + _counts_template(_RANK_KEYS) + ',"suited":true,"card_counts":'
_SUITED_LINE += _counts_template(_CARD_KEYS)
_RANKS_LINE = '{"cards":%d,"counts":' + _counts_template(_RANK_KEYS) + ',"suited":false'


def shoe_line(shoe: Shoe) -> str:
    """``_compact(shoe_json(...))`` of an analysis of ``shoe``, from its count tuples (the
    first text of every :func:`odds_line`).

    >>> from analyzer import Shoe, analyze
    >>> all(shoe_line(s) == _compact(shoe_json(analyze(s, bets=[])))
    ...     for s in (Shoe.standard(6), Shoe.standard(1).remove("As 9h"), Shoe.parse("A=3,K=5")))
    True
    """
    cards, ranks = shoe.card_tuple, shoe.rank_tuple
    out = _RANKS_LINE % (sum(ranks), *ranks) if cards is None else _SUITED_LINE % (sum(ranks), *ranks, *cards)
    decks = shoe.decks
    return out + ("}" if decks is None else ',"decks":' + str(decks) + "}")


def bet_json(r: BetResult) -> dict:
    # each probability is ways / deals reduced by one gcd (io.tables.ratio), not a Fraction
    deals = r.deals
    ev = r.ev
    ev_text, ev_float = ratio(ev.numerator, ev.denominator)
    he_text, he_float = ratio(-ev.numerator, ev.denominator)
    var = r.variance
    var_text, var_float = ratio(var.numerator, var.denominator)
    hit_text, hit_float = ratio(sum(e.ways for e in r.events if e.pays > 0), deals)
    events = []
    for e in r.events:
        p_text, p_float = ratio(e.ways, deals)
        events.append(
            {
                "event": e.event,
                "pays": f"{e.pays.numerator}/{e.pays.denominator}",
                "ways": e.ways,
                "probability": p_text,
                "probability_float": p_float,
            }
        )
    return {
        "name": r.bet.name,
        "ev": ev_text,
        "ev_float": ev_float,
        "house_edge": he_text,
        "house_edge_float": he_float,
        "variance": var_text,
        "variance_float": var_float,
        "std_dev_float": to_float(r.std_dev),
        "hit_frequency": hit_text,
        "hit_frequency_float": hit_float,
        "events": events,
    }


def odds_dict(a: Analysis, breakeven=None) -> dict:
    """The JSON document of ``baccarat odds --format json``."""
    doc = {
        "shoe": shoe_json(a),
        "deals": a.deals,
        "outcomes": {
            o: {
                "ways": a.ways(o),
                "probability": exact(a.probability(o)),
                "probability_float": to_float(a.probability(o)),
            }
            for o in OUTCOMES
        },
        "bets": {bet_id: bet_json(r) for bet_id, r in a.bets.items()},
    }
    doc.update(document_tail(a, breakeven))
    return doc


def document_tail(a: Analysis, breakeven=None) -> dict:
    """The keys of the odds document after ``"bets"``: the break-even, rules other than
    Punto Banco's, known cards (each only when there is one)."""
    tail: dict[str, object] = {}
    if breakeven is not None:
        tail["breakeven"] = breakeven_dict(breakeven)
    if a.rules is not None and not a.rules.is_default:
        tail["rules"] = a.rules.describe()
    if a.known:
        tail["known"] = {str(p): r + (s or "") for p, r, s in a.known.cards}
    return tail


def odds_line(a: Analysis, breakeven=None, extra: dict | None = None) -> str:
    """``odds_dict(a, breakeven)`` (then the items of ``extra``) as one compact JSON line,
    the line ``odds --batch`` writes: the same text as ``json.dumps(doc, allow_nan=False,
    separators=(",", ":"))`` of that document, built from the solve's integer ways
    (:attr:`analyzer.core.results.BetResults.ways`) and the shoe-independent text of its
    bets (:class:`LineLayout`, kept per solver) without a ``Fraction`` or a dict per bet.

    >>> import json
    >>> from analyzer import Shoe, analyze
    >>> a = analyze(Shoe.standard(8).remove("5 5 K 9"), bets=["banker", "dragon7"])
    >>> odds_line(a) == json.dumps(odds_dict(a), allow_nan=False, separators=(",", ":"))
    True
    """
    bets = a.bets
    layout = getattr(bets, "layout", None)
    text = None
    if layout is not None and a.deals > 0:
        probability = _probabilities(a.deals)
        text = _line_layout(layout).text(a.deals, cast("BetResults", bets).ways, probability)  # a layout: BetResults
    if text is None:  # beyond the fast path: the document itself
        doc = odds_dict(a, breakeven)
        doc.update(extra or {})
        return _compact(doc)
    return _line_of(a, text, breakeven, extra)


def odds_lines(analyses: list[Analysis], breakevens=None, extras=None) -> list[str]:
    """``[odds_line(a, be, extra) ...]``, the same strings: the lines of one solver's
    analyses are written together (:meth:`LineLayout.texts`).

    >>> from analyzer import Shoe, solver
    >>> shoes = [Shoe.standard(8).remove(["5h", "Kd"] * k) for k in range(8)]
    >>> a = solver(["banker", "dragon7"]).solve_many(shoes)
    >>> odds_lines(a) == [odds_line(x) for x in a]
    True
    """
    n = len(analyses)
    breakevens = breakevens or [None] * n
    extras = extras or [None] * n
    out: list[str | None] = [None] * n
    groups: dict[int, list[int]] = {}
    for i, a in enumerate(analyses):
        layout = getattr(a.bets, "layout", None)
        if layout is not None and a.deals > 0:
            groups.setdefault(id(layout), []).append(i)
    for idx in groups.values():
        first = analyses[idx[0]]
        layout = cast("BetResults", first.bets).layout
        group = [analyses[i] for i in idx]
        head = _heads(group)
        # a tail (break-even, rules, known cards: the solver's, or extras) is written line by line
        whole = head is not None and not document_tail(first) and not any(breakevens[i] or extras[i] for i in idx)
        texts = _line_layout(layout).texts(
            [a.deals for a in group], [cast("BetResults", a.bets).ways for a in group], head, whole
        )
        for i, text in zip(idx, texts):
            if text is not None:
                out[i] = text if whole else _line_of(analyses[i], text, breakevens[i], extras[i], head is not None)
    return [
        line if line is not None else odds_line(a, be, extra)
        for line, a, be, extra in zip(out, analyses, breakevens, extras)
    ]


def _line_of(a: Analysis, text: str, breakeven, extra, whole: bool = False) -> str:
    """The line of ``a`` around the text of its bets (``whole``: ``text`` is the line up to
    its tail, the shoe, deals and outcomes written before the bets by :func:`_heads`)."""
    tail = document_tail(a, breakeven)
    if extra:
        tail.update(extra)
    if not whole:
        probability = _probabilities(a.deals)
        out = ['{"shoe":', shoe_line(a.shoe), ',"deals":', str(a.deals), ',"outcomes":{']
        for i, o in enumerate(OUTCOMES):
            w = a.ways(o)
            out += ("," if i else "", '"', o, '":{"ways":', str(w), ',"probability":"', probability(w))
        out += ('},"bets":{', text, "}")
    else:
        out = [text]
    out += ("," + _compact(k) + ":" + _compact(v) for k, v in tail.items())
    out.append("}")
    return "".join(out)


#: the text of a line before its bets, for a suited shoe: its counts, decks, deals and outcomes
_HEAD = (
    '{"shoe":'
    + _SUITED_LINE.replace("%d", "%s")
    + '%s,"deals":%s,"outcomes":{'
    + ",".join(f'"{o}":{{"ways":%s,"probability":"%s/%s","probability_float":%s}}' for o in OUTCOMES)
    + '},"bets":{'
)


def _heads(analyses: list[Analysis]):
    """The values of each line's text before its bets (the shoe, deals, outcomes; the texts
    between them :data:`_HEAD_PARTS`), an object array a line a row, computed together as
    :meth:`LineLayout.texts` computes the bets'; ``None`` for a chunk they are not (rank-only
    shoes, deals beyond 2**53, a few lines)."""
    import numpy as np

    n = len(analyses)
    shoes = [a.shoe.card_tuple for a in analyses]
    deals = [a.deals for a in analyses]
    if n < _CHUNK_MIN or None in shoes or max(deals) > _EXACT_FLOAT:
        return None
    suited = cast("list[tuple[int, ...]]", shoes)
    cards = np.fromiter(chain.from_iterable(suited), dtype=np.int64, count=52 * n).reshape(n, 52)
    ranks = cards.reshape(n, 13, 4).sum(axis=2)
    d = np.array(deals, dtype=np.int64)[:, None]
    outcomes = itemgetter(*OUTCOMES)
    ways = np.array([outcomes(a.outcomes) for a in analyses], dtype=np.int64)
    g = np.gcd(ways, d)
    full = cards[:, 0]
    decks = np.where((cards == full[:, None]).all(axis=1) & (full >= 1), full, 0).tolist()
    counts = np.concatenate([ranks.sum(axis=1)[:, None], ranks, cards], axis=1)
    small = _small_texts()
    numbers = small[counts] if counts.max() < len(small) else json_numbers(counts)
    decks_text = np.array(["}" if k == 0 else f',"decks":{k}}}' for k in decks], dtype=object)[:, None]
    outcome = np.stack(
        [json_numbers(ways), json_numbers(ways // g), json_numbers(d // g), json_numbers(ways / d)], axis=2
    )
    return np.concatenate([numbers, decks_text, json_numbers(d), outcome.reshape(n, -1)], axis=1)


def _interleaved(template: str, field: str = "%s") -> list[str]:
    """The texts of a template between its fields (each ``field``), with a place for each
    field's value between them: a line is ``"".join`` of it with ``[1::2]`` its values."""
    return [x for t in template.split(field) for x in (t, "")][:-1]


_HEAD_PARTS = _interleaved(_HEAD)


@functools.cache
def _small_texts():
    """The text of every whole number below 2**12, an object array (a shoe's counts and
    cards, up to 78 decks, are written by looking them up)."""
    import numpy as np

    return np.array([str(i) for i in range(2**12)], dtype=object)


def _compact(value) -> str:
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


class LineLayout:
    """The text of the ``"bets"`` object of :func:`odds_line` for one solver's bets
    (:class:`analyzer.core.results.BetLayout`): every name, event and payout encoded once
    by ``json.dumps``; per shoe only the numbers are written, each exact value one
    ``p/q`` reduced by one integer gcd (:func:`analyzer.io.tables.ratio`)."""

    def __init__(self, layout):
        self.layout = layout
        self.bets = []
        for (bet, events, other, start, stop), ((lcm, w1), (_, w2)) in zip(layout.entries, layout.weights):
            heads = [
                (',{"event":' if j else '{"event":')
                + _compact(name)
                + ',"pays":"'
                + f"{pays.numerator}/{pays.denominator}"
                + '","ways":'
                for j, (name, pays) in enumerate((*events, other))
            ]
            wins = tuple(pays > 0 for _, pays in (*events, other))
            self.bets.append(
                (_compact(bet.id) + ':{"name":' + _compact(bet.name) + ',"ev":"', start, stop, lcm, w1, w2, wins, heads)
            )

    def text(self, deals: int, all_ways: tuple[int, ...], probability=None) -> str | None:
        """The bets' text over ``deals`` deals with these ways (``BetResults.ways``), or
        ``None`` when a value is beyond a float's range (the caller writes the document);
        ``probability``: the line's :func:`_probabilities`."""
        probability = probability or _probabilities(deals)
        out: list[str] = []
        add = out.append
        hit_floats: dict[int, str] = {}  # bets share their hits (a bet's win is another's loss)
        sqrt = math.sqrt
        for i, (head, start, stop, lcm, w1, w2, wins, heads) in enumerate(self.bets):
            ways = all_ways[start:stop]
            ways = (*ways, deals - sum(ways))
            s1 = sum(map(mul, ways, w1))
            s2 = sum(map(mul, ways, w2))
            den = deals * lcm
            # ratio() inline: the EV's and the hit frequency's quotients are finite (|EV| is at
            # most the largest pay); the variance's may pass a float's range
            g = gcd(s1, den)
            ev_p, ev_q = s1 // g, den // g
            ev = repr(s1 / den)
            var_text, var_float = ratio(s2 * deals - s1 * s1, den * den)
            if var_float is None:
                return None  # std_dev would be beyond a float too
            hits = sum(compress(ways, wins))
            gh = gcd(hits, deals)
            hit = hit_floats.get(hits)
            if hit is None:
                hit = hit_floats[hits] = repr(hits / deals)
            add(
                f'{"," if i else ""}{head}{ev_p}/{ev_q}","ev_float":{ev},"house_edge":"{-ev_p}/{ev_q}",'
                f'"house_edge_float":{_negated(ev)},"variance":"{var_text}",'
                f'"variance_float":{var_float!r},"std_dev_float":{sqrt(var_float)!r},'
                f'"hit_frequency":"{hits // gh}/{deals // gh}","hit_frequency_float":{hit},"events":['
            )
            for h, w in zip(heads, ways):
                add(f'{h}{w},"probability":"{probability(w)}')
            add("]}")
        return "".join(out)

    def texts(self, deals: list[int], all_ways: list[tuple[int, ...]], head=None, whole=False) -> list[str | None]:
        """:meth:`text` of each line of a chunk (``deals[i]``, ``all_ways[i]``), the same
        strings, with the chunk's numbers computed together: every probability's gcd and
        quotient, each bet's EV and hit frequency as int64 arrays (:class:`_ChunkPlan`
        states the bounds that keep them exact and checks them on the chunk; a bet beyond
        them is counted with Python's integers), then each line joined from its texts and
        values.  ``head``: the values of the lines' text before their bets (:func:`_heads`),
        then written first: each text is then the line but its tail and last brace (with
        ``whole``, a line without a tail, the whole line)."""
        if len(deals) < _CHUNK_MIN or max(deals) > _EXACT_FLOAT:
            return [self.text(d, w) for d, w in zip(deals, all_ways)]
        plan = self._chunk
        if plan is None:
            plan = self._chunk = _ChunkPlan(self)
        return plan.texts(deals, all_ways, head, whole)

    _chunk: _ChunkPlan | None = None


#: The values of :class:`_ChunkPlan` read from an event's column of ways (the others, a bet's).
_EVENT_KINDS = frozenset("wpqf")
#: Fewest lines :meth:`LineLayout.texts` computes as arrays (fewer: one line at a time).
_CHUNK_MIN = 8
#: Deals at most this (2**53) are exact float64 values: a quotient of two such numbers is
#: the correctly rounded one Python's ``int / int`` gives, and so is its ``repr``.
_EXACT_FLOAT = 2**53
#: An int64 sum of products stays exact while its bound is below this.
_INT64_SAFE = 2**62


class _ChunkPlan:
    """The arrays and the texts of :meth:`LineLayout.texts` for one layout (a line is its
    texts with its values between them, :attr:`parts`).

    Columns: the ``E`` counted events of every bet (``BetResults.ways``), then each bet's
    ``otherwise`` event (deals less the others).  A bet's first-moment sum ``s1 = sum ways
    * w1`` is bounded by ``deals * max |w1|`` (the ways sum to ``deals``) and ``deals *
    L`` is its denominator: while both are below :data:`_INT64_SAFE` the bet's EV is
    counted in int64, its float from int64 values below 2**53 (else Python's ``int /
    int``); the variance (numbers of about 110 bits) always with Python's integers."""

    def __init__(self, line: LineLayout):
        import numpy as np

        entries = line.layout.entries
        n_events = sum(stop - start for _, _, _, start, stop in entries)
        n_bets = len(entries)
        cols = n_events + n_bets
        self.n_events = n_events
        sel = np.zeros((n_events, n_bets), dtype=np.int64)  # counted event -> its bet
        w1 = np.zeros((cols, n_bets), dtype=np.int64)
        win = np.zeros((cols, n_bets), dtype=np.int64)
        self.bet_cols: list[list[int]] = []
        self.w1_rows: list[tuple[int, ...]] = []
        self.w2_rows: list[tuple[int, ...]] = []
        self.lcm = np.zeros(n_bets, dtype=object)
        self.lcm2: list[int] = []
        self.w1_max: list[int] = []
        self.w2_max: list[int] = []
        parts = []
        order = []  # each value's (kind, index): how a line's values are gathered
        for b, (head, start, stop, lcm, w1s, w2s, wins, heads) in enumerate(line.bets):
            bc = [*range(start, stop), n_events + b]
            self.bet_cols.append(bc)
            sel[start:stop, b] = 1
            for c, w, h in zip(bc, w1s, wins):
                w1[c, b] = w if abs(w) < _INT64_SAFE else 0
                win[c, b] = h
            self.w1_rows.append(w1s)
            self.w2_rows.append(w2s)
            self.lcm[b] = lcm
            self.lcm2.append(lcm * lcm)
            self.w1_max.append(max(*map(abs, w1s), lcm))  # per deal, bounds both s1 and deals * L
            self.w2_max.append(max(map(abs, w2s)))
            parts.append(
                ("," if b else "")
                + head
                + '\0/\0","ev_float":\0,"house_edge":"\0/\0","house_edge_float":\0,"variance":"\0/\0",'
                '"variance_float":\0,"std_dev_float":\0,"hit_frequency":"\0/\0","hit_frequency_float":\0,"events":['
            )
            order += [("evp", b), ("evq", b), ("evf", b), ("hep", b), ("evq", b), ("hef", b)]
            order += [("vp", b), ("vq", b), ("vf", b), ("sd", b), ("hp", b), ("hq", b), ("hf", b)]
            for c, h in zip(bc, heads):
                parts.append(h + '\0,"probability":"\0/\0","probability_float":\0}')
                order += [("w", c), ("p", c), ("q", c), ("f", c)]
            parts.append("]}")
        # the texts between the values: NUL marks a value (JSON text writes none: json.dumps
        # escapes it), so a line is these texts with its values between them
        self.parts: list[str] = _interleaved("".join(parts), "\0")
        # the second-moment weights, for an int64 product of the ways split in halves of 26 bits
        self.w2_fits = np.array(
            [m * max(2**27, len(bc) * 2**26) < _INT64_SAFE for m, bc in zip(self.w2_max, self.bet_cols)]
        )
        self.w2 = np.zeros((cols, n_bets), dtype=np.int64)
        for b, (bc, w2s) in enumerate(zip(self.bet_cols, self.w2_rows)):
            if self.w2_fits[b]:
                self.w2[bc, b] = w2s
        self.lcm2_row = np.array(self.lcm2, dtype=object)[None, :]
        self.sel, self.w1, self.win = sel, w1, win
        kinds: dict[str, list[tuple[int, int]]] = {}
        for pos, (kind, i) in enumerate(order):
            kinds.setdefault(kind, []).append((pos, i))
        self.fields = len(order)
        # for each kind of value: its positions in a line's values and which column feeds each
        self.slots = {k: (np.array([p for p, _ in v]), np.array([i for _, i in v])) for k, v in kinds.items()}

    _columns: tuple | None = None

    def _distinct(self, full):
        """``(cols, of)``: distinct columns of ``full`` (a chunk's ways of every event) and
        which of them each column is (``full[:, cols][:, of] == full``).  The columns equal
        over one chunk are kept and checked on the next (one comparison), found again when
        they differ there."""
        import numpy as np

        kept = self._columns
        if kept is not None and np.array_equal(full[:, kept[0]][:, kept[1]], full):
            return kept
        _, first, of = np.unique(full, axis=1, return_index=True, return_inverse=True)
        kept = self._columns = (first, of.reshape(-1))
        return kept

    def texts(self, deals: list[int], all_ways: list[tuple[int, ...]], head=None, whole=False) -> list[str | None]:
        import numpy as np

        n, n_bets = len(deals), len(self.bet_cols)
        d = np.array(deals, dtype=np.int64)
        dc = d[:, None]
        counted = np.array(all_ways, dtype=np.int64).reshape(n, self.n_events)
        full = np.concatenate([counted, dc - counted @ self.sel], axis=1)  # every event's ways
        # bets share events (Player's win is the Banker bet's loss): each distinct column once
        cols, of = self._distinct(full)
        ways = full[:, cols]
        g = np.gcd(ways, dc)
        values: dict[str, np.ndarray] = {"w": ways, "p": ways // g, "q": dc // g, "f": ways / dc}
        hits = full @ self.win
        g = np.gcd(hits, dc)
        values.update(hp=hits // g, hq=dc // g, hf=hits / dc)
        top = max(deals)
        fits = [top * m < _INT64_SAFE for m in self.w1_max]
        s1 = full @ self.w1
        den = dc * np.array([lcm if f else 1 for lcm, f in zip(self.lcm, fits)], dtype=np.int64)
        g = np.gcd(s1, den)
        evp, evq = s1 // g, den // g
        # int64 quotients below 2**53 are exact floats: their quotient is Python's int / int
        evf = evp / evq
        slow = ~((np.abs(evp) < _EXACT_FLOAT) & (evq < _EXACT_FLOAT))
        evp_t, evq_t = json_numbers(evp), json_numbers(evq)
        full_rows = None
        s1_py: list[list[int]] = []  # each bet's first-moment sums, Python integers
        for b in range(n_bets):
            if fits[b]:
                s1_py.append(s1[:, b].tolist())
                for i in np.flatnonzero(slow[:, b]).tolist():
                    evf[i, b] = int(evp[i, b]) / int(evq[i, b])
                continue
            # beyond int64: this bet's sums with Python's integers
            if full_rows is None:
                full_rows = full.tolist()
            cols, w1s, lcm = self.bet_cols[b], self.w1_rows[b], self.lcm[b]
            s1_py.append([sum(map(mul, map(row.__getitem__, cols), w1s)) for row in full_rows])
            for i, (a, q) in enumerate(zip(s1_py[b], (x * lcm for x in deals))):
                k = gcd(a, q)
                evp_t[i, b], evq_t[i, b], evf[i, b] = str(a // k), str(q // k), a / q
        hep_t = np.array(
            [t[1:] if t[0] == "-" else "-" + t if t != "0" else t for t in evp_t.ravel().tolist()], dtype=object
        )
        # the variance: (s2 deals - s1**2) / (deals L)**2, numbers of about 110 bits: Python's
        # integers, in arrays of objects (numpy's loops call their operations)
        # ways = hi 2**26 + lo with lo < 2**26 and the his summing to at most 2**27 (the ways of a
        # line sum to deals <= 2**53): a bet's two int64 sums stay below 2**62 while its largest
        # weight times 2**27 and times 2**26 its events does (w2_fits)
        hi, lo = full >> 26, full & (2**26 - 1)
        s2 = (hi @ self.w2).astype(object) * 2**26 + (lo @ self.w2).astype(object)
        for b in np.flatnonzero(~self.w2_fits).tolist():
            if full_rows is None:
                full_rows = full.tolist()
            cols, w2s = self.bet_cols[b], self.w2_rows[b]
            s2[:, b] = [sum(map(mul, map(row.__getitem__, cols), w2s)) for row in full_rows]
        s1o = np.array(s1_py, dtype=object).T
        dl = np.array(deals, dtype=object)[:, None]
        num = s2 * dl - s1o * s1o
        q = dl * dl * self.lcm2_row
        g = np.gcd(num, q)
        try:
            vf = (num / q).astype(np.float64)
        except OverflowError:  # a variance beyond a float: those lines from their documents
            vf = np.array([[_quotient(a, b) for a, b in zip(r, t)] for r, t in zip(num.tolist(), q.tolist())])
        finite = np.isfinite(vf)
        bad = (~finite.all(axis=1)).tolist()
        vf[~finite] = 0.0
        vp = np.array(list(map(str, (num // g).ravel().tolist())), dtype=object).reshape(n, n_bets)
        vq = np.array(list(map(str, (q // g).ravel().tolist())), dtype=object).reshape(n, n_bets)
        strings = {k: json_numbers(v) for k, v in values.items()}
        strings.update(
            evp=evp_t,
            evq=evq_t,
            hep=hep_t.reshape(n, n_bets),
            evf=json_numbers(evf),
            hef=json_numbers(0.0 - evf),
            vp=vp,
            vq=vq,
            vf=json_numbers(vf),
            sd=json_numbers(np.sqrt(vf)),
        )
        line_values = np.empty((n, self.fields), dtype=object)
        for kind, (pos, src) in self.slots.items():
            line_values[:, pos] = strings[kind][:, of[src] if kind in _EVENT_KINDS else src]
        parts = list(self.parts)  # the texts, a line's values between them
        if head is not None:
            line_values = np.concatenate([head, line_values], axis=1)
            parts = [*_HEAD_PARTS[:-1], _HEAD_PARTS[-1] + parts[0], *parts[1:]]
            parts[-1] += "}}" if whole else "}"
        out: list[str | None] = []
        for row, b in zip(line_values.tolist(), bad):
            if b:
                out.append(None)
            else:
                parts[1::2] = row
                out.append("".join(parts))
        return out


def _quotient(a: int, b: int) -> float:
    try:
        return a / b
    except OverflowError:
        return math.inf


def _negated(text: str) -> str:
    """``repr(-x)`` from ``repr(x)`` of a float ``x`` that is not ``-0.0`` (``-(0 / d)`` is
    ``0.0``: the house edge of a bet of EV 0, as ``-s1 / den`` computes it).

    >>> [_negated(repr(x)) == repr(-s / 7) for x, s in ((3 / 7, 3), (-2 / 7, -2), (0 / 7, 0))]
    [True, True, True]
    """
    return text[1:] if text[0] == "-" else text if text == "0.0" else "-" + text


def _probabilities(deals: int):
    """``probability(w)``: the text after ``"probability":"`` of ``w`` ways of ``deals``,
    ``p/q","probability_float":f}``, each value's computed once (a line's events repeat
    the outcomes' ways: Player's win is the Banker bet's loss)."""
    memo: dict[int, str] = {}

    def probability(w: int) -> str:
        text = memo.get(w)
        if text is None:
            # ratio(w, deals) inline: 0 <= w <= deals, so the quotient is a finite float
            g = gcd(w, deals)
            text = memo[w] = f'{w // g}/{deals // g}","probability_float":{w / deals!r}}}'
        return text

    return probability


_LINE_LAYOUTS: dict[int, LineLayout] = {}
_LINE_LOCK = threading.Lock()


def _line_layout(layout) -> LineLayout:
    """The :class:`LineLayout` of a solver's ``layout``, kept for the last few solvers
    (by identity: a layout is shared by every analysis of its solver and kept alive here)."""
    kept = _LINE_LAYOUTS.get(id(layout))
    if kept is None or kept.layout is not layout:
        kept = LineLayout(layout)
        with _LINE_LOCK:  # the server's threads share the store
            if len(_LINE_LAYOUTS) >= 16:
                _LINE_LAYOUTS.pop(next(iter(_LINE_LAYOUTS)))
            _LINE_LAYOUTS[id(layout)] = kept
    return kept


def odds_json(a: Analysis, breakeven=None) -> str:
    return json_text(odds_dict(a, breakeven))


# -- the catalog --------------------------------------------------------------------


def pay_table_text(bet) -> str:
    """``banker wins 19/20:1; tie (push) push; otherwise loses``."""
    parts = [f"{e.event} {pays_text(e.pays)}" for e in bet.events]
    parts.append(f"otherwise {pays_text(bet.otherwise)}")
    return "; ".join(parts)


def catalog_markdown(cat) -> str:
    out = ["# Bets", ""]
    rows = [[b.id, b.name, pay_table_text(b), b.description] for b in cat.bets.values()]
    out.append(md_table(rows, ["id", "name", "pay table", "description"]))
    out += ["", "# Tables", ""]
    rows = [[t.id, t.name, ", ".join(t.bets), t.description] for t in cat.tables.values()]
    out.append(md_table(rows, ["id", "name", "bets", "description"]))
    out.append("")
    if cat.series:
        from ..bets.series import CONVENTION

        out += [
            "# Series bets",
            "",
            "Placed on one coup, settled on the run of coups that follow "
            "(priced by `baccarat odds --bets ID`). " + CONVENTION,
            "",
        ]
        rows = [[b.id, b.name, series_pay_text(b), series_rule_text(b)] for b in cat.series.values()]
        out.append(md_table(rows, ["id", "name", "pay table by run length", "placed and settled"]))
        out.append("")
    return "\n".join(out)


def series_pay_text(bet) -> str:
    """``10 or more 250:1; ...; 3 or less loses``."""
    parts = [f"{bet.event_name(k)} {pays_text(p)}" for k, p in bet.pays]
    parts.append(f"{bet.otherwise_event} {pays_text(bet.otherwise)}")
    return "; ".join(parts)


def catalog_csv(cat) -> str:
    rows = []
    for b in cat.bets.values():
        for e in b.events:
            rows.append([b.id, b.name, e.event, e.when.text, exact(e.pays), b.description])
        rows.append([b.id, b.name, b.otherwise_event, "otherwise", exact(b.otherwise), b.description])
    for s in cat.series.values():  # series bets: "when" says which run lengths
        for k, p in s.pays:
            rows.append([s.id, s.name, s.event_name(k), f"run length {k}", exact(p), s.description])
        rows.append([s.id, s.name, s.otherwise_event, "otherwise", exact(s.otherwise), s.description])
    return csv_text(rows, ["bet", "name", "event", "when", "pays", "description"])


def catalog_json(cat) -> str:
    doc = {
        "bets": {
            b.id: {
                "name": b.name,
                "description": b.description,
                "events": [{"event": e.event, "when": e.when.text, "pays": exact(e.pays)} for e in b.events],
                "otherwise": {"event": b.otherwise_event, "pays": exact(b.otherwise)},
            }
            for b in cat.bets.values()
        },
        "tables": {
            t.id: {"name": t.name, "description": t.description, "bets": list(t.bets)} for t in cat.tables.values()
        },
    }
    if cat.series:
        doc["series"] = {
            s.id: {
                "name": s.name,
                "description": s.description,
                "source": s.source,
                "placed": s.placed.text,
                "placed_after_run": s.placed_after_run,
                "run": s.run.text,
                "skip": s.skip.text if s.skip is not None else None,
                "cap": s.cap,
                "pays": {str(k): exact(p) for k, p in s.pays},
                "otherwise": {"event": s.otherwise_event, "pays": exact(s.otherwise)},
            }
            for s in cat.series.values()
        }
    return json_text(doc)
