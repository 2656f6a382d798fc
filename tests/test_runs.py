"""``baccarat runs``: the longest run and the runs of at least k in a shoe.

The exact figures are checked against brute force (every one of the ``3**n`` outcome
sequences of a few coups, weighed by its ways, on generated ways), against the expected run
counts of :mod:`analyzer.simcheck.streaks` (an independent formula), against Wizard of Odds'
baccarat appendix 4 and a published 8-deck figure; the dealt shoes against the coups the study
deals; the command in each format and on bad input.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Shoe, analyze
from analyzer.reports.runs import (
    CONVENTIONS,
    OUTCOMES,
    CoupWays,
    RunsError,
    at_least_ways,
    check_question,
    longest_ways,
    runs,
    streaks_from_start,
)


def brute(ways: CoupWays, n: int, convention: str, k: int):
    """By enumeration: per outcome, {longest run: ways} and {runs of k or more: ways}."""
    w = (ways.player, ways.banker, ways.tie)
    longest = {o: [0] * (n + 1) for o in range(3)}
    counts = {o: [0] * (n + 2) for o in range(3)}
    for seq in itertools.product(range(3), repeat=n):
        weight = math.prod(w[s] for s in seq)
        kept = [s for s in seq if s != 2] if convention == "ties-ignored" else seq
        groups = [(o, len(list(g))) for o, g in itertools.groupby(kept)]
        for o in range(3):
            mine = [m for x, m in groups if x == o]
            longest[o][max(mine, default=0)] += weight
            counts[o][sum(1 for m in mine if m >= k)] += weight
    return longest, counts


def trimmed(values) -> list[int]:
    values = list(values)
    while values and values[-1] == 0:
        values.pop()
    return values


ways_strategy = st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)).filter(
    lambda t: t[0] + t[1] > 0).map(lambda t: CoupWays(*t))


@settings(max_examples=80, deadline=None)
@given(ways=ways_strategy, n=st.integers(1, 6), k=st.integers(1, 4), convention=st.sampled_from(CONVENTIONS))
def test_exact_figures_are_brute_force(ways, n, k, convention):
    longest, counts = brute(ways, n, convention, k)
    outcomes = ("player", "banker") if convention == "ties-ignored" else OUTCOMES
    for o in outcomes:
        i = OUTCOMES.index(o)
        assert list(longest_ways(ways, o, n, convention)) == longest[i], o
        assert trimmed(at_least_ways(ways, o, n, k, convention)) == trimmed(counts[i]), o


@settings(max_examples=30, deadline=None)
@given(ways=ways_strategy, n=st.integers(1, 40), k=st.integers(1, 6), convention=st.sampled_from(CONVENTIONS))
def test_every_distribution_sums_to_the_denominator(ways, n, k, convention):
    r = runs(ways, n, (k,), convention)
    for o in r.outcomes:
        assert sum(r.longest[o]) == r.denominator == ways.total ** n
        assert sum(r.counts[(o, k)]) == r.denominator
        # a run of k or more exists exactly when the count of such runs is not 0
        assert r.longest_at_least(o, k) == 1 - r.count_distribution(o, k)[0][1]


def test_mean_runs_are_the_streaks_modules_expectation():
    """The mean number of runs of k or more of 80 coups of 8 decks (ties end runs) is the closed form
    ``p^k (1 + (n - k) q)`` of :func:`analyzer.simcheck.streaks.expected_runs`, exactly."""
    from analyzer.simcheck.streaks import expected_runs
    ways = CoupWays.of(analyze(Shoe.standard(8)))
    r = runs(ways, 80, (1, 3, 7))
    for o in OUTCOMES:
        for k in (1, 3, 7):
            assert r.mean_count(o, k) == expected_runs(ways.probability(o), 80, k, at_least=True)


#: Wizard of Odds, "Streaks in Baccarat", baccarat appendix 4 (last updated August 22, 2016),
#: https://wizardofodds.com/games/baccarat/appendix/4/ : "Runs in Baccarat — Six Decks", the
#: probability of winning exactly 0 to 19 bets in a row, and 20 or more, from a starting
#: point; ties ignored.  Eight decimals as published.
APPENDIX_4 = {
    "banker": [0.49316293, 0.24995325, 0.12668557, 0.06420894, 0.03254347, 0.01649424, 0.00835989,
               0.0042371, 0.00214752, 0.00108844, 0.00055166, 0.0002796, 0.00014171, 0.00007183,
               0.0000364, 0.00001845, 0.00000935, 0.00000474, 0.0000024, 0.00000122, 0.00000125],
    "player": [0.50683707, 0.24995325, 0.12326768, 0.06079105, 0.02997989, 0.01478497, 0.0072914,
               0.00359585, 0.00177334, 0.00087455, 0.00043129, 0.0002127, 0.00010489, 0.00005173,
               0.00002551, 0.00001258, 0.0000062, 0.00000306, 0.00000151, 0.00000074, 0.00000072],
}


def test_appendix_4_is_reproduced():
    ways = CoupWays.of(analyze(Shoe.standard(6)))
    for outcome, published in APPENDIX_4.items():
        ours = streaks_from_start(ways, outcome, "ties-ignored")
        assert [j for j, _ in ours] == [str(j) for j in range(20)] + ["20+"]
        assert sum(p for _, p in ours) == 1
        for (j, p), q in zip(ours, published):
            assert abs(float(p) - q) <= 5e-9, (outcome, j, float(p), q)


def test_the_command_shows_appendix_4(cli):
    out = cli.ok("runs", "--decks", "6", "--coups", "80", "--ties", "ignored", "--at-least", "none")
    table = out.split("## Streaks from a starting point", 1)[1]
    for j, (p, b) in enumerate(zip(APPENDIX_4["player"], APPENDIX_4["banker"])):
        label = f"{j}+" if j == 20 else str(j)
        assert f"| {label:<3} | {p:.8f} | {b:.8f} |" in table


def test_no_banker_run_of_three_in_81_coups():
    """Ace2 (Wizard of Vegas forum, "Probability of Baccarat Streaks", Mar 17 2018): "I get 99.46%.
    Assuming infinite deck, 81 trials ((52 x 8 - 15) / 4.94)" for at least one run of 3 Bankers in
    a shoe: independent coups of 8 decks, a Tie ending a run."""
    r = runs(CoupWays.of(analyze(Shoe.standard(8))), 81, (3,))
    assert round(float(r.longest_at_least("banker", 3)), 4) == 0.9946


def test_a_shoe_of_eight_decks_takes_well_under_a_second():
    """The speed bound: the runs of 80 coups off the top of 8 decks, computed and written, in
    under 1 s (about 0.05 s here)."""
    import time

    from analyzer.reports.runs_tables import runs_markdown
    start = time.perf_counter()
    runs_markdown(runs(CoupWays.of(analyze(Shoe.standard(8))), 80, (3,)))
    assert time.perf_counter() - start < 1


def test_bad_questions_are_refused_before_any_work():
    ways = CoupWays(1, 1, 1)
    for coups in (0, -1, 10**9, True, 2.5):
        with pytest.raises(RunsError):
            check_question(ways, coups)
    with pytest.raises(RunsError, match="work budget"):
        check_question(CoupWays.of(analyze(Shoe.standard(8))), 999, (3,))
    with pytest.raises(RunsError, match="no runs of ties"):
        longest_ways(ways, "tie", 3, "ties-ignored")
    with pytest.raises(RunsError, match="convention"):
        runs(ways, 3, (), "ties-sometimes")
    with pytest.raises(RunsError, match="run length"):
        runs(ways, 3, (0,))


def test_runs_frame_sums_to_one_per_statistic_and_outcome():
    pytest.importorskip("pandas")
    r = runs(CoupWays(3, 2, 1), 5, (2,))
    f = r.to_frame()
    assert set(f.statistic) == {"longest", "runs_at_least"} and set(f.outcome) == set(OUTCOMES)
    for _, g in f.groupby(["statistic", "outcome"]):
        assert sum(g.probability) == 1
    assert "probability_float" in f.columns
    assert "<table" in r._repr_html_()
    from analyzer.studies.runs import deal_runs
    d = deal_runs(Shoe.standard(1), 4, seed=2, at_least=(2,))
    frame = d.to_frame()
    assert frame.shoe.tolist() == [0, 1, 2, 3] and frame.coups.tolist() == d.coups.tolist()
    assert frame.runs_banker_2.tolist() == d.counts[("banker", 2)].tolist()


# -- dealt shoes ------------------------------------------------------------------------------

def test_dealt_shoes_are_the_studys_shoes_and_their_winners():
    """Each dealt shoe has the study's coups, and its runs are those of the winners that
    :func:`analyzer.core.rules.play_coup` deals from its cards."""
    from analyzer.core.cards import POINTS, RANKS
    from analyzer.core.rules import play_coup
    from analyzer.studies import StudyParams
    from analyzer.studies.dealing import deal_shoe
    from analyzer.studies.runs import deal_runs, run_lengths
    shoe = Shoe.standard(2)
    d = deal_runs(shoe, 6, seed=5, cut_card=14, burn="standard", at_least=(2, 3))
    params = StudyParams.create(shoe, shoes=6, seed=5, cut_card=14, bet_ids=("banker",), count=(), burn="standard")
    for i in range(6):
        dealt = deal_shoe(params, i)
        values = [POINTS[RANKS[r]] for r in dealt.ranks.tolist()]
        winners = [("player", "banker", "tie").index(play_coup(values[s:s + 6]).winner) for s in dealt.starts]
        assert d.coups[i] == len(winners)
        lengths = run_lengths(winners)
        for code, o in enumerate(OUTCOMES):
            mine = [n for w, n in lengths if w == code]
            assert d.longest[o][i] == max(mine, default=0)
            assert d.counts[(o, 3)][i] == sum(n >= 3 for n in mine)


def test_dealt_shoes_agree_with_independent_coups_within_their_intervals():
    """The dependence of the coups of one shoe through its cards is small: 400 dealt 8-deck shoes'
    mean longest runs fall within a few standard errors of the exact independent-coups figure for
    the same numbers of coups (a loose check of the dealing and the averaging, seeded)."""
    from analyzer.studies.runs import deal_runs, independent_for
    d = deal_runs(Shoe.standard(8), 400, seed=3, at_least=(3,))
    exact = independent_for(d, CoupWays.of(analyze(Shoe.standard(8))))
    assert sum(exact.weights.values()) == 1
    assert sum(exact.longest_probability("banker", L) for L in range(int(d.coups.max()) + 1)) == 1
    assert sum(exact.count_probability("tie", 3, c) for c in range(int(d.coups.max()))) == 1
    for o in OUTCOMES:
        e = d.mean_longest(o)
        half = (e.high - e.low) / 2
        assert abs(e.mean - float(exact.mean_longest(o))) < 2 * half, o


# -- the command ------------------------------------------------------------------------------

def test_runs_markdown_and_json_are_the_librarys(cli, tmp_path):
    md = cli.ok("runs", "--decks", "8", "--coups", "20")
    assert md.startswith("# Runs per shoe: 8 decks (416 cards), 20 coups") and "## Longest run" in md
    doc = cli.json("runs", "--decks", "8", "--coups", "20", "--format", "json", "--at-least", "2,3")
    r = runs(CoupWays.of(analyze(Shoe.standard(8))), 20, (2, 3))
    assert doc["coups"] == 20 and doc["ties"] == "tie-ends"
    assert [Fraction(x["probability"]) for x in doc["longest"]["banker"]] == \
        [r.longest_probability("banker", L) for L in range(21)]
    assert {(x["k"], x["outcome"]) for x in doc["runs_at_least"]} == {(k, o) for k in (2, 3) for o in OUTCOMES}
    csv = cli.ok("runs", "--decks", "8", "--coups", "20", "--format", "csv")
    assert csv.splitlines()[0] == "section,outcome,k,value,exact,float,low,high"
    out = tmp_path / "runs.json"
    assert cli.ok("runs", "--decks", "1", "--coups", "5", "--format", "json", "--output", out) == ""
    assert json.loads(out.read_text())["shoe"] == "1 deck (52 cards)"


def test_dealt_shoes_in_the_documents(cli):
    doc = cli.json("runs", "--decks", "1", "--shoes", "20", "-q", "--format", "json")
    dealt = doc["dealt_shoes"]
    assert dealt["shoes"] == 20 and sum(dealt["coups_per_shoe"].values()) == 20
    assert {f["outcome"] for f in dealt["figures"]} == set(OUTCOMES)
    longest = [x for x in dealt["distributions"] if x["statistic"] == "longest" and x["outcome"] == "banker"]
    assert math.isclose(sum(x["dealt_share"] for x in longest), 1) and longest[-1]["dealt_share"] == 0
    assert all(x["ci95"][0] <= x["dealt_share"] <= x["ci95"][1] for x in dealt["distributions"])
    md = cli.ok("runs", "--decks", "1", "--shoes", "20", "-q", "--ties", "ignored")
    assert "## Dealt shoes" in md and "95% interval" in md and "### Longest run, dealt shoes" in md


def test_runs_chart_is_a_png_linked_from_the_markdown(cli, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "runs.png"
    md = cli.ok("runs", "--decks", "8", "--coups", "30", "--chart", png)
    assert png.read_bytes()[:4] == b"\x89PNG" and f"]({png})" in md


@pytest.mark.parametrize("argv, message", [
    (["--coups", "3000000000"], "--coups must be at most 1,000"),
    (["--coups", "999"], "work budget"),
    ([], "give --coups N"),
    (["--coups", "80", "--ties", "maybe"], "unknown --ties"),
    (["--coups", "80", "--at-least", "0"], "--at-least must be at least 1"),
    (["--coups", "80", "--at-least", "3,,4"], "--at-least must be run lengths"),
    (["--coups", "80", "--chart", "x.svg"], "--chart must name a .png"),
    (["--shoes", "100000000000"], "--shoes must be at most"),
    (["--shoes", "10", "--cut-card", "3"], "--cut-card must be"),
    (["--coups", "80", "--burn", "standard"], "--burn says how shoes are dealt: give --shoes N"),
    (["--shoes", "5", "--after-cut", "2"], "--after-cut must be 0 or 1"),
    (["--coups", "80", "--ties", "ignored", "--player-option", "best", "--rules", "gold"], "player-option best"),
])
def test_bad_input_is_one_line(cli, argv, message):
    assert message in cli.error("runs", "--decks", "8", *argv)
