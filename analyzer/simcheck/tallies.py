"""Tallies: per-category counts of a simulator's coups, read and written.

A tallies file is CSV with header ``category,count,total_return`` (see
docs/simcheck.md, "Inputs"): the outcome rows, optional ``totals:P-B`` and ``cards:N``
rows, and ``bet:<id>`` rows with the net units won.  Amounts are exact.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from .logs import OUTCOME_NAMES, LogError, header_index, read_text, shown

TALLY_HEADER = ("category", "count", "total_return")


@dataclass(frozen=True)
class BetTally:
    count: int
    total_return: Fraction
    row: int


@dataclass
class Tallies:
    """Counts read from a tallies file.  ``totals`` / ``cards`` are ``None`` when absent."""

    path: str
    outcomes: dict[str, int]
    totals: dict[tuple[int, int], int] | None
    cards: dict[int, int] | None
    bets: dict[str, BetTally]
    rows: dict[str, int]

    @property
    def coups(self) -> int:
        return sum(self.outcomes.values())


def _parse_category(cat: str) -> tuple[str, Any] | None:
    """``(kind, key)``: the key's type follows the kind (a name, a pair of totals, a count of cards)."""
    low = cat.lower()
    if low in OUTCOME_NAMES:
        return "outcome", low
    if low.startswith("totals:"):
        p, dash, b = low[7:].partition("-")
        if (
            dash
            and p.strip().isdigit()
            and b.strip().isdigit()
            and int(p) <= 9
            and int(b) <= 9
            and len(p.strip()) == 1
            and len(b.strip()) == 1
        ):
            return "totals", (int(p), int(b))
        return None
    if low.startswith("cards:"):
        n = low[6:].strip()
        if n in ("4", "5", "6"):
            return "cards", int(n)
        return None
    if low.startswith("bet:") and cat[4:].strip():
        return "bet", cat[4:].strip()
    return None


_AMOUNT = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})|[+-]?[0-9]{1,30}/[0-9]{1,30}")


def parse_return(text: str) -> Fraction:
    """An exact amount: integer, decimal (``-1234.55``) or ``p/q`` (ASCII digits only).

    >>> parse_return("-12.35"), parse_return("7/20")
    (Fraction(-247, 20), Fraction(7, 20))
    """
    t = text.strip()
    if not _AMOUNT.fullmatch(t):
        raise ValueError(t)
    return Fraction(t)


def read_tallies(path: str | Path, text: str | None = None) -> Tallies:
    """Read a tallies CSV.  Raises :class:`LogError` naming file and row."""
    path = str(path)
    if text is None:
        text = read_text(path)
    if not text.strip():
        raise LogError(f"{path}: empty file (expected a header category,count,total_return)")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
        while not any(f.strip() for f in header):
            header = next(reader)
        index = header_index(path, header, ("category", "count"), "tallies file")
        i_cat, i_n, i_r = index["category"], index["count"], index.get("total_return")
        need = max(i for i in (i_cat, i_n, i_r) if i is not None) + 1
        outcomes: dict[str, int] = {}
        totals: dict[tuple[int, int], int] = {}
        cards: dict[int, int] = {}
        bets: dict[str, BetTally] = {}
        rows: dict[str, int] = {}
        for fields in reader:
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue
            row = reader.line_num
            where = f"{path}: row {row}"
            if len(fields) < need and not (i_r is not None and len(fields) == need - 1 and i_r == need - 1):
                # (a missing trailing total_return is read as empty)
                raise LogError(f"{where}: {len(fields)} fields but the header has {len(header)}")
            cat = fields[i_cat].strip()
            parsed = _parse_category(cat)
            if parsed is None:
                raise LogError(
                    f"{where}: unknown category {cat!r} (use player, banker, tie, totals:P-B, cards:4/5/6 or bet:<id>)"
                )
            kind, key = parsed
            canon = cat.lower() if kind != "bet" else f"bet:{key}"
            if canon in rows:
                raise LogError(f"{where}: category {cat!r} already given at row {rows[canon]}")
            rows[canon] = row
            count_text = fields[i_n].strip()
            if not re.fullmatch(r"[0-9]{1,15}", count_text):
                raise LogError(f"{where}: count {shown(count_text)} is not a whole number from 0 to 10**15")
            count = int(count_text)
            ret_text = fields[i_r].strip() if i_r is not None and i_r < len(fields) else ""
            if kind == "bet":
                if not ret_text:
                    raise LogError(
                        f"{where}: bet row {cat!r} needs a total_return (net units won, e.g. -1234.5 or 7/20)"
                    )
                try:
                    ret = parse_return(ret_text)
                except (ValueError, ZeroDivisionError):
                    raise LogError(
                        f"{where}: total_return {shown(ret_text)} is not an exact number (write -1234.55 or p/q)"
                    ) from None
                bets[key] = BetTally(count, ret, row)
            else:
                if ret_text:
                    raise LogError(f"{where}: total_return is only for bet:<id> rows, leave it empty on {cat!r}")
                by_kind: dict[str, dict[Any, int]] = {"outcome": outcomes, "totals": totals, "cards": cards}
                by_kind[kind][key] = count
    except csv.Error as e:
        raise LogError(f"{path}: row {reader.line_num}: {e}") from None
    except StopIteration:
        raise LogError(f"{path}: empty file (expected a header category,count,total_return)") from None
    missing = [o for o in OUTCOME_NAMES if o not in outcomes]
    if missing:
        raise LogError(f"{path}: no row {missing[0]!r} (tallies need rows player, banker and tie)")
    n = sum(outcomes.values())
    if n == 0:
        raise LogError(f"{path}: no coups (player + banker + tie = 0)")
    if totals:
        s = sum(totals.values())
        if s != n:
            raise LogError(
                f"{path}: the totals:P-B rows add up to {s} coups but player + banker + tie "
                f"= {n} (missing cells count 0)"
            )
    if cards:
        s = sum(cards.values())
        if s != n:
            raise LogError(
                f"{path}: the cards:4/5/6 rows add up to {s} coups but player + banker + tie "
                f"= {n} (missing rows count 0)"
            )
    return Tallies(path, outcomes, totals or None, cards or None, bets, rows)


# -- writing ------------------------------------------------------------------------


def exact_amount(x: Fraction) -> str:
    """An exact amount as a terminating decimal when it has one, else ``p/q``.

    >>> exact_amount(Fraction(-247, 20)), exact_amount(Fraction(1, 3)), exact_amount(Fraction(5))
    ('-12.35', '1/3', '5')
    """
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    places = max(twos, fives)
    scaled = x * 10**places
    sign = "-" if scaled < 0 else ""
    digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def tallies_csv(
    outcomes: dict[str, int],
    totals: dict[tuple[int, int], int] | None = None,
    cards: dict[int, int] | None = None,
    bets: dict[str, tuple[int, Fraction]] | None = None,
) -> str:
    """The tallies file text (every totals cell and cards row written, zeros included)."""
    lines = [",".join(TALLY_HEADER)]
    for o in OUTCOME_NAMES:
        lines.append(f"{o},{outcomes.get(o, 0)},")
    if totals is not None:
        for p in range(10):
            for b in range(10):
                lines.append(f"totals:{p}-{b},{totals.get((p, b), 0)},")
    if cards is not None:
        for c in (4, 5, 6):
            lines.append(f"cards:{c},{cards.get(c, 0)},")
    for bet_id, (count, ret) in (bets or {}).items():
        lines.append(f"bet:{bet_id},{count},{exact_amount(ret)}")
    return "\n".join(lines) + "\n"
