"""Three-player tarok on the cross-game interface: the declarer of "three" against two
rule-based defenders, card play only.

The deal (:func:`gameai.tarok.rules.deal`), the contract (three, no announcements, the thesis's
rules: the declarer leads the first trick) and the talon exchange are fixed before the card play
exactly as the tarok chapter's strength games fix them (``experiments.prepared_state``): the
declarer takes the talon group with the most card points (a tarok counts 3 more) and lays away
the first void-making discard set (``experiments.heuristic_talon``), the same for every
searcher, so every searcher faces the same position. Only the card play is searched.

State ``s`` = the engine's play state ``S`` itself (:data:`rules.S_LEN` int64: hand and pile
masks, the trick, voids shown, ...), so :mod:`gameai.tarok.rules` runs on it unchanged.
``g`` = ``[GAME_TAROK, 0]``. Moves are card ids (``0..53``); the key is the card.

Hidden information (declarer's view): the two defenders' hands. The declarer knows his own hand
and discards, every card played, the whole talon (turned up for the exchange: the untaken half
lies face up on the defenders' pile) and the suits each defender has shown void in.
:func:`determinize` re-deals the union of the defenders' hands between them, hand sizes kept,
uniformly over the deals that respect the voids shown. A defender's view (not used by the
chapter) is sampled by the tarok chapter's own sampler (``sampling.sample_state``).

Reward: the declarer wins "three" with more than 35 of the 70 card points (counted in threes,
``rules.counted_points``), the tarok chapter's ``win`` (``experiments.game_task``) and the
sign of the contract value in ``rules.scores``; reward 1 for the declarer if he wins, else 0;
the defenders get 1 minus that. The baseline is the chapter's rule-based player
(``agents.rule_move``, behind ``choose_card``'s single-legal-card shortcut).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...tarok import rules as R
from ...tarok.agents import rule_move
from ...tarok.sampling import sample_state

#: The measure the chapter plots.
HEADLINE = "win"
#: Counted card points the declarer needs to win "three" (more than half of 70).
WIN_POINTS = 36


def new_game(rng: np.random.Generator, declarer: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A freshly dealt game of "three" with ``declarer`` in that seat (0 = forehand), the talon
    exchange done by the chapter's fixed rule: ``(s, g)`` at the first card (the declarer
    leads). Equal to ``experiments.prepared_state`` for the deal of the same rng stream."""
    from ...tarok.experiments import heuristic_talon

    from ..games import GAME_TAROK

    if not 0 <= int(declarer) < R.N_PLAYERS:
        raise ValueError(f"declarer must be 0, 1 or 2, got {declarer!r}")
    hands, talon = R.deal(rng)
    S = R.new_state(hands, talon, R.THREE, int(declarer), 0)
    grp, disc = heuristic_talon(hands, talon, R.THREE, int(declarer))
    if not R.exchange(S, grp, np.int64(disc)):
        raise RuntimeError("heuristic_talon chose an illegal exchange")
    return S, np.array([GAME_TAROK, 0], dtype=np.int64)


@njit(cache=True)
def n_seats(g):
    return R.N_PLAYERS


@njit(cache=True)
def current(s, g):
    if s[R.S_DONE] != 0:
        return -1
    return s[R.S_TURN]


@njit(cache=True)
def legal(s, g, mv):
    """The legal cards, by card id."""
    m = R.legal_mask(s)
    k = 0
    while m:
        mv[k] = R.lowest(m)
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def move_key(s, g, m):
    return m


@njit(cache=True)
def apply(s, g, m):
    R.play(s, m)


@njit(cache=True)
def _void_free(s, p, cards):
    """``cards`` less the suits seat ``p`` has shown void in."""
    for su in range(R.N_SUITS):
        if s[R.S_VOID + p] & (1 << su):
            cards &= ~R.SUIT_MASK[su]
    return cards


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    """The declarer's view: the cards he cannot see (all 54 less his hand, his pile - tricks
    and discards -, the cards played, the talon and the shown taroks) re-dealt between the two
    defenders, hand sizes kept: a card of a suit one defender has shown void in goes to the
    other, the rest (listed by card id) is shuffled and fills the first defender's remaining
    room, then the second's - uniform over the deals consistent with the voids.
    A defender's view: ``sampling.sample_state`` (the tarok chapter's sampler: the other hands
    and the declarer's hidden discards)."""
    d = s[R.S_DECL]
    if seat != d:
        if not sample_state(s, seat, rng, out):
            out[:] = s
        return
    out[:] = s
    a = (d + 1) % R.N_PLAYERS
    b = (d + 2) % R.N_PLAYERS
    known = (s[R.S_HAND + d] | s[R.S_PILE + d] | s[R.S_PLAYED] | s[R.S_TALON_SEEN]
             | s[R.S_SHOWN])
    unknown = R.ALL_CARDS & ~known
    ok_a = _void_free(s, a, unknown)
    ok_b = _void_free(s, b, unknown)
    hand_a = unknown & ~ok_b  # only a can hold these
    hand_b = unknown & ~ok_a
    free = ok_a & ok_b
    room_a = R.popcount(s[R.S_HAND + a]) - R.popcount(hand_a)
    pool = np.empty(R.N_CARDS, dtype=np.int64)
    n = 0
    m = free
    while m:  # by card id
        pool[n] = R.lowest(m)
        m &= m - 1
        n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = np.int64(rng.random() * (i + 1))
        if j > i:
            j = i
        t = pool[i]
        pool[i] = pool[j]
        pool[j] = t
    for i in range(n):
        if i < room_a:
            hand_a |= R.bit(pool[i])
        else:
            hand_b |= R.bit(pool[i])
    out[R.S_HAND + a] = hand_a
    out[R.S_HAND + b] = hand_b


@njit(cache=True)
def playout(s, g, rng):
    """Uniformly random legal cards to the end (``rules.random_playout``)."""
    R.random_playout(s, rng)


@njit(cache=True)
def declarer_points(s):
    """The declarer's counted card points (of 70)."""
    return R.counted_points(s[R.S_PILE + s[R.S_DECL]])


@njit(cache=True)
def reward(s, g, seat):
    won = 1.0 if declarer_points(s) >= WIN_POINTS else 0.0
    return won if seat == s[R.S_DECL] else 1.0 - won


@njit(cache=True)
def baseline(s, g, rng):
    """The tarok chapter's rule-based player (``agents.rule_move``)."""
    legal_cards = R.legal_mask(s)
    if R.popcount(legal_cards) == 1:
        return R.lowest(legal_cards)
    return rule_move(s)


def measure(s: np.ndarray, g: np.ndarray, seat: int) -> dict[str, float]:
    """``win`` (1: ``seat``'s side won - the declarer with 36 or more of the 70 card points,
    the defenders otherwise), ``card_points`` (the counted card points of ``seat``'s side: the
    declarer's pile, or the two defenders' piles together) and ``score`` (the engine's score of
    the deal for ``seat``, ``rules.scores``: the declarer's points - 35 +- 10 plus the silent
    bonuses and any mond penalty; a defender scores only a mond penalty). The chapter's seat
    under test is the declarer."""
    d = int(s[R.S_DECL])
    pts = int(declarer_points(s))
    if seat != d:
        pts = int(R.counted_points(s[R.S_PILE + (d + 1) % 3] | s[R.S_PILE + (d + 2) % 3]))
    return {"win": float(reward(s, g, seat)), "card_points": float(pts),
            "score": float(R.scores(s)[seat])}
