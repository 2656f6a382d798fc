"""Cold `baccarat odds --bets ID` for the card-engine bets: wall time and peak memory.

Each run is a fresh process (imports, the coup table, compiling the bet, one solve,
Markdown output), as a user meets it.  Prints the median wall time and the largest
peak RSS over ``--repeat`` runs per bet, the machine's core count and load.

    python benchmarks/bench_card_bets.py [--repeat 5] [--bets lucky_nines,jackpot,...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

BETS = "lucky_nines,jackpot,lucky_match,monkey6,all_red,contrast_bonus,grand_monkey"


def run_once(bet: str) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "odds", "--bets", bet],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{bet}: exit {os.waitstatus_to_exitcode(status)}: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss * 1024          # ru_maxrss is in KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--bets", default=BETS)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"median of {args.repeat} cold runs each")
    print("| bet | median s | min s | max s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|")
    for bet in args.bets.split(","):
        runs = [run_once(bet) for _ in range(args.repeat)]
        walls = [w for w, _ in runs]
        print(f"| {bet} | {statistics.median(walls):.2f} | {min(walls):.2f} | {max(walls):.2f} | "
              f"{max(r for _, r in runs) / 2**20:.0f} |")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
