"""Logs read in one pass, chunk by chunk, with memory independent of their length.

:func:`open_log` reads the first :data:`PROBE_BYTES` of a log.  A log no longer than
that is read whole by :func:`~.shapes.read_log`, exactly as before.  A longer one is
read as it goes: its first part decides how it is read (the project's own format, or
which shape of :mod:`.shapes`, and whether its cards are point values), then the
whole file is read line by line and handed out as :class:`~.logs.HandLog` chunks of
:data:`CHUNK` coups (:meth:`LogStream.chunks`).  Shoe indices and row numbers in a
chunk are the file's; a shoe may run on from one chunk into the next (the replay
carries its cards over, see :func:`analyzer.simcheck.verify.replay`).  A long
outcome-only log (CSV or JSON Lines) is read the same way, as
:class:`~.outcomes.OutcomeLog` chunks (:attr:`LogStream.outcomes` is then an
:class:`~.outcomes.OutcomeStream`, which :func:`~.streaks.check_outcomes` reads chunk by
chunk).

A few things are still read whole, within :data:`~.logs.MAX_LOG_BYTES`: a JSON array
(one document), a tallies file, and a long log whose first part cannot be read (so that
its error is the one the whole-file reader gives).

>>> s = open_log("examples/hands.csv")
>>> sum(c.coups for c in s.chunks()), s.coups, s.shoes
(81, 81, 1)
"""

from __future__ import annotations

import codecs
import re
import sys

from .logs import MAX_LOG_BYTES, HandLog, LogError, hand_log_chunks

#: a log longer than this is read as it goes (its first PROBE_BYTES decide how)
PROBE_BYTES = 1 << 18
#: coups per chunk
CHUNK = 1 << 16
BLOCK = 1 << 20
#: the longest line read (a JSON Lines shoe object of a few hundred coups is far shorter)
MAX_LINE = 16 << 20
_EOL = re.compile(r"\r\n|\n|\r")
_ODD = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")  # what else str.splitlines splits at


class TooLarge(LogError):
    """A log that must be read whole and is larger than MAX_LOG_BYTES."""


class LogSource:
    """A log file (``-``: standard input) read block by block, checked as UTF-8 text."""

    def __init__(self, path, what: str = "log", progress=None):
        self.name = str(path)
        self.what = what
        self.progress = progress  # called with the bytes read, block by block
        try:
            if self.name == "-":
                self.file = sys.stdin.buffer
            else:
                self.file = open(path, "rb")  # noqa: SIM115 (kept open by this reader; its close() closes it)
            data = self.file.read(PROBE_BYTES + 1)
        except IsADirectoryError:
            raise LogError(f"cannot read {what} {self.name!r}: it is a directory") from None
        except OSError as e:
            raise LogError(f"cannot read {what} {self.name!r}: {e.strerror or e}") from None
        self.offset = 0
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.whole = len(data) <= PROBE_BYTES
        self.first = self._decode(data, final=self.whole)
        self.head = self.first if self.whole else self.first[: max(self.first.rfind("\n"), 0) + 1]
        if self.whole:
            self.close()
        self._used = False

    def _decode(self, data: bytes, final: bool) -> str:
        try:
            text = self.decoder.decode(data, final)
        except UnicodeDecodeError as e:
            raise LogError(f"{self.what} {self.name!r} is not UTF-8 text (byte {self.offset + e.start + 1})") from None
        self.offset += len(data)
        if "\x00" in text:
            raise LogError(f"{self.what} {self.name!r} is not text (it holds NUL bytes)")
        if self.progress is not None and data:
            self.progress(len(data))
        return text

    def close(self) -> None:
        if self.file is not sys.stdin.buffer:
            self.file.close()

    def _blocks(self):
        yield self.first
        if self.whole:
            return
        try:
            while True:
                data = self.file.read(BLOCK)
                yield self._decode(data, final=not data)
                if not data:
                    return
        except OSError as e:
            raise LogError(f"cannot read {self.what} {self.name!r}: {e.strerror or e}") from None
        finally:
            self.close()

    def lines(self):
        """The file's lines, line ends kept (split as ``io.StringIO(text, newline="")`` would).
        Can be called once."""
        if self._used:
            raise RuntimeError("a LogSource is read once")
        self._used = True
        pending = ""
        row = 0
        for text in self._blocks():
            buf = pending + text if pending else text
            if _ODD.search(buf) is None:  # splitlines splits at \r, \n and \r\n only here
                parts = buf.splitlines(True)
                pending = (
                    parts.pop()
                    if parts and ((text and parts[-1][-1:] in ("\r", "")) or parts[-1][-1:] not in ("\r", "\n"))
                    else ""
                )
                row += len(parts)
                yield from parts
            else:
                start = 0
                for m in _EOL.finditer(buf):
                    if m.group() == "\r" and m.end() == len(buf) and text:
                        break  # "\r" at a block end may be the start of "\r\n"
                    yield buf[start : m.end()]
                    row += 1
                    start = m.end()
                pending = buf[start:]
            if len(pending) > MAX_LINE:
                raise LogError(f"{self.name}: row {row + 1}: a line longer than {MAX_LINE >> 20} MiB")
        if pending:
            yield pending

    def text(self) -> str:
        """The whole text (what is left of it read now), refusing more than MAX_LOG_BYTES."""
        if self.whole:
            return self.first
        parts = [self.first]
        size = self.offset
        while True:
            try:
                data = self.file.read(BLOCK)
            except OSError as e:
                raise LogError(f"cannot read {self.what} {self.name!r}: {e.strerror or e}") from None
            size += len(data)
            if size > MAX_LOG_BYTES:
                self.close()
                raise TooLarge(
                    f"{self.what} {self.name!r} is larger than {MAX_LOG_BYTES / 2**20:g} MiB, the "
                    f"most read whole (a hand log or an outcome-only log in CSV or JSON Lines is "
                    f"read as it goes, whatever its length; a JSON array or tallies are not)"
                )
            parts.append(self._decode(data, final=not data))
            if not data:
                self.close()
                self.first, self.whole = "".join(parts), True
                return self.first


class LogStream:
    """A hand log read chunk by chunk (or an outcome-only log: :attr:`outcomes`, an
    :class:`~.outcomes.OutcomeLog` read whole or an :class:`~.outcomes.OutcomeStream`).

    ``value_level`` is known from the start; ``coups``, ``shoes``, ``shape`` and
    ``skipped`` once :meth:`chunks` is exhausted."""

    def __init__(
        self, path: str, chunks=None, value_level: bool = False, outcomes=None, meta=None, whole: bool = False
    ):
        self.path = path
        self.whole = whole  # read whole (one chunk): its counts are known up front
        self._chunks = chunks
        self.value_level = value_level
        self.outcomes = outcomes
        self.meta = meta if meta is not None else {}
        self.coups = 0
        self.shoes = 0
        self.shape = ""
        self.skipped: dict[str, int] = {}

    def chunks(self):
        for log in self._chunks:
            self.coups += log.coups
            self.shoes = len(log.shoe_ids)
            self.shape = self.meta.get("shape", log.shape)
            self.skipped = self.meta.get("skipped", log.skipped)
            yield log
        self.shape = self.meta.get("shape", self.shape)
        self.skipped = self.meta.get("skipped", self.skipped)

    @classmethod
    def of(cls, log) -> LogStream:
        """A stream of one log already read (a :class:`HandLog`, or an outcome-only log)."""
        if not isinstance(log, HandLog):
            return cls(log.path, outcomes=log)
        return cls(log.path, iter([log]), log.value_level, whole=True)


def open_log(
    path, columns: str | None = None, skip_invalid: bool = False, progress=None, source: LogSource | None = None
) -> LogStream:
    """A log in any shape :mod:`.shapes` reads, as a :class:`LogStream`.  Raises :class:`LogError`.

    ``progress(rows)`` is called as rows are read (see :func:`~.shapes.read_log`)."""
    from .outcomes import OutcomeLog, OutcomeStream
    from .shapes import outcome_chunks_of, read_log, shape_chunks

    path = str(path)
    src = source or LogSource(path)
    if src.whole:
        return LogStream.of(read_log(path, src.head, columns, skip_invalid, progress))
    failed = None
    try:
        probe = read_log(path, src.head, columns, skip_invalid)
    except LogError as e:
        probe, failed = None, e  # read whole: the error is the whole-file reader's
    if isinstance(probe, OutcomeLog) and not src.head.lstrip().startswith("["):
        meta: dict = {}
        chunks = outcome_chunks_of(path, src.head, src.lines, columns, skip_invalid, CHUNK, meta)
        return LogStream(path, outcomes=OutcomeStream(path, probe.shape, chunks, meta))
    if probe is None or src.head.lstrip().startswith("[") or not isinstance(probe, HandLog):
        try:
            text = src.text()
        except TooLarge:
            if failed is not None:
                raise failed from None
            raise
        return LogStream.of(read_log(path, text, columns, skip_invalid, progress))
    if not probe.shape:  # the project's own format
        return LogStream(path, hand_log_chunks(path, src.head, src.lines(), progress, CHUNK))
    meta = {}
    chunks = shape_chunks(path, src.head, src.lines, columns, skip_invalid, progress, probe.value_level, CHUNK, meta)
    return LogStream(path, chunks, probe.value_level, meta=meta)


__all__ = ["CHUNK", "PROBE_BYTES", "LogSource", "LogStream", "open_log"]
