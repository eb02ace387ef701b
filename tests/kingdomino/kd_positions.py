"""Hand-made Kingdomino positions shared by the agent tests."""

import numpy as np

from gameai.kingdomino.dominoes import TERRAIN_CODE
from gameai.kingdomino.rules import (
    G_CUR,
    G_CUROWN,
    G_PREV,
    G_PREVOWN,
    G_ROUND,
    G_TURN,
    new_game,
    new_kingdoms,
    put_tiles,
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
