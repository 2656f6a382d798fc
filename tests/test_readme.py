"""The README documents what the code offers."""

from pathlib import Path

from analyzer import FEATURES, catalog

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_feature_is_documented():
    """Each feature is in README; a card position's features as its position and attribute."""
    from analyzer.core.features import POSITION_FEATURES
    missing = [f for f in FEATURES if f not in POSITION_FEATURES and f"`{f}`" not in README]
    missing += [f for f, (pos, attr) in POSITION_FEATURES.items()
                if f"`{pos}`" not in README and not pos.startswith("card")]
    missing += sorted({attr for pos, attr in POSITION_FEATURES.values() if f"`_{attr}`" not in README})
    assert "`card1` ..\n  `card4`" in README and "`card5`" in README and "`card6`" in README
    assert not missing


def test_the_feature_table_is_the_registrys():
    """Each feature of a coup (not a card position's) has its row in the README's table,
    its kind and meaning as the registry states them (analyzer/core/features.py)."""
    from analyzer.core.features import POSITION_FEATURES, REGISTRY
    rows = [f"| `{n}` | {f.kind} | {f.doc} |" for n, f in REGISTRY.items() if n not in POSITION_FEATURES]
    assert [r for r in rows if r not in README] == []
    table = [line for line in README.splitlines() if line.startswith("| `") and line.count("|") == 4]
    assert [line for line in table[:len(rows)]] == rows


def test_every_group_function_is_documented():
    from analyzer.bets.conditions import FUNCTIONS
    assert not [f for f in FUNCTIONS if f"`{f}(" not in README]


def test_every_catalog_bet_and_table_is_named():
    cat = catalog()
    named = [b for b in cat.bets if f"`{b}`" not in README and not b.startswith("egalite_")]
    assert not named
    assert not [t for t in cat.tables if f"`{t}`" not in README]


SETUP_ODDS = "python3 -m venv .venv && .venv/bin/python -m pip install . && .venv/bin/baccarat odds"
SETUP_TESTS = ("python3 -m venv .venv && .venv/bin/python -m pip install '.[test]' && "
               ".venv/bin/python -m pytest")


def test_readme_opens_with_the_two_setup_commands():
    head = README.split("## ")[0]
    assert SETUP_ODDS in head and SETUP_TESTS in head


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert SETUP_TESTS in ci


def test_readme_bet_file_example_works(tmp_path):
    from analyzer import Shoe, Solver, load_bets_file

    block = README.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "mybets.toml"
    path.write_text(block)
    cat = load_bets_file(path)
    a = Solver(cat.select(["pair_win", "player_pair", "player"])).solve(Shoe.standard(8))
    pair_win = a.bet("pair_win").events[0].ways
    assert 0 < pair_win < a.bet("player_pair").events[0].ways
    assert cat.table("mine").bets == ("pair_win", "banker", "player")
