"""Exact sums of products in numpy ``int64``, for shoes beyond the int64 bound.

``coef @ prod_j (n[idx[:, j]] - off[:, j])`` is an exact non-negative integer below
a known bound (the deals of the shoe).  Computed modulo several primes below
``2**31`` every intermediate value stays below ``2**62`` (a residue times a
residue, or a coefficient below ``2**12`` times a residue, summed over at most
``2**18`` terms before reducing), and the Chinese remainder theorem gives the
integer back once the primes' product exceeds the bound.  Nothing is rounded and
nothing can overflow: a coefficient table beyond those limits is refused (the
caller then counts with Python integers).

>>> import numpy as np
>>> coef = np.array([[1, 2]]); idx = np.array([[0, 1], [1, 1]]); off = np.array([[0, 0], [0, 1]])
>>> n = [10**12, 10**12 + 5]
>>> exact_dot(coef, idx, off, n, bound=10**40) == [n[0] * n[1] + 2 * n[1] * (n[1] - 1)]
True
"""

from __future__ import annotations

import numpy as np

from .blocks import crt, moduli_for

MAX_COEF = 2**12
CHUNK = 2**18


def usable(coef: np.ndarray) -> bool:
    """True when ``coef`` is within the limits this module sums exactly."""
    return coef.size == 0 or (int(coef.min()) >= 0 and int(coef.max()) < MAX_COEF)


def exact_dot(coef: np.ndarray, idx: np.ndarray, off: np.ndarray, n: list[int], bound: int) -> list[int]:
    """``coef @ prod_j (n[idx[:, j]] - off[:, j])`` exactly, each result in ``[0, bound]``.

    ``coef``: (events, M) non-negative int64 below :data:`MAX_COEF`; ``idx``,
    ``off``: (M, K) int64 (``0 <= off < 2**31``); ``n``: Python integers.
    """
    if not usable(coef) or (off.size and (int(off.min()) < 0 or int(off.max()) >= 2**31)):
        raise ValueError("coefficients beyond the modular path's limits")
    primes = moduli_for(bound, wrapped=False, bits=31)
    residues = []
    for p in primes:
        n_mod = np.array([x % p for x in n], dtype=np.int64)
        fac = (n_mod[idx] - off) % p
        mono = fac[:, 0].copy()
        for col in range(1, fac.shape[1]):
            mono = (mono * fac[:, col]) % p
        acc = np.zeros(coef.shape[0], dtype=np.int64)
        for start in range(0, mono.shape[0], CHUNK):
            acc = (acc + coef[:, start : start + CHUNK] @ mono[start : start + CHUNK]) % p
        residues.append([int(x) for x in acc])
    return crt(residues, primes)
