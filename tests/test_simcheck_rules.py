"""`--rules` / `--player-option` on `baccarat simulate` and `baccarat verify`.

A Gold simulator's log replays clean under Gold and breaks Punto Banco's Banker cells;
its frequencies match the exact Gold odds (fixed seeds); small shoes are replayed card
by card against the rule-variant deal of tests/oracle.py, which shares no code.
"""

import json
import math
from collections import Counter

import numpy as np
import pytest

from analyzer import Shoe, analyze
from analyzer.core.rules import GOLD, PUNTO_BANCO
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.simulate import Faults, _base_cards, simulate, simulate_to_text
from analyzer.simcheck.verify import replay
from oracle import (POINT, banker_draws_prose, deal_variant, gold_banker_draws_prose, player_draws_on,
                    value_coup_weights_variant)

EIGHT = Shoe.standard(8)
ONE = Shoe.standard(1)


def _z(count, n, p):
    return (count - n * p) / math.sqrt(n * p * (1 - p))


def test_a_gold_log_verifies_under_gold_and_breaks_punto_banco():
    text, result = simulate_to_text(ONE, 40, 3, rules=GOLD)
    log = read_hand_log("gold.csv", text)
    assert replay(log, ONE, rules=GOLD).ok
    pb = replay(log, ONE)
    assert pb.violations and {v.rule for v in pb.violations} == {"banker"}
    under_gold = replay(read_hand_log("pb.csv", simulate_to_text(ONE, 40, 3)[0]), ONE, rules=GOLD)
    assert under_gold.violations and {v.rule for v in under_gold.violations} == {"banker"}
    # under a named rule set the message names the broken cell
    assert all("(gold: banker on" in v.message or "(gold: when the player stood" in v.message
               for v in under_gold.violations)


def test_verify_names_the_rule_set_and_its_cells(tmp_path, cli):
    # Gold: Banker 4 draws only on a Player's third card of 3-7, so drawing on an 8 is wrong;
    # Banker 6 never draws after the Player drew.  Both are fine in Punto Banco... except 4/8.
    log = tmp_path / "h.csv"
    log.write_text("shoe,player,banker,outcome\n1,2 3 8,4 K 5,banker\n1,2 3 6,6 K,player\n")
    r = cli("verify", log, "--decks", "1", "--rules", "gold")
    assert r.code == 1
    out = r.out
    assert "rules gold" in out.splitlines()[0]
    assert ("row 2: banker drew on 4 although player's third card was 8 "
            "(gold: banker on 4 draws on a player's third card of 3-7)") in out
    r = cli("verify", log, "--decks", "1")
    assert r.code == 1
    out = r.out
    assert "rules" not in out.splitlines()[0]
    assert "row 3: banker stood on 6 although player's third card was 6\n" in out
    r = cli("verify", log, "--decks", "1", "--rules", "gold", "--format", "json")
    assert r.code == 1
    doc = json.loads(r.out)
    assert doc["rules"].startswith("gold") and doc["listed"][0]["rule"] == "banker"


def test_the_player_option_is_free_unless_chosen(tmp_path, cli):
    log = tmp_path / "h.csv"
    # the Player stands on 5 (2 3), the Banker on 7 stands
    log.write_text("shoe,player,banker,outcome\n1,2 3,7 K,banker\n")
    assert cli("verify", log, "--decks", "1", "--rules", "gold").code == 0
    assert cli("verify", log, "--decks", "1", "--rules", "gold", "--player-option", "stand").code == 0
    r = cli("verify", log, "--decks", "1", "--rules", "gold", "--player-option", "draw")
    assert r.code == 1 and "player stood on 5 (gold, Player draws on 5: player draws on 0-5)" in r.out
    r = cli("verify", log, "--decks", "1")
    assert r.code == 1 and "player stood on 5 (player draws on 0-5)" in r.out
    # a simulator told to stand on 5 never draws there
    text, _ = simulate_to_text(ONE, 30, 2, rules=GOLD.with_player_option("stand"))
    log2 = read_hand_log("s.csv", text)
    assert replay(log2, ONE, rules=GOLD.with_player_option("stand")).ok
    assert {v.rule for v in replay(log2, ONE, rules=GOLD.with_player_option("draw")).violations} == {"player"}


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_gold_frequencies_match_the_exact_gold_odds():
    result = simulate(EIGHT, 2000, 13, rules=GOLD)
    n = result.coups
    exact = analyze(EIGHT, rules="gold")
    for o in ("player", "banker", "tie"):
        assert abs(_z(result.outcomes[o], n, float(exact.probability(o)))) < 4
    # cards per coup, exactly by the oracle's value recursion under each rule set
    def cards_law(banker_rule):
        w = value_coup_weights_variant(EIGHT.value_counts, banker_rule, player_draws_on(range(6)))
        law = Counter()
        for (p, b), ways in w.items():
            law[len(p) + len(b)] += ways
        total = sum(law.values())
        return {k: v / total for k, v in law.items()}
    gold, pb = cards_law(gold_banker_draws_prose), cards_law(banker_draws_prose)
    assert all(abs(_z(result.cards[k], n, gold[k])) < 4 for k in (4, 5, 6))
    # and Punto Banco's law fits the Gold sample worse (its cards law is close to Gold's)
    assert sum(_z(result.cards[k], n, gold[k]) ** 2 for k in (4, 5, 6)) < \
        sum(_z(result.cards[k], n, pb[k]) ** 2 for k in (4, 5, 6))
    bet_total = result.bets["banker"][1] / n
    assert abs(float(bet_total - exact.bet("banker").ev)) < 4 * 0.95 / math.sqrt(n)


@pytest.mark.parametrize("rules,prose,player", [
    (PUNTO_BANCO, banker_draws_prose, player_draws_on(range(6))),
    (GOLD, gold_banker_draws_prose, player_draws_on(range(6))),
    (GOLD.with_player_option("stand"), gold_banker_draws_prose, player_draws_on(range(5))),
])
def test_small_shoes_replay_exactly_against_the_oracle(rules, prose, player):
    seed, shoes = 8, 6
    text, _ = simulate_to_text(ONE, shoes, seed, cut_card=6, rules=rules)
    rows = [line.split(",") for line in text.splitlines()[1:]]
    rng = np.random.Generator(np.random.PCG64(seed))
    base = _base_cards(ONE, Faults())
    expected = []
    for s in range(1, shoes + 1):
        names = [str(c) for c in _names(rng.permutation(base).tolist())]
        pos = 0
        while len(names) - pos >= 6:
            coup = deal_variant(names[pos:pos + 6], prose, player)
            expected.append([str(s), " ".join(coup["player_cards"]), " ".join(coup["banker_cards"]),
                             coup["winner"]])
            pos += len(coup["player_cards"]) + len(coup["banker_cards"])
    assert rows == expected


def _names(codes):
    from analyzer.simcheck.logs import card_text
    out = [card_text(c) for c in codes]
    assert all(n[0] in POINT for n in out)
    return out


def test_simulate_names_its_rules_and_refuses_a_player_option_without_them(tmp_path, cli):
    log = tmp_path / "g.csv"
    r = cli("simulate", "--decks", "1", "--shoes", "5", "--seed", "1", "--rules", "gold",
            "--player-option", "stand", "--log", log, "-q")
    assert r.code == 0
    assert r.out.endswith(", rules gold, Player stands on 5); log " + str(log) + "\n")
    assert cli("verify", log, "--decks", "1", "--rules", "gold", "--player-option", "stand", "-q").code == 0
    r = cli("simulate", "--decks", "1", "--shoes", "5", "--seed", "1", "--player-option", "draw")
    assert r.code == 2 and r.err.count("\n") == 1


def test_a_faulty_gold_cell_is_caught_under_gold():
    # flip Gold's cell Banker 6 / Player's third card 6 (stands in Gold): verify under gold catches it
    text, _ = simulate_to_text(ONE, 60, 4, rules=GOLD, faults=Faults(banker_cell=(6, 6)))
    rep = replay(read_hand_log("f.csv", text), ONE, rules=GOLD)
    assert rep.violations and all(v.message.startswith("banker drew on 6 although player's third card was 6")
                                  for v in rep.violations)
