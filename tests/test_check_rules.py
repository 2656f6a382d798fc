"""``baccarat check --rules``: replay and reference under another drawing tableau."""

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.core.rules import GOLD
from analyzer.simcheck.check import CheckError, check_log
from analyzer.simcheck.families import build_families
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.reference import off_the_top

EIGHT = Shoe.standard(8)
DRAW = GOLD.with_player_option("draw")
STAND = GOLD.with_player_option("stand")


@pytest.fixture(scope="module")
def gold_logs(tmp_path_factory, cli):
    d = tmp_path_factory.mktemp("gold")
    out = {}
    for play in ("draw", "stand"):
        path = d / f"{play}.csv"
        assert cli("simulate", "--rules", "gold", "--player-option", play, "--decks", "8", "--shoes", "20",
                   "--seed", "1", "--log", path, "-q").code == 0
        out[play] = path
    return out


def test_reference_follows_the_rules():
    for rules in (DRAW, STAND):
        fams = build_families((), ("outcome", "cards"), rules)
        ref = off_the_top(EIGHT, fams, 1)
        pb = off_the_top(EIGHT, build_families((), ("outcome", "cards")), 1)
        assert ref.families["cards"].expected != pb.families["cards"].expected
    # the Player standing on 5 deals fewer third cards than drawing on it
    e = {r.name: off_the_top(EIGHT, build_families((), ("cards",), r), 1).families["cards"].expected
         for r in (DRAW, STAND)}
    assert e[STAND.name][0] > e[DRAW.name][0]


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_gold_log_passes_under_gold_and_is_rejected_under_punto_banco(gold_logs, tmp_path, cli):
    for play, path in gold_logs.items():
        rules = GOLD.with_player_option(play)
        rep = check_log(read_hand_log(path), EIGHT, rules=rules)
        assert not rep.failed
        assert any("Drawing rules: gold" in n for n in rep.notes)
        md = tmp_path / f"{play}.md"
        assert cli("check", path, "--rules", "gold", "--player-option", play, "-q", "--output", md).code == 0
        assert "**PASS**" in md.read_text()
        # under Punto Banco (or the other Gold choice) the replay names the broken drawing rule
        for wrong in (None, GOLD.with_player_option("stand" if play == "draw" else "draw")):
            with pytest.raises(CheckError, match=r"row \d+: (banker|player) (stood|drew) on \d"):
                check_log(read_hand_log(path), EIGHT, rules=wrong)
    r = cli("check", gold_logs["draw"], "-q", "--output", tmp_path / "pb.md")
    assert r.code == 2 and "drawing rules" in r.err


def test_gold_without_a_player_choice_is_refused(gold_logs, cli):
    with pytest.raises(CheckError, match="--player-option"):
        check_log(read_hand_log(gold_logs["draw"]), EIGHT, rules=GOLD)
    r = cli("check", gold_logs["draw"], "--rules", "gold", "-q")
    assert r.code == 2 and "--player-option draw or stand" in r.err


def test_off_the_top_and_default_under_rules(gold_logs):
    log = read_hand_log(gold_logs["stand"])
    rep = check_log(log, EIGHT, reference="off-the-top", rules=STAND)
    assert rep.reference == "off-the-top" and rep.coups == log.coups
    default = check_log(read_hand_log(gold_logs["stand"]), EIGHT, rules=STAND)
    assert np.isclose(sum(float(s.expected) for s in default.cells["cards"]), default.coups)


def test_rules_with_tallies_are_refused(tmp_path, cli):
    t = tmp_path / "t.csv"
    assert cli("simulate", "--decks", "8", "--shoes", "2", "--seed", "1", "--tallies", t, "-q").code == 0
    r = cli("check", t, "--rules", "gold", "--player-option", "draw", "-q")
    assert r.code == 2 and "hand logs" in r.err
