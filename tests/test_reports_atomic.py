"""``baccarat report --out DIR``: a bad ``--decks-list`` is refused before any work (issue 23: runaway 7)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.cli import main
from analyzer.io.files import MANIFEST, write_manifest

REPO = Path(__file__).resolve().parents[1]


def _env() -> dict:
    env = dict(os.environ, BACCARAT_NO_PLOTS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def _snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _previous_report(folder: Path) -> dict:
    """A folder as a previous ``baccarat report`` leaves it (its manifest names its files)."""
    folder.mkdir()
    (folder / "odds_8_decks.md").write_text("previous\n")
    write_manifest(folder, "reports", [folder / "odds_8_decks.md"])
    return _snapshot(folder)


@pytest.mark.parametrize("decks, words", [
    (",".join(str(d) for d in range(1, 22)), "names 21 shoe sizes: at most 20"),
    ("8,20000", "from 1 to 10,000, got 20000"),
    ("1" * 5000, "from 1 to 10,000, got 111111111111..."),     # was a traceback (int of 5000 digits)
    ("0", "from 1 to 10,000, got 0"),
    ("8,x", "whole numbers"),
])
def test_bad_decks_list_is_refused_before_any_work(tmp_path, capsys, decks, words):
    out = tmp_path / "reports"
    start = time.process_time()
    assert main(["report", "--out", str(out), "--decks-list", decks, "-q"]) == 2
    assert time.process_time() - start < 2                     # no solver was compiled
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.startswith("baccarat: error: --decks-list") and words in cap.err
    assert len(cap.err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []                      # no folder, no staging folder


def test_decks_command_bounds_its_list_too(capsys):
    assert main(["decks", "--decks-list", "1" * 5000]) == 2
    assert main(["decks", "--decks-list", ",".join(str(d) for d in range(1, 30))]) == 2
    err = capsys.readouterr().err
    assert err.count("baccarat: error: --decks-list") == 2 and "Traceback" not in err
