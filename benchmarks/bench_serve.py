"""How fast does ``baccarat serve`` answer a warm ``POST /odds``?

Starts ``python -m analyzer serve --port 0`` (a real uvicorn process), reads its address
from standard error, warms it (one request per bet set compiles the solvers), then times
``--requests`` (default 200) ``POST /odds`` over one kept-alive HTTP connection
(``http.client``, with TCP_NODELAY), each a different random depleted 8-deck shoe (0 to 300 cards removed
with their suits), for (a) the main bets and (b) every catalog bet (``"bets": "all"``).
Prints the median and percentiles of the wall time of each request (client side: the
request sent, the whole answer read) and the machine's core count; stops the server with
SIGTERM.  The goals (issue 24): median at most 5 ms (main bets), 20 ms (all bets).

Run from the repository root:  python benchmarks/bench_serve.py [--requests 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()
CARDS = [r + s for r in RANKS for s in "shdc"]
SETS = {"main bets": ["banker", "player", "tie"], "all bets": "all"}


def bodies(n: int, seed: int, bets) -> list[bytes]:
    rng = random.Random(seed)
    full = [c for c in CARDS for _ in range(8)]
    return [json.dumps({"decks": 8, "remove": " ".join(rng.sample(full, rng.randint(0, 300))),
                        "bets": bets}).encode() for _ in range(n)]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{cores} core(s); {a.requests} warm requests per bet set, one kept-alive connection")
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"], cwd=REPO,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()
        m = re.search(r"http://([\d.]+):(\d+)", line)
        if not m:
            print(line + server.stderr.read(), file=sys.stderr)
            return 1
        conn = http.client.HTTPConnection(m.group(1), int(m.group(2)), timeout=300)
        conn.connect()
        # http.client sends the head and the body in two writes: without TCP_NODELAY, Nagle's
        # algorithm holds the body until the server's delayed ACK (about 40 ms on Linux)
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def post(body: bytes) -> bytes:
            conn.request("POST", "/odds", body=body, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            data = r.read()
            if r.status != 200:
                raise SystemExit(f"status {r.status}: {data[:300]!r}")
            return data

        print(f"{'bets':<10} {'cold ms':>9} {'median ms':>10} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} "
              f"{'answer KB':>10}")
        for name, bets in SETS.items():
            work = bodies(a.requests + 5, a.seed, bets)
            start = time.perf_counter()
            post(work[0])                            # compiles the bet set
            cold = time.perf_counter() - start
            for body in work[1:5]:                   # and warms the first-use paths
                post(body)
            times, size = [], 0
            for body in work[5:]:
                start = time.perf_counter()
                size = len(post(body))
                times.append(time.perf_counter() - start)
            ms = [t * 1000 for t in times]
            print(f"{name:<10} {cold * 1000:9.0f} {statistics.median(ms):10.2f} {percentile(ms, 90):8.2f} "
                  f"{percentile(ms, 99):8.2f} {max(ms):8.2f} {size / 1024:10.1f}")
        conn.close()
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(30)
    print(f"# server stopped by SIGTERM: exit {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
