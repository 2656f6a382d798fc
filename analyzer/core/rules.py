"""The Punto Banco drawing rules, as data.

The Banker's third-card rule is kept as a literal table shaped like the printed
one (``RULES.md``): for each Banker two-card total, the point values of Player's
third card on which Banker draws, and those on which it stands.  Everything else
in the package derives from it: :data:`BANKER_DRAWS` is the same table as a
10 x 10 grid, a :class:`Rules` value is a tableau as data, and :func:`deal` is
the one place the tableau is played: it deals coups from point values, any number
at once (numpy arrays); :func:`play_coup` is one of them.

>>> play_coup([2, 4, 3, 2, 7, 2])      # P 2,3 then 7; B 4,2 then 2 -> Banker 8 wins
Coup(player=(2, 3, 7), banker=(4, 2, 2), player_total=2, banker_total=8, winner='banker')
>>> banker_draws(3, 8), banker_draws(3, 9), banker_draws(6, None)
(False, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from typing import Any, NamedTuple

import numpy as np

from .errors import BaccaratError

#: Banker's rule when Player drew a third card, as printed:
#: (Banker two-card totals, Banker draws when Player's third card is, Banker stands when it is)
BANKER_RULE_TABLE: tuple[tuple[tuple[int, ...], str, str], ...] = (
    ((0, 1, 2), "any", "-"),
    ((3,), "0-7, 9", "8"),
    ((4,), "2-7", "0, 1, 8, 9"),
    ((5,), "4-7", "0-3, 8, 9"),
    ((6,), "6, 7", "0-5, 8, 9"),
    ((7,), "never", "always"),
)

NATURAL_TOTALS = (8, 9)  # a two-card 8 or 9 ends the coup
PLAYER_DRAWS_ON = range(6)  # Player draws on 0-5, stands on 6-7
BANKER_DRAWS_ON_IF_PLAYER_STOOD = range(6)


def parse_values(text: str) -> frozenset[int]:
    """Read a cell of the printed table: ``"0-3, 8, 9"`` -> {0, 1, 2, 3, 8, 9}.

    >>> sorted(parse_values("0-3, 8, 9")), sorted(parse_values("never"))
    ([0, 1, 2, 3, 8, 9], [])
    """
    text = text.strip()
    if text in ("any", "always"):
        return frozenset(range(10))
    if text in ("-", "never"):
        return frozenset()
    return frozenset(v for lo, hi in _ranges(text) for v in range(lo, hi + 1))


def _ranges(text: str):
    """The ``(lo, hi)`` of each item of ``"0-3, 8, 9"``."""
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        yield int(lo), int(hi or lo)


def _grid() -> tuple[tuple[bool, ...], ...]:
    rows: dict[int, frozenset[int]] = {}
    for totals, draws, stands in BANKER_RULE_TABLE:
        d, s = parse_values(draws), parse_values(stands)
        if d & s or (d | s) != frozenset(range(10)):
            raise AssertionError(f"banker rule row {totals} does not split 0-9: {draws!r} / {stands!r}")
        for t in totals:
            rows[t] = d
    # Banker 8 and 9 are naturals: the coup is over before any third card.
    return tuple(tuple(p in rows.get(b, frozenset()) for p in range(10)) for b in range(10))


#: ``BANKER_DRAWS[banker_total][player_third_card_value]``: True when Banker draws.
BANKER_DRAWS: tuple[tuple[bool, ...], ...] = _grid()


def hand_total(values: Sequence[int]) -> int:
    """Baccarat total: last digit of the sum of point values."""
    return sum(values) % 10


def is_natural(total: int) -> bool:
    return total in NATURAL_TOTALS


def player_draws(player_total: int) -> bool:
    """Player (no natural on either side) draws on 0-5."""
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None, rules: Rules | None = None) -> bool:
    """Does Banker (no natural on either side) draw?

    ``player_third`` is the point value of Player's third card, or ``None`` if
    Player stood.  ``rules``: a :class:`Rules` (default: Punto Banco).
    """
    if rules is not None:
        if player_third is None:
            return banker_total in rules.banker_if_player_stood
        return rules.banker[banker_total][player_third]
    if player_third is None:
        return banker_total in BANKER_DRAWS_ON_IF_PLAYER_STOOD
    return BANKER_DRAWS[banker_total][player_third]


@dataclass(frozen=True)
class Coup:
    """One coup: the point values of each hand in dealt order, totals and winner."""

    player: tuple[int, ...]
    banker: tuple[int, ...]
    player_total: int
    banker_total: int
    winner: str  # "player", "banker" or "tie"

    @property
    def cards_used(self) -> int:
        return len(self.player) + len(self.banker)

    @property
    def natural(self) -> bool:
        return (
            len(self.player) == 2
            and len(self.banker) == 2
            and (is_natural(hand_total(self.player)) or is_natural(hand_total(self.banker)))
        )


def play_coup(values: Iterable[int], rules: Rules | None = None) -> Coup:
    """Deal a coup from point values in shoe order (P, B, P, B, then third cards).

    Needs at least as many values as the coup uses (4 to 6), or a ``ValueError``
    ("not enough cards to finish the coup"); extra ones are ignored.  The fifth card
    goes to whichever hand draws first.  ``rules``: a :class:`Rules` (default: Punto
    Banco).  The coup is one element of :func:`deal` (the values it does not reach
    are dealt as 0, and read by nothing).
    """
    vals = list(islice(values, 6))
    if len(vals) >= 4:
        d = deal(rules or PUNTO_BANCO, *vals, *[0] * (6 - len(vals)))
        if d.cards <= len(vals):
            player = (vals[0], vals[2]) + ((int(d.player_third),) if d.player_drew else ())
            banker = (vals[1], vals[3]) + ((int(d.banker_third),) if d.banker_drew else ())
            return Coup(player, banker, int(d.player_total), int(d.banker_total), WINNERS[d.winner])
    raise ValueError("not enough cards to finish the coup")


#: The winner codes of :func:`deal`: ``WINNERS[code]`` names the winner.
WINNERS = ("player", "banker", "tie")

#: ``WINNER_CODE[10 * player_total + banker_total]``: the higher final total wins, equal is a tie.
WINNER_CODE = np.array(
    [WINNERS.index("player" if p > b else "banker" if b > p else "tie") for p in range(10) for b in range(10)],
    dtype=np.int8,
)
WINNER_CODE.flags.writeable = False


def winner_codes(player_total, banker_total):
    """The winner of final totals (integer arrays, or integers), coded as :data:`WINNERS`:
    0 Player, 1 Banker, 2 tie; ``int8``.

    >>> winner_codes(np.array([7, 2, 6]), np.array([3, 8, 6])).tolist()
    [0, 1, 2]
    """
    return WINNER_CODE[10 * player_total + banker_total]


class Deal(NamedTuple):
    """What :func:`deal` deals: one field per fact, each an array over the coups (or one
    scalar per fact for one coup).  The flags are booleans; totals and values are
    integers of the values' type (``int8`` values give ``int8``); ``winner`` and
    ``cards`` are ``int8``."""

    # Any: each field is an array or a numpy scalar, as the values given are.
    player_two: Any  # Player's two-card total 0-9
    banker_two: Any
    player_natural: Any  # the two-card total is a natural of the rule set
    banker_natural: Any
    natural: Any  # either is: nobody draws
    player_drew: Any  # the hand drew a third card
    banker_drew: Any
    player_third: Any  # the point value of the hand's third card, -1 for none
    banker_third: Any
    player_total: Any  # final totals 0-9
    banker_total: Any
    winner: Any  # 0 Player, 1 Banker, 2 tie (:data:`WINNERS`)
    cards: Any  # cards the coup uses, 4-6


def deal(rules: Rules, p1, b1, p2, b2, c5, c6, player_draws=None) -> Deal:
    """Deal coups by ``rules`` from point values 0-9 in shoe order: Player, Banker,
    Player, Banker, then the fifth and sixth cards, which go to whichever hand draws
    (the Player first).

    Each value is an integer numpy array (all of one shape: one coup per element)
    or one integer (one coup: each field a scalar).  A card the coup does not
    use is read by nothing.  A natural of the rule set (a two-card total in
    ``rules.naturals``, either hand) ends the coup; otherwise the Player draws by
    ``rules.player_grid`` and the Banker by ``rules.banker`` (the Player drew: on the
    point value of the Player's third card) or ``rules.banker_if_player_stood``.

    ``player_draws`` (booleans, optional): whether the Player draws, in place of the
    Player's rule (a log replayed, a Player who chose); a natural still ends the coup,
    and the Banker acts on what the Player did.

    >>> d = deal(PUNTO_BANCO, 2, 4, 3, 2, 7, 2)      # P 2,3 then 7; B 4,2 then 2
    >>> int(d.player_third), int(d.banker_third), int(d.player_total), int(d.banker_total)
    (7, 2, 2, 8)
    >>> d = deal(PUNTO_BANCO, *np.array([[2, 4, 3, 2, 7, 2], [4, 2, 4, 5, 0, 0], [3, 4, 3, 1, 9, 9]]).T)
    >>> d.winner.tolist(), d.cards.tolist(), d.natural.tolist(), d.banker_third.tolist()
    ([1, 0, 0], [6, 4, 5], [False, True, False], [2, -1, 9])
    """
    # The tables are 0/1 integers and every step an integer expression, so that one
    # statement deals arrays and a single coup alike: arrays index the tables as numpy
    # arrays, one coup as bytes (Python integers: as fast as a coup written for one).
    natural_at, player_rule, banker_rule = (
        (np.frombuffer(t, dtype=np.int8) for t in rules.lookup) if isinstance(p1, np.ndarray) else rules.lookup
    )
    p_two = (p1 + p2) % 10
    b_two = (b1 + b2) % 10
    p_natural = natural_at[p_two]
    b_natural = natural_at[b_two]
    open_ = (1 - p_natural) * (1 - b_natural)  # 1 when neither hand has a natural
    p_drew = open_ * (player_rule[10 * p1 + p2] if player_draws is None else player_draws)
    p_third = p_drew * (c5 + 1) - 1  # c5 if the Player drew, else -1
    b_drew = open_ * banker_rule[11 * b_two + 1 + p_third]  # (1 + p_third == 0: the Player stood)
    b_card = c5 + p_drew * (c6 - c5)  # c6 if the Player drew, else c5
    b_third = b_drew * (b_card + 1) - 1
    p_total = (p_two + p_drew * c5) % 10
    b_total = (b_two + b_drew * b_card) % 10
    return Deal(
        p_two,
        b_two,
        p_natural == 1,
        b_natural == 1,
        open_ == 0,
        p_drew == 1,
        b_drew == 1,
        p_third,
        b_third,
        p_total,
        b_total,
        winner_codes(p_total, b_total),
        4 + p_drew + b_drew,
    )


# -- rule sets as data ---------------------------------------------------------------


class RulesError(BaccaratError):
    """A rules file or rule set that cannot be used (one-line message)."""


def format_values(values) -> str:
    """The inverse of :func:`parse_values` for a draws cell: ``{0..7, 9}`` -> ``"0-7, 9"``.

    >>> format_values(range(10)), format_values([]), format_values([0, 1, 2, 3, 8, 9])
    ('any', 'never', '0-3, 8, 9')
    """
    vals = sorted(set(values))
    if vals == list(range(10)):
        return "any"
    if not vals:
        return "never"
    parts, start = [], vals[0]
    for prev, cur in zip(vals, vals[1:] + [None]):
        if cur != prev + 1:
            parts.append(
                str(start) if start == prev else f"{start}, {prev}" if prev == start + 1 else f"{start}-{prev}"
            )
            start = cur
    return ", ".join(parts)


def _stands_text(draws: frozenset[int]) -> str:
    rest = frozenset(range(10)) - draws
    return "-" if not rest else "always" if len(rest) == 10 else format_values(rest)


@dataclass(frozen=True)
class Rules:
    """A drawing tableau, as data: frozen and hashable (engines are cached per value).

    ``banker`` is the 10 x 10 grid ``banker[banker_total][player_third_value]``
    (rows of natural totals are never read).  ``player_option`` lists the
    Player two-card totals on which the Player may choose; ``player_draws``
    says what the Player does when nobody chooses.  ``player_hands`` overrides
    ``player_draws`` per two-card hand: ``((v1, v2), draws)`` with ``v1 <= v2``
    the hand's point values.  ``name`` is a label only: two rule sets with
    the same tableau are equal.
    """

    naturals: frozenset[int]
    player_draws: frozenset[int]
    banker: tuple[tuple[bool, ...], ...]
    banker_if_player_stood: frozenset[int]
    player_option: frozenset[int] = frozenset()
    player_hands: tuple[tuple[tuple[int, int], bool], ...] = ()
    name: str = field(default="custom", compare=False)

    @property
    def is_default(self) -> bool:
        return self == PUNTO_BANCO

    def __repr__(self) -> str:
        """How to get this rule set back for a built-in one (or a built-in one's fixed
        Player option), else the one line of :meth:`describe`.

        >>> GOLD, GOLD.with_player_option("draw"), PUNTO_BANCO
        (load_rules('gold'), load_rules('gold').with_player_option('draw'), load_rules('punto_banco'))
        """
        for builtin in BUILTIN_RULES.values():
            if self.name == builtin.name and self == builtin:
                return f"load_rules({builtin.name!r})"
            for choice in ("draw", "stand") if builtin.player_option else ():
                fixed = builtin.with_player_option(choice)
                if self.name == fixed.name and self == fixed:
                    return f"load_rules({builtin.name!r}).with_player_option({choice!r})"
        return f"<Rules {self.describe()}>"

    def key(self) -> tuple:
        """The tableau as plain values, injective: two rule sets have equal keys exactly
        when they are equal (the ``name``, a label, is left out).  What a stored table's
        name is built from (:func:`analyzer.core.solver.stored_key`), not the ``repr``.

        >>> PUNTO_BANCO.key()[:2], PUNTO_BANCO.key() == GOLD.key()
        (((8, 9), (0, 1, 2, 3, 4, 5)), False)
        """
        return (
            tuple(sorted(self.naturals)),
            tuple(sorted(self.player_draws)),
            self.banker,
            tuple(sorted(self.banker_if_player_stood)),
            tuple(sorted(self.player_option)),
            self.player_hands,
        )

    @cached_property
    def player_grid(self) -> tuple[tuple[bool, ...], ...]:
        """``grid[v1][v2]``: does the Player (no natural) draw holding point values v1, v2?"""
        hands = dict(self.player_hands)
        return tuple(
            tuple(hands.get((min(a, b), max(a, b)), (a + b) % 10 in self.player_draws) for b in range(10))
            for a in range(10)
        )

    @cached_property
    def lookup(self) -> tuple[bytes, bytes, bytes]:
        """The tableau as the flat tables :func:`deal` reads, one byte a cell (1 yes, 0 no):
        ``natural[t]``: a two-card total ``t`` is a natural; ``player[10 * v1 + v2]``:
        :attr:`player_grid`; ``banker[11 * t + k]``: the Banker on ``t`` draws when the
        Player stood (``k = 0``, :attr:`banker_if_player_stood`) or drew a third card of
        point value ``p`` (``k = 1 + p``, :attr:`banker`)."""
        return (
            bytes(t in self.naturals for t in range(10)),
            bytes(cell for row in self.player_grid for cell in row),
            bytes(cell for t, row in enumerate(self.banker) for cell in (t in self.banker_if_player_stood,) + row),
        )

    def banker_rows(self) -> tuple[tuple[tuple[int, ...], str, str], ...]:
        """The Banker table shaped like :data:`BANKER_RULE_TABLE` (consecutive equal rows merged)."""
        rows: list[tuple[list[int], frozenset[int]]] = []
        for b in range(10):
            if b in self.naturals:
                continue
            draws = frozenset(p for p in range(10) if self.banker[b][p])
            if rows and rows[-1][1] == draws and rows[-1][0][-1] == b - 1:
                rows[-1][0].append(b)
            else:
                rows.append(([b], draws))
        return tuple((tuple(t), format_values(d), _stands_text(d)) for t, d in rows)

    def with_player_option(self, choice: str) -> Rules:
        """``draw`` or ``stand`` on every total of :attr:`player_option` (``best`` needs a
        shoe: :func:`analyzer.core.choice.best_rules`)."""
        if not self.player_option:
            raise RulesError(
                f"rule set {self.name!r} offers the Player no option (its rules file has no player_option)"
            )
        if choice not in ("draw", "stand"):
            raise RulesError(f"unknown --player-option {choice!r} (choose from draw, stand, best)")
        opt = self.player_option
        draws = (self.player_draws | opt) if choice == "draw" else (self.player_draws - opt)
        return Rules(
            self.naturals,
            draws,
            self.banker,
            self.banker_if_player_stood,
            name=f"{self.name}, Player {'draws' if choice == 'draw' else 'stands'} on {format_values(opt)}",
        )

    def describe(self) -> str:
        """One line for a report header."""
        naturals = f"naturals {'/'.join(map(str, sorted(self.naturals)))}" if self.naturals else "no naturals"
        return (
            f"{self.name} ({naturals}, Player draws on "
            f"{format_values(self.player_draws)}"
            + (f", may choose on {format_values(self.player_option)}" if self.player_option else "")
            + (f", by hand on {len(self.player_hands)} two-card hands" if self.player_hands else "")
            + "; Banker: "
            + "; ".join(
                f"{','.join(map(str, t))} " + ("draws" if d == "any" else "stands" if d == "never" else f"draws on {d}")
                for t, d, _ in self.banker_rows()
            )
            + f"; when the Player stood, on {format_values(self.banker_if_player_stood)})"
        )


_VALUE_CELL = re.compile(r"\s*(any|always|never|-|[0-9]+(\s*-\s*[0-9]+)?(\s*,\s*[0-9]+(\s*-\s*[0-9]+)?)*)\s*")


def parse_cell(text, where: str) -> frozenset[int]:
    """A cell of a rules file: ``"0-3, 8, 9"``, ``"any"``, ``"never"``, ``"-"``, or a list of
    totals; every total 0-9, or a :class:`RulesError` naming ``where``."""
    if isinstance(text, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in text):
            raise RulesError(f"{where}: a list of totals must hold whole numbers, got {text!r}")
        vals = set(text)
    elif isinstance(text, int) and not isinstance(text, bool):
        vals = {text}
    elif isinstance(text, str) and _VALUE_CELL.fullmatch(text):
        t = text.strip()
        if t not in ("any", "always", "never", "-"):
            spans = list(_ranges(t))
            backwards = [f"{lo}-{hi}" for lo, hi in spans if hi < lo]
            if backwards:
                raise RulesError(f"{where}: range {backwards[0]!r} runs backwards")
            # checked before a range is spelt out: "2-99999999999999999999" is one line, not 2 GB
            bad = sorted(max(lo, 10) for lo, hi in spans if hi > 9)  # the smallest total beyond 9
            if bad:
                raise RulesError(f"{where}: total {bad[0]} is outside 0-9")
        vals = set(parse_values(t))
    else:
        raise RulesError(f'{where}: expected totals like "0-5" or "0-3, 8, 9", got {text!r}')
    bad = sorted(v for v in vals if not 0 <= v <= 9)
    if bad:
        raise RulesError(f"{where}: total {bad[0]} is outside 0-9")
    return frozenset(vals)


RULES_KEYS = ("name", "naturals", "player_draws", "player_option", "banker", "banker_if_player_stood")
REQUIRED_KEYS = ("player_draws", "banker", "banker_if_player_stood")


def rules_from_mapping(doc: dict, source: str = "rules") -> Rules:
    """A :class:`Rules` from a parsed rules document (the TOML shape of docs/rules.md)."""
    if not isinstance(doc, dict):
        raise RulesError(f"{source}: a rules document is a table of keys")
    unknown = [k for k in doc if k not in RULES_KEYS]
    if unknown:
        raise RulesError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(RULES_KEYS)})")
    missing = [k for k in REQUIRED_KEYS if k not in doc]
    if missing:
        raise RulesError(f"{source}: missing key {missing[0]!r}")
    name = doc.get("name", "custom")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        raise RulesError(f"{source}: name must be a short string")
    naturals = parse_cell(doc.get("naturals", [8, 9]), f"{source}: naturals")
    player = parse_cell(doc["player_draws"], f"{source}: player_draws") - naturals
    option = parse_cell(doc.get("player_option", []), f"{source}: player_option")
    if option & naturals:
        raise RulesError(f"{source}: player_option {format_values(option & naturals)} is a natural total")
    stood = parse_cell(doc["banker_if_player_stood"], f"{source}: banker_if_player_stood") - naturals
    table = doc["banker"]
    if not isinstance(table, dict):
        raise RulesError(
            f'{source}: banker must be a table of rows (\'"0, 1, 2" = {{ draws = "any", stands = "-" }}\')'
        )
    grid = [[False] * 10 for _ in range(10)]
    seen: dict[int, str] = {}
    for key, row in table.items():
        where = f"{source}: banker row {key!r}"
        totals = parse_cell(key, where)
        if not totals:
            raise RulesError(f"{where}: names no Banker total")
        if not isinstance(row, dict):
            raise RulesError(f"{where}: expected {{ draws = ..., stands = ... }}")
        extra = [k for k in row if k not in ("draws", "stands")]
        if extra:
            raise RulesError(f"{where}: unknown key {extra[0]!r} (known: draws, stands)")
        if "draws" not in row:
            raise RulesError(f"{where}: missing key 'draws'")
        draws = parse_cell(row["draws"], f"{where}: draws")
        if "stands" in row:
            stands = parse_cell(row["stands"], f"{where}: stands")
            if draws & stands:
                raise RulesError(f"{where}: Player's third card {min(draws & stands)} is in both draws and stands")
            if (draws | stands) != frozenset(range(10)):
                raise RulesError(
                    f"{where}: draws and stands leave Player's third card "
                    f"{min(frozenset(range(10)) - draws - stands)} out"
                )
        for t in sorted(totals):
            if t in naturals:
                raise RulesError(f"{where}: extra row: Banker {t} is a natural (the coup is over)")
            if t in seen:
                raise RulesError(f"{where}: extra row: Banker {t} is already in row {seen[t]!r}")
            seen[t] = key
            grid[t] = [p in draws for p in range(10)]
    missing_rows = [t for t in range(10) if t not in naturals and t not in seen]
    if missing_rows:
        raise RulesError(f"{source}: banker: missing row for Banker total {missing_rows[0]}")
    return Rules(naturals, player, tuple(tuple(r) for r in grid), stood, option, name=name.strip())


def _builtin_punto_banco() -> Rules:
    return Rules(
        frozenset(NATURAL_TOTALS),
        frozenset(PLAYER_DRAWS_ON),
        BANKER_DRAWS,
        frozenset(BANKER_DRAWS_ON_IF_PLAYER_STOOD),
        name="punto_banco",
    )


#: Today's rules, the default everywhere.
PUNTO_BANCO = _builtin_punto_banco()

#: Baccarat Gold (Wizard of Odds, "Baccarat Gold", wizardofodds.com/games/baccarat/gold/):
#: when the Player drew, the Banker with 0-3 always draws, with 4 or 5 draws only on a
#: Player's third card of 3-7, with 6 or 7 stands; when the Player stood, as in Punto
#: Banco.  The Player draws on 0-5 and may choose on 5.
GOLD = rules_from_mapping(
    {
        "name": "gold",
        "naturals": "8, 9",
        "player_draws": "0-5",
        "player_option": "5",
        "banker_if_player_stood": "0-5",
        "banker": {
            "0-3": {"draws": "any", "stands": "-"},
            "4, 5": {"draws": "3-7", "stands": "0-2, 8, 9"},
            "6, 7": {"draws": "never", "stands": "always"},
        },
    },
    "gold",
)

BUILTIN_RULES = {"punto_banco": PUNTO_BANCO, "gold": GOLD}
