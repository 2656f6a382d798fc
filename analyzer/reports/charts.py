"""Charts for the reports (matplotlib, an optional extra: ``pip install .[plots]``).

:func:`available` says whether matplotlib can be imported; the report writers
skip the charts, and say so in the Markdown, when it cannot.  Charts are
written deterministically (no timestamps in the files' metadata).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def available() -> bool:
    if os.environ.get("BACCARAT_NO_PLOTS"):
        return False
    return importlib.util.find_spec("matplotlib") is not None


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_png(fig, path: Path) -> None:
    from ..io.files import atomic_open

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, binary=True) as f:
        fig.savefig(f, format="png", dpi=100, metadata={"Software": None})


def eor_chart(
    bet_name: str, ranks: list[str], effects_percent: list[float | None], path: Path, subtitle: str = ""
) -> None:
    """Bar chart of the effect of removing one card of each rank, in percent."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    values = [0.0 if v is None else v for v in effects_percent]
    colors = ["#2a7ab0" if v >= 0 else "#c0392b" for v in values]
    ax.bar(ranks, values, color=colors)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("change in EV (% of stake)")
    ax.set_title(f"Effects of removal: {bet_name}" + (f"\n{subtitle}" if subtitle else ""), fontsize=10)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)


def decks_chart(title: str, decks: list[int], series: dict[str, list[float]], path: Path) -> None:
    """House edge (percent) against number of decks, one line per bet."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, values in series.items():
        ax.plot(decks, values, marker="o", label=name)
    ax.set_xlabel("decks")
    ax.set_ylabel("house edge (%)")
    ax.set_xticks(decks)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
