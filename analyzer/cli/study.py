"""``baccarat study``: exact perfect-play and counting figures over dealt shoes.

The computation lives in :mod:`analyzer.studies` (:func:`~analyzer.studies.run_study`),
the text of the result in :mod:`analyzer.studies.format` and the chart in
:mod:`analyzer.studies.charts`; this module parses options, shows progress on
stderr and writes the outputs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..core.cards import parse_rank
from ..core.procedure import parse_burn
from .options import (
    Given,
    UsageError,
    add_bet_options,
    add_output_options,
    add_shoe_options,
    bets_from_args,
    check_outputs,
    cluster_value,
    converter,
    jobs_from_args,
    progress_bar,
    shoe_from_args,
    whole,
    write_output,
)

DESCRIPTION = """\
Deal shuffled shoes to the cut card and, before every coup, compute each selected
bet's exact EV on the cards left.  Reports per bet how often the EV is positive,
the average edge then, the expected win per shoe of a player who bets one unit
exactly when the EV is positive ("perfect play"), the EV by depth in the shoe,
and what a linear count (tags from the effects of removal, or --tags) captures
at its best true-count trigger.  Shoe i is shuffled with numpy PCG64 seeded by
SeedSequence([seed, i]), so the numbers do not depend on --jobs, the cluster or
the chunking; finished chunks are saved and an interrupted study resumes when
the same command is run again."""


def register(sub) -> None:
    from ..studies.params import CHUNK_SHOES

    p = sub.add_parser(
        "study", help="exact perfect-play and card-counting study over dealt shoes", description=DESCRIPTION
    )
    add_shoe_options(p)
    add_bet_options(p)
    from .rules import add_rules_options

    add_rules_options(p)
    g = p.add_argument_group("study")
    g.add_argument(
        "--shoes", default="1000", metavar="N", type=whole("--shoes", 1), help="number of shoes to deal (default 1000)"
    )
    g.add_argument(
        "--seed", default="1", metavar="S", type=whole("--seed", 0), help="seed, a whole number >= 0 (default 1)"
    )
    g.add_argument(
        "--cut-card",
        default="14",
        metavar="C",
        type=whole("--cut-card", 0),
        help="cards behind the cut card (default 14); a coup starts only while at least C "
        "cards remain, and the coup in which the cut card comes out is finished",
    )
    g.add_argument(
        "--after-cut",
        default="0",
        metavar="0|1",
        type=whole("--after-cut", 0),
        help="coups played after the one in which the cut card comes out (default 0)",
    )
    g.add_argument(
        "--burn",
        default="none",
        metavar="RULE",
        type=converter(parse_burn),
        help="none (default); standard: the first card is shown and as many cards as its "
        "value (10 for T J Q K) are burnt unseen; N: N cards burnt unseen",
    )
    g.add_argument(
        "--count",
        metavar="BETS",
        type=count_value,
        help="bets to study with a linear count, comma separated, or 'none' (default: every selected bet)",
    )
    g.add_argument(
        "--tags",
        metavar="[BET:]TAGS",
        action="append",
        default=[],
        type=converter(tags_value),
        help="count tags, e.g. 'dragon7:A=0,2=0,3=0,4=-1,5=-1,6=-1,7=-1,8=2,9=2' (ranks not "
        "named count 0); without BET: for the one counted bet.  Default: tags from the "
        "effects of removal.  May be repeated",
    )
    g.add_argument(
        "--depth-step",
        default="52",
        metavar="CARDS",
        type=whole("--depth-step", 1),
        help="width of the depth buckets of the EV distribution, in cards seen (default 52)",
    )
    r = p.add_argument_group("running")
    r.add_argument(
        "--jobs",
        default="1",
        metavar="N",
        type=whole("--jobs", 1),
        help="local processes (default 1), or workers of --cluster local",
    )
    x = r.add_mutually_exclusive_group()
    x.add_argument(
        "--cluster",
        metavar="local",
        type=converter(cluster_value),
        help="run the chunks on a Dask LocalCluster of --jobs worker processes on 127.0.0.1 "
        "(needs the 'cluster' extra)",
    )
    x.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the chunks on an existing Dask cluster, e.g. tcp://scheduler.example:8786",
    )
    r.add_argument(
        "--chunk-shoes",
        default=str(CHUNK_SHOES),
        metavar="N",
        type=whole("--chunk-shoes", 1),
        help=f"shoes per chunk of work and per saved state file (default {CHUNK_SHOES}); "
        "the numbers do not depend on it",
    )
    s = r.add_mutually_exclusive_group()
    s.add_argument(
        "--state",
        metavar="DIR",
        help="where finished chunks are saved and resumed from (default .baccarat-study/<key of the study>)",
    )
    s.add_argument("--no-state", action="store_true", help="do not save chunks (no resume)")
    r.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    o = p.add_argument_group("output")
    o.add_argument("--chart", metavar="FILE.png", help="draw the EV by depth and the count curves (needs matplotlib)")
    o.add_argument(
        "--trace", metavar="FILE.csv", help="also write every coup's remaining shoe and exact EVs (at most 1000 shoes)"
    )
    add_output_options(p)
    p.set_defaults(func=cmd_study)


# ----------------------------------------------------------------------------- options
def tags_value(text: str) -> Given:
    """``--tags [BET:]TAGS`` as given, its value :func:`parse_tags` of it."""
    return Given(text, parse_tags(text))


def count_value(text: str) -> tuple[str, ...]:
    """``--count BETS``: the bets studied with a linear count, comma separated (empty items
    dropped), or ``none``: no bet.

    >>> count_value("dragon7, panda8,"), count_value(" none ")
    (('dragon7', 'panda8'), ())
    """
    t = text.strip()
    return () if t == "none" else tuple(c.strip() for c in t.split(",") if c.strip())


def parse_tags(text: str) -> tuple[str | None, dict[str, int]]:
    """``[BET:]A=0,2=1,...`` -> (bet id or None, {rank: tag}).

    >>> parse_tags("dragon7:8=2,9=2,4=-1")
    ('dragon7', {'8': 2, '9': 2, '4': -1})
    """
    bet: str | None
    bet, sep, spec = text.partition(":")
    if not sep:
        bet, spec = None, text
    else:
        bet = bet.strip()
        if not bet:
            raise UsageError(f"malformed --tags {text!r}: empty bet id before ':'")
    tags: dict[str, int] = {}
    items = [i.strip() for i in spec.split(",") if i.strip()]
    if not items:
        raise UsageError(f"malformed --tags {text!r}: give RANK=TAG items, e.g. 8=2,9=2,4=-1")
    for item in items:
        rank, eq, value = item.partition("=")
        rank, value = rank.strip(), value.strip()
        if not eq or not rank or not re.fullmatch(r"[+-]?[0-9]+", value):
            raise UsageError(f"malformed --tags item {item!r}: write RANK=TAG with a whole-number tag")
        r = parse_rank(rank)
        if r in tags:
            raise UsageError(f"--tags gives rank {r} twice")
        tags[r] = int(value)
    return bet, tags


def params_from_args(args):
    from ..studies import StudyParams

    shoe = shoe_from_args(args)
    bets = bets_from_args(args)
    bet_ids = [b.id for b in bets]
    bets_toml = None
    if getattr(args, "bets_file", None):
        from ..bets.catalog import MAX_BETS_FILE_BYTES, catalog
        from ..io.files import read_text

        if any(b not in catalog().bets for b in bet_ids):
            bets_toml = read_text(args.bets_file, "bets file", MAX_BETS_FILE_BYTES)
    count = None if args.count is None else list(args.count)
    counted = list(bet_ids if count is None else count)
    tags: dict[str, dict[str, int]] = {}
    for spec in args.tags:
        bet, t = spec.value
        if bet is None:
            if len(counted) != 1:
                raise UsageError(
                    "--tags without a bet id needs exactly one counted bet; write "
                    f"--tags BET:{spec} (counted: {', '.join(counted) or 'none'})"
                )
            bet = counted[0]
        if bet in tags:
            raise UsageError(f"--tags given twice for {bet!r}")
        tags[bet] = t
    return StudyParams.create(
        shoe,
        shoes=args.shoes,
        seed=args.seed,
        cut_card=args.cut_card,
        bet_ids=bet_ids,
        bets_toml=bets_toml,
        tags=tags,
        count=count,
        depth_step=args.depth_step,
        chunk_shoes=args.chunk_shoes,
        burn=args.burn,
        rules_toml=_study_rules(args),
        after_cut=args.after_cut,
    )


def _study_rules(args) -> str | None:
    """``--rules`` / ``--player-option`` as a rules file's text (``None`` for Punto Banco)."""
    from ..bets.rules_files import rules_toml
    from .rules import rules_from_args

    if getattr(args, "player_option", None) == "best":
        raise UsageError("study: --player-option best depends on the cards left, coup by coup; study draw or stand")
    rules, _ = rules_from_args(args)
    return None if rules.is_default else rules_toml(rules)


class _StudyBar:
    """The study's progress (a status dict per finished chunk) on a tqdm bar of shoes."""

    def __init__(self, bar):
        self.bar = bar
        self.summary = False

    def __call__(self, status: dict) -> None:
        if self.bar.disable:
            return
        if status.get("stage") == "summary":
            if not self.summary:
                self.summary = True
                self.bar.reset(total=status["bets_total"])
                self.bar.unit = "bets"
                self.bar.set_description("study: exact figures", refresh=False)
            self.bar.update(status["bets_done"] - self.bar.n)
            return
        if self.bar.total is None:
            self.bar.reset(total=status["shoes_total"])
        # in-process, a chunk reports its shoes as they are priced (fractions of a shoe)
        self.bar.update(round(status["shoes_done"], 2) - self.bar.n)
        if status["reused"]:
            self.bar.set_postfix_str(f"{status['reused']} chunks resumed", refresh=False)


def series_from_args(args) -> list:
    """The series bets named (:mod:`analyzer.studies.series`), checked with the options:
    a study of series bets names series bets only and none of the options of the EV study."""
    series: list = []
    bets = bets_from_args(args, series=series)
    if not series:
        return series
    if bets:
        raise UsageError(
            "study: name series bets alone (a study of series bets settles them over dealt "
            f"shoes; study {', '.join(b.id for b in bets)} in another run)"
        )
    for flag, given in (
        ("--count", args.count is not None),
        ("--tags", bool(args.tags)),
        ("--trace", args.trace),
        ("--chart", args.chart),
        ("--cluster", args.cluster),
        ("--scheduler", args.scheduler),
        ("--state", args.state),
        ("--jobs", jobs_from_args(args) != 1),
    ):
        if given:
            raise UsageError(
                f"study: {flag} does not apply to series bets (they are settled in one process, without saved chunks)"
            )
    from ..studies.series import check_series_study

    check_series_study(series)
    return series


def cmd_series_study(args, series) -> int:
    """``study --bets SERIES``: series bets placed at every eligible coup of dealt shoes."""
    from ..studies import StudyParams
    from ..studies.series import series_study, series_study_csv, series_study_dict, series_study_markdown

    check_outputs(args.output)
    params = StudyParams.create(
        shoe_from_args(args),
        shoes=args.shoes,
        seed=args.seed,
        cut_card=args.cut_card,
        bet_ids=("banker",),
        count=[],
        chunk_shoes=args.chunk_shoes,
        burn=args.burn,
        rules_toml=_study_rules(args),
        after_cut=args.after_cut,
    )
    with progress_bar(params.shoes, "study: series bets", args.quiet, "shoes") as bar:
        studies = series_study(params, series, progress=lambda done: bar.update(done - bar.n))
    if args.format == "json":
        from ..io.tables import json_text

        text = json_text(series_study_dict(params, studies))
    else:
        text = {"md": series_study_markdown, "csv": series_study_csv}[args.format](params, studies)
    write_output(text, args.output)
    return 0


def cmd_study(args) -> int:
    series = series_from_args(args)
    if series:
        return cmd_series_study(args, series)
    from ..io.files import atomic_write
    from ..studies import default_state_dir, run_study, trace_shoe
    from ..studies.charts import write_chart
    from ..studies.format import study_csv, study_json, study_markdown, trace_csv

    fmt = args.format
    params = params_from_args(args)
    jobs = jobs_from_args(args)
    check_outputs(args.output, args.chart, args.trace)
    if args.trace and params.shoes > 1000:
        raise UsageError("--trace writes every coup: use it with at most 1000 shoes")
    state = None if args.no_state else Path(args.state) if args.state else default_state_dir(params)
    try:
        with progress_bar(params.shoes, "study", args.quiet, "shoes") as bar:
            result = run_study(
                params,
                jobs=jobs,
                cluster=args.cluster,
                scheduler=args.scheduler,
                state_dir=state,
                progress=_StudyBar(bar),
            )
    except KeyboardInterrupt:
        if state is not None:
            saved = len(list(Path(state).glob("chunk-*.json"))) if Path(state).is_dir() else 0
            print(
                f"study: interrupted; {saved} finished chunk(s) are saved in {state}: "
                "run the same command again to resume",
                file=sys.stderr,
            )
        raise
    if (args.cluster or args.scheduler) and not result.run["chunks_computed"]:
        # the cluster was asked for but had nothing to do: say so rather than let "in-process" surprise
        print(
            f"study: all {result.run['chunks']} chunk(s) were already in {state}: nothing was sent to "
            f"the {'cluster' if args.cluster else 'scheduler'}",
            file=sys.stderr,
        )
    chart = None
    if args.chart:
        chart = write_chart(result, Path(args.chart))
        if chart.startswith("skipped"):
            print(f"study: chart {chart}", file=sys.stderr)
    if args.trace:
        traces = (trace_shoe(params, i) for i in range(params.shoes))
        atomic_write(Path(args.trace), trace_csv(params, traces))
    text = {"md": study_markdown, "csv": study_csv, "json": study_json}[fmt](result, chart=chart)
    write_output(text, args.output)
    return 0


__all__ = ["register", "cmd_study", "parse_tags", "params_from_args"]
