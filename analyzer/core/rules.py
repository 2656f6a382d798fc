"""The Punto Banco drawing rules, as data.

The Banker's third-card rule is kept as a literal table shaped like the printed
one (``RULES.md``): for each Banker two-card total, the point values of Player's
third card on which Banker draws, and those on which it stands.  Everything else
in the package derives from it: :data:`BANKER_DRAWS` is the same table as a
10 x 10 grid, and :func:`play_coup` deals one coup card by card.

>>> play_coup([2, 4, 3, 2, 7, 2])      # P 2,3 then 7; B 4,2 then 2 -> Banker 8 wins
Coup(player=(2, 3, 7), banker=(4, 2, 2), player_total=2, banker_total=8, winner='banker')
>>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None)
(False, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

#: Banker's rule when Player drew a third card, as printed:
#: (Banker two-card totals, Banker draws when Player's third card is, Banker stands when it is)
BANKER_RULE_TABLE: tuple[tuple[tuple[int, ...], str, str], ...] = (
    ((0, 1, 2), "any",    "-"),
    ((3,),      "0-7, 9", "8"),
    ((4,),      "2-7",    "0, 1, 8, 9"),
    ((5,),      "4-7",    "0-3, 8, 9"),
    ((6,),      "6, 7",   "0-5, 8, 9"),
    ((7,),      "never",  "always"),
)

NATURAL_TOTALS = (8, 9)          # a two-card 8 or 9 ends the coup
PLAYER_DRAWS_ON = range(0, 6)     # Player draws on 0-5, stands on 6-7
BANKER_DRAWS_ON_IF_PLAYER_STOOD = range(0, 6)


def parse_values(text: str) -> frozenset[int]:
    """Read a cell of the printed table: ``"0-3, 8, 9"`` -> {0, 1, 2, 3, 8, 9}.

    >>> sorted(parse_values("0-3, 8, 9")), sorted(parse_values("never"))
    ([0, 1, 2, 3, 8, 9], [])
    """
    text = text.strip()
    if text in ("any", "always"):
        return frozenset(range(10))
    if text in ("-", "never"):
        return frozenset()
    out: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return frozenset(out)


def _grid() -> tuple[tuple[bool, ...], ...]:
    rows: dict[int, frozenset[int]] = {}
    for totals, draws, stands in BANKER_RULE_TABLE:
        d, s = parse_values(draws), parse_values(stands)
        if d & s or (d | s) != frozenset(range(10)):
            raise AssertionError(f"banker rule row {totals} does not split 0-9: {draws!r} / {stands!r}")
        for t in totals:
            rows[t] = d
    # Banker 8 and 9 are naturals: the coup is over before any third card.
    return tuple(tuple(p in rows.get(b, frozenset()) for p in range(10)) for b in range(10))


#: ``BANKER_DRAWS[banker_total][player_third_card_value]``: True when Banker draws.
BANKER_DRAWS: tuple[tuple[bool, ...], ...] = _grid()


def hand_total(values: Sequence[int]) -> int:
    """Baccarat total: last digit of the sum of point values."""
    return sum(values) % 10


def is_natural(total: int) -> bool:
    return total in NATURAL_TOTALS


def player_draws(player_total: int) -> bool:
    """Player (no natural on either side) draws on 0-5."""
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Does Banker (no natural on either side) draw?

    ``player_third`` is the point value of Player's third card, or ``None`` if
    Player stood.
    """
    if player_third is None:
        return banker_total in BANKER_DRAWS_ON_IF_PLAYER_STOOD
    return BANKER_DRAWS[banker_total][player_third]


@dataclass(frozen=True)
class Coup:
    """One coup: the point values of each hand in dealt order, totals and winner."""

    player: tuple[int, ...]
    banker: tuple[int, ...]
    player_total: int
    banker_total: int
    winner: str  # "player", "banker" or "tie"

    @property
    def cards_used(self) -> int:
        return len(self.player) + len(self.banker)

    @property
    def natural(self) -> bool:
        return len(self.player) == 2 and len(self.banker) == 2 and (
            is_natural(hand_total(self.player)) or is_natural(hand_total(self.banker)))


def play_coup(values: Sequence[int]) -> Coup:
    """Deal a coup from point values in shoe order (P, B, P, B, then third cards).

    Needs at least as many values as the coup uses (4 to 6); extra ones are ignored.
    The fifth card goes to whichever hand draws first.
    """
    it = iter(values)
    try:
        p = [next(it)]
        b = [next(it)]
        p.append(next(it))
        b.append(next(it))
        pt, bt = hand_total(p), hand_total(b)
        if not (is_natural(pt) or is_natural(bt)):
            third = None
            if player_draws(pt):
                third = next(it)
                p.append(third)
            if banker_draws(bt, third):
                b.append(next(it))
    except StopIteration:
        raise ValueError("not enough cards to finish the coup") from None
    pt, bt = hand_total(p), hand_total(b)
    winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return Coup(tuple(p), tuple(b), pt, bt, winner)
