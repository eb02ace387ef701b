"""The Durak chapter: its parameters and the cached experiments behind every table and figure.

The article ("A game (not) for fools. Writing AI for the Fool, Part 1") measures nothing; this
chapter turns its qualitative claims into measurements (spec ``durak.md``). One small function per
experiment group, each loading its experiment from the store (``data/durak/``) and, when allowed,
computing what is missing:

* :func:`hands` - does the evaluator predict the outcome? EvalAI self-play per player count and
  deck, the initial hand value and make-up of every seat beside its finishing place.
* :func:`endgame` - "many cards late in the game are bad": every hand when the talon runs out.
* :func:`baselines` - EvalAI against n - 1 RandomAI or SmallestAI players, 2-5 players, each deck.
* :func:`ablations` - each evaluator term removed or switched, against n - 1 full EvalAI players.
* :func:`rules` - OpenFool's rule quirks switched to the standard rules, EvalAI vs SmallestAI.
* :func:`monte_carlo` - beyond the article: the determinised Monte Carlo player against EvalAI.
* :func:`diagnosis` - our analysis of why EvalAI loses to SmallestAI with 3-5 players: EvalAI
  with one decision handed to SmallestAI's rule, against n - 1 SmallestAI.

Rows. The game-level experiments (``hands``, ``endgame``) keep one compact row per game. The
match experiments (``baselines``, ``ablations``, ``rules``, ``monte_carlo``) play one agent
against ``n - 1`` copies of another and keep one row per *batch* of :data:`BATCH` games (sums of
the focal agent's fools, places and squared places, the opponents' fools, draws and abandoned
games): the same seeded games, a hundredth of the CSV. Game ``j`` of task ``i`` has the global
index ``i * batch + j``, which sets its seat rotation, so every agent visits every seat.
"""

from __future__ import annotations

import math
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
from . import paper
from .agents import AGENTS, AGENTS_VERSION, is_monte_carlo
from .analysis import build_claims
from .evaluation import EVALUATOR_VERSION
from .experiments import EXPERIMENTS_VERSION, bout_task, game_task, lead_task, warmup
from .rules import DECK_SIZES, ENGINE_VERSION, MAX_PLAYERS, deck_cards

CHAPTER = "durak"
#: Bump when the compact rows built here change.
TASKS_VERSION = "1"
VERSION = (f"engine{ENGINE_VERSION}-eval{EVALUATOR_VERSION}-agents{AGENTS_VERSION}"
           f"-exp{EXPERIMENTS_VERSION}-tasks{TASKS_VERSION}")

#: Games per task of the match experiments (see the module doc).
BATCH = 100
EXPERIMENTS = ("hands", "endgame", "baselines", "ablations", "rules", "diagnosis", "monte_carlo")
BASELINES = ("RandomAI", "SmallestAI")
VARIANTS = tuple(paper.ABLATIONS.values())
MC_AGENTS = tuple(name for name in AGENTS if is_monte_carlo(name))
#: EvalAI and its variants with one decision taken from SmallestAI (our diagnosis).
DIAGNOSIS = ("EvalAI",) + tuple(name for name in AGENTS if name.startswith("EvalAI/"))
#: OpenFool's rules and, one at a time and all together, the standard rules (spec, "Rules").
RULE_SETS: dict[str, dict[str, Any]] = {
    "OpenFool": {},
    "attack limit 6 (5 before the first discard)": {"limit": "standard"},
    "every opponent throws in": {"throw": "standard"},
    "refill attacker first, defender last": {"refill": "standard"},
    "all three standard": {"limit": "standard", "throw": "standard", "refill": "standard"},
    "OpenFool + transfer (perevodnoy)": {"transfer": True},
    "OpenFool + transfer, OpenFool's check": {"transfer": True, "transfer_check": "openfool"},
}

PARAMETERS: dict[str, Param] = {
    **run_settings(2017),
    "players": Param((2, 3, 4, 5), tuple, "player counts of the hand-value and baseline "
                     "experiments", item_kind=int, minimum=2, maximum=MAX_PLAYERS),
    "decks": Param(DECK_SIZES, tuple, "deck sizes asked for (OpenFool's adjustment: five "
                   "players with 24 cards play 28, 8 ... A)", item_kind=int, choices=DECK_SIZES),
    "games": Param(10_000, int, "games per configuration: hand values and EvalAI vs each "
                   "baseline", minimum=1, maximum=MAX_COUNT),
    "endgame_games": Param(10_000, int, "games per player count (36 cards) for the many-cards "
                           "claim", minimum=0, maximum=MAX_COUNT),
    "ablation_games": Param(20_000, int, "games per configuration of each evaluator ablation",
                            minimum=0, maximum=MAX_COUNT),
    "ablation_players": Param((2, 4), tuple, "player counts of the ablations (one variant vs "
                              "n - 1 EvalAI)", item_kind=int, minimum=2, maximum=MAX_PLAYERS),
    "ablations": Param(VARIANTS, tuple, "the EvalAI variants of the ablations", item_kind=str,
                       choices=VARIANTS),
    "rules_games": Param(10_000, int, "games per rule setting and player count (EvalAI vs "
                         "SmallestAI, 36 cards)", minimum=0, maximum=MAX_COUNT),
    "diagnosis_games": Param(10_000, int, "games per configuration of the diagnosis (EvalAI "
                             "with one decision from SmallestAI, vs n - 1 SmallestAI)",
                             minimum=0, maximum=MAX_COUNT),
    "lead_games": Param(10_000, int, "games per player count (36 cards) in which EvalAI's "
                        "opening leads are set beside SmallestAI's (diagnosis)",
                        minimum=0, maximum=MAX_COUNT),
    "mc_games": Param(10_000, int, "beyond: games per budget and player count, MC vs EvalAI "
                      "(36 cards)", minimum=0, maximum=MAX_COUNT),
    "mc_budgets": Param((5, 20, 50), tuple, "beyond: Monte Carlo determinisations per "
                        "decision", item_kind=int, minimum=1, maximum=MAX_COUNT),
    "mc_players": Param((2, 4), tuple, "beyond: player counts (one MC player vs n - 1 EvalAI)",
                        item_kind=int, minimum=2, maximum=MAX_PLAYERS),
    "mc_agents": Param(("MC-AI",), tuple, "beyond: Monte Carlo players (playout policy EvalAI, "
                       "SmallestAI or RandomAI)", item_kind=str, choices=MC_AGENTS),
    "experiments": Param(EXPERIMENTS, tuple, "which experiments to compute (run setting)",
                         item_kind=str, choices=EXPERIMENTS),
    "compute_missing": COMPUTE_MISSING,
}
RUN_ONLY = (*CORE_RUN_ONLY, "experiments")

#: Sizes of the ``ci`` profile: every experiment runs, each on a few games.
CI_SIZES = {"games": 20, "endgame_games": 20, "ablation_games": 20, "rules_games": 20,
            "diagnosis_games": 20, "lead_games": 20,
            "mc_games": 2, "mc_budgets": (2,), "ablations": VARIANTS[:3] + VARIANTS[-2:]}



# ----------------------------------------------------------------------------- task functions


def _game_config(config: Mapping[str, Any], seats: list[str]) -> dict:
    cfg = {k: v for k, v in config.items() if k not in ("agent", "vs", "batch", "rules")}
    cfg["seats"] = seats
    return cfg


def hands_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game of ``config['agent']`` self-play. Row: ``deck_cards``, ``fool`` (seat, -1 none),
    ``capped``, and per seat ``p``: ``place{p}``, ``hv{p}`` (initial hand value, OpenFool's
    evaluator), ``rb{p}`` / ``rbx{p}`` (its same-rank term as coded / x 100), ``ub{p}`` (the
    unbalanced-hand penalty, >= 0), ``mr{p}`` (most cards of one rank), ``ms{p}`` (most cards
    of one non-trump suit), ``tr{p}`` (trumps)."""
    n = int(config["n_players"])
    g = game_task(_game_config(config, [config["agent"]] * n), index, rng)
    row = {"deck_cards": g["deck_cards"], "fool": g["fool"], "capped": g["capped"]}
    for p in range(n):
        row.update({f"place{p}": g[f"place{p}"], f"hv{p}": g[f"hv{p}"],
                    f"rb{p}": g[f"rank_bonus{p}"], f"rbx{p}": g[f"rank_bonus_x100{p}"],
                    f"ub{p}": g[f"unbalanced{p}"], f"mr{p}": g[f"max_rank{p}"],
                    f"ms{p}": g[f"max_suit{p}"], f"tr{p}": g[f"trumps{p}"]})
    return row


def endgame_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game of self-play; the hands at the first bout that starts with an empty talon.
    Row: ``bout`` (-1: the talon never ran out), ``fool`` (seat, -1 none) and per seat ``p``:
    ``size{p}`` (cards held; -1 if already out), ``hv{p}`` / ``hvt{p}`` (evaluator with Int /
    true division in the many-cards term)."""
    n = int(config["n_players"])
    rows = bout_task(_game_config(config, [config["agent"]] * n), index, rng)
    fool = next((r["seat"] for r in rows if r["fool"]), -1)
    late = [r for r in rows if r["talon"] == 0]
    bout = min((r["bout"] for r in late), default=-1)
    out = {"bout": bout, "fool": fool}
    at = {r["seat"]: r for r in late if r["bout"] == bout}
    for p in range(n):
        r = at.get(p)
        out.update({f"size{p}": r["size"] if r else -1, f"hv{p}": r["hv"] if r else 0,
                    f"hvt{p}": r["hv_truediv"] if r else 0})
    return out


def match_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """``config['batch']`` games of ``config['agent']`` against ``n - 1`` x ``config['vs']``,
    seats rotated by the global game index. Row (sums over the batch): ``games``, ``fool``
    (games the agent was the fool), ``opp_fool`` (an opponent was), ``draw``, ``capped``
    (abandoned as endless), ``place`` / ``place2`` (the agent's finishing place and its square,
    0 = first out, over the games not abandoned), ``bouts``."""
    n = int(config["n_players"])
    batch = int(config["batch"])
    seats = [config["agent"]] + [config["vs"]] * (n - 1)
    cfg = _game_config(config, seats)
    out = dict.fromkeys(("games", "fool", "opp_fool", "draw", "capped", "place", "place2",
                         "bouts"), 0)
    for j in range(batch):
        g_index = index * batch + j
        g = game_task(cfg, g_index, rng)
        focal = (-g_index) % n  # seats[(s + g) % n] is the agent when s = -g mod n
        assert g[f"agent{focal}"] == config["agent"]
        out["games"] += 1
        out["bouts"] += g["bouts"]
        if g["capped"]:
            out["capped"] += 1
            continue
        place = g[f"place{focal}"]
        out["place"] += place
        out["place2"] += place * place
        if g["is_draw"]:
            out["draw"] += 1
        elif g["fool"] == focal:
            out["fool"] += 1
        else:
            out["opp_fool"] += 1
    return out


def leads_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game of ``config['agent']`` (EvalAI) against ``n - 1`` x ``config['vs']``: its
    opening leads beside SmallestAI's choice (:func:`experiments.lead_task`)."""
    n = int(config["n_players"])
    return lead_task(_game_config(config, [config["agent"]] + [config["vs"]] * (n - 1)), index,
                     rng)


# ----------------------------------------------------------------------------- experiments


def _tasks(games: int) -> tuple[int, int]:
    """``(batch, tasks)`` for ``games`` games of a match experiment."""
    batch = min(BATCH, games)
    return batch, math.ceil(games / batch)


def _deck(n: int, deck: int) -> dict:
    """``n_players``, ``deck`` and, only where OpenFool's deck adjustment differs from the plain
    one (five players asking for 24 cards: 28 cards, not 32), ``deck_rule``. Naming the rule
    there, and only there, gives exactly the configurations whose games changed when the rule
    was introduced a new task key; every other configuration keeps its cached results."""
    out = {"n_players": int(n), "deck": int(deck)}
    if deck_cards(int(n), int(deck), "openfool") != deck_cards(int(n), int(deck), "plain"):
        out["deck_rule"] = "openfool"
    return out


def _match(n: int, deck: int, agent: str, vs: str, batch: int, **extra: Any) -> dict:
    return {**_deck(n, deck), "agent": agent, "vs": vs, "batch": batch, **extra}


def hands(res: Results) -> None:
    """Does the evaluator predict the outcome? EvalAI self-play, every player count and deck."""
    p = res.params
    res.get("hands", "hands", hands_task,
            [{**_deck(n, d), "agent": "EvalAI"}
             for n in p["players"] for d in p["decks"]], p["games"], chunk_size=2_000,
            warmup=warmup, compute=res.computes("hands"),
            description="initial hand value and make-up vs finishing place, EvalAI self-play")


def endgame(res: Results) -> None:
    """Many cards late in the game: the hands when the talon runs out (36 cards)."""
    p = res.params
    if p["endgame_games"] > 0:
        res.get("endgame", "endgame", endgame_task,
                [{"n_players": int(n), "deck": 36, "agent": "EvalAI"} for n in p["players"]],
                p["endgame_games"], chunk_size=2_000, warmup=warmup,
                compute=res.computes("endgame"),
                description="hand sizes and values when the talon runs out, EvalAI self-play")


def baselines(res: Results) -> None:
    """EvalAI against n - 1 RandomAI / SmallestAI players, 2-5 players, each deck."""
    p = res.params
    batch, tasks = _tasks(p["games"])
    res.get("baselines", "baselines", match_task,
            [_match(n, d, "EvalAI", vs, batch) for vs in BASELINES for n in p["players"]
             for d in p["decks"]], tasks, chunk_size=20, warmup=warmup,
            compute=res.computes("baselines"),
            description="EvalAI vs n - 1 RandomAI or SmallestAI (batches of games)")


def ablations(res: Results) -> None:
    """Each evaluator term removed or switched: the variant against n - 1 full EvalAI."""
    p = res.params
    if p["ablation_games"] > 0 and p["ablations"]:
        batch, tasks = _tasks(p["ablation_games"])
        res.get("ablations", "ablations", match_task,
                [_match(n, d, v, "EvalAI", batch) for v in p["ablations"]
                 for n in p["ablation_players"] for d in p["decks"]], tasks, chunk_size=20,
                warmup=warmup, compute=res.computes("ablations"),
                description="each EvalAI variant vs n - 1 EvalAI (batches of games)")


def rules(res: Results) -> None:
    """OpenFool's rule quirks switched, one at a time: EvalAI vs SmallestAI, 36 cards."""
    p = res.params
    if p["rules_games"] > 0:
        batch, tasks = _tasks(p["rules_games"])
        res.get("rules", "rules", match_task,
                [_match(n, 36, "EvalAI", "SmallestAI", batch, rules=label, **switch)
                 for label, switch in RULE_SETS.items() for n in p["ablation_players"]], tasks,
                chunk_size=20, warmup=warmup, compute=res.computes("rules"),
                description="EvalAI vs n - 1 SmallestAI under each rule setting, 36 cards")


def diagnosis(res: Results) -> None:
    """Why EvalAI loses to SmallestAI: EvalAI and each variant with one decision taken from
    SmallestAI's rule (agents ``EvalAI/...``), against n - 1 SmallestAI, every player count and
    deck. Our analysis, not the article's."""
    p = res.params
    if p["diagnosis_games"] > 0:
        batch, tasks = _tasks(p["diagnosis_games"])
        res.get("diagnosis", "diagnosis", match_task,
                [_match(n, d, a, "SmallestAI", batch) for a in DIAGNOSIS for n in p["players"]
                 for d in p["decks"]], tasks, chunk_size=20, warmup=warmup,
                compute=res.computes("diagnosis"),
                description="diagnosis: EvalAI with one decision from SmallestAI, vs n - 1 "
                            "SmallestAI")
    if p["lead_games"] > 0:
        res.get("leads", "leads", leads_task,
                [{"n_players": int(n), "deck": 36, "agent": "EvalAI", "vs": "SmallestAI"}
                 for n in p["players"]],
                p["lead_games"], chunk_size=500, warmup=warmup,
                compute=res.computes("diagnosis"),
                description="diagnosis: EvalAI's opening leads beside SmallestAI's, vs n - 1 "
                            "SmallestAI, 36 cards")


def monte_carlo(res: Results) -> None:
    """Beyond the article: the determinised Monte Carlo player against n - 1 EvalAI."""
    p = res.params
    if p["mc_games"] > 0 and p["mc_budgets"] and p["mc_agents"]:
        batch, tasks = _tasks(p["mc_games"])
        res.get("monte_carlo", "monte_carlo", match_task,
                [_match(n, 36, a, "EvalAI", batch, budget=int(b)) for a in p["mc_agents"]
                 for n in p["mc_players"] for b in sorted(p["mc_budgets"])], tasks,
                chunk_size=1, partial=True, warmup=warmup, compute=res.computes("monte_carlo"),
                description="beyond: Monte Carlo player vs n - 1 EvalAI at each budget, 36 cards")


# ----------------------------------------------------------------------------- entry points


#: The chapter's entry points (:class:`gameai.core.chapter.ChapterPlan`): its experiments in the
#: order ``results`` and ``gameai run durak`` take them, Monte Carlo last.
PLAN = ChapterPlan(CHAPTER, VERSION, PARAMETERS, CI_SIZES,
                   steps=(hands, endgame, baselines, ablations, rules, diagnosis, monte_carlo),
                   build_claims=build_claims, run_only=RUN_ONLY)
resolve, results, write_claims, run = PLAN.resolve, PLAN.results, PLAN.write_claims, PLAN.run
