"""A stop request (SIGTERM) is never lost: not when the KeyboardInterrupt it raises is swallowed
(as Cython's module imports do), not in the middle of a long run; no file is left behind."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from analyzer.io.files import atomic_open
from analyzer.io.interrupt import clear_stop, request_stop, stop_requested
from helpers import process_env


def test_a_stop_request_keeps_atomic_output_from_being_committed(tmp_path):
    out = tmp_path / "out.csv"
    out.write_text("before\n")
    try:
        with pytest.raises(KeyboardInterrupt):
            with atomic_open(out) as f:
                f.write("after\n")
                request_stop()          # what the SIGTERM handler does, the exception swallowed
    finally:
        clear_stop()
    assert out.read_text() == "before\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
    assert not stop_requested()


# A SIGTERM handled inside code that swallows every exception, as Cython's memoryview support
# does while a compiled module is first imported (numpy.random's, imported lazily by numpy 2).
# These scripts call main() in a process of their own (a signal is sent to it), with a
# function of the package replaced first, which `cli.process` cannot do.
_SWALLOWED = textwrap.dedent("""
    import os, signal, sys
    import analyzer.simcheck.simulate as sim
    from analyzer.cli import main
    real = sim.simulate

    def swallowing(*args, **kw):
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10_000):
                pass
        except:
            pass
        return real(*args, **kw)

    sim.simulate = swallowing
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.parametrize("outputs", [["--log", "h.csv"], ["--log", "h.jsonl", "--tallies", "t.csv"], []])
def test_a_swallowed_sigterm_still_stops_simulate(tmp_path, outputs):
    p = subprocess.run([sys.executable, "-c", _SWALLOWED, "simulate", "--shoes", "150", "--seed", "1",
                        *outputs, "-q"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 130 and "interrupted" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert p.stdout == "" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("log", ["h.csv", "h.jsonl"])
def test_sigterm_mid_run_stops_promptly(tmp_path, log):
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "simulate", "--shoes", "1000000", "--seed", "3",
                          "--log", log, "--tallies", "t.csv", "-q"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    # dealing: the temporary log holds its first coups
    while not any(x.name.endswith(".baccarat.tmp") and x.stat().st_size > 10_000 for x in tmp_path.iterdir()):
        assert p.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    t = time.monotonic()
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert time.monotonic() - t < 5
    assert p.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert out == "" and list(tmp_path.iterdir()) == []


# ``python -m MODULE`` whose run is told to stop (SIGTERM) while an ``exec`` of a string runs, as
# ``@dataclass`` does for every class it makes: the KeyboardInterrupt leaves the exec.
_IN_EXEC = textwrap.dedent("""
    import os, signal, sys
    import analyzer.simcheck.simulate as sim
    from analyzer.cli import main
    real = sim.simulate

    def stopped_in_exec(*args, **kw):
        exec("import os, signal\\nos.kill(os.getpid(), signal.SIGTERM)\\nfor _ in range(10_000): pass")
        return real(*args, **kw)

    sim.simulate = stopped_in_exec
    sys.argv[0] = "baccarat"
    sys.exit(main())
""")


@pytest.mark.parametrize("outputs", [["--log", "h.csv"], []])
def test_python_m_exits_130_when_stopped_inside_an_exec(tmp_path, outputs):
    (tmp_path / "stopped_in_exec.py").write_text(_IN_EXEC)
    p = subprocess.run([sys.executable, "-m", "stopped_in_exec", "simulate", "--shoes", "50", "--seed", "1",
                        *outputs, "-q"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env=process_env(PYTHONDONTWRITEBYTECODE="1"))
    assert p.returncode == 130 and "interrupted" in p.stderr and "Traceback" not in p.stderr, \
        (p.returncode, p.stderr)
    assert p.stdout == "" and sorted(x.name for x in tmp_path.iterdir()) == ["stopped_in_exec.py"]
