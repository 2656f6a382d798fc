"""The ``baccarat`` command, driven through ``analyzer.cli.main`` and once as a real process."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Shoe, analyze
from analyzer.core.cards import RANKS

ALL_RANKS_32 = ",".join(f"{r}=32" for r in RANKS)

# Published 8-deck counts (Wizard of Odds, Baccarat basics, appendix 1), as in test_engine.
BANKER_8, PLAYER_8, TIE_8, DEALS_8 = (2292252566437888, 2230518282592256, 475627426473216,
                                      4998398275503360)
BANKER_6, PLAYER_6, TIE_6, DEALS_6 = (403095751234560, 392220492728832, 83552962932288,
                                      878869206895680)

RATIONAL = re.compile(r"-?[0-9]+/[0-9]+")


def exact(text: str) -> Fraction:
    """A 'p/q' string: reduced, positive denominator, always with the slash."""
    assert isinstance(text, str) and RATIONAL.fullmatch(text), text
    p, q = (int(x) for x in text.split("/"))
    f = Fraction(p, q)
    assert (f.numerator, f.denominator) == (p, q), f"{text} is not reduced"
    return f


# -- Markdown -----------------------------------------------------------------------

def test_default_markdown_has_published_counts(cli):
    out = cli.ok("odds")
    assert out.startswith("# Exact odds: 8 decks (416 cards)")
    for n in (BANKER_8, PLAYER_8, TIE_8, DEALS_8):
        assert str(n) in out
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
            for line in out.splitlines() if line.startswith("| ") and line.count("|") == 5}
    assert rows["banker"][0] == str(BANKER_8)
    assert rows["player"][0] == str(PLAYER_8)
    assert rows["tie"][0] == str(TIE_8)
    assert rows["tie"][1] == "619306544887/6508331087895"      # README
    assert "-114753351728/10847218479825" in out                  # Banker EV (README house edge)
    assert cli.ok("odds", "--format", "md") == out
    assert cli.ok("odds", "--decks", "8") == out


# -- JSON ---------------------------------------------------------------------------

DOCUMENTED_BET_KEYS = {"ev", "house_edge", "variance", "hit_frequency", "std_dev_float", "events"}
EXACT_BET_KEYS = {"ev", "house_edge", "variance", "hit_frequency"}


def check_json_shape(doc: dict) -> None:
    assert set(doc) == {"shoe", "deals", "outcomes", "bets"}
    deals = doc["deals"]
    assert type(deals) is int
    shoe = doc["shoe"]
    assert {"cards", "counts", "suited"} <= set(shoe) <= {"cards", "counts", "suited", "decks", "card_counts"}
    assert type(shoe["cards"]) is int and type(shoe["suited"]) is bool
    assert list(shoe["counts"]) == list(RANKS)
    assert all(type(n) is int for n in shoe["counts"].values())
    assert sum(shoe["counts"].values()) == shoe["cards"]
    n = shoe["cards"]
    assert deals == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)

    assert set(doc["outcomes"]) == {"player", "banker", "tie"}
    for o in doc["outcomes"].values():
        assert set(o) == {"ways", "probability", "probability_float"}
        assert type(o["ways"]) is int
        assert exact(o["probability"]) == Fraction(o["ways"], deals)
        assert o["probability_float"] == pytest.approx(o["ways"] / deals, rel=1e-12)
    assert sum(o["ways"] for o in doc["outcomes"].values()) == deals

    assert set(doc["bets"]) == {"banker", "player", "tie"}
    for bet in doc["bets"].values():
        extra = set(bet) - DOCUMENTED_BET_KEYS
        # Only a display name and the *_float twins of exact values may come on top.
        assert extra <= {"name"} | {f"{k}_float" for k in EXACT_BET_KEYS}, extra
        assert DOCUMENTED_BET_KEYS <= set(bet)
        for k in EXACT_BET_KEYS:
            value = exact(bet[k])
            if f"{k}_float" in bet:
                assert bet[f"{k}_float"] == pytest.approx(float(value), rel=1e-12, abs=1e-15)
        assert isinstance(bet["std_dev_float"], float)
        assert bet["std_dev_float"] == pytest.approx(float(exact(bet["variance"])) ** 0.5, rel=1e-12)
        events = bet["events"]
        assert isinstance(events, list) and events
        for e in events:
            assert set(e) == {"event", "pays", "ways", "probability", "probability_float"}
            assert isinstance(e["event"], str)
            assert type(e["ways"]) is int and e["ways"] >= 0
            exact(e["pays"])
            assert exact(e["probability"]) == Fraction(e["ways"], deals)
        assert sum(e["ways"] for e in events) == deals
        # The exact summary values follow from the events.
        ev = sum(exact(e["pays"]) * Fraction(e["ways"], deals) for e in events)
        second = sum(exact(e["pays"]) ** 2 * Fraction(e["ways"], deals) for e in events)
        assert exact(bet["ev"]) == ev
        assert exact(bet["house_edge"]) == -ev
        assert exact(bet["variance"]) == second - ev * ev
        assert exact(bet["hit_frequency"]) == sum(
            Fraction(e["ways"], deals) for e in events if exact(e["pays"]) > 0)


def test_json_shape_and_values_8_decks(cli):
    doc = cli.json("odds", "--format", "json")
    check_json_shape(doc)
    assert doc["deals"] == DEALS_8
    assert doc["shoe"]["cards"] == 416 and doc["shoe"]["decks"] == 8 and doc["shoe"]["suited"] is True
    assert {o: v["ways"] for o, v in doc["outcomes"].items()} == {
        "banker": BANKER_8, "player": PLAYER_8, "tie": TIE_8}
    banker = doc["bets"]["banker"]
    assert banker["house_edge"] == "114753351728/10847218479825"          # README
    assert [(e["event"], e["pays"], e["ways"]) for e in banker["events"]] == [
        ("banker wins", "19/20", BANKER_8), ("tie (push)", "0/1", TIE_8), ("loses", "-1/1", PLAYER_8)]
    assert [(e["pays"], e["ways"]) for e in doc["bets"]["tie"]["events"]] == [
        ("8/1", TIE_8), ("-1/1", DEALS_8 - TIE_8)]


def test_json_rejects_nothing_non_json(cli):
    # Plain json, no NaN/Infinity or big floats standing in for integers.
    text = cli.ok("odds", "--format", "json", "--decks", "1")
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert text.endswith("}\n")


def test_six_decks_give_the_published_counts_in_json_and_markdown(cli):
    doc = cli.json("odds", "--format", "json", "--decks", "6")
    check_json_shape(doc)
    assert doc["shoe"]["cards"] == 312 and doc["shoe"]["decks"] == 6
    assert (doc["outcomes"]["banker"]["ways"], doc["outcomes"]["player"]["ways"],
            doc["outcomes"]["tie"]["ways"], doc["deals"]) == (BANKER_6, PLAYER_6, TIE_6, DEALS_6)
    assert "6 decks (312 cards)" in cli.ok("odds", "--decks", "6")


def test_shoe_by_rank_equals_decks_8(cli):
    by_rank = cli.json("odds", "--format", "json", "--shoe", ALL_RANKS_32)
    check_json_shape(by_rank)
    decks = cli.json("odds", "--format", "json", "--decks", "8")
    assert by_rank["shoe"]["suited"] is False and "decks" not in by_rank["shoe"]
    assert by_rank["shoe"]["counts"] == decks["shoe"]["counts"]
    assert by_rank["deals"] == decks["deals"]
    assert by_rank["outcomes"] == decks["outcomes"]
    assert by_rank["bets"] == decks["bets"]


def test_shoe_by_card(cli):
    spec = ",".join(f"{r}{s}=2" for r in RANKS for s in "shdc")
    doc = cli.json("odds", "--format", "json", "--shoe", spec)
    assert doc["shoe"]["suited"] is True and doc["shoe"]["decks"] == 2
    assert doc["outcomes"] == cli.json("odds", "--format", "json", "--decks", "2")["outcomes"]


def test_removed_cards_leave_a_rank_only_shoe_with_the_readmes_counts(cli):
    doc = cli.json("odds", "--format", "json", "--remove", "5 5 K 9h")
    check_json_shape(doc)
    assert doc["shoe"]["cards"] == 412 and doc["shoe"]["suited"] is False
    assert doc["shoe"]["counts"]["5"] == 30 and doc["shoe"]["counts"]["K"] == 31
    assert doc["outcomes"]["player"]["ways"] == 2104447732732264      # README
    a = analyze(Shoe.standard(8).remove("5 5 K 9h"))
    assert {o: v["ways"] for o, v in doc["outcomes"].items()} == a.outcomes


def test_remove_suited_cards_keeps_suits(cli):
    doc = cli.json("odds", "--format", "json", "--decks", "1", "--remove", "9h Ks")
    assert doc["shoe"]["suited"] is True and doc["shoe"]["cards"] == 50
    assert doc["shoe"]["card_counts"]["9h"] == 0 and doc["shoe"]["card_counts"]["9s"] == 1
    a = analyze(Shoe.standard(1).remove("9h Ks"))
    assert {o: v["ways"] for o, v in doc["outcomes"].items()} == a.outcomes


def test_remove_on_explicit_shoe(cli):
    doc = cli.json("odds", "--format", "json", "--shoe", "A=4,5=4,K=4", "--remove", "A K")
    assert doc["shoe"]["cards"] == 10
    a = analyze(Shoe.parse("A=3,5=4,K=3"))
    assert {o: v["ways"] for o, v in doc["outcomes"].items()} == a.outcomes


# -- CSV ----------------------------------------------------------------------------

def test_csv_rows_hold_the_outcomes_ways_and_exact_values(cli):
    text = cli.ok("odds", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["bet", "metric", "event", "pays", "ways", "deals", "exact", "decimal"]
    outcomes = {r["event"]: r for r in rows if r["metric"] == "outcome"}
    assert set(outcomes) == {"player", "banker", "tie"}
    assert {k: int(r["ways"]) for k, r in outcomes.items()} == {
        "banker": BANKER_8, "player": PLAYER_8, "tie": TIE_8}
    for r in outcomes.values():
        assert int(r["deals"]) == DEALS_8
        assert exact(r["exact"]) == Fraction(int(r["ways"]), DEALS_8)
        assert float(r["decimal"]) == pytest.approx(int(r["ways"]) / DEALS_8, abs=1e-14)
    # Every bet event and metric row agrees with the JSON document.
    doc = cli.json("odds", "--format", "json")
    for bet_id, bet in doc["bets"].items():
        events = [(r["event"], r["pays"], int(r["ways"]), r["exact"])
                  for r in rows if r["bet"] == bet_id and r["metric"] == "event"]
        assert events == [(e["event"], e["pays"], e["ways"], e["probability"]) for e in bet["events"]]
        for metric in ("ev", "house_edge", "variance", "hit_frequency"):
            (row,) = [r for r in rows if r["bet"] == bet_id and r["metric"] == metric]
            assert row["exact"] == bet[metric]
        (sd,) = [r for r in rows if r["bet"] == bet_id and r["metric"] == "std_dev"]
        assert float(sd["decimal"]) == pytest.approx(bet["std_dev_float"], rel=1e-12)


# -- --output -----------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "csv", "json"])
def test_output_file_equals_stdout_and_leaves_no_temporary_files(cli, tmp_path, monkeypatch, fmt):
    monkeypatch.chdir(tmp_path)
    printed = cli.ok("odds", "--decks", "6", "--format", fmt)
    target = tmp_path / f"result.{fmt}"
    assert cli.ok("odds", "--decks", "6", "--format", fmt, "--output", str(target)) == ""
    assert target.read_bytes().decode("utf-8") == printed
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
    # Overwrite in place, relative path, short option.
    assert cli.ok("odds", "--decks", "8", "--format", fmt, "-o", target.name) == ""
    assert target.read_bytes().decode("utf-8") == cli.ok("odds", "--format", fmt)
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_output_file_gets_ordinary_permissions(cli, tmp_path):
    old = os.umask(0o022)
    try:
        target = tmp_path / "odds.md"
        assert cli.ok("odds", "--output", str(target)) == ""
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
    finally:
        os.umask(old)


# -- bad input ----------------------------------------------------------------------

BAD = [
    (["odds", "--remove", "5 X"], r"unknown rank 'X'"),
    (["odds", "--remove", "5x"], r"unknown card '5x'"),
    (["odds", "--decks", "1", "--remove", "A A A A A"], r"cannot remove A: no A left"),
    (["odds", "--decks", "1", "--remove", "Ah Ah"], r"cannot remove Ah: none left"),
    (["odds", "--shoe", "A=4,K=4", "--remove", "A A A"], r"at least 6 cards"),
    (["odds", "--decks", "0"], r"number of decks must be a whole number of at least 1, got 0"),
    (["odds", "--decks", "-1"], r"at least 1, got -1"),
    (["odds", "--decks", "x"], r"--decks must be a whole number from 1 to 10000, got 'x'"),
    (["odds", "--decks", "2.5"], r"--decks must be a whole number"),
    (["odds", "--shoe", "A=3"], r"at least 6 cards.*has 3"),
    (["odds", "--shoe", "A32"], r"malformed shoe item 'A32'"),
    (["odds", "--shoe", "A=1,A=2,K=9"], r"given twice"),
    (["odds", "--shoe", "A=3,Kh=6"], r"not both"),
    (["odds", "--shoe", "A=-3,K=9"], r"whole number"),
    (["odds", "--shoe", ""], r"empty shoe specification"),
    (["odds", "--format", "xml"], r"unknown --format 'xml' \(choose from md, csv, json\)"),
    (["odds", "--decks", "8", "--shoe", ALL_RANKS_32], r"not allowed with"),
    (["frobnicate"], r"invalid choice: 'frobnicate'"),
    ([], r"required: COMMAND"),
    (["odds", "--bogus"], r"unrecognized arguments: --bogus"),
]


def expect_usage_error(cli, tmp_path, argv, pattern):
    target = tmp_path / "out.txt"
    argv = argv + ["--output", str(target)] if argv and argv[0] == "odds" else argv
    rc, out, err = cli(*argv)
    assert rc == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("baccarat: error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, pattern", BAD, ids=[" ".join(a) or "<none>" for a, _ in BAD])
def test_bad_odds_input_is_one_line_and_exit_2(cli, tmp_path, monkeypatch, argv, pattern):
    monkeypatch.chdir(tmp_path)
    expect_usage_error(cli, tmp_path, argv, pattern)


def test_output_into_missing_directory(cli, tmp_path):
    target = tmp_path / "no" / "such" / "dir.md"
    rc, out, err = cli("odds", "--output", str(target))
    assert (rc, out) == (2, "")
    assert err.startswith("baccarat: error: cannot write") and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_superscript_count_is_a_usage_error(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    expect_usage_error(cli, tmp_path, ["odds", "--shoe", "A=²,K=9"], r"whole number")


def test_output_onto_a_directory_is_a_usage_error(cli, tmp_path):
    target = tmp_path / "adir"
    target.mkdir()
    rc, out, err = cli("odds", "--output", str(target))
    assert (rc, out) == (2, "")
    assert err.startswith("baccarat: error: cannot write") and len(err.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["adir"] and not any(target.iterdir())


# -- a real process -----------------------------------------------------------------

def test_subprocess_python_m_analyzer_odds(cli, tmp_path):
    proc = cli.process("odds", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    for n in (BANKER_8, PLAYER_8, TIE_8):
        assert str(n) in proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_subprocess_bad_input_exit_status(cli, tmp_path):
    proc = cli.process("odds", "--decks", "0", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("baccarat: error: ") and len(proc.stderr.splitlines()) == 1


#: Libraries that only some commands need: `baccarat odds` must not pay for them at start-up
#: (sympy alone is 150 ms; a command module that imports its computation at registration
#: made every command load it).
HEAVY = ("sympy", "pandas", "matplotlib", "starlette", "uvicorn", "dask", "openpyxl", "scipy", "gmpy2")


def test_odds_imports_none_of_the_libraries_other_commands_need(tmp_path):
    out = tmp_path / "odds.md"
    # main() in a fresh interpreter, not the cli fixture: what one command imports is the point,
    # and this process has loaded every library already
    code = ("import sys; from analyzer.cli import main; main(['odds', '--quiet', '-o', sys.argv[1]]); "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))")
    r = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]" and out.read_text().startswith("# Exact odds")
