"""Table III against the authors' own games: cell-by-cell tests, the judged grid, and where the
long-budget shortfall lies (Gedda, Lagerkvist & Butler 2018, Table III).

The authors published every game behind their Table III (``paper.authors_games``: 170 cells of
200 games, copied from the files their table scripts load). With both studies' games at hand
each cell can be judged game by game - a Welch two-sample test of our games against theirs,
with a rank test (Mann-Whitney) as a check that does not lean on normal margins - beside the
claims' rule, which knows only the printed mean. And the margin (own score - best opponent's)
can be split into its two sides, to say whether a difference from the authors lies in our
player's score or in its opponents'. Each function here gives one table or one set of numbers
of the chapter; the notebook only formats them.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..book.display import NONE_CELL
from ..core.claims import verdict_count
from ..core.numbers import and_list, ci_range, number, pct, with_ci
from ..core.stats import bh_reject, common_shift, holm_reject
from . import analysis, paper
from .analysis import table3
from .chapter import BEYOND_T, EXPERIMENTS, SHORT_T

#: A cell's game-level verdict: the Welch test at this level.
ALPHA = 0.05


def _cells(ours: pd.DataFrame, time_scale: float) -> pd.DataFrame:
    """Our game rows with the paper's T (a run's T divided by its ``time_scale``), the player's
    own score and its best opponent's."""
    return ours.assign(T=(ours["T"] / time_scale).round(6), own=ours["score0"],
                       best=ours[["score1", "score2", "score3"]].max(axis=1))


def _theirs(authors: pd.DataFrame) -> pd.DataFrame:
    return authors.assign(own=authors["score"], margin=authors["score_diff"],
                          best=authors[["opp1", "opp2", "opp3"]].max(axis=1))


def _pairs(ours: pd.DataFrame, authors: pd.DataFrame, time_scale: float):
    """``(strategy, T, our games, their games)`` for every cell both hold, in Table III's
    order (strategies as the paper lists them, then T)."""
    o = dict(tuple(_cells(ours, time_scale).groupby(["seat0", "T"])))
    a = dict(tuple(_theirs(authors).groupby(["strategy", "T"])))
    order = {s: i for i, s in enumerate(paper.TABLE3)}
    for key in sorted(a, key=lambda k: (order.get(k[0], len(order)), float(k[1]))):
        if key in o:
            yield key[0], float(key[1]), o[key], a[key]


def game_tests(ours: pd.DataFrame, authors: pd.DataFrame, time_scale: float = 1.0) -> pd.DataFrame:
    """Every Table III cell judged on both studies' games (paper Table III; ``ours``: game rows,
    the like-for-like ``table3authors_T*`` or our rule's ``table3_T*``; ``authors``:
    ``paper.authors_games``): our mean margin minus theirs (``delta``) with a Welch 95 % CI, the Welch
    two-sample t-test's p-value and the Mann-Whitney rank test's (two-sided), and the Welch
    verdict at 5 % (``welch``: "differs" or "agrees"). A cell with fewer than two games on a
    side has NaN p-values and no verdict."""
    from scipy import stats

    rows = []
    for s, T, mine, theirs in _pairs(ours, authors, time_scale):
        x, y = mine["margin"].to_numpy(float), theirs["margin"].to_numpy(float)
        d = float(x.mean() - y.mean())
        row = {"strategy": s, "T": T, "n": len(x), "n_authors": len(y), "ours": float(x.mean()),
               "theirs": float(y.mean()), "delta": d, "lo": math.nan, "hi": math.nan,
               "p_welch": math.nan, "p_rank": math.nan, "welch": ""}
        if len(x) >= 2 and len(y) >= 2:
            se = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
            row.update(lo=d - 1.96 * se, hi=d + 1.96 * se)
            if se > 0:
                row["p_welch"] = float(stats.ttest_ind(x, y, equal_var=False).pvalue)
                row["p_rank"] = float(stats.mannwhitneyu(x, y, alternative="two-sided").pvalue)
                row["welch"] = "differs" if row["p_welch"] < ALPHA else "agrees"
        rows.append(row)
    cols = ["strategy", "T", "n", "n_authors", "ours", "theirs", "delta", "lo", "hi", "p_welch",
            "p_rank", "welch"]
    return pd.DataFrame(rows, columns=cols)


def game_test_note(row) -> str:
    """A claim note's sentence for one cell of :func:`game_tests`: both studies' games, the two
    tests and the Welch verdict; FG's authors' games are one file for every budget."""
    if not row.welch:
        return ""
    theirs = (f"the authors' {int(row.n_authors)}, one file of FG games for every budget"
              if row.strategy == "FG" else f"the authors' {int(row.n_authors)}")
    return (f"On both studies' games (our {int(row.n)} like for like against {theirs}): ours "
            f"minus theirs {number(row.delta, 1, signed=True)} points, Welch p = {row.p_welch:.2g}, "
            f"rank test p = {row.p_rank:.2g}: {row.welch} at 5 %")


def game_test_counts(tests: pd.DataFrame) -> dict:
    """How many cells of :func:`game_tests` the Welch test and the rank test call different at
    5 %, how many chance alone would (5 % of the cells tested), and how many Welch differences
    remain after Holm's and Benjamini-Hochberg's corrections."""
    t = tests.dropna(subset=["p_welch"])
    p = t["p_welch"].tolist()
    return {"cells": len(t), "welch": int((t["p_welch"] < ALPHA).sum()),
            "rank": int((t["p_rank"] < ALPHA).sum()),
            "both": int(((t["p_welch"] < ALPHA) & (t["p_rank"] < ALPHA)).sum()),
            "by_chance": ALPHA * len(t), "holm": sum(holm_reject(p, ALPHA)),
            "bh": sum(bh_reject(p, ALPHA))}


# ----------------------------------------------------------------------------- the shortfall


def own_score_slope(ours: pd.DataFrame, authors: pd.DataFrame, time_scale: float = 1.0) -> float:
    """How many points the best opponent's score moves per point of the player's own score,
    within cells (both studies' games, each cell centred on its own means): the four players
    share one draft, so a player who scores more leaves its opponents less. Used to compare
    the opponents' scores at equal player scores."""
    sxy = sxx = 0.0
    for _, _, mine, theirs in _pairs(ours, authors, time_scale):
        for g in (mine, theirs):
            x, y = g["own"] - g["own"].mean(), g["best"] - g["best"].mean()
            sxy, sxx = sxy + float((x * y).sum()), sxx + float((x * x).sum())
    return sxy / sxx if sxx else 0.0


def score_sides_cells(ours: pd.DataFrame, authors: pd.DataFrame,
                      time_scale: float = 1.0) -> pd.DataFrame:
    """Cell by cell (paper Table III), ours minus the authors' games on each side of the margin:
    the player's own score (``own``), its best opponent's (``best``), and the best opponent's at
    equal player scores (``best_adj`` = best - slope x own, the slope from
    :func:`own_score_slope`), each with its standard error (independent games)."""
    slope = own_score_slope(ours, authors, time_scale)
    rows = []
    for s, T, mine, theirs in _pairs(ours, authors, time_scale):
        row = {"strategy": s, "T": T, "n": len(mine)}
        for side in ("own", "best", "margin"):
            x, y = mine[side], theirs[side]
            row[side] = float(x.mean() - y.mean())
            row[f"{side}_se"] = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y)) \
                if len(x) > 1 and len(y) > 1 else math.nan
        adj_x, adj_y = mine["best"] - slope * mine["own"], theirs["best"] - slope * theirs["own"]
        row["best_adj"] = float(adj_x.mean() - adj_y.mean())
        row["best_adj_se"] = math.sqrt(adj_x.var(ddof=1) / len(adj_x) + adj_y.var(ddof=1) / len(adj_y)) \
            if len(adj_x) > 1 and len(adj_y) > 1 else math.nan
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs["slope"] = slope
    return out


def _band(T: float, short_T: float) -> str:
    return f"up to {short_T:g} s" if T <= short_T else f"above {short_T:g} s"


SHORTFALL_COLUMNS = ["side", "short", "short_lo", "short_hi", "long", "long_lo", "long_hi", "cells",
                     "change", "change_lo", "change_hi", "p_scatter"]


def shortfall(sides: pd.DataFrame, short_T: float = SHORT_T) -> pd.DataFrame:
    """Where a setting's difference from the authors' games lies, by budget band: for each side
    of :func:`score_sides_cells` (the searching strategies' cells; FG's ten cells share one file
    of the authors' and would count it ten times), the inverse-variance weighted mean over the
    cells of each band with its 95 % CI, the change from the short band to the long one with
    its 95 % CI, and whether the cells of each band scatter around their band's mean more than
    chance (``p_scatter``: :func:`gameai.core.stats.common_shift`, strategies differing from
    one another when below 5 %)."""
    rows = []
    for side in ("own", "best", "best_adj", "margin"):
        s = sides[(sides["strategy"] != "FG") & (sides[f"{side}_se"] > 0)]  # NaN, 0: no spread
        if s.empty:
            continue
        test = common_shift(s[side], s[f"{side}_se"], [_band(T, short_T) for T in s["T"]])
        (m1, lo1, hi1, n1), (m2, lo2, hi2, n2) = (
            test["shifts"].get(_band(0, short_T), (math.nan,) * 3 + (0,)),
            test["shifts"].get(_band(math.inf, short_T), (math.nan,) * 3 + (0,)))
        se = math.hypot((hi1 - lo1) / (2 * 1.96), (hi2 - lo2) / (2 * 1.96))
        rows.append({"side": side, "short": m1, "short_lo": lo1, "short_hi": hi1,
                     "long": m2, "long_lo": lo2, "long_hi": hi2, "cells": n1 + n2,
                     "change": m2 - m1, "change_lo": m2 - m1 - 1.96 * se,
                     "change_hi": m2 - m1 + 1.96 * se, "p_scatter": test["p"]})
    return pd.DataFrame(rows, columns=SHORTFALL_COLUMNS)


def _clear(lo: float, hi: float) -> bool:
    return lo > 0 or hi < 0


def change_side(t: pd.DataFrame) -> str:
    """On which side of the margin a setting's change from short to long budgets lies
    (:func:`shortfall` rows): a side counts when the 95 % CI of its change leaves out 0 (the
    opponents' side at equal player scores)."""
    own, best = (t.set_index("side").loc[k] for k in ("own", "best_adj"))
    o, b = _clear(own.change_lo, own.change_hi), _clear(best.change_lo, best.change_hi)
    return {(True, False): "in our player's own score", (False, True): "in the opponents' scores",
            (True, True): "on both sides"}.get((o, b), "on neither side clearly")


def opponents_reading(t: pd.DataFrame, short_T: float = SHORT_T) -> str:
    """What a setting's :func:`shortfall` says of the opponents, at equal player scores, in
    words that follow from its intervals: whether ours outscore the authors' in each band, and
    whether that excess changes with the budget."""
    b = t.set_index("side").loc["best_adj"]
    more = [b.short_lo > 0, b.long_lo > 0]
    less = [b.short_hi < 0, b.long_hi < 0]
    if all(more) or all(less):
        word = "more" if all(more) else "less"
        if not _clear(b.change_lo, b.change_hi):
            return f"our opponents score {word} than the authors' by about the same at every budget"
        return (f"our opponents score {word} than the authors' at every budget, "
                f"{'more' if b.change > 0 else 'less'} so above {short_T:g} s")
    return "our opponents' scores do not differ from the authors' clearly at every budget"


def shortfall_sentence(lfl: pd.DataFrame, rule: pd.DataFrame, short_T: float = SHORT_T) -> str:
    """What :func:`shortfall` says, in words that follow from its intervals: the opponents'
    excess at equal player scores in each setting and whether it changes with the budget, then
    which side the change of the margin from short to long budgets lies on."""
    if any(set(t["side"]) != {"own", "best", "best_adj", "margin"} for t in (lfl, rule)):
        return ""  # a side without games of both studies in both bands

    def side(t, name):
        return t.set_index("side").loc[name]

    def ci(lo, hi):
        return ci_range(lo, hi, percent=False, signed=True)

    parts = []
    for label, t in (("like for like (FG* opponents)", lfl), ("under our rule (our FG)", rule)):
        b = side(t, "best_adj")
        change = ("no clear change with the budget" if not _clear(b.change_lo, b.change_hi) else
                  f"a change of {number(b.change, 1, signed=True)} from short to long budgets")
        parts.append(f"{label}, our player's best opponent scores {number(b.short, 1, signed=True)} "
                     f"points against the authors' at equal player scores up to {short_T:g} s "
                     f"({ci(b.short_lo, b.short_hi)}) and {number(b.long, 1, signed=True)} above "
                     f"({ci(b.long_lo, b.long_hi)}): {change}")
    own = side(lfl, "own")
    where = change_side(lfl)
    return ("; ".join(parts) + f". Like for like, {opponents_reading(lfl, short_T)}; the change "
            f"of the margin from short to long budgets lies {where}: our player's own score "
            f"minus the authors' is {number(own.short, 1, signed=True)} points up to "
            f"{short_T:g} s ({ci(own.short_lo, own.short_hi)}) and "
            f"{number(own.long, 1, signed=True)} above ({ci(own.long_lo, own.long_hi)})")


def shortfall_table(lfl: pd.DataFrame, rule: pd.DataFrame,
                    short_T: float = SHORT_T) -> pd.DataFrame:
    """The two settings' :func:`shortfall` as one table for the chapter: per setting and side,
    ours minus the authors' games up to ``short_T`` and above it, and the change (points, 95 %
    CIs), and whether the strategies' cells scatter more than chance around their band's mean."""
    names = {"own": "player's own score", "best": "best opponent's score",
             "best_adj": "best opponent's, at equal player scores", "margin": "victory margin"}

    def fmt(m, lo, hi):
        return f"{number(m, 1, signed=True)} ({ci_range(lo, hi, percent=False, signed=True)})"

    rows = []
    for label, t in (("like for like", lfl), ("our rule", rule)):
        for r in t.itertuples():
            rows.append({"setting": label, "side": names[r.side],
                         f"up to {short_T:g} s": fmt(r.short, r.short_lo, r.short_hi),
                         f"above {short_T:g} s": fmt(r.long, r.long_lo, r.long_hi),
                         "change": fmt(r.change, r.change_lo, r.change_hi),
                         "strategies differ": "yes" if r.p_scatter < ALPHA else "no"})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- the judged grid


def _or_empty(t: pd.DataFrame | None) -> pd.DataFrame:
    cols = ["strategy", "T", "n", "margin", "paper_compare", "diff"]
    return pd.DataFrame(columns=cols) if t is None else t


def judged_grid(lfl_t: pd.DataFrame, rule_t: pd.DataFrame, games: int) -> pd.DataFrame:
    """Table III as the claims judge it: each cell's like-for-like mean margin (bold), the
    paper's value in brackets, our rule's value beneath (small), and the games where fewer than
    ``games``; strategies as rows in the paper's order, budgets as columns. ``lfl_t`` and
    ``rule_t`` are :func:`analysis.table3` rows (None: no games). An empty cell has no games in
    either setting."""
    lfl_t, rule_t = (_or_empty(t) for t in (lfl_t, rule_t))
    order = [s for s in paper.TABLE3 if s in set(lfl_t["strategy"]) | set(rule_t["strategy"])]
    Ts = sorted(set(lfl_t["T"]) | set(rule_t["T"]))
    lfl, rule = (t.set_index(["strategy", "T"]) for t in (lfl_t, rule_t))

    def cell(s, T):
        a = lfl.loc[(s, T)] if (s, T) in lfl.index else None
        r = rule.loc[(s, T)] if (s, T) in rule.index else None
        if a is None and r is None:
            return ""
        top = a if a is not None else r
        head = ("<b>" + number(a.margin, 1, signed=True) + "</b>") if a is not None else "–"
        text = f"{head}<br><small>({number(top.paper_compare, 1, signed=True)})</small>"
        if a is not None and a.n < games:
            text += f"<br><small>n={int(a.n)}</small>"
        if r is not None:
            text += f"<br><small><i>rule {number(r.margin, 1, signed=True)}</i></small>"
        return text

    return pd.DataFrame([[cell(s, T) for T in Ts] for s in order], index=order,
                        columns=[f"{T:g} s" for T in Ts])


def grid_colours(lfl_t: pd.DataFrame, grid: pd.DataFrame) -> pd.DataFrame:
    """The judged grid's colours: like for like minus the paper, blue where ours is higher, red
    where lower, full colour at 10 points (CSS per cell, for a pandas Styler)."""
    diff = _or_empty(lfl_t).pivot(index="strategy", columns="T", values="diff")
    diff.columns = [f"{T:g} s" for T in diff.columns]
    diff = diff.reindex(index=grid.index, columns=grid.columns)

    def shade(v):
        if pd.isna(v):
            return ""
        a = min(abs(v) / 10, 1) * 0.55
        rgb = "33, 102, 172" if v > 0 else "178, 24, 43"
        return f"background-color: rgba({rgb}, {a:.2f})"

    return diff.map(shade)


def best_per_budget(lfl_t: pd.DataFrame) -> pd.DataFrame:
    """The best strategy at each budget on the values the claims judge (like for like), beside
    the paper's best there: ``T``, ``strategy``, ``margin``, ``paper_best``, ``paper_margin``
    (paper Table III; UCT_B at 10 s compared at the authors' raw values)."""
    rows = []
    for T, g in lfl_t.dropna(subset=["margin"]).groupby("T"):
        best = g.loc[g["margin"].idxmax()]
        col = paper.TABLE3_T.index(T) if T in paper.TABLE3_T else None
        theirs = {s: (paper.TABLE3_UCT_B_10S_RAW.get(s, v[col]) if T == 10 else v[col])
                  for s, v in paper.TABLE3.items()} if col is not None else {}
        pb = max(theirs, key=theirs.get) if theirs else None
        rows.append({"T": T, "strategy": best["strategy"], "margin": float(best["margin"]),
                     "paper_best": pb, "paper_margin": theirs.get(pb, math.nan)})
    return pd.DataFrame(rows, columns=["T", "strategy", "margin", "paper_best", "paper_margin"])


def grid_frames(res, time_scale: float = 1.0):
    """The two Table III settings as :func:`analysis.table3` rows: like for like (judged) and
    our rule; None for a setting without games."""
    from .analysis import table3_frame

    lfl, rule = table3_frame(res, "table3authors_T"), table3_frame(res)
    return (None if lfl is None else table3(lfl, time_scale),
            None if rule is None else table3(rule, time_scale))


# ----------------------------------------------------------------------------- the family


def _table3_band(claim: str, short_T: float = SHORT_T) -> str | None:
    """A Table III claim's budget band for the offset test; None for the pooled FG claim, which
    repeats FG's ten cells."""
    parts = claim.split(".", 2)
    if len(parts) < 3 or parts[2] == "pooled":
        return None
    return _band(float(parts[2]), short_T)


#: Table III's FG row pooled over its budgets: a claim of the family, not one of its cells.
FG_POOLED = "table3.FG.pooled"


def _table3_cells(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims of Table III's 170 cells (every count of the table's cells leaves out FG's
    pooled row)."""
    return claims[claims["claim"].str.startswith("table3.") & (claims["claim"] != FG_POOLED)]


def table3_family(claims: pd.DataFrame) -> str | None:
    """Table III's cells judged as a family (paper Table III): how many differ, how many chance
    alone would give, and how many after Holm's and Benjamini-Hochberg's corrections
    (:func:`gameai.core.claims.family_sentence`); None with fewer than ten judged cells."""
    from ..core.claims import family_counts, family_sentence

    counts = family_counts(_table3_cells(claims))
    return None if counts.empty else family_sentence(counts.iloc[0])


def table3_offset(claims: pd.DataFrame, res) -> str:
    """Offset against scatter over Table III's judged cells (paper Table III), in words that
    follow from the test: one shift per budget band (up to and above ``chapter.SHORT_T``) and
    whether the rest is chance, then what one shift for the whole table leaves; and FG's margin
    in each setting, named (it ignores the budget, so its ten cells pool)."""
    from ..core.claims import ALPHA as LEVEL, family_offset, offset_sentence

    bands = family_offset(claims, "table3", _table3_band)
    one = family_offset(claims, "table3", lambda c: None if _table3_band(c) is None else "all")
    if bands is None or one is None:
        return "*too few judged cells with a spread for the offset test*"
    mu, lo, hi, _ = one["shifts"]["all"]
    cells = claims[claims["claim"].str.startswith("table3.")]  # the readings' notes say it too
    lfl = cells["note"].fillna("").str.contains(analysis.LIKE_FOR_LIKE_NOTE, regex=False).any()
    what = "our like-for-like values" if lfl else "our values"
    text = (offset_sentence(bands, what) + ". One shift for the whole table ("
            f"{number(mu, 1, signed=True)}, 95 % CI {ci_range(lo, hi, percent=False, signed=True)}) "
            "leaves the cells scattering " + ("as" if one["p"] >= LEVEL else "more than")
            + " chance predicts ("
            + (f"p = {one['p']:.2g}" if one["p"] >= 0.001 else "p < 0.001") + ")")
    from .analysis import table3_frame

    fg = []
    for label, key in (("against three FG* (like for like)", "table3authors_T"),
                       ("against three of our FG (our rule)", "table3_T")):
        g = table3_frame(res, key)
        g = None if g is None else g.loc[g["seat0"] == "FG", "margin"]
        if g is not None and len(g):
            fg.append(f"{number(g.mean(), 1, signed=True)} {label} over {len(g):,} games")
    if fg:
        text += (". FG, which ignores the budget, scores a margin of " + " and ".join(fg)
                 + f" (paper {number(paper.TABLE3['FG'][0], 1, signed=True)})")
    return text


# ----------------------------------------------------------------------------- compute table

#: Readable names of the chapter's stored experiments (the compute table names each).
EXPERIMENT_LABELS = {
    "branching": "§II-B and Fig. 2: branching factors",
    "table1": "Table I: greedy players against random ones",
    "table2": "Table II: scoring functions",
    "fg_quirk": "Check of the authors' FG (last domino at random)",
    "fig7_C": "Fig. 7: UCT's exploration constant",
    "fig8_W": "Fig. 8: progressive win bias weight",
    "budget_check": "Budget check (fractions of 0.1 s)",
    "beyond_10x": "Beyond the paper: 100 s per ply",
    "greedy_self_play": "Each greedy against three of its own kind",
    "greedy_check": "Like-for-like cells with the authors' greedy in full",
}


def experiment_label(name: str) -> str:
    """A stored experiment's name for readers: ``table3_T0p5`` -> "Table III, our rule, 0.5 s",
    ``table3authors_T0p5`` -> "Table III like for like, 0.5 s", others from
    :data:`EXPERIMENT_LABELS` (else the name itself)."""
    for prefix, label in (("table3authors_T", "Table III like for like"),
                          ("table3_T", "Table III, our rule")):
        if name.startswith(prefix):
            return f"{label}, {name[len(prefix):].replace('p', '.')} s"
    return EXPERIMENT_LABELS.get(name, name)


def rule_and_games(tests: pd.DataFrame, claims: pd.DataFrame) -> dict:
    """How the claims' rule (printed means, the paper's spread estimated from ours) and the
    Welch test on both studies' games (:func:`game_tests`) judge the same Table III cells:
    how many cells both tested, on how many they agree (differs or not), and the range of the
    Welch p-values where they part (paper Table III)."""
    verdict = claims.set_index("claim")["verdict"]
    t = tests.dropna(subset=["p_welch"])
    ids = [f"table3.{s}.{T:g}" for s, T in zip(t["strategy"], t["T"])]
    rule = np.array([verdict.get(c) == "differs" for c in ids], dtype=bool)
    games = (t["welch"] == "differs").to_numpy()
    part = t["p_welch"].to_numpy()[rule != games]
    return {"cells": len(t), "agree": int((rule == games).sum()),
            "p_min": float(part.min()) if part.size else math.nan,
            "p_max": float(part.max()) if part.size else math.nan}


# ============================================================================ the chapter's page
# One function per table (DataFrame), figure (a Figure drawn from a tidy frame, which is also its
# CSV) or glued text (str) of book/kingdomino.ipynb; the notebook only shows what they return.
# A text whose numbers are not computed in the run is NOT_RUN, or empty where its paragraph is
# left out; :func:`missing_sentence` says once what is missing and which command computes it.

#: A glued text whose numbers this run did not compute.
NOT_RUN = "*not computed in this run*"
NBSP = "\u00a0"


def _signed(v: float) -> str:
    return number(v, signed=True)


def _ci(lo: float, hi: float, **kw) -> str:
    return ci_range(lo, hi, percent=False, **kw)


def _row(claims: pd.DataFrame, cid: str):
    return claims.set_index("claim").loc[cid]


def _computed(row) -> bool:
    return row["verdict"] != "pending"


#: The chapter's experiment groups (``-p experiments``) by the stored results they fill.
GROUP_KEYS = {"branching": ("branching",), "table1": ("table1",), "table2": ("table2",),
              "fg_quirk": ("fg_quirk",), "budget_check": ("budget_check",), "fig7": ("fig7",),
              "fig8": ("fig8",), "beyond": ("beyond",),
              "authors_greedy": ("greedy_self_play", "greedy_check")}
#: The groups in words, for :func:`missing_sentence`.
GROUP_WORDS = {"branching": "the branching factors (§II-B)", "table1": "Table I",
               "table3_short": "the paper's Table III up to 2 s under our rule",
               "budget_check": "the budget check", "table2": "Table II",
               "fg_quirk": "the check of the authors' FG", "fig7": "Fig. 7", "fig8": "Fig. 8",
               "table3_long": "the paper's Table III above 2 s under our rule",
               "beyond": "the games beyond the paper",
               "table3_authors": "the like-for-like Table III",
               "authors_greedy": "the authors'-greedy check"}


def _group_has_games(res, group: str) -> bool:
    if group in GROUP_KEYS:
        return any(res[k] is not None for k in GROUP_KEYS[group])
    prefix = "table3authors_T" if group == "table3_authors" else "table3_T"
    keys = [k for k, df in res.frames.items() if k.startswith(prefix) and df is not None]
    if group == "table3_authors":
        return bool(keys)
    Ts = [float(k[len(prefix):].replace("p", ".")) for k in keys]
    return any((T > SHORT_T) == (group == "table3_long") for T in Ts)


def missing_groups(res, groups) -> list[str]:
    """The experiment groups of ``groups`` (chapter.EXPERIMENTS) without any games in ``res``."""
    return [g for g in groups if not _group_has_games(res, g)]


def missing_sentence(res, groups) -> str:
    """One sentence: which experiments this run has no games for, and the command that
    computes them; empty when none is missing."""
    gone = missing_groups(res, groups)
    if not gone:
        return ""
    words = [GROUP_WORDS.get(g, g) for g in gone]
    listed = and_list(words)
    return (f"This run has no games for {listed}, so the text leaves out what needs them; "
            f"`gameai rerun kingdomino -p experiments {','.join(gone)}` computes them.")


# ----------------------------------------------------------------------------- one line


def one_line(claims: pd.DataFrame) -> str:
    """The chapter's replication verdict in one sentence, from its claims
    (``gameai.core.claims.read_claims``): how many of the paper's judged numbers reproduce, are
    within both studies' sampling error or differ, why the differing ones differ (a clause per
    measured cause: the game-tree count, the authors' FG, Table III against chance), and how
    many of the paper's readings in words hold. Plain text, no links."""
    v = claims["verdict"].value_counts()
    judged = int(sum(v.get(k, 0) for k in ("reproduced", "consistent", "differs")))
    if not judged:
        return "No number of the paper is judged in this run yet."
    text = (f"Of the paper's {judged} judged numbers, {int(v.get('reproduced', 0))} reproduce and "
            f"{int(v.get('consistent', 0))} more lie within both studies' sampling error")
    differ = claims[claims["verdict"] == "differs"]
    if len(differ):
        text += f"; {len(differ)} differ" + _differ_reasons(claims, differ)
    w = statements(claims)["verdict"].value_counts()
    words = sum(int(w.get(v, 0)) for v in ("holds", "fails", "undecided"))
    if words:
        tally = and_list([verdict_count(int(w[v]), v) if v != "undecided" else
                          f"{int(w[v])} {'is' if int(w[v]) == 1 else 'are'} undecided"
                          for v in ("holds", "fails", "undecided") if w.get(v, 0)])
        text += (f"{' —' if len(differ) else ';'} and of its {words} statements in words tested "
                 f"here, {tally}")
    return text + "."


def statements(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims that test the paper's statements in words: its readings of its own tables
    (``paper.READINGS``) and its conclusions and sweep readings (``paper.QUALITATIVE``)."""
    return claims[claims["claim"].isin([*paper.READINGS, *paper.QUALITATIVE])]


def _differ_reasons(claims: pd.DataFrame, differ: pd.DataFrame) -> str:
    """The measured causes of the differing claims, as a dash clause (:func:`one_line`)."""
    ids = differ["claim"]
    parts = []
    if ids.str.startswith("tree.").any():
        parts.append("the game-tree size because the paper counts a mirrored placement twice "
                     "(counting it so gives the paper's number)")
    if (ids == "table2.FG").any():
        parts.append("Table II's greedy player because the authors' version places its first "
                     "and last dominoes at random (so played, it scores the paper's number)")
    t3 = _table3_cells(claims)
    t3_differ = int((t3["verdict"] == "differs").sum())
    if t3_differ:
        by_chance = 0.05 * int(t3["verdict"].isin(["reproduced", "consistent", "differs"]).sum())
        parts.append(f"{t3_differ} cells of Table III, where chance alone would give about "
                     f"{by_chance:.1f}")
    rest = (len(differ) - int(ids.str.startswith("tree.").sum()) - int((ids == "table2.FG").sum())
            - t3_differ)
    if rest > 0:
        parts.append(f"{rest} other{'s' if rest > 1 else ''}")
    last = ", and " if len(parts) > 2 else " and "
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + last + parts[-1]
    return " — " + listed if parts else ""


# ----------------------------------------------------------------------------- what we found


def power_of_ten(log10: float) -> str:
    """10**log10 written as a × 10^b with superscript digits (glued text renders no math)."""
    b = int(np.floor(log10))
    sup = str(b).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{10 ** (log10 - b):.1f}{NBSP}×{NBSP}10{sup}"


def tree_found(claims: pd.DataFrame) -> str:
    """§II-B's game-tree size, ours beside the paper's, and its verdict."""
    t = _row(claims, "tree.size")
    if not _computed(t):
        return NOT_RUN
    return (f"a game tree of about {power_of_ten(t['ours'])} nodes for a fixed shuffle (paper "
            f"{power_of_ten(t['paper'])}): {t['verdict']}")


def table1_found(claims: pd.DataFrame) -> str:
    """Table I's wins of FG and GPRD against three random players, beside the paper's."""
    rows = [_row(claims, f"table1.{a}") for a in ("FG", "GPRD")]
    if not all(_computed(r) for r in rows):
        return NOT_RUN
    fg, gprd = (f"**{r['ours']:.1f}{NBSP}%** (paper {number(r['paper'])}{NBSP}%)" for r in rows)
    return f"against three random players FG wins {fg} of its games, GPRD {gprd}"


def _chance(done: pd.DataFrame) -> str:
    """How the judged cells split, and how many *differs* chance alone would give (5 % each)."""
    v = done["verdict"].value_counts()
    return (f"; **{int(v.get('consistent', 0))}** more lie outside our interval but within the "
            f"sampling error of the two studies, and **{int(v.get('differs', 0))}** differ beyond "
            f"it, where chance alone would give about {0.05 * len(done):.1f}")


def table3_cells_found(claims: pd.DataFrame, games: int) -> str:
    """The paper's Table III cells as the claims judge them (``games``: a full cell's), and the
    FG row pooled over its budgets."""
    fg = claims.set_index("claim").loc[FG_POOLED]
    t3 = _table3_cells(claims)  # FG pooled is said apart
    done = t3[t3["verdict"] != "pending"]
    if done.empty:
        return NOT_RUN
    full = done[done["n"] >= games]
    lfl = int(done["note"].str.contains(analysis.LIKE_FOR_LIKE_NOTE, regex=False).sum())
    judged = ("all judged like for like" if lfl == len(done) else
              f"{lfl} cells judged like for like, the others on our rule")
    fg_text = ("" if fg["verdict"] == "pending" else
               f"; FG ignores the budget, and its {int(fg['n']):,} games of all ten columns pooled "
               f"({'like for like, against three FG*' if lfl == len(done) else 'as judged'}) give "
               f"{number(fg['ours'], 1, signed=True)} (95 % CI {_ci(fg['ci_low'], fg['ci_high'])}) "
               f"against the paper's {fg['paper']:+.1f}: **{fg['verdict']}**")
    return (f"**{int((done['verdict'] == 'reproduced').sum())}** of its {len(t3)} cells reproduce "
            "the paper's value" + _chance(done) + f" ({judged}; {len(done) - len(full)} with fewer "
            f"than {games} games)" + fg_text)


def best_found(res, params) -> str:
    """The best strategy per budget on the values the claims judge (like for like, complete
    budgets only), beside the paper's best; empty without a complete budget."""
    full = analysis.complete_columns(analysis.table3_frame(res, "table3authors_T"),
                                     params["authors_games"])
    if full is None:
        return ""
    best = best_per_budget(table3(full, params["time_scale"]))
    return "Best strategy per budget, like for like (the values judged): " + ", ".join(
        f"{r.T:g}{NBSP}s {r.strategy} ({_signed(r.margin)}; paper {r.paper_best})"
        for r in best.itertuples()) + "."


def mce_uct_found(claims: pd.DataFrame) -> str:
    """The paper's conclusion that MCE beats UCT, as its claim judges it."""
    c = _row(claims, "conclusion.mce_beats_uct")
    return NOT_RUN if not _computed(c) else f"{c['ours']}: {c['verdict']}"


def readings_found(claims: pd.DataFrame) -> str:
    """How many of the paper's statements in words (its readings of its own tables and its
    conclusions: :func:`statements`) hold and fail, and which fail."""
    readings = statements(claims)
    tally = readings["verdict"].value_counts()
    failed = readings.loc[readings["verdict"] == "fails", "description"].tolist()
    return (f"of the paper's {len(readings)} statements in words tested here (its readings of "
            "its own tables and its conclusions), "
            + ", ".join(f"**{int(tally[v])}** {w}" for v, w in
                        (("holds", "hold"), ("fails", "fail"), ("undecided", "undecided"),
                         ("pending", "not computed in this run"))
                        if tally.get(v, 0))
            + ("" if not failed else " (failing: " + "; ".join(failed) + ")"))


def verdicts_found(claims: pd.DataFrame) -> str:
    """The claims table's verdicts counted."""
    counts = claims["verdict"].value_counts()
    return ", ".join(f"**{int(counts.get(v, 0))}** {'not computed in this run' if v == 'pending' else v}"
                     for v in ("reproduced", "consistent", "differs", "not comparable", "holds",
                               "fails", "pending") if counts.get(v, 0))


def found(res, claims: pd.DataFrame, params) -> dict[str, str]:
    """The glued texts of the chapter's opening ("what we found") that come from the claims."""
    cells = table3_cells_found(claims, params["table3_games"])
    return {"kd-one-line": one_line(claims),
            "kd-missing": missing_sentence(res, EXPERIMENTS),
            "kd-tree": tree_found(claims), "kd-table1-found": table1_found(claims),
            "kd-t3-found": cells if cells == NOT_RUN else f"{cells}. {best_found(res, params)}".strip(),
            "kd-mce-uct": mce_uct_found(claims), "kd-readings": readings_found(claims),
            "kd-verdicts": verdicts_found(claims)}


# ----------------------------------------------------------------------------- §II-B, Fig. 2

#: Fig. 2's two series, by how a same-terrain domino's mirrored placement is counted.
BRANCHING_SERIES = {False: "mirrored placements listed once (the rules)",
                    True: "mirrored placements counted twice"}


def branching_data(b: pd.DataFrame | None) -> pd.DataFrame | None:
    """Fig. 2 (paper Fig. 2) in tidy form: legal moves per round (mean over games, 95 % CI)
    for each way of counting mirrored placements; ``series`` as in the legend."""
    if b is None:
        return None
    twice = analysis.mirrored_twice(b)
    parts = []
    for flag in (False, True):
        rows = b[twice == flag]
        if len(rows):
            r = analysis.branching_by_round(rows)
            parts.append(pd.DataFrame({
                "series": f"{BRANCHING_SERIES[flag]}, {int(r['n'].max()):,} games",
                "round": r["round"], "legal moves (mean)": r["mean"], "ci_low": r["lo"],
                "ci_high": r["hi"], "n": r["n"]}))
    return pd.concat(parts, ignore_index=True) if parts else None


def _errorbars(ax, g: pd.DataFrame, x: str, y: str, **kw):
    return ax.errorbar(g[x], g[y], yerr=[g[y] - g["ci_low"], g["ci_high"] - g[y]], **kw)


def branching_figure(data: pd.DataFrame):
    """Fig. 2: the branching factor per round (:func:`branching_data`)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for series, g in data.groupby("series", sort=False):
        _errorbars(ax, g, "round", "legal moves (mean)", marker="o", capsize=3, label=series)
    ax.set(xlabel="round", ylabel="legal moves (mean)", xticks=range(1, 14))
    ax.set_ylim(0, ax.get_ylim()[1] * 1.4)  # headroom: the legend sits above the round-2 peak
    ax.legend(loc="upper right", fontsize=9)
    return fig


def tree_table(claims: pd.DataFrame) -> pd.DataFrame:
    """§II-B's size claims as powers of ten, ours beside the paper's."""
    tree = claims[claims["claim"].str.startswith("tree.")]
    return pd.DataFrame({
        "quantity": tree["description"].str.replace(" (log10)", "", regex=False),
        "paper (log10)": tree["paper"].map(lambda v: number(v, 2)),
        "ours (log10)": tree["ours"].map(lambda v: number(v, 2)),
        "95 % CI": [_ci(a, b, decimals=2) for a, b in zip(tree["ci_low"], tree["ci_high"])],
        "verdict": tree["verdict"], "claim": tree["claim"]})


def tree_text(b: pd.DataFrame | None, claims: pd.DataFrame) -> str:
    """§II-B's reading: how much smaller our tree is than the paper's, and what counting
    mirrored placements twice gives (the paper's number); empty without the branching games."""
    t = _row(claims, "tree.size")
    if b is None or not _computed(t):
        return ""
    twice = b[analysis.mirrored_twice(b)]
    text = (f"That gives a tree about {power_of_ten(t['paper'] - t['ours'])} times smaller than "
            "the paper's.")
    if len(twice):
        m, lo, hi = analysis.tree_size_ci(twice)
        meets = lo - 0.005 <= t["paper"] <= hi + 0.005
        text += (f" Counting such mirrors twice, as a move generator that tries both orientations "
                 f"of every domino would, gives {power_of_ten(m)} (upper curve; a switch of the "
                 f"engine) against the paper's {power_of_ten(t['paper'])}: "
                 + ("the paper's estimate most likely counts them twice. The claims keep the "
                    "rules' count and say so." if meets else "not the paper's number either."))
    return text


# ----------------------------------------------------------------------------- Table I, Figs. 3-4


def table1_table(t1: pd.DataFrame | None) -> pd.DataFrame | None:
    """Table I (paper Table I): each agent against three TR players, ours beside the paper's."""
    if t1 is None:
        return None
    t = analysis.table1(t1)
    return pd.DataFrame({
        "agent": t["agent"], "games": t["n"], "wins": t["win"].map(pct),
        "wins 95 % CI": [ci_range(a, b) for a, b in zip(t["win_lo"], t["win_hi"])],
        "paper wins": t["paper_win"].map(pct), "draws": t["draw"].map(pct),
        "paper draws": t["paper_draw"].map(pct), "losses": t["loss"].map(pct),
        "paper losses": t["paper_loss"].map(pct)})


def score_by_move_data(t1: pd.DataFrame | None) -> pd.DataFrame | None:
    """Figs. 3-4 (paper Figs. 3-4) in tidy form: each agent's mean own score after each of its
    13 moves against three TR players, with 95 % CIs."""
    if t1 is None:
        return None
    s = analysis.score_by_move(t1)
    return pd.DataFrame({"series": s["agent"], "the player's move": s["move"],
                         "own score (mean)": s["mean"], "ci_low": s["lo"], "ci_high": s["hi"],
                         "n": s["n"]})


def score_by_move_figure(data: pd.DataFrame):
    """Figs. 3-4: the own score after each move, with 95 % bands (:func:`score_by_move_data`)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for agent, g in data.groupby("series", sort=False):
        ax.plot(g["the player's move"], g["own score (mean)"], marker="o", label=agent)
        ax.fill_between(g["the player's move"], g["ci_low"], g["ci_high"], alpha=0.2)
    ax.set(xlabel="the player's move", ylabel="own score (mean)", xticks=range(1, 14))
    ax.legend()
    return fig


# ----------------------------------------------------------------------------- Table II


def table2_table(t2: pd.DataFrame | None) -> pd.DataFrame | None:
    """Table II (paper Table II): mean score against three FG players, ours beside the paper's."""
    if t2 is None:
        return None
    t = analysis.table2(t2)
    return pd.DataFrame({"agent": t["agent"], "games": t["n"], "mean score": t["score0"].map(number),
                         "95 % CI": [_ci(a, b) for a, b in zip(t["score0_lo"], t["score0_hi"])],
                         "paper": t["paper"].map(number), "mean margin": t["margin"].map(_signed)})


def intervals_text(res, time_scale: float) -> str:
    """The paper's interval numbers (Table II's brackets, Table III's range, §V-G) beside our
    intervals' widths, and what that says of the two studies' spread; empty without games."""
    t2, t3 = res["table2"], analysis.table3_frame(res)
    w = analysis.interval_widths(None if t2 is None else analysis.table2(t2),
                                 None if t3 is None else table3(t3, time_scale))
    parts = []
    if w["table2"] is not None:
        full = w["table2"][w["table2"]["n"] >= paper.TABLE2_GAMES]
        if len(full):
            parts.append("for Table II " + ", ".join(
                f"{a} {number(x, 2)} points wide (paper {p:g})"
                for a, x, p in zip(full["agent"], full["width"], full["paper"])))
    if w["table3"] is not None:
        r = w["table3"]
        parts.append(f"over the {r['cells']} Table III cells with all {paper.TABLE3_GAMES} games "
                     f"{number(r['lo'], 1)}–{number(r['hi'], 1)} points wide (median "
                     f"{number(r['median'], 1)}; paper {paper.TABLE3_CI_RANGE[0]:.1f}–"
                     f"{paper.TABLE3_CI_RANGE[1]:.1f})")
    if not parts:
        return ""
    return ("Our 95 % intervals over the same numbers of games are " + "; ".join(parts) + ". The "
            "paper's numbers are the *widths* of intervals like ours; read as half-widths they "
            "would mean games twice as variable as ours. So our games vary as much as the "
            "authors', and each of the paper's values carries a sampling error of its own, about "
            "our half-width scaled to its number of games.")


def table2_readings(claims: pd.DataFrame) -> str:
    """§V-D's three conclusions from Table II, as the claims judge them on our games."""
    rows = claims.set_index("claim")
    if any(rows.at[cid, "verdict"] == "pending" for cid, _, _ in analysis.TABLE2_CONCLUSIONS):
        return ""
    return ("On our games (gaps in mean score, points, with 95 % intervals): " + "; ".join(
        f"{desc}: **{rows.at[cid, 'verdict']}** ({rows.at[cid, 'ours']})"
        for cid, desc, _ in analysis.TABLE2_CONCLUSIONS) + ".")


def _quirk_verdict(r) -> str:
    """Which of the paper's two FG numbers FG* reproduces (inside its 95 % interval)."""
    score = r.score0_lo <= paper.TABLE2["FG"][0] <= r.score0_hi
    margin = r.margin_lo <= paper.TABLE3["FG"][0] <= r.margin_hi
    return {(True, True): "the bug accounts for both",
            (True, False): "the bug accounts for the score, not for the margin",
            (False, True): "the bug accounts for the margin, not for the score",
            (False, False): "the bug accounts for neither"}[(score, margin)]


def quirk_text(quirk: pd.DataFrame | None, self_play: pd.DataFrame | None = None) -> str:
    """The FG-bug check (analysis.fg_quirk) beside Table II's FG row and Table III's (paper
    Tables II-III), then what the larger self-play games of the authors'-greedy check
    (``self_play``, :func:`analysis.greedy_self_play`) say of the same score; empty without the
    bug check's games."""
    if quirk is None:
        return ""
    q = analysis.fg_quirk(quirk).set_index("agent")
    said = {"FG*": "FG* against three FG* (the paper's setting)", "FG": "our FG against three FG*"}
    n = int(q.loc["FG*"].n)
    return ("With the bug reproduced as FG*: " + "; ".join(
        f"{said[a]} scores **{number(r.score0)}** ({_ci(r.score0_lo, r.score0_hi)}), "
        f"margin {_signed(r.margin)}, over {int(r.n):,} games" for a, r in q.iterrows())
        + f". The paper's FG scores {paper.TABLE2['FG'][0]} in Table II and a margin of "
        f"{_signed(paper.TABLE3['FG'][0])} in Table III: on these {n:,} games "
        + _quirk_verdict(q.loc["FG*"]) + "." + _self_play_score(self_play, n))


def _self_play_score(self_play: pd.DataFrame | None, n_quirk: int) -> str:
    """Table II's FG score on the authors'-greedy check's self-play games, where they outnumber
    the FG-bug check's ``n_quirk``: FG* and FGA (their greedy in full) with the claims' verdict
    on the paper's score."""
    if self_play is None:
        return ""
    own = analysis.greedy_self_play(self_play).set_index("agent")
    if not {"FG*", "FGA"} <= set(own.index) or int(own.loc["FG*"].n) <= n_quirk:
        return ""
    star, full = own.loc["FG*"], own.loc["FGA"]
    text = (f" The check of the authors' greedy in full (below) plays the same setting "
            f"{int(star.n):,} times: FG* scores {number(star.score0)} "
            f"({_ci(star.score0_lo, star.score0_hi)}), *{star.verdict}* beside the paper's "
            f"{paper.TABLE2['FG'][0]}; their FG as their code plays it in full (FGA: its first "
            f"domino at random too) scores {number(full.score0)} "
            f"({_ci(full.score0_lo, full.score0_hi)}), *{full.verdict}*.")
    if star.verdict == "differs" and full.verdict in ("reproduced", "consistent"):
        text += (" So, on the larger run, the last domino alone does not account for the "
                 "paper's score; the first and the last together do.")
    return text


# ----------------------------------------------------------------------------- Table III


def judged_grid_part(lfl_t: pd.DataFrame | None, rule_t: pd.DataFrame | None, games: int,
                     long: bool):
    """The paper's Table III as judged (:func:`judged_grid`, coloured by :func:`grid_colours`),
    its budgets up to ``chapter.SHORT_T`` or above (``long``): two tables of six and four
    columns, each narrow enough for the page. A pandas Styler, or None without games."""
    if lfl_t is None and rule_t is None:
        return None
    keep = [t if t is None else t[(t["T"] > SHORT_T) == long] for t in (lfl_t, rule_t)]
    if all(t is None or t.empty for t in keep):
        return None
    grid = judged_grid(*keep, games)
    return (grid.style.apply(lambda _: grid_colours(keep[0], grid), axis=None)
            .set_table_styles([{"selector": "td", "props": "text-align: center; line-height: 1.1; "
                                                         "padding: 3px 5px"},
                               {"selector": "th", "props": "white-space: nowrap"}], overwrite=False))


def grid_caption(claims: pd.DataFrame, long: bool) -> str:
    """The caption of :func:`judged_grid_part` (and the family count on the first part)."""
    band = f"above {SHORT_T:g} s" if long else f"up to {SHORT_T:g} s"
    if long:
        return f"The paper's Table III as judged, budgets {band} per ply (read as the table before)"
    fam = table3_family(claims)
    return (f"The paper's Table III as judged, budgets {band} per ply: mean victory margin against "
            "three FG players like for like (bold; the authors' move order, measured playouts and "
            "FG* opponents), the paper's value in brackets, our rule in italics (colour: like for "
            "like minus the paper, blue = we score higher, full colour = 10 points)"
            + (f"; {fam}" if fam else ""))


def family_text(claims: pd.DataFrame) -> str:
    """The Table III family's count in a sentence (:func:`table3_family`); empty without it."""
    fam = table3_family(claims)
    return "" if fam is None else f"Over the table, {fam}."


def offset_text(claims: pd.DataFrame, res) -> str:
    """:func:`table3_offset` as a sentence; empty without Table III's games."""
    if analysis.table3_frame(res) is None and analysis.table3_frame(res, "table3authors_T") is None:
        return ""
    return f"Taken together, {table3_offset(claims, res)}."


#: Table III's strategy families as the offsets figure's legend names them.
FAMILY_NAMES = {"MCE": "MCE (4 strategies)", "UCT": "UCT", "UCT_B": "UCT_B (progressive bias)",
                "UCT_W": "UCT_W (progressive win bias)"}


def _rule_rows(res, time_scale: float) -> pd.DataFrame | None:
    t3 = analysis.table3_frame(res)
    return None if t3 is None else table3(t3, time_scale)


def offsets_data(res, time_scale: float) -> pd.DataFrame | None:
    """The offsets figure in tidy form (paper Table III under our rule): each family's mean of
    ours minus the paper's victory margin per budget, with 95 % CIs counting both studies'
    sampling error; ``n``: the fewest games of the family's cells there."""
    t = _rule_rows(res, time_scale)
    if t is None:
        return None
    fam = analysis.family_offsets(t)
    return pd.DataFrame({"series": fam["family"].map(lambda f: FAMILY_NAMES.get(f, f)),
                         "seconds per ply": fam["T"], "ours − paper (points)": fam["diff"],
                         "ci_low": fam["lo"], "ci_high": fam["hi"], "cells": fam["cells"],
                         "n": fam["n_min"]})


def offsets_figure(data: pd.DataFrame):
    """Ours minus the paper's Table III by family and budget (:func:`offsets_data`)."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    Ts = sorted(data["seconds per ply"].unique())
    for k, (series, g) in enumerate(data.groupby("series", sort=False)):
        x = np.array([Ts.index(T) for T in g["seconds per ply"]]) + (k - 1.5) * 0.12
        _errorbars(ax, g.assign(x=x), "x", "ours − paper (points)", fmt="o-", ms=4, capsize=2,
                   lw=1, label=series)
    ax.set_xticks(range(len(Ts)), [f"{t:g}" for t in Ts])
    ax.axhline(0, color="grey", lw=1)
    ax.set(xlabel="budget T (s per ply)", ylabel="ours − paper (points)")
    ax.legend(fontsize=8, ncol=2)
    return fig


def _pooled(rows: pd.DataFrame) -> str:
    m, a, b = analysis.pooled_offset(rows)
    return f"{_signed(m)} ({_ci(a, b)})"


def families_found(res, time_scale: float) -> str:
    """Ours minus the paper by family at the smallest budget (under our rule)."""
    t = _rule_rows(res, time_scale)
    if t is None:
        return NOT_RUN
    fam = analysis.family_offsets(t)
    at = fam[fam["T"] == fam["T"].min()].set_index("family")
    return f"at {fam['T'].min():g} s per ply: " + ", ".join(
        f"{FAMILY_NAMES.get(f, f).split(' (')[0]} {_signed(r['diff'])} ({_ci(r['lo'], r['hi'])})"
        for f, r in at.iterrows())


def offsets_text(res, time_scale: float) -> str:
    """How the families' offsets differ under our rule: MCE's over all its cells and at its
    worst budget, UCT's with knowledge and with random playouts; empty without the games."""
    t = _rule_rows(res, time_scale)
    if t is None:
        return ""
    mce = t[t["strategy"].str.startswith("MCE")]
    m, a, b = analysis.pooled_offset(mce)
    worst = analysis.family_offsets(t).query("family == 'MCE'").sort_values("diff").iloc[0]
    uct = t[t["strategy"].str.startswith("UCT")]
    pol = uct["strategy"].map(analysis.policy_of)
    lo_T = t["T"].min()
    low, later = uct[uct["T"] == lo_T], uct[(pol == "TR") & (uct["T"] >= 1)]
    fam = analysis.family_offsets(t)
    fam = fam[fam["T"] == lo_T]
    apart = fam["lo"].max() > fam["hi"].min()  # two families' intervals do not overlap
    knowledge, random = low[pol[low.index] != "TR"], low[pol[low.index] == "TR"]
    k_lo, r_lo, r_hi = analysis.pooled_offset(knowledge)[1], *analysis.pooled_offset(random)[1:]
    only_knowledge = k_lo > 0 and r_lo <= 0 <= r_hi
    return ("By family the differences " + ("are not alike" if apart else "are")
            + f": {families_found(res, time_scale)}. "
            + ("MCE is close to the paper but not level with it" if b < 0 or a > 0 else
               "MCE is level with the paper")
            + f": over all {len(mce)} MCE cells ours lie {_signed(m)} points from the paper's "
            f"({_ci(a, b)}), and at {worst['T']:g} s the four MCE strategies lie "
            f"{_signed(worst['diff'])} ({_ci(worst['lo'], worst['hi'])}) from it"
            + (": our opponents are stronger than the authors' (see the like-for-like section)"
               if b < 0 else "") + ". "
            + ("The three UCT variants score several points *more* than the paper's at the "
               "smallest budgets, and only with knowledge playouts: " if only_knowledge else
               "The UCT variants: ")
            + f"at {lo_T:g} s the UCT cells with knowledge playouts (FG, εG, PG) lie "
            f"{_pooled(knowledge)} points from the paper's, those with random (TR) playouts "
            f"{_pooled(random)}"
            + ("" if not len(later) else f"; from 1 s on, the TR cells lie {_pooled(later)}") + ".")


def _budget_offsets(res, time_scale: float) -> pd.DataFrame | None:
    bc, t3 = res["budget_check"], analysis.table3_frame(res)
    if bc is None or t3 is None:
        return None
    return analysis.budget_offsets(bc, t3, time_scale=time_scale)


def budget_check_table(res, time_scale: float) -> pd.DataFrame | None:
    """The budget check: each family's mean of ours at a fraction of 0.1 s minus the paper at
    0.1 s (paper Table III's first column), points with 95 % CIs."""
    bo = _budget_offsets(res, time_scale)
    if bo is None:
        return None
    ci = bo.assign(txt=[f"{d:+.1f} ({_ci(a, b)})" for d, a, b in zip(bo["diff"], bo["lo"], bo["hi"])])
    tab = ci.pivot(index="family", columns="fraction", values="txt").reindex(
        ["MCE", "UCT", "UCT_B", "UCT_W"])
    tab.columns = [f"{f:g} × 0.1 s" for f in tab.columns]
    return tab.reset_index()


def budget_check_found(res, time_scale: float) -> str:
    """The budget at which each family comes closest to the paper's 0.1 s column."""
    bo = _budget_offsets(res, time_scale)
    if bo is None:
        return NOT_RUN
    wide = bo.pivot(index="family", columns="fraction", values="diff").reindex(
        ["MCE", "UCT", "UCT_B", "UCT_W"])
    fit = {f: min(wide.columns, key=lambda c: abs(wide.loc[f, c])) for f in wide.index}
    return ("the budget at which our strategies come closest to the paper's 0.1 s column is "
            + ", ".join(f"{fit[f]:g} × 0.1 s for {f} ({wide.loc[f, fit[f]]:+.1f} points)"
                        for f in wide.index))


# ----------------------------------------------------------------------------- like for like


def _lfl_rows(res, time_scale: float) -> pd.DataFrame | None:
    lfl = analysis.table3_frame(res, "table3authors_T")
    return None if lfl is None else table3(lfl, time_scale)


def lfl_order_text(b: pd.DataFrame | None) -> str:
    """The authors' UCT iterations on moves 2-5 at 0.1-0.3 s (their raw results) beside the
    legal moves there (our branching games): why their move order matters; empty without the
    branching games."""
    if b is None:
        return ""
    by_round = analysis.branching_by_round(b[~analysis.mirrored_twice(b)])
    mid = by_round[by_round["round"].between(2, 5)]["mean"]
    r = paper.authors_rates()
    r = r[r["strategy"].str.startswith("UCT") & (r["strategy"].map(analysis.policy_of) != "TR")
          & (r["T"] <= 0.3) & r["move"].between(2, 5)]
    return (f"At 0.1–0.3 s the authors' UCT with knowledge playouts made "
            f"{r['mean_iterations'].min():.0f}–{r['mean_iterations'].max():.0f} iterations per move "
            f"(median {r['mean_iterations'].median():.0f}) on moves 2–5, against "
            f"{mid.min():.0f}–{mid.max():.0f} legal moves on average in those rounds.")


def lfl_rates_text() -> str:
    """The authors' measured playouts per move against our rule's (their raw result files)."""
    lo1, hi1 = analysis.authors_budget_ratios(0.1, [1], True, uct_only=False)
    lo2, hi2 = analysis.authors_budget_ratios(0.1, [2], True, uct_only=False)
    lo3, hi3 = analysis.authors_budget_ratios(1.0, range(3, 11), True)
    lo4, hi4 = analysis.authors_budget_ratios(10.0, range(3, 11), True)
    return (f"at 0.1 s their players with knowledge playouts made {lo1:.0%}–{hi1:.0%} of our "
            f"rule's playouts on move 1 and {lo2:.0%}–{hi2:.0%} on move 2; at 1 s their UCT with "
            f"knowledge playouts made {lo3:.1f}–{hi3:.1f} times our rule's iterations on moves "
            f"3–10 ({lo4:.1f}–{hi4:.1f} times at 10 s)")


def _own_kind_scores(res, agent: str) -> pd.Series | None:
    """Seat 0's scores of ``agent`` against three of its own kind: from the authors'-greedy
    check's self-play games where it has them (the most games), else from the FG-bug check
    (FG*) or Table II (FG)."""
    for key in ("greedy_self_play", "fg_quirk" if agent == "FG*" else "table2"):
        games = res[key]
        if games is None:
            continue
        own = games[(games["seat0"] == agent) & (games["seat1"] == agent)]["score0"]
        if len(own):
            return own
    return None


def lfl_opponents_text(res) -> str:
    """How much more our FG scores than FG* (each against three of its own kind); empty
    without the FG-bug check and Table II."""
    star, fg = _own_kind_scores(res, "FG*"), _own_kind_scores(res, "FG")
    if star is None or fg is None:
        return ""
    d, a, c = analysis.mean_diff_ci(fg, star)
    so = ("so against our opponents every margin is lower" if a > 0 else
          "so against our opponents every margin is higher" if c < 0 else
          "not told apart: on this measure the two greedies make equally strong opponents")
    return (f"Our FG's score minus FG*'s: {_signed(d)} points per game ({_ci(a, c, signed=True)}; "
            "each against "
            f"three of its own kind, {len(fg):,} and {len(star):,} games): {so}.")


def _band_offset(t: pd.DataFrame, long: bool) -> str | None:
    """Ours minus the paper over the searching strategies' cells with short budgets
    (T <= chapter.SHORT_T) or long ones, with analysis.pooled_offset's CI; None without cells."""
    g = t[((t["T"] > SHORT_T) == long) & (t["strategy"] != "FG")].dropna(subset=["diff"])
    if g.empty:
        return None
    m, lo, hi = analysis.pooled_offset(g)
    return f"{_signed(m)} ({_ci(lo, hi, signed=True)}) over {len(g)} cells"


def _long_sides(lfl: pd.DataFrame, time_scale: float) -> str:
    """Where the like-for-like margin's change from short to long budgets lies, on all cells
    against the authors' own games (:func:`score_sides_cells`, :func:`shortfall`)."""
    t = shortfall(score_sides_cells(lfl, paper.authors_games(), time_scale))
    if not shortfall_sentence(t, t):
        return "without a known cause"
    return (f"that, set against the authors' own games, grows from short to long budgets "
            f"{change_side(t)} ({opponents_reading(t)}; see *Against the authors' own games*)")


def lfl_table(res, time_scale: float) -> pd.DataFrame | None:
    """Table III like for like against our rule (paper Table III), budget x family: each
    family's mean of ours minus the paper like for like (bold) and under our rule (below), with
    95 % CIs over the cells computed in both (analysis.like_for_like)."""
    lfl_t, rule_t = _lfl_rows(res, time_scale), _rule_rows(res, time_scale)
    if lfl_t is None or rule_t is None:
        return None
    both = analysis.like_for_like(rule_t, lfl_t)
    cell = {(r.T, r.family, r.setting): (r.diff, r.lo, r.hi) for r in both.itertuples()}

    def txt(T, family):
        a, r = cell.get((T, family, "authors")), cell.get((T, family, "rule"))
        if a is None or r is None:
            return ""
        return (f"<b>{_signed(a[0])}</b> ({_ci(*a[1:])})<br><small>our rule "
                f"{_signed(r[0])} ({_ci(*r[1:])})</small>")

    families = [f for f in ("MCE", "UCT", "UCT_B", "UCT_W") if f in set(both["family"])]
    return pd.DataFrame([{"budget": f"{T:g} s", **{f: txt(T, f) for f in families}}
                         for T in sorted(both["T"].unique())])


def lfl_games(res, time_scale: float) -> int:
    """The fewest games of a cell computed in both Table III columns (:func:`lfl_table`)."""
    both = analysis.like_for_like(_rule_rows(res, time_scale), _lfl_rows(res, time_scale))
    return int(both["n_min"].min())


def lfl_texts(res, params) -> dict[str, str]:
    """The like-for-like section's summary (``kd-lfl-summary``) and its line in the opening
    (``kd-lfl-found``): the UCT families' excess at the smallest budget under each setting,
    and the short and long budgets' offsets (:func:`_band_offset`)."""
    scale = params["time_scale"]
    lfl, lfl_t, rule_t = (analysis.table3_frame(res, "table3authors_T"), _lfl_rows(res, scale),
                          _rule_rows(res, scale))
    if lfl_t is None or rule_t is None:
        return {"kd-lfl-summary": "", "kd-lfl-found": NOT_RUN}
    both = analysis.like_for_like(rule_t, lfl_t)
    low = both[both["T"] == both["T"].min()]
    uct = low[low["family"] != "MCE"].groupby("setting")["diff"].mean()
    sides = _long_sides(lfl, scale)
    short = int((lfl_t["n"] < params["authors_games"]).sum())
    bands = [(_band_offset(t, False), _band_offset(t, True)) for t in (lfl_t, rule_t)]
    band_text = ("" if None in bands[0] + bands[1] else
                 f"Over the searching strategies, like for like minus the paper averages "
                 f"{bands[0][0]} up to {SHORT_T:g} s and {bands[0][1]} above (our rule: "
                 f"{bands[1][0]} and {bands[1][1]}): a shortfall {sides}.")
    at = f"At {low['T'].min():g} s the UCT families"
    summary = (f"{len(lfl_t)} of the 170 cells have like-for-like games"
               + (f" ({short} of them fewer than {params['authors_games']} so far; the others are "
                  "computed next)" if short else "")
               + f". {at} lie {_signed(uct['rule'])} points from the paper on average under our "
               f"rule and {_signed(uct['authors'])} like for like. " + band_text)
    found = (f"at {low['T'].min():g} s the UCT families' excess over the paper goes from "
             f"{_signed(uct['rule'])} points under our rule to {_signed(uct['authors'])}"
             + (f"; above {SHORT_T:g} s like for like minus the paper averages {bands[0][1]}, a "
                f"shortfall {sides}." if bands[0][1] else "."))
    return {"kd-lfl-summary": summary.strip(), "kd-lfl-found": found}


# ----------------------------------------------------------------------------- Fig. 5, §V-G


def fig5_text(claims: pd.DataFrame) -> str:
    """§V-E's readings of Fig. 5, as the claims judge them (analysis.FIG5_READINGS); empty
    while any is not computed."""
    rows = claims.set_index("claim")
    if any(rows.at[cid, "verdict"] == "pending" for cid, _, _ in analysis.FIG5_READINGS):
        return ""
    where = _judged_on(rows.at[analysis.FIG5_READINGS[0][0], "note"])
    return f"On {where}: " + "; ".join(f"{desc}: **{rows.at[cid, 'verdict']}**"
                                       for cid, desc, _ in analysis.FIG5_READINGS) + "."


def _like_for_like(note: str) -> bool:
    """Does a reading's note say it is judged on the like-for-like games?"""
    return str(note).startswith(analysis.JUDGED_LIKE_FOR_LIKE)


def _judged_on(note: str) -> str:
    """Which of our Table III studies a reading's note says it is judged on, in words."""
    return "the like-for-like games" if _like_for_like(note) else "our rule's games"


def enhancement_text(claims: pd.DataFrame) -> str:
    """§V-G's reading of the UCT enhancements, as its claim judges it; empty while pending."""
    row = _row(claims, "conclusion.enhancements_short")
    if row["verdict"] == "pending":
        return ""
    return (f"On {_judged_on(row['note'])} the reading **{row['verdict']}**: it needs a gain above "
            "0 at 0.1 s and no gap (an interval covering 0) at every larger budget.")


def enhancement_caption(claims: pd.DataFrame) -> str:
    """The caption of :func:`enhancement_table`, naming the games it is computed on."""
    where = _judged_on(_row(claims, "conclusion.enhancements_short")["note"])
    return ("UCT enhancements: mean of UCT_B-X and UCT_W-X minus UCT-X over the four playout "
            f"policies (points of victory margin), on {where}")


def enhancement_table(res, claims: pd.DataFrame, params) -> pd.DataFrame | None:
    """§V-G: the mean of UCT_B-X and UCT_W-X minus UCT-X over the playout policies per budget,
    ours (the games the claim is judged on) beside the paper's own Table III."""
    like = _like_for_like(_row(claims, "conclusion.enhancements_short")["note"])
    t3 = analysis.table3_frame(res, "table3authors_T" if like else "table3_T")
    if t3 is None or not enhancement_text(claims):
        return None
    g = analysis.enhancement_gaps(table3(t3, params["time_scale"]))
    return pd.DataFrame({"budget": [f"{T:g} s" for T in g["T"]],
                         "our gain": [_signed(v) for v in g["gap"]],
                         "95 % CI": [_ci(a, b) for a, b in zip(g["lo"], g["hi"])],
                         "paper's table": [_signed(v) for v in g["paper_gap"]]})


# ----------------------------------------------------------------------------- the authors' greedy


def fga_text(games: pd.DataFrame | None) -> str:
    """Each greedy against three of its own kind beside Table II's FG row, and what FGA
    opponents change of our FG's margin; empty without the games."""
    if games is None:
        return ""
    own = analysis.greedy_self_play(games)
    parts = [f"{r.agent} scores **{number(r.score0)}** ({_ci(r.score0_lo, r.score0_hi)}): "
             f"{r.verdict}" for r in own.itertuples()]
    eff = analysis.opponents_effect(games)
    return ("Each greedy against three of its own kind, as the paper played its FG row of Table "
            f"II, beside the paper's {paper.TABLE2['FG'][0]} (Table II's FG, judged by the claims' "
            "rule): " + "; ".join(parts) + f", over {int(own['n'].min()):,} games each"
            + ("" if eff is None else
               f". Our FG's victory margin is {number(abs(eff[0]))} points "
               f"{'higher' if eff[0] > 0 else 'lower'} against three FGA than against three FG* "
               f"({_ci(eff[1], eff[2])}, {eff[3]:,} games each)"
               + (": FGA opponents are weaker" if eff[1] > 0 else
                  ": FGA opponents are stronger" if eff[2] < 0 else "")) + ".")


def _greedy_rows(res, time_scale: float) -> pd.DataFrame | None:
    check, lfl = res["greedy_check"], analysis.table3_frame(res, "table3authors_T")
    if check is None or lfl is None:
        return None
    g = analysis.greedy_check(check, lfl, time_scale)
    return None if g.empty else g


def greedy_check_table(res, time_scale: float) -> pd.DataFrame | None:
    """The authors'-greedy check (paper Table III's cells): like for like and with FGA
    opponents and playouts, each minus the paper, and the change with its 95 % CI."""
    g = _greedy_rows(res, time_scale)
    if g is None:
        return None
    return pd.DataFrame({
        "budget": [f"{T:g} s" for T in g["T"]], "strategy": g["strategy"],
        "paper": [_signed(v) for v in g["paper"]],
        "like for like − paper": [_signed(v) for v in g["lfl_diff"]],
        "FGA − paper": [_signed(v) for v in g["check_diff"]],
        "change": [f"{_signed(d)} ({_ci(a, b)})"
                   for d, a, b in zip(g["change"], g["change_lo"], g["change_hi"])],
        "games": [f"{a:,} / {b:,}" for a, b in zip(g["lfl_n"], g["check_n"])]})


def greedy_check_text(res, time_scale: float) -> str:
    """The check's change pooled per budget and kind of playout; empty without its games."""
    g = _greedy_rows(res, time_scale)
    if g is None:
        return ""
    pooled = analysis.greedy_check_pooled(g)
    return "Pooled per budget and kind of playout, the change is " + "; ".join(
        f"{_signed(r.change)} ({_ci(r.lo, r.hi)}) at {r.T:g} s with "
        f"{'TR' if r.playouts == 'TR' else 'greedy'} playouts ({r.cells} cells, at least "
        f"{r.n_min} games each)" for r in pooled.itertuples()) + "."


def greedy_found(res, time_scale: float) -> str:
    """The opening's line: which greedy fits Table II's FG row, and what FGA opponents and
    playouts change of the checked cells at each budget (all six pooled)."""
    g, games = _greedy_rows(res, time_scale), res["greedy_self_play"]
    if g is None:
        return NOT_RUN
    own = "" if games is None else "; ".join(
        f"{r.agent} {r.verdict}" for r in analysis.greedy_self_play(games).itertuples()
        if r.agent in ("FGA", "FG*"))
    per_T = analysis.greedy_check_pooled(g.assign(playouts="all"))
    moves = "; ".join(
        f"at {r.T:g} s {_signed(r.change)} ({_ci(r.lo, r.hi)}: "
        f"{'a change' if r.lo > 0 or r.hi < 0 else 'no clear change'}), ours minus the paper "
        f"going from {_signed(r.lfl_diff)} to {_signed(r.check_diff)}" for r in per_T.itertuples())
    return ((f"Table II's FG row judged on each greedy in self-play: {own}. " if own else "")
            + f"FGA opponents and playouts move the {per_T['cells'].max()} checked cells {moves}.")


# ----------------------------------------------------------------------------- the authors' games


def raw_slips_text() -> str:
    """The cells whose mean over the authors' games is one unit off the printed value."""
    return " and ".join(
        f"{s} at {T:g} s (mean {number(m, 2, signed=True)}, printed "
        f"{number(paper.TABLE3[s][paper.TABLE3_T.index(T)], 1, signed=True)})"
        for (s, T), m in paper.AUTHORS_GAMES_SLIPS.items())


def _both_settings(res):
    lfl, t3 = analysis.table3_frame(res, "table3authors_T"), analysis.table3_frame(res)
    return None if lfl is None or t3 is None else (lfl, t3)


def game_tests_texts(res, claims: pd.DataFrame, time_scale: float) -> dict[str, str]:
    """Every like-for-like cell tested against the authors' games (:func:`game_tests`), in the
    section's words (``kd-game-tests``) and the opening's (``kd-authors-found``, with where the
    shortfall lies)."""
    both = _both_settings(res)
    if both is None:
        return {"kd-game-tests": "", "kd-authors-found": NOT_RUN}
    raw = paper.authors_games()
    tests = game_tests(both[0], raw, time_scale)
    c, r = game_test_counts(tests), game_test_counts(game_tests(both[1], raw, time_scale))
    agree = rule_and_games(tests, claims)
    parts = ("" if agree["agree"] == agree["cells"] else
             f"; where they part, the Welch p-values lie between {agree['p_min']:.3f} and "
             f"{agree['p_max']:.3f}")
    text = (f"The Welch test finds **{c['welch']}** of the {c['cells']} like-for-like cells "
            f"different from the authors' games at 5 % (the rank test {c['rank']}, both "
            f"{c['both']}), where chance alone would give about {c['by_chance']:.1f}; after a "
            f"correction for testing all {c['cells']}, {c['holm']} (Holm) and {c['bh']} "
            f"(Benjamini–Hochberg). Our rule's games against theirs: {r['welch']} different at "
            f"5 %, {r['holm']} after Holm's correction and {r['bh']} after Benjamini–Hochberg's. "
            "The claims' rule, which knows only the printed means, and the Welch test agree on "
            f"{agree['agree']} of the {agree['cells']} like-for-like cells (differs or not){parts}.")
    lfl_s, rule_s = (shortfall(score_sides_cells(g, raw, time_scale)) for g in both)
    short = (f"a Welch test of our like-for-like games against theirs finds {c['welch']} of the "
             f"{c['cells']} cells different at 5 % (about {c['by_chance']:.1f} by chance), "
             f"{c['holm']} after Holm's correction")
    if shortfall_sentence(lfl_s, rule_s):
        short += (f"; like for like, {opponents_reading(lfl_s)}, and the margin's change from "
                  f"short to long budgets lies {change_side(lfl_s)}.")
    return {"kd-game-tests": text, "kd-authors-found": short}


def _shortfalls(res, time_scale: float):
    both = _both_settings(res)
    if both is None:
        return None
    sides = [score_sides_cells(g, paper.authors_games(), time_scale) for g in both]
    return sides[0].attrs["slope"], shortfall(sides[0]), shortfall(sides[1])


def sides_text(res, time_scale: float) -> str:
    """The slope of the best opponent's score on the player's, and where ours minus the
    authors' games lies by side of the margin (:func:`shortfall_sentence`); empty without."""
    s = _shortfalls(res, time_scale)
    if s is None:
        return ""
    text = shortfall_sentence(s[1], s[2])
    return (f"Within cells the best opponent scores {number(-s[0], 2)} points less per point its "
            f"player scores more. " + (f"{text[0].upper()}{text[1:]}." if text else
                                       "Too few games for the comparison."))


def sides_table(res, time_scale: float, setting: str) -> pd.DataFrame | None:
    """:func:`shortfall_table`'s rows of one ``setting`` ("like for like" or "our rule"), one
    table each so that it fits the page; None without games enough."""
    s = _shortfalls(res, time_scale)
    if s is None or not shortfall_sentence(s[1], s[2]):
        return None
    t = shortfall_table(s[1], s[2])
    return t[t["setting"] == setting].drop(columns="setting").reset_index(drop=True)


# ----------------------------------------------------------------------------- speed (Fig. 6)


def bench() -> tuple[dict, dict, dict | None]:
    """The committed bench record's playout rates and machine (``gameai bench kingdomino``),
    and the record; without a record, a brief measurement on this machine (the text says so)."""
    import os

    from ..core.benchrecord import read_record
    from .bench import playout_rates

    record = read_record("kingdomino")
    if record is not None:
        return record["rates"], record["machine"], record
    return playout_rates(0.02, 3), {"cpu": "this machine, measured at build time", "date": "now",
                   "load_average": os.getloadavg()[0]}, None


def rates_data(rates: dict) -> pd.DataFrame:
    """Fig. 6 in tidy form (paper Fig. 6): playouts per second by move index, ours and the
    authors' (their Java agents, the budgets' basis), one panel per playout policy."""
    rows = [{"panel": name, "series": series, "move index": m, "playouts per second": v}
            for name in rates
            for series, values in (("ours", rates[name]), ("authors (Java)", paper.PLAYOUT_RATES[name]))
            for m, v in zip(range(1, 14), values)]
    return pd.DataFrame(rows)


def rates_figure(data: pd.DataFrame):
    """Fig. 6: ours and the authors' playouts per second by move index (:func:`rates_data`)."""
    fig, axes = plt.subplots(2, 2, figsize=(9, 6), sharex=True)
    for ax, (name, g) in zip(axes.flat, data.groupby("panel", sort=False)):
        for series, s in g.groupby("series", sort=False):
            style = dict(marker="o") if series == "ours" else dict(marker="*", color="black")
            ax.plot(s["move index"], s["playouts per second"], label=series, **style)
        ax.set(title=name, yscale="log", xticks=[1, 4, 7, 10, 13])
    for ax in axes[1]:
        ax.set_xlabel("move index")
    for ax in axes[:, 0]:
        ax.set_ylabel("playouts / s")
    axes[0, 0].legend()
    return fig


def _ratios(rates: dict) -> dict[str, list[float]]:
    return {name: [o / a for o, a in zip(rates[name], paper.PLAYOUT_RATES[name])] for name in rates}


def _ratio_table(ratios: dict, what: str, high: str) -> pd.DataFrame:
    return pd.DataFrame({what: list(ratios),
                         "lowest ratio": [f"{min(r):.1f}x" for r in ratios.values()],
                         "median ratio": [f"{np.median(r):.1f}x" for r in ratios.values()],
                         "highest ratio": [f"{max(r):{high}}x" for r in ratios.values()]})


def rates_table(rates: dict) -> pd.DataFrame:
    """Our playouts per second divided by the authors' (paper Fig. 6), over the move indices."""
    return _ratio_table(_ratios(rates), "policy", ".1f")


def _uct_x(record: dict | None):
    uct = (record or {}).get("uct_rates")  # absent from records older than the UCT bench
    if uct is None:
        return None
    from .bench import authors_uct_rates, uct_ratios

    return uct_ratios(uct, authors_uct_rates(record["uct_T"]))


def uct_rates_table(record: dict | None) -> pd.DataFrame | None:
    """Our UCT iterations per second divided by the authors', like for like; None without."""
    x = _uct_x(record)
    return None if x is None else _ratio_table(x, "strategy", ".0f")


#: The rows of :func:`engine_table`: the playout policies of Table III's strategies in the
#: chapter's order, then every strategy (FG itself, which plays no playouts, too: a few
#: milliseconds a game, too little to time apart).
ENGINE_GROUPS = {"TR": "TR", "εG": "εG", "PG": "PG", "FG": "FG", "all": "every strategy"}


def _engine_cell(v: dict | None) -> str:
    if v is None:
        return NONE_CELL
    return f"{v['old_s']:.1f} → {v['new_s']:.1f} s, {v['speedup']:.2f}×"


def engine_table(record: dict | None) -> pd.DataFrame | None:
    """CPU seconds per Table III game, the engine before its greedy speed-ups and FG's memo and
    now (``gameai bench kingdomino``: the same games side by side), summed per playout policy
    and over every strategy, in our rule and like for like; None for a record without it."""
    from .bench import engine_totals

    speed = (record or {}).get("engine_speedup")
    if not speed:
        return None
    totals = engine_totals(speed)
    rows = []
    for group, label in ENGINE_GROUPS.items():
        cells = [totals.get(f"{e}/{group}") for e in ("rule", "authors")]
        if all(c is None for c in cells):
            continue
        n = max(c["cells"] for c in cells if c is not None)
        rows.append({"playouts": label, "strategies": n, "our rule": _engine_cell(cells[0]),
                     "like for like": _engine_cell(cells[1])})
    return pd.DataFrame(rows)


def engine_caption(record: dict | None) -> str:
    """The caption of :func:`engine_table`."""
    rec = record or {}
    T = rec.get("engine_T")
    n = rec.get("engine_games")
    at = f" at T = {T:g} s" if T is not None else ""
    games = f", {n} game{'s' if n != 1 else ''} of each strategy" if n else ""
    speed = rec.get("engine_speedup") or {}
    differ = sorted(k.replace("rule/", "our rule, ").replace("authors/", "like for like, ")
                    for k, v in speed.items() if not v["same"])
    same = (" Every game ended the same both ways." if not differ else
            " Games that did not end the same: " + "; ".join(differ) + ".")
    where = rec.get("engine_machine")
    measured = "" if not where else (f" Measured on {where['cpu']}, {where['date']}, load "
                                     f"average {where['load_average']:.1f}.")
    return (f"CPU seconds per Table III game{at}: the engine before its greedy was rewritten and "
            f"FG's memo added, then now (before → now, speed-up), from the same seeds, side by "
            f"side in one process{games}; summed over the strategies whose playouts use each "
            f"policy, and over every strategy, FG itself (a few milliseconds a game) "
            f"included.{same}{measured}")


def engine_text(record: dict | None) -> str:
    """What the old-and-new timing says per game of every strategy (:func:`engine_table`)."""
    from .bench import engine_totals

    speed = (record or {}).get("engine_speedup")
    if not speed:
        return ("(`gameai bench kingdomino` has not timed whole games of the engine before and "
                "after its greedy speed-ups in the committed record.)")
    t = engine_totals(speed)
    names = {"rule": "in our rule", "authors": "like for like"}
    parts = [f"{t[e + '/all']['speedup']:.2f}× {names[e]}" for e in names if e + "/all" in t]
    text = ("Over a game of every strategy, the rewrite and the memo together make the engine "
            + " and ".join(parts).replace("×", "× as fast", 1))
    greedy = [t[f"{e}/FG"]["speedup"] for e in names if f"{e}/FG" in t]
    tr = [e for e in names if f"{e}/TR" in t]
    if greedy and tr:
        x = [t[f"{e}/TR"]["speedup"] for e in tr]
        share = [t[f"{e}/TR"]["new_s"] / t[f"{e}/all"]["new_s"] for e in tr]
        text += (f": the strategies with FG playouts gain most ({number(min(greedy), 2)}–"
                 f"{number(max(greedy), 2)}×), while those with TR playouts, which never call "
                 f"the greedy, gain {number(min(x), 2)}–{number(max(x), 2)}× and make "
                 f"{min(share) * 100:.0f}–{max(share) * 100:.0f} % of such a game's cost now")
    return text + "."


def speed_text(rates: dict, machine: dict, record: dict | None) -> str:
    """Our playouts (and UCT iterations) per second against the authors' and the project's
    targets, with the load average of the measurement."""
    ratios = _ratios(rates)
    targets = {"TR": 10, "FG": 6}
    below = [f"{name} at {sum(x < targets[name] for x in ratios[name])} of 13 move indices"
             for name in targets if min(ratios[name]) < targets[name]]
    x = _uct_x(record)
    if x is None:
        uct_text = "; UCT not in this bench record (`gameai bench kingdomino` measures it)"
    else:
        medians = [np.median(r) for r in x.values()]
        uct_text = (f"; UCT, searching the authors' own iterations per move, "
                    f"{number(min(medians), 1)}–{max(medians):.0f}× (median over the move indices "
                    "of each of the 12 UCT strategies)")
    return ("our engine plays the authors' playouts " + ", ".join(
        f"{name} {number(min(r), 1)}–{max(r):.0f}×" for name, r in ratios.items())
        + " as fast as their Java (targets: TR 10×, FG 6×; "
        + ("met at every move index" if not below else
           "below target for " + ", ".join(below) + " in this measurement") + ")"
        + uct_text + f", measured with a load average of {machine['load_average']:.1f}")


def machine_text(machine: dict) -> str:
    return f"{machine['cpu']}, {machine['date']}, load average {machine['load_average']:.1f}"


# ----------------------------------------------------------------------------- Figs. 7-8

#: The legend entry of the authors' raw results' best value per setup (dotted lines).
RAW_BEST_SERIES = "authors' raw results: best value (dotted)"


def sweep_data(df: pd.DataFrame | None, param: str, time_scale: float) -> pd.DataFrame | None:
    """Fig. 7 (``param`` C) or Fig. 8 (W) in tidy form (paper Figs. 7-8): the mean victory
    margin per setup and value with 95 % CIs, series as in the legend, and the authors' best
    value per setup from their raw result files (series :data:`RAW_BEST_SERIES`, no margin)."""
    if df is None:
        return None
    s = analysis.sweep(df, param, time_scale)
    parts = []
    for (agent, T), g in s.groupby(["agent", "T"], sort=False):
        parts.append(pd.DataFrame({
            "series": f"{agent}, {T:g} s (n ≥ {int(g['n'].min())})", "setup": f"{agent}, {T:g} s",
            param: g[param], "victory margin vs 3 x FG": g["margin"], "ci_low": g["margin_lo"],
            "ci_high": g["margin_hi"], "n": g["n"]}))
    key = "fig7.C" if param == "C" else "fig8.W"
    parts.append(pd.DataFrame([{"series": RAW_BEST_SERIES, "setup": f"{a}, {T:g} s", param: best}
                               for (a, T), best in paper.RAW_BEST[key].items()]))
    return pd.concat(parts, ignore_index=True)


def sweep_figure(data: pd.DataFrame):
    """Figs. 7-8: margin against the swept value per setup, the authors' best values dotted in
    the colour of their setup's curve (:func:`sweep_data`)."""
    param = next(c for c in ("C", "W") if c in data.columns)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    colors = {}
    ours = data[data["series"] != RAW_BEST_SERIES]
    for (series, setup), g in ours.groupby(["series", "setup"], sort=False):
        h = _errorbars(ax, g, param, "victory margin vs 3 x FG", marker="o", capsize=3, label=series)
        colors[setup] = h[0].get_color()
    for r in data[data["series"] == RAW_BEST_SERIES].itertuples():
        ax.axvline(getattr(r, param), ls=":", lw=1.2, color=colors.get(r.setup, "black"))
    ax.plot([], [], ls=":", color="black", label=RAW_BEST_SERIES)
    ax.set(xlabel=param, ylabel="victory margin vs 3 x FG")
    ax.legend(fontsize=8)
    return fig


def sweep_reading(res, claims: pd.DataFrame, key: str, time_scale: float) -> str:
    """A sweep's claim in words (paper Figs. 7-8): the paper's reading, ours, the verdict and
    how level the values near the best are (analysis.level_with_best); NOT_RUN while pending."""
    cid, param = ("fig7.C", "C") if key == "fig7" else ("fig8.W", "W")
    r = _row(claims, cid)
    if not _computed(r) or res[key] is None:
        return NOT_RUN
    level = analysis.level_with_best(analysis.sweep(res[key], param, time_scale), param)
    return (f"the paper says \u201c{r['paper']}\u201d; ours: {r['ours']} on point estimates; "
            f"{level}, so the reading, judged on the values level with the best, is "
            f"**{r['verdict']}**{' so far' if str(r['note']).startswith('so far') else ''}")


# ----------------------------------------------------------------------------- beyond the paper


def _beyond(res, time_scale: float):
    bz = res["beyond"]
    if bz is None:
        return None
    T_from = BEYOND_T / 10 * time_scale  # the paper's largest budget, as this run scales it
    t3 = analysis.table3_frame(res)
    return bz, t3, T_from, analysis.beyond_trend(bz, t3, T_from)


def beyond_table(res, time_scale: float) -> pd.DataFrame | None:
    """The key strategies at 100 s per ply beside the same at 10 s and the paper's 10 s."""
    b = _beyond(res, time_scale)
    if b is None:
        return None
    bz, trend = b[0], b[3]
    t = analysis.outcomes(bz).rename(columns={"seat0": "strategy"}).set_index("strategy")
    t = t.loc[trend["strategy"]]
    paper_at = {s: paper.TABLE3[s][paper.TABLE3_T.index(BEYOND_T / 10)] for s in trend["strategy"]}
    return pd.DataFrame({
        "strategy": trend["strategy"], "games": trend["n_after"],
        "mean margin (95 % CI)": [with_ci(_signed(m), a, b, percent=False)
                                  for m, a, b in zip(trend["after"], trend["after_lo"], trend["after_hi"])],
        "wins": t["win"].map(pct).to_numpy(),
        "ours at 10 s, our rule (games)": [f"{_signed(m)} ({n})" if n else "–"
                                 for m, n in zip(trend["before"], trend["n_before"])],
        "change from 10 s (95 % CI)": [with_ci(_signed(d), a, b, percent=False) for d, a, b in
                                       zip(trend["change"], trend["change_lo"], trend["change_hi"])],
        "paper at 10 s": [_signed(paper_at[s]) for s in trend["strategy"]]})


def beyond_data(res, time_scale: float) -> pd.DataFrame | None:
    """The beyond figure in tidy form: each key strategy's mean victory margin with 95 % CIs at
    Table III's budgets (under our rule) and at ten times the largest (``budget``: which)."""
    b = _beyond(res, time_scale)
    if b is None:
        return None
    trend = b[3]
    t = _rule_rows(res, time_scale)
    parts = []
    for s in trend["strategy"] if t is not None else ():
        g = t[t["strategy"] == s]
        parts.append(pd.DataFrame({"series": s, "budget": "Table III", "seconds per ply": g["T"],
                                   "victory margin vs 3 x FG": g["margin"], "ci_low": g["margin_lo"],
                                   "ci_high": g["margin_hi"], "n": g["n"]}))
    a = trend.set_index("strategy")
    parts.append(pd.DataFrame({"series": a.index, "budget": "ten times the largest",
                               "seconds per ply": BEYOND_T, "victory margin vs 3 x FG": a["after"].to_numpy(),
                               "ci_low": a["after_lo"].to_numpy(), "ci_high": a["after_hi"].to_numpy(),
                               "n": a["n_after"].to_numpy()}))
    return pd.concat([p for p in parts if len(p)], ignore_index=True)


def beyond_figure(data: pd.DataFrame):
    """Margin against budget for the key strategies: Table III's budgets (circles) and ten
    times the largest (diamonds, shaded), :func:`beyond_data`."""
    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    y = "victory margin vs 3 x FG"
    for k, (s, g) in enumerate(data.groupby("series", sort=False)):
        curve, after = g[g["budget"] == "Table III"], g[g["budget"] != "Table III"]
        color, label = None, s
        if len(curve):
            h = _errorbars(ax, curve, "seconds per ply", y, marker="o", ms=4, capsize=2, lw=1, label=s)
            color, label = h[0].get_color(), None
            ax.plot([curve["seconds per ply"].max(), BEYOND_T], [curve[y].iloc[-1], after[y].iloc[0]],
                    ls=":", lw=1, color=color)
        nudge = 1 + 0.04 * (k - 1.5)  # the diamonds side by side, not on top of each other
        _errorbars(ax, after.assign(x=after["seconds per ply"] * nudge), "x", y, marker="D", ms=6,
                   capsize=3, color=color, label=label)
    ax.axvspan(BEYOND_T / 10 * 1.5, BEYOND_T * 1.5, color="grey", alpha=0.1, lw=0)
    ticks = [0.1, 0.3, 1, 2, 4, 10, BEYOND_T]
    ax.set(xscale="log", xlabel="budget T (s per ply; shaded: beyond the paper)", ylabel=y)
    ax.set_xticks(ticks, [f"{x:g}" for x in ticks])
    ax.minorticks_off()
    ax.axhline(0, color="grey", lw=1)
    ax.legend(loc="lower right")  # the book's font size, in the panel's empty corner
    return fig


def beyond_texts(res, params) -> dict[str, str]:
    """The two questions beyond the paper answered (``kd-beyond-readings``) and in the
    opening (``kd-beyond-short``): is MCE-FG/R still rising, does UCT-FG (UCT_W-FG) catch up."""
    b = _beyond(res, params["time_scale"])
    if b is None:
        return {"kd-beyond-readings": "", "kd-beyond-short": NOT_RUN}
    bz, t3, T_from, trend = b
    so_far = "" if trend["n_after"].min() >= params["beyond_games"] else (
        f" *(So far {int(trend['n_after'].min())}–{int(trend['n_after'].max())} of "
        f"{params['beyond_games']} games per strategy: the answers may change as the rest are "
        "computed.)*")
    rising = analysis.still_rising(trend, "MCE-FG/R")
    uct, uct_w = (analysis.catches_up(bz, t3, T_from, s, "MCE-FG/R") for s in ("UCT-FG", "UCT_W-FG"))
    # the other three strategies' own change from 10 s to 100 s, so UCT's rise is read beside the gap
    others = "; ".join(analysis.own_change(trend, s) for s in trend["strategy"] if s != "MCE-FG/R")
    return {"kd-beyond-readings": " ".join(text for _, text in (rising, uct, uct_w))
            + f" Each of the other three, from 10 s to 100 s: {others}." + so_far,
            "kd-beyond-short": f"at 100 s per ply, is MCE-FG/R still rising? *{rising[0]}*; does "
            f"UCT-FG catch up with it? *{uct[0]}*; UCT_W-FG? *{uct_w[0]}*"
            + (" (provisional)" if so_far else "")}


# ----------------------------------------------------------------------------- compute


def _game_seconds(strategy: str, T: float, rates: dict) -> float:
    """CPU seconds our engine needs for the searching player's playouts in one game at T s per
    ply under our rule (the authors' rates over ours, summed over the moves)."""
    policy = analysis.policy_of(strategy)
    if policy is None:
        return 0.0
    return sum(T * a / o for a, o in zip(paper.PLAYOUT_RATES[policy], rates[policy]))


def _left_seconds(res, exp, df, rates: dict) -> float:
    from ..core.store import core_seconds_per_task

    measured = core_seconds_per_task(exp, res.data_dir)  # the games already played, if recorded
    left = 0.0
    for cfg in exp.configs:
        if "player" in cfg:
            have = 0 if df is None else df.loc[df["key"] == exp.task_key(cfg), "index"].nunique()
            left += (exp.n - have) * (_game_seconds(cfg["player"], cfg["T"], rates)
                                      if measured is None else measured)
    return left


def _hours(h: float):
    """Hours to two decimals; a run too short for that says so instead of showing 0."""
    return round(h, 2) if h >= 0.005 or h == 0 else "< 0.01"


def compute_table(res, rates: dict) -> pd.DataFrame:
    """Each experiment's games, recorded wall time and, where games are missing, what is left
    (core-hours at the recorded core-seconds per game, else at the benchmark's rates)."""
    from ..core.store import wall_time

    rows = []
    for key, exp in res.experiments.items():
        df = res[key]
        rows.append({"experiment": experiment_label(exp.name), "games": exp.total,
                     "done": 0 if df is None else int(df.groupby("key")["index"].nunique().sum()),
                     # wall_time: every recorded run, interrupted ones included
                     "wall time (h)": _hours(wall_time(exp, res.data_dir) / 3600),
                     "estimated left (core-h)": round(_left_seconds(res, exp, df, rates) / 3600, 1)})
    out = pd.DataFrame(rows, columns=["experiment", "games", "done", "wall time (h)",
                                      "estimated left (core-h)"]).drop_duplicates("experiment", keep="last")
    if (out["done"] < out["games"]).any():
        return out
    return out.drop(columns=["done", "estimated left (core-h)"])  # nothing left to estimate


def compute_caption(table: pd.DataFrame) -> str:
    """:func:`compute_table`'s caption (what the estimate of what is left rests on)."""
    if "done" not in table:
        return "Compute per experiment"
    return ("Compute per experiment (what is left: at the core-seconds per game its recorded runs "
            "took, else at this page's benchmark; too high where those runs predate a speed-up of "
            "the engine: like-for-like UCT games before UCT kept the winners of its game-ending "
            "nodes took about twice as long)")


def table3_cost(params, rates: dict) -> str:
    """Our rule's Table III in core-hours on one core at our engine's speed."""
    total = sum(_game_seconds(s, T, rates) for s in params["table3_strategies"]
                for T in params["table3_T"]) * params["table3_games"] * params["time_scale"] / 3600
    return f"{total:,.0f} core-hours"


# ----------------------------------------------------------------------------- claims

#: The claims table's groups (claim id prefix -> heading).
CLAIM_GROUPS = {"tree.": "§II-B — the size of the game",
                "table1.": "Table I — against three TR players (wins, draws, losses, %)",
                "table2.": "Table II — mean score against three FG at 5 s per ply",
                "table3.": "Table III — mean victory margin against three FG (points)",
                "fig5.": "Fig. 5 — the paper's readings of its MCE curves (§V-E)",
                "fig": "Figs. 7–8 — UCT's parameters", "conclusion.": "Conclusions"}


def folded(cid: str, verdict: str) -> bool:
    """Table III's cells that agree with the paper, or are not computed yet, fold away in the
    claims table (its 170 cells are in the grid cell by cell); those that differ stay."""
    return cid.startswith("table3.") and verdict in ("reproduced", "consistent", "pending")


def check_claims(claims: pd.DataFrame) -> None:
    """The claims table is complete: every claim id of the spec is present, every differing,
    failing or pending claim has a note, and the table shows every claim."""
    from ..book.claims_table import claims_table

    missing = {r["claim_id"] for r in paper.claim_rows()} - set(claims["claim"])
    assert not missing, f"claims missing from claims.csv: {sorted(missing)}"
    bad = claims["verdict"].isin(["differs", "fails", "pending"])
    assert claims.loc[bad, "note"].fillna("").str.len().gt(0).all()
    shown = claims_table(claims, "kingdomino").data
    assert all(f'data-claim="{cid}"' in shown for cid in claims["claim"])


def offsets_found(res, time_scale: float) -> str:
    """The opening's line on where Table III differs under our rule: by family at the smallest
    budget (:func:`families_found`), and the budget check (:func:`budget_check_found`)."""
    fam, bc = families_found(res, time_scale), budget_check_found(res, time_scale)
    if fam == NOT_RUN:
        return NOT_RUN
    return (f"by strategy family, ours minus the paper's {fam}"
            + ("" if bc == NOT_RUN else f". Budget check: {bc}") + ".")
