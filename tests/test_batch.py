"""``baccarat odds --batch FILE``: JSON Lines, each line the document of one ``odds --format json`` run."""

from __future__ import annotations

import json
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import batch as batch_module
from analyzer.core.solver import CARD_SOLVER_CACHE, SOLVER_CACHE, SolverCache
from analyzer.io import batch as batch_lines
from analyzer.core.cards import RANKS

CUSTOM = "A=3,2=4,5=6,9=2,K=7"

#: (line object, the same shoe as ``odds`` options)
LINES = [
    ({"decks": 8}, []),
    ({"decks": 6}, ["--decks", "6"]),
    ({}, []),
    ({"shoe": CUSTOM}, ["--shoe", CUSTOM]),
    ({"shoe": {"A": 3, "2": 4, "5": 6, "9": 2, "K": 7}}, ["--shoe", CUSTOM]),
    ({"decks": 6, "remove": "5 5 K 9h"}, ["--decks", "6", "--remove", "5 5 K 9h"]),
    ({"remove": ["As", "Kd", "9h"]}, ["--remove", "As Kd 9h"]),
    ({"known": {"1": "9", "5": "K"}}, ["--known", "1=9", "--known", "5=K"]),
    ({"decks": 1, "remove": "2 3", "known": {"2": "T"}}, ["--decks", "1", "--remove", "2 3", "--known", "2=T"]),
    ({"known": {}}, []),
]


def single(cli, *argv: str) -> dict:
    rc, out, err = cli("odds", "--format", "json", *argv)
    assert (rc, err) == (0, ""), err
    return json.loads(out)


def write_lines(path, lines) -> str:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return str(path)


def batch(cli, path, *argv: str) -> list[dict]:
    rc, out, err = cli("odds", "--batch", str(path), *argv)
    assert (rc, err) == (0, ""), err
    assert out.endswith("\n") or out == ""
    lines = out.splitlines()
    assert all(line.strip() for line in lines)
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--bets", "dragon7,panda8,tie"],
        ["--rules", "gold"],
        ["--table", "ez", "--format", "json"],
        ["--breakeven", "tie"],
    ],
)
def test_each_line_is_the_single_cli(cli, tmp_path, options):
    path = write_lines(tmp_path / "shoes.jsonl", [line for line, _ in LINES])
    docs = batch(cli, path, *options)
    assert len(docs) == len(LINES)
    for doc, (_, shoe_options) in zip(docs, LINES):
        assert doc == single(cli, *shoe_options, *[o for o in options if o not in ("--format", "json")])


def test_the_whole_catalog_and_player_best(cli, tmp_path):
    lines = [{"decks": 8}, {"remove": "5s 5h Kd 9c"}, {"decks": 6, "remove": "Ts Jh Qd Kc"}]
    path = write_lines(tmp_path / "shoes.jsonl", lines)
    docs = batch(cli, path, "--bets", "all")
    assert docs[1] == single(cli, "--bets", "all", "--remove", "5s 5h Kd 9c")
    assert len(docs[1]["bets"]) > 40
    docs = batch(cli, path, "--rules", "gold", "--player-option", "best")
    for doc, line in zip(docs, lines):
        args = ["--decks", str(line.get("decks", 8))] + (["--remove", line["remove"]] if "remove" in line else [])
        assert doc == single(cli, "--rules", "gold", "--player-option", "best", *args)
        assert "player_strategy" in doc


def test_order_kept_and_one_line_each(cli, tmp_path):
    decks = [3, 1, 8, 2, 6, 1, 4]
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": d} for d in decks])
    rc, out, err = cli("odds", "--batch", path, "--bets", "banker")
    assert rc == 0 and err == ""
    assert out.count("\n") == len(decks)
    assert [json.loads(line)["shoe"]["cards"] for line in out.splitlines()] == [52 * d for d in decks]


def test_a_batch_leaves_the_cyclic_collector_as_it_found_it(cli, tmp_path):
    """A batch freezes what its first chunk left alive and makes the collector's passes rarer
    while it runs (cli/batch.py); both are undone when it ends, after a bad line too."""
    import gc
    threshold = gc.get_threshold()
    good = write_lines(tmp_path / "good.jsonl", [{"decks": d} for d in (1, 2, 3) * 20])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps({"decks": 1})] * 70 + ['{"decks": 0}']) + "\n")
    for path, code in ((good, 0), (bad, 2)):
        assert cli("odds", "--batch", path, "--bets", "banker", "-o", tmp_path / f"{code}.jsonl").code == code
        assert gc.get_threshold() == threshold and gc.get_freeze_count() == 0


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.lists(st.sampled_from([r + s for r in RANKS for s in "shdc"] + list(RANKS)), max_size=12, unique=True).map(
            " ".join
        ),
        min_size=1,
        max_size=4,
    )
)
def test_random_removals_match_single_runs(cli, removals):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "shoes.jsonl")
        with open(path, "w") as f:
            for r in removals:
                f.write(json.dumps({"decks": 2, "remove": r}) + "\n")
        docs = batch(cli, path, "--bets", "tie,dragon7,big")
    for doc, r in zip(docs, removals):
        assert doc == single(cli, "--decks", "2", "--remove", r, "--bets", "tie,dragon7,big")


def test_solver_compiled_once_per_known_set(cli, tmp_path, monkeypatch):
    import analyzer.core.solver as solver_module

    made = []

    class Counting(solver_module.Solver):
        def __init__(self, *a, **k):
            made.append(k.get("known"))
            super().__init__(*a, **k)

    monkeypatch.setattr(solver_module, "Solver", Counting)
    lines = [{"decks": d} for d in (8, 6, 4)] + [{"known": {"1": "9"}, "decks": d} for d in (8, 6)] + [{"decks": 2}]
    path = write_lines(tmp_path / "shoes.jsonl", lines)
    assert len(batch(cli, path)) == 6
    assert len(made) == 2


def test_solver_cache_is_bounded(monkeypatch):
    from analyzer.bets.catalog import catalog
    from analyzer.bets.rules_files import load_rules
    from analyzer.core.known import parse_known

    solvers = SolverCache(catalog().select(["tie"]), size=2)
    rules = load_rules(None)
    for pos in "1234":
        solvers.get(parse_known({pos: "9"}), rules)
    assert solvers.cache_info().currsize == 2 and solvers.compiled == 4
    solvers.get(parse_known({"4": "9"}), rules)
    assert solvers.compiled == 4
    assert SolverCache(catalog().select(["tie"])).size == SOLVER_CACHE
    assert SolverCache(catalog().select(["player_pair"])).size == CARD_SOLVER_CACHE


def test_output_file_and_stdin(cli, tmp_path):
    path = write_lines(tmp_path / "shoes.jsonl", [line for line, _ in LINES[:4]])
    rc, expected, err = cli("odds", "--batch", path)
    assert rc == 0
    out_file = tmp_path / "out.jsonl"
    assert cli("odds", "--batch", path, "--output", str(out_file)) == (0, "", "")
    assert out_file.read_text() == expected
    assert cli("odds", "--batch", "-", stdin=open(path, "rb").read()) == (0, expected, "")


def test_empty_file_and_crlf_and_bom(cli, tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert cli("odds", "--batch", str(empty)) == (0, "", "")
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(b'\xef\xbb\xbf{"decks": 6}\r\n{"decks": 1}')  # no final newline either
    docs = batch(cli, crlf)
    assert [d["shoe"]["cards"] for d in docs] == [312, 52]


# -- bad input: one line naming the file and line, exit 2, no traceback ---------------

BAD_LINES = [
    ("", r"line 3: blank line"),
    ("   ", r"line 3: blank line"),
    ('{"decks": 6', r"line 3: malformed JSON"),
    ("not json", r"line 3: malformed JSON"),
    ('{"decks": NaN}', r"line 3: NaN is not a JSON value"),
    ('{"decks": ' + "9" * 5000 + "}", r"line 3: malformed JSON: a number of more than 4300 digits"),
    ("[" * 100000 + "]" * 100000, r"line 3: malformed JSON: nested too deeply"),
    ('{"decks": 6} {"decks": 7}', r"line 3: malformed JSON at column 14: Extra data"),
    ("[1, 2]", r"line 3: expected a JSON object .* got a list"),
    ('"decks"', r"line 3: expected a JSON object .* got a string"),
    ("8", r"line 3: expected a JSON object"),
    ('{"deck": 8}', r"line 3: unknown key 'deck' \(keys: decks, shoe, remove, known\)"),
    ('{"decks": 6, "decks": 8}', r"line 3: key 'decks' is given twice"),
    ('{"decks": "6"}', r"line 3: 'decks' must be a whole number"),
    ('{"decks": 6.0}', r"line 3: 'decks' must be a whole number"),
    ('{"decks": true}', r"line 3: 'decks' must be a whole number"),
    ('{"decks": 0}', r"line 3: number of decks must be a whole number of at least 1"),
    ('{"decks": 20000}', r"line 3: 20000 decks is more than"),
    ('{"decks": 6, "shoe": "A=9"}', r"line 3: give 'decks' or 'shoe', not both"),
    ('{"shoe": 5}', r"line 3: 'shoe' must be a string"),
    ('{"shoe": "A=2"}', r"line 3: a shoe needs at least 6 cards"),
    ('{"shoe": "X=9"}', r"line 3: unknown rank 'X'"),
    ('{"shoe": {"A": -1, "K": 9}}', r"line 3: count for 'A' must not be negative"),
    ('{"remove": "5 X"}', r"line 3: unknown rank 'X'"),
    ('{"remove": "5x"}', r"line 3: unknown card '5x'"),
    ('{"remove": 5}', r"line 3: 'remove' must be a string"),
    ('{"remove": ["5", 5]}', r"line 3: 'remove' must list card names"),
    ('{"shoe": "A=9", "remove": "K"}', r"line 3: cannot remove K: no K left in the shoe"),
    ('{"decks": 1, "remove": "As As"}', r"line 3: cannot remove As: none left in the shoe"),
    ('{"known": ["1=9"]}', r"line 3: 'known' must be an object"),
    ('{"known": {"7": "9"}}', r"line 3: 'known' position '7' is outside 1-6"),
    ('{"known": {"x": "9"}}', r"line 3: 'known' position 'x' is outside 1-6"),
    ('{"known": {"1": 9}}', r"line 3: 'known' position '1': the card must be a string"),
    ('{"known": {"1": "Z"}}', r"line 3: 'known' 1=Z: unknown rank 'Z'"),
    ('{"known": {"1": "9s"}, "remove": "5"}', r"line 3: 'known' 9s names a suit, but this shoe's suits"),
    ('{"shoe": "A=9", "known": {"1": "K"}}', r"line 3: 'known' names 1 card\(s\) of rank K, but the shoe holds 0"),
]


def check_error(rc, out, err, pattern, stdout_lines=None):
    import re

    assert rc == 2
    assert err.count("\n") == 1 and err.startswith("baccarat: error: "), err
    assert "Traceback" not in err
    assert re.search(pattern, err), err
    if stdout_lines is not None:
        assert out.count("\n") == stdout_lines


@pytest.mark.parametrize("line,pattern", BAD_LINES)
def test_a_bad_line_keeps_the_lines_before_and_writes_no_output_file(cli, tmp_path, line, pattern):
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}, {"decks": 1}, line, {"decks": 2}])
    rc, out, err = cli("odds", "--batch", path)
    check_error(rc, out, err, r"'.*shoes\.jsonl' " + pattern, stdout_lines=2)  # the lines before stay
    out_file = tmp_path / "out.jsonl"
    rc, out, err = cli("odds", "--batch", path, "--output", str(out_file))
    check_error(rc, out, err, pattern, stdout_lines=0)
    assert not out_file.exists()
    assert os.listdir(tmp_path) == ["shoes.jsonl"]  # no temporary file left


def test_bad_line_keeps_an_existing_output(cli, tmp_path):
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}, {"decks": -1}])
    out_file = tmp_path / "out.jsonl"
    out_file.write_text("old\n")
    rc, out, err = cli("odds", "--batch", path, "-o", str(out_file))
    check_error(rc, out, err, "line 2: number of decks")
    assert out_file.read_text() == "old\n"


def test_bad_line_on_stdin_names_standard_input(cli):
    check_error(
        *cli("odds", "--batch", "-", stdin=b'{"decks": 6}\n{"decks": "x"}\n'),
        r"standard input line 2: 'decks' must be",
        1,
    )


def test_suit_bet_on_a_rank_only_line(cli, tmp_path):
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}, {"remove": "5"}])
    check_error(*cli("odds", "--batch", path, "--bets", "perfect_pair"), r"line 2: bet 'perfect_pair' reads suits", 1)


def test_known_cards_in_a_line_pin_a_card_bet_as_odds_does(cli, tmp_path):
    """Known cards work with bets on ranks and suits (the card engine pins them)."""
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}, {"known": {"1": "9", "3": "9h"}}])
    out = batch(cli, path, "--bets", "player_pair,monkey6")
    assert out[0] == single(cli, "--decks", "6", "--bets", "player_pair,monkey6")
    assert out[1] == single(cli, "--known", "1=9", "--known", "3=9h", "--bets", "player_pair,monkey6")
    assert out[1]["bets"]["player_pair"]["hit_frequency"] == "1/1"  # a 9 at P1 and P2


def test_long_line_refused(cli, tmp_path):
    path = tmp_path / "shoes.jsonl"
    limit = batch_lines.MAX_LINE_BYTES
    path.write_bytes(b'{"decks": 6}\n' + b'{"decks": 6' + b" " * limit + b"}\n")
    check_error(*cli("odds", "--batch", str(path)), r"line 2: longer than 1 MiB", 1)
    # exactly at the limit is fine (newline not counted)
    body = b'{"decks": 1' + b" " * (limit - 12) + b"}"
    assert len(body) == limit
    path.write_bytes(body + b"\n")
    assert len(batch(cli, path)) == 1


def test_a_line_that_is_not_utf8_is_refused_with_its_number(cli, tmp_path):
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b'{"decks": 6}\n{"remove": "\xff"}\n')
    check_error(*cli("odds", "--batch", str(path)), r"line 2: not UTF-8 text", 1)


@pytest.mark.parametrize(
    "argv,pattern",
    [
        (["--format", "md"], r"--batch writes JSON Lines.*--format 'md' is not offered"),
        (["--format", "csv"], r"--format 'csv' is not offered"),
        (
            ["--format", "xml"],
            r"unknown --format 'xml' \(choose from md, csv, json\)",
        ),  # not a format at all: refused as it is parsed
        (["--decks", "6"], r"--batch reads each shoe from its line; --decks cannot be given"),
        (["--shoe", "A=9"], r"--shoe cannot be given"),
        (["--remove", "5"], r"--remove cannot be given"),
        (["--known", "1=9"], r"--known cannot be given"),
        (["--breakeven", "tie:nothing"], r"bet 'tie' has no event 'nothing'"),
        (["--bets", "nosuchbet"], r"nosuchbet"),
        (["--player-option", "best"], r"offers the Player no option"),
    ],
)
def test_each_bad_option_is_one_line_and_exit_2(cli, tmp_path, argv, pattern):
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}])
    check_error(*cli("odds", "--batch", path, *argv), pattern, 0)


def test_a_missing_batch_file_a_folder_or_an_unwritable_output_is_one_line(cli, tmp_path):
    check_error(*cli("odds", "--batch", str(tmp_path / "nope.jsonl")), r"cannot read batch file .*no such file", 0)
    check_error(*cli("odds", "--batch", str(tmp_path)), r"cannot read batch file .*directory", 0)
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}])
    check_error(*cli("odds", "--batch", path, "-o", str(tmp_path / "no" / "out.jsonl")), r"cannot write", 0)


def test_interrupt_leaves_no_partial_file(cli, tmp_path, monkeypatch):
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": 6}, {"decks": 1}, {"decks": 2}])
    real = batch_lines.load_object
    seen = []

    def interrupted(text, *args):
        seen.append(text)
        if len(seen) == 2:
            raise KeyboardInterrupt
        return real(text, *args)

    monkeypatch.setattr(batch_lines, "load_object", interrupted)  # read by every line, one at a time or not
    out_file = tmp_path / "out.jsonl"
    rc, out, err = cli("odds", "--batch", path, "-o", str(out_file))
    assert rc == 130 and "interrupted" in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["shoes.jsonl"]


def test_progress_bar_on_stderr_only(cli, tmp_path, monkeypatch):
    from tqdm import tqdm

    def shown(total, what, quiet=False, unit="it"):
        return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=quiet, mininterval=0)

    monkeypatch.setattr(batch_module, "progress_bar", shown)
    path = write_lines(tmp_path / "shoes.jsonl", [{"decks": d} for d in (1, 2, 3)])
    rc, out, err = cli("odds", "--batch", path, "--bets", "tie", tty=True)
    assert rc == 0 and "shoes" in err and "3/3" in err
    assert [json.loads(line)["shoe"]["cards"] for line in out.splitlines()] == [52, 104, 156]
    rc, out, err = cli("odds", "--batch", path, "--bets", "tie", "--quiet", tty=True)
    assert rc == 0 and err == ""


def test_count_lines_counts_a_last_line_without_newline_and_not_a_folder(tmp_path):
    assert batch_lines.count_lines("-") is None
    assert batch_lines.count_lines(str(tmp_path)) is None
    path = tmp_path / "n.jsonl"
    for text, n in (("", 0), ("{}", 1), ("{}\n", 1), ("{}\n{}", 2), ("{}\n\n", 2)):
        path.write_text(text)
        assert batch_lines.count_lines(str(path)) == n


_CARD_NAMES = [r + s for r in RANKS for s in "shdc"]
_LINE_VALUES = {
    "decks": st.one_of(st.integers(-1, 12), st.just(True), st.just(8.0), st.just("8"), st.just(None)),
    "remove": st.one_of(
        st.lists(st.sampled_from(_CARD_NAMES), max_size=60).map(" ".join),
        st.lists(st.sampled_from(_CARD_NAMES + ["5", "10h", "as"]), max_size=60),
        st.lists(st.sampled_from(_CARD_NAMES), max_size=60).map(", ".join),
        st.just(""), st.just("  "), st.just(7), st.just(["As", 5]), st.just(["As Kh"]),
    ),
    "shoe": st.sampled_from(["A=4,K=40", {"As": 2, "Kd": 9}, 3]),
    "known": st.sampled_from([{"1": "9"}, {"1": 9}, {"9": "K"}]),
    "other": st.just(1),
}


@st.composite
def _line_texts(draw):
    keys = draw(st.lists(st.sampled_from(sorted(_LINE_VALUES)), max_size=3, unique=True))
    obj = {k: draw(_LINE_VALUES[k]) for k in keys}
    text = json.dumps(obj)
    return draw(st.sampled_from([text, text.replace('"decks"', '"d\\u0065cks"'), text + " ",
                                 text[:-1] + ', "decks": 2}' if obj else text, "", "[]", "{", "NaN"]))


@settings(max_examples=80, deadline=None)
@given(st.lists(_line_texts(), min_size=1, max_size=30))
def test_parse_lines_is_parse_line_of_each(texts):
    got = batch_lines.parse_lines(texts)
    for text, g in zip(texts, got, strict=True):
        try:
            want = batch_lines.parse_line(text)
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            assert type(g) is type(e) and str(g) == str(e)
        else:
            assert g == want


def test_a_chunk_of_long_lines_holds_fewer_of_them():
    from analyzer import catalog

    every = tuple(catalog().bets.values())
    assert batch_module.chunk_lines(every) == batch_module.BATCH_LINES  # 68 KB lines: 256 of them
    many = every * 40  # lines of about 2.7 MB
    lines = batch_module.chunk_lines(many)
    events = sum(len(b.events) + 1 for b in many)
    assert 8 <= lines < batch_module.BATCH_LINES
    assert lines * 300 * events <= batch_module.CHUNK_BYTES
