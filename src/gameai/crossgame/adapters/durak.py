"""Durak (podkidnoy, OpenFool's rules) on the cross-game interface.

State ``s`` = ``[st | talon | hands]``: the engine's ``st`` (:data:`rules.ST_LEN` values), its
talon (every card of the deck, :data:`MAX_DECK` slots) and its ``hands`` (``n x MAX_HAND``),
read back as views so that :mod:`gameai.durak.rules` runs on them unchanged. ``g`` =
``[GAME_DURAK, 0, sp...]`` with the engine's rule switches ``sp``.

Moves are the engine's actions (a hand slot, take, pass, transfer + slot); their key is the card
(``1000`` pass, ``1001`` take, ``2000 + card`` transfer), which names the same move in every
determinization. The baseline is OpenFool's EvalAI (the article's evaluator, as in the Durak
chapter); the reward is 0 for the fool, 1 for everyone else, 1/2 in a draw or an abandoned game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...durak import agents as A
from ...durak import rules as R

G_SP = 2
MAX_DECK = 52
O_ST = 0
O_TALON = R.ST_LEN
O_HANDS = O_TALON + MAX_DECK
KEY_PASS = 1000
KEY_TAKE = 1001
KEY_TRANSFER = 2000


#: The measure the chapter plots.
HEADLINE = "fool"


def new_game(rng: np.random.Generator, n_players: int = 2, deck: int = 36
             ) -> tuple[np.ndarray, np.ndarray]:
    """A dealt game of ``n_players`` with OpenFool's rules: ``(s, g)``."""
    from ..games import GAME_DURAK

    sp = R.rule_switches(n_players, deck)
    hands, talon, st = R.new_arrays(sp)
    R.deal(hands, talon, st, sp, rng)
    s = np.zeros(O_HANDS + n_players * R.MAX_HAND, dtype=np.int64)
    s[O_ST:O_TALON] = st
    s[O_TALON:O_TALON + talon.shape[0]] = talon
    s[O_HANDS:] = hands.ravel()
    g = np.concatenate([np.array([GAME_DURAK, 0], dtype=np.int64), sp])
    return s, g


@njit(cache=True)
def _sp(g):
    return g[G_SP:G_SP + R.SP_LEN]


@njit(cache=True)
def _views(s, g):
    sp = _sp(g)
    n = sp[R.SP_NP]
    st = s[O_ST:O_TALON]
    talon = s[O_TALON:O_TALON + sp[R.SP_NCARDS]]
    hands = s[O_HANDS:O_HANDS + n * R.MAX_HAND].reshape((n, R.MAX_HAND))
    return hands, talon, st, sp


@njit(cache=True)
def n_seats(g):
    return _sp(g)[R.SP_NP]


@njit(cache=True)
def current(s, g):
    if s[O_ST + R.ST_PHASE] == R.PH_OVER:
        return -1
    return s[O_ST + R.ST_CUR]


@njit(cache=True)
def legal(s, g, mv):
    hands, talon, st, sp = _views(s, g)
    return R.legal_actions(hands, st, sp, mv)


@njit(cache=True)
def move_key(s, g, m):
    if m == R.ACT_PASS:
        return KEY_PASS
    if m == R.ACT_TAKE:
        return KEY_TAKE
    hands, talon, st, sp = _views(s, g)
    p = st[R.ST_CUR]
    if m >= R.TRANSFER:
        return KEY_TRANSFER + hands[p, m - R.TRANSFER]
    return hands[p, m]


@njit(cache=True)
def apply(s, g, m):
    hands, talon, st, sp = _views(s, g)
    R.apply_action(hands, talon, st, sp, m)


@njit(cache=True)
def _seen(hands, talon, st, sp, me):
    """Bit mask of the cards whose place ``me`` knows (:func:`gameai.durak.agents.unseen_cards`)."""
    seen = st[R.ST_GONE]
    for i in range(st[R.ST_SIZE + me]):
        seen |= np.int64(1) << hands[me, i]
    for i in range(st[R.ST_NA]):
        seen |= np.int64(1) << st[R.ST_TA + i]
        if i < st[R.ST_NB]:
            seen |= np.int64(1) << st[R.ST_TD + i]
    for q in range(sp[R.SP_NP]):
        if q != me:
            seen |= st[R.ST_KNOWN + q]
    n = sp[R.SP_NCARDS]
    if st[R.ST_DRAWN] < n:
        seen |= np.int64(1) << talon[n - 1]
    return seen


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    """Each opponent keeps the cards he was seen to take (listed first, by card), the cards
    ``seat`` has not seen fill the rest of the opponents' hands and the talon above its face-up
    bottom card. The pool is listed by card id, never in the talon's hidden order."""
    out[:] = s
    hands, talon, st, sp = _views(s, g)
    hd, td, sd, _ = _views(out, g)
    seen = _seen(hands, talon, st, sp, seat)
    low = sp[R.SP_LOW]
    pool = np.empty(MAX_DECK, dtype=np.int64)
    k = 0
    for c in range(MAX_DECK):  # the deck: every suit, ranks from the lowest to the ace
        if c % 13 + 2 >= low and not (seen >> c) & 1:
            pool[k] = c
            k += 1
    for i in range(k - 1, 0, -1):
        j = R.randint(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    used = 0
    for q in range(sp[R.SP_NP]):
        if q == seat:
            continue
        known = st[R.ST_KNOWN + q]
        slot = 0
        for c in range(MAX_DECK):
            if (known >> c) & 1:
                hd[q, slot] = c
                slot += 1
        while slot < st[R.ST_SIZE + q]:
            hd[q, slot] = pool[used]
            used += 1
            slot += 1
    n = sp[R.SP_NCARDS]
    for i in range(st[R.ST_DRAWN], n - 1):
        td[i] = pool[used]
        used += 1


@njit(cache=True)
def clear_unread(s, g):
    """Set to -1, in place, what the rules never read again: each hand's slots past its size
    (a played card's old slot) and the talon's dealt or drawn part (the deal's order). Their
    values depend on where cards lay, not on anything a player can now see, so that two
    positions a player cannot tell apart differ there; the chapter's strategy fusion measure
    names information sets by a determinization with these cleared."""
    hands, talon, st, sp = _views(s, g)
    talon[:st[R.ST_DRAWN]] = -1
    for q in range(sp[R.SP_NP]):
        hands[q, st[R.ST_SIZE + q]:] = -1


@njit(cache=True)
def playout(s, g, rng):
    hands, talon, st, sp = _views(s, g)
    A.playout(hands, talon, st, sp, A.KIND_RANDOM, rng)


@njit(cache=True)
def reward(s, g, seat):
    fool = s[O_ST + R.ST_FOOL]
    if fool < 0:
        return 0.5
    return 0.0 if fool == seat else 1.0


@njit(cache=True)
def baseline(s, g, rng):
    """OpenFool's EvalAI."""
    hands, talon, st, sp = _views(s, g)
    mv = np.empty(R.MAX_ACTIONS, dtype=np.int64)
    k = R.legal_actions(hands, st, sp, mv)
    if k == 1:
        return mv[0]
    return A.eval_action(hands, st, sp, mv, k, 0)


def measure(s: np.ndarray, g: np.ndarray, seat: int) -> dict[str, float]:
    """``fool`` (1: ``seat`` is the fool), ``draw`` (1: nobody is, or the game was abandoned as
    endless) and ``place`` (0 = first out)."""
    fool = int(s[O_ST + R.ST_FOOL])
    return {"fool": float(fool == seat), "draw": float(fool < 0),
            "place": float(s[O_ST + R.ST_PLACE + seat])}
