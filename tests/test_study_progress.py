"""A study of one large shoe shows its progress as it goes.

Before, ``study --decks 10000 --shoes 1`` showed a bar stuck at 0/1 for minutes: the bar
moved once per finished chunk, and the exact summary after the last chunk (which took
longer than the dealing: one common denominator of every depth, an integer of ~10^6 bits,
per bet) moved nothing.
"""

from __future__ import annotations

from fractions import Fraction

from analyzer.core.shoe import Shoe
from analyzer.studies import run_study
from analyzer.studies.evs import ExactSums, exact_sum
from analyzer.studies.params import StudyParams


def test_a_large_shoe_reports_its_coups_and_then_its_bets(monkeypatch):
    import analyzer.studies.evs as evs
    # 20 decks: about 200 coups, several blocks of 32 (a shoe of 10,000 decks: ~25 of 4,096)
    monkeypatch.setattr(evs, "PRICE_BLOCK", 32)
    params = StudyParams.create(Shoe.standard(20), 1, 3, bet_ids=("banker", "player_pair"))
    seen = []
    result = run_study(params, progress=seen.append)
    shoes = [s["shoes_done"] for s in seen if s.get("stage") != "summary"]
    bets = [(s["bets_done"], s["bets_total"]) for s in seen if s.get("stage") == "summary"]
    assert shoes[0] == 0 and shoes[-1] == 1
    assert shoes == sorted(shoes)
    assert result.coups > 32 * 4
    assert len([x for x in shoes if 0 < x < 1]) >= 4    # ticks within the shoe
    assert bets == [(1, 2), (2, 2)]


def test_blocks_change_no_number(monkeypatch):
    import analyzer.studies.evs as evs
    params = StudyParams.create(Shoe.standard(2), 3, 5, bet_ids=("banker", "player_pair", "dragon7"))
    whole = run_study(params)
    monkeypatch.setattr(evs, "PRICE_BLOCK", 7)       # many blocks per batch of shoes
    evs.batch_ev.cache_clear()
    ticks = []
    blocked = run_study(params, progress=ticks.append)
    assert any(0 < t["shoes_done"] % 1 for t in ticks if "stage" not in t)
    for bet in whole.bets:
        a, b = whole.bets[bet], blocked.bets[bet]
        assert a["mean_ev"] == b["mean_ev"] and a["by_depth"] == b["by_depth"]
        assert a["mean_ev_by_cards_left"] == b["mean_ev_by_cards_left"]


def test_exact_sum_is_the_plain_sum():
    import random
    rng = random.Random(7)
    for _ in range(50):
        terms = [Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**5)) for _ in range(rng.randint(0, 40))]
        assert exact_sum(terms) == sum(terms, Fraction(0))
    ex = ExactSums(3, range(6, 60))
    sums = {n: rng.randint(-10**9, 10**9) for n in range(6, 60)}
    assert ex.value(sums) == sum((Fraction(v, ex.den[n]) for n, v in sums.items()), Fraction(0))
