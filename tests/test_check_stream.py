"""Logs read as they go: chunk by chunk, the same verdicts.

The probe and chunk sizes of :mod:`analyzer.simcheck.stream` are made tiny so that small
simulated logs take the streaming path, with shoes running on across chunk boundaries.
"""

from __future__ import annotations

import json

import pytest

from analyzer import Shoe
from analyzer.simcheck import stream as stream_mod
from analyzer.simcheck.check import CheckError, check_log, check_stream, report_dict
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.shapes import read_log
from analyzer.simcheck.simulate import Faults, simulate_to_text
from analyzer.simcheck.stream import LogSource, open_log
from analyzer.simcheck.verify import replay, replay_stream

from helpers import dashed, json_lines, json_shoes, per_card, values

EIGHT = Shoe.standard(8)
ONE = Shoe.standard(1)


@pytest.fixture
def tiny(monkeypatch):
    """Stream anything longer than 300 bytes, in chunks of 7 coups."""
    monkeypatch.setattr(stream_mod, "PROBE_BYTES", 300)
    monkeypatch.setattr(stream_mod, "CHUNK", 7)
    monkeypatch.setattr(stream_mod, "BLOCK", 113)


def _write(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text)
    return f


def _same_report(a, b):
    da, db = report_dict(a), report_dict(b)
    for key in ("coups", "shoes", "verdict", "excluded_coups", "notes"):
        assert da[key] == db[key], key
    for fam, cells in da["cells"].items():
        for x, y in zip(cells, db["cells"][fam]):
            assert (x["observed"], x["expected"], x["variance"]) == (y["observed"], y["expected"], y["variance"])
    for x, y in zip(da["bets"], db["bets"]):
        assert (x["return"], x["expected_return"], x["variance"]) == (y["return"], y["expected_return"], y["variance"])
    for x, y in zip(da["tests"], db["tests"]):
        assert x["test"] == y["test"] and x["p"] == pytest.approx(y["p"], rel=1e-6, abs=1e-300)


def test_chunks_are_bounded_and_cover_every_coup(tiny, tmp_path):
    text, _ = simulate_to_text(ONE, 6, 2, burn=True)
    f = _write(tmp_path, "h.csv", text)
    s = open_log(f)
    assert not s.whole
    sizes = [c.coups for c in s.chunks()]
    whole = read_hand_log("h.csv", text)
    assert max(sizes) <= 7 and sum(sizes) == s.coups == whole.coups and s.shoes == whole.shoes == 6


@pytest.mark.parametrize("burn", [False, True])
def test_streamed_replay_equals_the_whole_replay(tiny, tmp_path, burn):
    text, _ = simulate_to_text(ONE, 8, 3, burn=burn)
    f = _write(tmp_path, "h.csv", text)
    whole = replay(read_hand_log("h.csv", text), ONE)
    carry: dict = {}
    rows, remaining = [], []
    for chunk in open_log(f).chunks():
        rep = replay(chunk, ONE, carry=carry)
        assert rep.ok
        rows.extend(chunk.rows.tolist())
        remaining.extend(rep.remaining.tolist())
    assert rows == whole.log.rows.tolist() and remaining == whole.remaining.tolist()


@pytest.mark.parametrize("fault", [Faults(extra_card="As"), Faults(with_replacement=True),
                                   Faults(banker_cell=(5, 4))])
def test_streamed_violations_equal_the_whole_ones(tiny, tmp_path, fault):
    text, _ = simulate_to_text(ONE, 60, 5, faults=fault)
    f = _write(tmp_path, "bad.csv", text)
    whole = replay(read_hand_log(str(f), text), ONE)
    got = replay_stream(open_log(f), ONE)
    assert [str(v) for v in got.violations] == [str(v) for v in whole.violations] != []
    assert got.counts["violations"] == whole.counts["violations"]
    assert got.counts["violating_rows"] == whole.counts["violating_rows"]


@pytest.mark.parametrize("convert, name", [(None, "h.csv"), (per_card, "p.csv"), (dashed, "d.csv"),
                                           (values, "v.csv"), (json_shoes, "s.jsonl"),
                                           (json_lines, "l.jsonl")])
def test_streamed_check_equals_the_whole_check(tiny, tmp_path, monkeypatch, convert, name):
    if convert is json_shoes:
        monkeypatch.setattr(stream_mod, "PROBE_BYTES", 12_000)    # a line per shoe: the probe holds one
    text, _ = simulate_to_text(EIGHT, 3, 7, burn=True)
    if convert is not None:
        text = convert(read_hand_log("h.csv", text))
    f = _write(tmp_path, name, text)
    whole_log = read_log(str(f), text)
    s = open_log(f)
    assert not s.whole and s.value_level == whole_log.value_level
    shoe = Shoe(EIGHT.rank_tuple[:9] + (sum(EIGHT.rank_tuple[9:]), 0, 0, 0)) if s.value_level else EIGHT
    a = check_stream(s, shoe, order=True)
    b = check_log(whole_log, shoe, order=True)
    _same_report(a, b)
    assert s.shape == whole_log.shape


def test_streamed_off_the_top_and_jobs(tiny, tmp_path):
    text, _ = simulate_to_text(EIGHT, 2, 1)
    f = _write(tmp_path, "h.csv", text)
    whole = read_hand_log(str(f), text)
    _same_report(check_stream(open_log(f), EIGHT, "off-the-top"), check_log(whole, EIGHT, "off-the-top"))
    _same_report(check_stream(open_log(f), EIGHT, jobs=2), check_log(whole, EIGHT))


def test_streamed_check_refuses_a_broken_log_naming_the_first_row(tiny, tmp_path):
    text, _ = simulate_to_text(ONE, 10, 5, faults=Faults(extra_card="As"))
    f = _write(tmp_path, "bad.csv", text)
    with pytest.raises(CheckError) as whole:
        check_log(read_hand_log(str(f), text), ONE)
    with pytest.raises(CheckError) as streamed:
        check_stream(open_log(f), ONE)
    assert str(streamed.value) == str(whole.value)


def test_verify_prints_violations_as_it_goes(tiny, tmp_path, cli):
    text, _ = simulate_to_text(ONE, 60, 5, faults=Faults(banker_cell=(5, 4)))
    f = _write(tmp_path, "bad.csv", text)
    whole = replay(read_hand_log(str(f), text), ONE)
    r = cli("verify", f, "--decks", "1", "-q")
    assert r.code == 1
    out = r.out.splitlines()
    assert out[0].startswith(f"{f}: declared shoe 1 deck (52 cards)")
    assert out[1:1 + len(whole.violations)] == [str(v) for v in whole.violations]
    assert out[-2] == f"{f}: {whole.log.coups:,} coups in 60 shoes"
    assert out[-1].startswith(f"FAIL: {len(whole.violations)} violation")
    # CSV is printed as it goes too, in the same format as the whole log's
    streamed = cli("verify", f, "--decks", "1", "-q", "--format", "csv")
    assert streamed.code == 1
    unlimited = cli("verify", f, "--decks", "1", "-q", "--format", "csv", "--max-violations", "0")
    assert unlimited.code == 1 and unlimited.out == streamed.out
    r = cli("verify", f, "--decks", "1", "-q", "--format", "json")
    assert r.code == 1 and json.loads(r.out)["violations"] == len(whole.violations)
    r = cli("verify", f, "--decks", "1", "-q", "--max-violations", "2")
    assert r.code == 1
    out = r.out.splitlines()
    assert out[1:3] == [str(v) for v in whole.violations[:2]] and out[3].startswith("... and ")


def test_verify_of_a_clean_streamed_log_says_ok(tiny, tmp_path, cli):
    text, _ = simulate_to_text(ONE, 4, 5)
    f = _write(tmp_path, "ok.csv", text)
    r = cli("verify", f, "--decks", "1", "-q")
    assert r.code == 0
    assert r.out.splitlines()[-1] == "OK: every coup follows the drawing rules and the declared shoe."


@pytest.mark.parametrize("bad, message", [
    ("1,7 8,9 Zz,banker", "banker: unknown card 'Zz'"),
    ("1,7 8,9 K,maybe", "outcome 'maybe' is not player"),
    ("1,7 8,9 K,banker,x,y", "fields but the header has"),
])
def test_bad_row_beyond_the_probe_is_one_error_line(tiny, tmp_path, cli, bad, message):
    text, _ = simulate_to_text(ONE, 6, 2)
    lines = text.splitlines()
    at = len(lines) - 3
    lines[at] = bad
    f = _write(tmp_path, "h.csv", "\n".join(lines) + "\n")
    for argv in (["verify", str(f), "--decks", "1", "-q"], ["check", str(f), "--decks", "1", "-q"]):
        captured = cli(*argv)
        assert captured.code == 2
        err = captured.err.strip()
        assert err.startswith("baccarat: error: ") and "\n" not in err
        assert f"row {at + 1}: " in err and message in err
        assert "OK" not in captured.out and "FAIL" not in captured.out and "PASS" not in captured.out


def test_a_rank_beyond_the_probe_of_a_value_level_log_is_refused(tiny, tmp_path, cli):
    text, _ = simulate_to_text(EIGHT, 2, 2)
    v = values(read_hand_log("h.csv", text)).splitlines()
    v[-2] = "2,K 9,1 2,player"
    f = _write(tmp_path, "v.csv", "\n".join(v) + "\n")
    err = cli.error("verify", f, "-q")
    assert f"row {len(v) - 1}: 'K' is not a point value 0-9" in err


def test_source_reads_lines_like_stringio(tiny, tmp_path):
    import io
    text = "a,b\r\nc\rd\n\ne" + "x" * 500 + "\r\n" + "é" * 200 + "\nlast"
    f = tmp_path / "t.csv"
    f.write_bytes(text.encode("utf-8"))
    assert list(LogSource(f).lines()) == list(io.StringIO(text, newline=""))


def test_source_refuses_binary(tiny, tmp_path):
    f = tmp_path / "b.csv"
    f.write_bytes(b"shoe,player,banker\n" * 40 + b"\x00\x00")
    with pytest.raises(Exception, match="NUL"):
        list(LogSource(f).lines())


def test_source_lines_random_texts(tmp_path, monkeypatch):
    import io
    import random
    rng = random.Random(1)
    f = tmp_path / "t.txt"
    for _ in range(200):
        monkeypatch.setattr(stream_mod, "PROBE_BYTES", rng.choice([5, 50, 300]))
        monkeypatch.setattr(stream_mod, "BLOCK", rng.choice([1, 2, 3, 7, 50]))
        text = "".join(rng.choice(["a", ",", "\n", "\r", "\r\n", "é", "\u2028", "\x0c"])
                       for _ in range(rng.randint(0, 300)))
        f.write_bytes(text.encode("utf-8"))
        assert list(LogSource(f).lines()) == list(io.StringIO(text, newline=""))
