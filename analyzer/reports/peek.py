"""Decisions after a partial reveal (Peek Baccarat): the exact RTP of the Player and Banker
bets when some of the first four cards are shown and the player may then raise the bet.

The game, as its rules are published (stored pages; quoted):

* bitcoincasino.news/games/peek-baccarat (https://bitcoincasino.news/games/peek-baccarat/):
  "played with eight standard 52-card decks"; "A Peek Fee of 20% will be added to your
  initial bet on the Player and Banker betting spots. For example, if you bet 5 on Player
  or Banker, then a 20% Peek Fee will be applied (value: 1), and your total bet will be
  6."; "The Peek Fee is not applied on the Tie, P Pair, or B Pair betting spots."; "The
  dealer begins by dealing two initial cards to the Player and to the Banker. One to four
  of the dealt cards are revealed, after which the player has the option to double or
  triple their initial bet, or to continue with their initial bet."; "The Peek Fee will
  not be applied to the added value of the doubled or tripled bet."
* win2day.at, "Peek Baccarat Spielbedingungen"
  (https://www.win2day.at/fairplay/spielbedingungen/peekbaccarat-spielbedingungen):
  "Danach werden 1 bis 4 der ausgeteilten Karten aufgedeckt und der Spieler hat die
  Möglichkeit, mit dem Anfangseinsatz weiterzuspielen oder diesen zu verdoppeln bzw. zu
  verdreifachen"; "Im Falle einer Erhöhung wird keine Peek-Gebühr fällig."; pays "Player
  1:1, Banker 0,95:1, Tie 8:1, P Pair 11:1, B Pair 11:1"; "Durchschnittliche
  Ausschüttung: Player: ca. 98,8 %, Banker: ca. 98,8 %, P Pair (Nebeneinsatz): ca.
  89,6 %, ... Tie (Nebeneinsatz): ca. 85,6 %".

Neither source says how many cards are revealed, at which positions, or with what
distribution; a :class:`Reveal` states it (a distribution over the subsets of the
positions P1 B1 P2 B2 shown face up).  Player and Banker are returned on a tie.

The contract.  For a shoe, drawing rules (Punto Banco by default), a reveal rule, a fee
``f`` and a menu of multiples ``x`` of the initial stake (default 1, 2, 3; 1 is always in
it: continuing is always allowed), the player, shown the revealed cards' values, plays the
``x`` that maximises the bet's expected value given them.  The added stake ``x - 1`` has
expectation ``(x - 1) E[net | revealed]`` (the fee is sunk), linear in ``x``: the largest
``x`` when the conditional EV is positive, else 1; when it is exactly 0, 1 is kept (the
count of such situations is reported as ``level``).  Point values decide Player and
Banker, and the remaining cards' values given a revealed card depend on its value only,
so a rank-level shoe is enough and deciding on values is deciding on ranks.

How it is counted, exactly.  For each of the ``10**4`` point-value tuples of the first
four cards, :func:`four_card_counts` holds the ordered six-card deals that start with it
and their split into Player wins, Banker wins and ties: the ordered ways of the four
values, ``prod_v falling(n_v, m_v)``, times the ordered (fifth, sixth) cards of what is
left, each played by :func:`analyzer.core.rules.deal` (the project's one dealing code).
The conditional EV given a revealed subset with its values is a ratio of integer sums
over the tuples that show them.  Reveal probabilities are brought to one denominator
``L``, so every figure of :class:`PeekResult` is an integer over ``deals * L`` (times the
bet's pay denominator for returns); Fractions appear only in its properties.

Two RTP conventions, both reported: ``rtp_paid`` is the expected return over the expected
total paid (initial stake + fee + raises), ``1 - E[loss] / E[paid]``; ``rtp_initial`` is
``1 - E[loss] / (1 + f)``, the expected loss over the initial stake + fee only (a raise's
stake is not counted in the price; the expected return itself over ``1 + f`` would count a
raise's returned stake as a return and pass 100%).

>>> from analyzer import Shoe
>>> counts = four_card_counts(Shoe.standard(8))
>>> counts.deals                                  # falling(416, 6), as analyze() counts them
4998398275503360
>>> r = price(counts, PEEK_BETS["player"], Reveal.fixed(()), PeekGame(fee=Fraction(0)))
>>> r.rtp_paid                                    # no reveal, no fee: the plain Player bet
Fraction(19283843717413, 19524993263685)
>>> r = price(counts, PEEK_BETS["player"], Reveal.uniform(2), PeekGame())   # 2 cards shown
>>> f"{float(r.rtp_paid):.4%}", f"{float(r.rtp_initial):.4%}", f"{float(r.frequency(3)):.4%}"
('98.1446%', '96.8955%', '40.3923%')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..core.engine import falling
from ..core.errors import BaccaratError
from ..core.rules import PUNTO_BANCO, Rules, deal
from ..core.shoe import Shoe

#: The four initial positions, in dealing order.
POSITIONS = ("P1", "B1", "P2", "B2")
#: Every subset of the positions, as sorted tuples of indices 0-3, smallest first.
SUBSETS = tuple(s for k in range(5) for s in itertools.combinations(range(4), k))


class PeekError(BaccaratError):
    """A reveal rule or game that cannot be: a position that does not exist, a fee of 100%..."""


def _index(name: str | int) -> int:
    """A position's index 0-3 from its name (``P1``, ``B1``, ``P2``, ``B2``) or index."""
    if isinstance(name, int) and not isinstance(name, bool):
        if not 0 <= name < 4:
            raise PeekError(f"reveal: position {name} is outside 0-3 (P1 B1 P2 B2)")
        return name
    key = str(name).strip().upper()
    if key not in POSITIONS:
        raise PeekError(f"reveal: {name!r} is not a position (choose from {', '.join(POSITIONS)})")
    return POSITIONS.index(key)


def _positions(names: Iterable[str | int]) -> tuple[int, ...]:
    out: list[int] = []
    for name in names:
        i = _index(name)
        if i in out:
            raise PeekError(f"reveal: {POSITIONS[i]} is given twice")
        out.append(i)
    return tuple(sorted(out))


@dataclass(frozen=True)
class Reveal:
    """Which of the four initial cards are shown: ``((subset, probability), ...)``, each
    subset a sorted tuple of indices 0-3 (P1 B1 P2 B2), probabilities exact and summing to
    1; ``name`` says how it was built.  Build with :meth:`uniform`, :meth:`uniform_count`,
    :meth:`fixed` or :meth:`of`.

    >>> Reveal.uniform(3).subsets[0]
    ((0, 1, 2), Fraction(1, 4))
    >>> len(Reveal.uniform_count(1, 4).subsets), Reveal.fixed(("B2", "P1")).subsets
    (15, (((0, 3), Fraction(1, 1)),))
    >>> Reveal.uniform(5)
    Traceback (most recent call last):
    ...
    analyzer.reports.peek.PeekError: reveal: 5 cards of the four initial ones cannot be shown
    """

    subsets: tuple[tuple[tuple[int, ...], Fraction], ...]
    name: str

    @classmethod
    def of(cls, distribution: Mapping, name: str | None = None) -> Reveal:
        """A distribution ``{subset of position names or indices: probability}``."""
        out: dict[tuple[int, ...], Fraction] = {}
        for subset, p in distribution.items():
            key = _positions(subset)
            q = Fraction(p)
            if q < 0:
                raise PeekError(f"reveal: the probability of {_names(key)} is negative ({q})")
            if q:
                out[key] = out.get(key, Fraction(0)) + q
        total = sum(out.values(), Fraction(0))
        if total != 1:
            raise PeekError(f"reveal: the probabilities sum to {total}, not 1")
        items = tuple(sorted(out.items(), key=lambda kv: (len(kv[0]), kv[0])))
        return cls(items, name or "; ".join(f"{_names(s)} {p}" for s, p in items))

    @classmethod
    def fixed(cls, positions: Iterable[str | int]) -> Reveal:
        """Always the same positions (none: nothing is shown)."""
        key = _positions(positions)
        return cls.of({key: 1}, _names(key) if key else "none")

    @classmethod
    def uniform(cls, k: int) -> Reveal:
        """``k`` cards, a uniformly random ``k``-subset of the four."""
        if not 0 <= k <= 4:
            raise PeekError(f"reveal: {k} cards of the four initial ones cannot be shown")
        subsets = list(itertools.combinations(range(4), k))
        return cls.of({s: Fraction(1, len(subsets)) for s in subsets}, f"{k} card(s), a uniform {k}-subset")

    @classmethod
    def uniform_count(cls, lo: int = 1, hi: int = 4) -> Reveal:
        """``k`` uniform on ``lo .. hi``, then a uniformly random ``k``-subset."""
        if not 0 <= lo <= hi <= 4:
            raise PeekError(f"reveal: {lo}-{hi} is not a range of card counts within 0-4")
        dist: dict[tuple[int, ...], Fraction] = {}
        for k in range(lo, hi + 1):
            for s, p in cls.uniform(k).subsets:
                dist[s] = p / (hi - lo + 1)
        return cls.of(dist, f"k uniform on {lo}-{hi} card(s), then a uniform k-subset")

    def weights(self) -> tuple[int, tuple[tuple[tuple[int, ...], int], ...]]:
        """``(L, ((subset, integer weight), ...))``: the probabilities over one denominator."""
        den = math.lcm(*(p.denominator for _, p in self.subsets))
        return den, tuple((s, int(p * den)) for s, p in self.subsets)


def _names(subset: tuple[int, ...]) -> str:
    return ",".join(POSITIONS[i] for i in subset) if subset else "none"


@dataclass(frozen=True)
class PeekBet:
    """A bet on ``outcome`` (``player`` or ``banker``) paying ``pays`` to 1, returned on a tie."""

    name: str
    outcome: str
    pays: Fraction


#: Peek Baccarat's Player (1:1) and Banker (0.95:1) bets, returned on a tie.
PEEK_BETS = {
    "player": PeekBet("player", "player", Fraction(1)),
    "banker": PeekBet("banker", "banker", Fraction(19, 20)),
}
#: The published average RTPs (win2day.at; bitcoincasino.news gives "RTP: 98.80%"), and the
#: half-width of the rounding to one decimal of a percentage.
PUBLISHED = {"player": Fraction(988, 1000), "banker": Fraction(988, 1000)}
PUBLISHED_ROUNDING = Fraction(5, 10000)
SOURCES = (
    "https://bitcoincasino.news/games/peek-baccarat/",
    "https://www.win2day.at/fairplay/spielbedingungen/peekbaccarat-spielbedingungen",
)


@dataclass(frozen=True)
class PeekGame:
    """The fee (a fraction of the initial stake, paid on top, in ``[0, 1)``) and the menu
    of multiples of the initial stake the player may play after the reveal (whole numbers,
    1 among them).

    >>> PeekGame(raises=(2, 3))
    Traceback (most recent call last):
    ...
    analyzer.reports.peek.PeekError: raises: 1 (continuing with the initial bet) must be one of the choices
    """

    fee: Fraction = Fraction(1, 5)
    raises: tuple[int, ...] = (1, 2, 3)

    def __post_init__(self):
        fee = Fraction(self.fee)
        if not 0 <= fee < 1:
            raise PeekError(f"fee: {fee} is not a fraction of the stake in [0, 1)")
        raises = tuple(sorted(set(self.raises)))
        for x in raises:
            if type(x) is not int or x < 1:
                raise PeekError(f"raises: {x!r} is not a whole multiple of the stake of at least 1")
        if 1 not in raises:
            raise PeekError("raises: 1 (continuing with the initial bet) must be one of the choices")
        object.__setattr__(self, "fee", fee)
        object.__setattr__(self, "raises", raises)


@dataclass(frozen=True)
class FourCardCounts:
    """Per point-value tuple of the first four cards (index ``1000 P1 + 100 B1 + 10 P2 + B2``):
    the ordered six-card deals that start with it (``ways``) and, of them, the Player
    wins, Banker wins and ties; ``deals`` their sum, ``falling(cards, 6)``."""

    ways: tuple[int, ...]
    player: tuple[int, ...]
    banker: tuple[int, ...]
    tie: tuple[int, ...]
    deals: int


@lru_cache(maxsize=4)
def _tails(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(winner, fifth, sixth)``, each of shape ``(10**4, 100)``: every six-value sequence
    dealt by :func:`deal`, rows by the first four values, columns by the fifth and sixth."""
    grid = np.indices((10,) * 6, dtype=np.int64).reshape(6, -1)
    d = deal(rules, *grid)
    return d.winner.astype(np.int64).reshape(10**4, 100), grid[4].reshape(10**4, 100), grid[5].reshape(10**4, 100)


def four_card_counts(shoe: Shoe, rules: Rules = PUNTO_BANCO) -> FourCardCounts:
    """The exact counts of :class:`FourCardCounts` for ``shoe`` (see the module's doctest)."""
    if rules.player_option:
        raise PeekError("peek needs a fixed Player rule, not a Player's option")
    n = shoe.value_counts
    total = shoe.cards
    if total < 6:
        raise PeekError(f"the shoe holds {total} card(s): a coup's six positions need at least 6")
    winner, fifth, sixth = _tails(rules)
    first = np.indices((10,) * 4, dtype=np.int64).reshape(4, -1)
    # m[i, v]: how many of tuple i's four values are v; left = what the shoe holds after them
    m = sum((first[j][:, None] == np.arange(10)[None, :]).astype(np.int64) for j in range(4))
    left = np.asarray(n, dtype=np.int64)[None, :] - m
    rows = np.arange(10**4)[:, None]
    # ordered ways of the fifth and sixth values from what is left (<= cards**2: int64 is exact)
    a = np.maximum(left[rows, fifth], 0)
    b = np.maximum(left[rows, sixth] - (fifth == sixth), 0)
    tail = a * b
    by_winner = [(tail * (winner == w)).sum(axis=1).tolist() for w in range(3)]
    ways, player, banker, tie = [], [], [], []
    for i in range(10**4):
        head = 1
        for v in range(10):
            c = int(m[i, v])
            if c:
                head *= falling(n[v], c)
        ways.append(head * (by_winner[0][i] + by_winner[1][i] + by_winner[2][i]))
        player.append(head * by_winner[0][i])
        banker.append(head * by_winner[1][i])
        tie.append(head * by_winner[2][i])
    deals = sum(ways)
    assert deals == falling(total, 6), (deals, falling(total, 6))
    return FourCardCounts(tuple(ways), tuple(player), tuple(banker), tuple(tie), deals)


def _digits(i: int) -> tuple[int, int, int, int]:
    return i // 1000, i // 100 % 10, i // 10 % 10, i % 10


#: The four values of each tuple index.
_VALUES = tuple(_digits(i) for i in range(10**4))


def _per_tuple(counts: FourCardCounts, bet: PeekBet) -> tuple[list[int], list[int], int]:
    """``(net, gross, scale)``: per tuple, ``scale`` times the bet's net result and its gross
    return (stake included) summed over the tuple's deals, for a stake of 1."""
    scale = bet.pays.denominator
    win = bet.pays.numerator
    mine, other = (counts.player, counts.banker) if bet.outcome == "player" else (counts.banker, counts.player)
    net = [win * w - scale * o for w, o in zip(mine, other)]
    gross = [(scale + win) * w + scale * t for w, t in zip(mine, counts.tie)]
    return net, gross, scale


@dataclass(frozen=True)
class Conditional:
    """Given revealed positions with their values: the deals that show them and ``scale``
    times the bet's net result summed over them (an integer over ``deals * scale``)."""

    deals: int
    net: int
    scale: int

    @property
    def ev(self) -> Fraction:
        return Fraction(self.net, self.deals * self.scale)


def conditional(counts: FourCardCounts, bet: PeekBet, revealed: Mapping[str | int, int]) -> Conditional:
    """The bet's conditional EV given ``revealed`` (position name or index 0-3 -> point value).

    >>> c = conditional(four_card_counts(Shoe.standard(8)), PEEK_BETS["player"], {"P1": 9, "P2": 0})
    >>> c.ev > 0
    True
    """
    _positions(revealed)  # each position once
    want = {_index(k): v for k, v in revealed.items()}
    net, _, scale = _per_tuple(counts, bet)
    deals = total = 0
    for i, vals in enumerate(_VALUES):
        if all(vals[j] == v for j, v in want.items()):
            deals += counts.ways[i]
            total += net[i]
    if not deals:
        raise PeekError("no deal of the shoe shows those values")
    return Conditional(deals, total, scale)


@dataclass(frozen=True)
class PeekResult:
    """A bet's exact figures under a reveal rule and a game.  Integers over
    ``denominator = deals * L`` (``L`` the reveal's common denominator): ``staked`` the sum of
    the multiple played, ``returned`` ``scale`` times the gross return (stakes back and wins),
    ``plain`` the same with no raise; ``played`` the weight of each multiple of the menu;
    ``level`` the weight of revealed situations whose conditional EV is exactly 0 (1 kept)."""

    bet: PeekBet
    reveal: Reveal
    game: PeekGame
    deals: int
    denominator: int
    scale: int
    staked: int
    returned: int
    plain: int
    played: tuple[tuple[int, int], ...]
    level: int

    @property
    def expected_return(self) -> Fraction:
        """The expected gross return per unit of initial stake."""
        return Fraction(self.returned, self.denominator * self.scale)

    @property
    def expected_stake(self) -> Fraction:
        """The expected multiple of the initial stake played."""
        return Fraction(self.staked, self.denominator)

    @property
    def rtp_paid(self) -> Fraction:
        """Expected return / expected total paid (initial stake + fee + raises)."""
        return self.expected_return / (self.expected_stake + self.game.fee)

    @property
    def expected_loss(self) -> Fraction:
        """The expected loss per unit of initial stake: total paid less the return."""
        return self.expected_stake + self.game.fee - self.expected_return

    @property
    def rtp_initial(self) -> Fraction:
        """1 - expected loss / (initial stake + fee): the loss per unit of the initial price."""
        return 1 - self.expected_loss / (1 + self.game.fee)

    @property
    def edge_paid(self) -> Fraction:
        return 1 - self.rtp_paid

    @property
    def edge_initial(self) -> Fraction:
        return 1 - self.rtp_initial

    @property
    def plain_rtp(self) -> Fraction:
        """No raise: expected return / (stake + fee)."""
        return Fraction(self.plain, self.denominator * self.scale) / (1 + self.game.fee)

    def frequency(self, x: int) -> Fraction:
        """How often the multiple ``x`` is played."""
        return Fraction(dict(self.played).get(x, 0), self.denominator)


def price(counts: FourCardCounts, bet: PeekBet, reveal: Reveal, game: PeekGame = PeekGame()) -> PeekResult:
    """The exact result of ``bet`` under ``reveal`` and ``game`` (see the module's doctest)."""
    net, gross, scale = _per_tuple(counts, bet)
    den, weights = reveal.weights()
    top = game.raises[-1]
    staked = returned = level = 0
    played = dict.fromkeys(game.raises, 0)
    for subset, w in weights:
        groups: dict[tuple[int, ...], list[int]] = {}
        for i, vals in enumerate(_VALUES):
            if not counts.ways[i]:
                continue
            g = groups.setdefault(tuple(vals[j] for j in subset), [0, 0, 0])
            g[0] += counts.ways[i]
            g[1] += net[i]
            g[2] += gross[i]
        for deals, n, r in groups.values():
            x = top if n > 0 else 1
            if n == 0:
                level += w * deals
            played[x] += w * deals
            staked += w * x * deals
            returned += w * x * r
    plain = sum(gross) * den
    return PeekResult(
        bet,
        reveal,
        game,
        counts.deals,
        counts.deals * den,
        scale,
        staked,
        returned,
        plain,
        tuple(played.items()),
        level,
    )


def reveal_family() -> tuple[Reveal, ...]:
    """The reveal rules the inverse searches: ``k`` fixed 1-4 with a uniform ``k``-subset, ``k``
    uniform on 1-4, and each fixed non-empty subset of the positions (15)."""
    return (
        *(Reveal.uniform(k) for k in range(1, 5)),
        Reveal.uniform_count(1, 4),
        *(Reveal.fixed(s) for s in SUBSETS if s),
    )


def reproduces(rtp: Fraction, published: Fraction) -> bool:
    """Does ``rtp`` round to ``published`` at one decimal of a percentage (half up)?

    >>> reproduces(Fraction(9875, 10000), Fraction(988, 1000)), reproduces(Fraction(9885, 10000), Fraction(988, 1000))
    (True, False)
    """
    return published - PUBLISHED_ROUNDING <= rtp < published + PUBLISHED_ROUNDING


@dataclass(frozen=True)
class InverseRow:
    """One reveal rule of the family: each bet's result, and which conventions reproduce the
    published Player and Banker figures at once."""

    reveal: Reveal
    results: tuple[PeekResult, ...]
    paid: bool
    initial: bool


def inverse(counts: FourCardCounts, game: PeekGame = PeekGame(), family: Iterable[Reveal] | None = None):
    """Each reveal rule of ``family`` (default :func:`reveal_family`) priced for Player and
    Banker, with whether it reproduces :data:`PUBLISHED` under each RTP convention."""
    rows = []
    for reveal in reveal_family() if family is None else family:
        results = tuple(price(counts, PEEK_BETS[b], reveal, game) for b in ("player", "banker"))
        paid = all(reproduces(r.rtp_paid, PUBLISHED[r.bet.name]) for r in results)
        initial = all(reproduces(r.rtp_initial, PUBLISHED[r.bet.name]) for r in results)
        rows.append(InverseRow(reveal, results, paid, initial))
    return tuple(rows)


CONVENTIONS = ("paid", "initial")


def _rtp(result: PeekResult, convention: str) -> Fraction:
    return result.rtp_paid if convention == "paid" else result.rtp_initial


def miss(results: Iterable[PeekResult], convention: str) -> Fraction:
    """How far the furthest bet's RTP is from rounding to its published figure (0: it does)."""
    out = Fraction(0)
    for r in results:
        x, p = _rtp(r, convention), PUBLISHED[r.bet.name]
        out = max(out, p - PUBLISHED_ROUNDING - x, x - p - PUBLISHED_ROUNDING)
    return out


def mixture(p: Iterable) -> Reveal:
    """``k`` cards with probability ``p[k - 1]`` (k = 1 .. 4), then a uniform ``k``-subset."""
    probs = [Fraction(q) for q in p]
    if len(probs) != 4:
        raise PeekError("a mixture gives P(k) for k = 1, 2, 3, 4")
    dist: dict[tuple[int, ...], Fraction] = {}
    for k, q in enumerate(probs, 1):
        for s, ps in Reveal.uniform(k).subsets:
            dist[s] = q * ps
    text = ", ".join(f"P({k})={q}" for k, q in enumerate(probs, 1) if q)
    return Reveal.of(dist, f"k mixed on 1-4 ({text}), then a uniform k-subset")


@dataclass(frozen=True)
class MixtureAnswer:
    """The distributions of ``k`` over 1-4 (uniform ``k``-subsets) that reproduce the published
    Player and Banker figures at once under ``convention``: the feasible set is a polytope
    (both conditions are linear in ``P(k)``), given by its ``vertices`` (closed bounds);
    ``example`` the vertices' centroid, priced exactly in ``results`` (``None`` when empty),
    and whether those exact RTPs round to the published figures (``reproduces``)."""

    convention: str
    vertices: tuple[tuple[Fraction, ...], ...]
    example: tuple[Fraction, ...] | None
    results: tuple[PeekResult, ...] | None
    reproduces: bool = False

    def range(self, k: int) -> tuple[Fraction, Fraction] | None:
        """The least and the largest ``P(k)`` over the feasible set."""
        if not self.vertices:
            return None
        return min(v[k - 1] for v in self.vertices), max(v[k - 1] for v in self.vertices)


def _solve(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gaussian elimination over Fractions; ``None`` when the system is singular."""
    n = len(rows)
    a = [row[:] + [b] for row, b in zip(rows, rhs)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def mixture_inverse(counts: FourCardCounts, convention: str, game: PeekGame = PeekGame()) -> MixtureAnswer:
    """The mixtures over ``k`` that reproduce :data:`PUBLISHED`, exactly: every vertex of the
    polytope ``{P(k) >= 0, sum 1, lo <= RTP <= hi for both bets}`` (``h . p <= 0`` rows, three
    made active at a time with ``sum p = 1``)."""
    if convention not in CONVENTIONS:
        raise PeekError(f"convention {convention!r} is not one of {', '.join(CONVENTIONS)}")
    per_k = {(k, b): price(counts, PEEK_BETS[b], Reveal.uniform(k), game) for k in range(1, 5) for b in PEEK_BETS}
    rows: list[list[Fraction]] = [[Fraction(-1 if j == i else 0) for j in range(4)] for i in range(4)]
    for b, pub in PUBLISHED.items():
        lo, hi = pub - PUBLISHED_ROUNDING, pub + PUBLISHED_ROUNDING
        r = [per_k[k, b] for k in range(1, 5)]
        if convention == "paid":  # lo <= E[R] / E[paid] <= hi, E linear in p
            rows.append([lo * (x.expected_stake + game.fee) - x.expected_return for x in r])
            rows.append([x.expected_return - hi * (x.expected_stake + game.fee) for x in r])
        else:  # lo <= 1 - E[loss] / (1 + f) <= hi
            rows.append([x.expected_loss - (1 - lo) * (1 + game.fee) for x in r])
            rows.append([(1 - hi) * (1 + game.fee) - x.expected_loss for x in r])
    vertices = set()
    for active in itertools.combinations(range(len(rows)), 3):
        p = _solve([rows[i] for i in active] + [[Fraction(1)] * 4], [Fraction(0)] * 3 + [Fraction(1)])
        if p is not None and all(sum(h * q for h, q in zip(row, p)) <= 0 for row in rows):
            vertices.add(tuple(p))
    ordered = tuple(sorted(vertices))
    if not ordered:
        return MixtureAnswer(convention, (), None, None)
    example = tuple(sum((v[k] for v in ordered), Fraction(0)) / len(ordered) for k in range(4))
    results = tuple(price(counts, PEEK_BETS[b], mixture(example), game) for b in ("player", "banker"))
    return MixtureAnswer(convention, ordered, example, results, miss(results, convention) == 0)
