"""The documents of the mid-coup analyses: insurance odds, known-card edges, Baccarat Gold."""

from __future__ import annotations

from fractions import Fraction

from ..core.results import Analysis
from ..core.rules import GOLD, format_values
from ..io.tables import decimal, exact, json_text, md_table, percent, to_float
from .analysis_tables import header
from .midcoup import InsuranceCell

POSITIONS = {1: "1 (P1)", 2: "2 (B1)", 3: "3 (P2)", 4: "4 (B2)", 5: "5 (fifth card)", 6: "6 (sixth card)"}


def _other(rules):
    """``rules`` unless it is Punto Banco (None)."""
    return None if rules is None or rules.is_default else rules


def _with_rules(doc: dict, rules) -> dict:
    """``doc`` with a ``"rules"`` key after ``"shoe"`` when the rules are not Punto Banco."""
    if _other(rules) is None:
        return doc
    out = {}
    for k, v in doc.items():
        out[k] = v
        if k == "shoe":
            out["rules"] = rules.describe()
    return out


def insurance_markdown(cells: list[InsuranceCell], shoe_text: str, command: str, rules=None) -> str:
    out = header(
        "Insurance: the odds once four cards are known by their totals",
        shoe_text,
        None,
        command,
        "Every pair of two-card totals without a natural; the outcome's exact probability given "
        "both totals (the deals with those totals, counted as everywhere else)",
        _other(rules),
    )
    rows = [
        [
            str(c.player_total),
            str(c.banker_total),
            exact(c.player),
            decimal(c.player, 6),
            exact(c.banker),
            decimal(c.banker, 6),
            exact(c.tie),
            decimal(c.tie, 6),
        ]
        for c in cells
    ]
    out.append(
        md_table(
            rows,
            ["Player total", "Banker total", "Player wins", "decimal", "Banker wins", "decimal", "tie", "decimal"],
            ["right"] * 8,
        )
    )
    out.append("")
    return "\n".join(out)


def insurance_json(cells: list[InsuranceCell], shoe: dict, rules=None) -> str:
    return json_text(
        _with_rules(
            {
                "shoe": shoe,
                "cells": [
                    {
                        "player_total": c.player_total,
                        "banker_total": c.banker_total,
                        "ways": c.ways,
                        **{k: exact(v) for k, v in (("player", c.player), ("banker", c.banker), ("tie", c.tie))},
                        **{
                            f"{k}_float": to_float(v)
                            for k, v in (("player", c.player), ("banker", c.banker), ("tie", c.tie))
                        },
                    }
                    for c in cells
                ],
            },
            rules,
        )
    )


def known_edges_markdown(report: dict[str, dict[int, Fraction]], shoe_text: str, command: str, rules=None) -> str:
    out = header(
        "Known-card edges: the value of seeing one card",
        shoe_text,
        None,
        command,
        "For each dealing position: the player's average edge from knowing that card's point value "
        "and then betting the better of the bets named or nothing (exact, over the shoe's cards)",
        _other(rules),
    )
    names = list(report)
    rows = [
        [POSITIONS[pos]] + [f"{percent(report[n][pos], 3)} = {exact(report[n][pos])}" for n in names]
        for pos in range(1, 7)
    ]
    out.append(md_table(rows, ["position known"] + names, ["left"] + ["right"] * len(names)))
    out.append("")
    if shoe_text == "8 decks (416 cards)" and _other(rules) is None:
        out += [
            "Player or Banker reproduces Jacobson's published 6.765% (positions 1 and 3), 6.406% "
            "(2 and 4), 8.973% (5) and 9.098% (6) for 8 decks; the side bets' figures are computed here.",
            "",
        ]
    return "\n".join(out)


def known_edges_json(report: dict[str, dict[int, Fraction]], shoe: dict, rules=None) -> str:
    return json_text(
        _with_rules(
            {
                "shoe": shoe,
                "edges": {
                    name: {str(p): {"edge": exact(e), "edge_float": to_float(e)} for p, e in edges.items()}
                    for name, edges in report.items()
                },
            },
            rules,
        )
    )


def gold_markdown(results: dict[str, Analysis], shoe_text: str, command: str, rules=None) -> str:
    """``rules``: the rule set whose Player option is played (Baccarat Gold by default)."""
    if rules is None or rules == GOLD:
        title, rules = "Baccarat Gold: every bet with the Player drawing, standing or playing best on 5", GOLD
        see = "baccarat odds --rules gold --player-option best"
    else:
        title = (
            f"The Player's option ({rules.name}): every bet with the Player drawing, standing or playing "
            f"best on {format_values(rules.player_option)}"
        )
        see = "baccarat odds --rules FILE --player-option best"
    out = header(
        title,
        shoe_text,
        next(iter(results.values())).deals,
        command,
        rules=rules,
        extra=f"Best play: the Player's exact best choice on {format_values(rules.player_option)} for "
        f"each two-card hand on this shoe (see {see})",
    )
    first = next(iter(results.values()))
    rows = []
    for bet_id in first.bets:
        rows.append([bet_id] + [f"{percent(a.bet(bet_id).house_edge, 4)}" for a in results.values()])
    out.append(
        md_table(rows, ["bet"] + [f"house edge, Player {c}" for c in results], ["left"] + ["right"] * len(results))
    )
    out.append("")
    out.append(
        md_table(
            [[c] + [str(a.ways(o)) for o in ("player", "banker", "tie")] for c, a in results.items()],
            ["Player", "Player wins", "Banker wins", "ties"],
            ["left", "right", "right", "right"],
        )
    )
    out.append("")
    return "\n".join(out)


def gold_json(results: dict[str, Analysis], shoe: dict, rules=None) -> str:
    named = "gold" if rules is None or rules == GOLD else rules.describe()
    return json_text(
        {
            "shoe": shoe,
            "rules": named,
            "choices": {
                c: {
                    "outcomes": dict(a.outcomes),
                    "deals": a.deals,
                    "house_edge": {b: exact(r.house_edge) for b, r in a.bets.items()},
                    "house_edge_float": {b: to_float(r.house_edge) for b, r in a.bets.items()},
                }
                for c, a in results.items()
            },
        }
    )
