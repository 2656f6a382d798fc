"""Options shared by every command: the shoe, the bets, the output, and the
:class:`Parser` they are added to (its usage errors are :class:`UsageError`).

Each command module of :mod:`analyzer.cli` builds its parser from these, so
``--decks``, ``--shoe``, ``--remove``, ``--table``, ``--bets``, ``--bets-file``,
``--format`` and ``--output`` mean the same everywhere.

The command line is parsed once: every option whose text stands for a value (a shoe,
a card list, known cards, a whole number, a fraction, a list of deck counts) is read
by one converter, given to argparse as its ``type=`` (see :func:`converter`), so
``args`` holds the values and a bad one is refused, in its own words, while the
command line is read.  An option whose text a Reproduce line repeats keeps that text:
its value is a :class:`Given` (the text, a ``str``, with the value as ``.value``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys

from ..core.errors import BaccaratError
from ..io.files import OutputError, atomic_write, check_output

FORMATS = ("md", "csv", "json")


class UsageError(BaccaratError):
    pass


class Refused:
    """A converter's :class:`BaccaratError`, held as the option's value until argparse has read
    the whole command line: its own usage errors (two exclusive options, a missing argument,
    an unknown one) come first, as when the values were read by each command."""

    _order = itertools.count()

    def __init__(self, error: BaccaratError):
        self.error = error
        self.order = next(Refused._order)


class Parser(argparse.ArgumentParser):
    """The parser of ``baccarat`` and of each sub-command: a usage error raises
    :class:`UsageError` (one line, exit 2, like every other input error) instead of
    printing the usage and exiting; then the first value a converter refused
    (:func:`converter`) raises its error unchanged, the one line the API gives for it."""

    def error(self, message: str):
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        refused = [
            v
            for value in vars(parsed).values()
            for v in (value if isinstance(value, list) else [value])
            if isinstance(v, Refused)
        ]
        if refused:
            raise min(refused, key=lambda r: r.order).error
        return parsed


def converter(parse, name: str | None = None):
    """``parse`` (text -> value, :class:`BaccaratError` when the text is bad) as an argparse
    ``type=``: a bad text's error reaches the user as it is, after argparse's own (see
    :class:`Parser`; argparse would reword a ``ValueError`` as "invalid value")."""

    def convert(text):
        try:
            return parse(text)
        except BaccaratError as e:
            return Refused(e)

    convert.__name__ = name or str(getattr(parse, "__name__", "value"))
    convert.__doc__ = parse.__doc__
    return convert


def png_file(text: str) -> str:
    """``--chart FILE.png``: a path ending in ``.png`` (any case), the one format charts are drawn in.

    >>> png_file("trip.PNG")
    'trip.PNG'
    """
    if not text.lower().endswith(".png"):
        raise UsageError(f"--chart must name a .png file, got {text!r}")
    return text


class Given(str):
    """An option's text as given (for the Reproduce lines that repeat it) and, as
    :attr:`value`, what it means."""

    value: object

    def __new__(cls, text: str, value):
        self = super().__new__(cls, text)
        self.value = value
        return self


def whole(option: str, lo: int = 0, hi: int | None = None):
    """The converter of a whole-number option (:func:`whole_number`)."""
    return converter(lambda text: whole_number(option, text, lo, hi), "whole number")


def decks_value(text: str) -> Given:
    """``--decks N``: the standard shoe of N decks (1 .. 10,000)."""
    from ..core.shoe import Shoe

    if not re.fullmatch(r"-?[0-9]{1,9}", text.strip()):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise UsageError(f"--decks must be a whole number from 1 to 10000, got {shown!r}")
    return Given(text, Shoe.standard(int(text)))


def shoe_value(text: str) -> Given:
    """``--shoe SPEC``: the shoe of :meth:`analyzer.core.shoe.Shoe.parse`."""
    from ..core.shoe import Shoe

    return Given(text, Shoe.parse(text))


def remove_value(text: str) -> Given:
    """``--remove CARDS``: the names of the cards seen, in order (none for blank text)."""
    from ..core.cards import card_name, parse_cards

    return Given(text, tuple(card_name(*c) for c in parse_cards(text)))


def known_item(text: str):
    """One ``--known POS=CARD``: ``(position, rank, suit or None)``
    (:func:`analyzer.core.known.known_card`, the one reader of a known card)."""
    from ..core.known import known_card

    return known_card(text)


class KnownAction(argparse.Action):
    """``--known``, repeated: each item read by its converter (:func:`known_item`), the items
    gathered as they come into one :class:`analyzer.core.known.Known`
    (:meth:`~analyzer.core.known.Known.adding`: a position given twice is refused), so
    ``args.known`` is that value (``None`` without any item)."""

    def __call__(self, parser, namespace, values, option_string=None):
        current = getattr(namespace, self.dest, None)
        if isinstance(current, Refused):
            return
        if isinstance(values, Refused):
            setattr(namespace, self.dest, values)
            return
        from ..core.known import Known

        try:
            setattr(namespace, self.dest, (current or Known(())).adding(values))
        except BaccaratError as e:
            setattr(namespace, self.dest, Refused(e))


def add_known_option(p: argparse.ArgumentParser, help: str) -> None:
    """``--known POS=CARD``, may be repeated (:class:`KnownAction`)."""
    p.add_argument(
        "--known", metavar="POS=CARD", action=KnownAction, default=None, type=converter(known_item), help=help
    )


def add_shoe_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("shoe")
    x = g.add_mutually_exclusive_group()
    x.add_argument(
        "--decks", type=converter(decks_value), default=None, metavar="N", help="number of 52-card decks (default 8)"
    )
    x.add_argument(
        "--shoe",
        metavar="SPEC",
        type=converter(shoe_value),
        help="counts per rank 'A=32,2=32,...,K=32' or per card 'As=8,Ah=8,...' (names not given count 0)",
    )
    g.add_argument(
        "--remove",
        metavar="CARDS",
        default="",
        type=converter(remove_value),
        help="cards already seen, e.g. '5 5 K 9h' (a rank without a suit makes the shoe rank-only)",
    )


def shoe_from_args(args):
    """The shoe of ``--decks`` or ``--shoe`` (8 decks by default), less ``--remove``'s cards."""
    from ..core.shoe import Shoe

    given = args.shoe if args.shoe is not None else args.decks
    shoe = given.value if given is not None else Shoe.standard(8)
    if args.remove.value:
        shoe = shoe.remove(args.remove.value)
    return shoe


def known_from_args(args, shoe):
    """The :class:`analyzer.core.known.Known` of the ``--known`` items (``None`` without any),
    each card checked against ``shoe`` before any work."""
    known = args.known
    if not known:
        return None
    known.physical_ways(shoe)  # a card the shoe lacks: one line, before any work
    return known


def add_output_options(
    p: argparse.ArgumentParser,
    formats: str = "output format: md (Markdown, default), csv or json",
    choices: tuple[str, ...] = FORMATS,
) -> None:
    """``--format`` (one of ``choices``, checked by :func:`check_format` as it is parsed) and
    ``--output``."""
    p.add_argument(
        "--format",
        default="md",
        metavar="FMT",
        help=formats,
        type=converter(lambda text: check_format(text, choices), "format"),
    )
    p.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE instead of standard output ('-' is standard output)"
    )


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress bar (it is shown on standard error when that is a terminal)",
    )


def progress_bar(total: int | None, what: str, quiet: bool = False, unit: str = "it"):
    """A tqdm bar on standard error; off with ``--quiet`` or when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        desc=what,
        unit=unit,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
        disable=True if quiet else None,
        mininterval=0.5,
    )


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


def jobs_from_args(args, hi: int = 10_000) -> int:
    """``--jobs`` (a whole number >= 1): at most ``hi`` tasks for a ``--scheduler``'s cluster,
    else at most the CPUs of this machine (:func:`local_jobs`)."""
    if args.scheduler:
        if args.jobs > hi:
            raise UsageError(f"--jobs must be at most {hi:,}, got {args.jobs:,}")
        return args.jobs
    return local_jobs(args.jobs)


def fraction_value(option: str, text: str, low, high, what: str):
    """The exact value of a fraction option (``0.01``, ``1e-3`` or ``1%``), strictly between
    ``low`` and ``high`` (``what`` says so in the message), or a one-line error."""
    from fractions import Fraction

    t = text.strip()
    if not re.fullmatch(r"[+-]?(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][+-]?[0-9]{1,3})?%?", t):
        shown = t if len(t) <= 30 else t[:30] + "..."
        raise UsageError(f"{option} must be a number such as 0.01, 1e-3 or 1%, got {shown!r}")
    try:
        value = Fraction(t[:-1]) / 100 if t.endswith("%") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{option} must be a number, got {text!r}") from None
    if not low < value < high:
        raise UsageError(f"{option} must be {what}, got {text!r}")
    return value


def fraction(option: str, low, high, what: str):
    """The converter of a fraction option (:func:`fraction_value`)."""
    return converter(lambda text: fraction_value(option, text, low, high, what), "fraction")


def fee_value(text: str):
    """``--fee F`` (``peek``, ``overlay``): a fraction in [0, 1) such as ``20%`` or ``0.2``.

    >>> fee_value("20%")
    Fraction(1, 5)
    """
    message = "a fraction in [0, 1) such as 20%"
    fee = fraction_value("--fee", text, -1, 1, message)
    if fee < 0:
        raise UsageError(f"--fee must be {message}, got {text!r}")
    return fee


def cluster_value(text: str) -> str:
    """``--cluster local`` (``check``, ``study``): the one cluster started here."""
    if text != "local":
        raise UsageError(f"--cluster must be 'local' (for a running cluster use --scheduler ADDRESS), got {text!r}")
    return text


def names_of(option: str, choices: tuple[str, ...]):
    """The converter of a list of names among ``choices``, comma separated (any case, spaces
    around each ignored): the names in order, each once.

    >>> names_of("--bet", ("player", "banker"))(" Banker,player,banker")
    ['banker', 'player']
    """

    def parse(text: str) -> list[str]:
        names = [b.strip().lower() for b in text.split(",")]
        bad = [b for b in names if b not in choices]
        if bad:
            raise UsageError(f"{option}: unknown bet {bad[0]!r} (choose from {', '.join(choices)})")
        return list(dict.fromkeys(names))

    return converter(parse, "names")


def choice_of(option: str, choices: tuple[str, ...]):
    """The converter of an option naming one of ``choices`` (spaces around it kept)."""

    def parse(text: str) -> str:
        if text not in choices:
            raise UsageError(f"unknown {option} {text!r} (choose from {', '.join(choices)})")
        return text

    return converter(parse, "choice")


def bet_id(text: str) -> str:
    """``--bet ID`` (``bankroll``, ``programs``, ``design``, ``export``): a bet id, spaces
    around it dropped; the command finds it in the catalog (with ``--bets-file``, there)."""
    return text.strip()


#: The largest number of decks a list of shoe sizes may name (the largest shoe).
MAX_DECKS = 10_000


def decks_list(option: str, text: str, most: int, what: str = "") -> tuple[int, ...]:
    """``"6,8"`` -> ``(6, 8)``: the shoe sizes of a list option (``decks --decks-list``,
    ``report --decks-list``, ``parsheet --decks`` and ``--by-decks``): whole numbers of decks
    from 1 to :data:`MAX_DECKS` (the largest shoe), separated by commas (an empty item is
    refused), a repeat dropped, at most ``most`` of them (``what`` ends that message).

    >>> decks_list("--decks-list", " 8, 1,8", 20)
    (8, 1)
    """
    shown = text if len(text) <= 30 else text[:30] + "..."
    items = [t.strip() for t in text.split(",")]
    if not all(re.fullmatch(r"[0-9]+", t) for t in items):
        raise UsageError(f"{option} must be whole numbers >= 1 separated by commas, got {shown!r}")
    bad = [t for t in items if len(t.lstrip("0")) > 5 or not 1 <= int(t) <= MAX_DECKS]
    if bad:
        value = bad[0] if len(bad[0]) <= 12 else bad[0][:12] + "..."
        raise UsageError(f"{option}: a number of decks must be from 1 to {MAX_DECKS:,}, got {value}")
    decks = tuple(dict.fromkeys(int(t) for t in items))
    if len(decks) > most:
        raise UsageError(f"{option} names {len(decks):,} shoe sizes: at most {most}{what}")
    return decks


def decks_list_of(option: str, most: int, what: str = ""):
    """The converter of a list of shoe sizes (:func:`decks_list`), its text kept for the
    Reproduce lines (:class:`Given`)."""
    return converter(lambda text: Given(text, decks_list(option, text, most, what)), "decks list")


def local_jobs(jobs: int | str) -> int:
    """``--jobs`` for processes on this machine: 1 .. the number of CPUs it has."""
    import os

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if not isinstance(jobs, int):
        jobs = whole_number("--jobs", jobs, 1)
    if jobs > cpus:
        raise UsageError(
            f"--jobs {jobs} is more than the {cpus} CPU(s) of this machine "
            "(each job is a process with its own copy of the engine)"
        )
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
        try:  # the interpreter's last flush must not fail again
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
    g.add_argument(
        "--table",
        metavar="NAME",
        action="append",
        default=[],
        help="a named rule set: its bets (see 'baccarat bets'); may be repeated",
    )
    g.add_argument(
        "--bets",
        metavar="IDS",
        action="append",
        default=[],
        type=converter(bets_value),
        help="bet ids, comma separated (see 'baccarat bets'), or 'all'; may be repeated",
    )
    g.add_argument("--bets-file", metavar="FILE", help="a TOML file of extra bets and tables (format in docs/bets.md)")


def bets_value(text: str) -> Given:
    """``--bets IDS``: the bet ids, comma separated (``all`` among them), in order, as given
    (:class:`Given`: the text for Reproduce lines); an empty list or item is refused.

    >>> bets_value("banker, tie").value
    ('banker', 'tie')
    """
    if not text.strip():
        raise UsageError("--bets is empty: name bet ids (see 'baccarat bets') or 'all'")
    ids = tuple(i.strip() for i in text.split(","))
    if not all(ids):
        raise UsageError(f"--bets {text!r} has an empty item (two commas?)")
    return Given(text, ids)


def catalog_from_args(args):
    from ..bets.catalog import catalog, load_bets_file

    return load_bets_file(args.bets_file) if getattr(args, "bets_file", None) else catalog()


def bets_from_args(args, cat=None, series: list | None = None):
    """The selected bets: tables, then ids; the main bets when nothing is named.

    ``series``: a list to receive the series bets named (:mod:`analyzer.bets.series`,
    which ``odds`` prices and ``study`` deals over shoes; then no bet settled on one coup
    is named by default when a series bet is, and a bets file's own series bets are
    selected with its bets when nothing is named); without it a series bet's id is
    refused.  ``all`` names every bet settled on one coup, not the series bets."""
    from ..bets.catalog import MAIN_BETS

    cat = cat or catalog_from_args(args)
    ids: list[str] = []
    for name in args.table:
        ids.extend(cat.table(name.strip()).bets)
    for group in args.bets:
        for i in group.value:
            if i == "all":
                ids.extend(cat.bets)
            elif series is not None and i in cat.series:
                if cat.series[i] not in series:
                    series.append(cat.series[i])
            else:
                ids.append(i)
    if not ids and not series and getattr(args, "bets_file", None):
        from ..bets.catalog import catalog

        ids = [b for b in cat.bets if b not in catalog().bets]
        if series is not None:
            series.extend(s for k, s in cat.series.items() if k not in catalog().series)
    if not ids and not series:
        ids = list(MAIN_BETS)
    return cat.select(ids)
