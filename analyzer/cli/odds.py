"""``baccarat odds`` and ``baccarat bets``: exact odds of one shoe, and the bet catalog."""

from __future__ import annotations

from .options import (add_bet_options, add_output_options, add_shoe_options, bets_from_args,
                      catalog_from_args, check_format, shoe_from_args, write_output)
from .rules import add_rules_options, rules_from_args


def register(sub) -> None:
    odds = sub.add_parser("odds", help="exact outcome probabilities and the EV of every selected bet",
                          description="Exact Player/Banker/Tie probabilities and the exact EV, "
                                      "house edge and variance of the selected bets (main bets by default).")
    add_shoe_options(odds)
    add_bet_options(odds)
    add_rules_options(odds)
    odds.add_argument("--known", metavar="POS=CARD", action="append", default=[],
                      help="a card known at a dealing position (1 P1, 2 B1, 3 P2, 4 B2, 5 and 6 the fifth and "
                           "sixth cards off the shoe), e.g. 1=9 or 5=Kh; may be repeated: the odds are then "
                           "conditional on those cards (bets on point values only)")
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


def cmd_odds(args) -> int:
    from ..core.solver import Solver
    from ..reports import odds_tables as formatting

    fmt = check_format(args.format)
    shoe = shoe_from_args(args)
    rules, strategy = rules_from_args(args, shoe)
    bets = bets_from_args(args)
    breakeven_spec = args.breakeven
    if breakeven_spec:
        bet_id, _, event = breakeven_spec.partition(":")
        if bet_id not in {b.id for b in bets}:
            bets = bets + (catalog_from_args(args).bet(bet_id),)
    known = None
    if args.known:
        from ..core.known import parse_known
        known = parse_known(args.known)
        known.physical_ways(shoe)      # a card the shoe lacks: one line, before any work
    result = Solver(bets, rules=None if rules.is_default else rules, known=known).solve(shoe)
    be = None
    if breakeven_spec:
        from ..bets.breakeven import breakeven
        be = breakeven(result.bet(bet_id), event or None)
    text = {"md": formatting.odds_markdown, "csv": formatting.odds_csv,
            "json": formatting.odds_json}[fmt](result, breakeven=be)
    if strategy is not None and fmt != "csv":
        from ..reports.rules_tables import strategy_dict, strategy_markdown
        if fmt == "md":
            text = text.rstrip("\n") + "\n\n" + "\n".join(strategy_markdown(strategy)) + "\n"
        else:
            import json
            doc = json.loads(text)
            doc["player_strategy"] = strategy_dict(strategy)
            from ..io.tables import json_text
            text = json_text(doc)
    write_output(text, args.output)
    return 0


def cmd_bets(args) -> int:
    from ..reports import odds_tables as formatting

    fmt = check_format(args.format)
    cat = catalog_from_args(args)
    text = {"md": formatting.catalog_markdown, "csv": formatting.catalog_csv,
            "json": formatting.catalog_json}[fmt](cat)
    write_output(text, args.output)
    return 0
