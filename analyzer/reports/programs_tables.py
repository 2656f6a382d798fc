"""The documents of ``baccarat programs``: Markdown, CSV, JSON and the chart.

Nothing here computes; every value comes exact from :mod:`.programs` and
:mod:`.sessions`.  Exact values print as ``p/q``; in Markdown a value too long to
read is replaced by its digit count (the JSON has it whole), and the decimals beside
are the exact values rounded to the digits shown.  The normal approximation is a
float and says so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.results import Analysis, BetResult
from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent, to_float
from .bankroll_tables import long_integers, money_text, played_rules, session_head, shown_exact
from .odds_tables import pays_text
from .programs import Exits, Program, RollingChips

CONVENTIONS = (
    "Every hand is an independent deal from the full declared shoe (off the top): card removal "
    "within a real shoe is ignored, so the hands are independent with the bet's exact payout "
    "distribution.",
    "Rolling chips: a chip is bet hand after hand until a hand loses it; wins are paid in cash and a "
    "push leaves it in play.  Plays per chip = 1 / P(loss); the house's edge per chip = 1 - (cash won "
    "per hand) / P(loss); the hands to wash C chips bet one at a time are a negative binomial (exact "
    "quantiles).",
    "The trip: the same stake on the same bet every hand, no bankroll limit.  Its net result is "
    "computed exactly as the coefficients of the N-th power of the bet's integer polynomial (Miller's "
    "recurrence), not by simulation.",
    "Loss rebate: the rate of the highest tier whose threshold the net loss L = max(0, -net) reaches is "
    "returned on the whole loss, after the trip.  Break-even rate: the single rate at the lowest "
    "threshold whose value equals the house's expected win.",
    "P(net >= X) is exact; the normal approximation beside it has the same mean and variance (no "
    "continuity correction) and is a float.",
    "Best exits (--exits N): the player may stop after any hand of a trip of at most N hands, and the "
    "rebate is paid on the net loss at the stop; the best rule is found exactly by dynamic programming "
    "over (hands played, net), stopping where going on is not strictly better.",
)

#: Rows of the exits' bands shown in Markdown (the JSON has every one).
BAND_ROWS = 12


def _exit_rows(e: Exits) -> list[tuple[str, str, Fraction]]:
    return [
        ("exits_value", f"expected net + rebate, best exits within {e.hands:,} hands", e.value),
        ("exits_full_trip", f"expected net + rebate, all {e.hands:,} hands", e.full),
        ("exits_expected_hands", "expected hands played with the best exits", e.expected_hands),
    ]


def _band(lo, hi, contiguous) -> tuple[str, str, str]:
    if lo is None:
        return ("stop", "stop", "")
    return (str(lo), str(hi), "" if contiguous else "not every net between")


def _name(q: Fraction) -> str:
    return f"{q * 100}%"


def _chip_rows(c: RollingChips, stake: Fraction) -> list[tuple[str, str, Fraction]]:
    return [
        ("loss_probability", "P(a hand loses the chip)", c.loss),
        ("plays_per_chip", "plays per chip", c.plays_per_chip),
        ("cash_per_chip", "cash won per chip (in chips)", c.cash_per_chip),
        ("edge_per_chip", "house edge per chip", c.edge_per_chip),
        ("edge_per_hand", "house edge per hand", c.edge_per_hand),
        ("chips_theoretical_win", f"house's theoretical win on {c.chips:,} chips of {stake}", c.theoretical_win(stake)),
        ("hands_to_wash_mean", f"hands to wash {c.chips:,} chips: mean", c.wash_mean),
        ("hands_to_wash_variance", "hands to wash: variance", c.wash_variance),
    ]


def _trip_rows(pr: Program) -> list[tuple[str, str, Fraction]]:
    t = pr.trip
    rows = [
        ("net_mean", "expected net result", t.mean),
        ("net_variance", "variance of the net", t.variance),
        ("theoretical_win", "house's theoretical win (-expected net)", -t.mean),
        ("ahead_probability", "P(net > 0)", t.ahead),
        ("expected_loss", "E[net loss], L = max(0, -net)", t.loss_beyond(0)),
    ]
    r = pr.rebate
    if r is not None:
        rows += [
            ("rebate_value", "rebate's expected value", r.value),
            ("rebate_reach_probability", "P(any rebate is paid)", r.reach),
            ("player_expectation_with_rebate", "expected net with the rebate", r.player_expectation),
        ]
        if r.break_even_rate is not None:
            rows.append(("break_even_rate", "break-even rebate rate", r.break_even_rate))
    return rows


def _shown_value(key: str, v: Fraction) -> str:
    return percent(v, 6) if key.endswith(("_probability", "_rate", "edge_per_chip", "edge_per_hand")) else decimal(v, 6)


def _parameters(pr: Program, c: RollingChips, bet: BetResult, analysis: Analysis) -> list[list[str]]:
    rules = played_rules(analysis)
    rows = [["bet", f"{bet.bet.name} ({bet.bet.id})"], ["shoe", analysis.shoe.describe()]]
    rows += [] if rules is None else [["rules", rules.describe()]]
    rows += [
        ["hands in the trip", f"{pr.trip.coups:,}"],
        ["stake", money_text(pr.trip.stake)],
        ["result step (tick)", money_text(pr.trip.tick)],
        ["chips to wash", f"{c.chips:,}"],
    ]
    if pr.rebate is not None:
        rows.append(["rebate", tiers_text(pr)])
    return rows


def tiers_text(pr: Program) -> str:
    """``10% of the loss from 0`` or ``5% from 1000, 10% from 5000``."""
    assert pr.rebate is not None
    return ", ".join(
        f"{decimal(t.rate * 100, 4).rstrip('0').rstrip('.')}% from a loss of {t.threshold}" for t in pr.rebate.tiers
    )


def programs_markdown(
    pr: Program,
    c: RollingChips,
    bet: BetResult,
    analysis: Analysis,
    chart: str | None = None,
    exits: Exits | None = None,
) -> str:
    t = pr.trip
    out = [f"# Programs: {bet.bet.name}, {t.coups:,} hands of {t.stake}", ""]
    out += [md_table(_parameters(pr, c, bet, analysis), ["", "value"]), ""]
    out += ["## Rolling chips", ""]
    out += [
        md_table(
            [[label, shown_exact(v), _shown_value(key, v)] for key, label, v in _chip_rows(c, t.stake)],
            ["", "exact", "decimal"],
        ),
        "",
    ]
    out += [f"Hands to wash {c.chips:,} chips: the smallest h with P(H <= h) >= q (exact).", ""]
    out += [md_table([[_name(q), f"{h:,}"] for q, h in c.wash_quantiles], ["quantile", "hands"]), ""]
    out += ["## The trip", ""]
    out += [
        md_table(
            [[label, shown_exact(v), _shown_value(key, v)] for key, label, v in _trip_rows(pr)],
            ["", "exact", "decimal"],
        ),
        "",
    ]
    out += ["The net result: the smallest v with P(net <= v) >= q (exact).", ""]
    out += [
        md_table([[_name(q), exact(v), decimal(v, 4)] for q, v in t.quantiles], ["quantile", "net (exact)", "decimal"]),
        "",
    ]
    if pr.wins:
        out += [
            "## How unlikely is a win",
            "",
            f"P(net >= X) over {t.coups:,} hands, exact, and the normal approximation "
            f"(mean {decimal(t.mean, 4)}, sd {t.sd:.4f}).",
            "",
        ]
        rows = []
        for x, p, n in pr.wins:
            ratio = "" if p == 0 else f"{n / float(p):.4f}"
            rows.append([str(x), shown_exact(p), percent(p, 6), f"{n * 100:.6f}%", ratio])
        out += [md_table(rows, ["X", "P(net >= X) exact", "decimal", "normal approximation", "normal / exact"]), ""]
    if exits is not None:
        out += [
            "## Best exits",
            "",
            f"Stopping when it pays, within {exits.hands:,} hands, under the same rebate (exact).",
            "",
        ]
        out += [
            md_table(
                [[label, shown_exact(v), decimal(v, 6)] for _, label, v in _exit_rows(exits)], ["", "exact", "decimal"]
            ),
            "",
        ]
        step = max(1, len(exits.bands) // BAND_ROWS)
        shown = exits.bands[::step]
        out += [
            "Go on while the net is within the band; stop as soon as it leaves it (the ends are the "
            "stop-loss and the stop-win).",
            "",
        ]
        out += [
            md_table(
                [[f"{t:,}", *_band(lo, hi, cont)] for t, lo, hi, cont in shown],
                ["hands played", "go on from", "go on to", ""],
            ),
            "",
        ]
    if chart:
        out += [f"![net result]({chart})", ""]
    out += [
        "Decimals are the exact values rounded to the digits shown (their only error); exact values "
        "too long to read are in `--format json`.",
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
    out += ["## Conventions", ""] + [f"* {x}" for x in CONVENTIONS] + [""]
    return "\n".join(out)


def programs_dict(pr: Program, c: RollingChips, bet: BetResult, analysis: Analysis, exits: Exits | None = None) -> dict:
    t = pr.trip
    d = session_head(bet, analysis)
    d |= {"hands": t.coups, "stake": exact(t.stake), "tick": exact(t.tick), "chips": c.chips}
    chips: dict[str, Any] = {}
    for key, _, v in _chip_rows(c, t.stake):
        chips[key] = exact(v)
        chips[f"{key}_float"] = to_float(v)
    chips["hands_to_wash_quantiles"] = [{"quantile": exact(q), "hands": h} for q, h in c.wash_quantiles]
    d["rolling_chips"] = chips
    trip: dict[str, Any] = {}
    for key, _, v in _trip_rows(pr):
        trip[key] = exact(v)
        trip[f"{key}_float"] = to_float(v)
    trip["net_quantiles"] = [{"quantile": exact(q), "net": exact(v), "net_float": to_float(v)} for q, v in t.quantiles]
    if pr.rebate is not None:
        trip["rebate_tiers"] = [{"threshold": exact(x.threshold), "rate": exact(x.rate)} for x in pr.rebate.tiers]
    d["trip"] = trip
    d["wins"] = [
        {
            "at_least": exact(x),
            "probability": exact(p),
            "probability_float": to_float(p),
            "normal_approximation_float": n,
        }
        for x, p, n in pr.wins
    ]
    if exits is not None:
        ex: dict[str, Any] = {"hands": exits.hands}
        for key, _, v in _exit_rows(exits):
            ex[key.removeprefix("exits_")] = exact(v)
            ex[f"{key.removeprefix('exits_')}_float"] = to_float(v)
        ex["bands"] = [
            {
                "hands_played": t,
                "go_on_from": None if lo is None else exact(lo),
                "go_on_to": None if hi is None else exact(hi),
                "contiguous": cont,
            }
            for t, lo, hi, cont in exits.bands
        ]
        d["exits"] = ex
    d["conventions"] = list(CONVENTIONS)
    return d


def programs_json(pr: Program, c: RollingChips, bet: BetResult, analysis: Analysis, exits: Exits | None = None) -> str:
    with long_integers():
        return json_text(programs_dict(pr, c, bet, analysis, exits))


def programs_csv(pr: Program, c: RollingChips, bet: BetResult, analysis: Analysis, exits: Exits | None = None) -> str:
    with long_integers():
        rows = [[key, exact(v), repr(to_float(v))] for key, _, v in _chip_rows(c, pr.trip.stake)]
        rows += [[f"hands_to_wash_{_name(q)}", str(h), repr(float(h))] for q, h in c.wash_quantiles]
        rows += [[key, exact(v), repr(to_float(v))] for key, _, v in _trip_rows(pr)]
        rows += [[f"net_quantile_{_name(q)}", exact(v), repr(to_float(v))] for q, v in pr.trip.quantiles]
        for x, p, n in pr.wins:
            rows += [[f"win_at_least_{x}", exact(p), repr(to_float(p))], [f"win_at_least_{x}_normal", "", repr(n)]]
        if exits is not None:
            rows += [[key, exact(v), repr(to_float(v))] for key, _, v in _exit_rows(exits)]
        return csv_text(rows, ["metric", "exact", "float"])


def programs_chart(pr: Program, title: str, path) -> None:
    """The distribution of the net result (exact, as floats), the normal curve over it, and each X."""
    import math
    from pathlib import Path

    from .charts import pyplot, save_png

    plt = pyplot()
    t = pr.trip
    xs = [x for x, _ in t.points]
    ps = [p for _, p in t.points]
    fig, ax = plt.subplots(figsize=(7, 4))
    bins = min(80, max(len(xs), 1))
    ax.hist(xs, bins=bins, weights=ps, color="#2a7ab0", label="exact")
    if t.variance and len(xs) > 1:
        lo, hi = min(xs), max(xs)
        width = (hi - lo) / bins
        mu, sd = float(t.mean), t.sd
        grid = [lo + (hi - lo) * i / 400 for i in range(401)]
        ax.plot(
            grid,
            [width * math.exp(-(((g - mu) / sd) ** 2) / 2) / (sd * math.sqrt(2 * math.pi)) for g in grid],
            color="#c0392b",
            linewidth=1,
            label="normal",
        )
    for x, _, _ in pr.wins:
        ax.axvline(float(x), color="black", linewidth=0.8, linestyle="--")
    ax.set_xlabel("net result")
    ax.set_ylabel("probability")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, Path(path))
    plt.close(fig)
