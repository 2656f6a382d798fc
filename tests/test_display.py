"""How results show in a terminal and a notebook: short ``repr`` s that carry the exact
figures they name, ``_repr_html_`` tables, and ``analyze(..., known=...)``."""

from __future__ import annotations

import random
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import analyzer
from analyzer import Shoe, analyze, catalog
from analyzer.core.cards import RANKS, SUITS
from analyzer.core.known import Known, KnownError, parse_known
from analyzer.core.solver import Solver
from analyzer.reports.parsheet import parsheet

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EVERY = tuple(catalog().bets)


def depleted(seed: int, out: int) -> Shoe:
    rng = random.Random(seed)
    return Shoe.standard(8).remove(rng.sample([r + s for r in RANKS for s in SUITS] * 8, out))


@pytest.mark.parametrize("shoe", [Shoe.standard(8), depleted(3, 150), Shoe.standard(1).remove(["5s", "5h", "5d", "5c"])],
                         ids=["8 decks", "150 out", "no fives"])
def test_reprs_are_short_and_name_the_exact_figures(shoe):
    a = analyze(shoe, EVERY)
    text = repr(a)
    assert len(text) < 400 and text.startswith("<Analysis of ") and f"{a.deals} deals" in text
    assert f"{len(EVERY)} bets" in text and repr(a.bets).startswith(f"<BetResults of {len(EVERY)} bets: player")
    for r in a.bets.values():
        one = repr(r)
        assert len(one) < 200 and f"{len(r.events)} events over {r.deals} deals" in one
        ev = re.search(r"\(EV (\S+)\)", one).group(1)
        if ev.startswith("~"):                            # too long to print: a float beside it
            assert float(ev[1:]) == pytest.approx(float(r.ev), rel=1e-2)
        else:
            assert Fraction(ev) == r.ev
        edge = re.search(r"house edge (-?[0-9.]+)%", one).group(1)
        assert edge == f"{float(r.house_edge) * 100:.4f}"


def test_analysis_repr_names_rules_and_known_cards():
    a = analyze(Shoe.standard(8), ["banker"], rules="gold", known=["1=9"])
    assert "rules gold" in repr(a) and "P1 (position 1) = 9" in repr(a)
    assert "rules" not in repr(analyze(Shoe.standard(8)))


def test_a_par_sheet_and_a_check_report_have_short_reprs():
    from analyzer.simcheck.check import check_log
    from analyzer.simcheck.logs import read_hand_log
    sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player", "tie"]), title="Main")
    text = repr(sheet)
    assert len(text) < 300 and "3 wagers: banker, player, tie" in text
    hold = re.search(r"expected hold ([0-9.]+)%", text).group(1)
    assert hold == f"{float(sheet.hold.mean) * 100:.4f}"
    assert all(len(repr(w)) < 200 and repr(w).startswith(f"<Wager {w.id!r}") for w in sheet.wagers)
    report = check_log(read_hand_log(EXAMPLES / "hands.csv"), Shoe.standard(8))
    text = repr(report)
    assert len(text) < 400 and text.startswith(f"<Report {report.verdict}: ") and f"{report.coups} coups" in text


def test_notebook_html_tables_hold_every_row():
    pytest.importorskip("pandas")
    a = analyze(depleted(5, 60), ["banker", "dragon7", "lucky6"])
    page = a._repr_html_()
    assert page.count("<table") == 1 and page.count("<tr") == 1 + len(a.bets)
    for r in a.bets.values():
        assert f"<td>{r.bet.id}</td>" in page and f"{r.house_edge.numerator}/{r.house_edge.denominator}" in page
    one = a.bet("dragon7")._repr_html_()
    assert one.count("<tr") == 1 + len(a.bet("dragon7").events)
    assert all(f"<td>{e.ways}</td>" in one for e in a.bet("dragon7").events)
    sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "tie"]))
    assert sheet._repr_html_().count("<tr") == 1 + sum(len(w.rows) for w in sheet.wagers)


def test_notebook_html_escapes_names(tmp_path):
    pytest.importorskip("pandas")
    from analyzer.bets.catalog import load_bets_file
    path = tmp_path / "odd.toml"
    path.write_text('[[bet]]\nid = "odd"\nname = "<b>odd</b>"\n'
                    'events = [{ event = "<i>win</i>", when = "winner == banker", pays = 1 }]\n')
    odd = load_bets_file(path).bet("odd")
    page = analyze(Shoe.standard(1), (odd,)).bet("odd")._repr_html_()
    assert "<i>" not in page and "&lt;i&gt;win&lt;/i&gt;" in page


def test_without_pandas_a_notebook_still_shows_tables(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    a = analyze(Shoe.standard(8))
    assert a._repr_html_().count("<tr") == 1 + len(a.bets) and "<table" in a.bet("banker")._repr_html_()


@pytest.mark.parametrize("known", [["1=9", "5=Kh"], {1: "9", 5: "Kh"}, {"1": "9", "5": "Kh"},
                                   parse_known(["1=9", "5=Kh"])], ids=["list", "dict", "text keys", "Known"])
def test_analyze_takes_known_cards_as_odds_does(known):
    shoe = Shoe.standard(2)
    bets = ("banker", "dragon7", "all_red")
    ref = Solver(catalog().select(list(bets)), known=Known(((1, "9", None), (5, "K", "h")))).solve(shoe)
    assert analyze(shoe, bets, known=known) == ref
    assert analyze(shoe, bets, known=known).known == ref.known


def test_analyze_known_one_card_as_text_and_bad_known():
    assert analyze(Shoe.standard(8), known="3=A") == analyze(Shoe.standard(8), known=["3=A"])
    assert analyze(Shoe.standard(8), known=[]) == analyze(Shoe.standard(8))
    with pytest.raises(KnownError, match="outside 1-6"):
        analyze(Shoe.standard(8), known=["7=A"])


def test_rules_and_known_cards_are_exported():
    from analyzer.bets.rules_files import load_rules
    from analyzer.core import known, rules
    assert analyzer.Rules is rules.Rules and analyzer.Known is known.Known
    assert analyzer.parse_known is known.parse_known and analyzer.load_rules is load_rules
    assert {"Rules", "Known", "parse_known", "load_rules"} <= set(analyzer.__all__)


def test_the_other_results_have_short_reprs_and_tables():
    from analyzer.reports.distributions import distributions
    from analyzer.reports.eor import effects_of_removal
    from analyzer.studies import StudyParams, run_study
    d = distributions(Shoe.standard(8))
    e = effects_of_removal(Shoe.standard(8), ["banker", "tie"])
    s = run_study(StudyParams.create(Shoe.standard(1), shoes=2, seed=7, cut_card=14, bet_ids=("banker",)))
    for obj, words in ((d, f"{d.deals} deals"), (e, "2 bets: banker, tie"), (s, f"{s.coups} coups")):
        assert len(repr(obj)) < 300 and words in repr(obj)
    pytest.importorskip("pandas")
    assert e._repr_html_().count("<tr") == 1 + 2 * len(RANKS)
    assert s._repr_html_().count("<tr") == 2 and d._repr_html_().count("<table") == 1


# -- the reprs of rule sets, and what stored tables are named by ------------------------------


def test_rules_repr_says_how_to_get_them_back():
    from dataclasses import replace

    from analyzer import load_rules
    from analyzer.core.rules import PUNTO_BANCO
    gold = load_rules("gold")
    for text, rules in (("load_rules('gold')", gold), ("load_rules('punto_banco')", PUNTO_BANCO),
                        ("load_rules('gold').with_player_option('stand')", gold.with_player_option("stand"))):
        assert repr(rules) == text
        # eval-free: the call the repr names gives an equal rule set of the same name
        got = load_rules(text.split("'")[1])
        if "with_player_option" in text:
            got = got.with_player_option(text.split("'")[3])
        assert got == rules and got.name == rules.name
    mine = replace(PUNTO_BANCO, name="mine")              # a tableau under another name: summarised
    assert repr(mine) == f"<Rules {mine.describe()}>" and len(repr(mine)) < 400
    assert repr(replace(gold, name="punto_banco")).startswith("<Rules punto_banco (")   # not passed off
    assert mine == PUNTO_BANCO and hash(mine) == hash(PUNTO_BANCO) and mine != gold


def _one_cell_changed(rules):
    grid = [list(row) for row in rules.banker]
    grid[5][4] = not grid[5][4]                           # Banker 5 against a Player's third card 4
    return type(rules)(rules.naturals, rules.player_draws, tuple(map(tuple, grid)), rules.banker_if_player_stood,
                       name=rules.name)


def test_stored_keys_tell_rules_apart_by_every_cell_not_by_repr():
    from dataclasses import replace

    from analyzer.core.rules import PUNTO_BANCO
    from analyzer.core.solver import stored_key
    other = _one_cell_changed(PUNTO_BANCO)
    assert other != PUNTO_BANCO and other.key() != PUNTO_BANCO.key()
    texts = (("winner == banker",),)
    key = stored_key(("value", texts, PUNTO_BANCO, None))
    assert stored_key(("value", texts, other, None)) != key
    assert stored_key(("value", texts, replace(PUNTO_BANCO, name="custom"), None)) == key   # a label only
    assert stored_key(("class",) + (texts[0], other, "None", None)) != stored_key(("class",) + (texts[0], PUNTO_BANCO,
                                                                                               "None", None))
    with pytest.raises(TypeError):                        # nothing is named by a repr it cannot trust
        stored_key(("value", object()))


def test_a_stored_table_is_not_read_for_rules_one_cell_apart(tmp_path):
    from analyzer.core.rules import PUNTO_BANCO
    from analyzer.core.solver import forget_tabulations
    from analyzer.io.cache import TableCache
    bets = catalog().select(["banker", "dragon7"])
    other = _one_cell_changed(PUNTO_BANCO)
    store = TableCache(tmp_path)
    forget_tabulations()
    Solver(bets, rules=PUNTO_BANCO, store=store).solve(Shoe.standard(1))
    forget_tabulations()
    got = Solver(bets, rules=other, store=store).solve(Shoe.standard(1))
    forget_tabulations()
    assert got == Solver(bets, rules=other, store=None).solve(Shoe.standard(1))
    assert got != Solver(bets, rules=PUNTO_BANCO, store=None).solve(Shoe.standard(1))


# -- every result type: a short repr and an escaped table, with or without pandas -------------


def _odd_bets(tmp_path):
    """A bet whose name and event hold ``<``, ``>`` and ``&`` (what an HTML table must escape)."""
    from analyzer import load_bets_file
    path = tmp_path / "odd.toml"
    path.write_text('[[bet]]\nid = "odd"\nname = "<b>odd</b> & co"\n'
                    'events = [{ event = "<i>win</i> & more", when = "winner == banker", pays = 1 }]\n')
    return load_bets_file(path)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    """One real instance of every result type, built as the commands build them."""
    tmp_path = tmp_path_factory.mktemp("display")
    from analyzer import load_rules
    from analyzer.bets.series import price_series
    from analyzer.reports.approval import approval
    from analyzer.reports.bankroll import bankroll_session, plan
    from analyzer.reports.bankroll_bounded import bounded_session
    from analyzer.studies.runs import deal_runs
    from analyzer.reports.programs import best_exits, program, rolling_chips, tiers_of
    from analyzer.simcheck.confirm import verify_sheet
    from analyzer.simcheck.logs import read_hand_log
    from analyzer.simcheck.stream import open_log
    from analyzer.simcheck.verify import replay, replay_stream
    shoe = Shoe.standard(8)
    banker = analyze(shoe, ["banker"]).bet("banker")
    odd = _odd_bets(tmp_path).bet("odd")
    sheet = parsheet(shoe, (*catalog().select(["banker", "tie"]), odd), title="Main & <odd>", by_decks=(8,))
    log = tmp_path / "a<&b.csv"
    log.write_text("shoe,player,banker,outcome\n1,2 3 4,K 5,banker\n1,9 9,8 K,banker\n")
    return {
        "Analysis": analyze(shoe, ["banker", "tie", odd], rules="gold", known=["1=9"]),
        "BetResult": analyze(shoe, [odd]).bet("odd"),
        "BankrollResult": bankroll_session(banker, bankroll=100, unit=1, coups=200),
        "Program": program(banker, 200, 1, tiers_of(Fraction(1, 10)), [Fraction(0), Fraction(10)]),
        "RollingChips": rolling_chips(banker, 3),
        "FlatTrip": program(banker, 200, 1).trip,
        "Exits": best_exits(banker, 20, 1, tiers_of(Fraction(1, 10))),
        "SeriesResult": price_series(shoe, [catalog().series["banker_streak"]])[0],
        "ParSheet": sheet,
        "Wager": sheet.wager("odd"),
        "Approval": approval(sheet),
        "Verification": verify_sheet(sheet, 500, seed=3),
        "Replay": replay(read_hand_log(str(log), log.read_text()), shoe),
        "StreamReplay": replay_stream(open_log(log), shoe),
        "Rules": load_rules("gold").with_player_option("draw"),
        "Catalog": catalog(),
        "BoundedResult": bounded_session(plan([(e.probability, e.pays) for e in banker.events], 50, 1, 100,
                                              "martingale", 8)),
        "DealtRuns": deal_runs(Shoe.standard(1), 20, seed=1),
    }


HTML_TYPES = ("Analysis", "BetResult", "ParSheet", "Wager", "Approval", "Verification", "Replay", "StreamReplay")


def test_every_result_type_has_a_short_one_line_repr(results):
    got = results
    for name, obj in got.items():
        text = repr(obj)
        assert type(obj).__name__ == name
        assert len(text) < 400 and "\n" not in text, (name, len(text))
        assert text.startswith((f"<{name} ", "load_rules(")), text
    b = got["BankrollResult"]
    assert "flat from 100 (unit 1), 200 coups" in repr(b) and f"~{float(b.ahead_probability):.6g}" in repr(b)
    p = got["Program"]
    assert f"P(net >= 10) ~{float(p.wins[1][1]):.6g}" in repr(p) and "rebate 10% of losses from 0" in repr(p)
    assert f"median {dict(got['RollingChips'].wash_quantiles)[Fraction(1, 2)]} hands" in repr(got["RollingChips"])
    s = got["SeriesResult"]
    assert f"house edge {float(s.house_edge) * 100:.4f}%" in repr(s)
    bounded = got["BoundedResult"]
    assert f"martingale from 50 (unit 1, limit 8), 100 coups: ruin {bounded.ruin}," in repr(bounded)
    runs = got["DealtRuns"]
    assert f"mean longest run: player {float(runs.longest['player'].mean()):.4g}" in repr(runs)
    a = got["Approval"]
    assert f"win to drop {float(a.win_to_drop.hold) * 100:.4f}%" in repr(a) and f"{len(a.awards)} awards" in repr(a)
    assert f"{len(catalog().bets)} bets: player, banker, tie" in repr(got["Catalog"])
    assert repr(got["Replay"]) == repr(got["StreamReplay"]).replace("StreamReplay", "Replay")
    assert "3 violations on 2 rows" in repr(got["Replay"])


def test_every_notebook_table_escapes_what_it_shows(results):
    got = results
    for name in HTML_TYPES:
        page = got[name]._repr_html_()
        assert page.count("<table") >= 1 and page.count("<table") == page.count("</table>"), name
        assert "<i>" not in page and "<b>" not in page and "<odd>" not in page and "a<&b" not in page, name
        # the markup left is the writer's own: every < opens a tag it writes
        assert set(re.findall(r"</?([a-z]+)", page)) <= {"p", "strong", "table", "thead", "tbody", "tr", "th", "td"}
    assert "&lt;i&gt;win&lt;/i&gt; &amp; more" in got["Wager"]._repr_html_()
    assert "&lt;i&gt;win&lt;/i&gt; &amp; more" in got["Verification"]._repr_html_()
    assert "Main &amp; &lt;odd&gt;" in got["Approval"]._repr_html_()
    assert "a&lt;&amp;b.csv" in got["Replay"]._repr_html_()
    assert got["Replay"]._repr_html_().count("<tr") == 1 + len(got["Replay"].violations)
    assert got["Wager"]._repr_html_().count("<tr") == 1 + len(got["Wager"].rows)


def test_notebook_tables_are_the_same_without_pandas(results, monkeypatch):
    got = results
    pages = {name: got[name]._repr_html_() for name in HTML_TYPES}
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError):
        import pandas  # noqa: F401
    assert {name: got[name]._repr_html_() for name in HTML_TYPES} == pages
    assert "<table" in analyze(Shoe.standard(8))._repr_html_()


def test_the_analysis_heading_names_the_rules_and_the_known_cards():
    a = analyze(Shoe.standard(8), ["banker"], rules="gold", known=["1=9", "5=Kh"])
    heading = a._repr_html_().split("</strong>", 1)[0]
    assert "rules gold" in heading and "P1 (position 1) = 9" in heading and f"{a.deals} deals" in heading
    assert a.known.describe() in heading and a.known.describe() in repr(a)


def test_a_notebook_table_has_the_frame_s_columns():
    pd = pytest.importorskip("pandas")  # noqa: F841
    a = analyze(Shoe.standard(8), ["banker", "dragon7"])
    for obj, frame in ((a, a.to_frame()), (a.bet("dragon7"), a.bet("dragon7").to_frame())):
        head = re.search(r"<thead>(.*?)</thead>", obj._repr_html_()).group(1)
        assert re.findall(r"<th>(.*?)</th>", head) == list(frame.columns)
