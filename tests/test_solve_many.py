"""``Solver.solve_many`` and the fast paths behind it, against ``solve``, the slow
paths and the permutation oracle."""

import random
from collections import Counter
from functools import lru_cache

import pytest

from analyzer import Shoe, Solver, catalog
from analyzer.core.cardengine import CARD_LEVEL, CardTabulation
from analyzer.core.backend import INT64_LIMIT
from analyzer.core.engine import POSITIONS, falling
from analyzer.core.known import parse_known
from analyzer.core.rules import GOLD

from oracle import six_card_tally

MAIN = ["player", "banker", "tie"]
FAST = MAIN + ["player_pair", "banker_pair", "either_pair", "perfect_pair",
               "dragon_bonus_player", "dragon_bonus_banker"]
PAIRS = ["player_pair", "banker_pair", "either_pair", "perfect_pair", "perfect_pair_v2"]
CARDS = [r + s for r in "A23456789TJQK" for s in "shdc"]


@lru_cache(maxsize=None)
def solver(ids: tuple, rules=None, known=None) -> Solver:
    cat = catalog()
    bets = tuple(cat.bets.values()) if ids == ("all",) else cat.select(list(ids))
    return Solver(bets, rules=rules, known=parse_known(dict(known)) if known else None)


def depleted(rng: random.Random, decks: int, most: int) -> Shoe:
    full = [c for c in CARDS for _ in range(decks)]
    return Shoe.standard(decks).remove(rng.sample(full, rng.randint(0, most)))


def shoes_of_every_kind(seed: int) -> list[Shoe]:
    rng = random.Random(seed)
    out = [Shoe.standard(8), Shoe.standard(1), Shoe.standard(40)]
    out += [depleted(rng, 8, 400) for _ in range(70)]          # more than one chunk of 64
    out += [depleted(rng, 1, 46) for _ in range(10)]           # nearly empty shoes
    out += [depleted(rng, 40, 300) for _ in range(3)]          # beyond int64: Python ints
    rng.shuffle(out)
    return out


def test_shoes_cover_both_integer_paths():
    shoes = shoes_of_every_kind(1)
    big = [s for s in shoes if falling(s.cards, POSITIONS) > INT64_LIMIT]
    assert 0 < len(big) < len(shoes)


@pytest.mark.parametrize("ids", [tuple(MAIN), tuple(FAST), tuple(PAIRS), ("all",)])
def test_solve_many_equals_solve(ids):
    s = solver(ids)
    shoes = shoes_of_every_kind(len(ids))
    assert s.solve_many(shoes) == [s.solve(x) for x in shoes]
    assert s.solve_many([]) == []


def test_solve_many_on_rank_only_shoes():
    rng = random.Random(7)
    shoes = [Shoe.parse(",".join(f"{r}={rng.randint(0, 40)}" for r in "A23456789TJQK")) for _ in range(40)]
    shoes.append(Shoe.parse(",".join(f"{r}={160}" for r in "A23456789TJQK")))   # beyond int64
    shoes = [x for x in shoes if x.cards >= 6]
    assert not any(x.suited for x in shoes)
    s = solver(tuple(MAIN + ["player_pair", "banker_pair", "either_pair", "dragon_bonus_banker"]))
    assert s.solve_many(shoes) == [s.solve(x) for x in shoes]
    with pytest.raises(Exception) as many:
        solver(tuple(FAST)).solve_many([Shoe.standard(8)] + shoes)
    with pytest.raises(Exception) as one:
        solver(tuple(FAST)).solve(shoes[0])
    assert str(many.value) == str(one.value)


def test_solve_many_with_known_cards_and_gold_rules():
    rng = random.Random(3)
    shoes = [depleted(rng, 8, 200) for _ in range(20)] + [Shoe.standard(40)]
    for known in (None, (("1", "9"),), (("2", "K"), ("5", "9"))):
        for rules in (None, GOLD):
            s = solver(tuple(MAIN + ["dragon_bonus_player"]), rules, known)
            assert s.solve_many(shoes) == [s.solve(x) for x in shoes]


def test_value_batches_equal_python_integers():
    s = solver(tuple(FAST))
    shoes = shoes_of_every_kind(11)
    counts = [x.value_counts for x in shoes]
    assert s._tab.ways_many(counts) == [s._tab.ways_exact(vc) for vc in counts]
    assert s._tab.ways_many(counts, chunk=5) == [s._tab.ways(vc) for vc in counts]


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_pair_fast_path_equals_the_value_path():
    # the closed form over classes, single and batched, against the crossing with
    # the 10**4 point-value sequences, on many random shoes, both integer paths
    s = solver(tuple(PAIRS))
    shoes = [x for x in shoes_of_every_kind(5) for _ in (0,)]
    rng = random.Random(9)
    shoes += [depleted(rng, 2, 98) for _ in range(120)]
    tabs = [t for t in s._card_tabs.values() if isinstance(t, CardTabulation)]
    assert {t.level for t in tabs} == {"rank", CARD_LEVEL} and all(t.value_free for t in tabs)
    for tab in tabs:
        counts = [x.card_tuple if tab.level == CARD_LEVEL else x.rank_tuple for x in shoes]
        values = [x.value_counts for x in shoes]
        slow = [tab.ways_by_values(c, v) for c, v in zip(counts, values)]
        assert [tab.ways(c, v) for c, v in zip(counts, values)] == slow
        assert tab.ways_many(counts, values) == slow
        assert tab.ways_many(counts, values, chunk=7) == slow


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_general_signature_path_equals_the_value_path():
    # value-free events whose signatures are not "equal or not" (the first card's
    # rank): the generic correction formula over signatures, not the closed form
    from analyzer.bets.conditions import Condition
    conds = [Condition.parse(t) for t in ("player_rank1 == 1 and banker_pair", "banker_rank1 == 13")]
    from analyzer.core.engine import coup_table
    events = [c.mask for c in conds]
    events = [events[0], lambda f: conds[1].mask(f) & ~conds[0].mask(f)]
    tab = CardTabulation(events, frozenset().union(*(c.card_features for c in conds)), "rank", coup_table())
    assert tab.value_free
    rng = random.Random(2)
    shoes = [depleted(rng, 8, 300) for _ in range(30)] + [Shoe.standard(40), depleted(rng, 1, 46)]
    counts, values = [x.rank_tuple for x in shoes], [x.value_counts for x in shoes]
    slow = [tab.ways_by_values(c, v) for c, v in zip(counts, values)]
    assert tab.ways_many(counts, values) == slow == [tab.ways(c, v) for c, v in zip(counts, values)]


ORACLE_SHOES = ["As As Ah 2s 2h 3d 3d Kc", "5h 5h 5h 5d Qs Qs Jc", "9s 9s 9h Ts Th 7d 3c"]


def pair_key(hand):
    return lambda c: c[hand][0][0] == c[hand][1][0]


def perfect_key(hand):
    return lambda c: c[hand][0] == c[hand][1]


@pytest.mark.parametrize("text", ORACLE_SHOES)
def test_pairs_of_solve_many_match_the_permutation_oracle(text):
    keys = {"pp": pair_key("player_cards"), "bp": pair_key("banker_cards"),
            "ep": lambda c: pair_key("player_cards")(c) or pair_key("banker_cards")(c),
            "perfect": lambda c: perfect_key("player_cards")(c) or perfect_key("banker_cards")(c),
            "winner": lambda c: c["winner"]}
    tallies, deals = six_card_tally(text.split(), keys)
    shoe = Shoe.from_counts(Counter(text.split()))
    a = solver(tuple(FAST)).solve_many([shoe, Shoe.standard(8)])[0]
    assert a.deals == deals
    assert a.outcomes == {o: tallies["winner"][o] for o in MAIN}
    for bet, key in (("player_pair", "pp"), ("banker_pair", "bp"), ("either_pair", "ep"),
                     ("perfect_pair", "perfect")):
        assert a.bet(bet).events[0].ways == tallies[key][True]


def test_derived_rows_are_exact_combinations():
    # the tie is every deal less the Player's and Banker's wins; the catalog has more
    from analyzer.core.engine import coup_table
    import numpy as np
    s = solver(tuple(MAIN))
    _, basis, derived = s._tab.ways_table.counted
    assert basis == [0, 1] and derived == [(2, [(0, -1), (1, -1)], 1)]
    full = solver(("all",))
    coef = full._tab.coef
    _, basis, derived = full._tab.ways_table.counted
    assert derived and len(basis) + len(derived) == coef.shape[0]
    every = coup_table().coefficients(np.ones(coup_table().size, dtype=bool))
    for r, terms, c_all in derived:
        assert (sum(c * coef[i] for i, c in terms) + c_all * every == coef[r]).all()
    shoes = shoes_of_every_kind(13)
    counts = [x.value_counts for x in shoes]
    assert full._tab.ways_many(counts) == [full._tab.ways_exact(vc) for vc in counts]


def test_ev_and_variance_are_kept_exact():
    from fractions import Fraction
    a = solver(tuple(FAST)).solve_many([Shoe.standard(8)])[0]
    b = solver(tuple(FAST)).solve(Shoe.standard(8))
    for bet_id, r in a.bets.items():
        assert isinstance(r.ev, Fraction) and r.ev is r.ev and r.variance is r.variance
        # by their definitions, one Fraction per event
        ev = sum(Fraction(e.ways, e.deals) * e.pays for e in b.bet(bet_id).events)
        assert r.ev == b.bet(bet_id).ev == ev
        assert r.variance == sum(Fraction(e.ways, e.deals) * e.pays ** 2 for e in r.events) - ev ** 2
    assert a == b


@pytest.mark.slow  # 4 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_batch_chunks_equal_line_by_line(cli, tmp_path):
    # a regular file goes through solve_many 64 lines at a time; standard input line by
    # line: the same output, and a bad line leaves the lines before it answered
    import json
    rng = random.Random(4)
    lines = []
    for i in range(150):
        line = {"decks": rng.choice([1, 6, 8]), "remove": " ".join(rng.sample(CARDS, rng.randint(0, 20)))}
        if i % 7 == 0:
            line["known"] = {"1": "9"} if i % 2 else {"2": "K", "5": "4"}
        lines.append(json.dumps(line))
    path = tmp_path / "shoes.jsonl"
    path.write_text("\n".join(lines) + "\n")
    argv = ["odds", "--bets", "player,banker,tie,player_pair,perfect_pair,dragon_bonus_banker", "--batch"]
    chunked = cli.ok(*argv, path)
    r = cli(*argv, "-", stdin=path.read_bytes())
    assert r.code == 0
    one_by_one = r.out
    assert chunked == one_by_one and chunked.count("\n") == 150
    bad = lines[:100] + ['{"remove": "5"}'] + lines[100:]           # suits unknown: perfect_pair fails
    path.write_text("\n".join(bad) + "\n")
    code, out, err = cli(*argv, path)
    assert code == 2
    assert out.splitlines() == chunked.splitlines()[:100]
    assert "line 101: bet 'perfect_pair' reads suits" in err
