"""Pure string builders for every table the tool prints: Markdown, CSV, JSON.

Every other module builds its tables with these, so a table looks the same
everywhere and exact values print exactly.  tabulate reformats anything that
looks like a number, so cells are pre-formatted strings and parsing is off.

>>> exact(Fraction(-1, 2)), exact(Fraction(0)), exact(3)
('-1/2', '0/1', '3/1')
>>> decimal(Fraction(1, 3), 4), percent(Fraction(1, 8), 2)
('0.3333', '12.50%')
>>> decimal(Fraction(10**400, 3), 4)
'3.3333e+399'
>>> to_float(Fraction(10**400)) is None, to_float(Fraction(-3, 4))
(True, -0.75)
>>> print(md_table([["a", "1/2"]], ["x", "y"]))
| x   | y   |
|-----|-----|
| a   | 1/2 |
>>> csv_text([[1, "a,b"]], ["n", "s"])
'n,s\\n1,"a,b"\\n'
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
from decimal import Context, Decimal
from fractions import Fraction

from tabulate import tabulate

from ..core.bigint import digits

# A float shows about 15 significant digits; beyond this magnitude (or for
# values a float cannot hold) decimals are written from the exact value.
_FLOAT_SAFE = 1e15


def exact(x: Fraction | int) -> str:
    """``p/q`` text of an exact rational (always with the slash)."""
    x = Fraction(x)
    return f"{int_text(x.numerator)}/{int_text(x.denominator)}"


#: Bits below which ``str()`` is used: fewer than Python's 4,300-digit limit of ``str(int)``.
_STR_BITS = 12_000


def int_text(n: int) -> str:
    """The decimal digits of ``n``, exactly as ``str(n)``, with no limit on their number and in
    less than quadratic time (Python 3.11's ``str`` is quadratic: 0.19 s for 135,000 digits).

    GMP's conversion when gmpy2 is installed (:func:`analyzer.core.bigint.digits`); else
    splits ``n`` in halves of bits recursively and joins them with the ``decimal`` module's
    exact arithmetic (its multiplication is a number-theoretic transform; the context traps
    any inexact result), the method of CPython 3.12's own conversion.

    >>> int_text(-12345)
    '-12345'
    >>> import sys; old = sys.get_int_max_str_digits(); sys.set_int_max_str_digits(0)
    >>> int_text(7 ** 30000 + 1) == str(7 ** 30000 + 1)
    True
    >>> sys.set_int_max_str_digits(old)
    """
    if n < 0:
        return "-" + int_text(-n)
    if n.bit_length() <= _STR_BITS:
        return str(n)
    fast = digits(n)  # GMP's, when gmpy2 is installed
    if fast is not None:
        return fast
    import decimal

    ctx = decimal.Context(
        prec=decimal.MAX_PREC,
        Emax=decimal.MAX_EMAX,
        Emin=decimal.MIN_EMIN,
        traps=[decimal.Inexact, decimal.Rounded, decimal.InvalidOperation],
    )
    powers: dict[int, Decimal] = {}

    def power(w: int) -> Decimal:
        if w not in powers:
            powers[w] = ctx.power(Decimal(2), w)
        return powers[w]

    def join(m: int, w: int) -> Decimal:
        if w <= _STR_BITS:
            return Decimal(str(m))
        half = w >> 1
        hi = m >> half
        return ctx.add(ctx.multiply(join(hi, w - half), power(half)), join(m - (hi << half), half))

    return format(join(n, n.bit_length()), "f")


def ratio(num: int, den: int) -> tuple[str, float | None]:
    """``(exact(Fraction(num, den)), to_float(Fraction(num, den)))`` from two integers
    (``den > 0``), reduced by one gcd and divided once, without building a ``Fraction``:
    what a document does for every event of every bet of every shoe.

    >>> ratio(6, -4 * -1), ratio(0, 7)
    (('3/2', 1.5), ('0/1', 0.0))
    """
    g = math.gcd(num, den)
    try:
        f = num / den  # int true division: correctly rounded, as Fraction's float()
    except OverflowError:
        f = None
    return f"{num // g}/{den // g}", (f if f is None or math.isfinite(f) else None)


def exact_or_none(x: Fraction | int | None) -> str | None:
    return None if x is None else exact(x)


def to_float(x) -> float | None:
    """``float(x)``, or ``None`` when the value is beyond a float (JSON has no infinity)."""
    if x is None:
        return None
    try:
        f = float(x)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def _scientific(x: Fraction, digits: int) -> str:
    ctx = Context(prec=digits + 1)
    d = ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    return f"{d:.{digits}e}"


def decimal(x: Fraction | float | int, digits: int = 10) -> str:
    """Fixed-point decimal for display; scientific notation for huge magnitudes."""
    if isinstance(x, float):
        if not math.isfinite(x):
            return str(x)
        x = Fraction(x)
    x = Fraction(x)
    if abs(x) >= _FLOAT_SAFE:
        return _scientific(x, digits)
    return f"{float(x):.{digits}f}"


def percent(x: Fraction | float | int, digits: int = 6) -> str:
    """``x`` as a percentage for display."""
    if isinstance(x, float) and not math.isfinite(x):
        return f"{x}%"
    x = Fraction(x) * 100
    if abs(x) >= _FLOAT_SAFE:
        return _scientific(x, digits) + "%"
    return f"{float(x):.{digits}f}%"


def md_table(rows, headers, align=None) -> str:
    """A GitHub-flavoured Markdown table; cells are printed as given."""
    rows = [[md_cell(c) for c in row] for row in rows]
    return tabulate(
        rows, headers=[md_cell(h) for h in headers], tablefmt="github", disable_numparse=True, colalign=align
    )


def md_cell(value) -> str:
    """A cell's text with the characters that would break a Markdown table escaped."""
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def csv_text(rows, headers=None) -> str:
    """CSV text (``\\n`` line ends), with a header row when ``headers`` is given."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if headers is not None:
        w.writerow(headers)
    w.writerows(rows)
    return buf.getvalue()


def json_numbers(a):
    """The JSON text of each number of an int64 or float64 array, as an object array of the
    same shape: ``str`` of the integers, ``repr`` of the floats (what ``json.dumps`` writes).

    >>> import numpy as np
    >>> json_numbers(np.array([[0.5, 1e-05], [2 / 3, 1e16]])).tolist()
    [['0.5', '1e-05'], ['0.6666666666666666', '1e+16']]

    orjson writes them all at once (about 50 ns a number, ``repr`` of a float 400).  Its
    floats are the shortest round-trip digits, as ``repr``'s are, written the same way in
    ``repr``'s positional range, 1e-4 <= |x| < 1e16 (and 0); outside it orjson writes
    ``0.00001`` or ``1e+16`` where ``repr`` writes ``1e-05``, so those floats are written by
    ``repr``.  The range is checked on first use against ``repr`` (:func:`orjson_writes_repr`;
    tests/test_tables.py draws many more): if the installed orjson disagrees, every
    float is written by ``repr``."""
    import numpy as np
    import orjson

    flat = a.ravel()
    out = np.array(orjson.dumps(flat, option=orjson.OPT_SERIALIZE_NUMPY).decode()[1:-1].split(","), dtype=object)
    if flat.dtype.kind == "f":
        size = np.abs(flat)
        odd = ((size < 1e-4) & (flat != 0)) | (size >= 1e16) if orjson_writes_repr() else size >= 0
        for i in np.flatnonzero(odd).tolist():
            out[i] = repr(float(flat[i]))
    return out.reshape(a.shape)


@functools.cache
def orjson_writes_repr() -> bool:
    """Whether orjson writes floats of 1e-4 <= |x| < 1e16 as ``repr`` does, on 800 of them
    spread over that range (both ends, integers, halves, random digits)."""
    import random

    import numpy as np
    import orjson

    rng = random.Random(20261206)
    xs = [0.0, -0.0, 1e-4, 0.5, 1.0, 1e15, 9999999999999998.0, 1 / 3, 0.1]
    xs += [rng.random() * 10.0 ** rng.randint(-3, 15) for _ in range(600)]
    xs += [rng.randrange(1, 2**53) / 2 ** rng.randrange(0, 40) for _ in range(200)]
    xs = [x for x in xs if x == 0 or 1e-4 <= abs(x) < 1e16]
    texts = orjson.dumps(np.array(xs), option=orjson.OPT_SERIALIZE_NUMPY).decode()[1:-1].split(",")
    return texts == [repr(x) for x in xs]


def json_text(doc, indent: int | None = 2) -> str:
    """JSON text ending in a newline; refuses NaN and infinity (not JSON)."""
    return json.dumps(doc, indent=indent, allow_nan=False) + "\n"
