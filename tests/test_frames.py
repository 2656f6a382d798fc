"""to_frame() on every result object: the same numbers as the JSON, and the example notebook runs."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

from analyzer import Shoe, analyze  # noqa: E402
from analyzer.reports.distributions import distributions  # noqa: E402
from analyzer.reports.eor import effects_of_removal  # noqa: E402
from analyzer.reports.odds_tables import odds_dict  # noqa: E402

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "notebook.ipynb"


def test_analysis_frames_equal_the_json():
    a = analyze(Shoe.standard(6), ["banker", "player", "tie", "dragon7"])
    doc = odds_dict(a)
    bets = a.to_frame()
    for row in bets.itertuples():
        j = doc["bets"][row.bet]
        assert f"{row.ev.numerator}/{row.ev.denominator}" == j["ev"]
        assert row.house_edge_float == j["house_edge_float"]
        assert isinstance(row.variance, Fraction)
    events = a.to_frame("events")
    for bet_id, group in events.groupby("bet"):
        assert [int(w) for w in group.ways] == [e["ways"] for e in doc["bets"][bet_id]["events"]]
        assert sum(group.probability) == 1
    outcomes = a.to_frame("outcomes")
    assert list(outcomes.ways) == [doc["outcomes"][o]["ways"] for o in ("player", "banker", "tie")]
    with pytest.raises(ValueError):
        a.to_frame("nope")


def test_every_result_frame_sums_as_its_result():
    d = distributions(Shoe.standard(8)).to_frame()
    grid = d[d.table == "totals"]
    assert sum(grid.probability) == 1 and grid.ways.sum() == 4998398275503360
    e = effects_of_removal(Shoe.standard(8), ["banker"]).to_frame()
    assert len(e) == 13 and sum(e.effect * 32) == 0     # weighted effects of one card sum to zero
    bet = analyze(Shoe.standard(8), ["banker"]).bet("banker").to_frame()
    assert list(bet.event) == ["banker wins", "tie (push)", "loses"]


def test_check_and_study_frames(tmp_path):
    from analyzer.simcheck.check import check_log
    from analyzer.simcheck.logs import read_hand_log
    from analyzer.studies import StudyParams, run_study
    report = check_log(read_hand_log(Path(__file__).resolve().parents[1] / "examples" / "hands.csv"),
                       Shoe.standard(8))
    f = report.to_frame()
    assert len(f) == len(report.tests) + len(report.exact) and set(f.rejected) <= {True, False}
    res = run_study(StudyParams.create(Shoe.standard(1), shoes=2, seed=7, cut_card=14, bet_ids=("banker",)))
    s = res.to_frame()
    assert s.bet.tolist() == ["banker"] and s.full_shoe_ev[0] == analyze(Shoe.standard(1), ["banker"]).bet(
        "banker").ev


def test_example_notebook_runs():
    """Executes every code cell in order, as a kernel would (the notebook is the project's own file)."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    namespace: dict = {}
    ran = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{NOTEBOOK.name} cell {ran}", "exec"), namespace)
            ran += 1
    assert ran >= 4 and "eor" in namespace


def test_without_pandas_the_error_says_what_to_install(monkeypatch):
    import sys
    from analyzer import BaccaratError
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(BaccaratError, match=r"\[frames\]"):
        analyze(Shoe.standard(8)).to_frame()


def test_parsheet_and_bankroll_frames():
    from analyzer import catalog
    from analyzer.reports.bankroll import bankroll_session
    from analyzer.reports.parsheet import parsheet
    sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "tie"]), by_decks=(8,))
    f = sheet.to_frame()
    for w in sheet.wagers:
        assert sum(f[f.wager == w.bet.id]["return"]) == w.ev
    r = bankroll_session(analyze(Shoe.standard(1), ["player"]).bet("player"), bankroll=3, unit=1, coups=4)
    d = r.to_frame()
    assert sum(d.probability) == 1 and list(d.bankroll) == sorted(d.bankroll)
