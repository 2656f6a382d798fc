"""The engine against the permutation oracle, published counts and its own slow path."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Shoe, analyze, solver
from analyzer.core.backend import INT64_LIMIT
from analyzer.core.engine import POSITIONS, Tabulation, coup_table, falling

from oracle import full_shoe_counts, six_card_counts, value_recursion_counts

# Tiny shoes, as actual cards: repeated ranks, missing ranks, all-zero-value, one value only.
TINY_SHOES = [
    "A 2 3 4 5 6",
    "T J Q K 9 8",
    "K K K K K K",
    "5 5 5 6 6 6 7",
    "A 2 3 4 5 6 7 8",
    "9 9 8 8 T T 3 3",
    "2 3 4 5 6 7 7 K 9",
    "A A A 4 4 6 6 7 Q",
    "3 3 3 3 3 3 3 3 3",
]


def shoe_of(cards: list[str]) -> Shoe:
    return Shoe.parse(",".join(f"{r}={cards.count(r)}" for r in sorted(set(cards))))


@pytest.mark.parametrize("text", TINY_SHOES)
def test_engine_matches_six_card_permutations(text):
    cards = text.split()
    tally, deals = six_card_counts(cards)
    a = analyze(shoe_of(cards))
    assert a.deals == deals
    assert {o: a.ways(o) for o in ("player", "banker", "tie")} == {
        o: tally[o] for o in ("player", "banker", "tie")}


@pytest.mark.parametrize("text", ["A 2 3 4 5 6", "5 5 5 6 6 6 7", "9 9 8 8 T T 3 3"])
def test_engine_matches_whole_shoe_permutations(text):
    # Every ordering of the actual shoe, the coup dealt from its top: the literal
    # meaning of "every possible card sequence".
    cards = text.split()
    tally, deals = full_shoe_counts(cards)
    a = analyze(shoe_of(cards))
    assert a.deals == deals
    assert a.outcomes == {o: tally[o] for o in ("player", "banker", "tie")}


def test_engine_matches_oracle_by_final_totals():
    # Finer than the winner: the whole table of final totals, count for count.
    cards = "2 3 4 5 6 7 7 K 9".split()
    tally, _ = six_card_counts(cards, key=lambda c: (c["player_total"], c["banker_total"]))
    table = coup_table()
    masks, keys = [], []
    for p in range(10):
        for b in range(10):
            masks.append((table.player_total == p) & (table.banker_total == b))
            keys.append((p, b))
    ways = Tabulation(masks).ways(shoe_of(cards).value_counts)
    assert dict(zip(keys, ways)) == {k: tally[k] for k in keys}


# Published exact counts.  Source: Wizard of Odds, "Baccarat Basics" / appendix 1
# (wizardofodds.com/games/baccarat/basics/), combinations over all 8-deck and 6-deck
# six-card deals; the same 8-deck numbers appear in several open-source calculators.
PUBLISHED = {
    8: (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216, 4_998_398_275_503_360),
    6: (403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288, 878_869_206_895_680),
}


@pytest.mark.parametrize("decks", [8, 6])
def test_published_counts_are_the_engines(decks):
    banker, player, tie, total = PUBLISHED[decks]
    a = analyze(Shoe.standard(decks))
    assert (a.ways("banker"), a.ways("player"), a.ways("tie"), a.deals) == (banker, player, tie, total)


def test_published_house_edges_8_decks():
    # Wizard of Odds, Baccarat basics: Banker 1.06% (1.0579%), Player 1.24% (1.2351%), Tie 14.36%.
    a = analyze(Shoe.standard(8))
    assert round(float(a.bet("banker").house_edge) * 100, 4) == 1.0579
    assert round(float(a.bet("player").house_edge) * 100, 4) == 1.2351
    assert round(float(a.bet("tie").house_edge) * 100, 4) == 14.3596


def test_forty_decks_exact_beyond_int64():
    shoe = Shoe.standard(40)
    n = shoe.cards
    assert falling(n, POSITIONS) > INT64_LIMIT  # the int64 path would overflow here
    a = analyze(shoe)
    assert sum(a.outcomes.values()) == a.deals == falling(n, POSITIONS)
    tab = solver()._tab
    assert tab.ways(shoe.value_counts) == tab.ways_exact(shoe.value_counts)
    # An independent plain enumeration by value agrees, count for count.
    assert a.outcomes == value_recursion_counts(shoe.value_counts)


@pytest.mark.parametrize("counts", [(128,) + (32,) * 9, (3, 0, 5, 1, 0, 7, 2, 2, 0, 4), (0, 0, 0, 0, 0, 0, 0, 0, 6, 1)])
def test_engine_matches_plain_value_enumeration(counts):
    ranks = list(counts[1:]) + [counts[0], 0, 0, 0]
    a = analyze(Shoe(ranks))
    assert a.outcomes == value_recursion_counts(counts)


def test_int64_path_equals_python_ints_near_the_limit():
    # The largest standard shoe whose deals fit in int64 takes the fast path; it
    # must give exactly the Python-integer answer.
    decks = max(d for d in range(1, 60) if falling(52 * d, POSITIONS) <= INT64_LIMIT)
    shoe = Shoe.standard(decks)
    tab = solver()._tab
    assert tab.ways(shoe.value_counts) == tab.ways_exact(shoe.value_counts)


rank_counts = st.lists(st.integers(0, 40), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6)


@settings(max_examples=60, deadline=None)
@given(rank_counts)
def test_probabilities_sum_to_one(counts):
    shoe = Shoe(counts)
    a = analyze(shoe)
    assert sum(a.outcomes.values()) == a.deals == falling(shoe.cards, POSITIONS)
    assert sum((a.probability(o) for o in a.outcomes), Fraction(0)) == 1
    for r in a.bets.values():
        assert sum(e.ways for e in r.events) == a.deals
        assert all(e.ways >= 0 for e in r.events)


@settings(max_examples=25, deadline=None)
@given(rank_counts)
def test_fast_path_equals_python_ints(counts):
    vc = Shoe(counts).value_counts
    tab = solver()._tab
    assert tab.ways(vc) == tab.ways_exact(vc)


def test_coefficients_sum_to_sequence_count():
    # Each of the 10**6 value sequences falls in exactly one outcome.
    t = coup_table()
    assert t.multisets == 5005  # multisets of 6 values from 10: C(15, 6)
    total = sum(int(t.coefficients(t.winner == w).sum()) for w in range(3))
    assert total == 10**6
