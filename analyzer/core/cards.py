"""Cards, ranks, suits and point values.

A card is named by its rank, optionally followed by its suit: ``"A"``, ``"9h"``,
``"Ts"``, ``"10d"``.  Ranks are ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is read as
``T``); suits are ``s h d c``.  Parsing is case-insensitive for suits and for the
letters of ranks.

>>> parse_card("10h")
('T', 'h')
>>> parse_card("q")
('Q', None)
>>> [point("A"), point("9"), point("K")]
[1, 9, 0]
"""

from __future__ import annotations

from functools import lru_cache

from .errors import CardError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS: tuple[str, ...] = ("s", "h", "d", "c")

#: Baccarat point value of each rank: ace 1, pips at face value, ten and faces 0.
POINTS: dict[str, int] = {r: (i + 1 if i < 9 else 0) for i, r in enumerate(RANKS)}

RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}


def parse_rank(text: str) -> str:
    """Return the canonical rank for ``text`` (``"10"`` -> ``"T"``).

    >>> parse_rank("10"), parse_rank("j"), parse_rank("A")
    ('T', 'J', 'A')
    """
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if t not in RANK_INDEX:
        raise CardError(f"unknown rank {text!r} (ranks are {' '.join(RANKS)}, 10 = T)")
    return t


@lru_cache(maxsize=4096)
def parse_card(text: str) -> tuple[str, str | None]:
    """Return ``(rank, suit)`` for a card name; ``suit`` is ``None`` when not given
    (remembered: a log or a batch names the same few cards again and again)."""
    t = text.strip()
    if not t:
        raise CardError("empty card name")
    last = t[-1].lower()
    if len(t) >= 2 and last in SUIT_INDEX:
        return parse_rank(t[:-1]), last
    if len(t) >= 2 and t[-1].isalpha() and t[-1].upper() not in RANK_INDEX:
        raise CardError(f"unknown card {text!r}: suit must be one of {' '.join(SUITS)}")
    return parse_rank(t), None


def parse_cards(text: str) -> list[tuple[str, str | None]]:
    """Parse a space- or comma-separated list of cards.

    >>> parse_cards("5 5 K 9h")
    [('5', None), ('5', None), ('K', None), ('9', 'h')]
    """
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


def point(rank: str) -> int:
    """Point value of a rank (0..9)."""
    return POINTS[parse_rank(rank)]


#: The 52 cards' names, rank-major with suits s h d c (the order of a suited shoe's counts).
CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)


def card_name(rank: str, suit: str | None) -> str:
    """Inverse of :func:`parse_card`: ``("T", "h")`` -> ``"Th"``."""
    return rank + (suit or "")
