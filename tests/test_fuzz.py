"""Fuzzing every input format: arbitrary text either parses or gives one clear error.

"Clear error" is a :class:`analyzer.BaccaratError` (a ``ValueError``) with a
one-line message; any other exception is a defect.  Examples stay
small so the whole file runs in seconds.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import BaccaratError, Shoe, parse_card, parse_cards
from analyzer.bets.catalog import parse_catalog, parse_pays
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.tallies import read_tallies

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _clear(fn, *args):
    try:
        return fn(*args)
    except BaccaratError as e:
        msg = str(e)
        assert msg and "Traceback" not in msg
        assert len(msg) < 2000, msg[:200]
        return None


CARDISH = st.text(alphabet="A23456789TJQKtjqkshdc10 ,=;-+x♠♥\n", max_size=60)


@SETTINGS
@given(CARDISH)
def test_any_shoe_spec_parses_and_round_trips_or_is_a_clear_error(text):
    shoe = _clear(Shoe.parse, text)
    if shoe is not None:
        assert 6 <= shoe.cards and Shoe.parse(shoe.spec()) == shoe


@SETTINGS
@given(st.text(max_size=40))
def test_shoe_specs_any_text(text):
    _clear(Shoe.parse, text)


@SETTINGS
@given(CARDISH)
def test_cards_and_removal(text):
    _clear(parse_card, text)
    _clear(parse_cards, text)
    _clear(Shoe.standard(1).remove, text)


@SETTINGS
@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=80), st.booleans(),
                 st.none(), st.lists(st.integers(), max_size=3)))
def test_any_payout_parses_or_is_a_clear_error(value):
    _clear(parse_pays, value, "pays")


TOML_PIECES = st.sampled_from([
    "[[bet]]\n", "[[table]]\n", 'id = "x"\n', 'id = "y"\n', 'name = "N"\n', 'bets = ["x"]\n',
    'events = [{ event = "e", when = "natural", pays = 1 }]\n',
    'events = [{ event = "e", when = "winner == banker", pays = "19/20" }]\n',
    'events = [{ event = "e", when = "player_pair", pays = 11 }]\n', 'events = []\n',
    'otherwise = -1\n', 'otherwise = "x"\n', "pays = 8\n", "[bet]\n", "x = [[[\n", '"\n', "id = 3\n",
    'events = [{ event = "e", when = "(((", pays = 1 }]\n',
])


@SETTINGS
@given(st.lists(TOML_PIECES, max_size=12))
def test_any_bets_file_parses_or_is_a_clear_error(pieces):
    _clear(parse_catalog, "".join(pieces), "fuzz.toml")


@SETTINGS
@given(st.text(max_size=300))
def test_bet_files_any_text(text):
    _clear(parse_catalog, text, "fuzz.toml")


def _write(tmp_path_factory, name, text):
    d = tmp_path_factory.mktemp("fuzz")
    p = d / name
    p.write_text(text, encoding="utf-8")
    return p


LOG_LINES = st.sampled_from([
    "shoe,player,banker,outcome\n", "shoe,player,banker\n", "1,7h 8c,9d Kc,banker\n", "1,K 9,2 3,player\n",
    "1,5 5 5,6 6,\n", "2,A A,A A,tie\n", "x,,,\n", '1,"7h,8c",9d\n', "1,Zz 8c,9d Kc,banker\n",
    "3,7h 8c 2d,9d Kc,player\n", "\n", ",,,,,,\n",
])


@SETTINGS
@given(st.lists(LOG_LINES, max_size=10))
def test_csv_hand_logs(tmp_path_factory, lines):
    p = _write(tmp_path_factory, "hands.csv", "".join(lines))
    _clear(read_hand_log, p)


JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
                           lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(
                               st.sampled_from(["shoe", "player", "banker", "outcome", "seen", "x"]), c,
                               max_size=5)), max_leaves=10)


@SETTINGS
@given(st.lists(JSON_VALUES, min_size=1, max_size=5))
def test_jsonl_hand_logs(tmp_path_factory, docs):
    p = _write(tmp_path_factory, "hands.jsonl", "\n".join(json.dumps(d) for d in docs) + "\n")
    _clear(read_hand_log, p)


TALLY_LINES = st.sampled_from([
    "category,count,total_return\n", "player,10,\n", "banker,12,\n", "tie,2,\n", "totals:7-5,3,\n",
    "cards:4,10,\n", "bet:banker,24,-1.5\n", "bet:nope,3,1\n", "player,x,\n", "tie,-1,\n",
    "bet:tie,2,1/0\n", "totals:10-1,1,\n", "\n", "category\n",
])


@SETTINGS
@given(st.lists(TALLY_LINES, max_size=10))
def test_any_tallies_file_reads_or_is_a_clear_error(tmp_path_factory, lines):
    p = _write(tmp_path_factory, "tallies.csv", "".join(lines))
    _clear(read_tallies, p)


@pytest.mark.parametrize("text", ["[" * 100000 + "]" * 100000, '{"shoe": ' + "9" * 5000 + "}"])
def test_hostile_json_lines(tmp_path, text):
    """Deep nesting and huge numbers in JSON logs are one clear error, not a traceback."""
    p = tmp_path / "hands.jsonl"
    p.write_text(text + "\n")
    with pytest.raises(BaccaratError):
        read_hand_log(p)
