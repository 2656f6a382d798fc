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
