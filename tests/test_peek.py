"""Peek Baccarat (``analyzer.reports.peek``): the raise decision and the conditional EV against
the known-card machinery, the whole RTP against a brute force over every permutation of the
cards of small shoes (dealt by the prose oracle, sharing no code with the engine), the plain
bets with nothing revealed and no fee, and bad input through the CLI.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache

import pytest

from analyzer import Shoe, analyze, catalog
from analyzer.core.known import parse_known
from analyzer.core.solver import Solver
from analyzer.reports.peek import (
    PEEK_BETS,
    PeekError,
    PeekGame,
    Reveal,
    conditional,
    four_card_counts,
    inverse,
    mixture,
    mixture_inverse,
    price,
)
from oracle import POINT
from oracle import deal as oracle_deal

#: A card of each point value, for a --known pin.
CARD = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}
MAIN = catalog().select(["player", "banker"])


@lru_cache(maxsize=1)
def eight_decks():
    return four_card_counts(Shoe.standard(8))


# --- (a) the conditional EV and the decision, against the known-card machinery ---------------

@pytest.mark.parametrize("revealed", [{"P1": 9}, {"B2": 0}, {"B1": 0, "B2": 7}, {"P1": 3, "B1": 5, "P2": 2},
                                      {"P1": 1, "B1": 6, "P2": 0, "B2": 1}])
def test_conditional_ev_is_the_known_card_ev(revealed):
    shoe = Shoe.standard(8)
    counts = eight_decks()
    pos = {"P1": 1, "B1": 2, "P2": 3, "B2": 4}
    a = Solver(MAIN, known=parse_known([f"{pos[p]}={CARD[v]}" for p, v in revealed.items()])).solve(shoe)
    for bet in ("player", "banker"):
        c = conditional(counts, PEEK_BETS[bet], revealed)
        assert c.ev == a.bet(bet).ev   # a K pinned for a 0: the EV given the rank is the EV given the value


SMALL = Shoe.parse("A=3,2=2,3=3,4=2,5=3,6=2,7=2,8=2,9=3,K=6")


@pytest.mark.parametrize("subset", [("P1",), ("B2",), pytest.param(("P1", "B1"), marks=pytest.mark.slow),
                                    pytest.param(("B1", "P2", "B2"), marks=pytest.mark.slow)])
def test_fixed_reveal_priced_from_known_card_solves(subset):
    """A fixed reveal's RTP rebuilt from one known-card solve per revealed value tuple: the
    player raises to 3 exactly when that solve's EV is positive."""
    shoe = SMALL
    counts = four_card_counts(shoe)
    pos = {"P1": 1, "B1": 2, "P2": 3, "B2": 4}
    game = PeekGame()
    for bet in ("player", "banker"):
        r = price(counts, PEEK_BETS[bet], Reveal.fixed(subset), game)
        ret = stake = Fraction(0)
        played = defaultdict(Fraction)
        for values in itertools.product(range(10), repeat=len(subset)):
            if any(shoe.value_counts[v] < values.count(v) for v in set(values)):
                continue
            a = Solver(MAIN, known=parse_known([f"{pos[p]}={CARD[v]}" for p, v in zip(subset, values)])).solve(shoe)
            ev = a.bet(bet).ev
            # P(the values): the value engine's deals of those values over all deals
            c = conditional(counts, PEEK_BETS[bet], dict(zip(subset, values)))
            p = Fraction(c.deals, counts.deals)
            assert c.ev == ev
            x = 3 if ev > 0 else 1
            played[x] += p
            ret += p * x * (1 + ev)
            stake += p * x
        assert r.expected_return == ret and r.expected_stake == stake
        assert {x: r.frequency(x) for x in (1, 3)} == {x: played[x] for x in (1, 3)} and r.frequency(2) == 0


# --- (b) the whole RTP against a brute force over every permutation of a small shoe ---------

@lru_cache(maxsize=None)
def dealt(cards: tuple[str, ...]):
    """Every permutation of the physical cards (repeated ranks are distinct cards): its first
    four point values and its winner, by the prose oracle."""
    out = []
    for perm in itertools.permutations(cards):
        out.append((tuple(POINT[c[0]] for c in perm[:4]), oracle_deal(list(perm))["winner"]))
    return out


@lru_cache(maxsize=None)
def grouped(cards: tuple[str, ...], subset: tuple[int, ...], bet: str) -> tuple[tuple[int, int, int], ...]:
    """Per value tuple shown at ``subset``: (permutations, 20 x the bet's net sum, 20 x its
    gross return sum for a stake of 1), in whole numbers."""
    win = int(PEEK_BETS[bet].pays * 20)
    groups: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    for v, w in dealt(cards):
        net = 0 if w == "tie" else (win if w == bet else -20)
        g = groups[tuple(v[j] for j in subset)]
        g[0] += 1
        g[1] += net
        g[2] += 20 + net
    return tuple(tuple(g) for g in groups.values())  # type: ignore[misc]


def brute(cards: list[str], reveal: Reveal, game: PeekGame, bet: str):
    """(E[return], E[stake], frequency of each multiple, weight of EV exactly 0) over every
    permutation of ``cards``, the reveal drawn by its probabilities, the decision taken from
    the brute force's own conditional sums."""
    n = len(dealt(tuple(cards)))
    ret = stake = zero = Fraction(0)
    freq: dict[int, Fraction] = defaultdict(Fraction)
    for subset, p in reveal.subsets:
        for members, net, gross in grouped(tuple(cards), subset, bet):
            x = max(game.raises) if net > 0 else 1
            share = p * Fraction(members, n)
            if net == 0:
                zero += share
            freq[x] += share
            stake += x * share
            ret += p * Fraction(x * gross, 20 * n)
    return ret, stake, dict(freq), zero


def shoe_of(cards: list[str]) -> Shoe:
    return Shoe.parse(",".join(f"{r}={cards.count(r)}" for r in sorted(set(cards))))


#: 7-card shoes (5,040 permutations each) for the default run, 8 and 9 cards (40,320 and
#: 362,880) for the slow one; each has revealed situations whose EV is exactly 0.
BRUTE_SHOES = ["A 2 3 4 5 6 7", "T 5 5 4 A 7 8"]
SLOW_SHOES = ["5 5 5 K K 9 6 2", "T T 5 5 4 A 7 8 3"]
REVEALS = [Reveal.uniform(2), Reveal.uniform_count(1, 4), Reveal.fixed(("P1", "B2")), Reveal.uniform(4)]
GAMES = [PeekGame(), PeekGame(fee=Fraction(1, 10), raises=(1, 2))]


def check_against_brute(cards: list[str], reveal: Reveal, games=GAMES) -> int:
    counts = four_card_counts(shoe_of(cards))
    level = 0
    for game in games:
        for bet in ("player", "banker"):
            r = price(counts, PEEK_BETS[bet], reveal, game)
            ret, stake, freq, zero = brute(cards, reveal, game, bet)
            assert (r.expected_return, r.expected_stake) == (ret, stake)
            assert {x: r.frequency(x) for x in game.raises} == {x: freq.get(x, Fraction(0)) for x in game.raises}
            assert Fraction(r.level, r.denominator) == zero
            assert r.rtp_paid == ret / (stake + game.fee)
            assert r.rtp_initial == 1 - (stake + game.fee - ret) / (1 + game.fee)
            level += r.level
    return level


@pytest.mark.parametrize("text", BRUTE_SHOES)
def test_rtp_against_every_permutation(text):
    levels = [check_against_brute(text.split(), reveal) for reveal in REVEALS]
    assert levels[-1] > 0        # four cards shown: some with EV exactly 0, kept at 1


@pytest.mark.slow
@pytest.mark.parametrize("text", SLOW_SHOES)
@pytest.mark.parametrize("reveal", REVEALS, ids=lambda r: r.name)
def test_rtp_against_every_permutation_of_eight_and_nine_cards(text, reveal):
    check_against_brute(text.split(), reveal)


# --- (c) nothing revealed, no fee: the ordinary bets -----------------------------------------

def test_no_reveal_no_fee_is_the_plain_bet():
    shoe = Shoe.standard(8)
    plain = analyze(shoe, ["player", "banker"])
    counts = eight_decks()
    for bet in ("player", "banker"):
        r = price(counts, PEEK_BETS[bet], Reveal.fixed(()), PeekGame(fee=Fraction(0)))
        ev = plain.bet(bet).ev
        assert r.rtp_paid == r.rtp_initial == r.plain_rtp == 1 + ev
        assert r.frequency(1) == 1 and r.expected_stake == 1
        # the fee alone: the no-raise RTP of every reveal
        f = price(counts, PEEK_BETS[bet], Reveal.uniform(3), PeekGame())
        assert f.plain_rtp == (1 + ev) / Fraction(6, 5)
    assert f"{float(1 + plain.bet('player').ev):.4%}" == "98.7649%"


def test_every_revealed_tuple_sums_back_to_the_shoe():
    counts = eight_decks()
    plain = analyze(Shoe.standard(8), ["player"])
    assert sum(counts.player) == plain.ways("player") and counts.deals == plain.deals


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_the_inverse_reproduces_none_of_the_family_and_some_mixtures():
    counts = eight_decks()
    rows = inverse(counts)
    assert len(rows) == 20 and not any(r.paid or r.initial for r in rows)
    paid, initial = (mixture_inverse(counts, c) for c in ("paid", "initial"))
    assert paid.vertices and paid.reproduces and initial.vertices == () and initial.example is None
    assert paid.example is not None
    again = [price(counts, PEEK_BETS[b], mixture(paid.example)) for b in ("player", "banker")]
    assert [r.rtp_paid for r in again] == [r.rtp_paid for r in paid.results or ()]


# --- (d) bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["--reveal", "5"], "at most 4 cards"),
    (["--reveal", "1-5"], "at most 4 cards"),
    (["--reveal", "P1,B1,P2,B2,P1"], "at most 4 cards"),
    (["--reveal", "P3"], "not a position"),
    (["--reveal", "P1,P1"], "given twice"),
    (["--reveal", "3-1"], "empty"),
    (["--reveal", "2", "--fee", "100%"], "--fee"),
    (["--reveal", "2", "--fee", "-5%"], "--fee"),
    (["--reveal", "2", "--raises", "0,1,2"], "at least 1"),
    (["--reveal", "2", "--raises", "2,3"], "must include 1"),
    (["--reveal", "2", "--raises", "1,x"], "whole multiple"),
    (["--reveal", "2", "--bet", "tie"], "unknown bet"),
    ([], "give --reveal"),
    (["--inverse", "--reveal", "2"], "give no --reveal"),
    (["--inverse", "--decks", "6"], "8 decks"),
    (["--shoe", "A=2,K=3", "--reveal", "1"], "at least 6"),
])
def test_bad_input_is_one_line_exit_2(cli, argv, message):
    assert message in cli.error("peek", *argv)


def test_peek_json_prices_the_raises_as_the_library_does(cli):
    r = cli("peek", "--reveal", "P1,B1", "--raises", "1,2", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)
    r = price(eight_decks(), PEEK_BETS["banker"], Reveal.fixed(("P1", "B1")),
              PeekGame(raises=(1, 2)))
    assert doc["bets"][1]["rtp_paid"] == f"{r.rtp_paid.numerator}/{r.rtp_paid.denominator}"
    assert doc["raises"] == [1, 2] and doc["reveal"]["subsets"] == [{"positions": ["P1", "B1"], "p": "1/1"}]


def test_api_refuses_what_cannot_be():
    with pytest.raises(PeekError):
        Reveal.fixed(("P1", "C5"))
    with pytest.raises(PeekError):
        PeekGame(fee=Fraction(1))
    with pytest.raises(PeekError):
        Reveal.of({("P1",): Fraction(1, 2)})
