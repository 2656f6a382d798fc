"""The ``baccarat`` command: a thin layer over the API.

Owns: one module per command group, each registering its sub-commands
(:mod:`.odds`, :mod:`.reports`, :mod:`.simcheck`, :mod:`.study`, :mod:`.runs`, ...), over the
shared options of :mod:`.options`.  A command only parses, calls the API,
formats and writes.

May import: every other layer.  Nothing outside this package imports it
(but ``python -m analyzer``).

Errors in the input print one line ``baccarat: error: ...`` on stderr and exit
with status 2; nothing that looks like a result is printed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# The commands' large products run on one BLAS thread already (analyzer.core.blocks.
# one_blas_thread, threadpool_limits in simcheck) and the others are small; an OpenBLAS left
# to start a thread per core when numpy loads spends about 0.07 s of CPU a process on them
# (measured on 2 cores; more with more cores).  Set before numpy loads (analyzer's own
# imports are lazy); a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ..core.errors import BaccaratError
from ..core.solver import set_store
from ..io.cache import ENV_DIR, ENV_OFF, TableCache, enabled
from ..io.files import OutputError
from ..io.interrupt import check_stop, clear_stop, request_stop
from .options import Parser

#: The module that registers each command: a command line names one, and only that
#: module is imported and its parsers built (a test checks this against what every
#: module registers).
GROUP_OF = {
    "odds": "odds",
    "bets": "odds",
    "decks": "reports",
    "distributions": "reports",
    "eor": "reports",
    "payouts": "reports",
    "midcoup": "reports",
    "report": "reports",
    "verify": "simcheck",
    "check": "simcheck",
    "simulate": "simcheck",
    "study": "study",
    "parsheet": "parsheet",
    "bankroll": "bankroll",
    "programs": "programs",
    "runs": "runs",
    "rules": "rules",
    "serve": "serve",
    "design": "design",
    "export": "design",
    "overlay": "overlay",
    "peek": "peek",
}
#: The modules that register commands, in the order ``baccarat --help`` lists them.
GROUPS = tuple(dict.fromkeys(GROUP_OF.values()))


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The ``baccarat`` parser: every command's, or, when ``argv`` starts with a command,
    that command's module's alone (what ``baccarat COMMAND ...`` needs, and all it
    imports)."""
    from .. import __version__

    p = Parser(prog="baccarat", description="Exact odds of Punto Banco baccarat on any finite shoe.")
    p.add_argument("--version", action="version", version=f"baccarat-analyzer {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True

    groups = [GROUP_OF[argv[0]]] if argv and argv[0] in GROUP_OF else GROUPS
    for group in groups:
        importlib.import_module(f".{group}", __name__).register(sub)
    for command in sub.choices.values():
        command.add_argument(
            "--no-cache",
            action="store_true",
            help="neither read nor write the cache of compiled card-bet tables "
            f"(also {ENV_OFF}=1; folder: {ENV_DIR} or the user cache directory)",
        )
    return p


def _store(args):
    """The cache of compiled tables for this run (:mod:`analyzer.io.cache`), or ``None``."""
    if not enabled(getattr(args, "no_cache", False)):
        return None
    return TableCache(warn=lambda message: print(f"baccarat: note: {message}", file=sys.stderr))


def _terminated(signum, frame):
    # Unwind like Ctrl-C, so that temporary output files are removed; and remember it, for
    # code that swallows the KeyboardInterrupt (see analyzer.io.interrupt).
    request_stop()
    raise KeyboardInterrupt


class _ClosedOutput:
    """Standard output when the process was started with it closed (``>&-``): writing to it
    is refused with one line, as a full one is."""

    def write(self, text):
        raise OutputError("cannot write to standard output: it is closed (give --output FILE)")

    def flush(self):
        pass


def main(argv: list[str] | None = None) -> int:
    import signal
    import threading

    clear_stop()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)
        if argv is None:
            # the command line's process: Ctrl-C is remembered too (a caller of main() keeps
            # Python's own handler)
            signal.signal(signal.SIGINT, _terminated)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    try:
        args = build_parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
        previous = set_store(_store(args))
        try:
            status = args.func(args)
        finally:
            set_store(previous)
        check_stop()  # told to stop, but something swallowed the KeyboardInterrupt
        return status
    except BrokenPipeError:
        return 0
    except BaccaratError as e:
        print(f"baccarat: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        if argv is None and threading.current_thread() is threading.main_thread():
            # the command line's process: a second Ctrl-C or SIGTERM while it exits would end
            # it by SIGINT rather than with status 130 (a caller of main() keeps its handlers)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            # CPython (3.11 at least) records a KeyboardInterrupt that leaves any exec() of a
            # string (every @dataclass runs some) as "unhandled", though this caught it; under
            # `python -m analyzer` the process would then end by SIGINT, not with status 130.
            # An exec() of a string starts by clearing that record.
            exec("")
        print("baccarat: interrupted", file=sys.stderr)
        return 130
    finally:
        clear_stop()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
