"""How fast is the value engine alone (``Tabulation.ways_many`` and ``ways``), per shoe?

Times the value engine's counts, without the rest of a solve: the whole built-in
catalog's tabulation (``all``: 61 counted rows) on 8-deck shoes, and the main bets'
(``main``: 2 counted rows) on shoes of ``--decks`` decks, each batched
(``ways_many``, chunks of 64) and one shoe at a time (``ways``); 0 to 40 cards removed
at random.  Every result is checked against the first run's.  The objects built before
the timings are frozen out of the garbage collector (``Solver.solve_many`` pauses it for
a batch; a collection walking the loaded catalog doubled some figures).

``--compare PATH`` runs the same timings with another checkout (e.g. ``git worktree add
/tmp/old HEAD``) in alternating subprocesses and prints the ratio old / new.

Run from the repository root:
    python benchmarks/bench_value_engine.py [--shoes 256] [--rounds 3] [--clock cpu] [--compare PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

WORKER = r"""
import gc, json, random, sys, time
from analyzer import Shoe, Solver, catalog
shoes_n, repeat, clock = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
decks_list = json.loads(sys.argv[4])
clock = time.process_time if clock == "cpu" else time.perf_counter
cat = catalog()
out = {}
for name, ids, decks in [("all 8d", None, 8)] + [(f"main {d}d", ["player", "banker", "tie"], d) for d in decks_list]:
    rng = random.Random(decks)
    cards = [r + s for r in "A23456789TJQK" for s in "shdc" for _ in range(decks)]
    rows = [Shoe.standard(decks).remove(rng.sample(cards, rng.randint(0, 40))).value_counts
            for _ in range(shoes_n)]
    tab = Solver(tuple(cat.bets.values()) if ids is None else cat.select(ids))._tab
    first = tab.ways_many(rows[:2])
    assert [tab.ways(r) for r in rows[:2]] == first
    gc.collect()
    gc.freeze()        # as in bench_solve_many: the catalog's objects are not collected in the timings
    many, single = [], []
    for _ in range(repeat):
        t = clock()
        got = tab.ways_many(rows)
        many.append((clock() - t) / len(rows))
        assert got[:2] == first
        t = clock()
        for r in rows[:64]:
            tab.ways(r)
        single.append((clock() - t) / 64)
    out[name] = {"many": many, "single": single}
print(json.dumps(out))
"""


def run(path: Path, args) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    p = subprocess.run([sys.executable, "-c", WORKER, str(args.shoes), str(args.repeat), args.clock,
                        json.dumps(args.decks)], capture_output=True, text=True, env=env, cwd=path, check=True)
    return json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3, help="processes of each checkout, alternated")
    ap.add_argument("--decks", type=lambda t: [int(x) for x in t.split(",")], default=[8, 40, 1000, 10000])
    ap.add_argument("--clock", choices=["wall", "cpu"], default="cpu")
    ap.add_argument("--compare", metavar="PATH")
    args = ap.parse_args()
    print(f"cores: os.cpu_count() = {os.cpu_count()}; {args.shoes} shoes a run (ways: 64), median of "
          f"{args.rounds} processes x {args.repeat} runs; {args.clock} clock; µs per shoe")
    mine, old = {}, {}
    for _ in range(args.rounds):
        for path, into in [(REPO, mine)] + ([(Path(args.compare).resolve(), old)] if args.compare else []):
            for name, r in run(path, args).items():
                m = into.setdefault(name, {"many": [], "single": []})
                m["many"] += r["many"]
                m["single"] += r["single"]
    med = statistics.median
    head = f"{'set':<11} {'ways_many':>10} {'ways':>10}"
    if old:
        head += f" {'old many':>10} {'old ways':>10} {'old/new many':>12} {'old/new ways':>12}"
    print(head)
    for name, r in mine.items():
        many, single = med(r["many"]) * 1e6, med(r["single"]) * 1e6
        line = f"{name:<11} {many:10.1f} {single:10.1f}"
        if old:
            o_many, o_single = med(old[name]["many"]) * 1e6, med(old[name]["single"]) * 1e6
            line += f" {o_many:10.1f} {o_single:10.1f} {o_many / many:11.1f}x {o_single / single:11.1f}x"
        print(line)


if __name__ == "__main__":
    main()
