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
shoes under one choice of bets and rules, as ``baccarat odds`` computes them).
"""

from .bets.catalog import MAIN_BETS, Bet, Catalog, Event, Table, catalog, load_bets_file, parse_pays
from .bets.conditions import Condition
from .bets.pricing import analyze, solver
from .bets.rules_files import load_rules
from .core.cards import POINTS, RANKS, SUITS, parse_card, parse_cards
from .core.errors import BaccaratError, BetError, CardError, ShoeError
from .core.features import FEATURES
from .core.known import Known, parse_known
from .core.results import Analysis, BetResult, EventResult
from .core.rules import BANKER_DRAWS, BANKER_RULE_TABLE, Coup, Rules, banker_draws, play_coup, player_draws
from .core.shoe import Shoe
from .core.solver import Solver
from .reports.odds_plan import OddsPlan

__version__ = "0.1.0"  # the one place the version is written: pyproject.toml reads it (dynamic)

__all__ = [
    "Analysis",
    "BetResult",
    "EventResult",
    "Solver",
    "analyze",
    "solver",
    "MAIN_BETS",
    "Bet",
    "Catalog",
    "Event",
    "Table",
    "catalog",
    "load_bets_file",
    "parse_pays",
    "POINTS",
    "RANKS",
    "SUITS",
    "parse_card",
    "parse_cards",
    "FEATURES",
    "Condition",
    "BaccaratError",
    "BetError",
    "CardError",
    "ShoeError",
    "BANKER_DRAWS",
    "BANKER_RULE_TABLE",
    "Coup",
    "Rules",
    "banker_draws",
    "load_rules",
    "play_coup",
    "player_draws",
    "OddsPlan",
    "Known",
    "parse_known",
    "Shoe",
]
