"""How long does the live-shoe page take from a click to the new odds on screen?

Starts ``python -m analyzer serve --port 0`` (a real uvicorn process) and Debian's headless
Chromium (Playwright, ``executable_path``: no browser download), opens ``GET /``, then clicks
``--clicks`` (default 60) card buttons of random ranks, one at a time, waiting for each answer
(the page itself measures, with ``performance.now()``, the time from the click's change of
state to the rendered odds: ``window.liveShoe.latencies``).  Two runs: the main bets, and the
main bets with the effects-of-removal panel open (a ``POST /eor`` after every card too, whose
table is not in the page's measure: the odds are).  The goal (issue 24): within 100 ms.

Run from the repository root:  python benchmarks/bench_page.py [--clicks 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RANKS = "A 2 3 4 5 6 7 8 9 T J Q K".split()
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


def run(page, url: str, clicks: int, rng: random.Random, eor: bool) -> list[float]:
    page.goto(url + "/#decks=8")
    page.wait_for_selector("body[data-status=ready]", state="attached")
    if eor:
        page.click("#eor-panel summary")
        page.wait_for_selector("#eor-panel[data-status=ready]", state="attached")
    start = page.evaluate("window.liveShoe.latencies.length")
    for _ in range(clicks):
        page.click(f"#cards button[data-rank='{rng.choice(RANKS)}']")
        page.wait_for_selector("body[data-status=ready]", state="attached")
        if eor:
            page.wait_for_selector("#eor-panel[data-status=ready]", state="attached")
    return page.evaluate("window.liveShoe.latencies")[start:]


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chromium", default=os.environ.get("BACCARAT_CHROMIUM", "/usr/bin/chromium"))
    a = ap.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{cores} core(s); {a.clicks} clicks a run, each waited for")
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"], cwd=REPO,
                              stderr=subprocess.PIPE, text=True)
    try:
        m = re.search(r"listening on (http://\S+) ", server.stderr.readline())
        assert m, "the server did not start"
        rng = random.Random(a.seed)
        with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(profile, executable_path=a.chromium,
                                                            headless=True, args=FLAGS)
            page = context.new_page()
            print("| run | median ms | p90 ms | max ms |\n|---|---|---|---|")
            for name, eor in (("main bets", False), ("main bets, effects of removal open", True)):
                xs = run(page, m.group(1), a.clicks, rng, eor)
                print(f"| {name} | {statistics.median(xs):.1f} | {percentile(xs, 90):.1f} | {max(xs):.1f} |")
            context.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
