"""Whole games and the statistics the paper trains its AIs on (numba loops).

* :func:`play_game` - one hand with one agent row per seat, optionally logging every decision as
  a 2-sequence ``(player, a, b)``: ``a`` the move on the table (NONE_ID on an opening), ``b`` the
  action taken (PASS_ID for a pass).
* :func:`last_hand_totals` - §3.4 / Tables 3-4: cards left in the last player's hand, per type,
  summed over RandomAI games.
* :func:`sequence_counts` - §4.2 and §6: how often each 2-sequence ``[a, b]`` was played and how
  often its player went on to win (w[a, b] = won / played), or, with HeuristicAI players, the
  counts behind the move predictor's likelihood l[a, b] (Equation 4).
* :func:`predictor_game` - §6: play a HeuristicAI game and predict every decision with
  p[a, b] = l[a, b] * p_b (Equations 5-6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .agents import agent_action, AG_KIND, AG_LEN, KIND_RANDOM
from .rules import (
    ACT_SKIP,
    MAX_LOG,
    MAX_MOVES,
    N_IDS,
    PASS_ID,
    SP_CHA,
    SP_MOS,
    SP_NP,
    ST_CUR,
    ST_DONE,
    ST_FIRST,
    ST_LEN,
    ST_PLACE,
    ST_SIZE,
    ST_TID,
    ST_TURNS,
    action_id,
    apply_action,
    deal,
    decode_move_id,
    init_state,
    randint,
    random_action,
)

#: Guard against a rules bug looping forever (a real hand has fewer than 400 actions).
MAX_TURNS = 4 * MAX_LOG


@njit(cache=True)
def play_game(hands, st, beats, sp, ag, hw, W, rng, log):
    """Play the hand in ``hands``/``st`` to its end; return the number of logged decisions.

    ``ag[p]`` is player ``p``'s agent row. Pass ``log`` with zero rows to skip logging.
    """
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    n_log = 0
    while st[ST_DONE] == 0:
        if st[ST_TURNS] > MAX_TURNS:
            raise RuntimeError("Frank's Zoo hand did not end: engine bug")
        p = st[ST_CUR]
        a = st[ST_TID]
        if ag[p, AG_KIND] == KIND_RANDOM:
            # the commonest seat, called directly: agent_action's dispatch (a view of the
            # agent row and nine array arguments) cost more than RandomAI's own decision
            idx = random_action(hands, st, beats, sp, mv, rng)
        else:
            idx = agent_action(ag[p], hands, st, beats, sp, hw, W, mv, rng)
        if idx != ACT_SKIP and n_log < log.shape[0]:
            log[n_log, 0] = p
            log[n_log, 1] = a
            log[n_log, 2] = action_id(st, mv, idx)
            n_log += 1
        apply_action(hands, st, mv, idx, sp)
    return n_log


@njit(cache=True)
def new_hand(counts, sp, rng):
    """Deal a fresh hand and pick the opening player uniformly."""
    n_players = sp[SP_NP]
    hands = deal(counts, n_players, rng)
    st = np.empty(ST_LEN, dtype=np.int64)
    init_state(st, hands, randint(rng, n_players), sp)
    return hands, st


def random_agents(n_players: int = 4) -> np.ndarray:
    ag = np.zeros((n_players, AG_LEN), dtype=np.int64)
    ag[:, 0] = KIND_RANDOM
    return ag


@njit(cache=True)
def last_hand_totals(counts, beats, sp, ag, hw, W, n_games, rng):
    """Cards of each type left in the last player's hand, summed over ``n_games`` hands."""
    totals = np.zeros(counts.shape[0], dtype=np.int64)
    log = np.empty((0, 3), dtype=np.int64)
    for _ in range(n_games):
        hands, st = new_hand(counts, sp, rng)
        play_game(hands, st, beats, sp, ag, hw, W, rng, log)
        for q in range(sp[SP_NP]):
            if st[ST_PLACE + q] == sp[SP_NP] - 1:
                totals += hands[q]
    return totals


@njit(cache=True)
def sequence_counts(counts, beats, sp, ag, hw, W, n_games, rng):
    """2-sequence statistics over ``n_games`` hands: ``(played[a, b], won[a, b])``.

    Each decision counts once; ``won`` counts the decisions whose player went out first.
    """
    played = np.zeros((N_IDS, N_IDS), dtype=np.int64)
    won = np.zeros((N_IDS, N_IDS), dtype=np.int64)
    log = np.empty((MAX_LOG, 3), dtype=np.int64)
    for _ in range(n_games):
        hands, st = new_hand(counts, sp, rng)
        n_log = play_game(hands, st, beats, sp, ag, hw, W, rng, log)
        first = st[ST_FIRST]
        for i in range(n_log):
            played[log[i, 1], log[i, 2]] += 1
            if log[i, 0] == first:
                won[log[i, 1], log[i, 2]] += 1
    return played, won


@njit(cache=True)
def _hypergeom(comb, d, h, n, m, x, y, w, z):
    """Equation 5: C(n,m) C(x,y) C(w,z) C(d-n-x-w, h-m-y-z) / C(d,h) (0 when impossible)."""
    rest = d - n - x - w
    need = h - m - y - z
    if m > n or y > x or z > w or need < 0 or need > rest or h > d:
        return 0.0
    return comb[n, m] * comb[x, y] * comb[w, z] * comb[rest, need] / comb[d, h]


@njit(cache=True)
def move_probability(mid, unplayed, h, sp, comb, at_least):
    """p_b (Equation 5): the chance that a hand of ``h`` unseen cards can make move ``mid``.

    ``unplayed`` counts the cards not yet played, per type (an observer's view: d = their sum).
    The mosquito term (x, y) enters only when the move uses a mosquito as an elephant and the
    joker term (w, z) only when it uses the chameleon. ``at_least=False`` is Equation 5 as
    printed (exactly m, y, z such cards); ``at_least=True`` sums it over hands holding at least
    that many (the event "can play b"; beyond the paper).
    """
    if mid == PASS_ID:
        return 1.0
    t, cnt, mq, ch = decode_move_id(mid)
    m = cnt - mq - ch
    d = unplayed.sum()
    n = unplayed[t]
    x = unplayed[sp[SP_MOS]] if mq else 0
    w = unplayed[sp[SP_CHA]] if ch else 0
    if not at_least:
        return _hypergeom(comb, d, h, n, m, x, mq, w, ch)
    total = 0.0
    for mm in range(m, min(n, h) + 1):
        for yy in range(mq, x + 1):
            for zz in range(ch, w + 1):
                total += _hypergeom(comb, d, h, n, mm, x, yy, w, zz)
    return total


@njit(cache=True)
def predictor_game(counts, beats, sp, ag, hw, W, likelihood, comb, at_least, rng):
    """One game of §6.1's test: predict each decision as argmax_b l[a, b] * p_b.

    Returns ``(correct, decisions, correct_moves, moves)`` where the last two count only the
    decisions that played cards.
    """
    mv = np.empty((MAX_MOVES, 4), dtype=np.int64)
    hands, st = new_hand(counts, sp, rng)
    unplayed = np.empty(counts.shape[0], dtype=np.int64)
    correct = 0
    decisions = 0
    correct_moves = 0
    moves = 0
    while st[ST_DONE] == 0:
        p = st[ST_CUR]
        a = st[ST_TID]
        for t in range(counts.shape[0]):
            unplayed[t] = hands[:, t].sum()
        h = st[ST_SIZE + p]
        best = -1.0
        guess = PASS_ID
        for b in range(N_IDS):
            lab = likelihood[a, b]
            if lab <= 0.0:
                continue
            score = lab * move_probability(b, unplayed, h, sp, comb, at_least)
            if score > best:
                best = score
                guess = b
        idx = agent_action(ag[p], hands, st, beats, sp, hw, W, mv, rng)
        if idx != ACT_SKIP:
            b_true = action_id(st, mv, idx)
            decisions += 1
            correct += guess == b_true
            if b_true != PASS_ID:
                moves += 1
                correct_moves += guess == b_true
        apply_action(hands, st, mv, idx, sp)
    return correct, decisions, correct_moves, moves


def binomial_table(n_max: int = 64) -> np.ndarray:
    """``comb[n, k]`` as floats for the hypergeometric terms of Equation 5."""
    from math import comb

    table = np.zeros((n_max + 1, n_max + 1), dtype=np.float64)
    for n in range(n_max + 1):
        for k in range(n + 1):
            table[n, k] = float(comb(n, k))
    return table
