"""``Analysis.bets`` of a solve (:class:`analyzer.core.results.BetResults`): built on first
reading, yet equal to, ordered, printed and pickled like the dict of eagerly built
``BetResult`` s it stands for."""

import dataclasses
import io
import pickle
import random
from functools import lru_cache

import pytest

from analyzer import Analysis, BetResult, EventResult, Shoe, Solver, catalog
from analyzer.core.known import parse_known
from analyzer.core.results import BetResults

CARDS = [r + s for r in "A23456789TJQK" for s in "shdc"]


@lru_cache(maxsize=None)
def whole() -> Solver:
    return Solver(tuple(catalog().bets.values()))


@lru_cache(maxsize=None)
def alone(bet_id: str, known=None) -> Solver:
    return Solver((catalog().bets[bet_id],), known=parse_known(dict(known)) if known else None)


def shoes() -> list[Shoe]:
    rng = random.Random(12)
    full = [c for c in CARDS for _ in range(8)]
    return [Shoe.standard(8)] + [Shoe.standard(8).remove(rng.sample(full, n)) for n in (1, 40, 300)]


def eager(shoe: Shoe, bets, known=None) -> dict:
    """Each bet's BetResult built with the dataclass constructors, from a solver of that
    bet alone (its own engine level, nothing gathered from other bets)."""
    out = {}
    for bet in bets:
        one = alone(bet.id, known).solve(shoe).bet(bet.id)
        out[bet.id] = BetResult(bet, one.deals, tuple(EventResult(e.event, e.pays, e.ways, e.deals)
                                                      for e in one.events))
    return out


@pytest.mark.parametrize("shoe", [pytest.param(s, marks=pytest.mark.slow) if i == 0 else s for i, s in enumerate(shoes())],
                         ids=["full", "1 out", "40 out", "300 out"])  # the full shoe (3 s of CPU) in the slow run
def test_equal_to_the_eagerly_built_dict(shoe):
    bets = whole().bets
    a = whole().solve(shoe)
    assert type(a.bets) is BetResults
    ref = eager(shoe, bets)
    assert list(a.bets) == [b.id for b in bets] == list(ref)
    assert a.bets == ref and ref == a.bets and not a.bets != ref
    assert a == Analysis(shoe, a.deals, a.outcomes, ref, a.rules, a.known) == a
    assert repr(dict(a.bets.items())) == repr(ref) and repr(a.bets) == f"<BetResults of {len(ref)} bets: " + ", ".join(list(ref)[:6]) + f", ... ({len(ref) - 6} more)>"
    assert repr(a) == repr(Analysis(shoe, a.deals, a.outcomes, ref, a.rules, a.known))
    assert list(a.bets.items()) == list(ref.items())
    for bet in bets:
        r = a.bet(bet.id)
        assert r == ref[bet.id] and r.ev == ref[bet.id].ev and r.variance == ref[bet.id].variance
        assert all(type(e.ways) is int for e in r.events) and sum(e.ways for e in r.events) == a.deals


def test_read_once_kept_and_in_order():
    a, b = whole().solve(Shoe.standard(6)), whole().solve(Shoe.standard(6))
    ids = list(catalog().bets)
    first = a.bet(ids[40])
    assert a.bets[ids[40]] is first and first.ev is a.bet(ids[40]).ev
    values = list(a.bets.values())
    assert values[40] is first and [r.bet.id for r in values] == ids
    assert list(a.bets.values())[7] is values[7] is a.bets[ids[7]]
    assert list(a.bets.keys()) == ids and [k for k, _ in a.bets.items()] == ids
    assert a == b and values == list(b.bets.values())       # read in another order: equal


def test_lazy_bets_behave_as_a_mapping():
    a = whole().solve(Shoe.standard(8))
    assert len(a.bets) == len(catalog().bets)
    assert "banker" in a.bets and "nope" not in a.bets and a.bets.get("nope") is None
    with pytest.raises(KeyError):
        a.bets["nope"]
    with pytest.raises(KeyError):
        a.bet("nope")
    with pytest.raises(TypeError):
        a.bets["banker"] = None
    with pytest.raises(TypeError):
        hash(a)                               # as with a dict of bets: unhashable
    assert dict(a.bets) == {**a.bets} == a.bets
    assert dataclasses.replace(a, known=None) == a
    assert a.to_frame("events")["ways"].tolist() == [e.ways for r in a.bets.values() for e in r.events]


def test_equality_against_other_layouts_and_counts():
    shoe = Shoe.standard(8).remove(["As", "Kd"])
    bets = whole().bets
    a = whole().solve(shoe)
    assert Solver(bets).solve(shoe) == a                             # another solver, equal layout
    mixed = Solver(bets[::-1]).solve(shoe)
    assert mixed.bets == a.bets and list(mixed.bets) != list(a.bets)  # a dict's equality: order aside
    assert whole().solve(Shoe.standard(8)) != a
    sub = Solver(bets[:10]).solve(shoe)
    assert sub.bets != a.bets and sub.bets == {k: a.bets[k] for k in list(a.bets)[:10]}
    # one count off: unequal, as the eagerly built dicts are
    ways = list(a.bets._ways)
    ways[17] += 1
    off = BetResults(a.bets._layout, a.deals, tuple(ways))
    assert off != a.bets and dict(off) != dict(a.bets) and off != dict(a.bets)
    assert BetResults(a.bets._layout, a.deals + 1, a.bets._ways) != a.bets
    empty = Solver(())
    assert empty.solve(shoe).bets == empty.solve(Shoe.standard(1)).bets == {}


class ByBetId(pickle.Pickler):
    """Bets (their parsed conditions hold lambdas) pickled by id, everything else by value."""

    def persistent_id(self, obj):
        return obj.id if type(obj).__name__ == "Bet" else None


class FromCatalog(pickle.Unpickler):
    def persistent_load(self, bet_id):
        return catalog().bets[bet_id]


def round_trip(obj):
    buf = io.BytesIO()
    ByBetId(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return FromCatalog(io.BytesIO(buf.getvalue())).load()


def test_pickle_round_trip():
    shoe = Shoe.standard(8).remove(["9h", "9h", "Tc"])
    a = whole().solve(shoe)
    b = round_trip(a)
    assert type(b.bets) is BetResults and b == a and repr(b) == repr(a)
    assert b.bets == eager(shoe, whole().bets)
    list(a.bets.values())                                            # read: pickles the same
    c = round_trip(a)
    assert c == a and list(c.bets) == list(a.bets) and repr(c.bets) == repr(a.bets)
    other = whole().solve(Shoe.standard(1))
    two = round_trip([a, other])
    assert two == [a, other] and two[0].bets._layout is two[1].bets._layout   # one layout pickled once


def test_cloudpickle_round_trip():
    cloudpickle = pytest.importorskip("cloudpickle")
    a = whole().solve(Shoe.standard(8).remove(["5s"]))
    b = cloudpickle.loads(cloudpickle.dumps(a))
    # the bets come back as copies whose conditions are new lambdas (unequal, as before the
    # lazy mapping); everything else is equal
    assert [(r.bet.id, r.deals, r.events, r.ev) for r in b.bets.values()] == \
        [(r.bet.id, r.deals, r.events, r.ev) for r in a.bets.values()]


def test_lazy_results_with_known_cards_are_the_eager_ones():
    known = (("1", "K"), ("4", "9"))
    shoe = Shoe.standard(8).remove(["Ks", "9d"])
    bets = tuple(catalog().bets[i] for i in ("banker", "player_pair", "dragon_bonus_banker", "tie", "lucky6"))
    a = Solver(bets, known=parse_known(dict(known))).solve(shoe)
    assert a.bets == eager(shoe, bets, known) and a.known is not None
