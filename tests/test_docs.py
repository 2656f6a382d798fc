"""The documentation site (``docs/``, ``mkdocs.yml``) agrees with the code.

The feature table is the registry's; every ``baccarat`` command has its page, which names
every option of the command; every page is in the site's navigation; the API reference
names modules that exist; the pages are doctests of the default test run; the README stays
short; the version is written once; the package ships its licence and ``py.typed``.
(``tests/test_readme.py`` runs the examples of the README and the pages.)
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

#: The page of every ``baccarat`` command.
COMMAND_PAGES = {
    "odds": "odds.md", "bets": "bets.md", "rules": "rules.md",
    "parsheet": "reports.md", "report": "reports.md", "decks": "reports.md",
    "distributions": "reports.md", "eor": "reports.md", "payouts": "reports.md", "midcoup": "reports.md",
    "bankroll": "bankroll.md", "programs": "programs.md", "study": "study.md", "runs": "runs.md",
    "simulate": "simcheck.md", "verify": "simcheck.md", "check": "simcheck.md",
    "serve": "serve.md", "design": "design.md", "export": "design.md",
    "overlay": "overlay.md", "peek": "peek.md",
}
#: Where the options that every command takes are documented, once.
COMMON_OPTIONS_PAGE = "performance.md"     # --no-cache: the cache of compiled tables


def load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def subcommands() -> dict[str, argparse.ArgumentParser]:
    from analyzer.cli import build_parser
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def long_options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"]


def short_options(parser: argparse.ArgumentParser) -> list[str]:
    """A command's short aliases (``-o``, ``-q``), ``-h`` aside."""
    return [o for a in parser._actions for o in a.option_strings if not o.startswith("--") and o != "-h"]


def positionals(parser: argparse.ArgumentParser) -> list[str]:
    """The names a command's positional arguments show in its usage (``LOG``, ``LOG|TALLIES``)."""
    return [a.metavar or a.dest.upper() for a in parser._actions
            if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]


def mentions(text: str, option: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", text) is not None


HEADING = re.compile(r"^(#{2,6}) (.+)$", re.M)


def command_text(command: str) -> str:
    """What of its page documents ``command``.  On a page of one command, the page.  On a
    page of several, the command's own section (from the first ``##`` or deeper heading that
    names it, ```baccarat CMD``` or ```CMD```, to the next heading of the same or a higher
    level) and the parts of the page that are no command's section (the introduction, shared
    sections such as the inputs or the shoe procedure), but not the other commands' sections:
    an option documented under another command does not count."""
    page = COMMAND_PAGES[command]
    text = (DOCS / page).read_text()
    commands = [c for c, p in COMMAND_PAGES.items() if p == page]
    if len(commands) == 1:
        return text
    headings = [(m.start(), len(m.group(1)), m.group(2)) for m in HEADING.finditer(text)]
    spans = {}
    for c in commands:
        for i, (start, level, title) in enumerate(headings):
            if re.search(rf"`(?:baccarat )?{c}[` ]", title):
                spans[c] = (start, next((s for s, lv, _ in headings[i + 1:] if lv <= level), len(text)))
                break
    assert command in spans, f"docs/{page} has no section whose heading names `baccarat {command}`"
    kept, at = [], 0
    for start, end in sorted({s for s in spans.values() if s != spans[command]}):
        if start >= at:
            kept.append(text[at:start])
            at = end
    return "".join(kept) + text[at:]


def nav_pages() -> list[str]:
    """The pages the navigation of ``mkdocs.yml`` lists (``- Title: page.md`` or ``- page.md``)."""
    text = (ROOT / "mkdocs.yml").read_text()
    nav = text.split("\nnav:\n", 1)[1]
    return re.findall(r"^\s+-\s+(?:[^\n:]+:\s+)?([\w./-]+\.md)\s*$", nav, re.M)


# --- generated parts -----------------------------------------------------------------------

def test_the_feature_table_of_the_bets_page_is_the_registrys():
    """The committed table is what docs/hooks.py generates from analyzer/core/features.py
    (``python docs/hooks.py`` rewrites it); the build fills it in from the registry too."""
    from analyzer.core.features import POSITION_FEATURES, REGISTRY
    hooks = load_hooks()
    text = (DOCS / "bets.md").read_text()
    assert text.count(hooks.BEGIN) == 1 and text.count(hooks.END) == 1
    assert hooks.render(text) == text, "docs/bets.md: the feature table differs from the registry: run python docs/hooks.py"
    table = text.split(hooks.BEGIN, 1)[1].split(hooks.END, 1)[0]
    names = re.findall(r"^\| `(\w+)` \|", table, re.M)
    assert names == [n for n in REGISTRY if n not in POSITION_FEATURES]


def test_the_hook_puts_the_registrys_table_in_place_of_a_stale_one():
    hooks = load_hooks()
    stale = f"before\n{hooks.BEGIN}\n| `winner` | int | stale |\n{hooks.END}\nafter\n"
    built = hooks.on_page_markdown(stale, page=None, config=None, files=None)
    assert "stale" not in built and "| `winner` | winner | player, banker or tie |" in built
    assert built.startswith("before\n") and built.endswith("after\n")


# --- command pages -------------------------------------------------------------------------

def test_every_command_has_a_page():
    assert sorted(subcommands()) == sorted(COMMAND_PAGES)
    nav = nav_pages()
    for command, page in COMMAND_PAGES.items():
        assert (DOCS / page).exists() and page in nav, page
        assert f"`baccarat {command}" in (DOCS / page).read_text(), f"{page} never names `baccarat {command}`"


@pytest.mark.parametrize("command", sorted(COMMAND_PAGES))
def test_every_option_alias_and_argument_of_a_command_is_in_its_section(command):
    """Each long option (but those every command takes), short alias (``-o``) and positional
    argument (``LOG``) of a command is named in what of its page documents it
    (:func:`command_text`: on a page of several commands, its own section or a shared one)."""
    parser = subcommands()[command]
    common = set.intersection(*(set(long_options(p)) for p in subcommands().values()))
    text = command_text(command)
    missing = [o for o in long_options(parser) + short_options(parser) if o not in common and not mentions(text, o)]
    missing += [name for name in positionals(parser) if name not in text]
    assert not missing, f"docs/{COMMAND_PAGES[command]} does not mention {missing} of `baccarat {command}` in its section"


def test_a_commands_section_leaves_out_the_other_commands_sections():
    eor = command_text("eor")
    assert "## Par sheets: `baccarat parsheet`" not in eor and "`baccarat eor" in eor
    assert "## Reports and analyses" not in command_text("parsheet")
    verify = command_text("verify")
    assert "## `baccarat verify LOG`" in verify and "## Inputs" in verify      # a shared section stays
    assert "## `baccarat check" not in verify and "## `baccarat simulate`" not in verify
    assert command_text("odds") == (DOCS / "odds.md").read_text()


def test_the_options_of_every_command_are_documented_once():
    common = set.intersection(*(set(long_options(p)) for p in subcommands().values()))
    assert "--no-cache" in common
    text = (DOCS / COMMON_OPTIONS_PAGE).read_text()
    assert not [o for o in common if not mentions(text, o)]


# --- the site ------------------------------------------------------------------------------

def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    nav = nav_pages()
    assert sorted(nav) == pages
    assert len(nav) == len(set(nav))


def test_the_api_reference_names_modules_that_exist():
    names = [m for page in (DOCS / "api").glob("*.md") for m in re.findall(r"^::: ([\w.]+)", page.read_text(), re.M)]
    assert "analyzer" in names and "analyzer.core.solver" in names
    for name in names:
        importlib.import_module(name)
    layers = {p.name for p in (ROOT / "analyzer").iterdir() if (p / "__init__.py").exists()} - {"cli"}
    assert {f"analyzer.{layer}" for layer in layers} <= set(names)


def test_the_pages_are_doctests_of_the_default_run():
    pytest_ini = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert {"README.md", "docs"} <= set(pytest_ini["testpaths"])
    assert "--doctest-glob=README.md" in pytest_ini["addopts"] and "--doctest-glob=docs/*.md" in pytest_ini["addopts"]
    assert [p.name for p in DOCS.glob("*.md") if ">>> " in p.read_text()], "no page has a doctest"


@pytest.mark.slow  # 3 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_the_site_builds_strictly(tmp_path):
    """``mkdocs build --strict``: a broken link, anchor or API reference fails (the docs extra;
    .ci/run builds it too)."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "core" / "index.html").exists()


def test_ci_builds_the_site_after_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    tests = ci.index("python3 -m venv .venv && .venv/bin/python -m pip install '.[test]' && .venv/bin/python -m pytest")
    build = ci.index("mkdocs build --strict")
    assert tests < build and "'.[docs]'" in ci[tests:build + 40]


def test_ci_runs_the_slow_tests_after_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    tests = ci.index("python3 -m venv .venv && .venv/bin/python -m pip install '.[test]' && .venv/bin/python -m pytest\n")
    assert ci.index("\n.venv/bin/python -m pytest -m slow") > tests


def test_the_site_folder_is_ignored():
    assert "site/" in (ROOT / ".gitignore").read_text().split()


# --- the README ----------------------------------------------------------------------------

def test_the_readme_is_short_and_links_every_command_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    assert not [p for p in set(COMMAND_PAGES.values()) if f"(docs/{p})" not in readme]
    assert "(LICENSE)" in readme


# --- packaging -----------------------------------------------------------------------------

def test_the_version_is_written_once():
    import analyzer
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "analyzer.__version__"}
    assert importlib.metadata.version("baccarat-analyzer") == analyzer.__version__
    written = [p for p in (ROOT / "analyzer").rglob("*.py")
               if re.search(rf"['\"]{re.escape(analyzer.__version__)}['\"]", p.read_text())]
    assert written == [ROOT / "analyzer" / "__init__.py"]


def test_the_version_option_prints_it(capsys):
    import analyzer
    from analyzer.cli import main
    # main() itself, not the cli fixture: --version ends by argparse's SystemExit, so there is no
    # Run to return; capsys keeps what it printed before exiting
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == f"baccarat-analyzer {analyzer.__version__}\n"


def test_the_package_ships_its_licence_and_py_typed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "baccarat-analyzer contributors" in licence
    assert project["project"]["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["project"]["classifiers"]
    assert (ROOT / "analyzer" / "py.typed").exists()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["analyzer"]
