"""The card-engine bets of the catalog (analyzer/bets/data/cards.toml) against their
published figures: Wizard of Odds' counts (tests/data/published_side_bets_b.toml,
[[research]] entries, and tests/data/published_card_bets.toml)."""

from __future__ import annotations

import math
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer.bets.catalog import catalog, load_bets_file
from analyzer.core.shoe import Shoe
from analyzer.core.solver import Solver

DATA = Path(__file__).parent / "data"
RESEARCH = {r["id"]: r for r in tomllib.loads((DATA / "published_side_bets_b.toml").read_text())["research"]}
FIRST_FOUR = {b["id"]: b for b in tomllib.loads((DATA / "published_card_bets.toml").read_text())["bet"]}
ORDERS = math.factorial(4) * 412 * 411     # a 4-card combination as ordered six-card deals (8 decks)


@pytest.fixture(scope="module")
def eight():
    return Shoe.standard(8)


def _solve(bet_id, shoe):
    return Solver([catalog().bet(bet_id)]).solve(shoe).bet(bet_id)


@pytest.mark.parametrize("bet_id", ["monkey6", "monkey_tie", "grand_monkey", "lucky_match", "contrast"])
def test_wizard_of_odds_counts(eight, bet_id):
    published = RESEARCH[bet_id]
    ours = _solve("contrast_bonus" if bet_id == "contrast" else bet_id, eight)
    ways = list(published["ways"].values())
    if bet_id == "contrast":
        ways = [published["ways"][k] for k in ("six", "five", "four")]
    assert [e.ways for e in ours.events[:-1]] == ways
    assert f"{float(ours.ev):.6f}" == published["ev"]


def test_monkey_house_edges_by_pay(eight):
    """Wizard of Odds' house edge for each pay of Monkey 6, Monkey Tie and Grand Monkey."""
    for bet_id in ("monkey6", "monkey_tie", "grand_monkey"):
        p = _solve(bet_id, eight).events[0].probability
        for pays, edge in RESEARCH[bet_id]["house_edge_by_pays"].items():
            assert f"{float(1 - p * (int(pays) + 1)) * 100:.2f}" == edge, (bet_id, pays)


def test_jackpot_ways_are_the_published_combinations(eight):
    published = FIRST_FOUR["jackpot"]
    ours = _solve("jackpot", eight)
    assert [e.ways for e in ours.events] == [c * ORDERS for c in published["combinations"]]
    assert sum(published["combinations"]) == math.comb(416, 4)
    assert f"{float(ours.house_edge) * 100:.2f}" == published["house_edge"]


def test_lucky_nines_binions_and_the_published_slip(eight):
    """Wizard of Odds' Binion's table has 64,512 combinations for three suited nines and
    1,840,128 for three mixed; his later Red Rock table has 86,016 and 1,818,624 for the
    same two events (the sums agree).  The direct count: a suit (4), three of its eight
    nines (C(8,3) = 56), and a fourth card that is not a nine (384 of them) gives
    4 x 56 x 384 = 86,016; 64,512 is 4 x 56 x 288, as if the fourth card could not be of
    the nines' suit.  We count 86,016 (so Binion's house edge is 19.06%, not the
    printed 19.46%); every other row agrees."""
    published = FIRST_FOUR["lucky_nines_binions"]["combinations"]
    ours = [e.ways for e in _solve("lucky_nines_binions", eight).events]
    direct = 4 * math.comb(8, 3) * 384
    assert direct == 86_016 == FIRST_FOUR["lucky_nines"]["combinations_first"][1]
    assert published[1] == 4 * math.comb(8, 3) * 288
    assert ours[1] == direct * ORDERS and ours[2] == (published[2] - (direct - published[1])) * ORDERS
    assert [w for i, w in enumerate(ours) if i not in (1, 2)] == \
        [c * ORDERS for i, c in enumerate(published) if i not in (1, 2)]
    he = _solve("lucky_nines_binions", eight).house_edge
    assert f"{float(he) * 100:.2f}" == "19.06" and FIRST_FOUR["lucky_nines_binions"]["house_edge"] == "19.46"


def test_lucky_nines_red_rock(eight):
    published = FIRST_FOUR["lucky_nines"]
    ours = _solve("lucky_nines", eight)
    assert [e.ways for e in ours.events[:4]] == [c * ORDERS for c in published["combinations_first"]]
    assert f"{float(ours.house_edge) * 100:.2f}" == published["house_edge"]
    # the same events as Binion's, paid differently: counts equal event by event
    assert [e.ways for e in ours.events] == [e.ways for e in _solve("lucky_nines_binions", eight).events]


def test_all_red_and_all_black(eight):
    """No published count was seen (the stored page is cut); the colours are equally
    likely on a full shoe, and the count is the colour-blind engine's count on the
    red half of the shoe for the dealt cards, the whole shoe for the unused ones."""
    red, black = _solve("all_red", eight), _solve("all_black", eight)
    assert red.events[0].ways == black.events[0].ways == 186_891_927_234_688
    assert red.house_edge == 1 - red.events[0].probability * 23
    assert black.house_edge == 1 - black.events[0].probability * 25


def test_depleted_shoe_changes_the_counts():
    """A shoe short of faces pays Grand Monkey less often; every count stays exact."""
    shoe = Shoe.standard(8).remove(" ".join(["Kh", "Qs", "Jd", "Kc"] * 4))
    p = _solve("grand_monkey", shoe).events[0].probability
    assert isinstance(p, Fraction) and p < _solve("grand_monkey", Shoe.standard(8)).events[0].probability


def test_effects_of_removal_average_over_the_suits():
    """Removing "a King" from a suited shoe is the average over which King leaves:
    a colour bet gains from a black King leaving and loses from a red one, and the
    effects weighted by the shoe's counts balance exactly."""
    from analyzer.reports.eor import effects_of_removal, removals
    shoe = Shoe.standard(8)
    mix = removals(shoe, "K", 2)
    assert sum(w for w, _ in mix) == 1 and len(mix) == 10       # the suit splits of two cards
    e = effects_of_removal(shoe, ["all_red", "lucky_nines"])
    base = _solve("all_red", shoe).ev
    by_suit = [_solve("all_red", shoe.remove("K" + s)).ev - base for s in "shdc"]
    assert by_suit[0] > 0 > by_suit[1]                            # a black King leaving helps All Red
    assert e.bets["all_red"].effect("K") == sum(by_suit, Fraction(0)) / 4
    assert e.bets["all_red"].weighted_sum == 0 == e.bets["lucky_nines"].weighted_sum


# -- Lucky Win (Galaxy Gaming), the Player side, pay table #1 --------------------------------

#: Eliot Jacobson, "Card Counting the Lucky Win Baccarat Side Bet",
#: https://888casino.com/blog/side-bets/card-counting-the-lucky-win-baccarat-side-bet :
#: "I got a house edge of 12.040% for pay table #1. The rack sheet stated the house edge
#: was 12.07%" (eight decks).  Pays: the UK register,
#: https://www.ukcasinotablegames.info/puntoluckywin.html ("Player's 1 in spades wins 500:1,
#: Player's 1 in other suit wins 200:1, Player's 1 off suit wins 30:1, ... 2 ... 20:1, 3 ...
#: 12:1, 4 ... 8:1, 5 ... 5:1").
LUCKY_WIN_FILE = Path(__file__).resolve().parents[1] / "examples" / "lucky_win.toml"  # not in the catalog: 3 s to compile
LUCKY_WIN_PAYS = {"1 in spades": 500, "1 in other suit": 200, "1 off suit": 30, "2": 20, "3": 12, "4": 8, "5": 5}


def lucky_win():
    return load_bets_file(LUCKY_WIN_FILE).bet("lucky_win_player")


@pytest.mark.slow  # 6 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_lucky_win_player_is_jacobsons_edge(eight):
    bet = lucky_win()
    assert {e.event: e.pays for e in bet.events} == LUCKY_WIN_PAYS and bet.otherwise == -1
    assert "ukcasinotablegames.info/puntoluckywin.html" in bet.source
    assert "888casino.com/blog/side-bets/card-counting-the-lucky-win-baccarat-side-bet" in bet.source
    r = Solver([bet]).solve(eight).bet(bet.id)
    assert r.house_edge == Fraction(2350816936301, 19524993263685)
    assert f"{float(r.house_edge) * 100:.3f}" == "12.040"          # Jacobson; Galaxy's sheet: 12.07
    # a winning Player 1 always has three cards (the Player draws on 0-5): "suited" is three of a suit
    ways = {e.event: e.ways for e in r.events}
    assert ways["1 in other suit"] == 3 * ways["1 in spades"]        # the full shoe's suits alike


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_lucky_win_player_against_every_ordered_deal():
    """Every ordered deal of a small suited shoe, the bet settled from the cards by its rules
    (no condition language): the Player wins with 5 or less; a 1 pays by its cards' suits."""
    import brute
    from helpers import shoe_of

    from analyzer.core.rules import PUNTO_BANCO

    # A♠ A♥ 2♦ 3♠ 5♠ 6♠ 9♣ T♠ J♥ Q♠ K♠ K♥ (cards 0-51, rank-major, suits s h d c)
    cards = (0, 1, 6, 8, 16, 20, 35, 36, 41, 44, 48, 49)
    deals = brute.ordered_deals(cards)
    f = brute.features(deals, PUNTO_BANCO)
    hand = np.stack([f["card:player_card1"], f["card:player_card2"], f["card:player_card3"]], axis=1)
    suits = np.where(hand >= 0, hand % 4, -1)
    dealt = hand >= 0
    one_suit = np.all((suits == suits[:, :1]) | ~dealt, axis=1)
    spades = np.all((suits == 0) | ~dealt, axis=1)
    won, total = f["winner"] == 0, f["player_total"]
    want = {
        "1 in spades": won & (total == 1) & spades,
        "1 in other suit": won & (total == 1) & one_suit & ~spades,
        "1 off suit": won & (total == 1) & ~one_suit,
        **{str(t): won & (total == t) for t in range(2, 6)},
    }
    assert int((won & (total == 0)).sum()) == 0                      # a 0 never wins
    r = Solver([lucky_win()]).solve(shoe_of(cards)).bet("lucky_win_player")
    got = {e.event: e.ways for e in r.events}
    assert got == {k: int(m.sum()) for k, m in want.items()} | {"loses": len(deals) - sum(int(m.sum()) for m in want.values())}
    assert all(w > 0 for w in got.values())
