"""Invariants over many games (spec, issue 8): 52 moves, 12 dominoes per kingdom placed or
discarded (48 dominoes, 4 kingdoms; round 1 is pick-only), every move legal, incremental scores
equal to a from-scratch recount after every move, every domino drawn exactly once.

The sweeps run inside one compiled function so that 10,000 games take seconds.
"""

import numpy as np
from numba import njit

from gameai.kingdomino.agents import agent_row, choose_move
from gameai.kingdomino.policies import POL_EG, POL_FG, POL_TR, new_buffers, new_memo, policy_move
from gameai.kingdomino.rules import (
    G_DONE,
    G_NMOVES,
    G_SEEN,
    K_DISCARDED,
    K_NOCC,
    K_PLACED,
    MAX_MOVES,
    N_PLAYERS,
    apply_move,
    current_player,
    legal_moves,
    new_game,
    recount,
    score,
)


@njit(cache=True)
def _sweep(n_games, policy, rng):
    """Number of violations of each invariant over ``n_games`` games of ``policy``."""
    bad = np.zeros(6, dtype=np.int64)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    for _ in range(n_games):
        G, K = new_game(rng)
        while G[G_DONE] == 0:
            p = current_player(G)
            m = policy_move(G, K, policy, 0, rng, pb, gb, scratch, memo)
            n = legal_moves(G, K, mv, pb[0])
            found = False
            for i in range(n):
                if mv[i] == m:
                    found = True
            if not found:
                bad[0] += 1
            apply_move(G, K, m, rng, draft, False)
            if score(K[p]) != recount(K[p]):
                bad[1] += 1
        if G[G_NMOVES] != 52:
            bad[2] += 1
        for p in range(N_PLAYERS):
            if K[p, K_PLACED] + K[p, K_DISCARDED] != 12:
                bad[3] += 1
            if K[p, K_NOCC] != 1 + 2 * K[p, K_PLACED]:
                bad[4] += 1
        if G[G_SEEN] != (np.int64(1) << 48) - 1:
            bad[5] += 1
    return bad


def test_10000_random_games():
    bad = _sweep(10_000, POL_TR, np.random.default_rng(2026))
    assert bad.tolist() == [0] * 6


def test_greedy_and_eps_greedy_games():
    assert _sweep(200, POL_FG, np.random.default_rng(1)).tolist() == [0] * 6
    assert _sweep(300, POL_EG, np.random.default_rng(2)).tolist() == [0] * 6


@njit(cache=True)
def _search_sweep(ag, n_games, rng):
    """Illegal moves chosen by the agents ``ag`` (one row per seat) over ``n_games`` games."""
    bad = 0
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    legal = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    for _ in range(n_games):
        G, K = new_game(rng)
        while G[G_DONE] == 0:
            p = current_player(G)
            m, _ = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft, memo)
            n = legal_moves(G, K, legal, pb[0])
            found = False
            for i in range(n):
                if legal[i] == m:
                    found = True
            bad += not found
            apply_move(G, K, m, rng, draft, False)
            bad += score(K[p]) != recount(K[p])
    return bad


def test_search_agents_only_play_legal_moves():
    ag = np.stack([agent_row("UCT_W-εG", playouts=30), agent_row("MCE-PG/WDL", playouts=30),
                   agent_row("UCT_B-TR", playouts=30), agent_row("GPRD")])
    assert _search_sweep(ag, 3, np.random.default_rng(9)) == 0
