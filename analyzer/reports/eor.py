"""Effects of removal: the exact change in a bet's EV when cards leave the shoe.

For each rank ``r`` the effect is ``EV(shoe without k cards of rank r) - EV(shoe)``,
an exact fraction.  Removing one card drawn at random leaves every EV unchanged
(the cards are exchangeable), so for ``k = 1`` the effects weighted by the
shoe's rank counts sum to exactly zero: ``sum_r n_r * effect_r == 0``.

Ideal linear count tags are the effects scaled to small integers; their
*betting correlation* with the effects is the frequency-weighted Pearson
correlation over the ranks.  A bet whose effects are all exactly zero (pair bets
on a full shoe, for example) cannot be counted linearly, and says so.

>>> e = effects_of_removal(Shoe.standard(8), ["banker", "player_pair"])
>>> banker = e.bets["banker"]
>>> banker.effect("4") > 0 > banker.effect("6")   # a 4 leaving helps Banker, a 6 leaving hurts
True
>>> banker.weighted_sum, e.bets["player_pair"].vanishes
(Fraction(0, 1), True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..bets.catalog import Bet, catalog
from ..core.cards import RANKS, SUITS
from ..core.errors import ShoeError
from ..core.frames import bet_list, data_frame, frame_html
from ..core.shoe import Shoe
from ..core.solver import Solver

if TYPE_CHECKING:
    from ..core.rules import Rules


@dataclass(frozen=True)
class BetEffects:
    """Effects of removal of one bet, by rank (``None`` where the shoe lacks the cards)."""

    bet: Bet
    base_ev: Fraction
    effects: dict[str, Fraction | None]
    weights: dict[str, int]  # rank counts of the full shoe

    def effect(self, rank: str) -> Fraction | None:
        return self.effects[rank]

    @property
    def vanishes(self) -> bool:
        """True when every effect is exactly zero: no linear count can help."""
        known = [e for e in self.effects.values() if e is not None]
        return bool(known) and all(e == 0 for e in known)

    @property
    def weighted_sum(self) -> Fraction:
        """``sum_r n_r * effect_r`` (exactly 0 for single-card removal)."""
        return sum((self.weights[r] * e for r, e in self.effects.items() if e is not None), Fraction(0))

    def tags(self, max_tag: int | None = None) -> dict[str, int]:
        """Integer count tags proportional to the effects.

        With ``max_tag`` None, the smallest largest-tag from 1 to 9 whose tags
        correlate at least 0.98 with the effects (else the best of them).
        """
        if self.vanishes:
            return dict.fromkeys(self.effects, 0)
        if max_tag is None:
            best: tuple[float, dict[str, int]] | None = None
            for m in range(1, 10):
                t = self.tags(m)
                c = self.correlation(t)
                c = -2.0 if c is None else c
                if best is None or c > best[0] + 1e-12:
                    best = (c, t)
                if c >= 0.98:
                    return t
            assert best is not None  # set by m = 1
            return best[1]
        known = [abs(e) for e in self.effects.values() if e is not None]
        scale = max(known) / max_tag
        return {r: (0 if e is None else _round_half_away(e / scale)) for r, e in self.effects.items()}

    def correlation(self, tags: dict[str, int]) -> float | None:
        """Frequency-weighted Pearson correlation between ``tags`` and the effects
        (None when either is constant over the ranks: no correlation is defined)."""
        pairs = [
            (self.weights[r], float(e), float(tags[r]))
            for r, e in self.effects.items()
            if e is not None and self.weights[r]
        ]
        wsum = sum(w for w, _, _ in pairs)
        me = sum(w * e for w, e, _ in pairs) / wsum
        mt = sum(w * t for w, _, t in pairs) / wsum
        cov = sum(w * (e - me) * (t - mt) for w, e, t in pairs)
        ve = sum(w * (e - me) ** 2 for w, e, _ in pairs)
        vt = sum(w * (t - mt) ** 2 for w, _, t in pairs)
        if ve == 0 or vt == 0:
            return None
        return cov / math.sqrt(ve * vt)


def _round_half_away(x: Fraction) -> int:
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


@dataclass(frozen=True)
class Effects:
    shoe: Shoe
    cards: int
    bets: dict[str, BetEffects]
    rules: Rules | None = None  # the Rules counted (None: Punto Banco)

    def __repr__(self) -> str:
        return (
            f"<Effects of removing {self.cards} card{'s' if self.cards > 1 else ''} of a rank from "
            f"{self.shoe.describe()}: {bet_list(self.bets)}>"
        )

    def _repr_html_(self) -> str:
        """A notebook's table: bet, rank, effect, tag (the rows of :meth:`to_frame`)."""
        return frame_html(self._rows(), repr(self)[1:-1])

    def to_frame(self):
        """bet, rank, cards removed, effect on the EV (exact; None where impossible), tag."""
        return data_frame(self._rows())

    def _rows(self) -> list[dict]:
        rows = []
        for b in self.bets.values():
            tags = b.tags()
            rows += [
                {"bet": b.bet.id, "rank": r, "cards_removed": self.cards, "effect": b.effect(r), "tag": tags[r]}
                for r in RANKS
            ]
        return rows


def removal(shoe: Shoe, rank: str, cards: int) -> Shoe:
    """``shoe`` without ``cards`` cards of ``rank``.

    From a suited shoe the cards are taken with their suits (one from each suit
    in turn, s h d c, skipping suits with none left) so the result stays suited.
    One such shoe stands for the rank only for bets that read no suit; the
    effects of removal average over every way the cards can leave (:func:`removals`).
    """
    if not shoe.suited:
        return shoe.remove([rank] * cards)
    counts = dict(shoe.card_counts)
    names: list[str] = []
    while len(names) < cards:
        progressed = False
        for s in SUITS:
            if len(names) < cards and counts[rank + s] > 0:
                counts[rank + s] -= 1
                names.append(rank + s)
                progressed = True
        if not progressed:
            raise ShoeError(f"cannot remove {cards} cards of rank {rank}: the shoe holds fewer")
    return shoe.remove(names)


def removals(shoe: Shoe, rank: str, cards: int) -> list[tuple[Fraction, Shoe]]:
    """The shoes left when ``cards`` cards of ``rank`` are taken at random, each with
    its exact probability.

    A rank-only shoe gives one shoe.  From a suited shoe, each way the taken cards
    can fall among the suits (``k_s`` of suit ``s``) has probability
    ``prod_s C(n_s, k_s) / C(n, cards)``: a bet on colours or one suit (All Red,
    Lucky Nines' nine of diamonds) sees the average over which cards left, so the
    effects balance exactly; a bet that reads no suit gets the same EV from each.
    """
    if not shoe.suited:
        return [(Fraction(1), shoe.remove([rank] * cards))]
    have = [shoe.card_counts[rank + s] for s in SUITS]
    total = math.comb(sum(have), cards)
    if total == 0:
        raise ShoeError(f"cannot remove {cards} cards of rank {rank}: the shoe holds fewer")
    out = []
    for split in itertools.product(*(range(min(n, cards) + 1) for n in have)):
        if sum(split) != cards:
            continue
        ways = math.prod(math.comb(n, k) for n, k in zip(have, split))
        names = [rank + s for s, k in zip(SUITS, split) for _ in range(k)]
        out.append((Fraction(ways, total), shoe.remove(names)))
    return out


def effects_of_removal(shoe: Shoe, bets: Sequence[str | Bet], cards: int = 1, solver: Solver | None = None) -> Effects:
    """Exact effects of removing ``cards`` cards of each rank (taken at random among
    that rank's cards: :func:`removals`), for each bet."""
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise ShoeError(f"number of cards to remove must be a whole number >= 1, got {cards!r}")
    most = max(shoe.rank_counts.values())
    if cards > most or shoe.cards - cards < 6:
        raise ShoeError(
            f"cannot remove {cards} cards of one rank: this shoe holds at most {most} of any "
            f"rank ({shoe.cards} cards in all, and a coup needs 6 left)"
        )
    bet_objs = tuple(catalog().bet(b) if isinstance(b, str) else b for b in bets)
    solver = solver or Solver(bet_objs)
    base = solver.solve(shoe)
    base_ev = {b.id: base.bet(b.id).ev for b in bet_objs}
    per_rank: dict[str, dict[str, Fraction | None]] = {b.id: {} for b in bet_objs}
    rank_counts = shoe.rank_counts
    mixes: dict[str, list[tuple[Fraction, Shoe]] | None] = {}
    for r in RANKS:
        try:
            mixes[r] = removals(shoe, r, cards)
        except ShoeError:
            mixes[r] = None
    # every smaller shoe in one batch (equal to a solve each)
    solved = iter(solver.solve_many([smaller for mix in mixes.values() if mix for _, smaller in mix]))
    for r in RANKS:
        mix = mixes[r]
        results = None if mix is None else [(w, next(solved)) for w, _ in mix]
        for b in bet_objs:
            per_rank[b.id][r] = (
                None
                if results is None
                else sum((w * res.bet(b.id).ev for w, res in results), Fraction(0)) - base_ev[b.id]
            )
    rules = base.rules if base.rules is not None and not base.rules.is_default else None
    return Effects(
        shoe, cards, {b.id: BetEffects(b, base_ev[b.id], per_rank[b.id], rank_counts) for b in bet_objs}, rules
    )
