"""``--rules`` / ``--player-option`` on parsheet, bankroll, programs, midcoup and report.

Every command that plays coups takes the options; the default output is unchanged byte for
byte (also with a rules file restating Punto Banco); ``--rules gold`` gives the Gold numbers of
``baccarat odds --rules gold``; bad input is one line, exit 2, and no file.
"""

import json
from pathlib import Path

import pytest

from analyzer.bets.rules_files import rules_toml
from analyzer.cli import build_parser
from analyzer.core.rules import PUNTO_BANCO

PLAYING = ("odds", "decks", "distributions", "eor", "payouts", "midcoup", "simulate", "verify", "check",
           "study", "parsheet", "bankroll", "programs", "runs", "report", "design", "export", "overlay")


@pytest.fixture
def default_file(tmp_path):
    f = tmp_path / "pb.toml"
    f.write_text(rules_toml(PUNTO_BANCO).replace('name = "punto_banco"', 'name = "my copy"'))
    return f


def test_every_command_that_plays_coups_takes_the_rules_options():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in PLAYING:
        options = {o for a in sub.choices[name]._actions for o in a.option_strings}
        assert {"--rules", "--player-option"} <= options, name


SMALL = {
    "parsheet md": ["parsheet", "--bets", "banker,tie", "--decks", "1", "--by-decks", "1,2"],
    "parsheet json": ["parsheet", "--bets", "player,banker", "--decks", "1,2", "--by-decks", "1",
                      "--format", "json"],
    "parsheet csv": ["parsheet", "--bets", "player", "--decks", "1", "--by-decks", "1", "--format", "csv"],
    "bankroll md": ["bankroll", "--decks", "1", "--coups", "6", "-q"],
    "bankroll json": ["bankroll", "--decks", "1", "--bet", "player", "--coups", "4", "-q", "--format", "json"],
    "programs md": ["programs", "--decks", "1", "--hands", "20", "--exits", "5"],
    "programs json": ["programs", "--decks", "1", "--bet", "player", "--hands", "30", "--format", "json"],
    "midcoup insurance": ["midcoup", "--table", "insurance", "--decks", "1"],
    "midcoup insurance json": ["midcoup", "--table", "insurance", "--decks", "1", "--format", "json"],
    "midcoup gold": ["midcoup", "--table", "gold", "--decks", "1", "--format", "json"],
    "decks json": ["decks", "--decks-list", "1", "--bets", "player", "--format", "json"],
    "eor": ["eor", "--decks", "1", "--bets", "player"],
}


#: cases of more than a few seconds, with the slow tests (.ci/run runs them)
SLOW_CASES = {"midcoup gold"}      # 4.4 s; test_midcoup.py::test_midcoup_gold_table_counts_the_wizard_of_odds_outcomes prints Gold's table by default


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CASES else c for c in SMALL])
def test_default_output_is_byte_identical(cli, default_file, case):
    code, base, _ = cli(*SMALL[case])
    assert code == 0 and base
    for spec in ("punto_banco", default_file):
        code, out, _ = cli(*SMALL[case], "--rules", spec)
        assert code == 0 and out == base, spec


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_known_card_edges_default_and_gold(cli, default_file):
    argv = ["midcoup", "--table", "known-card-edges", "--shoe", "3=6,5=6,8=6,K=8", "--format", "json"]
    code, base, _ = cli(*argv)
    code, same, _ = cli(*argv, "--rules", default_file)
    assert code == 0 and same == base and "rules" not in json.loads(base)
    code, gold, _ = cli(*argv, "--rules", "gold")
    doc = json.loads(gold)
    assert code == 0 and doc["rules"].startswith("gold (") and doc["edges"] != json.loads(base)["edges"]


def _odds(cli, *extra, decks="8"):
    code, out, _ = cli("odds", "--decks", decks, "--bets", "player,banker,tie", "--format", "json",
                       *extra)
    assert code == 0
    return json.loads(out)


@pytest.mark.parametrize("play", [None, "stand", "best"])
def test_parsheet_gives_the_gold_numbers(cli, play):
    extra = ["--rules", "gold"] + (["--player-option", play] if play else [])
    odds = _odds(cli, *extra)
    code, out, _ = cli("parsheet", "--bets", "player,banker,tie", "--decks", "8", "--by-decks", "8",
                       "--format", "json", *extra)
    assert code == 0
    doc = json.loads(out)
    assert doc["rules"]["game"].startswith("gold") and "standard Punto Banco" not in doc["rules"]["text"]
    assert doc["rules"]["banker_draws"][1] == {"banker_total": [4, 5], "player_third_card_draw": "3-7",
                                               "stand": "0-2, 8, 9"}
    for w in doc["wagers"]:
        assert w["house_edge"] == odds["bets"][w["id"]]["house_edge"]
        assert w["house_edge_by_decks"]["8"] == w["house_edge"]
        assert [(r["event"], r["ways"], r["probability"]) for r in w["return_table"]] == \
            [(e["event"], e["ways"], e["probability"]) for e in odds["bets"][w["id"]]["events"]]
    assert odds["outcomes"]["player"]["ways"] == doc["wagers"][0]["return_table"][0]["ways"]
    code, md, _ = cli("parsheet", "--bets", "banker", "--decks", "8", "--by-decks", "8", *extra)
    assert "Rules: gold" in md and "Standard Punto Banco" not in md
    assert f"Reproduce: `baccarat parsheet --decks 8 --bets banker --by-decks 8 {' '.join(extra)}`" in md
    assert "| 4, 5           | 3-7 " in md


def test_parsheet_best_plays_each_shoe_best(cli):
    """The best play depends on the shoe: each --decks and --by-decks shoe plays its own."""
    extra = ["--rules", "gold", "--player-option", "best"]
    one, two = (_odds(cli, *extra, decks=d)["bets"]["player"]["house_edge"] for d in ("1", "2"))
    code, out, _ = cli("parsheet", "--bets", "player", "--decks", "1,2", "--by-decks", "1,2",
                       "--format", "json", *extra)
    doc = json.loads(out)
    assert code == 0 and [s["wagers"][0]["house_edge"] for s in doc["sheets"]] == [one, two]
    assert doc["sheets"][0]["wagers"][0]["house_edge_by_decks"] == {"1": one, "2": two}


def test_parsheet_xlsx_names_the_rules(tmp_path, cli):
    openpyxl = pytest.importorskip("openpyxl")
    f = tmp_path / "gold.xlsx"
    code, _, _ = cli("parsheet", "--bets", "player", "--decks", "1", "--by-decks", "1",
                     "--rules", "gold", "--format", "xlsx", "--output", f)
    about = openpyxl.load_workbook(f)["About"]
    cells = [c.value for row in about.iter_rows() for c in row if c.value]
    assert code == 0 and any(str(c).startswith("Rules: gold") for c in cells)
    assert any("--rules gold" in str(c) for c in cells)


@pytest.mark.parametrize("play", [None, "stand"])
def test_bankroll_plays_the_gold_bet(cli, play):
    extra = ["--rules", "gold"] + (["--player-option", play] if play else [])
    odds = _odds(cli, *extra)
    code, out, _ = cli("bankroll", "--bet", "player", "--coups", "3", "-q", "--format", "json", *extra)
    doc = json.loads(out)
    assert code == 0 and doc["rules"].startswith("gold")
    assert [(e["event"], e["probability"]) for e in doc["bet"]["events"]] == \
        [(e["event"], e["probability"]) for e in odds["bets"]["player"]["events"]]
    code, md, _ = cli("bankroll", "--bet", "player", "--coups", "3", "-q", *extra)
    assert "| rules " in md and "gold" in md


@pytest.mark.slow       # 3 s; test_midcoup.py::test_midcoup_gold_table_counts_the_wizard_of_odds_outcomes prints the Gold table by default
def test_midcoup_gold_table_of_another_rule_set(cli, tmp_path):
    f = tmp_path / "g4.toml"
    from analyzer.core.rules import GOLD
    f.write_text(rules_toml(GOLD).replace('player_option = "5"', 'player_option = "4, 5"')
                 .replace('name = "gold"', 'name = "gold on 4 or 5"'))
    code, out, _ = cli("midcoup", "--table", "gold", "--decks", "1", "--rules", f)
    assert code == 0 and "The Player's option (gold on 4 or 5)" in out and "draws on 4, 5" in out
    assert f"--rules {f}" in out
    code, base, _ = cli("midcoup", "--table", "gold", "--decks", "1")
    code, same, _ = cli("midcoup", "--table", "gold", "--decks", "1", "--rules", "gold")
    assert same.replace(" --rules gold`", "`") == base


@pytest.fixture
def bad_rules(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text(rules_toml(PUNTO_BANCO).replace('"6" = {', '"16" = {'))
    return f


BAD = [(["--rules", "nosuch"], "unknown rule set 'nosuch'"),
       (["--rules", "BAD"], "bad.toml"),
       (["--player-option", "stand"], "offers the Player no option"),
       (["--rules", "gold", "--player-option", "sometimes"], "unknown --player-option 'sometimes'"),
       (["--rules", "punto_banco", "--player-option", "best"], "offers the Player no option")]


def _bad_commands(tmp: Path):
    return {
        "parsheet": (["parsheet", "--bets", "player", "--decks", "1", "--output", tmp / "p.md"], [tmp / "p.md"]),
        "parsheet charts": (["parsheet", "--bets", "player", "--decks", "1", "--charts", tmp / "charts",
                             "--output", tmp / "p.json", "--format", "json"], [tmp / "charts", tmp / "p.json"]),
        "bankroll": (["bankroll", "--coups", "2", "-q", "--output", tmp / "b.md", "--chart", tmp / "b.png"],
                     [tmp / "b.md", tmp / "b.png"]),
        "midcoup": (["midcoup", "--table", "insurance", "--decks", "1", "--output", tmp / "m.md"], [tmp / "m.md"]),
        "report": (["report", "--out", tmp / "reports", "-q"], [tmp / "reports"]),
    }


@pytest.mark.parametrize("bad,message", BAD)
@pytest.mark.parametrize("command", ["parsheet", "parsheet charts", "bankroll", "midcoup", "report"])
def test_bad_rules_are_one_line_exit_2_and_no_file(cli, tmp_path, bad_rules, command, bad, message):
    argv, outputs = _bad_commands(tmp_path)[command]
    bad = [str(bad_rules) if a == "BAD" else a for a in bad]
    if command == "parsheet charts":
        pytest.importorskip("matplotlib")
    code, out, err = cli(*argv, *bad)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("baccarat: error: ")
    assert message in err
    assert not any(p.exists() for p in outputs)


def test_midcoup_gold_table_refuses_a_player_option_and_a_rule_set_without_option(cli, tmp_path):
    f = tmp_path / "m.json"
    code, out, err = cli("midcoup", "--table", "gold", "--rules", "gold", "--player-option", "best",
                         "--output", f)
    assert code == 2 and "drop --player-option" in err and err.count("\n") == 1 and not f.exists()
    nopt = tmp_path / "nopt.toml"
    from analyzer.core.rules import GOLD
    # (another name: a changed tableau cannot pass for the built-in Gold)
    nopt.write_text(rules_toml(GOLD).replace('player_option = "5"\n', "").replace('name = "gold"', 'name = "gold_no_option"'))
    code, out, err = cli("midcoup", "--table", "gold", "--rules", nopt)
    assert code == 2 and "offers none" in err and err.count("\n") == 1


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_report_under_gold(tmp_path, cli, monkeypatch, small_reports):
    """Every step and file of the folder, on the three-bet catalog: every report names Gold,
    the numbers are Gold's."""
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    out = tmp_path / "gold"
    code, _, err = cli("report", "--out", out, "-q", "--decks-list", "8", "--rules", "gold",
                       "--player-option", "stand")
    assert code == 0, err
    words = "--rules gold --player-option stand"
    manifest = json.loads((out / ".baccarat-manifest.json").read_text())
    assert manifest["rules"]["options"] == words and manifest["rules"]["description"].startswith("gold, Player stands")
    readme = (out / "README.md").read_text()
    assert f"`baccarat report --out reports/ {words}`" in readme and "Rules: gold, Player stands on 5" in readme
    mds = sorted(out.glob("*.md")) + sorted(out.glob("parsheets/*.md"))
    assert len(mds) > 10
    for p in mds:
        text = p.read_text()
        if p.name == "README.md":
            continue
        assert "Rules: standard Punto Banco" not in text and "Punto Banco (analyzer/core/RULES.md)" not in text, p.name
        if p.name == "gold_8_decks.md":                  # plays the option every way
            assert "Reproduce: `baccarat midcoup --table gold --decks 8 --rules gold`" in text
        else:
            assert f"{words}`" in text and "gold" in text, p.name
    for p in sorted(out.glob("[a-z]*.json")) + sorted(out.glob("parsheets/*.json")):
        doc = json.loads(p.read_text())
        rules = doc["rules"]
        assert (rules["game"] if isinstance(rules, dict) else rules).startswith("gold"), p.name
    code, text, _ = cli("odds", "--decks", "8", "--bets", ",".join(small_reports.bets), "--format", "json",
                        *words.split())
    assert (out / "odds_8_decks.json").read_text() == text          # the report is the command's output
    odds = _odds(cli, "--rules", "gold", "--player-option", "stand")
    report = json.loads((out / "odds_8_decks.json").read_text())
    assert report["outcomes"] == odds["outcomes"]
    assert report["bets"]["banker"] == odds["bets"]["banker"]
    sheet = json.loads((out / "parsheets" / "main.json").read_text())
    assert {w["id"]: w["house_edge"] for w in sheet["wagers"]} == \
        {b: odds["bets"][b]["house_edge"] for b in ("player", "banker", "tie")}
