"""``gameai bench kingdomino``: our playouts per second against the authors' (paper Fig. 6).

For each playout policy (TR, eps-G, PG, FG) and move index 1..13 we time exactly what an MCE
agent does per playout - copy the position, play a uniformly random root move, play out with
the policy, score with R - from positions of FG self-play games at the player's move of that
index, on one core. The ratio to the authors' rates (``paper.PLAYOUT_RATES``: Java, one thread,
3.2 GHz) is the chapter's speed claim; the issue's targets are >= 10x their TR rate and >= 6x
their FG rate at every move index.

Time is the process's CPU time (``time.process_time``): on a shared machine wall clock also
counts the time other processes hold the core; on an idle one the two agree. The playouts run
in one thread (set ``NUMBA_NUM_THREADS=1``; nothing here is parallel).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..core.benchrecord import write_record
from .agents import (
    AGENTS,
    KIND_MCE,
    KIND_UCT,
    agent_row,
    budget,
    canonical_name,
    choose_move,
)
from .paper import PLAYOUT_RATES
from .policies import POLICY_NAMES, SC_R, new_buffers, playout, reward
from .rules import (
    G_DONE,
    G_LEN,
    G_ROUND,
    KLEN,
    MAX_MOVES,
    N_PLAYERS,
    N_ROUNDS,
    apply_move,
    copy_into,
    current_player,
    legal_moves,
    new_game,
    randint,
)

TARGETS = {"TR": 10.0, "FG": 6.0}


@njit(cache=True)
def _fg_positions(ag, rng, Gs, Ks):
    """Snapshots of an FG x 4 game at seat 0's move in each round (Gs[r], Ks[r])."""
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        p = current_player(G)
        if p == 0:
            Gs[G[G_ROUND] - 1] = G
            Ks[G[G_ROUND] - 1] = K
        m, _ = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft)
        apply_move(G, K, m, rng, draft, False)


@njit(cache=True)
def mce_playouts(G, K, policy, n, rng):
    """``n`` MCE playouts from (G, K) as ``agents.mce_move`` runs them; returns the reward sum."""
    me = current_player(G)
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    nm = legal_moves(G, K, mv, pb[0])
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    total = 0.0
    for _ in range(n):
        copy_into(G2, G)
        copy_into(K2, K)
        apply_move(G2, K2, mv[randint(rng, nm)], rng, draft, False)
        playout(G2, K2, policy, me, rng, pb, gb, scratch, draft)
        total += reward(K2, me, SC_R)
    return total


def positions(n_games: int, rng: np.random.Generator):
    """(Gs, Ks): ``Gs[g, r]`` / ``Ks[g, r]`` = seat 0 to move in round r + 1 of FG game g."""
    ag = np.stack([agent_row("FG")] * N_PLAYERS)
    Gs = np.zeros((n_games, N_ROUNDS, G_LEN), dtype=np.int64)
    Ks = np.zeros((n_games, N_ROUNDS, N_PLAYERS, KLEN), dtype=np.int64)
    for g in range(n_games):
        _fg_positions(ag, rng, Gs[g], Ks[g])
    return Gs, Ks


def playout_rates(seconds_per_cell: float = 0.3, n_games: int = 6, seed: int = 0) -> dict:
    """Our playouts per second: {policy: [rate at move index 1..13]}."""
    rng = np.random.default_rng(seed)
    Gs, Ks = positions(n_games, rng)
    mce_playouts(Gs[0, 5], Ks[0, 5], 0, 2, rng)  # compile / load the numba cache
    out = {}
    for pol, name in enumerate(POLICY_NAMES):
        rates = []
        for r in range(N_ROUNDS):
            # a first guess (10x the authors) sizes the batches to about seconds_per_cell
            per_pos = max(4, int(seconds_per_cell * 10 * PLAYOUT_RATES[name][r] / n_games))
            t0 = time.process_time()
            for g in range(n_games):
                mce_playouts(Gs[g, r], Ks[g, r], pol, per_pos, rng)
            rates.append(per_pos * n_games / (time.process_time() - t0))
        out[name] = rates
    return out


def seconds_per_game(strategy: str, T: float, rates: dict) -> float:
    """Estimated CPU seconds of one game of ``strategy`` at ``T`` s per ply from our measured
    ``rates`` (``playout_rates()``): the sum over its 13 moves of budget / our rate. Static
    agents (and the FG opponents' own moves, about a millisecond a game) count as 0. An upper
    bound: moves with a single legal option cost nothing."""
    kind, pol, _, _ = AGENTS[canonical_name(strategy)]
    if kind not in (KIND_MCE, KIND_UCT):
        return 0.0
    name = POLICY_NAMES[pol]
    return sum(budget(name, T, m) / rates[name][m - 1] for m in range(1, N_ROUNDS + 1))


def main(quick: bool = False) -> dict:
    rates = playout_rates(0.05 if quick else 0.3, 3 if quick else 6)
    print("Kingdomino playouts per CPU second (one core) vs the authors' Java (paper Fig. 6)")
    print(f"{'move':>5} " + " ".join(f"{n + ' ours':>10} {'x':>6}" for n in POLICY_NAMES))
    for r in range(N_ROUNDS):
        cells = []
        for name in POLICY_NAMES:
            ours = rates[name][r]
            cells.append(f"{ours:10,.0f} {ours / PLAYOUT_RATES[name][r]:6.1f}")
        print(f"{r + 1:>5} " + " ".join(cells))
    ratios = {n: [rates[n][r] / PLAYOUT_RATES[n][r] for r in range(N_ROUNDS)] for n in rates}
    for name, target in TARGETS.items():
        worst = min(ratios[name])
        verdict = "met" if worst >= target else "NOT met"
        print(f"{name}: lowest ratio {worst:.1f}x (target {target:.0f}x at every move: {verdict})")
    print("Estimated CPU seconds per game at T = 1 s: " + ", ".join(
        f"{s} {seconds_per_game(s, 1.0, rates):.2f}" for s in ("MCE-TR/R", "MCE-FG/R", "UCT_W-FG")))
    out = {"rates": rates, "ratios": ratios}
    if not quick:  # the book's speed paragraph reads this record (not re-measured at build)
        print("record:", write_record("kingdomino", {"seconds_per_cell": 0.3, "positions": 6,
                                                     "rates": {k: list(v) for k, v in rates.items()}}))
    return out


if __name__ == "__main__":
    main()
