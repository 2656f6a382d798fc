"""A study's result as text: the JSON document, Markdown, CSV, and the trace CSV.

Pure builders over :mod:`analyzer.io.tables`: exact values print as ``p/q``
beside their floats; nothing here computes a figure or writes a file.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from ..io.tables import csv_text, decimal, exact, exact_or_none, json_text, md_table, percent, to_float
from .dealing import CoupTrace
from .params import HIST_BINS_PER_UNIT, StudyParams


def pct(x, digits: int = 4) -> str:
    """A percentage, ``-`` for None.

    Of ``float(x)``: ``float(x) * 100`` rounds as the study has always printed
    it (the exact fraction times 100 can round the other way at a tie).
    """
    return "-" if x is None else percent(float(x), digits)


def num(x, digits: int = 4) -> str:
    """A decimal, ``-`` for None."""
    return "-" if x is None else decimal(x, digits)


CONVENTIONS = (
    "Shoe *i* is shuffled by numpy PCG64 seeded with SeedSequence([seed, *i*]); "
    "coups follow the drawing rules of analyzer/core/RULES.md; a coup starts only while at least "
    "cut-card cards remain, and the coup in which the cut card comes out is finished. "
    "Before every coup each bet's EV is computed exactly on the cards not yet seen."
)


def study_dict(res, chart: str | None = None) -> dict:
    """The JSON document (exact values as ``"p/q"``, a ``*_float`` beside each)."""
    p = res.params
    shoe = p.start_shoe()
    doc = {
        "study": {
            "shoe": {"cards": shoe.cards, "counts": shoe.rank_counts, "suited": shoe.suited, "decks": shoe.decks},
            "shoes": res.shoes,
            "seed": p.seed,
            "cut_card": p.cut_card,
            "burn": p.burn,
            **({"after_cut": p.after_cut} if p.after_cut else {}),
            "bets": list(p.bet_ids),
            "depth_step": p.depth_step,
            "chunk_shoes": p.chunk_shoes,
            "key": p.key(),
            "conventions": CONVENTIONS,
            **({"rules": p.rules().describe()} if p.rules() is not None else {}),
        },
        "coups": res.coups,
        "coups_per_shoe": exact(Fraction(res.coups, res.shoes)),
        "coups_per_shoe_float": res.coups / res.shoes,
        "coups_by_cards_left": {str(n): c for n, c in res.coups_by_left.items()},
        "bets": {},
    }
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        d = {
            "name": b["bet"].name,
            **_exact_pair("full_shoe_ev", b["full_shoe_ev"]),
            **_exact_pair("mean_ev", b["mean_ev"]),
            "perfect_play": {
                "positive_coups": pp["positive_coups"],
                **_exact_pair("positive_fraction", pp["positive_fraction"]),
                **_exact_pair("bets_per_shoe", pp["bets_per_shoe"]),
                **_exact_pair("avg_edge_when_positive", pp["avg_edge_when_positive"]),
                **_exact_pair("win_per_shoe", pp["win_per_shoe"]),
                "win_per_shoe_sd_float": to_float(pp["win_per_shoe_sd"]),
                "win_per_shoe_se_float": to_float(pp["win_per_shoe_se"]),
            },
            "by_depth": [_depth_row(r) for r in b["by_depth"]],
            "histogram_bin_width": "1/" + str(HIST_BINS_PER_UNIT),
            "mean_ev_by_cards_left": {str(n): exact(v) for n, v in b["mean_ev_by_cards_left"].items()},
            "count": None,
        }
        c = b["count"]
        if c is not None:
            d["count"] = {
                "tags": c["tags"],
                "source": c["source"],
                "correlation_float": to_float(c["correlation"]),  # None when the tags do not vary
                "effects_vanish": c["effects_vanish"],
                "best_trigger": None if c["best"] is None else c["best"]["trigger"],
                "curve": [_curve_row(r) for r in c["curve"]],
            }
            d["count"]["best"] = None if c["best"] is None else _curve_row(c["best"])
        doc["bets"][bet_id] = d
    if chart is not None:
        doc["chart"] = chart
    doc["run"] = res.run
    return doc


def _exact_pair(key: str, x) -> dict:
    """``{key: "p/q", key_float: x}`` (both None for None)."""
    return {key: exact_or_none(x), f"{key}_float": to_float(x)}


def _depth_row(r: dict) -> dict:
    quantiles = r["quantiles"].items()
    return {
        "cards_seen_from": r["cards_dealt_from"],
        "cards_seen_to": r["cards_dealt_to"],
        "coups": r["coups"],
        "positive": r["positive"],
        **_exact_pair("mean_ev", r["mean_ev"]),
        "sd_float": r["sd"],
        "quantiles": {k: [exact(lo), exact(hi)] for k, (lo, hi) in quantiles},
        "quantiles_float": {k: [to_float(lo), to_float(hi)] for k, (lo, hi) in quantiles},
        "min_bin": exact_or_none(r["min_bin"]),
        "max_bin": exact_or_none(r["max_bin"]),
        "histogram": {str(k): v for k, v in r["histogram"].items()},
    }


def _curve_row(r: dict) -> dict:
    return {
        "trigger": r["trigger"],
        "bets": r["bets"],
        "positive_bets": r["positive_bets"],
        **_exact_pair("bets_per_shoe", r["bets_per_shoe"]),
        **_exact_pair("avg_edge", r["avg_edge"]),
        **_exact_pair("win_per_shoe", r["win_per_shoe"]),
        **_exact_pair("share_of_perfect_play", r["share_of_perfect_play"]),
    }


def study_json(res, chart: str | None = None) -> str:
    """:func:`study_dict` as JSON text."""
    return json_text(study_dict(res, chart), indent=1)


def study_markdown(res, chart: str | None = None) -> str:
    """The study as a Markdown document: perfect play, EV by depth, counts, exact values."""
    p = res.params
    shoe = p.start_shoe()
    out = [f"# Shoe study: {shoe.describe()}, {res.shoes:,} shoes", ""]
    out.append(
        f"Seed {p.seed}, cut card {p.cut_card} cards from the end"
        + (f" and {p.after_cut} coup after it" if p.after_cut else "")
        + f", burn: {p.burn}{'' if p.burn in ('none', 'standard') else ' cards face down'}; "
        f"{res.coups:,} coups ({res.coups / res.shoes:.3f} a shoe), each solved exactly. "
        + CONVENTIONS
        + (f" Rules: {p.rules().describe()}." if p.rules() is not None else "")
    )
    run = res.run
    if run:
        rate = f", {run['shoes_per_s']:,.1f} shoes/s" if run.get("shoes_per_s") else ""
        out.append("")
        out.append(
            f"Run: {run['engine']}, {run['chunks']} chunks ({run['chunks_reused']} resumed, "
            f"{run['chunks_computed']} computed) in {run['elapsed_s']:.1f} s{rate}"
            + (f"; state in `{run['state_dir']}`" if run.get("state_dir") else "")
            + "."
        )
    out += [
        "",
        "## Perfect play",
        "",
        "A player who bets one unit exactly when the bet's EV on the remaining shoe is positive.",
        "",
    ]
    rows = []
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        se = pp["win_per_shoe_se"]
        rows.append(
            [
                bet_id,
                pct(b["full_shoe_ev"]),
                str(pp["positive_coups"]),
                pct(pp["positive_fraction"]),
                num(pp["bets_per_shoe"], 3),
                pct(pp["avg_edge_when_positive"]),
                num(pp["win_per_shoe"], 4) + ("" if not math.isfinite(se) else f" ± {decimal(se, 4)}"),
            ]
        )
    out.append(
        md_table(
            rows,
            [
                "bet",
                "EV full shoe",
                "coups EV > 0",
                "share of coups",
                "bets a shoe",
                "avg edge when EV > 0",
                "win a shoe (units) ± s.e.",
            ],
            ["left"] + ["right"] * 6,
        )
    )
    out += ["", "± is the standard error over shoes of each shoe's expected win.", ""]
    out += [
        "## EV by depth",
        "",
        f"Buckets of {p.depth_step} cards seen; quantiles are read from a histogram with bins of "
        f"{100 / HIST_BINS_PER_UNIT:g} percentage points (midpoints shown).",
        "",
    ]
    for bet_id, b in res.bets.items():
        out += [f"### {b['bet'].name} (`{bet_id}`)", ""]
        rows = []
        for r in b["by_depth"]:
            q = {k: (lo + hi) / 2 for k, (lo, hi) in r["quantiles"].items()}
            rows.append(
                [
                    f"{r['cards_dealt_from']}-{r['cards_dealt_to']}",
                    str(r["coups"]),
                    pct(Fraction(r["positive"], r["coups"]), 3),
                    pct(r["mean_ev"], 3),
                    pct(r["sd"], 3),
                    pct(q["p05"], 2),
                    pct(q["p25"], 2),
                    pct(q["p50"], 2),
                    pct(q["p75"], 2),
                    pct(q["p95"], 2),
                ]
            )
        out.append(
            md_table(
                rows,
                ["cards seen", "coups", "EV > 0", "mean EV", "sd", "p5", "p25", "median", "p75", "p95"],
                ["left"] + ["right"] * 9,
            )
        )
        out.append("")
    counted = [(i, b) for i, b in res.bets.items() if b["count"] is not None]
    if counted:
        out += [
            "## Linear counts",
            "",
            "True count = 52 x (running count of the cards seen - m x cards seen) / cards left, with m "
            "the start shoe's average tag (0 for a balanced count); the counter bets one unit when the "
            "true count is at least the trigger.",
            "",
        ]
        for bet_id, b in counted:
            c = b["count"]
            tags = ", ".join(f"{r}={t:+d}" if t else f"{r}=0" for r, t in c["tags"].items())
            out += [
                f"### {b['bet'].name} (`{bet_id}`)",
                "",
                f"Tags ({c['source']}): {tags}.  Betting correlation with the exact effects of removal: "
                + num(c["correlation"])
                + ".",
                "",
            ]
            if c["effects_vanish"]:
                out += ["The effects of removal of this bet are all zero: a linear count cannot help.", ""]
                continue
            best = c["best"]
            perfect = b["perfect_play"]["win_per_shoe"]
            if best is None:
                out += ["No trigger makes the counted bet profitable in this study.", ""]
            else:
                out += [
                    f"Best trigger: true count >= {best['trigger']}: {num(best['bets_per_shoe'], 3)} bets a "
                    f"shoe at an average edge of {pct(best['avg_edge'])}, winning "
                    f"{num(best['win_per_shoe'])} units a shoe"
                    + (
                        f" ({pct(best['share_of_perfect_play'], 1)} of perfect play's {num(perfect)})"
                        if best["share_of_perfect_play"] is not None
                        else ""
                    )
                    + ".",
                    "",
                ]
            curve = c["curve"]
            if best is not None:
                at = curve.index(best)
            else:  # around true count 0
                at = min(range(len(curve)), key=lambda i: abs(curve[i]["trigger"]))
            shown = curve[max(0, at - 6) : at + 7]
            rows = [
                [
                    f">= {r['trigger']}",
                    num(r["bets_per_shoe"], 3),
                    pct(r["avg_edge"], 3),
                    num(r["win_per_shoe"], 4),
                    pct(r["share_of_perfect_play"], 1),
                ]
                for r in shown
            ]
            out.append(
                md_table(
                    rows,
                    ["true count", "bets a shoe", "avg edge", "win a shoe", "share of perfect play"],
                    ["left"] + ["right"] * 4,
                )
            )
            out += [
                "",
                f"(Triggers {curve[0]['trigger']} to {curve[-1]['trigger']} are in the JSON and CSV output.)",
                "",
            ]
    out += ["## Chart", "", _chart_line(chart), ""]
    out += ["## Exact values", "", "Every figure above is exact; the main ones as reduced fractions:", "", "```"]
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        out.append(f"{bet_id} share of coups with EV > 0 = {exact(pp['positive_fraction'])}")
        out.append(f"{bet_id} avg edge when EV > 0 = {exact_or_none(pp['avg_edge_when_positive'])}")
        out.append(f"{bet_id} perfect-play win a shoe = {exact(pp['win_per_shoe'])}")
        c = b["count"]
        if c is not None and c["best"] is not None:
            out.append(
                f"{bet_id} counter win a shoe at true count >= {c['best']['trigger']} = "
                f"{exact(c['best']['win_per_shoe'])}"
            )
    out += ["```", ""]
    return "\n".join(out)


def _chart_line(chart: str | None) -> str:
    if chart is None:
        return "No chart requested (--chart FILE.png draws the EV by depth and the count curves)."
    if chart.startswith("skipped"):
        return f"Chart {chart}."
    return f"EV by depth and count curves: `{chart}`."


CSV_HEADERS = ["section", "bet", "from", "to", "trigger", "metric", "exact", "value"]


def study_csv(res, chart: str | None = None) -> str:
    """Long format: one figure a row."""
    rows = []
    p = res.params
    for k, v in (
        ("shoes", res.shoes),
        ("coups", res.coups),
        ("seed", p.seed),
        ("cut_card", p.cut_card),
        ("cards", p.cards),
        ("depth_step", p.depth_step),
    ):
        rows.append(["study", "", "", "", "", k, v, v])
    rows.append(["study", "", "", "", "", "burn", "", p.burn])
    if p.after_cut:
        rows.append(["study", "", "", "", "", "after_cut", p.after_cut, p.after_cut])
    if p.rules() is not None:
        rows.append(["study", "", "", "", "", "rules", "", p.rules().describe()])

    def row(section, bet, metric, value, a="", b="", trig=""):
        if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
            rows.append([section, bet, a, b, trig, metric, exact(value), repr(float(value))])
        else:
            rows.append([section, bet, a, b, trig, metric, "", "" if value is None else value])

    for bet_id, bt in res.bets.items():
        pp = bt["perfect_play"]
        row("bet", bet_id, "full_shoe_ev", bt["full_shoe_ev"])
        row("bet", bet_id, "mean_ev", bt["mean_ev"])
        for k in (
            "positive_coups",
            "positive_fraction",
            "bets_per_shoe",
            "avg_edge_when_positive",
            "win_per_shoe",
            "win_per_shoe_sd",
            "win_per_shoe_se",
        ):
            row("perfect_play", bet_id, k, pp[k])
        for r in bt["by_depth"]:
            a, b = r["cards_dealt_from"], r["cards_dealt_to"]
            for k in ("coups", "positive", "mean_ev", "sd"):
                row("depth", bet_id, k, r[k], a, b)
            for k, (lo, _hi) in r["quantiles"].items():
                row("depth", bet_id, f"{k}_bin_low", lo, a, b)
        c = bt["count"]
        if c is not None:
            for rank, t in c["tags"].items():
                row("count", bet_id, f"tag_{rank}", t)
            row("count", bet_id, "correlation", c["correlation"])
            if c["best"] is not None:
                row("count", bet_id, "best_trigger", c["best"]["trigger"])
            for r in c["curve"]:
                for k in ("bets", "bets_per_shoe", "avg_edge", "win_per_shoe", "share_of_perfect_play"):
                    row("count", bet_id, k, r[k], trig=r["trigger"])
    if chart is not None:
        rows.append(["chart", "", "", "", "", "chart", "", chart])
    return csv_text(rows, CSV_HEADERS)


def trace_csv(params: StudyParams, shoes: Iterable[list[CoupTrace]]) -> str:
    """Every coup's remaining shoe and exact EVs, as CSV.

    ``shoes``: the coups of shoe 0, 1, ... (:func:`~analyzer.studies.dealing.trace_shoe`).
    """
    counted = [b for b, _, _ in params.tags]
    headers = (
        ["shoe", "coup", "cards_dealt_before", "cards_left", "coup_cards", "remaining_shoe"]
        + [f"ev_{b}" for b in params.bet_ids]
        + [f"ev_{b}_float" for b in params.bet_ids]
        + [f"true_count_{b}" for b in counted]
    )
    rows = [
        [i, c.coup, c.cards_dealt, c.cards_left, " ".join(c.dealt), c.remaining.spec()]
        + [exact(c.evs[b]) for b in params.bet_ids]
        + [repr(float(c.evs[b])) for b in params.bet_ids]
        + [exact(c.true_counts[b]) for b in counted]
        for i, coups in enumerate(shoes)
        for c in coups
    ]
    return csv_text(rows, headers)
