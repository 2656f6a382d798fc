"""The exact core: cards, the shoe, the drawing rules, the engines and the solver.

Owns: :mod:`.cards` (ranks, suits, point values), :mod:`.shoe` (the immutable
shoe), :mod:`.rules` (the drawing tableau as data), :mod:`.features` (what a
bet can read of a coup), :mod:`.engine` (the point-value engine),
:mod:`.cardengine` (ranks and suits of the first two cards of each hand),
:mod:`.results` (exact results) and :mod:`.solver` (a set of bets compiled
once, then counted on any shoe), with :mod:`.errors` (the input errors).

May import: the standard library and numpy; nothing else of the package.
Pure: it prints nothing, writes no file and formats nothing.
"""
