"""Figure helpers shared by the chapters: rates with 95 % intervals and the paper's values.

One message per figure; the paper's numbers are drawn in a separate, labelled style so that a
reader never mistakes them for ours.
"""

from __future__ import annotations

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


def percent_axis(ax, axis: str = "y") -> None:
    """Tick labels as whole percentages (values are fractions)."""
    fmt = matplotlib.ticker.PercentFormatter(1.0, decimals=0)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def mark_extension(ax, summary: pd.DataFrame, decks: tuple[int, int], x: str = "label",
                   label: str = "beyond the paper's decks") -> None:
    """Shade the test decks outside the paper's range ``decks`` = (from, to) types: ours only."""
    idx = [i for i, (d, t) in enumerate(zip(summary["deck"], summary["types"]))
           if d != "original" and not decks[0] <= t <= decks[1]]
    if idx:
        ax.axvspan(min(idx) - 0.5, max(idx) + 0.5, color="#fff3c4", zorder=0, label=label)


def rates_panel(ax, summary: pd.DataFrame, metric: str, *, label: str, color=None,
                offset: float = 0.0, x: str = "label") -> None:
    """Point estimates with 95 % CI error bars of ``metric`` (``win`` or ``score``) per deck."""
    xs = np.arange(len(summary)) + offset
    y = summary[metric].to_numpy(dtype=float)
    lo = summary[f"{metric}_lo"].to_numpy(dtype=float)
    hi = summary[f"{metric}_hi"].to_numpy(dtype=float)
    ax.errorbar(xs, y, yerr=[y - lo, hi - y], fmt="o-", capsize=3, label=label, color=color,
                lw=1.8, ms=6)
    ax.set_xticks(np.arange(len(summary)),
                  ["orig." if s == "original" else s for s in summary[x].astype(str)])


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
    for i, (label, summary) in enumerate(series.items()):
        off = (i - (n - 1) / 2) * 0.12
        for ax, metric in zip(axes, ("win", "score")):
            rates_panel(ax, summary, metric, label=f"{label} (ours)", color=palette[i], offset=off)
    first = next(iter(series.values()))
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
