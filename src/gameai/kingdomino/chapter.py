"""The Kingdomino chapter: its parameters and the cached experiments behind every table and figure.

One function per table or figure of the paper (Gedda, Lagerkvist & Butler 2018), each loading its
experiment from the store (``data/kingdomino/``) and, when allowed, computing what is missing.
Budgets are the paper's "T seconds per ply" turned into playouts per move by the authors' own
measured rates (``agents.budget``), so every number here is the same on any machine.

Compute plan. Table III is the expensive part: a game at T seconds per ply costs the searching
player about 13 x T x (the authors' rate / ours) seconds. :func:`results` therefore computes in
this order: the cheap experiments (§II-B, Table I), Table III for T <= 2 s in rounds of games (every
cell reaches 25 games, then 50, 100, 200, so an interrupted run leaves every cell with a usable n),
our budget check below 0.1 s (minutes), Table II and its FG-bug check, Figs. 7-8, Table III for
T = 4 ... 10 s in the same rounds, then the experiments beyond the paper (rounds again). A cell
short of its games is shown with its n and CI (``partial``), never hidden.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.chapter import (
    COMPUTE_MISSING,
    RUN_ONLY as CORE_RUN_ONLY,
    ChapterPlan,
    Results,
    run_settings,
)
from ..core.params import MAX_COUNT, Param
from . import paper
from .analysis import build_claims
from .agents import AGENTS_VERSION
from .experiments import branching_task, game_task
from .rules import ENGINE_VERSION

CHAPTER = "kingdomino"
VERSION = f"engine{ENGINE_VERSION}-agents{AGENTS_VERSION}"

TABLE3_STRATEGIES = tuple(paper.TABLE3)
EXPERIMENTS = ("branching", "table1", "table3_short", "budget_check", "table2", "fg_quirk",
               "fig7", "fig8", "table3_long", "beyond", "table3_authors", "authors_greedy")
#: Games per cell reached by every Table III cell before any cell gets more.
ROUNDS = (25, 50, 100, 200)
#: Budgets above this are "long" (computed after Table II and Figs. 7-8).
SHORT_T = 2.0
#: Budget check (our diagnostic): every searching strategy at these fractions of T = 0.1 s, to
#: compare with the paper's 0.1 s column (does the paper's UCT play as if it had fewer
#: iterations than its playout rate gives?).
BUDGET_CHECK_FRACTIONS = (0.5, 0.75)
BUDGET_CHECK_T = 0.1
#: Beyond the paper: 10x the paper's largest budget, for a few key strategies.
BEYOND_STRATEGIES = ("MCE-TR/R", "MCE-FG/R", "UCT-FG", "UCT_W-FG")
BEYOND_T = 100.0
#: Figs. 7-8 setups: (agent, T) swept over C, and over W at C = 0.6.
FIG7_SETUPS = (("UCT-TR", 0.2), ("UCT-TR", 0.5), ("UCT-FG", 2.0))
FIG8_SETUPS = (("UCT_W-TR", 2.0), ("UCT_W-FG", 2.0))
#: The authors'-greedy check (our diagnostic of the like-for-like column's long-budget shortfall):
#: each greedy against three of its own kind (Table II's FG row is the authors' FG so played)
#: and our FG against three of each (what the opponents alone change of a margin), then a few
#: like-for-like cells again with FGA opponents and the authors' greedy in the playouts - TR
#: playouts (MCE-TR/R, UCT-TR) see only the opponents change, the others both.
GREEDY_GAMES = (("FGA", "FGA"), ("FG*", "FG*"), ("FG", "FG"), ("FG", "FGA"), ("FG", "FG*"))
GREEDY_CHECK_STRATEGIES = ("MCE-TR/R", "MCE-FG/R", "MCE-εG/R", "UCT-TR", "UCT-FG", "UCT-PG")
GREEDY_CHECK_T = (0.5, 6.0)

PARAMETERS: dict[str, Param] = {
    **run_settings(2018),
    "time_scale": Param(1.0, float, "multiplies every T (1: the paper's budgets)", minimum=1e-4,
                        maximum=100.0),
    "branching_games": Param(1_000, int, "random games for §II-B and Fig. 2",
                             minimum=1, maximum=MAX_COUNT),
    "table1_games": Param(paper.TABLE1_GAMES, int, "games per agent vs 3 x TR (Table I)",
                          minimum=1, maximum=MAX_COUNT),
    "table2_games": Param(paper.TABLE2_GAMES, int, "games per agent vs 3 x FG (Table II)",
                          minimum=0, maximum=MAX_COUNT),
    "table2_T": Param(paper.TABLE2_T, float, "seconds per ply of Table II", minimum=0,
                      maximum=1000.0),
    "table3_games": Param(paper.TABLE3_GAMES, int, "games per cell of Table III",
                          minimum=0, maximum=MAX_COUNT),
    "table3_T": Param(tuple(float(t) for t in paper.TABLE3_T), tuple,
                      "seconds per ply of Table III's columns", item_kind=float, minimum=0,
                      maximum=1000.0),
    "table3_strategies": Param(TABLE3_STRATEGIES, tuple, "Table III's rows",
                               item_kind=str, choices=TABLE3_STRATEGIES),
    "fig_games": Param(paper.TABLE3_GAMES, int, "games per point of Figs. 7-8",
                       minimum=0, maximum=MAX_COUNT),
    "budget_check_games": Param(paper.TABLE3_GAMES, int, "games per strategy of the budget "
                                "check (half and three quarters of 0.1 s)",
                                minimum=0, maximum=MAX_COUNT),
    "beyond_games": Param(200, int, "beyond: games per strategy at 10x the largest budget",
                          minimum=0, maximum=MAX_COUNT),
    "quirk_games": Param(paper.TABLE2_GAMES, int, "games per setting of the FG-bug check "
                         "(FG* = the authors' FG, last domino at random)",
                         minimum=0, maximum=MAX_COUNT),
    "authors_games": Param(paper.TABLE3_GAMES, int, "games per cell of the like-for-like "
                           "Table III (the authors' move order, budgets and opponents)",
                           minimum=0, maximum=MAX_COUNT),
    "move_order": Param("authors", str, "UCT's expansion order in the like-for-like Table III: "
                        "authors (pick-major, lowest domino first, as the authors' code lists "
                        "moves) or placement (ours)", choices=("authors", "placement")),
    "budget": Param("authors", str, "playouts per move in the like-for-like Table III: authors "
                    "(the authors' measured mean for that cell and move) or rule (T x their "
                    "10 s rate)", choices=("authors", "rule")),
    "opponents": Param("FG*", str, "the three opponents in the like-for-like Table III: FG* "
                       "(the authors' FG, last domino at random), FGA (their FG in full: first "
                       "domino at random too) or FG (ours)", choices=("FG*", "FGA", "FG")),
    "playout_greedy": Param("ours", str, "the greedy of FG, PG and εG playouts in the like-for-like "
                            "Table III: ours or authors (FGA)", choices=("ours", "authors")),
    "greedy_games": Param(10_000, int, "games per setting of the authors'-greedy check's "
                          "greedy games (each greedy against three of its own kind; FG against "
                          "three FGA and three FG*)",
                          minimum=0, maximum=MAX_COUNT),
    "greedy_check_games": Param(paper.TABLE3_GAMES, int, "games per cell of the authors'-greedy "
                                "check (like-for-like cells with FGA opponents and the authors' "
                                "greedy in the playouts)", minimum=0, maximum=MAX_COUNT),
    "experiments": Param(EXPERIMENTS, tuple, "which experiments to compute (run setting)",
                         item_kind=str, choices=EXPERIMENTS),
    "compute_missing": COMPUTE_MISSING,
}
RUN_ONLY = (*CORE_RUN_ONLY, "experiments")

#: Sizes of the ``ci`` profile: every experiment runs, each on a few games at tiny budgets.
CI_SIZES = {
    "time_scale": 0.002, "branching_games": 20, "table1_games": 4, "table2_games": 2,
    "table3_games": 2, "table3_T": (0.1, 10.0), "table3_strategies": ("FG", "MCE-FG/R", "UCT_W-TR"),
    "fig_games": 1, "beyond_games": 1, "budget_check_games": 1, "quirk_games": 2,
    # The authors' budgets exist for the paper's T only, not for the ci profile's scaled ones.
    "authors_games": 2, "budget": "rule", "greedy_games": 4, "greedy_check_games": 2,
}


def _game(player: str, opponent: str, T: float = 0.0, **search: float) -> dict:
    return {"player": player, "opponent": opponent, "T": float(T), **search}


def _scaled(params: Mapping[str, Any], T: float) -> float:
    return round(float(T) * params["time_scale"], 6)


def _rounds(n: int, computes: bool) -> list[int]:
    """Games per cell to reach in turn (:data:`ROUNDS` below ``n``, then ``n``), so that a
    stopped run leaves every cell with some n; a run that only loads asks for ``n`` at once."""
    return ([r for r in ROUNDS if r < n] + [n]) if computes else [n]


# ----------------------------------------------------------------------------- the paper


def branching(res: Results) -> None:
    """§II-B and Fig. 2: legal moves per player and round over random (TR) games."""
    # The second config counts a same-terrain domino's mirrored placement twice: the reading
    # that reproduces the paper's tree size (the spec's rules list it once).
    res.get("branching", "branching", branching_task,
            [{"agent": "TR"}, {"agent": "TR", "mirrored_twice": True}],
            res.params["branching_games"], chunk_size=100, partial=True,
            compute=res.computes("branching"),
            description="§II-B / Fig. 2: branching factor per player and round, 4 x TR "
                        "(mirrored placements listed once, and counted twice)")


def table1(res: Results) -> None:
    """Table I and Figs. 3-4: TR, GPRD and FG against three TR players."""
    res.get("table1", "table1", game_task, [_game(p, "TR") for p in paper.TABLE1],
            res.params["table1_games"], chunk_size=50, partial=True,
            compute=res.computes("table1"),
            description="Table I / Figs. 3-4: each agent vs 3 x TR")


def table2(res: Results) -> None:
    """Table II: FG and MCE-TR with each scoring function against three FG, T = 5 s."""
    p = res.params
    if p["table2_games"] > 0:
        res.get("table2", "table2", game_task,
                [_game(a, "FG", _scaled(p, p["table2_T"])) for a in paper.TABLE2],
                p["table2_games"], chunk_size=2, partial=True, compute=res.computes("table2"),
                description="Table II: FG and MCE-TR/{WDL,P,R} vs 3 x FG at 5 s per ply")


def fg_quirk(res: Results) -> None:
    """Our check of Table II's FG row: the authors' FG places its very last domino at random (a
    fallback bug, spec); ours is the correct greedy. FG* (with the bug) against three FG*, the
    paper's own setting, and our FG against three FG*; as many games as Table II. Static
    players only: seconds."""
    p = res.params
    if p["quirk_games"] > 0:
        res.get("fg_quirk", "fg_quirk", game_task, [_game("FG*", "FG*"), _game("FG", "FG*")],
                p["quirk_games"], chunk_size=100, partial=True, compute=res.computes("fg_quirk"),
                description="FG-bug check: FG* (last domino at random) and FG vs 3 x FG*")


def _table3_cell_key(T: float) -> str:
    """``table3_T0p5`` for T = 0.5 s (a file name: no dots, no '+' of an exponent)."""
    return f"table3_T{T:g}".replace(".", "p").replace("+", "")


def table3(res: Results, long: bool) -> None:
    """Table III / Fig. 5: every strategy at every budget against three FG (one experiment per
    T, so that each column can be computed, and is cached, on its own)."""
    p = res.params
    group = "table3_long" if long else "table3_short"
    if p["table3_games"] == 0:
        return
    columns = sorted(T for T in p["table3_T"] if (T > SHORT_T) == long)
    computes = res.computes(group)
    # Rounds of games across the columns, so that a stopped run leaves every cell with some n.
    for n in _rounds(p["table3_games"], computes):
        for T in columns:
            res.get(_table3_cell_key(T), _table3_cell_key(T), game_task,
                    [_game(s, "FG", _scaled(p, T)) for s in p["table3_strategies"]], n,
                    chunk_size=2, partial=True, compute=computes,
                    description=f"Table III: each strategy vs 3 x FG at T = {T:g} s per ply")


def table3_short(res: Results) -> None:
    """Table III's columns T <= 2 s (an eighth of its cost), computed first."""
    table3(res, long=False)


def table3_long(res: Results) -> None:
    """Table III's columns T = 4 ... 10 s, after every other experiment of the paper."""
    table3(res, long=True)


def _uct_sweep(res: Results, key: str, name: str, setups, param: str, values,
               description: str) -> None:
    """One of Figs. 7-8: each (agent, T) setup with ``param`` swept over ``values``."""
    p = res.params
    if p["fig_games"] > 0:
        res.get(key, name, game_task,
                [_game(a, "FG", _scaled(p, T), **{param: float(v)}) for a, T in setups
                 for v in values], p["fig_games"], chunk_size=2, partial=True,
                compute=res.computes(key), description=description)


def fig7(res: Results) -> None:
    """Fig. 7: UCT's exploration constant C, for UCT-TR at 0.2 and 0.5 s and UCT-FG at 2 s."""
    _uct_sweep(res, "fig7", "fig7_C", FIG7_SETUPS, "C", paper.FIG7_C,
               "Fig. 7: UCT's C swept for UCT-TR (0.2, 0.5 s) and UCT-FG (2 s)")


def fig8(res: Results) -> None:
    """Fig. 8: the progressive win bias weight W, for UCT_W-TR and UCT_W-FG at 2 s, C = 0.6."""
    _uct_sweep(res, "fig8", "fig8_W", FIG8_SETUPS, "W", paper.FIG8_W,
               "Fig. 8: UCT_W's W swept for UCT_W-TR and UCT_W-FG (2 s, C = 0.6)")


def budget_check(res: Results) -> None:
    """Our diagnostic of Table III's low-budget UCT cells: every searching strategy at half and
    three quarters of the 0.1 s budget, 200 games each, against three FG."""
    p = res.params
    if p["budget_check_games"] > 0:
        res.get("budget_check", "budget_check", game_task,
                [_game(s, "FG", _scaled(p, f * BUDGET_CHECK_T)) for f in BUDGET_CHECK_FRACTIONS
                 for s in p["table3_strategies"] if s != "FG"],
                p["budget_check_games"], chunk_size=4, partial=True,
                compute=res.computes("budget_check"),
                description="Budget check: searching strategies at 0.05 and 0.075 s per ply")


def _table3_authors_key(T: float) -> str:
    """``table3authors_T0p5`` for T = 0.5 s."""
    return f"table3authors_T{T:g}".replace(".", "p")


def table3_authors(res: Results) -> None:
    """Table III like for like: every cell again with the authors' move order, their measured
    playouts per move and their opponents (the ``move_order``, ``budget`` and ``opponents``
    parameters; all on the authors' side by default). The paper's Table III is judged on this
    column. Short budgets first (T <= 2 s costs about a tenth of the whole), each in rounds
    of games, so that a stopped run leaves every cell with some n."""
    p = res.params
    if p["authors_games"] == 0:
        return
    computes = res.computes("table3_authors")
    switches = {"move_order": p["move_order"], "budget": p["budget"]}
    if p["playout_greedy"] != "ours":  # spelt out only when on: the stored cells keep their keys
        switches["playout_greedy"] = p["playout_greedy"]
    for long in (False, True):
        columns = sorted(T for T in p["table3_T"] if (T > SHORT_T) == long)
        for n in _rounds(p["authors_games"], computes):
            for T in columns:
                res.get(_table3_authors_key(T), _table3_authors_key(T), game_task,
                        [_game(s, p["opponents"], _scaled(p, T), **switches)
                         for s in p["table3_strategies"]], n, chunk_size=2, partial=True,
                        compute=computes,
                        description=f"Table III like for like: each strategy vs 3 x "
                                    f"{p['opponents']} at T = {T:g} s per ply, move order "
                                    f"{p['move_order']}, budget {p['budget']}"
                                    + (f", playout greedy {p['playout_greedy']}"
                                       if "playout_greedy" in switches else ""))


def authors_greedy(res: Results) -> None:
    """Our check of the like-for-like column's opponents and playouts: the authors' FG as their
    code plays it in full (FGA: first and last domino at random, ``policies.fg_authors_move``)
    against FG* and FG, each against three of its own kind, and our FG against three of each
    (``GREEDY_GAMES``); then ``GREEDY_CHECK_STRATEGIES``
    like for like (the ``move_order`` and ``budget`` switches) with FGA opponents and the
    authors' greedy in the playouts, at a short and a long budget, in rounds of games."""
    p = res.params
    computes = res.computes("authors_greedy")
    if p["greedy_games"] > 0:
        res.get("greedy_self_play", "greedy_self_play", game_task,
                [_game(a, b) for a, b in GREEDY_GAMES], p["greedy_games"], chunk_size=250,
                partial=True, compute=computes,
                description="Each greedy (FGA, FG*, FG) against three of its own kind, and FG "
                            "against three FGA and three FG*")
    if p["greedy_check_games"] == 0:
        return
    switches = {"move_order": p["move_order"], "budget": p["budget"],
                "playout_greedy": "authors"}
    for n in _rounds(p["greedy_check_games"], computes):
        res.get("greedy_check", "greedy_check", game_task,
                [_game(s, "FGA", _scaled(p, T), **switches)
                 for T in GREEDY_CHECK_T for s in GREEDY_CHECK_STRATEGIES], n, chunk_size=2,
                partial=True, compute=computes,
                description="Like-for-like cells with FGA opponents and the authors' greedy in "
                            "the playouts")


# ----------------------------------------------------------------------------- beyond


def beyond(res: Results) -> None:
    """Beyond the paper: 10x the paper's largest budget (100 s per ply) for a few strategies,
    in the same rounds of games as Table III."""
    p = res.params
    if p["beyond_games"] > 0:
        for n in _rounds(p["beyond_games"], res.computes("beyond")):
            res.get("beyond", "beyond_10x", game_task,
                    [_game(s, "FG", _scaled(p, BEYOND_T)) for s in BEYOND_STRATEGIES],
                    n, chunk_size=1, partial=True, compute=res.computes("beyond"),
                    description="Beyond: key strategies at 100 s per ply (10x the paper's "
                                "largest)")


# ----------------------------------------------------------------------------- entry points


#: The chapter's entry points (:class:`gameai.core.chapter.ChapterPlan`): its experiments in the
#: order ``results`` and ``gameai run kingdomino`` take them, cheapest first.
PLAN = ChapterPlan(CHAPTER, VERSION, PARAMETERS, CI_SIZES,
                   steps=(branching, table1, table3_short, budget_check, table2, fg_quirk,
                          fig7, fig8, table3_long, beyond, table3_authors, authors_greedy),
                   build_claims=build_claims, run_only=RUN_ONLY)
resolve, results, write_claims, run = PLAN.resolve, PLAN.results, PLAN.write_claims, PLAN.run
