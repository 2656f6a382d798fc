"""Data frames of results, for notebooks: pandas, an optional extra, imported on call.

Every result object of the API has a ``to_frame()`` built with
:func:`data_frame`: exact values are ``Fraction`` columns (object dtype), each
with a ``*_float`` column beside it for plotting and sorting.  pandas is
imported only when a frame is asked for (``pip install '.[frames]'``).
"""

from __future__ import annotations

from fractions import Fraction

from .errors import BaccaratError


def data_frame(rows: list[dict]):
    """A pandas DataFrame of ``rows``; each ``Fraction`` column gains a ``_float`` twin."""
    try:
        import pandas as pd
    except ImportError:
        raise BaccaratError("to_frame() needs pandas: python -m pip install 'baccarat-analyzer[frames]'") \
            from None
    out = []
    for row in rows:
        full = {}
        for key, value in row.items():
            full[key] = value
            if isinstance(value, Fraction):
                full[f"{key}_float"] = _float(value)
        out.append(full)
    return pd.DataFrame(out)


def _float(x: Fraction) -> float | None:
    try:
        return float(x)
    except OverflowError:
        return None
