"""The 48 Kingdomino dominoes (96 squares, 39 crowns).

``tests/kingdomino/test_kd_rules.py`` checks the table below against
``tests/kingdomino/data/kingdomino_dominoes.csv`` (the rulebook's and the authors' table). Rows
are ``(number, terrain1, crowns1, terrain2, crowns2)``.
"""

from __future__ import annotations

import numpy as np

#: Terrain codes of the engine's grids (0 = empty, 7 = castle, -1 = off the board).
TERRAINS = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
EMPTY = 0
CASTLE = 7
BORDER = -1
TERRAIN_CODE = {name: i + 1 for i, name in enumerate(TERRAINS)}

N_DOMINOES = 48

DOMINO_TABLE = (
    (1, "wheat", 0, "wheat", 0),
    (2, "wheat", 0, "wheat", 0),
    (3, "forest", 0, "forest", 0),
    (4, "forest", 0, "forest", 0),
    (5, "forest", 0, "forest", 0),
    (6, "forest", 0, "forest", 0),
    (7, "lake", 0, "lake", 0),
    (8, "lake", 0, "lake", 0),
    (9, "lake", 0, "lake", 0),
    (10, "grassland", 0, "grassland", 0),
    (11, "grassland", 0, "grassland", 0),
    (12, "swamp", 0, "swamp", 0),
    (13, "wheat", 0, "forest", 0),
    (14, "wheat", 0, "lake", 0),
    (15, "wheat", 0, "grassland", 0),
    (16, "wheat", 0, "swamp", 0),
    (17, "forest", 0, "lake", 0),
    (18, "forest", 0, "grassland", 0),
    (19, "wheat", 1, "forest", 0),
    (20, "wheat", 1, "lake", 0),
    (21, "wheat", 1, "grassland", 0),
    (22, "wheat", 1, "swamp", 0),
    (23, "wheat", 1, "mine", 0),
    (24, "forest", 1, "wheat", 0),
    (25, "forest", 1, "wheat", 0),
    (26, "forest", 1, "wheat", 0),
    (27, "forest", 1, "wheat", 0),
    (28, "forest", 1, "lake", 0),
    (29, "forest", 1, "grassland", 0),
    (30, "lake", 1, "wheat", 0),
    (31, "lake", 1, "wheat", 0),
    (32, "lake", 1, "forest", 0),
    (33, "lake", 1, "forest", 0),
    (34, "lake", 1, "forest", 0),
    (35, "lake", 1, "forest", 0),
    (36, "wheat", 0, "grassland", 1),
    (37, "lake", 0, "grassland", 1),
    (38, "wheat", 0, "swamp", 1),
    (39, "grassland", 0, "swamp", 1),
    (40, "mine", 1, "wheat", 0),
    (41, "wheat", 0, "grassland", 2),
    (42, "lake", 0, "grassland", 2),
    (43, "wheat", 0, "swamp", 2),
    (44, "grassland", 0, "swamp", 2),
    (45, "mine", 2, "wheat", 0),
    (46, "swamp", 0, "mine", 2),
    (47, "swamp", 0, "mine", 2),
    (48, "wheat", 0, "mine", 3),
)


def domino_array() -> np.ndarray:
    """``(49, 4)`` int64 array: row ``n`` = (terrain1, crowns1, terrain2, crowns2); row 0 unused."""
    out = np.zeros((N_DOMINOES + 1, 4), dtype=np.int64)
    for number, t1, c1, t2, c2 in DOMINO_TABLE:
        out[number] = (TERRAIN_CODE[t1], c1, TERRAIN_CODE[t2], c2)
    return out


#: The engine's copy (frozen into the compiled code: 392 int64, far below numba's global limit).
DOMINOES = domino_array()
