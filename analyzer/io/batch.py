"""Batch lines: JSON Lines of shoes in, one line of JSON out for each.

One line of a batch (``baccarat odds --batch FILE``, the body of ``serve``'s
``POST /batch``, a ``POST /odds`` request) is a JSON object with any of the keys

* ``decks``: a whole number of 52-card decks (default 8), like ``--decks``;
* ``shoe``: explicit counts, a ``--shoe`` string (``"A=32,...,K=32"``) or an object
  ``{"A": 32, ...}`` / ``{"As": 8, ...}`` (not with ``decks``);
* ``remove``: cards already seen, a ``--remove`` string (``"5 5 K 9h"``) or a list of
  card names;
* ``known``: an object position -> card (``{"1": "9", "5": "Kh"}``), like repeated
  ``--known POS=CARD``.

This module owns what such a line means (:func:`parse_line`: the shoe and the known
cards, or one :class:`BatchError` line saying why not), how lines are read from a
file without reading it whole (:func:`read_lines`, :func:`lines_of`, at most
:data:`MAX_LINE_BYTES` a line), and how they are answered in order, many at a time
with the first bad line named (:func:`answer_lines`).  The CLI and the server read
it; so can a Python caller:

>>> shoe, known = parse_line('{"decks": 1, "remove": "5 5 K", "known": {"1": "9"}}')
>>> shoe.cards, known
(49, Known(cards=((1, '9', None),)))
>>> parse_line('{"decks": 1, "shoe": "A=4"}')
Traceback (most recent call last):
  ...
analyzer.io.batch.BatchError: give 'decks' or 'shoe', not both
"""

from __future__ import annotations

import functools
import json
import os
import stat
import sys

from ..core.errors import BaccaratError
from .files import InputError

#: Longest line accepted (the newline not counted): 1 MiB.
MAX_LINE_BYTES = 2**20
#: The keys of a batch line.
KEYS = ("decks", "shoe", "remove", "known")


class BatchError(BaccaratError):
    """A line of a batch file that cannot be used."""


def shown(value, limit: int = 40) -> str:
    """``value`` as a message quotes it: JSON (a string repr'd), cut after ``limit`` characters."""
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def json_kind(value) -> str:
    """What a JSON value is, for a message: "an object", "a list", "a string", ..."""
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        bool: "true/false",
        int: "a number",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _pairs(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise BatchError(f"key {key!r} is given twice")
        obj[key] = value
    return obj


def _no_constant(name):
    raise BatchError(f"{name} is not a JSON value")


def parse_line(text: str):
    """``(shoe, known or None)`` of one line's JSON text; :class:`BaccaratError` if unusable."""
    return shoe_of(load_object(text))


@functools.cache
def _orjson():
    import orjson

    return orjson


@functools.lru_cache(maxsize=64)
def _quoted(key: str) -> str:
    return f'"{key}"'


def parse_lines(texts: list[str]) -> list:
    """:func:`parse_line` of each text, in order: ``(shoe, known or None)``, or for a line it
    refuses the :class:`BaccaratError` it raises (returned in its place, not raised).

    The values are the same; lines that only remove cards from whole decks, named the
    common way (``{"decks": 8, "remove": "As 9h ..."}`` or a list of such names), are
    counted together (:meth:`analyzer.core.shoe.Shoe.remove_each`), every other line one
    at a time.

    >>> got = parse_lines(['{"decks": 1, "remove": "As 9h"}', '{"decks": 0}'])
    >>> got[0][0].cards, got[1]
    (50, ShoeError('number of decks must be a whole number of at least 1, got 0'))
    """
    from ..core.shoe import Shoe

    out: list = [None] * len(texts)
    objects: list = [None] * len(texts)
    common: dict[int, list[tuple[int, str]]] = {}  # decks -> (line, removal)
    for i, text in enumerate(texts):
        try:
            obj = objects[i] = load_object(text)
        except BaccaratError as e:
            out[i] = e
            continue
        decks, remove = obj.get("decks", 8), obj.get("remove", "")
        if len(obj) > ("decks" in obj) + ("remove" in obj) or type(decks) is not int:
            continue
        if type(remove) is list and not set(map(type, remove)) - {str}:
            joined = " ".join(remove)
            if len(joined) == 3 * len(remove) - 1:  # names of two characters, no space in any
                common.setdefault(decks, []).append((i, joined))
            elif not remove:
                common.setdefault(decks, []).append((i, ""))
        elif type(remove) is str:
            common.setdefault(decks, []).append((i, remove if remove.strip() else ""))
    for decks, removals in common.items():
        try:
            base = Shoe.standard(decks)
        except BaccaratError:
            continue  # each line says why, below
        for (i, _), shoe in zip(removals, base.remove_each([r for _, r in removals])):
            if shoe is not None:
                out[i] = (shoe, None)
    for i, obj in enumerate(objects):
        if out[i] is None:
            try:
                out[i] = shoe_of(obj)
            except BaccaratError as e:
                out[i] = e
    return out


def load_object(text: str, keys: tuple[str, ...] = KEYS) -> dict:
    """The JSON object of ``text`` (a batch line, a request body), its keys among ``keys``;
    :class:`BatchError` (one line) for anything else: blank, malformed, a repeated key, NaN."""
    if "\\" not in text and text.count("{") == 1:
        # one object, no escapes: every key is written as it is, so a key named once in the
        # text is named once in the object; orjson refuses NaN and integers beyond 64 bits,
        # which the reading below names
        orjson = _orjson()
        try:
            obj = orjson.loads(text)
        except orjson.JSONDecodeError:
            obj = None
        if type(obj) is dict:
            for k in obj:
                if k not in keys or text.count(_quoted(k)) != 1:
                    break
            else:
                return obj
    if not text.strip():
        raise BatchError('blank line (every line must be a JSON object, e.g. {"decks": 8})')
    try:
        obj = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except RecursionError:
        raise BatchError("malformed JSON: nested too deeply") from None
    except ValueError as e:
        if isinstance(e, BaccaratError):
            raise
        msg = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
        if "Exceeds the limit" in msg:  # Python's int_max_str_digits
            msg = "a number of more than 4300 digits"
        where = f" at column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        raise BatchError(f"malformed JSON{where}: {msg}") from None
    if not isinstance(obj, dict):
        raise BatchError(f"expected a JSON object with keys {', '.join(keys)}, got {json_kind(obj)}")
    unknown = [k for k in obj if k not in keys]
    if unknown:
        raise BatchError(f"unknown key {unknown[0]!r} (keys: {', '.join(keys)})")
    return obj


def shoe_of(obj: dict):
    """``(shoe, known or None)`` of a line's object (keys ``decks``, ``shoe``, ``remove``,
    ``known``; others are not read)."""
    from ..core.known import parse_known
    from ..core.shoe import Shoe

    decks, spec, remove, pins = (obj.get(k) for k in KEYS)
    if decks is not None and spec is not None:
        raise BatchError("give 'decks' or 'shoe', not both")
    if spec is not None:
        if isinstance(spec, str):
            shoe = Shoe.parse(spec)
        elif isinstance(spec, dict):
            shoe = Shoe.from_counts(spec)
        else:
            raise BatchError(
                f"'shoe' must be a string 'A=32,...' or an object {{\"A\": 32, ...}}, got {json_kind(spec)}"
            )
    elif decks is not None:
        if isinstance(decks, bool) or not isinstance(decks, int):
            raise BatchError(f"'decks' must be a whole number from 1 to 10000, got {shown(decks)}")
        shoe = Shoe.standard(decks)
    else:
        shoe = Shoe.standard(8)
    if remove is not None:
        if isinstance(remove, list):
            if set(map(type, remove)) - {str}:  # in C, over hundreds of names
                bad = next(c for c in remove if type(c) is not str)
                raise BatchError(f"'remove' must list card names (strings), got {shown(bad)}")
            shoe = shoe.remove(remove)
        elif isinstance(remove, str):
            if remove.strip():
                shoe = shoe.remove(remove)
        else:
            raise BatchError(f"'remove' must be a string '5 5 K 9h' or a list of cards, got {json_kind(remove)}")
    known = None
    if pins is not None:
        if not isinstance(pins, dict):
            raise BatchError(f'\'known\' must be an object position -> card, e.g. {{"1": "9"}}, got {json_kind(pins)}')
        bad = [(p, c) for p, c in pins.items() if not isinstance(c, str)]
        if bad:
            raise BatchError(f"'known' position {bad[0][0]!r}: the card must be a string, got {shown(bad[0][1])}")
        try:
            known = parse_known(pins) or None
            if known:
                known.physical_ways(shoe)  # a card the shoe lacks: refused before any work
        except BaccaratError as e:
            raise type(e)(str(e).replace("--known", "'known'")) from None
    return shoe, known


def read_lines(path: str, limit: int = MAX_LINE_BYTES):
    """``(line number, text)`` of each line of ``path`` (``-``: standard input), one at a time."""
    name = input_name(path)
    if path == "-":
        yield from lines_of(sys.stdin.buffer, name, limit)
        return
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed below; a with-block would also catch the lines' errors)
    except IsADirectoryError:
        raise InputError(f"cannot read batch file {name}: it is a directory") from None
    except OSError as e:
        raise InputError(f"cannot read batch file {name}: {e.strerror or e}") from None
    with f:
        yield from lines_of(f, name, limit)


def lines_of(f, name: str, limit: int = MAX_LINE_BYTES):
    """``(line number, text)`` of each line of the binary file ``f`` (called ``name`` in
    messages: ``standard input``, ``'shoes.jsonl'``), one at a time, none read whole."""
    number = 0
    while True:
        try:
            raw = f.readline(limit + 2)
        except OSError as e:
            raise InputError(f"cannot read batch file {name}: {e.strerror or e}") from None
        if not raw:
            return
        number += 1
        body = raw[:-1] if raw.endswith(b"\n") else raw
        if len(body) > limit:
            raise BatchError(f"{name} line {number}: longer than {limit / 2**20:g} MiB, the most one line may hold")
        if number == 1 and body.startswith(b"\xef\xbb\xbf"):
            body = body[3:]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BatchError(f"{name} line {number}: not UTF-8 text (byte {e.start + 1})") from None
        yield number, text


def input_name(path: str) -> str:
    """How messages call ``path``: ``standard input`` for ``-``, else its repr."""
    return "standard input" if path == "-" else repr(path)


def count_lines(path: str) -> int | None:
    """Lines of a regular file (for the progress bar), or ``None`` (a pipe, standard input)."""
    if path == "-":
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        n, last = 0, b"\n"
        with open(path, "rb") as f:
            while chunk := f.read(2**20):
                n += chunk.count(b"\n")
                last = chunk[-1:]
        return n + (last != b"\n")
    except OSError:
        return None


def batch_text(lines) -> str:
    """The JSON Lines text of these answers (each one line of JSON text without its newline)."""
    lines = list(lines)
    return "\n".join(lines) + "\n" if lines else ""


#: Most characters :func:`batch_pieces` joins into one piece: below glibc's threshold for
#: giving an allocation its own pages (128 KiB), so the pieces reuse the heap's memory
#: (17 MB of text a chunk, allocated afresh, cost 0.1 ms a line of page faults).
PIECE_CHARS = 64 * 2**10


def batch_pieces(lines) -> list[str]:
    """:func:`batch_text` of these answers in pieces (their concatenation is that text):
    the short lines joined, up to :data:`PIECE_CHARS` characters a piece, a longer line alone.

    >>> [len(p) for p in batch_pieces(["a", "b" * 70_000, "c", "d"])]
    [2, 70001, 4]
    >>> "".join(batch_pieces(["a", "b" * 70_000, "c", "d"])) == batch_text(["a", "b" * 70_000, "c", "d"])
    True
    """
    out: list[str] = []
    group: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) >= PIECE_CHARS and group:
            out.append("\n".join(group) + "\n")
            group, size = [], 0
        group.append(line)
        size += len(line) + 1
    if group:
        out.append("\n".join(group) + "\n")
    return out


def json_line(doc) -> str:
    """``doc`` as one compact line of JSON (``odds --batch``'s separators), no newline."""
    return json.dumps(doc, allow_nan=False, separators=(",", ":"))


def answer_lines(lines, name: str, document, documents=None, size: int = 1):
    """The documents answering ``lines`` (``(number, text)`` pairs, as :func:`lines_of`
    yields them), a list at a time, in order: ``size`` lines solved together through
    ``documents`` when given.  The first bad line raises :class:`BatchError` naming
    ``name`` and the line, after the lists of the lines before it."""
    pending: list = []

    def flush():
        docs = None
        if len(pending) > 1 and documents is not None:
            try:
                docs = documents([(shoe, known) for _, shoe, known in pending])
            except BaccaratError:
                docs = None  # answered line by line below: the right line fails
        if docs is not None:
            yield docs
        else:
            for number, shoe, known in pending:
                try:
                    doc = document(shoe, known)
                except BaccaratError as e:
                    raise BatchError(f"{name} line {number}: {e}") from None
                yield [doc]
        pending.clear()

    while True:
        chunk: list = []
        unread = None  # a line too long, not UTF-8: raised after the ones before it
        while len(chunk) < size:
            try:
                line = next(lines, None)
            except BaccaratError as e:
                unread = e
                break
            if line is None:
                break
            chunk.append(line)
        parsed = parse_lines([text for _, text in chunk]) if size > 1 else [_parsed(text) for _, text in chunk]
        for (number, _), got in zip(chunk, parsed):
            if isinstance(got, BaccaratError):
                yield from flush()  # the lines before it are answered first
                raise BatchError(f"{name} line {number}: {got}") from None
            pending.append((number, *got))
        yield from flush()
        if unread is not None:
            raise unread
        if len(chunk) < size:
            return


def _parsed(text: str):
    """:func:`parse_line` of ``text``, or the error it raises."""
    try:
        return parse_line(text)
    except BaccaratError as e:
        return e


__all__ = [
    "BatchError",
    "KEYS",
    "MAX_LINE_BYTES",
    "answer_lines",
    "batch_pieces",
    "batch_text",
    "count_lines",
    "input_name",
    "json_kind",
    "json_line",
    "lines_of",
    "load_object",
    "parse_line",
    "parse_lines",
    "read_lines",
    "shoe_of",
    "shown",
]
