"""Data frames of results, for notebooks: pandas, an optional extra, imported on call;
the short texts of the results' ``repr`` s and the HTML tables a notebook shows.

Every result object of the API has a ``to_frame()`` built with
:func:`data_frame`: exact values are ``Fraction`` columns (object dtype), each
with a ``*_float`` column beside it for plotting and sorting.  pandas is
imported only when a frame is asked for (``pip install '.[frames]'``).

The ``_repr_html_`` tables a notebook shows are written here, without pandas, by
:func:`html_table` (every cell escaped); :func:`frame_html` writes the rows of a
result's ``to_frame()`` with the same columns.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from fractions import Fraction

from .errors import BaccaratError


def _with_floats(rows: list[dict]) -> list[dict]:
    """``rows`` with a ``_float`` twin after each ``Fraction`` value (the frames' columns)."""
    out = []
    for row in rows:
        full = {}
        for key, value in row.items():
            full[key] = value
            if isinstance(value, Fraction):
                full[f"{key}_float"] = _float(value)
        out.append(full)
    return out


def data_frame(rows: list[dict]):
    """A pandas DataFrame of ``rows``; each ``Fraction`` column gains a ``_float`` twin."""
    try:
        import pandas as pd
    except ImportError:
        raise BaccaratError("to_frame() needs pandas: python -m pip install 'baccarat-analyzer[frames]'") from None
    return pd.DataFrame(_with_floats(rows))


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


def cell_text(value) -> str:
    """A table cell's text: exact values whole (``Fraction`` as ``p/q``), floats to 6
    significant digits, ``None`` empty.

    >>> [cell_text(v) for v in (Fraction(-19, 20), 0.45859659, None, True, 12)]
    ['-19/20', '0.458597', '', 'True', '12']
    """
    if value is None:
        return ""
    if isinstance(value, float):
        return format(value, ".6g")
    return str(value)


def html_table(title: str, headers: Sequence[str], rows: Iterable[Sequence]) -> str:
    """The one HTML table writer of the results' ``_repr_html_``: a bold ``title`` over a
    table of ``rows`` (cells written by :func:`cell_text`); the title, the headers and every
    cell are escaped.  Needs no pandas.

    >>> print(html_table("a < b", ["x"], [[Fraction(1, 3)], ["<i>"]]))
    <p><strong>a &lt; b</strong></p>
    <table>
    <thead><tr><th>x</th></tr></thead>
    <tbody>
    <tr><td>1/3</td></tr>
    <tr><td>&lt;i&gt;</td></tr>
    </tbody>
    </table>
    """

    def line(tag: str, cells) -> str:
        return "<tr>" + "".join(f"<{tag}>{html.escape(cell_text(c))}</{tag}>" for c in cells) + "</tr>"

    lines = [f"<p><strong>{html.escape(title)}</strong></p>", "<table>", f"<thead>{line('th', headers)}</thead>"]
    lines += ["<tbody>", *(line("td", row) for row in rows), "</tbody>", "</table>"]
    return "\n".join(lines)


def frame_html(rows: list[dict], title: str) -> str:
    """A notebook's HTML of a result's ``to_frame()`` rows (shown whole, with the frame's
    columns: a ``_float`` twin beside each ``Fraction``) under the heading ``title``: what
    the results' ``_repr_html_`` return, with or without pandas."""
    full = _with_floats(rows)
    headers: dict[str, None] = {}
    for row in full:
        headers.update(dict.fromkeys(row))
    return html_table(title, list(headers), ([row.get(h) for h in headers] for row in full))


def percent_text(x: Fraction) -> str:
    """``x`` as a percent to 4 decimals, for a ``repr`` (the exact value stands beside it).

    >>> percent_text(Fraction(1, 3)), percent_text(Fraction(10**400))
    ('33.3333%', 'more than 1e300')
    """
    f = short_float(x * 100, ".4f")
    return f if f.startswith(("more", "less")) else f + "%"


def fraction_text(x: Fraction, limit: int = 60, fmt: str = ".3g") -> str:
    """``p/q`` (``p`` for a whole number), or a float in ``fmt`` when the fraction is
    longer than ``limit`` characters.

    >>> fraction_text(Fraction(-1, 2)), fraction_text(Fraction(1, 3**200)), fraction_text(Fraction(7))
    ('-1/2', '~3.76e-96', '7')
    >>> fraction_text(Fraction(10**40 + 1, 3**80), 30, ".6g")
    '~67.655'
    """
    text = str(x)
    return text if len(text) <= limit else "~" + short_float(x, fmt)


def bet_list(bets, show: int = 6) -> str:
    """``"3 bets: banker, player, tie"``, the ids cut after ``show``."""
    ids = list(bets)
    head = ", ".join(ids[:show]) + (f", ... ({len(ids) - show} more)" if len(ids) > show else "")
    return f"{len(ids)} bet{'' if len(ids) == 1 else 's'}" + (f": {head}" if ids else "")
