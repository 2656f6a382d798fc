"""Bets: the condition language, the catalog, pricing and break-even payouts.

Owns: :mod:`.conditions` (the small language of pay-table events, parsed here
and never evaluated as code), :mod:`.catalog` (:class:`Bet`, :class:`Table`,
the built-in catalog in ``data/bets.toml`` and user bet files),
:mod:`.pricing` (:func:`analyze` and the cached :func:`solver`) and
:mod:`.breakeven` (payouts left symbolic with sympy).

May import: :mod:`analyzer.core` and :mod:`analyzer.io`.
"""

from .catalog import MAIN_BETS, Bet, Catalog, Event, Table, catalog, load_bets_file, parse_pays
from .conditions import Condition
from .pricing import analyze, solver

__all__ = [
    "MAIN_BETS",
    "Bet",
    "Catalog",
    "Event",
    "Table",
    "catalog",
    "load_bets_file",
    "parse_pays",
    "Condition",
    "analyze",
    "solver",
]
