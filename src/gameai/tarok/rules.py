"""Three-player tarok engine (numba): deal, bidding, talon, tricks, counting, scoring.

Rules as Silicon Tarokist played them (chapter spec "Rules", from Luštrek's 2002 thesis; paper
§2.1). Where modern rules differ there is a switch in ``S[RULES]`` (``RULE_*`` bits).

Cards (``0..53``): taroks ``0..21`` (0 = pagat = I, 1 = II, ..., 20 = mond = XXI, 21 = škis), then
hearts ``22..29``, diamonds ``30..37``, spades ``38..45``, clubs ``46..53``; inside a suit the
index grows with the rank (red 4, 3, 2, 1, J, C, Q, K; black 7, 8, 9, 10, J, C, Q, K), so "higher
card" is always "higher index" and a set of cards is one int64 mask (bit ``c``).

Play state ``S`` - one flat int64 row (copying a position is one slice copy, which the explicit
stack search relies on); ``S_*`` names the slots. Seats: 0 = forehand, 1, 2 = dealer.

Counting (spec "Counting"): a pile of ``n`` cards with point sum ``s`` counts ``s - ceil(2n/3)``
rounded as the thesis counts groups of three (each full group: sum - 2; a last group of one or two
cards: sum - 1), i.e. ``s - (2n + 1) // 3``. The whole deck counts 70. The paper's "decreased by
1 per three cards" is a slip (it would total 88).
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Bump when the engine's behaviour changes: part of every cached result's key.
ENGINE_VERSION = "1"

N_PLAYERS = 3
N_CARDS = 54
HAND_SIZE = 16
N_TRICKS = 16
TALON_SIZE = 6
PAGAT = 0
MOND = 20
SKIS = 21
N_SUITS = 5  # 0 = taroks, 1 hearts, 2 diamonds, 3 spades, 4 clubs

# --- card tables ----------------------------------------------------------------------------
SUIT = np.zeros(N_CARDS, dtype=np.int64)
RANK = np.zeros(N_CARDS, dtype=np.int64)  # taroks 0..21, suit cards 0..7 (low to high)
POINTS = np.ones(N_CARDS, dtype=np.int64)
for _c in range(22, N_CARDS):
    SUIT[_c] = 1 + (_c - 22) // 8
    RANK[_c] = (_c - 22) % 8
    POINTS[_c] = (1, 1, 1, 1, 2, 3, 4, 5)[RANK[_c]]
for _c in range(22):
    RANK[_c] = _c
POINTS[PAGAT] = POINTS[MOND] = POINTS[SKIS] = 5
SUIT_MASK = np.zeros(N_SUITS, dtype=np.int64)
for _c in range(N_CARDS):
    SUIT_MASK[SUIT[_c]] |= np.int64(1) << _c
TAROKS = SUIT_MASK[0]
ALL_CARDS = (np.int64(1) << N_CARDS) - 1
PAGAT_BIT = np.int64(1) << PAGAT
MOND_BIT = np.int64(1) << MOND
SKIS_BIT = np.int64(1) << SKIS
TRULA = PAGAT_BIT | MOND_BIT | SKIS_BIT
KINGS = np.int64(0)
for _s in range(1, 5):
    KINGS |= np.int64(1) << (22 + 8 * _s - 1)
#: Spot (non-court) cards of the suits: red 4-1, black 7-10.
SPOTS = np.int64(0)
for _c in range(22, N_CARDS):
    if RANK[_c] < 4:
        SPOTS |= np.int64(1) << _c

SUIT_NAMES = ("T", "H", "D", "S", "C")
_RED = ("4", "3", "2", "1", "J", "C", "Q", "K")
_BLACK = ("7", "8", "9", "10", "J", "C", "Q", "K")

# --- contracts ------------------------------------------------------------------------------
KLOP, THREE, TWO, ONE, SOLO, BEGGAR = 0, 1, 2, 3, 4, 5
PASS = -1
CONTRACT_NAMES = ("klop", "three", "two", "one", "solo", "beggar")
CONTRACT_VALUE = np.array([0, 10, 20, 30, 50, 70], dtype=np.int64)
TALON_TAKE = np.array([0, 3, 2, 1, 0, 0], dtype=np.int64)

# --- announcements (declarer's, bits of S[S_ANN]) ------------------------------------------
ANN_TRULA, ANN_KINGS, ANN_PAGAT, ANN_VALAT = 1, 2, 4, 8
ANN_NAMES = ("trula", "kings", "pagat_ultimo", "valat")
BONUS_VALUE = np.array([20, 20, 50, 500], dtype=np.int64)
MOND_PENALTY = 21

# --- rule switches (bits of S[S_RULES]) -----------------------------------------------------
RULE_FOREHAND_LEADS = 1  # modern: forehand leads the first trick (thesis: the declarer)
RULE_MODERN_KLOP = 2  # modern klop: > 35 points -> -70, no points -> +70, then only they score
RULE_NAMES = {"forehand_leads": RULE_FOREHAND_LEADS, "modern_klop": RULE_MODERN_KLOP}

# --- play state layout ----------------------------------------------------------------------
S_HAND = 0  # 3 hand masks
S_PILE = 3  # 3 pile masks (tricks won, discards, talon shares)
S_TRICK = 6  # card played to the current trick by seat (-1: none yet)
S_NT = 9  # cards in the current trick
S_LEAD = 10  # seat that led the current trick
S_TURN = 11  # seat to play
S_DECL = 12  # declarer (-1 in klop)
S_CONTRACT = 13
S_TRICKNO = 14  # completed tricks
S_DONE = 15
S_TALON = 16  # the 6 talon cards in order (-1 once given away: klop gifts)
S_VOID = 22  # 3 masks of suits (bit = suit index) each seat has shown void in
S_LASTWIN = 25  # seat that won the last completed trick
S_LASTCARD = 26  # the card that won it
S_MONDLOST = 27  # seat charged the mond penalty (-1: none)
S_ANN = 28  # declarer's announcements
S_NTRICKS = 29  # 3 counts of tricks won
S_RULES = 32
S_PLAYED = 33  # cards played to tricks (completed or current)
S_SHOWN = 34  # discarded taroks (shown to all)
S_TALON_SEEN = 35  # talon cards everybody has seen (turned-up talon; klop gifts as taken)
S_PTS3 = 36  # 3 running pile values in thirds of a point: sum of (3 x points - 2) per card
S_LEN = 39


def card_name(c: int) -> str:
    """'I'..'XXI', 'Sk' for taroks; 'HK', 'S10', ... for suit cards."""
    if c < 22:
        if c == SKIS:
            return "Sk"
        return _roman(c + 1)
    s = int(SUIT[c])
    names = _RED if s <= 2 else _BLACK
    return SUIT_NAMES[s] + names[int(RANK[c])]


def _roman(n: int) -> str:
    out = ""
    for v, r in ((20, "XX"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out += r
            n -= v
    return out


def card_from_name(name: str) -> int:
    for c in range(N_CARDS):
        if card_name(c) == name:
            return c
    raise ValueError(f"unknown card name {name!r}")


def mask_of(cards) -> int:
    """Mask of an iterable of card indices or names."""
    m = 0
    for c in cards:
        m |= 1 << (card_from_name(c) if isinstance(c, str) else int(c))
    return m


def cards_of(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if (int(mask) >> c) & 1]


# ------------------------------------------------------------------------------------ bits
@njit(cache=True, inline="always")
def bit(c):
    return np.int64(1) << c


@njit(cache=True)
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def lowest(x):
    """Index of the lowest set bit of a non-zero mask (binary search, 6 steps)."""
    n = 0
    if x & 0xFFFFFFFF == 0:
        n += 32
        x >>= 32
    if x & 0xFFFF == 0:
        n += 16
        x >>= 16
    if x & 0xFF == 0:
        n += 8
        x >>= 8
    if x & 0xF == 0:
        n += 4
        x >>= 4
    if x & 0x3 == 0:
        n += 2
        x >>= 2
    if x & 0x1 == 0:
        n += 1
    return n


@njit(cache=True)
def highest(x):
    """Index of the highest set bit of a non-zero mask."""
    n = 0
    if x >> 32:
        n += 32
        x >>= 32
    if x >> 16:
        n += 16
        x >>= 16
    if x >> 8:
        n += 8
        x >>= 8
    if x >> 4:
        n += 4
        x >>= 4
    if x >> 2:
        n += 2
        x >>= 2
    if x >> 1:
        n += 1
    return n


@njit(cache=True, inline="always")
def above(c):
    """Mask of the cards with a higher index than ``c`` (and-ed with a suit: higher of the suit)."""
    return ~((np.int64(2) << c) - 1)


@njit(cache=True)
def raw_points(mask):
    s = 0
    while mask:
        c = lowest(mask)
        s += POINTS[c]
        mask &= mask - 1
    return s


@njit(cache=True)
def counted_points(mask):
    """Card points of a pile counted in threes (spec "Counting"): sum - (2n + 1) // 3."""
    return raw_points(mask) - (2 * popcount(mask) + 1) // 3


# ------------------------------------------------------------------------------------ deal
@njit(cache=True)
def deal(rng):
    """Shuffle and deal: (hands[3] masks, talon[6] cards in the order it is turned up)."""
    perm = np.arange(N_CARDS)
    for i in range(N_CARDS - 1, 0, -1):  # Fisher-Yates
        j = np.int64(rng.random() * (i + 1))
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    hands = np.zeros(N_PLAYERS, dtype=np.int64)
    for p in range(N_PLAYERS):
        for k in range(HAND_SIZE):
            hands[p] |= bit(perm[p * HAND_SIZE + k])
    talon = perm[N_PLAYERS * HAND_SIZE:].copy()
    return hands, talon


# ------------------------------------------------------------------------------ play state
@njit(cache=True)
def add_to_pile(S, p, mask):
    """Put ``mask`` on seat p's pile, keeping its value in thirds (3 x points - 2 per card: the
    counting in threes without its rounding, so that it adds up card by card)."""
    S[S_PILE + p] |= mask
    S[S_PTS3 + p] += 3 * raw_points(mask) - 2 * popcount(mask)


@njit(cache=True)
def new_state(hands, talon, contract, decl, rules):
    """The play state right after bidding (before any talon exchange).

    Solo and beggar: the talon goes, unseen, to the opponents' pile (seat decl+1 holds their
    common pile shares). Klop: the talon waits for the first six trick winners. Three/two/one:
    ``exchange`` must follow before the first card.
    """
    S = np.full(S_LEN, -1, dtype=np.int64)
    for p in range(N_PLAYERS):
        S[S_HAND + p] = hands[p]
        S[S_PILE + p] = 0
        S[S_VOID + p] = 0
        S[S_NTRICKS + p] = 0
        S[S_PTS3 + p] = 0
    for i in range(TALON_SIZE):
        S[S_TALON + i] = talon[i]
    S[S_NT] = 0
    S[S_DECL] = decl if contract != KLOP else -1
    S[S_CONTRACT] = contract
    S[S_TRICKNO] = 0
    S[S_DONE] = 0
    S[S_ANN] = 0
    S[S_RULES] = rules
    S[S_PLAYED] = 0
    S[S_SHOWN] = 0
    S[S_TALON_SEEN] = 0
    if contract == SOLO or contract == BEGGAR:
        t = 0
        for i in range(TALON_SIZE):
            t |= bit(talon[i])
            S[S_TALON + i] = -1
        add_to_pile(S, (decl + 1) % N_PLAYERS, t)
    first = 0
    if contract != KLOP and rules & RULE_FOREHAND_LEADS == 0:
        first = decl  # thesis: the declarer leads the first trick
    S[S_LEAD] = first
    S[S_TURN] = first
    return S


@njit(cache=True)
def talon_group(S, group):
    """Mask of talon group ``group`` (groups of 3, 2 or 1 in the order the talon is turned up)."""
    k = TALON_TAKE[S[S_CONTRACT]]
    m = np.int64(0)
    for i in range(group * k, group * k + k):
        m |= bit(S[S_TALON + i])
    return m


@njit(cache=True)
def discard_allowed(hand):
    """Cards the declarer may lay away: no kings and no trula cards (spec "Talon")."""
    return hand & ~KINGS & ~TRULA


@njit(cache=True)
def exchange(S, group, discards):
    """Talon exchange of three/two/one (spec "Talon"): the declarer takes ``group``, lays
    ``discards`` (a mask) on his own pile - taroks among them are shown -, the rest of the talon
    goes to the opponents. Leaving mond there costs the declarer the mond penalty.
    Returns False (state unchanged) if the exchange is illegal."""
    c = S[S_CONTRACT]
    d = S[S_DECL]
    k = TALON_TAKE[c]
    if k == 0 or group < 0 or group >= TALON_SIZE // k:
        return False
    take = talon_group(S, group)
    hand = S[S_HAND + d] | take
    if popcount(discards) != k or discards & ~hand or discards & ~discard_allowed(hand):
        return False
    rest = np.int64(0)
    for i in range(TALON_SIZE):
        rest |= bit(S[S_TALON + i])
        S[S_TALON + i] = -1
    S[S_TALON_SEEN] = rest
    rest &= ~take
    S[S_HAND + d] = hand & ~discards
    add_to_pile(S, d, discards)
    S[S_SHOWN] |= discards & TAROKS
    add_to_pile(S, (d + 1) % N_PLAYERS, rest)
    if rest & MOND_BIT:
        S[S_MONDLOST] = d
    return True


# ------------------------------------------------------------------------------ tricks
@njit(cache=True, inline="always")
def is_negative(contract):
    return contract == KLOP or contract == BEGGAR


@njit(cache=True)
def trick_mask(S):
    m = np.int64(0)
    for p in range(N_PLAYERS):
        if S[S_TRICK + p] >= 0:
            m |= bit(S[S_TRICK + p])
    return m


@njit(cache=True)
def legal_mask(S):
    """Legal cards of the seat to play (spec "Play"; paper §2.1).

    Follow suit; if void, play a tarok; if void of taroks too, anything. In klop and beggar the
    card must also beat the trick when it can (a suit card beats only while nobody has trumped),
    and pagat may only be played when it is the only legal card - and must be when mond and
    škis are both in the trick (it then wins it)."""
    p = S[S_TURN]
    h = S[S_HAND + p]
    neg = is_negative(S[S_CONTRACT])
    if S[S_NT] == 0:
        if neg and h & PAGAT_BIT and h != PAGAT_BIT:
            return h & ~PAGAT_BIT
        return h
    ls = SUIT[S[S_TRICK + S[S_LEAD]]]
    cand = h & SUIT_MASK[ls]
    s = ls
    if cand == 0:
        cand = h & TAROKS
        s = 0
        if cand == 0:
            return h
    if not neg:
        return cand
    tm = trick_mask(S)
    if h & PAGAT_BIT and tm & MOND_BIT and tm & SKIS_BIT:
        return PAGAT_BIT
    if s == 0 or tm & TAROKS == 0:  # a suit card cannot beat a trick someone has trumped
        ins = tm & SUIT_MASK[s]
        if ins:
            higher = cand & above(highest(ins))
            if higher:
                cand = higher
    if cand & PAGAT_BIT and cand != PAGAT_BIT:
        cand &= ~PAGAT_BIT
    return cand


@njit(cache=True)
def trick_winner(S):
    """Seat that wins the (complete) current trick: pagat if pagat, mond and škis all fell;
    else the highest tarok; else the highest card of the suit led."""
    tm = trick_mask(S)
    if tm & TRULA == TRULA:
        best = PAGAT
    elif tm & TAROKS:
        best = highest(tm & TAROKS)
    else:
        best = highest(tm & SUIT_MASK[SUIT[S[S_TRICK + S[S_LEAD]]]])
    for p in range(N_PLAYERS):
        if S[S_TRICK + p] == best:
            return p
    return -1


@njit(cache=True, inline="always")
def same_side(S, a, b):
    """Whether seats a and b play together (klop: everyone for himself)."""
    d = S[S_DECL]
    if a == b:
        return True
    if d < 0:
        return False
    return a != d and b != d


@njit(cache=True)
def play(S, c):
    """Play card ``c`` (assumed legal) for the seat to play; resolves a complete trick."""
    p = S[S_TURN]
    b = bit(c)
    S[S_HAND + p] &= ~b
    S[S_PLAYED] |= b
    if S[S_NT] > 0:  # a void shown: failing to follow suit (and, with no tarok, taroks)
        ls = SUIT[S[S_TRICK + S[S_LEAD]]]
        if SUIT[c] != ls:
            S[S_VOID + p] |= np.int64(1) << ls
            if SUIT[c] != 0:
                S[S_VOID + p] |= 1
    S[S_TRICK + p] = c
    S[S_NT] += 1
    if S[S_NT] < N_PLAYERS:
        S[S_TURN] = (p + 1) % N_PLAYERS
        return
    finish_trick(S)


@njit(cache=True)
def finish_trick(S):
    w = trick_winner(S)
    tm = trick_mask(S)
    contract = S[S_CONTRACT]
    add_to_pile(S, w, tm)
    S[S_NTRICKS + w] += 1
    k = S[S_TRICKNO]
    if contract == KLOP and k < TALON_SIZE and S[S_TALON + k] >= 0:  # klop: a talon gift
        g = bit(S[S_TALON + k])
        add_to_pile(S, w, g)
        S[S_TALON_SEEN] |= g
        S[S_TALON + k] = -1
    if tm & MOND_BIT and not is_negative(contract):  # mond captured by the other side
        for p in range(N_PLAYERS):
            if S[S_TRICK + p] == MOND and not same_side(S, p, w):
                S[S_MONDLOST] = p
    S[S_LASTWIN] = w
    S[S_LASTCARD] = S[S_TRICK + w]
    S[S_TRICKNO] = k + 1
    for p in range(N_PLAYERS):
        S[S_TRICK + p] = -1
    S[S_NT] = 0
    S[S_LEAD] = w
    S[S_TURN] = w
    if k + 1 == N_TRICKS or (contract == BEGGAR and w == S[S_DECL]):
        S[S_DONE] = 1


# ------------------------------------------------------------------------------ scoring
@njit(cache=True)
def side_piles(S):
    """(declarer's pile, opponents' pile) masks."""
    d = S[S_DECL]
    return S[S_PILE + d], S[S_PILE + (d + 1) % 3] | S[S_PILE + (d + 2) % 3]


@njit(cache=True)
def bonuses_achieved(S):
    """Per bonus (trula, kings, pagat ultimo, valat): +1 declarer's side, -1 opponents', 0."""
    mine, theirs = side_piles(S)
    d = S[S_DECL]
    out = np.zeros(4, dtype=np.int64)
    for i, m in enumerate((TRULA, KINGS)):
        if mine & m == m:
            out[i] = 1
        elif theirs & m == m:
            out[i] = -1
    if S[S_TRICKNO] == N_TRICKS and S[S_LASTCARD] == PAGAT:
        out[2] = 1 if S[S_LASTWIN] == d else -1
    if S[S_NTRICKS + d] == N_TRICKS:
        out[3] = 1
    elif S[S_NTRICKS + d] == 0 and S[S_TRICKNO] == N_TRICKS:
        out[3] = -1
    return out


@njit(cache=True)
def scores(S):
    """Final scores of the three seats (spec "Scoring", "Klop").

    Normal contracts: declarer's counted points - 35, plus the contract value if he took more
    than 35, minus it otherwise; each bonus (trula 20, kings 20, pagat ultimo 50, valat 500):
    announced and achieved +value, announced and failed -value, silent and achieved by either
    side +-value/2. Opponents score 0. Beggar: +-70. Klop: 35 points or more -70, else -points
    (modern switch: > 35 -70, no points +70, and then only those two kinds score). Mond lost
    (captured by the other side, or left in the talon by the declarer) costs its owner 21."""
    out = np.zeros(N_PLAYERS, dtype=np.int64)
    c = S[S_CONTRACT]
    if c == KLOP:
        modern = S[S_RULES] & RULE_MODERN_KLOP
        extreme = False
        for p in range(N_PLAYERS):
            pts = counted_points(S[S_PILE + p])
            if modern:
                if pts > 35:
                    out[p] = -70
                    extreme = True
                elif S[S_PILE + p] == 0:
                    out[p] = 70
                    extreme = True
                else:
                    out[p] = -pts
            else:
                out[p] = -70 if pts >= 35 else -pts
        if extreme:
            for p in range(N_PLAYERS):
                if out[p] != 70 and out[p] != -70:
                    out[p] = 0
        return out
    d = S[S_DECL]
    v = CONTRACT_VALUE[c]
    if c == BEGGAR:
        out[d] = v if S[S_NTRICKS + d] == 0 else -v
        return out
    mine, _ = side_piles(S)
    pts = counted_points(mine)
    sc = pts - 35 + (v if pts > 35 else -v)
    ach = bonuses_achieved(S)
    for i in range(4):
        if S[S_ANN] & (1 << i):
            sc += BONUS_VALUE[i] if ach[i] == 1 else -BONUS_VALUE[i]
        else:
            sc += ach[i] * BONUS_VALUE[i] // 2
    out[d] = sc
    if S[S_MONDLOST] >= 0:
        out[S[S_MONDLOST]] -= MOND_PENALTY
    return out


# ------------------------------------------------------------------------------ random play
@njit(cache=True, inline="always")
def random_bit(mask, rng):
    """A uniformly random card of a non-empty mask."""
    k = np.int64(rng.random() * popcount(mask))
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


@njit(cache=True)
def random_playout(S, rng):
    while S[S_DONE] == 0:
        play(S, random_bit(legal_mask(S), rng))


@njit(cache=True)
def random_discards(S, group, rng):
    """Random legal discards for taking ``group``."""
    d = S[S_DECL]
    allowed = discard_allowed(S[S_HAND + d] | talon_group(S, group))
    out = np.int64(0)
    for _ in range(TALON_TAKE[S[S_CONTRACT]]):
        c = random_bit(allowed, rng)
        out |= bit(c)
        allowed &= ~bit(c)
    return out


# ------------------------------------------------------------------------------ bidding
def bid_options(high: int, holder: int, seat: int, opened: bool) -> list[int]:
    """Legal calls of ``seat`` (spec "Bidding"): forehand must open three; later a call must be
    higher than the standing bid, or equal to it from a seat before its holder; or pass."""
    if not opened:
        return [THREE]
    opts = [PASS]
    for c in (THREE, TWO, ONE, SOLO, BEGGAR):
        if c > high or (c == high and seat < holder):
            opts.append(c)
    return opts


def run_bidding(choose) -> tuple[int, int]:
    """Bidding with ``choose(seat, options, high, holder) -> call``; returns (contract, declarer).

    Seats call in turn 0, 1, 2, 0, ... skipping those who passed, until one bidder is left. If
    forehand is left with his opening three he may choose klop instead (then declarer is -1)."""
    high, holder = THREE, 0
    active = [True, True, True]
    c = choose(0, bid_options(0, 0, 0, False), 0, 0)
    if c != THREE:
        raise ValueError(f"forehand must open three, got {c!r}")
    seat = 1
    raised = False
    while sum(active) > 1:
        if active[seat]:
            if seat == holder:  # everyone else passed since
                break
            opts = bid_options(high, holder, seat, True)
            call = choose(seat, opts, high, holder)
            if call not in opts:
                raise ValueError(f"illegal call {call!r} by seat {seat}; allowed: {opts}")
            if call == PASS:
                active[seat] = False
            else:
                high, holder, raised = call, seat, True
        seat = (seat + 1) % N_PLAYERS
    if holder == 0 and high == THREE and not raised:
        c = choose(0, [THREE, KLOP], high, holder)
        if c not in (THREE, KLOP):
            raise ValueError(f"forehand's final choice must be three or klop, got {c!r}")
        if c == KLOP:
            return KLOP, -1
    return high, holder
