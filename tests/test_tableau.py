"""One drawing tableau: :func:`analyzer.core.rules.deal` is the one place a
rule set is played, and :func:`~analyzer.core.rules.play_coup` is one row of it.

``deal`` is checked against the rules stated again here, card by card, from the rules
*document* hypothesis writes (the mapping :func:`rules_from_mapping` reads, and the
per-hand Player rules a :class:`Rules` may carry), with no code of the package; and
``play_coup`` against ``deal`` on every sequence of point values a coup can read.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.rules import (GOLD, PUNTO_BANCO, WINNERS, Coup, deal, play_coup, rules_from_mapping,
                                 winner_codes)
from oracle import banker_draws_prose, gold_banker_draws_prose

VALUES = st.lists(st.integers(0, 9), unique=True)


@st.composite
def rules_document(draw):
    """A legal rules document (the rules-file shape) and per-hand Player rules."""
    naturals = draw(st.sampled_from([[8, 9], [9], [8], [7, 8, 9], [], [6, 9], [0, 5]]))
    rest = [t for t in range(10) if t not in naturals]
    doc = {"naturals": naturals, "player_draws": draw(VALUES), "banker_if_player_stood": draw(VALUES),
           "player_option": draw(st.sampled_from([[], [5], [4, 5]])),
           "banker": {str(t): {"draws": draw(VALUES)} for t in rest}}
    doc["player_option"] = [t for t in doc["player_option"] if t not in naturals]
    hands = draw(st.dictionaries(st.tuples(st.integers(0, 9), st.integers(0, 9)).map(lambda h: tuple(sorted(h))),
                                 st.booleans(), max_size=6)) if draw(st.booleans()) else {}
    return doc, hands


def rules_of(doc, hands):
    rules = rules_from_mapping(doc, "hypothesis")
    return dataclasses.replace(rules, player_hands=tuple(sorted(hands.items()))) if hands else rules


def prose_coup(doc, hands, values, player_draws=None) -> dict:
    """RULES.md's dealing order, read off the rules document: P B P B; a two-card total in
    ``naturals`` (either hand) ends the coup; else the Player draws by its two-card hand
    (``hands``) or total (``player_draws``), or as ``player_draws`` says when given; then the
    Banker draws on the point value of the Player's third card (``banker``) or, when the
    Player stood, by ``banker_if_player_stood``.  Each third card is the next card."""
    player, banker, nxt = [values[0], values[2]], [values[1], values[3]], 4
    pt, bt = sum(player) % 10, sum(banker) % 10
    out = {"player_two": pt, "banker_two": bt, "player_natural": pt in doc["naturals"],
           "banker_natural": bt in doc["naturals"]}
    out["natural"] = out["player_natural"] or out["banker_natural"]
    if not out["natural"]:
        if player_draws is None:
            player_draws = hands.get(tuple(sorted(player)), pt in doc["player_draws"])
        if player_draws:
            player.append(values[nxt])
            nxt += 1
            banker_draws = player[2] in doc["banker"][str(bt)]["draws"]
        else:
            banker_draws = bt in doc["banker_if_player_stood"]
        if banker_draws:
            banker.append(values[nxt])
            nxt += 1
    pt, bt = sum(player) % 10, sum(banker) % 10
    out.update(player_drew=len(player) == 3, banker_drew=len(banker) == 3,
               player_third=player[2] if len(player) == 3 else -1,
               banker_third=banker[2] if len(banker) == 3 else -1,
               player_total=pt, banker_total=bt, cards=nxt,
               winner=WINNERS.index("player" if pt > bt else "banker" if bt > pt else "tie"))
    return out


@settings(max_examples=60, deadline=None)
@given(rules_document(), st.integers(0, 2**32 - 1))
def test_deal_is_the_rules_document_card_by_card(document, seed):
    doc, hands = document
    rules = rules_of(doc, hands)
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 10, (6, 400)).astype(np.int8)
    forced = rng.integers(0, 2, 400).astype(bool)
    for given_player in (None, forced):
        d = deal(rules, *values, player_draws=given_player)
        for name, field in d._asdict().items():
            assert field.shape == (400,), name
            assert field.dtype == (bool if name in ("player_natural", "banker_natural", "natural", "player_drew",
                                                    "banker_drew") else np.int8), name
        for k in range(400):
            want = prose_coup(doc, hands, values[:, k].tolist(), None if given_player is None else forced[k])
            got = {name: field[k].item() for name, field in d._asdict().items()}
            assert got == want, (values[:, k].tolist(), rules.describe())
    # one coup of Python integers is the same coup, field by field
    for k in range(20):
        one = deal(rules, *values[:, k].tolist())
        assert [int(x) for x in one] == [int(x[k]) for x in deal(rules, *values)]


def _document_of_prose(banker_rule, naturals=(8, 9), player=range(6)) -> dict:
    """The rules document of a Banker rule written as prose in tests/oracle.py."""
    return {"naturals": list(naturals), "player_draws": list(player),
            "banker_if_player_stood": [t for t in range(10) if banker_rule(t, None)],
            "banker": {str(t): {"draws": [p for p in range(10) if banker_rule(t, p)]}
                       for t in range(10) if t not in naturals}}


def test_deal_is_the_prose_of_the_shipped_rule_sets():
    # every sequence, vectorised; one in 97 of them against the prose of tests/oracle.py
    seq = np.indices((10,) * 6, dtype=np.int8).reshape(6, -1)
    for rules, prose in ((PUNTO_BANCO, banker_draws_prose), (GOLD, gold_banker_draws_prose)):
        doc = _document_of_prose(prose)
        assert rules_from_mapping(doc) == dataclasses.replace(rules, player_option=frozenset())
        d = deal(rules, *seq)
        for k in range(0, 10**6, 97):
            want = prose_coup(doc, {}, seq[:, k].tolist())
            assert {name: field[k].item() for name, field in d._asdict().items()} == want


def test_winner_codes_follow_the_totals():
    pt, bt = np.indices((10, 10)).reshape(2, -1)
    codes = winner_codes(pt, bt)
    assert codes.dtype == np.int8
    assert [WINNERS[c] for c in codes] == ["player" if p > b else "banker" if b > p else "tie"
                                           for p, b in zip(pt, bt)]


def _coup_of_row(d, index, values) -> Coup:
    """The :class:`Coup` row ``index`` of ``d`` deals from ``values``."""
    player = (values[0], values[2]) + ((int(d.player_third[index]),) if d.player_drew[index] else ())
    banker = (values[1], values[3]) + ((int(d.banker_third[index]),) if d.banker_drew[index] else ())
    return Coup(player, banker, int(d.player_total[index]), int(d.banker_total[index]),
                WINNERS[d.winner[index]])


def _play_coup_is_one_row_of_deal(rules):
    """Every sequence of point values a coup can read, from four values on: ``play_coup`` deals
    row ``v1 .. v6`` of ``deal`` (unread values 0) when given at least the cards that coup uses,
    else says "not enough cards", and any values after them change nothing."""
    seq = np.indices((10,) * 6, dtype=np.int8).reshape(6, -1)
    d = deal(rules, *seq)
    cards = d.cards
    calls = 0

    def walk(values):
        nonlocal calls
        calls += 1
        index = int("".join(map(str, values + (0,) * (6 - len(values)))))
        if cards[index] > len(values):
            with pytest.raises(ValueError, match="^not enough cards to finish the coup$"):
                play_coup(values, rules)
            for v in range(10):
                walk(values + (v,))
            return
        coup = play_coup(values, rules)
        assert coup == _coup_of_row(d, index, values), values
        assert coup.cards_used == cards[index]
        extra = (7, 3, 9, 1)[:6 - len(values)] + (5,)
        assert play_coup(iter(values + extra), rules) == coup, values

    for start in itertools.product(range(10), repeat=4):
        walk(start)
    for short in ((), (1,), (1, 2), (1, 2, 3)):
        with pytest.raises(ValueError, match="not enough cards"):
            play_coup(short, rules)
    return calls


@pytest.mark.slow  # 4 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_play_coup_is_one_row_of_deal_under_punto_banco():
    assert _play_coup_is_one_row_of_deal(PUNTO_BANCO) > 10**4
    assert play_coup([2, 4, 3, 2, 7, 2], None) == play_coup([2, 4, 3, 2, 7, 2], PUNTO_BANCO)


@pytest.mark.slow  # 3 s; the Punto Banco twin above runs by default
@settings(max_examples=2, deadline=None)
@given(rules_document())
def test_play_coup_is_one_row_of_deal_under_random_rules(document):
    _play_coup_is_one_row_of_deal(rules_of(*document))
