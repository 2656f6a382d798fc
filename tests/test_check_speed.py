"""The prefix-basis ways of the shoe-aware check (issue 14 item 5) equal the plain product exactly."""

import numpy as np

from analyzer import Shoe
from analyzer.simcheck.check import _select_bets
from analyzer.simcheck.families import build_families, counter_for
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.reference import shoe_aware
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)


def _with_plain(counter, fn):
    counter.prefix = False
    try:
        return fn()
    finally:
        counter.prefix = True


def test_prefix_ways_equal_the_plain_product():
    rng = np.random.default_rng(11)
    for bets, cats in [(("player", "banker", "tie"), ("outcome", "cards", "totals")), ((), ("outcome",)),
                       ((), ("cards", "totals")), (("player",), ("outcome", "cards"))]:
        fams = build_families(_select_bets(bets, None), cats)
        c = counter_for(fams)
        vc = np.maximum(np.array([128] + [32] * 9) - rng.integers(0, 34, (400, 10)), 0)
        vc[:4] = [[0] * 9 + [6], [1] * 6 + [0] * 4, [128] + [32] * 9, [3, 2, 1] + [0] * 7]
        assert np.array_equal(c.ways(vc), _with_plain(c, lambda: c.ways(vc)))


def test_shoe_aware_sums_equal_the_plain_path_on_a_simulated_log():
    text, _ = simulate_to_text(EIGHT, 20, 3)
    log = read_hand_log("sim.csv", text)
    rep = replay(log, EIGHT)
    keep = rep.unseen >= 6
    fams = build_families(_select_bets(("player", "banker", "tie"), None))
    obs = {"outcome": fams[0].code[rep.sequence[keep]]}
    new = shoe_aware(EIGHT, fams, rep.remaining[keep], obs)
    old = _with_plain(counter_for(fams), lambda: shoe_aware(EIGHT, fams, rep.remaining[keep], obs))
    assert new.coups == old.coups > 1000
    for key, fr in new.families.items():
        o = old.families[key]
        assert fr.expected == o.expected and fr.variance == o.variance
        assert fr.expected_return == o.expected_return and fr.return_variance == o.return_variance
        assert np.allclose(fr.cov, o.cov, rtol=1e-12, atol=1e-9)
    assert new.depletion.keys() == old.depletion.keys()
    for k in new.depletion:
        assert np.allclose(new.depletion[k], old.depletion[k], rtol=1e-9)
