"""The cross-game chapter's tables, figures and sentences, one function each, from the rows of
:mod:`.analysis` (the notebook only calls them and shows what they return).

Players are named in words (:data:`NAMES`); differences are in points of the game's measure
(win or fool rate), signed so that positive favours SO-ISMCTS.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
from matplotlib.transforms import offset_copy
import numpy as np
import pandas as pd

from ..book import plots
from ..core.numbers import and_list, pct, points, points_range, with_ci
from ..core.stats import holm
from . import paper
from . import verdicts as V
from .analysis import HEADLINE, LOWER_IS_BETTER, MEASURE_WORDS, _pp, _pp_ci, best_det_counts
from .play import EXPLORATION, PLAYERS, SETTINGS, TUNED
from .search import det_count

NAMES = {"flat_mc": "flat Monte Carlo", "det_uct": "determinized UCT, fixed split",
         TUNED: "determinized UCT, best split", "ismcts": "SO-ISMCTS", "baseline": "baseline"}
SHORT = {"frankszoo": "Frank's Zoo", "kingdomino": "Kingdomino", "tarok": "Tarok",
         "durak2": "Durak, 2p", "durak4": "Durak, 4p"}
COLORS = {"flat_mc": "C0", "det_uct": "C1", TUNED: "C4", "ismcts": "C2"}
HIDDEN = {"frankszoo": "the other three hands",
          "kingdomino": "the order of the dominoes still to be drawn",
          "tarok": "the two defenders' hands (a suit a defender has shown void in goes to the "
                   "other)",
          "durak2": "the opponent's hand and the talon",
          "durak4": "the other hands and the talon"}
MEASURE = {"frankszoo": "win rate (first out of cards)",
           "kingdomino": "win rate (highest score; a first place shared by k players counts 1/k)",
           "tarok": "the declarer's win rate (at least 36 of the 70 card points)",
           "durak2": "fool rate (lower is better)", "durak4": "fool rate (lower is better)"}


def games_table() -> pd.DataFrame:
    """The games, their baselines, the seat under test and what the searcher cannot see."""
    return pd.DataFrame([{"game": s.label,
                          "seat under test": "declarer" if g == "tarok" else "rotates",
                          "baseline (every other seat)": s.baseline,
                          "hidden from the searcher": HIDDEN[g],
                          "measure (and search reward)": MEASURE[g]}
                         for g, s in SETTINGS.items()])


def _panels(n: int, ncols: int = 2, height: float = 3.1):
    rows = max(1, math.ceil(n / ncols))
    fig, axes = plt.subplots(rows, ncols, figsize=(3.5 * ncols, height * rows), squeeze=False)
    return fig, axes.ravel()


def _finish(fig, axes, used: int, xlabel: str) -> None:
    """Blank the unused panels, label the x axes of every panel (each keeps its tick labels)
    and put the legend in the first spare panel, or below."""
    for ax in axes[:used]:
        ax.set_xlabel(xlabel)
    handles: dict = {}
    for ax in axes[:used]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    for ax in axes[used:]:
        ax.axis("off")
    if used < len(axes):
        axes[used].legend(list(handles.values()), list(handles), loc="center", frameon=False)
    else:
        fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=3)
    fig.tight_layout()


def _rate_bars(ax, x, cells: pd.DataFrame, **style) -> None:
    """Headline rates of ``cells`` at ``x`` with their Wilson 95 % intervals as error bars."""
    ax.errorbar(x, cells["rate"], yerr=[cells["rate"] - cells["ci_low"],
                                        cells["ci_high"] - cells["rate"]], capsize=2, **style)


def _rate_panel(ax, game: str) -> None:
    """A panel of one game's headline rate: log x, the game as title, the measure in %."""
    ax.set_xscale("log")
    ax.set_title(SETTINGS[game].label, fontsize=11)
    ax.set_ylabel(MEASURE_WORDS[HEADLINE[game]])
    plots.percent_axis(ax)


def strength_figure(table: pd.DataFrame, games) -> plt.Figure:
    """Each player's headline rate against the budget, one panel per game, with Wilson 95 %
    intervals; the baseline in the seat as a dashed line with its interval as a band."""
    fig, axes = _panels(len(games))
    for ax, game in zip(axes, games):
        t = table[table["game"] == game]
        base = t[t["player"] == "baseline"]
        if len(base):
            b = base.iloc[0]
            ax.axhspan(b["ci_low"], b["ci_high"], color="0.85", zorder=0)
            ax.axhline(b["rate"], color="0.4", ls="--", lw=1, label="baseline in the seat")
        for player in [p for p in PLAYERS if p != "baseline"]:
            c = t[t["player"] == player]
            if len(c):
                _rate_bars(ax, c["budget"], c, marker="o", ms=4, color=COLORS[player],
                           label=NAMES[player])
        _rate_panel(ax, game)
    _finish(fig, axes, len(games), "iterations per decision")
    return fig


def smallest_budget_table(table: pd.DataFrame, games) -> pd.DataFrame:
    """Game x player: the smallest budget at which the player beats the baseline in the same
    seat - the paired difference on the same deals, with Holm's correction over the budgets
    of that game and player - or "none up to B"."""
    out = []
    for game in games:
        row = {"game": SETTINGS[game].label}
        for player in [p for p in PLAYERS if p != "baseline"]:
            cells = table[(table["game"] == game) & (table["player"] == player)]
            if cells.empty:
                row[NAMES[player]] = "–"
                continue
            flags = holm([(r.vs_baseline, r.vs_low, r.vs_high) for r in cells.itertuples()])
            sign = -1 if LOWER_IS_BETTER[game] else 1
            wins = [int(r.budget) for r, f in zip(cells.itertuples(), flags)
                    if f and sign * r.vs_baseline > 0]
            row[NAMES[player]] = (f"{min(wins):,}" if wins
                                  else f"none up to {int(cells['budget'].max()):,}")
        out.append(row)
    return pd.DataFrame(out)


def cost_table(cost: pd.DataFrame, games) -> pd.DataFrame:
    """Memory (mean tree nodes per searched decision at the largest budget) and speed
    (decisions per second at 1,000 iterations) per search, one column per game; ``cost`` is
    :func:`gameai.crossgame.analysis.cost_table`."""
    c = cost.set_index(["game", "player", "budget"])
    budgets = set(c.index.get_level_values("budget"))
    top = max(b for b in budgets if (c.xs(b, level="budget")["n"] > 0).any())
    mid = 1_000 if 1_000 in budgets else top
    measures = [(f"tree nodes, {NAMES['det_uct']} ({top:,} it.)", "det_uct", top, "nodes"),
                (f"tree nodes, {NAMES['ismcts']} ({top:,} it.)", "ismcts", top, "nodes"),
                (f"root moves, {NAMES['flat_mc']}", "flat_mc", top, "nodes"),
                *[(f"decisions/s, {NAMES[s]} ({mid:,} it.)", s, mid, "per_second")
                  for s in ("flat_mc", "det_uct", "ismcts")]]
    wide = pd.DataFrame({"per searched decision": [m[0] for m in measures]})
    for g in games:
        wide[SHORT[g]] = [round(float(c[col].get((g, s, b), np.nan)), 0)
                          for _, s, b, col in measures]
    return wide


def sweep_figure(sweep: pd.DataFrame, games) -> plt.Figure:
    """Determinized UCT's headline rate against its number of determinizations, one line per
    budget, one panel per game (Wilson 95 % intervals); a ring marks each budget's best."""
    fig, axes = _panels(len(games))
    budgets = sorted(set(sweep["budget"]))
    cmap = plt.get_cmap("viridis")
    for ax, game in zip(axes, games):
        for i, b in enumerate(budgets):
            c = sweep[(sweep["game"] == game) & (sweep["budget"] == b)]
            if c.empty:
                continue
            color = cmap(i / max(1, len(budgets) - 1))
            _rate_bars(ax, c["n_det"], c, marker="o", ms=3, color=color, label=f"{b:,} iterations")
            best = c[c["best"]]
            ax.plot(best["n_det"], best["rate"], "o", ms=9, mfc="none", color=color)
        _rate_panel(ax, game)
        ticks = sorted(set(sweep["n_det"]))
        ax.set_xticks(ticks, [str(k) for k in ticks])
        ax.minorticks_off()
    _finish(fig, axes, len(games), "determinizations")
    return fig


def best_split_table(sweep_rows: pd.DataFrame, games) -> pd.DataFrame:
    """Game x budget: the number of determinizations the sweep found best, beside the fixed
    split's (``min(10, budget / 10)``), as "best (fixed)"."""
    best = best_det_counts(sweep_rows)
    budgets = sorted({b for (_, b) in best})
    out = []
    for game in games:
        row = {"game": SETTINGS[game].label}
        for b in budgets:
            k = best.get((game, b))
            row[f"{b:,}"] = "–" if k is None else f"{k} ({det_count(b, 0)})"
        out.append(row)
    return pd.DataFrame(out)


def differences(rows: pd.DataFrame, games, n_games: int, second_look: int = 0) -> pd.DataFrame:
    """Per game, rival (the two determinized UCTs) and budget: SO-ISMCTS minus the rival on the
    same deals, with its 95 % CI and the budget's verdict (:mod:`.verdicts`; a second look is
    taken once it has ``second_look`` games)."""
    frames = []
    for game in games:
        for rival in ("det_uct", TUNED):
            t = V.budget_verdicts(rows, game, rival, n_games, second_look=second_look)
            frames.append(t.assign(rival=rival))
    cols = ["game", "rival", "budget", "n", "diff", "low", "high", "verdict", "to_decide"]
    return pd.concat(frames, ignore_index=True)[cols] if frames else pd.DataFrame(columns=cols)


def differences_table(diffs: pd.DataFrame, games) -> pd.DataFrame:
    """One row per game and budget: the games against the best split (more than the study's
    where a second look added some), and SO-ISMCTS minus the best-split and minus the
    fixed-split determinized UCT, in points with the 95 % interval and the budget's verdict
    mark."""
    out = []
    for game in games:
        cells = diffs[diffs["game"] == game]
        for budget in sorted(set(cells["budget"])):
            row = {"game": SHORT[game], "iterations": f"{int(budget):,}"}
            for rival in (TUNED, "det_uct"):
                r = cells[(cells["rival"] == rival) & (cells["budget"] == budget)]
                if not r.empty:
                    row.setdefault("games", f"{int(r['n'].iloc[0]):,}")  # the best split's first
                row[f"against the {NAMES[rival].removeprefix('determinized UCT, ')}"] = (
                    "" if r.empty else f"{_pp(r['diff'].iloc[0])} "
                    f"({_pp_ci(r['low'].iloc[0], r['high'].iloc[0])}) {_SYMBOL[r['verdict'].iloc[0]]}")
            out.append(row)
    return pd.DataFrame(out, columns=["game", "iterations", "games", "against the best split",
                                      "against the fixed split"])


#: One mark per budget verdict in the differences table (explained in its caption).
_SYMBOL = {V.BETTER: "▲", V.WORSE: "▼", V.EQUIVALENT: "=", V.NOT_WORSE: "≥", V.UNDECIDED: "?"}
SYMBOL_KEY = ("▲ ISMCTS better, ▼ worse, = equivalent within 3 points, ≥ not worse by more than "
              "3 points, ? undecided at this number of games (Holm over a game's budgets; a "
              "budget with more games than the study's had a second look, judged at half the "
              "level)")


def differences_figure(diffs: pd.DataFrame, games) -> plt.Figure:
    """SO-ISMCTS minus each determinized UCT against the budget, one panel per game, with 95 %
    intervals; the grey band is the ±3-point margin of the verdicts."""
    from matplotlib.ticker import FuncFormatter

    fig, axes = _panels(len(games))
    for ax, game in zip(axes, games):
        ax.axhspan(-V.MARGIN, V.MARGIN, color="0.9", zorder=0, label="±3-point margin")
        ax.axhline(0, color="0.4", lw=0.8)
        cells = diffs[diffs["game"] == game]
        for j, rival in enumerate((TUNED, "det_uct")):
            t = cells[cells["rival"] == rival]
            if t.empty:
                continue
            # side by side by 3 points on screen: the data (and the figure's CSV) keep the budget
            shift = offset_copy(ax.transData, fig=fig, x=3 if j else -3, units="points")
            ax.errorbar(t["budget"], t["diff"], yerr=[t["diff"] - t["low"], t["high"] - t["diff"]],
                        marker="o", ms=4, capsize=2, color=COLORS[rival], transform=shift,
                        label=f"ISMCTS − {NAMES[rival]}")
        ax.set_xscale("log")
        if len(cells):  # an offset transform keeps errorbar out of autoscaling: set the limits
            ax.set_xlim(cells["budget"].min() / 1.6, cells["budget"].max() * 1.6)
            top = max(V.MARGIN, cells["high"].max(), -cells["low"].min()) * 1.15
            ax.set_ylim(-top, top)
        ax.set_title(SETTINGS[game].label, fontsize=11)
        ax.set_ylabel("ISMCTS minus rival (points)")
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda v, _: "0" if round(100 * v) == 0 else f"{round(100 * v):+d}"))
    _finish(fig, axes, len(games), "iterations per decision")
    return fig


def domain_table(claims: pd.DataFrame, games) -> pd.DataFrame:
    """The paper's domains (its setting of determinized UCT and what ISMCTS did against it,
    :data:`paper.DOMAINS`) above this chapter's games (each game's claim verdict and the
    difference at the largest budget judged): three columns, so that it fits a page."""
    rows = [{"domain": f"{d['domain']} (Cowling et al.)", "determinized UCT": d["det_uct"],
             "ISMCTS against it": d["finding"]} for d in paper.DOMAINS]
    verdicts = claims.set_index("claim")["verdict"] if len(claims) else pd.Series(dtype=str)
    ours = claims.set_index("claim")["ours"] if len(claims) else pd.Series(dtype=str)
    for game in games:
        cid = f"{game}.ismcts_vs_det_uct"
        rows.append({"domain": f"{SETTINGS[game].label} (this chapter)",
                     "determinized UCT": "the best of 1–40 determinizations per budget",
                     "ISMCTS against it": f"{verdicts.get(cid, 'pending')}: "
                                          f"{ours.get(cid, 'not computed')}"})
    return pd.DataFrame(rows, columns=["domain", "determinized UCT", "ISMCTS against it"])


def _share(v, lo, hi) -> str:
    """A share with its 95 % interval in small type below it (the value alone when there is no
    spread: every game alike), or a dash when nothing was measured."""
    if pd.isna(v):
        return "–"
    return pct(v) if pd.isna(lo) or lo == hi else with_ci(pct(v), lo, hi)


def _gap(v, lo, hi) -> str:
    """A difference in points with its interval below it, or a dash."""
    if pd.isna(v):
        return "–"
    return f"{points(v, unit=False)}<br><small>{points_range(lo, hi, unit=False)}</small>"


def nonlocality_display(table: pd.DataFrame, games) -> pd.DataFrame:
    """What the opponents' moves tell (:func:`.analysis.nonlocality_table`), per game (short
    names, short headers: six columns that fit a phone): the opponent moves weighed, the share
    of drawn deals in which the move was possible, the baseline's move made in the true deal
    and in the kept drawn deals (each with its 95 % interval over games), and the gap in
    points."""
    t = table.set_index("game")
    rows = [{"game": SHORT[g], "moves per game": f"{t.at[g, 'moves']:.0f}",
             "deals allowing it": pct(t.at[g, "kept"]),
             "same move: true deal": _share(*t.loc[g, ["p_true", "true_low", "true_high"]]),
             "drawn deal": _share(*t.loc[g, ["p_uniform", "uniform_low", "uniform_high"]]),
             "gap (points)": _gap(*t.loc[g, ["gap", "gap_low", "gap_high"]])}
            for g in games if g in t.index]
    return pd.DataFrame(rows)


def _in_games(labels: list[str], of: int) -> str:
    """"In Tarok, declarer in 'three'" for one game, "In 2 of the 5 games (A; B)" for more: the
    games' names hold commas, so a list of them takes semicolons and a count."""
    if len(labels) == 1:
        return f"In {labels[0]}"
    return f"In {len(labels)} of the {of} games ({'; '.join(labels)})"


def nonlocality_text(table: pd.DataFrame) -> str:
    """The opponents' moves measure in words: the gap between the true deal and the drawn ones
    per game, largest first, and which games show none (an interval that covers 0)."""
    if table.empty:
        return "*The opponents' moves were not weighed in this run.*"
    t = table.sort_values("gap", ascending=False)
    gaps = "; ".join(f"{SETTINGS[r.game].label} {points(r.gap)} "
                     f"({points_range(r.gap_low, r.gap_high)})" for r in t.itertuples())
    none = [SETTINGS[r.game].label for r in t.itertuples() if r.gap_low <= 0 <= r.gap_high]
    some = [r for r in t.itertuples() if r.gap_low > 0]
    text = ("How many points more often the baseline makes its move in the true deal than in a "
            f"drawn deal that allows it (95 % intervals), per game: {gaps}.")
    if some:
        top = some[0]
        text += (f" {_in_games([SETTINGS[r.game].label for r in some], len(t))} the opponents' "
                 "moves speak against many of the deals drawn: in "
                 f"{SETTINGS[top.game].label} the baseline would have made its move in only "
                 f"{pct(top.p_uniform)} of the drawn deals that allowed it, against "
                 f"{pct(top.p_true)} in the true one. None of the three searches uses that "
                 "information (each draws its deals uniformly): it is what non-locality names. "
                 "A searcher could use it only by modelling how its opponents play, and what "
                 "leaving it out costs each search is not measured here.")
    if none:
        text += (f" {_in_games(none, len(t))} the interval covers 0: the moves tell the "
                 "searcher nothing measurable about what it cannot see.")
    return text


def fusion_display(table: pd.DataFrame, games) -> pd.DataFrame:
    """Strategy fusion in determinized UCT's trees (:func:`.analysis.fusion_table`), per game
    (short names, short headers: six columns that fit a phone): the share of trees whose plan
    could be read, the information sets compared (and the games they came from), how often two
    trees' plans differ there on one deal and on different deals (95 % intervals over games)
    and the gap in points."""
    t = table.set_index("game")
    rows = [{"game": SHORT[g], "plans read": pct(t.at[g, "readable"]),
             "information sets": f"{int(t.at[g, 'sets']):,}<br><small>in "
                                 f"{int(t.at[g, 'compared']):,} games</small>",
             "plans differ: same deal": _share(*t.loc[g, ["same", "same_low", "same_high"]]),
             "different deals": _share(*t.loc[g, ["other", "other_low", "other_high"]]),
             "gap (points)": _gap(*t.loc[g, ["fusion", "fusion_low", "fusion_high"]])}
            for g in games if g in t.index]
    return pd.DataFrame(rows)


def best_tree_sizes(sweep_rows: pd.DataFrame) -> str:
    """The iterations per tree of the best split at the sweep's largest budget, over the games
    (``250 to 1,000``): what the fusion measure's trees are set beside."""
    best = best_det_counts(sweep_rows)
    if not best:
        return "not computed in this run"
    top = max(b for _, b in best)
    sizes = sorted({top // k for (_, b), k in best.items() if b == top})
    return f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,} to {sizes[-1]:,}"


def fusion_text(table: pd.DataFrame) -> str:
    """Strategy fusion in words: per game, how much more often two trees' plans differ
    between deals than on one deal; where that is clear of 0, where not, and where no
    information set was compared."""
    if table.empty:
        return "*Determinized UCT's plans were not read in this run.*"
    measured = table.dropna(subset=["fusion"]).sort_values("fusion", ascending=False)
    text = ""
    if len(measured):
        diffs = "; ".join(f"{SETTINGS[r.game].label} {points(r.fusion)} "
                          f"({points_range(r.fusion_low, r.fusion_high)})"
                          for r in measured.itertuples())
        text = ("How many points more often two trees plan different moves in one information "
                "set when their deals differ than when they share one (95 % intervals), per "
                f"game: {diffs}.")
        clear = [SETTINGS[r.game].label for r in measured.itertuples() if r.fusion_low > 0]
        level = [SETTINGS[r.game].label for r in measured.itertuples()
                 if not r.fusion_low > 0]
        if clear:
            text += (f" {_in_games(clear, len(table))} the trees' plans for the searcher's next "
                     "move depend on the deal it cannot see, beyond the search's own noise: "
                     "which move a tree plans there, or how surely, changes with a deal the "
                     "player could not know, the choice no real player has and the one strategy "
                     "fusion names. What it costs (a too good value of the first move) is not "
                     "measured here.")
        if level:
            text += (f" {_in_games(level, len(table))} no dependence on the deal beyond that "
                     "noise is measurable at this size.")
    none = [SETTINGS[r.game].label for r in table.itertuples() if pd.isna(r.fusion)]
    if none:
        text += (f" {_in_games(none, len(table))} no information set was reached by plans of "
                 "both kinds, so nothing is measured there.")
    return text.strip()


def exploration_figure(table: pd.DataFrame, games, values) -> plt.Figure:
    """The sensitivity check: each UCB1 constant's headline rate, one panel per game; filled
    markers beat the study's constant on the same deals (Holm), open squares lose to it."""
    fig, axes = _panels(len(games))
    for ax, game in zip(axes, games):
        for player in ("det_uct", "ismcts"):
            c = table[(table["game"] == game) & (table["player"] == player)]
            if c.empty:
                continue
            _rate_bars(ax, c["exploration"], c, marker="o", ms=4, mfc="white",
                       color=COLORS[player], label=NAMES[player])
            up, down = c[c["beats_reference"]], c[c["loses_to_reference"]]
            ax.plot(up["exploration"], up["rate"], "o", ms=6, color=COLORS[player])
            ax.plot(down["exploration"], down["rate"], "s", ms=7, mfc="none", color=COLORS[player])
        ax.axvline(EXPLORATION, color="0.4", ls=":", lw=1, label=f"the study's c = {EXPLORATION:g}")
        _rate_panel(ax, game)
        ax.set_xticks(list(values), [f"{v:g}" for v in values])
        ax.minorticks_off()
    # the markers' meaning in the legend, once (grey: it holds for both searches)
    axes[0].plot([], [], "o", ms=6, color="0.4", label=f"significantly better than c = {EXPLORATION:g}")
    axes[0].plot([], [], "s", ms=7, mfc="none", color="0.4",
                 label=f"significantly worse than c = {EXPLORATION:g}")
    _finish(fig, axes, len(games), "UCB1 constant c")
    return fig


def _listed(rows: pd.DataFrame) -> str:
    return "; ".join(f"{SETTINGS[r.game].label}, {NAMES[r.player]}, c = {r.exploration:g} "
                     f"({_pp(r.vs_reference)} points)" for r in rows.itertuples())


def exploration_text(table: pd.DataFrame) -> str:
    """What the sensitivity check shows, in words computed from its table."""
    ref = f"{EXPLORATION:g}"
    better, worse = table[table["beats_reference"]], table[table["loses_to_reference"]]
    plain = table[(table["vs_low"] > 0) & ~table["beats_reference"]]
    spread = ((table["vs_high"] - table["vs_low"]) / 2)[table["vs_high"] > table["vs_low"]]
    n = int(table["n"].min())
    text = (f"Differences are in the game's measure against {ref} on the same deals, signed so "
            "that positive is better (for Durak: fewer fools). ")
    if len(better):
        text += (f"Significantly better than {ref} after the correction: {_listed(better)}; "
                 "there the study's search is weaker than a tuned one would be, by about that much.")
    else:
        text += (f"No constant is detectably better than {ref} at {n:,} games per cell (each "
                 f"comparison is ±{100 * spread.median():.1f} points or so).")
    if len(plain):
        text += f" Better before the correction only: {_listed(plain)}."
    if len(worse):
        text += f" Significantly worse than {ref}: {_listed(worse)}."
    return text


def compute_table(manifests: pd.DataFrame, games) -> pd.DataFrame:
    """Recorded wall time in minutes per game and part of the study (``manifests``: one row
    per experiment with ``experiment``, ``wall_time_s``)."""
    def part(name: str) -> tuple[str, str]:
        for prefix, label in (("exploration_", "c check"), ("determinizations_", "split sweep"),
                              ("tuned_", "best split"), ("baseline_", "baseline")):
            if name.startswith(prefix):
                return name.removeprefix(prefix).partition("_b")[0], label
        if name.startswith("nonlocality_"):
            return name.removeprefix("nonlocality_"), "opponents' moves"
        if name.startswith("fusion_"):
            return name.removeprefix("fusion_"), "trees' plans"
        return name.partition("_b")[0], "three searches"
    m = manifests.assign(**dict(zip(("game", "part"), zip(*manifests["experiment"].map(part)))))
    wide = m.pivot_table(index="game", columns="part", values="wall_time_s", aggfunc="sum") / 60
    order = ["baseline", "three searches", "c check", "split sweep", "best split",
             "opponents' moves", "trees' plans"]
    wide = wide.reindex(index=[g for g in games if g in wide.index],
                        columns=[c for c in order if c in wide.columns])
    wide["total"] = wide.sum(axis=1)
    wide.index = [SHORT[g] for g in wide.index]
    return wide.map(lambda v: "–" if pd.isna(v) else ("<0.1" if v < 0.05 else f"{v:,.1f}")) \
        .rename_axis("game").reset_index()


def found(game: str, table: pd.DataFrame | None, smallest: pd.DataFrame | None,
          n_games: int = 0) -> str:
    """The "what we found" line of one game: the baseline's level, the smallest budget at
    which a search beats it (Holm over budgets) and the searches ranked at the largest budget
    where every one of them has ``n_games`` games, with every search's interval (so a reader
    sees whether "best" is separated; a budget still being computed would rank unequal
    samples)."""
    if table is None or game not in set(table["game"]):
        return "*not in this run*"
    t = table[(table["game"] == game) & (table["player"] != "baseline")]
    cells = t.groupby("budget").agg(players=("player", "nunique"), n=("n", "min"))
    full = cells[(cells["players"] == t["player"].nunique()) & (cells["n"] >= n_games)]
    at = full.index.max() if len(full) else t["budget"].max()
    top = t[t["budget"] == at].sort_values("rate", ascending=LOWER_IS_BETTER[game])
    base = table[(table["game"] == game) & (table["player"] == "baseline")].iloc[0]
    words = MEASURE_WORDS[HEADLINE[game]]
    first = smallest.set_index("game").loc[SETTINGS[game].label] if smallest is not None else None
    hits = {p: v for p, v in first.items() if not str(v).startswith(("none", "–"))} if first is not None else {}
    when = (f"a search first beats it at {min(int(v.replace(',', '')) for v in hits.values()):,} "
            "iterations" if hits else "no search beats it at any budget computed")
    ranking = ", ".join(f"{NAMES[r.player]} {pct(r.rate)} ({pct(r.ci_low)}–{pct(r.ci_high)})"
                        for r in top.itertuples())
    return (f"the baseline in the seat has a {words} of {pct(base['rate'])}; {when}. At "
            f"{int(top['budget'].iloc[0]):,} iterations: {ranking}.")


def strength_text(table: pd.DataFrame, params) -> str:
    """How many games each cell of the strength figure has (and where a second look added
    more), or which cells are short, and which budgets are not computed yet."""
    s = table[table["player"] != "baseline"]
    n = int(params["n_games"])
    short = s[(s["n"] > 0) & (s["n"] < n)]
    more = s[s["n"] > n].drop_duplicates(["game", "budget"])
    text = ("Every cell shown has " + ("at least " if len(more) else "") + f"{n:,} games."
            if short.empty else "Cells with fewer games than asked for (a run still under way): "
            + "; ".join(_short_cells(g, cells) for g, cells in short.groupby("game", sort=False))
            + ".")
    if len(more):
        groups = more.groupby(["game", "n"], sort=False)["budget"].apply(
            lambda b: and_list(f"{int(x):,}" for x in sorted(b)))
        text += (f" Budgets where the first {n:,} games left the claim undecided "
                 "have more: " + "; ".join(f"{SETTINGS[g].label} at {b} iterations, {int(k):,} games"
                                           for (g, k), b in groups.items()) + ".")
    done = set(zip(s.loc[s["n"] > 0, "game"], s.loc[s["n"] > 0, "budget"]))
    games = params.get("games", sorted(set(s["game"])))
    missing = _not_yet(done, games, params["budgets"])
    if missing:
        text += (f" Not computed yet: {missing} "
                 "(`gameai run crossgame -p experiments strength`).")
    return text


def _short_cells(game: str, cells: pd.DataFrame) -> str:
    """One game's cells with fewer games than asked for: "Frank's Zoo, 4 players at 10,000
    iterations (20 to 100 games)"."""
    budgets = and_list(f"{int(b):,}" for b in sorted(set(cells["budget"])))
    lo, hi = int(cells["n"].min()), int(cells["n"].max())
    games = f"{lo:,} games" if lo == hi else f"{lo:,} to {hi:,} games"
    return f"{SETTINGS[game].label} at {budgets} iterations ({games})"


def _not_yet(done: set, games, budgets) -> str:
    """The (game, budget) cells not in ``done``, in words: "10,000 iterations" when no game has
    the budget, "10,000 iterations for Durak, 2 players; Durak, 4 players" when some have it;
    "" when every cell is done."""
    parts = []
    for b in sorted(budgets):
        left = [SETTINGS[g].label for g in games if (g, b) not in done]
        if left:
            parts.append(f"{b:,} iterations" + ("" if len(left) == len(games)
                                                 else " for " + "; ".join(left)))
    return ". ".join(parts)


def split_text(sweep_rows: pd.DataFrame, params) -> str:
    """Where the best split lies, from the sweep: how often one tree, many trees, or the
    fixed split's number was best; and the budgets not swept yet."""
    if sweep_rows.empty:
        return ("*Not computed in this run* "
                "(`gameai run crossgame -p experiments determinizations,tuned`).")
    best = best_det_counts(sweep_rows)
    ks = pd.Series(best)
    fixed = sum(k == det_count(b, 0) for (_, b), k in best.items())
    text = (f"Of the {len(ks)} game-and-budget cells swept, the best split used one tree in "
            f"{int((ks == 1).sum())}, at most 5 trees in {int((ks <= 5).sum())} and 20 or more in "
            f"{int((ks >= 20).sum())}; it was the fixed split's number in {fixed}. Each cell's "
            f"choice rests on {int(sweep_rows.groupby(['game', 'budget', 'n_det']).size().min()):,} "
            "games or more, so neighbouring numbers are often within each other's intervals: the "
            "choice is the sweep's best estimate, and the study's deals then test it.")
    games = params.get("games", sorted(set(sweep_rows["game"])))
    missing = _not_yet(set(best), games, params["det_budgets"])
    if missing:
        text += (f" Not swept yet: {missing} "
                 "(`gameai run crossgame -p experiments determinizations,tuned`).")
    return text


#: A game claim's verdict as a verb phrase before a count of settings (:func:`domains_text`).
_VERDICT_IN = {"holds": "holds in", "fails": "fails in", "undecided": "is undecided in",
               "pending": "is not computed for"}


def domains_text(sweep_rows: pd.DataFrame, claims: pd.DataFrame, games) -> str:
    """Our games against the paper's domains, in words computed from the sweep and the claims."""
    if sweep_rows.empty or claims.empty:
        return "*The comparison needs the split sweep and the claims of this run.*"
    best = best_det_counts(sweep_rows)
    per_game = []
    for g in games:
        ks = [k for (gm, _), k in best.items() if gm == g]
        if ks:
            per_game.append(f"{SETTINGS[g].label} {min(ks)}–{max(ks)}" if min(ks) != max(ks)
                            else f"{SETTINGS[g].label} {ks[0]}")
    v = claims["verdict"].value_counts()
    tally = and_list([f"{_VERDICT_IN.get(k, k + ' in')} {int(n)}" for k, n in v.items()])
    return ("In our games the best number of determinizations per budget ranged as follows: "
            + "; ".join(per_game) + f". Of the {len(claims)} settings, the paper's claim as "
            f"tested here {tally}. The differences above measure the two effects together "
            "with everything else that sets the searches apart, at equal iterations; below, "
            "each is looked for on its own in real positions of the study's games.")


def manifests(res) -> pd.DataFrame:
    """One row per experiment of the run with its recorded wall time, games stored and games
    asked for (from the manifests beside the results)."""
    import json

    out = []
    for key, exp in res.experiments.items():
        path = res.data_dir / "crossgame" / f"{exp.name}.json"
        m = json.loads(path.read_text()) if path.exists() else {}
        df = res[key]
        out.append({"experiment": exp.name, "wall_time_s": float(m.get("wall_time_s", 0.0)),
                    "games": 0 if df is None else len(df), "of": len(exp.configs) * exp.n,
                    "n_jobs": m.get("n_jobs")})
    return pd.DataFrame(out, columns=["experiment", "wall_time_s", "games", "of", "n_jobs"]) \
        .drop_duplicates("experiment", keep="last")


def compute_text(m: pd.DataFrame) -> str:
    """What is stored and what the run took, in one or two sentences."""
    short = m[m["games"] < m["of"]]
    jobs = sorted({int(j) for j in m["n_jobs"].dropna()})
    text = (f"Every experiment has all its games ({int(m['games'].sum()):,})." if short.empty
            else f"{len(short)} of {len(m)} experiments are not complete yet "
                 f"({int(short['games'].sum()):,} of {int(short['of'].sum()):,} games stored); "
                 "`gameai run crossgame` computes the rest.")
    return text + (f" Recorded wall time {m['wall_time_s'].sum() / 3600:,.1f} hours"
                   + (f" with {' or '.join(map(str, jobs))} parallel job(s)." if jobs else "."))


def found_split(sweep_rows: pd.DataFrame, params) -> str:
    if sweep_rows.empty:
        return "*not computed in this run*."
    best = best_det_counts(sweep_rows)
    ks = pd.Series(best)
    return (f"the best number of determinizations was one tree in {int((ks == 1).sum())} of "
            f"{len(ks)} game-and-budget cells and 20 or more in {int((ks >= 20).sum())} "
            "(chosen on deals of its own).")


def found_claim(claims: pd.DataFrame) -> str:
    if claims.empty:
        return "*not computed in this run*."
    names = {c: SETTINGS[c.split(".")[0]].label for c in claims["claim"]}
    parts = []
    for verdict, words in (("holds", "holds"), ("fails", "fails"), ("undecided", "is undecided"),
                           ("pending", "is not computed yet")):
        hit = [names[c] for c, v in zip(claims["claim"], claims["verdict"]) if v == verdict]
        if hit:  # the games' names hold commas ("Durak, 2 players"): semicolons between them
            parts.append(f"{words} in {'; '.join(hit)}")
    return ("the claim that SO-ISMCTS is not worse than the best-split determinized UCT by more "
            "than 3 points at every budget " + "; it ".join(parts) + ".")


def found_exploration(table: pd.DataFrame | None, params) -> str:
    if table is None:
        return "*not computed in this run*."
    pairs = table.groupby(["game", "player"]).ngroups
    better, worse = table[table["beats_reference"]], table[table["loses_to_reference"]]
    at = (f"at {params['exploration_budget']:,} iterations and {int(table['n'].min()):,} games "
          "per cell")
    if len(better):
        top = better.loc[better["vs_reference"].idxmax()]
        text = (f"{at}, another constant significantly beats {EXPLORATION:g} in "
                f"{better.groupby(['game', 'player']).ngroups} of {pairs} game-and-search pairs "
                f"(most: {SETTINGS[top['game']].label}, {NAMES[top['player']]}, "
                f"c = {top['exploration']:g}, {_pp(top['vs_reference'])} points)")
    else:
        text = (f"{at}, no other constant significantly beats {EXPLORATION:g} in any of the "
                f"{pairs} game-and-search pairs")
    if len(worse):
        text += "; " + ", ".join(sorted({f"c = {c:g}" for c in worse["exploration"]})) + (
            f" plays significantly worse in {worse.groupby(['game', 'player']).ngroups}")
    return text + "."


def found_effects(nonlocality: pd.DataFrame, fusion: pd.DataFrame) -> str:
    """The "what we found" line of the two effects Cowling et al. name: in how many games the
    opponents' moves single out the true deal (:func:`nonlocality_text`) and in how many
    determinized UCT's plans depend on the deal beyond noise (:func:`fusion_text`), each with
    its largest case."""
    parts = []
    if len(nonlocality):
        some = nonlocality[nonlocality["gap_low"] > 0].sort_values("gap", ascending=False)
        text = (f"the opponents' moves speak against many of the deals a determinization draws "
                f"in {len(some)} of {len(nonlocality)} games")
        if len(some):
            top = some.iloc[0]
            text += (f" (most in {SETTINGS[top['game']].label}: its move in "
                     f"{pct(top['p_uniform'])} of the drawn deals, {pct(top['p_true'])} in the "
                     "true one)")
        parts.append(text)
    compared = fusion.dropna(subset=["fusion"]) if len(fusion) else fusion
    if len(compared):
        clear = compared[compared["fusion_low"] > 0].sort_values("fusion", ascending=False)
        text = (f"determinized UCT's trees plan the searcher's next move by the unseen deal, "
                f"beyond their noise, in {len(clear)} of the {len(compared)} games where plans "
                "of both kinds met")
        if len(clear):
            top = clear.iloc[0]
            text += (f" (most in {SETTINGS[top['game']].label}: {points(top['fusion'])}, "
                     f"{points_range(top['fusion_low'], top['fusion_high'])})")
        parts.append(text)
    if not parts:
        return "*not computed in this run*."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def draw_share(rows: pd.DataFrame) -> str:
    """The share of the main study's Durak games that ended in a draw (or were abandoned), as
    the book writes it: the only games where the searches' reward (a draw counts 1/2) and the
    chapter's measure (the fool rate: a draw has no fool) can disagree."""
    durak = rows[rows["game"].isin(["durak2", "durak4"])] if "draw" in rows else rows.iloc[:0]
    if durak.empty:
        return "none of this run's games"
    return f"{pct(float(durak['draw'].mean()))} of the {len(durak):,} Durak games"


def one_line(claims: pd.DataFrame, diffs: pd.DataFrame | None = None) -> str:
    """The chapter's verdict in one sentence, from its claims (``read_claims``): in how many of
    the settings Cowling et al.'s (2012) claim - SO-ISMCTS plays at least as well as determinized
    UCT - holds, fails or is undecided against the best-split rival; then, from the budgets'
    verdicts (:func:`differences`), how many of the budgets judged read each way, with their
    range of iterations and games. Plain text."""
    if claims.empty:
        return ("Cowling et al.'s (2012) claim that SO-ISMCTS plays at least as well as "
                "determinized UCT is not tested in this build.")
    names = {c: SETTINGS[c.split(".")[0]].label for c in claims["claim"]}
    counts = []
    for verdict, words in (("holds", "holds in"), ("fails", "fails in"), ("undecided", "is undecided in"),
                           ("pending", "is not computed for")):
        hit = [names[c] for c, v in zip(claims["claim"], claims["verdict"]) if v == verdict]
        if hit:
            counts.append(f"{words} {len(hit)} ({', '.join(hit)})" if len(hit) < len(claims)
                          else f"{words} all {len(hit)}")
    text = (f"Cowling et al.'s (2012) finding that SO-ISMCTS plays at least as well as determinized "
            f"UCT, tested as 'not worse by more than 3 points at every budget' against the rival's "
            f"best number of determinizations in {len(claims)} game settings, {and_list(counts)}.")
    judged = diffs[diffs["rival"] == TUNED] if diffs is not None and len(diffs) else None
    if judged is None or judged.empty:
        return text
    tally = judged["verdict"].value_counts()
    parts = [f"{words} at {int(tally[v])}" for v, words in (
        (V.BETTER, "better"), (V.EQUIVALENT, "equivalent within 3 points"),
        (V.NOT_WORSE, "not worse by more than 3 points"), (V.WORSE, "worse")) if tally.get(v, 0)]
    budgets, games = judged["budget"], judged["n"]
    text += (f" Of the {len(judged)} game-and-budget cells judged ({budgets.min():,} to "
             f"{budgets.max():,} iterations, {_span(games.min(), games.max())} games each), ")
    undecided = int(tally.get(V.UNDECIDED, 0))
    if parts:
        text += f"ISMCTS is {and_list(parts)}" + (
            f"; {undecided} {'is' if undecided == 1 else 'are'} undecided at the games played"
            if undecided else "")
    else:
        text += "all are undecided at the games played"
    return text + "."


def _span(lo: int, hi: int) -> str:
    """"500 to 1,000", or "500" when both are the same."""
    return f"{int(lo):,}" if lo == hi else f"{int(lo):,} to {int(hi):,}"


# ------------------------------------------------------------------ the figures' data, tidy
def _tidy_rates(cells: pd.DataFrame, series, x_name: str, x_col: str) -> pd.DataFrame:
    """Rates as a figure's CSV holds them: the game's panel title, the series as in the legend,
    the x in its unit, the measure in words, the value and its Wilson 95 % interval in %, n."""
    return pd.DataFrame({
        "panel": [SETTINGS[g].label for g in cells["game"]],
        "series": list(series),
        x_name: cells[x_col].to_numpy() if x_col else np.nan,
        "measure": [MEASURE_WORDS[HEADLINE[g]] for g in cells["game"]],
        "value (%)": (100 * cells["rate"]).round(4).to_numpy(),
        "ci_low (%)": (100 * cells["ci_low"]).round(4).to_numpy(),
        "ci_high (%)": (100 * cells["ci_high"]).round(4).to_numpy(),
        "n": cells["n"].astype(int).to_numpy()})


def strength_data(table: pd.DataFrame, games) -> pd.DataFrame:
    """The data of :func:`strength_figure`: each player's rate per game and budget, and the
    baseline in the seat (no budget: the dashed line and its band)."""
    t = table[table["game"].isin(list(games))]
    base, rest = t[t["player"] == "baseline"], t[t["player"] != "baseline"]
    return pd.concat([_tidy_rates(rest, rest["player"].map(NAMES), "iterations per decision", "budget"),
                      _tidy_rates(base, ["baseline in the seat"] * len(base), "iterations per decision",
                                  "")], ignore_index=True)


def sweep_data(sweep: pd.DataFrame, games) -> pd.DataFrame:
    """The data of :func:`sweep_figure`: determinized UCT's rate per number of determinizations,
    one series per budget, with the ringed best of each budget marked."""
    s = sweep[sweep["game"].isin(list(games))]
    out = _tidy_rates(s, [f"{b:,} iterations" for b in s["budget"]], "determinizations", "n_det")
    return out.assign(**{"best of its budget": s["best"].to_numpy()})


def differences_data(diffs: pd.DataFrame, games) -> pd.DataFrame:
    """The data of :func:`differences_figure`: SO-ISMCTS minus each rival in points, with the
    95 % interval, per game and budget, and the verdict at that budget."""
    d = diffs[diffs["game"].isin(list(games))]
    return pd.DataFrame({
        "panel": [SETTINGS[g].label for g in d["game"]],
        "series": [f"ISMCTS − {NAMES[r]}" for r in d["rival"]],
        "iterations per decision": d["budget"].to_numpy(),
        "difference (points)": (100 * d["diff"]).round(4).to_numpy(),
        "ci_low (points)": (100 * d["low"]).round(4).to_numpy(),
        "ci_high (points)": (100 * d["high"]).round(4).to_numpy(),
        "n": d["n"].astype(int).to_numpy(), "verdict": d["verdict"].to_numpy()})


def exploration_data(table: pd.DataFrame, games) -> pd.DataFrame:
    """The data of :func:`exploration_figure`: each search's rate per UCB1 constant, and whether
    it beats or loses to the study's constant on the same deals (Holm)."""
    t = table[table["game"].isin(list(games))]
    out = _tidy_rates(t, t["player"].map(NAMES), "UCB1 constant c", "exploration")
    return out.assign(**{f"beats c = {EXPLORATION:g}": t["beats_reference"].to_numpy(),
                         f"loses to c = {EXPLORATION:g}": t["loses_to_reference"].to_numpy()})
