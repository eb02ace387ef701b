"""UCT rebuilds the game state only when an iteration needs it and keeps the winner of every
game-ending node (:func:`gameai.kingdomino.agents.uct_move`). That must change nothing: the
same move, the same random draws, so every stored game replays. Checked here against the plain
UCT that replays every move of every iteration (the engine's version before the change)."""

import numpy as np
import pytest
from numba import njit

from gameai.kingdomino.agents import (
    AG_BIAS,
    AG_C,
    AG_POLICY,
    AG_W,
    MAX_TREE,
    ORDER_AUTHORS,
    ORDER_PLACEMENT,
    _ucb,
    agent_row,
    choose_move,
    uct_move,
)
from gameai.kingdomino.policies import new_buffers, new_memo, playout
from gameai.kingdomino.rules import (
    G_DONE,
    G_ROUND,
    MAX_MOVES,
    N_PLAYERS,
    apply_move,
    copy_into,
    current_player,
    legal_moves,
    new_game,
    pick_major,
    score,
    winners,
)


@njit(cache=True)
def plain_uct_move(G, K, policy, bias, C, Wb, n_iter, rng, mv, pb, gb, scratch, draft, memo,
                   order, max_tree):
    """The reference: every iteration copies the root state and plays every move down the tree
    (given no FG memo: ``new_memo(0)``)."""
    me = current_player(G)
    n0 = legal_moves(G, K, mv, pb[0])
    if n0 == 1:
        return mv[0], 0
    cap = min(n_iter + 1, max_tree)
    parent = np.empty(cap, dtype=np.int64)
    first = np.empty(cap, dtype=np.int64)
    sibling = np.empty(cap, dtype=np.int64)
    nexp = np.empty(cap, dtype=np.int64)
    nmov = np.empty(cap, dtype=np.int64)
    mover = np.empty(cap, dtype=np.int64)
    move = np.empty(cap, dtype=np.int64)
    heur = np.empty(cap, dtype=np.int64)
    visits = np.empty(cap, dtype=np.int64)
    wins = np.empty(cap, dtype=np.float64)
    drafts = np.empty((cap, 4), dtype=np.int64)
    parent[0] = -1
    first[0] = -1
    sibling[0] = -1
    nexp[0] = 0
    nmov[0] = n0
    mover[0] = -1
    visits[0] = 0
    wins[0] = 0.0
    size = 1
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    tmp = np.empty(MAX_MOVES, dtype=np.int64)
    for _ in range(n_iter):
        copy_into(G2, G)
        copy_into(K2, K)
        node = 0
        while G2[G_DONE] == 0:
            if (nmov[node] < 0 or nexp[node] < nmov[node]) and size < cap:
                nm = legal_moves(G2, K2, mv, pb[0])
                if order == ORDER_AUTHORS:
                    pick_major(mv, nm, tmp)
                nmov[node] = nm
                m = mv[nexp[node]]
                p = current_player(G2)
                before = score(K2[p])
                drew = apply_move(G2, K2, m, rng, draft, False)
                c = size
                size += 1
                parent[c] = node
                first[c] = -1
                sibling[c] = first[node]
                first[node] = c
                nexp[node] += 1
                nexp[c] = 0
                nmov[c] = -1
                mover[c] = p
                move[c] = m
                heur[c] = score(K2[p]) - before
                visits[c] = 0
                wins[c] = 0.0
                for j in range(4):
                    drafts[c, j] = draft[j] if drew else -1
                node = c
                break
            if first[node] < 0:
                break
            best = -1
            best_v = -1e300
            c = first[node]
            while c >= 0:
                v = _ucb(wins[c], visits[c], heur[c], np.log(visits[node]), bias, C, Wb)
                if v > best_v:
                    best_v = v
                    best = c
                c = sibling[c]
            apply_move(G2, K2, move[best], rng, drafts[best], True)
            node = best
        playout(G2, K2, policy, me, rng, pb, gb, scratch, draft, memo)
        wmask = winners(K2)
        winner = -1
        for p in range(N_PLAYERS):
            if wmask == (1 << p):
                winner = p
        x = node
        while x >= 0:
            visits[x] += 1
            if mover[x] == winner:
                wins[x] += 1.0
            x = parent[x]
    best = -1
    best_x = -1.0
    best_h = -(1 << 30)
    c = first[0]
    while c >= 0:
        x = wins[c] / visits[c]
        if x > best_x or (x == best_x and heur[c] > best_h):
            best = c
            best_x = x
            best_h = heur[c]
        c = sibling[c]
    return move[best], n_iter


def _positions(seed):
    """Every position of one game of four FG* players (rounds 1-13, all four seats)."""
    rng = np.random.default_rng(seed)
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    memo = new_memo()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    fg = agent_row("FG*")
    out = []
    while G[G_DONE] == 0:
        out.append((G.copy(), K.copy()))
        m, _ = choose_move(G, K, fg, rng, mv, pb, gb, scratch, draft, memo)
        apply_move(G, K, m, rng, draft, False)
    return out


def _search(fn, G, K, a, n_iter, order, max_tree, memo_bits):
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    rng = np.random.default_rng(7)
    m, n = fn(G.copy(), K.copy(), np.int64(a[AG_POLICY]), np.int64(a[AG_BIAS]), a[AG_C],
              a[AG_W], n_iter, rng, mv, pb, gb, scratch, draft, new_memo(memo_bits), order,
              max_tree)
    return m, n, rng.random()  # the next draw: the stream was used the same way


@pytest.mark.parametrize("name, order, max_tree", [
    ("UCT-TR", ORDER_PLACEMENT, MAX_TREE),
    ("UCT_B-PG", ORDER_AUTHORS, MAX_TREE),
    ("UCT_W-FG", ORDER_AUTHORS, MAX_TREE),
    ("UCT_W-εG", ORDER_PLACEMENT, 40),  # a full tree: iterations play out from its leaves
])
def test_uct_plays_and_draws_as_the_plain_version(name, order, max_tree):
    a = agent_row(name)
    checked = ended = 0
    for G, K in _positions(seed=5)[::3]:
        late = G[G_ROUND] >= 11  # where the authors' budgets give millions of iterations
        n_iter = 3000 if late else 150
        fast = _search(uct_move, G, K, a, n_iter, order, max_tree, 15)  # with FG's memo
        plain = _search(plain_uct_move, G, K, a, n_iter, order, max_tree, 0)
        assert fast == plain, (name, int(G[G_ROUND]), int(current_player(G)))
        checked += fast[1] > 0
        ended += late and fast[1] > 0
    assert checked >= 10 and ended >= 2  # searched positions, some with game-ending nodes
