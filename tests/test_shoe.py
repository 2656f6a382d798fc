"""Shoe: construction, value semantics, removal, and every bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import CardError, Shoe, ShoeError
from analyzer.core.cards import RANKS, SUITS
from analyzer.core.errors import BaccaratError

ALL_RANKS_32 = ",".join(f"{r}=32" for r in RANKS)


# -- construction -------------------------------------------------------------------

@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_standard_shoe_holds_each_card_once_a_deck(decks):
    s = Shoe.standard(decks)
    assert s.cards == 52 * decks
    assert s.suited
    assert s.rank_counts == {r: 4 * decks for r in RANKS}
    assert set(s.card_counts.values()) == {decks} and len(s.card_counts) == 52
    assert s.decks == decks
    assert str(s) == f"{decks} deck{'s' if decks > 1 else ''} ({52 * decks} cards)"


def test_standard_default_is_eight_decks():
    assert Shoe.standard() == Shoe.standard(8)


def test_parse_per_rank():
    s = Shoe.parse("A=2, 5=3, K=4")
    assert s.cards == 9
    assert not s.suited
    assert s.rank_counts == {**{r: 0 for r in RANKS}, "A": 2, "5": 3, "K": 4}
    assert s.card_tuple is None
    with pytest.raises(ShoeError, match="suits are unknown"):
        s.card_counts


def test_parse_accepts_10_lower_case_and_blanks():
    assert Shoe.parse(" 10=3,  j=2, q=1 ") == Shoe.from_counts({"T": 3, "J": 2, "Q": 1})


@pytest.mark.parametrize("spec, words", [
    ("10=3; j=2", "not ';'"),            # ';' and blank items are refused, not skipped
    ("A=3,,2=3", "empty item"),
    ("A=3,2=3,", "empty item"),
])
def test_parse_refuses_loose_separators(spec, words):
    with pytest.raises(ShoeError, match=words):
        Shoe.parse(spec)


def test_parse_per_card():
    s = Shoe.parse("As=2, Kh=4, 10d=1, 9c=3")
    assert s.suited
    assert s.cards == 10
    cc = s.card_counts
    assert (cc["As"], cc["Kh"], cc["Td"], cc["9c"]) == (2, 4, 1, 3)
    assert sum(cc.values()) == 10
    assert s.rank_counts["K"] == 4 and s.rank_counts["T"] == 1 and s.rank_counts["Q"] == 0


def test_parse_per_card_full_deck_is_standard():
    spec = ",".join(f"{r}{s}=2" for r in RANKS for s in SUITS)
    s = Shoe.parse(spec)
    assert s == Shoe.standard(2)
    assert s.decks == 2


def test_from_counts_rank_and_card():
    assert Shoe.from_counts({"A": 2, "5": 3, "K": 4}) == Shoe.parse("A=2,5=3,K=4")
    assert Shoe.from_counts({"Ah": 3, "Ks": 3}) == Shoe.parse("Ah=3,Ks=3")
    assert Shoe.from_counts({"Ah": 3, "Ks": 3}).suited
    # keys are normalised: 10 -> T, lower case letters accepted
    assert Shoe.from_counts({"10": 3, "q": 3}) == Shoe.from_counts({"T": 3, "Q": 3})


def test_direct_constructor_checks_its_counts_agree():
    assert Shoe([4] * 13) == Shoe.from_counts({r: 4 for r in RANKS})
    assert Shoe([4] * 13, [1] * 52) == Shoe.standard(1)
    assert Shoe(None, [1] * 52) == Shoe.standard(1)
    with pytest.raises(ShoeError, match="disagree"):
        Shoe([5] * 13, [1] * 52)
    with pytest.raises(ShoeError, match="13 rank counts"):
        Shoe([4] * 12)
    with pytest.raises(ShoeError, match="52 card counts"):
        Shoe(None, [1] * 51)


def test_too_many_rank_counts_refused():
    with pytest.raises(ShoeError, match="13 rank counts"):
        Shoe([1] * 14)


def test_too_many_card_counts_refused():
    with pytest.raises(ShoeError, match="52 card counts"):
        Shoe(None, [1] * 53)


# -- value semantics ----------------------------------------------------------------

def test_equality_and_hash():
    a, b = Shoe.standard(8), Shoe([32] * 13, [8] * 52)
    assert a == b and hash(a) == hash(b) and a is not b
    assert len({a, b, Shoe.standard(6)}) == 2
    assert {a: 1}[b] == 1
    assert Shoe.standard(8) != Shoe.standard(6)
    # same ranks, but one knows its suits: not the same shoe
    rank_only = Shoe.parse(ALL_RANKS_32)
    assert rank_only.rank_counts == a.rank_counts
    assert rank_only != a
    assert (a == "8 decks") is False and a != 416


def test_shoe_is_immutable():
    s = Shoe.standard(1)
    with pytest.raises(AttributeError):
        s.cards = 3
    with pytest.raises(AttributeError):
        s.extra = 1
    counts = s.rank_counts
    counts["A"] = 0
    assert s.rank_counts["A"] == 4
    t = s.remove("A")
    assert s.cards == 52 and t.cards == 51
    assert s == Shoe.standard(1)


@pytest.mark.parametrize("make", [
    lambda: Shoe.standard(8),
    lambda: Shoe.standard(1).remove("Ah 9c"),
    lambda: Shoe.standard(8).remove("5 5 K 9h"),
    lambda: Shoe.parse("A=2,5=3,K=4"),
    lambda: Shoe.parse("As=2,Kh=4,Td=1"),
])
def test_repr_round_trip_and_spec(make):
    shoe = make()
    r = repr(shoe)
    assert r.startswith("Shoe.standard(" if shoe.decks else "Shoe.parse(")
    back = eval(r, {"Shoe": Shoe})
    assert back == shoe and back.suited == shoe.suited and hash(back) == hash(shoe)
    assert Shoe.parse(shoe.spec()) == shoe


def test_spec_text_is_canonical():
    assert Shoe.parse("K=4, A=2, 5=3").spec() == "A=2,5=3,K=4"        # canonical order, no zeros
    assert Shoe.standard(1).spec().startswith("As=1,Ah=1,Ad=1,Ac=1,2s=1,")
    assert Shoe.parse("Td=1,As=5").spec() == "As=5,Td=1"
    assert "=0" not in Shoe.standard(1).remove("As").spec()


def test_value_counts_count_tens_as_zero():
    assert Shoe.standard(8).value_counts == (128,) + (32,) * 9
    s = Shoe.from_counts({"K": 2, "T": 1, "Q": 1, "A": 3, "9": 4, "5": 1})
    assert s.value_counts == (4, 3, 0, 0, 0, 1, 0, 0, 0, 4)
    assert sum(s.value_counts) == s.cards


def test_decks_is_none_unless_exactly_standard():
    assert Shoe.standard(3).decks == 3
    assert Shoe.parse(ALL_RANKS_32).decks is None          # rank-only: not exactly standard
    assert Shoe.standard(8).remove("As").decks is None
    assert Shoe.parse("A=6").decks is None
    spec = ",".join(f"{r}{s}=1" for r in RANKS for s in SUITS if f"{r}{s}" not in ("Kc", "Ks")) + ",Ks=2"
    assert Shoe.parse(spec).decks is None                  # 52 cards, ranks right, suits not
    assert "suits unknown" in str(Shoe.parse("A=6"))


# -- remove -------------------------------------------------------------------------

def test_remove_ranks_makes_shoe_rank_only():
    s = Shoe.standard(8).remove("5 5 K 9h")
    assert s.cards == 412
    assert not s.suited
    rc = s.rank_counts
    assert (rc["5"], rc["K"], rc["9"], rc["A"]) == (30, 31, 31, 32)


def test_remove_suited_keeps_shoe_suited():
    s = Shoe.standard(8).remove("9h Ks 10d 9h")
    assert s.suited
    cc = s.card_counts
    assert (cc["9h"], cc["Ks"], cc["Td"], cc["9s"]) == (6, 7, 7, 8)
    assert s.rank_counts["9"] == 30
    assert s.cards == 412


def test_remove_accepts_iterables_commas_and_nothing():
    s = Shoe.standard(1)
    assert s.remove(["Ah", "K"]) == s.remove("Ah K") == s.remove("Ah,K") == s.remove(c for c in ("Ah", "K"))
    with pytest.raises(ShoeError, match="no A left"):      # a generator, read once, named in the refusal
        Shoe.parse("A=3,K=5").remove(c for c in ["A"] * 4)
    assert s.remove("") == s
    assert s.remove([]) == s


def test_remove_suited_card_from_rank_only_shoe():
    s = Shoe.parse("A=3,K=5").remove("Ah")
    assert not s.suited and s.rank_counts["A"] == 2


def test_remove_rank_then_suit_stays_rank_only():
    s = Shoe.standard(8).remove("5").remove("5h")
    assert not s.suited and s.rank_counts["5"] == 30


# -- bad input ----------------------------------------------------------------------

def test_errors_are_value_errors_and_baccarat_errors():
    assert issubclass(ShoeError, ValueError) and issubclass(CardError, ValueError)
    assert issubclass(ShoeError, BaccaratError) and issubclass(CardError, BaccaratError)


@pytest.mark.parametrize("make, exc, message", [
    # unknown rank or suit
    (lambda: Shoe.parse("X=6"), CardError, r"unknown rank 'X'"),
    (lambda: Shoe.parse("1=6"), CardError, r"unknown rank '1'"),
    (lambda: Shoe.parse("Ax=6"), CardError, r"unknown card 'Ax'.*suit must be one of s h d c"),
    (lambda: Shoe.from_counts({"Z": 6}), CardError, r"unknown rank 'Z'"),
    (lambda: Shoe.from_counts({"5x": 6}), CardError, r"suit must be one of"),
    (lambda: Shoe.standard(1).remove("1"), CardError, r"unknown rank '1'"),
    (lambda: Shoe.standard(1).remove("5x"), CardError, r"unknown card '5x'"),
    (lambda: Shoe.standard(1).remove("hh"), CardError, r"unknown rank 'h'"),
    # negative count
    (lambda: Shoe.from_counts({"A": -1, "K": 9}), ShoeError, r"count for 'A' must not be negative, got -1"),
    (lambda: Shoe.parse("A=-1,K=9"), ShoeError, r"count for 'A' must be a whole number from 0 to 520,000, got '-1'"),
    (lambda: Shoe([-1] + [4] * 12), ShoeError, r"count for 'A' must not be negative"),
    # non-integer count
    (lambda: Shoe.from_counts({"A": 3.0, "K": 9}), ShoeError, r"count for 'A' must be a whole number, got 3\.0"),
    (lambda: Shoe.from_counts({"A": True, "K": 9}), ShoeError, r"count for 'A' must be a whole number, got True"),
    (lambda: Shoe.from_counts({"A": "3.5", "K": 9}), ShoeError, r"must be a whole number, got '3\.5'"),
    (lambda: Shoe.from_counts({"A": "3", "K": 9}), ShoeError, r"must be a whole number, got '3'"),
    (lambda: Shoe.parse("A=3.5,K=9"), ShoeError, r"count for 'A' must be a whole number from 0 to 520,000, got '3\.5'"),
    (lambda: Shoe.parse("A=x"), ShoeError, r"count for 'A' must be a whole number from 0 to 520,000, got 'x'"),
    (lambda: Shoe([4.0] * 13), ShoeError, r"must be a whole number"),
    # removing a card the shoe does not hold
    (lambda: Shoe.parse("A=3,K=5").remove("5"), ShoeError, r"cannot remove 5: no 5 left in the shoe"),
    (lambda: Shoe.parse("A=3,K=5").remove("A A A A"), ShoeError, r"cannot remove A: no A left"),
    (lambda: Shoe.standard(1).remove("Ah Ah"), ShoeError, r"cannot remove Ah: none left in the shoe"),
    (lambda: Shoe.parse("As=3,Ks=3").remove("Ah"), ShoeError, r"cannot remove Ah: none left"),
    # fewer than 6 cards
    (lambda: Shoe.parse("A=5"), ShoeError, r"at least 6 cards.*has 5"),
    (lambda: Shoe.from_counts({"A": 0}), ShoeError, r"at least 6 cards.*has 0"),
    (lambda: Shoe.parse("A=3,K=3").remove("A"), ShoeError,
     r"after removing those cards: a shoe needs at least 6 cards.*has 5"),
    # zero / negative / non-integer decks
    (lambda: Shoe.standard(0), ShoeError, r"number of decks must be a whole number of at least 1, got 0"),
    (lambda: Shoe.standard(-2), ShoeError, r"got -2"),
    (lambda: Shoe.standard(2.0), ShoeError, r"got 2\.0"),
    (lambda: Shoe.standard(True), ShoeError, r"got True"),
    # malformed specs
    (lambda: Shoe.parse("A32"), ShoeError, r"malformed shoe item 'A32': write RANK=COUNT or CARD=COUNT"),
    (lambda: Shoe.parse("A="), ShoeError, r"malformed shoe item 'A='"),
    (lambda: Shoe.parse("=3"), ShoeError, r"malformed shoe item '=3'"),
    (lambda: Shoe.parse("A=3,K"), ShoeError, r"malformed shoe item 'K'"),
    (lambda: Shoe.parse("A=1,A=2"), ShoeError, r"'A' is given twice"),
    (lambda: Shoe.parse("T=3,10=4"), ShoeError, r"given twice"),
    (lambda: Shoe.parse("A=3,Kh=6"), ShoeError, r"either per rank \(A=32\) or per card \(As=8\), not both"),
    (lambda: Shoe.from_counts({"A": 3, "Kh": 6}), ShoeError, r"not both"),
    # empty spec
    (lambda: Shoe.parse(""), ShoeError, r"empty shoe specification"),
    (lambda: Shoe.parse("   "), ShoeError, r"empty shoe specification"),
    (lambda: Shoe.parse(" , ;"), ShoeError, r"separate items with ','"),
    (lambda: Shoe.parse(None), ShoeError, r"empty shoe specification"),
    (lambda: Shoe.from_counts({}), ShoeError, r"empty shoe specification"),
])
def test_bad_shoe_input_is_one_short_line(make, exc, message):
    with pytest.raises(exc, match=message) as info:
        make()
    text = str(info.value)
    assert "\n" not in text and len(text) < 200


def test_parse_superscript_digit_is_a_shoe_error():
    with pytest.raises(ShoeError, match="whole number"):
        Shoe.parse("A=²,K=9")


# -- properties ---------------------------------------------------------------------

@st.composite
def shoe_and_removals(draw):
    suited = draw(st.booleans())
    if suited:
        counts = draw(st.lists(st.integers(0, 3), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6))
        shoe = Shoe(None, counts)
        held = [f"{RANKS[i // 4]}{SUITS[i % 4]}" for i, n in enumerate(counts) for _ in range(n)]
    else:
        counts = draw(st.lists(st.integers(0, 6), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
        shoe = Shoe(counts)
        held = [RANKS[i] for i, n in enumerate(counts) for _ in range(n)]
    k = draw(st.integers(0, len(held) - 6))
    picked = draw(st.permutations(held))[:k]
    # Sometimes name a suited card by rank only (the shoe then becomes rank-only).
    drop_suit = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    picked = [c[0] if d else c for c, d in zip(picked, drop_suit)]
    return shoe, picked


@settings(max_examples=150, deadline=None)
@given(shoe_and_removals())
def test_removing_held_cards_reduces_counts_exactly(case):
    shoe, picked = case
    after = shoe.remove(picked)
    assert after.cards == shoe.cards - len(picked)
    for r in RANKS:
        removed = sum(1 for c in picked if c[0] == r)
        assert after.rank_counts[r] == shoe.rank_counts[r] - removed >= 0
    assert min(after.value_counts) >= 0 and sum(after.value_counts) == after.cards
    expect_suited = shoe.suited and all(len(c) == 2 for c in picked)
    assert after.suited == expect_suited
    if expect_suited:
        before, now = shoe.card_counts, after.card_counts
        for c in before:
            assert now[c] == before[c] - picked.count(c) >= 0
    # one at a time gives the same shoe
    step = shoe
    for c in picked:
        step = step.remove(c)
    assert step == after


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=13, max_size=13).filter(lambda c: sum(c) >= 12),
       st.integers(0, 12))
def test_removing_one_more_than_held_fails(counts, rank_index):
    shoe = Shoe(counts)
    r = RANKS[rank_index]
    n = counts[rank_index]
    if shoe.cards - n - 1 < 6:
        return
    with pytest.raises(ShoeError, match=f"no {r} left"):
        shoe.remove([r] * (n + 1))
    if n:
        assert shoe.remove([r] * n).rank_counts[r] == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["As", "Ah", "K", "Kd", "9c", "9", "5s", "Qh"]), max_size=40),
       st.sampled_from(["1", "A=3,K=3,9=2,5=2,Q=2", "As=2,Kd=1,9c=3,5s=1,Qh=2,Ah=1"]))
def test_removing_many_cards_at_once_is_removing_them_one_by_one(cards, spec):
    """``Shoe.remove`` counts each distinct card once (a batch line removes hundreds):
    the same shoe, or the same refusal naming the first card missing, as taking the
    cards out of the counts in order (written out here)."""
    shoe = Shoe.parse(spec) if "=" in spec else Shoe.standard(1)
    ranks = [shoe.rank_counts[r] for r in RANKS]
    suited = [shoe.card_counts[r + s] for r in RANKS for s in SUITS] if shoe.suited else None
    missing = None
    for c in cards:
        r, s = c[0], (c[1] if len(c) > 1 else None)
        i = RANKS.index(r)
        if ranks[i] == 0:
            missing = f"cannot remove {c}: no {r} left in the shoe"
            break
        ranks[i] -= 1
        if suited is not None:
            if s is None:
                suited = None
            elif suited[4 * i + SUITS.index(s)] == 0:
                missing = f"cannot remove {c}: none left in the shoe"
                break
            else:
                suited[4 * i + SUITS.index(s)] -= 1
    if missing is None and sum(ranks) < 6:
        missing = "after removing those cards: a shoe needs at least 6 cards"
    if missing is not None:
        with pytest.raises(ShoeError, match=missing):
            shoe.remove(" ".join(cards))
        return
    got = shoe.remove(" ".join(cards))
    assert got == Shoe(ranks, suited) and got.suited == (suited is not None)


_NAMES = [r + s for r in RANKS for s in SUITS]
# names of every kind remove() reads or refuses: canonical, rank only, lower case, 10, junk
_ANY_NAME = st.one_of(st.sampled_from(_NAMES), st.sampled_from(["5", "K", "10h", "as", "Zz", "A", "é9", ""]))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.lists(st.lists(_ANY_NAME, max_size=170), min_size=1, max_size=12),
       st.sampled_from([" ", ",", "  ", ", "]))
def test_remove_each_is_remove_of_each_or_none(decks, removals, sep):
    shoe = Shoe.standard(decks)
    texts = [sep.join(names) for names in removals] + [" ".join(names) for names in removals]
    for text, got in zip(texts, shoe.remove_each(texts), strict=True):
        try:
            want = shoe.remove(text)
        except BaccaratError:
            want = None
        if got is not None:
            assert got == want and hash(got) == hash(want) and got.card_tuple == want.card_tuple
        # the common form (suited names, one space between) that remove() takes is counted here
        common = all(n in _NAMES for n in text.split(" ")) if text else True
        if want is not None and common and "  " not in text:
            assert got is not None


def test_remove_each_of_a_rank_only_shoe_leaves_each_to_remove():
    shoe = Shoe.parse("A=4,K=40")
    assert shoe.remove_each(["As", ""]) == [None, None]
