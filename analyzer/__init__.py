"""baccarat-analyzer: exact odds of Punto Banco baccarat on any finite shoe.

>>> from analyzer import Shoe, analyze
>>> a = analyze(Shoe.standard(decks=8))
>>> a.ways("player"), a.ways("banker"), a.ways("tie"), a.deals
(2230518282592256, 2292252566437888, 475627426473216, 4998398275503360)
"""

from .analysis import Analysis, BetResult, EventResult, Solver, analyze, solver
from .bets import MAIN_BETS, Bet, Catalog, Event, Table, catalog, load_bets_file, parse_pays
from .cards import POINTS, RANKS, SUITS, parse_card, parse_cards
from .conditions import FEATURES, Condition
from .errors import BaccaratError, BetError, CardError, ShoeError
from .rules import BANKER_DRAWS, BANKER_RULE_TABLE, Coup, banker_draws, play_coup, player_draws
from .shoe import Shoe

__version__ = "0.1.0"

__all__ = [
    "Analysis", "BetResult", "EventResult", "Solver", "analyze", "solver",
    "MAIN_BETS", "Bet", "Catalog", "Event", "Table", "catalog", "load_bets_file", "parse_pays",
    "POINTS", "RANKS", "SUITS", "parse_card", "parse_cards",
    "FEATURES", "Condition",
    "BaccaratError", "BetError", "CardError", "ShoeError",
    "BANKER_DRAWS", "BANKER_RULE_TABLE", "Coup", "banker_draws", "play_coup", "player_draws",
    "Shoe",
]
