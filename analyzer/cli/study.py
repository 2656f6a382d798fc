"""``baccarat study``: exact perfect-play and counting figures over dealt shoes.

The computation lives in :mod:`analyzer.studies.study`; this module parses options,
shows progress on stderr and renders Markdown, CSV, JSON and a chart.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import sys
import time
from fractions import Fraction
from pathlib import Path

from ..core.cards import RANKS, parse_rank
from .options import (UsageError, add_bet_options, add_output_options, add_shoe_options, bets_from_args,
                  check_format, shoe_from_args, write_output)

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
    from ..studies.study import CHUNK_SHOES
    p = sub.add_parser("study", help="exact perfect-play and card-counting study over dealt shoes",
                       description=DESCRIPTION)
    add_shoe_options(p)
    add_bet_options(p)
    g = p.add_argument_group("study")
    g.add_argument("--shoes", default="1000", metavar="N", help="number of shoes to deal (default 1000)")
    g.add_argument("--seed", default="1", metavar="S", help="seed, a whole number >= 0 (default 1)")
    g.add_argument("--cut-card", default="14", metavar="C",
                   help="cards behind the cut card (default 14); a coup starts only while at least C "
                        "cards remain, and the coup in which the cut card comes out is finished")
    g.add_argument("--burn", default="none", metavar="RULE",
                   help="none (default) or standard: the first card is shown and as many cards as its "
                        "value (10 for T J Q K) are burnt unseen")
    g.add_argument("--count", metavar="BETS",
                   help="bets to study with a linear count, comma separated, or 'none' "
                        "(default: every selected bet)")
    g.add_argument("--tags", metavar="[BET:]TAGS", action="append", default=[],
                   help="count tags, e.g. 'dragon7:A=0,2=0,3=0,4=-1,5=-1,6=-1,7=-1,8=2,9=2' (ranks not "
                        "named count 0); without BET: for the one counted bet.  Default: tags from the "
                        "effects of removal.  May be repeated")
    g.add_argument("--depth-step", default="52", metavar="CARDS",
                   help="width of the depth buckets of the EV distribution, in cards seen (default 52)")
    r = p.add_argument_group("running")
    r.add_argument("--jobs", default="1", metavar="N",
                   help="local processes (default 1), or workers of --cluster local")
    x = r.add_mutually_exclusive_group()
    x.add_argument("--cluster", metavar="local",
                   help="run the chunks on a Dask LocalCluster of --jobs worker processes on 127.0.0.1 "
                        "(needs the 'cluster' extra)")
    x.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on an existing Dask cluster, e.g. tcp://scheduler.example:8786")
    r.add_argument("--chunk-shoes", default=str(CHUNK_SHOES), metavar="N",
                   help=f"shoes per chunk of work and per saved state file (default {CHUNK_SHOES}); "
                        "the numbers do not depend on it")
    s = r.add_mutually_exclusive_group()
    s.add_argument("--state", metavar="DIR",
                   help="where finished chunks are saved and resumed from "
                        "(default .baccarat-study/<key of the study>)")
    s.add_argument("--no-state", action="store_true", help="do not save chunks (no resume)")
    r.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    o = p.add_argument_group("output")
    o.add_argument("--chart", metavar="FILE.png",
                   help="draw the EV by depth and the count curves (needs matplotlib)")
    o.add_argument("--trace", metavar="FILE.csv",
                   help="also write every coup's remaining shoe and exact EVs (at most 1000 shoes)")
    add_output_options(p)
    p.set_defaults(func=cmd_study)


# ----------------------------------------------------------------------------- options
def _whole(option: str, text: str, lo: int) -> int:
    t = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise UsageError(f"{option} must be a whole number, got {text!r}")
    v = int(t)
    if v < lo:
        raise UsageError(f"{option} must be at least {lo}, got {v}")
    return v


def parse_tags(text: str) -> tuple[str | None, dict[str, int]]:
    """``[BET:]A=0,2=1,...`` -> (bet id or None, {rank: tag}).

    >>> parse_tags("dragon7:8=2,9=2,4=-1")
    ('dragon7', {'8': 2, '9': 2, '4': -1})
    """
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
    from ..studies.study import StudyParams
    shoe = shoe_from_args(args)
    bets = bets_from_args(args)
    bet_ids = [b.id for b in bets]
    bets_toml = None
    if getattr(args, "bets_file", None):
        from ..bets.catalog import catalog
        if any(b not in catalog().bets for b in bet_ids):
            bets_toml = Path(args.bets_file).read_text(encoding="utf-8")
    count = None
    if args.count is not None:
        text = args.count.strip()
        count = [] if text == "none" else [c.strip() for c in text.split(",") if c.strip()]
    counted = list(bet_ids if count is None else count)
    tags: dict[str, dict[str, int]] = {}
    for spec in args.tags:
        bet, t = parse_tags(spec)
        if bet is None:
            if len(counted) != 1:
                raise UsageError("--tags without a bet id needs exactly one counted bet; write "
                                 f"--tags BET:{spec} (counted: {', '.join(counted) or 'none'})")
            bet = counted[0]
        if bet in tags:
            raise UsageError(f"--tags given twice for {bet!r}")
        tags[bet] = t
    return StudyParams.create(
        shoe, shoes=_whole("--shoes", args.shoes, 1), seed=_whole("--seed", args.seed, 0),
        cut_card=_whole("--cut-card", args.cut_card, 0), bet_ids=bet_ids, bets_toml=bets_toml,
        tags=tags, count=count, depth_step=_whole("--depth-step", args.depth_step, 1),
        chunk_shoes=_whole("--chunk-shoes", args.chunk_shoes, 1), burn=args.burn)


class Progress:
    """Progress lines on stderr: rewritten in place on a terminal, else every few seconds."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.last = 0.0

    def __call__(self, s: dict) -> None:
        now = time.monotonic()
        final = s["shoes_done"] >= s["shoes_total"]
        if not final and now - self.last < (0.5 if self.tty else 5.0) and s["computed"]:
            return
        self.last = now
        rate = s["shoes_computed"] / s["elapsed"] if s["elapsed"] > 0 and s["shoes_computed"] else None
        line = (f"study: {s['computed'] + s['reused']}/{s['chunks']} chunks, "
                f"{s['shoes_done']:,}/{s['shoes_total']:,} shoes")
        if s["reused"]:
            line += f" ({s['reused']} chunks resumed)"
        if rate:
            left = (s["shoes_total"] - s["shoes_done"]) / rate
            line += f", {rate:,.0f} shoes/s, about {left:,.0f} s left"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def cmd_study(args) -> int:
    from ..studies.study import default_state_dir, run_study
    fmt = check_format(args.format)
    params = params_from_args(args)
    jobs = _whole("--jobs", args.jobs, 1)
    if args.cluster is not None and args.cluster != "local":
        raise UsageError(f"--cluster must be 'local' (for a running cluster use --scheduler ADDRESS), "
                         f"got {args.cluster!r}")
    if args.trace and params.shoes > 1000:
        raise UsageError("--trace writes every coup: use it with at most 1000 shoes")
    state = None if args.no_state else Path(args.state) if args.state else default_state_dir(params)
    try:
        result = run_study(params, jobs=jobs, cluster=args.cluster, scheduler=args.scheduler,
                           state_dir=state, progress=None if args.quiet else Progress())
    except KeyboardInterrupt:
        if state is not None:
            saved = len(list(Path(state).glob("chunk-*.json"))) if Path(state).is_dir() else 0
            print(f"study: interrupted; {saved} finished chunk(s) are saved in {state}: "
                  "run the same command again to resume", file=sys.stderr)
        raise
    chart = None
    if args.chart:
        chart = write_chart(result, Path(args.chart))
        if chart.startswith("skipped"):
            print(f"study: chart {chart}", file=sys.stderr)
    if args.trace:
        write_trace(params, Path(args.trace))
    text = {"md": study_markdown, "csv": study_csv, "json": study_json}[fmt](result, chart=chart)
    write_output(text, args.output)
    return 0


# ----------------------------------------------------------------------------- rendering
def ex(x) -> str | None:
    if x is None:
        return None
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def fl(x) -> float | None:
    return None if x is None else float(x)


def pct(x, digits: int = 4) -> str:
    return "-" if x is None else f"{float(x) * 100:.{digits}f}%"


def num(x, digits: int = 4) -> str:
    return "-" if x is None else f"{float(x):.{digits}f}"


def _md(rows, headers, align=None) -> str:
    from tabulate import tabulate
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True, colalign=align)


CONVENTIONS = ("Shoe *i* is shuffled by numpy PCG64 seeded with SeedSequence([seed, *i*]); "
               "coups follow the drawing rules of RULES.md; a coup starts only while at least "
               "cut-card cards remain, and the coup in which the cut card comes out is finished. "
               "Before every coup each bet's EV is computed exactly on the cards not yet seen.")


def study_dict(res, chart: str | None = None) -> dict:
    """The JSON document (exact values as ``"p/q"``, a ``*_float`` beside each)."""
    p = res.params
    shoe = p.start_shoe()
    doc = {
        "study": {"shoe": {"cards": shoe.cards, "counts": shoe.rank_counts, "suited": shoe.suited,
                           "decks": shoe.decks},
                  "shoes": res.shoes, "seed": p.seed, "cut_card": p.cut_card, "burn": p.burn,
                  "bets": list(p.bet_ids), "depth_step": p.depth_step, "chunk_shoes": p.chunk_shoes,
                  "key": p.key(), "conventions": CONVENTIONS},
        "coups": res.coups,
        "coups_per_shoe": ex(Fraction(res.coups, res.shoes)),
        "coups_per_shoe_float": res.coups / res.shoes,
        "coups_by_cards_left": {str(n): c for n, c in res.coups_by_left.items()},
        "bets": {},
    }
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        d = {"name": b["bet"].name,
             "full_shoe_ev": ex(b["full_shoe_ev"]), "full_shoe_ev_float": fl(b["full_shoe_ev"]),
             "mean_ev": ex(b["mean_ev"]), "mean_ev_float": fl(b["mean_ev"]),
             "perfect_play": {
                 "positive_coups": pp["positive_coups"],
                 "positive_fraction": ex(pp["positive_fraction"]),
                 "positive_fraction_float": fl(pp["positive_fraction"]),
                 "bets_per_shoe": ex(pp["bets_per_shoe"]), "bets_per_shoe_float": fl(pp["bets_per_shoe"]),
                 "avg_edge_when_positive": ex(pp["avg_edge_when_positive"]),
                 "avg_edge_when_positive_float": fl(pp["avg_edge_when_positive"]),
                 "win_per_shoe": ex(pp["win_per_shoe"]), "win_per_shoe_float": fl(pp["win_per_shoe"]),
                 "win_per_shoe_sd_float": _finite(pp["win_per_shoe_sd"]),
                 "win_per_shoe_se_float": _finite(pp["win_per_shoe_se"])},
             "by_depth": [{
                 "cards_seen_from": r["cards_dealt_from"], "cards_seen_to": r["cards_dealt_to"],
                 "coups": r["coups"], "positive": r["positive"],
                 "mean_ev": ex(r["mean_ev"]), "mean_ev_float": fl(r["mean_ev"]), "sd_float": r["sd"],
                 "quantiles": {k: [ex(lo), ex(hi)] for k, (lo, hi) in r["quantiles"].items()},
                 "quantiles_float": {k: [fl(lo), fl(hi)] for k, (lo, hi) in r["quantiles"].items()},
                 "min_bin": ex(r["min_bin"]), "max_bin": ex(r["max_bin"]),
                 "histogram": {str(k): v for k, v in r["histogram"].items()}} for r in b["by_depth"]],
             "histogram_bin_width": "1/" + str(_bins()),
             "mean_ev_by_cards_left": {str(n): ex(v) for n, v in b["mean_ev_by_cards_left"].items()},
             "count": None}
        c = b["count"]
        if c is not None:
            d["count"] = {
                "tags": c["tags"], "source": c["source"], "correlation_float": c["correlation"],
                "effects_vanish": c["effects_vanish"],
                "best_trigger": None if c["best"] is None else c["best"]["trigger"],
                "curve": [_curve_row(r) for r in c["curve"]]}
            d["count"]["best"] = None if c["best"] is None else _curve_row(c["best"])
        doc["bets"][bet_id] = d
    if chart is not None:
        doc["chart"] = chart
    doc["run"] = res.run
    return doc


def _bins() -> int:
    from ..studies.study import HIST_BINS_PER_UNIT
    return HIST_BINS_PER_UNIT


def _finite(x: float) -> float | None:
    return x if isinstance(x, float) and math.isfinite(x) else None


def _curve_row(r: dict) -> dict:
    return {"trigger": r["trigger"], "bets": r["bets"], "positive_bets": r["positive_bets"],
            "bets_per_shoe": ex(r["bets_per_shoe"]), "bets_per_shoe_float": fl(r["bets_per_shoe"]),
            "avg_edge": ex(r["avg_edge"]), "avg_edge_float": fl(r["avg_edge"]),
            "win_per_shoe": ex(r["win_per_shoe"]), "win_per_shoe_float": fl(r["win_per_shoe"]),
            "share_of_perfect_play": ex(r["share_of_perfect_play"]),
            "share_of_perfect_play_float": fl(r["share_of_perfect_play"])}


def study_json(res, chart: str | None = None) -> str:
    return json.dumps(study_dict(res, chart), indent=1) + "\n"


def study_markdown(res, chart: str | None = None) -> str:
    p = res.params
    shoe = p.start_shoe()
    out = [f"# Shoe study: {shoe.describe()}, {res.shoes:,} shoes", ""]
    out.append(f"Seed {p.seed}, cut card {p.cut_card} cards from the end, burn: {p.burn}; "
               f"{res.coups:,} coups ({res.coups / res.shoes:.3f} a shoe), each solved exactly. "
               + CONVENTIONS)
    run = res.run
    if run:
        rate = f", {run['shoes_per_s']:,.1f} shoes/s" if run.get("shoes_per_s") else ""
        out.append("")
        out.append(f"Run: {run['engine']}, {run['chunks']} chunks ({run['chunks_reused']} resumed, "
                   f"{run['chunks_computed']} computed) in {run['elapsed_s']:.1f} s{rate}"
                   + (f"; state in `{run['state_dir']}`" if run.get("state_dir") else "") + ".")
    out += ["", "## Perfect play", "",
            "A player who bets one unit exactly when the bet's EV on the remaining shoe is positive.", ""]
    rows = []
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        se = pp["win_per_shoe_se"]
        rows.append([bet_id, pct(b["full_shoe_ev"]), str(pp["positive_coups"]), pct(pp["positive_fraction"]),
                     num(pp["bets_per_shoe"], 3), pct(pp["avg_edge_when_positive"]),
                     num(pp["win_per_shoe"], 4) + ("" if not math.isfinite(se) else f" ± {se:.4f}")])
    out.append(_md(rows, ["bet", "EV full shoe", "coups EV > 0", "share of coups", "bets a shoe",
                          "avg edge when EV > 0", "win a shoe (units) ± s.e."],
                   ["left"] + ["right"] * 6))
    out += ["", "± is the standard error over shoes of each shoe's expected win.", ""]
    out += ["## EV by depth", "",
            f"Buckets of {p.depth_step} cards seen; quantiles are read from a histogram with bins of "
            f"{100 / _bins():g} percentage points (midpoints shown).", ""]
    for bet_id, b in res.bets.items():
        out += [f"### {b['bet'].name} (`{bet_id}`)", ""]
        rows = []
        for r in b["by_depth"]:
            q = {k: (lo + hi) / 2 for k, (lo, hi) in r["quantiles"].items()}
            rows.append([f"{r['cards_dealt_from']}-{r['cards_dealt_to']}", str(r["coups"]),
                         pct(Fraction(r["positive"], r["coups"]), 3), pct(r["mean_ev"], 3), pct(r["sd"], 3),
                         pct(q["p05"], 2), pct(q["p25"], 2), pct(q["p50"], 2), pct(q["p75"], 2),
                         pct(q["p95"], 2)])
        out.append(_md(rows, ["cards seen", "coups", "EV > 0", "mean EV", "sd", "p5", "p25", "median",
                              "p75", "p95"], ["left"] + ["right"] * 9))
        out.append("")
    counted = [(i, b) for i, b in res.bets.items() if b["count"] is not None]
    if counted:
        out += ["## Linear counts", "",
                "True count = 52 x (running count of the cards seen - m x cards seen) / cards left, with m "
                "the start shoe's average tag (0 for a balanced count); the counter bets one unit when the "
                "true count is at least the trigger.", ""]
        for bet_id, b in counted:
            c = b["count"]
            tags = ", ".join(f"{r}={t:+d}" if t else f"{r}=0" for r, t in c["tags"].items())
            out += [f"### {b['bet'].name} (`{bet_id}`)", "",
                    f"Tags ({c['source']}): {tags}.  Betting correlation with the exact effects of removal: "
                    + ("-" if c["correlation"] is None else f"{c['correlation']:.4f}") + ".", ""]
            if c["effects_vanish"]:
                out += ["The effects of removal of this bet are all zero: a linear count cannot help.", ""]
                continue
            best = c["best"]
            perfect = b["perfect_play"]["win_per_shoe"]
            if best is None:
                out += ["No trigger makes the counted bet profitable in this study.", ""]
            else:
                out += [f"Best trigger: true count >= {best['trigger']}: {num(best['bets_per_shoe'], 3)} bets a "
                        f"shoe at an average edge of {pct(best['avg_edge'])}, winning "
                        f"{num(best['win_per_shoe'])} units a shoe"
                        + (f" ({pct(best['share_of_perfect_play'], 1)} of perfect play's "
                           f"{num(perfect)})" if best["share_of_perfect_play"] is not None else "") + ".", ""]
            curve = c["curve"]
            if best is not None:
                at = curve.index(best)
            else:   # around true count 0
                at = min(range(len(curve)), key=lambda i: abs(curve[i]["trigger"]))
            shown = curve[max(0, at - 6):at + 7]
            rows = [[f">= {r['trigger']}", num(r["bets_per_shoe"], 3), pct(r["avg_edge"], 3),
                     num(r["win_per_shoe"], 4), pct(r["share_of_perfect_play"], 1)] for r in shown]
            out.append(_md(rows, ["true count", "bets a shoe", "avg edge", "win a shoe",
                                  "share of perfect play"], ["left"] + ["right"] * 4))
            out += ["", f"(Triggers {curve[0]['trigger']} to {curve[-1]['trigger']} are in the JSON and "
                        "CSV output.)", ""]
    out += ["## Chart", "", _chart_line(chart), ""]
    out += ["## Exact values", "",
            "Every figure above is exact; the main ones as reduced fractions:", "", "```"]
    for bet_id, b in res.bets.items():
        pp = b["perfect_play"]
        out.append(f"{bet_id} share of coups with EV > 0 = {ex(pp['positive_fraction'])}")
        out.append(f"{bet_id} avg edge when EV > 0 = {ex(pp['avg_edge_when_positive'])}")
        out.append(f"{bet_id} perfect-play win a shoe = {ex(pp['win_per_shoe'])}")
        c = b["count"]
        if c is not None and c["best"] is not None:
            out.append(f"{bet_id} counter win a shoe at true count >= {c['best']['trigger']} = "
                       f"{ex(c['best']['win_per_shoe'])}")
    out += ["```", ""]
    return "\n".join(out)


def _chart_line(chart: str | None) -> str:
    if chart is None:
        return "No chart requested (--chart FILE.png draws the EV by depth and the count curves)."
    if chart.startswith("skipped"):
        return f"Chart {chart}."
    return f"EV by depth and count curves: `{chart}`."


CSV_HEADERS = ["section", "bet", "from", "to", "trigger", "metric", "exact", "value"]


def study_csv(res, chart: str | None = None) -> str:
    """Long format: one figure a row."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADERS)
    p = res.params
    for k, v in (("shoes", res.shoes), ("coups", res.coups), ("seed", p.seed), ("cut_card", p.cut_card),
                 ("cards", p.cards), ("depth_step", p.depth_step)):
        w.writerow(["study", "", "", "", "", k, v, v])
    w.writerow(["study", "", "", "", "", "burn", "", p.burn])

    def row(section, bet, metric, value, a="", b="", trig=""):
        if isinstance(value, (Fraction, int)) and not isinstance(value, bool):
            w.writerow([section, bet, a, b, trig, metric, ex(value), repr(float(value))])
        else:
            w.writerow([section, bet, a, b, trig, metric, "", "" if value is None else value])

    for bet_id, bt in res.bets.items():
        pp = bt["perfect_play"]
        row("bet", bet_id, "full_shoe_ev", bt["full_shoe_ev"])
        row("bet", bet_id, "mean_ev", bt["mean_ev"])
        for k in ("positive_coups", "positive_fraction", "bets_per_shoe", "avg_edge_when_positive",
                  "win_per_shoe", "win_per_shoe_sd", "win_per_shoe_se"):
            row("perfect_play", bet_id, k, pp[k])
        for r in bt["by_depth"]:
            a, b = r["cards_dealt_from"], r["cards_dealt_to"]
            for k in ("coups", "positive", "mean_ev", "sd"):
                row("depth", bet_id, k, r[k], a, b)
            for k, (lo, hi) in r["quantiles"].items():
                row("depth", bet_id, f"{k}_bin_low", lo, a, b)
        c = bt["count"]
        if c is not None:
            for rank, t in c["tags"].items():
                row("count", bet_id, f"tag_{rank}", t)
            row("count", bet_id, "correlation", c["correlation"])
            if c["best"] is not None:
                row("count", bet_id, "best_trigger", c["best"]["trigger"])
            for r in c["curve"]:
                for k in ("bets", "bets_per_shoe", "avg_edge", "win_per_shoe", "share_of_perfect_play"):
                    row("count", bet_id, k, r[k], trig=r["trigger"])
    if chart is not None:
        w.writerow(["chart", "", "", "", "", "chart", "", chart])
    return buf.getvalue()


# ----------------------------------------------------------------------------- chart, trace
def write_chart(res, path: Path) -> str:
    """Draw the chart to ``path``; returns the path, or ``skipped (why)``."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "skipped (matplotlib is not installed: python -m pip install matplotlib)"
    total = res.params.cards
    bets = list(res.bets.items())
    counted = [(i, b) for i, b in bets if b["count"] is not None and b["count"]["curve"]]
    cols = 2 if counted else 1
    fig, axes = plt.subplots(len(bets), cols, figsize=(6 * cols, 2.6 * len(bets)), squeeze=False)
    for row, (bet_id, b) in enumerate(bets):
        ax = axes[row][0]
        ns = sorted(b["mean_ev_by_cards_left"])
        ax.plot([total - n for n in ns], [100 * float(b["mean_ev_by_cards_left"][n]) for n in ns],
                lw=0.7, alpha=0.8, label="mean EV")
        xs, lo, hi, med = [], [], [], []
        for r in b["by_depth"]:
            q = r["quantiles"]
            for x in (r["cards_dealt_from"], r["cards_dealt_to"]):
                xs.append(x)
                lo.append(100 * float(sum(q["p05"]) / 2))
                hi.append(100 * float(sum(q["p95"]) / 2))
                med.append(100 * float(sum(q["p50"]) / 2))
        ax.fill_between(xs, lo, hi, alpha=0.25, label="5%-95%")
        ax.plot(xs, med, lw=1, ls="--", label="median")
        ax.axhline(0, color="black", lw=0.6)
        ax.set_title(f"{b['bet'].name}: EV by depth", fontsize=9)
        ax.set_xlabel("cards seen", fontsize=8)
        ax.set_ylabel("EV (%)", fontsize=8)
        ax.legend(fontsize=7)
        if cols == 2:
            ax2 = axes[row][1]
            c = b["count"]
            if c is not None and c["curve"]:
                perfect = float(b["perfect_play"]["win_per_shoe"])
                top = max([perfect] + [float(r["win_per_shoe"]) for r in c["curve"]] + [1e-4])
                curve = [r for r in c["curve"] if float(r["win_per_shoe"]) >= -top]   # the interesting part
                ax2.plot([r["trigger"] for r in curve], [float(r["win_per_shoe"]) for r in curve], lw=1,
                         marker=".", ms=2, label="counter")
                ax2.set_ylim(-1.1 * top, 1.15 * top)
                ax2.axhline(perfect, color="green", lw=0.8, ls="--",
                            label="perfect play")
                ax2.axhline(0, color="black", lw=0.6)
                ax2.set_title(f"{b['bet'].name}: win a shoe by true-count trigger", fontsize=9)
                ax2.set_xlabel("bet when true count >=", fontsize=8)
                ax2.set_ylabel("units a shoe", fontsize=8)
                ax2.legend(fontsize=7)
            else:
                ax2.axis("off")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    from ..io.files import atomic_write
    atomic_write(path, buf.getvalue())
    return str(path)


def write_trace(params, path: Path) -> None:
    """Every coup of every shoe: remaining shoe and the exact EV of each bet (CSV)."""
    from ..io.files import atomic_write
    from ..studies.study import trace_shoe
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    counted = [b for b, _, _ in params.tags]
    w.writerow(["shoe", "coup", "cards_dealt_before", "cards_left", "coup_cards", "remaining_shoe"]
               + [f"ev_{b}" for b in params.bet_ids] + [f"ev_{b}_float" for b in params.bet_ids]
               + [f"true_count_{b}" for b in counted])
    for i in range(params.shoes):
        for c in trace_shoe(params, i):
            w.writerow([i, c.coup, c.cards_dealt, c.cards_left, " ".join(c.dealt), c.remaining.spec()]
                       + [ex(c.evs[b]) for b in params.bet_ids]
                       + [repr(float(c.evs[b])) for b in params.bet_ids]
                       + [ex(c.true_counts[b]) for b in counted])
    atomic_write(path, buf.getvalue())


__all__ = ["register", "cmd_study", "parse_tags", "study_markdown", "study_csv", "study_json", "study_dict",
           "RANKS"]
