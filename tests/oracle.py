"""A slow, obviously-correct oracle: deal every permutation of the actual cards.

It shares no code with the engine: the drawing rules are written out again
here from the prose of RULES.md, and every physical card is dealt as itself.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

POINT = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
         "T": 0, "J": 0, "Q": 0, "K": 0}


def banker_draws_prose(banker: int, player_third: int | None) -> bool:
    """RULES.md, step 4, read literally."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def deal(cards: list[str]) -> dict:
    """Play one coup from ranks in shoe order; return what the side bets need."""
    return deal_variant(cards, banker_draws_prose, lambda v1, v2: (v1 + v2) % 10 <= 5)


def six_card_counts(cards: list[str], key=lambda coup: coup["winner"]) -> tuple[Counter, int]:
    """Tally ``key(coup)`` over every ordered choice of 6 of the physical cards."""
    tally: Counter = Counter()
    deals = 0
    for perm in itertools.permutations(range(len(cards)), 6):
        tally[key(deal([cards[i] for i in perm]))] += 1
        deals += 1
    return tally, deals


def full_shoe_counts(cards: list[str], key=lambda coup: coup["winner"]) -> tuple[Counter, int]:
    """Tally over every permutation of the whole shoe, divided by (N-6)! at the end."""
    tally: Counter = Counter()
    rest = math.factorial(len(cards) - 6)
    for perm in itertools.permutations(cards):
        tally[key(deal(list(perm)))] += 1
    out = Counter()
    for k, v in tally.items():
        assert v % rest == 0
        out[k] = v // rest
    return out, math.factorial(len(cards)) // rest


def value_recursion_counts(value_counts) -> dict[str, int]:
    """Plain exact enumeration by point value with integer weights (no engine code):
    the winner's ways, summed from :func:`value_coup_weights`."""
    out = {"player": 0, "banker": 0, "tie": 0}
    for (p, b), w in value_coup_weights(value_counts).items():
        pt, bt = sum(p) % 10, sum(b) % 10
        out["player" if pt > bt else "banker" if bt > pt else "tie"] += w
    return out


#: A representative rank for each point value (used where only values matter).
VALUE_RANK = {0: "T", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def six_card_tally(cards: list[str], keys: dict) -> tuple[dict[str, Counter], int]:
    """Deal every ordered choice of 6 of the physical ``cards`` once and tally,
    for each ``name -> key`` of ``keys``, ``key(coup)`` (``coup`` as :func:`deal`
    returns it).  Returns ``({name: Counter}, deals)``."""
    tallies = {name: Counter() for name in keys}
    items = list(keys.items())
    deals = 0
    for perm in itertools.permutations(range(len(cards)), 6):
        coup = deal([cards[i] for i in perm])
        for name, key in items:
            tallies[name][key(coup)] += 1
        deals += 1
    return tallies, deals


def value_coup_weights(value_counts) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
    """Every distinct coup by point values, ``(player values, banker values)`` in
    dealing order, with its exact number of ordered six-card deals.

    Walks P1 B1 P2 B2 and the third cards (by the prose rules), multiplying by the
    number of cards of each value left; a coup that stops after k < 6 cards is
    multiplied by the ways to fill the unused positions, (N-k)(N-k-1)...(N-5).
    """
    return value_coup_weights_variant(value_counts, banker_draws_prose, lambda v1, v2: (v1 + v2) % 10 <= 5)


def value_tally(value_counts, keys: dict) -> dict[str, Counter]:
    """Weighted tally of ``key(coup)`` for each of ``keys`` over all deals of a
    shoe given by point-value counts.  ``coup`` has the shape :func:`deal`
    returns, each card named by a representative rank of its value (``T`` for
    0), so only keys that read point values are meaningful here."""
    tallies = {name: Counter() for name in keys}
    items = list(keys.items())
    for (p, b), w in value_coup_weights(value_counts).items():
        pt, bt = sum(p) % 10, sum(b) % 10
        coup = {"winner": "player" if pt > bt else "banker" if bt > pt else "tie",
                "player_total": pt, "banker_total": bt,
                "player_cards": [VALUE_RANK[v] for v in p], "banker_cards": [VALUE_RANK[v] for v in b]}
        for name, key in items:
            tallies[name][key(coup)] += w
    return tallies


# -- rule variants, written again from the prose ----------------------------

def gold_banker_draws_prose(banker: int, player_third: int | None) -> bool:
    """Baccarat Gold (Wizard of Odds, "Baccarat Gold"): when the Player drew, the Banker
    with 0-3 always draws, with 4 or 5 draws only if the Player's third card is 3 to 7,
    with 6 or 7 never draws; when the Player stood, as in Punto Banco (draws on 0-5)."""
    if player_third is None:
        return banker <= 5
    if banker <= 3:
        return True
    if banker in (4, 5):
        return 3 <= player_third <= 7
    return False


def player_draws_on(totals):
    """A Player rule reading only the two-card total: draws when it is in ``totals``."""
    return lambda v1, v2: (v1 + v2) % 10 in totals


def deal_variant(cards: list[str], banker_rule, player_rule) -> dict:
    """:func:`deal` with the drawing rules given: ``player_rule(v1, v2)`` (the Player's
    two point values, no natural) and ``banker_rule(banker_total, player_third or None)``."""
    pts = [POINT[c[0]] for c in cards]
    player, banker, nxt = [0, 2], [1, 3], 4
    ptot, btot = (pts[0] + pts[2]) % 10, (pts[1] + pts[3]) % 10
    if ptot < 8 and btot < 8:
        third = None
        if player_rule(pts[0], pts[2]):
            player.append(nxt)
            third = pts[nxt]
            nxt += 1
        if banker_rule(btot, third):
            banker.append(nxt)
            nxt += 1
    pt = sum(pts[i] for i in player) % 10
    bt = sum(pts[i] for i in banker) % 10
    return {"winner": "player" if pt > bt else "banker" if bt > pt else "tie",
            "player_total": pt, "banker_total": bt,
            "player_cards": [cards[i] for i in player], "banker_cards": [cards[i] for i in banker]}


def six_card_tally_variant(cards: list[str], keys: dict, banker_rule, player_rule):
    """:func:`six_card_tally` under the given drawing rules."""
    tallies = {name: Counter() for name in keys}
    deals = 0
    for perm in itertools.permutations(range(len(cards)), 6):
        coup = deal_variant([cards[i] for i in perm], banker_rule, player_rule)
        for name, key in keys.items():
            tallies[name][key(coup)] += 1
        deals += 1
    return tallies, deals


def value_coup_weights_variant(value_counts, banker_rule, player_rule) -> dict:
    """:func:`value_coup_weights` under the given drawing rules: ``player_rule(v1, v2)``
    (the Player's two point values, no natural) and ``banker_rule(banker_total,
    player_third or None)``."""
    n = list(value_counts)
    total = sum(n)
    out: dict = {}

    def fill(k):
        f = 1
        for i in range(k, 6):
            f *= total - i
        return f

    def finish(w, p, b, used):
        key = (tuple(p), tuple(b))
        out[key] = out.get(key, 0) + w * fill(used)

    for p1 in range(10):
        w1 = n[p1]; n[p1] -= 1
        for b1 in range(10):
            w2 = w1 * n[b1]; n[b1] -= 1
            for p2 in range(10):
                w3 = w2 * n[p2]; n[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * n[b2]; n[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if w4 == 0:
                        pass
                    elif pt >= 8 or bt >= 8:
                        finish(w4, (p1, p2), (b1, b2), 4)
                    elif not player_rule(p1, p2):
                        if banker_rule(bt, None):
                            for b3 in range(10):
                                if n[b3]:
                                    finish(w4 * n[b3], (p1, p2), (b1, b2, b3), 5)
                        else:
                            finish(w4, (p1, p2), (b1, b2), 4)
                    else:
                        for p3 in range(10):
                            w5 = w4 * n[p3]
                            if not w5:
                                continue
                            n[p3] -= 1
                            if banker_rule(bt, p3):
                                for b3 in range(10):
                                    if n[b3]:
                                        finish(w5 * n[b3], (p1, p2, p3), (b1, b2, b3), 6)
                            else:
                                finish(w5, (p1, p2, p3), (b1, b2), 5)
                            n[p3] += 1
                    n[b2] += 1
                n[p2] += 1
            n[b1] += 1
        n[p1] += 1
    return out


def value_winner_counts_variant(value_counts, banker_rule, player_rule) -> dict[str, int]:
    """Exact winner ways by plain recursion over point values, under the given rules."""
    out = {"player": 0, "banker": 0, "tie": 0}
    for (p, b), w in value_coup_weights_variant(value_counts, banker_rule, player_rule).items():
        pt, bt = sum(p) % 10, sum(b) % 10
        out["player" if pt > bt else "banker" if bt > pt else "tie"] += w
    return out
