"""Files in and out, and the pure string builders of every table.

Owns: :mod:`.files` (atomic writes of outputs), :mod:`.tables` (Markdown, CSV
and JSON text and the exact-number cells of every table the tool prints: no
other module builds a Markdown table by hand), :mod:`.interrupt` (the stop
request of SIGTERM / Ctrl-C, kept even where the exception it raises is swallowed).

May import: :mod:`analyzer.core` (its errors) and well-kept libraries
(tabulate); nothing else of the package.
"""
