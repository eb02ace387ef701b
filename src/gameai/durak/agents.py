"""Durak players as numba functions ``action(hands, talon, st, sp, ...) -> action``.

* ``RandomAI`` - a uniformly random legal action (``rules.random_action``).
* ``SmallestAI`` - the spec's baseline "smallest legal card, always beat when possible": leads,
  beats and throws in its smallest legal card (non-trumps before trumps, then by rank), takes
  only when it cannot beat, never transfers, passes only when it has nothing to throw.
* ``EvalAI`` - OpenFool's one-move-deep player on the article's evaluator (spec, "Decision
  rules"): opening attack, throw-in, defence and transfer thresholds; variants switch the
  evaluator's quirks or drop a term (the ablations).
* ``EvalAI/...`` (our diagnosis, not the spec's): EvalAI with one decision - the opening
  lead, the throw-in, the defence, or only the threshold of one of them - taken from
  SmallestAI's rule (``MIX_*`` bits), to find which decision costs EvalAI against SmallestAI.
* ``MC-AI`` (beyond the article, clearly separate below): determinised Monte Carlo - for each
  of ``budget`` samples, deal the unseen cards at random to the opponents' hands and the talon
  (respecting hand sizes, the visible trump card at the bottom and the cards each opponent was
  seen to take), play every legal action out to the end with a cheap policy (EvalAI;
  ``-smallest``: SmallestAI; ``-random``: RandomAI), and choose the action that most often
  avoids being the fool (a draw counts as avoiding it). The same samples serve every action
  (common random numbers). EvalAI playouts cost ~3x SmallestAI ones and are far stronger.

Every agent is one row of the ``ag`` array (``AG_*`` columns) so that a game with any mix of
agents runs in one compiled loop (:func:`play_game`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import evaluation as ev
from .rules import (
    ACT_PASS,
    ACT_TAKE,
    MAX_ACTIONS,
    PH_ATTACK,
    PH_DEFEND,
    PH_OVER,
    PH_THROW,
    SP_LOW,
    SP_NCARDS,
    SP_DEUCE,
    SP_NP,
    SP_TRANSFER,
    ST_CUR,
    ST_DRAWN,
    ST_FOOL,
    ST_GONE,
    ST_KNOWN,
    ST_LIMIT,
    ST_NA,
    ST_NB,
    ST_PHASE,
    ST_RANKS,
    ST_SIZE,
    ST_TA,
    ST_TD,
    ST_TRUMP,
    TRANSFER,
    apply_action,
    beats,
    can_transfer,
    legal_actions,
    randint,
    shuffle,
)

#: Bump when an agent's behaviour changes: part of every cached result's key.
AGENTS_VERSION = "1"

# --- agent rows (ag) ------------------------------------------------------------------
AG_KIND = 0
AG_FLAGS = 1  # evaluator flags (EvalAI)
AG_BUDGET = 2  # MC: determinisations per decision
AG_POLICY = 3  # MC: playout policy (an agent kind: KIND_SMALLEST or KIND_RANDOM)
AG_MIX = 4  # EvalAI: bits MIX_* - decisions handed to SmallestAI's rule (our diagnosis)
AG_LEN = 5

# --- diagnosis (ours, not OpenFool's): EvalAI with one decision taken from SmallestAI -------
MIX_LEAD = 1  # the opening attack: SmallestAI's card (smallest, non-trumps first)
MIX_THROW_ALWAYS = 2  # throw-in: no threshold, always throw EvalAI's best card when it has one
MIX_THROW_SMALLEST = 4  # throw-in: SmallestAI's rule (always, the smallest card)
MIX_BEAT_ALWAYS = 8  # defence: no thresholds, beat with EvalAI's best card whenever it can
MIX_DEFEND_SMALLEST = 16  # defence: SmallestAI's rule (beat with the smallest card when it can)
MIX_LEAD_HV = 32  # the opening attack by HV(hand - c) alone, without the rank-group bonus

KIND_RANDOM = 0
KIND_SMALLEST = 1
KIND_EVAL = 2
KIND_MC = 3

# --- OpenFool's decision constants (spec, "Decision rules") ---------------------------
ATTACK_BONUS = np.array([0.0, 0.0, 1.0, 1.5, 2.5])  # A[n], n = cards of the rank in hand
THROW_BASE = 1200  # throw in when cur - best < 1200 - 50 x talon
THROW_DELTA = 50
BEAT_PENALTY = 800  # beat when cur - best < 800 ...
TAKE_BASE = 2000  # ... or HV(hand + table) - best < 2000 - 40 x talon, or the talon is empty
TAKE_DELTA = 40
RANK_PRESENT_BONUS = 300  # a defence card whose rank is already on the table
TRANSFER_MARGIN = 400  # transfer when max(HV(...)) > cur - 400


# ======================================================================================
# SmallestAI
# ======================================================================================
@njit(cache=True)
def _key(c, trump):
    """Order of "smallest": every non-trump below every trump, then by rank."""
    return (100 if c // 13 == trump else 0) + c % 13


@njit(cache=True)
def smallest_action(hands, st, sp, mv, k):
    """The smallest legal card (first in hand order on ties); take / pass when there is none."""
    p = st[ST_CUR]
    trump = st[ST_TRUMP]
    best = -1
    best_key = 1 << 30
    for j in range(k):
        a = mv[j]
        if a < 0 or a >= TRANSFER:
            continue
        kk = _key(hands[p, a], trump)
        if kk < best_key:
            best_key = kk
            best = a
    if best >= 0:
        return best
    return ACT_TAKE if st[ST_PHASE] == PH_DEFEND else ACT_PASS


# ======================================================================================
# EvalAI (OpenFool's decision rules on the article's evaluator)
# ======================================================================================
@njit(cache=True)
def _in_hands(st, sp):
    tot = 0
    for q in range(sp[SP_NP]):
        tot += st[ST_SIZE + q]
    return tot


@njit(cache=True)
def _without(points, rc, sc, n, c, ctx):
    """HV(hand - c): the summary with one card removed (sizes array not updated)."""
    trump, talon, in_hands, n_ranks, flags = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    rc[c % 13] -= 1
    sc[c // 13] -= 1
    v = ev.value_of_counts(points - ev.card_points(c, trump, n_ranks, flags), rc, sc, n - 1,
                           trump, talon, in_hands, n_ranks, flags)
    rc[c % 13] += 1
    sc[c // 13] += 1
    return v


@njit(cache=True)
def _old_base(rank):
    """The old fixed scale (rank - 8, ace 6) that the attack bonus always uses."""
    return 6 if rank == 14 else rank - 8


@njit(cache=True)
def _attack_score(points, rc, sc, n, c, ctx):
    """Opening attack / throw-in score: HV(hand - c) + round(A[n_rank] x oldBase x 100)."""
    cnt = rc[c % 13]
    bonus = ATTACK_BONUS[cnt] * _old_base(c % 13 + 2) * 100.0
    return _without(points, rc, sc, n, c, ctx) + int(np.floor(bonus + 0.5))


@njit(cache=True)
def eval_action(hands, st, sp, mv, k, flags):
    """OpenFool's AI (spec, "Decision rules"): one move deep on the hand evaluator."""
    return eval_action_mix(hands, st, sp, mv, k, flags, 0)


@njit(cache=True)
def eval_action_mix(hands, st, sp, mv, k, flags, mix):
    """:func:`eval_action` with the decisions named by the ``MIX_*`` bits of ``mix`` taken from
    SmallestAI's rule (``mix = 0``: OpenFool's AI unchanged). Our diagnosis, not the spec's."""
    p = st[ST_CUR]
    n = st[ST_SIZE + p]
    hand = hands[p]
    trump = st[ST_TRUMP]
    talon = sp[SP_NCARDS] - st[ST_DRAWN]
    n_ranks = 15 - sp[SP_LOW]
    ph = st[ST_PHASE]
    if ((ph == PH_ATTACK and mix & MIX_LEAD) or (ph == PH_THROW and mix & MIX_THROW_SMALLEST)
            or (ph == PH_DEFEND and mix & MIX_DEFEND_SMALLEST)):
        return smallest_action(hands, st, sp, mv, k)
    ctx = np.array([trump, talon, _in_hands(st, sp), n_ranks, flags, sp[SP_DEUCE]],
                   dtype=np.int64)
    rc = np.zeros(13, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    points = ev.summarize(hand, n, trump, n_ranks, flags, rc, sc)
    if ph == PH_ATTACK:
        best = -(1 << 62)
        choice = 0
        for i in range(n):
            if mix & MIX_LEAD_HV:
                v = _without(points, rc, sc, n, hand[i], ctx)
            else:
                v = _attack_score(points, rc, sc, n, hand[i], ctx)
            if v > best:  # strict: ties go to the card that entered the hand first
                best = v
                choice = i
        return choice
    cur = ev.value_of_counts(points, rc, sc, n, trump, talon, ctx[2], n_ranks, flags)
    if ph == PH_THROW:
        return _throw_in(hands, st, points, rc, sc, n, cur, ctx, mix & MIX_THROW_ALWAYS)
    if sp[SP_TRANSFER] == 1:
        t = _transfer_choice(hands, st, sp, points, rc, sc, n, cur, ctx)
        if t >= 0:
            return t
    return _defend(hands, st, points, rc, sc, n, cur, ctx, mix & MIX_BEAT_ALWAYS)


@njit(cache=True)
def _throw_in(hands, st, points, rc, sc, n, cur, ctx, always):
    """Throw the best card of a rank on the table if cur - best < 1200 - 50 x talon
    (``always``: whenever there is one - the diagnosis)."""
    if st[ST_NA] >= st[ST_LIMIT]:
        return ACT_PASS
    p = st[ST_CUR]
    ranks = st[ST_RANKS]
    best = -(1 << 62)
    choice = -1
    for i in range(n):
        c = hands[p, i]
        if (ranks >> (c % 13)) & 1:
            v = _attack_score(points, rc, sc, n, c, ctx)
            if v > best:
                best = v
                choice = i
    if choice >= 0 and (always or cur - best < THROW_BASE - THROW_DELTA * ctx[1]):
        return choice
    return ACT_PASS


@njit(cache=True)
def _defend(hands, st, points, rc, sc, n, cur, ctx, always):
    """Beat the first unbeaten card with the best candidate, or take (spec thresholds;
    ``always``: beat whenever a card can - the diagnosis)."""
    p = st[ST_CUR]
    trump, talon, in_hands, n_ranks, flags = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    attack = st[ST_TA + st[ST_NB]]
    ranks = st[ST_RANKS]
    best = -(1 << 62)
    choice = -1
    for i in range(n):
        c = hands[p, i]
        if beats(c, attack, trump, ctx[5]):
            v = _without(points, rc, sc, n, c, ctx)
            if (ranks >> (c % 13)) & 1:
                v += RANK_PRESENT_BONUS
            if v > best:
                best = v
                choice = i
    if choice < 0:
        return ACT_TAKE
    if always or cur - best < BEAT_PENALTY or talon == 0:
        return choice
    if _value_if_take(hands, st, points, rc, sc, n, ctx) - best < TAKE_BASE - TAKE_DELTA * talon:
        return choice
    return ACT_TAKE


@njit(cache=True)
def _value_if_take(hands, st, points, rc, sc, n, ctx):
    """HV(hand + every table card), with the hand sizes as they are now."""
    trump, talon, in_hands, n_ranks, flags = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    rc2 = rc.copy()
    sc2 = sc.copy()
    pts = points
    m = n
    for i in range(st[ST_NA]):
        for j in range(2 if i < st[ST_NB] else 1):
            c = st[ST_TA + i] if j == 0 else st[ST_TD + i]
            rc2[c % 13] += 1
            sc2[c // 13] += 1
            pts += ev.card_points(c, trump, n_ranks, flags)
            m += 1
    return ev.value_of_counts(pts, rc2, sc2, m, trump, talon, in_hands, n_ranks, flags)


@njit(cache=True)
def _transfer_choice(hands, st, sp, points, rc, sc, n, cur, ctx):
    """Transfer (spec, "Decision rules"): pass the attack on, with a non-trump of the attacking
    rank when there is one, if max(HV(hand without that rank), HV(hand without its non-trumps
    of that rank)) > cur - 400. Returns the action or -1."""
    p = st[ST_CUR]
    trump, talon, in_hands, n_ranks, flags = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    r = st[ST_TA] % 13
    first_plain = -1
    first_trump = -1
    for i in range(n):
        c = hands[p, i]
        if c % 13 == r and can_transfer(hands, st, sp, i):
            if c // 13 == trump:
                if first_trump < 0:
                    first_trump = i
            elif first_plain < 0:
                first_plain = i
    if first_plain < 0 and first_trump < 0:
        return -1
    v_all = _value_dropping(hands[p], n, r, False, points, rc, sc, ctx)
    v_plain = _value_dropping(hands[p], n, r, True, points, rc, sc, ctx)
    if max(v_all, v_plain) > cur - TRANSFER_MARGIN:
        return TRANSFER + (first_plain if first_plain >= 0 else first_trump)
    return -1


@njit(cache=True)
def _value_dropping(hand, n, r, plain_only, points, rc, sc, ctx):
    """HV of the hand without its cards of rank index ``r`` (only the non-trumps if asked)."""
    trump, talon, in_hands, n_ranks, flags = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    rc2 = rc.copy()
    sc2 = sc.copy()
    pts = points
    m = n
    for i in range(n):
        c = hand[i]
        if c % 13 == r and not (plain_only and c // 13 == trump):
            rc2[c % 13] -= 1
            sc2[c // 13] -= 1
            pts -= ev.card_points(c, trump, n_ranks, flags)
            m -= 1
    return ev.value_of_counts(pts, rc2, sc2, m, trump, talon, in_hands, n_ranks, flags)


# ======================================================================================
# Dispatch and whole games
# ======================================================================================
@njit(cache=True)
def simple_action(kind, flags, hands, st, sp, mv, k, rng):
    """The agents that need no look-ahead."""
    if kind == KIND_SMALLEST:
        return smallest_action(hands, st, sp, mv, k)
    if kind == KIND_EVAL:
        return eval_action(hands, st, sp, mv, k, flags)
    return mv[randint(rng, k)]


@njit(cache=True)
def agent_action(ag, p, hands, talon, st, sp, mv, k, rng):
    """Seat ``p``'s action; ``ag[p]`` is its agent row (indexed in place: a row view per
    action would cost more than a random player's whole decision)."""
    kind = ag[p, AG_KIND]
    if kind == KIND_MC:
        return mc_action(ag[p], hands, talon, st, sp, mv, k, rng)
    if ag[p, AG_MIX] != 0:
        return eval_action_mix(hands, st, sp, mv, k, ag[p, AG_FLAGS], ag[p, AG_MIX])
    return simple_action(kind, ag[p, AG_FLAGS], hands, st, sp, mv, k, rng)


@njit(cache=True)
def play_game(hands, talon, st, sp, ag, rng):
    """Play from the current state to the end; ``ag[p]`` is seat ``p``'s agent row.

    Forced actions (a single legal one, e.g. a thrower with nothing to throw) are applied
    without asking the agent. The random player is dispatched inline: it is the benchmark's
    hot path, and a call through :func:`agent_action` costs a quarter of its speed.
    """
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    while st[ST_PHASE] != PH_OVER:
        k = legal_actions(hands, st, sp, mv)
        if k == 1:
            act = mv[0]
        else:
            p = st[ST_CUR]
            if ag[p, AG_KIND] == KIND_RANDOM:
                act = mv[randint(rng, k)]
            else:
                act = agent_action(ag, p, hands, talon, st, sp, mv, k, rng)
        apply_action(hands, talon, st, sp, act)


@njit(cache=True)
def playout(hands, talon, st, sp, policy, rng):
    """Finish the game with every seat playing the cheap ``policy`` (an agent kind). The random
    policy is drawn inline, as :func:`simple_action` draws it (the same draws): the call costs
    a random playout 14-18 % of its speed (measured on the cross-game chapter's Durak deals)."""
    mv = np.empty(MAX_ACTIONS, dtype=np.int64)
    while st[ST_PHASE] != PH_OVER:
        k = legal_actions(hands, st, sp, mv)
        if k == 1:
            act = mv[0]
        elif policy == KIND_RANDOM:
            act = mv[randint(rng, k)]
        else:
            act = simple_action(policy, 0, hands, st, sp, mv, k, rng)
        apply_action(hands, talon, st, sp, act)


# ======================================================================================
# Beyond the article: determinised Monte Carlo
# ======================================================================================
@njit(cache=True)
def unseen_cards(hands, talon, st, sp, me):
    """Cards whose place ``me`` does not know: not in his hand, not on the table, not
    discarded, not the trump card lying face up at the bottom of the talon, and not among the
    cards an opponent was seen to take (and has not played since)."""
    seen = st[ST_GONE]
    for i in range(st[ST_SIZE + me]):
        seen |= np.int64(1) << hands[me, i]
    for i in range(st[ST_NA]):
        seen |= np.int64(1) << st[ST_TA + i]
        if i < st[ST_NB]:
            seen |= np.int64(1) << st[ST_TD + i]
    for q in range(sp[SP_NP]):
        if q != me:
            seen |= st[ST_KNOWN + q]
    n = sp[SP_NCARDS]
    if st[ST_DRAWN] < n:
        seen |= np.int64(1) << talon[n - 1]
    out = np.empty(n, dtype=np.int64)
    k = 0
    for i in range(n):  # the talon array holds every card of the deck
        c = talon[i]
        if not (seen >> c) & 1:
            out[k] = c
            k += 1
    return out[:k]


@njit(cache=True)
def determinise(hands, talon, st, sp, me, pool, rng, hands_d, talon_d):
    """A random world consistent with ``me``'s view: each opponent keeps the cards he was seen
    to take, the unseen cards fill the rest of the opponents' hands (sizes kept) and the talon
    above the known bottom card."""
    hands_d[:] = hands
    talon_d[:] = talon
    perm = pool.copy()
    shuffle(perm, rng)
    from_pool = 0
    for q in range(sp[SP_NP]):
        if q == me:
            continue
        known = st[ST_KNOWN + q]
        for i in range(st[ST_SIZE + q]):  # known cards stay (hands_d is a copy of hands)
            if not (known >> hands[q, i]) & 1:
                hands_d[q, i] = perm[from_pool]
                from_pool += 1
    n = sp[SP_NCARDS]
    for i in range(st[ST_DRAWN], n - 1):
        talon_d[i] = perm[from_pool]
        from_pool += 1


@njit(cache=True)
def mc_action(agent, hands, talon, st, sp, mv, k, rng):
    """Determinised Monte Carlo over the legal actions ``mv[:k]`` (common samples for all)."""
    me = st[ST_CUR]
    budget = agent[AG_BUDGET]
    policy = agent[AG_POLICY]
    pool = unseen_cards(hands, talon, st, sp, me)
    hands_d = np.empty_like(hands)
    talon_d = np.empty_like(talon)
    hands_s = np.empty_like(hands)
    talon_s = np.empty_like(talon)
    st_s = np.empty_like(st)
    score = np.zeros(k)
    for _ in range(budget):
        determinise(hands, talon, st, sp, me, pool, rng, hands_d, talon_d)
        for j in range(k):
            hands_s[:] = hands_d
            talon_s[:] = talon_d
            st_s[:] = st
            apply_action(hands_s, talon_s, st_s, sp, mv[j])
            playout(hands_s, talon_s, st_s, sp, policy, rng)
            if st_s[ST_FOOL] != me:
                score[j] += 1.0
    best = 0
    for j in range(1, k):
        if score[j] > score[best]:
            best = j
    return mv[best]


# ======================================================================================
# Registry
# ======================================================================================
#: name -> (kind, evaluator flags, playout policy[, SmallestAI mix bits])
AGENTS = {
    "RandomAI": (KIND_RANDOM, 0, 0),
    "SmallestAI": (KIND_SMALLEST, 0, 0),
    "EvalAI": (KIND_EVAL, 0, 0),
    "EvalAI-article": (KIND_EVAL, ev.ARTICLE_SCALE, 0),
    "EvalAI-truediv": (KIND_EVAL, ev.TRUE_DIVISION, 0),
    "EvalAI-x100": (KIND_EVAL, ev.BONUS_X100, 0),
    "EvalAI-norankbonus": (KIND_EVAL, ev.NO_RANK_BONUS, 0),
    "EvalAI-nounbalanced": (KIND_EVAL, ev.NO_UNBALANCED, 0),
    "EvalAI-nomanycards": (KIND_EVAL, ev.NO_MANY_CARDS, 0),
    "EvalAI-notrumpbonus": (KIND_EVAL, ev.NO_TRUMP_BONUS, 0),
    "EvalAI-nocardvalues": (KIND_EVAL, ev.NO_CARD_VALUES, 0),
    "MC-AI": (KIND_MC, 0, KIND_EVAL),
    "MC-AI-smallest": (KIND_MC, 0, KIND_SMALLEST),
    "MC-AI-random": (KIND_MC, 0, KIND_RANDOM),
    # our diagnosis of EvalAI against SmallestAI: one decision handed to SmallestAI's rule
    "EvalAI/lead-smallest": (KIND_EVAL, 0, 0, MIX_LEAD),
    "EvalAI/lead-nobonus": (KIND_EVAL, 0, 0, MIX_LEAD_HV),
    "EvalAI/throw-always": (KIND_EVAL, 0, 0, MIX_THROW_ALWAYS),
    "EvalAI/throw-smallest": (KIND_EVAL, 0, 0, MIX_THROW_SMALLEST),
    "EvalAI/beat-always": (KIND_EVAL, 0, 0, MIX_BEAT_ALWAYS),
    "EvalAI/defend-smallest": (KIND_EVAL, 0, 0, MIX_DEFEND_SMALLEST),
}

AGENT_DESCRIPTIONS = {
    "RandomAI": "uniformly random legal action (taking / passing included)",
    "SmallestAI": "smallest legal card (non-trumps first), always beats when possible",
    "EvalAI": "OpenFool's AI: article evaluator (deck scale, Int division, bonus as coded)",
    "EvalAI-article": "EvalAI with the article's card scale (rank - 8, ace 6)",
    "EvalAI-truediv": "EvalAI with real division in the many-cards term",
    "EvalAI-x100": "EvalAI with the same-rank bonus x 100",
    "EvalAI-norankbonus": "EvalAI without the same-rank bonus (ablation)",
    "EvalAI-nounbalanced": "EvalAI without the unbalanced-hand penalty (ablation)",
    "EvalAI-nomanycards": "EvalAI without the many-cards term (ablation)",
    "EvalAI-notrumpbonus": "EvalAI without the +1300 for trumps (ablation)",
    "EvalAI-nocardvalues": "EvalAI without the per-card rank values (ablation)",
    "MC-AI": "beyond the article: determinised Monte Carlo, EvalAI playouts",
    "MC-AI-smallest": "beyond the article: determinised Monte Carlo, SmallestAI playouts",
    "MC-AI-random": "beyond the article: determinised Monte Carlo, RandomAI playouts",
    "EvalAI/lead-smallest": "diagnosis: EvalAI, but it leads its smallest card (SmallestAI's lead)",
    "EvalAI/lead-nobonus": "diagnosis: EvalAI, but its opening attack maximises HV(hand - c) "
                           "alone, without the bonus A[n] x oldBase(rank) x 100",
    "EvalAI/throw-always": "diagnosis: EvalAI without the throw-in threshold (always throws its "
                           "best card when it can)",
    "EvalAI/throw-smallest": "diagnosis: EvalAI, but it throws in as SmallestAI does (always, "
                             "the smallest card)",
    "EvalAI/beat-always": "diagnosis: EvalAI without the defence thresholds (beats with its "
                          "best card whenever it can)",
    "EvalAI/defend-smallest": "diagnosis: EvalAI, but it defends as SmallestAI does (beats with "
                              "the smallest card whenever it can)",
}


def agent_row(name: str, budget: int = 20) -> np.ndarray:
    """The ``ag`` row of a registered agent; ``budget`` = MC determinisations per decision."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; allowed: {', '.join(AGENTS)}")
    if not isinstance(budget, (int, np.integer)) or isinstance(budget, bool) or budget < 1:
        raise ValueError(f"budget must be an int >= 1, got {budget!r}")
    kind, flags, policy, *mix = AGENTS[name]
    row = np.zeros(AG_LEN, dtype=np.int64)
    row[AG_KIND] = kind
    row[AG_FLAGS] = flags
    row[AG_BUDGET] = budget
    row[AG_POLICY] = policy
    row[AG_MIX] = mix[0] if mix else 0
    return row


def agents_array(seats, budget: int = 20) -> np.ndarray:
    return np.stack([agent_row(name, budget) for name in seats])


def is_monte_carlo(name: str) -> bool:
    return AGENTS[name][0] == KIND_MC
