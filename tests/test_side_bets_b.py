"""Side bets of analyzer/bets/data/side_bets_b.toml against their published figures
(tests/data/published_side_bets_b.toml) and against the permutation oracle.

* Every [[ways]], [[ratio]], [[probability]] and [[ev]] entry of the data file is
  checked on Shoe.standard(8) with exact integers; a count the page rounded to 15
  significant digits ("rounded") must be our exact count and round to the print.
* Every bet, event by event, against tests/oracle.py on tiny suited shoes (every
  ordered six-card deal of the physical cards), with pay tables typed again here.
* The research-only bets (Monkey 6, Monkey Tie, Grand Monkey, All Red/Black, Lucky
  Match) need features the condition language lacks; they are recounted from first
  principles (the oracle's value weights split by rank and colour), the recount is
  checked against the permutation oracle, and its 8-deck counts against Wizard of Odds.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from pathlib import Path

import pytest

from analyzer.bets.catalog import CATALOG_FILES, Bet, Event, catalog, parse_catalog
from analyzer.bets.conditions import Condition
from analyzer.core.shoe import Shoe
from analyzer.core.solver import Solver

from oracle import POINT, six_card_tally, value_coup_weights

ROOT = Path(__file__).resolve().parent.parent
BETS_FILE = ROOT / "analyzer" / "bets" / "data" / "side_bets_b.toml"
PUBLISHED = tomllib.loads((ROOT / "tests" / "data" / "published_side_bets_b.toml").read_text(encoding="utf-8"))
DEALS_8 = 4_998_398_275_503_360

# The pay tables as printed by the sources (typed again, not read from the file).
PAYS = {
    "perfect9": {"suited A-8, 2-7, 3-6, 4-5": 20, "unsuited A-8, 2-7, 3-6, 4-5": 10, "9 and a ten or face card": 5},
    "heavenly9": {"both hands three-card 9": 75, "one hand three-card 9": 10},
    "blazing7s": {"7-7 tie, three cards each": 200, "7-7 tie, two cards each": 50},
    "cover_all": {"any of the four treasures": 6},
    "knockout_1234": {"winning total 1-4": 7, "tie (push)": 0},
    "knockout_56": {"winning total 5-6": Fraction(7, 2), "tie (push)": 0},
    "knockout_7": {"winning total 7": Fraction(9, 2), "tie (push)": 0},
    "knockout_8": {"winning total 8": 3, "tie (push)": 0},
    "knockout_9": {"winning total 9": Fraction(5, 2), "tie (push)": 0},
    "knockout_player_natural": {"player wins with a natural": 4, "tie (push)": 0},
    "knockout_banker_natural": {"banker wins with a natural": 4, "tie (push)": 0},
    "lucky7": {"player wins with a two-card 7": 6, "player wins with a three-card 7": 15},
    "super_lucky7": {"7 over 6, three cards each": 100, "7 over 6, Player three cards, Banker two": 40,
                     "7 over 6, two cards each": 30},
    "three_card_six": {"both hands three-card 6": 100, "one hand three-card 6": 8},
    "majestic_match_player": {"suited king and queen": 25, "suited": Fraction(5, 2)},
    "majestic_match_banker": {"suited king and queen": 25, "suited": Fraction(5, 2)},
}


@lru_cache(maxsize=1)
def files():
    """(the built-in catalog, which reads the file (CATALOG_FILES), the file's own part)."""
    part = parse_catalog(BETS_FILE.read_text(encoding="utf-8"), "side_bets_b.toml", frozenset(catalog().bets))
    assert BETS_FILE.name in CATALOG_FILES
    return catalog(), part


@lru_cache(maxsize=None)
def solver(bet_id: str) -> Solver:
    # one solver per bet: rank features of both hands at once exceed the card engine's
    # budget; compiled once, it then solves every shoe of these tests
    return Solver(files()[0].select([bet_id]))


@lru_cache(maxsize=None)
def solved(bet_id: str, decks: int = 8):
    return solver(bet_id).solve(Shoe.standard(decks)).bet(bet_id)


@lru_cache(maxsize=None)
def when_ways(when: str, decks: int = 8) -> int:
    bet = Bet("probe", "probe", "", (Event("hit", Fraction(1), Condition.parse(when)),))
    return Solver([bet]).solve(Shoe.standard(decks)).bet("probe").event("hit").ways


def event_ways(bet_id: str, event: str, decks: int = 8) -> int:
    return solved(bet_id, decks).event(event).ways


def rounded_15(n: int) -> int:
    """``n`` rounded to 15 significant digits, as a spreadsheet prints a 16-digit count."""
    digits = len(str(n))
    if digits <= 15:
        return n
    q = 10 ** (digits - 15)
    return (n + q // 2) // q * q


def rounds_to(x: Fraction, printed: str) -> bool:
    decimals = len(printed.split(".")[1])
    return abs(x - Fraction(printed)) <= Fraction(1, 2 * 10**decimals)


# =====================================================================================
# The file
# =====================================================================================

def test_file_bets_ids_sources_and_pay_tables():
    merged, part = files()
    assert set(part.bets) == set(PAYS)
    assert set(part.bets) <= set(catalog().bets)
    assert set(part.tables) == {"five_treasures", "knockout", "majestic_match"}
    for bet in part.bets.values():
        assert bet.source.startswith("http"), bet.id
        assert {e.event: e.pays for e in bet.events} == PAYS[bet.id], bet.id
        assert bet.otherwise == -1 and bet.otherwise_event == "loses"
    assert merged.table("knockout").bets[3:] == tuple(b for b in PAYS if b.startswith("knockout_"))
    assert set(merged.table("five_treasures").bets) >= {"dragon7", "panda8", "heavenly9", "blazing7s", "cover_all"}


@pytest.mark.parametrize("bet_id", sorted(PAYS))
def test_events_partition_the_deals_on_8_decks(bet_id):
    r = solved(bet_id)
    assert r.deals == DEALS_8
    assert sum(e.ways for e in r.events) == DEALS_8
    assert all(e.ways > 0 for e in r.events)


# =====================================================================================
# Published figures, 8 decks
# =====================================================================================

def _ways_id(entry):
    return entry.get("when") or f"{entry['bet']}:{entry['event']}"


@pytest.mark.parametrize("entry", PUBLISHED["ways"], ids=_ways_id)
def test_published_ways_are_our_exact_counts(entry):
    exact = entry["exact"] if entry["status"] == "rounded" else entry["ways"]
    if entry["status"] == "rounded":
        # the page's figure is the exact count rounded, never the exact count itself
        assert exact != entry["ways"] and rounded_15(exact) == entry["ways"]
    found = []
    if "when" in entry:
        found.append(when_ways(entry["when"]))
    for bet_id, event in entry.get("targets", []):
        found.append(event_ways(bet_id, event))
    if "bet" in entry:
        found.append(event_ways(entry["bet"], entry["event"]))
    if "sum_of" in entry:
        found.append(sum(event_ways(b, e) for b, e in entry["sum_of"]))
    assert found and all(w == exact for w in found), (found, exact)


@pytest.mark.parametrize("entry", PUBLISHED["ratio"], ids=_ways_id)
def test_published_two_card_ratios(entry):
    # ways / 4,998,398,275,503,360 == combinations / 86,320, exactly
    assert event_ways(entry["bet"], entry["event"]) * entry["of"] == entry["ways"] * DEALS_8
    assert entry["of"] == math.comb(416, 2)


@pytest.mark.parametrize("entry", PUBLISHED["probability"], ids=_ways_id)
def test_published_probabilities_round_from_ours(entry):
    ways = when_ways(entry["when"]) if "when" in entry else event_ways(entry["bet"], entry["event"])
    assert rounds_to(Fraction(ways, DEALS_8), entry["value"])


@pytest.mark.parametrize("entry", PUBLISHED["ev"], ids=lambda e: e["bet"] + (" (Ezugi pays)" if "pays" in e else ""))
def test_published_returns_and_house_edges(entry):
    r = solved(entry["bet"])
    if "pays" in entry:
        assert entry["ties"] == "lose"
        won = {e.event: e.ways for e in r.events}
        paid = sum(Fraction(p) * won[ev] for ev, p in entry["pays"].items())
        staked_lost = DEALS_8 - sum(won[ev] for ev in entry["pays"])
        ev = (paid - staked_lost) / DEALS_8
    else:
        ev = r.ev
    if "value" in entry:
        assert rounds_to(ev, entry["value"]), float(ev)
    if "house_edge_percent" in entry:
        assert rounds_to(-100 * ev, entry["house_edge_percent"]), float(-100 * ev)


def test_our_house_edges_8_and_6_decks():
    # Our exact figures, to the printed precision; for Heavenly 9, Blazing 7s, Cover All,
    # Lucky 7 and the Knockout propositions no published figure was at hand.
    expect = {
        8: {"perfect9": "7.4699", "heavenly9": "9.3105", "blazing7s": "7.7797", "cover_all": "2.9664",
            "knockout_1234": "6.7231", "knockout_56": "7.5277", "knockout_7": "3.3009", "knockout_8": "3.5976",
            "knockout_9": "6.4628", "knockout_player_natural": "9.1899", "knockout_banker_natural": "9.1899",
            "lucky7": "18.2961", "super_lucky7": "33.4403", "three_card_six": "13.3676", "majestic_match_player": "6.4597"},
        6: {"perfect9": "7.3955", "heavenly9": "9.2959", "blazing7s": "7.7792", "cover_all": "2.9557",
            "lucky7": "18.2583", "super_lucky7": "33.4486", "three_card_six": "13.4456", "majestic_match_player": "6.6658"},
    }
    for decks, edges in expect.items():
        for bet_id, printed in edges.items():
            assert rounds_to(100 * solved(bet_id, decks).house_edge, printed), (decks, bet_id)


def test_direct_counts_of_two_card_events():
    # Perfect 9 and Majestic Match read only the hand's first two cards: their ways are
    # (pairs) x 414 x 413 x 412 x 411, counted here from the shoe's make-up.
    rest = 414 * 413 * 412 * 411
    suited_nonzero_9 = 4 * 4 * 8 * 8            # 4 value pairs (A-8 ..), 4 suits, 8 x 8 cards
    assert event_ways("perfect9", "suited A-8, 2-7, 3-6, 4-5") == 2 * suited_nonzero_9 * rest  # ordered
    assert event_ways("perfect9", "9 and a ten or face card") == 2 * 32 * 128 * rest
    assert event_ways("majestic_match_player", "suited king and queen") == 2 * 4 * 8 * 8 * rest
    assert event_ways("majestic_match_banker", "suited") == (4 * 104 * 103 - 2 * 4 * 64) * rest


def test_cover_all_is_the_sum_of_the_four_treasures():
    # The four events are disjoint (Fortune 7 and Golden 8 need different winners; a
    # winning three-card 7 or 8 leaves no hand on 9 and no 7-7 tie; a three-card 9
    # rules out a 7-7 tie), so Cover All's ways are exactly the sum of the four bets'.
    parts = [event_ways("dragon7", "banker wins with a three-card 7"),
             event_ways("panda8", "player wins with a three-card 8"),
             sum(e.ways for e in solved("heavenly9").events if e.event != "loses"),
             sum(e.ways for e in solved("blazing7s").events if e.event != "loses")]
    assert solved("cover_all").event("any of the four treasures").ways == sum(parts)
    # ... and Heavenly 9's two events count hands: both-hands coups are not "one hand"
    p9, b9 = "(player_cards == 3 and player_total == 9)", "(banker_cards == 3 and banker_total == 9)"
    one_hand = when_ways(f"({p9} and not {b9}) or ({b9} and not {p9})")
    assert event_ways("heavenly9", "one hand three-card 9") == one_hand


# =====================================================================================
# The permutation oracle on tiny suited shoes
# =====================================================================================

def _t(cards) -> int:
    return sum(POINT[c[0]] for c in cards) % 10


def _three(cards, total) -> bool:
    return len(cards) == 3 and _t(cards) == total


def _nat(cards) -> bool:
    return _t(cards[:2]) >= 8


def _win(c):
    return c["winner"]


def o_perfect9(c):
    p = c["player_cards"][:2]
    v = [POINT[x[0]] for x in p]
    if sum(v) % 10 != 9:
        return "loses"
    if 0 in v:
        return "9 and a ten or face card"
    return "suited A-8, 2-7, 3-6, 4-5" if p[0][1] == p[1][1] else "unsuited A-8, 2-7, 3-6, 4-5"


def o_heavenly9(c):
    n = _three(c["player_cards"], 9) + _three(c["banker_cards"], 9)
    return {2: "both hands three-card 9", 1: "one hand three-card 9", 0: "loses"}[n]


def o_three_card_six(c):
    n = _three(c["player_cards"], 6) + _three(c["banker_cards"], 6)
    return {2: "both hands three-card 6", 1: "one hand three-card 6", 0: "loses"}[n]


def o_blazing7s(c):
    p, b = c["player_cards"], c["banker_cards"]
    if _t(p) == 7 and _t(b) == 7 and len(p) == len(b):
        return "7-7 tie, three cards each" if len(p) == 3 else "7-7 tie, two cards each"
    return "loses"


def o_cover_all(c):
    p, b = c["player_cards"], c["banker_cards"]
    hit = ((_win(c) == "banker" and _three(b, 7)) or (_win(c) == "player" and _three(p, 8))
           or _three(p, 9) or _three(b, 9) or o_blazing7s(c) != "loses")
    return "any of the four treasures" if hit else "loses"


def _knockout(name, test):
    def settle(c):
        if _win(c) == "tie":
            return "tie (push)"
        win_total = c["player_total"] if _win(c) == "player" else c["banker_total"]
        return name if test(c, win_total) else "loses"
    return settle


def o_lucky7(c):
    p = c["player_cards"]
    if _win(c) == "player" and _t(p) == 7:
        return "player wins with a two-card 7" if len(p) == 2 else "player wins with a three-card 7"
    return "loses"


def o_super_lucky7(c):
    p, b = c["player_cards"], c["banker_cards"]
    if _win(c) != "player" or _t(p) != 7 or _t(b) != 6:
        return "loses"
    return {(3, 3): "7 over 6, three cards each", (3, 2): "7 over 6, Player three cards, Banker two",
            (2, 2): "7 over 6, two cards each"}.get((len(p), len(b)), "loses")


def _majestic(hand):
    def settle(c):
        a, b = c[hand][:2]
        if a[1] != b[1]:
            return "loses"
        return "suited king and queen" if {a[0], b[0]} == {"K", "Q"} else "suited"
    return settle


ORACLE = {
    "perfect9": o_perfect9,
    "heavenly9": o_heavenly9,
    "blazing7s": o_blazing7s,
    "cover_all": o_cover_all,
    "knockout_1234": _knockout("winning total 1-4", lambda c, t: 1 <= t <= 4),
    "knockout_56": _knockout("winning total 5-6", lambda c, t: t in (5, 6)),
    "knockout_7": _knockout("winning total 7", lambda c, t: t == 7),
    "knockout_8": _knockout("winning total 8", lambda c, t: t == 8),
    "knockout_9": _knockout("winning total 9", lambda c, t: t == 9),
    "knockout_player_natural": _knockout("player wins with a natural",
                                         lambda c, t: _win(c) == "player" and _nat(c["player_cards"])),
    "knockout_banker_natural": _knockout("banker wins with a natural",
                                         lambda c, t: _win(c) == "banker" and _nat(c["banker_cards"])),
    "lucky7": o_lucky7,
    "super_lucky7": o_super_lucky7,
    "three_card_six": o_three_card_six,
    "majestic_match_player": _majestic("player_cards"),
    "majestic_match_banker": _majestic("banker_cards"),
}

TINY_SHOES = [
    "Ks Kh Qs Qh 9s 9d 7c 7s",      # zero hands drawing to 9-9 and 7-7 with three cards each
    "Kc Kd Jc Jd 6h 6s 8h Ah",      # three-card 6s; a three-card 8 Player win
    "As 8s Ah 8d Ts 9h Ks Qs",      # two-card 9s suited, unsuited and with a ten; suited K-Q
    "3h 4h 3s 4s Qd 7d 2c Jc",      # two-card 7-7; Player 7 wins with two and three cards
    "4s 5s 4h 3h 7d Jc 2c Qd",      # mixed totals, naturals, suited non-K-Q pairs
    "Kh Qh Ks Qs 5d 2d 9c 3c",      # suited K-Q for both hands; winning totals 1-4
    "Ks Qs Kh 3s 7c 3d 2h 6h 2c",   # Player 7 over Banker 6 with 3-3, 3-2 and 2-3 cards (9 cards)
]


@lru_cache(maxsize=None)
def oracle_tally(text: str):
    return six_card_tally(text.split(), ORACLE)


@lru_cache(maxsize=None)
def engine_tiny(text: str, bet_id: str):
    return solver(bet_id).solve(Shoe.from_counts(Counter(text.split()))).bet(bet_id)


# Banker rank features are the card engine's costliest (seconds a solve): the Banker
# Majestic Match, a mirror of the Player's, is checked on the two shoes that hold
# suited K-Q pairs (which exercise all its events), the other bets on every shoe.
ORACLE_CASES = [(b, t) for b in sorted(PAYS) for i, t in enumerate(TINY_SHOES)
                if b != "majestic_match_banker" or i in (2, 5)]


@pytest.mark.parametrize("bet_id,text", ORACLE_CASES)
def test_bet_matches_permutation_oracle(bet_id, text):
    tallies, deals = oracle_tally(text)
    r = engine_tiny(text, bet_id)
    assert r.deals == deals == math.perm(len(text.split()), 6)
    assert {e.event: e.ways for e in r.events if e.ways} == dict(tallies[bet_id])


def test_tiny_shoes_exercise_every_event():
    seen = set()
    for text in TINY_SHOES:
        tallies, _ = oracle_tally(text)
        seen |= {(b, ev) for b, t in tallies.items() for ev, n in t.items() if n}
    expected = {(b, ev) for b, table in PAYS.items() for ev in [*table, "loses"]}
    assert expected <= seen, sorted(expected - seen)


# =====================================================================================
# Research-only bets: counted from first principles
# =====================================================================================

RANKS = "A23456789TJQK"
FACES = {"J", "Q", "K"}


def falling(n: int, k: int) -> int:
    return math.perm(n, k) if 0 <= k <= n else 0


def lucky_match_class(counts: list[int]) -> str:
    c = sorted((x for x in counts if x), reverse=True)
    if c[0] >= 5:
        return "five_or_six_of_a_kind"
    if c[:2] == [3, 3]:
        return "double_triplets"
    if c[0] == 4:
        return "four_of_a_kind"
    if c[0] == 3:
        return "full_house" if len(c) > 1 and c[1] == 2 else "three_of_a_kind"
    if c[:2] == [2, 2]:
        return "two_or_three_pairs"
    return "loses"


def first_principles(red: dict[str, int], black: dict[str, int]) -> Counter:
    """Exact ways of the research-only events over all ordered six-card deals of a shoe
    given by its red and black cards per rank.

    The oracle's value weights give each coup by point values (Player's and Banker's
    cards in order); each zero value is then one of T J Q K, each rank red or black.
    Given the values, the ways to choose which physical cards they are factor per rank
    (falling factorials of the counts), so the split is exact.  Coups with the same
    multiset of values and the same zero-valued third cards and tie are grouped first.
    """
    n_rank = {r: red.get(r, 0) + black.get(r, 0) for r in RANKS}
    values = [sum(n_rank[r] for r in RANKS if POINT[r] == v) for v in range(10)]
    total = sum(values)
    groups: Counter = Counter()
    for (p, b), w in value_coup_weights(values).items():
        cards = list(p) + list(b)
        fill = falling(total - len(cards), 6 - len(cards))
        mult = tuple(cards.count(v) for v in range(10))
        assert w == math.prod(falling(values[v], mult[v]) for v in range(10)) * fill
        p3 = len(p) == 3 and p[2] == 0
        b3 = len(b) == 3 and b[2] == 0
        six = len(cards) == 6
        groups[(mult, six, p3, b3, sum(p) % 10 == sum(b) % 10, fill)] += 1
    out: Counter = Counter()
    zero_ranks = "TJQK"
    for (mult, six, p3, b3, tie, fill), times in groups.items():
        nonzero = [RANKS[v - 1] for v in range(1, 10) for _ in range(mult[v])]
        # zero positions: the Player's third card first (if zero), then the Banker's, then others
        for assign in product(zero_ranks, repeat=mult[0]):
            ranks = Counter(nonzero) + Counter(assign)
            ways = math.prod(falling(n_rank[r], k) for r, k in ranks.items()) * fill * times
            if not ways:
                continue
            out["deals"] += ways
            out["red"] += math.prod(falling(red.get(r, 0), k) for r, k in ranks.items()) * fill * times
            out["black"] += math.prod(falling(black.get(r, 0), k) for r, k in ranks.items()) * fill * times
            out["lucky_match:" + lucky_match_class(list(ranks.values()))] += ways
            if six:
                i = 0
                p3_face = b3_face = False
                if p3:
                    p3_face, i = assign[i] in FACES, i + 1
                if b3:
                    b3_face = assign[i] in FACES
                if not p3_face and b3_face:
                    out["monkey6"] += ways
                    if tie:
                        out["monkey_tie"] += ways
                if all(r in FACES for r in ranks.elements()):
                    out["grand_monkey"] += ways
    return out


def oracle_research(c) -> tuple:
    cards = c["player_cards"] + c["banker_cards"]
    colours = {"h": "red", "d": "red", "s": "black", "c": "black"}
    colour = {colours[x[1]] for x in cards}
    p, b = c["player_cards"], c["banker_cards"]
    six = len(cards) == 6
    monkey6 = six and p[2][0] not in FACES and b[2][0] in FACES
    return (colour.pop() if len(colour) == 1 else "mixed", monkey6, monkey6 and c["winner"] == "tie",
            six and all(x[0] in FACES for x in cards),
            lucky_match_class(list(Counter(x[0] for x in cards).values())))


@pytest.mark.parametrize("text", ["Kh Qs Jd Tc 9h 5s 3d Ks", "Kh Qh Jd 4h 5d 2h 9s Tc", "Ks Kh Kd Qc Qs 5h 5d Jh"])
def test_first_principles_recount_matches_the_oracle(text):
    cards = text.split()
    tally, deals = six_card_tally(cards, {"r": oracle_research})
    t = tally["r"]
    red = Counter(x[0] for x in cards if x[1] in "hd")
    black = Counter(x[0] for x in cards if x[1] in "sc")
    got = first_principles(red, black)
    assert got["deals"] == deals
    assert got["red"] == sum(n for k, n in t.items() if k[0] == "red")
    assert got["black"] == sum(n for k, n in t.items() if k[0] == "black")
    assert got["monkey6"] == sum(n for k, n in t.items() if k[1])
    assert got["monkey_tie"] == sum(n for k, n in t.items() if k[2])
    assert got["grand_monkey"] == sum(n for k, n in t.items() if k[3])
    for cls in {k[4] for k in t}:
        assert got["lucky_match:" + cls] == sum(n for k, n in t.items() if k[4] == cls), cls
    assert any(k[1] for k in t) or any(k[0] != "mixed" for k in t)


@lru_cache(maxsize=1)
def eight_decks() -> Counter:
    return first_principles({r: 16 for r in RANKS}, {r: 16 for r in RANKS})


@pytest.mark.slow  # 4 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_research_only_bets_match_wizard_8_decks():
    got = eight_decks()
    assert got["deals"] == DEALS_8
    research = {r["id"]: r for r in PUBLISHED["research"]}
    for bet_id in ("monkey6", "monkey_tie", "grand_monkey"):
        r = research[bet_id]
        win = got[bet_id]
        assert win == r["ways"]["win"], bet_id
        assert rounded_15(DEALS_8 - win) == r["loses"], bet_id
        assert rounds_to(Fraction(win, DEALS_8), r["probability"]["win"]), bet_id
        ev = Fraction(r["pays"]["win"] * win - (DEALS_8 - win), DEALS_8)
        assert rounds_to(ev, r["ev"]), bet_id
        for pays, edge in r["house_edge_by_pays"].items():
            he = -Fraction(int(pays) * win - (DEALS_8 - win), DEALS_8)
            assert rounds_to(100 * he, edge), (bet_id, pays)
    lm = research["lucky_match"]
    ev = Fraction(0)
    for cls, ways in lm["ways"].items():
        assert got["lucky_match:" + cls] == ways, cls
        assert rounds_to(Fraction(ways, DEALS_8), lm["probability"][cls]), cls
        ev += lm["pays"][cls] * Fraction(ways, DEALS_8)
    losers = got["lucky_match:loses"]
    assert losers != lm["loses"] and rounded_15(losers) == lm["loses"]
    assert rounds_to(ev - Fraction(losers, DEALS_8), lm["ev"])
    # All Red / All Black: no published figure was at hand; the two colours are
    # equally likely (P = 0.037390), so paying 22 and 24 to 1 the edges are 14.00% and 6.52%.
    assert got["red"] == got["black"]
    assert rounds_to(Fraction(got["red"], DEALS_8), "0.037390")
    assert rounds_to(100 * (1 - 23 * Fraction(got["red"], DEALS_8)), "14.00")
    assert rounds_to(100 * (1 - 25 * Fraction(got["black"], DEALS_8)), "6.52")


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_colour_counts_match_wizard_contrast_bonus_8_decks():
    # Contrast Bonus (Player all one colour, Banker all the other) is published; in a
    # standard shoe every point value is half red, half black, so given the values the
    # colour ways factor per value: the same counting gives All Red above.
    values = [128] + [32] * 9
    by_cards: Counter = Counter()
    red = 0
    for (p, b), w in value_coup_weights(values).items():
        k = len(p) + len(b)
        fill = falling(416 - k, 6 - k)
        pm = [p.count(v) for v in range(10)]
        bm = [b.count(v) for v in range(10)]
        half = math.prod(falling(values[v] // 2, pm[v]) * falling(values[v] // 2, bm[v]) for v in range(10))
        by_cards[k] += 2 * half * fill           # Player red and Banker black, or the reverse
        red += math.prod(falling(values[v] // 2, pm[v] + bm[v]) for v in range(10)) * fill
    c = {r["id"]: r for r in PUBLISHED["research"]}["contrast"]
    assert {"four": by_cards[4], "five": by_cards[5], "six": by_cards[6]} == c["ways"]
    for name, ways in c["ways"].items():
        assert rounds_to(Fraction(ways, DEALS_8), c["probability"][name])
    losers = DEALS_8 - sum(by_cards.values())
    assert losers != c["loses"] and rounded_15(losers) == c["loses"]
    for pays, printed in ((c["pays"], c["ev"]), ({"six": 33, "five": 15, "four": 5}, c["ev_pay_table_2"])):
        ev = Fraction(sum(pays[n] * c["ways"][n] for n in pays) - losers, DEALS_8)
        assert rounds_to(ev, printed)
    assert red == eight_decks()["red"]           # the same All Red count two ways
