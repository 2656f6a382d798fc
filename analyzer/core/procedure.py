"""Shoe procedures as data: the burn, the cut card and the coups after it.

A :class:`Procedure` says how a shuffled shoe is dealt, the same for the
reference simulator (:mod:`analyzer.simcheck.simulate`) and the study
(:mod:`analyzer.studies.dealing`):

* ``burn``: ``"none"``; ``"standard"``: the first card is turned face up (seen)
  and as many cards as its point value (10 for a ten or a face card) are
  burned face down, unseen (no burn when that would reach the cut card); or a
  whole number ``N`` as text: ``N`` cards burned face down, unseen.
* ``cut_card``: the cut card sits with ``cut_card`` cards behind it.  A coup
  starts only while at least ``cut_card`` cards remain; the coup in which the
  cut card comes out is finished.
* ``after_cut``: then that many more coups are played (0 or 1).

>>> p = Procedure.create(52, burn="3", cut_card=14, after_cut=1)
>>> p.start([5] * 52), p.describe()
((3, 0, 3), 'burn 3 cards face down, cut card 14, 1 coup after the cut card')
>>> Procedure.create(52, burn="standard").start([0, 9] + [1] * 50)
(11, 1, 10)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BaccaratError

#: the most cards a coup uses
COUP_CARDS = 6
DEFAULT_CUT = 14
AFTER_CUT = (0, 1)


class ProcedureError(BaccaratError):
    """A shoe procedure that cannot be dealt (one-line message)."""


def parse_burn(text) -> str:
    """``none``, ``standard`` or a whole number of cards (``0`` is ``none``), as text.

    >>> parse_burn(" Standard "), parse_burn("0"), parse_burn("04"), parse_burn(True), parse_burn(False)
    ('standard', 'none', '4', 'standard', 'none')
    """
    if isinstance(text, bool):
        return "standard" if text else "none"
    if isinstance(text, int):
        text = str(text)
    t = str(text).strip().lower()
    if t in ("none", "standard"):
        return t
    if t.isdigit() and len(t) <= 9:
        return "none" if int(t) == 0 else str(int(t))
    shown = t if len(t) <= 30 else t[:30] + "..."
    raise ProcedureError(f"unknown --burn {shown!r} (choose from standard, none or a number of cards)")


@dataclass(frozen=True)
class Procedure:
    """How a shoe is dealt (see the module); build it with :meth:`create`."""

    burn: str = "none"
    cut_card: int = DEFAULT_CUT
    after_cut: int = 0

    @classmethod
    def create(cls, cards: int, burn="none", cut_card: int = DEFAULT_CUT, after_cut: int = 0) -> Procedure:
        """Check the procedure against a shoe of ``cards`` cards."""
        burn = parse_burn(burn)
        if isinstance(cut_card, bool) or not isinstance(cut_card, int) or cut_card < COUP_CARDS:  # type: ignore[redundant-expr]  # checked at run time
            raise ProcedureError(
                f"--cut-card must be a whole number >= {COUP_CARDS} (a coup can use "
                f"{COUP_CARDS} cards), got {cut_card!r}"
            )
        if cut_card > cards:
            raise ProcedureError(
                f"--cut-card {cut_card} is deeper than the shoe ({cards} cards): no coup could be dealt"
            )
        if isinstance(after_cut, bool) or after_cut not in AFTER_CUT:
            raise ProcedureError(f"--after-cut must be 0 or 1, got {after_cut!r}")
        if cut_card < COUP_CARDS * (1 + after_cut):
            raise ProcedureError(
                f"--after-cut {after_cut} needs --cut-card at least "
                f"{COUP_CARDS * (1 + after_cut)} (every coup after the cut card can use "
                f"{COUP_CARDS} cards), got {cut_card}"
            )
        if burn not in ("none", "standard") and int(burn) > cards - cut_card:
            raise ProcedureError(
                f"--burn {burn} is beyond the shoe: {cards} cards with {cut_card} behind "
                f"the cut card leave at most {cards - cut_card} to burn"
            )
        return cls(burn, cut_card, after_cut)

    @property
    def is_default(self) -> bool:
        return self.burn == "none" and self.after_cut == 0

    @property
    def shows_first(self) -> bool:
        """Is the first card of each shoe turned face up (standard burn)?"""
        return self.burn == "standard"

    def start(self, values) -> tuple[int, int, int]:
        """``(position of the first coup, cards shown face up, cards burned face down)`` of a
        shoe with these point values in dealing order (the burned cards follow the shown one)."""
        total = len(values)
        if self.burn == "standard":
            if total - 1 < self.cut_card:
                return 0, 0, 0
            burned = values[0] or 10
            if total - 1 - burned < self.cut_card:
                burned = 0
            return 1 + burned, 1, burned
        if self.burn == "none":
            return 0, 0, 0
        n = int(self.burn)
        return n, 0, n

    def describe(self) -> str:
        """``burn standard, cut card 14`` (the after-cut coups only when there are any)."""
        burn = {"none": "no burn", "standard": "burn standard"}.get(self.burn, f"burn {self.burn} cards face down")
        return f"{burn}, cut card {self.cut_card}" + (
            f", {self.after_cut} coup after the cut card" if self.after_cut else ""
        )


__all__ = ["AFTER_CUT", "COUP_CARDS", "DEFAULT_CUT", "Procedure", "ProcedureError", "parse_burn"]
