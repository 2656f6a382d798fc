"""``baccarat parsheet``: the par sheet of every wager of a table, a list of bets or a bet file."""

from __future__ import annotations

import re

from .options import (
    Given,
    UsageError,
    add_bet_options,
    add_output_options,
    bets_from_args,
    catalog_from_args,
    check_outputs,
    converter,
    write_output,
)
from .rules import add_rules_options

FORMATS = ("md", "csv", "json", "xlsx")
MAX_DECKS = 10_000
MAX_SHOES = 8
MAX_BY_DECKS = 20


def decks_list(option: str, text: str) -> tuple[int, ...]:
    """``"6,8"`` -> ``(6, 8)``: whole numbers from 1 to 10,000, separated by commas, no repeats."""
    t = str(text).strip()
    shown = t if len(t) <= 30 else t[:30] + "..."
    items = [i.strip() for i in t.split(",")]
    if not t or not all(re.fullmatch(r"[0-9]{1,6}", i) for i in items):
        raise UsageError(f"{option} must be numbers of decks separated by commas (e.g. 6,8), got {shown!r}")
    values = tuple(dict.fromkeys(int(i) for i in items))
    bad = [v for v in values if not 1 <= v <= MAX_DECKS]
    if bad:
        raise UsageError(f"{option}: a number of decks must be from 1 to {MAX_DECKS:,}, got {bad[0]:,}")
    return values


def decks_value(text: str) -> Given:
    """``parsheet --decks LIST``: at most :data:`MAX_SHOES` numbers of decks (:func:`decks_list`)."""
    decks = decks_list("--decks", text)
    if len(decks) > MAX_SHOES:
        raise UsageError(f"--decks lists {len(decks)} shoes: at most {MAX_SHOES} par sheets at a time")
    return Given(text, decks)


def by_decks_value(text: str) -> Given:
    """``parsheet --by-decks LIST``: at most :data:`MAX_BY_DECKS` numbers of decks."""
    by_decks = decks_list("--by-decks", text)
    if len(by_decks) > MAX_BY_DECKS:
        raise UsageError(f"--by-decks lists {len(by_decks)} shoes: at most {MAX_BY_DECKS}")
    return Given(text, by_decks)


def _title(args, cat) -> str:
    if args.table and not args.bets:
        return " + ".join(cat.table(t.strip()).name for t in args.table)
    return "Selected bets"


def _command(args) -> str:
    words = ["baccarat parsheet", f"--decks {args.decks}"]
    words += [f"--table {t}" for t in args.table] + [f"--bets {b}" for b in args.bets]
    if args.bets_file:
        words.append(f"--bets-file {args.bets_file}")
    if args.by_decks != "1,2,4,6,8":
        words.append(f"--by-decks {args.by_decks}")
    from .reports import reproduce_words
    return " ".join(words) + reproduce_words(args)


def cmd_parsheet(args) -> int:
    fmt = args.format
    decks, by_decks = args.decks.value, args.by_decks.value
    if fmt == "xlsx":
        if args.output in (None, "-"):
            raise UsageError("--format xlsx writes a binary file: give --output FILE.xlsx")
        if not str(args.output).lower().endswith(".xlsx"):
            # a spreadsheet under another name is opened by nothing that expects that name
            raise UsageError(f"--format xlsx writes an XLSX workbook: give --output a name ending in .xlsx, "
                             f"not {args.output!r}")
        from ..reports.parsheet_xlsx import require_openpyxl
        require_openpyxl()
    check_outputs(args.output)
    from .reports import rule_choice
    rules, best = rule_choice(args)
    cat = catalog_from_args(args)
    bets = bets_from_args(args, cat)
    title = _title(args, cat)
    if args.charts is not None:
        from ..reports.charts import available
        if not available():
            raise UsageError("--charts needs matplotlib: python -m pip install 'baccarat-analyzer[plots]'")
        if len(decks) > 1:
            raise UsageError("--charts draws one shoe's sheet: give one --decks value")
        from ..io.files import prepare_folder
        charts_dir = prepare_folder(args.charts, "par-sheet charts")

    from ..core.shoe import Shoe
    from ..core.solver import Solver
    from ..reports import parsheet_tables as docs
    from ..reports.parsheet import parsheet
    solver = None if best else Solver(bets, rules=rules)     # the best play depends on the shoe
    sheets = [parsheet(Shoe.standard(d), bets, by_decks, title=title, solver=solver, rules=rules, best=best)
              for d in decks]
    if args.charts is not None:
        from ..io.files import write_manifest
        from ..reports.parsheet_charts import write_charts
        write_manifest(charts_dir, "par-sheet charts", write_charts(sheets[0], charts_dir))
    if fmt == "xlsx":
        from ..io.files import atomic_write
        from ..reports.parsheet_xlsx import parsheet_xlsx
        atomic_write(args.output, parsheet_xlsx(sheets, _command(args)))
        return 0
    text = {"md": lambda: docs.parsheet_markdown(sheets, _command(args)),
            "csv": lambda: docs.parsheet_csv(sheets),
            "json": lambda: docs.parsheet_json(sheets)}[fmt]()
    write_output(text, args.output)
    return 0


def register(sub) -> None:
    p = sub.add_parser("parsheet", help="par sheets: return tables, house edge, volatility and bands per wager",
                       description="Per wager (main bets by default): the pay table, the return table "
                                   "(pays, combinations, probability, return, 1 in N), house edge, RTP, hit "
                                   "frequency, element of risk, standard deviation, volatility index, house "
                                   "edge by decks, break-even pay, effects of removal, confidence bands; and "
                                   "the table's hold band.")
    p.add_argument("--decks", default="8", metavar="LIST", type=converter(decks_value),
                   help="numbers of 52-card decks, comma separated: one par sheet each (default 8)")
    p.add_argument("--charts", metavar="DIR",
                   help="also draw, per wager, the return by event, the confidence bands against rounds and "
                        "the house edge against decks, as PNG files in DIR (new, empty or one it wrote; "
                        "needs the plots extra)")
    p.add_argument("--by-decks", default="1,2,4,6,8", metavar="LIST", type=converter(by_decks_value),
                   help="deck counts of the house-edge-by-decks table (default 1,2,4,6,8)")
    add_bet_options(p)
    add_rules_options(p)
    add_output_options(p, "md (Markdown, default), csv, json or xlsx (needs --output and the xlsx extra)", FORMATS)
    p.set_defaults(func=cmd_parsheet)
