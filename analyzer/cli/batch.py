"""``baccarat odds --batch FILE``: the exact odds of many shoes, as JSON Lines.

Each line of FILE (``-``: standard input) is one JSON object with any of the keys
``decks``, ``shoe``, ``remove`` and ``known`` (what they mean, and what is refused:
:mod:`analyzer.io.batch`).  Each line gives one line of output: exactly the document
``baccarat odds --format json`` prints for that shoe, on one line, in the order of the
input.  The bet and rules options of ``odds`` apply to every line.  Lines are read,
solved and written a few at a time, so memory does not grow with the file; the bets are
compiled once per known-card set (and rule set, under ``--player-option best``) and the
compiled solvers are kept in a small cache (:class:`analyzer.core.solver.SolverCache`).

The first bad line stops the run with one message naming the file and the line; with
``--output FILE`` nothing is written, on standard output the lines already answered stay.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import sys

from ..io.batch import answer_lines, batch_pieces, count_lines, input_name, read_lines
from ..io.files import InputError, atomic_open, check_not_input, check_output
from .options import UsageError, progress_bar

#: Lines of a regular file solved and written together by ``odds --batch`` (fewer when the
#: lines are long: :func:`chunk_lines`).
BATCH_LINES = 256
#: About the most text one chunk of answers holds (:func:`chunk_lines`).
CHUNK_BYTES = 64 * 2**20


def chunk_lines(bets) -> int:
    """Lines answered together for these bets: :data:`BATCH_LINES`, or fewer so that a
    chunk's answers stay near :data:`CHUNK_BYTES` (a line writes about 300 bytes a payout
    event; the whole catalog's lines are 68 KB, 256 of them 17 MB)."""
    events = sum(len(b.events) + 1 for b in bets)
    return max(8, min(BATCH_LINES, CHUNK_BYTES // (300 * events + 4096)))


def check_batch_args(args) -> None:
    """Refuse the options ``--batch`` cannot take: the shoe options, a format other than json."""
    if args.format not in (None, "json"):
        raise UsageError(
            f"--batch writes JSON Lines (one 'odds --format json' document per line); "
            f"--format {args.format!r} is not offered with it (give --format json or none)"
        )
    given = [
        o
        for o, v in (
            ("--decks", args.decks),
            ("--shoe", args.shoe),
            ("--remove", args.remove.strip() or None),
            ("--known", args.known or None),
        )
        if v is not None
    ]
    if given:
        raise UsageError(
            f"--batch reads each shoe from its line; {given[0]} cannot be given with it "
            "(write it in the lines: keys decks, shoe, remove, known)"
        )


def run_batch(path: str, output: str | None, quiet: bool, document, documents=None, chunk: int = BATCH_LINES) -> int:
    """Answer every line of ``path`` with ``document(shoe, known)`` (one line of JSON text, no
    newline), one line each, into ``output`` (``None`` or ``-``: standard output; else atomically).

    ``documents(items)``, if given, answers a list of ``(shoe, known)`` at once (equal to
    ``document`` of each); a regular file's lines are then answered ``chunk`` at a time
    (standard input and pipes stay one line at a time: an answer never waits for later
    lines).  Output order, the first bad line's message and the lines written before it
    are those of the line-by-line run: a chunk that fails is answered again line by line.
    """
    if path != "-" and not os.path.exists(path):
        raise InputError(f"cannot read batch file {input_name(path)}: no such file")
    output = output or "-"
    check_output(output)
    check_not_input(output, path)
    name = input_name(path)
    to_stdout = output == "-"
    size = chunk if documents is not None and _regular(path) else 1
    # a regular file's lines are counted first (a fast pass), when the bar is shown
    total = None if quiet or not sys.stderr.isatty() else count_lines(path)
    with atomic_open(output) as out, progress_bar(total, "shoes", quiet, unit="shoe") as bar, _settled() as settled:
        for docs in answer_lines(read_lines(path), name, document, documents, size):
            for piece in batch_pieces(docs):  # not one string of the chunk: see batch_pieces
                out.write(piece)
            if to_stdout:
                out.flush()
            bar.update(len(docs))
            settled()
    return 0


#: Objects allocated between two of the cyclic collector's youngest passes while a batch runs
#: (Python's default is 700).
BATCH_GC_THRESHOLD = 20_000


@contextlib.contextmanager
def _settled():
    """``settled()``, called after each chunk: the first call moves every object alive then
    (the compiled bets and their plans, the imports: they live to the end) out of the cyclic
    collector's passes (:func:`gc.freeze`) and makes its youngest passes rarer
    (:data:`BATCH_GC_THRESHOLD`); both undone on leaving.  A batch allocates a few hundred
    objects a shoe and frees nearly all by reference counting (the passes found about 60
    cycles' objects a chunk), so the passes cost about 5 µs a shoe of the main bets for
    little; the cycles are still collected, by rarer passes."""
    frozen = False
    threshold = gc.get_threshold()

    def settled() -> None:
        nonlocal frozen
        if not frozen:
            frozen = True
            gc.freeze()
            gc.set_threshold(BATCH_GC_THRESHOLD, *threshold[1:])

    try:
        yield settled
    finally:
        if frozen:
            gc.set_threshold(*threshold)
            gc.unfreeze()


def _regular(path: str) -> bool:
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


__all__ = ["run_batch", "check_batch_args", "chunk_lines", "BATCH_LINES", "CHUNK_BYTES"]
