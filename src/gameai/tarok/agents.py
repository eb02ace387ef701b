"""Players: card play (numba) and Silicon Tarokist's bidding, talon and announcements (Python).

Card-play agents are int64 rows (``AG_*``) so that a deal with any mix of them runs in one
compiled loop (``play_cards``). The registry by name (``AGENTS``):

* ``random`` - a uniformly random legal card (the baseline).
* ``rule`` - a simple rule-based player: lead the lowest card of the longest suit; on the side
  winning the trick, add the card worth most (a tarok: the lowest); otherwise win with the
  lowest winning card if there is one, else throw the card worth least. Klop and beggar: the
  highest card that does not take the trick, else the lowest.
* ``mcab`` - plain Monte Carlo alpha-beta: 20 samples, the 9/12/15 depth schedule, no one-trick
  search and only the exact enhancements (exact-key table, history, minimal window), so it plays
  exactly as plain alpha-beta would.
* ``tarokist`` - the full program (spec "Play"): 20 samples, 9/12/15 plies, all four
  enhancements (fuzzy table, history, minimal window, third-card pruning), one-trick search 0.7.
* ``cheat`` - the full program's search on the true deal (perfect information): a
  perfect-information reference (the same depth-limited search, not a best response).
* ``tarokist_exact`` - the full program with an exact-key transposition table instead of the
  fuzzy one (the paper's "no impact on the quality of playing", tested by playing both).
* ``tarokist_thesis_window`` - the full program with thesis Algorithm 6's minimal window as
  printed (``search.alphabeta_thesis_step``: not exact) instead of PVS: what the thesis's speed
  costs in play, on the same deals as ``tarokist``.

Bidding, talon choice and announcements (``Tarokist``, spec "Bidding", "Talon and discards",
"Announcements") play test games whose card play is a perfect-information search of depth 3
(the thesis's simulations) on deals sampled from what the bidder knows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import (
    ANN_KINGS,
    ANN_PAGAT,
    ANN_TRULA,
    BEGGAR,
    KLOP,
    N_PLAYERS,
    PAGAT_BIT,
    POINTS,
    S_ANN,
    S_CONTRACT,
    S_DONE,
    S_LEAD,
    S_NT,
    S_TRICK,
    S_TURN,
    SUIT,
    SUIT_MASK,
    TALON_SIZE,
    TALON_TAKE,
    THREE,
    bonuses_achieved,
    discard_allowed,
    exchange,
    legal_mask,
    lowest,
    new_state,
    play,
    popcount,
    random_bit,
    same_side,
    scores,
)
from .sampling import mc_values
from .search import CFG_LEN, TT_EXACT, TT_FUZZY, beats, order_key, shared_tables

#: Bump when an agent's behaviour changes: part of every cached result's key.
AGENTS_VERSION = "1"

AG_KIND = 0
AG_SAMPLES = 1
AG_DEPTH = 2  # 3 base depths (9, 12, 15)
AG_W1000 = 5  # one-trick weight x 1000
AG_CFG = 6  # CFG_LEN search switches
AG_LEN = AG_CFG + CFG_LEN

KIND_RANDOM, KIND_RULE, KIND_MC, KIND_CHEAT = 0, 1, 2, 3

#: name -> (kind, samples, one-trick weight, (tt, history, minimal window, pruning[, root
#: alpha-beta, thesis window, thesis pruning])) - the search's cfg row (``search.CFG_*``)
AGENTS = {
    "random": (KIND_RANDOM, 0, 0.0, (0, 0, 0, 0)),
    "rule": (KIND_RULE, 0, 0.0, (0, 0, 0, 0)),
    "mcab": (KIND_MC, 20, 0.0, (TT_EXACT, 1, 1, 0)),
    "tarokist": (KIND_MC, 20, 0.7, (TT_FUZZY, 1, 1, 1)),
    "cheat": (KIND_CHEAT, 1, 0.7, (TT_FUZZY, 1, 1, 1)),
    "tarokist_exact": (KIND_MC, 20, 0.7, (TT_EXACT, 1, 1, 1)),
    "tarokist_thesis_window": (KIND_MC, 20, 0.7, (TT_FUZZY, 1, 1, 1, 0, 1, 0)),
}
AGENT_NAMES = tuple(AGENTS)
DEPTHS = (9, 12, 15)
ONE_TRICK_WEIGHT = 0.7


def agent_row(name: str, samples: int | None = None, depths=DEPTHS) -> np.ndarray:
    """The int64 row of agent ``name`` (``samples`` and ``depths`` override the thesis's)."""
    if name not in AGENTS:
        raise ValueError(f"agent must be one of {', '.join(AGENT_NAMES)}; got {name!r}")
    kind, n, w, cfg = AGENTS[name]
    row = np.zeros(AG_LEN, dtype=np.int64)
    row[AG_KIND] = kind
    row[AG_SAMPLES] = n if samples is None or kind != KIND_MC else samples
    row[AG_DEPTH:AG_DEPTH + 3] = depths
    row[AG_W1000] = round(w * 1000)
    row[AG_CFG:AG_CFG + len(cfg)] = cfg  # root: full window (card values are summed)
    return row


# ------------------------------------------------------------------------------ card play
@njit(cache=True)
def rule_move(S):
    """The simple rule-based player (module docstring)."""
    legal = legal_mask(S)
    p = S[S_TURN]
    neg = S[S_CONTRACT] == KLOP or S[S_CONTRACT] == BEGGAR
    if S[S_NT] == 0:
        best = -1
        bn = -1
        for s in range(1, 5):  # longest suit, its lowest card
            m = legal & SUIT_MASK[s]
            if m and popcount(m) > bn:
                bn = popcount(m)
                best = lowest(m)
        if best < 0:
            t = legal & ~PAGAT_BIT if legal != PAGAT_BIT else legal
            best = lowest(t)
        return best
    lead = S[S_LEAD]
    ls = SUIT[S[S_TRICK + lead]]
    w = S[S_TRICK + lead]
    ws = lead
    for k in range(1, S[S_NT]):
        q = (lead + k) % N_PLAYERS
        if beats(S[S_TRICK + q], w, ls):
            w = S[S_TRICK + q]
            ws = q
    lo = -1
    hi = -1
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
            hi = c
        if beats(c, w, ls):
            if lowin < 0 or k < order_key(lowin):
                lowin = c
        elif hilose < 0 or k > order_key(hilose):
            hilose = c
    if neg:
        return hilose if hilose >= 0 else lo
    if same_side(S, p, ws) and not (S[S_NT] == 1 and lowin >= 0 and SUIT[lowin] == 0):
        return lo if SUIT[hi] == 0 else hi
    if lowin >= 0:
        return lowin
    return lo


@njit(cache=True)
def choose_card(S, ag, rng, tt_key, tt_val, tt_meta, hist, gen, ST, totals, nodes):
    """The card agent ``ag`` plays in S (the seat to play)."""
    legal = legal_mask(S)
    kind = ag[AG_KIND]
    if kind == KIND_RANDOM:
        return random_bit(legal, rng)
    if popcount(legal) == 1:
        return lowest(legal)
    if kind == KIND_RULE:
        return rule_move(S)
    return mc_values(S, ag[AG_SAMPLES], ag[AG_DEPTH:AG_DEPTH + 3], ag[AG_W1000] / 1000.0,
                     kind == KIND_CHEAT, ag[AG_CFG:AG_CFG + CFG_LEN], rng, tt_key, tt_val,
                     tt_meta, hist, gen, ST, totals, nodes)


@njit(cache=True)
def play_cards(S, ags, rng, tt_key, tt_val, tt_meta, hist, gen, ST):
    """Play S to the end, seat p by agent row ``ags[p]``; returns the search nodes used."""
    totals = np.zeros(64, dtype=np.float64)
    nodes = np.zeros(2, dtype=np.int64)
    while S[S_DONE] == 0:
        c = choose_card(S, ags[S[S_TURN]], rng, tt_key, tt_val, tt_meta, hist, gen, ST, totals,
                        nodes)
        play(S, c)
    return nodes[0] + nodes[1]


def play_out(S, ags, rng) -> int:
    """``play_cards`` with the process's shared search tables."""
    return int(play_cards(S, ags, rng, *shared_tables().args()))


# ------------------------------------------------------------------------------ talon
def discard_candidates(hand: int, k: int, limit: int = 6) -> list[int]:
    """Discard sets of ``k`` cards favouring voids (spec "Talon and discards"): for each suit
    that can be emptied with the cards left over, that suit plus the cheapest other cards;
    plus simply the k cheapest cards. Never kings or trula cards; taroks only when needed."""
    allowed = int(discard_allowed(np.int64(hand)))
    suit_cards = [c for c in range(22, 54) if (allowed >> c) & 1]
    cheap = sorted(suit_cards, key=lambda c: (int(POINTS[c]), c))
    if len(cheap) < k:
        cheap += sorted((c for c in range(22) if (allowed >> c) & 1))
    out = []

    def fill(base: list[int]) -> int:
        sel = list(base)
        for c in cheap:
            if len(sel) == k:
                break
            if c not in sel:
                sel.append(c)
        return sum(1 << c for c in sel)

    for s in range(1, 5):
        in_suit = [c for c in range(22, 54) if (hand >> c) & 1 and SUIT[c] == s]
        if 0 < len(in_suit) <= k and all((allowed >> c) & 1 for c in in_suit):
            out.append(fill(in_suit))
    out.append(fill([]))
    uniq = list(dict.fromkeys(out))
    return uniq[:limit]


# ------------------------------------------------------------------------------ simulations
def sim_agents(depth: int = 3) -> np.ndarray:
    """Three perfect-information searchers of ``depth`` plies: the thesis's test games."""
    row = agent_row("cheat", depths=(depth, depth, depth))
    row[AG_W1000] = 0
    return np.stack([row] * N_PLAYERS)


def hidden_deal(me: int, hand: int, talon_known, rng) -> tuple[np.ndarray, np.ndarray]:
    """A deal agreeing with ``me``'s hand (and the talon, when known: ``talon_known``)."""
    hands = np.zeros(N_PLAYERS, dtype=np.int64)
    hands[me] = hand
    if talon_known is None:
        rest = [c for c in range(54) if not (hand >> c) & 1]
        rng.shuffle(rest)
        talon = np.array(rest[:TALON_SIZE], dtype=np.int64)
        rest = rest[TALON_SIZE:]
    else:
        talon = np.asarray(talon_known, dtype=np.int64)
        tmask = sum(1 << int(c) for c in talon)
        rest = [c for c in range(54) if not ((hand | tmask) >> c) & 1]
        rng.shuffle(rest)
    others = [q for q in range(N_PLAYERS) if q != me]
    for i, q in enumerate(others):
        hands[q] = sum(1 << int(c) for c in rest[16 * i:16 * i + 16])
    return hands, talon


def simulate(hands, talon, contract, decl, group, discards, ann, rng, rules=0, depth=3):
    """One test game: returns (declarer's score, bonuses achieved [4])."""
    S = new_state(hands, talon, contract, decl, rules)
    if TALON_TAKE[contract]:
        if not exchange(S, group, np.int64(discards)):
            raise ValueError("illegal exchange in a simulation")
    S[S_ANN] = ann
    play_out(S, sim_agents(depth), rng)
    sc = scores(S)
    ach = bonuses_achieved(S) if contract not in (KLOP, BEGGAR) else np.zeros(4, np.int64)
    return int(sc[decl]), ach


class Tarokist:
    """Silicon Tarokist's bidding, talon choice and announcements with their adaptive
    margins (spec "Bidding", "Talon and discards", "Announcements"; paper §3)."""

    def __init__(self, margin: float = 7.0, beggar_threshold: float = 0.7,
                 ann_thresholds=(0.5, 0.6, 0.7), bid_sims: int = 5, talon_sims: int = 20,
                 sim_depth: int = 3, bid_talon_sims: int = 1):
        self.margin = margin
        self.beggar_threshold = beggar_threshold
        self.ann = list(ann_thresholds)  # trula, kings, pagat ultimo
        self.bid_sims = bid_sims
        self.talon_sims = talon_sims
        self.sim_depth = sim_depth
        #: test games per discard candidate when bidding chooses the talon of each random
        #: talon (0: a fixed rule - the richest group, the first void-making discards)
        self.bid_talon_sims = bid_talon_sims

    # -- talon ---------------------------------------------------------------------------
    def choose_talon(self, hands, talon, contract, decl, rng, n_sims=None):
        """(group, discards, announcements, mean score) by simulating each candidate."""
        n_sims = self.talon_sims if n_sims is None else n_sims
        k = int(TALON_TAKE[contract])
        best = None
        for g in range(TALON_SIZE // k):
            take = sum(1 << int(c) for c in talon[g * k:(g + 1) * k])
            for disc in discard_candidates(int(hands[decl]) | take, k):
                tot = 0.0
                ach = np.zeros(4)
                for _ in range(n_sims):
                    h2, _t = hidden_deal(decl, int(hands[decl]), talon, rng)
                    sc, a = simulate(h2, talon, contract, decl, g, disc, 0, rng,
                                     depth=self.sim_depth)
                    tot += sc
                    ach += a == 1
                mean = tot / n_sims
                if best is None or mean > best[3]:
                    best = (g, disc, ach / n_sims, mean)
        g, disc, rates, mean = best
        ann = 0
        for bitv, r, th in zip((ANN_TRULA, ANN_KINGS, ANN_PAGAT), rates[:3], self.ann):
            if r >= th:
                ann |= bitv
        return g, disc, ann, mean

    # -- bidding -------------------------------------------------------------------------
    def viable(self, seat: int, hand: int, rng) -> int:
        """Highest contract whose test games (``bid_sims`` random talons) reach the margin;
        beggar is tried only when three fails. Returns KLOP when nothing is viable."""
        best = KLOP
        for contract in (THREE, 2, 3, 4):
            tot = 0.0
            for _ in range(self.bid_sims):
                hands, talon = hidden_deal(seat, hand, None, rng)
                g, disc = 0, 0
                if TALON_TAKE[contract] and self.bid_talon_sims > 0:
                    g, disc, _, _ = self.choose_talon(hands, talon, contract, seat, rng,
                                                      n_sims=self.bid_talon_sims)
                elif TALON_TAKE[contract]:
                    k = int(TALON_TAKE[contract])
                    pick = max(range(TALON_SIZE // k), key=lambda i: sum(
                        int(POINTS[c]) + (3 if c < 22 else 0) for c in talon[i * k:(i + 1) * k]))
                    take = sum(1 << int(c) for c in talon[pick * k:(pick + 1) * k])
                    g, disc = pick, discard_candidates(hand | take, k, 1)[0]
                sc, _ = simulate(hands, talon, contract, seat, g, disc, 0, rng,
                                 depth=self.sim_depth)
                tot += sc
            if tot / self.bid_sims >= self.margin:
                best = contract
            else:
                break
        if best == KLOP:  # beggar only if three fails
            wins = 0
            for _ in range(self.bid_sims):
                hands, talon = hidden_deal(seat, hand, None, rng)
                sc, _ = simulate(hands, talon, BEGGAR, seat, 0, 0, 0, rng, depth=self.sim_depth)
                wins += sc > 0
            if wins / self.bid_sims >= self.beggar_threshold:
                best = BEGGAR
        return best

    # -- adaptation ----------------------------------------------------------------------
    def adapt(self, declared: bool, won: bool | None, would_have_won: bool | None = None,
              contract: int = THREE):
        """+1 margin after winning the bid and losing; -1 after not bidding and winning anyway
        (spec "Bidding"; what "winning anyway" means is the caller's reading). A lost beggar
        raises the beggar threshold by 0.1 instead."""
        if declared and won is False:
            if contract == BEGGAR:
                self.beggar_threshold = min(1.0, self.beggar_threshold + 0.1)
            else:
                self.margin += 1
        elif not declared and would_have_won:
            self.margin -= 1

    def adapt_announcements(self, announced: int, achieved) -> None:
        """Thresholds adapt by 0.1: up after a failed announcement, down after an unannounced
        success (our reading of "adapt in a similar fashion")."""
        for i, bitv in enumerate((ANN_TRULA, ANN_KINGS, ANN_PAGAT)):
            if announced & bitv and achieved[i] != 1:
                self.ann[i] = min(1.0, self.ann[i] + 0.1)
            elif not announced & bitv and achieved[i] == 1:
                self.ann[i] = max(0.0, self.ann[i] - 0.1)

