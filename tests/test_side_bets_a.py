"""Published side bets, part A (``analyzer/bets/data/side_bets_a.toml``).

* Every bet of the file against the figures published for it
  (``tests/data/published_side_bets_a.toml``, with the URLs): Wizard of Odds'
  combinations are ordered six-card deals over 4,998,398,275,503,360 (8 decks),
  the engine's denominator, so they are compared as exact integers; his
  probabilities, returns and house edges, and Eliot Jacobson's house edges and
  variances, must be the exact values rounded to the printed digits.
* Printed figures that disagree are listed as rejected: the test shows that they
  do disagree and that the stated cause (a double rounding, a return computed from a
  rounded probability) gives exactly the printed digits.
* Every bet against the brute-force oracle (``tests/oracle.py``: every ordered
  deal of six physical cards of a 10-card shoe, rules written again from the prose),
  with each bet written again here in plain Python from its published definition.
"""

from __future__ import annotations

import math
import tomllib
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from analyzer.bets.catalog import CATALOG_FILES, catalog, parse_catalog
from analyzer.core.shoe import Shoe
from analyzer.core.solver import Solver

from oracle import POINT, six_card_tally

ROOT = Path(__file__).resolve().parent.parent
BETS_FILE = ROOT / "analyzer" / "bets" / "data" / "side_bets_a.toml"
BUILTIN_FILE = ROOT / "analyzer" / "bets" / "data" / "bets.toml"
DATA = tomllib.loads((Path(__file__).parent / "data" / "published_side_bets_a.toml").read_text(encoding="utf-8"))

DEALS = {8: 4_998_398_275_503_360, 6: 878_869_206_895_680}


# -- the file, merged into the catalog -----------------------------------------------------

@lru_cache(maxsize=1)
def catalogs():
    """(the catalog with the file's bets, the file's own catalog).

    Until the file is one of CATALOG_FILES it is merged here; once it is, the
    built-in catalog already holds it (and merging again would be a clash)."""
    base = catalog()
    mine = parse_catalog(BETS_FILE.read_text(encoding="utf-8"), str(BETS_FILE), frozenset(base.bets))
    if BETS_FILE.name in CATALOG_FILES:
        return base, mine
    return base.merged(mine), mine


MINE = list(catalogs()[1].bets)


@lru_cache(maxsize=None)
def analysis(decks: int):
    full, mine = catalogs()
    return Solver(full.select(list(mine.bets))).solve(Shoe.standard(decks))


def ways_of(result, event: str) -> int:
    return result.event(event).ways


def pays_of(bet, event: str) -> Fraction:
    if event == "loses":
        return bet.otherwise
    return next(e.pays for e in bet.events if e.event == event)


# -- exact rounding ----------------------------------------------------------------------

def rounded(x: Fraction, places: int) -> Fraction:
    """``x`` to ``places`` decimals, halves away from zero (as spreadsheets print)."""
    scale = 10 ** places
    n = math.floor(abs(Fraction(x)) * scale + Fraction(1, 2))
    return Fraction(n if x >= 0 else -n, scale)


def places_of(printed: str) -> int:
    return len(printed.partition(".")[2])


def rounds_to(x: Fraction, printed: str) -> bool:
    return rounded(x, places_of(printed)) == Fraction(printed)


def significant(n: int, digits: int = 15) -> int:
    """A positive integer rounded (half up) to ``digits`` significant digits."""
    drop = len(str(n)) - digits
    if drop <= 0:
        return n
    q = 10 ** drop
    return (n + q // 2) // q * q


def test_rounded_rounds_to_and_significant_figures():
    assert rounded(Fraction(-526875, 10**7), 6) == Fraction(-52688, 10**6)
    assert rounded(Fraction(1, 3), 4) == Fraction(3333, 10**4)
    assert not rounds_to(Fraction(84585, 10**4), "8.458") and rounds_to(Fraction(84585, 10**4), "8.459")
    assert significant(4_908_332_248_220_928) == 4_908_332_248_220_930
    assert significant(4_234_513_241_734_400) == 4_234_513_241_734_400
    assert significant(123) == 123


# -- the file itself -------------------------------------------------------------------

def test_every_bet_has_a_source_a_description_and_a_fresh_id():
    _, mine = catalogs()
    builtin = parse_catalog(BUILTIN_FILE.read_text(encoding="utf-8"), str(BUILTIN_FILE))
    assert len(mine.bets) == 20 and len(mine.tables) == 5
    assert not set(mine.bets) & set(builtin.bets)
    assert not set(mine.tables) & set(builtin.tables)
    for bet in mine.bets.values():
        assert "http" in bet.source, bet.id
        assert bet.description and bet.name != bet.id, bet.id
        assert "pays" in bet.description, bet.id
        # only the language's features of today: no rank or suit of any card
        assert not any(e.when.card_features for e in bet.events), bet.id
    # the tables name the family (and catalog bets)
    assert catalogs()[0].table("golden_frog").bets[3:] == (
        "golden_frog", "golden_frog_9_over_7", "golden_frog_3card_9_over_1", "golden_frog_3card_9_over_7")
    assert catalogs()[0].table("dai_bacc").bets == ("ez_banker", "player", "tie", "dragon7", "ox6", "kill_ox_tiger")


def test_every_bet_is_checked_against_a_published_figure():
    published = {t["bet"] for t in DATA["table"]} | {f["bet"] for f in DATA["figure"]}
    assert published == set(MINE)
    assert {t["source"] for t in DATA["table"]} | {f["source"] for f in DATA["figure"]} <= set(DATA["sources"])


# -- published return tables --------------------------------------------------------------

@pytest.mark.parametrize("table", DATA["table"], ids=lambda t: f"{t['bet']}-{t['decks']}")
def test_published_return_table(table):
    decks = table["decks"]
    a = analysis(decks)
    bet = catalogs()[0].bet(table["bet"])
    result = a.bet(table["bet"])
    assert a.deals == DEALS[decks] == table["total_ways"]
    for_one = table.get("basis") == "for one"
    # the table is the whole pay table: every event of the bet, and the losing row
    assert [r["event"] for r in table["rows"]] == [e.event for e in bet.events] + ["loses"]
    for row in table["rows"]:
        exact = ways_of(result, row["event"])
        if row.get("rounded"):
            # printed to 15 significant digits by the page's spreadsheet
            assert exact != row["ways"] and significant(exact) == row["ways"], row
        else:
            assert exact == row["ways"], row
        pays = pays_of(bet, row["event"])
        assert pays + (1 if for_one else 0) == row["pays"], row
        p = Fraction(exact, a.deals)
        assert rounds_to(p, row["probability"]), (row, float(p))
        assert rounds_to(row["pays"] * p, row["return"]), (row, float(row["pays"] * p))
    assert sum(ways_of(result, r["event"]) for r in table["rows"]) == a.deals
    if "total_return" in table:
        total = result.ev + (1 if for_one else 0)
        assert rounds_to(total, table["total_return"]), float(total)
    assert rounds_to(result.house_edge * 100, table["house_edge_percent"]), float(result.house_edge * 100)


# -- single published figures ------------------------------------------------------------

def metric(decks: int, bet_id: str, name: str, event: str | None = None) -> Fraction:
    r = analysis(decks).bet(bet_id)
    if name == "probability":
        return r.event(event).probability
    if name == "return":
        return r.ev
    if name == "house_edge_percent":
        return r.house_edge * 100
    if name == "variance":
        return r.variance
    raise AssertionError(name)


@pytest.mark.parametrize("figure", DATA["figure"],
                         ids=lambda f: f"{f['bet']}-{f['metric']}-{f['decks']}-{f['source']}")
def test_published_figure_rounds_from_ours(figure):
    x = metric(figure["decks"], figure["bet"], figure["metric"], figure.get("event"))
    assert rounds_to(x, figure["value"]), float(x)


@pytest.mark.parametrize("figure", DATA["rejected"],
                         ids=lambda f: f"{f['bet']}-{f['metric']}-{f['decks']}-{f['source']}")
def test_rejected_figure_really_disagrees_for_the_stated_reason(figure):
    x = metric(figure["decks"], figure["bet"], figure["metric"])
    assert not rounds_to(x, figure["value"]), float(x)
    if "double_rounding" in figure:
        # the exact value rounds to the intermediate figure, which rounds to the printed one
        assert rounds_to(x, figure["double_rounding"])
        assert rounds_to(Fraction(figure["double_rounding"]), figure["value"])
    else:
        # the page's return is (1 + pays) x its own rounded probability - 1
        bet = catalogs()[0].bet(figure["bet"])
        (event,) = bet.events
        p = Fraction(figure["from_probability"])
        assert rounds_to(metric(figure["decks"], figure["bet"], "probability", event.event), figure["from_probability"])
        assert rounds_to((1 + event.pays) * p - 1, figure["value"])


# -- the same event under two names ------------------------------------------------------

@pytest.mark.parametrize("decks", [8, 6])
def test_bets_that_are_the_same_event(decks):
    a = analysis(decks)
    full = catalogs()[0]
    # 9 over 7 (Jacobson) and Golden Frog's 2-card 9 beats 2-card 7: a natural stops the other hand
    assert a.bet("nine_over_7").events[0].ways == a.bet("golden_frog_9_over_7").events[0].ways
    # 4-5-6's four-card bet is Small
    small = Solver(full.select(["small"])).solve(Shoe.standard(decks)).bet("small").events[0].ways
    assert a.bet("four_five_six_4").events[0].ways == small
    # the stand-alone Bad Beat bets are the levels of Any Bad Beat
    anyb = a.bet("bad_beat_any")
    assert a.bet("bad_beat").events[0].ways == anyb.event("natural 9 beats natural 8").ways
    assert a.bet("bad_beat_3card_9_over_8").events[0].ways == anyb.event("three-card 9 beats three-card 8").ways
    assert a.bet("bad_beat_8_over_7").events[0].ways == anyb.event("8 beats 7").ways
    assert a.bet("three_giving_8").events[0].ways == a.bet("three_giving_8_180").events[0].ways


# -- the brute-force oracle ------------------------------------------------------------------

#: A 10-card suited shoe on which every event of every bet of the file happens.
ORACLE_SHOE = "Ah 2s 4d 7c 7h 7s 8d 8c Js Kh".split()


def pv(card: str) -> int:
    return POINT[card[0]]


def two(cards: list[str]) -> int:
    return (pv(cards[0]) + pv(cards[1])) % 10


def beats(c, high: int, low: int) -> bool:
    """A final ``high`` against a final ``low``, whichever side holds which."""
    return {c["player_total"], c["banker_total"]} == {high, low}


def n_cards(c) -> tuple[int, int]:
    return len(c["player_cards"]), len(c["banker_cards"])


def golden_frog(c):
    return "any 8 beats any 6" if beats(c, 8, 6) else "loses"


def golden_frog_9_over_7(c):
    return "2-card 9 beats 2-card 7" if beats(c, 9, 7) and n_cards(c) == (2, 2) else "loses"


def golden_frog_3card_9_over_1(c):
    return "3-card 9 beats 3-card 1" if beats(c, 9, 1) and n_cards(c) == (3, 3) else "loses"


def golden_frog_3card_9_over_7(c):
    return "3-card 9 beats 3-card 7" if beats(c, 9, 7) and n_cards(c) == (3, 3) else "loses"


def lucky99(c):
    p9, b9 = two(c["player_cards"]) == 9, two(c["banker_cards"]) == 9
    if p9 and b9:
        return "player and banker natural nines"
    if b9:
        return "banker natural nine"
    if p9:
        return "player natural nine"
    return "loses"


def player_3card_win(c):
    return "player wins with three cards" if c["winner"] == "player" and len(c["player_cards"]) == 3 else "loses"


def banker_3card_win(c):
    return "banker wins with three cards" if c["winner"] == "banker" and len(c["banker_cards"]) == 3 else "loses"


def three_giving_8(c):
    pc = c["player_cards"]
    hit = two(c["banker_cards"]) == 3 and len(pc) == 3 and pc[2][0] == "8"
    return "banker two-card 3, player draws an 8" if hit else "loses"


def four_five_six(n):
    return lambda c: f"{n} cards" if sum(n_cards(c)) == n else "loses"


def ox6(c):
    hit = c["winner"] == "player" and len(c["player_cards"]) == 3 and c["player_total"] == 6
    return "player wins with a three-card 6" if hit else "loses"


def kill_ox_tiger(c):
    ox = len(c["player_cards"]) == 3 and c["player_total"] == 6 and c["winner"] in ("banker", "tie")
    tiger = len(c["banker_cards"]) == 3 and c["banker_total"] == 7 and c["winner"] in ("player", "tie")
    if ox and tiger:
        return "both"           # never happens: a three-card 7 beats a three-card 6
    return "kill the ox" if ox else "kill the tiger" if tiger else "loses"


def result_88_89_98_99(c):
    return "final result 88, 89, 98 or 99" if c["player_total"] in (8, 9) and c["banker_total"] in (8, 9) else "loses"


def nine_over_7(c):
    p_nat9 = len(c["player_cards"]) == 2 and two(c["player_cards"]) == 9
    b_nat9 = len(c["banker_cards"]) == 2 and two(c["banker_cards"]) == 9
    hit = (p_nat9 and c["banker_total"] == 7) or (b_nat9 and c["player_total"] == 7)
    return "natural 9 over 7" if hit else "loses"


def natural_9_over_8(c):
    return {two(c["player_cards"]), two(c["banker_cards"])} == {8, 9}


def bad_beat(c):
    return "natural 9 beats natural 8" if natural_9_over_8(c) else "loses"


def bad_beat_any(c):
    if abs(c["player_total"] - c["banker_total"]) != 1:
        return "loses"
    if beats(c, 9, 8) and n_cards(c) == (3, 3):
        return "three-card 9 beats three-card 8"
    if natural_9_over_8(c):
        return "natural 9 beats natural 8"
    if beats(c, 8, 7):
        return "8 beats 7"
    if beats(c, 7, 6):
        return "7 beats 6"
    return "other win by one point"


def bad_beat_3card_9_over_8(c):
    return "three-card 9 beats three-card 8" if beats(c, 9, 8) and n_cards(c) == (3, 3) else "loses"


def bad_beat_8_over_7(c):
    return "8 beats 7" if beats(c, 8, 7) else "loses"


ORACLE = {
    "golden_frog": golden_frog, "golden_frog_9_over_7": golden_frog_9_over_7,
    "golden_frog_3card_9_over_1": golden_frog_3card_9_over_1,
    "golden_frog_3card_9_over_7": golden_frog_3card_9_over_7,
    "lucky99": lucky99, "player_3card_win": player_3card_win, "banker_3card_win": banker_3card_win,
    "three_giving_8": three_giving_8, "three_giving_8_180": three_giving_8,
    "four_five_six_4": four_five_six(4), "four_five_six_5": four_five_six(5), "four_five_six_6": four_five_six(6),
    "ox6": ox6, "kill_ox_tiger": kill_ox_tiger, "result_88_89_98_99": result_88_89_98_99,
    "nine_over_7": nine_over_7, "bad_beat": bad_beat, "bad_beat_any": bad_beat_any,
    "bad_beat_3card_9_over_8": bad_beat_3card_9_over_8, "bad_beat_8_over_7": bad_beat_8_over_7,
}


@lru_cache(maxsize=1)
def oracle_tallies():
    return six_card_tally(ORACLE_SHOE, ORACLE)


def test_oracle_covers_every_bet():
    assert set(ORACLE) == set(MINE)


@pytest.mark.parametrize("bet_id", MINE)
def test_bet_matches_the_oracle_on_a_small_shoe(bet_id):
    tallies, deals = oracle_tallies()
    full, _ = catalogs()
    a = Solver(full.select([bet_id])).solve(Shoe.from_counts({c: ORACLE_SHOE.count(c) for c in set(ORACLE_SHOE)}))
    assert a.deals == deals == math.perm(len(ORACLE_SHOE), 6)
    tally = tallies[bet_id]
    assert "both" not in tally
    engine = {e.event: e.ways for e in a.bet(bet_id).events}
    assert engine == dict(tally), bet_id
    # every event of the pay table, and the loss, happens on this shoe
    assert list(engine) == [e.event for e in full.bet(bet_id).events] + ["loses"], engine
    assert all(engine.values()), engine
