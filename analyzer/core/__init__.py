"""The exact core: cards, the shoe, the drawing rules, the engines and the solver.

Owns: :mod:`.cards` (ranks, suits, point values), :mod:`.shoe` (the immutable
shoe), :mod:`.rules` (the drawing tableau as data), :mod:`.features` (what a
bet can read of a coup), :mod:`.engine` (the point-value engine, with
:mod:`.blocks`: batches in exact float64 blocks, and beyond int64 by residues),
:mod:`.cardengine` (ranks and suits of the first two cards of each hand),
:mod:`.classengine` (any card of the coup, with :mod:`.reads`, :mod:`.rankflush`,
:mod:`.modular`, and :mod:`.classbatch`: batches in exact float64 blocks),
:mod:`.results` (exact results, each bet wrapped when first read) and :mod:`.solver` (a set
of bets compiled once, then counted on any shoe), with :mod:`.errors` (the input
errors).

May import: the standard library, numpy, threadpoolctl (one BLAS thread) and
sympy (primes); nothing else of the package.
Pure: it prints nothing, writes no file and formats nothing.
"""
