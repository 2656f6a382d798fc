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
    item       := ["-"] INTEGER [".." ["-"] INTEGER] | CONSTANT

Features are listed in :data:`FEATURES`; constants are ``player``, ``banker``
and ``tie`` (values of ``winner``), ranks ``A T J Q K`` (A=1 .. K=13; 2..9 are
written as numbers) and suits ``spades hearts diamonds clubs``.  A bare feature
must be a yes/no feature.  Rank and suit features exist for the first two cards
of each hand (:data:`CARD_FEATURES`); point values for every card.
The text is tokenised (:mod:`.tokens`) and parsed here: it is never handed to ``eval``.

Arithmetic is exact: a sum is its features (small integers, computed in
``int64``) plus one constant kept as a Python ``int``; a comparison with a
constant beyond what the features can reach is decided from their ranges
(:data:`analyzer.core.features.RANGES`), so no number is too large and
nothing wraps.  A condition is at most :data:`MAX_LENGTH` characters and
:data:`MAX_DEPTH` levels of parentheses and ``not``; ``and`` / ``or`` chains
of any length are evaluated without recursion.

>>> Condition.parse("player_total + 32000 + 32000 > 0").mask(
...     {"winner": np.zeros(3, np.int8), "player_total": np.array([0, 5, 9], np.int8)}).tolist()
[True, True, True]
>>> Condition.parse("player_total in [0..100000000]").features
frozenset({'player_total'})

>>> c = Condition.parse("winner == banker and banker_cards == 3 and banker_total == 7")
>>> sorted(c.features)
['banker_cards', 'banker_total', 'winner']
>>> Condition.parse("winner = banker")
Traceback (most recent call last):
...
analyzer.core.errors.BetError: condition 'winner = banker': unexpected '=' at column 8 (did you mean '=='?)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import BetError
from ..core.features import (  # noqa: F401
    CARD_ATTRIBUTES,
    CARD_FEATURES,
    CARD_RANGES,
    FEATURES,
    POSITION_FEATURES,
    RANGES,
    REGISTRY,
    SUIT_FEATURES,
)
from .groups import CARDS, GroupError, cached, group_function, parse_group, pred_id, requirements as _combine
from .tokens import tokens as _tokens

#: Longest condition text accepted, and deepest nesting of parentheses and ``not``.
MAX_LENGTH = 20_000
MAX_DEPTH = 64

#: Named constants: name -> (kind, code).
CONSTANTS: dict[str, tuple[str, int]] = {
    "player": ("winner", 0),
    "banker": ("winner", 1),
    "tie": ("winner", 2),
    "A": ("int", 1),
    "T": ("int", 10),
    "J": ("int", 11),
    "Q": ("int", 12),
    "K": ("int", 13),
    "spades": ("suit", 0),
    "hearts": ("suit", 1),
    "diamonds": ("suit", 2),
    "clubs": ("suit", 3),
    "red": ("colour", 0),
    "black": ("colour", 1),
}
#: Functions over a group of cards: name -> (takes a card predicate, kind).
FUNCTIONS: dict[str, tuple[bool, str]] = {
    "count": (True, "int"),
    "all": (True, "bool"),
    "any": (True, "bool"),
    "of_a_kind": (False, "int"),
    "pairs": (False, "int"),
    "kinds": (False, "int"),
    "flush": (False, "bool"),
    "straight": (False, "bool"),
}
_OPS = ("==", "!=", "<=", ">=", "<", ">")
_COMPARE = {
    "==": np.equal,
    "!=": np.not_equal,
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
}
_PY_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_Fail = GroupError
#: a condition's evaluator: the features -> a mask over the coups (a numpy bool when constant);
#: ``...``: called with the features only, but the lambdas bind defaults, which mypy cannot
#: match to a one-argument Callable
_Evaluator = Callable[..., "np.ndarray | np.bool_"]


@dataclass
class _Node:
    """An expression.  ``bool``: ``fn(features)`` gives a mask.  ``int``,
    ``winner`` and ``suit``: the signed features ``terms`` plus ``const``."""

    kind: str
    fn: _Evaluator | None = None
    terms: list[tuple[int, str]] = field(default_factory=list)
    const: int = 0
    requires: tuple = ()  # what all(...) tests imply: alternatives, each a tuple of (group, predicate)

    def bounds(self, ranges=RANGES) -> tuple[int, int]:
        """Smallest and largest value of the feature part (the terms)."""
        lo = hi = 0
        for sign, name in self.terms:
            a, b = ranges[name]
            lo, hi = (lo + a, hi + b) if sign > 0 else (lo - b, hi - a)
        return lo, hi


def _integer(text: str) -> int:
    """The integer a condition writes (any number of digits: Python's ``int()`` refuses more
    than 4,300 at once, so longer numbers are read 4,000 digits at a time).

    >>> _integer("12") == 12 and _integer("7" * 9000) == 7 * (10**9000 - 1) // 9
    True
    """
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    if len(digits) <= 4000:
        return int(text)
    value = 0
    for start in range(0, len(digits), 4000):
        chunk = digits[start : start + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return -value if sign else value


def _feature_sum(terms: list[tuple[int, str]], synthetic: dict | None = None) -> _Evaluator:
    """The sum of signed features, in int64 (exact: each is a small integer), for a
    comparison; one feature alone, an integer array, as it is (numpy compares any integer
    dtype with any Python integer exactly).  ``synthetic``: names computed from other
    features (the group functions)."""
    synthetic = synthetic if synthetic is not None else {}

    def evaluate(f):
        values = [(sign, synthetic[name](f) if name in synthetic else f[name]) for sign, name in terms]
        if len(values) == 1 and values[0][0] > 0:
            x = values[0][1]
            if isinstance(x, np.ndarray) and x.dtype.kind in "iu":
                return x
        acc = None
        for sign, value in values:
            x = np.asarray(value, dtype=np.int64)
            x = x if sign > 0 else -x
            acc = x if acc is None else acc + x
        return acc

    return evaluate


def _all_of(fns: list, combine) -> _Evaluator:
    def evaluate(f):
        out = np.asarray(fns[0](f), dtype=bool)
        for fn in fns[1:]:
            out = combine(out, fn(f))
        return out

    return evaluate


def _constant(value: bool) -> _Evaluator:
    return lambda f: np.bool_(value)


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0
        self.used: set[str] = set()
        self.card_keys: set[tuple] = set()  # what the card engine must tell apart
        self.positions: set[str] = set()  # card positions read
        self.synthetic: dict[str, Callable] = {}
        self.groups: set[tuple[str, ...]] = set()  # the groups the functions read
        self.ranges: dict[str, tuple[int, int]] = {**RANGES, **CARD_RANGES}
        self.card_scope = False  # inside count(GROUP, <card predicate>)

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self, value: str | None = None) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        if value is not None and tok[1] != value:
            raise _Fail(f"expected {value!r} at column {tok[2]}, found {tok[1] or 'end of text'!r}")
        self.i += 1
        return tok

    def enter(self, col: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Fail(f"nested more than {MAX_DEPTH} levels deep at column {col}")

    def parse(self) -> _Node:
        node = self.disjunction()
        kind, value, col = self.peek()
        if kind != "end":
            hint = " (did you mean '=='?)" if value == "=" else ""
            raise _Fail(f"unexpected {value!r} at column {col}{hint}")
        return self.boolean(node, col)

    def boolean(self, node: _Node, col: int) -> _Node:
        if node.kind != "bool":
            raise _Fail(f"expression ending at column {col} is a {node.kind}, not a yes/no condition")
        return node

    def chain(self, word: str, operand, combine) -> _Node:
        node = operand()
        if self.peek()[1] != word:
            return node
        fns, parts = [], [node.requires]
        while self.peek()[1] == word:
            col = self.take()[2]
            fns.append(self.boolean(node, col).fn)
            node = self.boolean(operand(), col)
            parts.append(node.requires)
        fns.append(node.fn)
        return _Node("bool", _all_of(fns, combine), requires=_combine(parts, word))

    def disjunction(self) -> _Node:
        return self.chain("or", self.conjunction, np.logical_or)

    def conjunction(self) -> _Node:
        return self.chain("and", self.negation, np.logical_and)

    def negation(self) -> _Node:
        if self.peek()[1] != "not":
            return self.comparison()
        nots = 0
        while self.peek()[1] == "not":
            col = self.take()[2]
            self.enter(col)
            nots += 1
        inner = self.boolean(self.comparison(), col)
        self.depth -= nots
        if nots % 2 == 0:
            return inner
        return _Node("bool", lambda f, a=inner.fn: ~np.asarray(a(f), dtype=bool))

    def comparison(self) -> _Node:
        left = self.sum()
        kind, op, col = self.peek()
        if op in _OPS:
            self.take()
            right = self.sum()
            if left.kind != right.kind or left.kind == "bool":
                raise _Fail(f"cannot compare {left.kind} with {right.kind} at column {col}")
            if left.kind in ("winner", "suit", "colour") and op not in ("==", "!="):
                raise _Fail(f"a {left.kind} can only be compared with == or != (column {col})")
            # left OP right  <=>  (features of left - features of right) OP (right.const - left.const)
            terms = left.terms + [(-s, n) for s, n in right.terms]
            k = right.const - left.const
            if not terms:
                return _Node("bool", _constant(_PY_COMPARE[op](0, k)))
            lo, hi = _Node("int", terms=terms).bounds(self.ranges)
            k = min(max(k, lo - 1), hi + 1)  # same answer for every value the features reach
            part, fn = _feature_sum(terms, self.synthetic), _COMPARE[op]
            return _Node("bool", lambda f, part=part, fn=fn, k=k: fn(part(f), k))
        if op == "in" and kind == "name":
            self.take()
            return self.membership(left, self.items(left.kind))
        return left

    def membership(self, node: _Node, intervals: list[tuple[int, int]]) -> _Node:
        """``node in [...]``: the features' sum within any interval shifted by the constant."""
        if not node.terms:
            return _Node("bool", _constant(any(a <= node.const <= b for a, b in intervals)))
        lo, hi = node.bounds(self.ranges)
        spans = sorted((max(a - node.const, lo), min(b - node.const, hi)) for a, b in intervals)
        spans = [(a, b) for a, b in spans if a <= b]
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        if not merged:
            return _Node("bool", _constant(False))
        part = _feature_sum(node.terms, self.synthetic)

        def evaluate(f, part=part, merged=merged):
            x = part(f)
            out = None
            for a, b in merged:
                m = (x >= a) & (x <= b) if a != b else (x == a)
                out = m if out is None else out | m
            return out

        return _Node("bool", evaluate)

    def items(self, kind: str) -> list[tuple[int, int]]:
        self.take("[")
        values: list[tuple[int, int]] = []
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
                    if v2 == "-" and self.peek()[0] == "num":
                        k2, v2, col2 = self.take()
                        v2 = "-" + v2
                    if k2 != "num":
                        raise _Fail(f"expected a number after '..' at column {col2}")
                    if int(v2) < lo:
                        raise _Fail(f"empty range {lo}..{v2} at column {col}: write the smaller number first")
                    values.append((lo, int(v2)))
                else:
                    values.append((lo, lo))
            elif k == "name" and v in CONSTANTS and CONSTANTS[v][0] == kind:
                values.append((CONSTANTS[v][1], CONSTANTS[v][1]))
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
        if self.peek()[1] not in ("+", "-"):
            return node
        terms, const = list(node.terms), node.const
        while self.peek()[1] in ("+", "-"):
            op, col = self.take()[1:]
            right = self.atom()
            if node.kind != "int" or right.kind != "int":
                raise _Fail(f"'{op}' needs numbers on both sides (column {col})")
            sign = 1 if op == "+" else -1
            terms += [(sign * s, n) for s, n in right.terms]
            const += sign * right.const
        return _Node("int", terms=terms, const=const)

    def note_card_feature(self, name: str) -> None:
        """Record what the card engine must know for a per-card or first-two-card feature:
        the positions and attributes the registry says it reads."""
        feature = REGISTRY[name]
        if feature.level == "card":
            self.positions.update(feature.positions)
            self.card_keys.update(("attr", a) for a in feature.attrs)

    def card_atom(self, value: str, col: int) -> _Node:
        """An attribute of one card inside a card predicate: rank, suit, colour, value, face, ten."""
        if value in CARD_ATTRIBUTES:
            kind = CARD_ATTRIBUTES[value][0]
            if kind == "bool":
                return _Node("bool", lambda f, name=value: f[name])
            return _Node(kind, terms=[(1, value)])
        if value in CONSTANTS:
            ckind, c = CONSTANTS[value]
            return _Node(ckind, const=c)
        raise _Fail(f"unknown card attribute {value!r} at column {col} (a card has: {', '.join(CARD_ATTRIBUTES)})")

    def group(self) -> tuple[str, ...]:
        return parse_group(self)

    def function(self, name: str, col: int) -> _Node:
        """``count(GROUP, predicate)`` and the other functions over a group of cards."""
        self.take("(")
        self.enter(col)
        group = self.group()
        takes_predicate, kind = FUNCTIONS[name]
        pred = None
        if takes_predicate:
            self.take(",")
            self.card_scope = True
            node = self.disjunction()
            self.card_scope = False
            mask_fn = self.boolean(node, col).fn
            assert mask_fn is not None  # a bool node has its evaluator
            pred = np.asarray(mask_fn(CARDS), dtype=bool).copy()
            pred = np.broadcast_to(pred, (53,)).copy()
            pred[-1] = False  # no card satisfies anything
            self.card_keys.add(("pred", tuple(bool(x) for x in pred[:52])))
        else:
            self.card_keys.add(("attr", "suit" if name == "flush" else "rank"))
        times = 2
        if name == "kinds":
            self.take(",")
            kind_, value, vcol = self.take()
            if kind_ != "num" or not 1 <= int(value) <= len(group):
                raise _Fail(f"kinds(GROUP, N) needs a number 1-{len(group)} at column {vcol}, found {value!r}")
            times = int(value)
        self.take(")")
        self.depth -= 1
        self.positions.update(group)
        self.groups.add(group)
        fn = cached(f"{name}{group}{times}{pred_id(pred)}", group_function(name, group, pred, times))
        if kind == "bool":
            requires: tuple = ()
            if name == "all":
                assert pred is not None  # all() takes a predicate
                requires = (((group, tuple(pred[:52].tolist())),),)
            return _Node("bool", fn, requires=requires)
        synthetic = f"{name}({','.join(group)}){len(self.synthetic)}"
        self.synthetic[synthetic] = fn
        self.ranges[synthetic] = (0, len(group) // times if name in ("pairs", "kinds") else len(group))
        return _Node("int", terms=[(1, synthetic)])

    def atom(self) -> _Node:
        kind, value, col = self.take()
        if value == "-" and self.peek()[0] == "num":  # a negative number
            kind, value, col = self.take()
            value = "-" + value
        if kind == "num":
            return _Node("int", const=_integer(value))
        if value == "(":
            self.enter(col)
            node = self.disjunction()
            self.take(")")
            self.depth -= 1
            return node
        if kind == "name" and self.card_scope:
            return self.card_atom(value, col)
        if kind == "name" and value in FUNCTIONS and self.peek()[1] == "(":
            return self.function(value, col)
        if kind == "name":
            if value in FEATURES:
                self.used.add(value)
                self.note_card_feature(value)
                fkind = REGISTRY[value].kind
                if fkind == "bool":
                    return _Node("bool", lambda f, name=value: f[name])
                return _Node(fkind, terms=[(1, value)])
            if value in CONSTANTS:
                ckind, c = CONSTANTS[value]
                return _Node(ckind, const=c)
            known = ", ".join(sorted(FEATURES))
            raise _Fail(f"unknown feature {value!r} at column {col} (features: {known})")
        raise _Fail(f"unexpected {value or 'end of text'!r} at column {col}")


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its text, the features it reads, and its evaluator.

    ``card_keys`` says what the card engine must tell apart (``("attr", name)``
    for a card attribute, ``("pred", 52 booleans)`` for a predicate on one card),
    ``positions`` which card positions it reads.
    """

    text: str
    features: frozenset[str]
    _evaluate: _Evaluator
    card_keys: frozenset = frozenset()
    positions: frozenset = frozenset()
    groups: frozenset = frozenset()
    requires: tuple = ()

    @classmethod
    def parse(cls, text: str) -> Condition:
        if not isinstance(text, str) or not text.strip():  # type: ignore[redundant-expr]  # checked at run time
            raise BetError("empty condition")
        if len(text) > MAX_LENGTH:
            raise BetError(f"condition of {len(text):,} characters: at most {MAX_LENGTH:,} are accepted")
        try:
            p = _Parser(text)
            node = p.parse()
        except _Fail as e:
            raise BetError(f"condition {_short(text)!r}: {e}") from None
        assert node.fn is not None  # parse() gives a bool node
        return cls(
            text,
            frozenset(p.used),
            node.fn,
            frozenset(p.card_keys),
            frozenset(p.positions),
            frozenset(p.groups),
            node.requires,
        )

    def __and__(self, other: Condition) -> Condition:
        """Both conditions: what each reads, and the ``all(...)`` tests of both."""
        a, b = self, other
        return Condition(
            f"({a.text}) and ({b.text})",
            a.features | b.features,
            lambda f: a.mask(f) & b.mask(f),
            a.card_keys | b.card_keys,
            a.positions | b.positions,
            a.groups | b.groups,
            _combine([a.requires, b.requires], "and"),
        )

    @property
    def card_features(self) -> frozenset[str]:
        """The rank/suit features of the first two cards this condition reads."""
        return self.features & CARD_FEATURES.keys()

    @property
    def reads_cards(self) -> bool:
        """True when the condition reads any card beyond point values (ranks, suits,
        colours, faces, dealt positions, group functions)."""
        return bool(self.card_keys or self.positions)

    def mask(self, features: dict) -> np.ndarray:
        """Evaluate over feature arrays (card features may be scalars); a boolean array."""
        try:
            out = self._evaluate(features)
        except KeyError as e:
            raise BetError(
                f"condition {_short(self.text)!r} reads {e.args[0]}, which is not available here "
                "(rank and suit features need the card engine)"
            ) from None
        return np.broadcast_to(np.asarray(out, dtype=bool), features["winner"].shape)

    def __repr__(self) -> str:
        return f"Condition.parse({self.text!r})"


def _short(text: str, limit: int = 200) -> str:
    """A condition as quoted in a message: long ones are cut."""
    return text if len(text) <= limit else text[:limit] + "..."
