"""Files in and out, and the pure string builders of every table.

Owns: :mod:`.files` (atomic writes of outputs), :mod:`.tables` (Markdown, CSV
and JSON text and the exact-number cells of every table the tool prints: no
other module builds a Markdown table by hand), :mod:`.interrupt` (the stop
request of SIGTERM / Ctrl-C, kept even where the exception it raises is swallowed),
:mod:`.batch` (a batch line's JSON to a shoe and known cards, lines read without
reading a file whole, answered in order: ``odds --batch`` and the server read it).

May import: :mod:`analyzer.core` (its errors, shoes and known cards) and well-kept libraries
(tabulate); nothing else of the package.
"""
