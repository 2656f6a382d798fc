"""Benchmark: the full bet catalog, effects of removal and the reports.

Prints medians of several runs with the machine's core count.  Run:
    python benchmarks/bench_catalog.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from analyzer import Shoe, Solver, catalog
    from analyzer.reports.eor import effects_of_removal

    bets = tuple(catalog().bets.values())
    t = time.perf_counter()
    solver = Solver(bets)
    compile_s = time.perf_counter() - t
    shoes = [Shoe.standard(8).remove(r + "s") for r in "A23456789TJQK"]
    solve = timed(lambda: [solver.solve(s) for s in shoes], args.repeat) / len(shoes)
    from analyzer.bets.conditions import CARD_FEATURES
    value_only = Solver(tuple(b for b in bets if not b.features & CARD_FEATURES.keys()))
    solve_value = timed(lambda: [value_only.solve(s) for s in shoes], args.repeat) / len(shoes)
    eor = timed(lambda: effects_of_removal(Shoe.standard(8), bets, solver=solver), args.repeat)
    cli = timed(lambda: subprocess.run([sys.executable, "-m", "analyzer", "odds", "--bets", "all"],
                                       check=True, capture_output=True), args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        report = timed(lambda: subprocess.run([sys.executable, "-m", "analyzer", "report", "--out", tmp],
                                              check=True, capture_output=True), max(1, args.repeat // 2))

    print(f"machine: {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print(f"catalog: {len(bets)} bets")
    rows = [
        ("compile the full catalog (once per process)", compile_s * 1e3, "ms"),
        ("solve one 8-deck shoe, full catalog (median)", solve * 1e3, "ms"),
        ("  of which point-value bets only", solve_value * 1e3, "ms"),
        ("effects of removal, 8 decks, full catalog", eor, "s"),
        ("cold `baccarat odds --bets all` (wall)", cli, "s"),
        ("`baccarat report` (wall, with charts if matplotlib)", report, "s"),
    ]
    for name, value, unit in rows:
        print(f"{name:55s} {value:9.3f} {unit}")


if __name__ == "__main__":
    main()
