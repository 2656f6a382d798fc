"""Drawing rules as data: the Rules value, rules files, --rules, and the default unchanged."""

from __future__ import annotations

import json

import pytest

from analyzer import BANKER_RULE_TABLE, Shoe, catalog
from analyzer.bets.pricing import analyze
from analyzer.bets.rules_files import load_rules, parse_rules, rules_toml
from analyzer.core.engine import coup_table
from analyzer.core.rules import (BANKER_DRAWS, BUILTIN_RULES, GOLD, PUNTO_BANCO, Rules, RulesError,
                                 format_values, parse_values)
from analyzer.core.solver import Solver

PUBLISHED_8 = {"player": 2_230_518_282_592_256, "banker": 2_292_252_566_437_888, "tie": 475_627_426_473_216}
DEALS8 = 4_998_398_275_503_360

DEFAULT_FILE = """\
name = "restated"
naturals = [8, 9]
player_draws = "0-5"
banker_if_player_stood = "0-5"

[banker]
"0-2" = { draws = "any" }
"3" = { draws = "0-7, 9", stands = "8" }
"4" = { draws = "2-7", stands = "0, 1, 8, 9" }
"5" = { draws = [4, 5, 6, 7] }
"6" = { draws = "6, 7", stands = "0-5, 8, 9" }
"7" = { draws = "never", stands = "always" }
"""


def test_punto_banco_is_the_engines_tables_and_the_default_file():
    assert PUNTO_BANCO.banker == BANKER_DRAWS
    assert PUNTO_BANCO.banker_rows() == BANKER_RULE_TABLE
    assert PUNTO_BANCO.is_default and not GOLD.is_default
    assert hash(PUNTO_BANCO) == hash(parse_rules(DEFAULT_FILE)) and parse_rules(DEFAULT_FILE) == PUNTO_BANCO
    assert coup_table() is coup_table(PUNTO_BANCO) is coup_table(parse_rules(DEFAULT_FILE))
    assert set(BUILTIN_RULES) == {"punto_banco", "gold"}


def test_gold_tables_are_the_published_tableau():
    assert GOLD.banker_rows() == (((0, 1, 2, 3), "any", "-"), ((4, 5), "3-7", "0-2, 8, 9"),
                                  ((6, 7), "never", "always"))
    assert GOLD.player_draws == frozenset(range(6)) and GOLD.player_option == frozenset({5})
    assert GOLD.banker_if_player_stood == frozenset(range(6))
    assert GOLD.with_player_option("stand").player_draws == frozenset(range(5))
    with pytest.raises(RulesError):
        PUNTO_BANCO.with_player_option("stand")


@pytest.mark.parametrize("rules", list(BUILTIN_RULES.values()))
def test_rules_toml_round_trips(rules):
    assert parse_rules(rules_toml(rules)) == rules
    for totals, draws, stands in rules.banker_rows():
        assert parse_values(draws) | parse_values(stands) == frozenset(range(10))


def test_format_values_inverts_parse_values():
    for cell in ("any", "never", "0-7, 9", "0, 1, 8, 9", "4-7", "6, 7", "0-3, 8, 9", "3", "1, 3, 5"):
        assert format_values(parse_values(cell)) == cell


def test_default_counts_unchanged_by_every_way_of_naming_the_default(tmp_path):
    f = tmp_path / "pb.toml"
    f.write_text(DEFAULT_FILE)
    for rules in (None, PUNTO_BANCO, "punto_banco", str(f)):
        a = analyze(Shoe.standard(8), rules=rules)
        assert a.deals == DEALS8 and a.outcomes == PUBLISHED_8
    bets = catalog().select(["player", "banker", "tie", "player_pair", "dragon7", "perfect_pair"])
    s = Shoe.standard(6)
    assert Solver(bets).solve(s) == Solver(bets, rules=load_rules(str(f))).solve(s)


@pytest.mark.parametrize("argv", [
    ["odds"], ["odds", "--format", "json", "--bets", "player,dragon7"], ["odds", "--format", "csv"],
    ["distributions", "--decks", "1"], ["eor", "--decks", "2"], ["payouts", "--decks", "1"],
    ["decks", "--decks-list", "1,8", "--bets", "player,banker"],
])
def test_cli_default_output_is_byte_identical(cli, tmp_path, argv):
    f = tmp_path / "pb.toml"
    f.write_text(DEFAULT_FILE)
    code, base, _ = cli(*argv)
    assert code == 0
    for spec in ("punto_banco", str(f)):
        code, out, _ = cli(*argv, "--rules", spec)
        assert code == 0
        # the Reproduce line of the report commands names the option; everything else is identical
        strip = lambda t: "\n".join(line for line in t.splitlines() if "Reproduce" not in line)
        assert strip(out) == strip(base)
        if argv[0] == "odds":
            assert out == base


def test_cli_names_a_rule_set_that_is_not_the_default(cli):
    code, out, _ = cli("odds", "--rules", "gold")
    assert code == 0 and "Rules: gold (" in out and "standard Punto Banco" not in out
    assert "2232878486302976" in out
    code, out, _ = cli("odds", "--rules", "gold", "--player-option", "stand", "--format", "json")
    doc = json.loads(out)
    assert doc["rules"].startswith("gold, Player stands on 5")
    for cmd in (["distributions", "--decks", "1"], ["eor", "--decks", "1"], ["payouts", "--decks", "1"],
                ["decks", "--decks-list", "1", "--bets", "player"]):
        code, out, _ = cli(*cmd, "--rules", "gold")
        assert code == 0 and "- Rules: gold (" in out and "--rules gold" in out


def test_cli_best_prints_the_strategy(cli):
    code, out, _ = cli("odds", "--rules", "gold", "--player-option", "best")
    assert code == 0 and "## Player's option: best play for this shoe" in out
    assert out.count("| draw ") == 5
    code, out, _ = cli("odds", "--rules", "gold", "--player-option", "best", "--format", "json")
    assert [s["play"] for s in json.loads(out)["player_strategy"]] == ["draw"] * 5


def test_rules_prints_the_tables_and_its_toml_loads_again(cli, tmp_path):
    code, out, _ = cli("rules")
    assert code == 0 and "| 3              | 0-7, 9" in out
    code, toml, _ = cli("rules", "--rules", "gold", "--format", "toml")
    f = tmp_path / "gold.toml"
    f.write_text(toml)
    assert load_rules(str(f)) == GOLD
    code, out, _ = cli("rules", "--rules", "gold", "--player-option", "best", "--decks", "1")
    assert code == 0 and "best play for this shoe" in out
    code, out, _ = cli("rules", "--rules", "gold", "--format", "json")
    assert json.loads(out)["banker"][1] == {"totals": [4, 5], "draws": "3-7", "stands": "0-2, 8, 9"}


BAD_FILES = {
    "missing row": (DEFAULT_FILE.replace('"6" = { draws = "6, 7", stands = "0-5, 8, 9" }\n', ""),
                    "missing row for Banker total 6"),
    "extra row (natural)": (DEFAULT_FILE + '"8" = { draws = "never" }\n', "extra row: Banker 8 is a natural"),
    "extra row (twice)": (DEFAULT_FILE + '"1" = { draws = "any" }\n', "extra row: Banker 1 is already"),
    "total outside 0-9": (DEFAULT_FILE.replace('player_draws = "0-5"', 'player_draws = "0-12"'),
                          "total 10 is outside 0-9"),
    "third card outside": (DEFAULT_FILE.replace('"4-7"', '"4-7"').replace('"2-7"', '"2-17"'),
                           "outside 0-9"),
    "unknown key": (DEFAULT_FILE.replace("naturals", "naturalz"), "unknown key 'naturalz'"),
    "unknown row key": (DEFAULT_FILE.replace('stands = "8"', 'stand = "8"'), "unknown key 'stand'"),
    "missing key": (DEFAULT_FILE.replace('banker_if_player_stood = "0-5"\n', ""),
                    "missing key 'banker_if_player_stood'"),
    "overlap": (DEFAULT_FILE.replace('stands = "8"', 'stands = "7, 8"'), "in both draws and stands"),
    "gap": (DEFAULT_FILE.replace('stands = "8"', 'stands = "-"'), "leave Player's third card 8 out"),
    "not a cell": (DEFAULT_FILE.replace('player_draws = "0-5"', 'player_draws = "up to five"'),
                   "expected totals"),
    "toml syntax": (DEFAULT_FILE + "[[[", "TOML syntax error"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_rules_files_are_one_line_exit_2(cli, tmp_path, case):
    text, message = BAD_FILES[case]
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(RulesError, match=message.replace("(", r"\(")):
        load_rules(str(f))
    for argv in (["odds", "--rules", str(f)], ["rules", "--rules", str(f)]):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("baccarat: error: ") and message.split("(")[0] in err


@pytest.mark.parametrize("argv,message", [
    (["odds", "--rules", "nosuch"], "unknown rule set 'nosuch'"),
    (["odds", "--rules", "missing.toml"], "missing.toml"),
    (["odds", "--player-option", "stand"], "offers the Player no option"),
    (["odds", "--rules", "gold", "--player-option", "sometimes"], "unknown --player-option 'sometimes'"),
    (["rules", "--format", "xml"], "unknown --format"),
    (["distributions", "--rules", "punto_banco", "--player-option", "best"], "offers the Player no option"),
    (["study", "--shoes", "2", "--rules", "gold", "--player-option", "best"], "depends on the cards left"),
    (["study", "--shoes", "2", "--rules", "nosuch"], "unknown rule set 'nosuch'"),
])
def test_bad_options_are_one_line_exit_2(cli, argv, message):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_rules_value_is_frozen_and_the_name_is_a_label():
    r = Rules(PUNTO_BANCO.naturals, PUNTO_BANCO.player_draws, PUNTO_BANCO.banker,
              PUNTO_BANCO.banker_if_player_stood, name="another name")
    assert r == PUNTO_BANCO and r.is_default
    with pytest.raises(Exception):
        r.name = "x"


def test_the_documented_rules_file_example_is_gold():
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text()
    section = readme.split("## Rules as data: `--rules`", 1)[1].split("\n## ", 1)[0]
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert parse_rules(block, "docs/rules.md") == GOLD
    assert "2,233,533,079,191,808" in section       # standing on 5, 8 decks (tests/test_gold.py)


def test_rules_file_size_is_bounded(tmp_path, cli):
    f = tmp_path / "big.toml"
    f.write_text(DEFAULT_FILE + "# " + "x" * 70_000 + "\n")
    code, out, err = cli("odds", "--rules", str(f))
    assert code == 2 and out == "" and err.count("\n") == 1 and "big.toml" in err
