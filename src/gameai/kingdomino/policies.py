"""Static evaluators and playout policies (paper §III-A, §III-C; chapter spec "Agents").

* TR - uniform over legal moves (``rules.random_move``).
* Greedy core, shared by GPRD and FG: value = the own kingdom's full score (bonuses included).
  Candidates that put a tile outside the castle-centred 5x5 (they break the Middle Kingdom) or
  leave a single-cell hole are dropped unless that drops them all; ties break uniformly at
  random. Round 1 (the first pick): the domino with the most crowns on one tile.
* GPRD - greedy placement, random pick.  FG - every (placement, pick) is valued by the best
  greedy placement of the picked domino in the kingdom the placement leaves (two plies of the
  own kingdom). The authors' FG places its last domino at random through a fallback bug, and
  its first at random too (:func:`fg_authors_move`); FG plays the correct greedy, and the
  authors' is there for the like-for-like checks (agents ``FG*`` and ``FGA``).

Readings of the spec where it leaves a choice (say so in the chapter):

* "First pick (and first placement)": round 1's pick, for GPRD and FG alike, takes the most
  crowns on one tile; from round 2 on (the first placement) the ordinary greedy rule applies -
  with the castle alone it already favours crowned tiles.
* FG's second ply uses the same greedy core (filters included) as its first.
* The hole filter looks at the whole centre 5x5: a hole left earlier (holes are permanent: a
  single cell never takes a domino) makes every candidate "leave a hole", so all are kept.
* Playout policies for MCE/UCT: TR, FG, PG (the searching player FG, opponents TR) and
  eps-G (every player: TR with probability eps = 0.75, else FG). A policy code plus
  ``GREEDY_AUTHORS`` plays the greedy moves of a playout as the authors' code does
  (:func:`fg_authors_move`), for the like-for-like checks.

All functions take preallocated buffers (``Buf``: see :func:`new_buffers`) so that a playout
allocates nothing large.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dominoes import DOMINOES
from .rules import (
    CASTLE_CELL,
    CENTRE_HI,
    CENTRE_LO,
    G_CUR,
    G_CUROWN,
    G_DONE,
    G_ROUND,
    IN_CENTRE,
    K_CRW,
    K_EMPTY,
    K_MAXC,
    K_MAXR,
    K_MINC,
    K_MINR,
    K_TER,
    KLEN,
    LOWBIT,
    MAX_PLACEMENTS,
    N_PLAYERS,
    N_ROUNDS,
    OFFS,
    PICK_NONE,
    PLACE_DISCARD,
    PLACE_NONE,
    W,
    _row_bits,
    _skip,
    apply_move,
    copy_into,
    current_player,
    domino_to_place,
    encode,
    gain,
    gen_placements,
    n_dirs,
    place,
    play_out_random,
    random_move,
    random_pick,
    random_placement,
    randint,
    score,
    window,
)

POL_TR = 0
POL_EG = 1
POL_PG = 2
POL_FG = 3
POLICY_NAMES = ("TR", "εG", "PG", "FG")
EPSILON = 0.75  # eps-greedy: random with probability 0.75 (paper §V-E: greedy 25 % of moves)

# rows of the placement buffer ``pb``: 0 = the move's placements, 1 = the second ply (``gb[1]``:
# its values per pick), 2 = scratch for the random policy's fallback enumeration
PB_ROWS = 3


@njit(cache=True)
def new_buffers():
    """(pb, gb, scratch): placement lists, their gains, a scratch kingdom for FG's second ply."""
    pb = np.empty((PB_ROWS, MAX_PLACEMENTS), dtype=np.int64)
    gb = np.empty((PB_ROWS, MAX_PLACEMENTS), dtype=np.int64)
    scratch = np.empty(KLEN, dtype=np.int64)
    return pb, gb, scratch


# ------------------------------------------------------------------------------ greedy core
#: Bit ``e - HOLE_BASE`` of a hole mask stands for centre cell ``e`` (the centre spans 49 bits:
#: five rows of ``W`` bits, of which the first five are the centre's columns).
HOLE_BASE = CENTRE_LO * W + CENTRE_LO
CENTRE_W = CENTRE_HI - CENTRE_LO + 1
#: The castle's bit: a neighbour that keeps a cell from being a hole is an empty centre cell or
#: the castle (the authors' check counts the castle cell as free - spec).
CASTLE_BIT = np.int64(1) << (CASTLE_CELL - HOLE_BASE)


@njit(cache=True, inline="always")
def _centre_row(mask, r):
    """Row ``r`` of a hole mask as a row bitmask (bit c = column c; 0 outside the centre)."""
    if r < CENTRE_LO or r > CENTRE_HI:
        return np.int64(0)
    return ((mask >> ((r - CENTRE_LO) * W)) & ((1 << CENTRE_W) - 1)) << CENTRE_LO


@njit(cache=True)
def hole_masks(k):
    """(holes, one_free): the empty centre cells with no free neighbour (single-cell holes) and
    those with exactly one, as bitmasks (bit ``e - HOLE_BASE``).

    Bit-parallel: the empty centre cells come from the placement generator's row masks
    (``K_EMPTY``), and shifting the mask of free cells by one cell right, down, left and up
    lines up each cell's four neighbours, so "no free neighbour" and "exactly one" are a few
    bit operations for the whole centre (the cell-by-cell count it replaces:
    ``reference.hole_masks_reference``, measured several times slower). A shifted bit that
    lands outside the centre's columns lands on a bit no empty centre cell uses."""
    empty = np.int64(0)
    for r in range(CENTRE_LO, CENTRE_HI + 1):
        empty |= ((k[K_EMPTY + r] >> CENTRE_LO) & ((1 << CENTRE_W) - 1)) << (
            (r - CENTRE_LO) * W)
    free = empty | CASTLE_BIT
    a = free >> 1  # the right neighbour's bit, at the cell's position
    b = free >> W  # below
    c = free << 1  # left
    u = free << W  # above
    some = a | b | c | u
    two = (a & b) | (a & c) | (a & u) | (b & c) | (b & u) | (c & u)
    return empty & ~some, empty & some & ~two


@njit(cache=True, inline="always")
def makes_hole(pl, one_free):
    """Would placement ``pl`` leave a single-cell hole next to its tiles, in a kingdom that has
    none yet? A tile on a centre cell ``x`` takes a free neighbour from each empty centre cell
    ``e`` next to it (never from one next to both tiles: a grid has no triangles), so ``e``
    becomes a hole exactly when ``x`` was its only free neighbour (``one_free``, from
    ``hole_masks``). :func:`_hole_bits` asks the same of a whole row of placements."""
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
def _hole_bits(one_free, r, dr):
    """:func:`makes_hole` for a row at once: bit c set when tile 1 on (r, c), tile 2 in
    direction ``dr``, has a neighbour other than its partner among the ``one_free`` cells.
    Only for placements inside the centre (the candidates' first pass), where both tiles count."""
    o = _centre_row(one_free, r)
    if dr == 0:  # tile 2 at (r, c+1): (r, c-1), (r, c+2), (r+-1, c), (r+-1, c+1)
        v = _centre_row(one_free, r - 1) | _centre_row(one_free, r + 1)
        return (o << 1) | (o >> 2) | v | (v >> 1)
    if dr == 2:  # tile 2 at (r, c-1): (r, c+1), (r, c-2), (r+-1, c), (r+-1, c-1)
        v = _centre_row(one_free, r - 1) | _centre_row(one_free, r + 1)
        return (o >> 1) | (o << 2) | v | (v << 1)
    if dr == 1:  # tile 2 at (r+1, c): (r-1, c), (r+2, c), (r, c+-1), (r+1, c+-1)
        o2 = _centre_row(one_free, r + 1)
        return (_centre_row(one_free, r - 1) | _centre_row(one_free, r + 2) | (o << 1)
                | (o >> 1) | (o2 << 1) | (o2 >> 1))
    # tile 2 at (r-1, c): (r+1, c), (r-2, c), (r, c+-1), (r-1, c+-1)
    o2 = _centre_row(one_free, r - 1)
    return (_centre_row(one_free, r + 1) | _centre_row(one_free, r - 2) | (o << 1) | (o >> 1)
            | (o2 << 1) | (o2 >> 1))


@njit(cache=True, inline="always")
def _centre_window(k):
    """The placement window (``rules.window``) cut to the castle-centred 5x5."""
    r0, r1, c0, c1 = window(k)
    return max(r0, CENTRE_LO), min(r1, CENTRE_HI), max(c0, CENTRE_LO), min(c1, CENTRE_HI)


@njit(cache=True, inline="always")
def _gen_no_hole(k, d, out, r0, r1, c0, c1, one_free):
    """``rules.gen_placements`` inside the centre window, less the placements that leave a
    hole: the same placements in the same order as generating them all and dropping those
    :func:`makes_hole` flags, but the filter takes a row of them at once."""
    nd = n_dirs(d)
    t1 = DOMINOES[d, 0]
    t2 = DOMINOES[d, 2]
    wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
    n = 0
    for r in range(r0, r1 + 1):
        for dr in range(nd):
            if _skip(dr, r, r0, r1):
                continue
            bits = _row_bits(k, t1, t2, r, dr, wm) & ~_hole_bits(one_free, r, dr)
            while bits:
                out[n] = (r * W + LOWBIT[bits]) * 4 + dr
                n += 1
                bits &= bits - 1
    return n


@njit(cache=True)
def greedy_candidates(k, d, out, gains):
    """The greedy core's candidate placements of domino ``d`` and their score gains.

    First the legal placements inside the castle-centred 5x5 that leave no hole (a hole that is
    already there means every candidate leaves one, so all are dropped); if none survive, every
    legal placement is kept (spec). Returns the count (0: the domino must be discarded)."""
    holes, one_free = hole_masks(k)
    return _candidates(k, d, out, gains, holes, one_free)


@njit(cache=True, inline="always")
def _candidates(k, d, out, gains, holes, one_free):
    """``greedy_candidates`` given ``hole_masks(k)``."""
    n = 0
    if holes == 0:
        r0, r1, c0, c1 = _centre_window(k)
        n = _gen_no_hole(k, d, out, r0, r1, c0, c1, one_free)
        for i in range(n):
            gains[i] = gain(k, out[i], d)
    if n == 0:
        r0, r1, c0, c1 = window(k)
        n = gen_placements(k, d, out, r0, r1, c0, c1)
        for i in range(n):
            gains[i] = gain(k, out[i], d)
    return n


@njit(cache=True, inline="always")
def _best_gain(k, d, r0, r1, wm, nd, one_free, hole_filter):
    """The largest ``gain`` of domino ``d`` over the placements in rows r0..r1 and columns
    ``wm`` (with ``hole_filter``, less those that leave a hole); (found, gain). Only the
    maximum is needed, so no placement list is written."""
    t1 = DOMINOES[d, 0]
    t2 = DOMINOES[d, 2]
    found = False
    best = 0
    for r in range(r0, r1 + 1):
        for dr in range(nd):
            if _skip(dr, r, r0, r1):
                continue
            bits = _row_bits(k, t1, t2, r, dr, wm)
            if hole_filter:
                bits &= ~_hole_bits(one_free, r, dr)
            while bits:
                g = gain(k, (r * W + LOWBIT[bits]) * 4 + dr, d)
                if not found or g > best:
                    best = g
                    found = True
                bits &= bits - 1
    return found, best


@njit(cache=True)
def greedy_value(k, d, holes, one_free):
    """The best score the greedy core reaches by placing ``d`` on ``k`` (no placement: the score
    as it stands, the domino is discarded); ``holes, one_free = hole_masks(k)``, which FG's
    second ply computes once for all the picks it tries. The candidates of
    :func:`greedy_candidates`, but only their best gain is kept."""
    nd = n_dirs(d)
    found = False
    best = 0
    if holes == 0:
        r0, r1, c0, c1 = _centre_window(k)
        wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
        found, best = _best_gain(k, d, r0, r1, wm, nd, one_free, True)
    if not found:
        r0, r1, c0, c1 = window(k)
        wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
        found, best = _best_gain(k, d, r0, r1, wm, nd, one_free, False)
    return score(k) + best


@njit(cache=True)
def _second_ply(k, G, picks, npk, holes, one_free, vals):
    """FG's second ply: :func:`greedy_value` of each free slot's domino on ``k`` into
    ``vals[:npk]`` (``picks``: the slots, 3 bits apiece). One pass over the centre's rows
    serves every pick: the window, the empty cells and the hole filter of a row are the same
    for all of them; only the terrains differ. A pick with no candidate there falls back to
    every legal placement, as :func:`greedy_value` does."""
    s = score(k)
    found = 0  # bit j: pick j has a candidate in the centre
    if holes == 0:
        r0, r1, c0, c1 = _centre_window(k)
        wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
        for r in range(r0, r1 + 1):
            for dr in range(4):
                if _skip(dr, r, r0, r1):
                    continue
                keep = ~_hole_bits(one_free, r, dr)
                for j in range(npk):
                    d = G[G_CUR + ((picks >> (3 * j)) & 7)]
                    if dr >= n_dirs(d):
                        continue
                    bits = _row_bits(k, DOMINOES[d, 0], DOMINOES[d, 2], r, dr, wm) & keep
                    while bits:
                        g = gain(k, (r * W + LOWBIT[bits]) * 4 + dr, d)
                        if (found >> j) & 1 == 0 or g > vals[j]:
                            vals[j] = g
                            found |= 1 << j
                        bits &= bits - 1
    for j in range(npk):
        if (found >> j) & 1 == 0:
            d = G[G_CUR + ((picks >> (3 * j)) & 7)]
            r0, r1, c0, c1 = window(k)
            wm = ((1 << (c1 + 1)) - 1) & ~((1 << c0) - 1)
            _, g = _best_gain(k, d, r0, r1, wm, n_dirs(d), one_free, False)
            vals[j] = g
        vals[j] += s


@njit(cache=True)
def most_crowns_pick(G, rng):
    """Round 1 (spec "First pick"): the free domino with the most crowns on one tile, ties at
    random."""
    best = -1
    pick = PICK_NONE
    ties = 0
    for i in range(4):
        if G[G_CUROWN + i] >= 0:  # taken
            continue
        d = G[G_CUR + i]
        c = max(DOMINOES[d, 1], DOMINOES[d, 3])
        if c > best:
            best = c
            pick = i
            ties = 1
        elif c == best:
            ties += 1
            if randint(rng, ties) == 0:
                pick = i
    return pick


@njit(cache=True)
def _argmax_random(vals, n, rng):
    """Index of the maximum of ``vals[:n]``, ties uniformly at random (reservoir)."""
    best = 0
    ties = 1
    for i in range(1, n):
        if vals[i] > vals[best]:
            best = i
            ties = 1
        elif vals[i] == vals[best]:
            ties += 1
            if randint(rng, ties) == 0:
                best = i
    return best


@njit(cache=True)
def gprd_move(G, K, rng, pb, gb):
    """GPRD: greedy placement, uniformly random pick (round 1: most crowns)."""
    if G[G_ROUND] == 1:
        return encode(PLACE_NONE, most_crowns_pick(G, rng))
    pick = random_pick(G, rng)
    k = K[current_player(G)]
    n = greedy_candidates(k, domino_to_place(G), pb[0], gb[0])
    if n == 0:
        return encode(PLACE_DISCARD, pick)
    return encode(pb[0, _argmax_random(gb[0], n, rng)], pick)


# ----------------------------------------------------------------------------------- FG memo
# FG's move is a pure function of the mover's kingdom (its terrain and crowns: all else that FG
# reads from the row follows from them), the domino to place and the draft's free slots; only
# its tie-breaks draw from the random stream, one double each. A playout from a late position
# meets the same (kingdom, domino, draft) again and again - few dominoes are left to draw - so
# FG keeps, per key, what its loop over (placement, pick) found: how many tie-break draws came
# before the last run of equal best values, and that run's moves. Replaying draws the same
# doubles and picks the same move, so every game is the same as without the memo
# (``tests/kingdomino/test_kd_memo.py``; issue 45). One row per key slot (direct-mapped: a new
# key overwrites the old); a run of more than ``MEMO_MOVES`` ties is not kept. Measured on
# Table III games at T = 4 s (``gameai bench kingdomino``, memo off and on side by side, on a
# loaded 2-core machine, +-10 %): MCE-FG/R 1.4-1.6x, UCT-FG 1.15x in our rule and like for
# like, UCT-PG about 1.0x; eps-G playouts go without it (random moves: slower with it).
MEMO_BITS = 15  # 32,768 slots
MEMO_MOVES = 26
MEMO_MIN_CANDIDATES = 2  # one placement: FG costs no more than a lookup
M_KEY = 0  # 4 words: the kingdom's cells (3); the domino, bounding box and free slots (1)
M_SKIP = 4  # tie-break draws before the last run
M_N = 5  # the last run's length (-1: an empty slot)
M_MOVES = 6
M_COLS = M_MOVES + MEMO_MOVES  # 256-byte rows


@njit(cache=True)
def new_memo(bits=MEMO_BITS):
    """An empty FG memo of ``2**bits`` slots (``bits`` = 0 gives one with no slot: no memo)."""
    memo = np.empty((1 << bits if bits > 0 else 0, M_COLS), dtype=np.int64)
    memo[:, M_N] = -1
    return memo


@njit(cache=True, inline="always")
def _memo_key(k, d, G, picks, npk):
    """The memo's key words: the cells of the kingdom's bounding box (at most 5x5), 5 bits
    apiece (terrain 0..7, crowns 0..3), 12 to a word (3 words); then ``d``, the box and each
    free slot with its domino (58 bits at most)."""
    r0 = k[K_MINR]
    c0 = k[K_MINC]
    w0 = w1 = w = 0  # the three cell words, built in turn
    i = 0
    for r in range(r0, k[K_MAXR] + 1):
        for c in range(c0, k[K_MAXC] + 1):
            y = r * W + c
            w = (w << 5) | (k[K_TER + y] << 2) | k[K_CRW + y]
            i += 1
            if i == 12:
                w0 = w
                w = 0
            elif i == 24:
                w1 = w
                w = 0
    w3 = (d << 16) | (r0 << 12) | (c0 << 8) | ((k[K_MAXR] - r0) << 4) | (k[K_MAXC] - c0)
    for j in range(npk):
        slot = (picks >> (3 * j)) & 7
        w3 = (w3 << 9) | (slot << 6) | G[G_CUR + slot]
    return w0, w1, w, w3


@njit(cache=True, inline="always")
def _memo_slot(memo, w0, w1, w2, w3):
    h = (w0 * -7046029254386353131 + w1) * -4658895280553007687 + w2
    h = (h * -7046029254386353131 + w3) * -4658895280553007687
    return (h >> 40) & (memo.shape[0] - 1)


@njit(cache=True, inline="always")
def _memo_hit(memo, s, w0, w1, w2, w3):
    return (memo[s, M_N] >= 0 and memo[s, M_KEY] == w0 and memo[s, M_KEY + 1] == w1
            and memo[s, M_KEY + 2] == w2 and memo[s, M_KEY + 3] == w3)


@njit(cache=True)
def _memo_replay(memo, s, rng):
    """FG's move from memo slot ``s``, drawing what its loop would draw."""
    for _ in range(memo[s, M_SKIP]):
        rng.random()
    best = memo[s, M_MOVES]
    for t in range(1, memo[s, M_N]):
        if randint(rng, t + 1) == 0:
            best = memo[s, M_MOVES + t]
    return best


@njit(cache=True)
def fg_move(G, K, rng, pb, gb, scratch, memo):
    """FG: maximise the own score two plies deep - this placement, then the best greedy
    placement of the picked domino in the kingdom it leaves. Ties at random. ``memo``
    (:func:`new_memo`; no slots: none) keeps each key's result for the next time."""
    if G[G_ROUND] == 1:
        return encode(PLACE_NONE, most_crowns_pick(G, rng))
    k = K[current_player(G)]
    d = domino_to_place(G)
    npk = 0  # the free slots of the draft, in slot order (``free_picks``, without allocating)
    picks = 0  # ... packed 3 bits apiece
    if G[G_ROUND] != N_ROUNDS:
        for i in range(4):
            if G[G_CUROWN + i] < 0:
                picks |= i << (3 * npk)
                npk += 1
    n = greedy_candidates(k, d, pb[0], gb[0])
    s = -1
    if npk > 0 and n >= MEMO_MIN_CANDIDATES and memo.shape[0] > 0:
        w0, w1, w2, w3 = _memo_key(k, d, G, picks, npk)
        s = _memo_slot(memo, w0, w1, w2, w3)
        if _memo_hit(memo, s, w0, w1, w2, w3):
            return _memo_replay(memo, s, rng)
        memo[s, M_KEY] = w0
        memo[s, M_KEY + 1] = w1
        memo[s, M_KEY + 2] = w2
        memo[s, M_KEY + 3] = w3
    if npk == 0:  # round 13: place only
        if n == 0:
            return encode(PLACE_DISCARD, PICK_NONE)
        return encode(pb[0, _argmax_random(gb[0], n, rng)], PICK_NONE)
    if n == 0:
        pb[0, 0] = PLACE_DISCARD
        n = 1
    best = -(1 << 30)
    best_move = -1
    ties = 0
    skip = 0  # tie-break draws before the current run of ties (for the memo)
    for i in range(n):
        pl = pb[0, i]
        copy_into(scratch, k)
        if pl != PLACE_DISCARD:
            place(scratch, pl, d)
        holes, one_free = hole_masks(scratch)
        _second_ply(scratch, G, picks, npk, holes, one_free, gb[1])
        for j in range(npk):  # in slot order: the tie-breaks draw as before
            slot = (picks >> (3 * j)) & 7
            v = gb[1, j]
            if v > best:
                best = v
                best_move = encode(pl, slot)
                skip += ties - 1 if ties > 0 else 0
                ties = 1
            elif v == best:
                ties += 1
                if randint(rng, ties) == 0:
                    best_move = encode(pl, slot)
            else:
                continue
            if s >= 0 and ties <= MEMO_MOVES:  # the run's moves, in the order drawn
                memo[s, M_MOVES + ties - 1] = encode(pl, slot)
    if s >= 0:
        memo[s, M_SKIP] = skip
        memo[s, M_N] = ties if ties <= MEMO_MOVES else -1
    return best_move


@njit(cache=True)
def fg_authors_move(G, K, rng, pb, gb, scratch, memo):
    """FG as the authors' code plays it (Gedda et al., kdom-ai: ``TinyFullGreedy`` and
    ``TinyGreedyAlgorithm``), the greedy of their FG opponents and of their playouts alike.
    It differs from :func:`fg_move` in two rounds:

    * round 2, the first placement: with no tile placed but the castle, their code skips the
      evaluation and takes a move whose picked domino has the most crowns on one tile, at
      random among those moves - the placement is uniformly random;
    * round 13, the last placement: nothing is left to pick, their evaluation falls back to the
      kingdom as it stands, every placement ties and one is drawn at random (the fallback bug
      of ``FG*``).

    Their greedy's own score never counts Harmony (its placed cells include the castle, so
    they never number 24); that can only change a round-12 choice between placing a domino
    and discarding it, and is not reproduced."""
    r = G[G_ROUND]
    if r == N_ROUNDS:
        return random_move(G, K, rng, pb[2])
    if r == 2:
        pick = most_crowns_pick(G, rng)
        p = current_player(G)
        return encode(random_placement(K[p], domino_to_place(G), rng, pb[2]), pick)
    return fg_move(G, K, rng, pb, gb, scratch, memo)


# --------------------------------------------------------------------------------- playouts
#: Added to a playout policy code (POL_*): the playout's greedy moves are the authors' FG
#: (:func:`fg_authors_move`) instead of ours. Policy codes stay below it.
GREEDY_AUTHORS = 4


@njit(cache=True, inline="always")
def _greedy(G, K, authors, rng, pb, gb, scratch, memo):
    if authors:
        return fg_authors_move(G, K, rng, pb, gb, scratch, memo)
    return fg_move(G, K, rng, pb, gb, scratch, memo)


@njit(cache=True)
def policy_move(G, K, policy, searcher, rng, pb, gb, scratch, memo):
    """One move of a playout under ``policy`` (POL_*, plus ``GREEDY_AUTHORS`` for the authors'
    greedy); ``searcher`` matters for PG only."""
    authors = policy >= GREEDY_AUTHORS
    base = policy % GREEDY_AUTHORS
    if base == POL_TR:
        return random_move(G, K, rng, pb[2])
    if base == POL_FG:
        return _greedy(G, K, authors, rng, pb, gb, scratch, memo)
    if base == POL_PG:
        if current_player(G) == searcher:
            return _greedy(G, K, authors, rng, pb, gb, scratch, memo)
        return random_move(G, K, rng, pb[2])
    if rng.random() < EPSILON:
        return random_move(G, K, rng, pb[2])
    # no memo: after random moves the positions seldom recur (measured: slower with one)
    return _greedy(G, K, authors, rng, pb, gb, scratch, memo[:0])


@njit(cache=True)
def playout(G, K, policy, searcher, rng, pb, gb, scratch, draft, memo):
    """Play to the end (in place). New drafts come from ``rng``: every playout re-samples the
    unseen dominoes."""
    if policy % GREEDY_AUTHORS == POL_TR:  # the common case without the per-move dispatch
        play_out_random(G, K, rng, pb[2], draft)
        return
    while G[G_DONE] == 0:
        m = policy_move(G, K, policy, searcher, rng, pb, gb, scratch, memo)
        apply_move(G, K, m, rng, draft, False)


# ---------------------------------------------------------------------------------- rewards
SC_WDL = 0
SC_P = 1
SC_R = 2
SCORING_NAMES = ("WDL", "P", "R")


@njit(cache=True)
def reward(K, me, scoring):
    """Playout score Y (spec): WDL 1 / (1/k for a k-way tie at the top) / 0; P own score;
    R = p / (p + q) with q the best opponent's score."""
    p = score(K[me])
    q = -1
    for o in range(N_PLAYERS):
        if o != me:
            s = score(K[o])
            if s > q:
                q = s
    if scoring == SC_P:
        return float(p)
    if scoring == SC_R:
        if p + q == 0:
            return 0.5
        return p / (p + q)
    if p < q:
        return 0.0
    if p > q:
        return 1.0
    k = 0
    for o in range(N_PLAYERS):
        if score(K[o]) == p:
            k += 1
    return 1.0 / k
