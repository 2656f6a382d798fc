"""The card engine for every card of the coup (analyzer.core.classengine) against
the brute-force oracle (every ordered deal of the actual cards of a small shoe),
against the older first-two-card engine, and its fast paths against the plain one."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from analyzer.bets.catalog import parse_catalog
from analyzer.bets.conditions import Condition
from analyzer.core.cardengine import CardTabulation, level_for
from analyzer.core.classengine import ClassTabulation, classes_for, reads_drawing
from analyzer.core.engine import coup_table
from analyzer.core.errors import BetError
from analyzer.core.shoe import Shoe
from analyzer.core.solver import Solver, _symmetric

from helpers import CARD_CASES, dealt, rank


@pytest.mark.parametrize("text", list(CARD_CASES))
def test_against_every_deal_of_a_small_shoe(small_tally, text):
    shoe, tally, deals = small_tally
    bet = parse_catalog(f'[[bet]]\nid = "x"\nevents = [{{ event = "e", when = "{text}", pays = 1 }}]\n', "t").bets["x"]
    a = Solver([bet]).solve(shoe)
    assert a.deals == deals
    assert a.bet("x").events[0].ways == tally[text][True], text


def _tab(text, **kw):
    c = Condition.parse(text)
    return ClassTabulation([c.mask], c.card_keys, c.positions, reads_drawing(c.features, c.positions),
                           coup_table(), text, requires=[c.requires], symmetric=_symmetric([c]), **kw), c


@pytest.mark.parametrize("text", ["player_pair", pytest.param("banker_suited_pair or player_suited", marks=pytest.mark.slow),
                                  "winner == banker and banker_pair", "player_rank1 == K and banker_total == 7"])
def test_agrees_with_the_first_two_card_engine(text):
    rng = np.random.default_rng(7)
    for _ in range(3):
        cards = rng.integers(0, 9, size=52).tolist()
        cards[0] += 6
        shoe = Shoe([sum(cards[4 * r:4 * r + 4]) for r in range(13)], cards)
        tab, c = _tab(text)
        level = level_for(c.card_features)
        old = CardTabulation([c.mask], c.card_features, level, coup_table(), text)
        counts = shoe.card_tuple if level == "card" else shoe.rank_tuple
        assert tab.ways(shoe) == old.ways(counts, shoe.value_counts)


@pytest.mark.slow  # 7 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_fast_paths_match_the_plain_pass():
    """The per-event passes (all(...)) and the multiset pass (symmetric bets)
    give the same exact counts as one plain pass over every sequence."""
    shoe = Shoe.standard(1).remove("Ah 7s 7d Kc 2h")
    conds = [Condition.parse("all(player, colour == red) and winner == player"),
             Condition.parse("all([card1, card2, card3, card4], colour == black)")]
    keys = frozenset().union(*(c.card_keys for c in conds))
    pos = frozenset().union(*(c.positions for c in conds))
    args = ([c.mask for c in conds], keys, pos, True, coup_table())
    fast = ClassTabulation(*args, requires=[c.requires for c in conds])
    plain = ClassTabulation(*args)
    assert fast.sequences < plain.sequences / 2, (fast.sequences, plain.sequences)
    assert fast.ways(shoe) == plain.ways(shoe)
    conds = [Condition.parse("of_a_kind(first4) == 3"), Condition.parse("flush(first4) and straight(first4)")]
    assert _symmetric(conds)
    keys = frozenset().union(*(c.card_keys for c in conds))
    args = ([c.mask for c in conds], keys, frozenset(["card1", "card2", "card3", "card4"]), False, coup_table())
    fast, plain = ClassTabulation(*args, symmetric=True), ClassTabulation(*args)
    assert fast.sequences < plain.sequences / 10
    assert fast.ways(shoe) == plain.ways(shoe)
    assert not _symmetric([Condition.parse("flush(first4) and player_card1_rank == A")])


def test_events_with_the_same_all_tests_share_their_passes():
    """Events whose all(...) tests are the same alternatives (Contrast Bonus: one pass
    an alternative, not one an event and alternative) count as one plain pass does."""
    shoe = Shoe.standard(1).remove("Ah 7s 7d Kc 2h")
    either = "(all([card1, card2], colour == red) or all([card1, card2], colour == black))"
    conds = [Condition.parse(f"cards == {n} and {either}") for n in (6, 5, 4)]
    conds.append(Condition.parse("all([card1, card2], colour == red) and winner == tie"))
    keys = frozenset().union(*(c.card_keys for c in conds))
    pos = frozenset().union(*(c.positions for c in conds))
    args = ([c.mask for c in conds], keys, pos, True, coup_table())
    fast = ClassTabulation(*args, requires=[c.requires for c in conds])
    plain = ClassTabulation(*args)
    assert fast.sequences == 3 * plain.sequences // 4  # three passes of one colour at two slots
    assert np.array_equal(fast.coef, plain.coef) and np.array_equal(fast.idx, plain.idx)
    assert fast.ways(shoe) == plain.ways(shoe)


def test_a_chunk_is_freed_without_the_cycle_collector():
    """A chunk's features (tens of MB at a million sequences) go when the compile drops
    them, not at the cyclic collector's next pass: nothing in them refers back to them."""
    import gc
    import weakref
    tab, _ = _tab("cards == 6 and player_card3_face and banker_card3_face", defer=True)
    _events, table, plans, _plan_of, _passes, _drawing = tab._pending
    gc.disable()
    try:
        fine, high, f, _weight = next(tab._drawn_chunks(table, plans[0]))
        assert f["card:player_card3"].shape == f["card:banker_card3"].shape == f["winner"].shape == fine.shape[1:]
        refs = [weakref.ref(f), weakref.ref(fine)]
        del f, fine, high
        assert [r() for r in refs] == [None, None]
    finally:
        gc.enable()


def test_sorting_networks_sort_every_row():
    """The multiset codes sort each sequence's classes with a sorting network: every row
    of 0s and 1s comes out sorted (the 0-1 principle), so every row does."""
    import itertools
    from analyzer.core.classengine import sort_columns
    for n in range(1, 7):
        rows = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.int8)
        assert np.array_equal(np.stack(sort_columns(list(rows.T)), axis=1), np.sort(rows, axis=1)), n


def test_a_condition_gets_the_coarsest_card_classes():
    # Lucky Nines tells apart the nine of each suit and everything else: 5 classes
    c = Condition.parse("count(first4, rank == 9 and suit == spades) == 2 or count(first4, rank == 9 and suit == hearts)"
                        " == 2 or count(first4, rank == 9 and suit == diamonds) + count(first4, rank == 9 and suit == clubs) > 1")
    assert int(classes_for(c.card_keys, False).max()) + 1 == 5
    # faces against everything, with point values for the drawing: 11 classes
    c = Condition.parse("banker_card3_face and winner == banker")
    assert int(classes_for(c.card_keys, True).max()) + 1 == 11


def test_budget_is_checked_before_the_work():
    with pytest.raises(BetError, match=r"sequences of 52 card classes.*budget of 1,000"):
        _tab("flush(all) and straight(all) and winner == player", budget=1_000)
    with pytest.raises(BetError, match="budget"):
        _tab("player_card1_suit == banker_card1_suit and player_card1_rank == banker_card1_rank", budget=100)


def test_a_table_beyond_the_multisets_budget_is_refused_while_compiling(monkeypatch):
    """Working memory grows with the distinct class multisets, not with the sequences
    (1.9 GB for a bet of 4 million multisets within the sequence budget): beyond
    ``MAX_MULTISETS`` the compile stops with one line."""
    from analyzer.core import classengine
    text = "count(first4, suit == hearts) == 2 and player_pair"
    tab, _ = _tab(text)
    monkeypatch.setattr(classengine, "MAX_MULTISETS", tab.multisets - 1)
    with pytest.raises(BetError, match=f"more than {tab.multisets - 1:,} distinct multisets of .* memory budget"):
        _tab(text)
    monkeypatch.setattr(classengine, "MAX_MULTISETS", tab.multisets)
    again, _ = _tab(text)
    assert again.multisets == tab.multisets and again.ways(Shoe.standard(1)) == tab.ways(Shoe.standard(1))


def test_suits_need_a_suited_shoe():
    tab, _ = _tab("all(all, colour == red)")
    with pytest.raises(BetError, match="suits are unknown"):
        tab.ways(Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4"))
    tab, _ = _tab("count(all, face) == 3")          # faces need ranks only
    assert tab.ways(Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4")) == \
        tab.ways(Shoe.standard(1))


def test_big_shoes_use_python_integers():
    """Beyond the int64 bound the same counts come from Python integers."""
    tab, _ = _tab("cards == 6 and banker_card3_face")
    small = tab.ways(Shoe.standard(8))
    big = tab.ways(Shoe.standard(2000))
    big_removed = tab.ways(Shoe.standard(2000).remove("Kh Qd 7s"))
    assert all(isinstance(x, int) for x in big) and big[0] > small[0] > 0
    assert big[0] < math.perm(2000 * 52, 6)
    # the Python-integer path gives the int64 path's counts where both apply, and the
    # modular int64 path's (core/modular.py) beyond the bound
    assert tab.ways(Shoe.standard(8), backend="python") == small
    assert tab.ways(Shoe.standard(2000).remove("Kh Qd 7s"), backend="python") == big_removed


@pytest.mark.parametrize("text, message", [
    ("count(alll, face) > 0", "expected a group of cards"),
    ("count(all, rnk == 3) > 1", "unknown card attribute 'rnk'"),
    ("count([card5, player_card3], face) > 0", "are the same card"),
    ("count([card1, card1], face) > 0", "listed twice"),
    ("kinds(all, 9) > 0", "needs a number 1-6"),
    ("count(all, face) == banker", "cannot compare int with winner"),
    ("all(player, rank)", "not a yes/no"),
    ("player_card7_rank == 3", "unknown feature"),
])
def test_a_bad_card_condition_is_refused(text, message):
    with pytest.raises(BetError, match=message):
        Condition.parse(text)


def _known_oracle(cards, pins, fn):
    """Ordered six-card deals with the pinned positions (1-6) holding those ranks or
    cards, and how many of them pass ``fn``: every deal, straight from the oracle."""
    import itertools
    from oracle import deal
    hits = total = 0
    for perm in itertools.permutations(cards, 6):
        if all(perm[p - 1] == c or (len(c) == 1 and perm[p - 1][0] == c) for p, c in pins.items()):
            total += 1
            hits += bool(fn(deal(list(perm))))
    return hits, total


@pytest.mark.parametrize("text, pins", [
    ("player_pair and winner == banker", {1: "7"}),
    ("cards == 6 and banker_card3_face", {5: "K"}),
    ("all(all, colour == red)", {2: "Kh", 6: "7"}),
    ("count(all, rank == 7) >= 2", {6: "7s"}),
])
def test_known_cards_against_every_deal(text, pins):
    from analyzer.core.known import parse_known
    cards = "Ah 2s 7c 7h 7s 8d Kc Js Kh Th".split()
    fn = {"player_pair and winner == banker": lambda c: rank(c["player_cards"][0]) == rank(c["player_cards"][1])
          and c["winner"] == "banker"}.get(text) or CARD_CASES.get(text) or (
          lambda c: sum(rank(x) == 7 for x in dealt(c)) >= 2)
    if text == "cards == 6 and banker_card3_face":
        fn = lambda c: len(dealt(c)) == 6 and rank(c["banker_cards"][2]) >= 11   # noqa: E731
    hits, total = _known_oracle(cards, pins, fn)
    bet = parse_catalog(f'[[bet]]\nid = "x"\nevents = [{{ event = "e", when = "{text}", pays = 1 }}]\n', "t").bets["x"]
    known = parse_known({str(p): c for p, c in pins.items()})
    a = Solver([bet], known=known).solve(Shoe.from_counts(dict(Counter(cards))))
    assert (a.bet("x").events[0].ways, a.deals) == (hits, total)


def test_known_cards_sum_back_to_the_unconditional_count():
    """Summing over every card that can stand at a position, the pinned counts give
    back the unconditional ways exactly."""
    from analyzer.core.known import parse_known
    bet = parse_catalog('[[bet]]\nid = "m"\nevents = [{ event = "e", when = "cards == 6 and '
                        'not player_card3_face and banker_card3_face", pays = 12 }]\n', "t").bets["m"]
    shoe = Shoe.standard(1).remove("Kh Qs 7d")
    whole = Solver([bet]).solve(shoe).bet("m").events[0].ways
    total = 0
    for r in "A23456789TJQK":
        if shoe.rank_counts[r]:
            total += Solver([bet], known=parse_known({"6": r})).solve(shoe).bet("m").events[0].ways
    assert total == whole


def test_modular_sums_are_exact():
    """core/modular.py: random products summed modulo primes give Python's exact sums,
    and tables beyond its limits are refused (the caller uses Python integers)."""
    from analyzer.core.modular import exact_dot, usable
    rng = np.random.default_rng(3)
    coef = rng.integers(0, 720, size=(3, 500))
    idx = rng.integers(0, 12, size=(500, 6))
    off = rng.integers(0, 6, size=(500, 6))
    n = [int(x) for x in rng.integers(10**5, 5 * 10**5, size=12)]
    exact = [sum(int(coef[e, m]) * math.prod(n[idx[m, j]] - int(off[m, j]) for j in range(6)) for m in range(500))
             for e in range(3)]
    assert exact_dot(coef, idx, off, n, bound=max(exact)) == exact
    assert not usable(np.array([[2**12]]))
    with pytest.raises(ValueError):
        exact_dot(np.array([[2**12]]), idx[:1], off[:1], n, bound=10**40)


@pytest.mark.parametrize("bet_id", ["monkey6", "all_red", "contrast_bonus", "lucky_nines", "lucky_match",
                                    "grand_monkey"])
def test_catalog_card_bets_fast_path_equals_python_integers(bet_id):
    """The int64 path (factor-major gathers) gives the Python-integer path's counts."""
    from analyzer.bets import catalog
    tab = Solver(catalog().select([bet_id]))._class_tabs[0]
    shoe = Shoe.standard(8).remove("Ah 7s 7d Kc 2h 9d 9d Qs 6c")
    fast = tab.ways(shoe)
    assert tab.ways(shoe, backend="python") == fast


@pytest.mark.parametrize("text, chunk", [
    ("count([player_card3, banker_card3, card1], suit == hearts) == 2 and winner == banker", 20_000),
    ("of_a_kind(first4) == 2", 100), ("card1_rank == K and count([card3, card4], suit == spades) == 1", 100)])
def test_small_chunks_merge_to_the_same_table(text, chunk):
    """Compiled a few sequences at a time (many merges of per-chunk counts, which keep
    memory bounded by the distinct multisets), a bet gives the same table and ways."""
    shoe = Shoe.standard(1).remove("Ah 7s 7d Kc 2h Qh")
    whole, _ = _tab(text)
    small, _ = _tab(text, chunk=chunk)
    assert small.sequences == whole.sequences > 8 * chunk
    assert np.array_equal(small.coef, whole.coef)
    assert small.ways(shoe) == whole.ways(shoe)
