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

PAPER_STYLE = dict(marker="*", s=160, color="black", zorder=5, label="paper (reported)")


def setup() -> None:
    """The book's plotting style."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")


def rates_panel(ax, summary: pd.DataFrame, metric: str, *, label: str, color=None,
                offset: float = 0.0, x: str = "label") -> None:
    """Point estimates with 95 % CI error bars of ``metric`` (``win`` or ``score``) per deck."""
    xs = np.arange(len(summary)) + offset
    y = summary[metric].to_numpy(dtype=float)
    lo = summary[f"{metric}_lo"].to_numpy(dtype=float)
    hi = summary[f"{metric}_hi"].to_numpy(dtype=float)
    ax.errorbar(xs, y, yerr=[y - lo, hi - y], fmt="o-", capsize=3, label=label, color=color,
                lw=1.2, ms=5)
    ax.set_xticks(np.arange(len(summary)), summary[x].astype(str))


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
        ax.axhline(mean, color="black", ls=":", lw=1.2, label="paper mean")


def baseline(ax, value: float, label: str = "RandomAI") -> None:
    ax.axhline(value, color="grey", ls="--", lw=1, label=label)


def win_score_figure(series: Mapping[str, pd.DataFrame], *, paper: Mapping[str, dict] | None = None,
                     baselines: tuple[float, float] | None = None, xlabel: str = "card types in the deck",
                     title: str | None = None):
    """Two panels (win %, score %) of one or more per-deck summaries, with the paper overlaid.

    ``paper`` maps a series label to ``{"win": [(deck, value), …], "score": […],
    "mean": (win, score)}``.
    """
    setup()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharex=True)
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
            baseline(ax, baselines[0 if metric == "win" else 1])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("wins (share of games)" if metric == "win" else "score (share of maximum)")
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    handles, labels = axes[1].get_legend_handles_labels()
    seen = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    # Below the panels, at most three entries a row: a wider legend would shrink the figure
    # when the notebook's inline backend crops it to its tight bounding box.
    fig.legend(seen.values(), seen.keys(), loc="upper center", ncol=min(3, len(seen)),
               frameon=False, bbox_to_anchor=(0.5, 0.0))
    return fig
