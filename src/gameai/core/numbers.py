"""How the book writes numbers (one format per measure, missing values as nothing) and lists.

Pure text formatting, shared by the claims notes (:mod:`gameai.core.claims`) and every chapter's
tables and prose (through :mod:`gameai.book.display`), so that a percentage, a confidence interval
or a count looks the same everywhere in the book.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["NBSP", "pct", "ci_range", "number", "points", "points_range", "count", "at_least",
           "with_ci", "plain", "range_separator", "and_list"]

NBSP = "\u00a0"  # keeps "57.2 %" on one line


def _missing(x) -> bool:
    return x is None or pd.isna(x)


#: The most decimals a percentage or interval gains so that it does not read as a bound it is not.
EXTRA_DECIMALS = 3


def pct(x, decimals: int = 1) -> str:
    """A fraction as a percentage (``0.572`` -> ``57.2 %``); missing values as nothing. Here and
    below ``z`` rounds a negative value that rounds to zero to ``0.0``, not ``-0.0``. A fraction
    strictly between 0 and 1 that would print as ``0.0 %`` or ``100.0 %`` gets more decimals (up
    to :data:`EXTRA_DECIMALS` more): ``0.99987`` -> ``99.99 %``, so "100 %" means every one."""
    if _missing(x):
        return ""
    top = decimals + EXTRA_DECIMALS
    while decimals < top and 0 < x < 1 and round(x * 100, decimals) in (0, 100):
        decimals += 1
    return f"{x * 100:z.{decimals}f}{NBSP}%"


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
    ``-0.0``. Ends that differ but would print alike get more decimals (up to
    :data:`EXTRA_DECIMALS` more): ``(0.9999922, 1.0)`` -> ``99.999–100.000 %``."""
    if _missing(lo) or _missing(hi):
        return ""
    scale, default_unit = (100, f"{NBSP}%") if percent else (1, "")
    unit = default_unit if unit is None else unit.replace(" ", NBSP)  # "2.1 points" on one line
    sign = "+" if signed else ""
    top = decimals + EXTRA_DECIMALS
    while True:  # an interval that is not one point never prints as one (99.999-100.000 %)
        a, b = f"{lo * scale:{sign}z,.{decimals}f}", f"{hi * scale:{sign}z,.{decimals}f}"
        if a != b or lo >= hi or decimals >= top:
            break
        decimals += 1
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
    signed, always "to"; :func:`ci_range` with ``signed=True``). An end that is not 0 but
    rounds to 0 gets more decimals (up to 3), so that the reader can tell whether the interval
    excludes 0: ``(0.0004, 0.005)`` -> ``+0.04 to +0.50 points`` (it does), ``(-0.0004,
    0.005)`` -> ``-0.04 to +0.50 points`` (it does not; one decimal would print +0.0)."""
    while decimals < 3 and not _missing(lo) and not _missing(hi) and any(
            x != 0 and round(x * 100, decimals) == 0 for x in (lo, hi)):
        decimals += 1
    return ci_range(lo, hi, decimals=decimals, signed=True, unit=" points" if unit else "")


def count(x, significant: int = 0) -> str:
    """A count or a round large number as people write it, never in e-notation: ``1e5`` ->
    ``100,000``, ``2e5`` -> ``200,000``, ``1234.6`` -> ``1,235``. ``significant``: rounded to
    that many significant digits, for a measured mean whose interval is wider than its last
    digits (``1232312.4``, 3 -> ``1,230,000``). Missing values as nothing."""
    if _missing(x):
        return ""
    if significant and x:
        x = round(x, significant - 1 - math.floor(math.log10(abs(x))))
    return f"{x:z,.0f}"  # never "-0"


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


def and_list(items) -> str:
    """Items in words: ``a``, ``a and b``, ``a, b and c`` (no serial comma, as the book writes)."""
    items = [str(x) for x in items]
    if not items:
        raise ValueError("and_list needs at least one item")
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
