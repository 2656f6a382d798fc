"""A rule set as the familiar printed tables, and the Player's option strategy.

Used by ``baccarat rules`` and, when a rule set other than Punto Banco is in
force, by ``baccarat odds`` (the strategy of ``--player-option best``).
"""

from __future__ import annotations

from ..core.choice import HandChoice
from ..core.rules import Rules, format_values
from ..io.tables import decimal, exact_or_none, json_text, md_table


def rules_markdown(rules: Rules, strategy: list[HandChoice] | None = None) -> str:
    """The tableau of ``rules`` in Markdown: naturals, the Player, the Banker's table."""
    out = [f"# Rules: {rules.name}", ""]
    out.append(
        f"- Naturals: a two-card {' or '.join(map(str, sorted(rules.naturals)))} ends the coup; nobody draws."
        if rules.naturals
        else "- Naturals: none (no two-card total ends the coup)."
    )
    out.append(
        f"- Player (no natural on either side): draws on {format_values(rules.player_draws)}, "
        f"stands on {_or_never(set(range(10)) - rules.player_draws - rules.naturals)}."
    )
    if rules.player_option:
        out.append(
            f"- Player's option: may stand or draw on {format_values(rules.player_option)} "
            "(`--player-option draw|stand|best`)."
        )
    if rules.player_hands:
        out.append(
            "- Player by hand: "
            + "; ".join(f"{a},{b} {'draws' if d else 'stands'}" for (a, b), d in rules.player_hands)
            + "."
        )
    out.append(
        f"- Banker, when the Player stood: draws on {format_values(rules.banker_if_player_stood)}, "
        f"stands on {_or_never(set(range(10)) - rules.banker_if_player_stood - rules.naturals)}."
    )
    out += ["", "## Banker, when the Player drew", ""]
    rows = [[", ".join(map(str, t)), d, s] for t, d, s in rules.banker_rows()]
    out.append(md_table(rows, ["Banker total", "Banker draws when Player's third card is", "Banker stands when it is"]))
    if strategy is not None:
        out += ["", *strategy_markdown(strategy)]
    out.append("")
    return "\n".join(out)


def _or_never(values) -> str:
    return format_values(values) if values else "no total"


STRATEGY_HEADERS = ["Player's two cards", "deals", "Player EV if it draws", "Player EV if it stands", "play"]


def strategy_markdown(strategy: list[HandChoice]) -> list[str]:
    """Lines of the ``--player-option best`` section: the exact best play of each hand."""
    out = [
        "## Player's option: best play for this shoe",
        "",
        "The Player sees the point values of its two cards (and that nobody has a natural) and "
        "plays to maximise the Player bet's EV given them, over every ordered deal of the rest of "
        "the shoe off the top; an exact tie keeps the rule set's default.",
        "",
    ]
    rows = [
        [f"{a}, {b}", str(c.ways), _ev(c.ev_draw), _ev(c.ev_stand), "draw" if c.draws else "stand"]
        for c in strategy
        for a, b in [c.hand]
    ]
    out.append(md_table(rows, STRATEGY_HEADERS, ["left", "right", "right", "right", "left"]))
    return out


def _ev(x) -> str:
    return "-" if x is None else f"{exact_or_none(x)} ({decimal(x, 6)})"


def strategy_dict(strategy: list[HandChoice]) -> list[dict]:
    return [
        {
            "hand": list(c.hand),
            "deals": c.ways,
            "ev_draw": exact_or_none(c.ev_draw),
            "ev_stand": exact_or_none(c.ev_stand),
            "play": "draw" if c.draws else "stand",
        }
        for c in strategy
    ]


def rules_json(rules: Rules, strategy: list[HandChoice] | None = None) -> str:
    """``baccarat rules --format json``: :func:`rules_dict` as JSON text."""
    return json_text(rules_dict(rules, strategy))


def rules_dict(rules: Rules, strategy: list[HandChoice] | None = None) -> dict:
    """The JSON document of a rule set (and of its best play by hand, if given)."""
    doc = {
        "name": rules.name,
        "naturals": sorted(rules.naturals),
        "player_draws": sorted(rules.player_draws),
        "player_option": sorted(rules.player_option),
        "player_hands": [{"hand": list(h), "draws": d} for h, d in rules.player_hands],
        "banker_if_player_stood": sorted(rules.banker_if_player_stood),
        "banker": [{"totals": list(t), "draws": d, "stands": s} for t, d, s in rules.banker_rows()],
    }
    if strategy is not None:
        doc["strategy"] = strategy_dict(strategy)
    return doc
