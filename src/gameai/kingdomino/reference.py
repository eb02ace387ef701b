"""The greedy playout as it was before the speed-up of issue 45, kept for checks and timings.

``gameai bench kingdomino`` times these next to :mod:`.policies` in one run, playout by playout
(:func:`gameai.kingdomino.bench.greedy_speedup`) and in whole Table III games
(:func:`gameai.kingdomino.bench.engine_speedup`, through the agent rows of
``agents.former_engine``), and ``tests/kingdomino/test_kd_speed.py`` asserts that both give the
same moves and draw the same random numbers, position by position and game by game. The book's
results never use them: the engine plays :mod:`.policies`.

The functions are the former ``policies`` code, unchanged but for the ``_reference`` names:
the greedy core of the paper's FG (Gedda et al. 2018, §III-A; the authors' kdom-ai
``TinyFullGreedy`` / ``TinyGreedyAlgorithm``) evaluated cell by cell - holes by looking at the
four neighbours of each centre cell, each candidate placement stored with its gain before
the maximum is taken.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dominoes import CASTLE, EMPTY
from .policies import (
    GREEDY_AUTHORS,
    HOLE_BASE,
    POL_FG,
    POL_PG,
    POL_TR,
    EPSILON,
    _argmax_random,
    most_crowns_pick,
)
from .rules import (
    CENTRE_HI,
    CENTRE_LO,
    G_CUR,
    G_DONE,
    G_ROUND,
    IN_CENTRE,
    K_TER,
    N_ROUNDS,
    OFFS,
    PICK_NONE,
    PLACE_DISCARD,
    PLACE_NONE,
    W,
    apply_move,
    copy_into,
    current_player,
    domino_to_place,
    encode,
    free_picks,
    gain,
    gen_placements,
    place,
    play_out_random,
    random_move,
    random_placement,
    randint,
    score,
    window,
)


@njit(cache=True, inline="always")
def _free_for_hole(k, f):
    if IN_CENTRE[f] == 0:
        return False
    t = k[K_TER + f]
    return t == EMPTY or t == CASTLE


@njit(cache=True)
def hole_masks_reference(k):
    """(holes, one_free), cell by cell (the former ``policies.hole_masks``)."""
    holes = np.int64(0)
    one_free = np.int64(0)
    for r in range(CENTRE_LO, CENTRE_HI + 1):
        for c in range(CENTRE_LO, CENTRE_HI + 1):
            e = r * W + c
            if k[K_TER + e] != EMPTY:
                continue
            n = 0
            for i in range(4):
                n += _free_for_hole(k, e + OFFS[i])
            if n == 0:
                holes |= np.int64(1) << (e - HOLE_BASE)
            elif n == 1:
                one_free |= np.int64(1) << (e - HOLE_BASE)
    return holes, one_free


@njit(cache=True, inline="always")
def makes_hole_reference(pl, one_free):
    a = pl >> 2
    b = a + OFFS[pl & 3]
    for x in (a, b):
        if IN_CENTRE[x] == 0:
            continue
        for i in range(4):
            e = x + OFFS[i]
            if e != a and e != b and IN_CENTRE[e] == 1 and (one_free >> (e - HOLE_BASE)) & 1:
                return True
    return False


@njit(cache=True, inline="always")
def _candidates_reference(k, d, out, gains, holes, one_free):
    n = 0
    if holes == 0:
        r0, r1, c0, c1 = window(k)
        m = gen_placements(k, d, out, max(r0, CENTRE_LO), min(r1, CENTRE_HI),
                           max(c0, CENTRE_LO), min(c1, CENTRE_HI))
        for i in range(m):
            pl = out[i]
            if not makes_hole_reference(pl, one_free):
                out[n] = pl
                gains[n] = gain(k, pl, d)
                n += 1
    if n == 0:
        r0, r1, c0, c1 = window(k)
        n = gen_placements(k, d, out, r0, r1, c0, c1)
        for i in range(n):
            gains[i] = gain(k, out[i], d)
    return n


@njit(cache=True)
def greedy_candidates_reference(k, d, out, gains):
    """The former ``policies.greedy_candidates``."""
    holes, one_free = hole_masks_reference(k)
    return _candidates_reference(k, d, out, gains, holes, one_free)


@njit(cache=True)
def greedy_value_reference(k, d, out, gains, holes, one_free):
    """The former ``policies.greedy_value``."""
    n = _candidates_reference(k, d, out, gains, holes, one_free)
    best = 0
    if n > 0:
        best = gains[0]
        for i in range(1, n):
            if gains[i] > best:
                best = gains[i]
    return score(k) + best


@njit(cache=True)
def fg_move_reference(G, K, rng, pb, gb, scratch):
    """The former ``policies.fg_move`` (FG, two plies of the own kingdom)."""
    if G[G_ROUND] == 1:
        return encode(PLACE_NONE, most_crowns_pick(G, rng))
    k = K[current_player(G)]
    d = domino_to_place(G)
    n = greedy_candidates_reference(k, d, pb[0], gb[0])
    picks = np.empty(4, dtype=np.int64)
    npk = free_picks(G, picks)
    if npk == 0:
        if n == 0:
            return encode(PLACE_DISCARD, PICK_NONE)
        return encode(pb[0, _argmax_random(gb[0], n, rng)], PICK_NONE)
    if n == 0:
        pb[0, 0] = PLACE_DISCARD
        n = 1
    best = -(1 << 30)
    best_move = -1
    ties = 0
    for i in range(n):
        pl = pb[0, i]
        copy_into(scratch, k)
        if pl != PLACE_DISCARD:
            place(scratch, pl, d)
        holes, one_free = hole_masks_reference(scratch)
        for j in range(npk):
            v = greedy_value_reference(scratch, G[G_CUR + picks[j]], pb[1], gb[1], holes,
                                       one_free)
            if v > best:
                best = v
                best_move = encode(pl, picks[j])
                ties = 1
            elif v == best:
                ties += 1
                if randint(rng, ties) == 0:
                    best_move = encode(pl, picks[j])
    return best_move


@njit(cache=True)
def fg_authors_move_reference(G, K, rng, pb, gb, scratch):
    """The former ``policies.fg_authors_move`` (the authors' FG: rounds 2 and 13 at random)."""
    r = G[G_ROUND]
    if r == N_ROUNDS:
        return random_move(G, K, rng, pb[2])
    if r == 2:
        pick = most_crowns_pick(G, rng)
        p = current_player(G)
        return encode(random_placement(K[p], domino_to_place(G), rng, pb[2]), pick)
    return fg_move_reference(G, K, rng, pb, gb, scratch)


@njit(cache=True, inline="always")
def _greedy_reference(G, K, authors, rng, pb, gb, scratch):
    if authors:
        return fg_authors_move_reference(G, K, rng, pb, gb, scratch)
    return fg_move_reference(G, K, rng, pb, gb, scratch)


@njit(cache=True)
def policy_move_reference(G, K, policy, searcher, rng, pb, gb, scratch):
    """The former ``policies.policy_move``."""
    authors = policy >= GREEDY_AUTHORS
    base = policy % GREEDY_AUTHORS
    if base == POL_TR:
        return random_move(G, K, rng, pb[2])
    if base == POL_FG:
        return _greedy_reference(G, K, authors, rng, pb, gb, scratch)
    if base == POL_PG:
        if current_player(G) == searcher:
            return _greedy_reference(G, K, authors, rng, pb, gb, scratch)
        return random_move(G, K, rng, pb[2])
    if rng.random() < EPSILON:
        return random_move(G, K, rng, pb[2])
    return _greedy_reference(G, K, authors, rng, pb, gb, scratch)


@njit(cache=True)
def playout_reference(G, K, policy, searcher, rng, pb, gb, scratch, draft):
    """The former ``policies.playout``: play to the end in place."""
    if policy % GREEDY_AUTHORS == POL_TR:
        play_out_random(G, K, rng, pb[2], draft)
        return
    while G[G_DONE] == 0:
        m = policy_move_reference(G, K, policy, searcher, rng, pb, gb, scratch)
        apply_move(G, K, m, rng, draft, False)
