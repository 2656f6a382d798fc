"""How fast is ``baccarat odds --batch``?

Writes ``--shoes`` (default 200) random depleted 8-deck shoes as JSON Lines (each
line removes 0 to 300 cards drawn at random, with their suits, so every bet can be
priced), then times whole processes ``python -m analyzer odds --batch FILE --quiet
-o OUT`` for (a) the main bets and (b) the whole catalog (``--bets all``): the
median of ``--repeat`` (default 5) runs, each a fresh process.  A one-line batch is
timed the same way, so the start-up (imports, coup table, compiling the bets) is
given apart from the cost of each further shoe: ``(T(n) - T(1)) / (n - 1)``.  Times are
the CPU time (user + system) of each process, as the shared machine makes wall time noisy,
after one untimed run of each (the cache of compiled tables warm: see bench_cold_start.py);
``--compare PATH`` times another checkout in the same run, interleaved, with the ratio.

Run from the repository root:
    python benchmarks/bench_batch.py [--shoes 200] [--repeat 5] [--seed 1] [--compare PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
CARDS = [r + s for r in RANKS for s in "shdc"]


def shoes(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    full = [c for c in CARDS for _ in range(8)]
    return [json.dumps({"decks": 8, "remove": " ".join(rng.sample(full, rng.randint(0, 300)))})
            for _ in range(n)]


def env(tree: Path) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(tree)] + [p for p in [e.get("PYTHONPATH")] if p])
    return e


def run(tree: Path, path: Path, out: Path, bets: list[str]) -> float:
    """CPU seconds (user + system) of one whole ``odds --batch`` process of ``tree``."""
    argv = [sys.executable, "-m", "analyzer", "odds", "--batch", str(path), "--quiet", "-o", str(out), *bets]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, env=env(tree), cwd=tree)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shoes", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--compare", type=Path, help="another checkout, timed in the same run")
    a = p.parse_args()
    trees = {"new": REPO} | ({"old": a.compare.resolve()} if a.compare else {})
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"cores: os.cpu_count() = {os.cpu_count()}; Python {platform.python_version()}; "
          f"load average {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}")
    print(f"{a.shoes} random depleted 8-deck shoes (0-300 cards removed), median of {a.repeat} runs, "
          "each a whole process, CPU time\n")
    lines = shoes(a.shoes, a.seed)
    with tempfile.TemporaryDirectory() as d:
        many, one, out = Path(d, "shoes.jsonl"), Path(d, "one.jsonl"), Path(d, "out.jsonl")
        many.write_text("\n".join(lines) + "\n")
        one.write_text(lines[0] + "\n")
        print("| bets | tree | one shoe (start-up) s | all shoes s | per shoe, all in ms | per further shoe ms "
              "| output |")
        print("|---|---|---|---|---|---|---|")
        for label, bets in (("main (banker, player, tie)", []), ("whole catalog (--bets all)", ["--bets", "all"])):
            times: dict[str, tuple[list[float], list[float]]] = {t: ([], []) for t in trees}
            outputs = {}
            for tree in trees.values():     # warm: the compiled tables' cache written, files read once
                run(tree, one, out, bets)
            for _ in range(a.repeat):       # interleaved, so a load spike hits both alike
                for name, tree in trees.items():
                    times[name][0].append(run(tree, one, out, bets))
                    times[name][1].append(run(tree, many, out, bets))
                    outputs[name] = out.read_bytes()
            assert outputs["new"].count(b"\n") == a.shoes
            if a.compare:
                assert outputs["new"] == outputs["old"], "the two checkouts wrote different lines"
            further = {}
            for name in trees:
                m1, mn = (statistics.median(x) for x in times[name])
                further[name] = (mn - m1) / (a.shoes - 1)
                print(f"| {label} | {name} | {m1:.2f} | {mn:.2f} | {1000 * mn / a.shoes:.2f} | "
                      f"{1000 * further[name]:.3f} | {len(outputs[name]) / 2**20:.1f} MiB |")
            if a.compare:
                print(f"| {label} | old/new per further shoe | | | | {further['old'] / further['new']:.2f}x | |")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load:
        print(f"\nload average after: {' '.join(f'{x:.2f}' for x in load)}")


if __name__ == "__main__":
    main()
