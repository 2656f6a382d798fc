"""``baccarat runs``: the longest run of each outcome and the runs of at least k in a shoe.

The exact computation is :func:`analyzer.reports.runs.runs`, the dealt shoes
:func:`analyzer.studies.runs.deal_runs`, the documents and the chart
:mod:`analyzer.reports.runs_tables`; this module parses, shows progress and writes.
"""

from __future__ import annotations

import sys

from .options import (
    UsageError,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    check_outputs,
    converter,
    png_file,
    progress_bar,
    shoe_from_args,
    whole,
    write_output,
)

DESCRIPTION = """\
For a shoe, the exact distribution of the longest run of each outcome and of the number
of runs of at least k among --coups N independent coups (each an independent deal from
the full shoe, off the top), and the streaks from a starting point (Wizard of Odds'
baccarat appendix 4).  With --shoes N, also shoes shuffled and dealt to the cut card as
'baccarat study' deals them, their means with 95% intervals beside the exact
independent-coups figure for the same numbers of coups.  Ties: 'ends' (a Tie ends a
Player or Banker run, default) or 'ignored' (ties removed from the sequence, as
appendix 4)."""

TIES = {"ends": "tie-ends", "ignored": "ties-ignored"}
#: the exact work of the dealt shoes' comparison is one exact computation per number of coups
#: a dealt shoe had: refused when the longest possible shoe's estimate times this passes 30 s
COUPS_SPREAD = 25


def ties_value(text: str) -> str:
    """``--ties ends|ignored`` -> the convention of :mod:`analyzer.reports.runs`."""
    t = text.strip().lower()
    if t not in TIES:
        raise UsageError(f"unknown --ties {text!r} (choose from {', '.join(TIES)})")
    return TIES[t]


def at_least_value(text: str) -> tuple[int, ...]:
    """``--at-least 3`` or ``2,3,6``: the run lengths k (1 .. 100), or ``none``.

    >>> at_least_value("3, 6,3"), at_least_value("none")
    ((3, 6), ())
    """
    from ..reports.runs import MAX_K
    from .options import whole_number

    t = text.strip()
    if t.lower() == "none":
        return ()
    items = [i.strip() for i in t.split(",")]
    if not t or any(not i for i in items):
        raise UsageError(f"--at-least must be run lengths such as 3 or 2,3,6 (or none), got {text!r}")
    if len(items) > 10:
        raise UsageError(f"--at-least names {len(items)} run lengths: at most 10")
    return tuple(dict.fromkeys(whole_number("--at-least", i, 1, MAX_K) for i in items))


def register(sub) -> None:
    from ..core.procedure import parse_burn
    from ..reports.runs import MAX_COUPS
    from ..studies.runs import MAX_SHOES
    from .rules import add_rules_options

    p = sub.add_parser(
        "runs", help="exact longest runs and runs of at least k in a shoe; dealt shoes beside", description=DESCRIPTION
    )
    add_shoe_options(p)
    add_rules_options(p)
    g = p.add_argument_group("runs")
    g.add_argument(
        "--coups",
        metavar="N",
        type=whole("--coups", 1, MAX_COUPS),
        help="independent coups in the shoe (e.g. 80 for 8 decks; default with --shoes: the dealt shoes' median)",
    )
    g.add_argument(
        "--ties",
        default="ends",
        metavar="ends|ignored",
        type=converter(ties_value),
        help="ends: a Tie ends a Player or Banker run (default); ignored: ties removed (appendix 4)",
    )
    g.add_argument(
        "--at-least",
        default="3",
        metavar="K[,K...]",
        type=converter(at_least_value),
        help="run lengths k for the number of runs of k or more (default 3; 'none')",
    )
    d = p.add_argument_group("dealt shoes")
    d.add_argument(
        "--shoes",
        metavar="N",
        type=whole("--shoes", 1, MAX_SHOES),
        help="also deal N shuffled shoes to the cut card (as 'baccarat study')",
    )
    d.add_argument("--seed", default="1", metavar="S", type=whole("--seed", 0), help="seed (default 1)")
    d.add_argument(
        "--cut-card",
        default="14",
        metavar="C",
        type=whole("--cut-card", 0),
        help="cards behind the cut card (default 14)",
    )
    d.add_argument(
        "--after-cut",
        default="0",
        metavar="0|1",
        type=whole("--after-cut", 0),
        help="coups played after the one in which the cut card comes out (default 0)",
    )
    d.add_argument(
        "--burn",
        default="none",
        metavar="RULE",
        type=converter(parse_burn),
        help="none (default), standard, or N cards burnt unseen",
    )
    p.add_argument(
        "--chart",
        metavar="FILE.png",
        type=converter(png_file),
        help="draw the distribution of the longest run (needs matplotlib)",
    )
    add_quiet_option(p)
    add_output_options(p)
    p.set_defaults(func=cmd_runs)


def cmd_runs(args) -> int:
    from ..bets.pricing import analyze
    from ..reports import runs_tables as docs
    from ..reports.charts import available
    from ..reports.runs import MAX_COUPS, CoupWays, check_question, estimate_seconds, runs

    check_outputs(args.output, args.chart)
    if args.coups is None and args.shoes is None:
        raise UsageError("give --coups N (the coups of a shoe, e.g. 80 for 8 decks) or --shoes N (deal shoes)")
    if args.shoes is None:
        given = [
            o
            for o, v, default in (
                ("--seed", args.seed, 1),
                ("--cut-card", args.cut_card, 14),
                ("--after-cut", args.after_cut, 0),
                ("--burn", args.burn, "none"),
            )
            if v != default
        ]
        if given:
            raise UsageError(
                f"{given[0]} says how shoes are dealt: give --shoes N too (the exact figures of "
                "--coups are for independent coups, with no cut card or burn)"
            )
    shoe = shoe_from_args(args)
    if getattr(args, "player_option", None) == "best":
        raise UsageError("runs: --player-option best depends on the cards left, coup by coup; give draw or stand")
    from ..bets.rules_files import rules_toml as toml_of
    from .rules import rules_from_args

    rules, _ = rules_from_args(args, shoe)
    rules = None if rules.is_default else rules
    rules_toml = None if rules is None else toml_of(rules)  # the dealt shoes' rules, as the study's
    ways = CoupWays.of(analyze(shoe, rules=rules))
    convention, at_least = args.ties, args.at_least
    if args.coups is not None:
        check_question(ways, args.coups, at_least, convention)  # one line, before any work
    dealt_summary = None
    coups = args.coups
    if args.shoes is not None:
        from ..core.procedure import Procedure
        from ..studies.runs import deal_runs, dealt_summary as summary, independent_for

        Procedure.create(shoe.cards, args.burn, args.cut_card, args.after_cut)  # one line, before any work
        longest_shoe = shoe.cards // 4 + 1
        if longest_shoe > MAX_COUPS or estimate_seconds(ways, longest_shoe, at_least, convention) * COUPS_SPREAD > 30:
            raise UsageError(
                f"a shoe of {shoe.cards:,} cards can deal up to {longest_shoe:,} coups: too many "
                "for the exact comparison of dealt shoes (give a smaller shoe, or --coups "
                "without --shoes)"
            )
        with progress_bar(args.shoes, "runs: dealing", args.quiet, unit="shoe") as bar:
            dealt = deal_runs(
                shoe,
                args.shoes,
                args.seed,
                args.cut_card,
                args.burn,
                args.after_cut,
                rules_toml,
                at_least,
                convention,
                progress=bar.update,
            )
        dealt_summary = summary(dealt, independent_for(dealt, ways))
        if coups is None:
            coups = int(sorted(dealt.coups.tolist())[len(dealt.coups) // 2])
    result = runs(ways, coups, at_least, convention, shoe=shoe.describe())
    rules_text = None if rules is None else rules.describe()
    chart = None
    if args.chart:
        if available():
            docs.runs_chart(
                result, f"Longest run: {shoe.describe()}, {coups:,} coups, {convention}", args.chart, dealt_summary
            )
            chart = args.chart
        else:
            print("runs: chart skipped: matplotlib is not installed (pip install '.[plots]')", file=sys.stderr)
    if args.format == "md":
        text = docs.runs_markdown(result, dealt_summary, chart=chart, rules=rules_text)
    else:
        text = {"csv": docs.runs_csv, "json": docs.runs_json}[args.format](result, dealt_summary, rules=rules_text)
    write_output(text, args.output)
    return 0


__all__ = ["register", "cmd_runs", "at_least_value", "ties_value"]
