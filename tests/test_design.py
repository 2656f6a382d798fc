"""The pay-table designer (analyzer.reports.design, ``baccarat design``) and the lookup-table
export (analyzer.reports.export, ``baccarat export``).

The search is checked against brute force over every pay vector (hypothesis), the tables
against ``baccarat odds`` (each priced again as a Bet), the published menus of the catalog
found in the designer's lists, and the lookup tables against ``odds --format json``.
"""

from __future__ import annotations

import itertools
import json
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Shoe, analyze, catalog, load_bets_file
from analyzer.reports.design import DesignError, design, menu, search, table_bet
from analyzer.reports.export import UINT64_MAX, lookup

EIGHT = Shoe.standard(8)
DEALS = 4_998_398_275_503_360       # 416 x 415 x ... x 411
# Dragon Bonus (Player), 8 decks: Wizard of Odds, Baccarat appendix 5 (as tests/test_breakeven.py)
DB_WAYS = {"natural win": 812_685_054_124_032, "natural tie (push)": 89_325_908_267_520,
           "win by 9": 18_409_431_764_992, "win by 8": 34_097_645_543_424,
           "win by 7": 89_590_261_473_280, "win by 6": 141_238_897_317_888,
           "win by 5": 166_169_165_987_840, "win by 4": 186_780_352_174_080}
DB_LOSES = DEALS - sum(DB_WAYS.values())


# --- the integer search against brute force ----------------------------------------------------

def brute(weights, k_min, k_max, s_min, s_max, target, limit, hits, monotone):
    num, den = target
    found = []
    for k in itertools.product(*(range(a, b + 1) for a, b in zip(k_min, k_max))):
        s = sum(x * w for x, w in zip(k, weights))
        if not s_min <= s <= s_max:
            continue
        if monotone and any(k[i] > k[j] for i in range(len(k)) for j in range(len(k)) if weights[i] > weights[j]):
            continue
        if hits is not None and not hits[0] <= sum(w for x, w in zip(k, weights) if x > 0) <= hits[1]:
            continue
        found.append((abs(s * den - num), k))
    found.sort()
    return len(found), tuple(found[:limit])


@st.composite
def problems(draw):
    n = draw(st.integers(1, 4))
    weights = sorted(draw(st.lists(st.sampled_from([1, 2, 3, 5, 7, 13]), min_size=n, max_size=n)), reverse=True)
    k_min = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    k_max = [a + draw(st.integers(-1, 4)) for a in k_min]
    top = max(0, sum(b * w for b, w in zip(k_max, weights)))
    s_min = draw(st.integers(-2, top + 1))
    s_max = s_min + draw(st.integers(0, top // 2 + 1))
    target = (draw(st.integers(0, 6 * top + 6)), draw(st.integers(1, 3)))
    hits = draw(st.none() | st.tuples(st.integers(0, sum(weights)), st.integers(0, 3)).map(
        lambda t: (t[0], sum(weights) - t[1])))
    return weights, k_min, k_max, s_min, s_max, target, draw(st.integers(0, 5)), hits, draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(problems())
def test_the_search_counts_and_ranks_as_brute_force(problem):
    weights, k_min, k_max, s_min, s_max, target, limit, hits, monotone = problem
    found = search(weights, k_min, k_max, s_min, s_max, target, limit, hits=hits, monotone=monotone)
    assert found.complete
    assert (found.count, found.best) == brute(*problem)
    # only the closest wanted: the branches that cannot come closer are cut, the same tables found
    nearest = search(weights, k_min, k_max, s_min, s_max, target, limit, hits=hits, monotone=monotone,
                     counting=False)
    assert nearest.complete and nearest.best == found.best


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_search_past_its_budget_says_so():
    found = search([5, 3, 2, 1], [0] * 4, [30] * 4, 0, 10**6, (100, 1), limit=3, budget=50, monotone=False)
    assert not found.complete and found.nodes == 50
    assert 0 < found.count < brute([5, 3, 2, 1], [0] * 4, [30] * 4, 0, 10**6, (100, 1), 3, None, False)[0]


# --- the designer on a real bet against brute force over every pay table -------------------

def test_dragon_bonus_designs_match_brute_force_over_every_pay_table():
    """Pays 1..4 for the seven free events of Dragon Bonus (Player), the push fixed: every one of
    the 4**7 tables priced from the published counts by hand; the designer's count, and its
    tables (priced through analyze), are the ones in the band."""
    bet = catalog().bet("dragon_bonus_player")
    lo, hi = Fraction(5, 100), Fraction(15, 100)
    free = [n for n in DB_WAYS if n != "natural tie (push)"]
    rarer = [(a, b) for a in free for b in free if DB_WAYS[a] > DB_WAYS[b]]
    inside = {}
    for pays in itertools.product(range(1, 5), repeat=len(free)):
        table = dict(zip(free, pays))
        if any(table[a] > table[b] for a, b in rarer):
            continue
        edge = Fraction(DB_LOSES - sum(table[n] * DB_WAYS[n] for n in free), DEALS)
        if lo <= edge <= hi:
            inside[pays] = edge
    d = design(EIGHT, bet, (lo, hi), max_pay=4, limit=1000)
    assert d.complete and d.count == len(inside) > 10 and len(d.tables) == d.count
    for t in d.tables:
        key = tuple(int(t.pays[n]) for n in free)
        assert inside[key] == t.house_edge
        hits = DEALS - DB_LOSES - DB_WAYS["natural tie (push)"]
        assert t.result.deals == DEALS and t.hit_frequency == Fraction(hits, DEALS)
    centre = (lo + hi) / 2
    gaps = [abs(t.house_edge - centre) for t in d.tables]
    assert gaps == sorted(gaps)
    # the unmonotone count too
    free_count = sum(1 for pays in itertools.product(range(1, 5), repeat=len(free))
                     if lo <= Fraction(DB_LOSES - sum(p * DB_WAYS[n] for p, n in zip(pays, free)), DEALS) <= hi)
    assert design(EIGHT, bet, (lo, hi), max_pay=4, monotone=False, limit=0).count == free_count


def test_every_table_listed_is_what_odds_prints_for_it():
    bet = catalog().bet("dragon_bonus_player")
    d = design(EIGHT, bet, (Fraction(2, 100), Fraction(3, 100)), max_pay=40, limit=3)
    assert len(d.tables) == 3
    for t in d.tables:
        priced = table_bet(bet, t.pays)
        assert analyze(EIGHT, [priced]).bet(bet.id).house_edge == t.house_edge
        assert Fraction(2, 100) <= t.house_edge <= Fraction(3, 100)
        ways = [e.ways for e in t.result.events]
        assert t.result.ev == Fraction(sum(p * w for p, w in zip(t.pays.values(), ways)), DEALS)
        top = max(t.pays.values())
        assert t.top_award == top and t.top_award_frequency == Fraction(
            sum(DB_WAYS[n] for n, p in t.pays.items() if p == top), DEALS)
        assert t.volatility_index[90] == pytest.approx(1.6448536 * t.std_dev)


def test_half_unit_pays_and_fixed_pays():
    bet = catalog().bet("dragon_bonus_player")
    d = design(EIGHT, bet, (Fraction(2, 100), Fraction(3, 100)), max_pay=20, step=Fraction(1, 2),
               fixed={"natural win": 1, "win by 9": 20}, limit=10)
    assert d.tables and all(p.denominator <= 2 for t in d.tables for p in t.pays.values())
    assert any(p.denominator == 2 for t in d.tables for p in t.pays.values())
    assert all(t.pays["natural win"] == 1 and t.pays["win by 9"] == 20 for t in d.tables)
    # pays non-decreasing with rarity, the fixed ones included
    for t in d.tables:
        for a, b in itertools.permutations(DB_WAYS, 2):
            if DB_WAYS[a] > DB_WAYS[b] and t.pays[a] > 0 and t.pays[b] > 0:
                assert t.pays[a] <= t.pays[b]


def test_a_hit_frequency_band_with_pushes_allowed():
    """--min-pay 0: an event may become a push; the hit band then decides which."""
    bet = catalog().bet("dragon_bonus_player")
    d = design(EIGHT, bet, (Fraction(0), Fraction(20, 100)), hit=(Fraction(10, 100), Fraction(13, 100)),
               max_pay=10, min_pay=0, limit=50)
    assert d.complete and d.tables
    for t in d.tables:
        assert Fraction(10, 100) <= t.hit_frequency <= Fraction(13, 100)
        assert t.pays["natural win"] == 0            # the commonest event pushes, or the band is missed


# --- the published menus ----------------------------------------------------------------------

def test_the_designer_finds_both_published_lucky_nines_tables():
    """Lucky Nines, Red Rock (1000/500/35/16/5/2/1) and Binion's (500/250/20/8/5/2/1): Wizard of
    Odds, https://wizardofodds.com/games/baccarat/side-bets/lucky-nines/ (the catalog's source).
    A menu of the two published edges, exactly, the three smallest pays as printed: each
    vendor's table is in the list of its edge."""
    red, binions = catalog().bet("lucky_nines"), catalog().bet("lucky_nines_binions")
    assert "wizardofodds.com/games/baccarat/side-bets/lucky-nines" in red.source == binions.source
    edges = [analyze(EIGHT, [b]).bet(b.id).house_edge for b in (red, binions)]
    assert f"{float(edges[0]):.4%}" == "8.2730%" and f"{float(edges[1]):.4%}" == "19.0583%"
    designs = menu(EIGHT, red, edges, tolerance=0, max_pay=1000, limit=100,
                   fixed={"2 nines, mixed suits": 5, "1 nine of diamonds": 2, "1 nine": 1})
    for d, bet, edge in zip(designs, (red, binions), edges):
        assert d.complete and 0 < d.count <= 100
        published = {e.event: e.pays for e in bet.events} | {"loses": Fraction(-1)}
        assert published in [t.pays for t in d.tables]
        assert all(t.house_edge == edge for t in d.tables)
    assert [d.count for d in designs] == [42, 11]


def test_the_designer_finds_the_two_dragon_bonus_tables():
    """Dragon Bonus as the Wizard of Odds prints it (the catalog's ``dragon_bonus_player``: win by
    9/8/7/6/5/4 pays 30/10/6/4/2/1) and as Cypress Bayou prints it (30/10/4/4/2/2: "Win by 6 or 7
    points pays 4 to 1, Win by 4 or 5 points pays 2 to 1", cypressbayou.com/play-casino-table-games/
    mini-baccarat), a natural win 1 to 1 and a natural tie a push in both: with pays at most 30, each
    is the one table of its exact edge."""
    wizard = catalog().bet("dragon_bonus_player")
    cypress = table_bet(wizard, {"win by 7": 4, "win by 4": 2})
    edges = [analyze(EIGHT, [b]).bet(b.id).house_edge for b in (wizard, cypress)]
    assert [f"{float(e):.4%}" for e in edges] == ["2.6517%", "2.4996%"]
    designs = menu(EIGHT, wizard, edges, tolerance=0, max_pay=30, fixed={"natural win": 1})
    for d, bet in zip(designs, (wizard, cypress)):
        assert d.complete and d.count == 1
        assert d.tables[0].pays == {e.event: e.pays for e in bet.events} | {"loses": -1}


# --- series bets: Banker Streak's four tables --------------------------------------------------

#: Banker Streak, Wizard of Odds, https://wizardofodds.com/games/baccarat/side-bets/banker-streak/
#: (the catalog's source): pay table 1's analysis prints the total return -0.094006; the stored
#: copy of the page shows that analysis only, so tables 2-4's edges are the exact ones to the
#: page's six decimals (tests/test_series.py checks them against the page's probabilities).
STREAK_EDGES = {"banker_streak": "9.4006%", "banker_streak_2": "11.8293%", "banker_streak_3": "13.8865%",
                "banker_streak_4": "16.4047%"}
STREAK_FIXED = ("4=10", "5=15", "7=40", "8=60")       # the pays the four tables share but 6


@pytest.mark.slow  # 7 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_the_designer_prices_a_series_bet_by_run_length_and_odds_agrees(cli):
    """A series bet's events are its paid run lengths, each at its exact probability off the
    top of the shoe; every table listed is priced again as a series bet (the path of
    ``baccarat odds --bets``) and meets the bands exactly."""
    from analyzer.bets.series import price_series

    bet = catalog().series["banker_streak"]
    lo, hi = Fraction(9, 100), Fraction(10, 100)
    d = design(EIGHT, bet, (lo, hi), hit=(Fraction(4, 100), Fraction(5, 100)), max_pay=250, limit=5)
    assert d.free == ("4", "5", "6", "7", "8", "9", "10 or more") and len(d.tables) == 5
    for t in d.tables:
        r, = price_series(EIGHT, [table_bet(bet, t.pays)])
        assert r.house_edge == t.house_edge and lo <= t.house_edge <= hi
        assert r.hit_frequency == t.hit_frequency and Fraction(4, 100) <= t.hit_frequency <= Fraction(5, 100)
        assert t.pays["3 or less"] == -1
        assert r.ev == sum(t.pays[bet.event_name(k) if k in dict(bet.pays) else "3 or less"]
                           * r.length_probability(k) for k in range(bet.cap + 1))
    # the command prints what odds prints for the table found
    status, out, _ = cli("design", "--bet", "banker_streak", "--edge", "9%:10%", "--max-pay", "250",
                         "--limit", "1", "--format", "json")
    t = json.loads(out)["tables"][0]
    pays = {k: Fraction(v) for k, v in t["pays"].items()}
    r, = price_series(EIGHT, [table_bet(bet, pays)])
    assert status == 0 and Fraction(t["house_edge"]) == r.house_edge


def test_the_designer_finds_banker_streaks_four_published_tables(cli):
    """A menu of the four published edges, each +- half a unit of its 4th decimal, the pays the
    tables share fixed: each band lists a handful of tables, the vendor's own among them."""
    argv = ["design", "--bet", "banker_streak", "--edge", ",".join(STREAK_EDGES.values()),
            "--tolerance", "0.00005%", "--max-pay", "250", "--format", "json"]
    for f in STREAK_FIXED:
        argv += ["--fix", f]
    status, out, _ = cli(*argv)
    doc = json.loads(out)
    assert status == 0 and [s["count"] for s in doc["searches"]] == [4, 3, 3, 2]
    assert all(s["complete"] for s in doc["searches"])
    for i, (bet_id, edge) in enumerate(STREAK_EDGES.items()):
        bet = catalog().series[bet_id]
        assert "wizardofodds.com/games/baccarat/side-bets/banker-streak" in bet.source
        published = {bet.event_name(k): str(p) for k, p in bet.pays} | {"3 or less": "-1"}
        found = [t for t in doc["tables"] if t["search"] == i]
        assert published in [t["pays"] for t in found]
        assert all(f"{t['house_edge_float']:.4%}" == edge for t in found)


@pytest.mark.slow  # 3 s (the table's compile); its default twin: test_card_bets.py::test_lucky_win_player_is_jacobsons_edge
def test_lucky_win_s_two_published_edges_for_pay_table_1(cli):
    """Lucky Win (Player), pay table #1: Eliot Jacobson's 12.040% and Galaxy's rack sheet's 12.07%
    (https://888casino.com/blog/side-bets/card-counting-the-lucky-win-baccarat-side-bet).  With
    the 1s' pays fixed as printed (500, 200, 30) and the others at most 30, the band of
    Jacobson's figure holds one table, the published one; the band of Galaxy's holds six, none
    of them the published table."""
    fix = ["--fix", "1 in spades=500", "--fix", "1 in other suit=200", "--fix", "1 off suit=30"]
    path = Path(__file__).resolve().parents[1] / "examples" / "lucky_win.toml"  # a bets file: 3 s to compile
    bet = load_bets_file(path).bet("lucky_win_player")
    published = {e.event: str(e.pays) for e in bet.events} | {"loses": "-1"}
    counts = []
    for band in ("12.0395%:12.0405%", "12.065%:12.075%"):
        status, out, _ = cli("design", "--bets-file", str(path), "--bet", "lucky_win_player", "--edge", band, "--max-pay", "30",
                             *fix, "--format", "json")
        doc = json.loads(out)
        assert status == 0 and doc["searches"][0]["complete"]
        counts.append((doc["searches"][0]["count"], published in [t["pays"] for t in doc["tables"]]))
        for t in doc["tables"]:                         # each re-priced as odds prices a bet
            priced = table_bet(bet, {k: Fraction(v) for k, v in t["pays"].items()})
            assert Fraction(t["house_edge"]) == analyze(EIGHT, [priced]).bet(bet.id).house_edge
    assert counts == [(1, True), (6, False)]


# --- constraints no table meets -------------------------------------------------------------

def test_an_edge_band_below_reach_names_the_largest_pay():
    bet = catalog().bet("dragon_bonus_player")
    with pytest.raises(DesignError, match=r"with pays at most 2 the lowest edge is 11\.2468%"):
        design(EIGHT, bet, (Fraction(2, 100), Fraction(3, 100)), max_pay=2)
    with pytest.raises(DesignError, match="with pays at least 5 the highest edge is"):
        design(EIGHT, bet, (Fraction(90, 100), Fraction(95, 100)), max_pay=10, min_pay=5)
    with pytest.raises(DesignError, match=r"hit frequency in 50\.0000%\.\.60\.0000%: its events hit 28\.9887%"):
        design(EIGHT, bet, (Fraction(0), Fraction(10, 100)), hit=(Fraction(1, 2), Fraction(6, 10)))


def test_a_band_between_the_pays_steps_is_no_fit_and_names_the_nearest_tables():
    """The Tie pays 8 (edge 14.36%) or 9 (4.84%) or 10 (-4.67%): a 2.0%..2.1% band is between."""
    d = design(EIGHT, catalog().bet("tie"), (Fraction(2, 100), Fraction(21, 1000)))
    assert d.count == 0 and d.complete and not d.tables and "steps miss the band" in d.reason
    tie = analyze(EIGHT, ["tie"]).bet("tie")
    nine, ten = (table_bet(tie.bet, {"tie": p}) for p in (9, 10))
    edges = [analyze(EIGHT, [b]).bet("tie").house_edge for b in (ten, nine)]
    assert f"the nearest tables have edges {float(edges[0]):.6%} and {float(edges[1]):.6%})" in d.reason


# --- the command --------------------------------------------------------------------------------

def test_design_json_lists_the_tables_with_pays_by_event_and_the_exact_edge(cli):
    status, out, err = cli("design", "--bet", "dragon_bonus_player", "--edge", "2%:3%",
                           "--max-pay", "30", "--limit", "4", "--format", "json")
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert doc["bet"] == "dragon_bonus_player" and doc["deals"] == DEALS
    (s,) = doc["searches"]
    assert s["complete"] and s["count"] > 4 and s["listed"] == 4 and s["not_listed"] == s["count"] - 4
    assert len(doc["tables"]) == 4
    for t in doc["tables"]:
        assert set(t["pays"]) == set(DB_WAYS) | {"loses"}
        edge = Fraction(t["house_edge"])
        assert Fraction(2, 100) <= edge <= Fraction(3, 100)
        # `odds` on the same pays prints the same edge
        ev = sum(Fraction(t["pays"][n]) * w for n, w in DB_WAYS.items()) - DB_LOSES
        assert -Fraction(ev, DEALS) == edge
        assert set(t) >= {"hit_frequency", "variance", "std_dev", "volatility_index", "top_award",
                          "top_award_frequency"}


def test_design_menu_markdown_and_csv(cli):
    status, out, _ = cli("design", "--bet", "dragon_bonus_player", "--edge", "2%,4%", "--max-pay", "30",
                         "--limit", "2")
    assert status == 0 and out.count("## House edge") == 2 and "1.9000% to 2.1000%" in out
    status, out, _ = cli("design", "--bet", "dragon_bonus_player", "--edge", "2%,4%", "--max-pay", "30",
                         "--limit", "2", "--format", "csv")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("search,edge_low,edge_high,natural win") and len(lines) == 5


@pytest.mark.parametrize("argv, message", [
    (["--edge", "2%:3%", "--max-pay", "2"], "no table reaches a house edge in 2.0000%..3.0000%: with pays at most 2"),
    (["--edge", "3%:2%"], "the low end is above the high end"),
    (["--edge", "x"], "--edge must be a number"),
    (["--edge", "2%", "--fix", "nope=3"], "has no event 'nope'"),
    (["--edge", "2%", "--fix", "win by 9"], "--fix must be EVENT=PAY"),
    (["--edge", "2%", "--max-pay", "-3"], "--max-pay"),
    (["--edge", "2%", "--limit", "5000"], "--limit must be at most 1,000"),
    (["--edge", "2%", "--hit", "20%"], "--hit must be a band"),
    (["--edge", "2%:2.00001%"], "steps miss the band"),
    (["--edge", "2%:3%", "--fix", "natural win=5", "--fix", "win by 9=2"],
     "the fixed pays fall with rarity: 'natural win' pays 5 but the rarer 'win by 9' pays 2"),
    (["--edge", "2%:3%", "--fix", "natural win=5", "--fix", "win by 4=6", "--max-pay", "5"],
     "the fixed pays leave no room"),
])
def test_design_bad_input_is_one_line_and_exit_2(cli, argv, message):
    status, out, err = cli("design", "--bet", "dragon_bonus_player", *argv)
    assert status == 2 and out == ""
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1 and message in err


def test_a_query_over_ten_events_is_under_ten_seconds(tmp_path, cli):
    """The speed target: one bet of 10 events (Banker wins with a three-card total of
    1..9, a tie with a three-card Banker), pays up to 1000 to 1."""
    events = "\n".join(f'  {{ event = "banker wins with a three-card {t}", when = "winner == banker and '
                       f'banker_cards == 3 and banker_total == {t}", pays = 1 }},' for t in range(1, 10))
    events += '\n  { event = "three-card tie", when = "winner == tie and banker_cards == 3", pays = 1 },'
    path = tmp_path / "ten.toml"
    path.write_text(f'[[bet]]\nid = "ten"\nname = "Ten"\nevents = [\n{events}\n]\n')
    analyze(EIGHT, [catalog().bet("banker")])           # the engine warm, as a second query finds it
    start = time.perf_counter()
    status, out, _ = cli("design", "--bet", "ten", "--bets-file", str(path), "--edge", "2%:4%",
                         "--max-pay", "1000", "--format", "json")
    elapsed = time.perf_counter() - start
    doc = json.loads(out)
    assert status == 0 and len(doc["free_events"]) == 10 and len(doc["tables"]) == 20
    assert elapsed < 10, elapsed


# --- the lookup table -----------------------------------------------------------------------------

@pytest.mark.parametrize("bet_id", ["banker", "dragon_bonus_player", "ez_banker", "lucky_nines"])
def test_the_lookup_table_is_the_odds_distribution(cli, bet_id):
    status, out, _ = cli("odds", "--bets", bet_id, "--format", "json")
    odds = json.loads(out)["bets"][bet_id]
    status2, out2, _ = cli("export", "--bet", bet_id)
    doc = json.loads(out2)
    assert status == status2 == 0 and doc["uint64"] and doc["total"] <= UINT64_MAX
    assert sum(r["weight"] for r in doc["rows"]) == doc["total"] == doc["check"]["weights_sum"]
    assert doc["total"] * doc["gcd"] == doc["deals"] == json.loads(out)["deals"]
    ev = sum(Fraction(r["pays"]) * r["weight"] for r in doc["rows"]) / doc["total"]
    assert ev == Fraction(odds["ev"]) == Fraction(doc["ev"])
    by_pay: dict[Fraction, Fraction] = {}
    for e in odds["events"]:
        by_pay[Fraction(e["pays"])] = by_pay.get(Fraction(e["pays"]), 0) + Fraction(e["probability"])
    assert {Fraction(r["pays"]): Fraction(r["weight"], doc["total"]) for r in doc["rows"]} == \
        {p: q for p, q in by_pay.items() if q}
    assert all(Fraction(r["multiplier"]) == Fraction(r["pays"]) + 1 for r in doc["rows"])


def test_the_lookup_merges_events_of_one_pay_and_says_when_uint64_is_passed():
    t = lookup(analyze(EIGHT, ["ez_banker"]).bet("ez_banker"))
    (push,) = [r for r in t.rows if r.pays == 0]
    assert push.events == ("banker wins with a three-card 7 (push)", "tie (push)")
    big = Shoe.standard(40)
    t = lookup(analyze(big, ["tie"]).bet("tie"))
    assert t.deals == 2080 * 2079 * 2078 * 2077 * 2076 * 2075
    assert t.total == t.deals // t.gcd and (t.total > UINT64_MAX) == (not t.uint64)


def test_export_csv_and_markdown(cli):
    status, out, _ = cli("export", "--bet", "banker", "--format", "csv")
    assert status == 0 and out.splitlines() == [
        "pays,multiplier,weight,total,events",
        "-1,0,8712962041376,19524993263685,loses",
        "0,1,1857919634661,19524993263685,tie (push)",
        "19/20,39/20,8954111587648,19524993263685,banker wins"]
    status, out, _ = cli("export", "--bet", "banker", "--format", "md")
    assert status == 0 and "fit a uint64" in out and "-114753351728/10847218479825" in out
    status, out, err = cli("export", "--bet", "nope")
    assert status == 2 and out == "" and err.startswith("baccarat: error: unknown bet 'nope'")


def test_export_and_design_under_other_rules(cli):
    """--rules gold: the lookup table's EV is ``odds --rules gold``'s, and a designed table's
    edge is priced under those rules."""
    _, out, _ = cli("odds", "--bets", "tie", "--rules", "gold", "--format", "json")
    gold_ev = Fraction(json.loads(out)["bets"]["tie"]["ev"])
    status, out, _ = cli("export", "--bet", "tie", "--rules", "gold")
    assert status == 0 and Fraction(json.loads(out)["ev"]) == gold_ev != analyze(EIGHT, ["tie"]).bet("tie").ev
    status, out, _ = cli("design", "--bet", "tie", "--rules", "gold", "--edge", "0%:20%", "--format", "json")
    (table,) = [t for t in json.loads(out)["tables"] if t["pays"]["tie"] == "8"]
    assert status == 0 and -Fraction(table["house_edge"]) == gold_ev
