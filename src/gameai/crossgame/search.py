"""Three searches for games of hidden information, written once over :mod:`.games`.

* :func:`flat_mc` - flat Monte Carlo: the budget is spread evenly over the root's legal moves
  (round robin in a random order, so a budget below the number of moves samples random ones),
  every playout after a fresh determinization; the move with the best mean reward is played.
* :func:`determinized_uct` - determinized UCT ("perfect-information Monte Carlo" with UCT):
  ``k`` determinizations, the budget split evenly between them, a separate UCT tree on each;
  the move with the most visits summed over the trees is played (the determinized UCT Cowling,
  Powley & Whitehouse 2012 compare ISMCTS with; their Dou Di Zhu runs used 40 determinizations
  of 250 iterations). ``k`` is a parameter, tuned per game and budget like the exploration
  constant (the chapter's ``determinizations`` sweep); ``k = 0`` asks for the *fixed split*
  ``min(10, budget / 10)`` (:func:`det_count`), the chapter's first, untuned setting.
* :func:`so_ismcts` - single-observer information set MCTS (Cowling et al. 2012, Algorithm 3):
  one tree whose nodes are the searcher's information sets, a new determinization every
  iteration, children filtered by what that determinization allows and UCB computed with
  *availability* counts (how often a child could have been chosen) in place of the parent's
  visits.

All three use the game's uniformly random playout and UCB1 with the same exploration constant
``c`` on rewards in [0, 1]; the reward of a tree node is counted for the player who made the
move into it. Ties - equal UCB values inside the tree, equal visits at the root - are broken
at random (after the mean reward, at the root): the paper's "argmax" names no order, and the
first legal move would favour whatever each engine lists first (a checked bias: Durak lists
taking and passing last, Kingdomino the lowest pick slot first). Budgets are iterations (playouts) per decision, so the results do not depend on
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
#: the fixed split of determinized UCT: k = min(DET_MAX, max(1, budget // DET_MIN_ITERS))
DET_MAX = 10
DET_MIN_ITERS = 10


@njit(cache=True)
def _randint(rng, k):
    j = int(rng.random() * k)
    return j if j < k else k - 1


@njit(cache=True)
def _move_of_key(s, g, key, mv, k):
    """The move of ``mv[:k]`` whose key is ``key``; an error when none (a determinization must
    keep every move of the searcher's own information set)."""
    for j in range(k):
        if G.move_key(s, g, mv[j]) == key:
            return j
    raise ValueError("a root move is missing from a determinization (adapter bug)")


@njit(cache=True)
def _legal_root(s, g, mv):
    k = G.legal(s, g, mv)
    if k == 0:
        raise ValueError("no legal move in a state that is not over (adapter bug)")
    return k


@njit(cache=True)
def flat_mc(s, g, budget, rng):
    """Flat Monte Carlo over the legal moves of the player to move in ``s``."""
    me = G.current(s, g)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = _legal_root(s, g, mv)
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
        jd = _move_of_key(d, g, keys[j], mv_d, kd)  # the move in the determinization's coding
        G.apply(d, g, mv_d[jd])
        G.playout(d, g, rng)
        total[j] += G.reward(d, g, me)
        count[j] += 1.0
    best = -1
    best_mean = -1.0
    ties = 0
    for j in range(k):  # the best mean among the moves sampled, ties at random
        if count[j] > 0:
            m = total[j] / count[j]
            if m > best_mean:
                best, best_mean, ties = j, m, 1
            elif m == best_mean:
                ties += 1
                if _randint(rng, ties) == 0:
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
        if untried > 0:  # expand: a random untried move
            if use_avail:  # the children available here were available this iteration too
                for j in range(k):
                    if child_of[j] >= 0:
                        tn[child_of[j], N_AVAIL] += 1
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
        # select: UCB1 over the children available here, ties at random
        best = -1
        best_u = -1.0
        ties = 0
        log_n = math.log(tn[v, N_VISITS])
        for j in range(k):
            ch = child_of[j]
            n_ch = tn[ch, N_VISITS]
            # ISMCTS: availability (earlier iterations in which the move was available here)
            # in place of the parent's visits (Cowling et al. 2012, Algorithm 3)
            log_a = math.log(tn[ch, N_AVAIL]) if use_avail else log_n
            u = wins[ch] / n_ch + c * math.sqrt(log_a / n_ch)
            if u > best_u:
                best, best_u, ties = j, u, 1
            elif u == best_u:
                ties += 1
                if _randint(rng, ties) == 0:
                    best = j
        if use_avail:  # this iteration counts for every child available here (backup, Alg. 3)
            for j in range(k):
                tn[child_of[j], N_AVAIL] += 1
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
def _best_root(visits, wins, k, rng):
    """The index with the most visits; ties by the mean reward, then at random."""
    best = -1
    ties = 0
    for j in range(k):
        if visits[j] <= 0:
            continue
        if best < 0:
            best, ties = j, 1
            continue
        a = visits[j] - visits[best]
        if a == 0:  # equal visits: the better mean (visits equal, so compare sums)
            a = wins[j] - wins[best]
        if a > 0:
            best, ties = j, 1
        elif a == 0:
            ties += 1
            if _randint(rng, ties) == 0:
                best = j
    return best


@njit(cache=True)
def _root_stats(tn, wins, root_keys, k, visits, sums):
    """Add the root children's visits and rewards of tree ``tn`` to ``visits``/``sums``, by key."""
    ch = tn[0, N_FIRST]
    while ch >= 0:
        for j in range(k):
            if root_keys[j] == tn[ch, N_KEY]:
                visits[j] += tn[ch, N_VISITS]
                sums[j] += wins[ch]
                break
        ch = tn[ch, N_SIBLING]


@njit(cache=True)
def _rooted_tree(size, g):
    """An empty tree of ``size`` nodes whose node 0 is the root (no parent, no mover)."""
    tn, wins = _new_tree(size, G.n_seats(g))
    tn[0, N_PARENT] = -1
    tn[0, N_PLAYER] = -1
    return tn, wins


@njit(cache=True)
def _grow_on_deal(d0, d, g, iters, c, rng, mv, keys, child_of, rew):
    """One tree of determinized UCT: ``iters`` iterations of plain UCT on the fixed deal ``d0``
    (copied into ``d`` for each): ``(tn, wins, n_nodes)``."""
    tn, wins = _rooted_tree(iters + 1, g)
    n_nodes = 1
    for _ in range(iters):
        d[:] = d0
        n_nodes = _iterate(tn, wins, n_nodes, d, g, c, False, rng, mv, keys, child_of, rew)
    return tn, wins, n_nodes


@njit(cache=True)
def so_ismcts_tree(s, g, budget, c, rng):
    """SO-ISMCTS's tree after ``budget`` iterations from the searcher's view of ``s``:
    ``(tn, wins, n_nodes)`` (the test of information-set keys compares two of them)."""
    me = G.current(s, g)
    tn, wins = _rooted_tree(budget + 1, g)
    n_nodes = 1
    d = np.empty_like(s)
    mv, keys, child_of, rew = _buffers(g)
    for _ in range(budget):
        G.determinize(s, g, me, rng, d)
        n_nodes = _iterate(tn, wins, n_nodes, d, g, c, True, rng, mv, keys, child_of, rew)
    return tn, wins, n_nodes


@njit(cache=True)
def _root_keys(s, g, mv, k):
    keys = np.empty(k, dtype=np.int64)
    for j in range(k):
        keys[j] = G.move_key(s, g, mv[j])
    return keys


@njit(cache=True)
def so_ismcts(s, g, budget, c, rng):
    """SO-ISMCTS (Cowling et al. 2012, Algorithm 3): the most visited root child."""
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = _legal_root(s, g, mv)
    if k == 1:
        return mv[0], 1
    tn, wins, n_nodes = so_ismcts_tree(s, g, budget, c, rng)
    visits = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    _root_stats(tn, wins, _root_keys(s, g, mv, k), k, visits, sums)
    return mv[_best_root(visits, sums, k, rng)], n_nodes


@njit(cache=True)
def det_count(budget, n_det):
    """The number of determinizations determinized UCT uses: ``n_det`` (at most ``budget``,
    so that every tree gets an iteration), or the fixed split ``min(10, budget // 10)`` when
    ``n_det`` is 0."""
    if n_det <= 0:
        return min(DET_MAX, max(1, budget // DET_MIN_ITERS))
    return max(1, min(n_det, budget))


@njit(cache=True)
def determinized_uct(s, g, budget, c, rng, n_det):
    """Determinized UCT: ``k`` = :func:`det_count` determinizations, ``budget / k``
    iterations of plain UCT on each, the move with the most visits summed over the trees."""
    me = G.current(s, g)
    mv = np.empty(G.MAX_MOVES, dtype=np.int64)
    k = _legal_root(s, g, mv)
    if k == 1:
        return mv[0], 1
    root_keys = _root_keys(s, g, mv, k)
    visits = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    n_det = det_count(budget, n_det)
    d0 = np.empty_like(s)
    d = np.empty_like(s)
    bmv, keys, child_of, rew = _buffers(g)
    nodes = 0
    for i in range(n_det):
        iters = budget // n_det + (1 if i < budget % n_det else 0)
        G.determinize(s, g, me, rng, d0)
        tn, wins, n_nodes = _grow_on_deal(d0, d, g, iters, c, rng, bmv, keys, child_of, rew)
        nodes += n_nodes
        _root_stats(tn, wins, root_keys, k, visits, sums)
    return mv[_best_root(visits, sums, k, rng)], nodes


@njit(cache=True)
def uct_tree(d0, g, iters, c, rng):
    """One tree of determinized UCT: ``iters`` iterations of plain UCT on the fixed deal
    ``d0`` (unchanged), as :func:`determinized_uct` grows each of its trees: ``(tn, wins,
    n_nodes)`` (the chapter's measure of strategy fusion reads the trees' plans)."""
    mv, keys, child_of, rew = _buffers(g)
    return _grow_on_deal(d0, np.empty_like(d0), g, iters, c, rng, mv, keys, child_of, rew)


@njit(cache=True)
def search_move(search, s, g, budget, c, rng, n_det=0):
    """One decision of search ``search`` (an index of :data:`SEARCHES`): ``(move, nodes)``;
    ``n_det`` is determinized UCT's number of determinizations (0: the fixed split)."""
    if search == 0:
        return flat_mc(s, g, budget, rng)
    if search == 1:
        return determinized_uct(s, g, budget, c, rng, n_det)
    return so_ismcts(s, g, budget, c, rng)
