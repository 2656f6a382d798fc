r"""A griffe extension for the API reference: a docstring's ``>>>`` sessions as code blocks.

The package's docstrings hold doctests (run by ``pytest --doctest-modules``) written as
plain ``>>>`` lines; in Markdown they would read as prose (and an output such as
``[('a', 'b'), ...]`` as a reference link).  :func:`fence` wraps each session (a run of
lines from a ``>>>`` line to the next blank line) in a ``pycon`` fence, and
:class:`FenceDoctests` applies it to every docstring that mkdocstrings renders
(``extensions:`` in ``mkdocs.yml``).

>>> fence("Text.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
['Text.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

try:
    from griffe import Extension
except ImportError:          # the docs extra is not installed: only fence() is usable
    Extension = object


def fence(text: str) -> str:
    """``text`` with every ``>>>`` session fenced as ``pycon``."""
    out, inside = [], False
    for line in text.split("\n"):
        stripped = line.strip()
        if not inside and stripped.startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not stripped:
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class FenceDoctests(Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence(obj.docstring.value)
