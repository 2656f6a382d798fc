"""``baccarat odds --batch FILE``: the exact odds of many shoes, as JSON Lines.

Each line of FILE (``-``: standard input) is one JSON object with any of the keys

* ``decks``: a whole number of 52-card decks (default 8), like ``--decks``;
* ``shoe``: explicit counts, a ``--shoe`` string (``"A=32,...,K=32"``) or an object
  ``{"A": 32, ...}`` / ``{"As": 8, ...}`` (not with ``decks``);
* ``remove``: cards already seen, a ``--remove`` string (``"5 5 K 9h"``) or a list of
  card names;
* ``known``: an object position -> card (``{"1": "9", "5": "Kh"}``), like repeated
  ``--known POS=CARD``.

Each line gives one line of output: exactly the document ``baccarat odds --format
json`` prints for that shoe, on one line, in the order of the input.  The bet and
rules options of ``odds`` apply to every line.  Lines are read, solved and written
one at a time, so memory does not grow with the file; the bets are compiled once
per known-card set (and rule set, under ``--player-option best``) and the
compiled solvers are kept in a small cache.

A blank line is an error (so output line ``i`` is always the answer to input line
``i``); so is any line that is not such an object, or one longer than
:data:`MAX_LINE_BYTES`.  The first bad line stops the run with one message naming
the file and the line; with ``--output FILE`` nothing is written, on standard
output the lines already answered stay.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
from functools import lru_cache

from ..core.errors import BaccaratError
from ..io.files import InputError, atomic_open, check_not_input, check_output
from .options import UsageError, progress_bar

#: Longest line accepted (the newline not counted): 1 MiB.
MAX_LINE_BYTES = 2**20
#: Compiled solvers kept (one per known-card set and rule set seen): bets on point values
#: only take about 0.25 MB a solver; bets reading ranks or suits about 8 MB (the whole catalog).
SOLVER_CACHE = 128
CARD_SOLVER_CACHE = 8
#: Best-play rule sets kept under ``--player-option best`` (one per shoe composition).
STRATEGY_CACHE = 64
KEYS = ("decks", "shoe", "remove", "known")
#: Lines of a regular file solved together (``Solver.solve_many``) by ``odds --batch``.
BATCH_LINES = 64


class BatchError(BaccaratError):
    """A line of a batch file that cannot be used."""


def shown(value, limit: int = 40) -> str:
    """``value`` as a message quotes it: JSON (a string repr'd), cut after ``limit`` characters."""
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def json_kind(value) -> str:
    """What a JSON value is, for a message: "an object", "a list", "a string", ..."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "a number",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


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


def load_object(text: str, keys: tuple[str, ...] = KEYS) -> dict:
    """The JSON object of ``text`` (a batch line, a request body), its keys among ``keys``;
    :class:`BatchError` (one line) for anything else: blank, malformed, a repeated key, NaN."""
    if not text.strip():
        raise BatchError("blank line (every line must be a JSON object, e.g. {\"decks\": 8})")
    try:
        obj = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except RecursionError:
        raise BatchError("malformed JSON: nested too deeply") from None
    except ValueError as e:
        if isinstance(e, BaccaratError):
            raise
        msg = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
        if "Exceeds the limit" in msg:         # Python's int_max_str_digits
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
            raise BatchError(f"'shoe' must be a string 'A=32,...' or an object {{\"A\": 32, ...}}, "
                             f"got {json_kind(spec)}")
    elif decks is not None:
        if isinstance(decks, bool) or not isinstance(decks, int):
            raise BatchError(f"'decks' must be a whole number from 1 to 10000, got {shown(decks)}")
        shoe = Shoe.standard(decks)
    else:
        shoe = Shoe.standard(8)
    if remove is not None:
        if isinstance(remove, list):
            bad = [c for c in remove if not isinstance(c, str)]
            if bad:
                raise BatchError(f"'remove' must list card names (strings), got {shown(bad[0])}")
            shoe = shoe.remove(remove)
        elif isinstance(remove, str):
            if remove.strip():
                shoe = shoe.remove(remove)
        else:
            raise BatchError(f"'remove' must be a string '5 5 K 9h' or a list of cards, got {json_kind(remove)}")
    known = None
    if pins is not None:
        if not isinstance(pins, dict):
            raise BatchError(f"'known' must be an object position -> card, e.g. {{\"1\": \"9\"}}, "
                             f"got {json_kind(pins)}")
        bad = [(p, c) for p, c in pins.items() if not isinstance(c, str)]
        if bad:
            raise BatchError(f"'known' position {bad[0][0]!r}: the card must be a string, "
                             f"got {shown(bad[0][1])}")
        try:
            known = parse_known(pins) or None
            if known:
                known.physical_ways(shoe)      # a card the shoe lacks: refused before any work
        except BaccaratError as e:
            raise type(e)(str(e).replace("--known", "'known'")) from None
    return shoe, known


def read_lines(path: str, limit: int = MAX_LINE_BYTES):
    """``(line number, text)`` of each line of ``path`` (``-``: standard input), one at a time."""
    name = _name(path)
    try:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")
    except IsADirectoryError:
        raise InputError(f"cannot read batch file {name}: it is a directory") from None
    except OSError as e:
        raise InputError(f"cannot read batch file {name}: {e.strerror or e}") from None
    try:
        yield from lines_of(f, name, limit)
    finally:
        if f is not sys.stdin.buffer:
            f.close()


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
            raise BatchError(f"{name} line {number}: longer than {limit / 2**20:g} MiB, "
                             "the most one line may hold")
        if number == 1 and body.startswith(b"\xef\xbb\xbf"):
            body = body[3:]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BatchError(f"{name} line {number}: not UTF-8 text (byte {e.start + 1})") from None
        yield number, text


def _name(path: str) -> str:
    return "standard input" if path == "-" else repr(path)


def _count_lines(path: str) -> int | None:
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


class Solvers:
    """Compiled solvers by ``(bets, known cards, rules)``, the least recently used dropped
    (a :func:`functools.lru_cache` of ``size``); ``bets`` of :meth:`get` defaults to the
    set given here.  Threads may share it: one compiles at a time, and a solver is never
    compiled twice while it is kept."""

    def __init__(self, bets=(), size: int | None = None, options: dict | None = None):
        self.options = options or {}
        if size is None:
            cards = any(e.when.reads_cards for b in bets for e in b.events)
            size = CARD_SOLVER_CACHE if cards else SOLVER_CACHE
        self.bets, self.size = tuple(bets), size
        self.lock = threading.Lock()
        self.compile = lru_cache(maxsize=size)(self.new_solver)

    def new_solver(self, bets, known, rules):
        """A new :class:`analyzer.core.solver.Solver` (uncached: :meth:`get` caches it)."""
        from ..core.solver import Solver
        return Solver(bets, rules=None if rules.is_default else rules, known=known, **self.options)

    def get(self, known, rules, bets=None):
        with self.lock:
            return self.compile(self.bets if bets is None else tuple(bets), known or None, rules)

    @property
    def compiled(self) -> int:
        """Solvers compiled so far (cache misses)."""
        return self.compile.cache_info().misses

    def cache_info(self):
        return self.compile.cache_info()


def check_batch_args(args) -> None:
    """Refuse the options ``--batch`` cannot take: the shoe options, a format other than json."""
    if args.format not in (None, "json"):
        raise UsageError(f"--batch writes JSON Lines (one 'odds --format json' document per line); "
                         f"--format {args.format!r} is not offered with it (give --format json or none)")
    given = [o for o, v in (("--decks", args.decks), ("--shoe", args.shoe),
                            ("--remove", args.remove.strip() or None), ("--known", args.known or None))
             if v is not None]
    if given:
        raise UsageError(f"--batch reads each shoe from its line; {given[0]} cannot be given with it "
                         "(write it in the lines: keys decks, shoe, remove, known)")


def run_batch(path: str, output: str | None, quiet: bool, document, documents=None,
              chunk: int = BATCH_LINES) -> int:
    """Answer every line of ``path`` with ``document(shoe, known)`` (one line of JSON text, no
    newline), one line each, into ``output`` (``None`` or ``-``: standard output; else atomically).

    ``documents(items)``, if given, answers a list of ``(shoe, known)`` at once (equal to
    ``document`` of each); a regular file's lines are then answered ``chunk`` at a time
    (standard input and pipes stay one line at a time: an answer never waits for later
    lines).  Output order, the first bad line's message and the lines written before it
    are those of the line-by-line run: a chunk that fails is answered again line by line.
    """
    if path != "-" and not os.path.exists(path):
        raise InputError(f"cannot read batch file {_name(path)}: no such file")
    output = output or "-"
    check_output(output)
    check_not_input(output, path)
    name = _name(path)
    to_stdout = output == "-"
    size = chunk if documents is not None and _regular(path) else 1
    # a regular file's lines are counted first (a fast pass), when the bar is shown
    total = None if quiet or not sys.stderr.isatty() else _count_lines(path)
    with atomic_open(output) as out, progress_bar(total, "shoes", quiet, unit="shoe") as bar:
        for docs in answer_lines(read_lines(path), name, document, documents, size):
            out.write(batch_text(docs))
            if to_stdout:
                out.flush()
            bar.update(len(docs))
    return 0


def batch_text(lines) -> str:
    """The JSON Lines text of these answers (each one line of JSON text without its newline)."""
    return "".join(line + "\n" for line in lines)


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
                docs = None                   # answered line by line below: the right line fails
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
        try:
            line = next(lines, None)
        except BaccaratError:
            yield from flush()                # a line too long, not UTF-8: the ones before first
            raise
        if line is None:
            break
        number, text = line
        try:
            shoe, known = parse_line(text)
        except BaccaratError as e:
            yield from flush()                # the lines before it are answered first
            raise BatchError(f"{name} line {number}: {e}") from None
        pending.append((number, shoe, known))
        if len(pending) >= size:
            yield from flush()
    yield from flush()


def _regular(path: str) -> bool:
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


__all__ = ["run_batch", "check_batch_args", "parse_line", "load_object", "shoe_of", "read_lines", "lines_of",
           "answer_lines", "batch_text", "json_line", "json_kind", "shown", "Solvers", "MAX_LINE_BYTES", "BatchError"]
