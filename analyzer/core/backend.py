"""The numeric back ends of the exact counts, and the bounds that make each exact.

Every count of the core is an integer combination of products of falling
factorials of the shoe's class counts, ``sum_m coef[e, m] * prod_j (n[idx] - off)``
(:mod:`analyzer.core.engine`, :mod:`analyzer.core.classengine`).  The same sum can be
carried out in several arithmetics; each gives the same integers wherever its bound
holds:

``"python"``
    Python integers, term by term: the reference every other back end is tested
    against; any shoe size.
``"int64"``
    numpy ``int64``: exact when the shoe's ``N (N-1) ... (N-5)`` is at most
    ``2**63 - 1`` (every monomial and partial sum counts ordered deals of distinct
    cards, see :mod:`analyzer.core.engine`).
``"float64"``
    float64 block products (:mod:`analyzer.core.blocks`, :mod:`analyzer.core.classbatch`,
    :mod:`analyzer.core.rankflush`): exact while every intermediate is an integer at
    most ``2**53``, which each plan checks for its shoes (up to 458 cards for the
    catalog's bets).  A card-engine table of more than
    :data:`~analyzer.core.ways.CLASS_BATCH_MAX` class multisets has no float64 plan
    (building one would take minutes and gigabytes): refused by name.
``"residues"``
    the sums modulo primes below ``2**31`` and the Chinese remainder theorem
    (:mod:`analyzer.core.modular`, :meth:`analyzer.core.blocks.BlockPlan.modular_ways`):
    any shoe size.
``"auto"``
    the fastest of these that is exact, chosen per table and per shoe (the default).

A back end asked for by name is used for every count that has a plan in it; a shoe
beyond its bound is refused (:class:`~analyzer.core.errors.BetError`, one line)
rather than counted another way.  A table with no plan in that arithmetic (the pair
engine, :mod:`analyzer.core.cardengine`, has ``int64`` and Python integers only)
is counted with Python integers.

>>> check_backend(None), check_backend("python")
('auto', 'python')
>>> check_backend("gpu")
Traceback (most recent call last):
...
analyzer.core.errors.BetError: unknown back end 'gpu' (choose from auto, python, int64, float64, residues)
"""

from __future__ import annotations

import math

from .errors import BetError

BACKENDS = ("auto", "python", "int64", "float64", "residues")

#: Largest value numpy ``int64`` holds, and the int64 plans' bound in words.
INT64_LIMIT = 2**63 - 1
INT64_BOUND = "N (N-1) ... (N-5) is beyond 2**63 - 1"


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``: ordered ways to take ``k`` of ``n`` distinct cards.

    >>> falling(416, 6), falling(3, 4)
    (4998398275503360, 0)
    """
    if n >= 0:
        return math.perm(n, k)
    out = 1
    for i in range(k):
        out *= n - i
    return out


def check_backend(backend: str | None) -> str:
    """The back end's name (``None`` is ``"auto"``), or a one-line :class:`BetError`."""
    name = "auto" if backend is None else backend
    if name not in BACKENDS:
        raise BetError(f"unknown back end {backend!r} (choose from {', '.join(BACKENDS)})")
    return name


def choose(backend: str, cards: int, plans) -> str:
    """The plan that counts a shoe of ``cards`` cards: the one place a back end is chosen.

    ``plans``: an engine's plans for this shoe, in the order ``"auto"`` prefers them,
    each ``(name, arithmetic, exact, fast, bound)``: ``exact`` whether its bound holds
    for this shoe, ``fast`` whether ``"auto"`` takes it when exact (a plan may be exact
    but slower than the next), ``bound`` the bound in words.  ``"auto"``: the first
    exact and fast plan; ``"python"``: ``"python"``; any other back end: the first of
    its plans that is exact, a refusal (:func:`beyond`) when it has plans but none is
    exact, ``"python"`` when the engine has no plan in that arithmetic.  ``"python"``
    (Python integers, the reference) is always exact.

    >>> plans = [("blocks", "float64", False, True, "up to 458 cards"), ("int64", "int64", True, False, "2**63"),
    ...          ("residues", "residues", True, True, "")]
    >>> choose("auto", 500, plans), choose("int64", 500, plans), choose("python", 500, plans)
    ('residues', 'int64', 'python')
    >>> choose("float64", 500, plans)
    Traceback (most recent call last):
    ...
    analyzer.core.errors.BetError: back end 'float64' cannot count a shoe of 500 cards exactly (up to 458 cards); use back end 'auto' or 'python'
    """  # noqa: E501 (a doctest's expected output is one line)
    if backend == "python":
        return "python"
    if backend == "auto":
        return next((name for name, _, exact, fast, _ in plans if exact and fast), "python")
    own = [(name, exact, bound) for name, arithmetic, exact, _, bound in plans if arithmetic == backend]
    for name, exact, _ in own:
        if exact:
            return name
    if own:
        raise beyond(backend, cards, own[0][2])
    return "python"


def beyond(backend: str, cards: int, bound: str) -> BetError:
    """The refusal of a shoe of ``cards`` cards that ``backend`` cannot count exactly."""
    return BetError(
        f"back end {backend!r} cannot count a shoe of {cards:,} cards exactly "
        f"({bound}); use back end 'auto' or 'python'"
    )
