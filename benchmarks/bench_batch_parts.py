"""Where the time of ``odds --batch`` goes, in-process, per shoe: reading a line into a
shoe (``analyzer.io.batch.parse_line``; a chunk of 256 lines at once, ``parse_lines``, as
``odds --batch`` reads a file), solving (``Solver.solve_many`` and one shoe at a time),
writing the line (``odds_line``; a chunk at once, ``odds_lines``) and the plan's
solve-and-write (``OddsPlan.lines``, by chunks of 256).

Random depleted 8-deck shoes (0-300 suited cards removed, ``--shoes``, default 2000);
CPU time (``time.process_time``), the best of ``--repeat`` runs (default 3), in µs a shoe.

Run from the repository root:  python benchmarks/bench_batch_parts.py [--bets all] [--shoes 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from analyzer import OddsPlan, catalog
from analyzer.bets.catalog import MAIN_BETS
from analyzer.core.cards import RANKS
from analyzer.io.batch import parse_line, parse_lines
from analyzer.reports.odds_tables import odds_line, odds_lines

CARDS = [r + s for r in RANKS for s in "shdc"] * 8


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bets", default=None, help="bet ids or 'all' (default: the main bets)")
    ap.add_argument("--shoes", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = [json.dumps({"remove": rng.sample(CARDS, rng.randint(0, 300))}) for _ in range(args.shoes)]
    cat = catalog()
    ids = list(cat.bets) if args.bets == "all" else args.bets.split(",") if args.bets else list(MAIN_BETS)
    plan = OddsPlan(cat.select(ids))
    items = [parse_line(t) for t in lines]
    shoes = [s for s, _ in items]
    solver, _ = plan.solver_of(*items[0])
    results = solver.solve_many(shoes)

    def timed(label, work):
        best = min(_cpu(work) for _ in range(args.repeat))
        print(f"| {label} | {best / len(lines) * 1e6:.1f} |")

    print(f"{len(lines)} shoes, bets: {args.bets or 'main'}, best of {args.repeat}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n")
    print("| part | µs a shoe |\n|---|---|")
    timed("read a line into a shoe (parse_line)", lambda: [parse_line(t) for t in lines])
    timed("read 256 lines at once (parse_lines)", lambda: [parse_lines(lines[i : i + 256]) for i in range(0, len(lines), 256)])
    timed("json.loads of the line alone", lambda: [json.loads(t) for t in lines])
    timed("solve, together (solve_many)", lambda: solver.solve_many(shoes))
    timed("solve, one at a time", lambda: [solver.solve(s) for s in shoes])
    timed("write the line (odds_line)", lambda: [odds_line(r) for r in results])
    timed("write 256 lines at once (odds_lines)", lambda: [odds_lines(results[i : i + 256]) for i in range(0, len(results), 256)])
    timed("solve and write, 256 at once (OddsPlan.lines)", lambda: [plan.lines(items[i : i + 256]) for i in range(0, len(items), 256)])


def _cpu(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


if __name__ == "__main__":
    main()
