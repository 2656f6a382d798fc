"""Shoe studies: exact perfect-play and card-counting figures over dealt shoes.

A study deals ``shoes`` shuffled shoes and, before every coup, computes each
selected bet's *exact* EV on the cards still in the shoe.  From those EVs it
reports, per bet, how often the bet is positive, by how much, what a player
who bets one unit exactly when the EV is positive ("perfect play") expects to
win per shoe, how the EV is spread by depth in the shoe, and what a linear
card count captures of it.

Owns: :mod:`.params` (:class:`StudyParams`, the study's constants and bets),
:mod:`.dealing` (shuffling and dealing shoes to the cut card, the cards left
before each coup, :func:`trace_shoe`), :mod:`.evs` (the exact EV of every
selected bet before every coup), :mod:`.counting` (true counts, linear count
figures), :mod:`.aggregate` (one chunk's exact sums, merging, the
:class:`StudyResult`), :mod:`.runner` (:func:`run_study` on local processes
or a Dask cluster, with resumable state), :mod:`.format` (the result as JSON,
Markdown and CSV, the trace CSV), :mod:`.charts` (matplotlib, optional),
:mod:`.runs` (the runs of dealt shoes, for ``baccarat runs``) and :mod:`.series` (series
bets placed at every eligible coup of dealt shoes, settled across the coups that follow,
beside their off-the-top price).

May import: :mod:`analyzer.core`, :mod:`analyzer.io`, :mod:`analyzer.bets`
and :mod:`analyzer.reports` (effects of removal, for count tags; chart helpers;
the exact runs of independent coups).

Conventions (fixed, and part of every result):

* **Shuffle.**  Shoe number ``i`` (0, 1, 2, ...) is shuffled by
  ``numpy.random.Generator(PCG64(SeedSequence([seed, i])))``: one permutation of
  the shoe's cards (``Generator.permutation``).  Every shoe has its own seed, so
  a shoe's cards do not depend on how shoes are grouped into chunks or on which
  process deals them.  No card is burnt, unless the study's burn says so
  (:class:`analyzer.core.procedure.Procedure`: ``standard`` or a number of cards
  face down; burnt cards are unseen, so they stay in the EV's shoe).
* **Coups** are dealt card by card with :func:`analyzer.core.rules.play_coup`.
* **Cut card.**  The cut card sits with ``cut_card`` cards behind it.  A coup is
  started only while at least ``cut_card`` cards remain; the coup during which
  the cut card comes out is played to its end, and the shoe ends there.  So
  the last coup starts with at least ``cut_card`` cards left, and ``cut_card``
  must be at least 6 (a coup can use six cards).  With ``after_cut`` 1, one
  more coup is played after it (``cut_card`` must then be at least 12).
* **EV of a coup** is the exact EV on the remaining shoe (the start shoe minus
  every card dealt before the coup), counted like :func:`analyzer.analyze`, by the
  core for the coups of several shoes at once (:mod:`.evs`): the events of the bets on
  point values by one :class:`analyzer.core.engine.Tabulation` (``ways_many``), the
  bets that read ranks or suits by one :class:`analyzer.core.solver.Solver`
  (``solve_many``); the core chooses the exact arithmetic, the study only multiplies
  the counts by the payouts, in Python integers.
* **Exactness.**  A coup's EV is kept as an integer numerator over
  ``deals(N) * L`` (``deals(N) = N (N-1) ... (N-5)`` for ``N`` cards left, ``L``
  the common denominator of the bet's payouts).  Sums are kept per ``N`` as
  integers, so every total is an exact fraction and chunk results merge to
  the same numbers in any order.
* **True count** of a linear count with tags ``t_r`` is
  ``52 (RC - m * seen) / N``: the running count ``RC`` of the ``seen`` cards,
  centred by the start shoe's average tag ``m`` (0 for a balanced count), per
  deck left (``N`` cards left, exactly).  "Bet at trigger ``T``" means bet when
  the true count is at least ``T`` (``floor(true count) >= T``).

>>> from analyzer import Shoe, analyze
>>> from analyzer.studies import StudyParams, run_study, trace_shoe
>>> p = StudyParams.create(Shoe.standard(1), shoes=2, seed=7, cut_card=14, bet_ids=("banker", "dragon7"))
>>> res = run_study(p)
>>> res.coups > 0 and res.shoes == 2
True
>>> coups = trace_shoe(p, 0)
>>> coups[0].cards_left, coups[0].evs["banker"] == analyze(Shoe.standard(1), ["banker"]).bet("banker").ev
(52, True)
"""

import importlib

#: Public name -> the module that defines it; imported on first use (PEP 562), so that
#: ``import analyzer.studies.params`` (the CLI's option defaults) loads nothing else.
_EXPORTS = {
    "Aggregate": "aggregate",
    "StudyResult": "aggregate",
    "run_chunk": "aggregate",
    "summarize": "aggregate",
    "true_count": "counting",
    "CoupTrace": "dealing",
    "DealtShoe": "dealing",
    "deal_shoe": "dealing",
    "shoe_rng": "dealing",
    "trace_shoe": "dealing",
    "BatchEV": "evs",
    "CHUNK_SHOES": "params",
    "HIST_BINS_PER_UNIT": "params",
    "StudyError": "params",
    "StudyParams": "params",
    "bet_scale": "params",
    "ChunkStore": "runner",
    "default_state_dir": "runner",
    "run_study": "runner",
}

__all__ = sorted(_EXPORTS)  # noqa: PLE0605 (a list: sorted() of the lazy exports' names)


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
