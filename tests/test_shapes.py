"""The shapes real simulators write: each gives the verdicts of the project's own format."""

from __future__ import annotations

import pytest

from analyzer import Shoe
from analyzer.simcheck.check import CheckError, check_log
from analyzer.simcheck.logs import LogError, read_hand_log
from analyzer.simcheck.shapes import read_log, shoe_for
from analyzer.simcheck.simulate import Faults, simulate_to_text
from analyzer.simcheck.verify import replay

from helpers import SHAPES, per_card

EIGHT = Shoe.standard(8)


def _verdicts(log, shoe):
    rep = replay(log, shoe)
    found = [(v.rule, v.message) for v in rep.violations]
    try:
        r = check_log(log, shoe)
        checked = (r.verdict, [(t.name, round(float(t.p), 12)) for t in r.tests])
    except CheckError as e:
        checked = ("error", str(e).split(": ", 2)[-1])
    return found, checked


@pytest.fixture(scope="module", params=["correct", "tableau bug"])
def simulated(request):
    faults = Faults(banker_cell=(5, 4)) if request.param != "correct" else None
    text, _ = simulate_to_text(EIGHT, 30, 14, faults=faults)
    log = read_hand_log("hands.csv", text)
    return log, _verdicts(log, EIGHT)


@pytest.mark.parametrize("name,convert,path,columns,shape", SHAPES, ids=[s[0] for s in SHAPES])
def test_each_shape_gives_the_verdicts_of_the_own_format(simulated, name, convert, path, columns, shape):
    log, expected = simulated
    other = read_log(path, convert(log), columns)
    assert other.coups == log.coups and other.shoes == log.shoes
    if shape:
        assert other.shape == shape
    found, checked = _verdicts(other, shoe_for(other, EIGHT))
    assert found == expected[0]
    assert checked[0] == expected[1][0]
    if checked[0] != "error":
        want = expected[1][1]
        if name == "values":      # point values get no card-order test by default; ranks do
            assert [t for t, _ in want if "order" in t] == ["chi-square order (12 df)"]
            want = [t for t in want if "order" not in t[0]]
        assert checked[1] == want
    else:
        assert checked[1].split(";")[0].split(": ", 1)[-1] == expected[1][1].split(";")[0].split(": ", 1)[-1]


def test_a_wrong_tableau_cell_is_found_in_every_shape(simulated):
    log, (found, checked) = simulated
    if log.coups and found:
        assert {r for r, _ in found} == {"banker"} and checked[0] == "error"


def test_value_level_shoe_and_totals():
    assert shoe_for(read_log("v.csv", "shoe,player,banker\n1,0 9,1 2\n"), EIGHT) == \
        Shoe.parse("A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=128")
    log = read_log("t.csv", "shoe,p1,p2,p3,b1,b2,b3,player total,banker total\n1,9,K,,5,2,,9,8\n")
    assert [str(v) for v in replay(log, EIGHT).violations] == ["row 2: reported banker total 8 but the cards give 7"]
    log = read_log("v.csv", "shoe,player,banker\n" + "1,0 9,0 0\n1,0 8,0 0\n" * 22)
    assert replay(log, shoe_for(log, EIGHT)).violations[0].message == \
        "shoe '1' deals a 129th ten (T), but the declared shoe holds 128"


@pytest.mark.parametrize("text,columns,message", [
    ("a,b,c\n1,2,3\n", None, "row 1: cannot tell which columns hold the shoe, the cards and the outcome "
                             "(seen: a, b, c; recognised: none); name them, e.g. --columns shoe=a,player=b,banker=c"),
    ("Shoe No,Hand P,Hand B\n1,9 9,8 8\n", None, "--columns 'shoe=Shoe No,player=Hand P,banker=Hand B'"),
    ("a,b,c\n1,2,3\n", "shoe=a,player=zz", "row 1: --columns player=zz: no such column (the header has: a, b, c)"),
    ("a,b,c\n1,2,3\n", "dealer=a", "--columns: 'dealer=a' is not ROLE=HEADER"),
    ('[{"shoe": 1, "player": "9 9", "banker": "8 8"},', None, "row 1: the JSON array is not closed"),
    ('[{"shoe": 1, "player": "9 9", "banker": "8 8"}, {"shoe": 1, "pl', None, "row 1: not valid JSON"),
    ('{"shoe": 1, "coups": [{"player": "9 9", "banker": "8 8"}]}\n{"shoe": 2, "player": "9 9", "banker": "8 8"}\n',
     None, "row 2: a coup object after shoe objects: one file holds one shape"),
    ("shoe,results\n1,BPPXB\n", None, "row 2: bead string has 'X' at position 4 (beads are P, B, T)"),
    ("shoe,p1,p2,p3,b1,b2,b3,outcome\n1,9,9,,8,8,,player wins big\n", None,
     "row 2: outcome 'player wins big' is not player, banker or tie"),
])
def test_a_log_of_no_known_shape_is_refused_naming_why(text, columns, message):
    path = "x.json" if text.startswith(("[", "{")) else "x.csv"
    with pytest.raises(LogError) as e:
        read_log(path, text, columns)
    assert message in str(e.value) and str(e.value).startswith("--columns" if "dealer" in message else path + ": ")


def test_skip_invalid_counts_the_reasons():
    text = "shoe,p1,p2,p3,b1,b2,b3,outcome\n1,9,9,,8,8,,P\n1,9,X,,8,8,,P\n1,9,9,,8,8,,Q\n1,9,9,,8,8,,P\n"
    with pytest.raises(LogError, match="row 3: unknown"):
        read_log("x.csv", text)
    log = read_log("x.csv", text, skip_invalid=True)
    assert log.coups == 2 and sum(log.skipped.values()) == 2 and log.rows.tolist() == [2, 5]


def test_verify_and_check_report_the_shape_and_refuse_unknown_shapes(tmp_path, cli):
    text, _ = simulate_to_text(EIGHT, 3, 1)
    f = tmp_path / "sim.csv"
    f.write_text(per_card(read_hand_log("h.csv", text)))
    r = cli("verify", f)
    assert r.code == 0 and "read as per-card columns, ranks with suits, 1 row per coup" in r.out
    r = cli("check", f, "--quiet", "--reference", "off-the-top")
    assert r.code == 0 and "Read as per-card columns" in r.out
    g = tmp_path / "odd.csv"
    g.write_text("when,who\n1,P\n")
    r = cli("verify", g)
    assert r.code == 2
    err = r.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("baccarat: error: ") and "--columns" in err[0]
