"""How fast is `baccarat study`?

Deals 8-deck shoes (cut card 14, no burn) with the EZ Baccarat bets
(ez_banker, player, tie, dragon7, panda8) and solves every coup exactly, as
the study does; prints shoes per second and exact solves (coups x bets) per
second on 1 job and on 2 local jobs, with the machine's core count.  For
scale it also times the plain route: one ``Solver.solve(Shoe(...))`` per coup.

Run from the repository root:  python benchmarks/bench_study.py [--shoes 500] [--repeat 3]

``--compare DIR`` times the whole command instead, ``python -m analyzer study ...`` of this
tree against the tree ``DIR`` (e.g. a git worktree of an older commit; may be repeated), run alternately
``--repeat`` times each (``--bets``, ``--decks``, ``--seed``, ``--shoes``), and checks that
both write the same JSON (all but its ``run`` timings):

    python benchmarks/bench_study.py --compare /tmp/old --bets all --shoes 150 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from analyzer import Shoe  # noqa: E402
from analyzer.core.solver import Solver  # noqa: E402
from analyzer.bets.catalog import catalog  # noqa: E402
from analyzer.studies import StudyParams, deal_shoe, run_chunk, run_study  # noqa: E402
from analyzer.studies.dealing import remaining_counts  # noqa: E402

EZ = ("ez_banker", "player", "tie", "dragon7", "panda8")


def params(shoes: int, count: bool, chunk: int = 50) -> StudyParams:
    return StudyParams.create(Shoe.standard(8), shoes=shoes, seed=12345, cut_card=14, bet_ids=EZ,
                              count=None if count else (), chunk_shoes=chunk)


def timed_study(p: StudyParams, jobs: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    res = run_study(p, jobs=jobs)
    return time.perf_counter() - t0, res.coups


def plain_solver_rate(n_shoes: int) -> float:
    """Coups per second when each coup builds a Shoe and calls Solver.solve."""
    p = params(n_shoes, count=False)
    solver = Solver(catalog().select(list(EZ)))
    shoes = []
    for i in range(n_shoes):
        ranks, _ = remaining_counts(p, deal_shoe(p, i))
        shoes.append(ranks.tolist())
    t0 = time.perf_counter()
    coups = 0
    for ranks in shoes:
        for r in ranks:
            solver.solve(Shoe(r))
            coups += 1
    return coups / (time.perf_counter() - t0)


def _spin(n: int) -> float:
    t = time.perf_counter()
    s = 0
    for i in range(n):
        s += i * i
    return time.perf_counter() - t


def machine_parallelism(n: int = 5_000_000) -> float:
    """Throughput of 2 processes running a pure-Python loop, relative to one (2.0 = two free cores)."""
    import multiprocessing as mp
    one = _spin(n)
    with mp.get_context("spawn").Pool(2) as pool:
        t0 = time.perf_counter()
        pool.map(_spin, [n, n])
        two = time.perf_counter() - t0
    return 2 * one / two


def run_command(tree: Path, args, out: Path) -> dict:
    """One ``python -m analyzer study`` of ``tree`` (its own ``PYTHONPATH`` and working
    folder): the child's CPU time (user + system), wall time, and its JSON."""
    import json
    import subprocess
    cmd = [sys.executable, "-m", "analyzer", "study", "--decks", str(args.decks), "--shoes", str(args.shoes),
           "--seed", str(args.seed), "--bets", args.bets, "--no-state", "--quiet", "--format", "json",
           "-o", str(out)]
    env = dict(os.environ, PYTHONPATH=str(tree))
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=tree, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{tree}: {' '.join(cmd)} exited with status {proc.returncode}")
    doc = json.loads(out.read_text(encoding="utf-8"))
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "doc": doc}


def compare(args) -> None:
    """The whole command of this tree against each ``--compare`` tree, alternately; medians, ratios."""
    import tempfile
    trees = {str(Path(d).resolve()): Path(d).resolve() for d in args.compare}
    trees["this tree"] = REPO
    print(f"nproc={os.cpu_count()}, load average before: {os.getloadavg()}")
    print(f"command: python -m analyzer study --decks {args.decks} --shoes {args.shoes} --seed {args.seed} "
          f"--bets {args.bets} --no-state --quiet --format json -o FILE")
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            for k, (name, tree) in enumerate(trees.items()):
                got = run_command(tree, args, Path(tmp) / f"{k}-{r}.json")
                run = got["doc"]["run"]
                print(f"  run {r + 1} {name}: cpu {got['cpu']:7.2f} s, wall {got['wall']:7.2f} s, "
                      f"in-process {run['elapsed_s']:7.2f} s = {run['shoes_per_s']:6.2f} shoes/s")
                runs[name].append(got)
    numbers = [dict(g["doc"], run=None) for name in trees for g in runs[name]]
    same = all(n == numbers[0] for n in numbers)
    med = {name: {"cpu": statistics.median(g["cpu"] for g in rs), "wall": statistics.median(g["wall"] for g in rs),
                  "sps": statistics.median(g["doc"]["run"]["shoes_per_s"] for g in rs)} for name, rs in runs.items()}
    for name, m in med.items():
        print(f"{name}: median cpu {m['cpu']:.2f} s ({args.shoes / m['cpu']:.2f} shoes per cpu second), "
              f"median wall {m['wall']:.2f} s, median of the command's own shoes/s {m['sps']:.2f}")
    n = med["this tree"]
    for name, o in med.items():
        if name != "this tree":
            print(f"this tree / {name}: x{o['cpu'] / n['cpu']:.2f} by cpu time, x{o['wall'] / n['wall']:.2f} "
                  f"by wall time, x{n['sps'] / o['sps']:.2f} by the command's shoes/s")
    print(f"outputs identical but for the run timings: {same}")
    print(f"load average after: {os.getloadavg()}")
    if not same:
        raise SystemExit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=500, help="shoes per measurement (default 500)")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per setting (default 3)")
    ap.add_argument("--compare", metavar="DIR", action="append",
                    help="time the whole study command of this tree against the tree DIR (may be repeated), "
                         "and check their JSON is the same")
    ap.add_argument("--bets", default=",".join(EZ), help="with --compare: the command's --bets (default the EZ bets)")
    ap.add_argument("--decks", type=int, default=8, help="with --compare: the command's --decks (default 8)")
    ap.add_argument("--seed", type=int, default=1, help="with --compare: the command's --seed (default 1)")
    args = ap.parse_args()
    if args.compare:
        compare(args)
        return
    print(f"machine: {platform.processor() or platform.machine()}, nproc={os.cpu_count()}, "
          f"affinity={len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'}, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"load average before: {load}; control: 2 processes of a pure-Python loop give "
          f"x{machine_parallelism():.2f} the throughput of one (x2.00 on two free cores)")
    print(f"study: 8 decks, cut card 14, bets {', '.join(EZ)}; {args.shoes} shoes a measurement, "
          f"best and median of {args.repeat}")
    run_chunk(params(2, True, 2), 0)       # compile the engine in this process (not timed)
    base = None
    for label, count, jobs in (("1 job, perfect play only", False, 1),
                               ("1 job, with the 5 linear counts", True, 1),
                               ("2 jobs, with the 5 linear counts (incl. process start-up)", True, 2)):
        rates, solves = [], []
        for _ in range(args.repeat):
            dt, coups = timed_study(params(args.shoes, count), jobs)
            rates.append(args.shoes / dt)
            solves.append(coups * len(EZ) / dt)
        best, med = max(rates), statistics.median(rates)
        line = (f"{label:58s} {best:7.1f} shoes/s (median {med:6.1f}), "
                f"{max(solves):9,.0f} exact bet solves/s, {max(solves) / len(EZ):7,.0f} coups/s")
        if count and jobs == 1:
            base = best
        elif base:
            line += f", scaling x{best / base:.2f}"
        print(line)
    plain = plain_solver_rate(max(5, args.shoes // 50))
    print(f"{'plain route: Shoe + Solver.solve per coup (5 bets)':58s} {plain / 82:7.1f} shoes/s, "
          f"{plain * len(EZ):9,.0f} exact bet solves/s, {plain:7,.0f} coups/s")


if __name__ == "__main__":
    main()
