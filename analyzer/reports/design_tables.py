"""The documents of ``baccarat design`` and ``baccarat export``: Markdown, CSV and JSON.

Exact values print as ``p/q`` (a pay as a table prints it: ``8``, ``19/20``), floats beside
them for reading; the weights of a lookup table are integers.
"""

from __future__ import annotations

from fractions import Fraction

from ..bets.catalog import SeriesBet
from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent, to_float
from .design import Design, PayTable, event_names
from .export import Lookup


def _pays(p: Fraction) -> str:
    return str(p)


def _one_in(p: Fraction) -> str:
    return "never" if p == 0 else f"1 in {float(1 / p):,.1f}"


def table_dict(t: PayTable, search: int) -> dict:
    """One table of a design, its figures exact (``p/q``) with floats beside."""
    return {
        "search": search,
        "pays": {name: _pays(p) for name, p in t.pays.items()},
        "house_edge": exact(t.house_edge),
        "house_edge_float": to_float(t.house_edge),
        "hit_frequency": exact(t.hit_frequency),
        "hit_frequency_float": to_float(t.hit_frequency),
        "variance": exact(t.variance),
        "std_dev": t.std_dev,
        "volatility_index": {str(c): v for c, v in t.volatility_index.items()},
        "top_award": _pays(t.top_award),
        "top_award_frequency": exact(t.top_award_frequency),
        "top_award_frequency_float": to_float(t.top_award_frequency),
    }


def design_dict(designs: list[Design], shoe: str, options: dict) -> dict:
    """The JSON document: the bet, the shoe, the constraints, each search's count, and the tables."""
    first = designs[0]
    return {
        "bet": first.bet.id,
        "name": first.bet.name,
        "shoe": shoe,
        "deals": first.deals,
        "free_events": list(first.free),
        "fixed": {n: _pays(p) for n, p in first.fixed.items()},
        "constraints": options,
        "searches": [
            {
                "edge": {
                    "low": exact(d.edge[0]),
                    "high": exact(d.edge[1]),
                    "low_percent": percent(d.edge[0], 4),
                    "high_percent": percent(d.edge[1], 4),
                },
                "count": d.count,
                "complete": d.complete,
                "nodes": d.nodes,
                "listed": len(d.tables),
                "not_listed": d.count - len(d.tables),
                "reason": d.reason or None,
            }
            for d in designs
        ],
        "tables": [table_dict(t, i) for i, d in enumerate(designs) for t in d.tables],
    }


def design_json(designs: list[Design], shoe: str, options: dict) -> str:
    return json_text(design_dict(designs, shoe, options))


def _count_line(d: Design) -> str:
    more = d.count - len(d.tables)
    if d.count == 0:
        return d.reason + "."
    if d.complete:
        meet = "table meets" if d.count == 1 else "tables meet"
        return (
            f"{d.count:,} {meet} the constraints; {len(d.tables)} listed, closest to the band's "
            f"centre first{f' ({more:,} more)' if more else ''}."
        )
    return (
        f"At least {d.count:,} tables meet the constraints (the search stopped after {d.nodes:,} "
        f"partial tables: raise --budget for all of them); {len(d.tables)} listed, the closest to "
        "the band's centre of those found."
    )


def design_markdown(designs: list[Design], shoe: str) -> str:
    first = designs[0]
    lines = [
        f"# Pay tables for {first.bet.name} (`{first.bet.id}`)",
        "",
        f"Shoe: {shoe}. Free events: {', '.join(first.free)}.",
    ]
    if first.fixed:
        lines.append("Fixed: " + ", ".join(f"{n} {_pays(p)}" for n, p in first.fixed.items()) + ".")
    for d in designs:
        lines += [
            "",
            f"## House edge {percent(d.edge[0], 4)} to {percent(d.edge[1], 4)}"
            + ("" if d.hit is None else f", hit frequency {percent(d.hit[0], 4)} to {percent(d.hit[1], 4)}"),
            "",
            _count_line(d),
        ]
        if not d.tables:
            continue
        names = list(d.tables[0].pays)[:-1]
        rows = [
            [str(i + 1)]
            + [_pays(t.pays[n]) for n in names]
            + [
                percent(t.house_edge, 4),
                percent(t.hit_frequency, 4),
                f"{t.std_dev:.4f}",
                f"{t.volatility_index[90]:.4f}",
                _one_in(t.top_award_frequency),
            ]
            for i, t in enumerate(d.tables)
        ]
        lines += ["", md_table(rows, ["#", *names, "house edge", "hit frequency", "sd", "VI 90%", "top award"])]
    lines += [
        "",
        "Pays are to 1; every table was priced again exactly (as `baccarat odds` prices a bet); "
        "sd: standard deviation of one unit's net win; VI 90%: 1.645 x sd.",
    ]
    if isinstance(first.bet, SeriesBet):
        from ..bets.series import CONVENTION

        lines += ["", "The events are run lengths. " + CONVENTION]
    return "\n".join(lines) + "\n"


def design_csv(designs: list[Design], shoe: str) -> str:
    names = event_names(designs[0].bet) + [designs[0].bet.otherwise_event]
    rows = [
        [i, exact(d.edge[0]), exact(d.edge[1])]
        + [_pays(t.pays[n]) for n in names]
        + [
            exact(t.house_edge),
            decimal(t.house_edge, 10),
            exact(t.hit_frequency),
            decimal(t.hit_frequency, 10),
            exact(t.variance),
            f"{t.std_dev:.10f}",
            f"{t.volatility_index[90]:.10f}",
            f"{t.volatility_index[95]:.10f}",
            _pays(t.top_award),
            exact(t.top_award_frequency),
        ]
        for i, d in enumerate(designs)
        for t in d.tables
    ]
    return csv_text(
        rows,
        [
            "search",
            "edge_low",
            "edge_high",
            *names,
            "house_edge",
            "house_edge_decimal",
            "hit_frequency",
            "hit_frequency_decimal",
            "variance",
            "std_dev",
            "volatility_index_90",
            "volatility_index_95",
            "top_award",
            "top_award_frequency",
        ],
    )


# --- the lookup table -------------------------------------------------------------------------


def lookup_dict(t: Lookup, shoe: str) -> dict:
    """The JSON document of a lookup table: rows of integer weights and payouts, the total, the checks."""
    return {
        "bet": t.bet,
        "shoe": shoe,
        "deals": t.deals,
        "gcd": t.gcd,
        "total": t.total,
        "uint64": t.uint64,
        "ev": exact(t.ev),
        "ev_float": to_float(t.ev),
        "rows": [
            {
                "pays": _pays(r.pays),
                "multiplier": _pays(r.multiplier),
                "multiplier_float": to_float(r.multiplier),
                "weight": r.weight,
                "events": list(r.events),
            }
            for r in t.rows
        ],
        "impossible_events": list(t.impossible),
        "check": {"weights_sum": sum(r.weight for r in t.rows), "ev_from_rows": exact(t.ev)},
    }


def lookup_json(t: Lookup, shoe: str) -> str:
    return json_text(lookup_dict(t, shoe))


def lookup_csv(t: Lookup, shoe: str) -> str:
    return csv_text(
        [[_pays(r.pays), _pays(r.multiplier), r.weight, t.total, "; ".join(r.events)] for r in t.rows],
        ["pays", "multiplier", "weight", "total", "events"],
    )


def lookup_markdown(t: Lookup, shoe: str) -> str:
    rows = [
        [
            _pays(r.pays),
            _pays(r.multiplier),
            str(r.weight),
            percent(Fraction(r.weight, t.total), 6),
            ", ".join(r.events),
        ]
        for r in t.rows
    ]
    fits = (
        "every weight and the total fit a uint64"
        if t.uint64
        else "the total is beyond a uint64 (2^64 - 1): the weights are given as decimal integers"
    )
    lines = [
        f"# Lookup table of `{t.bet}`",
        "",
        f"Shoe: {shoe}.",
        "",
        md_table(rows, ["pays (to 1)", "multiplier (for 1)", "weight", "probability", "events"]),
        "",
        f"Total {t.total:,} (the {t.deals:,} ordered deals divided by their gcd with the ways, {t.gcd:,}); {fits}.",
        f"The weights add up to the total, and sum(weight x pays) / total = {exact(t.ev)} is the bet's EV "
        "exactly (as `baccarat odds` gives it).",
    ]
    if t.impossible:
        lines.append(f"Never happens on this shoe (left out): {', '.join(t.impossible)}.")
    return "\n".join(lines) + "\n"
