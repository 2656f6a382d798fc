"""A small language for the events of a pay table.

A condition is a boolean expression over features of a coup, for example::

    winner == banker and banker_cards == 3 and banker_total == 7
    winner == tie and max_value in [0..5]
    not natural and margin >= 4

Grammar (keywords are lower case)::

    condition  := disjunct ("or" disjunct)*
    disjunct   := negation ("and" negation)*
    negation   := "not" negation | comparison
    comparison := sum (OP sum | "in" "[" item ("," item)* "]")?      OP: == != < <= > >=
    sum        := atom (("+" | "-") atom)*
    atom       := ["-"] INTEGER | FEATURE | CONSTANT | "(" condition ")"
    item       := ["-"] INTEGER | INTEGER ".." INTEGER | CONSTANT

Features are listed in :data:`FEATURES`; constants are ``player``, ``banker``
and ``tie`` (values of ``winner``), ranks ``A T J Q K`` (A=1 .. K=13; 2..9 are
written as numbers) and suits ``spades hearts diamonds clubs``.  A bare feature
must be a yes/no feature.  Rank and suit features exist for the first two cards
of each hand (:data:`CARD_FEATURES`); point values for every card.
The text is tokenised and parsed here: it is never handed to ``eval``.

>>> c = Condition.parse("winner == banker and banker_cards == 3 and banker_total == 7")
>>> sorted(c.features)
['banker_cards', 'banker_total', 'winner']
>>> Condition.parse("winner = banker")
Traceback (most recent call last):
...
analyzer.core.errors.BetError: condition 'winner = banker': unexpected '=' at column 8 (did you mean '=='?)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core.errors import BetError
from ..core.features import CARD_FEATURES, FEATURES, SUIT_FEATURES  # noqa: F401  (re-exported)

#: Named constants: name -> (kind, code).
CONSTANTS: dict[str, tuple[str, int]] = {
    "player": ("winner", 0), "banker": ("winner", 1), "tie": ("winner", 2),
    "A": ("int", 1), "T": ("int", 10), "J": ("int", 11), "Q": ("int", 12), "K": ("int", 13),
    "spades": ("suit", 0), "hearts": ("suit", 1), "diamonds": ("suit", 2), "clubs": ("suit", 3),
}
_OPS = ("==", "!=", "<=", ">=", "<", ">")
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(\.\.|==|!=|<=|>=|[<>()\[\],+\-])|(\S))")


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # only trailing blanks are left
            break
        num, name, op, bad = m.groups()
        col = m.start(m.lastindex) + 1
        if bad is not None:
            hint = " (did you mean '=='?)" if bad == "=" else ""
            raise _Fail(f"unexpected {bad!r} at column {col}{hint}")
        kind = "num" if num else "name" if name else "op"
        out.append((kind, num or name or op, col))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out


class _Fail(Exception):
    pass


# An expression node: (kind, evaluate(features) -> array).  kind is "bool", "int" or "winner".
_Node = tuple[str, Callable[[dict], np.ndarray]]


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0
        self.used: set[str] = set()

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise _Fail(f"expected {value!r} at column {tok[2]}, found {tok[1] or 'end of text'!r}")
        self.i += 1
        return tok

    def parse(self) -> _Node:
        node = self.disjunction()
        kind, value, col = self.peek()
        if kind != "end":
            hint = " (did you mean '=='?)" if value == "=" else ""
            raise _Fail(f"unexpected {value!r} at column {col}{hint}")
        return self.boolean(node, col)

    def boolean(self, node: _Node, col: int) -> _Node:
        if node[0] != "bool":
            raise _Fail(f"expression ending at column {col} is a {node[0]}, not a yes/no condition")
        return node

    def disjunction(self) -> _Node:
        node = self.conjunction()
        while self.peek()[1] == "or":
            col = self.take()[2]
            left, right = self.boolean(node, col), self.boolean(self.conjunction(), col)
            node = ("bool", lambda f, a=left[1], b=right[1]: a(f) | b(f))
        return node

    def conjunction(self) -> _Node:
        node = self.negation()
        while self.peek()[1] == "and":
            col = self.take()[2]
            left, right = self.boolean(node, col), self.boolean(self.negation(), col)
            node = ("bool", lambda f, a=left[1], b=right[1]: a(f) & b(f))
        return node

    def negation(self) -> _Node:
        if self.peek()[1] == "not":
            col = self.take()[2]
            inner = self.boolean(self.negation(), col)
            return ("bool", lambda f, a=inner[1]: ~a(f))
        return self.comparison()

    def comparison(self) -> _Node:
        left = self.sum()
        kind, op, col = self.peek()
        if op in _OPS:
            self.take()
            right = self.sum()
            if left[0] != right[0] or left[0] == "bool":
                raise _Fail(f"cannot compare {left[0]} with {right[0]} at column {col}")
            if left[0] in ("winner", "suit") and op not in ("==", "!="):
                raise _Fail(f"a {left[0]} can only be compared with == or != (column {col})")
            fn = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
                  ">": np.greater, ">=": np.greater_equal}[op]
            return ("bool", lambda f, a=left[1], b=right[1], fn=fn: fn(a(f), b(f)))
        if op == "in" and kind == "name":
            self.take()
            values = self.items(left[0])
            return ("bool", lambda f, a=left[1], v=values: np.isin(a(f), v))
        return left

    def items(self, kind: str) -> list[int]:
        self.take("[")
        values: list[int] = []
        while True:
            k, v, col = self.take()
            sign = ""
            if v == "-" and self.peek()[0] == "num":
                sign = "-"
                k, v, col = self.take()
            if k == "num" and kind == "int":
                lo = int(sign + v)
                if self.peek()[1] == "..":
                    self.take()
                    k2, v2, col2 = self.take()
                    if k2 != "num":
                        raise _Fail(f"expected a number after '..' at column {col2}")
                    if int(v2) < lo:
                        raise _Fail(f"empty range {lo}..{v2} at column {col}: write the smaller number first")
                    values.extend(range(lo, int(v2) + 1))
                else:
                    values.append(lo)
            elif k == "name" and v in CONSTANTS and CONSTANTS[v][0] == kind:
                values.append(CONSTANTS[v][1])
            else:
                article = "an" if kind[0] in "aeiou" else "a"
                raise _Fail(f"{v or 'end of text'!r} at column {col} is not {article} {kind} value")
            k, v, col = self.take()
            if v == "]":
                return values
            if v != ",":
                raise _Fail(f"expected ',' or ']' at column {col}, found {v or 'end of text'!r}")

    def sum(self) -> _Node:
        node = self.atom()
        while self.peek()[1] in ("+", "-"):
            op, col = self.take()[1:]
            right = self.atom()
            if node[0] != "int" or right[0] != "int":
                raise _Fail(f"'{op}' needs numbers on both sides (column {col})")
            if op == "+":
                node = ("int", lambda f, a=node[1], b=right[1]: np.asarray(a(f), dtype=np.int16) + b(f))
            else:
                node = ("int", lambda f, a=node[1], b=right[1]: np.asarray(a(f), dtype=np.int16) - b(f))
        return node

    def atom(self) -> _Node:
        kind, value, col = self.take()
        if value == "-" and self.peek()[0] == "num":   # a negative number
            kind, value, col = self.take()
            value = "-" + value
        if kind == "num":
            n = int(value)
            return ("int", lambda f, n=n: n)
        if value == "(":
            node = self.disjunction()
            self.take(")")
            return node
        if kind == "name":
            if value in FEATURES:
                self.used.add(value)
                return (FEATURES[value][0], lambda f, name=value: f[name])
            if value in CONSTANTS:
                ckind, c = CONSTANTS[value]
                return (ckind, lambda f, c=c: c)
            known = ", ".join(sorted(FEATURES))
            raise _Fail(f"unknown feature {value!r} at column {col} (features: {known})")
        raise _Fail(f"unexpected {value or 'end of text'!r} at column {col}")


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its text, the features it reads, and its evaluator."""

    text: str
    features: frozenset[str]
    _evaluate: Callable[[dict], np.ndarray]

    @classmethod
    def parse(cls, text: str) -> Condition:
        if not isinstance(text, str) or not text.strip():
            raise BetError("empty condition")
        try:
            p = _Parser(text)
            node = p.parse()
        except _Fail as e:
            raise BetError(f"condition {text!r}: {e}") from None
        return cls(text, frozenset(p.used), node[1])

    @property
    def card_features(self) -> frozenset[str]:
        """The rank/suit features of the first two cards this condition reads."""
        return self.features & CARD_FEATURES.keys()

    def mask(self, features: dict) -> np.ndarray:
        """Evaluate over feature arrays (card features may be scalars); a boolean array."""
        try:
            out = self._evaluate(features)
        except KeyError as e:
            raise BetError(f"condition {self.text!r} reads {e.args[0]}, which is not available here "
                           "(rank and suit features need the card engine)") from None
        return np.broadcast_to(np.asarray(out, dtype=bool), features["winner"].shape)

    def __repr__(self) -> str:
        return f"Condition.parse({self.text!r})"
