"""Fuzzing the log shapes real simulators write: arbitrary text either reads or gives one BaccaratError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer import BaccaratError
from analyzer.simcheck.shapes import read_log

SETTINGS = settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "200")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

PIECES = st.sampled_from([
    "shoe,p1,p2,p3,b1,b2,b3,outcome\n", "shoe,player,banker,outcome\n", "shoe,results\n", "shoe,outcome\n",
    "Shoe No,P Card 1,Winner,player total\n", "1,", "2,", "K♥", "9♠", "-", " ", "10", "T", "0", "1", "9",
    "Kh 9s", ",", "\n", "P", "B", "T", "player win", "tie", "BPPTB", "BPX", '"', "[", "]", "{", "}",
    '{"shoe": 1, "coups": [', '{"shoe": 1, "player": [0, 9], "banker": "8 8", "outcome": "P"}',
    '{"player": "9 9"}', '"outcome": "b"', "null", "true", "12345678901234567890123456789012345",
])
COLUMNS = st.one_of(st.none(), st.sampled_from([
    "shoe=shoe,player=player,banker=banker", "shoe=Shoe No,p1=P Card 1,outcome=Winner",
    "player_total=player total", "results=results", "shoe=x", "bogus", "shoe=a,shoe=b", "",
]))


def _clear(*args, **kw):
    try:
        return read_log(*args, **kw)
    except BaccaratError as e:
        msg = str(e)
        assert msg and "\n" not in msg and "Traceback" not in msg and len(msg) < 2000
        return None


@SETTINGS
@given(st.lists(PIECES, max_size=30), st.sampled_from(["x.csv", "x.json", "x.jsonl", "x"]), COLUMNS,
       st.booleans())
def test_shapes_read_or_refuse(pieces, path, columns, skip):
    log = _clear(path, "".join(pieces), columns, skip)
    if log is not None:
        assert log.coups >= 1 and log.shape.startswith("read as") or not log.shape


@SETTINGS
@given(st.text(max_size=200), COLUMNS, st.booleans())
def test_any_text_reads_as_a_log_or_is_a_clear_error(text, columns, skip):
    _clear("x.csv", text, columns, skip)
    _clear("x.json", text, columns, skip)
