"""Options shared by every command: the shoe, the bets, the output, and the
:class:`Parser` they are added to (its usage errors are :class:`UsageError`).

Each command module of :mod:`analyzer.cli` builds its parser from these, so
``--decks``, ``--shoe``, ``--remove``, ``--table``, ``--bets``, ``--bets-file``,
``--format`` and ``--output`` mean the same everywhere.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from ..core.errors import BaccaratError
from ..io.files import OutputError, atomic_write, check_output

FORMATS = ("md", "csv", "json")


class UsageError(BaccaratError):
    pass


class Parser(argparse.ArgumentParser):
    """The parser of ``baccarat`` and of each sub-command: a usage error raises
    :class:`UsageError` (one line, exit 2, like every other input error) instead of
    printing the usage and exiting."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")


def add_shoe_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("shoe")
    x = g.add_mutually_exclusive_group()
    x.add_argument("--decks", type=str, default=None, metavar="N",
                   help="number of 52-card decks (default 8)")
    x.add_argument("--shoe", metavar="SPEC",
                   help="counts per rank 'A=32,2=32,...,K=32' or per card 'As=8,Ah=8,...' "
                        "(names not given count 0)")
    g.add_argument("--remove", metavar="CARDS", default="",
                   help="cards already seen, e.g. '5 5 K 9h' (a rank without a suit makes the "
                        "shoe rank-only)")


def shoe_from_args(args):
    from ..core.shoe import Shoe
    if args.shoe is not None:
        shoe = Shoe.parse(args.shoe)
    else:
        decks = 8
        if args.decks is not None:
            if not re.fullmatch(r"-?[0-9]{1,9}", args.decks.strip()):
                shown = args.decks if len(args.decks) <= 20 else args.decks[:20] + "..."
                raise UsageError(f"--decks must be a whole number from 1 to 10000, got {shown!r}")
            decks = int(args.decks)
        shoe = Shoe.standard(decks)
    if args.remove.strip():
        shoe = shoe.remove(args.remove)
    return shoe


def add_output_options(p: argparse.ArgumentParser,
                       formats: str = "output format: md (Markdown, default), csv or json") -> None:
    p.add_argument("--format", default="md", metavar="FMT", help=formats)
    p.add_argument("--output", "-o", metavar="FILE",
                   help="write to FILE instead of standard output ('-' is standard output)")


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar (it is shown on standard error when that is a terminal)")


def progress_bar(total: int | None, what: str, quiet: bool = False, unit: str = "it"):
    """A tqdm bar on standard error; off with ``--quiet`` or when stderr is not a terminal."""
    from tqdm import tqdm
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True,
                disable=True if quiet else None, mininterval=0.5)


def whole_number(option: str, text: str, lo: int = 0, hi: int | None = None) -> int:
    """The integer value of an option, within ``lo .. hi``, or a one-line error."""
    t = str(text).strip()
    shown = t if len(t) <= 20 else t[:20] + "..."
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", t):
        raise UsageError(f"{option} must be a whole number, got {shown!r}")
    v = int(t)
    if v < lo:
        raise UsageError(f"{option} must be at least {lo}, got {v}")
    if hi is not None and v > hi:
        raise UsageError(f"{option} must be at most {hi:,}, got {v:,}")
    return v


def local_jobs(text: str) -> int:
    """``--jobs`` for processes on this machine: 1 .. the number of CPUs it has."""
    import os
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    jobs = whole_number("--jobs", text, 1)
    if jobs > cpus:
        raise UsageError(f"--jobs {jobs} is more than the {cpus} CPU(s) of this machine "
                         "(each job is a process with its own copy of the engine)")
    return jobs


def check_outputs(*paths: str | None) -> None:
    """Refuse unwritable output paths before any work starts."""
    for path in paths:
        if path is not None:
            check_output(path)


def check_format(fmt: str, formats: tuple[str, ...] = FORMATS) -> str:
    if fmt not in formats:
        raise UsageError(f"unknown --format {fmt!r} (choose from {', '.join(formats)})")
    return fmt


def emit(text: str) -> None:
    """Write ``text`` to standard output now; a full, failing or closed standard output is
    one line (:class:`OutputError`), its unwritten text dropped (a closed pipe stays a
    ``BrokenPipeError``: the reader has gone)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        try:                            # the interpreter's last flush must not fail again
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        raise OutputError(f"cannot write to standard output: {e.strerror or e}") from None


def write_output(text: str, output: str | None) -> None:
    """Print (:func:`emit`), or write ``output`` atomically (temporary file, then rename)."""
    if output is None or output == "-":
        emit(text)
        return
    atomic_write(output, text)


def add_bet_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("bets")
    g.add_argument("--table", metavar="NAME", action="append", default=[],
                   help="a named rule set: its bets (see 'baccarat bets'); may be repeated")
    g.add_argument("--bets", metavar="IDS", action="append", default=[],
                   help="bet ids, comma separated (see 'baccarat bets'), or 'all'; may be repeated")
    g.add_argument("--bets-file", metavar="FILE",
                   help="a TOML file of extra bets and tables (format in docs/bets.md)")


def catalog_from_args(args):
    from ..bets.catalog import catalog, load_bets_file
    return load_bets_file(args.bets_file) if getattr(args, "bets_file", None) else catalog()


def bets_from_args(args, cat=None):
    """The selected bets: tables, then ids; the main bets when nothing is named."""
    from ..bets.catalog import MAIN_BETS
    cat = cat or catalog_from_args(args)
    ids: list[str] = []
    for name in args.table:
        ids.extend(cat.table(name.strip()).bets)
    for group in args.bets:
        if not group.strip():
            raise UsageError("--bets is empty: name bet ids (see 'baccarat bets') or 'all'")
        for i in (i.strip() for i in group.split(",")):
            if i == "all":
                ids.extend(cat.bets)
            elif i:
                ids.append(i)
            else:
                raise UsageError(f"--bets {group!r} has an empty item (two commas?)")
    if not ids and getattr(args, "bets_file", None):
        from ..bets.catalog import catalog
        ids = [b for b in cat.bets if b not in catalog().bets]
    if not ids:
        ids = list(MAIN_BETS)
    return cat.select(ids)
