"""``baccarat check``: exact references, statistics, and the broken simulators each test must catch.

Every simulation here has a fixed seed, so every assertion is deterministic.  The
numbers of hands quoted in the README ("caught within N hands") are the ones used here.
"""

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from analyzer import Shoe, analyze
from analyzer.simcheck.check import CheckError, _select_bets, check_log, check_tallies
from analyzer.simcheck.families import build_families, counter_for
from analyzer.simcheck.reference import off_the_top, shoe_aware
from analyzer.simcheck.stats import Finding, chi2_p, chi_square, hands_needed, holm, normal_p, normal_quantile
from analyzer.core.engine import falling
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.simulate import Faults, simulate, simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)
ONE = Shoe.standard(1)
MAIN = ("player", "banker", "tie")


def families(bets=MAIN):
    return build_families(_select_bets(bets, None))


def shoe_of_values(vc):
    """A rank-only shoe with these counts of values 0..9 (tens carry value 0)."""
    vc = [int(x) for x in vc]
    return Shoe(vc[1:] + [vc[0], 0, 0, 0])


def log_from_sim(shoe, shoes, seed, **kw):
    text, result = simulate_to_text(shoe, shoes, seed, **kw)
    return read_hand_log("sim.csv", text), result


# -- the exact reference -------------------------------------------------------------------

def test_batched_counts_are_exact_on_every_tier():
    fams = families()
    c = counter_for(fams)
    rng = np.random.default_rng(5)
    for decks in (1, 8, 9, 30):   # float64 (<= 458 cards), int64, Python-integer tiers
        full = np.array(Shoe.standard(decks).value_counts)
        vcs = np.maximum(full - rng.integers(0, 4 * decks, (6, 10)), 0)
        vcs[0] = full
        vcs[1] = [0, 0, 1, 0, 2, 0, 0, 3, 0, 1]  # tiny: values missing, fewer cards than positions
        w = c.ways(vcs)
        exact = c.ways_exact(vcs)
        assert [[int(x) for x in row] for row in w] == [[int(x) for x in row] for row in exact]
        for row, vc in zip(exact, vcs):
            n = int(vc.sum())
            # each family partitions all ordered deals
            for fam in fams:
                assert sum(int(x) for x in row[fam.rows]) == falling(n, 6)
    # and the outcome cells are the engine's
    a = analyze(EIGHT)
    w0 = c.ways_exact(EIGHT.value_counts)[0]
    assert [int(x) for x in w0[:3]] == [a.ways(o) for o in MAIN]


def test_shoe_aware_sums_equal_per_coup_exact_solves():
    # Brute force: one exact analyze() per coup, summed as Fractions.
    log, _ = log_from_sim(ONE, 8, 3, burn=True, cut_card=6)
    rep = replay(log, ONE)
    assert rep.ok and log.seen, "burn cards are in the seen column"
    keep = rep.unseen >= 6
    fams = families()
    ref = shoe_aware(ONE, fams, rep.remaining[keep])
    exp = {o: Fraction(0) for o in MAIN}
    var = dict(exp)
    ev = dict(exp)
    bet_var = dict(exp)
    cards_exp = [Fraction(0)] * 3
    for vc in rep.remaining[keep]:
        a = analyze(shoe_of_values(vc))
        for o in MAIN:
            p = a.probability(o)
            exp[o] += p
            var[o] += p * (1 - p)
            ev[o] += a.bet(o).ev
            bet_var[o] += a.bet(o).variance
        one = off_the_top(shoe_of_values(vc), fams, 1).families["cards"]
        cards_exp = [x + y for x, y in zip(cards_exp, one.expected)]
    assert ref.families["outcome"].expected == [exp[o] for o in MAIN]
    assert ref.families["outcome"].variance == [var[o] for o in MAIN]
    assert ref.families["cards"].expected == cards_exp
    for o in MAIN:
        assert ref.families[f"bet:{o}"].expected_return == ev[o]
        assert ref.families[f"bet:{o}"].return_variance == bet_var[o]
    # the float covariance agrees with the exact variances on its diagonal
    cov = ref.families["outcome"].cov
    assert np.allclose(np.diag(cov), [float(var[o]) for o in MAIN], rtol=1e-12)


def test_off_the_top_is_n_times_the_exact_probabilities():
    ref = off_the_top(EIGHT, families(), 1000)
    a = analyze(EIGHT)
    assert ref.families["outcome"].expected == [1000 * a.probability(o) for o in MAIN]
    assert ref.families["bet:banker"].expected_return == 1000 * a.bet("banker").ev
    assert ref.families["bet:banker"].return_variance == 1000 * a.bet("banker").variance


def test_chi_square_off_the_top_is_pearson():
    ref = off_the_top(EIGHT, families(), 10_000).families["outcome"]
    observed = np.array([4400, 4650, 950])
    c = chi_square(ref, observed)
    e = [float(x) for x in ref.expected]
    pearson = sum((o - x) ** 2 / x for o, x in zip(observed, e))
    assert c.df == 2 and c.statistic == pytest.approx(pearson, rel=1e-9)
    assert float(c.p) == pytest.approx(math.exp(-pearson / 2), rel=1e-9)  # chi-square 2 df tail


def test_small_cells_are_pooled():
    ref = off_the_top(EIGHT, families(), 300).families["totals"]
    c = chi_square(ref, np.round([float(x) for x in ref.expected]).astype(int))
    assert c.pooled > 0 and c.df < 99
    assert all(sum(float(ref.expected[ref.family.labels.index(lab)]) for lab in g.split("+")) >= 5
               for g in c.groups)


def test_p_values_and_quantiles():
    assert float(normal_p(1.959963984540054)) == pytest.approx(0.05, rel=1e-12)
    assert float(chi2_p(5.991464547107979, 2)) == pytest.approx(0.05, rel=1e-12)
    assert float(chi2_p(123.2252, 99)) == pytest.approx(0.05, rel=1e-5)
    assert normal_quantile(0.025) == pytest.approx(1.959963984540054, rel=1e-12)
    import mpmath
    assert 0 < normal_p(60) < mpmath.mpf("1e-700")     # far beyond float range, still a number


def test_holm_rejects_and_adjusts_in_step_down_order():
    tests = [Finding(str(i), "z", "", p) for i, p in enumerate([0.001, 0.04, 0.03, 0.5, 0.0004])]
    holm(tests, 0.05)
    assert [t.rejected for t in tests] == [True, False, False, False, True]
    assert [round(t.threshold, 6) for t in tests] == [0.0125, 0.025, 0.016667, 0.05, 0.01]
    assert float(tests[0].adjusted) == pytest.approx(0.004)
    assert float(tests[1].adjusted) == pytest.approx(0.09)


def test_hands_needed_is_the_normal_approximations():
    # 0.1 percentage point on the Tie at alpha 0.01 over 12 tests, 90% power (normal approximation).
    p = float(analyze(EIGHT).probability("tie"))
    n = hands_needed(math.sqrt(p * (1 - p)), 0.001, 0.01 / 12, 0.9)
    za, zb = normal_quantile(0.01 / 24), normal_quantile(0.1)
    assert n == math.ceil(((za + zb) * math.sqrt(p * (1 - p)) / 0.001) ** 2)
    assert 1_800_000 < n < 2_000_000


# -- a correct simulator passes, at the stated rate of false alarms ---------------------------

def test_correct_simulator_passes():
    log, result = log_from_sim(EIGHT, 60, 2024, burn=True)
    rep = check_log(log, EIGHT)
    # 15 tests of the coups, and the card order (on by default for a log with ranks)
    assert rep.verdict == "PASS" and rep.m == 16
    assert "chi-square order (12 df)" in [t.name for t in rep.tests]
    assert check_log(log, EIGHT, order=False).m == 15
    assert check_tallies(result.as_tallies(), EIGHT).verdict == "PASS"


def _rates(reports, level):
    per_test = sum(float(t.p) < level for r in reports for t in r.tests) / sum(len(r.tests) for r in reports)
    return per_test


@pytest.mark.slow  # 7 s; test_false_alarm_rate_off_the_top_tallies is the default run's false-alarm check
def test_false_alarm_rate_shoe_aware():
    # 80 independent correct logs of about 1,600 coups: the family-wise alarm rate must not exceed
    # alpha beyond sampling error, and each test's p-values must be uniform (checked at 0.1).
    reports = []
    for seed in range(80):
        log, _ = log_from_sim(EIGHT, 20, 10_000 + seed)
        reports.append(check_log(log, EIGHT, alpha=Fraction(1, 10)))
    alarms = sum(r.failed for r in reports)
    assert alarms <= 8 + 3 * math.sqrt(80 * 0.1 * 0.9)
    chi_outcome = [float(t.p) < 0.1 for r in reports for t in r.tests if t.name.startswith("chi-square outcome")]
    assert abs(sum(chi_outcome) - 8) <= 3.5 * math.sqrt(80 * 0.1 * 0.9)
    rate = _rates(reports, 0.1)
    assert 0.06 < rate < 0.14


@pytest.mark.slow  # 8 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_false_alarm_rate_off_the_top_tallies():
    # Coups dealt off the top of a fresh shoe (cut card 52: one coup per 1-deck shoe): 100 runs of 2,000 coups.
    reports = [check_tallies(simulate(ONE, 2000, 20_000 + s, cut_card=52).as_tallies(), ONE,
                             alpha=Fraction(1, 10)) for s in range(100)]
    alarms = sum(r.failed for r in reports)
    assert alarms <= 10 + 3 * math.sqrt(100 * 0.09)
    chi_outcome = [float(t.p) < 0.1 for r in reports for t in r.tests if t.name.startswith("chi-square outcome")]
    assert abs(sum(chi_outcome) - 10) <= 3.5 * math.sqrt(100 * 0.09)
    assert 0.06 < _rates(reports, 0.1) < 0.14


@pytest.mark.slow
def test_false_alarm_rate_at_alpha_001_many_seeds():
    reports = []
    for seed in range(1000):
        log, _ = log_from_sim(EIGHT, 20, 50_000 + seed)
        reports.append(check_log(log, EIGHT))
    alarms = sum(r.failed for r in reports)
    assert alarms <= 10 + 3 * math.sqrt(1000 * 0.01)
    assert 0.08 < _rates(reports, 0.1) < 0.12


# -- broken simulators, each caught by the check that should catch it -----------------------------

@pytest.mark.slow  # 3 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_biased_shuffle_caught_shoe_aware_not_off_the_top():
    # The naive swap shuffle of a shoe built rank by rank.  Every coup still follows the rules and
    # every shoe holds the right cards (verify passes), and the aggregate frequencies are right
    # (the off-the-top reference sees nothing), but each coup's distribution given the cards already
    # seen is wrong: the shoe-aware check catches it within 100,000 hands.
    log, _ = log_from_sim(EIGHT, 1250, 105, faults=Faults(biased_shuffle=True))
    assert 100_000 < log.coups < 105_000
    assert replay(log, EIGHT).ok
    shoe_aware_report = check_log(log, EIGHT)
    off_top_report = check_log(log, EIGHT, reference="off-the-top")
    assert shoe_aware_report.verdict == "FAIL"
    assert any(t.rejected and "totals" in t.name for t in shoe_aware_report.tests)
    assert off_top_report.verdict == "PASS"


@pytest.mark.slow
def test_biased_shuffle_caught_for_every_seed_at_200k_hands():
    for seed in range(8):
        log, _ = log_from_sim(EIGHT, 2500, 300 + seed, faults=Faults(biased_shuffle=True))
        assert check_log(log, EIGHT).verdict == "FAIL", seed


@pytest.mark.slow  # 3 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_dealing_with_replacement_caught_by_statistics_in_tallies():
    # Tallies have no cards, so only statistics can see cards drawn with replacement.  From a 1-deck
    # shoe (where with and without replacement differ most) 200,000 hands give p < 1e-12; the same
    # simulator without the fault passes.
    bad = simulate(ONE, 200_000, 7, cut_card=52, faults=Faults(with_replacement=True))
    good = simulate(ONE, 200_000, 7, cut_card=52)
    bad_report = check_tallies(bad.as_tallies(), ONE)
    assert bad_report.verdict == "FAIL"
    assert min(float(t.p) for t in bad_report.tests) < 1e-12
    assert check_tallies(good.as_tallies(), ONE).verdict == "PASS"
    # The power statement is what tells a lab that 8 decks need tens of millions of hands.
    eight = check_tallies(simulate(EIGHT, 2000, 7).as_tallies(), EIGHT, detect=Fraction(27, 100_000))
    tie = next(p for p in eight.power_rows if p.what == "tie frequency")
    assert tie.hands > 20_000_000


def test_with_replacement_log_refused_by_check():
    log, _ = log_from_sim(EIGHT, 2, 3, faults=Faults(with_replacement=True))
    with pytest.raises(CheckError, match=r"sim.csv: row \d+: shoe '\d+' deals a 9th .*run 'baccarat verify'"):
        check_log(log, EIGHT)


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_commission_paid_as_4_percent_caught_by_the_bet_check():
    # Exact: with every coup bet, the Banker return is fixed by the outcome counts (0.95 a win).
    small = simulate(EIGHT, 120, 8, faults=Faults(banker_pays=Fraction(24, 25)))
    report = check_tallies(small.as_tallies(), EIGHT)
    assert report.verdict == "FAIL"
    assert [t.name for t in report.exact if t.rejected] == ["bet banker return agrees with the counts"]
    assert not any(t.rejected for t in report.tests)
    # Statistical: the z of the Banker bet alone, as the power statement predicts (~1.2 million hands
    # for a 0.46-point shift in EV at this level), rejects at 1.5 million hands.
    big = simulate(EIGHT, 18_750, 9, faults=Faults(banker_pays=Fraction(24, 25)))
    assert big.coups > 1_500_000
    report = check_tallies(big.as_tallies(), EIGHT)
    rejected = [t.name for t in report.tests if t.rejected]
    assert "z bet banker" in rejected and "z bet player" not in rejected
    banker = next(p for p in report.power_rows if p.what == "banker bet mean return")
    need = hands_needed(banker.sd, float(Fraction(1, 100) * analyze(EIGHT).probability("banker")),
                        0.01 / report.m, 0.9)
    assert need < big.coups


def test_wrong_tableau_and_ninth_ace_are_refused_by_check():
    log, _ = log_from_sim(EIGHT, 20, 11, faults=Faults(banker_cell=(5, 4)))
    with pytest.raises(CheckError, match="banker stood on 5 although player's third card was 4 and 6 more"):
        check_log(log, EIGHT)
    log, _ = log_from_sim(EIGHT, 4, 5, faults=Faults(extra_card="As"))
    with pytest.raises(CheckError, match="deals a 9th As"):
        check_log(log, EIGHT)


# -- shoe-aware versus off the top -----------------------------------------------------------

def test_shoe_aware_reference_differs_per_coup():
    # Late in a one-deck shoe each coup's exact distribution is far from the off-the-top one; the
    # shoe-aware expectation follows it coup by coup.
    log, _ = log_from_sim(ONE, 200, 4, cut_card=6)
    rep = replay(log, ONE)
    keep = rep.unseen >= 6
    fams = families()
    counts = counter_for(fams).ways(rep.remaining[keep])
    deals = np.array([falling(int(n), 6) for n in rep.unseen[keep]], dtype=float)
    tie = counts[:, 2] / deals
    p0 = float(analyze(ONE).probability("tie"))
    assert tie.max() - tie.min() > 0.1 and abs(tie.mean() - p0) < 0.01
    sa = shoe_aware(ONE, fams, rep.remaining[keep]).families["outcome"]
    ot = off_the_top(ONE, fams, int(keep.sum())).families["outcome"]
    assert sa.expected != ot.expected
    # the per-coup variances sum to less than the off-the-top binomial variance (Jensen)
    assert all(a < b for a, b in zip(sa.variance, ot.variance))


def test_coups_with_fewer_than_six_unseen_cards_are_left_out():
    # Ten cards: the first coup uses six, the second starts with four unseen cards (a natural).
    ten = Shoe.parse("A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,T=1")
    log = read_hand_log("h.csv", "shoe,player,banker\n1,A 3 6,2 4 7\n1,8 T,9 5\n")
    assert replay(log, ten).ok
    rep = check_log(log, ten)
    assert rep.excluded == 1 and rep.coups == 1
    assert any("fewer than 6 unseen cards" in n for n in rep.notes)
    assert check_log(log, ten, reference="off-the-top").coups == 2


# -- bets -----------------------------------------------------------------------------------

@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_catalog_side_bets_on_point_values_work_in_both_references():
    from analyzer.bets.catalog import catalog
    from analyzer.simcheck.families import value_only
    ids = [b for b, bet in catalog().bets.items() if value_only(bet)][:8]
    log, result = log_from_sim(EIGHT, 30, 77, bets=tuple(ids))
    rep = check_log(log, EIGHT, bets=tuple(ids))
    assert {b.bet.id for b in rep.bets} == set(ids)
    for b in rep.bets:   # the log's returns are the simulator's tallies, exactly
        assert b.observed == result.bets[b.bet.id][1]
    tal = check_tallies(result.as_tallies(), EIGHT)
    assert {b.bet.id for b in tal.bets} == set(ids)
    assert tal.verdict == rep.verdict == "PASS"


def test_bets_on_cards_are_refused_for_logs():
    from analyzer.bets.catalog import catalog
    from analyzer.simcheck.families import value_only
    card_bets = [b for b, bet in catalog().bets.items() if not value_only(bet)]
    if not card_bets:
        pytest.skip("no rank/suit bets in the catalog")
    log, _ = log_from_sim(EIGHT, 1, 1)
    with pytest.raises(CheckError, match="reads ranks or suits"):
        check_log(log, EIGHT, bets=(card_bets[0],))


# -- the command -----------------------------------------------------------------------------

def test_check_passes_a_fair_simulation_in_each_format_and_exits_1_on_a_fault(tmp_path, cli):
    hands, tallies = tmp_path / "hands.csv", tmp_path / "tallies.csv"
    assert cli("simulate", "--shoes", "10", "--seed", "3", "--log", hands, "--tallies", tallies, "--burn").code == 0
    r = cli("check", hands)
    assert r.code == 0
    assert "**PASS**" in r.out and "shoe-aware" in r.out and "hands needed" in r.out
    r = cli("check", tallies, "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["reference"] == "off-the-top" and doc["verdict"] == "PASS" and doc["input"] == "tallies"
    r = cli("check", hands, "--reference", "off-the-top", "--format", "csv")
    assert r.code == 0 and r.out.startswith("test,kind,statistic,p,")
    # a failing verdict exits 1
    bad = tmp_path / "bad.csv"
    assert cli("simulate", "--shoes", "100", "--seed", "3", "--tallies", bad, "--fault", "commission=0.04").code == 0
    r = cli("check", bad)
    assert r.code == 1 and "**FAIL**" in r.out


@pytest.mark.parametrize("content, args, message", [
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\n", ["--reference", "shoe-aware"],
     "tallies have no shoe boundaries"),
    ("shoe,player,banker\n1,7 8,9 K\n", ["--reference", "sideways"], "unknown --reference 'sideways'"),
    ("shoe,player,banker\n1,7 8,9 K\n", ["--alpha", "2"], "--alpha must be between 1e-15 and 1"),
    ("shoe,player,banker\n1,7 8,9 K\n", ["--detect", "x"], "--detect must be a number"),
    ("shoe,player,banker\n1,2 3 4,K 5\n", [], "h.csv: row 2: banker stood on 5"),
    ("shoe,player,banker\n1,As 7s,Ah 7h\n", ["--shoe", "A=0,7=8,K=8"], "h.csv: row 2: As is not in the declared"),
    ("shoe,player,banker\n1,7 8,9 K\n", ["--bets", "nosuchbet"], "unknown bet 'nosuchbet'"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:nosuch,3,1\n", [],
     "h.csv: row 5: unknown bet 'nosuch'"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\n", ["--bets", "banker"],
     "h.csv: no row bet:banker"),
    ("shoe,player\n1,7 8\n", [], "h.csv: row 1: missing column 'banker'"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:tie,4,1\n", [],
     "h.csv: row 5: bet:tie counts 4 coups bet, more than the 3 coups"),
    ("category,count,total_return\nplayer,1,\nbanker,1,\ntie,1,\nbet:tie,3,25\n", [],
     "h.csv: row 5: bet:tie returns 25 over 3 coups, outside what its pay table allows (-3 to 24)"),
    ("", [], "h.csv: empty file"),
])
def test_check_refuses_bad_input_in_one_line_with_no_verdict(tmp_path, cli, content, args, message):
    path = tmp_path / "h.csv"
    path.write_text(content)
    captured = cli("check", path, *args)
    assert captured.code == 2
    assert captured.out == "", "no verdict unless the input was read completely"
    err = captured.err.strip()
    assert err.startswith("baccarat: error: ") and message in err and "\n" not in err


def test_check_reads_json_lines_logs(tmp_path, cli):
    path = tmp_path / "hands.jsonl"
    assert cli("simulate", "--shoes", "5", "--seed", "1", "--log", path).code == 0
    first = json.loads(path.read_text().splitlines()[0])
    assert set(first) == {"shoe", "player", "banker", "outcome"}
    r = cli("check", path)
    assert r.code == 0 and "**PASS**" in r.out


JACKPOT = """
[[bet]]
id = "huge_payout"
name = "Jackpot"
events = [{ event = "banker wins with a three-card 7", when = "winner == banker and banker_cards == 3 and banker_total == 7", pays = 1000000 }]
"""


@pytest.mark.parametrize("decks, cut", [(8, 300), (30, 1500)])
def test_exact_sums_for_huge_payouts_and_huge_shoes(decks, cut):
    # A 1,000,000:1 payout pushes the bet's per-coup numerators past int64, and a 30-deck shoe
    # its deal counts past 2**63: both take the Python-integer paths, still exact.
    from analyzer.core.solver import Solver
    from analyzer.bets.catalog import catalog, parse_catalog
    shoe = Shoe.standard(decks)
    cat = catalog().merged(parse_catalog(JACKPOT, "jackpot.toml"))
    bets = (cat.bet("banker"), cat.bet("huge_payout"))
    log, _ = log_from_sim(shoe, 1, 6, cut_card=cut)
    rep = replay(log, shoe)
    ref = shoe_aware(shoe, build_families(bets), rep.remaining)
    solver = Solver(list(bets))
    for b in bets:
        ev = var = Fraction(0)
        for vc in rep.remaining:
            r = solver.solve(shoe_of_values(vc)).bet(b.id)
            ev += r.ev
            var += r.variance
        assert ref.families[f"bet:{b.id}"].expected_return == ev
        assert ref.families[f"bet:{b.id}"].return_variance == var
    exp = [Fraction(0)] * 3
    for vc in rep.remaining:
        a = solver.solve(shoe_of_values(vc))
        exp = [x + a.probability(o) for x, o in zip(exp, MAIN)]
    assert ref.families["outcome"].expected == exp


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_jobs_give_the_same_result():
    log, _ = log_from_sim(EIGHT, 120, 31)
    one = check_log(log, EIGHT)
    two = check_log(log, EIGHT, jobs=2)
    for key in one.cells:
        assert [(c.expected, c.variance) for c in one.cells[key]] == [(c.expected, c.variance) for c in two.cells[key]]
    assert [(b.expected, b.variance) for b in one.bets] == [(b.expected, b.variance) for b in two.bets]
    assert [c.statistic for c in one.chisq] == pytest.approx([c.statistic for c in two.chisq], rel=1e-9)
    assert [z for _, z, _ in one.depletion] == pytest.approx([z for _, z, _ in two.depletion], rel=1e-9)
