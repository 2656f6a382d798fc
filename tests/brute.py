"""Every ordered deal of a small suited shoe, with every feature the condition language reads.

The slow, obviously-correct side of the differential tests (``test_differential.py``):
the six cards of each ordered deal of distinct physical cards are dealt by the
drawing rules written out again here from a :class:`~analyzer.core.rules.Rules`
value's data (its naturals, the Player's grid and the Banker's table), and every
feature is computed from the cards dealt, by its documented meaning
(:data:`analyzer.core.features.FEATURES`), with no engine code.  A condition's
count is then ``Condition.mask(features).sum()``: the same meaning the engines
must reproduce by counting classes and multisets.

Cards are numbered 0-51, rank-major with suits s h d c; ``-1`` is "no card".
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

RANK = np.array([i // 4 + 1 for i in range(52)] + [0])
SUIT = np.array([i % 4 for i in range(52)] + [-1])
COLOUR = np.array([0 if i % 4 in (1, 2) else 1 for i in range(52)] + [-1])     # red 0, black 1
VALUE = np.array([(i // 4 + 1) if i // 4 + 1 <= 9 else 0 for i in range(52)] + [-1])

HANDS = ("player_card1", "player_card2", "player_card3", "banker_card1", "banker_card2", "banker_card3")
DEALS = ("card1", "card2", "card3", "card4", "card5", "card6")


@lru_cache(maxsize=16)
def ordered_deals(cards: tuple[int, ...]) -> np.ndarray:
    """``(D, 6)``: the card (0-51) at each position of every ordered deal of six of
    the physical ``cards`` (a card listed twice is two physical cards)."""
    perms = np.array(list(itertools.permutations(range(len(cards)), 6)), dtype=np.int64)
    out = np.asarray(cards, dtype=np.int64)[perms]
    out.flags.writeable = False
    return out


def features(deals: np.ndarray, rules) -> dict:
    """Every feature of every deal in ``deals`` (``(D, 6)`` cards) under ``rules``."""
    v = VALUE[deals]
    p1, b1, p2, b2, c5, c6 = (v[:, i] for i in range(6))
    naturals = sorted(rules.naturals)
    pt2, bt2 = (p1 + p2) % 10, (b1 + b2) % 10
    player_natural, banker_natural = np.isin(pt2, naturals), np.isin(bt2, naturals)
    natural = player_natural | banker_natural
    player_grid = np.array(rules.player_grid, dtype=bool)
    banker_grid = np.array(rules.banker, dtype=bool)
    p_draws = ~natural & player_grid[p1, p2]
    b_draws = ~natural & np.where(p_draws, banker_grid[bt2, c5], np.isin(bt2, sorted(rules.banker_if_player_stood)))
    # the cards at each hand position and at each dealing position the coup used (-1: none)
    none = np.full(len(deals), -1)
    hand = {
        "player_card1": deals[:, 0], "player_card2": deals[:, 2],
        "player_card3": np.where(p_draws, deals[:, 4], none),
        "banker_card1": deals[:, 1], "banker_card2": deals[:, 3],
        "banker_card3": np.where(b_draws, np.where(p_draws, deals[:, 5], deals[:, 4]), none),
    }
    used = 4 + p_draws.astype(int) + b_draws.astype(int)
    deal = {f"card{i + 1}": np.where(used > i, deals[:, i], none) for i in range(6)}
    pv3, bv3 = VALUE[hand["player_card3"]], VALUE[hand["banker_card3"]]
    pt = np.where(p_draws, (pt2 + pv3) % 10, pt2)
    bt = np.where(b_draws, (bt2 + bv3) % 10, bt2)
    winner = np.where(pt > bt, 0, np.where(bt > pt, 1, 2)).astype(np.int8)
    f = {
        "winner": winner, "player_total": pt, "banker_total": bt,
        "winning_total": np.where(winner == 1, bt, pt), "margin": np.abs(pt - bt),
        "player_cards": 2 + p_draws.astype(int), "banker_cards": 2 + b_draws.astype(int), "cards": used,
        "natural": natural, "player_natural": player_natural, "banker_natural": banker_natural,
        "player_two_total": pt2, "banker_two_total": bt2,
        "player_value1": p1, "player_value2": p2, "player_value3": pv3,
        "banker_value1": b1, "banker_value2": b2, "banker_value3": bv3,
        "max_value": np.max([VALUE[c] for c in list(hand.values())], axis=0),
    }
    for side in ("player", "banker"):
        a, b = hand[f"{side}_card1"], hand[f"{side}_card2"]
        f[f"{side}_pair"] = RANK[a] == RANK[b]
        f[f"{side}_suited"] = SUIT[a] == SUIT[b]
        f[f"{side}_suited_pair"] = a == b
        for d, c in (("1", a), ("2", b)):
            f[f"{side}_rank{d}"], f[f"{side}_suit{d}"] = RANK[c], SUIT[c]
    for name, card in {**hand, **deal}.items():
        f[f"card:{name}"] = card
        f[f"{name}_rank"], f[f"{name}_suit"] = RANK[card], SUIT[card]
        f[f"{name}_colour"], f[f"{name}_value"] = COLOUR[card], VALUE[card]
        f[f"{name}_face"], f[f"{name}_ten"] = RANK[card] >= 11, RANK[card] == 10
        f[f"{name}_dealt"] = card >= 0
    return f


def pinned(deals: np.ndarray, pins: dict[int, tuple[bool, ...]]) -> np.ndarray:
    """Deals whose pinned dealing positions (0-5) hold one of the cards allowed there."""
    keep = np.ones(len(deals), dtype=bool)
    for pos, allowed in pins.items():
        keep &= np.append(np.asarray(allowed, dtype=bool), False)[deals[:, pos]]
    return keep


def event_ways(bet, f: dict, keep: np.ndarray) -> list[int]:
    """The deals (among ``keep``) of each event of ``bet``: the first event whose
    condition holds pays, as a pay table reads."""
    taken = ~keep
    out = []
    for e in bet.events:
        m = np.asarray(e.when.mask(f), dtype=bool) & ~taken
        out.append(int(m.sum()))
        taken = taken | m
    return out
