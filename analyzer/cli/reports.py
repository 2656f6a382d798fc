"""CLI commands for the analyses of the reports: decks, distributions, eor, payouts, report."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .options import (
    UsageError,
    add_bet_options,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    bets_from_args,
    check_outputs,
    choice_of,
    decks_list_of,
    progress_bar,
    shoe_from_args,
    write_output,
)
from .rules import add_rules_options, rules_from_args, rules_of, rules_words

if TYPE_CHECKING:
    from collections.abc import Callable


def _rules(args, shoe=None):
    """The Rules of ``--rules``/``--player-option`` (None for the default)."""
    rules, _ = rules_from_args(args, shoe)
    return None if rules.is_default else rules


def reproduce_words(args) -> str:
    """The ``--rules``/``--player-option`` words of a Reproduce line, or '' when the rules played
    are Punto Banco's (a rules file restating them gives the default output, byte for byte)."""
    if (getattr(args, "player_option", None) or "").strip() == "best" or _rules(args) is not None:
        return rules_words(args)
    return ""


def rule_choice(args):
    """``(rules, best)`` of ``--rules``/``--player-option``, checked before any work or file, for the
    commands that play several shoes: ``rules`` is None for the default; with ``best`` it is the rule
    set whose option the Player plays best on each shoe
    (:func:`analyzer.reports.parsheet.rules_at`)."""
    if (getattr(args, "player_option", None) or "").strip() != "best":
        return _rules(args), False
    import argparse

    rules_from_args(argparse.Namespace(**{**vars(args), "player_option": "draw"}))  # offers an option?
    return rules_of(args), True


#: Most shoe sizes of ``--decks-list`` (as ``parsheet --by-decks``: the report's par sheets take
#: the list as theirs, one column of each by-decks table per size).
MAX_DECKS_LIST = 20
DECKS_LIST = decks_list_of("--decks-list", MAX_DECKS_LIST)


def cmd_decks(args) -> int:
    from ..bets.catalog import catalog
    from ..core.shoe import Shoe
    from ..core.solver import Solver
    from ..reports import analysis_tables as reportfmt
    from ..reports.writer import json_with_rules

    fmt = args.format
    decks = args.decks_list.value
    cat = catalog()
    if args.table or args.bets or args.bets_file:
        bets = bets_from_args(args)
        from ..bets.catalog import Table

        tables = [Table("selected", "Selected bets", "The bets named on the command line.", tuple(b.id for b in bets))]
    else:
        bets = tuple(cat.bets.values())
        tables = list(cat.tables.values())
    rules, best = rule_choice(args)
    described = (
        None
        if rules is None
        else rules.describe() + ("; the Player's option played best for each shoe" if best else "")
    )
    if best:  # the best play depends on the shoe
        results = {}
        for d in decks:
            shoe = Shoe.standard(d)
            results[d] = Solver(bets, rules=_rules(args, shoe)).solve(shoe)
    else:
        solver = Solver(bets, rules=_rules(args))
        results = {d: solver.solve(Shoe.standard(d)) for d in decks}
    ids = [b.id for b in bets]
    command = "baccarat decks " + f"--decks-list {','.join(map(str, decks))}" + reproduce_words(args)
    text = {
        "md": lambda: reportfmt.by_decks_markdown(results, tables, command, {}),
        "csv": lambda: reportfmt.by_decks_csv(results, ids),
        "json": lambda: json_with_rules(reportfmt.by_decks_json(results, ids), described),
    }[fmt]()
    write_output(text, args.output)
    return 0


def cmd_distributions(args) -> int:
    from ..reports import analysis_tables as reportfmt
    from ..reports.distributions import distributions
    from ..reports.writer import json_with_rules

    fmt = args.format
    shoe = shoe_from_args(args)
    d = distributions(shoe, _rules(args, shoe))
    text = {
        "md": lambda: reportfmt.distributions_markdown(
            d, "baccarat distributions " + _shoe_words(args) + reproduce_words(args)
        ),
        "csv": lambda: reportfmt.distributions_csv(d),
        "json": lambda: json_with_rules(reportfmt.distributions_json(d), d.rules.describe() if d.rules else None),
    }[fmt]()
    write_output(text, args.output)
    return 0


def eor_json_text(e) -> str:
    """The text ``baccarat eor --format json`` prints for the effects ``e`` (``serve``'s
    ``POST /eor`` too)."""
    from ..reports import analysis_tables as reportfmt
    from ..reports.writer import json_with_rules

    return json_with_rules(reportfmt.eor_json(e), e.rules and e.rules.describe())


def cmd_eor(args) -> int:
    from ..reports import analysis_tables as reportfmt
    from ..reports.eor import effects_of_removal

    fmt = args.format
    shoe = shoe_from_args(args)
    bets = bets_from_args(args)
    solver = None
    rules = _rules(args, shoe)
    if rules is not None:
        from ..core.solver import Solver

        solver = Solver(bets, rules=rules)
    e = effects_of_removal(shoe, bets, cards=args.cards, solver=solver)
    command = "baccarat eor " + _shoe_words(args) + reproduce_words(args)
    text = {
        "md": lambda: reportfmt.eor_markdown(e, command, {}),
        "csv": lambda: reportfmt.eor_csv(e),
        "json": lambda: eor_json_text(e),
    }[fmt]()
    write_output(text, args.output)
    return 0


def cmd_payouts(args) -> int:
    from ..core.solver import Solver
    from ..reports import analysis_tables as reportfmt

    fmt = args.format
    if fmt == "json":
        raise UsageError("payouts supports --format md or csv (the JSON of 'baccarat odds --breakeven' covers one bet)")
    shoe = shoe_from_args(args)
    a = Solver(bets_from_args(args), rules=_rules(args, shoe)).solve(shoe)
    words = "baccarat payouts " + _shoe_words(args) + reproduce_words(args)
    text = reportfmt.payouts_markdown(a, words) if fmt == "md" else reportfmt.payouts_csv(a)
    write_output(text, args.output)
    return 0


MIDCOUP = ("insurance", "known-card-edges", "gold")


def cmd_midcoup(args) -> int:
    from ..bets.catalog import catalog
    from ..core.solver import Solver
    from ..reports import midcoup, midcoup_tables as mc
    from ..reports.odds_tables import shoe_json

    fmt = args.format
    if fmt == "csv":
        raise UsageError("midcoup writes md or json")
    check_outputs(args.output)
    shoe = shoe_from_args(args)
    bets = tuple(catalog().bets.values())
    data: Any  # what the table's builder gives, read by its own writers
    md: Callable[..., str]
    js: Callable[..., str]
    if args.table == "gold":
        rules = option_rules(args)
        with progress_bar(3, "gold: each Player choice", args.quiet) as bar:
            data = midcoup.gold_table(shoe, bets, rules, progress=bar.update)
        md, js = mc.gold_markdown, mc.gold_json
    else:
        rules = _rules(args, shoe)
        tables: dict[str, tuple[Callable[[], object], Callable[..., str], Callable[..., str]]] = {
            "insurance": (lambda: midcoup.insurance_table(shoe, rules), mc.insurance_markdown, mc.insurance_json),
            "known-card-edges": (
                lambda: midcoup.known_card_report(shoe, rules),
                mc.known_edges_markdown,
                mc.known_edges_json,
            ),
        }
        build, md, js = tables[args.table]
        data = build()
    where = f"--shoe '{args.shoe}'" if args.shoe else f"--decks {args.decks or 8}"
    if args.remove.strip():
        where += f" --remove '{args.remove}'"
    cmd = f"baccarat midcoup --table {args.table} {where}" + reproduce_words(args)
    text = md(data, shoe.describe(), cmd, rules) if fmt == "md" else js(data, shoe_json(Solver(()).solve(shoe)), rules)
    write_output(text, args.output)
    return 0


def option_rules(args):
    """The rule set of ``midcoup --table gold``, whose Player's option it plays every way (None: Gold)."""
    if getattr(args, "player_option", None):
        raise UsageError("--table gold plays the Player's option every way (draw, stand, best): drop --player-option")
    rules = rules_of(args)
    if rules.is_default:
        return None
    if not rules.player_option:
        raise UsageError(f"--table gold plays a Player's option: rule set {rules.name!r} offers none")
    return rules


def cmd_report(args) -> int:
    from ..io.files import check_folder
    from ..reports.writer import STEPS, generate

    decks = args.decks_list.value
    rule_choice(args)  # bad --rules / --player-option: before any file
    rules = rules_of(args)
    option = args.player_option
    check_folder(args.out, "reports")  # a folder it may not replace: before any work
    start = time.perf_counter()
    with progress_bar(STEPS, "report", args.quiet) as bar:
        files = generate(
            Path(args.out),
            decks,
            progress=lambda step: (bar.set_postfix_str(step), bar.update()),
            rules=None if rules.is_default else rules,
            player_option=option,
            words=reproduce_words(args),
        )
    print(f"wrote {len(files)} files to {args.out} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


def _shoe_words(args) -> str:
    words = []
    if args.shoe:
        words.append(f"--shoe '{args.shoe}'")
    else:
        words.append(f"--decks {args.decks or 8}")
    if args.remove.strip():
        words.append(f"--remove '{args.remove}'")
    for t in getattr(args, "table", []) or []:
        words.append(f"--table {t}")
    for b in getattr(args, "bets", []) or []:
        words.append(f"--bets {b}")
    return " ".join(words)


def register(sub) -> None:
    p = sub.add_parser(
        "decks",
        help="house edge of the bets by number of decks",
        description="Exact probability, EV and house edge of every bet for several shoe sizes "
        "(all catalog bets by table, unless --table/--bets name some).",
    )
    p.add_argument(
        "--decks-list",
        default="1,2,4,6,8",
        metavar="LIST",
        type=DECKS_LIST,
        help="numbers of decks (default 1,2,4,6,8)",
    )
    add_bet_options(p)
    add_rules_options(p)
    add_output_options(p)
    p.set_defaults(func=cmd_decks)

    p = sub.add_parser(
        "distributions",
        help="exact distributions and conditional odds of a coup",
        description="Final totals grid, totals by cards, winner by total, margin, cards dealt, "
        "naturals, and the odds after the first 2, 3 and 4 cards.",
    )
    add_shoe_options(p)
    add_rules_options(p)
    add_output_options(p)
    p.set_defaults(func=cmd_distributions)

    p = sub.add_parser(
        "eor",
        help="effects of removal and ideal count tags",
        description="Exact change in each bet's EV when cards of one rank leave the shoe, "
        "with ideal linear count tags and their correlation.",
    )
    add_shoe_options(p)
    add_bet_options(p)
    p.add_argument("--cards", type=int, default=1, metavar="K", help="cards of the rank removed (default 1)")
    add_rules_options(p)
    add_output_options(p)
    p.set_defaults(func=cmd_eor)

    p = sub.add_parser(
        "payouts",
        help="EV as an exact polynomial in the payouts; break-even payouts",
        description="EV of each bet with its payouts left symbolic (sympy), and the payout "
        "of its first paying event that makes it break even.",
    )
    add_shoe_options(p)
    add_bet_options(p)
    add_rules_options(p)
    add_output_options(p)
    p.set_defaults(func=cmd_payouts)

    p = sub.add_parser(
        "midcoup",
        help="insurance odds, known-card edges, Baccarat Gold",
        description="insurance: P(Player, Banker, tie) once both two-card totals are known "
        "(every pair without a natural); known-card-edges: the edge of seeing the "
        "card at each dealing position and betting the better of Player, Banker or "
        "nothing (and Dragon 7, Panda 8); gold: every catalog bet under Baccarat "
        "Gold (or the --rules rule set's Player option) with the Player drawing, "
        "standing or playing best on 5.",
    )
    add_shoe_options(p)
    p.add_argument(
        "--table",
        required=True,
        metavar="NAME",
        type=choice_of("--table", MIDCOUP),
        help="insurance, known-card-edges or gold",
    )
    add_rules_options(p)
    add_output_options(p)
    add_quiet_option(p)
    p.set_defaults(func=cmd_midcoup)

    p = sub.add_parser(
        "report",
        help="regenerate the reports folder",
        description="Regenerate every report (Markdown, CSV, JSON, and charts with the plots "
        "extra) deterministically; with --rules, every report under that rule set "
        "(the gold report plays its Player option every way).",
    )
    p.add_argument(
        "--out",
        default="reports",
        metavar="DIR",
        help="output folder (default reports): new, empty, or one 'baccarat report' wrote",
    )
    add_quiet_option(p)
    p.add_argument(
        "--decks-list",
        default="1,2,4,6,8",
        metavar="LIST",
        type=DECKS_LIST,
        help="shoe sizes of the by-decks report (default 1,2,4,6,8)",
    )
    add_rules_options(p)
    p.set_defaults(func=cmd_report)
