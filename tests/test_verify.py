"""``baccarat verify``: replay of hand logs against the drawing rules and the declared shoe,
and the hand-log / tallies readers' handling of bad input."""

import json

import pytest

from analyzer import Shoe
from analyzer.simcheck.logs import LogError, read_hand_log
from analyzer.simcheck.tallies import read_tallies
from analyzer.core.rules import BANKER_DRAWS, play_coup
from analyzer.simcheck.simulate import Faults, simulate_to_text
from analyzer.simcheck.verify import ordinal, replay

EIGHT = Shoe.standard(8)


def log_of(rows, header="shoe,player,banker,outcome", name="hands.csv"):
    return read_hand_log(name, header + "\n" + "\n".join(rows) + "\n")


def messages(rows, shoe=EIGHT, **kw):
    return [str(v) for v in replay(log_of(rows, **kw), shoe).violations]


# -- the worked examples of RULES.md replay cleanly --------------------------------------

def test_rules_examples_pass():
    rows = ["1,7 8,9 K,banker", "1,4 4,2 5,player", "1,3 3,4 3,banker", "1,2 4,A 5,tie",
            "1,2 3 7,4 2 2,banker"]
    assert messages(rows) == []


# -- every drawing rule, each violation named by row and rule --------------------------------

@pytest.mark.parametrize("row, expected", [
    ("1,2 3 4,K 5", "row 2: banker stood on 5 although player's third card was 4"),
    ("1,2 3 9,K 5 2", "row 2: banker drew on 5 although player's third card was 9"),
    ("1,K 6,K 6 2", "row 2: banker drew on 6 although player stood"),
    ("1,K 6,K 4", "row 2: banker stood on 4 although player stood"),
    ("1,K 3,K 7", "row 2: player stood on 3 (player draws on 0-5)"),
    ("1,K 6 2,K 7", "row 2: player drew on 6 (player stands on 6-7)"),
    ("1,K 8 2,K 5", "row 2: player drew a third card although player has a natural 8"),
    ("1,K 5,K 9 2", "row 2: banker drew a third card although banker has a natural 9"),
    ("1,K,K 5", "row 2: player has 1 card (a hand has 2 or 3)"),
    ("1,K 2 3 4,K 5", "row 2: player has 4 cards (a hand has 2 or 3)"),
    ("1,K 5,", "row 2: banker has 0 cards (a hand has 2 or 3)"),
])
def test_each_rule_violation_is_named(row, expected):
    assert messages([row], header="shoe,player,banker") == [expected]


def test_reported_outcome_against_the_cards():
    assert messages(["1,7 8,9 K,player", "1,2 4,A 5,B", "1,2 4,A 5,t"]) == [
        "row 2: reported outcome player but the cards give banker (player 5, banker 9)",
        "row 3: reported outcome banker but the cards give a tie (player 6, banker 6)"]


def test_every_cell_of_the_tableau_is_checked():
    # For every banker total and player third card: the right action (from rules.play_coup, a
    # different path from the vectorised replay) passes, and the wrong one is named.
    name = {v: ("K" if v == 0 else "A" if v == 1 else str(v)) for v in range(10)}
    rows, expected = [], []
    for bt in range(8):
        for p3 in range(10):
            coup = play_coup([0, 0, 3, bt, p3, 5])      # P: K 3 then p3; B: K bt (then 5)
            good = " ".join(name[v] for v in coup.banker)
            draws = BANKER_DRAWS[bt][p3]
            bad = f"K {name[bt]}" + ("" if draws else " 5")
            assert (len(coup.banker) == 3) == draws
            rows.append(f"{len(rows)},K 3 {name[p3]},{good}")
            rows.append(f"{len(rows)},K 3 {name[p3]},{bad}")
            expected.append(f"row {len(rows) + 1}: banker {'stood' if draws else 'drew'} on {bt} "
                            f"although player's third card was {p3}")
    assert messages(rows, header="shoe,player,banker") == expected


# -- cards against the declared shoe ----------------------------------------------------------

def test_ninth_ace_of_spades_from_eight_decks():
    rows = ["1,As 7s,As 7h,tie"] * 4 + ["1,As 7d,K 5,player"]
    assert messages(rows) == ["row 6: shoe '1' deals a 9th As, but the declared shoe holds 8"]
    # a new shoe id starts a full shoe again
    assert messages(rows[:4] + ["2,As 7d,K 5,player"]) == []


def test_rank_limit_and_cards_not_in_the_shoe():
    one_deck = Shoe.standard(1)
    assert messages(["1,A 7,A 8,banker", "1,A 6,A 7,banker", "1,A 7,K 5,player"], shoe=one_deck) == [
        "row 4: shoe '1' deals a 5th ace (A), but the declared shoe holds 4"]
    no_tens = Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4")
    assert messages(["1,Th 5,9 9,banker"], shoe=no_tens) == [
        "row 2: Th is not in the declared shoe (36 cards, suits unknown: A=4 2=4 3=4 4=4 5=4 6=4 7=4 "
        "8=4 9=4 T=0 J=0 Q=0 K=0)"]
    spades_only = Shoe.parse(",".join(f"{r}s=4" for r in "A23456789TJQK"))
    assert messages(["1,Ah 5s,9s 9s,banker"], shoe=spades_only)[0].startswith("row 2: Ah is not in")


def test_seen_cards_count_as_dealt():
    rows = ["1,As 7s,As 7h,tie,As As As As As As", "1,As 7d,K 5,player,"]
    assert messages(rows, header="shoe,player,banker,outcome,seen") == [
        "row 3: shoe '1' deals a 9th As, but the declared shoe holds 8"]
    assert messages(rows[:1] + ["1,K 8,K 8,tie,As"], header="shoe,player,banker,outcome,seen") == [
        "row 3: shoe '1' deals a 9th As, but the declared shoe holds 8"]


def test_shoe_id_must_not_come_back():
    got = messages(["1,7 8,9 K,banker", "2,7 8,9 K,banker", "1,7 8,9 K,banker"])
    assert got == ["row 4: shoe id '1' comes back after other shoes (first used at row 2); "
                   "ids must change at each new shoe and not repeat"]


def test_ordinals_have_english_suffixes():
    assert [ordinal(n) for n in (1, 2, 3, 11, 22, 101, 112)] == ["1st", "2nd", "3rd", "11th", "22nd",
                                                                  "101st", "112th"]


# -- formats ------------------------------------------------------------------------------

def test_jsonl_and_csv_read_the_same_coups():
    csv_log = log_of(["a,7h 8c,9d Ks,banker,", "a,2 3 7,4 2 2,banker,5h", "b,4 4,2 5,,"],
                     header="shoe,player,banker,outcome,seen")
    lines = [json.dumps({"shoe": "a", "player": "7h 8c", "banker": ["9d", "Ks"], "outcome": "banker"}),
             json.dumps({"shoe": "a", "player": "2 3 7", "banker": "4 2 2", "outcome": "banker",
                         "seen": "5h", "extra": 1}),
             "",
             json.dumps({"shoe": "b", "player": "4 4", "banker": "2 5", "outcome": None})]
    js = read_hand_log("hands.jsonl", "\n".join(lines) + "\n")
    for attr in ("player", "banker", "player_len", "banker_len", "outcome", "shoe"):
        assert (getattr(csv_log, attr) == getattr(js, attr)).all(), attr
    assert csv_log.seen == js.seen and js.shoe_ids == ["a", "b"]


def test_trailing_optional_fields_may_be_left_out():
    log = read_hand_log("h.csv", "shoe,player,banker,outcome,seen\n1,7 8,9 K\n1,7 8,9 K,banker\n")
    assert log.coups == 2 and log.outcome.tolist() == [-1, 1] and not log.seen


def test_extra_columns_are_ignored_and_order_is_free():
    log = read_hand_log("h.csv", "table,Banker,note,Player,Shoe\nT1,9 K,hi,7 8,1\nT1,9 K,hi,7 8,1,,\n")
    assert replay(log, EIGHT).ok and log.coups == 2


# -- bad input: file and row named, exit 2, no traceback ---------------------------------------

@pytest.mark.parametrize("text, message", [
    ("", "hands.csv: empty file"),
    ("shoe,player,banker\n", "hands.csv: no coups in the file"),
    ("shoe,player\n1,7 8\n", "hands.csv: row 1: missing column 'banker'"),
    ("shoe,player,banker\n1,7 8\n", "hands.csv: row 2: 2 fields but the header has 3"),
    ("shoe,player,banker\n1,7 8,9 X\n", "hands.csv: row 2: banker: unknown rank 'X'"),
    ("shoe,player,banker\n1,7 8,9 Kx\n", "hands.csv: row 2: banker: unknown card 'Kx'"),
    ("shoe,player,banker\n1,7 8,9 1\n", "hands.csv: row 2: banker: unknown rank '1'"),
    ("shoe,player,banker,outcome\n1,7 8,9 K,dragon\n", "hands.csv: row 2: outcome 'dragon'"),
    ("shoe,player,banker\n,7 8,9 K\n", "hands.csv: row 2: empty shoe id"),
    ("shoe,shoe,player,banker\n", "hands.csv: row 1: column 'shoe' appears twice"),
    ("shoe,player,banker\n1,7h,8c,9d Ks\n", "hands.csv: row 2: 4 fields but the header has 3 (quote"),
])
def test_a_bad_hand_log_is_refused_naming_why(text, message):
    with pytest.raises(LogError) as e:
        read_hand_log("hands.csv", text)
    assert str(e.value).startswith(message)


@pytest.mark.parametrize("line, message", [
    ('{"shoe": 1, "player": "7 8"', "row 1: not valid JSON"),
    ('[1, 2, 3]', "row 1: expected a JSON object"),
    ('{"shoe": 1, "player": "7 8"}', "row 1: missing field 'banker'"),
    ('{"shoe": true, "player": "7 8", "banker": "9 K"}', "row 1: shoe id must be text"),
    ('{"shoe": 1, "player": 78, "banker": "9 K"}', "row 1: player must be a text of card names"),
])
def test_a_bad_json_lines_log_is_refused_naming_its_file(line, message):
    with pytest.raises(LogError) as e:
        read_hand_log("hands.jsonl", line + "\n")
    assert f"hands.jsonl: {message}" in str(e.value)


@pytest.mark.parametrize("text, message", [
    ("", "t.csv: empty file"),
    ("category,count\nplayer,1\nbanker,2\n", "t.csv: no row 'tie'"),
    ("category,count,total_return\nplayer,1,\nbanker,x,\ntie,1,\n", "t.csv: row 3: count 'x'"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nfoo,1,\n", "t.csv: row 5: unknown category 'foo'"),
    ("category,count,total_return\nplayer,1,\nplayer,1,\n", "t.csv: row 3: category 'player' already given"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:banker,3,\n",
     "t.csv: row 5: bet row 'bet:banker' needs a total_return"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:banker,3,1.2.3\n",
     "t.csv: row 5: total_return '1.2.3' is not an exact number"),
    ("category,count,total_return\nplayer,1,5\n", "t.csv: row 2: total_return is only for bet:<id> rows"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\ncards:4,2,\n",
     "t.csv: the cards:4/5/6 rows add up to 2 coups but player + banker + tie = 3"),
    ("category,count,total_return\nplayer,0,\nbanker,0,\ntie,0,\n", "t.csv: no coups"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\ntotals:10-2,1,\n",
     "t.csv: row 5: unknown category 'totals:10-2'"),
    ("category,count,total_return\nplayer,\u00b2,\n", "t.csv: row 2: count '\u00b2' is not a whole number"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:tie,3,\u0661\n",
     "t.csv: row 5: total_return '\u0661' is not an exact number"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:tie,3,nan\n",
     "t.csv: row 5: total_return 'nan' is not an exact number"),
])
def test_a_bad_tallies_file_is_refused_naming_why(text, message):
    with pytest.raises(LogError) as e:
        read_tallies("t.csv", text)
    assert message in str(e.value)


def test_tallies_read_exact_returns():
    t = read_tallies("t.csv", "category,count,total_return\nplayer,5,\nbanker,4,\ntie,1,\n"
                              "bet:banker,10,-1.2\nbet:tie,10,-2/1\n")
    assert t.coups == 10 and str(t.bets["banker"].total_return) == "-6/5" and t.bets["tie"].row == 6


# -- the command ---------------------------------------------------------------------------

def test_verify_exits_0_on_a_good_log_and_1_on_violations_in_each_format(tmp_path, cli):
    good = tmp_path / "good.csv"
    good.write_text("shoe,player,banker,outcome\n1,7 8,9 K,banker\n")
    r = cli("verify", good)
    assert r.code == 0 and "OK: every coup follows" in r.out
    bad = tmp_path / "bad.csv"
    bad.write_text("shoe,player,banker,outcome\n1,7 8,9 K,banker\n1,2 3 4,K 5,player\n1,K 3,K 7,banker\n")
    r = cli("verify", bad)
    assert r.code == 1
    out = r.out
    assert "row 3: banker stood on 5 although player's third card was 4" in out
    assert "row 4: player stood on 3" in out and "FAIL: 2 violations in 2 rows." in out
    r = cli("verify", bad, "--format", "json", "--max-violations", "1")
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["violations"] == 2 and len(doc["listed"]) == 1 and doc["listed"][0]["rule"] == "banker"
    r = cli("verify", bad, "--format", "csv")
    assert r.code == 1 and r.out.splitlines()[1].startswith("3,1,banker,")


@pytest.mark.parametrize("content, args, message", [
    (None, [], "cannot read"),
    ("shoe,player,banker\n1,7 8,9 Q\n", ["--decks", "x"], "--decks must be a whole number"),
    ("shoe,player,banker\n1,7 8,9 Zz\n", [], "row 2: banker: unknown card 'Zz'"),
    ("", [], "empty file"),
    ("shoe,player,banker\n1,7 8,9 Q\n", ["--max-violations", "-1"], "--max-violations must be"),
])
def test_verify_refuses_bad_input_in_one_line(tmp_path, cli, content, args, message):
    path = tmp_path / "h.csv"
    if content is not None:
        path.write_text(content)
    captured = cli("verify", path, *args)
    assert captured.code == 2
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("baccarat: error: ") and message in err and "\n" not in err
    assert "Traceback" not in err


# -- broken simulators caught by the replay ------------------------------------------------

def test_replay_catches_a_wrong_tableau_cell_deterministically():
    text, _ = simulate_to_text(EIGHT, 20, 11, faults=Faults(banker_cell=(5, 4)))
    rep = replay(read_hand_log("bad.csv", text), EIGHT)
    assert len(rep.violations) == 7, "20 shoes hold 7 coups of banker 5 against a third card 4"
    assert {v.rule for v in rep.violations} == {"banker"}
    assert all(v.message == "banker stood on 5 although player's third card was 4" for v in rep.violations)
    good, _ = simulate_to_text(EIGHT, 20, 11)
    assert replay(read_hand_log("good.csv", good), EIGHT).ok


def test_replay_catches_a_ninth_ace_of_spades():
    text, _ = simulate_to_text(EIGHT, 4, 5, faults=Faults(extra_card="As"))
    rep = replay(read_hand_log("bad.csv", text), EIGHT)
    assert rep.violations and {v.rule for v in rep.violations} == {"overdealt"}
    assert rep.violations[0].message.endswith("deals a 9th As, but the declared shoe holds 8")


def test_replay_catches_dealing_with_replacement():
    # Cards never used up: within a shoe some card soon comes out a ninth time.
    text, _ = simulate_to_text(EIGHT, 2, 3, faults=Faults(with_replacement=True))
    rep = replay(read_hand_log("bad.csv", text), EIGHT)
    assert any(v.rule == "overdealt" for v in rep.violations)
