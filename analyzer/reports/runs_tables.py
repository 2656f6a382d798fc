"""The documents of ``baccarat runs``: Markdown, CSV, JSON and the chart.

Nothing here computes: the exact figures come from :mod:`.runs` (a :class:`~.runs.RunsResult`
and :func:`~.runs.streaks_from_start`), the dealt shoes' figures, when there are any, from
:mod:`analyzer.studies.runs` as a plain summary (``dealt``: a dict with ``shoes``, ``seed``,
``procedure``, ``coups_law``, ``rows`` of :func:`analyzer.studies.runs.comparison_rows` and
``longest_shares``).  Exact values print as ``p/q`` in CSV and JSON; the Markdown shows the
exact values rounded (their only error), and the dealt shoes' means with their 95% intervals.
"""

from __future__ import annotations

import contextlib
import sys
from fractions import Fraction
from typing import Any

from ..io.tables import csv_text, exact, json_text, md_table, percent, to_float
from .runs import CONVENTION_TEXT, LETTERS, TOP, RunsResult, streaks_from_start

#: rows of the Markdown tables stop where every tail probability is below this
SHOWN = Fraction(1, 10**7)


def conventions(r: RunsResult, dealt: dict | None = None) -> list[str]:
    out = [
        f"Ties: {r.convention}, {CONVENTION_TEXT[r.convention]}.",
        "Independent coups: every coup is an independent deal from the full declared shoe (off the top), "
        f"so each figure is a whole number of ways over (ways of a coup)^{r.coups}, exact; decimals are "
        "those exact values rounded.",
        "A run of k or more is counted once, however long it grows; the longest run is 0 when the outcome "
        "does not occur.",
        "Streaks from a starting point (Wizard of Odds, baccarat appendix 4): the probability that the "
        "next j coups are wins of the outcome and the one after is not; with ties ignored, per decision.",
    ]
    if dealt is not None:
        out.append(
            f"Dealt shoes: {dealt['shoes']:,} shoes shuffled and dealt to the cut card as "
            f"`baccarat study` deals them (seed {dealt['seed']}, {dealt['procedure']}); a run never "
            "crosses a shoe.  Their figures are sample means with 95% intervals (normal; Wilson for "
            "shares).  The independent-coups column beside them is exact, averaged over the dealt "
            "shoes' numbers of coups."
        )
    return out


def _pct(x: Fraction) -> str:
    return percent(x, 6)


def _count_rows(r: RunsResult, k: int) -> int:
    """The number of count rows worth showing for ``k``."""
    top = 1
    bar = SHOWN * r.denominator
    for o in r.outcomes:
        w = r.counts[(o, k)]
        tail = 0
        for c in range(len(w) - 1, -1, -1):
            tail += w[c]
            if tail >= bar:
                top = max(top, c)
                break
    return min(top, len(r.counts[(r.outcomes[0], k)]) - 1)


def _parameters(r: RunsResult, rules=None) -> list[list[str]]:
    rows = [["shoe", r.shoe or "-"]]
    if rules is not None:
        rows.append(["rules", rules])
    rows += [["coups", f"{r.coups:,} independent coups"], ["ties", f"{r.convention}: {CONVENTION_TEXT[r.convention]}"]]
    w = r.ways
    for o in ("player", "banker", "tie"):
        rows.append([f"{o} per coup", f"{w[o]:,}/{w.total:,} = {_pct(w.probability(o))}"])
    return rows


def _streaks(r: RunsResult) -> dict[str, list[tuple[str, Fraction]]]:
    return {o: streaks_from_start(r.ways, o, r.convention) for o in r.outcomes}


def runs_markdown(r: RunsResult, dealt: dict | None = None, chart: str | None = None, rules=None) -> str:
    L_top = r.shown_lengths(SHOWN)
    letters = [LETTERS[o] for o in r.outcomes]
    out = [f"# Runs per shoe: {r.shoe or 'shoe'}, {r.coups:,} coups", ""]
    out += [md_table(_parameters(r, rules), ["", "value"]), ""]
    out += [
        "## Longest run",
        "",
        "The probability that the longest run of each outcome in the shoe is exactly L, and that it is "
        f"L or more (a run of L or more happens); rows stop where every tail is below {float(SHOWN):g}.",
        "",
    ]
    rows = [
        [str(L)]
        + [_pct(r.longest_probability(o, L)) for o in r.outcomes]
        + [_pct(r.longest_at_least(o, L)) for o in r.outcomes]
        for L in range(L_top + 1)
    ]
    rows.append(["mean"] + [f"{float(r.mean_longest(o)):.6f}" for o in r.outcomes] + [""] * len(r.outcomes))
    out += [md_table(rows, ["L"] + [f"{x} = L" for x in letters] + [f"{x} ≥ L" for x in letters]), ""]
    if chart:
        out += [f"![longest run]({chart})", ""]
    for k in r.at_least:
        out += [
            f"## Runs of {k} or more",
            "",
            f"The probability of exactly c runs of {k} or more of each outcome in the shoe.",
            "",
        ]
        dist = {o: r.count_distribution(o, k) for o in r.outcomes}
        rows = [[str(c)] + [_pct(dist[o][c][1]) for o in r.outcomes] for c in range(_count_rows(r, k) + 1)]
        rows.append(["mean"] + [f"{float(r.mean_count(o, k)):.6f}" for o in r.outcomes])
        out += [md_table(rows, ["c"] + letters), ""]
    out += [
        "## Streaks from a starting point",
        "",
        "The probability that the next j coups are wins of the outcome and the coup after is not "
        f"(the last row: {TOP} or more); the table of Wizard of Odds' baccarat appendix 4 "
        "(six decks, ties ignored) is this one for `--decks 6 --ties ignored`.",
        "",
    ]
    streaks = _streaks(r)
    rows = [
        [j] + [f"{float(streaks[o][i][1]):.8f}" for o in r.outcomes] for i, (j, _) in enumerate(streaks[r.outcomes[0]])
    ]
    out += [md_table(rows, ["j"] + [o.capitalize() for o in r.outcomes]), ""]
    if dealt is not None:
        out += _dealt_markdown(dealt)
    out += ["## Conventions", ""] + [f"* {c}" for c in conventions(r, dealt)] + [""]
    return "\n".join(out)


def _dealt_markdown(dealt: dict) -> list[str]:
    law = dealt["coups_law"]
    shoes = sum(law.values())
    mean = sum(n * c for n, c in law.items()) / shoes
    out = [
        "## Dealt shoes",
        "",
        f"{dealt['shoes']:,} shoes dealt (seed {dealt['seed']}, {dealt['procedure']}): {min(law)} to "
        f"{max(law)} coups a shoe, {mean:.2f} on average.  Independent coups: exact, for the same numbers "
        "of coups.",
        "",
    ]
    rows = [
        [
            d["name"],
            d["outcome"],
            f"{float(d['independent']):.6f}",
            f"{d['dealt'].mean:.6f}",
            f"{d['dealt'].low:.6f} to {d['dealt'].high:.6f}",
        ]
        for d in dealt["rows"]
    ]
    out += [md_table(rows, ["figure", "outcome", "independent coups (exact)", "dealt shoes", "95% interval"]), ""]
    groups: dict[tuple[str, int | None], list[dict]] = {}
    for d in dealt.get("distributions", []):
        groups.setdefault((d["statistic"], d["k"]), []).append(d)
    for (statistic, k), items in groups.items():
        title = "Longest run" if statistic == "longest" else f"Runs of {k} or more"
        what = "the longest run" if statistic == "longest" else f"the number of runs of {k} or more"
        outcomes = list(dict.fromkeys(d["outcome"] for d in items))
        by = {(d["outcome"], d["value"]): d for d in items}
        values = sorted({d["value"] for d in items})
        out += [
            f"### {title}, dealt shoes",
            "",
            f"The probability that {what} is each value: exact for independent coups (for the dealt "
            "shoes' numbers of coups), and the dealt shoes' share with its 95% interval (Wilson).",
            "",
        ]
        rows = []
        for v in values:
            row = [str(v)]
            for o in outcomes:
                d = by.get((o, v))
                if d is None:
                    row += ["", ""]
                else:
                    e = d["dealt"]
                    row += [_pct(d["independent"]), f"{e.mean:.4%} ({e.low:.4%} to {e.high:.4%})"]
            rows.append(row)
        heads = ["L" if statistic == "longest" else "c"]
        for o in outcomes:
            heads += [f"{LETTERS[o]} independent", f"{LETTERS[o]} dealt (95%)"]
        out += [md_table(rows, heads), ""]
    return out


@contextlib.contextmanager
def _long_integers():
    """Exact values here may have more digits than Python prints by default (4,300)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def runs_dict(r: RunsResult, dealt: dict | None = None, rules=None) -> dict:
    w = r.ways
    d: dict[str, Any] = {
        "shoe": r.shoe,
        "coups": r.coups,
        "ties": r.convention,
        "ties_meaning": CONVENTION_TEXT[r.convention],
        "ways_per_coup": {"player": w.player, "banker": w.banker, "tie": w.tie, "total": w.total},
        "denominator": f"{w.total}^{r.coups}",
    }
    if rules is not None:
        d["rules"] = rules
    d["longest"] = {
        o: [
            {
                "length": L,
                "probability": exact(r.longest_probability(o, L)),
                "probability_float": to_float(r.longest_probability(o, L)),
            }
            for L in range(r.coups + 1)
        ]
        for o in r.outcomes
    }
    d["mean_longest"] = {
        o: {"exact": exact(r.mean_longest(o)), "float": to_float(r.mean_longest(o))} for o in r.outcomes
    }
    d["runs_at_least"] = [
        {
            "k": k,
            "outcome": o,
            "distribution": [
                {"runs": c, "probability": exact(p), "probability_float": to_float(p)}
                for c, p in r.count_distribution(o, k)
            ],
            "mean": exact(r.mean_count(o, k)),
            "mean_float": to_float(r.mean_count(o, k)),
        }
        for k in r.at_least
        for o in r.outcomes
    ]
    d["streaks_from_start"] = {
        o: [{"streak": j, "probability": exact(p), "probability_float": to_float(p)} for j, p in s]
        for o, s in _streaks(r).items()
    }
    if dealt is not None:
        d["dealt_shoes"] = {
            "shoes": dealt["shoes"],
            "seed": dealt["seed"],
            "procedure": dealt["procedure"],
            "coups_per_shoe": {str(n): c for n, c in sorted(dealt["coups_law"].items())},
            "figures": [
                {
                    "figure": x["name"],
                    "outcome": x["outcome"],
                    "k": x["k"],
                    "independent": exact(x["independent"]),
                    "independent_float": to_float(x["independent"]),
                    "dealt_mean": x["dealt"].mean,
                    "ci95": [x["dealt"].low, x["dealt"].high],
                }
                for x in dealt["rows"]
            ],
            "distributions": [
                {
                    "statistic": x["statistic"],
                    "outcome": x["outcome"],
                    "k": x["k"],
                    "value": x["value"],
                    "independent": exact(x["independent"]),
                    "independent_float": to_float(x["independent"]),
                    "dealt_share": x["dealt"].mean,
                    "ci95": [x["dealt"].low, x["dealt"].high],
                }
                for x in dealt.get("distributions", [])
            ],
        }
    d["conventions"] = conventions(r, dealt)
    return d


def runs_json(r: RunsResult, dealt: dict | None = None, rules=None) -> str:
    with _long_integers():
        return json_text(runs_dict(r, dealt, rules))


def runs_csv(r: RunsResult, dealt: dict | None = None, rules=None) -> str:
    """One row per figure: ``section, outcome, k, value, exact, float`` (and for the dealt shoes the
    sample mean in ``float``, the interval in ``low`` and ``high``)."""
    with _long_integers():
        rows: list[list[Any]] = []
        for o in r.outcomes:
            for L in range(r.coups + 1):
                p = r.longest_probability(o, L)
                rows.append(["longest", o, "", L, exact(p), repr(to_float(p)), "", ""])
            m = r.mean_longest(o)
            rows.append(["mean_longest", o, "", "", exact(m), repr(to_float(m)), "", ""])
        for k in r.at_least:
            for o in r.outcomes:
                for c, p in r.count_distribution(o, k):
                    rows.append(["runs_at_least", o, k, c, exact(p), repr(to_float(p)), "", ""])
                m = r.mean_count(o, k)
                rows.append(["mean_runs_at_least", o, k, "", exact(m), repr(to_float(m)), "", ""])
        for o, s in _streaks(r).items():
            for j, p in s:
                rows.append(["streak_from_start", o, "", j, exact(p), repr(to_float(p)), "", ""])
        if dealt is not None:
            for x in dealt["rows"]:
                rows.append(
                    [
                        f"dealt: {x['name']}",
                        x["outcome"],
                        "" if x["k"] is None else x["k"],
                        "",
                        exact(x["independent"]),
                        repr(x["dealt"].mean),
                        repr(x["dealt"].low),
                        repr(x["dealt"].high),
                    ]
                )
            for x in dealt.get("distributions", []):
                rows.append(
                    [
                        f"dealt: {x['statistic']}",
                        x["outcome"],
                        "" if x["k"] is None else x["k"],
                        x["value"],
                        exact(x["independent"]),
                        repr(x["dealt"].mean),
                        repr(x["dealt"].low),
                        repr(x["dealt"].high),
                    ]
                )
        return csv_text(rows, ["section", "outcome", "k", "value", "exact", "float", "low", "high"])


def runs_chart(r: RunsResult, title: str, path, dealt: dict | None = None) -> None:
    """The distribution of the longest run of each outcome: exact lines, the dealt shoes' shares as dots."""
    from pathlib import Path

    from .charts import pyplot, save_png

    plt = pyplot()
    top = r.shown_lengths(Fraction(1, 10**5))
    colours = {"player": "#2a7ab0", "banker": "#c0392b", "tie": "#27ae60"}
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = list(range(top + 1))
    for o in r.outcomes:
        ax.plot(
            xs,
            [float(r.longest_probability(o, L)) for L in xs],
            marker="o",
            markersize=3,
            color=colours[o],
            label=f"{o} (independent coups, exact)",
        )
        if dealt is not None:
            shares = list(dealt["longest_shares"][o])[: top + 1]
            ax.plot(
                range(len(shares)),
                shares,
                linestyle="none",
                marker="x",
                color=colours[o],
                label=f"{o} ({dealt['shoes']:,} dealt shoes)",
            )
    ax.set_xlabel("longest run in the shoe")
    ax.set_ylabel("probability")
    ax.set_xticks(xs)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, Path(path))
    plt.close(fig)
