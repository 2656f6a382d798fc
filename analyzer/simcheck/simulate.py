"""A reference simulator: deals real shoes, card by card, and writes a hand log and tallies.

Each shoe is the declared shoe shuffled with numpy's PCG64 generator seeded by
``seed`` (same seed, same shoes, same log).  Coups are dealt from the top in
the order of ``RULES.md`` (P B P B, then third cards by the tableau kept in
:mod:`analyzer.core.rules`: each coup is read from the table of what
:func:`analyzer.core.rules.deal` deals from every six point values) until the cut card comes out,
with the conventions of
:mod:`analyzer.studies.study`: the cut card sits ``cut_card`` cards (at least 6) from
the end, a coup starts only while at least ``cut_card`` cards remain, and the
coup in which the cut card comes out is finished, then ``after_cut`` more coups
(0 or 1); then a new shoe.  With ``burn="standard"`` (or ``True``), the first card
of each shoe is turned face up (it goes to the ``seen`` column of the shoe's first
coup) and as many cards as its point value (10 for a ten or a face card) are
burned face down, unseen (no burn when that would reach the cut card); with a
number ``N``, ``N`` cards are burned face down (no ``seen`` column).  These are
:class:`analyzer.core.procedure.Procedure`.  ``cut_card`` equal to the shoe size
deals one coup per shoe: every coup off the top of a fresh shoe.  ``rules``
(:class:`analyzer.core.rules.Rules`, default Punto Banco) is the tableau dealt by.

Every coup bets one unit on each selected bet, paid by the bet's pay table.

:class:`Faults` deliberately breaks the simulator, to show that
``baccarat verify`` / ``baccarat check`` catch each kind of bug.

>>> from analyzer.core.shoe import Shoe
>>> r = simulate(Shoe.standard(8), shoes=2, seed=1)
>>> r.coups == sum(r.outcomes.values()) == sum(r.cards.values()), r.shoes
(True, 2)
>>> simulate(Shoe.standard(8), shoes=2, seed=1).outcomes == r.outcomes
True
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TextIO

import numpy as np

# numpy 2 imports numpy.random on first use; import it with this module, before any output file
# is open: a SIGTERM handled inside its Cython modules' import is swallowed (analyzer.io.interrupt)
from numpy.random import PCG64, Generator

from ..bets.catalog import MAIN_BETS, Bet, catalog
from ..core.errors import BaccaratError
from ..core.procedure import Procedure, ProcedureError
from ..core.rules import PUNTO_BANCO, Rules
from ..core.shoe import Shoe
from .families import value_only  # here, not in simulate(): no import once the log file is open
from .logs import CARD_POINT, NO_SUIT, OUTCOME_NAMES, card_text, encode_card, log_header
from .tallies import Tallies, read_tallies, tallies_csv

DEFAULT_CUT_CARD = 14


class SimulationError(BaccaratError):
    pass


@dataclass(frozen=True)
class Faults:
    """Deliberate bugs, for testing the checker (all off by default).

    ``banker_cell``: flip one cell of the Banker tableau, ``(banker two-card total,
    Player's third card)``; ``with_replacement``: every card is drawn from the full
    shoe (cards are never used up); ``biased_shuffle``: the naive "swap each
    position with a random one" shuffle of a shoe built rank by rank (all aces,
    then all twos, ...);
    ``banker_pays``: what a Banker win pays (19/20 is right); ``extra_card``: one
    more copy of this card in every shoe (``"As"``: a ninth ace of spades in 8 decks);
    ``riffles``: the shoe starts in new-deck order (deck after deck, each suit A..K) and gets only
    this many riffle shuffles (Gilbert-Shannon-Reeds), no other shuffle.
    """

    banker_cell: tuple[int, int] | None = None
    with_replacement: bool = False
    biased_shuffle: bool = False
    banker_pays: Fraction | None = None
    extra_card: str | None = None
    riffles: int | None = None

    @classmethod
    def parse(cls, specs: list[str]) -> Faults:
        """From CLI words: ``banker-cell=5:4``, ``with-replacement``, ``biased-shuffle``,
        ``commission=0.04``, ``extra-card=As``."""
        kw: dict = {}
        for spec in specs:
            name, _, value = spec.partition("=")
            name = name.strip().lower()
            try:
                if name == "banker-cell":
                    t, _, p = value.partition(":")
                    cell = (int(t), int(p))
                    if not (0 <= cell[0] <= 7 and 0 <= cell[1] <= 9):
                        raise ValueError
                    kw["banker_cell"] = cell
                elif name == "with-replacement" and not value:
                    kw["with_replacement"] = True
                elif name == "biased-shuffle" and not value:
                    kw["biased_shuffle"] = True
                elif name == "commission":
                    c = Fraction(value)
                    if not 0 <= c < 1:
                        raise ValueError
                    kw["banker_pays"] = 1 - c
                elif name == "riffles":
                    k = int(value)
                    if not 0 <= k <= 100:
                        raise ValueError
                    kw["riffles"] = k
                elif name == "extra-card":
                    encode_card(value)
                    kw["extra_card"] = value.strip()
                else:
                    raise ValueError
            except (ValueError, ZeroDivisionError, BaccaratError):
                raise SimulationError(
                    f"unknown --fault {spec!r} (use banker-cell=T:P, with-replacement, biased-shuffle, "
                    f"commission=0.04, extra-card=As or riffles=K)"
                ) from None
        return cls(**kw)


@dataclass
class SimResult:
    """What a simulation dealt: tallies (and the log, if one was written)."""

    coups: int
    shoes: int
    outcomes: dict[str, int]
    totals: dict[tuple[int, int], int]
    cards: dict[int, int]
    bets: dict[str, tuple[int, Fraction]] = field(default_factory=dict)
    #: per bet, the coups that settled each event of its pay table (its events in order, then
    #: ``otherwise``): the cells :func:`analyzer.simcheck.families.bet_family` labels
    events: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def tallies_csv(self) -> str:
        return tallies_csv(self.outcomes, self.totals, self.cards, self.bets)

    def as_tallies(self, path: str = "<simulation>") -> Tallies:
        """The same counts as :func:`analyzer.simcheck.tallies.read_tallies` would read them back."""
        return read_tallies(path, self.tallies_csv())


def _event_tables(bets: tuple[Bet, ...], rules: Rules | None = None) -> list[np.ndarray]:
    """For each bet, the index of the paying event of every six-value sequence."""
    from ..core.engine import coup_table
    from ..core.solver import event_index

    features = coup_table(None if rules is None or rules.is_default else rules).features()
    return [event_index(bet, features).astype(np.int8) for bet in bets]


@lru_cache(maxsize=4)
def _dealing_tables(rules: Rules, banker_cell: tuple[int, int] | None):
    """The coup every six point values deal, as the simulator deals them: the
    :class:`~analyzer.core.engine.CoupTable` of ``rules`` (``deal`` of every sequence) with
    the Banker's cell ``banker_cell`` flipped (:attr:`Faults.banker_cell`), and for the dealing
    loop, as bytes indexed by the sequence, which hands drew (1 the Player, 2 the Banker, 3
    both) and the winner code."""
    from ..core.engine import coup_table

    if banker_cell is not None:
        t, p = banker_cell
        grid = [list(row) for row in rules.banker]
        grid[t][p] = not grid[t][p]
        rules = replace(rules, banker=tuple(tuple(row) for row in grid))
    table = coup_table(rules)
    drew = (table.player_cards == 3) + 2 * (table.banker_cards == 3)
    return table, drew.astype(np.uint8).tobytes(), table.winner.astype(np.uint8).tobytes()


def _base_cards(shoe: Shoe, faults: Faults) -> np.ndarray:
    """The shoe's cards as codes, in new-deck order (deck by deck when standard)."""
    if shoe.suited:
        counts = shoe.card_tuple
        assert counts is not None  # a suited shoe has its card counts
        codes = []
        # deck by deck: every card type with count left, suits s h d c, ranks A..K
        left = list(counts)
        while any(left):
            for s in range(4):
                for r in range(13):
                    j = 4 * r + s
                    if left[j]:
                        codes.append(5 * r + s)
                        left[j] -= 1
    else:
        codes = []
        left = list(shoe.rank_tuple)
        while any(left):
            for r in range(13):
                if left[r]:
                    codes.append(5 * r + NO_SUIT)
                    left[r] -= 1
    if faults.extra_card:
        codes.append(encode_card(faults.extra_card))
    return np.array(codes, dtype=np.int16)


def simulate(
    shoe: Shoe,
    shoes: int,
    seed: int,
    cut_card: int = DEFAULT_CUT_CARD,
    burn: bool | str | int = False,
    bets: tuple[str, ...] | tuple[Bet, ...] = MAIN_BETS,
    faults: Faults | None = None,
    log: TextIO | None = None,
    log_format: str = "csv",
    progress=None,
    *,
    rules: Rules | None = None,
    after_cut: int = 0,
) -> SimResult:
    """Deal ``shoes`` shoes; write the hand log to ``log`` if given; return the tallies.

    ``burn``: ``False``/``"none"``, ``True``/``"standard"`` or a number of cards burned
    face down (:class:`analyzer.core.procedure.Procedure`); ``after_cut``: coups played
    after the one in which the cut card comes out; ``rules``: the drawing rules
    (default Punto Banco).  ``progress(shoes)``, when given, is called every 100 shoes
    dealt (and at the end).
    """
    faults = faults or Faults()
    if isinstance(shoes, bool) or not isinstance(shoes, int) or shoes < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise SimulationError(f"number of shoes must be a whole number of at least 1, got {shoes!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:  # type: ignore[redundant-expr]  # checked at run time
        raise SimulationError(f"seed must be a whole number >= 0, got {seed!r}")
    try:
        procedure = Procedure.create(shoe.cards, burn, cut_card, after_cut)
    except ProcedureError as e:
        raise SimulationError(str(e)) from None
    rules = rules or PUNTO_BANCO
    show = procedure.shows_first
    if log_format not in ("csv", "jsonl"):
        raise SimulationError(f"unknown log format {log_format!r}")
    bet_objs = tuple(catalog().bet(b) if isinstance(b, str) else b for b in bets)
    for bet in bet_objs:
        if not value_only(bet):
            raise SimulationError(
                f"bet {bet.id!r} reads ranks or suits: the reference simulator pays bets on point values only"
            )
    pays = []
    for bet in bet_objs:
        p = [e.pays for e in bet.events] + [bet.otherwise]
        if faults.banker_pays is not None and bet.id == "banker":
            p = [faults.banker_pays if x == Fraction(19, 20) else x for x in p]
        pays.append(p)

    rng = Generator(PCG64(seed))
    base = _base_cards(shoe, faults)
    n_cards = int(base.shape[0])
    if shoes * (n_cards // 4 + 1) > _MAX_COUPS:
        raise SimulationError(
            f"{shoes:,} shoes of {n_cards:,} cards are more coups than the tallies count "
            f"exactly (at most {_MAX_COUPS // (n_cards // 4 + 1):,} shoes)"
        )
    point_of = list(CARD_POINT)
    name_of = [card_text(c) for c in range(len(CARD_POINT))]
    dealt, drew, won = _dealing_tables(rules, faults.banker_cell)
    used = (4, 5, 5, 6)  # cards a coup uses, by drew: 1 the Player drew, 2 the Banker
    unused = (100, 10, 10, 1)  # 10 ** (positions of the six a coup leaves unused)
    stop = n_cards - cut_card  # a coup starts at position pos only while pos <= stop
    extra_coups = procedure.after_cut
    outcome_word = OUTCOME_NAMES
    # the tallies, streamed: how many coups dealt each six-value sequence (its unused cards 0),
    # in a fixed array; the coups of the last shoes wait in seq_out, added every _FLUSH coups
    seq_counts = np.zeros(_SEQUENCES, dtype=np.int64)
    seq_out: list[int] = []
    seqs_append = seq_out.append
    write = log.write if log is not None else None
    if write is not None and log_format == "csv":
        write(log_header(show) + "\n")
    base_list = base.tolist()
    sorted_list = sorted(base_list)  # rank by rank: all aces, then all twos, ...
    new_deck = _new_deck_order(base_list) if faults.riffles is not None else []

    for s in range(1, shoes + 1):
        if faults.with_replacement:
            codes = base[rng.integers(0, n_cards, n_cards)].tolist()
        elif faults.riffles is not None:
            deck = np.array(new_deck)
            for _ in range(faults.riffles):
                bits = rng.integers(0, 2, n_cards).astype(bool)
                top = n_cards - int(bits.sum())
                out = np.empty_like(deck)
                out[~bits], out[bits] = deck[:top], deck[top:]
                deck = out
            codes = deck.tolist()
        elif faults.biased_shuffle:
            codes = sorted_list[:]
            js = rng.integers(0, n_cards, n_cards).tolist()
            for i in range(n_cards):
                j = js[i]
                codes[i], codes[j] = codes[j], codes[i]
        else:
            codes = rng.permutation(base).tolist()
        v = [point_of[c] for c in codes]
        pos, shown, _ = procedure.start(v)
        seen = name_of[codes[0]] if shown else ""
        lines = []
        sid = str(s)
        after = extra_coups
        while pos <= stop or after:
            if pos > stop:
                after -= 1
            i = pos
            # the six values from here index the coup they deal (at least six cards remain)
            s6 = ((((v[i] * 10 + v[i + 1]) * 10 + v[i + 2]) * 10 + v[i + 3]) * 10 + v[i + 4]) * 10 + v[i + 5]
            k = drew[s6]
            seqs_append(s6 - s6 % unused[k])  # the cards it does not use as 0, engine order
            j = i + used[k]
            if write is not None:
                pc = codes
                w = won[s6]
                if k & 1:
                    ph = f"{name_of[pc[i]]} {name_of[pc[i + 2]]} {name_of[pc[i + 4]]}"
                    bh = (
                        f"{name_of[pc[i + 1]]} {name_of[pc[i + 3]]} {name_of[pc[i + 5]]}"
                        if k & 2
                        else f"{name_of[pc[i + 1]]} {name_of[pc[i + 3]]}"
                    )
                else:
                    ph = f"{name_of[pc[i]]} {name_of[pc[i + 2]]}"
                    bh = (
                        f"{name_of[pc[i + 1]]} {name_of[pc[i + 3]]} {name_of[pc[i + 4]]}"
                        if k & 2
                        else f"{name_of[pc[i + 1]]} {name_of[pc[i + 3]]}"
                    )
                if log_format == "csv":
                    lines.append(
                        f"{sid},{ph},{bh},{outcome_word[w]},{seen}" if show else f"{sid},{ph},{bh},{outcome_word[w]}"
                    )
                else:
                    rec = {"shoe": s, "player": ph, "banker": bh, "outcome": outcome_word[w]}
                    if seen:
                        rec["seen"] = seen
                    lines.append(json.dumps(rec))
                seen = ""
            pos = j
        if write is not None and lines:
            write("\n".join(lines) + "\n")
        if len(seq_out) >= _FLUSH:
            _add_sequences(seq_counts, seq_out)
        if progress is not None and (s % 100 == 0 or s == shoes):
            progress(s - (s - 1) // 100 * 100)

    _add_sequences(seq_counts, seq_out)
    seqs = np.flatnonzero(seq_counts)  # the sequences dealt, and how often each was
    times = seq_counts[seqs]

    def tally(keys: np.ndarray, size: int) -> np.ndarray:
        out = np.zeros(size, dtype=np.int64)
        np.add.at(out, keys.astype(np.intp), times)  # exact: int64 counts, no float weights
        return out

    tots = dealt.player_total[seqs].astype(np.int64) * 10 + dealt.banker_total[seqs]
    wc = tally(dealt.winner[seqs], 3)
    tc = tally(tots, 100)
    cc = tally(dealt.cards_dealt[seqs], 7)
    result = SimResult(
        coups=int(times.sum()),
        shoes=shoes,
        outcomes={o: int(wc[i]) for i, o in enumerate(OUTCOME_NAMES)},
        totals={(p, b): int(tc[10 * p + b]) for p in range(10) for b in range(10)},
        cards={c: int(cc[c]) for c in (4, 5, 6)},
    )
    if bet_objs:
        for bet, idx, p in zip(bet_objs, _event_tables(bet_objs, rules), pays):
            counts = tally(idx[seqs], len(p))
            result.bets[bet.id] = (result.coups, sum((int(c) * x for c, x in zip(counts, p)), Fraction(0)))
            result.events[bet.id] = tuple(int(c) for c in counts)
    return result


#: Six-value sequences (the index of the coup table); coups waiting in a list before they are
#: added to the fixed tallies (bounded memory: about 10 MB of Python ints).
_SEQUENCES = 10**6
_FLUSH = 1 << 18
#: The most coups the int64 tallies count exactly.
_MAX_COUPS = 2**63 - 1


def _add_sequences(counts: np.ndarray, seqs: list[int]) -> None:
    """Add the coups of ``seqs`` (six-value sequence indices) to ``counts`` and empty the list."""
    if seqs:
        counts += np.bincount(np.array(seqs, dtype=np.int64), minlength=counts.shape[0])
        seqs.clear()


def _new_deck_order(codes: list[int]) -> list[int]:
    """Deck after deck, each in suit order, A to K within a suit (cards without suits by rank)."""
    left = {c: codes.count(c) for c in set(codes)}
    order = sorted(left, key=lambda c: (c % 5, c // 5))
    out: list[int] = []
    while len(out) < len(codes):
        for c in order:
            if left[c]:
                left[c] -= 1
                out.append(c)
    return out


def simulate_to_text(shoe: Shoe, shoes: int, seed: int, **kw) -> tuple[str, SimResult]:
    """Convenience for tests: the log as text and the result."""
    buf = io.StringIO()
    r = simulate(shoe, shoes, seed, log=buf, **kw)
    return buf.getvalue(), r


__all__ = ["Faults", "SimResult", "SimulationError", "simulate", "simulate_to_text", "DEFAULT_CUT_CARD"]
