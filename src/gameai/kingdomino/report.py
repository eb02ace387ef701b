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

import numpy as np
import pandas as pd

from ..core.numbers import ci_range, number
from ..core.stats import bh_reject, common_shift, holm_reject
from . import paper
from .analysis import table3
from .chapter import SHORT_T

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


def table3_family(claims: pd.DataFrame) -> str | None:
    """Table III's cells judged as a family (paper Table III): how many differ, how many chance
    alone would give, and how many after Holm's and Benjamini-Hochberg's corrections
    (:func:`gameai.core.claims.family_sentence`); None with fewer than ten judged cells."""
    from ..core.claims import family_counts, family_sentence

    counts = family_counts(claims[claims["claim"].str.startswith("table3.")])
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
    text = (offset_sentence(bands, "our like-for-like values") + ". One shift for the whole table ("
            f"{number(mu, 1, signed=True)}, 95 % CI {ci_range(lo, hi, percent=False, signed=True)}) "
            "leaves the cells scattering " + ("as" if one["p"] >= LEVEL else "more than")
            + f" chance predicts (p = {one['p']:.2g})")
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
