"""Three searches for games of hidden information, written once over :mod:`.games`.

* :func:`flat_mc` - flat Monte Carlo: the budget is spread evenly over the root's legal moves
  (round robin in a random order, so a budget below the number of moves samples random ones),
  every playout after a fresh determinization; the move with the best mean reward is played.
* :func:`determinized_uct` - determinized UCT ("perfect-information Monte Carlo" with UCT):
  ``k`` determinizations, the budget split evenly between them, a separate UCT tree on each;
  the move with the most visits summed over the trees is played (Cowling, Powley & Whitehouse
  2012, Sec. IV-A).
* :func:`so_ismcts` - single-observer information set MCTS (Cowling et al. 2012, Algorithm 3):
  one tree whose nodes are the searcher's information sets, a new determinization every
  iteration, children filtered by what that determinization allows and UCB computed with
  *availability* counts (how often a child could have been chosen) in place of the parent's
  visits.

All three use the game's uniformly random playout and UCB1 with the same exploration constant
``c`` on rewards in [0, 1]; the reward of a tree node is counted for the player who made the
move into it. Budgets are iterations (playouts) per decision, so the results do not depend on
the machine. Every function returns ``(move, nodes)``: the move in the true state's coding and
the number of tree nodes (flat Monte Carlo: root moves) it held - the memory a decision took.

Tree storage: flat arrays indexed by node id (``0`` the root), children as linked lists
(``first``/``sibling``). A node is identified by its move's *key* (:func:`.games.move_key`),
which names the move the same way in every determinization (a card, not a hand slot), so the
information-set tree never depends on where the hidden cards lie (``tests/crossgame``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from . import games as G

# node fields (columns of the int array ``tn``)
N_PARENT = 0
N_FIRST = 1  # first child, -1 none
N_SIBLING = 2  # next sibling, -1 none
N_KEY = 3  # key of the move into the node
N_PLAYER = 4  # seat that made the move into the node
N_VISITS = 5
N_AVAIL = 6  # times the node's move was available when its parent was visited (ISMCTS)
N_FIELDS = 7

SEARCHES = ("flat_mc", "det_uct", "ismcts")
SEARCH_IDS = {name: i for i, name in enumerate(SEARCHES)}
#: determinizations of determinized UCT: k = min(DET_MAX, max(1, budget // DET_MIN_ITERS))
DET_MAX = 10
DET_MIN_ITERS = 10


@njit(cache=True)
def _randint(rng, k):
    j = int(rng.random() * k)
    return j if j < k else k - 1


@njit(cache=True)
def _rewards(s, g, out):
    for p in range(G.n_seats(g)):
        out[p] = G.reward(s, g, p)


@njit(cache=True)
def _move_of_key(s, g, key, mv, k):
    """The move of ``mv[:k]`` whose key is ``key`` (-1 when none)."""
    for j in range(k):
        if G.move_key(s, g, mv[j]) == key:
            return j
    return -1


@njit(cache=True)
def flat_mc(s, g, budget, rng):
    """Flat Monte Carlo over the legal moves of the player to move in ``s``."""
    me = G.current(s, g)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = G.legal(s, g, mv)
    if k == 1:
        return mv[0], 1
    keys = np.empty(k, dtype=np.int64)
    for j in range(k):
        keys[j] = G.move_key(s, g, mv[j])
    total = np.zeros(k)
    count = np.zeros(k)
    d = np.empty_like(s)
    mv_d = np.empty(G.MAX_MOVES, dtype=np.int64)
    order = np.arange(k)
    for i in range(k - 1, 0, -1):  # a random order: a budget below k samples random moves
        r = _randint(rng, i + 1)
        order[i], order[r] = order[r], order[i]
    for it in range(budget):
        j = order[it % k]
        G.determinize(s, g, me, rng, d)
        kd = G.legal(d, g, mv_d)
        jd = -1
        for i in range(kd):  # the same move in the determinization's coding
            if G.move_key(d, g, mv_d[i]) == keys[j]:
                jd = i
                break
        G.apply(d, g, mv_d[jd])
        G.playout(d, g, rng)
        total[j] += G.reward(d, g, me)
        count[j] += 1.0
    best = order[0]
    for j in range(k):  # the best mean among the moves sampled
        if count[j] > 0 and total[j] * count[best] > total[best] * count[j]:
            best = j
    return mv[best], min(k, budget)


@njit(cache=True)
def _new_tree(size, n_seats):
    tn = np.full((size, N_FIELDS), -1, dtype=np.int64)
    tn[:, N_VISITS] = 0
    tn[:, N_AVAIL] = 0
    wins = np.zeros(size)
    return tn, wins


@njit(cache=True)
def _add_child(tn, n_nodes, parent, key, player):
    c = n_nodes
    tn[c, N_PARENT] = parent
    tn[c, N_FIRST] = -1
    tn[c, N_SIBLING] = tn[parent, N_FIRST]
    tn[c, N_KEY] = key
    tn[c, N_PLAYER] = player
    tn[c, N_VISITS] = 0
    tn[c, N_AVAIL] = 1
    tn[parent, N_FIRST] = c
    return c


@njit(cache=True)
def _iterate(tn, wins, n_nodes, d, g, c, use_avail, rng, mv, keys, child_of, rew):
    """One MCTS iteration from the root on the (determinized) state ``d``, changed in place:
    select, expand one node, play out, back up. Returns the new number of nodes."""
    v = 0
    n_seats = G.n_seats(g)
    while True:
        player = G.current(d, g)
        if player < 0:
            break
        k = G.legal(d, g, mv)
        untried = 0
        for j in range(k):  # which legal moves already have a child
            keys[j] = G.move_key(d, g, mv[j])
            child_of[j] = -1
            ch = tn[v, N_FIRST]
            while ch >= 0:
                if tn[ch, N_KEY] == keys[j]:
                    child_of[j] = ch
                    break
                ch = tn[ch, N_SIBLING]
            if child_of[j] < 0:
                untried += 1
            elif use_avail:
                tn[child_of[j], N_AVAIL] += 1
        if untried > 0:  # expand: a random untried move
            r = _randint(rng, untried)
            for j in range(k):
                if child_of[j] < 0:
                    if r == 0:
                        v = _add_child(tn, n_nodes, v, keys[j], player)
                        n_nodes += 1
                        G.apply(d, g, mv[j])
                        break
                    r -= 1
            break
        # select: UCB1 over the children available here
        best = -1
        best_u = -1.0
        if use_avail:
            for j in range(k):
                ch = child_of[j]
                u = (wins[ch] / tn[ch, N_VISITS]
                     + c * math.sqrt(math.log(tn[ch, N_AVAIL]) / tn[ch, N_VISITS]))
                if u > best_u:
                    best_u = u
                    best = j
        else:
            log_n = math.log(tn[v, N_VISITS])
            for j in range(k):
                ch = child_of[j]
                u = wins[ch] / tn[ch, N_VISITS] + c * math.sqrt(log_n / tn[ch, N_VISITS])
                if u > best_u:
                    best_u = u
                    best = j
        v = child_of[best]
        G.apply(d, g, mv[best])
    G.playout(d, g, rng)
    for p in range(n_seats):
        rew[p] = G.reward(d, g, p)
    while v >= 0:  # back up: every node on the path, the root included
        tn[v, N_VISITS] += 1
        if v > 0:
            wins[v] += rew[tn[v, N_PLAYER]]
        v = tn[v, N_PARENT]
    return n_nodes


@njit(cache=True)
def _buffers(g):
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    keys = np.empty(G.MAX_MOVES, dtype=np.int64)
    child_of = np.empty(G.MAX_MOVES, dtype=np.int64)
    rew = np.zeros(G.n_seats(g))
    return mv, keys, child_of, rew


@njit(cache=True)
def _most_visited(tn, s, g):
    """The root child with the most visits, as a move of ``s`` (ties: the first in ``s``'s
    move order)."""
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = G.legal(s, g, mv)
    best = 0
    best_n = -1
    for j in range(k):
        key = G.move_key(s, g, mv[j])
        ch = tn[0, N_FIRST]
        while ch >= 0:
            if tn[ch, N_KEY] == key:
                if tn[ch, N_VISITS] > best_n:
                    best_n = tn[ch, N_VISITS]
                    best = j
                break
            ch = tn[ch, N_SIBLING]
    return mv[best]


@njit(cache=True)
def so_ismcts_tree(s, g, budget, c, rng):
    """SO-ISMCTS's tree after ``budget`` iterations from the searcher's view of ``s``:
    ``(tn, wins, n_nodes)`` (the test of information-set keys compares two of them)."""
    me = G.current(s, g)
    tn, wins = _new_tree(budget + 1, G.n_seats(g))
    tn[0, N_PARENT] = -1
    tn[0, N_PLAYER] = -1
    n_nodes = 1
    d = np.empty_like(s)
    mv, keys, child_of, rew = _buffers(g)
    for _ in range(budget):
        G.determinize(s, g, me, rng, d)
        n_nodes = _iterate(tn, wins, n_nodes, d, g, c, True, rng, mv, keys, child_of, rew)
    return tn, wins, n_nodes


@njit(cache=True)
def so_ismcts(s, g, budget, c, rng):
    """SO-ISMCTS (Cowling et al. 2012, Algorithm 3): the most visited root child."""
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = G.legal(s, g, mv)
    if k == 1:
        return mv[0], 1
    tn, wins, n_nodes = so_ismcts_tree(s, g, budget, c, rng)
    return _most_visited(tn, s, g), n_nodes


@njit(cache=True)
def determinized_uct(s, g, budget, c, rng):
    """Determinized UCT: ``k`` determinizations (see :data:`DET_MAX`), ``budget / k``
    iterations of plain UCT on each, the move with the most visits summed over the trees."""
    me = G.current(s, g)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = G.legal(s, g, mv)
    if k == 1:
        return mv[0], 1
    root_keys = np.empty(k, dtype=np.int64)
    for j in range(k):
        root_keys[j] = G.move_key(s, g, mv[j])
    visits = np.zeros(k, dtype=np.int64)
    n_det = min(DET_MAX, max(1, budget // DET_MIN_ITERS))
    d0 = np.empty_like(s)
    d = np.empty_like(s)
    bmv, keys, child_of, rew = _buffers(g)
    nodes = 0
    for i in range(n_det):
        iters = budget // n_det + (1 if i < budget % n_det else 0)
        tn, wins = _new_tree(iters + 1, G.n_seats(g))
        tn[0, N_PARENT] = -1
        tn[0, N_PLAYER] = -1
        n_nodes = 1
        G.determinize(s, g, me, rng, d0)
        for _ in range(iters):
            d[:] = d0
            n_nodes = _iterate(tn, wins, n_nodes, d, g, c, False, rng, bmv, keys, child_of, rew)
        nodes += n_nodes
        ch = tn[0, N_FIRST]
        while ch >= 0:
            for j in range(k):
                if root_keys[j] == tn[ch, N_KEY]:
                    visits[j] += tn[ch, N_VISITS]
                    break
            ch = tn[ch, N_SIBLING]
    best = 0
    for j in range(1, k):
        if visits[j] > visits[best]:
            best = j
    return mv[best], nodes


@njit(cache=True)
def search_move(search, s, g, budget, c, rng):
    """One decision of search ``search`` (an index of :data:`SEARCHES`): ``(move, nodes)``."""
    if search == 0:
        return flat_mc(s, g, budget, rng)
    if search == 1:
        return determinized_uct(s, g, budget, c, rng)
    return so_ismcts(s, g, budget, c, rng)
