"""Figure helpers shared by the chapters: rates with 95 % intervals and the paper's values.

One message per figure; the paper's numbers are drawn in a separate, labelled style so that a
reader never mistakes them for ours.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Mapping, Sequence

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

PAPER_STYLE = dict(marker="*", s=220, color="black", zorder=5, label="paper (reported)")

#: Figure sizes in inches, at 100 dpi. The book's text column is about 610 px wide in a 1200 px
#: window, so a 6.4-inch figure is shown at nearly its own size and its 12-13 point labels read
#: like the body text. Two panels are stacked (``STACKED``) rather than set side by side, where
#: each would get half the column.
SINGLE = (6.4, 3.6)
STACKED = (6.4, 6.6)
WIDE = STACKED  # an alias kept for callers of the first version

#: Font sizes (points) for figures at the book's width.
RC = {
    "font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12.5, "xtick.labelsize": 11.5,
    "ytick.labelsize": 11.5, "legend.fontsize": 11.5, "legend.title_fontsize": 11.5,
    "figure.titlesize": 14, "lines.linewidth": 1.8, "lines.markersize": 6,
    "figure.dpi": 100, "savefig.dpi": 100,
}


def setup() -> None:
    """The book's plotting style: colour-blind palette, fonts legible at the book's width."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind", rc=RC)


class PercentTicks(matplotlib.ticker.PercentFormatter):
    """Percent tick labels (values are fractions) with as many decimals as the tick step needs:
    ``40%, 45%, 50%`` for a step of 5 points, ``49.5%, 50%, 50.5%`` for half a point, so that
    neighbouring labels never round to uneven or equal numbers."""

    def __init__(self) -> None:
        super().__init__(1.0, decimals=0)

    def set_locs(self, locs) -> None:
        super().set_locs(locs)
        self.decimals = self.decimals_for(locs)

    @staticmethod
    def decimals_for(locs) -> int:
        locs = np.unique(np.round(np.asarray(locs, dtype=float) * 100, 9))
        steps = np.diff(locs)
        steps = steps[steps > 0]
        if not len(steps):
            return 0
        return int(max(0, np.ceil(-np.log10(steps.min()) - 1e-9)))


def percent_axis(ax, axis: str = "y") -> None:
    """Tick labels as percentages (values are fractions), at steps of 1, 2 or 5 times a power
    of ten points (never 2.5, which whole-percent labels would show as ``48%, 50%, 52%, 55%``)
    and with the decimals the step needs (:class:`PercentTicks`)."""
    target = ax.yaxis if axis == "y" else ax.xaxis
    if target.get_scale() == "linear":
        target.set_major_locator(matplotlib.ticker.MaxNLocator(nbins="auto", steps=[1, 2, 5, 10]))
    target.set_major_formatter(PercentTicks())


def mark_extension(ax, summary: pd.DataFrame, decks: tuple[int, int], x: str = "label",
                   label: str = "beyond the paper's decks") -> None:
    """Shade the test decks outside the paper's range ``decks`` = (from, to) types: ours only."""
    idx = [i for i, (d, t) in enumerate(zip(summary["deck"], summary["types"]))
           if d != "original" and not decks[0] <= t <= decks[1]]
    if idx:
        ax.axvspan(min(idx) - 0.5, max(idx) + 0.5, color="#fff3c4", zorder=0, label=label)


def deck_axis(summaries: Sequence[pd.DataFrame], x: str = "label") -> pd.DataFrame:
    """The decks of several per-deck summaries on one axis: every deck that any of them has,
    the test decks by their number of types, then the published deck (columns ``x``, ``deck``,
    ``types``). A figure whose series cover different decks (2-13 types and 2-9) places each
    point by its deck on this axis and labels every deck, not only the last series'."""
    rows = {}
    for s in summaries:
        for r in s[[c for c in (x, "deck", "types") if c in s.columns]].to_dict("records"):
            rows.setdefault(str(r[x]), r)
    def key(r):
        original = str(r.get("deck", "")) == "original"
        t = r.get("types")
        return (original, float(t) if t is not None and not pd.isna(t) else float("inf"), str(r[x]))
    return pd.DataFrame(sorted(rows.values(), key=key)).reset_index(drop=True)


def rates_panel(ax, summary: pd.DataFrame, metric: str, *, label: str, color=None,
                offset: float = 0.0, x: str = "label", axis: pd.DataFrame | None = None) -> None:
    """Point estimates with 95 % CI error bars of ``metric`` (``win`` or ``score``) per deck.

    ``axis`` (:func:`deck_axis`) places the decks by label on a shared axis and labels all of
    its decks; without it the points stand at 0, 1, 2, ... and the ticks are this summary's."""
    if axis is None:
        axis = summary
    positions = {str(v): i for i, v in enumerate(axis[x].astype(str))}
    xs = np.array([positions[str(v)] for v in summary[x].astype(str)], dtype=float) + offset
    y = summary[metric].to_numpy(dtype=float)
    lo = summary[f"{metric}_lo"].to_numpy(dtype=float)
    hi = summary[f"{metric}_hi"].to_numpy(dtype=float)
    # The published deck is no step of the numbered test decks: its point stands on its own,
    # in the series' colour, never joined to the line through 2, 3, ... types.
    original = (summary["deck"].astype(str) == "original").to_numpy() if "deck" in summary \
        else np.zeros(len(summary), dtype=bool)
    kw = dict(capsize=3, lw=1.8, ms=6)
    for part, fmt in ((~original, "o-"), (original, "o")):
        if not part.any():
            continue
        c = ax.errorbar(xs[part], y[part], yerr=[y[part] - lo[part], hi[part] - y[part]],
                        fmt=fmt, label=label, color=color, **kw)
        color = c.lines[0].get_color()  # the original deck in the same colour
        label = "_nolegend_"  # one legend entry per series
    ax.set_xticks(np.arange(len(axis)),
                  ["orig." if s == "original" else s for s in axis[x].astype(str)])


def paper_overlay(ax, summary: pd.DataFrame, points: Sequence[tuple[int | str, float]],
                  mean: float | None = None, x: str = "label") -> None:
    """The paper's reported points (deck label, value) and its mean as a dotted line."""
    labels = list(summary[x].astype(str))
    first = True
    for deck, value in points:
        if str(deck) in labels:
            kw = dict(PAPER_STYLE)
            if not first:
                kw.pop("label")
            ax.scatter([labels.index(str(deck))], [value], **kw)
            first = False
    if mean is not None:
        ax.axhline(mean, color="black", ls=":", lw=1.6, label="paper mean")


def baseline(ax, value: float, label: str = "RandomAI") -> None:
    ax.axhline(value, color="grey", ls="--", lw=1.4, label=label)


def win_score_figure(series: Mapping[str, pd.DataFrame], *, paper: Mapping[str, dict] | None = None,
                     baselines: tuple[float, float] | None = None, xlabel: str = "card types in the deck",
                     title: str | None = None, paper_decks: tuple[int, int] | None = None,
                     baseline_label: str = "RandomAI",
                     ylabels: tuple[str, str] = ("wins (share of games)", "score (share of maximum)")):
    """Two panels (win %, score %) of one or more per-deck summaries, with the paper overlaid.

    ``paper`` maps a series label to ``{"win": [(deck, value), …], "score": […],
    "mean": (win, score)}``. ``paper_decks`` = (from, to) types shades our decks outside the
    paper's range (our extension).
    """
    setup()
    fig, axes = plt.subplots(2, 1, figsize=STACKED, sharex=True)
    n = len(series)
    palette = sns.color_palette("colorblind", n)
    # One axis for all series: a series that stops at 9 types must not cut the labels of one
    # that runs to 13 (every point stands at its own deck's tick).
    first = deck_axis(list(series.values()))
    for i, (label, summary) in enumerate(series.items()):
        off = (i - (n - 1) / 2) * 0.12
        for ax, metric in zip(axes, ("win", "score")):
            rates_panel(ax, summary, metric, label=f"{label} (ours)", color=palette[i], offset=off,
                        axis=first)
    for label, ref in (paper or {}).items():
        for j, (ax, metric) in enumerate(zip(axes, ("win", "score"))):
            mean = ref.get("mean", (None, None))[j]
            paper_overlay(ax, first, ref.get(metric, ()), mean)
    for ax, metric in zip(axes, ("win", "score")):
        if baselines is not None:
            baseline(ax, baselines[0 if metric == "win" else 1], baseline_label)
        if paper_decks is not None:
            mark_extension(ax, first, paper_decks)
        ax.set_ylabel(ylabels[0] if metric == "win" else ylabels[1])
        percent_axis(ax)
    handles, labels = axes[1].get_legend_handles_labels()
    seen = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    axes[1].set_xlabel(xlabel)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    # Below the panels, at most two entries a row: a wider legend would shrink the figure
    # when the notebook's inline backend crops it to its tight bounding box.
    fig.legend(seen.values(), seen.keys(), loc="upper center", ncol=min(2, len(seen)),
               frameon=False, bbox_to_anchor=(0.5, 0.0))
    return fig


# --------------------------------------------------------------------------------------------
# Citable figures: the glued PNG at print resolution, and beside it an SVG and a CSV of the
# numbers plotted (read back from the Figure itself), which the book links under the caption.
# --------------------------------------------------------------------------------------------

#: Resolution of the glued PNG and of the downloadable one; the page shows it at the size of
#: ``RC["figure.dpi"]`` (100 dpi), so it is twice as sharp as the screen's pixels.
FIGURE_DPI = 200
#: The folder (beside the chapter notebook: cells run with cwd = book/) where
#: :func:`glue_figure` writes ``<key>.svg``, ``<key>.png`` and ``<key>.csv``;
#: :mod:`gameai.book.sphinx_ext` copies them into the HTML output's ``_figures/``.
FIGURES_DIRNAME = "_figures"
FIGURES_ENV = "GAMEAI_FIGURES_DIR"
#: File name suffix of a figure's phone version (``fig-x-narrow.png``).
NARROW_SUFFIX = "-narrow"

#: Columns of a figure's CSV, in this order (``x_low``/``x_high`` and ``y_label`` only when a
#: figure has horizontal error bars or categorical y ticks).
DATA_COLUMNS = ["panel", "series", "kind", "x", "x_label", "y", "y_low", "y_high", "x_axis",
                "y_axis"]
_OPTIONAL_COLUMNS = {"x_low": "x", "x_high": "x_low", "y_label": "y"}
#: Words of a caption-style label that end with a period but do not end a sentence.
_ABBREVIATIONS = {"fig", "figs", "e.g", "i.e", "vs", "cf", "al", "no", "eq", "sec", "approx"}


def figure_dir() -> Path:
    """Where :func:`glue_figure` saves a figure's files: ``$GAMEAI_FIGURES_DIR``; in a
    ``gameai rerun`` (whose results folder lies beside its ``rerun.json``) the rerun's own
    ``book/_figures``; else ``_figures`` in the working directory (the chapter notebook runs
    in ``book/``, so ``book/_figures``)."""
    if os.environ.get(FIGURES_ENV):
        return Path(os.environ[FIGURES_ENV])
    data = os.environ.get("GAMEAI_DATA_DIR")
    if data:
        rerun = Path(data).resolve().parent
        if (rerun / "rerun.json").is_file() and (rerun / "book").is_dir():
            return rerun / "book" / FIGURES_DIRNAME
    return Path.cwd() / FIGURES_DIRNAME


def _rgb(color) -> tuple | None:
    try:
        rgba = matplotlib.colors.to_rgba_array(color)
    except (ValueError, TypeError):
        return None
    if len(rgba) == 0:
        return None
    return tuple(np.round(rgba[0][:3], 3))


def _label(artist) -> str:
    label = artist.get_label() if artist is not None else None
    return "" if label is None or str(label).startswith("_") else str(label)


def _categories(axis) -> dict[float, str] | None:
    """Tick positions -> tick labels of an axis whose labels are categories (deck names,
    budgets at positions 0, 1, …), or None when its labels are the plain numbers of the
    positions (then the x value already says it)."""
    from matplotlib.category import StrCategoryFormatter

    fmt = axis.get_major_formatter()
    # set_xticks(positions, labels) installs a FixedFormatter (a FuncFormatter in newer
    # Matplotlib); a string axis, a StrCategoryFormatter.
    if not isinstance(fmt, (matplotlib.ticker.FixedFormatter, matplotlib.ticker.FuncFormatter,
                            StrCategoryFormatter)):
        return None
    locs = np.asarray(axis.get_majorticklocs(), dtype=float)
    try:
        labels = [str(t) for t in fmt.format_ticks(locs)]
    except Exception:  # noqa: BLE001 - an odd formatter: no categories
        return None
    if not any(labels):
        return None

    def numeric_match(loc: float, text: str) -> bool:
        try:
            return np.isclose(float(text.replace("\u2212", "-").replace(",", "")), loc)
        except ValueError:
            return False

    if all(numeric_match(loc, text) or not text for loc, text in zip(locs, labels)):
        return None
    return {float(loc): text for loc, text in zip(locs, labels)}


def _category_of(value: float, cats: dict[float, str] | None) -> str:
    """The label of the category tick nearest to ``value`` (points are often dodged a little
    left or right of their tick), within half the tick spacing."""
    if not cats or value is None or not np.isfinite(value):
        return ""
    locs = np.array(sorted(cats))
    spacing = np.min(np.diff(locs)) if len(locs) > 1 else 1.0
    i = int(np.argmin(np.abs(locs - value)))
    return cats[float(locs[i])] if abs(locs[i] - value) <= spacing / 2 + 1e-9 else ""


def _fill_between_band(coll) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(x, low, high) of each region of a ``fill_between`` polygon (its vertices run along
    y1 from left to right and back along y2)."""
    bands = []
    for path in coll.get_paths():
        v = np.asarray(path.vertices, dtype=float)
        if path.codes is not None and len(v) and path.codes[-1] == matplotlib.path.Path.CLOSEPOLY:
            v = v[:-1]
        n = (len(v) - 2) // 2
        if n < 1 or len(v) != 2 * n + 2:
            continue
        fwd, back = v[1:n + 1], v[n + 2:2 * n + 2][::-1]
        if not np.allclose(fwd[:, 0], back[:, 0]):
            continue
        bands.append((fwd[:, 0], np.minimum(fwd[:, 1], back[:, 1]),
                      np.maximum(fwd[:, 1], back[:, 1])))
    return bands


def figure_data(fig) -> pd.DataFrame:
    """The numbers a matplotlib figure plots, one row per point, read back from its artists.

    Columns (:data:`DATA_COLUMNS`): ``panel`` (the axes' title; ``panel N`` for untitled
    axes of a figure with several), ``series`` (the artist's legend label; an unlabelled
    artist takes the label of a labelled one of the same colour in the same panel, e.g. the
    paper's stars after the first), ``kind`` (``line``, ``errorbar``, ``bar``, ``scatter``,
    ``hline``, ``vline``, ``band``), ``x``, ``x_label`` (the tick label of a categorical x
    axis nearest to the point), ``y``, ``y_low``/``y_high`` (error bar or band ends),
    ``x_axis``/``y_axis`` (the axis labels); ``x_low``/``x_high`` only when there are
    horizontal error bars, ``y_label`` only for categorical y ticks (horizontal bars).

    Read: lines (``plot``, ``step``, ``axhline``/``axvline``), error bars (their line and
    low/high), bar containers (with their error bars), scatter collections and
    ``fill_between`` bands (merged into the line of the same x and colour as its
    ``y_low``/``y_high``). Not data: text, shaded spans, legend-only entries (empty lines).
    """
    from matplotlib.collections import FillBetweenPolyCollection, LineCollection, PathCollection
    from matplotlib.container import BarContainer, ErrorbarContainer

    data_axes = [ax for ax in fig.axes
                 if ax.lines or ax.collections or ax.containers or ax.patches]
    rows: list[dict] = []
    extra: set[str] = set()
    for k, ax in enumerate(data_axes, start=1):
        panel = ax.get_title() or ax.get_title("left") or ax.get_title("right")
        if not panel and len(data_axes) > 1:
            panel = f"panel {k}"
        xcats, ycats = _categories(ax.xaxis), _categories(ax.yaxis)
        base = {"panel": panel, "x_axis": ax.get_xlabel(), "y_axis": ax.get_ylabel()}
        used: set[int] = set()  # artists already read as part of a container
        series: list[dict] = []  # one per artist: its rows, colour, label

        def add(artist_rows, label, color, kind):
            series.append({"rows": artist_rows, "label": label, "color": _rgb(color),
                           "kind": kind})

        def point(x, y, **kw):
            r = {"x": x, "y": y, **kw}
            r["x_label"] = _category_of(x, xcats) if x is not None else ""
            if ycats:
                r["y_label"] = _category_of(y, ycats) if y is not None else ""
            return r

        for c in ax.containers:
            if isinstance(c, BarContainer) and c.errorbar is not None:
                used.add(id(c.errorbar))  # read with its bars
        for c in ax.containers:
            if id(c) in used:
                continue
            if isinstance(c, BarContainer):
                horizontal = getattr(c, "orientation", "vertical") == "horizontal"
                err = c.errorbar
                lows, highs = _error_ends(err, horizontal) if err is not None else (None, None)
                pts = []
                for i, p in enumerate(c.patches):
                    used.add(id(p))
                    if horizontal:
                        y, x = p.get_y() + p.get_height() / 2, p.get_x() + p.get_width()
                        kw = {}
                        if lows is not None:
                            kw = {"x_low": lows[i], "x_high": highs[i]}
                            extra.update(("x_low", "x_high"))
                        pts.append(point(x, y, **kw))
                    else:
                        x, y = p.get_x() + p.get_width() / 2, p.get_y() + p.get_height()
                        kw = {} if lows is None else {"y_low": lows[i], "y_high": highs[i]}
                        pts.append(point(x, y, **kw))
                if err is not None:
                    used.update(id(a) for a in _container_artists(err))
                color = c.patches[0].get_facecolor() if c.patches else None
                add(pts, _label(c), color, "bar")
            elif isinstance(c, ErrorbarContainer):
                used.update(id(a) for a in _container_artists(c))
                line, _caps, cols = c.lines
                xerr_col = cols[0] if c.has_xerr else None
                yerr_col = cols[-1] if c.has_yerr else None
                if line is not None:
                    xs = np.asarray(line.get_xdata(), dtype=float)
                    ys = np.asarray(line.get_ydata(), dtype=float)
                else:  # fmt="none": the points are the bars' middles
                    segs = (yerr_col or xerr_col).get_segments()
                    xs = np.array([np.mean(np.asarray(s)[:, 0]) if len(s) else np.nan for s in segs])
                    ys = np.array([np.mean(np.asarray(s)[:, 1]) if len(s) else np.nan for s in segs])
                ylo, yhi = _segment_ends(yerr_col, xs, axis=1)
                xlo, xhi = _segment_ends(xerr_col, ys, axis=0)
                pts = []
                for i, (x, y) in enumerate(zip(xs, ys)):
                    kw = {}
                    if ylo is not None:
                        kw.update(y_low=ylo[i], y_high=yhi[i])
                    if xlo is not None:
                        kw.update(x_low=xlo[i], x_high=xhi[i])
                        extra.update(("x_low", "x_high"))
                    pts.append(point(x, y, **kw))
                color = line.get_color() if line is not None else (yerr_col or xerr_col).get_color()
                add(pts, _label(c), color, "errorbar")
        for line in ax.lines:
            if id(line) in used:
                continue
            xs = np.atleast_1d(np.asarray(line.get_xdata(), dtype=float))
            ys = np.atleast_1d(np.asarray(line.get_ydata(), dtype=float))
            if xs.size == 0 or ys.size == 0:
                continue  # a legend entry only
            in_x, in_y = line.get_transform().contains_branch_seperately(ax.transData)
            if in_y and not in_x:  # axhline
                add([point(None, ys[0])], _label(line), line.get_color(), "hline")
            elif in_x and not in_y:  # axvline
                add([point(xs[0], None)], _label(line), line.get_color(), "vline")
            elif in_x and in_y:
                add([point(x, y) for x, y in zip(xs, ys)], _label(line), line.get_color(), "line")
        bands = []
        for coll in ax.collections:
            if id(coll) in used:
                continue
            if isinstance(coll, FillBetweenPolyCollection):
                for xs, lo, hi in _fill_between_band(coll):
                    bands.append((xs, lo, hi, _label(coll), coll.get_facecolor()))
            elif isinstance(coll, PathCollection):
                if not coll.get_offset_transform().contains_branch(ax.transData):
                    continue
                offs = np.asarray(coll.get_offsets(), dtype=float)
                if offs.size == 0:
                    continue
                add([point(x, y) for x, y in offs], _label(coll), coll.get_facecolor(), "scatter")
            elif isinstance(coll, LineCollection):  # hlines / vlines
                pts = []
                for s in coll.get_segments():
                    s = np.asarray(s, dtype=float)
                    if len(s) == 2 and np.isclose(s[0, 0], s[1, 0]):
                        pts.append(point(s[0, 0], None, y_low=min(s[:, 1]), y_high=max(s[:, 1])))
                    else:
                        pts += [point(x, y) for x, y in s]
                if pts:
                    add(pts, _label(coll), coll.get_color(), "segments")
        for xs, lo, hi, label, color in bands:
            rgb = _rgb(color)
            match = [s for s in series if s["kind"] == "line" and s["color"] == rgb
                     and len(s["rows"]) == len(xs)
                     and np.allclose([r["x"] for r in s["rows"]], xs, equal_nan=True)]
            if match and not label:
                for r, a, b in zip(match[0]["rows"], lo, hi):
                    r["y_low"], r["y_high"] = a, b
            else:
                add([point(x, None, y_low=a, y_high=b) for x, a, b in zip(xs, lo, hi)],
                    label, color, "band")
        for s in series:  # unlabelled: the label of a labelled artist of the same colour
            if not s["label"] and s["color"] is not None:
                s["label"] = next((t["label"] for t in series if t["label"]
                                   and t["color"] == s["color"]), "")
            for r in s["rows"]:
                rows.append({**base, "series": s["label"], "kind": s["kind"], **r})
        if ycats:
            extra.add("y_label")
    columns = list(DATA_COLUMNS)
    for col in ("x_low", "x_high", "y_label"):
        if col in extra:
            columns.insert(columns.index(_OPTIONAL_COLUMNS[col]) + 1, col)
    df = pd.DataFrame(rows, columns=columns)
    for col in ("x", "y", "y_low", "y_high", "x_low", "x_high"):
        if col in df:
            df[col] = pd.to_numeric(df[col], errors="coerce")
    for col in ("x_label", "y_label"):
        if col in df:
            df[col] = df[col].fillna("")
    return df


def _container_artists(container) -> list:
    out = []
    for a in container:
        if isinstance(a, (tuple, list)):
            out += list(a)
        elif a is not None:
            out.append(a)
    return out


def _segment_ends(coll, positions, axis: int):
    """Low and high ends (along ``axis``: 1 = y, 0 = x) of an error bar collection's
    segments, aligned with the points (a missing point has an empty segment)."""
    if coll is None:
        return None, None
    segs = coll.get_segments()
    lo = np.full(len(positions), np.nan)
    hi = np.full(len(positions), np.nan)
    if len(segs) == len(positions):
        for i, s in enumerate(segs):
            s = np.asarray(s, dtype=float)
            if len(s):
                lo[i], hi[i] = s[:, axis].min(), s[:, axis].max()
    else:  # errorevery: match each segment to its point by position
        other = 1 - axis
        for s in segs:
            s = np.asarray(s, dtype=float)
            if not len(s):
                continue
            hits = np.flatnonzero(np.isclose(positions, s[0, other]))
            if len(hits):
                lo[hits[0]], hi[hits[0]] = s[:, axis].min(), s[:, axis].max()
    return lo, hi


def _error_ends(err, horizontal: bool):
    """Low/high ends of a bar container's error bars, one per bar."""
    _line, _caps, cols = err.lines
    col = (cols[0] if err.has_xerr else None) if horizontal else (cols[-1] if err.has_yerr else None)
    if col is None:
        return None, None
    segs = col.get_segments()
    axis = 0 if horizontal else 1
    lo = np.array([np.asarray(s)[:, axis].min() if len(s) else np.nan for s in segs], dtype=float)
    hi = np.array([np.asarray(s)[:, axis].max() if len(s) else np.nan for s in segs], dtype=float)
    return lo, hi


#: PNG text chunk holding a figure's smallest text size in points, which the book's extension
#: passes to the browser check (text size on screen = points / 72 × dpi × shown / natural width).
TEXT_PT_KEY = "gameai-min-text-pt"
#: A phone's text column (CSS px: a 400-px window less the page's margins and the figure's own,
#: with a little room to spare) and the smallest figure text the book allows there (CSS px).
PHONE_COLUMN_PX = 330
MIN_TEXT_PX = 9.0
#: Width (inches) of a figure's phone version: every panel in one column.
NARROW_WIDTH_IN = 4.2


def min_text_pt(fig) -> float:
    """The smallest font size (points) of any visible, non-empty text of the figure (tick labels,
    titles, legends, annotations); the body size when it has none."""
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_figure() is not None]
    return float(min(sizes)) if sizes else float(RC["font.size"])


def _png(fig, dpi: int, text_pt: float) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight",
                metadata={TEXT_PT_KEY: f"{text_pt:g}"})
    return buf.getvalue()


def png_width(png: bytes) -> int:
    """The width in pixels of PNG ``png`` (its IHDR chunk)."""
    return int.from_bytes(png[16:20], "big")


def png_text(png: bytes, key: str) -> str | None:
    """The value of the ``tEXt`` chunk ``key`` of PNG ``png``, if any."""
    pos = 8
    while pos + 8 <= len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if kind == b"tEXt" and body.split(b"\0", 1)[0] == key.encode("latin-1"):
            return body.split(b"\0", 1)[1].decode("latin-1")
        if kind == b"IEND":
            break
        pos += 12 + length
    return None


def phone_text_px(png: bytes, text_pt: float, dpi: int = FIGURE_DPI) -> float:
    """The smallest text of a PNG rendered at ``dpi`` as a phone shows it: at its own CSS width
    (``figure.dpi`` px per inch) or the phone's column, whichever is smaller."""
    natural = png_width(png)
    shown = min(PHONE_COLUMN_PX, natural * RC["figure.dpi"] / dpi)
    return text_pt / 72 * dpi * shown / natural


def figure_png(fig, dpi: int = FIGURE_DPI) -> tuple[bytes, int]:
    """The figure as PNG bytes at ``dpi`` (cropped to its tight bounding box, like the
    notebook's inline backend, with its smallest text size in :data:`TEXT_PT_KEY`) and the width
    in CSS pixels that shows it at the size the inline backend would (``figure.dpi``)."""
    png = _png(fig, dpi, min_text_pt(fig))
    return png, max(1, round(png_width(png) * fig.get_dpi() / dpi))


def narrow_png(fig, dpi: int = FIGURE_DPI) -> bytes | None:
    """The figure's phone version, or None where the figure needs none (its text is at least
    :data:`MIN_TEXT_PX` on a phone already) or cannot be re-laid (axes not on one grid, twins).

    Every panel goes into one column at most :data:`NARROW_WIDTH_IN` wide, each keeping its
    aspect and its own tick labels, and a legend of the whole figure goes under the panels in one
    column: a five-panel row becomes five panels one under another with text as large as the
    body's. None, too, where that gains nothing (a panel's own legend or long labels, not the
    panels, set the width: such a figure needs drawing for a phone by its chapter). Changes
    ``fig`` (call it after the full-width files are saved)."""
    text_pt = min_text_pt(fig)
    original = _png(fig, dpi, text_pt)
    if phone_text_px(original, text_pt, dpi) >= MIN_TEXT_PX:
        return None
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.get_subplotspec() is not None]
    specs = {id(ax.get_subplotspec().get_gridspec()) for ax in axes}
    positions = [tuple(ax.get_subplotspec().get_geometry()) for ax in axes]
    if not axes or len(specs) > 1 or len(set(positions)) < len(positions):
        return None
    nrows, ncols = axes[0].get_subplotspec().get_gridspec().get_geometry()
    inside = _inside_legends(fig, axes)  # before the panels move: where each legend lies
    width, height = fig.get_size_inches()
    panel_w, panel_h = width / ncols, height / nrows
    w = min(NARROW_WIDTH_IN, panel_w)
    h = max(panel_h * w / panel_w, 0.55 * w)
    fig.set_size_inches(w, h * len(axes))
    grid = matplotlib.gridspec.GridSpec(len(axes), 1, figure=fig)
    for i, ax in enumerate(axes):
        ax.set_subplotspec(grid[i, 0])
        ax.tick_params(labelleft=True, labelbottom=True)
    _legends_below(fig, inside)
    for legend in fig.legends:  # a legend beside the panels would set the width: put it below
        legend.set_loc("upper center")
        legend.set_bbox_to_anchor((0.5, 0.0), transform=fig.transFigure)
    png = _layout_png(fig, dpi, text_pt)
    if phone_text_px(png, text_pt, dpi) < phone_text_px(original, text_pt, dpi) + 0.5:
        return None  # labels or legends, not the panels, set the width: no better on a phone
    return png


def _inside_legends(fig, axes) -> list:
    """The panels whose legend is drawn inside them (as the figure stands: call it before the
    panels move)."""
    r = fig.canvas.get_renderer()
    out = []
    for ax in axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box, panel = legend.get_window_extent(r), ax.get_window_extent(r)
        if (box.x0 >= panel.x0 - 1 and box.x1 <= panel.x1 + 1 and box.y0 >= panel.y0 - 1
                and box.y1 <= panel.y1 + 1):
            out.append(ax)
    return out


def _legend_parts(legend):
    labels = [t.get_text() for t in legend.get_texts()]
    size = legend.get_texts()[0].get_fontsize() if labels else None
    title = legend.get_title().get_text() or None
    return legend.legend_handles, labels, size, title


def _legends_below(fig, inside: list) -> None:
    """The phone version's legends: a legend drawn inside a panel covers more of it once the
    panel is narrower (its text keeps its size). The one such legend of a figure becomes a
    legend of the whole figure, under the panels; with several, each goes under its own panel
    (below its axis labels), and the figure grows by their height. Legends beside their
    panels stay where they are."""
    if not inside:
        return
    if len(inside) == 1 and not fig.legends:
        handles, labels, size, title = _legend_parts(inside[0].get_legend())
        inside[0].get_legend().remove()
        fig.legend(handles, labels, ncol=1, frameon=False, fontsize=size, title=title)
        return
    from matplotlib.transforms import offset_copy

    _tight(fig)
    r = fig.canvas.get_renderer()
    grow = 0.0
    for ax in inside:
        handles, labels, size, title = _legend_parts(ax.get_legend())
        ax.get_legend().remove()
        drop = (ax.get_window_extent(r).y0 - ax.get_tightbbox(r).y0) * 72 / fig.dpi + 4
        legend = ax.legend(handles, labels, loc="upper center", frameon=False, fontsize=size,
                           title=title, ncol=2 if len(labels) > 3 else 1,
                           bbox_to_anchor=(0.5, 0.0),
                           bbox_transform=offset_copy(ax.transAxes, fig=fig, y=-drop,
                                                      units="points"))
        grow += legend.get_window_extent(r).height / fig.dpi + drop / 72
    w, h = fig.get_size_inches()
    fig.set_size_inches(w, h + grow)


def _tight(fig) -> None:
    """``tight_layout`` where the figure has no layout engine of its own (one that only marks
    an earlier ``tight_layout`` counts as none: its panels have moved since)."""
    import warnings

    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = fig.get_layout_engine()
    if engine is None or isinstance(engine, PlaceHolderLayoutEngine):
        with warnings.catch_warnings():  # a layout tight_layout cannot solve: keep it, quietly
            warnings.simplefilter("ignore", UserWarning)
            try:
                fig.tight_layout()
            except (ValueError, RuntimeError):
                pass


def _layout_png(fig, dpi: int, text_pt: float) -> bytes:
    _tight(fig)
    return _png(fig, dpi, text_pt)


def save_figure(key: str, fig, folder=None, *, png: bytes | None = None,
                data: pd.DataFrame | None = None) -> dict[str, Path]:
    """Write ``<key>.svg``, ``<key>.png`` (``png`` if given, else at :data:`FIGURE_DPI`),
    ``<key>.csv`` (``data``, else :func:`figure_data`) and, where the figure needs one, its phone
    version ``<key>-narrow.png`` (:func:`narrow_png`) into ``folder`` (default
    :func:`figure_dir`); returns the paths written. The SVG carries no date and stable ids, so an
    unchanged figure gives an unchanged file."""
    folder = Path(folder) if folder is not None else figure_dir()
    folder.mkdir(parents=True, exist_ok=True)
    paths = {ext: folder / f"{key}.{ext}" for ext in ("svg", "png", "csv")}
    if png is None:
        png, _ = figure_png(fig)
    data = figure_data(fig) if data is None else data
    with matplotlib.rc_context({"svg.hashsalt": key}):
        fig.savefig(paths["svg"], format="svg", bbox_inches="tight", metadata={"Date": None})
    paths["png"].write_bytes(png)
    data.to_csv(paths["csv"], index=False, float_format="%.10g", lineterminator="\n")
    narrow, narrow_path = narrow_png(fig), folder / f"{key}{NARROW_SUFFIX}.png"
    if narrow is None:
        narrow_path.unlink(missing_ok=True)
    else:
        narrow_path.write_bytes(narrow)
        paths["narrow"] = narrow_path
    return paths


def remove_saved(key: str, folder=None) -> None:
    """Delete a figure's saved files (a figure that is pending now has no numbers to offer)."""
    folder = Path(folder) if folder is not None else figure_dir()
    for name in (f"{key}.svg", f"{key}.png", f"{key}.csv", f"{key}{NARROW_SUFFIX}.png"):
        (folder / name).unlink(missing_ok=True)


def glue_figure(key: str, fig, *, folder=None, display: bool = False,
                data: pd.DataFrame | None = None) -> dict:
    """``myst_nb.glue(key, fig, display=False)`` for a ``{glue:figure}``, made citable.

    The glued image is a PNG at :data:`FIGURE_DPI` shown at the usual size (sharper, not
    bigger), and the same PNG, an SVG and a CSV of exactly the numbers plotted
    (:func:`figure_data`) are saved as ``<key>.png|svg|csv`` in ``folder`` (default
    :func:`figure_dir`); the book's extension (:mod:`gameai.book.sphinx_ext`) links them under the
    figure whose ``:name:`` is ``key``. ``data``, where given, is the figure's data in tidy form
    (series named as in the legend, the real x in its unit, values as shown, n and CI bounds),
    written as the CSV instead of the numbers read back from the artists. A figure with no
    numbers (a "not computed yet" notice) is glued but not saved, and stale files of ``key`` are
    removed. Returns the saved paths (empty when none)."""
    from IPython.display import Image
    from myst_nb import glue

    png, width = figure_png(fig)
    glue(key, Image(data=png, format="png", width=width), display=display)
    plotted = figure_data(fig)
    if plotted.empty:
        remove_saved(key, folder)
        return {}
    return save_figure(key, fig, folder, png=png, data=plotted if data is None else data)
