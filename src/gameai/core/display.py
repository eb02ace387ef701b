"""How the chapters show numbers: one format per measure, missing values as nothing.

Shared by every chapter notebook so that a percentage, a confidence interval, a count or a
pending figure looks the same in every chapter of the book.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

__all__ = ["NBSP", "pct", "ci_range", "number", "points", "points_range", "count", "at_least",
           "with_ci", "TABLE_CSS", "WRAP_MIN_WIDTH", "show", "table_id", "table_html", "glue_md",
           "pending_figure", "glue_pending"]

NBSP = "\u00a0"  # keeps "57.2 %" on one line


def _missing(x) -> bool:
    return x is None or pd.isna(x)


def pct(x, decimals: int = 1) -> str:
    """A fraction as a percentage (``0.572`` -> ``57.2 %``); missing values as nothing. Here and
    below ``z`` rounds a negative value that rounds to zero to ``0.0``, not ``-0.0``."""
    return "" if _missing(x) else f"{x * 100:z.{decimals}f}{NBSP}%"


def number(x, decimals: int = 1, signed: bool = False) -> str:
    """A plain number with ``decimals`` digits (``+3.1`` when ``signed``); missing as nothing."""
    return "" if _missing(x) else f"{x:{'+' if signed else ''}z.{decimals}f}"


_SIGNS = ("-", "+", "\u2212")


def range_separator(low: str, high: str) -> str:
    """An en dash between two formatted ends (``52.1–60.3``), or `` to `` when either carries
    a sign (``-1.2 to 3.4``, ``-1.9 to +0.3``): a dash beside a minus or plus sign reads as
    one more sign."""
    return " to " if low.startswith(_SIGNS) or high.startswith(_SIGNS) else "\u2013"


def with_ci(value: str, lo, hi, *, percent: bool = True, decimals: int = 1,
            signed: bool = False, unit: str | None = None) -> str:
    """A table cell with the value on top and its 95 % interval in small type below it (HTML),
    so that a table with intervals stays narrow enough for the page (``signed`` and ``unit`` as
    in :func:`ci_range`)."""
    ci = ci_range(lo, hi, percent=percent, decimals=decimals, signed=signed, unit=unit)
    return f"{value}<br><small>{ci}</small>" if ci else value


def ci_range(lo, hi, *, percent: bool = True, decimals: int = 1, signed: bool = False,
             unit: str | None = None) -> str:
    """A 95 % interval as ``52.1–60.3 %`` (thousands separated: ``45,453–69,060``), or
    ``-1.2 to 3.4`` and ``-4.5 to -1.7`` when an end is negative (a dash beside a minus sign
    reads as one); nothing when either end is missing.

    ``signed`` is for differences: both ends carry their sign and always stand either side of
    `` to `` (``-1.9 to +0.3``, ``+0.2 to +1.4``), so that every interval of a table of
    differences has the same form. ``unit`` replaces the unit after the second end (``" %"``
    for ``percent``, else nothing): ``ci_range(-0.019, 0.003, signed=True, unit=" points")`` is
    ``-1.9 to +0.3 points``. An end that rounds to zero is ``0.0`` (``+0.0`` when signed), never
    ``-0.0``."""
    if _missing(lo) or _missing(hi):
        return ""
    scale, default_unit = (100, f"{NBSP}%") if percent else (1, "")
    unit = default_unit if unit is None else unit.replace(" ", NBSP)  # "2.1 points" on one line
    sign = "+" if signed else ""
    a, b = f"{lo * scale:{sign}z,.{decimals}f}", f"{hi * scale:{sign}z,.{decimals}f}"
    sep = " to " if signed else range_separator(a, b)
    return f"{a}{sep}{b}{unit}"


def points(x, decimals: int = 1, *, signed: bool = True, unit: bool = True) -> str:
    """A difference of two fractions in percentage points, written as points: ``0.021`` ->
    ``+2.1 points`` (``signed``; ``2.1 points`` without), ``-0.0004`` -> ``+0.0 points`` (never
    ``-0.0``); ``unit=False`` leaves the word out (a table whose header says "points").
    Missing values as nothing."""
    if _missing(x):
        return ""
    text = f"{x * 100:{'+' if signed else ''}z.{decimals}f}"
    return f"{text}{NBSP}points" if unit else text


def points_range(lo, hi, decimals: int = 1, *, unit: bool = True) -> str:
    """A 95 % interval of a difference of fractions in points: ``-1.9 to +0.3 points`` (always
    signed, always "to"; :func:`ci_range` with ``signed=True``)."""
    return ci_range(lo, hi, decimals=decimals, signed=True, unit=" points" if unit else "")


def count(x) -> str:
    """A count or a round large number as people write it, never in e-notation: ``1e5`` ->
    ``100,000``, ``2e5`` -> ``200,000``, ``1234.6`` -> ``1,235``. Missing values as nothing."""
    return "" if _missing(x) else f"{x:,.0f}"


def at_least(x, digits: int = 1) -> str:
    """A lower bound computed from a rough figure, without false precision: ``x`` rounded
    *down* to ``digits`` significant digits and written with thousands separators (``6592`` ->
    ``6,000``; ``digits=2``: ``6,500``; ``0.37`` -> ``0.3``). Use it where the input is itself a
    bound ("more than a month"), so the text says "more than 6,000 times", not "at least
    6,592 times". Missing, zero or negative values as nothing."""
    if _missing(x) or x <= 0:
        return ""
    exponent = int(np.floor(np.log10(x))) - (digits - 1)
    step = 10.0 ** exponent
    value = np.floor(x / step + 1e-9) * step
    decimals = max(0, -exponent)
    return f"{value:,.{decimals}f}"


TABLE_CSS = [
    {"selector": "td, th", "props": "padding: 2px 6px; white-space: nowrap; font-size: 0.85em"},
    {"selector": "th.col_heading", "props": "white-space: normal; text-align: center"},
    {"selector": "caption", "props": "caption-side: top; font-size: 0.9em; text-align: left"},
]


def plain(x) -> str:
    """A float without pandas' six decimals: two decimals at most from 1 up (``12.5``,
    ``1,234.57``, ``3``), three significant digits below (``0.94``, ``0.0173``), no trailing
    zeros."""
    if _missing(x):
        return ""
    if x == 0:
        return "0"
    text = f"{x:,.2f}" if abs(x) >= 1 else f"{x:.3g}"
    if "e" in text:  # a tiny value: positional, three significant digits
        text = np.format_float_positional(x, precision=3, unique=False, fractional=False)
    return text.rstrip("0").rstrip(".") if "." in text else text


def table_id(caption: str | None = None, label: str | None = None) -> str:
    """The HTML id of a table of :func:`show`: its ``label`` (letters, digits and dashes),
    else ``tab-`` and the first words of its caption (``tab-table-i-each-agent-against``);
    empty when it has neither (the book then calls it ``tab-N``)."""
    import re
    import unicodedata

    def slug(text: str) -> str:
        text = re.sub(r"<[^>]+>", " ", text)  # the caption may carry HTML
        text = re.sub(r"['\u2019]", "", text)  # RandomAI's -> randomais
        text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)  # 1–7 -> 1-7
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
        return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")

    if label:
        return slug(label)
    if not caption:
        return ""
    words = slug(caption).split("-")
    ident, n = "tab", 0
    for w in words:
        if not w or (n >= 4 and len(ident) + len(w) > 48):
            break
        ident, n = f"{ident}-{w}", n + 1
    return ident if n else ""


def table_html(table: str, caption: str | None = None, ident: str = "") -> str:
    """A table's HTML as the book shows it: a ``<figure class="gameai-table">`` with the
    caption above (``<figcaption>``, where the book's extension puts "Table N.") and the table
    in a horizontal scroll container, so that a table wider than the column scrolls inside it
    while its caption stays readable above it."""
    import html as html_

    attrs = f' id="{html_.escape(ident)}"' if ident else ""
    cap = (f'<figcaption class="gameai-table-caption" style="font-size: 0.9em; text-align: left; '
           f'margin: 0 0 0.3em">{caption}</figcaption>' if caption else "")
    return (f'<figure class="gameai-table"{attrs} style="margin: 1em 0 1.5em; max-width: 100%">'
            f"{cap}"
            f'<div class="gameai-table-scroll" style="overflow-x: auto; max-width: 100%">'
            f"{table}</div></figure>")


#: Narrowest width of a column that :func:`show` lets wrap (its text breaks into lines there).
WRAP_MIN_WIDTH = "8em"


def show(df: pd.DataFrame | None, caption: str | None = None, percent: Iterable[str] = (),
         counts: Iterable[str] = (), styler=None, index: bool = False,
         label: str | None = None, wrap: Iterable[str] = ()) -> None:
    """Display a table with one format per measure: ``percent`` columns (fractions) with one
    decimal, ``counts`` with thousands separators, other float columns with at most two
    decimals and no trailing zeros (not pandas' six); missing values shown as nothing.

    Cells keep to one line (numbers never break), except in the ``wrap`` columns: long labels
    or descriptions there break into lines (at least :data:`WRAP_MIN_WIDTH` wide), so that a
    table with a text column fits the page's column instead of scrolling sideways.

    The book numbers the table ("Table N.", in book order, by :mod:`gameai.book_ext`) and
    gives it an HTML id to link to: ``label`` if given (e.g. ``"tab-kd-table1"``), else one
    made from the caption (:func:`table_id`). The caption (``caption``, else the styler's
    own) sits above the table, which scrolls sideways when it is wider than the column."""
    from IPython.display import HTML, display

    fmt = {c: pct for c in percent} | {c: "{:,.0f}" for c in counts}
    if df is not None:
        fmt = {c: plain for c in df.columns if pd.api.types.is_float_dtype(df[c])} | fmt
    st = styler if styler is not None else df.style.format(fmt, na_rep="")
    if not index:
        st = st.hide(axis="index")
    st = st.set_table_styles(TABLE_CSS, overwrite=False)
    columns = list(st.data.columns)
    wrap = [c for c in wrap if c in columns]
    if wrap:  # !important: TABLE_CSS's "td {white-space: nowrap}" is the more specific rule
        st = st.set_properties(subset=wrap, **{"white-space": "normal !important",
                                               "min-width": WRAP_MIN_WIDTH})
    caption = caption or getattr(st, "caption", None) or None
    if isinstance(caption, (tuple, list)):  # Styler's (full, short) caption
        caption = caption[0]
    st.caption = None  # shown above the scroll container instead
    display(HTML(table_html(st.to_html(), caption, table_id(caption, label))))


def glue_md(key: str, text: str) -> None:
    """Glue Markdown text for ``{glue:md}`key``` in the chapter's prose."""
    from IPython.display import Markdown
    from myst_nb import glue

    glue(key, Markdown(text), display=False)


def pending_figure(what: str, chapter: str):
    """A one-line figure saying that ``what`` is not computed yet, and how to compute it."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 1.2))
    ax.axis("off")
    ax.text(0.5, 0.5, f"{what}: not computed yet (run `gameai run {chapter}`)", ha="center",
            va="center")
    return fig


def glue_pending(key: str, what: str, chapter: str) -> None:
    """Glue :func:`pending_figure` under ``key`` (and close it, so that it is shown once, where
    the chapter's ``{glue:figure}`` puts it)."""
    import matplotlib.pyplot as plt
    from myst_nb import glue

    from gameai.core.plots import remove_saved

    fig = pending_figure(what, chapter)
    glue(key, fig, display=False)
    plt.close(fig)
    remove_saved(key)  # no figure files (nor links to them) for a figure not computed yet
