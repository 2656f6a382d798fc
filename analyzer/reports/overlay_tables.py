"""The documents of ``baccarat overlay``: a multiplier overlay's exact RTP per bet, and the
inverse's closest overlays per family, as Markdown, CSV or JSON.

>>> from analyzer import Shoe
>>> from analyzer.reports.overlay import LIGHTNING_BETS, Overlay, pattern_ways, price
>>> o = Overlay.of(k=3, multipliers={2: 1})
>>> rows = [price(pattern_ways(Shoe.standard(1)), b, o) for b in LIGHTNING_BETS.values()]
>>> print(overlay_csv(rows, o, "1 deck").splitlines()[1][:40])
player,1:1,M x 1 + 0,0.4467604,1.0513803
"""

from __future__ import annotations

from fractions import Fraction

from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent
from .overlay import Overlay, OverlayBet, OverlayResult
from .overlay_games import OverlayGame
from .overlay_inverse import InverseResult

HEADERS = ["bet", "pays", "win pays", "P(win)", "return per stake", "RTP", "house edge"]


def describe(o: Overlay, cards: str = "lightning cards") -> str:
    """One line: the overlay as stated.

    >>> describe(Overlay.of(k=2, multipliers={2: "1/2", 8: "1/2"}))
    'k = 2 lightning cards of 52; multipliers x2 1/2, x8 1/2 (per card); fee 20% of the stake, paid on top'
    """
    ks = ", ".join(f"{k} {p}" for k, p in o.cards) if len(o.cards) > 1 else str(o.cards[0][0])
    mult = ", ".join(f"x{_num(x)} {p}" for x, p in o.multipliers)
    fee = (
        f"fee {percent(o.fee, 0)} of the stake, paid on top"
        if o.fee_mode == "stake"
        else f"fee {percent(o.fee, 0)} of the total outlay"
    )
    cap = "" if o.cap is None else f"; product capped at {_num(o.cap)}"
    return (f"k = {ks} {cards} of 52; multipliers {mult} (per {o.per}){cap}; {fee}").replace(
        "fee 0% of the stake, paid on top", "no fee"
    )


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _row(r: OverlayResult) -> list[str]:
    b = r.bet
    base = b.pays + b.offset
    return [
        b.name,
        f"{_num(base)}:1",
        f"M x {_num(b.pays)} {'-' if b.offset < 0 else '+'} {_num(abs(b.offset))}",
        decimal(Fraction(r.wins, r.deals), 7),
        decimal(r.returned, 7),
        percent(r.rtp, 4),
        percent(r.edge, 4),
    ]


def overlay_markdown(
    results: list[OverlayResult], o: Overlay, shoe: str, rules: str | None = None, game: OverlayGame | None = None
) -> str:
    title = f"{game.name}, {shoe}" if game is not None else shoe
    lines = [f"# Multiplier overlay: {title}", "", describe(o, game.card_name if game else "lightning cards"), ""]
    if rules:
        lines += [f"Rules: {rules}", ""]
    lines += [
        md_table([_row(r) for r in results], HEADERS),
        "",
        f"Exact over {results[0].deals:,} ordered six-card deals and every overlay draw "
        "(the marked identities and their multipliers), not simulated.  A winning bet returns "
        "the stake plus its win pays; Player and Banker are returned on a tie; the RTP is "
        "per unit paid, stake and fee.",
        "",
    ]
    lines += ["| bet | RTP (exact) |", "|-----|-------------|"]
    lines += [f"| {r.bet.name} | {exact(r.rtp)} |" for r in results]
    return "\n".join(lines) + "\n"


def overlay_csv(
    results: list[OverlayResult], o: Overlay, shoe: str, rules: str | None = None, game: OverlayGame | None = None
) -> str:
    return csv_text([_row(r) + [exact(r.rtp)] for r in results], HEADERS + ["RTP exact"])


def overlay_json(
    results: list[OverlayResult], o: Overlay, shoe: str, rules: str | None = None, game: OverlayGame | None = None
) -> str:
    doc = {
        "game": "lightning" if game is None else game.key,
        "shoe": shoe,
        "overlay": {
            "lightning_cards": {str(k): exact(p) for k, p in o.cards},
            "multipliers": {_num(x): exact(p) for x, p in o.multipliers},
            "per": o.per,
            "fee": exact(o.fee),
            "fee_mode": o.fee_mode,
            "cap": None if o.cap is None else exact(o.cap),
            "text": describe(o, game.card_name if game else "lightning cards"),
        },
        "deals": results[0].deals,
        "bets": [
            {
                "bet": r.bet.name,
                "pays": exact(r.bet.pays),
                "offset": exact(r.bet.offset),
                "push_on_tie": r.bet.push_on_tie,
                "wins": r.wins,
                "pushes": r.pushes,
                "returned": exact(r.returned),
                "rtp": exact(r.rtp),
                "rtp_decimal": float(r.rtp),
            }
            for r in results
        ],
    }
    if rules:
        doc["rules"] = rules
    return json_text(doc)


def _headers(values) -> list[str]:
    weights = "weights " + " ".join(f"x{v}" for v in values)
    return ["family", "reproduces", "reading", "largest miss", weights, "player", "banker", "tie", "pairs"]


#: The columns of the inverse's table for Lightning's multipliers.
INVERSE_HEADERS = _headers((2, 3, 4, 5, 8))


def _inverse_row(r: InverseResult, values) -> list[str]:
    weights = " ".join(decimal(p, 6) for _, p in _full(r, values))
    return [
        r.family,
        "yes" if r.reproduces else "no",
        r.reading,
        percent(r.deviation, 4),
        weights,
        *(percent(r.results[b].rtp, 4) for b in ("player", "banker", "tie", "player_pair")),
    ]


def _full(r: InverseResult, values):
    have = dict(r.overlay.multipliers)
    return [(x, have.get(Fraction(x), Fraction(0))) for x in values]


def inverse_markdown(results: list[InverseResult], game: OverlayGame, published: dict[str, Fraction]) -> str:
    pub = ", ".join(f"{b} {percent(p, game.digits[b])}" for b, p in published.items())
    values = " ".join(f"x{v}" for v in game.multiplier_values)
    fams = ", ".join(game.families)
    readings = sorted({r.reading for r in results}, key=[x.name for x in game.readings].index)
    lines = [
        f"# {game.name}: overlays that reproduce the published RTPs",
        "",
        f"Published: {pub} ({game.decks} decks; {game.summary}).  Families: the number of "
        f"marked cards k ({fams}), multipliers {values} with unknown weights; readings: "
        f"{'; '.join(readings)}.  'reproduces': every exact RTP of the weights shown rounds to the "
        "published figure; otherwise the closest weights found (a numerical search; its answer "
        "priced exactly).",
        "",
        md_table([_inverse_row(r, game.multiplier_values) for r in results], _headers(game.multiplier_values)),
        "",
        "Sources:",
        "",
    ]
    lines += [f"- {s}" for s in game.sources]
    return "\n".join(lines) + "\n"


def inverse_csv(results: list[InverseResult], game: OverlayGame, published) -> str:
    values = game.multiplier_values
    return csv_text([_inverse_row(r, values) for r in results], _headers(values))


def inverse_json(results: list[InverseResult], game: OverlayGame, published) -> str:
    return json_text(
        {
            "game": game.key,
            "published": {b: exact(p) for b, p in published.items()},
            "sources": list(game.sources),
            "families": [
                {
                    "family": r.family,
                    "reading": r.reading,
                    "reproduces": r.reproduces,
                    "largest_miss": exact(r.deviation),
                    "weights": {str(x): exact(p) for x, p in _full(r, game.multiplier_values)},
                    "rtp": {b: exact(x.rtp) for b, x in r.results.items()},
                    "rtp_decimal": {b: float(x.rtp) for b, x in r.results.items()},
                }
                for r in results
            ],
        }
    )


GAMES_HEADERS = ["game", "name", "decks", "marked cards", "multipliers", "fee", "bets", "published RTP"]


def _pays(b: OverlayBet) -> str:
    """``banker M-0.05:1``: the bet's pay to 1 on a win, ``M`` its multiplier product."""
    m = "M" if b.pays == 1 else f"{_num(b.pays)}M"
    off = "" if not b.offset else f"{'-' if b.offset < 0 else '+'}{_num(abs(b.offset))}"
    return f"{b.name} {m}{off}:1"


def _game_row(g: OverlayGame) -> list[str]:
    cards = (
        "not stated (" + ", ".join(g.families) + ")"
        if g.cards is None
        else ", ".join(f"{k}" if p == 1 else f"{k} {p}" for k, p in g.cards.items())
    )
    fee = f"{percent(g.fee, 0)} {'on top' if g.fee_mode == 'stake' else 'of the outlay'}"
    return [
        g.key,
        g.name,
        str(g.decks),
        cards,
        " ".join(f"x{v}" for v in g.multiplier_values) + " (weights not published)",
        fee,
        ", ".join(_pays(b) for b in g.bets.values()),
        ", ".join(f"{b} {percent(p, g.digits[b])}" for b, p in g.published.items()),
    ]


def games_markdown(games: list[OverlayGame]) -> str:
    lines = ["# Multiplier-overlay games", "", md_table([_game_row(g) for g in games], GAMES_HEADERS), ""]
    for g in games:
        lines += [f"{g.key}: " + ", ".join(g.sources), ""]
    return "\n".join(lines)


def games_csv(games: list[OverlayGame]) -> str:
    return csv_text([_game_row(g) + [" ".join(g.sources)] for g in games], GAMES_HEADERS + ["sources"])


def games_json(games: list[OverlayGame]) -> str:
    return json_text(
        {
            "games": [
                {
                    "game": g.key,
                    "name": g.name,
                    "decks": g.decks,
                    "marked_cards": None if g.cards is None else {str(k): exact(p) for k, p in g.cards.items()},
                    "families": {n: {str(k): exact(p) for k, p in ks.items()} for n, ks in g.families.items()},
                    "multiplier_values": list(g.multiplier_values),
                    "fee": exact(g.fee),
                    "fee_mode": g.fee_mode,
                    "per": g.per,
                    "bets": {
                        b.name: {"pays": exact(b.pays), "offset": exact(b.offset), "push_on_tie": b.push_on_tie}
                        for b in g.bets.values()
                    },
                    "published": {b: exact(p) for b, p in g.published.items()},
                    "digits": dict(g.digits),
                    "match": list(g.match),
                    "readings": [r.name for r in g.readings],
                    "sources": list(g.sources),
                }
                for g in games
            ]
        }
    )
