"""The shapes real simulators write, detected and normalised into a :class:`~.logs.HandLog`.

:func:`read_log` reads a hand log in any of these shapes (the project's own format
first, through :func:`~.logs.read_hand_log`, so its messages stay the same):

* CSV with ``shoe, player, banker[, outcome]`` where the cards are ranks with or
  without suits (``Kh 9s``, ``K♥-9♠``, ``10``, ``T``) or point values ``0-9`` only;
* CSV with per-card columns ``shoe, p1, p2, p3, b1, b2, b3[, outcome]`` (blank = no card);
* optional ``player_total`` / ``banker_total`` columns (checked by ``verify``);
* a JSON array of coup objects, JSON Lines with one object per coup, or one per shoe
  (``{"shoe": 1, "coups": [{"player": [...], "banker": [...], "outcome": "..."}]}``);
* outcome-only logs (``shoe, outcome`` or bead strings ``shoe, results``), read by
  :mod:`.outcomes` into an :class:`~.outcomes.OutcomeLog`;
* anything else through ``columns`` (``--columns ROLE=HEADER,...``).

:func:`shape_chunks` reads a long log in one of these shapes as it goes (for :mod:`.stream`).

Headers are matched ignoring case, spaces, ``_`` and ``-`` (``Shoe Number`` is ``shoe``).
A log whose every card is one digit ``0-9`` is a *value-level* log: ``0`` is a ten-valued
card, ``1`` an ace; it is checked against the declared shoe by point value
(:func:`shoe_for`).

>>> log = read_log("x.csv", "Shoe No,P1,P2,P3,B1,B2,B3,Winner\\n1,K♥,9♠,,5,2,,Player win\\n")
>>> log.shape, [card_text(c) for c in log.hand(0, "player")], log.outcome.tolist()
('read as per-card columns, ranks with suits, 1 row per coup', ['Kh', '9s'], [0])
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from itertools import chain

import numpy as np

from ..core.errors import BaccaratError
from ..core.shoe import Shoe
from .columns import ROLES, assign, header_key, layout_of, parse_columns, shown_header
from .logs import (
    NO_SUIT,
    PROGRESS_ROWS,
    HandLog,
    LogBuilder,
    LogError,
    bounded_int,
    card_text,
    csv_header,
    encode_card,
    load_json_line,
    parse_total,
    read_hand_log,
    read_text,
)
from .outcomes import outcome_chunks, outcome_log, outcome_word

_SUIT_SYMBOLS = str.maketrans(
    {"♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c", "\ufe0f": None}
)
_SPLIT = re.compile(r"[\s,;/|+\-]+")


def tokens(value, where: str, column: str) -> list[str]:
    """The card names of one field (text, or a JSON list of texts / whole numbers)."""
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for v in items:
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10:
            out.append(str(v))
        elif isinstance(v, str):
            out.extend(t for t in _SPLIT.split(v.translate(_SUIT_SYMBOLS)) if t)
        elif v is None and not isinstance(value, list):
            pass
        else:
            raise LogError(f"{where}: {column}: {v!r} is not a card")
    return out


class _Skip:
    """Rows left out by ``--skip-invalid``, counted by reason."""

    def __init__(self, on: bool):
        self.on = on
        self.reasons: Counter[str] = Counter()

    def __call__(self, error: LogError) -> None:
        if not self.on:
            raise error
        msg = str(error)
        reason = re.sub(r"^.*?: row [0-9]+: ", "", msg)
        reason = re.sub(r"'[^']*'|\"[^\"]*\"|[0-9]+", "…", reason)[:120]
        self.reasons[reason] += 1


def _records_csv(path, text, columns, skip, lines=None):
    """(layout, names, records) of a CSV log; a record is (row, {role: value}).  The header is read
    from ``text``; the records from ``lines()`` (the whole file's lines) when given, else from ``text``."""
    reader, header = csv_header(path, text, "a header")
    hrow = reader.line_num
    roles = assign(header, columns, f"{path}: row {hrow}")
    layout = layout_of(roles, header, f"{path}: row {hrow}")
    width = len(header)
    items = list(roles.items())

    def records(skip_row):
        reader = csv.reader(io.StringIO(text, newline="") if lines is None else lines())
        try:
            for fields in reader:
                row = reader.line_num
                if row <= hrow or not any(fields):
                    continue
                n = len(fields)
                if n > width and any(f.strip() for f in fields[width:]):
                    skip_row(LogError(f"{path}: row {row}: {n} fields but the header has {width}"))
                    continue
                if not any(f.strip() for f in fields):
                    continue
                yield row, {r: fields[i] if i < n else None for r, i in items}
        except csv.Error as e:
            raise LogError(f"{path}: row {reader.line_num}: {e}") from None

    what = "CSV"
    unused = [shown_header(n) for i, n in enumerate(header) if n.strip() and i not in set(roles.values())]
    if layout in ("outcomes", "beads") and unused:
        what += f"; columns not used: {', '.join(unused[:8])}{', ...' if len(unused) > 8 else ''}"
    return layout, what, records


def _json_objects(path, text):
    """(kind, [(row, object)]) of a JSON array or JSON Lines file."""
    body = text.lstrip()
    if body.startswith("["):
        dec = json.JSONDecoder(parse_int=bounded_int)
        i = len(text) - len(body) + 1
        out: list[tuple[int, object]] = []
        line, pos = 1, 0
        while True:
            while i < len(text) and text[i] in " \t\r\n,":
                i += 1
            if i < len(text) and text[i] == "]":
                if text[i + 1 :].strip():
                    raise LogError(f"{path}: row {text.count(chr(10), 0, i) + 1}: text after the JSON array")
                return "a JSON array", out
            line += text.count("\n", pos, i)
            pos = i
            if i >= len(text):
                raise LogError(f"{path}: row {line}: the JSON array is not closed (truncated file?)")
            try:
                obj, i = dec.raw_decode(text, i)
            except json.JSONDecodeError as e:
                raise LogError(f"{path}: row {line}: not valid JSON ({e.msg}; truncated file?)") from None
            except RecursionError:
                raise LogError(f"{path}: row {line}: JSON nested too deeply") from None
            except ValueError:
                raise LogError(f"{path}: row {line}: a number of more than 30 digits") from None
            out.append((line, obj))
    return "JSON Lines", list(json_lines(path, text.splitlines()))


def _json_records(path, objs, columns, state):
    """``(row, item)`` of every coup of the JSON objects ``objs``; ``state`` records the layout and
    whether objects are coups or shoes (one file holds one shape)."""
    for row, obj in objs:
        where = f"{path}: row {row}"
        if not isinstance(obj, dict):
            raise LogError(f"{where}: expected a JSON object for a coup or a shoe")
        keys = list(obj)
        coups = next((obj[k] for k in keys if header_key(k) in ("coups", "hands", "rounds")), None)
        this = "shoe" if coups is not None else "coup"
        per = state.setdefault("per", this)
        if per != this:
            raise LogError(
                f"{where}: a {this} object after {per} objects: one file holds one shape "
                f"(one object per coup, or one per shoe with a list 'coups')"
            )
        roles = assign([str(k) for k in keys], columns, where)
        if coups is None:
            items = [{r: obj[keys[i]] for r, i in roles.items()}]
        else:
            if not isinstance(coups, list) or "shoe" not in roles:
                raise LogError(f"{where}: a shoe object needs 'shoe' and a list 'coups'")
            items = []
            for c in coups:
                if not isinstance(c, dict):
                    raise LogError(f"{where}: every coup of 'coups' must be a JSON object")
                ck = list(c)
                cr = assign([str(k) for k in ck], {r: h for r, h in columns.items() if r != "shoe"}, where)
                items.append({"shoe": obj[keys[roles["shoe"]]], **{r: c[ck[i]] for r, i in cr.items()}})
        for item in items:
            lay = layout_of(dict.fromkeys(item, 0), list(item), where)
            layout = state.setdefault("layout", lay)
            if lay != layout:
                raise LogError(f"{where}: this coup has {lay} fields, earlier ones {layout}: one file holds one shape")
            yield row, item


def _json_what(kind, per):
    return f"{kind}, one object per {per}" if kind == "JSON Lines" else f"{kind} of {per} objects"


def _records_json(path, text, columns, skip):
    kind, objs = _json_objects(path, text)
    state: dict = {}
    records = list(_json_records(path, objs, columns, state))
    if not records:
        raise LogError(f"{path}: no coups in the file")
    return state["layout"], _json_what(kind, state["per"]), lambda skip_row: iter(records)


def json_lines(path, lines):
    """``(row, object)`` of each non-blank line of a JSON Lines file."""
    for row, ln in enumerate(lines, 1):
        if ln.strip():
            yield row, load_json_line(ln, f"{path}: row {row}")


def _is_json(path: str, text: str) -> bool:
    return path.lower().endswith((".json", ".jsonl", ".ndjson")) or text.lstrip()[:1] in ("{", "[")


def read_log(path, text: str | None = None, columns: str | None = None, skip_invalid: bool = False, progress=None):
    """A hand log (:class:`~.logs.HandLog`) or an outcome-only log (:class:`~.outcomes.OutcomeLog`)
    in any shape this module detects.  Raises :class:`~.logs.LogError`."""
    path = str(path)
    if text is None:
        text = read_text(path)
    cols = parse_columns(columns)
    first = None
    if not cols and not skip_invalid and not text.lstrip().startswith("["):
        try:
            return read_hand_log(path, text, progress)
        except LogError as e:
            first = e
    if not text.strip():
        raise first or LogError(f"{path}: empty file")
    skip = _Skip(skip_invalid)
    try:
        reader = _records_json if _is_json(path, text) else _records_csv
        layout, what, records = reader(path, text, cols, skip)
        if layout in ("outcomes", "beads"):
            return outcome_log(path, layout, what, records(skip), skip)
        return _hand_log(path, layout, what, records, skip, progress)
    except LogError as e:
        if first is not None and _own_layout(text) and _row(e) <= _row(first):
            raise first from None
        raise e from None


def _row(error: LogError) -> int:
    m = re.search(r": row ([0-9]+)", str(error))
    return int(m.group(1)) if m else 0


def _own_layout(text: str) -> bool:
    """Whether the first line names the project's own columns (its reader's message is then kept)."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    names = {header_key(n) for n in re.split(r"[,\s\"{}:]+", line.lower()) if n}
    return bool({"player", "banker"} & names)


def _cards_of(layout, item, where, split):
    if layout == "per-card":
        hands = []
        for roles in (("p1", "p2", "p3"), ("b1", "b2", "b3")):
            cards = [split(item.get(r), where, r) for r in roles]
            given = [bool(c) for c in cards]
            if given != sorted(given, reverse=True):  # a blank column before a card
                hole = roles[given.index(False)]
                raise LogError(
                    f"{where}: column {hole} is blank but {roles[given.index(True, given.index(False))]} "
                    "holds a card (a hand's cards fill its columns in order)"
                )
            hands.append([t for c in cards for t in c])
        p, b = hands
    else:
        p, b = split(item.get("player"), where, "player"), split(item.get("banker"), where, "banker")
    seen = item.get("seen")
    return p, b, (split(seen, where, "seen") if seen not in (None, "") else [])


def _is_value_level(layout, records, path) -> bool:
    """Whether every card of the log is one digit (stops at the first that is not)."""
    digits = set("0123456789")
    split = _Splitter()
    any_card = False
    for row, item in records(lambda e: None):
        try:
            p, b, s = _cards_of(layout, item, f"{path}: row {row}", split)
        except LogError:
            continue
        for t in p + b + s:
            if len(t) != 1 or t not in digits:
                return False
            any_card = True
    return any_card


class _Splitter:
    """:func:`tokens` with a cache (a log repeats the same few fields)."""

    def __init__(self):
        self.cache: dict = {}

    def __call__(self, value, where, column):
        if isinstance(value, str):
            got = self.cache.get(value)
            if got is None:
                got = tokens(value, where, column)
                if len(self.cache) > 50_000:
                    self.cache.clear()
                self.cache[value] = got
            return got
        return tokens(value, where, column)


_VALUE_RANK = {"0": "T", "1": "A"}


def _hand_log(path, layout, what, records, skip, progress) -> HandLog:
    value_level = _is_value_level(layout, records, path)
    meta: dict = {}
    return next(hand_chunks(path, layout, what, records(skip), skip, progress, value_level, None, meta))


def hand_chunks(path, layout, what, records, skip, progress, value_level, chunk, meta):
    """:class:`HandLog` chunks of ``chunk`` coups (``None``: one) from the records of a shape;
    ``meta`` gets the log's ``shape``, ``value_level`` and ``skipped`` once the records are done
    (every chunk yielded before carries them as known so far, the last one the final values)."""
    builder = LogBuilder(path, "csv" if what == "CSV" else "json", progress)
    split = _Splitter()
    ok: dict[str, bool] = {}
    words: dict = {}
    totals: list = []
    has_totals = False
    suits = False
    digits = set("0123456789")

    def finish(last: bool) -> HandLog:
        nonlocal totals, has_totals, suits
        log = builder.flush(())
        suits = suits or bool(((log.player % 5) != NO_SUIT)[log.player >= 0].any())
        cards = (
            "point values 0-9 (checked at value level)"
            if value_level
            else "ranks with suits"
            if suits
            else "ranks without suits"
        )
        lay = {"cards": "player and banker columns", "per-card": "per-card columns"}[layout]
        meta["shape"] = log.shape = f"read as {lay}, {cards}, " + ("1 row per coup" if what == "CSV" else what)
        meta["value_level"] = log.value_level = value_level
        meta["skipped"] = log.skipped = dict(skip.reasons)
        if has_totals:
            log.reported_totals = np.array(totals, dtype=np.int8).reshape(-1, 2)
        totals, has_totals = [], False
        return log

    for row, item in records:
        where = f"{path}: row {row}"
        try:
            p, b, s = _cards_of(layout, item, where, split)
            if value_level:
                bad = next((t for t in p + b + s if len(t) != 1 or t not in digits), None)
                if bad is not None:
                    raise LogError(
                        f"{where}: {bad!r} is not a point value 0-9 (a log gives either point "
                        f"values 0-9 or ranks, not both)"
                    )
                p, b, s = ([_VALUE_RANK.get(t, t) for t in x] for x in (p, b, s))
            for t in p + b + s:
                good = ok.get(t)
                if good is None:
                    good = ok[t] = _card_ok(t)
                if not good:
                    try:
                        encode_card(t)
                    except BaccaratError as e:
                        hint = " (a log gives either point values 0-9 or ranks, not both)" if t in ("0", "1") else ""
                        raise LogError(f"{where}: {e}{hint}") from None
            raw = item.get("outcome")
            key = raw if isinstance(raw, str) or raw is None else None
            oc = words.get(key, "?") if key is not None or raw is None else "?"
            if oc == "?":
                oc = outcome_word(raw, where)
                if key is not None and len(words) < 1000:
                    words[key] = oc
            tot = (
                parse_total(item.get("player_total"), where, "player_total"),
                parse_total(item.get("banker_total"), where, "banker_total"),
            )
            sid = item.get("shoe")
            if isinstance(sid, bool) or not isinstance(sid, (str, int)) or not str(sid).strip():
                raise LogError(f"{where}: shoe id must be a non-empty text or whole number, got {sid!r}")
        except LogError as e:
            skip(e)
            continue
        builder.add(row, sid, p, b, oc, s)
        if tot != (-1, -1):
            has_totals = True
        totals.append(tot)
        if chunk is not None and len(builder.rows) >= chunk:
            yield finish(False)
    meta["skipped"] = dict(skip.reasons)
    if not builder.rows and not builder.flushed:
        reasons = "; ".join(f"{n} {r}" for r, n in skip.reasons.most_common(3))
        raise LogError(f"{path}: no valid coups in the file" + (f" (skipped: {reasons})" if reasons else ""))
    if builder.rows or not builder.flushed:
        n = builder.flushed + len(builder.rows)
        log = finish(True)
        if progress is not None and n < PROGRESS_ROWS:
            progress(0)
        yield log


def shape_chunks(path, head, lines, columns, skip_invalid, progress, value_level, chunk, meta):
    """A long log in a shape of this module (not the project's own format), read as it goes:
    :class:`HandLog` chunks of ``chunk`` coups (:func:`hand_chunks`, ``meta`` as there) of
    ``lines()``, the whole file's lines (line ends kept).  ``head``, the file's first part,
    decides the shape: :func:`read_log` has read it as a hand log (a JSON one is JSON Lines,
    its head holds a coup).  ``columns`` and ``skip_invalid`` as for :func:`read_log`."""
    cols = parse_columns(columns)
    skip = _Skip(skip_invalid)
    if _is_json(path, head):
        state: dict = {}
        recs = _json_records(path, json_lines(path, lines()), cols, state)
        first = next(recs)  # the probe read it: there is one
        layout, what, records = state["layout"], _json_what("JSON Lines", state["per"]), chain([first], recs)
    else:
        layout, what, make = _records_csv(path, head, cols, skip, lines=lines)
        records = make(skip)
    return hand_chunks(path, layout, what, records, skip, progress, value_level, chunk, meta)


def outcome_chunks_of(path, head, lines, columns, skip_invalid, chunk, meta):
    """A long outcome-only log (CSV or JSON Lines) read as it goes: :class:`~.outcomes.OutcomeLog`
    chunks of ``chunk`` coups (:func:`~.outcomes.outcome_chunks`, ``meta`` as there) of ``lines()``,
    the whole file's lines.  ``head``, the file's first part, decides the shape: :func:`read_log`
    has read it as an outcome-only log.  ``columns`` and ``skip_invalid`` as for :func:`read_log`."""
    cols = parse_columns(columns)
    skip = _Skip(skip_invalid)
    if _is_json(path, head):
        state: dict = {}
        recs = _json_records(path, json_lines(path, lines()), cols, state)
        first = next(recs)  # the probe read it: there is one
        layout, what, records = state["layout"], _json_what("JSON Lines", state["per"]), chain([first], recs)
    else:
        layout, what, make = _records_csv(path, head, cols, skip, lines=lines)
        records = make(skip)
    return outcome_chunks(path, layout, what, records, skip, chunk, meta)


def _card_ok(token: str) -> bool:
    try:
        encode_card(token)
        return True
    except BaccaratError:
        return False


def shoe_for(log, shoe: Shoe) -> Shoe:
    """The declared shoe as a log is checked against: by point value for a value-level log
    (ten, jack, queen and king counted together as ``T``, suits dropped)."""
    if not getattr(log, "value_level", False):
        return shoe
    r = shoe.rank_tuple
    return Shoe(r[:9] + (sum(r[9:]), 0, 0, 0))


__all__ = ["read_log", "shoe_for", "parse_columns", "ROLES", "card_text"]
