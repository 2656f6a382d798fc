"""The features of a coup that bets can read: one registry of names, meanings and reads.

Every feature is a :class:`Feature` in :data:`REGISTRY`: its name, kind, range and
documentation, *what it reads* (the card positions, the attributes of those cards,
whether it depends on the drawing or on the rule set's naturals) and its one
evaluator.  An evaluator reads a :class:`View`, the cards of many coups at once
(``view.attr(position, attribute)``: arrays over the coups), so the coup table of
the value engine (:meth:`analyzer.core.engine.CoupTable.features`), the card
engine's class sequences (:mod:`analyzer.core.classengine`) and the pair engine's
hands (:mod:`analyzer.core.cardengine`) compute a feature the same way.  The
condition language (:mod:`analyzer.bets.conditions`), the routing of the solver
(:mod:`analyzer.core.reads`) and the README's feature table read this registry;
:data:`FEATURES`, :data:`CARD_FEATURES`, :data:`POSITION_FEATURES`,
:data:`SUIT_FEATURES` and :data:`RANGES` are views of it.

>>> FEATURES["player_total"]
('int', "Player's final total 0-9")
>>> sorted(SUIT_FEATURES)[:2]
['banker_suit1', 'banker_suit2']
>>> f = REGISTRY["player_natural"]
>>> f.positions, sorted(f.attrs), f.drawing, f.naturals
(('player_card1', 'player_card2'), ['value'], False, True)
>>> v = Cards({"player_card1": [33, 28], "player_card2": [36, 48]}, naturals={9})   # 9h Ts | 8s Ks
>>> v["player_two_total"].tolist(), v["player_natural"].tolist()     # a two-card 8 is no natural here
([9, 8], [True, False])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

# --- Card positions and groups ---------------------------------------------------
#: Card positions a bet can name.  Hand positions, and dealing positions
#: (``card1..card4`` = P1 B1 P2 B2; ``card5`` and ``card6`` the fifth and sixth
#: cards dealt, which go to whichever hand draws).
HAND_POSITIONS = ("player_card1", "player_card2", "player_card3",
                  "banker_card1", "banker_card2", "banker_card3")
DEAL_POSITIONS = ("card1", "card2", "card3", "card4", "card5", "card6")
#: Positions that always hold a card, by dealing order (index into P1 B1 P2 B2).
FIRST_FOUR = {"player_card1": 0, "banker_card1": 1, "player_card2": 2, "banker_card2": 3,
              "card1": 0, "card2": 1, "card3": 2, "card4": 3}
#: Dealing positions (0-5) a named position can stand at (a hand's third card is the
#: fifth card dealt, or the Banker's the sixth when the Player drew).
DEAL_SLOTS = {**{name: (slot,) for name, slot in FIRST_FOUR.items()},
              "card5": (4,), "card6": (5,), "player_card3": (4,), "banker_card3": (4, 5)}
#: ``(dealing position, whether the Player drew)`` each named position can stand at:
#: ``banker_card3`` is the fifth card only when the Player stood, so it is never
#: ``player_card3``; two names are one card in some deal when these sets meet.
DEAL_SLOTS_BY_DRAW = {**{name: ((slot, False), (slot, True)) for name, slot in FIRST_FOUR.items()},
                      "card5": ((4, False), (4, True)), "card6": ((5, False), (5, True)),
                      "player_card3": ((4, True),), "banker_card3": ((4, False), (5, True))}

#: Groups of cards the counting functions take: name -> positions.
GROUPS: dict[str, tuple[str, ...]] = {
    "player": HAND_POSITIONS[:3],
    "banker": HAND_POSITIONS[3:],
    "first4": DEAL_POSITIONS[:4],
    "all": DEAL_POSITIONS,
}

#: What a card-level predicate reads about one card (in ``count(GROUP, ...)`` etc.).
CARD_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "rank": ("int", "rank, A=1 .. K=13"),
    "suit": ("suit", "suit: spades, hearts, diamonds or clubs"),
    "colour": ("colour", "colour: red (hearts, diamonds) or black (spades, clubs)"),
    "value": ("int", "point value 0-9"),
    "face": ("bool", "a face card: J, Q or K"),
    "ten": ("bool", "a ten"),
}
CARD_RANGES: dict[str, tuple[int, int]] = {"rank": (1, 13), "suit": (0, 3), "colour": (0, 1), "value": (0, 9)}


def card_table() -> dict[str, list[int]]:
    """Attributes of the 52 cards (rank-major, suits s h d c), plus a 53rd entry
    for "no card" (read at index -1): what every card feature is computed from.

    >>> t = card_table()
    >>> t["rank"][:5], t["suit"][:5], t["colour"][4:8], t["face"][40], t["rank"][-1]
    ([1, 1, 1, 1, 2], [0, 1, 2, 3, 0], [1, 0, 0, 1], 1, 0)
    """
    out: dict[str, list[int]] = {k: [] for k in ("rank", "suit", "colour", "value", "face", "ten")}
    for i in range(52):
        rank, suit = i // 4 + 1, i % 4
        out["rank"].append(rank)
        out["suit"].append(suit)
        out["colour"].append(0 if suit in (1, 2) else 1)   # red 0, black 1
        out["value"].append(rank if rank <= 9 else 0)
        out["face"].append(int(rank >= 11))
        out["ten"].append(int(rank == 10))
    for k, none in (("rank", 0), ("suit", -1), ("colour", -1), ("value", -1), ("face", 0), ("ten", 0)):
        out[k].append(none)
    return out


#: The card table as arrays (read only): ``CARD_TABLE[attribute][card]``, card -1 for none.
CARD_TABLE = {k: np.array(v, dtype=np.int64) for k, v in card_table().items()}
for _a in CARD_TABLE.values():
    _a.flags.writeable = False


# --- The registry ------------------------------------------------------------------

@dataclass(frozen=True)
class Feature:
    """One feature of a coup: what it means, what it reads, and how it is computed.

    ``kind``: ``"int"``, ``"bool"``, ``"winner"``, ``"suit"`` or ``"colour"``;
    ``range``: the smallest and largest value of a non-boolean feature (codes for
    ``winner``: player 0, banker 1, tie 2; suits spades 0 .. clubs 3; colours red 0,
    black 1).  ``positions``: the card positions it reads, in order; ``attrs``: what
    it reads of those cards (``value``, ``rank``, ``suit``...; none for ``_dealt``);
    ``drawing``: its value depends on the drawing (totals, the outcome, third cards,
    which cards were dealt); ``naturals``: it reads the rule set's natural totals;
    ``level``: ``"value"`` when point values decide it (the value engine counts it
    over every value sequence), ``"card"`` when it needs ranks or suits.
    ``evaluate(view)``: the feature's array over the coups of a :class:`View`.
    """

    name: str
    kind: str
    doc: str
    positions: tuple[str, ...]
    attrs: frozenset[str]
    drawing: bool
    evaluate: Callable[["View"], np.ndarray]
    range: tuple[int, int] | None = None
    naturals: bool = False
    level: str = "value"

    def __repr__(self) -> str:
        return f"REGISTRY[{self.name!r}]"


class View(dict):
    """The feature arrays of many coups, each computed from :data:`REGISTRY` when
    first read (``view["player_total"]``) and kept.  ``view["card:POSITION"]`` is the
    card (0-51, -1 for none) at a position, for the group functions of the condition
    language.  A subclass says what it holds: :meth:`attr` (the attribute of the card
    at a position, over the coups), :meth:`card`, and ``naturals`` (the rule set's
    natural totals)."""

    naturals: frozenset[int] = frozenset({8, 9})

    def attr(self, position: str, attribute: str) -> np.ndarray:
        raise KeyError(f"{position}_{attribute}")

    def card(self, position: str) -> np.ndarray:
        raise KeyError(f"card:{position}")

    def __missing__(self, name):
        if name.startswith("card:"):
            out = self.card(name[5:])
        elif name in REGISTRY:
            try:
                out = REGISTRY[name].evaluate(self)
            except KeyError:                 # what it reads is not in this view: say which feature
                raise KeyError(name) from None
        else:
            raise KeyError(name)
        self[name] = out
        return out


class Cards(View):
    """A :class:`View` of coups given by their cards: ``cards`` maps positions to
    arrays of cards (0-51, -1 for none); every attribute is read from
    :data:`CARD_TABLE`."""

    def __init__(self, cards: dict, naturals=frozenset({8, 9})):
        super().__init__()
        self._cards = {p: np.asarray(c, dtype=np.int64) for p, c in cards.items()}
        self.naturals = frozenset(naturals)

    def card(self, position: str) -> np.ndarray:
        return self._cards[position]

    def attr(self, position: str, attribute: str) -> np.ndarray:
        card = self._cards[position]
        if attribute == "dealt":
            return card >= 0
        out = CARD_TABLE[attribute][card]
        return out.astype(bool) if attribute in ("face", "ten") else out


REGISTRY: dict[str, Feature] = {}


def _add(name, kind, doc, positions, attrs, drawing, evaluate, range_=None, naturals=False, level="value"):
    REGISTRY[name] = Feature(name, kind, doc, tuple(positions), frozenset(attrs), drawing, evaluate,
                             range_, naturals, level)


def _value(pos):
    return lambda v: v.attr(pos, "value")


def _two_total(hand):
    return lambda v: (v.attr(f"{hand}_card1", "value") + v.attr(f"{hand}_card2", "value")) % 10


def _total(hand):
    def evaluate(v):
        two, third = v[f"{hand}_two_total"], v.attr(f"{hand}_card3", "value")
        return np.where(third >= 0, (two + third) % 10, two).astype(np.int8)
    return evaluate


def _natural(hand):
    return lambda v: np.isin(v[f"{hand}_two_total"], sorted(v.naturals))


def _winner(v):
    pt, bt = v["player_total"], v["banker_total"]
    return np.where(pt > bt, 0, np.where(bt > pt, 1, 2)).astype(np.int8)


_P, _B = HAND_POSITIONS[:3], HAND_POSITIONS[3:]
_TWO = {"player": _P[:2], "banker": _B[:2]}
_NATURAL_DOC = "the rule set's natural totals, 8 or 9 in Punto Banco"

# Point values: computed for every card of the coup.
_add("winner", "winner", "player, banker or tie", HAND_POSITIONS, {"value"}, True, _winner, (0, 2))
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_total", "int", f"{_cap}'s final total 0-9", (_P, _B)[_h == "banker"], {"value"}, True,
         _total(_h), (0, 9))
_add("winning_total", "int", "final total of the winning hand (the tied total on a tie)", HAND_POSITIONS,
     {"value"}, True, lambda v: np.where(v["winner"] == 1, v["banker_total"], v["player_total"]), (0, 9))
_add("margin", "int", "winning total minus losing total, 0-9 (0 on a tie)", HAND_POSITIONS, {"value"}, True,
     lambda v: np.abs(v["player_total"].astype(np.int16) - v["banker_total"]), (0, 9))
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_cards", "int", f"number of cards in {_cap}'s hand, 2 or 3", (f"{_h}_card3",), (), True,
         lambda v, h=_h: (2 + v.attr(f"{h}_card3", "dealt")).astype(np.int8), (2, 3))
_add("cards", "int", "number of cards dealt in the coup, 4-6", (_P[2], _B[2]), (), True,
     lambda v: v["player_cards"] + v["banker_cards"], (4, 6))
_add("natural", "bool", f"either hand's first two cards are a natural ({_NATURAL_DOC})",
     _TWO["player"] + _TWO["banker"], {"value"}, False,
     lambda v: v["player_natural"] | v["banker_natural"], naturals=True)
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_natural", "bool", f"{_cap}'s first two cards total a natural ({_NATURAL_DOC})", _TWO[_h],
         {"value"}, False, _natural(_h), naturals=True)
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_two_total", "int", f"total of {_cap}'s first two cards", _TWO[_h], {"value"}, False,
         _two_total(_h), (0, 9))
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    for _d, _nth in ((1, "first"), (2, "second"), (3, "third")):
        _add(f"{_h}_value{_d}", "int", f"point value of {_cap}'s {_nth} card" + (", -1 if none" if _d == 3 else ""),
             (f"{_h}_card{_d}",), {"value"}, _d == 3, _value(f"{_h}_card{_d}"), (-1 if _d == 3 else 0, 9))
_add("max_value", "int", "highest point value among all cards of the coup", HAND_POSITIONS, {"value"}, True,
     lambda v: np.maximum.reduce([v.attr(p, "value") for p in HAND_POSITIONS]), (0, 9))

#: The point-value features (this first group), as the value engine counts them.
VALUE_FEATURES = tuple(REGISTRY)

# Ranks and suits of the first two cards of each hand.  Ranks are numbered A=1, 2..9,
# T=10, J=11, Q=12, K=13 (write ``K`` or ``13``).
_SAME = {"pair": ("rank",), "suited_pair": ("rank", "suit"), "suited": ("suit",)}
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_pair", "bool", f"{_cap}'s first two cards have the same rank" +
         (" (10-J is not a pair)" if _h == "player" else ""), _TWO[_h], {"rank"}, False,
         lambda v, h=_h: v.attr(f"{h}_card1", "rank") == v.attr(f"{h}_card2", "rank"), level="card")
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_suited_pair", "bool", f"{_cap}'s first two cards have the same rank and suit", _TWO[_h],
         {"rank", "suit"}, False, lambda v, h=_h: v[f"{h}_pair"] & v[f"{h}_suited"], level="card")
for _h, _cap in (("player", "Player"), ("banker", "Banker")):
    _add(f"{_h}_suited", "bool", f"{_cap}'s first two cards have the same suit", _TWO[_h], {"suit"}, False,
         lambda v, h=_h: v.attr(f"{h}_card1", "suit") == v.attr(f"{h}_card2", "suit"), level="card")
_ORDINAL = {1: "first", 2: "second"}
for _a, _kind in (("rank", "int"), ("suit", "suit")):
    for _h, _cap in (("player", "Player"), ("banker", "Banker")):
        for _d in (1, 2):
            if _a == "rank":
                _doc = f"rank of {_cap}'s {_ORDINAL[_d]} card" + (", A=1 .. K=13" if (_h, _d) == ("player", 1) else "")
            else:
                _doc = f"suit of {_cap}'s {_ORDINAL[_d]} card" + (
                    ": spades, hearts, diamonds or clubs" if (_h, _d) == ("player", 1) else "")
            _add(f"{_h}_{_a}{_d}", _kind, _doc, (f"{_h}_card{_d}",), {_a}, False,
                 lambda v, p=f"{_h}_card{_d}", a=_a: v.attr(p, a), (1, 13) if _a == "rank" else (0, 3), level="card")

#: Card features: ranks and suits of the first two cards of each hand (the pair engine's).
CARD_FEATURES: dict[str, tuple[str, str]] = {
    n: (f.kind, f.doc) for n, f in REGISTRY.items() if f.level == "card"}

# Every card of the coup: ``POSITION_ATTRIBUTE``.  A position with no card reads rank 0,
# suit and colour -1, value -1, and false.
#: feature name -> (position, attribute): ``player_card3_rank`` and the like.
POSITION_FEATURES: dict[str, tuple[str, str]] = {
    f"{pos}_{attr}": (pos, attr)
    for pos in HAND_POSITIONS + DEAL_POSITIONS
    for attr in ("rank", "suit", "colour", "value", "face", "ten", "dealt")
}
for _name, (_pos, _attr) in POSITION_FEATURES.items():
    _where = _pos.replace("_", " ")
    _drawn = _pos not in FIRST_FOUR or _attr == "dealt"       # whether it holds a card: the drawing's
    _read = (lambda v, p=_pos, a=_attr: v.attr(p, a))
    if _attr == "dealt":
        _add(_name, "bool", f"{_where} was dealt", (_pos,), (), _drawn, _read, level="card")
        continue
    _kind, _what = CARD_ATTRIBUTES[_attr]
    _range = None
    if _attr in CARD_RANGES:
        _range = (0 if _attr == "rank" else -1, CARD_RANGES[_attr][1])
    _add(_name, _kind, f"{_where}: {_what} (no card: " +
         ("false)" if _kind == "bool" else "0)" if _attr == "rank" else "-1)"), (_pos,), {_attr}, _drawn, _read,
         _range, level="card")

#: feature name -> (kind, description), every feature of :data:`REGISTRY`.
FEATURES: dict[str, tuple[str, str]] = {n: (f.kind, f.doc) for n, f in REGISTRY.items()}

#: Card features that need the shoe's suits.
SUIT_FEATURES = frozenset(k for k in CARD_FEATURES if "suit" in REGISTRY[k].attrs)

#: The smallest and largest value of every non-boolean feature.  The condition
#: language uses these to keep arithmetic exact: a comparison with a number outside
#: a feature's range is decided without computing.
RANGES: dict[str, tuple[int, int]] = {n: f.range for n, f in REGISTRY.items() if f.range is not None}
