"""Cold `python -m analyzer odds` (a whole process), against an earlier checkout in the same run.

    git worktree add /tmp/base REV
    python benchmarks/bench_cold_cli.py --against /tmp/base [--runs 15]

Runs alternate between this tree and the other, so both see the same machine load; prints each
median and minimum and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="a checkout of the commit to compare with")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    trees = {"this tree": str(REPO), "against": str(Path(args.against).resolve())}
    times: dict[str, list[float]] = {k: [] for k in trees}
    for _ in range(args.runs):
        for name, path in trees.items():
            env = dict(os.environ, PYTHONPATH=path)
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "analyzer", "odds"], env=env, cwd=path,
                           stdout=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - t)
    print(f"nproc {os.cpu_count()}, {args.runs} runs each, alternating")
    for name, ts in times.items():
        print(f"  {name:10s} median {statistics.median(ts) * 1000:6.0f} ms   min {min(ts) * 1000:6.0f} ms")
    ratio = statistics.median(times["this tree"]) / statistics.median(times["against"])
    print(f"  ratio (this tree / against, medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
