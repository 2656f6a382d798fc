"""The shoe: an immutable multiset of cards.

A :class:`Shoe` counts cards by rank and, when known, by suit.  A *suited* shoe
knows the count of every (rank, suit) card; a shoe given by rank counts only, or
one from which a card of unnamed suit was removed, is *rank-only*: its suits are
unknown and bets that look at suits refuse it.

Every operation returns a new shoe; shoes are hashable and compare by content.

>>> shoe = Shoe.standard(decks=8)
>>> shoe.cards, shoe.suited, shoe.value_counts[0]
(416, True, 128)
>>> smaller = shoe.remove("5 5 K 9h")
>>> smaller.cards, smaller.suited, smaller.rank_counts["5"]
(412, False, 30)
>>> eval(repr(smaller)) == smaller
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import repeat
from operator import sub

from .cards import CARD_NAMES, RANK_INDEX, RANKS, SUIT_INDEX, SUITS, card_name, parse_card
from .errors import BaccaratError, ShoeError

MIN_CARDS = 6  # a coup can use six cards
#: The largest shoe: 10,000 decks (520,000 cards).  Counts stay exact beyond it,
#: but every count of such a shoe is a Python integer and nothing real is that big.
MAX_CARDS = 520_000


def _check_count(key: str, n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise ShoeError(f"count for {key!r} must be a whole number, got {_short(n)}")
    if n < 0:
        raise ShoeError(f"count for {key!r} must not be negative, got {_short(n)}")
    if n > MAX_CARDS:
        raise ShoeError(f"count for {key!r} is {_short(n)}, more than a shoe of {MAX_CARDS:,} cards holds")
    return n


def _plain_counts(counts: tuple) -> bool:
    """Whether every count is a plain ``int`` in range (what :func:`_check_count` checks
    one by one, for its message): the common case, in three passes of C."""
    return not set(map(type, counts)) - {int} and min(counts) >= 0 and max(counts) <= MAX_CARDS


_CARD_NAME_SET = frozenset(CARD_NAMES)


@lru_cache(maxsize=2)
def _codes(chars: str, step: int):
    """A byte -> index table (``step`` times a character's place in ``chars``; -10,000 for
    any other byte) for :meth:`Shoe.remove_each`; numpy imported on first use."""
    import numpy as np

    table = np.full(256, -10_000, dtype=np.int64)
    for i, c in enumerate(chars):
        table[ord(c)] = step * i
    return table


@lru_cache(maxsize=1024)
def _slots(name: str) -> tuple[int, int | None]:
    """``(rank index, card index or None)`` of a card name (:func:`parse_card`'s errors)."""
    r, s = parse_card(name)
    i = RANK_INDEX[r]
    return i, None if s is None else 4 * i + SUIT_INDEX[s]


def _left(ranks, cards) -> Shoe:
    """The shoe :meth:`Shoe.remove` leaves; a refusal says it is what the removal left."""
    try:
        return Shoe(ranks, cards)
    except ShoeError as e:
        raise ShoeError(f"after removing those cards: {e}") from None


class Shoe:
    """A finite shoe of cards, counted per rank (and per suit when known)."""

    __slots__ = ("_cards", "_hash", "_ranks")

    def __init__(self, rank_counts: Iterable[int] | None, card_counts: Iterable[int] | None = None):
        """Build from 13 rank counts (A..K), or 52 card counts (rank-major, suits s h d c).

        Prefer the named constructors :meth:`standard`, :meth:`from_counts` and
        :meth:`parse`.
        """
        if card_counts is not None:
            cards = tuple(card_counts)
            if len(cards) != 52:
                raise ShoeError("a suited shoe needs 52 card counts")
            if not _plain_counts(cards):
                cards = tuple(_check_count(card_name(RANKS[i // 4], SUITS[i % 4]), n) for i, n in enumerate(cards))
            quads = iter(cards)
            ranks = tuple(map(sum, zip(quads, quads, quads, quads)))  # each rank's four suits
            given = tuple(rank_counts) if rank_counts is not None else ranks
            if tuple(given) != ranks:
                raise ShoeError("rank counts disagree with card counts")
        else:
            cards = None
            ranks = tuple(rank_counts)  # type: ignore[arg-type]  # None without card_counts: a TypeError
            if len(ranks) != 13:
                raise ShoeError("a shoe needs 13 rank counts (A 2 3 4 5 6 7 8 9 T J Q K)")
            if not _plain_counts(ranks):
                ranks = tuple(_check_count(r, n) for r, n in zip(RANKS, ranks))
        total = sum(ranks)
        if total < MIN_CARDS:
            raise ShoeError(f"a shoe needs at least {MIN_CARDS} cards to deal a coup, this one has {total}")
        if total > MAX_CARDS:
            raise ShoeError(f"a shoe of {total:,} cards is larger than the {MAX_CARDS:,} (10,000 decks) accepted")
        self._ranks = ranks
        self._cards = cards
        self._hash = hash((ranks, cards))

    # -- constructors -------------------------------------------------------------
    @classmethod
    def standard(cls, decks: int = 8) -> Shoe:
        """``decks`` full 52-card decks (suited); the same value for the same ``decks``
        (a shoe is immutable: the last few are kept)."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:  # type: ignore[redundant-expr]  # checked at run time
            raise ShoeError(f"number of decks must be a whole number of at least 1, got {_short(decks)}")
        if decks * 52 > MAX_CARDS:
            raise ShoeError(f"{_short(decks)} decks is more than the {MAX_CARDS // 52:,} accepted")
        if cls is not Shoe:
            return cls([4 * decks] * 13, [decks] * 52)
        return _standard(decks)

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> Shoe:
        """From ``{rank: count}`` (rank-only shoe) or ``{card: count}`` (suited shoe).

        Names not given count zero.  Ranks and suited cards cannot be mixed.
        """
        if not counts:
            raise ShoeError("empty shoe specification")
        parsed = {}
        for key, n in counts.items():
            card = parse_card(str(key))
            if card in parsed:
                raise ShoeError(f"{card_name(*card)!r} is given twice")
            parsed[card] = _check_count(str(key), n)
        suited = {s is not None for _, s in parsed}
        if len(suited) > 1:
            raise ShoeError("give counts either per rank (A=32) or per card (As=8), not both")
        if suited == {True}:
            cards = [0] * 52
            for (r, s), n in parsed.items():
                assert s is not None  # suited == {True}
                cards[4 * RANK_INDEX[r] + SUIT_INDEX[s]] = n
            return cls(None, cards)
        ranks = [0] * 13
        for (r, _), n in parsed.items():
            ranks[RANK_INDEX[r]] = n
        return cls(ranks)

    @classmethod
    def parse(cls, spec: str) -> Shoe:
        """Parse ``"A=32,2=32,...,K=32"`` (per rank) or ``"As=8,Ah=8,..."`` (per card).

        >>> Shoe.parse("A=2, 5=3, K=4").cards
        9
        """
        if not isinstance(spec, str) or not spec.strip():  # type: ignore[redundant-expr]  # checked at run time
            raise ShoeError("empty shoe specification")
        counts: dict[str, int] = {}
        if ";" in spec:
            raise ShoeError(f"shoe specification {_short(spec)}: separate items with ',' (not ';')")
        for item in spec.split(","):
            item = item.strip()
            if not item:
                raise ShoeError(f"shoe specification {_short(spec)} has an empty item (two commas?)")
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise ShoeError(f"malformed shoe item {item!r}: write RANK=COUNT or CARD=COUNT")
            if not re.fullmatch(r"[0-9]{1,7}", value):
                raise ShoeError(
                    f"count for {key!r} must be a whole number from 0 to {MAX_CARDS:,}, got {_short(value)}"
                )
            card = card_name(*parse_card(key))
            if card in counts:
                raise ShoeError(f"{key!r} is given twice")
            counts[card] = int(value)
        return cls.from_counts(counts)

    # -- operations ---------------------------------------------------------------
    def remove(self, cards: str | Iterable[str]) -> Shoe:
        """A new shoe without the given cards (``"5 5 K 9h"``).

        A card with a suit removes that exact card (known from a suited shoe);
        a card without a suit removes one card of that rank and makes the
        result rank-only, since which suit left the shoe is then unknown.
        """
        names = (
            cards.replace(",", " ").split()
            if isinstance(cards, str)
            else cards
            if isinstance(cards, list)
            else list(cards)
        )
        # each distinct name parsed once (a batch line names hundreds of cards, of 52 kinds);
        # any shortfall is then found again card by card below, for the message naming the
        # first card missing
        tally = Counter(names)
        if self._cards is not None and tally.keys() <= _CARD_NAME_SET:
            # every name a suited card as this module writes it ("9h"): subtracted in C
            left = list(map(sub, self._cards, map(tally.get, CARD_NAMES, repeat(0))))
            if min(left) >= 0:
                return _left(None, left)
        ranks = list(self._ranks)
        card_counts = list(self._cards) if self._cards is not None else None
        short = suitless = False
        for name, n in tally.items():
            i, j = _slots(name)
            ranks[i] -= n
            short |= ranks[i] < 0
            if j is None:
                suitless = True
            elif card_counts is not None:
                card_counts[j] -= n
                short |= card_counts[j] < 0
        if not short:
            return _left(ranks, None if suitless else card_counts)
        parsed = [parse_card(c) for c in names]
        ranks = list(self._ranks)
        card_counts = list(self._cards) if self._cards is not None else None
        for r, s in parsed:
            i = RANK_INDEX[r]
            if ranks[i] == 0:
                raise ShoeError(f"cannot remove {card_name(r, s)}: no {r} left in the shoe")
            ranks[i] -= 1
            if card_counts is not None:
                if s is None:
                    card_counts = None
                else:
                    j = 4 * i + SUIT_INDEX[s]
                    if card_counts[j] == 0:
                        raise ShoeError(f"cannot remove {card_name(r, s)}: none left in the shoe")
                    card_counts[j] -= 1
        return _left(ranks, card_counts)

    def remove_each(self, removals: list[str]) -> list[Shoe | None]:
        """``[self.remove(r) for r in removals]`` for removals written the common way, counted
        together: each ``r`` a string of suited card names as this module writes them (``"As
        9h Td"``, one space between, or ``""``) from a suited shoe.  ``None`` stands for any
        other removal, and for one :meth:`remove` would refuse (it then says why).

        >>> one = Shoe.standard(1)
        >>> one.remove_each(["As 9h", "", "5 5", "As As"]) == [one.remove("As 9h"), one, None, None]
        True
        """
        out: list[Shoe | None] = [None] * len(removals)
        if self._cards is None or not removals:
            return out
        import numpy as np

        picked = []
        for i, r in enumerate(removals):
            if not r:
                out[i] = self
            elif len(r) % 3 == 2 and r.isascii():
                picked.append(i)
        if not picked:
            return out
        texts = [removals[i] for i in picked]
        buffer = (" ".join(texts) + " ").encode("ascii")
        sizes = np.array([(len(t) + 1) // 3 for t in texts], dtype=np.int64)
        rows = np.frombuffer(buffer, dtype=np.uint8).reshape(-1, 3)
        slot = _codes("".join(RANKS), 4)[rows[:, 0]] + _codes("".join(SUITS), 1)[rows[:, 1]]  # < 0: not a card
        good = (slot >= 0) & (rows[:, 2] == 32)
        owner = np.repeat(np.arange(len(texts)), sizes)
        usable = np.bincount(owner[~good], minlength=len(texts)) == 0
        counts = np.bincount(owner[good] * 52 + slot[good], minlength=52 * len(texts)).reshape(-1, 52)
        left = np.array(self._cards, dtype=np.int64) - counts
        ranks = left.reshape(-1, 13, 4).sum(axis=2)
        total = ranks.sum(axis=1)
        usable &= (left.min(axis=1) >= 0) & (total >= MIN_CARDS)
        for i, ok, card_row, rank_row in zip(picked, usable.tolist(), left.tolist(), ranks.tolist()):
            if ok:
                out[i] = Shoe._counted(tuple(rank_row), tuple(card_row))
        return out

    @classmethod
    def _counted(cls, ranks: tuple[int, ...], cards: tuple[int, ...] | None) -> Shoe:
        """A shoe of counts already checked (plain ints, in range, ranks summing the cards)."""
        shoe = object.__new__(cls)
        shoe._ranks, shoe._cards, shoe._hash = ranks, cards, hash((ranks, cards))
        return shoe

    # -- views --------------------------------------------------------------------
    @property
    def cards(self) -> int:
        """Number of cards in the shoe."""
        return sum(self._ranks)

    @property
    def suited(self) -> bool:
        """True when the count of every (rank, suit) card is known."""
        return self._cards is not None

    @property
    def rank_counts(self) -> dict[str, int]:
        """``{rank: count}`` for all 13 ranks."""
        return dict(zip(RANKS, self._ranks))

    @property
    def card_counts(self) -> dict[str, int]:
        """``{card: count}`` for all 52 cards; raises for a rank-only shoe."""
        if self._cards is None:
            raise ShoeError(
                "this shoe's suits are unknown (it was given by rank, or a card of unnamed suit was removed)"
            )
        return dict(zip(CARD_NAMES, self._cards))

    @property
    def rank_tuple(self) -> tuple[int, ...]:
        """The 13 rank counts, A..K."""
        return self._ranks

    @property
    def card_tuple(self) -> tuple[int, ...] | None:
        """The 52 card counts (rank-major, suits s h d c), or ``None`` if rank-only."""
        return self._cards

    @property
    def value_counts(self) -> tuple[int, ...]:
        """Number of cards of each point value 0..9."""
        r = self._ranks
        return (r[9] + r[10] + r[11] + r[12],) + r[:9]

    def spec(self) -> str:
        """Canonical text accepted by :meth:`parse` (zero counts left out)."""
        if self._cards is not None:
            items = zip((card_name(r, s) for r in RANKS for s in SUITS), self._cards)
        else:
            items = zip(RANKS, self._ranks)
        return ",".join(f"{k}={n}" for k, n in items if n)

    def describe(self) -> str:
        """Short human description: ``8 decks (416 cards)`` or the rank counts."""
        decks = self.decks
        if decks is not None:
            return f"{decks} deck{'s' if decks > 1 else ''} ({self.cards} cards)"
        counts = " ".join(f"{r}={n}" for r, n in zip(RANKS, self._ranks))
        return f"{self.cards} cards{'' if self.suited else ', suits unknown'}: {counts}"

    @property
    def decks(self) -> int | None:
        """``d`` if this is exactly ``Shoe.standard(d)``, else ``None``."""
        d = self._ranks[0] // 4
        if d >= 1 and self._cards is not None and self._cards == (d,) * 52:
            return d
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shoe):
            return NotImplemented
        return self._ranks == other._ranks and self._cards == other._cards

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        """Evaluates back to an equal shoe: ``Shoe.standard(d)`` for full decks.

        >>> Shoe.standard(8), Shoe.parse("A=2,K=4")
        (Shoe.standard(8), Shoe.parse('A=2,K=4'))
        """
        decks = self.decks
        return f"Shoe.standard({decks})" if decks is not None else f"Shoe.parse({self.spec()!r})"

    def __str__(self) -> str:
        return self.describe()


def _short(value: object, limit: int = 40) -> str:
    """``repr`` of a value for a message, cut when long (a 600-digit number, say)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a number of more than 38 digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


__all__ = ["Shoe", "ShoeError", "BaccaratError", "MIN_CARDS", "MAX_CARDS"]


@lru_cache(maxsize=32)
def _standard(decks: int) -> Shoe:
    return Shoe([4 * decks] * 13, [decks] * 52)
