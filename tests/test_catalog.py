"""The bet catalog against independent oracles and published figures.

* Every catalog bet's pay table is written again below in plain Python, from the
  bets' descriptions (never from the catalog's condition strings), and tallied over
  every ordered six-card deal of the actual suited cards of tiny shoes by the
  permutation oracle (tests/oracle.py); the engine must agree event by event.
* The same pay tables, weighted by an independent walk over point values, check
  every value-only bet on a full depleted shoe.
* Published figures (tests/data/published_8deck.toml, with their sources) are
  checked exactly (integer counts) or to the printed decimals.
* Pairs and perfect pairs are checked against closed forms.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import Bet, BetError, Condition, Event, Shoe, Solver, analyze, catalog
import analyzer
from analyzer.bets.catalog import parse_catalog

from oracle import POINT, six_card_tally, value_tally

DATA = tomllib.loads((Path(__file__).parent / "data" / "published_8deck.toml").read_text(encoding="utf-8"))


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


# =====================================================================================
# Pay tables, written independently from the bets' descriptions.
# A coup is what oracle.deal() returns: winner, final totals, and the card strings
# ("Ks", "5d", or a bare rank) of each hand in dealing order.
# =====================================================================================

def pt(card: str) -> int:
    return POINT[card[0]]


def two_total(hand: list[str]) -> int:
    return (pt(hand[0]) + pt(hand[1])) % 10


def is_natural(hand: list[str]) -> bool:
    return two_total(hand) in (8, 9)


def same_rank(hand: list[str]) -> bool:
    return hand[0][0] == hand[1][0]


def identical(hand: list[str]) -> bool:  # same rank AND same suit
    return hand[0] == hand[1]


def n_cards(c: dict) -> int:
    return len(c["player_cards"]) + len(c["banker_cards"])


def side_bet(side: str, paying: str):
    """Player / Banker: wins pay, a tie pushes, anything else loses."""
    def f(c):
        if c["winner"] == side:
            return paying
        return "tie (push)" if c["winner"] == "tie" else "loses"
    return f


def tie_bet(c):
    return "tie" if c["winner"] == "tie" else "loses"


def pair_bet(side: str):
    def f(c):
        return f"{side} pair" if same_rank(c[f"{side}_cards"]) else "loses"
    return f


def either_pair(c):
    return "either pair" if same_rank(c["player_cards"]) or same_rank(c["banker_cards"]) else "loses"


def perfect_pair(c):
    return "perfect pair" if identical(c["player_cards"]) or identical(c["banker_cards"]) else "loses"


def perfect_pair_v2(c):
    n = identical(c["player_cards"]) + identical(c["banker_cards"])
    return {2: "two perfect pairs", 1: "one perfect pair", 0: "loses"}[n]


def banker_three_card(c, total: int) -> bool:
    return c["winner"] == "banker" and len(c["banker_cards"]) == 3 and c["banker_total"] == total


def ez_banker(c):
    if c["winner"] == "banker":
        return "banker wins with a three-card 7 (push)" if banker_three_card(c, 7) else "banker wins"
    return "tie (push)" if c["winner"] == "tie" else "loses"


def dragon7(c):
    return "banker wins with a three-card 7" if banker_three_card(c, 7) else "loses"


def panda8(c):
    win = c["winner"] == "player" and len(c["player_cards"]) == 3 and c["player_total"] == 8
    return "player wins with a three-card 8" if win else "loses"


def nocommission_banker(c):
    if c["winner"] == "banker":
        return "banker wins with 6" if c["banker_total"] == 6 else "banker wins"
    return "tie (push)" if c["winner"] == "tie" else "loses"


def super6(c):
    return "banker wins with 6" if c["winner"] == "banker" and c["banker_total"] == 6 else "loses"


def banker_six(two: bool, three: bool):
    """Lucky 6 / Tiger family: a Banker win on 6, split by the Banker's number of cards."""
    def f(c):
        if c["winner"] == "banker" and c["banker_total"] == 6:
            k = len(c["banker_cards"])
            if k == 2 and two:
                return "banker wins with a two-card 6"
            if k == 3 and three:
                return "banker wins with a three-card 6"
        return "loses"
    return f


def tie_at(total: int, event: str):
    def f(c):
        return event if c["winner"] == "tie" and c["player_total"] == total else "loses"
    return f


def dragon_bonus(side: str):
    other = "banker" if side == "player" else "player"

    def f(c):
        mine, theirs = c[f"{side}_cards"], c[f"{other}_cards"]
        if c["winner"] == side and is_natural(mine):
            return "natural win"
        if c["winner"] == "tie" and is_natural(mine) and is_natural(theirs):
            return "natural tie (push)"
        if c["winner"] == side:
            margin = c[f"{side}_total"] - c[f"{other}_total"]
            if margin >= 4:
                return f"win by {margin}"
        return "loses"
    return f


def big(c):
    return "5 or 6 cards" if n_cards(c) in (5, 6) else "loses"


def small(c):
    return "4 cards" if n_cards(c) == 4 else "loses"


def natural_of(side: str, total: int):
    def f(c):
        return f"{side} natural {total}" if two_total(c[f"{side}_cards"]) == total else "loses"
    return f


def tie_max(low: bool):
    def f(c):
        if c["winner"] != "tie":
            return "loses"
        highest = max(pt(x) for x in c["player_cards"] + c["banker_cards"])
        if low and highest <= 5:
            return "tie, highest card 0-5"
        if not low and highest >= 6:
            return "tie, highest card 6-9"
        return "loses"
    return f


PAYTABLES = {
    "player": side_bet("player", "player wins"),
    "banker": side_bet("banker", "banker wins"),
    "tie": tie_bet,
    "tie_9to1": tie_bet,
    "banker_4pct": side_bet("banker", "banker wins"),
    "player_pair": pair_bet("player"),
    "banker_pair": pair_bet("banker"),
    "either_pair": either_pair,
    "perfect_pair": perfect_pair,
    "perfect_pair_v2": perfect_pair_v2,
    "ez_banker": ez_banker,
    "dragon7": dragon7,
    "panda8": panda8,
    "nocommission_banker": nocommission_banker,
    "super6": super6,
    "lucky6": banker_six(True, True),
    "lucky6_23": banker_six(True, True),
    "tiger": banker_six(True, True),
    "small_tiger": banker_six(True, False),
    "big_tiger": banker_six(False, True),
    "tiger_tie": tie_at(6, "tie at 6"),
    "dragon_bonus_player": dragon_bonus("player"),
    "dragon_bonus_banker": dragon_bonus("banker"),
    "big": big,
    "small": small,
    **{f"egalite_{t}": tie_at(t, f"tie at {t}") for t in range(10)},
    "natural8_player": natural_of("player", 8),
    "natural9_player": natural_of("player", 9),
    "natural8_banker": natural_of("banker", 8),
    "natural9_banker": natural_of("banker", 9),
    "tie_max_low": tie_max(True),
    "tie_max_high": tie_max(False),
}

#: What each bet pays per event (to 1), from the descriptions; "loses" is -1.
PAYS = {
    "player": {"player wins": 1, "tie (push)": 0},
    "banker": {"banker wins": Fraction(19, 20), "tie (push)": 0},
    "tie": {"tie": 8},
    "tie_9to1": {"tie": 9},
    "banker_4pct": {"banker wins": Fraction(24, 25), "tie (push)": 0},
    "player_pair": {"player pair": 11},
    "banker_pair": {"banker pair": 11},
    "either_pair": {"either pair": 5},
    "perfect_pair": {"perfect pair": 25},
    "perfect_pair_v2": {"two perfect pairs": 250, "one perfect pair": 25},
    "ez_banker": {"banker wins with a three-card 7 (push)": 0, "banker wins": 1, "tie (push)": 0},
    "dragon7": {"banker wins with a three-card 7": 40},
    "panda8": {"player wins with a three-card 8": 25},
    "nocommission_banker": {"banker wins with 6": Fraction(1, 2), "banker wins": 1, "tie (push)": 0},
    "super6": {"banker wins with 6": 15},
    "lucky6": {"banker wins with a two-card 6": 12, "banker wins with a three-card 6": 20},
    "lucky6_23": {"banker wins with a two-card 6": 12, "banker wins with a three-card 6": 23},
    "tiger": {"banker wins with a two-card 6": 12, "banker wins with a three-card 6": 20},
    "small_tiger": {"banker wins with a two-card 6": 22},
    "big_tiger": {"banker wins with a three-card 6": 50},
    "tiger_tie": {"tie at 6": 35},
    "dragon_bonus_player": {"natural win": 1, "natural tie (push)": 0, "win by 9": 30, "win by 8": 10,
                            "win by 7": 6, "win by 6": 4, "win by 5": 2, "win by 4": 1},
    "big": {"5 or 6 cards": Fraction(54, 100)},
    "small": {"4 cards": Fraction(3, 2)},
    **{f"egalite_{t}": {f"tie at {t}": p}
       for t, p in enumerate((150, 215, 225, 200, 120, 110, 45, 45, 80, 80))},
    "natural8_player": {"player natural 8": 9},
    "natural9_player": {"player natural 9": 9},
    "natural8_banker": {"banker natural 8": 9},
    "natural9_banker": {"banker natural 9": 9},
    "tie_max_low": {"tie, highest card 0-5": 55},
    "tie_max_high": {"tie, highest card 6-9": 10},
}
PAYS["dragon_bonus_banker"] = PAYS["dragon_bonus_player"]

#: Bets reading ranks or suits of the first cards (the others read point values only).
CARD_BETS = {"player_pair", "banker_pair", "either_pair", "perfect_pair", "perfect_pair_v2"}
SUIT_BETS = {"perfect_pair", "perfect_pair_v2"}
#: The bets of analyzer/bets/data/bets.toml, which this file checks; the published side
#: bets of the other catalog files have their own tests (tests/test_side_bets_a.py,
#: tests/test_side_bets_b.py, tests/test_card_bets.py).
BASE = parse_catalog((Path(analyzer.__file__).parent / "bets" / "data" / "bets.toml").read_text(encoding="utf-8"),
                     "bets.toml")
ALL_IDS = tuple(BASE.bets)


@lru_cache(maxsize=1)
def full_solver() -> Solver:
    return Solver(tuple(catalog().select(list(ALL_IDS))))


def engine_events(result) -> dict[str, int]:
    return {e.event: e.ways for e in result.events if e.ways}


def test_every_catalog_bet_has_an_independent_pay_table():
    assert set(PAYTABLES) == set(ALL_IDS) == set(PAYS)
    assert set(ALL_IDS) <= set(catalog().bets)


@pytest.mark.parametrize("bet_id", ALL_IDS)
def test_catalog_payouts_match_the_descriptions(bet_id):
    bet = catalog().bet(bet_id)
    assert {e.event: e.pays for e in bet.events} == PAYS[bet_id]
    assert bet.otherwise == -1 and bet.otherwise_event == "loses"


# =====================================================================================
# Tiny suited shoes: every ordered six-card deal of the actual cards
# =====================================================================================

TINY_SHOES = [
    "4h 4h 7s 8h 9s As As Jh",      # identical pairs (4h 4h, As As); covers every catalog event
    "Ks Ks Kh Qd Jc Ts 5d 6c",      # five zero-value cards of four ranks, two identical Ks
    "Ks Ks 5d 5d 9c 4h 3s 2s",      # two identical pairs: two perfect pairs possible
    "3c 3c 3c 3d 4s Jh Jh 6s",      # three identical 3c, same rank other suit
    "6h 6h 6s 7c 2d 8s Qh",         # 7 cards
    "9s 9s 9h Ts Th 7d 3c",         # 7 cards, naturals
    "Ad 2d 3d 4d 5d Kd",            # 6 cards, one suit, all distinct
]


def tiny_shoe(text: str) -> Shoe:
    return Shoe.from_counts(Counter(text.split()))


@lru_cache(maxsize=None)
def oracle_tally(text: str):
    return six_card_tally(text.split(), PAYTABLES)


@lru_cache(maxsize=None)
def engine_tiny(text: str):
    return full_solver().solve(tiny_shoe(text))


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_tiny_shoes_are_suited_and_sized():
    for text in TINY_SHOES:
        shoe = tiny_shoe(text)
        assert shoe.suited and shoe.cards == len(text.split())
        _, deals = oracle_tally(text)
        assert deals == falling(shoe.cards, 6) == engine_tiny(text).deals


@pytest.mark.parametrize("text", TINY_SHOES)
@pytest.mark.parametrize("bet_id", ALL_IDS)
def test_bet_matches_permutation_oracle(bet_id, text):
    tallies, deals = oracle_tally(text)
    result = engine_tiny(text).bet(bet_id)
    assert result.deals == deals
    assert engine_events(result) == dict(tallies[bet_id])


def test_tiny_shoes_exercise_every_catalog_event():
    # The oracle (not the engine) sees every event of every bet happen on some tiny
    # shoe, so none of the comparisons above is vacuous.
    seen = set()
    for text in TINY_SHOES:
        tallies, _ = oracle_tally(text)
        seen |= {(b, ev) for b, t in tallies.items() for ev, n in t.items() if n}
    expected = {(b.id, e.event) for b in BASE.bets.values() for e in b.events}
    expected |= {(b.id, "loses") for b in BASE.bets.values()}
    assert expected <= seen


def test_tiny_shoe_main_outcomes_match_oracle():
    for text in TINY_SHOES:
        tallies, _ = oracle_tally(text)
        wins = tallies["player"]
        a = engine_tiny(text)
        assert a.outcomes == {"player": wins["player wins"], "banker": wins["loses"],
                              "tie": wins["tie (push)"]}


# =====================================================================================
# Value-only bets on a full depleted shoe, against a plain walk over point values
# =====================================================================================

@pytest.mark.slow  # 5 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_value_bets_match_value_walk_on_a_depleted_8_deck_shoe():
    shoe = Shoe.standard(8).remove("5 5 5 9 9 K 6 6 6 6 2 T T T T 8")
    value_ids = [b for b in ALL_IDS if b not in CARD_BETS]
    tallies = value_tally(shoe.value_counts, {b: PAYTABLES[b] for b in value_ids})
    a = Solver([catalog().bet(b) for b in value_ids]).solve(shoe)
    for b in value_ids:
        assert engine_events(a.bet(b)) == {k: v for k, v in tallies[b].items() if v}, b


# =====================================================================================
# Published figures (tests/data/published_8deck.toml)
# =====================================================================================

def when_bet(text: str, pays=1) -> Bet:
    return Bet(f"when:{text}", text, "", (Event("hit", Fraction(pays), Condition.parse(text)),))


def _when_texts(decks: int) -> set[str]:
    out = set()
    for section in ("ways", "ratio", "probability", "metric", "rejected"):
        for item in DATA.get(section, []):
            if item["decks"] == decks:
                out |= {item[k] for k in ("when", "given") if k in item}
                if "given" in item:
                    out.add(both_text(item))
    return out


def both_text(item) -> str:
    return f"({item['when']}) and ({item['given']})"


@lru_cache(maxsize=None)
def published_analysis(decks: int):
    bets = list(BASE.bets.values()) + [when_bet(t) for t in sorted(_when_texts(decks))]
    return Solver(bets).solve(Shoe.standard(decks))


def way_of(a, target) -> int:
    bet_id, event = target
    return a.bet(bet_id).event(event).ways


def when_ways(a, text: str) -> int:
    return a.bet(f"when:{text}").event("hit").ways


def _id(item) -> str:
    return f"{item['decks']}d-{item.get('bet', '')}{item.get('definition', item.get('metric', ''))[:50]}"


def test_data_file_is_well_formed():
    sources = DATA["sources"]
    assert all(s.get("title") and s.get("url") for s in sources.values())
    for section in ("ways", "ratio", "probability", "metric", "rejected"):
        for item in DATA[section]:
            assert item["source"] in sources, item
            if section != "rejected":
                assert item["status"] in ("printed", "inferred"), item
                if item["status"] == "inferred":
                    assert item.get("note"), item
            if section in ("ways", "ratio", "probability"):
                assert item.get("targets") or item.get("when"), item
    # The exact integer tables are self-consistent: each complete table sums to the total.
    deals8 = falling(416, 6)
    assert deals8 == 4_998_398_275_503_360
    by_def = {i["definition"]: i["ways"] for i in DATA["ways"] if i["decks"] == 8}
    player_totals = sum(v for k, v in by_def.items() if k.startswith("Player's final total is"))
    banker_totals = sum(v for k, v in by_def.items() if k.startswith("Banker's final total is"))
    assert player_totals == banker_totals == deals8
    wins = sum(v for k, v in by_def.items() if k.startswith(("Player wins with a final", "Banker wins with a final")))
    ties = sum(v for k, v in by_def.items() if k.startswith("Tie at "))
    assert wins + ties == deals8
    assert ties == by_def["Tie (Player and Banker end on the same total)"]
    assert math.comb(416, 2) * math.comb(414, 2) == 7_379_583_120
    assert math.comb(312, 2) * math.comb(310, 2) == 2_323_673_820
    assert math.comb(312, 2) == 48_516


@pytest.mark.parametrize("item", DATA["ways"], ids=_id)
def test_published_ways_are_counted_exactly(item):
    a = published_analysis(item["decks"])
    assert a.deals == falling(52 * item["decks"], 6)
    for target in item.get("targets", []):
        assert way_of(a, target) == item["ways"], target
    if "when" in item:
        assert when_ways(a, item["when"]) == item["ways"]


@pytest.mark.parametrize("item", DATA["ratio"], ids=_id)
def test_published_ratios_equal_our_probabilities_exactly(item):
    # Wizard's pair tables count only the first two (or four) cards; the probability is
    # the same whatever the unit: engine_ways / deals == ways / of exactly.
    a = published_analysis(item["decks"])
    got = [way_of(a, t) for t in item.get("targets", [])]
    if "when" in item:
        got.append(when_ways(a, item["when"]))
    assert got
    for w in got:
        assert Fraction(w, a.deals) == Fraction(item["ways"], item["of"])


def rounds_to(x: Fraction, printed: str, percent: bool = False) -> bool:
    """Does the exact ``x`` round (half up) to the decimal ``printed`` at its number of decimals?"""
    if percent:
        x *= 100
    p = Decimal(printed)
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        return d.quantize(p, rounding=ROUND_HALF_UP) == p


def test_rounds_to_compares_at_the_quoted_digits():
    assert rounds_to(Fraction(4462, 10000), "0.446")
    assert not rounds_to(Fraction(4466, 10000), "0.446")
    assert rounds_to(Fraction(1, 8), "0.13") and rounds_to(Fraction(1, 8), "12.5", percent=True)
    assert rounds_to(Fraction(10583, 1000000), "1.06", percent=True)


def _probabilities(a, item) -> list[Fraction]:
    out = [Fraction(way_of(a, t), a.deals) for t in item.get("targets", [])]
    if "given" in item:  # conditional: P(when and given) / P(given)
        out.append(Fraction(when_ways(a, both_text(item)), when_ways(a, item["given"])))
    elif "when" in item:
        out.append(Fraction(when_ways(a, item["when"]), a.deals))
    return out


@pytest.mark.parametrize("item", DATA["probability"], ids=_id)
def test_published_probabilities_round_from_ours(item):
    a = published_analysis(item["decks"])
    probs = _probabilities(a, item)
    assert probs
    for p in probs:
        assert rounds_to(p, item["value"], item.get("percent", False)), float(p)


def _metric(a, item):
    if "bet" in item:
        r = a.bet(item["bet"])
        if "pays" not in item:
            return {"house_edge": r.house_edge, "ev": r.ev, "hit_frequency": r.hit_frequency,
                    "std_dev": r.std_dev}[item["metric"]]
        pays = {e.event: e.pays for e in r.events}
        pays.update({k: Fraction(v) for k, v in item["pays"].items()})
        events = [(pays[e.event], e.ways) for e in r.events]
    else:
        w = when_ways(a, item["when"])
        events = [(Fraction(item["pays"]), w), (Fraction(-1), a.deals - w)]
    ev = sum((p * w for p, w in events), Fraction(0)) / a.deals
    assert item["metric"] in ("ev", "house_edge")
    return ev if item["metric"] == "ev" else -ev


@pytest.mark.parametrize("item", DATA["metric"], ids=_id)
def test_published_metrics_round_from_ours(item):
    a = published_analysis(item["decks"])
    value = _metric(a, item)
    if isinstance(value, float):  # the standard deviation
        assert f"{value:.{len(item['value'].split('.')[1])}f}" == item["value"]
    else:
        assert rounds_to(value, item["value"], item.get("percent", False)), float(value)


@pytest.mark.parametrize("item", DATA["rejected"], ids=_id)
def test_rejected_figures_really_disagree(item):
    a = published_analysis(item["decks"])
    if "metric" in item:
        value = _metric(a, item)
    else:
        (value,) = _probabilities(a, item)
    if isinstance(value, float):  # the standard deviation
        assert f"{value:.{len(item['value'].split('.')[1])}f}" != item["value"]
    else:
        assert not rounds_to(value, item["value"], item.get("percent", False))


# =====================================================================================
# Pairs and perfect pairs: closed forms
# =====================================================================================

def pair_closed_forms(class_counts) -> tuple[int, int, int]:
    """Over ordered six-card deals: (one hand's first two cards form a pair of the class,
    both hands do, either hand does), for cards grouped in classes (ranks, or cards)."""
    n = list(class_counts)
    big_n = sum(n)
    pairs = [k * (k - 1) for k in n]
    s = sum(pairs)
    both4 = s * s - sum(p * p for p in pairs) + sum(falling(k, 4) for k in n)
    one = s * falling(big_n - 2, 4)
    both = both4 * (big_n - 4) * (big_n - 5)
    return one, both, 2 * one - both


def two_card_total_ways(value_counts, total: int) -> int:
    n = list(value_counts)
    two = sum(n[a] * (n[b] - (a == b)) for a in range(10) for b in range(10) if (a + b) % 10 == total)
    return two * falling(sum(n) - 2, 4)


def check_closed_forms(shoe: Shoe, a) -> None:
    one, both, either = pair_closed_forms(shoe.rank_tuple)
    assert a.bet("player_pair").event("player pair").ways == one
    assert a.bet("banker_pair").event("banker pair").ways == one
    assert a.bet("either_pair").event("either pair").ways == either
    for t in (8, 9):
        w = two_card_total_ways(shoe.value_counts, t)
        assert a.bet(f"natural{t}_player").event(f"player natural {t}").ways == w
        assert a.bet(f"natural{t}_banker").event(f"banker natural {t}").ways == w
    if shoe.suited:
        one, both, either = pair_closed_forms(shoe.card_tuple)
        assert a.bet("perfect_pair").event("perfect pair").ways == either
        v2 = a.bet("perfect_pair_v2")
        assert v2.event("two perfect pairs").ways == both
        assert v2.event("one perfect pair").ways == either - both


def test_pair_values_8_and_6_decks():
    a8 = analyze(Shoe.standard(8), ("player_pair", "banker_pair"))
    a6 = analyze(Shoe.standard(6), ("player_pair", "banker_pair"))
    for bet in ("player_pair", "banker_pair"):
        assert a8.bet(bet).events[0].probability == Fraction(31, 415)
        assert a8.bet(bet).house_edge == Fraction(43, 415)
        assert a6.bet(bet).events[0].probability == Fraction(23, 311)
        assert a6.bet(bet).house_edge == Fraction(35, 311)
        # net win 11 with probability p, else -1
        p = Fraction(31, 415)
        assert a8.bet(bet).variance == 121 * p + (1 - p) - (12 * p - 1) ** 2
        assert f"{a8.bet(bet).std_dev:.3f}" == "3.155"


def test_perfect_pair_8_decks_in_wizard_units():
    # Wizard: 246,848,784 winning and 2,101,008 double combinations of 7,379,583,120.
    a = analyze(Shoe.standard(8), ("perfect_pair", "perfect_pair_v2"))
    assert Fraction(a.bet("perfect_pair").events[0].ways, a.deals) == Fraction(246_848_784, 7_379_583_120)
    assert Fraction(a.bet("perfect_pair_v2").events[0].ways, a.deals) == Fraction(2_101_008, 7_379_583_120)
    # and the exact integers in six-card units
    assert a.bet("perfect_pair").events[0].ways * 7_379_583_120 == 246_848_784 * a.deals


@pytest.mark.parametrize("shoe", [
    Shoe.standard(8).remove("As As Ks Kh"),
    Shoe.standard(1).remove("As Ah Ad 2c"),
    Shoe.from_counts({"As": 5, "Ah": 1, "Kd": 3, "Qd": 2, "5c": 4, "9s": 1}),
    Shoe.standard(8),
    Shoe.standard(1),
], ids=["8d-AsAsKsKh", "1d-depleted", "tiny", "8d", "1d"])
def test_pairs_match_closed_forms_on_suited_shoes(shoe):
    check_closed_forms(shoe, full_solver().solve(shoe))


def test_rank_pairs_work_on_rank_only_shoes():
    shoe = Shoe.parse("A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=32")
    assert not shoe.suited
    ids = [b for b in ALL_IDS if b not in SUIT_BETS]
    a = analyze(shoe, tuple(ids))
    check_closed_forms(shoe, a)
    assert a.bet("player_pair").events[0].probability == Fraction(31, 415)
    depleted = Shoe.standard(8).remove("5 5 K")
    check_closed_forms(depleted, analyze(depleted, tuple(ids)))


RANK_ONLY = [
    Shoe.parse("A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=32"),
    Shoe.standard(8).remove("5"),
    Shoe.standard(8).remove("5h 9"),
]


@pytest.mark.parametrize("shoe", RANK_ONLY, ids=["per-rank", "remove-5", "remove-5h-9"])
@pytest.mark.parametrize("bet_id", sorted(SUIT_BETS))
def test_suit_bets_refuse_rank_only_shoes(shoe, bet_id):
    assert not shoe.suited
    with pytest.raises(BetError, match=r"suits.*unknown") as e:
        analyze(shoe, (bet_id,))
    assert bet_id in str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(BetError):
        full_solver().solve(shoe)


def test_suit_bets_work_after_removing_a_suited_card():
    shoe = Shoe.standard(8).remove("5h")
    assert shoe.suited
    a = analyze(shoe, ("perfect_pair", "perfect_pair_v2", "player_pair", "banker_pair", "either_pair",
                       "natural8_player", "natural9_player", "natural8_banker", "natural9_banker"))
    check_closed_forms(shoe, a)
    # Every card of a full shoe plays the same part, so removing any one of them
    # leaves the probability of every card-symmetric event unchanged (the average
    # over the removed card is the full-shoe value).
    full = analyze(Shoe.standard(8), ("perfect_pair", "player_pair"))
    for bet in ("perfect_pair", "player_pair"):
        assert Fraction(a.bet(bet).events[0].ways, a.deals) == full.bet(bet).events[0].probability
    # ... but removing two identical cards does change it
    shoe2 = Shoe.standard(8).remove("5h 5h")
    two = full_solver().solve(shoe2)
    check_closed_forms(shoe2, two)
    assert two.bet("perfect_pair").events[0].probability != full.bet("perfect_pair").events[0].probability


def test_a_suit_bet_on_a_rank_only_shoe_is_one_line_error(cli):
    code, out, err = cli("odds", "--remove", "5", "--bets", "perfect_pair", "--format", "json")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("baccarat: error:") and "suits" in lines[0]
    assert cli("odds", "--remove", "5h", "--bets", "perfect_pair", "--format", "json").code == 0


# =====================================================================================
# Tables
# =====================================================================================

def test_every_table_names_existing_bets():
    cat = catalog()
    assert len(cat.tables) >= 10
    for t in cat.tables.values():
        assert t.bets, t.id
        assert len(set(t.bets)) == len(t.bets), t.id
        for b in t.bets:
            assert b in cat.bets, (t.id, b)


@pytest.mark.parametrize("table, bets", [
    ("standard", {"player", "banker", "tie", "player_pair", "banker_pair"}),
    ("ez", {"ez_banker", "player", "tie", "dragon7", "panda8"}),
    ("nocommission", {"nocommission_banker", "player", "tie", "super6"}),
    ("lucky6", {"player", "banker", "tie", "lucky6"}),
    ("tiger", {"player", "nocommission_banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie"}),
])
def test_named_tables_hold_their_bets(table, bets):
    t = catalog().table(table)
    if table == "ez":
        assert set(t.bets) == bets
    else:
        assert bets <= set(t.bets)
    for b in t.bets:
        assert b in catalog().bets


# =====================================================================================
# Large and random shoes: every bet's events partition the deals
# =====================================================================================

def test_full_catalog_on_40_decks_python_ints():
    shoe = Shoe.standard(40)
    assert falling(shoe.cards, 6) > 2**63  # beyond int64: the Python-integer path
    a = full_solver().solve(shoe)
    assert a.deals == falling(2080, 6)
    for r in a.bets.values():
        assert sum(e.ways for e in r.events) == a.deals, r.bet.id
        assert all(e.ways >= 0 for e in r.events), r.bet.id
        assert all(type(e.ways) is int for e in r.events), r.bet.id
    check_closed_forms(shoe, a)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=13, max_size=13).filter(lambda c: sum(c) >= 6))
def test_random_rank_shoes_partition_and_closed_forms(counts):
    shoe = Shoe(counts)
    ids = tuple(b for b in ALL_IDS if b not in SUIT_BETS)
    a = analyze(shoe, ids)
    assert a.deals == falling(sum(counts), 6)
    for r in a.bets.values():
        assert sum(e.ways for e in r.events) == a.deals
        assert all(e.ways >= 0 for e in r.events)
    check_closed_forms(shoe, a)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6))
def test_random_suited_shoes_partition_and_closed_forms(counts):
    ranks = [sum(counts[4 * i:4 * i + 4]) for i in range(13)]
    shoe = Shoe(ranks, counts)
    a = full_solver().solve(shoe)
    for r in a.bets.values():
        assert sum(e.ways for e in r.events) == a.deals
        assert all(e.ways >= 0 for e in r.events)
    check_closed_forms(shoe, a)
