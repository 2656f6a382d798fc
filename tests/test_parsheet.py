"""Par sheets: return tables, figures, bands, the hold band and the documents."""

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Shoe, analyze, catalog
from analyzer.reports.parsheet import parsheet
from analyzer.reports.parsheet_tables import parsheet_dict

REPO = Path(__file__).resolve().parents[1]
SHEETS = REPO / "reports" / "parsheets"

# Two-sided normal quantiles, written out (not from the code under test).
Z = {90: 1.6448536269514722, 95: 1.959963984540054, 99: 2.5758293035489004}


@pytest.fixture(scope="module")
def main8():
    return parsheet(Shoe.standard(8), catalog().select(["player", "banker", "tie"]), by_decks=(1, 8))


@pytest.mark.parametrize("table", list(catalog().tables))
def test_every_committed_return_column_sums_to_the_engine_ev(table):
    doc = json.loads((SHEETS / f"{table}.json").read_text())
    a = analyze(Shoe.standard(8), catalog().table(table).bets)
    assert [w["id"] for w in doc["wagers"]] == list(catalog().table(table).bets)
    for w in doc["wagers"]:
        rows = w["return_table"]
        assert sum(r["ways"] for r in rows) == a.deals == doc["deals"]
        total = sum(Fraction(r["return"]) for r in rows)
        assert total == Fraction(w["ev"]) == a.bet(w["id"]).ev, w["id"]
        for r in rows:
            assert Fraction(r["return"]) == Fraction(r["pays"]) * Fraction(r["ways"], a.deals)
            assert r["one_in"] == (None if r["ways"] == 0 else pytest.approx(a.deals / r["ways"]))
        assert Fraction(w["rtp"]) == 1 + a.bet(w["id"]).ev
        assert Fraction(w["max_payout"]) == max(e.pays for e in a.bet(w["id"]).events)


def test_figures_recomputed_from_the_outcomes(main8):
    a = analyze(Shoe.standard(8))
    p = {o: a.probability(o) for o in ("player", "banker", "tie")}
    pays = {"player": {"player": 1, "banker": -1, "tie": 0},
            "banker": {"player": -1, "banker": Fraction(19, 20), "tie": 0},
            "tie": {"player": -1, "banker": -1, "tie": 8}}
    for bet, table in pays.items():
        w = main8.wager(bet)
        ev = sum(p[o] * table[o] for o in p)
        var = sum(p[o] * table[o] ** 2 for o in p) - ev ** 2
        push = sum(p[o] for o in p if table[o] == 0)
        assert w.ev == ev and w.variance == var and w.push_probability == push
        assert w.element_of_risk == -ev / (1 - push)
        sd = math.sqrt(var)
        assert w.std_dev == pytest.approx(sd, rel=1e-15)
        for c in (90, 95):
            assert w.volatility_index[c] == pytest.approx(Z[c] * sd, rel=1e-12)
        assert [b.rounds for b in w.bands] == [100, 1_000, 10_000, 100_000, 1_000_000]
        for b in w.bands:
            assert b.mean == b.rounds * ev
            for c in (90, 95, 99):
                lo, hi = b.interval(c)
                half = Z[c] * sd * math.sqrt(b.rounds)
                assert lo == pytest.approx(float(b.rounds * ev) - half, rel=1e-12)
                assert hi == pytest.approx(float(b.rounds * ev) + half, rel=1e-12)
        assert w.house_edge_by_decks == {d: -analyze(Shoe.standard(d)).bet(bet).ev for d in (1, 8)}


def test_hold_band_counts_the_covariances(main8):
    # One unit on each of Player, Banker and Tie: the coup's total net result by outcome.
    a = analyze(Shoe.standard(8))
    p = {o: a.probability(o) for o in ("player", "banker", "tie")}
    total = {"player": 1 - 1 - 1, "banker": -1 + Fraction(19, 20) - 1, "tie": 0 + 0 + 8}
    mean = sum(p[o] * total[o] for o in p)
    var = sum(p[o] * total[o] ** 2 for o in p) - mean ** 2
    hold = main8.hold
    assert hold.mean == -mean / 3 and hold.variance == var / 9
    assert hold.mean == sum(w.house_edge for w in main8.wagers) / 3
    for b in hold.bands:
        lo, hi = b.interval(95)
        assert hi - lo == pytest.approx(2 * Z[95] * math.sqrt(var / 9 / b.rounds), rel=1e-12)
    # Without the covariances the band would be much wider (Player and Banker hedge each other).
    assert var < sum(w.variance for w in main8.wagers)


def test_hold_of_a_table_with_card_bets():
    sheet = parsheet(Shoe.standard(1), catalog().select(["banker", "player_pair", "perfect_pair"]), by_decks=(1,))
    a = analyze(Shoe.standard(1), ["banker", "player_pair", "perfect_pair"])
    assert sheet.hold.mean == sum(-a.bet(b).ev for b in ("banker", "player_pair", "perfect_pair")) / 3
    # A perfect pair on the Player side is also a Player pair: the two are positively correlated.
    independent = sum(w.variance for w in sheet.wagers) / 9
    assert sheet.hold.variance > independent


def test_a_sheet_reading_shared_effects_is_the_sheet_counting_its_own():
    # `baccarat report` counts the effects of removal of every bet once and hands them to each
    # par sheet: the sheet is the one that counts them itself.
    from analyzer.core.solver import Solver
    from analyzer.reports.eor import effects_of_removal
    shoe, ids = Shoe.standard(1), ["banker", "player", "dragon7", "player_pair"]
    solver = Solver(catalog().select(ids + ["tie", "all_red"]))
    shared = effects_of_removal(shoe, solver.bets, solver=solver)
    own = parsheet(shoe, catalog().select(ids), by_decks=(1,))
    assert parsheet(shoe, catalog().select(ids), by_decks=(1,), solver=solver, effects=shared) == own
    # effects of another shoe are not read
    other = effects_of_removal(Shoe.standard(2), solver.bets, solver=solver)
    assert parsheet(shoe, catalog().select(ids), by_decks=(1,), solver=solver, effects=other) == own


def test_hold_of_too_many_wagers_says_so():
    from analyzer.reports.parsheet import MAX_HOLD_WAGERS
    ids = ["player", "banker", "tie", "tie_9to1", "banker_4pct", "big", "small"] + [f"egalite_{t}" for t in range(10)]
    assert len(ids) > MAX_HOLD_WAGERS
    sheet = parsheet(Shoe.standard(8), catalog().select(ids), by_decks=(8,))
    assert sheet.hold is None and "not computed for more than 16 wagers" in sheet.hold_note
    assert parsheet_dict([sheet])["table_hold"] == {"note": sheet.hold_note}


# Published 8-deck figures.  House edges: uscasinosonline.com "Calculating the odds in different
# Baccarat bets" (Banker 1.0579%, Player 1.2351%, the Wizard of Odds figures) and excelpunks.com
# "Baccarat vs Non-Commission Baccarat" (house edge Tie 0.143596; break-even pays Player 1.02768,
# Banker 0.97307, Tie 9.50906).  Ties not counted (the element of risk): 1.17% Banker and 1.36%
# Player (onlinecasinoreviews1.com, "Baccarat general rules"); the exact values are 1.1692% and
# 1.3650% (figures of 1.1681% / 1.3641% sometimes quoted do not match P(tie) = 9.5156%).
def test_published_banker_player_tie(main8):
    he = {w.id: float(w.house_edge) * 100 for w in main8.wagers}
    assert (round(he["banker"], 4), round(he["player"], 4), round(he["tie"], 4)) == (1.0579, 1.2351, 14.3596)
    eor = {w.id: float(w.element_of_risk) * 100 for w in main8.wagers}
    assert (round(eor["banker"], 2), round(eor["player"], 2)) == (1.17, 1.36)
    assert (round(eor["banker"], 4), round(eor["player"], 4)) == (1.1692, 1.3650)
    be = {w.id: float(w.breakeven_pays) for w in main8.wagers}
    assert (round(be["player"], 5), round(be["banker"], 5), round(be["tie"], 5)) == (1.02768, 0.97307, 9.50906)
    assert main8.wager("banker").breakeven_commission == 1 - main8.wager("banker").breakeven_pays


def test_parsheet_writes_json_markdown_and_csv_sheets(tmp_path, cli):
    r = cli("parsheet", "--table", "main", "--decks", "6,8", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert [s["shoe"]["decks"] for s in doc["sheets"]] == [6, 8]
    assert doc["rules"]["source"] == "analyzer/core/RULES.md"
    w = doc["sheets"][1]["wagers"][1]
    assert w["id"] == "banker" and set(w["volatility_index"]) == {"90", "95"}
    assert set(w["house_edge_by_decks"]) == {"1", "2", "4", "6", "8"}
    assert set(w["bands"][0]) >= {"rounds", "mean", "90", "95", "99"}
    r = cli("parsheet", "--bets", "tie")
    assert r.code == 0
    md = r.out
    assert "Return table" in md and "ordered six-card deals" in md and "Banker total" in md
    assert cli("parsheet", "--bets", "tie", "--format", "csv", "--output", tmp_path / "t.csv").code == 0
    assert (tmp_path / "t.csv").read_text().startswith("decks,cards,wager,section")


def test_a_bets_file_makes_its_own_sheet_and_csv_returns_sum_to_the_ev(tmp_path, cli):
    bets = tmp_path / "mine.toml"
    bets.write_text('[[bet]]\nid = "pair_win"\nname = "Pair win"\nevents = [ { event = "pw", '
                    'when = "player_pair and winner == player", pays = 20 } ]\n')
    r = cli("parsheet", "--bets-file", bets, "--by-decks", "8", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert [w["id"] for w in doc["wagers"]] == ["pair_win"] and "table_hold" not in doc
    r = cli("parsheet", "--bets", "banker,tie", "--by-decks", "8", "--format", "csv")
    assert r.code == 0
    rows = list(csv.reader(io.StringIO(r.out)))[1:]
    a = analyze(Shoe.standard(8))
    for bet in ("banker", "tie"):
        ret = [r for r in rows if r[2] == bet and r[3] == "return"]
        assert sum(Fraction(r[7]) for r in ret[:-1]) == Fraction(ret[-1][7]) == a.bet(bet).ev


def test_xlsx_holds_the_json_numbers(tmp_path, cli):
    openpyxl = pytest.importorskip("openpyxl")
    out = tmp_path / "ez.xlsx"
    assert cli("parsheet", "--table", "ez", "--format", "xlsx", "--output", out).code == 0
    r = cli("parsheet", "--table", "ez", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["About"] + [w["id"] for w in doc["wagers"]]
    for w in doc["wagers"]:
        cells = [[c for c in row] for row in wb[w["id"]].iter_rows(values_only=True)]
        start = next(i for i, r in enumerate(cells) if r[0] == "Return table") + 2
        for k, r in enumerate(w["return_table"]):
            row = cells[start + k]
            # exact values and counts identical; floats to the 16 digits a spreadsheet cell keeps
            assert list(row[:8]) == [r["event"], r["pays"], r["ways"], r["probability"],
                                     pytest.approx(r["probability_float"], rel=1e-15), r["return"],
                                     pytest.approx(r["return_float"], rel=1e-15, abs=0),
                                     None if r["one_in"] is None else pytest.approx(r["one_in"], rel=1e-15)]
        figures = {r[0]: r[1:3] for r in cells if r[0] in ("house_edge", "rtp", "element_of_risk", "std_dev")}
        for key in ("house_edge", "rtp", "element_of_risk"):
            assert tuple(figures[key]) == (w[key], pytest.approx(w[key + "_float"], rel=1e-15)), key
        assert figures["std_dev"][1] == pytest.approx(w["std_dev"], rel=1e-15)


def test_json_matches_the_objects(main8):
    doc = parsheet_dict([main8])
    banker = doc["wagers"][1]
    w = main8.wager("banker")
    assert Fraction(banker["element_of_risk"]) == w.element_of_risk
    assert banker["bands"][2]["95"] == list(w.bands[2].interval(95))
    assert Fraction(doc["table_hold"]["mean"]) == main8.hold.mean


@pytest.mark.parametrize("argv", [
    ["parsheet", "--bets", "nope"], ["parsheet", "--table", "nope"], ["parsheet", "--decks", "6,x"],
    ["parsheet", "--decks", "0"], ["parsheet", "--decks", ""], ["parsheet", "--decks", "6,,8"],
    ["parsheet", "--decks", "20000"], ["parsheet", "--by-decks", "1;2"],
    ["parsheet", "--decks", "1,2,3,4,5,6,7,8,9"], ["parsheet", "--by-decks", ",".join(map(str, range(1, 30)))], ["parsheet", "--format", "xlsx"],
    ["parsheet", "--format", "xlsx", "--output", "-"], ["parsheet", "--format", "pdf"],
])
def test_bad_input_is_one_line(argv, cli):
    cli.error(*argv)


def test_xlsx_without_openpyxl_is_one_line(tmp_path, cli, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_openpyxl(name, *args, **kwargs):
        if name == "openpyxl" or name.startswith("openpyxl."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_openpyxl)
    assert "[xlsx]" in cli.error("parsheet", "--format", "xlsx", "--output", tmp_path / "x.xlsx")
    assert not (tmp_path / "x.xlsx").exists()


def test_sheets_of_different_rules_name_each_including_punto_banco():
    """When the sheets play different rules, each names its own, and a sheet on Punto Banco
    (its ``rules`` is None) is named too, not a crash (a rules file that is Punto Banco with a
    Player's option can give such a sheet under --player-option best)."""
    from analyzer.bets.catalog import catalog
    from analyzer.bets.rules_files import load_rules
    from analyzer.core.shoe import Shoe
    from analyzer.reports.parsheet import parsheet
    from analyzer.reports.parsheet_tables import parsheet_markdown
    bets = catalog().select(["banker"])
    plain = parsheet(Shoe.standard(1), bets, by_decks=(1,), rounds=(100,))
    gold = parsheet(Shoe.standard(1), bets, by_decks=(1,), rounds=(100,), rules=load_rules("gold"))
    assert plain.rules is None and gold.rules is not None
    named = [line for line in parsheet_markdown([plain, gold], "baccarat parsheet").splitlines()
             if line.startswith("- Rules: ")]
    assert [line.split()[2] for line in named] == ["punto_banco", "gold"]
