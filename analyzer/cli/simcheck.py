"""``baccarat verify``, ``baccarat check`` and ``baccarat simulate``.

Exit status: 0 when the log / sample passes, 1 when ``verify`` finds a
violation or ``check`` rejects, 2 on bad input (one line ``baccarat: error: ...``).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

from ..core.procedure import parse_burn
from ..io.files import atomic_open, check_not_input
from .options import (
    UsageError,
    add_bet_options,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    bets_from_args,
    catalog_from_args,
    check_outputs,
    cluster_value,
    converter,
    emit,
    fraction,
    jobs_from_args,
    progress_bar,
    shoe_from_args,
    whole,
    write_output,
)
from .rules import add_rules_options

#: The smallest family-wise level: below it the normal quantiles leave double precision.
MIN_ALPHA = Fraction(1, 10**15)
ALPHA = fraction("--alpha", MIN_ALPHA, Fraction(1), "between 1e-15 and 1")
POWER = fraction("--power", Fraction(0), Fraction(1), "between 0 and 1")
DETECT = fraction("--detect", Fraction(0), Fraction(100), "between 0 and 100 percentage points")


def register(sub) -> None:
    v = sub.add_parser(
        "verify",
        help="replay a hand log against the drawing rules and the declared shoe",
        description="Replay every coup of a hand log (CSV or JSON Lines): number of cards, third cards "
        "by the tableau, the reported outcome, and every card against the declared shoe. "
        "Exit status 1 when any rule is broken.",
    )
    v.add_argument(
        "log",
        metavar="LOG",
        help="hand log: CSV with a header, JSON Lines or a JSON array, in any shape 'baccarat check --help' lists",
    )
    add_shoe_options(v)
    add_rules_options(v)
    _add_shape_options(v)
    v.add_argument(
        "--max-violations",
        metavar="N",
        default="50",
        type=whole("--max-violations", 0),
        help="list at most N violations (default 50; 0 lists them all); all are counted",
    )
    add_output_options(v)
    add_quiet_option(v)
    v.set_defaults(func=cmd_verify)

    c = sub.add_parser(
        "check",
        help="test a hand log or tallies against the exact distribution",
        description="Statistical check of a simulator: chi-square of outcomes, cards per coup and final "
        "totals, per-category and per-bet z-scores, with exact expected values, a Holm "
        "correction and a power statement.  A hand log is tested shoe-aware by default "
        "(each coup against the exact distribution of what is left of its shoe); tallies "
        "off the top.  Exit status 1 when the verdict is FAIL.",
    )
    c.add_argument(
        "input",
        metavar="LOG|TALLIES",
        help="hand log (CSV, JSON Lines or a JSON array; per-card columns, ranks or point values, "
        "one object per coup or per shoe: the shape is detected), outcome-only log "
        "(shoe,outcome or bead strings shoe,results) or tallies (CSV with header "
        "category,count,total_return)",
    )
    add_shoe_options(c)
    _add_shape_options(c, check=True)
    add_bet_options(c)
    c.add_argument(
        "--reference",
        metavar="REF",
        default=None,
        help="shoe-aware (default for a hand log) or off-the-top (the only one for tallies)",
    )
    c.add_argument(
        "--alpha", metavar="A", default="0.01", type=ALPHA, help="family-wise significance level (default 0.01)"
    )
    c.add_argument(
        "--power", metavar="P", default="0.9", type=POWER, help="power for the power statement (default 0.9)"
    )
    c.add_argument(
        "--detect",
        metavar="PP",
        default="0.1",
        type=DETECT,
        help="deviation for the power statement, in percentage points of a frequency or of the stake (default 0.1)",
    )
    o = c.add_mutually_exclusive_group()
    o.add_argument(
        "--card-order",
        dest="card_order",
        action="store_const",
        const=True,
        default=None,
        help="test the order of the dealt cards against a uniform shuffle (catches a shoe "
        "shuffled too little) on a value-level log too (a hand log with ranks gets it "
        "by default)",
    )
    o.add_argument(
        "--no-card-order", dest="card_order", action="store_const", const=False, help="leave out the card-order test"
    )
    c.add_argument(
        "--jobs",
        metavar="N",
        default="1",
        type=whole("--jobs", 1),
        help="share the shoe-aware solves among N processes (default 1; same result), or "
        "workers of --cluster local, or tasks per chunk of coups with --scheduler",
    )
    x = c.add_mutually_exclusive_group()
    x.add_argument(
        "--cluster",
        metavar="local",
        type=converter(cluster_value),
        help="compute the shoe-aware sums on a Dask LocalCluster of --jobs worker processes "
        "on 127.0.0.1 (needs the 'cluster' extra; same result)",
    )
    x.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="compute the shoe-aware sums on an existing Dask cluster, e.g. tcp://scheduler.example:8786",
    )
    g = c.add_argument_group("shoe procedure (declaring any of these adds the coups-per-shoe test)")
    g.add_argument(
        "--cut-card",
        metavar="K",
        default=None,
        type=whole("--cut-card", 0),
        help="the simulator's cut card, K cards from the end (as 'simulate --cut-card'; default 14 "
        "when --burn or --after-cut is given)",
    )
    g.add_argument(
        "--burn",
        metavar="RULE",
        nargs="?",
        const="standard",
        default=None,
        type=converter(parse_burn),
        help="the simulator's burn: standard (also plain --burn), N cards face down, or none",
    )
    g.add_argument(
        "--after-cut",
        metavar="0|1",
        default=None,
        type=whole("--after-cut", 0),
        help="coups played after the one in which the cut card comes out (default 0)",
    )
    add_rules_options(c)
    add_output_options(c)
    add_quiet_option(c)
    c.set_defaults(func=cmd_check)

    s = sub.add_parser(
        "simulate",
        help="deal real shoes (seeded) and write a hand log and tallies",
        description="Reference simulator: shuffles the declared shoe with numpy's PCG64 (seeded, "
        "reproducible), deals coups until the cut card comes out, and writes a hand log "
        "and tallies (one unit bet on each selected bet every coup).  Without --log or "
        "--tallies the tallies go to standard output.",
    )
    add_shoe_options(s)
    add_rules_options(s)
    s.add_argument("--shoes", metavar="N", required=True, type=whole("--shoes", 1), help="number of shoes to deal")
    s.add_argument(
        "--seed", metavar="S", required=True, type=whole("--seed", 0), help="seed of the PCG64 generator (whole number)"
    )
    s.add_argument(
        "--cut-card",
        metavar="K",
        default=None,
        type=whole("--cut-card", 0),
        help="the cut card is K cards from the end of the shoe (default 14); the coup in "
        "which it comes out is finished, then a new shoe",
    )
    s.add_argument(
        "--after-cut",
        metavar="0|1",
        default="0",
        type=whole("--after-cut", 0),
        help="coups played after the one in which the cut card comes out (default 0)",
    )
    s.add_argument(
        "--burn",
        metavar="RULE",
        nargs="?",
        const="standard",
        default="none",
        type=converter(parse_burn),
        help="standard (also plain --burn): turn the first card of each shoe face up (column "
        "'seen') and burn as many cards as its value (10 for T/J/Q/K) face down; N: burn "
        "N cards face down; none (default)",
    )
    s.add_argument("--log", metavar="FILE", help="write the hand log (JSON Lines if FILE ends in .jsonl)")
    s.add_argument("--tallies", metavar="FILE", help="write the tallies CSV")
    add_bet_options(s)
    s.add_argument(
        "--fault",
        metavar="FAULT",
        action="append",
        default=[],
        help="break the simulator on purpose, to see the checker catch it: banker-cell=T:P, "
        "with-replacement, biased-shuffle, commission=0.04, extra-card=As, riffles=K",
    )
    add_quiet_option(s)
    s.set_defaults(func=cmd_simulate)


def _add_shape_options(p, check: bool = False) -> None:
    p.add_argument(
        "--columns",
        metavar="ROLE=HEADER,...",
        default=None,
        help="which column (or JSON key) holds what, for a simulator's own names; roles: shoe, "
        "player, banker, p1, p2, p3, b1, b2, b3, outcome, player_total, banker_total, seen, "
        "results (a bead string per shoe).  Without it the shape is detected",
    )
    p.add_argument(
        "--skip-invalid",
        action="store_true",
        help="leave out rows that cannot be read (counted, with the reasons, in the report)"
        if not check
        else "leave out rows that cannot be read, and set aside coups that break the drawing "
        "rules (their cards still leave the shoe); both counted, with the reasons, in the "
        "report",
    )


def _log_bar(args, path):
    """A progress bar over the bytes of the log (a long log is never read in silence)."""
    import os

    try:
        size = os.stat(path).st_size if path != "-" else None
    except OSError:
        size = None
    return progress_bar(size or None, f"reading {Path(path).name}", args.quiet, "B")


def cmd_verify(args) -> int:
    from ..io.tables import csv_text
    from ..simcheck import verify
    from ..simcheck.shapes import shoe_for

    fmt = args.format
    check_outputs(args.output)
    check_not_input(args.output, args.log)
    limit = args.max_violations
    shoe = shoe_from_args(args)
    rules = None
    with _log_bar(args, args.log) as bar:
        bar.unit_scale = True
        from ..simcheck.stream import LogSource

        stream = verify.open_hand_log(
            args.log, args.columns, args.skip_invalid, source=LogSource(args.log, progress=bar.update)
        )
        rules = _play_rules(args, shoe)
        shoe = shoe_for(stream, shoe)
        live = args.output in (None, "-") and fmt in ("md", "csv") and not stream.whole
        started: list[bool] = []

        def start(out=sys.stdout):
            """The first line (md) or the header (csv), once there is something to print."""
            if not started:
                started.append(True)
                out.write(
                    verify.stream_head(args.log, shoe, rules)
                    if fmt == "md"
                    else csv_text([], ["row", "shoe", "rule", "message"])
                )

        def found(v, out=sys.stdout):
            start()
            out.write(str(v) + "\n" if fmt == "md" else csv_text([[v.row, v.shoe, v.rule, v.message]]))
            out.flush()

        rep = verify.replay_stream(
            stream, shoe, rules, None if limit == 0 else limit, found=found if live else None, keep=not live
        )
    total = rep.counts["violations"]
    if live:
        start()
        if fmt == "md":
            emit(verify.stream_tail(rep, rep.counts["shown"], total))
        return 1 if total else 0
    shown = rep.violations
    if fmt == "md":
        text = verify.summary_text(rep, shown, total)
    elif fmt == "json":
        text = verify.replay_json(rep, shown, total)
    else:
        text = verify.replay_csv(rep, shown)
    write_output(text, args.output)
    return 1 if total else 0


def cmd_check(args) -> int:
    from ..simcheck import check

    fmt = args.format
    check_outputs(args.output)
    check_not_input(args.output, args.input)
    jobs = jobs_from_args(args)
    dask = "--cluster" if args.cluster else "--scheduler" if args.scheduler else None
    check.refuse_inapplicable("hands", args.input, reference=args.reference, distributed=dask)
    shoe = shoe_from_args(args)
    procedure = _procedure(args, shoe)
    cat = catalog_from_args(args)
    named = bool(args.bets or args.table)

    def bets(kind: str):
        """Tallies: the bets named (else every bet tallied); a hand log: the bets selected."""
        if kind == "tallies" and not named:
            return None
        return tuple(b.id for b in bets_from_args(args, cat))

    ruled = args.rules is not None or args.player_option is not None
    with _log_bar(args, args.input) as bar:
        bar.unit_scale = True
        report = check.check_input(
            args.input,
            shoe,
            columns=args.columns,
            skip_invalid=args.skip_invalid,
            reference=args.reference,
            bets=bets,
            catalog_obj=cat,
            alpha=args.alpha,
            power=args.power,
            detect=args.detect / 100,
            jobs=jobs,
            runner=lambda: _runner(args, jobs),
            order=args.card_order,
            rules=(lambda played: _play_rules(args, played)) if ruled else None,
            procedure=procedure,
            distributed=dask,
            progress=bar.update,
        )
    out = {"md": check.report_markdown, "json": check.report_json, "csv": check.report_csv}[fmt](report)
    write_output(out, args.output)
    if args.output not in (None, "-"):
        # the report went to a file: its verdict, in one line, where the user is looking
        from ..simcheck.check_format import verdict_sentence

        print(f"check: {verdict_sentence(report).replace('**', '')} (report: {args.output})", file=sys.stderr)
    return 1 if report.failed else 0


def _runner(args, jobs):
    """A Dask runner of the shoe-aware sums (``--cluster`` / ``--scheduler``), opened for the whole
    check, or a context of ``None`` (``check_stream`` forks ``--jobs`` processes itself)."""
    import contextlib

    if not (args.cluster or args.scheduler):
        return contextlib.nullcontext()
    from ..simcheck.distributed import DaskRunner

    return DaskRunner(args.cluster, args.scheduler, jobs)


def cmd_simulate(args) -> int:
    from ..io.interrupt import check_stop
    from ..simcheck.simulate import DEFAULT_CUT_CARD, Faults, simulate

    shoe = shoe_from_args(args)
    shoes, seed, after = args.shoes, args.seed, args.after_cut
    cut = DEFAULT_CUT_CARD if args.cut_card is None else args.cut_card
    burn = args.burn
    rules = _play_rules(args, shoe)
    faults = Faults.parse(args.fault)
    check_outputs(args.log, args.tallies)
    bets = bets_from_args(args)
    log_format = "jsonl" if args.log and Path(args.log).suffix.lower() in (".jsonl", ".ndjson") else "csv"
    if args.log and args.tallies and Path(args.log).resolve() == Path(args.tallies).resolve():
        raise UsageError("--log and --tallies name the same file")
    with progress_bar(shoes, "simulate", args.quiet, "shoes") as bar:

        def tick(n: int) -> None:
            bar.update(n)
            check_stop()  # every 100 shoes: a SIGTERM whose KeyboardInterrupt was swallowed

        if args.log:
            result = _simulate_to_file(
                Path(args.log),
                lambda f: simulate(
                    shoe,
                    shoes,
                    seed,
                    cut,
                    burn,
                    bets,
                    faults,
                    f,
                    log_format,
                    progress=tick,
                    rules=rules,
                    after_cut=after,
                ),
            )
        else:
            result = simulate(shoe, shoes, seed, cut, burn, bets, faults, progress=tick, rules=rules, after_cut=after)
    tallies = result.tallies_csv()
    if args.tallies:
        write_output(tallies, args.tallies)
    elif not args.log:
        emit(tallies)
    if args.log or args.tallies:
        emit(
            f"simulated {result.coups:,} coup{'s' if result.coups != 1 else ''} in {result.shoes:,} "
            f"shoe{'s' if result.shoes != 1 else ''} of "
            f"{shoe.describe()} (seed {seed}, cut card {cut}{_procedure_words(burn, after)}"
            f"{'' if rules.is_default else f', rules {rules.name}'})"
            + (f"; log {args.log}" if args.log else "")
            + (f"; tallies {args.tallies}" if args.tallies else "")
            + "\n"
        )
    return 0


def _procedure(args, shoe):
    """The shoe procedure ``check`` was told (``None`` when none of its options is given)."""
    from ..core.procedure import DEFAULT_CUT, Procedure

    if args.cut_card is None and args.burn is None and args.after_cut is None:
        return None
    cut = DEFAULT_CUT if args.cut_card is None else args.cut_card
    after = 0 if args.after_cut is None else args.after_cut
    return Procedure.create(shoe.cards, args.burn or "none", cut, after)


def _play_rules(args, shoe):
    """The rule set of ``--rules`` / ``--player-option`` for simulate and verify."""
    from .rules import rules_from_args

    return rules_from_args(args, shoe)[0]


def _procedure_words(burn: str, after: int) -> str:
    """The shoe procedure in the summary line: ``, burn`` for the standard burn as before."""
    words = {"none": "", "standard": ", burn"}.get(burn, f", burn {burn} face down")
    return words + (f", {after} coup after the cut card" if after else "")


def _simulate_to_file(path: Path, run):
    """Stream the log into a temporary file beside ``path``, then rename it into place."""
    with atomic_open(path) as f:
        return run(f)
