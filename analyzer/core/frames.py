"""Data frames of results, for notebooks: pandas, an optional extra, imported on call;
the short texts of the results' ``repr`` s and the HTML tables a notebook shows.

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
        raise BaccaratError("to_frame() needs pandas: python -m pip install 'baccarat-analyzer[frames]'") from None
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


def short_float(x: Fraction, fmt: str = ".6f") -> str:
    """``x`` as a float in ``fmt`` for a ``repr`` or a title (beside the exact value),
    or ``"more than 1e300"`` / ``"less than -1e300"`` past a float's range.

    >>> short_float(Fraction(1, 3)), short_float(Fraction(-10**400), ".2f")
    ('0.333333', 'less than -1e300')
    """
    if abs(x) > 10**300:
        return "more than 1e300" if x > 0 else "less than -1e300"
    return format(float(x), fmt)


def frame_html(make_frame, title: str) -> str | None:
    """A notebook's HTML of ``make_frame()`` (a pandas DataFrame, shown whole) under the
    heading ``title``: what the results' ``_repr_html_`` return.  ``None`` without pandas,
    so the notebook shows the ``repr`` instead."""
    try:
        import pandas  # noqa: F401
    except ImportError:
        return None
    import html

    table = make_frame().to_html(index=False, max_rows=None, max_cols=None)
    return f"<p><strong>{html.escape(title)}</strong></p>\n{table}"


def percent_text(x: Fraction) -> str:
    """``x`` as a percent to 4 decimals, for a ``repr`` (the exact value stands beside it).

    >>> percent_text(Fraction(1, 3)), percent_text(Fraction(10**400))
    ('33.3333%', 'more than 1e300')
    """
    f = short_float(x * 100, ".4f")
    return f if f.startswith(("more", "less")) else f + "%"


def fraction_text(x: Fraction, limit: int = 60) -> str:
    """``p/q``, or a float when the fraction is longer than ``limit`` characters.

    >>> fraction_text(Fraction(-1, 2)), fraction_text(Fraction(1, 3**200))
    ('-1/2', '~3.76e-96')
    """
    text = f"{x.numerator}/{x.denominator}"
    return text if len(text) <= limit else "~" + short_float(x, ".3g")


def bet_list(bets, show: int = 6) -> str:
    """``"3 bets: banker, player, tie"``, the ids cut after ``show``."""
    ids = list(bets)
    head = ", ".join(ids[:show]) + (f", ... ({len(ids) - show} more)" if len(ids) > show else "")
    return f"{len(ids)} bet{'' if len(ids) == 1 else 's'}" + (f": {head}" if ids else "")
