"""From Durak rows to tables, figure data and the claims table.

Pure functions of the frames that ``chapter.results`` loads (no I/O, no plotting):

* game rows of ``hands`` (one per game, per-seat columns) -> :func:`hands_long` (one row per
  seat), :func:`rank_correlations` (Spearman's rho of the initial hand value with the finishing
  standing, bootstrap CI over games), :func:`calibration` (fool rate by hand-value decile),
  :func:`makeup_effects` (a pair, an unbalanced hand: stratified fool-rate differences);
* game rows of ``endgame`` -> :func:`endgame_long`, :func:`endgame_by_size`,
  :func:`endgame_effects` (fool rate with more than six cards when the talon runs out) and
  :func:`endgame_auc` (how well each evaluator form picks the fool there);
* batch rows of the match experiments -> :func:`outcomes` (the focal agent's share of the fool,
  fool rate, mean place, draws, abandoned games, with CIs) and :func:`pooled_excess`;
* :func:`build_claims` - every claim id of the spec.

Measures. A game has one fool (or a draw, or, rarely, it is abandoned as endless). The focal
agent's *share of the fool* is the fraction of decided games in which it was the fool; an agent
as strong as its ``n - 1`` opponents has a share of ``1/n``. *Standing* is ``n - 1 - place``
(higher is better; the fool's is 0).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ..core.claims import Claim, pending, qualitative
from ..core.numbers import NBSP, points, points_range
from ..core.stats import holm, wilson
from . import paper

Z = 1.96
#: Per-seat columns of ``hands`` rows (see ``chapter.hands_task``).
HAND_COLS = ("place", "hv", "rb", "rbx", "ub", "mr", "ms", "tr")
#: Match rows: the sums of ``chapter.match_task``.
SUMS = ("games", "fool", "opp_fool", "draw", "capped", "place", "place2", "bouts")
#: Ablation claims whose article-side expectation is that the *variant* plays better: forms the
#: article's prose hints at (true division, a x 100 bonus), while its printed code uses integer
#: division and the x 1 bonus, exactly as OpenFool does; for every other ablation the full
#: evaluator should.
VARIANT_SHOULD_WIN = ("ablation.true_division", "ablation.bonus_x100")
ABLATION_TEXT = {
    "ablation.rank_bonus": "the same-rank bonus (as coded) makes the AI stronger",
    "ablation.unbalanced": "the unbalanced-hand penalty makes the AI stronger",
    "ablation.many_cards": "the many-cards term (as coded, integer division) makes the AI stronger",
    "ablation.trump_bonus": "the +1300 trump bonus makes the AI stronger",
    "ablation.card_values": "the per-card rank values make the AI stronger",
    "ablation.true_division": "the many-cards term with true division (which the article's "
                              "prose hints at; its printed code divides integers) makes the AI "
                              "stronger",
    "ablation.bonus_x100": "the same-rank bonus × 100 (which the article's prose hints at; its "
                           "printed code adds it × 1) makes the AI stronger",
    "ablation.article_scale": "the code's deck-scaled card values play better than the "
                              "article's fixed table",
}
#: What the article implies for each ablation (its paper column).
ABLATION_PAPER = {
    "ablation.rank_bonus": "implied: the term helps",
    "ablation.unbalanced": "implied: the term helps",
    "ablation.many_cards": "implied: the term helps",
    "ablation.trump_bonus": "implied: the term helps",
    "ablation.card_values": "implied: the term helps",
    "ablation.true_division": "prose: penalise many cards late",
    "ablation.bonus_x100": "prose: same-rank cards matter",
    "ablation.article_scale": "table 2 = -600 ... A = +600",
}
#: The ablations' players by name, as the chapter's text and the claims say them (the agent keys
#: of ``paper.ABLATIONS`` are code's names, not a reader's).
VARIANT_NAME = {
    "ablation.rank_bonus": "EvalAI without the same-rank bonus",
    "ablation.unbalanced": "EvalAI without the unbalanced-hand penalty",
    "ablation.many_cards": "EvalAI without the many-cards term",
    "ablation.trump_bonus": "EvalAI without the trump bonus",
    "ablation.card_values": "EvalAI without the card rank values",
    "ablation.true_division": "EvalAI with true division in the many-cards term",
    "ablation.bonus_x100": "EvalAI with the same-rank bonus × 100",
    "ablation.article_scale": "EvalAI with the article's fixed card table",
}
ABLATION_WHAT = {
    "ablation.rank_bonus": "same-rank bonus removed",
    "ablation.unbalanced": "unbalanced-hand penalty removed",
    "ablation.many_cards": "many-cards term removed",
    "ablation.trump_bonus": "trump bonus removed",
    "ablation.card_values": "card rank values removed",
    "ablation.true_division": "true division in the many-cards term",
    "ablation.bonus_x100": "same-rank bonus × 100",
    "ablation.article_scale": "the article's fixed card table",
}


# ----------------------------------------------------------------------------- helpers


def _pp(x: float, signed: bool = True) -> str:
    """A difference of fractions in percentage points, written as points (``+2.1 points``;
    never ``-0.0``)."""
    if x is None or math.isnan(x):
        return ""
    return points(x, signed=signed).replace(NBSP, " ")


def _pp_ci(lo: float, hi: float) -> str:
    """A 95 % interval of a difference in points: ``-1.8 to -1.0 points``."""
    return points_range(lo, hi).replace(NBSP, " ")


def _pc(x: float) -> str:
    return "" if x is None or math.isnan(x) else f"{x * 100:.1f} %"


def _weighted_corr(W: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson correlation of ``x`` and ``y`` under each row of weights ``W``."""
    s = W.sum(axis=1)
    mx = W @ x / s
    my = W @ y / s
    cxy = W @ (x * y) / s - mx * my
    cxx = W @ (x * x) / s - mx * mx
    cyy = W @ (y * y) / s - my * my
    with np.errstate(invalid="ignore", divide="ignore"):
        return cxy / np.sqrt(cxx * cyy)


def spearman_ci(x: Sequence[float], y: Sequence[float], groups: Sequence[Any] | None = None,
                draws: int = 200, seed: int = 0) -> tuple[float, float, float]:
    """Spearman's rho of ``x`` and ``y`` with a 95 % percentile bootstrap CI that resamples
    whole ``groups`` (games: the seats of one game are not independent). The ranks are those of
    the full sample (the bootstrap reweights rows, it does not re-rank)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.size < 3:
        return math.nan, math.nan, math.nan
    rx, ry = rankdata(x), rankdata(y)
    rho = float(np.corrcoef(rx, ry)[0, 1])
    if groups is None:
        groups = np.arange(x.size)
    _, inv = np.unique(np.asarray(groups), return_inverse=True)
    g = int(inv.max()) + 1
    rng = np.random.default_rng(seed)
    boot = []
    for start in range(0, draws, 50):  # in blocks, to bound memory
        k = min(50, draws - start)
        counts = rng.multinomial(g, np.full(g, 1.0 / g), size=k).astype(float)
        boot.append(_weighted_corr(counts[:, inv], rx, ry))
    boot = np.concatenate(boot)
    boot = boot[np.isfinite(boot)]
    if boot.size == 0:
        return rho, math.nan, math.nan
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return rho, float(lo), float(hi)


def auc(score: Sequence[float], positive: Sequence[int]) -> tuple[float, float, float]:
    """Area under the ROC curve: P(score of a positive > score of a negative), ties half,
    with the Hanley-McNeil 95 % CI. NaN if either class is empty."""
    s = np.asarray(score, dtype=float)
    pos = np.asarray(positive).astype(bool)
    n1, n0 = int(pos.sum()), int((~pos).sum())
    if n1 == 0 or n0 == 0:
        return math.nan, math.nan, math.nan
    r = rankdata(s)
    a = float((r[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    var = (a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n0 - 1) * (q2 - a * a)) / (n1 * n0)
    half = Z * math.sqrt(max(var, 0.0))
    return a, max(0.0, a - half), min(1.0, a + half)


def diff_ci(k1: int, n1: int, k0: int, n0: int) -> tuple[float, float, float]:
    """``k1/n1 - k0/n0`` with a normal-approximation 95 % CI."""
    if n1 == 0 or n0 == 0:
        return math.nan, math.nan, math.nan
    p1, p0 = k1 / n1, k0 / n0
    half = Z * math.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
    return p1 - p0, p1 - p0 - half, p1 - p0 + half


# ----------------------------------------------------------------------------- hand values


def hands_long(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, seat) of the ``hands`` rows, abandoned games left out: ``n_players``,
    ``deck``, ``deck_cards``, ``game``, ``seat``, the per-seat columns, ``fool`` (0/1),
    ``standing`` (n - 1 - place)."""
    parts = []
    live = df[df["capped"] == 0]
    for n, g in live.groupby("n_players"):
        n = int(n)
        for p in range(n):
            part = pd.DataFrame({"n_players": n, "deck": g["deck"].astype(int).to_numpy(),
                                 "deck_cards": g["deck_cards"].astype(int).to_numpy(),
                                 "game": g["key"].astype(str).to_numpy() + ":" +
                                 g["index"].astype(str).to_numpy(), "seat": p})
            for c in HAND_COLS:
                part[c] = g[f"{c}{p}"].astype(int).to_numpy()
            part["fool"] = (g["fool"].to_numpy() == p).astype(int)
            parts.append(part)
    cols = ["n_players", "deck", "deck_cards", "game", "seat", *HAND_COLS, "fool"]
    if not parts:
        return pd.DataFrame(columns=cols + ["standing"])
    out = pd.concat(parts, ignore_index=True)
    out["standing"] = out["n_players"] - 1 - out["place"]
    return out


def rank_correlations(long: pd.DataFrame, value: str = "hv", draws: int = 200,
                      seed: int = 0) -> pd.DataFrame:
    """Per (players, deck): Spearman's rho of ``value`` with the standing, bootstrap CI over
    games, the number of games, and the fool rate of the lowest and highest value quintile."""
    rows = []
    for (n, d), g in long.groupby(["n_players", "deck"]):
        rho, lo, hi = spearman_ci(g[value], g["standing"], g["game"], draws, seed)
        q = pd.qcut(g[value].rank(method="first"), 5, labels=False)
        rows.append({"n_players": int(n), "deck": int(d),
                     "deck_cards": int(g["deck_cards"].iloc[0]), "games": g["game"].nunique(),
                     "rho": rho, "lo": lo, "hi": hi,
                     "fool_low": g.loc[q == 0, "fool"].mean(),
                     "fool_high": g.loc[q == 4, "fool"].mean()})
    return pd.DataFrame(rows)


def self_play_outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """Per (players, deck) of the ``hands`` rows: games, draws and abandoned (endless) games."""
    d = df.assign(is_draw=(df["fool"] < 0) & (df["capped"] == 0))
    out = d.groupby(["n_players", "deck"]).agg(games=("fool", "size"), draws=("is_draw", "sum"),
                                               capped=("capped", "sum")).reset_index()
    out["draw_rate"] = out["draws"] / out["games"]
    out["capped_rate"] = out["capped"] / out["games"]
    return out


def calibration(long: pd.DataFrame, value: str = "hv", bins: int = 10) -> pd.DataFrame:
    """Per (players, deck, value decile): mean value and the fool rate with its Wilson CI."""
    rows = []
    for (n, d), g in long.groupby(["n_players", "deck"]):
        b = pd.qcut(g[value].rank(method="first"), bins, labels=False)
        for k, h in g.groupby(b):
            rate, lo, hi = wilson(int(h["fool"].sum()), len(h))
            rows.append({"n_players": int(n), "deck": int(d), "bin": int(k) + 1,
                         "value": float(h[value].mean()), "n": len(h), "fool": rate,
                         "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def stratified_effect(long: pd.DataFrame, treated: pd.Series, base: pd.Series,
                      strata: Sequence[str], bins: int = 10) -> dict[str, float]:
    """Fool rate of the ``treated`` seats minus that of the others at the same ``base`` value:
    within each stratum (``strata`` columns x decile of ``base`` within them) the difference
    of fool rates, averaged with the treated seats' weights; normal-approximation CI (seats
    taken as independent). Also the raw (unstratified) difference."""
    d = long[list(strata) + ["fool"]].copy()
    d["t"] = np.asarray(treated, dtype=bool)
    d["b"] = np.asarray(base, dtype=float)
    d["bin"] = d.groupby(list(strata))["b"].transform(
        lambda s: pd.qcut(s.rank(method="first"), min(bins, len(s)), labels=False))
    est = var = weight = 0.0
    for _, g in d.groupby(list(strata) + ["bin"]):
        t, c = g[g["t"]], g[~g["t"]]
        if len(t) == 0 or len(c) == 0:
            continue
        p1, p0 = t["fool"].mean(), c["fool"].mean()
        w = len(t)
        est += w * (p1 - p0)
        var += w * w * (p1 * (1 - p1) / len(t) + p0 * (1 - p0) / len(c))
        weight += w
    raw = diff_ci(int(d.loc[d["t"], "fool"].sum()), int(d["t"].sum()),
                  int(d.loc[~d["t"], "fool"].sum()), int((~d["t"]).sum()))
    if weight == 0:
        return {"effect": math.nan, "lo": math.nan, "hi": math.nan, "raw": raw[0],
                "treated": int(d["t"].sum()), "n": len(d)}
    est, se = est / weight, math.sqrt(var) / weight
    return {"effect": est, "lo": est - Z * se, "hi": est + Z * se, "raw": raw[0],
            "treated": int(d["t"].sum()), "n": len(d)}


def _makeups(long: pd.DataFrame) -> dict[str, tuple[pd.Series, pd.Series, list[str]]]:
    """The article's hand make-ups: (treated, value without the term, strata). ``three`` (three
    or more of a rank, the article's "many cards of the same value") and ``unbalanced`` decide
    the claims; ``pair`` (two or more of a rank) is shown beside."""
    return {
        "pair": (long["mr"] >= 2, long["hv"] - long["rb"], ["n_players", "deck"]),
        "three": (long["mr"] >= 3, long["hv"] - long["rb"], ["n_players", "deck"]),
        "unbalanced": (long["ms"] >= 3, long["hv"] + long["ub"], ["n_players", "deck", "tr"]),
    }


MAKEUP_TEXT = {"pair": "two or more cards of one rank (vs none)",
               "three": "three or more cards of one rank (vs at most two)",
               "unbalanced": "three or more cards of one non-trump suit (vs at most two)"}


def makeup_effects(long: pd.DataFrame) -> pd.DataFrame:
    """Per make-up (a pair; three of a rank; an unbalanced hand) and player count (and all
    together): the stratified fool-rate difference (:func:`stratified_effect`). Cards of one rank
    are compared at equal value without the same-rank term (deciles per deck); an unbalanced
    hand at equal value without the penalty and with the same number of trumps."""
    rows = []
    for name, (treated, base, strata) in _makeups(long).items():
        for n in [*sorted(long["n_players"].unique()), "all"]:
            sel = long["n_players"] == n if n != "all" else pd.Series(True, index=long.index)
            if not sel.any():
                continue
            eff = stratified_effect(long[sel], treated[sel], base[sel], strata)
            rows.append({"makeup": name, "n_players": n, **eff})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- endgame


def endgame_long(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat still playing when the talon ran out: ``n_players``, ``game``, ``seat``,
    ``size``, ``hv``, ``hvt``, ``fool`` (0/1), ``share`` (its part of the cards in hands)."""
    parts = []
    for n, g in df[df["bout"] >= 0].groupby("n_players"):
        n = int(n)
        sizes = np.stack([g[f"size{p}"].to_numpy(dtype=int) for p in range(n)], axis=1)
        total = np.where(sizes > 0, sizes, 0).sum(axis=1)
        for p in range(n):
            part = pd.DataFrame({"n_players": n, "game": g["key"].astype(str).to_numpy() + ":"
                                 + g["index"].astype(str).to_numpy(), "seat": p,
                                 "size": sizes[:, p], "hv": g[f"hv{p}"].to_numpy(dtype=int),
                                 "hvt": g[f"hvt{p}"].to_numpy(dtype=int),
                                 "fool": (g["fool"].to_numpy() == p).astype(int),
                                 "share": sizes[:, p] / np.maximum(total, 1)})
            parts.append(part[part["size"] >= 0])
    cols = ["n_players", "game", "seat", "size", "hv", "hvt", "fool", "share"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=cols)


def endgame_by_size(long: pd.DataFrame, top: int = 12) -> pd.DataFrame:
    """Per (players, hand size; ``top`` and more together): the fool rate with its Wilson CI."""
    d = long.assign(bucket=long["size"].clip(upper=top))
    rows = []
    for (n, s), g in d.groupby(["n_players", "bucket"]):
        rate, lo, hi = wilson(int(g["fool"].sum()), len(g))
        rows.append({"n_players": int(n), "size": int(s), "n": len(g), "fool": rate, "lo": lo,
                     "hi": hi})
    return pd.DataFrame(rows)


def endgame_effects(long: pd.DataFrame, many: int = 6) -> pd.DataFrame:
    """Per player count: fool rate with more than ``many`` cards when the talon runs out minus
    the fool rate with at most ``many``, with a 95 % CI, and the share of such hands."""
    rows = []
    for n, g in long.groupby("n_players"):
        t = g["size"] > many
        eff = diff_ci(int(g.loc[t, "fool"].sum()), int(t.sum()), int(g.loc[~t, "fool"].sum()),
                      int((~t).sum()))
        rows.append({"n_players": int(n), "seats": len(g), "games": g["game"].nunique(),
                     "many": float(t.mean()), "fool_many": g.loc[t, "fool"].mean(),
                     "fool_few": g.loc[~t, "fool"].mean(), "effect": eff[0], "lo": eff[1],
                     "hi": eff[2]})
    return pd.DataFrame(rows)


def endgame_auc(long: pd.DataFrame) -> pd.DataFrame:
    """Per player count: how well each evaluator form (Int / true division in the many-cards
    term) and the bare hand size pick the player who ends as the fool (AUC, 0.5 = chance)."""
    rows = []
    for n, g in long.groupby("n_players"):
        not_fool = 1 - g["fool"].to_numpy()
        for what, score in (("hand value, Int division (as coded)", g["hv"]),
                            ("hand value, true division (article)", g["hvt"]),
                            ("fewer cards", -g["size"])):
            a, lo, hi = auc(score, not_fool)
            rows.append({"n_players": int(n), "score": what, "auc": a, "lo": lo, "hi": hi,
                         "n": len(g)})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- matches

#: Config columns that identify a match configuration (those present in the rows).
MATCH_KEYS = ("rules", "agent", "vs", "budget", "n_players", "deck")


def outcomes(df: pd.DataFrame, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Per configuration (``by``, default the :data:`MATCH_KEYS` present) the sums of the batch
    rows and: ``share`` (the agent's share of the fool among decided games, Wilson CI ``share_lo``
    / ``share_hi``), ``null`` (1/n), ``excess`` (share - 1/n), ``fool_rate`` (per game),
    ``opp_rate`` (per opponent and game), ``draw_rate`` (Wilson CI), ``place`` (mean place with a
    CI, games not abandoned), ``bouts`` (mean), ``capped`` (abandoned games)."""
    keys = list(by) if by is not None else [k for k in MATCH_KEYS if k in df.columns]
    sums = df.groupby(keys, dropna=False, sort=False)[list(SUMS)].sum().reset_index()
    rows = []
    for r in sums.to_dict("records"):
        n = int(r["n_players"])
        games, decided = int(r["games"]), int(r["fool"] + r["opp_fool"])
        share, slo, shi = wilson(int(r["fool"]), decided)
        draw, dlo, dhi = wilson(int(r["draw"]), games)
        played = games - int(r["capped"])
        mean = r["place"] / played if played else math.nan
        var = ((r["place2"] - r["place"] ** 2 / played) / (played - 1)) if played > 1 else math.nan
        half = Z * math.sqrt(max(var, 0.0) / played) if played > 1 else math.nan
        rows.append({**{k: r[k] for k in keys}, "games": games, "decided": decided,
                     "share": share, "share_lo": slo, "share_hi": shi, "null": 1 / n,
                     "excess": share - 1 / n, "fool_rate": r["fool"] / games,
                     "opp_rate": r["opp_fool"] / games / (n - 1), "draw_rate": draw,
                     "draw_lo": dlo, "draw_hi": dhi, "place": mean, "place_lo": mean - half,
                     "place_hi": mean + half, "null_place": (n - 1) / 2,
                     "bouts": r["bouts"] / games, "capped": int(r["capped"])})
    return pd.DataFrame(rows)


def pooled_excess(t: pd.DataFrame) -> tuple[float, float, float, int]:
    """Unweighted mean over configurations of (share - 1/n), normal-approximation CI from each
    configuration's binomial variance; and the total games."""
    t = t[t["decided"] > 0]
    if t.empty:
        return math.nan, math.nan, math.nan, 0
    p = t["share"].to_numpy(float)
    var = p * (1 - p) / t["decided"].to_numpy(float)
    m = float((p - t["null"].to_numpy(float)).mean())
    half = Z * math.sqrt(var.sum()) / len(t)
    return m, m - half, m + half, int(t["games"].sum())


# ----------------------------------------------------------------------------- claims

DESCRIPTIONS = {
    "article.hand_value_predicts": "the evaluator ranks initial hands by their chance of not "
                                   "being the fool (every deck and player count)",
    "article.ranks_bonus": "several cards of one rank are good to hold",
    "article.unbalanced_penalty": "many cards of one non-trump suit are bad",
    "article.many_cards_penalty": "many cards late in the game are bad",
    "ai.vs_random": "the evaluator AI beats random players (2-5 players, every deck)",
    "ai.vs_smallest": "the evaluator AI beats smallest-card players (2-5 players, every deck)",
}


#: The article's side of its own claims: stated in words, never measured (the first of them
#: not even stated: the article builds its evaluator on it).
STATED = {"article.hand_value_predicts": "assumed, not stated or measured",
          "article.": "stated, not measured", "ai.": "not measured (Part 2 never appeared)"}


def _paper(cid: str) -> str:
    return next((v for k, v in STATED.items() if cid.startswith(k)), None) or ABLATION_PAPER[cid]


def _pending(cid: str, what: str) -> Claim:
    desc = DESCRIPTIONS.get(cid) or ABLATION_TEXT[cid]
    return pending(cid, desc, _paper(cid), f"{what} not computed yet (`gameai run durak`)")


def hand_claims(hands: pd.DataFrame | None) -> list[Claim]:
    ids = ("article.hand_value_predicts", "article.ranks_bonus", "article.unbalanced_penalty")
    if hands is None or hands.empty:
        return [_pending(c, "the hand-value experiment") for c in ids]
    long = hands_long(hands)
    games = int(len(hands))
    rc = rank_correlations(long)
    ok = int((rc["lo"] > 0).sum())
    c1 = qualitative(
        ids[0], DESCRIPTIONS[ids[0]], _paper(ids[0]),
        f"Spearman rho {rc['rho'].min():.2f} to {rc['rho'].max():.2f}; CI above 0 in {ok} of "
        f"{len(rc)} configurations",
        ok == len(rc), games,
        note="EvalAI self-play, seats rotated; standing = n - 1 - finishing place; 95 % CI by "
             "bootstrap over games" + ("" if ok == len(rc) else
                                       f"; {len(rc) - ok} configuration(s) without a CI above 0"))
    eff = makeup_effects(long)
    out = [c1]
    pair = eff[(eff["makeup"] == "pair") & (eff["n_players"] == "all")].iloc[0]
    three = eff[(eff["makeup"] == "three") & (eff["n_players"] == "all")].iloc[0]
    # The article's words are "many cards of the same value" and its one example is four queens,
    # so the verdict rests on three or more of a rank; a pair, which the code's bonus table also
    # rewards (0.5), is reported beside it and in the note.
    holds = bool(three["hi"] < 0)
    text = (f"fool rate {_pp(three['effect'])} with 3+ of a rank at equal value (95 % CI "
            f"{_pp_ci(three['lo'], three['hi'])}); with a pair {_pp(pair['effect'])} "
            f"(95 % CI {_pp_ci(pair['lo'], pair['hi'])})")
    pair_helps = bool(pair["hi"] < 0)
    note = ("the article says 'many cards of the same value' and its example is four queens, so "
            "the verdict compares three or more of a rank with at most two; "
            + ("a pair (vs none) lowers the fool rate as well"
               if pair_helps else
               "a pair (vs none) does not lower the fool rate, although the code's bonus table "
               "already rewards a pair")
            + "; compared within deciles of the hand value without the same-rank term, per deck "
            f"and player count; raw difference {_pp(three['raw'])} (3+), {_pp(pair['raw'])} "
            "(pair)")
    if not holds:
        note = "three or more of a rank do not lower the chance of being the fool; " + note
    out.append(qualitative(ids[1], DESCRIPTIONS[ids[1]], _paper(ids[1]), text, holds,
                           int(three["n"]), note=note))
    e = eff[(eff["makeup"] == "unbalanced") & (eff["n_players"] == "all")].iloc[0]
    holds = bool(e["lo"] > 0)
    text = (f"fool rate {_pp(e['effect'])} with 3+ of one non-trump suit at equal value (95 % CI "
            f"{_pp_ci(e['lo'], e['hi'])})")
    note = ("compared within deciles of the hand value without the penalty, per deck, player "
            "count and number of trumps; raw difference " + _pp(e["raw"]))
    if not holds:
        note += "; an unbalanced hand is not the fool more often at equal value"
    out.append(qualitative(ids[2], DESCRIPTIONS[ids[2]], _paper(ids[2]), text, holds,
                           int(e["n"]), note=note))
    return out


def endgame_claim(endgame: pd.DataFrame | None) -> Claim:
    cid = "article.many_cards_penalty"
    if endgame is None or endgame.empty:
        return _pending(cid, "the endgame experiment")
    long = endgame_long(endgame)
    eff = endgame_effects(long)
    aucs = endgame_auc(long)
    ok = int((eff["lo"] > 0).sum())
    holds = ok == len(eff)
    text = (f"fool rate {_pp_ci(eff['effect'].min(), eff['effect'].max())} with > 6 cards "
            f"when the talon runs out; CI above 0 for {ok} of {len(eff)} player counts")
    hv = aucs[aucs["score"].str.contains("Int")]["auc"]
    hvt = aucs[aucs["score"].str.contains("true")]["auc"]
    # With no talon left the term as coded (Int division) is +150 below half of the cards in
    # hands and -450 or less from half on: how often each happens here, per player count.
    big = long.assign(big=long["share"] >= 0.5).groupby("n_players")["big"].mean()
    note = ("EvalAI self-play, 36 cards, the hands at the first bout without a talon "
            f"({int(eff['seats'].sum()):,} hands of {int(eff['games'].sum()):,} games); the "
            "evaluator's many-cards term as coded (integer division) is +150 unless a hand holds at "
            "least as many cards as all the others together, then -450 or less: here for "
            + ", ".join(f"{100 * v:.1f} % of the {n}-player hands" for n, v in big.items())
            + f" (AUC for not being the fool {hv.min():.2f}-{hv.max():.2f}; with true division "
            f"{hvt.min():.2f}-{hvt.max():.2f})")
    if not holds:
        note += "; more cards do not make the fool more likely at every player count"
    note += ("; nearly true by construction: the rate compares raw fool rates of hands with "
             "more than 6 and at most 6 cards when the talon runs out, and a player holding "
             "more cards then is already losing; the article's other half (many good cards "
             "early are good) is the hand-value claim")
    return qualitative(cid, DESCRIPTIONS[cid], _paper(cid), text, holds,
                       int(eff["seats"].sum()), note=note)


def diagnosis_note(diagnosis: pd.DataFrame | None) -> str:
    """One sentence on our diagnosis of EvalAI against SmallestAI ("" when not computed): the
    mean over decks of the share of the fool minus 1/n, EvalAI against the variant that leads
    its smallest card, per player count."""
    if diagnosis is None or diagnosis.empty:
        return ""
    t = outcomes(diagnosis)
    parts = []
    for n in sorted(t["n_players"].unique()):
        e = pooled_excess(t[(t["agent"] == "EvalAI") & (t["n_players"] == n)])[0]
        s = pooled_excess(t[(t["agent"] == "EvalAI/lead-smallest") & (t["n_players"] == n)])[0]
        parts.append(f"{int(n)} players from {_pp(e)} to {_pp(s)}")
    return ("; our diagnosis (chapter, not the article's): the cost is OpenFool's opening-attack "
            "rank-group bonus - leading the smallest card instead moves EvalAI's share of the fool "
            "minus 1/n (mean over decks) " + ", ".join(parts))


def baseline_claims(baselines: pd.DataFrame | None,
                    diagnosis: pd.DataFrame | None = None) -> list[Claim]:
    out = []
    for cid, vs in (("ai.vs_random", "RandomAI"), ("ai.vs_smallest", "SmallestAI")):
        t = None if baselines is None else outcomes(baselines[baselines["vs"] == vs])
        if t is None or t.empty:
            out.append(_pending(cid, f"EvalAI vs {vs}"))
            continue
        better = int((t["share_hi"] < t["null"]).sum())
        holds = better == len(t)
        two = t[t["n_players"] == 2]
        win2 = "" if two.empty else (f"; two players: wins {_pc(1 - two['share'].max())}"
                                     f" to {_pc(1 - two['share'].min())}")
        text = (f"share of the fool {_pc(t['share'].min())} to {_pc(t['share'].max())} (1/n: "
                f"20-50 %); CI below 1/n in {better} of {len(t)} configurations{win2}")
        note = ("one EvalAI against n - 1 " + vs + " players, seats rotated; share of the fool "
                "among decided games (an equal player: 1/n), Wilson 95 % CI")
        if not holds:
            worse = t[t["share_hi"] >= t["null"]]
            above = int((t["share_lo"] > t["null"]).sum())
            note = (f"not better than an equal player in {len(worse)} of {len(t)} configurations ("
                    + "; ".join(f"{int(n)} players: " + ", ".join(str(int(d)) for d in
                                                                 sorted(g["deck"]))
                                + " cards" for n, g in worse.groupby("n_players"))
                    + f"), worse in {above}; " + note)
            if vs == "SmallestAI":
                note += diagnosis_note(diagnosis)
        out.append(qualitative(cid, DESCRIPTIONS[cid], _paper(cid), text, holds,
                               int(t["games"].sum()), note=note))
    return out


def ablation_family(t: pd.DataFrame) -> dict[str, tuple[float, float, float, int, bool]]:
    """Per ablation claim id computed in ``t`` (:func:`outcomes` rows): its
    :func:`pooled_excess` and whether that differs from 0 after Holm's correction for all the
    ablations computed. Eight ablations of one evaluator are a family: each verdict is its own
    95 % test, and the note says whether it also stands the correction."""
    family = {cid: pooled_excess(t[t["agent"] == v]) for cid, v in paper.ABLATIONS.items()
              if (t["agent"] == v).any()}
    family = {cid: f for cid, f in family.items() if not math.isnan(f[0])}
    return {cid: (*f, ok) for (cid, f), ok in
            zip(family.items(), holm([f[:3] for f in family.values()]))}


def ablation_claims(ablations: pd.DataFrame | None) -> list[Claim]:
    t = None if ablations is None or ablations.empty else outcomes(ablations)
    family = {} if t is None else ablation_family(t)
    out = []
    for cid, variant in paper.ABLATIONS.items():
        if cid not in family:
            out.append(_pending(cid, f"the ablation '{VARIANT_NAME[cid]}'"))
            continue
        sub = t[t["agent"] == variant]
        m, lo, hi, games, survives = family[cid]
        variant_wins = cid in VARIANT_SHOULD_WIN
        holds = bool(hi < 0) if variant_wins else bool(lo > 0)
        name = VARIANT_NAME[cid]
        text = f"{name}: share of the fool {_pp(m)} vs 1/n (95 % CI {_pp_ci(lo, hi)})"
        per = ablation_by_players(sub)
        note = (f"{name} against n - 1 full EvalAI players, " + ", ".join(
            sorted({f"{int(n)}" for n in sub["n_players"]})) + " players, "
            + "/".join(str(int(d)) for d in sorted(sub["deck"].unique()))
            + " cards; mean over configurations of the variant's share of the fool minus 1/n "
            "(positive: the variant is the fool more often); by player count: "
            + ", ".join(f"{int(n)} players {_pp(a)} (95 % CI {_pp_ci(b, c)})"
                        for n, a, b, c in per))
        if not holds:
            up = [int(n) for n, _, b, _ in per if b > 0]
            down = [int(n) for n, _, _, c in per if c < 0]
            if lo <= 0 <= hi and up and down:
                # a mean over player counts can hide two real effects of opposite sign
                why = ("mixed, not absent: the pooled mean of " + _pp(m) + " hides two "
                       "effects of opposite sign, each with a 95 % CI excluding 0 - the "
                       "variant is the fool more often with " + _players(up)
                       + " (the term helps there) and less often with " + _players(down)
                       + " (it hurts there)")
            elif lo <= 0 <= hi and (up or down):
                why = ("no measurable difference on average; the variant is the fool "
                       + ("more" if up else "less") + " often with " + _players(up or down))
            elif lo <= 0 <= hi:
                why = "no measurable difference in play"
            elif not survives:
                why = (f"the variant is, if anything, slightly {'weaker' if variant_wins else 'stronger'}"
                       " than the evaluator as coded: its interval only just excludes 0, and not "
                       f"after Holm's correction for the {len(family)} ablations")
            elif variant_wins:
                why = "the variant plays worse than the evaluator as coded"
            else:
                why = "the variant plays better than the evaluator as coded"
            if cid == "ablation.rank_bonus":
                why += " (as coded the term is at most ~8 points, too small to change a decision)"
            if cid == "ablation.many_cards":
                why += " (with Int division the term is +150 for most hands while the talon lasts)"
            note = why + "; " + note
        if (lo > 0 or hi < 0) and "Holm" not in note:
            note += (f"; {'still' if survives else 'not'} different from 0 after Holm's "
                     f"correction for the {len(family)} ablations")
            p, bar = holm_margin(family, cid)
            if survives and p > bar / 2:
                note += f", but only just (p = {p:.3f} against Holm's threshold {bar:.4f})"
        out.append(qualitative(cid, ABLATION_TEXT[cid], ABLATION_PAPER[cid],
                               text, holds, games, note=note))
    return out


def holm_margin(family: dict, cid: str) -> tuple[float, float]:
    """``(p, threshold)``: the two-sided p-value of ablation ``cid``'s pooled interval and the
    level Holm's step-down procedure holds it to (alpha / (m - k) at its rank k), so a note can
    say when a verdict stands the correction only just."""
    def p_of(est, lo, hi):
        se = (hi - lo) / (2 * Z)
        return math.erfc(abs(est) / se / math.sqrt(2)) if se > 0 else 0.0

    ps = {c: p_of(*f[:3]) for c, f in family.items()}
    rank = sorted(ps, key=ps.__getitem__).index(cid)
    return ps[cid], 0.05 / (len(ps) - rank)


def ablation_by_players(t: pd.DataFrame) -> list[tuple[int, float, float, float]]:
    """``(n_players, mean, lo, hi)`` of :func:`pooled_excess` for each player count of one
    variant's :func:`outcomes` rows."""
    return [(int(n), *pooled_excess(g)[:3]) for n, g in t.groupby("n_players")]


def _players(ns: Sequence[int]) -> str:
    return (" and ".join(str(n) for n in ns)) + " players"


def build_claims(res) -> list[Claim]:
    """Every claim id of the spec, from whatever ``res`` holds (missing ones as pending)."""
    hands = hand_claims(res["hands"])
    return [hands[0], hands[1], hands[2], endgame_claim(res["endgame"]),
            *baseline_claims(res["baselines"], res["diagnosis"]),
            *ablation_claims(res["ablations"])]


def claim_ids() -> list[str]:
    """The spec's claim ids, in the order of the claims table."""
    return [*paper.CLAIMS, *paper.ABLATIONS]
