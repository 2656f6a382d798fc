"""What a study is: its parameters, the bets it reads, and its fixed constants.

:class:`StudyParams` holds everything that determines a study's numbers and
checks it once, in :meth:`StudyParams.create` (count tags included); the
other modules of :mod:`analyzer.studies` read only it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..bets.catalog import Bet, catalog, parse_catalog
from ..core.cards import RANKS
from ..core.errors import BaccaratError
from ..core.procedure import Procedure, ProcedureError, parse_burn
from ..core.shoe import MIN_CARDS, Shoe

FORMAT_VERSION = 1

#: Shoes per chunk (the unit of parallel work and of checkpointing).  Results do
#: not depend on it (each shoe has its own seed), but chunk files do.
CHUNK_SHOES = 250

#: EV histogram resolution: bins of 1/HIST_BINS_PER_UNIT (0.02 percentage points).
HIST_BINS_PER_UNIT = 5000

CARDS_PER_DECK = 52

#: ``none``: no card is burnt.  ``standard``: the first card is turned face up
#: (seen) and as many cards as its point value (10 for a ten or a face card) are
#: burnt face down, unseen, before the first coup.  A whole number ``N`` (as text):
#: ``N`` cards burnt face down (:class:`analyzer.core.procedure.Procedure`).
BURNS = ("none", "standard")


#: Most chunks one study holds (its list of chunks and their state: about 100 bytes each).
MAX_CHUNKS = 1_000_000


class StudyError(BaccaratError):
    """A study that cannot be run as asked."""


@dataclass(frozen=True)
class StudyParams:
    """Everything that determines a study's numbers (picklable, hashable)."""

    rank_counts: tuple[int, ...]
    card_counts: tuple[int, ...] | None
    shoes: int
    seed: int
    cut_card: int
    bet_ids: tuple[str, ...]
    bets_toml: str | None = None  # extra bets (a bets file's text), parsed by each worker
    tags: tuple[tuple[str, tuple[int, ...], str], ...] = ()  # (bet id, 13 tags A..K, source)
    depth_step: int = CARDS_PER_DECK
    chunk_shoes: int = CHUNK_SHOES
    burn: str = "none"
    rules_toml: str | None = None  # drawing rules other than Punto Banco (a rules file's text)
    after_cut: int = 0  # coups played after the one in which the cut card comes out

    @classmethod
    def create(
        cls,
        shoe: Shoe,
        shoes: int,
        seed: int,
        cut_card: int = 14,
        bet_ids: Iterable[str] = ("player", "banker", "tie"),
        bets_toml: str | None = None,
        tags: dict[str, dict[str, int]] | None = None,
        count: Iterable[str] | None = None,
        depth_step: int = CARDS_PER_DECK,
        chunk_shoes: int = CHUNK_SHOES,
        burn: str = "none",
        rules_toml: str | None = None,
        after_cut: int = 0,
    ) -> StudyParams:
        """Check the inputs and fix the count tags.

        ``count``: bets to study with a linear count (default: all of them);
        ``tags``: user tags per bet id (``{"dragon7": {"8": 2, ...}}``); a counted
        bet without user tags gets tags from its effects of removal on ``shoe``.
        """
        for name, v, lo in (
            ("number of shoes", shoes, 1),
            ("seed", seed, 0),
            ("cut card", cut_card, 0),
            ("depth step", depth_step, 1),
            ("shoes per chunk", chunk_shoes, 1),
        ):
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:  # type: ignore[redundant-expr]  # checked at run time
                raise StudyError(f"{name} must be a whole number >= {lo}, got {v!r}")
        chunks = -(-shoes // chunk_shoes)
        if chunks > MAX_CHUNKS:
            raise StudyError(
                f"{shoes:,} shoes in chunks of {chunk_shoes:,} are {chunks:,} chunks, more than the "
                f"{MAX_CHUNKS:,} a study keeps track of; give more shoes per chunk "
                f"(--chunk-shoes {-(-shoes // MAX_CHUNKS)} or more) or fewer shoes"
            )
        if cut_card < MIN_CARDS:
            raise StudyError(
                f"cut card must leave at least {MIN_CARDS} cards behind it "
                f"(a coup can use {MIN_CARDS} cards), got {cut_card}"
            )
        if cut_card > shoe.cards:
            raise StudyError(
                f"cut card {cut_card} is deeper than the shoe ({shoe.cards} cards): no coup would be dealt"
            )
        try:
            burn = parse_burn(burn)
        except ProcedureError:
            raise StudyError(f"unknown burn {burn!r} (choose from {', '.join(BURNS)} or a number of cards)") from None
        try:
            Procedure.create(shoe.cards, burn, cut_card, after_cut)
        except ProcedureError as e:
            raise StudyError(str(e)) from None
        rules = _rules(rules_toml)
        bet_ids = tuple(dict.fromkeys(bet_ids))
        if not bet_ids:
            raise StudyError("no bets selected")
        bets = select_bets(bet_ids, bets_toml)
        suited = [b.id for b in bets if bet_level(b) == "card"]
        if suited and not shoe.suited:
            raise StudyError(
                f"bet {suited[0]!r} reads suits, but the study's shoe is rank-only; "
                "give the shoe with --decks or per card (As=8,...)"
            )
        count_ids = list(bet_ids if count is None else dict.fromkeys(count))
        for b in count_ids:
            if b not in bet_ids:
                raise StudyError(f"--count names {b!r}, which is not among the selected bets ({', '.join(bet_ids)})")
        tags = dict(tags or {})
        for b in tags:
            if b not in bet_ids:
                raise StudyError(f"tags given for {b!r}, which is not among the selected bets")
            if b not in count_ids:
                count_ids.append(b)
        fixed = []
        need_eor = [b for b in count_ids if b not in tags]
        effects = {}
        if need_eor:
            from ..reports.eor import effects_of_removal

            chosen = [b for b in bets if b.id in need_eor]
            solver = None
            if rules is not None:
                from ..core.solver import Solver

                solver = Solver(tuple(chosen), rules=rules)
            effects = effects_of_removal(shoe, chosen, solver=solver).bets
        for b in count_ids:
            if b in tags:
                fixed.append((b, tuple(int(tags[b].get(r, 0)) for r in RANKS), "user"))
            else:
                t = effects[b].tags()
                fixed.append((b, tuple(t[r] for r in RANKS), "effects of removal"))
        return cls(
            tuple(shoe.rank_tuple),
            shoe.card_tuple,
            shoes,
            seed,
            cut_card,
            bet_ids,
            bets_toml,
            tuple(fixed),
            depth_step,
            chunk_shoes,
            burn,
            rules_toml,
            after_cut,
        )

    # -- views ------------------------------------------------------------------------
    def start_shoe(self) -> Shoe:
        return Shoe(self.rank_counts, self.card_counts)

    @property
    def cards(self) -> int:
        return sum(self.rank_counts)

    def procedure(self) -> Procedure:
        """The burn, cut card and after-cut coups (:class:`analyzer.core.procedure.Procedure`)."""
        return Procedure(self.burn, self.cut_card, self.after_cut)

    def rules(self):
        """The drawing rules (:class:`analyzer.core.rules.Rules`), ``None`` for Punto Banco."""
        return _rules(self.rules_toml)

    def bets(self) -> tuple[Bet, ...]:
        return select_bets(self.bet_ids, self.bets_toml)

    def tag_map(self) -> dict[str, tuple[tuple[int, ...], str]]:
        return {b: (t, src) for b, t, src in self.tags}

    def chunks(self) -> list[tuple[int, int, int]]:
        """``(index, first shoe, number of shoes)`` of every chunk."""
        c = self.chunk_shoes
        return [(i, i * c, min(c, self.shoes - i * c)) for i in range((self.shoes + c - 1) // c)]

    def identity(self) -> dict:
        """What the chunk files depend on (not the number of shoes: a study can be extended)."""
        return {
            "format": FORMAT_VERSION,
            "rank_counts": list(self.rank_counts),
            "card_counts": None if self.card_counts is None else list(self.card_counts),
            "seed": self.seed,
            "cut_card": self.cut_card,
            "bets": list(self.bet_ids),
            "bets_toml": self.bets_toml,
            "tags": [[b, list(t), s] for b, t, s in self.tags],
            "depth_step": self.depth_step,
            "hist_bins_per_unit": HIST_BINS_PER_UNIT,
            "chunk_shoes": self.chunk_shoes,
            "burn": self.burn,
            **({"rules": self.rules_toml} if self.rules_toml is not None else {}),
            **({"after_cut": self.after_cut} if self.after_cut else {}),
        }

    def key(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@lru_cache(maxsize=8)
def _rules(rules_toml: str | None):
    """The Rules of a rules file's text (``None`` for none, or for one restating Punto Banco)."""
    if rules_toml is None:
        return None
    from ..bets.rules_files import parse_rules

    rules = parse_rules(rules_toml, "study rules")
    return None if rules.is_default else rules


@lru_cache(maxsize=16)
def select_bets(bet_ids: tuple[str, ...], bets_toml: str | None) -> tuple[Bet, ...]:
    """The bets ``bet_ids`` of the catalog, extended by a bets file's text (cached per process)."""
    cat = catalog()
    if bets_toml:
        cat = cat.merged(parse_catalog(bets_toml, "bets file", frozenset(cat.bets)))
    return cat.select(list(bet_ids))


def bet_level(bet: Bet) -> str:
    """``"value"`` for a bet that reads only point values, else the card level it needs."""
    if not any(e.when.reads_cards for e in bet.events):
        return "value"
    from ..core.classengine import classes_for

    classes = classes_for(frozenset().union(*(e.when.card_keys for e in bet.events)), False)
    # "card" when the bet tells apart two suits of one rank (it needs a suited shoe)
    return "rank" if all(len(set(classes[4 * r : 4 * r + 4].tolist())) == 1 for r in range(13)) else "card"


def bet_scale(bet: Bet) -> int:
    """``L``: the common denominator of a bet's payouts (EV numerators are over ``deals * L``)."""
    return math.lcm(*(e.pays.denominator for e in bet.events), bet.otherwise.denominator)
