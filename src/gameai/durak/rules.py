"""Podkidnoy durak engine (numba): dealing, legal actions, applying an action, bouts, the fool.

Rules as the chapter spec gives them (``specs/durak.md``, "Rules"), i.e. as the article author's
game OpenFool plays them, with the standard (pagat) rules behind switches:

* Decks of 24 / 32 / 36 / 52 cards (lowest rank 9 / 7 / 6 / 2, ace high); 2-5 players, 6 cards
  each. ``deck_rule`` (:func:`deck_cards`): ``openfool`` = OpenFool's adjustment, five players
  with 24 cards play 28 (8 ... A), which cannot deal six each (see :func:`start_game`);
  ``plain`` = the smallest deck of whole ranks that deals six each (32 there). Trump is the suit
  of the bottom card of the talon, the card drawn (or dealt) last.
* The holder of the lowest trump attacks first (player 0 when nobody holds a trump). The
  attacker leads one card; the defender beats the first unbeaten attack card (a higher card of
  the same suit, or a trump against a non-trump) or takes. Throw-ins must match a rank on the
  table; they are offered to the throwers in turn (attacker first) until all pass in a row.
* Attack limit per bout (``limit``): ``openfool`` = min(5, defender's hand at the start of the
  bout); ``standard`` = min(6, or 5 before the first discard, defender's hand).
* Throwers (``throw``): ``openfool`` = the defender's two neighbours; ``standard`` = everyone.
* Defence holds -> the defender attacks next; defender takes -> the player after him attacks.
  A taking defender receives the table as a0, d0, a1, d1, ... (spec, "Decision rules").
* Refill (``refill``): ``openfool`` = seat order 0..n-1; ``standard`` = attacker, the other
  players clockwise from him, defender last.
* A player is out when his hand and the talon are empty; the last player holding cards is the
  fool. ``draw``: ``draw`` (both OpenFool and standard) = everyone left running out in the same
  bout is a draw; ``no_draw`` (a house rule, beyond the spec) = the defender of that bout is the
  fool.
* ``deuce_beats_ace`` (OpenFool's option, off by default): a 2 also beats the ace of its suit.
* ``transfer`` (perevodnoy, off by default): while no attack card is beaten, the defender may
  pass the attack on by adding a card of the attacking rank. ``transfer_check``
  (:func:`can_transfer`): ``standard`` = the next player can face all the attack cards (their
  number, the new card included, at most his hand and the limit); ``openfool`` = OpenFool's
  test, the number of *empty* attack slots (6 minus the cards on the table) is below the next
  seat's hand size.

Representation (flat int64 arrays so that everything runs in nopython mode):

* a card is ``suit * 13 + (rank - 2)``; rank 2..14 (ace 14), suit 0..3.
* ``hands[p, i]`` - player ``p``'s cards in the order they entered the hand (never sorted:
  the evaluator player breaks ties by that order); ``st[ST_SIZE + p]`` their number.
* ``talon`` - the shuffled deck; the first ``st[ST_DRAWN]`` cards have been dealt or drawn.
* ``st`` - the rest of the state, indexed by the ``ST_*`` constants; ``sp`` - rule switches.
* an action is an ``int``: ``i >= 0`` plays ``hands[cur, i]`` (lead, throw-in or beat);
  ``ACT_PASS`` ends a thrower's turn; ``ACT_TAKE`` takes; ``TRANSFER + i`` transfers with
  ``hands[cur, i]``.

The functions of an action (its legal list, applying it) are inlined into their callers
(numba's ``inline="always"``): a call between compiled functions passes every array as several
values (measured on the cross-game chapter's Durak deals: random games about 1.3x as fast, the
same games). The end of a bout (refill, the next bout) is left a call: it comes once a bout,
and inlining it too (1.4-1.5x) doubled the engine's compile time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Bump when the engine's behaviour changes: it is part of every cached result's key.
ENGINE_VERSION = "1"

HAND_SIZE = 6
MAX_PLAYERS = 5
MAX_HAND = 64  # more than a deck
MAX_TABLE = 6
MAX_ACTIONS = 2 * MAX_HAND + 2
#: Games are abandoned after this many actions. Not only a guard against bugs: with the talon
#: empty, deterministic players can pass the same cards round for ever (a defender who cannot
#: beat takes, and later loses them again to throw-ins), so durak has endless games. A normal
#: game takes well under 1,000 actions; an abandoned one ends with no fool and ST_CAPPED = 1.
MAX_TURNS = 5_000

DECK_SIZES = (24, 32, 36, 52)

# --- rule switches (sp) ---------------------------------------------------------------
SP_NP = 0  # players
SP_NCARDS = 1  # cards in the deck actually used
SP_LOW = 2  # lowest rank in the deck
SP_LIMIT = 3  # attack limit rule
SP_THROW = 4  # who may throw in
SP_REFILL = 5  # refill order
SP_DRAW = 6  # draw rule
SP_TRANSFER = 7  # 1: perevodnoy
SP_DEUCE = 8  # 1: OpenFool's option "a 2 beats an ace" (of its suit)
SP_TCHECK = 9  # transfer legality: 0 standard, 1 OpenFool's empty-slot test
SP_LEN = 10

LIMIT_RULES = {"openfool": 0, "standard": 1}
THROW_RULES = {"openfool": 0, "standard": 1}
REFILL_RULES = {"openfool": 0, "standard": 1}
DRAW_RULES = {"draw": 0, "no_draw": 1}
TRANSFER_CHECKS = {"standard": 0, "openfool": 1}
DECK_RULES = ("openfool", "plain")
RULE_SWITCHES = {"limit": LIMIT_RULES, "throw": THROW_RULES, "refill": REFILL_RULES,
                 "draw": DRAW_RULES, "transfer_check": TRANSFER_CHECKS}

# --- state (st) -------------------------------------------------------------------------
PH_ATTACK = 0  # the attacker leads a card
PH_DEFEND = 1  # the defender beats the first unbeaten card, takes or transfers
PH_THROW = 2  # a thrower may throw in (also while the defender takes)
PH_OVER = 3

ST_PHASE = 0
ST_ATT = 1  # attacker of the bout
ST_DEF = 2  # defender
ST_CUR = 3  # player to act
ST_NA = 4  # attack cards on the table
ST_NB = 5  # of them beaten (always the first NB)
ST_LIMIT = 6  # attack limit of this bout
ST_TAKING = 7  # 1 once the defender takes
ST_DRAWN = 8  # cards of the talon dealt or drawn so far
ST_TRUMP = 9
ST_DISCARDS = 10  # cards in the discard pile
ST_NOUT = 11  # players out
ST_FOOL = 12  # the fool, -1 for a draw or while playing
ST_BOUTS = 13
ST_TURNS = 14  # actions applied
ST_TP = 15  # index into the throwers list of the one to act
ST_PASSES = 16  # passes in a row since the last throw-in
ST_NTHR = 17  # throwers this bout
ST_RANKS = 18  # bit mask of the ranks on the table
ST_GONE = 19  # bit mask of the discarded cards (public)
ST_FIRST = 20  # the first attacker of the game
ST_CAPPED = 21  # 1 when the game was abandoned at MAX_TURNS actions
ST_THR = 22  # MAX_PLAYERS entries: throwers, attacker first
ST_TA = ST_THR + MAX_PLAYERS  # MAX_TABLE attack cards
ST_TD = ST_TA + MAX_TABLE  # MAX_TABLE defence cards (-1 while unbeaten)
ST_SIZE = ST_TD + MAX_TABLE  # MAX_PLAYERS hand sizes
ST_PLACE = ST_SIZE + MAX_PLAYERS  # finishing place, -1 while playing
ST_OUT = ST_PLACE + MAX_PLAYERS  # 1 when out
ST_KNOWN = ST_OUT + MAX_PLAYERS  # per player: bit mask of his cards everyone has seen him take
ST_LEN = ST_KNOWN + MAX_PLAYERS

ACT_PASS = -1
ACT_TAKE = -2
TRANSFER = 1000  # TRANSFER + i: transfer with hands[cur, i]


# ======================================================================================
# Decks and switches (Python)
# ======================================================================================
def deck_cards(n_players: int, deck: int, rule: str = "openfool") -> int:
    """Cards actually used with ``n_players`` players when ``deck`` cards are asked for.

    ``openfool`` - the spec reports OpenFool's adjustment twice, and the two statements do not
    agree: "max(6 x players, requested rounded up to a multiple of 4)" and "five players with
    '24 cards' play a 28-card deck (8 ... A)". Taken literally the formula gives max(30, 24) =
    30, which is no deck of whole ranks; the example's 28 is what it gives when 6 x players is
    rounded *down* to a multiple of 4 (whole ranks of four suits). We follow the example:
    ``max(deck rounded up to 4, 4 x floor(6 x players / 4))``. Of our configurations only five
    players with 24 cards are affected (28 cards < 30 = 6 x 5: see :func:`start_game` for the
    deal).

    ``plain`` - the smallest deck of whole ranks, at least ``deck``, that deals six cards to
    everyone: 32 (7 ... A) for five players with 24 cards (this engine's rule before the
    setting existed).
    """
    if rule not in DECK_RULES:
        raise ValueError(f"deck_rule must be one of {', '.join(DECK_RULES)}, got {rule!r}")
    need = HAND_SIZE * n_players
    asked = -(-deck // 4) * 4
    if rule == "openfool":
        return max(asked, need // 4 * 4)
    return -(-max(deck, need) // 4) * 4


def rule_switches(n_players: int = 2, deck: int = 36, limit: str = "openfool",
                  throw: str = "openfool", refill: str = "openfool", draw: str = "draw",
                  transfer: bool = False, deuce_beats_ace: bool = False,
                  transfer_check: str = "standard", deck_rule: str = "openfool") -> np.ndarray:
    """The ``sp`` array; raises ``ValueError`` naming the bad parameter and the allowed values."""
    if not isinstance(n_players, (int, np.integer)) or not 2 <= n_players <= MAX_PLAYERS:
        raise ValueError(f"n_players must be an int between 2 and {MAX_PLAYERS}, got {n_players!r}")
    if deck not in DECK_SIZES:
        raise ValueError(f"deck must be one of {', '.join(map(str, DECK_SIZES))}, got {deck!r}")
    values = {"limit": limit, "throw": throw, "refill": refill, "draw": draw,
              "transfer_check": transfer_check}
    for name, value in values.items():
        if value not in RULE_SWITCHES[name]:
            raise ValueError(f"{name} must be one of {', '.join(RULE_SWITCHES[name])}, "
                             f"got {value!r}")
    for name, value in (("transfer", transfer), ("deuce_beats_ace", deuce_beats_ace)):
        if value not in (True, False, 0, 1):
            raise ValueError(f"{name} must be true or false, got {value!r}")
    n = deck_cards(int(n_players), int(deck), deck_rule)
    sp = np.zeros(SP_LEN, dtype=np.int64)
    sp[SP_NP] = n_players
    sp[SP_NCARDS] = n
    sp[SP_LOW] = 15 - n // 4
    sp[SP_LIMIT] = LIMIT_RULES[limit]
    sp[SP_THROW] = THROW_RULES[throw]
    sp[SP_REFILL] = REFILL_RULES[refill]
    sp[SP_DRAW] = DRAW_RULES[draw]
    sp[SP_TRANSFER] = int(bool(transfer))
    sp[SP_DEUCE] = int(bool(deuce_beats_ace))
    sp[SP_TCHECK] = TRANSFER_CHECKS[transfer_check]
    return sp


SUITS = "SDCH"  # OpenFool's suit order (spades, diamonds, clubs, hearts); any order would do
RANKS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
         "J": 11, "Q": 12, "K": 13, "A": 14}


def card(text: str) -> int:
    """``"10H"``, ``"QS"``, ``"AD"`` -> card id (rank then suit letter, S/D/C/H)."""
    text = text.strip().upper()
    rank, suit = text[:-1], text[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"card must be a rank (2-10, J, Q, K, A) and a suit letter (S, D, C, H), "
                         f"got {text!r}")
    return SUITS.index(suit) * 13 + RANKS[rank] - 2


def cards(text: str) -> list[int]:
    """``"QS QD 2C"`` -> card ids."""
    return [card(t) for t in text.split()]


def card_name(c: int) -> str:
    names = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
    r = c % 13 + 2
    return names.get(r, str(r)) + SUITS[c // 13]


# ======================================================================================
# Cards
# ======================================================================================
@njit(cache=True)
def rank_of(c):
    return c % 13 + 2


@njit(cache=True)
def suit_of(c):
    return c // 13


@njit(cache=True, inline="always")
def beats(d, a, trump, deuce=0):
    """Does defence card ``d`` beat attack card ``a``? (spec, "Rules"). With ``deuce`` (OpenFool's
    option, off by default) a 2 also beats the ace of its suit."""
    sd = d // 13
    sa = a // 13
    if sd == sa:
        return d % 13 > a % 13 or (deuce == 1 and d % 13 == 0 and a % 13 == 12)
    return sd == trump


@njit(cache=True, inline="always")
def talon_left(st, sp):
    return sp[SP_NCARDS] - st[ST_DRAWN]


# ======================================================================================
# Dealing
# ======================================================================================
@njit(cache=True, inline="always")
def randint(rng, k):
    """A uniform int in [0, k) from one double: numba's ``rng.integers`` costs ~20 ns a call,
    this ~2 ns (the bias, < k / 2**53, is far below anything measurable)."""
    j = int(rng.random() * k)
    return j if j < k else k - 1


@njit(cache=True)
def shuffle(a, rng):
    """Fisher-Yates shuffle in place with a numpy Generator."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = randint(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


@njit(cache=True)
def fill_deck(talon, sp):
    """The unshuffled deck: every suit, ranks from the deck's lowest to the ace."""
    low = sp[SP_LOW]
    k = 0
    for s in range(4):
        for r in range(low, 15):
            talon[k] = s * 13 + r - 2
            k += 1


@njit(cache=True)
def new_arrays(sp):
    """Fresh ``hands``, ``talon`` and ``st`` for a game with rule switches ``sp``.

    Hand slots past a hand's size hold -1 (no card), never uninitialised memory: a state must be
    the same bytes for the same deal, so that states can be compared, hashed and cached.
    """
    hands = np.full((sp[SP_NP], MAX_HAND), -1, dtype=np.int64)
    talon = np.empty(sp[SP_NCARDS], dtype=np.int64)
    st = np.empty(ST_LEN, dtype=np.int64)
    return hands, talon, st


@njit(cache=True)
def deal(hands, talon, st, sp, rng):
    """Shuffle, deal 6 cards each (one at a time, seat order), set trump and the first bout."""
    fill_deck(talon, sp)
    shuffle(talon, rng)
    start_game(hands, talon, st, sp)


@njit(cache=True)
def start_game(hands, talon, st, sp):
    """Deal from an already ordered ``talon`` and set up the first bout (used by tests too).

    Six cards each, one at a time in seat order, as far as the deck goes. A deck shorter than
    6 x players (OpenFool's 28 cards for five players) is dealt out completely: the talon is
    empty from the first bout, the first seats get six cards and the last ones five (28 cards:
    seats 0-2 six, seats 3-4 five), and the bottom card - still the one that sets the trump -
    is the last card dealt; it is dealt face up, so its receiver is seen to hold it, as whoever
    draws it from a talon is (:func:`draw_up`).
    """
    n = sp[SP_NP]
    st[:] = 0
    for p in range(MAX_PLAYERS):
        st[ST_SIZE + p] = 0
        st[ST_PLACE + p] = -1
        st[ST_OUT + p] = 0 if p < n else 1
    st[ST_FOOL] = -1
    st[ST_TRUMP] = talon[sp[SP_NCARDS] - 1] // 13
    k = 0
    n_cards = sp[SP_NCARDS]
    for _ in range(HAND_SIZE):
        for p in range(n):
            if k < n_cards:
                hands[p, st[ST_SIZE + p]] = talon[k]
                st[ST_SIZE + p] += 1
                k += 1
                if k == n_cards:  # the face-up trump card
                    st[ST_KNOWN + p] |= np.int64(1) << talon[k - 1]
    st[ST_DRAWN] = k
    first = first_attacker(hands, st, sp)
    st[ST_FIRST] = first
    start_bout(st, sp, first)


@njit(cache=True)
def first_attacker(hands, st, sp):
    """The holder of the lowest trump; player 0 when nobody holds a trump."""
    trump = st[ST_TRUMP]
    best = 99
    who = 0
    for p in range(sp[SP_NP]):
        for i in range(st[ST_SIZE + p]):
            c = hands[p, i]
            if c // 13 == trump and c % 13 < best:
                best = c % 13
                who = p
    return who


# ======================================================================================
# Bouts
# ======================================================================================
@njit(cache=True, inline="always")
def next_active(st, p, n):
    """The next player after ``p`` (clockwise) who is not out; ``p`` itself if none."""
    q = p
    for _ in range(n):
        q = (q + 1) % n
        if st[ST_OUT + q] == 0:
            return q
    return p


@njit(cache=True, inline="always")
def bout_limit(st, sp, defender):
    """Attack limit of a bout (spec: OpenFool min(5, hand); standard 6, 5 before a discard)."""
    cap = 5
    if sp[SP_LIMIT] == 1 and st[ST_DISCARDS] > 0:
        cap = 6
    h = st[ST_SIZE + defender]
    return cap if cap < h else h


@njit(cache=True)
def set_throwers(st, sp):
    """Throwers of the bout, attacker first (OpenFool: the defender's two neighbours)."""
    n = sp[SP_NP]
    att = st[ST_ATT]
    d = st[ST_DEF]
    st[ST_THR] = att
    k = 1
    q = next_active(st, d, n)
    while q != d:
        if q != att:
            st[ST_THR + k] = q
            k += 1
        if sp[SP_THROW] == 0:  # OpenFool: only the neighbour after the defender
            break
        q = next_active(st, q, n)
    st[ST_NTHR] = k


@njit(cache=True)
def start_bout(st, sp, attacker):
    n = sp[SP_NP]
    st[ST_PHASE] = PH_ATTACK
    st[ST_ATT] = attacker
    st[ST_DEF] = next_active(st, attacker, n)
    st[ST_CUR] = attacker
    st[ST_NA] = 0
    st[ST_NB] = 0
    st[ST_TAKING] = 0
    st[ST_TP] = 0
    st[ST_PASSES] = 0
    st[ST_RANKS] = 0
    st[ST_LIMIT] = bout_limit(st, sp, st[ST_DEF])
    set_throwers(st, sp)


@njit(cache=True, inline="always")
def remove_card(hands, st, p, i):
    """Take ``hands[p, i]`` out of the hand, keeping the order of the rest."""
    c = hands[p, i]
    size = st[ST_SIZE + p]
    for j in range(i, size - 1):
        hands[p, j] = hands[p, j + 1]
    st[ST_SIZE + p] = size - 1
    st[ST_KNOWN + p] &= ~(np.int64(1) << c)
    return c


@njit(cache=True, inline="always")
def add_card(hands, st, p, c):
    hands[p, st[ST_SIZE + p]] = c
    st[ST_SIZE + p] += 1


@njit(cache=True)
def draw_up(hands, talon, st, sp, p):
    """Draw up to 6 cards. The last card of the talon lies face up (the trump card): whoever
    draws it is seen to hold it."""
    n = sp[SP_NCARDS]
    while st[ST_SIZE + p] < HAND_SIZE and st[ST_DRAWN] < n:
        c = talon[st[ST_DRAWN]]
        add_card(hands, st, p, c)
        st[ST_DRAWN] += 1
        if st[ST_DRAWN] == n:
            st[ST_KNOWN + p] |= np.int64(1) << c


@njit(cache=True)
def refill(hands, talon, st, sp):
    """Refill to 6 (OpenFool: seat order; standard: attacker, others clockwise, defender last)."""
    n = sp[SP_NP]
    if sp[SP_REFILL] == 0:
        for p in range(n):
            draw_up(hands, talon, st, sp, p)
        return
    att = st[ST_ATT]
    d = st[ST_DEF]
    for k in range(n):
        p = (att + k) % n
        if p != d:
            draw_up(hands, talon, st, sp, p)
    draw_up(hands, talon, st, sp, d)


@njit(cache=True)
def end_bout(hands, talon, st, sp):
    """Clear the table, refill, mark players out, decide the game or start the next bout."""
    n = sp[SP_NP]
    d = st[ST_DEF]
    na = st[ST_NA]
    taken = st[ST_TAKING] == 1
    if taken:  # a0, d0, a1, d1, ...: each attack card followed by the card that beat it
        for i in range(na):
            add_card(hands, st, d, st[ST_TA + i])
            st[ST_KNOWN + d] |= np.int64(1) << st[ST_TA + i]
            if i < st[ST_NB]:
                add_card(hands, st, d, st[ST_TD + i])
                st[ST_KNOWN + d] |= np.int64(1) << st[ST_TD + i]
    else:
        for i in range(na):
            st[ST_GONE] |= np.int64(1) << st[ST_TA + i]
            st[ST_GONE] |= np.int64(1) << st[ST_TD + i]
        st[ST_DISCARDS] += 2 * na
    st[ST_BOUTS] += 1
    refill(hands, talon, st, sp)
    place = st[ST_NOUT]
    for p in range(n):
        if st[ST_OUT + p] == 0 and st[ST_SIZE + p] == 0:
            st[ST_OUT + p] = 1
            st[ST_PLACE + p] = place
            st[ST_NOUT] += 1
    left = n - st[ST_NOUT]
    if left <= 1:
        finish(st, sp, d, left)
        return
    if taken or st[ST_OUT + d] == 1:
        start_bout(st, sp, next_active(st, d, n))
    else:
        start_bout(st, sp, d)


@njit(cache=True)
def finish(st, sp, defender, left):
    n = sp[SP_NP]
    st[ST_PHASE] = PH_OVER
    if left == 1:
        for p in range(n):
            if st[ST_OUT + p] == 0:
                st[ST_FOOL] = p
                st[ST_PLACE + p] = n - 1
                st[ST_OUT + p] = 1
    elif sp[SP_DRAW] == 1:  # no draws: the last defender is the fool
        st[ST_FOOL] = defender
        st[ST_PLACE + defender] = n - 1
    else:
        st[ST_FOOL] = -1


# ======================================================================================
# Legal actions
# ======================================================================================
@njit(cache=True, inline="always")
def can_transfer(hands, st, sp, i):
    """May the defender transfer with ``hands[def, i]``? (perevodnoy). Always: transfer is on,
    nothing is beaten yet, the defender has not taken, the card has the attacking rank, and the
    table has a free place (at most 6 attack cards). Then, by ``sp[SP_TCHECK]``:

    * standard (0): the next active player can face every attack card, the new one included:
      ``cards on the table + 1 <= min(limit cap, his hand)`` (cap 5; 6 after the first discard
      under the standard limit);
    * OpenFool (1): ``6 - cards on the table < hand of the next seat`` - the number of *empty*
      attack slots against the next seat's hand size (spec, "Decision rules"). The next seat is
      the next one round the table, out or not (a player out holds 0 cards, so no transfer past
      him). With ``k`` cards on the table this needs ``7 - k`` cards in the next hand where the
      standard check needs ``k + 1``: six against two with one card led, five against three
      with two, the same four with three. Since no rank has more than four cards, ``k <= 3``
      here, and OpenFool's test is never the looser one.
    """
    if sp[SP_TRANSFER] == 0 or st[ST_NB] > 0 or st[ST_TAKING] == 1:
        return False
    d = st[ST_DEF]
    c = hands[d, i]
    if c % 13 != st[ST_TA] % 13 or st[ST_NA] >= MAX_TABLE:
        return False
    n = sp[SP_NP]
    if sp[SP_TCHECK] == 1:
        nxt = (d + 1) % n
        return MAX_TABLE - st[ST_NA] < st[ST_SIZE + nxt]
    nd = next_active(st, d, n)
    cap = 5
    if sp[SP_LIMIT] == 1 and st[ST_DISCARDS] > 0:
        cap = 6
    need = st[ST_NA] + 1
    return need <= cap and need <= st[ST_SIZE + nd]


@njit(cache=True, inline="always")
def legal_actions(hands, st, sp, mv):
    """Write the legal actions of the player to act into ``mv``; return their number."""
    p = st[ST_CUR]
    size = st[ST_SIZE + p]
    ph = st[ST_PHASE]
    k = 0
    if ph == PH_ATTACK:
        for i in range(size):
            mv[k] = i
            k += 1
    elif ph == PH_DEFEND:
        a = st[ST_TA + st[ST_NB]]
        trump = st[ST_TRUMP]
        for i in range(size):
            if beats(hands[p, i], a, trump, sp[SP_DEUCE]):
                mv[k] = i
                k += 1
        mv[k] = ACT_TAKE
        k += 1
        if sp[SP_TRANSFER] == 1:
            for i in range(size):
                if can_transfer(hands, st, sp, i):
                    mv[k] = TRANSFER + i
                    k += 1
    elif ph == PH_THROW:
        if st[ST_NA] < st[ST_LIMIT]:
            ranks = st[ST_RANKS]
            for i in range(size):
                if (ranks >> (hands[p, i] % 13)) & 1:
                    mv[k] = i
                    k += 1
        mv[k] = ACT_PASS
        k += 1
    return k


# ======================================================================================
# Applying an action
# ======================================================================================
@njit(cache=True, inline="always")
def _put_attack(st, c):
    st[ST_TA + st[ST_NA]] = c
    st[ST_TD + st[ST_NA]] = -1
    st[ST_NA] += 1
    st[ST_RANKS] |= 1 << (c % 13)


@njit(cache=True, inline="always")
def _to_throwers(hands, talon, st, sp):
    """All attack cards answered (or the defender takes): offer throw-ins, or end the bout."""
    d = st[ST_DEF]
    if st[ST_NA] >= st[ST_LIMIT] or (st[ST_TAKING] == 0 and st[ST_SIZE + d] == 0):
        end_bout(hands, talon, st, sp)
        return
    st[ST_PHASE] = PH_THROW
    st[ST_TP] = 0
    st[ST_PASSES] = 0
    st[ST_CUR] = st[ST_THR]


@njit(cache=True)
def apply_action(hands, talon, st, sp, act):
    """The player to act takes action ``act`` (see the module docstring)."""
    _apply(hands, talon, st, sp, act)
    if st[ST_TURNS] >= MAX_TURNS and st[ST_PHASE] != PH_OVER:
        abandon(st, sp)


@njit(cache=True)
def abandon(st, sp):
    """End an endless game (see MAX_TURNS): no fool, the players left share the next place."""
    n = sp[SP_NP]
    for p in range(n):
        if st[ST_OUT + p] == 0:
            st[ST_PLACE + p] = st[ST_NOUT]
    st[ST_PHASE] = PH_OVER
    st[ST_FOOL] = -1
    st[ST_CAPPED] = 1


@njit(cache=True, inline="always")
def _apply(hands, talon, st, sp, act):
    p = st[ST_CUR]
    ph = st[ST_PHASE]
    st[ST_TURNS] += 1
    if ph == PH_ATTACK:
        _put_attack(st, remove_card(hands, st, p, act))
        st[ST_PHASE] = PH_DEFEND
        st[ST_CUR] = st[ST_DEF]
    elif ph == PH_DEFEND:
        if act == ACT_TAKE:
            st[ST_TAKING] = 1
            _to_throwers(hands, talon, st, sp)
        elif act >= TRANSFER:
            _transfer(hands, st, sp, act - TRANSFER)
        else:
            c = remove_card(hands, st, p, act)
            st[ST_TD + st[ST_NB]] = c
            st[ST_NB] += 1
            st[ST_RANKS] |= 1 << (c % 13)
            if st[ST_NB] == st[ST_NA]:
                _to_throwers(hands, talon, st, sp)
    else:  # PH_THROW
        if act == ACT_PASS:
            st[ST_PASSES] += 1
            if st[ST_PASSES] >= st[ST_NTHR]:
                end_bout(hands, talon, st, sp)
                return
            st[ST_TP] = (st[ST_TP] + 1) % st[ST_NTHR]
            st[ST_CUR] = st[ST_THR + st[ST_TP]]
        else:
            _put_attack(st, remove_card(hands, st, p, act))
            if st[ST_TAKING] == 1:
                if st[ST_NA] >= st[ST_LIMIT]:
                    end_bout(hands, talon, st, sp)
                    return
                st[ST_TP] = 0  # the attacker is asked first again
                st[ST_PASSES] = 0
                st[ST_CUR] = st[ST_THR]
            else:
                st[ST_PHASE] = PH_DEFEND
                st[ST_CUR] = st[ST_DEF]


@njit(cache=True, inline="always")
def _transfer(hands, st, sp, i):
    """Perevodnoy: the defender adds a card of the attacking rank and becomes the attacker."""
    d = st[ST_DEF]
    _put_attack(st, remove_card(hands, st, d, i))
    nd = next_active(st, d, sp[SP_NP])
    st[ST_ATT] = d
    st[ST_DEF] = nd
    st[ST_CUR] = nd
    cap = 5
    if sp[SP_LIMIT] == 1 and st[ST_DISCARDS] > 0:
        cap = 6
    h = st[ST_SIZE + nd]
    st[ST_LIMIT] = cap if cap < h else h
    set_throwers(st, sp)


# ======================================================================================
# Random player (a rules-level baseline)
# ======================================================================================
@njit(cache=True)
def random_action(hands, st, sp, mv, rng):
    """A uniformly random legal action (taking and passing count as one action each)."""
    k = legal_actions(hands, st, sp, mv)
    return mv[randint(rng, k)]


# ======================================================================================
# Hand-made positions (tests, notebooks)
# ======================================================================================
def position(sp: np.ndarray, hands_cards, talon_cards=(), attacker: int = 0, trump=None,
             discards=(), out=()):
    """A bout about to start, from explicit cards: ``hands_cards[p]`` (ids or names, in hand
    order), ``talon_cards`` (top first; the last is the bottom card, which sets the trump unless
    ``trump`` - a suit letter or index - is given), ``discards`` (already out of play),
    ``out`` (players already out, with empty hands). Returns ``(hands, talon, st)``."""
    def ids(cs):
        return [card(c) if isinstance(c, str) else int(c) for c in
                (cs.split() if isinstance(cs, str) else cs)]

    n = int(sp[SP_NP])
    hs = [ids(h) for h in hands_cards]
    tl = ids(talon_cards)
    gone = ids(discards)
    if len(hs) != n:
        raise ValueError(f"hands_cards must give {n} hands, got {len(hs)}")
    used = [c for h in hs for c in h] + tl + gone
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice in the position")
    hands, talon, st = new_arrays(sp)
    deck = np.empty(int(sp[SP_NCARDS]), dtype=np.int64)
    fill_deck(deck, sp)
    rest = [int(c) for c in deck if c not in set(used)]
    if len(rest) + len(used) != len(deck):
        raise ValueError("the position uses cards outside the deck")
    talon[:] = rest + [c for h in hs for c in h] + gone + tl
    st[:] = 0
    for p in range(MAX_PLAYERS):
        st[ST_PLACE + p] = -1
        st[ST_OUT + p] = 0 if p < n and p not in out else 1
    for p, h in enumerate(hs):
        hands[p, :len(h)] = h
        st[ST_SIZE + p] = len(h)
    st[ST_DRAWN] = len(talon) - len(tl)
    st[ST_FOOL] = -1
    st[ST_NOUT] = len(out)
    for k, p in enumerate(sorted(out)):
        st[ST_PLACE + p] = k
    if trump is None:
        if not tl:
            raise ValueError("give trump when the talon is empty")
        st[ST_TRUMP] = tl[-1] // 13
    else:
        st[ST_TRUMP] = SUITS.index(trump.upper()) if isinstance(trump, str) else int(trump)
    st[ST_DISCARDS] = len(gone)
    for c in gone:
        st[ST_GONE] |= np.int64(1) << c
    st[ST_FIRST] = attacker
    start_bout(st, sp, attacker)
    return hands, talon, st


def hand_names(hands, st, p) -> list[str]:
    """Player ``p``'s cards as names, in hand order."""
    return [card_name(int(c)) for c in hands[p, :st[ST_SIZE + p]]]
