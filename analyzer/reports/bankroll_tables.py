"""The documents of ``baccarat bankroll``: Markdown, CSV, JSON and the chart.

Nothing here computes; every value comes exact from :mod:`.bankroll`.  Exact
values print as ``p/q``; in Markdown an exact value of more than
:data:`READABLE` characters is replaced by its digit count (the JSON always has
it), and the decimals beside are the exact values rounded to the digits shown
(their only error).
"""

from __future__ import annotations

import contextlib
import sys
from fractions import Fraction
from typing import Any

from ..core.results import Analysis, BetResult
from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent, to_float
from .bankroll import BankrollResult
from .odds_tables import pays_text, shoe_json

READABLE = 60

CONVENTIONS = (
    "Every coup is an independent deal from the full declared shoe (off the top): card removal "
    "within a real shoe is ignored, so the coups are independent with the bet's exact payout "
    "distribution.",
    "The system's stake is capped by the table limit; the bet is placed only if the bankroll "
    "covers that stake, otherwise the session ends in ruin and keeps what is left (less than the "
    "stake).  Ruin is also declared after the last coup when the next stake is not covered.",
    "Martingale doubles after a loss and resets after a win; Paroli doubles after a win, at most "
    "3 wins, then resets (and after any loss); D'Alembert adds one unit after a loss and takes one "
    "away after a win (at least one unit); a push keeps the stake.  A progression stops counting "
    "at the step whose stake reaches the limit.",
    "Doubling first: the bankroll reaches twice the start after some coup before any ruin, within "
    "the coups (the session goes on).  Coups played: bets placed (fewer than the coups after a ruin).",
    "Computed exactly by dynamic programming over (bankroll, system state, doubled yet), not by "
    "simulation; quantiles are exact values of the final bankroll.",
)
LONG = (
    "A long flat session: the bankroll can neither be ruined nor doubled within the coups, so the "
    "final bankroll is the start plus the net of the coups, computed exactly as the coefficients of "
    "the N-th power of the bet's integer polynomial (Miller's recurrence, not a simulation); its "
    "exact figures are kept; the chart's probabilities are floats within a relative N * 1e-14 or so."
)


def conventions(r: BankrollResult) -> tuple[str, ...]:
    """The conventions printed with a result (a long flat session says how it was computed)."""
    return CONVENTIONS if r.trip is None else CONVENTIONS[:-1] + (LONG,)


def _metrics(r: BankrollResult) -> list[tuple[str, str, Fraction]]:
    return [
        ("ruin_probability", "probability of ruin", r.ruin_probability),
        ("double_first_probability", "probability of doubling first", r.double_first_probability),
        ("undecided_probability", "neither ruined nor doubled after the last coup", r.undecided_probability),
        ("expected_coups", "expected coups played", r.expected_coups),
        ("mean_final_bankroll", "expected final bankroll", r.mean_final),
        ("ahead_probability", "probability of ending above the start", r.ahead_probability),
    ]


def shown_exact(x: Fraction) -> str:
    digits = (x.numerator.bit_length() + x.denominator.bit_length()) * 0.30103
    if digits > 2 * READABLE:
        return f"(about {digits:,.0f} digits: see --format json)"
    text = exact(x)
    return text if len(text) <= READABLE else f"({len(text) - 1:,} digits: see --format json)"


@contextlib.contextmanager
def long_integers():
    """Exact values here may have more digits than Python prints by default (4,300)."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def _quantile_name(q: Fraction) -> str:
    return f"{q * 100}%"


def money_text(x: Fraction | None) -> str:
    if x is None:
        return "none"
    return str(x) if x.denominator == 1 else f"{x} = {decimal(x, 6)}"


def played_rules(analysis: Analysis):
    """The rule set played, or None for Punto Banco."""
    rules = analysis.rules
    return None if rules is None or rules.is_default else rules


def _session_rows(r, bet: BetResult, analysis: Analysis) -> list[list[str]]:
    """The parameter rows every session's Markdown starts with (bet, shoe, rules, system, sizes)."""
    rules = played_rules(analysis)
    return (
        [["bet", f"{bet.bet.name} ({bet.bet.id})"], ["shoe", analysis.shoe.describe()]]
        + ([] if rules is None else [["rules", rules.describe()]])
        + [
            ["system", r.system],
            ["bankroll", money_text(r.bankroll)],
            ["unit", money_text(r.unit)],
            ["table limit", money_text(r.limit)],
            ["coups", f"{r.coups:,}"],
            ["bankroll step (tick)", money_text(r.tick)],
        ]
    )


def _session_keys(r) -> dict[str, Any]:
    """The keys of a session's JSON after :func:`session_head`: the system and its sizes."""
    return {
        "system": r.system,
        "bankroll": exact(r.bankroll),
        "unit": exact(r.unit),
        "limit": None if r.limit is None else exact(r.limit),
        "coups": r.coups,
        "tick": exact(r.tick),
    }


def _parameters(r: BankrollResult, bet: BetResult, analysis: Analysis) -> list[list[str]]:
    return _session_rows(r, bet, analysis) + [
        ["states of the largest coup" if r.trip is None else "final bankrolls reachable", f"{r.states:,}"],
    ]


def bankroll_markdown(r: BankrollResult, bet: BetResult, analysis: Analysis, chart: str | None = None) -> str:
    out = [f"# Bankroll: {bet.bet.name}, {r.system}, {r.coups:,} coups", ""]
    out += [md_table(_parameters(r, bet, analysis), ["", "value"]), ""]
    out += ["## Results", ""]
    rows = []
    for key, label, v in _metrics(r):
        shown = percent(v, 6) if key.endswith("_probability") else decimal(v, 6)
        rows.append([label, shown_exact(v), shown])
    out += [md_table(rows, ["", "exact", "decimal"]), ""]
    out += [
        "Decimals are the exact values rounded to the digits shown (their only error); exact values "
        "too long to read are in `--format json`.",
        "",
    ]
    out += ["## Final bankroll", "", "The smallest bankroll `b` with P(final <= b) >= q (exact).", ""]
    out += [
        md_table(
            [[_quantile_name(q), exact(b), decimal(b, 4)] for q, b in r.final_quantiles],
            ["quantile", "bankroll (exact)", "decimal"],
        ),
        "",
    ]
    if chart:
        out += [f"![final bankroll]({chart})", ""]
    out += ["## The bet", ""]
    out += [
        md_table(
            [[e.event, pays_text(e.pays), exact(e.probability), percent(e.probability, 6)] for e in bet.events],
            ["event", "pays", "probability (exact)", "probability"],
        ),
        "",
    ]
    out += ["## Conventions", ""] + [f"* {c}" for c in conventions(r)] + [""]
    return "\n".join(out)


def session_head(bet: BetResult, analysis: Analysis) -> dict[str, Any]:
    """The keys every session document starts with: the bet (its events' pays and exact
    probabilities), the shoe, and the rules when they are not Punto Banco's."""
    d: dict[str, Any] = {
        "bet": {
            "id": bet.bet.id,
            "name": bet.bet.name,
            "events": [
                {"event": e.event, "pays": exact(e.pays), "probability": exact(e.probability)} for e in bet.events
            ],
        },
        "shoe": shoe_json(analysis),
    }
    if played_rules(analysis) is not None:
        d["rules"] = played_rules(analysis).describe()
    return d


def bankroll_dict(r: BankrollResult, bet: BetResult, analysis: Analysis) -> dict:
    d = session_head(bet, analysis)
    d |= _session_keys(r)
    for key, _, v in _metrics(r):
        d[key] = exact(v)
        d[f"{key}_float"] = to_float(v)
    d["final_quantiles"] = [
        {"quantile": exact(q), "bankroll": exact(b), "bankroll_float": to_float(b)} for q, b in r.final_quantiles
    ]
    d["states"] = r.states
    d["conventions"] = list(conventions(r))
    return d


def bankroll_json(r: BankrollResult, bet: BetResult, analysis: Analysis) -> str:
    with long_integers():
        return json_text(bankroll_dict(r, bet, analysis))


def bankroll_csv(r: BankrollResult, bet: BetResult, analysis: Analysis) -> str:
    with long_integers():
        return _csv(r)


def _csv(r: BankrollResult) -> str:
    rows = [[key, exact(v), repr(to_float(v))] for key, _, v in _metrics(r)]
    rows += [[f"final_quantile_{_quantile_name(q)}", exact(b), repr(to_float(b))] for q, b in r.final_quantiles]
    return csv_text(rows, ["metric", "exact", "float"])


def bankroll_chart(r: BankrollResult, title: str, path) -> None:
    """The distribution of the final bankroll: probability per bin, ruin apart, start marked."""
    from pathlib import Path

    from .charts import pyplot, save_png

    plt = pyplot()
    xs, ps = r.float_distribution()
    fig, ax = plt.subplots(figsize=(7, 4))
    bins = min(80, max(len(xs), 1))
    ax.hist(xs, bins=bins, weights=ps, color="#2a7ab0")
    ax.axvline(float(r.bankroll), color="black", linewidth=0.8, label="start")
    ax.axvline(2 * float(r.bankroll), color="#27ae60", linewidth=0.8, linestyle="--", label="double")
    ax.set_xlabel("final bankroll")
    ax.set_ylabel("probability")
    ax.set_title(
        f"{title}\nruin {float(r.ruin_probability):.4%}, doubling first {float(r.double_first_probability):.4%}",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, Path(path))
    plt.close(fig)


BOUNDED = (
    "Computed in binary64 floating point by the same dynamic programme, every figure with a "
    "certified bound: |value - exact| <= bound, from the forward error analysis of sums of "
    "nonnegative terms (each mass a sum of products of nonnegative numbers, each figure a sum "
    "of masses, nothing subtracted) plus the mass not kept above the ceiling or below 2**-900 "
    "a cell, which is measured and added to every bound.  Quantiles are given as the interval "
    "that certainly holds the exact one."
)


def bounded_conventions() -> tuple[str, ...]:
    """The conventions of a bounded (floating-point) session."""
    return CONVENTIONS[:-1] + (BOUNDED,)


def _bounded_parameters(r, bet: BetResult, analysis: Analysis) -> list[list[str]]:
    return _session_rows(r, bet, analysis) + [
        ["highest bankroll kept", money_text(r.ceiling)],
        ["cells", f"{r.cells:,}"],
        ["mass not kept (in every bound)", f"{r.dropped:.3g}"],
    ]


def bounded_markdown(r, bet: BetResult, analysis: Analysis) -> str:
    """The Markdown of a :class:`~analyzer.reports.bankroll_bounded.BoundedResult`."""
    out = [f"# Bankroll: {bet.bet.name}, {r.system}, {r.coups:,} coups (floating point, certified bounds)", ""]
    out += [md_table(_bounded_parameters(r, bet, analysis), ["", "value"]), ""]
    out += ["## Results", "", "Each value is within its bound of the exact figure (certified).", ""]
    out += [
        md_table(
            [[label, f"{b.value:.12g}", f"± {b.bound:.2g}"] for _, label, b in r.figures()], ["", "value", "bound"]
        ),
        "",
    ]
    out += [
        "## Final bankroll",
        "",
        "The smallest bankroll `b` with P(final <= b) >= q lies in the interval (certified).",
        "",
    ]
    out += [
        md_table(
            [[_quantile_name(q), exact(lo), exact(hi)] for q, lo, hi in r.quantiles],
            ["quantile", "at least", "at most"],
        ),
        "",
    ]
    out += ["## The bet", ""]
    out += [
        md_table(
            [[e.event, pays_text(e.pays), exact(e.probability), percent(e.probability, 6)] for e in bet.events],
            ["event", "pays", "probability (exact)", "probability"],
        ),
        "",
    ]
    out += ["## Conventions", ""] + [f"* {c}" for c in bounded_conventions()] + [""]
    return "\n".join(out)


def bounded_dict(r, bet: BetResult, analysis: Analysis) -> dict:
    d = session_head(bet, analysis)
    d |= _session_keys(r)
    d |= {
        "method": "floating point with certified bounds",
        "ceiling": exact(r.ceiling),
        "mass_not_kept": r.dropped,
    }
    for key, _, b in r.figures():
        d[f"{key}_float"] = b.value
        d[f"{key}_bound"] = b.bound
    d["final_quantiles"] = [
        {"quantile": exact(q), "at_least": exact(lo), "at_most": exact(hi)} for q, lo, hi in r.quantiles
    ]
    d["conventions"] = list(bounded_conventions())
    return d


def bounded_json(r, bet: BetResult, analysis: Analysis) -> str:
    return json_text(bounded_dict(r, bet, analysis))


def bounded_csv(r, bet: BetResult, analysis: Analysis) -> str:
    rows = [[key, repr(b.value), repr(b.bound)] for key, _, b in r.figures()]
    rows += [[f"final_quantile_{_quantile_name(q)}", exact(lo), exact(hi)] for q, lo, hi in r.quantiles]
    return csv_text(rows, ["metric", "value", "bound (quantiles: at least, at most)"])
