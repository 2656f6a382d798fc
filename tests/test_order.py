"""Card order (issue 14): a shoe shuffled too little is caught from the order of its cards."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from analyzer import Shoe
from analyzer.cli import main
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


def test_four_riffles_caught_by_card_order_only():
    text, _ = simulate_to_text(EIGHT, 10, 5, faults=Faults(riffles=4))
    log = read_hand_log("h.csv", text)
    assert replay(log, EIGHT).ok
    assert check_log(log, EIGHT, "off-the-top").verdict == "PASS"
    r = check_log(log, EIGHT, "off-the-top", order=True)
    assert r.verdict == "FAIL"
    assert [t.name for t in r.tests if t.rejected] == ["chi-square order (12 df)"]
    assert float(next(t.p for t in r.tests if "order" in t.name)) < 1e-20


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


def test_cli_card_order_and_riffle_fault(tmp_path, capsys):
    f = tmp_path / "h.csv"
    assert main(["simulate", "--shoes", "10", "--seed", "5", "--fault", "riffles=4", "--log", str(f)]) == 0
    capsys.readouterr()
    assert main(["verify", str(f)]) == 0
    assert main(["check", str(f), "--quiet", "--reference", "off-the-top"]) == 0
    capsys.readouterr()
    assert main(["check", str(f), "--quiet", "--reference", "off-the-top", "--card-order"]) == 1
    out = capsys.readouterr().out
    assert "Card order" in out and "chi-square order (12 df)" in out
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


def test_cli_columns_option(tmp_path, capsys):
    f = tmp_path / "own.csv"
    f.write_text("Shoe,A1,A2,C1,C2,Win\n1,9,K,8,K,P\n")
    assert main(["verify", str(f)]) == 2
    err = capsys.readouterr().err
    assert "read as outcomes only, 1 row per coup (CSV; columns not used: A1, A2, C1, C2)" in err
    assert "--columns" in err
    assert main(["verify", str(f), "--columns", "p1=A1,p2=A2,b1=C1,b2=C2,outcome=Win"]) == 0
    assert "read as per-card columns, ranks without suits" in capsys.readouterr().out


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
