"""Check a simulator's output against the exact values: ``baccarat check``.

The check replays a hand log (or reads tallies), builds the exact reference
(:mod:`.reference`: shoe-aware or off the top, over the cells of
:mod:`.families`), compares the observed counts with it (:mod:`.stats`:
chi-squares, z-scores, depletion, Holm's correction, power) and returns a
:class:`~.stats.Report`, which :mod:`.check_format` prints as Markdown, JSON or
CSV.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..bets.catalog import MAIN_BETS, Bet
from ..core.engine import POSITIONS
from ..core.errors import BaccaratError, BetError
from ..core.shoe import Shoe
from .check_format import report_csv, report_dict, report_json, report_markdown  # the CLI prints through check
from .families import base_families, bet_family, build_families, cached, value_only
from .logs import OUTCOME_NAMES, HandLog
from .reference import off_the_top
from .stats import (
    MIN_EXPECTED,
    CellStat,
    Finding,
    Report,
    bet_stat,
    cell_stats,
    chi_square,
    depletion_test,
    exact_p,
    holm,
    power_rows,
    reading_notes,
)
from .tallies import Tallies

if TYPE_CHECKING:
    from .distributed import Runner

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_POWER",
    "DEFAULT_DETECT",
    "CheckError",
    "INPUT_KINDS",
    "REFERENCES",
    "Report",
    "check_tallies",
    "check_input",
    "check_stream",
    "refuse_inapplicable",
    "check_log",
    "report_markdown",
    "report_dict",
    "report_json",
    "report_csv",
]

DEFAULT_ALPHA = Fraction(1, 100)
DEFAULT_POWER = Fraction(9, 10)
DEFAULT_DETECT = Fraction(1, 1000)  # 0.1 percentage point


class CheckError(BaccaratError):
    """Input the check cannot use (names file and row where it can)."""


#: The references a check compares with: shoe-aware sums over a hand log's shoes, or the off-the-top odds.
REFERENCES = ("shoe-aware", "off-the-top")
#: The kinds of input a check reads: what :func:`refuse_inapplicable` takes.
INPUT_KINDS = ("tallies", "outcomes", "hands")


def refuse_inapplicable(
    kind: str,
    name: str,
    *,
    reference: str | None = None,
    ruled: bool = False,
    procedure=None,
    card_order=None,
    distributed: str | None = None,
) -> None:
    """Refuse (:class:`CheckError`, one line naming ``name``) a check option that an input of
    ``kind`` cannot use; ``kind`` is one of :data:`INPUT_KINDS`: ``"tallies"`` (counts per
    category: no shoe boundaries, no cards), ``"outcomes"`` (an outcome-only log: shoe
    boundaries, no cards) or ``"hands"`` (a hand log with cards: every option applies).

    The options, as ``baccarat check`` names them: ``reference`` (``"shoe-aware"`` or
    ``"off-the-top"``), ``ruled`` (a rule set or player option was chosen), ``procedure``
    (a cut card / burn procedure, the coups-per-shoe test), ``card_order``, and
    ``distributed`` (the option sending the shoe-aware sums to a Dask cluster).

    >>> refuse_inapplicable("hands", "log.csv", reference="shoe-aware", ruled=True)
    >>> refuse_inapplicable("outcomes", "log.csv", reference="shoe-aware")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    analyzer.simcheck.check.CheckError: log.csv: an outcome-only log has no cards, so only --reference ...
    """
    if kind not in INPUT_KINDS:
        raise ValueError(f"kind must be one of {INPUT_KINDS}, got {kind!r}")
    if reference is not None and reference not in REFERENCES:
        raise CheckError(f"unknown --reference {reference!r} (choose from {', '.join(REFERENCES)})")
    if distributed and reference == "off-the-top":
        raise CheckError(
            f"{distributed} computes the shoe-aware sums of a hand log; --reference off-the-top "
            f"has none (drop {distributed})"
        )
    if kind == "tallies":
        if distributed:
            raise CheckError(
                f"{name}: tallies are checked off the top, with no shoe-aware sums "
                f"for {distributed} to compute (drop {distributed})"
            )
        if ruled:
            raise CheckError(
                f"{name}: --rules and --player-option apply to hand logs (tallies are checked under Punto Banco)"
            )
        if reference == "shoe-aware":
            raise CheckError(f"{name}: tallies have no shoe boundaries, so only --reference off-the-top applies")
        if procedure is not None:
            raise CheckError(
                f"{name}: tallies have no shoe boundaries, so --cut-card, --burn and "
                f"--after-cut (the coups-per-shoe test) do not apply"
            )
        if card_order:
            raise CheckError(
                f"{name}: tallies have no cards in the order they were dealt, so --card-order does not apply"
            )
    elif kind == "outcomes":
        if reference == "shoe-aware":
            raise CheckError(f"{name}: an outcome-only log has no cards, so only --reference off-the-top applies")
        if distributed:
            raise CheckError(
                f"{name}: an outcome-only log is checked off the top, with no "
                f"shoe-aware sums for {distributed} to compute (drop {distributed})"
            )
        if ruled:
            raise CheckError(
                f"{name}: --rules and --player-option apply to hand logs with "
                f"cards (an outcome-only log is checked under Punto Banco)"
            )
        if card_order:
            raise CheckError(f"{name}: an outcome-only log has no cards, so --card-order does not apply")


def check_input(
    path: str,
    shoe: Shoe,
    *,
    columns: str | None = None,
    skip_invalid: bool = False,
    reference: str | None = None,
    bets=None,
    catalog_obj=None,
    alpha: Fraction = DEFAULT_ALPHA,
    power: Fraction = DEFAULT_POWER,
    detect: Fraction = DEFAULT_DETECT,
    jobs: int = 1,
    runner=None,
    order: bool | None = None,
    rules=None,
    procedure=None,
    distributed: str | None = None,
    progress=None,
) -> Report:
    """Check the file at ``path`` (``-``: standard input), whatever it holds: ``baccarat check``.

    The kind of input is read from its start: tallies (:func:`check_tallies`), an outcome-only
    log (:func:`analyzer.simcheck.streaks.check_outcomes`) or a hand log with cards
    (:func:`check_stream`, read as it goes when long); an option the input cannot use is
    refused first (:func:`refuse_inapplicable`, one line naming ``path``).

    ``bets``: the bet ids checked, or a function of the input's kind (one of
    :data:`INPUT_KINDS`) giving them, called only for an input that settles bets; ``None``: every
    bet of the tallies, the main bets of a hand log.  ``rules``: the drawing rules
    (:class:`analyzer.core.rules.Rules`) or a function of the shoe the log is checked on giving
    them (a best play depends on it); ``None``: Punto Banco (tallies and outcome-only logs are
    only checked so).  ``reference``: ``"shoe-aware"`` (the default for a hand log) or
    ``"off-the-top"`` (the only one otherwise).  ``jobs``: processes sharing the shoe-aware sums;
    ``runner``: a function opening a :class:`~.distributed.Runner` context for them (a Dask
    cluster), called only for a hand log, and ``distributed`` the name of what asked for it (in
    messages: ``--cluster``).  ``order``, ``procedure``, ``skip_invalid``, ``columns``: as
    :func:`check_stream` and :func:`analyzer.simcheck.stream.open_log`.  ``progress(bytes)`` is
    called as the file is read."""
    import contextlib

    from .logs import sniff_kind
    from .shapes import shoe_for
    from .stream import LogSource, open_log
    from .tallies import read_tallies

    def bet_ids(kind: str):
        ids = bets(kind) if callable(bets) else bets
        return None if ids is None else tuple(ids)

    ruled = rules is not None
    refuse_inapplicable("hands", path, reference=reference, distributed=distributed)
    src = LogSource(path, progress=progress)
    if sniff_kind(path, src.head) == "tallies":
        refuse_inapplicable(
            "tallies",
            path,
            reference=reference,
            ruled=ruled,
            procedure=procedure,
            card_order=order,
            distributed=distributed,
        )
        tallies = read_tallies(path, src.text())
        return check_tallies(tallies, shoe, bet_ids("tallies"), catalog_obj, alpha, power, detect)
    stream = open_log(path, columns, skip_invalid, source=src)
    if stream.outcomes is not None:
        from .streaks import check_outcomes

        refuse_inapplicable(
            "outcomes", path, reference=reference, ruled=ruled, card_order=order, distributed=distributed
        )
        return check_outcomes(stream.outcomes, shoe, alpha, power, detect, procedure)
    ids = bet_ids("hands")
    shoe = shoe_for(stream, shoe)
    if callable(rules):
        rules = rules(shoe)
    with runner() if runner is not None else contextlib.nullcontext() as opened:
        return check_stream(
            stream,
            shoe,
            reference or "shoe-aware",
            MAIN_BETS if ids is None else ids,
            catalog_obj,
            alpha,
            power,
            detect,
            jobs=opened or jobs,
            order=order,
            rules=rules,
            procedure=procedure,
            skip_invalid=skip_invalid,
        )


def _select_bets(ids, catalog_obj) -> tuple[Bet, ...]:
    from ..bets.catalog import catalog as builtin

    cat = catalog_obj or builtin()
    return tuple(cat.bet(i) for i in dict.fromkeys(ids))


def _finish(report: Report, outcome_cells: list[CellStat], other_cells: list[list[CellStat]]) -> Report:
    tests = report.tests
    for c in report.chisq:
        tests.append(Finding(f"chi-square {c.family} ({c.df} df)", "chi-square", f"{c.statistic:.3f}", c.p))
    for cells in [outcome_cells] + other_cells:
        for s in cells:
            if s.tested:
                fam = "outcome" if cells is outcome_cells else "cards"
                tests.append(Finding(f"z {fam} {s.label}", "z", f"{s.z:+.3f}", s.p))
    for b in report.bets:
        if b.tested:
            tests.append(Finding(f"z bet {b.bet.id}", "z", f"{b.z:+.3f}", b.p))
    for label, z, p in report.depletion:
        tests.append(Finding(f"z depletion {label}", "z", f"{z:+.3f}", p))
    if tests:
        holm(tests, float(report.alpha))
    report.power_rows = power_rows(
        outcome_cells, report.bets, report.coups, len(tests), float(report.alpha), float(report.power), report.detect
    )
    return report


def check_tallies(
    tallies: Tallies,
    shoe: Shoe,
    bets: tuple[str, ...] | None = None,
    catalog_obj=None,
    alpha: Fraction = DEFAULT_ALPHA,
    power: Fraction = DEFAULT_POWER,
    detect: Fraction = DEFAULT_DETECT,
) -> Report:
    """Off-the-top check of tallies: chi-squares, z-scores, per-bet z and exact consistency."""
    n = tallies.coups
    cats = ["outcome"] + (["cards"] if tallies.cards else []) + (["totals"] if tallies.totals else [])
    fams = build_families((), tuple(cats))
    ref = off_the_top(shoe, fams, n)
    observed = {"outcome": np.array([tallies.outcomes[o] for o in OUTCOME_NAMES])}
    if tallies.cards:
        observed["cards"] = np.array([tallies.cards.get(c, 0) for c in (4, 5, 6)])
    if tallies.totals:
        observed["totals"] = np.array([tallies.totals.get((p, b), 0) for p in range(10) for b in range(10)])
    ids = list(tallies.bets) if bets is None else list(bets)
    for i in ids:
        if i not in tallies.bets:
            raise CheckError(
                f"{tallies.path}: no row bet:{i} (the tallies have "
                f"{', '.join('bet:' + b for b in tallies.bets) or 'no bet rows'})"
            )
    bet_objs = []
    for i in ids:
        try:
            bet_objs.append(_select_bets([i], catalog_obj)[0])
        except BetError as e:
            raise CheckError(f"{tallies.path}: row {tallies.bets[i].row}: {e}") from None
    report = Report(
        tallies.path, "tallies", shoe, "off-the-top", n, None, 0, alpha, power, detect, {}, {}, [], [], [], [], []
    )
    for fam in fams:
        report.cells[fam.key] = cell_stats(ref.families[fam.key], observed[fam.key])
        report.titles[fam.key] = fam.title
        c = chi_square(ref.families[fam.key], observed[fam.key])
        if c is not None:
            report.chisq.append(c)
    # exact consistency of the tallies with themselves
    if tallies.totals:
        by = [0, 0, 0]
        for (p, b), k in tallies.totals.items():
            by[0 if p > b else 1 if b > p else 2] += k
        for j, o in enumerate(OUTCOME_NAMES):
            if by[j] != tallies.outcomes[o]:
                report.exact.append(
                    Finding(
                        f"totals rows agree with the {o} row",
                        "exact",
                        f"{by[j]} vs {tallies.outcomes[o]}",
                        exact_p(False),
                        rejected=True,
                    )
                )
    if bet_objs:
        try:
            analysis = _solver_for(tuple(bet_objs)).solve(shoe)
        except BetError as e:
            raise CheckError(f"{tallies.path}: {e}") from None
        for bet in bet_objs:
            t = tallies.bets[bet.id]
            r = analysis.bet(bet.id)
            if t.count > n:
                raise CheckError(
                    f"{tallies.path}: row {t.row}: bet:{bet.id} counts {t.count} coups bet, "
                    f"more than the {n} coups of the tallies"
                )
            top = max(e.pays for e in r.events if e.ways)
            low = min(e.pays for e in r.events if e.ways)
            if not t.count * low <= t.total_return <= t.count * top:
                raise CheckError(
                    f"{tallies.path}: row {t.row}: bet:{bet.id} returns {_amount(t.total_return)} "
                    f"over {t.count} coups, outside what its pay table allows "
                    f"({_amount(t.count * low)} to {_amount(t.count * top)})"
                )
            enough = all(t.count * ev.probability >= MIN_EXPECTED for ev in r.events if ev.ways)
            s = bet_stat(
                bet,
                t.count,
                t.total_return,
                t.count * r.ev,
                t.count * r.variance,
                enough,
                "" if enough else f"fewer than {MIN_EXPECTED} expected coups in some event: not tested",
            )
            report.bets.append(s)
            determined = _return_from_counts(bet, tallies)
            if determined is not None and t.count == n:
                ok = determined == t.total_return
                report.exact.append(
                    Finding(
                        f"bet {bet.id} return agrees with the counts",
                        "exact",
                        f"{_amount(t.total_return)} vs {_amount(determined)}",
                        exact_p(ok),
                        rejected=not ok,
                    )
                )
    outcome_cells = report.cells["outcome"]
    others = [report.cells["cards"]] if "cards" in report.cells else []
    report.notes.append(
        "Tallies have no shoe boundaries: every coup is compared with the off-the-top "
        "distribution (right for a simulator that reshuffles before every coup; for "
        "shoes dealt to a cut card, check the hand log instead)."
    )
    return _finish(report, outcome_cells, others)


@cached
def _solver_for(bets: tuple[Bet, ...]):
    from ..core.solver import Solver

    return Solver(list(bets))


def _amount(x: Fraction) -> str:
    from .tallies import exact_amount

    return exact_amount(x)


@cached
def _pays_by_cell(bet: Bet) -> dict[str, list[Fraction]]:
    """For each tallied partition (outcome, totals) that decides the bet's payout: the pay of each cell."""
    if not value_only(bet):
        return {}
    fam = bet_family(bet)
    out = {}
    for key, _, labels, code in base_families():
        if key == "cards":
            continue
        pairs = np.unique(code.astype(np.int64) * 64 + fam.code)
        cell_of = pairs // 64
        if len(np.unique(cell_of)) != len(pairs):
            continue  # some cell holds coups paid differently
        pay = [Fraction(0)] * len(labels)
        for c, ev in zip(cell_of.tolist(), (pairs % 64).tolist()):
            pay[c] = fam.pays[ev]
        out[key] = pay
    return out


def _return_from_counts(bet: Bet, tallies: Tallies) -> Fraction | None:
    """The bet's exact total return when its pay table is a function of tallied cells."""
    pays = _pays_by_cell(bet)
    counts = {"outcome": [tallies.outcomes[o] for o in OUTCOME_NAMES]}
    if tallies.totals:
        counts["totals"] = [tallies.totals.get((p, b), 0) for p in range(10) for b in range(10)]
    for key in ("outcome", "totals"):
        if key in pays and key in counts:
            return sum((k * x for k, x in zip(counts[key], pays[key]) if k), Fraction(0))
    return None


#: why --skip-invalid set a coup aside (the first rule of :data:`.verify.COUP_RULES` it breaks)
_ASIDE = {
    "cards": "a hand without 2 or 3 cards",
    "natural": "a third card after a natural",
    "player": "the Player's third card against the rules",
    "banker": "the Banker's third card against the rules",
    "outcome": "a reported outcome the cards do not give",
    "total": "a reported total the cards do not give",
}


def check_log(
    log: HandLog,
    shoe: Shoe,
    reference: str | None = None,
    bets: tuple[str, ...] = MAIN_BETS,
    catalog_obj=None,
    alpha: Fraction = DEFAULT_ALPHA,
    power: Fraction = DEFAULT_POWER,
    detect: Fraction = DEFAULT_DETECT,
    depletion: bool = True,
    jobs: int | Runner = 1,
    progress=None,
    order: bool | None = None,
    rules=None,
    procedure=None,
    backend: str = "auto",
    skip_invalid: bool = False,
) -> Report:
    """Check a hand log (replayed first: any violation is an error).

    ``progress(coups)``, when given, is called as the shoe-aware solves go.

    ``jobs`` > 1 shares the shoe-aware solves among that many processes forked once
    (:class:`~.distributed.ForkRunner`); ``jobs`` may also be an open :class:`~.distributed.DaskRunner`,
    which computes them on Dask workers (the report then
    names it in :attr:`~.stats.Report.engine`); every figure is the same, bit for bit.  ``order``: the
    card-order chi-square of :mod:`.order` (is the shoe shuffled?): ``None`` (the default) runs it on a
    log with ranks and not on a value-level log (the report says why), ``True`` on either, ``False``
    not at all.  ``skip_invalid``: set aside the coups that break the drawing rules (their cards
    still leave the shoe; the report counts them by rule) instead of refusing the log; a log that
    contradicts the declared shoe is refused either way.  ``rules``: the drawing
    rules (:class:`analyzer.core.rules.Rules`, default Punto Banco) the log is replayed against
    and the reference is dealt under; a rule set that leaves the Player a choice needs it fixed
    first (``Rules.with_player_option``).  ``backend``: the arithmetic of the shoe-aware
    counts (:mod:`analyzer.core.backend`; every back end that can count the shoes exactly gives
    the same report, one that cannot is refused with a :class:`BetError`).
    :func:`check_stream` does the same on a log read in chunks."""
    from .stream import LogStream

    return check_stream(
        LogStream.of(log),
        shoe,
        reference,
        bets,
        catalog_obj,
        alpha,
        power,
        detect,
        depletion,
        jobs,
        progress,
        order,
        rules,
        procedure,
        backend,
        skip_invalid,
    )


def check_stream(
    stream,
    shoe: Shoe,
    reference: str | None = None,
    bets: tuple[str, ...] = MAIN_BETS,
    catalog_obj=None,
    alpha: Fraction = DEFAULT_ALPHA,
    power: Fraction = DEFAULT_POWER,
    detect: Fraction = DEFAULT_DETECT,
    depletion: bool = True,
    jobs: int | Runner = 1,
    progress=None,
    order: bool | None = None,
    rules=None,
    procedure=None,
    backend: str = "auto",
    skip_invalid: bool = False,
) -> Report:
    """:func:`check_log` of a :class:`~.stream.LogStream`, chunk by chunk: each chunk is replayed,
    its observed cells counted and its exact per-coup distributions summed, then dropped.

    ``procedure`` (:class:`analyzer.core.procedure.Procedure`), when given, adds the test of the
    number of coups per shoe (:mod:`.shoecount`).  ``reference``: ``None`` is shoe-aware.

    The options the input cannot use are refused as ``baccarat check`` refuses them
    (:func:`refuse_inapplicable`); an outcome-only log (``stream.outcomes``) is checked off the
    top by :func:`analyzer.simcheck.streaks.check_outcomes`."""
    from .distributed import ForkRunner, can_fork
    from .order import CardOrder
    from .reference import ShoeAwareSums
    from .verify import COUP_RULES, Violation, replay

    kind = "outcomes" if getattr(stream, "outcomes", None) is not None else "hands"
    refuse_inapplicable(
        kind, stream.path, reference=reference, ruled=rules is not None, procedure=procedure, card_order=order
    )
    if kind == "outcomes":
        from .streaks import check_outcomes

        return check_outcomes(stream.outcomes, shoe, alpha, power, detect, procedure)
    reference = reference or "shoe-aware"
    if isinstance(jobs, int) and jobs > 1 and can_fork():
        with ForkRunner(jobs) as runner:  # processes forked once for every chunk
            return check_stream(
                stream,
                shoe,
                reference,
                bets,
                catalog_obj,
                alpha,
                power,
                detect,
                depletion,
                runner,
                progress,
                order,
                rules,
                procedure,
                backend,
                skip_invalid,
            )

    if rules is not None and rules.player_option:
        raise CheckError(
            f"rule set {rules.name!r} lets the Player choose: the check needs the choice the "
            f"simulator made (--player-option draw or stand)"
        )
    if reference not in ("shoe-aware", "off-the-top"):
        raise CheckError(f"unknown reference {reference!r} (shoe-aware or off-the-top)")
    fams = bet_error = None
    try:
        bet_objs = _select_bets(bets, catalog_obj)
        fams = build_families(bet_objs, ("outcome", "cards", "totals"), rules)
    except BetError as e:
        bet_error = e
    aware = reference == "shoe-aware"
    sums = ShoeAwareSums(shoe, fams, depletion, backend) if aware and fams else None
    run_order = (not stream.value_level) if order is None else bool(order)
    cards = CardOrder(shoe, stream.value_level) if run_order else None
    observed = {fam.key: np.zeros(fam.cells, dtype=np.int64) for fam in fams or ()}
    carry: dict = {}
    first, violations, excluded, n = None, 0, 0, 0
    aside: dict[str, int] = {}  # --skip-invalid: coups set aside, by the first rule broken
    per_shoe = np.zeros(0, dtype=np.int64)
    for chunk in stream.chunks():
        if procedure is not None and chunk.coups:
            in_chunk = np.bincount(chunk.shoe)
            if in_chunk.size > per_shoe.size:
                per_shoe = np.r_[per_shoe, np.zeros(in_chunk.size - per_shoe.size, dtype=np.int64)]
            per_shoe[: in_chunk.size] += in_chunk
        rep = replay(chunk, shoe, limit=1, rules=rules, carry=carry)
        usable = None  # the coups checked (None: all of the chunk)
        if skip_invalid:
            # a coup that breaks the drawing rules is set aside (its cards still leave the shoe);
            # a card the declared shoe cannot deal is refused as without --skip-invalid
            hard = [(k, msg) for k, rule, msg in rep.flagged if rule not in COUP_RULES]
            if hard or first is not None:
                if first is None:
                    k, msg = hard[0]
                    first = Violation(int(chunk.rows[k]), chunk.shoe_ids[chunk.shoe[k]], "", msg)
                violations += len(hard)
                continue
            if rep.flagged:
                usable = np.ones(chunk.coups, dtype=bool)
                for k, rule, _ in rep.flagged:
                    if usable[k]:
                        usable[k] = False
                        aside[rule] = aside.get(rule, 0) + 1
        elif rep.violations or first is not None:
            first = first or rep.violations[0]
            violations += rep.counts["violations"]
            continue
        if cards is not None:
            cards.add(chunk)  # every dealt card, set-aside coups' too
        if fams is None:
            continue
        seq = rep.sequence
        if aware:
            keep = rep.unseen >= POSITIONS
            if usable is not None:
                keep &= usable
                excluded += int((~keep & usable).sum())
            else:
                excluded += int((~keep).sum())
            seq = seq[keep]
            assert sums is not None  # shoe-aware with families
            sums.add(rep.remaining[keep], fams[0].code[seq] if depletion else None, jobs, progress)
        elif usable is not None:
            seq = seq[usable]
        for fam in fams:
            observed[fam.key] += np.bincount(fam.code[seq], minlength=fam.cells)
        n += int(seq.shape[0])
    if first is not None:
        more = f" and {violations - 1} more" if violations > 1 else ""
        if skip_invalid:
            raise CheckError(
                f"{stream.path}: row {first.row}: {first.message}{more}; --skip-invalid sets "
                f"aside coups that break the drawing rules, but the check needs a log that "
                f"follows the declared shoe (run 'baccarat verify' to list every violation)"
            )
        raise CheckError(
            f"{stream.path}: row {first.row}: {first.message}{more}; the check needs a log that "
            f"follows the drawing rules and the declared shoe (run 'baccarat verify' "
            f"to list every violation)"
        )
    if bet_error is not None:
        raise CheckError(str(bet_error)) from None
    assert fams is not None  # built, or bet_error is raised
    if n == 0 and aside:
        raise CheckError(
            f"{stream.path}: --skip-invalid set aside every coup (each breaks the drawing rules): nothing to check"
        )
    if aware and n == 0:
        raise CheckError(f"{stream.path}: no coup starts with 6 or more unseen cards: nothing to check")
    if aware:
        assert sums is not None  # shoe-aware with families
        ref = sums.reference()
    else:
        ref = off_the_top(shoe, fams, n)
    log = stream
    shoes = stream.shoes
    report = Report(
        log.path, "hand log", shoe, reference, n, shoes, excluded, alpha, power, detect, {}, {}, [], [], [], [], []
    )
    for fam in fams:
        fr = ref.families[fam.key]
        if fam.bet is None:
            report.cells[fam.key] = cell_stats(fr, observed[fam.key])
            report.titles[fam.key] = fam.title
            c = chi_square(fr, observed[fam.key])
            if c is not None:
                report.chisq.append(c)
        else:
            won = sum((int(k) * p for k, p in zip(observed[fam.key], fam.pays)), Fraction(0))
            enough = all(e >= MIN_EXPECTED for e, v in zip(fr.expected, fr.variance) if v > 0)
            assert fr.expected_return is not None and fr.return_variance is not None  # a bet's family
            report.bets.append(
                bet_stat(
                    fam.bet,
                    n,
                    won,
                    fr.expected_return,
                    fr.return_variance,
                    enough,
                    "" if enough else f"fewer than {MIN_EXPECTED} expected coups in some event: not tested",
                )
            )
    if reference == "shoe-aware" and depletion:
        report.depletion = depletion_test(ref)
    if getattr(jobs, "used", 0):
        report.engine = getattr(jobs, "where", None)  # a runner's
    if procedure is not None:
        from collections import Counter as Tally

        from .shoecount import shoe_count_test

        lengths = Tally(per_shoe[per_shoe > 0].tolist())
        section = shoe_count_test(report, lengths, shoe.value_counts, procedure, rules)
        if section is not None:
            report.sections = [section]
        if log.skipped:
            report.notes.append("Coups per shoe: rows left out by --skip-invalid shorten their shoes.")
    if cards is not None:
        got = cards.result()
        if got is not None:
            oref, steps = got
            report.cells["order"] = cell_stats(oref, steps)
            report.titles["order"] = oref.family.title
            c = chi_square(oref, steps)
            if c is not None:
                report.chisq.append(c)
            report.notes.append(
                "Card order: the step between consecutive dealt cards of a shoe against a "
                "uniform shuffle; the step probabilities are exact, the chi-square is an "
                "approximation: it takes consecutive pairs, which share a card, as "
                "independent (their dependence is of order 1/N, N the cards of the shoe, "
                "when the shoe's ranks are equally common)."
            )
        else:
            report.notes.append("Card order: not tested (no shoe of the log deals two cards).")
    elif order is None and stream.value_level:
        report.notes.append(
            "Card order: not tested (a value-level log: point values are not equally "
            "common, so consecutive steps, which share a card, are correlated beyond "
            "what the test's chi-square allows for; --card-order runs it on the point "
            "values anyway)."
        )
    if rules is not None and not rules.is_default:
        report.notes.append(f"Drawing rules: {rules.describe()} (the replay and the reference).")
    report.notes += reading_notes(
        log, "; their cards count as unseen, which is exact only if the rows were left out regardless of their cards"
    )
    if aside:
        k = sum(aside.values())
        reasons = "; ".join(f"{_ASIDE[r]}: {c}" for r, c in sorted(aside.items(), key=lambda kv: -kv[1]))
        report.set_aside = dict(aside)
        report.notes.append(
            f"--skip-invalid: {k} coup{'s' if k != 1 else ''} breaking the drawing rules "
            f"set aside ({reasons}); {'their' if k != 1 else 'its'} cards still left the "
            f"shoe (the coups after {'them' if k != 1 else 'it'} are compared with what "
            f"was left{', and the card order counts them' if cards is not None else ''}). "
            f"The set-aside coups are picked by their own cards: the counts of the rest "
            f"are those of the rule-abiding coups, not of every coup dealt."
        )
    if excluded:
        report.notes.append(
            f"{excluded} coup{'s' if excluded != 1 else ''} started with fewer than 6 "
            f"unseen cards and {'were' if excluded != 1 else 'was'} left out."
        )
    if reference == "off-the-top" and log.shoes < log.coups:
        report.notes.append(
            "Off-the-top reference on a log dealt from shoes: coups within a shoe are "
            "neither independent nor, after the first, distributed as off the top; "
            "use the shoe-aware reference (the default) to test such a simulator."
        )
    return _finish(report, report.cells["outcome"], [report.cells["cards"]])
