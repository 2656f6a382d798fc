"""``baccarat overlay``: the exact RTP of bets under a multiplier overlay (Lightning
Baccarat), or the inverse: the overlays of a family that reproduce Lightning's published RTPs.

The computation is :mod:`analyzer.reports.overlay` (and :mod:`.overlay_inverse`), the
documents :mod:`analyzer.reports.overlay_tables`; this module parses and writes.
"""

from __future__ import annotations

import re
from fractions import Fraction

from .options import (
    UsageError,
    add_output_options,
    add_shoe_options,
    check_outputs,
    fraction_value,
    shoe_from_args,
    write_output,
)

DESCRIPTION = """\
The exact RTP of Player, Banker, Tie and the pairs under a multiplier overlay: K card identities
(rank and suit) marked from a virtual 52-card deck, each with a multiplier drawn from
--multipliers; a winning bet's pay is multiplied by the product of the multipliers of
the marked identities among the winning hand's cards (a Tie's: all the cards).  The
bets are Lightning Baccarat's (Evolution): Player M:1, Banker (M - 0.05):1, Tie 5M:1,
Player Pair and Banker Pair 9M:1 (M of the pair's two cards), with a 20% fee on the
stake.  Exact: every ordered deal and every overlay draw counted.
With --inverse, the weights over x2 x3 x4 x5 x8 that reproduce Lightning's published RTPs
for each number of Lightning cards (Lightning publishes no multiplier weights)."""

BETS = ("player", "banker", "tie", "player_pair", "banker_pair")


def _number(option: str, text: str) -> Fraction:
    t = text.strip()
    if not re.fullmatch(r"[0-9]{1,12}(?:\.[0-9]{1,12})?(?:/[0-9]{1,12})?%?", t):
        shown = t if len(t) <= 30 else t[:30] + "..."
        raise UsageError(f"{option}: {shown!r} is not a number such as 0.25, 1/4 or 25%")
    try:
        value = Fraction(t[:-1]) / 100 if t.endswith("%") else Fraction(t)
    except ZeroDivisionError:
        raise UsageError(f"{option}: {t!r} divides by zero") from None
    return value


def distribution_value(option: str, text: str, whole_keys: bool) -> dict:
    """``2=0.5,3=0.3,...`` -> ``{value: probability}`` (checked to sum to 1 by the overlay).

    >>> distribution_value("--multipliers", "2=1/2, 8=50%", False)
    {Fraction(2, 1): Fraction(1, 2), Fraction(8, 1): Fraction(1, 2)}
    >>> distribution_value("--lightning-cards", "3", True)
    {3: Fraction(1, 1)}
    """
    t = text.strip()
    if whole_keys and re.fullmatch(r"[0-9]{1,3}", t):
        return {int(t): Fraction(1)}
    out: dict = {}
    for item in t.split(","):
        key, eq, p = item.partition("=")
        if not eq or not key.strip() or not p.strip():
            raise UsageError(f"{option} must be VALUE=PROBABILITY pairs such as 2=0.5,3=0.5, got {text!r}")
        k = key.strip()
        if whole_keys:
            if not re.fullmatch(r"[0-9]{1,3}", k):
                raise UsageError(f"{option}: {k!r} is not a whole number of cards")
            kv: object = int(k)
        else:
            kv = _number(option, k)
        if kv in out:
            raise UsageError(f"{option}: {k} is given twice")
        out[kv] = _number(option, p)
    return out


def register(sub) -> None:
    from .rules import add_rules_options

    p = sub.add_parser(
        "overlay",
        help="exact RTP under a multiplier overlay (Lightning Baccarat); the inverse",
        description=DESCRIPTION,
    )
    add_shoe_options(p)
    add_rules_options(p)
    g = p.add_argument_group("overlay")
    g.add_argument(
        "--bet",
        default="player,banker,tie,player_pair,banker_pair",
        metavar="BETS",
        help="player, banker, tie, player_pair, banker_pair, comma separated (default all five)",
    )
    g.add_argument(
        "--lightning-cards",
        default="3",
        metavar="K|K=P,...",
        help="marked identities per coup: a number (default 3) or a distribution '1=0.2,2=0.8'",
    )
    g.add_argument(
        "--multipliers",
        metavar="X=P,...",
        help="the multiplier distribution, e.g. '2=0.5,3=0.25,4=0.125,5=0.0625,8=0.0625' "
        "(probabilities summing to 1; needed unless --inverse)",
    )
    g.add_argument("--fee", default="20%", metavar="F", help="the fee, a fraction in [0, 1) (default 20%%)")
    g.add_argument(
        "--fee-mode",
        default="stake",
        metavar="stake|total",
        help="stake: the fee is F times the stake, paid on top (default, Lightning); "
        "total: the fee is F of the total outlay",
    )
    g.add_argument(
        "--per",
        default="card",
        metavar="card|identity",
        help="card: each dealt copy of a marked identity multiplies (default); identity: once",
    )
    g.add_argument("--cap", metavar="N", help="the largest multiplier product paid (default none)")
    g.add_argument(
        "--inverse",
        action="store_true",
        help="search the weights over x2 x3 x4 x5 x8 that reproduce Lightning's published RTPs "
        "(k = 1..5, or uniform on 1..5)",
    )
    g.add_argument(
        "--match",
        default="player,banker,tie",
        metavar="BETS",
        help="with --inverse: the published RTPs to reproduce (default player,banker,tie; "
        "the pairs' 94.95%% has one weak source)",
    )
    add_output_options(p)
    p.set_defaults(func=cmd_overlay)


def _bets(text: str, option: str = "--bet") -> list[str]:
    names = [b.strip().lower() for b in text.split(",")]
    bad = [b for b in names if b not in BETS]
    if bad or not names:
        raise UsageError(f"{option}: unknown bet {bad[0] if bad else text!r} (choose from {', '.join(BETS)})")
    return list(dict.fromkeys(names))


def cmd_overlay(args) -> int:
    from ..reports import overlay_tables as docs
    from ..reports.overlay import LIGHTNING_BETS, Overlay, OverlayError, pattern_ways, price
    from .rules import rules_from_args

    check_outputs(args.output)
    bets = _bets(args.bet)
    if args.match != "player,banker,tie" and not args.inverse:
        raise UsageError("--match names the published RTPs --inverse reproduces: give --inverse too")
    _bets(args.match, "--match")
    shoe = shoe_from_args(args)
    if getattr(args, "player_option", None) == "best":
        raise UsageError("overlay: --player-option best depends on the shoe; give draw or stand")
    rules, _ = rules_from_args(args, shoe)
    if rules.player_option:
        raise UsageError(f"overlay: rule set {rules.name!r} lets the Player choose: give --player-option draw or stand")
    if not shoe.suited:
        raise UsageError(
            "overlay: the overlay reads card identities: the shoe must be suited "
            "(a --shoe of cards such as 'As=8,...', and --remove of cards with suits)"
        )
    fee = fraction_value("--fee", args.fee, -1, 1, "a fraction in [0, 1) such as 20%")
    rules_text = None if rules.is_default else rules.describe()
    if args.inverse:
        from ..reports.overlay_inverse import LIGHTNING, lightning_inverse

        if args.multipliers is not None:
            raise UsageError("--inverse searches the multipliers' weights: give no --multipliers")
        if shoe != shoe.standard(8) or rules_text is not None:
            raise UsageError("--inverse reproduces Lightning's published RTPs: 8 decks, Punto Banco rules")
        published = {
            b: {**LIGHTNING["published"], **LIGHTNING["published_pairs"]}[b] for b in _bets(args.match, "--match")
        }
        found = lightning_inverse(pattern_ways(shoe, rules), published=published)
        inverse_doc = {"md": docs.inverse_markdown, "csv": docs.inverse_csv, "json": docs.inverse_json}[args.format]
        write_output(inverse_doc(found, published, LIGHTNING["sources"]), args.output)
        return 0
    if args.multipliers is None:
        raise UsageError("give --multipliers X=P,... (Lightning publishes none; --inverse searches them)")
    try:
        overlay = Overlay.of(
            k=distribution_value("--lightning-cards", args.lightning_cards, True),
            multipliers=distribution_value("--multipliers", args.multipliers, False),
            fee=fee,
            fee_mode=args.fee_mode.strip().lower(),
            per=args.per.strip().lower(),
            cap=None if args.cap is None else _number("--cap", args.cap),
        )
    except OverlayError as e:
        raise UsageError(str(e)) from None
    ways = pattern_ways(shoe, rules)
    results = [price(ways, LIGHTNING_BETS[b], overlay) for b in bets]
    fmt = {"md": docs.overlay_markdown, "csv": docs.overlay_csv, "json": docs.overlay_json}[args.format]
    write_output(fmt(results, overlay, shoe.describe(), rules_text), args.output)
    return 0


__all__ = ["register", "cmd_overlay", "distribution_value"]
