"""Integers of hundreds of thousands of bits: GMP's (gmpy2) when it is installed, else Python's.

A long session (:mod:`analyzer.reports.sessions`) counts ways over ``D**N``: numbers of
450,000 bits for 10,000 coups on 8 decks.  On numbers that size GMP's arithmetic is
about three times as fast as Python's, and its gcd and decimal conversion are
subquadratic where Python 3.11's are quadratic (8 ms for one gcd, 0.2 s for one
decimal string).  Every function here returns the same exact value either way;
gmpy2 is a dependency, and without it (a platform it has no wheel for) Python's
integers are used.

>>> fraction(6 * 10**5000, 4 * 10**5000)
Fraction(3, 2)
>>> big_, divexact = kernel()
>>> divexact(big_(3) ** 500 * 7, 7) == 3**500
True
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
from fractions import Fraction

#: Below this many bits Python's own gcd and ``str`` are as fast (and need no conversion).
_SMALL_BITS = 3_000


@functools.cache
def _gmpy2():
    """gmpy2, imported on first use (23 ms: not at the start of every command), or None."""
    try:
        import gmpy2  # type: ignore[import-untyped]  # no stubs
    except ImportError:  # pragma: no cover - a platform without a gmpy2 wheel
        return None
    return gmpy2


def gmp() -> bool:
    """True when GMP's integers are used (gmpy2 can be imported)."""
    return _gmpy2() is not None


def kernel():
    """``(big, divexact)`` for a loop over big numbers: gmpy2's ``mpz`` and ``divexact``,
    or ``int`` and floor division (``divexact(a, b)`` is ``a // b`` when ``b`` divides ``a``;
    GMP's exact division is faster than its floor division)."""
    g = _gmpy2()
    return (g.mpz, g.divexact) if g is not None else (int, operator.floordiv)


def accumulator(n: int):
    """``n`` as a running sum to add big numbers into in place (``gmpy2.xmpz``: no new number
    for each ``+=`` and ``*=``), or ``int``; read it through :func:`big` or ``int``."""
    g = _gmpy2()
    return g.xmpz(n) if g is not None else int(n)


def big(n: int):
    """``n`` as the fast big integer (``gmpy2.mpz``, or ``int``): the same operators, the same values."""
    return kernel()[0](n)


def gcd(a: int, b: int) -> int:
    """``math.gcd(a, b)``, subquadratic on big numbers."""
    if max(a.bit_length(), b.bit_length()) > _SMALL_BITS and (g := _gmpy2()) is not None:
        return int(g.gcd(a, b))
    return math.gcd(a, b)


class _Terms:
    """A numerator and a positive denominator already in lowest terms.

    ``Fraction(r)`` of a :class:`numbers.Rational` ``r`` takes its terms as they are,
    without the second gcd ``Fraction(num, den)`` would compute."""

    __slots__ = ("denominator", "numerator")

    def __init__(self, numerator: int, denominator: int):
        self.numerator, self.denominator = numerator, denominator


numbers.Rational.register(_Terms)


def fraction(num: int, den: int) -> Fraction:
    """``Fraction(num, den)`` (``den`` nonzero), reduced by one gcd: GMP's on big numbers."""
    num, den = int(num), int(den)
    if den < 0:
        num, den = -num, -den
    if den == 0:
        raise ZeroDivisionError(f"Fraction({num}, 0)")
    g = gcd(num, den)
    return Fraction(_Terms(num // g, den // g))  # type: ignore[call-overload]  # a registered Rational


def digits(n: int) -> str | None:
    """GMP's decimal digits of ``n`` (exactly ``str(n)``, with no limit on their number), or
    None without gmpy2 (:func:`analyzer.io.tables.int_text` then converts by halves)."""
    g = _gmpy2()
    return g.mpz(n).digits() if g is not None else None
