"""``baccarat programs``: rolling chips, loss rebates and the tail of a trip's result, exactly.

The computation is :mod:`analyzer.reports.programs` (over the exact flat trips of
:mod:`analyzer.reports.sessions`), the documents and the chart
:mod:`analyzer.reports.programs_tables`; this module parses, checks and writes.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction

from .bankroll import amount_of
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
For one bet: rolling (non-negotiable) chips - plays per chip, the house's edge per chip,
the theoretical win and the exact distribution of the hands to wash C chips; a trip of N
hands of flat stakes - the exact distribution of its net result, the value of a loss rebate
(a rate, a threshold or tiers), its break-even rate, and P(net >= X) beside the normal
approximation.  Every hand is an independent deal from the full declared shoe (off the
top).  Computed exactly, not by simulation; work beyond the budget is refused with the
largest number of hands that fits."""

MAX_HANDS = 1_000_000
_SIGNED = re.compile(r"-?(?:[0-9]{1,12}(\.[0-9]{1,6})?|[0-9]{1,12}/[0-9]{1,12})")
_PERCENT = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?%?")


def signed_amount(option: str, text: str) -> Fraction:
    """An exact amount, positive or negative: ``5000``, ``-250``, ``2.5``, ``5/2``."""
    t = str(text).strip()
    shown = t if len(t) <= 20 else t[:20] + "..."
    if not _SIGNED.fullmatch(t):
        raise UsageError(f"{option} must be an amount such as 5000, -250, 2.5 or 5/2, got {shown!r}")
    if "/" in t and int(t.split("/")[1]) == 0:
        raise UsageError(f"{option} has a zero denominator: {shown!r}")
    return Fraction(t)


def rate(option: str, text: str) -> Fraction:
    """A percentage from 0 to 100 (``10``, ``10%``, ``0.5``), as a fraction of 1."""
    t = str(text).strip()
    shown = t if len(t) <= 20 else t[:20] + "..."
    if t.startswith("-"):
        raise UsageError(f"{option} must be a percentage from 0 to 100, got {shown}")
    if not _PERCENT.fullmatch(t):
        raise UsageError(f"{option} must be a percentage such as 10, 10% or 0.5, got {shown!r}")
    v = Fraction(t.rstrip("%")) / 100
    if v > 1:
        raise UsageError(f"{option} must be a percentage from 0 to 100, got {shown} (a rebate above 100%)")
    return v


def tiers(text: str) -> tuple[tuple[Fraction, Fraction], ...]:
    """``--tiers 0:5,10000:10``: (threshold of the net loss, percentage) pairs."""
    out = []
    for part in str(text).split(","):
        if part.count(":") != 1:
            raise UsageError(f"--tiers must be THRESHOLD:PERCENT pairs such as 0:5,10000:10, got {part.strip()!r}")
        t, r = part.split(":")
        threshold = signed_amount("a --tiers threshold", t)
        if threshold < 0:
            raise UsageError(f"a --tiers threshold must be 0 or more, got {threshold}")
        out.append((threshold, rate("a --tiers rate", r)))
    if len({t for t, _ in out}) < len(out):
        raise UsageError("--tiers has two tiers with the same threshold")
    return tuple(out)


def register(sub) -> None:
    p = sub.add_parser(
        "programs", help="rolling chips, loss rebates and the tail of a trip, exactly", description=DESCRIPTION
    )
    add_shoe_options(p)
    g = p.add_argument_group("program")
    g.add_argument(
        "--bet", metavar="ID", default="banker", type=bet_id, help="the bet (default banker; see 'baccarat bets')"
    )
    g.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets (format in docs/bets.md)")
    g.add_argument(
        "--hands",
        default="1000",
        metavar="N",
        type=whole("--hands", 1, MAX_HANDS),
        help="hands in the trip (default 1000)",
    )
    g.add_argument(
        "--stake",
        default="1",
        metavar="AMOUNT",
        type=amount_of("--stake"),
        help="the stake of every hand, and the value of a rolling chip (default 1)",
    )
    g.add_argument(
        "--chips",
        default="100",
        metavar="C",
        type=whole("--chips", 1, 1_000_000),
        help="rolling chips to wash, one a hand (default 100)",
    )
    g.add_argument(
        "--rebate",
        default="10",
        metavar="PERCENT",
        type=converter(lambda t: rate("--rebate", t)),
        help="the rate returned of the trip's net loss (default 10)",
    )
    g.add_argument(
        "--threshold",
        default="0",
        metavar="AMOUNT",
        type=converter(lambda t: signed_amount("--threshold", t)),
        help="no rebate on a net loss below this (default 0)",
    )
    g.add_argument(
        "--tiers",
        metavar="T:R,...",
        type=converter(tiers),
        help="tiers instead: the rate R%% of the highest threshold T reached, on the whole loss",
    )
    g.add_argument(
        "--win",
        metavar="X",
        action="append",
        type=converter(lambda t: signed_amount("--win", t)),
        help="P(net >= X), exact and by the normal approximation (repeat; default 0)",
    )
    g.add_argument(
        "--exits",
        metavar="N",
        type=whole("--exits", 1, MAX_HANDS),
        help="the best stop-loss and stop-win exits of a trip of at most N hands under the rebate",
    )
    g.add_argument(
        "--budget",
        default="15",
        metavar="SECONDS",
        type=whole("--budget", 1, 600),
        help="refuse a trip whose exact work is estimated above this (default 15)",
    )
    add_rules_options(p)
    p.add_argument(
        "--chart",
        metavar="FILE.png",
        type=converter(png_file),
        help="draw the net result's distribution (needs matplotlib)",
    )
    add_output_options(p)
    add_quiet_option(p)
    p.set_defaults(func=cmd_programs)


def cmd_programs(args) -> int:
    from ..core.solver import Solver
    from ..reports import programs_tables as docs
    from ..reports.charts import available
    from ..reports.programs import best_exits, exits_seconds, plan_trip, program, rolling_chips, tiers_of
    from ..reports.sessions import trip_size

    check_outputs(args.output, args.chart)
    if args.threshold < 0:
        raise UsageError(f"--threshold must be 0 or more, got {args.threshold}")
    if args.tiers is not None and args.threshold != 0:
        raise UsageError("give either --tiers or --threshold, not both")
    rebate = tiers_of(args.rebate, args.threshold, args.tiers)
    wins = args.win or [Fraction(0)]
    bet = catalog_from_args(args).bet(args.bet)
    shoe = shoe_from_args(args)
    rules, _ = rules_from_args(args, shoe)
    rules = None if rules.is_default else rules
    analysis = Solver((bet,), rules=rules).solve(shoe)
    result_bet = analysis.bet(bet.id)
    work = plan_trip(result_bet, args.hands, args.stake, args.budget)
    if work.fits < args.hands:
        raise UsageError(
            f"{args.hands:,} hands of {bet.id} are more exact work than the budget of {args.budget} s "
            f"(about {work.seconds:.0f} s): at most {work.fits:,} hands fit (--hands {work.fits}), "
            f"or raise --budget"
        )
    if args.exits is not None and exits_seconds(work, args.exits) > args.budget:
        best_exits(result_bet, args.exits, args.stake, rebate, args.budget)  # refuses, naming what fits
    chips = rolling_chips(result_bet, args.chips)
    with progress_bar(trip_size(work), "trip", args.quiet, unit="net") as bar:
        pr = program(result_bet, args.hands, args.stake, rebate, wins, plan=work, progress=bar.update)
    exits = None if args.exits is None else best_exits(result_bet, args.exits, args.stake, rebate, args.budget)
    chart = None
    if args.chart:
        if available():
            docs.programs_chart(
                pr,
                f"{bet.name}, {args.hands:,} hands of {args.stake}"
                + (f", rules {rules.name}" if rules is not None else ""),
                args.chart,
            )
            chart = args.chart
        else:
            print("programs: chart skipped: matplotlib is not installed (pip install '.[plots]')", file=sys.stderr)
    if args.format == "md":
        text = docs.programs_markdown(pr, chips, result_bet, analysis, chart=chart, exits=exits)
    else:
        text = {"csv": docs.programs_csv, "json": docs.programs_json}[args.format](
            pr, chips, result_bet, analysis, exits=exits
        )
    write_output(text, args.output)
    return 0
