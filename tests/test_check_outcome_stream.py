"""Outcome-only logs read as they go: chunk by chunk, memory bounded, the same report.

As in ``test_check_stream.py`` the probe and chunk sizes of :mod:`analyzer.simcheck.stream`
are made tiny so that small logs take the streaming path, with shoes and runs going on across
chunk boundaries; the report must be the one of the log read whole, byte for byte.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
import subprocess
import sys

import pytest

from analyzer import Shoe
from analyzer.core.procedure import Procedure
from analyzer.simcheck import stream as stream_mod
from analyzer.simcheck.check import report_json, report_markdown
from analyzer.simcheck.logs import LogError
from analyzer.simcheck.outcomes import OutcomeLog, OutcomeStream
from analyzer.simcheck.shapes import read_log
from analyzer.simcheck.stream import open_log
from analyzer.simcheck.streaks import check_outcomes

EIGHT = Shoe.standard(8)
ALPHA, POWER, DETECT = Fraction(1, 100), Fraction(9, 10), Fraction(1, 1000)


@pytest.fixture
def tiny(monkeypatch):
    """Stream anything longer than 300 bytes, in chunks of 7 coups."""
    monkeypatch.setattr(stream_mod, "PROBE_BYTES", 300)
    monkeypatch.setattr(stream_mod, "CHUNK", 7)
    monkeypatch.setattr(stream_mod, "BLOCK", 113)


def _shoes(seed, shoes=40, long_runs=True):
    """Outcomes of ``shoes`` shoes of 60-90 coups (some long runs, so that runs cross chunks)."""
    rng = random.Random(seed)
    out = []
    for s in range(shoes):
        coups = []
        while len(coups) < rng.randint(60, 90):
            o = rng.choices("PBT", weights=(45, 46, 9))[0]
            coups.extend([o] * (rng.randint(5, 12) if long_runs and rng.random() < 0.05 else 1))
        out.append((f"S{s + 1}", coups))
    return out


def per_coup(shoes, word=lambda o: o):
    return "shoe,outcome\n" + "".join(f"{s},{word(o)}\n" for s, cs in shoes for o in cs)


def beads(shoes):
    return "shoe,results\n" + "".join(f"{s},{''.join(cs)}\n" for s, cs in shoes)


def jsonl(shoes):
    return "".join(json.dumps({"shoe": s, "outcome": o}) + "\n" for s, cs in shoes for o in cs)


SHAPES = [("csv", per_coup, "o.csv"), ("words", lambda s: per_coup(s, {"P": "Player win", "B": "banker",
                                                                        "T": "tie"}.get), "o.csv"),
          ("beads", beads, "b.csv"), ("jsonl", jsonl, "o.jsonl")]


@pytest.mark.parametrize("name,make,filename", SHAPES, ids=[s[0] for s in SHAPES])
def test_outcome_log_is_read_in_chunks_with_the_same_report(tiny, tmp_path, name, make, filename):
    text = make(_shoes(3))
    f = tmp_path / filename
    f.write_text(text)
    whole = read_log(str(f), text)
    assert isinstance(whole, OutcomeLog)
    s = open_log(f)
    assert isinstance(s.outcomes, OutcomeStream) and s.outcomes.shape == whole.shape
    chunks = list(s.outcomes.chunks())
    assert len(chunks) > 10
    assert max(c.coups for c in chunks) <= (7 if name != "beads" else 7 + 90)   # a bead string is whole
    assert sum(c.coups for c in chunks) == whole.coups and s.outcomes.shoes == whole.shoes
    for procedure in (None, Procedure.create(416, "none", 14, 0)):
        a = check_outcomes(whole, EIGHT, ALPHA, POWER, DETECT, procedure)
        b = check_outcomes(open_log(f).outcomes, EIGHT, ALPHA, POWER, DETECT, procedure)
        assert report_json(a) == report_json(b)
        assert report_markdown(a) == report_markdown(b)


def test_check_report_is_the_same_streamed_or_whole(tmp_path, cli, monkeypatch):
    f = tmp_path / "o.csv"
    f.write_text(per_coup(_shoes(5, shoes=60)))
    args = ["check", f, "--quiet", "--reference", "off-the-top", "--cut-card", "14"]
    outs = []
    for probe in (1 << 30, 300):                 # read whole, then as it goes
        monkeypatch.setattr(stream_mod, "PROBE_BYTES", probe)
        monkeypatch.setattr(stream_mod, "CHUNK", 11)
        code, out, _ = cli(*args)
        outs.append((code, out))
    assert outs[0] == outs[1] and "Runs" in outs[0][1]


def test_skip_invalid_and_errors_as_the_whole_reader(tiny, tmp_path):
    shoes = _shoes(7)
    lines = per_coup(shoes).splitlines(True)
    lines[40] = "S1,maybe\n"
    lines[300] = ",P\n"
    text = "".join(lines)
    f = tmp_path / "o.csv"
    f.write_text(text)
    whole = read_log(str(f), text, skip_invalid=True)
    a = check_outcomes(whole, EIGHT, ALPHA, POWER, DETECT)
    b = check_outcomes(open_log(f, skip_invalid=True).outcomes, EIGHT, ALPHA, POWER, DETECT)
    assert report_json(a) == report_json(b) and sum(whole.skipped.values()) == 2
    for bad in (text, per_coup(shoes) + "S2,P\n", "shoe,outcome\n" + "S1,maybe\n" * 60):
        f.write_text(bad)
        with pytest.raises(LogError) as e1:
            read_log(str(f), bad, skip_invalid=bad.count("maybe") > 1)
        with pytest.raises(LogError) as e2:
            s = open_log(f, skip_invalid=bad.count("maybe") > 1)
            check_outcomes(s.outcomes, EIGHT, ALPHA, POWER, DETECT)
        assert str(e1.value) == str(e2.value)


@pytest.mark.slow
def test_peak_memory_of_a_long_outcome_log_is_bounded(tmp_path):
    """A 1,500,000-coup outcome-only log (about 12 MB) is checked in about the memory of a tiny one
    (read whole it took some 150 MB more)."""
    rng = random.Random(9)
    f, small = tmp_path / "long.csv", tmp_path / "small.csv"
    rows = []
    for s in range(1, 18_300):
        rows.extend(f"{s},{o}\n" for o in rng.choices("PBT", weights=(45, 46, 9), k=82))
    f.write_text("shoe,outcome\n" + "".join(rows))
    small.write_text("shoe,outcome\n" + "".join(rows[:3000]))
    probe = ("import resource, subprocess, sys; subprocess.run([sys.executable, '-m', 'analyzer', 'check', "
             "sys.argv[1], '--quiet', '--reference', 'off-the-top', '-o', sys.argv[2]]); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")       # exit 0 or 1: a verdict
    rss = {}
    for name, path in (("long", f), ("small", small)):
        got = subprocess.run([sys.executable, "-c", probe, str(path), str(tmp_path / f"{name}.md")],
                             capture_output=True, text=True, check=True)
        rss[name] = int(got.stdout.split()[-1]) / 1024     # MB (ru_maxrss is in KiB on Linux)
    assert f"outcome-only log, {len(rows):,} coups in 18,299 shoes" in (tmp_path / "long.md").read_text()
    assert rss["long"] - rss["small"] < 40, rss
