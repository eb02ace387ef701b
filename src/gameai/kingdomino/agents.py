"""The paper's agents (§III, §V-B; chapter spec "Agents") and the registry by paper name.

* TR, GPRD, FG - static evaluators (``policies``). ``FG*`` (not a paper name) is FG with the
  authors' fallback bug: its very last domino is placed at random (spec "Agents"); the book's
  FG is the correct greedy, FG* is there to measure what the bug changes. ``FGA`` (not a paper
  name either) is FG as the authors' code plays it in full (``policies.fg_authors_move``: FG*
  that also places its first domino at random).
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
    GREEDY_AUTHORS,
    MEMO_BITS,
    POL_FG,
    POL_TR,
    POLICY_NAMES,
    SC_WDL,
    SCORING_NAMES,
    fg_authors_move,
    fg_move,
    gprd_move,
    new_buffers,
    new_memo,
    playout,
    reward,
)
from .reference import (
    fg_authors_move_reference,
    fg_move_reference,
    playout_reference,
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
AG_GREEDY = AG_ITERS + 13  # the greedy of the playouts: GREEDY_OURS or GREEDY_AUTHORS_FG
AG_FORMER = AG_GREEDY + 1  # 1: the greedy as it was before issue 45 (:func:`former_engine`)
AG_LEN = AG_FORMER + 1

ORDER_PLACEMENT = 0
ORDER_AUTHORS = 1
#: ``move_order`` values (issue: like-for-like Table III) -> AG_ORDER codes.
MOVE_ORDERS = {"placement": ORDER_PLACEMENT, "authors": ORDER_AUTHORS}

GREEDY_OURS = 0
GREEDY_AUTHORS_FG = 1
#: ``playout_greedy`` values -> AG_GREEDY codes: the greedy moves of FG, PG and eps-G playouts
#: are ours (``fg_move``) or the authors' (``fg_authors_move``, as their FG opponents play).
PLAYOUT_GREEDIES = {"ours": GREEDY_OURS, "authors": GREEDY_AUTHORS_FG}

KIND_TR = 0
KIND_GPRD = 1
KIND_FG = 2
KIND_MCE = 3
KIND_UCT = 4
KIND_FG_QUIRK = 5  # "FG*": FG with the authors' fallback bug (its last domino placed at random)
KIND_FG_AUTHORS = 6  # "FGA": FG as the authors' code plays it (first and last domino at random)

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
           "FG*": (KIND_FG_QUIRK, POL_FG, SC_WDL, BIAS_NONE),
           "FGA": (KIND_FG_AUTHORS, POL_FG, SC_WDL, BIAS_NONE)}
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
              iterations=None, playout_greedy: str = "ours") -> np.ndarray:
    """The float64 row describing agent ``name`` (a paper name, see ``AGENT_NAMES``).

    ``move_order`` is UCT's expansion order: ``"placement"`` (ours: placement-major) or
    ``"authors"`` (pick-major, lowest-numbered domino first, as the authors' code lists moves).
    ``iterations``, 13 numbers > 0, replaces the budget rule by the authors' measured mean
    playouts (UCT: iterations) for moves 1..13 of this cell (``paper.authors_iterations``),
    rounded stochastically from the game's random stream (:func:`budget_for`).
    ``playout_greedy`` (``PLAYOUT_GREEDIES``) names the greedy of FG, PG and eps-G playouts.
    """
    key = canonical_name(name)
    if key not in AGENTS:
        raise ValueError(f"agent must be one of {', '.join(AGENT_NAMES)}; got {name!r}")
    for label, value in (("T", T), ("C", C), ("W", W), ("playouts", playouts)):
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"{label} must be a finite number >= 0, got {value!r}")
    if move_order not in MOVE_ORDERS:
        raise ValueError(f"move_order must be one of {', '.join(MOVE_ORDERS)}; got {move_order!r}")
    if playout_greedy not in PLAYOUT_GREEDIES:
        raise ValueError(f"playout_greedy must be one of {', '.join(PLAYOUT_GREEDIES)}; "
                         f"got {playout_greedy!r}")
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
    row[AG_GREEDY] = PLAYOUT_GREEDIES[playout_greedy]
    if iterations is not None:
        row[AG_ITERS:AG_ITERS + N_ROUNDS] = iterations
    return row


def budget(policy: str, T: float, move_index: int) -> int:
    """Python mirror of :func:`budget_for` (for tables and cost estimates)."""
    return max(1, int(math.floor(T * PLAYOUT_RATES[policy][move_index - 1] + 0.5)))


#: Added to a playout policy code (after ``GREEDY_AUTHORS``): the playout's greedy moves are
#: played by the former code (``reference``), as the engine played them when issue 45 was
#: filed, and FG's memo is not used. Policy codes with ``GREEDY_AUTHORS`` stay below it.
FORMER_GREEDY = 2 * GREEDY_AUTHORS


def former_engine(ag: np.ndarray) -> np.ndarray:
    """A copy of agent rows ``ag`` that play their greedy moves - FG's, in their playouts and
    as static agents - as the engine played them before issue 45's speed-ups (the former
    greedy of ``reference``, no FG memo): the same games, move for move and draw for draw, at
    the former cost. For ``gameai bench kingdomino``'s old-and-new games only."""
    out = np.array(ag, dtype=np.float64, copy=True)
    out[..., AG_FORMER] = 1
    return out


@njit(cache=True, inline="always")
def _playout(G, K, policy, me, rng, pb, gb, scratch, draft, memo):
    """``policies.playout``, or with ``FORMER_GREEDY`` in ``policy`` the former one."""
    if policy >= FORMER_GREEDY:
        playout_reference(G, K, policy - FORMER_GREEDY, me, rng, pb, gb, scratch, draft)
    else:
        playout(G, K, policy, me, rng, pb, gb, scratch, draft, memo)


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
def mce_move(G, K, policy, scoring, n_playouts, rng, mv, pb, gb, scratch, draft, memo):
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
        _playout(G2, K2, policy, me, rng, pb, gb, scratch, draft, memo)
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


# UCT's tree is one table, a row per node: the fields one selection step reads for a child
# (its UCB terms, its sibling, whether it is final or has untried moves) share the row's first
# 64 bytes, so a step costs one cache line per child instead of one per field and child
# (measured: 12-25 % faster on the authors' largest trees, moves 11-12).
N_SIBLING = 0  # the next child of the same parent (-1: none)
N_VISITS = 1
N_WINS = 2  # wins of the player who made the node's move (whole numbers)
N_HEUR = 3  # that player's score gain by the move (progressive bias's H)
N_FIRST = 4  # the first child (-1: none yet)
N_FINAL = 5  # OPEN, or the winner (-1: a tie) of a move that ends the game
N_EXPANDED = 6  # children made so far
N_LEGAL = 7  # legal moves (-1: not listed yet)
N_PARENT = 8
N_MOVER = 9
N_MOVE = 10
N_DRAFT = 11  # 4 columns: the draft the move drew (kept chance outcome), -1 if none
N_COLS = 16  # 128-byte rows


@njit(cache=True)
def _select_child(tree, node, bias, C, Wb):
    """The child of ``node`` with the highest UCB value (§III-B2; progressive bias, §III-E)."""
    best = -1
    best_v = -1e300
    log_n = np.log(tree[node, N_VISITS])  # the same for every child: computed once
    c = tree[node, N_FIRST]
    while c >= 0:
        v = _ucb(np.float64(tree[c, N_WINS]), tree[c, N_VISITS], tree[c, N_HEUR], log_n, bias,
                 C, Wb)
        if v > best_v:
            best_v = v
            best = c
        c = tree[c, N_SIBLING]
    return best


@njit(cache=True, inline="always")
def _untried(tree, node):
    """Has ``node`` moves without a child yet (or are its moves not listed yet)?"""
    return tree[node, N_LEGAL] < 0 or tree[node, N_EXPANDED] < tree[node, N_LEGAL]


@njit(cache=True)
def _add_child(tree, node, c, p, m, heur, drew, draft):
    """Row ``c``: the child of ``node`` made by player ``p``'s move ``m``."""
    tree[c, N_SIBLING] = tree[node, N_FIRST]
    tree[node, N_FIRST] = c
    tree[node, N_EXPANDED] += 1
    tree[c, N_VISITS] = 0
    tree[c, N_WINS] = 0
    tree[c, N_HEUR] = heur
    tree[c, N_FIRST] = -1
    tree[c, N_FINAL] = OPEN
    tree[c, N_EXPANDED] = 0
    tree[c, N_LEGAL] = -1
    tree[c, N_PARENT] = node
    tree[c, N_MOVER] = p
    tree[c, N_MOVE] = m
    for j in range(4):
        tree[c, N_DRAFT + j] = draft[j] if drew else -1


@njit(cache=True)
def uct_move(G, K, policy, bias, C, Wb, n_iter, rng, mv, pb, gb, scratch, draft, memo,
             order=0, max_tree=MAX_TREE):
    """UCT with kept chance outcomes (§III-B2, §III-E): (move, iterations).
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
    tree = np.empty((cap, N_COLS), dtype=np.int64)  # rows are written as nodes are made
    tree[0, :] = -1  # the root: no parent, sibling, child, mover, move or draft
    tree[0, N_VISITS] = 0
    tree[0, N_WINS] = 0
    tree[0, N_FINAL] = OPEN
    tree[0, N_EXPANDED] = 0
    tree[0, N_LEGAL] = n0
    size = 1
    G2 = np.empty_like(G)
    K2 = np.empty_like(K)
    tmp = np.empty(MAX_MOVES, dtype=np.int64)
    path = np.empty(N_MOVES + 1, dtype=np.int64)
    for _ in range(n_iter):
        # selection, on the tree's statistics alone
        node = 0
        depth = 0
        while tree[node, N_FINAL] == OPEN:
            if _untried(tree, node) and size < cap:
                break  # expand here
            if tree[node, N_FIRST] < 0:
                break  # the tree is full and this leaf has no child: play out
            node = _select_child(tree, node, bias, C, Wb)
            path[depth] = node
            depth += 1
        winner = tree[node, N_FINAL]
        if winner == OPEN:
            copy_into(G2, G)
            copy_into(K2, K)
            for i in range(depth):
                c = path[i]
                apply_move(G2, K2, tree[c, N_MOVE], rng, tree[c, N_DRAFT:N_DRAFT + 4], True)
            if _untried(tree, node) and size < cap:
                # expansion: the next untried move in move order; its draft is kept
                nm = legal_moves(G2, K2, mv, pb[0])
                if order == ORDER_AUTHORS:
                    pick_major(mv, nm, tmp)
                tree[node, N_LEGAL] = nm
                m = mv[tree[node, N_EXPANDED]]
                p = current_player(G2)
                before = score(K2[p])
                drew = apply_move(G2, K2, m, rng, draft, False)
                _add_child(tree, node, size, p, m, score(K2[p]) - before, drew, draft)
                node = size
                size += 1
            ended = G2[G_DONE] != 0
            _playout(G2, K2, policy, me, rng, pb, gb, scratch, draft, memo)
            wmask = winners(K2)
            winner = -1
            for p in range(N_PLAYERS):
                if wmask == (1 << p):  # a tie at the top is no win
                    winner = p
            if ended:
                tree[node, N_FINAL] = winner
        x = node
        while x >= 0:
            tree[x, N_VISITS] += 1
            if tree[x, N_MOVER] == winner:
                tree[x, N_WINS] += 1
            x = tree[x, N_PARENT]
    # the move: the most wins per visit, ties to the larger score gain
    best = -1
    best_x = -1.0
    best_h = -(1 << 30)
    c = tree[0, N_FIRST]
    while c >= 0:
        x = tree[c, N_WINS] / tree[c, N_VISITS]
        if x > best_x or (x == best_x and tree[c, N_HEUR] > best_h):
            best = c
            best_x = x
            best_h = tree[c, N_HEUR]
        c = tree[c, N_SIBLING]
    return tree[best, N_MOVE], n_iter


# ------------------------------------------------------------------------------ dispatcher
@njit(cache=True)
def choose_move(G, K, a, rng, mv, pb, gb, scratch, draft, memo):
    """The move of the agent described by row ``a`` for the player to move: (move, playouts)."""
    kind = np.int64(a[AG_KIND])
    former = a[AG_FORMER] != 0
    if kind == KIND_TR:
        return random_move(G, K, rng, pb[2]), 0
    if kind == KIND_GPRD:
        return gprd_move(G, K, rng, pb, gb), 0
    if kind == KIND_FG_QUIRK and G[G_ROUND] == N_ROUNDS:
        return random_move(G, K, rng, pb[2]), 0  # the authors' FG: the last placement at random
    if kind == KIND_FG or kind == KIND_FG_QUIRK:
        if former:
            return fg_move_reference(G, K, rng, pb, gb, scratch), 0
        return fg_move(G, K, rng, pb, gb, scratch, memo), 0
    if kind == KIND_FG_AUTHORS:
        if former:
            return fg_authors_move_reference(G, K, rng, pb, gb, scratch), 0
        return fg_authors_move(G, K, rng, pb, gb, scratch, memo), 0
    n = budget_for(a, G[G_ROUND], rng)
    policy = (np.int64(a[AG_POLICY]) + GREEDY_AUTHORS * np.int64(a[AG_GREEDY])
              + FORMER_GREEDY * np.int64(former))
    if kind == KIND_MCE:
        return mce_move(G, K, policy, np.int64(a[AG_SCORING]), n, rng, mv, pb, gb, scratch,
                        draft, memo)
    return uct_move(G, K, policy, np.int64(a[AG_BIAS]), a[AG_C], a[AG_W], n, rng, mv, pb, gb,
                    scratch, draft, memo, np.int64(a[AG_ORDER]))


@njit(cache=True)
def play_game(ag, rng, move_scores, playouts, memo_bits=MEMO_BITS):
    """One game, seat ``p`` played by ``ag[p]``. Fills ``move_scores[p, r]`` (score after the
    player's move in round r + 1) and ``playouts[p]``; returns the final kingdoms. FG's memo
    (``policies.new_memo``: ``2**memo_bits`` slots, 0 for none) lasts the game; it changes the
    cost, not the game."""
    G, K = new_game(rng)
    pb, gb, scratch = new_buffers()
    memo = new_memo(memo_bits)
    mv = np.empty(MAX_MOVES, dtype=np.int64)
    draft = np.empty(4, dtype=np.int64)
    while G[G_DONE] == 0:
        p = current_player(G)
        r = G[G_ROUND]
        m, n = choose_move(G, K, ag[p], rng, mv, pb, gb, scratch, draft, memo)
        playouts[p] += n
        apply_move(G, K, m, rng, draft, False)
        move_scores[p, r - 1] = score(K[p])
    return K

