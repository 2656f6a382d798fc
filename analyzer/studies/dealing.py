"""Dealing: shuffled shoes dealt to the cut card, and the cards left before each coup.

The shuffle, the drawing of the coups, the cut card and the burn follow the
conventions of :mod:`analyzer.studies`; :func:`trace_shoe` shows one shoe coup
by coup with the exact EVs the study uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..core.cards import POINTS, RANKS
from ..core.engine import POSITIONS, falling
from ..core.rules import play_coup
from ..core.shoe import Shoe
from .counting import true_count
from .evs import batch_ev
from .params import StudyParams

_RANK_POINTS = np.array([POINTS[r] for r in RANKS], dtype=np.int64)


def shoe_rng(seed: int, index: int) -> np.random.Generator:
    """The generator that shuffles shoe number ``index`` of a study seeded ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))


@dataclass
class DealtShoe:
    """One shuffled shoe and where its coups start."""

    ranks: np.ndarray  # rank index 0..12 of each card, in dealing order
    cards: np.ndarray | None  # card index 0..51 (rank*4 + suit) when suits are tracked
    starts: list[int]  # position of each coup's first card
    ends: list[int]  # position after each coup's last card
    burnt: int = 0  # cards burnt face down, unseen
    burn_from: int = 1  # position of the first of them (1 after the standard burn's shown card)


def deal_shoe(params: StudyParams, index: int) -> DealtShoe:
    """Shuffle shoe ``index`` and deal it to the cut card (see :mod:`analyzer.studies`)."""
    rng = shoe_rng(params.seed, index)
    if params.card_counts is not None:
        deck = np.repeat(np.arange(52, dtype=np.int16), params.card_counts)
        cards = rng.permutation(deck)
        ranks = cards // 4  # same rank sequence as shuffling the rank-only shoe
    else:
        deck = np.repeat(np.arange(13, dtype=np.int16), params.rank_counts)
        cards = None
        ranks = rng.permutation(deck)
    values = _RANK_POINTS[ranks].tolist()
    total, cut = len(values), params.cut_card
    procedure = params.procedure()
    pos, shown, burnt = procedure.start(values)
    starts, ends = [], []
    rules = params.rules()
    after = procedure.after_cut
    while total - pos >= cut or after:
        if total - pos < cut:
            after -= 1
        coup = play_coup(values[pos : pos + POSITIONS], rules)
        starts.append(pos)
        pos += coup.cards_used
        ends.append(pos)
    return DealtShoe(ranks, cards, starts, ends, burnt, shown)


def remaining_counts(params: StudyParams, dealt: DealtShoe):
    """Rank counts ``(K, 13)`` left before each coup, and card counts ``(K, 52)`` if tracked.

    Cards burnt face down are not seen, so they still count as in the shoe.
    """

    def before(codes, size, start):
        onehot = np.eye(size, dtype=np.int64)[codes]
        if dealt.burnt:
            onehot[dealt.burn_from : dealt.burn_from + dealt.burnt] = 0
        seen = np.zeros((len(codes) + 1, size), dtype=np.int64)
        np.cumsum(onehot, axis=0, out=seen[1:])
        return np.asarray(start, dtype=np.int64) - seen[dealt.starts]

    ranks = before(dealt.ranks, 13, params.rank_counts)
    cards = before(dealt.cards, 52, params.card_counts) if dealt.cards is not None else None
    return ranks, cards


@dataclass
class CoupTrace:
    """One coup of a traced shoe."""

    coup: int
    cards_dealt: int
    cards_left: int
    remaining: Shoe
    evs: dict[str, Fraction]
    true_counts: dict[str, Fraction]
    dealt: list[str]


def trace_shoe(params: StudyParams, index: int) -> list[CoupTrace]:
    """Every coup of shoe ``index`` with the exact EVs the study uses (for checking)."""
    engine = batch_ev(params.bet_ids, params.bets_toml, params.rules())
    dealt = deal_shoe(params, index)
    ranks, cards = remaining_counts(params, dealt)
    nums = engine.numerators(ranks, cards)
    tags = params.tag_map()
    start = np.asarray(params.rank_counts)
    out = []
    for c, (a, b) in enumerate(zip(dealt.starts, dealt.ends)):
        n = int(ranks[c].sum())
        d = falling(n, POSITIONS)
        shoe = Shoe(None, cards[c].tolist()) if cards is not None else Shoe(ranks[c].tolist())
        evs = {bet.id: Fraction(nums[i][c], d * engine.scales[i]) for i, bet in enumerate(engine.bets)}
        seen = start - ranks[c]
        tcs = {
            b: true_count(int(np.dot(seen, t)), int(np.dot(start, t)), int(start.sum()), n)
            for b, (t, _) in tags.items()
        }
        out.append(CoupTrace(c + 1, a, n, shoe, evs, tcs, [RANKS[r] for r in dealt.ranks[a:b].tolist()]))
    return out
