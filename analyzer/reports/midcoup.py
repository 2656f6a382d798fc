"""Mid-coup and known-card analyses: insurance odds, known-card edges, Baccarat Gold.

* :func:`insurance_table`: for every pair of two-card totals without a natural
  (Player 0-7, Banker 0-7), the exact probabilities of a Player win, a Banker
  win and a tie once the first four cards are known by their totals only (the
  odds an insurance offer is priced on).
* :func:`known_card_edges`: for each dealing position, the player's average
  edge from knowing that card's point value and betting the better of the
  given bets or nothing: ``sum_v P(value v at the position) * max(0, EV of each
  bet | v)``, exact (:mod:`analyzer.core.known`).
* :func:`gold_table`: the catalog under Baccarat Gold (or another rule set with a
  Player's option) with the Player drawing, standing and playing best on 5.

Each takes ``rules`` (Punto Banco by default; for :func:`gold_table`, Baccarat Gold).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..bets.catalog import Bet, catalog
from ..core.choice import best_rules
from ..core.known import parse_known
from ..core.results import Analysis
from ..core.rules import GOLD, format_values
from ..core.shoe import Shoe
from ..core.solver import Solver
from .distributions import distributions

#: The card named for each point value when a value is pinned (any card of the value does).
_CARD_OF_VALUE = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}
#: Bets whose known-card edges the report shows, with the bets "the better of" chooses from.
EDGE_GROUPS = (("Player or Banker", ("player", "banker")), ("Dragon 7", ("dragon7",)), ("Panda 8", ("panda8",)))


@dataclass(frozen=True)
class InsuranceCell:
    player_total: int
    banker_total: int
    ways: int  # ordered six-card deals with these two-card totals
    player: Fraction
    banker: Fraction
    tie: Fraction


def insurance_table(shoe: Shoe, rules=None) -> list[InsuranceCell]:
    """P(Player win), P(Banker win), P(tie) given both two-card totals, neither a natural."""
    after_four = distributions(shoe, rules).conditionals["after_four"]
    naturals = (8, 9) if rules is None else tuple(rules.naturals)
    cells = []
    for (p, b), ways in sorted(after_four.ways.items()):
        if p in naturals or b in naturals or not sum(ways):
            continue
        total = sum(ways)
        cells.append(InsuranceCell(p, b, total, *(Fraction(w, total) for w in ways)))
    return cells


def known_card_edges(shoe: Shoe, groups: dict[str, tuple[Bet, ...]], rules=None) -> dict[str, dict[int, Fraction]]:
    """For each group of bets and each position (1-6): the average edge of knowing that card's
    value and betting the best of the group or nothing.  One solve per (position, value) prices
    every group's bets at once (a solver is compiled per pinned value)."""
    bets = tuple({b.id: b for g in groups.values() for b in g}.values())
    edges = {name: dict.fromkeys(range(1, 7), Fraction(0)) for name in groups}
    for pos in range(1, 7):
        for v, n in enumerate(shoe.value_counts):
            if not n:
                continue
            a = Solver(bets, rules=rules, known=parse_known([f"{pos}={_CARD_OF_VALUE[v]}"])).solve(shoe)
            for name, group in groups.items():
                best = max([Fraction(0)] + [a.bet(b.id).ev for b in group])
                edges[name][pos] += Fraction(n, shoe.cards) * best
    return edges


def known_card_report(shoe: Shoe, rules=None) -> dict[str, dict[int, Fraction]]:
    """:func:`known_card_edges` of each group of :data:`EDGE_GROUPS`."""
    cat = catalog()
    return known_card_edges(shoe, {name: cat.select(list(ids)) for name, ids in EDGE_GROUPS}, rules)


def gold_table(shoe: Shoe, bets: tuple[Bet, ...], rules=None, progress=None) -> dict[str, Analysis]:
    """The bets under Baccarat Gold (or ``rules``, which must offer the Player an option): Player
    draws on 5, stands on 5, plays best (by hand).  ``progress(n)``, when given, is called after
    each of the three (a compile of every bet under that rule set: seconds each)."""
    rules = GOLD if rules is None else rules
    opt = format_values(rules.player_option)
    best, _ = best_rules(rules, shoe.value_counts)
    out, solvers = {}, {}
    for choice, r in (
        (f"draws on {opt}", rules.with_player_option("draw")),
        (f"stands on {opt}", rules.with_player_option("stand")),
        ("best play", best),
    ):
        if r not in solvers:  # the best play is often one of the other two: compiled once
            solvers[r] = Solver(bets, rules=r)
        out[choice] = solvers[r].solve(shoe)
        if progress is not None:
            progress(1)
    return out
