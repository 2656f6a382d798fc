"""The documents of ``baccarat peek``: the Player and Banker bets' exact RTP under a reveal rule
and a raise menu, and the inverse over the reveal rules searched, as Markdown, CSV or JSON.

>>> from analyzer import Shoe
>>> from analyzer.reports.peek import PEEK_BETS, PeekGame, Reveal, four_card_counts, price
>>> c = four_card_counts(Shoe.standard(8))
>>> rows = [price(c, b, Reveal.uniform(2), PeekGame()) for b in PEEK_BETS.values()]
>>> print(peek_csv(rows, "8 decks").splitlines()[1][:56])
player,1:1,98.1446%,1.8554%,96.8955%,3.1045%,1.807847,"x
"""

from __future__ import annotations

from fractions import Fraction

from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent
from .peek import (
    CONVENTIONS,
    PUBLISHED,
    PUBLISHED_ROUNDING,
    SOURCES,
    InverseRow,
    MixtureAnswer,
    PeekGame,
    PeekResult,
    Reveal,
    miss,
)

HEADERS = [
    "bet",
    "pays",
    "RTP (of total paid)",
    "house edge (of total paid)",
    "RTP (loss per initial stake + fee)",
    "house edge (per initial stake + fee)",
    "mean stake",
    "plays",
    "EV exactly 0 (kept 1)",
    "no-raise RTP",
]


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def describe_game(game: PeekGame) -> str:
    """One line: the fee and the menu.

    >>> describe_game(PeekGame())
    'fee 20% of the initial stake, paid on top (none on a raise); the player plays x1, x2 or x3 the initial stake'
    """
    menu = ", ".join(f"x{x}" for x in game.raises[:-1])
    menu = f"{menu} or x{game.raises[-1]}" if menu else f"x{game.raises[-1]}"
    fee = "no fee" if game.fee == 0 else f"fee {_pct(game.fee)} of the initial stake, paid on top (none on a raise)"
    return f"{fee}; the player plays {menu} the initial stake"


def _pct(x: Fraction) -> str:
    text = f"{float(x * 100):.6f}".rstrip("0").rstrip(".")
    return f"{text}%"


def describe_reveal(reveal: Reveal) -> str:
    """One line: the reveal rule and its subsets."""
    if len(reveal.subsets) == 1:
        return f"reveal: {reveal.name}, always"
    return f"reveal: {reveal.name}"


def _plays(r: PeekResult) -> str:
    return ", ".join(f"x{x} {percent(Fraction(w, r.denominator), 4)}" for x, w in r.played)


def _row(r: PeekResult) -> list[str]:
    return [
        r.bet.name,
        f"{_num(r.bet.pays)}:1",
        percent(r.rtp_paid, 4),
        percent(r.edge_paid, 4),
        percent(r.rtp_initial, 4),
        percent(r.edge_initial, 4),
        decimal(r.expected_stake, 6),
        _plays(r),
        percent(Fraction(r.level, r.denominator), 4),
        percent(r.plain_rtp, 4),
    ]


def peek_markdown(results: list[PeekResult], shoe: str) -> str:
    r0 = results[0]
    lines = [
        f"# Peek Baccarat: {shoe}",
        "",
        describe_reveal(r0.reveal) + ".",
        describe_game(r0.game) + "; the largest when the bet's EV given the revealed cards is positive, else x1.",
        "",
        md_table([_row(r) for r in results], HEADERS),
        "",
        f"Exact over {r0.deals:,} ordered six-card deals, each weighted by the reveal rule's "
        "probabilities; Player and Banker are returned on a tie.  'RTP (of total paid)': the "
        "expected return over the expected total paid, initial stake + fee + raises; 'RTP (loss "
        "per initial stake + fee)': 1 - the expected loss over the initial stake + fee.  "
        "'no-raise RTP': the bet with the fee and no raise.",
        "",
        "| bet | RTP of total paid (exact) | RTP per initial stake + fee (exact) |",
        "|-----|---------------------------|-------------------------------------|",
    ]
    lines += [f"| {r.bet.name} | {exact(r.rtp_paid)} | {exact(r.rtp_initial)} |" for r in results]
    return "\n".join(lines) + "\n"


def peek_csv(results: list[PeekResult], shoe: str) -> str:
    return csv_text(
        [_row(r) + [exact(r.rtp_paid), exact(r.rtp_initial)] for r in results],
        HEADERS + ["RTP of total paid exact", "RTP per initial exact"],
    )


def _reveal_json(reveal: Reveal) -> dict:
    return {
        "name": reveal.name,
        "subsets": [{"positions": [("P1", "B1", "P2", "B2")[i] for i in s], "p": exact(p)} for s, p in reveal.subsets],
    }


def _result_json(r: PeekResult) -> dict:
    return {
        "bet": r.bet.name,
        "pays": exact(r.bet.pays),
        "denominator": r.denominator,
        "scale": r.scale,
        "staked": r.staked,
        "returned": r.returned,
        "plain_returned": r.plain,
        "played": {str(x): w for x, w in r.played},
        "ev_zero_kept": r.level,
        "rtp_paid": exact(r.rtp_paid),
        "rtp_paid_decimal": float(r.rtp_paid),
        "rtp_initial": exact(r.rtp_initial),
        "rtp_initial_decimal": float(r.rtp_initial),
        "house_edge_paid": exact(r.edge_paid),
        "house_edge_initial": exact(r.edge_initial),
        "mean_stake": exact(r.expected_stake),
        "no_raise_rtp": exact(r.plain_rtp),
        "no_raise_rtp_decimal": float(r.plain_rtp),
    }


def peek_json(results: list[PeekResult], shoe: str) -> str:
    r0 = results[0]
    return json_text(
        {
            "shoe": shoe,
            "reveal": _reveal_json(r0.reveal),
            "fee": exact(r0.game.fee),
            "raises": list(r0.game.raises),
            "deals": r0.deals,
            "bets": [_result_json(r) for r in results],
        }
    )


INVERSE_HEADERS = [
    "reveal rule",
    "Player RTP (of total paid)",
    "Banker RTP (of total paid)",
    "reproduces (of total paid)",
    "Player RTP (per initial)",
    "Banker RTP (per initial)",
    "reproduces (per initial)",
]


def _inverse_row(row: InverseRow) -> list[str]:
    p, b = row.results
    return [
        row.reveal.name,
        percent(p.rtp_paid, 4),
        percent(b.rtp_paid, 4),
        "yes" if row.paid else f"no (miss {percent(miss(row.results, 'paid'), 4)})",
        percent(p.rtp_initial, 4),
        percent(b.rtp_initial, 4),
        "yes" if row.initial else f"no (miss {percent(miss(row.results, 'initial'), 4)})",
    ]


def answer(rows: tuple[InverseRow, ...]) -> list[str]:
    """The inverse's answer over the family, one sentence per convention."""
    out = []
    for conv, label in zip(CONVENTIONS, ("of total paid", "per initial stake + fee")):
        hits = [r.reveal.name for r in rows if (r.paid if conv == "paid" else r.initial)]
        if hits:
            out.append(f"RTP {label}: reproduced by {'; '.join(hits)}.")
        else:
            best = min(rows, key=lambda r: miss(r.results, conv))
            out.append(
                f"RTP {label}: none of the {len(rows)} reveal rules reproduces both; the closest, "
                f"{best.reveal.name}, misses by {percent(miss(best.results, conv), 4)}."
            )
    return out


def _mixture_lines(m: MixtureAnswer) -> list[str]:
    label = "of total paid" if m.convention == "paid" else "per initial stake + fee"
    if m.example is None or m.results is None:
        return [f"RTP {label}: no distribution of k on 1-4 reproduces both (exact: the polytope is empty)."]
    spans = []
    for k in range(1, 5):
        lo, hi = m.range(k) or (Fraction(0), Fraction(0))
        spans.append(f"P(k={k}) {decimal(lo, 4)}-{decimal(hi, 4)}")
    ranges = ", ".join(spans)
    ex = ", ".join(f"P(k={k}) {decimal(q, 6)}" for k, q in enumerate(m.example, 1))
    rtps = ", ".join(
        f"{r.bet.name} {percent(r.rtp_paid if m.convention == 'paid' else r.rtp_initial, 4)}" for r in m.results
    )
    return [
        f"RTP {label}: reproduced by a polytope of distributions of k ({len(m.vertices)} vertices; {ranges}); "
        f"its centroid {ex} gives {rtps}" + (" (both round to the published figures)." if m.reproduces else ".")
    ]


def inverse_markdown(rows: tuple[InverseRow, ...], mixtures: tuple[MixtureAnswer, ...], shoe: str) -> str:
    game = rows[0].results[0].game
    pub = ", ".join(f"{b} {percent(p, 1)}" for b, p in PUBLISHED.items())
    lines = [
        "# Peek Baccarat: the reveal rules that reproduce the published RTPs",
        "",
        f"Published: {pub} (8 decks; 'reproduces': both exact RTPs round to it, within "
        f"{percent(PUBLISHED_ROUNDING, 2)}).  {shoe}; {describe_game(game)}.",
        "",
        md_table([_inverse_row(r) for r in rows], INVERSE_HEADERS),
        "",
        *answer(rows),
        "",
        "Beyond the family: k distributed over 1-4 with any probabilities (a uniform k-subset), exactly:",
        "",
        *(line for m in mixtures for line in _mixture_lines(m)),
        "",
        "Sources:",
        "",
    ]
    lines += [f"- {s}" for s in SOURCES]
    return "\n".join(lines) + "\n"


def inverse_csv(rows: tuple[InverseRow, ...], mixtures: tuple[MixtureAnswer, ...], shoe: str) -> str:
    return csv_text([_inverse_row(r) for r in rows], INVERSE_HEADERS)


def inverse_json(rows: tuple[InverseRow, ...], mixtures: tuple[MixtureAnswer, ...], shoe: str) -> str:
    return json_text(
        {
            "shoe": shoe,
            "published": {b: exact(p) for b, p in PUBLISHED.items()},
            "rounding": exact(PUBLISHED_ROUNDING),
            "sources": list(SOURCES),
            "family": [
                {
                    "reveal": _reveal_json(r.reveal),
                    "reproduces_paid": r.paid,
                    "reproduces_initial": r.initial,
                    "miss_paid": exact(miss(r.results, "paid")),
                    "miss_initial": exact(miss(r.results, "initial")),
                    "bets": [_result_json(x) for x in r.results],
                }
                for r in rows
            ],
            "answer": answer(rows),
            "mixtures": [
                {
                    "convention": m.convention,
                    "vertices": [[exact(q) for q in v] for v in m.vertices],
                    "example": None if m.example is None else [exact(q) for q in m.example],
                    "rtp": None
                    if m.results is None
                    else {
                        r.bet.name: exact(r.rtp_paid if m.convention == "paid" else r.rtp_initial) for r in m.results
                    },
                }
                for m in mixtures
            ],
        }
    )
