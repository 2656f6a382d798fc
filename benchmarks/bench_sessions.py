"""How fast are the long exact sessions (``programs``, ``bankroll``) as whole commands?

Times whole processes ``python -m analyzer ARGS --format json -o OUT`` for long flat trips
(``programs --hands N``: the exact distribution of the net of N hands), the best exits of a
trip under a rebate (``programs --exits``) and an exact bankroll session: the median CPU
time (user + system) of ``--repeat`` (default 3) runs, each a fresh process, after one
untimed run.  ``--compare PATH`` times another checkout in the same run, interleaved, with
the ratio, and checks that both wrote the same document.  The budgets are raised
(``--budget 600``) so that an older checkout runs what it would refuse by default.

Run from the repository root:
    python benchmarks/bench_sessions.py [--repeat 3] [--compare PATH] [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CASES = [
    ("programs, Banker, 3,000 hands", ["programs", "--hands", "3000", "--budget", "600"]),
    ("programs, Banker, 10,000 hands", ["programs", "--hands", "10000", "--budget", "600"]),
    ("programs, Player, 10,000 hands", ["programs", "--bet", "player", "--hands", "10000", "--budget", "600"]),
    ("programs, Tie, 10,000 hands", ["programs", "--bet", "tie", "--hands", "10000", "--budget", "600"]),
    ("programs --exits 300 (Banker)", ["programs", "--hands", "100", "--exits", "300", "--budget", "600"]),
    ("bankroll, Banker, 100 units, 200 coups", ["bankroll", "--bet", "banker", "--bankroll", "100", "--coups", "200"]),
]
QUICK = {"programs, Banker, 10,000 hands"}  # left out by --quick (about 30 s a run on an old checkout)


def env(tree: Path) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(tree)] + [p for p in [e.get("PYTHONPATH")] if p])
    return e


def run(tree: Path, args: list[str], out: Path) -> float:
    """CPU seconds (user + system) of one whole process of ``tree``."""
    argv = [sys.executable, "-m", "analyzer", *args, "--format", "json", "-o", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, env=env(tree), cwd=tree, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--compare", type=Path, help="another checkout, timed in the same run")
    p.add_argument("--quick", action="store_true", help="leave out the 10,000-hand Banker trip")
    a = p.parse_args()
    trees = {"new": REPO} | ({"old": a.compare.resolve()} if a.compare else {})
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"cores: os.cpu_count() = {os.cpu_count()}; Python {platform.python_version()}; "
          f"load average {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}")
    print(f"median of {a.repeat} runs, each a whole process, CPU time (user + system)\n")
    head = "| command | new s |" + (" old s | old/new |" if a.compare else "")
    print(head + "\n|---|---|" + ("---|---|" if a.compare else ""))
    with tempfile.TemporaryDirectory() as d:
        for label, args in CASES:
            if a.quick and label in QUICK:
                continue
            outs = {name: Path(d, f"{name}.json") for name in trees}
            for name, tree in trees.items():  # warm: files read once, the cache written
                run(tree, args, outs[name])
            times: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(a.repeat):  # interleaved, so a load spike hits both alike
                for name, tree in trees.items():
                    times[name].append(run(tree, args, outs[name]))
            med = {name: statistics.median(t) for name, t in times.items()}
            row = f"| {label} | {med['new']:.2f} |"
            if a.compare:
                same = outs["new"].read_bytes() == outs["old"].read_bytes()
                row += f" {med['old']:.2f} | {med['old'] / med['new']:.2f}x{'' if same else ' (documents differ)'} |"
            print(row, flush=True)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load:
        print(f"\nload average after: {' '.join(f'{x:.2f}' for x in load)}")


if __name__ == "__main__":
    main()
