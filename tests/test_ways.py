"""The one evaluator (analyzer.core.ways.WaysTable): every batch plan against the Python-integer
reference on the tables the catalog compiles, at the edges where it switches plan."""

from __future__ import annotations

import random

import pytest

from analyzer import Shoe, Solver, catalog
from analyzer.core import ways

CARDS = [r + s for r in "A23456789TJQK" for s in "shdc"]


def _shoes(seed: int, decks: int, n: int) -> list[Shoe]:
    rng = random.Random(seed)
    full = [c for c in CARDS for _ in range(decks)]
    return [Shoe.standard(decks).remove(rng.sample(full, rng.randint(0, 40))) for _ in range(n)]


@pytest.mark.parametrize("bet_id", ["all_red", "lucky_nines", "monkey6"])
@pytest.mark.parametrize("by_halves", [True, False])
def test_int64_batches_by_halves_or_shoe_by_shoe(monkeypatch, bet_id, by_halves):
    """Shoes beyond the float64 bound (9-20 decks) in int64 batches: each monomial as two halves,
    or, for a table of more than HALVES_MAX multisets, shoe by shoe; both equal Python integers."""
    if not by_halves:
        monkeypatch.setattr(ways, "HALVES_MAX", 0)
    tab = Solver(catalog().select([bet_id]))._class_tabs[0]
    shoes = _shoes(3, 9, 3) + _shoes(4, 20, 3)
    table = ways.WaysTable(tab.coef, tab.idx, tab.off, tab.k, tab.classes)      # fresh: no plan built
    rows = [tab.class_counts(s) + list(s.value_counts) + [s.cards] for s in shoes]
    assert [table.plan(s.cards) for s in shoes] == ["int64"] * 6
    assert table.ways_many(rows) == [table.ways(r, backend="python") for r in rows]
    assert ("halves" in table.built()) == by_halves
