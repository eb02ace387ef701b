"""The paper's AIs for Frank's Zoo, as numba functions ``action(state, …, rng) -> action index``.

* RandomAI (§2) lives in ``rules.random_action``.
* HeuristicAI (§3, Table 2): winning move, drop the losing move, undefeatable move starting a
  winning sequence (Definitions 5-8), then move weights with the bounds L and U (Equations 2-3).
* Monte Carlo (§4): per candidate move, ``episodes`` game episodes played out by a playout
  policy - RandomAI (§4.1), roulette wheel over the 2-sequence weights w[a, b] (§4.2) or the
  highest weight (§4.3) - scored by wins or by points; winning/losing-move rules first.
  Opponents' hands are hidden: each episode deals the unseen cards at random to the opponents,
  respecting their hand sizes (determinisation); ``perfect=1`` (not in the paper) skips that, and
  ``perfect=2`` (a hypothesis about the paper's numbers, not in its text) re-deals *every* hand
  after the candidate move, the searcher's own included (:func:`redeal_all`).

Every agent is described by one row of the ``ag`` array (``AG_*`` columns) so that a game with
any mix of agents runs in one compiled loop (``play.play_game``). The registry at the bottom maps
the paper's names to such rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    ACT_PASS,
    ACT_SKIP,
    MAX_MOVES,
    PASS_FORCED,
    PASS_ID,
    SP_CHA,
    SP_ELE,
    SP_MOS,
    SP_NP,
    SP_NT,
    SP_PASS,
    ST_CUR,
    ST_DONE,
    ST_FIRST,
    ST_PLAYED,
    ST_SCORE,
    ST_SIZE,
    ST_TID,
    ST_TN,
    ST_TT,
    apply_action,
    can_beat,
    gen_moves,
    move_id,
    randint,
    random_action,
    shuffle,
)

#: Bump when an agent's behaviour changes: part of every cached result's key.
AGENTS_VERSION = "1"

# --- agent rows (ag) ------------------------------------------------------------------
AG_KIND = 0
AG_EPISODES = 1
AG_CRITERION = 2
AG_POLICY = 3
AG_PERFECT = 4  # the episodes' information: INFO_* below
AG_VOLUNTARY_PASS = 5  # 1: MC weighs passing as a candidate when it could play;
#                        HeuristicAI's final random pick includes passing
AG_ABLATE = 6  # HeuristicAI ablation: a bitmask of Table 2 steps it skips (ABL_*)
AG_LEN = 7

ABL_SEQUENCE = 1  # skip §3.3, undefeatable moves that start a winning sequence
ABL_WEIGHTS = 2  # skip §3.4, the weights and L/U: a random pick among the moves left

KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_MC = 2

CRIT_WINS = 0
CRIT_SCORE = 1
CRIT_SCORE_LEFT = 2  # diagnostic bug: the episodes credit the score of the player on the left

#: What a Monte Carlo episode knows of the hands (column AG_PERFECT).
INFO_DETERMINISE = 0  # §4: own hand kept, the unseen cards dealt at random to the opponents
INFO_PERFECT = 1  # beyond the paper: the real hands
INFO_REDEAL_ALL = 2  # hypothesis: after the candidate move every hand is dealt again at random

POL_RANDOM = 0
POL_ROULETTE = 1
POL_HIGHEST = 2

#: HeuristicAI's "empirically tuned" constants (§3.4, Equations 2-3).
BROKEN_SET_DIVISOR = 4.0


# ======================================================================================
# HeuristicAI (§3)
# ======================================================================================
@njit(cache=True)
def opponents_pool(hands, p, sp):
    """The opponents' cards pooled together: what the player cannot see (Definition 8)."""
    pool = np.zeros(hands.shape[1], dtype=np.int64)
    for q in range(sp[SP_NP]):
        if q != p:
            pool += hands[q]
    return pool


@njit(cache=True)
def winning_sequence(hand, pool, beats, sp):
    """Definition 7 from an opening: can ``hand`` be emptied by undefeatable moves + one more?

    Undefeatability depends only on the (unchanging) pool, so the order of the moves does not
    matter, and merging two undefeatable moves of a type keeps them undefeatable (a larger
    count is never easier to beat). It is therefore enough to try, for each way of attaching
    the chameleon and one mosquito, the partition of the hand into one group per type: the
    hand is a winning sequence when at most one group is defeatable (that one is played last).
    """
    nt = sp[SP_NT]
    ele = sp[SP_ELE]
    mos = sp[SP_MOS]
    cha = sp[SP_CHA]
    size = hand.sum()
    if size == 0:
        return True
    hc = hand[cha] if cha >= 0 else 0
    if size == hc:
        return False  # only the chameleon: stuck
    mq_max = 1 if (ele >= 0 and hand[ele] > 0 and mos >= 0 and hand[mos] > 0) else 0
    n_targets = nt if hc > 0 else 1
    for mq in range(mq_max + 1):
        for ti in range(n_targets):
            target = ti if hc > 0 else -1
            if target >= 0:
                if target == cha:
                    continue
                tc = hand[target] - (mq if target == mos else 0)
                if tc <= 0:
                    continue
            defeatable = 0
            for t in range(nt):
                if t == cha:
                    continue
                c = hand[t] - (mq if t == mos else 0)
                if c <= 0:
                    continue
                cnt = c + (mq if t == ele else 0) + (1 if t == target else 0)
                if can_beat(pool, t, cnt, beats, sp):
                    defeatable += 1
                    if defeatable > 1:
                        break
            if defeatable <= 1:
                return True
    return False


@njit(cache=True)
def heuristic_bounds(cards_played, n_players):
    """Equations 2-3: L = 15 - P*N/10 and U = 30 - P*N/5."""
    pn = cards_played * n_players
    return 15.0 - pn / 10.0, 30.0 - pn / 5.0


@njit(cache=True)
def move_weight(hand, t, n, hw):
    """§3.4: the main type's weight, divided by 4 when the move breaks up the type's set."""
    w = hw[t]
    if hand[t] > n:
        w /= BROKEN_SET_DIVISOR
    return w


@njit(cache=True)
def heuristic_action(hands, st, beats, sp, hw, mv, rng, pass_in_list=0, ablate=0):
    """HeuristicAI, Table 2 of the paper. ``hw`` are the per-type weights (Tables 3-4).

    Table 2 works on "the list of possible moves" and ends with a random pick from what is
    left. Whether that list holds *pass* (as RandomAI's does, when following) is not said. We
    read it as card moves only (``pass_in_list=0``: pass when nothing is left); with
    ``pass_in_list=1`` pass is one more entry, so "only one possible move" never applies when
    following and the final random pick may pass (the ``HeuristicAI-passlist`` diagnostic).
    ``ablate`` skips steps (``ABL_SEQUENCE``, ``ABL_WEIGHTS``) to measure what each is worth.
    """
    p = st[ST_CUR]
    hand = hands[p]
    tt = st[ST_TT]
    k = gen_moves(hand, tt, st[ST_TN], beats, sp, mv)
    if k == 0:
        return ACT_SKIP if tt < 0 else ACT_PASS
    if k == 1 and (tt < 0 or pass_in_list == 0):
        return 0
    size = st[ST_SIZE + p]
    # 3.1 exploit winning moves (Definition 5)
    for i in range(k):
        if mv[i, 1] + mv[i, 2] + mv[i, 3] == size:
            return i
    # 3.2 avoid losing moves (Definition 6): leaving only the chameleon
    keep = np.ones(k, dtype=np.bool_)
    cha = sp[SP_CHA]
    losing = -1
    if cha >= 0 and hand[cha] > 0:
        for i in range(k):
            if mv[i, 3] == 0 and mv[i, 1] + mv[i, 2] == size - 1:
                keep[i] = False
                losing = i
    # 3.3 undefeatable moves that start a winning sequence (Definitions 7-8)
    if (ablate & ABL_SEQUENCE) == 0:
        pool = opponents_pool(hands, p, sp)
        rest = hand.copy()
        for i in range(k):
            if not keep[i]:
                continue
            t, n, mq, ch = mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3]
            if can_beat(pool, t, n + mq + ch, beats, sp):
                continue
            rest[:] = hand
            rest[t] -= n
            if mq:
                rest[sp[SP_MOS]] -= 1
            if ch:
                rest[cha] -= 1
            if winning_sequence(rest, pool, beats, sp):
                return i
    # 3.4 move weights against the bounds L and U
    lower, upper = heuristic_bounds(st[ST_PLAYED], sp[SP_NP])
    preferred = -1
    best_w = -1.0
    n_list = 0
    fallback = losing
    fallback_w = -1.0
    candidates = np.empty(k, dtype=np.int64)
    weighed = (ablate & ABL_WEIGHTS) == 0
    for i in range(k):
        if not keep[i]:
            continue
        w = move_weight(hand, mv[i, 0], mv[i, 1], hw)
        if w > fallback_w:
            fallback_w = w
            fallback = i
        if weighed and w < lower:
            continue  # a strong card: keep it for the late game
        candidates[n_list] = i
        n_list += 1
        if weighed and w > upper and w > best_w:
            preferred = i
            best_w = w
    if preferred >= 0:
        return preferred
    if n_list > 0:
        if pass_in_list == 1 and tt >= 0:
            pick = randint(rng, n_list + 1)
            return ACT_PASS if pick == n_list else candidates[pick]
        return candidates[randint(rng, n_list)]
    if tt >= 0:
        return ACT_PASS
    # An opening with every move below L: the paper is silent (pass is not allowed here);
    # we open with the highest-weight (weakest) move, or the losing move if nothing else.
    return fallback


# ======================================================================================
# Playout policies and Monte Carlo (§4)
# ======================================================================================
@njit(cache=True)
def policy_action(policy, hands, st, beats, sp, W, mv, rng):
    """One playout step: RandomAI, roulette over w[a, b] (§4.2) or argmax w[a, b] (§4.3).

    ``a`` is the move on the table (NONE_ID on an opening) and ``b`` ranges over the legal
    moves plus pass when the RandomAI pass rule offers it. With no weight > 0 the roulette
    falls back to a uniform choice.
    """
    if policy == POL_RANDOM:
        return random_action(hands, st, beats, sp, mv, rng)
    p = st[ST_CUR]
    tt = st[ST_TT]
    k = gen_moves(hands[p], tt, st[ST_TN], beats, sp, mv)
    if k == 0:
        return ACT_SKIP if tt < 0 else ACT_PASS
    allow_pass = 1 if (tt >= 0 and sp[SP_PASS] != PASS_FORCED) else 0
    a = st[ST_TID]
    n_opt = k + allow_pass
    if policy == POL_ROULETTE:
        total = 0.0
        for i in range(k):
            total += W[a, move_id(mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3])]
        if allow_pass:
            total += W[a, PASS_ID]
        if total <= 0.0:
            i = randint(rng, n_opt)
            return ACT_PASS if i == k else i
        r = rng.random() * total
        for i in range(k):
            r -= W[a, move_id(mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3])]
            if r < 0.0:
                return i
        return ACT_PASS if allow_pass else k - 1
    # POL_HIGHEST: argmax with uniform tie-breaking (reservoir sampling over ties)
    best = -1.0
    choice = 0
    ties = 0
    for i in range(n_opt):
        w = W[a, PASS_ID] if i == k else W[a, move_id(mv[i, 0], mv[i, 1], mv[i, 2], mv[i, 3])]
        if w > best:
            best = w
            choice = i
            ties = 1
        elif w == best:
            ties += 1
            if randint(rng, ties) == 0:
                choice = i
    return ACT_PASS if choice == k else choice


@njit(cache=True)
def playout(hands, st, beats, sp, policy, W, mv, rng):
    """Play the hand to its end with every player following ``policy`` (a game episode)."""
    if policy == POL_RANDOM:  # the standard playout (§4.1): RandomAI called directly
        while st[ST_DONE] == 0:
            apply_action(hands, st, mv, random_action(hands, st, beats, sp, mv, rng), sp)
        return
    while st[ST_DONE] == 0:
        idx = policy_action(policy, hands, st, beats, sp, W, mv, rng)
        apply_action(hands, st, mv, idx, sp)


@njit(cache=True)
def determinise(hands, st, p, pool, rng, cards):
    """Deal the cards ``p`` cannot see at random to the opponents, keeping their hand sizes.

    ``cards`` is scratch space of at least ``pool.sum()`` entries, allocated once per decision
    rather than once per episode; it receives the pool card by card, as ``expand`` lays it out,
    and is shuffled the same way.
    """
    m = 0
    for t in range(pool.shape[0]):
        for _ in range(pool[t]):
            cards[m] = t
            m += 1
    shuffle(cards[:m], rng)
    i = 0
    for q in range(hands.shape[0]):
        if q == p:
            continue
        hands[q, :] = 0
        for _ in range(st[ST_SIZE + q]):
            hands[q, cards[i]] += 1
            i += 1


@njit(cache=True)
def redeal_all(hands, st, rng, cards):
    """Deal every card still in a hand at random to all players, keeping the hand sizes.

    The re-deal hypothesis for the paper's Monte Carlo numbers: an episode that re-deals the
    searcher's own hand too (after its candidate move is played from the real hand) knows only
    the move and the public state. ``cards`` is scratch space of at least ``hands.sum()``
    entries.
    """
    m = 0
    for q in range(hands.shape[0]):
        for t in range(hands.shape[1]):
            for _ in range(hands[q, t]):
                cards[m] = t
                m += 1
    shuffle(cards[:m], rng)
    i = 0
    for q in range(hands.shape[0]):
        hands[q, :] = 0
        for _ in range(st[ST_SIZE + q]):
            hands[q, cards[i]] += 1
            i += 1


@njit(cache=True)
def episode_start(h2, s2, hands, st, p, idx, mv, sp, info, pool, rng, cards):
    """The position an episode plays out from: the hands as the searcher ``p`` imagines them
    (``info``: INFO_*) with candidate ``idx`` (a row of ``mv`` or a pass) applied, in ``h2``
    and ``s2``. The candidate is always played from ``p``'s real hand; under INFO_REDEAL_ALL
    every hand, ``p``'s included, is then dealt again."""
    h2[:, :] = hands
    s2[:] = st
    if info == INFO_DETERMINISE:
        determinise(h2, s2, p, pool, rng, cards)
    apply_action(h2, s2, mv, idx, sp)
    if info == INFO_REDEAL_ALL:
        redeal_all(h2, s2, rng, cards)


@njit(cache=True)
def mc_action(hands, st, beats, sp, W, agent, mv, rng):
    """Monte Carlo (§4): the candidate with the highest total over ``episodes`` episodes."""
    p = st[ST_CUR]
    hand = hands[p]
    tt = st[ST_TT]
    k = gen_moves(hand, tt, st[ST_TN], beats, sp, mv)
    if k == 0:
        return ACT_SKIP if tt < 0 else ACT_PASS
    size = st[ST_SIZE + p]
    for i in range(k):  # winning move first (§3.1)
        if mv[i, 1] + mv[i, 2] + mv[i, 3] == size:
            return i
    cand = np.empty(k + 1, dtype=np.int64)
    n_cand = 0
    cha = sp[SP_CHA]
    for i in range(k):  # drop the losing move (§3.2)
        if cha >= 0 and hand[cha] > 0 and mv[i, 3] == 0 and mv[i, 1] + mv[i, 2] == size - 1:
            continue
        cand[n_cand] = i
        n_cand += 1
    if tt >= 0 and (agent[AG_VOLUNTARY_PASS] == 1 or n_cand == 0):  # passing is legal
        cand[n_cand] = ACT_PASS
        n_cand += 1
    if n_cand == 0:
        return 0  # only the losing move is left on an opening
    if n_cand == 1:
        return cand[0]

    episodes = agent[AG_EPISODES]
    criterion = agent[AG_CRITERION]
    policy = agent[AG_POLICY]
    perfect = agent[AG_PERFECT]
    pool = opponents_pool(hands, p, sp)
    h2 = np.empty_like(hands)
    s2 = np.empty_like(st)
    mv2 = np.empty((MAX_MOVES, 4), dtype=np.int64)
    cards = np.empty(hands.sum() if perfect == INFO_REDEAL_ALL else pool.sum(), dtype=np.int64)
    best = -1.0
    choice = cand[0]
    ties = 0
    for c in range(n_cand):
        idx = cand[c]
        total = 0.0
        for _ in range(episodes):
            episode_start(h2, s2, hands, st, p, idx, mv, sp, perfect, pool, rng, cards)
            playout(h2, s2, beats, sp, policy, W, mv2, rng)
            if criterion == CRIT_SCORE:
                total += s2[ST_SCORE + p]
            elif criterion == CRIT_SCORE_LEFT:
                total += s2[ST_SCORE + (p + 1) % sp[SP_NP]]
            elif s2[ST_FIRST] == p:
                total += 1.0
        if total > best:
            best = total
            choice = idx
            ties = 1
        elif total == best:
            ties += 1
            if randint(rng, ties) == 0:
                choice = idx
    return choice


@njit(cache=True)
def agent_action(agent, hands, st, beats, sp, hw, W, mv, rng):
    """Dispatch on the agent row's kind."""
    kind = agent[AG_KIND]
    if kind == KIND_HEURISTIC:
        return heuristic_action(hands, st, beats, sp, hw, mv, rng, agent[AG_VOLUNTARY_PASS],
                                agent[AG_ABLATE])
    if kind == KIND_MC:
        return mc_action(hands, st, beats, sp, W, agent, mv, rng)
    return random_action(hands, st, beats, sp, mv, rng)


# ======================================================================================
# Registry: the paper's names -> agent rows
# ======================================================================================
#: name -> (kind, criterion, playout policy, perfect information, voluntary pass, ablated steps)
AGENTS = {
    "RandomAI": (KIND_RANDOM, 0, 0, 0, 1, 0),
    "HeuristicAI": (KIND_HEURISTIC, 0, 0, 0, 0, 0),
    "HeuristicAI-passlist": (KIND_HEURISTIC, 0, 0, 0, 1, 0),
    "HeuristicAI-noseq": (KIND_HEURISTIC, 0, 0, 0, 0, ABL_SEQUENCE),
    "HeuristicAI-noweights": (KIND_HEURISTIC, 0, 0, 0, 0, ABL_WEIGHTS),
    "HeuristicAI-rulesonly": (KIND_HEURISTIC, 0, 0, 0, 0, ABL_SEQUENCE | ABL_WEIGHTS),
    "HeuristicAI-passlist-noseq": (KIND_HEURISTIC, 0, 0, 0, 1, ABL_SEQUENCE),
    "MC-wins": (KIND_MC, CRIT_WINS, POL_RANDOM, 0, 1, 0),
    "MC-score": (KIND_MC, CRIT_SCORE, POL_RANDOM, 0, 1, 0),
    "MC-weights": (KIND_MC, CRIT_SCORE, POL_ROULETTE, 0, 1, 0),
    "MC-highest": (KIND_MC, CRIT_SCORE, POL_HIGHEST, 0, 1, 0),
    "MC-score-perfect": (KIND_MC, CRIT_SCORE, POL_RANDOM, 1, 1, 0),
    "MC-score-nopass": (KIND_MC, CRIT_SCORE, POL_RANDOM, 0, 0, 0),
    "MC-wins-redeal": (KIND_MC, CRIT_WINS, POL_RANDOM, INFO_REDEAL_ALL, 1, 0),
    "MC-score-redeal": (KIND_MC, CRIT_SCORE, POL_RANDOM, INFO_REDEAL_ALL, 1, 0),
    "MC-weights-redeal": (KIND_MC, CRIT_SCORE, POL_ROULETTE, INFO_REDEAL_ALL, 1, 0),
    "MC-highest-redeal": (KIND_MC, CRIT_SCORE, POL_HIGHEST, INFO_REDEAL_ALL, 1, 0),
    "MC-weights-leftscore": (KIND_MC, CRIT_SCORE_LEFT, POL_ROULETTE, 0, 1, 0),
}

#: The re-deal hypothesis: each Monte Carlo AI of the paper -> its re-dealing twin.
REDEAL = {"MC-wins": "MC-wins-redeal", "MC-score": "MC-score-redeal",
          "MC-weights": "MC-weights-redeal", "MC-highest": "MC-highest-redeal"}

#: Human-readable descriptions, for tables and the chapter text.
AGENT_DESCRIPTIONS = {
    "RandomAI": "uniformly random legal action (§2)",
    "HeuristicAI": "Table 2: winning move, no losing move, winning sequence, weights with L/U",
    "HeuristicAI-passlist": "HeuristicAI with pass in its list of possible moves when "
                            "following (the paper configuration)",
    "HeuristicAI-passlist-noseq": "HeuristicAI-passlist without §3.3 (ablation)",
    "HeuristicAI-noseq": "HeuristicAI without §3.3, the winning sequences (ablation)",
    "HeuristicAI-noweights": "HeuristicAI without §3.4: random among the moves left (ablation)",
    "HeuristicAI-rulesonly": "HeuristicAI with §3.1-3.2 only: winning move, no losing move",
    "MC-wins": "standard Monte Carlo, RandomAI playouts, criterion: wins (§4.1, Fig. 3)",
    "MC-score": "standard Monte Carlo, RandomAI playouts, criterion: score (§4.1, Fig. 4)",
    "MC-weights": "Monte Carlo, roulette-wheel playouts over w[a,b] (§4.2, Fig. 5)",
    "MC-highest": "Monte Carlo, highest-weight playouts (§4.3, Figs. 6-7)",
    "MC-score-perfect": "MC-score that sees the opponents' hands (beyond the paper)",
    "MC-score-nopass": "MC-score that passes only when it cannot play (diagnostic)",
    "MC-wins-redeal": "MC-wins whose episodes re-deal every hand, its own too (hypothesis)",
    "MC-score-redeal": "MC-score whose episodes re-deal every hand, its own too (hypothesis)",
    "MC-weights-redeal": "MC-weights whose episodes re-deal every hand, its own too (hypothesis)",
    "MC-highest-redeal": "MC-highest whose episodes re-deal every hand, its own too (hypothesis)",
    "MC-weights-leftscore": "MC-weights that credits each episode's score to the player on its "
                            "left (a deliberate bug, diagnostic)",
}


def agent_row(name: str, episodes: int = 100) -> np.ndarray:
    """The ``ag`` row for a registered agent name.

    ``episodes = 0`` is allowed for the Monte Carlo agents' budget sweep: every candidate then
    ties at zero, so the agent keeps its winning/losing-move rules and picks uniformly among the
    rest - Monte Carlo without any simulation.
    """
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; allowed: {', '.join(AGENTS)}")
    if int(episodes) < 0:
        raise ValueError(f"episodes must be an int >= 0, got {episodes!r}")
    kind, criterion, policy, perfect, voluntary_pass, ablate = AGENTS[name]
    row = np.zeros(AG_LEN, dtype=np.int64)
    row[AG_KIND] = kind
    row[AG_EPISODES] = int(episodes)
    row[AG_CRITERION] = criterion
    row[AG_POLICY] = policy
    row[AG_PERFECT] = perfect
    row[AG_VOLUNTARY_PASS] = voluntary_pass
    row[AG_ABLATE] = ablate
    return row


def needs_sequence_table(name: str) -> bool:
    return AGENTS[name][0] == KIND_MC and AGENTS[name][2] != POL_RANDOM


def is_monte_carlo(name: str) -> bool:
    return AGENTS[name][0] == KIND_MC
