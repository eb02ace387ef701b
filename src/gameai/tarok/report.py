"""The tarok chapter's tables, figures and sentences, from the store's results.

Every table and figure of ``book/tarok.ipynb`` comes from one function here: a table function
returns a DataFrame (its caption, count and wrap columns in ``df.attrs["show"]``, for
:func:`gameai.book.display.show`) or None when its experiment is not in the results; a figure
function returns a matplotlib Figure, with a ``*_data`` function giving its tidy CSV; a text
function returns the Markdown of one glued sentence ("" when its numbers are missing). The
chapter reproduces Luštrek & Gams (2003), Table 1, and the first author's thesis (2002),
Table 8; the rest are the chapter's own measurements.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ..core.numbers import NBSP, and_list, ci_range, count, number, pct, with_ci
from . import analysis, paper

LABEL = analysis.CONFIG_LABELS
SINGLE = ("only_tt", "only_history", "only_minwindow", "only_pruning")
#: The experiment that computes each of the results' frames (for the rerun command).
EXPERIMENT_OF = {"table8_alphabeta": "table1_alphabeta"}
#: What each experiment is, in words (the sentence on what a rerun did not compute).
WHAT = {
    "table1": "the paper's Table 1 at its setup", "table8": "thesis Table 8 (sound search)",
    "fuzzy": "the fuzzy-table test", "table1_alphabeta": "the paper's Table 1 with an alpha-beta root",
    "sessions": "the bidding sessions", "strength": "the strength games",
    "table1_ci": "the paper's Table 1 over all deals", "thesis_table8": "thesis Table 8 in the thesis's search",
    "thesis_table1": "the paper's Table 1 in the thesis's search", "window_cost": "the printed window's cost",
    "window_cost_inner": "the printed window below the root",
    "thesis_fuzzy": "the fuzzy-table test in the thesis's search",
    "window_games": "the games with the printed window",
    "thesis_steps": "the steps from the sound search to the thesis's",
}


def _x(v: float, decimals: int = 1) -> str:
    return "" if v != v else f"{v:,.{decimals}f}×"


def _xci(v: float, lo: float, hi: float, decimals: int = 1) -> str:
    """A ratio with its 95 % CI below it (a table cell)."""
    return "" if v != v else with_ci(_x(v, decimals), lo, hi, percent=False, decimals=decimals)


def _nodes_ci(v: float, lo: float, hi: float) -> str:
    return with_ci(f"{v:,.0f}", lo, hi, percent=False, decimals=0)


def _table(df: pd.DataFrame, caption: str, counts: Sequence[str] = (),
           wrap: Sequence[str] = ()) -> pd.DataFrame:
    df.attrs["show"] = {"caption": caption, "counts": tuple(counts), "wrap": tuple(wrap)}
    return df


def _concat(frames) -> pd.DataFrame | None:
    frames = [f for f in frames if f is not None]
    return pd.concat(frames, ignore_index=True) if frames else None


@dataclass
class Data:
    """The chapter's frames (``res[key]``, None where not computed) and the rows that several
    sections share: Table 1 of the sound search (the 200-deal run where it exists; its first
    deals are the paper's setup) and of the thesis's, and the decomposition between them."""
    res: Any
    params: Mapping[str, Any]
    t1: pd.DataFrame | None
    t1_paper: pd.DataFrame | None
    t1t: pd.DataFrame | None
    t1t_paper: pd.DataFrame | None
    decomp: pd.DataFrame

    def __getitem__(self, key: str) -> pd.DataFrame | None:
        return self.res[key]


def data(res, params: Mapping[str, Any]) -> Data:
    """The frames of ``res`` (``chapter.results``) the report functions read."""
    def first(df):
        return None if df is None else df[df["deal"] < params["table1_deals"]]

    t1 = res["table1_ci"] if res["table1_ci"] is not None else res["table1"]
    steps = analysis.split_steps(res["thesis_steps"])
    step = lambda i: steps[i] if len(steps) > i else None  # noqa: E731
    decomp = analysis.decomposition(
        [("sound search: full root window, PVS, our pruning", t1),
         ("alpha-beta root", res["table1_alphabeta"]),
         ("+ the thesis's pruning (Tables 5–6)", step(0)),
         ("+ the thesis's window (Algorithm 6)", step(1)),
         ("+ the queen condition (p. 28)", step(2)),
         ("+ the table's index (eqs. 5–6): the thesis's search", res["thesis_table1"])],
        params["table1_alphabeta_deals"])
    return Data(res, params, t1, first(t1), res["thesis_table1"], first(res["thesis_table1"]),
                decomp)


# ----------------------------------------------------------------------------- the whole chapter

def one_line(claims: pd.DataFrame) -> str:
    """The chapter's replication verdict in one sentence, from its claims (``read_claims``):
    how many judged numbers reproduce, lie within sampling error and differ, and, where the
    headline (the paper's Table 1: 184× fewer nodes) differs, the measured reason: which of its
    two node counts (plain alpha-beta's, all enhancements') is off and by how much. Plain text."""
    c = claims.set_index("claim")
    judged = c[c["verdict"].isin(["reproduced", "consistent", "differs"])]
    tally = judged["verdict"].value_counts()
    words = c[c["verdict"].isin(["holds", "fails"])]
    if judged.empty and words.empty:
        return "No claim of the tarok paper is computed in this run."
    parts = [f"{int(tally[v])} {said}" for v, said in (
        ("reproduced", "reproduce"), ("consistent", "lie within both studies' sampling error"),
        ("differs", "differ")) if tally.get(v, 0)]
    text = (f"Of {len(judged)} judged numbers of the tarok paper and its thesis, "
            f"{and_list(parts)}" if len(judged) else
            "No number of the tarok paper is judged in this run")
    if c["verdict"].get("table1.reduction") == "differs":
        text += (f": all enhancements cut the search by {_num(c.loc['table1.reduction', 'ours']):.0f}× "
                 f"rather than the paper's {paper.REDUCTION_NODES}×")
        why = _why_reduction(c)
        # the ratio is one count over the other: this says which count departs, not why
        text += f"; of its two counts, {why}" if why else ""
    if len(words):
        text += f"; of {len(words)} claims in words, {int((words['verdict'] == 'holds').sum())} hold"
    return text + "."


def _why_reduction(c: pd.DataFrame) -> str:
    """Which node count of the paper's Table 1 makes our ratio smaller (or larger): plain
    alpha-beta's and all enhancements', ours against the paper's (the not comparable claims)."""
    parts = []
    for cid, who in (("table1.none", "our plain alpha-beta"), ("table1.all", "our fully enhanced search")):
        ours, theirs = (_num(c["ours"].get(cid)), _num(c["paper"].get(cid)))
        if ours is None or theirs is None or ours == theirs:
            continue
        parts.append(f"{who} expands {'fewer' if ours < theirs else 'more'} nodes than the "
                     f"paper's (about {count(ours, significant=3)} per sampled deal against {theirs:,.0f})")
    return " and ".join(parts)


def _num(v) -> float | None:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def missing_text(missing: Sequence[str]) -> str:
    """One sentence naming what a rerun did not compute and the command that computes it
    ("" when everything is there)."""
    exps = list(dict.fromkeys(EXPERIMENT_OF.get(k, k) for k in missing))
    if not exps:
        return ""
    return (f"This run did not compute {', '.join(WHAT.get(e, e) for e in exps)}; the sentences, "
            f"tables and figures that need them are left out (`gameai run tarok -p experiments "
            f"{','.join(exps)}` computes them).")


def short_text(short: Mapping[str, tuple[int, int]]) -> str:
    """One sentence naming the experiments shown with fewer tasks than planned (``short``:
    results key -> (done, total)); "" when none is short."""
    parts = [f"{WHAT.get(EXPERIMENT_OF.get(k, k), k)} with {done:,} of its {total:,} tasks"
             for k, (done, total) in short.items() if done < total]
    if not parts:
        return ""
    return (f"Shown with fewer tasks than planned (`gameai run tarok` computes the rest): "
            f"{'; '.join(parts)}.")


def verdicts_text(claims: pd.DataFrame) -> str:
    """The claims' verdicts counted (the "What we found" box)."""
    counts = claims["verdict"].value_counts()
    return ", ".join(f"**{int(counts.get(v, 0))}** {'not computed in this run' if v == 'pending' else v}"
                     for v in ("reproduced", "consistent", "differs", "not comparable", "holds",
                               "fails", "pending") if counts.get(v, 0))


# ----------------------------------------------------------------------------- Table 1 (paper)

def ratio_text(df: pd.DataFrame, samples: int, num: str = "none", den: str = "all") -> str:
    """``num``'s nodes ÷ ``den``'s and the same for time, with the nodes' CI (paper Table 1)."""
    est, lo, hi, n = analysis.ratio(df, num, den)
    t, _, _, _ = analysis.ratio(df, num, den, col="seconds")
    return (f"**{est:.1f}×** fewer nodes (95 % CI {ci_range(lo, hi, percent=False)}) and "
            f"{t:.1f}× less time over {n} deals × {samples} samples")


def reduction_text(d: Data, thesis: bool = False) -> str:
    """All enhancements against plain alpha-beta (paper Table 1's 184×), at the paper's setup
    and over every deal: the sound search, or the thesis's (``thesis``)."""
    full, first = (d.t1t, d.t1t_paper) if thesis else (d.t1, d.t1_paper)
    if full is None:
        return "not computed in this run."
    s = d.params["table1_samples"]
    text = f"at the paper's setup ({first['deal'].nunique()} deals) {ratio_text(first, s)}"
    if full["deal"].nunique() > first["deal"].nunique():
        text += f"; over {'' if thesis else 'all '}{full['deal'].nunique()} deals {ratio_text(full, s)}"
    return text + "."


def _closer(ours: float, per_decision: float, theirs: float) -> bool:
    """Whether ``ours`` (per sampled deal) is nearer ``theirs`` than ``per_decision`` is, by ratio."""
    return abs(math.log(ours / theirs)) < abs(math.log(per_decision / theirs))


def reading_text(d: Data) -> str:
    """Our node counts per sampled deal and per decision beside paper Table 1's, and which of
    the two readings of its counts they fit (where both of ours fit the same one)."""
    t = _paper_table1(d, {"all", "none"})
    if t is None:
        return ""
    a, nn = t.loc["all"], t.loc["none"]
    fits = {_closer(r.nodes, r.nodes_decision, r.paper_nodes) for r in (a, nn)}
    verdict = ("" if len(fits) > 1 else ": the paper's counts are most plausibly per " +
               ("sampled deal" if fits == {True} else "decision"))
    return (f"Per sampled deal our plain alpha-beta expands {nn.nodes:,.0f} nodes "
            f"(per decision {nn.nodes_decision:,.0f}) against the paper's 1,598,924, and all "
            f"enhancements {a.nodes:,.0f} (per decision {a.nodes_decision:,.0f}) against 8,667"
            f"{verdict}.")


def time_text(d: Data) -> str:
    """Time per node with all enhancements and without (paper Table 1's µs column)."""
    t = _paper_table1(d, {"all", "none"})
    if t is None:
        return ""
    a, nn = t.loc["all"], t.loc["none"]
    text = (f"Over the paper's {d.t1_paper['deal'].nunique()} deals, with all enhancements a node "
            f"costs {a.us_per_node:.2f}{NBSP}µs against {nn.us_per_node:.2f}{NBSP}µs for plain "
            f"alpha-beta ({a.us_per_node / nn.us_per_node:.1f}×; paper 28.6 against 13.3{NBSP}µs, 2.2×)")
    if a.us_per_node / nn.us_per_node > 28.6 / 13.3:
        text += (": the probes and stores of a 1,000,003-slot table and the history sorting weigh "
                 "more beside our cheap move generation than they did in the 2003 program")
    return ("Time falls less than nodes do. " if a.us_per_node > nn.us_per_node else "") + text + "."


def _paper_table1(d: Data, needed: set[str]) -> pd.DataFrame | None:
    """Paper Table 1 at the paper's setup, by configuration, or None where the run lacks it or
    any of the ``needed`` configurations."""
    if d.t1 is None:
        return None
    t = analysis.table1(d.t1_paper).set_index("config")
    return t if needed <= set(t.index) else None


def _as_paper(ours: float, theirs: float) -> str:
    """``about as much`` (within 10 %), ``more`` or ``less``: ours against the paper's."""
    if abs(math.log(ours / theirs)) < math.log(1.1):
        return "about as much"
    return "more" if ours > theirs else "less"


def tt_text(d: Data) -> str:
    """What the transposition table does in paper Table 1: switched off alone, and alone;
    and what history and the minimal window add on top of the others."""
    offs = ("no_tt", "no_history", "no_minwindow", "no_pruning")
    tt = _paper_table1(d, {*offs, "all", "only_tt"})
    if tt is None:
        return ""
    off = {c: tt.loc[c, "nodes"] / tt.loc["all", "nodes"] for c in offs}
    p_off = {c: paper.TABLE1[f"table1.{c}"][1] / paper.TABLE1["table1.all"][1] for c in offs}
    most = max(off, key=off.get) == "no_tt"
    return (f"Switching off the transposition table alone multiplies our nodes by "
            f"{off['no_tt']:.1f} (paper {p_off['no_tt']:.1f}), and the table alone saves "
            f"{tt.loc['only_tt', 'none_ratio']:.1f}× (paper 16.7×)"
            + (": in our search the table does most of the work. " if most else ". ") +
            f"On top of the others, history saves {_as_paper(off['no_history'], p_off['no_history'])} "
            f"{'as' if _as_paper(off['no_history'], p_off['no_history']) == 'about as much' else 'than'} "
            f"in the paper (switching it off: {off['no_history']:.2f}×, paper {p_off['no_history']:.2f}×) "
            f"and the minimal window {_as_paper(off['no_minwindow'], p_off['no_minwindow'])} "
            f"({off['no_minwindow']:.2f}×, paper {p_off['no_minwindow']:.2f}×).")


def sound_gap_text(d: Data) -> str:
    """Whether the sound search's all-against-none ratio is below paper Table 1's 184×."""
    if d.t1 is None:
        return ""
    est, lo, hi, _ = analysis.ratio(d.t1, "none", "all")
    where = ("smaller than" if hi < paper.REDUCTION_NODES else
             "larger than" if lo > paper.REDUCTION_NODES else "not clearly different from")
    return (f"With the sound search they are {where} the paper's ({est:.1f}× against "
            f"{paper.REDUCTION_NODES}× for all enhancements against none).")


def table1_nodes(d: Data) -> pd.DataFrame | None:
    """Paper Table 1, nodes: ours per sampled deal at the paper's setup beside the paper's."""
    if d.t1 is None:
        return None
    t = analysis.table1(d.t1_paper)
    return _table(pd.DataFrame({
        "configuration": t["config"].map(LABEL),
        "nodes / sample": [_nodes_ci(*v) for v in zip(t["nodes"], t["nodes_lo"], t["nodes_hi"])],
        "paper nodes": t["paper_nodes"],
        "none ÷ this": [_xci(*v) for v in zip(t["none_ratio"], t["none_ratio_lo"], t["none_ratio_hi"])],
        "paper none ÷ this": t["paper_none_ratio"].map(_x),
    }), f"Paper's Table 1 at its setup, nodes: {_setup(d)}; 95 % CIs below the values (over "
        "deals; ratios: bootstrap over deals)", counts=("paper nodes",))


def _setup(d: Data) -> str:
    p = d.params
    return (f"{d.t1_paper['deal'].nunique()} deals, depth {p['table1_depth']}, first card, "
            f"{p['table1_samples']} samples per deal")


def table1_time(d: Data) -> pd.DataFrame | None:
    """Paper Table 1, time: seconds per sample and µs per node beside the paper's."""
    if d.t1 is None:
        return None
    t = analysis.table1(d.t1_paper)
    paper_none = t.loc[t["config"] == "none", "paper_seconds"]
    return _table(pd.DataFrame({
        "configuration": t["config"].map(LABEL),
        "s / sample": t["seconds"].map(lambda v: f"{v:.3f}"),
        "paper s": t["paper_seconds"].map(lambda v: f"{v:.3f}"),
        "µs / node": t["us_per_node"].map(lambda v: number(v, 2)),
        "paper µs": t["paper_us_per_node"].map(lambda v: f"{v:.1f}"),
        "none ÷ this": t["none_time_ratio"].map(_x),
        "paper none ÷ this": (paper_none.iloc[0] / t["paper_seconds"]).map(_x)
        if len(paper_none) else "",
    }), f"Paper's Table 1 at its setup, time: {_setup(d)}; ours on one core of a shared "
        "machine, the paper's on an Athlon XP 1800+")


def table1_all(d: Data) -> pd.DataFrame | None:
    """Paper Table 1 in the sound search over every deal computed (beyond the paper's 20)."""
    if d.t1 is None or d.t1["deal"].nunique() <= d.t1_paper["deal"].nunique():
        return None
    t = analysis.table1(d.t1)
    return _table(pd.DataFrame({
        "configuration": t["config"].map(LABEL), "deals": t["deals"],
        "nodes / sample": [_nodes_ci(*v) for v in zip(t["nodes"], t["nodes_lo"], t["nodes_hi"])],
        "none ÷ this": [_xci(*v) for v in zip(t["none_ratio"], t["none_ratio_lo"], t["none_ratio_hi"])],
        "paper none ÷ this": t["paper_none_ratio"].map(_x),
        "time: none ÷ this": t["none_time_ratio"].map(_x),
    }), f"Paper's Table 1, sound search, over all {d.t1['deal'].nunique()} deals; 95 % CIs "
        "below the values", counts=("deals",))


def table1_root(d: Data) -> pd.DataFrame | None:
    """Paper Table 1 with an alpha-beta root (the other reading of the root window)."""
    ab = d["table1_alphabeta"]
    if ab is None:
        return None
    t = analysis.table1(ab)
    return _table(pd.DataFrame({
        "configuration": t["config"].map(LABEL), "deals": t["deals"], "nodes / sample": t["nodes"],
        "paper nodes": t["paper_nodes"],
        "none ÷ this": [_xci(*v) for v in zip(t["none_ratio"], t["none_ratio_lo"], t["none_ratio_hi"])],
        "paper none ÷ this": t["paper_none_ratio"].map(_x),
    }), "Paper's Table 1 with an alpha-beta root", counts=("deals", "nodes / sample", "paper nodes"))


def root_fit_text(d: Data) -> str:
    """How close the alpha-beta root's nodes per sampled deal come to paper Table 1's."""
    ab = d["table1_alphabeta"]
    if ab is None:
        return ""
    t = analysis.table1(ab).set_index("config")
    fit = (t["nodes"] / t["paper_nodes"]).dropna()
    near = [c for c in fit.index if 2 / 3 <= fit[c] <= 1.5]
    far = [c for c in fit.index if c not in near]
    name = lambda cs, none: ", ".join(f"{LABEL[c]} ({fit[c]:.2f}×)" for c in cs) or none  # noqa: E731
    return (f"With an alpha-beta root ({ratio_text(ab, d.params['table1_samples'])}) our nodes "
            f"per sampled deal are within a factor of 1.5 of the paper's for "
            f"{name(near, 'no configuration')}; further off for {name(far, 'none')}. The root "
            "window explains part of the gap in the ratios, not all of it.")


def table1_figure(d: Data):
    """Paper Table 1's nodes per sampled deal, ours (95 % CI) and the paper's, log scale."""
    import matplotlib.pyplot as plt

    from ..book import plots

    t = analysis.table1(d.t1_paper)
    fig, ax = plt.subplots(figsize=plots.SINGLE)
    x = np.arange(len(t))
    ax.bar(x - 0.2, t["nodes"], 0.4, label="ours (per sampled deal)",
           yerr=[t["nodes"] - t["nodes_lo"], t["nodes_hi"] - t["nodes"]], capsize=2)
    ax.bar(x + 0.2, t["paper_nodes"], 0.4, label="paper", color="0.6")
    ax.set_yscale("log")
    ax.set_xticks(x, t["config"].map(LABEL), rotation=45, ha="right")
    ax.set_ylabel("nodes (log scale)")
    ax.legend()
    return fig


def table1_figure_data(d: Data) -> pd.DataFrame:
    """The tidy data of :func:`table1_figure`: one row per bar."""
    t = analysis.table1(d.t1_paper)
    ours = pd.DataFrame({"series": "ours (per sampled deal)", "configuration": t["config"].map(LABEL),
                         "nodes per sampled deal": t["nodes"], "ci_low": t["nodes_lo"],
                         "ci_high": t["nodes_hi"], "n": t["deals"]})
    theirs = pd.DataFrame({"series": "paper", "configuration": t["config"].map(LABEL),
                           "nodes per sampled deal": t["paper_nodes"], "ci_low": math.nan,
                           "ci_high": math.nan, "n": paper.TABLE1_DEALS})
    return pd.concat([ours, theirs], ignore_index=True)


# ----------------------------------------------------------------------------- Table 8 (thesis)

def _table8_frames(d: Data, thesis: bool = False):
    return [d.t1t, d["thesis_table8"]] if thesis else [d.t1, d["table8"]]


def table8_rows(d: Data, thesis: bool = False) -> pd.DataFrame | None:
    """Thesis Table 8's rows (``analysis.table8``) of the sound search or the thesis's."""
    frames = _table8_frames(d, thesis)
    return None if all(f is None for f in frames) else analysis.table8(frames)


def _ab8(d: Data) -> dict:
    frames = [d["table1_alphabeta"], d["table8_alphabeta"]]
    return ({} if all(f is None for f in frames) else
            analysis.table8(frames).set_index(["config", "depth"])["none_ratio"].to_dict())


def table8_table(d: Data) -> pd.DataFrame | None:
    """Thesis Table 8, sound search: nodes per sampled deal by depth beside the thesis's, and
    plain alpha-beta's nodes ÷ each, with a full and an alpha-beta root."""
    t8 = table8_rows(d)
    if t8 is None:
        return None
    ab8 = _ab8(d)
    one = t8["deals"].nunique() == 1
    return _table(pd.DataFrame({
        "configuration": t8["config"].map(lambda c: LABEL.get(c, c)), "depth": t8["depth"],
        **({} if one else {"deals": t8["deals"]}),
        "nodes": [_nodes_ci(*v) for v in zip(t8["nodes"], t8["nodes_lo"], t8["nodes_hi"])],
        "thesis": t8["paper"],
        "none ÷ this": t8["none_ratio"].map(_x),
        "α-β root": [_x(ab8.get((c, dp), math.nan)) for c, dp in zip(t8["config"], t8["depth"])],
        "thesis ÷": t8["paper_none_ratio"].map(_x)}),
        "Thesis Table 8: nodes per sampled deal by depth" +
        (f" over {int(t8['deals'].iloc[0]):,} deals" if one else "") +
        " (95 % CIs below the values); <em>none ÷ this</em>: plain alpha-beta's nodes ÷ the row's, "
        "ours with a full root window, with an alpha-beta root (<em>α-β root</em>) and the "
        "thesis's (<em>thesis ÷</em>)", counts=("deals", "thesis"), wrap=("configuration",))


def table8_figure(d: Data, thesis: bool = False):
    """Thesis Table 8: nodes per sampled deal by depth, ours solid, the thesis's dashed."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    t8 = table8_rows(d, thesis)
    fig, ax = plt.subplots(figsize=(6.0, 3.6))  # with the legend below: 9 px text on a phone
    for i, (name, g) in enumerate(t8.groupby("config", sort=False)):
        ax.plot(g["depth"], g["nodes"], marker="o", color=f"C{i}", label=LABEL.get(name, name))
        ax.plot(g["depth"], g["paper"], marker="*", ls="--", color=f"C{i}", alpha=0.6)
    ax.set_yscale("log")
    ax.set(xlabel="depth (plies)", ylabel="nodes per sampled deal (log scale)",
           xticks=sorted(t8["depth"].unique()))
    handles, labels = ax.get_legend_handles_labels()  # below the axes, clear of the curves
    handles += [Line2D([], [], color="black", marker="o"),
                Line2D([], [], color="black", marker="*", ls="--", alpha=0.6)]
    labels += ["ours (solid)", "thesis (dashed)"]
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2,
              frameon=False)  # the book's font size, in two columns a phone's column can hold
    return fig


def table8_figure_data(d: Data) -> pd.DataFrame:
    """The tidy data of :func:`table8_figure`: one row per point, ours and the thesis's."""
    t8 = table8_rows(d)
    lab = t8["config"].map(lambda c: LABEL.get(c, c))
    ours = pd.DataFrame({"series": lab, "depth (plies)": t8["depth"],
                         "nodes per sampled deal": t8["nodes"], "ci_low": t8["nodes_lo"],
                         "ci_high": t8["nodes_hi"], "n": t8["deals"]})
    thesis = pd.DataFrame({"series": "thesis: " + lab, "depth (plies)": t8["depth"],
                           "nodes per sampled deal": t8["paper"], "ci_low": math.nan,
                           "ci_high": math.nan, "n": paper.TABLE1_DEALS})
    return pd.concat([ours, thesis.dropna(subset=["nodes per sampled deal"])], ignore_index=True)


def ab_history_text(d: Data) -> str:
    """History's gain at the shallowest and deepest depth of thesis Table 8 with an alpha-beta
    root, beside a full root window's and the thesis's."""
    t8, ab8 = table8_rows(d), _ab8(d)
    if t8 is None or "only_history" not in set(t8["config"]):
        return ""
    hist = t8[t8["config"] == "only_history"].set_index("depth")
    lo_d, hi_d = min(hist.index), max(hist.index)
    if ("only_history", lo_d) not in ab8 or ("only_history", hi_d) not in ab8:
        return ""
    return (f"The column *α-β root* searches the same deals with an alpha-beta root, where the "
            f"first root card's value bounds the rest: history then saves "
            f"{ab8[('only_history', lo_d)]:.1f}× at depth {lo_d} and "
            f"{ab8[('only_history', hi_d)]:.1f}× at depth {hi_d} (with a full root window "
            f"{hist.loc[lo_d, 'none_ratio']:.1f}× and {hist.loc[hi_d, 'none_ratio']:.1f}×; thesis "
            f"{hist.loc[lo_d, 'paper_none_ratio']:.1f}× and {hist.loc[hi_d, 'paper_none_ratio']:.1f}×), "
            "so the root window accounts for much of the gap in history's gain.")


def depth3_sound_text(d: Data) -> str:
    """Thesis Table 8's depth 3 in the sound search: on how many sampled deals the table alone
    and history alone expand exactly plain alpha-beta's nodes."""
    rows = _concat(_table8_frames(d))
    if rows is None or 3 not in set(rows["depth"]):
        return ""
    w = rows[rows["depth"] == 3].pivot_table(index=["deal", "sample"], columns="config",
                                             values="nodes")
    if not {"none", "only_tt", "only_history"} <= set(w.columns):
        return ""
    same = [(w[c] == w["none"]) for c in ("only_tt", "only_history")]
    n, k = len(w), int((same[0] & same[1]).sum())
    text = (f"With a full window at the root (our reading, see the root window above) the table alone "
            f"and history alone expand exactly as many nodes as plain alpha-beta on {k:,} of "
            f"{n:,} sampled deals")
    if k < n:
        return text + "."
    return text + (": each root card is searched with an unbounded window, and two minimising "
                   "plies in a row leave nothing to cut, so no cut-off happens, the history "
                   "heuristic never learns and the table never bounds a search.")


# ----------------------------------------------------------------------------- the thesis's search

def single_text(d: Data) -> str:
    """Each enhancement alone in the thesis's search beside the thesis (its Table 8, depth 9)."""
    if d.t1t is None:
        return "not computed in this run."
    parts = []
    for name in SINGLE:
        est, lo, hi, _ = analysis.ratio(d.t1t, "none", name)
        parts.append(f"{LABEL[name]} saves {est:.1f}× ({ci_range(lo, hi, percent=False)}; thesis "
                     f"{analysis.paper_ratio(name):.1f}×)")
    return "; ".join(parts) + f", over {d.t1t['deal'].nunique()} deals."


def decomp_text(d: Data) -> str:
    """The steps from the sound search to the thesis's in one sentence (towards the paper's 184×)."""
    return "not computed in this run." if len(d.decomp) < 2 else analysis.decomposition_text(d.decomp) + "."


def decomp_table(d: Data) -> pd.DataFrame | None:
    """All enhancements against plain alpha-beta from the sound search to the thesis's, one
    switch at a time (towards paper Table 1's 184×)."""
    if len(d.decomp) < 2:
        return None
    t = analysis.decomposition_table(d.decomp).rename(columns={
        "all enhancements: nodes / sample": "all: nodes", "plain alpha-beta: nodes / sample": "none: nodes",
        "step: ratio ×": "step", "from plain alpha-beta": "via none", "from all enhancements": "via all"})
    p = d.params
    return _table(t, "All enhancements against plain alpha-beta, from the sound search to the thesis's "
                  f"(first card, depth {p['table1_depth']}, {p['table1_samples']} samples per deal, "
                  f"the same {int(d.decomp['deals'].iloc[0])} deals in every row; nodes per sampled deal; "
                  "thesis: 8,667 and 1,598,924 nodes, 184×); <em>step</em>: each step's factor on the ratio "
                  "against the row above, split into plain alpha-beta's nodes before ÷ after (<em>via none</em>) "
                  "and all enhancements' (<em>via all</em>); 95 % CIs below the values (paired bootstrap "
                  "over deals)", wrap=("search",))


def steps_text(d: Data) -> str:
    return "" if len(d.decomp) < 2 else "Step by step: " + analysis.steps_text(d.decomp)


def remaining_text(d: Data) -> str:
    return "" if d.t1t is None else analysis.gap_text(analysis.remaining_gap(d.t1t))


def _ratio_cell(df: pd.DataFrame | None, name: str, depth: int | None = None) -> str:
    if df is None:
        return ""
    est, lo, hi, n = analysis.ratio(df, "none", name, depth=depth)
    return _xci(est, lo, hi) if n else ""


WHERE = {False: "at the paper's setup", True: "over every deal"}


def thesis_table1(d: Data, every: bool = False) -> pd.DataFrame | None:
    """Paper Table 1 in the thesis's search, at the paper's setup or over every deal
    (``every``; None when there are no more), beside the paper's and the sound search's."""
    if d.t1t is None or (every and d.t1t["deal"].nunique() <= d.t1t_paper["deal"].nunique()):
        return None
    frame = d.t1t if every else d.t1t_paper
    t = analysis.table1(frame)
    sound = None if d.t1 is None else d.t1[d.t1["deal"].isin(frame["deal"].unique())]
    p = d.params
    return _table(pd.DataFrame({
        "configuration": t["config"].map(LABEL),
        **({} if t["deals"].nunique() == 1 else {"deals": t["deals"]}),
        "nodes / sample": [_nodes_ci(*v) for v in zip(t["nodes"], t["nodes_lo"], t["nodes_hi"])],
        "paper nodes": t["paper_nodes"],
        "none ÷ this": [_xci(*v) for v in zip(t["none_ratio"], t["none_ratio_lo"], t["none_ratio_hi"])],
        "paper": t["paper_none_ratio"].map(_x),
        "sound search": [_ratio_cell(sound, c) for c in t["config"]],
        "time": t["none_time_ratio"].map(_x),
    }), f"Paper's Table 1, the thesis's search, {WHERE[every]} "
        f"({frame['deal'].nunique()} deals × {p['table1_samples']} samples, depth {p['table1_depth']}); "
        "<em>none ÷ this</em>: plain alpha-beta's nodes ÷ the row's (95 % CIs below), the paper's, "
        "the sound search's on the same deals, and the same for time", counts=("deals", "paper nodes"),
        wrap=("configuration",))


def thesis_table8(d: Data) -> pd.DataFrame | None:
    """Thesis Table 8 in the thesis's search: each enhancement alone by depth, beside the
    thesis's and the sound search's ratios."""
    t8t = table8_rows(d, thesis=True)
    if t8t is None:
        return None
    both, sound8 = _concat(_table8_frames(d, True)), _concat(_table8_frames(d))
    t8t = t8t[t8t["config"] != "none"]
    one = t8t["deals"].nunique() == 1
    return _table(pd.DataFrame({
        "configuration": t8t["config"].map(LABEL), "depth": t8t["depth"],
        **({} if one else {"deals": t8t["deals"]}),
        "nodes": t8t["nodes"], "thesis nodes": t8t["paper"],
        "none ÷ this": [_ratio_cell(both, c, dp) for c, dp in zip(t8t["config"], t8t["depth"])],
        "thesis": t8t["paper_none_ratio"].map(_x),
        "sound search": [_ratio_cell(sound8, c, dp) for c, dp in zip(t8t["config"], t8t["depth"])],
    }), "Thesis Table 8 in the thesis's configuration: each enhancement alone by depth, nodes per "
        "sampled deal" + (f" over {int(t8t['deals'].iloc[0]):,} deals" if one else "") + "; <em>none ÷ this</em>: plain alpha-beta's nodes ÷ the row's (95 % CIs below), "
        "the thesis's and the sound search's", counts=("deals", "nodes", "thesis nodes"),
        wrap=("configuration",))


def depth3_text(d: Data) -> str:
    """What thesis Table 8's depth-3 column asks of the search the thesis prints."""
    both = _concat(_table8_frames(d, True))
    if both is None:
        return "Not computed in this run."
    sound_ab = _concat([d["table1_alphabeta"], d["table8_alphabeta"]])
    return analysis.depth3_text(analysis.depth3_facts(both),
                                None if sound_ab is None else analysis.depth3_facts(sound_ab))


def table8_text(d: Data) -> str:
    """Thesis Table 8 in the thesis's search in one sentence (the "What we found" box)."""
    t8 = table8_rows(d, thesis=True)
    if t8 is None:
        return "not computed in this run."
    parts = []
    for name, g in t8[t8["config"] != "none"].groupby("config", sort=False):
        g = g.sort_values("depth")
        parts.append(f"{LABEL[name]} " + " / ".join(f"{r:.1f}×" for r in g["none_ratio"]) +
                     " (thesis " + " / ".join(f"{r:.1f}×" for r in g["paper_none_ratio"]) + ")")
    return ("in the thesis's search, plain alpha-beta's nodes ÷ each enhancement alone's at depths " +
            " / ".join(str(dp) for dp in sorted(t8["depth"].unique())) + ": " + "; ".join(parts) + ".")


# ----------------------------------------------------------------------------- the printed window

WINDOWS = {"pvs": "sound (PVS)", "thesis": "Algorithm 6", "thesis_inner": "Algorithm 6 below the root"}


def window_cost_table(d: Data) -> pd.DataFrame | None:
    """Thesis Algorithm 6's window against exact plain alpha-beta: how often the chosen card
    differs, is worth less, the mean value lost and the nodes."""
    wc = _concat([d["window_cost"], d["window_cost_inner"]])
    if wc is None:
        return None
    w = analysis.window_cost(wc)
    same_n = w["n"].nunique() == 1  # then the caption gives the positions, not a column
    return _table(pd.DataFrame({
        "search, window": [f"{LABEL.get(c, c)}; {WINDOWS.get(v, v)}" for c, v in zip(w["config"], w["window"])],
        **({} if same_n else {"positions": w["n"]}),
        "other card": [with_ci(pct(v), a, b) for v, a, b in zip(w["changed"], w["changed_lo"], w["changed_hi"])],
        "worse card": [with_ci(pct(v), a, b) for v, a, b in zip(w["worse"], w["worse_lo"], w["worse_hi"])],
        "value lost": [with_ci(f"{v:.2f}", a, b, percent=False, decimals=2)
                       for v, a, b in zip(w["loss"], w["loss_lo"], w["loss_hi"])],
        "nodes": w["nodes"].map(lambda v: f"{v:,.0f}"),
    }), "The chosen card against exact plain alpha-beta (same sampled deal, depth "
        f"{d.params['table1_depth']}" + (f"; {int(w['n'].iloc[0]):,} positions each" if same_n else "")
        + "): how often it is another card and a card worth less, the mean value lost in the "
        "thesis's evaluation units (5 per card point) and the nodes per search; 95 % CIs below",
        counts=("positions",), wrap=("search, window",))


def window_games_table(d: Data) -> pd.DataFrame | None:
    """The full program with Algorithm 6's window against the same with the sound window."""
    wg, st = d["window_games"], d["strength"]
    if wg is None or st is None:
        return None
    both = pd.concat([wg, st], ignore_index=True)
    p = analysis.paired(both, "tarokist_thesis_window", "tarokist")
    if not p["deals"]:
        return None
    nodes = both[both["deal"].isin(wg["deal"])].groupby("player")["nodes"].mean()
    return _table(pd.DataFrame([{
        "deals": p["deals"],
        "card points": with_ci(f"{p['points']:+.2f}", p["points_lo"], p["points_hi"], percent=False),
        "wins (points)": with_ci(f"{100 * p['win']:+.1f}", 100 * p["win_lo"], 100 * p["win_hi"], percent=False),
        "same points": pct(p["same_points"]),
        "nodes, sound": f"{nodes['tarokist']:,.0f}",
        "nodes, Algorithm 6": f"{nodes['tarokist_thesis_window']:,.0f}",
    }]), "The full program with Algorithm 6's window minus the same program with the sound window, "
        "declarer of three on the same deals and seats: card points, wins in percentage points, the "
        "share of deals with the same points and the nodes per deal (paired differences, 95 % CIs below)",
        counts=("deals",))


def window_text(claims: pd.DataFrame) -> str:
    """The printed window's claims in words (the "What we found" box)."""
    c = claims.set_index("claim")
    if c.loc["window.exact", "verdict"] == "pending":
        return "not computed in this run."
    text = (f"as printed it is not exact: with it alone the search {c.loc['window.exact', 'ours']} "
            "(against exact alpha-beta, depth 9).")
    if c.loc["window.play", "verdict"] != "pending":
        text += (" In play, the full program with it against the same program with the sound "
                 f"window: {c.loc['window.play', 'ours']} over {int(c.loc['window.play', 'n']):,} deals.")
    return text


# ----------------------------------------------------------------------------- the fuzzy table

def fuzzy_table(d: Data) -> pd.DataFrame | None:
    """The paper's §4.2: nodes with an exact-key table ÷ the fuzzy table's, and how often the
    two choose the same card (sound search, positions later in the game)."""
    if d["fuzzy"] is None:
        return None
    f = analysis.fuzzy(d["fuzzy"])
    (sd, sdlo, sdhi), (ss, sslo, sshi) = f["same_decision"], f["same_sample"]
    return _table(pd.DataFrame([
        {"measure": "nodes, exact ÷ fuzzy (per decision)", "ours": f"{f['ratio']:.2f}×",
         "95 % CI": ci_range(f["lo"], f["hi"], percent=False, decimals=2), "n": f["positions"],
         "paper": "2.3×"},
        {"measure": "same card chosen (decision, 20 samples)", "ours": pct(sd),
         "95 % CI": ci_range(sdlo, sdhi), "n": f["positions"], "paper": "no impact"},
        {"measure": "same card chosen (one sampled deal)", "ours": pct(ss),
         "95 % CI": ci_range(sslo, sshi), "n": f["samples"], "paper": ""},
    ]), "Fuzzy against exact-key transposition table, sound search (all other enhancements on)",
        counts=("n",), wrap=("measure",))


def fuzzy_both_table(d: Data) -> pd.DataFrame | None:
    """The fuzzy table's gain (the paper's 2.3×, §4.2) in both search configurations."""
    rows = []
    for frame, what in ((d["fuzzy"], "sound, later positions"),
                        (d["thesis_fuzzy"], "thesis's without its last two readings, later positions")):
        if frame is not None:
            f = analysis.fuzzy(frame)
            rows.append({"search, positions": what, "positions": f["positions"],
                         "exact ÷ fuzzy": _xci(f["ratio"], f["lo"], f["hi"], 2),
                         "same card": pct(f["same_decision"][0])})
    if d.t1t is not None and "all_exact_tt" in set(d.t1t["config"]):
        est, lo, hi, n = analysis.ratio(d.t1t, "all_exact_tt", "all")
        rows.append({"search, positions": "thesis's, first card of a deal", "positions": n,
                     "exact ÷ fuzzy": _xci(est, lo, hi, 2),
                     "same card": pct(analysis.fuzzy(d.t1t.assign(tricks=0))["same_decision"][0])})
    if not rows:
        return None
    return _table(pd.DataFrame(rows), "The fuzzy table's gain in both search configurations "
                  "(paper: 2.3×): nodes with an exact-key table ÷ the fuzzy table's, 95 % CIs below "
                  "(bootstrap over positions), and how often the decision's card is the same; later "
                  "positions: after 0–12 random tricks", counts=("positions",),
                  wrap=("search, positions",))


def fuzzy_text(claims: pd.DataFrame) -> str:
    """The fuzzy table's gain claim (the paper's 2.3×) in words."""
    c = claims.set_index("claim").loc["fuzzy_tt.gain"]
    if c["verdict"] == "pending":
        return "not computed in this run."
    return (f"in the thesis's search the exact-key table expands **{c['ours']:.2f}×** the fuzzy "
            f"table's nodes ({ci_range(c['ci_low'], c['ci_high'], percent=False, decimals=2)}, "
            f"{int(c['n']):,} positions; paper 2.3×): {c['verdict']}.")


def _claim_words(claims: pd.DataFrame, cid: str) -> pd.Series | None:
    c = claims.set_index("claim").loc[cid]
    return None if c["verdict"] == "pending" else c


def fuzzy_play_text(claims: pd.DataFrame) -> str:
    """The paper's "no impact on the quality of playing" tested in play."""
    c = _claim_words(claims, "fuzzy_tt.quality")
    if c is None:
        return "Not computed in this run."
    return f"{c['ours'][:1].upper() + c['ours'][1:]} over {int(c['n']):,} deals: {c['verdict']}."


# ----------------------------------------------------------------------------- playing strength

def strength_text(claims: pd.DataFrame) -> str:
    """The proxy for the paper's human judgement of the program's play, in words."""
    c = _claim_words(claims, "strength.reasonable")
    if c is None:
        return "not computed in this run."
    return (f"a proxy for the paper's human judgement, not a reproduction of it: the full program "
            f"as declarer, {c['ours'].removeprefix('proxy: ')}, over {int(c['n']):,} deals: "
            f"{c['verdict']}.")


def mcab_text(d: Data) -> str:
    """Plain Monte Carlo alpha-beta beside the full program on the same deals."""
    st = d["strength"]
    mc = None if st is None else analysis.paired(st, "mcab", "tarokist")
    if mc is None or not mc["deals"]:
        return ""
    sec = analysis.strength(st).set_index("player")["seconds"]
    same = mc["points_lo"] <= 0 <= mc["points_hi"]
    return (f"Plain Monte Carlo alpha-beta scores {mc['points']:+.2f} card points "
            f"({ci_range(mc['points_lo'], mc['points_hi'], percent=False, decimals=2)}) beside the "
            f"full program on the same {mc['deals']:,} deals, at {sec['mcab'] / sec['tarokist']:.0f}× "
            "its time per deal" +
            (": no measurable difference, so the enhancements buy speed, not better cards." if same else "."))


def strength_table(d: Data) -> pd.DataFrame | None:
    """Each declarer's card points and wins, and its difference to the full program."""
    st = d["strength"]
    if st is None:
        return None
    t = analysis.strength(st)
    diffs = [analysis.paired(st, p, "tarokist") for p in t["player"]]
    return _table(pd.DataFrame({
        "declarer": t["player"].map(analysis.PLAYER_LABELS), "deals": t["deals"],
        "card points": [with_ci(f"{m:.1f}", a, b, percent=False)
                        for m, a, b in zip(t["points"], t["points_lo"], t["points_hi"])],
        "wins": [with_ci(pct(w), a, b) for w, a, b in zip(t["win"], t["win_lo"], t["win_hi"])],
        "vs full program": ["" if p == "tarokist" or not q["deals"] else
                            with_ci(f"{q['points']:+.1f}", q["points_lo"], q["points_hi"], percent=False)
                            for p, q in zip(t["player"], diffs)],
        "s / deal": t["seconds"].map(lambda v: f"{v:.2f}")}),
        "Declarer of three against two rule-based opponents: card points of 70 and wins, with 95 % "
        "CIs below; <em>vs full program</em>: the difference in card points to the full program "
        "(fuzzy table) on the deals both declared", counts=("deals",), wrap=("declarer",))


def strength_figure(d: Data):
    """Declarer's mean card points (95 % CI) per player, with the win threshold."""
    import matplotlib.pyplot as plt

    t = analysis.strength(d["strength"])
    # 5.6 in wide with each label broken into lines (the player, then its deals) and the book's
    # font sizes: a phone's column shows the text at 9 px or more.
    fig, ax = plt.subplots(figsize=(5.6, 0.75 * len(t) + 1.2))
    y = np.arange(len(t))[::-1]
    ax.errorbar(t["points"], y, xerr=[t["points"] - t["points_lo"], t["points_hi"] - t["points"]],
                fmt="o", capsize=3)
    ax.axvline(35.5, color="0.5", ls="--", lw=1)
    ax.text(35.4, y.max() + 0.35, "win: more than 35 ", color="0.35", ha="right")
    ax.set_yticks(y, [f"{textwrap.fill(analysis.PLAYER_LABELS[p], 17)}\n({n:,} deals)" for p, n in zip(t["player"], t["deals"])])
    ax.set_xlabel("declarer's card points of 70 (mean, 95 % CI)")
    fig.tight_layout()  # the labels inside the 5.6 in, not beyond its left edge
    return fig


def strength_figure_data(d: Data) -> pd.DataFrame:
    """The tidy data of :func:`strength_figure`: one row per declarer."""
    t = analysis.strength(d["strength"])
    return pd.DataFrame({"declarer": t["player"].map(analysis.PLAYER_LABELS),
                         "card points of 70": t["points"], "ci_low": t["points_lo"],
                         "ci_high": t["points_hi"], "n": t["deals"]})


# ----------------------------------------------------------------------------- bidding sessions

def sessions_text(d: Data) -> str:
    """The contracts of the bidding sessions in one sentence (the "What we found" box)."""
    ss = d["sessions"]
    if ss is None:
        return "not computed in this run."
    mix = analysis.contract_mix(ss).set_index("contract")
    paths = analysis.margin_paths(ss)
    last = paths[paths["game"] == paths["game"].max()]["margin"]
    return (f"over {len(ss):,} games in {_sessions(ss)} everyone passed (klop) in "
            f"{pct(mix.loc['klop', 'share']) if 'klop' in mix.index else pct(0)} of the games; " +
            ", ".join(f"{c} {pct(r.share)}" for c, r in mix.iterrows() if c != "klop") +
            (f". The margin ended at {last.min():g} (start 7)." if last.min() == last.max() else
             f". The margin ended between {last.min():g} and {last.max():g} (start 7)."))


def _sessions(ss: pd.DataFrame) -> str:
    n = ss["session"].nunique()
    return f"{n} session{'s' if n != 1 else ''}"


def contracts_table(d: Data) -> pd.DataFrame | None:
    """The bidding sessions' contracts: games, share, declarer's wins and mean score."""
    ss = d["sessions"]
    if ss is None:
        return None
    mix = analysis.contract_mix(ss)
    col = lambda c: mix[c] if c in mix else pd.Series([math.nan] * len(mix))  # noqa: E731
    return _table(pd.DataFrame({
        "contract": mix["contract"], "games": mix["games"], "share": mix["share"].map(pct),
        "declarer wins": col("win").map(pct),
        "95 % CI": [ci_range(a, b) if a == a else "" for a, b in zip(col("win_lo"), col("win_hi"))],
        "declarer's mean score": col("score").map(lambda v: f"{v:+.1f}" if v == v else "")}),
        f"Contracts over {len(ss):,} games ({_sessions(ss)} of three adaptive programs)",
        counts=("games",))


def announcements_table(d: Data) -> pd.DataFrame | None:
    """The bidding sessions' announcements: how often made and achieved."""
    ss = d["sessions"]
    if ss is None:
        return None
    ann = analysis.announcement_stats(ss)
    return _table(pd.DataFrame({
        "announcement": ann["announcement"].str.replace("_", " "), "announced": ann["announced"],
        "achieved when announced": ann["rate"].map(pct),
        "95 % CI": [ci_range(a, b) if a == a else "" for a, b in zip(ann["rate_lo"], ann["rate_hi"])],
        "achieved silently": ann["silent"]}),
        f"Announcements in the {int(ann['games'].iloc[0]):,} games of three, two or one",
        counts=("announced", "achieved silently"))


def trend_table(d: Data) -> pd.DataFrame | None:
    """The bidding sessions in windows of 50 games: klop, declarer's wins, the margin."""
    ss = d["sessions"]
    if ss is None:
        return None
    tr = analysis.session_trend(ss)
    return _table(pd.DataFrame({
        "games of the session": tr["games"], "games": tr["n"], "klop": tr["klop"].map(pct),
        "declarer wins": tr["declarer_win"].map(pct), "mean margin after": tr["margin"].map(lambda v: f"{v:.1f}")}),
        "The sessions in windows of 50 games", counts=("games",))


def session_size_text(d: Data) -> str:
    return f"{d.params['session_games']:,}"


def session_trend_text(d: Data) -> str:
    """How the margin and klop move over the sessions, and what that says of our reading of
    the adaptation rule (the paper gives no session data)."""
    ss = d["sessions"]
    if ss is None:
        return ""
    tr = analysis.session_trend(ss)
    first, last = tr.iloc[0], tr.iloc[-1]
    paths = analysis.margin_paths(ss)
    fell = last["margin"] < first["margin"]
    wins = f"declarers win {pct(ss.loc[ss['contract'] != 'klop', 'won'].mean())} of their games."
    if len(tr) < 2:
        return (f"Over games {first['games']} of the session the mean margin is {first['margin']:.1f} "
                f"and klop {pct(first['klop'])}; {wins}")
    text = (f"Over the sessions the mean margin {'falls' if fell else 'moves'} from {first['margin']:.1f} "
            f"after games {first['games']} to {last['margin']:.1f} after games {last['games']}, and "
            f"klop from {pct(first['klop'])} to {pct(last['klop'])}, while {wins}")
    if fell and paths["margin"].min() < 0:
        text += (f" Under our reading of the adaptation the margin drifts down within "
                 f"{d.params['session_games']:,} games. The cause is self-play of three adaptive "
                 "copies: each lost game moves one declarer's margin up by 1 and the margins of up "
                 "to two non-bidders (the opponents who had no viable contract) down by 1, and a "
                 "won game moves nothing. A lost game thus changes the three margins' sum by +1 "
                 "(no such non-bidder), 0 or -1 (two), so the sum falls whenever lost games with "
                 "two non-bidders outnumber those with none, as they do in these sessions. "
                 f"Margins as low as {paths['margin'].min():g} (a player bidding although its own "
                 "test games predict a loss) show that this reading breaks down in self-play. The "
                 "paper gives the rule in one sentence and no session data, so this is a property "
                 "of our reading, not a check of theirs; a reading with a smaller step down, or one "
                 "that lowers the margin only when the player's own test games said the contract "
                 "was close, would settle higher.")
    return text


def margin_figure(d: Data):
    """Each program's bidding margin after every game, one colour per session."""
    import matplotlib.pyplot as plt

    paths = analysis.margin_paths(d["sessions"])
    fig, ax = plt.subplots(figsize=(7, 3))
    for (s, p), g in paths.groupby(["session", "player"]):
        ax.step(g["game"] + 1, g["margin"], where="post", lw=1, alpha=0.7,
                label=f"session {s}" if p == 0 else None, color=f"C{s % 10}")
    ax.set_xlabel("game of the session")
    ax.set_ylabel("bidding margin (points)")
    ax.legend(fontsize=8, ncol=2)
    return fig


def margin_figure_data(d: Data) -> pd.DataFrame:
    """The tidy data of :func:`margin_figure`: one row per player and game."""
    p = analysis.margin_paths(d["sessions"])
    return pd.DataFrame({"series": "session " + p["session"].astype(str), "player": p["player"],
                         "game of the session": p["game"] + 1, "bidding margin (points)": p["margin"],
                         "n": 1})


# ----------------------------------------------------------------------------- speed

def speed_text(d: Data) -> str:
    """µs per node with all enhancements over every deal, against the paper's 28.6 µs."""
    if d.t1 is None:
        return "not computed in this run"
    a = analysis.table1(d.t1).set_index("config").loc["all"]
    return (f"{a.us_per_node:.2f}{NBSP}µs per node in our sound search with all enhancements "
            f"over {d.t1['deal'].nunique()} deals ({_faster(paper.US_PER_NODE_ALL / a.us_per_node)} "
            "per node than the paper's program)")


def _faster(x: float) -> str:
    """``12× faster`` / ``1.5× slower`` (never "0× faster")."""
    if x < 1:
        return f"{1 / x:.{0 if 1 / x >= 10 else 1}f}× slower"
    return f"{x:.{0 if x >= 10 else 1}f}× faster"


def speed_deals_text(rec: Mapping | None) -> str:
    """Random games per second against OpenSpiel's tarok, from ``gameai bench tarok``."""
    lfl = None if rec is None else rec.get("like_for_like")
    if lfl is None:
        return "random play against OpenSpiel: no bench record (`gameai bench tarok`)"
    return (f"random games from the same start states (bidding, talon and discards done, 48 plies "
            f"to play): {lfl['ours'] / lfl['openspiel_cpp']:.1f}× OpenSpiel's C++ loop and "
            f"{lfl['ours'] / lfl['openspiel_python']:.0f}× its Python loop")


def speed_table(d: Data, rec: Mapping | None) -> pd.DataFrame | None:
    """µs per node beside the paper's (its Table 1) and random games per second beside
    OpenSpiel's, from the bench record ``rec``."""
    rows = []
    if d.t1 is not None:
        t = analysis.table1(d.t1).set_index("config")
        for cfg, paper_us in (("all", paper.US_PER_NODE_ALL), ("none", paper.TABLE1["table1.none"][3])):
            us = t.loc[cfg, "us_per_node"]
            rows.append({"measure": f"µs / node, {LABEL[cfg]}", "ours": f"{us:.2f}",
                         "reference": f"paper: {paper_us:.1f}", "ours faster": f"{paper_us / us:.0f}×"})
    lfl = None if rec is None else rec.get("like_for_like")
    if lfl is not None:
        for key, what in (("openspiel_cpp", "OpenSpiel, C++ loop"), ("openspiel_python", "OpenSpiel, Python loop")):
            rows.append({"measure": "random games / s", "ours": f"{lfl['ours']:,.0f}",
                         "reference": f"{what}: {lfl[key]:,.0f}", "ours faster": f"{lfl['ours'] / lfl[key]:.1f}×"})
    if not rows:
        return None
    m = {} if rec is None else rec["machine"]
    return _table(pd.DataFrame(rows), "Speed on one core beside the paper's program (2003) and "
                  "OpenSpiel's tarok: µs per node in the sound search's run of the paper's Table 1"
                  + _node_cost_runs(d)
                  + ("" if lfl is None else f"; random play from the same {lfl['start_states']} "
                     f"start states, from <code>gameai bench tarok</code> on {m['cpu']}, "
                     f"{m['date']}"))


def _node_cost_runs(d: Data) -> str:
    """Which run of the paper's Table 1 the speed table's node costs come from, and what the
    other run measured: both ran on machines shared with other work, so their times differ."""
    if d.t1 is None:
        return ""
    text = f" at {d.t1['deal'].nunique()} deals"
    if d.t1_paper is not None and d.t1_paper["deal"].nunique() != d.t1["deal"].nunique():
        other = analysis.table1(d.t1_paper).set_index("config").loc["all", "us_per_node"]
        text += (f" (the run at the paper's {d.t1_paper['deal'].nunique()} deals measured "
                 f"{other:.2f} µs with all enhancements: both shared their machine with other "
                 "runs, so times per node vary between runs; node counts do not)")
    return text


# ----------------------------------------------------------------------------- claims and compute

GROUPS = {"table1.": "Paper's Table 1 — nodes for the first card of a deal, depth 9",
          "table8.": "Thesis Table 8 — nodes by depth", "fuzzy": "The fuzzy transposition table (nodes and play)",
          "window": "The thesis's minimal window", "strength": "Playing strength"}
NOT_JUDGED = "Absolute node counts and 2003 seconds (the paper's Table 1, thesis Table 8) — " + analysis.NOT_COMPARABLE_WHY


def claims_group(cid: str) -> str | None:
    """The heading of claim ``cid``: the paper's tables, with the absolute counts and times
    folded into one group at the end."""
    if analysis.not_comparable_id(cid):
        return NOT_JUDGED
    return next((g for p, g in GROUPS.items() if cid.startswith(p)), None)


def claims_digits(cid: str) -> int:
    """Digits shown of ours and the CI: node counts whole, 2003-style seconds to the
    millisecond, ratios and the rest to one decimal, as the paper prints them."""
    if cid.endswith(".seconds"):
        return 3
    if cid.startswith(("table1.", "table8.")) and not (cid.endswith(".ratio") or cid == "table1.reduction"):
        return 0
    return 1


def claims_view(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims in the order shown (absolute counts last), their descriptions without what
    the group heading already says (depth 9, the thesis's search configuration), so the
    table's number columns keep their room."""
    out = claims.sort_values("claim", key=lambda s: s.map(analysis.not_comparable_id), kind="stable")
    desc = (out["description"].str.replace(", thesis's search configuration", "", regex=False)
            .str.replace(r", depth 9$", "", regex=True))
    return out.assign(description=desc)


def claims_html(claims: pd.DataFrame):
    """The claims table (``gameai.book.claims_table``) as the chapter shows it."""
    from ..book.claims_table import claims_table

    return claims_table(claims_view(claims), "tarok", group=claims_group, percent=False,
                        drop_labels=False, decimals=claims_digits, note_limit=90,
                        fold=lambda cid, verdict: analysis.not_comparable_id(cid))


def compute_table(res) -> pd.DataFrame:
    """Tasks done and recorded wall time per experiment (``res``: ``chapter.results``)."""
    from ..core.store import wall_time

    rows = []
    # two readings of one stored experiment (Table 1 at the paper's deals is the first deals
    # of Table 1 at more deals) are one run: one row, the larger, whose time covers both
    largest = {}
    for key, exp in res.experiments.items():
        if exp.name not in largest or exp.total > largest[exp.name].total:
            largest[exp.name] = exp
    for key, exp in res.experiments.items():
        if largest[exp.name] is not exp:
            continue
        df = res[key]
        have = 0 if df is None else int(df.groupby("key")["index"].nunique().sum())
        within = [e.description for e in res.experiments.values()
                  if e.name == exp.name and e is not exp]
        rows.append({"experiment": exp.description + "".join(f" (its first tasks: {w})"
                                                             for w in within),
                     "tasks": f"{have:,}" if have == exp.total else f"{have:,} of {exp.total:,}",
                     "wall time (h)": round(wall_time(exp, res.data_dir) / 3600, 2)})
    return _table(pd.DataFrame(rows), "Compute per experiment (a task is one deal or position)",
                  wrap=("experiment",))
