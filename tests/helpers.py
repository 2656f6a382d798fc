"""Helpers shared by the test modules (no test module imports another): the log shapes real
simulators write, the card cases of the card engines with their oracle, shoes of many kinds,
the hypothesis strategies of small shoes and card predicates, :func:`baccarat` (the command
line in this process: the ``cli`` fixture's runner, and the one for helpers no fixture
reaches) and :func:`process_env` (the environment of a real ``baccarat`` process).  Fixtures are in
``conftest.py``; the oracles in :mod:`oracle` and :mod:`brute`."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from hypothesis import strategies as st

from analyzer import Shoe
from analyzer.simcheck.logs import CARD_POINT, OUTCOME_NAMES, card_text

# -- the command line ---------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[1]


class Run(NamedTuple):
    """What one ``baccarat`` command did: its exit status, standard output and standard error."""

    code: int
    out: str
    err: str


class _Captured(io.TextIOWrapper):
    """A standard output or error that keeps what is written (UTF-8, no newline translation,
    with a ``buffer`` and an ``encoding`` as a real stream has, as pytest's ``capsys`` gives)."""

    def __init__(self, tty: bool = False):
        super().__init__(io.BytesIO(), encoding="UTF-8", newline="", write_through=True)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty

    def getvalue(self) -> str:
        return self.buffer.getvalue().decode("UTF-8")


def baccarat(*argv, stdin: str | bytes | None = None, tty: bool = False) -> Run:
    """``baccarat ARGV`` in this process, its output captured by redirection: the one in-process
    runner.  A test uses it through the ``cli`` fixture of ``conftest.py``; module-level helpers
    and figures cached across tests (no fixture reaches them) call it directly.  Arguments are
    ``str()``-ed, so paths may be given; ``stdin=`` feeds a standard input; ``tty=True`` makes
    the captured standard error say it is a terminal (where progress bars show)."""
    from analyzer.cli import main
    out, err = _Captured(), _Captured(tty)
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode() if isinstance(stdin, str) else stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in argv])
    finally:
        sys.stdin = old
    return Run(code, out.getvalue(), err.getvalue())


def process_env(**extra: str | None) -> dict:
    """The environment of a real ``baccarat`` process: this one's, with ``EXTRA`` set (a
    variable given as ``None`` is removed) and this checkout first on ``PYTHONPATH``."""
    env = dict(os.environ)
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


RANKS = "A23456789TJQK"
SUITS = "shdc"
CARDS = [r + s for r in RANKS for s in SUITS]
OPS = ("==", "!=", "<", "<=", ">", ">=")


# -- the shapes of simulators' logs (tests/test_shapes.py, tests/test_check_stream.py) ---------
# Each converts a log read by analyzer.simcheck.logs.read_hand_log into the text of one shape.

UNI = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _coups(log):
    for k in range(log.coups):
        p, b = log.hand(k, "player"), log.hand(k, "banker")
        yield log.shoe_ids[log.shoe[k]], p, b, OUTCOME_NAMES[log.outcome[k]]


def _uni(c):
    t = card_text(c)
    return ("10" if t[0] == "T" else t[0]) + UNI.get(t[1:], "")


def _totals(cards):
    return sum(CARD_POINT[c] for c in cards) % 10


def per_card(log):
    lines = ["Shoe No,P1,P2,P3,B1,B2,B3,Winner,Player Total,Banker Total"]
    for s, p, b, o in _coups(log):
        cells = [_uni(c) for c in p] + [""] * (3 - len(p)) + [_uni(c) for c in b] + [""] * (3 - len(b))
        lines.append(",".join([s, *cells, f"{o.title()} win" if o != "tie" else "TIE",
                               str(_totals(p)), str(_totals(b))]))
    return "\n".join(lines) + "\n"


def dashed(log):
    lines = ["shoe,player,banker,outcome"]
    for s, p, b, o in _coups(log):
        lines.append(f"{s},{'-'.join(map(_uni, p))},{'-'.join(map(_uni, b))},{o[0].upper()}")
    return "\n".join(lines) + "\n"


def values(log):
    lines = ["shoe,player,banker,outcome"]
    for s, p, b, o in _coups(log):
        lines.append(f"{s},{' '.join(str(CARD_POINT[c]) for c in p)},{' '.join(str(CARD_POINT[c]) for c in b)},{o}")
    return "\n".join(lines) + "\n"


def _obj(p, b, o):
    return {"player": [card_text(c) for c in p], "banker": " ".join(map(card_text, b)), "outcome": o}


def json_array(log):
    return "[\n" + ",\n".join(json.dumps({"shoe": int(s), **_obj(p, b, o)}) for s, p, b, o in _coups(log)) + "\n]\n"


def json_lines(log):
    return "".join(json.dumps({"Shoe": s, **_obj(p, b, o)}) + "\n" for s, p, b, o in _coups(log))


def json_shoes(log):
    shoes: dict[str, list] = {}
    for s, p, b, o in _coups(log):
        shoes.setdefault(s, []).append(_obj(p, b, o))
    return "".join(json.dumps({"shoe": int(s), "coups": c}) + "\n" for s, c in shoes.items())


def own_names(log):
    lines = ["game,shoe number,pcard1,pcard2,pcard3,bcard1,bcard2,bcard3,who won,player total"]
    for k, (s, p, b, o) in enumerate(_coups(log)):
        cells = [card_text(c) for c in p] + [""] * (3 - len(p)) + [card_text(c) for c in b] + [""] * (3 - len(b))
        lines.append(",".join([str(k), s, *cells, o, str(_totals(p))]))
    return "\n".join(lines) + "\n"


OWN_COLUMNS = ("shoe=shoe number,p1=pcard1,p2=pcard2,p3=pcard3,b1=bcard1,b2=bcard2,b3=bcard3,"
               "outcome=who won,player_total=player total")

SHAPES = [
    ("per-card", per_card, "hands.csv", None, "read as per-card columns, ranks with suits, 1 row per coup"),
    ("dashed", dashed, "hands.csv", None, "read as player and banker columns, ranks with suits, 1 row per coup"),
    ("values", values, "hands.csv", None,
     "read as player and banker columns, point values 0-9 (checked at value level), 1 row per coup"),
    ("json-array", json_array, "hands.json", None,
     "read as player and banker columns, ranks with suits, a JSON array of coup objects"),
    ("json-lines", json_lines, "hands.jsonl", None, None),
    ("json-shoes", json_shoes, "hands.jsonl", None,
     "read as player and banker columns, ranks with suits, JSON Lines, one object per shoe"),
    ("columns", own_names, "hands.csv", OWN_COLUMNS,
     "read as per-card columns, ranks with suits, 1 row per coup"),
]


# -- card cases of the card engines (tests/test_classengine.py, tests/test_classbatch.py) ------
# A condition of the bet language -> the same thing written on the oracle's coup
# (oracle.six_card_tally), independent of the engines; SMALL_CARDS is the shoe every ordered
# deal of which is counted (the ``small_tally`` fixture).

RED = set("hd")


def rank(card):
    return RANKS.index(card[0]) + 1


def dealt(coup):
    """The cards of a coup in dealing order: P1 B1 P2 B2, then the third cards."""
    p, b = coup["player_cards"], coup["banker_cards"]
    return [p[0], b[0], p[1], b[1]] + p[2:] + b[2:]


def value(card):
    return rank(card) if rank(card) < 10 else 0


def of_a_kind(cards):
    return max(Counter(rank(c) for c in cards).values())


def kinds(cards, n):
    return sum(1 for v in Counter(rank(c) for c in cards).values() if v == n)


def straight(cards):
    rs = sorted(rank(c) for c in cards)
    if len(cards) < 3 or len(set(rs)) != len(rs):
        return False
    high = sorted(14 if r == 1 else r for r in rs)
    return rs[-1] - rs[0] == len(rs) - 1 or high[-1] - high[0] == len(rs) - 1


# condition -> the same thing written on the oracle's coup (independent of the engine)
CARD_CASES = {
    "cards == 6 and not player_card3_face and banker_card3_face":
        lambda c: len(dealt(c)) == 6 and rank(c["player_cards"][2]) < 11 and rank(c["banker_cards"][2]) >= 11,
    "all(all, colour == red)": lambda c: all(x[1] in RED for x in dealt(c)),
    "any(banker, colour == black) and winner == player":
        lambda c: any(x[1] not in RED for x in c["banker_cards"]) and c["winner"] == "player",
    "count(all, face) >= 2": lambda c: sum(rank(x) >= 11 for x in dealt(c)) >= 2,
    "count(first4, rank == 7) == 2": lambda c: sum(rank(x) == 7 for x in dealt(c)[:4]) == 2,
    "of_a_kind(all) >= 3": lambda c: of_a_kind(dealt(c)) >= 3,
    "kinds(all, 2) >= 2": lambda c: kinds(dealt(c), 2) >= 2,
    "pairs(player) == 1 and winner == tie": lambda c: kinds(c["player_cards"], 2) == 1 and c["winner"] == "tie",
    "flush([player_card1, player_card2]) and winner == player":
        lambda c: c["player_cards"][0][1] == c["player_cards"][1][1] and c["winner"] == "player",
    "straight(all)": lambda c: straight(dealt(c)),
    "flush(first4) or straight(first4)": lambda c: len({x[1] for x in dealt(c)[:4]}) == 1 or straight(dealt(c)[:4]),
    "flush([card5, card6]) or flush([player_card3])":             # no card or one card: not a flush
        lambda c: len(dealt(c)) == 6 and dealt(c)[4][1] == dealt(c)[5][1],
    "card5_rank == 8 or card6_suit == spades":
        lambda c: (len(dealt(c)) >= 5 and rank(dealt(c)[4]) == 8) or (len(dealt(c)) == 6 and dealt(c)[5][1] == "s"),
    "banker_card3_dealt and banker_card3_colour == player_card1_colour":
        lambda c: len(c["banker_cards"]) == 3 and (c["banker_cards"][2][1] in RED) == (c["player_cards"][0][1] in RED),
    "player_card3_value + banker_card2_value == 9":
        lambda c: len(c["player_cards"]) == 3 and (rank(c["player_cards"][2]) % 10 * (rank(c["player_cards"][2]) < 10)
                                                  + rank(c["banker_cards"][1]) * (rank(c["banker_cards"][1]) < 10)) == 9,
    "count([player_card1, banker_card3], ten) == 1":
        lambda c: (rank(c["player_cards"][0]) == 10) + (len(c["banker_cards"]) == 3 and rank(c["banker_cards"][2]) == 10) == 1,
    "player_pair and banker_total == 7": lambda c: rank(c["player_cards"][0]) == rank(c["player_cards"][1])
                                                   and c["banker_total"] == 7,
    "not any(all, rank == K)": lambda c: all(rank(x) != 13 for x in dealt(c)),
    # point values of the first four cards, counted without the drawing
    "player_two_total == 9 and player_suited":
        lambda c: (value(c["player_cards"][0]) + value(c["player_cards"][1])) % 10 == 9
        and c["player_cards"][0][1] == c["player_cards"][1][1],
    "natural and banker_value1 == 7 and player_card1_face":
        lambda c: max((value(h[0]) + value(h[1])) % 10 for h in (c["player_cards"], c["banker_cards"])) >= 8
        and value(c["banker_cards"][0]) == 7 and rank(c["player_cards"][0]) >= 11,
    "cards == 5 and (all(player, colour == red) and all(banker, colour == black) or all(player, colour == black)"
    " and all(banker, colour == red))":
        lambda c: len(dealt(c)) == 5 and len({x[1] in RED for x in c["player_cards"]}) == 1
        and len({x[1] in RED for x in c["banker_cards"]}) == 1
        and (c["player_cards"][0][1] in RED) != (c["banker_cards"][0][1] in RED),
    "all(player, face or rank == 7) or all([card1, card2], ten)":
        lambda c: all(rank(x) >= 11 or rank(x) == 7 for x in c["player_cards"])
        or all(rank(x) == 10 for x in dealt(c)[:2]),
}

SMALL_CARDS = "Ah 2s 7c 7h 7s 8d Kc Js Kh Th"   # 10 cards: repeated ranks, suits and values


# -- shoes and the card engine's own count (tests/test_rankflush.py, tests/test_classbatch.py) -

def product_path(tab, shoe):
    """The card engine's own count (one product per multiset of cards, Python integers)."""
    return tab.ways(shoe, backend="python")


def varied_shoes(seed: int) -> list[Shoe]:
    """Full, depleted (at random, from ``seed``), one-suit and very large shoes."""
    rng = random.Random(seed)
    out = [Shoe.standard(8), Shoe.standard(1), Shoe.standard(6).remove("As Ah Ad Ac Ks Kh")]
    for decks in (1, 2, 8):
        full = [c for c in CARDS for _ in range(decks)]
        out += [Shoe.standard(decks).remove(rng.sample(full, rng.randint(0, 52 * decks - 6))) for _ in range(6)]
    out.append(Shoe.from_counts({"Ah": 3, "Kh": 2, "Qh": 1, "Jh": 1, "Th": 1}))     # one suit only
    out.append(Shoe.standard(10_000).remove("Ah Kd"))                             # Python integers
    return out


# -- hypothesis strategies (tests/test_differential.py, tests/test_fuzz_cells_known_groups.py) -

@st.composite
def card_predicate(draw, depth=0):
    """A test of one card inside count(...), all(...), any(...)."""
    atoms = [
        st.builds(lambda op, r: f"rank {op} {r}", st.sampled_from(OPS), st.integers(1, 13)),
        st.builds(lambda op, v: f"value {op} {v}", st.sampled_from(OPS), st.integers(0, 9)),
        st.builds(lambda s: f"suit == {s}", st.sampled_from(["spades", "hearts", "diamonds", "clubs"])),
        st.builds(lambda c: f"colour == {c}", st.sampled_from(["red", "black"])),
        st.sampled_from(["face", "ten", "not face", "not 0 <= value"]),
    ]
    text = draw(st.one_of(atoms))
    if depth < 1 and draw(st.booleans()):
        text = f"({text} {draw(st.sampled_from(['and', 'or']))} {draw(card_predicate(depth + 1))})"
    return text


@st.composite
def small_shoe(draw, min_cards=7, max_cards=10):
    """Physical cards (0-51, a card may repeat; ranks and suits may be missing)."""
    ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=5, unique=True))
    cards = draw(st.lists(st.sampled_from([4 * r + s for r in ranks for s in range(4)]),
                          min_size=min_cards, max_size=max_cards))
    return tuple(sorted(cards))


def shoe_of(cards) -> Shoe:
    counts = [0] * 52
    for c in cards:
        counts[c] += 1
    return Shoe(None, counts)
