"""The study's batched EV numerators against a slow, obviously correct reference.

:meth:`analyzer.studies.evs.BatchEV.numerators` counts the bets on point values with one
:class:`~analyzer.core.engine.Tabulation` (``ways_many``) and the bets reading ranks or
suits with one :meth:`~analyzer.core.solver.Solver.solve_many` call for all the coups it
is given.  The reference solves every remaining shoe on its own with Python integers
(``Solver(bets, backend="python").solve(shoe)``) and scales each bet's exact EV to the
study's numerator over ``deals(N) * L``.  The shoes are seeded random depletions of
small and large shoes, suited and rank-only, and a 10,000-deck shoe beyond every int64
bound.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.bets.catalog import catalog
from analyzer.core.engine import POSITIONS, falling
from analyzer.core.rules import GOLD
from analyzer.core.solver import Solver
from analyzer.studies import StudyParams, run_chunk
from analyzer.studies import aggregate, evs
from analyzer.studies.evs import BatchEV
from analyzer.studies.params import bet_level, bet_scale, select_bets

CARD_BETS = ("banker", "tie", "dragon7", "panda8", "lucky_nines", "all_red", "player_pair", "perfect_pair")
RANK_BETS = ("banker", "tie", "dragon7", "panda8", "player_pair", "either_pair", "lucky_match")


def reference(bets, rank_rows, card_rows, rules=None) -> list[list[int]]:
    """``[bet][shoe]``: each shoe solved alone in Python integers, EV scaled to ``deals * L``."""
    solver = Solver(bets, rules=rules, backend="python")
    out = [[] for _ in bets]
    card_rows = None if card_rows is None else np.asarray(card_rows).tolist()
    for c, ranks in enumerate(np.asarray(rank_rows).tolist()):
        shoe = Shoe(None, card_rows[c]) if card_rows is not None else Shoe(ranks)
        res = solver.solve(shoe)
        deals = falling(shoe.cards, POSITIONS)
        for i, bet in enumerate(bets):
            ev = res.bet(bet.id).ev
            scaled = deals * bet_scale(bet)
            assert scaled % ev.denominator == 0
            out[i].append(ev.numerator * (scaled // ev.denominator))
    return out


def depleted(seed: int, starts: list[list[int]], shoes: int, min_cards: int = 6):
    """``shoes`` remaining shoes: each a start shoe (52 card counts) less a random prefix of
    a random shuffle of it, leaving at least ``min_cards``; ``(ranks (K, 13), cards (K, 52))``."""
    rng = np.random.default_rng(seed)
    cards_out = []
    for k in range(shoes):
        start = np.asarray(starts[k % len(starts)], dtype=np.int64)
        deck = np.repeat(np.arange(52), start)
        order = rng.permutation(deck)
        # depths spread over the whole shoe, the deepest ones (few cards left) included
        taken = int(rng.integers(0, len(deck) - min_cards + 1))
        left = start - np.bincount(order[:taken], minlength=52)
        cards_out.append(left)
    cards = np.array(cards_out, dtype=np.int64)
    ranks = cards.reshape(-1, 13, 4).sum(axis=2)
    return ranks, cards


def odd_shoe(seed: int) -> list[int]:
    """A suited shoe of 1 to 3 decks with some cards missing or doubled (uneven suits)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, size=52)
    return counts.tolist()


def standard(decks: int) -> list[int]:
    return [decks] * 52


def check(bet_ids, ranks, cards, rules=None, every: int = 1):
    bets = select_bets(tuple(bet_ids), None)
    got = BatchEV(bets, rules).numerators(ranks, cards)
    pick = list(range(0, len(ranks), every))
    want = reference(bets, ranks[pick], None if cards is None else cards[pick], rules)
    for i, bet in enumerate(bets):
        assert [got[i][c] for c in pick] == want[i], bet.id
    return bets, got


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_card_and_value_bets_on_suited_depleted_shoes_in_batches(monkeypatch):
    # 300 coups in one call: past the card engine's batch-plan threshold (256 shoes), and,
    # with at most 64 coups a solve_many call, several calls
    monkeypatch.setattr(evs, "SOLVE_COUPS", 64)
    starts = [standard(1), standard(2), odd_shoe(5), odd_shoe(6)]
    ranks, cards = depleted(11, starts, 300)
    bets, _ = check(CARD_BETS, ranks, cards)
    assert {bet_level(b) for b in bets} == {"value", "rank", "card"}


def test_value_and_rank_bets_on_rank_only_shoes():
    rank_starts = [[4] * 13, [8] * 13, [3, 0, 5, 4, 4, 7, 1, 4, 4, 9, 2, 4, 6]]
    starts = [[r // 4 + (1 if s < r % 4 else 0) for r in row for s in range(4)] for row in rank_starts]
    ranks, _ = depleted(12, starts, 120)
    bets, _ = check(RANK_BETS, ranks, None)
    assert {bet_level(b) for b in bets} == {"value", "rank"}


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_every_catalog_bet():
    # --bets all: 300 coups counted together, a sample of them solved alone
    starts = [standard(1), standard(2), odd_shoe(7)]
    ranks, cards = depleted(13, starts, 300)
    bets, _ = check(tuple(catalog().bets), ranks, cards, every=10)
    assert len(bets) == len(catalog().bets)


def test_shoes_near_and_beyond_the_int64_bounds():
    # 20 decks: deals below 2**63, above 2**53 (and Dragon 7's scaled payout times the deals
    # above 2**63); 10,000 decks: the deals themselves far above 2**63
    ranks20, cards20 = depleted(14, [standard(20)], 6, min_cards=200)
    big = np.array([standard(10_000)] * 3, dtype=np.int64)
    big[1, :13] -= 7
    big[2, 20:40] -= 1000
    cards = np.concatenate([cards20, big])
    ranks = cards.reshape(-1, 13, 4).sum(axis=2)
    assert falling(int(ranks[-1].sum()), POSITIONS) > 2**63
    check(("banker", "tie", "dragon7", "panda8", "lucky_nines", "all_red", "player_pair"), ranks, cards)


def test_other_drawing_rules():
    ranks, cards = depleted(15, [standard(1), odd_shoe(8)], 40)
    check(("player", "banker", "tie_9to1", "dragon7", "player_pair", "all_red"), ranks, cards, rules=GOLD)


def test_suit_bets_refuse_rank_only_shoes():
    from analyzer.core.errors import BetError
    ranks, _ = depleted(16, [standard(1)], 3)
    with pytest.raises(BetError, match="suits"):
        BatchEV(select_bets(("all_red",), None)).numerators(ranks, None)


def test_chunks_do_not_depend_on_how_many_shoes_go_to_the_core_at_once(monkeypatch):
    params = StudyParams.create(Shoe.standard(2), shoes=5, seed=4, cut_card=14,
                                bet_ids=("dragon7", "player_pair", "all_red", "tie"), chunk_shoes=5)
    batched = run_chunk(params, 0)
    monkeypatch.setattr(aggregate, "BATCH_SHOES", 1)
    assert run_chunk(params, 0) == batched
    monkeypatch.setattr(aggregate, "BATCH_SHOES", 2)
    assert run_chunk(params, 0) == batched
