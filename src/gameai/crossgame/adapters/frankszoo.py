"""frankszoo adapter: NOT YET WRITTEN (placeholder with the contract's signatures, see
:mod:`gameai.crossgame.games`)."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def n_seats(g):
    return 1


@njit(cache=True)
def current(s, g):
    return -1


@njit(cache=True)
def legal(s, g, mv):
    return 0


@njit(cache=True)
def move_key(s, g, m):
    return m


@njit(cache=True)
def apply(s, g, m):
    pass


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    out[:] = s


@njit(cache=True)
def playout(s, g, rng):
    pass


@njit(cache=True)
def reward(s, g, seat):
    return 0.0


@njit(cache=True)
def baseline(s, g, rng):
    return 0
