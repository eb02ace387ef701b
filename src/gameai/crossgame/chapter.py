"""The cross-game chapter: its parameters and the cached experiments behind its tables and
figure (``data/crossgame/``).

* :func:`baseline` - the baseline player itself in the seat under test, on the same deals: the
  level a search must beat (one experiment per game, ``baseline_<game>``).
* :func:`strength` - each search at each budget in the seat under test (one experiment per game
  and budget, ``<game>_b<budget>``), computed budget by budget, cheapest first, in rounds of
  games, so that a stopped run leaves every cell with some games.
* :func:`exploration` - the sensitivity check of the one constant nobody tuned: determinized UCT
  and SO-ISMCTS at one budget with several UCB1 constants, on deals of their own (the root seed
  + 1), so that the check cannot select on the deals the main study reports
  (``exploration_<game>``).
* :func:`determinizations` - determinized UCT tuned like the constant: each number of
  determinizations of ``det_counts`` at each budget of ``det_budgets``, on deals of its own
  (the root seed + 2) (``determinizations_<game>_b<budget>``); then, per game and budget, the
  number that played best there on the main study's deals (``tuned_<game>_b<budget>``): the
  rival ISMCTS is judged against.
* :func:`confirm` - a second look (experiment ``confirm``): ``confirm_games`` of ISMCTS and its
  tuned rival (and of the other searches, whose cells they share) at the budgets the claim
  leaves *undecided* on the first ``n_games``
  (:func:`gameai.crossgame.analysis.undecided_budgets`).
* :func:`nonlocality` - what the opponents' moves tell: the baseline in every seat on the
  study's deals, each opponent move weighed over the deals a determinization draws
  (:mod:`gameai.crossgame.nonlocality`; ``nonlocality_<game>``).
* :func:`fusion` - strategy fusion in determinized UCT's own trees: at the seat under test's
  decisions in the same games, the plans of trees grown on different deals against those of
  trees grown on one (:mod:`gameai.crossgame.fusion`; ``fusion_<game>``).

One row per game (:func:`gameai.crossgame.play.play`; the two measures of what determinization
throws away: :func:`gameai.crossgame.nonlocality.likelihood_game`,
:func:`gameai.crossgame.fusion.fusion_game`).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..core.chapter import (
    COMPUTE_MISSING,
    RUN_ONLY as CORE_RUN_ONLY,
    ChapterPlan,
    Results,
    run_settings,
)
from ..core.params import MAX_COUNT, Param
from . import fusion as FU
from . import nonlocality as NL
from . import search as S
from .analysis import build_claims, tidy, undecided_budgets
from .play import EXPLORATION, SETTINGS, TUNED, play

CHAPTER = "crossgame"
#: Bump when the searches, an adapter or the play loop change what a game produces.
VERSION = "search2-adapters1-play1"
EXPERIMENTS = ("baseline", "strength", "exploration", "determinizations", "tuned", "confirm",
               "nonlocality", "fusion")
BUDGETS = (10, 30, 100, 300, 1_000, 3_000, 10_000)
#: Games per cell to reach in turn, below the requested number (see :func:`_rounds`).
ROUNDS = (100, 250)

PARAMETERS: dict[str, Param] = {
    **run_settings(2012),
    "games": Param(tuple(SETTINGS), tuple, "the games to show and compute (Durak with 2 and "
                   "with 4 players; run setting)",
                   item_kind=str, choices=tuple(SETTINGS)),
    "searches": Param(S.SEARCHES, tuple, "the searches in the seat under test", item_kind=str,
                      choices=S.SEARCHES),
    "budgets": Param(BUDGETS, tuple, "iterations (playouts) per decision", item_kind=int,
                     minimum=1, maximum=100_000),
    "n_games": Param(500, int, "games per game, search and budget (and of the baseline)",
                     minimum=1, maximum=MAX_COUNT),
    "confirm_games": Param(1_000, int, "games for a budget where the verdict of ISMCTS "
                           "against determinized UCT with its best number of determinizations "
                           "is undecided on the first n_games (0: none)", minimum=0,
                           maximum=MAX_COUNT),
    "exploration_values": Param((0.25, 0.5, EXPLORATION, 1.0, 1.4), tuple,
                                "UCB1 constants of the sensitivity check (the study uses "
                                f"{EXPLORATION})", item_kind=float, minimum=0.0, maximum=100.0),
    "exploration_budget": Param(300, int, "iterations per decision in the sensitivity check",
                                minimum=1, maximum=100_000),
    "exploration_games": Param(500, int, "games per game, search and constant in the "
                               "sensitivity check (on deals of their own)",
                               minimum=1, maximum=MAX_COUNT),
    "det_counts": Param((1, 2, 5, 10, 20, 40), tuple, "numbers of determinizations that "
                        "determinized UCT's sweep tries at each budget (those above the budget "
                        "are left out)", item_kind=int, minimum=1, maximum=10_000),
    "det_budgets": Param(BUDGETS, tuple, "budgets (iterations per decision) of the "
                         "determinization sweep; the tuned determinized UCT plays the budgets "
                         "of both lists", item_kind=int, minimum=1, maximum=100_000),
    "det_games": Param(200, int, "games per game, budget and number of determinizations in "
                       "the sweep (on deals of their own)", minimum=1, maximum=MAX_COUNT),
    "nonlocality_games": Param(200, int, "games per game in which every opponent move is "
                               "weighed over the deals a determinization draws (the baseline in "
                               "every seat, on the study's deals; 0: none)", minimum=0,
                               maximum=MAX_COUNT),
    "fusion_games": Param(200, int, "games per game in which determinized UCT's plans for the "
                          "seat under test's next decision are compared between deals (the "
                          "baseline in every seat, on the study's deals; 0: none)", minimum=0,
                          maximum=MAX_COUNT),
    "experiments": Param(EXPERIMENTS, tuple, "which experiments to compute (run setting)",
                         item_kind=str, choices=EXPERIMENTS),
    "compute_missing": COMPUTE_MISSING,
}
#: ``games`` only chooses which games a run computes (like ``experiments``): a game's rows do not
#: depend on which other games run, so a run of some games fills the committed ``data/``.
RUN_ONLY = (*CORE_RUN_ONLY, "experiments", "games")
#: The ci profile: every game and search, two games at the smallest budget, no second look, and
#: the exploration check with two constants at 10 iterations.
CI_SIZES = {"n_games": 2, "budgets": (10,), "confirm_games": 0, "exploration_budget": 10,
            "exploration_games": 2, "exploration_values": (EXPLORATION, 1.4),
            "det_counts": (1, 10), "det_budgets": (10,), "det_games": 2, "nonlocality_games": 2,
            "fusion_games": 1}
#: The searches with a UCB1 constant (flat Monte Carlo has none).
UCB_SEARCHES = ("det_uct", "ismcts")
#: Deals of the determinization sweep: the root seed + this (the exploration check uses + 1).
DET_SEED_OFFSET = 2


def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """Game ``index`` of ``config`` (:func:`gameai.crossgame.play.play`); a config without
    ``exploration`` (the main study's) plays with the chapter's constant, one without ``n_det``
    with determinized UCT's fixed split."""
    player = "det_uct" if config["player"] == TUNED else config["player"]
    return play(config["game"], player, int(config["budget"]), index,
                int(config["deal_seed"]), rng,
                exploration=float(config.get("exploration", EXPLORATION)),
                n_det=int(config.get("n_det", 0)))


def warmup() -> None:
    """Compile the searches and every adapter once per worker (numba's cache makes it fast)."""
    from .adapters import nim

    s, g = nim.new_game(5)
    S.search_move(2, s, g, 4, 0.7, np.random.default_rng(0))


def _rounds(n: int, computes: bool) -> list[int]:
    return ([r for r in ROUNDS if r < n] + [n]) if computes else [n]


def strength_key(game: str, budget: int) -> str:
    return f"{game}_b{int(budget)}"


#: The smallest budget whose recorded cost per game, scaled by the budget, estimates a larger
#: budget's before it has run (a search's cost grows about in proportion to its iterations;
#: below this, each game's fixed costs would make the estimate far too high).
COST_BUDGET = 300
#: The budgets a cost estimate may scale from: COST_BUDGET and those above it in the study.
COST_BUDGETS = (300, 1000, 3000)


def cost_like(key, game: str, budget: int) -> tuple[tuple[str, float], ...]:
    """The experiments whose recorded cost per game estimates ``key(game, budget)``'s before it
    has run, the nearest budget first: scaling from the nearest measured budget errs least, as
    the cost grows more slowly than the budget (measured from 1,000 to 3,000 iterations: 1.8 to
    2.8 times the cost for 3 times the budget, by game)."""
    return tuple((key(game, b), budget / b) for b in sorted(COST_BUDGETS, reverse=True)
                 if b < budget)


def baseline(res: Results) -> None:
    """The baseline player in the seat under test, on the deals every search plays."""
    p = res.params
    for game in p["games"]:
        res.get(f"baseline_{game}", f"baseline_{game}", game_task,
                [{"game": game, "player": "baseline", "budget": 0, "deal_seed": p["seed"]}],
                p["n_games"], chunk_size=50, warmup=warmup, compute=res.computes("baseline"),
                description=f"{SETTINGS[game].label}: the baseline "
                            f"({SETTINGS[game].baseline}) in the seat under test")


def _strength_cell(res: Results, game: str, budget: int, n: int, computes: bool) -> None:
    p = res.params
    key = strength_key(game, budget)
    res.get(key, key, game_task,
            [{"game": game, "player": s, "budget": int(budget), "deal_seed": p["seed"]}
             for s in p["searches"]],
            n, chunk_size=10, partial=True, warmup=warmup, compute=computes,
            cost_like=cost_like(strength_key, game, budget),
            description=f"{SETTINGS[game].label}: each search at {budget} iterations per "
                        f"decision vs {SETTINGS[game].baseline}")


def strength(res: Results) -> None:
    """Each search at each budget in the seat under test: budgets in increasing order, in
    rounds of games."""
    p = res.params
    computes = res.computes("strength")
    for n in _rounds(p["n_games"], computes):
        for budget in sorted(p["budgets"]):
            for game in p["games"]:
                _strength_cell(res, game, budget, n, computes)


def exploration_key(game: str) -> str:
    return f"exploration_{game}"


def exploration(res: Results) -> None:
    """Determinized UCT and SO-ISMCTS at ``exploration_budget`` with each UCB1 constant of
    ``exploration_values`` (and the study's own, the reference, if they leave it out),
    ``exploration_games`` games each, on deals of the root seed + 1."""
    p = res.params
    values = sorted(set(map(float, p["exploration_values"])) | {EXPLORATION})
    searches = [s for s in UCB_SEARCHES if s in p["searches"]]
    if not searches:  # flat Monte Carlo alone has no constant to check
        return
    for game in p["games"]:
        key = exploration_key(game)
        res.get(key, key, game_task,
                [{"game": game, "player": s, "budget": int(p["exploration_budget"]),
                  "deal_seed": p["seed"] + 1, "exploration": float(c)}
                 for s in searches for c in values],
                p["exploration_games"], chunk_size=10, partial=True, warmup=warmup,
                compute=res.computes("exploration"),
                description=f"{SETTINGS[game].label}: determinized UCT and SO-ISMCTS at "
                            f"{p['exploration_budget']} iterations with UCB1 constants "
                            f"{', '.join(f'{c:g}' for c in values)}, on deals "
                            f"of their own")


def determinizations_key(game: str, budget: int) -> str:
    return f"determinizations_{game}_b{int(budget)}"


def det_counts_at(counts, budget: int) -> list[int]:
    """The sweep's numbers of determinizations at ``budget``: those of ``counts`` up to the
    budget (a tree needs an iteration)."""
    return sorted({int(k) for k in counts if int(k) <= int(budget)})


def _sweep_cell(res: Results, game: str, budget: int, n: int, computes: bool) -> None:
    p = res.params
    key = determinizations_key(game, budget)
    counts = det_counts_at(p["det_counts"], budget)
    res.get(key, key, game_task,
            [{"game": game, "player": "det_uct", "budget": int(budget),
              "deal_seed": p["seed"] + DET_SEED_OFFSET, "n_det": k} for k in counts],
            n, chunk_size=10, partial=True, warmup=warmup, compute=computes,
            cost_like=cost_like(determinizations_key, game, budget),
            description=f"{SETTINGS[game].label}: determinized UCT at {budget} iterations with "
                        f"{', '.join(map(str, counts))} determinizations, on deals of their own")


def tuned_key(game: str, budget: int) -> str:
    return f"tuned_{game}_b{int(budget)}"


def _tuned_cell(res: Results, game: str, budget: int, k: int, n: int, computes: bool) -> None:
    p = res.params
    key = tuned_key(game, budget)
    res.get(key, key, game_task,
            [{"game": game, "player": TUNED, "budget": int(budget), "deal_seed": p["seed"],
              "n_det": int(k)}],
            n, chunk_size=10, partial=True, warmup=warmup, compute=computes,
            cost_like=cost_like(tuned_key, game, budget),
            description=f"{SETTINGS[game].label}: determinized UCT at {budget} iterations with "
                        f"the sweep's best number of determinizations ({k}) vs "
                        f"{SETTINGS[game].baseline}")


def determinizations(res: Results) -> None:
    """Determinized UCT tuned like the constant, budget by budget, cheapest first:

    1. the sweep (experiment ``determinizations``): each number of determinizations of
       ``det_counts`` up to the budget, ``det_games`` games each, on deals of the root seed + 2
       (its own, so that choosing cannot select on the deals the study reports);
    2. the tuned player (experiment ``tuned``): the number that played best there
       (:func:`gameai.crossgame.analysis.best_det_counts`, on the sweep's rows as they stand),
       ``n_games`` games on the main study's deals, at the budgets of both ``budgets`` and
       ``det_budgets``.

    A budget is finished before the next starts, so that a stopped run leaves whole budgets."""
    from .analysis import best_det_counts, tidy_part

    p = res.params
    if "det_uct" not in p["searches"]:
        return
    sweep_computes, tuned_computes = res.computes("determinizations"), res.computes("tuned")
    for budget in sorted(p["det_budgets"]):
        for n in _rounds(p["det_games"], sweep_computes):
            for game in p["games"]:
                _sweep_cell(res, game, budget, n, sweep_computes)
        if budget not in p["budgets"]:
            continue
        best = best_det_counts(tidy_part(res, "determinizations"))
        for n in _rounds(p["n_games"], tuned_computes):
            for game in p["games"]:
                if (game, int(budget)) in best:
                    _tuned_cell(res, game, budget, best[(game, int(budget))], n, tuned_computes)


def confirm(res: Results) -> None:
    """The second look: ``confirm_games`` of the strength cell (every search) and of the tuned
    rival at each budget where the claim's verdict is *undecided* on the first ``n_games``
    deals (decided on those games alone; a budget once chosen stays chosen,
    :func:`gameai.crossgame.analysis.undecided_budgets`).
    Computed by the experiment ``confirm`` (so that a run can take the second look without the
    strength cells of larger budgets); the verdicts then judge such a budget on all its games
    at half the level (:mod:`gameai.crossgame.verdicts`)."""
    from .analysis import best_det_counts, tidy_part

    p = res.params
    if p["confirm_games"] <= p["n_games"] or not {"ismcts", "det_uct"} <= set(p["searches"]):
        return
    rows = tidy(res)
    best = best_det_counts(tidy_part(res, "determinizations"))
    for game in p["games"]:
        for budget in undecided_budgets(rows, game, p["n_games"]):
            if (game, budget) not in best:
                continue
            _strength_cell(res, game, budget, p["confirm_games"], res.computes("confirm"))
            _tuned_cell(res, game, budget, best[(game, budget)], p["confirm_games"],
                        res.computes("confirm"))


def _position_measure(res: Results, experiment: str, task, settings: dict, n: int,
                      words) -> None:
    """``n`` games per game of one of the measures of what determinization throws away
    (experiment ``experiment``, keys ``<experiment>_<game>``): ``task`` on the study's deals
    with ``settings`` in its config; ``words(game)`` describes the experiment."""
    for game in res.params["games"] if n else ():
        key = f"{experiment}_{game}"
        res.get(key, key, task, [{"game": game, "deal_seed": res.params["seed"], **settings}],
                n, chunk_size=10, partial=True, warmup=warmup, compute=res.computes(experiment),
                description=f"{SETTINGS[game].label}: {words(game)}")


def nonlocality(res: Results) -> None:
    """Each opponent move of ``nonlocality_games`` games per game (the baseline in every seat,
    on the study's deals) weighed over the deals a determinization draws
    (:func:`gameai.crossgame.nonlocality.likelihood_game`)."""
    _position_measure(res, "nonlocality", NL.game_task, {"draws": NL.DRAWS},
                      res.params["nonlocality_games"],
                      lambda game: f"each move of an opponent of the seat under test "
                                   f"({SETTINGS[game].baseline} in every seat) weighed over "
                                   f"{NL.DRAWS} deals a determinization draws")


def fusion(res: Results) -> None:
    """The plans of determinized UCT's trees in ``fusion_games`` games per game (the baseline
    in every seat, on the study's deals), compared between deals and within one
    (:func:`gameai.crossgame.fusion.fusion_game`)."""
    _position_measure(res, "fusion", FU.game_task, {"deals": FU.DEALS, "iters": FU.ITERS,
                                                     "version": FU.VERSION},
                      res.params["fusion_games"],
                      lambda game: f"determinized UCT's plans for the seat under test's next "
                                   f"decision, two trees of {FU.ITERS:,} iterations on each of "
                                   f"{FU.DEALS} drawn deals per decision")


PLAN = ChapterPlan(CHAPTER, VERSION, PARAMETERS, CI_SIZES,
                   steps=(baseline, strength, exploration, determinizations, confirm, nonlocality,
                          fusion),
                   build_claims=build_claims, run_only=RUN_ONLY)
resolve, results, write_claims, run = PLAN.resolve, PLAN.results, PLAN.write_claims, PLAN.run
