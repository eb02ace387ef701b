"""Frank's Zoo game engine (numba): legal moves, applying a move or a pass, dealing, scoring.

Rules as in Braun & Spronck (2009) §2 and the chapter spec:

* A move is ``n`` cards of one *main type* ``t`` (Definition 3), optionally with one mosquito
  that joins at least one real elephant and counts as an elephant, and optionally with the
  chameleon (joker) replacing one card. Its strength is ``(t, n + mq + ch)``.
* A move defeats the table (Definition 4) by a predator of the table's type with the same count
  (predator defeat), or by the same type with exactly one card more (similarity defeat).
* Pass is always allowed when following. After a move, when every other player still holding
  cards has passed, the player of that move opens; if that player is already out, the lead goes
  to the next player on the left who still holds cards. A player who holds only the chameleon
  can never move: he is skipped when he would have to open, and ends last.
* Score (Equation 1): a player going out scores (players) - (players already out); the last
  player scores 0 (4, 3, 2, 0 with four players).

Representation (flat int64 arrays so that everything runs in nopython mode):

* ``hands[p, t]`` - cards of type ``t`` in player ``p``'s hand.
* ``st`` - the public state, indexed by the ``ST_*`` constants below.
* ``sp`` - the deck's rule switches and its defeat lists (which types can defeat a table of
  each type, derived from ``beats``), indexed by the ``SP_*`` constants.
* a move is a row ``(t, n, mq, ch)`` of a move buffer; action index ``-1`` means pass and
  ``-2`` means "skipped: cannot open" (only the chameleon left).

The functions of a move (generating, choosing and applying it) are inlined into their callers
(numba's ``inline="always"``): a call between compiled functions passes every array as several
values (measured: random games 1.5x as fast inlined, the same games).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .decks import Deck

#: Bump when the engine's behaviour changes: it is part of every cached result's key.
ENGINE_VERSION = "1"

N_PLAYERS = 4
MAX_TYPES = 13  # the published deck; test decks have 2..13 types

# --- rule switches (sp) ---------------------------------------------------------------
SP_NT = 0  # number of card types
SP_ELE = 1  # elephant type or -1
SP_MOS = 2  # mosquito type or -1
SP_CHA = 3  # chameleon type or -1
SP_NP = 4  # number of players
SP_PASS = 5  # RandomAI's pass rule (PASS_* below)
# The deck's defeat relation as lists (derived from ``beats``, see :func:`rule_switches`):
# sp[SP_NDEF + tt] types can defeat a table of type tt, listed in ascending order at
# sp[SP_DEF + tt * MAX_TYPES ...]: its predators and tt itself, never the chameleon.
SP_NDEF = 6
SP_DEF = SP_NDEF + MAX_TYPES
SP_LEN = SP_DEF + MAX_TYPES * MAX_TYPES

#: RandomAI's treatment of passing when following (the paper is silent; settled by Table 4).
PASS_UNIFORM = 0  # pass is one more option, drawn uniformly with the legal moves
PASS_FORCED = 1  # pass only when no legal move exists
PASS_HALF = 2  # pass with probability 1/2 when a move exists
PASS_OPEN = 3  # like PASS_UNIFORM, and the opener may pass too (the lead moves on)
PASS_RULES = {"uniform": PASS_UNIFORM, "forced": PASS_FORCED, "half": PASS_HALF, "open": PASS_OPEN}

# --- state (st) -------------------------------------------------------------------------
ST_TT = 0  # type on the table, -1 when a new opening is due
ST_TN = 1  # number of cards on the table
ST_TID = 2  # move id of the table move (NONE_ID on an opening)
ST_LAST = 3  # player of the table move
ST_PASSES = 4  # passes since the table move
ST_CUR = 5  # player to act
ST_NOUT = 6  # players out so far
ST_PLAYED = 7  # cards played so far (P in the paper's Equations 2-3)
ST_DONE = 8  # 1 when the hand is over
ST_FIRST = 9  # first player out, -1 until then
ST_SCORE = 10  # 4 entries: points per player
ST_PLACE = 14  # 4 entries: finishing place 0..3, -1 while playing
ST_SIZE = 18  # 4 entries: hand sizes
ST_TURNS = 22  # actions taken so far
ST_LEN = 24

# --- move identities for the 2-sequence tables (spec: type, count, mosquito, chameleon) ---
MAX_COUNT = 7  # 5 elephants + mosquito + chameleon
PASS_ID = MAX_TYPES * MAX_COUNT * 4
NONE_ID = PASS_ID + 1  # "nothing on the table": the predecessor of an opening move
N_IDS = NONE_ID + 1

MAX_MOVES = 256  # more than the largest possible number of legal moves (12 types x 5 x 2 x 2)
MAX_LOG = 512  # more than the longest possible hand (60 moves + passes)

ACT_PASS = -1
ACT_SKIP = -2

# ``rng.integers(0, n)`` in numba allocates a one-element array per call (it is written as the
# ``size=1`` case of the array version): with ~170 draws per hand that was a tenth of a hand's
# time. :func:`randint` makes the same draw - numba's own Lemire routine on the same bit
# generator, exactly what ``integers`` calls for a bound below 2**32 - without the array.
# ``tests/frankszoo/test_rules.py`` checks that both streams agree draw for draw.
try:
    from numba.np.random.random_methods import buffered_bounded_lemire_uint32 as _lemire32
except ImportError:  # pragma: no cover - a numba that moved it: fall back to the public call
    _lemire32 = None


def rule_switches(deck: Deck, pass_rule: str = "uniform") -> np.ndarray:
    """The ``sp`` array for a deck and RandomAI pass rule (a fresh copy: callers may edit it)."""
    if pass_rule not in PASS_RULES:
        raise ValueError(f"pass_rule must be one of {sorted(PASS_RULES)}, got {pass_rule!r}")
    sp = _deck_switches(deck.n_types, deck.elephant, deck.mosquito, deck.chameleon,
                        deck.beats.tobytes()).copy()
    sp[SP_PASS] = PASS_RULES[pass_rule]
    return sp


@lru_cache(maxsize=64)
def _deck_switches(n_types, elephant, mosquito, chameleon, beats_bytes) -> np.ndarray:
    """The deck part of ``sp``, cached: experiments build ``sp`` once per game."""
    beats = np.frombuffer(beats_bytes, dtype=np.bool_).reshape(n_types, n_types)
    sp = np.zeros(SP_LEN, dtype=np.int64)
    sp[SP_NT] = n_types
    sp[SP_ELE] = elephant
    sp[SP_MOS] = mosquito
    sp[SP_CHA] = chameleon
    sp[SP_NP] = N_PLAYERS
    # Definition 4: a table of type tt falls to a predator of tt (same count) or to tt itself
    # (one card more). Move generation when following walks only these types.
    for tt in range(n_types):
        defeaters = [t for t in range(n_types) if t != chameleon and (beats[t, tt] or t == tt)]
        sp[SP_NDEF + tt] = len(defeaters)
        sp[SP_DEF + tt * MAX_TYPES:SP_DEF + tt * MAX_TYPES + len(defeaters)] = defeaters
    return sp


if _lemire32 is not None:

    @njit(cache=True)
    def randint(rng, n):
        """``rng.integers(0, n)`` for ``1 <= n < 2**32``: the same draw, without an allocation.

        ``integers`` returns ``low`` without drawing when the range holds one value; otherwise
        it draws with Lemire's method on 32-bit outputs (numba's ``random_bounded_uint64_fill``).
        """
        if n == 1:
            return 0
        return np.int64(_lemire32(rng.bit_generator, np.int64(n - 1)))

else:  # pragma: no cover

    @njit(cache=True)
    def randint(rng, n):
        return rng.integers(0, n)


@njit(cache=True, inline="always")
def move_id(t, n, mq, ch):
    """Identity of a move for the 2-sequence tables: (main type, cards, mosquito, chameleon)."""
    return ((t * MAX_COUNT + (n + mq + ch - 1)) * 2 + mq) * 2 + ch


@njit(cache=True)
def decode_move_id(mid):
    """Inverse of :func:`move_id`: returns ``(t, count, mq, ch)``."""
    ch = mid % 2
    mid //= 2
    mq = mid % 2
    mid //= 2
    cnt = mid % MAX_COUNT + 1
    t = mid // MAX_COUNT
    return t, cnt, mq, ch


@njit(cache=True, inline="always")
def gen_moves(hand, tt, tn, beats, sp, mv):
    """Write every legal move of ``hand`` against table ``(tt, tn)`` into ``mv``; return count.

    ``tt < 0`` means an opening: any legal move (Definition 3). Otherwise only defeating
    moves (Definition 4). Order: by type, then number of normal cards, mosquito, chameleon.
    """
    nt = sp[SP_NT]
    ele = sp[SP_ELE]
    mos = sp[SP_MOS]
    cha = sp[SP_CHA]
    has_cha = 1 if (cha >= 0 and hand[cha] > 0) else 0
    has_mos = 1 if (mos >= 0 and hand[mos] > 0) else 0
    k = 0
    if tt < 0:  # an opening: every combination is a legal move
        for t in range(nt):
            if t == cha:
                continue
            c = hand[t]
            if c == 0:
                continue
            mq_max = has_mos if t == ele else 0
            for n in range(1, c + 1):
                for mq in range(mq_max + 1):
                    for ch in range(has_cha + 1):
                        mv[k, 0] = t
                        mv[k, 1] = n
                        mv[k, 2] = mq
                        mv[k, 3] = ch
                        k += 1
        return k
    # Following: only a predator of ``tt`` (with ``tn`` cards) or ``tt`` itself (with tn + 1)
    # defeats the table, so only the types listed in sp for ``tt`` are visited (ascending, as
    # above), and a move's count n + mq + ch must be tn or tn + 1, which bounds n. Within those
    # bounds the loops and the test are the enumeration above: the same moves in the same order.
    row = SP_DEF + tt * MAX_TYPES
    for j in range(sp[SP_NDEF + tt]):
        t = sp[row + j]
        c = hand[t]
        if c == 0:
            continue
        pred = beats[t, tt]
        mq_max = has_mos if t == ele else 0
        lo = max(1, tn - mq_max - has_cha)
        hi = min(c, tn + 1)
        for n in range(lo, hi + 1):
            for mq in range(mq_max + 1):
                for ch in range(has_cha + 1):
                    cnt = n + mq + ch
                    if (cnt == tn and pred) or (t == tt and cnt == tn + 1):
                        mv[k, 0] = t
                        mv[k, 1] = n
                        mv[k, 2] = mq
                        mv[k, 3] = ch
                        k += 1
    return k


@njit(cache=True, inline="always")
def n_opening_moves(hand, sp):
    """How many moves :func:`gen_moves` lists on an opening, without listing them.

    Each type ``t`` held ``c`` times gives ``c`` card counts, times two when the mosquito can
    join (elephants only), times two when the chameleon can join.
    """
    nt = sp[SP_NT]
    ele = sp[SP_ELE]
    mos = sp[SP_MOS]
    cha = sp[SP_CHA]
    per_ch = 2 if (cha >= 0 and hand[cha] > 0) else 1
    has_mos = 1 if (mos >= 0 and hand[mos] > 0) else 0
    k = 0
    for t in range(nt):
        if t == cha:
            continue
        per_mq = 1 + has_mos if t == ele else 1
        k += hand[t] * per_mq * per_ch
    return k


@njit(cache=True, inline="always")
def opening_move(hand, i, sp, mv):
    """Write row ``i`` of :func:`gen_moves`' opening list to ``mv[i]`` (the other rows untouched).

    The list holds, per type in order, ``c`` blocks (n = 1..c) of ``per_mq * per_ch`` rows
    ordered by mosquito then chameleon, so row ``i`` follows from integer division.
    """
    nt = sp[SP_NT]
    ele = sp[SP_ELE]
    mos = sp[SP_MOS]
    cha = sp[SP_CHA]
    per_ch = 2 if (cha >= 0 and hand[cha] > 0) else 1
    has_mos = 1 if (mos >= 0 and hand[mos] > 0) else 0
    r = i
    for t in range(nt):
        if t == cha:
            continue
        per_mq = 1 + has_mos if t == ele else 1
        block = per_mq * per_ch
        size = hand[t] * block
        if r < size:
            j = r % block
            mv[i, 0] = t
            mv[i, 1] = 1 + r // block
            mv[i, 2] = j // per_ch
            mv[i, 3] = j % per_ch
            return
        r -= size


@njit(cache=True, inline="always")
def max_count(hand, t, sp):
    """Largest move of main type ``t`` that ``hand`` can form (0 if it holds no ``t``)."""
    if hand[t] == 0 or t == sp[SP_CHA]:
        return 0
    c = hand[t]
    if t == sp[SP_ELE] and sp[SP_MOS] >= 0 and hand[sp[SP_MOS]] > 0:
        c += 1
    if sp[SP_CHA] >= 0 and hand[sp[SP_CHA]] > 0:
        c += 1
    return c


@njit(cache=True, inline="always")
def can_beat(hand, tt, tn, beats, sp):
    """True if ``hand`` can form some move that defeats ``(tt, tn)``.

    Equivalent to ``gen_moves(hand, tt, tn, ...) > 0`` but without enumerating: a type can
    form every count from 1 to its :func:`max_count`.
    """
    if max_count(hand, tt, sp) >= tn + 1:
        return True
    for t in range(sp[SP_NT]):
        if beats[t, tt] and max_count(hand, t, sp) >= tn:
            return True
    return False


@njit(cache=True, inline="always")
def next_active(st, p, n_players):
    """The next player to the left of ``p`` who still holds cards."""
    q = p
    for _ in range(n_players):
        q += 1  # (q + 1) % n_players without the division
        if q == n_players:
            q = 0
        if st[ST_SIZE + q] > 0:
            return q
    return p


@njit(cache=True, inline="always")
def n_active(st, n_players):
    a = 0
    for q in range(n_players):
        if st[ST_SIZE + q] > 0:
            a += 1
    return a


@njit(cache=True)
def init_state(st, hands, start, sp):
    """Fill ``st`` for a fresh hand with ``start`` to open."""
    st[:] = 0
    st[ST_TT] = -1
    st[ST_TID] = NONE_ID
    st[ST_LAST] = start
    st[ST_CUR] = start
    st[ST_FIRST] = -1
    for q in range(sp[SP_NP]):
        st[ST_PLACE + q] = -1
        st[ST_SIZE + q] = hands[q].sum()


@njit(cache=True, inline="always")
def _open_trick(st, leader):
    st[ST_TT] = -1
    st[ST_TN] = 0
    st[ST_TID] = NONE_ID
    st[ST_PASSES] = 0
    st[ST_CUR] = leader


@njit(cache=True, inline="always")
def _finish(st, hands, p, n_players):
    """Player ``p`` just emptied his hand: Equation 1, and the end of the hand if due."""
    place = st[ST_NOUT]
    points = n_players - place
    st[ST_SCORE + p] = points if points > 1 else 0
    st[ST_PLACE + p] = place
    if place == 0:
        st[ST_FIRST] = p
    st[ST_NOUT] = place + 1
    if st[ST_NOUT] == n_players - 1:
        for q in range(n_players):
            if st[ST_SIZE + q] > 0:
                st[ST_PLACE + q] = n_players - 1
                st[ST_SCORE + q] = 0
        st[ST_DONE] = 1


@njit(cache=True, inline="always")
def apply_move(hands, st, t, n, mq, ch, sp):
    """The player to act plays ``n`` cards of type ``t`` (+ mosquito, + chameleon)."""
    n_players = sp[SP_NP]
    p = st[ST_CUR]
    hands[p, t] -= n
    if mq:
        hands[p, sp[SP_MOS]] -= 1
    if ch:
        hands[p, sp[SP_CHA]] -= 1
    cnt = n + mq + ch
    st[ST_SIZE + p] -= cnt
    st[ST_PLAYED] += cnt
    st[ST_TURNS] += 1
    st[ST_TT] = t
    st[ST_TN] = cnt
    st[ST_TID] = move_id(t, n, mq, ch)
    st[ST_LAST] = p
    st[ST_PASSES] = 0
    if st[ST_SIZE + p] == 0:
        _finish(st, hands, p, n_players)
        if st[ST_DONE]:
            return
    st[ST_CUR] = next_active(st, p, n_players)


@njit(cache=True, inline="always")
def apply_pass(hands, st, sp):
    """The player to act passes; close the trick when every other active player passed."""
    n_players = sp[SP_NP]
    st[ST_TURNS] += 1
    st[ST_PASSES] += 1
    last = st[ST_LAST]
    active = n_active(st, n_players)
    if st[ST_SIZE + last] > 0:
        if st[ST_PASSES] >= active - 1:
            _open_trick(st, last)
            return
    elif st[ST_PASSES] >= active:
        _open_trick(st, next_active(st, last, n_players))
        return
    st[ST_CUR] = next_active(st, st[ST_CUR], n_players)


@njit(cache=True, inline="always")
def apply_skip(st, sp):
    """The player to open cannot (only the chameleon left): the lead moves on."""
    st[ST_TURNS] += 1
    _open_trick(st, next_active(st, st[ST_CUR], sp[SP_NP]))


@njit(cache=True, inline="always")
def apply_action(hands, st, mv, idx, sp):
    """Apply action ``idx`` (a row of ``mv``, or ACT_PASS / ACT_SKIP)."""
    if idx == ACT_PASS:
        apply_pass(hands, st, sp)
    elif idx == ACT_SKIP:
        apply_skip(st, sp)
    else:
        apply_move(hands, st, mv[idx, 0], mv[idx, 1], mv[idx, 2], mv[idx, 3], sp)


@njit(cache=True, inline="always")
def action_id(st, mv, idx):
    """Move identity of action ``idx`` for the 2-sequence tables (PASS_ID for a pass)."""
    if idx < 0:
        return PASS_ID
    return move_id(mv[idx, 0], mv[idx, 1], mv[idx, 2], mv[idx, 3])


@njit(cache=True)
def shuffle(a, rng):
    """Fisher-Yates shuffle in place with a numpy Generator."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = randint(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


@njit(cache=True)
def expand(counts):
    """Counts per type -> array of card types (one entry per card)."""
    cards = np.empty(counts.sum(), dtype=np.int64)
    k = 0
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            cards[k] = t
            k += 1
    return cards


@njit(cache=True)
def deal(counts, n_players, rng):
    """Shuffle the deck and deal it evenly (paper §2): returns ``hands``."""
    cards = expand(counts)
    shuffle(cards, rng)
    hands = np.zeros((n_players, counts.shape[0]), dtype=np.int64)
    per = cards.shape[0] // n_players
    for i in range(per * n_players):
        hands[i // per, cards[i]] += 1
    return hands


@njit(cache=True, inline="always")
def random_action(hands, st, beats, sp, mv, rng):
    """RandomAI (paper §2): a uniformly random legal action under the deck's pass rule.

    The draws are those of a uniform pick from :func:`gen_moves`' list (plus pass or skip
    where the rule offers it). On an opening - the longest list, up to 60 rows on the
    published deck - the list is only counted and the chosen row alone is written to ``mv``;
    when following, ``mv`` holds the whole (short) list. Either way ``mv[idx]`` is the move.
    """
    p = st[ST_CUR]
    tt = st[ST_TT]
    rule = sp[SP_PASS]
    if tt < 0:
        hand = hands[p]
        k = n_opening_moves(hand, sp)
        if k == 0:
            return ACT_SKIP
        if rule == PASS_OPEN:
            i = randint(rng, k + 1)
            if i == k:
                return ACT_SKIP
        else:
            i = randint(rng, k)
        opening_move(hand, i, sp, mv)
        return i
    k = gen_moves(hands[p], tt, st[ST_TN], beats, sp, mv)
    if k == 0:
        return ACT_PASS
    if rule == PASS_UNIFORM or rule == PASS_OPEN:
        i = randint(rng, k + 1)
        return ACT_PASS if i == k else i
    if rule == PASS_HALF and rng.random() < 0.5:
        return ACT_PASS
    return randint(rng, k)
