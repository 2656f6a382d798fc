"""CPU time and peak memory of whole `baccarat report` processes: no table cache (a cold
user's first run, and what the reports test does), the first run with an empty cache, a
later run with it filled, and an earlier checkout without cache, in the same run.

    git worktree add /tmp/old24 24e3251
    python benchmarks/bench_report.py --compare /tmp/old24 [--runs 3]

Each measurement is one process (`python -m analyzer report -q --out DIR`), its user +
system CPU time and maximum resident set from `os.wait4`; runs of the trees alternate so
that they see the same machine load.  Every run's folder is compared with the committed
`reports/` (a run that writes other bytes stops the benchmark).  Prints the median and
minimum of each, and the ratio of medians to the earlier checkout.  Python writes bytecode
as an installed package has it (the variable PYTHONDONTWRITEBYTECODE is removed for the
children).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def differences(a: Path, b: Path) -> list[str]:
    """Files that differ between two folders (or are in one only), recursively."""
    cmp = filecmp.dircmp(a, b)
    out = [str(Path(a.name) / n) for n in cmp.left_only + cmp.right_only + cmp.funny_files]
    out += [n for n in cmp.common_files if not filecmp.cmp(a / n, b / n, shallow=False)]
    for sub in cmp.common_dirs:
        out += [f"{sub}/{n}" for n in differences(a / sub, b / sub)]
    return out


def run(tree: str, cache: str | None, check: bool) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one `baccarat report` process of ``tree``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = tree
    if cache is None:
        env["BACCARAT_NO_CACHE"] = "1"
    else:
        env.pop("BACCARAT_NO_CACHE", None)
        env["BACCARAT_CACHE_DIR"] = cache
    out = Path(tempfile.mkdtemp(prefix="bench-report-")) / "reports"
    try:
        p = subprocess.Popen([sys.executable, "-m", "analyzer", "report", "-q", "--out", str(out)], env=env,
                             cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{tree}: report exited {os.waitstatus_to_exitcode(status)}")
        if check:
            diff = differences(out, REPO / "reports")
            if diff:
                raise SystemExit(f"{tree}: the report differs from the committed reports/: {', '.join(diff[:5])}")
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", help="a checkout of an earlier commit (run without cache)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-check", action="store_true", help="do not compare each run's folder with reports/")
    args = ap.parse_args()
    old = str(Path(args.compare).resolve()) if args.compare else None
    check = not args.no_check
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}, {args.runs} runs each, alternating"
          + (", every folder compared with reports/" if check else ""))
    got: dict[str, list[tuple[float, float]]] = {"none": [], "first": [], "later": [], "old": []}
    for _ in range(args.runs):
        got["none"].append(run(str(REPO), None, check))
        folder = tempfile.mkdtemp(prefix="bench-cache-")
        try:
            got["first"].append(run(str(REPO), folder, check))
            got["later"].append(run(str(REPO), folder, check))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if old:
            got["old"].append(run(old, None, check))

    def cell(rows):
        if not rows:
            return "-"
        cpu = statistics.median(r[0] for r in rows)
        return f"{cpu:.2f} s (min {min(r[0] for r in rows):.2f}), {statistics.median(r[1] for r in rows):.0f} MB"

    def ratio(key):
        if not got["old"]:
            return "-"
        return f"{statistics.median(r[0] for r in got[key]) / statistics.median(r[0] for r in got['old']):.2f}"
    print("| command | no cache | first run (empty cache) | later runs (cache filled) | earlier checkout "
          "(no cache) | no cache / earlier | later / earlier |")
    print("|---|---|---|---|---|---|---|")
    print(f"| report --out DIR | {cell(got['none'])} | {cell(got['first'])} | {cell(got['later'])} | "
          f"{cell(got['old'])} | {ratio('none')} | {ratio('later')} |")


if __name__ == "__main__":
    main()
