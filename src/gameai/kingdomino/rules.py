"""Kingdomino game engine (numba): kingdoms, legal placements, drafts, incremental scores.

Rules as the authors' code plays them (chapter spec, "Rules as the paper's code implements
them"; paper §II-A): 4 players, all 48 dominoes, 13 moves per player (round 1 picks only, so
12 dominoes per kingdom are placed or discarded).

Representation (flat int64 arrays, so that playouts never touch a Python object):

* ``K[p]`` - player ``p``'s kingdom, one row of ``KLEN`` int64 (copying a kingdom is one flat
  copy, ``copy_into``). Cells live on an 11x11 grid: the playable 9x9 (rows/cols 1..9) holds every kingdom that
  fits a 5x5 box around the castle (cell ``CASTLE_CELL`` = row 5, col 5); the ring of ``BORDER``
  cells lets neighbour look-ups skip bounds checks. Per cell: terrain, crowns and the id of its
  4-connected single-terrain region; per region: size and crowns; then the bounding box and the
  running totals the score needs (``K_REGSUM`` = sum of size x crowns over regions, occupied
  cells, cells outside the castle-centred 5x5), so the score is updated per tile, never
  recounted; and per-row bitmasks (empty cells; per terrain, cells touching that terrain or the
  castle) from which the legal placements of a whole row come out of a few bit operations.
* ``G`` - the shared game state (round, turn, drafts, owners, the set of dominoes seen).
* a move is ``place * 5 + pick``: ``place = cell * 4 + dir`` puts the domino's first tile on
  ``cell`` and its second on the neighbour in direction ``dir`` (right, down, left, up);
  ``PLACE_DISCARD`` when no placement exists, ``PLACE_NONE`` in round 1. ``pick`` is a slot
  0..3 of the current draft, ``PICK_NONE`` in round 13.

Chance: a draft is drawn only when the previous one completes (4 dominoes uniformly without
replacement from those not yet seen, then sorted), so no agent can see the future draw order -
simulations draw with their own generator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dominoes import BORDER, CASTLE, DOMINOES, EMPTY, N_DOMINOES

#: Bump when the engine's behaviour changes: it is part of every cached result's key.
ENGINE_VERSION = "1"

N_PLAYERS = 4
N_ROUNDS = 13
N_MOVES = N_PLAYERS * N_ROUNDS  # 52 moves per game

# --- grid ---------------------------------------------------------------------------------
W = 11  # padded width
N_CELLS = W * W
CASTLE_CELL = 5 * W + 5
CENTRE_LO = 3  # rows/cols 3..7: the castle-centred 5x5 (Middle Kingdom)
CENTRE_HI = 7
OFFS = np.array([1, W, -1, -W], dtype=np.int64)  # right, down, left, up
ROW = np.arange(N_CELLS, dtype=np.int64) // W
COL = np.arange(N_CELLS, dtype=np.int64) % W
IN_CENTRE = ((ROW >= CENTRE_LO) & (ROW <= CENTRE_HI) & (COL >= CENTRE_LO)
             & (COL <= CENTRE_HI)).astype(np.int64)

MIDDLE_KINGDOM_BONUS = 10
HARMONY_BONUS = 5
FULL = 25  # occupied cells (castle included) of a complete 5x5 kingdom

# --- kingdom row (K[p]) ---------------------------------------------------------------------
K_TER = 0
K_CRW = K_TER + N_CELLS
K_REG = K_CRW + N_CELLS
MAX_REGIONS = 32  # every tile opens at most one region id: 26 tiles at most
K_RSIZE = K_REG + N_CELLS
K_RCROWN = K_RSIZE + MAX_REGIONS
K_MINR = K_RCROWN + MAX_REGIONS
K_MAXR = K_MINR + 1
K_MINC = K_MINR + 2
K_MAXC = K_MINR + 3
K_REGSUM = K_MINR + 4  # sum over regions of size x crowns
K_NOCC = K_MINR + 5  # occupied cells, castle included
K_NOUT = K_MINR + 6  # tiles outside the castle-centred 5x5
K_NREG = K_MINR + 7  # region ids used so far
K_PLACED = K_MINR + 8
K_DISCARDED = K_MINR + 9
# row bitmasks (bit c = column c) for the placement generator: empty playable cells, and per
# terrain t the cells with a 4-neighbour of terrain t or the castle (a tile of t may go there)
K_EMPTY = K_MINR + 10
K_ADJ = K_EMPTY + W  # K_ADJ + t * W + row, t = 1..6 (row 0 of the block unused)
KLEN = K_ADJ + 7 * W
POPCOUNT = np.array([bin(i).count("1") for i in range(1 << W)], dtype=np.int64)
#: Column of a row mask's lowest set bit (-1 for an empty row): set bits are visited in column
#: order by ``c = LOWBIT[bits]; bits &= bits - 1``, without scanning the empty columns between.
LOWBIT = np.array([(i & -i).bit_length() - 1 for i in range(1 << W)], dtype=np.int64)

# --- game state (G) -------------------------------------------------------------------------
G_ROUND = 0  # 1..13
G_TURN = 1  # 0..3 within the round
G_DONE = 2
G_NMOVES = 3
G_SEEN = 4  # bitmask of dominoes drawn so far (bit n-1 for domino n)
G_ORDER = 5  # round 1: the random pick order (4 players)
G_PREV = 9  # dominoes to place this round, sorted (the previous draft)
G_PREVOWN = 13  # their owners: the move order of this round
G_CUR = 17  # the current draft, sorted (-1 in round 13)
G_CUROWN = 21  # who picked each slot (-1 free)
G_LEN = 25

PLACE_DISCARD = N_CELLS * 4
PLACE_NONE = PLACE_DISCARD + 1
PICK_NONE = 4
MAX_PLACEMENTS = 512
MAX_MOVES = MAX_PLACEMENTS * 4


@njit(cache=True, inline="always")
def randint(rng, n):
    """Uniform integer in [0, n): one double per draw (the bias, < n / 2**53, is immaterial and
    this is several times faster than ``Generator.integers`` inside numba)."""
    return np.int64(rng.random() * n)


@njit(cache=True, inline="always")
def encode(place, pick):
    return place * 5 + pick


@njit(cache=True)
def copy_into(dst, src):
    """``dst[:] = src`` for contiguous arrays, as an explicit loop: numba's slice assignment
    is several times slower (measured: 660 ns vs 150 ns for four kingdoms)."""
    d = dst.ravel()
    s = src.ravel()
    for i in range(s.size):
        d[i] = s[i]


# ------------------------------------------------------------------------------------ setup
@njit(cache=True, inline="always")
def _mark_adjacent(k, x, t):
    """Cells next to ``x`` now touch terrain ``t`` (the castle: every terrain)."""
    r = ROW[x]
    c = COL[x]
    base = K_ADJ + t * W
    k[base + r] |= (1 << (c - 1)) | (1 << (c + 1))
    k[base + r - 1] |= 1 << c
    k[base + r + 1] |= 1 << c


@njit(cache=True)
def new_kingdoms():
    """Four kingdoms holding only their castle (score 10: the Middle Kingdom holds, spec)."""
    K = np.zeros((N_PLAYERS, KLEN), dtype=np.int64)
    for p in range(N_PLAYERS):
        for c in range(N_CELLS):
            r = ROW[c]
            q = COL[c]
            K[p, K_TER + c] = BORDER if (r == 0 or r == W - 1 or q == 0 or q == W - 1) else EMPTY
            K[p, K_REG + c] = -1
        K[p, K_TER + CASTLE_CELL] = CASTLE
        for r in range(1, W - 1):
            K[p, K_EMPTY + r] = ((1 << (W - 1)) - 1) & ~1  # columns 1..9
        K[p, K_EMPTY + 5] &= ~(1 << 5)
        for t in range(1, 7):
            _mark_adjacent(K[p], CASTLE_CELL, t)
        K[p, K_MINR] = 5
        K[p, K_MAXR] = 5
        K[p, K_MINC] = 5
        K[p, K_MAXC] = 5
        K[p, K_NOCC] = 1
    return K


@njit(cache=True, inline="always")
def draw_draft(G, rng, out):
    """Draw 4 unseen dominoes uniformly without replacement into ``out``, sorted; mark seen."""
    seen = G[G_SEEN]
    for i in range(4):  # rejection over 1..48: uniform among the unseen, without replacement
        while True:
            d = 1 + randint(rng, N_DOMINOES)
            if (seen >> (d - 1)) & 1 == 0:
                break
        seen |= np.int64(1) << (d - 1)
        j = i  # insertion sort: the draft is sorted by domino number
        while j > 0 and out[j - 1] > d:
            out[j] = out[j - 1]
            j -= 1
        out[j] = d
    G[G_SEEN] = seen


@njit(cache=True)
def new_game(rng):
    """Round 1: a random pick order and the first draft (spec: round 1 picks in random order)."""
    G = np.full(G_LEN, -1, dtype=np.int64)
    G[G_ROUND] = 1
    G[G_TURN] = 0
    G[G_DONE] = 0
    G[G_NMOVES] = 0
    G[G_SEEN] = 0
    order = np.arange(N_PLAYERS)
    rng.shuffle(order)
    for i in range(N_PLAYERS):
        G[G_ORDER + i] = order[i]
    draft = np.empty(4, dtype=np.int64)
    draw_draft(G, rng, draft)
    for i in range(4):
        G[G_CUR + i] = draft[i]
    return G, new_kingdoms()


@njit(cache=True, inline="always")
def current_player(G):
    if G[G_ROUND] == 1:
        return G[G_ORDER + G[G_TURN]]
    return G[G_PREVOWN + G[G_TURN]]


@njit(cache=True, inline="always")
def domino_to_place(G):
    """The domino the player to move must place (-1 in round 1)."""
    if G[G_ROUND] == 1:
        return -1
    return G[G_PREV + G[G_TURN]]


# ------------------------------------------------------------------------------------ score
@njit(cache=True, inline="always")
def score(k):
    """Incremental score: regions + Middle Kingdom (no tile outside the centre) + Harmony."""
    s = k[K_REGSUM]
    if k[K_NOUT] == 0:
        s += MIDDLE_KINGDOM_BONUS
    if k[K_NOCC] == FULL:
        s += HARMONY_BONUS
    return s


@njit(cache=True)
def rescore(k, stack):
    """Rebuild the regions (labels, sizes, crowns, ``K_REGSUM``) from the terrain by flood fill
    inside the bounding box: after ``_place_unscored`` the kingdom is whole again (spec "Score":
    area x crowns per 4-connected single-terrain region). ``stack`` holds 25 cells or more."""
    for r in range(k[K_MINR], k[K_MAXR] + 1):
        for c in range(k[K_MINC], k[K_MAXC] + 1):
            k[K_REG + r * W + c] = -1
    n = 0
    total = 0
    for r in range(k[K_MINR], k[K_MAXR] + 1):
        for c in range(k[K_MINC], k[K_MAXC] + 1):
            y = r * W + c
            t = k[K_TER + y]
            if t == EMPTY or t == CASTLE or k[K_REG + y] >= 0:
                continue
            k[K_REG + y] = n
            stack[0] = y
            top = 1
            size = 0
            crowns = 0
            while top > 0:
                top -= 1
                x = stack[top]
                size += 1
                crowns += k[K_CRW + x]
                for i in range(4):
                    z = x + OFFS[i]
                    if k[K_TER + z] == t and k[K_REG + z] < 0:
                        k[K_REG + z] = n
                        stack[top] = z
                        top += 1
            k[K_RSIZE + n] = size
            k[K_RCROWN + n] = crowns
            total += size * crowns
            n += 1
    k[K_NREG] = n
    k[K_REGSUM] = total


@njit(cache=True)
def recount(k):
    """Score from scratch (spec "Score"): the check on the incremental score. The regions are
    flood-filled over the whole 9x9 (not trusting the bounding box) and the bonuses come from
    counting tiles, not from the running totals."""
    c = k.copy()
    c[K_MINR] = 1
    c[K_MAXR] = W - 2
    c[K_MINC] = 1
    c[K_MAXC] = W - 2
    rescore(c, np.empty(N_CELLS, dtype=np.int64))
    total = c[K_REGSUM]
    occupied = 0
    outside = 0
    for x in range(N_CELLS):
        t = k[K_TER + x]
        if t != EMPTY and t != BORDER:
            occupied += 1
            outside += IN_CENTRE[x] == 0
    if outside == 0:
        total += MIDDLE_KINGDOM_BONUS
    if occupied == FULL:
        total += HARMONY_BONUS
    return total


# ------------------------------------------------------------------------------- placements
@njit(cache=True, inline="always")
def n_dirs(d):
    """Identical halves (dominoes 1-12): the mirrored placement is the same one (spec)."""
    if DOMINOES[d, 0] == DOMINOES[d, 2] and DOMINOES[d, 1] == DOMINOES[d, 3]:
        return 2
    return 4


@njit(cache=True, inline="always")
def window(k):
    """Rows/cols a tile may use: the 5x5 limit (max - min < 5) and, since a placement must touch
    the kingdom, at most two cells beyond the bounding box."""
    r0 = max(k[K_MAXR] - 4, k[K_MINR] - 2)
    r1 = min(k[K_MINR] + 4, k[K_MAXR] + 2)
    c0 = max(k[K_MAXC] - 4, k[K_MINC] - 2)
    c1 = min(k[K_MINC] + 4, k[K_MAXC] + 2)
    return r0, r1, c0, c1


@njit(cache=True, inline="always")
def _row_bits(k, t1, t2, r, dr, wm):
    """Bitmask of the columns c where tile 1 of a (t1, t2) domino can go on (r, c) with tile 2
    in direction ``dr``: both cells empty inside the window columns ``wm`` and tile 1 touching
    t1 or the castle, or tile 2 touching t2 or the castle (spec "Placement")."""
    e = k[K_EMPTY + r] & wm
    a1 = k[K_ADJ + t1 * W + r]
    if dr == 0:  # tile 2 to the right
        return e & (e >> 1) & (a1 | (k[K_ADJ + t2 * W + r] >> 1))
    if dr == 2:  # to the left
        return e & (e << 1) & (a1 | (k[K_ADJ + t2 * W + r] << 1))
    if dr == 1:  # below
        return e & k[K_EMPTY + r + 1] & (a1 | k[K_ADJ + t2 * W + r + 1])
    return e & k[K_EMPTY + r - 1] & (a1 | k[K_ADJ + t2 * W + r - 1])


@njit(cache=True, inline="always")
def _skip(dr, r, r0, r1):
    """Vertical placements need the second row inside the window too."""
    return (dr == 1 and r == r1) or (dr == 3 and r == r0)


@njit(cache=True)
def gen_placements(k, d, out, r0, r1, c0, c1):
    """Legal placements of domino ``d`` with both tiles inside rows r0..r1, cols c0..c1 (pass
    ``window(k)`` for all of them). Writes place codes into ``out``; returns the count."""
    nd = n_dirs(d)
    t1 = DOMINOES[d, 0]
    t2 = DOMINOES[d, 2]
    wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
    n = 0
    for r in range(r0, r1 + 1):
        for dr in range(nd):
            if _skip(dr, r, r0, r1):
                continue
            bits = _row_bits(k, t1, t2, r, dr, wm)
            while bits:
                out[n] = (r * W + LOWBIT[bits]) * 4 + dr
                n += 1
                bits &= bits - 1
    return n


@njit(cache=True)
def all_placements(k, d, out):
    r0, r1, c0, c1 = window(k)
    return gen_placements(k, d, out, r0, r1, c0, c1)


@njit(cache=True, inline="always")
def random_placement(k, d, rng, buf):
    """A uniformly random legal placement (``PLACE_DISCARD`` when none): one pass stores each
    (row, direction)'s bitmask of legal columns in ``buf`` and counts them; then one index is
    drawn and decoded. Every legal placement is one bit, so the draw is uniform."""
    r0, r1, c0, c1 = window(k)
    nd = n_dirs(d)
    b1 = K_ADJ + DOMINOES[d, 0] * W
    b2 = K_ADJ + DOMINOES[d, 2] * W
    wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
    total = 0
    m = 0
    for r in range(r0, r1 + 1):
        e = k[K_EMPTY + r] & wm
        a1 = k[b1 + r]
        a2 = k[b2 + r]
        h = e & (e >> 1) & (a1 | (a2 >> 1))  # right
        v = 0
        if r < r1:  # down
            v = e & k[K_EMPTY + r + 1] & (a1 | k[b2 + r + 1])
        buf[m] = h
        buf[m + 1] = v
        total += POPCOUNT[h] + POPCOUNT[v]
        if nd == 4:
            h = e & (e << 1) & (a1 | (a2 << 1))  # left
            v = 0
            if r > r0:  # up
                v = e & k[K_EMPTY + r - 1] & (a1 | k[b2 + r - 1])
            buf[m + 2] = h
            buf[m + 3] = v
            total += POPCOUNT[h] + POPCOUNT[v]
        m += nd
    if total == 0:
        return PLACE_DISCARD
    j = randint(rng, total)
    for i in range(m):
        bits = buf[i]
        cnt = POPCOUNT[bits]
        if j >= cnt:
            j -= cnt
            continue
        for _ in range(j):  # drop the j set bits before the one drawn
            bits &= bits - 1
        return ((r0 + i // nd) * W + LOWBIT[bits]) * 4 + i % nd
    return PLACE_DISCARD


# ------------------------------------------------------------------------- score of a placement
@njit(cache=True)
def gain(k, place, d):
    """Score change of placing domino ``d`` at ``place`` (regions and both bonuses), without
    changing ``k``: the greedy evaluation and UCT's heuristic H (spec). Neighbouring regions
    are de-duplicated with a bitmask of region ids (< 32)."""
    if place >= PLACE_DISCARD:
        return 0
    a = place >> 2
    b = a + OFFS[place & 3]
    t1 = DOMINOES[d, 0]
    t2 = DOMINOES[d, 2]
    size1 = 1
    crowns1 = DOMINOES[d, 1]
    size2 = 1
    crowns2 = DOMINOES[d, 3]
    old = 0
    seen = np.int64(0)
    for i in range(4):
        x = a + OFFS[i]
        if k[K_TER + x] == t1:
            r = k[K_REG + x]
            if (seen >> r) & 1 == 0:
                seen |= np.int64(1) << r
                size1 += k[K_RSIZE + r]
                crowns1 += k[K_RCROWN + r]
                old += k[K_RSIZE + r] * k[K_RCROWN + r]
    for i in range(4):
        x = b + OFFS[i]
        if k[K_TER + x] == t2:
            r = k[K_REG + x]
            if (seen >> r) & 1 == 0:
                seen |= np.int64(1) << r
                size2 += k[K_RSIZE + r]
                crowns2 += k[K_RCROWN + r]
                old += k[K_RSIZE + r] * k[K_RCROWN + r]
    if t1 == t2:  # the two halves join one region
        delta = (size1 + size2) * (crowns1 + crowns2) - old
    else:
        delta = size1 * crowns1 + size2 * crowns2 - old
    if k[K_NOUT] == 0 and (IN_CENTRE[a] == 0 or IN_CENTRE[b] == 0):
        delta -= MIDDLE_KINGDOM_BONUS
    if k[K_NOCC] + 2 == FULL:
        delta += HARMONY_BONUS
    return delta


# ------------------------------------------------------------------------------------ apply
@njit(cache=True, inline="always")
def _occupy(k, x, t, c):
    """Put one tile's terrain and crowns on cell ``x`` and update what the placement generator
    and the bonuses read (row masks, occupied cells, cells outside the centre) - not the
    regions (``_merge_regions``)."""
    k[K_TER + x] = t
    k[K_CRW + x] = c
    k[K_EMPTY + ROW[x]] &= ~(1 << COL[x])
    _mark_adjacent(k, x, t)
    k[K_NOCC] += 1
    if IN_CENTRE[x] == 0:
        k[K_NOUT] += 1


@njit(cache=True, inline="always")
def _merge_regions(k, x, t, c):
    """Give the new tile on ``x`` a region and merge it with its same-terrain neighbours'
    (relabelling the merged cells inside the bounding box, at most 25)."""
    rid = k[K_NREG]
    k[K_NREG] = rid + 1
    size = 1
    crowns = c
    # the distinct neighbouring regions to merge, as a bitmask of region ids (< 32)
    olds = 0
    for i in range(4):
        y = x + OFFS[i]
        if k[K_TER + y] == t and k[K_REG + y] >= 0:
            olds |= np.int64(1) << k[K_REG + y]
    if olds != 0:
        for r in range(rid):
            if (olds >> r) & 1:
                size += k[K_RSIZE + r]
                crowns += k[K_RCROWN + r]
                k[K_REGSUM] -= k[K_RSIZE + r] * k[K_RCROWN + r]
    k[K_REGSUM] += size * crowns
    k[K_RSIZE + rid] = size
    k[K_RCROWN + rid] = crowns
    k[K_REG + x] = rid
    if olds != 0:
        for rr in range(k[K_MINR], k[K_MAXR] + 1):
            for cc in range(k[K_MINC], k[K_MAXC] + 1):
                y = rr * W + cc
                ry = k[K_REG + y]
                if ry >= 0 and (olds >> ry) & 1:
                    k[K_REG + y] = rid


@njit(cache=True, inline="always")
def _put_tile(k, x, t, c):
    """One tile with everything the incremental score keeps."""
    _occupy(k, x, t, c)
    _merge_regions(k, x, t, c)


@njit(cache=True, inline="always")
def _grow_box(k, a, b):
    """Widen the bounding box to cells ``a`` and ``b``."""
    k[K_MINR] = min(k[K_MINR], ROW[a], ROW[b])
    k[K_MAXR] = max(k[K_MAXR], ROW[a], ROW[b])
    k[K_MINC] = min(k[K_MINC], COL[a], COL[b])
    k[K_MAXC] = max(k[K_MAXC], COL[a], COL[b])


@njit(cache=True, inline="always")
def _cells(place_code):
    """The two cells a placement covers."""
    a = place_code >> 2
    return a, a + OFFS[place_code & 3]


@njit(cache=True, inline="always")
def _place_unscored(k, place_code, d):
    """``place`` without the region bookkeeping: the score is stale until ``rescore``. Random
    play never reads a score, so its playouts defer the regions to one flood fill at the end."""
    a, b = _cells(place_code)
    _grow_box(k, a, b)
    _occupy(k, a, DOMINOES[d, 0], DOMINOES[d, 1])
    _occupy(k, b, DOMINOES[d, 2], DOMINOES[d, 3])
    k[K_PLACED] += 1


@njit(cache=True)
def place(k, place_code, d):
    """Place domino ``d`` (legality is the caller's business: moves come from the generators)."""
    _place_unscored(k, place_code, d)
    a, b = _cells(place_code)
    # tile b has no region yet, so a's merge ignores it; b's merge then joins a's region
    _merge_regions(k, a, DOMINOES[d, 0], DOMINOES[d, 1])
    _merge_regions(k, b, DOMINOES[d, 2], DOMINOES[d, 3])


@njit(cache=True, inline="always")
def _end_round(G, rng, draft, given):
    """Rounds 2-12: this round's draft becomes the placing order of the next (spec "Drafts")."""
    r = G[G_ROUND]
    G[G_TURN] = 0
    if r == N_ROUNDS:
        G[G_DONE] = 1
        return False
    for i in range(4):
        G[G_PREV + i] = G[G_CUR + i]
        G[G_PREVOWN + i] = G[G_CUROWN + i]
    G[G_ROUND] = r + 1
    if r + 1 == N_ROUNDS:  # the last round: place only, nothing left to draw
        for i in range(4):
            G[G_CUR + i] = -1
            G[G_CUROWN + i] = -1
        return False
    if not given:
        draw_draft(G, rng, draft)
    else:
        for i in range(4):
            G[G_SEEN] |= np.int64(1) << (draft[i] - 1)
    for i in range(4):
        G[G_CUR + i] = draft[i]
        G[G_CUROWN + i] = -1
    return True


@njit(cache=True)
def apply_move(G, K, move, rng, draft, given):
    """Play ``move`` for the player to move. When the round ends and a new draft is due it is
    drawn from ``rng`` into ``draft`` (or, with ``given``, taken from ``draft``: UCT's kept
    chance outcome). Returns True when a draft was drawn."""
    p = current_player(G)
    pl = move // 5
    pick = move % 5
    if pl < PLACE_DISCARD:
        place(K[p], pl, G[G_PREV + G[G_TURN]])
    elif pl == PLACE_DISCARD:
        K[p, K_DISCARDED] += 1
    return _advance(G, p, pick, rng, draft, given)


@njit(cache=True, inline="always")
def _advance(G, p, pick, rng, draft, given):
    """After player ``p``'s placement: take slot ``pick``, pass the turn, end the round."""
    if pick < PICK_NONE:
        G[G_CUROWN + pick] = p
    G[G_TURN] += 1
    G[G_NMOVES] += 1
    if G[G_TURN] == N_PLAYERS:
        return _end_round(G, rng, draft, given)
    return False


# ------------------------------------------------------------------------------- move lists
@njit(cache=True)
def free_picks(G, out):
    """Free slots of the current draft (none in round 13)."""
    n = 0
    if G[G_ROUND] == N_ROUNDS:
        return 0
    for i in range(4):
        if G[G_CUROWN + i] < 0:
            out[n] = i
            n += 1
    return n


@njit(cache=True, inline="always")
def random_pick(G, rng):
    """A uniformly random free slot of the current draft (``PICK_NONE`` in round 13)."""
    if G[G_ROUND] == N_ROUNDS:
        return PICK_NONE
    nfree = 0
    for i in range(4):
        nfree += G[G_CUROWN + i] < 0
    j = randint(rng, nfree)
    for i in range(4):
        if G[G_CUROWN + i] < 0:
            if j == 0:
                return i
            j -= 1
    return PICK_NONE


@njit(cache=True)
def legal_moves(G, K, out, pbuf):
    """Every legal move (placement-major, then pick slot); ``pbuf`` is a placement buffer.
    A discard is listed only when no placement exists (spec "Discard")."""
    p = current_player(G)
    picks = np.empty(4, dtype=np.int64)
    npk = free_picks(G, picks)
    if G[G_ROUND] == 1:
        for j in range(npk):
            out[j] = encode(PLACE_NONE, picks[j])
        return npk
    npl = all_placements(K[p], domino_to_place(G), pbuf)
    if npl == 0:
        pbuf[0] = PLACE_DISCARD
        npl = 1
    if npk == 0:
        for i in range(npl):
            out[i] = encode(pbuf[i], PICK_NONE)
        return npl
    n = 0
    for i in range(npl):
        for j in range(npk):
            out[n] = encode(pbuf[i], picks[j])
            n += 1
    return n


@njit(cache=True)
def pick_major(mv, n, tmp):
    """Reorder ``mv[:n]`` (as :func:`legal_moves` lists them) pick-major, as the authors'
    ``getAvailableMoves`` does: every move picking the draft's first free domino (the
    lowest-numbered: drafts are sorted), then the next one, each group in our placement order
    (a stable counting sort on the pick slot; ``tmp`` holds at least ``n`` moves). Moves
    without a pick (round 13) keep their order. UCT expands untried moves in list order, so
    with fewer iterations than moves the order decides which moves it ever tries."""
    k = 0
    for pick in range(PICK_NONE + 1):
        for i in range(n):
            if mv[i] % 5 == pick:
                tmp[k] = mv[i]
                k += 1
    for i in range(n):
        mv[i] = tmp[i]


@njit(cache=True)
def random_move(G, K, rng, pbuf):
    """TR (spec "Agents"): uniform over legal moves = uniform placement x uniform free pick."""
    pick = random_pick(G, rng)
    if G[G_ROUND] == 1:
        return encode(PLACE_NONE, pick)
    p = current_player(G)
    return encode(random_placement(K[p], domino_to_place(G), rng, pbuf), pick)


@njit(cache=True)
def winners(K):
    """Bitmask of the players with the top score (no tie-break in the rules: ties draw)."""
    best = -1
    mask = 0
    for p in range(N_PLAYERS):
        s = score(K[p])
        if s > best:
            best = s
            mask = 1 << p
        elif s == best:
            mask |= 1 << p
    return mask


@njit(cache=True)
def put_tiles(k, tiles):
    """Hand-made kingdoms (tests, book examples): add tiles ``(drow, dcol, terrain, crowns)``
    given relative to the castle, one by one, keeping every incremental total right."""
    for i in range(tiles.shape[0]):
        r = 5 + tiles[i, 0]
        c = 5 + tiles[i, 1]
        x = r * W + c
        k[K_MINR] = min(k[K_MINR], r)
        k[K_MAXR] = max(k[K_MAXR], r)
        k[K_MINC] = min(k[K_MINC], c)
        k[K_MAXC] = max(k[K_MAXC], c)
        _put_tile(k, x, tiles[i, 2], tiles[i, 3])


def cell(drow: int, dcol: int) -> int:
    """Grid cell of the square ``drow`` rows and ``dcol`` columns from the castle."""
    return (5 + drow) * W + 5 + dcol


#: A playout defers its scoring when this many rounds or more follow its first; near the end
#: too few tiles go down to repay four flood fills (measured from move 13: 0.7x the rate).
LAZY_ROUNDS = 3


@njit(cache=True)
def play_out_random(G, K, rng, buf, draft):
    """Every player plays TR to the end (in place; new drafts from ``rng``): the TR playout.

    The same draws in the same order as ``apply_move(G, K, random_move(...))`` in a loop, so
    the same game; but random play reads no score, so tiles go down without the region
    bookkeeping and each kingdom is rescored once at the end (measured: 1.3-1.8x the
    playouts per second of the loop from move indices 1-9). The move is written out here, not
    encoded by ``random_move`` and decoded by ``apply_move`` with a flag for the scoring: that
    shared version measured 8-10 % slower."""
    lazy = N_ROUNDS - G[G_ROUND] >= LAZY_ROUNDS
    while G[G_DONE] == 0:
        p = current_player(G)
        pick = random_pick(G, rng)
        if G[G_ROUND] > 1:
            d = domino_to_place(G)
            pl = random_placement(K[p], d, rng, buf)
            if pl == PLACE_DISCARD:
                K[p, K_DISCARDED] += 1
            elif lazy:
                _place_unscored(K[p], pl, d)
            else:
                place(K[p], pl, d)
        _advance(G, p, pick, rng, draft, False)
    if lazy:
        stack = np.empty(32, dtype=np.int64)
        for p in range(N_PLAYERS):
            rescore(K[p], stack)
