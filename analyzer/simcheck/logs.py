"""Readers and writers for simulator output: hand logs and tallies.

Hand log
--------
One row per coup, as CSV with a header or as JSON Lines with the same fields:

``shoe``
    an id that changes at each new shoe (any text; consecutive rows with the
    same id belong to the same shoe);
``player``, ``banker``
    the cards of each hand in dealt order, space separated (``7h 8c 2d``):
    ranks ``A 2..9 T/10 J Q K`` with an optional suit ``s h d c``;
``outcome`` (optional)
    ``player``, ``banker`` or ``tie`` (``P``/``B``/``T`` also read); empty if unknown;
``seen`` (optional)
    cards exposed before the coup (a burn card turned face up, ...).

``player total``, ``banker total`` (optional; also ``player_total``, ``ptotal``...)
    the final totals the simulator reports, checked by ``verify`` against the cards.

Unknown extra columns are ignored.  Row numbers are the file's line numbers
(the CSV header is line 1), so ``sed -n 812p hands.csv`` shows row 812.

Tallies
-------
CSV with header ``category,count,total_return``; rows ``player``, ``banker``,
``tie`` (coups won by each), optionally ``totals:P-B`` (coups ending on Player
total P and Banker total B), ``cards:4``, ``cards:5``, ``cards:6`` and
``bet:<id>`` (``count`` coups bet one unit, ``total_return`` the net units won,
an exact decimal or ``p/q``; empty on the other rows).

>>> c = encode_card("10h"); card_text(c), CARD_POINT[c]
('Th', 0)
>>> card_text(encode_card("a"))
'A'
"""

from __future__ import annotations

import csv
import io
import json
import re
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.cards import POINTS, RANK_INDEX, RANKS, SUIT_INDEX, SUITS, parse_card
from ..core.errors import BaccaratError, CardError
from ..io.files import read_text as _read_text

OUTCOME_NAMES = ("player", "banker", "tie")
_OUTCOME_READ = {"player": 0, "banker": 1, "tie": 2, "p": 0, "b": 1, "t": 2}
LOG_FIELDS = ("shoe", "player", "banker", "outcome", "seen")
REQUIRED_LOG_FIELDS = ("shoe", "player", "banker")

NO_SUIT = 4
#: card code = 5 * rank index + suit index (4 when the suit is not given)
CARD_CODES = 13 * 5
CARD_POINT: tuple[int, ...] = tuple(POINTS[RANKS[c // 5]] for c in range(CARD_CODES))


class LogError(BaccaratError):
    """A hand log or tallies file that cannot be read; the message names file and row."""


def encode_card(text: str) -> int:
    """Card name -> code (``5 * rank + suit``, suit 4 when not given)."""
    rank, suit = parse_card(text)
    return 5 * RANK_INDEX[rank] + (NO_SUIT if suit is None else SUIT_INDEX[suit])


def card_text(code: int) -> str:
    """Card code -> canonical name (``Th``, ``A``)."""
    r, s = divmod(int(code), 5)
    return RANKS[r] + ("" if s == NO_SUIT else SUITS[s])


def rank_text(code: int) -> str:
    return RANKS[int(code) // 5]


class _CardParser:
    """Cached card-list parsing (a log repeats the same few card names)."""

    def __init__(self, where):
        self.cache: dict[str, int] = {}
        self.where = where

    def cards(self, text, row: int, column: str) -> list[int]:
        if isinstance(text, list):
            tokens = []
            for t in text:
                if not isinstance(t, str):
                    raise LogError(f"{self.where(row)}: {column}: {t!r} is not a card name")
                tokens.extend(t.replace(",", " ").split())
        elif isinstance(text, str):
            tokens = text.replace(",", " ").split()
        else:
            raise LogError(f"{self.where(row)}: {column} must be a text of card names, got {text!r}")
        out = []
        cache = self.cache
        for tok in tokens:
            code = cache.get(tok)
            if code is None:
                try:
                    code = encode_card(tok)
                except CardError as e:
                    raise LogError(f"{self.where(row)}: {column}: {e}") from None
                cache[tok] = code
            out.append(code)
        return out


@dataclass
class HandLog:
    """A hand log read into compact arrays (one entry per coup).

    ``player`` / ``banker`` hold the first three card codes of each hand (-1
    where there is none) and ``player_len`` / ``banker_len`` the number of
    cards given; cards beyond the third are kept in ``extra``.
    """

    path: str
    format: str
    rows: np.ndarray  # line number of each coup
    shoe: np.ndarray  # shoe index of each coup (0, 1, ...)
    shoe_ids: list[str]  # id of each shoe index
    player: np.ndarray  # (n, 3) int8
    banker: np.ndarray  # (n, 3) int8
    player_len: np.ndarray  # (n,) int8
    banker_len: np.ndarray  # (n,) int8
    outcome: np.ndarray  # (n,) int8, -1 when not reported
    seen: dict[int, tuple[int, ...]] = field(default_factory=dict)  # coup index -> codes
    extra: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    reused: list[tuple[int, str, int]] = field(default_factory=list)  # (coup index, id, earlier row)
    columns: tuple[str, ...] = ()
    shape: str = ""  # how it was read (for reports)
    value_level: bool = False  # cards are point values 0-9 only
    skipped: dict[str, int] = field(default_factory=dict)  # --skip-invalid: reason -> rows
    reported_totals: np.ndarray | None = None  # (n, 2) int8 player/banker totals the log states, -1 if not

    @property
    def coups(self) -> int:
        return int(self.rows.shape[0])

    @property
    def shoes(self) -> int:
        return len(self.shoe_ids)

    def hand(self, k: int, side: str) -> list[int]:
        """All card codes of one hand of coup ``k``."""
        arr, n = (self.player, self.player_len) if side == "player" else (self.banker, self.banker_len)
        cards = [int(c) for c in arr[k, : min(3, int(n[k]))]]
        if k in self.extra:
            cards.extend(self.extra[k][0 if side == "player" else 1])
        return cards


#: How many rows between two calls of a reader's ``progress``.
PROGRESS_ROWS = 10_000


def header_key(name: str) -> str:
    """The form a header name is matched in: lower case, without spaces, ``_``, ``-``, ``.``
    and ``#`` (``Shoe No.`` is ``shoeno``, ``player total`` is ``playertotal``)."""
    return re.sub(r"[\s_\-.#]+", "", str(name).strip().lower())


#: The header names (as :func:`header_key` gives them) of the totals a log may state, which
#: ``verify`` checks against the cards: in every shape of log, the project's own included.
TOTAL_NAMES = {
    "player_total": ("playertotal", "ptotal", "playerscore", "playerpoints", "playerpoint", "playervalue"),
    "banker_total": ("bankertotal", "btotal", "bankerscore", "bankerpoints", "bankerpoint", "bankervalue"),
}
_TOTALS: dict[str | None, int] = {None: -1, "": -1, **{str(d): d for d in range(10)}}


def parse_total(value, where: str, column: str) -> int:
    """A stated total 0-9, ``-1`` when blank, or a :class:`LogError` naming ``where``."""
    if isinstance(value, str) or value is None:
        got = _TOTALS.get(value)
        if got is not None:
            return got
    if value is None or (isinstance(value, str) and not value.strip()):
        return -1
    t = str(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"[0-9]", t):
        raise LogError(f"{where}: {column} {value!r} is not a total 0-9")
    return int(t)


def _total_columns(names) -> dict[str, Any]:
    """``{role: the name or index of its column}`` of the total columns among ``names``."""
    out: dict[str, Any] = {}  # Any: an index (names a list) or a name (JSON keys)
    for i, name in enumerate(names):
        for role, keys in TOTAL_NAMES.items():
            if header_key(name) in keys:
                if role in out:
                    raise LogError(f"two columns state the {role.replace('_', ' ')}: {out[role]!r} and {name!r}")
                out[role] = name if not isinstance(names, list) else i
    return out


class LogBuilder:
    """A :class:`HandLog` built coup by coup (:meth:`add`, then :meth:`build` or :meth:`flush`
    chunk by chunk); ``progress(rows)``, when given, is called every :data:`PROGRESS_ROWS` coups.
    Every reader of hand logs builds them with it, so a coup means the same in every shape."""

    def __init__(self, path: str, fmt: str, progress=None):
        self.path, self.fmt = path, fmt
        self.progress = progress
        # compact typed buffers (a Python list of ints costs about 8 times more per coup)
        self.rows = array("q")
        self.shoe = array("i")
        self.shoe_ids: list[str] = []
        self.player = array("b")
        self.banker = array("b")
        self.plen = array("h")
        self.blen = array("h")
        self.outcome = array("b")
        self.seen: dict[int, tuple[int, ...]] = {}
        self.extra: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.reused: list[tuple[int, str, int]] = []
        self._last_id: str | None = None
        self._first_row_of: dict[str, int] = {}
        self.parser = _CardParser(self.where)
        self.flushed = 0  # coups handed out by :meth:`flush`
        self.totals = array("b")  # stated (player, banker) totals, -1 where not stated
        self.has_totals = False

    def where(self, row: int) -> str:
        return f"{self.path}: row {row}"

    def add(self, row: int, shoe_id, player, banker, outcome, seen, totals=None) -> None:
        """One coup; ``totals``: the ``(player, banker)`` totals the log states, when it has
        such columns (``None``, blank or missing: not stated)."""
        if self.progress is not None and (len(self.rows) + self.flushed) % PROGRESS_ROWS == PROGRESS_ROWS - 1:
            self.progress(PROGRESS_ROWS)
        if isinstance(shoe_id, bool) or not isinstance(shoe_id, (str, int)):
            raise LogError(f"{self.where(row)}: shoe id must be text or a whole number, got {shoe_id!r}")
        shoe_id = str(shoe_id).strip()
        if not shoe_id:
            raise LogError(f"{self.where(row)}: empty shoe id")
        k = len(self.rows)
        if shoe_id != self._last_id:
            if shoe_id in self._first_row_of:
                self.reused.append((k, shoe_id, self._first_row_of[shoe_id]))
            else:
                self._first_row_of[shoe_id] = row
            self.shoe_ids.append(shoe_id)
            self._last_id = shoe_id
        p = self.parser.cards(player, row, "player")
        b = self.parser.cards(banker, row, "banker")
        if outcome is None or (isinstance(outcome, str) and not outcome.strip()):
            oc = -1
        elif isinstance(outcome, str) and outcome.strip().lower() in _OUTCOME_READ:
            oc = _OUTCOME_READ[outcome.strip().lower()]
        else:
            raise LogError(f"{self.where(row)}: outcome {outcome!r} is not player, banker or tie")
        if seen is not None and seen != "":
            s = self.parser.cards(seen, row, "seen")
            if s:
                self.seen[k] = tuple(s)
        self.rows.append(row)
        self.shoe.append(len(self.shoe_ids) - 1)
        self.player.extend((p + [-1, -1, -1])[:3])
        self.banker.extend((b + [-1, -1, -1])[:3])
        self.plen.append(min(len(p), 127))
        self.blen.append(min(len(b), 127))
        if len(p) > 3 or len(b) > 3:
            self.extra[k] = (tuple(p[3:]), tuple(b[3:]))
        self.outcome.append(oc)
        if totals is not None:
            stated = tuple(
                parse_total(t, self.where(row), name) for t, name in zip(totals, ("player total", "banker total"))
            )
            self.has_totals = self.has_totals or stated != (-1, -1)
            self.totals.extend(stated)
        else:
            self.totals.extend((-1, -1))

    def build(self, columns) -> HandLog:
        if not self.rows and not self.flushed:
            raise LogError(f"{self.path}: no coups in the file")
        return self.flush(columns)

    def flush(self, columns=()) -> HandLog:
        """The coups added since the last flush, as a :class:`HandLog` chunk (coup indices of
        ``seen``, ``extra`` and ``reused`` count from the chunk's first coup; shoe indices and
        row numbers are the file's).  The buffers start again empty."""
        n = len(self.rows)
        log = HandLog(
            path=self.path,
            format=self.fmt,
            rows=np.frombuffer(self.rows, dtype=np.int64).copy(),
            shoe=np.frombuffer(self.shoe, dtype=np.int32).copy(),
            shoe_ids=self.shoe_ids,
            player=np.frombuffer(self.player, dtype=np.int8).copy().reshape(n, 3),
            banker=np.frombuffer(self.banker, dtype=np.int8).copy().reshape(n, 3),
            player_len=np.frombuffer(self.plen, dtype=np.int16).astype(np.int8),
            banker_len=np.frombuffer(self.blen, dtype=np.int16).astype(np.int8),
            outcome=np.frombuffer(self.outcome, dtype=np.int8).copy(),
            seen=self.seen,
            extra=self.extra,
            reused=self.reused,
            columns=tuple(columns),
            reported_totals=np.frombuffer(self.totals, dtype=np.int8).copy().reshape(n, 2) if self.has_totals else None,
        )
        self.flushed += n
        self.totals, self.has_totals = array("b"), False
        self.rows, self.shoe, self.player, self.banker = array("q"), array("i"), array("b"), array("b")
        self.plen, self.blen, self.outcome = array("h"), array("h"), array("b")
        self.seen, self.extra, self.reused = {}, {}, []
        return log


#: The largest file read whole: 64 MiB.  A hand log or an outcome-only log in CSV or JSON Lines is read
#: as it goes, whatever its length (:mod:`.stream`); this bounds what is still read whole: tallies, a
#: JSON array, and the text given to :func:`read_hand_log` / :func:`~.shapes.read_log` by path.
MAX_LOG_BYTES = 64 * 2**20


def read_text(path: str | Path) -> str:
    """The text of a log, refusing a file over :data:`MAX_LOG_BYTES` (``/dev/zero`` included)."""
    try:
        return _read_text(path, "log", MAX_LOG_BYTES)
    except BaccaratError as e:
        raise LogError(str(e)) from None


def _is_jsonl(path: str, text: str) -> bool:
    suffix = Path(path).suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return True
    if suffix == ".csv":
        return False
    return text.lstrip().startswith("{")


def read_hand_log(path: str | Path, text: str | None = None, progress=None) -> HandLog:
    """Read a hand log (CSV with header, or JSON Lines).  Raises :class:`LogError`.

    ``progress(rows)``, when given, is called every :data:`PROGRESS_ROWS` rows read.
    """
    path = str(path)
    if text is None:
        text = read_text(path)
    if not text.strip():
        raise LogError(f"{path}: empty file (expected a hand log with columns shoe, player, banker)")
    chunks = list(hand_log_chunks(path, text, io.StringIO(text, newline=""), progress, None))
    return chunks[0]


def hand_log_chunks(path: str, head: str, lines, progress=None, chunk: int | None = None):
    """The project's own format read from ``lines`` (the file's lines, line ends kept), as
    :class:`HandLog` chunks of ``chunk`` coups (``None``: one chunk); ``head`` is the file's
    first part (it decides CSV or JSON Lines)."""
    if _is_jsonl(path, head):
        return _read_jsonl(path, lines, progress, chunk)
    return _read_csv_log(path, lines, progress, chunk)


def header_index(path: str, fields: list[str], required, what: str) -> dict[str, int]:
    names = [f.strip().lower() for f in fields]
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in index and name:
            raise LogError(f"{path}: row 1: column {name!r} appears twice in the header")
        index.setdefault(name, i)
    missing = [r for r in required if r not in index]
    if missing:
        have = ", ".join(n for n in names if n) or "nothing"
        raise LogError(
            f"{path}: row 1: missing column {missing[0]!r} for a {what} "
            f"(the header has: {have}; a {what} needs {', '.join(required)})"
        )
    return index


def csv_header(path: str, text, expected: str):
    """``(reader, header)``: a CSV reader of ``text`` (or an iterable of lines) past its first
    non-blank row, the header."""
    reader = csv.reader(io.StringIO(text, newline="") if isinstance(text, str) else text)
    try:
        header = next(reader)
        while not any(f.strip() for f in header):
            header = next(reader)
    except StopIteration:
        raise LogError(f"{path}: empty file (expected {expected})") from None
    except csv.Error as e:
        raise LogError(f"{path}: row {reader.line_num}: {e}") from None
    return reader, header


def _read_csv_log(path: str, lines, progress=None, chunk=None):
    reader, header = csv_header(path, lines, "a header with shoe, player, banker")
    index = header_index(path, header, REQUIRED_LOG_FIELDS, "hand log")
    i_shoe, i_p, i_b = index["shoe"], index["player"], index["banker"]
    i_o, i_s = index.get("outcome"), index.get("seen")
    try:
        tot = _total_columns(list(header))
    except LogError as e:
        raise LogError(f"{path}: row 1: {e}") from None
    i_pt, i_bt = tot.get("player_total"), tot.get("banker_total")
    need = max(i_shoe, i_p, i_b) + 1  # optional trailing fields may be left out
    columns = tuple(n.strip().lower() for n in header)
    b = LogBuilder(path, "csv", progress)
    add = b.add
    try:
        for fields in reader:
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue
            row = reader.line_num
            if len(fields) < need:
                raise LogError(
                    f"{path}: row {row}: {len(fields)} field{'s' if len(fields) != 1 else ''} "
                    f"but the header has {len(header)} (need at least {need})"
                )
            if len(fields) > len(header) and any(f.strip() for f in fields[len(header) :]):
                raise LogError(
                    f"{path}: row {row}: {len(fields)} fields but the header has {len(header)} "
                    f"(quote a card list that contains commas)"
                )
            add(
                row,
                fields[i_shoe],
                fields[i_p],
                fields[i_b],
                fields[i_o] if i_o is not None and i_o < len(fields) else None,
                fields[i_s] if i_s is not None and i_s < len(fields) else None,
                None
                if not tot
                else tuple(fields[i] if i is not None and i < len(fields) else None for i in (i_pt, i_bt)),
            )
            if chunk is not None and len(b.rows) >= chunk:
                yield b.flush(columns)
    except csv.Error as e:
        raise LogError(f"{path}: row {reader.line_num}: {e}") from None
    if b.rows or not b.flushed:
        yield b.build(columns)


def _read_jsonl(path: str, lines, progress=None, chunk=None):
    b = LogBuilder(path, "jsonl", progress)
    keys: set[str] = set()
    for row, line in enumerate(lines, 1):
        if not line.strip():
            continue
        obj = load_json_line(line, f"{path}: row {row}")
        if not isinstance(obj, dict):
            raise LogError(f'{path}: row {row}: expected a JSON object {{"shoe": ..., "player": ..., "banker": ...}}')
        lowered = {str(k).strip().lower(): v for k, v in obj.items()}
        if len(lowered) < len(obj):
            seen_keys: dict[str, str] = {}
            for k in obj:
                other = seen_keys.setdefault(str(k).strip().lower(), k)
                if other != k:
                    raise LogError(f"{path}: row {row}: keys {other!r} and {k!r} name the same field")
        obj = lowered
        for req in REQUIRED_LOG_FIELDS:
            if req not in obj:
                raise LogError(
                    f"{path}: row {row}: missing field {req!r} (a hand log needs {', '.join(REQUIRED_LOG_FIELDS)})"
                )
        keys.update(obj)
        try:
            tot = _total_columns(obj)
        except LogError as e:
            raise LogError(f"{path}: row {row}: {e}") from None
        b.add(
            row,
            obj["shoe"],
            obj["player"],
            obj["banker"],
            obj.get("outcome"),
            obj.get("seen"),
            tuple(obj.get(tot[r]) if r in tot else None for r in TOTAL_NAMES) if tot else None,
        )
        if chunk is not None and len(b.rows) >= chunk:
            yield b.flush(tuple(sorted(keys)))
    if b.rows or not b.flushed:
        yield b.build(tuple(sorted(keys)))


def bounded_int(text: str) -> int:
    """``parse_int`` for :mod:`json`: a number of more than 30 digits is a ``ValueError``, which
    the JSON readers report as one (:func:`load_json_line`, a JSON array of :mod:`.shapes`)."""
    if len(text.lstrip("-")) > 30:
        raise ValueError("number too long")
    return int(text)


class _RepeatedKey(ValueError):
    pass


def _pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKey(key)
        out[key] = value
    return out


def load_json_line(line: str, where: str):
    """One JSON document; nesting deeper than Python's stack, numbers of more than 30
    digits, a key given twice in one object (JSON keeps the last silently) are errors,
    not tracebacks or guesses."""
    try:
        return json.loads(line, parse_int=bounded_int, object_pairs_hook=_pairs)
    except _RepeatedKey as e:
        raise LogError(f"{where}: key {e.args[0]!r} is given twice") from None
    except json.JSONDecodeError as e:
        raise LogError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        raise LogError(f"{where}: JSON nested too deeply") from None
    except ValueError:
        raise LogError(f"{where}: a number of more than 30 digits") from None


def shown(text: str, limit: int = 40) -> str:
    """``repr`` of a field for a message, cut when long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def sniff_kind(path: str | Path, text: str) -> str:
    """``"tallies"`` when the first row is a tallies header, else ``"log"``."""
    if _is_jsonl(str(path), text):
        return "log"
    for line in text.splitlines():
        if line.strip():
            first = next(csv.reader([line]), [""])
            return "tallies" if first and first[0].strip().lower() == "category" else "log"
    return "log"


def log_header(seen: bool) -> str:
    return "shoe,player,banker,outcome" + (",seen" if seen else "")
