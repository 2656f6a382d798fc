"""Approval figures of the par sheet (``parsheet --approval``) and its verification appendix.

Reference values are hand computations: every ordered six-card deal of a small shoe dealt
by the oracle of ``tests/oracle.py`` (the rules written again from RULES.md, no engine code),
each bet settled by its pay table as written out here; and, for the rare award, the count
of the deals that show the named cards, multiplied out by hand.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from oracle import six_card_counts

from analyzer.bets.catalog import catalog, load_bets_file
from analyzer.core.shoe import Shoe
from analyzer.reports.approval import GLI_GAMES, ApprovalError, approval
from analyzer.reports.parsheet import parsheet
from analyzer.simcheck.confirm import ConfirmError, max_rounds, verify_sheet
from analyzer.simcheck.families import bet_family
from analyzer.simcheck.reference import FamilyReference
from analyzer.simcheck.stats import cell_stats, normal_p

MAIN = ("banker", "player", "tie", "player_pair")
RANK_CHARS = "A23456789TJQK"


def net(bet: str, coup: dict) -> Fraction:
    """One unit's net result on ``bet`` (bets.toml's pay tables, written out again)."""
    w = coup["winner"]
    if bet == "banker":
        return Fraction(19, 20) if w == "banker" else Fraction(0) if w == "tie" else Fraction(-1)
    if bet == "player":
        return Fraction(1) if w == "player" else Fraction(0) if w == "tie" else Fraction(-1)
    if bet == "tie":
        return Fraction(8) if w == "tie" else Fraction(-1)
    p = coup["player_cards"]
    return Fraction(11) if p[0] == p[1] else Fraction(-1)        # player_pair: same rank


@st.composite
def rank_shoes(draw):
    """A rank-only shoe of 7 to 9 cards from two to four ranks, as oracle card names."""
    ranks = draw(st.lists(st.sampled_from(RANK_CHARS), min_size=2, max_size=4, unique=True))
    cards = draw(st.lists(st.sampled_from(ranks), min_size=7, max_size=9))
    return sorted(cards)


def shoe_of(cards: list[str]) -> Shoe:
    return Shoe.parse(",".join(f"{r}={n}" for r, n in Counter(cards).items()))


def hand_mix(cards: list[str], amounts: dict[str, Fraction]):
    """Over every ordered deal: the ways of each bet's paying outcome, and the house's exact
    mean and variance per hand, ``H = -sum a_i X_i``, from the joint outcome of each deal."""
    results, deals = six_card_counts(cards, key=lambda c: tuple(net(b, c) for b in MAIN))
    mean = sum((k * -sum(amounts[b] * x for b, x in zip(MAIN, r)) for r, k in results.items()), Fraction(0)) / deals
    second = sum((k * sum(amounts[b] * x for b, x in zip(MAIN, r)) ** 2 for r, k in results.items()),
                 Fraction(0)) / deals
    paying = {b: sum(k for r, k in results.items() if r[i] > 0) for i, b in enumerate(MAIN)}
    return deals, paying, mean, second - mean * mean


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=rank_shoes(), amounts=st.lists(st.integers(0, 100), min_size=4, max_size=4).filter(any),
       hph=st.integers(1, 500), hpd=st.integers(1, 24))
@pytest.mark.slow  # 6 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_award_frequencies_and_win_to_drop_match_a_hand_computation(cards, amounts, hph, hpd):
    shoe = shoe_of(cards)
    amounts = {b: Fraction(a) for b, a in zip(MAIN, amounts)}
    sheet = parsheet(shoe, catalog().select(list(MAIN)), by_decks=())
    a = approval(sheet, {b: x for b, x in amounts.items() if x}, hands_per_hour=hph, hours_per_day=hpd)
    deals, paying, mean, variance = hand_mix(cards, amounts)
    assert sheet.deals == deals == math.perm(len(cards), 6)
    # every award is one event paying more than 0 (each of these bets has one); ways as by hand
    assert [(x.bet, x.ways) for x in a.awards] == [(b, paying[b]) for b in MAIN]
    for x in a.awards:
        assert x.probability == Fraction(paying[x.bet], deals)
        assert x.one_in == (Fraction(deals, paying[x.bet]) if paying[x.bet] else None)
        assert x.below_gli == (paying[x.bet] * GLI_GAMES < deals)
    w = a.win_to_drop
    staked = sum(amounts.values())
    assert w.staked == staked and w.win == mean and w.hold == mean / staked
    assert w.variance == variance                       # exact: the joint outcomes, not independence
    assert w.win_per_hour == mean * hph
    z = NormalDist().inv_cdf(0.975)
    for b, days in zip(w.bands, (1, 30, 365)):
        n = hph * hpd * days
        assert b.hands == n and b.mean == mean / staked
        assert b.half_width == pytest.approx(z * math.sqrt(variance / n) / float(staked), rel=1e-12)


def test_largest_win_and_its_frequency_by_hand():
    cards = ["A", "A", "5", "5", "T", "T", "T", "9"]
    sheet = parsheet(shoe_of(cards), catalog().select(["tie", "banker"]), by_decks=())
    tally, deals = six_card_counts(cards)
    tie, banker = approval(sheet).max_wins
    assert (tie.pays, tie.events, tie.ways, tie.deals) == (8, ("tie",), tally["tie"], deals)
    assert (banker.pays, banker.ways) == (Fraction(19, 20), tally["banker"])


def test_the_mix_is_not_a_sum_of_independent_bets():
    """Banker and Player on the same coup are strongly (negatively) correlated: the exact
    variance of one unit on each is far below the sum of their variances."""
    sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player"]), by_decks=(8,))
    w = approval(sheet).win_to_drop
    b, p = sheet.wager("banker"), sheet.wager("player")
    assert w.variance is not None and w.variance < (b.variance + p.variance) / 10
    # the par sheet's hold band (one unit on each) is the same mix
    assert sheet.hold is not None and w.hold == sheet.hold.mean and w.variance == 4 * sheet.hold.variance


RARE_BETS = """
[[bet]]
id = "spade_aces"
name = "Spade Aces"
description = "Made up for a test: the aces of spades."
events = [
  { event = "six aces of spades", when = "cards == 6 and all(all, rank == A and suit == spades)", pays = 100000 },
  { event = "four aces of spades", when = "all(first4, rank == A and suit == spades)", pays = 1000 },
]
"""


def rare_sheet(tmp_path):
    path = tmp_path / "rare.toml"
    path.write_text(RARE_BETS, encoding="utf-8")
    return path


def test_an_award_rarer_than_one_in_100_million_is_flagged(tmp_path):
    bet = load_bets_file(rare_sheet(tmp_path)).bet("spade_aces")
    sheet = parsheet(Shoe.standard(8), (bet,), by_decks=(8,))
    a = approval(sheet)
    six, four = a.awards
    assert six.ways == 8 * 7 * 6 * 5 * 4 * 3 and six.deals == math.perm(416, 6)     # by hand, as below
    assert six.below_gli and not four.below_gli and a.flagged == (six,)
    assert [x.below_limit for x in approval(sheet, rarest=10 ** 7).awards] == [True, True]


def test_rare_award_flags_from_the_command_line(tmp_path, cli):
    path = rare_sheet(tmp_path)
    doc = cli.json("parsheet", "--bets-file", path, "--bets", "spade_aces", "--by-decks", "8",
                   "--approval", "--rarest", "1e7", "--format", "json")
    deals = math.perm(416, 6)
    six, four = doc["approval"]["awards"]
    # by hand: the 8 aces of spades of 8 decks at all six positions (both hands draw on A-A: 2),
    # or at the first four and not both of the fifth and sixth
    assert six["ways"] == 8 * 7 * 6 * 5 * 4 * 3
    assert four["ways"] == 8 * 7 * 6 * 5 * (412 * 411 - 4 * 3)
    assert 2e11 < deals / six["ways"] < 3e11
    assert (six["below_gli"], six["below_limit"]) == (True, True)
    assert 10 ** 7 < deals / four["ways"] < 10 ** 8                     # 1 in 17.6 million:
    assert (four["below_gli"], four["below_limit"]) == (False, True)    # under --rarest 1e7 only
    md = cli.ok("parsheet", "--bets-file", path, "--bets", "spade_aces", "--by-decks", "8",
                "--approval", "--rarest", "1e7")
    cells = {row[2]: row[6:] for row in (re.split(r"\s*\|\s*", line) for line in md.splitlines())
             if len(row) == 10 and row[1] == "spade_aces"}             # the award table's rows
    assert cells["six aces of spades"] == ["4.03329e-12", "247,936,422,396.00", "GLI-11, limit", ""]
    assert cells["four aces of spades"] == ["5.69098e-08", "17,571,681.25", "limit", ""]
    assert "Flagged: 2 awards rarer than 1 in 100,000,000 or the stated limit 1 in 10,000,000" in md


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_verification_z_scores_are_simcheck_statistics():
    sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player", "tie"]), by_decks=(8,))
    v = verify_sheet(sheet, 30_000, seed=5)
    assert v.rounds == 30_000 and v.verdict == "PASS"
    for w in sheet.wagers:
        cells = v.cells[w.id]
        observed = [c.observed for c in cells]
        assert sum(observed) == 30_000
        # the same cells from simcheck's functions, on the sheet's exact probabilities
        p = [r.probability for r in w.rows]
        pf = np.array([float(x) for x in p])
        ref = FamilyReference(bet_family(w.bet), [30_000 * x for x in p], [30_000 * x * (1 - x) for x in p],
                              30_000 * (np.diag(pf) - np.outer(pf, pf)))
        assert [(c.z, c.p) for c in cells] == [(c.z, c.p) for c in cell_stats(ref, np.array(observed))]
        for c, x in zip(cells, p):                 # and by the formula
            assert c.expected == 30_000 * x
            assert c.z == pytest.approx((c.observed - 30_000 * float(x)) / math.sqrt(30_000 * float(x * (1 - x))))
            assert float(c.p) == pytest.approx(float(normal_p(c.z)))
    # Holm: the smallest p times the number of tests, capped at 1
    smallest = min(v.tests, key=lambda t: float(t.p))
    assert float(smallest.adjusted) == pytest.approx(min(1.0, len(v.tests) * float(smallest.p)))
    # the same seed deals the same rounds
    assert [c.observed for c in verify_sheet(sheet, 30_000, seed=5).cells["tie"]] == \
        [c.observed for c in v.cells["tie"]]


@pytest.mark.slow  # 4 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_verification_catches_a_wrong_table():
    """A table whose tie is 10% too likely (z about 10 at 100,000 rounds) fails; the right one passes."""
    import dataclasses
    sheet = parsheet(Shoe.standard(8), catalog().select(["tie"]), by_decks=(8,))
    tie, loses = sheet.wagers[0].rows
    more = tie.ways * 11 // 10
    rows = (dataclasses.replace(tie, ways=more, probability=Fraction(more, sheet.deals)),
            dataclasses.replace(loses, ways=sheet.deals - more, probability=Fraction(sheet.deals - more, sheet.deals)))
    wrong = dataclasses.replace(sheet, wagers=(dataclasses.replace(sheet.wagers[0], rows=rows),))
    assert verify_sheet(sheet, 100_000, seed=2).verdict == "PASS"
    v = verify_sheet(wrong, 100_000, seed=2)
    assert v.verdict == "FAIL" and all(t.rejected for t in v.tests if t.kind == "chi-square")
    assert v.cells["tie"][0].z < -8


def test_verification_skips_bets_on_ranks_and_suits():
    sheet = parsheet(Shoe.standard(8), catalog().select(["tie", "player_pair"]), by_decks=(8,))
    v = verify_sheet(sheet, 1_000, seed=0)
    assert list(v.cells) == ["tie"] and v.skipped == ("player_pair",)
    only = parsheet(Shoe.standard(8), catalog().select(["player_pair"]), by_decks=(8,))
    with pytest.raises(ConfirmError, match="point values only"):
        verify_sheet(only, 1_000)


def test_verify_budget_is_refused_before_work():
    assert max_rounds(416) == 5_000_000
    sheet = parsheet(Shoe.standard(8), catalog().select(["tie"]), by_decks=(8,))
    with pytest.raises(ConfirmError, match="at most 5,000,000"):
        verify_sheet(sheet, 5_000_001)


def test_without_approval_options_the_sheet_is_unchanged(cli):
    plain = cli.ok("parsheet", "--bets", "banker,tie", "--by-decks", "8")
    assert "Approval figures" not in plain
    both = cli.ok("parsheet", "--bets", "banker,tie", "--by-decks", "8", "--mix", "banker=10,tie=1")
    head, _, rest = plain.partition("Reproduce:")
    assert both.startswith(head) and rest.split("\n", 1)[1] in both       # every wager's section, as it was
    assert "--approval --mix banker=10,tie=1 --hands-per-hour 70 --hours-per-day 24" in both


def test_every_format_carries_the_approval_figures(tmp_path, cli):
    args = ("parsheet", "--bets", "banker,player,tie", "--by-decks", "8", "--mix", "banker=100,player=50,tie=5",
            "--hands-per-hour", "70", "--hours-per-day", "16", "--verify", "2000", "--seed", "1")
    doc = cli.json(*args, "--format", "json")["approval"]
    assert doc["win_to_drop"]["hold"] == "9346332676664/605274791174235"      # 1.5441%, see approval.py
    assert [b["hands"] for b in doc["win_to_drop"]["bands"]] == [1120, 33600, 408800]
    assert doc["verification"]["verdict"] == "PASS" and doc["verification"]["rounds"] == 2000
    csv = cli.ok(*args, "--format", "csv")
    assert ",banker,award,banker wins,19/20," in csv and ",table,win_to_drop,hold,,,9346332676664/" in csv
    assert ",table,verify,verdict,,,PASS," in csv
    md = cli.ok(*args)
    assert "## Verification appendix" in md and "**PASS: 14 tests, 0 rejected" in md
    pytest.importorskip("openpyxl")
    out = tmp_path / "sheet.xlsx"
    cli.ok(*args, "--format", "xlsx", "--output", out)
    import openpyxl
    wb = openpyxl.load_workbook(out)
    assert "approval" in wb.sheetnames
    values = [c for row in wb["approval"].iter_rows(values_only=True) for c in row if c is not None]
    assert "Verification appendix" in values and "9346332676664/605274791174235" in values


@pytest.mark.parametrize("argv, message", [
    (["--mix", "banker=0"], "--mix: the amount on 'banker' must be more than 0"),
    (["--mix", "banker"], "--mix must be wager=amount items"),
    (["--mix", "banker=1,banker=2"], "--mix names 'banker' twice"),
    (["--mix", "dragon7=5"], "--mix names 'dragon7', which is not a wager of the sheet"),
    (["--rarest", "1"], "--rarest must be a whole number of coups from 2 to 1e30"),
    (["--rarest", "lots"], "--rarest must be a number of coups"),
    (["--hands-per-hour", "0"], "--hands-per-hour must be at least 1"),
    (["--hours-per-day", "25"], "--hours-per-day must be at most 24"),
    (["--verify", "0"], "--verify must be at least 1"),
    (["--verify", "9999999999"], "--verify 9,999,999,999 rounds is beyond the budget for a shoe of 416 cards"),
    (["--verify", "10", "--alpha", "2"], "--alpha must be strictly between 0 and 1"),
])
def test_bad_approval_input_is_one_line(argv, message, cli):
    assert message in cli.error("parsheet", "--bets", "banker,tie", *argv)


def test_verify_of_bets_on_ranks_only_is_refused_before_work(cli):
    assert "point values only" in cli.error("parsheet", "--bets", "player_pair", "--verify", "10")


def test_api_refuses_bad_values():
    sheet = parsheet(Shoe.standard(8), catalog().select(["tie"]), by_decks=(8,))
    with pytest.raises(ApprovalError, match="hands per hour"):
        approval(sheet, hands_per_hour=0)
    with pytest.raises(ApprovalError, match="not a wager of the sheet"):
        approval(sheet, {"banker": Fraction(1)})


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_verification_deals_the_sheets_rules():
    """Under Baccarat Gold (its own Banker table) the appendix's counts are the reference
    simulator's under those rules, seed for seed, and they pass against the Gold table."""
    from analyzer.core.rules import GOLD
    from analyzer.simcheck.simulate import simulate
    sheet = parsheet(Shoe.standard(8), catalog().select(["tie"]), by_decks=(8,), rules=GOLD)
    assert sheet.rules is GOLD
    v = verify_sheet(sheet, 20_000, seed=4)
    sim = simulate(Shoe.standard(8), shoes=20_000, seed=4, cut_card=416, bets=catalog().select(["tie"]),
                   rules=sheet.rules)
    assert [c.observed for c in v.cells["tie"]] == list(sim.events["tie"]) and v.verdict == "PASS"
