"""CPU time and peak memory of whole `baccarat odds` processes: the first run (an empty
table cache), later runs (the cache filled), and an earlier checkout's first and later
runs (its own cache), in the same run.

    git worktree add /tmp/old24 24e3251
    python benchmarks/bench_cold_start.py --compare /tmp/old24 [--runs 5]

Each measurement is one process (`python -m analyzer odds ...`), its user + system CPU time
and maximum resident set from `os.wait4`; runs of the trees alternate so that they see the
same machine load.  Prints the median and minimum of each, and the ratio of medians to the
earlier checkout.  Python writes bytecode as an installed package has it (the variable
PYTHONDONTWRITEBYTECODE is removed for the children).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMMANDS = {"odds --bets all": ["--bets", "all"], "odds --bets lucky_match": ["--bets", "lucky_match"],
            "odds (main bets)": []}


def run(tree: str, argv: list[str], cache: str | None) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = tree
    if cache is None:
        env["BACCARAT_NO_CACHE"] = "1"
    else:
        env.pop("BACCARAT_NO_CACHE", None)
        env["BACCARAT_CACHE_DIR"] = cache
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "odds", "-q", *argv], env=env, cwd=tree,
                         stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{tree}: odds {' '.join(argv)} exited {p.returncode}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", help="a checkout of an earlier commit (no cache there)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    for tree in [str(REPO)] + ([str(Path(args.compare).resolve())] if args.compare else []):
        run(tree, [], None)                        # bytecode written once, outside the timings
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}, {args.runs} runs each, alternating")
    print("| command | first run (empty cache) | later runs | no cache | earlier checkout, first run | "
          "earlier checkout, later runs | first: new / earlier | later: new / earlier |")
    print("|---|---|---|---|---|---|---|---|")
    trees = [("", str(REPO))] + ([("old ", str(Path(args.compare).resolve()))] if args.compare else [])
    for label, argv in COMMANDS.items():
        got: dict[str, list[tuple[float, float]]] = {
            f"{t}{kind}": [] for t, _ in trees for kind in ("first", "later", "none")
        }
        for _ in range(args.runs):
            for t, tree in trees:  # each tree with its own cache folder (an earlier checkout
                # without a cache runs cold both times)
                folder = tempfile.mkdtemp(prefix="bench-cache-")
                try:
                    got[f"{t}first"].append(run(tree, argv, folder))
                    got[f"{t}later"].append(run(tree, argv, folder))
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
            got["none"].append(run(str(REPO), argv, None))

        def cell(rows):
            if not rows:
                return "-"
            cpu = statistics.median(r[0] for r in rows)
            return f"{cpu:.2f} s (min {min(r[0] for r in rows):.2f}), {statistics.median(r[1] for r in rows):.0f} MB"

        def ratio(kind):
            if not got[f"old {kind}"]:
                return "-"
            return f"{statistics.median(r[0] for r in got[kind]) / statistics.median(r[0] for r in got[f'old {kind}']):.2f}"

        print(f"| {label} | {cell(got['first'])} | {cell(got['later'])} | {cell(got['none'])} | "
              f"{cell(got.get('old first'))} | {cell(got.get('old later'))} | {ratio('first')} | {ratio('later')} |")

if __name__ == "__main__":
    main()
