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
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from ..core.errors import BaccaratError, BetError
from ..core.frames import bet_list
from ..io.files import parse_toml, read_text
from .conditions import Condition


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
        raise BetError(f'{where}: {_cut(value)} is not a payout (write 8, "19/20" or "0.95")') from None
    if out < -1:
        raise BetError(f"{where}: payout {out} would lose more than the stake (must be >= -1)")
    if abs(out.numerator) > MAX_PAYS or out.denominator > MAX_PAYS:
        raise BetError(
            f"{where}: payout {_cut(value)} is beyond what a pay table prints "
            f"(numerator and denominator at most {MAX_PAYS:,})"
        )
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
    ``study`` follows them over dealt shoes, :mod:`analyzer.studies.series`; ``design``
    designs their pays by run length, :mod:`analyzer.reports.design`), and
    ``bets`` (and ``--bets all``) are the bets settled on one coup."""

    bets: dict[str, Bet] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    series: dict[str, SeriesBet] = field(default_factory=dict)

    def __repr__(self) -> str:
        """Short: the ids of its bets, tables and series bets (the first few of each).

        >>> catalog()  # doctest: +ELLIPSIS
        <Catalog of ... bets: player, banker, tie, ...; ... tables: ...; ... series bets: ...>
        """
        parts = [bet_list(self.bets)]
        parts += [bet_list(self.tables).replace("bet", "table", 1)] if self.tables else []
        parts += [bet_list(self.series).replace("bet", "series bet", 1)] if self.series else []
        return f"<Catalog of {'; '.join(parts)}>"

    def bet(self, bet_id: str) -> Bet:
        try:
            return self.bets[bet_id]
        except KeyError:
            if bet_id in self.series:
                raise BetError(
                    f"bet {bet_id!r} is a series bet (settled on the coups that follow the one "
                    "it is placed on): 'baccarat odds' prices it, 'baccarat study' deals it "
                    "over shoes, 'baccarat design' designs its pays"
                ) from None
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
        return Catalog({**self.bets, **other.bets}, {**self.tables, **other.tables}, {**self.series, **other.series})


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

    def key(self, kind: str, index: int, key: str) -> str:
        """The line of the block's ``key = ...`` (else its header)."""
        return self._find(kind, index, r"\s*" + re.escape(key) + r"\s*=", None)


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
        tables[table_id] = Table(table_id, str(raw.get("name", table_id)), str(raw.get("description", "")), tuple(ids))
    if not bets and not tables and not series:
        raise BetError(f"{source}: no [[bet]], [[table]] or [[series]] in the file")
    return Catalog(bets, tables, series)


# -- series bets: [[series]] ---------------------------------------------------------

#: Largest cap of a series bet: the exact weights are integers of ``cap`` times a
#: coup's denominator's digits (about 1,600 digits at 100 on eight decks).
MAX_SERIES_CAP = 100

_SERIES_KEYS = {
    "id",
    "name",
    "description",
    "source",
    "placed",
    "placed_after_run",
    "run",
    "skip",
    "cap",
    "pays",
    "otherwise",
    "otherwise_event",
}


@dataclass(frozen=True)
class SeriesBet:
    """A series bet (``[[series]]``, priced by :mod:`analyzer.bets.series`): when it is
    placed, what extends, skips and ends the run, the cap and the pay table by run length
    (``pays``: ``(length, pays)`` pairs, the longest first; lengths not listed pay
    ``otherwise``)."""

    id: str
    name: str
    description: str
    placed: Condition
    run: Condition
    skip: Condition | None
    cap: int
    pays: tuple[tuple[int, Fraction], ...]
    otherwise: Fraction = Fraction(-1)
    otherwise_event: str = "other lengths"
    source: str = ""
    #: also placed after this many consecutive coups of the run condition at the table (skipped
    #: coups do not count, any other coup starts the count again; ``None``: not), a condition
    #: on the shoe's history that only a dealt shoe follows (Banker Streak: after ten Banker wins)
    placed_after_run: int | None = None

    def event_name(self, length: int) -> str:
        """How the pay table prints a length: the cap as ``"10 or more"`` (the run stops
        there: the top award is paid), the others as the number."""
        return f"{length} or more" if length == self.cap else str(length)

    @cached_property
    def coup_bet(self) -> Bet:
        """One coup's classes as a per-coup :class:`Bet` the solver counts: ``extends``
        (the run condition), ``skipped`` (the skip condition, when there is one, and not
        the run condition), ``ends`` (the rest).  Its payouts are placeholders (0)."""
        events = [Event("extends", Fraction(0), self.run)]
        if self.skip is not None:
            events.append(Event("skipped", Fraction(0), self.skip))
        return Bet(
            id=self.id,
            name=self.name,
            description="the coup classes of a series bet",
            events=tuple(events),
            otherwise=Fraction(0),
            otherwise_event="ends",
        )

    @property
    def features(self) -> frozenset[str]:
        out = self.placed.features | self.run.features
        return out | self.skip.features if self.skip is not None else out

    def pay_of(self, length: int) -> Fraction:
        return dict(self.pays).get(length, self.otherwise)


# -- reading [[series]] -----------------------------------------------------------------


def parse_series(raw: dict, source: str, lines, index: int) -> SeriesBet:
    """The ``index``-th ``[[series]]`` table of the bets file ``source`` (``lines``: its
    :class:`_Lines`, for the line numbers of messages).  Refused with one line: a
    missing or bad cap, a pay table with lengths outside 0..cap, a condition that does not
    parse, a skip that holds on every coup (the run would never end)."""
    where = f"{source}: {lines.block('series', index)}series {raw.get('id', '?')!r}"
    extra = set(raw) - _SERIES_KEYS
    if extra:
        raise BetError(f"{where}: unknown key {sorted(extra)[0]!r} (keys: {', '.join(sorted(_SERIES_KEYS))})")
    bet_id = _require_id(raw, where)
    conditions: dict[str, Condition | None] = {}
    for key in ("placed", "run", "skip"):
        if key == "skip" and key not in raw:
            conditions[key] = None
            continue
        text = _require_str(raw, key, where)
        try:
            conditions[key] = Condition.parse(text)
        except BetError as e:
            line = lines.containing("series", index, text)
            raise BetError(f"{source}: {line}series {bet_id!r}, {key}: {e}") from None
    if "cap" not in raw:
        raise BetError(
            f"{where}: 'cap' is missing: a series bet needs the run length at which it is "
            f"paid and over (a whole number from 1 to {MAX_SERIES_CAP})"
        )
    cap = raw["cap"]
    at_key = {
        key: f"{source}: {_line_of_key(lines, index, key)}series {bet_id!r}" for key in ("cap", "pays", "otherwise")
    }
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_SERIES_CAP:
        raise BetError(f"{at_key['cap']}: cap {_cut(cap)} must be a whole number from 1 to {MAX_SERIES_CAP}")
    table = raw.get("pays")
    if not isinstance(table, dict) or not table:
        raise BetError(
            f"{at_key['pays']}: 'pays' must be a non-empty table of run length = payout, "
            "e.g. pays = { 4 = 10, 10 = 250 }"
        )
    where = at_key["pays"]
    pays: dict[int, Fraction] = {}
    for key, value in table.items():
        if not re.fullmatch(r"[0-9]{1,4}", key) or not 0 <= int(key) <= cap:
            raise BetError(f"{where}: pays: run length {_cut(key)} must be a whole number from 0 to the cap ({cap})")
        if int(key) in pays:
            raise BetError(f"{where}: pays: run length {int(key)} is given twice")
        pays[int(key)] = parse_pays(value, f"{where}: pays {key}")
    otherwise = parse_pays(raw.get("otherwise", -1), f"{at_key['otherwise']}: otherwise")
    where = f"{source}: {lines.block('series', index)}series {bet_id!r}"
    for key in ("name", "description", "source", "otherwise_event"):
        if key in raw and not isinstance(raw[key], str):
            raise BetError(f"{where}: '{key}' must be a string")
    for key in ("name", "otherwise_event"):
        if isinstance(raw.get(key), str) and not raw[key].isprintable():
            raise BetError(f"{where}: {key} must be one line of printable text")
    after = raw.get("placed_after_run")
    if after is not None and (
        isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= MAX_SERIES_CAP
    ):
        raise BetError(
            f"{_line_of_key_where(source, lines, index, bet_id, 'placed_after_run')}: placed_after_run "
            f"{_cut(after)} must be a whole number from 1 to {MAX_SERIES_CAP}"
        )
    skip = conditions["skip"]
    if skip is not None:
        _check_ends(skip, where)
    run, placed = conditions["run"], conditions["placed"]
    assert run is not None and placed is not None
    listed = sorted(pays, reverse=True)
    rest = [k for k in range(cap + 1) if k not in pays]
    default_other = f"{rest[-1]} or less" if rest and rest == list(range(rest[-1] + 1)) else "other lengths"
    return SeriesBet(
        id=bet_id,
        name=str(raw.get("name", bet_id)),
        description=str(raw.get("description", "")),
        placed=placed,
        run=run,
        skip=skip,
        cap=cap,
        pays=tuple((k, pays[k]) for k in listed),
        otherwise=otherwise,
        otherwise_event=str(raw.get("otherwise_event", default_other)),
        source=str(raw.get("source", "")).strip(),
        placed_after_run=after,
    )


def _line_of_key_where(source: str, lines, index: int, bet_id: str, key: str) -> str:
    return f"{source}: {_line_of_key(lines, index, key)}series {bet_id!r}"


def _line_of_key(lines, index: int, key: str) -> str:
    """``"line N: "`` of ``key = ...`` in the ``index``-th ``[[series]]`` block (else its header)."""
    return lines.key("series", index, key)


def _check_ends(skip: Condition, where: str) -> None:
    """Refuse a skip condition that holds on every coup a full shoe deals (point-value
    conditions: checked over the ``10**6`` value sequences, tens of milliseconds); one that
    reads cards is checked on the shoe priced (:func:`analyzer.bets.series.length_weights`)."""
    if skip.reads_cards:
        return
    from ..core.engine import coup_table

    if bool(skip.mask(coup_table().features()).all()):
        raise BetError(f"{where}: the run never ends: skip {skip.text!r} holds on every coup")


#: What a bet or table id looks like: it is used in --bets lists, tables and file names.
ID_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")


def _require_id(raw: dict, where: str) -> str:
    value = _require_str(raw, "id", where)
    if not ID_PATTERN.fullmatch(value):
        raise BetError(
            f"{where}: id {value!r} must be a lower-case letter followed by lower-case "
            "letters, digits or '_' (at most 64 characters)"
        )
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
