"""What a process pays before it computes anything: the package's lazy names, the command
line's parser built for the command it runs, and one BLAS thread (issue 24, item 1; the
whole commands are timed by ``benchmarks/bench_cold_start.py``)."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys

import pytest
from helpers import REPO

import analyzer
import analyzer.cli as cli
from analyzer.cli.options import Parser


def _python(code: str, **env: str) -> dict:
    """What ``code`` prints as JSON, run in a fresh interpreter with ``env`` added (and
    ``OPENBLAS_NUM_THREADS`` unset unless given)."""
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    base["PYTHONPATH"] = str(REPO)
    out = subprocess.run(
        [sys.executable, "-c", code], env={**base, **env}, capture_output=True, text=True, check=True, cwd=REPO
    )
    return json.loads(out.stdout)


def test_each_command_is_registered_by_the_module_the_command_line_imports_for_it():
    registered = {}
    for group in cli.GROUPS:
        sub = Parser(prog="baccarat").add_subparsers(dest="command", parser_class=Parser)
        importlib.import_module(f"analyzer.cli.{group}").register(sub)
        registered.update(dict.fromkeys(sub.choices, group))
    assert registered == cli.GROUP_OF
    # the whole parser (help, an unknown command) lists every command, in GROUPS' order
    whole = next(a for a in cli.build_parser()._actions if a.dest == "command")
    assert list(whole.choices) == list(registered)


def test_a_command_line_builds_only_its_commands_parsers():
    for command, group in cli.GROUP_OF.items():
        built = next(a for a in cli.build_parser([command, "--help"])._actions if a.dest == "command")
        assert {cli.GROUP_OF[c] for c in built.choices} == {group}
    for argv in ([], ["--help"], ["--version"], ["no-such-command"]):
        built = next(a for a in cli.build_parser(argv)._actions if a.dest == "command")
        assert set(built.choices) == set(cli.GROUP_OF)


def test_an_unknown_command_is_refused_with_the_list_of_commands(cli):
    got = cli("no-such-command")
    assert got.code == 2 and "invalid choice" in got.err and "'odds'" in got.err and "'serve'" in got.err


def test_the_packages_names_are_the_defining_modules_own():
    # the names a type checker reads (the TYPE_CHECKING imports) are the ones __getattr__ serves
    tree = ast.parse((REPO / "analyzer" / "__init__.py").read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    static = {
        a.name: "." * n.level + (n.module or "") for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names
    }
    assert static == analyzer._EXPORTS
    assert set(analyzer.__all__) == set(static) and set(analyzer.__all__) <= set(dir(analyzer))
    for name, module in static.items():
        assert getattr(analyzer, name) is getattr(importlib.import_module(module, "analyzer"), name)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        analyzer.no_such_name  # noqa: B018


def test_importing_the_package_loads_only_what_is_read():
    got = _python(
        "import json, sys, analyzer; a = 'numpy' in sys.modules; n = analyzer.Shoe.standard(1).cards; "
        "print(json.dumps([a, n, 'analyzer.core.solver' in sys.modules, analyzer.analyze.__name__, "
        "'analyzer.core.solver' in sys.modules]))"
    )
    assert got == [False, 52, False, "analyze", True]


@pytest.mark.parametrize("given", [None, "2"])
def test_the_command_line_runs_blas_on_one_thread_unless_the_user_chose(given):
    pytest.importorskip("threadpoolctl")
    code = (
        "import json, os, analyzer.cli, numpy, threadpoolctl; "
        "blas = [p['num_threads'] for p in threadpoolctl.threadpool_info() if p['internal_api'] == 'openblas']; "
        "print(json.dumps([os.environ['OPENBLAS_NUM_THREADS'], blas]))"
    )
    value, openblas = _python(code, **({} if given is None else {"OPENBLAS_NUM_THREADS": given}))
    assert value == (given or "1")
    if given is None:
        assert all(n == 1 for n in openblas)  # (none when numpy has another BLAS)


def test_a_run_whose_tables_are_all_stored_deals_no_coup_table(tmp_path):
    """The coup table's 10**6 coups are dealt (about 30 ms) only when something is computed
    from them: a second process finds the outcome rows, the value bets' rows and the card
    tables in the cache, and gives the same odds without dealing (with known cards too)."""
    code = (
        "import json, sys; from analyzer import Shoe, Solver, catalog, parse_known; "
        "from analyzer.core.engine import coup_table; from analyzer.io.cache import TableCache; "
        "known = parse_known(sys.argv[2:]) if len(sys.argv) > 2 else None; "
        "a = Solver(catalog().select(['banker', 'lucky_match']), known=known, store=TableCache(sys.argv[1]))"
        ".solve(Shoe.standard(8).remove('Kh 9s')); "
        "print(json.dumps(['p1' in vars(coup_table()), [a.ways(o) for o in ('player', 'banker', 'tie')], "
        "[str(a.bet(b).house_edge) for b in ('banker', 'lucky_match')]]))"
    )
    for known in ([], ["1=9"]):
        runs = [
            subprocess.run([sys.executable, "-c", code, str(tmp_path / "cache"), *known], capture_output=True,
                           text=True, check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}).stdout
            for _ in range(2)
        ]
        (dealt_first, *first), (dealt_later, *later) = map(json.loads, runs)
        assert (dealt_first, dealt_later) == (True, bool(known)) and later == first
