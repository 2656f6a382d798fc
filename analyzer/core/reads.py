"""What a bet's conditions read of the coup, for the card engine: which point-value
features of the first four cards it reads, whether its count depends on the drawing
rules, and the classes of cards it tells apart (:mod:`analyzer.core.classengine`)."""

from __future__ import annotations

import numpy as np

from .features import CARD_TABLE, FIRST_FOUR, REGISTRY

__all__ = ["CARD_TABLE", "FIRST_FOUR_VALUES", "first_four_reads", "reads_drawing", "classes_for"]

#: Point-value features of the first four cards (the drawing does not change them):
#: name -> the positions it reads (from the registry).
FIRST_FOUR_VALUES = {n: f.positions for n, f in REGISTRY.items() if f.level == "value" and not f.drawing}


def first_four_reads(features) -> tuple[set, set]:
    """The card keys and positions the point-value features of the first four cards
    read, for a bet counted without the drawing."""
    names = [n for n in features if n in FIRST_FOUR_VALUES]
    return ({("attr", "value")} if names else set()), {p for n in names for p in FIRST_FOUR_VALUES[n]}


def reads_drawing(features, positions) -> bool:
    """True when a condition's count depends on the drawing rules: it reads a feature
    the registry marks ``drawing`` (a total, the outcome, a third card, whether a card
    was dealt) or a position beyond the first four."""
    return any(REGISTRY[n].drawing for n in features if n in REGISTRY) or any(p not in FIRST_FOUR for p in positions)


def classes_for(card_keys, with_value: bool) -> np.ndarray:
    """Class id (0..K-1) of each of the 52 cards: cards alike in every key (and in
    point value when ``with_value``) share a class.

    >>> k = classes_for({("pred", tuple(r == 9 for r in range(1, 14) for _ in range(4)))}, False)
    >>> int(k.max()) + 1
    2
    """
    cols = []
    for key in sorted(card_keys, key=repr):
        if key[0] == "attr":
            cols.append(CARD_TABLE[key[1]][:52])
        else:
            cols.append(np.array(key[1], dtype=np.int64))
    if with_value:
        cols.append(CARD_TABLE["value"][:52])
    if not cols:
        return np.zeros(52, dtype=np.int64)
    _, inverse = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)
    return inverse.ravel().astype(np.int64)
