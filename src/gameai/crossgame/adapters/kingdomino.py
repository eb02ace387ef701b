"""Kingdomino (4 players, all 48 dominoes, the engine's rules) on the cross-game interface.

State ``s`` = ``[G | K | deck]``: the engine's game state ``G`` (:data:`rules.G_LEN` values,
at offset 0, so ``s`` itself serves as ``G`` wherever only ``G``'s fields are read), its four
kingdoms ``K`` (``4 x KLEN``) and ``deck``, the 48 dominoes in the order they are drafted: slots
``4r..4r+3`` are the draft of round ``r + 1`` (r = 0..11), each block sorted by domino number
as the engine's drafts are. ``g`` = ``[GAME_KINGDOMINO, 0]``.

The engine draws a draft from the random stream only when the previous draft is complete; here
the order is fixed at the deal so that ``apply`` needs no random stream and a determinization
fixes the future. The only hidden information is that order: which undrawn domino goes into
which future draft (the kingdoms, the drafts on the table, who picked what and the round-1 pick
order are public). Every player knows the same, so :func:`determinize` ignores ``seat``: it
lists the undrawn dominoes by number (from the public set of drawn dominoes, ``G_SEEN``),
shuffles them and deals them into the future drafts.

Moves are the engine's codes ``place * 5 + pick`` (placement-major, :func:`rules.legal_moves`),
``pick`` a slot of the current draft. Their key replaces the slot by the domino in it (and adds
the domino being placed): after a new draft a slot holds different dominoes in different
determinizations, the domino does not. The baseline is the paper's greedy player FG (the
correct one, not the authors' FG*); the playout is TR (uniformly random legal moves, the engine's
own playout with the drafts taken from ``deck``); the reward is 1 for the unique top score,
``1/k`` for a ``k``-way tie at the top (no tie-break in the rules), 0 otherwise - the engine's
WDL scoring.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kingdomino import policies as P
from ...kingdomino import rules as R

N_SEATS = R.N_PLAYERS
N_DOM = 48
O_G = 0
O_K = R.G_LEN
O_DECK = O_K + N_SEATS * R.KLEN
S_LEN = O_DECK + N_DOM
#: move keys: ((domino placed + 1) * KEY_PLACES + place) * KEY_PICKS + domino picked (0: none)
KEY_PLACES = 512
KEY_PICKS = 64

#: The measure the chapter plots.
HEADLINE = "win"


def new_game(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A freshly dealt game ``(s, g)``: the engine's deal (a random round-1 pick order and the
    first draft) and then the order of the other 44 dominoes, all from ``rng``."""
    from ..games import GAME_KINGDOMINO

    G, K = R.new_game(rng)
    s = np.zeros(S_LEN, dtype=np.int64)
    s[O_G:O_K] = G
    s[O_K:O_DECK] = K.ravel()
    s[O_DECK:O_DECK + 4] = G[R.G_CUR:R.G_CUR + 4]  # the first draft
    _deal_rest(s, rng)
    return s, np.array([GAME_KINGDOMINO, 0], dtype=np.int64)


@njit(cache=True)
def _views(s):
    G = s[O_G:O_K]
    K = s[O_K:O_DECK].reshape((N_SEATS, R.KLEN))
    deck = s[O_DECK:S_LEN]
    return G, K, deck


@njit(cache=True)
def _n_drawn(s):
    """Dominoes drafted so far (public: the bits of ``G_SEEN``)."""
    seen = s[O_G + R.G_SEEN]
    n = 0
    for i in range(N_DOM):
        n += (seen >> i) & 1
    return n


@njit(cache=True)
def _deal_rest(s, rng):
    """Deal the dominoes not yet drafted into ``deck[drawn:]``: listed by number, shuffled
    (Fisher-Yates), each future draft sorted. Reads only the public ``G_SEEN``."""
    seen = s[O_G + R.G_SEEN]
    pool = np.empty(N_DOM, dtype=np.int64)
    k = 0
    for d in range(1, N_DOM + 1):
        if (seen >> (d - 1)) & 1 == 0:
            pool[k] = d
            k += 1
    for i in range(k - 1, 0, -1):
        j = R.randint(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    drawn = N_DOM - k  # a multiple of 4: whole drafts
    for i in range(k):
        s[O_DECK + drawn + i] = pool[i]
    for b in range(O_DECK + drawn, S_LEN, 4):  # each draft sorted, as the engine's are
        for i in range(b + 1, b + 4):
            x = s[i]
            j = i
            while j > b and s[j - 1] > x:
                s[j] = s[j - 1]
                j -= 1
            s[j] = x


@njit(cache=True, inline="always")
def _next_draft(G, deck):
    """The draft the end of the current round reveals (round r ends: deck[4r:4r+4]; rounds 12
    and 13 reveal none and never read it)."""
    b = 4 * min(G[R.G_ROUND], 11)
    return deck[b:b + 4]


@njit(cache=True)
def _advance(G, deck, p, pick):
    """:func:`rules._advance` with the kept draft (``given``), without a random stream: take
    slot ``pick``, pass the turn, end the round (the next draft from ``deck``). A copy because
    the engine's takes a generator even when it draws nothing, and ``apply`` has none; the
    tests check it against ``rules.apply_move(..., given=True)`` after every move."""
    if pick < R.PICK_NONE:
        G[R.G_CUROWN + pick] = p
    G[R.G_TURN] += 1
    G[R.G_NMOVES] += 1
    if G[R.G_TURN] < R.N_PLAYERS:
        return
    r = G[R.G_ROUND]
    G[R.G_TURN] = 0
    if r == R.N_ROUNDS:
        G[R.G_DONE] = 1
        return
    for i in range(4):
        G[R.G_PREV + i] = G[R.G_CUR + i]
        G[R.G_PREVOWN + i] = G[R.G_CUROWN + i]
    G[R.G_ROUND] = r + 1
    if r + 1 == R.N_ROUNDS:
        for i in range(4):
            G[R.G_CUR + i] = -1
            G[R.G_CUROWN + i] = -1
        return
    for i in range(4):  # round r ended: its successor's draft is deck[4r:4r+4]
        d = deck[4 * r + i]
        G[R.G_SEEN] |= np.int64(1) << (d - 1)
        G[R.G_CUR + i] = d
        G[R.G_CUROWN + i] = -1


@njit(cache=True)
def n_seats(g):
    return N_SEATS


@njit(cache=True)
def current(s, g):
    if s[O_G + R.G_DONE] != 0:
        return -1
    return R.current_player(s)


@njit(cache=True)
def legal(s, g, mv):
    G, K, deck = _views(s)
    pbuf = np.empty(R.MAX_PLACEMENTS, dtype=np.int64)
    return R.legal_moves(G, K, mv, pbuf)


@njit(cache=True)
def move_key(s, g, m):
    """The domino placed, where (cell and direction, or discard / none) and the domino picked:
    the same move in every determinization of one information set."""
    pick = m % 5
    picked = 0
    if pick < R.PICK_NONE:
        picked = s[O_G + R.G_CUR + pick]
    placed = R.domino_to_place(s)  # -1 in round 1
    return ((placed + 1) * KEY_PLACES + m // 5) * KEY_PICKS + picked


@njit(cache=True)
def apply(s, g, m):
    """:func:`rules.apply_move` with the next draft taken from ``deck``."""
    G, K, deck = _views(s)
    p = R.current_player(G)
    pl = m // 5
    if pl < R.PLACE_DISCARD:
        R.place(K[p], pl, R.domino_to_place(G))
    elif pl == R.PLACE_DISCARD:
        K[p, R.K_DISCARDED] += 1
    _advance(G, deck, p, m % 5)


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    """Everything public kept (kingdoms, drafts on the table, picks, the drafted dominoes and
    their order); the undrawn dominoes, listed by number, shuffled into the future drafts.
    ``seat`` knows no more than anyone else, so it is not read."""
    R.copy_into(out, s)
    _deal_rest(out, rng)


@njit(cache=True)
def playout(s, g, rng):
    """TR to the end: the engine's :func:`rules.play_out_random` (the same random placements
    and picks, the regions rescored once at the end when enough rounds follow), with each new
    draft taken from ``deck`` (the engine's kept-draft path, ``given``) instead of drawn."""
    G, K, deck = _views(s)
    buf = np.empty(4 * R.W, dtype=np.int64)
    lazy = R.N_ROUNDS - G[R.G_ROUND] >= R.LAZY_ROUNDS
    while G[R.G_DONE] == 0:
        p = R.current_player(G)
        pick = R.random_pick(G, rng)
        if G[R.G_ROUND] > 1:
            d = R.domino_to_place(G)
            pl = R.random_placement(K[p], d, rng, buf)
            if pl == R.PLACE_DISCARD:
                K[p, R.K_DISCARDED] += 1
            elif lazy:
                R._place_unscored(K[p], pl, d)
            else:
                R.place(K[p], pl, d)
        R._advance(G, p, pick, rng, _next_draft(G, deck), True)
    if lazy:
        stack = np.empty(32, dtype=np.int64)
        for p in range(N_SEATS):
            R.rescore(K[p], stack)


@njit(cache=True)
def reward(s, g, seat):
    """1 for the unique top score, 1/k for a k-way tie at the top, else 0 (the engine's WDL)."""
    G, K, deck = _views(s)
    return P.reward(K, seat, P.SC_WDL)


@njit(cache=True)
def baseline(s, g, rng):
    """FG, the paper's greedy player (the correct one, :func:`policies.fg_move`)."""
    G, K, deck = _views(s)
    pb, gb, scratch = P.new_buffers()
    return P.fg_move(G, K, rng, pb, gb, scratch, P.new_memo(0))


def measure(s: np.ndarray, g: np.ndarray, seat: int) -> dict[str, float]:
    """``win`` (the reward: 1 for the unique top score, 1/k in a k-way tie at the top, else 0),
    ``draw`` (1: ``seat`` shares the top score), ``score`` (``seat``'s final score) and
    ``margin`` (that score minus the best opponent's)."""
    G, K, deck = _views(s)
    scores = [int(R.score(K[p])) for p in range(N_SEATS)]
    best_other = max(scores[p] for p in range(N_SEATS) if p != seat)
    return {"win": float(reward(s, g, seat)), "draw": float(scores[seat] == best_other),
            "score": float(scores[seat]), "margin": float(scores[seat] - best_other)}
