"""Card order: a shoe shuffled too little is caught from the order of its cards."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from analyzer import Shoe
from analyzer.simcheck.check import check_log
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.order import dealt_order, step_probabilities
from analyzer.simcheck.shapes import read_log, shoe_for
from analyzer.simcheck.simulate import Faults, SimulationError, simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)


@pytest.mark.parametrize("counts", [(1, 2, 0, 3), (2, 2, 2), (5, 0, 1, 1, 1)])
def test_step_probabilities_against_every_ordered_pair(counts):
    cards = [r for r, n in enumerate(counts) for _ in range(n)]
    pairs = Counter((b - a) % len(counts) for a, b in itertools.permutations(cards, 2))
    total = sum(pairs.values())
    assert step_probabilities(counts) == [Fraction(pairs[d], total) for d in range(len(counts))]


def test_dealt_order_follows_the_deal():
    log = read_hand_log("h.csv", "shoe,player,banker,seen\n1,2 3 4,5 K,9h\n1,9 9,8 8,\n2,A 2 3,4 5 6,\n")
    codes, shoes = dealt_order(log)
    assert [c // 5 for c in codes] == [1, 4, 2, 12, 3, 8, 7, 8, 7, 0, 3, 1, 4, 2, 5]
    assert shoes.tolist() == [0] * 9 + [1] * 6


@pytest.mark.parametrize("reference", ["off-the-top", "shoe-aware"])
def test_four_riffles_caught_by_card_order_only(reference):
    text, _ = simulate_to_text(EIGHT, 10, 5, faults=Faults(riffles=4))
    log = read_hand_log("h.csv", text)
    assert replay(log, EIGHT).ok
    assert check_log(log, EIGHT, reference, order=False).verdict == "PASS"
    for order in (None, True):                 # a log with ranks gets the card order by default
        r = check_log(log, EIGHT, reference) if order is None else check_log(log, EIGHT, reference, order=order)
        assert r.verdict == "FAIL"
        assert [t.name for t in r.tests if t.rejected] == ["chi-square order (12 df)"]
        assert float(next(t.p for t in r.tests if "order" in t.name)) < 1e-20
        assert any(n.startswith("Card order:") and "approximation" in n for n in r.notes)


def test_correct_shuffles_pass_card_order():
    for seed in range(6):
        text, _ = simulate_to_text(EIGHT, 20, 40 + seed, burn=True)
        r = check_log(read_hand_log("h.csv", text), EIGHT, "off-the-top", order=True)
        assert r.verdict == "PASS", seed


def test_value_level_logs_use_point_values():
    text, _ = simulate_to_text(EIGHT, 10, 5, faults=Faults(riffles=4))
    log = read_hand_log("h.csv", text)
    rows = ["shoe,player,banker"] + [
        f"{log.shoe_ids[log.shoe[k]]},{' '.join(str((c // 5 + 1) % 10 if c // 5 < 9 else 0) for c in log.hand(k, 'player'))},"
        f"{' '.join(str((c // 5 + 1) % 10 if c // 5 < 9 else 0) for c in log.hand(k, 'banker'))}"
        for k in range(log.coups)]
    v = read_log("v.csv", "\n".join(rows) + "\n")
    assert v.value_level
    r = check_log(v, shoe_for(v, EIGHT), "off-the-top", order=True)
    assert "chi-square order (9 df)" in [t.name for t in r.tests if t.rejected]
    # not by default on point values (they are not equally common): the report says so and why
    d = check_log(v, shoe_for(v, EIGHT), "off-the-top")
    assert "order" not in d.cells and not any("order" in t.name for t in d.tests)
    assert d.tests == check_log(v, shoe_for(v, EIGHT), "off-the-top", order=False).tests
    note = next(n for n in d.notes if n.startswith("Card order:"))
    assert "not tested" in note and "value-level" in note and "--card-order" in note


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_check_fails_a_riffled_shoe_on_card_order_unless_told_not_to_test_it(tmp_path, cli):
    f = tmp_path / "h.csv"
    assert cli("simulate", "--shoes", "10", "--seed", "5", "--fault", "riffles=4", "--log", f).code == 0
    assert cli("verify", f).code == 0
    r = cli("check", f, "--quiet", "--reference", "off-the-top", "--no-card-order")
    assert r.code == 0
    assert "Card order" not in r.out and "chi-square order" not in r.out
    for extra in ([], ["--card-order"]):      # on by default; --card-order still accepted
        for ref in (["--reference", "off-the-top"], []):
            r = cli("check", f, "--quiet", *ref, *extra)
            assert r.code == 1
            out = r.out
            assert "**FAIL** at alpha = 0.01 (family-wise, Holm over" in out
            assert "chi-square order (12 df)." in out.splitlines()[2]
            assert "## Card order: step between consecutive dealt cards" in out
            assert "the chi-square is an approximation" in out
    assert cli("check", f, "--quiet", "--card-order", "--no-card-order").code == 2
    with pytest.raises(SimulationError):
        Faults.parse(["riffles=x"])


def test_seen_cards_leave_the_reference():
    shoe = Shoe.parse("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=20")
    text = "shoe,player,banker,seen\n1,9 K,8 K,A A A\n1,7 K,6 K,\n"
    from analyzer.simcheck.order import card_order
    ref, steps = card_order(read_hand_log("h.csv", text), shoe)
    left = list(shoe.rank_tuple)
    left[0] -= 3
    assert ref.expected == [7 * x for x in step_probabilities(left)]
    assert steps.sum() == 7


def test_unknown_columns_are_named_and_columns_maps_them(tmp_path, cli):
    f = tmp_path / "own.csv"
    f.write_text("Shoe,A1,A2,C1,C2,Win\n1,9,K,8,K,P\n")
    r = cli("verify", f)
    assert r.code == 2
    assert "read as outcomes only, 1 row per coup (CSV; columns not used: A1, A2, C1, C2)" in r.err
    assert "--columns" in r.err
    r = cli("verify", f, "--columns", "p1=A1,p2=A2,b1=C1,b2=C2,outcome=Win")
    assert r.code == 0 and "read as per-card columns, ranks without suits" in r.out


@pytest.mark.slow
def test_card_order_false_alarms_at_the_stated_rate():
    """200 correct logs of 100 shoes (8 decks, burn): card-order p below 0.01 in at most 7."""
    from analyzer.simcheck.order import card_order
    from analyzer.simcheck.stats import chi_square
    low = 0
    for seed in range(200):
        text, _ = simulate_to_text(EIGHT, 100, 5000 + seed, burn=True)
        ref, steps = card_order(read_hand_log("h.csv", text), EIGHT)
        low += float(chi_square(ref, steps).p) < 0.01
    assert low <= 7


def test_card_order_needs_cards_in_order(tmp_path, cli):
    """Outcome-only logs and tallies have no dealt order: --card-order is refused, their reports
    are those of before (no card-order note), --no-card-order changes nothing."""
    o = tmp_path / "o.csv"
    o.write_text("shoe,outcome\n" + "".join(f"{1 + k // 70},{'PBBPBT'[k % 6]}\n" for k in range(700)))
    t = tmp_path / "t.csv"
    assert cli("simulate", "--shoes", "3", "--seed", "2", "--tallies", t, "--quiet").code == 0
    for f in (o, t):
        assert "--card-order does not apply" in cli.error("check", f, "--quiet", "--reference", "off-the-top",
                                                          "--card-order")
        plain = cli("check", f, "--quiet", "--reference", "off-the-top").out
        assert "Card order" not in plain
        assert cli("check", f, "--quiet", "--reference", "off-the-top", "--no-card-order").out == plain
