"""Outcome-only logs: frequencies, run lengths and serial dependence."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.simcheck.check import report_csv, report_json, report_markdown
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.shapes import read_log
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.streaks import (AFFINE_FROM, check_outcomes, expected_runs, run_cov,
                                       run_lengths, run_moments)

EIGHT = Shoe.standard(8)
ALPHA, POWER, DETECT = Fraction(1, 100), Fraction(9, 10), Fraction(1, 1000)


P8 = None


def p8():
    global P8
    if P8 is None:
        from analyzer.simcheck.families import build_families
        from analyzer.simcheck.reference import off_the_top
        ref = off_the_top(EIGHT, build_families((), ("outcome",)), 1)
        P8 = list(ref.families["outcome"].expected)
    return P8


def _brute(p, n, K):
    S = 3 * K
    m, M = np.zeros(S), np.zeros((S, S))
    for seq in itertools.product(range(3), repeat=n):
        pr = float(np.prod([p[o] for o in seq]))
        c = np.zeros(S)
        for o, k in run_lengths(np.array(seq), np.zeros(n, dtype=int)):
            c[o * K + min(k, K) - 1] += 1
        m += pr * c
        M += pr * np.outer(c, c)
    return m, M - np.outer(m, m)


@pytest.mark.parametrize("K", [2, 3])
def test_run_moments_against_brute_force(K):
    p = (0.44, 0.46, 0.10)
    means, covs = run_moments(p, 7, K)
    for n in range(1, 8):
        m, c = _brute(p, n, K)
        assert np.allclose(means[n], m, atol=1e-13) and np.allclose(covs[n], c, atol=1e-13)
        q = [Fraction(x).limit_denominator(100) for x in p]
        for o in range(3):
            for k in range(1, K + 1):
                assert float(expected_runs(q[o], n, k, at_least=(k == K))) == pytest.approx(m[o * K + k - 1])


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_covariance_is_affine_beyond_a_few_runs():
    p = tuple(float(x) for x in p8())
    _, covs = run_moments(p, AFFINE_FROM + 15)
    assert np.allclose(run_cov(p, AFFINE_FROM + 15), covs[-1], rtol=1e-9, atol=1e-9)


def test_banker_streaks_against_the_published_table():
    """Wizard of Odds, "Banker Streak" (https://wizardofodds.com/games/baccarat/side-bets/banker-streak/),
    8 decks: probability that the Banker wins exactly k in a row after a Player or Tie win (10: 10 or
    more).  The long-run rate of runs per coup that is not a Banker win is ``p^k (1 - p)``."""
    published = {4: 0.023947, 5: 0.010982, 6: 0.005036, 7: 0.002310, 8: 0.001059, 9: 0.000486, 10: 0.000411}
    pb = p8()[1]
    n = 10**9
    for k, value in published.items():
        runs = expected_runs(pb, n, k, at_least=(k == 10))
        assert float(runs / (n * (1 - pb))) == pytest.approx(value, abs=6e-7)


def _outcome_csv(log):
    rows = ["shoe,outcome"] + [f"{log.shoe_ids[log.shoe[k]]},{'PBT'[log.outcome[k]]}" for k in range(log.coups)]
    return "\n".join(rows) + "\n"


def _beads(log):
    shoes: dict[str, str] = {}
    for k in range(log.coups):
        s = log.shoe_ids[log.shoe[k]]
        shoes[s] = shoes.get(s, "") + "PBT"[log.outcome[k]]
    return "shoe,results\n" + "".join(f"{s},{b}\n" for s, b in shoes.items())


@pytest.fixture(scope="module")
def dealt():
    text, _ = simulate_to_text(EIGHT, 125, 3)
    return read_hand_log("hands.csv", text)


def test_outcome_rows_and_bead_strings_read_the_same_coups(dealt):
    a = read_log("o.csv", _outcome_csv(dealt))
    b = read_log("b.csv", _beads(dealt))
    assert a.outcome.tolist() == b.outcome.tolist() == dealt.outcome.tolist()
    assert a.shoe.tolist() == b.shoe.tolist() == dealt.shoe.tolist()
    assert a.shape == "read as outcomes only, 1 row per coup (CSV)"
    assert b.shape == "read as bead strings, one row per shoe (CSV)"
    ra, rb = (check_outcomes(x, EIGHT, ALPHA, POWER, DETECT) for x in (a, b))
    assert [(t.name, float(t.p)) for t in ra.tests] == [(t.name, float(t.p)) for t in rb.tests]
    assert ra.verdict == "PASS"
    names = [t.name for t in ra.tests]
    assert "z serial repeats" in names and any(n.startswith("chi-square run lengths") for n in names)
    md, js, cs = report_markdown(ra), report_json(ra), report_csv(ra)
    assert "## Runs" in md and "## Serial dependence" in md and '"sections"' in js and "z serial repeats" in cs
    assert "repeat rate" in md


def _iid_shoes(seed, shoes=125, per_shoe=80, repeat=0.0):
    """Outcomes with the exact 8-deck frequencies; with ``repeat`` > 0 each coup copies the one before
    (same shoe) with that probability, which keeps the frequencies and raises the repeat rate."""
    rng = np.random.default_rng(seed)
    p = np.array([float(x) for x in p8()])
    lines = ["shoe,outcome"]
    for s in range(shoes):
        prev = None
        for _ in range(per_shoe):
            o = prev if prev is not None and rng.random() < repeat else int(rng.choice(3, p=p))
            lines.append(f"{s + 1},{'PBT'[o]}")
            prev = o
    return "\n".join(lines) + "\n"


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_streaky_simulator_fails_at_10000_coups():
    """Right frequencies, 5% of coups copying the one before (repeat rate +2.9 points): caught by the
    serial test at 10,000 coups (8 seeds of 8), while the correct one passes (8 of 8)."""
    for seed in range(8):
        good = check_outcomes(read_log("g.csv", _iid_shoes(seed)), EIGHT, ALPHA, POWER, DETECT)
        bad = check_outcomes(read_log("s.csv", _iid_shoes(seed, repeat=0.05)), EIGHT, ALPHA, POWER, DETECT)
        assert good.verdict == "PASS", seed
        assert bad.verdict == "FAIL", seed
        assert "z serial repeats" in [t.name for t in bad.tests if t.rejected]
        assert not next(t for t in bad.tests if t.name.startswith("chi-square outcome")).rejected


def test_check_passes_fair_bead_strings_fails_streaky_ones_and_refuses_bad_beads(tmp_path, cli, dealt):
    f = tmp_path / "beads.csv"
    f.write_text(_beads(dealt))
    r = cli("check", f, "--quiet")
    assert r.code == 0 and "PASS" in r.out
    g = tmp_path / "streaky.csv"
    g.write_text(_iid_shoes(1, repeat=0.05))
    r = cli("check", g, "--quiet", "--format", "csv")
    assert r.code == 1 and "z serial repeats" in r.out
    for args in (["check", f, "--reference", "shoe-aware"], ["verify", f]):
        captured = cli(*args)
        assert captured.code == 2
        assert captured.out == "" and captured.err.startswith("baccarat: error: ")
    h = tmp_path / "bad.csv"
    h.write_text("shoe,results\n1,BPPXB\n")
    r = cli("check", h)
    assert r.code == 2 and "row 2: bead string has 'X' at position 4" in r.err


@pytest.mark.slow
def test_false_alarms_on_shoe_logs_at_the_stated_rate():
    """Correct 8-deck shoes dealt to a cut card, outcomes only (where independence is an
    approximation): 200 logs of about 10,250 coups, alarms at alpha 0.01 within binomial error
    (measured: 1 in 100)."""
    from analyzer.simcheck.outcomes import OutcomeLog
    alarms = 0
    for seed in range(200):
        text, _ = simulate_to_text(EIGHT, 125, 1000 + seed)
        h = read_hand_log("h.csv", text)
        r = check_outcomes(OutcomeLog("h", "", h.rows, h.shoe, h.shoe_ids, h.outcome), EIGHT, ALPHA, POWER, DETECT)
        alarms += r.failed
    assert alarms <= 7   # P(Binomial(200, 0.01) > 7) < 0.001
