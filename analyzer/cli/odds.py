"""``baccarat odds`` and ``baccarat bets``: exact odds of one shoe, and the bet catalog."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .options import (
    add_bet_options,
    add_output_options,
    add_quiet_option,
    add_shoe_options,
    bets_from_args,
    catalog_from_args,
    converter,
    known_from_args,
    known_item,
    progress_bar,
    shoe_from_args,
    whole_number,
    write_output,
)
from .rules import add_rules_options, rules_from_args

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
    odds.add_argument(
        "--known",
        metavar="POS=CARD",
        action="append",
        default=[],
        type=converter(known_item),
        help="a card known at a dealing position (1 P1, 2 B1, 3 P2, 4 B2, 5 and 6 the fifth and "
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


#: Best-play rule sets an :class:`OddsPlan` keeps under ``--player-option best`` (one per shoe composition).
STRATEGY_CACHE = 64


class OddsPlan:
    """What ``baccarat odds`` computes for any shoe, from its bet and rules options: the
    bets (with ``--breakeven``'s), the rule set (under ``--player-option best``, the best
    play of each shoe's composition) and the compiled solvers.  ``odds``, ``odds --batch``
    and ``serve`` build their documents here, and only here.

    ``args``: the options (``table``, ``bets``, ``bets_file``, ``rules``, ``player_option``,
    ``breakeven``, ``card_budget``, ``quiet``), checked now, before any shoe: a bad one is one
    line (:class:`analyzer.core.errors.BaccaratError`).  ``solvers``: a
    :class:`analyzer.core.solver.SolverCache` to compile into (shared by many plans: a server),
    else one of its own."""

    def __init__(self, args, solvers=None):
        from ..core.solver import SolverCache

        self.best = (getattr(args, "player_option", None) or "").strip() == "best"
        if self.best:
            from ..bets.rules_files import load_rules
            from ..core.choice import best_rules
            from ..core.shoe import Shoe

            rules_from_args(args, Shoe.standard(8))  # checks --rules and --player-option once
            base = load_rules(args.rules)
            self.best_rules = lru_cache(maxsize=STRATEGY_CACHE)(lambda counts: best_rules(base, counts))
            self.rules, self.strategy = None, None
        else:
            self.rules, self.strategy = rules_from_args(args)
        #: the series bets named (:mod:`analyzer.bets.series`), priced off the top beside the others
        self.series: list = []
        self.bets, self.spec = breakeven_bets(args, self.series)
        if self.series and getattr(args, "known", None):
            from ..core.errors import BetError

            raise BetError(
                "series bets are priced with independent coups off the top of the declared shoe: "
                "--known does not apply to them (price them without --known)"
            )
        if self.spec is not None and self.spec[1] is not None:  # an unknown event: refused before any shoe
            bet = next(b for b in self.bets if b.id == self.spec[0])
            names = [e.event for e in bet.events] + [bet.otherwise_event]
            if self.spec[1] not in names:
                from ..core.errors import BetError

                raise BetError(
                    f"bet {bet.id!r} has no event {self.spec[1]!r} (events: {', '.join(repr(n) for n in names)})"
                )
        self.solvers = solvers if solvers is not None else SolverCache(self.bets, options=card_engine_options(args))

    def solver_of(self, shoe, known):
        """``(compiled solver, strategy or None)`` for ``shoe`` with ``known`` cards."""
        rules, strategy = self.best_rules(shoe.value_counts) if self.best else (self.rules, self.strategy)
        return self.solvers.get(known, rules, self.bets), strategy

    def result(self, shoe, known=None):
        """``(analysis, breakeven or None, strategy or None)`` of ``shoe``."""
        solver, strategy = self.solver_of(shoe, known)
        result = solver.solve(shoe)
        return result, breakeven_of(result, self.spec), strategy

    def series_of(self, shoe, known=None) -> list:
        """The series bets priced off the top of ``shoe`` (:func:`analyzer.bets.series.price_series`),
        under the rules the other bets are counted by; refused with known cards."""
        if not self.series:
            return []
        if known:
            from ..core.errors import BetError

            raise BetError(
                "series bets are priced with independent coups off the top of the declared "
                "shoe: known cards do not apply to them"
            )
        from ..bets.series import price_series

        rules = self.best_rules(shoe.value_counts)[0] if self.best else self.rules
        return price_series(shoe, self.series, rules)

    def document(self, shoe, known=None) -> dict:
        """The ``odds --format json`` document of ``shoe`` (one line of ``--batch``)."""
        result, be, strategy = self.result(shoe, known)
        return odds_document(result, be, strategy, self.series_of(shoe, known))

    def line(self, shoe, known=None) -> str:
        """:meth:`document` as the one compact JSON line ``odds --batch`` writes for it."""
        result, be, strategy = self.result(shoe, known)
        return odds_line_of(result, be, strategy, self.series_of(shoe, known))

    def lines(self, items) -> list[str]:
        """:meth:`line` of each ``(shoe, known)``, the shoes of one solver solved together."""
        from ..core.solver import solve_each
        from ..reports.odds_tables import odds_lines

        if not self.best and not any(known for _, known in items):  # one solver for every line
            jobs = [self.solver_of(items[0][0], None)] * len(items) if items else []
        else:
            jobs = [self.solver_of(shoe, known) for shoe, known in items]
        results = solve_each((solver, shoe) for (solver, _), (shoe, _) in zip(jobs, items, strict=True))
        extras = [
            line_extra(plan, self.series_of(shoe, known)) for (_, plan), (shoe, known) in zip(jobs, items, strict=True)
        ]
        return odds_lines(results, [breakeven_of(r, self.spec) for r in results], extras)


def cmd_odds(args) -> int:
    if args.batch is not None:
        return cmd_batch(args)
    from ..reports import odds_tables as formatting

    fmt = args.format or "md"
    shoe = shoe_from_args(args)
    plan = OddsPlan(args)
    known = known_from_args(args, shoe)
    result, be, strategy = plan.result(shoe, known)
    series = plan.series_of(shoe, known)
    if fmt == "json":
        from ..io.tables import json_text

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
    plan = OddsPlan(args)
    return run_batch(args.batch, args.output, args.quiet, plan.line, plan.lines, chunk_lines(plan.bets))


def breakeven_bets(args, series: list | None = None) -> tuple[tuple, tuple[str, str | None] | None]:
    """The selected bets (with the ``--breakeven`` bet added if not among them) and
    ``(bet id, event or None)`` of ``--breakeven``, or ``None``.  ``series``: a list to
    receive the series bets named (:func:`analyzer.cli.options.bets_from_args`)."""
    bets = bets_from_args(args, series=series)
    if not args.breakeven:
        return bets, None
    bet_id, _, event = args.breakeven.partition(":")
    if bet_id in catalog_from_args(args).series:
        from ..core.errors import BetError

        raise BetError(
            f"--breakeven {bet_id}: a series bet's break-even payout is not computed (only bets settled on one coup)"
        )
    if bet_id not in {b.id for b in bets}:
        bets = bets + (catalog_from_args(args).bet(bet_id),)
    return bets, (bet_id, event or None)


def breakeven_of(result, spec):
    """The :class:`analyzer.bets.breakeven.Breakeven` of ``--breakeven`` on ``result``, or ``None``."""
    if spec is None:
        return None
    from ..bets.breakeven import breakeven

    return breakeven(result.bet(spec[0]), spec[1])


def odds_document(result, be=None, strategy=None, series=()) -> dict:
    """The JSON document of ``baccarat odds --format json`` (one line of ``--batch``);
    ``series``: priced series bets (:class:`analyzer.bets.series.SeriesResult`), last."""
    from ..reports.odds_tables import odds_dict, series_document

    doc = odds_dict(result, breakeven=be)
    if strategy is not None:
        from ..reports.rules_tables import strategy_dict

        doc["player_strategy"] = strategy_dict(strategy)
    if series:
        doc.update(series_document(series))
    return doc


def odds_line_of(result, be=None, strategy=None, series=()) -> str:
    """:func:`odds_document` as one compact JSON line (``odds --batch``), the same text as
    ``json.dumps`` of it with ``separators=(",", ":")``, written without the dicts."""
    from ..reports.odds_tables import odds_line

    return odds_line(result, be, line_extra(strategy, series))


def line_extra(strategy=None, series=()) -> dict | None:
    """The keys of a line after the odds document's own: the player's strategy, the series bets."""
    if strategy is None and not series:
        return None
    extra: dict = {}
    if strategy is not None:
        from ..reports.rules_tables import strategy_dict

        extra["player_strategy"] = strategy_dict(strategy)
    if series:
        from ..reports.odds_tables import series_document

        extra.update(series_document(series))
    return extra


def cmd_bets(args) -> int:
    from ..reports import odds_tables as formatting

    fmt = args.format
    cat = catalog_from_args(args)
    text = {"md": formatting.catalog_markdown, "csv": formatting.catalog_csv, "json": formatting.catalog_json}[fmt](cat)
    write_output(text, args.output)
    return 0
