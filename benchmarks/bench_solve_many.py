"""How fast is ``Solver.solve_many`` against one ``solve`` per shoe, and against an older checkout?

For four bet sets (the main bets; the main bets with the pair bets and the Dragon
Bonus, the set of the fastest open-source solvers; the 41 bets of ``bets.toml``; the
whole built-in catalog, ``--bets all``) it times, per shoe, ``[solve(s) for s in
shoes]`` and ``solve_many(shoes)`` on ``--shoes`` distinct new 8-deck shoes (0 to 40
cards removed with their suits, generated first), the median of ``--repeat`` runs, and
checks that both give equal results; and ``solve_many`` with every bet's
``BetResult`` read (``+ read all``: a solve wraps each bet's exact counts when first
read).  Then the main bets on bigger shoes
(``--decks``, default 8, 28, 40, 100, 1000 and 10000 decks: beyond about 28 decks the
deals pass ``2**63``), each as a ratio to the 8-deck time.

``--compare PATH`` runs the same timings with another checkout (e.g. ``git worktree
add /tmp/oldspeed HEAD``) in alternating subprocesses of the same run, and prints each
of its figures beside this checkout's, with the ratio old / new.

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
import gc, json, random, statistics, sys, time, tomllib
from pathlib import Path
import analyzer
from analyzer import Shoe, Solver, catalog
shoes_n, repeat, seed, batch = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
sets = json.loads(sys.argv[5])
clock = time.process_time if sys.argv[6] == "cpu" else time.perf_counter
decks_list = json.loads(sys.argv[7])
batch = batch and hasattr(Solver, "solve_many")


def shoes_of(decks, n, rng):
    cards = [r + s for r in "A23456789TJQK" for s in "shdc" for _ in range(decks)]
    return [Shoe.standard(decks).remove(rng.sample(cards, rng.randint(0, 40))) for _ in range(n)]


rng = random.Random(seed)
runs = [shoes_of(8, shoes_n, rng) for _ in range(repeat)]
cat = catalog()
out = {}
jobs = []        # the shoe sizes first: after the whole catalog is loaded a process is slower
for decks in decks_list:
    rng = random.Random(seed + decks)
    jobs.append((f"main {decks}d", ["player", "banker", "tie"],
                 [shoes_of(decks, max(32, shoes_n // 4), rng) for _ in range(repeat)]))
jobs += [(name, ids, runs) for name, ids in sets.items()]
for name, ids, shoe_runs in jobs:
    if ids == "bets.toml":
        with open(Path(analyzer.__file__).parent / "bets" / "data" / "bets.toml", "rb") as f:
            ids = [b["id"] for b in tomllib.load(f)["bet"]]
    solver = Solver(tuple(cat.bets.values()) if ids is None else cat.select(ids))
    solver.solve(shoe_runs[0][0])               # compiled and warmed outside the timings
    if batch:
        solver.solve_many(shoe_runs[0][:2])
    gc.collect()
    gc.freeze()                                 # what earlier sets left is not collected in the timings
    single, many, read = [], [], []
    for shoes in shoe_runs:
        t = clock()
        one = [solver.solve(s) for s in shoes]
        single.append((clock() - t) / len(shoes))
        if batch:
            t = clock()
            got = solver.solve_many(shoes)
            many.append((clock() - t) / len(shoes))
            # and every bet's BetResult built and read (a solve may wrap them when first read)
            t = clock()
            got = solver.solve_many(shoes)
            for a in got:
                for r in a.bets.values():
                    r.events
            read.append((clock() - t) / len(shoes))
            assert got == one, name
    out[name] = {"bets": len(solver.bets), "single": single, "many": many, "read": read}
print(json.dumps(out))
"""


def run(path: Path, args, batch: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    p = subprocess.run([sys.executable, "-c", WORKER, str(args.shoes), str(args.repeat), str(args.seed),
                        "1" if batch else "0", json.dumps(SETS), args.clock, json.dumps(args.decks)],
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
    ap.add_argument("--decks", type=lambda t: [int(x) for x in t.split(",")], default=[8, 28, 40, 100, 1000, 10000],
                    help="shoe sizes for the main bets (comma-separated decks)")
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
        for path, into in [(REPO, mine)] + ([(Path(args.compare).resolve(), old)] if args.compare else []):
            for name, r in run(path, args, True).items():
                m = into.setdefault(name, {"bets": r["bets"], "single": [], "many": [], "read": []})
                for key in ("single", "many", "read"):
                    m[key] += r.get(key, [])

    def med(xs):
        return statistics.median(xs) if xs else None

    def cell(x):
        return f"{us(x):>12}" if x is not None else f"{'-':>12}"

    head = f"{'bet set':<12} {'bets':>4} {'single':>12} {'solve_many':>12} {'+ read all':>12} {'single/many':>11}"
    if old:
        head += f" {'old single':>12} {'old many':>12} {'old + read':>12} {'old/new many':>12} {'(+ read)':>9}"
    print(head)
    for name, r in mine.items():
        single, many, read = med(r["single"]), med(r["many"]), med(r["read"])
        line = f"{name:<12} {r['bets']:>4} {cell(single)} {cell(many)} {cell(read)} {single / many:10.1f}x"
        if old:
            o = old[name]
            o_single, o_many, o_read = med(o["single"]), med(o["many"]), med(o["read"])
            line += (f" {cell(o_single)} {cell(o_many)} {cell(o_read)} {(o_many or o_single) / many:11.1f}x"
                     f" {(o_read or o_many or o_single) / read:8.1f}x")
        print(line)
    base = mine.get("main 8d")
    if base:
        print("\nmain bets by shoe size, against 8 decks (same path, same run):")
        for name, r in mine.items():
            if name.startswith("main ") and name.endswith("d"):
                line = (f"{name:<12} single {med(r['single']) / med(base['single']):5.1f}x, "
                        f"solve_many {med(r['many']) / med(base['many']):5.1f}x")
                if old and name in old and "main 8d" in old:
                    o, ob = old[name], old["main 8d"]
                    line += f"   (old: single {med(o['single']) / med(ob['single']):5.1f}x"
                    if o["many"]:
                        line += f", solve_many {med(o['many']) / med(ob['many']):5.1f}x"
                    line += ")"
                print(line)


if __name__ == "__main__":
    main()
