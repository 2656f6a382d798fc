"""Checking simulators: log readers, replay, the exact reference, statistics.

Owns: :mod:`.logs` (hand logs and tallies), :mod:`.verify` (replay of every
coup against the rules and the shoe), :mod:`.check` (the statistical check
against exact values) and :mod:`.simulate` (the reference simulator, with
faults to break it on purpose).

May import: :mod:`analyzer.core`, :mod:`analyzer.io`, :mod:`analyzer.bets`.
"""
