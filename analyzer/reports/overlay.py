"""Multiplier overlays (Lightning Baccarat): the exact RTP of a bet whose pay is multiplied
by factors read from the dealt cards' identities under an independent random overlay.

The overlay: before the coup, ``k`` card identities (rank and suit) are drawn without
replacement from a virtual 52-card deck (``k`` fixed, or drawn from a stated
distribution), and each gets a multiplier drawn independently from a stated
distribution (exact fractions summing to 1).  When a bet wins, ``M`` is the product of
the multipliers of the winning hand's cards that match a marked identity (``M = 1``
when none does); per card by default (two dealt copies of a marked identity multiply
twice: the only reading under which Evolution's stated Tie maximum, 5 x 8**6 with at
most five Lightning cards, can be reached), or once per identity.  ``M`` may be capped.
A winning bet pays ``pays * min(M, cap) + offset`` to 1 (Banker: ``M - 0.05`` to 1, its
5% commission taken on the stake), a Player or Banker bet is returned on a tie, and a
fee is paid on each stake: ``fee="stake"`` (the fee is ``f`` times the stake, paid on
top: a stake of 1 costs ``1 + f``) or ``fee="total"`` (the fee is ``f`` of the outlay).

How it is counted, exactly.  For one coup the overlay's expectation depends only on the
*multiplicity pattern* of the winning hand's identities (``(1, 1, 1)``: three distinct
identities, ``(2, 1)``: one repeated, ...): with ``j`` distinct identities, a given set
``T`` of ``t`` of them is exactly the marked part with probability
``C(52 - j, k - t) / C(52, k)``, and the marked ones' multipliers are independent, so
``E[M] = sum_t C(52 - j, k - t) / C(52, k) * e_t(mu_m1, ..., mu_mj)`` with
``mu_m = E[X**m]`` (per card) and ``e_t`` the elementary symmetric sums; the code sums
the same thing as the exact joint distribution of (identities marked, product) over the
hand's identities, which a cap needs (:meth:`Overlay.expected_multiplier`, cached per
pattern: a few dozen patterns in all).  So the whole RTP needs, per winner, the number
of ordered six-card deals by pattern: :func:`pattern_ways`.  That
count is built from the value-level coups (every ``10**6`` value sequence dealt at once
by :func:`analyzer.core.rules.deal`), grouped by how many of the winning hand's and of
the other cards hold each point value (the identity weight depends on nothing else),
then, per point value, summed over the set partitions of those cards into identities
(injective choices of identities of that value, each weighted by the falling factorial
of its copies in the shoe); the pairs, which read only the hand's first two cards, are
counted directly.  This route was chosen over the condition language, whose card
features read the first two cards of a hand only.  Deal counts are integers over
``falling(cards, 6)`` ordered deals; the overlay's expectations are exact fractions; the
RTP is one Fraction.  8 decks: under a second.

>>> from analyzer import Shoe
>>> ways = pattern_ways(Shoe.standard(8))
>>> sum(ways["player"].values())              # the Player's wins, as analyze() counts them
2230518282592256
>>> lb = LIGHTNING_BETS
>>> rtp(Shoe.standard(8), lb["player"], Overlay.of(k=0, multipliers={2: 1}, fee=0))
Fraction(19283843717413, 19524993263685)
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Any

import numpy as np

from ..core.engine import falling
from ..core.errors import BaccaratError
from ..core.rules import PUNTO_BANCO, Rules, deal
from ..core.shoe import Shoe

#: The virtual deck the marked identities are drawn from.
DECK = 52
#: The point value of each identity 0-51 (rank-major, suits s h d c).
IDENTITY_VALUE = tuple(min(i // 4 + 1, 10) % 10 for i in range(DECK))
FEES = ("stake", "total")
PER = ("card", "identity")
#: Which cards a Tie's multipliers read: every card dealt (Lightning's), or one hand's.
TIE_CARDS = ("all", "player", "banker")


class OverlayError(BaccaratError):
    """An overlay that cannot be: probabilities not summing to 1, a fee of 100%..."""


def _distribution(d: dict, what: str, lo: Fraction | None = None) -> tuple[tuple[Any, Fraction], ...]:
    out = []
    for key, p in d.items():
        p = Fraction(p)
        if p < 0:
            raise OverlayError(f"{what}: the probability of {key} is negative ({p})")
        if lo is not None and Fraction(key) < lo:
            raise OverlayError(f"{what}: {key} is below {lo}")
        if p:
            out.append((key, p))
    total = sum(p for _, p in out)
    if total != 1:
        raise OverlayError(f"{what}: the probabilities sum to {total} ({float(total):.6g}), not 1")
    return tuple(sorted(out, key=lambda kp: Fraction(kp[0])))


@dataclass(frozen=True)
class Overlay:
    """A stated overlay; build it with :meth:`of`, which checks it.

    ``cards``: ``(k, probability)`` of the number of marked identities; ``multipliers``:
    ``(multiplier, probability)``; ``fee`` a fraction in ``[0, 1)``; ``fee_mode``
    :data:`FEES`; ``per`` :data:`PER`; ``cap`` the largest product paid, or ``None``.

    >>> Overlay.of(k={1: "1/2", 2: "1/2"}, multipliers={2: 1}).cards
    ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
    >>> Overlay.of(k=1, multipliers={2: "1/2", 3: "1/3"})
    Traceback (most recent call last):
    ...
    analyzer.reports.overlay.OverlayError: multipliers: the probabilities sum to 5/6 (0.833333), not 1
    """

    cards: tuple[tuple[int, Fraction], ...]
    multipliers: tuple[tuple[Fraction, Fraction], ...]
    fee: Fraction = Fraction(1, 5)
    fee_mode: str = "stake"
    per: str = "card"
    cap: Fraction | None = None

    @classmethod
    def of(
        cls, k, multipliers: dict, fee=Fraction(1, 5), fee_mode: str = "stake", per: str = "card", cap=None
    ) -> Overlay:
        ks = _distribution(k if isinstance(k, dict) else {k: 1}, "lightning cards")
        for n, _ in ks:
            if not isinstance(n, int) or not 0 <= n <= DECK:
                raise OverlayError(f"lightning cards: {n} is not a whole number 0-{DECK}")
        mult = _distribution({Fraction(x): p for x, p in multipliers.items()}, "multipliers", lo=Fraction(1))
        fee = Fraction(fee)
        if not 0 <= fee < 1:
            raise OverlayError(f"fee: {fee} is not a fraction of the stake in [0, 1)")
        if fee_mode not in FEES:
            raise OverlayError(f"fee mode: {fee_mode!r} is not one of {', '.join(FEES)}")
        if per not in PER:
            raise OverlayError(f"multipliers per: {per!r} is not one of {', '.join(PER)}")
        if cap is not None and Fraction(cap) < 1:
            raise OverlayError(f"cap: {cap} is below 1")
        return cls(
            ks, tuple((Fraction(x), p) for x, p in mult), fee, fee_mode, per, None if cap is None else Fraction(cap)
        )

    def expected_multiplier(self, pattern: tuple[int, ...]) -> Fraction:
        """``E[min(M, cap)]`` for a winning hand of identity multiplicities ``pattern``.

        >>> o = Overlay.of(k=1, multipliers={2: 1})
        >>> o.expected_multiplier(()), o.expected_multiplier((1,)), o.expected_multiplier((2,))
        (Fraction(1, 1), Fraction(53, 52), Fraction(55, 52))
        """
        return _expected(self.cards, self.multipliers, self.per, self.cap, tuple(sorted(pattern)))

    def unlit(self, pattern: tuple[int, ...]) -> Fraction:
        """The probability that none of the ``len(pattern)`` identities of a winning hand is marked.

        >>> Overlay.of(k=1, multipliers={2: 1}).unlit((1, 2))
        Fraction(25, 26)
        """
        j = len(pattern)
        return sum((pk * Fraction(comb(DECK - j, k), comb(DECK, k)) for k, pk in self.cards), Fraction(0))


@lru_cache(maxsize=4096)
def _expected(cards, multipliers, per, cap, pattern) -> Fraction:
    j = len(pattern)
    # state (marked so far, product) -> probability of the multipliers drawn for the marked
    states: dict[tuple[int, Fraction], Fraction] = {(0, Fraction(1)): Fraction(1)}
    for m in pattern:
        power = 1 if per == "identity" else m
        nxt: dict[tuple[int, Fraction], Fraction] = {}
        for (t, p), w in states.items():
            nxt[(t, p)] = nxt.get((t, p), Fraction(0)) + w
            for x, q in multipliers:
                key = (t + 1, p * x**power)
                nxt[key] = nxt.get(key, Fraction(0)) + w * q
        states = nxt
    total = Fraction(0)
    for k, pk in cards:
        if k > DECK:
            continue
        for (t, p), w in states.items():
            hyper = Fraction(comb(DECK - j, k - t), comb(DECK, k)) if t <= k else 0
            if hyper:
                total += pk * hyper * w * (p if cap is None else min(p, cap))
    return total


@dataclass(frozen=True)
class OverlayBet:
    """A bet on ``outcome`` (``player``, ``banker`` or ``tie``) paying ``pays * M + offset``
    to 1 when it wins, returned on a tie when ``push_on_tie``; ``base`` its pay to 1 in
    the plain game (for the report)."""

    name: str
    outcome: str
    pays: Fraction
    offset: Fraction = Fraction(0)
    push_on_tie: bool = False
    #: added to the pay when the winning hand holds no marked identity (a commission taken
    #: on unmultiplied wins only: ``pays=1, unlit=-1/20``)
    unlit: Fraction = Fraction(0)


#: Evolution's Lightning Baccarat main bets: Player M:1, Banker (M - 0.05):1, Tie 5M:1
#: (the game help as quoted on livedealer.org: "Banker 1-512:1, 95% of your Banker bet is
#: returned if the Banker wins", a Tie "5:1 ... multiplied by 4 = 20").
#: The pairs pay 9:1 times the product of the pair's two cards' multipliers (the same
#: thread: "Player Pair & Banker Pair side bet payouts of 9:1 ... up to a max of 576:1").
LIGHTNING_BETS = {
    "player": OverlayBet("player", "player", Fraction(1), Fraction(0), True),
    "banker": OverlayBet("banker", "banker", Fraction(1), Fraction(-1, 20), True),
    "tie": OverlayBet("tie", "tie", Fraction(5)),
    "player_pair": OverlayBet("player_pair", "player_pair", Fraction(9)),
    "banker_pair": OverlayBet("banker_pair", "banker_pair", Fraction(9)),
}


def _set_partitions(items: int):
    """Every partition of ``range(items)`` into blocks (lists of indices)."""
    if items == 0:
        yield []
        return
    for part in _set_partitions(items - 1):
        for i in range(len(part)):
            yield part[:i] + [part[i] + [items - 1]] + part[i + 1 :]
        yield part + [[items - 1]]


@cache
def _injective(copies: tuple[int, ...], sizes: tuple[int, ...]) -> int:
    """Sum over injective choices of an identity per block of ``prod falling(copies, size)``."""
    dp = {0: 1}
    for c in copies:
        nxt = dict(dp)
        for mask, w in dp.items():
            for b, s in enumerate(sizes):
                if not mask >> b & 1:
                    f = falling(c, s)
                    if f:
                        nxt[mask | 1 << b] = nxt.get(mask | 1 << b, 0) + w * f
        dp = nxt
    return dp.get((1 << len(sizes)) - 1, 0)


@cache
def _class_patterns(copies: tuple[int, ...], winning: int, other: int) -> dict[tuple[int, ...], int]:
    """For ``winning + other`` dealt cards of one point value (identities with ``copies``
    copies each): pattern of the winning cards' multiplicities -> identity-level ways."""
    out: Counter = Counter()
    for part in _set_partitions(winning + other):
        sizes = tuple(len(b) for b in part)
        w = _injective(copies, sizes)
        if w:
            out[tuple(sorted(sum(1 for i in b if i < winning) for b in part if min(b) < winning))] += w
    return dict(out)


@lru_cache(maxsize=4)
def _value_coups(rules: Rules, tie_cards: str = "all") -> dict[tuple[int, tuple[tuple[int, int], ...]], int]:
    """Value-level coups grouped: ``(winner, ((winning, other) per point value 0-9))`` ->
    number of value sequences (each coup once); a tie's winning cards are ``tie_cards``
    (:data:`TIE_CARDS`)."""
    grid = np.indices((10,) * 6, dtype=np.int64).reshape(6, -1)
    d = deal(rules, *grid)
    used = d.cards.astype(np.int64)
    keep = ((used >= 5) | (grid[4] == 0)) & ((used >= 6) | (grid[5] == 0))
    grid, used, winner = grid[:, keep], used[keep], d.winner[keep].astype(np.int64)
    pdrew = d.player_drew[keep]
    n = grid.shape[1]
    dealt = np.arange(6)[:, None] < used[None, :]
    player = np.zeros((6, n), dtype=bool)
    player[0] = player[2] = True
    player[4] = pdrew
    banker = dealt & ~player
    tie = {"all": dealt, "player": player & dealt, "banker": banker}[tie_cards]
    win = np.where(winner == 0, player, np.where(winner == 1, banker, tie))
    key = winner.copy()
    for v in range(10):
        is_v = grid == v
        for mask in (win, dealt & ~win):
            key = key * 7 + (is_v & mask).sum(axis=0)
    keys, counts = np.unique(key, return_counts=True)
    out = {}
    for k, c in zip(keys.tolist(), counts.tolist()):
        digits = []
        for _ in range(20):
            k, r = divmod(k, 7)
            digits.append(r)
        digits.reverse()
        out[(k, tuple((digits[2 * v], digits[2 * v + 1]) for v in range(10)))] = c
    return out


WINNER_NAMES = ("player", "banker", "tie")


def pattern_ways(
    shoe: Shoe, rules: Rules = PUNTO_BANCO, tie_cards: str = "all"
) -> dict[str, dict[tuple[int, ...], int]]:
    """Winner -> (multiplicity pattern of the winning hand's identities -> ordered six-card
    deals of ``shoe``); the winning hand of a tie is all the cards dealt (``tie_cards="all"``)
    or the Player's or the Banker's hand (:data:`TIE_CARDS`).  The ways of the
    three winners sum to ``falling(shoe.cards, 6)``.  Also ``player_pair`` and
    ``banker_pair``: the deals whose hand's first two cards are of one rank, by the
    pattern of those two cards.

    >>> w = pattern_ways(Shoe.standard(1))
    >>> sorted(w["player"])[:3], sum(sum(w[x].values()) for x in WINNER_NAMES) == falling(52, 6)
    ([(1, 1), (1, 1, 1)], True)
    """
    if not shoe.suited:
        raise OverlayError("an overlay reads card identities: the shoe must be suited (ranks and suits)")
    if rules.player_option:
        raise OverlayError("an overlay needs a fixed Player rule, not a Player's option")
    if tie_cards not in TIE_CARDS:
        raise OverlayError(f"tie cards: {tie_cards!r} is not one of {', '.join(TIE_CARDS)}")
    counts = shoe.card_tuple
    assert counts is not None
    copies = [tuple(c for i, c in enumerate(counts) if IDENTITY_VALUE[i] == v) for v in range(10)]
    total = shoe.cards
    out: dict[str, Counter] = {name: Counter() for name in WINNER_NAMES}
    for (winner, classes), sequences in _value_coups(rules, tie_cards).items():
        n = sum(w + o for w, o in classes)
        patterns: dict[tuple[int, ...], int] = {(): sequences * falling(total - n, 6 - n)}
        for v, (w, o) in enumerate(classes):
            if w + o == 0:
                continue
            cls = _class_patterns(copies[v], w, o)
            patterns = _merge(patterns, cls)
            if not patterns:
                break
        for p, x in patterns.items():
            if x:
                out[WINNER_NAMES[winner]][p] += x
    # a pair: the hand's first two cards (dealing positions 1 and 3, or 2 and 4) of one rank,
    # one identity twice or two identities of the rank, whatever the coup
    same = sum(falling(c, 2) for c in counts)
    ranks = [counts[4 * r : 4 * r + 4] for r in range(13)]
    apart = sum(a * b for q in ranks for i, a in enumerate(q) for j, b in enumerate(q) if i != j)
    rest = falling(total - 2, 4)
    pairs = {p: x * rest for p, x in (((2,), same), ((1, 1), apart)) if x}
    result = {name: dict(c) for name, c in out.items()}
    result["player_pair"] = result["banker_pair"] = pairs
    return result


def _merge(left: dict, right: dict) -> dict:
    out: Counter = Counter()
    for (a, x), (b, y) in itertools.product(left.items(), right.items()):
        out[tuple(sorted(a + b))] += x * y
    return dict(out)


@dataclass(frozen=True)
class OverlayResult:
    """A bet's exact figures over ``deals`` ordered six-card deals: ``wins`` and
    ``pushes`` (ways), ``lit`` (ways the winning hand holds an identity the overlay can
    mark: every win when ``k > 0``), ``returned`` the expected return per stake before
    the fee, ``rtp`` per unit paid (stake and fee)."""

    bet: OverlayBet
    deals: int
    wins: int
    pushes: int
    returned: Fraction
    rtp: Fraction

    @property
    def edge(self) -> Fraction:
        return 1 - self.rtp


def price(ways: dict[str, dict[tuple[int, ...], int]], bet: OverlayBet, overlay: Overlay) -> OverlayResult:
    """The exact result of ``bet`` under ``overlay`` from :func:`pattern_ways`' counts."""
    deals = sum(sum(ways[w].values()) for w in WINNER_NAMES)
    won = ways[bet.outcome]
    wins = sum(won.values())
    pushes = sum(ways["tie"].values()) if bet.push_on_tie and bet.outcome != "tie" else 0
    total = Fraction(pushes)
    for pattern, x in won.items():
        total += x * (1 + bet.offset + bet.pays * overlay.expected_multiplier(pattern))
        if bet.unlit:
            total += x * bet.unlit * overlay.unlit(pattern)
    returned = total / deals
    rtp = returned / (1 + overlay.fee) if overlay.fee_mode == "stake" else returned * (1 - overlay.fee)
    return OverlayResult(bet, deals, wins, pushes, returned, rtp)


def rtp(shoe: Shoe, bet: OverlayBet, overlay: Overlay, rules: Rules = PUNTO_BANCO) -> Fraction:
    """The exact RTP of ``bet`` under ``overlay`` on ``shoe`` (see the module's doctest)."""
    return price(pattern_ways(shoe, rules), bet, overlay).rtp
