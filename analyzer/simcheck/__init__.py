"""Checking simulators: log readers, replay, the exact reference, statistics.

Owns: :mod:`.logs` (hand logs), :mod:`.shapes` (the shapes simulators write, their columns
in :mod:`.columns`), :mod:`.stream`
(long logs read chunk by chunk) and :mod:`.tallies` (tally files), :mod:`.verify`
(replay of every coup against the rules and the shoe), :mod:`.families` (the
categories a check counts, compiled once and counted by the core's evaluator),
:mod:`.reference` (their exact expected counts and variances, off the top or shoe-aware;
:mod:`.distributed` runs the sums on forked processes or Dask workers), :mod:`.stats` (tests, Holm's correction,
power), :mod:`.check` (the check itself), :mod:`.check_format` (its reports) and
:mod:`.simulate` (the reference simulator, with faults to break it on purpose),
:mod:`.confirm` (a par sheet's verification appendix: the simulator against its exact table);
:mod:`.shoecount` tests the coups per shoe against the declared procedure.

May import: :mod:`analyzer.core`, :mod:`analyzer.io`, :mod:`analyzer.bets`.
"""
