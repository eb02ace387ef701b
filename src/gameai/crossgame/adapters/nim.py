"""Nim, the tiny perfect-information game of the search tests: ``s[0]`` stones, the player to
move (``s[1]``, 0 or 1) takes 1, 2 or 3; whoever takes the last stone wins (``s[2]`` = the
winner, -1 while playing). The losing positions are the multiples of 4, so from 5 stones the
only winning move is to take 1, from 7 to take 3. ``g = [GAME_NIM]``."""

from __future__ import annotations

import numpy as np
from numba import njit


def new_game(stones: int) -> tuple[np.ndarray, np.ndarray]:
    return np.array([stones, 0, -1], dtype=np.int64), np.array([0], dtype=np.int64)


@njit(cache=True)
def n_seats(g):
    return 2


@njit(cache=True)
def current(s, g):
    return -1 if s[2] >= 0 else s[1]


@njit(cache=True)
def legal(s, g, mv):
    k = 0
    for take in range(1, 4):
        if take <= s[0]:
            mv[k] = take
            k += 1
    return k


@njit(cache=True)
def move_key(s, g, m):
    return m


@njit(cache=True)
def apply(s, g, m):
    s[0] -= m
    if s[0] == 0:
        s[2] = s[1]
    s[1] = 1 - s[1]


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    out[:] = s


@njit(cache=True)
def playout(s, g, rng):
    while s[2] < 0:
        k = min(3, s[0])
        take = 1 + int(rng.random() * k)
        apply(s, g, min(take, k))


@njit(cache=True)
def reward(s, g, seat):
    return 1.0 if s[2] == seat else 0.0


@njit(cache=True)
def baseline(s, g, rng):
    """The perfect player: leave a multiple of 4 when possible, else take 1."""
    r = s[0] % 4
    return r if r > 0 else 1
