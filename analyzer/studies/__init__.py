"""Shoe studies: dealt shoes, per-coup exact EVs, counting systems, runners.

Owns: dealing shoes to the cut card, the exact EV of every selected bet
before every coup, perfect play and linear counts, and running chunks of
shoes on local processes or a Dask cluster with resumable state.

May import: :mod:`analyzer.core`, :mod:`analyzer.io`, :mod:`analyzer.bets`
and :mod:`analyzer.reports` (effects of removal, for count tags).
"""
