"""Kingdomino experiments as pure task functions ``(config, index, rng) -> rows``.

No I/O and no plotting here. A *game* config names the tested player (seat 0), the opponent
(seats 1-3) and the search parameters; plain JSON values only::

    {"player": "MCE-FG/R", "opponent": "FG", "T": 1.0, "C": 0.6, "W": 0.1}

``T`` is the paper's seconds per ply; it becomes a playout (UCT: iteration) budget per move from
the authors' measured rates (``paper.PLAYOUT_RATES``), so a result is the same on any machine.
``playouts`` (optional, > 0) fixes the budget per move instead. Search opponents get the same
T, C, W. Seat order does not matter: round 1's pick order is random (spec "Drafts").

Two optional switches make a game like the authors' own (the like-for-like Table III):
``"move_order": "authors"`` makes UCT expand moves pick-major, as the authors' code lists them
(default ``"placement"``: ours), and ``"budget": "authors"`` gives each search seat, move by move,
the authors' measured mean playouts for its Table III cell (``paper.authors_iterations``; default
``"rule"``: T x the authors' 10 s rate). The third difference, the authors' opponents, is the
opponent name ``"FG*"`` (their FG, with its fallback bug) or ``"FGA"`` (their FG in full: first
domino at random too). ``"playout_greedy": "authors"`` plays the greedy moves of FG, PG and eps-G
playouts as the authors' FG does (default ``"ours"``). A config without the switches is keyed
as before, so no stored result changes.

A *branching* config (§II-B, Fig. 2) names the agent of all four seats (default TR) and how
to count a same-terrain domino's mirrored placement (once, as the spec's rules say; or twice,
a counting switch to test the paper's tree-size figure)::

    {"agent": "TR", "mirrored_twice": false}
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
from numba import njit

from ..core.configs import check_keys

from .agents import (
    AGENT_NAMES,
    DEFAULT_C,
    DEFAULT_W,
    MOVE_ORDERS,
    PLAYOUT_GREEDIES,
    agent_row,
    canonical_name,
    choose_move,
    is_search,
    play_game,
)
from .paper import authors_iterations
from .policies import new_buffers, new_memo
from .rules import (
    G_DONE,
    G_ROUND,
    K_DISCARDED,
    MAX_MOVES,
    N_PLAYERS,
    N_ROUNDS,
    PLACE_DISCARD,
    apply_move,
    current_player,
    domino_to_place,
    legal_moves,
    n_dirs,
    new_game,
    score,
)

GAME_KEYS = {"player": None, "opponent": None, "T": 0.0, "C": DEFAULT_C, "W": DEFAULT_W,
             "playouts": 0, "move_order": "placement", "budget": "rule",
             "playout_greedy": "ours"}
BUDGETS = ("rule", "authors")
BRANCHING_KEYS = {"agent": "TR", "mirrored_twice": False}


def _check_agent(label: str, name: Any) -> str:
    if not isinstance(name, str) or canonical_name(name) not in AGENT_NAMES:
        raise ValueError(f"{label} must be one of {', '.join(AGENT_NAMES)}; got {name!r}")
    return canonical_name(name)


def game_config(config: Mapping[str, Any]) -> dict:
    """Validate a game config (clear ``ValueError`` naming the parameter) and fill defaults."""
    cfg = check_keys(config, GAME_KEYS, "game")
    cfg["player"] = _check_agent("player", cfg["player"])
    cfg["opponent"] = _check_agent("opponent", cfg["opponent"])
    for key in ("T", "C", "W", "playouts"):
        v = cfg[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise ValueError(f"{key} must be a finite number >= 0, got {v!r}")
    if cfg["playouts"] != int(cfg["playouts"]):
        raise ValueError(f"playouts must be a whole number, got {cfg['playouts']!r}")
    if cfg["move_order"] not in MOVE_ORDERS:
        raise ValueError(f"move_order must be one of {', '.join(MOVE_ORDERS)}; "
                         f"got {cfg['move_order']!r}")
    if cfg["playout_greedy"] not in PLAYOUT_GREEDIES:
        raise ValueError(f"playout_greedy must be one of {', '.join(PLAYOUT_GREEDIES)}; "
                         f"got {cfg['playout_greedy']!r}")
    if cfg["budget"] not in BUDGETS:
        raise ValueError(f"budget must be one of {', '.join(BUDGETS)}; got {cfg['budget']!r}")
    if cfg["budget"] == "authors":
        for name in {cfg["player"], cfg["opponent"]}:
            if is_search(name):
                authors_iterations(name, cfg["T"])  # a missing cell fails here, before any game
    return cfg


def seat_rows(cfg: Mapping[str, Any]) -> np.ndarray:
    """The (4, AG_LEN) agent array of a validated game config."""
    names = [cfg["player"]] + [cfg["opponent"]] * (N_PLAYERS - 1)

    def iterations(name: str):
        if cfg["budget"] == "authors" and is_search(name):
            return authors_iterations(name, cfg["T"])
        return None

    return np.stack([agent_row(n, float(cfg["T"]), float(cfg["C"]), float(cfg["W"]),
                               int(cfg["playouts"]), cfg["move_order"], iterations(n),
                               cfg["playout_greedy"])
                     for n in names])


def game_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> dict:
    """One game; seat 0 is the tested player. Row: seat agents, the four final scores, seat 0's
    victory margin (own - best opponent), win/draw (unique / shared top score), seat 0's score
    after each of its 13 moves (Figs. 3-4), seat 0's playouts and discards."""
    cfg = game_config(config)
    ag = seat_rows(cfg)
    move_scores = np.zeros((N_PLAYERS, N_ROUNDS), dtype=np.int64)
    playouts = np.zeros(N_PLAYERS, dtype=np.int64)
    K = play_game(ag, rng, move_scores, playouts)
    scores = [int(score(K[p])) for p in range(N_PLAYERS)]
    best_other = max(scores[1:])
    row: dict[str, Any] = {f"seat{p}": cfg["player"] if p == 0 else cfg["opponent"]
                           for p in range(N_PLAYERS)}
    row.update({f"score{p}": scores[p] for p in range(N_PLAYERS)})
    row["margin"] = scores[0] - best_other
    row["win"] = int(scores[0] > best_other)
    row["draw"] = int(scores[0] == best_other)
    row["playouts"] = int(playouts[0])
    row["discards"] = int(K[0, K_DISCARDED])
    row.update({f"score_m{r + 1}": int(move_scores[0, r]) for r in range(N_ROUNDS)})
    return row


# ------------------------------------------------------------------------- branching factor
@njit(cache=True)
def branching_game(ag, rng, out, mirrored_twice):
    """One game of ``ag``; ``out[p, r]`` = legal moves of player p at its move in round r+1.
    ``mirrored_twice`` counts a same-terrain domino's mirrored placement as a second move (a
    counting switch only, to test how the paper's tree size may have been counted)."""
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        p = current_player(G)
        n = legal_moves(G, K, mv, pb[0])
        d = domino_to_place(G)
        if mirrored_twice and d > 0 and n_dirs(d) == 2 and mv[0] // 5 != PLACE_DISCARD:
            n *= 2
        out[p, G[G_ROUND] - 1] = n
        m, _ = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft, memo)
        apply_move(G, K, m, rng, draft, False)


def branching_task(config: Mapping[str, Any], index: int, rng: np.random.Generator) -> list:
    """§II-B / Fig. 2: the branching factor of each player in each round of one game."""
    cfg = check_keys(config, BRANCHING_KEYS, "branching")
    name = _check_agent("agent", cfg["agent"])
    ag = np.stack([agent_row(name, 1.0)] * N_PLAYERS)
    out = np.zeros((N_PLAYERS, N_ROUNDS), dtype=np.int64)
    if not isinstance(cfg["mirrored_twice"], bool):
        raise ValueError(f"mirrored_twice must be true or false, got {cfg['mirrored_twice']!r}")
    branching_game(ag, rng, out, cfg["mirrored_twice"])
    return [{"seat": p, "round": r + 1, "branching": int(out[p, r])}
            for p in range(N_PLAYERS) for r in range(N_ROUNDS)]


# ------------------------------------------------------------------------- size claims (§II-B)
def log10_draws() -> float:
    """log10 of prod_{i=0}^{11} C(48 - 4i, 4): the possible draw sequences."""
    return sum(math.log10(math.comb(48 - 4 * i, 4)) for i in range(12))


def log10_tree_size(rows) -> float:
    """log10 of prod_{p, r} E[B_pr] from branching rows (a DataFrame or a list of dicts)."""
    import pandas as pd

    df = pd.DataFrame(rows)
    means = df.groupby(["seat", "round"])["branching"].mean()
    return float(np.log10(means.to_numpy(dtype=np.float64)).sum())


def warm_up() -> None:
    """Compile (or load from numba's cache) every engine path once, in the parent process,
    before joblib workers start (ARCHITECTURE: numba pitfalls)."""
    rng = np.random.default_rng(0)
    game_task({"player": "MCE-εG/WDL", "opponent": "UCT_W-PG", "playouts": 2}, 0, rng)
    game_task({"player": "GPRD", "opponent": "TR"}, 0, rng)
    branching_task({}, 0, rng)
