"""The ``odds --batch`` line (:func:`analyzer.reports.odds_tables.odds_line`, written from
the solve's integer ways) is the text of ``json.dumps`` of the ``odds --format json``
document (:func:`odds_dict`), byte for byte, on generated shoes and bet sets."""

import json
import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from analyzer import Shoe, Solver, catalog
from analyzer.bets import Bet, Event
from analyzer.bets.conditions import Condition
from analyzer.core.known import parse_known
from analyzer.reports.odds_tables import odds_dict, odds_line, odds_lines, odds_markdown

CATALOG = catalog()
ALL = tuple(CATALOG.bets.values())
SOLVER = Solver(ALL)
CARDS = [r + s for r in "A23456789TJQK" for s in "shdc"]


def dumped(a, **kw) -> str:
    return json.dumps(odds_dict(a, **kw), allow_nan=False, separators=(",", ":"))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 8))
def test_the_line_is_the_documents_json_for_every_catalog_bet(seed, decks):
    rng = random.Random(seed)
    full = [c for c in CARDS for _ in range(decks)]
    removed = rng.sample(full, rng.randint(0, len(full) - 6))
    shoes = [Shoe.standard(decks).remove(removed)]
    for a in SOLVER.solve_many(shoes):
        assert odds_line(a) == dumped(a)


PAYS = st.lists(st.tuples(st.integers(-1, 10**12), st.integers(1, 10**12)), min_size=1, max_size=3)


def bet_paying(pays, name) -> Bet:
    """A bet of up to three events paying ``n/d`` each, named with ``name``."""
    conditions = ["player_total >= 7", "banker_total == 6", "natural"]
    events = tuple(Event(f"e{i} {name}", Fraction(n, d), Condition.parse(conditions[i]))
                   for i, (n, d) in enumerate(pays))
    return Bet("mine", name, "", events)


@settings(max_examples=25, deadline=None)
@given(PAYS, st.text(min_size=1, max_size=8), st.integers(0, 2**32))
def test_the_line_is_the_documents_json_for_any_pays_and_names(pays, name, seed):
    bet = bet_paying(pays, name)
    rng = random.Random(seed)
    shoe = Shoe.standard(1).remove(rng.sample(CARDS, rng.randint(0, 40)))
    a = Solver([bet]).solve(shoe)
    assert odds_line(a) == dumped(a)


def test_the_line_carries_known_cards_and_rules_as_the_document_does():
    known = parse_known({"1": "9", "5": "K"})
    a = Solver([CATALOG.bet("banker"), CATALOG.bet("dragon7")], known=known).solve(Shoe.standard(8))
    assert odds_line(a) == dumped(a)
    assert '"known":{"1":"9","5":"K"}' in odds_line(a)


def test_the_line_of_a_bet_of_ev_zero_writes_its_house_edge_as_the_document_does():
    # the line writes the house edge's float from the EV's text; at EV 0 the document's
    # -s1/den is 0.0, not -0.0 (a push on every coup, and an even-money coin of equal halves)
    push = Bet("push", "Push", "", (Event("natural", Fraction(0), Condition.parse("natural")),), Fraction(0))
    a = Solver([push, CATALOG.bet("banker")]).solve(Shoe.standard(1))
    assert odds_line(a) == dumped(a)
    assert '"ev":"0/1","ev_float":0.0,"house_edge":"0/1","house_edge_float":0.0' in odds_line(a)


# -- the lines of a chunk, written together (odds_lines: odds --batch and serve's /batch) --------

MAIN = Solver([CATALOG.bet(b) for b in ("banker", "player", "tie")])


def depleted(rng, decks: int, suited: bool = True) -> Shoe:
    full = [c for c in CARDS for _ in range(decks)]
    removed = rng.sample(full, rng.randint(0, len(full) - 6))
    return Shoe.standard(decks).remove(removed if suited else [c[0] for c in removed])


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.integers(8, 20))
def test_a_chunks_lines_are_each_documents_json_for_every_catalog_bet(seed, size):
    # shoes of 1 to 12 decks: deals beyond 2**53 (10 decks and more) take the exact fallbacks
    rng = random.Random(seed)
    shoes = [depleted(rng, rng.choice((1, 2, 6, 8, 10, 12))) for _ in range(size)]
    analyses = SOLVER.solve_many(shoes)
    assert odds_lines(analyses) == [dumped(a) for a in analyses]


def test_events_equal_over_one_chunk_and_not_the_next_are_written_each_from_its_ways():
    """A chunk writes each distinct column of ways once; columns equal over one chunk (a
    shoe of nines and faces: most events never happen) are checked again on the next,
    where they differ."""
    few = [Shoe.from_counts({"9h": 4 + i, "Ks": 6, "Qd": 5}) for i in range(8)]
    rng = random.Random(3)
    many = [depleted(rng, 8) for _ in range(8)]
    for chunk in (few, many, few):
        analyses = SOLVER.solve_many(chunk)
        assert odds_lines(analyses) == [dumped(a) for a in analyses]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(8, 40))
def test_a_chunks_lines_are_each_documents_json_for_the_main_bets_and_rank_only_shoes(seed, size):
    rng = random.Random(seed)
    shoes = [depleted(rng, rng.randint(1, 8), suited=rng.random() < 0.7) for _ in range(size)]
    analyses = MAIN.solve_many(shoes)
    assert odds_lines(analyses) == [dumped(a) for a in analyses]


@settings(max_examples=25, deadline=None)
@given(PAYS, st.text(min_size=1, max_size=8), st.integers(0, 2**32))
def test_a_chunks_lines_are_each_documents_json_for_any_pays_and_names(pays, name, seed):
    # pays up to 10**12: weights beyond int64's bounds are summed with Python's integers
    bet = bet_paying(pays, name)
    rng = random.Random(seed)
    shoes = [Shoe.standard(2).remove(rng.sample(CARDS * 2, rng.randint(0, 90))) for _ in range(9)]
    analyses = Solver([bet, CATALOG.bet("dragon7")]).solve_many(shoes)
    assert odds_lines(analyses) == [dumped(a) for a in analyses]


def test_a_bet_whose_variance_passes_a_float_writes_it_null_and_its_std_dev_alone_and_in_a_chunk():
    # pays beyond a bets file's 10**12, built in Python: the variance's float is null; the
    # standard deviation is a float still (its computation raised OverflowError before)
    huge = Bet("huge", "Huge", "", (Event("natural", Fraction(10**170), Condition.parse("natural")),))
    analyses = Solver([huge, CATALOG.bet("banker")]).solve_many([Shoe.standard(1)] * 9)
    lines = odds_lines(analyses)
    assert lines == [dumped(a) for a in analyses] == [odds_line(a) for a in analyses]
    bet = json.loads(lines[0])["bets"]["huge"]
    assert bet["variance_float"] is None
    variance = Fraction(bet["variance"])
    assert abs(Fraction(bet["std_dev_float"]) ** 2 / variance - 1) < Fraction(1, 10**14)
    assert f"{bet['std_dev_float']:.6f}" in odds_markdown(analyses[0])  # the Markdown writes it too


def test_a_chunks_lines_carry_ev_zero_known_cards_rules_and_extras_as_each_line_does():
    push = Bet("push", "Push", "", (Event("natural", Fraction(0), Condition.parse("natural")),), Fraction(0))
    known = parse_known({"1": "9", "5": "K"})
    rng = random.Random(5)
    shoes = [Shoe.standard(6).remove(rng.sample(CARDS * 6, rng.randint(0, 100))) for _ in range(10)]
    analyses = Solver([push, CATALOG.bet("banker")], known=known).solve_many(shoes)
    extras = [{"n": i} if i % 3 else None for i in range(10)]
    assert odds_lines(analyses, extras=extras) == [odds_line(a, extra=e) for a, e in zip(analyses, extras)]
    assert all('"house_edge":"0/1","house_edge_float":0.0' in line for line in odds_lines(analyses))
