"""From game rows to the paper's tables and figures, and to the claims table.

Pure functions of the frames that ``chapter.results`` loads: one per table or figure, each
returning a tidy DataFrame with our value, its 95 % CI and n beside the paper's value. Margins are
the paper's victory margin (own score - best opponent's), scores are points, rates are fractions.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np
import pandas as pd

from ..core.claims import Claim, pending, qualitative, quantitative, verdict_for
from ..core.numbers import and_list, ci_range, number
from ..core.stats import mean_ci, mean_diff_ci, wilson
from . import paper
from .experiments import log10_draws
from .agents import budget

#: The paper prints margins and scores with one decimal, percentages with one decimal.
STEP = 0.1


def _mean_row(x: pd.Series) -> dict[str, float]:
    m, lo, hi = mean_ci(x.to_numpy(dtype=float))
    return {"mean": m, "lo": lo, "hi": hi, "n": int(x.size)}


def _se(cell, value: str = "margin"):
    """The standard error behind a cell's (or each row's) 95 % CI of ``value``."""
    return (cell[f"{value}_hi"] - cell[f"{value}_lo"]) / (2 * 1.96)


# ----------------------------------------------------------------------------- §II-B, Fig. 2


def mirrored_twice(df: pd.DataFrame) -> pd.Series:
    """Rows of the branching games that count a mirrored same-terrain placement twice."""
    if "mirrored_twice" not in df.columns:
        return pd.Series(False, index=df.index)
    return df["mirrored_twice"].astype(str).str.lower().eq("true")


def branching_by_round(df: pd.DataFrame) -> pd.DataFrame:
    """Fig. 2: mean legal moves per round (all seats), with a 95 % CI over games."""
    per_game = df.groupby(["round", "index"])["branching"].mean().reset_index()
    rows = [{"round": r, **_mean_row(g["branching"])} for r, g in per_game.groupby("round")]
    return pd.DataFrame(rows)


def log10_tree_size(df: pd.DataFrame) -> float:
    """log10 of prod over (seat, round) of the mean branching factor (the paper's estimate)."""
    means = df.groupby(["seat", "round"])["branching"].mean().to_numpy(dtype=float)
    return float(np.log10(means).sum())


def tree_size_ci(df: pd.DataFrame, draws: int = 400, seed: int = 0) -> tuple[float, float, float]:
    """``log10_tree_size`` with a bootstrap 95 % CI over games (resampling whole games)."""
    games = df["index"].unique()
    cube = df.pivot_table(index="index", columns=["seat", "round"], values="branching").loc[games]
    values = cube.to_numpy(dtype=float)
    rng = np.random.default_rng(seed)
    boot = [np.log10(values[rng.integers(0, len(values), len(values))].mean(axis=0)).sum()
            for _ in range(draws)]
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return log10_tree_size(df), float(lo), float(hi)


# ----------------------------------------------------------------------------- Tables I-III


def outcomes(df: pd.DataFrame, by: str | list[str] = "seat0") -> pd.DataFrame:
    """Wins, draws and losses of seat 0 (fractions with Wilson CIs) and its mean score/margin."""
    rows = []
    for key, g in df.groupby(by, sort=False):
        n = len(g)
        win, wlo, whi = wilson(int(g["win"].sum()), n)
        draw, dlo, dhi = wilson(int(g["draw"].sum()), n)
        row = dict(zip([by] if isinstance(by, str) else by, key if isinstance(key, tuple) else (key,)))
        loss, llo, lhi = wilson(n - int(g["win"].sum()) - int(g["draw"].sum()), n)
        row.update(n=n, win=win, win_lo=wlo, win_hi=whi, draw=draw, draw_lo=dlo, draw_hi=dhi,
                   loss=loss, loss_lo=llo, loss_hi=lhi)
        for col in ("score0", "margin"):
            s = _mean_row(g[col])
            row.update({col: s["mean"], f"{col}_lo": s["lo"], f"{col}_hi": s["hi"]})
        rows.append(row)
    return pd.DataFrame(rows)


def table1(df: pd.DataFrame) -> pd.DataFrame:
    """Table I: each agent against three TR players, ours beside the paper's (in %)."""
    out = outcomes(df).rename(columns={"seat0": "agent"})
    for i, what in enumerate(("win", "draw", "loss")):
        out[f"paper_{what}"] = out["agent"].map(lambda a: paper.TABLE1[a][i] / 100)
    return out


def score_by_move(df: pd.DataFrame) -> pd.DataFrame:
    """Figs. 3-4: seat 0's mean score after each of its 13 moves, per agent, with CIs."""
    cols = [f"score_m{r}" for r in range(1, 14)]
    long = df.melt(id_vars=["seat0"], value_vars=cols, var_name="move", value_name="score")
    long["move"] = long["move"].str.removeprefix("score_m").astype(int)
    rows = [{"agent": a, "move": m, **_mean_row(g["score"])}
            for (a, m), g in long.groupby(["seat0", "move"], sort=False)]
    return pd.DataFrame(rows)


def table2(df: pd.DataFrame) -> pd.DataFrame:
    """Table II: mean score against three FG players, ours beside the paper's."""
    out = outcomes(df).rename(columns={"seat0": "agent"})
    out["paper"] = out["agent"].map(lambda a: paper.TABLE2[a][0])
    return out


def interval_widths(t2: pd.DataFrame | None, t3: pd.DataFrame | None,
                    games: int = paper.TABLE3_GAMES) -> dict[str, Any]:
    """Our 95 % intervals beside the numbers the paper gives for its own: Table II's bracketed
    value per agent (from :func:`table2`) and Table III's "in the range [3.5, 6.0]" (over the
    :func:`table3` cells with all ``games`` games). Widths are hi - lo; the paper's numbers
    match our widths, not our half-widths, so its games vary as much as ours."""
    out: dict[str, Any] = {"table2": None, "table3": None}
    if t2 is not None:
        out["table2"] = pd.DataFrame({
            "agent": t2["agent"], "n": t2["n"],
            "paper": t2["agent"].map(lambda a: paper.TABLE2[a][1]),
            "width": t2["score0_hi"] - t2["score0_lo"]})
    if t3 is not None:
        full = t3[(t3["n"] >= games) & (t3["strategy"].isin(paper.TABLE3))]
        if len(full):
            w = full["margin_hi"] - full["margin_lo"]
            out["table3"] = {"cells": len(full), "lo": float(w.min()), "hi": float(w.max()),
                             "median": float(w.median())}
    return out


def table3(df: pd.DataFrame, time_scale: float = 1.0) -> pd.DataFrame:
    """Table III: mean victory margin per strategy and T with CI and n, beside the paper's
    printed value and, for UCT_B at 10 s, the authors' raw value (see ``paper``).
    ``time_scale``: the run's parameter (T in the rows is the paper's T times it)."""
    out = outcomes(df, by=["seat0", "T"]).rename(columns={"seat0": "strategy"})
    out["T"] = (out["T"] / time_scale).round(6)
    col = {float(t): i for i, t in enumerate(paper.TABLE3_T)}
    out["paper"] = [paper.TABLE3[s][col[float(t)]] if float(t) in col else math.nan
                    for s, t in zip(out["strategy"], out["T"])]
    out["paper_raw"] = [paper.TABLE3_UCT_B_10S_RAW.get(s, math.nan) if float(t) == 10 else math.nan
                        for s, t in zip(out["strategy"], out["T"])]
    out["paper_compare"] = out["paper_raw"].fillna(out["paper"])
    out["diff"] = out["margin"] - out["paper_compare"]
    return out.sort_values(["strategy", "T"]).reset_index(drop=True)


#: Strategy families of Table III, by name prefix (longest first: UCT_B before UCT).
FAMILIES = ("UCT_B", "UCT_W", "UCT", "MCE")


def pooled_offset(g: pd.DataFrame, paper_games: int = 200) -> tuple[float, float, float]:
    """Mean of (ours - paper) over the :func:`table3` rows ``g``, with a 95 % CI that counts
    both sides' sampling error: ours from each cell's CI, the paper's from the same spread over
    its ``paper_games`` games (the paper gives no per-cell CI), cells independent."""
    se = _se(g)
    sd = se * np.sqrt(g["n"])
    return _pooled_mean(g["diff"], np.sqrt(se ** 2 + sd ** 2 / paper_games))


def _pooled_mean(values, se) -> tuple[float, float, float]:
    """The mean of independent cells' ``values`` with a 95 % CI from each cell's standard
    error ``se``; NaNs without cells."""
    if len(values) == 0:
        return math.nan, math.nan, math.nan
    m = float(np.mean(values))
    half = 1.96 * float(np.sqrt((np.asarray(se) ** 2).sum())) / len(values)
    return m, m - half, m + half


def family_of(strategy: str) -> str | None:
    """``"UCT_B"`` for ``"UCT_B-FG"``: the Table III family (:data:`FAMILIES`) of a strategy."""
    return next((f for f in FAMILIES if strategy.startswith(f + "-")), None)


def policy_of(strategy: str) -> str | None:
    """``"FG"`` for ``"UCT_B-FG"`` and ``"MCE-FG/R"``: a searcher's playout policy."""
    return strategy.split("-", 1)[1].split("/")[0] if "-" in strategy else None


def family_offsets(t: pd.DataFrame, paper_games: int = 200) -> pd.DataFrame:
    """Mean of (ours - paper) over a family's strategies at each T, from :func:`table3` rows,
    with :func:`pooled_offset`'s CI."""
    rows = []
    t = t.dropna(subset=["diff"])
    fam = t["strategy"].map(family_of)
    for (f, T), g in t.assign(family=fam).dropna(subset=["family"]).groupby(["family", "T"]):
        m, lo, hi = pooled_offset(g, paper_games)
        rows.append({"family": f, "T": T, "cells": len(g), "diff": m,
                     "lo": lo, "hi": hi, "n_min": int(g["n"].min())})
    out = pd.DataFrame(rows, columns=["family", "T", "cells", "diff", "lo", "hi", "n_min"])
    order = {f: i for i, f in enumerate(("MCE", "UCT", "UCT_B", "UCT_W"))}
    return out.sort_values(["family", "T"], key=lambda c: c.map(order) if c.name == "family"
                           else c).reset_index(drop=True)


def authors_budget_ratios(T: float, moves, knowledge: bool, uct_only: bool = True) -> tuple:
    """(lowest, highest) ratio of the authors' measured mean playouts per move
    (``paper.authors_rates``) to our rule's budget (T x their 10 s rate) over Table III's
    searching strategies at ``T`` and the player's ``moves``: knowledge playouts (FG, εG, PG)
    or TR, UCT only or every searcher."""
    r = paper.authors_rates()
    r = r[(r["T"] == float(T)) & r["move"].isin(list(moves))]
    pol = r["strategy"].map(policy_of)
    r = r[(pol != "TR") if knowledge else (pol == "TR")]
    if uct_only:
        r = r[r["strategy"].str.startswith("UCT")]
    rule = [budget(policy_of(s), T, int(m)) for s, m in zip(r["strategy"], r["move"])]
    ratio = r["mean_iterations"].to_numpy() / np.asarray(rule, dtype=float)
    return float(ratio.min()), float(ratio.max())


def greedy_check(check: pd.DataFrame, lfl: pd.DataFrame, time_scale: float = 1.0) -> pd.DataFrame:
    """The authors'-greedy check beside the like-for-like column, cell by cell (strategy, T):
    ours minus the paper with FG* opponents and our greedy in the playouts (``lfl_diff``, games
    ``lfl_n``) and with FGA opponents and the authors' greedy (``check_diff``, ``check_n``),
    and the change between them in points (``change`` with a Welch 95 % CI: independent games).
    ``check`` and ``lfl`` are game rows (``greedy_check``, ``table3authors_T*``)."""
    a, b = (t.assign(se=_se(t)) for t in (table3(check, time_scale), table3(lfl, time_scale)))
    both = a.merge(b, on=["strategy", "T"], suffixes=("_c", "_l"))
    se = np.hypot(both["se_c"], both["se_l"])
    change = both["margin_c"] - both["margin_l"]
    return pd.DataFrame({
        "strategy": both["strategy"], "T": both["T"], "paper": both["paper_c"],
        "lfl_diff": both["diff_l"], "lfl_n": both["n_l"],
        "check_diff": both["diff_c"], "check_n": both["n_c"],
        "change": change, "change_lo": change - 1.96 * se, "change_hi": change + 1.96 * se,
        "playouts": np.where(both["strategy"].map(policy_of) == "TR", "TR", "greedy"),
    }).sort_values(["T", "playouts", "strategy"]).reset_index(drop=True)


def greedy_check_pooled(g: pd.DataFrame) -> pd.DataFrame:
    """:func:`greedy_check` rows pooled per budget and playout kind (TR playouts see only the
    opponents change; greedy ones the opponents and their own greedy): the mean change with a
    95 % CI (cells independent) and the mean of ours minus the paper in both settings."""
    rows = []
    for (T, kind), c in g.groupby(["T", "playouts"]):
        m, lo, hi = _pooled_mean(c["change"], _se(c, "change"))
        rows.append({"T": T, "playouts": kind, "cells": len(c), "change": m, "lo": lo, "hi": hi,
                     "lfl_diff": float(c["lfl_diff"].mean()),
                     "check_diff": float(c["check_diff"].mean()),
                     "n_min": int(c["check_n"].min())})
    return pd.DataFrame(rows, columns=["T", "playouts", "cells", "change", "lo", "hi",
                                       "lfl_diff", "check_diff", "n_min"])


def like_for_like(rule: pd.DataFrame, lfl: pd.DataFrame, paper_games: int = 200) -> pd.DataFrame:
    """Per family and T, the mean of (ours - paper) under our rule and like for like, over the
    cells computed in both (:func:`table3` rows of each), with :func:`pooled_offset`'s CIs."""
    cols = ["strategy", "T"]
    both = lfl[cols].merge(rule[cols])
    rows = []
    for name, t in (("rule", rule), ("authors", lfl)):
        t = both.merge(t).dropna(subset=["diff"])
        for (f, T), g in t.assign(family=t["strategy"].map(family_of)).groupby(["family", "T"]):
            m, lo, hi = pooled_offset(g, paper_games)
            rows.append({"setting": name, "family": f, "T": T, "cells": len(g), "diff": m,
                         "lo": lo, "hi": hi, "n_min": int(g["n"].min())})
    return pd.DataFrame(rows, columns=["setting", "family", "T", "cells", "diff", "lo", "hi",
                                       "n_min"])


def budget_offsets(check: pd.DataFrame, t3: pd.DataFrame, T: float = 0.1,
                   time_scale: float = 1.0) -> pd.DataFrame:
    """The budget check: each family's mean of (ours at a fraction of ``T`` - the paper at
    ``T``), by fraction (1 = Table III's own cell), in :func:`family_offsets`'s columns with
    ``fraction`` for ``T``. ``check``: the budget-check games; ``t3``: Table III's games."""
    ours = outcomes(check, by=["seat0", "T"]).rename(columns={"seat0": "strategy"})
    ours["T"] = (ours["T"] / time_scale).round(6)
    own = table3(t3, time_scale)
    own = own[own["T"] == T]
    cells = pd.concat([ours, own[ours.columns]], ignore_index=True)
    col = {float(t): i for i, t in enumerate(paper.TABLE3_T)}[float(T)]
    cells = cells[cells["strategy"].isin(paper.TABLE3)]
    cells["diff"] = cells["margin"] - cells["strategy"].map(lambda s: paper.TABLE3[s][col])
    out = family_offsets(cells)
    out["fraction"] = (out.pop("T") / T).round(4)
    return out


def sweep(df: pd.DataFrame, param: str, time_scale: float = 1.0) -> pd.DataFrame:
    """Figs. 7-8: mean margin per (agent, T, swept parameter) with CI."""
    out = outcomes(df, by=["seat0", "T", param]).rename(columns={"seat0": "agent"})
    out["T"] = (out["T"] / time_scale).round(6)
    return out.sort_values(["agent", "T", param]).reset_index(drop=True)


# ----------------------------------------------------------------------------- claims


def _pct(x: float) -> float:
    return 100.0 * x


#: Why a cell may differ, in general; each differing claim names its own distance too.
WHY = {
    "table1": "See the Table I section.",
    "table2": "See the Table II section.",
    "table3": "See the Table III section and its figure.",
    "tree": "See the section on the size of the game.",
}


def _reasoned(claim: Claim, why: str) -> Claim:
    """A differing claim says where the chapter discusses it (the verdict rule's own sentence,
    :func:`gameai.core.claims.verdict_note`, already says by how much)."""
    if claim.verdict != "differs":
        return claim
    return dataclasses.replace(claim, note=" ".join(p for p in (claim.note.strip(), why) if p))


def tree_claims(branching: pd.DataFrame | None) -> list[Claim]:
    draws = log10_draws()
    out = [quantitative("tree.draws", "possible draw orders, prod C(48-4i, 4) (log10)",
                        round(math.log10(paper.TREE["tree.draws"]), 3), draws, draws, draws, 1,
                        step=0.013, note="exact count; the paper prints 3.4 × 10⁴⁴")]
    if branching is None:
        return out + [pending(c, d, round(math.log10(paper.TREE[c]), 3), "branching run pending")
                      for c, d in (("tree.size", "game-tree size for a fixed shuffle (log10)"),
                                   ("tree.total", "all games, draws x tree size (log10)"))]
    twice = mirrored_twice(branching)
    size, lo, hi = tree_size_ci(branching[~twice])
    n = branching.loc[~twice, "index"].nunique()
    note = ("log10 values; CI by bootstrap over games; random (TR) play as in the paper; a "
            "same-terrain domino's mirrored placement listed once, as the rules say")
    if twice.any():
        s2, lo2, hi2 = tree_size_ci(branching[twice])
        note += (f". Counting mirrored placements twice gives {s2:.2f} [{lo2:.2f}, {hi2:.2f}] "
                 f"for the tree and {draws + s2:.2f} for all games: the paper's numbers, which so "
                 "count them")
    out.append(quantitative("tree.size", "game-tree size for a fixed shuffle (log10)",
                            round(math.log10(paper.TREE["tree.size"]), 3), size, lo, hi, n,
                            step=0.002, note=note, n_paper=paper.TREE_GAMES, unit="in log10"))
    out.append(quantitative("tree.total", "all games, draws x tree size (log10)",
                            round(math.log10(paper.TREE["tree.total"]), 3), draws + size,
                            draws + lo, draws + hi, n, step=0.004, note=note,
                            n_paper=paper.TREE_GAMES, unit="in log10"))
    return out


#: Table I's three outcomes: (claim id suffix, column, word). Wins keep the spec's id
#: (``table1.FG``); draws and losses get their own rows, each with its own CI and verdict.
TABLE1_OUTCOMES = (("", "win", "wins"), (".draws", "draw", "draws"), (".losses", "loss", "losses"))


def table1_claims(df: pd.DataFrame | None) -> list[Claim]:
    """Table I: wins, draws and losses of each agent against three TR, as three claims."""
    if df is None:
        return [pending(f"table1.{a}{suffix}", f"{a} {word} vs 3 x TR (%)", v[i],
                        "Table I run pending", step=STEP)
                for a, v in paper.TABLE1.items()
                for i, (suffix, _, word) in enumerate(TABLE1_OUTCOMES)]
    return [quantitative(f"table1.{r.agent}{suffix}", f"{r.agent} {word} vs 3 x TR (%)",
                         paper.TABLE1[r.agent][i], _pct(getattr(r, col)),
                         _pct(getattr(r, f"{col}_lo")), _pct(getattr(r, f"{col}_hi")), r.n,
                         step=STEP, n_paper=paper.TABLE1_GAMES, proportion=100)
            for r in table1(df).itertuples()
            for i, (suffix, col, word) in enumerate(TABLE1_OUTCOMES)]


def fg_quirk(df: pd.DataFrame) -> pd.DataFrame:
    """The FG-bug check: seat 0's outcomes (FG* or FG) against three FG*, with CIs."""
    return outcomes(df).rename(columns={"seat0": "agent"})


def _quirk_note(quirk: pd.DataFrame | None) -> str:
    """What the authors' FG bug explains of Table II's FG row (from :func:`fg_quirk`)."""
    if quirk is None:
        return ""
    q = fg_quirk(quirk).set_index("agent")
    if "FG*" not in q.index:
        return ""
    r, value = q.loc["FG*"], paper.TABLE2["FG"][0]
    inside = "inside" if r.score0_lo <= value <= r.score0_hi else "outside"
    return (f"the authors' FG places its last domino at random (FG*, their code): FG* against three "
            f"FG* scores {r.score0:.1f} [{r.score0_lo:.1f}, {r.score0_hi:.1f}] over {int(r.n)} "
            f"games, the paper's {value} {inside} that interval")


def greedy_self_play(games: pd.DataFrame) -> pd.DataFrame:
    """Each greedy of the authors'-greedy check against three of its own kind (FGA, FG*, FG,
    as the paper played Table II's FG row): mean score with CI and n, and the verdict of the
    paper's FG score on it (the claims' rule, both studies' sampling error counted)."""
    own = fg_quirk(games[games["seat0"] == games["seat1"]])
    value = paper.TABLE2["FG"][0]
    own["verdict"] = [verdict_for(value, r.score0_lo, r.score0_hi, STEP, ours=r.score0, n=r.n,
                                  n_paper=paper.TABLE2_GAMES) for r in own.itertuples()]
    order = {"FGA": 0, "FG*": 1, "FG": 2}
    return own.sort_values("agent", key=lambda a: a.map(order)).reset_index(drop=True)


def _authors_fg_note(self_play: pd.DataFrame | None) -> str:
    """Which greedy Table II's FG row fits, from the authors'-greedy check's self-play games
    (:func:`greedy_self_play`)."""
    if self_play is None:
        return ""
    q = greedy_self_play(self_play).set_index("agent")
    if not {"FGA", "FG*"} <= set(q.index):
        return ""

    def said(name):
        r = q.loc[name]
        return (f"{name} {r.score0:.1f} [{r.score0_lo:.1f}, {r.score0_hi:.1f}] ({int(r.n):,} "
                f"games: {r.verdict})")

    return ("each against three of its own kind, the authors' FG as their code plays it in full "
            f"(FGA: first and last domino at random) scores {said('FGA')}; with the last domino "
            f"alone at random, {said('FG*')}")


def opponents_effect(games: pd.DataFrame) -> tuple[float, float, float, int] | None:
    """How much our FG's victory margin gains against three FGA instead of three FG* (the
    authors'-greedy check's greedy games): the difference of means with its 95 % CI and the
    smaller number of games; ``None`` before both settings have games."""
    fg = games[games["seat0"] == "FG"]
    a, b = (fg[fg["seat1"] == o]["margin"] for o in ("FGA", "FG*"))
    if a.empty or b.empty:
        return None
    d, lo, hi = mean_diff_ci(a, b)
    return d, lo, hi, int(min(len(a), len(b)))


def table2_claims(df: pd.DataFrame | None, games: int,
                  quirk: pd.DataFrame | None = None,
                  self_play: pd.DataFrame | None = None) -> list[Claim]:
    """Table II's four mean scores; FG's note says what the authors' FG explains (``quirk``:
    the :func:`fg_quirk` games; ``self_play``: the authors'-greedy check's, if computed -
    the larger check, said instead)."""
    t = table2(df) if df is not None else pd.DataFrame(columns=["agent"])
    out = []
    for agent, (value, _) in paper.TABLE2.items():
        row = t[t["agent"] == agent]
        desc = f"mean score vs 3 x FG at 5 s per ply: {agent}"
        if row.empty:
            out.append(pending(f"table2.{agent}", desc, value, "Table II run pending", step=STEP))
            continue
        r = row.iloc[0]
        notes = [] if r.n >= games else [f"{r.n} of {games} games so far"]
        if agent == "FG":
            notes.append(_authors_fg_note(self_play) or _quirk_note(quirk))
        out.append(quantitative(f"table2.{agent}", desc, value, r.score0, r.score0_lo,
                                r.score0_hi, r.n, step=STEP, note="; ".join(n for n in notes if n),
                                n_paper=paper.TABLE2_GAMES, unit="points"))
    return out


#: §V-D's conclusions from Table II (``paper.READINGS``): (claim id, what we test, [(agent,
#: other, sign)]); sign +1: agent scores more than other (the gap's CI above 0), 0: no
#: significant gap (its CI covers 0).
TABLE2_CONCLUSIONS = (
    ("table2.mce_beats_fg", "MCE-TR scores more than FG with every scoring function",
     [("MCE-TR/WDL", "FG", 1), ("MCE-TR/P", "FG", 1), ("MCE-TR/R", "FG", 1)]),
    ("table2.wdl_lowest", "MCE-TR/WDL scores less than MCE-TR/P and MCE-TR/R",
     [("MCE-TR/P", "MCE-TR/WDL", 1), ("MCE-TR/R", "MCE-TR/WDL", 1)]),
    ("table2.p_like_r", "MCE-TR/P and MCE-TR/R score alike", [("MCE-TR/P", "MCE-TR/R", 0)]),
)


def table2_conclusions(df: pd.DataFrame | None, games: int) -> list[Claim]:
    """§V-D's three readings of Table II as claims in words, judged on the mean-score gaps
    between agents (independent games, Welch 95 % CI); pending until every agent has all
    ``games`` games."""
    counts = {} if df is None else df.groupby("seat0").size().to_dict()
    complete = all(counts.get(a, 0) >= games for a in paper.TABLE2)
    out = []
    for cid, desc, pairs in TABLE2_CONCLUSIONS:
        words = paper.READINGS[cid]
        if not complete:
            out.append(pending(cid, desc, words, "Table II run pending"))
            continue
        parts, holds = [], True
        for a, b, sign in pairs:
            d, lo, hi = mean_diff_ci(df.loc[df["seat0"] == a, "score0"],
                                     df.loc[df["seat0"] == b, "score0"])
            holds &= bool(lo > 0 if sign > 0 else lo <= 0 <= hi)
            parts.append(f"{a} − {b}: {d:+.1f} [{lo:+.1f}, {hi:+.1f}]")
        out.append(qualitative(cid, desc, words, "; ".join(parts), holds, games,
                               note="mean-score gaps in points with 95 % CIs, "
                                    f"{games} games per agent (§V-D)"))
    return out


def _cell(t: pd.DataFrame, strategy: str, T: float) -> Any:
    row = t[(t["strategy"] == strategy) & (t["T"] == float(T))]
    return None if row.empty else row.iloc[0]


#: How a Table III cell's note says the cell is judged like for like (the chapter counts them).
LIKE_FOR_LIKE_NOTE = "like for like (the authors' move order, budgets and FG* opponents)"
#: How the note of a reading of Table III judged on the like-for-like games begins.
JUDGED_LIKE_FOR_LIKE = f"judged {LIKE_FOR_LIKE_NOTE}"


def table3_claims(df: pd.DataFrame | None, games: int, time_scale: float = 1.0,
                  authors: pd.DataFrame | None = None,
                  authors_games: pd.DataFrame | None = None) -> list[Claim]:
    """Table III's 170 cells. Each is judged on the like-for-like column (``authors``: the
    authors' move order, measured budgets and FG* opponents) where that cell has games, with
    our rule's value in the note; else on our rule, and the note says so. Beside the rule, the
    note of a like-for-like cell judges it on both studies' games (``authors_games``: the
    authors' own, ``paper.authors_games``): a Welch test and a rank test
    (``report.game_tests``)."""
    from .report import game_test_note, game_tests

    t = table3(df, time_scale) if df is not None else pd.DataFrame(columns=["strategy", "T"])
    a = (table3(authors, time_scale) if authors is not None
         else pd.DataFrame(columns=["strategy", "T"]))
    tests = ({} if authors is None or authors_games is None else
             {(r.strategy, r.T): game_test_note(r)
              for r in game_tests(authors, authors_games, time_scale).itertuples()})
    out = []
    for strategy, values in paper.TABLE3.items():
        for T, value in zip(paper.TABLE3_T, values):
            cid = f"table3.{strategy}.{T:g}"
            desc = f"mean victory margin vs 3 x FG: {strategy} at {T:g} s per ply"
            raw = paper.TABLE3_UCT_B_10S_RAW.get(strategy) if T == 10 else None
            if raw is not None:  # the paper column holds a number the paper does not print
                desc += f" (paper column: the authors' raw result; the paper prints {value:+.1f})"
            rule, lfl = _cell(t, strategy, T), _cell(a, strategy, T)
            notes = []
            if raw is not None:
                notes.append(f"compared with the authors' raw UCT_B 10 s value {raw:+.1f}; the "
                             f"paper prints {value:+.1f}, UCT_W's")
            r = lfl if lfl is not None else rule
            if r is None:
                notes.append("not computed yet: `gameai run kingdomino` computes it")
                out.append(pending(cid, desc, value if raw is None else raw, "; ".join(notes),
                                   step=STEP))
                continue
            if lfl is not None:
                notes.append(LIKE_FOR_LIKE_NOTE + (f", {int(lfl.n)} of {games} games so far"
                                                   if lfl.n < games else ""))
                if rule is not None:
                    notes.append(f"our rule: {number(rule.margin, 1, signed=True)} "
                                 f"({ci_range(rule.margin_lo, rule.margin_hi, percent=False, signed=True)})")
            else:
                notes.append("judged on our rule: the like-for-like cell is not computed yet"
                             + (f"; {int(rule.n)} of {games} games so far"
                                if rule.n < games else ""))
            c = quantitative(cid, desc, value if raw is None else raw, r.margin,
                             r.margin_lo, r.margin_hi, r.n, step=STEP,
                             note="; ".join(notes) + ".", n_paper=paper.TABLE3_GAMES,
                             unit="points")
            if c.verdict == "differs":
                cause = differs_cause(strategy, T, like_for_like=lfl is not None)
                c = dataclasses.replace(c, note=f"{c.note} {cause}")
            both = tests.get((strategy, float(T)), "") if lfl is not None else ""
            if both:  # the game-level test, beside the rule's verdict
                c = dataclasses.replace(c, note=f"{c.note} {both}.{_why_both(c.verdict, both)}")
            out.append(c)
        if strategy == "FG":
            has_fg = authors is not None and (authors["seat0"] == "FG").any()
            out.append(fg_pooled_claim(authors if has_fg else df, games))
    return out


def _why_both(verdict: str, both: str) -> str:
    """A sentence for a cell whose verdict and game-level test disagree (empty otherwise)."""
    if (verdict == "differs") == both.endswith("differs at 5 %"):
        return ""
    return (" The verdict and this test disagree: the verdict compares ours with the value the "
            "paper prints, the test our games with the authors' own.")


def fg_pooled_claim(df: pd.DataFrame | None, games: int) -> Claim:
    """FG ignores the budget, and the paper prints one value, −9.0, in all ten columns of its
    FG row: our ten FG cells are ten samples of one number. Pooled, they judge that value with
    ten times the games (like for like where computed, as the cells are)."""
    cid, desc = "table3.FG.pooled", "mean victory margin vs 3 x FG: FG, all budgets pooled"
    value = paper.TABLE3["FG"][0]
    fg = None if df is None else df.loc[df["seat0"] == "FG", "margin"]
    if fg is None or fg.empty:
        return pending(cid, desc, value, "the FG cells are not computed yet", step=STEP)
    m, lo, hi = mean_ci(fg)
    full = len(fg) >= games * len(paper.TABLE3_T)
    note = (f"FG does not use the budget, and the paper prints {value:+.1f} in every column: our "
            f"{len(fg):,} FG games of all budgets pooled"
            + ("" if full else f" ({games * len(paper.TABLE3_T):,} when complete)")
            + "; a single FG cell that differs is one of ten samples of this number.")
    return quantitative(cid, desc, value, m, lo, hi, len(fg), step=STEP, note=note,
                        n_paper=paper.TABLE3_GAMES, unit="points")


#: Budgets (s) at or below which UCT with knowledge playouts (FG, PG, εG) gets fewer iterations
#: per move than it has legal moves, so that the expansion order decides which moves are tried.
MOVE_ORDER_MATTERS_T = 0.3


def differs_cause(strategy: str, T: float, like_for_like: bool) -> str:
    """Which of the three setup differences between our Table III and the authors' can still
    explain a *differs* cell: none where the cell is judged like for like; else the opponents
    and the budgets always, and the move order for UCT with knowledge playouts at short budgets
    (where UCT tries moves in list order and cannot try them all)."""
    if like_for_like:
        return ("Cause: none of the three setup differences remains here (the authors' move "
                "order, budgets and FG* opponents are all used); what remains is chance among "
                "Table III's many cells (the table's heading gives the count after correction) "
                "or an offset of the whole table: against the authors' own games our opponents "
                "score more than theirs at every budget (the chapter's section on the authors' "
                "own games).")
    causes = ["the opponents (our FG, not the authors' FG*)",
              "the budgets (T × the authors' 10 s rate, not their measured playouts per move)"]
    if strategy.startswith("UCT") and not strategy.endswith("-TR") and T <= MOVE_ORDER_MATTERS_T:
        causes.append("the move order (ours placement-major, the authors' pick-major)")
    return "Cause: judged on our rule, so " + and_list(causes) + " may each remain."


def _best(t: pd.DataFrame, value: str = "margin") -> Any:
    return t.loc[t[value].idxmax()]


def _gap_half(a, b):
    """Half-width of the 95 % CI of the gap between cells ``a`` and ``b`` (either may be rows),
    from their own CIs: a gap up to it is level (within the sampling error)."""
    return 1.96 * np.sqrt(_se(a) ** 2 + _se(b) ** 2)


def _level_sets(s: pd.DataFrame, param: str) -> dict[tuple[str, float], list[float]]:
    """For each setup of a sweep (:func:`sweep` rows): the values of ``param`` whose margin is
    level with the best one's (the 95 % CI of the gap, from the two cells' CIs, covers 0)."""
    out = {}
    for (a, T), g in s.groupby(["agent", "T"]):
        b = _best(g)
        out[(a, float(T))] = sorted(g.loc[b["margin"] - g["margin"] <= _gap_half(g, b), param])
    return out


def level_with_best(s: pd.DataFrame, param: str) -> str:
    """:func:`_level_sets` in words - how much the argmax can be trusted with 200 games per
    point."""
    return f"{param} level with the best (gap CI covers 0): " + "; ".join(
        f"{a} {T:g} s: {', '.join(f'{v:g}' for v in level)}"
        for (a, T), level in _level_sets(s, param).items())


def _range_verdict(levels: dict, in_range: Callable[[str, float], bool]) -> bool | None:
    """A sweep's reading judged on the values level with each setup's best (``levels``:
    :func:`_level_sets`): True (holds) when in every setup only values in the paper's range
    (``in_range(agent, value)``) are level with the best; False (fails) when in some setup
    none is - every value in the range is then significantly worse than the best; None
    (undecided) otherwise."""
    inside = [[in_range(a, v) for v in level] for (a, _), level in levels.items()]
    if any(not any(x) for x in inside):
        return False
    return True if all(all(x) for x in inside) else None


# The paper's readings as ranges: Fig. 7, C per setup - few playouts (FG) want C >= 1, many
# (TR) C in 0.3-0.6; Fig. 8, W in 0.1-0.2 for every setup.
def _fig7_range(agent: str, c: float) -> bool:
    return c >= 1 if agent.endswith("FG") else 0.3 <= c <= 0.6


def _fig8_range(agent: str, w: float) -> bool:
    return 0.1 <= w <= 0.2


#: How a sweep's reading is judged (the claims' notes).
SWEEP_RULE = ("judged on the values level with each setup's best: holds if in every setup only "
              "values in the paper's range are, fails if in some setup none is (all of them "
              "significantly worse than the best), undecided otherwise")


def _so_far(s: pd.DataFrame, games: int | None) -> str:
    """A sweep judged before every point has its ``games`` says so."""
    if games is None or s["n"].min() >= games:
        return ""
    return (f"so far: {s['n'].min()}-{s['n'].max()} of {games} games per point, the verdict may "
            "change; ")


def sweep_claims(fig7: pd.DataFrame | None, fig8: pd.DataFrame | None,
                 time_scale: float = 1.0, games: int | None = None) -> list[Claim]:
    """Figs. 7-8: the paper's reading of the best C and W per setup, judged on the values
    level with the best (:func:`_range_verdict`); the best values (point estimates) in
    ``ours``; ``games``: per point when complete."""
    out = []
    for df, cid, param, desc, in_range, words in (
            (fig7, "fig7.C", "C", "UCT's best C by budget", _fig7_range,
             "UCT-FG (few playouts): C >= 1; UCT-TR (many playouts): C in 0.3-0.6"),
            (fig8, "fig8.W", "W", "UCT_W's best W", _fig8_range, "W in 0.1-0.2 in every setup")):
        if df is None:
            out.append(pending(cid, desc, paper.QUALITATIVE[cid],
                               f"Fig. {cid[3]} run pending"))
            continue
        s = sweep(df, param, time_scale)
        best = {(a, T): _best(g)[param] for (a, T), g in s.groupby(["agent", "T"])}
        text = "; ".join(f"{a} {T:g} s: best {param} = {v:g}" for (a, T), v in best.items())
        out.append(qualitative(cid, desc, paper.QUALITATIVE[cid], text,
                               _range_verdict(_level_sets(s, param), in_range),
                               int(s["n"].sum()),
                               note=_so_far(s, games) + f"the paper's range: {words}; "
                                    + SWEEP_RULE + "; " + level_with_best(s, param) + ". "
                                    + raw_data_note(s, param, cid, in_range)))
    return out


def raw_data_note(s: pd.DataFrame, param: str, cid: str,
                  in_range: Callable[[str, float], bool]) -> str:
    """Figs. 7-8: the authors' own raw results (``paper.RAW_BEST``): the best value of
    ``param`` per setup in their files (point estimates), how many lie outside the paper's
    range, and whether ours is level with each (the raw best lies among our values level with
    our best, :func:`_level_sets`)."""
    raw = paper.RAW_BEST[cid]
    levels = _level_sets(s, param)
    agree = [round(v, 6) in {round(x, 6) for x in levels[key]}
             for key, v in raw.items() if key in levels]
    outside = sum(not in_range(a, v) for (a, _), v in raw.items())
    raw_text = "; ".join(f"{a} {T:g} s: {param} = {v:g}" for (a, T), v in raw.items())
    verdict = ("ours is level with it in every setup" if agree and all(agree) else
               f"ours is level with it in {sum(agree)} of {len(agree)} setups")
    return (f"The authors' own raw results (kdom-ai, experiments/runs) put the best {param} at "
            f"{raw_text} (point estimates; {outside} of {len(raw)} outside the paper's range): "
            f"{verdict}.")


def _ahead(a: Any, b: Any) -> bool | None:
    """Cell ``a`` against cell ``b`` (rows with a margin and its CI): True when a's margin is
    significantly above b's (the 95 % CI of the gap, from the two cells' CIs, above 0), False
    when significantly below, None when level."""
    gap, half = a["margin"] - b["margin"], float(_gap_half(a, b))
    return True if gap > half else False if gap < -half else None


def _all_budgets(per_T: list[bool | None]) -> bool | None:
    """A reading judged at every budget: holds when it holds at each, fails when it fails at
    one, undecided otherwise (and with no budget)."""
    if not per_T:
        return None
    if any(x is False for x in per_T):
        return False
    return True if all(x is True for x in per_T) else None


def _tally(per_T: list[bool | None], yes: str, no: str) -> str:
    """How many budgets read each way ("ahead at 8, level at 2")."""
    counts = [(sum(x is True for x in per_T), yes), (sum(x is None for x in per_T), "level"),
              (sum(x is False for x in per_T), no)]
    return ", ".join(f"{w} at {k}" for k, w in counts if k)


def conclusion_claims(t3: pd.DataFrame | None, time_scale: float = 1.0) -> list[Claim]:
    """§VI's conclusions, judged per budget on the gaps between Table III cells (95 % CI of
    each gap from the two cells' CIs): the best MCE variant against the best UCT variant, and
    the MCE variant the paper names against every other MCE variant."""
    ids = ("conclusion.mce_beats_uct", "conclusion.tr_short_fg_long")
    if t3 is None:
        return [pending(c, c, paper.QUALITATIVE[c], "Table III pending") for c in ids]
    t = table3(t3, time_scale)
    per_T = []  # (T, best MCE variant, best MCE ahead of the best UCT?)
    named_per_T = []  # (T, named variant ahead of every other MCE variant?)
    gaps = []  # budgets where the variant the paper names is not the best: how far behind
    for T, g in t.groupby("T"):
        mce = g[g["strategy"].str.startswith("MCE")]
        uct = g[g["strategy"].str.startswith("UCT")]
        if not (len(mce) and len(uct)):
            continue
        best = _best(mce)
        per_T.append((T, best["strategy"], _ahead(best, _best(uct))))
        named = _paper_best(T)
        if named is None or not (mce["strategy"] == named).any():
            continue
        row = mce[mce["strategy"] == named].iloc[0]
        others = [_ahead(row, o) for _, o in mce[mce["strategy"] != named].iterrows()]
        named_per_T.append((T, _all_budgets(others) if others else True))
        if best["strategy"] != named:
            gaps.append(_gap_to_best(T, row, best))
    missing = [T for T in paper.TABLE3_T if all(abs(T - t_) > 1e-9 for t_, *_ in per_T)]
    so_far = ("" if not missing else
              f"; so far: T = {', '.join(f'{T:g}' for T in missing)} s not complete yet, and "
              "the verdict may change when they are")
    beats = [x for _, _, x in per_T]
    out = [qualitative(ids[0], "best MCE vs every UCT, per T", paper.QUALITATIVE[ids[0]],
                       f"best MCE against the best UCT: {_tally(beats, 'ahead', 'behind')} of "
                       f"{len(per_T)} budgets computed (of {len(paper.TABLE3_T)})",
                       _all_budgets(beats), int(t["n"].sum()),
                       note="per budget, the best MCE variant's margin minus the best UCT "
                            "variant's with a 95 % CI from the two cells' CIs (both picked as "
                            "the best on these games, so the gap is if anything overstated): "
                            "holds if it is above 0 at every budget, fails if below 0 at one, "
                            "undecided otherwise" + so_far)]
    named_ok = [x for _, x in named_per_T]
    text = ", ".join(f"{T:g} s: {st}" for T, st, _ in per_T)
    if named_per_T:
        text += (f"; the named variant against every other: "
                 f"{_tally(named_ok, 'ahead', 'behind')} of {len(named_per_T)} budgets judged")
    out.append(qualitative(ids[1], "best MCE variant by budget", paper.QUALITATIVE[ids[1]],
                           text or "no budget computed",
                           _all_budgets(named_ok) if any(T < 0.5 for T, _ in named_per_T)
                           and any(T >= 2 for T, _ in named_per_T) else None,
                           int(t["n"].sum()),
                           note="the best MCE variant per budget on point estimates; judged "
                                "at every budget below 0.5 s (MCE-TR/R named) and from 2 s "
                                "(MCE-FG/R): the named variant's margin minus every other MCE "
                                "variant's, 95 % CIs from the two cells' CIs; holds if the "
                                "named one is ahead of every other at every budget, fails if "
                                "another is ahead of it at one, undecided otherwise" + so_far
                                + "".join(f"; {x}" for x in gaps)))
    return out


def _paper_best(T: float) -> str | None:
    """The best MCE variant at ``T`` by the paper's conclusion (None between 0.5 and 2 s)."""
    return "MCE-TR/R" if T < 0.5 else "MCE-FG/R" if T >= 2 else None


def _gap_to_best(T: float, named: Any, best: Any) -> str:
    """How far the variant the paper names is behind the best at ``T``, and whether that gap
    is inside the sampling error (95 % CI of the gap from the two cells' CIs covers 0)."""
    gap = best["margin"] - named["margin"]
    half = float(_gap_half(named, best))
    level = "level: the gap's 95 % CI covers 0" if gap <= half else "a significant gap"
    return (f"at {T:g} s {named['strategy']} is {gap:.1f} points behind {best['strategy']} "
            f"(±{half:.1f}, {level})")


#: §V-E's readings of Fig. 5 (``paper.READINGS``; Table III's MCE and FG rows): (claim id, what
#: we test, [(budgets, a, b, relation)]). Relation ">": a's margin above b's - the mean gap
#: over those budgets has a 95 % CI above 0 and every budget's gap is above 0 ("consistently");
#: "~": level - the mean gap's CI covers 0. Budgets not computed yet are left out ("so far").
_ABOVE_0P1 = tuple(float(t) for t in paper.TABLE3_T if t > 0.1)
FIG5_READINGS = (
    ("fig5.fg_tight", "at 0.1 s FG not told apart from MCE-TR/R and ahead of the other MCE players",
     [((0.1,), "FG", "MCE-TR/R", "~")]
     + [((0.1,), "FG", s, ">") for s in ("MCE-FG/R", "MCE-PG/R", "MCE-εG/R")]),
    # "the best knowledge-based statistical evaluators ... consistently outperform the random
    # playout policy for move times > 1s": the best two, MCE-FG/R and MCE-PG/R.
    ("fig5.knowledge_after_1s", "MCE-FG/R and MCE-PG/R ahead of MCE-TR/R at every budget above 1 s",
     [(tuple(float(t) for t in paper.TABLE3_T if t > 1), s, "MCE-TR/R", ">")
      for s in ("MCE-FG/R", "MCE-PG/R")]),
    ("fig5.own_moves_first", "MCE-PG/R ahead of MCE-εG/R at every budget",
     [(tuple(float(t) for t in paper.TABLE3_T), "MCE-PG/R", "MCE-εG/R", ">")]),
    ("fig5.fg_vs_pg", "MCE-PG/R ahead of MCE-FG/R at 0.1 s, behind it at every larger budget",
     [((0.1,), "MCE-PG/R", "MCE-FG/R", ">"), (_ABOVE_0P1, "MCE-FG/R", "MCE-PG/R", ">")]),
)


def _cell_gaps(t: pd.DataFrame, Ts, a: str, b: str, value: str = "margin") -> pd.DataFrame:
    """Per budget in ``Ts`` computed for both: a's margin minus b's, its standard error (cells
    independent, each cell's CI its error) and the same gap in the paper's Table III."""
    cell = t.set_index(["strategy", "T"])
    rows = []
    for T in Ts:
        if (a, T) not in cell.index or (b, T) not in cell.index:
            continue
        ra, rb = cell.loc[(a, T)], cell.loc[(b, T)]
        se = math.hypot(_se(ra, value), _se(rb, value))
        rows.append({"T": T, "gap": ra[value] - rb[value], "se": se, "n_a": ra["n"],
                     "n_b": rb["n"], "paper_gap": ra["paper_compare"] - rb["paper_compare"]})
    return pd.DataFrame(rows, columns=["T", "gap", "se", "n_a", "n_b", "paper_gap"])


def fig5_readings(t3: pd.DataFrame | None, time_scale: float = 1.0) -> list[Claim]:
    """§V-E's four readings of Fig. 5 as claims in words (:data:`FIG5_READINGS`), each judged
    on the gaps between Table III cells, with the same gaps in the paper's table in the note."""
    t = table3(t3, time_scale) if t3 is not None else None
    out = []
    for cid, desc, parts in FIG5_READINGS:
        texts, theirs, holds, short = [], [], True, False
        games = {}  # (strategy, T) -> games: a cell in several comparisons counts once
        for Ts, a, b, rel in parts:
            g = pd.DataFrame() if t is None else _cell_gaps(t, Ts, a, b)
            if g.empty:
                short = True
                continue
            short |= len(g) < len(Ts)
            m = float(g["gap"].mean())
            half = 1.96 * math.sqrt(float((g["se"] ** 2).sum())) / len(g)
            lo, hi = m - half, m + half
            holds &= bool(lo > 0 and (g["gap"] > 0).all()) if rel == ">" else bool(lo <= 0 <= hi)
            for r in g.itertuples():
                games[(a, r.T)], games[(b, r.T)] = int(r.n_a), int(r.n_b)
            where = f"{g['T'].iat[0]:g} s" if len(g) == 1 else f"mean over {len(g)} budgets"
            spread = "" if len(g) == 1 else (f", per budget {g['gap'].min():+.1f} to "
                                             f"{g['gap'].max():+.1f}")
            texts.append(f"{a} − {b} {where}: {m:+.1f} [{lo:+.1f}, {hi:+.1f}]{spread}")
            theirs.append(f"{g['paper_gap'].mean():+.1f}")
        if not texts:
            out.append(pending(cid, desc, paper.READINGS[cid], "Table III pending"))
            continue
        note = ("margin gaps in points with 95 % CIs; 'ahead' needs the CI above 0 and every "
                "budget's gap above 0, 'not told apart' a CI that covers 0 (no test of "
                f"equivalence); the same gaps in the paper's table: {', '.join(theirs)}")
        if short:
            note += "; so far: some budgets not complete yet, the verdict may change"
        out.append(qualitative(cid, desc, paper.READINGS[cid], "; ".join(texts), holds,
                               sum(games.values()), note=note))
    return out


#: The playout policies of Table III's searching strategies.
POLICIES = ("TR", "FG", "PG", "εG")
#: Below this budget the paper expects the UCT enhancements to help (§V-G: "t < 0.2s").
ENHANCEMENTS_TIGHT_T = 0.2


def enhancement_gaps(t: pd.DataFrame) -> pd.DataFrame:
    """Per budget T: the mean over the 8 (enhancement, policy) pairs of UCT_B-X or UCT_W-X
    minus UCT-X, ours with a 95 % CI (cells independent, each cell's CI its error) and the
    paper's from its Table III; from :func:`table3` rows. Only T with all 12 UCT cells."""
    rows = []
    for T, g in t.groupby("T"):
        cell = g.set_index("strategy")
        pairs = [(f"{e}-{x}", f"UCT-{x}") for e in ("UCT_B", "UCT_W") for x in POLICIES]
        if not all(a in cell.index and b in cell.index for a, b in pairs):
            continue
        se = lambda s: _se(cell.loc[s])
        gaps = [cell.at[a, "margin"] - cell.at[b, "margin"] for a, b in pairs]
        # each UCT-X is in two pairs, so it enters the sum twice: 4 x its variance in all
        var = sum(se(a) ** 2 for a, _ in pairs) + 4 * sum(se(f"UCT-{x}") ** 2 for x in POLICIES)
        half = 1.96 * math.sqrt(var) / len(pairs)
        m = float(np.mean(gaps))
        theirs = [cell.at[a, "paper_compare"] - cell.at[b, "paper_compare"] for a, b in pairs]
        games = sum(int(cell.at[s_, "n"]) for s_ in {s_ for p in pairs for s_ in p})
        rows.append({"T": T, "gap": m, "lo": m - half, "hi": m + half,
                     "paper_gap": float(np.mean(theirs)), "n": games})
    return pd.DataFrame(rows, columns=["T", "gap", "lo", "hi", "paper_gap", "n"])


def enhancements_claim(t3: pd.DataFrame | None, time_scale: float = 1.0) -> Claim:
    """§V-G: the UCT enhancements help at t < 0.2 s and are on par with UCT otherwise. Holds
    when the mean gap (enhanced minus plain UCT, :func:`enhancement_gaps`) is above 0 at every
    budget below 0.2 s and its CI covers 0 at every larger budget computed."""
    cid = "conclusion.enhancements_short"
    desc = "UCT_B and UCT_W ahead of plain UCT below 0.2 s, not told apart from it above"
    g = enhancement_gaps(table3(t3, time_scale)) if t3 is not None else pd.DataFrame()
    if g.empty or not (g["T"] < ENHANCEMENTS_TIGHT_T).any():
        return pending(cid, desc, paper.READINGS[cid], "Table III at 0.1 s pending")
    tight = g[g["T"] < ENHANCEMENTS_TIGHT_T]
    rest = g[g["T"] >= ENHANCEMENTS_TIGHT_T]
    holds = bool((tight["lo"] > 0).all() and ((rest["lo"] <= 0) & (rest["hi"] >= 0)).all())
    text = "; ".join(f"{r.T:g} s: {r.gap:+.1f} [{r.lo:+.1f}, {r.hi:+.1f}]" for r in g.itertuples())
    theirs = ", ".join(f"{r.T:g} s {r.paper_gap:+.1f}" for r in g.itertuples())
    missing = len(paper.TABLE3_T) - len(g)
    so_far = "" if not missing else (f"; so far: {missing} budgets not complete yet, the "
                                     "verdict may change")
    return qualitative(cid, desc, paper.READINGS[cid], text, holds, int(g["n"].sum()),
                       note="mean over the 8 pairs (UCT_B or UCT_W, each playout policy) of "
                            "the enhanced minus the plain UCT margin, points with 95 % CIs; the "
                            f"paper's own Table III gives {theirs}{so_far}")


# ----------------------------------------------------------------------------- beyond the paper


def beyond_trend(beyond: pd.DataFrame, t3: pd.DataFrame | None, T_from: float) -> pd.DataFrame:
    """Each beyond-the-paper strategy's margin at the paper's largest budget ``T_from`` (its
    Table III games; ``T_from`` as the run's scaled T) and at ten times it (the ``beyond``
    games), and the change with a Welch 95 % CI (the two sets of games are independent)."""
    rows = []
    for s, g in beyond.groupby("seat0", sort=False):
        before = (t3.loc[(t3["seat0"] == s) & np.isclose(t3["T"], T_from), "margin"]
                  if t3 is not None else pd.Series(dtype=float))
        m0, lo0, hi0 = mean_ci(before)  # NaN when the 10 s games are missing, and so is the change
        m1, lo1, hi1 = mean_ci(g["margin"])
        d, dlo, dhi = mean_diff_ci(g["margin"], before)
        rows.append({"strategy": s, "n_before": len(before), "before": m0, "before_lo": lo0,
                     "before_hi": hi0, "n_after": len(g), "after": m1, "after_lo": lo1,
                     "after_hi": hi1, "change": d, "change_lo": dlo, "change_hi": dhi})
    return pd.DataFrame(rows)


def _signed(x: float) -> str:
    return number(x, signed=True)


def _interval(lo: float, hi: float) -> str:
    return f"(95 % CI {ci_range(lo, hi, percent=False)})"


def still_rising(trend: pd.DataFrame, strategy: str) -> tuple[str, str]:
    """The spec's first question, answered from :func:`beyond_trend`: does ``strategy``'s
    margin go on rising from the paper's largest budget to ten times it? The verdict, and
    a sentence with the numbers behind it."""
    r = trend.set_index("strategy").loc[strategy]
    if math.isnan(r["change_lo"]):
        return "not known yet", f"{strategy}: not enough games at both budgets yet to say."
    verdict = ("yes, still rising" if r["change_lo"] > 0 else
               "no, it falls" if r["change_hi"] < 0 else
               "no change we can tell from sampling error")
    return verdict, (f"Is {strategy} still rising? **{verdict}**: {_signed(r['before'])} at the "
                     f"paper's largest budget ({int(r['n_before'])} games), {_signed(r['after'])} "
                     f"at ten times it ({int(r['n_after'])} games), a change of "
                     f"{_signed(r['change'])} points {_interval(r['change_lo'], r['change_hi'])}.")


def own_change(trend: pd.DataFrame, strategy: str) -> str:
    """:func:`still_rising`'s verdict for ``strategy`` in a few words, for a list of strategies:
    the verdict, then the change and its CI when both budgets have games enough."""
    r = trend.set_index("strategy").loc[strategy]
    verdict, _ = still_rising(trend, strategy)
    numbers = ("" if math.isnan(r["change_lo"]) else
               f" ({_signed(r['change'])}, 95 % CI {ci_range(r['change_lo'], r['change_hi'], percent=False)})")
    return f"{strategy}: *{verdict}*{numbers}"


def catches_up(beyond: pd.DataFrame, t3: pd.DataFrame | None, T_from: float,
               chaser: str, leader: str) -> tuple[str, str]:
    """The spec's second question: does ``chaser`` close its gap to ``leader`` with ten times
    the budget? The gap (leader minus chaser) at each budget with its Welch CI, and the change
    of the gap (the four sets of games are independent, so its variance is the sum). The
    verdict, and a sentence with the numbers behind it."""
    def gap(df):  # its CI is NaN with fewer than 2 games a side
        return mean_diff_ci(df.loc[df["seat0"] == leader, "margin"],
                            df.loc[df["seat0"] == chaser, "margin"])

    at = t3[np.isclose(t3["T"], T_from)] if t3 is not None else beyond.iloc[:0]
    g0, lo0, hi0 = gap(at)
    g1, lo1, hi1 = gap(beyond)
    if math.isnan(lo0) or math.isnan(lo1):
        return "not known yet", f"{chaser} against {leader}: not enough games at both budgets yet to say."
    half = math.hypot(hi0 - g0, hi1 - g1)
    d, dlo, dhi = g1 - g0, g1 - g0 - half, g1 - g0 + half
    verdict = ("yes, it overtakes" if hi1 < 0 else
               "yes, level with it" if lo1 <= 0 else
               "it closes part of the gap" if dhi < 0 else
               "no, the gap widens" if dlo > 0 else
               "no, still behind")
    return verdict, (f"Does {chaser} catch up with {leader}? **{verdict}**: the gap, {leader}'s "
                     f"margin minus {chaser}'s, is {_signed(g0)} points {_interval(lo0, hi0)} at the "
                     f"paper's largest budget and {_signed(g1)} {_interval(lo1, hi1)} at ten times "
                     f"it; it changes by {_signed(d)} points {_interval(dlo, dhi)}.")


def table3_frame(res, prefix: str = "table3_T") -> pd.DataFrame | None:
    """Every Table III game row of ``res`` so far (all columns), or ``None`` if there is none;
    ``prefix="table3authors_T"``: the like-for-like Table III's."""
    frames = [df for key, df in res.frames.items() if key.startswith(prefix) and df is not None]
    return pd.concat(frames, ignore_index=True) if frames else None


def complete_columns(t3: pd.DataFrame | None, games: int) -> pd.DataFrame | None:
    """The Table III game rows of the budgets (columns) whose every cell has ``games`` games:
    what the readings across cells are judged on (a column of 25 games a cell would turn
    them on noise); ``None`` when no column is complete."""
    if t3 is None:
        return None
    n = t3.groupby(["T", "seat0"]).size().groupby(level="T").min()
    keep = n.index[n >= games]
    out = t3[t3["T"].isin(keep)]
    return out if len(out) else None


def build_claims(res) -> list[Claim]:
    """Every claim id of the spec, from whatever ``res`` holds (missing ones as pending).
    Table III's cells are claimed with whatever games they have (their n said); the readings
    across cells use complete columns only (:func:`complete_columns`)."""
    t3, scale = table3_frame(res), res.params["time_scale"]
    t3a = table3_frame(res, "table3authors_T")
    full = complete_columns(t3, res.params["table3_games"])
    full_a = complete_columns(t3a, res.params["table3_games"])

    def readings(t):
        return [*fig5_readings(t, scale), *conclusion_claims(t, scale),
                enhancements_claim(t, scale)]

    return [
        *(_reasoned(c, WHY["tree"]) for c in tree_claims(res["branching"])),
        *(_reasoned(c, WHY["table1"]) for c in table1_claims(res["table1"])),
        *(_reasoned(c, WHY["table2"])
          for c in table2_claims(res["table2"], res.params["table2_games"], res["fg_quirk"],
                                 res["greedy_self_play"])),
        *table2_conclusions(res["table2"], res.params["table2_games"]),
        *(_reasoned(c, WHY["table3"])
          for c in table3_claims(t3, res.params["table3_games"], scale,
                                 table3_frame(res, "table3authors_T"), paper.authors_games())),
        *sweep_claims(res["fig7"], res["fig8"], scale, res.params["fig_games"]),
        *judged_like_for_like(readings(full_a), readings(full)),
    ]


#: A claim's verdict after "it" ("under our rule it is undecided").
_VERB = {"undecided": "is undecided"}


def judged_like_for_like(authors: list[Claim], rule: list[Claim]) -> list[Claim]:
    """The paper's readings of Table III, judged on the like-for-like games (the paper's own
    experiment, as its Table III cells are), with the same reading under our rule in the note;
    where the like-for-like columns are not computed yet, on our rule's games, and said so."""
    out = []
    for a, r in zip(authors, rule):
        if a.verdict == "pending":
            out.append(dataclasses.replace(r, note=_joined(r.note, "judged on our rule: the like-for-like "
                                                       "columns are not computed yet")))
        else:
            also = ("" if r.verdict == "pending" else
                    f"; under our rule it {_VERB.get(r.verdict, r.verdict)}")
            out.append(dataclasses.replace(a, note=_joined(f"{JUDGED_LIKE_FOR_LIKE}{also}",
                                               a.note)))
    return out


def _joined(*parts: str) -> str:
    """Note parts joined by semicolons, empty ones left out."""
    return "; ".join(p for p in parts if p)
