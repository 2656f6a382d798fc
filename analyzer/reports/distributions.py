"""Exact distributions of a coup: totals, cards, margins, naturals, conditional odds.

Every table is a list of rows of exact integer ways over the shoe's
``deals = N (N-1) ... (N-5)``; each unconditional table's ways sum to
``deals``, and each row of a conditional table is a distribution over the
outcomes (its ways sum to the row's own count).

>>> d = distributions(Shoe.standard(8))
>>> d.deals == sum(d.tables["cards"].ways.values())
True
>>> d.tables["cards"].ways[(4,)]
1893735611458560
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine import POSITIONS, Tabulation, coup_table, falling
from ..core.frames import data_frame, frame_html
from ..core.shoe import Shoe

if TYPE_CHECKING:
    from ..core.rules import Rules

WINNERS = ("player", "banker", "tie")


@dataclass(frozen=True)
class Distribution:
    """Ways of each key (a tuple) over ``deals``; ``labels`` names the key's parts."""

    name: str
    title: str
    labels: tuple[str, ...]
    ways: dict[tuple, int]
    deals: int

    def probability(self, key: tuple) -> Fraction:
        return Fraction(self.ways[key], self.deals)


@dataclass(frozen=True)
class Conditional:
    """P(winner | condition) for each value of a condition on the first cards."""

    name: str
    title: str
    labels: tuple[str, ...]
    ways: dict[tuple, tuple[int, int, int]]  # condition -> (player, banker, tie) ways
    deals: int

    def total(self, key: tuple) -> int:
        return sum(self.ways[key])

    def probability(self, key: tuple, winner: str) -> Fraction:
        return Fraction(self.ways[key][WINNERS.index(winner)], self.total(key))


# name -> (title, labels, key function over the coup table's features, key sizes)
_SPECS = {
    "totals": (
        "Final Player total x final Banker total",
        ("player total", "banker total"),
        lambda f: (f["player_total"], f["banker_total"]),
        (10, 10),
    ),
    "player_totals_by_cards": (
        "Final Player total by number of Player cards",
        ("player cards", "player total"),
        lambda f: (f["player_cards"] - 2, f["player_total"]),
        (2, 10),
    ),
    "banker_totals_by_cards": (
        "Final Banker total by number of Banker cards",
        ("banker cards", "banker total"),
        lambda f: (f["banker_cards"] - 2, f["banker_total"]),
        (2, 10),
    ),
    "winner_by_total": (
        "Winning side by winning total (tied total for ties)",
        ("winner", "winning total"),
        lambda f: (f["winner"], f["winning_total"]),
        (3, 10),
    ),
    "margin": ("Winning side by winning margin", ("winner", "margin"), lambda f: (f["winner"], f["margin"]), (3, 10)),
    "cards": ("Number of cards dealt", ("cards",), lambda f: (f["cards"] - 4,), (3,)),
    "naturals": (
        "Naturals: Player two-card total x Banker two-card total, 8/9 or none",
        ("player natural", "banker natural"),
        lambda f: (
            np.where(f["player_natural"], f["player_two_total"] - 7, 0),
            np.where(f["banker_natural"], f["banker_two_total"] - 7, 0),
        ),
        (3, 3),
    ),
}
_COND_SPECS = {
    "after_player_two": (
        "Outcome given the Player's first two cards (their total)",
        ("player two-card total",),
        lambda f: (f["player_two_total"],),
        (10,),
    ),
    "after_three": (
        "Outcome given the first three cards (Player's two-card total, Banker's first card)",
        ("player two-card total", "banker first card"),
        lambda f: (f["player_two_total"], f["banker_value1"]),
        (10, 10),
    ),
    "after_four": (
        "Outcome given the first four cards (Player's and Banker's two-card totals)",
        ("player two-card total", "banker two-card total"),
        lambda f: (f["player_two_total"], f["banker_two_total"]),
        (10, 10),
    ),
}


def _label(name: str, part: str, value: int):
    if part == "winner":
        return WINNERS[value]
    if part in ("player cards", "banker cards"):
        return value + 2
    if part == "cards":
        return value + 4
    if part in ("player natural", "banker natural"):
        return ("none", "8", "9")[value]
    return value


class _Compiled:
    def __init__(self, rules=None):
        table = coup_table(rules)
        f = table.features()
        self.plans = {}
        groups_all = []
        offset = 0
        for name, (_title, _labels, key, sizes) in list(_SPECS.items()) + [
            (n, (t, lab, k, s + (3,))) for n, (t, lab, k, s) in _COND_SPECS.items()
        ]:
            parts = key(f)
            if name in _COND_SPECS:
                parts = parts + (f["winner"],)
            gid = np.zeros(table.size, dtype=np.int64)
            for part, size in zip(parts, sizes):
                gid = gid * size + np.asarray(part, dtype=np.int64)
            n = int(np.prod(sizes))
            self.plans[name] = (offset, sizes)
            groups_all.append((gid, n, offset))
            offset += n
        # One coefficient matrix for every cell of every table.
        coef = np.concatenate([Tabulation.grouped(g, n, table).coef for g, n, _ in groups_all])
        self.tab = Tabulation([], table, coef)


@lru_cache(maxsize=4)
def _compiled(rules=None) -> _Compiled:
    return _Compiled(rules)


@dataclass(frozen=True)
class Distributions:
    shoe: Shoe
    deals: int
    tables: dict[str, Distribution]
    conditionals: dict[str, Conditional]
    rules: Rules | None = None  # the Rules counted (None: Punto Banco)

    def __repr__(self) -> str:
        return (
            f"<Distributions of {self.shoe.describe()}: {self.deals} deals; "
            f"tables {', '.join(self.tables)}; conditionals {', '.join(self.conditionals)}>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table: every table in long form (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), f"Distributions of {self.shoe.describe()}: {self.deals} deals")

    def to_frame(self):
        """Every table in long form: table, key, winner (conditionals), ways, of, probability."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        rows = []
        for d in self.tables.values():
            for key, w in d.ways.items():
                rows.append(
                    {
                        "table": d.name,
                        "key": key,
                        "winner": None,
                        "ways": w,
                        "of": d.deals,
                        "probability": Fraction(w, d.deals),
                    }
                )
        for c in self.conditionals.values():
            for key, ws in c.ways.items():
                total = sum(ws)
                for winner, w in zip(WINNERS, ws):
                    rows.append(
                        {
                            "table": c.name,
                            "key": key,
                            "winner": winner,
                            "ways": w,
                            "of": total,
                            "probability": Fraction(w, total) if total else None,
                        }
                    )
        return rows


def distributions(shoe: Shoe, rules=None) -> Distributions:
    """Every distribution and conditional table of :mod:`analyzer.reports.distributions` for ``shoe``
    (under ``rules``, Punto Banco by default)."""
    rules = None if rules is None or rules.is_default else rules
    c = _compiled(rules)
    ways = c.tab.ways(shoe.value_counts)
    deals = falling(shoe.cards, POSITIONS)
    tables, conds = {}, {}
    for name, (title, labels, _, sizes) in _SPECS.items():
        offset, _ = c.plans[name]
        cells = {}
        for i, idx in enumerate(np.ndindex(*sizes)):
            key = tuple(_label(name, part, int(v)) for part, v in zip(labels, idx))
            cells[key] = ways[offset + i]
        tables[name] = Distribution(name, title, labels, cells, deals)
    for name, (title, labels, _, sizes) in _COND_SPECS.items():
        offset, _ = c.plans[name]
        cond_cells = {}
        for i, idx in enumerate(np.ndindex(*sizes)):
            key = tuple(_label(name, part, int(v)) for part, v in zip(labels, idx))
            base = offset + 3 * i
            cond_cells[key] = (ways[base], ways[base + 1], ways[base + 2])
        conds[name] = Conditional(name, title, labels, cond_cells, deals)
    return Distributions(shoe, deals, tables, conds, rules)
