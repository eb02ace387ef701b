"""Three-player alpha-beta of Silicon Tarokist (paper §4; chapter spec "The program").

Perfect-information search of one (sampled) deal from the point of view of seat ``me``.

* **Node types are computed**, not alternated (paper §4.1, Fig. 1): a node is a max node when the
  seat to play is on ``me``'s side (``rules.same_side``), a min node otherwise. In klop everyone
  plays for himself, so only ``me``'s own nodes are max nodes.
* **Evaluation** (spec "Evaluation"; paper eq. 1), multiplied by 3 so that card points counted in
  threes stay whole numbers (each card counts ``3 x points - 2`` thirds): normal contracts
  ``5 x (points of my side - points of the other side) + sum of my taroks' numbers + 50 [mond]
  + 50 [škis]`` (+ 125 x the pagat-ultimo outcome when the game ends, x 2 if announced); klop
  ``-100 x own points + 20 x the others' points + my highest tarok's number``; beggar ``+-BIG``
  once the declarer has taken a trick, else 0.
* **Enhancements**, each switchable on its own in the ``cfg`` row (``CFG_*``):
  1. transposition table (§4.2): ``TT_FUZZY`` (the thesis's abstract key: per suit the number of
     spot cards and the exact court cards; for taroks their count, their sum rounded to 10, the
     highest, and whether pagat, mond, škis are held; plus each seat's card in the current trick
     and the seat to play) or ``TT_EXACT`` (the exact hands), 1,000,003 slots, always replace,
     exact / lower / upper entries. Values are stored relative to the piles taken so far (the
     evaluation is additive in them), so that a transposition reached with other tricks taken
     still reuses the entry.
  2. history heuristic (§4.3, eq. 2): a card causing a cut-off gains ``2 ** depth`` (the depth of
     the subtree under the node), moves are tried by decreasing history (reset each search).
  3. minimal window (§4.4): the first child with the full window, the others with a null window
     next to the best value so far, re-searched with the full window when they fail inside it.
  4. third-card pruning (§4.5): at the third card of a trick only a few human-chosen cards are
     searched (``third_card_moves``). This and the fuzzy table are inexact by design.
* **Switches towards the thesis's own program** (Luštrek 2002, the thesis behind the paper),
  each beside the sound default (``SEARCH_VARIANTS``: ``"sound"`` is the default, ``"thesis"``
  sets all five):
  - ``root``: ``"full"`` (every root card with the full window, exact values) or
    ``"alphabeta"`` (the root an ordinary alpha-beta node; thesis Table 8's plain counts fit it);
  - ``minimal_window``: ``"pvs"`` (sound principal-variation search, thesis §3.1.5's prose) or
    ``"thesis"`` (thesis Algorithm 6 as printed: the upper bound b of a max node is never reset
    to beta after a re-search, so a re-search that improves the best value stops the node -
    an early stop that is not exact; ``alphabeta_thesis_step``) or ``"thesis_inner"`` (Algorithm
    6 below the root only; an alpha-beta root keeps PVS, so it searches every root card);
  - ``pruning``: ``"spec"`` (our reading of §4.5, ``third_card_moves``) or ``"thesis"``
    (thesis Tables 5 and 6, klop and beggar included, ``thesis_card_moves``).
  - ``second_highest`` (inside the thesis pruning): ``"always"`` (the second-highest card kept
    wherever Tables 5-6 tick it) or ``"queen"`` (only with suits and only if the highest is at
    least a queen: thesis p. 28, item 4 of the list of kept cards; ``second_highest_kept``);
  - ``tt_key``: ``"seat"`` (the key holds the seat to move) or ``"thesis"`` (the thesis's index,
    eqs. 5-6: the hands' codes and the current trick's cards only; ``position_key``).
* **Node count**: every position the search enters counts one node - the root, every child it
  plays into, leaves and positions answered by the transposition table included (a child
  re-searched after a failed minimal window counts again). The thesis says "nodes expanded"
  without more; this is the usual "nodes searched" of the alpha-beta literature.

The recursion is written with an explicit stack (``alphabeta``): numba's on-disk cache and
recursive functions do not mix (ARCHITECTURE.md).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from .rules import (
    BEGGAR,
    KLOP,
    MOND,
    MOND_BIT,
    N_PLAYERS,
    N_TRICKS,
    PAGAT,
    PAGAT_BIT,
    POINTS,
    RANK,
    S_ANN,
    S_CONTRACT,
    S_DECL,
    S_DONE,
    S_HAND,
    S_LASTCARD,
    S_LASTWIN,
    S_LEAD,
    S_LEN,
    S_NT,
    S_NTRICKS,
    S_PTS3,
    S_TRICK,
    S_TRICKNO,
    S_TURN,
    SKIS,
    SKIS_BIT,
    SPOTS,
    SUIT,
    SUIT_MASK,
    TAROKS,
    ANN_PAGAT,
    bit,
    highest,
    legal_mask,
    lowest,
    play,
    popcount,
    same_side,
)

#: Bump when the search's behaviour changes: part of every cached result's key.
SEARCH_VERSION = "1"

INF = 1_000_000_000
BIG = 1_000_000  # beggar decided
TT_SIZE = 1_000_003
MAX_PLY = 50

# --- cfg row ----------------------------------------------------------------------------------
CFG_TT = 0  # TT_NONE / TT_FUZZY / TT_EXACT
CFG_HISTORY = 1
CFG_MINWINDOW = 2
CFG_PRUNING = 3
CFG_ROOT_AB = 4  # 1: alpha-beta at the root too (only the best card's value is exact)
CFG_MW_THESIS = 5  # 1: thesis Algorithm 6's window (as printed) instead of PVS; 2: below the root
CFG_PRUNE_THESIS = 6  # 1: thesis Tables 5-6 at the third card instead of third_card_moves
CFG_SECOND_QUEEN = 7  # 1: Tables 5-6 keep the 2nd highest only with suits, highest >= queen
CFG_TT_NOSEAT = 8  # 1: the table's key without the seat to move (thesis eqs. 5-6)
CFG_LEN = 9
TT_NONE, TT_FUZZY, TT_EXACT = 0, 1, 2

FLAG_EXACT, FLAG_LOWER, FLAG_UPPER = 1, 2, 3

#: Table 1's ten configurations (spec claim ids) -> (tt, history, minimal window, pruning).
CONFIGS = {
    "all": (TT_FUZZY, 1, 1, 1),
    "no_tt": (TT_NONE, 1, 1, 1),
    "no_history": (TT_FUZZY, 0, 1, 1),
    "no_minwindow": (TT_FUZZY, 1, 0, 1),
    "no_pruning": (TT_FUZZY, 1, 1, 0),
    "only_tt": (TT_FUZZY, 0, 0, 0),
    "only_history": (TT_NONE, 1, 0, 0),
    "only_minwindow": (TT_NONE, 0, 1, 0),
    "only_pruning": (TT_NONE, 0, 0, 1),
    "none": (TT_NONE, 0, 0, 0),
    # for comparison with the fuzzy table (thesis: 2.3x more nodes)
    "all_exact_tt": (TT_EXACT, 1, 1, 1),
    "only_exact_tt": (TT_EXACT, 0, 0, 0),
}


#: The three switches and their choices (the first is the sound default).
ROOTS = ("full", "alphabeta")
MINIMAL_WINDOWS = ("pvs", "thesis", "thesis_inner")
#: CFG_MW_THESIS of each minimal window
MW_CODES = {"pvs": 0, "thesis": 1, "thesis_inner": 2}
PRUNINGS = ("spec", "thesis")
#: Inside the thesis pruning (Tables 5-6): ``always`` keeps the second-highest card wherever
#: the tables tick it; ``queen`` only "with suits and only if the highest is at least a queen"
#: (thesis p. 28, the list of kept cards, item 4). The sound ``spec`` pruning
#: (``third_card_moves``) has that condition already.
SECOND_HIGHEST = ("always", "queen")
#: The transposition table's key: ``seat`` holds the seat to move; ``thesis`` is the thesis's
#: index (eqs. 5-6): the hands' codes and the current trick's cards only, so positions that
#: differ only in who leads share an entry (unsound, but what the thesis prints).
TT_KEYS = ("seat", "thesis")
#: The rank of a queen in its suit (``rules.RANK``: 0..7 low to high, queen 6).
QUEEN_RANK = 6
#: Named search configurations: the sound default and the thesis's own program (Luštrek 2002:
#: alpha-beta root, Algorithm 6 as printed, Tables 5-6 with the queen condition of p. 28, the
#: table's index of eqs. 5-6).
SEARCH_VARIANTS = {
    "sound": {"root": "full", "minimal_window": "pvs", "pruning": "spec",
              "second_highest": "always", "tt_key": "seat"},
    "thesis": {"root": "alphabeta", "minimal_window": "thesis", "pruning": "thesis",
               "second_highest": "queen", "tt_key": "thesis"},
}


def make_cfg(tt: int = TT_FUZZY, history: int = 1, minwindow: int = 1, pruning: int = 1,
             root_ab: int = 0, mw_thesis: int = 0, prune_thesis: int = 0,
             second_queen: int = 0, tt_noseat: int = 0):
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    cfg[CFG_TT], cfg[CFG_HISTORY], cfg[CFG_MINWINDOW], cfg[CFG_PRUNING] = (
        tt, history, minwindow, pruning)
    cfg[CFG_ROOT_AB] = root_ab
    cfg[CFG_MW_THESIS] = mw_thesis
    cfg[CFG_PRUNE_THESIS] = prune_thesis
    cfg[CFG_SECOND_QUEEN] = second_queen
    cfg[CFG_TT_NOSEAT] = tt_noseat
    return cfg


def _choice(label: str, value: str, choices) -> str:
    if value not in choices:
        raise ValueError(f"{label} must be one of {', '.join(choices)}; got {value!r}")
    return value


def switch_cfg(cfg: np.ndarray, root: str = "full", minimal_window: str = "pvs",
               pruning: str = "spec", second_highest: str = "always",
               tt_key: str = "seat") -> np.ndarray:
    """``cfg`` with the five switches set (module docstring; values checked)."""
    out = cfg.copy()
    out[CFG_ROOT_AB] = _choice("root", root, ROOTS) == "alphabeta"
    out[CFG_MW_THESIS] = MW_CODES[_choice("minimal_window", minimal_window, MINIMAL_WINDOWS)]
    out[CFG_PRUNE_THESIS] = _choice("pruning", pruning, PRUNINGS) == "thesis"
    out[CFG_SECOND_QUEEN] = _choice("second_highest", second_highest, SECOND_HIGHEST) == "queen"
    out[CFG_TT_NOSEAT] = _choice("tt_key", tt_key, TT_KEYS) == "thesis"
    return out


def config_cfg(name: str, root_ab: bool = False, *, root: str | None = None,
               minimal_window: str = "pvs", pruning: str = "spec",
               second_highest: str = "always", tt_key: str = "seat") -> np.ndarray:
    """The cfg row of Table 1 configuration ``name`` with the switches (``root`` overrides
    ``root_ab``)."""
    if name not in CONFIGS:
        raise ValueError(f"search config must be one of {', '.join(CONFIGS)}; got {name!r}")
    root = root or ("alphabeta" if root_ab else "full")
    return switch_cfg(make_cfg(*CONFIGS[name]), root, minimal_window, pruning, second_highest,
                      tt_key)


def variant_cfg(name: str, variant: str = "sound") -> np.ndarray:
    """Configuration ``name`` in the named search configuration ``variant`` (SEARCH_VARIANTS)."""
    return config_cfg(name, **SEARCH_VARIANTS[_choice("search", variant, tuple(SEARCH_VARIANTS))])


class Tables:
    """The search's memory: transposition table (keys, values, meta = generation, depth, flag),
    history scores, a generation counter and node counters. One per process and thread."""

    def __init__(self, tt_size: int = TT_SIZE):
        self.tt_key = np.zeros(tt_size, dtype=np.int64)
        self.tt_val = np.zeros(tt_size, dtype=np.int64)
        self.tt_meta = np.zeros(tt_size, dtype=np.int64)
        self.hist = np.zeros(64, dtype=np.int64)
        self.gen = np.zeros(1, dtype=np.int64)  # searches so far: entries of older ones are void
        self.stack = np.zeros((MAX_PLY, S_LEN), dtype=np.int64)

    def args(self):
        return self.tt_key, self.tt_val, self.tt_meta, self.hist, self.gen, self.stack


@functools.lru_cache(maxsize=1)
def shared_tables() -> Tables:
    return Tables()


# ------------------------------------------------------------------------------ evaluation
@njit(cache=True)
def tarok_numbers(h):
    """Sum of the numbers of the taroks in ``h`` (pagat 1 ... mond 21, škis 22)."""
    t = h & TAROKS
    s = 0
    while t:
        s += lowest(t) + 1
        t &= t - 1
    return s


@njit(cache=True)
def pile_part(S, me):
    """The part of the evaluation that depends on the piles (additive card by card)."""
    c = S[S_CONTRACT]
    if c == BEGGAR:
        return 0
    own = 0
    other = 0
    for p in range(N_PLAYERS):
        if same_side(S, p, me):
            own += S[S_PTS3 + p]
        else:
            other += S[S_PTS3 + p]
    if c == KLOP:
        return -100 * own + 20 * other
    return 5 * (own - other)


@njit(cache=True)
def evaluate(S, me):
    """Thesis evaluation x 3 (module docstring) of S for seat ``me``."""
    c = S[S_CONTRACT]
    if c == BEGGAR:
        d = S[S_DECL]
        if S[S_NTRICKS + d] > 0:
            return -BIG if me == d else BIG
        return 0
    h = S[S_HAND + me]
    v = pile_part(S, me)
    if c == KLOP:
        t = h & TAROKS
        return v + (3 * (highest(t) + 1) if t else 0)
    v += 3 * tarok_numbers(h)
    if h & MOND_BIT:
        v += 150
    if h & SKIS_BIT:
        v += 150
    if S[S_TRICKNO] == N_TRICKS and S[S_LASTCARD] == PAGAT:
        pu = 375 * (2 if S[S_ANN] & ANN_PAGAT else 1)
        v += pu if same_side(S, S[S_LASTWIN], me) else -pu
    return v


# ------------------------------------------------------------------------------ keys
@njit(cache=True)
def mix(k, x):
    """splitmix64 finaliser of k ^ x (unsigned arithmetic kept inside)."""
    z = np.uint64(k ^ x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(z)


@njit(cache=True)
def hand_features(h):
    """The thesis's abstraction of a hand (§4.2) packed in one int64."""
    f = np.int64(0)
    for s in range(1, 5):
        sm = h & SUIT_MASK[s]
        courts = (sm >> (22 + 8 * (s - 1) + 4)) & 0xF
        f = (f << 7) | (popcount(sm & SPOTS) << 4) | courts
    t = h & TAROKS
    n = popcount(t)
    hi = highest(t) + 1 if t else 0
    flags = (t & 1) | ((t >> (MOND - 1)) & 2) | ((t >> (SKIS - 2)) & 4)
    f = (f << 5) | n
    f = (f << 5) | ((tarok_numbers(t) + 5) // 10)
    f = (f << 5) | hi
    f = (f << 3) | flags
    return f


@njit(cache=True)
def position_key(S, fuzzy, seat=True):
    """The transposition table's key: each hand (its thesis abstraction ``hand_features`` when
    ``fuzzy``, else exact) and each seat's card in the current trick; with ``seat`` also the
    seat to move. Without it this is the thesis's index (eqs. 5-6: the hands' codes and the
    current trick's cards only), under which positions that differ only in who leads an empty
    trick share an entry."""
    k = np.int64(S[S_TURN] + 1) if seat else np.int64(0)
    for p in range(N_PLAYERS):
        h = S[S_HAND + p]
        k = mix(k, hand_features(h) if fuzzy else h)
    t = np.int64(0)
    for p in range(N_PLAYERS):
        t = (t << 6) | (S[S_TRICK + p] + 1)
    return mix(k, t)


# ------------------------------------------------------------------------------ moves
@njit(cache=True, inline="always")
def order_key(c):
    """Strength order inside a legal set: taroks by number, suit cards by points then rank."""
    return RANK[c] if SUIT[c] == 0 else POINTS[c] * 32 + RANK[c]


@njit(cache=True)
def beats(c, w, lead_suit):
    """Whether card ``c`` played after the winning card ``w`` would take over the trick."""
    if SUIT[c] == 0:
        return SUIT[w] != 0 or c > w
    return SUIT[w] == SUIT[c] and SUIT[c] == lead_suit and c > w


@njit(cache=True)
def third_card_moves(S, legal):
    """Cards kept at the third card of a trick (§4.5; our reading of the thesis's situations).

    Beggar: only the highest card (the third card decides the trick whatever it is). Otherwise
    with the partner winning the trick: the highest card, the second highest when the highest is
    a queen or king, and the lowest (for a tarok or a discard); against an opponent: the lowest,
    the lowest winning card, the highest, the second highest (queen/king) and mond. Both: the
    lowest tarok above pagat when the lowest card is pagat. Klop: the lowest, the highest, the
    lowest winning and the highest losing card."""
    if popcount(legal) == 1 or (popcount(legal) == 2 and S[S_CONTRACT] != BEGGAR):
        return legal
    p = S[S_TURN]
    lead = S[S_LEAD]
    c0 = S[S_TRICK + lead]
    c1 = S[S_TRICK + (lead + 1) % N_PLAYERS]
    ls = SUIT[c0]
    w, ws = c0, lead
    if beats(c1, c0, ls):
        w, ws = c1, (lead + 1) % N_PLAYERS
    emperor = bit(c0) | bit(c1) == MOND_BIT | SKIS_BIT
    lo = -1
    hi = -1
    hi2 = -1
    lowin = -1
    hilose = -1
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        k = order_key(c)
        if lo < 0 or k < order_key(lo):
            lo = c
        if hi < 0 or k > order_key(hi):
            hi2 = hi
            hi = c
        elif hi2 < 0 or k > order_key(hi2):
            hi2 = c
        wins = beats(c, w, ls) or (emperor and c == PAGAT)
        if wins and (lowin < 0 or k < order_key(lowin)):
            lowin = c
        if not wins and (hilose < 0 or k > order_key(hilose)):
            hilose = c
    if S[S_CONTRACT] == BEGGAR:
        return bit(hi)
    keep = bit(lo) | bit(hi)
    if S[S_CONTRACT] == KLOP:
        if lowin >= 0:
            keep |= bit(lowin)
        if hilose >= 0:
            keep |= bit(hilose)
        return keep
    if hi2 >= 0 and SUIT[hi] != 0 and RANK[hi] >= 6:
        keep |= bit(hi2)
    if not same_side(S, p, ws):
        if lowin >= 0:
            keep |= bit(lowin)
        keep |= legal & MOND_BIT
    if lo == PAGAT:
        rest = legal & TAROKS & ~PAGAT_BIT
        if rest:
            keep |= bit(lowest(rest))
    return keep


# thesis Tables 5-6: columns (which cards are kept) as bits
K_LOW, K_WIN, K_HI2, K_HI, K_ABOVE_PAGAT, K_MOND, K_PER_SUIT = 1, 2, 4, 8, 16, 32, 64
#: situations (rows): what the third card is played on
SIT_SUIT_ON_SUIT, SIT_TAROK_ON_SUIT, SIT_OTHER_ON_SUIT, SIT_TAROK_ON_TAROK, SIT_SUIT_ON_TAROK = (
    0, 1, 2, 3, 4)
#: [table][situation] -> columns; tables: 0 normal, partner winning; 1 normal, opponent
#: winning; 2 klop; 3 beggar (thesis Tables 5 and 6, rows in SIT_* order).
THESIS_KEEP = np.array([
    [K_HI2 | K_HI, K_LOW | K_WIN | K_MOND, K_HI2 | K_HI | K_PER_SUIT, K_LOW | K_WIN | K_MOND,
     K_HI2 | K_HI | K_PER_SUIT],
    [K_LOW | K_HI2 | K_HI, K_LOW | K_WIN | K_ABOVE_PAGAT | K_MOND, K_LOW | K_PER_SUIT,
     K_LOW | K_WIN | K_ABOVE_PAGAT | K_MOND, K_LOW | K_PER_SUIT],
    [K_LOW | K_HI, K_LOW | K_HI2 | K_HI, K_HI | K_PER_SUIT, K_LOW | K_HI2 | K_HI,
     K_HI | K_PER_SUIT],
    [K_LOW | K_HI, K_LOW | K_HI, K_HI | K_PER_SUIT, K_LOW | K_HI, K_HI | K_PER_SUIT],
], dtype=np.int64)


@njit(cache=True)
def second_highest_kept(hi, queen):
    """Whether the second-highest card is kept (Tables 5-6's column): always, or with ``queen``
    as thesis p. 28 item 4 says - "with suits and only if the highest is at least a queen"
    (the highest a suit card of queen or king)."""
    return not queen or (SUIT[hi] != 0 and RANK[hi] >= QUEEN_RANK)


@njit(cache=True)
def kept_columns(cards, cols, w, ls, emperor, queen=False):
    """The cards of mask ``cards`` named by columns ``cols`` (thesis Tables 5-6): the lowest,
    the lowest that still wins the trick (over winning card ``w``, lead suit ``ls``), the second
    highest (with ``queen``: only under ``second_highest_kept``'s condition), the highest, the
    lowest tarok above pagat, and mond."""
    lo = -1
    hi = -1
    hi2 = -1
    lowin = -1
    m = cards
    while m:
        c = lowest(m)
        m &= m - 1
        k = order_key(c)
        if lo < 0 or k < order_key(lo):
            lo = c
        if hi < 0 or k > order_key(hi):
            hi2 = hi
            hi = c
        elif hi2 < 0 or k > order_key(hi2):
            hi2 = c
        if (beats(c, w, ls) or (emperor and c == PAGAT)) and (
                lowin < 0 or k < order_key(lowin)):
            lowin = c
    keep = 0
    if cols & K_LOW:
        keep |= bit(lo)
    if cols & K_HI:
        keep |= bit(hi)
    if cols & K_HI2 and hi2 >= 0 and second_highest_kept(hi, queen):
        keep |= bit(hi2)
    if cols & K_WIN and lowin >= 0:
        keep |= bit(lowin)
    above = cards & TAROKS & ~PAGAT_BIT
    if cols & K_ABOVE_PAGAT and above:
        keep |= bit(lowest(above))
    if cols & K_MOND:
        keep |= cards & MOND_BIT
    return keep


@njit(cache=True)
def thesis_situation(S, legal):
    """(table, situation, winning card, lead suit, emperor) of the third card (Tables 5-6)."""
    lead = S[S_LEAD]
    c0 = S[S_TRICK + lead]
    c1 = S[S_TRICK + (lead + 1) % N_PLAYERS]
    ls = SUIT[c0]
    w, ws = c0, lead
    if beats(c1, c0, ls):
        w, ws = c1, (lead + 1) % N_PLAYERS
    emperor = bit(c0) | bit(c1) == MOND_BIT | SKIS_BIT
    if ls == 0:
        sit = SIT_TAROK_ON_TAROK if legal & TAROKS else SIT_SUIT_ON_TAROK
    elif legal & SUIT_MASK[ls]:
        sit = SIT_SUIT_ON_SUIT
    elif legal & TAROKS:
        sit = SIT_TAROK_ON_SUIT
    else:
        sit = SIT_OTHER_ON_SUIT
    c = S[S_CONTRACT]
    table = 2 if c == KLOP else 3 if c == BEGGAR else 0 if same_side(S, S[S_TURN], ws) else 1
    return table, sit, w, ls, emperor


@njit(cache=True)
def thesis_card_moves(S, legal, queen=False):
    """Cards kept at the third card of a trick by thesis Tables 5 (normal contracts, partner or
    opponent winning) and 6 (klop, beggar); "per suit" applies the columns to each suit of a
    discard separately. A single legal card is kept as it is. ``queen``: the second highest
    only with suits and only if the highest is at least a queen (thesis p. 28, item 4)."""
    if popcount(legal) == 1:
        return legal
    table, sit, w, ls, emperor = thesis_situation(S, legal)
    cols = THESIS_KEEP[table, sit]
    if not cols & K_PER_SUIT:
        return kept_columns(legal, cols, w, ls, emperor, queen)
    keep = kept_columns(legal & TAROKS, cols, w, ls, emperor, queen) if legal & TAROKS else 0
    for s in range(1, 5):
        part = legal & SUIT_MASK[s]
        if part:
            keep |= kept_columns(part, cols, w, ls, emperor, queen)
    return keep


@njit(cache=True)
def gen_moves(S, cfg, hist, out):
    """Legal (possibly pruned) cards of the seat to play into ``out``, in search order."""
    legal = legal_mask(S)
    if cfg[CFG_PRUNING] and S[S_NT] == 2:
        if cfg[CFG_PRUNE_THESIS]:
            legal = thesis_card_moves(S, legal, cfg[CFG_SECOND_QUEEN] != 0)
        else:
            legal = third_card_moves(S, legal)
    n = 0
    while legal:
        out[n] = lowest(legal)
        legal &= legal - 1
        n += 1
    if cfg[CFG_HISTORY]:  # insertion sort by decreasing history, ties in card order
        for i in range(1, n):
            c = out[i]
            j = i - 1
            while j >= 0 and hist[out[j]] < hist[c]:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = c
    return n


# ------------------------------------------------------------------------------ alpha-beta
@njit(cache=True)
def thesis_research(maxn, v, a, b, alpha, beta):
    """Thesis Algorithm 6: whether a child's value ``v`` from window (a, b) is re-searched -
    at a max node when it failed high (v >= b) but below the node's beta, at a min node when
    it failed low (v <= a) but above the node's alpha."""
    if maxn:
        return v >= b and v < beta
    return v <= a and v > alpha


@njit(cache=True)
def alphabeta_thesis_step(maxn, v, a, b):
    """Thesis Algorithm 6's window after a child's value ``v``, as printed: max node
    a := max(a, v), b := min(b, a + 1); min node b := min(b, v), a := max(a, b - 1). b (a) is
    never reset to beta (alpha), so after a re-search that improves the value a >= b and the
    node stops: an early stop that is not exact. Returns (a, b); the node cuts off when
    a >= b and returns a (max) or b (min)."""
    if maxn:
        a = max(a, v)
        b = min(b, a + 1)
    else:
        b = min(b, v)
        a = max(a, b - 1)
    return a, b


@njit(cache=True)
def alphabeta(S0, depth, alpha0, beta0, me, cfg, tt_key, tt_val, tt_meta, hist, gen, ST,
              counter):
    """Fail-soft alpha-beta value of S0 searched ``depth`` plies for seat ``me``.

    Explicit stack: ``ST[d]`` holds the position at ply d; per-ply arrays hold the moves, the
    window, the best value so far and the minimal-window phase. ``counter[0]`` counts nodes,
    ``counter[1]`` (when it has two cells) the nodes answered by the transposition table."""
    MV = np.empty((MAX_PLY, 16), dtype=np.int64)
    NMV = np.empty(MAX_PLY, dtype=np.int64)
    IDX = np.empty(MAX_PLY, dtype=np.int64)
    A = np.empty(MAX_PLY, dtype=np.int64)
    B = np.empty(MAX_PLY, dtype=np.int64)
    A0 = np.empty(MAX_PLY, dtype=np.int64)
    B0 = np.empty(MAX_PLY, dtype=np.int64)
    BEST = np.empty(MAX_PLY, dtype=np.int64)
    REM = np.empty(MAX_PLY, dtype=np.int64)
    BASE = np.empty(MAX_PLY, dtype=np.int64)
    KEY = np.empty(MAX_PLY, dtype=np.int64)
    MAXN = np.empty(MAX_PLY, dtype=np.bool_)
    PH = np.empty(MAX_PLY, dtype=np.int64)  # 1: a null-window probe is out; 2: its re-search
    use_tt = cfg[CFG_TT]
    minwin = cfg[CFG_MINWINDOW]
    thesis = minwin and cfg[CFG_MW_THESIS]
    g = gen[0]
    n_tt = tt_key.shape[0]

    ST[0, :] = S0
    REM[0] = depth
    A[0] = alpha0
    B[0] = beta0
    d = 0
    enter = True
    ret = 0
    while True:
        if enter:
            counter[0] += 1
            S = ST[d]
            done = False
            if S[S_DONE] or REM[d] <= 0:
                ret = evaluate(S, me)
                done = True
            elif use_tt:
                BASE[d] = pile_part(S, me)
                KEY[d] = position_key(S, use_tt == TT_FUZZY, cfg[CFG_TT_NOSEAT] == 0)
                slot = (KEY[d] & 0x7FFFFFFFFFFFFFFF) % n_tt
                meta = tt_meta[slot]
                if tt_key[slot] == KEY[d] and meta >> 16 == g and (meta >> 2) & 0x3FFF >= REM[d]:
                    v = tt_val[slot] + BASE[d]
                    f = meta & 3
                    if f == FLAG_EXACT or (f == FLAG_LOWER and v >= B[d]) or (
                            f == FLAG_UPPER and v <= A[d]):
                        ret = v
                        done = True
                        if counter.shape[0] > 1:
                            counter[1] += 1
            if done:
                d -= 1
                if d < 0:
                    return ret
                enter = False
                continue
            NMV[d] = gen_moves(S, cfg, hist, MV[d])
            MAXN[d] = same_side(S, S[S_TURN], me)
            BEST[d] = -INF if MAXN[d] else INF
            A0[d] = A[d]
            B0[d] = B[d]
            IDX[d] = 0
            PH[d] = 0
            # first child: full window
            ST[d + 1, :] = ST[d]
            play(ST[d + 1], MV[d, 0])
            REM[d + 1] = REM[d] - 1
            A[d + 1] = A[d]
            B[d + 1] = B[d]
            d += 1
            continue

        # a child of node d has returned ``ret``
        v = ret
        i = IDX[d]
        if thesis:  # thesis Algorithm 6 as printed (alphabeta_thesis_step)
            if PH[d] == 1 and thesis_research(MAXN[d], v, A[d], B[d], A0[d], B0[d]):
                PH[d] = 2
                ST[d + 1, :] = ST[d]
                play(ST[d + 1], MV[d, i])
                REM[d + 1] = REM[d] - 1
                A[d + 1] = A[d] if MAXN[d] else A0[d]
                B[d + 1] = B0[d] if MAXN[d] else B[d]
                d += 1
                enter = True
                continue
            A[d], B[d] = alphabeta_thesis_step(MAXN[d], v, A[d], B[d])
            BEST[d] = A[d] if MAXN[d] else B[d]
        elif PH[d] == 1 and A[d] < v < B[d]:  # the null window failed inside (A, B): re-search
            PH[d] = 2
            ST[d + 1, :] = ST[d]
            play(ST[d + 1], MV[d, i])
            REM[d + 1] = REM[d] - 1
            A[d + 1] = A[d]
            B[d + 1] = B[d]
            d += 1
            enter = True
            continue
        elif MAXN[d]:
            if v > BEST[d]:
                BEST[d] = v
                if v > A[d]:
                    A[d] = v
        else:
            if v < BEST[d]:
                BEST[d] = v
                if v < B[d]:
                    B[d] = v
        i += 1
        if A[d] >= B[d] or i == NMV[d]:
            if A[d] >= B[d] and cfg[CFG_HISTORY]:
                hist[MV[d, i - 1]] += np.int64(1) << REM[d]
            best = BEST[d]
            if use_tt:
                f = FLAG_EXACT
                if best <= A0[d]:
                    f = FLAG_UPPER
                elif best >= B0[d]:
                    f = FLAG_LOWER
                slot = (KEY[d] & 0x7FFFFFFFFFFFFFFF) % n_tt
                tt_key[slot] = KEY[d]
                tt_val[slot] = best - BASE[d]
                tt_meta[slot] = (g << 16) | (REM[d] << 2) | f
            ret = best
            d -= 1
            if d < 0:
                return ret
            continue
        IDX[d] = i
        ST[d + 1, :] = ST[d]
        play(ST[d + 1], MV[d, i])
        REM[d + 1] = REM[d] - 1
        if thesis:  # the window (a, b) of Algorithm 6, already narrowed to a null window
            PH[d] = 1
            A[d + 1] = A[d]
            B[d + 1] = B[d]
        elif minwin:
            PH[d] = 1
            if MAXN[d]:
                A[d + 1] = A[d]
                B[d + 1] = A[d] + 1
            else:
                A[d + 1] = B[d] - 1
                B[d + 1] = B[d]
        else:
            PH[d] = 0
            A[d + 1] = A[d]
            B[d + 1] = B[d]
        d += 1
        enter = True


@njit(cache=True)
def thesis_root(S, n, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST, moves, values,
                counter, child):
    """The root as a max node of thesis Algorithm 6 (``root = "alphabeta"``, ``minimal_window
    = "thesis"``): after the first card a null window, a re-search when a card fails high, and
    then the early stop - the cards not searched get ``-INF`` (never chosen)."""
    a = -INF
    b = INF
    for i in range(n):
        values[i] = -INF
    for i in range(n):
        child[:] = S
        play(child, moves[i])
        v = alphabeta(child, depth - 1, a, b, me, cfg, tt_key, tt_val, tt_meta, hist, gen, ST,
                      counter)
        if i > 0 and thesis_research(True, v, a, b, -INF, INF):
            v = alphabeta(child, depth - 1, a, INF, me, cfg, tt_key, tt_val, tt_meta, hist, gen,
                          ST, counter)
        values[i] = v
        a, b = alphabeta_thesis_step(True, v, a, b)
        if a >= b:
            break


@njit(cache=True)
def search_root(S, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST, moves, values):
    """``search_root_counted`` returning (n_moves, nodes)."""
    counter = np.zeros(2, dtype=np.int64)
    n = search_root_counted(S, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST, moves,
                            values, counter)
    return n, counter[0]


@njit(cache=True)
def search_root_counted(S, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST, moves,
                        values, counter):
    """Value of every legal card of ``me`` (to play in S) searched ``depth`` plies, each with the
    full window so that the values can be summed over samples (§5). Returns n_moves; fills
    ``counter`` (two cells, zero on entry) with the nodes (the root included) and the nodes of
    them that the transposition table answered (a node counting convention the thesis does not
    state: ``nodes - counter[1]`` counts only the nodes the search expanded or evaluated).
    History is reset and the table's generation advanced, so every search starts afresh.

    With ``cfg[CFG_ROOT_AB]`` the root is an alpha-beta node too (the later cards searched with
    the window (best so far, +inf), or a null window first when minimal window is on): cheaper,
    but then only the best card's value is exact, the others are upper bounds. With thesis
    Algorithm 6's window as well, the root is Algorithm 6's max node (``thesis_root``)."""
    gen[0] += 1
    hist[:] = 0
    counter[0] = 1  # the root
    legal = legal_mask(S)
    n = 0
    while legal:
        moves[n] = lowest(legal)
        legal &= legal - 1
        n += 1
    child = np.empty(S_LEN, dtype=np.int64)
    if cfg[CFG_ROOT_AB] and cfg[CFG_MINWINDOW] and cfg[CFG_MW_THESIS] == 1:
        thesis_root(S, n, me, depth, cfg, tt_key, tt_val, tt_meta, hist, gen, ST, moves,
                    values, counter, child)
        return n
    best = -INF
    for i in range(n):
        child[:] = S
        play(child, moves[i])
        if cfg[CFG_ROOT_AB] and i > 0:
            lo = best
            if cfg[CFG_MINWINDOW]:
                v = alphabeta(child, depth - 1, best, best + 1, me, cfg, tt_key, tt_val,
                              tt_meta, hist, gen, ST, counter)
                if v <= best:
                    values[i] = v
                    continue
                lo = v - 1  # fail-soft: the value is at least v
            v = alphabeta(child, depth - 1, lo, INF, me, cfg, tt_key, tt_val, tt_meta, hist,
                          gen, ST, counter)
        else:
            v = alphabeta(child, depth - 1, -INF, INF, me, cfg, tt_key, tt_val, tt_meta, hist,
                          gen, ST, counter)
        values[i] = v
        if v > best:
            best = v
    return n


@njit(cache=True)
def plies_to_trick_end(S):
    """Plies until the end of the current trick (a whole trick when leading)."""
    return N_PLAYERS - S[S_NT] if S[S_NT] > 0 else N_PLAYERS


@njit(cache=True)
def scheduled_depth(S, base_depths):
    """The thesis's depth schedule (spec "Play"; paper §4.1): ``base_depths[0]`` plies (9) for
    the trick leader, ``base_depths[1]`` (12) once each player holds 10 cards or fewer,
    ``base_depths[2]`` (15) at 7 or fewer; 1-2 plies less for the 2nd and 3rd card so that the
    search ends at a trick boundary (at least one ply)."""
    left = N_TRICKS - S[S_TRICKNO]
    d = base_depths[0]
    if left <= 7:
        d = base_depths[2]
    elif left <= 10:
        d = base_depths[1]
    return max(d - S[S_NT], 1)
