"""How fast is ``Solver.solve_many`` against one ``solve`` per shoe?

For three bet sets (the main bets; the main bets with the pair bets and the Dragon
Bonus, the set of the fastest open-source solvers; the whole built-in catalog,
``--bets all``) it times, per shoe, ``[solve(s) for s in shoes]`` and
``solve_many(shoes)`` on ``--shoes`` distinct new 8-deck shoes (0 to 40 cards
removed with their suits, generated first), the median of ``--repeat`` runs, and
checks that both give equal results.  ``--compare PATH`` times the single solves
of another checkout (e.g. ``git worktree add /tmp/oldspeed HEAD``) in a
subprocess in the same run, for a ratio on the same loaded machine.

Run from the repository root:
    python benchmarks/bench_solve_many.py [--shoes 256] [--repeat 5] [--rounds 3] [--clock wall|cpu] [--compare PATH]
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

MAIN = ["player", "banker", "tie"]
FAST = MAIN + ["player_pair", "banker_pair", "either_pair", "perfect_pair",
               "dragon_bonus_player", "dragon_bonus_banker"]
#: "bets.toml": the 41 bets of the first catalog file (the whole catalog before the side-bet
#: files: the like-for-like set against an older checkout); "all": ``--bets all`` today
SETS = {"main": MAIN, "fast": FAST, "bets.toml": "bets.toml", "all": None}

#: run inside one interpreter (this checkout, or the one of --compare): prints JSON
WORKER = r"""
import json, random, statistics, sys, time, tomllib
from pathlib import Path
import analyzer
from analyzer import Shoe, Solver, catalog
shoes_n, repeat, seed, batch = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
sets = json.loads(sys.argv[5])
clock = time.process_time if sys.argv[6] == "cpu" else time.perf_counter
cards = [r + s for r in "A23456789TJQK" for s in "shdc" for _ in range(8)]
rng = random.Random(seed)
runs = [[Shoe.standard(8).remove(rng.sample(cards, rng.randint(0, 40))) for _ in range(shoes_n)]
        for _ in range(repeat)]
cat = catalog()
out = {}
for name, ids in sets.items():
    if ids == "bets.toml":
        with open(Path(analyzer.__file__).parent / "bets" / "data" / "bets.toml", "rb") as f:
            ids = [b["id"] for b in tomllib.load(f)["bet"]]
    solver = Solver(tuple(cat.bets.values()) if ids is None else cat.select(ids))
    solver.solve(Shoe.standard(8))              # compiled and warmed outside the timings
    if batch:
        solver.solve_many([Shoe.standard(8), Shoe.standard(6)])
    single, many = [], []
    for shoes in runs:
        t = clock()
        one = [solver.solve(s) for s in shoes]
        single.append((clock() - t) / len(shoes))
        if batch:
            t = clock()
            got = solver.solve_many(shoes)
            many.append((clock() - t) / len(shoes))
            assert got == one, name
    out[name] = {"bets": len(solver.bets), "single": single, "many": many}
print(json.dumps(out))
"""


def run(path: Path, args, batch: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    p = subprocess.run([sys.executable, "-c", WORKER, str(args.shoes), str(args.repeat), str(args.seed),
                        "1" if batch else "0", json.dumps(SETS), args.clock],
                       capture_output=True, text=True, env=env, cwd=path, check=True)
    return json.loads(p.stdout)


def us(seconds: float) -> str:
    return f"{seconds * 1e6:9.1f} µs"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=256, help="distinct shoes per run")
    ap.add_argument("--repeat", type=int, default=5, help="runs (median reported)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compare", metavar="PATH", help="another checkout: its single solves, same shoes")
    ap.add_argument("--rounds", type=int, default=3,
                    help="processes of each checkout, alternated (each runs --repeat runs)")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="wall time (perf_counter) or this process's CPU time (process_time: "
                         "steadier on a machine shared with other work)")
    args = ap.parse_args()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"cores: os.cpu_count() = {os.cpu_count()}; Python {platform.python_version()}"
          + (f"; load average {load[0]:.2f} before the runs" if load else ""))
    print(f"{args.shoes} new 8-deck shoes (0-40 cards removed) a run; median of {args.rounds} processes x "
          f"{args.repeat} runs; {args.clock} clock; per shoe")
    mine, old = {}, {}
    for _ in range(args.rounds):                 # alternated: both see the same load
        for name, r in run(REPO, args, True).items():
            m = mine.setdefault(name, {"bets": r["bets"], "single": [], "many": []})
            m["single"] += r["single"]
            m["many"] += r["many"]
        if args.compare:
            for name, r in run(Path(args.compare).resolve(), args, False).items():
                o = old.setdefault(name, {"bets": r["bets"], "single": []})
                o["single"] += r["single"]
    head = f"{'bet set':<10} {'bets':>4} {'solve (single)':>14} {'solve_many':>14} {'single/many':>11}"
    if old:
        head += f" {'old bets':>8} {'old single':>12} {'old/many':>9}"
    print(head)
    for name, r in mine.items():
        single, many = statistics.median(r["single"]), statistics.median(r["many"])
        line = f"{name:<10} {r['bets']:>4} {us(single):>14} {us(many):>14} {single / many:10.1f}x"
        if old:
            o = statistics.median(old[name]["single"])
            line += f" {old[name]['bets']:>8} {us(o):>12} {o / many:8.1f}x"
        print(line)


if __name__ == "__main__":
    main()
