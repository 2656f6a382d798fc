"""``baccarat bankroll``: exact ruin, doubling-first and final-bankroll figures of a betting system.

The computation is :func:`analyzer.reports.bankroll.bankroll_session`, the documents and the
chart :mod:`analyzer.reports.bankroll_tables`; this module parses, shows progress and writes.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

from ..reports.bankroll_systems import BankrollError
from .options import (
    UsageError,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    bet_id,
    catalog_from_args,
    check_outputs,
    converter,
    png_file,
    progress_bar,
    shoe_from_args,
    whole,
    write_output,
)
from .rules import add_rules_options, rules_from_args

DESCRIPTION = """\
For one bet, a starting bankroll, a unit and a number of coups played with a betting
system (flat, martingale, paroli, dalembert) under a table limit: the exact probability
of ruin within the coups, of doubling the bankroll first, the expected number of coups
played and the quantiles of the final bankroll.  Every coup is an independent deal from
the full declared shoe (off the top); computed exactly by dynamic programming over the
bankroll and the system's state, not by simulation.  Work beyond a few seconds is refused
with the largest number of coups that fits."""

MAX_COUPS = 1_000_000
_AMOUNT = re.compile(r"[0-9]{1,12}(\.[0-9]{1,6})?|[0-9]{1,12}/[0-9]{1,12}")


def register(sub) -> None:
    from ..reports.bankroll_systems import SYSTEMS, system_name

    p = sub.add_parser(
        "bankroll", help="exact ruin and final-bankroll odds of a betting system", description=DESCRIPTION
    )
    add_shoe_options(p)
    g = p.add_argument_group("session")
    g.add_argument(
        "--bet", metavar="ID", default="banker", type=bet_id, help="the bet (default banker; see 'baccarat bets')"
    )
    g.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets (format in docs/bets.md)")
    g.add_argument(
        "--bankroll",
        default="100",
        metavar="AMOUNT",
        type=amount_of("--bankroll"),
        help="starting bankroll (default 100)",
    )
    g.add_argument("--unit", default="1", metavar="AMOUNT", type=amount_of("--unit"), help="the base stake (default 1)")
    g.add_argument(
        "--coups",
        default="100",
        metavar="N",
        type=whole("--coups", 1, MAX_COUPS),
        help="coups to play at most (default 100)",
    )
    g.add_argument(
        "--system",
        default="flat",
        metavar="NAME",
        type=converter(system_name),
        help=f"{', '.join(SYSTEMS)} (default flat)",
    )
    g.add_argument(
        "--limit", metavar="AMOUNT", type=amount_of("--limit"), help="table maximum: caps every stake (default none)"
    )
    add_rules_options(p)
    g.add_argument(
        "--bounded",
        action="store_true",
        help="beyond the exact budget, compute in floating point with a certified bound on every "
        "figure (up to about a minute)",
    )
    p.add_argument(
        "--chart",
        metavar="FILE.png",
        type=converter(png_file),
        help="draw the final bankroll distribution (needs matplotlib)",
    )
    add_quiet_option(p)
    add_output_options(p)
    p.set_defaults(func=cmd_bankroll)


def amount(option: str, text: str | None) -> Fraction | None:
    """A positive exact amount: ``100``, ``2.5`` or ``5/2``."""
    if text is None:
        return None
    t = str(text).strip()
    shown = t if len(t) <= 20 else t[:20] + "..."
    if not _AMOUNT.fullmatch(t):
        raise UsageError(f"{option} must be a positive number such as 100, 2.5 or 5/2, got {shown!r}")
    if "/" in t and int(t.split("/")[1]) == 0:
        raise UsageError(f"{option} has a zero denominator: {shown!r}")
    v = Fraction(t)
    if v <= 0:
        raise UsageError(f"{option} must be positive, got {shown}")
    return v


def amount_of(option: str):
    """The converter of an amount option (:func:`amount`)."""
    return converter(lambda text: amount(option, text), "amount")


def _bounded(args, work, result_bet, analysis) -> int:
    from ..reports import bankroll_tables as docs
    from ..reports.bankroll_bounded import bounded_session

    if args.chart:
        raise UsageError("--chart draws exact sessions only (not with --bounded)")
    with progress_bar(work.coups, "bankroll", args.quiet, unit="coup") as bar:
        result = bounded_session(work, progress=bar.update)
    text = {"md": docs.bounded_markdown, "csv": docs.bounded_csv, "json": docs.bounded_json}[args.format](
        result, result_bet, analysis
    )
    write_output(text, args.output)
    return 0


def cmd_bankroll(args) -> int:
    from ..core.solver import Solver
    from ..reports import bankroll_tables as docs
    from ..reports.bankroll import long_flat, plan, run
    from ..reports.charts import available

    fmt = args.format
    check_outputs(args.output, args.chart)
    start, unit, limit, coups = args.bankroll, args.unit, args.limit, args.coups
    bet = catalog_from_args(args).bet(args.bet)
    shoe = shoe_from_args(args)
    rules, _ = rules_from_args(args, shoe)
    rules = None if rules.is_default else rules
    analysis = Solver((bet,), rules=rules).solve(shoe)
    result_bet = analysis.bet(bet.id)
    events = [(e.probability, e.pays) for e in result_bet.events]
    work = plan(events, start, unit, coups, args.system, limit)
    if work.fits < coups and not long_flat(work):
        if args.bounded:
            return _bounded(args, work, result_bet, analysis)
        try:
            run(work)  # refuses, offering the bound
        except BankrollError as e:
            raise BankrollError(f"{e}; or --bounded for floating point with a certified bound") from None
    with progress_bar(coups, "bankroll", args.quiet, unit="coup") as bar:
        result = run(work, progress=bar.update)
    chart = None
    if args.chart:
        if available():
            docs.bankroll_chart(
                result,
                f"{bet.name}, {args.system}, {coups:,} coups" + (f", rules {rules.name}" if rules is not None else ""),
                args.chart,
            )
            chart = args.chart
        else:
            print("bankroll: chart skipped: matplotlib is not installed (pip install '.[plots]')", file=sys.stderr)
    if fmt == "md":
        text = docs.bankroll_markdown(result, result_bet, analysis, chart=chart)
    else:
        text = {"csv": docs.bankroll_csv, "json": docs.bankroll_json}[fmt](result, result_bet, analysis)
    write_output(text, args.output)
    return 0
