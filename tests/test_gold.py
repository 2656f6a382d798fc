"""Baccarat Gold and the Player's option against the oracle and the published counts.

Published figures: Wizard of Odds, "Baccarat Gold" (wizardofodds.com/games/baccarat/gold/,
last updated October 5, 2010): 8 decks, Player hits on 5: Player wins
2,232,878,486,302,976, Banker wins 2,290,212,297,375,744, Ties 475,307,491,824,640 of
4,998,398,275,503,360; house edge 1.147% Player, 1.144% Banker, 4.908% Tie at 9 to 1.
Player stands on 5 (same page, as quoted by frixo.com "How to Play Baccarat Gold"):
Tie at 9 to 1 7.55%, Banker 0.91%.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analyzer import Shoe, catalog
from analyzer.bets.pricing import analyze
from analyzer.core.choice import best_rules, best_strategy, option_hands
from analyzer.core.engine import Tabulation, coup_table
from analyzer.core.rules import GOLD, PUNTO_BANCO, play_coup
from analyzer.core.solver import Solver
from oracle import (POINT, banker_draws_prose, deal_variant, gold_banker_draws_prose, player_draws_on,
                    six_card_tally_variant, value_winner_counts_variant)

DEALS8 = 4_998_398_275_503_360
GOLD_HITS_5 = {"player": 2_232_878_486_302_976, "banker": 2_290_212_297_375_744, "tie": 475_307_491_824_640}

DRAW_0_5 = player_draws_on(range(0, 6))
STAND_5 = player_draws_on(range(0, 5))


def shoe_of(cards: list[str]) -> Shoe:
    return Shoe.parse(",".join(f"{r}={cards.count(r)}" for r in sorted(set(cards))))


def test_gold_published_counts_hitting_on_5():
    for rules in (GOLD, GOLD.with_player_option("draw")):
        a = analyze(Shoe.standard(8), rules=rules)
        assert a.deals == DEALS8 and a.outcomes == GOLD_HITS_5
    assert value_winner_counts_variant(Shoe.standard(8).value_counts, gold_banker_draws_prose,
                                       DRAW_0_5) == GOLD_HITS_5
    a = analyze(Shoe.standard(8), ["player", "banker", "tie_9to1"], rules="gold")
    assert round(float(a.bet("player").house_edge) * 100, 3) == 1.147
    assert round(float(a.bet("banker").house_edge) * 100, 3) == 1.144
    assert round(float(a.bet("tie_9to1").house_edge) * 100, 3) == 4.908


def test_gold_standing_on_5_against_the_value_oracle_and_published_edges():
    rules = GOLD.with_player_option("stand")
    a = analyze(Shoe.standard(8), ["player", "banker", "tie_9to1"], rules=rules)
    assert a.outcomes == value_winner_counts_variant(Shoe.standard(8).value_counts,
                                                     gold_banker_draws_prose, STAND_5)
    assert a.outcomes == {"player": 2_233_533_079_191_808, "banker": 2_302_786_421_833_728,
                          "tie": 462_078_774_477_824}
    assert round(float(a.bet("tie_9to1").house_edge) * 100, 2) == 7.55
    assert f"{float(a.bet('banker').house_edge) * 100:.3f}".startswith("0.91")


def test_the_variant_value_oracle_under_punto_banco_gives_the_published_counts():
    # the variant oracle with the Punto Banco prose gives the published 8-deck counts
    assert value_winner_counts_variant(Shoe.standard(8).value_counts, banker_draws_prose, DRAW_0_5) == {
        "player": 2_230_518_282_592_256, "banker": 2_292_252_566_437_888, "tie": 475_627_426_473_216}


SMALL_SHOES = ["A 2 3 4 5 5 6 9 K Q", "T T 5 5 4 A 7 8 3", "2 3 3 5 5 6 7 9 K J"]


def _engine_by_shape(rules, shoe):
    """Ways of (winner, Player cards, Banker cards, Player total, Banker total) from the engine."""
    t = coup_table(rules)
    key = (((t.winner.astype(np.int64) * 2 + t.player_cards - 2) * 2 + t.banker_cards - 2) * 10
           + t.player_total) * 10 + t.banker_total
    ways = Tabulation.grouped(key, 3 * 2 * 2 * 100, t).ways(shoe.value_counts)
    out = Counter()
    names = ("player", "banker", "tie")
    for k, w in enumerate(ways):
        if w:
            rest, bt = divmod(k, 10)
            rest, pt = divmod(rest, 10)
            rest, bc = divmod(rest, 2)
            win, pc = divmod(rest, 2)
            out[(names[win], pc + 2, bc + 2, pt, bt)] = w
    return out


def _shape(coup):
    return (coup["winner"], len(coup["player_cards"]), len(coup["banker_cards"]),
            coup["player_total"], coup["banker_total"])


def _pair(coup):
    return coup["player_cards"][0] == coup["player_cards"][1], coup["winner"]


@pytest.mark.parametrize("text", SMALL_SHOES)
@pytest.mark.parametrize("option", ["draw", "stand"])
def test_gold_against_the_permutation_oracle(text, option):
    cards = text.split()
    shoe = shoe_of(cards)
    rules = GOLD.with_player_option(option)
    tallies, deals = six_card_tally_variant(cards, {"shape": _shape, "pair": _pair}, gold_banker_draws_prose,
                                            DRAW_0_5 if option == "draw" else STAND_5)
    assert _engine_by_shape(rules, shoe) == +tallies["shape"]
    a = Solver(catalog().select(["player", "banker", "tie", "player_pair"]), rules=rules).solve(shoe)
    assert a.deals == deals
    assert a.outcomes == {w: sum(v for (_, ww), v in tallies["pair"].items() if ww == w)
                          for w in ("player", "banker", "tie")}
    assert a.bet("player_pair").events[0].ways == sum(v for (p, _), v in tallies["pair"].items() if p)


def _oracle_best(cards):
    """Per Player two-card hand on 5 (point values, sorted): Player wins - losses when it
    draws and when it stands, counted by dealing every ordered six of the cards."""
    nets = {}
    for name, rule in (("draw", DRAW_0_5), ("stand", STAND_5)):
        def key(coup):
            v = tuple(sorted(POINT[c[0]] for c in coup["player_cards"][:2]))
            return v, coup["winner"]
        tally, _ = six_card_tally_variant(cards, {"k": key}, gold_banker_draws_prose, rule)
        for (hand, winner), w in tally["k"].items():
            if sum(hand) % 10 == 5:
                d = nets.setdefault(hand, {"draw": 0, "stand": 0})
                d[name] += w if winner == "player" else -w if winner == "banker" else 0
    return nets


MIXED_SHOES = ["K 2 3 4 5 6 7 8 9 9", "K K A 2 4 6 8 9 9"]   # the best play stands on some fives


#: the shoes of 10 cards (1.6 s of CPU each) in .ci/run's slow run
SLOW_ORACLE_SHOES = {"A 2 3 4 5 5 6 9 K Q", "2 3 3 5 5 6 7 9 K J", "K 2 3 4 5 6 7 8 9 9"}


@pytest.mark.parametrize("text", [pytest.param(t, marks=pytest.mark.slow) if t in SLOW_ORACLE_SHOES else t
                                  for t in SMALL_SHOES + MIXED_SHOES + ["5 5 5 K K 9 6 2 3"]])
def test_best_option_against_the_permutation_oracle(text):
    cards = text.split()
    shoe = shoe_of(cards)
    nets = _oracle_best(cards)
    strategy = best_strategy(GOLD, shoe.value_counts)
    assert [c.hand for c in strategy] == option_hands(GOLD)
    for c in strategy:
        n = nets.get(c.hand, {"draw": 0, "stand": 0})
        assert (c.draw_net, c.stand_net) == (n["draw"], n["stand"])
        assert c.draws == (n["draw"] >= n["stand"])        # a tie keeps Gold's default: draw
    chosen = {c.hand: c.draws for c in strategy}

    def play(v1, v2):
        total = (v1 + v2) % 10
        return chosen[tuple(sorted((v1, v2)))] if total == 5 else total <= 5

    rules, _ = best_rules(GOLD, shoe.value_counts)
    tallies, deals = six_card_tally_variant(cards, {"shape": _shape}, gold_banker_draws_prose, play)
    assert _engine_by_shape(rules, shoe) == +tallies["shape"]
    # the best play is never worse for the Player bet than either fixed play
    ev = {o: analyze(shoe, ["player"], rules=r).bet("player").ev
          for o, r in (("draw", GOLD.with_player_option("draw")), ("stand", GOLD.with_player_option("stand")),
                       ("best", rules))}
    assert ev["best"] >= max(ev["draw"], ev["stand"])


def test_best_mixes_plays_on_some_shoe():
    # on these shoes standing is right on some fives and drawing on others: the per-hand
    # rules of the engine are exercised (and checked against the oracle above)
    for text in MIXED_SHOES:
        _mixed(shoe_of(text.split()))


def _mixed(shoe):
    rules, strategy = best_rules(GOLD, shoe.value_counts)
    plays = {c.draws for c in strategy if c.ways}
    assert plays == {True, False}
    assert rules.player_hands
    for c in strategy:
        assert c.draws == (c.draw_net > c.stand_net or (c.draw_net == c.stand_net))


def test_best_on_8_decks_draws_every_five_as_published():
    rules, strategy = best_rules(GOLD, Shoe.standard(8).value_counts)
    assert all(c.draws for c in strategy) and rules == GOLD.with_player_option("draw")
    assert analyze(Shoe.standard(8), rules=rules).outcomes == GOLD_HITS_5
    for c in strategy:
        assert c.ev_draw > c.ev_stand and isinstance(c.ev_draw, Fraction)


def test_play_coup_follows_the_rules_and_the_engine():
    rng = np.random.default_rng(13)
    for rules in (GOLD, GOLD.with_player_option("stand"), PUNTO_BANCO):
        t = coup_table(rules)
        for _ in range(300):
            seq = [int(x) for x in rng.integers(0, 10, 6)]
            idx = int("".join(map(str, seq)))
            c = play_coup(seq, rules)
            assert (c.player_total, c.banker_total) == (t.player_total[idx], t.banker_total[idx])
            assert len(c.player) == t.player_cards[idx] and len(c.banker) == t.banker_cards[idx]
            oracle = deal_variant(["KA23456789"[v] if v else "K" for v in seq], gold_banker_draws_prose
                                  if rules != PUNTO_BANCO else banker_draws_prose,
                                  STAND_5 if rules == GOLD.with_player_option("stand") else DRAW_0_5)
            assert c.winner == oracle["winner"]


def test_study_under_gold_deals_and_prices_by_the_rules():
    from analyzer.bets.rules_files import rules_toml
    from analyzer.core.cards import RANKS
    from analyzer.studies import StudyParams, deal_shoe, trace_shoe
    stand = GOLD.with_player_option("stand")
    params = StudyParams.create(Shoe.standard(1), shoes=2, seed=3, bet_ids=("player", "banker", "dragon7"),
                                rules_toml=rules_toml(stand), count=[])
    default = StudyParams.create(Shoe.standard(1), shoes=2, seed=3, bet_ids=("player", "banker", "dragon7"),
                                 count=[])
    assert params.key() != default.key() and params.rules() == stand and default.rules() is None
    assert "rules" not in default.identity()
    dealt = deal_shoe(params, 0)
    ranks = [RANKS[r] for r in dealt.ranks]
    for a, b in zip(dealt.starts, dealt.ends):        # every coup is what the prose deals
        coup = deal_variant(ranks[a:a + 6], gold_banker_draws_prose, STAND_5)
        assert b - a == len(coup["player_cards"]) + len(coup["banker_cards"])
    for t in trace_shoe(params, 0)[:5]:               # and is priced under the same rules
        a = analyze(t.remaining, ["player", "banker", "dragon7"], rules=stand)
        assert t.evs == {b: a.bet(b).ev for b in ("player", "banker", "dragon7")}
