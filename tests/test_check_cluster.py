"""`baccarat check --cluster local` / `--scheduler ADDRESS` (analyzer/simcheck/distributed.py).

The shoe-aware sums of a log are computed on Dask workers (a real LocalCluster on 127.0.0.1 with
worker processes, as tests/test_study.py starts one); the report is byte for byte the one of one
job and of `--jobs 2`, but for the line (JSON: key) that names the cluster.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer import Shoe
from analyzer.simcheck import distributed as dist
from analyzer.simcheck import stream as stream_mod
from analyzer.simcheck.check import check_stream
from analyzer.simcheck.stream import open_log
from helpers import process_env
ENGINE_MD = "- Shoe-aware sums computed on: "


@pytest.fixture(scope="module")
def log(tmp_path_factory, cli) -> Path:
    """A simulated log: 8 decks, 200 shoes, seed 3 (16,410 coups, two groups of blocks)."""
    path = tmp_path_factory.mktemp("cluster") / "h.csv"
    assert cli("simulate", "--decks", "8", "--shoes", "200", "--seed", "3", "--log", path, "-q").code == 0
    return path


def reports(log, extra, cli) -> dict[str, str]:
    got = {}
    for fmt in ("md", "json"):
        code, out, err = cli("check", str(log), "-q", "--format", fmt, *extra)
        assert code == 0, err
        got[fmt] = out
    return got


def without_engine(got: dict[str, str], where: str) -> dict[str, str]:
    """The reports with the line / key naming the cluster taken out (checked to be there)."""
    md = got["md"].splitlines(keepends=True)
    named = [line for line in md if line.startswith(ENGINE_MD)]
    assert named == [f"{ENGINE_MD}{where}.\n"], named
    doc = json.loads(got["json"])
    assert doc.pop("engine") == where
    text = got["json"].replace(f'  "engine": {json.dumps(where)},\n', "")
    assert json.loads(text) == doc
    return {"md": "".join(line for line in md if not line.startswith(ENGINE_MD)), "json": text}


@pytest.mark.slow       # starts a local Dask cluster (5 s): with the slow tests, which .ci/run runs
def test_one_job_jobs_2_and_a_local_cluster_give_byte_identical_reports(log, cli):
    one = reports(log, [], cli)
    two = reports(log, ["--jobs", "2"], cli)
    local = reports(log, ["--cluster", "local", "--jobs", "2"], cli)
    assert ENGINE_MD not in one["md"] and '"engine"' not in one["json"]   # default output unchanged
    assert two == one
    assert without_engine(local, "Dask LocalCluster (2 workers on 127.0.0.1)") == one
    assert json.loads(one["json"])["coups"] == 16410


@pytest.fixture(scope="module")
def cluster():
    import distributed   # the cluster extra is part of the test extra: no skipping here
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        yield c


@pytest.mark.slow       # a Dask scheduler and workers (4 s): with the slow tests, which .ci/run runs
def test_a_running_scheduler_gives_the_same_report(log, cluster, cli):
    address = cluster.scheduler_address
    got = reports(log, ["--scheduler", address, "--jobs", "3"], cli)
    assert without_engine(got, f"Dask scheduler {address}") == reports(log, [], cli)


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_jobs_fork_one_pool_per_check(log, monkeypatch):
    """``jobs`` > 1: the processes are forked once for a log read in many chunks, not per chunk,
    and the report is the one-job report."""
    import multiprocessing.pool
    from analyzer.simcheck.check import report_json
    monkeypatch.setattr(stream_mod, "CHUNK", 8200)    # two chunks big enough to share (8,192), then 10 coups
    shoe = Shoe.standard(8)
    pools = []
    real = multiprocessing.pool.Pool.__init__

    def counting(self, *a, **k):
        pools.append(1)
        real(self, *a, **k)

    monkeypatch.setattr(multiprocessing.pool.Pool, "__init__", counting)
    forked = check_stream(open_log(log), shoe, jobs=2)
    assert len(pools) == 1
    assert report_json(forked) == report_json(check_stream(open_log(log), shoe))


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_one_client_per_check_and_the_families_scattered_once(log, cluster, monkeypatch):
    """A log read in many chunks: each chunk's groups go to the workers, the shared part once."""
    monkeypatch.setattr(stream_mod, "CHUNK", 9000)
    shoe = Shoe.standard(8)
    with dist.DaskRunner(scheduler=cluster.scheduler_address, jobs=2) as runner:
        scattered = []
        scatter = runner.client.scatter
        monkeypatch.setattr(runner.client, "scatter",
                            lambda data, **k: scattered.append(k) or scatter(data, **k))
        remote = check_stream(open_log(log), shoe, jobs=runner)
    assert runner.client is None                              # closed on the way out
    assert sum(1 for k in scattered if k.get("broadcast")) == 1
    assert runner.used == 2 + 1         # 9,000 coups in 2 groups of blocks, then 7,410 (below 8,192) in one
    assert remote.engine.startswith("Dask scheduler")
    here = check_stream(open_log(log), shoe)
    assert here.engine is None
    from analyzer.simcheck.check import report_json
    remote.engine = None
    assert report_json(remote) == report_json(here)


@pytest.mark.parametrize("extra, words", [
    (["--cluster", "foo"], "--cluster must be 'local'"),
    (["--cluster", "local", "--scheduler", "tcp://127.0.0.1:1"], "not allowed with"),
    (["--scheduler", "tcp://127.0.0.1:1"], "cannot connect to the Dask scheduler"),
    (["--scheduler", "nonsense"], "cannot connect to the Dask scheduler"),
    (["--scheduler", "tcp://127.0.0.1:1", "--jobs", "0"], "--jobs"),
    (["--cluster", "local", "--jobs", "999"], "CPU"),
    (["--cluster", "local", "--reference", "off-the-top"], "off-the-top"),
    (["--scheduler", "tcp://127.0.0.1:1", "--reference", "off-the-top"], "off-the-top"),
])
def test_bad_cluster_input_is_one_line(extra, words, log, cli, monkeypatch):
    monkeypatch.setattr(dist, "CONNECT_TIMEOUT", "1s")
    code, out, err = cli("check", str(log), "-q", *extra)
    assert code == 2 and out == ""
    assert err.startswith("baccarat: error:") and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize("text, words", [
    ("category,count,total_return\nplayer,40,\nbanker,45,\ntie,15,\n", "tallies are checked off the top"),
    ("shoe,outcome\n1,P\n1,B\n1,T\n", "outcome-only log is checked off the top"),
])
def test_inputs_without_shoe_aware_sums_refuse_a_cluster(text, words, tmp_path, cli):
    f = tmp_path / "in.csv"
    f.write_text(text)
    for extra in (["--cluster", "local"], ["--scheduler", "tcp://127.0.0.1:1"]):
        code, out, err = cli("check", str(f), "-q", *extra)
        assert code == 2 and out == ""
        assert err.startswith("baccarat: error:") and err.count("\n") == 1 and words in err, err


def test_missing_cluster_extra_is_one_line(log, cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)       # import distributed fails
    code, out, err = cli("check", str(log), "-q", "--cluster", "local")
    assert code == 2 and out == ""
    assert err == ("baccarat: error: the cluster engine needs Dask distributed: "
                   "python -m pip install 'baccarat-analyzer[cluster]'\n")


@pytest.mark.slow  # 3 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_a_task_failing_on_a_worker_is_one_line(log, cluster, cli, monkeypatch):
    def broken(*args):
        raise ModuleNotFoundError("No module named 'analyzer.simcheck.gone'")
    monkeypatch.setattr(dist, "_group_sums", broken)            # pickled by value: runs on the worker
    code, out, err = cli("check", str(log), "-q", "--scheduler", cluster.scheduler_address)
    assert code == 2 and out == ""
    assert err.startswith("baccarat: error: the shoe-aware sums failed on the Dask scheduler") and \
        "ModuleNotFoundError" in err and "same version" in err and err.count("\n") == 1, err


def _children(pid: int) -> list[str]:
    """The child processes of ``pid``, whichever of its threads started them."""
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += (task / "children").read_text().split()
        except OSError:
            pass
    return kids


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of the children of ``pid`` (the Dask workers), from /proc."""
    total = 0.0
    for kid in _children(pid):
        try:
            fields = open(f"/proc/{kid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@pytest.mark.slow
def test_ctrl_c_during_a_cluster_check_stops_cleanly(tmp_path, cli):
    big = tmp_path / "big.csv"
    assert cli("simulate", "--shoes", "8000", "--seed", "3", "--log", big, "-q").code == 0
    env = process_env()
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "check", str(big), "--cluster", "local", "--jobs", "2",
                          "-q"], cwd=tmp_path, env=env, start_new_session=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while _cpu_seconds(p.pid) < 4:            # the workers are importing, then summing
        assert p.poll() is None, p.stderr.read()
        assert time.monotonic() < deadline, "never became ready"
        time.sleep(0.2)
    workers = _children(p.pid)
    os.killpg(p.pid, signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise AssertionError("hung after Ctrl-C")
    assert p.returncode == 130 and err == "baccarat: interrupted\n" and out == "", err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(Path(f"/proc/{w}").exists() for w in workers), "a worker outlived the check"
