"""Monte Carlo sampling of the hidden cards and the program's card choice (paper §5; spec "Play").

A *sample* is a full-information play state that agrees with everything seat ``me`` knows: its
own hand, every card played, the talon cards it has seen (the turned-up talon, klop gifts taken),
the discarded taroks (shown), its own discards when it is the declarer, and the suits each player
has shown void in. The hidden cards are dealt to the places that hide them - the other hands, the
declarer's non-tarok discards (never kings), the unseen talon (solo, beggar, klop) - at random,
most constrained card first, each place drawn in proportion to its free room; a dead end (rare:
voids) restarts the deal. It is close to, not exactly, uniform over the consistent deals.

``mc_values`` sums each card's search value over the samples (eq. 3 with equal weights) plus
0.7 x the value of a search to the end of the current trick, so that of two equally good plans
the one that cashes its sure tricks first is played (§5, last paragraph).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    ALL_CARDS,
    BEGGAR,
    KINGS,
    KLOP,
    N_CARDS,
    N_PLAYERS,
    S_CONTRACT,
    S_DECL,
    S_HAND,
    S_PILE,
    S_PLAYED,
    S_PTS3,
    S_SHOWN,
    S_TALON,
    S_TALON_SEEN,
    S_TURN,
    S_VOID,
    SOLO,
    SUIT,
    TALON_SIZE,
    TAROKS,
    bit,
    legal_mask,
    lowest,
    popcount,
    raw_points,
)
from .search import plies_to_trick_end, scheduled_depth, search_root

PL_HIDDEN_DISCARDS = 3
PL_TALON = 4
N_PLACES = 5


@njit(cache=True)
def hidden_places(S, me, cap, allowed):
    """Capacity of each hiding place and the cards each may take; returns the unknown mask.

    Places 0-2: the hands of the other seats (no cards of a suit shown void); 3: the declarer's
    hidden discards (no taroks - they are shown - and no kings); 4: the unseen talon (solo and
    beggar: in the opponents' pile; klop: the gifts still to come)."""
    c = S[S_CONTRACT]
    d = S[S_DECL]
    known = S[S_HAND + me] | S[S_PLAYED] | S[S_TALON_SEEN] | S[S_SHOWN]
    if d == me:
        known |= S[S_PILE + me]
    taken = np.int64(0)  # talon cards the declarer took: his, but in hand or laid away?
    if d >= 0 and d != me:
        o = S[S_PILE + (d + 1) % N_PLAYERS] | S[S_PILE + (d + 2) % N_PLAYERS]
        taken = S[S_TALON_SEEN] & ~S[S_PLAYED] & ~S[S_SHOWN] & ~o
    unknown = (ALL_CARDS & ~known) | taken
    for p in range(N_PLACES):
        cap[p] = 0
        allowed[p] = 0
    for p in range(N_PLAYERS):
        if p == me:
            continue
        cap[p] = popcount(S[S_HAND + p])
        a = unknown
        for s in range(5):
            if S[S_VOID + p] & (1 << s):
                a &= ~suit_mask(s)
        allowed[p] = a if p == d else a & ~taken
    if d >= 0 and d != me:
        disc = S[S_PILE + d] & ~S[S_PLAYED] & ~S[S_SHOWN]
        cap[PL_HIDDEN_DISCARDS] = popcount(disc)
        allowed[PL_HIDDEN_DISCARDS] = unknown & ~TAROKS & ~KINGS
    if c == SOLO or c == BEGGAR:
        o = (d + 1) % N_PLAYERS
        cap[PL_TALON] = popcount(S[S_PILE + o] & ~S[S_PLAYED] & ~S[S_TALON_SEEN])
        allowed[PL_TALON] = unknown & ~taken
    elif c == KLOP:
        n = 0
        for i in range(TALON_SIZE):
            if S[S_TALON + i] >= 0:
                n += 1
        cap[PL_TALON] = n
        allowed[PL_TALON] = unknown & ~taken
    return unknown


@njit(cache=True)
def suit_mask(s):
    m = np.int64(0)
    for c in range(N_CARDS):
        if SUIT[c] == s:
            m |= bit(c)
    return m


@njit(cache=True)
def deal_hidden(unknown, cap, allowed, rng, out):
    """Deal the unknown cards to the places (``out[p]`` masks); False after 200 dead ends."""
    cards = np.empty(N_CARDS, dtype=np.int64)
    keys = np.empty(N_CARDS, dtype=np.float64)
    n = 0
    m = unknown
    while m:
        c = lowest(m)
        m &= m - 1
        k = 0
        for p in range(N_PLACES):
            if allowed[p] & bit(c):
                k += 1
        cards[n] = c
        keys[n] = k + rng.random()  # most constrained first, ties at random
        n += 1
    order = np.argsort(keys[:n])
    room = np.empty(N_PLACES, dtype=np.int64)
    for _ in range(200):
        room[:] = cap
        for p in range(N_PLACES):
            out[p] = 0
        ok = True
        for j in range(n):
            c = cards[order[j]]
            tot = 0
            for p in range(N_PLACES):
                if allowed[p] & bit(c):
                    tot += room[p]
            if tot == 0:
                ok = False
                break
            r = np.int64(rng.random() * tot)
            for p in range(N_PLACES):
                if allowed[p] & bit(c):
                    if r < room[p]:
                        out[p] |= bit(c)
                        room[p] -= 1
                        break
                    r -= room[p]
        if ok:
            return True
    return False


@njit(cache=True)
def sample_state(S, me, rng, out):
    """Write into ``out`` a full-information state consistent with what ``me`` knows of S."""
    cap = np.empty(N_PLACES, dtype=np.int64)
    allowed = np.empty(N_PLACES, dtype=np.int64)
    got = np.empty(N_PLACES, dtype=np.int64)
    unknown = hidden_places(S, me, cap, allowed)
    out[:] = S
    if not deal_hidden(unknown, cap, allowed, rng, got):
        return False  # keep the true state (cannot happen for a consistent S)
    for p in range(N_PLAYERS):
        if p != me:
            out[S_HAND + p] = got[p]
    d = S[S_DECL]
    c = S[S_CONTRACT]
    if cap[PL_HIDDEN_DISCARDS] > 0:
        disc = S[S_PILE + d] & ~S[S_PLAYED] & ~S[S_SHOWN]
        out[S_PILE + d] = (S[S_PILE + d] & ~disc) | got[PL_HIDDEN_DISCARDS]
    if cap[PL_TALON] > 0:
        if c == KLOP:
            g = got[PL_TALON]
            for i in range(TALON_SIZE):
                if S[S_TALON + i] >= 0:
                    out[S_TALON + i] = lowest(g)
                    g &= g - 1
        else:
            o = (d + 1) % N_PLAYERS
            hid = S[S_PILE + o] & ~S[S_PLAYED] & ~S[S_TALON_SEEN]
            out[S_PILE + o] = (S[S_PILE + o] & ~hid) | got[PL_TALON]
    for p in range(N_PLAYERS):
        m = out[S_PILE + p]
        out[S_PTS3 + p] = 3 * raw_points(m) - 2 * popcount(m)
    return True


@njit(cache=True)
def mc_values(S, n_samples, depths, one_trick_weight, cheat, cfg, rng, tt_key, tt_val,
              tt_meta, hist, gen, ST, totals, nodes):
    """Summed values (``totals[card]``, float64) of the cards of the seat to play in S over
    ``n_samples`` sampled deals (``cheat``: the true deal, once). ``depths`` = (9, 12, 15) base
    depths; ``one_trick_weight`` (0.7) weights a search to the end of the trick. ``nodes[0]``
    accumulates the nodes of the deep searches, ``nodes[1]`` those of the one-trick searches."""
    me = S[S_TURN]
    totals[:] = 0.0
    moves = np.empty(16, dtype=np.int64)
    vals = np.empty(16, dtype=np.int64)
    sample = np.empty_like(S)
    depth = scheduled_depth(S, depths)
    short = plies_to_trick_end(S)
    reps = 1 if cheat else n_samples
    for _ in range(reps):
        if cheat:
            sample[:] = S
        else:
            sample_state(S, me, rng, sample)
        n, k = search_root(sample, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST,
                           moves, vals)
        nodes[0] += k
        for i in range(n):
            totals[moves[i]] += vals[i]
        if one_trick_weight > 0.0:
            n, k = search_root(sample, me, short, cfg, tt_key, tt_val, tt_meta, hist, gen, ST,
                               moves, vals)
            nodes[1] += k
            for i in range(n):
                totals[moves[i]] += one_trick_weight * vals[i]
    legal = legal_mask(S)
    best = -1
    bv = -np.inf
    while legal:
        c = lowest(legal)
        legal &= legal - 1
        if totals[c] > bv:
            bv = totals[c]
            best = c
    return best
