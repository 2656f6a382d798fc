"""The prefix-basis ways and the exact sums of the shoe-aware check equal the plain
product (the core tabulation's int64 back end) and exact Fractions; the reports are the same byte for
byte."""

import numpy as np

import pytest

from analyzer import Shoe
from analyzer.simcheck.check import _select_bets
from analyzer.simcheck.families import build_families, counter_for
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.reference import shoe_aware
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)


PLAIN = "int64"              # the core's plain (cells x 5005) integer product


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_prefix_ways_equal_the_plain_product():
    rng = np.random.default_rng(11)
    for bets, cats in [(("player", "banker", "tie"), ("outcome", "cards", "totals")), ((), ("outcome",)),
                       ((), ("cards", "totals")), (("player",), ("outcome", "cards"))]:
        fams = build_families(_select_bets(bets, None), cats)
        c = counter_for(fams)
        vc = np.maximum(np.array([128] + [32] * 9) - rng.integers(0, 34, (400, 10)), 0)
        vc[:4] = [[0] * 9 + [6], [1] * 6 + [0] * 4, [128] + [32] * 9, [3, 2, 1] + [0] * 7]
        assert c.plan(int(vc.sum(axis=1).max())) == "prefix" and c.plan(416, PLAIN) == PLAIN
        assert np.array_equal(c.ways(vc), c.ways(vc, backend=PLAIN))


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_shoe_aware_sums_equal_the_plain_path_on_a_simulated_log():
    text, _ = simulate_to_text(EIGHT, 20, 3)
    log = read_hand_log("sim.csv", text)
    rep = replay(log, EIGHT)
    keep = rep.unseen >= 6
    fams = build_families(_select_bets(("player", "banker", "tie"), None))
    obs = {"outcome": fams[0].code[rep.sequence[keep]]}
    new = shoe_aware(EIGHT, fams, rep.remaining[keep], obs)
    old = shoe_aware(EIGHT, fams, rep.remaining[keep], obs, backend=PLAIN)
    assert new.coups == old.coups > 1000
    for key, fr in new.families.items():
        o = old.families[key]
        assert fr.expected == o.expected and fr.variance == o.variance
        assert fr.expected_return == o.expected_return and fr.return_variance == o.return_variance
        assert np.allclose(fr.cov, o.cov, rtol=1e-12, atol=1e-9)
    assert new.depletion.keys() == old.depletion.keys()
    for k in new.depletion:
        assert np.allclose(new.depletion[k], old.depletion[k], rtol=1e-9)


# -- the value-0 prefix basis (core/prefix.py) and the batch sums (reference._BatchSums) --------------

def _bets_and_rules():
    from analyzer.core.rules import GOLD
    for rules in (None, GOLD.with_player_option("draw")):
        for bets, cats in [(("player", "banker", "tie"), ("outcome", "cards", "totals")),
                           (("dragon7", "panda8", "ez_banker"), ("outcome", "cards", "totals")),
                           (("dragon7",), ("outcome",)), ((), ("cards",))]:
            yield rules, bets, cats


@pytest.mark.slow       # 11 s; test_prefix_ways_equal_the_plain_product is its default-run twin
def test_prefix_ways_equal_the_plain_product_for_bets_rules_and_small_shoes():
    """Cells that are no function of the totals (dragon7, panda8: how many cards a hand drew) get rows of
    their own; families without totals, Gold's drawing rules, shoes with values missing or only 6 cards,
    batches longer than one pass: the same exact ways as the plain product."""
    rng = np.random.default_rng(3)
    big = np.maximum(np.array([128] + [32] * 9) - rng.integers(0, 34, (300, 10)), 0)
    big[:5] = [[0] * 9 + [6], [6] + [0] * 9, [0, 0, 0, 0, 0, 3, 3, 0, 0, 0], [1] * 6 + [0] * 4, [128] + [32] * 9]
    small = rng.integers(0, 3, (400, 10))
    small = small[small.sum(axis=1) >= 6]
    for rules, bets, cats in _bets_and_rules():
        c = counter_for(build_families(_select_bets(bets, None), cats, rules))
        for vc in (big, small, big[:1]):
            assert np.array_equal(c.ways(vc), c.ways(vc, backend=PLAIN)), (rules, bets, cats)
        assert c.plan(6) == c.plan(416) == "prefix"


def test_batch_sums_equal_python_integer_sums():
    from analyzer.simcheck.reference import _BatchSums
    rng = np.random.default_rng(8)
    for bits, linear in ((53, True), (62, False)):
        s = _BatchSums(5, 40, bits, linear)
        keys = np.sort(rng.integers(30, 41, 1000))
        x = rng.integers(0, 2**bits, (1000, 5), dtype=np.int64)
        x[:3] = 2**bits - 1
        for lo in range(0, 1000, 128):
            s.add(keys[lo:lo + 128], x[lo:lo + 128])
        got_keys = s.keys()
        s1, s2 = s.totals(got_keys)
        assert got_keys == sorted(set(keys.tolist()))
        for i, k in enumerate(got_keys):
            rows = x[keys == k].astype(object)
            assert list(s2[i]) == list((rows * rows).sum(axis=0))
            if linear:
                assert list(s1[i]) == list(rows.sum(axis=0))
    # the int64 accumulators are moved to Python integers before they could overflow
    s = _BatchSums(2, 3, 53)
    s.FLUSH = 2
    x = np.full((128, 2), 2**53 - 1, dtype=np.int64)
    for _ in range(7):
        s.add(np.full(128, 3), x)
    s1, s2 = s.totals([3])
    assert list(s1[0]) == [7 * 128 * (2**53 - 1)] * 2 and list(s2[0]) == [7 * 128 * (2**53 - 1) ** 2] * 2


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_shoe_aware_reference_equals_exact_fractions_per_coup():
    """Expected counts, variances, expected returns and their variances: the sums over coups of each
    coup's exact Fractions (from the plain product's ways), for main bets and dragon7."""
    from fractions import Fraction
    from analyzer.core.engine import falling
    text, _ = simulate_to_text(EIGHT, 4, 9)
    rep = replay(read_hand_log("sim.csv", text), EIGHT)
    keep = rep.unseen >= 6
    fams = build_families(_select_bets(("player", "banker", "tie", "dragon7"), None))
    got = shoe_aware(EIGHT, fams, rep.remaining[keep], {"outcome": fams[0].code[rep.sequence[keep]]})
    c = counter_for(fams)
    W = c.ways(rep.remaining[keep], backend=PLAIN)
    D = [falling(int(n), 6) for n in rep.remaining[keep].sum(axis=1)]
    for fam in fams:
        p = [[Fraction(int(w), d) for w in row[fam.rows]] for row, d in zip(W, D)]
        fr = got.families[fam.key]
        assert fr.expected == [sum(col, Fraction(0)) for col in zip(*p)]
        assert fr.variance == [sum((x * (1 - x) for x in col), Fraction(0)) for col in zip(*p)]
        if fam.bet is not None:
            ev = [sum((x * a for x, a in zip(row, fam.pays)), Fraction(0)) for row in p]
            second = [sum((x * a * a for x, a in zip(row, fam.pays)), Fraction(0)) for row in p]
            assert fr.expected_return == sum(ev, Fraction(0))
            assert fr.return_variance == sum((s - e * e for s, e in zip(second, ev)), Fraction(0))


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_check_reports_are_identical_on_the_plain_product():
    """Whole reports (JSON, Markdown) are the same byte for byte whichever way the ways are counted."""
    from analyzer.core.rules import GOLD
    from analyzer.simcheck.check import check_log, report_json, report_markdown
    gold = GOLD.with_player_option("draw")
    for rules, bets in ((None, ("player", "banker", "tie", "dragon7")), (gold, ("player", "banker", "tie"))):
        text, _ = simulate_to_text(EIGHT, 12, 4, rules=rules) if rules else simulate_to_text(EIGHT, 12, 4)
        log = read_hand_log("sim.csv", text)
        new = check_log(log, EIGHT, bets=bets, rules=rules)
        c = counter_for(build_families(_select_bets(bets, None), ("outcome", "cards", "totals"), rules))
        assert c.plan(416) == "prefix"    # the check above counted with this counter's prefix basis
        old = check_log(log, EIGHT, bets=bets, rules=rules, backend=PLAIN)
        assert report_json(new) == report_json(old) and report_markdown(new) == report_markdown(old)


def _chunks(log, size):
    from analyzer.simcheck.logs import HandLog
    for lo in range(0, log.coups, size):
        hi = min(lo + size, log.coups)
        yield HandLog(log.path, log.format, log.rows[lo:hi], log.shoe[lo:hi], log.shoe_ids, log.player[lo:hi],
                      log.banker[lo:hi], log.player_len[lo:hi], log.banker_len[lo:hi], log.outcome[lo:hi],
                      seen={k - lo: v for k, v in log.seen.items() if lo <= k < hi},
                      extra={k - lo: v for k, v in log.extra.items() if lo <= k < hi})


def test_card_accounting_on_arrays_equals_the_card_loop():
    """The replay's count of cards against the declared shoe (verify._account_fast): no violation and the
    same cards left, carried chunk to chunk, as the card-by-card loop; None (the loop lists them) whenever
    some card is foreign to the shoe or dealt too often: suited and rank-only shoes, burn cards shown,
    hands of more than three cards, too small a declared shoe, an extra card."""
    from copy import deepcopy
    from analyzer.simcheck.simulate import Faults
    from analyzer.simcheck.verify import _account, _account_fast
    cases = [(EIGHT, simulate_to_text(EIGHT, 20, 1, burn=True)[0]),
             (Shoe.standard(1), simulate_to_text(Shoe.standard(1), 30, 2)[0]),
             (EIGHT, simulate_to_text(EIGHT, 5, 3, faults=Faults(extra_card="As"))[0]),
             (EIGHT, "shoe,player,banker\n1,As 2s 3s 4s,Kd Qd\n1,9c 9d,8h 8s 2c\n")]
    fallbacks = 0
    for declared, text in cases:
        log = read_hand_log("sim.csv", text)
        for shoe in (declared, Shoe(list(declared.rank_tuple)), Shoe.standard(max(1, declared.decks - 7))):
            for size in (log.coups, 97):
                fast_carry, slow_carry = {}, {}
                for chunk in _chunks(log, size):
                    slow = _account(chunk, shoe, 0, slow_carry)
                    fast = _account_fast(chunk, shoe, fast_carry)
                    if fast is None:
                        assert slow
                        fallbacks += 1
                        fast_carry = deepcopy(slow_carry)      # the loop updates its carry in place
                    else:
                        assert fast == slow == [] and fast_carry == slow_carry
    assert fallbacks


def test_sums_span_only_the_keys_of_their_coups(monkeypatch):
    """A 10,000-deck shoe's coups have 520,000-odd unseen cards: the exact accumulators cover the keys
    of the coups summed, not every number up to the shoe (6.6 GiB of virtual memory before), and the
    sums are those of per-coup exact Fractions."""
    from fractions import Fraction

    from analyzer.core.engine import POSITIONS, falling
    from analyzer.simcheck import reference
    shoe = Shoe.standard(10_000)
    fams = build_families(_select_bets(("player", "banker", "tie"), None), ("outcome",))
    spans = []
    real = reference._GroupSums.__init__

    def recording(self, columns, max_key, *rest):
        spans.append(max_key)
        real(self, columns, max_key, *rest)

    monkeypatch.setattr(reference._GroupSums, "__init__", recording)
    vc = np.array(shoe.value_counts, dtype=np.int64)
    remaining = np.stack([vc - np.eye(10, dtype=np.int64)[i % 10] * (i // 10) for i in range(12)])
    ref = shoe_aware(shoe, fams, remaining)
    assert spans and max(spans) < 10
    counter = counter_for(fams)
    expected = sum((Fraction(int(w), falling(int(r.sum()), POSITIONS))
                    for r in remaining for w in [counter.ways_exact(r.tolist())[0][0]]), Fraction(0))
    assert ref.families["outcome"].expected[0] == expected
