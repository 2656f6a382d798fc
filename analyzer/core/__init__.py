"""The exact core: cards, the shoe, the drawing rules, the engines and the solver.

Owns: :mod:`.cards` (ranks, suits, point values), :mod:`.shoe` (the immutable
shoe), :mod:`.rules` (the drawing tableau as data), :mod:`.features` (what a
bet can read of a coup), :mod:`.ways` (the one counting model, ``WaysTable``,
and its one evaluator, the only place a numeric back end is chosen
(:mod:`.backend`), with its plans: :mod:`.blocks` and :mod:`.classbatch`, exact
float64 blocks; :mod:`.rankflush`, per rank multiset; :mod:`.modular` and the
blocks' residues beyond int64), the compilers of bets into tables:
:mod:`.engine` (point values) and :mod:`.classengine` (any card of the coup, with
:mod:`.reads`), and :mod:`.cardengine` (the pair engine: ranks and suits of the
first two cards of each hand in closed form, a kind of its own),
:mod:`.results` (exact results, each bet wrapped when first read) and :mod:`.solver` (a set
of bets compiled once, then counted on any shoe), with :mod:`.errors` (the input
errors) and :mod:`.bigint` (GMP's big integers when gmpy2 is installed).

May import: the standard library, numpy, threadpoolctl (one BLAS thread), gmpy2 (big integers) and
sympy (primes); nothing else of the package.
Pure: it prints nothing, writes no file and formats nothing.
"""
