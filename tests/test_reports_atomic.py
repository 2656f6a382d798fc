"""``baccarat report --out DIR`` writes DIR whole or not at all.

A bad ``--decks-list`` is refused before any work; an interrupt (Ctrl-C, SIGTERM) or a
late error leaves DIR as it was (absent, empty, or the previous complete report) and no
staging folder beside it, so the next run is not refused.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.io.files import MANIFEST, write_manifest
from helpers import process_env


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
def test_bad_decks_list_is_refused_before_any_work(tmp_path, cli, decks, words):
    out = tmp_path / "reports"
    start = time.process_time()
    message = cli.error("report", "--out", out, "--decks-list", decks, "-q")
    assert time.process_time() - start < 2                     # no solver was compiled
    assert message.startswith("--decks-list") and words in message
    assert list(tmp_path.iterdir()) == []                      # no folder, no staging folder


def test_decks_command_bounds_its_list_too(cli):
    runs = [cli("decks", "--decks-list", "1" * 5000), cli("decks", "--decks-list", ",".join(str(d) for d in range(1, 30)))]
    assert [r.code for r in runs] == [2, 2]
    err = "".join(r.err for r in runs)
    assert err.count("baccarat: error: --decks-list") == 2 and "Traceback" not in err


def test_folders_it_may_not_replace_are_refused_before_any_work(tmp_path, cli, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("mine")
    r = cli("report", "--out", project, "-q")
    assert r.code == 2 and "not empty" in r.err
    assert _snapshot(project) == {"notes.txt": b"mine"}
    # the current folder, even a previous report, cannot be renamed aside
    before = _previous_report(tmp_path / "here")
    monkeypatch.chdir(tmp_path / "here")
    r = cli("report", "--out", ".", "-q")
    assert r.code == 2 and "current folder" in r.err
    assert _snapshot(tmp_path / "here") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here", "project"]


@pytest.mark.parametrize("state", ["new", "empty", "previous"])
def test_a_late_error_leaves_the_folder_as_it_was(tmp_path, cli, monkeypatch, small_reports, state):
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    import analyzer.reports.writer as writer
    from analyzer.core.errors import BaccaratError

    def late(*args, **kwargs):
        raise BaccaratError("a late failure")

    monkeypatch.setattr(writer, "distributions", late)     # after the odds files are written
    out = tmp_path / "reports"
    before = None
    if state == "empty":
        out.mkdir()
        before = {}
    elif state == "previous":
        before = _previous_report(out)
    r = cli("report", "--out", out, "--decks-list", "8", "-q")
    assert r.code == 2 and r.err == "baccarat: error: a late failure\n"
    if before is None:
        assert not out.exists()
    else:
        assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ([] if before is None else ["reports"])


def _interrupt_report(tmp_path: Path, out: Path, signum: int):
    """Start ``report --out out`` in a process; once its staging folder holds a file, send
    ``signum``; return its exit status and standard error."""
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "report", "--out", str(out), "--decks-list", "8", "-q"],
                         cwd=tmp_path, env=process_env(BACCARAT_NO_PLOTS="1"), start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    staging = out.with_name(f".{out.name}.{p.pid}.baccarat.tmp")
    deadline = time.monotonic() + 120
    try:
        while not (staging.is_dir() and any(staging.glob("*.md"))):
            assert p.poll() is None, p.stderr.read()
            assert time.monotonic() < deadline, "the staging folder never appeared"
            time.sleep(0.05)
        os.killpg(p.pid, signum)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    return p.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)])
def test_interrupt_leaves_a_previous_report_unchanged(tmp_path, signum):
    out = tmp_path / "reports"
    before = _previous_report(out)
    rc, err = _interrupt_report(tmp_path, out, signum)
    assert rc == 130 and err.strip() == "baccarat: interrupted", err
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["reports"]      # no staging folder left


@pytest.mark.slow
def test_interrupt_leaves_no_folder_and_a_rerun_works(tmp_path, cli, small_reports):
    out = tmp_path / "reports"
    rc, err = _interrupt_report(tmp_path, out, signal.SIGINT)
    assert rc == 130 and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []
    os.environ["BACCARAT_NO_PLOTS"] = "1"
    try:
        assert cli("report", "--out", out, "--decks-list", "8", "-q").code == 0
        # and again over the report it wrote: the previous one is replaced whole
        (out / "stray.md").write_text("not from this run")
        assert cli("report", "--out", out, "--decks-list", "8", "-q").code == 0
    finally:
        del os.environ["BACCARAT_NO_PLOTS"]
    manifest = json.loads((out / MANIFEST).read_text())
    assert sorted(manifest["files"]) == sorted(name for name in _snapshot(out) if name != MANIFEST)
    assert "stray.md" not in manifest["files"]
    assert [p.name for p in tmp_path.iterdir()] == ["reports"]


def test_a_killed_run_s_staging_folder_is_removed_by_the_next(tmp_path, cli, monkeypatch, small_reports):
    """SIGKILL cannot be caught: the next run removes what it left (its process is gone)."""
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    out = tmp_path / "reports"
    before = _previous_report(out)
    (tmp_path / f".reports.{dead}.baccarat.tmp").mkdir()
    (tmp_path / f".reports.{dead}.baccarat.tmp" / "odds_8_decks.md").write_text("half")
    import analyzer.reports.writer as writer
    monkeypatch.setattr(writer, "distributions", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    assert cli("report", "--out", out, "--decks-list", "8", "-q").code == 130
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["reports"]
