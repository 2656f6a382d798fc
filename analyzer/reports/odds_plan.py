"""The odds of many shoes under one choice of bets and rules: :class:`OddsPlan`.

``baccarat odds``, ``odds --batch`` and ``baccarat serve`` build their documents here, and
only here; a Python user gets the same documents, and the same refusals, from the same
class.  The plan holds the bets (with the break-even bet added), the rule set (under the
Player's best play, the best play of each shoe's composition) and the compiled solvers,
and knows how the shoes of a batch are grouped: one solver for every line, or one per
known-card set and rule set.

>>> from analyzer.bets import catalog
>>> from analyzer.core.shoe import Shoe
>>> plan = OddsPlan(catalog().select(["banker"]), breakeven=("banker", None))
>>> plan.document(Shoe.standard(8))["breakeven"]["bet"]
'banker'
"""

from __future__ import annotations

from functools import lru_cache

from ..core.errors import BetError
from ..core.rules import PUNTO_BANCO, RulesError

#: Best-play rule sets an :class:`OddsPlan` keeps under the Player's best play (one per shoe composition).
STRATEGY_CACHE = 64


class OddsPlan:
    """What ``baccarat odds`` computes for any shoe.

    ``bets``: the bets settled on one coup (:class:`analyzer.bets.catalog.Bet`); ``series``:
    series bets (:mod:`analyzer.bets.series`), priced off the top beside them.  ``rules``: the
    drawing rules (default Punto Banco), its Player's option fixed unless ``best``; ``best``:
    play that option best on each shoe (the rule set must offer one).  ``breakeven``:
    ``(bet id, event or None)``: that bet's EV with the event's payout left symbolic (default:
    its first paying event) and the payout that breaks even; the bet is added if not among
    ``bets`` (looked up in ``catalog``, default the built-in one).  ``known``: whether known
    cards will be given (series bets are then refused).  ``solvers``: a
    :class:`analyzer.core.solver.SolverCache` to compile into (shared by many plans: a
    server), else one of its own, with ``options`` (``budget``, ``progress``) for each solver.

    Everything is checked now, before any shoe: a bad choice is one line
    (:class:`analyzer.core.errors.BaccaratError`)."""

    def __init__(
        self,
        bets,
        *,
        series=(),
        rules=None,
        best: bool = False,
        breakeven: tuple[str, str | None] | None = None,
        known: bool = False,
        catalog=None,
        solvers=None,
        options: dict | None = None,
    ):
        from ..core.solver import SolverCache

        rules = PUNTO_BANCO if rules is None else rules
        self.best = best
        if best:
            from ..core.choice import best_rules

            if not rules.player_option:
                raise RulesError(f"--player-option: rule set {rules.name!r} offers the Player no option")
            self.best_rules = lru_cache(maxsize=STRATEGY_CACHE)(lambda counts: best_rules(rules, counts))
            self.rules = None
        else:
            self.rules = rules
        #: the series bets named (:mod:`analyzer.bets.series`), priced off the top beside the others
        self.series: list = list(series)
        self.bets, self.spec = tuple(bets), None
        if breakeven is not None:
            self.bets, self.spec = _with_breakeven(self.bets, breakeven, catalog)
        if self.series and known:
            raise BetError(
                "series bets are priced with independent coups off the top of the declared shoe: "
                "--known does not apply to them (price them without --known)"
            )
        if self.spec is not None and self.spec[1] is not None:  # an unknown event: refused before any shoe
            bet = next(b for b in self.bets if b.id == self.spec[0])
            names = [e.event for e in bet.events] + [bet.otherwise_event]
            if self.spec[1] not in names:
                raise BetError(
                    f"bet {bet.id!r} has no event {self.spec[1]!r} (events: {', '.join(repr(n) for n in names)})"
                )
        self.solvers = solvers if solvers is not None else SolverCache(self.bets, options=options)

    def solver_of(self, shoe, known):
        """``(compiled solver, strategy or None)`` for ``shoe`` with ``known`` cards."""
        rules, strategy = self.best_rules(shoe.value_counts) if self.best else (self.rules, None)
        return self.solvers.get(known, rules, self.bets), strategy

    def result(self, shoe, known=None):
        """``(analysis, breakeven or None, strategy or None)`` of ``shoe``."""
        solver, strategy = self.solver_of(shoe, known)
        result = solver.solve(shoe)
        return result, breakeven_of(result, self.spec), strategy

    def series_of(self, shoe, known=None) -> list:
        """The series bets priced off the top of ``shoe`` (:func:`analyzer.bets.series.price_series`),
        under the rules the other bets are counted by; refused with known cards."""
        if not self.series:
            return []
        if known:
            raise BetError(
                "series bets are priced with independent coups off the top of the declared "
                "shoe: known cards do not apply to them"
            )
        from ..bets.series import price_series

        rules = self.best_rules(shoe.value_counts)[0] if self.best else self.rules
        return price_series(shoe, self.series, rules)

    def document(self, shoe, known=None) -> dict:
        """The ``odds --format json`` document of ``shoe`` (one line of ``--batch``)."""
        result, be, strategy = self.result(shoe, known)
        return odds_document(result, be, strategy, self.series_of(shoe, known))

    def line(self, shoe, known=None) -> str:
        """:meth:`document` as the one compact JSON line ``odds --batch`` writes for it."""
        result, be, strategy = self.result(shoe, known)
        return odds_line_of(result, be, strategy, self.series_of(shoe, known))

    def lines(self, items) -> list[str]:
        """:meth:`line` of each ``(shoe, known)``, the shoes of one solver solved together: one
        solver for every line without known cards or best play, else one per known-card set
        and rule set."""
        from ..core.solver import solve_each
        from .odds_tables import odds_lines

        if not self.best and not any(known for _, known in items):  # one solver for every line
            jobs = [self.solver_of(items[0][0], None)] * len(items) if items else []
        else:
            jobs = [self.solver_of(shoe, known) for shoe, known in items]
        results = solve_each((solver, shoe) for (solver, _), (shoe, _) in zip(jobs, items, strict=True))
        extras = [
            line_extra(plan, self.series_of(shoe, known)) for (_, plan), (shoe, known) in zip(jobs, items, strict=True)
        ]
        return odds_lines(results, [breakeven_of(r, self.spec) for r in results], extras)


def _with_breakeven(bets: tuple, spec: tuple[str, str | None], catalog=None):
    """``bets`` with the break-even bet added if not among them, and ``spec``; a series bet is refused."""
    if catalog is None:
        from ..bets.catalog import catalog as builtin

        catalog = builtin()
    bet_id, event = spec
    if bet_id in catalog.series:
        raise BetError(
            f"--breakeven {bet_id}: a series bet's break-even payout is not computed (only bets settled on one coup)"
        )
    if bet_id not in {b.id for b in bets}:
        bets = bets + (catalog.bet(bet_id),)
    return bets, (bet_id, event)


def breakeven_of(result, spec):
    """The :class:`analyzer.bets.breakeven.Breakeven` of ``spec`` (``(bet id, event or None)``)
    on ``result``, or ``None``."""
    if spec is None:
        return None
    from ..bets.breakeven import breakeven

    return breakeven(result.bet(spec[0]), spec[1])


def odds_document(result, be=None, strategy=None, series=()) -> dict:
    """The JSON document of ``baccarat odds --format json`` (one line of ``--batch``);
    ``series``: priced series bets (:class:`analyzer.bets.series.SeriesResult`), last."""
    from .odds_tables import odds_dict, series_document

    doc = odds_dict(result, breakeven=be)
    if strategy is not None:
        from .rules_tables import strategy_dict

        doc["player_strategy"] = strategy_dict(strategy)
    if series:
        doc.update(series_document(series))
    return doc


def odds_line_of(result, be=None, strategy=None, series=()) -> str:
    """:func:`odds_document` as one compact JSON line (``odds --batch``), the same text as
    ``json.dumps`` of it with ``separators=(",", ":")``, written without the dicts."""
    from .odds_tables import odds_line

    return odds_line(result, be, line_extra(strategy, series))


def line_extra(strategy=None, series=()) -> dict | None:
    """The keys of a line after the odds document's own: the player's strategy, the series bets."""
    if strategy is None and not series:
        return None
    extra: dict = {}
    if strategy is not None:
        from .rules_tables import strategy_dict

        extra["player_strategy"] = strategy_dict(strategy)
    if series:
        from .odds_tables import series_document

        extra.update(series_document(series))
    return extra


__all__ = ["OddsPlan", "STRATEGY_CACHE", "breakeven_of", "odds_document", "odds_line_of", "line_extra"]
