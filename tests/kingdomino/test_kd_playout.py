"""The TR playout (``rules.play_out_random``) against the plain move loop it replaces.

The fast playout defers the region bookkeeping to one flood fill per kingdom at the end
(``rescore``). It must play the same game from the same random stream - cached results of
every MCE-TR and UCT-TR run depend on that - and leave kingdoms that score, and keep scoring,
exactly as the incremental ones do.
"""

import numpy as np
from numba import njit

from gameai.kingdomino.rules import (
    G_DONE,
    G_NMOVES,
    G_ROUND,
    K_CRW,
    K_RCROWN,
    K_REG,
    K_RSIZE,
    K_TER,
    KLEN,
    LAZY_ROUNDS,
    MAX_MOVES,
    N_CELLS,
    N_MOVES,
    N_PLAYERS,
    N_ROUNDS,
    apply_move,
    copy_into,
    new_game,
    play_out_random,
    random_move,
    randint,
    recount,
    rescore,
    score,
)


@njit(cache=True)
def _same_regions(a, b):
    """Do kingdoms ``a`` and ``b`` split their tiles into the same regions, with the same size
    and crowns? (Region ids may differ: only the partition counts.)"""
    for x in range(N_CELLS):
        if (a[K_REG + x] < 0) != (b[K_REG + x] < 0):
            return False
        if a[K_REG + x] < 0:
            continue
        ra = a[K_REG + x]
        rb = b[K_REG + x]
        if a[K_RSIZE + ra] != b[K_RSIZE + rb] or a[K_RCROWN + ra] != b[K_RCROWN + rb]:
            return False
        for y in range(N_CELLS):
            if a[K_REG + y] >= 0 and (a[K_REG + y] == ra) != (b[K_REG + y] == rb):
                return False
    return True


@njit(cache=True)
def _random_start(rng):
    """A random game advanced by TR to a random move (any round, the game not over)."""
    G, K = new_game(rng)
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    stop = randint(rng, N_MOVES)
    while G[G_NMOVES] < stop:
        apply_move(G, K, random_move(G, K, rng, buf), rng, draft, False)
    return G, K


@njit(cache=True)
def _both_ways(n, rng, seed_a, seed_b):
    """Violations over ``n`` starts: [games differ, scores differ, score != recount,
    regions differ], and how many starts took the deferred-scoring path. Each start is played
    out by the move loop with ``seed_a`` and by ``play_out_random`` with ``seed_b`` (the same
    generator state)."""
    bad = np.zeros(4, dtype=np.int64)
    deferred = 0
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    K2 = np.empty((N_PLAYERS, KLEN), dtype=np.int64)
    for _ in range(n):
        G, K = _random_start(rng)
        G2 = G.copy()
        copy_into(K2, K)
        deferred += N_ROUNDS - G[G_ROUND] >= LAZY_ROUNDS
        while G[G_DONE] == 0:
            apply_move(G, K, random_move(G, K, seed_a, buf), seed_a, draft, False)
        play_out_random(G2, K2, seed_b, buf, draft)
        bad[0] += not np.array_equal(G, G2)
        for p in range(N_PLAYERS):
            for x in range(N_CELLS):
                bad[0] += K[p, K_TER + x] != K2[p, K_TER + x] or K[p, K_CRW + x] != K2[p, K_CRW + x]
            bad[1] += score(K[p]) != score(K2[p])
            bad[2] += score(K2[p]) != recount(K2[p])
            bad[3] += not _same_regions(K[p], K2[p])
    return bad, deferred


def test_play_out_random_plays_the_same_game_as_the_move_loop():
    seed_a = np.random.default_rng(77)
    seed_b = np.random.default_rng(77)
    bad, deferred = _both_ways(3000, np.random.default_rng(5), seed_a, seed_b)
    assert bad.tolist() == [0, 0, 0, 0]
    assert seed_a.random() == seed_b.random()  # and used the stream to the same point
    assert 0 < deferred < 3000  # both paths: scores deferred early, incremental near the end


@njit(cache=True)
def _rescore_then_play(n_games, rng):
    """Violations when a copy of each kingdom is rescored from its terrain before every move and
    the move is then applied to both: [scores differ, score != recount, regions differ]."""
    bad = np.zeros(3, dtype=np.int64)
    buf = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    stack = np.empty(32, dtype=np.int64)
    for _ in range(n_games):
        G, K = new_game(rng)
        K2 = K.copy()
        while G[G_DONE] == 0:
            for p in range(N_PLAYERS):
                rescore(K2[p], stack)
            m = random_move(G, K, rng, buf)
            G2 = G.copy()
            apply_move(G, K, m, rng, draft, False)
            apply_move(G2, K2, m, rng, draft, True)  # the same draft, already drawn
            for p in range(N_PLAYERS):
                bad[0] += score(K[p]) != score(K2[p])
                bad[1] += score(K2[p]) != recount(K2[p])
                bad[2] += not _same_regions(K[p], K2[p])
    return bad


def test_a_rescored_kingdom_keeps_scoring_incrementally():
    assert _rescore_then_play(300, np.random.default_rng(11)).tolist() == [0, 0, 0]
