"""The par sheet as an XLSX workbook (openpyxl, the optional ``xlsx`` extra).

One sheet "About" (rules, counting convention, shoes, the table's hold bands), then
one sheet per wager (per wager and shoe with several shoes).  Every cell is written
from the JSON document (:func:`analyzer.reports.parsheet_tables.sheet_dict`), so the
workbook holds the same numbers: exact values as ``p/q`` text with the float in the
next column, counts as integers (as text beyond ``2**53``, which a spreadsheet
number cannot hold exactly).
"""

from __future__ import annotations

import io

from ..core.errors import BaccaratError
from .parsheet import BAND_LEVELS
from .parsheet_tables import BANDS_TEXT, COUNTING_TEXT, HOLD_TEXT, rules_text, sheet_dict

MISSING = (
    "--format xlsx needs openpyxl, which is not installed: "
    "python -m pip install 'baccarat-analyzer[xlsx]' (or pip install openpyxl)"
)


class XlsxMissing(BaccaratError):
    pass


def require_openpyxl():
    try:
        import openpyxl
    except ImportError:
        raise XlsxMissing(MISSING) from None
    return openpyxl


def _cell(v):
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**53:
        return str(v)
    return v


def _sheet_name(base: str, taken: set[str]) -> str:
    name = base[:31]
    n = 2
    while name.lower() in taken:
        suffix = f" ({n})"
        name = base[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(name.lower())
    return name


def _rows(ws, rows) -> None:
    for row in rows:
        ws.append([_cell(v) for v in row])


def _bands(d_bands) -> list[list]:
    out = [["rounds", "mean", "mean (exact)"] + [f"{c}% {side}" for c in BAND_LEVELS for side in ("low", "high")]]
    for b in d_bands:
        out.append([b["rounds"], b["mean"], b["mean_exact"]] + [x for c in BAND_LEVELS for x in b[str(c)]])
    return out


def _wager_rows(w: dict) -> list[list]:
    rows: list[list] = [[w["name"], w["id"]], [w["description"]], [], ["Pay table"], ["event", "when", "pays"]]
    rows += [[e["event"], e["when"], e["pays"]] for e in w["pay_table"]]
    rows += [
        [],
        ["Return table"],
        ["event", "pays", "combinations", "probability", "probability (float)", "return", "return (float)", "1 in N"],
    ]
    rows += [
        [
            r["event"],
            r["pays"],
            r["ways"],
            r["probability"],
            r["probability_float"],
            r["return"],
            r["return_float"],
            r["one_in"],
        ]
        for r in w["return_table"]
    ]
    rows.append(["total", "", sum(r["ways"] for r in w["return_table"]), "1/1", 1.0, w["ev"], w["ev_float"]])
    rows += [[], ["Figures"], ["figure", "exact", "float"]]
    for key in (
        "house_edge",
        "rtp",
        "hit_frequency",
        "push_probability",
        "element_of_risk",
        "variance",
        "max_payout",
        "breakeven",
        "breakeven_commission",
    ):
        rows.append([key, w[key], w[key + "_float"]])
    rows.append(["std_dev", "", w["std_dev"]])
    rows += [[f"volatility_index_{c}", "", v] for c, v in w["volatility_index"].items()]
    rows.append(["breakeven_event", w["breakeven_event"]])
    rows += [[], ["House edge by number of decks"], ["decks", "exact", "float"]]
    rows += [[int(d), v, w["house_edge_by_decks_float"][d]] for d, v in w["house_edge_by_decks"].items()]
    rows += [[], ["Effects of removal (one card)"], ["rank", "exact", "float", "tag"]]
    rows += [[r, e, w["effects_of_removal_float"][r], w["tags"][r]] for r, e in w["effects_of_removal"].items()]
    rows += [["tags correlation", "", w["tags_correlation"]], [], ["Confidence bands (net units)"]]
    rows += _bands(w["bands"])
    return rows


def _approval_rows(a: dict) -> list[list]:
    """The approval figures (:func:`analyzer.reports.approval_tables.approval_dict`) as rows."""
    defs = a["definitions"]
    rows: list[list] = [
        ["Award frequencies"],
        [defs["awards"]],
        [
            "wager",
            "award",
            "pays",
            "combinations",
            "probability",
            "probability (float)",
            "1 in N",
            f"rarer than 1 in {a['gli_games']:,}",
            f"rarer than 1 in {a['rarest']:,}",
        ],
    ]
    rows += [
        [
            x["wager"],
            x["event"],
            x["pays"],
            x["ways"],
            x["probability"],
            x["probability_float"],
            x["one_in"],
            x["below_gli"],
            x["below_limit"],
        ]
        for x in a["awards"]
    ]
    rows += [
        [],
        ["Largest win"],
        [defs["largest_win"]],
        ["wager", "largest pay", "events", "combinations", "probability", "probability (float)", "1 in N"],
    ]
    rows += [
        [
            m["wager"],
            m["pays"],
            ", ".join(m["events"]),
            m["ways"],
            m["probability"],
            m["probability_float"],
            m["one_in"],
        ]
        for m in a["largest_win"]
    ]
    w = a["win_to_drop"]
    rows += [[], ["Win to drop"], [defs["win_to_drop"]], ["wager", "amount per hand"]]
    rows += [[b, x] for b, x in w["amounts"].items()]
    rows += [
        ["staked per hand", w["staked"]],
        ["expected house win per hand", w["win"], w["win_float"]],
        ["win to drop", w["hold"], w["hold_float"]],
        ["variance per hand", w["variance"], w["variance_float"]],
        ["standard deviation per hand", "", w["std_dev"]],
        ["hands per hour", w["hands_per_hour"]],
        ["hours per day", w["hours_per_day"]],
        ["theoretical win per hour", w["win_per_hour"], w["win_per_hour_float"]],
        ["period", "hands", "mean", "mean (float)", "95% low", "95% high"],
    ]
    rows += [[b["period"], b["hands"], b["mean"], b["mean_float"]] + b["95"] for b in w["bands"]]
    if w.get("note"):
        rows.append([w["note"]])
    v = a.get("verification")
    if v:
        rows += [
            [],
            ["Verification appendix"],
            [v["definition"]],
            ["wager", "event", "observed", "expected", "expected (float)", "z", "p", "Holm-adjusted p", "rejected"],
        ]
        rows += [
            [
                e["wager"],
                e["event"],
                e["observed"],
                e["expected"],
                e["expected_float"],
                e["z"],
                e["p"],
                e["holm_adjusted_p"],
                e["rejected"],
            ]
            for e in v["events"]
        ]
        rows += [["test", "kind", "statistic", "p", "Holm threshold", "Holm-adjusted p", "rejected"]]
        rows += [
            [t["test"], t["kind"], t["statistic"], t["p"], t["holm_threshold"], t["holm_adjusted_p"], t["rejected"]]
            for t in v["tests"]
        ]
        rows.append([v["summary"]])
    return rows


def parsheet_xlsx(sheets, command: str, approvals=None) -> bytes:
    """The workbook's bytes (with ``approvals``, one per sheet, an "approval" sheet per shoe)."""
    openpyxl = require_openpyxl()
    wb = openpyxl.Workbook()
    about = wb.active
    about.title = "About"
    docs = [sheet_dict(s, a) for s, a in zip(sheets, approvals or [None] * len(sheets))]
    rows: list[list] = [
        [f"Par sheet: {sheets[0].title}"],
        [rules_text(sheets[0].rules)],
        [COUNTING_TEXT],
        [BANDS_TEXT],
        [f"Reproduce: {command} --format xlsx"],
        [],
    ]
    differ = len({s.rules for s in sheets}) > 1
    for s, d in zip(sheets, docs):
        rows.append(["shoe", f"{d['shoe'].get('decks', '')} decks", d["shoe"]["cards"], "cards", "deals", d["deals"]])
        if differ:
            rows.append(["rules", s.rules.describe() if s.rules is not None else "punto_banco"])
        hold = d.get("table_hold")
        if hold and "bands" in hold:
            rows += [["Table hold", HOLD_TEXT], ["expected hold", hold["mean"], hold["mean_float"]]]
            rows += _bands(hold["bands"])
        elif hold:
            rows.append([hold["note"]])
        rows.append([])
    _rows(about, rows)
    taken = {"about"}
    for d in docs:
        for w in d["wagers"]:
            base = w["id"] if len(docs) == 1 else f"{w['id']} {d['shoe'].get('decks', d['shoe']['cards'])}d"
            ws = wb.create_sheet(_sheet_name(base, taken))
            _rows(ws, _wager_rows(w))
        if "approval" in d:
            base = "approval" if len(docs) == 1 else f"approval {d['shoe'].get('decks', d['shoe']['cards'])}d"
            _rows(wb.create_sheet(_sheet_name(base, taken)), _approval_rows(d["approval"]))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
