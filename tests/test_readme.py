"""The manual (the README and the pages of ``docs/``) documents what the code offers, and
every example of it runs as shown."""

import contextlib
import doctest
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from unittest import mock

import pytest

from analyzer import FEATURES, catalog
from helpers import baccarat
from markdown_examples import examples

ROOT = Path(__file__).resolve().parents[1]
README_PATH = ROOT / "README.md"
#: The manual: the README, then the documentation pages (not the generated API reference).
PAGES = [README_PATH, *sorted((ROOT / "docs").glob("*.md"))]
README = README_PATH.read_text()
MANUAL = "\n".join(p.read_text() for p in PAGES)


def page(name: str) -> str:
    return (ROOT / "docs" / name).read_text()


def test_every_feature_is_documented():
    """Each feature is in the manual; a card position's features as its position and attribute."""
    from analyzer.core.features import POSITION_FEATURES
    missing = [f for f in FEATURES if f not in POSITION_FEATURES and f"`{f}`" not in MANUAL]
    missing += [f for f, (pos, attr) in POSITION_FEATURES.items()
                if f"`{pos}`" not in MANUAL and not pos.startswith("card")]
    missing += sorted({attr for pos, attr in POSITION_FEATURES.values() if f"`_{attr}`" not in MANUAL})
    assert "`card1` ..\n  `card4`" in MANUAL and "`card5`" in MANUAL and "`card6`" in MANUAL
    assert not missing


def test_the_feature_table_is_the_registrys():
    """Each feature of a coup (not a card position's) has its row in the table of docs/bets.md,
    its kind and meaning as the registry states them (analyzer/core/features.py)."""
    from analyzer.core.features import POSITION_FEATURES, REGISTRY
    rows = [f"| `{n}` | {f.kind} | {f.doc} |" for n, f in REGISTRY.items() if n not in POSITION_FEATURES]
    bets = page("bets.md")
    assert [r for r in rows if r not in bets] == []
    table = [line for line in bets.splitlines() if line.startswith("| `") and line.count("|") == 4]
    assert [line for line in table[:len(rows)]] == rows


def test_every_group_function_is_documented():
    from analyzer.bets.conditions import FUNCTIONS
    assert not [f for f in FUNCTIONS if f"`{f}(" not in MANUAL]


def test_every_catalog_bet_and_table_is_named():
    cat = catalog()
    named = [b for b in cat.bets if f"`{b}`" not in MANUAL and not b.startswith("egalite_")]
    assert not named
    assert not [t for t in cat.tables if f"`{t}`" not in MANUAL]


SETUP_ODDS = "python3 -m venv .venv && .venv/bin/python -m pip install . && .venv/bin/baccarat odds"
SETUP_TESTS = ("python3 -m venv .venv && .venv/bin/python -m pip install '.[test]' && "
               ".venv/bin/python -m pytest")


def test_readme_opens_with_the_two_setup_commands():
    head = README.split("## ")[0]
    assert SETUP_ODDS in head and SETUP_TESTS in head


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert SETUP_TESTS in ci


def test_the_bet_file_example_works(tmp_path):
    from analyzer import Shoe, Solver, load_bets_file

    block = page("bets.md").split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "mybets.toml"
    path.write_text(block)
    cat = load_bets_file(path)
    a = Solver(cat.select(["pair_win", "player_pair", "player"])).solve(Shoe.standard(8))
    pair_win = a.bet("pair_win").events[0].ways
    assert 0 < pair_win < a.bet("player_pair").events[0].ways
    assert cat.table("mine").bets == ("pair_win", "banker", "player")


# ---------------------------------------------------------------------------------------------
# Every example of the manual, read from its pages (tests/markdown_examples.py): their Python
# sessions and blocks, their shell commands (run through the CLI in a temporary folder holding
# the files the pages define), their TOML files, the Python calls and the names and paths
# they quote, and the figures their prose quotes from the tool.


EXAMPLES = [e for p in PAGES for e in examples(p)]

#: Shell examples not run, by a phrase of the command: why.
SKIP = {
    "python3 -m venv": "installs the package into a new .venv (a build, network or a wheel cache, "
                       "minutes); .ci/run runs this line as written",
    "--scheduler tcp://scheduler.example": "needs a Dask scheduler at scheduler.example:8786 (a network "
                                           "cluster that does not exist)",
    "--shoes 1000000 --table ez --cluster local --jobs 8": "a million shoes on 8 local Dask workers "
                                                           "(about an hour on 2 cores; --jobs 8 needs 8 CPUs)",
    "--shoes 100000 --bets dragon7": "100,000 shoes (several minutes on 2 cores)",
    "--shoes N --seed S [--cut-card K]": "a synopsis with placeholders (N, S, [options]), not a command",
    "baccarat serve --port 8000": "a server: runs until stopped (tests/test_serve.py starts one)",
    "curl -s http://127.0.0.1:8000": "asks a running `baccarat serve` (tests/test_serve.py runs these "
                                     "against a real server)",
    "curl -s 'http://127.0.0.1:8000": "asks a running `baccarat serve` (tests/test_serve.py runs these "
                                      "against a real server)",
    "python -m pytest": "the test suite itself (this test is part of it)",
}
#: Shell examples that take more than about 10 s, by a phrase of the command.
SLOW = {
    "--bets all --format json",               # the whole catalog: every card-engine compile
    "study --decks 8 --shoes 10000",          # 10,000 shoes of five exact EVs a coup
    "simulate --decks 8 --shoes 12500",       # 1,025,263 coups, before verify and check
    "verify hands.csv", "check hands.csv", "check tallies.csv",  # each simulates them first
    "parsheet --table ez", "parsheet --bets banker,tie", "parsheet --bets-file",
    "parsheet --table standard",              # par sheets: 10-35 s each on 2 shared cores
    "baccarat bankroll",                      # each near the 5 s work budget by design: 7-17 s here
    "--verify 1000000",                       # a par sheet's appendix: a million simulated rounds, 13 s
    "--bet lucky_nines --edge 8%:9%",         # a designer search to its node budget: 3 s
    "--hands 10000 --stake 100",              # a 10,000-hand trip, exact: 3 s
    "--hands 2000 --rebate 12.5",             # a 2,000-hand trip with its chart: 2.3 s
    "--hands 1000 --stake 2",                 # a 1,000-hand trip of a two-bet mix: 2.3 s
    "--bet banker_streak --edge 9%:10%",      # a series bet's menu, with export's blocks: 3 s
    "peek --inverse",                         # every reveal rule of the family: 1.7 s
    "--shoes 2000 --burn standard --chart",   # 2,000 dealt shoes beside the exact runs: 1.3 s
    "overlay --inverse",                      # the inverse over every Lightning family: 6-7 s
    "--bets-file examples/lucky_win.toml",    # Lucky Win's suit-reading table: 3 s to compile
}


def kind(k):
    return [e for e in EXAMPLES if e.kind == k]


def params(k, marks=lambda e: ()):
    return [pytest.param(e, id=str(e), marks=marks(e)) for e in kind(k)]


def shell_marks(e):
    marks = [pytest.mark.skip(reason=r) for phrase, r in SKIP.items() if phrase in e.text]
    return marks + [pytest.mark.slow for phrase in SLOW if phrase in e.text]


def test_the_manual_has_examples_of_each_kind():
    counts = {k: len(kind(k)) for k in ("doctest", "shell", "toml", "inline-python", "name", "path")}
    assert all(counts.values()), counts


def test_every_skip_and_slow_phrase_names_an_example():
    shell = [e.text for e in kind("shell")]
    assert [p for p in [*SKIP, *SLOW] if not any(p in t for t in shell)] == []


def needs_pandas(e):
    """A session calling ``to_frame()`` is skipped where pandas (the ``frames`` extra, in the
    ``test`` extra too) is missing, not marked ``+SKIP`` in the page."""
    missing = "to_frame(" in e.text and importlib.util.find_spec("pandas") is None
    return [pytest.mark.skip(reason="to_frame() needs pandas (the frames extra)")] if missing else []


@pytest.mark.parametrize("ex", params("doctest", needs_pandas))
def test_python_session(ex):
    """A ``>>>`` session: its shown output is what Python prints."""
    test = doctest.DocTestParser().get_doctest(ex.text, {}, str(ex), str(ex.path), ex.line - 1)
    report = io.StringIO()
    runner = doctest.DocTestRunner(verbose=False)
    runner.run(test, out=report.write)
    assert runner.failures == 0, f"{ex.path.name} line {ex.line}: the session differs:\n{report.getvalue()}"


@pytest.mark.parametrize("ex", params("python"))
def test_python_block(ex):
    exec(compile(ex.text, f"{ex.path.name} line {ex.line}", "exec"), {})


def readme_files(tmp_path):
    """The manual's named TOML files written into ``tmp_path``, and its folders linked there."""
    names = [e.filename for e in kind("toml") if e.filename]
    assert len(names) == len(set(names)), f"two pages name one file: {names}"
    for e in kind("toml"):
        if e.filename:
            (tmp_path / e.filename).write_text(e.text)
    for name in ("examples",):
        (tmp_path / name).symlink_to(ROOT / name)


def producers(ex):
    """The earlier commands that write a file ``ex`` reads (``simulate ... --log hands.csv``
    before ``verify hands.csv``: the file an option's value), the nearest writer of each."""
    wanted = {t for t in shlex.split(ex.text) if re.fullmatch(r"[\w.-]+\.(csv|jsonl|json)", t)}
    wanted -= {p.name for p in ROOT.iterdir()}
    found = []
    for e in reversed([e for e in kind("shell") if e.path == ex.path and e.line < ex.line]):
        tokens = shlex.split(e.text)
        made = wanted & {t for option, t in zip(tokens, tokens[1:]) if option.startswith("-")}
        if made:
            found.insert(0, e)
            wanted -= made
    return found


#: What makes a command need a shell (pipes, redirection, variables, globs, several commands).
SHELL_SYNTAX = re.compile(r"[|&;<>()$`*?~\n]|^\w+=")


def run_shell(command, cwd):
    """Run a command of the manual in ``cwd``: a plain ``baccarat ARGS`` in this process
    (:func:`helpers.baccarat`, as the ``cli`` fixture does: a process start costs about
    0.3 s of CPU, and the manual has a hundred of them), anything else under bash, with
    the package's ``baccarat`` first on the PATH.  ``tests/test_cli.py`` runs the command
    as a real process."""
    argv = shlex.split(command) if not SHELL_SYNTAX.search(command) else []
    if argv and argv[0] == "baccarat" and "-" not in argv[1:]:
        with contextlib.chdir(cwd), mock.patch.dict(os.environ, COLUMNS="100"):
            r = baccarat(*argv[1:], stdin="")
        return subprocess.CompletedProcess(argv, r.code, r.out, r.err)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="100")
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=1800)


@pytest.mark.parametrize("ex", params("shell", shell_marks))
def test_shell_command_runs_and_prints_what_is_shown(ex, tmp_path):
    """A command of the manual runs (exit 0; 1 where the output shown says FAIL), in a folder
    holding the manual's files, after the commands of its page that write the files it reads;
    a shown output is its output."""
    readme_files(tmp_path)
    for before in producers(ex):
        r = run_shell(before.text, tmp_path)
        assert r.returncode == 0, f"{before.where} (run before line {ex.line}): exit {r.returncode}\n{r.stderr}"
    r = run_shell(ex.text, tmp_path)
    status = 1 if ex.output and re.search(r"^FAIL\b", ex.output, re.M) else 0
    assert r.returncode == status, f"{ex.where}: exit {r.returncode}, not {status}\n{r.stderr[-2000:]}"
    if ex.output is not None:
        assert r.stdout == ex.output, (f"{ex.where}: the output shown differs from what it prints:\n"
                                       f"{r.stdout}")


def test_shell_commands_find_their_files():
    """``verify`` and ``check`` of hands.csv are run after the ``simulate`` that writes it."""
    for text in ("baccarat verify hands.csv", "baccarat check tallies.csv", "baccarat check hands.csv"):
        e = next(e for e in kind("shell") if e.text.startswith(text))
        assert [p.text.split()[1] for p in producers(e)] == ["simulate"], text


@pytest.mark.parametrize("ex", params("toml"))
def test_toml_example_loads_and_prices(ex, tmp_path):
    """A bets file loads and prices; a rules file loads; a fragment's events are events of a bet."""
    from analyzer import Shoe, Solver, load_bets_file
    from analyzer.bets.rules_files import load_rules
    try:
        doc = tomllib.loads(ex.text)
    except tomllib.TOMLDecodeError:
        doc = None
    if doc is None:                          # one event (inline table) a line
        events = [line.strip() for line in ex.text.splitlines() if line.strip()]
        assert all(e.startswith("{") and e.endswith("}") for e in events), ex.where
        doc_text = ('[[bet]]\nid = "fragment"\nname = "fragment"\nevents = [\n'
                    + ",\n".join(events) + "\n]\n")
    else:
        doc_text = ex.text
    path = tmp_path / (ex.filename or "example.toml")
    path.write_text(doc_text)
    if doc is not None and "banker" in doc:
        load_rules(str(path))
        return
    cat = load_bets_file(path)
    loaded = tomllib.loads(doc_text)
    ids = [d["id"] for d in loaded.get("bet", [])]
    Solver(cat.select(ids)).solve(Shoe.standard(8))
    if loaded.get("series"):                 # series bets (docs/bets.md#series-bets) price off the top
        from analyzer.bets.series import price_series
        assert price_series(Shoe.standard(8), [cat.series[d["id"]] for d in loaded["series"]])


def test_the_rules_file_restates_gold(tmp_path):
    """The rules file the manual shows restates the built-in ``gold``, as it says."""
    from analyzer.bets.rules_files import load_rules
    (block,) = [e for e in kind("toml") if "[banker]" in e.text]
    assert "(this one restates\n`gold`)" in MANUAL
    path = tmp_path / "gold.toml"
    path.write_text(block.text)
    assert load_rules(str(path)) == load_rules("gold")


#: Inline calls not evaluated: why.
INLINE_SKIP = {
    "NAME|FILE": "a signature: NAME|FILE stands for a name or a file",
    "...": "a signature: ... stands for further arguments",
}


def inline_marks(e):
    return [pytest.mark.skip(reason=r) for phrase, r in INLINE_SKIP.items() if phrase in e.text]


@lru_cache(maxsize=1)
def inline_namespace():
    """The names the manual's inline calls use: a shoe, some bets, a result, rule sets."""
    import analyzer
    from analyzer import Shoe, Solver, analyze, catalog
    from analyzer.bets.rules_files import load_rules
    shoe = Shoe.standard(8)
    return {"analyzer": analyzer, "Shoe": Shoe, "Solver": Solver, "analyze": analyze, "shoe": shoe,
            "bets": catalog().select(["banker", "player", "tie"]), "result": analyze(shoe),
            "rules": load_rules("gold"), "GOLD": load_rules("gold")}


@pytest.mark.parametrize("ex", params("inline-python", inline_marks))
def test_inline_python_call(ex):
    """A call quoted after "Python:" runs, with ``shoe`` an 8-deck shoe, ``bets`` the main bets,
    ``result`` their analysis and ``rules`` Baccarat Gold (the manual quotes them about Gold)."""
    import analyzer.bets.breakeven, analyzer.core.choice, analyzer.core.known  # noqa: E401,F401
    import analyzer.reports.bankroll, analyzer.bets.rules_files  # noqa: E401,F401
    try:
        eval(compile(ex.text, f"{ex.path.name} line {ex.line}", "eval"), dict(inline_namespace()))
    except Exception as e:
        pytest.fail(f"{ex.where} raises {type(e).__name__}: {e}")


@pytest.mark.parametrize("ex", params("name"))
def test_quoted_name_exists(ex):
    """A dotted name ``analyzer.x.y`` the manual quotes is a module or an attribute of one."""
    import importlib
    parts = ex.text.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for attr in parts[k:]:
            assert hasattr(obj, attr), f"{ex.where}: {'.'.join(parts[:k])} has no {attr!r}"
            obj = getattr(obj, attr)
        return
    pytest.fail(f"{ex.where}: no module {parts[0]}")


@pytest.mark.parametrize("ex", params("path"))
def test_quoted_path_exists(ex):
    """A file or folder the manual quotes exists, in the repository's top folder or in a package
    there (``reports/writer.py`` in ``analyzer/``), or (a link between pages) beside its page."""
    here = ROOT
    packages = [p for p in here.iterdir() if (p / "__init__.py").exists()]
    bases = [here, *packages, ex.path.parent]
    assert any((base / ex.text).exists() for base in bases), f"{ex.where}: no such file or folder"


# ---------------------------------------------------------------------------------------------
# Figures the manual's prose quotes from the tool, each against what the tool prints.


FLATS = {p: " ".join(p.read_text().split()) for p in PAGES}    # each page with its line breaks made spaces
FLAT = " ".join(FLATS.values())


@lru_cache(maxsize=None)
def cached(*args):
    """(status, stdout, stderr) of ``baccarat ARGS`` (in this process), run once for each ARGS."""
    return baccarat(*args)


@lru_cache(maxsize=None)
def cli_json(*args):
    """The parsed ``--format json`` output of :func:`cached` (module-level figures cached across
    tests, which no fixture reaches: hence :func:`helpers.baccarat`, the ``cli`` fixture's runner)."""
    import json
    status, out, err = cached(*args, "--format", "json")
    assert status == 0, f"baccarat {' '.join(args)}: {err}"
    return json.loads(out)


def odds(*args):
    return cli_json("odds", *args)


def house_edge(bet, *args):
    return Fraction(odds("--bets", bet, *args)["bets"][bet]["house_edge"])


def percent(x):
    return Fraction(x) * 100


def known_edges(name):
    edges = cli_json("midcoup", "--table", "known-card-edges", "-q")["edges"][name]
    return [percent(edges[p]["edge"]) for p in ("1", "2", "5", "6")]


def fits(*args):
    """The largest number of coups ``baccarat bankroll ARGS`` says fit its budget."""
    status, _, err = cached("bankroll", *args, "--coups", "100000")
    m = re.search(r"at most ([\d,]+) coups fit", err)
    assert status == 2 and m, err
    return int(m.group(1).replace(",", ""))


def gold_row(play):
    d = odds("--rules", "gold", "--player-option", play)
    return ([d["outcomes"][o]["ways"] for o in ("player", "banker", "tie")]
            + [percent(d["bets"][b]["house_edge"]) for b in ("player", "banker")])


NUMBER = r"([\d,]+(?:\.\d+)?)"
#: (what, a phrase of the manual with the quoted figures as groups, the tool's figures).
FIGURES = [
    ("Dragon 7 and Panda 8 house edges",
     rf"\(base house edges {NUMBER}% and {NUMBER}%, as `baccarat odds` prints them;.*? "
     rf"Wizard of Odds' counts give {NUMBER}%",
     lambda: [percent(house_edge("dragon7")), percent(house_edge("panda8")), percent(house_edge("dragon7"))]),
    ("8-deck deals and outcome counts",
     rf"\(8 decks: {NUMBER}\).*it gives Banker {NUMBER}, Player {NUMBER} and Tie {NUMBER} for 8 decks",
     lambda: [odds()["deals"]] + [odds()["outcomes"][o]["ways"] for o in ("banker", "player", "tie")]),
    ("catalog size", r"lists the built-in catalog \((\d+) bets settled on one coup, and (\d+) \[series bets\]",
     lambda: [len(cli_json("bets")["bets"]), len(cli_json("bets")["series"])]),
    ("Banker Streak house edges", rf"the four pay tables' house edges are {NUMBER}%, {NUMBER}%, {NUMBER}% and "
                                  rf"{NUMBER}%",
     lambda: [percent(odds("--bets", b)["series"][b]["house_edge"])
              for b in ("banker_streak", "banker_streak_2", "banker_streak_3", "banker_streak_4")]),
    ("Binion's Lucky Nines house edge", rf"so its house edge is {NUMBER}%, not 19.46%",
     lambda: [percent(house_edge("lucky_nines_binions"))]),
    ("Bad Beat house edge", rf"Jacobson's 8.459% for Bad Beat is a double rounding of {NUMBER}%",
     lambda: [percent(house_edge("bad_beat"))]),
    ("Gold, drawing on 5", rf"\| draws on 5 \(= `best`: drawing is right on every five\) \| {NUMBER} \| "
                           rf"{NUMBER} \| {NUMBER} \| {NUMBER}% \| {NUMBER}% \|",
     lambda: gold_row("best")),
    ("Gold, standing on 5", rf"\| stands on 5 \| {NUMBER} \| {NUMBER} \| {NUMBER} \| {NUMBER}% \| {NUMBER}% \|",
     lambda: gold_row("stand")),
    ("Gold's Tie at 9 to 1", rf"`--bets tie_9to1` \({NUMBER}% drawing on 5, {NUMBER}% standing\)",
     lambda: [percent(house_edge("tie_9to1", "--rules", "gold")),
              percent(house_edge("tie_9to1", "--rules", "gold", "--player-option", "stand"))]),
    ("known-card edges, Jacobson's (prose)",
     rf"is worth, on 8 decks, {NUMBER}% \(positions 1 and 3\), {NUMBER}% \(2 and 4\), {NUMBER}% \(5\) "
     rf"and {NUMBER}% \(6\)", lambda: known_edges("Player or Banker")),
    ("known-card edges, Jacobson's (table)",
     rf"\| Player or Banker \(Jacobson\) \| {NUMBER}% \| {NUMBER}% \| {NUMBER}% \| {NUMBER}% \|",
     lambda: known_edges("Player or Banker")),
    ("known-card edges, Dragon 7", rf"\| Dragon 7 \(`dragon7`\) \| {NUMBER}% \| {NUMBER}% \| {NUMBER}% \| {NUMBER}% \|",
     lambda: known_edges("Dragon 7")),
    ("known-card edges, Panda 8", r"\| Panda 8 \(`panda8`\) \| ([\d.]+)%? \| ([\d.]+)%? \| ([\d.]+)%? \| ([\d.]+)%? \|",
     lambda: known_edges("Panda 8")),
    ("bankroll budgets",
     rf"From 100 units, one unit a coup: Banker flat \(ticks of 1/20\) {NUMBER} coups, Player flat {NUMBER}; "
     rf"from 50 units: Banker Martingale with a limit of 16 units {NUMBER} coups, Player Martingale with a "
     rf"limit of 32 {NUMBER}, Tie Paroli {NUMBER}, Banker D'Alembert with a limit of 10 {NUMBER}\.",
     lambda: [fits("--bet", "banker", "--bankroll", "100"), fits("--bet", "player", "--bankroll", "100"),
              fits("--bet", "banker", "--bankroll", "50", "--system", "martingale", "--limit", "16"),
              fits("--bet", "player", "--bankroll", "50", "--system", "martingale", "--limit", "32"),
              fits("--bet", "tie", "--bankroll", "50", "--system", "paroli"),
              fits("--bet", "banker", "--bankroll", "50", "--system", "dalembert", "--limit", "10")]),
]
SLOW_FIGURES = {"known-card edges"}      # midcoup's known-card edges: every position, three bets


def agrees(quoted: str, value) -> bool:
    """The manual's ``quoted`` figure is ``value`` (an integer exactly; else rounded to the
    digits quoted)."""
    if isinstance(value, int) and "." not in quoted:
        return int(quoted.replace(",", "")) == value
    digits = len(quoted.partition(".")[2])
    return f"{float(value):.{digits}f}" == quoted


def figure_line(path, m):
    """The line of a match in the page ``path``'s FLATS."""
    words = FLATS[path][:m.start()].split()
    text, count = path.read_text(), 0
    for k, line in enumerate(text.splitlines(), 1):
        count += len(line.split())
        if count > len(words):
            return k
    return 0


@pytest.mark.parametrize("what, phrase, tool", [
    pytest.param(*f, id=f[0], marks=[pytest.mark.slow] if any(s in f[0] for s in SLOW_FIGURES) else [])
    for f in FIGURES])
def test_quoted_figures_are_the_tools(what, phrase, tool):
    found = [(p, m) for p, flat in FLATS.items() for m in re.finditer(phrase, flat)]
    assert len(found) == 1, f"{what}: the manual has {len(found)} phrases like {phrase!r}"
    path, m = found[0]
    quoted, values = m.groups(), tool()
    assert len(quoted) == len(values)
    wrong = [(q, f"{float(v):.6f}" if isinstance(v, Fraction) else v)
             for q, v in zip(quoted, values) if not agrees(q, v)]
    assert not wrong, (f"{path.relative_to(ROOT)} line {figure_line(path, m)} ({what}): quoted, and what "
                       f"the tool gives: {wrong}")


def poker_bet(tmp_path, *conditions):
    events = ",\n".join(f'  {{ event = "e{k}", when = "{c}", pays = 10 }}' for k, c in enumerate(conditions))
    path = tmp_path / f"poker-{len(list(tmp_path.iterdir()))}.toml"    # cached() caches by name
    path.write_text(f'[[bet]]\nid = "poker"\nname = "poker"\nevents = [\n{events}\n]\n')
    return str(path)


def test_the_poker_examples_that_cannot_be_one_bet(tmp_path):
    """The manual says which poker tests one bet cannot combine, and the estimate it stops with."""
    m = re.search(r"so one bet with `([^`]+)` and `([^`]+)` must tell all 52 cards apart on all six: "
                  rf"{NUMBER} class sequences, far beyond the budget below, and the command stops", FLAT)
    assert m, "the manual no longer says which poker tests cannot be one bet"
    status, _, err = cached("odds", "--bets-file", poker_bet(tmp_path, m[1], m[2]))
    assert status == 2 and f"{m[3]} sequences of 52 card classes" in err, err
    assert {"jackpot", "lucky_match"} <= set(cli_json("bets")["tables"]["poker"]["bets"])


@pytest.mark.slow
def test_the_poker_examples_that_can_be_one_bet(tmp_path):
    """... and which it can: each of the two refused above alone, ranks of every card with ranks
    of the first four."""
    m = re.search(r"so one bet with `([^`]+)` and `([^`]+)` must tell all 52 cards apart", FLAT)
    for condition in (m[1], m[2]):
        assert cached("odds", "--bets-file", poker_bet(tmp_path, condition))[0] == 0
    m = re.search(r"Tests of ranks alone combine \(`([^`]+)` with `([^`]+)` in one bet\)", FLAT)
    assert m, "the manual no longer says which poker tests combine"
    assert cached("odds", "--bets-file", poker_bet(tmp_path, m[1], m[2]))[0] == 0


def test_examples_reads_any_markdown(tmp_path):
    """The extraction knows no particular file: prompts and their output, continued lines,
    comments, a TOML file named by the commands after it, inline calls, names and paths."""
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Doc\n\nIntro.\n\n```toml\n[[bet]]\nid = \"x\"\n```\n\n```sh\nbaccarat odds --bets-file x.toml  # one\n"
        "baccarat odds \\\n  --decks 6\n```\n\n```\n$ baccarat verify a.csv\nline 1\nOK\n$ baccarat bets\n```\n\n"
        "From Python: `analyze(shoe)`; see `analyzer.core` and `tests/oracle.py`.\n")
    found = [(e.line, e.kind, e.text, e.output, e.filename) for e in examples(doc)]
    assert found == [
        (6, "toml", '[[bet]]\nid = "x"\n', None, "x.toml"),
        (11, "shell", "baccarat odds --bets-file x.toml", None, None),
        (12, "shell", "baccarat odds --decks 6", None, None),
        (17, "shell", "baccarat verify a.csv", "line 1\nOK\n", None),
        (20, "shell", "baccarat bets", None, None),
        (23, "inline-python", "analyze(shoe)", None, None),
        (23, "name", "analyzer.core", None, None),
        (23, "path", "tests/oracle.py", None, None)]
