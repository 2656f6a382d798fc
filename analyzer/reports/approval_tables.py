"""The approval figures of a par sheet in Markdown, JSON and the long CSV.

Nothing here computes odds: every figure comes from an
:class:`~analyzer.reports.approval.Approval`.  Exact values print as ``p/q`` with a decimal
beside them; standard deviations and bands are floats.  A verification appendix
(:class:`~analyzer.reports.approval.Appendix`) renders itself after the figures.
"""

from __future__ import annotations

from fractions import Fraction

from ..io.tables import decimal, exact, md_table, percent, to_float
from .approval import BAND_LEVEL, DAYS, GLI_GAMES, Approval
from .odds_tables import pays_text

AWARDS_TEXT = (
    "Award frequencies: every event that pays more than 0, its probability (combinations / deals) "
    "and 1 in N (deals / combinations). GLI-11 (Standards for Gaming Devices, v3.0, §4.8.2) asks "
    "that the odds of any advertised award based solely on chance allow it at least once in every "
    "100 million games, unless the game displays the award's actual odds; an award rarer than 1 in "
    "100,000,000 coups is flagged 'GLI-11', and one rarer than the stated limit is flagged 'limit'. "
    "GLI-11 is written for gaming devices (an electronic table, for example); for a live table it "
    "is a yardstick, not a rule."
)

MAX_WIN_TEXT = "Largest win: per wager, its largest pay (to 1) and the probability that a coup pays it."

WIN_TO_DROP_TEXT = (
    "Win to drop: the stated amounts staked on the wagers every hand; the house's expected win "
    "divided by the amount staked (the drop taken as the handle). The house's result per hand "
    "is -sum a_i X_i; its variance counts the covariances of the wagers, settled on the same "
    "coup, from exact joint counts. Over n hands the win to drop has mean hold and standard "
    "deviation sd / (staked x sqrt(n)); its 95% band is mean +- 1.960 x that (normal "
    "approximation), for a day (hands per hour x hours per day), a month of 30 days and a "
    "year of 365. COMAR 36.05.03.25 (Maryland) asks a casino to keep each table game's win to "
    "drop by day, month to date and year to date, and to investigate fluctuations outside a 95 "
    "percent confidence interval around its base win to drop."
)


def _flags(a) -> str:
    out = []
    if a.below_gli:
        out.append("GLI-11")
    if a.below_limit and a.rarest != GLI_GAMES:
        out.append("limit")
    return ", ".join(out)


def _one_in(x: Fraction | None) -> str:
    return "never" if x is None else f"{float(x):,.2f}"


def _small(x: Fraction) -> str:
    """A probability to 6 significant digits (an award can be 1 in 10**11)."""
    return f"{float(x):.6g}"


def _money(x: Fraction) -> str:
    return decimal(x, 4)


def approval_markdown(a: Approval, h: str) -> list[str]:
    """The approval sections of one sheet, headings at level ``h``."""
    limit = f"1 in {a.rarest:,}"
    out = [f"{h} Approval figures", "", AWARDS_TEXT, "", f"{h}# Award frequencies", ""]
    rows = [
        [
            x.bet,
            x.event,
            pays_text(x.pays),
            str(x.ways),
            exact(x.probability),
            _small(x.probability),
            _one_in(x.one_in),
            _flags(x),
        ]
        for x in a.awards
    ]
    out += [
        md_table(
            rows,
            ["wager", "award", "pays", "combinations", "probability", "decimal", "1 in N", "flag"],
            ["left", "left"] + ["right"] * 5 + ["left"],
        ),
        "",
    ]
    flagged = a.flagged
    if flagged:
        out += [
            f"Flagged: {len(flagged)} award{'s' if len(flagged) != 1 else ''} rarer than 1 in "
            f"{GLI_GAMES:,}"
            + (f" or the stated limit {limit}" if a.rarest != GLI_GAMES else "")
            + ": "
            + "; ".join(f"{x.bet}: {x.event}" for x in flagged)
            + ".",
            "",
        ]
    else:
        out += [
            f"No award is rarer than 1 in {GLI_GAMES:,}"
            + (f" or the stated limit {limit}" if a.rarest != GLI_GAMES else "")
            + ".",
            "",
        ]
    out += [f"{h}# Largest win", "", MAX_WIN_TEXT, ""]
    rows = [
        [
            m.bet,
            pays_text(m.pays),
            ", ".join(m.events),
            str(m.ways),
            exact(m.probability),
            _small(m.probability),
            _one_in(m.one_in),
        ]
        for m in a.max_wins
    ]
    out += [
        md_table(
            rows,
            ["wager", "largest pay", "events", "combinations", "probability", "decimal", "1 in N"],
            ["left", "right", "left"] + ["right"] * 4,
        ),
        "",
    ]
    w = a.win_to_drop
    out += [f"{h}# Win to drop", "", WIN_TO_DROP_TEXT, ""]
    out += [
        md_table(
            [[b, _money(x)] for b, x in w.amounts] + [["staked per hand", _money(w.staked)]],
            ["wager", "amount per hand"],
            ["left", "right"],
        ),
        "",
    ]
    rows = [
        ["expected house win per hand", exact(w.win), _money(w.win)],
        ["win to drop (hold)", exact(w.hold), percent(w.hold, 4)],
    ]
    if w.variance is not None:
        rows += [
            ["variance of the house's result per hand", exact(w.variance), decimal(w.variance, 4)],
            ["standard deviation per hand", "", f"{w.std_dev:,.4f}"],
        ]
    rows += [
        ["hands per hour", str(w.hands_per_hour), ""],
        ["hours per day", str(w.hours_per_day), ""],
        ["theoretical win per hour", exact(w.win_per_hour), _money(w.win_per_hour)],
    ]
    out += [md_table(rows, ["figure", "exact", "decimal"], ["left", "right", "right"]), ""]
    if w.bands:
        rows = [[b.period, f"{b.hands:,}", percent(b.mean, 4)] + [f"{x:.4%}" for x in b.interval()] for b in w.bands]
        out += [
            md_table(
                rows,
                ["period", "hands", "expected win to drop", f"{BAND_LEVEL}% low", f"{BAND_LEVEL}% high"],
                ["left"] + ["right"] * 4,
            ),
            "",
        ]
    if w.note:
        out += [f"*({w.note})*", ""]
    if a.appendix is not None:
        out += a.appendix.markdown(h)
    return out


def approval_dict(a: Approval) -> dict:
    w = a.win_to_drop
    d: dict = {
        "definitions": {"awards": AWARDS_TEXT, "largest_win": MAX_WIN_TEXT, "win_to_drop": WIN_TO_DROP_TEXT},
        "rarest": a.rarest,
        "gli_games": GLI_GAMES,
        "awards": [
            {
                "wager": x.bet,
                "event": x.event,
                "pays": exact(x.pays),
                "ways": x.ways,
                "probability": exact(x.probability),
                "probability_float": to_float(x.probability),
                "one_in": to_float(x.one_in),
                "below_gli": x.below_gli,
                "below_limit": x.below_limit,
            }
            for x in a.awards
        ],
        "largest_win": [
            {
                "wager": m.bet,
                "pays": exact(m.pays),
                "events": list(m.events),
                "ways": m.ways,
                "probability": exact(m.probability),
                "probability_float": to_float(m.probability),
                "one_in": to_float(m.one_in),
            }
            for m in a.max_wins
        ],
        "win_to_drop": {
            "amounts": {b: exact(x) for b, x in w.amounts},
            "staked": exact(w.staked),
            "win": exact(w.win),
            "win_float": to_float(w.win),
            "hold": exact(w.hold),
            "hold_float": to_float(w.hold),
            "variance": None if w.variance is None else exact(w.variance),
            "variance_float": None if w.variance is None else to_float(w.variance),
            "std_dev": w.std_dev,
            "hands_per_hour": w.hands_per_hour,
            "hours_per_day": w.hours_per_day,
            "days": dict(DAYS),
            "win_per_hour": exact(w.win_per_hour),
            "win_per_hour_float": to_float(w.win_per_hour),
            "bands": [
                {
                    "period": b.period,
                    "hands": b.hands,
                    "mean": exact(b.mean),
                    "mean_float": to_float(b.mean),
                    str(BAND_LEVEL): list(b.interval()),
                }
                for b in w.bands
            ],
        },
    }
    if w.note:
        d["win_to_drop"]["note"] = w.note
    if a.appendix is not None:
        d["verification"] = a.appendix.to_dict()
    return d


def approval_csv_rows(a: Approval) -> list[list]:
    """``[wager, section, item, pays, ways, exact, decimal]`` rows for the par sheet's long CSV."""
    rows: list[list] = []
    for x in a.awards:
        rows.append([x.bet, "award", x.event, exact(x.pays), x.ways, exact(x.probability), decimal(x.probability, 15)])
        rows.append([x.bet, "award", f"{x.event}:flag", "", "", _flags(x), ""])
    for m in a.max_wins:
        rows.append(
            [
                m.bet,
                "largest_win",
                " / ".join(m.events),
                exact(m.pays),
                m.ways,
                exact(m.probability),
                decimal(m.probability, 15),
            ]
        )
    w = a.win_to_drop
    for bet, amount in w.amounts:
        rows.append([bet, "win_to_drop", "amount", "", "", exact(amount), decimal(amount, 15)])
    for item, v in (
        ("staked", w.staked),
        ("win", w.win),
        ("hold", w.hold),
        ("variance", w.variance),
        ("win_per_hour", w.win_per_hour),
    ):
        if v is not None:
            rows.append(["table", "win_to_drop", item, "", "", exact(v), decimal(v, 15)])
    for item, n in (("hands_per_hour", w.hands_per_hour), ("hours_per_day", w.hours_per_day)):
        rows.append(["table", "win_to_drop", item, "", "", str(n), str(n)])
    for band in w.bands:
        lo, hi = band.interval()
        rows.append(["table", "win_to_drop", f"{band.period}:{band.hands}:{BAND_LEVEL}:low", "", "", "", repr(lo)])
        rows.append(["table", "win_to_drop", f"{band.period}:{band.hands}:{BAND_LEVEL}:high", "", "", "", repr(hi)])
    if a.appendix is not None:
        rows += a.appendix.csv_rows()
    return rows
