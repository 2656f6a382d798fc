"""Outputs are written, not replaced; inputs are bounded.

Each case failed before: every output was a temporary file renamed over the
target, so /dev/null became a regular file, a symlink was replaced, a FIFO's
reader got nothing, a 0600 file became 0644 and a hard link was broken.
"""

from __future__ import annotations

import os
import stat
import threading

import pytest

from analyzer.io.files import (InputError, OutputError, atomic_write, check_output, prepare_folder,
                               read_text, write_manifest)


def test_regular_file_is_replaced_atomically_keeping_its_mode(tmp_path):
    p = tmp_path / "out.md"
    p.write_text("old")
    os.chmod(p, 0o600)
    atomic_write(p, "new")
    assert p.read_text() == "new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o600
    assert [x.name for x in tmp_path.iterdir()] == ["out.md"]


def test_new_file_gets_the_usual_mode(tmp_path):
    p = tmp_path / "new.csv"
    atomic_write(p, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~mask


def test_symlink_is_followed(tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic_write(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_hard_link_keeps_both_names(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("old")
    b = tmp_path / "b.txt"
    os.link(a, b)
    atomic_write(a, "new")
    assert b.read_text() == "new" and os.stat(a).st_ino == os.stat(b).st_ino


def test_dev_null_stays_a_device(tmp_path, cli):
    atomic_write("/dev/null", "anything")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert cli("odds", "--output", "/dev/null").code == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fifo_reader_gets_the_text(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    atomic_write(fifo, "through the pipe")
    reader.join(10)
    assert got == ["through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dash_is_standard_output(cli):
    r = cli("odds", "--output", "-", "--format", "json")
    assert r.code == 0 and '"deals": 4998398275503360' in r.out


def test_stale_temporary_file_of_a_killed_run_is_removed(tmp_path):
    p = tmp_path / "out.md"
    # a pid that cannot be alive (beyond pid_max)
    stale = tmp_path / ".out.md.99999999.baccarat.tmp"
    stale.write_text("half")
    atomic_write(p, "whole")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out.md"]


def test_interrupted_write_leaves_nothing(tmp_path):
    from analyzer.io.files import atomic_open
    p = tmp_path / "out.md"
    with pytest.raises(KeyboardInterrupt):
        with atomic_open(p) as f:
            f.write("half")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad", ["", "{d}", "{d}/missing/x.md"])
def test_unwritable_outputs_are_found_before_work(tmp_path, bad):
    with pytest.raises(OutputError):
        check_output(bad.format(d=tmp_path))


def test_read_text_is_bounded():
    with pytest.raises(InputError, match="larger than"):
        read_text("/dev/zero", "log", limit=1000)


def test_read_text_refuses_binary_and_directories(tmp_path):
    (tmp_path / "b").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="UTF-8"):
        read_text(tmp_path / "b")
    with pytest.raises(InputError, match="directory"):
        read_text(tmp_path)


@pytest.mark.parametrize("argv", [
    ["odds", "--bets-file", "/dev/zero"],
    ["verify", "/dev/zero"],
    ["check", "/dev/zero"],
])
def test_endless_inputs_are_refused_quickly(argv, cli):
    r = cli(*argv)
    assert r.code == 2
    assert r.err.startswith("baccarat: error:") and len(r.err.splitlines()) == 1


def test_a_report_folder_must_be_named_new_empty_or_ours(tmp_path):
    with pytest.raises(OutputError):
        prepare_folder("", "reports")
    with pytest.raises(OutputError, match="file name"):
        prepare_folder(tmp_path / "x.md", "reports")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "README.md").write_text("mine")
    with pytest.raises(OutputError, match="not empty"):
        prepare_folder(tmp_path / "full", "reports")
    ours = prepare_folder(tmp_path / "ours", "reports")
    (ours / "a.md").write_text("x")
    write_manifest(ours, "reports", [ours / "a.md"])
    assert prepare_folder(ours, "reports") == ours
    with pytest.raises(OutputError, match="another kind"):
        prepare_folder(ours, "study state")


def test_sigterm_leaves_no_temporary_file(tmp_path):
    """A terminated run unwinds like Ctrl-C: no hidden temporary file stays behind."""
    import signal
    import subprocess
    import sys
    import time
    out = tmp_path / "out.csv"
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "simulate", "--shoes", "200000", "--seed", "1",
                          "--log", str(out), "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(x.name.endswith(".baccarat.tmp") for x in tmp_path.iterdir()):
        assert p.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []


# A name of an open descriptor writes into that descriptor: /dev/stdout is not followed
# (through /proc/self/fd/1) to the file the shell opened with a temporary file renamed over
# it (`-o /dev/stdout >> log.txt` must keep log.txt), and into a pipe it must not fail
# ("folder 'pipe:[...]' does not exist").

ODDS = "odds --decks 1 -q"


def test_dev_stdout_appended_to_a_log_keeps_the_log(tmp_path, cli):
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n")
    inode = log.stat().st_ino
    r = cli.shell(f"{ODDS} -o /dev/stdout >> log.txt", tmp_path)
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert text.startswith("earlier line\n# Exact odds: 1 deck")
    assert log.stat().st_ino == inode                       # written into, not replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.txt"]


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_dev_stdout_and_proc_fd_write_into_a_pipe_and_a_descriptor(tmp_path, cli):
    r = cli.shell(f"{ODDS} -o /dev/stdout | cat", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# Exact odds: 1 deck")
    r = cli.shell(f"{ODDS} -o /proc/self/fd/3 3> fd3.txt", tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "fd3.txt").read_text().startswith("# Exact odds: 1 deck")
    r = cli.shell(f"{ODDS} -o /dev/stderr 2> err.txt", tmp_path)
    assert r.returncode == 0
    assert (tmp_path / "err.txt").read_text().startswith("# Exact odds: 1 deck")


@pytest.mark.parametrize("tail", ["-o /dev/stdout >&-", "-o /dev/fd/9"])
def test_a_closed_descriptor_is_one_line(tmp_path, cli, tail):
    r = cli.shell(f"{ODDS} {tail}", tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "is not open" in r.stderr
