"""Charts of a par sheet (matplotlib, the optional ``plots`` extra).

Per wager: the return contributions of its events (pays x probability, the
bars add up to the EV), the confidence bands of the average result per round
against the number of rounds, and the house edge against the number of decks.
Written deterministically through :func:`analyzer.reports.charts.save_png`.
"""

from __future__ import annotations

import math
from pathlib import Path

from .charts import pyplot, save_png
from .parsheet import ParSheet, Wager, z_value

LEVELS = (90, 95, 99)


def returns_chart(w: Wager, path: Path) -> None:
    """Horizontal bars: each event's share of the return, in percent of the stake."""
    plt = pyplot()
    labels = [r.event for r in w.rows]
    values = [float(r.ret) * 100 for r in w.rows]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(labels) + 1.4))
    ax.barh(labels, values, color=["#2a7ab0" if v >= 0 else "#c0392b" for v in values])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("return: pays x probability (% of the stake)")
    ax.set_title(f"{w.bet.name}: return by event (sum = EV = {float(w.ev) * 100:.4f}%)", fontsize=10)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def bands_chart(w: Wager, path: Path, max_rounds: int = 1_000_000) -> None:
    """The average result per round and its 90/95/99% bands against rounds (log scale):
    EV +- z sd / sqrt(N), in percent of the stake (the net result's band divided by N)."""
    plt = pyplot()
    ev, sd = float(w.ev) * 100, math.sqrt(float(w.variance)) * 100
    n = [round(10 ** (k / 20)) for k in range(40, 20 * int(math.log10(max_rounds)) + 1)]
    fig, ax = plt.subplots(figsize=(7, 4))
    for level, shade in zip(reversed(LEVELS), ("#deebf7", "#c6dbef", "#9ecae1")):
        z = z_value(level)
        ax.fill_between(
            n,
            [ev - z * sd / math.sqrt(x) for x in n],
            [ev + z * sd / math.sqrt(x) for x in n],
            color=shade,
            label=f"{level}%",
        )
    ax.plot(n, [ev] * len(n), color="black", label=f"EV {ev:.4f}%")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_xlabel("rounds of one unit")
    ax.set_ylabel("average result per round (% of stake)")
    ax.set_title(f"{w.bet.name}: confidence bands (normal approximation)", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def decks_chart(w: Wager, path: Path) -> None:
    """House edge (percent) against the number of decks."""
    plt = pyplot()
    decks = sorted(w.house_edge_by_decks)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(decks, [float(w.house_edge_by_decks[d]) * 100 for d in decks], marker="o")
    ax.set_xticks(decks)
    ax.set_xlabel("decks")
    ax.set_ylabel("house edge (%)")
    ax.set_title(f"{w.bet.name}: house edge by number of decks", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def write_charts(sheet: ParSheet, folder: Path) -> list[Path]:
    """Every chart of every wager of ``sheet`` into ``folder``; the files written."""
    written = []
    for w in sheet.wagers:
        for kind, draw in (("returns", returns_chart), ("bands", bands_chart), ("decks", decks_chart)):
            if kind == "decks" and len(w.house_edge_by_decks) < 2:
                continue
            path = folder / f"{w.bet.id}_{kind}.png"
            draw(w, path)
            written.append(path)
    return written
