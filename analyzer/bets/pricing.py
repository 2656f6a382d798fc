"""Price catalog bets on a shoe: :func:`analyze` and the cached :func:`solver`.

The convenience layer over :class:`analyzer.core.solver.Solver`: bets may be
named by catalog id, and solvers are cached by their bets.

>>> from analyzer import Shoe
>>> a = analyze(Shoe.standard(8))
>>> a.deals, a.ways("banker")
(4998398275503360, 2292252566437888)
>>> a.bet("banker").house_edge
Fraction(114753351728, 10847218479825)
"""

from __future__ import annotations

from functools import lru_cache

from ..core.known import Known, parse_known
from ..core.results import Analysis
from ..core.rules import Rules
from ..core.shoe import Shoe
from ..core.solver import Solver
from .catalog import MAIN_BETS, Bet, catalog


def solver(bet_ids=MAIN_BETS, rules: Rules | str | None = None, backend: str | None = None) -> Solver:
    """A cached :class:`Solver` for catalog bets (one id, or a tuple or list of ids; under ``rules``, a
    :class:`Rules` or a built-in name, Punto Banco by default; ``backend``: the arithmetic,
    :mod:`analyzer.core.backend`).  The same arguments give the same solver:

    >>> solver(["banker", "tie"]) is solver(("banker", "tie"))
    True
    """
    if isinstance(rules, str):
        from .rules_files import load_rules

        rules = load_rules(rules)
    return _solver((bet_ids,) if isinstance(bet_ids, str) else tuple(bet_ids), rules, backend)


@lru_cache(maxsize=64)
def _solver(bet_ids: tuple[str, ...], rules: Rules | None = None, backend: str | None = None) -> Solver:
    return Solver(catalog().select(list(bet_ids)), rules=rules, backend=backend)


def analyze(
    shoe: Shoe,
    bets: tuple[str, ...] | list[str] | tuple[Bet, ...] | None = None,
    rules: Rules | str | None = None,
    backend: str | None = None,
    known: Known | dict | list[str] | tuple[str, ...] | str | None = None,
) -> Analysis:
    """Exact odds of ``shoe`` for ``bets`` (catalog ids or :class:`Bet` s; main bets by default)
    under ``rules`` (a :class:`Rules` or a built-in name such as ``"gold"``; Punto Banco by default),
    counted in the arithmetic of ``backend`` (:mod:`analyzer.core.backend`; the same
    integers from each).

    >>> analyze(Shoe.standard(8), backend="python") == analyze(Shoe.standard(8))
    True

    ``known``: cards pinned at dealing positions 1-6 (P1 B1 P2 B2, the fifth and sixth
    cards), as ``--known`` takes them (``["1=9", "5=Kh"]``, ``{1: "9"}`` or a
    :class:`~analyzer.core.known.Known`); the counts are then over the deals that hold
    them (here 32 nines for P1, 31 for B1, then any four of the other 414 cards):

    >>> a = analyze(Shoe.standard(8), known={1: "9", 2: "9"})
    >>> a.deals == 32 * 31 * 414 * 413 * 412 * 411, a.probability("tie") > analyze(Shoe.standard(8)).probability("tie")
    (True, True)
    """
    if isinstance(rules, str):
        from .rules_files import load_rules

        rules = load_rules(rules)
    if rules is not None and rules.is_default:
        rules = None
    if known is not None and not isinstance(known, Known):
        known = parse_known(known if isinstance(known, (dict, list, tuple)) else [known])
    if known:
        chosen = tuple(catalog().bet(b) if isinstance(b, str) else b for b in (bets or MAIN_BETS))
        return _solver_for(chosen, rules, backend, known).solve(shoe)
    if backend not in (None, "auto"):
        chosen = tuple(catalog().bet(b) if isinstance(b, str) else b for b in (bets or MAIN_BETS))
        return _solver_for(chosen, rules, backend).solve(shoe)
    extra = () if rules is None else (rules,)  # the default keeps today's cache keys
    if bets is None:
        return _solver(MAIN_BETS, *extra).solve(shoe)
    given: tuple[str | Bet, ...] = tuple(bets)
    names = tuple(b for b in given if isinstance(b, str))
    if len(names) == len(given):  # catalog ids only
        return _solver(names, *extra).solve(shoe)
    return _solver_for(tuple(catalog().bet(b) if isinstance(b, str) else b for b in given), *extra).solve(shoe)


@lru_cache(maxsize=64)
def _solver_for(
    bets: tuple[Bet, ...], rules: Rules | None = None, backend: str | None = None, known: Known | None = None
) -> Solver:
    return Solver(bets, rules=rules, backend=backend, known=known)
