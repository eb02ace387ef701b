"""Tables, figure data and claims of the cross-game chapter, from the rows of :mod:`.chapter`.

* :func:`tidy` - every game of every cell in one frame (game, player, budget, index, measures).
* :func:`strength_table` - per game, player and budget: the headline measure with its 95 % CI,
  and the paired difference from the baseline on the same deals.
* :func:`smallest_budget_table` - the smallest budget at which each search beats the baseline.
* :func:`cost_table` - tree nodes per decision and decisions per second.
* :func:`exploration_table` - the sensitivity check: each UCB1 constant against the study's.
* :func:`build_claims` - the claim of Cowling, Powley & Whitehouse (2012) (ISMCTS at least as
  good as determinized UCT at equal budgets), judged game by game by :mod:`.verdicts`.

Headline measures: the win rate (Frank's Zoo, Kingdomino, tarok's declarer) and the fool rate
(Durak, lower is better): :data:`LOWER_IS_BETTER`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.claims import Claim, pending
from ..core.numbers import and_list
from ..core.stats import holm, mean_ci, wilson
from . import paper
from .play import EXPLORATION, PLAYERS, SETTINGS, TUNED

#: Headline measure of each game (a column of the rows) and whether lower is better.
HEADLINE = {game: s.headline for game, s in SETTINGS.items()}
LOWER_IS_BETTER = {game: HEADLINE[game] == "fool" for game in SETTINGS}
MEASURE_WORDS = {"win": "win rate", "fool": "fool rate"}


#: The chapter's parts, by the prefix of their experiments' keys (the main study has none).
PARTS = {"exploration": "exploration_", "determinizations": "determinizations_"}
#: The prefixes of the two measures of what determinization throws away, outside the parts:
#: their rows are positions weighed, not games of a search (:func:`nonlocality_rows`,
#: :func:`fusion_rows`).
NONLOCALITY = "nonlocality_"
FUSION = "fusion_"


def _part_of(key: str) -> str:
    if key.startswith((NONLOCALITY, FUSION)):
        return key.partition("_")[0]
    return next((part for part, prefix in PARTS.items() if key.startswith(prefix)), "main")


def tidy(res, sensitivity: bool = False) -> pd.DataFrame:
    """One row per game played: ``game``, ``player``, ``budget`` (0 for the baseline),
    ``index`` (the deal), ``headline`` and every measure the adapter reports - of the main
    study (the tuned determinized UCT included), or with ``sensitivity`` of the exploration
    check (then with ``exploration``)."""
    return tidy_part(res, "exploration" if sensitivity else "main")


def tidy_part(res, which: str) -> pd.DataFrame:
    """:func:`tidy` of one part of the chapter: ``"main"``, ``"exploration"`` (with the column
    ``exploration``) or ``"determinizations"`` (the sweep, with ``n_det``)."""
    if which not in ("main", *PARTS):
        raise ValueError(f"part must be one of main, {', '.join(PARTS)}; got {which!r}")
    frames = []
    for key, df in res.frames.items():  # the store gives each row its config's columns
        if df is None or df.empty or _part_of(key) != which:
            continue
        part = df.drop(columns=["key", "deal_seed"], errors="ignore").copy()
        part["headline"] = part[HEADLINE[str(part["game"].iloc[0])]]
        frames.append(part)
    if not frames:
        return pd.DataFrame(columns=["game", "player", "budget", "index", "headline"])
    out = pd.concat(frames, ignore_index=True)
    return out.sort_values(["game", "player", "budget", "index"], kind="stable",
                           ignore_index=True)


def _measure_rows(res, prefix: str, cols: list[str]) -> pd.DataFrame:
    frames = [df[cols] for key, df in res.frames.items()
              if key.startswith(prefix) and df is not None and not df.empty]
    if not frames:
        return pd.DataFrame(columns=cols)
    return pd.concat(frames, ignore_index=True).sort_values(["game", "index"], kind="stable",
                                                            ignore_index=True)


def nonlocality_rows(res) -> pd.DataFrame:
    """One row per game of the opponents' moves measure (:mod:`.nonlocality`): ``game``,
    ``index``, ``moves``, ``skipped``, ``p_uniform``, ``p_true``, ``kept``."""
    return _measure_rows(res, NONLOCALITY, ["game", "index", "moves", "skipped", "p_uniform",
                                            "p_true", "kept"])


def fusion_rows(res) -> pd.DataFrame:
    """One row per game of the strategy fusion measure (:mod:`.fusion`): ``game``, ``index``,
    ``positions``, ``plans``, ``sets``, ``same_deal``, ``other_deals``."""
    return _measure_rows(res, FUSION, ["game", "index", "positions", "plans", "sets",
                                       "same_deal", "other_deals"])


def fusion_table(rows: pd.DataFrame, deals: int) -> pd.DataFrame:
    """Per game (rows of :func:`fusion_rows`): ``games``, ``positions`` (decisions of the seat
    under test per game), ``readable`` (the share of trees whose plan could be read, of
    ``2 * deals`` per position), ``sets`` (information sets compared, in all), ``compared``
    (the games with a set compared), and over those games the means of each game's mean share
    of differing plans between two trees on one deal (``same``) and on different deals
    (``other``), with 95 % CIs over games, and ``fusion`` (``other - same``, paired by game)
    with its CI."""
    cols = ["game", "games", "positions", "readable", "sets", "compared", "same", "same_low",
            "same_high", "other", "other_low", "other_high", "fusion", "fusion_low",
            "fusion_high"]
    out = []
    for game, g in rows.groupby("game", sort=False):
        compared = g[g["sets"] > 0]
        same = compared["same_deal"] / compared["sets"]
        other = compared["other_deals"] / compared["sets"]
        out.append((game, len(g), float(g["positions"].mean()),
                    float(g["plans"].sum() / (2 * deals * g["positions"].sum()))
                    if g["positions"].sum() else math.nan, int(g["sets"].sum()), len(compared),
                    *mean_ci(same), *mean_ci(other), *mean_ci(other - same)))
    return pd.DataFrame(out, columns=cols)


def nonlocality_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per game (rows of :func:`nonlocality_rows`): ``games``, ``moves`` (opponent moves weighed
    per game), ``kept`` (the share of drawn deals that allowed the move), ``p_true`` and
    ``p_uniform`` (the means over games of each game's mean likelihood of the baseline's move,
    in the true deal and over the drawn deals) with 95 % CIs over games, and ``gap``
    (``p_true - p_uniform``, paired by game) with its CI."""
    cols = ["game", "games", "moves", "kept", "p_true", "true_low", "true_high", "p_uniform",
            "uniform_low", "uniform_high", "gap", "gap_low", "gap_high"]
    out = []
    for game, g in rows.groupby("game", sort=False):
        g = g.dropna(subset=["p_uniform", "p_true"])
        if g.empty:
            continue
        out.append((game, len(g), float(g["moves"].mean()), float(g["kept"].mean()),
                    *mean_ci(g["p_true"]), *mean_ci(g["p_uniform"]),
                    *mean_ci(g["p_true"] - g["p_uniform"])))
    return pd.DataFrame(out, columns=cols)


def det_sweep_table(rows: pd.DataFrame) -> pd.DataFrame:
    """The determinization sweep (rows of ``tidy_part(res, "determinizations")``): per game,
    budget and number of determinizations ``n_det``, ``n`` and the headline rate with its
    Wilson 95 % CI; ``best`` marks the number :func:`best_det_counts` chooses."""
    cols = ["game", "budget", "n_det", "n", "rate", "ci_low", "ci_high", "best"]
    if rows.empty:
        return pd.DataFrame(columns=cols)
    g = rows.groupby(["game", "budget", "n_det"], sort=True)["headline"]
    out = g.agg(["sum", "size"]).reset_index()
    ci = [wilson(float(k), int(n)) for k, n in zip(out["sum"], out["size"])]
    out["n"] = out["size"]
    out["rate"], out["ci_low"], out["ci_high"] = (np.array([c[i] for c in ci]) for i in range(3))
    best = best_det_counts(rows)
    out["best"] = [best.get((gm, int(b))) == int(k)
                   for gm, b, k in zip(out["game"], out["budget"], out["n_det"])]
    order = {g: i for i, g in enumerate(SETTINGS)}
    out = out.sort_values(["game", "budget", "n_det"], key=lambda c: c.map(order)
                          if c.name == "game" else c, ignore_index=True)
    return out[cols]


def complete_sweep(rows: pd.DataFrame, games: int) -> pd.DataFrame:
    """The sweep's rows of the game-and-budget cells where every number of determinizations has
    ``games`` games: a cell still computing is left out of the chapter's figure, table and
    choice (the run chose from a complete cell too, computing budget by budget)."""
    if rows.empty:
        return rows
    least = rows.groupby(["game", "budget", "n_det"]).size().groupby(["game", "budget"]).min()
    done = least[least >= games].index
    keep = pd.MultiIndex.from_frame(rows[["game", "budget"]]).isin(done)
    return rows[keep]


def best_det_counts(rows: pd.DataFrame) -> dict[tuple[str, int], int]:
    """Per ``(game, budget)`` of the sweep's rows, the number of determinizations whose headline
    rate is best (highest win rate, lowest fool rate), judged on the deals every number has
    played (the first ``n`` of each, ``n`` the smallest count, so that a partly computed sweep
    compares like with like); a tie goes to the fewer determinizations."""
    best: dict[tuple[str, int], int] = {}
    if rows.empty:
        return best
    for (game, budget), cell in rows.groupby(["game", "budget"], sort=False):
        n = int(cell.groupby("n_det").size().min())
        common = cell[cell["index"] < n] if n else cell
        rates = common.groupby("n_det")["headline"].mean()
        if LOWER_IS_BETTER[game]:
            rates = -rates
        top = rates.max()
        best[(str(game), int(budget))] = int(min(k for k, r in rates.items() if r == top))
    return best


def _paired(a: pd.DataFrame, b: pd.DataFrame) -> tuple[float, float, float, int]:
    """Mean of ``a - b`` over the deals both played, with its 95 % CI, and their number."""
    m = a.set_index("index")["headline"].to_frame("a").join(
        b.set_index("index")["headline"].to_frame("b"), how="inner")
    if len(m) < 2:
        return math.nan, math.nan, math.nan, len(m)
    est, lo, hi = mean_ci((m["a"] - m["b"]).to_numpy(float))
    return est, lo, hi, len(m)


def _signed_paired(a: pd.DataFrame, b: pd.DataFrame, game: str) -> tuple[float, float, float, int]:
    """:func:`_paired` in the game's direction: positive when ``a`` plays better than ``b``
    (for Durak: fewer fools)."""
    est, lo, hi, n = _paired(a, b)
    if LOWER_IS_BETTER[game]:
        est, lo, hi = -est, -hi, -lo
    return est, lo, hi, n


def strength_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per game, player and budget: ``n``, the headline rate with its Wilson 95 % CI, and
    ``vs_baseline`` (the paired difference from the baseline on the same deals) with its CI."""
    out = []
    for (game, player, budget), cell in rows.groupby(["game", "player", "budget"], sort=False):
        k, n = float(cell["headline"].sum()), len(cell)
        rate, lo, hi = wilson(k, n)
        base = rows[(rows["game"] == game) & (rows["player"] == "baseline")]
        d, dlo, dhi, _ = _paired(cell, base) if player != "baseline" else (0.0, 0.0, 0.0, n)
        out.append({"game": game, "player": player, "budget": int(budget), "n": n,
                    "rate": rate, "ci_low": lo, "ci_high": hi, "vs_baseline": d,
                    "vs_low": dlo, "vs_high": dhi})
    df = pd.DataFrame(out, columns=["game", "player", "budget", "n", "rate", "ci_low",
                                    "ci_high", "vs_baseline", "vs_low", "vs_high"])
    order = {g: i for i, g in enumerate(SETTINGS)}
    rank = {p: i for i, p in enumerate(PLAYERS)}
    return df.sort_values(["game", "player", "budget"], key=lambda c: c.map(
        order if c.name == "game" else rank if c.name == "player" else (lambda x: x)),
        ignore_index=True)


def beats_baseline(row: pd.Series) -> bool:
    """The cell's paired difference from the baseline excludes 0 on the good side."""
    if LOWER_IS_BETTER[row["game"]]:
        return bool(row["vs_high"] < 0)
    return bool(row["vs_low"] > 0)


def smallest_budget_table(table: pd.DataFrame) -> pd.DataFrame:
    """Game x search: the smallest budget whose cell beats the baseline (95 % CI of the paired
    difference), ``None`` where no budget computed does."""
    out = {}
    for game in [g for g in SETTINGS if g in set(table["game"])]:
        row = {}
        for search in [p for p in PLAYERS if p != "baseline"]:
            cells = table[(table["game"] == game) & (table["player"] == search)]
            wins = [int(r["budget"]) for _, r in cells.iterrows() if beats_baseline(r)]
            row[search] = min(wins) if wins else None
        out[game] = row
    return pd.DataFrame.from_dict(out, orient="index")


def cost_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Per game, search and budget: mean tree nodes per searched decision (memory), searched
    decisions per game and decisions per second of search (this machine's speed)."""
    s = rows[rows["player"] != "baseline"]
    g = s.groupby(["game", "player", "budget"], sort=False)
    out = g.agg(n=("headline", "size"), nodes=("nodes", "mean"),
                decisions=("decisions", "mean"), seconds=("seconds", "sum"),
                searched=("decisions", "sum")).reset_index()
    out["per_second"] = out["searched"] / out["seconds"].where(out["seconds"] > 0)
    return out.drop(columns=["seconds", "searched"])


def exploration_table(rows: pd.DataFrame, reference: float = EXPLORATION) -> pd.DataFrame:
    """The sensitivity check (rows of ``tidy(res, sensitivity=True)``): per game, search and
    UCB1 constant, ``n``, the headline rate with its Wilson 95 % CI, ``vs_reference`` (the
    paired difference from the ``reference`` constant on the same deals, signed so that
    positive is better) with its CI, and ``beats_reference`` / ``loses_to_reference``: that
    difference excludes 0 after Holm's correction over the other constants of that game and
    search."""
    out = []
    for (game, player), cell in rows.groupby(["game", "player"], sort=False):
        ref = cell[np.isclose(cell["exploration"], reference)]
        part = []
        for c, at in cell.groupby("exploration"):
            k, n = float(at["headline"].sum()), len(at)
            rate, lo, hi = wilson(k, n)
            d, dlo, dhi = (0.0, 0.0, 0.0)
            if len(ref) and not np.isclose(c, reference):
                d, dlo, dhi, _ = _signed_paired(at, ref, game)
            part.append({"game": game, "player": player, "exploration": float(c), "n": n,
                         "rate": rate, "ci_low": lo, "ci_high": hi, "vs_reference": d,
                         "vs_low": dlo, "vs_high": dhi, "beats_reference": False,
                         "loses_to_reference": False})
        others = [r for r in part if not np.isclose(r["exploration"], reference)]
        flags = holm([(r["vs_reference"], r["vs_low"], r["vs_high"]) for r in others]) if len(ref) else []
        for r, f in zip(others, flags):
            r["beats_reference"] = bool(f and r["vs_reference"] > 0)
            r["loses_to_reference"] = bool(f and r["vs_reference"] < 0)
        out.extend(part)
    cols = ["game", "player", "exploration", "n", "rate", "ci_low", "ci_high", "vs_reference",
            "vs_low", "vs_high", "beats_reference", "loses_to_reference"]
    return pd.DataFrame(out, columns=cols)


def ismcts_diffs(rows: pd.DataFrame, game: str, n_games: int) -> list[tuple]:
    """``(budget, estimate, low, high, n)`` of ISMCTS minus determinized UCT on the same deals,
    signed so that positive favours ISMCTS, at every budget where both have ``n_games`` games
    (all their paired games count)."""
    diffs = []
    budgets = sorted(set(rows.loc[(rows["game"] == game) & (rows["player"] != "baseline"), "budget"]))
    for budget in budgets:
        a = rows[(rows["game"] == game) & (rows["player"] == "ismcts") & (rows["budget"] == budget)]
        b = rows[(rows["game"] == game) & (rows["player"] == "det_uct") & (rows["budget"] == budget)]
        if min(len(a), len(b)) < n_games:
            continue
        diffs.append((int(budget), *_signed_paired(a, b, game)))
    return diffs


def undecided_budgets(rows: pd.DataFrame, game: str, n_games: int) -> list[int]:
    """The budgets where the claim's verdict (SO-ISMCTS against determinized UCT with its best
    number of determinizations, :func:`gameai.crossgame.verdicts.budget_verdicts`) is
    *undecided* on ``n_games`` games. These get more games (the chapter's ``confirm_games``).
    Only the first ``n_games`` deals count, whatever ``rows`` holds (a verdict with no second
    look reads no more). Holm's correction runs over the budgets judged so far: a larger budget
    judged later makes it stricter, which can add budgets to this list but never removes one."""
    from . import verdicts as V

    table = V.budget_verdicts(rows, game, TUNED, n_games)
    return [int(b) for b in table.loc[table["verdict"] == V.UNDECIDED, "budget"]]


def _pp(x: float) -> str:
    """A fraction in signed percentage points to 0.1, never "-0.0" (round first, then add +0.0)."""
    return f"{round(100 * x, 1) + 0.0:+.1f}"


def _pp_ci(lo: float, hi: float) -> str:
    """A 95 % interval of a difference in points, as the book writes them: "-1.9 to +0.3"."""
    return f"{_pp(lo)} to {_pp(hi)}"


def ismcts_claim(game: str, rows: pd.DataFrame, n_games: int, rival: str = TUNED,
                 second_look: int = 0) -> Claim:
    """The paper's claim on one game, as tested: SO-ISMCTS minus ``rival`` (determinized UCT
    with the sweep's best number of determinizations) on the same deals, at every budget where
    both have ``n_games`` games, judged budget by budget by :mod:`.verdicts` (a margin of 3
    points, Holm over the budgets). *holds*: not worse by more than the margin at every budget;
    *fails*: significantly worse at some budget; *undecided* otherwise. ``ours`` = the
    difference at the largest budget judged (positive = ISMCTS better)."""
    from . import verdicts as V

    cid = f"{game}.ismcts_vs_det_uct"
    desc = f"{SETTINGS[game].label}: {paper.ISMCTS_CLAIM}"
    table = V.budget_verdicts(rows, game, rival, n_games, second_look=second_look)
    if table.empty:
        return pending(cid, desc, paper.ISMCTS_WORDS,
                       f"needs SO-ISMCTS and determinized UCT with its best number of "
                       f"determinizations at {n_games:,} games on the same deals at some budget "
                       f"(gameai run crossgame -p experiments determinizations,tuned)")
    words = MEASURE_WORDS[HEADLINE[game]]
    parts = [f"{int(r.budget):,}: {V.verdict_words(r.verdict, n=r.n, to_decide=r.to_decide)} "
             f"({_pp(r.diff)}, {_pp_ci(r.low, r.high)})" for r in table.itertuples()]
    note = (f"SO-ISMCTS minus determinized UCT at its best number of determinizations, in "
            f"{words} points (positive: ISMCTS better), same deals, per budget: "
            + "; ".join(parts) + f". {V.INTERVALS_NOTE}")
    last = table.iloc[-1]
    outcome = V.claim_outcome(table)
    return Claim(cid, desc, paper.ISMCTS_WORDS, ours_text(table, outcome), math.nan, math.nan,
                 int(last["n"]), outcome, note)


def ours_text(table: pd.DataFrame, outcome: str) -> str:
    """The claim's ``ours`` cell: the difference at the largest budget judged and, for a claim
    that does not hold, the budgets that keep it from holding ("undecided at 10 and 30")."""
    from . import verdicts as V

    last = table.iloc[-1]
    text = (f"{_pp(last['diff'])} points ({_pp_ci(last['low'], last['high'])}) at "
            f"{int(last['budget']):,}")
    verdict = {"fails": V.WORSE, "undecided": V.UNDECIDED}.get(outcome)
    if verdict:
        budgets = [f"{int(b):,}" for b in table.loc[table["verdict"] == verdict, "budget"]]
        text += f"; {verdict} at {and_list(budgets)}"
    return text


def build_claims(res) -> list[Claim]:
    """The paper's claim for every game of the run (pending where cells are missing)."""
    rows = tidy(res)
    n = int(res.params["n_games"])
    second = int(res.params["confirm_games"])
    return [ismcts_claim(game, rows, n, second_look=second) for game in res.params["games"]]
