"""User bet files (``--bets-file`` / ``load_bets_file``) and the condition language."""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import analyzer
from analyzer import Bet, BetError, Condition, Event, Shoe, Solver, analyze, catalog, load_bets_file

from oracle import POINT, six_card_tally

# Published 8-deck counts (Wizard of Odds; see tests/data/published_8deck.toml).
BANKER_8 = 2_292_252_566_437_888
PLAYER_8 = 2_230_518_282_592_256
TIE_8 = 475_627_426_473_216
DEALS_8 = 4_998_398_275_503_360
BANKER_WINS_ON_6_8 = 269_232_304_455_680
TIE_MAX_LOW_8 = 74_570_116_880_640

GOOD = """\
# My bets
[[bet]]
id = "pp_player_wins"
name = "Player pair, Player wins"
description = "Player's first two cards pair and Player wins: pays 20 to 1."
events = [
  { event = "hit", when = "player_pair and winner == player", pays = 20 },
]

[[bet]]
id = "pp_player_not_win"
name = "Player pair, Player does not win"
events = [
  { event = "hit", when = "player_pair and winner != player", pays = "25/2" },
]

[[bet]]
id = "my_banker"
name = "Banker, even money, no push"
events = [
  { event = "banker", when = "winner == banker", pays = 1 },
]

[[bet]]
id = "banker6"
name = "Banker wins on 6, tie pays back"
otherwise = -1
events = [
  { event = "banker 6", when = "winner == banker and banker_total in [6]", pays = 0.5 },
  { event = "tie", when = "winner == tie", pays = 0 },
]

[[bet]]
id = "low_tie"
name = "Tie with no card above 5"
events = [
  { event = "low tie", when = "winner == tie and not max_value >= 6", pays = 55 },
]

[[table]]
id = "mine"
name = "My table"
bets = ["my_banker", "pp_player_wins", "pp_player_not_win", "player_pair", "tie"]
"""


@pytest.fixture
def good_file(tmp_path):
    p = tmp_path / "mybets.toml"
    p.write_text(GOOD, encoding="utf-8")
    return p


# =====================================================================================
# A valid file
# =====================================================================================

def test_load_bets_file_adds_bets_and_table(good_file):
    cat = load_bets_file(good_file)
    builtin = catalog()
    assert set(cat.bets) == set(builtin.bets) | {"pp_player_wins", "pp_player_not_win", "my_banker",
                                                 "banker6", "low_tie"}
    assert set(cat.tables) == set(builtin.tables) | {"mine"}
    assert cat.table("mine").bets == ("my_banker", "pp_player_wins", "pp_player_not_win", "player_pair", "tie")
    bet = cat.bet("banker6")
    assert [(e.event, e.pays) for e in bet.events] == [("banker 6", Fraction(1, 2)), ("tie", 0)]
    assert cat.bet("pp_player_not_win").events[0].pays == Fraction(25, 2)
    assert cat.bet("pp_player_wins").description.startswith("Player's first two cards")
    # the built-in catalog is left alone
    assert "my_banker" not in catalog().bets


def test_user_bets_through_the_api_8_decks(good_file):
    cat = load_bets_file(good_file)
    a = Solver(cat.select(["pp_player_wins", "pp_player_not_win", "player_pair", "my_banker", "banker6",
                           "low_tie"])).solve(Shoe.standard(8))
    # published counts
    assert a.bet("my_banker").event("banker").ways == BANKER_8
    assert a.bet("my_banker").event("loses").ways == PLAYER_8 + TIE_8
    assert a.bet("my_banker").ev == Fraction(BANKER_8 - PLAYER_8 - TIE_8, DEALS_8)
    assert a.bet("banker6").event("banker 6").ways == BANKER_WINS_ON_6_8
    assert a.bet("banker6").event("tie").ways == TIE_8
    assert a.bet("low_tie").event("low tie").ways == TIE_MAX_LOW_8
    # the two halves of the pair make up the whole pair (31/415 of all deals)
    hit = a.bet("pp_player_wins").events[0].ways + a.bet("pp_player_not_win").events[0].ways
    assert hit == a.bet("player_pair").event("player pair").ways
    assert Fraction(hit, DEALS_8) == Fraction(31, 415)
    assert 0 < a.bet("pp_player_wins").events[0].ways < hit


def pt(card):
    return POINT[card[0]]


def test_user_bets_through_the_api_match_the_oracle(tmp_path):
    # Card features of the condition language against plain Python on a tiny suited shoe.
    text = """\
[[bet]]
id = "kings"
events = [ { event = "hit", when = "player_rank1 == K and banker_suit2 == hearts", pays = 30 } ]

[[bet]]
id = "mixed"
events = [
  { event = "suited ace-low", when = "player_suited and player_rank1 in [A, 2..4]", pays = 9 },
  { event = "banker pair of zeros", when = "banker_pair and banker_value1 == 0", pays = 12 },
  { event = "big margin", when = "margin >= 5 and winner != tie", pays = 2 },
]

[[bet]]
id = "third"
events = [
  { event = "no banker third card", when = "banker_value3 < 0 and cards >= 5", pays = 1 },
  { event = "sum", when = "player_value1 + banker_value1 == player_value2 + 1", pays = 3 },
]
"""
    p = tmp_path / "cards.toml"
    p.write_text(text, encoding="utf-8")
    cat = load_bets_file(p)
    cards = "Ks Ks Kh Ah 2h 9h Jh 4s".split()

    def kings(c):
        return "hit" if c["player_cards"][0][0] == "K" and c["banker_cards"][1][1] == "h" else "loses"

    def mixed(c):
        pc, bc = c["player_cards"], c["banker_cards"]
        if pc[0][1] == pc[1][1] and pc[0][0] in "A234":
            return "suited ace-low"
        if bc[0][0] == bc[1][0] and pt(bc[0]) == 0:
            return "banker pair of zeros"
        if c["winner"] != "tie" and abs(c["player_total"] - c["banker_total"]) >= 5:
            return "big margin"
        return "loses"

    def third(c):
        pc, bc = c["player_cards"], c["banker_cards"]
        if len(bc) == 2 and len(pc) + len(bc) >= 5:
            return "no banker third card"
        if pt(pc[0]) + pt(bc[0]) == pt(pc[1]) + 1:
            return "sum"
        return "loses"

    tallies, deals = six_card_tally(cards, {"kings": kings, "mixed": mixed, "third": third})
    a = Solver(cat.select(["kings", "mixed", "third"])).solve(Shoe.from_counts(Counter(cards)))
    assert a.deals == deals
    for bet_id, tally in tallies.items():
        assert {e.event: e.ways for e in a.bet(bet_id).events if e.ways} == dict(tally), bet_id
        assert all(tally[e.event] for e in a.bet(bet_id).events), bet_id  # every event happens


def test_cli_bets_file_json_default_selects_the_user_bets(cli, good_file):
    code, out, err = cli("odds", "--bets-file", str(good_file), "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert list(doc["bets"]) == ["pp_player_wins", "pp_player_not_win", "my_banker", "banker6", "low_tie"]
    assert doc["deals"] == DEALS_8
    ev = {e["event"]: e["ways"] for e in doc["bets"]["my_banker"]["events"]}
    assert ev == {"banker": BANKER_8, "loses": PLAYER_8 + TIE_8}
    b6 = {e["event"]: (e["pays"], e["ways"]) for e in doc["bets"]["banker6"]["events"]}
    assert b6["banker 6"] == ("1/2", BANKER_WINS_ON_6_8)
    assert doc["bets"]["low_tie"]["events"][0]["ways"] == TIE_MAX_LOW_8


def test_a_bets_file_table_lists_its_bets_and_catalog_bets_count_the_same(cli, good_file):
    code, out, err = cli("odds", "--bets-file", str(good_file), "--table", "mine",
                         "--decks", "6", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc["bets"]) == ["my_banker", "pp_player_wins", "pp_player_not_win", "player_pair", "tie"]
    ways = {b: doc["bets"][b]["events"][0]["ways"] for b in doc["bets"]}
    assert ways["pp_player_wins"] + ways["pp_player_not_win"] == ways["player_pair"]
    assert Fraction(ways["player_pair"], doc["deals"]) == Fraction(23, 311)   # 6 decks
    assert ways["my_banker"] == 403_095_751_234_560                          # Wizard, 6 decks
    assert ways["tie"] == 83_552_962_932_288


def test_cli_bets_file_with_catalog_bets_and_tiny_shoe(cli, tmp_path):
    p = tmp_path / "b.toml"
    p.write_text('[[bet]]\nid = "nat"\nevents = [ { event = "nat", when = "natural", pays = 1 } ]\n',
                 encoding="utf-8")
    code, out, err = cli("odds", "--bets-file", str(p), "--bets", "nat,banker",
                         "--shoe", "9s=2,Kh=2,8d=1,3c=1,5h=1", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    cards = "9s 9s Kh Kh 8d 3c 5h".split()

    def nat(c):
        two = lambda h: (POINT[h[0][0]] + POINT[h[1][0]]) % 10  # noqa: E731
        return "nat" if two(c["player_cards"]) >= 8 or two(c["banker_cards"]) >= 8 else "loses"

    tallies, deals = six_card_tally(cards, {"nat": nat, "winner": lambda c: c["winner"]})
    assert doc["deals"] == deals
    assert {e["event"]: e["ways"] for e in doc["bets"]["nat"]["events"] if e["ways"]} == dict(tallies["nat"])
    banker = {e["event"]: e["ways"] for e in doc["bets"]["banker"]["events"]}
    assert banker == {"banker wins": tallies["winner"]["banker"], "tie (push)": tallies["winner"]["tie"],
                      "loses": tallies["winner"]["player"]}


def test_cli_bets_listing_includes_the_file(cli, good_file):
    code, out, err = cli("bets", "--bets-file", str(good_file), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert "my_banker" in doc["bets"] and "dragon7" in doc["bets"]
    assert doc["tables"]["mine"]["bets"][0] == "my_banker"
    assert doc["bets"]["banker6"]["events"][0] == {"event": "banker 6",
                                                    "when": "winner == banker and banker_total in [6]",
                                                    "pays": "1/2"}


# =====================================================================================
# Bad files: BetError from the API, exit 2 and one stderr line from the CLI
# =====================================================================================

BET = '[[bet]]\nid = "x"\nevents = [\n  {{ event = "hit", when = "{when}", pays = {pays} }},\n]\n'

BAD = {
    "import": (BET.format(when="__import__('os')", pays=1), 4, r"condition"),
    "dunder-attribute": (BET.format(when="winner.__class__", pays=1), 4, r"condition"),
    "unknown-feature": (BET.format(when="winner == banker and banker_colour == 1", pays=1), 4,
                        r"unknown feature 'banker_colour'"),
    "syntax": (BET.format(when="winner == banker and (banker_total == 7", pays=1), 4, r"expected '\)'"),
    "single-equals": (BET.format(when="winner = banker", pays=1), 4, r"did you mean '=='"),
    "type": (BET.format(when="winner == 3", pays=1), 4, r"cannot compare winner with int"),
    "toml": ('[[bet]]\nid = "x\nevents = []\n', 2, r"TOML syntax error"),
    "below-minus-one": (BET.format(when="winner == banker", pays=-2), 4, r"must be >= -1"),
    "below-minus-one-string": (BET.format(when="winner == banker", pays='"-3/2"'), 4, r"must be >= -1"),
    "non-numeric": (BET.format(when="winner == banker", pays='"lots"'), 4, r"not a payout"),
    "boolean-payout": (BET.format(when="winner == banker", pays="true"), 4, r"not a payout"),
    "missing-pays": ('[[bet]]\nid = "x"\nevents = [\n  { event = "hit", when = "winner == tie" },\n]\n', 4,
                     r"'pays' is missing"),
    "duplicate-id": (BET.format(when="winner == banker", pays=1) + "\n" + BET.format(when="winner == tie", pays=1),
                     None, r"duplicated bet id 'x'"),
    "catalog-clash": ('[[bet]]\nid = "dragon7"\nevents = [ { event = "e", when = "winner == tie", pays = 1 } ]\n',
                      None, r"'dragon7' is already defined"),
    "table-clash": ('[[table]]\nid = "ez"\nbets = ["player"]\n', None, r"'ez' is already defined"),
    "table-unknown-bet": (BET.format(when="winner == banker", pays=1)
                          + '\n[[table]]\nid = "mine"\nbets = ["x", "nosuchbet"]\n', 8,
                          r"unknown bet 'nosuchbet'"),
    "unknown-bet-key": ('[[bet]]\nid = "x"\npayout = 3\nevents = [ { event = "e", when = "natural", pays = 1 } ]\n',
                        2, r"unknown key 'payout'"),
    "unknown-event-key": ('[[bet]]\nid = "x"\nevents = [ { event = "e", when = "natural", pays = 1, odds = 2 } ]\n',
                          2, r"unknown event key 'odds'"),
    "unknown-section": ('[bets]\nid = "x"\n', None, r"unknown section 'bets'"),
    "empty-events": ('[[bet]]\nid = "x"\nevents = []\n', 2, r"'events' must be a non-empty list"),
    "no-events": ('[[bet]]\nid = "x"\nname = "X"\n', 2, r"'events' must be a non-empty list"),
    "empty-condition": ('[[bet]]\nid = "x"\nevents = [ { event = "e", when = " ", pays = 1 } ]\n', None,
                        r"'when' must be a non-empty string"),
    "same-event-names": ('[[bet]]\nid = "x"\nevents = [ { event = "e", when = "natural", pays = 1 },\n'
                         '  { event = "e", when = "winner == tie", pays = 2 } ]\n', 2, r"same name"),
    "empty-table": ('[[table]]\nid = "t"\nbets = []\n', None, r"non-empty list of bet ids"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_bets_file_raises_one_line_naming_its_line(tmp_path, name):
    text, line, pattern = BAD[name]
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(BetError, match=pattern) as e:
        load_bets_file(p)
    msg = str(e.value)
    assert str(p) in msg and "\n" not in msg
    if line is not None:  # the line of the bet's / table's id, or of the event
        assert re.search(rf"\bline {line}\b", msg)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_bets_file_is_one_line_and_exit_2_on_the_command_line(cli, tmp_path, name):
    text, line, pattern = BAD[name]
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    for argv in (["odds", "--bets-file", str(p), "--format", "json"], ["bets", "--bets-file", str(p)]):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("baccarat: error: ") and str(p) in lines[0]
        assert re.search(pattern, lines[0])
        if line is not None:
            assert re.search(rf"\bline {line}\b", lines[0])


def test_import_is_never_evaluated(tmp_path):
    # The condition text is parsed, not handed to eval: the would-be side effect never runs.
    marker = tmp_path / "pwned"
    p = tmp_path / "evil.toml"
    p.write_text(BET.format(when=f"__import__('os').system('touch {marker}')", pays=1), encoding="utf-8")
    with pytest.raises(BetError):
        load_bets_file(p)
    assert not marker.exists()


def test_a_missing_bets_file_is_one_line_naming_it(cli, tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(BetError, match="cannot read bets file"):
        load_bets_file(missing)
    code, out, err = cli("odds", "--bets-file", str(missing))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and str(missing) in err


LINE_FILES = {
    # the bad event is on line 8; an identical condition appears earlier, on line 4
    "payout": ('# bets for the banker\n[[bet]]\nid = "a"\n'
               'events = [ { event = "hit", when = "winner == banker", pays = 1 } ]\n\n'
               '[[bet]]\nid = "b"\nevents = [ { event = "hit", when = "winner == banker", pays = -5 } ]\n', 8),
    # the duplicated id is defined again on line 10
    "duplicate": ('[[bet]]\nid = "alpha"\nevents = [ { event = "hit", when = "winner == banker", pays = 1 } ]\n\n'
                  '[[bet]]\nid = "beta"\nevents = [ { event = "hit", when = "winner == player", pays = 1 } ]\n\n'
                  '[[bet]]\nid = "alpha"\nevents = [ { event = "hit", when = "winner == tie", pays = 1 } ]\n', 10),
    # bet id "b" first appears as a substring of "[[bet]]" on line 1; it is defined on line 6
    "substring": ('[[bet]]\nid = "aaa"\nevents = [ { event = "hit", when = "natural", pays = 1 } ]\n\n'
                  '[[bet]]\nid = "b"\nodds = 3\nevents = [ { event = "hit", when = "natural", pays = 1 } ]\n', 6),
    # table id "t" first appears as a substring of "[[table]]" on line 1; it is defined on line 2
    "table-substring": ('[[table]]\nid = "t"\nbets = []\n', 2),
}


@pytest.mark.parametrize("name", sorted(LINE_FILES))
def test_error_line_is_the_offending_line(tmp_path, name):
    text, line = LINE_FILES[name]
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(BetError) as e:
        load_bets_file(p)
    assert f"line {line}:" in str(e.value)


# =====================================================================================
# Unknown ids on the command line list the valid ones
# =====================================================================================

def test_unknown_bet_lists_valid_ids(cli, good_file):
    code, out, err = cli("odds", "--bets", "player,nosuchbet")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "unknown bet 'nosuchbet'" in err
    for b in catalog().bets:
        assert b in err
    code, out, err = cli("odds", "--bets-file", str(good_file), "--bets", "nosuchbet")
    assert code == 2 and "my_banker" in err and "dragon7" in err
    with pytest.raises(BetError, match=r"unknown bet 'nosuchbet' \(known: player, banker"):
        catalog().bet("nosuchbet")


def test_unknown_table_lists_valid_tables(cli, good_file):
    code, out, err = cli("odds", "--table", "nosuchtable")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "unknown table 'nosuchtable'" in err
    for t in catalog().tables:
        assert t in err
    code, out, err = cli("odds", "--bets-file", str(good_file), "--table", "nosuchtable")
    assert code == 2 and "mine" in err
    with pytest.raises(BetError, match="unknown table"):
        catalog().table("nosuchtable")


# =====================================================================================
# The condition language, directly
# =====================================================================================

def feats(**cols):
    """A small feature table: each keyword a column of values, one row per coup."""
    n = len(next(iter(cols.values())))
    out = {k: np.array(v) for k, v in cols.items()}
    out.setdefault("winner", np.zeros(n, dtype=np.int8))
    return out


def mask(text, **cols):
    return Condition.parse(text).mask(feats(**cols)).tolist()


WIN = {"player": 0, "banker": 1, "tie": 2}


def test_comparison_operators_compare_as_python_does():
    t = [0, 3, 5, 7, 9]
    assert mask("player_total == 5", player_total=t) == [x == 5 for x in t]
    assert mask("player_total != 5", player_total=t) == [x != 5 for x in t]
    assert mask("player_total < 5", player_total=t) == [x < 5 for x in t]
    assert mask("player_total <= 5", player_total=t) == [x <= 5 for x in t]
    assert mask("player_total > 5", player_total=t) == [x > 5 for x in t]
    assert mask("player_total >= 5", player_total=t) == [x >= 5 for x in t]
    assert mask("5 <= player_total", player_total=t) == [5 <= x for x in t]


def test_boolean_operators_and_precedence():
    p = [True, True, False, False]
    b = [True, False, True, False]
    n = [False, True, True, False]
    assert mask("player_pair and banker_pair", player_pair=p, banker_pair=b) == [x and y for x, y in zip(p, b)]
    assert mask("player_pair or banker_pair", player_pair=p, banker_pair=b) == [x or y for x, y in zip(p, b)]
    assert mask("not player_pair", player_pair=p) == [not x for x in p]
    assert mask("not not player_pair", player_pair=p) == p
    # and binds tighter than or; parentheses override
    got = mask("player_pair or banker_pair and natural", player_pair=p, banker_pair=b, natural=n)
    assert got == [x or (y and z) for x, y, z in zip(p, b, n)]
    got = mask("(player_pair or banker_pair) and natural", player_pair=p, banker_pair=b, natural=n)
    assert got == [(x or y) and z for x, y, z in zip(p, b, n)]
    got = mask("not player_pair and banker_pair", player_pair=p, banker_pair=b)
    assert got == [(not x) and y for x, y in zip(p, b)]


def test_arithmetic_is_exact_without_wrapping():
    pv, bv = [0, 4, 9, 5], [9, 6, 9, 5]
    assert mask("player_value1 + banker_value1 == 9", player_value1=pv, banker_value1=bv) == [
        x + y == 9 for x, y in zip(pv, bv)]
    assert mask("player_value1 - banker_value1 < 0", player_value1=pv, banker_value1=bv) == [
        x - y < 0 for x, y in zip(pv, bv)]
    # no wrap-around on small integer columns
    u8 = np.array([0, 1], dtype=np.uint8)
    assert Condition.parse("player_value1 - 1 < 0").mask({"winner": np.zeros(2), "player_value1": u8}).tolist() == [
        True, False]
    assert mask("player_value3 < 0", player_value3=[-1, 0, 7]) == [True, False, False]
    assert mask("player_total + player_value1 - 3 >= 0", player_total=[0, 1, 2], player_value1=[2, 2, 2]) == [
        False, True, True]


def test_negative_literal_for_missing_third_card():
    assert mask("player_value3 == -1", player_value3=[-1, 0, 7]) == [True, False, False]


# Sums may start with a constant or a rank feature (a plain int when card features are fixed).
def test_constant_first_in_a_sum_condition_mask():
    assert mask("player_value3 == 0 - 1", player_value3=[-1, 0, 7]) == [True, False, False]


def test_constant_first_in_a_sum_8_decks():
    # 1 + player_total == 5 is "Player's final total is 4": Wizard's 371,426,030,979,072.
    bet = Bet("b", "b", "", (Event("e", Fraction(1), Condition.parse("1 + player_total == 5")),))
    assert analyze(Shoe.standard(8), (bet,)).bet("b").events[0].ways == 371_426_030_979_072


def test_rank_feature_in_a_sum_8_decks():
    # Player's first card is one rank below a King, i.e. a Queen: 1/13 of all deals.
    bet = Bet("b", "b", "", (Event("e", Fraction(1), Condition.parse("player_rank1 + 1 == K")),))
    assert analyze(Shoe.standard(8), (bet,)).bet("b").events[0].ways == DEALS_8 // 13


def test_in_lists_and_ranges():
    t = list(range(10))
    assert mask("player_total in [0..2, 5, 8..9]", player_total=t) == [x in (0, 1, 2, 5, 8, 9) for x in t]
    assert mask("player_total in [7]", player_total=t) == [x == 7 for x in t]
    assert mask("not player_total in [1..8]", player_total=t) == [x in (0, 9) for x in t]
    w = [0, 1, 2, 1]
    assert mask("winner in [player, tie]", winner=w) == [x in (0, 2) for x in w]


def test_rank_and_suit_constants():
    r = [1, 10, 11, 12, 13, 5]
    assert mask("player_rank1 == K", player_rank1=r) == [x == 13 for x in r]
    assert mask("player_rank1 == A", player_rank1=r) == [x == 1 for x in r]
    assert mask("player_rank1 in [T, J, Q, K]", player_rank1=r) == [x >= 10 for x in r]
    assert mask("player_rank1 in [A, 2..9]", player_rank1=r) == [x <= 9 for x in r]
    assert mask("player_rank1 == 13", player_rank1=r) == mask("player_rank1 == K", player_rank1=r)
    s = [0, 1, 2, 3]  # spades hearts diamonds clubs
    assert mask("banker_suit2 == hearts", banker_suit2=s) == [False, True, False, False]
    assert mask("banker_suit2 != spades", banker_suit2=s) == [False, True, True, True]
    assert mask("banker_suit2 in [diamonds, clubs]", banker_suit2=s) == [False, False, True, True]
    assert mask("banker_suit2 == player_suit1", banker_suit2=s, player_suit1=[0, 0, 2, 1]) == [
        True, False, True, False]


def test_winner_constants_and_features_reported():
    w = [0, 1, 2]
    assert mask("winner == banker", winner=w) == [False, True, False]
    assert mask("winner != tie", winner=w) == [True, True, False]
    c = Condition.parse("winner == banker and banker_cards == 3 and banker_rank1 == K")
    assert c.features == {"winner", "banker_cards", "banker_rank1"}
    assert c.card_features == {"banker_rank1"}


def test_condition_counts_match_published_via_analyze():
    # A condition used through analyze() as a Bet, against Wizard's counts.
    bet = Bet("b", "b", "", (Event("win 6", Fraction(1, 2), Condition.parse("winner == banker and banker_total == 6")),
                             Event("tie", Fraction(0), Condition.parse("winner == tie"))))
    a = analyze(Shoe.standard(8), (bet,))
    assert [e.ways for e in a.bet("b").events] == [BANKER_WINS_ON_6_8, TIE_8, DEALS_8 - BANKER_WINS_ON_6_8 - TIE_8]


@pytest.mark.parametrize("text, pattern", [
    ("winner == 3", r"cannot compare winner with int at column 8"),
    ("winner == hearts", r"cannot compare winner with suit"),
    ("player_suit1 == 1", r"cannot compare suit with int"),
    ("player_pair == 1", r"cannot compare bool with int"),
    ("winner < banker", r"only be compared with == or !="),
    ("player_suit1 > hearts", r"only be compared with == or !="),
    ("player_total", r"not a yes/no condition"),
    ("player_total and natural", r"not a yes/no condition"),
    ("winner + 1 == 2", r"needs numbers on both sides"),
    ("winner in [3]", r"not a winner value"),
    ("player_total in [spades]", r"not a int value|not an int value"),
    ("player_total in [1..]", r"expected a number after '\.\.'"),
    ("player_total in [1, 2", r"expected ',' or '\]'"),
    ("player_total in 5", r"expected '\['"),
    ("winner == banker and", r"end of text"),
    ("(winner == banker", r"expected '\)'"),
    ("winner == banker)", r"unexpected '\)'"),
    ("natural natural", r"unexpected 'natural'"),
    ("player_colour == 1", r"unknown feature 'player_colour'.*features: .*banker_cards"),
    ("winner == Banker", r"unknown feature 'Banker'"),
    ("__import__('os')", r"unexpected"),
    ("natural; 1", r"unexpected ';'"),
    ("", r"empty condition"),
    ("   ", r"empty condition"),
])
def test_a_bad_condition_is_one_line(text, pattern):
    with pytest.raises(BetError, match=pattern) as e:
        Condition.parse(text)
    assert "\n" not in str(e.value)


def test_single_equals_message():
    with pytest.raises(BetError) as e:
        Condition.parse("winner = banker")
    assert str(e.value) == "condition 'winner = banker': unexpected '=' at column 8 (did you mean '=='?)"
    with pytest.raises(BetError, match=r"column 14 \(did you mean '=='\?\)"):
        Condition.parse("player_total = 9")


def test_condition_is_not_a_string_type():
    with pytest.raises(BetError):
        Condition.parse(None)  # type: ignore[arg-type]
    with pytest.raises(BetError):
        Condition.parse(5)  # type: ignore[arg-type]


def test_every_documented_feature_parses():
    for name, (kind, _) in analyzer.FEATURES.items():
        text = {"bool": name, "int": f"{name} >= 0", "winner": f"{name} == tie", "suit": f"{name} == clubs",
                "colour": f"{name} == red"}[kind]
        assert Condition.parse(text).features == {name}
