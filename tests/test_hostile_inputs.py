"""Hostile inputs (huge numbers, deep nesting, paths that are folders or inputs, bad logs):
each gets one clear line and exit 2, or the right answer; nothing is expanded or allocated
before it is checked."""

from __future__ import annotations

import os
import subprocess

import pytest

from analyzer import Shoe, Solver
from analyzer.bets.catalog import parse_catalog
from analyzer.core.errors import BetError


def _bet(when: str, pays: str = "1") -> str:
    return f'[[bet]]\nid = "x"\nevents = [ {{ event = "e", when = "{when}", pays = {pays} }} ]\n'


def test_a_condition_constant_of_any_length_is_read_exactly():
    """More digits than Python's int() converts at once (4,300): the same ways as a short
    constant of the same meaning."""
    huge = "1" * 5000
    bets = [parse_catalog(_bet(f"player_total + {huge} >= {huge} + banker_total"), "t").bets["x"],
            parse_catalog(_bet("player_total >= banker_total"), "t").bets["x"]]
    shoe = Shoe.standard(1)
    a, b = (Solver([bet]).solve(shoe).bet("x").events[0].ways for bet in bets)
    assert a == b > 0
    never = parse_catalog(_bet(f"player_total == {huge}"), "t").bets["x"]
    assert Solver([never]).solve(shoe).bet("x").events[0].ways == 0


@pytest.mark.parametrize("text, words", [
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested more deeply"),
    ("bet = 5\n", "'bet' must be a list of tables"),
    ("table = \"x\"\n", "'table' must be a list of tables"),
    (_bet("player_natural", "1" * 5000), "more than 4,300 digits"),
])
def test_bets_files_that_are_not_bets_are_one_line(tmp_path, cli, text, words):
    f = tmp_path / "bets.toml"
    f.write_text(text)
    assert words in cli.error("odds", "--bets-file", f, "-q")


def test_a_deeply_nested_rules_file_is_one_line(tmp_path, cli):
    f = tmp_path / "rules.toml"
    f.write_text("name = " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested more deeply" in cli.error("odds", "--rules", f, "-q")


@pytest.mark.parametrize("cell", ["2-99999999999999999999999", "0-10000000", "0-5, 7-123456789012345678901"])
def test_a_rules_cell_is_checked_before_its_ranges_are_spelt_out(tmp_path, cli, cell):
    """A range beyond 0-9 is refused from its ends (it used to be expanded first: 2.3 GB)."""
    f = tmp_path / "rules.toml"
    f.write_text(f'name = "x"\nplayer_draws = "{cell}"\nbanker = {{}}\nbanker_if_player_stood = "0-5"\n')
    assert "is outside 0-9" in cli.error("odds", "--rules", f, "-q")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_output_is_one_line(cli):
    with open("/dev/full", "w") as full:
        r = cli.process("odds", "-q", stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["baccarat: error: cannot write to standard output: No space left on device"]


def test_a_closed_standard_output_is_one_line(cli):
    r = cli.process("odds", "-q", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["baccarat: error: cannot write to standard output: it is closed "
                                     "(give --output FILE)"]


def test_a_study_of_more_chunks_than_it_tracks_is_refused_before_the_work(cli):
    err = cli.error("study", "--shoes", "1000000000000", "--no-state", "-q")
    assert "more than the 1,000,000 a study keeps track of" in err and "--chunk-shoes 1000000 " in err


@pytest.mark.parametrize("group", ["[player_card1, card1]", "[card2, banker_card1]", "[player_card2, card3]",
                                   "[banker_card2, card4]"])
def test_a_group_naming_one_card_twice_is_refused(group):
    """``pairs([player_card1, card1]) == 1`` was always true: the same card counted twice."""
    with pytest.raises(BetError, match="are the same card"):
        parse_catalog(_bet(f"pairs({group}) == 1"), "t")
    parse_catalog(_bet("pairs([player_card1, card2]) == 1"), "t")      # two cards: fine


@pytest.mark.parametrize("when", ["player_card1_colour > red", "count(first4, colour <= black) == 1"])
def test_colours_have_no_order(when):
    with pytest.raises(BetError, match="a colour can only be compared with == or !="):
        parse_catalog(_bet(when), "t")


def test_an_output_path_naming_a_folder_is_refused(tmp_path, cli):
    target = tmp_path / "newdir"
    assert "names a folder" in cli.error("odds", "-q", "-o", f"{target}/")
    assert not target.exists()


def test_an_output_that_is_an_input_is_refused(tmp_path, cli):
    """``check log.csv -o log.csv`` and the like replaced the input; by any name (links followed)."""
    log = tmp_path / "log.csv"
    assert cli("simulate", "--shoes", "2", "--seed", "1", "--log", log).code == 0
    before = log.read_bytes()
    (tmp_path / "link.csv").symlink_to(log)
    batch = tmp_path / "in.jsonl"
    batch.write_text('{"decks": 8}\n')
    for args in (["check", str(log), "-o", str(log)], ["verify", str(log), "-o", str(tmp_path / "." / "log.csv")],
                 ["check", str(tmp_path / "link.csv"), "-o", str(log)], ["odds", "--batch", str(batch), "-o", str(batch)]):
        assert "it is an input of this command" in cli.error(*args), args
    assert log.read_bytes() == before and batch.read_text() == '{"decks": 8}\n'


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
@pytest.mark.parametrize("names", [("player total", "banker total"), ("player_total", "banker_total"),
                                   ("PTotal", "BTotal")])
def test_verify_checks_the_totals_of_a_log_in_the_projects_format(tmp_path, cli, suffix, names):
    """The project's own format (shoe, player, banker, outcome) with total columns: verify said OK
    when every stated total was wrong (the reader dropped them as unknown columns)."""
    import csv
    import json
    log = tmp_path / f"log.{suffix}"
    assert cli("simulate", "--shoes", "2", "--seed", "3", "--log", log).code == 0
    r = cli("verify", log)
    assert r.code == 0 and "OK" in r.out
    right, wrong = tmp_path / f"right.{suffix}", tmp_path / f"wrong.{suffix}"
    if suffix == "csv":
        rows = list(csv.reader(log.open()))
        with right.open("w", newline="") as r, wrong.open("w", newline="") as w:
            cr, cw = csv.writer(r), csv.writer(w)
            cr.writerow(rows[0] + list(names))
            cw.writerow(rows[0] + list(names))
            for row in rows[1:]:
                p, b = _totals(row[1]), _totals(row[2])
                cr.writerow(row + [p, b])
                cw.writerow(row + [(p + 1) % 10, b])
    else:
        lines = [json.loads(x) for x in log.read_text().splitlines()]
        right.write_text("".join(json.dumps({**o, names[0]: _totals(o["player"]), names[1]: _totals(o["banker"])})
                                 + "\n" for o in lines))
        wrong.write_text("".join(json.dumps({**o, names[0]: (_totals(o["player"]) + 1) % 10,
                                             names[1]: _totals(o["banker"])}) + "\n" for o in lines))
    r = cli("verify", right)
    assert r.code == 0 and "OK" in r.out
    r = cli("verify", wrong)
    assert r.code == 1
    assert "reported player total" in r.out and "OK:" not in r.out


def _totals(cards) -> int:
    point = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0, **{str(d): d for d in range(2, 10)}}
    words = cards.split() if isinstance(cards, str) else cards
    return sum(point[c[0]] for c in words) % 10


PB_TABLE = '''player_draws = "0-5"
banker_if_player_stood = "0-5"

[banker]
"0, 1, 2" = { draws = "any", stands = "-" }
"3" = { draws = "0-7, 9", stands = "8" }
"4" = { draws = "2-7", stands = "0, 1, 8, 9" }
"5" = { draws = "4-7", stands = "0-3, 8, 9" }
"6" = { draws = "6, 7", stands = "0-5, 8, 9" }
"7" = { draws = "never", stands = "always" }
'''


def test_a_rules_file_cannot_pass_for_a_built_in_rule_set(tmp_path, cli):
    f = tmp_path / "r.toml"
    f.write_text('name = "punto_banco"\nnaturals = "8, 9"\n' + PB_TABLE)
    assert cli("odds", "--rules", f, "-q").code == 0             # the same tableau: its name is fine
    f.write_text('name = "punto_banco"\nnaturals = "-"\n' + PB_TABLE + '"8, 9" = { draws = "never", stands = "always" }\n')
    assert "is a built-in rule set's" in cli.error("odds", "--rules", f, "-q")


def test_a_rule_set_without_naturals_says_so(tmp_path, cli):
    f = tmp_path / "r.toml"
    f.write_text('name = "no_naturals"\nnaturals = "-"\n' + PB_TABLE + '"8, 9" = { draws = "never", stands = "always" }\n')
    r = cli("rules", "--rules", f)
    assert r.code == 0
    assert "- Naturals: none (no two-card total ends the coup)." in r.out and "a two-card  ends" not in r.out
    r = cli("odds", "--rules", f, "-q")
    assert r.code == 0
    out = r.out
    assert "(no naturals, Player draws on 0-5" in out and "naturals ," not in out


def test_verify_of_a_tallies_file_says_what_it_is(tmp_path, cli):
    tallies = tmp_path / "t.csv"
    assert cli("simulate", "--shoes", "1", "--seed", "1", "--tallies", tallies).code == 0
    assert "this is a tallies file" in cli.error("verify", tallies)


@pytest.mark.parametrize("line, words", [
    ('{"shoe": 1, "player": "9h 2c", "banker": "8d Kc", "banker": "Ks 2d"}', "key 'banker' is given twice"),
    ('{"shoe": 1, "player": "9h 2c", "Banker": "8d Kc", "banker": "Ks 2d"}', "name the same field"),
])
def test_a_json_log_line_with_a_key_twice_is_refused(tmp_path, cli, line, words):
    """JSON keeps the last of two equal keys silently; a log line with one is refused."""
    f = tmp_path / "log.jsonl"
    f.write_text(line + "\n")
    assert words in cli.error("verify", f)


def test_per_card_columns_with_a_hole_are_refused(tmp_path, cli):
    """``p2`` blank and ``p3`` given was read as a two-card hand."""
    f = tmp_path / "log.csv"
    f.write_text("shoe,p1,p2,p3,b1,b2,b3\n1,2h,,3c,8d,Kc,\n")
    assert "column p2 is blank but p3 holds a card" in cli.error("verify", f)
    f.write_text("shoe,p1,p2,p3,b1,b2,b3\n1,2h,3s,4c,7d,Kc,\n")
    assert cli("verify", f).code == 0


def test_the_readme_says_to_activate_the_environment():
    from pathlib import Path
    text = (Path(__file__).parents[1] / "README.md").read_text()
    assert "source .venv/bin/activate" in text.split("## ")[0]


def test_the_check_verdict_comes_first_and_on_stderr_with_an_output_file(tmp_path, cli):
    log = tmp_path / "log.csv"
    assert cli("simulate", "--shoes", "2", "--seed", "1", "--log", log).code == 0
    r = cli("check", log)
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[2].startswith("Verdict: **PASS**") and lines[2].split(": ", 1)[1] in lines[-20:]
    report = tmp_path / "report.md"
    cap = cli("check", log, "-o", report)
    assert cap.code == 0
    assert cap.out == "" and cap.err.startswith("check: PASS: no test rejects") and str(report) in cap.err


def test_an_xlsx_par_sheet_needs_an_xlsx_name(tmp_path, cli):
    """``parsheet --format xlsx -o sheet.txt`` wrote a workbook into a .txt file."""
    target = tmp_path / "sheet.txt"
    assert "a name ending in .xlsx" in cli.error("parsheet", "--format", "xlsx", "-o", target)
    assert not target.exists()


def test_midcoup_gold_reports_progress_per_player_choice(monkeypatch):
    """``midcoup --table gold`` compiled every bet three times with no progress shown."""
    from analyzer.reports import midcoup
    from analyzer.core.rules import GOLD
    from analyzer.bets import catalog
    steps = []
    got = midcoup.gold_table(Shoe.standard(1), catalog().select(["banker", "dragon7"]), GOLD, progress=steps.append)
    assert steps == [1, 1, 1] and len(got) == 3


def test_a_study_resumed_whole_says_the_cluster_had_nothing_to_do(tmp_path, cli):
    state = tmp_path / "state"
    args = ["study", "--shoes", "2", "--decks", "1", "--state", state, "-q", "--format", "json"]
    assert cli(*args).code == 0
    r = cli(*args, "--cluster", "local")
    assert r.code == 0
    err = r.err
    assert "were already in" in err and "nothing was sent to the cluster" in err


def test_the_card_budget_has_an_upper_bound(cli):
    """``--card-budget`` beyond a billion sequences is refused before any work (it grew memory
    with every chunk once, 2.7 GB and a traceback at 10**10)."""
    assert "--card-budget must be at most 1,000,000,000" in cli.error("odds", "--card-budget", "10000000000", "-q")


def test_a_set_of_card_bets_has_one_budget(tmp_path, cli):
    """Ten card bets each within the per-bet budget (about 21 million sequences) but together
    beyond the set's are refused before any is compiled (6,000 card bets ran for half an hour
    silently once)."""
    import time
    from analyzer.core.solver import MAX_SET_SEQUENCES
    ids = [f"s{r}{suit}" for r in (2, 3, 4, 5, 6) for suit in ("hearts", "spades")]
    bets = "".join(
        f'[[bet]]\nid = "s{r}{suit}"\nevents = [ {{ event = "e", when = "count([player_card3, banker_card3, card1, '
        f'card2], suit == {suit}) == 2 and count([card3, card4], rank == {r}) == 1", pays = 1 }} ]\n'
        for r in (2, 3, 4, 5, 6) for suit in ("hearts", "spades"))
    path = tmp_path / "b.toml"
    path.write_text(bets)
    start = time.process_time()
    err = cli.error("odds", "--bets-file", path, "--bets", ",".join(ids), "-q")
    assert time.process_time() - start < 30          # estimated, not compiled (about 100 s)
    assert "these 10 card bets need" in err and f"more than the {MAX_SET_SEQUENCES:,} one run" in err



def _odds_json(cli, *argv) -> dict:
    doc = cli.json("odds", "--format", "json", *argv)
    for bet in doc["bets"].values():
        assert sum(e["ways"] for e in bet["events"]) == doc["deals"]
    return doc


@pytest.mark.parametrize("argv, bet_id", [(["--known", "1=As"], "all_red"), (["--known", "1=9"], "grand_monkey"),
                                          (["--known", "1=9", "--known", "5=K"], "grand_monkey")])
def test_a_known_card_that_makes_a_card_bet_impossible_is_0_ways(cli, argv, bet_id):
    """Tracebacks 1 (``ValueError: need at least one array to concatenate``): an ace of
    spades is no red card, a 9 is no monkey, so no deal wins and the EV is -1."""
    bet = _odds_json(cli, *argv, "--bets", bet_id)["bets"][bet_id]
    assert bet["ev"] == "-1/1" and bet["events"][-1]["ways"] > 0
    assert all(e["ways"] == 0 for e in bet["events"][:-1])


def test_a_known_card_that_leaves_a_card_bet_possible_sums_over_its_suits(cli):
    """A known 9 of any suit is the four known nines together (All Red wins only on the two red ones)."""
    whole = _odds_json(cli, "--known", "1=9", "--known", "5=K", "--bets", "all_red")
    parts = [_odds_json(cli, "--known", f"1=9{s}", "--known", "5=K", "--bets", "all_red") for s in "shdc"]
    assert whole["deals"] == sum(p["deals"] for p in parts)
    for i, e in enumerate(whole["bets"]["all_red"]["events"]):
        assert e["ways"] == sum(p["bets"]["all_red"]["events"][i]["ways"] for p in parts)
    assert [p["bets"]["all_red"]["ev"] for p in parts][0::3] == ["-1/1", "-1/1"]       # spades, clubs


@pytest.mark.slow
def test_the_readmes_known_cards_with_every_bet_are_answered(cli):
    """``odds --known 1=9 --known 5=K --bets all``, the README's known cards, tracebacked (12 s)."""
    doc = _odds_json(cli, "--known", "1=9", "--known", "5=K", "--bets", "all")
    assert len(doc["bets"]) >= 87 and doc["bets"]["grand_monkey"]["ev"] == "-1/1"


def test_impossible_known_cards_in_batch_lines_are_0_ways(tmp_path, cli):
    import json
    path = tmp_path / "in.jsonl"
    path.write_text('{"known": {"1": "As"}}\n{"known": {"1": "9", "5": "K"}}\n')
    r = cli("odds", "--batch", path, "--bets", "all_red,grand_monkey")
    assert r.code == 0
    first, second = (json.loads(line) for line in r.out.splitlines())
    assert first["bets"]["all_red"]["ev"] == second["bets"]["grand_monkey"]["ev"] == "-1/1"


def test_an_impossible_custom_all_bet_with_a_known_card_loses_every_deal(tmp_path, cli):
    path = tmp_path / "b.toml"
    path.write_text(_bet("all(first4, colour == red)", "20"))
    bet = _odds_json(cli, "--known", "2=Kc", "--bets-file", str(path), "--bets", "x")["bets"]["x"]
    assert bet["ev"] == "-1/1"
