"""Analyses and their documents: distributions, effects of removal, the reports.

Owns: :mod:`.distributions` (every table of totals and winners),
:mod:`.eor` (exact effects of removal and count tags), :mod:`.odds_plan` (the odds of
many shoes under one choice of bets and rules: ``odds``, ``odds --batch``, ``serve``), :mod:`.odds_tables`
and :mod:`.analysis_tables` (the Markdown / CSV / JSON documents of odds,
the catalog and the analyses, built on :mod:`analyzer.io.tables`),
:mod:`.runs` and :mod:`.runs_tables` (the exact longest runs and runs of at
least k of independent coups, and their documents), :mod:`.parsheet` and its
documents, :mod:`.approval` and :mod:`.approval_tables` (a par sheet's approval
figures: award frequencies, largest wins, win to drop of a bet mix), :mod:`.design`, :mod:`.export`
and :mod:`.design_tables` (pay tables to a target edge, a bet's weighted lookup
table, and their documents), :mod:`.bankroll`, :mod:`.sessions` and
:mod:`.bankroll_bounded` (betting sessions: exact, long flat trips, certified bounds),
:mod:`.programs` (rolling chips, loss rebates, tails, exits), :mod:`.overlay`,
:mod:`.overlay_inverse` and :mod:`.overlay_tables` (multiplier overlays: Lightning Baccarat),
:mod:`.charts`
(matplotlib, optional) and :mod:`.writer` (``reports/``).

May import: :mod:`analyzer.core`, :mod:`analyzer.io`, :mod:`analyzer.bets`.
"""
