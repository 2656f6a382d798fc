"""Bets as data: pay tables whose events are conditions on the coup.

The built-in catalog lives in ``analyzer/bets/data/`` (the files of
:data:`CATALOG_FILES`, read in that order); user files have the same shape (see
docs/bets.md).  A bet's events are tried in order, the first whose
condition holds decides the payout, and a coup matching none pays
``otherwise`` (``-1`` unless stated: the stake is lost).

>>> bet = catalog().bet("banker")
>>> [(e.event, str(e.pays)) for e in bet.events]
[('banker wins', '19/20'), ('tie (push)', '0')]
>>> parse_pays("0.95"), parse_pays("-1"), parse_pays(8)
(Fraction(19, 20), Fraction(-1, 1), Fraction(8, 1))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BaccaratError, BetError
from ..io.files import parse_toml, read_text
from .conditions import Condition

if TYPE_CHECKING:
    from .series import SeriesBet


def parse_pays(value: object, where: str = "pays") -> Fraction:
    """An exact payout "to 1" from an integer, a decimal or ``p/q`` string, or a TOML float.

    A payout below -1 (losing more than the stake) is refused.
    """
    if isinstance(value, bool):
        raise BetError(f"{where}: {value!r} is not a payout")
    try:
        if isinstance(value, int):
            out = Fraction(value)
        elif isinstance(value, float):
            out = Fraction(repr(value))  # the decimal as written in the file
        elif isinstance(value, str):
            if len(value) > 60:
                raise ValueError
            out = Fraction(value.strip())
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise BetError(f"{where}: {_cut(value)} is not a payout (write 8, \"19/20\" or \"0.95\")") from None
    if out < -1:
        raise BetError(f"{where}: payout {out} would lose more than the stake (must be >= -1)")
    if abs(out.numerator) > MAX_PAYS or out.denominator > MAX_PAYS:
        raise BetError(f"{where}: payout {_cut(value)} is beyond what a pay table prints "
                       f"(numerator and denominator at most {MAX_PAYS:,})")
    return out


#: Largest numerator and denominator of a payout (a trillion to 1).
MAX_PAYS = 10**12


def _cut(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


@dataclass(frozen=True)
class Event:
    """One line of a pay table: its name, what it pays (to 1) and its condition."""

    event: str
    pays: Fraction
    when: Condition


@dataclass(frozen=True)
class Bet:
    """A bet: id, human name, pay table, and what a coup matching no event pays."""

    id: str
    name: str
    description: str
    events: tuple[Event, ...]
    otherwise: Fraction = Fraction(-1)
    otherwise_event: str = "loses"
    source: str = ""

    @property
    def features(self) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for e in self.events:
            out |= e.when.features
        return out


@dataclass(frozen=True)
class Table:
    """A named rule set: the bets one table deals."""

    id: str
    name: str
    description: str
    bets: tuple[str, ...]


@dataclass(frozen=True)
class Catalog:
    """Bets, tables and series bets (:mod:`analyzer.bets.series`) by id.  Series bets are
    kept apart: they are settled over many coups, so only ``odds`` prices them (and
    ``study`` follows them over dealt shoes, :mod:`analyzer.studies.series`), and
    ``bets`` (and ``--bets all``) are the bets settled on one coup."""

    bets: dict[str, Bet] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    series: dict[str, SeriesBet] = field(default_factory=dict)

    def bet(self, bet_id: str) -> Bet:
        try:
            return self.bets[bet_id]
        except KeyError:
            if bet_id in self.series:
                raise BetError(f"bet {bet_id!r} is a series bet (settled on the coups that follow the one "
                               "it is placed on): 'baccarat odds' prices it, 'baccarat study' deals it "
                               "over shoes") from None
            raise BetError(f"unknown bet {bet_id!r} (known: {', '.join(self.bets)})") from None

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise BetError(f"unknown table {table_id!r} (known: {', '.join(self.tables)})") from None

    def select(self, ids: list[str]) -> tuple[Bet, ...]:
        """The bets named by ``ids``, in that order, without repeats."""
        seen: dict[str, Bet] = {}
        for i in ids:
            seen.setdefault(i, self.bet(i))
        return tuple(seen.values())

    def merged(self, other: Catalog) -> Catalog:
        """This catalog plus ``other``; an id defined in both is an error."""
        mine_bets, their_bets = set(self.bets) | set(self.series), set(other.bets) | set(other.series)
        for kind, mine, theirs in (("bet", mine_bets, their_bets), ("table", self.tables, other.tables)):
            clash = sorted(set(mine) & set(theirs))
            if clash:
                raise BetError(f"{kind} id {clash[0]!r} is already defined in the catalog")
        return Catalog({**self.bets, **other.bets}, {**self.tables, **other.tables},
                       {**self.series, **other.series})


_BET_KEYS = {"id", "name", "description", "events", "otherwise", "otherwise_event", "source"}
_EVENT_KEYS = {"event", "when", "pays"}
_TABLE_KEYS = {"id", "name", "description", "bets", "source"}


class _Lines:
    """Line numbers of the ``[[bet]]`` / ``[[table]]`` blocks of a TOML text, for messages.

    ``tomllib`` gives no positions, so the i-th parsed bet is matched with the
    i-th ``[[bet]]`` header; a line is then looked for inside that block only.
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()
        headers = []
        for n, line in enumerate(self.lines):
            m = re.match(r"\s*\[\[\s*(bet|table|series)\s*\]\]", line)
            if m:
                headers.append((m.group(1), n))
        self.blocks: dict[str, list[tuple[int, int]]] = {"bet": [], "table": [], "series": []}
        for i, (kind, start) in enumerate(headers):
            end = headers[i + 1][1] if i + 1 < len(headers) else len(self.lines)
            self.blocks[kind].append((start, end))

    def _find(self, kind: str, index: int, pattern: str | None, literal: str | None) -> str:
        if index >= len(self.blocks[kind]):
            return ""
        start, end = self.blocks[kind][index]
        for n in range(start, end):
            line = self.lines[n]
            if (pattern and re.match(pattern, line)) or (literal and literal in line):
                return f"line {n + 1}: "
        return f"line {start + 1}: "

    def block(self, kind: str, index: int) -> str:
        """The line of the block's ``id =`` (else its header)."""
        return self._find(kind, index, r"\s*id\s*=", None)

    def containing(self, kind: str, index: int, text: str) -> str:
        return self._find(kind, index, None, text)


def _require_str(d: dict, key: str, where: str) -> str:
    v = d.get(key)
    if not isinstance(v, str) or not v.strip():
        raise BetError(f"{where}: '{key}' must be a non-empty string")
    return v.strip()


def parse_catalog(text: str, source: str = "<bets>", known_bets: frozenset[str] = frozenset()) -> Catalog:
    """Read bets and tables from TOML text.  Errors name ``source`` and the line."""
    data = parse_toml(text, source, BetError)
    unknown = set(data) - {"bet", "table", "series"}
    if unknown:
        raise BetError(f"{source}: unknown section {sorted(unknown)[0]!r} (use [[bet]], [[table]] and [[series]])")
    lines = _Lines(text)
    bets: dict[str, Bet] = {}
    for section in ("bet", "table", "series"):
        if not isinstance(data.get(section, []), list):
            raise BetError(f"{source}: '{section}' must be a list of tables ([[{section}]] ...)")
    for index, raw in enumerate(data.get("bet", [])):
        if not isinstance(raw, dict):
            raise BetError(f"{source}: each [[bet]] must be a table")
        where = f"{source}: {lines.block('bet', index)}bet {raw.get('id', '?')!r}"
        extra = set(raw) - _BET_KEYS
        if extra:
            raise BetError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_BET_KEYS))})")
        bet_id = _require_id(raw, where)
        if bet_id in bets:
            raise BetError(f"{where}: duplicated bet id {bet_id!r}")
        events = raw.get("events")
        if not isinstance(events, list) or not events:
            raise BetError(f"{where}: 'events' must be a non-empty list")
        parsed = []
        for ev in events:
            if not isinstance(ev, dict):
                raise BetError(f"{where}: each event must be a table {{ event, when, pays }}")
            extra = set(ev) - _EVENT_KEYS
            if extra:
                raise BetError(f"{where}: unknown event key {sorted(extra)[0]!r} (keys: event, when, pays)")
            name = _require_str(ev, "event", where)
            when_text = _require_str(ev, "when", where)
            ev_where = f"{source}: {lines.containing('bet', index, when_text)}bet {bet_id!r}, event {name!r}"
            if "pays" not in ev:
                raise BetError(f"{ev_where}: 'pays' is missing")
            try:
                cond = Condition.parse(when_text)
            except BetError as e:
                raise BetError(f"{ev_where}: {e}") from None
            parsed.append(Event(name, parse_pays(ev["pays"], ev_where), cond))
        names = [e.event for e in parsed]
        if len(set(names)) != len(names):
            raise BetError(f"{where}: two events have the same name")
        otherwise = parse_pays(raw.get("otherwise", -1), f"{where}: otherwise")
        if "source" in raw and not isinstance(raw["source"], str):
            raise BetError(f"{where}: 'source' must be a string (where the pay table is published)")
        for key in ("name", "otherwise_event"):
            if isinstance(raw.get(key), str) and not raw[key].isprintable():
                raise BetError(f"{where}: {key} must be one line of printable text")
        if any(not e.event.isprintable() for e in parsed):
            raise BetError(f"{where}: event names must be one line of printable text")
        bets[bet_id] = Bet(
            id=bet_id,
            name=str(raw.get("name", bet_id)),
            description=str(raw.get("description", "")),
            events=tuple(parsed),
            otherwise=otherwise,
            otherwise_event=str(raw.get("otherwise_event", "loses" if otherwise == -1 else "otherwise")),
            source=str(raw.get("source", "")).strip(),
        )
    series: dict[str, SeriesBet] = {}
    if data.get("series"):
        from .series import parse_series
    for index, raw in enumerate(data.get("series", [])):
        if not isinstance(raw, dict):
            raise BetError(f"{source}: each [[series]] must be a table")
        s = parse_series(raw, source, lines, index)
        if s.id in bets or s.id in series:
            raise BetError(f"{source}: {lines.block('series', index)}series {s.id!r}: duplicated bet id {s.id!r}")
        series[s.id] = s
    tables: dict[str, Table] = {}
    for index, raw in enumerate(data.get("table", [])):
        if not isinstance(raw, dict):
            raise BetError(f"{source}: each [[table]] must be a table")
        where = f"{source}: {lines.block('table', index)}table {raw.get('id', '?')!r}"
        extra = set(raw) - _TABLE_KEYS
        if extra:
            raise BetError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_TABLE_KEYS))})")
        table_id = _require_id(raw, where)
        if table_id in tables:
            raise BetError(f"{where}: duplicated table id {table_id!r}")
        ids = raw.get("bets")
        if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
            raise BetError(f"{where}: 'bets' must be a non-empty list of bet ids")
        for i in ids:
            if i in series:
                raise BetError(f"{where}: {i!r} is a series bet: a table lists bets settled on one coup")
            if i not in bets and i not in known_bets:
                raise BetError(f"{where}: unknown bet {i!r}")
        tables[table_id] = Table(table_id, str(raw.get("name", table_id)),
                                 str(raw.get("description", "")), tuple(ids))
    if not bets and not tables and not series:
        raise BetError(f"{source}: no [[bet]], [[table]] or [[series]] in the file")
    return Catalog(bets, tables, series)


#: What a bet or table id looks like: it is used in --bets lists, tables and file names.
ID_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")


def _require_id(raw: dict, where: str) -> str:
    value = _require_str(raw, "id", where)
    if not ID_PATTERN.fullmatch(value):
        raise BetError(f"{where}: id {value!r} must be a lower-case letter followed by lower-case "
                       "letters, digits or '_' (at most 64 characters)")
    return value


#: The files of the built-in catalog, in ``analyzer/bets/data/``, in the order read.
CATALOG_FILES = ("bets.toml", "side_bets_a.toml", "side_bets_b.toml", "cards.toml", "series.toml")


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The built-in catalog shipped with the package (every file of :data:`CATALOG_FILES`)."""
    out = Catalog()
    data = resources.files("analyzer.bets").joinpath("data")
    for name in CATALOG_FILES:
        text = data.joinpath(name).read_text(encoding="utf-8")
        part = parse_catalog(text, f"built-in catalog ({name})", frozenset(out.bets))
        out = out.merged(part)
    return out


#: The largest bets file read (1 MiB: thousands of bets).
MAX_BETS_FILE_BYTES = 2**20


def load_bets_file(path: str | Path, base: Catalog | None = None) -> Catalog:
    """``base`` (the built-in catalog by default) extended with the bets and tables of a file."""
    base = base or catalog()
    p = Path(path)
    try:
        text = read_text(p, "bets file", MAX_BETS_FILE_BYTES)
    except BaccaratError as e:
        raise BetError(str(e)) from None
    extra = parse_catalog(text, str(p), frozenset(base.bets))
    try:
        return base.merged(extra)
    except BetError as e:
        raise BetError(f"{p}: {e}") from None


MAIN_BETS = ("player", "banker", "tie")
