"""The ``baccarat`` command: a thin layer over the API.

Errors in the input print one line ``baccarat: error: ...`` on stderr and exit
with status 2; nothing that looks like a result is printed.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from .errors import BaccaratError
from .fileio import atomic_write

FORMATS = ("md", "csv", "json")


class UsageError(BaccaratError):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, like every other input error
        raise UsageError(f"{message} (see '{self.prog} --help')")


def add_shoe_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("shoe")
    x = g.add_mutually_exclusive_group()
    x.add_argument("--decks", type=str, default=None, metavar="N",
                   help="number of 52-card decks (default 8)")
    x.add_argument("--shoe", metavar="SPEC",
                   help="counts per rank 'A=32,2=32,...,K=32' or per card 'As=8,Ah=8,...' "
                        "(names not given count 0)")
    g.add_argument("--remove", metavar="CARDS", default="",
                   help="cards already seen, e.g. '5 5 K 9h' (a rank without a suit makes the "
                        "shoe rank-only)")


def shoe_from_args(args):
    from .shoe import Shoe
    if args.shoe is not None:
        shoe = Shoe.parse(args.shoe)
    else:
        decks = 8
        if args.decks is not None:
            if not re.fullmatch(r"-?[0-9]+", args.decks):
                raise UsageError(f"--decks must be a whole number, got {args.decks!r}")
            decks = int(args.decks)
        shoe = Shoe.standard(decks)
    if args.remove.strip():
        shoe = shoe.remove(args.remove)
    return shoe


def add_output_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", default="md", metavar="FMT",
                   help="output format: md (Markdown, default), csv or json")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r} (choose from {', '.join(FORMATS)})")
    return fmt


def write_output(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (temporary file, then rename)."""
    if not output:
        sys.stdout.write(text)
        return
    atomic_write(Path(output), text)


def add_bet_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("bets")
    g.add_argument("--table", metavar="NAME", action="append", default=[],
                   help="a named rule set: its bets (see 'baccarat bets'); may be repeated")
    g.add_argument("--bets", metavar="IDS", action="append", default=[],
                   help="bet ids, comma separated (see 'baccarat bets'), or 'all'; may be repeated")
    g.add_argument("--bets-file", metavar="FILE",
                   help="a TOML file of extra bets and tables (format in README)")


def catalog_from_args(args):
    from .bets import catalog, load_bets_file
    return load_bets_file(args.bets_file) if getattr(args, "bets_file", None) else catalog()


def bets_from_args(args, cat=None):
    """The selected bets: tables, then ids; the main bets when nothing is named."""
    from .bets import MAIN_BETS
    cat = cat or catalog_from_args(args)
    ids: list[str] = []
    for name in args.table:
        ids.extend(cat.table(name.strip()).bets)
    for group in args.bets:
        for i in (i.strip() for i in group.split(",")):
            if i == "all":
                ids.extend(cat.bets)
            elif i:
                ids.append(i)
    if not ids and getattr(args, "bets_file", None):
        from .bets import catalog
        ids = [b for b in cat.bets if b not in catalog().bets]
    if not ids:
        ids = list(MAIN_BETS)
    return cat.select(ids)


def cmd_odds(args) -> int:
    from .analysis import Solver
    from . import formatting

    fmt = check_format(args.format)
    shoe = shoe_from_args(args)
    bets = bets_from_args(args)
    breakeven_spec = args.breakeven
    if breakeven_spec:
        bet_id, _, event = breakeven_spec.partition(":")
        if bet_id not in {b.id for b in bets}:
            bets = bets + (catalog_from_args(args).bet(bet_id),)
    result = Solver(bets).solve(shoe)
    be = None
    if breakeven_spec:
        from .breakeven import breakeven
        be = breakeven(result.bet(bet_id), event or None)
    text = {"md": formatting.odds_markdown, "csv": formatting.odds_csv,
            "json": formatting.odds_json}[fmt](result, breakeven=be)
    write_output(text, args.output)
    return 0


def cmd_bets(args) -> int:
    from . import formatting

    fmt = check_format(args.format)
    cat = catalog_from_args(args)
    text = {"md": formatting.catalog_markdown, "csv": formatting.catalog_csv,
            "json": formatting.catalog_json}[fmt](cat)
    write_output(text, args.output)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__
    p = _Parser(prog="baccarat", description="Exact odds of Punto Banco baccarat on any finite shoe.")
    p.add_argument("--version", action="version", version=f"baccarat-analyzer {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    odds = sub.add_parser("odds", help="exact outcome probabilities and the EV of every selected bet",
                          description="Exact Player/Banker/Tie probabilities and the exact EV, "
                                      "house edge and variance of the selected bets (main bets by default).")
    add_shoe_options(odds)
    add_bet_options(odds)
    odds.add_argument("--breakeven", metavar="BET[:EVENT]",
                      help="EV with that event's payout left symbolic (default: the bet's first paying "
                           "event), and the payout or commission that makes the bet break even")
    add_output_options(odds)
    odds.set_defaults(func=cmd_odds)

    bets = sub.add_parser("bets", help="list the bets and tables (with --bets-file, yours too)",
                          description="The bet catalog: ids, names, pay tables and the named tables.")
    bets.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets and tables")
    add_output_options(bets)
    bets.set_defaults(func=cmd_bets)

    from .cli_report import register as _register_report
    _register_report(sub)
    from .cli_check import register; register(sub)
    from .cli_study import register as _register_study; _register_study(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except BaccaratError as e:
        print(f"baccarat: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("baccarat: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
