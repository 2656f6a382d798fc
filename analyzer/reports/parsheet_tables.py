"""The documents of ``baccarat parsheet``: Markdown, CSV and JSON.

Nothing here computes odds: every figure comes from a
:class:`~analyzer.reports.parsheet.ParSheet`.  Exact values print as ``p/q`` with a
decimal beside them; the standard deviation, volatility index and bands are floats
(square roots of exact variances).  Several shoes (``--decks 6,8``) give one section
each, and in JSON a list ``sheets``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.rules import BANKER_RULE_TABLE, format_values
from ..io.tables import csv_text, decimal, exact, exact_or_none, json_text, md_table, percent, to_float
from .odds_tables import deals_formula, pays_text, shoe_json
from .parsheet import BAND_LEVELS, VI_LEVELS, ParSheet, Wager

if TYPE_CHECKING:
    from .approval import Approval

RULES_TEXT = (
    "Standard Punto Banco (analyzer/core/RULES.md): Player, Banker, Player, Banker; a two-card "
    "8 or 9 (natural) ends the coup; otherwise Player draws on 0-5 and stands on 6-7; Banker "
    "draws on 0-5 if Player stood, else by its total and the point value of Player's third card "
    "(table below); each hand takes at most one third card; the higher total wins, equal totals tie."
)

COUNTING_TEXT = (
    "Every count is over the cycle of ordered six-card deals, N (N-1) (N-2) (N-3) (N-4) (N-5) "
    "for a shoe of N cards: a coup that ends after four or five cards is counted once for "
    "every way the unused positions could be filled. 'Combinations' are such deals, "
    "probability = combinations / deals."
)

HOLD_TEXT = (
    "Hold (win to drop): one unit on each wager every round; the house's win divided by the "
    "units staked (the drop, here the handle). Its variance includes the covariances of the "
    "wagers, which are settled on the same coup, from exact joint counts."
)

BANDS_TEXT = (
    "Bands: the player's net result in units after N rounds of one unit, "
    "N x EV +- z x sd x sqrt(N) (normal approximation; z = 1.645, 1.960, 2.576)."
)


def rules_text(rules=None) -> str:
    """The rules paragraph of a par sheet: :data:`RULES_TEXT`, or the rule set's description."""
    if rules is None or rules.is_default:
        return RULES_TEXT
    return (
        f"Rules: {rules.describe()}. Player, Banker, Player, Banker; each hand takes at most one third "
        "card; the higher total wins, equal totals tie; Banker's third card by the table below."
    )


def banker_table(rules=None) -> tuple[tuple[tuple[int, ...], str, str], ...]:
    return BANKER_RULE_TABLE if rules is None or rules.is_default else rules.banker_rows()


def rules_dict(rules=None) -> dict:
    rows = [{"banker_total": list(t), "player_third_card_draw": d, "stand": s} for t, d, s in banker_table(rules)]
    if rules is None or rules.is_default:
        return {"game": "Punto Banco", "source": "analyzer/core/RULES.md", "text": RULES_TEXT, "banker_draws": rows}
    d = {
        "game": rules.name,
        "text": rules_text(rules),
        "naturals": format_values(rules.naturals),
        "player_draws": format_values(rules.player_draws),
    }
    if rules.player_option:
        d["player_option"] = format_values(rules.player_option)
    if rules.player_hands:
        d["player_hands"] = [{"hand": list(h), "draws": draws} for h, draws in rules.player_hands]
    d["banker_if_player_stood"] = format_values(rules.banker_if_player_stood)
    d["banker_draws"] = rows
    return d


def _pct(x: Fraction | None, digits: int = 4) -> str:
    return "" if x is None else percent(x, digits)


def _one_in(x: Fraction | None) -> str:
    return "never" if x is None else f"{float(x):,.2f}"


def _fl(x: float) -> str:
    return f"{x:,.4f}"


# -- Markdown ----------------------------------------------------------------------------


def _summary_rows(sheet: ParSheet) -> list[list[str]]:
    return [
        [
            w.id,
            w.bet.name,
            percent(w.house_edge, 4),
            percent(w.rtp, 4),
            percent(w.hit_frequency, 4),
            _pct(w.element_of_risk),
            f"{w.std_dev:.4f}",
            f"{w.volatility_index[90]:.4f}",
            f"{w.volatility_index[95]:.4f}",
            pays_text(w.max_payout),
        ]
        for w in sheet.wagers
    ]


def _wager_markdown(w: Wager, deals: int, h: str) -> list[str]:
    out = [f"{h} {w.bet.name} (`{w.id}`)", ""]
    if w.bet.description:
        out += [w.bet.description, ""]
    out += [f"{h}# Pay table", ""]
    rows = [[e.event, e.when.text, pays_text(e.pays)] for e in w.bet.events]
    rows.append([w.bet.otherwise_event, "otherwise", pays_text(w.bet.otherwise)])
    out += [md_table(rows, ["event", "when", "pays"]), ""]
    out += [f"{h}# Return table", ""]
    rows = [
        [
            r.event,
            pays_text(r.pays),
            str(r.ways),
            exact(r.probability),
            decimal(r.probability, 8),
            exact(r.ret),
            decimal(r.ret, 8),
            _one_in(r.one_in),
        ]
        for r in w.rows
    ]
    rows.append(
        [
            "total",
            "",
            str(sum(r.ways for r in w.rows)),
            exact(sum(r.probability for r in w.rows)),
            decimal(1, 8),
            exact(w.ev),
            decimal(w.ev, 8),
            "",
        ]
    )
    out += [
        md_table(
            rows,
            ["event", "pays", "combinations", "probability", "decimal", "return", "decimal", "1 in N"],
            ["left", "left"] + ["right"] * 6,
        ),
        "",
    ]
    out += [f"{h}# Figures", ""]
    rows = [
        ["house edge", exact(w.house_edge), percent(w.house_edge, 6)],
        ["return to player (RTP)", exact(w.rtp), percent(w.rtp, 6)],
        ["hit frequency", exact(w.hit_frequency), percent(w.hit_frequency, 6)],
        ["push probability", exact(w.push_probability), percent(w.push_probability, 6)],
        [
            "element of risk (edge per resolved bet)",
            exact_or_none(w.element_of_risk) or "n/a",
            _pct(w.element_of_risk, 6),
        ],
        ["variance per unit", exact(w.variance), decimal(w.variance, 8)],
        ["standard deviation per unit", "", f"{w.std_dev:.8f}"],
    ]
    rows += [[f"volatility index {c}% (z x sd)", "", f"{vi:.8f}"] for c, vi in w.volatility_index.items()]
    rows.append(["largest payout", exact(w.max_payout), pays_text(w.max_payout)])
    if w.breakeven_pays is None:
        rows.append([f"break-even pays of '{w.breakeven_event}'", "none", "the event never happens"])
    else:
        rows.append(
            [
                f"break-even pays of '{w.breakeven_event}' (now {pays_text(w.breakeven_current)})",
                exact(w.breakeven_pays),
                f"{float(w.breakeven_pays):.6f}:1",
            ]
        )
    if w.breakeven_commission is not None:
        rows.append(["break-even commission", exact(w.breakeven_commission), percent(w.breakeven_commission, 4)])
    out += [md_table(rows, ["figure", "exact", "decimal"], ["left", "right", "right"]), ""]
    out += [f"{h}# House edge by number of decks", ""]
    rows = [[str(d), exact(he), percent(he, 6)] for d, he in w.house_edge_by_decks.items()]
    out += [md_table(rows, ["decks", "house edge", "decimal"], ["right", "right", "right"]), ""]
    out += [f"{h}# Effects of removal and count tags", ""]
    if all(not e for e in w.effects.values()):
        out += ["Every effect of removing one card is exactly 0: no linear count can find an edge.", ""]
    else:
        rows = [[rk, "n/a" if e is None else percent(e, 6), str(w.tags[rk])] for rk, e in w.effects.items()]
        corr = "n/a (the tags are constant)" if w.tags_correlation is None else f"{w.tags_correlation:.4f}"
        out += [
            md_table(rows, ["rank removed", "change in EV", "tag"], ["left", "right", "right"]),
            "",
            f"Betting correlation of the tags with the effects: {corr}.",
            "",
        ]
    out += [f"{h}# Confidence bands", ""]
    rows = [
        [f"{b.rounds:,}", _fl(float(b.mean))] + [" to ".join(_fl(x) for x in b.interval(c)) for c in BAND_LEVELS]
        for b in w.bands
    ]
    out += [
        md_table(
            rows,
            ["rounds", "expected net (units)"] + [f"{c}% band" for c in BAND_LEVELS],
            ["right"] * (2 + len(BAND_LEVELS)),
        ),
        "",
    ]
    return out


def _sheet_markdown(sheet: ParSheet, h: str, rules_line: bool = False, approval: Approval | None = None) -> list[str]:
    out = [
        f"- Shoe: {sheet.shoe.describe()}",
        f"- Deals in the cycle: {sheet.deals} ({deals_formula(sheet.shoe.cards)})",
        "",
    ]
    if rules_line:
        # rules_line: the sheets' rules differ (a best play); a sheet whose best play is Punto
        # Banco's has rules None (a rules file that is Punto Banco with an option can give it)
        from ..core.rules import PUNTO_BANCO

        out.insert(1, f"- Rules: {(sheet.rules or PUNTO_BANCO).describe()}")
    out += [f"{h} Summary", ""]
    out += [
        md_table(
            _summary_rows(sheet),
            [
                "wager",
                "name",
                "house edge",
                "RTP",
                "hit frequency",
                "element of risk",
                "sd",
                "VI 90%",
                "VI 95%",
                "largest payout",
            ],
            ["left", "left"] + ["right"] * 8,
        ),
        "",
    ]
    if sheet.hold is not None:
        hold = sheet.hold
        out += [
            f"{h} Table hold",
            "",
            HOLD_TEXT,
            "",
            f"Expected hold {exact(hold.mean)} = {percent(hold.mean, 4)} of the drop, over "
            f"{len(hold.wagers)} wagers ({', '.join(hold.wagers)}); standard deviation of the house's "
            f"win per unit staked in one round {float(hold.variance) ** 0.5:.6f}.",
            "",
        ]
        rows = [
            [f"{b.rounds:,}", percent(b.mean, 4)]
            + [" to ".join(f"{x:.4%}" for x in b.interval(c)) for c in BAND_LEVELS]
            for b in hold.bands
        ]
        out += [
            md_table(
                rows,
                ["rounds", "expected hold"] + [f"{c}% band" for c in BAND_LEVELS],
                ["right"] * (2 + len(BAND_LEVELS)),
            ),
            "",
        ]
    elif sheet.hold_note:
        out += [f"*({sheet.hold_note})*", ""]
    for w in sheet.wagers:
        out += _wager_markdown(w, sheet.deals, h)
    if approval is not None:
        from .approval_tables import approval_markdown

        out += approval_markdown(approval, h)
    return out


def _rules_differ(sheets: list[ParSheet]) -> bool:
    """Do the shoes play different rules (the best play of an option depends on the shoe)?"""
    return len({s.rules for s in sheets}) > 1


def _approvals(sheets: list[ParSheet], approvals) -> list:
    """The approval figures of each sheet (``None`` each without them)."""
    return [None] * len(sheets) if approvals is None else list(approvals)


def parsheet_markdown(sheets: list[ParSheet], command: str, approvals: list[Approval] | None = None) -> str:
    """The Markdown document; ``approvals`` (one per sheet) adds the approval figures after the wagers."""
    rules = sheets[0].rules
    out = [f"# Par sheet: {sheets[0].title}", "", rules_text(rules), ""]
    out += [
        md_table(
            [[", ".join(map(str, t)), d, s] for t, d, s in banker_table(rules)],
            ["Banker total", "draws when Player's third card is", "stands when it is"],
        ),
        "",
    ]
    out += [COUNTING_TEXT, "", BANDS_TEXT, "", f"Reproduce: `{command}`", ""]
    extra = _approvals(sheets, approvals)
    if len(sheets) == 1:
        out += _sheet_markdown(sheets[0], "##", approval=extra[0])
    else:
        differ = _rules_differ(sheets)
        for s, a in zip(sheets, extra):
            out += [f"## {s.shoe.describe()}", ""] + _sheet_markdown(s, "###", differ, a)
    return "\n".join(out).rstrip("\n") + "\n"


# -- JSON ---------------------------------------------------------------------------------


def _x(d: dict, key: str, value: Fraction | None) -> None:
    d[key] = exact_or_none(value)
    d[key + "_float"] = to_float(value)


def band_dict(b) -> dict:
    d = {"rounds": b.rounds, "mean": to_float(b.mean), "mean_exact": exact(b.mean)}
    for c in BAND_LEVELS:
        d[str(c)] = list(b.interval(c))
    return d


def wager_dict(w: Wager) -> dict:
    d: dict = {
        "id": w.id,
        "name": w.bet.name,
        "description": w.bet.description,
        "pay_table": [{"event": e.event, "when": e.when.text, "pays": exact(e.pays)} for e in w.bet.events]
        + [{"event": w.bet.otherwise_event, "when": "otherwise", "pays": exact(w.bet.otherwise)}],
        "return_table": [
            {
                "event": r.event,
                "pays": exact(r.pays),
                "ways": r.ways,
                "probability": exact(r.probability),
                "probability_float": to_float(r.probability),
                "return": exact(r.ret),
                "return_float": to_float(r.ret),
                "one_in": to_float(r.one_in),
            }
            for r in w.rows
        ],
    }
    for key in ("ev", "house_edge", "rtp", "hit_frequency", "push_probability", "element_of_risk", "variance"):
        _x(d, key, getattr(w, key))
    d["std_dev"] = w.std_dev
    d["volatility_index"] = {str(c): v for c, v in w.volatility_index.items()}
    _x(d, "max_payout", w.max_payout)
    d["house_edge_by_decks"] = {str(k): exact(v) for k, v in w.house_edge_by_decks.items()}
    d["house_edge_by_decks_float"] = {str(k): to_float(v) for k, v in w.house_edge_by_decks.items()}
    d["breakeven_event"] = w.breakeven_event
    _x(d, "breakeven", w.breakeven_pays)
    _x(d, "breakeven_commission", w.breakeven_commission)
    d["effects_of_removal"] = {r: exact_or_none(e) for r, e in w.effects.items()}
    d["effects_of_removal_float"] = {r: to_float(e) for r, e in w.effects.items()}
    d["tags"] = w.tags
    d["tags_correlation"] = w.tags_correlation
    d["bands"] = [band_dict(b) for b in w.bands]
    return d


def sheet_dict(sheet: ParSheet, approval: Approval | None = None) -> dict:
    d = {
        "title": sheet.title,
        "shoe": shoe_json(sheet),
        "deals": sheet.deals,
        "wagers": [wager_dict(w) for w in sheet.wagers],
    }
    if sheet.hold is not None:
        hold = sheet.hold
        d["table_hold"] = {
            "definition": HOLD_TEXT,
            "wagers": list(hold.wagers),
            "mean": exact(hold.mean),
            "mean_float": to_float(hold.mean),
            "variance": exact(hold.variance),
            "variance_float": to_float(hold.variance),
            "bands": [band_dict(b) for b in hold.bands],
        }
    elif sheet.hold_note:
        d["table_hold"] = {"note": sheet.hold_note}
    if approval is not None:
        from .approval_tables import approval_dict

        d["approval"] = approval_dict(approval)
    return d


def parsheet_dict(sheets: list[ParSheet], approvals: list[Approval] | None = None) -> dict:
    """One shoe: ``{"rules", "counting", "title", "shoe", "deals", "wagers", ...}``; several: ``"sheets"``
    (each with its own ``"rules"`` when the shoes play different rules: a best play)."""
    head = {"rules": rules_dict(sheets[0].rules), "counting": COUNTING_TEXT, "bands": BANDS_TEXT}
    extra = _approvals(sheets, approvals)
    if len(sheets) == 1:
        return {**head, **sheet_dict(sheets[0], extra[0])}
    differ = _rules_differ(sheets)
    return {
        **head,
        "sheets": [
            {"rules": rules_dict(s.rules), **sheet_dict(s, a)} if differ else sheet_dict(s, a)
            for s, a in zip(sheets, extra)
        ],
    }


def parsheet_json(sheets: list[ParSheet], approvals: list[Approval] | None = None) -> str:
    return json_text(parsheet_dict(sheets, approvals))


# -- CSV ----------------------------------------------------------------------------------

CSV_HEADERS = ["decks", "cards", "wager", "section", "item", "pays", "ways", "exact", "decimal"]


def parsheet_csv(sheets: list[ParSheet], approvals: list[Approval] | None = None) -> str:
    """Long format: one row per return-table line, figure, deck count, rank and band (and with
    ``approvals``, per award, largest win, win-to-drop figure and verified event)."""
    rows = []
    for s, a in zip(sheets, _approvals(sheets, approvals)):
        lead = [s.shoe.decks if s.shoe.decks is not None else "", s.shoe.cards]
        for w in s.wagers:

            def put(section, item, value=None, pays="", ways="", flt=None, w=w, lead=lead):
                rows.append(
                    lead
                    + [
                        w.id,
                        section,
                        item,
                        pays,
                        ways,
                        exact_or_none(value) or "",
                        decimal(value, 15) if value is not None else ("" if flt is None else repr(flt)),
                    ]
                )

            for r in w.rows:
                put("return", r.event, r.ret, exact(r.pays), r.ways)
            put("return", "total", w.ev, "", sum(r.ways for r in w.rows))
            for key in (
                "house_edge",
                "rtp",
                "hit_frequency",
                "push_probability",
                "element_of_risk",
                "variance",
                "max_payout",
            ):
                put("figure", key, getattr(w, key))
            put("figure", "std_dev", flt=w.std_dev)
            for c in VI_LEVELS:
                put("figure", f"volatility_index_{c}", flt=w.volatility_index[c])
            put("figure", f"breakeven:{w.breakeven_event}", w.breakeven_pays)
            for d, he in w.house_edge_by_decks.items():
                put("house_edge_by_decks", str(d), he)
            for rk, e in w.effects.items():
                put("effect_of_removal", rk, e)
                put("tag", rk, flt=w.tags[rk])
            for b in w.bands:
                put("band", f"{b.rounds}:mean", b.mean)
                for c in BAND_LEVELS:
                    lo, hi = b.interval(c)
                    put("band", f"{b.rounds}:{c}:low", flt=lo)
                    put("band", f"{b.rounds}:{c}:high", flt=hi)
        if s.hold is not None:
            for b in s.hold.bands:
                rows.append(lead + ["table", "hold", f"{b.rounds}:mean", "", "", exact(b.mean), decimal(b.mean, 15)])
                for c in BAND_LEVELS:
                    lo, hi = b.interval(c)
                    rows.append(lead + ["table", "hold", f"{b.rounds}:{c}:low", "", "", "", repr(lo)])
                    rows.append(lead + ["table", "hold", f"{b.rounds}:{c}:high", "", "", "", repr(hi)])
        if a is not None:
            from .approval_tables import approval_csv_rows

            rows.extend(lead + r for r in approval_csv_rows(a))
    return csv_text(rows, CSV_HEADERS)
