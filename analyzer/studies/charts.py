"""The study's chart: the EV by depth of every bet and its count curve (matplotlib, optional).

matplotlib is imported only when a chart is drawn (through
:mod:`analyzer.reports.charts`); without it :func:`write_chart` draws nothing
and says why.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..io.files import atomic_write
from ..reports.charts import pyplot

MISSING = "skipped (matplotlib is not installed: python -m pip install matplotlib)"


def write_chart(res, path: Path) -> str:
    """Draw the chart to ``path``; returns the path, or ``skipped (why)``."""
    try:
        plt = pyplot()
    except ImportError:
        return MISSING
    bets = list(res.bets.items())
    counted = [(i, b) for i, b in bets if b["count"] is not None and b["count"]["curve"]]
    cols = 2 if counted else 1
    fig, axes = plt.subplots(len(bets), cols, figsize=(6 * cols, 2.6 * len(bets)), squeeze=False)
    for row, (_, b) in enumerate(bets):
        _depth_panel(axes[row][0], b, res.params.cards)
        if cols == 2:
            _count_panel(axes[row][1], b)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write(path, buf.getvalue())
    return str(path)


def _depth_panel(ax, b: dict, total: int) -> None:
    """Mean EV by cards seen, with the 5%-95% band and the median of each depth bucket."""
    ns = sorted(b["mean_ev_by_cards_left"])
    ax.plot(
        [total - n for n in ns],
        [100 * float(b["mean_ev_by_cards_left"][n]) for n in ns],
        lw=0.7,
        alpha=0.8,
        label="mean EV",
    )
    xs, lo, hi, med = [], [], [], []
    for r in b["by_depth"]:
        q = r["quantiles"]
        for x in (r["cards_dealt_from"], r["cards_dealt_to"]):
            xs.append(x)
            lo.append(100 * float(sum(q["p05"]) / 2))
            hi.append(100 * float(sum(q["p95"]) / 2))
            med.append(100 * float(sum(q["p50"]) / 2))
    ax.fill_between(xs, lo, hi, alpha=0.25, label="5%-95%")
    ax.plot(xs, med, lw=1, ls="--", label="median")
    ax.axhline(0, color="black", lw=0.6)
    ax.set_title(f"{b['bet'].name}: EV by depth", fontsize=9)
    ax.set_xlabel("cards seen", fontsize=8)
    ax.set_ylabel("EV (%)", fontsize=8)
    ax.legend(fontsize=7)


def _count_panel(ax, b: dict) -> None:
    """The counter's win a shoe by true-count trigger, against perfect play (blank if not counted)."""
    c = b["count"]
    if c is None or not c["curve"]:
        ax.axis("off")
        return
    perfect = float(b["perfect_play"]["win_per_shoe"])
    top = max([perfect] + [float(r["win_per_shoe"]) for r in c["curve"]] + [1e-4])
    curve = [r for r in c["curve"] if float(r["win_per_shoe"]) >= -top]  # the interesting part
    ax.plot(
        [r["trigger"] for r in curve],
        [float(r["win_per_shoe"]) for r in curve],
        lw=1,
        marker=".",
        ms=2,
        label="counter",
    )
    ax.set_ylim(-1.1 * top, 1.15 * top)
    ax.axhline(perfect, color="green", lw=0.8, ls="--", label="perfect play")
    ax.axhline(0, color="black", lw=0.6)
    ax.set_title(f"{b['bet'].name}: win a shoe by true-count trigger", fontsize=9)
    ax.set_xlabel("bet when true count >=", fontsize=8)
    ax.set_ylabel("units a shoe", fontsize=8)
    ax.legend(fontsize=7)
