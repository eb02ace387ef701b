"""Budget-by-budget verdicts for "SO-ISMCTS plays at least as well as its rival".

Cowling, Powley & Whitehouse (2012) say ISMCTS plays *at least as well as* determinized UCT at
equal iteration budgets. A difference that is merely not significant does not show that: at 500
games a paired interval is ±6 points wide, so "no significant loss" allows a loss of 5. Each
budget is therefore judged by three tests of the paired difference ``d`` (ISMCTS minus the
rival on the same deals, in the game's measure, positive = ISMCTS better), each with Holm's
correction over the budgets of a game (Holm 1979):

* a two-sided test of ``d = 0`` - *better* or *worse*;
* a non-inferiority test of ``d <= -m`` (one-sided, level 2.5 %, the lower end of the 95 %
  interval above ``-m``) - *not worse by more than m*;
* an equivalence test, two one-sided tests of ``|d| >= m`` (each at 2.5 %) - *equivalent within
  m*.

A budget that none of them decides reads *undecided at this n*, with the number of games that
would decide it if the estimate and spread stayed as they are - at the level Bonferroni's
correction over the game's budgets would ask, which Holm's never exceeds, so that number always
lies beyond the games already played. The margin ``m`` is
:data:`MARGIN`: 3 points of win or fool rate, about the half-width of a 1,000-game interval.

A budget undecided on the first ``n_games`` deals gets more games (the chapter's second look),
and is then judged on all of them at half the level (its p-values doubled; the first look's
level is unchanged). Computed from the joint normal law of the two looks' statistics
(correlation the square root of 500 / 1,000), a budget judged twice is wrongly declared not
worse by more than the margin, or better, or worse, with probability at most about 3.2 % for
each one-sided question instead of 2.5 % (4.2 % without the halving); at the stricter levels
of Holm's correction the excess is relatively somewhat larger.
Normal approximations throughout (the paired differences of 0/1 outcomes at n >= 100).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import pandas as pd

from ..core.stats import holm_reject
from .analysis import _signed_paired

#: The margin of the non-inferiority and equivalence tests, as a fraction (3 points).
MARGIN = 0.03
Z = 1.959963984540054
ALPHA = 0.05  # two-sided; each one-sided test runs at ALPHA / 2

#: The verdicts of one budget, from the strongest statement down.
BETTER, WORSE = "better", "worse"
EQUIVALENT, NOT_WORSE, UNDECIDED = "equivalent", "not worse", "undecided"


#: What the intervals printed beside the verdicts are (the claims' notes, the chapter's table
#: and figure): each budget's own 95 % interval, while its verdict allows for the game's other
#: budgets and, where a budget had a second look, for the two looks (half the level) - so an
#: interval that clears -3 points, or 0, can still read undecided, and of two budgets with like
#: intervals one can read better and the other only not worse.
INTERVALS_NOTE = ("The intervals are each budget's own 95 % interval; the verdicts allow for "
                  "testing all of a game's budgets (Holm) and judge a budget given a second look "
                  "at half the level, so an interval clear of −3 points, or of 0, can still read "
                  "undecided.")


def _phi(x: float) -> float:
    """Standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def p_values(d: float, se: float, margin: float) -> tuple[float, float, float]:
    """``(two-sided p of d = 0, one-sided p of d <= -margin, TOST p of |d| >= margin)`` for an
    estimate ``d`` with standard error ``se`` (the one-sided p-values are compared with
    ``ALPHA / 2``; so is the TOST's, the larger of its two one-sided p-values)."""
    if math.isnan(d) or math.isnan(se):  # nothing measured (fewer than two paired deals)
        return 1.0, 1.0, 1.0
    if not se > 0:  # both played alike on every deal: certain, as far as these deals go
        return (0.0 if d else 1.0), (0.0 if d > -margin else 1.0), (0.0 if abs(d) < margin else 1.0)
    p_diff = math.erfc(abs(d) / se / math.sqrt(2))
    p_noninf = 1 - _phi((d + margin) / se)
    p_equiv = max(p_noninf, _phi((d - margin) / se))
    return p_diff, p_noninf, p_equiv


def games_to_decide(d: float, se: float, n: int, margin: float, tests: int = 1) -> int:
    """Games (paired deals) that would decide an undecided budget if ``d`` and the per-game
    spread stayed as measured: the fewest that make either the non-inferiority test (for
    ``d > -margin``) or the test of ``d = 0`` reach its level after the correction over
    ``tests`` budgets - Bonferroni's (each test at ``ALPHA / tests``), the strictest level
    Holm's procedure can ask of any one of them, so the number decides the budget whatever
    its rank among the others."""
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * max(1, tests)))
    sd = se * math.sqrt(n)
    needs = []
    if d > -margin:
        needs.append((z * sd / (d + margin)) ** 2)
    if d:
        needs.append((z * sd / abs(d)) ** 2)
    return int(math.ceil(min(needs))) if needs else 0


def budget_verdicts(rows: pd.DataFrame, game: str, rival: str, n_games: int,
                    margin: float = MARGIN, second_look: int = 0) -> pd.DataFrame:
    """One row per budget where ISMCTS and ``rival`` both have ``n_games`` games of ``game``:
    ``budget``, ``n`` (paired deals), ``diff`` with ``low``/``high`` (95 % CI), the three
    p-values, the Holm decisions over the budgets (``differs``, ``not_worse``,
    ``equivalent``), ``verdict`` (:data:`BETTER` ... :data:`UNDECIDED`) and ``to_decide``
    (games that would decide an undecided budget, else 0). A budget with more than
    ``n_games`` paired deals had a second look at ``second_look`` deals: it is taken once they
    are all in (``looks`` is 2, the budget is judged on its first ``second_look`` deals and its
    p-values are doubled); until then, and with no second look (``second_look`` not above
    ``n_games``), the budget is judged on its first ``n_games``."""
    cols = ["game", "budget", "n", "looks", "diff", "low", "high", "p_diff", "p_not_worse",
            "p_equiv", "differs", "not_worse", "equivalent", "verdict", "to_decide"]
    out = []
    cells = rows[rows["game"] == game]
    for budget in sorted(set(cells.loc[cells["player"] == "ismcts", "budget"])):
        a = cells[(cells["player"] == "ismcts") & (cells["budget"] == budget)]
        b = cells[(cells["player"] == rival) & (cells["budget"] == budget)]
        if min(len(a), len(b)) < n_games:
            continue
        looks = 2 if n_games < second_look and min(len(a), len(b)) >= second_look else 1
        upto = second_look if looks == 2 else n_games
        d, lo, hi, n = _signed_paired(a[a["index"] < upto], b[b["index"] < upto], game)
        se = (hi - lo) / (2 * Z) if hi == hi else math.nan
        out.append({"game": game, "budget": int(budget), "n": n, "looks": looks, "diff": d,
                    "low": lo, "high": hi,
                    **{k: min(1.0, looks * v) for k, v in
                       zip(("p_diff", "p_not_worse", "p_equiv"), p_values(d, se, margin))},
                    "se": se})
    df = pd.DataFrame(out, columns=[*cols[:10], "se"])
    df["differs"] = holm_reject(df["p_diff"].tolist(), ALPHA)
    df["not_worse"] = holm_reject(df["p_not_worse"].tolist(), ALPHA / 2)
    df["equivalent"] = holm_reject(df["p_equiv"].tolist(), ALPHA / 2)
    df["verdict"] = [_verdict(r) for r in df.itertuples()]
    df["to_decide"] = [games_to_decide(r.diff, r.se, r.n, margin, len(df) * r.looks)
                       if r.verdict == UNDECIDED else 0 for r in df.itertuples()]
    return df[cols]


def _verdict(r) -> str:
    if r.differs:
        return BETTER if r.diff > 0 else WORSE
    if r.equivalent:
        return EQUIVALENT
    return NOT_WORSE if r.not_worse else UNDECIDED


def verdict_words(verdict: str, margin: float = MARGIN, n: int = 0, to_decide: int = 0) -> str:
    """A budget's verdict in the chapter's words."""
    m = f"{100 * margin:g} points"
    return {BETTER: "ISMCTS better", WORSE: "ISMCTS worse",
            EQUIVALENT: f"equivalent within {m}",
            NOT_WORSE: f"ISMCTS not worse by more than {m}",
            UNDECIDED: (f"undecided at {n:,} games (about {to_decide:,} would decide)"
                        if to_decide else f"undecided at {n:,} games")}[verdict]


def claim_outcome(table: pd.DataFrame) -> str:
    """The game's claim from its budgets: ``"holds"`` when ISMCTS is shown not worse by more
    than the margin at every budget (better, equivalent or not worse), ``"fails"`` when it is
    significantly worse at some budget, ``"undecided"`` otherwise (and with no budget)."""
    if table.empty:
        return UNDECIDED
    if (table["verdict"] == WORSE).any():
        return "fails"
    return "holds" if table["verdict"].isin([BETTER, EQUIVALENT, NOT_WORSE]).all() else UNDECIDED
