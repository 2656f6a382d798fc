"""The documents of the analyses: odds by decks, distributions, effects of removal, payouts.

Exact values are printed as reduced fractions ``p/q`` with a decimal beside them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.results import Analysis
from ..io.tables import csv_text, decimal, exact, json_text, md_table, percent
from .distributions import WINNERS, Distributions
from .eor import Effects

PLOTS_MISSING = (
    "*(Charts are not included: matplotlib is not installed. "
    "Install the `plots` extra, `pip install .[plots]`, and run the command again.)*"
)


def header(title: str, shoe_text: str, deals: int | None, command: str, extra: str = "", rules=None) -> list[str]:
    out = [f"# {title}", ""]
    out.append(f"- Shoe: {shoe_text}")
    if rules is None or rules.is_default:
        out.append(
            "- Rules: standard Punto Banco (naturals 8/9, Player draws on 0-5, Banker by the "
            "printed third-card table of analyzer/core/RULES.md)"
        )
    else:
        out.append(f"- Rules: {rules.describe()}")
    if deals is not None:
        out.append(
            f"- Denominator: {deals} ordered six-card deals (N (N-1) (N-2) (N-3) (N-4) (N-5)); "
            "a coup that ends after four or five cards is counted for every filling of the unused positions"
        )
    out.append(f"- Reproduce: `{command}`")
    if extra:
        out.append(f"- {extra}")
    out.append("")
    return out


# -- odds by number of decks ----------------------------------------------------------


def by_decks_rows(results: dict[int, Analysis], bet_ids: list[str]) -> list[list]:
    rows = []
    for bet_id in bet_ids:
        for decks, a in results.items():
            r = a.bet(bet_id)
            rows.append([bet_id, decks, a.deals, r.hit_frequency, r.ev, r.house_edge])
    return rows


def by_decks_markdown(results: dict[int, Analysis], tables: list, command: str, charts: dict | None) -> str:
    decks = list(results)
    out = header(
        "House edge by number of decks",
        "standard shoes of "
        + ", ".join(map(str, decks[:-1]))
        + (" and " if len(decks) > 1 else "")
        + f"{decks[-1]} decks",
        None,
        command,
        "Each cell: the house edge (-EV per unit staked) in percent; the exact fractions, hit "
        "frequencies (probability that the bet wins something) and EVs are in the CSV and JSON files.",
        next(iter(results.values())).rules,
    )
    for t in tables:
        out += [f"## {t.name} (`{t.id}`)", "", t.description, ""]
        rows = []
        for bet_id in t.bets:
            row = [bet_id]
            for d in decks:
                he = results[d].bet(bet_id).house_edge
                row.append(f"{percent(he, 4)}")
            rows.append(row)
        out.append(md_table(rows, ["bet"] + [f"{d} decks" for d in decks], ["left"] + ["right"] * len(decks)))
        out.append("")
        if charts is None:
            out += [PLOTS_MISSING, ""]
        elif t.id in charts:
            out += [f"![House edge by number of decks, {t.name}]({charts[t.id]})", ""]
    out += [
        "## Exact values",
        "",
        "Exact house edges, hit frequencies and EVs are in `odds_by_decks.csv` and `odds_by_decks.json`.",
        "",
    ]
    return "\n".join(out)


def by_decks_csv(results: dict[int, Analysis], bet_ids: list[str]) -> str:
    rows = [
        [b, d, deals, exact(h), decimal(h, 12), exact(ev), decimal(ev, 12), exact(he), decimal(he, 12)]
        for b, d, deals, h, ev, he in by_decks_rows(results, bet_ids)
    ]
    return csv_text(
        rows,
        [
            "bet",
            "decks",
            "deals",
            "hit_frequency",
            "hit_frequency_float",
            "ev",
            "ev_float",
            "house_edge",
            "house_edge_float",
        ],
    )


def by_decks_json(results: dict[int, Analysis], bet_ids: list[str]) -> str:
    doc = {
        str(d): {
            "deals": a.deals,
            "bets": {
                b: {
                    "hit_frequency": exact(a.bet(b).hit_frequency),
                    "ev": exact(a.bet(b).ev),
                    "house_edge": exact(a.bet(b).house_edge),
                    "house_edge_float": float(a.bet(b).house_edge),
                }
                for b in bet_ids
            },
        }
        for d, a in results.items()
    }
    return json_text({"decks": doc})


# -- distributions --------------------------------------------------------------------


def _grid(dist, rows_part: int = 0) -> tuple[list[list[str]], list[str]]:
    """A two-part distribution as a grid of ways: rows = first part, columns = second."""
    row_keys = list(dict.fromkeys(k[0] for k in dist.ways))
    col_keys = list(dict.fromkeys(k[1] for k in dist.ways))
    rows = []
    for r in row_keys:
        row = [str(r)] + [str(dist.ways[(r, c)]) for c in col_keys]
        row.append(str(sum(dist.ways[(r, c)] for c in col_keys)))
        rows.append(row)
    headers = [f"{dist.labels[0]} \\ {dist.labels[1]}"] + [str(c) for c in col_keys] + ["all"]
    return rows, headers


def distributions_markdown(d: Distributions, command: str) -> str:
    out = header(
        "Distributions of a coup",
        d.shoe.describe(),
        d.deals,
        command,
        "Ways are exact counts over the denominator; probabilities and exact fractions are in the CSV and JSON files.",
        d.rules,
    )
    for dist in d.tables.values():
        out += [f"## {dist.title}", ""]
        if len(dist.labels) == 2:
            rows, headers = _grid(dist)
            out.append(md_table(rows, headers, ["left"] + ["right"] * (len(headers) - 1)))
        else:
            rows = [
                [str(k[0]), str(w), exact(Fraction(w, d.deals)), decimal(Fraction(w, d.deals))]
                for k, w in dist.ways.items()
            ]
            out.append(
                md_table(rows, [dist.labels[0], "ways", "probability", "decimal"], ["left", "right", "right", "right"])
            )
        out.append("")
    for cond in d.conditionals.values():
        out += [
            f"## {cond.title}",
            "",
            "Each row: the probability of each final outcome given the "
            "condition (rows sum to 1); `ways` is the number of deals meeting the condition.",
            "",
        ]
        rows = []
        for k, w in cond.ways.items():
            total = sum(w)
            if total == 0:
                rows.append([*map(str, k), "0", "-", "-", "-"])
                continue
            rows.append([*map(str, k), str(total)] + [decimal(Fraction(x, total), 6) for x in w])
        out.append(
            md_table(
                rows,
                list(cond.labels) + ["ways", "player", "banker", "tie"],
                ["left"] * len(cond.labels) + ["right"] * 4,
            )
        )
        out.append("")
    return "\n".join(out)


def distributions_csv(d: Distributions) -> str:
    rows = []
    for dist in d.tables.values():
        for k, w in dist.ways.items():
            p = Fraction(w, d.deals)
            rows.append(
                [dist.name, "|".join(dist.labels), "|".join(map(str, k)), "", w, d.deals, exact(p), decimal(p, 15)]
            )
    for cond in d.conditionals.values():
        for k, ws in cond.ways.items():
            total = sum(ws)
            for winner, w in zip(WINNERS, ws):
                q = Fraction(w, total) if total else None
                rows.append(
                    [
                        cond.name,
                        "|".join(cond.labels),
                        "|".join(map(str, k)),
                        winner,
                        w,
                        total,
                        exact(q) if q is not None else "",
                        decimal(q, 15) if q is not None else "",
                    ]
                )
    return csv_text(rows, ["table", "key_labels", "key", "outcome", "ways", "of", "probability", "probability_float"])


def distributions_json(d: Distributions) -> str:
    doc: dict[str, Any] = {
        "shoe": {"cards": d.shoe.cards, "counts": d.shoe.rank_counts},
        "deals": d.deals,
        "tables": {},
        "conditionals": {},
    }
    for dist in d.tables.values():
        doc["tables"][dist.name] = {
            "title": dist.title,
            "labels": list(dist.labels),
            "cells": [{"key": list(k), "ways": w} for k, w in dist.ways.items()],
        }
    for cond in d.conditionals.values():
        doc["conditionals"][cond.name] = {
            "title": cond.title,
            "labels": list(cond.labels),
            "rows": [{"key": list(k), "ways": sum(ws), **dict(zip(WINNERS, ws))} for k, ws in cond.ways.items()],
        }
    return json_text(doc)


# -- effects of removal ---------------------------------------------------------------


def eor_markdown(e: Effects, command: str, charts: dict | None) -> str:
    from ..core.cards import RANKS

    out = header(
        f"Effects of removal ({e.cards} card{'s' if e.cards > 1 else ''} of a rank)",
        e.shoe.describe(),
        None,
        command,
        "Effect = EV(shoe without the cards) - EV(shoe), exact; shown here in percent of a unit "
        "staked. Tags are the effects scaled to small integers (an ideal linear count); "
        "correlation is the frequency-weighted Pearson correlation of tags and effects.",
        e.rules,
    )
    rows = []
    notes = []
    for b in e.bets.values():
        if b.vanishes:
            rows.append([b.bet.id] + ["0"] * len(RANKS) + ["-", "-"])
            notes.append(b.bet.id)
            continue
        tags = b.tags()
        row = [b.bet.id] + [("n/a" if (eff := b.effect(r)) is None else f"{float(eff) * 100:+.5f}") for r in RANKS]
        same = all(tags[r] == tags["T"] for r in "JQK")
        row.append(" ".join(f"{r}:{tags[r]:+d}" for r in RANKS if r not in "JQK" or not same))
        corr = b.correlation(tags)
        row.append("n/a" if corr is None else f"{corr:.4f}")
        rows.append(row)
    out.append(
        md_table(
            rows,
            ["bet"] + list(RANKS) + ["ideal tags (J Q K = T unless listed)", "correlation"],
            ["left"] + ["right"] * len(RANKS) + ["left", "right"],
        )
    )
    out.append("")
    if notes:
        out += [
            f"Every effect of {', '.join(f'`{n}`' for n in notes)} is exactly 0: removing "
            f"{e.cards} card{'s' if e.cards > 1 else ''} of any one rank leaves the EV unchanged "
            "(the bet treats all ranks alike), so no linear count can find an edge; these bets show "
            "no tags.",
            "",
        ]
    if charts is None:
        out += [PLOTS_MISSING, ""]
    else:
        for b in e.bets.values():
            if b.bet.id in charts:
                out += [f"![Effects of removal, {b.bet.name}]({charts[b.bet.id]})", ""]
    return "\n".join(out)


def eor_csv(e: Effects) -> str:
    from ..core.cards import RANKS

    rows = []
    for b in e.bets.values():
        tags = b.tags()
        for r in RANKS:
            eff = b.effect(r)
            rows.append(
                [
                    b.bet.id,
                    r,
                    e.cards,
                    "" if eff is None else exact(eff),
                    "" if eff is None else f"{float(eff) * 100:.10f}",
                    tags[r],
                    exact(b.base_ev),
                ]
            )
    return csv_text(rows, ["bet", "rank", "cards_removed", "effect", "effect_percent", "tag", "base_ev"])


def eor_json(e: Effects) -> str:
    doc: dict[str, Any] = {
        "shoe": {"cards": e.shoe.cards, "counts": e.shoe.rank_counts},
        "cards_removed": e.cards,
        "bets": {},
    }
    for b in e.bets.values():
        tags = b.tags()
        corr = None if b.vanishes else b.correlation(tags)
        doc["bets"][b.bet.id] = {
            "base_ev": exact(b.base_ev),
            "effects": {r: (None if eff is None else exact(eff)) for r, eff in b.effects.items()},
            "vanishes": b.vanishes,
            "tags": tags,
            "correlation": corr,
        }
    return json_text(doc)


# -- EV as a polynomial in the payouts ------------------------------------------------


def payouts_markdown(a: Analysis, command: str) -> str:
    from ..bets.breakeven import breakeven, ev_polynomial

    out = header(
        "EV as a function of the payouts, and break-even payouts",
        a.shoe.describe(),
        a.deals,
        command,
        "The EV is linear in each payout: x1, x2, ... are the payouts (to 1) of the "
        "bet's events in pay-table order, the last one the 'otherwise' event (-1 when it loses). "
        "Break-even: the payout of the bet's first paying event that makes the EV exactly 0, "
        "the others as printed.",
        a.rules,
    )
    for r in a.bets.values():
        poly, symbols = ev_polynomial(r)
        be = breakeven(r)
        out += [f"## {r.bet.name} (`{r.bet.id}`)", ""]
        out.append("EV = `" + str(poly) + "`")
        out.append("")
        rows = [[str(s), ev, f"{e.pays}"] for (s, ev), e in zip(symbols.items(), r.events)]
        out.append(md_table(rows, ["symbol", "event", "pays now"]))
        out.append("")
        if be.pays is None:
            out.append(f"Break-even: none (`{be.event}` never happens on this shoe).")
        else:
            line = f"Break-even payout for `{be.event}`: {be.pays} = {float(be.pays):.6f} to 1 (now {be.current})."
            if 0 < be.current < 1 and (commission := be.commission) is not None:  # (pays is not None)
                line += f" As a commission on a 1:1 win: {float(commission):.4%}."
            out.append(line)
        out.append("")
    return "\n".join(out)


def payouts_csv(a: Analysis) -> str:
    from ..bets.breakeven import breakeven

    rows = []
    for r in a.bets.values():
        be = breakeven(r)
        for e in r.events:
            rows.append(
                [
                    r.bet.id,
                    e.event,
                    exact(e.pays),
                    e.ways,
                    a.deals,
                    "" if be.pays is None or e.event != be.event else f"{be.pays.p}/{be.pays.q}",
                ]
            )
    return csv_text(rows, ["bet", "event", "pays", "ways", "deals", "breakeven_pays"])
