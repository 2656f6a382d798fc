"""The Player's option (Baccarat Gold: stand or draw on 5), played exactly.

What the Player sees: the point values of its own two cards (ranks beyond the
value change nothing: the remaining shoe's point values are what the coup
reads).  The choice is made after the naturals are checked, so the Player also
knows that neither hand has a natural; that changes no comparison, since a
natural ends the coup whatever the choice.

What is optimised: the Player bet's expected net win (pays 1:1, a tie pushes)
given those two cards, over every ordered deal of the rest of the shoe off the
top.  For each two-card hand ``(v1, v2)`` on an option total the engine counts,
over all ordered six-card deals with P1, P2 of those values, the Player's wins
minus losses when the Player draws and when it stands: both share the
denominator ``ways(v1, v2)``, so the comparison is exact on integers.  An exact
tie keeps the rule set's default (``player_draws``).  The strategy depends on
the shoe; :func:`best_rules` returns the :class:`Rules` that plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .engine import Tabulation, coup_table
from .rules import Rules


@dataclass(frozen=True)
class HandChoice:
    """One two-card Player hand on an option total and the exact best play."""

    hand: tuple[int, int]  # point values, v1 <= v2
    ways: int  # ordered six-card deals with P1, P2 of these values (either order)
    draw_net: int  # Player wins minus losses when the Player draws, over those deals
    stand_net: int  # ... when the Player stands
    draws: bool  # the choice played

    @property
    def ev_draw(self) -> Fraction | None:
        return Fraction(self.draw_net, self.ways) if self.ways else None

    @property
    def ev_stand(self) -> Fraction | None:
        return Fraction(self.stand_net, self.ways) if self.ways else None


def option_hands(rules: Rules) -> list[tuple[int, int]]:
    """Two-card hands (point values ``v1 <= v2``) whose total the Player may choose on."""
    return [(a, b) for a in range(10) for b in range(a, 10) if (a + b) % 10 in rules.player_option]


@lru_cache(maxsize=8)
def _compiled(rules: Rules):
    hands = option_hands(rules)
    draw, stand = rules.with_player_option("draw"), rules.with_player_option("stand")
    index = np.full((10, 10), -1, dtype=np.int64)
    for i, (a, b) in enumerate(hands):
        index[a, b] = index[b, a] = i
    tabs = []
    for variant in (draw, stand):
        table = coup_table(variant)
        hand = index[table.p1, table.p2]
        groups = np.where(hand >= 0, hand * 3 + table.winner, -1)
        tabs.append(Tabulation.grouped(groups, 3 * len(hands), table))
    return hands, tabs


def best_strategy(rules: Rules, value_counts) -> list[HandChoice]:
    """The exact best play of every option hand for a shoe with these value counts."""
    hands, (tab_draw, tab_stand) = _compiled(rules)
    wd, ws = tab_draw.ways(list(value_counts)), tab_stand.ways(list(value_counts))
    out = []
    for i, hand in enumerate(hands):
        ways = sum(wd[3 * i : 3 * i + 3])
        dn, sn = wd[3 * i] - wd[3 * i + 1], ws[3 * i] - ws[3 * i + 1]
        default = sum(hand) % 10 in rules.player_draws
        out.append(HandChoice(hand, ways, dn, sn, dn > sn if dn != sn else default))
    return out


def best_rules(rules: Rules, value_counts) -> tuple[Rules, list[HandChoice]]:
    """The rule set playing the Player's best option on this shoe, and the strategy."""
    strategy = best_strategy(rules, value_counts)
    base = rules.with_player_option("draw")
    hands = tuple((c.hand, c.draws) for c in strategy if c.draws != (sum(c.hand) % 10 in base.player_draws))
    opt = ", ".join(map(str, sorted(rules.player_option)))
    return (
        Rules(
            base.naturals,
            base.player_draws,
            base.banker,
            base.banker_if_player_stood,
            player_hands=hands,
            name=f"{rules.name}, Player's best play on {opt} by hand, for this shoe",
        ),
        strategy,
    )
