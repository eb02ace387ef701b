"""The tarok chapter: its parameters and the cached experiments behind every table and figure.

One function per table of the paper (Luštrek & Gams 2003, Table 1), of the thesis (Table 8)
and per experiment the spec adds, each loading its rows from the store (``data/tarok/``) and,
when allowed, computing what is missing. The search experiments time the search for one decision
(``experiments.search_cost_task``): the first card of a deal of "three", the declarer
(forehand) to lead, on ``samples`` Monte Carlo samples, every configuration on the same samples.

Compute plan, in the order ``results`` runs them (cheapest first; every experiment is resumable
and shown with the ``n`` it has if stopped):

1. Table 1 at the paper's setup (20 deals x 20 samples, depth 9; about 20 s of search per deal);
2. thesis Table 8 at the depths other than Table 1's (Table 1's rows give depth 9);
3. the fuzzy-vs-exact table comparison on 1,000 positions later in the game;
4. Table 1 with an alpha-beta root;
5. bidding sessions: whole games by three adaptive Silicon Tarokists (about 3 s a game);
6. playing strength: 1,000 deals per declarer, cheapest player first (random, rule-based,
   perfect-information, the full program, the full program with an exact table, and last plain
   Monte Carlo alpha-beta at about 15 s per deal);
7. Table 1 at ``table1_ci_deals`` deals (the same experiment, so its first 20 deals are
   Table 1's), for CIs on the ratios;
8. the thesis's own program (Luštrek 2002; the named search configuration ``thesis_search``:
   alpha-beta root, Algorithm 6's minimal window as printed, Tables 5-6 pruning): thesis
   Table 8's shallow depths and Table 1 (with an exact-key table beside the fuzzy one) on
   ``thesis_deals`` deals - the first 20 are the paper's setup -, the fuzzy-table test, and what
   Algorithm 6's window costs (chosen card against exact alpha-beta on ``window_positions``
   positions; the full program with that window as declarer on ``window_deals`` of the strength
   deals, paired with the sound program's games).
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
from .agents import AGENT_NAMES, AGENTS_VERSION, DEPTHS
from .analysis import build_claims
from .experiments import (DEAL_SEED, ROOT_WINDOWS, TABLE1_CONFIGS, TABLE8_CONFIGS, game_task,
                          search_cost_task, session_task, warm_up, window_cost_task)
from .search import MINIMAL_WINDOWS, PRUNINGS, SEARCH_VARIANTS, SECOND_HIGHEST, TT_KEYS
from .rules import ENGINE_VERSION

CHAPTER = "tarok"
VERSION = f"engine{ENGINE_VERSION}-agents{AGENTS_VERSION}"

EXPERIMENTS = ("table1", "table8", "fuzzy", "table1_alphabeta", "sessions", "strength",
               "table1_ci", "thesis_table8", "thesis_table1", "window_cost", "thesis_fuzzy",
               "window_games", "thesis_steps", "window_cost_inner")
#: The steps from the sound search to the thesis's, one switch more each (cumulative), on the
#: same deals and samples (``sample_seed = "deal"``): Table 1 (sound), Table 1 with an
#: alpha-beta root, these three, and the thesis configuration's Table 1 (the table's key of
#: eqs. 5-6 last). Only ``all`` is searched at these steps: plain alpha-beta uses none of the
#: switched enhancements, so its nodes are the alpha-beta root's on the same samples.
THESIS_STEPS = ({"pruning": "thesis"},
                {"pruning": "thesis", "minimal_window": "thesis"},
                {"pruning": "thesis", "minimal_window": "thesis", "second_highest": "queen"})
#: Where the sampled deals of the Table 1 / Table 8 experiments come from: the deal and the
#: sample index alone (common random numbers across configurations and experiments).
SAMPLE_SEED = "deal"
#: The thesis program's Table 1: Table 1's configurations and an exact-key table beside the
#: fuzzy one (the fuzzy table's gain at the first card of a deal).
THESIS_TABLE1_CONFIGS = [*TABLE1_CONFIGS, "all_exact_tt"]
#: The full program with Algorithm 6's window, paired with the strength games' ``tarokist``.
WINDOW_PLAYER = "tarokist_thesis_window"
#: Strength pairings: each player as declarer of "three" against two of ``STRENGTH_OPPONENT``,
#: cheapest first (a partial run has every cheap player complete).
STRENGTH_PLAYERS = ("random", "rule", "cheat", "tarokist", "tarokist_exact", "mcab")
STRENGTH_OPPONENT = "rule"

PARAMETERS: dict[str, Param] = {
    **run_settings(2003),
    "table1_deals": Param(paper.TABLE1_DEALS, int, "deals of Table 1 (the paper's setup)",
                          minimum=1, maximum=MAX_COUNT),
    "table1_samples": Param(paper.TABLE1_SAMPLES, int, "Monte Carlo samples per decision",
                            minimum=1, maximum=MAX_COUNT),
    "table1_depth": Param(paper.TABLE1_DEPTH, int, "search depth of Table 1 (plies)",
                          minimum=1),
    "root_window": Param("full", str, "root of the search: full window (every card's value "
                         "exact, as the program sums them) or alpha-beta", choices=ROOT_WINDOWS),
    "minimal_window": Param("pvs", str, "minimal window of Tables 1 and 8 and the fuzzy test: "
                            "pvs (sound) or thesis (Algorithm 6 as printed: stops a node after "
                            "an improving re-search, not exact)", choices=MINIMAL_WINDOWS),
    "pruning": Param("spec", str, "third-card pruning of Tables 1 and 8 and the fuzzy test: "
                     "spec (our reading of the paper) or thesis (thesis Tables 5-6)",
                     choices=PRUNINGS),
    "second_highest": Param("always", str, "inside the thesis pruning: keep the second-highest "
                            "card wherever Tables 5-6 tick it (always) or only with suits and "
                            "only if the highest is at least a queen (queen, thesis p. 28)",
                            choices=SECOND_HIGHEST),
    "tt_key": Param("seat", str, "transposition table's key: with the seat to move (seat) or "
                    "the thesis's index of the hands and the current trick only (thesis, "
                    "eqs. 5-6)", choices=TT_KEYS),
    "thesis_search": Param("thesis", str, "named search configuration of the thesis_* and "
                           "window_* experiments: thesis = alpha-beta root, Algorithm 6's "
                           "window, Tables 5-6 pruning with the queen condition, the table's "
                           "key of eqs. 5-6; sound = the defaults above",
                           choices=tuple(SEARCH_VARIANTS)),
    "thesis_deals": Param(200, int, "deals of Table 1 and Table 8 in the thesis_search "
                          "configuration (the first table1_deals are the paper's setup)",
                          minimum=0, maximum=MAX_COUNT),
    "thesis_fuzzy_positions": Param(1_000, int, "positions of the fuzzy vs exact table test "
                                    "in the thesis_search configuration",
                                    minimum=0, maximum=MAX_COUNT),
    "window_positions": Param(1_000, int, "positions on which Algorithm 6's window is set "
                              "against exact alpha-beta (chosen card)", minimum=0,
                              maximum=MAX_COUNT),
    "window_deals": Param(1_000, int, "strength deals played by the full program with "
                          "Algorithm 6's window (paired with the sound program's)",
                          minimum=0, maximum=MAX_COUNT),
    "table8_depths": Param(tuple(paper.TABLE8_DEPTHS), tuple, "depths of thesis Table 8",
                           item_kind=int, minimum=1),
    "table8_deals": Param(paper.TABLE1_DEALS, int, "deals of thesis Table 8",
                          minimum=0, maximum=MAX_COUNT),
    "fuzzy_positions": Param(1_000, int, "positions (0-12 random tricks played) for the fuzzy vs "
                             "exact table", minimum=0, maximum=MAX_COUNT),
    "table1_alphabeta_deals": Param(paper.TABLE1_DEALS, int, "deals of Table 1 with an "
                                    "alpha-beta root (the other reading; Table 8's depths "
                                    "take table8_deals)", minimum=0, maximum=MAX_COUNT),
    "session_count": Param(4, int, "bidding sessions: whole games by three adaptive "
                           "Silicon Tarokists (about 3 s per game)", minimum=0, maximum=MAX_COUNT),
    "session_games": Param(250, int, "games per bidding session", minimum=1, maximum=MAX_COUNT),
    "session_play": Param("tarokist", str, "card play in the sessions", choices=AGENT_NAMES),
    "strength_deals": Param(1_000, int, "deals per strength pairing (about 2 s per deal for "
                            "the full program, 15 s for plain MC alpha-beta)",
                            minimum=0, maximum=MAX_COUNT),
    "strength_samples": Param(20, int, "Monte Carlo samples per decision in the strength games",
                              minimum=1, maximum=MAX_COUNT),
    "strength_depths": Param(DEPTHS, tuple, "base search depths of the strength games: from "
                             "the first trick, at 10 cards left, at 7 (the 9/12/15 schedule)",
                             item_kind=int, minimum=1, length=3,
                             unique=False),
    "strength_players": Param(STRENGTH_PLAYERS, tuple, "declarers of the strength experiment",
                              item_kind=str, choices=AGENT_NAMES),
    "table1_ci_deals": Param(200, int, "deals of Table 1 for CIs (computed last, shown partial)",
                             minimum=0, maximum=MAX_COUNT),
    "experiments": Param(EXPERIMENTS, tuple, "which experiments to compute (run setting)",
                         item_kind=str, choices=EXPERIMENTS),
    "compute_missing": COMPUTE_MISSING,
}
RUN_ONLY = (*CORE_RUN_ONLY, "experiments")

#: Sizes of the ``ci`` profile: every experiment runs, on a deal or two at depth 3.
CI_SIZES = {
    "table1_deals": 2, "table1_samples": 2, "table1_depth": 3, "table8_depths": (2, 3),
    "table8_deals": 1, "fuzzy_positions": 2, "table1_alphabeta_deals": 1, "table1_ci_deals": 3,
    "session_count": 1, "session_games": 3, "session_play": "rule",
    "strength_deals": 1, "strength_samples": 2, "strength_depths": (3, 3, 3),
    "thesis_deals": 3, "thesis_fuzzy_positions": 2, "window_positions": 2, "window_deals": 1,
}



def search_task(config: Mapping[str, Any], index: int, rng) -> list:
    """``experiments.search_cost_task`` with its rows' ``tricks_played`` as ``tricks`` and
    without ``root_window`` (both are config items too, which the store keeps as columns)."""
    rows = search_cost_task(config, index, rng)
    for row in rows:
        row["tricks"] = row.pop("tricks_played")
        row.pop("root_window")
    return rows


def window_search_task(config: Mapping[str, Any], index: int, rng) -> list:
    """``experiments.window_cost_task`` (a task function of this module, like the others)."""
    return window_cost_task(config, index, rng)


def strength_task(config: Mapping[str, Any], index: int, rng) -> dict:
    """``experiments.game_task`` without ``player`` and ``opponent`` (config items, which the
    store keeps as columns) and ``contract`` (always "three" here, the config's default)."""
    row = game_task(config, index, rng)
    for key in ("player", "opponent", "contract"):
        row.pop(key)
    return row


#: The switches a search experiment's config leaves out at these (sound) defaults.
SWITCH_DEFAULTS = {"minimal_window": "pvs", "pruning": "spec", "second_highest": "always",
                   "tt_key": "seat", "sample_seed": "task", "count_tt": False}


def _search(params: Mapping[str, Any], configs, depths, *, root_window: str | None = None,
            tricks_played: int | str = 0, variant: str | None = None,
            sample_seed: str = SAMPLE_SEED, count_tt: bool = True) -> dict:
    """A search experiment's config: the switches of the named ``variant`` or of the params;
    a switch at its sound default is left out (``SWITCH_DEFAULTS``: the task keys of the
    experiments computed before the switch existed stay as they were). ``sample_seed`` and
    ``count_tt``: ``experiments.SEARCH_KEYS``; only the sound fuzzy-table experiment, whose
    rows predate both, keeps the old ``task`` seed and no ``tt_answers`` column."""
    switches = {"root_window": root_window or params["root_window"],
                **{k: params[k] for k in ("minimal_window", "pruning", "second_highest",
                                          "tt_key")}}
    if variant is not None:
        v = SEARCH_VARIANTS[variant]
        switches = {"root_window": v["root"], **{k: v[k] for k in (
            "minimal_window", "pruning", "second_highest", "tt_key")}}
    switches["sample_seed"] = sample_seed
    switches["count_tt"] = count_tt
    out = {"configs": list(configs), "depths": [int(d) for d in depths],
           "samples": params["table1_samples"], "tricks_played": tricks_played,
           "root_window": switches["root_window"], "deal_seed": DEAL_SEED}
    for key, default in SWITCH_DEFAULTS.items():
        if switches[key] != default:
            out[key] = switches[key]
    return out


def _table1_config(params) -> dict:
    return _search(params, TABLE1_CONFIGS, [params["table1_depth"]])



# ----------------------------------------------------------------------------- the paper


def table1(res: Results) -> None:
    """Table 1: nodes and time of the ten configurations, first card of a deal."""
    p = res.params
    res.get("table1", "table1", search_task, [_table1_config(p)], p["table1_deals"],
            chunk_size=1, warmup=warm_up, partial=True, compute=res.computes("table1"),
            description="Table 1: search for the first card of a deal of three, ten "
                        "configurations on the same samples")


def table8(res: Results) -> None:
    """Thesis Table 8: the single-enhancement configurations at depths 3 / 6 / 9 (the depth of
    Table 1 comes from Table 1's rows)."""
    p = res.params
    depths = [d for d in p["table8_depths"] if d != p["table1_depth"]]
    if p["table8_deals"] > 0 and depths:
        res.get("table8", "table8", search_task, [_search(p, TABLE8_CONFIGS, depths)],
                p["table8_deals"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("table8"),
                description="Thesis Table 8: single enhancements at shallower depths")


def fuzzy(res: Results) -> None:
    """Fuzzy vs exact-key transposition table on positions after 0-12 random tricks."""
    p = res.params
    if p["fuzzy_positions"] > 0:
        res.get("fuzzy", "fuzzy_tt", search_task,
                [_search(p, ["all", "all_exact_tt"],
                         [p["table1_depth"]], tricks_played="random", sample_seed="task",
                         count_tt=False)],
                p["fuzzy_positions"], chunk_size=5, warmup=warm_up, partial=True,
                compute=res.computes("fuzzy"),
                description="Fuzzy vs exact-key transposition table: nodes and chosen card")


def table1_alphabeta(res: Results) -> None:
    """Tables 1 and 8 with the other root window (by default an alpha-beta root: only the best
    card's value exact). Table 8's shallow depths need it most: at depth 3, one trick, a full
    root window leaves the two opponents' plies nothing to cut, so no enhancement can act."""
    p = res.params
    other = [w for w in ROOT_WINDOWS if w != p["root_window"]][0]
    if p["table1_alphabeta_deals"] > 0:
        res.get("table1_alphabeta", "table1_root_" + other, search_task,
                [_search(p, TABLE1_CONFIGS, [p["table1_depth"]], root_window=other)],
                p["table1_alphabeta_deals"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("table1_alphabeta"),
                description=f"Table 1 with the other root window ({other})")
    depths = [d for d in p["table8_depths"] if d != p["table1_depth"]]
    if p["table8_deals"] > 0 and depths:
        res.get("table8_alphabeta", "table8_root_" + other, search_task,
                [_search(p, TABLE8_CONFIGS, depths, root_window=other)],
                p["table8_deals"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("table1_alphabeta"),
                description=f"Thesis Table 8 with the other root window ({other})")


def sessions(res: Results) -> None:
    """Whole games with bidding, talon exchange and announcements: three adaptive Tarokists
    over ``session_games`` games each session (the margin's path, the contract mix)."""
    p = res.params
    if p["session_count"] > 0:
        res.get("sessions", "sessions", session_task,
                [{"games": p["session_games"], "play": p["session_play"]}],
                p["session_count"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("sessions"),
                description="Bidding sessions: whole games by three adaptive Silicon Tarokists")


def strength(res: Results) -> None:
    """Playing strength: each player declares "three" against two rule-based opponents."""
    p = res.params
    if p["strength_deals"] > 0:
        res.get("strength", "strength", strength_task,
                [{"player": a, "opponent": STRENGTH_OPPONENT, "samples": p["strength_samples"],
                 "depths": list(p["strength_depths"])} for a in p["strength_players"]],
                p["strength_deals"], chunk_size=5, warmup=warm_up, partial=True,
                compute=res.computes("strength"),
                description="Strength: declarer of three vs two rule-based opponents")


def table1_ci(res: Results) -> None:
    """Table 1 at ``table1_ci_deals`` deals (same experiment: its first deals are Table 1's)."""
    p = res.params
    if p["table1_ci_deals"] > p["table1_deals"]:
        res.get("table1_ci", "table1", search_task, [_table1_config(p)],
                p["table1_ci_deals"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("table1_ci"),
                description="Table 1 at more deals, for CIs on the ratios")


def thesis_table8(res: Results) -> None:
    """Thesis Table 8 in the thesis_search configuration at the depths other than Table 1's."""
    p = res.params
    depths = [d for d in p["table8_depths"] if d != p["table1_depth"]]
    if p["thesis_deals"] > 0 and depths:
        res.get("thesis_table8", "table8_thesis", search_task,
                [_search(p, TABLE8_CONFIGS, depths, variant=p["thesis_search"])],
                p["thesis_deals"], chunk_size=5, warmup=warm_up, partial=True,
                compute=res.computes("thesis_table8"),
                description="Thesis Table 8 in the thesis's own search configuration")


def thesis_table1(res: Results) -> None:
    """Table 1 (and an exact-key table) in the thesis_search configuration; its first
    ``table1_deals`` deals are the paper's setup, all ``thesis_deals`` give the CIs."""
    p = res.params
    if p["thesis_deals"] > 0:
        res.get("thesis_table1", "table1_thesis", search_task,
                [_search(p, THESIS_TABLE1_CONFIGS, [p["table1_depth"]],
                         variant=p["thesis_search"])],
                p["thesis_deals"], chunk_size=1, warmup=warm_up, partial=True,
                compute=res.computes("thesis_table1"),
                description="Table 1 in the thesis's own search configuration")


def window_cost_inner(res: Results) -> None:
    """Algorithm 6's window below an alpha-beta root that keeps PVS (every root card searched):
    the chosen card on ``window_positions`` positions, as ``window_cost`` (what the early stop
    costs inside the tree, without the root's)."""
    p = res.params
    if p["window_positions"] > 0:
        res.get("window_cost_inner", "window_cost_inner", window_search_task,
                [{"configs": ["only_minwindow", "all"], "depth": p["table1_depth"],
                  "samples": 1, "tricks_played": "random", "search": p["thesis_search"],
                  "windows": ["thesis_inner"], "deal_seed": DEAL_SEED}],
                p["window_positions"], chunk_size=10, warmup=warm_up, partial=True,
                compute=res.computes("window_cost_inner"),
                description="Algorithm 6's window below the root against exact alpha-beta")


def window_cost(res: Results) -> None:
    """Algorithm 6's window against exact alpha-beta: the chosen card on positions after
    0-12 random tricks (thesis_search configuration, depth of Table 1). Both window
    experiments keep the window config's defaults ``second_highest = "always"`` and ``tt_key =
    "seat"`` (``experiments.WINDOW_KEYS``): they were computed before those two switches
    existed, so they measure the thesis configuration without the queen condition and with
    the seat in the table's key; each config is searched with and without Algorithm 6's
    window on the same position, so the window's cost stays a paired comparison (the chapter
    says so)."""
    p = res.params
    if p["window_positions"] > 0:
        res.get("window_cost", "window_cost", window_search_task,
                [{"configs": ["only_minwindow", "all"], "depth": p["table1_depth"],
                  "samples": 1, "tricks_played": "random", "search": p["thesis_search"],
                  "deal_seed": DEAL_SEED}],
                p["window_positions"], chunk_size=10, warmup=warm_up, partial=True,
                compute=res.computes("window_cost"),
                description="Algorithm 6's minimal window against exact alpha-beta: chosen card")


def _without_last_readings(cfg: dict) -> dict:
    """``cfg`` with ``second_highest`` and ``tt_key`` back at their defaults (``always``,
    ``seat``): the thesis configuration as it stood before those two readings, whose stored
    fuzzy-table rows (1,000 positions) keep their task keys."""
    return {k: v for k, v in cfg.items() if k not in ("second_highest", "tt_key")}


def thesis_fuzzy(res: Results) -> None:
    """The fuzzy vs exact-key table test in the thesis_search configuration, without its last
    two readings (``_without_last_readings``; the chapter says so): positions after 0-12
    random tricks. The thesis configuration's Table 1 (all five readings) gives the fuzzy
    table's gain at the first card of a deal beside it."""
    p = res.params
    if p["thesis_fuzzy_positions"] > 0:
        res.get("thesis_fuzzy", "fuzzy_tt_thesis", search_task,
                [_without_last_readings(_search(
                    p, ["all", "all_exact_tt"], [p["table1_depth"]], tricks_played="random",
                    variant=p["thesis_search"], sample_seed="task", count_tt=False))],
                p["thesis_fuzzy_positions"], chunk_size=5, warmup=warm_up, partial=True,
                compute=res.computes("thesis_fuzzy"),
                description="Fuzzy vs exact-key table in the thesis's own search configuration")


def window_games(res: Results) -> None:
    """The full program with Algorithm 6's window as declarer of three on the strength deals
    (paired with the strength experiment's ``tarokist`` games: same deal, same seat)."""
    p = res.params
    if p["window_deals"] > 0:
        res.get("window_games", "window_games", strength_task,
                [{"player": WINDOW_PLAYER, "opponent": STRENGTH_OPPONENT,
                  "samples": p["strength_samples"], "depths": list(p["strength_depths"])}],
                p["window_deals"], chunk_size=5, warmup=warm_up, partial=True,
                compute=res.computes("window_games"),
                description="Full program with Algorithm 6's window, strength deals")


def thesis_steps(res: Results) -> None:
    """All enhancements with an alpha-beta root plus one thesis switch more at each step
    (``THESIS_STEPS``: Tables 5-6 pruning, Algorithm 6's window, the queen condition), on the
    deals and samples of Table 1 with an alpha-beta root: the decomposition of the gap."""
    p = res.params
    base = _search(p, ["all"], [p["table1_depth"]], root_window="alphabeta")
    res.get("thesis_steps", "table1_steps", search_task,
            [{**base, **step} for step in THESIS_STEPS], p["table1_alphabeta_deals"],
            chunk_size=1, warmup=warm_up, partial=True, compute=res.computes("thesis_steps"),
            description="All enhancements, alpha-beta root plus one thesis switch more a step")


# ----------------------------------------------------------------------------- entry points


#: The chapter's entry points (:class:`gameai.core.chapter.ChapterPlan`): its experiments in the
#: order ``results`` and ``gameai run tarok`` take them, cheapest first.
PLAN = ChapterPlan(CHAPTER, VERSION, PARAMETERS, CI_SIZES,
                   steps=(table1, table8, fuzzy, table1_alphabeta, sessions, strength, table1_ci,
                          thesis_table8, thesis_table1, thesis_steps, window_cost,
                          window_cost_inner, thesis_fuzzy, window_games),
                   build_claims=build_claims, run_only=RUN_ONLY)
resolve, results, write_claims, run = PLAN.resolve, PLAN.results, PLAN.write_claims, PLAN.run
