"""Known cards at dealing positions: the oracle with the cards pinned, the sums over a
position, and Jacobson's known-card edges.

Jacobson (known-card play, 8 decks): knowing the value of the card at
position 1 or 3 and betting the better of Player, Banker or nothing is worth 6.765%, at 2
or 4 6.406%, at 5 8.973%, at 6 9.098%.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from analyzer import Shoe, catalog
from analyzer.core.cards import RANKS, SUITS
from analyzer.core.known import KnownError, parse_known
from analyzer.core.rules import GOLD
from analyzer.core.solver import Solver
from analyzer.reports.midcoup import known_card_edges
from oracle import banker_draws_prose, deal_variant, gold_banker_draws_prose, player_draws_on

MAIN = catalog().select(["player", "banker", "tie", "dragon7", "panda8"])


def shoe_of(cards: list[str]) -> Shoe:
    return Shoe.parse(",".join(f"{r}={cards.count(r)}" for r in sorted(set(cards))))


def oracle_pinned(cards, pins, banker_rule=banker_draws_prose):
    """Winner tally over every ordered six of the physical cards whose pinned positions
    hold the named rank (or exact card, when the pin has a suit)."""
    tally, deals = Counter(), 0
    for perm in itertools.permutations(range(len(cards)), 6):
        hand = [cards[i] for i in perm]
        if all(hand[p - 1] == c if len(c) == 2 else hand[p - 1][0] == c for p, c in pins):
            tally[deal_variant(hand, banker_rule, player_draws_on(range(6)))["winner"]] += 1
            deals += 1
    return tally, deals


TINY = ["A 2 3 4 5 6 7 8 9 K", "5 5 5 K K 9 6 2 3", "T T 5 5 4 A 7 8 3"]


@pytest.mark.parametrize("text", TINY)
@pytest.mark.parametrize("pins", [[(1, "5")], [(5, "K")], [(6, "3")], [(2, "9"), (4, "K")],
                                  [(1, "5"), (3, "5")], [(1, "2"), (2, "3"), (5, "5")]])
def test_known_against_the_permutation_oracle(text, pins):
    cards = text.split()
    shoe = shoe_of(cards)
    tally, deals = oracle_pinned(cards, pins)
    known = parse_known([f"{p}={c}" for p, c in pins])
    try:
        a = Solver(MAIN, known=known).solve(shoe)
    except Exception as e:
        assert deals == 0, e            # the shoe cannot supply the pinned cards
        return
    assert a.deals == deals and a.outcomes == {w: tally[w] for w in ("player", "banker", "tie")}


def test_known_suited_and_gold_against_the_oracle():
    cards = ["As", "Ah", "5s", "5d", "Kc", "Kh", "9s", "3d", "2c"]
    shoe = Shoe.parse(",".join(f"{c}=1" for c in cards))
    for pins, rules, prose in (([(1, "As")], None, banker_draws_prose), ([(1, "A"), (3, "Ah")], None,
                                                                          banker_draws_prose),
                               ([(5, "5d"), (2, "K")], GOLD, gold_banker_draws_prose)):
        tally, deals = oracle_pinned(cards, pins, prose)
        a = Solver(MAIN, rules=rules, known=parse_known([f"{p}={c}" for p, c in pins])).solve(shoe)
        assert a.deals == deals and a.outcomes == {w: tally[w] for w in ("player", "banker", "tie")}


@pytest.mark.parametrize("shoe", [Shoe.standard(8), Shoe.standard(1).remove("5 5 9 K"), shoe_of(TINY[1].split())])
def test_sum_over_a_position_gives_back_the_unconditional_counts(shoe):
    base = Solver(MAIN).solve(shoe)
    for pos in range(1, 7):
        ways = Counter()
        deals = 0
        prob = {b: Fraction(0) for b in base.bets}
        for r in RANKS:
            if not shoe.rank_counts[r]:
                continue
            a = Solver(MAIN, known=parse_known([f"{pos}={r}"])).solve(shoe)
            ways.update(a.outcomes)
            deals += a.deals
            for b in base.bets:          # weighted by the shoe: P(rank at pos) * conditional EV
                prob[b] += Fraction(shoe.rank_counts[r], shoe.cards) * a.bet(b).ev
        assert dict(ways) == base.outcomes and deals == base.deals
        assert prob == {b: base.bet(b).ev for b in base.bets}


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_sum_over_every_card_of_a_suited_shoe():
    shoe = Shoe.standard(1).remove("5s 9h Kd")
    base = Solver(MAIN).solve(shoe)
    for pos in (2, 6):
        ways, deals = Counter(), 0
        for r in RANKS:
            for s in SUITS:
                if shoe.card_counts[r + s]:
                    a = Solver(MAIN, known=parse_known([f"{pos}={r}{s}"])).solve(shoe)
                    ways.update(a.outcomes)
                    deals += a.deals
        assert dict(ways) == base.outcomes and deals == base.deals


def known_card_edge(pos: int, shoe: Shoe, bets=("player", "banker")) -> Fraction:
    """The average edge from knowing the value at ``pos`` and betting the best of ``bets`` or nothing."""
    return known_card_edges(shoe, {"bets": catalog().select(list(bets))})["bets"][pos]


@pytest.mark.slow  # 3 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_jacobson_known_card_edges():
    shoe = Shoe.standard(8)
    edges = {pos: known_card_edge(pos, shoe) for pos in range(1, 7)}
    assert edges[1] == edges[3] and edges[2] == edges[4]
    assert {p: round(float(e) * 100, 3) for p, e in edges.items()} == {
        1: 6.765, 2: 6.406, 3: 6.765, 4: 6.406, 5: 8.973, 6: 9.098}


@pytest.mark.parametrize("argv,message", [
    (["--known", "0=K"], "outside 1-6"), (["--known", "7=K"], "outside 1-6"),
    (["--known", "1=K", "--known", "1=Q"], "given twice"),
    (["--known", "1=X"], "unknown rank"), (["--known", "1K"], "expected POS=CARD"),
    (["--shoe", "A=4,K=4", "--known", "1=5"], "holds 0"),
    (["--decks", "1", "--known", "1=K", "--known", "2=K", "--known", "3=K", "--known", "4=K", "--known", "5=K"],
     "holds 4"),
    (["--shoe", "A=4,K=4", "--known", "1=Kh"], "suits are unknown"),
    (["--shoe", "A=4,K=4", "--known", "1=K", "--bets", "perfect_pair"], "suits are unknown"),
])
def test_bad_known_is_one_line_exit_2(cli, argv, message):
    assert message in cli.error("odds", *argv)


def test_odds_json_names_the_known_cards_and_counts_their_deals(cli):
    import json
    r = cli("odds", "--known", "1=4", "--known", "3=K", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    assert doc["known"] == {"1": "4", "3": "K"}
    assert sum(o["ways"] for o in doc["outcomes"].values()) == doc["deals"] == 32 * 32 * 414 * 413 * 412 * 411
    with pytest.raises(KnownError):
        parse_known(["3=K", "3=Q"])


@pytest.mark.slow       # 4.5 s; test_jacobson_known_card_edges checks published known-card edges by default
def test_known_card_edges_of_dragon7_and_panda8():
    shoe = Shoe.standard(8)
    for bet, figures in (("dragon7", [1.136, 4.712, 1.136, 4.712, 5.530, 39.202]),
                         ("panda8", [0.473, 0.0, 0.473, 0.0, 43.659, 0.309])):
        edges = [known_card_edge(p, shoe, (bet,)) for p in range(1, 7)]
        assert [round(float(e) * 100, 3) for e in edges] == figures
    # knowing B1 or B2 never makes Panda 8 (a three-card Player 8) worth betting
    assert known_card_edge(2, shoe, ("panda8",)) == 0
