"""The inverse of a multiplier overlay: which overlays of a stated family reproduce a
game's published RTPs across all its bets at once, and Lightning Baccarat as stated.

A family: the number of marked identities (``k`` fixed, or a stated distribution),
the multiplier values (Lightning: 2, 3, 4, 5 and 8; Golden Wealth: 2, 3, 5 and 8) with
unknown weights on a lattice of step ``1/step``, the fee and its reading.  A game of
:mod:`analyzer.reports.overlay_games` is searched family by family and reading by
reading (:func:`game_inverse`).  Every weight vector of the lattice is
searched at once in floating point (each bet's RTP is, per winning pattern, the
hypergeometric sum of elementary symmetric sums of the multipliers' moments: see
:mod:`analyzer.reports.overlay`), then refined (finer lattices around the best
point; Gauss-Newton steps kept on the simplex); the best weights found are then priced
*exactly* (:func:`analyzer.reports.overlay.price`), and they reproduce the published
figures when every exact RTP rounds to the published one (``digits`` decimals of a
percentage, one number or one per bet; the search minimises the largest miss in units of
each bet's rounding, so bets published to fewer decimals weigh less).  A family that
reproduces none reports its closest miss: a statement about the lattice searched, not a
proof that no real weights do (the search is numerical; only the check of its answer is
exact).

>>> from analyzer import Shoe
>>> from analyzer.reports.overlay import pattern_ways
>>> r = inverse(pattern_ways(Shoe.standard(8)), {"player": LIGHTNING.published["player"]}, {3: 1})
>>> r.reproduces, f"{float(r.results['player'].rtp):.4%}"
(True, '98.7600%')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from ..core.rules import PUNTO_BANCO, Rules
from ..core.shoe import Shoe
from .overlay import DECK, LIGHTNING_BETS, Overlay, OverlayBet, OverlayResult, pattern_ways, price
from .overlay_games import LIGHTNING, OverlayGame, Reading

#: The families the inverse tries for Lightning: k fixed 1-5, or uniform on 1-5.
LIGHTNING_FAMILIES: dict[str, dict[int, Fraction]] = LIGHTNING.families


@dataclass(frozen=True)
class InverseResult:
    """The best weights a family's lattice search found, priced exactly."""

    family: str
    overlay: Overlay
    results: dict[str, OverlayResult]
    published: dict[str, Fraction]
    digits: int | dict[str, int]
    reading: str = ""

    def half(self, bet: str) -> Fraction:
        """Half a unit of the last decimal ``bet``'s published RTP is given to."""
        d = self.digits if isinstance(self.digits, int) else self.digits[bet]
        return Fraction(1, 2 * 10 ** (d + 2))

    @property
    def deviation(self) -> Fraction:
        """The largest ``|exact RTP - published|`` over the bets."""
        return max(abs(self.results[b].rtp - p) for b, p in self.published.items())

    @property
    def reproduces(self) -> bool:
        """Every exact RTP rounds (half a unit of the last published digit) to the published one."""
        return all(abs(self.results[b].rtp - p) <= self.half(b) for b, p in self.published.items())


def _lattice(parts: int, step: int) -> np.ndarray:
    """Every weight vector of ``parts`` nonnegative multiples of 1/step summing to 1, as integers."""
    rows = [c for c in itertools.product(range(step + 1), repeat=parts - 1) if sum(c) <= step]
    a = np.array(rows, dtype=np.int64).reshape(-1, parts - 1)
    return np.column_stack([a, step - a.sum(axis=1)])


def _float_rtps(
    ways,
    bets: dict[str, OverlayBet],
    ks: dict[int, Fraction],
    values: np.ndarray,
    weights: np.ndarray,
    fee: float,
    fee_mode: str,
    per: str,
) -> dict[str, np.ndarray]:
    """Each bet's RTP for each row of ``weights`` (probabilities over ``values``), in floats."""
    mu = np.stack([weights @ values**m for m in range(7)], axis=1)
    deals = float(sum(sum(ways[w].values()) for w in ("player", "banker", "tie")))
    cache: dict[tuple[int, ...], np.ndarray] = {}

    def expected(pattern):
        if pattern not in cache:
            j = len(pattern)
            e = [np.ones(len(weights))] + [np.zeros(len(weights)) for _ in range(j)]
            for m in pattern:
                for t in range(j, 0, -1):
                    e[t] = e[t] + e[t - 1] * mu[:, 1 if per == "identity" else m]
            value = np.zeros(len(weights))
            for k, pk in ks.items():
                for t in range(min(j, k) + 1):
                    value = value + float(pk) * comb(DECK - j, k - t) / comb(DECK, k) * e[t]
            cache[pattern] = value
        return cache[pattern]

    out = {}
    for name, bet in bets.items():
        won = ways[bet.outcome]
        acc = float(sum(ways["tie"].values())) if bet.push_on_tie and bet.outcome != "tie" else 0.0
        acc += sum(x for x in won.values()) * float(1 + bet.offset)
        acc = acc + sum(float(x) * float(bet.pays) * expected(p) for p, x in won.items())
        if bet.unlit:  # the hand's j identities all unmarked: the same for every weight vector
            acc += float(bet.unlit) * sum(
                float(x) * sum(float(pk) * comb(DECK - len(p), k) / comb(DECK, k) for k, pk in ks.items())
                for p, x in won.items()
            )
        r = acc / deals
        out[name] = r / (1 + fee) if fee_mode == "stake" else r * (1 - fee)
    return out


def inverse(
    ways,
    published: dict[str, Fraction],
    ks: dict[int, Fraction],
    values=(2, 3, 4, 5, 8),
    bets: dict[str, OverlayBet] = LIGHTNING_BETS,
    fee=Fraction(1, 5),
    fee_mode: str = "stake",
    per: str = "card",
    step: int = 40,
    starts: int = 20,
    digits: int | dict[str, int] = 2,
    family: str = "",
    reading: str = "",
) -> InverseResult:
    """The weights over ``values`` closest to ``published`` (bet -> RTP) in the largest
    deviation: the best point of a lattice of step ``1/step`` refined on finer lattices
    around it, and the ``starts`` best lattice points refined by Gauss-Newton steps
    (least-norm, kept on the simplex); the best found is rounded to
    millionths and priced exactly."""
    vals = np.array(values, dtype=float)
    names = list(published)
    # each bet in units of its rounding (all alike when every figure has the same decimals)
    places = [digits if isinstance(digits, int) else digits[n] for n in names]
    unit = np.array([10.0 ** (d - min(places)) for d in places])
    target = np.array([float(published[n]) for n in names]) * unit
    chosen = {n: bets[n] for n in names}

    def f(weights: np.ndarray) -> np.ndarray:  # rows of weights -> (rows, bets) RTPs, scaled
        r = _float_rtps(ways, chosen, ks, vals, weights, float(fee), fee_mode, per)
        return np.column_stack([r[n] for n in names]) * unit

    lattice = _lattice(len(values), step) / step
    dev = np.abs(f(lattice) - target).max(axis=1)
    best, best_dev = lattice[int(np.argmin(dev))], float(dev.min())
    # a lattice 4 times finer within one old step of the best, three times
    point, denominator = np.rint(best * step).astype(np.int64), step
    offsets = np.array(list(itertools.product(range(-4, 5), repeat=len(values) - 1)), dtype=np.int64)
    for _ in range(3):
        denominator *= 4
        cand = point[None, :-1] * 4 + offsets
        cand = np.column_stack([cand, denominator - cand.sum(axis=1)])
        cand = cand[(cand >= 0).all(axis=1)]
        d = np.abs(f(cand / denominator) - target).max(axis=1)
        point = cand[int(np.argmin(d))]
        if float(d.min()) < best_dev:
            best, best_dev = point / denominator, float(d.min())
    h = 1e-6
    free = len(values) - 1
    for x in lattice[np.argsort(dev)[:starts]]:
        x = x.copy()
        for _ in range(25):
            # move each free weight against the last one, so that the weights keep summing to 1
            moves = np.zeros((free, len(values)))
            moves[np.arange(free), np.arange(free)] = h
            moves[:, -1] = -h
            rows = f(np.vstack([x, x + moves]))
            jac = (rows[1:] - rows[0]).T / h  # (bets, free)
            delta = np.linalg.lstsq(jac, target - rows[0], rcond=None)[0]
            x = np.clip(x + np.append(delta, -delta.sum()), 0, None)
            x = x / x.sum()
            d = float(np.abs(f(x[None, :])[0] - target).max())
            if d < best_dev:
                best, best_dev = x.copy(), d
            if d < 1e-10:
                break
    scaled = [round(float(w) * 10**6) for w in best[:-1]]
    scaled.append(10**6 - sum(scaled))
    if scaled[-1] < 0:  # rounding pushed the last weight below 0
        scaled[int(np.argmax(scaled))] += scaled[-1]
        scaled[-1] = 0
    weights = [Fraction(w, 10**6) for w in scaled]
    overlay = Overlay.of(k=dict(ks), multipliers=dict(zip(values, weights)), fee=fee, fee_mode=fee_mode, per=per)
    results = {n: price(ways, bets[n], overlay) for n in bets}
    return InverseResult(family, overlay, results, dict(published), digits, reading)


def game_inverse(
    shoe: Shoe,
    game: OverlayGame,
    rules: Rules = PUNTO_BANCO,
    match: tuple[str, ...] | None = None,
    families: dict[str, dict[int, Fraction]] | None = None,
    readings: tuple[Reading, ...] | None = None,
    step: int = 40,
    ways: dict[str, dict] | None = None,
) -> list[InverseResult]:
    """:func:`inverse` of ``game``'s published RTPs (the bets of ``match``, default the
    game's) for each family (default the game's) and each reading (default every reading
    the game lists; ``readings[:1]`` is the stated one).  ``ways``: the counts of
    :func:`~analyzer.reports.overlay.pattern_ways` by the Tie's cards, filled as needed.

    >>> from analyzer.reports.overlay_games import GOLDEN_WEALTH
    >>> (r,) = game_inverse(Shoe.standard(8), GOLDEN_WEALTH, readings=GOLDEN_WEALTH.readings[:1])
    >>> r.family, r.reading, r.reproduces
    ('k=5', 'as stated', True)
    """
    ways = {} if ways is None else ways
    published = {b: game.published[b] for b in (match or game.match)}
    out = []
    for reading in game.readings if readings is None else readings:
        if reading.tie_cards not in ways:
            ways[reading.tie_cards] = pattern_ways(shoe, rules, reading.tie_cards)
        for name, ks in (game.families if families is None else families).items():
            out.append(
                inverse(
                    ways[reading.tie_cards],
                    published,
                    ks,
                    game.multiplier_values,
                    reading.bets(game.bets),
                    game.fee,
                    reading.fee_mode,
                    reading.per,
                    step=step,
                    digits={b: game.digits[b] for b in published},
                    family=name,
                    reading=reading.name,
                )
            )
    return out


def lightning_inverse(
    ways,
    step: int = 40,
    families: dict[str, dict[int, Fraction]] | None = None,
    published: dict[str, Fraction] | None = None,
) -> list[InverseResult]:
    """:func:`inverse` of :data:`~analyzer.reports.overlay_games.LIGHTNING` for each of
    ``families`` (default :data:`LIGHTNING_FAMILIES`), its stated reading, from the
    8-deck ``ways`` (the published figures: default the player, banker and tie)."""
    published = published or {b: LIGHTNING.published[b] for b in LIGHTNING.match}
    return [
        inverse(
            ways,
            published,
            ks,
            LIGHTNING.multiplier_values,
            LIGHTNING.bets,
            LIGHTNING.fee,
            LIGHTNING.fee_mode,
            step=step,
            family=name,
            reading=LIGHTNING.readings[0].name,
        )
        for name, ks in (families or LIGHTNING_FAMILIES).items()
    ]
