"""Fixtures shared by the tests: ``cli`` (run ``baccarat`` in this process or in a real one),
``full_reports`` (``reports/`` regenerated in full, once a session) and ``small_reports``
(the report writer on a three-bet catalog), and the hypothesis profiles.

Helpers that are not fixtures (log shapes, strategies, the card cases of the class engine)
are in :mod:`helpers`; the oracles are in :mod:`oracle` and :mod:`brute`.  No test module
imports another.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# The compiled-table cache (analyzer/io/cache.py) stays off in tests, subprocesses
# included, so every test compiles what it counts; tests/test_cache.py turns it on in
# a folder of its own.
os.environ["BACCARAT_NO_CACHE"] = "1"

from helpers import Run, baccarat, process_env  # noqa: E402

# -- hypothesis -------------------------------------------------------------------------------
# Each test asks for its number of examples; where that is costly the default run's test draws
# few and a twin marked ``slow`` (``pytest -m slow``, run by `.ci/run`) draws many.
# HYPOTHESIS_PROFILE picks a profile (both keep those numbers).
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# -- the command line -------------------------------------------------------------------------

class CLI:
    """``baccarat ARGV`` for a test: ``cli(*argv)`` runs :func:`analyzer.cli.main` in this
    process (:func:`helpers.baccarat`, the one in-process runner; arguments are ``str()``-ed,
    so paths may be given) and returns a :class:`~helpers.Run`; ``stdin=`` feeds it a standard
    input, ``tty=True`` a standard error that is a terminal.  ``cli.process(*argv)`` runs ``python -m analyzer`` in a real process (for what only
    a process has: its file descriptors, signals, exit), ``cli.shell(words)`` the same through
    ``sh -c`` (for redirections)."""

    def __call__(self, *argv, stdin: str | bytes | None = None, tty: bool = False) -> Run:
        return baccarat(*argv, stdin=stdin, tty=tty)

    def ok(self, *argv, stdin: str | bytes | None = None) -> str:
        """The standard output of a command that succeeds (exit 0) and writes nothing on
        standard error."""
        r = self(*argv, stdin=stdin)
        assert (r.code, r.err) == (0, ""), f"baccarat {' '.join(map(str, argv))}: exit {r.code}\n{r.err}"
        return r.out

    def json(self, *argv, stdin: str | bytes | None = None):
        """The parsed standard output of :meth:`ok` (give ``--format json`` where it is needed)."""
        return json.loads(self.ok(*argv, stdin=stdin))

    def error(self, *argv, stdin: str | bytes | None = None, partial: bool = False) -> str:
        """The message of a command that fails as a usage error: exit 2, nothing on standard
        output (with ``partial=True``, what it wrote before the error, as ``--batch`` does for
        the lines before a bad one), one line ``baccarat: error: MESSAGE`` on standard error."""
        r = self(*argv, stdin=stdin)
        assert r.code == 2 and (partial or r.out == ""), r
        assert r.err.startswith("baccarat: error: ") and r.err.count("\n") == 1, r.err
        return r.err[len("baccarat: error: "):-1]

    def process(self, *argv, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
        """``python -m analyzer ARGV`` in a process of its own (text mode, output captured
        unless ``stdout=``/``stderr=`` say otherwise)."""
        kw.setdefault("env", process_env())
        if "stdout" not in kw and "stderr" not in kw:
            kw["capture_output"] = True
        return subprocess.run([sys.executable, "-m", "analyzer", *map(str, argv)], text=True, timeout=timeout,
                              **kw)

    def shell(self, words: str, cwd, timeout: float = 120, **extra_env: str | None) -> subprocess.CompletedProcess:
        """``python -m analyzer WORDS`` run by ``sh -c`` in ``cwd`` (``WORDS`` may hold
        redirections and pipes; ``extra_env`` as :func:`helpers.process_env` takes it)."""
        return subprocess.run(["sh", "-c", f"{shlex.quote(sys.executable)} -m analyzer {words}"], cwd=cwd,
                              env=process_env(**extra_env), capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def cli() -> CLI:
    """Run ``baccarat`` (see :class:`CLI`); it keeps no state, so fixtures of any scope may use it."""
    return CLI()


# -- the card engines -------------------------------------------------------------------------

@pytest.fixture(scope="session")
def small_tally():
    """The shoe of :data:`helpers.SMALL_CARDS`, the oracle's ways of each of
    :data:`helpers.CARD_CASES` over every ordered deal of its cards, and the number of deals."""
    from collections import Counter

    from analyzer import Shoe
    from helpers import CARD_CASES, SMALL_CARDS
    from oracle import six_card_tally
    cards = SMALL_CARDS.split()
    tally, deals = six_card_tally(cards, dict(CARD_CASES))
    return Shoe.from_counts(dict(Counter(cards))), tally, deals


# -- the reports folder -----------------------------------------------------------------------

@pytest.fixture(scope="session")
def full_reports(tmp_path_factory) -> tuple[Path, list[Path]]:
    """``reports/`` regenerated in full, as ``baccarat report --out reports/`` writes it (charts
    included where matplotlib is installed): once a session, for every test that reads a full
    regeneration.  The folder and the files :func:`~analyzer.reports.writer.generate` returned;
    tests only read them."""
    from analyzer.reports.writer import generate
    out = tmp_path_factory.mktemp("full") / "reports"
    return out, generate(out)


#: The bets of :func:`small_reports`' catalog.
SMALL_REPORT_BETS = ("player", "banker", "tie")


@pytest.fixture
def small_reports(monkeypatch):
    """The report writer on a catalog of three bets (player, banker, tie; one table, ``main``):
    every step and every kind of file of ``baccarat report``, in about a tenth of the full
    run's time, for the tests of how the folder is written (refusals, staging, rewriting,
    interrupts, rules words).  The numbers of a full regeneration are checked once, on
    :func:`full_reports`.  In-process runs only (``cli``, ``generate``)."""
    import analyzer.reports.writer as writer
    from analyzer.bets.catalog import Catalog, catalog
    full = catalog()
    small = Catalog(bets={b: full.bets[b] for b in SMALL_REPORT_BETS}, tables={"main": full.tables["main"]})
    monkeypatch.setattr(writer, "catalog", lambda: small)
    return small


# -- the pages' doctests ----------------------------------------------------------------------

def pytest_collection_modifyitems(items):
    """A page's doctest (``--doctest-glob``) calling ``to_frame()`` is skipped where pandas (the
    ``frames`` extra, in the ``test`` extra too) is missing; the page marks no ``+SKIP``.
    tests/test_readme.py skips the one session the same way."""
    import importlib.util
    if importlib.util.find_spec("pandas") is not None:
        return
    for item in items:
        test = getattr(item, "dtest", None)
        if test is not None and any("to_frame(" in ex.source for ex in test.examples):
            item.add_marker(pytest.mark.skip(reason="to_frame() needs pandas (the frames extra)"))
