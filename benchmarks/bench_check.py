"""How fast are ``baccarat simulate``, ``verify`` and ``check`` on a big hand log?

Each step runs as a whole ``python -m analyzer`` process (start-up included),
timed by wall clock, on a log the first step writes to a temporary directory:

(a) ``simulate --decks 8 --shoes N --seed S --log hands.csv --tallies tallies.csv``
    (N = 12,500 deals about 1,000,000 coups);
(b) ``verify hands.csv`` (replay of every coup);
(c) ``check hands.csv`` -- shoe-aware: one exact solve per coup (then with ``--jobs 2``);
(d) ``check hands.csv --reference off-the-top``;
(e) ``check tallies.csv``.

The machine may be shared: the load average before and after each step is
printed with it.  Run from the repository root:

    python benchmarks/bench_check.py [--shoes 12500] [--seed 1] [--json]

``--compare DIR`` measures instead the shoe-aware accumulation alone (the exact sums of
every coup's distribution, one job) on the same simulated coups, in fresh processes that
alternate between this checkout and DIR (e.g. a ``git worktree`` of an earlier commit),
``--runs`` times each, and prints the median coups/s of each and their ratio:

    python benchmarks/bench_check.py --compare /tmp/oldcheck [--shoes 1000] [--runs 5]

Each run reports the wall clock and the CPU time of the process (the machine may be shared:
other work slows the wall clock far more than the CPU time).  With ``--whole``, the runs are
whole ``check`` processes on one simulated log (start-up, reading, replay, statistics
included), ``--jobs`` each:

    python benchmarks/bench_check.py --compare /tmp/oldcheck --whole [--shoes 3000] [--runs 5] [--jobs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [e.get("PYTHONPATH")] if p])
    return e


def run(args: list[str], cwd: Path) -> tuple[float, int, str]:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "analyzer", *args], cwd=cwd, env=env(),
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.strip()}")
    return elapsed, proc.returncode, proc.stdout


ACCUMULATE = """
import sys, time
from analyzer import Shoe
from analyzer.simcheck.check import _select_bets
from analyzer.simcheck.families import build_families
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.reference import shoe_aware
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.verify import replay
shoe = Shoe.standard(8)
text, _ = simulate_to_text(shoe, int(sys.argv[1]), int(sys.argv[2]))
rep = replay(read_hand_log("s.csv", text), shoe)
fams = build_families(_select_bets(("player", "banker", "tie"), None))
obs = {"outcome": fams[0].code[rep.sequence]}
shoe_aware(shoe, fams, rep.remaining[:2000], obs)
t, c = time.perf_counter(), time.process_time()
shoe_aware(shoe, fams, rep.remaining, obs)
n = rep.remaining.shape[0]
print(n, n / (time.perf_counter() - t), n / (time.process_time() - c))
"""


def compare(other: Path, shoes: int, seed: int, runs: int) -> None:
    names = ("this", str(other))
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    coups = 0
    load0 = os.getloadavg()[0]
    for _ in range(runs):
        for name, repo in zip(names, (REPO, other)):
            e = dict(os.environ)
            e["PYTHONPATH"] = str(repo)
            out = subprocess.run([sys.executable, "-c", ACCUMULATE, str(shoes), str(seed)], env=e, cwd=repo,
                                 capture_output=True, text=True, check=True).stdout.split()
            coups = int(out[0])
            wall[name].append(float(out[1]))
            cpu[name].append(float(out[2]))
    print(f"shoe-aware accumulation, {coups:,} coups ({shoes:,} shoes of 8 decks), one job, {runs} alternating "
          f"runs; nproc {os.cpu_count()}, load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after")
    _print_speeds((("wall clock", wall), ("CPU time of the process", cpu)), other)


def _print_speeds(measures, other) -> None:
    """Each measure's median coups/s of this checkout and ``other``, their runs and ratio."""
    import statistics
    for label, speeds in measures:
        print(f" {label}:")
        for name, v in speeds.items():
            print(f"  {name}: median {statistics.median(v):,.0f} coups/s (runs: {', '.join(f'{x:,.0f}' for x in v)})")
        a, b = (statistics.median(v) for v in speeds.values())
        print(f"  ratio this / {other}: {a / b:.2f}")


def compare_whole(other: Path, shoes: int, seed: int, runs: int, jobs: int) -> None:
    import resource
    names = ("this", str(other))
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "hands.csv"
        _, _, out = run(["simulate", "--decks", "8", "--shoes", str(shoes), "--seed", str(seed), "--log", str(log)],
                        Path(tmp))
        coups = int(out.split()[1].replace(",", ""))
        load0 = os.getloadavg()[0]
        reports = {}
        for _ in range(runs):
            for name, repo in zip(names, (REPO, other)):
                e = dict(os.environ)
                e["PYTHONPATH"] = str(repo)
                report = Path(tmp) / f"report{len(reports) % 2}.md"
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                subprocess.run([sys.executable, "-m", "analyzer", "check", str(log), "--jobs", str(jobs),
                                "--output", str(report)], env=e, cwd=repo, check=True, capture_output=True)
                elapsed = time.perf_counter() - t
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                wall[name].append(coups / elapsed)
                cpu[name].append(coups / (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
                reports[name] = report.read_text()
    same = "the same report" if reports[names[0]] == reports[names[1]] else "DIFFERENT reports"
    print(f"whole `check` processes, {coups:,} coups ({shoes:,} shoes of 8 decks), --jobs {jobs}, {runs} alternating "
          f"runs; nproc {os.cpu_count()}, load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after; {same}")
    _print_speeds((("wall clock", wall), ("CPU time of the process (all its workers)", cpu)), other)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--compare", type=Path, default=None, metavar="DIR")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--whole", action="store_true", help="with --compare: whole check processes")
    ap.add_argument("--jobs", type=int, default=1, help="with --compare --whole: check --jobs")
    a = ap.parse_args()
    if a.compare is not None and a.whole:
        compare_whole(a.compare.resolve(), a.shoes or 3000, a.seed, a.runs, a.jobs)
        return
    if a.compare is not None:
        compare(a.compare.resolve(), a.shoes or 1000, a.seed, a.runs)
        return
    a.shoes = a.shoes or 12_500
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        steps = [
            ("simulate (log + tallies)", ["simulate", "--decks", "8", "--shoes", str(a.shoes), "--seed",
                                          str(a.seed), "--log", "hands.csv", "--tallies", "tallies.csv"]),
            ("verify", ["verify", "hands.csv"]),
            ("check, shoe-aware", ["check", "hands.csv", "--output", "report.md"]),
            ("check, shoe-aware, --jobs 2", ["check", "hands.csv", "--jobs", "2", "--output", "report2.md"]),
            ("check, off the top", ["check", "hands.csv", "--reference", "off-the-top", "--output", "r2.md"]),
            ("check tallies", ["check", "tallies.csv", "--output", "r3.md"]),
        ]
        coups = None
        for name, args in steps:
            load0 = os.getloadavg()[0]
            elapsed, rc, out = run(args, cwd)
            load1 = os.getloadavg()[0]
            if coups is None:
                coups = int(out.split()[1].replace(",", ""))
            verdict = ""
            if name.startswith("check"):
                text = (cwd / args[args.index("--output") + 1]).read_text()
                verdict = "PASS" if "**PASS**" in text else "FAIL"
            elif name == "verify":
                verdict = "OK" if rc == 0 else "violations"
            rows.append({"step": name, "seconds": round(elapsed, 2),
                         "us_per_coup": round(elapsed / coups * 1e6, 1), "result": verdict,
                         "load_before": round(load0, 2), "load_after": round(load1, 2)})
        size = (cwd / "hands.csv").stat().st_size
    info = {"coups": coups, "shoes": a.shoes, "log_bytes": size, "nproc": os.cpu_count(),
            "python": platform.python_version(), "machine": platform.machine()}
    if a.json:
        print(json.dumps({"info": info, "steps": rows}, indent=2))
        return
    print(f"{coups:,} coups in {a.shoes:,} shoes of 8 decks (log {size / 1e6:.1f} MB); "
          f"nproc {info['nproc']}, Python {info['python']}")
    print()
    print("| step | seconds | us/coup | result | load avg before/after |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['step']} | {r['seconds']} | {r['us_per_coup']} | {r['result']} | "
              f"{r['load_before']} / {r['load_after']} |")


if __name__ == "__main__":
    main()
