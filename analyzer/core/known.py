"""Known cards at dealing positions: exact odds conditional on them.

Positions are 1-6 in dealing order: P1 B1 P2 B2, then the fifth and sixth cards
off the shoe (which go to whichever hand draws), whether or not the coup uses
them: the same six positions every count of the package is over.  A known card
is a rank, optionally with a suit, and comes from the shoe.

Counting.  The deals counted are the ordered six-card deals whose pinned
positions hold cards of those ranks (or those exact cards).  For an event ``E``
that reads point values only, write ``W_V(E)`` for the ways of ``E`` restricted
to the value sequences showing the pinned *values* (the value engine, unchanged,
on the whole shoe).  Every such sequence's weight holds the factor
``V = prod_v n_v (n_v - 1) ... (n_v - p_v + 1)`` (``p_v`` positions pinned to value
``v``), and a card-level pin only changes that factor into ``R`` (the ordered
ways to put physical cards of the named ranks or cards at the pinned positions),
so ``ways(E | pins) = W_V(E) / V * R`` exactly, over
``deals = R * (N - k) (N - k - 1) ... (N - 5)`` for ``k`` pins.  Summing over every
card that can stand at a position gives back the unconditional ways.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .cards import POINTS, RANKS, SUITS, card_name, parse_card
from .engine import POSITIONS, falling
from .errors import BaccaratError, CardError, ShoeError

POSITION_NAMES = ("P1", "B1", "P2", "B2", "5th", "6th")


class KnownError(BaccaratError):
    """A --known position or card that cannot be used."""


@dataclass(frozen=True)
class Known:
    """Pinned positions: ``((position 1-6, rank, suit or None), ...)`` sorted by position."""

    cards: tuple[tuple[int, str, str | None], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.cards)

    def adding(self, card: KnownCard) -> Known:
        """These cards and ``card`` (:func:`known_card`); a position already pinned is refused."""
        for pos, rank, suit in self.cards:
            if pos == card.pos:
                raise KnownError(f"--known position {pos} is given twice ({card_name(rank, suit)} and {card.text})")
        return Known(tuple(sorted((*self.cards, (card.pos, card.rank, card.suit)))))

    @property
    def values(self) -> tuple[tuple[int, int], ...]:
        """``((position 1-6, point value), ...)``: what the value engine conditions on."""
        return tuple((pos, POINTS[rank]) for pos, rank, _ in self.cards)

    @property
    def suited(self) -> bool:
        return any(s is not None for _, _, s in self.cards)

    def pins(self) -> dict[int, tuple[bool, ...]]:
        """For the card engine: dealing position 0-5 -> which of the 52 cards
        (rank-major, suits s h d c) the known card at it can be."""
        return {
            pos - 1: tuple(RANKS[i // 4] == rank and (suit is None or SUITS[i % 4] == suit) for i in range(52))
            for pos, rank, suit in self.cards
        }

    def describe(self) -> str:
        return ", ".join(f"{POSITION_NAMES[p - 1]} (position {p}) = {card_name(r, s)}" for p, r, s in self.cards)

    def mask(self, table) -> np.ndarray:
        """Value sequences of ``table`` showing the pinned values."""
        cols = (table.p1, table.b1, table.p2, table.b2)
        m = np.ones(table.size, dtype=bool)
        for pos, value in self.values:
            if pos <= 4:
                col = cols[pos - 1]
            else:
                idx = np.arange(table.size)
                col = (idx // (10 if pos == 5 else 1)) % 10
            m &= col == value
        return m

    def physical_ways(self, shoe) -> int:
        """``R``: ordered ways to put physical cards of the shoe at the pinned positions.
        Raises :class:`ShoeError` when the shoe cannot supply them."""
        out = 1
        for rank in RANKS:
            pins = [s for _, r, s in self.cards if r == rank]
            if not pins:
                continue
            have = shoe.rank_counts[rank]
            if len(pins) > have:
                raise ShoeError(f"--known names {len(pins)} card(s) of rank {rank}, but the shoe holds {have}")
            suited = [s for s in pins if s is not None]
            if suited and not shoe.suited:
                raise ShoeError(
                    f"--known {card_name(rank, suited[0])} names a suit, but this shoe's suits are "
                    "unknown; give the shoe per card or name the rank only"
                )
            taken = 0
            for suit in SUITS:
                k = suited.count(suit)
                if k:
                    n = shoe.card_counts[card_name(rank, suit)]
                    if k > n:
                        raise ShoeError(f"--known names {k} x {card_name(rank, suit)}, but the shoe holds {n}")
                    out *= falling(n, k)
                    taken += k
            out *= falling(have - taken, len(pins) - len(suited))
        return out

    def value_ways(self, value_counts) -> int:
        """``V``: the factor every pinned value sequence's weight holds."""
        out = 1
        for v in range(10):
            out *= falling(value_counts[v], sum(1 for _, val in self.values if val == v))
        return out

    def deals(self, shoe) -> int:
        """Ordered six-card deals with the pinned positions holding the known cards."""
        k = len(self.cards)
        return self.physical_ways(shoe) * falling(shoe.cards - k, POSITIONS - k)


_ITEM = re.compile(r"\s*([^=\s]+)\s*=\s*(\S+)\s*")


class KnownCard(NamedTuple):
    """One known card: its position (1-6), rank and suit (``None``: any suit), and the card
    as it was written (for messages)."""

    pos: int
    rank: str
    suit: str | None
    text: str


def known_card(item, card=None) -> KnownCard:
    """One known card: ``"POS=CARD"`` (``"5=Kh"``), or ``item`` the position and ``card``
    the card (a mapping's key and value); one-line errors (:class:`KnownError`).  The one
    reader of a known card: ``--known``'s converter and :func:`parse_known` use it.

    >>> known_card("5 = Kh")
    KnownCard(pos=5, rank='K', suit='h', text='Kh')
    """
    if card is None:
        m = _ITEM.fullmatch(str(item))
        if not m:
            raise KnownError(f"--known {item!r}: expected POS=CARD, e.g. 1=9 or 5=Kh")
        item, card = m.group(1), m.group(2)
    pos_text = str(item).strip()
    if not re.fullmatch(r"[0-9]{1,3}", pos_text) or not 1 <= int(pos_text) <= POSITIONS:
        raise KnownError(
            f"--known position {pos_text!r} is outside 1-6 (1 P1, 2 B1, 3 P2, 4 B2, 5 and 6 the fifth and sixth cards)"
        )
    pos = int(pos_text)
    try:
        rank, suit = parse_card(str(card))
    except CardError as e:
        raise KnownError(f"--known {pos}={card}: {e}") from None
    return KnownCard(pos, rank, suit, str(card))


def parse_known(items) -> Known:
    """``["1=9", "5=Kh"]`` (or a mapping ``{"1": "9"}``) -> :class:`Known`; one-line errors.
    Each card is :func:`known_card`, the cards gathered by :meth:`Known.adding`."""
    cards = (
        [known_card(pos, card) for pos, card in items.items()]
        if isinstance(items, dict)
        else (known_card(item) for item in items)
    )
    known = Known()
    for card in cards:
        known = known.adding(card)
    return known
