"""baccarat-analyzer: exact odds of Punto Banco baccarat on any finite shoe.

>>> from analyzer import Shoe, analyze
>>> a = analyze(Shoe.standard(decks=8))
>>> a.ways("player"), a.ways("banker"), a.ways("tie"), a.deals
(2230518282592256, 2292252566437888, 475627426473216, 4998398275503360)

Rules and known cards are values too:

>>> gold = load_rules("gold")
>>> analyze(Shoe.standard(8), rules=gold, known=["1=9"]).rules == gold
True

The package is layered; each layer imports only those before it::

    core  <-  io  <-  bets  <-  reports  <-  simcheck, studies  <-  cli

This module re-exports the public names of :mod:`analyzer.core` and
:mod:`analyzer.bets`, and :class:`~analyzer.reports.odds_plan.OddsPlan` (the odds of many
shoes under one choice of bets and rules, as ``baccarat odds`` computes them).  Each is
imported when first read (PEP 562), so that ``import analyzer.cli`` costs only what the
command uses, and the command line can set up the process (one BLAS thread) before numpy
loads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker reads (re-exports); at run time, __getattr__ below
    from .bets.catalog import MAIN_BETS, Bet, Catalog, Event, Table, catalog, load_bets_file, parse_pays  # noqa: F401
    from .bets.conditions import Condition  # noqa: F401
    from .bets.pricing import analyze, solver  # noqa: F401
    from .bets.rules_files import load_rules  # noqa: F401
    from .core.cards import POINTS, RANKS, SUITS, parse_card, parse_cards  # noqa: F401
    from .core.errors import BaccaratError, BetError, CardError, ShoeError  # noqa: F401
    from .core.features import FEATURES  # noqa: F401
    from .core.known import Known, parse_known  # noqa: F401
    from .core.results import Analysis, BetResult, EventResult  # noqa: F401
    from .core.rules import BANKER_DRAWS, BANKER_RULE_TABLE, Coup, Rules, banker_draws, play_coup, player_draws  # noqa: F401
    from .core.shoe import Shoe  # noqa: F401
    from .core.solver import Solver  # noqa: F401
    from .reports.odds_plan import OddsPlan  # noqa: F401

__version__ = "0.1.0"  # the one place the version is written: pyproject.toml reads it (dynamic)

#: Each public name and the module that defines it (read on first access).
_EXPORTS = {
    "Analysis": ".core.results",
    "BetResult": ".core.results",
    "EventResult": ".core.results",
    "Solver": ".core.solver",
    "analyze": ".bets.pricing",
    "solver": ".bets.pricing",
    "MAIN_BETS": ".bets.catalog",
    "Bet": ".bets.catalog",
    "Catalog": ".bets.catalog",
    "Event": ".bets.catalog",
    "Table": ".bets.catalog",
    "catalog": ".bets.catalog",
    "load_bets_file": ".bets.catalog",
    "parse_pays": ".bets.catalog",
    "POINTS": ".core.cards",
    "RANKS": ".core.cards",
    "SUITS": ".core.cards",
    "parse_card": ".core.cards",
    "parse_cards": ".core.cards",
    "FEATURES": ".core.features",
    "Condition": ".bets.conditions",
    "BaccaratError": ".core.errors",
    "BetError": ".core.errors",
    "CardError": ".core.errors",
    "ShoeError": ".core.errors",
    "BANKER_DRAWS": ".core.rules",
    "BANKER_RULE_TABLE": ".core.rules",
    "Coup": ".core.rules",
    "Rules": ".core.rules",
    "banker_draws": ".core.rules",
    "load_rules": ".bets.rules_files",
    "play_coup": ".core.rules",
    "player_draws": ".core.rules",
    "OddsPlan": ".reports.odds_plan",
    "Known": ".core.known",
    "parse_known": ".core.known",
    "Shoe": ".core.shoe",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # read once: later reads find it here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
