"""``baccarat design`` and ``baccarat export``: pay tables to a target edge, and a bet's
exact distribution as a weighted lookup table.

The search is :func:`analyzer.reports.design.design` / :func:`~analyzer.reports.design.menu`,
the lookup table :func:`analyzer.reports.export.lookup`, the documents
:mod:`analyzer.reports.design_tables`; this module parses and writes.
"""

from __future__ import annotations

from fractions import Fraction

from .options import (
    UsageError,
    add_output_options,
    add_shoe_options,
    bet_id,
    catalog_from_args,
    check_outputs,
    converter,
    fraction_value,
    shoe_from_args,
    whole,
    write_output,
)
from .rules import add_rules_options, rules_from_args

DESIGN = """\
The pay tables of a bet's events that give a house edge in a band (--edge LO:HI), or near
each of a list of target edges (--edge T1,T2,...: a menu, each band T +- --tolerance),
exactly: the events are priced once, the EV is linear in the pays, and every integer (or
--step) pay vector is searched within the linear bounds; the tables nearest the band's
centre are listed, each priced again exactly.  Pushes and the losing outcome keep their
pays; --fix pins others."""

EXPORT = """\
A bet's exact outcome distribution as a weighted lookup table for a game server: one row
per distinct payout (events paying the same merged), its integer weight (the ways over
the ordered deals, divided by their gcd), the payout to 1 and for 1 (the multiplier),
the total of the weights, and whether they fit a uint64."""


def percent_value(option: str, text: str) -> Fraction:
    """A house edge or a frequency: ``2%``, ``0.02``, ``-1.5%`` (between -100% and 100%)."""
    return fraction_value(option, text, -1, 1, "between -100% and 100%")


def edge_value(text: str) -> tuple[str, tuple[Fraction, ...]]:
    """``--edge LO:HI`` -> ``("band", (lo, hi))``; ``--edge T[,T...]`` -> ``("menu", targets)``.

    >>> edge_value("2%:3%")
    ('band', (Fraction(1, 50), Fraction(3, 100)))
    >>> edge_value("2%, 4%")
    ('menu', (Fraction(1, 50), Fraction(1, 25)))
    """
    t = text.strip()
    if ":" in t:
        lo, _, hi = t.partition(":")
        low, high = percent_value("--edge", lo), percent_value("--edge", hi)
        if low > high:
            raise UsageError(f"--edge {text!r}: the low end is above the high end")
        return "band", (low, high)
    items = [i.strip() for i in t.split(",")]
    if not t or any(not i for i in items):
        raise UsageError(f"--edge must be a band LO:HI (2%:3%) or target edges T[,T...] (2%,4%), got {text!r}")
    if len(items) > 20:
        raise UsageError(f"--edge names {len(items)} target edges: at most 20")
    return "menu", tuple(percent_value("--edge", i) for i in items)


def hit_value(text: str) -> tuple[Fraction, Fraction]:
    """``--hit LO:HI``: a band of hit frequencies, e.g. ``20%:30%``."""
    lo, sep, hi = text.strip().partition(":")
    if not sep:
        raise UsageError(f"--hit must be a band LO:HI such as 20%:30%, got {text!r}")
    low, high = (fraction_value("--hit", x, -1e-9, 1 + 1e-9, "between 0% and 100%") for x in (lo, hi))
    if low > high:
        raise UsageError(f"--hit {text!r}: the low end is above the high end")
    return low, high


def pay_value(option: str):
    def parse(text: str) -> Fraction:
        from ..bets.catalog import parse_pays
        from ..core.errors import BetError

        try:
            value = parse_pays(text.strip(), option)
        except BetError as e:
            raise UsageError(str(e)) from None
        if value < 0:
            raise UsageError(f"{option} must be at least 0, got {text!r}")
        return value

    return converter(parse, "pay")


def fix_item(text: str) -> tuple[str, Fraction]:
    """``--fix EVENT=PAY``: an event's pay pinned (the last '=' splits)."""
    from ..bets.catalog import parse_pays
    from ..core.errors import BetError

    name, sep, pay = text.rpartition("=")
    if not sep or not name.strip():
        raise UsageError(f"--fix must be EVENT=PAY (e.g. 'natural win=1'), got {text!r}")
    try:
        return name.strip(), parse_pays(pay.strip(), f"--fix {name.strip()!r}")
    except BetError as e:
        raise UsageError(str(e)) from None


def register(sub) -> None:
    from ..reports.design import DEFAULT_BUDGET, MAX_BUDGET, MAX_LIMIT

    p = sub.add_parser(
        "design", help="pay tables that give a target house edge (and hit frequency), exactly", description=DESIGN
    )
    _bet_options(p)
    g = p.add_argument_group("constraints")
    g.add_argument(
        "--edge",
        required=True,
        metavar="LO:HI|T[,T...]",
        type=converter(edge_value),
        help="the house edge band, e.g. 2%%:3%%, or target edges for a menu, e.g. 2%%,4%%,6%%",
    )
    g.add_argument(
        "--tolerance",
        default="0.1%",
        metavar="X",
        type=converter(lambda t: fraction_value("--tolerance", t, -1e-12, 1, "from 0 to 100%"), "fraction"),
        help="a menu's band around each target edge: T - X to T + X (default 0.1%%)",
    )
    g.add_argument(
        "--hit",
        metavar="LO:HI",
        type=converter(hit_value),
        help="the hit frequency band (probability of a pay above 0), e.g. 20%%:30%%",
    )
    g.add_argument(
        "--max-pay",
        default="100",
        metavar="N",
        type=pay_value("--max-pay"),
        help="the largest pay (to 1) of an event (default 100)",
    )
    g.add_argument(
        "--min-pay",
        default="1",
        metavar="N",
        type=pay_value("--min-pay"),
        help="the smallest pay of a free event (default 1; 0 lets an event become a push)",
    )
    g.add_argument(
        "--step",
        default="1",
        metavar="S",
        type=pay_value("--step"),
        help="pays are multiples of S: 1 (whole pays, default), 1/2 or 0.5 (half units), 5, ...",
    )
    g.add_argument(
        "--fix",
        metavar="EVENT=PAY",
        action="append",
        default=[],
        type=converter(fix_item),
        help="pin an event's pay, e.g. 'natural win=1'; may be repeated",
    )
    g.add_argument(
        "--any-order",
        action="store_true",
        help="let a rarer event pay less than a commoner one (by default pays are non-decreasing with rarity)",
    )
    g.add_argument(
        "--limit",
        default="20",
        metavar="N",
        type=whole("--limit", 0, MAX_LIMIT),
        help="tables listed per band, closest to its centre first (default 20)",
    )
    g.add_argument(
        "--budget",
        default=str(DEFAULT_BUDGET),
        metavar="N",
        type=whole("--budget", 1, MAX_BUDGET),
        help=f"most partial tables searched per band (default {DEFAULT_BUDGET:,}, a few seconds); past it "
        "the count is a lower bound",
    )
    add_output_options(p)
    p.set_defaults(func=cmd_design)

    e = sub.add_parser(
        "export", help="a bet's exact distribution as a weighted lookup table for a game server", description=EXPORT
    )
    _bet_options(e)
    add_output_options(e, "output format: json (default), csv or md", ("json", "csv", "md"))
    e.set_defaults(func=cmd_export, format="json")


def _bet_options(p) -> None:
    p.add_argument("--bet", required=True, metavar="ID", type=bet_id, help="the bet (see 'baccarat bets')")
    p.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets (format in docs/bets.md)")
    add_shoe_options(p)
    add_rules_options(p)


def _priced_bet(args, series_ok: bool = False):
    """``(shoe, bet, rules)`` of the command line, checked before any work; ``series_ok``: a
    series bet (Banker Streak) may be named (``design`` designs its run lengths' pays)."""
    shoe = shoe_from_args(args)
    bets = catalog_from_args(args)
    name = args.bet
    bet = bets.series[name] if series_ok and name in bets.series else bets.bet(name)
    rules, _ = rules_from_args(args, shoe)
    return shoe, bet, (None if rules.is_default else rules)


def cmd_design(args) -> int:
    from ..reports import design_tables as docs
    from ..reports.design import design, menu

    check_outputs(args.output)
    shoe, bet, rules = _priced_bet(args, series_ok=True)
    fixed = dict(args.fix)
    options = {
        "max_pay": args.max_pay,
        "min_pay": args.min_pay,
        "step": args.step,
        "fixed": fixed,
        "monotone": not args.any_order,
        "limit": args.limit,
        "budget": args.budget,
        "rules": rules,
        "hit": args.hit,
    }
    kind, values = args.edge
    if kind == "band":
        designs = [design(shoe, bet, values, **options)]
        if designs[0].count == 0:
            raise UsageError(designs[0].reason)
    else:
        designs = menu(shoe, bet, values, args.tolerance, **options)
        if all(d.count == 0 for d in designs):
            raise UsageError(designs[0].reason)
    described = shoe.describe() + ("" if rules is None else f"; rules {rules.name}")
    if args.format == "json":
        constraints = {
            "max_pay": str(args.max_pay),
            "min_pay": str(args.min_pay),
            "step": str(args.step),
            "monotone": not args.any_order,
            "limit": args.limit,
            "budget": args.budget,
            "hit": None if args.hit is None else [str(x) for x in args.hit],
            "tolerance": str(args.tolerance) if kind == "menu" else None,
        }
        text = docs.design_json(designs, described, constraints)
    elif args.format == "csv":
        text = docs.design_csv(designs, described)
    else:
        text = docs.design_markdown(designs, described)
    write_output(text, args.output)
    return 0


def cmd_export(args) -> int:
    from ..bets.pricing import analyze
    from ..reports import design_tables as docs
    from ..reports.export import lookup

    check_outputs(args.output)
    shoe, bet, rules = _priced_bet(args)
    table = lookup(analyze(shoe, [bet], rules=rules).bet(bet.id))
    described = shoe.describe() + ("" if rules is None else f"; rules {rules.name}")
    writer = {"json": docs.lookup_json, "csv": docs.lookup_csv, "md": docs.lookup_markdown}[args.format]
    write_output(writer(table, described), args.output)
    return 0


__all__ = ["register", "cmd_design", "cmd_export", "edge_value", "hit_value", "fix_item"]
