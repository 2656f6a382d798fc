"""``baccarat parsheet``: the par sheet of every wager of a table, a list of bets or a bet file."""

from __future__ import annotations

import re
from fractions import Fraction

from .options import (
    Given,
    UsageError,
    add_bet_options,
    add_output_options,
    bets_from_args,
    catalog_from_args,
    check_outputs,
    converter,
    decks_list,
    fraction,
    whole,
    write_output,
)
from .rules import add_rules_options

FORMATS = ("md", "csv", "json", "xlsx")
DEFAULT_ALPHA = Fraction(1, 100)
MAX_SHOES = 8
MAX_BY_DECKS = 20


def decks_value(text: str) -> Given:
    """``parsheet --decks LIST``: at most :data:`MAX_SHOES` numbers of decks (:func:`decks_list`)."""
    return Given(text, decks_list("--decks", text, MAX_SHOES, " par sheets at a time"))


def by_decks_value(text: str) -> Given:
    """``parsheet --by-decks LIST``: at most :data:`MAX_BY_DECKS` numbers of decks (:func:`decks_list`)."""
    return Given(text, decks_list("--by-decks", text, MAX_BY_DECKS))


#: Largest amount of one wager in ``--mix`` and largest ``--rarest``.
MAX_AMOUNT = 10**12
MAX_RAREST = 10**30
_NUMBER = r"(?:[0-9]{1,15}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})"


def mix_value(text: str) -> Given:
    """``--mix banker=100,player=50,tie=5``: the amount staked on each wager every hand
    (positive numbers up to 10**12, each wager once)."""
    from fractions import Fraction

    t = str(text).strip()
    shown = t if len(t) <= 40 else t[:40] + "..."
    out: dict[str, Fraction] = {}
    for item in t.split(","):
        m = re.fullmatch(rf"\s*([A-Za-z0-9_.-]{{1,80}})\s*=\s*({_NUMBER})\s*", item)
        if not m:
            raise UsageError(
                f"--mix must be wager=amount items separated by commas (e.g. banker=100,player=50,tie=5), got {shown!r}"
            )
        bet, amount = m.group(1), Fraction(m.group(2))
        if bet in out:
            raise UsageError(f"--mix names {bet!r} twice")
        if not 0 < amount <= MAX_AMOUNT:
            raise UsageError(
                f"--mix: the amount on {bet!r} must be more than 0 and at most {MAX_AMOUNT:,}, got {m.group(2)}"
            )
        out[bet] = amount
    return Given(text, out)


def rarest_value(text: str) -> Given:
    """``--rarest N``: flag awards rarer than one in N coups (a whole number, ``1e8`` or
    ``100,000,000``, from 2 to 10**30)."""
    from fractions import Fraction

    t = str(text).strip()
    shown = t if len(t) <= 30 else t[:30] + "..."
    plain = t.replace(",", "") if re.fullmatch(r"[0-9]{1,3}(?:,[0-9]{3})+", t) else t
    if not re.fullmatch(r"[0-9]{1,31}(?:\.[0-9]{0,30})?(?:[eE]\+?[0-9]{1,2})?", plain):
        raise UsageError(f"--rarest must be a number of coups such as 1e8 or 100000000, got {shown!r}")
    value = Fraction(plain)
    if value.denominator != 1 or not 2 <= value <= MAX_RAREST:
        raise UsageError(f"--rarest must be a whole number of coups from 2 to 1e30, got {shown!r}")
    return Given(text, int(value))


def _approval_wanted(args) -> bool:
    return bool(
        args.approval
        or args.mix is not None
        or args.verify is not None
        or args.rarest is not None
        or args.hands_per_hour is not None
        or args.hours_per_day is not None
    )


def _check_approval(args, bets, decks) -> None:
    """The approval options against the bets and shoes, before any work."""
    ids = [b.id for b in bets]
    if args.mix is not None:
        for b in args.mix.value:
            if b not in ids:
                raise UsageError(f"--mix names {b!r}, which is not a wager of the sheet ({', '.join(ids)})")
    if args.verify is not None:
        from ..core.shoe import Shoe
        from ..simcheck.confirm import check_rounds
        from ..simcheck.families import value_only

        for d in decks:
            check_rounds(args.verify, Shoe.standard(d).cards)
        if not any(value_only(b) for b in bets):
            raise UsageError(
                "--verify: the reference simulator pays bets on point values only, and every wager "
                f"of the sheet reads ranks or suits ({', '.join(ids)})"
            )


def _approvals(args, sheets) -> list:
    from ..reports.approval import GLI_GAMES, approval

    out = []
    for s in sheets:
        a = approval(
            s,
            None if args.mix is None else args.mix.value,
            hands_per_hour=args.hands_per_hour or 70,
            hours_per_day=args.hours_per_day or 24,
            rarest=GLI_GAMES if args.rarest is None else args.rarest.value,
        )
        if args.verify is not None:
            from ..simcheck.confirm import verify_sheet

            a.appendix = verify_sheet(s, args.verify, seed=args.seed, alpha=args.alpha)
        out.append(a)
    return out


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
    if _approval_wanted(args):
        words.append("--approval")
        if args.mix is not None:
            words.append(f"--mix {args.mix}")
        words += [f"--hands-per-hour {args.hands_per_hour or 70}", f"--hours-per-day {args.hours_per_day or 24}"]
        if args.rarest is not None:
            words.append(f"--rarest {args.rarest}")
        if args.verify is not None:
            words.append(f"--verify {args.verify} --seed {args.seed}")
            if args.alpha != DEFAULT_ALPHA:
                words.append(f"--alpha {float(args.alpha):g}")
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
            raise UsageError(
                f"--format xlsx writes an XLSX workbook: give --output a name ending in .xlsx, not {args.output!r}"
            )
        from ..reports.parsheet_xlsx import require_openpyxl

        require_openpyxl()
    check_outputs(args.output)
    from .reports import rule_choice

    rules, best = rule_choice(args)
    cat = catalog_from_args(args)
    bets = bets_from_args(args, cat)
    title = _title(args, cat)
    wanted = _approval_wanted(args)
    if wanted:
        _check_approval(args, bets, decks)
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

    solver = None if best else Solver(bets, rules=rules)  # the best play depends on the shoe
    sheets = [
        parsheet(Shoe.standard(d), bets, by_decks, title=title, solver=solver, rules=rules, best=best) for d in decks
    ]
    approvals = _approvals(args, sheets) if wanted else None
    if args.charts is not None:
        from ..io.files import write_manifest
        from ..reports.parsheet_charts import write_charts

        write_manifest(charts_dir, "par-sheet charts", write_charts(sheets[0], charts_dir))
    if fmt == "xlsx":
        from ..io.files import atomic_write
        from ..reports.parsheet_xlsx import parsheet_xlsx

        atomic_write(args.output, parsheet_xlsx(sheets, _command(args), approvals))
        return 0
    text = {
        "md": lambda: docs.parsheet_markdown(sheets, _command(args), approvals),
        "csv": lambda: docs.parsheet_csv(sheets, approvals),
        "json": lambda: docs.parsheet_json(sheets, approvals),
    }[fmt]()
    write_output(text, args.output)
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "parsheet",
        help="par sheets: return tables, house edge, volatility and bands per wager",
        description="Per wager (main bets by default): the pay table, the return table "
        "(pays, combinations, probability, return, 1 in N), house edge, RTP, hit "
        "frequency, element of risk, standard deviation, volatility index, house "
        "edge by decks, break-even pay, effects of removal, confidence bands; and "
        "the table's hold band.  With --approval: every award's frequency, the "
        "largest wins, the win to drop of a bet mix with its day, month and year "
        "bands, and with --verify a simulation against the exact table.",
    )
    p.add_argument(
        "--decks",
        default="8",
        metavar="LIST",
        type=converter(decks_value),
        help="numbers of 52-card decks, comma separated: one par sheet each (default 8)",
    )
    p.add_argument(
        "--charts",
        metavar="DIR",
        help="also draw, per wager, the return by event, the confidence bands against rounds and "
        "the house edge against decks, as PNG files in DIR (new, empty or one it wrote; "
        "needs the plots extra)",
    )
    p.add_argument(
        "--by-decks",
        default="1,2,4,6,8",
        metavar="LIST",
        type=converter(by_decks_value),
        help="deck counts of the house-edge-by-decks table (default 1,2,4,6,8)",
    )
    g = p.add_argument_group("approval figures (any of these adds them after the wagers)")
    g.add_argument(
        "--approval",
        action="store_true",
        help="add the approval figures: every award's frequency (flagged below 1 in 100 million, "
        "GLI-11 4.8.2, or --rarest), each wager's largest win, the win to drop of --mix with "
        "its 95%% band over a day, month and year, and the theoretical win per hour",
    )
    g.add_argument(
        "--mix",
        metavar="LIST",
        type=converter(mix_value),
        help="amounts staked each hand, e.g. banker=100,player=50,tie=5 (default 1 on each wager)",
    )
    g.add_argument(
        "--hands-per-hour",
        metavar="H",
        type=whole("--hands-per-hour", 1, 10_000),
        help="hands dealt per hour (default 70)",
    )
    g.add_argument(
        "--hours-per-day",
        metavar="H",
        type=whole("--hours-per-day", 1, 24),
        help="hours the table deals per day (default 24; a month is 30 days, a year 365)",
    )
    g.add_argument(
        "--rarest",
        metavar="N",
        type=converter(rarest_value),
        help="also flag awards rarer than 1 in N coups (e.g. 1e6; the GLI-11 flag is 1 in 1e8)",
    )
    g.add_argument(
        "--verify",
        metavar="N",
        type=whole("--verify", 1),
        help="verification appendix: the reference simulator deals N rounds off the top, each event's "
        "count against the exact table (z, chi-square, Holm); refused beyond a budget "
        "(5,000,000 rounds of 8 decks, about 100 s)",
    )
    g.add_argument(
        "--seed",
        metavar="S",
        type=whole("--seed", 0, 2**63 - 1),
        default=0,
        help="seed of --verify's shuffles (default 0)",
    )
    g.add_argument(
        "--alpha",
        metavar="A",
        default=DEFAULT_ALPHA,
        type=fraction("--alpha", 0, 1, "strictly between 0 and 1"),
        help="level of --verify's tests after Holm's correction (default 0.01)",
    )
    add_bet_options(p)
    add_rules_options(p)
    add_output_options(p, "md (Markdown, default), csv, json or xlsx (needs --output and the xlsx extra)", FORMATS)
    p.set_defaults(func=cmd_parsheet)
