"""What does wrapping a solve's counts into an ``Analysis`` cost, and what does reading every bet cost?

For the whole built-in catalog (``Solver(tuple(catalog().bets.values()))``, 87 bets) on
``--shoes`` distinct 8-deck shoes (0 to 40 cards removed with their suits), per shoe, the
median of ``--repeat`` runs:

* ``analysis``: ``Solver._analysis`` alone, on the counts one ``solve_many`` handed it
  (captured once): what a solve spends wrapping exact integers into an ``Analysis``;
* ``analysis+read``: the same, then every ``BetResult`` of each analysis read (built, when
  the analysis builds them on first reading);
* ``solve_many``: ``solve_many(shoes)``, counting included;
* ``solve_many+read``: the same, then every ``BetResult`` read: the honest figure for a
  caller that looks at every bet;
* ``solve_many+ev``: the same, then every bet's ``ev`` (Fractions: the caller's own cost).

``--compare PATH`` times another checkout (e.g. ``git archive HEAD | tar -x -C /tmp/old``)
in alternating subprocesses of the same run and prints its figures beside this checkout's
with the ratio old / new.  ``--clock cpu`` (the default) times ``time.process_time``.

Measured (2 cores shared with other jobs, CPU time, 256 shoes, 7 runs x 3 rounds, against
the eager build of the commit before ``BetResults``), microseconds per shoe, new / old:
``analysis`` 8.9 / 184.7; ``analysis+read`` 182.2 / 187.3; ``solve_many`` 1153 / 1386;
``solve_many+read`` 1340 / 1392; ``solve_many+ev`` 1575 / 1656.  Deferring saves the
wrapping for the bets nobody reads; reading every bet costs what the eager build did.

Run from the repository root:
    python benchmarks/bench_analysis.py [--shoes 256] [--repeat 7] [--rounds 3] [--clock cpu|wall] [--compare PATH]
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

#: run inside one interpreter (this checkout, or the one of --compare): prints JSON
WORKER = r"""
import gc, json, random, statistics, sys, time
from analyzer import Shoe, Solver, catalog
shoes_n, repeat, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
clock = time.process_time if sys.argv[4] == "cpu" else time.perf_counter
rng = random.Random(seed)
cards = [r + s for r in "A23456789TJQK" for s in "shdc" for _ in range(8)]
shoes = [Shoe.standard(8).remove(rng.sample(cards, rng.randint(0, 40))) for _ in range(shoes_n)]
solver = Solver(tuple(catalog().bets.values()))
solver.solve_many(shoes[:2])                    # compiled and warmed outside the timings
captured = []
wrap = solver._analysis
solver._analysis = lambda shoe, vc, w: captured.append((shoe, vc, w)) or wrap(shoe, vc, w)
solver.solve_many(shoes)
del solver._analysis
assert len(captured) == len(shoes)


def read(analyses):
    for a in analyses:
        for r in a.bets.values():
            pass


def evs(analyses):
    for a in analyses:
        for r in a.bets.values():
            r.ev


jobs = {
    "analysis": lambda: [solver._analysis(*c) for c in captured],
    "analysis+read": lambda: read([solver._analysis(*c) for c in captured]),
    "solve_many": lambda: solver.solve_many(shoes),
    "solve_many+read": lambda: read(solver.solve_many(shoes)),
    "solve_many+ev": lambda: evs(solver.solve_many(shoes)),
}
gc.collect()
gc.freeze()
out = {name: [] for name in jobs}
for _ in range(repeat):
    for name, job in jobs.items():
        gc.disable()                            # as solve_many does for a batch
        t = clock()
        job()
        out[name].append((clock() - t) / len(shoes) * 1e6)
        gc.enable()
        gc.collect()
print(json.dumps({name: statistics.median(v) for name, v in out.items()}))
"""


def run(path: Path, args) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    done = subprocess.run([sys.executable, "-c", WORKER, str(args.shoes), str(args.repeat), str(args.seed),
                           args.clock], env=env, cwd=path, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shoes", type=int, default=256)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--rounds", type=int, default=3, help="alternating subprocess runs of each checkout")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    p.add_argument("--compare", type=Path, help="another checkout, timed in the same run")
    args = p.parse_args()
    trees = {"new": REPO} | ({"old": args.compare.resolve()} if args.compare else {})
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, path in trees.items():
            runs[name].append(run(path, args))
    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()}
    print(f"whole catalog, {args.shoes} 8-deck shoes, {args.clock} time, median of {args.repeat} runs x "
          f"{args.rounds} rounds, nproc {os.cpu_count()}: microseconds per shoe")
    head = f"{'':18}{'new':>10}" + (f"{'old':>10}{'old/new':>9}" if args.compare else "")
    print(head)
    for k, v in med["new"].items():
        line = f"{k:18}{v:10.1f}"
        if args.compare:
            o = med["old"][k]
            line += f"{o:10.1f}{o / v:9.2f}"
        print(line)


if __name__ == "__main__":
    main()
