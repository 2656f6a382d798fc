"""Studies keep their own state folder (refuse a foreign one, resume their own), --jobs is
capped by the CPUs, study and check outputs are checked before the work, and Ctrl-C stops a
Dask study or a forked check without a worker traceback."""

from __future__ import annotations

import os

import pytest



def test_study_refuses_a_foreign_study_json(tmp_path, cli):
    state = tmp_path / "state"
    state.mkdir()
    (state / "study.json").write_text('{"mine": true}\n')
    assert "did not write" in cli.error("study", "--shoes", "2", "--state", state, "-q")
    assert (state / "study.json").read_text() == '{"mine": true}\n'


def test_study_refuses_a_folder_with_other_files(tmp_path, cli):
    (tmp_path / "notes.txt").write_text("mine")
    assert "not empty" in cli.error("study", "--shoes", "2", "--state", tmp_path, "-q")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_study_resumes_its_own_state(tmp_path, cli):
    state = tmp_path / "state"
    args = ["study", "--shoes", "2", "--decks", "1", "--state", state, "-q", "--format", "json"]
    first = cli(*args)
    assert first.code == 0
    again = cli(*args)
    assert again.code == 0
    assert again.out.split('"run"')[0] == first.out.split('"run"')[0]


def test_jobs_are_capped_by_the_cpus(cli):
    cpus = len(os.sched_getaffinity(0))
    assert "CPU" in cli.error("study", "--shoes", "2", "--jobs", cpus + 1, "--no-state", "-q")


def test_study_output_is_checked_before_the_work(tmp_path, cli, monkeypatch):
    import analyzer.studies.runner as runner

    def never(*a, **k):
        raise AssertionError("the study ran although its output cannot be written")

    monkeypatch.setattr(runner, "run_study", never)
    bad = str(tmp_path / "missing" / "out.json")
    assert "does not exist" in cli.error("study", "--shoes", "2", "--no-state", "-q", "--output", bad)


@pytest.mark.parametrize("argv, words", [
    (["check", "examples/hands.csv", "--alpha", "1e-50"], "between 1e-15 and 1"),      # was a traceback
    (["check", "examples/hands.csv", "--alpha", "1e-99999999"], "must be a number"),
    (["check", "examples/hands.csv", "--jobs", "999"], "CPU"),
    (["check", "examples/hands.csv", "--output", "/nonexistent-dir/x.md"], "does not exist"),
    (["verify", "examples/hands.csv", "--output", "/nonexistent-dir/x.md"], "does not exist"),
    (["simulate", "--shoes", "2", "--seed", "1", "--log", "/nonexistent-dir/l.csv"], "does not exist"),
])
def test_simcheck_inputs_and_outputs_checked_first(argv, words, cli, monkeypatch):
    from pathlib import Path
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    assert words in cli.error(*argv)


def _interrupt_when(cmd, ready, tmp_path, timeout=120):
    """Run ``cmd`` in its own session; send Ctrl-C (SIGINT to the group) once ``ready(pid)``."""
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-m", "analyzer", *cmd], cwd=tmp_path, start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + timeout
    while not ready(p.pid):
        assert p.poll() is None, p.stderr.read()
        assert time.monotonic() < deadline, "never became ready"
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGINT)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise AssertionError("hung after Ctrl-C")
    return p.returncode, err


def _children(pid: int) -> int:
    try:
        return len(open(f"/proc/{pid}/task/{pid}/children").read().split())
    except OSError:
        return 0


@pytest.mark.slow
def test_ctrl_c_during_a_dask_study_prints_no_worker_traceback(tmp_path):
    pytest.importorskip("distributed")
    state = tmp_path / "state"
    rc, err = _interrupt_when(["study", "--shoes", "20000", "--cluster", "local", "--jobs", "2",
                               "--state", str(state), "-q"],
                              lambda pid: state.is_dir() and any(state.glob("chunk-*.json")), tmp_path)
    assert rc == 130 and "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "finished chunk(s) are saved" in err


@pytest.mark.slow
def test_ctrl_c_during_a_forked_check_prints_no_worker_traceback(tmp_path, cli):
    log = tmp_path / "hands.csv"
    assert cli("simulate", "--shoes", "8000", "--seed", "3", "--log", log, "-q").code == 0
    rc, err = _interrupt_when(["check", str(log), "--jobs", "2", "-q"], lambda pid: _children(pid) >= 2,
                              tmp_path)
    assert rc == 130 and err.strip() == "baccarat: interrupted", err
