"""The tokeniser of the condition language (:mod:`analyzer.bets.conditions` parses the tokens)."""

from __future__ import annotations

import re

from .groups import GroupError

TOKEN = re.compile(r"\s*(?:([0-9]+)|([A-Za-z_][A-Za-z_0-9]*)|(\.\.|==|!=|<=|>=|[<>()\[\],+\-])|(\S))", re.ASCII)


def tokens(text: str) -> list[tuple[str, str, int]]:
    """The tokens of a condition: ``(kind, text, column)`` with kind ``num``, ``name`` or ``op``,
    and a last ``("end", "", column)``.  Any other character is an error naming its column.

    >>> tokens("winner == banker")
    [('name', 'winner', 1), ('op', '==', 8), ('name', 'banker', 11), ('end', '', 17)]
    """
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:  # only trailing blanks are left
            break
        num, name, op, bad = m.groups()
        assert m.lastindex is not None  # a non-blank is left: one of the four groups matched
        col = m.start(m.lastindex) + 1
        if bad is not None:
            hint = " (did you mean '=='?)" if bad == "=" else ""
            raise GroupError(f"unexpected {bad!r} at column {col}{hint}")
        kind = "num" if num else "name" if name else "op"
        out.append((kind, num or name or op, col))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out
