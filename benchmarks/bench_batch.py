"""How fast is ``baccarat odds --batch``?

Writes ``--shoes`` (default 200) random depleted 8-deck shoes as JSON Lines (each
line removes 0 to 300 cards drawn at random, with their suits, so every bet can be
priced), then times whole processes ``python -m analyzer odds --batch FILE --quiet
-o OUT`` for (a) the main bets and (b) the whole catalog (``--bets all``): the
median of ``--repeat`` (default 5) runs, each a fresh process.  A one-line batch is
timed the same way, so the start-up (imports, coup table, compiling the bets) is
given apart from the cost of each further shoe: ``(T(n) - T(1)) / (n - 1)``.

Run from the repository root:  python benchmarks/bench_batch.py [--shoes 200] [--repeat 5] [--seed 1]
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
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()
CARDS = [r + s for r in RANKS for s in "shdc"]


def shoes(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    full = [c for c in CARDS for _ in range(8)]
    return [json.dumps({"decks": 8, "remove": " ".join(rng.sample(full, rng.randint(0, 300)))})
            for _ in range(n)]


def env() -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [e.get("PYTHONPATH")] if p])
    return e


def run(path: Path, out: Path, bets: list[str]) -> float:
    argv = [sys.executable, "-m", "analyzer", "odds", "--batch", str(path), "--quiet", "-o", str(out), *bets]
    t = time.perf_counter()
    subprocess.run(argv, check=True, env=env(), cwd=REPO)
    return time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shoes", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"cores: os.cpu_count() = {os.cpu_count()}; Python {platform.python_version()}; "
          f"load average {' '.join(f'{x:.2f}' for x in load) if load else 'n/a'}")
    print(f"{a.shoes} random depleted 8-deck shoes (0-300 cards removed), median of {a.repeat} runs, "
          "each a whole process\n")
    lines = shoes(a.shoes, a.seed)
    with tempfile.TemporaryDirectory() as d:
        many, one, out = Path(d, "shoes.jsonl"), Path(d, "one.jsonl"), Path(d, "out.jsonl")
        many.write_text("\n".join(lines) + "\n")
        one.write_text(lines[0] + "\n")
        print("| bets | one shoe (start-up) s | all shoes s | per shoe, all in ms | per further shoe ms | output |")
        print("|---|---|---|---|---|---|")
        for label, bets in (("main (banker, player, tie)", []), ("whole catalog (--bets all)", ["--bets", "all"])):
            t_one, t_many = [], []
            for _ in range(a.repeat):       # interleaved, so a load spike hits both alike
                t_one.append(run(one, out, bets))
                t_many.append(run(many, out, bets))
            assert sum(1 for _ in out.open()) == a.shoes
            size = out.stat().st_size
            m1, mn = statistics.median(t_one), statistics.median(t_many)
            print(f"| {label} | {m1:.2f} | {mn:.2f} | {1000 * mn / a.shoes:.1f} | "
                  f"{1000 * (mn - m1) / (a.shoes - 1):.1f} | {size / 2**20:.1f} MiB |")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load:
        print(f"\nload average after: {' '.join(f'{x:.2f}' for x in load)}")


if __name__ == "__main__":
    main()
