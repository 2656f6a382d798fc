"""The verification appendix of a par sheet: the reference simulator against the exact table.

As a test lab's math confirmation does, the reference simulator (:mod:`.simulate`: real
shoes shuffled and dealt card by card, with no code of the counting engine) deals
``rounds`` coups with the sheet's shoe and rules, each off the top of a freshly shuffled
shoe (the cut card at the shoe's size: one coup a shoe), so every coup has the exact
distribution of the sheet's return table.  Per wager, each event's observed count is set
against ``rounds x ways / deals`` of the sheet, with the statistics of :mod:`.stats`: a
z-score per event (:func:`~.stats.cell_stats`, variance ``n p (1 - p)``; an event expected
fewer than :data:`~.stats.MIN_EXPECTED` times is shown, not tested), a chi-square of all of
the wager's events (:func:`~.stats.chi_square`, small cells pooled) and a z of its total
return (:func:`~.stats.bet_stat`); Holm's step-down correction (:func:`~.stats.holm`) over
every test at level ``alpha`` gives the verdict.

The simulator pays bets on point values only: a wager reading ranks or suits is left out
(and named).  The work is bounded: :func:`max_rounds`.

>>> from analyzer import Shoe, catalog
>>> from analyzer.reports.parsheet import parsheet
>>> sheet = parsheet(Shoe.standard(8), catalog().select(["banker", "player", "tie"]), by_decks=(8,))
>>> v = verify_sheet(sheet, 2_000, seed=1)
>>> v.verdict, v.rounds, [c.observed for c in v.cells["tie"]]
('PASS', 2000, [180, 1820])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..bets.catalog import Bet
from ..core.errors import BaccaratError
from ..core.frames import html_table
from ..io.tables import decimal, exact, md_table
from ..reports.parsheet import ParSheet
from .families import bet_family, value_only
from .reference import FamilyReference
from .simulate import simulate
from .stats import BetStat, CellStat, ChiSquare, Finding, bet_stat, cell_stats, chi_square, holm, p_text

#: Most simulated work: rounds x (cards in the shoe + 100), about 20 µs a round of 8 decks
#: on one core (a shuffle of the whole shoe each round): 5 million rounds of 8 decks, 100 s.
VERIFY_BUDGET = 2_580_000_000
DEFAULT_ALPHA = Fraction(1, 100)


class ConfirmError(BaccaratError):
    pass


def max_rounds(cards: int) -> int:
    """The most rounds :func:`verify_sheet` deals from a shoe of ``cards`` cards.

    >>> max_rounds(416), max_rounds(52)
    (5000000, 16973684)
    """
    return VERIFY_BUDGET // (cards + 100)


def check_rounds(rounds: int, cards: int) -> None:
    """Refuse, before any work, a number of rounds below 1 or beyond :func:`max_rounds`."""
    most = max_rounds(cards)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise ConfirmError(f"--verify must be a whole number of rounds of at least 1, got {rounds!r}")
    if rounds > most:
        raise ConfirmError(
            f"--verify {rounds:,} rounds is beyond the budget for a shoe of {cards:,} cards "
            f"(each round shuffles the whole shoe): at most {most:,}"
        )


@dataclass
class Verification:
    """What the simulator dealt and every test against the sheet's exact table."""

    shoe: str
    rounds: int
    seed: int
    alpha: Fraction
    cells: dict[str, list[CellStat]]  # wager id -> its events, in the table's order
    chisq: list[ChiSquare]
    bets: list[BetStat]
    tests: list[Finding]
    skipped: tuple[str, ...] = ()  # wagers the simulator cannot pay
    names: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return any(t.rejected for t in self.tests)

    @property
    def verdict(self) -> str:
        return "FAIL" if self.failed else "PASS"

    def __repr__(self) -> str:
        return (
            f"<Verification {self.verdict}: {self.rounds:,} rounds of {self.shoe}, seed {self.seed}; "
            f"{len(self.tests)} tests, {sum(t.rejected for t in self.tests)} rejected>"
        )

    def summary(self) -> str:
        """The pass/fail line."""
        k = sum(t.rejected for t in self.tests)
        return (
            f"{self.verdict}: {len(self.tests)} tests, {k} rejected at alpha = {float(self.alpha):g} "
            f"after Holm's correction ({self.rounds:,} rounds, seed {self.seed})."
        )

    def _finding(self, name: str) -> Finding | None:
        return next((t for t in self.tests if t.name == name), None)

    def _event_rows(self) -> list[tuple[str, CellStat, Finding | None]]:
        return [(b, c, self._finding(f"z {b} {c.label}")) for b, cells in self.cells.items() for c in cells]

    def markdown(self, h: str) -> list[str]:
        out = [
            f"{h} Verification appendix",
            "",
            TEXT.format(rounds=f"{self.rounds:,}", seed=self.seed, alpha=f"{float(self.alpha):g}"),
            "",
        ]
        if self.skipped:
            out += [
                f"Not simulated (the reference simulator pays bets on point values only): {', '.join(self.skipped)}.",
                "",
            ]
        out += [md_table(self._event_table(), EVENT_HEADERS, ["left", "left"] + ["right"] * 6), ""]
        rows = self._test_table()
        if rows:
            out += [md_table(rows, TEST_HEADERS, ["left"] + ["right"] * 4), ""]
        out += [f"**{self.summary()}**", ""]
        return out

    def _event_table(self) -> list[list[str]]:
        """The rows of the events' table (:data:`EVENT_HEADERS`), as the appendix writes them."""
        return [
            [
                b,
                c.label,
                f"{c.observed:,}",
                decimal(c.expected, 2),
                _z(c.z),
                _p(c.p if c.tested else None),
                _p(f.adjusted if f else None),
                _result(f),
            ]
            for b, c, f in self._event_rows()
        ]

    def _test_table(self) -> list[list[str]]:
        """The rows of the wagers' tests (:data:`TEST_HEADERS`): chi-squares and total returns."""
        rows = []
        for c in self.chisq:
            f = self._finding(_chi_name(c))
            rows.append(
                [
                    f"chi-square {c.family[4:]} ({c.df} df)",
                    f"{c.statistic:.3f}",
                    _p(c.p),
                    _p(f.adjusted if f else None),
                    _result(f),
                ]
            )
        for s in self.bets:
            f = self._finding(f"z return {s.bet.id}")
            rows.append(
                [
                    f"total return {s.bet.id}: {decimal(s.observed, 2)} against {decimal(s.expected, 2)}",
                    _z(s.z),
                    _p(s.p if s.tested else None),
                    _p(f.adjusted if f else None),
                    _result(f),
                ]
            )
        return rows

    def _repr_html_(self) -> str:
        """A notebook's tables: every event's count against the sheet, then the wagers' tests
        (the appendix's tables), under the verdict."""
        events = html_table(self.summary(), EVENT_HEADERS, self._event_table())
        tests = self._test_table()
        return events + ("\n" + html_table("Tests of each wager", TEST_HEADERS, tests) if tests else "")

    def to_dict(self) -> dict:
        return {
            "definition": TEXT.format(rounds=f"{self.rounds:,}", seed=self.seed, alpha=f"{float(self.alpha):g}"),
            "rounds": self.rounds,
            "seed": self.seed,
            "alpha": exact(self.alpha),
            "verdict": self.verdict,
            "summary": self.summary(),
            "skipped": list(self.skipped),
            "events": [
                {
                    "wager": b,
                    "event": c.label,
                    "observed": c.observed,
                    "expected": exact(c.expected),
                    "expected_float": float(c.expected),
                    "z": c.z,
                    "tested": c.tested,
                    "p": _pf(c.p if c.tested else None),
                    "holm_adjusted_p": _pf(f.adjusted if f else None),
                    "rejected": bool(f and f.rejected),
                }
                for b, c, f in self._event_rows()
            ],
            "tests": [
                {
                    "test": t.name,
                    "kind": t.kind,
                    "statistic": t.statistic,
                    "p": _pf(t.p),
                    "holm_threshold": t.threshold,
                    "holm_adjusted_p": _pf(t.adjusted),
                    "rejected": t.rejected,
                }
                for t in self.tests
            ],
        }

    def csv_rows(self) -> list[list]:
        """``[wager, section, item, pays, ways, exact, decimal]`` rows of the par sheet's long CSV."""
        rows: list[list] = []
        for b, c, f in self._event_rows():
            rows.append([b, "verify", f"{c.label}:observed", "", "", str(c.observed), str(c.observed)])
            rows.append([b, "verify", f"{c.label}:expected", "", "", exact(c.expected), decimal(c.expected, 15)])
            if c.z is not None:
                rows.append([b, "verify", f"{c.label}:z", "", "", "", repr(c.z)])
            if f is not None:
                rows.append([b, "verify", f"{c.label}:holm_adjusted_p", "", "", "", repr(float(f.adjusted))])
        rows.append(["table", "verify", "verdict", "", "", self.verdict, ""])
        return rows


EVENT_HEADERS = ["wager", "event", "observed", "expected", "z", "p", "Holm-adjusted p", "result"]
TEST_HEADERS = ["test", "statistic", "p", "Holm-adjusted p", "result"]

TEXT = (
    "The reference simulator (analyzer.simcheck.simulate: shoes shuffled and dealt card by card, "
    "sharing no code with the counting engine) dealt {rounds} rounds with the same shoe and rules, "
    "each off the top of a freshly shuffled shoe (seed {seed}), one unit on each wager. Each event's "
    "observed count is set against rounds x its exact probability from the return table: "
    "z = (observed - expected) / sqrt(rounds p (1 - p)) (events expected fewer than 5 times are not "
    "tested); per wager also a chi-square of all its events (small cells pooled) and a z of its total "
    "return. Holm's step-down correction over all the tests at alpha = {alpha} gives the verdict."
)


def _chi_name(c: ChiSquare) -> str:
    return f"chi-square {c.family[4:]} ({c.df} df)"


def _z(z: float | None) -> str:
    return "" if z is None else f"{z:+.3f}"


def _p(p) -> str:
    return "" if p is None else p_text(p)


def _pf(p) -> float | None:
    return None if p is None else float(p)


def _result(f: Finding | None) -> str:
    return "not tested" if f is None else ("REJECTED" if f.rejected else "pass")


def simulable(sheet: ParSheet) -> tuple[tuple[Bet, ...], tuple[str, ...]]:
    """The sheet's wagers the reference simulator can pay (point values only), and the others' ids."""
    bets = tuple(w.bet for w in sheet.wagers if value_only(w.bet))
    return bets, tuple(w.id for w in sheet.wagers if not value_only(w.bet))


def verify_sheet(sheet: ParSheet, rounds: int, seed: int = 0, alpha: Fraction = DEFAULT_ALPHA) -> Verification:
    """Deal ``rounds`` coups with the reference simulator and test them against ``sheet``."""
    check_rounds(rounds, sheet.shoe.cards)
    bets, skipped = simulable(sheet)
    if not bets:
        raise ConfirmError(
            "--verify: the reference simulator pays bets on point values only, and every wager "
            f"of the sheet reads ranks or suits ({', '.join(skipped)})"
        )
    sim = simulate(sheet.shoe, shoes=rounds, seed=seed, cut_card=sheet.shoe.cards, bets=bets, rules=sheet.rules)
    n = sim.coups
    cells: dict[str, list[CellStat]] = {}
    chisq, bet_stats = [], []
    for bet in bets:
        w = sheet.wager(bet.id)
        fam = bet_family(bet, sheet.rules)
        if fam.labels != tuple(r.event for r in w.rows):  # both are the events in order, then otherwise
            raise ConfirmError(f"bet {bet.id!r}: the simulator's events {fam.labels} are not the sheet's")
        p = [r.probability for r in w.rows]
        pf = np.array([float(x) for x in p])
        ref = FamilyReference(
            fam, [n * x for x in p], [n * x * (1 - x) for x in p], n * (np.diag(pf) - np.outer(pf, pf))
        )
        observed = np.array(sim.events[bet.id], dtype=np.int64)
        cells[bet.id] = cell_stats(ref, observed)
        c = chi_square(ref, observed)
        if c is not None:
            chisq.append(c)
        enough = all(n * r.probability >= 5 for r in w.rows if r.ways)
        bet_stats.append(bet_stat(bet, n, sim.bets[bet.id][1], n * w.ev, n * w.variance, enough))
    tests = [Finding(_chi_name(c), "chi-square", f"{c.statistic:.3f}", c.p) for c in chisq]
    tests += [Finding(f"z {b} {c.label}", "z", f"{c.z:+.3f}", c.p) for b, cs in cells.items() for c in cs if c.tested]
    tests += [Finding(f"z return {s.bet.id}", "z", f"{s.z:+.3f}", s.p) for s in bet_stats if s.tested]
    if tests:
        holm(tests, float(alpha))
    return Verification(
        sheet.shoe.describe(),
        n,
        seed,
        alpha,
        cells,
        chisq,
        bet_stats,
        tests,
        skipped,
        {w.id: w.bet.name for w in sheet.wagers},
    )
