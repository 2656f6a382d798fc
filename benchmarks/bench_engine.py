"""How fast is the exact engine?

Measures, on this machine:

(a) the one-time set-up (import, coup table build, Solver compile), cold, in a
    fresh subprocess each time;
(b) the in-process time to solve one NEW shoe composition exactly for the main
    bets (numpy int64 path): many distinct random compositions are generated
    first, so no cache can help, and each repeat uses its own batch;
(c) the same on 40-deck shoes, whose deal count exceeds 2**63 and so takes the
    Python-integer path;
(d) the cold wall time of ``python -m analyzer odds`` (a whole process);
(e) for scale, a plain exact Python enumeration by point value
    (``tests/oracle.py: value_recursion_counts``), timed once.

Run from the repository root:  python benchmarks/bench_engine.py [--repeat 5] [--number 400]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import numpy as np  # noqa: E402

from analyzer import Shoe  # noqa: E402
from analyzer.core.cards import RANKS  # noqa: E402

COLD_SETUP = r"""
import json, time
t0 = time.perf_counter()
import analyzer
from analyzer.core.engine import coup_table
from analyzer.bets.pricing import solver
t1 = time.perf_counter()
coup_table()
t2 = time.perf_counter()
solver()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "table": t2 - t1, "compile": t3 - t2}))
"""


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [e.get("PYTHONPATH")] if p])
    return e


def random_compositions(decks: int, count: int, max_removed: int, rng: random.Random,
                        exclude: set) -> list[Shoe]:
    """``count`` shoes of ``decks`` decks with 0..max_removed random cards gone, all with
    distinct value counts (what the solver actually sees), none in ``exclude``."""
    base = Shoe.standard(decks)
    deck = [r for r in RANKS for _ in range(4 * decks)]
    out = []
    while len(out) < count:
        k = rng.randint(0, max_removed)
        shoe = base.remove(rng.sample(deck, k)) if k else base
        key = shoe.value_counts
        if key in exclude:
            continue
        exclude.add(key)
        out.append(shoe)
    return out


def per_call_us(fn, batches: list[list[Shoe]]) -> list[float]:
    """Per-call time (µs) of ``fn(shoe)`` for each batch."""
    times = []
    for batch in batches:
        t0 = time.perf_counter()
        for shoe in batch:
            fn(shoe)
        times.append((time.perf_counter() - t0) / len(batch) * 1e6)
    return times


def fmt_s(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="repeats of each timing (median reported)")
    ap.add_argument("--number", type=int, default=400,
                    help="distinct 8-deck shoes solved per repeat (40-deck: a tenth of it)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.number < 1:
        ap.error("--repeat and --number must be at least 1")
    rng = random.Random(args.seed)
    started = time.perf_counter()

    print(f"machine: {os.cpu_count()} cores (os.cpu_count), {platform.machine()}, {platform.system()}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), numpy {np.__version__}")
    print()

    # (a) cold set-up, each in a fresh interpreter
    cold = []
    for _ in range(max(3, min(args.repeat, 5))):
        p = subprocess.run([sys.executable, "-c", COLD_SETUP], capture_output=True, text=True,
                           env=env(), cwd=REPO, check=True)
        cold.append(json.loads(p.stdout))
    setup = {k: statistics.median(c[k] for c in cold) for k in cold[0]}
    setup_total = setup["table"] + setup["compile"]

    # (b) warm solves of new shoes, int64 path
    from analyzer import analyze, solver
    from analyzer.core.backend import INT64_LIMIT
    from analyzer.core.engine import POSITIONS, falling
    s = solver()
    s.solve(Shoe.standard(8))                       # compile outside the timings
    seen: set = {Shoe.standard(8).value_counts}
    batches8 = [random_compositions(8, args.number, 40, rng, seen) for _ in range(args.repeat)]
    assert all(falling(b.cards, POSITIONS) <= INT64_LIMIT for batch in batches8 for b in batch)
    solve8 = statistics.median(per_call_us(s.solve, batches8))
    tab = s._tab
    ways8 = statistics.median(per_call_us(lambda sh: tab.ways(sh.value_counts), batches8))
    # The two exact paths agree on a few of these shoes (a check, not a timing).
    for shoe in batches8[0][:5]:
        assert tab.ways(shoe.value_counts) == tab.ways_exact(shoe.value_counts)

    # (c) Python-int path: 40-deck shoes (deals > 2**63)
    n40 = max(3, args.number // 10)
    batches40 = [random_compositions(40, n40, 40, rng, seen) for _ in range(args.repeat)]
    assert all(falling(b.cards, POSITIONS) > INT64_LIMIT for batch in batches40 for b in batch)
    solve40 = statistics.median(per_call_us(s.solve, batches40))
    t0 = time.perf_counter()
    analyze(Shoe.standard(40))
    analyze40_once = time.perf_counter() - t0

    # (d) cold CLI
    cli = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analyzer", "odds"], capture_output=True, env=env(),
                       cwd=REPO, check=True)
        cli.append(time.perf_counter() - t0)
    cli_wall = statistics.median(cli)

    # (e) plain exact enumeration by value, once
    from oracle import value_recursion_counts
    shoe = batches8[0][0]
    t0 = time.perf_counter()
    plain = value_recursion_counts(shoe.value_counts)
    plain_t = time.perf_counter() - t0
    assert plain == s.solve(shoe).outcomes, "plain enumeration disagrees with the engine"

    rows = [
        ("(a) cold import of analyzer (subprocess, median)", setup["import"]),
        ("(a) coup table build, cold", setup["table"]),
        ("(a) Solver compile (main bets), cold", setup["compile"]),
        ("(a) set-up total (table + compile)", setup_total),
        (f"(b) solve one new 8-deck shoe, int64 (median of {args.repeat} x {args.number})", solve8 / 1e6),
        ("(b)   of which Tabulation.ways (the counting)", ways8 / 1e6),
        (f"(c) solve one new 40-deck shoe, Python ints (median of {args.repeat} x {n40})", solve40 / 1e6),
        ("(c) analyze(Shoe.standard(40)), once", analyze40_once),
        (f"(d) cold `python -m analyzer odds` wall (median of {args.repeat})", cli_wall),
        ("(e) plain Python enumeration by value, one 8-deck shoe (once)", plain_t),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measurement':<{width}}  {'time':>10}")
    print(f"{'-' * width}  {'-' * 10}")
    for name, t in rows:
        print(f"{name:<{width}}  {fmt_s(t):>10}")
    print()
    print("ratios")
    print(f"  Python-int solve / int64 solve            {solve40 / solve8:10.1f} x")
    print(f"  plain enumeration / int64 solve           {plain_t * 1e6 / solve8:10.0f} x")
    print(f"  cold CLI / int64 solve                    {cli_wall * 1e6 / solve8:10.0f} x")
    print(f"  set-up, counted in int64 solves           {setup_total * 1e6 / solve8:10.0f}")
    print(f"  set-up / plain enumeration                {setup_total / plain_t:10.2f} x")
    print(f"  cold CLI / set-up                         {cli_wall / setup_total:10.2f} x")
    print()
    print(f"distinct shoes solved: {len(seen) - 1}; total benchmark time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
