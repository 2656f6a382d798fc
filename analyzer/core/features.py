"""The features of a coup that bets can read: names, kinds and meanings.

The engines compute these (:mod:`analyzer.core.engine` the point-value ones
over every value sequence, :mod:`analyzer.core.cardengine` the rank and suit
ones); the condition language (:mod:`analyzer.bets.conditions`) names them.

>>> FEATURES["player_total"]
('int', "Player's final total 0-9")
>>> sorted(SUIT_FEATURES)[:2]
['banker_suit1', 'banker_suit2']
"""

from __future__ import annotations

#: feature name -> (kind, description).  kind: "int", "bool", "winner" or "suit".
#: Point-value features (this first group) are computed for every card of the coup.
FEATURES: dict[str, tuple[str, str]] = {
    "winner": ("winner", "player, banker or tie"),
    "player_total": ("int", "Player's final total 0-9"),
    "banker_total": ("int", "Banker's final total 0-9"),
    "winning_total": ("int", "final total of the winning hand (the tied total on a tie)"),
    "margin": ("int", "winning total minus losing total, 0-9 (0 on a tie)"),
    "player_cards": ("int", "number of cards in Player's hand, 2 or 3"),
    "banker_cards": ("int", "number of cards in Banker's hand, 2 or 3"),
    "cards": ("int", "number of cards dealt in the coup, 4-6"),
    "natural": ("bool", "either hand has a two-card 8 or 9"),
    "player_natural": ("bool", "Player's first two cards total 8 or 9"),
    "banker_natural": ("bool", "Banker's first two cards total 8 or 9"),
    "player_two_total": ("int", "total of Player's first two cards"),
    "banker_two_total": ("int", "total of Banker's first two cards"),
    "player_value1": ("int", "point value of Player's first card"),
    "player_value2": ("int", "point value of Player's second card"),
    "player_value3": ("int", "point value of Player's third card, -1 if none"),
    "banker_value1": ("int", "point value of Banker's first card"),
    "banker_value2": ("int", "point value of Banker's second card"),
    "banker_value3": ("int", "point value of Banker's third card, -1 if none"),
    "max_value": ("int", "highest point value among all cards of the coup"),
}

#: Card features: ranks and suits of the first two cards of each hand.  Ranks
#: are numbered A=1, 2..9, T=10, J=11, Q=12, K=13 (write ``K`` or ``13``).
CARD_FEATURES: dict[str, tuple[str, str]] = {
    "player_pair": ("bool", "Player's first two cards have the same rank (10-J is not a pair)"),
    "banker_pair": ("bool", "Banker's first two cards have the same rank"),
    "player_suited_pair": ("bool", "Player's first two cards have the same rank and suit"),
    "banker_suited_pair": ("bool", "Banker's first two cards have the same rank and suit"),
    "player_suited": ("bool", "Player's first two cards have the same suit"),
    "banker_suited": ("bool", "Banker's first two cards have the same suit"),
    "player_rank1": ("int", "rank of Player's first card, A=1 .. K=13"),
    "player_rank2": ("int", "rank of Player's second card"),
    "banker_rank1": ("int", "rank of Banker's first card"),
    "banker_rank2": ("int", "rank of Banker's second card"),
    "player_suit1": ("suit", "suit of Player's first card: spades, hearts, diamonds or clubs"),
    "player_suit2": ("suit", "suit of Player's second card"),
    "banker_suit1": ("suit", "suit of Banker's first card"),
    "banker_suit2": ("suit", "suit of Banker's second card"),
}
FEATURES.update(CARD_FEATURES)

#: Card features that need the shoe's suits.
SUIT_FEATURES = frozenset(k for k in CARD_FEATURES if "suit" in k)

#: The smallest and largest value of every non-boolean feature (codes for
#: ``winner``: player 0, banker 1, tie 2; for suits: spades 0 .. clubs 3).
#: The condition language uses these to keep arithmetic exact: a comparison
#: with a number outside a feature's range is decided without computing.
RANGES: dict[str, tuple[int, int]] = {
    "winner": (0, 2),
    "player_total": (0, 9), "banker_total": (0, 9), "winning_total": (0, 9), "margin": (0, 9),
    "player_cards": (2, 3), "banker_cards": (2, 3), "cards": (4, 6),
    "player_two_total": (0, 9), "banker_two_total": (0, 9),
    "player_value1": (0, 9), "player_value2": (0, 9), "player_value3": (-1, 9),
    "banker_value1": (0, 9), "banker_value2": (0, 9), "banker_value3": (-1, 9),
    "max_value": (0, 9),
    "player_rank1": (1, 13), "player_rank2": (1, 13), "banker_rank1": (1, 13), "banker_rank2": (1, 13),
    "player_suit1": (0, 3), "player_suit2": (0, 3), "banker_suit1": (0, 3), "banker_suit2": (0, 3),
}


# --- Every dealt card ----------------------------------------------------------
#: Card positions a bet can name.  Hand positions, and dealing positions
#: (``card1..card4`` = P1 B1 P2 B2; ``card5`` and ``card6`` the fifth and sixth
#: cards dealt, which go to whichever hand draws).
HAND_POSITIONS = ("player_card1", "player_card2", "player_card3",
                  "banker_card1", "banker_card2", "banker_card3")
DEAL_POSITIONS = ("card1", "card2", "card3", "card4", "card5", "card6")
#: Positions that always hold a card, by dealing order (index into P1 B1 P2 B2).
FIRST_FOUR = {"player_card1": 0, "banker_card1": 1, "player_card2": 2, "banker_card2": 3,
              "card1": 0, "card2": 1, "card3": 2, "card4": 3}

#: Dealing positions (0-5) a named position can stand at (a hand's third card is the
#: fifth card dealt, or the Banker's the sixth when the Player drew).
DEAL_SLOTS = {**{name: (slot,) for name, slot in FIRST_FOUR.items()},
              "card5": (4,), "card6": (5,), "player_card3": (4,), "banker_card3": (4, 5)}

#: Groups of cards the counting functions take: name -> positions.
GROUPS: dict[str, tuple[str, ...]] = {
    "player": HAND_POSITIONS[:3],
    "banker": HAND_POSITIONS[3:],
    "first4": DEAL_POSITIONS[:4],
    "all": DEAL_POSITIONS,
}

#: What a card-level predicate reads about one card (in ``count(GROUP, ...)`` etc.).
CARD_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "rank": ("int", "rank, A=1 .. K=13"),
    "suit": ("suit", "suit: spades, hearts, diamonds or clubs"),
    "colour": ("colour", "colour: red (hearts, diamonds) or black (spades, clubs)"),
    "value": ("int", "point value 0-9"),
    "face": ("bool", "a face card: J, Q or K"),
    "ten": ("bool", "a ten"),
}
CARD_RANGES: dict[str, tuple[int, int]] = {"rank": (1, 13), "suit": (0, 3), "colour": (0, 1), "value": (0, 9)}

#: feature name -> (position, attribute): ``player_card3_rank`` and the like.  A
#: position with no card reads rank 0, suit and colour -1, value -1, and false.
POSITION_FEATURES: dict[str, tuple[str, str]] = {
    f"{pos}_{attr}": (pos, attr)
    for pos in HAND_POSITIONS + DEAL_POSITIONS
    for attr in ("rank", "suit", "colour", "value", "face", "ten", "dealt")
}
for _name, (_pos, _attr) in POSITION_FEATURES.items():
    _where = _pos.replace("_", " ")
    if _attr == "dealt":
        FEATURES[_name] = ("bool", f"{_where} was dealt")
    else:
        _kind, _what = CARD_ATTRIBUTES[_attr]
        FEATURES[_name] = (_kind, f"{_where}: {_what} (no card: " +
                           ("false)" if _kind == "bool" else "0)" if _attr == "rank" else "-1)"))
        if _attr in CARD_RANGES:
            lo, hi = CARD_RANGES[_attr]
            RANGES[_name] = (0 if _attr == "rank" else -1, hi)


def card_table() -> dict[str, list[int]]:
    """Attributes of the 52 cards (rank-major, suits s h d c), plus a 53rd entry
    for "no card" (read at index -1): what every card feature is computed from.

    >>> t = card_table()
    >>> t["rank"][:5], t["suit"][:5], t["colour"][4:8], t["face"][40], t["rank"][-1]
    ([1, 1, 1, 1, 2], [0, 1, 2, 3, 0], [1, 0, 0, 1], 1, 0)
    """
    out: dict[str, list[int]] = {k: [] for k in ("rank", "suit", "colour", "value", "face", "ten")}
    for i in range(52):
        rank, suit = i // 4 + 1, i % 4
        out["rank"].append(rank)
        out["suit"].append(suit)
        out["colour"].append(0 if suit in (1, 2) else 1)   # red 0, black 1
        out["value"].append(rank if rank <= 9 else 0)
        out["face"].append(int(rank >= 11))
        out["ten"].append(int(rank == 10))
    for k, none in (("rank", 0), ("suit", -1), ("colour", -1), ("value", -1), ("face", 0), ("ten", 0)):
        out[k].append(none)
    return out
