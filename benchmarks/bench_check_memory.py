"""Peak memory and time of ``baccarat verify`` and ``check`` on long hand logs.

For each size, ``baccarat simulate --decks 8 --shoes N --seed 1 --log hands.csv`` writes a
log into a temporary directory (2,500 shoes deal about 205,000 coups, 25,000 about
2,050,000), then each step runs as a whole ``python -m analyzer`` process under
``/usr/bin/time -v``, which gives its peak resident set size (max RSS) and wall time:

* ``verify hands.csv``
* ``check hands.csv`` (shoe-aware, one job)

``--repo DIR`` runs the steps from another checkout (e.g. a ``git worktree`` of an
earlier commit) on the same logs, for a before/after comparison in one run.  Run from
the repository root:

    python benchmarks/bench_check_memory.py [--shoes 2500 25000] [--steps verify check] [--repo DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TIME = "/usr/bin/time"


def run(repo: Path, args: list[str], cwd: Path) -> tuple[float, int, int]:
    """(wall seconds, max RSS in kB, exit status) of ``python -m analyzer ARGS`` from ``repo``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo)
    cmd = [TIME, "-v", sys.executable, "-m", "analyzer", *args]
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if proc.returncode not in (0, 1) or not m:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return wall, int(m.group(1)), proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, nargs="+", default=[2_500, 25_000])
    ap.add_argument("--steps", nargs="+", default=["verify", "check"], choices=["verify", "check"])
    ap.add_argument("--repo", type=Path, action="append", default=[],
                    help="also run the steps from this checkout (may be repeated)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not Path(TIME).exists():
        raise SystemExit(f"{TIME} is needed (GNU time, for the peak RSS)")
    repos = [("this", REPO)] + [(str(r), r.resolve()) for r in a.repo]
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    print()
    print("| coups | log MB | step | checkout | seconds | coups/s | max RSS MB | exit |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        for shoes in a.shoes:
            sim = subprocess.run([sys.executable, "-m", "analyzer", "simulate", "--decks", "8", "--shoes",
                                  str(shoes), "--seed", str(a.seed), "--log", "hands.csv", "--quiet"],
                                 cwd=cwd, env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                                 text=True, check=True)
            coups = int(sim.stdout.split()[1].replace(",", ""))
            size = (cwd / "hands.csv").stat().st_size / 1e6
            for step in a.steps:
                args = [step, "hands.csv", "--quiet"] + (["--output", "report.md"] if step == "check" else [])
                for name, repo in repos:
                    wall, rss, rc = run(repo, args, cwd)
                    print(f"| {coups:,} | {size:.1f} | {step} | {name} | {wall:.1f} | {coups / wall:,.0f} | "
                          f"{rss / 1024:.0f} | {rc} |", flush=True)


if __name__ == "__main__":
    main()
