"""Coups per shoe against the declared procedure (cut card, burn, coups after the cut):
exact law on small shoes, simulated reference otherwise, and `check --cut-card/--burn/--after-cut`."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from analyzer import Shoe
from analyzer.core.procedure import Procedure
from analyzer.simcheck.check import check_log
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.shoecount import _tables, exact_law, simulated_counts, two_sample
from analyzer.simcheck.simulate import simulate_to_text

SMALL = Shoe.parse("A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,T=2,J=1,Q=1,K=1")   # 14 cards, 3,072 compositions
ONE = Shoe.standard(1)


def _multiset_permutations(counts):
    """Every distinct value sequence of a shoe with these value counts."""
    total = sum(counts)
    seq = [0] * total

    def go(i):
        if i == total:
            yield list(seq)
            return
        for v in range(10):
            if counts[v]:
                counts[v] -= 1
                seq[i] = v
                yield from go(i + 1)
                counts[v] += 1
    yield from go(0)


def _deal(values, procedure):
    length = _tables(None)[0]
    pos = procedure.start(values)[0]
    stop = len(values) - procedure.cut_card
    coups = 0
    v = values + [0] * 6
    while pos <= stop:
        pos += int(length[(((v[pos] * 10 + v[pos + 1]) * 10 + v[pos + 2]) * 10 + v[pos + 3]) * 10 + v[pos + 4]])
        coups += 1
    return coups + procedure.after_cut


@pytest.mark.parametrize("counts, burn, cut, after", [
    ((1, 1, 1, 1, 0, 0, 1, 1, 1, 2), "none", 6, 0),
    ((1, 1, 1, 1, 0, 0, 1, 1, 1, 2), "standard", 6, 0),
    ((2, 1, 0, 1, 0, 1, 1, 1, 0, 2), "2", 6, 0),
    ((1, 1, 1, 1, 1, 1, 1, 1, 1, 0), "none", 6, 0),
    ((2, 1, 1, 1, 0, 1, 1, 1, 0, 1), "3", 6, 0),
])
def test_exact_law_is_the_count_over_every_order_of_the_shoe(counts, burn, cut, after):
    p = Procedure.create(sum(counts), burn=burn, cut_card=cut, after_cut=after)
    tally = Counter(_deal(v, p) for v in _multiset_permutations(list(counts)))
    whole = sum(tally.values())
    assert exact_law(counts, p) == {k: Fraction(c, whole) for k, c in tally.items()}


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_simulated_counts_agree_with_the_exact_law():
    values = SMALL.value_counts
    for burn, cut in (("none", 6), ("standard", 6), ("1", 6)):
        p = Procedure.create(SMALL.cards, burn=burn, cut_card=cut)
        law = exact_law(values, p)
        assert law is not None and sum(law.values()) == 1
        sim = simulated_counts(values, p, 40_000, seed=3)
        for k, pk in law.items():
            assert abs(sim[k] / 40_000 - float(pk)) < 5 * (float(pk * (1 - pk)) / 40_000) ** 0.5 + 1e-9
        assert simulated_counts(values, p, 1000, seed=3) == simulated_counts(values, p, 1000, seed=3)


def test_eight_decks_have_no_exact_law():
    assert exact_law(Shoe.standard(8).value_counts, Procedure.create(416)) is None


def test_two_sample_is_small_for_one_law_and_large_for_two():
    p = Procedure.create(52)
    a = simulated_counts(ONE.value_counts, p, 3000, seed=1)
    b = simulated_counts(ONE.value_counts, p, 30000, seed=2)
    c = simulated_counts(ONE.value_counts, Procedure.create(52, cut_card=20), 3000, seed=1)
    x, df, _ = two_sample(a, b)
    y, _, _ = two_sample(c, b)
    assert df >= 1 and x < 30 and y > 300


def _test(report, name):
    return next(t for t in report.tests if name in t.name or (name == "coups per shoe" and "shoe_coups" in t.name))


def test_exact_coups_per_shoe_in_check():
    text, _ = simulate_to_text(SMALL, 400, 4, cut_card=6)
    log = read_hand_log("s.csv", text)
    ok = check_log(log, SMALL, "off-the-top", procedure=Procedure.create(14, cut_card=6))
    assert "shoe_coups" in ok.cells and not _test(ok, "coups per shoe").rejected
    assert ok.procedure == "no burn, cut card 6"
    # the log dealt to a cut card of 6 does not look like one dealt with a burn of 2
    bad = check_log(log, SMALL, "off-the-top", procedure=Procedure.create(14, burn="2", cut_card=6))
    assert bad.failed


def test_simulated_coups_per_shoe_in_check():
    text, _ = simulate_to_text(ONE, 1500, 6, burn=True, cut_card=14)
    log = read_hand_log("s.csv", text)
    right = check_log(log, ONE, "off-the-top", procedure=Procedure.create(52, burn="standard"))
    assert not _test(right, "coups per shoe").rejected and not right.failed
    assert any("an estimate" in note for note in right.notes)
    assert right.sections[0][0] == "Coups per shoe (simulated reference)"
    for wrong in (Procedure.create(52), Procedure.create(52, burn="standard", cut_card=26)):
        assert _test(check_log(log, ONE, "off-the-top", procedure=wrong), "coups per shoe").rejected


def test_check_tests_coups_per_shoe_only_under_a_declared_procedure(tmp_path, cli):
    text, _ = simulate_to_text(ONE, 300, 2, cut_card=20, after_cut=1)
    f = tmp_path / "h.csv"
    f.write_text(text)
    base = ["check", f, "--decks", "1", "--reference", "off-the-top", "--quiet"]
    r = cli(*base, "--cut-card", "20", "--after-cut", "1", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["procedure"] == "no burn, cut card 20, 1 coup after the cut card"
    assert any(t["test"].startswith("chi-square coups per shoe") for t in doc["tests"])
    r = cli(*base, "--cut-card", "20", "--after-cut", "1")
    assert r.code == 0 and "- Declared shoe procedure: no burn, cut card 20, 1 coup after the cut card." in r.out
    r = cli(*base, "--cut-card", "20")
    assert r.code == 1 and "REJECT" in r.out                      # the coup after the cut is missed
    r = cli(*base)
    assert r.code == 0 and "coups per shoe" not in r.out          # no procedure declared: no such test
    for args, message in ((["--cut-card", "60"], "deeper than the shoe"), (["--burn", "x"], "unknown --burn"),
                          (["--after-cut", "2"], "--after-cut must be 0 or 1")):
        out = cli(*base, *args)
        assert out.code == 2
        assert out.out == "" and out.err.startswith("baccarat: error: ") and message in out.err
        assert len(out.err.strip().splitlines()) == 1
    tallies = tmp_path / "t.csv"
    _, r = simulate_to_text(ONE, 20, 2)
    tallies.write_text(r.tallies_csv())
    r = cli("check", tallies, "--burn", "--quiet")
    assert r.code == 2 and "tallies have no shoe boundaries" in r.err


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_outcome_only_log_coups_per_shoe_rejects_a_wrong_cut_card(tmp_path, cli):
    text, _ = simulate_to_text(Shoe.standard(8), 200, 8, cut_card=14)
    log = read_hand_log("h.csv", text)
    rows = ["shoe,outcome"] + [f"{log.shoe_ids[s]},{'PBT'[o]}" for s, o in zip(log.shoe.tolist(), log.outcome.tolist())]
    f = tmp_path / "o.csv"
    f.write_text("\n".join(rows) + "\n")

    def shoe_test(cut):
        doc = json.loads(cli("check", f, "--cut-card", cut, "--quiet", "--format", "json").out)
        assert doc["procedure"] == f"no burn, cut card {cut}"
        return next(t for t in doc["tests"] if t["test"].startswith("chi-square coups per shoe"))
    assert not shoe_test("14")["rejected"]
    assert shoe_test("40")["rejected"]
