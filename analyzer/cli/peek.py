"""``baccarat peek``: the exact RTP of Peek Baccarat's Player and Banker bets when some of the
first four cards are revealed and the player may then double or triple the bet; or the
inverse: the reveal rules that reproduce the published RTPs.

The computation is :mod:`analyzer.reports.peek`, the documents
:mod:`analyzer.reports.peek_tables`; this module parses and writes.
"""

from __future__ import annotations

import re

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
The exact RTP of the Player (1:1) and Banker (0.95:1) bets of Peek Baccarat (Evolution): a
fee (default 20%) is paid on top of the initial stake; after the first four cards are dealt,
some of them are revealed (--reveal) and the player plays a multiple of the initial stake
from --raises (no fee on the added amount): the largest when the bet's EV given the revealed
cards is positive, else 1.  Exact: every ordered deal counted.  Evolution publishes no
reveal distribution; with --inverse, the reveal rules of a family that reproduce the
published RTPs (Player 98.8%, Banker 98.8%)."""

BETS = ("player", "banker")


def reveal_value(text: str):
    """``--reveal``: ``K`` (K cards, a uniform K-subset), ``LO-HI`` (K uniform on LO..HI), or
    positions ``P1,B1`` (always those); ``0`` or ``none``: nothing revealed.

    >>> reveal_value("2").name, reveal_value("1-4").name, reveal_value("b2, p1").subsets
    ('2 card(s), a uniform 2-subset', 'k uniform on 1-4 card(s), then a uniform k-subset', (((0, 3), Fraction(1, 1)),))
    """
    from ..reports.peek import Reveal

    t = text.strip()
    if t.lower() == "none":
        return Reveal.fixed(())
    if re.fullmatch(r"[0-9]{1,3}", t):
        k = int(t)
        if k > 4:
            raise UsageError(f"--reveal {t}: at most 4 cards can be revealed (P1 B1 P2 B2)")
        return Reveal.uniform(k)
    m = re.fullmatch(r"([0-9]{1,3})\s*-\s*([0-9]{1,3})", t)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi > 4:
            raise UsageError(f"--reveal {t}: at most 4 cards can be revealed (P1 B1 P2 B2)")
        if lo > hi:
            raise UsageError(f"--reveal {t}: the range is empty ({lo} > {hi})")
        return Reveal.uniform_count(lo, hi)
    names = [n.strip() for n in t.split(",")]
    if len(names) > 4:
        raise UsageError(f"--reveal {t!r}: at most 4 cards can be revealed (P1 B1 P2 B2)")
    for n in names:
        if n.upper() not in ("P1", "B1", "P2", "B2"):
            shown = n if len(n) <= 20 else n[:20] + "..."
            raise UsageError(
                f"--reveal: {shown!r} is not a position (P1, B1, P2, B2), a number of cards 0-4 or a range such as 1-4"
            )
    if len({n.upper() for n in names}) != len(names):
        raise UsageError(f"--reveal {t!r}: a position is given twice")
    return Reveal.fixed(names)


def raises_value(text: str) -> tuple[int, ...]:
    """``--raises 1,2,3``: the multiples of the initial stake the player may play (1 among them).

    >>> raises_value("1, 2,3"), raises_value("1,5")
    ((1, 2, 3), (1, 5))
    """
    out = []
    for item in text.split(","):
        t = item.strip()
        if not re.fullmatch(r"[0-9]{1,4}", t):
            shown = t if len(t) <= 20 else t[:20] + "..."
            raise UsageError(f"--raises: {shown!r} is not a whole multiple of the stake such as 2")
        x = int(t)
        if x < 1:
            raise UsageError(f"--raises: {x} is not a multiple of the stake of at least 1")
        out.append(x)
    if 1 not in out:
        raise UsageError("--raises must include 1 (continuing with the initial bet is always allowed)")
    return tuple(sorted(set(out)))


def register(sub) -> None:
    p = sub.add_parser(
        "peek",
        help="exact RTP of Peek Baccarat: raises after a partial reveal; the inverse",
        description=DESCRIPTION,
    )
    add_shoe_options(p)
    g = p.add_argument_group("peek")
    g.add_argument(
        "--bet",
        default="player,banker",
        metavar="BETS",
        type=names_of("--bet", BETS),
        help="player, banker (default both)",
    )
    g.add_argument(
        "--reveal",
        metavar="K|LO-HI|POS,...",
        type=converter(reveal_value),
        help="the cards revealed: K cards (a uniform K-subset), K uniform on LO-HI, or positions "
        "such as P1,B1 (required unless --inverse)",
    )
    g.add_argument(
        "--raises",
        default="1,2,3",
        metavar="X,...",
        type=converter(raises_value),
        help="multiples of the initial stake offered (default 1,2,3)",
    )
    g.add_argument(
        "--fee",
        default="20%",
        metavar="F",
        type=converter(fee_value),
        help="the fee on the initial stake, in [0, 1) (default 20%%)",
    )
    g.add_argument(
        "--inverse",
        action="store_true",
        help="the reveal rules (k = 1..4, k uniform on 1..4, each fixed subset; mixtures of k) "
        "that reproduce the published Player 98.8%% and Banker 98.8%% (8 decks)",
    )
    add_output_options(p)
    p.set_defaults(func=cmd_peek)


def cmd_peek(args) -> int:
    from ..reports import peek_tables as docs
    from ..reports.peek import (
        CONVENTIONS,
        PEEK_BETS,
        PeekError,
        PeekGame,
        four_card_counts,
        inverse,
        mixture_inverse,
        price,
    )

    check_outputs(args.output)
    reveal = args.reveal
    try:
        game = PeekGame(fee=args.fee, raises=args.raises)
    except PeekError as e:
        raise UsageError(str(e)) from None
    shoe = shoe_from_args(args)
    if args.inverse:
        if reveal is not None:
            raise UsageError("--inverse searches the reveal rules: give no --reveal")
        if shoe != shoe.standard(8):
            raise UsageError("--inverse reproduces Peek Baccarat's published RTPs: 8 decks")
        counts = four_card_counts(shoe)
        rows = inverse(counts, game)
        mixtures = tuple(mixture_inverse(counts, c, game) for c in CONVENTIONS)
        inverse_doc = {"md": docs.inverse_markdown, "csv": docs.inverse_csv, "json": docs.inverse_json}[args.format]
        write_output(inverse_doc(rows, mixtures, shoe.describe()), args.output)
        return 0
    if reveal is None:
        raise UsageError("give --reveal (Evolution publishes none; --inverse searches them)")
    try:
        counts = four_card_counts(shoe)
    except PeekError as e:
        raise UsageError(str(e)) from None
    results = [price(counts, PEEK_BETS[b], reveal, game) for b in args.bet]
    fmt = {"md": docs.peek_markdown, "csv": docs.peek_csv, "json": docs.peek_json}[args.format]
    write_output(fmt(results, shoe.describe()), args.output)
    return 0


__all__ = ["register", "cmd_peek", "reveal_value", "raises_value"]
