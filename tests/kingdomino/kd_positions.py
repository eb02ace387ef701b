"""Kingdomino positions shared by the tests: hand-made ones, and those of games that mix greedy
and random moves."""

import numpy as np

from gameai.kingdomino.dominoes import TERRAIN_CODE
from gameai.kingdomino.policies import new_buffers
from gameai.kingdomino.rules import (
    G_CUR,
    G_DONE,
    G_CUROWN,
    G_PREV,
    G_PREVOWN,
    G_ROUND,
    G_TURN,
    new_game,
    new_kingdoms,
    put_tiles,
    apply_move,
    random_move,
)

WH, FO, LA, GR, SW, MI = (TERRAIN_CODE[t] for t in
                          ("wheat", "forest", "lake", "grassland", "swamp", "mine"))

#: four wheat squares with one crown east of the castle: 4 x 1 = 4 points
WHEAT_BLOCK = [(0, 1, WH, 1), (0, 2, WH, 0), (1, 1, WH, 0), (1, 2, WH, 0)]


def last_round(order, dominoes, turn=0):
    """A round-13 game state: ``order`` places ``dominoes`` (in that order); ``turn`` moves."""
    G, _ = new_game(np.random.default_rng(0))
    G[G_ROUND] = 13
    G[G_TURN] = turn
    for i in range(4):
        G[G_PREV + i] = dominoes[i]
        G[G_PREVOWN + i] = order[i]
        G[G_CUR + i] = -1
        G[G_CUROWN + i] = -1
    return G


def kingdoms(*tile_lists):
    K = new_kingdoms()
    for p, tiles in enumerate(tile_lists):
        if tiles:
            put_tiles(K[p], np.array(tiles, dtype=np.int64))
    return K


def mixed_positions(n_games, first_seed, greedy_share, greedy_move):
    """(G, K) before every move of ``n_games`` games (game ``g`` from seed ``first_seed + g``)
    whose moves are ``greedy_move(G, K, rng, pb, gb, scratch)`` with probability
    ``greedy_share(g)``, else random: random moves leave holes and tiles outside the centre."""
    out = []
    pb, gb, scratch = new_buffers()
    draft = np.empty(4, dtype=np.int64)
    for g in range(n_games):
        rng = np.random.default_rng(first_seed + g)
        G, K = new_game(rng)
        while G[G_DONE] == 0:
            out.append((G.copy(), K.copy()))
            if rng.random() < greedy_share(g):
                m = greedy_move(G, K, rng, pb, gb, scratch)
            else:
                m = random_move(G, K, rng, pb[2])
            apply_move(G, K, m, rng, draft, False)
    return out
