"""Hypothesis over three hostile inputs: rules-file cells, known cards with every
catalog bet, and groups that may name one card twice.

* **Rules-file cells** (``"0-5, 7"``, ``"any"``, ranges of any size): a cell either
  reads as the totals an independent decoder here spells out, or is one clear
  :class:`RulesError`, in bounded time and memory (a range to 10**30 is refused
  before it is spelt out).  A whole rules file built of such cells either loads,
  writes back as a file that loads equal, and deals as its cells say (every ordered
  deal of a small shoe, :mod:`brute`), or is one clear error.
* **Known cards with every catalog bet**: any bet of the catalog with up to three
  known cards (a rank or a card, possible or not) on a small suited shoe counts the
  ways of every event as :mod:`brute` does, or is one clear error; never a traceback.
* **Groups**: ``[position, ...]`` lists drawn with repeats and aliases
  (``player_card1`` is ``card1``; ``banker_card3`` is ``card5`` or ``card6``) are
  refused exactly when two names can be one card in some deal (an independent table of
  where each name can stand), and otherwise count as :mod:`brute` counts them.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import brute
from analyzer.bets import Bet, Condition, Event
from analyzer.bets.catalog import catalog
from analyzer.bets.rules_files import parse_rules, rules_toml
from analyzer.core.errors import BaccaratError, BetError
from analyzer.core.known import Known
from analyzer.core.rules import PUNTO_BANCO, RulesError, parse_cell
from analyzer.core.solver import Solver
from helpers import RANKS, SUITS, card_predicate, shoe_of, small_shoe

FAST = settings(max_examples=300, deadline=2000, suppress_health_check=list(HealthCheck))
SLOWER = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def one_line(error: BaseException) -> str:
    msg = str(error)
    assert msg and "\n" not in msg and len(msg) < 400, msg[:400]
    return msg


# -- rules-file cells ------------------------------------------------------------------------

NUMBER = st.one_of(st.integers(0, 12), st.integers(0, 10**30), st.sampled_from([-1, 99999999999999999999999]))
TERM = st.one_of(
    NUMBER.map(str),
    st.tuples(NUMBER, NUMBER).map(lambda t: f"{t[0]}-{t[1]}"),
    st.sampled_from(["any", "always", "never", "-", "", " ", "x", "1--2", "-3", "3-", "0-", "½"]),
)
CELL_TEXT = st.lists(TERM, min_size=1, max_size=5).flatmap(
    lambda terms: st.sampled_from([", ", ",", " , ", ",,"]).map(lambda sep: sep.join(terms)))
CELL = st.one_of(CELL_TEXT, st.lists(st.integers(-2, 12), max_size=4), st.integers(-2, 12),
                 st.sampled_from([True, None, 1.5, {"a": 1}]))

WORDS = {"any": frozenset(range(10)), "always": frozenset(range(10)), "never": frozenset(), "-": frozenset()}


def decode(cell) -> frozenset[int] | None:
    """The totals a cell means by the README's rules-file grammar, or ``None`` for a cell
    that must be refused: written out here without the analyzer's parser."""
    if isinstance(cell, bool) or not isinstance(cell, (str, int, list)):
        return None
    if isinstance(cell, int):
        cell = [cell]
    if isinstance(cell, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in cell):
            return None
        return frozenset(cell) if all(0 <= v <= 9 for v in cell) else None
    text = cell.strip()
    if text in WORDS:
        return WORDS[text]
    out: set[int] = set()
    for term in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", term)
        if not m:
            return None
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if not lo <= hi <= 9:
            return None
        out.update(range(lo, hi + 1))
    return frozenset(out)


@FAST
@given(CELL)
def test_a_cell_reads_as_its_totals_or_is_one_line(cell):
    want = decode(cell)
    try:
        got = parse_cell(cell, "fuzz.toml: player_draws")
    except RulesError as e:
        event("refused")
        assert "fuzz.toml: player_draws" in one_line(e)
        assert want is None, (cell, e)
        return
    assert got == want, cell


def _toml(value) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    if isinstance(value, int):
        return str(value)
    return '"?"'


@st.composite
def rules_file(draw):
    """A rules file's text and the cells it was built of: legal cells, and in half of
    the files one cell (or one extra Banker row's key) of any text."""
    legal = st.lists(st.integers(0, 9), max_size=6).map(lambda v: ", ".join(map(str, sorted(set(v)))) or "-")
    naturals = draw(st.sampled_from(["8, 9", "9", "8-9", "7-9", "-", "9,8, 9"]))
    doc = {"naturals": naturals, "player_draws": draw(legal), "banker_if_player_stood": draw(legal)}
    # Banker rows: a partition of the non-natural totals into keyed rows
    rest = [t for t in range(10) if t not in decode(naturals)]
    rows, i = {}, 0
    while i < len(rest):
        width = draw(st.integers(1, 3))
        totals = rest[i:i + width]
        key = f"{totals[0]}-{totals[-1]}" if len(totals) > 1 else str(totals[0])
        rows[key] = draw(legal)
        i += width
    if draw(st.booleans()):
        where = draw(st.sampled_from(["naturals", "player_draws", "banker_if_player_stood", "row", "key"]))
        if where in doc:
            doc[where] = draw(CELL_TEXT)
        elif where == "row" and rows:
            rows[draw(st.sampled_from(sorted(rows)))] = draw(CELL_TEXT)
        else:
            rows[draw(CELL_TEXT)] = draw(legal)       # a hostile key: a range of any size, a repeat
    lines = [f'name = "fuzzed {draw(st.integers(0, 99))}"'] + [f"{k} = {_toml(v)}" for k, v in doc.items()]
    lines += ["[banker]"] + [f"{_toml(k)} = {{ draws = {_toml(v)} }}" for k, v in rows.items()]
    return "\n".join(lines) + "\n", doc, rows


def _rows_decoded(rows) -> dict[int, frozenset[int]] | None:
    out = {}
    for key, draws in rows.items():
        totals, cards = decode(key), decode(draws)
        if totals is None or cards is None or not totals or out.keys() & totals:
            return None
        out.update(dict.fromkeys(totals, cards))
    return out


@SLOWER
@given(rules_file(), small_shoe(min_cards=6, max_cards=8))
@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_rules_file_of_fuzzed_cells_loads_round_trips_and_deals_as_written(drawn, cards):
    text, doc, rows = drawn
    try:
        rules = parse_rules(text, "fuzz.toml")
    except RulesError as e:
        event("refused")
        assert one_line(e).startswith("fuzz.toml")
        cells = [decode(v) for v in doc.values()]
        banker = _rows_decoded(rows)
        naturals = cells[0]
        # refused: a cell that means nothing, or Banker rows that do not cover each non-natural total once
        assert None in cells or banker is None or set(banker) != set(range(10)) - naturals, (text, e)
        return
    naturals, player, stood = (decode(v) for v in doc.values())
    banker = _rows_decoded(rows)
    assert None not in (naturals, player, stood) and banker is not None, text
    assert rules.naturals == naturals
    assert rules.player_draws == player - naturals
    assert rules.banker_if_player_stood == stood - naturals
    assert parse_rules(rules_toml(rules), "again.toml") == rules
    # dealt as the cells say: the Banker's row for a total decides on the Player's third card's value
    f = brute.features(brute.ordered_deals(tuple(cards)), rules)
    deals = brute.ordered_deals(tuple(cards))
    v = brute.VALUE[deals]
    pt2, bt2 = (v[:, 0] + v[:, 2]) % 10, (v[:, 1] + v[:, 3]) % 10
    natural = [a in naturals or b in naturals for a, b in zip(pt2, bt2)]
    for k in range(len(deals)):
        p3 = not natural[k] and int(pt2[k]) in player
        if natural[k]:
            b3 = False
        elif p3:
            b3 = int(v[k, 4]) in banker[int(bt2[k])]
        else:
            b3 = int(bt2[k]) in stood
        assert (f["player_cards"][k], f["banker_cards"][k]) == (2 + p3, 2 + b3), (text, deals[k])
    got = Solver(catalog().select(["banker", "player", "tie"]), rules=rules).solve(shoe_of(cards))
    assert got.deals == len(deals)
    assert [e.ways for e in got.bet("tie").events[:1]] == [int((f["winner"] == 2).sum())]


# -- known cards with every catalog bet -----------------------------------------------------

BET_IDS = sorted(catalog().bets)


@st.composite
def any_known(draw, cards):
    """Up to three known cards: mostly cards of the shoe, sometimes any card (impossible)."""
    n = draw(st.integers(1, 3))
    positions = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n, unique=True))
    out = []
    for pos in positions:
        c = draw(st.sampled_from(cards)) if draw(st.integers(0, 5)) else draw(st.integers(0, 51))
        out.append((pos, RANKS[c // 4], SUITS[c % 4] if draw(st.booleans()) else None))
    return Known(tuple(sorted(out)))


@SLOWER
@given(st.sampled_from(BET_IDS), st.data())
@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_every_catalog_bet_with_known_cards_counts_as_every_deal(bet_id, data):
    cards = data.draw(small_shoe(min_cards=7, max_cards=9))
    known = data.draw(any_known(cards))
    bet = catalog().bet(bet_id)
    deals = brute.ordered_deals(tuple(cards))
    keep = brute.pinned(deals, known.pins())
    try:
        result = Solver([bet], known=known).solve(shoe_of(cards))
    except BaccaratError as e:
        event("refused")
        one_line(e)
        # the one refusal allowed here: a known card the shoe cannot hold
        assert keep.sum() == 0 or "budget" in str(e), (bet_id, known, e)
        return
    want = brute.event_ways(bet, brute.features(deals, PUNTO_BANCO), keep)
    got = result.bet(bet_id)
    assert result.deals == int(keep.sum())
    assert [e.ways for e in got.events[:len(bet.events)]] == want, (bet_id, known.describe())
    if result.deals:
        # nothing dealt is a loss of the stake: the ``otherwise`` event holds every other deal
        assert sum(e.ways for e in got.events) == result.deals


# -- groups that may name one card twice ----------------------------------------------------

POSITIONS = ("player_card1", "player_card2", "player_card3", "banker_card1", "banker_card2",
             "banker_card3", "card1", "card2", "card3", "card4", "card5", "card6")
#: Where each name can stand in the deal (0-5), from the dealing order P B P B, then the
#: Player's third card, then the Banker's (fifth when the Player stood),
#: As ``(position, whether the Player drew)``: the Banker's third card is the fifth only
#: when the Player stood, so it is never the Player's third.
STANDS_AT = {**{name: {(i, False), (i, True)} for i, name in enumerate(
                 ("player_card1", "banker_card1", "player_card2", "banker_card2"))},
             "player_card3": {(4, True)}, "banker_card3": {(4, False), (5, True)},
             **{f"card{i + 1}": {(i, False), (i, True)} for i in range(6)}}


def can_be_one_card(names) -> bool:
    return any(STANDS_AT[a] & STANDS_AT[b] for i, a in enumerate(names) for b in names[i + 1:])


@SLOWER
@given(st.lists(st.sampled_from(POSITIONS), min_size=1, max_size=4), card_predicate(),
       st.sampled_from(["count({g}, {p}) >= 1", "all({g}, {p})", "pairs({g}) >= 1", "flush({g})",
                        "kinds({g}, 1) >= 2"]),
       small_shoe(min_cards=7, max_cards=9))
@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_group_is_refused_exactly_when_two_names_can_be_one_card(names, predicate, shape, cards):
    text = shape.format(g="[" + ", ".join(names) + "]", p=predicate)
    try:
        condition = Condition.parse(text)
    except BetError as e:
        event("refused")
        assert "same card" in one_line(e) or "twice" in str(e), (text, e)
        assert can_be_one_card(names), text
        return
    assert not can_be_one_card(names), text
    bet = Bet("g", "g", "", (Event("e", Fraction(1), condition),))
    deals = brute.ordered_deals(tuple(cards))
    want = brute.event_ways(bet, brute.features(deals, PUNTO_BANCO), brute.pinned(deals, {}))
    try:
        got = Solver([bet]).solve(shoe_of(cards)).bet("g").events[0].ways
    except BetError as e:
        # the card engine's documented limit (docs/limits.md): a group reading suits
        # through drawn cards can need more class sequences than the budget, whatever
        # the shoe; it is refused in one line that names the budget, never miscounted
        event("beyond the card budget")
        assert "budget" in one_line(e), (text, e)
        return
    assert [got] == want, text



@pytest.mark.slow  # 5 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_the_players_third_card_and_the_sixth_card_are_two_cards():
    """``[player_card3, card6]`` never names one card (the sixth card is the Banker's
    third, dealt only after the Player's); it was refused with "they can be the same
    card" until the refusal was made to follow where each name can stand."""
    cards = tuple(sorted([0, 1, 5, 9, 9, 13, 17, 33, 45]))
    deals = brute.ordered_deals(cards)
    f = brute.features(deals, PUNTO_BANCO)
    for text in ("pairs([player_card3, card6]) >= 1", "count([player_card3, card6], value >= 5) == 2",
                 "flush([player_card3, card6, card1])", "kinds([player_card3, card6], 1) >= 1",
                 # the two hands' third cards are never one card either (kept by an earlier test)
                 "count([player_card3, banker_card3], value >= 5) == 2"):
        bet = Bet("g", "g", "", (Event("e", Fraction(1), Condition.parse(text)),))
        want = brute.event_ways(bet, f, brute.pinned(deals, {}))
        assert want[0] > 0, text
        assert [Solver([bet]).solve(shoe_of(cards)).bet("g").events[0].ways] == want, text
