"""The report of ``baccarat check`` as Markdown, JSON or CSV.

Tables come from the shared builders of :mod:`analyzer.io.tables`; exact
values print as ``p/q`` next to their float, and a float JSON cannot hold (the
infinite z of a cell observed off a zero-variance expectation) is ``null``.
"""

from __future__ import annotations

import math

from ..io.tables import csv_text, exact, json_text, md_table, to_float
from .stats import MIN_EXPECTED, Report, p_text


def _num(x: float, digits: int = 2) -> str:
    return f"{x:,.{digits}f}"


def _z(z: float | None) -> str:
    if z is None:
        return "-"
    if not math.isfinite(z):
        return "+inf" if z > 0 else "-inf"
    return f"{z:+.3f}"


def _pct(x: float) -> str:
    return f"{x * 100:.4g} pp"


def _reference_text(r: Report) -> str:
    if r.reference == "shoe-aware":
        return (
            "shoe-aware: each coup's exact distribution given every card seen before it in its "
            "shoe (cards burned face down are unseen and exchangeable with the rest)"
        )
    return "off-the-top: every coup distributed as the first coup of a freshly shuffled declared shoe"


def verdict_sentence(r: Report) -> str:
    """The verdict in one sentence (Markdown bold for the word): the report's first line after its
    title and its ``Verdict`` section, and what ``check`` prints on standard error when the
    report goes to a file."""
    rejected = [t.name for t in r.tests if t.rejected] + [t.name for t in r.exact if t.rejected]
    if r.failed:
        return (
            f"**FAIL** at alpha = {float(r.alpha):g} (family-wise, Holm over {r.m} tests): " + "; ".join(rejected) + "."
        )
    if r.m == 0:
        return (
            "**PASS**, but vacuously: no category or bet expects enough coups to be tested "
            "(see the power statement for how many hands are needed)."
        )
    return (
        f"**PASS**: no test rejects the exact reference at alpha = {float(r.alpha):g} "
        f"(family-wise, Holm over {r.m} tests)."
    )


def report_markdown(r: Report) -> str:
    out = [f"# Simulator check: {r.source}", "", f"Verdict: {verdict_sentence(r)}", ""]
    what = f"{r.coups:,} coups" + (f" in {r.shoes:,} shoes" if r.shoes is not None else "")
    out.append(f"- Input: {r.input_kind}, {what}, read completely; declared shoe {r.shoe.describe()}.")
    out.append(f"- Reference: {_reference_text(r)}.")
    if getattr(r, "engine", None):
        out.append(f"- Shoe-aware sums computed on: {r.engine}.")
    if getattr(r, "procedure", None):
        out.append(f"- Declared shoe procedure: {r.procedure}.")
    out.append(
        f"- Level: alpha = {float(r.alpha):g}, family-wise over {r.m} statistical test"
        f"{'s' if r.m != 1 else ''} (Holm); cells expecting fewer than {MIN_EXPECTED} coups are "
        f"pooled in chi-squares and not z-tested."
    )
    for note in r.notes:
        out.append(f"- {note}")
    out.append("")
    for key, cells in r.cells.items():
        out.append(f"## {r.titles[key]}")
        out.append("")
        shown = cells
        if key == "totals":
            shown = sorted(cells, key=lambda s: -abs(s.z) if s.z is not None else 0)[:8]
            out.append("The 8 cells furthest from expectation (all 100 cells enter the chi-square):")
            out.append("")
        rows = [
            [
                s.label,
                f"{s.observed:,}",
                _num(float(s.expected)),
                _num(math.sqrt(s.variance)),
                _z(s.z),
                p_text(s.p) if s.p is not None else "-",
            ]
            for s in shown
        ]
        out.append(
            md_table(
                rows,
                ["cell", "observed", "expected", "sd", "z", "p (two-sided)"],
                ["left", "right", "right", "right", "right", "right"],
            )
        )
        for c in r.chisq:
            if c.family == key:
                pooled = f", {c.pooled} small cell{'s' if c.pooled != 1 else ''} pooled" if c.pooled else ""
                out.append("")
                out.append(f"Chi-square {c.statistic:.3f} on {c.df} df{pooled}: p = {p_text(c.p)}.")
        out.append("")
    for title, text, headers, rows in getattr(r, "sections", ()):
        out.extend([f"## {title}", "", text, ""])
        if rows:
            out.extend([md_table(rows, headers, ["left"] + ["right"] * (len(headers) - 1)), ""])
    if r.bets:
        out.append("## Bets (net units won, one unit per coup)")
        out.append("")
        rows = [
            [
                b.bet.id,
                f"{b.coups:,}",
                _num(float(b.observed)),
                _num(float(b.expected)),
                _num(math.sqrt(b.variance)),
                _z(b.z),
                p_text(b.p) if b.p is not None else "-",
                f"{float(b.observed) / b.coups:+.5f}" if b.coups else "-",
                f"{float(b.expected) / b.coups:+.5f}" if b.coups else "-",
            ]
            for b in r.bets
        ]
        out.append(
            md_table(
                rows, ["bet", "coups", "return", "expected", "sd", "z", "p", "mean", "EV"], ["left"] + ["right"] * 8
            )
        )
        for b in r.bets:
            if b.note:
                out.append("")
                out.append(f"`{b.bet.id}`: {b.note}.")
        out.append("")
    if r.depletion:
        out.append("## Depletion (shoe-aware)")
        out.append("")
        out.append(
            "Does each coup follow its own shoe's composition?  z of the sum over coups of "
            "(p_k - p_0)(x_k - p_k), p_k shoe-aware, p_0 off the top; a simulator that ignores "
            "depletion drives it negative."
        )
        out.append("")
        rows = [[label, _z(z), p_text(p)] for label, z, p in r.depletion]
        out.append(md_table(rows, ["outcome", "z", "p"], ["left", "right", "right"]))
        out.append("")
    out.append("## Tests")
    out.append("")
    rows = []
    for i, t in enumerate(r.tests, 1):
        rows.append(
            [
                str(i),
                t.name,
                t.statistic,
                p_text(t.p),
                f"{t.threshold:.3g}",
                p_text(t.adjusted),
                "REJECT" if t.rejected else "pass",
            ]
        )
    for t in r.exact:
        rows.append(["-", t.name, t.statistic, "exact", "-", "-", "FAIL" if t.rejected else "pass"])
    out.append(
        md_table(
            rows,
            ["#", "test", "statistic", "p", "Holm threshold", "adjusted p", "result"],
            ["right", "left", "right", "right", "right", "right", "left"],
        )
    )
    out.append("")
    out.append("## Verdict")
    out.append("")
    out.append(verdict_sentence(r))
    out.append("")
    if r.power_rows:
        out.append("## Power")
        out.append("")
        each = float(r.alpha) / max(r.m, 1)
        out.append(
            f"Hands a single two-sided z test at level alpha/m = {each:.3g} (Bonferroni, so the "
            f"Holm procedure above does at least as well) needs to detect a deviation of "
            f"{_pct(float(r.detect))} with {float(r.power):.0%} power, and the smallest deviation "
            f"these {r.coups:,} hands detect with that power (normal approximation, per-hand sd "
            f"of the reference):"
        )
        out.append("")
        rows = [
            [
                p.what,
                f"{p.sd:.5f}",
                _pct(float(p.detect)),
                f"{p.hands:,}",
                _pct(p.detectable_now) if p.detectable_now is not None else "-",
            ]
            for p in r.power_rows
        ]
        out.append(
            md_table(
                rows,
                ["quantity", "sd per hand", "deviation", "hands needed", "detectable now"],
                ["left", "right", "right", "right", "right"],
            )
        )
        out.append("")
    return "\n".join(out)


def report_dict(r: Report) -> dict:
    return {
        "source": r.source,
        "input": r.input_kind,
        "shoe": r.shoe.spec(),
        "reference": r.reference,
        "coups": r.coups,
        "shoes": r.shoes,
        "excluded_coups": r.excluded,
        **({"procedure": r.procedure} if getattr(r, "procedure", None) else {}),
        **({"engine": r.engine} if getattr(r, "engine", None) else {}),
        **(
            {"set_aside": {"coups": sum(r.set_aside.values()), "by_rule": r.set_aside}}
            if getattr(r, "set_aside", None)
            else {}
        ),
        "alpha": exact(r.alpha),
        "tests_in_family": r.m,
        "verdict": r.verdict,
        "cells": {
            key: [
                {
                    "cell": s.label,
                    "observed": s.observed,
                    "expected": exact(s.expected),
                    "expected_float": to_float(s.expected),
                    "variance": exact(s.variance),
                    "variance_float": to_float(s.variance),
                    "z": to_float(s.z),
                    "p": to_float(s.p),
                    "tested": s.tested,
                }
                for s in cells
            ]
            for key, cells in r.cells.items()
        },
        "chi_square": [
            {
                "family": c.family,
                "statistic": to_float(c.statistic),
                "df": c.df,
                "p": to_float(c.p),
                "groups": c.groups,
                "pooled": c.pooled,
            }
            for c in r.chisq
        ],
        "bets": [
            {
                "bet": b.bet.id,
                "coups": b.coups,
                "return": exact(b.observed),
                "expected_return": exact(b.expected),
                "expected_return_float": to_float(b.expected),
                "variance": exact(b.variance),
                "variance_float": to_float(b.variance),
                "z": to_float(b.z),
                "p": to_float(b.p),
                "tested": b.tested,
            }
            for b in r.bets
        ],
        "depletion": [{"outcome": label, "z": to_float(z), "p": to_float(p)} for label, z, p in r.depletion],
        "tests": [
            {
                "test": t.name,
                "kind": t.kind,
                "statistic": t.statistic,
                "p": to_float(t.p),
                "p_text": p_text(t.p),
                "holm_threshold": t.threshold,
                "adjusted_p": to_float(t.adjusted),
                "rejected": t.rejected,
            }
            for t in r.tests
        ],
        "exact_checks": [{"test": t.name, "detail": t.statistic, "failed": t.rejected} for t in r.exact],
        "power": [
            {
                "quantity": p.what,
                "sd_per_hand": to_float(p.sd),
                "deviation": to_float(p.detect),
                "hands_needed": p.hands,
                "detectable_now": to_float(p.detectable_now),
            }
            for p in r.power_rows
        ],
        "notes": r.notes,
        **(
            {
                "sections": [
                    {"title": t, "text": x, "rows": [dict(zip(h, row)) for row in rows]} for t, x, h, rows in r.sections
                ]
            }
            if getattr(r, "sections", None)
            else {}
        ),
    }


def report_json(r: Report) -> str:
    return json_text(report_dict(r))


def report_csv(r: Report) -> str:
    rows = [
        [
            t.name,
            t.kind,
            t.statistic,
            p_text(t.p),
            f"{t.threshold:.6g}",
            p_text(t.adjusted),
            "reject" if t.rejected else "pass",
        ]
        for t in r.tests
    ]
    rows += [[t.name, t.kind, t.statistic, "", "", "", "fail" if t.rejected else "pass"] for t in r.exact]
    rows.append(["verdict", "", r.verdict, "", f"{float(r.alpha):g}", "", ""])
    return csv_text(rows, ["test", "kind", "statistic", "p", "holm_threshold", "adjusted_p", "result"])
