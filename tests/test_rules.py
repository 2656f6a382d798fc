"""The drawing rules and pay tables against the prose of RULES.md.

RULES.md (``/work/shared/RULES.md``, restated from the seed pages) is the
reference: where it and the code disagree, RULES.md wins.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer import BANKER_DRAWS, BANKER_RULE_TABLE, catalog, play_coup
from analyzer.core.engine import coup_table
from analyzer.core.rules import Coup, banker_draws, parse_values, player_draws

from oracle import POINT, banker_draws_prose, deal

# The rules ship with the package (analyzer/core/RULES.md); the project's shared copy,
# when it is beside the checkout, must say the same.
RULES_MD = Path(__file__).resolve().parents[1] / "analyzer" / "core" / "RULES.md"
SHARED_RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"


def test_shipped_rules_are_the_shared_rules():
    if not SHARED_RULES_MD.is_file():
        pytest.skip(f"{SHARED_RULES_MD} is not present")
    assert RULES_MD.read_text(encoding="utf-8") == SHARED_RULES_MD.read_text(encoding="utf-8")


def test_rules_are_in_the_installed_package():
    from importlib import resources
    assert "Banker total" in resources.files("analyzer.core").joinpath("RULES.md").read_text(encoding="utf-8")

# ---------------------------------------------------------------------------------
# (a) The printed Banker table.
#
# Copied by hand from RULES.md, "Dealing order", step 4 (the table under "If Player
# drew, Banker acts on its two-card total and the point value of Player's third
# card"):
#
# | Banker total | Banker draws when Player's third card is | Banker stands when it is |
PRINTED_ROWS = (
    ("0, 1, 2", "any", "-"),
    ("3", "0-7, 9", "8"),
    ("4", "2-7", "0, 1, 8, 9"),
    ("5", "4-7", "0-3, 8, 9"),
    ("6", "6, 7", "0-5, 8, 9"),
    ("7", "never", "always"),
)


def _totals_text(totals: tuple[int, ...]) -> str:
    return ", ".join(str(t) for t in totals)


def test_banker_rule_table_is_the_printed_table():
    assert len(BANKER_RULE_TABLE) == len(PRINTED_ROWS)
    for (totals, draws, stands), printed in zip(BANKER_RULE_TABLE, PRINTED_ROWS):
        assert (_totals_text(totals), draws, stands) == printed


def _markdown_banker_table(text: str) -> list[tuple[str, str, str]]:
    """The rows of the Markdown table whose header starts with 'Banker total'."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and cells and cells[0] == "Banker total":
            assert re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*\|?", lines[i + 1].strip()), \
                "the header must be followed by a separator row"
            rows = []
            for row in lines[i + 2:]:
                if not row.lstrip().startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                assert len(cells) == 3, row
                rows.append(tuple(cells))
            return rows
    raise AssertionError("no table with a 'Banker total' header in RULES.md")


def test_banker_rule_table_equals_rules_md_file():
    if not RULES_MD.is_file():
        pytest.skip(f"{RULES_MD} is not present")
    rows = _markdown_banker_table(RULES_MD.read_text(encoding="utf-8"))
    assert len(rows) == len(BANKER_RULE_TABLE)
    for (totals, draws, stands), (md_totals, md_draws, md_stands) in zip(BANKER_RULE_TABLE, rows):
        assert tuple(int(t) for t in md_totals.split(",")) == totals
        assert (md_draws, md_stands) == (draws, stands)


def test_printed_table_covers_totals_0_to_7_once_and_each_row_splits_0_to_9():
    seen = [t for totals, _, _ in BANKER_RULE_TABLE for t in totals]
    assert sorted(seen) == list(range(8))
    for _, draws, stands in BANKER_RULE_TABLE:
        d, s = parse_values(draws), parse_values(stands)
        assert not d & s
        assert d | s == frozenset(range(10))


@pytest.mark.parametrize("text, values", [
    ("any", set(range(10))), ("always", set(range(10))), ("-", set()), ("never", set()),
    ("8", {8}), ("0-7, 9", {0, 1, 2, 3, 4, 5, 6, 7, 9}), ("0, 1, 8, 9", {0, 1, 8, 9}),
    ("0-3, 8, 9", {0, 1, 2, 3, 8, 9}), ("6, 7", {6, 7}), ("2-7", {2, 3, 4, 5, 6, 7}),
])
def test_parse_values_reads_printed_cells(text, values):
    assert parse_values(text) == frozenset(values)


# ---------------------------------------------------------------------------------
# (b) The 10 x 10 grid against the prose rule, written independently in oracle.py.

def test_banker_draws_grid_matches_prose_cell_by_cell():
    assert len(BANKER_DRAWS) == 10 and all(len(row) == 10 for row in BANKER_DRAWS)
    wrong = [(b, p) for b in range(10) for p in range(10)
             if BANKER_DRAWS[b][p] != banker_draws_prose(b, p)]
    assert wrong == []


def test_banker_draws_function_matches_prose_including_player_stood():
    for b in range(10):
        assert banker_draws(b, None) == banker_draws_prose(b, None) == (b <= 5)
        for p in range(10):
            assert banker_draws(b, p) == banker_draws_prose(b, p)


def test_banker_grid_spot_checks_from_rules_md():
    # The two cells RULES.md singles out in its examples and the edges of each row.
    assert BANKER_DRAWS[3][8] is False and BANKER_DRAWS[3][9] is True
    assert BANKER_DRAWS[6][7] is True and BANKER_DRAWS[6][5] is False
    assert [p for p in range(10) if BANKER_DRAWS[4][p]] == [2, 3, 4, 5, 6, 7]
    assert [p for p in range(10) if BANKER_DRAWS[5][p]] == [4, 5, 6, 7]
    assert not any(BANKER_DRAWS[7]) and not any(BANKER_DRAWS[8]) and not any(BANKER_DRAWS[9])
    assert all(all(BANKER_DRAWS[b]) for b in (0, 1, 2))


def test_player_draws_on_0_to_5_only():
    assert [t for t in range(10) if player_draws(t)] == [0, 1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------
# (c) The worked examples of RULES.md.  Cards are given in shoe order P1 B1 P2 B2 then
# third cards; spare cards are appended so that a wrongful draw would change the hand.

def pts(*ranks: str) -> list[int]:
    return [POINT[r] for r in ranks]


# (player cards, banker cards, shoe order, spare, player total, banker total, winner, natural)
WORKED = [
    # 7, 8 (5) | 9, K (9) | Banker natural 9 wins; nobody draws
    (pts("7", "8"), pts("9", "K"), pts("7", "9", "8", "K"), pts("3", "3"), 5, 9, "banker", True),
    # 4, 4 (8) | 2, 5 (7) | Player natural 8 wins
    (pts("4", "4"), pts("2", "5"), pts("4", "2", "4", "5"), pts("A", "A"), 8, 7, "player", True),
    # 3, 3 (6) | 4, 3 (7) | both stand; Banker 7 wins
    (pts("3", "3"), pts("4", "3"), pts("3", "4", "3", "3"), pts("2", "2"), 6, 7, "banker", False),
    # 2, 4 (6) | A, 5 (6) | both stand; Tie 6-6
    (pts("2", "4"), pts("A", "5"), pts("2", "A", "4", "5"), pts("3", "3"), 6, 6, "tie", False),
    # 2, 3, then 7 (2) | 4, 2, then 2 (8) | Player draws 7; Banker on 6 draws (3rd card 7); Banker 8 wins
    (pts("2", "3", "7"), pts("4", "2", "2"), pts("2", "4", "3", "2", "7", "2"), pts("9"),
     2, 8, "banker", False),
]


@pytest.mark.parametrize("player, banker, order, spare, ptotal, btotal, winner, natural", WORKED)
def test_worked_examples_deal_as_the_rules_say(player, banker, order, spare, ptotal, btotal, winner, natural):
    coup = play_coup(order + spare)
    assert coup == Coup(tuple(player), tuple(banker), ptotal, btotal, winner)
    assert coup.natural is natural
    assert coup.cards_used == len(order)
    assert (len(coup.player) == 3, len(coup.banker) == 3) == (len(player) == 3, len(banker) == 3)


@pytest.mark.parametrize("player, banker, order, spare, ptotal, btotal, winner, natural", WORKED)
def test_worked_examples_in_engine_table(player, banker, order, spare, ptotal, btotal, winner, natural):
    # The vectorised table the engine counts with deals the same coup.
    seq = (order + spare + [0] * 6)[:6]
    idx = int("".join(map(str, seq)))
    t = coup_table()
    assert (int(t.player_total[idx]), int(t.banker_total[idx])) == (ptotal, btotal)
    assert int(t.winner[idx]) == {"player": 0, "banker": 1, "tie": 2}[winner]
    assert (int(t.player_cards[idx]), int(t.banker_cards[idx])) == (len(player), len(banker))
    assert bool(t.natural[idx]) is natural


def test_play_coup_needs_enough_cards():
    with pytest.raises(ValueError, match="not enough cards"):
        play_coup([2, 4, 3, 2, 7])      # Banker must draw a sixth card here
    with pytest.raises(ValueError, match="not enough cards"):
        play_coup([1, 2, 3])
    assert play_coup([7, 9, 8, 0]).winner == "banker"  # a natural needs only four


def test_play_coup_agrees_with_prose_oracle_on_random_sequences():
    # oracle.deal re-implements the rules from RULES.md with no shared code.
    rank_of = {v: r for r, v in POINT.items() if r != "T" and r not in "JQ"}
    rng = random.Random(1234)
    t = coup_table()
    for _ in range(5000):
        seq = [rng.randrange(10) for _ in range(6)]
        coup = play_coup(seq)
        ref = deal([rank_of[v] for v in seq])
        assert (coup.player_total, coup.banker_total, coup.winner) == \
            (ref["player_total"], ref["banker_total"], ref["winner"]), seq
        assert (len(coup.player), len(coup.banker)) == \
            (len(ref["player_cards"]), len(ref["banker_cards"])), seq
        idx = int("".join(map(str, seq)))
        assert (int(t.player_total[idx]), int(t.banker_total[idx])) == \
            (coup.player_total, coup.banker_total), seq


# ---------------------------------------------------------------------------------
# (d) Payout examples, against the catalog's pay tables.

def payout(bet_id: str, seq: list[int]) -> Fraction:
    """What one unit on ``bet_id`` nets on the coup dealt by ``seq`` (first matching event)."""
    seq = (seq + [0] * 6)[:6]
    idx = int("".join(map(str, seq)))
    features = {k: np.asarray(v)[idx:idx + 1] for k, v in coup_table().features().items()}
    bet = catalog().bet(bet_id)
    for e in bet.events:
        if bool(e.when.mask(features)[0]):
            return e.pays
    return bet.otherwise


BANKER_WIN = pts("2", "4", "3", "2", "7", "2")      # the fifth worked example: Banker 8 wins
PLAYER_WIN = pts("4", "2", "4", "5")                # Player natural 8
TIE_7_7 = pts("3", "2", "4", "5")                   # 3, 4 (7) vs 2, 5 (7): both stand


def test_payout_examples_coups_are_what_they_claim():
    assert play_coup(BANKER_WIN).winner == "banker"
    assert play_coup(PLAYER_WIN).winner == "player"
    c = play_coup(TIE_7_7)
    assert (c.player_total, c.banker_total, c.winner) == (7, 7, "tie")


@pytest.mark.parametrize("stake, wins", [(100, 95), (200, 190), (40, 38)])
def test_banker_win_pays_less_five_percent(stake, wins):
    assert stake * payout("banker", BANKER_WIN) == wins


def test_catalog_pay_tables():
    pays = {bid: {e.event: e.pays for e in catalog().bet(bid).events} for bid in ("player", "banker", "tie")}
    assert catalog().bet("banker").events[0].pays == Fraction(19, 20)
    assert all(isinstance(p, Fraction) for table in pays.values() for p in table.values())
    assert max(pays["player"].values()) == 1
    assert max(pays["tie"].values()) == 8
    for bid in ("player", "banker", "tie"):
        assert catalog().bet(bid).otherwise == -1


def test_hundred_on_tie_wins_800_on_7_7_while_player_and_banker_are_returned():
    assert 100 * payout("tie", TIE_7_7) == 800
    assert 100 * payout("player", TIE_7_7) == 0       # stake returned
    assert 100 * payout("banker", TIE_7_7) == 0       # returned without commission


def test_main_bets_on_a_player_and_a_banker_win():
    assert 100 * payout("player", PLAYER_WIN) == 100
    assert 100 * payout("banker", PLAYER_WIN) == -100
    assert 100 * payout("tie", PLAYER_WIN) == -100
    assert 100 * payout("player", BANKER_WIN) == -100
    assert 100 * payout("tie", BANKER_WIN) == -100


@pytest.mark.parametrize("total", range(10))
def test_player_and_banker_push_on_every_tie(total):
    # Find a coup tying on `total` in the engine's table and settle it.
    t = coup_table()
    idx = int(np.flatnonzero((t.winner == 2) & (t.player_total == total))[0])
    seq = [int(d) for d in f"{idx:06d}"]
    c = play_coup(seq)
    assert (c.winner, c.player_total, c.banker_total) == ("tie", total, total)
    assert payout("player", seq) == 0
    assert payout("banker", seq) == 0
    assert payout("tie", seq) == 8


# ---------------------------------------------------------------------------------
# (e) An 8 or 9 reached with three cards is not a natural.

@pytest.mark.parametrize("seq, player, banker, winner", [
    ([2, 4, 3, 2, 3, 9], (2, 3, 3), (4, 2), "player"),     # Player 5 draws 3 -> 8; Banker 6 stands on 3
    ([4, 2, 0, 2, 5, 0], (4, 0, 5), (2, 2, 0), "player"),  # Player 4 draws 5 -> 9; Banker 4 draws on 5
    ([3, 2, 3, 2, 5, 9], (3, 3), (2, 2, 5), "banker"),     # Player 6 stands; Banker 4 draws 5 -> 9
    ([0, 1, 0, 2, 2, 5], (0, 0, 2), (1, 2, 5), "banker"),  # Banker 3 draws on 2 -> 8
])
def test_three_card_eight_or_nine_is_not_natural(seq, player, banker, winner):
    c = play_coup(seq)
    assert (c.player, c.banker, c.winner) == (player, banker, winner)
    assert max(c.player_total, c.banker_total) in (8, 9)
    assert c.natural is False


@pytest.mark.parametrize("seq", [[4, 0, 4, 0], [0, 4, 0, 5], [9, 9, 9, 9], [4, 3, 4, 3]])
def test_two_card_eight_or_nine_is_natural(seq):
    c = play_coup(seq + [1, 1])
    assert c.natural is True
    assert c.cards_used == 4


def test_natural_flag_agrees_with_engine_table():
    # Over every 4-card start (the rest fixed), Coup.natural is the table's natural flag.
    t = coup_table()
    for start in range(10_000):
        seq = [int(d) for d in f"{start:04d}"] + [5, 5]
        idx = start * 100 + 55
        assert play_coup(seq).natural == bool(t.natural[idx]), seq
