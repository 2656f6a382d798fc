"""Poker-like bets on the first four cards counted per rank multiset
(analyzer.core.rankflush) against the card engine's product per multiset of cards and
against every ordered deal of small shoes with repeated cards."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from analyzer import Shoe, Solver, catalog
from analyzer.bets.catalog import parse_catalog

from helpers import RANKS, product_path, varied_shoes
from oracle import six_card_tally


def one_bet(text: str):
    return parse_catalog(f'[[bet]]\nid = "x"\nevents = [{{ event = "e", when = "{text}", pays = 1 }}]\n', "t").bets["x"]


def tab_of(bet):
    solver = Solver([bet])
    assert len(solver._class_tabs) == 1
    return solver._class_tabs[0]


def test_jackpot_is_counted_per_rank_multiset_and_equals_the_product_path():
    tab = tab_of(catalog().bets["jackpot"])
    assert tab.ways_table.rank_flush is not None
    assert len(tab.ways_table.rank_flush.ranks) < tab.multisets / 20
    for shoe in varied_shoes(1):
        assert tab.ways(shoe) == product_path(tab, shoe), shoe


# one in the default run, the others in .ci/run's slow run (1.3 s of CPU each)
@pytest.mark.parametrize("text", ["pairs(first4) == 2 or flush(first4)"] + [
    pytest.param(t, marks=pytest.mark.slow) for t in ("flush(first4) and straight(first4)",
    "of_a_kind(first4) == 2 and flush(first4)", "straight(first4) and not flush(first4)",
    "of_a_kind(first4) == 3 and not flush(first4)")])
def test_rank_and_flush_events_against_every_deal(text):
    # repeated physical cards: a pair inside a flush exists only with two decks or more
    cards = "Ah As 2h 3h Ks Ks 4h 7s 7s 7d".split()
    rank = {c: RANKS.index(c[0]) for c in cards}

    def first4(coup):
        p, b = coup["player_cards"], coup["banker_cards"]
        return [p[0], b[0], p[1], b[1]]

    def holds(coup):
        four = first4(coup)
        counts = Counter(rank[c] for c in four)
        flush = len({c[1] for c in four}) == 1
        rs = sorted(rank[c] for c in four)
        high = sorted(13 if r == 0 else r for r in rs)
        straight = len(set(rs)) == 4 and (rs[-1] - rs[0] == 3 or high[-1] - high[0] == 3)
        return {"flush(first4) and straight(first4)": flush and straight,
                "of_a_kind(first4) == 2 and flush(first4)": max(counts.values()) == 2 and flush,
                "straight(first4) and not flush(first4)": straight and not flush,
                "pairs(first4) == 2 or flush(first4)": sum(1 for v in counts.values() if v == 2) == 2 or flush,
                "of_a_kind(first4) == 3 and not flush(first4)": max(counts.values()) == 3 and not flush}[text]

    tally, deals = six_card_tally(cards, {"x": holds})
    assert tally["x"][True] > 0
    tab = tab_of(one_bet(text))
    shoe = Shoe.from_counts(dict(Counter(cards)))
    assert tab.ways_table.rank_flush is not None
    assert tab.ways(shoe) == [tally["x"][True]]
    assert Solver([one_bet(text)]).solve(shoe).deals == deals


def test_suits_beyond_one_suit_keep_the_product_path():
    for text in ["count(first4, suit == spades) == 2 and of_a_kind(first4) == 2",
                 "straight(first4) and count(first4, colour == red) == 3", "pairs(first4) == 1 and not flush(first4)"
                 " and count(first4, suit == hearts) == 2"]:
        tab = tab_of(one_bet(text))
        assert tab.ways_table.rank_flush is None, text
        shoe = Shoe.standard(1).remove("As 7h Kd")
        assert tab.ways(shoe) == product_path(tab, shoe)


@pytest.mark.parametrize("bet_id, r", [("majestic_match_player", 2), ("jackpot", 4)])
def test_the_float_bound_is_the_largest_shoe_it_holds_for(bet_id, r):
    """``float_exact``'s bound, ``2 N (N-1) ... (N-r+1) <= 2**53``, is found at once (for two cards
    about 67 million cards: walking up to it took 40 s), and is the largest such ``N``."""
    plan = tab_of(catalog().bets[bet_id]).ways_table.rank_flush
    assert plan is not None and plan.r == r
    top, step = r, 1 << 40                  # the largest N, by halving steps from above
    while step:
        if 2 * math.perm(top + step, r) <= 2**53:
            top += step
        else:
            step //= 2
    assert plan.float_exact(416) and plan.float_exact(top) and not plan.float_exact(top + 1)
