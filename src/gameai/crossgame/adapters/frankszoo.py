"""Frank's Zoo (four players, the published 60-card deck) on the cross-game interface.

State ``s`` = ``[st | hands | chameleon]``: the engine's public state ``st``
(:data:`rules.ST_LEN` values), its ``hands`` (``4 x n_types`` card counts per type), read back as
views so that :mod:`gameai.frankszoo.rules` and :mod:`gameai.frankszoo.agents` run on them
unchanged, and one slot more: the player seen to be skipped on an opening (he holds only the
chameleon, for good; ``-1`` while nobody was). ``g`` = ``[GAME_FRANKSZOO, n_types,
pass_in_list, ablate, sp..., beats (as bytes)..., weights..., counts...]``: the engine's rule
switches, the deck's predator matrix, HeuristicAI's weights and the deck's card counts.

Moves are the engine's moves coded by its own :func:`rules.move_id` (main type, cards,
mosquito, chameleon: what every player sees on the table), :data:`rules.PASS_ID` for a pass and
:data:`SKIP` (= ``rules.NONE_ID``) for "skipped, cannot open"; the code is its own key. Pass is
legal whenever a player follows (Braun & Spronck 2009, §2), never on an opening.

Hidden: the opponents' hands (their sizes and every card played are public). A
determinization deals the cards ``seat`` cannot see - every card in the opponents' hands, listed
by card type - at random to the opponents, sizes kept; a player seen to be skipped keeps the
chameleon. The playout is the engine's RandomAI under the chapter's pass rule ``"uniform"``
(pass is one more option when following): a uniformly random legal move. The baseline is the
Frank's Zoo chapter's paper configuration of HeuristicAI (``HeuristicAI-passlist``: Table 2,
pass in its list of moves when following, the chapter's weights for the published deck). The
reward is the chapter's win: 1 for the first player out of cards, 0 for everyone else.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...frankszoo import agents as A
from ...frankszoo import rules as R
from ...frankszoo.decks import get_deck

#: The chapter's settled reading of RandomAI's passing (``Results.pass_rule``; Table 4).
PASS_RULE = "uniform"
#: The chapter's paper configuration of HeuristicAI (``chapter.CONFIGURATIONS["paper"]``).
BASELINE_AGENT = "HeuristicAI-passlist"
#: Its weights on the published deck (``chapter.paper_weights``: Table 4's method, totals of
#: 1e5 RandomAI games / 1000; the values of ``data/frankszoo/heuristic_paper.json``).
PAPER_WEIGHTS = (4, 1, 8, 6, 22, 14, 18, 33, 29, 41, 22, 37, 0)
DECK = "original"

SKIP = R.NONE_ID
PASS = R.PASS_ID

# g layout
G_NT = 1
G_PASSLIST = 2
G_ABLATE = 3
G_SP = 4
G_BEATS = G_SP + R.SP_LEN
BEATS_WORDS = (R.MAX_TYPES * R.MAX_TYPES + 7) // 8
G_HW = G_BEATS + BEATS_WORDS
G_COUNTS = G_HW + R.MAX_TYPES
G_LEN = G_COUNTS + R.MAX_TYPES

# s layout
O_ST = 0
O_HANDS = R.ST_LEN
O_CHA = O_HANDS + R.N_PLAYERS * R.MAX_TYPES
S_LEN = O_CHA + 1

#: The measure the chapter plots.
HEADLINE = "win"


def settings(deck: str = DECK, weights=PAPER_WEIGHTS, agent: str = BASELINE_AGENT,
             pass_rule: str = PASS_RULE) -> np.ndarray:
    """The ``g`` array of a deck, HeuristicAI's weights and agent row, and RandomAI's passing."""
    from ..games import GAME_FRANKSZOO

    d = get_deck(deck)
    nt = d.n_types
    if len(weights) != nt:
        raise ValueError(f"weights must have one entry per card type ({nt}), got {len(weights)}")
    row = A.agent_row(agent)
    if row[A.AG_KIND] != A.KIND_HEURISTIC:
        raise ValueError(f"the baseline must be a HeuristicAI, got {agent!r}")
    g = np.zeros(G_LEN, dtype=np.int64)
    g[0] = GAME_FRANKSZOO
    g[G_NT] = nt
    g[G_PASSLIST] = row[A.AG_VOLUNTARY_PASS]
    g[G_ABLATE] = row[A.AG_ABLATE]
    g[G_SP:G_SP + R.SP_LEN] = R.rule_switches(d, pass_rule)
    raw = np.zeros(BEATS_WORDS * 8, dtype=np.uint8)
    raw[:nt * nt] = np.ascontiguousarray(d.beats, dtype=np.bool_).ravel().view(np.uint8)
    g[G_BEATS:G_BEATS + BEATS_WORDS] = raw.view(np.int64)
    g[G_HW:G_HW + nt] = np.asarray(weights, dtype=np.int64)
    g[G_COUNTS:G_COUNTS + nt] = d.counts
    return g


def new_game(rng: np.random.Generator, **options) -> tuple[np.ndarray, np.ndarray]:
    """A dealt hand as the engine deals it (:func:`gameai.frankszoo.play.new_hand`: the deck
    shuffled and dealt evenly, the opener drawn uniformly): ``(s, g)``. ``options`` go to
    :func:`settings` (default: the chapter's paper configuration on the published deck)."""
    from ...frankszoo.play import new_hand

    g = settings(**options)
    nt = int(g[G_NT])
    hands, st = new_hand(g[G_COUNTS:G_COUNTS + nt].copy(), g[G_SP:G_SP + R.SP_LEN].copy(), rng)
    s = np.zeros(S_LEN, dtype=np.int64)
    s[O_ST:O_HANDS] = st
    s[O_HANDS:O_HANDS + R.N_PLAYERS * nt] = hands.ravel()
    s[O_CHA] = -1
    return s, g


@njit(cache=True)
def _sp(g):
    return g[G_SP:G_SP + R.SP_LEN]


@njit(cache=True)
def _beats(g):
    nt = g[G_NT]
    return g[G_BEATS:G_BEATS + BEATS_WORDS].view(np.bool_)[:nt * nt].reshape((nt, nt))


@njit(cache=True)
def _views(s, g):
    nt = g[G_NT]
    st = s[O_ST:O_HANDS]
    hands = s[O_HANDS:O_HANDS + R.N_PLAYERS * nt].reshape((R.N_PLAYERS, nt))
    return hands, st


@njit(cache=True)
def _code(mv, idx):
    """The move code of the engine's action ``idx`` (a row of ``mv``, ACT_PASS or ACT_SKIP)."""
    if idx == R.ACT_PASS:
        return PASS
    if idx == R.ACT_SKIP:
        return SKIP
    return R.move_id(mv[idx, 0], mv[idx, 1], mv[idx, 2], mv[idx, 3])


@njit(cache=True)
def n_seats(g):
    return _sp(g)[R.SP_NP]


@njit(cache=True)
def current(s, g):
    if s[O_ST + R.ST_DONE] != 0:
        return -1
    return s[O_ST + R.ST_CUR]


@njit(cache=True)
def legal(s, g, mv):
    """The engine's moves (:func:`rules.gen_moves`, in its order), then pass when following;
    skip alone on an opening without a move (only the chameleon left). ``mv`` has the
    contract's 4,096 slots: the engine's rows are written to its last 1,024 first."""
    hands, st = _views(s, g)
    # the engine's (move, 4) rows go to the top of ``mv``, the codes to its bottom
    rows = mv[mv.shape[0] - 4 * R.MAX_MOVES:].reshape((R.MAX_MOVES, 4))
    tt = st[R.ST_TT]
    k = R.gen_moves(hands[st[R.ST_CUR]], tt, st[R.ST_TN], _beats(g), _sp(g), rows)
    for i in range(k):
        mv[i] = R.move_id(rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3])
    if tt >= 0:
        mv[k] = PASS
        return k + 1
    if k == 0:
        mv[0] = SKIP
        return 1
    return k


@njit(cache=True)
def move_key(s, g, m):
    return m


@njit(cache=True)
def apply(s, g, m):
    hands, st = _views(s, g)
    sp = _sp(g)
    if m == PASS:
        R.apply_pass(hands, st, sp)
    elif m == SKIP:
        s[O_CHA] = st[R.ST_CUR]
        R.apply_skip(st, sp)
    else:
        t, cnt, mq, ch = R.decode_move_id(m)
        R.apply_move(hands, st, t, cnt - mq - ch, mq, ch, sp)


@njit(cache=True)
def determinize(s, g, seat, rng, out):
    """The cards ``seat`` cannot see (the opponents' hands pooled, listed by card type) dealt
    at random to the opponents in seat order, each keeping his hand size; a player seen to be
    skipped keeps the chameleon (all he holds)."""
    out[:] = s
    hands, st = _views(s, g)
    hd, _ = _views(out, g)
    sp = _sp(g)
    nt = g[G_NT]
    n = sp[R.SP_NP]
    cha = sp[R.SP_CHA]
    pool = np.zeros(nt, dtype=np.int64)
    for q in range(n):
        if q != seat:
            for t in range(nt):
                pool[t] += hands[q, t]
    known = s[O_CHA]
    if known == seat or cha < 0:
        known = -1
    if known >= 0:
        pool[cha] -= 1
    m = 0
    for t in range(nt):
        m += pool[t]
    cards = np.empty(m, dtype=np.int64)
    m = 0
    for t in range(nt):  # canonical order: by card type
        for _ in range(pool[t]):
            cards[m] = t
            m += 1
    R.shuffle(cards, rng)
    i = 0
    for q in range(n):
        if q == seat:
            continue
        for t in range(nt):
            hd[q, t] = 0
        size = st[R.ST_SIZE + q]
        if q == known:
            hd[q, cha] = 1
            size -= 1
        for _ in range(size):
            hd[q, cards[i]] += 1
            i += 1


@njit(cache=True)
def playout(s, g, rng):
    """RandomAI in every seat to the end of the hand (:func:`agents.playout`'s loop)."""
    hands, st = _views(s, g)
    sp = _sp(g)
    beats = _beats(g)
    mv = np.empty((R.MAX_MOVES, 4), dtype=np.int64)
    while st[R.ST_DONE] == 0:
        idx = R.random_action(hands, st, beats, sp, mv, rng)
        if idx == R.ACT_SKIP:
            s[O_CHA] = st[R.ST_CUR]
        R.apply_action(hands, st, mv, idx, sp)


@njit(cache=True)
def reward(s, g, seat):
    """The chapter's win: first out of cards."""
    return 1.0 if s[O_ST + R.ST_FIRST] == seat else 0.0


@njit(cache=True)
def baseline(s, g, rng):
    """HeuristicAI (Table 2) as the chapter's paper configuration plays it."""
    hands, st = _views(s, g)
    nt = g[G_NT]
    hw = np.empty(nt)
    for t in range(nt):
        hw[t] = g[G_HW + t]
    mv = np.empty((R.MAX_MOVES, 4), dtype=np.int64)
    idx = A.heuristic_action(hands, st, _beats(g), _sp(g), hw, mv, rng, g[G_PASSLIST],
                             g[G_ABLATE])
    return _code(mv, idx)


def measure(s: np.ndarray, g: np.ndarray, seat: int) -> dict[str, float]:
    """``win`` (1: ``seat`` went out first, the chapter's win), ``place`` (0 = first out ...
    3 = last), ``score`` (Equation 1's points: 4, 3, 2, 0) and ``score_share`` (points / 4,
    the chapter's "percentage of the maximum score")."""
    score = float(s[O_ST + R.ST_SCORE + seat])
    return {"win": float(s[O_ST + R.ST_FIRST] == seat),
            "place": float(s[O_ST + R.ST_PLACE + seat]),
            "score": score, "score_share": score / (R.N_PLAYERS * 1.0)}
