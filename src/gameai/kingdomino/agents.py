"""The paper's agents (§III, §V-B; chapter spec "Agents") and the registry by paper name.

* TR, GPRD, FG - static evaluators (``policies``). ``FG*`` (not a paper name) is FG with the
  authors' fallback bug: its very last domino is placed at random (spec "Agents"); the book's
  FG is the correct greedy, FG* is there to measure what the bug changes.
* MCE-X/Y - flat Monte Carlo: each playout picks a root move uniformly at random, plays the game
  out with policy X, scores it with Y, keeps a running mean per move; plays the argmax.
* UCT-X, UCT_B-X (progressive bias), UCT_W-X (progressive win bias) - one expansion per
  iteration in move order; the chance outcome (a new draft) is sampled at expansion and kept in
  the node; reward 1 to the unique top scorer; a node holds the win rate of the player who moved
  into it; UCB = X + C sqrt(ln T / T_i) [+ W H_i / (T_i + 1) | + W H_i / (T_i (1 - X_i) + 1)],
  H_i = the mover's immediate score gain; the final move has the best win rate, ties by the
  searcher's score in the child. The tree lives in flat arrays (no recursion: numba's cache).

Budgets are playouts (UCT: iterations) per move: ``T x`` the authors' measured rate for the
policy and the player's move index 1..13 (``paper.PLAYOUT_RATES``), rounded, at least 1 - the
same for a seed on any machine. ``playouts`` in an agent row fixes the budget instead (tests,
sweeps). A position with a single legal move is played at once (no playouts are spent).

Every agent is one float64 row (``AG_*`` columns) so that a game with any mix of agents runs in
one compiled loop (``play_game``).
"""

from __future__ import annotations

import math
import re

import numpy as np
from numba import njit

from .paper import PLAYOUT_RATES
from .policies import (
    POL_FG,
    POL_TR,
    POLICY_NAMES,
    SC_WDL,
    SCORING_NAMES,
    fg_move,
    gprd_move,
    new_buffers,
    playout,
    reward,
)
from .rules import (
    G_DONE,
    G_ROUND,
    MAX_MOVES,
    N_MOVES,
    N_PLAYERS,
    N_ROUNDS,
    apply_move,
    copy_into,
    current_player,
    legal_moves,
    new_game,
    pick_major,
    randint,
    random_move,
    score,
    winners,
)

#: Bump when an agent's behaviour changes: part of every cached result's key.
AGENTS_VERSION = "1"

# --- agent rows -----------------------------------------------------------------------------
AG_KIND = 0
AG_POLICY = 1
AG_SCORING = 2
AG_BIAS = 3
AG_C = 4
AG_W = 5
AG_T = 6  # seconds per ply of the paper -> budget via the authors' rates
AG_PLAYOUTS = 7  # > 0: a fixed budget per move instead
AG_ORDER = 8  # UCT's expansion order: ORDER_PLACEMENT (ours) or ORDER_AUTHORS (pick-major)
AG_ITERS = 9  # 13 columns: > 0 = the authors' mean iterations for moves 1..13 (budget "authors")
AG_LEN = AG_ITERS + 13

ORDER_PLACEMENT = 0
ORDER_AUTHORS = 1
#: ``move_order`` values (issue: like-for-like Table III) -> AG_ORDER codes.
MOVE_ORDERS = {"placement": ORDER_PLACEMENT, "authors": ORDER_AUTHORS}

KIND_TR = 0
KIND_GPRD = 1
KIND_FG = 2
KIND_MCE = 3
KIND_UCT = 4
KIND_FG_QUIRK = 5  # "FG*": FG with the authors' fallback bug (its last domino placed at random)

BIAS_NONE = 0
BIAS_B = 1  # progressive bias: W H / (T_i + 1)
BIAS_W = 2  # progressive win bias: W H / (T_i (1 - X_i) + 1)
BIAS_PREFIX = {"UCT": BIAS_NONE, "UCT_B": BIAS_B, "UCT_W": BIAS_W}

#: UCT tree size cap (nodes; about 130 bytes each): past it, iterations play out from the leaf
#: they reach without expanding. Our rule's largest budget (10 s x 46,257) stays below it; the
#: authors' measured budgets of the last moves at T >= 4 s (millions of iterations) exceed it.
MAX_TREE = 2_000_000
OPEN = -2  # uct_move: a node whose move does not end the game

DEFAULT_C = 0.6
DEFAULT_W = 0.1

#: rates[policy, move index - 1], policies in POL_* order (TR, eps-G, PG, FG).
RATES = np.array([PLAYOUT_RATES[name] for name in POLICY_NAMES], dtype=np.float64)


def _registry() -> dict[str, tuple[int, int, int, int]]:
    """Paper name -> (kind, policy, scoring, bias)."""
    reg = {"TR": (KIND_TR, POL_TR, SC_WDL, BIAS_NONE),
           "GPRD": (KIND_GPRD, POL_FG, SC_WDL, BIAS_NONE),
           "FG": (KIND_FG, POL_FG, SC_WDL, BIAS_NONE),
           "FG*": (KIND_FG_QUIRK, POL_FG, SC_WDL, BIAS_NONE)}
    for pol, pname in enumerate(POLICY_NAMES):
        for sc, sname in enumerate(SCORING_NAMES):
            reg[f"MCE-{pname}/{sname}"] = (KIND_MCE, pol, sc, BIAS_NONE)
        for prefix, bias in BIAS_PREFIX.items():
            reg[f"{prefix}-{pname}"] = (KIND_UCT, pol, SC_WDL, bias)
    return reg


AGENTS = _registry()
AGENT_NAMES = tuple(AGENTS)
#: The 17 strategies of Table III, in the paper's row order.
TABLE3_STRATEGIES = ("FG", "MCE-TR/R", "MCE-FG/R", "MCE-PG/R", "MCE-εG/R") + tuple(
    f"{prefix}-{p}" for prefix in ("UCT", "UCT_B", "UCT_W") for p in ("TR", "FG", "PG", "εG"))


def canonical_name(name: str) -> str:
    """Accept ASCII spellings of eps-greedy (``eG``, ``epsG``, ``EG``) for ``εG``."""
    return re.sub(r"(?<=[-])(eG|epsG|EG|e-G)(?=$|/)", "εG", name)


def is_search(name: str) -> bool:
    return AGENTS[canonical_name(name)][0] in (KIND_MCE, KIND_UCT)


def agent_row(name: str, T: float = 1.0, C: float = DEFAULT_C, W: float = DEFAULT_W,
              playouts: int = 0, move_order: str = "placement",
              iterations=None) -> np.ndarray:
    """The float64 row describing agent ``name`` (a paper name, see ``AGENT_NAMES``).

    ``move_order`` is UCT's expansion order: ``"placement"`` (ours: placement-major) or
    ``"authors"`` (pick-major, lowest-numbered domino first, as the authors' code lists moves).
    ``iterations``, 13 numbers > 0, replaces the budget rule by the authors' measured mean
    playouts (UCT: iterations) for moves 1..13 of this cell (``paper.authors_iterations``),
    rounded stochastically from the game's random stream (:func:`budget_for`).
    """
    key = canonical_name(name)
    if key not in AGENTS:
        raise ValueError(f"agent must be one of {', '.join(AGENT_NAMES)}; got {name!r}")
    for label, value in (("T", T), ("C", C), ("W", W), ("playouts", playouts)):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"{label} must be a finite number >= 0, got {value!r}")
    if move_order not in MOVE_ORDERS:
        raise ValueError(f"move_order must be one of {', '.join(MOVE_ORDERS)}; got {move_order!r}")
    kind, pol, sc, bias = AGENTS[key]
    if iterations is not None:
        iterations = np.asarray(iterations, dtype=np.float64)
        if iterations.shape != (N_ROUNDS,) or not np.all(np.isfinite(iterations)) or np.any(
                iterations <= 0):
            raise ValueError(f"iterations must be {N_ROUNDS} finite numbers > 0 (moves 1..13), "
                             f"got {iterations!r}")
    if kind in (KIND_MCE, KIND_UCT) and T <= 0 and playouts <= 0 and iterations is None:
        raise ValueError(f"{key} needs a budget: T > 0 (seconds per ply) or playouts > 0")
    row = np.zeros(AG_LEN, dtype=np.float64)
    row[AG_KIND] = kind
    row[AG_POLICY] = pol
    row[AG_SCORING] = sc
    row[AG_BIAS] = bias
    row[AG_C] = C
    row[AG_W] = W
    row[AG_T] = T
    row[AG_PLAYOUTS] = playouts
    row[AG_ORDER] = MOVE_ORDERS[move_order]
    if iterations is not None:
        row[AG_ITERS:AG_ITERS + N_ROUNDS] = iterations
    return row


def budget(policy: str, T: float, move_index: int) -> int:
    """Python mirror of :func:`budget_for` (for tables and cost estimates)."""
    return max(1, int(math.floor(T * PLAYOUT_RATES[policy][move_index - 1] + 0.5)))


@njit(cache=True)
def budget_for(a, move_index, rng):
    """Playouts for this move: T x the authors' rate (policy, move index), at least 1 - or,
    with the authors' per-move iterations in the row, that mean rounded stochastically
    (floor, plus one with probability the fraction: the right mean, drawn from the game's
    stream so a seed gives the same game), at least 1. The rule draws nothing."""
    if a[AG_PLAYOUTS] > 0:
        return np.int64(a[AG_PLAYOUTS])
    x = a[AG_ITERS + move_index - 1]
    if x > 0:
        n = np.int64(np.floor(x))
        if rng.random() < x - n:
            n += 1
        return max(n, 1)
    n = np.int64(np.floor(a[AG_T] * RATES[np.int64(a[AG_POLICY]), move_index - 1] + 0.5))
    return max(n, 1)


# ----------------------------------------------------------------------------------- MCE
@njit(cache=True)
def mce_move(G, K, policy, scoring, n_playouts, rng, mv, pb, gb, scratch, draft):
    """Flat Monte Carlo (§III-B1): returns (move, playouts done)."""
    me = current_player(G)
    n = legal_moves(G, K, mv, pb[0])
    if n == 1:
        return mv[0], 0
    sums = np.zeros(n)
    cnt = np.zeros(n, dtype=np.int64)
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    for _ in range(n_playouts):
        i = randint(rng, n)
        copy_into(G2, G)
        copy_into(K2, K)
        apply_move(G2, K2, mv[i], rng, draft, False)
        playout(G2, K2, policy, me, rng, pb, gb, scratch, draft)
        sums[i] += reward(K2, me, scoring)
        cnt[i] += 1
    best = -1
    best_v = -1e300
    ties = 0
    for i in range(n):
        if cnt[i] == 0:
            continue
        v = sums[i] / cnt[i]
        if v > best_v:
            best_v = v
            best = i
            ties = 1
        elif v == best_v:
            ties += 1
            if randint(rng, ties) == 0:
                best = i
    return mv[best], n_playouts


# ----------------------------------------------------------------------------------- UCT
@njit(cache=True)
def _ucb(wins, visits, h, log_parent_visits, bias, C, Wb):
    """UCB1 (§III-B2) with progressive bias or progressive win bias (§III-E)."""
    x = wins / visits
    v = x + C * np.sqrt(log_parent_visits / visits)
    if bias == BIAS_B:
        v += Wb * h / (visits + 1.0)
    elif bias == BIAS_W:
        v += Wb * h / (visits * (1.0 - x) + 1.0)
    return v


@njit(cache=True)
def _select_child(node, first, sibling, wins, visits, heur, bias, C, Wb):
    """The child of ``node`` with the highest UCB value (§III-B2; progressive bias, §III-E)."""
    best = -1
    best_v = -1e300
    log_n = np.log(visits[node])  # the same for every child: computed once
    c = first[node]
    while c >= 0:
        v = _ucb(wins[c], visits[c], heur[c], log_n, bias, C, Wb)
        if v > best_v:
            best_v = v
            best = c
        c = sibling[c]
    return best


@njit(cache=True)
def uct_move(G, K, policy, bias, C, Wb, n_iter, rng, mv, pb, gb, scratch, draft, order=0,
             max_tree=MAX_TREE):
    """UCT with kept chance outcomes, in flat arrays (§III-B2, §III-E): (move, iterations).
    ``order`` = ORDER_AUTHORS expands each node's untried moves pick-major (the authors' list
    order, :func:`gameai.kingdomino.rules.pick_major`) instead of ours. At most ``max_tree``
    nodes; past that, iterations play out from the leaves they reach.

    Selection walks the tree on its statistics alone; the game state is rebuilt (from the
    root, replaying the path with its kept drafts, which draws nothing) only when an iteration
    needs it: to expand a node or to play out. A node whose move ends the game keeps its
    winner, so an iteration that reaches it again costs a walk down and up. The authors'
    budgets give millions of iterations to the last moves, where nearly every iteration ends
    in such a node (measured: 3-7x faster at moves 12-13). The random stream is drawn in the
    same order as by replaying every move (expansion draws, then the playout), so every game
    is the same as before; ``tests/kingdomino/test_kd_uct_lazy.py`` checks it against that plain
    version."""
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
    final = np.empty(cap, dtype=np.int64)  # a game-ending node's winner (-1: a tie); else OPEN
    parent[0] = -1
    first[0] = -1
    sibling[0] = -1
    nexp[0] = 0
    nmov[0] = n0
    mover[0] = -1
    visits[0] = 0
    wins[0] = 0.0
    final[0] = OPEN
    size = 1
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    tmp = np.empty(MAX_MOVES, dtype=np.int64)
    path = np.empty(N_MOVES + 1, dtype=np.int64)
    for _ in range(n_iter):
        # selection, on the tree's statistics alone
        node = 0
        depth = 0
        while final[node] == OPEN:
            if (nmov[node] < 0 or nexp[node] < nmov[node]) and size < cap:
                break  # an untried move: expand here
            if first[node] < 0:
                break  # the tree is full and this leaf has no child: play out
            node = _select_child(node, first, sibling, wins, visits, heur, bias, C, Wb)
            path[depth] = node
            depth += 1
        winner = final[node]
        if winner == OPEN:
            copy_into(G2, G)
            copy_into(K2, K)
            for i in range(depth):
                apply_move(G2, K2, move[path[i]], rng, drafts[path[i]], True)
            if (nmov[node] < 0 or nexp[node] < nmov[node]) and size < cap:
                # expansion: the next untried move in move order; its draft is kept
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
                final[c] = OPEN
                for j in range(4):
                    drafts[c, j] = draft[j] if drew else -1
                node = c
            ended = G2[G_DONE] != 0
            playout(G2, K2, policy, me, rng, pb, gb, scratch, draft)
            wmask = winners(K2)
            winner = -1
            for p in range(N_PLAYERS):
                if wmask == (1 << p):  # a tie at the top is no win
                    winner = p
            if ended:
                final[node] = winner
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


# ------------------------------------------------------------------------------ dispatcher
@njit(cache=True)
def choose_move(G, K, a, rng, mv, pb, gb, scratch, draft):
    """The move of the agent described by row ``a`` for the player to move: (move, playouts)."""
    kind = np.int64(a[AG_KIND])
    if kind == KIND_TR:
        return random_move(G, K, rng, pb[2]), 0
    if kind == KIND_GPRD:
        return gprd_move(G, K, rng, pb, gb), 0
    if kind == KIND_FG:
        return fg_move(G, K, rng, pb, gb, scratch), 0
    if kind == KIND_FG_QUIRK:  # the authors' FG: round 13's placement falls back to random
        if G[G_ROUND] == N_ROUNDS:
            return random_move(G, K, rng, pb[2]), 0
        return fg_move(G, K, rng, pb, gb, scratch), 0
    n = budget_for(a, G[G_ROUND], rng)
    policy = np.int64(a[AG_POLICY])
    if kind == KIND_MCE:
        return mce_move(G, K, policy, np.int64(a[AG_SCORING]), n, rng, mv, pb, gb, scratch,
                        draft)
    return uct_move(G, K, policy, np.int64(a[AG_BIAS]), a[AG_C], a[AG_W], n, rng, mv, pb, gb,
                    scratch, draft, np.int64(a[AG_ORDER]))


@njit(cache=True)
def play_game(ag, rng, move_scores, playouts):
    """One game, seat ``p`` played by ``ag[p]``. Fills ``move_scores[p, r]`` (score after the
    player's move in round r + 1) and ``playouts[p]``; returns the final kingdoms."""
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        p = current_player(G)
        r = G[G_ROUND]
        m, n = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft)
        playouts[p] += n
        apply_move(G, K, m, rng, draft, False)
        move_scores[p, r - 1] = score(K[p])
    return K

