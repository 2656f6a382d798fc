"""``baccarat overlay``: the exact RTP of bets under a multiplier overlay (a game of
:data:`analyzer.reports.overlay_games.GAMES`: Lightning Baccarat, Golden Wealth Baccarat),
or the inverse: the overlays of a family that reproduce a game's published RTPs.

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
    converter,
    fee_value,
    names_of,
    shoe_from_args,
    write_output,
)

DESCRIPTION = """\
The exact RTP of Player, Banker, Tie and the pairs under a multiplier overlay: K card identities
(rank and suit) marked from a virtual 52-card deck, each with a multiplier drawn from
--multipliers; a winning bet's pay is multiplied by the product of the multipliers of
the marked identities among the winning hand's cards (a Tie's: all the cards).  --game
chooses the game's bets and defaults (--games lists them): Lightning Baccarat (Evolution,
the default: Player M:1, Banker (M - 0.05):1, Tie 5M:1, Player Pair and Banker Pair 9M:1,
M of the pair's two cards, a 20% fee on the stake, 3 Lightning cards unless told) or
Golden Wealth Baccarat (Evolution: the same pays, 5 gold cards, a 20% gold fee).
Exact: every ordered deal and every overlay draw counted.  With --inverse, the weights
over the game's multipliers that reproduce its published RTPs for each number of marked
cards and each reading of its rules (neither game publishes multiplier weights)."""

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
        "--game",
        default="lightning",
        metavar="NAME",
        type=converter(_game),
        help="the game: lightning (default) or golden_wealth; its bets, marked cards, fee and, "
        "with --inverse, its published RTPs",
    )
    g.add_argument("--games", action="store_true", help="list the games (their rules as the sources state them)")
    g.add_argument(
        "--bet",
        default="player,banker,tie,player_pair,banker_pair",
        metavar="BETS",
        type=names_of("--bet", BETS),
        help="player, banker, tie, player_pair, banker_pair, comma separated (default all five)",
    )
    g.add_argument(
        "--lightning-cards",
        metavar="K|K=P,...",
        type=converter(lambda t: distribution_value("--lightning-cards", t, True), "distribution"),
        help="marked identities per coup: a number or a distribution '1=0.2,2=0.8' "
        "(default: the game's, Lightning 3, Golden Wealth 5)",
    )
    g.add_argument(
        "--multipliers",
        metavar="X=P,...",
        type=converter(lambda t: distribution_value("--multipliers", t, False), "distribution"),
        help="the multiplier distribution, e.g. '2=0.5,3=0.25,4=0.125,5=0.0625,8=0.0625' "
        "(probabilities summing to 1; needed unless --inverse)",
    )
    g.add_argument(
        "--fee", metavar="F", type=converter(fee_value), help="the fee, a fraction in [0, 1) (default the game's, 20%%)"
    )
    g.add_argument(
        "--fee-mode",
        metavar="stake|total",
        type=_word,
        help="stake: the fee is F times the stake, paid on top (default, Lightning); "
        "total: the fee is F of the total outlay",
    )
    g.add_argument(
        "--per",
        metavar="card|identity",
        type=_word,
        help="card: each dealt copy of a marked identity multiplies (default); identity: once",
    )
    g.add_argument(
        "--cap",
        metavar="N",
        type=converter(lambda t: _number("--cap", t), "number"),
        help="the largest multiplier product paid (default none)",
    )
    g.add_argument(
        "--inverse",
        action="store_true",
        help="search the weights over the game's multipliers that reproduce its published RTPs "
        "(Lightning: k = 1..5, or uniform on 1..5; Golden Wealth: k = 5, each reading of its rules)",
    )
    g.add_argument(
        "--match",
        metavar="BETS",
        type=names_of("--match", BETS),
        help="with --inverse: the published RTPs to reproduce (default: Lightning player,banker,tie, "
        "the pairs' 94.95%% having one weak source; Golden Wealth all five)",
    )
    add_output_options(p)
    p.set_defaults(func=cmd_overlay)


def _word(text: str) -> str:
    """``--fee-mode``, ``--per``: the word, in lower case (the overlay checks it)."""
    return text.strip().lower()


def _game(text: str):
    """``--game NAME``: the game of :data:`analyzer.reports.overlay_games.GAMES`."""
    from ..reports.overlay_games import GAMES

    key = text.strip().lower().replace("-", "_")
    if key not in GAMES:
        shown = key if len(key) <= 30 else key[:30] + "..."
        raise UsageError(f"--game: unknown game {shown!r} (choose from {', '.join(sorted(GAMES))})")
    return GAMES[key]


def cmd_overlay(args) -> int:
    from ..reports import overlay_tables as docs
    from ..reports.overlay import Overlay, OverlayError, pattern_ways, price
    from ..reports.overlay_games import GAMES
    from .rules import rules_from_args

    check_outputs(args.output)
    game = args.game
    if args.games:
        listing = {"md": docs.games_markdown, "csv": docs.games_csv, "json": docs.games_json}[args.format]
        write_output(listing(list(GAMES.values())), args.output)
        return 0
    bets = args.bet
    if args.match is not None and not args.inverse:
        raise UsageError("--match names the published RTPs --inverse reproduces: give --inverse too")
    match = list(game.match) if args.match is None else args.match
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
    fee = game.fee if args.fee is None else args.fee
    rules_text = None if rules.is_default else rules.describe()
    if args.inverse:
        from ..reports.overlay_inverse import game_inverse

        if args.multipliers is not None:
            raise UsageError("--inverse searches the multipliers' weights: give no --multipliers")
        if shoe != shoe.standard(game.decks) or rules_text is not None:
            raise UsageError(
                f"--inverse reproduces {game.short}'s published RTPs: {game.decks} decks, Punto Banco rules"
            )
        found = game_inverse(shoe, game, rules, match=tuple(match))
        published = {b: game.published[b] for b in match}
        inverse_doc = {"md": docs.inverse_markdown, "csv": docs.inverse_csv, "json": docs.inverse_json}[args.format]
        write_output(inverse_doc(found, game, published), args.output)
        return 0
    if args.multipliers is None:
        raise UsageError(f"give --multipliers X=P,... ({game.short} publishes none; --inverse searches them)")
    cards = (
        args.lightning_cards
        if args.lightning_cards is not None
        else dict(game.cards or {game.default_cards: Fraction(1)})
    )
    try:
        overlay = Overlay.of(
            k=cards,
            multipliers=args.multipliers,
            fee=fee,
            fee_mode=args.fee_mode or game.fee_mode.strip().lower(),
            per=args.per or game.per.strip().lower(),
            cap=args.cap,
        )
    except OverlayError as e:
        raise UsageError(str(e)) from None
    ways = pattern_ways(shoe, rules)
    results = [price(ways, game.bets[b], overlay) for b in bets]
    fmt = {"md": docs.overlay_markdown, "csv": docs.overlay_csv, "json": docs.overlay_json}[args.format]
    write_output(fmt(results, overlay, shoe.describe(), rules_text, game), args.output)
    return 0


__all__ = ["register", "cmd_overlay", "distribution_value"]
