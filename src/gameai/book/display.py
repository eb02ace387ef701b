"""How the chapters show tables and glued text: :func:`show` and the pending placeholders.

The number formats live in :mod:`gameai.core.numbers` (the claims notes use them too); they are
imported here so that a notebook finds everything it shows numbers with in one module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pandas as pd

from ..core.numbers import (NBSP, and_list, at_least, ci_range, count, number, pct,  # noqa: F401
                           plain, points, points_range, range_separator, with_ci)

__all__ = ["NBSP", "and_list", "pct", "ci_range", "number", "points", "points_range", "count",
           "at_least", "with_ci", "TABLE_CSS", "NONE_CELL", "WRAP_MIN_WIDTH", "show", "table_id",
           "table_html", "glue_md", "pending_figure", "glue_pending", "table_data", "save_table"]

TABLE_CSS = [
    {"selector": "td, th", "props": "padding: 2px 6px; white-space: nowrap; font-size: 0.85em"},
    {"selector": "th.col_heading", "props": "white-space: normal; text-align: center"},
    {"selector": "caption", "props": "caption-side: top; font-size: 0.9em; text-align: left"},
]


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


#: What :func:`show` writes in a cell with no value (an em dash: "none", "not applicable").
NONE_CELL = "\u2014"

#: Narrowest width of a column that :func:`show` lets wrap (its text breaks into lines there).
WRAP_MIN_WIDTH = "8em"


def _blanks_as_missing(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the empty strings of its text columns as missing values (numbers untouched)."""
    text = [c for c in df.columns if pd.api.types.is_string_dtype(df[c]) or df[c].dtype == object]
    if not text:
        return df
    df = df.copy()
    for c in text:
        df[c] = df[c].mask(df[c].map(lambda v: isinstance(v, str) and not v.strip()))
    return df


def show(df: pd.DataFrame | None, caption: str | None = None, percent: Iterable[str] = (),
         counts: Iterable[str] = (), styler=None, index: bool = False,
         label: str | None = None, wrap: Iterable[str] = ()) -> None:
    """Display a table with one format per measure: ``percent`` columns (fractions) with one
    decimal, ``counts`` with thousands separators, other float columns with at most two
    decimals and no trailing zeros (not pandas' six); a missing value or an empty cell (a
    paper that gives no interval, a step that has no predecessor) as :data:`NONE_CELL`, so that
    a reader sees "none here" rather than a cell that failed to print.

    Cells keep to one line (numbers never break), except in the ``wrap`` columns: long labels
    or descriptions there break into lines (at least :data:`WRAP_MIN_WIDTH` wide), so that a
    table with a text column fits the page's column instead of scrolling sideways.

    The book numbers the table ("Table N.", in book order, by :mod:`gameai.book.sphinx_ext`) and
    gives it an HTML id to link to: ``label`` if given (e.g. ``"tab-kd-table1"``), else one
    made from the caption (:func:`table_id`). The caption (``caption``, else the styler's
    own) sits above the table, which scrolls sideways when it is wider than the column."""
    from IPython.display import HTML, display

    fmt = {c: pct for c in percent} | {c: "{:,.0f}" for c in counts}
    if df is not None:
        fmt = {c: plain for c in df.columns if pd.api.types.is_float_dtype(df[c])} | fmt
    if styler is None and df is not None:
        df = _blanks_as_missing(df)
    st = styler if styler is not None else df.style.format(fmt, na_rep=NONE_CELL)
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
    if label:
        save_table(label, table_data(st.data, percent, index=index))
    display(HTML(table_html(st.to_html(), caption, table_id(caption, label))))


def table_data(df: pd.DataFrame, percent: Iterable[str] = (), *, index: bool = False) -> pd.DataFrame:
    """A shown table as its CSV holds it: the values as the table shows them (``percent``
    columns as percentages, their names ending in " (%)"), the index as columns where shown."""
    out = df.reset_index() if index else df.copy()
    for c in percent:
        if c in out.columns:
            out[c] = pd.to_numeric(out[c], errors="coerce") * 100
            out = out.rename(columns={c: f"{c} (%)"})
    return out


def save_table(label: str, data: pd.DataFrame, folder=None) -> Path:
    """Write a numbered table's data as ``<label>.csv`` beside the figures' files
    (:func:`gameai.book.plots.figure_dir`), for the book's extension to link under the table."""
    from .plots import figure_dir

    folder = Path(folder) if folder is not None else figure_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{label}.csv"
    data.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    return path


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

    from gameai.book.plots import remove_saved

    fig = pending_figure(what, chapter)
    glue(key, fig, display=False)
    plt.close(fig)
    remove_saved(key)  # no figure files (nor links to them) for a figure not computed yet
