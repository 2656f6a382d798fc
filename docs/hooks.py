"""The documentation's generated parts, and the mkdocs hook that fills them in.

The feature table of ``docs/bets.md`` is generated from the feature registry
(:data:`analyzer.core.features.REGISTRY`), never typed: :func:`feature_table` writes
it, :func:`render` puts it between the markers of a page, the mkdocs hook
:func:`on_page_markdown` does so on every build (``hooks:`` in ``mkdocs.yml``), and
``python docs/hooks.py`` rewrites the committed page (``tests/test_docs.py`` fails
while the page's table differs from the registry's).

>>> print(feature_table().splitlines()[2])
| `winner` | winner | player, banker or tie |
>>> render("a\\n" + BEGIN + "\\nold\\n" + END + "\\nb\\n").splitlines()[5]
'| `winner` | winner | player, banker or tie |'
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

BEGIN = "<!-- generated from analyzer/core/features.py by docs/hooks.py: do not edit -->"
END = "<!-- end of the generated table -->"
REGION = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
BETS_PAGE = Path(__file__).resolve().parent / "bets.md"


def feature_table() -> str:
    """The Markdown table of every feature of a coup (not a card position's: those are
    ``POSITION_ATTRIBUTE``, described beside the table), in the registry's order."""
    from analyzer.core.features import POSITION_FEATURES, REGISTRY
    rows = [f"| `{name}` | {f.kind} | {f.doc} |" for name, f in REGISTRY.items() if name not in POSITION_FEATURES]
    return "\n".join(["| feature | kind | meaning |", "|---|---|---|", *rows]) + "\n"


def render(markdown: str) -> str:
    """``markdown`` with the table between :data:`BEGIN` and :data:`END` made the registry's."""
    return REGION.sub(lambda m: f"{BEGIN}\n\n{feature_table()}\n{END}", markdown)


def on_page_markdown(markdown, page, config, files):
    """mkdocs hook: every page is built with its generated parts from the code."""
    return render(markdown)


if __name__ == "__main__":
    text = BETS_PAGE.read_text()
    new = render(text)
    if new != text:
        BETS_PAGE.write_text(new)
        print(f"{BETS_PAGE}: feature table rewritten", file=sys.stderr)
