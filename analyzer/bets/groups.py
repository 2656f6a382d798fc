"""Functions over a group of cards in the condition language: ``count(all, face)``,
``all(player, colour == red)``, ``of_a_kind(first4)``, ``pairs``, ``kinds``, ``flush``,
``straight``.

Each evaluator reads ``f["card:POS"]`` (the card 0-51 at a position, -1 for no
card), which the card engine (:mod:`analyzer.core.classengine`) supplies, and
the attribute table of the 52 cards (:func:`analyzer.core.features.card_table`).

>>> int(group_function("pairs", ("card1", "card2", "card3"), None)(
...     {"card:card1": np.array([0]), "card:card2": np.array([1]), "card:card3": np.array([8])})[0])
1
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.features import DEAL_POSITIONS, DEAL_SLOTS, DEAL_SLOTS_BY_DRAW, GROUPS, HAND_POSITIONS, card_table


class GroupError(Exception):
    """A parse error of the condition language (raised with its column; the
    parser of :mod:`analyzer.bets.conditions` reports it)."""


CARDS = {k: np.array(v, dtype=np.int64) for k, v in card_table().items()}
_RANK53 = CARDS["rank"]
_SUIT53 = CARDS["suit"]
#: Each card's rank as a 1 in the rank's 4-bit field (``1 << 4 * (rank - 1)``; 0 for no
#: card): summed over a group (at most six cards), each field counts its rank.
_RANK_BIT = np.where(_RANK53 > 0, np.left_shift(1, 4 * (_RANK53 - 1)), 0)


def pred_id(pred) -> str:
    return "" if pred is None else np.packbits(pred).tobytes().hex()


def cached(key: str, fn: Callable) -> Callable:
    """``fn``, remembered in the features mapping (one chunk of the card engine)
    so that the events of a pay table compute each group function once."""
    key = "fn:" + key

    def evaluate(f):
        if key not in f:
            f[key] = fn(f)
        return f[key]

    return evaluate


def group_function(name: str, group: tuple[str, ...], pred: np.ndarray | None, times: int = 2) -> Callable:
    """The evaluator of a function over ``group``: it reads ``f["card:POS"]``, the
    card (0-51, -1 for none) at each position, from the card engine."""
    keys = [f"card:{p}" for p in group]

    def rank_counts(f):
        """The group's number of cards of each rank, A to K (``int8`` arrays)."""
        if "fn:ranks" + "".join(keys) not in f:
            packed = sum(_RANK_BIT.take(f[k]) for k in keys)
            f["fn:ranks" + "".join(keys)] = [((packed >> 4 * x) & 15).astype(np.int8) for x in range(13)]
        return f["fn:ranks" + "".join(keys)]

    if name in ("count", "all", "any"):
        assert pred is not None  # these three test each card
        test = pred
        if name == "count":
            return lambda f: sum(test[f[k]].astype(np.int8) for k in keys)
        if name == "all":
            return lambda f: np.logical_and.reduce([test[f[k]] | (f[k] < 0) for k in keys])
        return lambda f: np.logical_or.reduce([test[f[k]] for k in keys])
    if name == "of_a_kind":
        return lambda f: np.maximum.reduce(rank_counts(f))
    if name in ("pairs", "kinds"):
        return lambda f: sum((c == times).astype(np.int8) for c in rank_counts(f))
    if name == "flush":  # two or more dealt cards, all of one suit
        return lambda f: (
            (sum((f[k] >= 0).astype(np.int8) for k in keys) >= 2)
            & np.logical_or.reduce(
                [np.logical_and.reduce([(_SUIT53[f[k]] == s) | (f[k] < 0) for k in keys]) for s in range(4)]
            )
        )

    def straight(f):
        counts = rank_counts(f)
        n = sum(counts)
        distinct = np.maximum.reduce(counts) <= 1
        present = [c > 0 for c in counts] + [counts[0] > 0]  # ace again above the king
        out = np.zeros(n.shape, dtype=bool)
        for size in range(3, len(group) + 1):
            for low in range(14 - size + 1):
                out |= (n == size) & np.logical_and.reduce(present[low : low + size])
        return out & distinct

    return straight


def parse_group(parser) -> tuple[str, ...]:
    """A group of cards after ``count(``: a group name or ``[position, ...]``."""
    _kind, value, col = parser.take()
    if value in GROUPS:
        return GROUPS[value]
    if value != "[":
        raise GroupError(
            f"expected a group of cards at column {col} ({', '.join(GROUPS)} or "
            f"[position, ...]), found {value or 'end of text'!r}"
        )
    names: list[str] = []
    while True:
        _kind, value, col = parser.take()
        if value not in HAND_POSITIONS + DEAL_POSITIONS:
            raise GroupError(
                f"{value or 'end of text'!r} at column {col} is not a card position "
                f"({', '.join(HAND_POSITIONS + DEAL_POSITIONS)})"
            )
        if value in names:
            raise GroupError(f"position {value} is listed twice at column {col}")
        # two names of one card in some deal (player_card1 is card1; banker_card3 is card5 or card6)
        same = next((n for n in names if set(DEAL_SLOTS_BY_DRAW[n]) & set(DEAL_SLOTS_BY_DRAW[value])), None)
        if same is not None:
            also = "are the same card" if _always_same(same, value) else "can be the same card"
            raise GroupError(f"positions {same} and {value} (column {col}) {also}: a group lists each card once")
        names.append(value)
        _kind, value, col = parser.take()
        if value == "]":
            break
        if value != ",":
            raise GroupError(f"expected ',' or ']' at column {col}, found {value or 'end of text'!r}")
    return tuple(names)


def _always_same(a: str, b: str) -> bool:
    """Whether positions ``a`` and ``b`` name one card whenever both hold one."""
    return len(DEAL_SLOTS[a]) == len(DEAL_SLOTS[b]) == 1 and DEAL_SLOTS[a] == DEAL_SLOTS[b]


#: Most alternatives a condition's all(...) tests are kept as (beyond: not used).
MAX_ALTERNATIVES = 8


def requirements(parts: list[tuple], word: str) -> tuple:
    """The all(...) tests implied by an ``and`` / ``or`` of conditions: for ``and``,
    every pairing of the parts' alternatives (a part without any is no restriction);
    for ``or``, the alternatives of all parts, when each part has some."""
    if word == "or":
        out = tuple(b for p in parts for b in p) if all(parts) else ()
    else:
        out = ((),)
        for p in parts:
            if p:
                out = tuple(a + b for a in out for b in p)
        out = () if out == ((),) else out
    return out if len(out) <= MAX_ALTERNATIVES else ()
