"""``baccarat odds`` and ``baccarat bets``: exact odds of one shoe, and the bet catalog."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .options import (
    add_bet_options,
    add_known_option,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    bets_from_args,
    catalog_from_args,
    converter,
    known_from_args,
    progress_bar,
    shoe_from_args,
    whole_number,
    write_output,
)
from .rules import add_rules_options, rules_from_args, rules_of

if TYPE_CHECKING:
    from collections.abc import Callable


def register(sub) -> None:
    odds = sub.add_parser(
        "odds",
        help="exact outcome probabilities and the EV of every selected bet",
        description="Exact Player/Banker/Tie probabilities and the exact EV, "
        "house edge and variance of the selected bets (main bets by default).",
    )
    add_shoe_options(odds)
    add_bet_options(odds)
    add_rules_options(odds)
    add_known_option(
        odds,
        "a card known at a dealing position (1 P1, 2 B1, 3 P2, 4 B2, 5 and 6 the fifth and "
        "sixth cards off the shoe), e.g. 1=9 or 5=Kh; may be repeated: the odds are then "
        "conditional on those cards",
    )
    odds.add_argument(
        "--card-budget",
        metavar="N",
        default=None,
        type=converter(card_budget),
        help="most sequences of card classes the card engine enumerates for one bet "
        "(default 40,000,000, about 15 s; at most 1,000,000,000); a bet beyond it is refused "
        "with its estimate",
    )
    odds.add_argument(
        "--breakeven",
        metavar="BET[:EVENT]",
        type=breakeven_value,
        help="EV with that event's payout left symbolic (default: the bet's first paying "
        "event), and the payout or commission that makes the bet break even",
    )
    odds.add_argument(
        "--batch",
        metavar="FILE",
        help="many shoes: one JSON object per line of FILE ('-' standard input) with keys "
        "decks, shoe, remove, known; writes JSON Lines, one 'odds --format json' "
        "document per line, in order (the bet and rules options apply to every line)",
    )
    add_output_options(odds, "output format: md (Markdown, default), csv or json; with --batch, json (JSON Lines) only")
    add_quiet_option(odds)
    # None: not given (md, or json with --batch, which refuses an explicit md or csv)
    odds.set_defaults(func=cmd_odds, format=None)

    bets = sub.add_parser(
        "bets",
        help="list the bets and tables (with --bets-file, yours too)",
        description="The bet catalog: ids, names, pay tables and the named tables.",
    )
    bets.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets and tables")
    add_output_options(bets)
    bets.set_defaults(func=cmd_bets)


def card_budget(text: str) -> int:
    """``--card-budget N``: a whole number from 1 to the card engine's ``MAX_BUDGET``."""
    from ..core.classengine import MAX_BUDGET

    return whole_number("--card-budget", text, 1, MAX_BUDGET)


def card_engine_options(args) -> dict:
    """``budget`` and ``progress`` for the card engine, from ``--card-budget`` (a number, or
    its text: :func:`card_budget`) and ``--quiet``."""
    budget = getattr(args, "card_budget", None)
    quiet = getattr(args, "quiet", False)
    if budget is not None and not isinstance(budget, int):
        budget = card_budget(budget)

    def progress(total, what):
        return progress_bar(total, f"compiling {what}", quiet or total < 2_000_000, unit="seq")

    return {"budget": budget, "progress": progress}


def breakeven_value(text: str) -> tuple[str, str | None] | None:
    """``--breakeven BET[:EVENT]``: ``(bet id, event or None)`` (``None`` for an empty text: not
    asked); the bet and its event are checked by :class:`analyzer.reports.odds_plan.OddsPlan`.

    >>> breakeven_value("banker:banker_wins_6"), breakeven_value("tie")
    (('banker', 'banker_wins_6'), ('tie', None))
    """
    if not text:
        return None
    bet_id, _, event = text.partition(":")
    return bet_id, event or None


def plan_from_args(args, solvers=None):
    """The :class:`analyzer.reports.odds_plan.OddsPlan` of the bet and rules options (``table``,
    ``bets``, ``bets_file``, ``rules``, ``player_option``, ``breakeven``, ``known``,
    ``card_budget``, ``quiet``), checked now, before any shoe."""
    from ..core.shoe import Shoe
    from ..reports.odds_plan import OddsPlan

    best = (getattr(args, "player_option", None) or "").strip() == "best"
    if best:
        rules_from_args(args, Shoe.standard(8))  # checks --rules and --player-option once
        rules = rules_of(args)
    else:
        rules, _ = rules_from_args(args)
    series: list = []
    bets = bets_from_args(args, series=series)
    return OddsPlan(
        bets,
        series=series,
        rules=rules,
        best=best,
        breakeven=getattr(args, "breakeven", None),
        known=bool(getattr(args, "known", None)),
        catalog=catalog_from_args(args),
        solvers=solvers,
        options=card_engine_options(args),
    )


def cmd_odds(args) -> int:
    if args.batch is not None:
        return cmd_batch(args)
    from ..reports import odds_tables as formatting

    fmt = args.format or "md"
    shoe = shoe_from_args(args)
    plan = plan_from_args(args)
    known = known_from_args(args, shoe)
    result, be, strategy = plan.result(shoe, known)
    series = plan.series_of(shoe, known)
    if fmt == "json":
        from ..io.tables import json_text
        from ..reports.odds_plan import odds_document

        write_output(json_text(odds_document(result, be, strategy, series)), args.output)
        return 0
    writers: dict[str, Callable[..., str]] = {"md": formatting.odds_markdown, "csv": formatting.odds_csv}
    text = writers[fmt](result, breakeven=be, **({"series": series} if series else {}))
    if strategy is not None and fmt == "md":
        from ..reports.rules_tables import strategy_markdown

        text = text.rstrip("\n") + "\n\n" + "\n".join(strategy_markdown(strategy)) + "\n"
    write_output(text, args.output)
    return 0


def cmd_batch(args) -> int:
    """``odds --batch FILE``: every line's shoe through one compiled bet set (see :mod:`.batch`)."""
    from .batch import check_batch_args, chunk_lines, run_batch

    check_batch_args(args)
    plan = plan_from_args(args)
    return run_batch(args.batch, args.output, args.quiet, plan.line, plan.lines, chunk_lines(plan.bets))


def cmd_bets(args) -> int:
    from ..reports import odds_tables as formatting

    fmt = args.format
    cat = catalog_from_args(args)
    text = {"md": formatting.catalog_markdown, "csv": formatting.catalog_csv, "json": formatting.catalog_json}[fmt](cat)
    write_output(text, args.output)
    return 0
